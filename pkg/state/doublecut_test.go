package state

import (
	"context"
	"fmt"
	"testing"

	"github.com/fileshare-csi/fileshare-csi/pkg/share/memshare"
)

// TestEveryTwoCutsConverge: a call cut at one share operation, then its
// retry cut again at another, then a retry that runs to its end: the share
// ends as after an uninterrupted call, with its answer. The crash harness
// cuts one try; a controller restarting twice (or a deadline, then a
// restart) cuts two, and the second try starts from the first's leftovers,
// a state no uncut try leaves. The create and delete scenarios, every pair
// of cuts; then the reclaimer over the second cut never retried.
func TestEveryTwoCutsConverge(t *testing.T) {
	bg := context.Background()
	names := map[string]bool{"CreateVolume": true, "DeleteVolume": true, "DeleteVolume (archive)": true, "CreateVolume adopting an empty directory made by hand": true}
	for _, sc := range scenarios() {
		if !names[sc.name] {
			continue
		}
		t.Run(sc.name, func(t *testing.T) {
			c, base, ref, refErr := uncut(t, sc.setup, sc.call)
			before := canon(base.Dump())
			want := canon(ref.Dump())
			pairs := 0
			eachCut(base, c, ref.Ops(), sc.call, func(first string, once *memshare.Share, _ error) {
				// The second try's own operations, to cut.
				probe := once.Clone()
				probe.SetHook(nil) // numbers its operations from 1
				_ = sc.call(bg, storeOn(probe, c))
				for m := 1; m <= probe.Ops(); m++ {
					for _, second := range []cutMode{dieBefore, dieAfter} {
						pairs++
						at := fmt.Sprintf("%s, then %s op %d of the retry", first, second, m)
						sh := once.Clone()
						sh.SetHook(cut(m, second, func() {}))
						_ = sc.call(bg, storeOn(sh, c))
						sh.SetHook(nil)
						never := sh.Clone()
						got := answer(t, sh, c, sc.call)
						if (got == nil) != (refErr == nil) || !sameRefusal(got, refErr) {
							t.Errorf("%s: the last retry answered %v, the uninterrupted call %v", at, got, refErr)
						}
						if diff := compare(want, canon(sh.Dump())); diff != "" {
							t.Errorf("%s: the share after the last retry differs from an uninterrupted call's:\n%s", at, diff)
						}
						if sc.create {
							checkReclaimed(t, at, never, c, before, want)
						}
					}
				}
			})
			t.Logf("%d pairs of cuts", pairs)
		})
	}
}
