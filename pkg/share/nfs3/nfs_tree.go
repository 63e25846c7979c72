package nfs3

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"time"

	"github.com/vmware/go-nfs-client/nfs"
	"github.com/vmware/go-nfs-client/nfs/rpc"

	"github.com/fileshare-csi/fileshare-csi/pkg/share"
	"github.com/fileshare-csi/fileshare-csi/pkg/share/oncrpc"
)

const (
	procReadlink = 5
	procSymlink  = 10
	procFsinfo   = 19
	procCommit   = 21
)

// maxIOSize bounds one READ or WRITE whatever FSINFO allows (Linux nfsd and
// NFS-Ganesha say 1 MiB): a READ reply must fit in one RPC record
// (oncrpc.MaxRecord) with its headers. A copy's 1 MiB chunk is two calls.
const maxIOSize = oncrpc.MaxRecord / 2

// defaultIOSize is what a READ or WRITE carries when the server answers
// FSINFO with an error or a size of 0: 32 KiB, what ReadFile asks for, is
// within what every NFSv3 server takes.
const defaultIOSize = 32 << 10

var _ share.TreeClient = (*nfsClient)(nil)

// nfsIOSizes are the largest READ and WRITE counts a session uses.
type nfsIOSizes struct{ read, write int }

// ioSizes asks FSINFO, once a session, for the server's rtmax and wtmax and
// keeps them within maxIOSize. It asks about the export's root: servers give
// one limit for all they export, and a file system mounted below the root
// on the server is read through the same nfsd. c.mu must be held.
func (c *nfsClient) ioSizes(ctx context.Context) (nfsIOSizes, error) {
	if c.io.read != 0 {
		return c.io, nil
	}
	sizes := nfsIOSizes{read: defaultIOSize, write: defaultIOSize}
	res, err := c.call(ctx, &struct {
		rpc.Header
		FH []byte
	}{c.header(procFsinfo), c.root})
	switch {
	case err == nil:
		var info nfs.FSInfo
		if err := res.Decode(&info); err != nil {
			c.broken = true
			return nfsIOSizes{}, fmt.Errorf("fsinfo: %w: %w", share.ErrUnavailable, err)
		}
		sizes = nfsIOSizes{read: ioSize(info.RTMax), write: ioSize(info.WTMax)}
	case share.BreaksSession(err):
		return nfsIOSizes{}, fmt.Errorf("fsinfo: %w", err)
	}
	// An NFS status (FSINFO refused) leaves the defaults.
	c.io = sizes
	return sizes, nil
}

func ioSize(limit uint32) int {
	if limit == 0 {
		return defaultIOSize
	}
	return int(min(limit, maxIOSize))
}

func attrOf(a nfs.Fattr) share.Attr {
	out := share.Attr{
		HasMode: true, HasOwner: true,
		// size3 is unsigned: one of 2^63 or more (a broken or hostile
		// server) is clamped, never a negative size for the copy.
		UID: a.UID, GID: a.GID, Size: share.ClampInt64(a.Filesize),
		ModTime: time.Unix(int64(a.Mtime.Seconds), int64(a.Mtime.Nseconds)).UTC(),
		ID:      a.Fileid, FSID: [2]uint64{a.FSID, 0},
		Mode: share.UnixFileMode(a.FileMode),
	}
	switch a.Type {
	case nfs.NF3Reg:
		out.Type = share.TypeFile
		// Fewer bytes on disk than the size: holes, which a server-side
		// copy would write out.
		out.Sparse = a.Used < a.Filesize
	case nfs.NF3Dir:
		out.Type = share.TypeDir
	case nfs.NF3Lnk:
		out.Type = share.TypeSymlink
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

func (c *nfsClient) Lstat(ctx context.Context, rel string) (share.Attr, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	_, attr, err := c.lookupLast(ctx, rel)
	if err != nil {
		return share.Attr{}, err
	}
	return attrOf(attr), nil
}

// ReadDir reads a READDIRPLUS page at a time; the session is held only
// for each page's call, so fn may use the client.
func (c *nfsClient) ReadDir(ctx context.Context, rel string, fn func([]share.DirEntry) error) error {
	c.mu.Lock()
	fh, _, err := c.lookupLast(ctx, rel)
	c.mu.Unlock()
	if err != nil {
		return err
	}
	l := dirListing{fh: fh}
	for {
		c.mu.Lock()
		page, err := c.nextPage(ctx, &l)
		var entries []share.DirEntry
		if err == nil {
			entries = make([]share.DirEntry, 0, len(page.entries))
			for _, e := range page.entries {
				attr := e.Attr.Attr
				if !e.Attr.IsSet {
					// The server left the attributes out: ask for them.
					if _, attr, err = c.lookupAttr(ctx, fh, e.FileName); err != nil {
						if errors.Is(err, fs.ErrNotExist) {
							err = nil
							continue // removed since the listing
						}
						// A stale handle (the directory's, not a
						// sign the entry is gone) is ErrUnavailable:
						// never skipped.
						break
					}
				}
				a := attrOf(attr)
				if e.Handle.IsSet {
					a.Handle = string(e.Handle.FH)
				}
				entries = append(entries, share.DirEntry{Name: e.FileName, Attr: a})
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
		return "", fmt.Errorf("%w: %w", share.ErrUnavailable, err)
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
	// expect is the size the file will have (Expect), -1 when unknown.
	expect int64
}

var (
	_ share.EntryOpener = (*nfsClient)(nil)
	_ share.SizeHinter  = (*nfsFile)(nil)
)

// OpenEntry opens the file a listing described by the handle READDIRPLUS
// gave for it: no LOOKUP. Without one it is Open.
func (c *nfsClient) OpenEntry(ctx context.Context, rel string, a share.Attr) (share.FileReader, error) {
	if a.Handle == "" || a.Type != share.TypeFile {
		return c.Open(ctx, rel)
	}
	return &nfsFile{c: c, fh: []byte(a.Handle), rel: rel, expect: -1}, nil
}

// Expect tells the writer the file's final size.
func (f *nfsFile) Expect(size int64) { f.expect = size }

func (c *nfsClient) Open(ctx context.Context, rel string) (share.FileReader, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	fh, attr, err := c.lookupLast(ctx, rel)
	if err != nil {
		return nil, err
	}
	if attr.Type != nfs.NF3Reg {
		return nil, fmt.Errorf("open %s: not a regular file: %w", rel, fs.ErrInvalid)
	}
	return &nfsFile{c: c, fh: fh, rel: rel, expect: -1}, nil
}

// ReadAt fills p from off with READs of at most the server's rtmax, and
// answers io.EOF when the end of the file comes before p is full.
func (f *nfsFile) ReadAt(ctx context.Context, p []byte, off int64) (int, error) {
	if off < 0 {
		return 0, fmt.Errorf("read %s at %d: %w", f.rel, off, fs.ErrInvalid)
	}
	f.c.mu.Lock()
	defer f.c.mu.Unlock()
	sizes, err := f.c.ioSizes(ctx)
	if err != nil {
		return 0, fmt.Errorf("read %s: %w", f.rel, err)
	}
	n := 0
	for n < len(p) {
		at := uint64(off) + uint64(n)
		data, eof, err := f.c.readAt(ctx, f.fh, at, uint32(min(len(p)-n, sizes.read)))
		if err != nil {
			return n, fmt.Errorf("read %s: %w", f.rel, err)
		}
		n += copy(p[n:], data)
		if eof {
			return n, io.EOF
		}
		if len(data) == 0 {
			// Nothing and no eof: servers that leave eof unset at the
			// end exist; the size tells whether this is the end.
			attr, err := f.c.getattr(ctx, f.fh)
			if err != nil {
				return n, fmt.Errorf("read %s: getattr: %w", f.rel, err)
			}
			if at >= attr.Filesize {
				return n, io.EOF
			}
			return n, fmt.Errorf("read %s: the server returned nothing at %d of %d bytes: %w", f.rel, at, attr.Filesize, share.ErrUnavailable)
		}
	}
	return n, nil
}

// WriteAt writes p at off in UNSTABLE WRITEs of at most the server's wtmax,
// which Close commits.
//
// UNSTABLE and one COMMIT rather than FILE_SYNC writes: FILE_SYNC makes
// the server flush its disk before each reply, once per call; UNSTABLE lets
// it write back as it likes and flush once per file, at COMMIT. The price
// is that a server restart before the COMMIT may lose what was written,
// which the write verifier reveals (see sameVerifier).
func (f *nfsFile) WriteAt(ctx context.Context, p []byte, off int64) (int, error) {
	if off < 0 {
		return 0, fmt.Errorf("write %s at %d: %w", f.rel, off, fs.ErrInvalid)
	}
	f.c.mu.Lock()
	defer f.c.mu.Unlock()
	sizes, err := f.c.ioSizes(ctx)
	if err != nil {
		return 0, fmt.Errorf("write %s: %w", f.rel, err)
	}
	// A file written whole by one WRITE is made stable by it: a COMMIT
	// would be a round trip more per small file.
	stable := uint32(stableUnstable)
	if off == 0 && int64(len(p)) == f.expect && len(p) <= sizes.write {
		stable = stableFileSync
	}
	n := 0
	for n < len(p) {
		chunk := p[n:min(len(p), n+sizes.write)]
		count, verf, err := f.c.writeAt(ctx, f.fh, uint64(off)+uint64(n), chunk, stable)
		if err != nil {
			return n, fmt.Errorf("write %s: %w", f.rel, err)
		}
		if int64(count) > int64(len(chunk)) {
			return n, fmt.Errorf("write %s: the server says it wrote %d bytes of %d: %w", f.rel, count, len(chunk), share.ErrUnavailable)
		}
		if stable == stableUnstable {
			if err := f.sameVerifier(verf); err != nil {
				return n, err
			}
			f.wrote = true
		}
		n += int(count)
	}
	return n, nil
}

// sameVerifier checks that the server did not restart since the first
// UNSTABLE write: a new verifier means what was written before may be lost.
// The NFS fix is to write it again, but the writer has only the chunk at
// hand, not the file's data before it: so the file fails with an error
// wrapping ErrUnavailable (a session whose server restarted is not kept),
// and the copy's retry writes the whole file again (a file whose time was
// never set, as this one's is not, is not complete: copytree's complete).
func (f *nfsFile) sameVerifier(v uint64) error {
	if !f.wrote {
		f.verf = v
		return nil
	}
	if v != f.verf {
		return fmt.Errorf("write %s: the server restarted during the copy and may have lost unstable data: %w", f.rel, share.ErrUnavailable)
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
		return fmt.Errorf("%w: %w", share.ErrUnavailable, err)
	}
	if err := f.sameVerifier(reply.Verf); err != nil {
		return err
	}
	f.wrote = false // committed: a second Close has nothing to do
	return nil
}

func (c *nfsClient) Create(ctx context.Context, rel string, perm fs.FileMode) (share.FileWriter, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	dir, name, err := c.resolveParent(ctx, rel)
	if err != nil {
		return nil, err
	}
	// CREATE GUARDED: only where nothing is (share.TreeClient.Create).
	res, err := c.call(ctx, &struct {
		rpc.Header
		Where nfs.Diropargs3
		How   uint32
		Attr  nfs.Sattr3
	}{c.header(procCreate), nfs.Diropargs3{FH: dir, Filename: name}, createGuarded,
		nfs.Sattr3{Mode: nfs.SetMode{SetIt: true, Mode: share.UnixMode(perm)}}})
	if err != nil {
		return nil, fmt.Errorf("create %s: %w", rel, err)
	}
	fh, err := c.createdHandle(ctx, res, dir, name)
	if err != nil {
		return nil, err
	}
	return &nfsFile{c: c, fh: fh, rel: rel, expect: -1}, nil
}

// SetAttr sets what mask names with SETATTR on the handle of rel's last
// component, which LOOKUP gives without following a link: a link's own
// attributes change, never its target's.
func (c *nfsClient) SetAttr(ctx context.Context, rel string, a share.Attr, mask share.AttrMask) error {
	if mask&share.SetSize != 0 && a.Size < 0 {
		return fmt.Errorf("%s: size %d: %w", rel, a.Size, fs.ErrInvalid)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	fh, _, err := c.lookupLast(ctx, rel)
	if err != nil {
		return err
	}
	return c.setAttrFH(ctx, fh, rel, a, mask)
}

var _ share.AttrCloser = (*nfsFile)(nil)

// CloseSettingAttr commits the file's writes and sets its attributes on the
// handle the writer holds: no lookup of its path again.
func (f *nfsFile) CloseSettingAttr(ctx context.Context, a share.Attr, mask share.AttrMask) error {
	if err := f.Close(ctx); err != nil {
		return err
	}
	f.c.mu.Lock()
	defer f.c.mu.Unlock()
	if mask&share.SetSize != 0 && mask != share.SetSize {
		// The size alone first: a change of size sets the time.
		if err := f.c.setAttrFH(ctx, f.fh, f.rel, a, share.SetSize); err != nil {
			return err
		}
		mask &^= share.SetSize
	}
	return f.c.setAttrFH(ctx, f.fh, f.rel, a, mask)
}

// setAttrFH is SetAttr on a handle; the caller holds c.mu.
func (c *nfsClient) setAttrFH(ctx context.Context, fh []byte, rel string, a share.Attr, mask share.AttrMask) error {
	if mask&share.SetSize != 0 && a.Size < 0 {
		return fmt.Errorf("%s: size %d: %w", rel, a.Size, fs.ErrInvalid)
	}
	for _, s := range sattrs(a, mask) {
		if err := c.setattr(ctx, fh, s); err != nil {
			return fmt.Errorf("%s: %w", rel, err)
		}
	}
	return nil
}

// sattrs are the SETATTRs that set a's fields named by mask, in order;
// setuid and setgid only with the owner (share.KeptMode), which NFSv3
// cannot set from the names an NFSv4.1 server gave.
func sattrs(a share.Attr, mask share.AttrMask) []nfs.Sattr3 {
	var out []nfs.Sattr3
	var s nfs.Sattr3
	owned := mask&share.SetOwner != 0 && a.HasOwner
	if owned {
		s.UID = nfs.SetUID{SetIt: true, UID: a.UID}
		s.GID = nfs.SetUID{SetIt: true, UID: a.GID}
		if mask&share.SetMode != 0 && a.Mode&(fs.ModeSetuid|fs.ModeSetgid) != 0 {
			// A change of owner clears setuid and setgid, and Linux nfsd
			// does so even when the same SETATTR sets them: the owner
			// first, then the mode with the rest.
			out, s = append(out, s), nfs.Sattr3{}
		}
	}
	if mask&share.SetMode != 0 {
		s.Mode = nfs.SetMode{SetIt: true, Mode: share.UnixMode(share.KeptMode(a.Mode, owned))}
	}
	if mask&share.SetSize != 0 {
		s.Size = nfs.SetSize{SetIt: true, Size: uint64(a.Size)}
	}
	if mask&share.SetModTime != 0 {
		s.Mtime = nfs.SetTime{SetIt: nfs.SetToClientTime, Time: nfsTime(a.ModTime)}
	}
	return append(out, s)
}

// nfsTime is t as nfstime3, whose unsigned 32-bit seconds span 1970 to
// 2106: a time outside is kept at the nearest end rather than wrapped
// round, and a copy goes on.
func nfsTime(t time.Time) nfs.NFS3Time {
	switch sec := t.Unix(); {
	case sec < 0:
		return nfs.NFS3Time{}
	case sec > 1<<32-1:
		return nfs.NFS3Time{Seconds: 1<<32 - 1, Nseconds: 999999999}
	default:
		return nfs.NFS3Time{Seconds: uint32(sec), Nseconds: uint32(t.Nanosecond())}
	}
}
