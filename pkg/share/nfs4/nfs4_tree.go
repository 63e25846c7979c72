package nfs4

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"slices"
	"strconv"

	"github.com/fileshare-csi/fileshare-csi/pkg/share"
)

var _ share.TreeClient = (*nfs4Client)(nil)

// treeAttrs are what a tree copy reads of every entry: Attr's fields.
var (
	treeAttrs   = []int{attrType, attrSize, attrFSID, attrFileID, attrMode, attrOwner, attrOwnerGroup, attrSpaceUsed, attrTimeModify}
	treeMask    = attrMask(treeAttrs...)
	treeBits    = maskBits(treeMask)
	treeDirMask = attrMask(slices.Concat(treeAttrs, []int{attrRdattrError})...)
)

// treeAttr is what a copy keeps of a, as far as the server returned it.
// Owners are numeric where the server answers numeric ids (Linux servers
// do for AUTH_SYS clients by default); "user@domain" names cannot be
// turned into this machine's ids: they are kept as names (OwnerName,
// GroupName) and HasOwner stays false.
func treeAttr(a attrs4) share.Attr {
	out := share.Attr{Size: share.ClampInt64(a.Size), ID: a.FileID, FSID: [2]uint64{a.FSID.Major, a.FSID.Minor}}
	switch a.Type {
	case nf4Reg:
		out.Type = share.TypeFile
		// Fewer bytes on disk than the size: holes, which a server-side
		// copy would write out.
		out.Sparse = a.has(attrSpaceUsed) && a.SpaceUsed < a.Size
	case nf4Dir:
		out.Type = share.TypeDir
	case nf4Lnk:
		out.Type = share.TypeSymlink
	}
	if a.has(attrMode) {
		out.Mode, out.HasMode = share.UnixFileMode(a.Mode), true
	}
	if a.has(attrTimeModify) {
		out.ModTime = a.ModTime.time()
	}
	uid, uerr := strconv.ParseUint(a.Owner, 10, 32)
	gid, gerr := strconv.ParseUint(a.OwnerGroup, 10, 32)
	switch {
	case !a.has(attrOwner) || !a.has(attrOwnerGroup):
	case uerr == nil && gerr == nil:
		out.UID, out.GID, out.HasOwner = uint32(uid), uint32(gid), true
	default:
		out.OwnerName, out.GroupName = a.Owner, a.OwnerGroup
	}
	return out
}

// Lstat is LOOKUP, which never follows a link, and GETATTR: one COMPOUND.
func (c *nfs4Client) Lstat(ctx context.Context, rel string) (share.Attr, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	a, err := c.getattr(ctx, rel, treeMask)
	if err != nil {
		return share.Attr{}, fmt.Errorf("lstat %s: %w", rel, err)
	}
	return treeAttr(a), nil
}

// ReadDir asks READDIR for the entries' attributes too, so an entry costs
// no call of its own unless the server leaves its attributes out. The
// session is held only while a page is read, so fn may use the client.
func (c *nfs4Client) ReadDir(ctx context.Context, rel string, fn func([]share.DirEntry) error) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	var fnErr error
	err := c.readdir(ctx, rel, treeDirMask, func(dir []byte, entries []dirEntry4) (bool, error) {
		page := make([]share.DirEntry, 0, len(entries))
		for _, e := range entries {
			a, ok, err := c.entryAttrs(ctx, dir, e)
			if err != nil {
				return false, err
			}
			if ok {
				page = append(page, share.DirEntry{Name: e.Name, Attr: treeAttr(a)})
			}
		}
		if len(page) == 0 {
			return true, nil
		}
		func() {
			c.mu.Unlock()
			defer c.mu.Lock()
			fnErr = fn(page)
		}()
		return fnErr == nil, nil
	})
	if fnErr != nil {
		return fnErr
	}
	if err != nil {
		return fmt.Errorf("list %s: %w", rel, err)
	}
	return nil
}

// entryAttrs are the attributes of the READDIR entry e of dir. Where the
// server could not give them there (rdattr_error) or left some out, a
// GETATTR asks for them; attributes it does not return then either are not
// asked for again. ok is false when the entry went away since the listing.
func (c *nfs4Client) entryAttrs(ctx context.Context, dir []byte, e dirEntry4) (a attrs4, ok bool, err error) {
	missing := treeBits &^ e.Attrs.mask &^ c.noAttrs
	if e.Attrs.RdattrError == nfs4OK && missing == 0 {
		return e.Attrs, true, nil
	}
	err = c.run(ctx, []nfs4Op{opPutfh(dir), opLookup(e.Name), opGetattr(treeMask, &a)})
	if errors.Is(err, fs.ErrNotExist) {
		return a, false, nil
	}
	if err != nil {
		return a, false, fmt.Errorf("%s: %w", e.Name, err)
	}
	c.noAttrs |= missing &^ a.mask
	return a, true, nil
}

func (c *nfs4Client) Readlink(ctx context.Context, rel string) (string, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	ops, err := c.lookupOps(ctx, share.SplitRel(rel), 1)
	if err != nil {
		return "", fmt.Errorf("readlink %s: %w", rel, err)
	}
	var target string
	if err := c.run(ctx, append(ops, opReadlink(&target))); err != nil {
		return "", fmt.Errorf("readlink %s: %w", rel, err)
	}
	return target, nil
}

func (c *nfs4Client) Symlink(ctx context.Context, target, rel string) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	ops, name, err := c.parentOps(ctx, rel, 1)
	if err != nil {
		return fmt.Errorf("symlink %s: %w", rel, err)
	}
	if name == "" {
		return fmt.Errorf("symlink of the share root: %w", fs.ErrExist)
	}
	if err := c.run(ctx, append(ops, opSymlink(target, name))); err != nil {
		return fmt.Errorf("symlink %s: %w", rel, err)
	}
	return nil
}

// SetAttr sets the attributes on rel itself (LOOKUP does not follow a
// link), with the anonymous stateid, which servers take for a size too.
// Each group of attributes is a SETATTR of its own, in the order a copy
// needs, since the protocol leaves the order within one SETATTR to the
// server: the owner first, as a change of owner may clear setuid and
// setgid; the size before the time, as a truncation sets the time. They
// all go in one COMPOUND. NFS has no DOS attributes: SetDOSAttributes
// is ignored.
func (c *nfs4Client) SetAttr(ctx context.Context, rel string, a share.Attr, mask share.AttrMask) error {
	sets, err := setAttrList(rel, a, mask)
	if err != nil || len(sets) == 0 {
		return err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	ops, err := c.lookupOps(ctx, share.SplitRel(rel), len(sets))
	if err != nil {
		return fmt.Errorf("set attributes of %s: %w", rel, err)
	}
	for _, s := range sets {
		ops = append(ops, opSetattr(anonymousStateid, s))
	}
	if err := c.run(ctx, ops); err != nil {
		return fmt.Errorf("set attributes of %s: %w", rel, err)
	}
	return nil
}

// setAttrList splits the fields mask names into the SETATTRs SetAttr
// sends, in their order.
func setAttrList(rel string, a share.Attr, mask share.AttrMask) ([]setAttrs, error) {
	var sets []setAttrs
	owned := true
	switch {
	case mask&share.SetOwner == 0:
		owned = false
	case a.OwnerName != "" && a.GroupName != "":
		// As the source's server named them: the same kind of server maps
		// them back.
		sets = append(sets, setAttrs{owner: &owner4{a.OwnerName, a.GroupName}})
	case a.HasOwner:
		sets = append(sets, setAttrs{owner: &owner4{strconv.FormatUint(uint64(a.UID), 10), strconv.FormatUint(uint64(a.GID), 10)}})
	default:
		owned = false
	}
	if mask&share.SetSize != 0 {
		if a.Size < 0 {
			return nil, fmt.Errorf("set the size of %s to %d: %w", rel, a.Size, fs.ErrInvalid)
		}
		size := uint64(a.Size)
		sets = append(sets, setAttrs{size: &size})
	}
	var last setAttrs
	if mask&share.SetMode != 0 {
		mode := share.UnixMode(share.KeptMode(a.Mode, owned))
		last.mode = &mode
	}
	if mask&share.SetModTime != 0 {
		last.mtime = &a.ModTime
	}
	if last.mode != nil || last.mtime != nil {
		sets = append(sets, last)
	}
	return sets, nil
}

// nfs4IOSize is the most data one READ or WRITE moves within the session's
// limit on a request or a reply (limit): what is left after the RPC
// header with its credentials, SEQUENCE, PUTFH and the operation's own
// fields (well under 1 KiB), in whole 4 KiB pages, at most 1 MiB.
func nfs4IOSize(limit uint32) int {
	room := int(min(limit, 1<<20+1024)) - 1024
	if room >= 4096 {
		room &^= 4095
	}
	return room
}

// nfs4File is a file a tree copy holds open: the stateid of its OPEN reads
// and writes it, and Close gives it back.
type nfs4File struct {
	c    *nfs4Client
	rel  string
	fh   []byte
	open openResult
	// unstable says WRITEs left data the server has not made stable yet,
	// for Close's COMMIT; verf is their write verifier.
	unstable bool
	verf     [8]byte
	closed   bool
}

// openFile opens rel as a says (CLAIM_NULL: a link is never followed),
// finding its directory in the same COMPOUND. Each open file has an
// open-owner of its own: two opens of one file under one owner would share
// a stateid, and the first Close would end the other's reads.
func (c *nfs4Client) openFile(ctx context.Context, rel string, a openArgs) (*nfs4File, error) {
	ops, name, err := c.parentOps(ctx, rel, 2)
	if err != nil {
		return nil, err
	}
	if name == "" {
		return nil, fmt.Errorf("the share root is not a file: %w", fs.ErrInvalid)
	}
	a.name = name
	c.opens++
	owner := fmt.Appendf(nil, "%s/%d", openOwner, c.opens)
	f := &nfs4File{c: c, rel: rel}
	if err := c.run(ctx, append(ops, opOpen(c.s.clientID, owner, a, &f.open), opGetfh(&f.fh))); err != nil {
		// Only GETFH could fail after OPEN, and never does: without the
		// handle the open could not be closed anyway; the lease ends it.
		return nil, err
	}
	return f, nil
}

// Open opens rel for reading (share access READ, deny none).
func (c *nfs4Client) Open(ctx context.Context, rel string) (share.FileReader, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	f, err := c.openFile(ctx, rel, openArgs{access: openShareAccessRead})
	if err != nil {
		return nil, fmt.Errorf("open %s: %w", rel, err)
	}
	return f, nil
}

// Create opens rel for writing: GUARDED4 creates it with perm, only where
// nothing is (share.TreeClient.Create).
func (c *nfs4Client) Create(ctx context.Context, rel string, perm fs.FileMode) (share.FileWriter, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	f, err := c.openFile(ctx, rel, openArgs{access: openShareAccessWrite, create: true, guarded: true, mode: share.UnixMode(perm)})
	if err != nil {
		return nil, fmt.Errorf("create %s: %w", rel, err)
	}
	return f, nil
}

// ReadAt reads with READs of at most the session's reply size until p is
// full or the file ends.
func (f *nfs4File) ReadAt(ctx context.Context, p []byte, off int64) (int, error) {
	return f.transfer(ctx, "read", p, off, f.c.s.fore.MaxResponse, func(piece []byte, at uint64) (int, error) {
		// READ's decoder appends to data, which has room for the piece
		// and the server may send no more: the bytes land in p itself.
		data := piece[:0:len(piece)]
		var eof bool
		if err := f.c.run(ctx, []nfs4Op{opPutfh(f.fh), opRead(f.open.Stateid, at, uint32(len(piece)), &data, &eof)}); err != nil {
			return 0, err
		}
		switch {
		case eof:
			return len(data), io.EOF
		case len(data) == 0:
			return 0, fmt.Errorf("the server returned nothing before the end: %w", io.ErrNoProgress)
		}
		return len(data), nil
	})
}

// WriteAt writes UNSTABLE4, one WRITE per COMPOUND (see WriteFile), of at
// most the session's request size each, and Close COMMITs them: the server
// then flushes its disk once per file instead of once per WRITE, as
// FILE_SYNC4 would make it. The write verifier tells if the server
// restarted (and may have lost unstable data) before the COMMIT.
func (f *nfs4File) WriteAt(ctx context.Context, p []byte, off int64) (int, error) {
	return f.transfer(ctx, "write", p, off, f.c.s.fore.MaxRequest, func(piece []byte, at uint64) (int, error) {
		var res writeResult
		if err := f.c.run(ctx, []nfs4Op{opPutfh(f.fh), opWrite(f.open.Stateid, at, piece, unstable4, &res)}); err != nil {
			return 0, err
		}
		if res.Count == 0 || int(res.Count) > len(piece) {
			f.c.s.broken = true
			return 0, fmt.Errorf("the server wrote %d of %d bytes: %w", res.Count, len(piece), share.ErrUnavailable)
		}
		if err := f.sameVerifier(res.Verf); err != nil {
			return 0, err
		}
		f.unstable = f.unstable || res.Committed != fileSync4
		return int(res.Count), nil
	})
}

// transfer moves p at off in pieces of at most what one COMPOUND within
// limit carries, with the session held: step moves one piece at the
// file's offset at, one round trip, and says how many of its bytes it
// moved. An error from step (io.EOF too) ends the transfer.
func (f *nfs4File) transfer(ctx context.Context, what string, p []byte, off int64, limit uint32, step func(piece []byte, at uint64) (int, error)) (int, error) {
	if off < 0 {
		return 0, fmt.Errorf("%s %s at %d: %w", what, f.rel, off, fs.ErrInvalid)
	}
	f.c.mu.Lock()
	defer f.c.mu.Unlock()
	if f.closed {
		return 0, fmt.Errorf("%s %s: %w", what, f.rel, fs.ErrClosed)
	}
	chunk := nfs4IOSize(limit)
	n := 0
	for n < len(p) {
		m, err := step(p[n:min(len(p), n+chunk)], uint64(off)+uint64(n))
		n += m
		if err == io.EOF {
			return n, err
		}
		if err != nil {
			return n, fmt.Errorf("%s %s: %w", what, f.rel, err)
		}
	}
	return n, nil
}

// sameVerifier notes the write verifier of a WRITE or COMMIT. One that
// changes while unstable data is outstanding means the server restarted
// and may have lost it: the file is to be written again.
func (f *nfs4File) sameVerifier(v [8]byte) error {
	if f.unstable && v != f.verf {
		return fmt.Errorf("the server restarted and may have lost data written since the last COMMIT: %w", share.ErrUnavailable)
	}
	f.verf = v
	return nil
}

// Close COMMITs what WriteAt left unstable, CLOSEs the open and returns a
// delegation, should the server have granted one though asked not to: one
// COMPOUND. What it did not get to is cleaned up on its own.
func (f *nfs4File) Close(ctx context.Context) error {
	return f.CloseSettingAttr(ctx, share.Attr{}, 0)
}

var _ share.AttrCloser = (*nfs4File)(nil)

// CloseSettingAttr commits, sets the attributes with the open's stateid and
// closes, all in one COMPOUND.
func (f *nfs4File) CloseSettingAttr(ctx context.Context, a share.Attr, mask share.AttrMask) error {
	sets, err := setAttrList(f.rel, a, mask)
	if err != nil {
		return err
	}
	f.c.mu.Lock()
	defer f.c.mu.Unlock()
	if f.closed {
		return nil
	}
	f.closed = true
	var verf [8]byte
	ops := []nfs4Op{opPutfh(f.fh)}
	if f.unstable {
		ops = append(ops, opCommit(&verf))
	}
	for _, s := range sets {
		ops = append(ops, opSetattr(f.open.Stateid, s))
	}
	closeAt := len(ops)
	ops = append(ops, opClose(f.open.Stateid))
	if f.open.Delegation != nil {
		ops = append(ops, opDelegreturn(*f.open.Delegation))
	}
	err = f.c.run(ctx, ops)
	failed := len(ops)
	if ne := (*NFS4Error)(nil); errors.As(err, &ne) {
		failed = ne.Index
	}
	if err != nil && failed < closeAt {
		f.c.closeOpen(ctx, f.fh, f.open.Stateid)
	}
	if err != nil && f.open.Delegation != nil && failed < len(ops)-1 {
		f.c.returnDelegation(ctx, f.fh, *f.open.Delegation)
	}
	if err != nil {
		return fmt.Errorf("close %s: %w", f.rel, err)
	}
	if !f.unstable {
		return nil
	}
	if err := f.sameVerifier(verf); err != nil {
		return fmt.Errorf("close %s: %w", f.rel, err)
	}
	return nil
}
