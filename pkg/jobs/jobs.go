// Package jobs runs long copies (snapshots, restores, clones) in the
// background of the RPCs that ask for them. One key has at most one job at a
// time, so a CO that calls again while a copy runs never starts a second
// one; the call looks at the running job instead.
package jobs

import (
	"context"
	"errors"
	"sync"
	"time"
)

// Job is one background task.
type Job struct {
	cancel context.CancelFunc
	done   chan struct{}
	value  any
	err    error
}

// Done is closed when the job has ended.
func (j *Job) Done() <-chan struct{} { return j.done }

// Err is the job's error once Done is closed.
func (j *Job) Err() error {
	<-j.done
	return j.err
}

// Result is what the job's function returned, once Done is closed: every
// call that found the job reads it, not only the one that started it.
func (j *Job) Result() (any, error) {
	<-j.done
	return j.value, j.err
}

// Finished reports whether the job has ended, and how.
func (j *Job) Finished() (bool, error) {
	select {
	case <-j.done:
		return true, j.err
	default:
		return false, nil
	}
}

// Runner keeps the jobs of one driver.
type Runner struct {
	// Retain is how long an ended job is kept for the calls that come
	// back for it (a CO retries a CreateVolume or CreateSnapshot within
	// minutes). After that it is dropped, succeeded or failed, whether or
	// not anyone asked: a CO that gave up (a claim deleted while its
	// restore ran) never comes back, and the runner must not grow with
	// every such job. A call after that starts the work again, which
	// finds it done on the share (a copy skips what is complete).
	Retain time.Duration

	mu   sync.Mutex
	jobs map[string]*Job
	// closed: CancelAll ran, the process is exiting, and Start starts
	// nothing more.
	closed bool
}

// ErrClosed is the error of a job Start refused because the runner's
// process is exiting.
var ErrClosed = errors.New("the controller is shutting down: another controller does the work")

// DefaultRetain is NewRunner's Retain: longer than the CO's longest back
// off between retries (external-provisioner and csi-snapshotter: 5 minutes).
const DefaultRetain = 10 * time.Minute

// NewRunner returns a runner with no jobs. A job outlives the call that
// started it; it ends when it is done or canceled, or with the process,
// and is dropped Retain after it ended.
func NewRunner() *Runner {
	return &Runner{Retain: DefaultRetain, jobs: map[string]*Job{}}
}

// Start returns the job under key, or starts fn as a new one. A job that
// ended with an error is replaced: its error was for the call that saw it,
// and a new call asks for another try (a copy resumes where the last
// stopped). One that succeeded is returned until it is forgotten: a call
// that read its state before the job ended must get the job's result, not
// start the work over (a second copy into a snapshot already in place).
func (r *Runner) Start(key string, fn func(ctx context.Context) (any, error)) *Job {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.closed {
		j := &Job{cancel: func() {}, done: make(chan struct{}), err: ErrClosed}
		close(j.done)
		return j
	}
	if j, ok := r.jobs[key]; ok {
		if done, err := j.Finished(); !done || err == nil {
			return j
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	j := &Job{cancel: cancel, done: make(chan struct{})}
	r.jobs[key] = j
	retain := r.Retain
	go func() {
		defer cancel()
		j.value, j.err = fn(ctx)
		close(j.done)
		time.AfterFunc(retain, func() { r.Forget(key, j) })
	}()
	return j
}

// Get returns the job under key, running or ended, or nil.
func (r *Runner) Get(key string) *Job {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.jobs[key]
}

// Forget drops an ended job's result, if j is still the job under key.
func (r *Runner) Forget(key string, j *Job) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.jobs[key] == j {
		delete(r.jobs, key)
	}
}

// Cancel stops the job under key and waits until it has ended, or until
// ctx ends. It is a no-op when no job runs.
func (r *Runner) Cancel(ctx context.Context, key string) error {
	r.mu.Lock()
	j := r.jobs[key]
	delete(r.jobs, key)
	r.mu.Unlock()
	if j == nil {
		return nil
	}
	j.cancel()
	select {
	case <-j.done:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// CancelAll stops every job and waits until they have ended, or until ctx
// ends: for a process that is about to exit, so that each job's own
// cleanup runs. Start starts nothing after it.
func (r *Runner) CancelAll(ctx context.Context) error {
	r.mu.Lock()
	all := r.jobs
	r.jobs = map[string]*Job{}
	r.closed = true
	r.mu.Unlock()
	for _, j := range all {
		j.cancel()
	}
	for _, j := range all {
		select {
		case <-j.done:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	return nil
}
