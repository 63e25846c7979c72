package share

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"time"

	"github.com/vmware/go-nfs-client/nfs"
	"github.com/vmware/go-nfs-client/nfs/rpc"
)

const (
	procReadlink = 5
	procSymlink  = 10
	procCommit   = 21
)

// nfsIOSize is what one READ or WRITE carries: servers take 64 KiB and
// more (Linux nfsd 1 MiB), and the copy's chunk is split into these.
const nfsIOSize = 64 << 10

var _ TreeClient = (*nfsClient)(nil)

func attrOf(a nfs.Fattr) Attr {
	out := Attr{
		HasMode: true, HasOwner: true,
		UID: a.UID, GID: a.GID, Size: int64(a.Filesize),
		ModTime: time.Unix(int64(a.Mtime.Seconds), int64(a.Mtime.Nseconds)).UTC(),
		ID:      a.Fileid, FSID: [2]uint64{a.FSID, 0},
		Mode: fs.FileMode(a.FileMode & 0o777),
	}
	if a.FileMode&0o4000 != 0 {
		out.Mode |= fs.ModeSetuid
	}
	if a.FileMode&0o2000 != 0 {
		out.Mode |= fs.ModeSetgid
	}
	if a.FileMode&0o1000 != 0 {
		out.Mode |= fs.ModeSticky
	}
	switch a.Type {
	case nfs.NF3Reg:
		out.Type = TypeFile
	case nfs.NF3Dir:
		out.Type = TypeDir
	case nfs.NF3Lnk:
		out.Type = TypeSymlink
	}
	return out
}

// lookupLast resolves rel to its own handle and attributes without
// following a link in its last component (LOOKUP never does).
func (c *nfsClient) lookupLast(ctx context.Context, rel string) ([]byte, nfs.Fattr, error) {
	dir, name, err := c.resolveParent(ctx, rel)
	if err != nil {
		return nil, nfs.Fattr{}, err
	}
	if name == "" {
		attr, err := c.getattr(ctx, c.root)
		return c.root, attr, err
	}
	fh, attr, err := c.lookupAttr(ctx, dir, name)
	if err != nil {
		return nil, nfs.Fattr{}, fmt.Errorf("%s: %w", rel, err)
	}
	return fh, attr, nil
}

func (c *nfsClient) Lstat(ctx context.Context, rel string) (Attr, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	_, attr, err := c.lookupLast(ctx, rel)
	if err != nil {
		return Attr{}, err
	}
	return attrOf(attr), nil
}

// ReadDir reads a READDIRPLUS page at a time; the session is held only
// for each page's call, so fn may use the client.
func (c *nfsClient) ReadDir(ctx context.Context, rel string, fn func([]DirEntry) error) error {
	c.mu.Lock()
	fh, _, err := c.lookupLast(ctx, rel)
	c.mu.Unlock()
	if err != nil {
		return err
	}
	var cookie, verf uint64
	for {
		c.mu.Lock()
		page, err := c.readdirplus(ctx, fh, cookie, verf)
		var entries []DirEntry
		if err == nil {
			entries = make([]DirEntry, 0, len(page.entries))
			for _, e := range page.entries {
				attr := e.Attr.Attr
				if !e.Attr.IsSet {
					// The server left the attributes out: ask for them.
					if _, attr, err = c.lookupAttr(ctx, fh, e.FileName); err != nil {
						if errors.Is(err, fs.ErrNotExist) {
							err = nil
							continue // removed since the listing
						}
						break
					}
				}
				entries = append(entries, DirEntry{Name: e.FileName, Attr: attrOf(attr)})
			}
		}
		c.mu.Unlock()
		if err != nil {
			return fmt.Errorf("list %s: %w", rel, err)
		}
		if len(entries) > 0 {
			if err := fn(entries); err != nil {
				return err
			}
		}
		if page.eof {
			return nil
		}
		cookie, verf = page.cookie, page.verf
	}
}

func (c *nfsClient) Readlink(ctx context.Context, rel string) (string, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	fh, _, err := c.lookupLast(ctx, rel)
	if err != nil {
		return "", err
	}
	res, err := c.call(ctx, &struct {
		rpc.Header
		FH []byte
	}{c.header(procReadlink), fh})
	if err != nil {
		return "", fmt.Errorf("readlink %s: %w", rel, err)
	}
	var reply struct {
		Attr   nfs.PostOpAttr
		Target string
	}
	if err := res.Decode(&reply); err != nil {
		c.broken = true
		return "", fmt.Errorf("%w: %w", ErrUnavailable, err)
	}
	return reply.Target, nil
}

func (c *nfsClient) Symlink(ctx context.Context, target, rel string) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	dir, name, err := c.resolveParent(ctx, rel)
	if err != nil {
		return err
	}
	_, err = c.call(ctx, &struct {
		rpc.Header
		Where  nfs.Diropargs3
		Attr   nfs.Sattr3
		Target string
	}{c.header(procSymlink), nfs.Diropargs3{FH: dir, Filename: name}, nfs.Sattr3{Mode: nfs.SetMode{SetIt: true, Mode: 0o777}}, target})
	if err != nil {
		return fmt.Errorf("symlink %s: %w", rel, err)
	}
	return nil
}

// nfsFile is one file open for a copy. NFSv3 has no open: the handle is
// all there is, and the session's lock is taken per call.
type nfsFile struct {
	c    *nfsClient
	fh   []byte
	rel  string
	verf uint64 // the write verifier of the first UNSTABLE write
	// wrote: UNSTABLE data a COMMIT must make stable.
	wrote bool
}

func (c *nfsClient) Open(ctx context.Context, rel string) (FileReader, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	fh, attr, err := c.lookupLast(ctx, rel)
	if err != nil {
		return nil, err
	}
	if attr.Type != nfs.NF3Reg {
		return nil, fmt.Errorf("open %s: not a regular file: %w", rel, fs.ErrInvalid)
	}
	return &nfsFile{c: c, fh: fh, rel: rel}, nil
}

func (f *nfsFile) ReadAt(ctx context.Context, p []byte, off int64) (int, error) {
	f.c.mu.Lock()
	defer f.c.mu.Unlock()
	n := 0
	for n < len(p) {
		data, eof, err := f.c.readAt(ctx, f.fh, uint64(off)+uint64(n), uint32(min(len(p)-n, nfsIOSize)))
		if err != nil {
			return n, fmt.Errorf("read %s: %w", f.rel, err)
		}
		n += copy(p[n:], data)
		if eof {
			return n, io.EOF
		}
		if len(data) == 0 {
			return n, fmt.Errorf("read %s: the server returned nothing before the end: %w", f.rel, io.ErrNoProgress)
		}
	}
	return n, nil
}

func (f *nfsFile) WriteAt(ctx context.Context, p []byte, off int64) (int, error) {
	f.c.mu.Lock()
	defer f.c.mu.Unlock()
	n := 0
	for n < len(p) {
		count, verf, err := f.c.writeAt(ctx, f.fh, uint64(off)+uint64(n), p[n:min(len(p), n+nfsIOSize)], stableUnstable)
		if err != nil {
			return n, fmt.Errorf("write %s: %w", f.rel, err)
		}
		if err := f.sameVerifier(verf); err != nil {
			return n, err
		}
		f.wrote = true
		n += int(count)
	}
	return n, nil
}

// sameVerifier checks that the server did not restart between writes: a
// new verifier means UNSTABLE data written before may be lost, and the
// copy must start the file again (the copy's resume does: the file is
// not complete until its time is set).
func (f *nfsFile) sameVerifier(v uint64) error {
	if !f.wrote {
		f.verf = v
		return nil
	}
	if v != f.verf {
		return fmt.Errorf("write %s: the server restarted during the copy and may have lost unstable data: %w", f.rel, ErrUnavailable)
	}
	return nil
}

// Close commits the UNSTABLE writes: one COMMIT per file instead of a
// FILE_SYNC per write, which makes a server flush its disk once per file
// rather than once per 64 KiB.
func (f *nfsFile) Close(ctx context.Context) error {
	if !f.wrote {
		return nil
	}
	f.c.mu.Lock()
	defer f.c.mu.Unlock()
	res, err := f.c.call(ctx, &struct {
		rpc.Header
		FH     []byte
		Offset uint64
		Count  uint32
	}{f.c.header(procCommit), f.fh, 0, 0})
	if err != nil {
		return fmt.Errorf("commit %s: %w", f.rel, err)
	}
	var reply struct {
		Wcc  nfs.WccData
		Verf uint64
	}
	if err := res.Decode(&reply); err != nil {
		f.c.broken = true
		return fmt.Errorf("%w: %w", ErrUnavailable, err)
	}
	return f.sameVerifier(reply.Verf)
}

func (c *nfsClient) Create(ctx context.Context, rel string, perm fs.FileMode) (FileWriter, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	dir, name, err := c.resolveParent(ctx, rel)
	if err != nil {
		return nil, err
	}
	// CREATE UNCHECKED with size 0 creates or truncates.
	res, err := c.call(ctx, &struct {
		rpc.Header
		Where nfs.Diropargs3
		How   uint32
		Attr  nfs.Sattr3
	}{c.header(procCreate), nfs.Diropargs3{FH: dir, Filename: name}, 0,
		nfs.Sattr3{Mode: nfs.SetMode{SetIt: true, Mode: unixMode(perm)}, Size: nfs.SetSize{SetIt: true, Size: 0}}})
	if err != nil {
		return nil, fmt.Errorf("create %s: %w", rel, err)
	}
	fh, err := c.createdHandle(ctx, res, dir, name)
	if err != nil {
		return nil, err
	}
	return &nfsFile{c: c, fh: fh, rel: rel}, nil
}

func (c *nfsClient) SetAttr(ctx context.Context, rel string, a Attr, mask AttrMask) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	fh, _, err := c.lookupLast(ctx, rel)
	if err != nil {
		return err
	}
	var s nfs.Sattr3
	if mask&SetMode != 0 {
		s.Mode = nfs.SetMode{SetIt: true, Mode: unixMode(a.Mode)}
	}
	if mask&SetOwner != 0 {
		s.UID = nfs.SetUID{SetIt: true, UID: a.UID}
		s.GID = nfs.SetUID{SetIt: true, UID: a.GID}
	}
	if mask&SetSize != 0 {
		s.Size = nfs.SetSize{SetIt: true, Size: uint64(a.Size)}
	}
	if mask&SetModTime != 0 {
		s.Mtime = nfs.SetTime{SetIt: nfs.SetToClientTime, Time: nfs.NFS3Time{Seconds: uint32(a.ModTime.Unix()), Nseconds: uint32(a.ModTime.Nanosecond())}}
	}
	if err := c.setattr(ctx, fh, s); err != nil {
		return fmt.Errorf("%s: %w", rel, err)
	}
	return nil
}
