package mounter

import (
	"context"
	"fmt"
	"sync"
	"time"
)

// probes keeps at most one health probe in flight per path. A probe of a
// hard NFS mount whose server is gone blocks in the kernel until the server
// returns, and holds an OS thread all that time; starting a probe per call
// would add a stuck thread with every stats call the kubelet makes. A caller
// that finds a probe in flight waits for its result instead, and once that
// probe has run past the caller's timeout, the caller is told
// ErrNotResponding at once.
type probes struct {
	mu       sync.Mutex
	inflight map[string]*probe
	// started counts the probes begun, and joined the calls that found
	// one in flight and share it, for tests.
	started, joined int
}

type probe struct {
	done  chan struct{}
	since time.Time
	stats Stats
	err   error
}

// run returns the result of fn(path), sharing a probe already in flight for
// path. It waits at most until timeout after that probe began, or until ctx
// ends.
func (r *probes) run(ctx context.Context, path string, timeout time.Duration, fn func(path string) (Stats, error)) (Stats, error) {
	r.mu.Lock()
	p, shared := r.inflight[path]
	if !shared {
		if r.inflight == nil {
			r.inflight = map[string]*probe{}
		}
		p = &probe{done: make(chan struct{}), since: time.Now()}
		r.inflight[path] = p
		r.started++
		go r.finish(path, p, fn)
	} else {
		r.joined++
	}
	r.mu.Unlock()
	left := timeout - time.Since(p.since)
	if shared && left <= 0 {
		return Stats{}, fmt.Errorf("%s has not answered for %s: %w", path, time.Since(p.since).Round(time.Second), ErrNotResponding)
	}
	timer := time.NewTimer(left)
	defer timer.Stop()
	select {
	case <-p.done:
		return p.stats, p.err
	case <-timer.C:
		return Stats{}, fmt.Errorf("%s did not answer within %s: %w", path, timeout, ErrNotResponding)
	case <-ctx.Done():
		return Stats{}, fmt.Errorf("%s: %w: %w", path, ErrNotResponding, ctx.Err())
	}
}

func (r *probes) finish(path string, p *probe, fn func(string) (Stats, error)) {
	st, err := fn(path)
	r.mu.Lock()
	p.stats, p.err = st, err
	// forget may have replaced this probe with a newer one: keep that.
	if r.inflight[path] == p {
		delete(r.inflight, path)
	}
	r.mu.Unlock()
	close(p.done)
}

// stuck reports whether a probe of path has been in flight for timeout or
// longer: the mount there hangs.
func (r *probes) stuck(path string, timeout time.Duration) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	p, ok := r.inflight[path]
	return ok && time.Since(p.since) >= timeout
}

// forget drops the probe in flight for path, once the hung mount it probes
// was detached: the next probe looks at whatever is mounted there then. The
// old probe's goroutine stays blocked until the kernel lets it go, but it is
// one per detached mount, not one per call.
func (r *probes) forget(path string) {
	r.mu.Lock()
	delete(r.inflight, path)
	r.mu.Unlock()
}

// count returns how many probes were started, for tests.
func (r *probes) count() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.started
}

// joiners returns how many calls shared a probe in flight, for tests.
func (r *probes) joiners() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.joined
}
