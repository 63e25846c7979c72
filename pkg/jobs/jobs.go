// Package jobs runs long copies (snapshots, restores, clones) in the
// background of the RPCs that ask for them. One key has at most one job at a
// time, so a CO that calls again while a copy runs never starts a second
// one; the call looks at the running job instead.
package jobs

import (
	"context"
	"sync"
)

// Job is one background task.
type Job struct {
	cancel context.CancelFunc
	done   chan struct{}
	err    error
}

// Done is closed when the job has ended.
func (j *Job) Done() <-chan struct{} { return j.done }

// Err is the job's result once Done is closed.
func (j *Job) Err() error {
	<-j.done
	return j.err
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
	mu   sync.Mutex
	jobs map[string]*Job
}

// NewRunner returns a runner with no jobs. A job outlives the call that
// started it; it ends when it is done or canceled, or with the process.
func NewRunner() *Runner {
	return &Runner{jobs: map[string]*Job{}}
}

// Start returns the job running under key, or starts fn as a new one. A job
// that has ended is replaced: its result was for the call that saw it, and
// a new call asks for another try (a copy resumes where the last stopped).
func (r *Runner) Start(key string, fn func(ctx context.Context) error) *Job {
	r.mu.Lock()
	defer r.mu.Unlock()
	if j, ok := r.jobs[key]; ok {
		if done, _ := j.Finished(); !done {
			return j
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	j := &Job{cancel: cancel, done: make(chan struct{})}
	r.jobs[key] = j
	go func() {
		defer cancel()
		j.err = fn(ctx)
		close(j.done)
	}()
	return j
}

// Get returns the job under key, running or ended, or nil.
func (r *Runner) Get(key string) *Job {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.jobs[key]
}

// Forget drops an ended job's result.
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
