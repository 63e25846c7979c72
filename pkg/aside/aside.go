// Package aside runs a blocking call that takes no context (a stat through
// a link to a gone server, gokrb5's KDC exchanges) beside the caller, so
// that the caller returns when its context ends, as every RPC must at its
// deadline. The call itself finishes in the background.
package aside

import (
	"context"
	"fmt"
)

// Run runs fn and returns its result, or at ctx's end an error that
// starts with what and wraps ctx.Err().
func Run[T any](ctx context.Context, what string, fn func() (T, error)) (T, error) {
	type result struct {
		v   T
		err error
	}
	done := make(chan result, 1)
	go func() {
		v, err := fn()
		done <- result{v, err}
	}()
	select {
	case r := <-done:
		return r.v, r.err
	case <-ctx.Done():
		var zero T
		return zero, fmt.Errorf("%s: %w", what, ctx.Err())
	}
}
