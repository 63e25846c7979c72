package smb

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"net"
	"sync"

	smb2 "github.com/cloudsoda/go-smb2"

	"github.com/fileshare-csi/fileshare-csi/pkg/share"
	"github.com/fileshare-csi/fileshare-csi/pkg/source"
)

// errNotSealed is what a write of a clear SMB2 message returns once a
// session must be encrypted.
var errNotSealed = errors.New("refused to send an SMB2 message in the clear on a session that must be encrypted")

// sealConn enforces encryption: required on the controller's side. go-smb2
// encrypts only when the server asks (for the session or the share) and
// neither lets a client demand it nor says whether it does, so the
// connection watches what the library writes. Each direct-TCP frame is a
// 4-byte length and an SMB2 message whose protocol ID is 0xFE 'SMB' in the
// clear and 0xFD 'SMB' when encrypted (a transform header). From enforce
// on (after the session setup and tree connect, which are clear by
// design), a frame in the clear is refused before any of its message
// leaves, and the connection is closed: nothing the driver sends after
// the login ever crosses the network unencrypted.
type sealConn struct {
	net.Conn
	mu      sync.Mutex
	enforce bool
	refused bool
	head    [5]byte // the frame's length and the first byte of its message
	got     int     // bytes of head seen
	left    int     // bytes of the frame's message still to come after head
}

// Write passes b on unless, enforcing, it starts a message in the clear.
func (c *sealConn) Write(b []byte) (int, error) {
	c.mu.Lock()
	plain := c.scan(b)
	if plain && c.enforce {
		c.refused = true
		c.mu.Unlock()
		c.Conn.Close()
		return 0, errNotSealed
	}
	c.mu.Unlock()
	return c.Conn.Write(b)
}

// scan follows the frames through b and reports whether a message in the
// clear starts in it.
func (c *sealConn) scan(b []byte) bool {
	plain := false
	for len(b) > 0 {
		if c.got < len(c.head) {
			n := copy(c.head[c.got:], b)
			c.got += n
			b = b[n:]
			if c.got < len(c.head) {
				break
			}
			size := int(binary.BigEndian.Uint32(c.head[:4]) & 0xffffff)
			if size > 0 && c.head[4] != 0xFD {
				plain = true
			}
			c.left = size - 1
			if size == 0 {
				c.left, c.got = 0, 0
			}
			continue
		}
		n := min(c.left, len(b))
		c.left -= n
		b = b[n:]
		if c.left == 0 {
			c.got = 0
		}
	}
	if c.got == len(c.head) && c.left == 0 {
		c.got = 0
	}
	return plain
}

// check turns enforcement on and makes one request on the share, so that a
// server that does not encrypt fails the dial with a message saying so,
// rather than the first call on the session.
func (c *sealConn) check(ctx context.Context, sh *smb2.Share, src source.Source) error {
	c.mu.Lock()
	c.enforce = true
	c.mu.Unlock()
	_, err := sh.WithContext(ctx).Stat("")
	c.mu.Lock()
	refused := c.refused
	c.mu.Unlock()
	if refused {
		return fmt.Errorf("%s: the server does not encrypt this share's traffic, and the class has encryption: required: turn encryption on at the server (Samba: smb encrypt = required; Windows: Set-SmbShare -EncryptData $true) or set encryption: preferred: %w", src.String(), share.ErrPrecondition)
	}
	return err
}
