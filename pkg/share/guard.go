package share

import (
	"context"
	"fmt"
	"path"
	"slices"
	"strings"
	"sync"
)

// Guard is the one rule every walk of a share obeys, deletes (RemoveTree)
// and copies (pkg/copytree) alike: it never enters a directory that
//   - is on another file system than the walk's top (a mount on the server),
//   - repeats the ID of a directory above it on the walk's path (a loop),
//   - lies above the walk's top, or is a protected one (the driver's
//     metadata), or
//   - is marked as another volume's root.
//
// The guard decides by file IDs, not names: a server that resolves links
// for its clients (Samba's default) shows a link as the directory it leads
// to, with that directory's ID, and a bind mount on the server shows one
// directory in two places. A directory whose ID the server does not give
// (0) is judged by its file system alone.
//
// One Guard serves one walk, from every worker of it: what it learns (the
// fenced IDs, read on the first subdirectory met; the IDs found to be
// other volumes' roots) is shared under a lock. Only positive answers about
// marks are kept, so its memory follows what it guards against, never the
// number of directories walked.
type Guard struct {
	// Top is the walk's top, from the session's root.
	Top string
	// Protect names directories below the session's root that are never
	// entered. A name ending in "/*" names every directory directly in
	// that one: the driver's holds, one per directory with volumes below
	// it, whose names anyone who knows a class's base can work out.
	Protect []string
	// FSID is the file system of the walk's top.
	FSID [2]uint64

	mu      sync.Mutex
	fenced  map[uint64]bool // nil until first needed
	foreign map[uint64]bool // IDs found marked
}

// Asker is how a Guard asks the server, on the session of the worker that
// wants to know.
type Asker interface {
	// DirIDs returns the file IDs of the directories at paths (from the
	// session's root), skipping those that do not exist.
	DirIDs(ctx context.Context, paths []string) ([]uint64, error)
	// Foreign answers whether the directory with this ID is marked as
	// another volume's root.
	Foreign(ctx context.Context, id uint64) (bool, error)
	// SubdirIDs returns the file IDs of the directories directly in dir
	// (from the session's root); none when dir does not exist.
	SubdirIDs(ctx context.Context, dir string) ([]uint64, error)
}

// Refuse says why the walk must not enter the directory a, or "" when it
// may. isAncestor says whether an ID is that of a directory the walk came
// through to reach a (its top included).
func (g *Guard) Refuse(ctx context.Context, ask Asker, a Attr, isAncestor func(id uint64) bool) (string, error) {
	if a.FSID != g.FSID {
		return "it is on another file system (a mount on the server)", nil
	}
	if a.ID == 0 {
		return "", nil
	}
	if isAncestor(a.ID) {
		return "it is one of its own ancestors (a loop)", nil
	}
	fenced, err := g.isFenced(ctx, ask, a.ID)
	if err != nil {
		return "", err
	}
	if fenced {
		return "it lies above the walk's top, or is the driver's metadata", nil
	}
	if foreign, err := g.isForeign(ctx, ask, a.ID); err != nil || foreign {
		return "it is another volume's root", err
	}
	return "", nil
}

// FencedPaths are the directories a walk from top never enters by rule:
// the session's root, every directory above top, and the protected ones.
func FencedPaths(top string, protect []string) []string {
	out := []string{""}
	parts := SplitRel(top)
	for i := 1; i < len(parts); i++ {
		out = append(out, path.Join(parts[:i]...))
	}
	for _, p := range protect {
		// "dir/*" fences dir too, which protect names on its own as
		// well: each path is looked up once.
		if p := strings.Join(SplitRel(strings.TrimSuffix(p, "/*")), "/"); !slices.Contains(out, p) {
			out = append(out, p)
		}
	}
	return out
}

// isFenced reads the fenced IDs on the first question, under the lock, so
// workers that meet subdirectories at once wait for one reading instead of
// each making one. A walk of files alone never asks.
func (g *Guard) isFenced(ctx context.Context, ask Asker, id uint64) (bool, error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.fenced == nil {
		ids, err := ask.DirIDs(ctx, FencedPaths(g.Top, g.Protect))
		if err != nil {
			return false, fmt.Errorf("look up the directories a walk must never enter: %w", err)
		}
		for _, p := range g.Protect {
			if dir, ok := strings.CutSuffix(p, "/*"); ok {
				sub, err := ask.SubdirIDs(ctx, strings.Join(SplitRel(dir), "/"))
				if err != nil {
					return false, fmt.Errorf("look up the directories in %s, which a walk must never enter: %w", dir, err)
				}
				ids = append(ids, sub...)
			}
		}
		g.fenced = map[uint64]bool{}
		for _, i := range ids {
			if i != 0 {
				g.fenced[i] = true
			}
		}
	}
	return g.fenced[id], nil
}

// isForeign asks outside the lock, so workers asking about different IDs
// do not wait for each other's round trips.
func (g *Guard) isForeign(ctx context.Context, ask Asker, id uint64) (bool, error) {
	g.mu.Lock()
	known := g.foreign[id]
	g.mu.Unlock()
	if known {
		return true, nil
	}
	foreign, err := ask.Foreign(ctx, id)
	if err != nil {
		return false, fmt.Errorf("look for the mark of directory %d: %w", id, err)
	}
	if foreign {
		g.mu.Lock()
		if g.foreign == nil {
			g.foreign = map[uint64]bool{}
		}
		g.foreign[id] = true
		g.mu.Unlock()
	}
	return foreign, nil
}
