package nodestate

import (
	"crypto/sha256"
	"encoding/hex"
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
// keep working after one, and it is gone at a reboot, as the mount is. The
// kernel holds the password of a CIFS mount for its whole life anyway (it
// needs it to reconnect); the keyring adds no place a root process on the
// node could not already reach, and none on disk. An encrypted file was
// not chosen: its key would have to live somewhere on the node too.
//
// Where the keyring cannot be used (a seccomp profile that forbids keyctl,
// Windows), credentials are kept in the plugin's memory only. After a
// plugin restart such a mount's record has no credentials, and the next
// republish (every minute with requiresRepublish) brings them back from
// the Secret; until then a broken mount cannot be remounted.

// credStore keeps credentials by record key.
type credStore interface {
	put(key string, c share.Credentials) error
	get(key string) (share.Credentials, bool)
	drop(key string)
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

func (s *memoryCreds) put(key string, c share.Credentials) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.m == nil {
		s.m = map[string]share.Credentials{}
	}
	s.m[key] = c
	return nil
}

func (s *memoryCreds) get(key string) (share.Credentials, bool) {
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
