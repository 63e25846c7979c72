package driver

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"sync"
	"time"

	"k8s.io/klog/v2"

	"github.com/fileshare-csi/fileshare-csi/pkg/copytree"
	"github.com/fileshare-csi/fileshare-csi/pkg/share"
	"github.com/fileshare-csi/fileshare-csi/pkg/source"
	"github.com/fileshare-csi/fileshare-csi/pkg/state"
)

// copyWorkers bounds how many files one tree copy copies at once, each
// worker on sessions of its own. Workers beyond the first are taken only
// while the pool has sessions to spare (TryGet), so a long copy never holds
// up the CreateVolume and DeleteVolume calls on its share.
const copyWorkers = 8

// copyTimeout is the longest one copy may run before it gives up; the next
// call for its snapshot or volume resumes it from what it made.
const copyTimeout = 12 * time.Hour

// copySlots bounds the copies that run at once on one share, and the
// sessions they hold there. A copy waits for a slot before it holds any
// session (its first beat takes one and gives it back), and then for at most three sessions at once (the lister, a
// source and a destination worker): with a quarter of
// --max-sessions-per-share as slots, the copies together never wait for
// more sessions than the pool has, so they cannot deadlock each holding
// one and waiting for another. Workers beyond the first take sessions to
// spare only while the copies on the share hold fewer than three quarters
// of them: a quarter stays for the CreateVolume and DeleteVolume calls
// however long the copies run. (Below four sessions per share a copy may
// hold them all; the pool serves waiters in order, so a call waits for
// at most the copy ahead of it.)
type copySlots struct {
	mu    sync.Mutex
	slots map[string]chan struct{}
	held  map[string]int // sessions the copies hold, by share
}

// reserve is the share of sessions copies leave to other calls.
func reserve(maxSessions int) int { return max(1, maxSessions/4) }

func (c *copySlots) acquire(ctx context.Context, share string, maxSessions int) (func(), error) {
	c.mu.Lock()
	if c.slots == nil {
		c.slots = map[string]chan struct{}{}
		c.held = map[string]int{}
	}
	ch, ok := c.slots[share]
	if !ok {
		n := reserve(maxSessions)
		if maxSessions <= 0 {
			n = copyWorkers // no bound on sessions: nothing to deadlock on
		}
		ch = make(chan struct{}, n)
		c.slots[share] = ch
	}
	c.mu.Unlock()
	select {
	case ch <- struct{}{}:
		return func() { <-ch }, nil
	case <-ctx.Done():
		return nil, fmt.Errorf("waiting for one of the %d copies that may run at once on %s: %w", cap(ch), share, ctx.Err())
	}
}

// hold counts a session a copy took on share. A session to spare (extra)
// is refused once the copies hold all but the reserve; the others were
// bounded by the slots already. The returned func gives it back.
func (c *copySlots) hold(share string, maxSessions int, extra bool) (func(), bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if extra && maxSessions > 0 && c.held[share] >= maxSessions-reserve(maxSessions) {
		return nil, false
	}
	c.held[share]++
	return func() {
		c.mu.Lock()
		c.held[share]--
		c.mu.Unlock()
	}, true
}

// copySource is the record of the volume a snapshot or clone copies: it
// must exist with its directory, and must not be filled itself still.
// verb names the operation for the message.
func (s site) copySource(ctx context.Context, verb string) (state.Record, error) {
	rec, err := s.check(ctx)
	if err != nil {
		return rec, err
	}
	if rec.Populating {
		return rec, fmt.Errorf("volume %q is still being filled from %s; %s it once it is: %w", rec.Name, rec.ContentSource, verb, share.ErrUnavailable)
	}
	return rec, nil
}

// copyEnd is one end of a copy: a directory on the share a session is
// dialed to, by its path from the session's root.
type copyEnd struct {
	root   source.Source
	prefix string // the Prefix of the session path was placed on
	path   string
	rootID uint64 // the directory's recorded file ID; 0 when not checked
	// pack is a snapshot's archive of small files beside its tree, from
	// the session's root: written when the snapshot is the destination,
	// read when it is the source. Empty for a volume.
	pack string
	// beat, of a destination, is the UID of the volume or snapshot the
	// copy fills: while the copy runs it beats on the share under it
	// (beat.go), so that no reclaimer anywhere takes it for abandoned and
	// no other process starts it again beside it.
	beat string
	// still, of a destination, says whether the copy is still wanted
	// there (the volume still being filled, the snapshot not ready): an
	// error stops it. Asked at every beat.
	still func(ctx context.Context, st *state.Store) error
	// begin, of a destination, runs once the copy's first beat made it
	// this process's, before it writes anything: what an earlier run
	// left that this one will not use goes (a snapshot's other packs).
	begin func(ctx context.Context, st *state.Store)
}

// copyBetween copies from's directory to to's through sessions leased from
// the pool, then calls finish on a session on to's share while the leases
// are still held. kind (snapshot, restore, clone) labels its metrics.
func (d *controller) copyBetween(ctx context.Context, kind string, from, to copyEnd, creds share.Credentials, logger klog.Logger, finish func(share.Client, copytree.Stats) error) (err error) {
	var stats copytree.Stats
	ctx, cancel := context.WithTimeout(ctx, copyTimeout)
	defer cancel()
	// What a class that requires encryption keeps never crosses the
	// network readable on its way into a volume of a weaker class: the
	// copy's sessions to the destination require it too (a server there
	// that does not encrypt fails the copy, FailedPrecondition, naming
	// its setting). Both ends are of one protocol (resolveContent).
	if from.root.Encryption == source.EncryptionRequired {
		to.root.Encryption = source.EncryptionRequired
	}
	// The copy beats from before it waits for its slots: the copies ahead
	// of it may run for hours, and a copy that waits is this process's to
	// run all the same. Without a beat, another process's reclaimer (a
	// demoted leader's, another cluster's), which knows nothing of this
	// process's calls, would take its volume or snapshot for abandoned
	// once its passes had seen no beat for state.IntentTTL, and delete it;
	// and another process would start the copy beside it. Deferred before
	// the slots and the leases are: the beat goes once they are given
	// back, through a session of the pool as any call's (the first beat
	// takes one and gives it back at once: no session is held while the
	// copy waits).
	callCtx := ctx
	ctx, f, haltBeat, endBeat, err := d.beating(ctx, to, creds, logger)
	if err != nil {
		return err
	}
	defer endBeat()
	// A slot on each share the copy takes sessions of, in one order, so
	// two copies across the same shares in opposite directions cannot
	// each hold the slot the other waits for.
	shares := []string{lockName(from.root)}
	if dst := lockName(to.root); dst != shares[0] {
		shares = append(shares, dst)
		sort.Strings(shares)
	}
	for _, sh := range shares {
		release, err := d.copySlots.acquire(ctx, sh, d.cfg.Pool.MaxOpenPerKey)
		if err != nil {
			if berr := haltBeat(); berr != nil {
				return berr // the fence stopped the wait: taken over, or no longer wanted
			}
			return err
		}
		defer release()
	}
	ended := d.cfg.Metrics.CopyStarted(kind, string(from.root.Protocol))
	defer func() { ended(stats.Files, stats.Bytes, stats.ServerSideBytes, err) }()
	var leases []*share.Lease
	var unhold []func()
	defer func() {
		for _, l := range leases {
			l.Release(err)
		}
		for _, f := range unhold {
			f()
		}
	}()
	tree := func(l *share.Lease, end copyEnd) (share.TreeClient, error) {
		leases = append(leases, l)
		if got := l.Client.Prefix(); got != end.prefix {
			// The session is rooted elsewhere than the one the path was
			// placed on (the server's exports changed between dials):
			// the path would lead to another directory.
			return nil, fmt.Errorf("a session to %s is rooted at another directory (prefix %q) than the one %s was found on (%q): %w", end.root.String(), got, end.path, end.prefix, share.ErrUnavailable)
		}
		tc, ok := l.Client.(share.TreeClient)
		if !ok {
			return nil, fmt.Errorf("the %s client cannot copy directory trees: %w", from.root.Protocol, errors.ErrUnsupported)
		}
		return tc, nil
	}
	// lease waits for the lister and the first worker; later workers only
	// come from sessions to spare.
	lease := func(end copyEnd, wait bool) (share.TreeClient, error) {
		root := end.root
		done, ok := d.copySlots.hold(lockName(root), d.cfg.Pool.MaxOpenPerKey, !wait)
		if !ok {
			return nil, nil
		}
		var l *share.Lease
		if !wait {
			l = d.cfg.Pool.TryGet(ctx, root, creds)
		} else {
			var gerr error
			if l, gerr = d.cfg.Pool.Get(ctx, root, creds); gerr != nil {
				done()
				return nil, gerr
			}
		}
		if l == nil {
			done()
			return nil, nil
		}
		unhold = append(unhold, done)
		return tree(l, end)
	}
	lister, err := lease(from, true)
	if err != nil {
		return err
	}
	sameShare := lockName(from.root) == lockName(to.root)
	var workers []copytree.Pair
	for i := range copyWorkers {
		src, err := lease(from, i == 0)
		if err != nil {
			return err
		}
		dst := src
		if src != nil && (!sameShare || from.prefix != to.prefix) {
			if dst, err = lease(to, i == 0); err != nil {
				return err
			}
		}
		if src == nil || dst == nil {
			break
		}
		workers = append(workers, copytree.Pair{Src: src, Dst: dst})
	}
	stats, err = copytree.Copy(ctx, copytree.Sessions{Lister: lister, Workers: workers}, from.path, to.path, copytree.Options{
		Foreign: state.ForeignRoot, Protect: state.MetadataDirs(), TopID: from.rootID,
		Log:    func(msg string, kv ...any) { logger.Info(msg, kv...) },
		PackTo: to.pack, UnpackFrom: from.pack,
		// A restore's or a clone's volume was made by its CreateVolume:
		// gone, it was deleted meanwhile, and is not made again.
		TopExists: kind != "snapshot", DstTopID: to.rootID,
		// What an earlier run left in the destination is removed as
		// every delete removes: never entering another volume's root.
		Marks:   state.RootsDir,
		Between: f.betweenFunc(),
	})
	// The beat stops before the copy's last step: a fence that stopped
	// the copy says why.
	if berr := haltBeat(); berr != nil {
		return berr
	}
	if err != nil {
		return err
	}
	if stats.Skipped > 0 {
		logger.Info("the copy left entries out (see above)", "skipped", stats.Skipped)
	}
	// The fence is asked once more before the commit: a copy that ran on
	// since its last beat (up to an interval) while another process took
	// it over, or finished it, commits nothing.
	if err := f.confirm(callCtx, storeOf(callCtx, workers[0].Dst)); err != nil {
		return err
	}
	return finish(workers[0].Dst, stats)
}
