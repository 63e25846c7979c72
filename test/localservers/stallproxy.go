//go:build linux

package localservers

import (
	"encoding/binary"
	"io"
	"net"
	"sync"
	"sync/atomic"
)

// smb2TreeConnect is the SMB2 command code of TREE_CONNECT.
const smb2TreeConnect = 0x0003

// StallProxy forwards TCP connections to an SMB server and, while stalling
// is on, freezes a connection as soon as the client sends TREE_CONNECT: the
// server has completed negotiation and session setup and then goes silent
// with the connection still open. That is the server the controller must
// give up on at its deadline, cleanup included.
type StallProxy struct {
	Addr string // 127.0.0.1:port to connect to instead of the server

	target       string
	lis          net.Listener
	stall        atomic.Bool
	accepted     atomic.Int32
	treeConnects atomic.Int32
	// fromClient and fromServer count the bytes forwarded each way;
	// requests the messages from clients (round trips: a compound is one).
	fromClient, fromServer, requests atomic.Int64
	done                             chan struct{}

	mu     sync.Mutex
	conns  []net.Conn
	stalls []func() // one per proxied connection: stall it now
}

// StartStallProxy listens on a free loopback port and forwards to target.
// Stalling starts switched on.
func StartStallProxy(target string) (*StallProxy, error) {
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	p := &StallProxy{Addr: lis.Addr().String(), target: target, lis: lis, done: make(chan struct{})}
	p.stall.Store(true)
	go p.accept()
	return p, nil
}

// SetStall switches stalling on or off for TREE_CONNECTs sent from now on.
func (p *StallProxy) SetStall(on bool) { p.stall.Store(on) }

// StallOpen stalls every connection open now at its next message, whatever
// the command: a server that goes silent in the middle of a session.
func (p *StallProxy) StallOpen() {
	p.mu.Lock()
	stalls := p.stalls
	p.mu.Unlock()
	for _, stall := range stalls {
		stall()
	}
}

// Accepted is how many client connections the proxy has taken.
func (p *StallProxy) Accepted() int { return int(p.accepted.Load()) }

// TreeConnects is how many TREE_CONNECT requests clients have sent, stalled
// or forwarded.
func (p *StallProxy) TreeConnects() int { return int(p.treeConnects.Load()) }

// Forwarded is how many bytes the proxy has passed on from clients to the
// server and from the server to clients, frame headers included.
func (p *StallProxy) Forwarded() (fromClient, fromServer int64) {
	return p.fromClient.Load(), p.fromServer.Load()
}

// Requests is how many messages clients have sent through the proxy: one
// per round trip, a compound request counting once.
func (p *StallProxy) Requests() int64 { return p.requests.Load() }

// Close stops listening and drops every connection, stalled ones included.
func (p *StallProxy) Close() {
	p.mu.Lock()
	defer p.mu.Unlock()
	select {
	case <-p.done:
		return
	default:
	}
	close(p.done)
	p.lis.Close()
	for _, c := range p.conns {
		c.Close()
	}
}

func (p *StallProxy) track(c net.Conn) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	select {
	case <-p.done:
		c.Close()
		return false
	default:
	}
	p.conns = append(p.conns, c)
	return true
}

func (p *StallProxy) accept() {
	for {
		client, err := p.lis.Accept()
		if err != nil {
			return
		}
		p.accepted.Add(1)
		if !p.track(client) {
			return
		}
		server, err := net.Dial("tcp", p.target)
		if err != nil {
			client.Close()
			continue
		}
		if !p.track(server) {
			client.Close()
			return
		}
		stalled := make(chan struct{})
		var once sync.Once
		stall := func() { once.Do(func() { close(stalled) }) }
		p.mu.Lock()
		p.stalls = append(p.stalls, stall)
		p.mu.Unlock()
		go p.pump(client, server, stalled, stall, true)
		go p.pump(server, client, stalled, stall, false)
	}
}

// pump copies whole direct-TCP frames (a zero byte, a 24-bit length, the SMB2
// message) from src to dst. The client-side pump stalls the connection when
// it sees a TREE_CONNECT with stalling on; once stalled, neither direction
// forwards anything, and both sit on the open connections until Close.
func (p *StallProxy) pump(src, dst net.Conn, stalled chan struct{}, stall func(), fromClient bool) {
	defer func() {
		select {
		case <-stalled:
			<-p.done // keep the connections open: a stall, not a reset
		default:
		}
		src.Close()
		dst.Close()
	}()
	var hdr [4]byte
	for {
		if _, err := io.ReadFull(src, hdr[:]); err != nil {
			return
		}
		n := binary.BigEndian.Uint32(hdr[:]) & 0x00ffffff
		msg := make([]byte, n)
		if _, err := io.ReadFull(src, msg); err != nil {
			return
		}
		if fromClient && isSMB2Command(msg, smb2TreeConnect) {
			p.treeConnects.Add(1)
			if p.stall.Load() {
				stall()
				return
			}
		}
		select {
		case <-stalled:
			return
		default:
		}
		// Counted before it goes on: a client that has its reply must find
		// it in Forwarded already.
		if fromClient {
			p.fromClient.Add(int64(len(hdr) + len(msg)))
			p.requests.Add(1)
		} else {
			p.fromServer.Add(int64(len(hdr) + len(msg)))
		}
		if _, err := dst.Write(append(hdr[:], msg...)); err != nil {
			return
		}
	}
}

// isSMB2Command reports whether msg is a plain (unencrypted) SMB2 message
// whose first header carries command cmd.
func isSMB2Command(msg []byte, cmd uint16) bool {
	return len(msg) >= 64 && string(msg[:4]) == "\xfeSMB" && binary.LittleEndian.Uint16(msg[12:14]) == cmd
}
