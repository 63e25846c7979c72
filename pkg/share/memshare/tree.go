package memshare

import (
	"context"
	"fmt"
	"io"
	"io/fs"
	"sort"
	"strings"
	"time"

	"github.com/fileshare-csi/fileshare-csi/pkg/share"
)

// The share.TreeClient side: what snapshots, restores and clones are made
// of. Every call, and every read, write and close of an open file, is one
// numbered operation, so a copy can be cut at any step as the store's calls
// are.

var (
	_ share.TreeClient  = (*client)(nil)
	_ share.IDOpener    = (*client)(nil)
	_ share.FilesReader = (*client)(nil)
)

// pageSize is how many entries one listing page holds.
func (s *Share) pageSize() int {
	if s.PageSize > 0 {
		return s.PageSize
	}
	return 4
}

func (n *node) attr() share.Attr {
	a := share.Attr{ID: n.id, Mode: n.mode.Perm() | n.mode&(fs.ModeSetuid|fs.ModeSetgid|fs.ModeSticky), HasMode: true, ModTime: n.mtime}
	switch {
	case n.link != "":
		a.Type = share.TypeSymlink
	case n.dir:
		a.Type = share.TypeDir
	default:
		a.Type, a.Size = share.TypeFile, int64(len(n.data))
	}
	return a
}

// shown is n as a listing or Lstat shows it: a link to a directory looks
// like that directory where the server follows links.
func (s *Share) shown(dir string, n *node) *node {
	if n.link == "" || !s.FollowLinks {
		return n
	}
	if t, err := s.target(dir, n.link, 0); err == nil {
		return t
	}
	return n
}

func (c *client) Lstat(ctx context.Context, rel string) (share.Attr, error) {
	var a share.Attr
	err := c.do(ctx, "lstat", rel, func() error {
		p, name, err := c.s.parent(rel)
		if err != nil {
			if len(split(rel)) == 0 {
				a = c.s.root.attr()
				return nil
			}
			return err
		}
		n, ok := p.children[name]
		if !ok {
			return fmt.Errorf("lstat %s: %w", rel, fs.ErrNotExist)
		}
		a = c.s.shown(strings.Join(split(rel)[:len(split(rel))-1], "/"), n).attr()
		return nil
	})
	return a, err
}

// ReadDirOf is share.IDLister's: ReadDir of rel when it resolves to the
// directory with file ID id (as the server resolves it: through a link,
// where it follows links).
func (c *client) ReadDirOf(ctx context.Context, rel string, id uint64, fn func([]share.DirEntry) error) error {
	if err := c.do(ctx, "readdir", rel, func() error {
		n, err := c.s.resolve(rel, true)
		if err == nil && n.id != id {
			err = fmt.Errorf("readdir %s: file ID %d, not %d: %w", rel, n.id, id, share.ErrChanged)
		}
		return err
	}); err != nil {
		return err
	}
	return c.ReadDir(ctx, rel, fn)
}

func (c *client) ReadDir(ctx context.Context, rel string, fn func([]share.DirEntry) error) error {
	var names []string
	if err := c.do(ctx, "readdir", rel, func() error {
		n, err := c.s.resolve(rel, true)
		if err != nil {
			return err
		}
		if !n.dir {
			return fmt.Errorf("readdir %s: not a directory: %w", rel, fs.ErrInvalid)
		}
		for k := range n.children {
			names = append(names, k)
		}
		sort.Strings(names)
		return nil
	}); err != nil {
		return err
	}
	for len(names) > 0 {
		batch := names[:min(c.s.pageSize(), len(names))]
		names = names[len(batch):]
		var page []share.DirEntry
		if err := c.do(ctx, "readdir page", rel, func() error {
			n, err := c.s.resolve(rel, true)
			if err != nil {
				return err
			}
			for _, k := range batch {
				if e, ok := n.children[k]; ok { // gone since: left out
					page = append(page, share.DirEntry{Name: k, Attr: c.s.shown(rel, e).attr()})
				}
			}
			return nil
		}); err != nil {
			return err
		}
		if len(page) > 0 {
			if err := fn(page); err != nil {
				return err
			}
		}
	}
	return nil
}

func (c *client) Readlink(ctx context.Context, rel string) (string, error) {
	var t string
	err := c.do(ctx, "readlink", rel, func() error {
		n, err := c.s.resolve(rel, false)
		if err != nil {
			return err
		}
		if n.link == "" {
			return fmt.Errorf("readlink %s: not a link: %w", rel, fs.ErrInvalid)
		}
		t = n.link
		return nil
	})
	return t, err
}

func (c *client) Symlink(ctx context.Context, target, rel string) error {
	return c.do(ctx, "symlink", rel, func() error { return c.s.symlink(target, rel) })
}

// file is an open file: reads and writes go to the node it was opened as,
// wherever it is renamed to, as on a server.
type file struct {
	c   *client
	rel string
	n   *node
}

func (c *client) Open(ctx context.Context, rel string) (share.FileReader, error) {
	return c.OpenID(ctx, rel, 0)
}

// OpenID is share.IDOpener's: Open of rel when it resolves to the file
// with file ID id (any, when 0), as the server resolves it (through a
// link, where it follows links).
func (c *client) OpenID(ctx context.Context, rel string, id uint64) (share.FileReader, error) {
	f := &file{c: c, rel: rel}
	err := c.do(ctx, "open", rel, func() error {
		n, err := c.s.resolve(rel, true)
		if err != nil {
			return err
		}
		if n.dir {
			return fmt.Errorf("open %s: a directory: %w", rel, fs.ErrInvalid)
		}
		if id != 0 && n.id != id {
			return fmt.Errorf("open %s: file ID %d, not %d: %w", rel, n.id, id, share.ErrChanged)
		}
		f.n = n
		return nil
	})
	return f, err
}

func (c *client) Create(ctx context.Context, rel string, perm fs.FileMode) (share.FileWriter, error) {
	f := &file{c: c, rel: rel}
	err := c.do(ctx, "create", rel, func() error {
		p, name, err := c.s.parent(rel)
		if err != nil {
			return err
		}
		if _, ok := p.children[name]; ok {
			return fmt.Errorf("create %s: %w", rel, fs.ErrExist)
		}
		n := c.s.newNode(false)
		n.mode = perm
		n.mtime = time.Unix(0, 0)
		p.children[name] = n
		f.n = n
		return nil
	})
	return f, err
}

func (f *file) ReadAt(ctx context.Context, p []byte, off int64) (int, error) {
	var n int
	err := f.c.do(ctx, "read", f.rel, func() error {
		if off >= int64(len(f.n.data)) {
			return io.EOF
		}
		n = copy(p, f.n.data[off:])
		if n < len(p) {
			return io.EOF
		}
		return nil
	})
	return n, err
}

func (f *file) WriteAt(ctx context.Context, p []byte, off int64) (int, error) {
	err := f.c.do(ctx, "write", f.rel, func() error {
		if end := off + int64(len(p)); end > int64(len(f.n.data)) {
			f.n.data = append(f.n.data, make([]byte, end-int64(len(f.n.data)))...)
		}
		copy(f.n.data[off:], p)
		return nil
	})
	return len(p), err
}

func (f *file) Close(ctx context.Context) error {
	return f.c.do(ctx, "close", f.rel, func() error { return nil })
}

func (c *client) SetAttr(ctx context.Context, rel string, a share.Attr, mask share.AttrMask) error {
	return c.do(ctx, "setattr", rel, func() error {
		n, err := c.s.resolve(rel, false)
		if err != nil {
			return err
		}
		if mask&share.SetMode != 0 {
			n.mode = a.Mode
		}
		if mask&share.SetModTime != 0 {
			n.mtime = a.ModTime
		}
		if mask&share.SetSize != 0 {
			if a.Size < int64(len(n.data)) {
				n.data = n.data[:a.Size]
			} else {
				n.data = append(n.data, make([]byte, a.Size-int64(len(n.data)))...)
			}
		}
		return nil
	})
}

// FilesLimit, FilesMask and WriteFiles are share.FilesWriter's: each file
// is its steps one after another (create, write, close, setattr), so the
// crash tests cut a batch of files anywhere.
func (c *client) FilesLimit() (size, count int) { return 1 << 20, 4 }

func (c *client) FilesMask() share.AttrMask { return share.SetMode | share.SetModTime }

func (c *client) WriteFiles(ctx context.Context, files []share.SmallFile) []error {
	errs := make([]error, len(files))
	for i, f := range files {
		errs[i] = c.writeSmall(ctx, f)
	}
	return errs
}

func (c *client) writeSmall(ctx context.Context, f share.SmallFile) error {
	w, err := c.Create(ctx, f.Path, 0o600)
	if err != nil {
		return err
	}
	if len(f.Data) > 0 {
		if _, err := w.WriteAt(ctx, f.Data, 0); err != nil {
			_ = w.Close(ctx)
			return err
		}
	}
	if err := w.Close(ctx); err != nil {
		return err
	}
	return c.SetAttr(ctx, f.Path, f.Attr, f.Mask&c.FilesMask())
}

// ReadFiles is share.FilesReader's: ReadFile of each, one step each, of
// the file with the listed ID only.
func (c *client) ReadFiles(ctx context.Context, files []share.ListedFile) []share.Result {
	res := make([]share.Result, len(files))
	for i, f := range files {
		res[i].Data, res[i].Err = c.readFileID(ctx, f.Path, f.ID)
	}
	return res
}
