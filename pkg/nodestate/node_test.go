package nodestate

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	"github.com/fileshare-csi/fileshare-csi/pkg/mounter"
	"github.com/fileshare-csi/fileshare-csi/pkg/share"
)

func TestNodeStoreRoundTripAndContract(t *testing.T) {
	n := NodeStore{Dir: filepath.Join(t.TempDir(), "state")}
	if _, err := n.Staged("/stage/a"); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("no record yet: %v, want fs.ErrNotExist", err)
	}
	req := mounter.StageRequest{SubDir: "a", StagingPath: "/stage/a", Credentials: share.Credentials{Username: "u", Password: "p"}}
	if err := n.SaveStaged("/stage/a", Staged{Request: req}); err != nil {
		t.Fatal(err)
	}
	got, err := n.Staged("/stage/a")
	if err != nil || got.Request.SubDir != "a" || got.Request.Credentials.Password != "p" {
		t.Errorf("Staged = %+v, %v", got, err)
	}
	files, _ := filepath.Glob(filepath.Join(n.Dir, "*"))
	for _, f := range files {
		fi, err := os.Stat(f)
		if err != nil || fi.Mode().Perm() != 0o600 {
			t.Errorf("%s holds credentials with mode %v (%v), want 0600", f, fi.Mode().Perm(), err)
		}
	}
	if fi, err := os.Stat(n.Dir); err != nil || fi.Mode().Perm() != 0o700 {
		t.Errorf("state dir mode %v (%v), want 0700", fi.Mode().Perm(), err)
	}
	n.DropStaged("/stage/a")
	if _, err := n.Staged("/stage/a"); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("dropped record: %v, want fs.ErrNotExist", err)
	}

	for _, p := range []Published{{VolumeID: "v1", TargetPath: "/t/1"}, {VolumeID: "v1", TargetPath: "/t/2"}, {VolumeID: "v2", TargetPath: "/t/3"}} {
		if err := n.SavePublished(p); err != nil {
			t.Fatal(err)
		}
	}
	if got := n.PublishedOf("v1"); len(got) != 2 {
		t.Errorf("PublishedOf(v1) = %+v, want two targets", got)
	}
	n.DropPublished("/t/1")
	if got := n.PublishedOf("v1"); len(got) != 1 || got[0].TargetPath != "/t/2" {
		t.Errorf("after a drop PublishedOf(v1) = %+v", got)
	}

	off := NodeStore{}
	if err := off.SaveStaged("/x", Staged{}); err != nil {
		t.Errorf("a disabled store saves nothing and fails nothing: %v", err)
	}
	if _, err := off.Published("/x"); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("disabled store: %v, want fs.ErrNotExist", err)
	}
}

// A restarted node plugin lists what it had staged (for its mount metrics);
// a corrupt record is skipped, not fatal.
func TestNodeStoreListsEveryStagedVolume(t *testing.T) {
	n := NodeStore{Dir: t.TempDir()}
	for _, p := range []string{"/stage/a", "/stage/b"} {
		if err := n.SaveStaged(p, Staged{Request: mounter.StageRequest{StagingPath: p}}); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(n.Dir, "staged-corrupt.json"), []byte("{"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := n.SavePublished(Published{VolumeID: "v", TargetPath: "/pod/x"}); err != nil {
		t.Fatal(err)
	}
	got := map[string]bool{}
	for _, s := range n.AllStaged() {
		got[s.Request.StagingPath] = true
	}
	if len(got) != 2 || !got["/stage/a"] || !got["/stage/b"] {
		t.Fatalf("AllStaged = %v, want /stage/a and /stage/b", got)
	}
	if len((NodeStore{}).AllStaged()) != 0 {
		t.Fatal("a disabled store lists records")
	}
}
