package nfs4

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io/fs"
	"net"
	"testing"
	"time"

	"github.com/fileshare-csi/fileshare-csi/pkg/share"
	"github.com/fileshare-csi/fileshare-csi/pkg/share/oncrpc"
)

// scriptedServer is the other end of a session for unit tests of the
// session's own logic (sequence IDs, retries, re-establishment): it decodes
// the few operations these tests send and answers each COMPOUND as answer
// says. Real servers are tested in the integration suite.
type scriptedServer struct {
	t        *testing.T
	sessions int      // CREATE_SESSIONs served
	exchange int      // EXCHANGE_IDs served
	seqids   []uint32 // sequence IDs of the SEQUENCEs received
	sessIDs  [][16]byte
	calls    [][]uint32 // the operations of each COMPOUND
	// answer gives the status of each operation of the n-th COMPOUND
	// (counted from 0) that carries a SEQUENCE; nil or a short list means
	// NFS4_OK for the rest.
	answer func(n int, ops []uint32) []uint32
}

func startScripted(t *testing.T, srv *scriptedServer) *nfs4Session {
	t.Helper()
	client, server := net.Pipe()
	go srv.serve(server)
	s, err := newNFS4Session(oncrpc.NewConn(client), "nfs://fake/export?vers=4.1")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { client.Close() })
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := s.establish(ctx); err != nil {
		t.Fatal(err)
	}
	return s
}

func (srv *scriptedServer) serve(c net.Conn) {
	defer c.Close()
	sequenced := 0
	for {
		rec, err := oncrpc.ReadRecord(c, oncrpc.MaxRecord)
		if err != nil {
			return
		}
		call := decodeCall(srv.t, rec)
		if !call.ok {
			return
		}
		xid, ops := call.xid, call.ops
		srv.sessIDs = append(srv.sessIDs, call.sessions...)
		srv.seqids = append(srv.seqids, call.seqids...)
		var res xdrEnc
		statuses := []uint32(nil)
		hasSeq := len(ops) > 0 && ops[0] == op4Sequence
		srv.calls = append(srv.calls, ops)
		if hasSeq && !(len(ops) == 2 && ops[1] == op4ReclaimComplete) {
			if srv.answer != nil {
				statuses = srv.answer(sequenced, ops)
			}
			sequenced++
		}
		done := 0
		last := uint32(nfs4OK)
		for i, op := range ops {
			st := uint32(nfs4OK)
			if i < len(statuses) {
				st = statuses[i]
			}
			res.u32(op)
			res.u32(st)
			done++
			last = st
			if st != nfs4OK {
				break
			}
			switch op {
			case op4ExchangeID:
				srv.exchange++
				res.u64(0xc1)
				res.u32(1)
				res.u32(0)
				res.u32(0)
				res.u64(0)
				res.opaque([]byte("srv"))
				res.opaque(nil)
				res.u32(0)
			case op4CreateSession:
				srv.sessions++
				var id [16]byte
				id[0] = byte(srv.sessions)
				res.fixed(id[:])
				res.u32(1)
				res.u32(0)
				res.channelAttrs(channelAttrs{MaxRequest: 1 << 20, MaxResponse: 1 << 20, MaxOps: 16, MaxRequests: 1})
				res.channelAttrs(nfs4BackChannel)
			case op4Sequence:
				res.fixed(srv.sessIDs[len(srv.sessIDs)-1][:])
				res.u32(srv.seqids[len(srv.seqids)-1])
				res.u32(0)
				res.u32(0)
				res.u32(0)
				res.u32(0)
			case op4Remove:
				res.boolean(true)
				res.u64(1)
				res.u64(2)
			}
		}
		var out xdrEnc
		out.u32(0) // record mark, set below
		out.u32(xid)
		out.u32(1) // reply
		out.u32(0) // accepted
		out.u32(0) // verifier
		out.u32(0)
		out.u32(0) // success
		out.u32(last)
		out.str("")
		out.u32(uint32(done))
		out.b = append(out.b, res.b...)
		binary.BigEndian.PutUint32(out.b, uint32(len(out.b)-4)|1<<31)
		if _, err := c.Write(out.b); err != nil {
			return
		}
	}
}

func TestSessionSetupAndSequenceIDs(t *testing.T) {
	srv := &scriptedServer{t: t}
	s := startScripted(t, srv)
	for range 3 {
		if err := s.compound(context.Background(), []nfs4Op{opPutrootfh()}); err != nil {
			t.Fatal(err)
		}
	}
	// RECLAIM_COMPLETE used sequence ID 1; the calls 2, 3, 4.
	if fmt.Sprint(srv.seqids) != "[1 2 3 4]" || srv.sessions != 1 || srv.exchange != 1 {
		t.Fatalf("sequence IDs %v, %d sessions, %d client IDs", srv.seqids, srv.sessions, srv.exchange)
	}
	// A refusal of an operation after SEQUENCE still moves the slot on.
	srv.answer = func(int, []uint32) []uint32 { return []uint32{nfs4OK, nfs4ErrNoent} }
	err := s.compound(context.Background(), []nfs4Op{opLookup("x")})
	var ne *NFS4Error
	if !errors.As(err, &ne) || ne.Index != 0 || !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("refused LOOKUP: %v", err)
	}
	srv.answer = nil
	if err := s.compound(context.Background(), []nfs4Op{opPutrootfh()}); err != nil || srv.seqids[len(srv.seqids)-1] != 6 {
		t.Fatalf("after a refusal: %v, sequence IDs %v", err, srv.seqids)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	s.destroy(ctx)
	if got := fmt.Sprint(srv.calls[len(srv.calls)-2:]); got != fmt.Sprintf("[[%d] [%d]]", op4DestroySession, op4DestroyClientID) {
		t.Errorf("Close sent %s, want DESTROY_SESSION then DESTROY_CLIENTID, each alone", got)
	}
}

func TestSessionWaitsOutDelayAndGrace(t *testing.T) {
	srv := &scriptedServer{t: t, answer: func(n int, _ []uint32) []uint32 {
		switch n {
		case 0:
			return []uint32{nfs4ErrDelay}
		case 1:
			return []uint32{nfs4OK, nfs4ErrGrace}
		}
		return nil
	}}
	s := startScripted(t, srv)
	before := s.roundTrips
	if err := s.compound(context.Background(), []nfs4Op{opPutrootfh()}); err != nil {
		t.Fatal(err)
	}
	if s.roundTrips-before != 3 {
		t.Fatalf("%d round trips for DELAY, GRACE, then success; want 3", s.roundTrips-before)
	}
	// SEQUENCE refused with DELAY leaves the slot as it was; one that
	// succeeded moves it on.
	if got := fmt.Sprint(srv.seqids[1:]); got != "[2 2 3]" {
		t.Fatalf("sequence IDs of the retries %s, want [2 2 3]", got)
	}
}

func TestSessionDoesNotRepeatAChange(t *testing.T) {
	srv := &scriptedServer{t: t, answer: func(n int, _ []uint32) []uint32 { return []uint32{nfs4OK, nfs4OK, nfs4ErrDelay} }}
	s := startScripted(t, srv)
	before := s.roundTrips
	err := s.compound(context.Background(), []nfs4Op{opRemove("a"), opLookup("b")})
	if !isNFS4Status(err, nfs4ErrDelay) || !errors.Is(err, share.ErrTryLater) || s.roundTrips-before != 1 {
		t.Fatalf("DELAY after a REMOVE: %v after %d round trips; want it returned at once, as Unavailable", err, s.roundTrips-before)
	}
}

func TestSessionGivesUpAtTheDeadline(t *testing.T) {
	srv := &scriptedServer{t: t, answer: func(int, []uint32) []uint32 { return []uint32{nfs4OK, nfs4ErrGrace} }}
	s := startScripted(t, srv)
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	began := time.Now()
	err := s.compound(ctx, []nfs4Op{opPutrootfh()})
	if !errors.Is(err, share.ErrTryLater) || time.Since(began) > time.Second {
		t.Fatalf("GRACE past the deadline: %v after %v; want try-again-later (Unavailable) by the deadline", err, time.Since(began))
	}
	if s.broken {
		t.Fatal("a server in grace broke the session")
	}
}

func TestSessionIsMadeAgainOnce(t *testing.T) {
	srv := &scriptedServer{t: t, answer: func(n int, _ []uint32) []uint32 {
		if n == 0 {
			return []uint32{nfs4ErrBadsession}
		}
		return nil
	}}
	s := startScripted(t, srv)
	if err := s.compound(context.Background(), []nfs4Op{opRemove("a")}); err != nil {
		t.Fatal(err)
	}
	if srv.sessions != 2 || srv.exchange != 2 {
		t.Fatalf("%d sessions and %d client IDs, want a second of each", srv.sessions, srv.exchange)
	}
	last := srv.sessIDs[len(srv.sessIDs)-1]
	if last[0] != 2 || srv.seqids[len(srv.seqids)-1] != 2 {
		t.Fatalf("the retry went on session %x with sequence ID %d; want the new session, ID 2 after its RECLAIM_COMPLETE", last, srv.seqids[len(srv.seqids)-1])
	}

	// A server that keeps losing the session: one re-establishment, then
	// the error.
	srv.answer = func(int, []uint32) []uint32 { return []uint32{nfs4ErrDeadsession} }
	err := s.compound(context.Background(), []nfs4Op{opPutrootfh()})
	if !errors.Is(err, share.ErrUnavailable) || srv.sessions != 3 {
		t.Fatalf("session lost twice: %v, %d sessions", err, srv.sessions)
	}
	if !s.broken {
		t.Fatal("the session is still taken for usable")
	}
}

func TestSessionBreaksOnAMisorderedSlot(t *testing.T) {
	srv := &scriptedServer{t: t, answer: func(int, []uint32) []uint32 { return []uint32{nfs4ErrSeqMisordered} }}
	s := startScripted(t, srv)
	err := s.compound(context.Background(), []nfs4Op{opPutrootfh()})
	if !errors.Is(err, share.ErrUnavailable) || !s.broken || !share.BreaksSession(err) {
		t.Fatalf("SEQ_MISORDERED: %v, broken %v", err, s.broken)
	}
}

// A stale filehandle at any operation of a COMPOUND (a kept directory's or
// the export's, replaced on the server) is no answer about a path: the
// error is ErrUnavailable and never fs.ErrNotExist (the store reads that as
// "not there": a DeleteVolume would answer OK and leave the volume), and
// the session, which would send the same handle again, is broken so the
// pool dials a fresh one.
func TestSessionBreaksOnAStaleHandle(t *testing.T) {
	for _, status := range []uint32{nfs4ErrStale, nfs4ErrFhexpired, nfs4ErrBadhandle} {
		srv := &scriptedServer{t: t, answer: func(int, []uint32) []uint32 { return []uint32{nfs4OK, nfs4OK, status} }}
		s := startScripted(t, srv)
		err := s.compound(context.Background(), []nfs4Op{opPutrootfh(), opPutfh([]byte("kept")), opLookup("b")})
		if !errors.Is(err, share.ErrUnavailable) || errors.Is(err, fs.ErrNotExist) || share.IsAnswer(err) {
			t.Errorf("status %d at the second operation: %v; want Unavailable, not an answer about a path", status, err)
		}
		if !s.broken {
			t.Errorf("status %d: the session is still taken for usable", status)
		}
	}
}
