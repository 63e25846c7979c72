//go:build linux

package mounter

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"

	"golang.org/x/sys/unix"
)

// The path below a volume's source is resolved here, on the node, never by
// the file server. A pod can write links into a share (its own volume, an
// inline volume of a shared directory): mountd resolves a MOUNT path with
// realpath, the NFSv4 client and Samba follow links while they walk it, so
// `ln -s /export esc` and a second volume with subDir esc would mount the
// whole export. The server only resolves the source, which an
// administrator wrote (the StorageClass, the PV, --inline-sources); the
// node mounts it at a private root, opens the subdirectory beneath it with
// openat2(RESOLVE_BENEATH|RESOLVE_NO_SYMLINKS|RESOLVE_NO_XDEV), which
// refuses a link, a "..", and a crossing into another file system at any
// step, and bind-mounts what it opened. The root is unmounted at once: the
// bind keeps the file system.

// beneathFlags refuse every way out of the root a path could take.
const beneathFlags = unix.RESOLVE_BENEATH | unix.RESOLVE_NO_SYMLINKS | unix.RESOLVE_NO_MAGICLINKS | unix.RESOLVE_NO_XDEV

// openBeneath opens the directory sub below root (a directory), with no
// step through a link or out of root's file system.
func openBeneath(root, sub string) (*os.File, error) {
	rfd, err := unix.Open(root, unix.O_PATH|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		return nil, fmt.Errorf("open the share's root: %w", err)
	}
	defer unix.Close(rfd)
	how := &unix.OpenHow{Flags: unix.O_PATH | unix.O_DIRECTORY | unix.O_CLOEXEC, Resolve: beneathFlags}
	fd, err := unix.Openat2(rfd, sub, how)
	for errors.Is(err, unix.EAGAIN) || errors.Is(err, unix.EINTR) {
		// EAGAIN: a rename raced the lookup; the kernel asks to try again.
		fd, err = unix.Openat2(rfd, sub, how)
	}
	switch {
	case err == nil:
		return os.NewFile(uintptr(fd), sub), nil
	case errors.Is(err, unix.ENOSYS):
		return nil, fmt.Errorf("%w: this kernel has no openat2(2) (Linux 5.6 or later is needed to mount a subdirectory safely)", ErrUnsupported)
	case errors.Is(err, unix.ELOOP), errors.Is(err, unix.EXDEV):
		return nil, fmt.Errorf("subdirectory %q: %w", sub, ErrEscapes)
	case errors.Is(err, unix.ENOTDIR):
		return nil, fmt.Errorf("subdirectory %q on the share is not a directory: %w", sub, ErrInvalid)
	case errors.Is(err, unix.ENOENT):
		return nil, fmt.Errorf("subdirectory %q does not exist on the share: %w", sub, fs.ErrNotExist)
	}
	return nil, fmt.Errorf("open subdirectory %q on the share: %w", sub, err)
}

// openSubdir opens the directory sub below root for a bind (openBeneath):
// src is what to bind, and done closes it. The open goes to the server;
// the bind does not.
func openSubdir(root, sub string) (src string, done func(), err error) {
	f, err := openBeneath(root, sub)
	if err != nil {
		return "", nil, err
	}
	return "/proc/self/fd/" + strconv.Itoa(int(f.Fd())), func() { f.Close() }, nil
}

// bindOpened bind-mounts src, a directory openSubdir opened, at target:
// through the descriptor, so the path is not looked up again and nothing
// can swap a link in between.
func bindOpened(src, target string, readOnly bool) error {
	if err := unix.Mount(src, target, "", unix.MS_BIND, ""); err != nil {
		return fmt.Errorf("bind the subdirectory to %s: %w", target, err)
	}
	if readOnly {
		if err := unix.Mount("", target, "", unix.MS_BIND|unix.MS_REMOUNT|unix.MS_RDONLY, ""); err != nil {
			_ = unix.Unmount(target, unix.MNT_DETACH)
			return fmt.Errorf("make %s read-only: %w", target, err)
		}
	}
	return nil
}

// rootFor is the private directory where the source of the volume staged at
// stagingPath is mounted while its subdirectory is opened: one per staging
// path, so a retry after a crash finds (and clears) what the last try left.
func (l *Linux) rootFor(stagingPath string) string {
	h := sha256.Sum256([]byte(stagingPath))
	return filepath.Join(l.RootsDir, hex.EncodeToString(h[:12]))
}

// stageBeneath mounts the source at a private root, binds its subdirectory
// at the staging path and takes the root down again.
func (l *Linux) stageBeneath(ctx context.Context, req StageRequest, fstype, device string, opts []string) error {
	root := l.rootFor(req.StagingPath)
	// A root left mounted by a plugin that died here: nothing uses it.
	_ = l.umount2(root, unix.MNT_DETACH)
	if err := os.MkdirAll(l.RootsDir, 0o700); err != nil {
		return fmt.Errorf("create the directory for share roots: %w", err)
	}
	if err := os.Mkdir(root, 0o700); err != nil && !errors.Is(err, fs.ErrExist) {
		return fmt.Errorf("create the share root's mount point: %w", err)
	}
	defer func() {
		// MNT_DETACH: the bind holds the file system, and a hung server
		// must not hold this call.
		_ = l.umount2(root, unix.MNT_DETACH)
		_ = os.Remove(root)
	}()
	if err := l.run(ctx, fstype, device, root, opts); err != nil {
		return err
	}
	// The lookups go to the server, which may stop answering now: the call
	// still ends at its deadline. The bind is this call's to make, never
	// a goroutine's after the call answered: one landing then would stack
	// on the bind of the call again, or stay for good after an unstage
	// that found nothing mounted yet. An open that ends late is closed.
	type opened struct {
		src  string
		done func()
		err  error
	}
	ch := make(chan opened, 1)
	go func() {
		src, done, err := l.openSub(root, req.SubDir)
		ch <- opened{src, done, err}
	}()
	select {
	case o := <-ch:
		if o.err != nil {
			return o.err
		}
		defer o.done()
		return l.bindAt(o.src, req.StagingPath, req.ReadOnly)
	case <-ctx.Done():
		go func() {
			if o := <-ch; o.err == nil {
				o.done()
			}
		}()
		return fmt.Errorf("open subdirectory %q on the share: %w: %w", req.SubDir, ErrNotResponding, ctx.Err())
	}
}
