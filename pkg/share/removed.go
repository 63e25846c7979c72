package share

import (
	"context"
	"sync/atomic"
)

type removedKey struct{}

// CountRemoved returns a context under which RemoveAll counts every file,
// link and directory it removes, and a function that reads the count. The
// count rides on the context because one RemoveAll spreads over helper
// sessions and workers that each remove a part.
func CountRemoved(ctx context.Context) (context.Context, func() int64) {
	n := new(atomic.Int64)
	return context.WithValue(ctx, removedKey{}, n), n.Load
}

// countRemoved adds one removed entry to the count under ctx, if any.
func countRemoved(ctx context.Context) {
	if n, ok := ctx.Value(removedKey{}).(*atomic.Int64); ok {
		n.Add(1)
	}
}
