package memshare

import (
	"context"
	"fmt"
	"io/fs"
	"path"
	"sort"
	"strconv"
	"strings"
	"syscall"

	"github.com/fileshare-csi/fileshare-csi/pkg/share"
)

// The share.Remover side: RemoveAll is share.RemoveTree, the walk every
// protocol runs, over steps that are each one numbered operation, so a
// removal can be cut at any of them. Refs are paths from the root; on a
// share that follows links, a path through a link reaches its target, as a
// Samba path does.

var _ share.Remover = (*client)(nil)

// RemoveAll is share.RemoveTree over this share's steps.
func (c *client) RemoveAll(ctx context.Context, rel string, opts share.RemoveOptions) error {
	return share.RemoveTree(ctx, c, rel, opts)
}

// entry is name in the directory dir as a removal sees it: a link shown as
// its target where the server follows links.
func (s *Share) entry(dir, name string) (*node, *node, error) {
	p, err := s.resolve(dir, true)
	if err != nil {
		return nil, nil, err
	}
	if !p.dir {
		return nil, nil, fmt.Errorf("%s: not a directory: %w", dir, fs.ErrNotExist)
	}
	n, ok := p.children[name]
	if !ok {
		return nil, nil, fmt.Errorf("%s/%s: %w", dir, name, fs.ErrNotExist)
	}
	return p, n, nil
}

func (c *client) Top(ctx context.Context, rel string) (string, string, share.Attr, error) {
	parts := split(rel)
	dir := strings.Join(parts[:len(parts)-1], "/")
	ref, a, err := c.Lookup(ctx, dir, parts[len(parts)-1])
	return dir, ref, a, err
}

func (c *client) Lookup(ctx context.Context, dir, name string) (string, share.Attr, error) {
	ref := path.Join(dir, name)
	var a share.Attr
	err := c.do(ctx, "lookup", ref, func() error {
		_, n, err := c.s.entry(dir, name)
		if err == nil {
			a = c.s.shown(dir, n).attr()
		}
		return err
	})
	a.Handle = ref
	return ref, a, err
}

// Pages reads a page of names a step, from the start again after a page
// whose entries were removed, as an NFS client must.
func (c *client) Pages(ctx context.Context, dir string, fn func([]share.DirEntry) (int, error)) error {
	off := 0
	for {
		var page []share.DirEntry
		more := false
		if err := c.do(ctx, "readdir", dir, func() error {
			n, err := c.s.resolve(dir, true)
			if err != nil {
				return err
			}
			if !n.dir {
				return fmt.Errorf("readdir %s: not a directory: %w", dir, fs.ErrNotExist)
			}
			names := make([]string, 0, len(n.children))
			for k := range n.children {
				names = append(names, k)
			}
			sort.Strings(names)
			for _, k := range names[min(off, len(names)):min(off+c.s.pageSize(), len(names))] {
				page = append(page, share.DirEntry{Name: k, Attr: c.s.shown(dir, n.children[k]).attr()})
				page[len(page)-1].Attr.Handle = path.Join(dir, k)
			}
			more = off+c.s.pageSize() < len(names)
			return nil
		}); err != nil {
			return err
		}
		removed := 0
		if len(page) > 0 {
			var err error
			if removed, err = fn(page); err != nil {
				return err
			}
		}
		if !more {
			return nil
		}
		if removed > 0 {
			off = 0
		} else {
			off += len(page)
		}
	}
}

func (c *client) Unlink(ctx context.Context, dir, name string) error {
	return c.do(ctx, "remove", path.Join(dir, name), func() error {
		p, n, err := c.s.entry(dir, name)
		if err != nil {
			return err
		}
		if n.dir {
			return fmt.Errorf("remove %s/%s: %w", dir, name, share.ErrIsDir)
		}
		delete(p.children, name)
		return nil
	})
}

// Rmdir removes an empty directory; a link the server shows as an empty
// directory goes as the link, its target staying where it is.
func (c *client) Rmdir(ctx context.Context, dir, name string) error {
	return c.do(ctx, "rmdir", path.Join(dir, name), func() error {
		p, n, err := c.s.entry(dir, name)
		if err != nil {
			return err
		}
		t := c.s.shown(dir, n)
		if !t.dir {
			// As NFS (NOTDIR) and SMB (NOT_A_DIRECTORY) answer: never a
			// removal of a file, and never "not there".
			return fmt.Errorf("rmdir %s/%s: %w", dir, name, syscall.ENOTDIR)
		}
		if len(t.children) > 0 {
			return fmt.Errorf("rmdir %s/%s: %w", dir, name, share.ErrNotEmpty)
		}
		delete(p.children, name)
		return nil
	})
}

func (c *client) OpenUp(ctx context.Context, dir string, _ share.Attr) error {
	return c.do(ctx, "chmod", dir, func() error {
		n, err := c.s.resolve(dir, true)
		if err == nil {
			n.mode |= 0o700
		}
		return err
	})
}

func (c *client) DirIDs(ctx context.Context, paths []string) ([]uint64, error) {
	var ids []uint64
	err := c.do(ctx, "ids", strings.Join(paths, ","), func() error {
		for _, p := range paths {
			if n, err := c.s.resolve(p, true); err == nil && n.dir {
				ids = append(ids, n.id)
			}
		}
		return nil
	})
	return ids, err
}

func (c *client) Marked(ctx context.Context, dir string, id uint64) (bool, error) {
	var marked bool
	err := c.do(ctx, "lookup", dir, func() error {
		_, err := c.s.resolve(path.Join(dir, strconv.FormatUint(id, 10)), false)
		marked = err == nil
		return nil
	})
	return marked, err
}
