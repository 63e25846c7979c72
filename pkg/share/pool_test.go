package share

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/fileshare-csi/fileshare-csi/pkg/source"
)

// countingClient is a Client that only counts: these tests are about the
// pool's own bookkeeping; the real clients are tested against real servers.
type countingClient struct {
	Client
	closed *atomic.Int32
}

func (c countingClient) Close() error { c.closed.Add(1); return nil }

func newTestPool(maxOpen int) (*Pool, *atomic.Int32, *atomic.Int32) {
	var dialed, closed atomic.Int32
	p := &Pool{MaxOpenPerKey: maxOpen, IdleTimeout: time.Hour, Dial: func(context.Context, source.Source, Credentials) (Client, error) {
		dialed.Add(1)
		return countingClient{closed: &closed}, nil
	}}
	return p, &dialed, &closed
}

var testSrc = source.Source{Protocol: source.NFS, Host: "h", Export: "/e"}

func TestPoolBoundsOpenSessionsAndReusesThem(t *testing.T) {
	p, dialed, closed := newTestPool(4)
	defer p.Close()
	var wg sync.WaitGroup
	var inUse, maxInUse atomic.Int32
	for range 64 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			l, err := p.Get(context.Background(), testSrc, Credentials{})
			if err != nil {
				t.Error(err)
				return
			}
			n := inUse.Add(1)
			for m := maxInUse.Load(); n > m && !maxInUse.CompareAndSwap(m, n); m = maxInUse.Load() {
			}
			time.Sleep(time.Millisecond)
			inUse.Add(-1)
			l.Release(nil)
		}()
	}
	wg.Wait()
	if maxInUse.Load() > 4 || dialed.Load() > 4 {
		t.Fatalf("%d sessions in use at once and %d dialed, want at most 4", maxInUse.Load(), dialed.Load())
	}
	if closed.Load() != 0 {
		t.Fatalf("%d healthy sessions were closed instead of reused", closed.Load())
	}
}

func TestPoolClosesBrokenSessionsAndKeepsAnswers(t *testing.T) {
	p, dialed, closed := newTestPool(2)
	defer p.Close()
	l, _ := p.Get(context.Background(), testSrc, Credentials{})
	l.Release(fs.ErrNotExist) // the server's answer: the session is fine
	l, _ = p.Get(context.Background(), testSrc, Credentials{})
	if !l.Reused || dialed.Load() != 1 {
		t.Fatalf("session not reused after an answer: reused=%v dialed=%d", l.Reused, dialed.Load())
	}
	l.Release(fmt.Errorf("read: connection reset: %w", ErrUnavailable))
	if closed.Load() != 1 {
		t.Fatalf("broken session not closed")
	}
	l, _ = p.Get(context.Background(), testSrc, Credentials{})
	if l.Reused || dialed.Load() != 2 {
		t.Fatalf("a broken session was handed out again")
	}
	l.Release(nil)
}

// A file server that restarts ends every session to it. The first call
// after it finds its session dead, and is retried on a new one; but the
// other idle sessions were lent next, each failing its call, and a copy
// (a clone after a server restart) has no retry. A session that lost its
// connection takes its share's idle sessions with it, whatever their
// credentials; one cut by its call's deadline takes none, nor does it
// touch another share's.
func TestPoolDropsAShareIdleSessionsWhenOneLosesItsConnection(t *testing.T) {
	p, dialed, closed := newTestPool(4)
	defer p.Close()
	other := source.Source{Protocol: source.NFS, Host: "h2", Export: "/e"}
	ctx := context.Background()
	var leases []*Lease
	for _, c := range []struct {
		src   source.Source
		creds Credentials
	}{{testSrc, Credentials{}}, {testSrc, Credentials{}}, {testSrc, Credentials{}}, {testSrc, Credentials{Username: "u", Password: "p"}}, {other, Credentials{}}} {
		l, err := p.Get(ctx, c.src, c.creds)
		if err != nil {
			t.Fatal(err)
		}
		leases = append(leases, l)
	}
	for _, l := range leases[1:] {
		l.Release(nil)
	}
	leases[0].Release(fmt.Errorf("stat d: %w", errors.Join(ErrUnavailable, context.DeadlineExceeded)))
	if closed.Load() != 1 {
		t.Fatalf("a call cut by its deadline closed %d sessions, want its own", closed.Load())
	}
	l, _ := p.Get(ctx, testSrc, Credentials{})
	l.Release(fmt.Errorf("stat d: connection error: EOF: %w", ErrUnavailable))
	// The idle ones are closed apart from the Release.
	for end := time.Now().Add(5 * time.Second); closed.Load() < 1+3 && time.Now().Before(end); {
		time.Sleep(time.Millisecond)
	}
	if closed.Load() != 1+3 {
		t.Fatalf("%d sessions closed, want 4: the one cut, the one that lost its connection and the share's two idle ones", closed.Load())
	}
	before := dialed.Load()
	if l, _ = p.Get(ctx, testSrc, Credentials{}); l.Reused || dialed.Load() != before+1 {
		t.Fatalf("a session of the restarted server was lent again")
	}
	l.Release(nil)
	if l, _ = p.Get(ctx, other, Credentials{}); !l.Reused {
		t.Fatalf("another share's idle session was closed")
	}
	l.Release(nil)
}

func TestPoolWaitEndsWithContext(t *testing.T) {
	p, _, _ := newTestPool(1)
	defer p.Close()
	held, _ := p.Get(context.Background(), testSrc, Credentials{})
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	if _, err := p.Get(ctx, testSrc, Credentials{}); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("waiting for a full key: %v, want DeadlineExceeded", err)
	}
	got := make(chan *Lease)
	go func() {
		l, _ := p.Get(context.Background(), testSrc, Credentials{})
		got <- l
	}()
	held.Release(nil)
	select {
	case l := <-got:
		l.Release(nil)
	case <-time.After(5 * time.Second):
		t.Fatal("a waiter was not woken by a release")
	}
}

func TestPoolKeysSeparateCredentialsAndFindIdleByShare(t *testing.T) {
	p, dialed, _ := newTestPool(4)
	defer p.Close()
	a, _ := p.Get(context.Background(), testSrc, Credentials{Username: "a", Password: "1"})
	b, _ := p.Get(context.Background(), testSrc, Credentials{Username: "b", Password: "2"})
	if dialed.Load() != 2 {
		t.Fatalf("two users shared a session")
	}
	if poolKey(testSrc, Credentials{Password: "secret"}) == "" || len(poolKey(testSrc, Credentials{Password: "secret"})) != 98 || strings.Contains(poolKey(testSrc, Credentials{Password: "secret"}), "secret") {
		t.Fatalf("unexpected key shape")
	}
	a.Release(nil)
	b.Release(nil)
	if l := p.GetIdle(testSrc); l == nil {
		t.Fatal("no idle session found for the share")
	} else {
		l.Release(nil)
	}
	if l := p.GetIdle(source.Source{Protocol: source.NFS, Host: "other", Export: "/e"}); l != nil {
		t.Fatal("an idle session of another share was handed out")
	}
}

func TestPoolZeroMeansSessionPerCall(t *testing.T) {
	p, dialed, closed := newTestPool(0)
	defer p.Close()
	for range 3 {
		l, _ := p.Get(context.Background(), testSrc, Credentials{})
		l.Release(nil)
	}
	if dialed.Load() != 3 || closed.Load() != 3 {
		t.Fatalf("dialed %d closed %d, want 3 and 3", dialed.Load(), closed.Load())
	}
}

func TestTryGetNeverWaitsAndStaysWithinTheBound(t *testing.T) {
	p, dialed, _ := newTestPool(3)
	defer p.Close()
	ctx := context.Background()
	held, err := p.Get(ctx, testSrc, Credentials{})
	if err != nil {
		t.Fatal(err)
	}
	a, b := p.TryGet(ctx, testSrc, Credentials{}), p.TryGet(ctx, testSrc, Credentials{})
	if a == nil || b == nil {
		t.Fatal("TryGet returned nil while under the bound")
	}
	// At the bound: nil at once, not a wait (the context never ends).
	if l := p.TryGet(ctx, testSrc, Credentials{}); l != nil {
		t.Fatal("TryGet dialed a fourth session with MaxOpenPerKey 3")
	}
	a.Release(nil)
	if l := p.TryGet(ctx, testSrc, Credentials{}); l == nil || !l.Reused {
		t.Fatalf("TryGet did not reuse the idle session: %+v", l)
	}
	if dialed.Load() != 3 {
		t.Fatalf("%d sessions dialed, want 3", dialed.Load())
	}
	b.Release(nil)
	held.Release(nil)
}

func TestTryGetAddsNothingToAnUnboundedPool(t *testing.T) {
	p, dialed, _ := newTestPool(0)
	defer p.Close()
	if l := p.TryGet(context.Background(), testSrc, Credentials{}); l != nil || dialed.Load() != 0 {
		t.Fatal("TryGet dialed in a pool without a bound")
	}
}

func TestHelpersAreBoundedAcrossShares(t *testing.T) {
	p, _, _ := newTestPool(16)
	p.MaxHelpers = 2
	defer p.Close()
	ctx := context.Background()
	other := testSrc
	other.Export = "/other"
	a, doneA := p.borrowHelper(ctx, testSrc, Credentials{})
	b, doneB := p.borrowHelper(ctx, other, Credentials{})
	if a == nil || b == nil {
		t.Fatal("no helper while under MaxHelpers")
	}
	if l, _ := p.borrowHelper(ctx, testSrc, Credentials{}); l != nil {
		t.Fatal("a third helper with MaxHelpers 2")
	}
	a.Release(nil)
	doneA()
	c, doneC := p.borrowHelper(ctx, other, Credentials{})
	if c == nil {
		t.Fatal("no helper after one was given back")
	}
	c.Release(nil)
	doneC()
	b.Release(nil)
	doneB()
}

// A Secret whose password changed: the sessions the old password opened
// are closed, never lent again, not even to calls without secrets.
func TestPoolNeverReusesSessionsOfAReplacedPassword(t *testing.T) {
	p, dialed, closed := newTestPool(4)
	defer p.Close()
	ctx := context.Background()
	smb := source.Source{Protocol: source.SMB, Host: "h", Share: "s"}
	old, fresh := Credentials{Username: "u", Password: "old"}, Credentials{Username: "u", Password: "new"}
	idle, _ := p.Get(ctx, smb, old)
	leased, _ := p.Get(ctx, smb, old)
	idle.Release(nil)
	other, _ := p.Get(ctx, smb, Credentials{Username: "someone-else", Password: "x"})
	other.Release(nil)

	l, err := p.Get(ctx, smb, fresh)
	if err != nil {
		t.Fatal(err)
	}
	if l.Reused || dialed.Load() != 4 {
		t.Fatalf("the new password got an old session (reused %v, dialed %d)", l.Reused, dialed.Load())
	}
	if closed.Load() != 1 {
		t.Fatalf("closed %d sessions, want the old password's idle one", closed.Load())
	}
	l.Release(nil)
	leased.Release(nil)
	if closed.Load() != 2 {
		t.Fatalf("an old-password session in use was kept on release (closed %d)", closed.Load())
	}
	// Idle now: the new password's session and the other user's.
	for range 2 {
		got := p.GetIdle(smb)
		if got == nil || got.key == poolKey(smb, old) {
			t.Fatalf("GetIdle lent %v, want a session that is not of the replaced password", got)
		}
		defer got.Release(nil)
	}
	if got := p.GetIdle(smb); got != nil {
		t.Fatal("GetIdle lent a session of the replaced password")
	}
	if dialed.Load() != 4 || closed.Load() != 2 {
		t.Fatalf("dialed %d, closed %d: another user's session was touched", dialed.Load(), closed.Load())
	}
}

// A call whose password the server refuses proves nothing about the
// Secret: the sessions that work stay.
func TestPoolKeepsSessionsWhenANewPasswordIsRefused(t *testing.T) {
	p, dialed, closed := newTestPool(4)
	defer p.Close()
	logon := p.Dial
	p.Dial = func(ctx context.Context, src source.Source, c Credentials) (Client, error) {
		if c.Password == "wrong" {
			return nil, fmt.Errorf("logon failure: %w", fs.ErrPermission)
		}
		return logon(ctx, src, c)
	}
	ctx := context.Background()
	smb := source.Source{Protocol: source.SMB, Host: "h", Share: "s"}
	good, _ := p.Get(ctx, smb, Credentials{Username: "u", Password: "right"})
	good.Release(nil)
	if _, err := p.Get(ctx, smb, Credentials{Username: "u", Password: "wrong"}); err == nil {
		t.Fatal("the refused password got a session")
	}
	again, err := p.Get(ctx, smb, Credentials{Username: "u", Password: "right"})
	if err != nil || !again.Reused || closed.Load() != 0 || dialed.Load() != 1 {
		t.Fatalf("after a refused password: reused %v, closed %d, dialed %d, %v", again != nil && again.Reused, closed.Load(), dialed.Load(), err)
	}
	again.Release(nil)
}

// A session dialed for one NFS version is never lent to a source pinned to
// another; an unpinned source is served by NFSv3 sessions.
func TestPoolKeepsNFSVersionsApart(t *testing.T) {
	var dialedFor []string
	p := &Pool{MaxOpenPerKey: 4, IdleTimeout: time.Hour, Dial: func(_ context.Context, src source.Source, _ Credentials) (Client, error) {
		dialedFor = append(dialedFor, src.EffectiveVersion())
		return countingClient{closed: new(atomic.Int32)}, nil
	}}
	defer p.Close()
	v41 := testSrc
	v41.Version = source.NFSv41
	v3 := testSrc
	v3.Version = source.NFSv3
	for _, src := range []source.Source{testSrc, v41, v3, v41} {
		l, err := p.Get(context.Background(), src, Credentials{})
		if err != nil {
			t.Fatal(err)
		}
		l.Release(nil)
	}
	if fmt.Sprint(dialedFor) != "[3 4.1]" {
		t.Fatalf("dialed for versions %v, want [3 4.1]: one session per version, reused within it", dialedFor)
	}
}

// renewingClient counts renewals and fails them once told to.
type renewingClient struct {
	countingClient
	renewals *atomic.Int32
	fail     *atomic.Bool
	id       int32 // tells sessions apart
}

func (c renewingClient) Renew(context.Context) error {
	c.renewals.Add(1)
	if c.fail.Load() {
		return errors.New("lease expired")
	}
	return nil
}

// Idle sessions with a lease are renewed and lent again; one whose renewal
// fails is closed and never lent; sessions without a lease are left alone.
func TestPoolRenewsIdleLeases(t *testing.T) {
	var closed, renewals, dialed atomic.Int32
	var fail atomic.Bool
	p := &Pool{MaxOpenPerKey: 4, IdleTimeout: time.Hour, Dial: func(context.Context, source.Source, Credentials) (Client, error) {
		return renewingClient{countingClient{closed: &closed}, &renewals, &fail, dialed.Add(1)}, nil
	}}
	defer p.Close()
	ctx := context.Background()
	l, err := p.Get(ctx, testSrc, Credentials{})
	if err != nil {
		t.Fatal(err)
	}
	first := l.Client
	l.Release(nil)
	p.renewIdle(0)
	if renewals.Load() != 1 || closed.Load() != 0 {
		t.Fatalf("after one renewal pass: %d renewals, %d closed; want 1, 0", renewals.Load(), closed.Load())
	}
	p.renewIdle(time.Hour)
	if renewals.Load() != 1 {
		t.Fatalf("a session renewed just now was renewed again")
	}
	l, err = p.Get(ctx, testSrc, Credentials{})
	if err != nil || l.Client != first || !l.Reused {
		t.Fatalf("the renewed session was not lent again: %v", err)
	}
	l.Release(nil)

	fail.Store(true)
	p.renewIdle(0)
	if closed.Load() != 1 {
		t.Fatalf("a session whose renewal failed was not closed (%d closed)", closed.Load())
	}
	fail.Store(false)
	l, err = p.Get(ctx, testSrc, Credentials{})
	if err != nil || l.Client == first || l.Reused {
		t.Fatalf("the pool lent the session whose renewal failed (reused %v, err %v)", l.Reused, err)
	}
	l.Release(nil)
	if st := p.Stats(); len(st) != 1 || st[0].Open != 1 {
		t.Fatalf("open sessions after a failed renewal: %+v, want 1", st)
	}

	// Sessions without a lease are not renewed.
	plain, _, _ := newTestPool(2)
	defer plain.Close()
	l, _ = plain.Get(ctx, testSrc, Credentials{})
	l.Release(nil)
	plain.renewIdle(0)
	if l, _ := plain.Get(ctx, testSrc, Credentials{}); l == nil || !l.Reused {
		t.Fatal("a session without a lease left the idle list")
	}
}

// queued waits until n callers wait for a session of testSrc.
func queued(t *testing.T, p *Pool, n int) {
	t.Helper()
	for range 500 {
		p.mu.Lock()
		got := 0
		for _, ks := range p.keys {
			got += len(ks.waiters)
		}
		p.mu.Unlock()
		if got == n {
			return
		}
		time.Sleep(time.Millisecond)
	}
	t.Fatalf("%d callers never queued", n)
}

// A run of callers taking sessions back to back (copies, one after the
// other) used to take each released session before the caller that had
// waited for it woke up: a CreateVolume beside them waited until its
// deadline. A released session now goes to the longest waiter.
func TestPoolServesWaitersFirstComeFirstServed(t *testing.T) {
	p, _, _ := newTestPool(1)
	defer p.Close()
	held, _ := p.Get(context.Background(), testSrc, Credentials{})
	order := make(chan int, 3)
	proceed := make(chan struct{})
	for i := range 3 {
		go func() {
			l, err := p.Get(context.Background(), testSrc, Credentials{})
			if err != nil {
				t.Error(err)
				return
			}
			order <- i
			<-proceed
			l.Release(nil)
		}()
		queued(t, p, i+1)
	}
	held.Release(nil)
	// A caller arriving now finds the session taken by the queue: neither
	// TryGet nor Get jumps it.
	if l := p.TryGet(context.Background(), testSrc, Credentials{}); l != nil {
		l.Release(nil)
		t.Fatal("TryGet took a released session from under the callers waiting for it")
	}
	for want := range 3 {
		if got := <-order; got != want {
			t.Fatalf("waiter %d was served as number %d", got, want)
		}
		proceed <- struct{}{}
	}
}

// A waiter whose context ends just as it is granted a session passes the
// session on to the next waiter rather than leaking it (the pool would
// count it open for ever and wait at its bound).
func TestPoolPassesAGrantOnWhenItsWaiterGivesUp(t *testing.T) {
	for _, broken := range []bool{false, true} {
		p, _, _ := newTestPool(1)
		held, _ := p.Get(context.Background(), testSrc, Credentials{})
		ctx, cancel := context.WithCancel(context.Background())
		first := make(chan error, 1)
		go func() {
			l, err := p.Get(ctx, testSrc, Credentials{})
			if err == nil {
				l.Release(nil) // served before its context ended
			}
			first <- err
		}()
		queued(t, p, 1)
		second := make(chan *Lease, 1)
		go func() {
			l, _ := p.Get(context.Background(), testSrc, Credentials{})
			second <- l
		}()
		queued(t, p, 2)
		// The grant and the cancel race; either way the second waiter is
		// served and nothing stays counted.
		if broken {
			held.Release(ErrUnavailable)
		} else {
			held.Release(nil)
		}
		cancel()
		<-first
		select {
		case l := <-second:
			l.Release(nil)
		case <-time.After(5 * time.Second):
			t.Fatalf("broken=%v: the grant of a waiter that gave up was lost", broken)
		}
		if st := p.Stats(); len(st) != 1 || st[0].InUse != 0 {
			t.Fatalf("broken=%v: sessions still counted in use: %+v", broken, st)
		}
		p.Close()
	}
}

// A source an alias gave several addresses is dialed at the first that can
// be reached; a server that answers "no" is not asked again elsewhere. The
// session is the first address's, whichever answered.
func TestPoolDialsTheAddressesOfAnAliasInOrder(t *testing.T) {
	aliases, err := source.ParseAliases("nfs://old/e -> nfs://a/e, nfs://b/e, nfs://c/e")
	if err != nil {
		t.Fatal(err)
	}
	src, _, _ := aliases.Resolve(source.Source{Protocol: source.NFS, Host: "old", Export: "/e/v"})
	var dialed []string
	answer := map[string]error{"a": fmt.Errorf("connect: %w", ErrUnavailable)}
	p := &Pool{MaxOpenPerKey: 4, IdleTimeout: time.Hour, Dial: func(_ context.Context, src source.Source, _ Credentials) (Client, error) {
		dialed = append(dialed, src.Host)
		if err := answer[src.Host]; err != nil {
			return nil, err
		}
		return countingClient{closed: new(atomic.Int32)}, nil
	}}
	defer p.Close()
	l, err := p.Get(context.Background(), src, Credentials{})
	if err != nil || strings.Join(dialed, ",") != "a,b" {
		t.Fatalf("dialed %v: %v, want a then b", dialed, err)
	}
	l.Release(nil)
	if st := p.Stats(); len(st) != 1 || st[0].Server != "a" {
		t.Fatalf("stats %+v, want the session under its first address", st)
	}
	answer["b"] = fmt.Errorf("login: %w", fs.ErrPermission)
	dialed = nil
	if _, err := p.GetNew(context.Background(), src, Credentials{}); !errors.Is(err, fs.ErrPermission) || strings.Join(dialed, ",") != "a,b" {
		t.Fatalf("dialed %v: %v, want a refusal from b and no try of c", dialed, err)
	}
}

// A server in its grace period after a restart, or recalling a file from
// offline storage, answers "try again later" (NFSv3 JUKEBOX, NFSv4 DELAY or
// GRACE). The call is retried as after a lost connection, but the session
// answered in step: closing it, and the share's idle sessions with it, would
// send the server a new session for every call it asks to wait. A session
// whose transport broke as well is still closed, as is one cut by its
// deadline while it waited.
func TestPoolKeepsSessionsTheServerAsksToWait(t *testing.T) {
	p, dialed, closed := newTestPool(4)
	defer p.Close()
	ctx := context.Background()
	a, _ := p.Get(ctx, testSrc, Credentials{})
	b, _ := p.Get(ctx, testSrc, Credentials{})
	b.Release(nil)
	later := fmt.Errorf("mkdir d: NFS status 10008 (JUKEBOX): %w", ErrTryLater)
	if !errors.Is(later, ErrUnavailable) || !BreaksSession(later) {
		t.Fatalf("a try-again-later must still be retried and count as cut short")
	}
	a.Release(later)
	time.Sleep(10 * time.Millisecond) // what would close the idle ones runs apart
	if closed.Load() != 0 {
		t.Fatalf("%d sessions closed after the server asked to try later, want none", closed.Load())
	}
	for range 2 {
		l, _ := p.Get(ctx, testSrc, Credentials{})
		if !l.Reused {
			t.Fatalf("a session the server asked to wait was not lent again")
		}
		defer l.Release(nil)
	}
	if dialed.Load() != 2 {
		t.Fatalf("%d dials, want the first 2 only", dialed.Load())
	}

	c, _ := p.Get(ctx, testSrc, Credentials{})
	c.Release(fmt.Errorf("stat d: %w", errors.Join(ErrTryLater, context.DeadlineExceeded)))
	if closed.Load() != 1 {
		t.Fatalf("a session cut by its deadline was kept (closed %d)", closed.Load())
	}
	p.Dial = func(context.Context, source.Source, Credentials) (Client, error) {
		dialed.Add(1)
		return brokenClient{countingClient{closed: closed}}, nil
	}
	d, _ := p.Get(ctx, testSrc, Credentials{})
	d.Release(later)
	if closed.Load() != 2 {
		t.Fatalf("a session whose transport broke was kept because its last error was a try-again-later (closed %d)", closed.Load())
	}
}

// A Secret that names another user now (alice's account retired, bob's
// in the Secret) leaves alice's sessions in the pool: not superseded, as a
// new password's are, since two classes may use two users on one share.
// GetIdle lent any idle session, so calls without secrets (GetCapacity,
// the reclaimer) went on borrowing alice's, each borrow starting its idle
// time again, for as long as anything polled. It lends those of the
// credentials a call with secrets used last, and alice's close once idle.
func TestGetIdleLendsTheNewestIdentitysSession(t *testing.T) {
	p, _, _ := newTestPool(4)
	defer p.Close()
	ctx := context.Background()
	smb := source.Source{Protocol: source.SMB, Host: "h", Share: "s"}
	alice, bob := Credentials{Username: "alice", Password: "a"}, Credentials{Username: "bob", Password: "b"}
	for _, creds := range []Credentials{alice, bob} {
		l, err := p.Get(ctx, smb, creds)
		if err != nil {
			t.Fatal(err)
		}
		l.Release(nil)
	}
	for range 20 { // map order is random: never alice's
		got := p.GetIdle(smb)
		if got == nil || got.key != poolKey(smb, bob) {
			t.Fatalf("GetIdle lent %v, want bob's session, the newest identity's", got)
		}
		got.Release(nil)
	}
	// A call with alice's Secret again (another class of hers): hers.
	l, err := p.Get(ctx, smb, alice)
	if err != nil {
		t.Fatal(err)
	}
	l.Release(nil)
	if got := p.GetIdle(smb); got == nil || got.key != poolKey(smb, alice) {
		t.Fatalf("GetIdle lent %v, want alice's, whose call came last", got)
	} else {
		got.Release(nil)
	}
}

// slowCloseClient is a session whose close waits for its server, as an
// NFSv4 session's DESTROY_SESSION does (bounded by its closeTimeout, not
// by any caller's context).
type slowCloseClient struct {
	Client
	release chan struct{}
}

func (c slowCloseClient) Close() error { <-c.release; return nil }

// GetNew, the retry of a call whose reused session was dead, makes room
// for its fresh session by closing an idle one, or the one a waiter was
// handed. That close waits for the server; it ran on the caller's time
// whatever its deadline, so the call answered after its deadline by as
// long as the close took. It now waits for the close while its deadline
// lasts, and answers by it.
func TestGetNewNeverWaitsForAnIdleSessionsClosePastItsDeadline(t *testing.T) {
	release := make(chan struct{})
	defer close(release)
	p := &Pool{MaxOpenPerKey: 1, IdleTimeout: time.Hour, Dial: func(ctx context.Context, _ source.Source, _ Credentials) (Client, error) {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		return slowCloseClient{release: release}, nil
	}}
	defer func() { go p.Close() }()
	idle, err := p.Get(context.Background(), testSrc, Credentials{})
	if err != nil {
		t.Fatal(err)
	}
	idle.Release(nil)
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	done := make(chan error, 1)
	go func() {
		l, err := p.GetNew(ctx, testSrc, Credentials{})
		if err == nil {
			l.Release(nil)
		}
		done <- err
	}()
	select {
	case err := <-done:
		if !errors.Is(err, context.DeadlineExceeded) {
			t.Fatalf("GetNew past its deadline: %v, want DeadlineExceeded", err)
		}
	case <-time.After(2 * time.Second):
		t.Fatal("GetNew with a deadline of 100 ms still waits after 2 s for the close of the idle session it replaces")
	}
}

// closedFirst is a session that says when it was closed.
type closedFirst struct {
	Client
	closed *atomic.Bool
}

func (c closedFirst) Close() error { c.closed.Store(true); return nil }

// Within its deadline GetNew waits for the close of the session it
// replaces before it dials: the connections to a share stay within
// MaxOpenPerKey, not only its leases.
func TestGetNewClosesTheSessionItReplacesBeforeItDials(t *testing.T) {
	var closed atomic.Bool
	dials := 0
	p := &Pool{MaxOpenPerKey: 1, IdleTimeout: time.Hour, Dial: func(context.Context, source.Source, Credentials) (Client, error) {
		dials++
		if dials == 2 && !closed.Load() {
			t.Error("dialled the new session while the one it replaces was still open")
		}
		return closedFirst{closed: &closed}, nil
	}}
	defer p.Close()
	idle, err := p.Get(context.Background(), testSrc, Credentials{})
	if err != nil {
		t.Fatal(err)
	}
	idle.Release(nil)
	l, err := p.GetNew(context.Background(), testSrc, Credentials{})
	if err != nil {
		t.Fatal(err)
	}
	l.Release(nil)
	if dials != 2 {
		t.Fatalf("%d dials, want 2", dials)
	}
}
