//go:build linux

package nodestate

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
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
	needKeyring(t)
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

func needKeyring(t *testing.T) {
	t.Helper()
	if _, err := unix.AddKey("user", "fileshare-csi:probe", []byte("x"), unix.KEY_SPEC_USER_KEYRING); err != nil {
		t.Skipf("no kernel keyring here (%v): the store keeps credentials in memory", err)
	}
	creds.(*keyringCreds).drop("fileshare-csi:probe")
}

// rawKey is what any process of uid 0 reads of the key named desc.
func rawKey(t *testing.T, desc string) ([]byte, bool) {
	t.Helper()
	id, err := unix.KeyctlSearch(unix.KEY_SPEC_USER_KEYRING, "user", desc, 0)
	if err != nil {
		return nil, false
	}
	buf := make([]byte, 32767)
	n, err := unix.KeyctlBuffer(unix.KEYCTL_READ, id, buf, 0)
	if err != nil {
		t.Fatalf("KEYCTL_READ %s: %v", desc, err)
	}
	return buf[:n], true
}

// A root pod on the node shares root's user keyring: it must read
// ciphertext only, which opens with the key file and under its own name.
func TestKeyringHoldsCredentialsSealed(t *testing.T) {
	needKeyring(t)
	dir := t.TempDir()
	kf, key := sealKeyFile(dir), credKey(dir, "/stage/s")
	c := share.Credentials{Username: "sealuser", Password: pw, Principal: "p@R", Keytab: "KEYTAB-" + pw, Krb5Conf: "[libdefaults]"}
	if err := creds.put(kf, key, c); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { creds.drop(key) })
	raw, ok := rawKey(t, key)
	if !ok {
		t.Fatal("no key in the user keyring")
	}
	for _, s := range []string{pw, "sealuser", "libdefaults", "Password"} {
		if bytes.Contains(raw, []byte(s)) {
			t.Errorf("the keyring holds %q in plaintext", s)
		}
	}
	if got, ok := creds.get(kf, key); !ok || got != c {
		t.Fatalf("get = %+v, %v; want %+v", got, ok, c)
	}
	// A second put seals under a new nonce.
	if err := creds.put(kf, key, c); err != nil {
		t.Fatal(err)
	}
	if again, _ := rawKey(t, key); bytes.Equal(again, raw) {
		t.Error("two puts sealed the same bytes: the nonce is not fresh")
	}

	// Moved to another volume's name, the payload does not open, and goes.
	other := credKey(dir, "/stage/other")
	if _, err := unix.AddKey("user", other, raw, unix.KEY_SPEC_USER_KEYRING); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { creds.drop(other) })
	if got, ok := creds.get(kf, other); ok {
		t.Fatalf("a payload moved to another name opened: %+v", got)
	}
	if _, ok := rawKey(t, other); ok {
		t.Error("the moved payload is still in the keyring")
	}
	if got, ok := creds.get(kf, key); !ok || got != c {
		t.Fatalf("the original key after the move: %+v, %v", got, ok)
	}
}

// What does not open reads as no credentials (the stage asks for the
// Secret again) and leaves the keyring: a payload of an earlier version, in
// plaintext, or one sealed with a key file since replaced or removed.
func TestCredentialsThatDoNotOpenReadAsNone(t *testing.T) {
	needKeyring(t)
	n := NodeStore{Dir: filepath.Join(t.TempDir(), "state")}
	c := share.Credentials{Username: "u", Password: pw}
	stage := func(p string) string {
		t.Helper()
		if err := n.SaveStaged(p, Staged{Request: mounter.StageRequest{StagingPath: p, Credentials: c}}); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { n.DropStaged(p) })
		return credKey(n.Dir, p)
	}
	noCredentials := func(p, why string) {
		t.Helper()
		s, err := n.Staged(p)
		if err != nil || s.Request.Credentials != (share.Credentials{}) || s.Request.StagingPath != p {
			t.Fatalf("%s: Staged = %+v, %v; want the record, without credentials", why, s, err)
		}
		if _, ok := rawKey(t, credKey(n.Dir, p)); ok {
			t.Errorf("%s: the key is still in the keyring", why)
		}
	}

	// Plaintext in a volume's key is never taken for its credentials, at
	// the start or later: a pod that runs as root without a user
	// namespace shares root's keyring, and could write its own login into
	// another volume's key (keyctl update) for a repair to remount that
	// volume with. It reads as none, and is removed.
	key := stage("/stage/planted")
	if _, err := unix.AddKey("user", key, []byte(`{"Username":"mallory","Password":"`+pw+`"}`), unix.KEY_SPEC_USER_KEYRING); err != nil {
		t.Fatal(err)
	}
	if _, err := n.MoveCredentialsOutOfRecords(); err != nil {
		t.Fatal(err)
	}
	noCredentials("/stage/planted", "plaintext planted in the key, after the start")
	key = stage("/stage/planted-later")
	if _, err := unix.AddKey("user", key, []byte(`{"Username":"mallory","Password":"`+pw+`"}`), unix.KEY_SPEC_USER_KEYRING); err != nil {
		t.Fatal(err)
	}
	noCredentials("/stage/planted-later", "plaintext planted in the key while the plugin runs")

	// A key file replaced by another (another node's, a restore).
	stage("/stage/replaced")
	if err := os.Remove(sealKeyFile(n.Dir)); err != nil {
		t.Fatal(err)
	}
	if _, err := sealKey(sealKeyFile(n.Dir)); err != nil {
		t.Fatal(err)
	}
	noCredentials("/stage/replaced", "key file replaced")

	// A key file removed.
	stage("/stage/removed")
	if err := os.Remove(sealKeyFile(n.Dir)); err != nil {
		t.Fatal(err)
	}
	noCredentials("/stage/removed", "key file removed")

	// And what is staged after works again.
	stage("/stage/new")
	if s, err := n.Staged("/stage/new"); err != nil || s.Request.Credentials != c {
		t.Fatalf("after a new key file: %+v, %v", s, err)
	}
}

// The key file is the plugin's own: made 0600, and nothing else in its
// place is used (nor replaced).
func TestSealKeyFileIsRefusedUnlessThePluginMadeIt(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "state")
	kf := sealKeyFile(dir)
	key, err := sealKey(kf)
	if err != nil {
		t.Fatal(err)
	}
	fi, err := os.Lstat(kf)
	if err != nil || !fi.Mode().IsRegular() || fi.Mode().Perm() != 0o600 || fi.Size() != sealKeyLen {
		t.Fatalf("key file %v, %v: want a regular file of mode 0600 and 32 bytes", fi, err)
	}
	if again, err := sealKey(kf); err != nil || !bytes.Equal(again, key) {
		t.Fatalf("second use: %x, %v; want the same key", again, err)
	}

	refused := func(what string, setup func(p string)) {
		t.Helper()
		d := t.TempDir()
		p := sealKeyFile(d)
		setup(p)
		before, _ := os.Lstat(p)
		if k, err := sealKey(p); err == nil {
			t.Errorf("%s: sealKey used it (%x)", what, k)
		}
		if k, err := loadSealKey(p); err == nil {
			t.Errorf("%s: loadSealKey used it (%x)", what, k)
		}
		if after, err := os.Lstat(p); err != nil || !os.SameFile(before, after) || after.Mode() != before.Mode() {
			t.Errorf("%s: replaced or changed", what)
		}
		// A stage with it fails, and says why.
		n := NodeStore{Dir: d}
		err := n.SaveStaged("/stage/r", Staged{Request: mounter.StageRequest{StagingPath: "/stage/r", Credentials: share.Credentials{Username: "u", Password: pw}}})
		n.DropStaged("/stage/r")
		if err == nil || !strings.Contains(err.Error(), "credentials key") {
			t.Errorf("%s: SaveStaged = %v; want the key file refused", what, err)
		}
	}
	refused("a symbolic link to a good key", func(p string) {
		if err := os.Symlink(kf, p); err != nil {
			t.Fatal(err)
		}
	})
	refused("a file of mode 0644", func(p string) {
		if err := os.WriteFile(p, key, 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Chmod(p, 0o644); err != nil {
			t.Fatal(err)
		}
	})
	refused("a short file", func(p string) {
		if err := os.WriteFile(p, key[:16], 0o600); err != nil {
			t.Fatal(err)
		}
	})
	refused("a directory", func(p string) {
		if err := os.Mkdir(p, 0o700); err != nil {
			t.Fatal(err)
		}
	})
	refused("a FIFO", func(p string) {
		if err := unix.Mkfifo(p, 0o600); err != nil {
			t.Fatal(err)
		}
	})
	if os.Geteuid() == 0 {
		refused("a file of another uid", func(p string) {
			if err := os.WriteFile(p, key, 0o600); err != nil {
				t.Fatal(err)
			}
			if err := os.Chown(p, 1, 1); err != nil {
				t.Fatal(err)
			}
		})
	}
	if _, err := loadSealKey(filepath.Join(dir, "none")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("loadSealKey of no file = %v; want not exist", err)
	}
}

// Two plugins (or stages) that find no key file at once end with one key,
// and leave nothing else behind.
func TestConcurrentFirstUsesMakeOneKey(t *testing.T) {
	for range 20 {
		dir := t.TempDir()
		kf := sealKeyFile(dir)
		const n = 8
		keys := make([][]byte, n)
		errs := make([]error, n)
		var start, done sync.WaitGroup
		start.Add(1)
		for i := range n {
			done.Add(1)
			go func() {
				defer done.Done()
				start.Wait()
				keys[i], errs[i] = sealKey(kf)
			}()
		}
		start.Done()
		done.Wait()
		for i := range n {
			if errs[i] != nil {
				t.Fatalf("use %d: %v", i, errs[i])
			}
			if !bytes.Equal(keys[i], keys[0]) {
				t.Fatalf("use %d got another key than use 0", i)
			}
		}
		if onDisk, err := loadSealKey(kf); err != nil || !bytes.Equal(onDisk, keys[0]) {
			t.Fatalf("the key file holds another key (%v)", err)
		}
		if left, _ := os.ReadDir(dir); len(left) != 1 {
			t.Fatalf("left behind: %v", left)
		}
	}
}
