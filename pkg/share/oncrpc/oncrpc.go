// Package oncrpc is a small ONC RPC (RFC 5531) client over TCP. It exists
// because the NFS client library's transport trusts the wire: it allocates
// whatever record length a peer announces (up to 2 GiB), ignores the
// last-fragment bit, and panics on short replies. Here every length read
// from the wire is checked against what was actually received before
// anything is allocated for it.
package oncrpc

import (
	"bufio"
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"os"
	"sync"
	"syscall"
	"time"

	"github.com/vmware/go-nfs-client/nfs/xdr"
)

// MaxRecord bounds one reply record, all fragments together. The largest
// replies the driver asks for are READDIRPLUS with maxcount 64 KiB and READ
// of 32 KiB, plus a few hundred bytes of RPC and NFS headers; servers must
// keep READDIRPLUS within maxcount. 1 MiB leaves 16 times that for servers
// that round up, and still bounds what a hostile peer costs per connection.
const MaxRecord = 1 << 20

// maxAuthBody is the largest opaque_auth body RFC 5531 allows.
const maxAuthBody = 400

// DefaultTimeout bounds a call whose context has no deadline.
const DefaultTimeout = 30 * time.Second

// ErrRefused marks a reply by which the server says it will not run the
// call at all, now or later: it does not run the program, version or
// procedure, or it refuses the caller's credentials. SYSTEM_ERR and
// GARBAGE_ARGS are not refusals: the next call may well be run.
var ErrRefused = errors.New("the server refuses the call")

// ErrMalformed marks a reply that breaks the protocol (bad lengths, a
// truncated header, a record too large, an XID that is not ours). The
// connection is out of step after one and must be closed.
var ErrMalformed = errors.New("malformed RPC reply")

// Conn is one TCP connection to an RPC server. Calls on it are serialized:
// the caller waits for each reply before sending the next call.
type Conn struct {
	mu   sync.Mutex
	conn net.Conn
	r    *bufio.Reader
	xid  uint32
}

// DialReserved connects from a reserved port when running as root, because NFS
// servers by default ("secure" exports) refuse other source ports.
func DialReserved(ctx context.Context, addr string) (*Conn, error) {
	if os.Geteuid() != 0 {
		return Dial(ctx, nil, addr)
	}
	// Walk the whole reserved range from a random start: ports of recently
	// closed sessions sit in TIME_WAIT, and random picks keep hitting them.
	const first, count = 600, 424
	start := rand.IntN(count)
	var lastErr error
	for i := range count {
		ldr := &net.TCPAddr{Port: first + (start+i)%count}
		c, err := Dial(ctx, ldr, addr)
		if err == nil {
			return c, nil
		}
		lastErr = err
		if !errors.Is(err, syscall.EADDRINUSE) && !errors.Is(err, syscall.EADDRNOTAVAIL) {
			return nil, err
		}
	}
	return nil, lastErr
}

// Dial connects to addr, from laddr when it is not nil.
func Dial(ctx context.Context, laddr *net.TCPAddr, addr string) (*Conn, error) {
	d := net.Dialer{}
	if laddr != nil {
		d.LocalAddr = laddr
		d.Control = reuseAddr
	}
	c, err := d.DialContext(ctx, "tcp", addr)
	if err != nil {
		return nil, err
	}
	return NewConn(c), nil
}

// NewConn runs RPC over an established connection.
func NewConn(c net.Conn) *Conn {
	return &Conn{conn: c, r: bufio.NewReader(c), xid: rand.Uint32()}
}

// RemoteAddr is the server's address.
func (c *Conn) RemoteAddr() net.Addr { return c.conn.RemoteAddr() }

// Close closes the connection; a call in progress fails.
func (c *Conn) Close() error { return c.conn.Close() }

// Call sends call, an XDR-encodable value that starts with the call body
// after the message type (rpcvers, prog, vers, proc, cred, verf, then the
// procedure's arguments, as rpc.Header and the argument fields), and returns
// a reader positioned at the procedure's results. It returns at ctx's end:
// cancellation closes the connection. Errors other than the context's
// mean the connection should not be used again.
func (c *Conn) Call(ctx context.Context, call any) (*Reader, error) {
	var body bytes.Buffer
	if err := xdr.Write(&body, call); err != nil {
		return nil, fmt.Errorf("encode RPC call: %w", err)
	}
	return c.CallEncoded(ctx, body.Bytes())
}

// CallEncoded is Call for a call body its caller encoded already: the
// rpcvers, prog, vers, proc, cred and verf fields and the arguments, in XDR.
func (c *Conn) CallEncoded(ctx context.Context, body []byte) (*Reader, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	deadline := time.Now().Add(DefaultTimeout)
	if d, ok := ctx.Deadline(); ok {
		deadline = d
	}
	if err := c.conn.SetDeadline(deadline); err != nil {
		return nil, err
	}
	stop := context.AfterFunc(ctx, func() { c.conn.Close() })
	defer stop()

	c.xid++
	xid := c.xid
	b := make([]byte, 12, 12+len(body))
	binary.BigEndian.PutUint32(b[4:], xid)
	// b[8:12] stays 0: the message type CALL.
	b = append(b, body...)
	binary.BigEndian.PutUint32(b, uint32(len(b)-4)|lastFragment)

	res, err := c.exchange(b)
	if err != nil {
		if ctxErr := ctx.Err(); ctxErr != nil {
			return nil, fmt.Errorf("%w (%v)", ctxErr, err)
		}
		var ne net.Error
		if errors.As(err, &ne) && ne.Timeout() {
			return nil, fmt.Errorf("%w: no RPC reply in time: %w", context.DeadlineExceeded, err)
		}
		return nil, err
	}
	return ParseReply(res, xid)
}

func (c *Conn) exchange(call []byte) ([]byte, error) {
	if _, err := c.conn.Write(call); err != nil {
		return nil, fmt.Errorf("send RPC call: %w", err)
	}
	return ReadRecord(c.r, MaxRecord)
}

const lastFragment = 1 << 31

// ReadRecord reads one record-marked record (RFC 5531 section 11): the
// fragments up to and including the one with the last-fragment bit. A record
// longer than max is refused before anything is allocated for it.
func ReadRecord(r io.Reader, max int) ([]byte, error) {
	var rec []byte
	var mark [4]byte
	for {
		if _, err := io.ReadFull(r, mark[:]); err != nil {
			if len(rec) > 0 && errors.Is(err, io.EOF) {
				err = io.ErrUnexpectedEOF
			}
			return nil, fmt.Errorf("read RPC record mark: %w", err)
		}
		m := binary.BigEndian.Uint32(mark[:])
		n := int(m &^ lastFragment)
		if n > max-len(rec) {
			return nil, fmt.Errorf("%w: record of more than %d bytes (fragment of %d after %d), the limit is %d",
				ErrMalformed, len(rec)+n, n, len(rec), max)
		}
		start := len(rec)
		rec = grow(rec, n)
		if _, err := io.ReadFull(r, rec[start:]); err != nil {
			if errors.Is(err, io.EOF) {
				err = io.ErrUnexpectedEOF
			}
			return nil, fmt.Errorf("read RPC record of %d bytes: %w", n, err)
		}
		if m&lastFragment != 0 {
			return rec, nil
		}
	}
}

// grow extends b by n bytes; n was checked against the record limit.
func grow(b []byte, n int) []byte {
	if cap(b)-len(b) >= n {
		return b[:len(b)+n]
	}
	nb := make([]byte, len(b)+n)
	copy(nb, b)
	return nb
}

// Reply message constants (RFC 5531 section 9).
const (
	msgReply     = 1
	msgAccepted  = 0
	msgDenied    = 1
	acceptOK     = 0
	progUnavail  = 1
	progMismatch = 2
	procUnavail  = 3
	garbageArgs  = 4
	systemErr    = 5
	rpcMismatch  = 0
	authError    = 1
)

// ParseReply checks the reply header of rec, the reply to call xid, and
// returns a reader at the procedure's results. A reply the server could not
// run (denied, or accepted with an error) is an error naming why.
func ParseReply(rec []byte, xid uint32) (*Reader, error) {
	r := NewReader(rec)
	var hdr struct{ Xid, MsgType, Stat uint32 }
	if err := r.Decode(&hdr); err != nil {
		return nil, fmt.Errorf("RPC reply header: %w", err)
	}
	if hdr.Xid != xid {
		return nil, fmt.Errorf("%w: reply to call %#x while waiting for %#x", ErrMalformed, hdr.Xid, xid)
	}
	if hdr.MsgType != msgReply {
		return nil, fmt.Errorf("%w: message type %d, not a reply", ErrMalformed, hdr.MsgType)
	}
	switch hdr.Stat {
	case msgAccepted:
		if err := r.skipAuth(); err != nil {
			return nil, err
		}
		stat, err := r.Uint32()
		if err != nil {
			return nil, fmt.Errorf("RPC accept status: %w", err)
		}
		switch stat {
		case acceptOK:
			return r, nil
		case progUnavail:
			return nil, fmt.Errorf("%w: RPC: the server does not run this program (PROG_UNAVAIL)", ErrRefused)
		case progMismatch:
			lo, hi, err := r.pair()
			if err != nil {
				return nil, err
			}
			return nil, fmt.Errorf("%w: RPC: the server runs versions %d to %d of this program, not ours (PROG_MISMATCH)", ErrRefused, lo, hi)
		case procUnavail:
			return nil, fmt.Errorf("%w: RPC: the server does not implement this procedure (PROC_UNAVAIL)", ErrRefused)
		case garbageArgs:
			return nil, errors.New("RPC: the server could not decode the arguments (GARBAGE_ARGS)")
		case systemErr:
			return nil, errors.New("RPC: the server failed (SYSTEM_ERR)")
		}
		return nil, fmt.Errorf("%w: unknown accept status %d", ErrMalformed, stat)
	case msgDenied:
		stat, err := r.Uint32()
		if err != nil {
			return nil, fmt.Errorf("RPC reject status: %w", err)
		}
		switch stat {
		case rpcMismatch:
			lo, hi, err := r.pair()
			if err != nil {
				return nil, err
			}
			return nil, fmt.Errorf("%w: RPC: call denied, the server speaks RPC versions %d to %d (RPC_MISMATCH)", ErrRefused, lo, hi)
		case authError:
			why, err := r.Uint32()
			if err != nil {
				return nil, fmt.Errorf("RPC auth status: %w", err)
			}
			return nil, fmt.Errorf("%w: RPC: call denied, the server refuses our AUTH_SYS credentials (auth_stat %d)", ErrRefused, why)
		}
		return nil, fmt.Errorf("%w: unknown reject status %d", ErrMalformed, stat)
	}
	return nil, fmt.Errorf("%w: unknown reply status %d", ErrMalformed, hdr.Stat)
}

// skipAuth reads the verifier of an accepted reply.
func (r *Reader) skipAuth() error {
	if _, err := r.Uint32(); err != nil { // flavor
		return fmt.Errorf("RPC reply verifier: %w", err)
	}
	n, err := r.Uint32()
	if err != nil {
		return fmt.Errorf("RPC reply verifier: %w", err)
	}
	if n > maxAuthBody {
		return fmt.Errorf("%w: verifier of %d bytes, at most %d allowed", ErrMalformed, n, maxAuthBody)
	}
	return r.skip(int(n+3) &^ 3)
}

func (r *Reader) pair() (uint32, uint32, error) {
	var p struct{ Low, High uint32 }
	if err := r.Decode(&p); err != nil {
		return 0, 0, fmt.Errorf("RPC version range: %w", err)
	}
	return p.Low, p.High, nil
}
