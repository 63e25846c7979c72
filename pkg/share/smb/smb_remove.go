package smb

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path"
	"strconv"
	"strings"

	"github.com/cloudsoda/go-smb2"

	"github.com/fileshare-csi/fileshare-csi/pkg/share"
)

// fileAttributeReparsePoint is FILE_ATTRIBUTE_REPARSE_POINT (MS-FSCC 2.6):
// symlinks, junctions and every other reparse point.
const fileAttributeReparsePoint = 0x400

// smbRemoveWorkers is how many requests beside the walk's own a large
// RemoveAll keeps in flight. SMB2 multiplexes requests on one session (the
// library matches replies by message ID), so one round trip at a time would
// waste the connection; the workers share the caller's session and open no
// connection of their own.
const smbRemoveWorkers = 8

// smbReadBatch is how many directory entries are held at once per directory
// level: a directory with a million entries is read and emptied batch by
// batch, never listed whole.
const smbReadBatch = 512

// RemoveAll is RemoveTree over SMB. Samba, by default, resolves in-share
// symlinks for its clients: a link to another volume is shown as that
// volume's directory, with its ID, which is what the guard's marks and
// fenced IDs are for.
func (c *smbClient) RemoveAll(ctx context.Context, rel string, opts share.RemoveOptions) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	return share.RemoveTree(ctx, smbRemover{c}, rel, opts)
}

// smbRemover is a session as the removal walk uses it; refs are paths from
// the share's root. Its workers share the session (the library serves
// concurrent requests on it); the caller holds the session's lock.
type smbRemover struct{ c *smbClient }

func smbJoin(dir, name string) string {
	if dir == "" {
		return name
	}
	return dir + `\` + name
}

// Top is Lookup of rel's last name in its parent directory.
func (r smbRemover) Top(ctx context.Context, rel string) (string, string, share.Attr, error) {
	parent, name := path.Split(r.c.full(rel))
	parent = strings.TrimSuffix(parent, "/")
	self, a, err := r.Lookup(ctx, parent, name)
	return parent, self, a, err
}

// Lookup opens name itself (a link stays a link) and asks for its ID in
// the same compound.
func (r smbRemover) Lookup(ctx context.Context, dir, name string) (string, share.Attr, error) {
	p := smbJoin(dir, name)
	st, err := lstatSMB(r.c.on(ctx), p)
	if err != nil {
		return "", share.Attr{}, r.c.wrap(ctx, "stat", p, err)
	}
	a, err := r.c.smbAttr(st)
	if err != nil {
		return "", share.Attr{}, r.c.wrap(ctx, "stat", p, err)
	}
	a.Handle = p
	return p, a, nil
}

// Pages reads the directory through one open handle, which goes on past
// the entries removed meanwhile.
func (r smbRemover) Pages(ctx context.Context, dir string, fn func([]share.DirEntry) (int, error)) error {
	f, err := r.c.on(ctx).Open(dir)
	if err != nil {
		return r.c.wrap(ctx, "open", dir, err)
	}
	defer f.Close()
	sh := r.c.on(ctx)
	for {
		page, err := r.c.readDirBatch(sh, f, dir)
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return r.c.wrap(ctx, "list", dir, err)
		}
		for i := range page {
			page[i].Attr.Handle = smbJoin(dir, page[i].Name)
		}
		if _, err := fn(page); err != nil {
			return err
		}
	}
}

// Unlink deletes a file or link; the library opens a reparse point as
// itself (FILE_OPEN_REPARSE_POINT), never what it leads to.
func (r smbRemover) Unlink(ctx context.Context, dir, name string) error {
	p := smbJoin(dir, name)
	return r.unlinked(ctx, p, r.c.removeOne(r.c.on(ctx), p))
}

// unlinked is what Unlink answers for p, removed with err.
func (r smbRemover) unlinked(ctx context.Context, p string, err error) error {
	if ntStatus(err) == 0xC00000BA { // STATUS_FILE_IS_A_DIRECTORY
		return fmt.Errorf("remove %s: %w: %w", p, share.ErrIsDir, err)
	}
	return r.c.wrap(ctx, "remove", p, err)
}

// smbUnlinkBatch is how many names one compound removes: three requests
// each (CREATE, SET_INFO, CLOSE), 48 credits, which a session lends
// several workers at once.
const smbUnlinkBatch = 16

// UnlinkAll removes up to smbUnlinkBatch names of dir in one related
// compound (the patch in third_party/go-smb2). The server goes on after a
// failed part, so each name has its own outcome; a file the server refused
// (read-only) goes on its own, through Unlink.
func (r smbRemover) UnlinkAll(ctx context.Context, dir string, names []string) ([]error, error) {
	n := min(len(names), smbUnlinkBatch)
	ops := make([]smb2.SmallOp, n)
	for i, name := range names[:n] {
		ops[i] = smb2.SmallOp{Kind: smb2.SmallRemove, Name: smbJoin(dir, name)}
	}
	errs := make([]error, n)
	for i, res := range r.c.on(ctx).Batch(ops) {
		if errors.Is(res.Err, fs.ErrPermission) {
			errs[i] = r.Unlink(ctx, dir, names[i])
			continue
		}
		errs[i] = r.unlinked(ctx, ops[i].Name, res.Err)
	}
	return errs, nil
}

// Rmdir deletes an empty directory. A refusal counts as "not empty": Samba
// refuses a directory that holds a link it hides (one that leads outside
// the share), and the walk decides what another pass can do.
func (r smbRemover) Rmdir(ctx context.Context, dir, name string) error {
	p := smbJoin(dir, name)
	err := r.c.removeOne(r.c.on(ctx), p)
	if isNotEmpty(err) || errors.Is(err, fs.ErrPermission) {
		return fmt.Errorf("rmdir %s: %w: %w", p, share.ErrNotEmpty, err)
	}
	return r.c.wrap(ctx, "rmdir", p, err)
}

// OpenUp has nothing to do: SMB carries no Unix modes (Attr.HasMode is
// false), and a read-only attribute is cleared where it stops a removal.
func (r smbRemover) OpenUp(context.Context, string, share.Attr) error { return nil }

func (r smbRemover) DirIDs(ctx context.Context, paths []string) ([]uint64, error) {
	sh := r.c.on(ctx)
	var ids []uint64
	for _, p := range paths {
		id, err := fileID(sh, r.c.full(p))
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return nil, r.c.wrap(ctx, "stat", p, err)
		}
		ids = append(ids, id)
	}
	return ids, nil
}

func (r smbRemover) Marked(ctx context.Context, dir string, id uint64) (bool, error) {
	p := r.c.full(dir) + `\` + strconv.FormatUint(id, 10)
	_, err := r.c.on(ctx).LstatID(p)
	if errors.Is(err, fs.ErrNotExist) {
		return false, nil
	}
	return err == nil, r.c.wrap(ctx, "stat", p, err)
}

// Workers are more Removers on the same session: the requests of a large
// directory go out side by side.
func (r smbRemover) Workers(context.Context) ([]share.Remover, func([]error)) {
	ws := make([]share.Remover, smbRemoveWorkers)
	for i := range ws {
		ws[i] = r
	}
	return ws, nil
}

func isNotEmpty(err error) bool {
	return ntStatus(err) == 0xC0000101 // STATUS_DIRECTORY_NOT_EMPTY
}
