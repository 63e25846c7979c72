package nodestate

import (
	"crypto/sha256"
	"encoding/hex"
	"path/filepath"
	"sync"

	"github.com/fileshare-csi/fileshare-csi/pkg/share"
)

// Where the node keeps the SMB credentials of its mounts (issue #27).
//
// A staged volume's password is needed after the mount is made: to remount
// it when it breaks (a server restart leaves a stale handle, a lost
// session) from NodeGetVolumeStats and NodePublishVolume, and to tell
// whether the Secret of a republish brings a new password (see
// driver.rotateCredentials). It was kept in the JSON record beside the
// mount's other settings, in plaintext under the state directory, where it
// outlived the mount and an uninstall of the driver.
//
// It is now never written to a file. On Linux it is a key in root's user
// keyring in the kernel (type "user", readable by uid 0 only), one per
// staging path, invalidated when the volume is unstaged: it survives a
// restart of the node plugin, as the mount does, so repairs and rotation
// keep working after one, and it is gone at a reboot, as the mount is.
//
// The key holds the credentials sealed (AES-256-GCM), never in plaintext:
// uid 0 is not only the plugin. Every process of uid 0 in the initial user
// namespace shares root's user keyring, so a pod that runs as root without a
// user namespace (Kubernetes' default seccomp profile, Unconfined, allows
// keyctl) could list it and read every volume's password, keytab and
// krb5.conf. The sealing key is a file in the state directory (sealKeyFile):
// a host path only the node plugin mounts, so such a pod reads ciphertext.
// The file outlives a reboot; what it sealed does not. Each payload is bound
// to its key's description, so it does not open under another volume's name,
// and one that does not open (an earlier version's plaintext, a key file
// replaced) is invalidated and reads as none: the volume's next stage or
// republish brings the Secret again, as after a reboot. Not an encrypted
// file instead of the keyring: the kernel keeps the sealed payload off disk,
// and drops it at a reboot with the mount.
//
// Where the keyring cannot be used (a seccomp profile that forbids keyctl,
// Windows), credentials are kept in the plugin's memory only. After a
// plugin restart such a mount's record has no credentials, and the next
// republish (every minute with requiresRepublish) brings them back from
// the Secret (unless it names another user than the live mount shows:
// driver.rotateCredentials); until then a broken mount cannot be remounted.

// credStore keeps credentials by record key. put and get seal and open them
// with the key in keyFile, where they are kept outside the plugin (memory
// needs no key).
type credStore interface {
	put(keyFile, key string, c share.Credentials) error
	get(keyFile, key string) (share.Credentials, bool)
	drop(key string)
}

// sealKeyFile is where the node store in dir keeps the key that seals its
// credentials: in dir itself, the one host path only the plugin mounts.
func sealKeyFile(dir string) string {
	return filepath.Join(dir, "credentials.key")
}

// credKey names the credentials of the record of path in dir: a hash, so
// neither the key's description nor anything else tells the path.
func credKey(dir, path string) string {
	sum := sha256.Sum256([]byte(dir + "\x00" + path))
	return "fileshare-csi:" + hex.EncodeToString(sum[:16])
}

// memoryCreds is the fallback: the plugin's memory.
type memoryCreds struct {
	mu sync.Mutex
	m  map[string]share.Credentials
}

func (s *memoryCreds) put(_, key string, c share.Credentials) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.m == nil {
		s.m = map[string]share.Credentials{}
	}
	s.m[key] = c
	return nil
}

func (s *memoryCreds) get(_, key string) (share.Credentials, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	c, ok := s.m[key]
	return c, ok
}

func (s *memoryCreds) drop(key string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.m, key)
}
