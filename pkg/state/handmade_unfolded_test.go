package state

import (
	"context"
	"errors"
	"io/fs"
	"strings"
	"testing"

	"github.com/fileshare-csi/fileshare-csi/pkg/share/memshare"
)

// The batched way's adopted (createNew) with an earlier build's intent at
// the unfolded key: a share where a volume beside it was made after the
// upgrade, so the folded key's hold directory is there and createNew goes
// on to its MKDIR, which finds the earlier build's directory.
func TestAnEarlierBuildsDirectoryIsNotTakenForAnAdministratorsBatched(t *testing.T) {
	ctx := context.Background()
	c := &clock{t0}
	sh := memshare.New()
	req := CreateRequest{Path: "Data/pvc-a", Name: "pvc-a", Perm: 0o777}
	earlierBuildsCutCreate(t, sh, c, req)
	st := New(caseless{c: sh.Client(), tell: true}).WithClock(c.now, testUID)
	if _, err := st.Create(ctx, CreateRequest{Path: "Data/pvc-b", Name: "pvc-b", Perm: 0o777}); err != nil {
		t.Fatal(err)
	}
	batched := false
	sh.SetHook(func(op memshare.Op, when memshare.When) error {
		if op.Name == "mkdir" && strings.HasSuffix(op.Path, "pvc-a") {
			batched = true
		}
		if atCommit(op) {
			return errDied
		}
		return nil
	})
	if _, err := st.Create(ctx, req); err == nil {
		t.Fatal("the retry was not cut at its commit")
	}
	sh.SetHook(nil)
	if !batched {
		t.Log("the retry did not MKDIR")
	}
	if in, err := st.intent(ctx, req.Path); err == nil && in.AdoptedID != 0 {
		t.Errorf("the retry's intent says the earlier build's directory was there before the driver's creates (AdoptedID %d)", in.AdoptedID)
	}
	reclaimerPasses(t, sh, c)
	if _, err := sh.Client().Stat(ctx, "data/pvc-a"); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("the directory the earlier build's create made is orphaned: %v", err)
	}
}
