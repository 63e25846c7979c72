package usage

import (
	"io/fs"
	"os"
	"path/filepath"
)

// FS is what a walk reads: the os package's view of a Linux mount by
// default, a Windows node's SMB mapping through its host (pkg/mounter) on
// Windows. A walk runs in a goroutine of its own, which is allowed to block
// in the kernel on a hung mount: its methods take no context.
type FS interface {
	// Root resolves path, the volume's staging (or published) path, to
	// the directory the walk reads, and describes it.
	Root(path string) (dir string, root Entry, err error)
	// OpenDir opens a directory below the root for reading.
	OpenDir(dir string) (Dir, error)
	// Join names the entry name in dir.
	Join(dir, name string) string
}

// Dir is a directory being read.
type Dir interface {
	// Read returns up to n more entries, and io.EOF once there are none.
	Read(n int) ([]Entry, error)
	Close() error
}

// keyed is a Dir that can say which file it opened (the os view can; a
// Windows host's cannot), so the walk can check it is the one listed.
type keyed interface {
	Key() (FileKey, bool)
}

// Entry is one name in a volume's tree, as the walk counts it.
type Entry struct {
	Name string
	// Dir is a directory the walk goes into: never a link, nor a mount of
	// another file system.
	Dir bool
	// Bytes is what the entry occupies on its file system.
	Bytes int64
	// Key names the file behind the name, for a file with several names
	// (Links > 1) to count once; HasKey false when the FS cannot say.
	Key    FileKey
	Links  uint64
	HasKey bool
	// Skip leaves the entry out altogether (a mount below the volume).
	Skip bool
}

// FileKey names a file across its names (device and inode).
type FileKey struct{ Dev, Ino uint64 }

// osFS is the os package's view: Lstat, ReadDir, links not followed, other
// file systems not entered.
type osFS struct{}

func (osFS) Join(dir, name string) string { return filepath.Join(dir, name) }

func (osFS) Root(path string) (string, Entry, error) {
	// The root itself may be a link; nothing below it is followed.
	if fi, err := os.Lstat(path); err == nil && fi.Mode()&fs.ModeSymlink != 0 {
		if path, err = filepath.EvalSymlinks(path); err != nil {
			return "", Entry{}, err
		}
	}
	fi, err := os.Lstat(path)
	if err != nil {
		return "", Entry{}, err
	}
	return path, entryOf(fi, 0, false), nil
}

// OpenDir opens dir as a directory, never through a link nor any other
// file put in its place (openDir).
func (osFS) OpenDir(dir string) (Dir, error) {
	f, err := openDir(dir)
	if err != nil {
		return nil, err
	}
	d := &osDir{f: f}
	if fi, err := f.Stat(); err == nil {
		d.dev, d.hasDev = devOf(fi)
		d.key, _, d.hasKey = keyOf(fi)
	}
	return d, nil
}

type osDir struct {
	f      *os.File
	dev    uint64
	hasDev bool
	key    FileKey
	hasKey bool
}

// Key is the opened directory's device and inode.
func (d *osDir) Key() (FileKey, bool) { return d.key, d.hasKey }

func (d *osDir) Close() error { return d.f.Close() }

func (d *osDir) Read(n int) ([]Entry, error) {
	des, err := d.f.ReadDir(n)
	out := make([]Entry, 0, len(des))
	for _, de := range des {
		fi, ierr := de.Info()
		if ierr != nil {
			continue // removed since the listing
		}
		out = append(out, entryOf(fi, d.dev, d.hasDev))
	}
	return out, err
}

// entryOf describes fi, found in a directory on device dev (when known).
func entryOf(fi fs.FileInfo, dev uint64, hasDev bool) Entry {
	e := Entry{Name: fi.Name(), Dir: fi.IsDir(), Bytes: allocated(fi)}
	e.Key, e.Links, e.HasKey = keyOf(fi)
	if e.Dir && hasDev {
		if dv, ok := devOf(fi); ok && dv != dev {
			e.Skip = true // a mount below the volume
		}
	}
	return e
}
