package share

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/fileshare-csi/fileshare-csi/pkg/source"
)

// Pool shares sessions per server, share and credentials, so that a burst of
// CreateVolume calls does not pay a TCP connect, MOUNT and SMB session setup
// each. At most MaxOpenPerKey sessions to one key are open at once: further
// callers wait for one to be released instead of dialing, in the order they
// came: a released session goes to the longest waiter, never to a caller
// that arrived after it (a run of copies taking sessions back to back must
// not starve the CreateVolume waiting beside them). Opening without a
// bound churns connections, and every NFS session binds reserved source
// ports (600-1023) that then sit in TIME_WAIT for a minute: a burst of a few
// hundred calls would run out of them. Sessions idle longer than IdleTimeout
// are closed.
type Pool struct {
	// MaxOpenPerKey bounds the sessions to one share with one set of
	// credentials. Zero means a new session for every call, closed after it.
	MaxOpenPerKey int
	// MaxHelpers bounds, across all shares, the extra sessions that large
	// NFS deletions borrow to work in parallel. They count against
	// MaxOpenPerKey too; this bound keeps many shares deleting at once from
	// using up the reserved source ports. Zero: no helpers.
	MaxHelpers  int
	IdleTimeout time.Duration
	// Dial opens a new session at one address (the pool tries a source's
	// addresses in order, source.TryInOrder); tests may replace it.
	Dial func(ctx context.Context, src source.Source, creds Credentials) (Client, error)

	mu   sync.Mutex
	keys map[string]*keyState
	// retired holds, by share, the figures of the keys whose state was
	// dropped (see dropKey): a share's counts never go down, and the pool
	// keeps one entry per share, not one per set of credentials it ever
	// saw (every password rotation makes a key).
	retired    map[ShareLabel]*keyCounts
	helpersOut int
	closed     bool
	stop       chan struct{}
	once       sync.Once
	calls      uint64 // calls with credentials so far: keyState.lastCall
}

type keyState struct {
	// superseded: a later call brought the same user on the same share
	// with another password. The Secret changed, so these sessions, opened
	// with the old one, are closed rather than lent again.
	superseded bool
	// lastCall orders the keys by the last call with their credentials
	// (Pool.calls then): GetIdle lends the newest.
	lastCall uint64
	idle     []idleClient
	open     int // leased + idle (+ granted to a waiter)
	// waiters are the callers waiting for a session, first come first.
	// While any wait, no session is idle: each released one is granted.
	waiters []*waiter
	counts  *keyCounts
}

// waiter is one caller in a key's queue. A grant is sent on ch (buffered)
// under p.mu: a session, or with c nil the right to dial one (already
// counted in open).
type waiter struct{ ch chan Client }

// ShareLabel names a share for metrics: the server and the share or export,
// never the credentials or a path below the share.
type ShareLabel struct {
	Protocol, Server, Share string
}

// shareLabel names src's share as far as it is known before a session is
// open. An NFS source's path may go below the export, and only the server
// knows where the export ends: the share stays "" until a session says
// (ShareName).
func shareLabel(src source.Source) ShareLabel {
	l := ShareLabel{Protocol: string(src.Protocol), Server: src.Host}
	if src.Port != 0 {
		l.Server = src.HostPort(0)
	}
	if src.Protocol == source.SMB {
		l.Share = src.Share
	}
	return l
}

// ShareStats are the pool's figures for one share, all credentials
// together. The counts only grow; Open and InUse are the state now.
type ShareStats struct {
	ShareLabel
	Open, InUse                int
	Waits, Dials, DialFailures uint64
	WaitSeconds                float64
}

type keyCounts struct {
	label                      ShareLabel
	waits, dials, dialFailures uint64
	waitSeconds                float64
	// dropped: the key's state is gone and these figures went into
	// Pool.retired; a late addition goes there too (see countsOf).
	dropped bool
}

// countsOf is where figures of kc are added: kc, or the share's retired
// figures once kc's key was dropped. p.mu is held.
func (p *Pool) countsOf(kc *keyCounts) *keyCounts {
	if !kc.dropped {
		return kc
	}
	if p.retired == nil {
		p.retired = map[ShareLabel]*keyCounts{}
	}
	r := p.retired[kc.label]
	if r == nil {
		r = &keyCounts{label: kc.label}
		p.retired[kc.label] = r
	}
	return r
}

// dropKey forgets the state of key, which has no session open, and keeps
// its figures with its share's. p.mu is held.
func (p *Pool) dropKey(key string) {
	ks := p.keys[key]
	if ks == nil {
		return
	}
	delete(p.keys, key)
	kc := ks.counts
	kc.dropped = true
	r := p.countsOf(kc)
	r.waits += kc.waits
	r.dials += kc.dials
	r.dialFailures += kc.dialFailures
	r.waitSeconds += kc.waitSeconds
}

// Stats returns the figures of every share the pool has dialed.
func (p *Pool) Stats() []ShareStats {
	p.mu.Lock()
	defer p.mu.Unlock()
	byShare := map[ShareLabel]*ShareStats{}
	of := func(l ShareLabel) *ShareStats {
		st := byShare[l]
		if st == nil {
			st = &ShareStats{ShareLabel: l}
			byShare[l] = st
		}
		return st
	}
	add := func(c *keyCounts) *ShareStats {
		st := of(c.label)
		st.Waits += c.waits
		st.Dials += c.dials
		st.DialFailures += c.dialFailures
		st.WaitSeconds += c.waitSeconds
		return st
	}
	for _, c := range p.retired {
		add(c)
	}
	for _, ks := range p.keys {
		st := add(ks.counts)
		st.Open += ks.open
		st.InUse += ks.open - len(ks.idle)
	}
	out := make([]ShareStats, 0, len(byShare))
	for _, st := range byShare {
		out = append(out, *st)
	}
	return out
}

type idleClient struct {
	c     Client
	since time.Time
	// renewed is when the server last heard from the session (see Renewer).
	renewed time.Time
}

// Renewer is a session whose server keeps state for it that lapses unless
// the client speaks within a lease (NFSv4.1: 60 to 90 seconds on common
// servers). The pool renews such sessions while they sit idle, so the next
// call finds its session alive instead of having to make it again.
type Renewer interface {
	Renew(ctx context.Context) error
}

// renewEvery is how often an idle Renewer is renewed: well within the
// shortest leases servers grant.
const renewEvery = 15 * time.Second

// NewPool returns a pool with sensible defaults.
func NewPool() *Pool {
	return &Pool{MaxOpenPerKey: 16, MaxHelpers: 32, IdleTimeout: time.Minute, Dial: dialAddress}
}

// Lease is a session borrowed from the pool.
type Lease struct {
	Client
	// Reused is true when the session came from the idle list; it may have
	// died while idle, so a transport error on it is worth one fresh retry.
	Reused bool
	pool   *Pool
	key    string
	once   sync.Once
}

// Release returns the session to the pool, or closes it when lastErr or the
// session itself shows a transport failure or a cut deadline. The server's
// answers (exists, not found, not empty, a refusal) and the caller's own
// errors leave a healthy session in the pool.
func (l *Lease) Release(lastErr error) {
	l.once.Do(func() {
		broken := BreaksSession(lastErr) && !answeredLater(lastErr)
		if b, ok := l.Client.(interface{ Broken() bool }); ok && b.Broken() {
			broken = true
		}
		l.pool.release(l.key, l.Client, broken)
		if lostConnection(lastErr) {
			// The server may have gone away (a restart, a failover): the
			// idle sessions to it are then gone too, and each would fail
			// the call or the copy it is lent to next (a copy has no
			// retry of its own). One dial each is cheaper, even when the
			// break was this session's alone (a stale handle).
			// Closed apart: an NFSv4 session's close waits for its
			// server, and the caller is on its way.
			prefix := shareOf(l.key)
			go l.pool.closeIdle(func(key string, _ idleClient) bool { return strings.HasPrefix(key, prefix) })
		}
	})
}

// lostConnection says whether err broke the session for a reason of the
// server's (its connection closed or reset, a reply it should not have
// sent), not a call cut by its own deadline.
func lostConnection(err error) bool {
	return errors.Is(err, ErrUnavailable) && !errors.Is(err, ErrTryLater) && !cutByContext(err)
}

// answeredLater says whether err is the server's "try again later"
// (ErrTryLater) to a request whose whole reply was read: the session is in
// step and stays. A session whose transport broke as well says so through
// its Broken.
func answeredLater(err error) bool {
	return errors.Is(err, ErrTryLater) && !cutByContext(err)
}

// shareOf is the share's part of a pool key (shareKey).
func shareOf(key string) string {
	i := strings.IndexByte(key, '/')
	return key[:i+1]
}

// poolKey is "<share hash>/<user hash>/<credentials hash>"; the password
// only enters a hash, never the key itself. The NFS version is part of the
// share: a source pinned to v4.1 must never be handed a v3 session, nor the
// reverse.
func poolKey(src source.Source, creds Credentials) string {
	return userKey(src, creds) + HashOf(creds.Domain, creds.Username, creds.Password, creds.Principal, creds.Keytab, creds.Krb5Conf)
}

// userKey is the prefix of poolKey that names the share and the user (a
// Kerberos principal is a user too: a rotated keytab supersedes its
// sessions as a changed password does).
func userKey(src source.Source, creds Credentials) string {
	return shareKey(src) + HashOf(creds.Domain, creds.Username, creds.Principal) + "/"
}

// shareKey is the prefix of poolKey that names the share. The SMB auth and
// encryption are part of it: a session an NTLM class opened, or one that is
// not encrypted, is never lent to a krb5 class or one that requires
// encryption.
func shareKey(src source.Source) string {
	return HashOf(string(src.Protocol), src.HostPort(0), src.Export, src.Share, src.Base, src.EffectiveVersion(), string(src.Auth), string(src.Encryption)) + "/"
}

// Retiring is a session its server ends at a known time (a Kerberos session
// ends with its service ticket, STATUS_NETWORK_SESSION_EXPIRED). The pool
// lends it no more from RetireAt on, and closes it while idle, so calls get
// sessions with fresh tickets instead of failing on an expired one.
type Retiring interface {
	RetireAt() time.Time
}

// retired reports whether c is past its RetireAt.
func retired(c Client, now time.Time) bool {
	r, ok := c.(Retiring)
	if !ok {
		return false
	}
	at := r.RetireAt()
	return !at.IsZero() && !now.Before(at)
}

// supersede marks the sessions of the same user on the same share opened
// with other credentials than key's, and returns their idle ones for the
// caller to close outside p.mu. p.mu is held.
func (p *Pool) supersede(key, user string) []Client {
	var closing []Client
	for k, ks := range p.keys {
		if k == key || ks.superseded || !strings.HasPrefix(k, user) {
			continue
		}
		ks.superseded = true
		for _, ic := range ks.idle {
			closing = append(closing, ic.c)
		}
		ks.open -= len(ks.idle)
		ks.idle = nil
		if ks.open == 0 {
			p.dropKey(k)
		}
	}
	return closing
}

// HashOf is a short key for fields that may hold secrets, so that a map
// keyed by credentials holds none: the pool's keys, and the SMB client's
// Kerberos logins.
func HashOf(fields ...string) string {
	h := sha256.New()
	for _, s := range fields {
		h.Write([]byte(s))
		h.Write([]byte{0})
	}
	return hex.EncodeToString(h.Sum(nil))[:32]
}

func (p *Pool) state(key string, label ShareLabel) *keyState {
	if p.keys == nil {
		p.keys = map[string]*keyState{}
	}
	ks := p.keys[key]
	if ks == nil {
		ks = &keyState{counts: &keyCounts{label: label}}
		p.keys[key] = ks
	}
	return ks
}

// Get returns an idle session for src and creds, dials a new one while fewer
// than MaxOpenPerKey are open, or waits for one until ctx ends.
func (p *Pool) Get(ctx context.Context, src source.Source, creds Credentials) (*Lease, error) {
	return p.get(ctx, src, creds, true, true)
}

// GetNew is Get without the idle sessions (after one proved dead).
func (p *Pool) GetNew(ctx context.Context, src source.Source, creds Credentials) (*Lease, error) {
	return p.get(ctx, src, creds, false, true)
}

// TryGet is Get that never waits for a session to be released: it returns
// nil when MaxOpenPerKey are in use, and when the pool has no bound (then
// it must not add sessions of its own) or dialing fails.
func (p *Pool) TryGet(ctx context.Context, src source.Source, creds Credentials) *Lease {
	if p.MaxOpenPerKey <= 0 {
		return nil
	}
	l, err := p.get(ctx, src, creds, true, false)
	if err != nil {
		return nil
	}
	return l
}

func (p *Pool) get(ctx context.Context, src source.Source, creds Credentials, reuse, wait bool) (*Lease, error) {
	p.once.Do(p.start)
	key := poolKey(src, creds)
	label := shareLabel(src)
	p.mu.Lock()
	ks := p.state(key, label)
	p.calls++
	ks.lastCall = p.calls
	// drop closes an idle session taken off the list, outside the lock.
	drop := func(c Client) {
		ks.open--
		p.mu.Unlock()
		closeWithin(ctx, c)
		p.mu.Lock()
		ks = p.state(key, label)
	}
	for len(ks.waiters) == 0 {
		if reuse && len(ks.idle) > 0 {
			c := ks.idle[len(ks.idle)-1].c
			ks.idle = ks.idle[:len(ks.idle)-1]
			if retired(c, time.Now()) {
				// Its ticket is about to end: a fresh session instead.
				drop(c)
				continue
			}
			p.mu.Unlock()
			return &Lease{Client: c, Reused: true, pool: p, key: key}, nil
		}
		if !reuse && len(ks.idle) > 0 && ks.open >= p.MaxOpenPerKey {
			// Make room for the fresh session by closing an idle one.
			c := ks.idle[0].c
			ks.idle = ks.idle[1:]
			drop(c)
			continue
		}
		if p.MaxOpenPerKey <= 0 || ks.open < p.MaxOpenPerKey {
			ks.open++
			ks.counts.dials++
			p.mu.Unlock()
			return p.dial(ctx, ks, key, src, creds)
		}
		break
	}
	if !wait {
		p.mu.Unlock()
		return nil, errAllInUse
	}
	// Queue behind the callers already waiting, even when a session is
	// about to be free: they came first.
	w := &waiter{ch: make(chan Client, 1)}
	ks.waiters = append(ks.waiters, w)
	ks.counts.waits++
	p.mu.Unlock()
	began := time.Now()
	var (
		c   Client
		err error
	)
	select {
	case c = <-w.ch:
	case <-ctx.Done():
		err = ctx.Err()
	}
	p.mu.Lock()
	// The key may have been dropped while this caller waited (its last
	// session closed): the wait still counts for the share.
	p.countsOf(ks.counts).waitSeconds += time.Since(began).Seconds()
	if err != nil {
		if i := slices.Index(ks.waiters, w); i >= 0 {
			ks.waiters = slices.Delete(ks.waiters, i, i+1)
			p.mu.Unlock()
			return nil, err
		}
		// Granted as the context ended: pass the grant on.
		c = <-w.ch
		if c != nil {
			p.mu.Unlock()
			p.release(key, c, false)
			return nil, err
		}
		ks.open--
		p.grant(ks)
		p.mu.Unlock()
		return nil, err
	}
	if c != nil && reuse {
		p.mu.Unlock()
		return &Lease{Client: c, Reused: true, pool: p, key: key}, nil
	}
	ks.counts.dials++
	p.mu.Unlock()
	if c != nil {
		closeWithin(ctx, c) // GetNew: a fresh session in the place of this one
	}
	return p.dial(ctx, ks, key, src, creds)
}

// closeWithin closes c, the session a caller's new one takes the place of,
// and waits for it no longer than ctx: an NFSv4 session's close says
// goodbye to its server, for up to that client's own bound (a server gone
// silent takes all of it), and the caller must answer by its deadline.
// Within it, the close is waited for, so that its connection is gone
// before the new one is dialled (MaxOpenPerKey bounds connections, not
// only leases); past it, it finishes on its own, and the dial that
// follows fails on the spent ctx.
func closeWithin(ctx context.Context, c Client) {
	done := make(chan struct{})
	go func() {
		defer close(done)
		_ = c.Close()
	}()
	select {
	case <-done:
	case <-ctx.Done():
	}
}

// dial opens a session counted in ks.open already.
func (p *Pool) dial(ctx context.Context, ks *keyState, key string, src source.Source, creds Credentials) (*Lease, error) {
	var c Client
	err := source.TryInOrder(ctx, src, Unreachable, func(ctx context.Context, a source.Source) error {
		var err error
		c, err = p.Dial(ctx, a, creds)
		return err
	})
	p.mu.Lock()
	if err != nil {
		ks.counts.dialFailures++
		ks.open--
		p.grant(ks)
		p.mu.Unlock()
		return nil, err
	}
	if n, ok := c.(interface{ ShareName() string }); ok {
		ks.counts.label.Share = n.ShareName()
	}
	// The server took these credentials: sessions the same user opened
	// with another password are of a Secret that changed. Only a
	// successful logon decides it, so a call with a wrong password does
	// not take working sessions away.
	ks.superseded = false
	closing := p.supersede(key, userKey(src, creds))
	p.mu.Unlock()
	for _, old := range closing {
		_ = old.Close()
	}
	p.lendHelpers(c, src, creds)
	return &Lease{Client: c, pool: p, key: key}, nil
}

var errAllInUse = errors.New("all sessions to this share are in use")

// HelperBorrower is a session that can spread a large RemoveAll over more
// sessions on its own share (NFSv3): the pool hands it the function that
// borrows them, within MaxHelpers. done must be called after the lease is
// released; a nil lease says none is to spare.
type HelperBorrower interface {
	LendHelpers(borrow func(ctx context.Context) (l *Lease, done func()))
}

// lendHelpers lets a session borrow more sessions on its own share from
// this pool for a large RemoveAll.
func (p *Pool) lendHelpers(c Client, src source.Source, creds Credentials) {
	if hb, ok := c.(HelperBorrower); ok {
		hb.LendHelpers(func(ctx context.Context) (*Lease, func()) { return p.borrowHelper(ctx, src, creds) })
	}
}

// borrowHelper is TryGet within MaxHelpers as well. done must be called
// after the lease is released.
func (p *Pool) borrowHelper(ctx context.Context, src source.Source, creds Credentials) (l *Lease, done func()) {
	p.mu.Lock()
	if p.helpersOut >= p.MaxHelpers {
		p.mu.Unlock()
		return nil, nil
	}
	p.helpersOut++
	p.mu.Unlock()
	done = func() {
		p.mu.Lock()
		p.helpersOut--
		p.mu.Unlock()
	}
	if l = p.TryGet(ctx, src, creds); l == nil {
		done()
		return nil, nil
	}
	return l, done
}

// grant lets the first waiters dial while fewer than MaxOpenPerKey
// sessions are open (one closed, or a dial failed); p.mu is held.
func (p *Pool) grant(ks *keyState) {
	for len(ks.waiters) > 0 && (p.MaxOpenPerKey <= 0 || ks.open < p.MaxOpenPerKey) {
		w := ks.waiters[0]
		ks.waiters = ks.waiters[1:]
		ks.open++
		w.ch <- nil
	}
}

// putIdle hands c to the first waiter, or puts it on the idle list; p.mu
// is held.
func (p *Pool) putIdle(ks *keyState, ic idleClient) {
	if len(ks.waiters) > 0 {
		w := ks.waiters[0]
		ks.waiters = ks.waiters[1:]
		w.ch <- ic.c
		return
	}
	ks.idle = append(ks.idle, ic)
}

func (p *Pool) release(key string, c Client, broken bool) {
	p.mu.Lock()
	ks := p.keys[key]
	if broken || p.closed || p.MaxOpenPerKey <= 0 || ks.superseded {
		ks.open--
		p.grant(ks)
		p.mu.Unlock()
		_ = c.Close()
		return
	}
	now := time.Now()
	p.putIdle(ks, idleClient{c: c, since: now, renewed: now})
	p.mu.Unlock()
}

// GetIdle returns an idle session on src authenticated with any credentials,
// or nil. It serves calls that carry no secrets (ControllerGetVolume,
// GetCapacity) for SMB shares that a recent call with secrets reached.
//
// Of the credentials with an idle session, it lends those a call with
// secrets used last. A Secret that names another user now (not another
// password: those sessions are superseded) leaves the old user's sessions
// in the pool; lent to every call without secrets, their idle time would
// start again with each, and the old user, perhaps retired on purpose,
// would answer GetCapacity and run the reclaimer's passes for as long as
// anything polls. Lent no more once a newer identity has a session, they
// close after IdleTimeout.
func (p *Pool) GetIdle(src source.Source) *Lease {
	p.once.Do(p.start)
	prefix := shareKey(src)
	now := time.Now()
	p.mu.Lock()
	defer p.mu.Unlock()
	var best *keyState
	bestKey, at := "", -1
	for key, ks := range p.keys {
		if !strings.HasPrefix(key, prefix) || ks.superseded || best != nil && ks.lastCall < best.lastCall {
			continue
		}
		// The key's newest session that is not retired (a retired one:
		// the janitor closes it).
		for i := len(ks.idle) - 1; i >= 0; i-- {
			if !retired(ks.idle[i].c, now) {
				best, bestKey, at = ks, key, i
				break
			}
		}
	}
	if best == nil {
		return nil
	}
	c := best.idle[at].c
	best.idle = slices.Delete(best.idle, at, at+1)
	return &Lease{Client: c, Reused: true, pool: p, key: bestKey}
}

func (p *Pool) start() {
	p.mu.Lock()
	p.stop = make(chan struct{})
	p.mu.Unlock()
	go p.janitor()
}

func (p *Pool) janitor() {
	t := time.NewTicker(min(p.IdleTimeout/2, renewEvery))
	defer t.Stop()
	for {
		select {
		case <-p.stop:
			return
		case <-t.C:
		}
		now := time.Now()
		p.closeIdle(func(_ string, ic idleClient) bool { return now.Sub(ic.since) > p.IdleTimeout || retired(ic.c, now) })
		p.renewIdle(renewEvery)
	}
}

// renewIdle renews the idle Renewers not renewed for every. Each is taken
// off the idle list while it is renewed (it still counts as open), put back
// when the server answered, and closed when it did not: a caller must not
// be lent a session whose state may be gone.
func (p *Pool) renewIdle(every time.Duration) {
	type due struct {
		key string
		ic  idleClient
	}
	var renewing []due
	p.mu.Lock()
	for key, ks := range p.keys {
		keep := ks.idle[:0]
		for _, ic := range ks.idle {
			if _, ok := ic.c.(Renewer); ok && time.Since(ic.renewed) >= every {
				renewing = append(renewing, due{key, ic})
			} else {
				keep = append(keep, ic)
			}
		}
		ks.idle = keep
	}
	p.mu.Unlock()
	for _, d := range renewing {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		err := d.ic.c.(Renewer).Renew(ctx)
		cancel()
		p.mu.Lock()
		ks := p.keys[d.key]
		if err == nil && ks != nil && !p.closed && !ks.superseded {
			d.ic.renewed = time.Now()
			p.putIdle(ks, d.ic)
			p.mu.Unlock()
			continue
		}
		if ks != nil {
			ks.open--
			p.grant(ks)
			if ks.open == 0 {
				p.dropKey(d.key)
			}
		}
		p.mu.Unlock()
		_ = d.ic.c.Close()
	}
}

// closeIdle closes the idle sessions for which expired says so.
func (p *Pool) closeIdle(expired func(key string, ic idleClient) bool) {
	var closing []Client
	p.mu.Lock()
	for key, ks := range p.keys {
		keep := ks.idle[:0]
		for _, ic := range ks.idle {
			if expired(key, ic) {
				closing = append(closing, ic.c)
				ks.open--
			} else {
				keep = append(keep, ic)
			}
		}
		ks.idle = keep
		p.grant(ks)
		if ks.open == 0 {
			p.dropKey(key)
		}
	}
	p.mu.Unlock()
	for _, c := range closing {
		_ = c.Close()
	}
}

// Close closes every idle session; leased ones close on Release.
func (p *Pool) Close() {
	p.once.Do(p.start)
	p.mu.Lock()
	if p.closed {
		p.mu.Unlock()
		return
	}
	p.closed = true
	close(p.stop)
	p.mu.Unlock()
	p.closeIdle(func(string, idleClient) bool { return true })
}
