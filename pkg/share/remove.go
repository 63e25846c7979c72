package share

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"slices"
	"sync"
	"sync/atomic"
)

// ErrIsDir says an entry a removal took for a file is a directory: the
// walk looks at it again as one.
var ErrIsDir = errors.New("is a directory")

// Remover is what one protocol gives RemoveTree, the one removal walk
// behind every Client's RemoveAll: the steps, each one request where the
// protocol allows, and never a decision. Directories are named by refs:
// what the protocol reaches a directory by again without a lookup (an NFS
// file handle, an SMB path). Names are single components. Errors wrap
// fs.ErrNotExist, ErrNotEmpty, ErrUnavailable and the context's errors as
// Client's do.
type Remover interface {
	// Top looks rel up as a removal sees it, a link staying a link: the
	// ref of its directory, its own ref (a directory's) and its attributes,
	// with the ID of a directory. fs.ErrNotExist when it is missing.
	Top(ctx context.Context, rel string) (parent, self string, a Attr, err error)
	// Lookup looks name up in dir, a link staying a link.
	Lookup(ctx context.Context, dir, name string) (string, Attr, error)
	// Pages lists dir a page at a time, never the whole directory in
	// memory, with each entry's attributes (TypeOther and ID 0 when the
	// server gave none) and its ref in Attr.Handle where the listing gave
	// one. fn answers how many of the page's entries it removed: a protocol
	// whose cookies do not survive removals reads again from the start
	// after a page that removed any.
	Pages(ctx context.Context, dir string, fn func([]DirEntry) (removed int, err error)) error
	// Unlink removes name from dir when it is not a directory; a link goes
	// as a link, never what it leads to. A directory: an error wrapping
	// ErrIsDir, fs.ErrExist or ErrNotEmpty.
	Unlink(ctx context.Context, dir, name string) error
	// Rmdir removes the empty directory name from dir; ErrNotEmpty when
	// it has entries.
	Rmdir(ctx context.Context, dir, name string) error
	// OpenUp gives the owner read, write and search permission on the
	// directory dir (attributes a), so a read-only tree can be emptied
	// even where the server squashes root.
	OpenUp(ctx context.Context, dir string, a Attr) error
	// DirIDs is Asker's: the IDs of the directories at paths.
	DirIDs(ctx context.Context, paths []string) ([]uint64, error)
	// Marked answers whether the directory dir (a path from the session's
	// root) holds an entry named by the decimal id: the mark of another
	// volume's root. A missing dir marks nothing.
	Marked(ctx context.Context, dir string, id uint64) (bool, error)
}

// BatchRemover is a Remover that unlinks many names of one directory in
// one request (an NFSv4.1 COMPOUND, an SMB2 compound).
type BatchRemover interface {
	// UnlinkAll unlinks names from dir, as Unlink does each, as many as one
	// request takes (at least one). errs holds the outcome of each name it
	// sent, in order: ErrSkipped for one the request did not get to (a
	// COMPOUND stops at a failure), to be sent again. err is a failure
	// about no name (the directory, the session).
	UnlinkAll(ctx context.Context, dir string, names []string) (errs []error, err error)
}

// ParallelRemover is a Remover that can spread a large directory's
// entries over more than one request in flight: sessions borrowed from
// the pool (NFSv3), or requests multiplexed on its own session (SMB).
type ParallelRemover interface {
	// Workers returns Removers that work beside this one, asked once per
	// walk when it first meets a large page (none: the walk goes on
	// alone). release returns them, with each one's last error, when the
	// walk ends.
	Workers(ctx context.Context) (ws []Remover, release func(errs []error))
}

// removePasses bounds how often one directory is emptied again when it
// will not go: entries a writer adds meanwhile are taken by the next pass.
const removePasses = 5

// parallelMin is the smallest page of entries worth handing to workers.
const parallelMin = 32

// RemoveTree removes rel and everything below it through r, under the
// Guard's rule: a link is removed as a link and never followed, and a
// directory the guard refuses (another volume's, one above rel, the
// driver's metadata, a loop, another file system) is never entered or
// removed, and leaves rel in place with an error wrapping ErrLeftBehind.
// A missing rel is not an error. It is Client.RemoveAll's implementation
// for every protocol.
func RemoveTree(ctx context.Context, r Remover, rel string, opts RemoveOptions) error {
	parts := SplitRel(rel)
	if len(parts) == 0 {
		return fmt.Errorf("refusing to remove the share's base directory: %w", fs.ErrPermission)
	}
	name := parts[len(parts)-1]
	parent, self, top, err := r.Top(ctx, rel)
	if err != nil {
		return ignoreMissing(fmt.Errorf("remove %s: %w", rel, err))
	}
	if top.Type != TypeDir {
		// A file, or a link the server shows as one: the name goes,
		// never what a link leads to.
		if err := r.Unlink(ctx, parent, name); err != nil {
			return ignoreMissing(fmt.Errorf("remove %s: %w", rel, err))
		}
		countRemoved(ctx)
		return nil
	}
	if opts.RootID != 0 && top.ID != 0 && top.ID != opts.RootID {
		return fmt.Errorf("remove %s: it is no longer the directory that was checked (a link swapped in?): left alone: %w", rel, ErrLeftBehind)
	}
	w := &removal{guard: Guard{Top: rel, Protect: opts.Protect, FSID: top.FSID}, foreign: opts.Foreign}
	// A top with the ID the caller checked is that volume's own root,
	// whose mark the caller took away: only a top it could not check
	// needs the look-up, a request of its own.
	if opts.RootID == 0 && top.ID != 0 {
		if foreign, err := (removalAsker{r, w.foreign}).Foreign(ctx, top.ID); err != nil {
			return fmt.Errorf("remove %s: %w", rel, err)
		} else if foreign {
			return fmt.Errorf("remove %s: it is another volume's directory (a link the server resolves?): left alone: %w", rel, ErrLeftBehind)
		}
	}
	defer w.release()
	if err := w.removeDir(ctx, r, parent, name, self, top, []uint64{top.ID}, false); err != nil {
		return ignoreMissing(fmt.Errorf("remove %s: %w", rel, err))
	}
	return nil
}

func ignoreMissing(err error) error {
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	return err
}

// removal is one RemoveTree.
type removal struct {
	guard   Guard
	foreign string // directory of foreign-root marks; "" for none

	// The workers, borrowed on the first large page by the walk's own
	// goroutine (workers never borrow), returned at the end.
	tried   bool
	workers []Remover
	errs    []error
	give    func([]error)
}

func (w *removal) release() {
	if w.give != nil {
		w.give(w.errs)
	}
}

// removalAsker asks the guard's questions through one worker's Remover.
type removalAsker struct {
	r       Remover
	foreign string
}

func (a removalAsker) DirIDs(ctx context.Context, paths []string) ([]uint64, error) {
	return a.r.DirIDs(ctx, paths)
}

// SubdirIDs lists dir through the Remover's own steps.
func (a removalAsker) SubdirIDs(ctx context.Context, dir string) ([]uint64, error) {
	_, self, at, err := a.r.Top(ctx, dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil || at.Type != TypeDir {
		return nil, err
	}
	var ids []uint64
	err = a.r.Pages(ctx, self, func(page []DirEntry) (int, error) {
		for _, e := range page {
			if e.Attr.Type == TypeDir {
				ids = append(ids, e.Attr.ID)
			}
		}
		return 0, nil
	})
	return ids, err
}

func (a removalAsker) Foreign(ctx context.Context, id uint64) (bool, error) {
	if a.foreign == "" || id == 0 {
		return false, nil
	}
	return a.r.Marked(ctx, a.foreign, id)
}

// removeDir empties and removes the directory name (ref, attributes a) of
// parent, in passes: entries created while it runs make Rmdir fail with
// ErrNotEmpty, and the next pass takes them. A pass that removed nothing
// ends it when it left directories alone, or when the pass before removed
// nothing either (the server hides entries: Samba does not list links that
// lead outside the share, and refuses to remove a directory that holds
// one): another pass cannot help. ancestors holds its own ID and those of
// the directories the walk came through.
func (w *removal) removeDir(ctx context.Context, r Remover, parent, name, ref string, a Attr, ancestors []uint64, inWorker bool) error {
	idle := false
	for range removePasses {
		removed, skipped, err := w.empty(ctx, r, ref, a, ancestors, inWorker)
		a.Mode |= 0o700 // empty opened it up, if it had to: not again
		if err != nil {
			return err
		}
		err = r.Rmdir(ctx, parent, name)
		if err == nil {
			countRemoved(ctx)
			return nil
		}
		if !errors.Is(err, ErrNotEmpty) && !errors.Is(err, fs.ErrExist) {
			return err
		}
		switch {
		case removed > 0:
			idle = false
		case skipped > 0:
			return fmt.Errorf("%s holds %d directories that are not this volume's, left alone: %w", name, skipped, ErrLeftBehind)
		case idle:
			return fmt.Errorf("%s holds entries the server does not let this client see or remove: %w", name, ErrLeftBehind)
		default:
			idle = true
		}
	}
	return fmt.Errorf("%s keeps getting new entries: %w", name, ErrNotEmpty)
}

// empty removes what the directory ref holds, page by page, so memory
// stays one page per directory level however large the directory is. It
// returns how many entries it removed and how many directories it left
// alone as not this volume's.
func (w *removal) empty(ctx context.Context, r Remover, ref string, a Attr, ancestors []uint64, inWorker bool) (removed, skipped int, err error) {
	if a.HasMode && a.Mode&0o700 != 0o700 {
		if err := r.OpenUp(ctx, ref, a); err != nil {
			return 0, 0, err
		}
	}
	err = r.Pages(ctx, ref, func(page []DirEntry) (int, error) {
		rm, sk, err := w.page(ctx, r, ref, page, ancestors, inWorker)
		removed, skipped = removed+rm, skipped+sk
		return rm, err
	})
	return removed, skipped, err
}

// page removes the entries of one page of the directory dir: everything
// that is not a directory first (many to a request where r batches), then
// the directories one by one, each with everything below it. A large page
// is spread over workers, once per walk borrowed; below a worker's entry,
// it works alone.
func (w *removal) page(ctx context.Context, r Remover, dir string, entries []DirEntry, ancestors []uint64, inWorker bool) (removed, skipped int, err error) {
	if !inWorker && len(entries) >= parallelMin {
		if ws := w.borrow(ctx, r); len(ws) > 0 {
			return w.parallel(ctx, r, ws, dir, entries, ancestors)
		}
	}
	var names []string
	var dirs []DirEntry
	for _, e := range entries {
		if e.Attr.Type == TypeDir {
			dirs = append(dirs, e)
		} else {
			// Files, links, and entries whose attributes the server
			// would not give: Unlink refuses a directory, which is then
			// looked at as one.
			names = append(names, e.Name)
		}
	}
	removed, more, err := w.unlink(ctx, r, dir, names)
	if err != nil {
		return removed, 0, err
	}
	for _, e := range append(dirs, more...) {
		ok, left, err := w.child(ctx, r, dir, e, ancestors, inWorker)
		if err != nil {
			return removed, skipped, err
		}
		if ok {
			removed++
		}
		if left {
			skipped++
		}
	}
	return removed, skipped, nil
}

// unlink removes names from dir. Those that turn out to be directories
// come back, looked up, for the walk to enter.
func (w *removal) unlink(ctx context.Context, r Remover, dir string, names []string) (removed int, dirs []DirEntry, err error) {
	br, batches := r.(BatchRemover)
	for len(names) > 0 {
		var errs []error
		if batches {
			if errs, err = br.UnlinkAll(ctx, dir, names); err != nil {
				return removed, dirs, err // the request as a whole failed
			}
			if len(errs) == 0 || len(errs) > len(names) || errors.Is(errs[0], ErrSkipped) {
				return removed, dirs, fmt.Errorf("%s: %d outcomes to %d names, the first skipped: %w", dir, len(errs), len(names), ErrUnavailable)
			}
		} else {
			errs = []error{r.Unlink(ctx, dir, names[0])}
		}
		sent := names[:len(errs)]
		names = names[len(errs):]
		var again []string
		for i, err := range errs {
			name := sent[i]
			switch {
			case err == nil:
				countRemoved(ctx)
				removed++
			case errors.Is(err, ErrSkipped):
				again = append(again, name)
			case errors.Is(err, fs.ErrNotExist):
			case errors.Is(err, ErrIsDir) || errors.Is(err, ErrNotEmpty) || errors.Is(err, fs.ErrExist):
				ref, a, err := r.Lookup(ctx, dir, name)
				if errors.Is(err, fs.ErrNotExist) {
					continue
				}
				if err != nil {
					return removed, dirs, fmt.Errorf("%s: %w", name, err)
				}
				if a.Type != TypeDir {
					continue // swapped since: the next pass looks at it afresh
				}
				a.Handle = ref
				dirs = append(dirs, DirEntry{Name: name, Attr: a})
			default:
				return removed, dirs, fmt.Errorf("%s: %w", name, err)
			}
		}
		names = append(again, names...)
	}
	return removed, dirs, nil
}

// child removes the directory e of dir with everything below it, unless
// the guard refuses it: then it is never entered, never removed (removing
// the name could reach the target on a server that resolves links), and
// left reports it. ok is false when it was gone already.
func (w *removal) child(ctx context.Context, r Remover, dir string, e DirEntry, ancestors []uint64, inWorker bool) (ok, left bool, err error) {
	a := e.Attr
	why, err := w.guard.Refuse(ctx, removalAsker{r, w.foreign}, a, func(id uint64) bool { return slices.Contains(ancestors, id) })
	if err != nil || why != "" {
		return false, why != "", err
	}
	ref := a.Handle
	if ref == "" {
		var b Attr
		if ref, b, err = r.Lookup(ctx, dir, e.Name); err != nil {
			return false, false, ignoreMissing(err)
		}
		if b.Type != TypeDir || b.ID != a.ID {
			return false, false, nil // swapped since the listing: the next pass looks afresh
		}
	}
	below := append(slices.Clip(ancestors), a.ID)
	err = w.removeDir(ctx, r, dir, e.Name, ref, a, below, inWorker)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return false, false, nil
	case errors.Is(err, ErrLeftBehind):
		return false, true, nil
	}
	return err == nil, false, err
}

// borrow asks r for workers, once per walk.
func (w *removal) borrow(ctx context.Context, r Remover) []Remover {
	if !w.tried {
		w.tried = true
		if pr, ok := r.(ParallelRemover); ok {
			w.workers, w.give = pr.Workers(ctx)
			w.errs = make([]error, len(w.workers))
		}
	}
	return w.workers
}

// parallel removes entries of dir over r and the workers, each taking
// whole entries (a file, or a subdirectory's tree) and working alone
// below them.
func (w *removal) parallel(ctx context.Context, r Remover, ws []Remover, dir string, entries []DirEntry, ancestors []uint64) (int, int, error) {
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	jobs := make(chan DirEntry)
	var removed, skipped atomic.Int64
	work := func(r Remover) error {
		for e := range jobs {
			rm, sk, err := w.page(ctx, r, dir, []DirEntry{e}, ancestors, true)
			removed.Add(int64(rm))
			skipped.Add(int64(sk))
			if err != nil {
				cancel(err)
				// Drain, so the feeder never waits on a worker that quit.
				for range jobs {
				}
				return err
			}
		}
		return nil
	}
	var wg sync.WaitGroup
	for i, x := range ws {
		wg.Go(func() {
			if err := work(x); err != nil {
				w.errs[i] = err
			}
		})
	}
	wg.Go(func() { feed(ctx, jobs, entries) })
	_ = work(r)
	wg.Wait()
	return int(removed.Load()), int(skipped.Load()), context.Cause(ctx)
}
