package share

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"sync"
)

// walkFence is what one delete walk learns about the directories it must
// never enter, by ID. The walks read it lazily, so that deleting a
// directory of files costs no look-ups, and share it between the sessions
// or workers of one walk, hence the lock.
type walkFence struct {
	mu sync.Mutex
	// fenced holds the IDs of the directories above the walk's top and of
	// the protected ones; nil until the first subdirectory is met.
	fenced map[uint64]bool
	known  map[uint64]bool // ID -> foreign
}

// isFenced answers whether the directory with this ID lies above the
// walk's top or is a protected one. read gives their IDs; it is called on
// the first question only, under the lock, so workers that meet
// subdirectories at once wait for one reading instead of each making one.
func (f *walkFence) isFenced(id uint64, read func() ([]uint64, error)) (bool, error) {
	if id == 0 {
		return false, nil
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.fenced == nil {
		ids, err := read()
		if err != nil {
			return false, fmt.Errorf("look up the directories a delete must never enter: %w", err)
		}
		f.fenced = map[uint64]bool{}
		for _, i := range ids {
			if i != 0 {
				f.fenced[i] = true
			}
		}
	}
	return f.fenced[id], nil
}

// isForeign answers whether the directory with this ID is marked as
// another volume's root. look asks the server, once per ID; it runs
// outside the lock, so workers asking about different IDs do not wait for
// each other's round trips.
func (f *walkFence) isForeign(id uint64, look func() (bool, error)) (bool, error) {
	if id == 0 {
		return false, nil
	}
	f.mu.Lock()
	v, ok := f.known[id]
	f.mu.Unlock()
	if ok {
		return v, nil
	}
	v, err := look()
	if err != nil {
		return false, err
	}
	f.mu.Lock()
	if f.known == nil {
		f.known = map[uint64]bool{}
	}
	f.known[id] = v
	f.mu.Unlock()
	return v, nil
}

// removeDirInPasses empties the directory name and removes it, the NFS
// walks' way: entries created meanwhile make the remove fail with
// NOTEMPTY, and the next of up to three passes takes them. A pass that
// removed nothing and left only directories that are not the volume's
// ends it: another pass cannot help. empty reports what one pass removed
// and what it left alone.
func removeDirInPasses(ctx context.Context, name string, empty func() (removed, skipped int, err error), remove func() error) error {
	var err error
	for range 3 {
		removed, skipped, eerr := empty()
		if eerr != nil {
			return eerr
		}
		err = remove()
		if err == nil {
			countRemoved(ctx)
			return nil
		}
		if !errors.Is(err, ErrNotEmpty) && !errors.Is(err, fs.ErrExist) {
			return err
		}
		if removed == 0 && skipped > 0 {
			return fmt.Errorf("%s holds %d directories that are not this volume's, left alone: %w", name, skipped, ErrLeftBehind)
		}
	}
	return err
}
