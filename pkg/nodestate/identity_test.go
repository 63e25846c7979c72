package nodestate

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fileshare-csi/fileshare-csi/pkg/mounter"
	"github.com/fileshare-csi/fileshare-csi/pkg/share"
)

// A Windows node's record keeps who the volume's mapping logs on as, past
// a restart of the plugin (which empties the credentials it keeps in
// memory), with the password only as a salted hash.
func TestIdentityOutlivesTheCredentialsInMemoryWithoutThePassword(t *testing.T) {
	dir := t.TempDir()
	n := NodeStore{Dir: dir, Identities: true}
	const path, password = `c:\staging\a\globalmount`, "pw-identity-5e"
	c := share.Credentials{Username: "alice", Domain: "CORP", Password: password}
	if err := n.SaveStaged(path, Staged{Request: mounter.StageRequest{StagingPath: path, Credentials: c}, VolumeID: "vol-a"}); err != nil {
		t.Fatal(err)
	}
	defer n.DropStaged(path)
	files, _ := filepath.Glob(filepath.Join(dir, "staged-*.json"))
	if len(files) != 1 {
		t.Fatalf("%d records, want 1", len(files))
	}
	b, err := os.ReadFile(files[0])
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(b), password) || !strings.Contains(string(b), "passwordHash") {
		t.Fatalf("record %s: want a hash and never the password", b)
	}

	inMemory := creds
	creds = &memoryCreds{} // the plugin restarted
	defer func() { creds = inMemory }()
	st, err := n.Staged(path)
	if err != nil {
		t.Fatal(err)
	}
	if st.Request.Credentials != (share.Credentials{}) {
		t.Fatalf("credentials %+v after a restart, want none", st.Request.Credentials)
	}
	if st.VolumeID != "vol-a" || st.Identity == nil || st.Identity.User() != (share.Credentials{Username: "alice", Domain: "CORP"}) {
		t.Fatalf("record %+v, want vol-a with alice's identity", st)
	}
	if !st.Identity.SamePassword(password) || st.Identity.SamePassword("pw-other") || st.Identity.SamePassword("") {
		t.Fatal("the identity does not tell the mapping's password from others")
	}
	// A capacity change keeps it.
	if _, err := n.SetCapacity(path, 1<<30); err != nil {
		t.Fatal(err)
	}
	if st, _ := n.Staged(path); st.Identity == nil || !st.Identity.SamePassword(password) {
		t.Fatal("SetCapacity dropped the identity")
	}

	// Linux nodes keep no identity: their records hold nothing derived
	// from a password.
	linux := NodeStore{Dir: t.TempDir()}
	if err := linux.SaveStaged(path, Staged{Request: mounter.StageRequest{StagingPath: path, Credentials: c}}); err != nil {
		t.Fatal(err)
	}
	defer linux.DropStaged(path)
	if st, _ := linux.Staged(path); st.Identity != nil {
		t.Fatal("a Linux record keeps an identity")
	}
}
