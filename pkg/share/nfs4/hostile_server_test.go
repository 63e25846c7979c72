package nfs4

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io/fs"
	"net"
	"sync"
	"testing"
	"time"

	"github.com/fileshare-csi/fileshare-csi/pkg/share"
	"github.com/fileshare-csi/fileshare-csi/pkg/share/oncrpc"
)

// cannedServer is the other end of a client for tests of what the client
// does with a server that breaks the protocol: it answers the n-th call
// (counted from 0) with the COMPOUND4res answer builds for it (reply,
// okReply); rec is the whole call record. Unlike scriptedServer it makes
// up any reply at all, session setup included.
type cannedServer struct {
	answer func(n int, rec []byte) []byte
	// hangUpAfter, when not 0, closes the connection at that call: a test
	// of a client that would go on for ever stays small.
	hangUpAfter int

	mu    sync.Mutex
	calls int
}

func (srv *cannedServer) count() int {
	srv.mu.Lock()
	defer srv.mu.Unlock()
	return srv.calls
}

func (srv *cannedServer) serve(c net.Conn) {
	defer c.Close()
	for {
		rec, err := oncrpc.ReadRecord(c, oncrpc.MaxRecord)
		if err != nil {
			return
		}
		srv.mu.Lock()
		n := srv.calls
		srv.calls++
		srv.mu.Unlock()
		if srv.hangUpAfter > 0 && n >= srv.hangUpAfter {
			return
		}
		var out xdrEnc
		out.u32(0)                        // record mark, set below
		out.b = append(out.b, rec[:4]...) // xid
		for _, v := range []uint32{1, 0, 0, 0, 0} {
			out.u32(v) // reply, accepted, verifier (2), success
		}
		out.b = append(out.b, srv.answer(n, rec)...)
		binary.BigEndian.PutUint32(out.b, uint32(len(out.b)-4)|1<<31)
		if _, err := c.Write(out.b); err != nil {
			return
		}
	}
}

// startCanned returns a client on a session taken for established (no
// EXCHANGE_ID, CREATE_SESSION): the first call the server sees is the
// client's first COMPOUND. maxOps is the session's limit on a COMPOUND.
func startCanned(t *testing.T, srv *cannedServer, maxOps uint32) *nfs4Client {
	t.Helper()
	client, server := net.Pipe()
	go srv.serve(server)
	t.Cleanup(func() { client.Close() })
	s, err := newNFS4Session(oncrpc.NewConn(client), "nfs://fake/export?vers=4.1")
	if err != nil {
		t.Fatal(err)
	}
	s.clientID, s.seq = 1, 1
	s.fore = channelAttrs{MaxRequest: 1 << 20, MaxResponse: 1 << 20, MaxOps: maxOps, MaxRequests: 1}
	return &nfs4Client{s: s, root: []byte{1}, desc: "nfs://fake/export?vers=4.1"}
}

// callHeader reads a COMPOUND call record up to its operations' count:
// the XID (returned), the RPC header, the credential and verifier, the tag
// and the minor version.
func callHeader(d *xdrDec) uint32 {
	xid := d.u32()
	for range 5 { // message type, RPC version, program, version, procedure
		d.u32()
	}
	d.u32()
	d.opaque(400)
	d.u32()
	d.opaque(400)
	d.opaque(maxTag)
	d.u32()
	return xid
}

// compoundCall is what a fake server reads of a COMPOUND call record: its
// XID, its operations' codes, and each SEQUENCE's session and sequence ID.
type compoundCall struct {
	xid      uint32
	ops      []uint32
	sessions [][16]byte
	seqids   []uint32
	ok       bool // every operation decoded
}

// decodeCall decodes a COMPOUND call record, skipping the arguments of the
// operations these tests make the client send; another operation, or a
// record cut short, is a test error (ok false).
func decodeCall(t *testing.T, rec []byte) compoundCall {
	d := &xdrDec{b: rec}
	c := compoundCall{xid: callHeader(d)}
	n := int(d.u32())
	for range n {
		op := d.u32()
		c.ops = append(c.ops, op)
		switch op {
		case op4Sequence:
			var id [16]byte
			copy(id[:], d.fixed(16))
			c.sessions = append(c.sessions, id)
			c.seqids = append(c.seqids, d.u32())
			d.u32()
			d.u32()
			d.boolean()
		case op4Putfh:
			d.opaque(128)
		case op4Lookup, op4Remove:
			d.opaque(maxName)
		case op4Rename:
			d.opaque(maxName)
			d.opaque(maxName)
		case op4Getattr:
			d.bitmap()
		case op4Readdir:
			d.u64()
			d.fixed(8)
			d.u32()
			d.u32()
			d.bitmap()
		case op4ExchangeID:
			d.fixed(8)
			d.opaque(nfs4OpaqueLimit)
			d.u32()
			d.u32()
			d.u32()
		case op4CreateSession:
			d.u64()
			d.u32()
			d.u32()
			for range 2 {
				d.channelAttrs()
			}
			d.u32()
			for range d.u32() {
				d.u32()
			}
		case op4Read:
			d.stateid()
			d.u64()
			d.u32()
		case op4ReclaimComplete:
			d.boolean()
		case op4DestroySession:
			d.fixed(16)
		case op4DestroyClientID:
			d.u64()
		case op4Putrootfh, op4Getfh, op4Savefh, op4Restorefh:
		default:
			t.Errorf("the fake server got %s", op4Name(op))
			return c
		}
	}
	if d.err != nil {
		t.Errorf("the fake server: %v", d.err)
		return c
	}
	c.ok = true
	return c
}

// parseOps is the operation codes of a COMPOUND call record (decodeCall).
func parseOps(t *testing.T, rec []byte) []uint32 { return decodeCall(t, rec).ops }

// okResult is NFS4_OK to op with the smallest body; a READDIR lists one
// entry and the end.
func okResult(op uint32) result4 {
	var body func(e *xdrEnc)
	switch op {
	case op4Sequence:
		body = seqOK
	case op4Getfh:
		body = func(e *xdrEnc) { e.opaque([]byte{2}) }
	case op4Remove:
		body = func(e *xdrEnc) { e.boolean(true); e.u64(1); e.u64(2) }
	case op4Rename:
		body = func(e *xdrEnc) {
			for range 2 {
				e.boolean(true)
				e.u64(1)
				e.u64(2)
			}
		}
	case op4ExchangeID:
		body = exchangeIDBody(0xc1, 1)
	case op4CreateSession:
		body = func(e *xdrEnc) {
			e.fixed(make([]byte, 16))
			e.u32(1)
			e.u32(0)
			e.channelAttrs(channelAttrs{MaxRequest: 1 << 20, MaxResponse: 1 << 20, MaxOps: 16, MaxRequests: 1})
			e.channelAttrs(nfs4BackChannel)
		}
	case op4Getattr:
		body = func(e *xdrEnc) { fattr(e, []int{attrType}, func(v *xdrEnc) { v.u32(nf4Dir) }) }
	case op4Readdir:
		body = readdirBody(true, dirEntryAt{1, "a"})
	}
	return result4{op, nfs4OK, body}
}

// okReply answers ops with NFS4_OK each.
func okReply(ops []uint32) []byte {
	rs := make([]result4, len(ops))
	for i, op := range ops {
		rs[i] = okResult(op)
	}
	return reply(nfs4OK, rs...)
}

type dirEntryAt struct {
	cookie uint64
	name   string
}

// readdirBody is a READDIR result listing entries (no attributes).
func readdirBody(eof bool, entries ...dirEntryAt) func(e *xdrEnc) {
	return func(e *xdrEnc) {
		e.fixed([]byte("verifier"))
		for _, ent := range entries {
			e.boolean(true)
			e.u64(ent.cookie)
			e.str(ent.name)
			fattr(e, nil, func(*xdrEnc) {})
		}
		e.boolean(false)
		e.boolean(eof)
	}
}

// A server that takes every new session and refuses its first SEQUENCE
// with BADSESSION. compound makes a lost session again once; the
// RECLAIM_COMPLETE of that re-establishment must not make it again in its
// turn: each would start the next, and the errors, each wrapping the one
// below, grew quadratically on the way back until the controller ran out
// of memory (within a second). One re-establishment, then the call fails
// as Unavailable on a broken session, so the pool dials a fresh one. The
// server hangs up after 60 calls so that the old code fails the test
// instead of eating the machine.
func TestASessionLostAgainAndAgainIsMadeAgainOnce(t *testing.T) {
	srv := &cannedServer{hangUpAfter: 60}
	srv.answer = func(_ int, rec []byte) []byte {
		ops := parseOps(t, rec)
		if len(ops) > 0 && ops[0] == op4Sequence {
			return reply(nfs4ErrBadsession, result4{op4Sequence, nfs4ErrBadsession, nil})
		}
		return okReply(ops)
	}
	c := startCanned(t, srv, 16)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	err := c.s.compound(ctx, []nfs4Op{opPutrootfh()})
	// The call, EXCHANGE_ID, CREATE_SESSION, RECLAIM_COMPLETE.
	if n := srv.count(); n != 4 {
		t.Fatalf("%d COMPOUNDs for one call on a server that keeps losing the session (error of %d bytes); want 4: one re-establishment",
			n, len(fmt.Sprint(err)))
	}
	if !errors.Is(err, share.ErrUnavailable) || errors.Is(err, fs.ErrNotExist) || !c.s.broken {
		t.Fatalf("err %v, broken %v; want Unavailable on a broken session", err, c.s.broken)
	}
}

// A status the server gives SEQUENCE, the COMPOUND as a whole, or the
// session's setup (EXCHANGE_ID, RECLAIM_COMPLETE) says nothing about the
// path the call was about, whatever the status: the call fails as
// Unavailable and never as fs.ErrNotExist. The state store takes
// fs.ErrNotExist for the server's word that a record is not there (a
// DeleteVolume would answer OK and leave the volume's data), a removal
// for one done, and the delete walk's mark look-up for "not marked".
func TestARefusedSessionIsNoAnswerAboutAPath(t *testing.T) {
	refusals := map[string]func(n int, ops []uint32) []byte{
		"SEQUENCE refused": func(int, []uint32) []byte {
			return reply(nfs4ErrNoent, result4{op4Sequence, nfs4ErrNoent, nil})
		},
		"COMPOUND refused as a whole": func(int, []uint32) []byte { return reply(nfs4ErrNoent) },
		"EXCHANGE_ID refused on a lost session": func(_ int, ops []uint32) []byte {
			switch ops[0] {
			case op4Sequence:
				return reply(nfs4ErrBadsession, result4{op4Sequence, nfs4ErrBadsession, nil})
			case op4ExchangeID:
				return reply(nfs4ErrNoent, result4{op4ExchangeID, nfs4ErrNoent, nil})
			}
			return okReply(ops)
		},
		"RECLAIM_COMPLETE refused on a lost session": func(n int, ops []uint32) []byte {
			switch {
			case n == 0:
				return reply(nfs4ErrBadsession, result4{op4Sequence, nfs4ErrBadsession, nil})
			case len(ops) == 2 && ops[1] == op4ReclaimComplete:
				return reply(nfs4ErrNoent, okResult(op4Sequence), result4{op4ReclaimComplete, nfs4ErrNoent, nil})
			}
			return okReply(ops)
		},
	}
	calls := map[string]func(ctx context.Context, c *nfs4Client) error{
		"ReadFile": func(ctx context.Context, c *nfs4Client) error {
			_, err := c.ReadFile(ctx, ".fileshare-csi/volumes/pvc-1")
			return err
		},
		"Batch remove": func(ctx context.Context, c *nfs4Client) error {
			return c.Batch(ctx, []share.Op{{Kind: share.OpRemove, Path: ".fileshare-csi/volumes/pvc-1"}}, false)[0].Err
		},
		"Marked": func(ctx context.Context, c *nfs4Client) error {
			marked, err := nfs4Remover{c}.Marked(ctx, ".fileshare-csi/marks", 7)
			if marked {
				t.Error("Marked says marked")
			}
			return err
		},
	}
	for name, refusal := range refusals {
		for call, run := range calls {
			srv := &cannedServer{hangUpAfter: 20}
			srv.answer = func(n int, rec []byte) []byte { return refusal(n, parseOps(t, rec)) }
			c := startCanned(t, srv, 16)
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
			err := run(ctx, c)
			cancel()
			if !errors.Is(err, share.ErrUnavailable) || errors.Is(err, fs.ErrNotExist) || share.IsAnswer(err) {
				t.Errorf("%s, %s = %v (fs.ErrNotExist %v); want Unavailable, no answer about the path", name, call, err, errors.Is(err, fs.ErrNotExist))
			}
			if !c.s.broken {
				t.Errorf("%s, %s: the session is still taken for usable", name, call)
			}
		}
	}
}

// endlessDir is a server whose READDIR replies never reach the end: the
// n-th lists one entry with cookies[n%len(cookies)], and no eof. It
// counts the READDIRs in *readdirs.
func endlessDir(t *testing.T, readdirs *int, cookies ...uint64) *cannedServer {
	srv := &cannedServer{hangUpAfter: 5000}
	srv.answer = func(_ int, rec []byte) []byte {
		ops := parseOps(t, rec)
		rs := make([]result4, len(ops))
		for i, op := range ops {
			rs[i] = okResult(op)
			if op == op4Readdir {
				cookie := cookies[*readdirs%len(cookies)]
				rs[i].body = readdirBody(false, dirEntryAt{cookie, fmt.Sprintf("e%d", *readdirs)})
				*readdirs++
			}
		}
		return reply(nfs4OK, rs...)
	}
	return srv
}

// A server whose READDIR does not get on (a cookie it gave before comes
// again, with no eof) must not be asked again and again: List would pile
// up names until the deadline (for ever without one), the tree copy and
// the delete walk would go round the same entries. The listing fails as
// Unavailable at the first cookie that comes again, and the session,
// whose server breaks the protocol, is not used again.
func TestAListingStopsWhenACookieComesAgain(t *testing.T) {
	walks := map[string]func(ctx context.Context, c *nfs4Client) error{
		"List": func(ctx context.Context, c *nfs4Client) error {
			_, err := c.List(ctx, "d", 0)
			return err
		},
		"ReadDir": func(ctx context.Context, c *nfs4Client) error {
			return c.ReadDir(ctx, "d", func([]share.DirEntry) error { return nil })
		},
		"the delete walk's Pages": func(ctx context.Context, c *nfs4Client) error {
			return nfs4Remover{c}.Pages(ctx, "\x01", func([]share.DirEntry) (int, error) { return 0, nil })
		},
	}
	for _, cookies := range [][]uint64{{5}, {5, 6}, {0}} {
		for name, walk := range walks {
			readdirs := 0
			c := startCanned(t, endlessDir(t, &readdirs, cookies...), 16)
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
			err := walk(ctx, c)
			cancel()
			// A READDIR from each cookie, the first (0) included: the last
			// reply gives one the listing was read from already.
			if readdirs > len(cookies)+1 {
				t.Errorf("cookies %v: %s sent %d READDIRs (err %v); want an error at the first cookie that comes again", cookies, name, readdirs, err)
			}
			if !errors.Is(err, share.ErrUnavailable) || share.IsAnswer(err) || !c.s.broken {
				t.Errorf("cookies %v: %s = %v, broken %v; want Unavailable on a broken session", cookies, name, err, c.s.broken)
			}
		}
	}
}

// A server that lists new entries for ever, each reply with a new cookie:
// List without a limit of its own (max 0) fails after share.MaxListed names
// instead of filling the controller's memory; the store's directories
// never hold that many.
func TestListGathersAtMostMaxListNames(t *testing.T) {
	defer func(old int) { share.MaxListed = old }(share.MaxListed)
	share.MaxListed = 50
	cookies := make([]uint64, 1000)
	for i := range cookies {
		cookies[i] = uint64(i + 1)
	}
	readdirs := 0
	c := startCanned(t, endlessDir(t, &readdirs, cookies...), 16)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	names, err := c.List(ctx, "d", 0)
	if err == nil || share.IsAnswer(err) || names != nil || readdirs > share.MaxListed+1 {
		t.Fatalf("List of a directory that never ends: %d names, %v after %d READDIRs; want an error after %d names", len(names), err, readdirs, share.MaxListed)
	}
	// A max of the caller's own still ends the listing early, and well.
	readdirs = 0
	c = startCanned(t, endlessDir(t, &readdirs, cookies...), 16)
	if names, err := c.List(ctx, "d", 10); err != nil || len(names) != 10 {
		t.Fatalf("List of 10: %d names, %v", len(names), err)
	}
}

// On a session that allows 8 operations per COMPOUND (the least establish
// takes), the walk to a rename's source can fill the COMPOUND: the walk to
// its target then had no room at all, and lookupOps sent PUTFH and GETFH,
// walking nothing, again and again until the deadline. The source's
// directory is found first, in COMPOUNDs of its own, and the rename is
// done in a few.
func TestARenameFromADeepPathEndsInAFewCompounds(t *testing.T) {
	for _, paths := range [][2]string{
		{"a/b/c/d/e/f/x", "y/z"},
		{"a/b/c/d/e/f/x", "a/b/c/d/e/f/g/h/i/j/y"},
		{"a/b/c/d/e/x", "y"},
		{"x", "a/b/c/d/e/f/g/h/i/j/y"},
	} {
		srv := &cannedServer{hangUpAfter: 100}
		var renames int
		srv.answer = func(_ int, rec []byte) []byte {
			ops := parseOps(t, rec)
			if ops[len(ops)-1] == op4Rename {
				renames++
			}
			return okReply(ops)
		}
		c := startCanned(t, srv, 8)
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		err := c.Replace(ctx, paths[0], paths[1])
		cancel()
		if n := srv.count(); err != nil || n > 5 || renames != 1 {
			t.Errorf("Replace(%s, %s) = %v after %d COMPOUNDs, %d RENAMEs; want it done in a few", paths[0], paths[1], err, n, renames)
		}
	}

	// A walk that leaves no room for the operation after it is refused,
	// with nothing sent.
	srv := &cannedServer{answer: func(_ int, rec []byte) []byte { return okReply(parseOps(t, rec)) }}
	c := startCanned(t, srv, 8)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	if _, err := c.lookupOps(ctx, []string{"a"}, 7); err == nil || srv.count() != 0 {
		t.Fatalf("lookupOps with no room: %v after %d COMPOUNDs", err, srv.count())
	}
}

// A call whose SEQUENCE the server took for a replay of an earlier one on
// the slot (RETRY_UNCACHED_REP on the operation after it, as kernel nfsd
// answers) ran none of its operations: the session is out of step, and
// the caller is told to try again (Unavailable, a fresh session), not
// given an error it takes for an answer about a path.
func TestAReplayedSequenceBreaksTheSessionAndIsRetryable(t *testing.T) {
	srv := &cannedServer{}
	srv.answer = func(_ int, rec []byte) []byte {
		ops := parseOps(t, rec)
		if len(ops) > 1 && ops[0] == op4Sequence && ops[1] == op4Putrootfh {
			return reply(nfs4ErrRetryUncached, result4{op4Sequence, 0, seqOK}, result4{op4Putrootfh, nfs4ErrRetryUncached, nil})
		}
		return okReply(ops)
	}
	s, ctx := establishedOn(t, srv)
	err := s.compound(ctx, []nfs4Op{opPutrootfh()})
	if !errors.Is(err, share.ErrUnavailable) || errors.Is(err, fs.ErrNotExist) || !s.broken {
		t.Errorf("a call the server took for a replay: %v (broken %v), want ErrUnavailable and a broken session", err, s.broken)
	}
}

// establishedOn is a session made on srv, and a context for its calls.
func establishedOn(t *testing.T, srv *cannedServer) (*nfs4Session, context.Context) {
	t.Helper()
	client, server := net.Pipe()
	go srv.serve(server)
	t.Cleanup(func() { client.Close() })
	s, err := newNFS4Session(oncrpc.NewConn(client), "nfs://fake/export?vers=4.1")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	t.Cleanup(cancel)
	if err := s.establish(ctx); err != nil || s.broken {
		t.Fatalf("establish: %v (broken %v)", err, s.broken)
	}
	return s, ctx
}

// A new session whose first SEQUENCE the server answers SEQ_MISORDERED (as
// kernel nfsd did under a burst of new sessions) ran nothing and is of no
// use: the dial makes one more, as a new client on a fresh connection, and
// only once. A refusal of the session's setup is not tried again.
func TestASessionOutOfStepAtBirthIsMadeAgainOnce(t *testing.T) {
	misordered := func(_ int, rec []byte) []byte {
		ops := parseOps(t, rec)
		if len(ops) > 1 && ops[0] == op4Sequence && ops[1] == op4ReclaimComplete {
			return reply(nfs4ErrSeqMisordered, result4{op4Sequence, nfs4ErrSeqMisordered, nil})
		}
		return okReply(ops)
	}
	refused := func(_ int, rec []byte) []byte {
		ops := parseOps(t, rec)
		if ops[0] == op4ExchangeID {
			return reply(nfs4ErrMinorVersMism, result4{op4ExchangeID, nfs4ErrMinorVersMism, nil})
		}
		return okReply(ops)
	}
	replayed := func(_ int, rec []byte) []byte {
		ops := parseOps(t, rec)
		if len(ops) > 1 && ops[0] == op4Sequence && ops[1] == op4ReclaimComplete {
			return reply(nfs4ErrRetryUncached, result4{op4Sequence, 0, seqOK}, result4{op4ReclaimComplete, nfs4ErrRetryUncached, nil})
		}
		return okReply(ops)
	}
	ok := func(_ int, rec []byte) []byte { return okReply(parseOps(t, rec)) }
	for _, c := range []struct {
		name    string
		answers []func(int, []byte) []byte // per connection; the last for the rest
		dials   int
		fails   bool
	}{
		{"out of step, then a good one", []func(int, []byte) []byte{misordered, ok}, 2, false},
		{"out of step twice", []func(int, []byte) []byte{misordered}, 2, true},
		// Sequence ID 1 taken for a replay: the slot is another's (a
		// client ID the server gave twice), not a RECLAIM_COMPLETE done.
		{"first SEQUENCE replayed, then a good one", []func(int, []byte) []byte{replayed, ok}, 2, false},
		{"refused", []func(int, []byte) []byte{refused, ok}, 1, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			dials := 0
			dial := func(context.Context) (*oncrpc.Conn, error) {
				srv := &cannedServer{answer: c.answers[min(dials, len(c.answers)-1)]}
				dials++
				client, server := net.Pipe()
				go srv.serve(server)
				t.Cleanup(func() { client.Close() })
				return oncrpc.NewConn(client), nil
			}
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
			defer cancel()
			s, err := bornSession(ctx, dial, "nfs://fake/export?vers=4.1", nfs4Minor)
			if dials != c.dials {
				t.Errorf("%d connections, want %d", dials, c.dials)
			}
			switch {
			case c.fails && err == nil:
				t.Errorf("a session was made")
			case !c.fails && (err != nil || s.broken):
				t.Errorf("no session: %v", err)
			case c.fails && c.dials == 2 && !errors.Is(err, share.ErrUnavailable):
				t.Errorf("%v, want ErrUnavailable (a retry of the call dials again)", err)
			}
		})
	}
}

// exchangeIDBody is an EXCHANGE_ID result giving client ID id and the
// sequence ID seq for its CREATE_SESSION.
func exchangeIDBody(id uint64, seq uint32) func(*xdrEnc) {
	return func(e *xdrEnc) {
		e.u64(id)
		e.u32(seq)
		e.u32(0)
		e.u32(0)
		e.u64(0)
		e.opaque([]byte("srv"))
		e.opaque(nil)
		e.u32(0)
	}
}

// TYPE is a REQUIRED attribute (RFC 8881 section 5.6): a GETATTR that
// answers NFS4_OK and leaves it out is a reply no working server sends.
// Read as it was, Stat said "there, and not a directory", which the state
// store takes for a volume directory replaced (purge leaves it alone and
// a DeleteVolume answers OK) or missing (CheckDir says fs.ErrNotExist). It
// must fail as Unavailable, on a session not used again.
func TestAGetattrWithoutTheTypeIsNoAnswer(t *testing.T) {
	calls := map[string]func(ctx context.Context, c *nfs4Client) error{
		"Stat": func(ctx context.Context, c *nfs4Client) error {
			fi, err := c.Stat(ctx, "pvc-1")
			if err == nil {
				t.Logf("Stat = %+v", fi)
			}
			return err
		},
		"Batch stat": func(ctx context.Context, c *nfs4Client) error {
			r := c.Batch(ctx, []share.Op{{Kind: share.OpStat, Path: "pvc-1"}}, false)[0]
			if r.Err == nil {
				t.Logf("Batch stat = %+v", r.Info)
			}
			return r.Err
		},
	}
	for call, run := range calls {
		srv := &cannedServer{hangUpAfter: 20}
		srv.answer = func(_ int, rec []byte) []byte {
			ops := parseOps(t, rec)
			rs := make([]result4, len(ops))
			for i, op := range ops {
				rs[i] = okResult(op)
				if op == op4Getattr {
					// NFS4_OK, with the mode and the file ID but no type.
					rs[i].body = func(e *xdrEnc) {
						fattr(e, []int{attrFileID, attrMode}, func(v *xdrEnc) { v.u64(7); v.u32(0o755) })
					}
				}
			}
			return reply(nfs4OK, rs...)
		}
		c := startCanned(t, srv, 16)
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		err := run(ctx, c)
		cancel()
		if !errors.Is(err, share.ErrUnavailable) || share.IsAnswer(err) {
			t.Errorf("%s = %v; want Unavailable, no answer about the path", call, err)
		}
		if !c.s.broken {
			t.Errorf("%s: the session is still taken for usable", call)
		}
	}
}
