// Package usage counts what each staged volume uses, on the node's own
// mount: the bytes its files occupy (allocated blocks, so a sparse file
// counts what it holds) and its inodes. The share's statfs numbers are the
// whole share's, which every volume on it would report alike.
//
// Counting is a walk of the volume's tree, so it runs in the background and
// its cost is bounded: at most MaxWalks walks at once per node, each paced
// to EntriesPerSecond, and a volume is walked again only once its last
// count is older than Interval. A caller (NodeGetVolumeStats) never waits
// for a walk: it gets the last count with its time, or none yet. A walk
// starts only after Check says the mount answers, and a path has at most
// one walk, so a hung mount holds one goroutine, never a pile of them; a
// walk that stops making progress gives its slot to the others.
package usage

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"sync"
	"sync/atomic"
	"time"
)

// Defaults of a Counter's bounds.
const (
	DefaultMaxWalks         = 2
	DefaultEntriesPerSecond = 5000
	DefaultInterval         = 10 * time.Minute
)

// stallAfter is how long a walk may go without reaching an entry before
// its slot goes to another walk (a hung mount under it).
const stallAfter = time.Minute

// Usage is one count of a volume.
type Usage struct {
	Bytes  int64     // allocated to the volume's files, directories and links
	Inodes int64     // files, directories and links, the root included; a file with several names once
	At     time.Time // when the walk that counted them ended
}

// Counter walks the volumes it is asked about. The zero value is not
// usable: New.
type Counter struct {
	MaxWalks         int
	EntriesPerSecond int
	Interval         time.Duration
	// Check says whether the mount at path answers (mounter.Check); a
	// walk starts only when it does.
	Check func(ctx context.Context, path string) error
	// FS is what the walks read; nil: the os package (Linux mounts).
	FS FS

	slots chan struct{}
	mu    sync.Mutex
	vols  map[string]*vol
	now   func() time.Time
	// pause waits d between batches of entries; replaced in tests.
	pause func(ctx context.Context, d time.Duration) error
	// beforeOpen and beforeRead, set in tests, are called with the path
	// of a subdirectory the walk is about to open (it has been listed),
	// and of a directory it opened and is about to read: where a pod's
	// swaps are put.
	beforeOpen, beforeRead func(path string)
}

type vol struct {
	last    Usage
	counted bool
	walking bool
	// stop ends the running walk (Forget: the volume is being
	// unstaged, and the walk's open directories would keep its mount
	// busy); ended is closed when the walk has returned.
	stop  context.CancelFunc
	ended chan struct{}
}

// New returns a Counter with the default bounds.
func New(check func(ctx context.Context, path string) error) *Counter {
	return &Counter{MaxWalks: DefaultMaxWalks, EntriesPerSecond: DefaultEntriesPerSecond, Interval: DefaultInterval, Check: check}
}

func (c *Counter) init() {
	if c.vols == nil {
		c.vols = map[string]*vol{}
		c.slots = make(chan struct{}, max(1, c.MaxWalks))
		if c.now == nil {
			c.now = time.Now
		}
		if c.pause == nil {
			c.pause = sleep
		}
		if c.FS == nil {
			c.FS = osFS{}
		}
	}
}

func sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// Get returns the last count of the volume mounted at path, and whether
// there is one, and starts a new walk when there is none or it is older
// than Interval. It never waits for a walk.
func (c *Counter) Get(path string) (Usage, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.init()
	v := c.vols[path]
	if v == nil {
		v = &vol{}
		c.vols[path] = v
	}
	if !v.walking && (!v.counted || c.now().Sub(v.last.At) >= c.Interval) {
		var ctx context.Context
		ctx, v.stop = context.WithCancel(context.Background())
		v.walking, v.ended = true, make(chan struct{})
		go c.walk(ctx, path, v)
	}
	return v.last, v.counted
}

// Peek is Get without starting a walk.
func (c *Counter) Peek(path string) (Usage, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.init()
	if v := c.vols[path]; v != nil {
		return v.last, v.counted
	}
	return Usage{}, false
}

// Age is how long ago u was counted.
func (c *Counter) Age(u Usage) time.Duration {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.init()
	return c.now().Sub(u.At)
}

// Forget drops what is known of path, whose volume is being unstaged, and
// ends a walk running there: its open directories would keep the mount
// busy, and an unmount would fail until a walk of a large volume ended on
// its own, minutes later at its pace. It waits for the walk to return, a
// batch of entries at most, but no longer than stopWait, nor past ctx's
// end: a walk stuck in the kernel on a hung mount returns when the mount
// is forced away, and the unstage that forgets it must still answer by
// its deadline.
func (c *Counter) Forget(ctx context.Context, path string) {
	c.mu.Lock()
	c.init()
	v := c.vols[path]
	delete(c.vols, path)
	var ended chan struct{}
	if v != nil && v.walking {
		v.stop()
		ended = v.ended
	}
	c.mu.Unlock()
	if ended != nil {
		select {
		case <-ended:
		case <-time.After(stopWait):
		case <-ctx.Done():
		}
	}
}

// stopWait bounds how long Forget waits for a walk to return.
const stopWait = 5 * time.Second

// walk counts path once, in a slot, and records the result unless the
// volume was forgotten meanwhile (ctx, which Forget ends).
func (c *Counter) walk(ctx context.Context, path string, v *vol) {
	defer close(v.ended)
	defer func() {
		c.mu.Lock()
		v.walking = false
		v.stop()
		c.mu.Unlock()
	}()
	select {
	case c.slots <- struct{}{}:
	case <-ctx.Done():
		return
	}
	var released atomic.Bool
	release := func() {
		if released.CompareAndSwap(false, true) {
			<-c.slots
		}
	}
	defer release()
	checkCtx, cancel := context.WithTimeout(ctx, 10*time.Second)
	err := c.Check(checkCtx, path)
	cancel()
	if err != nil {
		return // not answering, or not mounted: the next Get tries again
	}
	var progress atomic.Int64
	progress.Store(time.Now().UnixNano())
	stop := make(chan struct{})
	defer close(stop)
	go func() {
		t := time.NewTicker(stallAfter / 4)
		defer t.Stop()
		for {
			select {
			case <-stop:
				return
			case <-t.C:
				if time.Since(time.Unix(0, progress.Load())) > stallAfter {
					release() // stuck in the kernel: let the other walks go
					return
				}
			}
		}
	}()
	u, err := c.count(ctx, path, func() { progress.Store(time.Now().UnixNano()) })
	if err != nil {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.vols[path] == v {
		u.At = c.now()
		v.last, v.counted = u, true
	}
}

// count walks path without following links or leaving its file system,
// paced to EntriesPerSecond; a file with several names counts once, as du
// counts it. A directory is read a batch at a time and each subdirectory
// walked as the batch meets it, so the walk holds a batch and an open
// directory per level, never a whole directory: a million files in one
// directory cost one batch. Everything below the root is reached through
// the directory that listed it (Dir.Open), never by a path: see osFS.
func (c *Counter) count(ctx context.Context, path string, tick func()) (Usage, error) {
	// c.FS was set by init, under c.mu; a walk only reads it.
	c.mu.Lock()
	fsys := c.FS
	c.mu.Unlock()
	dir, root, err := fsys.Root(path)
	if err != nil {
		return Usage{}, err
	}
	w := &walker{c: c, ctx: ctx, tick: tick, seen: map[FileKey]bool{}, began: time.Now(), batch: max(1, c.EntriesPerSecond/10)}
	w.add(root)
	f, err := fsys.OpenDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return w.u, nil // removed
	}
	if err != nil {
		return Usage{}, err
	}
	defer f.Close()
	if err := w.dir(f, dir, 0); err != nil {
		return Usage{}, err
	}
	return w.u, nil
}

// readBatch is how many entries of a directory the walk reads at once;
// maxHeld bounds them across the levels it is in. maxDepth bounds the
// levels, each an open directory (a file descriptor, and a read buffer):
// a path-addressed walk stopped at PATH_MAX (4,096 bytes, some 2,000
// levels of one-letter names); a descriptor walk has no such bound, and a
// pod can nest directories as deep as it likes.
const (
	readBatch = 256
	maxHeld   = 64 << 10
	maxDepth  = 512
)

// ErrTooDeep says a volume's tree is too deep, or too deep and wide at
// once, to count within maxDepth levels and maxHeld entries: it is not
// counted (the share's numbers stand).
var ErrTooDeep = errors.New("the tree is too deep and wide to count")

type walker struct {
	c     *Counter
	ctx   context.Context // ended by Forget
	tick  func()
	seen  map[FileKey]bool
	u     Usage
	n     int
	held  int
	batch int
	began time.Time
}

// add counts one entry.
func (w *walker) add(e Entry) {
	if e.HasKey && e.Links > 1 && !e.Dir {
		if w.seen[e.Key] {
			return
		}
		w.seen[e.Key] = true
	}
	w.u.Inodes++
	w.u.Bytes += e.Bytes
}

// dir counts what is below f, open at p (a name for messages and tests'
// hooks; nothing is opened by it), depth levels below the root.
func (w *walker) dir(f Dir, p string, depth int) error {
	if h := w.c.beforeRead; h != nil {
		h(p)
	}
	for {
		entries, err := f.Read(readBatch)
		if w.held+len(entries) > maxHeld {
			return fmt.Errorf("%s, %d levels down: %w", p, depth, ErrTooDeep)
		}
		w.held += len(entries)
		werr := w.entries(f, p, depth, entries)
		w.held -= len(entries)
		if werr != nil {
			return werr
		}
		if errors.Is(err, io.EOF) || err == nil && len(entries) == 0 {
			return nil
		}
		if err != nil {
			return err
		}
	}
}

func (w *walker) entries(f Dir, p string, depth int, entries []Entry) error {
	for _, e := range entries {
		w.tick()
		if e.Skip {
			continue
		}
		w.add(e)
		if e.Dir {
			if err := w.sub(f, p+"/"+e.Name, depth+1, e); err != nil {
				return err
			}
		}
		if err := w.pace(); err != nil {
			return err
		}
	}
	return nil
}

// sub counts what is below e, a directory parent listed. A pod may have
// swapped it, or one above it, since the listing: parent opens the name in
// itself, and refuses a link, a file (a FIFO, a device) or another
// directory put in its place (Dir.Open). Such a name is left out, as one
// removed while walked is.
func (w *walker) sub(parent Dir, p string, depth int, e Entry) error {
	if depth > maxDepth {
		return fmt.Errorf("%s: more than %d levels down: %w", p, maxDepth, ErrTooDeep)
	}
	if h := w.c.beforeOpen; h != nil {
		h(p)
	}
	f, err := parent.Open(e)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) || errors.Is(err, fs.ErrPermission) || errors.Is(err, errReplaced) || notADir(err) {
			return nil // removed or replaced while walked, or not the plugin's to read
		}
		return err
	}
	defer f.Close()
	return w.dir(f, p, depth)
}

// pace holds the walk to EntriesPerSecond: n entries take at least
// n/rate seconds.
// It also ends the walk once its volume is forgotten.
func (w *walker) pace() error {
	w.n++
	if err := w.ctx.Err(); err != nil {
		return err
	}
	if w.c.EntriesPerSecond <= 0 || w.n%w.batch != 0 {
		return nil
	}
	want := time.Duration(float64(w.n) / float64(w.c.EntriesPerSecond) * float64(time.Second))
	if d := want - time.Since(w.began); d > 0 {
		return w.c.pause(w.ctx, d)
	}
	return nil
}
