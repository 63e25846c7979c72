// Package copytree copies one directory tree to another over user-space
// share sessions: what snapshots, restores and clones are. It keeps what a
// restore needs (contents, directories, symlinks as links, empty files,
// modes with setgid, numeric owners, modification times, SMB DOS
// attributes), streams file data in bounded chunks (a huge or sparse file is
// never held in memory, and zero-filled chunks are left as holes), and is
// idempotent: run again over a partial copy it skips what is complete and
// finishes the rest, so a copy cut short by a controller restart resumes.
//
// The walk of the source obeys the rules the delete walks obey: a link is
// copied as a link and never followed, and a directory is not entered when
// it repeats an ancestor's ID, lies above the source's top or in the
// driver's metadata, is marked as another volume's root, or is on another
// file system: the copy fails then (ErrIncomplete), as one without the
// directory would pass for the whole tree. Its memory follows the tree's
// depth, never its size (see Copy).
package copytree

import (
	"context"
	"errors"
	"fmt"
	"hash/maphash"
	"io"
	"io/fs"
	"path"
	"sync"
	"sync/atomic"
	"unicode/utf8"

	"golang.org/x/sync/errgroup"

	"github.com/fileshare-csi/fileshare-csi/pkg/share"
)

// ChunkSize is how much of a file one read and one write carry.
const ChunkSize = 1 << 20

// Pair is a source and a destination session a worker copies files with.
// They may be one session when both trees are on one share.
type Pair struct {
	Src, Dst share.TreeClient
}

// ErrIncomplete says the copy met a directory it may not enter (another
// volume's root, a directory above the copy, the driver's metadata, a loop,
// another file system): a copy without it would pass for the whole volume,
// so the copy fails. The driver answers FailedPrecondition.
var ErrIncomplete = errors.New("the copy would be incomplete")

// ErrTooDeep says the tree holds directories so deep and so wide at once
// that walking it would hold more listing entries than maxHeld (its paths
// counted as entries), more than maxDepth levels, or a path longer than
// maxPath: the copy fails (FailedPrecondition) rather than grow the
// controller's memory without bound, which would get it killed and fail
// every other call.
var ErrTooDeep = errors.New("the tree is too deep and wide to copy")

// maxHeld bounds the listing entries the walk holds at once, across the
// levels it is in (a page per level, about entryBytes an entry):
// a tree of ordinary shape (thousands of entries per directory, dozens of
// levels) holds a few thousand.
const maxHeld = 64 << 10

// entryBytes is about what one listing entry costs in memory. The paths
// of the directories the walk is in count against maxHeld as the entries
// their bytes would make: a chain's paths add up to its depth times its
// path's length, which maxPath alone left at hundreds of MiB for short
// names (16,000 levels of one-byte names).
const entryBytes = 300

// maxDepth bounds the levels the walk goes down: each costs some 8 KiB of
// the lister's stack (the walk recurses), which no path length bounds,
// and a pod nests directories as deep as it likes with mkdir and cd (the
// node's usage walk stops at the same depth).
const maxDepth = 512

// maxFolded bounds the names a copy into a caseless destination keeps to
// find two that differ only in case (claimName): two hashes each, some
// 10 MiB at the bound. Past it, names are not checked, and the log says
// so.
const maxFolded = 1 << 18

// maxPath bounds a path below the copy's top, in bytes. Every directory
// the walk is in keeps its source and destination paths, so a chain of
// directories costs its depth times its path's length: a tenant's chain of
// a thousand 255-byte names held hundreds of MiB. 32 KiB is more than SMB
// allows a path (32,767 characters) and eight times Linux's PATH_MAX;
// at it, the walk's paths hold a few MiB.
const maxPath = 32 << 10

// Sessions are what one copy works through. The lister only reads
// directories of the source, so a listing in progress never waits for the
// copying of its entries; each worker copies one file at a time. The lister
// must be a session of its own: a listing may hold its session while it
// hands out a page, and the copy of that page's entries needs the others.
// The first worker's sessions also make directories and look up what the
// walk may enter, between its files.
type Sessions struct {
	Lister  share.TreeClient
	Workers []Pair
}

// Options guard the walk of the source, as share.RemoveOptions guard a delete.
type Options struct {
	// Foreign says whether the directory with this file ID is another
	// volume's root (state.ForeignRoot), asked through a source session.
	Foreign func(ctx context.Context, c share.Client, id uint64) (bool, error)
	// Protect names directories never entered (the driver's metadata).
	Protect []string
	// TopID, when not 0, is the file ID the source directory must have:
	// a path that now leads elsewhere (a link swapped in) is not copied.
	TopID uint64
	// Log, when set, hears about what the copy leaves out.
	Log func(msg string, kv ...any)
	// PackTo, when set, names a file (from the destination session's root,
	// outside the destination tree) that the copy's small files go into
	// instead of files of their own (see pack.go): a snapshot's pack.
	PackTo string
	// UnpackFrom names such a file (from the source session's root) whose
	// files the copy makes in the destination, besides the source tree's
	// entries: a restore from a snapshot with a pack.
	UnpackFrom string
	// TopExists says the destination's top was made before the copy (a
	// restore's or a clone's volume): a top that is not there (the volume
	// was deleted meanwhile) stops the copy with fs.ErrNotExist instead of
	// being made again, with a copy in it that no record owns.
	TopExists bool
	// DstTopID, with TopExists and when not 0, is the file ID the
	// destination's top must have (its volume's recorded root): a link
	// swapped in for it is not written through.
	DstTopID uint64
	// Marks names the directory, from the destination session's root,
	// that holds the marks of other volumes' roots (state.RootsDir): a
	// removal of what an earlier run left in the destination never enters
	// one (share.RemoveOptions.Foreign).
	Marks string
	// Between is called by each worker before each file or batch it
	// takes, with the worker's own destination session (free between its
	// files): the caller's chance to use a session the copy holds, and to
	// stop the copy with an error. Nil: nothing.
	Between func(ctx context.Context, dst share.TreeClient) error
}

// between calls Options.Between, if any.
func (c *copier) between(ctx context.Context, w Pair) error {
	if c.opts.Between == nil {
		return nil
	}
	return c.opts.Between(ctx, w.Dst)
}

// Stats count what one copy did.
type Stats struct {
	Files, Dirs, Links int64
	// Bytes is file data copied; ServerSideBytes the part of it the server
	// copied without the data passing through the controller.
	Bytes, ServerSideBytes int64
	// Resumed counts entries already complete in the destination.
	Resumed int64
	// Skipped counts entries left out: objects a file share cannot
	// reproduce (devices, sockets, FIFOs), which hold no data. A directory
	// the walk may not enter fails the copy (ErrIncomplete).
	Skipped int64
}

// dirNode is a directory being copied, with its chain of ancestors (for
// the loop check) and the attributes to set once its contents are in.
// Only the directories on the walk's path and those whose files are still
// being copied are alive: memory follows the tree's depth and one listing
// page per level, never its number of directories.
type dirNode struct {
	src, dst string
	attr     share.Attr
	parent   *dirNode
	// fresh: this run made the destination directory, so nothing in it can
	// be complete already, and the per-entry check is skipped.
	fresh bool
	// pending counts what must end before the directory's attributes are
	// set: its own listing, each of its files a worker has, and each of
	// its subdirectories not finished.
	pending atomic.Int64
}

func (n *dirNode) repeats(id uint64) bool {
	for a := n; a != nil; a = a.parent {
		if a.attr.ID == id {
			return true
		}
	}
	return false
}

// fileJob is one file or link of a directory, for a worker.
type fileJob struct {
	n *dirNode
	e share.DirEntry
	// more are files of the same directory packed with e: read together
	// where the source reads many files at once (share.FilesReader).
	more []share.DirEntry
}

// Copy copies the directory from (on s.Lister's share) to the directory to
// (on the workers' destination share). to is made when missing and completed
// when it holds an earlier partial copy.
//
// The lister walks depth first and goes into each subdirectory as the
// listing meets it, while the workers copy the files it hands them; a
// directory's attributes are set when the last of its files and
// subdirectories is done (its time changes whenever an entry is made in
// it). A restore's pack is unpacked before the walk, so no directory has
// to wait for it.
func Copy(ctx context.Context, s Sessions, from, to string, opts Options) (Stats, error) {
	if s.Lister == nil || len(s.Workers) == 0 {
		return Stats{}, errors.New("copytree: no sessions")
	}
	// The copy's sessions may remember the directories they looked up
	// while it runs (a directory's files are made one call each below the
	// same parent), and forget them when it ends: a later copy on the same
	// pooled session looks every path up again.
	ctx, endScope := share.WithPathScope(ctx)
	defer endScope()
	c := &copier{s: s, opts: opts, top: path.Clean(to)}
	top, err := s.Lister.Lstat(ctx, from)
	if err != nil {
		return Stats{}, fmt.Errorf("source %s: %w", from, err)
	}
	if top.Type != share.TypeDir {
		return Stats{}, fmt.Errorf("source %s is a %s, not a directory: %w", from, top.Type, fs.ErrInvalid)
	}
	if !isTop(top, opts.TopID) {
		return Stats{}, fmt.Errorf("source %s is no longer the directory it was made as (a link or another directory in its place): not copied: %w", from, fs.ErrInvalid)
	}
	c.guard = share.Guard{Top: from, Protect: opts.Protect, FSID: top.FSID}
	dst := s.Workers[0].Dst
	if share.CaseInsensitive(dst) {
		c.folded, c.foldedSeed = map[uint64]uint64{}, maphash.MakeSeed()
	}
	if opts.TopExists {
		d, err := dst.Lstat(ctx, to)
		if err != nil {
			return c.stats(), fmt.Errorf("destination %s: %w", to, err)
		}
		if d.Type != share.TypeDir || !isTop(d, opts.DstTopID) {
			return c.stats(), fmt.Errorf("destination %s is a %s, not the directory it was made as (a link or another directory in its place?): nothing is written there: %w", to, d.Type, fs.ErrInvalid)
		}
	}
	if c.topFresh, err = c.makeDir(ctx, dst, c.top, top); err != nil {
		return c.stats(), err
	}
	if !c.topFresh {
		// A top that is there but empty (a restore's or a clone's new
		// volume, which nothing but the copy writes into before it is
		// answered) holds nothing from an earlier run either: no file
		// needs a look before it is written.
		if c.topFresh, err = empty(ctx, dst, to); err != nil {
			return c.stats(), err
		}
	}
	if opts.UnpackFrom != "" {
		if err := c.unpack(ctx); err != nil {
			return c.stats(), err
		}
	}
	if opts.PackTo != "" {
		if c.pk, err = c.startPacker(ctx, dst, opts.PackTo); err != nil {
			return c.stats(), err
		}
		defer func() {
			if c.pk != nil {
				_ = c.pk.finish(false)
			}
		}()
	}
	g, gctx := errgroup.WithContext(ctx)
	jobs := make(chan fileJob)
	for _, w := range c.s.Workers {
		g.Go(func() error {
			for j := range jobs {
				if err := c.between(gctx, w); err != nil {
					return err
				}
				if j.more != nil {
					if err := c.packGroup(gctx, w, j.n, append([]share.DirEntry{j.e}, j.more...)); err != nil {
						return err
					}
					continue
				}
				if err := c.copyEntry(gctx, w, j.n, j.e); err != nil {
					return err
				}
				if err := c.release(gctx, j.n); err != nil {
					return err
				}
			}
			return nil
		})
	}
	g.Go(func() error {
		defer close(jobs)
		return c.walk(gctx, &dirNode{src: from, dst: c.top, attr: top, fresh: c.topFresh}, jobs)
	})
	if err := g.Wait(); err != nil {
		return c.stats(), err
	}
	if err := ctx.Err(); err != nil {
		return c.stats(), err
	}
	// The source is read by path, and nothing holds it: one deleted, or
	// replaced by another directory (its path given to another claim),
	// while it was copied was not all read from itself. Nothing is
	// committed then (the pack neither).
	if now, err := s.Lister.Lstat(ctx, from); err != nil || !isTop(now, opts.TopID) {
		return c.stats(), fmt.Errorf("the source %s is no longer the directory the copy began in (deleted or replaced meanwhile; err %v): nothing is committed: %w", from, err, share.ErrUnavailable)
	}
	if c.pk != nil {
		err := c.pk.finish(true)
		c.pk = nil
		if err != nil {
			return c.stats(), err
		}
	}
	return c.stats(), nil
}

// isTop says whether a, the source's top as looked up, is the directory
// the copy is of (Options.TopID; 0, or a server that tells no ID: any).
func isTop(a share.Attr, want uint64) bool { return want == 0 || a.ID == 0 || a.ID == want }

type copier struct {
	s        Sessions
	opts     Options
	top      string  // the destination directory, from its session's root
	topFresh bool    // this run made top: nothing below it is from an earlier run
	pk       *packer // where small files go, with Options.PackTo
	held     int     // listing entries the walk holds (the lister's goroutine only)
	// guard is the rule of every walk (share.Guard): the directories the
	// copy may not enter.
	guard share.Guard
	// dstGuard is the same rule for the destination's directories that an
	// earlier run left (see ownDir), made on the first one met: only a
	// resumed copy meets one, so a fresh copy pays no round trip for it.
	dstMu    sync.Mutex
	dstGuard *share.Guard
	// folded holds, for a hash of each destination path the copy makes or
	// finds complete, folded (share.FoldCase), a hash of the path as it
	// is, when the destination takes names differing only in case for one
	// name (claimName). nil: it does not.
	folded     map[uint64]uint64
	foldedSeed maphash.Seed
	foldedMu   sync.Mutex
	foldedFull sync.Once

	noServerCopy atomic.Bool // set once a server said it cannot copy
	ownersLost   sync.Once
	noDOS        sync.Once

	files, dirs, links, bytes, serverBytes, resumed, skipped atomic.Int64
}

// errNotEmpty stops a listing at its first entry.
var errNotEmpty = errors.New("not empty")

// empty says whether the directory rel has no entries.
func empty(ctx context.Context, dst share.TreeClient, rel string) (bool, error) {
	err := dst.ReadDir(ctx, rel, func(page []share.DirEntry) error {
		if len(page) > 0 {
			return errNotEmpty
		}
		return nil
	})
	if errors.Is(err, errNotEmpty) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("list %s: %w", rel, err)
	}
	return true, nil
}

func (c *copier) stats() Stats {
	return Stats{
		Files: c.files.Load(), Dirs: c.dirs.Load(), Links: c.links.Load(),
		Bytes: c.bytes.Load(), ServerSideBytes: c.serverBytes.Load(),
		Resumed: c.resumed.Load(), Skipped: c.skipped.Load(),
	}
}

func (c *copier) log(msg string, kv ...any) {
	if c.opts.Log != nil {
		c.opts.Log(msg, kv...)
	}
}

// walk lists n a page at a time: its files and links go to the workers,
// and each subdirectory is made in the destination and walked at once,
// before the rest of the page, so the walk holds one page per level.
func (c *copier) walk(ctx context.Context, n *dirNode, jobs chan<- fileJob) error {
	n.pending.Store(1) // the listing itself
	var inner error    // an error of the walk below, already worded
	// n's paths stay in memory until the walk below it is done.
	paths := (len(n.src)+len(n.dst))/entryBytes + 1
	if c.held+paths > maxHeld {
		return fmt.Errorf("directory %.256s: the walk would hold more than %d listing entries' worth of memory at once (%d levels deep, the paths of each level and the rest of a listing page at each); a tree this deep is not copied: %w", n.src, maxHeld, n.depth(), ErrTooDeep)
	}
	c.held += paths
	defer func() { c.held -= paths }()
	lb, buffers := c.s.Lister.(share.ListingBuffer)
	charged := 0 // what this directory's listing holds besides its pages
	defer func() { c.held -= charged }()
	list := c.s.Lister.ReadDir
	if il, ok := c.s.Lister.(share.IDLister); ok && n.attr.ID != 0 {
		// The guard judged the directory a listing showed; a server that
		// resolves links opens whatever the path leads to now.
		list = func(ctx context.Context, rel string, fn func([]share.DirEntry) error) error {
			return il.ReadDirOf(ctx, rel, n.attr.ID, fn)
		}
	}
	err := list(ctx, n.src, func(page []share.DirEntry) error {
		if buffers && charged == 0 {
			if full, extra := lb.ListingBuffer(); len(page) >= full {
				charged = extra
				c.held += extra
			}
		}
		if c.held+len(page) > maxHeld {
			inner = fmt.Errorf("directory %s: the walk would hold more than %d listing entries at once (%d levels deep, the rest of a listing page at each); a tree this deep and this wide at once is not copied: %w", n.src, maxHeld, n.depth(), ErrTooDeep)
			return inner
		}
		// The page stays in memory until the walk below it is done.
		c.held += len(page)
		inner = c.walkPage(ctx, n, page, jobs)
		c.held -= len(page)
		return inner
	})
	if err != nil {
		if errors.Is(err, share.ErrChanged) {
			return fmt.Errorf("directory %s was replaced while the copy ran (a link the server resolves, to another directory); a copy without it would be incomplete: %w: %w", n.src, ErrIncomplete, err)
		}
		if err != inner && ctx.Err() == nil {
			err = fmt.Errorf("list %s: %w", n.src, err)
		}
		return err
	}
	return c.release(ctx, n)
}

// walkPage hands a page's files to the workers and walks its directories.
// Files bound for the pack go in groups where the source reads many at once.
func (c *copier) walkPage(ctx context.Context, n *dirNode, page []share.DirEntry, jobs chan<- fileJob) error {
	size, per := 0, 1
	if fr, ok := c.s.Workers[0].Src.(share.FilesReader); ok && c.pk != nil {
		size, per = fr.FilesLimit()
	}
	var group []share.DirEntry
	send := func(j fileJob, files int) error {
		n.pending.Add(int64(files))
		select {
		case jobs <- j:
			return nil
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	flush := func() error {
		var err error
		switch len(group) {
		case 0:
		case 1:
			err = send(fileJob{n: n, e: group[0]}, 1)
		default:
			err = send(fileJob{n: n, e: group[0], more: group[1:]}, len(group))
		}
		group = nil
		return err
	}
	for _, e := range page {
		if e.Attr.Size < 0 {
			// A broken server: no length to copy by (and a buffer made
			// of it would take the controller down).
			return fmt.Errorf("%s: the server listed a size of %d bytes: %w", path.Join(n.src, e.Name), e.Attr.Size, share.ErrUnavailable)
		}
		// A file bound for the pack keeps its name there (a restore
		// claims it); one left out of the copy has none.
		// (Its paths are joined only for a caseless destination: this
		// runs for every entry, and a deep tree's paths are long.)
		if c.folded != nil && e.Attr.Type != share.TypeOther && (c.pk == nil || e.Attr.Type != share.TypeFile || !packable(e.Attr)) {
			if err := c.claimName(n.dst, e.Name, n.src); err != nil {
				return err
			}
		}
		if per > 1 && e.Attr.Type == share.TypeFile && packable(e.Attr) && e.Attr.Size <= int64(size) {
			if group = append(group, e); len(group) == per {
				if err := flush(); err != nil {
					return err
				}
			}
			continue
		}
		if e.Attr.Type != share.TypeDir {
			if err := send(fileJob{n: n, e: e}, 1); err != nil {
				return err
			}
			continue
		}
		child, err := c.enter(ctx, n, e)
		if err != nil {
			return err
		}
		n.pending.Add(1)
		if err := c.walk(ctx, child, jobs); err != nil {
			return err
		}
	}
	return flush()
}

// claimName takes the destination entry name in dir (from the source
// directory srcDir) for the copy. A destination that takes names
// differing only in case for one name (SMB) cannot hold two such entries
// of one directory: the second's create would find the first there and
// replace it, or a resumed copy would take the one for the other's earlier
// copy, and the copy would pass for whole without one of them. The copy
// fails instead, and names the entry to rename. Every entry of the tree
// and of a restore's pack is claimed, in whatever order, each run, and the
// directories of the pack's paths too. A name claimed again exactly as it
// was is the same entry, not a clash: a directory the unpack made, which
// the walk meets in the tree, or an entry a listing showed twice (a
// directory changing while it is listed).
func (c *copier) claimName(dir, name, srcDir string) error {
	if c.folded == nil {
		return nil
	}
	// Hashed a character at a time: no folded copy of a long path is
	// made for each entry.
	var hash maphash.Hash
	hash.SetSeed(c.foldedSeed)
	var buf [utf8.UTFMax]byte
	for _, r := range dir {
		hash.Write(utf8.AppendRune(buf[:0], share.FoldRune(r)))
	}
	hash.WriteByte(0) // in no name
	for _, r := range name {
		hash.Write(utf8.AppendRune(buf[:0], share.FoldRune(r)))
	}
	folded := hash.Sum64()
	hash.Reset()
	hash.WriteString(dir)
	hash.WriteByte(0)
	hash.WriteString(name)
	exact := hash.Sum64()
	c.foldedMu.Lock()
	defer c.foldedMu.Unlock()
	if was, ok := c.folded[folded]; ok {
		if was == exact {
			return nil
		}
		return fmt.Errorf("%s: another entry of its directory in the copy has a name that differs from it only in case, which the destination takes for the same name, so the copy could hold only one of them: rename one of them: %w", path.Join(srcDir, name), ErrIncomplete)
	}
	if len(c.folded) >= maxFolded {
		c.foldedFull.Do(func() {
			c.log("the copy has more entries than are checked for names that differ only in case; the rest are not", "checked", maxFolded, "at", path.Join(srcDir, name))
		})
		return nil
	}
	c.folded[folded] = exact
	return nil
}

// depth is how many levels n lies below the top.
func (n *dirNode) depth() int {
	d := 0
	for ; n.parent != nil; n = n.parent {
		d++
	}
	return d
}

// release ends one of the things n waits for; the last one sets n's
// attributes and ends n's own part in its parent.
func (c *copier) release(ctx context.Context, n *dirNode) error {
	for ; n != nil; n = n.parent {
		if n.pending.Add(-1) != 0 {
			return nil
		}
		if err := c.setAttrs(ctx, c.s.Workers[0].Dst, n.dst, n.attr); err != nil {
			return err
		}
	}
	return nil
}

// enter decides whether the walk may go into the subdirectory e of n, and
// makes it in the destination when it may.
func (c *copier) enter(ctx context.Context, n *dirNode, e share.DirEntry) (*dirNode, error) {
	src := path.Join(n.src, e.Name)
	if len(src) > maxPath {
		return nil, fmt.Errorf("directory %s...: its path is longer than %d bytes (%d levels deep); a tree this deep is not copied: %w", src[:256], maxPath, n.depth()+1, ErrTooDeep)
	}
	if d := n.depth() + 1; d > maxDepth {
		return nil, fmt.Errorf("directory %.256s...: it is %d levels deep, more than the %d a copy goes down; a tree this deep is not copied: %w", src, d, maxDepth, ErrTooDeep)
	}
	why, err := c.guard.Refuse(ctx, asker{c.s.Workers[0].Src, c.opts.Foreign}, e.Attr, n.repeats)
	if err != nil {
		return nil, fmt.Errorf("check %s: %w", src, err)
	}
	if why != "" {
		// A copy without the directory would be taken for the whole
		// volume: it fails instead, and says what to move.
		return nil, fmt.Errorf("directory %s: %s; a copy without it would be incomplete, so there is none: move it out of the volume (a link the server resolves shows as one too): %w", src, why, ErrIncomplete)
	}
	child := &dirNode{src: src, dst: path.Join(n.dst, e.Name), attr: e.Attr, parent: n}
	if child.fresh, err = c.makeDir(ctx, c.s.Workers[0].Dst, child.dst, e.Attr); err != nil {
		return nil, err
	}
	// Below a top this run made, a directory already there was made by
	// this run's unpack: nothing in it is from an earlier run.
	child.fresh = child.fresh || c.topFresh
	return child, nil
}

// asker answers the guard's questions through the first worker's source
// session.
type asker struct {
	c       share.TreeClient
	foreign func(ctx context.Context, c share.Client, id uint64) (bool, error)
}

func (a asker) DirIDs(ctx context.Context, paths []string) ([]uint64, error) {
	var ids []uint64
	for _, p := range paths {
		fa, err := a.c.Lstat(ctx, p)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return nil, err
		}
		ids = append(ids, fa.ID)
	}
	return ids, nil
}

func (a asker) SubdirIDs(ctx context.Context, dir string) ([]uint64, error) {
	var ids []uint64
	err := a.c.ReadDir(ctx, dir, func(page []share.DirEntry) error {
		for _, e := range page {
			if e.Attr.Type == share.TypeDir {
				ids = append(ids, e.Attr.ID)
			}
		}
		return nil
	})
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	return ids, err
}

func (a asker) Foreign(ctx context.Context, id uint64) (bool, error) {
	if a.foreign == nil {
		return false, nil
	}
	return a.foreign(ctx, a.c, id)
}

// makeDir makes the destination directory, or accepts one an earlier run
// made (made is false then). Its final mode and time are set after its
// contents; until then it stays writable to the copy.
func (c *copier) makeDir(ctx context.Context, dst share.TreeClient, rel string, a share.Attr) (made bool, err error) {
	perm := fs.FileMode(0o700)
	if a.HasMode {
		perm |= a.Mode.Perm()
	}
	err = dst.Mkdir(ctx, rel, perm)
	if errors.Is(err, fs.ErrExist) {
		d, serr := dst.Lstat(ctx, rel)
		if serr != nil {
			return false, fmt.Errorf("make %s: %w", rel, serr)
		}
		if d.Type == share.TypeDir {
			if !c.topFresh && rel != c.top { // else this run's unpack made it
				if err := c.ownDir(ctx, dst, rel, d); err != nil {
					return false, err
				}
				c.resumed.Add(1)
			}
			return false, nil
		}
		if err := c.removeEntry(ctx, dst, rel, d); err != nil {
			return false, err
		}
		err = dst.Mkdir(ctx, rel, perm)
	}
	if err != nil {
		return false, fmt.Errorf("make %s: %w", rel, err)
	}
	c.dirs.Add(1)
	return true, nil
}

func (c *copier) copyEntry(ctx context.Context, w Pair, n *dirNode, e share.DirEntry) error {
	src, dst := path.Join(n.src, e.Name), path.Join(n.dst, e.Name)
	if e.Attr.HasMode && !e.Attr.HasOwner && e.Attr.OwnerName == "" {
		c.ownersLost.Do(func() {
			c.log("owners are not kept: the server does not say who owns its files", "path", src)
		})
	}
	switch e.Attr.Type {
	case share.TypeFile:
		return c.copyListedFile(ctx, w, n, e.Name, e.Attr)
	case share.TypeSymlink:
		return c.copyLink(ctx, w, src, dst, e.Attr, n.fresh)
	}
	c.skipped.Add(1)
	c.log("left an entry out of the copy: a file share cannot hold it", "path", src, "type", e.Attr.Type.String())
	return nil
}

// replacedTries bounds how often a file replaced between its listing and
// its copy is looked up again and copied as it is now.
const replacedTries = 3

// copyListedFile copies the file name of n, which its listing showed with
// attributes a. Where the server may resolve a link in a path
// (share.IDOpener), the path opens that file or fails with share.ErrChanged:
// the file was replaced since, by an application's rename over it, or its
// directory by a link to another. The directory is then listed again
// through a handle whose ID is checked (share.IDLister), which fails for a
// directory swapped, and a file replaced in it is copied as it is now, by
// its new ID: as a file written during the copy is copied after the write
// (an application that saves by renaming over its files would otherwise
// fail every snapshot taken while it runs). A file replaced again each
// time fails the copy.
func (c *copier) copyListedFile(ctx context.Context, w Pair, n *dirNode, name string, a share.Attr) error {
	src, dst := path.Join(n.src, name), path.Join(n.dst, name)
	for try := 1; ; try++ {
		err := c.copyFile(ctx, w, src, dst, a, n.fresh)
		if !errors.Is(err, share.ErrChanged) {
			return err
		}
		if try == replacedTries {
			return replaced(src, err)
		}
		now, found, lerr := relist(ctx, w.Src, n, name)
		if lerr != nil {
			return replaced(src, lerr)
		}
		if !found || now.Type != share.TypeFile {
			// Gone, or no longer a file, since: as a file deleted
			// during the copy, the copy fails.
			return replaced(src, err)
		}
		a = now
	}
}

// relist finds name in n's listing again, through a handle with n's file
// ID (a directory swapped since fails with share.ErrChanged).
func relist(ctx context.Context, src share.TreeClient, n *dirNode, name string) (share.Attr, bool, error) {
	il, ok := src.(share.IDLister)
	if !ok || n.attr.ID == 0 {
		return share.Attr{}, false, nil
	}
	var found share.Attr
	seen := false
	errFound := errors.New("found")
	err := il.ReadDirOf(ctx, n.src, n.attr.ID, func(es []share.DirEntry) error {
		for _, e := range es {
			if e.Name == name {
				found, seen = e.Attr, true
				return errFound
			}
		}
		return nil
	})
	if err != nil && !errors.Is(err, errFound) {
		return share.Attr{}, false, fmt.Errorf("list %s again: %w", n.src, err)
	}
	return found, seen, nil
}

// complete reports whether dst already holds a finished copy of a file
// whose source has attributes a: the time is set last, so a file cut short
// mid-copy never matches. there says whether anything is at rel.
func complete(ctx context.Context, dst share.TreeClient, rel string, a share.Attr) (done bool, d share.Attr, there bool, err error) {
	d, err = dst.Lstat(ctx, rel)
	if errors.Is(err, fs.ErrNotExist) {
		return false, d, false, nil
	}
	if err != nil {
		return false, d, false, err
	}
	return d.Type == a.Type && d.Size == a.Size && d.ModTime.Equal(a.ModTime), d, true, nil
}

// alreadyCopied says whether an earlier run left a complete copy at rel of
// the file with attributes a; anything else in its place goes (createNew).
func (c *copier) alreadyCopied(ctx context.Context, dst share.TreeClient, rel string, a share.Attr) (bool, error) {
	done, existing, there, err := complete(ctx, dst, rel, a)
	if err != nil {
		return false, fmt.Errorf("check %s: %w", rel, err)
	}
	if done {
		c.resumed.Add(1)
		return true, nil
	}
	if there {
		return false, c.removeEntry(ctx, dst, rel, existing)
	}
	return false, nil
}

func (c *copier) copyFile(ctx context.Context, w Pair, src, dst string, a share.Attr, fresh bool) error {
	if c.pk != nil && packable(a) {
		if !fresh {
			// An earlier run may have left this entry in the tree (a
			// larger file then, or a link): the pack's copy is the
			// one, and a restore would bring the tree's back over it.
			if err := c.removeAny(ctx, w.Dst, dst); err != nil {
				return err
			}
		}
		return c.packFile(ctx, w, src, dst, a)
	}
	if c.pk != nil {
		// Listed small (bound for the pack, so not claimed), it grew
		// before it was copied: it goes into the tree, and its name is
		// the tree's now.
		if err := c.claimName(path.Dir(dst), path.Base(dst), path.Dir(src)); err != nil {
			return err
		}
	}
	if !fresh {
		if done, err := c.alreadyCopied(ctx, w.Dst, dst, a); done || err != nil {
			return err
		}
	}
	out, err := c.createNew(ctx, w.Dst, dst, createPerm(a))
	if err != nil {
		return err
	}
	written, holes, err := c.copyData(ctx, w, src, dst, out, a)
	if err != nil {
		_ = out.Close(ctx)
		return err
	}
	if written < a.Size {
		// It shrank while being copied: the copy is what it had, never
		// padded to the listed size. (Its time is the listing's, older
		// than the shrink, so a resumed run copies it again.)
		a.Size = written
	}
	if err := c.finishFile(ctx, w.Dst, dst, out, a, holes); err != nil {
		return err
	}
	c.files.Add(1)
	c.bytes.Add(written)
	return nil
}

// createPerm is the mode a copied file is made with: writable to the copy
// until its own mode is set, with its close.
func createPerm(a share.Attr) fs.FileMode {
	perm := fs.FileMode(0o600)
	if a.HasMode {
		perm |= a.Mode.Perm()
	}
	return perm
}

// finishFile closes the copy rel of a file with attributes a and gives it
// those attributes; holes says its end was left unwritten, so its size
// must still be set (trailing zeros become a hole).
func (c *copier) finishFile(ctx context.Context, dst share.TreeClient, rel string, out share.FileWriter, a share.Attr, holes bool) error {
	if ac, ok := out.(share.AttrCloser); ok {
		mask := attrMask(a)
		if holes {
			mask |= share.SetSize
		}
		if err := c.tolerate(ac.CloseSettingAttr(ctx, a, mask), rel); err != nil {
			return fmt.Errorf("close %s: %w", rel, err)
		}
		return nil
	}
	if err := out.Close(ctx); err != nil {
		return fmt.Errorf("close %s: %w", rel, err)
	}
	if holes {
		if err := dst.SetAttr(ctx, rel, share.Attr{Size: a.Size}, share.SetSize); err != nil {
			return fmt.Errorf("size %s: %w", rel, err)
		}
	}
	return c.setAttrs(ctx, dst, rel, a)
}

// createNew makes rel a new file of the copy's, with perm. A file is
// only ever made where nothing is (share.TreeClient.Create): opening what
// is there would, on a server that resolves links for its clients
// (Samba's default), write through a link planted there into the file it
// leads to, which may be another volume's. Whatever is in the way (an
// earlier run's file, or what was put there since this run looked) goes
// by its name first, once.
func (c *copier) createNew(ctx context.Context, dst share.TreeClient, rel string, perm fs.FileMode) (share.FileWriter, error) {
	out, err := dst.Create(ctx, rel, perm)
	if errors.Is(err, fs.ErrExist) {
		if err := c.removeAny(ctx, dst, rel); err != nil {
			return nil, err
		}
		out, err = dst.Create(ctx, rel, perm)
	}
	if err != nil {
		return nil, fmt.Errorf("create %s: %w", rel, err)
	}
	return out, nil
}

// removeAny removes whatever an earlier run left at rel in the copy's own
// destination (nothing there is fine).
func (c *copier) removeAny(ctx context.Context, dst share.TreeClient, rel string) error {
	existing, err := dst.Lstat(ctx, rel)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil
	case err != nil:
		return fmt.Errorf("check %s: %w", rel, err)
	}
	return c.removeEntry(ctx, dst, rel, existing)
}

// removeEntry removes what an earlier run left at rel in the copy's own
// destination, which Lstat showed as existing: a file or a link by its
// name (a link never followed), a directory by the walk every removal
// obeys, after ownDir's check, never entering another volume's root or the
// driver's metadata.
func (c *copier) removeEntry(ctx context.Context, dst share.TreeClient, rel string, existing share.Attr) error {
	var err error
	if existing.Type == share.TypeDir {
		if err := c.ownDir(ctx, dst, rel, existing); err != nil {
			return err
		}
		err = dst.RemoveAll(ctx, rel, share.RemoveOptions{Foreign: c.opts.Marks, RootID: existing.ID, Protect: c.opts.Protect})
	} else if err = dst.Remove(ctx, rel); errors.Is(err, fs.ErrNotExist) {
		err = nil
	}
	if err != nil {
		return fmt.Errorf("replace %s (a %s): %w", rel, existing.Type, err)
	}
	return nil
}

// ownDir checks the directory d found at rel below the destination's top,
// where an earlier run may have left it, before the copy writes into it or
// removes it. On a server that resolves links for its clients (Samba's
// default), a link planted there shows as the directory it leads to, with
// its ID: the copy would write into, or empty, another volume, the
// driver's metadata or a directory above its own. The rule is every
// walk's (share.Guard), asked through the destination's session. A link
// to a directory none of those (inside another volume) cannot be told
// from one of the copy's own: data-safety.md's known limit.
func (c *copier) ownDir(ctx context.Context, dst share.TreeClient, rel string, d share.Attr) error {
	c.dstMu.Lock()
	if c.dstGuard == nil {
		top, err := dst.Lstat(ctx, c.top)
		if err != nil {
			c.dstMu.Unlock()
			return fmt.Errorf("destination %s: %w", c.top, err)
		}
		c.dstGuard = &share.Guard{Top: c.top, Protect: c.opts.Protect, FSID: top.FSID}
	}
	g := c.dstGuard
	c.dstMu.Unlock()
	// No ancestor check: a link to a directory of the destination's own
	// leads nowhere the copy may not write, and the walk follows the
	// source's tree, never the destination's, so it cannot loop.
	why, err := g.Refuse(ctx, asker{dst, c.opts.Foreign}, d, func(uint64) bool { return false })
	if err != nil {
		return fmt.Errorf("check %s: %w", rel, err)
	}
	if why != "" {
		return fmt.Errorf("%s, in the copy's destination, is not a directory of the copy's: %s (a link the server resolves, planted there, shows as one); it is left alone, and the copy cannot finish until an administrator removes it: %w", rel, why, ErrIncomplete)
	}
	return nil
}

// copyData fills out with src's size bytes: by the server when both are on
// one session and the server can, else streamed a chunk at a time, leaving
// chunks of zeros unwritten (holes). holes says whether the file's end
// was left unwritten, so its size must still be set.
func (c *copier) copyData(ctx context.Context, w Pair, src, dst string, out share.FileWriter, a share.Attr) (int64, bool, error) {
	size := a.Size
	if size == 0 {
		return 0, false, nil
	}
	if tried, err := c.copyOnServer(ctx, w, src, dst, out, size, a); tried {
		switch {
		case err == nil:
			c.serverBytes.Add(size)
			return size, false, nil
		case errors.Is(err, share.ErrStreamInstead):
		case errors.Is(err, errors.ErrUnsupported):
			c.noServerCopy.Store(true)
			c.log("the server cannot copy files itself; streaming them through the controller", "reason", err.Error())
		default:
			return 0, false, fmt.Errorf("server-side copy of %s: %w", src, err)
		}
	}
	in, err := openSource(ctx, w, src, a)
	if err != nil {
		return 0, false, err
	}
	if sh, ok := out.(share.SizeHinter); ok {
		sh.Expect(size)
	}
	defer in.Close(ctx)
	// As large as the file, up to a chunk: a copy of many small files must
	// not allocate and clear a whole chunk for each.
	buf := make([]byte, min(size, ChunkSize))
	var off, end int64 // end: just past the last byte written
	for off < size {
		want := buf
		if rest := size - off; rest < int64(len(want)) {
			want = want[:rest]
		}
		n, err := in.ReadAt(ctx, want, off)
		if n > 0 && !allZero(want[:n]) {
			if _, werr := out.WriteAt(ctx, want[:n], off); werr != nil {
				return off, false, fmt.Errorf("write %s: %w", dst, werr)
			}
			end = off + int64(n)
		}
		off += int64(n)
		if err == io.EOF {
			// The file shrank while being copied: copy what it has (the
			// caller sizes the copy to off).
			return off, end < off, nil
		}
		if err != nil {
			return off, false, fmt.Errorf("read %s: %w", src, err)
		}
		if n == 0 {
			return off, false, fmt.Errorf("read %s: no progress at offset %d: %w", src, off, io.ErrNoProgress)
		}
	}
	return off, end < size, nil
}

// openSource opens the source file a listing described by the handle
// the listing gave, where the client can, else by its path: where the
// server may resolve a link in the path (share.IDOpener), only when what
// it opens has the ID the listing gave. The walk checked the directory's
// ID as it listed it, but the directory can be swapped for a link to
// another volume before its files are opened, and each of its paths would
// then open that volume's file of the same name.
func openSource(ctx context.Context, w Pair, src string, a share.Attr) (share.FileReader, error) {
	var in share.FileReader
	var err error
	if eo, ok := w.Src.(share.EntryOpener); ok {
		in, err = eo.OpenEntry(ctx, src, a)
	} else if ido, ok := w.Src.(share.IDOpener); ok && a.ID != 0 {
		in, err = ido.OpenID(ctx, src, a.ID)
	} else {
		in, err = w.Src.Open(ctx, src)
	}
	if err != nil {
		return nil, fmt.Errorf("open %s: %w", src, err)
	}
	return in, nil
}

// replaced words copyListedFile's failure of a file the source's server
// kept opening as another than the listing showed (share.ErrChanged: its
// directory was swapped for a link since, or the file replaced each time)
// as the walk words a swapped directory: the copy fails, since one without
// the file would pass for the whole. Other errors pass as they are.
func replaced(src string, err error) error {
	if !errors.Is(err, share.ErrChanged) {
		return err
	}
	return fmt.Errorf("%s was replaced while the copy ran (its directory by a link the server resolves, or the file again each time it was looked up); a copy without it would be incomplete: %w: %w", src, ErrIncomplete, err)
}

// copyOnServer has the server copy the data where both files are on one
// session and the server may copy (not a sparse file: a server-side copy
// writes holes out), into the open handle where it can. tried is false
// where it was not asked.
func (c *copier) copyOnServer(ctx context.Context, w Pair, src, dst string, out share.FileWriter, size int64, a share.Attr) (tried bool, err error) {
	if share.TreeClient(w.Src) != w.Dst || a.Sparse || c.noServerCopy.Load() {
		return false, nil
	}
	if cw, ok := out.(share.CopyingWriter); ok {
		return true, cw.CopyFrom(ctx, src, a.ID, size)
	}
	if ssc, ok := w.Src.(share.ServerSideCopier); ok {
		if _, resolves := w.Src.(share.IDOpener); resolves && a.ID != 0 {
			// CopyData opens the source by its path, unchecked, on a
			// server that may lead it through a link: streamed, the
			// file is opened by its ID (openSource).
			return false, nil
		}
		return true, ssc.CopyData(ctx, src, dst, size)
	}
	return false, nil
}

func allZero(b []byte) bool {
	for _, x := range b {
		if x != 0 {
			return false
		}
	}
	return true
}

func (c *copier) copyLink(ctx context.Context, w Pair, src, dst string, a share.Attr, fresh bool) error {
	target, err := w.Src.Readlink(ctx, src)
	if err != nil {
		return fmt.Errorf("read link %s: %w", src, err)
	}
	var existing share.Attr
	if !fresh {
		existing, err = w.Dst.Lstat(ctx, dst)
	} else {
		err = fs.ErrNotExist
	}
	switch {
	case errors.Is(err, fs.ErrNotExist):
	case err != nil:
		return fmt.Errorf("check %s: %w", dst, err)
	case existing.Type == share.TypeSymlink:
		if t, err := w.Dst.Readlink(ctx, dst); err == nil && t == target {
			c.resumed.Add(1)
			return nil
		}
		fallthrough
	default:
		if err := c.removeEntry(ctx, w.Dst, dst, existing); err != nil {
			return err
		}
	}
	err = w.Dst.Symlink(ctx, target, dst)
	if errors.Is(err, fs.ErrExist) {
		// Made since the look: by an earlier try's request of this very
		// step that the server ran late (its process killed, or its
		// deadline cut it, just after it sent it). The same link is the
		// step done; anything else stays a failure.
		if t, rerr := w.Dst.Readlink(ctx, dst); rerr == nil && t == target {
			err = nil
		}
	}
	if err != nil {
		return fmt.Errorf("link %s: %w", dst, err)
	}
	// A link keeps its owner and time, in one call; its mode means nothing.
	mask := share.SetModTime
	if hasOwner(a) {
		mask |= share.SetOwner
	}
	if err := w.Dst.SetAttr(ctx, dst, a, mask); err != nil {
		return fmt.Errorf("set attributes of link %s: %w", dst, err)
	}
	c.links.Add(1)
	return nil
}

// setAttrs gives a copied file or directory the source's attributes in one
// call: the client sets the owner before the mode where a change of owner
// would clear setuid and setgid.
func (c *copier) setAttrs(ctx context.Context, dst share.TreeClient, rel string, a share.Attr) error {
	if err := c.tolerate(dst.SetAttr(ctx, rel, a, attrMask(a)), rel); err != nil {
		return fmt.Errorf("set attributes of %s: %w", rel, err)
	}
	return nil
}

// hasOwner says whether a carries an owner to set: numeric ids, or an
// NFSv4 server's names.
func hasOwner(a share.Attr) bool { return a.HasOwner || a.OwnerName != "" }

// attrMask names what a copy sets of a: its time, and its owner, mode and
// DOS attributes where the source has them.
func attrMask(a share.Attr) share.AttrMask {
	mask := share.SetModTime
	if hasOwner(a) {
		mask |= share.SetOwner
	}
	if a.HasMode {
		mask |= share.SetMode
	}
	if a.DOSAttributes != 0 {
		mask |= share.SetDOSAttributes
	}
	return mask
}

// tolerate lets a copy go on without DOS attributes where the server cannot
// store them, saying so once.
func (c *copier) tolerate(err error, rel string) error {
	if !errors.Is(err, share.ErrNoDOSAttributes) {
		return err
	}
	c.noDOS.Do(func() {
		c.log("DOS attributes are not kept: the destination's server cannot store them", "path", rel, "reason", err.Error())
	})
	return nil
}
