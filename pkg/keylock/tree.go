package keylock

import (
	"context"
	"strings"
	"sync"
)

// Tree locks slash-separated paths so that an operation on a path excludes
// every operation on its ancestors and descendants, while siblings proceed:
// the path itself is held exclusively and each ancestor shared. Locks are
// always taken from the top down, so two operations never wait on each other
// in a circle. The zero value is ready to use.
type Tree struct {
	mu    sync.Mutex
	nodes map[string]*node
}

type node struct {
	readers int
	writer  bool
	refs    int
	changed chan struct{} // closed and replaced whenever the node is released
}

// Lock waits until ctx ends for path (exclusive) and its ancestors (shared)
// below root, and returns the function that releases them all.
func (t *Tree) Lock(ctx context.Context, root, path string) (func(), error) {
	parts := strings.Split(path, "/")
	var held []func()
	release := func() {
		for i := len(held) - 1; i >= 0; i-- {
			held[i]()
		}
	}
	for i := range parts {
		unlock, err := t.lockOne(ctx, root+"#"+strings.Join(parts[:i+1], "/"), i < len(parts)-1)
		if err != nil {
			release()
			return nil, err
		}
		held = append(held, unlock)
	}
	return release, nil
}

func (t *Tree) lockOne(ctx context.Context, key string, shared bool) (func(), error) {
	t.mu.Lock()
	if t.nodes == nil {
		t.nodes = map[string]*node{}
	}
	n := t.nodes[key]
	if n == nil {
		n = &node{changed: make(chan struct{})}
		t.nodes[key] = n
	}
	n.refs++
	for n.writer || !shared && n.readers > 0 {
		ch := n.changed
		t.mu.Unlock()
		select {
		case <-ch:
		case <-ctx.Done():
			t.mu.Lock()
			t.unref(key, n)
			t.mu.Unlock()
			return nil, ctx.Err()
		}
		t.mu.Lock()
	}
	if shared {
		n.readers++
	} else {
		n.writer = true
	}
	t.mu.Unlock()
	var once sync.Once
	return func() {
		once.Do(func() {
			t.mu.Lock()
			if shared {
				n.readers--
			} else {
				n.writer = false
			}
			close(n.changed)
			n.changed = make(chan struct{})
			t.unref(key, n)
			t.mu.Unlock()
		})
	}, nil
}

// unref drops one reference; t.mu is held.
func (t *Tree) unref(key string, n *node) {
	n.refs--
	if n.refs == 0 {
		delete(t.nodes, key)
	}
}
