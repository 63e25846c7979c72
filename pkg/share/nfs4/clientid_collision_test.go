package nfs4

import (
	"bytes"
	"context"
	"net"
	"sync"
	"testing"
	"time"

	"github.com/fileshare-csi/fileshare-csi/pkg/share/oncrpc"
)

// nfsdModel is the client and session state of kernel nfsd (6.1,
// fs/nfsd/nfs4state.c) as far as these tests need it, shared by every
// connection: EXCHANGE_ID cases 1, 2 and 4, CREATE_SESSION's
// confirmed/unconfirmed branches with the CREATE_SESSION reply cache
// (check_slot_seqid, nfsd4_replay_create_session), and SEQUENCE's slot
// check with nfsd4_enc_sequence_replay (RETRY_UNCACHED_REP on the
// operation after a replayed SEQUENCE whose reply was not cached).
//
// ids are the client IDs the first EXCHANGE_IDs are given. nfsd makes a
// client ID in create_client() -> gen_clid(): nn->clientid_counter++,
// before nfsd4_exchange_id takes nn->client_lock, so two EXCHANGE_IDs run
// by two nfsd threads at once can be given the same one. {c, c} models
// that lost increment.
type nfsdModel struct {
	mu       sync.Mutex
	ids      []uint64
	next     uint64
	clients  []*modelClient // newest first, as nfsd's hash chains
	sessions map[[16]byte]*modelSlot
	nsess    uint32

	// hold is how long an EXCHANGE_ID takes; inFlight and maxInFlight
	// count the EXCHANGE_IDs being run at once.
	hold                  time.Duration
	inFlight, maxInFlight int
}

type modelClient struct {
	name      []byte
	verf      []byte
	id        uint64
	confirmed bool
	csSeq     uint32
	csSession [16]byte
}

type modelSlot struct {
	seq         uint32
	initialized bool
	opcnt       int
}

func (m *nfsdModel) dial(t *testing.T) func(context.Context) (*oncrpc.Conn, error) {
	return func(context.Context) (*oncrpc.Conn, error) {
		srv := &cannedServer{answer: func(_ int, rec []byte) []byte { return m.handle(t, rec) }}
		client, server := net.Pipe()
		go srv.serve(server)
		t.Cleanup(func() { client.Close() })
		return oncrpc.NewConn(client), nil
	}
}

func (m *nfsdModel) clientID() uint64 {
	if len(m.ids) > 0 {
		id := m.ids[0]
		m.ids = m.ids[1:]
		return id
	}
	m.next++
	return 0x1000 + m.next
}

func (m *nfsdModel) find(id uint64, confirmed bool) *modelClient {
	for _, c := range m.clients {
		if c.id == id && c.confirmed == confirmed {
			return c
		}
	}
	return nil
}

func (m *nfsdModel) handle(t *testing.T, rec []byte) []byte {
	d := &xdrDec{b: rec}
	callHeader(d)
	n := int(d.u32())
	var res []result4
	for i := range n {
		op := d.u32()
		switch op {
		case op4ExchangeID:
			verf := d.fixed(8)
			name := d.opaque(nfs4OpaqueLimit)
			d.u32()
			d.u32()
			d.u32()
			return reply(nfs4OK, m.exchangeID(verf, name))
		case op4CreateSession:
			id := d.u64()
			seq := d.u32()
			return reply(m.createSession(id, seq))
		case op4Sequence:
			var sid [16]byte
			copy(sid[:], d.fixed(16))
			seq := d.u32()
			d.u32()
			d.u32()
			d.boolean()
			// SEQUENCE's result: the session and sequence ID as sent.
			seqBody := func(e *xdrEnc) {
				e.fixed(sid[:])
				e.u32(seq)
				e.u32(0)
				e.u32(0)
				e.u32(0)
				e.u32(0)
			}
			m.mu.Lock()
			slot := m.sessions[sid]
			var st uint32
			switch {
			case slot == nil:
				st = nfs4ErrBadsession
			case seq == slot.seq+1:
				slot.seq, slot.initialized, slot.opcnt = seq, true, n
			case seq == slot.seq && !slot.initialized:
				st = nfs4ErrSeqMisordered
			case seq == slot.seq && (slot.opcnt > n || slot.opcnt < n):
				st = nfs4ErrSeqFalseRetry
			case seq == slot.seq && n > 1:
				// A replay whose reply was not cached (not a solo SEQUENCE,
				// cachethis false): SEQUENCE OK, RETRY_UNCACHED_REP next.
				m.mu.Unlock()
				return reply(nfs4ErrRetryUncached, result4{op4Sequence, nfs4OK, seqBody}, result4{d.u32(), nfs4ErrRetryUncached, nil})
			case seq == slot.seq:
				// A solo SEQUENCE replayed from the cache: no change.
			default:
				st = nfs4ErrSeqMisordered
			}
			m.mu.Unlock()
			if st != nfs4OK {
				return reply(st, result4{op4Sequence, st, nil})
			}
			res = append(res, result4{op4Sequence, nfs4OK, seqBody})
		case op4ReclaimComplete:
			d.boolean()
			res = append(res, result4{op, nfs4OK, nil})
		case op4Putrootfh:
			res = append(res, result4{op, nfs4OK, nil})
		case op4DestroySession:
			var sid [16]byte
			copy(sid[:], d.fixed(16))
			m.mu.Lock()
			delete(m.sessions, sid)
			m.mu.Unlock()
			return reply(nfs4OK, result4{op, nfs4OK, nil})
		case op4DestroyClientID:
			d.u64()
			return reply(nfs4OK, result4{op, nfs4OK, nil})
		default:
			t.Errorf("the model server got %s (operation %d)", op4Name(op), i)
			return reply(nfs4ErrServerfault)
		}
	}
	return reply(nfs4OK, res...)
}

func (m *nfsdModel) exchangeID(verf, name []byte) result4 {
	m.mu.Lock()
	m.inFlight++
	m.maxInFlight = max(m.maxInFlight, m.inFlight)
	m.mu.Unlock()
	time.Sleep(m.hold)
	m.mu.Lock()
	defer m.mu.Unlock()
	m.inFlight--
	id := m.clientID() // create_client(): before the lock in nfsd
	var c *modelClient
	for _, x := range m.clients {
		if x.confirmed && bytes.Equal(x.name, name) && bytes.Equal(x.verf, verf) {
			c = x // case 2
		}
	}
	if c == nil {
		// Case 1 (or 4: an unconfirmed record of the same name goes).
		keep := m.clients[:0]
		for _, x := range m.clients {
			if x.confirmed || !bytes.Equal(x.name, name) {
				keep = append(keep, x)
			}
		}
		c = &modelClient{name: bytes.Clone(name), verf: bytes.Clone(verf), id: id}
		m.clients = append([]*modelClient{c}, keep...)
	}
	id, seq := c.id, c.csSeq+1
	return result4{op4ExchangeID, nfs4OK, exchangeIDBody(id, seq)}
}

func (m *nfsdModel) createSession(id uint64, seq uint32) (uint32, result4) {
	m.mu.Lock()
	defer m.mu.Unlock()
	body := func(sid [16]byte, seq uint32) func(e *xdrEnc) {
		return func(e *xdrEnc) {
			e.fixed(sid[:])
			e.u32(seq)
			e.u32(0)
			e.channelAttrs(channelAttrs{MaxRequest: 1 << 20, MaxResponse: 1 << 20, MaxOps: 16, MaxRequests: 1})
			e.channelAttrs(nfs4BackChannel)
		}
	}
	fail := func(st uint32) (uint32, result4) { return st, result4{op4CreateSession, st, nil} }
	c := m.find(id, true)
	switch {
	case c != nil && seq == c.csSeq:
		// nfsd4_replay_create_session: the cached reply, the session
		// made by the CREATE_SESSION this one is taken to repeat.
		return nfs4OK, result4{op4CreateSession, nfs4OK, body(c.csSession, c.csSeq)}
	case c != nil && seq != c.csSeq+1:
		return fail(nfs4ErrSeqMisordered)
	case c == nil:
		if c = m.find(id, false); c == nil {
			return fail(nfs4ErrStaleClientid)
		}
		if seq != c.csSeq+1 {
			return fail(nfs4ErrSeqMisordered)
		}
		c.confirmed = true
	}
	if m.sessions == nil {
		m.sessions = map[[16]byte]*modelSlot{}
	}
	m.nsess++
	var sid [16]byte
	sid[0], sid[1], sid[15] = byte(id>>8), byte(id), byte(m.nsess)
	m.sessions[sid] = &modelSlot{}
	c.csSeq++
	c.csSession = sid
	return nfs4OK, result4{op4CreateSession, nfs4OK, body(sid, c.csSeq)}
}

// Two dials the server gave one client ID (nfsd's lost clientid_counter
// increment under concurrent EXCHANGE_IDs): the second CREATE_SESSION is
// taken for a replay of the first and answered with the first's session.
// The second session must not be made on it: two nfs4Sessions, each with
// its own s.seq, would share one slot, and each would send sequence IDs
// the server has seen from the other (RETRY_UNCACHED_REP on the operation
// after SEQUENCE, SEQ_FALSE_RETRY, SEQ_MISORDERED), and Close of either
// would DESTROY_SESSION the other's.
func TestTwoDialsGivenOneClientIDDoNotShareASession(t *testing.T) {
	for _, c := range []struct {
		name string
		// busy: calls the first session makes before the second dials.
		busy int
	}{
		{"second's RECLAIM_COMPLETE replays the first's (RETRY_UNCACHED_REP)", 0},
		{"first went on (SEQ_MISORDERED at birth)", 1},
	} {
		t.Run(c.name, func(t *testing.T) {
			m := &nfsdModel{ids: []uint64{0xc1, 0xc1}}
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
			defer cancel()
			a, err := bornSession(ctx, m.dial(t), "nfs://fake/export?vers=4.1", nfs4Minor)
			if err != nil {
				t.Fatal(err)
			}
			for range c.busy {
				if err := a.compound(ctx, []nfs4Op{opPutrootfh()}); err != nil {
					t.Fatal(err)
				}
			}
			b, err := bornSession(ctx, m.dial(t), "nfs://fake/export?vers=4.1", nfs4Minor)
			if err != nil {
				t.Fatalf("second dial: %v", err)
			}
			if a.session == b.session {
				t.Errorf("both sessions were made on server session %x (client ID %#x)", a.session, a.clientID)
			}
			for i, s := range []*nfs4Session{a, b, a, b} {
				if err := s.compound(ctx, []nfs4Op{opPutrootfh()}); err != nil {
					t.Errorf("call %d, on session %c: %v", i, 'a'+i%2, err)
				}
			}
		})
	}
}

// The lost increment needs two EXCHANGE_IDs in nfsd at once. The client's
// own dials (a pool filling up, a copy's workers, a burst of CreateVolumes)
// need never be: one EXCHANGE_ID to a server at a time costs one round
// trip each, and then no two of this process's sessions are ever given
// one client ID.
func TestConcurrentDialsDoNotOverlapTheirExchangeIDs(t *testing.T) {
	m := &nfsdModel{hold: 20 * time.Millisecond}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			if _, err := bornSession(ctx, m.dial(t), "nfs://fake/export?vers=4.1", nfs4Minor); err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	if m.maxInFlight > 1 {
		t.Errorf("%d EXCHANGE_IDs at once in the server; want one at a time", m.maxInFlight)
	}
}
