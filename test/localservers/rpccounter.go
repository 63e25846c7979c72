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

	mu   sync.Mutex
	open []net.Conn
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
			_, _ = io.Copy(c, s)
			c.Close()
			s.Close()
		}()
	}
}

// countCalls copies the client's records to the server, counting those
// that end a call (the last-fragment bit).
func (p *RPCCounter) countCalls(dst io.Writer, src io.Reader) {
	var mark [4]byte
	for {
		if _, err := io.ReadFull(src, mark[:]); err != nil {
			return
		}
		m := binary.BigEndian.Uint32(mark[:])
		if _, err := dst.Write(mark[:]); err != nil {
			return
		}
		if _, err := io.CopyN(dst, src, int64(m&^(1<<31))); err != nil {
			return
		}
		if m&(1<<31) != 0 {
			p.calls.Add(1)
		}
	}
}

// Port is the port of Addr.
func (p *RPCCounter) Port() int { return p.lis.Addr().(*net.TCPAddr).Port }
