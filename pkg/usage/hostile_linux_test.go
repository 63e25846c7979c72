//go:build linux

package usage

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// The walk runs as root in the node plugin, on a tree the pod writes and
// may change while it is walked. These tests put the pod's moves between
// the walk's steps (the Counter's beforeOpen and beforeRead hooks).

// lstatSum is what root holds, as the walk should count it (no hard links
// in the trees it is used on): allocated bytes and entries, root included.
func lstatSum(t *testing.T, root string) (bytes, inodes int64) {
	t.Helper()
	err := filepath.WalkDir(root, func(p string, _ fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		var st unix.Stat_t
		if err := unix.Lstat(p, &st); err != nil {
			return err
		}
		bytes += st.Blocks * 512
		inodes++
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return bytes, inodes
}

// watchOpens reports every open and read of the directories dirs (and of
// the files in them), from now on: a directory listed, a file read.
func watchOpens(t *testing.T, dirs ...string) func() int {
	t.Helper()
	fd, err := unix.InotifyInit1(unix.IN_NONBLOCK | unix.IN_CLOEXEC)
	if err != nil {
		t.Skipf("no inotify: %v", err)
	}
	t.Cleanup(func() { unix.Close(fd) })
	for _, d := range dirs {
		if _, err := unix.InotifyAddWatch(fd, d, unix.IN_OPEN|unix.IN_ACCESS); err != nil {
			t.Fatal(err)
		}
	}
	return func() int {
		buf := make([]byte, 64<<10)
		n, _ := unix.Read(fd, buf)
		return max(n, 0)
	}
}

// A pod swaps a directory of its volume, a/b, for a link to a directory
// outside it (the node's /, another volume's mount, /var/lib/kubelet),
// after the walk went down through a/b into a/b/c and before it reads c.
// Whatever the walk does next in c (each entry's stat, the descent into
// c/x) must stay in the c it opened, which is still in the volume (at
// a/b.moved/c): a walk that names c's entries by their paths, root/a/b/c/x,
// resolves a/b again, through the link, and stats and lists the outside
// directory's c/x and c/f instead (their number and sizes then show in the
// volume's stats, and a link to / would make the walk cover the node's
// whole file system). Nothing outside may be counted, listed or stat'ed:
// the count is exactly the volume's, and the outside directories see no
// open at all.
func TestAnIntermediateDirectorySwappedForALinkLeadsTheWalkNowhere(t *testing.T) {
	root := t.TempDir()
	c := filepath.Join(root, "a", "b", "c")
	for _, d := range []string{filepath.Join(c, "x")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(c, "f"), []byte("small"), 0o644); err != nil {
		t.Fatal(err)
	}
	// Outside, the same names: what a walk through the link would reach.
	outside := t.TempDir()
	ox := filepath.Join(outside, "c", "x")
	if err := os.MkdirAll(ox, 0o755); err != nil {
		t.Fatal(err)
	}
	for i := range 300 {
		if err := os.WriteFile(filepath.Join(ox, strconv.Itoa(i)), make([]byte, 8192), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(outside, "c", "f"), make([]byte, 1<<20), 0o644); err != nil {
		t.Fatal(err)
	}
	wantBytes, wantInodes := lstatSum(t, root)
	opens := watchOpens(t, outside, filepath.Join(outside, "c"), ox)

	ab := filepath.Join(root, "a", "b")
	swapped := make(chan struct{})
	cnt := New(answers)
	cnt.beforeRead = func(p string) {
		if p != c {
			return
		}
		if err := os.Rename(ab, ab+".moved"); err != nil {
			t.Error(err)
			return
		}
		if err := os.Symlink(outside, ab); err != nil {
			t.Error(err)
			return
		}
		close(swapped)
	}
	u := waitFor(t, cnt, root)
	select {
	case <-swapped:
	default:
		t.Fatalf("the walk never read %s: the test did not swap anything", c)
	}
	if n := opens(); n > 0 {
		t.Errorf("the walk opened or read the directory outside the volume (%d bytes of inotify events)", n)
	}
	if u.Bytes != wantBytes || u.Inodes != wantInodes {
		t.Fatalf("counted %d bytes and %d inodes, the volume holds %d and %d: the walk stat'ed %s's entries through the link to %s",
			u.Bytes, u.Inodes, wantBytes, wantInodes, c, outside)
	}
}

// A FIFO in the volume is an entry like any other: counted, its inode
// stat'ed, never opened (an open would block the walk for ever, as no
// writer comes; the test would hang).
func TestAFIFOInTheVolumeIsCountedWithoutBeingOpened(t *testing.T) {
	root := t.TempDir()
	fifos := []string{filepath.Join(root, "fifo"), filepath.Join(root, "d", "fifo")}
	if err := os.Mkdir(filepath.Join(root, "d"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, f := range fifos {
		if err := unix.Mkfifo(f, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	_, wantInodes := lstatSum(t, root)
	c := New(answers)
	c.Get(root)
	for end := time.Now().Add(5 * time.Second); ; time.Sleep(5 * time.Millisecond) {
		for _, f := range fifos {
			// A non-blocking open for writing succeeds only while a
			// reader has the FIFO open or is blocked opening it.
			if fd, err := unix.Open(f, unix.O_WRONLY|unix.O_NONBLOCK, 0); err == nil {
				unix.Close(fd) // lets the walk go on
				t.Fatalf("the walk opened %s, a FIFO in the volume", f)
			}
		}
		if u, ok := c.Peek(root); ok {
			if u.Inodes != wantInodes {
				t.Fatalf("counted %d inodes, want %d (the root, d and two FIFOs)", u.Inodes, wantInodes)
			}
			return
		}
		if time.Now().After(end) {
			t.Fatal("the walk of a volume with FIFOs did not end within 5 s")
		}
	}
}

// A file system mounted below the volume (a kubelet subPath bind, another
// volume) is not entered: not when it is there as the walk lists its
// mount point, nor when it is mounted over a directory between the listing
// and the walk's descent. A pod cannot mount; the test mounts tmpfs in a
// user and mount namespace of its own (no root needed where unprivileged
// user namespaces are allowed; skipped elsewhere).
func TestAnotherFileSystemBelowTheVolumeIsNotEntered(t *testing.T) {
	if os.Getenv("USAGE_TEST_IN_USERNS") == "1" {
		anotherFileSystemInUserns(t)
		return
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestAnotherFileSystemBelowTheVolumeIsNotEntered$", "-test.v", "-test.count=1")
	cmd.Env = append(os.Environ(), "USAGE_TEST_IN_USERNS=1")
	cmd.SysProcAttr = &syscall.SysProcAttr{
		Cloneflags:                 syscall.CLONE_NEWUSER | syscall.CLONE_NEWNS,
		UidMappings:                []syscall.SysProcIDMap{{ContainerID: 0, HostID: os.Getuid(), Size: 1}},
		GidMappings:                []syscall.SysProcIDMap{{ContainerID: 0, HostID: os.Getgid(), Size: 1}},
		GidMappingsEnableSetgroups: false,
	}
	out, err := cmd.CombinedOutput()
	var exit *exec.ExitError
	switch {
	case err != nil && !errors.As(err, &exit):
		t.Skipf("no user namespace to mount in: %v", err)
	case err != nil:
		t.Fatalf("in a user namespace: %v\n%s", err, out)
	case strings.Contains(string(out), "--- SKIP"):
		t.Skipf("skipped in the user namespace:\n%s", out)
	}
}

func anotherFileSystemInUserns(t *testing.T) {
	if err := unix.Mount("", "/", "", unix.MS_REC|unix.MS_PRIVATE, ""); err != nil {
		t.Skipf("make mounts private: %v", err)
	}
	root := t.TempDir()
	present, later := filepath.Join(root, "present"), filepath.Join(root, "later")
	for _, d := range []string{present, later} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(root, "f"), []byte("volume"), 0o644); err != nil {
		t.Fatal(err)
	}
	fill := func(d string) {
		if err := unix.Mount("tmpfs", d, "tmpfs", 0, "size=16m"); err != nil {
			t.Skipf("mount tmpfs: %v", err)
		}
		t.Cleanup(func() { _ = unix.Unmount(d, unix.MNT_DETACH) })
		for i := range 100 {
			if err := os.WriteFile(filepath.Join(d, strconv.Itoa(i)), make([]byte, 8192), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	// later's directory, as listed, is counted; what is mounted over it
	// after the listing is not.
	wantBytes, wantInodes := lstatSum(t, root)
	var st unix.Stat_t
	if err := unix.Lstat(present, &st); err != nil {
		t.Fatal(err)
	}
	wantBytes -= st.Blocks * 512
	wantInodes-- // present, a mount point when walked: left out altogether
	fill(present)
	c := New(answers)
	c.beforeOpen = func(p string) {
		if p == later {
			fill(later)
		}
	}
	u := waitFor(t, c, root)
	if u.Bytes != wantBytes || u.Inodes != wantInodes {
		t.Fatalf("counted %d bytes and %d inodes, the volume's own file system holds %d and %d: the walk went into a tmpfs mounted below it",
			u.Bytes, u.Inodes, wantBytes, wantInodes)
	}
}

// The decision not to enter another file system, on its own: the os view
// tells a directory on another device than the root's as listed (Skip, the
// walk leaves it out) and again as opened (a mount put over a directory
// after the listing, or another directory renamed into its place: Open
// refuses it).
func TestTheOSViewTellsAnotherFileSystemAsListedAndAsOpened(t *testing.T) {
	root := t.TempDir()
	if err := os.Mkdir(filepath.Join(root, "d"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "f"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	open := func() (*osDir, map[string]Entry) {
		t.Helper()
		d, err := osFS{}.OpenDir(root)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { d.Close() })
		es, err := d.Read(10)
		if err != nil && len(es) == 0 {
			t.Fatal(err)
		}
		byName := map[string]Entry{}
		for _, e := range es {
			byName[e.Name] = e
		}
		return d.(*osDir), byName
	}

	d, es := open()
	if e := es["d"]; !e.Dir || e.Skip {
		t.Fatalf("a directory on the root's device: %+v", e)
	}
	if _, err := d.Open(es["d"]); err != nil {
		t.Fatalf("open a directory as listed: %v", err)
	}
	moved := es["d"]
	moved.Key.Ino++
	if _, err := d.Open(moved); !errors.Is(err, errReplaced) {
		t.Errorf("open of another directory than the one listed: %v, want errReplaced", err)
	}

	// The root on another device than what is below it.
	other := uint64(es["d"].Key.Dev) ^ 1
	d.rootDev = other
	if _, err := d.Open(es["d"]); !errors.Is(err, errReplaced) {
		t.Errorf("open of a directory listed on another device: %v, want errReplaced", err)
	}
	listedHere := es["d"]
	listedHere.Key.Dev = other // listed on the root's device, on another when opened
	if _, err := d.Open(listedHere); !errors.Is(err, errReplaced) {
		t.Errorf("open of a directory that is on another device once opened: %v, want errReplaced", err)
	}

	d3, err := osFS{}.OpenDir(root)
	if err != nil {
		t.Fatal(err)
	}
	defer d3.Close()
	d3.(*osDir).rootDev = other
	es3, _ := d3.Read(10)
	for _, e := range es3 {
		if e.Name == "d" && !e.Skip || e.Name == "f" && e.Skip {
			t.Errorf("listed with the root on another device: %+v (a directory is skipped, a file is not)", e)
		}
	}
}

// A walk holds one open directory per level, and stops at maxDepth levels:
// a pod's tree nested deeper (which needs no path longer than PATH_MAX to
// make, mkdirat in the last directory made) is not counted (ErrTooDeep)
// rather than holding a descriptor per level.
func TestTheWalkHoldsADirectoryPerLevelUpToMaxDepth(t *testing.T) {
	root := t.TempDir()
	nest := func(levels int) string {
		t.Helper()
		fd, err := unix.Open(root, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
		if err != nil {
			t.Fatal(err)
		}
		p := root
		for range levels {
			if err := unix.Mkdirat(fd, "d", 0o755); err != nil && !errors.Is(err, unix.EEXIST) {
				t.Fatal(err)
			}
			next, err := unix.Openat(fd, "d", unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
			unix.Close(fd)
			if err != nil {
				t.Fatal(err)
			}
			fd, p = next, p+"/d"
		}
		unix.Close(fd)
		return p
	}
	fds := func() int {
		des, err := os.ReadDir("/proc/self/fd")
		if err != nil {
			t.Skipf("no /proc/self/fd: %v", err)
		}
		return len(des)
	}
	deepest := nest(maxDepth)
	c := New(answers)
	c.EntriesPerSecond = 0
	c.init()
	before, held := fds(), 0
	c.beforeRead = func(p string) {
		if p == deepest {
			held = fds() - before
		}
	}
	u, err := c.count(context.Background(), root, func() {})
	if err != nil || u.Inodes != maxDepth+1 {
		t.Fatalf("count of %d levels: %+v, %v", maxDepth, u, err)
	}
	// The root and maxDepth levels, and ReadDir's own of /proc/self/fd.
	if held == 0 || held > maxDepth+1+1 {
		t.Errorf("%d descriptors open at %d levels down", held, maxDepth)
	}
	c.beforeRead = nil
	nest(maxDepth + 1)
	if u, err := c.count(context.Background(), root, func() {}); !errors.Is(err, ErrTooDeep) {
		t.Fatalf("count of %d levels: %+v, %v; want ErrTooDeep", maxDepth+1, u, err)
	}
	if n := fds(); n > before {
		t.Errorf("%d descriptors left open by the walks", n-before)
	}
}

// BenchmarkCount is an unpaced count of 10,000 files in 100 directories.
func BenchmarkCount(b *testing.B) {
	root := b.TempDir()
	for d := range 100 {
		dir := filepath.Join(root, strconv.Itoa(d))
		if err := os.Mkdir(dir, 0o755); err != nil {
			b.Fatal(err)
		}
		for i := range 100 {
			if err := os.WriteFile(filepath.Join(dir, strconv.Itoa(i)), []byte("x"), 0o644); err != nil {
				b.Fatal(err)
			}
		}
	}
	c := New(answers)
	c.EntriesPerSecond = 0
	c.init()
	b.ResetTimer()
	for range b.N {
		u, err := c.count(context.Background(), root, func() {})
		if err != nil || u.Inodes != 10_101 {
			b.Fatalf("%+v, %v", u, err)
		}
	}
}
