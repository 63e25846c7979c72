//go:build linux

package nodestate

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fileshare-csi/fileshare-csi/pkg/mounter"
	"github.com/fileshare-csi/fileshare-csi/pkg/share"
)

// An earlier version's record holds the password in plain text. At start
// it is rewritten without it, also when the sealing key file is refused (a
// mode an administrator must look at): the rewrite was skipped then, and
// the password stayed on disk in the state directory.
func TestAnOldRecordLosesItsPasswordEvenWhenTheSealKeyIsRefused(t *testing.T) {
	n := NodeStore{Dir: filepath.Join(t.TempDir(), "state")}
	if err := os.MkdirAll(n.Dir, 0o700); err != nil {
		t.Fatal(err)
	}
	// A key file that is not 0600: refused, not replaced.
	if err := os.WriteFile(sealKeyFile(n.Dir), make([]byte, sealKeyLen), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(sealKeyFile(n.Dir), 0o644); err != nil {
		t.Fatal(err)
	}
	old := Staged{Request: mounter.StageRequest{StagingPath: "/stage/old", Credentials: share.Credentials{Username: "u", Password: "OLD-PLAINTEXT"}}}
	b, _ := json.Marshal(old)
	if err := os.WriteFile(n.path(kindStaged, "/stage/old"), b, 0o600); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { n.DropStaged("/stage/old") })
	_, err := n.MoveCredentialsOutOfRecords()
	t.Logf("MoveCredentialsOutOfRecords: %v", err)
	got, _ := os.ReadFile(n.path(kindStaged, "/stage/old"))
	if strings.Contains(string(got), "OLD-PLAINTEXT") {
		t.Error("the record still holds the password in plain text on disk")
	}
}
