package nodestate

import (
	"crypto/pbkdf2"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"fmt"

	"github.com/fileshare-csi/fileshare-csi/pkg/share"
)

// Identity is who a Windows node's SMB global mapping of a volume's share
// logs on as, kept in the volume's record so that it outlives a restart of
// the plugin (the credentials themselves are in its memory only, see
// creds.go). Windows allows one set of credentials per server and node, and
// a volume must never use another volume's: NodeStageVolume compares a new
// volume's Secret with the identity of every volume staged on the same
// server (driver.mappingConflict).
//
// The user, domain and principal are names, which the driver logs anyway.
// The password is kept only as a salted PBKDF2-HMAC-SHA256 hash: enough to
// tell whether a Secret brings the password the mapping was made with,
// costly to guess from, and never the password. Windows keeps the password
// of a global mapping itself, for the mapping's life, where SYSTEM reads it:
// the hash adds nothing an administrator of the node could not reach.
type Identity struct {
	Username     string `json:"username,omitempty"`
	Domain       string `json:"domain,omitempty"`
	Principal    string `json:"principal,omitempty"`
	Salt         []byte `json:"salt"`
	PasswordHash []byte `json:"passwordHash"`
}

// identityIterations is PBKDF2's work factor: tens of milliseconds per
// hash, paid once per stage and per comparison after a plugin restart.
const identityIterations = 100_000

// NewIdentity returns the identity of c, with a fresh salt.
func NewIdentity(c share.Credentials) (*Identity, error) {
	salt := make([]byte, 16)
	if _, err := rand.Read(salt); err != nil {
		return nil, fmt.Errorf("salt for the credentials' hash: %w", err)
	}
	sum, err := passwordHash(c.Password, salt)
	if err != nil {
		return nil, err
	}
	return &Identity{Username: c.Username, Domain: c.Domain, Principal: c.Principal, Salt: salt, PasswordHash: sum}, nil
}

func passwordHash(password string, salt []byte) ([]byte, error) {
	sum, err := pbkdf2.Key(sha256.New, password, salt, identityIterations, 32)
	if err != nil {
		return nil, fmt.Errorf("hash the credentials: %w", err)
	}
	return sum, nil
}

// User is the identity's credentials without the password: what names the
// user.
func (i *Identity) User() share.Credentials {
	return share.Credentials{Username: i.Username, Domain: i.Domain, Principal: i.Principal}
}

// SamePassword reports whether password is the one the identity was made
// with.
func (i *Identity) SamePassword(password string) bool {
	sum, err := passwordHash(password, i.Salt)
	return err == nil && len(i.PasswordHash) > 0 && subtle.ConstantTimeCompare(sum, i.PasswordHash) == 1
}
