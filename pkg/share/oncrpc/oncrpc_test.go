package oncrpc

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"io"
	"net"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/vmware/go-nfs-client/nfs/rpc"

	"github.com/fileshare-csi/fileshare-csi/test/freeport"
)

// fakeServer accepts one connection on loopback, reads one call and answers
// with reply(xid of the call), written as is (record marks included); nil
// means it never answers.
func fakeServer(t *testing.T, reply func(xid uint32) []byte) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	go func() {
		c, err := l.Accept()
		if err != nil {
			return
		}
		defer c.Close()
		call, err := ReadRecord(c, MaxRecord)
		if err != nil || len(call) < 4 {
			return
		}
		if b := reply(binary.BigEndian.Uint32(call)); b != nil {
			_, _ = c.Write(b)
			// A short reply then ends, as a peer that goes away.
			_ = c.(*net.TCPConn).CloseWrite()
		}
		_, _ = io.Copy(io.Discard, c)
	}()
	return l.Addr().String()
}

func u32s(vs ...uint32) []byte {
	b := make([]byte, 4*len(vs))
	for i, v := range vs {
		binary.BigEndian.PutUint32(b[4*i:], v)
	}
	return b
}

// acceptedReply is the body of a successful reply followed by results.
func acceptedReply(xid uint32, results ...byte) []byte {
	return append(u32s(xid, msgReply, msgAccepted, 0, 0, acceptOK), results...)
}

// record frames body as one last fragment.
func record(body []byte) []byte {
	return append(u32s(uint32(len(body))|lastFragment), body...)
}

var nullCall = &struct{ rpc.Header }{rpc.Header{Rpcvers: 2, Prog: 100003, Vers: 3, Proc: 0, Cred: rpc.AuthNull, Verf: rpc.AuthNull}}

func call(t *testing.T, addr string) (*Reader, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	c, err := Dial(ctx, nil, addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	return c.Call(ctx, nullCall)
}

// allocatedDuring returns the bytes the process allocated while fn ran.
func allocatedDuring(fn func()) uint64 {
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	fn()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

func TestHostileRecordLengthIsRefusedWithoutAllocating(t *testing.T) {
	addr := fakeServer(t, func(uint32) []byte { return u32s(0x7fffffff|lastFragment, 1, 2, 3) })
	var err error
	allocated := allocatedDuring(func() { _, err = call(t, addr) })
	if !errors.Is(err, ErrMalformed) || !strings.Contains(err.Error(), "limit") {
		t.Fatalf("got %v, want ErrMalformed about the record limit", err)
	}
	if allocated > 1<<20 {
		t.Fatalf("allocated %d bytes for a refused 2 GiB record, want under 1 MiB", allocated)
	}
}

func TestFragmentsAddingUpBeyondTheLimitAreRefused(t *testing.T) {
	// Each fragment is small; together they pass MaxRecord.
	addr := fakeServer(t, func(uint32) []byte {
		var b bytes.Buffer
		frag := make([]byte, 256<<10)
		for range 5 {
			b.Write(u32s(uint32(len(frag))))
			b.Write(frag)
		}
		return b.Bytes()
	})
	if _, err := call(t, addr); !errors.Is(err, ErrMalformed) {
		t.Fatalf("got %v, want ErrMalformed", err)
	}
}

func TestMultiFragmentRecordIsReassembled(t *testing.T) {
	results := []byte("results spanning three fragments")
	addr := fakeServer(t, func(xid uint32) []byte {
		body := acceptedReply(xid, results...)
		// Split inside the header and inside the results.
		a, b := body[:5], body[5:30]
		c := body[30:]
		var out []byte
		out = append(out, u32s(uint32(len(a)))...)
		out = append(out, a...)
		out = append(out, u32s(uint32(len(b)))...)
		out = append(out, b...)
		out = append(out, u32s(uint32(len(c))|lastFragment)...)
		return append(out, c...)
	})
	r, err := call(t, addr)
	if err != nil {
		t.Fatal(err)
	}
	got := make([]byte, r.Len())
	_, _ = r.r.Read(got)
	if !bytes.Equal(got, results) {
		t.Fatalf("results %q, want %q", got, results)
	}
}

func TestShortRecordIsAnErrorNotAPanic(t *testing.T) {
	for name, reply := range map[string]func(uint32) []byte{
		"record cut off": func(xid uint32) []byte { return u32s(100|lastFragment, xid) },
		"header cut off": func(xid uint32) []byte { return record(u32s(xid, msgReply, msgAccepted, 0)) },
		"empty record":   func(uint32) []byte { return record(nil) },
	} {
		t.Run(name, func(t *testing.T) {
			_, err := call(t, fakeServer(t, reply))
			if err == nil {
				t.Fatal("no error for a short reply")
			}
		})
	}
}

func TestReplyToAnotherCallIsRefused(t *testing.T) {
	addr := fakeServer(t, func(xid uint32) []byte { return record(acceptedReply(xid + 1)) })
	_, err := call(t, addr)
	if !errors.Is(err, ErrMalformed) || !strings.Contains(err.Error(), "waiting for") {
		t.Fatalf("got %v, want ErrMalformed about the XID", err)
	}
}

func TestHostileVerifierLengthIsRefused(t *testing.T) {
	addr := fakeServer(t, func(xid uint32) []byte {
		return record(u32s(xid, msgReply, msgAccepted, 1, 0xfffffff0, acceptOK))
	})
	if _, err := call(t, addr); !errors.Is(err, ErrMalformed) {
		t.Fatalf("got %v, want ErrMalformed", err)
	}
}

func TestOpaqueLongerThanTheRecordIsRefusedWithoutAllocating(t *testing.T) {
	addr := fakeServer(t, func(xid uint32) []byte {
		return record(acceptedReply(xid, u32s(0, 0xfffffff0, 1, 2)...))
	})
	r, err := call(t, addr)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := r.Uint32(); err != nil { // a status word before the opaque
		t.Fatal(err)
	}
	rest := r.r
	for name, decode := range map[string]func(r *Reader) error{
		"Opaque": func(r *Reader) error { _, err := r.Opaque(1 << 30); return err },
		"Decode []byte": func(r *Reader) error {
			var v struct{ FH []byte }
			return r.Decode(&v)
		},
		"Decode string": func(r *Reader) error {
			var v struct{ Name string }
			return r.Decode(&v)
		},
		"Decode array": func(r *Reader) error {
			var v struct{ List []uint64 }
			return r.Decode(&v)
		},
	} {
		t.Run(name, func(t *testing.T) {
			pos, _ := rest.Seek(0, io.SeekCurrent)
			defer rest.Seek(pos, io.SeekStart)
			var err error
			allocated := allocatedDuring(func() { err = decode(r) })
			if !errors.Is(err, ErrMalformed) {
				t.Fatalf("got %v, want ErrMalformed", err)
			}
			if allocated > 64<<10 {
				t.Fatalf("allocated %d bytes for an opaque of 4 GiB in a 16-byte rest", allocated)
			}
		})
	}
}

// A reply that does not run the call names why, and says whether the
// server refuses the call for good (ErrRefused: a caller may take another
// way) or failed this once (SYSTEM_ERR, GARBAGE_ARGS: try again).
func TestDeniedAndFailedCallsSayWhy(t *testing.T) {
	for want, c := range map[string]struct {
		body    []uint32
		refused bool
	}{
		"PROG_UNAVAIL":  {[]uint32{msgAccepted, 0, 0, progUnavail}, true},
		"PROG_MISMATCH": {[]uint32{msgAccepted, 0, 0, progMismatch, 2, 2}, true},
		"PROC_UNAVAIL":  {[]uint32{msgAccepted, 0, 0, procUnavail}, true},
		"GARBAGE_ARGS":  {[]uint32{msgAccepted, 0, 0, garbageArgs}, false},
		"SYSTEM_ERR":    {[]uint32{msgAccepted, 0, 0, systemErr}, false},
		"RPC_MISMATCH":  {[]uint32{msgDenied, rpcMismatch, 2, 2}, true},
		"AUTH_SYS":      {[]uint32{msgDenied, authError, 1}, true},
	} {
		t.Run(want, func(t *testing.T) {
			rec := append(u32s(7, msgReply), u32s(c.body...)...)
			_, err := ParseReply(rec, 7)
			if err == nil || !strings.Contains(err.Error(), want) {
				t.Fatalf("got %v, want an error naming %s", err, want)
			}
			if errors.Is(err, ErrRefused) != c.refused {
				t.Fatalf("%v: refused for good %v, want %v", err, errors.Is(err, ErrRefused), c.refused)
			}
		})
	}
}

func TestCallReturnsAtTheContextDeadline(t *testing.T) {
	addr := fakeServer(t, func(uint32) []byte { return nil }) // never answers
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	c, err := Dial(ctx, nil, addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if _, err := c.Call(ctx, nullCall); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("got %v, want DeadlineExceeded", err)
	}
}

func TestCancelClosesTheCall(t *testing.T) {
	addr := fakeServer(t, func(uint32) []byte { return nil })
	c, err := Dial(context.Background(), nil, addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(100*time.Millisecond, cancel)
	if _, err := c.Call(ctx, nullCall); !errors.Is(err, context.Canceled) {
		t.Fatalf("got %v, want Canceled", err)
	}
}

// A local port whose last connection is in TIME_WAIT can be bound again
// at once: NFS sessions cycle through the few reserved ports.
func TestDialReusesALocalPortInTimeWait(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			// Wait for the client to close first, so the TIME_WAIT is
			// the client's, as it is for a session the pool closes.
			_, _ = c.Read(make([]byte, 1))
			c.Close()
		}
	}()
	port, err := freeport.Get()
	if err != nil {
		t.Fatal(err)
	}
	local := &net.TCPAddr{IP: net.IPv4(127, 0, 0, 1), Port: port}
	ctx := context.Background()
	for i := range 3 {
		c, err := Dial(ctx, local, l.Addr().String())
		if err != nil {
			t.Fatalf("dial %d from %v: %v", i, local, err)
		}
		c.Close()
		time.Sleep(50 * time.Millisecond)
	}
}
