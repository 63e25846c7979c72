package aside

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"
)

// A call that answers in time gives its own result; one that does not is
// left behind at the context's end, with an error naming it.
func TestRun(t *testing.T) {
	v, err := Run(context.Background(), "quick", func() (int, error) { return 7, nil })
	if v != 7 || err != nil {
		t.Fatalf("Run = %d, %v", v, err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	unblock := make(chan struct{})
	defer close(unblock)
	start := time.Now()
	_, err = Run(ctx, "a stuck stat", func() (int, error) { <-unblock; return 1, nil })
	if !errors.Is(err, context.DeadlineExceeded) || !strings.HasPrefix(err.Error(), "a stuck stat: ") {
		t.Fatalf("err = %v, want DeadlineExceeded named after the call", err)
	}
	if d := time.Since(start); d > time.Second {
		t.Fatalf("returned after %v", d)
	}
}
