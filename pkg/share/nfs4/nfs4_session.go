package nfs4

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"net"
	"os"
	"sync"
	"time"

	"github.com/vmware/go-nfs-client/nfs/rpc"

	"github.com/fileshare-csi/fileshare-csi/pkg/share"
	"github.com/fileshare-csi/fileshare-csi/pkg/share/oncrpc"
)

// nfs4Session is one NFSv4.1 client ID and session over one TCP
// connection, with a single slot: the client serves one call at a time,
// like the v3 client, and the pool opens more sessions for more calls.
type nfs4Session struct {
	conn *oncrpc.Conn
	cred rpc.Auth
	desc string
	// minor is the NFSv4 minor version of every COMPOUND: 1, or 2 for the
	// sessions that copy on the server.
	minor uint32

	verifier [8]byte
	owner    []byte // client owner: unique to this session
	clientID uint64
	session  [16]byte
	seq      uint32 // the slot's next sequence ID
	fore     channelAttrs
	broken   bool

	// roundTrips counts the COMPOUNDs sent, for tests of the cost of an
	// operation.
	roundTrips int
}

// The fore channel the client asks for. Replies stay within the RPC
// layer's record limit; one slot; 64 operations are far more than the
// longest COMPOUND the client builds for the driver's paths.
var nfs4ForeChannel = channelAttrs{
	MaxRequest:        512 << 10,
	MaxResponse:       512 << 10,
	MaxResponseCached: 4 << 10,
	MaxOps:            64,
	MaxRequests:       1,
}

// The back channel is never bound to a connection, but CREATE_SESSION
// needs its attributes all the same.
var nfs4BackChannel = channelAttrs{MaxRequest: 4 << 10, MaxResponse: 4 << 10, MaxOps: 2, MaxRequests: 1}

func newNFS4Session(conn *oncrpc.Conn, desc string) (*nfs4Session, error) {
	hostname, _ := os.Hostname()
	s := &nfs4Session{conn: conn, desc: desc, minor: nfs4Minor, cred: rpc.NewAuthUnix(hostname, 0, 0).Auth()}
	var id [16]byte
	if _, err := rand.Read(s.verifier[:]); err != nil {
		return nil, err
	}
	if _, err := rand.Read(id[:]); err != nil {
		return nil, err
	}
	// One client owner per session: the server keeps each pooled session's
	// state apart, and a session's re-establishment finds its own record.
	s.owner = fmt.Appendf(nil, "fileshare-csi/%s/%x", hostname, id)
	return s, nil
}

// send runs one COMPOUND of ops as they are (no SEQUENCE added). Transport
// failures and replies that do not decode break the session.
func (s *nfs4Session) send(ctx context.Context, ops []nfs4Op) (compoundReply, error) {
	if s.broken {
		return compoundReply{}, fmt.Errorf("%s: session is broken: %w", s.desc, share.ErrUnavailable)
	}
	var e xdrEnc
	e.u32(2) // RPC version
	e.u32(nfs4Prog)
	e.u32(nfs4Vers)
	e.u32(nfs4ProcCompound)
	e.u32(s.cred.Flavor)
	e.opaque(s.cred.Body)
	e.u32(0) // AUTH_NONE verifier
	e.u32(0)
	encodeCompound(&e, "", s.minor, ops)
	s.roundTrips++
	res, err := s.conn.CallEncoded(ctx, e.b)
	if err != nil && !errors.Is(err, context.DeadlineExceeded) && !errors.Is(err, context.Canceled) {
		err = fmt.Errorf("%s: %w: %w", s.desc, share.ErrUnavailable, err)
	}
	if err != nil {
		s.broken = true
		return compoundReply{}, err
	}
	r, err := decodeCompound(res.Rest(), ops)
	if err != nil {
		s.broken = true
		return compoundReply{}, fmt.Errorf("%s: %s: %w: %w", s.desc, opNames(ops), share.ErrUnavailable, err)
	}
	return r, nil
}

// establish makes a client ID and a session on it, and says no state is
// to be reclaimed: the client never holds state across sessions. A failure
// breaks the session: one half made is not used again, and a server that
// loses the session it just made is not asked for another (the pool dials
// afresh).
func (s *nfs4Session) establish(ctx context.Context) (err error) {
	defer func() {
		if err != nil {
			s.broken = true
		}
	}()
	var ex exchangeIDRes
	release, err := exchangeGate(ctx, s.conn)
	if err != nil {
		return fmt.Errorf("EXCHANGE_ID: %w", err)
	}
	r, err := s.send(ctx, []nfs4Op{opExchangeID(s.verifier, s.owner, &ex)})
	release()
	if err == nil {
		err = r.err
	}
	if err != nil {
		return fmt.Errorf("EXCHANGE_ID: %w", s.refusal(err))
	}
	var cs createSessionRes
	r, err = s.send(ctx, []nfs4Op{opCreateSession(ex.ClientID, ex.Seqid, nfs4ForeChannel, nfs4BackChannel, &cs)})
	if err == nil {
		err = r.err
	}
	if err != nil {
		return fmt.Errorf("CREATE_SESSION: %w", s.refusal(err))
	}
	if cs.Fore.MaxOps < 8 || cs.Fore.MaxRequest < 4096 || cs.Fore.MaxResponse < 4096 {
		s.broken = true
		return fmt.Errorf("%s: the server's session allows %d operations, %d-byte requests and %d-byte replies per COMPOUND, too few: %w",
			s.desc, cs.Fore.MaxOps, cs.Fore.MaxRequest, cs.Fore.MaxResponse, share.ErrUnavailable)
	}
	s.clientID, s.session, s.fore, s.seq = ex.ClientID, cs.SessionID, cs.Fore, 1
	// Not compound: a session lost again here is not made again, or each
	// re-establishment would start the next for as long as the server
	// kept losing them.
	err = s.sequenced(ctx, []nfs4Op{opReclaimComplete()}, false)
	// A new session's first SEQUENCE (sequence ID 1) can be no replay:
	// RETRY_UNCACHED_REP, SEQ_FALSE_RETRY or SEQ_MISORDERED here say
	// someone else runs this slot. Kernel nfsd hands two concurrent
	// EXCHANGE_IDs one client ID (create_client's clientid_counter++ is
	// outside its lock), then answers the second CREATE_SESSION from its
	// replay cache with the first's session. Such a session is not ours:
	// it fails here (never destroyed: that would end the other's) and
	// bornSession makes another as a new client.
	if err != nil && !isNFS4Status(err, nfs4ErrCompleteAlrdy) {
		return fmt.Errorf("RECLAIM_COMPLETE: %w", s.refusal(err))
	}
	return nil
}

// exchangeGates holds, per server address, the right to have an
// EXCHANGE_ID in flight: kernel nfsd gives two EXCHANGE_IDs it runs at
// once the same client ID now and then (gen_clid's unlocked
// clientid_counter++), and then one session to both. One at a time from
// this process, none of its sessions share one.
var exchangeGates sync.Map // host -> chan struct{} (capacity 1)

func exchangeGate(ctx context.Context, conn *oncrpc.Conn) (release func(), err error) {
	key := conn.RemoteAddr().String()
	if h, _, err := net.SplitHostPort(key); err == nil {
		key = h
	}
	g, _ := exchangeGates.LoadOrStore(key, make(chan struct{}, 1))
	gate := g.(chan struct{})
	select {
	case gate <- struct{}{}:
		return func() { <-gate }, nil
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// refusal turns a session-setup refusal into an error for a server that
// will not do NFSv4.1 for this client, which breaks the session; a
// transport failure or the end of the call stays what it is. The server's
// status is kept as a sessionStatus: whatever it is, it says nothing
// about a path.
func (s *nfs4Session) refusal(err error) error {
	s.broken = true
	var ne *NFS4Error
	if !errors.As(err, &ne) {
		return err
	}
	return fmt.Errorf("%s: the server refuses an NFSv4.%d session (does it offer v4.%d?): %w: %w", s.desc, s.minor, s.minor, share.ErrUnavailable, sessionStatus{ne})
}

// sessionStatus is a status the server gave SEQUENCE, a COMPOUND as a
// whole, or a step of the session's setup. Whatever the status, it is
// about the session and not the path the call was about: NOENT there is
// no "no such file" (the state store would take a record for gone, and a
// DeleteVolume answer OK and leave the data). So it unwraps to nothing,
// and is no *NFS4Error, whose Index callers take for an operation's; the
// errors that carry it wrap share.ErrUnavailable beside it.
type sessionStatus struct{ ne *NFS4Error }

func (e sessionStatus) Error() string { return e.ne.Error() }

// isSessionStatus reports whether err carries status as a sessionStatus.
func isSessionStatus(err error, status uint32) bool {
	var ss sessionStatus
	return errors.As(err, &ss) && ss.ne.Status == status
}

// retryMax bounds how long DELAY and GRACE are waited out when the call
// has no deadline of its own.
const retryMax = oncrpc.DefaultTimeout

// compound runs SEQUENCE followed by ops. A session the server lost (it
// restarted, or expired the lease) is made again once and the call sent
// again; DELAY and GRACE are waited out with backoff within ctx's deadline,
// as long as nothing in the COMPOUND changed the server's state before the
// operation that was told to wait. An operation's refusal comes back as an
// *NFS4Error whose Index is its position in ops; a refusal of SEQUENCE or
// of the COMPOUND as a whole, as ErrUnavailable (sessionStatus).
func (s *nfs4Session) compound(ctx context.Context, ops []nfs4Op) error {
	return s.sequenced(ctx, ops, true)
}

// sequenced is compound; renew says whether a session the server lost is
// made again. establish's own COMPOUND says no: a session error there is
// final.
func (s *nfs4Session) sequenced(ctx context.Context, ops []nfs4Op, renew bool) error {
	if len(ops)+1 > int(s.fore.MaxOps) {
		return fmt.Errorf("%s: a COMPOUND of %d operations, the session allows %d", s.desc, len(ops)+1, s.fore.MaxOps)
	}
	renewed := !renew
	backoff := 10 * time.Millisecond
	deadline, ok := ctx.Deadline()
	if !ok {
		deadline = time.Now().Add(retryMax)
	}
	all := make([]nfs4Op, 0, len(ops)+1)
	for {
		var seq sequenceRes
		all = append(all[:0], opSequence(s.session, s.seq, 0, &seq))
		all = append(all, ops...)
		r, err := s.send(ctx, all)
		if err != nil {
			return err
		}
		if r.n > 0 && r.failed != 0 {
			// SEQUENCE succeeded: the slot moved on.
			s.seq++
		}
		if r.err == nil {
			return nil
		}
		ne := r.err.(*NFS4Error)
		if r.failed > 0 {
			ne.Index = r.failed - 1
		}
		switch {
		case r.failed == 0 && !renewed && (ne.Status == nfs4ErrBadsession || ne.Status == nfs4ErrDeadsession || ne.Status == nfs4ErrStaleClientid):
			renewed = true
			if err := s.establish(ctx); err != nil {
				return fmt.Errorf("%s: re-establish the session after %v: %w", s.desc, ne, err)
			}
			continue
		case (ne.Status == nfs4ErrDelay || ne.Status == nfs4ErrGrace) && !mutatesBefore(all, r.failed):
			if time.Now().Add(backoff).After(deadline) {
				if r.failed <= 0 {
					return fmt.Errorf("%s: %w: %w", s.desc, share.ErrUnavailable, sessionStatus{ne})
				}
				return fmt.Errorf("%s: %w", s.desc, ne)
			}
			t := time.NewTimer(backoff)
			select {
			case <-ctx.Done():
				t.Stop()
				return ctx.Err()
			case <-t.C:
			}
			backoff = min(2*backoff, time.Second)
			continue
		case r.failed <= 0 || renew && ne.Status == nfs4ErrRetryUncached:
			// SEQUENCE itself, or the whole COMPOUND, refused: the session
			// is out of step with the server. So is a slot the server took
			// this call's sequence ID on before (kernel nfsd answers it on
			// the operation after a SEQUENCE it took for a replay: another
			// session of one client ID shares the slot, see establish):
			// none of this call's operations ran, and a fresh session runs
			// them again.
			s.broken = true
			return fmt.Errorf("%s: %w: %w", s.desc, share.ErrUnavailable, sessionStatus{ne})
		}
		if ne.Status == nfs4ErrBadxdr || ne.Status == nfs4ErrOpIllegal || ne.Status == nfs4ErrTooManyOps || ne.Status == nfs4ErrReqTooBig || ne.Status == nfs4ErrRepTooBig {
			// The server could not take the call as built: a bug here, or
			// a server that breaks the protocol. Not an answer about a path
			// (none of these statuses unwraps to one; the copy reads
			// OP_ILLEGAL as "no COPY").
			s.broken = true
			return fmt.Errorf("%s: %s: %w: %w", s.desc, opNames(ops), share.ErrUnavailable, ne)
		}
		if staleHandle(ne.Status) {
			// The handle may be the export's or a kept directory's, which
			// this session would send again: it is done, and the call is
			// answered from a fresh one (ne unwraps to ErrUnavailable).
			s.broken = true
		}
		return ne
	}
}

// staleHandle says status is about a filehandle the server no longer
// knows (it restarted without keeping them, or the directory was replaced):
// nothing about whether a path exists.
func staleHandle(status uint32) bool {
	return status == nfs4ErrStale || status == nfs4ErrFhexpired || status == nfs4ErrBadhandle
}

func mutatesBefore(ops []nfs4Op, i int) bool {
	for _, op := range ops[:max(i, 0)] {
		if op.mutates {
			return true
		}
	}
	return false
}

// destroy ends the session and the client ID, so the server frees them at
// once instead of at the lease's end. Each must be the only operation of
// its COMPOUND.
func (s *nfs4Session) destroy(ctx context.Context) {
	if s.broken || s.clientID == 0 {
		return
	}
	if r, err := s.send(ctx, []nfs4Op{opDestroySession(s.session)}); err != nil || r.err != nil {
		return
	}
	_, _ = s.send(ctx, []nfs4Op{opDestroyClientID(s.clientID)})
}
