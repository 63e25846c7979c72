package share

import (
	"context"
	"strings"
	"sync/atomic"
)

// A path is not an identity: `mv d d.old; mkdir d` leaves a directory's
// handle naming d.old while the path d names another directory. A session
// that remembered which handle a path led to across unrelated calls reached
// the old directory later: a clone written into an earlier volume's archive,
// a snapshot of d.old taken as d (issue #26). So a session remembers
// directories by path only within a path scope: one operation (a tree copy)
// that asked for it, and only until that operation ends. Every call made
// outside a scope looks its path up from the root.
//
// Within a scope, what a directory's path leads to is fixed at its first
// lookup: a copy reads each directory it entered even if it is moved while
// the copy runs, which is what a copy that is not atomic can promise, and
// it never mixes two directories under one path.

// pathScope is one operation's lifetime. It has a field so that every scope
// is a distinct pointer: sessions tell scopes apart by it.
type pathScope struct {
	ended atomic.Bool
}

type pathScopeKey struct{}

// WithPathScope returns a context under which the calls of one operation
// may share what their sessions looked up by path, and the function that
// ends the scope: after it, nothing looked up during the scope is used
// again, by any call. The operation must not rename or remove, through
// another session, a directory it went through (its own session's Rename,
// Remove and RemoveAll forget what they moved).
func WithPathScope(ctx context.Context) (context.Context, func()) {
	s := &pathScope{}
	return context.WithValue(ctx, pathScopeKey{}, s), func() { s.ended.Store(true) }
}

// liveScope is ctx's path scope, nil when it has none or it ended.
func liveScope(ctx context.Context) *pathScope {
	s, _ := ctx.Value(pathScopeKey{}).(*pathScope)
	if s == nil || s.ended.Load() {
		return nil
	}
	return s
}

// maxScopedDirs bounds the directories a session remembers in a scope: a
// tree copy goes a directory at a time, and a few levels of parents are
// all it comes back to.
const maxScopedDirs = 256

// ScopedDirs are the directory handles one session looked up by path in
// one scope: a protocol client whose directories have handles (NFSv3)
// keeps them here, so the rule above is written once.
type ScopedDirs struct {
	scope *pathScope
	dirs  map[string][]byte
}

// Of returns the handles kept for ctx's scope, nil when ctx has no live
// scope; handles of another scope are dropped first.
func (d *ScopedDirs) Of(ctx context.Context) map[string][]byte {
	s := liveScope(ctx)
	if s == nil {
		return nil
	}
	if d.scope != s || d.dirs == nil || len(d.dirs) >= maxScopedDirs {
		d.scope, d.dirs = s, map[string][]byte{}
	}
	return d.dirs
}

// Forget drops rel and everything below it: the session moved or removed it.
func (d *ScopedDirs) Forget(rel string) {
	rel = strings.Join(SplitRel(rel), "/")
	for p := range d.dirs {
		if rel == "" || p == rel || strings.HasPrefix(p, rel+"/") {
			delete(d.dirs, p)
		}
	}
}

// Reset drops them all (a handle turned out stale).
func (d *ScopedDirs) Reset() { d.scope, d.dirs = nil, nil }
