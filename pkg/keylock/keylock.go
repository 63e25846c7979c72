// Package keylock serializes work per key (a volume, a share) while letting
// different keys proceed, with waits that end with the caller's context.
package keylock

import (
	"context"
	"sync"
)

// Keyed is a mutex per key. The zero value is ready to use.
type Keyed struct {
	mu    sync.Mutex
	locks map[string]*entry
}

type entry struct {
	ch   chan struct{}
	refs int
}

// Lock waits for key until ctx ends and returns the function that unlocks it.
func (k *Keyed) Lock(ctx context.Context, key string) (func(), error) {
	k.mu.Lock()
	if k.locks == nil {
		k.locks = map[string]*entry{}
	}
	e := k.locks[key]
	if e == nil {
		e = &entry{ch: make(chan struct{}, 1)}
		k.locks[key] = e
	}
	e.refs++
	k.mu.Unlock()
	release := func() {
		k.mu.Lock()
		e.refs--
		if e.refs == 0 {
			delete(k.locks, key)
		}
		k.mu.Unlock()
	}
	select {
	case e.ch <- struct{}{}:
		return func() { <-e.ch; release() }, nil
	case <-ctx.Done():
		release()
		return nil, ctx.Err()
	}
}
