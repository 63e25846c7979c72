package driver

import (
	"cmp"
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"k8s.io/klog/v2"

	"github.com/fileshare-csi/fileshare-csi/pkg/share"
	"github.com/fileshare-csi/fileshare-csi/pkg/state"
)

// The copy fence. A copy that fills a volume or a snapshot beats on the
// share it writes to (state.Beat), naming this process, so that:
//   - no reclaimer, of this process or any other, takes it for abandoned
//     (state's Reclaimer);
//   - no other process starts the same copy beside it: a controller that
//     finds another process's beat waits, answering "in progress", until
//     that beat stays the same for state.TakeoverAfter (its process died,
//     or lost the share), and only then copies itself; a beat an earlier
//     container of its own pod left is taken over at once (restartOf);
//   - a copy stops at its next beat once another process took it over, or
//     once the volume or snapshot is no longer its to fill (filled or
//     deleted elsewhere): a late copy of a demoted leader never writes
//     into a volume the new leader filled and a pod now uses for longer
//     than a beat.
// Two processes that start at the same moment both copy until the next
// beat, when the one whose beat was overwritten stops.

// errCopiedElsewhere says the copy runs in another process, which beats
// for it on the share.
var errCopiedElsewhere = fmt.Errorf("%w: another controller process copies it now (it beats on the share), and a retry takes the copy over once it stops", errInProgress)

// errTakenOver stops a copy whose beat another process overwrote.
var errTakenOver = fmt.Errorf("%w: another controller process took the copy over", errInProgress)

// errNoLongerWanted stops a copy whose volume was filled, or whose snapshot
// was made ready, or either deleted, by another process meanwhile: the
// call again answers from what the share says.
var errNoLongerWanted = fmt.Errorf("%w: the copy was finished or its destination deleted meanwhile, by another controller process", errInProgress)

// instanceID names this process in its beats: after its pod's UID, when
// it knows it.
func instanceID(pod string) string {
	b := make([]byte, 8)
	_, _ = rand.Read(b)
	if pod == "" {
		return hex.EncodeToString(b)
	}
	return pod + "/" + hex.EncodeToString(b)
}

// podUID says whether s may be a pod's UID, or is empty: the first word
// of this process's beats' owner.
func podUID(s string) bool { return s == "" || state.IsUID(s) }

// restartOf says whether owner, a beat's, was an earlier container of this
// process's pod, which has exited: the kubelet starts a container again
// only once the one before it has.
func (d *controller) restartOf(owner string) bool {
	pod, _, ok := strings.Cut(owner, "/")
	return ok && d.cfg.PodUID != "" && pod == d.cfg.PodUID && owner != d.instance
}

// foreignBeats is what this process saw of other processes' beats: when it
// first saw each one as it is now.
type foreignBeats struct {
	mu   sync.Mutex
	seen map[string]foreignBeat // UID -> the beat
}

type foreignBeat struct {
	raw   string
	first time.Time
}

// stale says whether b, another process's beat of uid, has stayed the
// same for after (state.TakeoverAfter) of this process's looks.
func (f *foreignBeats) stale(uid string, b state.Beat, after time.Duration) bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.seen == nil {
		f.seen = map[string]foreignBeat{}
	}
	now := time.Now()
	for k, v := range f.seen {
		if now.Sub(v.first) > state.IntentTTL {
			delete(f.seen, k) // a look that was never repeated
		}
	}
	was, ok := f.seen[uid]
	if !ok || was.raw != b.Raw {
		f.seen[uid] = foreignBeat{raw: b.Raw, first: now}
		return false
	}
	return now.Sub(was.first) >= after
}

// beatTimes are the copy fence's intervals: state's, but for tests.
type beatTimes struct {
	every, takeover time.Duration
}

func (b beatTimes) interval() time.Duration { return cmp.Or(b.every, state.BeatInterval) }
func (b beatTimes) takeoverAfter() time.Duration {
	return cmp.Or(b.takeover, state.TakeoverAfter)
}

// fence is one copy's beating (see the top of this file).
type fence struct {
	d      *controller
	to     copyEnd
	logger klog.Logger
	me     string

	mu      sync.Mutex // one beat at a time
	last    time.Time  // the last beat that got through
	verdict error      // why the fence stopped the copy; nil while it has not
}

// beat checks that the copy is still this process's to make, and beats,
// through st. A verdict (taken over, no longer wanted) is kept and
// returned; any other error is the share's, and the copy goes on.
func (f *fence) beat(ctx context.Context, st *state.Store) error {
	b, err := st.ReadBeat(ctx, f.to.beat)
	if err != nil {
		return err
	}
	if b.Owner != "" && b.Owner != f.me {
		return f.stop(errTakenOver)
	}
	return f.claim(ctx, st)
}

// claim beats as the copy's owner, whoever's the beat there is (the first
// beat, which has looked at it already), unless the copy is no longer
// wanted.
func (f *fence) claim(ctx context.Context, st *state.Store) error {
	if f.to.still != nil {
		if err := f.to.still(ctx, st); err != nil {
			return f.stop(err)
		}
	}
	if err := st.Beat(ctx, f.to.beat, f.me); err != nil {
		return err
	}
	f.last = time.Now()
	return nil
}

// confirm says, just before the copy's commit, whether the copy is still
// this process's (its beat is) and still wanted; nil without a fence.
// Only the share's answer stops the commit: the error of a look that did
// not get through fails it too, and the next call commits.
func (f *fence) confirm(ctx context.Context, st *state.Store) error {
	if f == nil {
		return nil
	}
	b, err := st.ReadBeat(ctx, f.to.beat)
	switch {
	case err != nil:
		return fmt.Errorf("ask the share whether the copy is still this process's, before its commit: %w", err)
	case b.Owner != f.me:
		// Another process's beat, or none: its commit, or its delete,
		// removed this one's.
		return errTakenOver
	case f.to.still != nil:
		return f.to.still(ctx, st)
	}
	return nil
}

func (f *fence) stop(why error) error {
	if f.verdict == nil {
		f.verdict = why
	}
	return f.verdict
}

// due takes the beat when one is due and no other is under way.
func (f *fence) due() bool {
	if !f.mu.TryLock() {
		return false
	}
	if f.verdict == nil && time.Since(f.last) >= f.d.beatTimes.interval() {
		return true
	}
	f.mu.Unlock()
	return false
}

// beatIfDue beats through via when a beat is due and no other is under
// way, and returns the fence's verdict. A beat that did not get through
// is logged: the next may.
func (f *fence) beatIfDue(via func(beat func(context.Context, *state.Store) error) error) error {
	if !f.due() {
		f.mu.Lock()
		defer f.mu.Unlock()
		return f.verdict
	}
	err := via(f.beat)
	verdict := f.verdict
	f.mu.Unlock()
	if err != nil && verdict == nil {
		f.logger.V(2).Info("a beat of the copy did not get through; the next may", "uid", f.to.beat, "err", err.Error())
	}
	return verdict
}

// between is the copy's copytree.Options.Between: a worker beats through
// its own destination session when a beat is due, so a copy that holds
// every session of its share (below four sessions per share it may) still
// beats. It returns the fence's verdict, which stops the copy.
func (f *fence) between(ctx context.Context, dst share.TreeClient) error {
	return f.beatIfDue(func(beat func(context.Context, *state.Store) error) error {
		return beat(ctx, storeOf(ctx, dst))
	})
}

// betweenFunc is between for copytree.Options, nil without a fence.
func (f *fence) betweenFunc() func(context.Context, share.TreeClient) error {
	if f == nil {
		return nil
	}
	return f.between
}

// beating starts the fence for a copy into to (nothing when to.beat is
// empty). The first beat, through a session of the pool as any call's,
// refuses the copy with errCopiedElsewhere when another process's copy
// beats there, and with Unavailable when the share does not answer: a
// copy is never started unfenced. The copy then beats through its own
// workers' sessions between files (between, for copytree.Options.Between),
// and through a spare session of the pool every interval while its
// workers are each in one long file; it stops on the fence's verdict.
// halt ends the beats and returns the verdict (nil when the fence did not
// stop the copy); end removes this process's beat, once the copy has given
// its sessions back.
func (d *controller) beating(ctx context.Context, to copyEnd, creds share.Credentials, logger klog.Logger) (_ context.Context, f *fence, halt func() error, end func(), _ error) {
	if to.beat == "" {
		return ctx, nil, func() error { return nil }, func() {}, nil
	}
	f = &fence{d: d, to: to, logger: logger, me: d.instance}
	look := func(ctx context.Context, timeout time.Duration, wait bool, fn func(context.Context, *state.Store) error) error {
		ctx, cancel := context.WithTimeout(ctx, timeout)
		defer cancel()
		if wait || d.cfg.Pool.MaxOpenPerKey <= 0 {
			return d.withShare(ctx, to.root, creds, func(c share.Client) error { return fn(ctx, storeOf(ctx, c)) })
		}
		l := d.cfg.Pool.TryGet(ctx, to.root, creds)
		if l == nil {
			return nil // none to spare: the workers beat between their files
		}
		err := fn(ctx, storeOf(ctx, l.Client))
		l.Release(err)
		return err
	}
	err := look(ctx, beatTimeout, true, func(ctx context.Context, st *state.Store) error {
		b, err := st.ReadBeat(ctx, to.beat)
		if err != nil {
			return err
		}
		switch {
		case b.Owner == "" || b.Owner == f.me:
		case d.restartOf(b.Owner):
			logger.Info("taking over the copy an earlier container of this pod left", "uid", to.beat, "owner", b.Owner)
		case d.foreign.stale(to.beat, b, d.beatTimes.takeoverAfter()):
			logger.Info("taking over a copy whose beat stayed the same", "uid", to.beat, "owner", b.Owner, "for", d.beatTimes.takeoverAfter().String())
		default:
			return errCopiedElsewhere
		}
		f.mu.Lock()
		defer f.mu.Unlock()
		if err := f.claim(ctx, st); err != nil {
			return err
		}
		if to.begin != nil {
			to.begin(ctx, st)
		}
		return nil
	})
	switch {
	case errors.Is(err, errInProgress): // errCopiedElsewhere, or no longer wanted
		return ctx, nil, nil, nil, err
	case err != nil:
		return ctx, nil, nil, nil, fmt.Errorf("say on the share that the copy runs, before it starts: %w", err)
	}
	cctx, cancel := context.WithCancelCause(ctx)
	quit, done := make(chan struct{}), make(chan struct{})
	// A beat's look must end well within the takeover time.
	tick := max(d.beatTimes.interval(), time.Second)
	go func() {
		defer close(done)
		t := time.NewTicker(d.beatTimes.interval())
		defer t.Stop()
		for {
			select {
			case <-t.C:
			case <-quit:
				return
			}
			verdict := f.beatIfDue(func(beat func(context.Context, *state.Store) error) error {
				return look(cctx, tick, false, beat)
			})
			if verdict != nil {
				cancel(verdict)
				return
			}
		}
	}()
	var once sync.Once
	halt = func() error {
		once.Do(func() {
			close(quit)
			<-done
			cancel(nil)
		})
		f.mu.Lock()
		defer f.mu.Unlock()
		return f.verdict
	}
	end = func() {
		_ = halt()
		// The copy's own context may have ended: the beat goes anyway.
		err := look(context.WithoutCancel(ctx), beatTimeout, true, func(ctx context.Context, st *state.Store) error {
			return st.StopBeat(ctx, to.beat, f.me)
		})
		if err != nil {
			logger.Error(err, "cannot remove the copy's beat; the reclaimer does once it stays the same", "uid", to.beat)
		}
	}
	return cctx, f, halt, end, nil
}

// beatTimeout bounds the first beat of a copy, which the copy waits for,
// and the removal of its beat when it ends: a first beat the server is
// slow to take is written at the next interval, and a beat left is the
// reclaimer's to remove.
const beatTimeout = 30 * time.Second

// StopCopies stops the copies this process runs, for a process that is
// about to exit (SIGTERM: a rolling update, a node drain): each removes
// its beat, so the next controller takes them over at once rather than
// after state.TakeoverAfter. A copy that cannot end by ctx stays beating
// until the process exits.
func (d *Driver) StopCopies(ctx context.Context) error {
	if d.jobs == nil {
		return nil
	}
	return d.jobs.CancelAll(ctx)
}
