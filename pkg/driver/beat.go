package driver

import (
	"cmp"
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
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
//     or lost the share), and only then copies itself;
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

// instanceID names this process in its beats.
func instanceID() string {
	b := make([]byte, 8)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
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

// beating starts the fence for a copy into to (nothing when to.beat is
// empty): errCopiedElsewhere when another process's copy beats there;
// else a first beat before it returns, and one every state.BeatInterval.
// The copy runs with the returned ctx, which a beat cancels when the copy
// is no longer this process's to make. halt ends the beats and says why
// the fence stopped the copy (nil if it did not); end removes this
// process's beat, once the copy has given its sessions back.
//
// The first beat and the removal take a session as any call does. A beat
// while the copy runs takes one only if the pool has one to spare (the
// copy may hold them all: below four sessions per share it does), and is
// skipped otherwise: a copy never waits on its own beat.
func (d *controller) beating(ctx context.Context, to copyEnd, creds share.Credentials, logger klog.Logger) (_ context.Context, halt func() error, end func(), _ error) {
	if to.beat == "" {
		return ctx, func() error { return nil }, func() {}, nil
	}
	uid, me := to.beat, d.instance
	look := func(ctx context.Context, wait bool, fn func(context.Context, *state.Store) error) error {
		ctx, cancel := context.WithTimeout(ctx, beatTimeout)
		defer cancel()
		if wait {
			return d.withShare(ctx, to.root, creds, func(c share.Client) error { return fn(ctx, storeOf(ctx, c)) })
		}
		l := d.cfg.Pool.TryGet(ctx, to.root, creds)
		if l == nil {
			logger.V(2).Info("no session to spare for the copy's beat; it beats at the next interval", "uid", uid)
			return nil
		}
		err := fn(ctx, storeOf(ctx, l.Client))
		l.Release(err)
		return err
	}
	err := look(ctx, true, func(ctx context.Context, st *state.Store) error {
		b, err := st.ReadBeat(ctx, uid)
		if err != nil {
			return err
		}
		if b.Owner != "" && b.Owner != me && !d.foreign.stale(uid, b, d.beatTimes.takeoverAfter()) {
			return errCopiedElsewhere
		}
		return st.Beat(ctx, uid, me)
	})
	switch {
	case errors.Is(err, errCopiedElsewhere):
		return ctx, nil, nil, err
	case err != nil:
		// The copy goes on; the next beat may get through.
		logger.Error(err, "cannot say on the share that the copy runs", "uid", uid)
	}
	cctx, cancel := context.WithCancelCause(ctx)
	done := make(chan struct{})
	unbounded := d.cfg.Pool.MaxOpenPerKey <= 0
	go func() {
		defer close(done)
		t := time.NewTicker(d.beatTimes.interval())
		defer t.Stop()
		for {
			select {
			case <-t.C:
			case <-cctx.Done():
				return
			}
			err := look(cctx, unbounded, func(ctx context.Context, st *state.Store) error {
				b, err := st.ReadBeat(ctx, uid)
				if err != nil {
					return err
				}
				if b.Owner != "" && b.Owner != me {
					cancel(errTakenOver)
					return nil
				}
				if to.still != nil {
					if err := to.still(ctx, st); err != nil {
						cancel(err)
						return nil
					}
				}
				return st.Beat(ctx, uid, me)
			})
			if err != nil && cctx.Err() == nil {
				logger.Error(err, "cannot say on the share that the copy runs", "uid", uid)
			}
		}
	}()
	var once sync.Once
	var why error
	halt = func() error {
		once.Do(func() {
			if c := context.Cause(cctx); cctx.Err() != nil && c != cctx.Err() {
				why = c // the fence stopped the copy
			}
			cancel(nil)
			<-done
		})
		return why
	}
	end = func() {
		halt()
		// The copy's own context may have ended: the beat goes anyway.
		err := look(context.WithoutCancel(ctx), true, func(ctx context.Context, st *state.Store) error {
			return st.StopBeat(ctx, uid, me)
		})
		if err != nil {
			logger.Error(err, "cannot remove the copy's beat; the reclaimer does once it stays the same", "uid", uid)
		}
	}
	return cctx, halt, end, nil
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
