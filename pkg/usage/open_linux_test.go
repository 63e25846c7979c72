//go:build linux

package usage

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// The walk runs as root in the node plugin, on a tree the pod writes. A pod
// swaps a directory of its volume, after the walk listed it, for a link to
// a node file that is not a directory (here a FIFO standing in for
// /dev/watchdog, a tape, a tty): a plain open follows the link and opens
// the device, with whatever opening it does (a watchdog armed, a FIFO's
// open blocking the walk for ever). The walk must never open it: it opens
// with O_NOFOLLOW|O_DIRECTORY|O_NONBLOCK and takes the refusal (ELOOP) for
// a directory gone.
func TestTheUsageWalkNeverOpensANodeFileALinkLeadsTo(t *testing.T) {
	root := t.TempDir()
	victim := filepath.Join(root, "d")
	if err := os.Mkdir(victim, 0o755); err != nil {
		t.Fatal(err)
	}
	fifo := filepath.Join(t.TempDir(), "node-device")
	if err := unix.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	c := New(answers)
	var fired func() bool
	c.beforeOpen, fired = swapping(t, victim, linkTo(fifo))
	walkNeverOpens(t, c, root, fifo)
	if !fired() {
		t.Fatal("the walk never went into the directory swapped")
	}
}

// The same with the FIFO itself put in the directory's place (no link): a
// name the listing said was a directory is opened only if it still is one
// (O_DIRECTORY, ENOTDIR: gone), so the walk neither opens the FIFO nor
// blocks on it.
func TestTheUsageWalkNeverOpensAFileSwappedInForADirectory(t *testing.T) {
	root := t.TempDir()
	victim := filepath.Join(root, "d")
	if err := os.Mkdir(victim, 0o755); err != nil {
		t.Fatal(err)
	}
	c := New(answers)
	var fired func() bool
	c.beforeOpen, fired = swapping(t, victim, func(p string) error { return unix.Mkfifo(p, 0o600) })
	walkNeverOpens(t, c, root, victim)
	if !fired() {
		t.Fatal("the walk never went into the directory swapped")
	}
}

// walkNeverOpens starts a walk of root and fails if it opens fifo before
// it has counted root.
func walkNeverOpens(t *testing.T, c *Counter, root, fifo string) {
	t.Helper()
	c.Get(root)
	deadline := time.Now().Add(3 * time.Second)
	for time.Now().Before(deadline) {
		// Opening a FIFO for writing without blocking succeeds only while
		// a reader has it open (or is blocked opening it).
		if fd, err := unix.Open(fifo, unix.O_WRONLY|unix.O_NONBLOCK, 0); err == nil {
			unix.Close(fd) // lets the walk go on
			t.Fatalf("the usage walk opened %s, a FIFO put in place of a directory it listed", fifo)
		}
		if _, ok := c.Peek(root); ok {
			return // counted without opening it
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatalf("the walk of %s did not end within 3s", root)
}
