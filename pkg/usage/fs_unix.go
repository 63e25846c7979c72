//go:build unix

package usage

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"golang.org/x/sys/unix"
)

// osFS is the view of a Linux mount the walk reads in the privileged
// plugin, on a tree a pod writes and may change while it is walked. It
// goes by directory descriptors, never by paths below the root: each entry
// is stat'ed (fstatat, AT_SYMLINK_NOFOLLOW) and each subdirectory opened
// (openat, O_NOFOLLOW|O_DIRECTORY) relative to the descriptor of the
// directory that listed it, so every lookup is of one name in a directory
// the walk holds open. A path such as root/a/b/c/x would be resolved again
// component by component at each use, and a pod that swaps a/b for a link
// (to /, to another volume's mount, to /var/lib/kubelet) while the walk is
// in c would have the walk stat and list the node's files through it.
//
// Other file systems are not entered: a directory whose device is not the
// root's (a kubelet subPath bind, another volume mounted below this one) is
// left out, as listed and again as opened. Only directories are opened,
// never a FIFO or a device, whose open blocks or does something.
type osFS struct{}

func (osFS) Root(path string) (string, Entry, error) {
	// The root itself may be a link (the kubelet's path, not the pod's);
	// nothing below it is followed.
	if fi, err := os.Lstat(path); err == nil && fi.Mode()&fs.ModeSymlink != 0 {
		if path, err = filepath.EvalSymlinks(path); err != nil {
			return "", Entry{}, err
		}
	}
	var st unix.Stat_t
	if err := fstatat(unix.AT_FDCWD, path, &st); err != nil {
		return "", Entry{}, &os.PathError{Op: "lstat", Path: path, Err: err}
	}
	return path, entryOf(filepath.Base(path), &st, uint64(st.Dev)), nil //nolint:unconvert // int32 on some platforms
}

// OpenDir opens the root; its device is the one the walk stays on.
func (osFS) OpenDir(dir string) (Dir, error) {
	fd, err := openDirAt(unix.AT_FDCWD, dir)
	if err != nil {
		return nil, err
	}
	var st unix.Stat_t
	if err := fstat(fd, &st); err != nil {
		unix.Close(fd)
		return nil, &os.PathError{Op: "fstat", Path: dir, Err: err}
	}
	return newOSDir(fd, dir, uint64(st.Dev)), nil //nolint:unconvert
}

type osDir struct {
	f       *os.File // reads the names (getdents of fd)
	fd      int      // f's: each name is stat'ed and opened relative to it
	rootDev uint64
}

func newOSDir(fd int, name string, rootDev uint64) *osDir {
	return &osDir{f: os.NewFile(uintptr(fd), name), fd: fd, rootDev: rootDev}
}

func (d *osDir) Close() error { return d.f.Close() }

// Read lists names from the directory's descriptor and stats each in it.
// os.DirEntry.Info is not used: it stats the entry by its path.
func (d *osDir) Read(n int) ([]Entry, error) {
	names, err := d.f.Readdirnames(n)
	out := make([]Entry, 0, len(names))
	for _, name := range names {
		var st unix.Stat_t
		if serr := fstatat(d.fd, name, &st); serr != nil {
			continue // removed since the listing
		}
		out = append(out, entryOf(name, &st, d.rootDev))
	}
	return out, err
}

// Open opens e in d: the name, in the directory d holds open, not a link
// (ELOOP) nor anything but a directory (ENOTDIR, refused before the file
// is opened), then checks that what it opened is the directory listed, on
// the root's device: a directory renamed into its place, or a mount put
// over it since the listing, is errReplaced.
func (d *osDir) Open(e Entry) (Dir, error) {
	if !e.Dir || e.Skip || !e.HasKey || e.Key.Dev != d.rootDev || !oneName(e.Name) {
		return nil, errReplaced
	}
	fd, err := openDirAt(d.fd, e.Name)
	if err != nil {
		return nil, err
	}
	var st unix.Stat_t
	if err := fstat(fd, &st); err != nil {
		unix.Close(fd)
		return nil, &os.PathError{Op: "fstat", Path: e.Name, Err: err}
	}
	if uint64(st.Dev) != d.rootDev || uint64(st.Ino) != e.Key.Ino { //nolint:unconvert
		unix.Close(fd)
		return nil, errReplaced
	}
	return newOSDir(fd, e.Name, d.rootDev), nil
}

// oneName says name is a name in a directory, not a path (getdents gives
// no other, and Readdirnames leaves out . and ..).
func oneName(name string) bool {
	return name != "" && name != "." && name != ".." && !strings.Contains(name, "/")
}

// entryOf describes st, named name, in a tree on device rootDev.
func entryOf(name string, st *unix.Stat_t, rootDev uint64) Entry {
	e := Entry{
		Name: name,
		Dir:  st.Mode&unix.S_IFMT == unix.S_IFDIR,
		// Allocated blocks, 512 bytes each as stat(2) counts them,
		// whatever the file system's block size.
		Bytes:  int64(st.Blocks) * 512,                            //nolint:unconvert
		Key:    FileKey{Dev: uint64(st.Dev), Ino: uint64(st.Ino)}, //nolint:unconvert
		Links:  uint64(st.Nlink),                                  //nolint:unconvert
		HasKey: true,
	}
	if e.Dir && e.Key.Dev != rootDev {
		e.Skip = true // a mount below the volume
	}
	return e
}

// openDirAt opens name in dirfd for the walk. O_NOFOLLOW refuses a link
// (ELOOP), O_DIRECTORY anything but a directory (ENOTDIR, before the file
// is opened: a FIFO put in a directory's place is not opened, nor a device
// a link leads to), O_NONBLOCK keeps an open from blocking whatever slips
// through. The walk takes ELOOP and ENOTDIR for a directory gone
// (notADir).
func openDirAt(dirfd int, name string) (int, error) {
	for {
		fd, err := unix.Openat(dirfd, name, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_NOFOLLOW|unix.O_NONBLOCK|unix.O_CLOEXEC, 0)
		if errors.Is(err, unix.EINTR) {
			continue
		}
		if err != nil {
			return -1, &os.PathError{Op: "openat", Path: name, Err: err}
		}
		// A directory is read as os.Open's would be: blocking, as
		// directories are (O_NONBLOCK was only for the open).
		if err := unix.SetNonblock(fd, false); err != nil {
			unix.Close(fd)
			return -1, &os.PathError{Op: "openat", Path: name, Err: err}
		}
		return fd, nil
	}
}

// fstatat stats name in dirfd without following a link, nor triggering an
// automount there.
func fstatat(dirfd int, name string, st *unix.Stat_t) error {
	for {
		err := unix.Fstatat(dirfd, name, st, unix.AT_SYMLINK_NOFOLLOW|atNoAutomount)
		if !errors.Is(err, unix.EINTR) {
			return err
		}
	}
}

func fstat(fd int, st *unix.Stat_t) error {
	for {
		err := unix.Fstat(fd, st)
		if !errors.Is(err, unix.EINTR) {
			return err
		}
	}
}

// notADir says the name opened is no longer a directory: a link or another
// file was put in its place.
func notADir(err error) bool {
	return errors.Is(err, unix.ELOOP) || errors.Is(err, unix.ENOTDIR)
}
