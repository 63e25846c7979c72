package nodestate

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/fileshare-csi/fileshare-csi/pkg/mounter"
	"github.com/fileshare-csi/fileshare-csi/pkg/share"
)

const pw = "Rec0rdPassw0rd"

// noFileHolds fails when any file under dir holds the password.
func noFileHolds(t *testing.T, dir, what string) {
	t.Helper()
	_ = filepath.WalkDir(dir, func(p string, e os.DirEntry, err error) error {
		if err != nil || e.IsDir() {
			return err
		}
		if b, _ := os.ReadFile(p); bytes.Contains(b, []byte(pw)) {
			t.Errorf("%s: %s holds the password", what, p)
		}
		return nil
	})
}

// Issue #27: a staged SMB volume's password is kept for repairs and
// rotation, but never in a file, and not after the volume is unstaged.
func TestStagedCredentialsAreInNoFileAndGoAtUnstage(t *testing.T) {
	n := NodeStore{Dir: filepath.Join(t.TempDir(), "state")}
	c := share.Credentials{Username: "u", Password: pw, Domain: "D"}
	req := mounter.StageRequest{SubDir: "a", StagingPath: "/stage/a", Credentials: c}
	if err := n.SaveStaged("/stage/a", Staged{Request: req}); err != nil {
		t.Fatal(err)
	}
	noFileHolds(t, n.Dir, "after stage")
	got, err := n.Staged("/stage/a")
	if err != nil || got.Request.Credentials != c || got.Request.SubDir != "a" {
		t.Fatalf("Staged = %+v, %v: want the record with its credentials", got, err)
	}
	// A rotation saves the new password over the old.
	c.Password = pw + "2"
	req.Credentials = c
	if err := n.SaveStaged("/stage/a", Staged{Request: req}); err != nil {
		t.Fatal(err)
	}
	if got, _ := n.Staged("/stage/a"); got.Request.Credentials != c {
		t.Fatalf("after a rotation Staged has %+v", got.Request.Credentials)
	}
	noFileHolds(t, n.Dir, "after a rotation")
	n.DropStaged("/stage/a")
	if _, ok := creds.get(sealKeyFile(n.Dir), credKey(n.Dir, "/stage/a")); ok {
		t.Fatal("the credentials outlived the unstage")
	}
	// Another node store (another state dir) never sees them.
	other := NodeStore{Dir: filepath.Join(t.TempDir(), "state")}
	if err := n.SaveStaged("/stage/b", Staged{Request: mounter.StageRequest{StagingPath: "/stage/b", Credentials: c}}); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { n.DropStaged("/stage/b") })
	if err := other.SaveStaged("/stage/b", Staged{Request: mounter.StageRequest{StagingPath: "/stage/b"}}); err != nil {
		t.Fatal(err)
	}
	if got, _ := other.Staged("/stage/b"); got.Request.Credentials != (share.Credentials{}) {
		t.Fatalf("another state dir's record got credentials %+v", got.Request.Credentials)
	}
}

// Records an earlier version wrote with the password in them are rewritten
// without it, and keep working.
func TestCredentialsMoveOutOfOldRecords(t *testing.T) {
	n := NodeStore{Dir: filepath.Join(t.TempDir(), "state")}
	c := share.Credentials{Username: "u", Password: pw}
	old := Staged{Request: mounter.StageRequest{StagingPath: "/stage/old", Credentials: c}}
	b, err := json.Marshal(old)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(n.Dir, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(n.path(kindStaged, "/stage/old"), b, 0o600); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { n.DropStaged("/stage/old") })
	moved, err := n.MoveCredentialsOutOfRecords()
	if err != nil || moved != 1 {
		t.Fatalf("MoveCredentialsOutOfRecords = %d, %v; want 1 record moved", moved, err)
	}
	noFileHolds(t, n.Dir, "after the move")
	if got, err := n.Staged("/stage/old"); err != nil || got.Request.Credentials != c {
		t.Fatalf("Staged after the move = %+v, %v", got, err)
	}
	if moved, err := n.MoveCredentialsOutOfRecords(); err != nil || moved != 0 {
		t.Fatalf("second move = %d, %v; want nothing to do", moved, err)
	}
}
