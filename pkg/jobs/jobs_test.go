package jobs

import (
	"context"
	"errors"
	"testing"
	"time"
)

func TestStartJoinsReplacesOnlyFailures(t *testing.T) {
	r := NewRunner()
	release := make(chan struct{})
	runs := 0
	fn := func(result any, err error) func(context.Context) (any, error) {
		return func(context.Context) (any, error) {
			runs++
			<-release
			return result, err
		}
	}
	// A running job is joined, not started again.
	j1 := r.Start("k", fn("first", errors.New("copy failed")))
	if j := r.Start("k", fn("second", nil)); j != j1 {
		t.Fatal("a second Start while the job runs started another")
	}
	close(release)
	if _, err := j1.Result(); err == nil {
		t.Fatal("the job's error is lost")
	}
	// A job that failed is replaced by the next Start.
	j2 := r.Start("k", fn("retried", nil))
	if j2 == j1 {
		t.Fatal("a failed job was not replaced")
	}
	if v, err := j2.Result(); v != "retried" || err != nil {
		t.Fatalf("Result = %v, %v", v, err)
	}
	// One that succeeded is joined, with its result, until it is
	// forgotten: a late caller must not start the work over.
	if j := r.Start("k", fn("again", nil)); j != j2 {
		t.Fatal("a job that succeeded was replaced")
	}
	if runs != 2 {
		t.Fatalf("%d runs, want 2", runs)
	}
	r.Forget("k", j2)
	if j := r.Start("k", fn("after forget", nil)); j == j2 {
		t.Fatal("a forgotten job was returned")
	} else if v, _ := j.Result(); v != "after forget" {
		t.Fatalf("Result = %v", v)
	}
}

// An ended job is dropped Retain after it ended, whether it failed or
// succeeded and whether or not a call came back for it: a CO that gave up
// never does, and the runner must not keep every such job.
func TestEndedJobsAreDroppedAfterRetain(t *testing.T) {
	// Within Retain a caller still finds them. Looked at with a Retain
	// no run of the test outlasts: with the 50 ms below, a test not run
	// for 50 ms after the first job ended (a loaded machine) found it
	// dropped already.
	kept := NewRunner()
	kept.Retain = time.Hour
	keptFailed := kept.Start("failed", func(context.Context) (any, error) { return nil, errors.New("copy failed") })
	keptSucceeded := kept.Start("succeeded", func(context.Context) (any, error) { return "done", nil })
	<-keptFailed.Done()
	<-keptSucceeded.Done()
	if kept.Get("failed") != keptFailed || kept.Get("succeeded") != keptSucceeded {
		t.Fatal("an ended job was dropped before Retain passed")
	}

	r := NewRunner()
	r.Retain = 50 * time.Millisecond
	failed := r.Start("failed", func(context.Context) (any, error) { return nil, errors.New("copy failed") })
	succeeded := r.Start("succeeded", func(context.Context) (any, error) { return "done", nil })
	release := make(chan struct{})
	running := r.Start("running", func(context.Context) (any, error) { <-release; return nil, nil })
	<-failed.Done()
	<-succeeded.Done()
	waitFor(t, func() bool { return r.Get("failed") == nil && r.Get("succeeded") == nil })
	if r.Get("running") != running {
		t.Fatal("a running job was dropped")
	}
	close(release)
	waitFor(t, func() bool { return r.Get("running") == nil })

	// The timer of a job that was replaced leaves its successor alone.
	r.Retain = 30 * time.Millisecond
	old := r.Start("k", func(context.Context) (any, error) { return nil, errors.New("failed") })
	<-old.Done()
	block := make(chan struct{})
	defer close(block)
	next := r.Start("k", func(context.Context) (any, error) { <-block; return nil, nil })
	if next == old {
		t.Fatal("a failed job was not replaced")
	}
	time.Sleep(100 * time.Millisecond)
	if r.Get("k") != next {
		t.Fatal("the replaced job's removal dropped its successor")
	}
	r.mu.Lock()
	n := len(r.jobs)
	r.mu.Unlock()
	if n != 1 {
		t.Fatalf("%d jobs kept, want the one running", n)
	}
}

func waitFor(t *testing.T, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(5 * time.Second); !cond(); time.Sleep(5 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("not within 5 seconds")
		}
	}
}

// CancelAll, at a process's exit, stops every running job and waits for
// each to finish its own cleanup (a copy removes its beat from the share).
func TestCancelAllWaitsForEveryJobsCleanup(t *testing.T) {
	r := NewRunner()
	cleaned := make(chan string, 2)
	for _, k := range []string{"a", "b"} {
		r.Start(k, func(ctx context.Context) (any, error) {
			<-ctx.Done()
			time.Sleep(10 * time.Millisecond) // the cleanup takes a while
			cleaned <- k
			return nil, ctx.Err()
		})
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := r.CancelAll(ctx); err != nil {
		t.Fatal(err)
	}
	if len(cleaned) != 2 {
		t.Fatalf("CancelAll returned after %d of 2 cleanups", len(cleaned))
	}
	if r.Get("a") != nil || r.Get("b") != nil {
		t.Error("cancelled jobs are still listed")
	}
	// A call that comes in while the process exits starts no new copy.
	ran := false
	j := r.Start("c", func(context.Context) (any, error) { ran = true; return nil, nil })
	if _, err := j.Result(); !errors.Is(err, ErrClosed) || ran {
		t.Errorf("Start after CancelAll: %v (ran %v), want ErrClosed and nothing run", err, ran)
	}
}
