//go:build linux

package localservers

import (
	"encoding/binary"
	"io"
	"net"
	"sync"
	"sync/atomic"
)

// RPCCounter forwards TCP connections to an ONC RPC server and counts the
// calls clients send through it: one per record (RFC 5531 record marking),
// which for NFSv4 is one COMPOUND, a round trip. Tests use it to hold an
// operation to a budget of round trips.
type RPCCounter struct {
	Addr string // 127.0.0.1:port to connect to instead of the server

	target string
	lis    net.Listener
	calls  atomic.Int64
	conns  atomic.Int64
	// retried counts replies by which the server asked for the call again
	// later (NFS4ERR_DELAY, NFS3ERR_JUKEBOX, NFS4ERR_GRACE): the client's
	// resend is the same step, not one more of its protocol.
	retried atomic.Int64

	mu   sync.Mutex
	open []net.Conn
	// fail is the status the next call of procedure failProc is answered
	// with instead of the server's (0: none armed); failing holds the XIDs
	// of calls so chosen whose replies have not come back yet.
	fail, failProc uint32
	failing        map[uint32]uint32
}

// FailNext answers the next call of NFS procedure proc with status instead
// of the server's result: the server did the call, the client hears the
// status (a broken server, or a handle the server no longer knows). Only
// the status word of the reply changes; a client reads nothing of a
// failed result after it.
func (p *RPCCounter) FailNext(proc, status uint32) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.fail, p.failProc = status, proc
}

// armed notes the call a record starts (xid, CALL, RPC version, program,
// version, procedure) if it is the one FailNext chose.
func (p *RPCCounter) armed(call []byte) {
	if len(call) < 24 || binary.BigEndian.Uint32(call[4:]) != 0 {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	const nfsProgram = 100003
	if p.fail == 0 || binary.BigEndian.Uint32(call[12:]) != nfsProgram || binary.BigEndian.Uint32(call[20:]) != p.failProc {
		return
	}
	if p.failing == nil {
		p.failing = map[uint32]uint32{}
	}
	p.failing[binary.BigEndian.Uint32(call)] = p.fail
	p.fail = 0
}

// failed is the status the reply to xid must carry, if FailNext chose it.
func (p *RPCCounter) failed(xid uint32) (uint32, bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	st, ok := p.failing[xid]
	delete(p.failing, xid)
	return st, ok
}

// StartRPCCounter listens on a free loopback port and forwards to target.
func StartRPCCounter(target string) (*RPCCounter, error) {
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	p := &RPCCounter{Addr: lis.Addr().String(), target: target, lis: lis}
	go p.accept()
	return p, nil
}

// Calls is the number of RPC calls forwarded so far.
func (p *RPCCounter) Calls() int64 { return p.calls.Load() }

// Retried is the number of replies so far by which the server asked the
// client to send its call again later.
func (p *RPCCounter) Retried() int64 { return p.retried.Load() }

// Connections is the number of client connections accepted so far.
func (p *RPCCounter) Connections() int64 { return p.conns.Load() }

// Close stops listening and cuts every forwarded connection.
func (p *RPCCounter) Close() {
	p.lis.Close()
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, c := range p.open {
		c.Close()
	}
}

func (p *RPCCounter) accept() {
	for {
		c, err := p.lis.Accept()
		if err != nil {
			return
		}
		s, err := net.Dial("tcp", p.target)
		if err != nil {
			c.Close()
			continue
		}
		p.conns.Add(1)
		p.mu.Lock()
		p.open = append(p.open, c, s)
		p.mu.Unlock()
		go func() {
			p.countCalls(s, c)
			s.Close()
			c.Close()
		}()
		go func() {
			p.readReplies(c, s)
			c.Close()
			s.Close()
		}()
	}
}

// countCalls copies the client's records to the server, counting those
// that end a call (the last-fragment bit).
func (p *RPCCounter) countCalls(dst io.Writer, src io.Reader) {
	var mark [4]byte
	first := true // the next fragment starts a call
	for {
		if _, err := io.ReadFull(src, mark[:]); err != nil {
			return
		}
		m := binary.BigEndian.Uint32(mark[:])
		n := int64(m &^ (1 << 31))
		if _, err := dst.Write(mark[:]); err != nil {
			return
		}
		if first && n >= 24 {
			head := make([]byte, 24)
			if _, err := io.ReadFull(src, head); err != nil {
				return
			}
			p.armed(head)
			if _, err := dst.Write(head); err != nil {
				return
			}
			n -= 24
		}
		first = m&(1<<31) != 0
		if _, err := io.CopyN(dst, src, n); err != nil {
			return
		}
		if m&(1<<31) != 0 {
			p.calls.Add(1)
		}
	}
}

// Status codes by which a server asks for a call again later: NFSv3's
// JUKEBOX and NFSv4's DELAY share 10008; NFSv4's GRACE is 10013.
const statusDelay, statusGrace = 10008, 10013

// readReplies copies the server's records to the client, counting the
// replies whose result begins with a status asking for the call again: an
// accepted reply (RFC 5531) is xid, REPLY, MSG_ACCEPTED, the verifier
// (flavor, length, body), SUCCESS, then the procedure's result, whose
// first word is its status for NFSv3 and for an NFSv4 COMPOUND.
func (p *RPCCounter) readReplies(dst io.Writer, src io.Reader) {
	var mark [4]byte
	var head []byte // the first bytes of the record being read
	for {
		if _, err := io.ReadFull(src, mark[:]); err != nil {
			return
		}
		m := binary.BigEndian.Uint32(mark[:])
		n := int64(m &^ (1 << 31))
		if _, err := dst.Write(mark[:]); err != nil {
			return
		}
		if want := 64 - len(head); want > 0 {
			b := make([]byte, min(int64(want), n))
			if _, err := io.ReadFull(src, b); err != nil {
				return
			}
			if len(head) == 0 && len(b) >= 4 {
				if st, ok := p.failed(binary.BigEndian.Uint32(b)); ok {
					setReplyStatus(b, st)
				}
			}
			if _, err := dst.Write(b); err != nil {
				return
			}
			head, n = append(head, b...), n-int64(len(b))
		}
		if _, err := io.CopyN(dst, src, n); err != nil {
			return
		}
		if m&(1<<31) != 0 {
			if st, ok := replyStatus(head); ok && (st == statusDelay || st == statusGrace) {
				p.retried.Add(1)
			}
			head = head[:0]
		}
	}
}

// replyStatus is the first word of an accepted reply's result.
func replyStatus(b []byte) (uint32, bool) {
	off, ok := resultOffset(b)
	if !ok || off+4 > len(b) {
		return 0, false
	}
	return binary.BigEndian.Uint32(b[off:]), true
}

// setReplyStatus makes st the first word of an accepted reply's result.
func setReplyStatus(b []byte, st uint32) {
	if off, ok := resultOffset(b); ok && off+4 <= len(b) {
		binary.BigEndian.PutUint32(b[off:], st)
	}
}

// resultOffset is where an accepted, successful reply's result begins.
func resultOffset(b []byte) (int, bool) {
	word := func(off int) (uint32, bool) {
		if off+4 > len(b) {
			return 0, false
		}
		return binary.BigEndian.Uint32(b[off:]), true
	}
	if t, ok := word(4); !ok || t != 1 { // REPLY
		return 0, false
	}
	if st, ok := word(8); !ok || st != 0 { // MSG_ACCEPTED
		return 0, false
	}
	vlen, ok := word(16)
	if !ok || vlen > 400 {
		return 0, false
	}
	off := 20 + int(vlen+3)&^3
	if acc, ok := word(off); !ok || acc != 0 { // SUCCESS
		return 0, false
	}
	return off + 4, true
}

// Port is the port of Addr.
func (p *RPCCounter) Port() int { return p.lis.Addr().(*net.TCPAddr).Port }
