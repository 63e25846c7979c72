//go:build linux

package nodestate

import (
	"path/filepath"
	"testing"

	"golang.org/x/sys/unix"

	"github.com/fileshare-csi/fileshare-csi/pkg/mounter"
	"github.com/fileshare-csi/fileshare-csi/pkg/share"
)

// On Linux the credentials are a key in root's user keyring, readable by
// its owner only, and invalidated at unstage.
func TestStagedCredentialsAreAKernelKeyUntilUnstage(t *testing.T) {
	n := NodeStore{Dir: filepath.Join(t.TempDir(), "state")}
	key := credKey(n.Dir, "/stage/k")
	if _, err := unix.AddKey("user", "fileshare-csi:probe", []byte("x"), unix.KEY_SPEC_USER_KEYRING); err != nil {
		t.Skipf("no kernel keyring here (%v): the store keeps credentials in memory", err)
	}
	creds.(*keyringCreds).drop("fileshare-csi:probe")
	c := share.Credentials{Username: "u", Password: pw}
	if err := n.SaveStaged("/stage/k", Staged{Request: mounter.StageRequest{StagingPath: "/stage/k", Credentials: c}}); err != nil {
		t.Fatal(err)
	}
	id, err := unix.KeyctlSearch(unix.KEY_SPEC_USER_KEYRING, "user", key, 0)
	if err != nil {
		t.Fatalf("no key %s in the user keyring: %v", key, err)
	}
	desc, err := unix.KeyctlString(unix.KEYCTL_DESCRIBE, id)
	if err != nil {
		t.Fatal(err)
	}
	// type;uid;gid;perm;description
	if want := "user;0;"; len(desc) < len(want) || desc[:len(want)] != want {
		t.Errorf("key %q: want a user key of uid 0", desc)
	}
	var perm uint32
	for i, f := 0, 0; i < len(desc); i++ {
		if desc[i] == ';' {
			f++
			continue
		}
		if f == 3 {
			perm = perm<<4 | uint32(hexDigit(desc[i]))
		}
	}
	if perm != keyPerm {
		t.Errorf("key permissions %08x, want %08x (owner and possessor only)", perm, keyPerm)
	}
	n.DropStaged("/stage/k")
	if _, err := unix.KeyctlSearch(unix.KEY_SPEC_USER_KEYRING, "user", key, 0); err == nil {
		t.Fatal("the key is still in the keyring after unstage")
	}
}

func hexDigit(b byte) byte {
	if b >= 'a' {
		return b - 'a' + 10
	}
	return b - '0'
}
