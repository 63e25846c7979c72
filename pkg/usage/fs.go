package usage

import "errors"

// FS is what a walk reads: the os package's view of a Linux mount by
// default, a Windows node's SMB mapping through its host (pkg/mounter) on
// Windows. A walk runs in a goroutine of its own, which is allowed to block
// in the kernel on a hung mount: its methods take no context.
type FS interface {
	// Root resolves path, the volume's staging (or published) path, to
	// the directory the walk reads, and describes it.
	Root(path string) (dir string, root Entry, err error)
	// OpenDir opens the directory Root resolved path to. Everything below
	// it is opened through it (Dir.Open), never by a path of its own.
	OpenDir(dir string) (Dir, error)
}

// Dir is a directory being read.
type Dir interface {
	// Read returns up to n more entries, and io.EOF once there are none.
	Read(n int) ([]Entry, error)
	// Open opens e, a directory this Dir's Read returned, for reading.
	// It is what this Dir names e now: never a link followed, nor a file
	// put in the directory's place, nor another file system mounted
	// there; an implementation that can tell (the os view) says
	// errReplaced for a directory that is not the one listed.
	Open(e Entry) (Dir, error)
	Close() error
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
	// (Links > 1) to count once, and for Open to check it opened the
	// directory listed; HasKey false when the FS cannot say.
	Key    FileKey
	Links  uint64
	HasKey bool
	// Skip leaves the entry out altogether (a mount below the volume).
	Skip bool
}

// FileKey names a file across its names (device and inode).
type FileKey struct{ Dev, Ino uint64 }

// errReplaced says a directory the walk listed is no longer there as
// listed when it goes into it: another directory (or a mount) was put in
// its place. The walk leaves it out, as it does one removed.
var errReplaced = errors.New("not the directory listed")
