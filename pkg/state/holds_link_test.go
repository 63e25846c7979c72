package state

import (
	"context"
	"strings"
	"testing"

	"github.com/fileshare-csi/fileshare-csi/pkg/share/memshare"
)

// A hold is a directory in holds/ named by a hash of a path, which anyone
// who knows a class's base can work out. On a server that resolves links
// for its clients (Samba's default), a link to one, planted in a volume
// (over NFS on a share exported both ways), showed the delete walk the
// hold as a directory of the volume's own: deleting the volume emptied the
// hold, and a later claim could be made around the volumes it kept. The
// walks fence every directory in holds/ now.
func TestADeleteNeverEmptiesAHoldALinkLeadsTo(t *testing.T) {
	ctx := context.Background()
	sh := memshare.New()
	st := storeOn(sh, &clock{t0})
	kept, err := st.Create(ctx, CreateRequest{Path: "base/ns/pvc-kept", Name: "pvc-kept", Perm: 0o777})
	if err != nil {
		t.Fatal(err)
	}
	rec, err := st.Create(ctx, CreateRequest{Path: "base/pvc-tenant", Name: "pvc-tenant", Perm: 0o777})
	if err != nil {
		t.Fatal(err)
	}
	held := map[string]bool{}
	for _, e := range sh.Dump() {
		if strings.HasPrefix(e.Path, Dir+"/holds/") && !e.Dir {
			held[e.Path] = true
		}
	}
	if len(held) == 0 {
		t.Fatal("no holds were made: the test does not test")
	}
	sh.FollowLinks = true
	// Absolute: the delete moves the volume into the quarantine first,
	// where a relative link would lead elsewhere (Samba resolves one that
	// stays inside the share).
	n := 0
	for _, e := range sh.Dump() {
		if strings.HasPrefix(e.Path, Dir+"/holds/") && e.Dir && strings.Count(e.Path, "/") == 2 {
			n++
			if err := sh.Symlink("/"+e.Path, rec.Path+"/link"+strings.Repeat("x", n)); err != nil {
				t.Fatal(err)
			}
		}
	}
	if err := st.DeleteVolume(ctx, rec); err != nil {
		t.Fatalf("delete of the volume holding links to the holds: %v", err)
	}
	for p := range held {
		if !strings.HasSuffix(p, "/"+key(kept.Path)) {
			continue // the deleted volume's own hold goes with it
		}
		found := false
		for _, e := range sh.Dump() {
			found = found || e.Path == p
		}
		if !found {
			t.Errorf("%s, which kept %s, was removed by the delete of %s through a link", p, kept.Path, rec.Path)
		}
	}
}
