package nfs3

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"strconv"

	"github.com/vmware/go-nfs-client/nfs"
	"github.com/vmware/go-nfs-client/nfs/rpc"

	"github.com/fileshare-csi/fileshare-csi/pkg/share"
)

// RemoveAll is RemoveTree over NFSv3. NFS shows a link as a link, LOOKUP
// never follows one and REMOVE takes the link away; the guard still
// matters, because a server can show one directory in two places (a bind
// mount on the server, which NFS-Ganesha shows as a plain directory with
// the ID of what it shows).
func (c *nfsClient) RemoveAll(ctx context.Context, rel string, opts share.RemoveOptions) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	defer c.scoped.Forget(rel)
	return share.RemoveTree(ctx, nfsRemover{c}, rel, opts)
}

// nfsRemover is a session as the removal walk uses it; refs are file
// handles, which hold on every session to the same export. The caller holds
// the session's lock, or the session is a borrowed helper no one else has.
type nfsRemover struct{ c *nfsClient }

func (r nfsRemover) Top(ctx context.Context, rel string) (string, string, share.Attr, error) {
	dir, name, err := r.c.resolveParent(ctx, rel)
	if err != nil {
		return "", "", share.Attr{}, err
	}
	fh, attr, err := r.c.lookupAttr(ctx, dir, name)
	if err != nil {
		return "", "", share.Attr{}, err
	}
	return string(dir), string(fh), attrOf(attr), nil
}

func (r nfsRemover) Lookup(ctx context.Context, dir, name string) (string, share.Attr, error) {
	fh, attr, err := r.c.lookupAttr(ctx, []byte(dir), name)
	if err != nil {
		return "", share.Attr{}, err
	}
	return string(fh), attrOf(attr), nil
}

// Pages reads READDIRPLUS replies, and from the start again after one whose
// entries were removed: cookies into a directory whose entries were just
// removed are not reliable on every server.
func (r nfsRemover) Pages(ctx context.Context, dir string, fn func([]share.DirEntry) (int, error)) error {
	fh := []byte(dir)
	l := dirListing{fh: fh}
	for {
		page, err := r.c.nextPage(ctx, &l)
		if err != nil {
			return err
		}
		removed := 0
		if len(page.entries) > 0 {
			entries := make([]share.DirEntry, len(page.entries))
			for i, e := range page.entries {
				entries[i].Name = e.FileName
				if e.Attr.IsSet {
					entries[i].Attr = attrOf(e.Attr.Attr)
				}
				if e.Handle.IsSet {
					entries[i].Attr.Handle = string(e.Handle.FH)
				}
			}
			if removed, err = fn(entries); err != nil {
				return err
			}
		}
		if page.eof {
			return nil
		}
		if removed > 0 {
			// From the start again: a new listing, whose cookies may
			// be the last one's. With nothing removed (entries already
			// gone, or directories left alone) the listing goes on
			// from where nextPage moved it, or this would read the
			// same page again.
			l = dirListing{fh: fh}
		}
	}
}

func (r nfsRemover) Unlink(ctx context.Context, dir, name string) error {
	err := r.c.removeEntry(ctx, procRemove, []byte(dir), name)
	if isNFSStatus(err, nfs.NFS3ErrIsDir) {
		return fmt.Errorf("%w: %w", share.ErrIsDir, err)
	}
	return err
}

func (r nfsRemover) Rmdir(ctx context.Context, dir, name string) error {
	return r.c.removeEntry(ctx, procRmdir, []byte(dir), name)
}

func (r nfsRemover) OpenUp(ctx context.Context, dir string, a share.Attr) error {
	return r.c.setattr(ctx, []byte(dir), nfs.Sattr3{Mode: nfs.SetMode{SetIt: true, Mode: share.UnixMode(a.Mode) | 0o700}})
}

// DirIDs looks each path up from the deepest one before it that it lies
// in, so a chain of directories from the root costs a LOOKUP each.
func (r nfsRemover) DirIDs(ctx context.Context, paths []string) ([]uint64, error) {
	known := map[string][]byte{}
	var ids []uint64
	for _, p := range paths {
		if p == "" {
			root, err := r.c.getattr(ctx, r.c.root)
			if err != nil {
				return nil, fmt.Errorf("getattr of the export's root: %w", err)
			}
			known[""] = r.c.root
			ids = append(ids, root.Fileid)
			continue
		}
		parent, name := path.Split(p)
		dir, ok := known[path.Clean("/" + parent)[1:]]
		var err error
		if !ok {
			dir, name, err = r.c.resolveParent(ctx, p)
		}
		var fh []byte
		var attr nfs.Fattr
		if err == nil {
			fh, attr, err = r.c.lookupAttr(ctx, dir, name)
		}
		if missing(err) {
			// Renamed or never made: what was read so far stays fenced.
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("look up %s: %w", p, err)
		}
		known[p] = fh
		ids = append(ids, attr.Fileid)
	}
	return ids, nil
}

// Marked looks the mark up in dir, whose handle a session keeps (it is a
// fixed directory of the layout): one LOOKUP per question.
func (r nfsRemover) Marked(ctx context.Context, dir string, id uint64) (bool, error) {
	fh, err := r.c.resolve(ctx, dir)
	if missing(err) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("look up %s: %w", dir, err)
	}
	_, _, err = r.c.lookup(ctx, fh, strconv.FormatUint(id, 10))
	if missing(err) {
		return false, nil
	}
	return err == nil, err
}

// missing says err is the server's answer that a name does not exist.
func missing(err error) bool { return errors.Is(err, fs.ErrNotExist) }

// removeWorkers is how many extra sessions a large RemoveAll spreads its
// RPCs over. One NFS call at a time is bound by the round trip; the server
// and the kernel client (rm -rf over a mount) overlap several. Measured in
// docs/benchmarks.md.
const removeWorkers = 8

// Workers borrows up to removeWorkers sessions from the pool the session
// came from: they count against the pool's per-share bound, idle ones are
// reused, and no directory, however many there are, opens connections of
// its own. When the pool has none to spare the walk goes on alone.
func (r nfsRemover) Workers(ctx context.Context) ([]share.Remover, func([]error)) {
	if r.c.helpers == nil {
		return nil, nil
	}
	var leases []*share.Lease
	var done []func()
	var ws []share.Remover
	for range removeWorkers {
		l, d := r.c.helpers(ctx)
		if l == nil {
			break
		}
		h, ok := l.Client.(*nfsClient)
		if !ok {
			l.Release(nil)
			d()
			break
		}
		if l.Reused {
			// It may have died while idle; a dead helper would fail the
			// whole deletion.
			if err := h.null(ctx); err != nil {
				l.Release(err)
				d()
				continue
			}
		}
		leases, done, ws = append(leases, l), append(done, d), append(ws, nfsRemover{h})
	}
	return ws, func(errs []error) {
		for i, l := range leases {
			l.Release(errs[i])
			done[i]()
		}
	}
}

// null calls the NFS NULL procedure: the cheapest proof that a session works.
func (c *nfsClient) null(ctx context.Context) error {
	_, err := guarded(ctx, c.conn, &struct{ rpc.Header }{c.header(0)})
	if err != nil {
		c.broken = true
	}
	return err
}
