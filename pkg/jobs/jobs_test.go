package jobs

import (
	"context"
	"errors"
	"testing"
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
