package share

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	smb2 "github.com/cloudsoda/go-smb2"
)

// fileAttributeReparsePoint is FILE_ATTRIBUTE_REPARSE_POINT (MS-FSCC 2.6):
// symlinks, junctions and every other reparse point.
const fileAttributeReparsePoint = 0x400

// smbRemoveWorkers is how many requests a large RemoveAll keeps in flight.
// SMB2 multiplexes requests on one session (the library matches replies by
// message ID), so one round trip at a time would waste the connection; the
// workers share the caller's session and open no connection of their own.
const smbRemoveWorkers = 8

// smbReadBatch is how many directory entries are held at once per directory
// level: a directory with a million entries is read and emptied batch by
// batch, never listed whole.
const smbReadBatch = 512

// smbPasses bounds how often one directory is listed again when RMDIR finds
// it not empty (a writer still at work, or entries deleted while listing).
const smbPasses = 5

// smbWalk is one RemoveAll: it remembers which directory IDs it must not
// enter, so a link that the server resolves for us (Samba shows an in-share
// symlink as the directory it points at, with that directory's ID) is never
// followed into another volume.
type smbWalk struct {
	c       *smbClient
	foreign string // directory of foreign-ID markers, full path; "" for none
	rel     string // the walk's top directory
	protect []string

	mu      sync.Mutex
	known   map[uint64]bool // ID -> foreign
	skipped int             // directories left alone because they are not ours
	// fenced holds the IDs of the directories above the top (a link such as
	// "../../.." leads back up there, to the share's root and every volume
	// in it) and of the protected ones; it is read on the first
	// subdirectory met, so a walk of files alone costs no lookups.
	fenced map[uint64]bool
}

func (c *smbClient) RemoveAll(ctx context.Context, rel string, opts RemoveOptions) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if strings.Trim(rel, "/") == "" {
		return fmt.Errorf("refusing to remove the share's base directory: %w", fs.ErrPermission)
	}
	sh := c.on(ctx)
	p := c.full(rel)
	fi, err := sh.Lstat(p)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return c.wrap(ctx, "stat", rel, err)
	}
	if !fi.IsDir() || fi.Mode()&fs.ModeSymlink != 0 {
		// A file, or a link the server shows as one: remove the name only.
		err := c.removeOne(sh, p)
		if err == nil {
			countRemoved(ctx)
		}
		return c.wrap(ctx, "remove", rel, ignoreMissing(err))
	}
	w := &smbWalk{c: c, known: map[uint64]bool{}, rel: rel, protect: opts.Protect}
	if opts.Foreign != "" {
		w.foreign = c.full(opts.Foreign)
	}
	id, err := fileID(sh, p)
	if err != nil {
		return c.wrap(ctx, "stat", rel, ignoreMissing(err))
	}
	if opts.RootID != 0 && id != 0 && id != opts.RootID {
		return fmt.Errorf("remove %s: it is no longer the directory that was checked (a link swapped in?): left alone: %w", rel, ErrLeftBehind)
	}
	if foreign, err := w.isForeign(sh, id); err != nil {
		return c.wrap(ctx, "stat", rel, err)
	} else if foreign {
		return fmt.Errorf("remove %s: it is another volume's directory (a link the server resolves): left alone: %w", rel, ErrLeftBehind)
	}
	if err := w.removeDir(ctx, sh, p, []uint64{id}, true); err != nil {
		return c.wrap(ctx, "remove", rel, ignoreMissing(err))
	}
	return nil
}

func ignoreMissing(err error) error {
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	return err
}

// isFenced answers whether the directory with this ID lies above the walk's
// top or is a protected one.
func (w *smbWalk) isFenced(sh *smb2.Share, id uint64) (bool, error) {
	if id == 0 {
		return false, nil
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.fenced == nil {
		fenced := map[uint64]bool{}
		dirs := append([]string{""}, w.protect...)
		for d := path.Dir(strings.Trim(w.rel, "/")); d != "." && d != "/"; d = path.Dir(d) {
			dirs = append(dirs, d)
		}
		for _, d := range dirs {
			fid, err := fileID(sh, w.c.full(d))
			if errors.Is(err, fs.ErrNotExist) {
				continue
			}
			if err != nil {
				return false, fmt.Errorf("look up %q, which a delete must never enter: %w", d, err)
			}
			if fid != 0 {
				fenced[fid] = true
			}
		}
		w.fenced = fenced
	}
	return w.fenced[id], nil
}

// isForeign answers whether the directory with this ID must not be entered:
// it has a marker in the foreign directory (another volume's root).
func (w *smbWalk) isForeign(sh *smb2.Share, id uint64) (bool, error) {
	if w.foreign == "" || id == 0 {
		return false, nil
	}
	w.mu.Lock()
	f, ok := w.known[id]
	w.mu.Unlock()
	if ok {
		return f, nil
	}
	_, err := sh.Lstat(w.foreign + `\` + strconv.FormatUint(id, 10))
	switch {
	case err == nil:
		f = true
	case errors.Is(err, fs.ErrNotExist):
		f = false
	default:
		return false, err
	}
	w.mu.Lock()
	w.known[id] = f
	w.mu.Unlock()
	return f, nil
}

// removeDir empties and removes the directory p, whose ID and those of the
// directories above it are in ancestors. The top directory spreads its
// entries over workers on the same session.
func (w *smbWalk) removeDir(ctx context.Context, sh *smb2.Share, p string, ancestors []uint64, top bool) error {
	for range smbPasses {
		removed, err := w.emptyOnce(ctx, sh, p, ancestors, top)
		if err != nil {
			return err
		}
		err = w.c.removeOne(sh, p)
		if err == nil {
			countRemoved(ctx)
		}
		if err == nil || errors.Is(err, fs.ErrNotExist) {
			return nil
		}
		if !isNotEmpty(err) && !errors.Is(err, fs.ErrPermission) {
			return err
		}
		if removed == 0 {
			// Nothing this pass could remove, yet the directory will not
			// go: the server hides entries from us (Samba does not list
			// links that lead outside the share, and refuses to remove a
			// directory that holds one), or this walk left another
			// volume's directory in it. Another pass cannot help.
			return fmt.Errorf("%s holds entries the server does not let this client see or remove (%d links to other volumes were left alone): %w", p, w.skippedCount(), ErrLeftBehind)
		}
	}
	return fmt.Errorf("%s keeps getting new entries: %w", p, ErrNotEmpty)
}

func (w *smbWalk) skippedCount() int {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.skipped
}

func isNotEmpty(err error) bool {
	return ntStatus(err) == 0xC0000101 || // STATUS_DIRECTORY_NOT_EMPTY
		err != nil && strings.Contains(err.Error(), "not empty")
}

// emptyOnce lists p batch by batch and removes what it finds; it returns how
// many entries it removed. Entries left behind (not ours, or hidden) are
// not an error here: the directory's own removal reports them.
func (w *smbWalk) emptyOnce(ctx context.Context, sh *smb2.Share, p string, ancestors []uint64, top bool) (int, error) {
	f, err := sh.Open(p)
	if err != nil {
		return 0, err
	}
	defer f.Close()
	var removed atomic.Int64
	for {
		batch, err := f.Readdir(smbReadBatch)
		if errors.Is(err, io.EOF) || err == nil && len(batch) == 0 {
			return int(removed.Load()), nil
		}
		if err == nil {
			batch, err = w.c.listed(batch)
		}
		if err != nil {
			return int(removed.Load()), err
		}
		one := func(sh *smb2.Share, e os.FileInfo) error {
			err := w.removeEntry(ctx, sh, p, e, ancestors)
			switch {
			case err == nil:
				removed.Add(1)
			case errors.Is(err, ErrLeftBehind):
				err = nil
			}
			return err
		}
		if top && len(batch) >= 32 {
			err = w.removeParallel(ctx, sh, batch, one)
		} else {
			for _, e := range batch {
				if err = one(sh, e); err != nil {
					break
				}
			}
		}
		if err != nil {
			return int(removed.Load()), err
		}
	}
}

func (w *smbWalk) removeParallel(ctx context.Context, sh *smb2.Share, batch []os.FileInfo, one func(*smb2.Share, os.FileInfo) error) error {
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	jobs := make(chan os.FileInfo)
	var wg sync.WaitGroup
	for range smbRemoveWorkers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			wsh := sh.WithContext(ctx)
			for e := range jobs {
				if err := one(wsh, e); err != nil {
					cancel(err)
				}
			}
		}()
	}
	feed(ctx, jobs, batch)
	wg.Wait()
	return context.Cause(ctx)
}

// removeEntry removes one entry of the directory p. A reparse point is
// removed as itself (the library opens it with FILE_OPEN_REPARSE_POINT); a
// directory is entered only when its ID is neither an ancestor's (a link
// back up the tree) nor marked foreign (a link into another volume).
func (w *smbWalk) removeEntry(ctx context.Context, sh *smb2.Share, p string, e os.FileInfo, ancestors []uint64) error {
	name := p + `\` + e.Name()
	st, _ := e.Sys().(*smb2.FileStat)
	if st != nil && st.FileAttributes&fileAttributeReparsePoint != 0 || !e.IsDir() {
		err := w.c.removeOne(sh, name)
		if err == nil {
			countRemoved(ctx)
		}
		return ignoreMissing(err)
	}
	var id uint64
	if st != nil {
		id = st.FileId
	}
	leave := false
	for _, a := range ancestors {
		if id != 0 && a == id {
			leave = true
		}
	}
	if !leave {
		f, err := w.isFenced(sh, id)
		if err != nil {
			return err
		}
		leave = f
	}
	if !leave {
		f, err := w.isForeign(sh, id)
		if err != nil {
			return err
		}
		leave = f
	}
	if leave {
		// Not ours: never entered, never removed (removing the name could
		// reach the target on a server that resolves links for us).
		w.mu.Lock()
		w.skipped++
		w.mu.Unlock()
		return fmt.Errorf("%s: not this volume's: %w", name, ErrLeftBehind)
	}
	below := append(append(make([]uint64, 0, len(ancestors)+1), ancestors...), id)
	return ignoreMissing(w.removeDir(ctx, sh, name, below, false))
}
