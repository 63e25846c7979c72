//go:build !unix

package usage

import (
	"io/fs"
	"os"
	"path/filepath"
)

// osFS elsewhere is a plain view by paths, links not followed: the walk's
// os view is for Linux mounts (fs_unix.go), and a Windows node walks its
// SMB mappings through its host (pkg/mounter's UsageFS). Windows gives no
// device, inode or block count through os.Lstat: every name counts, at its
// size.
type osFS struct{}

func (osFS) Root(path string) (string, Entry, error) {
	if fi, err := os.Lstat(path); err == nil && fi.Mode()&fs.ModeSymlink != 0 {
		if path, err = filepath.EvalSymlinks(path); err != nil {
			return "", Entry{}, err
		}
	}
	fi, err := os.Lstat(path)
	if err != nil {
		return "", Entry{}, err
	}
	return path, entryOf(fi), nil
}

func (osFS) OpenDir(dir string) (Dir, error) {
	f, err := os.Open(dir)
	if err != nil {
		return nil, err
	}
	return &osDir{f: f, path: dir}, nil
}

type osDir struct {
	f    *os.File
	path string
}

func (d *osDir) Close() error { return d.f.Close() }

func (d *osDir) Read(n int) ([]Entry, error) {
	des, err := d.f.ReadDir(n)
	out := make([]Entry, 0, len(des))
	for _, de := range des {
		if fi, ierr := de.Info(); ierr == nil {
			out = append(out, entryOf(fi))
		}
	}
	return out, err
}

func (d *osDir) Open(e Entry) (Dir, error) {
	p := filepath.Join(d.path, e.Name)
	if fi, err := os.Lstat(p); err != nil || !fi.IsDir() || !e.Dir {
		return nil, errReplaced
	}
	return osFS{}.OpenDir(p)
}

func entryOf(fi fs.FileInfo) Entry {
	e := Entry{Name: fi.Name(), Dir: fi.IsDir()}
	if !e.Dir {
		e.Bytes = fi.Size()
	}
	return e
}

func notADir(error) bool { return false }
