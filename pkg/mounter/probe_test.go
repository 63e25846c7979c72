package mounter

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"
)

// blockingProbe stands in for a stat of a hard NFS mount whose server is
// gone: each call blocks until release is closed.
type blockingProbe struct {
	release chan struct{}
	mu      sync.Mutex
	calls   int
	exited  chan struct{}
}

func newBlockingProbe() *blockingProbe {
	return &blockingProbe{release: make(chan struct{}), exited: make(chan struct{}, 100)}
}

func (b *blockingProbe) fn(string) (Stats, error) {
	b.mu.Lock()
	b.calls++
	b.mu.Unlock()
	<-b.release
	b.exited <- struct{}{}
	return Stats{TotalBytes: 1}, nil
}

func (b *blockingProbe) count() int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.calls
}

func TestProbesKeepOneInFlightPerPath(t *testing.T) {
	var r probes
	b := newBlockingProbe()
	const callers = 50
	var wg sync.WaitGroup
	errs := make(chan error, callers)
	for range callers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, err := r.run(context.Background(), "/hung", 50*time.Millisecond, b.fn)
			errs <- err
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if !errors.Is(err, ErrNotResponding) {
			t.Fatalf("call on a hung path: %v, want ErrNotResponding", err)
		}
	}
	if r.count() != 1 || b.count() != 1 {
		t.Fatalf("%d concurrent calls on a hung path started %d probes (%d ran), want 1", callers, r.count(), b.count())
	}
	if !r.stuck("/hung", 50*time.Millisecond) {
		t.Fatal("a probe blocked past its timeout is not reported stuck")
	}
	// Once the probe is stuck, later callers do not wait for it again.
	if _, err := r.run(context.Background(), "/hung", 50*time.Millisecond, b.fn); !errors.Is(err, ErrNotResponding) || r.count() != 1 {
		t.Fatalf("call after the probe got stuck: %v, %d probes", err, r.count())
	}
	// Another path is probed on its own.
	other := newBlockingProbe()
	close(other.release)
	if st, err := r.run(context.Background(), "/fine", time.Minute, other.fn); err != nil || st.TotalBytes != 1 {
		t.Fatalf("probe of another path: %+v %v", st, err)
	}

	// The server returns: the stuck probe ends, and the next call starts a
	// fresh one and gets its answer.
	close(b.release)
	<-b.exited
	for r.stuck("/hung", 0) {
		time.Sleep(time.Millisecond)
	}
	if st, err := r.run(context.Background(), "/hung", time.Minute, b.fn); err != nil || st.TotalBytes != 1 {
		t.Fatalf("probe after the mount answers again: %+v %v", st, err)
	}
	if b.count() != 2 {
		t.Fatalf("%d probes of the path in all, want 2", b.count())
	}
}

func TestProbesShareTheAnswerOfTheProbeInFlight(t *testing.T) {
	var r probes
	b := newBlockingProbe()
	results := make(chan error, 2)
	for range 2 {
		go func() {
			_, err := r.run(context.Background(), "/slow", time.Hour, b.fn)
			results <- err
		}()
	}
	// The answer comes only once both callers are in: one started the
	// probe, the other found it in flight. Released as soon as the probe
	// started, a second caller the scheduler had not run yet (a loaded
	// machine) came after the answer and rightly started a probe of its
	// own.
	for end := time.Now().Add(10 * time.Second); r.count()+r.joiners() < 2; time.Sleep(time.Millisecond) {
		if time.Now().After(end) {
			t.Fatalf("%d probes started and %d calls joined one: the second caller never came", r.count(), r.joiners())
		}
	}
	close(b.release)
	for range 2 {
		if err := <-results; err != nil {
			t.Fatal(err)
		}
	}
	if b.count() != 1 {
		t.Fatalf("two callers ran %d probes, want 1", b.count())
	}
}

func TestProbesForgetAHungMountAfterItIsDetached(t *testing.T) {
	var r probes
	b := newBlockingProbe()
	defer close(b.release)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := r.run(ctx, "/p", time.Hour, b.fn); !errors.Is(err, ErrNotResponding) || !errors.Is(err, context.Canceled) {
		t.Fatalf("probe with an ended context: %v", err)
	}
	r.forget("/p")
	fresh := newBlockingProbe()
	close(fresh.release)
	if _, err := r.run(context.Background(), "/p", time.Hour, fresh.fn); err != nil || fresh.count() != 1 {
		t.Fatalf("probe after forget: %v (%d probes)", err, fresh.count())
	}
}

// BenchmarkProbesOnAHungPath measures what a stats call on a hung mount
// costs once a probe is stuck: no new goroutine and no wait.
func BenchmarkProbesOnAHungPath(b *testing.B) {
	var r probes
	p := newBlockingProbe()
	defer close(p.release)
	_, _ = r.run(context.Background(), "/hung", time.Millisecond, p.fn)
	b.ReportAllocs()
	for b.Loop() {
		_, _ = r.run(context.Background(), "/hung", time.Millisecond, p.fn)
	}
	if p.count() != 1 {
		b.Fatalf("%d probes started", p.count())
	}
}
