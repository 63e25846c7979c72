//go:build linux

package usage

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// tree lays out a volume with what counting gets wrong when done naively:
// a sparse file, a hard link, a symlink, nested directories, empty files.
func tree(t *testing.T) string {
	t.Helper()
	root := t.TempDir()
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	for i := range 40 {
		d := filepath.Join(root, "d"+strconv.Itoa(i%5), "e"+strconv.Itoa(i%3))
		must(os.MkdirAll(d, 0o755))
		must(os.WriteFile(filepath.Join(d, "f"+strconv.Itoa(i)), []byte(strings.Repeat("x", 1000*i)), 0o644))
	}
	must(os.WriteFile(filepath.Join(root, "empty"), nil, 0o644))
	f, err := os.Create(filepath.Join(root, "sparse"))
	must(err)
	must(f.Truncate(1 << 30)) // 1 GiB of holes
	_, err = f.WriteAt([]byte("end"), 1<<30-3)
	must(err)
	must(f.Close())
	must(os.WriteFile(filepath.Join(root, "big"), []byte(strings.Repeat("y", 300_000)), 0o644))
	must(os.Link(filepath.Join(root, "big"), filepath.Join(root, "d0", "big-again")))
	must(os.Symlink("big", filepath.Join(root, "link")))
	return root
}

// du is what `du` says of root: bytes allocated (hard links once) and
// entries (GNU du --inodes).
func du(t *testing.T, root string) (int64, int64) {
	t.Helper()
	out, err := exec.Command("du", "-s", "--block-size=1", root).Output()
	if err != nil {
		t.Skipf("no GNU du here: %v", err)
	}
	bytes, _ := strconv.ParseInt(strings.Fields(string(out))[0], 10, 64)
	out, err = exec.Command("du", "-s", "--inodes", root).Output()
	if err != nil {
		t.Skipf("du --inodes: %v", err)
	}
	inodes, _ := strconv.ParseInt(strings.Fields(string(out))[0], 10, 64)
	return bytes, inodes
}

func answers(context.Context, string) error { return nil }

// waitFor polls c until path has a count.
func waitFor(t *testing.T, c *Counter, path string) Usage {
	t.Helper()
	for range 500 {
		if u, ok := c.Get(path); ok {
			return u
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatal("no count came")
	return Usage{}
}

// The count matches du on the same tree: allocated bytes (a 1 GiB sparse
// file counts the block it holds; a file with two names counts once) and
// inodes (du --inodes, a file with two names once too).
func TestCountMatchesDu(t *testing.T) {
	root := tree(t)
	wantBytes, wantInodes := du(t, root)
	c := New(answers)
	u := waitFor(t, c, root)
	if u.Bytes != wantBytes {
		t.Errorf("counted %d bytes, du says %d", u.Bytes, wantBytes)
	}
	if u.Inodes != wantInodes {
		t.Errorf("counted %d inodes, du --inodes says %d", u.Inodes, wantInodes)
	}
	if u.Bytes > 100<<20 {
		t.Errorf("the sparse file counted at its size: %d bytes", u.Bytes)
	}
}

// Get never waits for a walk, and a mount that does not answer gets no
// walk, only one check at a time however often it is asked about.
func TestGetNeverWaitsAndAHungMountHoldsOneCheck(t *testing.T) {
	release := make(chan struct{})
	var checks, inCheck, maxIn atomic.Int32
	c := New(func(ctx context.Context, _ string) error {
		checks.Add(1)
		n := inCheck.Add(1)
		defer inCheck.Add(-1)
		for m := maxIn.Load(); n > m && !maxIn.CompareAndSwap(m, n); m = maxIn.Load() {
		}
		<-release // hung
		return context.DeadlineExceeded
	})
	root := t.TempDir()
	for range 100 {
		done := make(chan struct{})
		go func() { c.Get(root); close(done) }()
		select {
		case <-done:
		case <-time.After(5 * time.Second):
			t.Fatal("Get waited for a walk")
		}
	}
	// The check starts in a goroutine of its own: wait for it, then give
	// any second one time to show up.
	eventually(t, func() bool { return checks.Load() >= 1 }, "the first check to start")
	time.Sleep(50 * time.Millisecond)
	if checks.Load() != 1 {
		t.Fatalf("%d checks started on one hung mount, want 1", checks.Load())
	}
	close(release)
}

// eventually waits up to 10 s for cond, which goroutines of the code under
// test make true: a loaded machine may not run them for a while.
func eventually(t *testing.T, cond func() bool, what string) {
	t.Helper()
	for end := time.Now().Add(10 * time.Second); !cond(); time.Sleep(5 * time.Millisecond) {
		if time.Now().After(end) {
			t.Fatalf("waited 10 s for %s", what)
		}
	}
}

// At most MaxWalks walks run at once, however many volumes there are.
func TestWalksAreBoundedPerNode(t *testing.T) {
	release := make(chan struct{})
	var in, maxIn atomic.Int32
	c := New(func(context.Context, string) error {
		n := in.Add(1)
		for m := maxIn.Load(); n > m && !maxIn.CompareAndSwap(m, n); m = maxIn.Load() {
		}
		<-release
		in.Add(-1)
		return nil
	})
	c.MaxWalks = 3
	var roots []string
	for range 10 {
		roots = append(roots, t.TempDir())
	}
	for _, r := range roots {
		c.Get(r)
	}
	eventually(t, func() bool { return maxIn.Load() >= 3 }, "MaxWalks walks to start")
	time.Sleep(50 * time.Millisecond) // a fourth would show up now
	if got := maxIn.Load(); got != 3 {
		t.Errorf("%d walks at once, want MaxWalks = 3", got)
	}
	close(release)
	for _, r := range roots {
		waitFor(t, c, r)
	}
}

// A walk is paced: n entries ask for at least n/EntriesPerSecond seconds
// (the pauses are recorded, not slept).
func TestWalkIsPaced(t *testing.T) {
	root := t.TempDir()
	for i := range 500 {
		if err := os.WriteFile(filepath.Join(root, strconv.Itoa(i)), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	var mu sync.Mutex
	var paused time.Duration
	c := New(answers)
	c.EntriesPerSecond = 100
	c.pause = func(_ context.Context, d time.Duration) error {
		mu.Lock()
		paused = max(paused, d) // each pause tops the walk up to n/rate
		mu.Unlock()
		return nil
	}
	began := time.Now()
	u := waitFor(t, c, root)
	mu.Lock()
	defer mu.Unlock()
	// 501 entries at 100 a second: the last pause brings the walk to
	// at least 5 seconds (500 entries, the last full batch).
	if paused+time.Since(began) < 4900*time.Millisecond {
		t.Errorf("%d entries paced to %v, want at least 5s at 100 entries/s", u.Inodes, paused+time.Since(began))
	}
}

// A count older than Interval is walked again; a forgotten volume's walk
// leaves nothing behind.
func TestCountIsRefreshedAndForgotten(t *testing.T) {
	root := t.TempDir()
	now := time.Unix(1000, 0)
	var mu sync.Mutex
	c := New(answers)
	c.now = func() time.Time { mu.Lock(); defer mu.Unlock(); return now }
	first := waitFor(t, c, root)
	if err := os.WriteFile(filepath.Join(root, "new"), []byte(strings.Repeat("z", 10000)), 0o644); err != nil {
		t.Fatal(err)
	}
	if u, _ := c.Get(root); u != first {
		t.Fatal("a fresh count was walked again")
	}
	mu.Lock()
	now = now.Add(DefaultInterval)
	mu.Unlock()
	c.Get(root)
	for range 500 {
		if u, _ := c.Get(root); u.Inodes == first.Inodes+1 {
			c.Forget(context.Background(), root)
			if _, ok := c.Get(root); ok {
				t.Fatal("a forgotten volume still has a count")
			}
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatal("an old count was never walked again")
}

// A volume path that is a link (a Windows node's, to the SMB mapping) is
// counted through; nothing below it is followed.
func TestALinkedRootIsCountedThrough(t *testing.T) {
	root := tree(t)
	wantBytes, wantInodes := du(t, root)
	link := filepath.Join(t.TempDir(), "volume")
	if err := os.Symlink(root, link); err != nil {
		t.Fatal(err)
	}
	u := waitFor(t, New(answers), link)
	if u.Bytes != wantBytes || u.Inodes != wantInodes {
		t.Fatalf("counted %d bytes and %d inodes through the link, du says %d and %d", u.Bytes, u.Inodes, wantBytes, wantInodes)
	}
}

// openCounting is the os package's view, counting the directories open.
type openCounting struct {
	FS
	open *atomic.Int64
}

func (o openCounting) OpenDir(dir string) (Dir, error) {
	d, err := o.FS.OpenDir(dir)
	if err == nil {
		o.open.Add(1)
		d = closeCounting{d, o.open}
	}
	return d, err
}

type closeCounting struct {
	Dir
	open *atomic.Int64
}

func (c closeCounting) Close() error { c.open.Add(-1); return c.Dir.Close() }

func (c closeCounting) Open(e Entry) (Dir, error) {
	d, err := c.Dir.Open(e)
	if err == nil {
		c.open.Add(1)
		d = closeCounting{d, c.open}
	}
	return d, err
}

// Forget ends a walk under way, which would otherwise hold the volume's
// directories open (an unmount at NodeUnstageVolume fails with EBUSY) until
// it ended on its own at its pace: Forget returns once the walk has, with
// every directory closed and no count recorded.
func TestForgetEndsTheWalkUnderWay(t *testing.T) {
	root := t.TempDir()
	for d := range 3 {
		dir := filepath.Join(root, strconv.Itoa(d))
		if err := os.Mkdir(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		for i := range 50 {
			if err := os.WriteFile(filepath.Join(dir, strconv.Itoa(i)), nil, 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	var open atomic.Int64
	paused := make(chan struct{}, 1)
	c := New(answers)
	c.EntriesPerSecond = 10 // a pause every entry: the walk would take 15 s
	c.pause = func(ctx context.Context, d time.Duration) error {
		select {
		case paused <- struct{}{}:
		default:
		}
		return sleep(ctx, d)
	}
	c.init()
	c.FS = openCounting{osFS{}, &open}
	c.Get(root)
	select {
	case <-paused:
	case <-time.After(10 * time.Second):
		t.Fatal("the walk never started")
	}
	if open.Load() == 0 {
		t.Fatal("the walk under way holds no directory open")
	}
	began := time.Now()
	c.Forget(context.Background(), root)
	if took := time.Since(began); took >= stopWait {
		t.Fatalf("Forget waited %v: the walk did not end", took)
	}
	if n := open.Load(); n != 0 {
		t.Fatalf("%d directories still open after Forget", n)
	}
	if _, ok := c.Peek(root); ok {
		t.Fatal("a forgotten volume has a count")
	}
}

// swapping is a pod's race won: the directory victim becomes what put
// makes in its place (a link to outside) between the listing that found it
// and its open (the Counter's beforeOpen). fired says it did.
func swapping(t *testing.T, victim string, put func(string) error) (hook func(string), fired func() bool) {
	var done atomic.Bool
	return func(p string) {
			if p != victim {
				return
			}
			if err := os.Rename(p, p+".moved"); err != nil {
				t.Error(err)
				return
			}
			if err := put(p); err != nil {
				t.Error(err)
				return
			}
			done.Store(true)
		}, func() bool {
			return done.Load()
		}
}

func linkTo(outside string) func(string) error {
	return func(p string) error { return os.Symlink(outside, p) }
}

// A directory swapped for a link after it was listed is not walked through
// the link: what lies outside the volume (the node's own directories) is
// never counted.
func TestADirectorySwappedForALinkIsNotFollowed(t *testing.T) {
	root := t.TempDir()
	victim := filepath.Join(root, "d")
	if err := os.Mkdir(victim, 0o755); err != nil {
		t.Fatal(err)
	}
	outside := t.TempDir()
	for i := range 200 {
		if err := os.WriteFile(filepath.Join(outside, strconv.Itoa(i)), make([]byte, 8192), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	c := New(answers)
	var fired func() bool
	c.beforeOpen, fired = swapping(t, victim, linkTo(outside))
	u := waitFor(t, c, root)
	if !fired() {
		t.Fatal("the walk never went into the directory swapped")
	}
	if u.Inodes > 3 {
		t.Fatalf("counted %d inodes and %d bytes: the walk went through the link into %s", u.Inodes, u.Bytes, outside)
	}
}

// hungFS is a view whose first listing blocks, as a walk's listing blocks
// in the kernel on a hard NFS mount whose server went away.
type hungFS struct {
	FS
	entered chan struct{}
	release chan struct{}
}

func (h hungFS) OpenDir(dir string) (Dir, error) {
	close(h.entered)
	<-h.release
	return h.FS.OpenDir(dir)
}

// Forget, called by NodeUnstageVolume before it unmounts, returns when the
// call's context ends even while a walk is stuck on the mount it is about
// to take away: it waited stopWait (5 s) whatever the deadline, and an
// unstage with less time left answered after its deadline.
func TestForgetEndsWithTheCallsContext(t *testing.T) {
	root := t.TempDir()
	c := New(answers)
	c.init()
	h := hungFS{FS: osFS{}, entered: make(chan struct{}), release: make(chan struct{})}
	defer close(h.release)
	c.FS = h
	c.Get(root)
	select {
	case <-h.entered:
	case <-time.After(10 * time.Second):
		t.Fatal("the walk never started")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	began := time.Now()
	c.Forget(ctx, root)
	if took := time.Since(began); took > stopWait/2 {
		t.Fatalf("Forget with a deadline of 100 ms returned after %v", took)
	}
	if _, ok := c.Peek(root); ok {
		t.Fatal("a forgotten volume has a count")
	}
}
