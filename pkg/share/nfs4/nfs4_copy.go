package nfs4

import (
	"context"
	"errors"
	"fmt"
	"io"
	"path"
	"strings"
	"sync"

	"github.com/fileshare-csi/fileshare-csi/pkg/share"
	"github.com/fileshare-csi/fileshare-csi/pkg/source"
)

// Server-side copy over NFSv4.2 COPY (RFC 7862 section 15.2): the server
// copies a file's data itself, so a large file never crosses the network
// twice (READ to the controller, WRITE back). Linux nfsd has it since 5.x;
// the sessions of both NFS clients stay NFSv3 or v4.1, and a copy takes an
// NFSv4.2 session of its own to the same server, dialled on first use.

// nfsServerCopyMin is the smallest file an NFS server is asked to copy.
// A server-side copy costs three COMPOUNDs (OPEN both, COPY, COMMIT and
// CLOSE both) on a session of its own; a file of two chunks or less
// streams in as few round trips (READ, WRITE, and a third for COMMIT).
const nfsServerCopyMin = 2 << 20

// copyResult is COPY's answer (write_response4 and copy_requirements4).
type copyResult struct {
	Count     uint64
	Committed uint32
	Verf      [8]byte
	// Async says the server started an asynchronous copy, which it reports
	// on the back channel this client does not have.
	Async bool
}

// opCopy asks for a synchronous copy of count bytes at off in the saved
// filehandle's file (src) to the same offset in the current one (dst),
// within the server (no source servers).
func opCopy(src, dst stateid4, off, count uint64, res *copyResult) nfs4Op {
	return nfs4Op{code: op4Copy, mutates: true, enc: func(e *xdrEnc) {
		e.stateid(src)
		e.stateid(dst)
		e.u64(off) // source offset
		e.u64(off) // destination offset
		e.u64(count)
		e.u32(1) // consecutive
		e.u32(1) // synchronous
		e.u32(0) // no source servers
	}, dec: func(d *xdrDec) {
		for range d.count(16) { // wr_callback_id<1>
			d.stateid()
			res.Async = true
		}
		res.Count = d.u64()
		res.Committed = d.u32()
		copy(res.Verf[:], d.fixed(8))
		d.boolean() // cr_consecutive
		d.boolean() // cr_synchronous
	}, decFailed: func(d *xdrDec, status uint32) {
		if status == nfs4ErrOffloadNoReqs {
			d.boolean()
			d.boolean()
		}
	}}
}

// copyUnsupported are the answers by which a server says it does not copy
// (NFSv4.2 missing, COPY not implemented, or not the synchronous,
// consecutive copy asked for): the data is streamed instead.
var copyUnsupported = map[uint32]bool{
	nfs4ErrNotsupp: true, nfs4ErrOpIllegal: true, nfs4ErrOffloadNoReqs: true,
	nfs4ErrMinorVersMism: true, nfs4ErrXdev: true,
}

// copyOnServer copies the size bytes of from into to, which exists, with
// COPY. Both are opened by name in their directories (CLAIM_NULL: a link
// in either place is refused, never followed). Nothing is written when it
// answers errors.ErrUnsupported.
func (c *nfs4Client) copyOnServer(ctx context.Context, from, to string, size int64) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	src, err := c.openFile(ctx, from, openArgs{access: openShareAccessRead})
	if err != nil {
		return fmt.Errorf("open %s: %w", from, err)
	}
	dst, err := c.openFile(ctx, to, openArgs{access: openShareAccessWrite})
	if err != nil {
		c.closeFile(ctx, src)
		return fmt.Errorf("open %s: %w", to, err)
	}
	closed := false
	defer func() {
		if !closed {
			c.closeFile(ctx, dst)
			c.closeFile(ctx, src)
		}
	}()
	var verf [8]byte
	unstable := false
	for off := int64(0); off < size; {
		var res copyResult
		err := c.run(ctx, []nfs4Op{opPutfh(src.fh), opSavefh(), opPutfh(dst.fh), opCopy(src.open.Stateid, dst.open.Stateid, uint64(off), uint64(size-off), &res)})
		var ne *NFS4Error
		switch {
		case err != nil && off == 0 && errors.As(err, &ne) && copyUnsupported[ne.Status]:
			return fmt.Errorf("the server does not copy files (%v): %w", ne, errors.ErrUnsupported)
		case err != nil && off == 0 && isSessionStatus(err, nfs4ErrMinorVersMism):
			// The COMPOUND refused as a whole: no NFSv4.2 after all.
			return fmt.Errorf("the server does not copy files (%v): %w", err, errors.ErrUnsupported)
		case err != nil:
			return fmt.Errorf("copy %s to %s at %d: %w", from, to, off, err)
		case res.Async:
			// Asked for a synchronous copy, the server runs it in the
			// background and would report on a back channel this client
			// lacks. The streamed copy that follows writes the same bytes
			// to the same offsets, so the two cannot disagree.
			return fmt.Errorf("the server copies only asynchronously: %w", errors.ErrUnsupported)
		case res.Count == 0 || res.Count > uint64(size-off):
			// The source shrank (or the server misreports): a copy of a
			// changing file is taken again from a fresh listing.
			return fmt.Errorf("copy %s to %s: the server copied %d bytes at %d of %d: %w", from, to, res.Count, off, size, io.ErrNoProgress)
		}
		if unstable && res.Verf != verf {
			return fmt.Errorf("copy %s: the server restarted and may have lost data copied since the last COMMIT: %w", to, share.ErrUnavailable)
		}
		verf, unstable = res.Verf, unstable || res.Committed != fileSync4
		off += int64(res.Count)
	}
	// One COMPOUND commits and closes both.
	var commitVerf [8]byte
	ops := []nfs4Op{opPutfh(dst.fh)}
	if unstable {
		ops = append(ops, opCommit(&commitVerf))
	}
	ops = append(ops, opClose(dst.open.Stateid), opPutfh(src.fh), opClose(src.open.Stateid))
	if err := c.run(ctx, ops); err != nil {
		return fmt.Errorf("commit %s: %w", to, err)
	}
	closed = true
	if unstable && commitVerf != verf {
		return fmt.Errorf("copy %s: the server restarted and may have lost the copied data: %w", to, share.ErrUnavailable)
	}
	return nil
}

// closeFile closes an open whose COMPOUND did not get to close it; the
// lease ends what this cannot.
func (c *nfs4Client) closeFile(ctx context.Context, f *nfs4File) {
	c.closeOpen(ctx, f.fh, f.open.Stateid)
	if f.open.Delegation != nil {
		c.returnDelegation(ctx, f.fh, *f.open.Delegation)
	}
}

// Copier lends a session of either NFS client (this package's and
// pkg/share/nfs3's) server-side copies: an
// NFSv4.2 session to the same server, dialled on the first file large
// enough, kept for the next, and given up for good once the server shows
// it cannot copy (no NFSv4.2, no COPY).
type Copier struct {
	src source.Source

	mu      sync.Mutex
	c       *nfs4Client
	refused error
}

// NewCopier returns the Copier of a session on src; it dials nothing yet.
func NewCopier(src source.Source) *Copier { return &Copier{src: src} }

// CopyData copies from into to, both named from export (the calling
// session's root), on the server.
func (k *Copier) CopyData(ctx context.Context, export, from, to string, size int64) error {
	if k == nil {
		return fmt.Errorf("server-side copy: %w", errors.ErrUnsupported)
	}
	if size < nfsServerCopyMin {
		return fmt.Errorf("a file of %d bytes: %w", size, share.ErrStreamInstead)
	}
	k.mu.Lock()
	defer k.mu.Unlock()
	if k.refused != nil {
		return k.refused
	}
	if k.c != nil && k.c.Broken() {
		k.c.Close()
		k.c = nil
	}
	if k.c == nil {
		c, err := dialNFS4Minor(ctx, k.src, nfs4MinorCopy)
		if err != nil {
			if ctx.Err() != nil {
				return err
			}
			k.refused = fmt.Errorf("no NFSv4.2 session for server-side copies (%v): %w", err, errors.ErrUnsupported)
			return k.refused
		}
		k.c = c
	}
	src, ok1 := k.rel(export, from)
	dst, ok2 := k.rel(export, to)
	if !ok1 || !ok2 {
		// The v4 namespace roots the copy session below the caller's
		// export: nothing to copy through it.
		return fmt.Errorf("%s is outside the NFSv4 export %s: %w", path.Join(export, from), k.c.export, share.ErrStreamInstead)
	}
	err := k.c.copyOnServer(ctx, src, dst, size)
	if errors.Is(err, errors.ErrUnsupported) {
		k.refused = err
	}
	return err
}

// rel turns a path below the calling session's export into one below the
// copy session's: the two versions may root a server's namespace at
// different directories (v3 at the export MOUNT names, v4 where the file
// system changes).
func (k *Copier) rel(export, p string) (string, bool) {
	full := path.Join("/", export, p)
	root := path.Join("/", k.c.export)
	if root == "/" {
		return strings.TrimPrefix(full, "/"), true
	}
	if full != root && !strings.HasPrefix(full, root+"/") {
		return "", false
	}
	return strings.TrimPrefix(strings.TrimPrefix(full, root), "/"), true
}

// Close ends the copy session.
func (k *Copier) Close() {
	if k == nil {
		return
	}
	k.mu.Lock()
	defer k.mu.Unlock()
	if k.c != nil {
		k.c.Close()
		k.c = nil
	}
}

// CopyData copies a large file on the server with NFSv4.2 COPY.
func (c *nfs4Client) CopyData(ctx context.Context, from, to string, size int64) error {
	return c.copier.CopyData(ctx, c.export, from, to, size)
}

var _ share.ServerSideCopier = (*nfs4Client)(nil)
