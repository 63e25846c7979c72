//go:build unix

package usage

import (
	"errors"
	"os"

	"golang.org/x/sys/unix"
)

// openDir opens dir for the walk, which runs in the privileged plugin on a
// tree a pod writes: the name must still be a directory, and not a link.
// Between the listing that named it and this open a pod can swap it for a
// link to a node file (/dev/watchdog, a tty, a FIFO): a plain open would
// follow the link and open that file, with whatever opening it does (a
// watchdog armed, a FIFO's open blocking for ever). O_NOFOLLOW refuses a
// link (ELOOP), O_DIRECTORY anything but a directory (ENOTDIR, before the
// file is opened), O_NONBLOCK keeps an open from blocking whatever slips
// through. The walk takes ELOOP and ENOTDIR for a directory gone (notADir).
func openDir(dir string) (*os.File, error) {
	for {
		fd, err := unix.Open(dir, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_NOFOLLOW|unix.O_NONBLOCK|unix.O_CLOEXEC, 0)
		if errors.Is(err, unix.EINTR) {
			continue
		}
		if err != nil {
			return nil, &os.PathError{Op: "open", Path: dir, Err: err}
		}
		// A directory is read as os.Open's would be: blocking, as
		// directories are (O_NONBLOCK was only for the open).
		if err := unix.SetNonblock(fd, false); err != nil {
			unix.Close(fd)
			return nil, &os.PathError{Op: "open", Path: dir, Err: err}
		}
		return os.NewFile(uintptr(fd), dir), nil
	}
}

// notADir says the name opened is no longer a directory: a link or another
// file was put in its place.
func notADir(err error) bool {
	return errors.Is(err, unix.ELOOP) || errors.Is(err, unix.ENOTDIR)
}
