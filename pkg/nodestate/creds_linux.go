//go:build linux

package nodestate

import (
	"encoding/json"
	"errors"

	"golang.org/x/sys/unix"

	"github.com/fileshare-csi/fileshare-csi/pkg/share"
)

// creds is root's user keyring, or memory where keyctl is refused (see
// creds.go).
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

func (k *keyringCreds) put(key string, c share.Credentials) error {
	b, err := json.Marshal(c)
	if err != nil {
		return err
	}
	id, err := unix.AddKey("user", key, b, unix.KEY_SPEC_USER_KEYRING)
	clear(b)
	if err != nil {
		// No keyring (seccomp, an old kernel): memory it is.
		return k.fallback.put(key, c)
	}
	k.fallback.drop(key)
	if _, err := unix.KeyctlInt(unix.KEYCTL_SETPERM, id, keyPerm, 0, 0); err != nil {
		k.invalidate(id)
		return k.fallback.put(key, c)
	}
	return nil
}

func (k *keyringCreds) get(key string) (share.Credentials, bool) {
	if c, ok := k.fallback.get(key); ok {
		return c, true
	}
	id, err := unix.KeyctlSearch(unix.KEY_SPEC_USER_KEYRING, "user", key, 0)
	if err != nil {
		return share.Credentials{}, false
	}
	// A password fits the first buffer; a Kerberos keytab and krb5.conf
	// (kept with --krb5-cache-uids) may not: KEYCTL_READ says how long the
	// key is, and a second read takes it whole (a user key is at most
	// 32767 bytes).
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
	var c share.Credentials
	if json.Unmarshal(buf[:n], &c) != nil {
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
