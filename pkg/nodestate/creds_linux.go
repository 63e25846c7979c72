//go:build linux

package nodestate

import (
	"encoding/json"
	"errors"
	"io/fs"

	"golang.org/x/sys/unix"

	"github.com/fileshare-csi/fileshare-csi/pkg/share"
)

// creds is root's user keyring, sealed with the key in the state directory,
// or memory where keyctl is refused (see creds.go).
var creds credStore = &keyringCreds{fallback: &memoryCreds{}}

// keyPerm lets the owner (root) and a possessor do everything with a key,
// and nobody else anything. The user part is needed: a container's session
// keyring does not link the user keyring, so the plugin does not possess
// the keys it finds there after a restart.
// (KEY_POS_ALL | KEY_USR_ALL of linux/keyctl.h; x/sys has no names for them.)
const keyPerm = 0x3f000000 | 0x003f0000

type keyringCreds struct {
	fallback *memoryCreds
}

func (k *keyringCreds) put(keyFile, key string, c share.Credentials) error {
	b, err := json.Marshal(c)
	if err != nil {
		return err
	}
	defer clear(b)
	sk, err := sealKey(keyFile)
	if err != nil {
		return err
	}
	sealed, err := seal(sk, key, b)
	clear(sk)
	if err != nil {
		return err
	}
	id, err := unix.AddKey("user", key, sealed, unix.KEY_SPEC_USER_KEYRING)
	if err != nil {
		// No keyring (seccomp, an old kernel): memory it is.
		return k.fallback.put(keyFile, key, c)
	}
	k.fallback.drop(key)
	if _, err := unix.KeyctlInt(unix.KEYCTL_SETPERM, id, keyPerm, 0, 0); err != nil {
		k.invalidate(id)
		return k.fallback.put(keyFile, key, c)
	}
	return nil
}

func (k *keyringCreds) get(keyFile, key string) (share.Credentials, bool) {
	if c, ok := k.fallback.get(keyFile, key); ok {
		return c, true
	}
	id, err := unix.KeyctlSearch(unix.KEY_SPEC_USER_KEYRING, "user", key, 0)
	if err != nil {
		return share.Credentials{}, false
	}
	// A password fits the first buffer; a Kerberos keytab and krb5.conf
	// (kept with --krb5-cache-uids) may not: KEYCTL_READ says how long the
	// key is, and a second read takes it whole (a user key is at most
	// 32767 bytes; sealing adds 28).
	buf := make([]byte, 4096)
	n, err := unix.KeyctlBuffer(unix.KEYCTL_READ, id, buf, 0)
	if err == nil && n > len(buf) {
		clear(buf)
		buf = make([]byte, n)
		n, err = unix.KeyctlBuffer(unix.KEYCTL_READ, id, buf, 0)
	}
	defer clear(buf)
	if err != nil || n > len(buf) {
		return share.Credentials{}, false
	}
	sk, err := loadSealKey(keyFile)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			k.invalidate(id) // the key that sealed it is gone: it never opens
		}
		// A key file that is refused is left for an administrator, with
		// the payload: the next put fails and names it.
		return share.Credentials{}, false
	}
	b, err := unseal(sk, key, buf[:n])
	clear(sk)
	if err != nil {
		// Sealed with a key file since replaced, or not sealed at all: it
		// will never open, and plaintext is never taken for credentials.
		// A pod that runs as root without a user namespace shares root's
		// keyring: it cannot read a sealed key, but it could write its own
		// login into another volume's, for a repair to remount that
		// volume with. Gone now; the stage asks for the Secret again, as
		// after a reboot. (Builds that kept plaintext here were never
		// released.)
		k.invalidate(id)
		return share.Credentials{}, false
	}
	defer clear(b)
	var c share.Credentials
	if json.Unmarshal(b, &c) != nil {
		return share.Credentials{}, false
	}
	return c, true
}

func (k *keyringCreds) drop(key string) {
	k.fallback.drop(key)
	for range 8 { // one key per name, unless put raced with a drop
		id, err := unix.KeyctlSearch(unix.KEY_SPEC_USER_KEYRING, "user", key, 0)
		if err != nil {
			return
		}
		if !k.invalidate(id) {
			return
		}
	}
}

// invalidate destroys the key at once (not only unlinks it), so it is gone
// from the kernel even if something else still links it.
func (k *keyringCreds) invalidate(id int) bool {
	_, err := unix.KeyctlInt(unix.KEYCTL_INVALIDATE, id, 0, 0, 0)
	if errors.Is(err, unix.EOPNOTSUPP) || errors.Is(err, unix.ENOSYS) {
		_, err = unix.KeyctlInt(unix.KEYCTL_UNLINK, id, unix.KEY_SPEC_USER_KEYRING, 0, 0)
	}
	return err == nil
}
