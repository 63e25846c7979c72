package nfs4

import (
	"io/fs"
	"testing"

	"github.com/fileshare-csi/fileshare-csi/pkg/share"
)

// A copy sets setuid and setgid only with the file's owner (share.KeptMode):
// without it the file stays the controller's user's, and a tenant's setuid
// binary would become that user's.
func TestSetAttrSetsSetuidAndSetgidOnlyWithTheOwner(t *testing.T) {
	const bits = 0o755 | fs.ModeSetuid | fs.ModeSetgid
	for _, tc := range []struct {
		what string
		a    share.Attr
		mask share.AttrMask
		want uint32
	}{
		{"owners by name", share.Attr{Mode: bits, OwnerName: "alice@example.com", GroupName: "staff@example.com"}, share.SetOwner | share.SetMode, 0o6755},
		{"numeric owners", share.Attr{Mode: bits, UID: 5, GID: 6, HasOwner: true}, share.SetOwner | share.SetMode, 0o6755},
		{"no owner asked for", share.Attr{Mode: bits, UID: 5, GID: 6, HasOwner: true}, share.SetMode, 0o755},
		{"no owner known", share.Attr{Mode: bits}, share.SetOwner | share.SetMode, 0o755},
	} {
		sets, err := setAttrList("f", tc.a, tc.mask)
		if err != nil {
			t.Fatal(err)
		}
		last := sets[len(sets)-1]
		if last.mode == nil || *last.mode != tc.want {
			t.Errorf("%s: mode %v, want %#o", tc.what, last.mode, tc.want)
		}
	}
}
