package share

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"strconv"
)

// nfs4Walk is one RemoveAll over NFSv4.1. NFSv4 shows a link as a link and
// LOOKUP never follows one, so REMOVE takes links away as links, as on v3.
// The walk keeps the other guards all the same, because a server can still
// show one directory in two places (a bind mount on the server, another
// export nested in this one): it never enters a directory on another file
// system than the export's, one whose ID it met above it, one above its
// top or protected, or one marked as another volume's root.
type nfs4Walk struct {
	c       *nfs4Client
	parts   []string // the walk's top, from the root
	protect []string
	// foreign is the handle of the directory of foreign-ID markers; nil
	// when there is none.
	foreign []byte
	fence   walkFence
}

// walkMask is what the walk reads of every entry: enough to decide, with
// no further look-up, whether to REMOVE it or enter it, and its handle.
var walkMask = attrMask(attrType, attrFSID, attrRdattrError, attrFilehandle, attrFileID, attrMode)

func (c *nfs4Client) RemoveAll(ctx context.Context, rel string, opts RemoveOptions) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	parts := splitRel(rel)
	if len(parts) == 0 {
		return fmt.Errorf("refusing to remove the share's base directory: %w", fs.ErrPermission)
	}
	w := &nfs4Walk{c: c, parts: parts, protect: opts.Protect}
	// One COMPOUND finds rel's parent, rel itself as LOOKUP sees it (a link
	// stays a link), and the foreign markers' directory with, when the
	// caller knows rel's ID, that ID's marker.
	var foreignParts []string
	if opts.Foreign != "" {
		foreignParts = splitRel(opts.Foreign)
	}
	ops, err := c.lookupOps(ctx, parts[:len(parts)-1], 4+len(foreignParts)+3)
	if err != nil {
		return ignoreMissing(fmt.Errorf("remove %s: %w", rel, err))
	}
	var parent, fh, foreignFH []byte
	var top attrs4
	name := parts[len(parts)-1]
	ops = append(ops, opGetfh(&parent), opLookup(name), opGetfh(&fh), opGetattr(walkMask, &top))
	foreignAt := len(ops)
	if foreignParts != nil {
		ops = append(ops, opPutfh(c.root))
		for _, p := range foreignParts {
			ops = append(ops, opLookup(p))
		}
		ops = append(ops, opGetfh(&foreignFH))
		if opts.RootID != 0 {
			ops = append(ops, opLookup(strconv.FormatUint(opts.RootID, 10)))
		}
	}
	err = c.run(ctx, ops)
	markedRoot := err == nil && foreignParts != nil && opts.RootID != 0
	var ne *NFS4Error
	switch {
	case err == nil:
	case errors.As(err, &ne) && ne.Index >= foreignAt && ne.Status == nfs4ErrNoent:
		// No markers' directory, or no marker for rel's ID.
	case errors.Is(err, fs.ErrNotExist) && (ne == nil || ne.Index < foreignAt):
		return nil
	default:
		return fmt.Errorf("remove %s: %w", rel, err)
	}
	w.foreign = foreignFH
	if top.Type != nf4Dir {
		// A file, or a link: REMOVE takes the name away, never the target.
		if err := c.run(ctx, []nfs4Op{opPutfh(parent), opRemove(name)}); err != nil {
			return ignoreMissing(fmt.Errorf("remove %s: %w", rel, err))
		}
		countRemoved(ctx)
		return nil
	}
	if opts.RootID != 0 && top.FileID != 0 && top.FileID != opts.RootID {
		return fmt.Errorf("remove %s: it is no longer the directory that was checked: left alone: %w", rel, ErrLeftBehind)
	}
	if top.FSID != c.rootFSID {
		return fmt.Errorf("remove %s: it is on another file system than the export (mounted there on the server): left alone: %w", rel, ErrLeftBehind)
	}
	foreign := markedRoot
	if !foreign && opts.RootID == 0 {
		if foreign, err = w.isForeign(ctx, top.FileID); err != nil {
			return fmt.Errorf("remove %s: %w", rel, err)
		}
	}
	if foreign {
		return fmt.Errorf("remove %s: it is another volume's directory: left alone: %w", rel, ErrLeftBehind)
	}
	if fh == nil {
		return fmt.Errorf("remove %s: LOOKUP gave no filehandle: %w", rel, ErrUnavailable)
	}
	if err := w.removeDir(ctx, parent, name, fh, top, []uint64{top.FileID}); err != nil {
		return ignoreMissing(fmt.Errorf("remove %s: %w", rel, err))
	}
	return nil
}

// removeDir empties and removes the directory name (handle fh, attributes
// a) in parent. Entries created while it runs make REMOVE fail with
// NOTEMPTY; it tries again a few times. ancestors holds its own ID and
// those of the directories the walk came through.
func (w *nfs4Walk) removeDir(ctx context.Context, parent []byte, name string, fh []byte, a attrs4, ancestors []uint64) error {
	return removeDirInPasses(ctx, name, func() (int, int, error) {
		removed, skipped, err := w.emptyDir(ctx, fh, a, ancestors)
		// emptyDir made it searchable, if it was not: not again.
		a.Mode |= 0o700
		return removed, skipped, err
	}, func() error { return w.c.run(ctx, []nfs4Op{opPutfh(parent), opRemove(name)}) })
}

// emptyDir deletes what the directory fh holds, one READDIR reply at a
// time, so memory stays one batch per directory level however large the
// directory is. After a batch in which something was removed it reads
// again from the start, since cookies into a directory whose entries were
// just removed are not reliable on every server. A directory without owner
// write and search permission is opened up first, so read-only trees go
// even when the server squashes root. It returns how many entries it
// removed and how many directories it left alone as not this volume's.
func (w *nfs4Walk) emptyDir(ctx context.Context, fh []byte, a attrs4, ancestors []uint64) (removed, skipped int, err error) {
	if a.has(attrMode) && a.Mode&0o700 != 0o700 {
		mode := a.Mode&0o7777 | 0o700
		if err := w.c.run(ctx, []nfs4Op{opPutfh(fh), opSetattr(anonymousStateid, setAttrs{mode: &mode})}); err != nil {
			return 0, 0, err
		}
	}
	var cookie uint64
	var verf [8]byte
	for {
		var page readdir4Page
		if err := w.c.run(ctx, []nfs4Op{opPutfh(fh), opReaddir(cookie, verf, 16384, w.c.readdirMax(), walkMask, &page)}); err != nil {
			return removed, skipped, err
		}
		r, s, err := w.removeBatch(ctx, fh, page.Entries, ancestors)
		removed, skipped = removed+r, skipped+s
		if err != nil {
			return removed, skipped, err
		}
		if page.EOF {
			return removed, skipped, nil
		}
		switch {
		case r > 0:
			cookie, verf = 0, [8]byte{}
		case page.Listed == 0:
			w.c.s.broken = true
			return removed, skipped, fmt.Errorf("%w: READDIR returned no entries before the end of the directory", ErrUnavailable)
		default:
			cookie, verf = page.Cookie, page.Verf
		}
	}
}

// removeBatch removes the entries of one READDIR reply from the directory
// dir: everything that is not a directory with one REMOVE each, many to a
// COMPOUND, then the directories one by one.
func (w *nfs4Walk) removeBatch(ctx context.Context, dir []byte, entries []dirEntry4, ancestors []uint64) (removed, skipped int, err error) {
	var names []string
	var dirs []dirEntry4
	for _, e := range entries {
		switch {
		case e.Attrs.RdattrError == 0 && e.Attrs.has(attrType) && e.Attrs.Type == nf4Dir:
			dirs = append(dirs, e)
		default:
			// Files and links; and entries whose attributes the server
			// would not give: REMOVE takes a file, a link or an empty
			// directory, and refuses a full directory, which is then
			// looked at below.
			names = append(names, e.Name)
		}
	}
	per := int(w.c.s.fore.MaxOps) - 2
	for len(names) > 0 {
		n := min(len(names), per)
		ops := []nfs4Op{opPutfh(dir)}
		for _, name := range names[:n] {
			ops = append(ops, opRemove(name))
		}
		err := w.c.run(ctx, ops)
		done := n
		var ne *NFS4Error
		if err != nil {
			if !errors.As(err, &ne) || ne.Index == 0 {
				return removed, skipped, err
			}
			done = ne.Index - 1
		}
		for range done {
			countRemoved(ctx)
		}
		removed += done
		if err == nil {
			names = names[n:]
			continue
		}
		failed := names[done]
		names = names[done+1:]
		switch {
		case errors.Is(err, fs.ErrNotExist):
		case errors.Is(err, ErrNotEmpty) || errors.Is(err, fs.ErrExist):
			// A directory after all: look at it as READDIR would have.
			var fh []byte
			var a attrs4
			if err := w.c.run(ctx, []nfs4Op{opPutfh(dir), opLookup(failed), opGetfh(&fh), opGetattr(walkMask, &a)}); err != nil {
				if errors.Is(err, fs.ErrNotExist) {
					continue
				}
				return removed, skipped, err
			}
			a.FH = fh
			dirs = append(dirs, dirEntry4{Name: failed, Attrs: a})
		default:
			return removed, skipped, fmt.Errorf("%s: %w", failed, err)
		}
	}
	for _, e := range dirs {
		ok, left, err := w.removeChild(ctx, dir, e, ancestors)
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

// removeChild removes the directory e of dir with everything below it,
// unless it is not this volume's to remove: then it is never entered and
// left reports so. ok is false when it was gone already.
func (w *nfs4Walk) removeChild(ctx context.Context, dir []byte, e dirEntry4, ancestors []uint64) (ok, left bool, err error) {
	a := e.Attrs
	id := a.FileID
	leave := a.has(attrFSID) && a.FSID != w.c.rootFSID
	for _, anc := range ancestors {
		if id != 0 && anc == id {
			leave = true
		}
	}
	if !leave {
		if leave, err = w.isFenced(ctx, id); err != nil {
			return false, false, err
		}
	}
	if !leave {
		if leave, err = w.isForeign(ctx, id); err != nil {
			return false, false, err
		}
	}
	if leave {
		return false, true, nil
	}
	fh := a.FH
	if fh == nil {
		var b attrs4
		if err := w.c.run(ctx, []nfs4Op{opPutfh(dir), opLookup(e.Name), opGetfh(&fh), opGetattr(walkMask, &b)}); err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				return false, false, nil
			}
			return false, false, err
		}
		if b.Type != nf4Dir || b.FileID != id {
			// Swapped since READDIR: the next pass looks at it afresh.
			return false, false, nil
		}
	}
	below := append(append(make([]uint64, 0, len(ancestors)+1), ancestors...), id)
	err = w.removeDir(ctx, dir, e.Name, fh, a, below)
	if errors.Is(err, fs.ErrNotExist) {
		return false, false, nil
	}
	if errors.Is(err, ErrLeftBehind) {
		return false, true, nil
	}
	return err == nil, false, err
}

// isForeign answers whether the directory with this ID has a marker in the
// foreign directory: it is another volume's root.
func (w *nfs4Walk) isForeign(ctx context.Context, id uint64) (bool, error) {
	if w.foreign == nil {
		return false, nil
	}
	return w.fence.isForeign(id, func() (bool, error) {
		err := w.c.run(ctx, []nfs4Op{opPutfh(w.foreign), opLookup(strconv.FormatUint(id, 10))})
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			return false, err
		}
		return err == nil, nil
	})
}

// isFenced answers whether the directory with this ID lies above the
// walk's top or is a protected one. The first call reads their IDs: the
// directories above the top in one walk down from the root, each
// protected directory by its path (those that do not exist are skipped).
func (w *nfs4Walk) isFenced(ctx context.Context, id uint64) (bool, error) {
	return w.fence.isFenced(id, func() ([]uint64, error) { return w.readFenced(ctx) })
}

func (w *nfs4Walk) readFenced(ctx context.Context) ([]uint64, error) {
	above := w.parts[:len(w.parts)-1]
	ids := make([]attrs4, len(above)+1+len(w.protect))
	idMask := attrMask(attrFileID)
	// Segments start with PUTFH: one whose path is missing is skipped and
	// the next goes on in a new COMPOUND.
	var segs [][]nfs4Op
	seg := []nfs4Op{opPutfh(w.c.root), opGetattr(idMask, &ids[0])}
	for i, p := range above {
		seg = append(seg, opLookup(p), opGetattr(idMask, &ids[i+1]))
	}
	segs = append(segs, seg)
	for j, p := range w.protect {
		seg := []nfs4Op{opPutfh(w.c.root)}
		for _, q := range splitRel(p) {
			seg = append(seg, opLookup(q))
		}
		segs = append(segs, append(seg, opGetattr(idMask, &ids[len(above)+1+j])))
	}
	room := int(w.c.s.fore.MaxOps) - 1
	for len(segs) > 0 {
		var ops []nfs4Op
		starts := []int{}
		for len(segs) > 0 && len(ops)+len(segs[0]) <= room {
			starts = append(starts, len(ops))
			ops = append(ops, segs[0]...)
			segs = segs[1:]
		}
		if len(ops) == 0 {
			return nil, fmt.Errorf("a path of %d components is deeper than one COMPOUND reaches: %w", len(segs[0]), ErrLeftBehind)
		}
		err := w.c.run(ctx, ops)
		var ne *NFS4Error
		switch {
		case err == nil:
		case errors.As(err, &ne) && ne.Status == nfs4ErrNoent:
			// Put back the segments after the one that failed.
			k := len(starts) - 1
			for k > 0 && starts[k] > ne.Index {
				k--
			}
			var rest [][]nfs4Op
			for i := k + 1; i < len(starts); i++ {
				end := len(ops)
				if i+1 < len(starts) {
					end = starts[i+1]
				}
				rest = append(rest, ops[starts[i]:end])
			}
			segs = append(rest, segs...)
		default:
			return nil, err
		}
	}
	var out []uint64
	for _, a := range ids {
		if a.has(attrFileID) {
			out = append(out, a.FileID)
		}
	}
	return out, nil
}
