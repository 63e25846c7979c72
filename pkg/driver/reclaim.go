package driver

import (
	"context"
	"sync"
	"time"

	"k8s.io/klog/v2"

	"github.com/fileshare-csi/fileshare-csi/pkg/share"
	"github.com/fileshare-csi/fileshare-csi/pkg/source"
	"github.com/fileshare-csi/fileshare-csi/pkg/state"
)

// firstPass is how long after a share's first call its first pass comes.
const firstPass = time.Minute

// quietAfter is how long after the last call that named a share the
// reclaimer stops passing over it: long enough for what that call, or
// any before it, left to be seen, stay idle for state.IntentTTL and be
// taken by the next passes; after that nothing new is left there by this
// process. A process that no call comes to any more, a demoted leader
// whose sidecars lost their lease while it stays alive, so stops passing
// over shares the new leader works on (data-safety.md, two live
// controllers on one share); a call on the share starts its passes again.
func quietAfter(interval time.Duration) time.Duration { return state.IntentTTL + 3*interval }

// RunReclaimer passes state.Reclaimer over every share this controller has
// provisioned on, every interval, until ctx ends: what CreateVolumes that
// stopped and were never retried left (their claim was deleted while it
// was Pending) is undone there. A share gets its first pass firstPass
// after a call first names it, so one restart's leftovers go soon after
// the next call, without the pass taking a session that call's retries
// would find idle. The controller keeps no list of shares: a share no call
// names after a restart keeps its leftovers until one does, and one no
// call named for quietAfter is passed over no more until one does.
func (d *controller) RunReclaimer(ctx context.Context, interval time.Duration) {
	if interval <= 0 {
		return
	}
	tick := time.NewTicker(interval)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case src := <-d.newShares:
			time.AfterFunc(firstPass, func() {
				select {
				case d.dueShares <- src:
				case <-ctx.Done():
				}
			})
		case src := <-d.dueShares:
			d.reclaimOn(ctx, src)
		case now := <-tick.C:
			for _, src := range d.reclaimShares.namedSince(now.Add(-quietAfter(interval))) {
				d.reclaimOn(ctx, src)
			}
		}
	}
}

// provisionedOn notes a share a call worked on, for the reclaimer; the
// first call on a share after a start schedules its first pass.
func (d *controller) provisionedOn(src source.Source) {
	if d.reclaimShares.add(src) {
		select {
		case d.newShares <- src:
		default: // a pass is due anyway; never hold a call for it
		}
	}
}

// reclaimOn makes one pass on the share src lies on, through a pooled
// session (for SMB, an idle one a call with secrets left: the reclaimer
// has no credentials of its own), holding each volume's lock as a call
// would.
func (d *controller) reclaimOn(ctx context.Context, src source.Source) {
	logger := klog.FromContext(ctx).WithValues("share", src.String())
	ctx, cancel := context.WithTimeout(ctx, 5*time.Minute)
	defer cancel()
	var rep state.ReclaimReport
	passed := false
	// No secrets, and a dead session fails the pass: the next one dials anew.
	_, err := d.atOrIdle(ctx, d.locateShare(ctx, src), share.Credentials{}, failDead, func(s site) (err error) {
		lock := func(ctx context.Context, p string) (func(), error) { return d.lock(ctx, s.whereOf(p)) }
		s.Log = func(msg string, kv ...any) { logger.Info(msg, kv...) } // what the pass leaves, with the share named
		passed = true
		rep, err = d.reclaimer.Pass(ctx, s.Store, s.canon, lock)
		return err
	})
	if !passed { // no idle SMB session, or the dial failed
		logger.V(4).Info("no session for a reclaim pass; the next one tries again", "error", err)
		return
	}
	for _, p := range rep.Kept {
		logger.Info("a CreateVolume that was never finished left a directory with data in it; kept, for an administrator to look at", "path", p)
	}
	d.cfg.Metrics.Reclaimed(string(src.Protocol), rep.Intents, rep.Temps, rep.Snapshots, rep.Quarantines, len(rep.Kept))
	if err != nil {
		logger.Error(err, "reclaim pass stopped; the next one goes on")
		return
	}
	if rep.Intents+rep.Temps+rep.Snapshots+rep.Quarantines > 0 {
		logger.Info("reclaimed what calls that never came back left", "creates", rep.Intents, "temporaries", rep.Temps, "snapshots", rep.Snapshots, "quarantines", rep.Quarantines)
	}
}

// activity remembers when a call last asked for each snapshot, or for each
// volume being filled, so the reclaimer never takes one a CO still polls
// for an abandoned one. Entries older than state.IntentTTL go at the next
// call.
type activity struct {
	mu   sync.Mutex
	last map[string]time.Time // snapshot UID -> last call
}

func (a *activity) touch(uid string) {
	a.mu.Lock()
	defer a.mu.Unlock()
	now := time.Now()
	if a.last == nil {
		a.last = map[string]time.Time{}
	}
	for k, t := range a.last {
		if now.Sub(t) > state.IntentTTL {
			delete(a.last, k)
		}
	}
	a.last[uid] = now
}

func (a *activity) recent(uid string) bool {
	a.mu.Lock()
	defer a.mu.Unlock()
	t, ok := a.last[uid]
	return ok && time.Since(t) < state.IntentTTL
}

// snapshotBusy is the reclaimer's state.Reclaimer.SnapshotBusy: a copy of
// the snapshot runs here, or a call asked for it within IntentTTL.
func (d *controller) snapshotBusy(uid string) bool {
	return d.busy(snapshotJobKey(uid), &d.snapshotCalls, uid)
}

// volumeBusy is the reclaimer's state.Reclaimer.VolumeBusy: the copy that
// fills the volume runs here, or a call asked for the volume within
// IntentTTL.
func (d *controller) volumeBusy(uid string) bool {
	return d.busy(populateJobKey(uid), &d.volumeCalls, uid)
}

// busy says whether the job under key still runs, or calls asked for uid
// within IntentTTL.
func (d *controller) busy(key string, calls *activity, uid string) bool {
	if j := d.jobs.Get(key); j != nil {
		if done, _ := j.Finished(); !done {
			return true
		}
	}
	return calls.recent(uid)
}
