package nfs4

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"strconv"

	"github.com/fileshare-csi/fileshare-csi/pkg/share"
)

// RemoveAll is RemoveTree over NFSv4.1. NFSv4 shows a link as a link and
// LOOKUP never follows one, so REMOVE takes links away as links; the guard
// still matters, because a server can show one directory in two places (a
// bind mount on the server, another export nested in this one).
func (c *nfs4Client) RemoveAll(ctx context.Context, rel string, opts share.RemoveOptions) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	return share.RemoveTree(ctx, nfs4Remover{c}, rel, opts)
}

// nfs4Remover is a session as the removal walk uses it; refs are file
// handles. The caller holds the session's lock.
type nfs4Remover struct{ c *nfs4Client }

// walkMask is what the walk reads of every entry: enough to decide, with
// no further look-up, whether to REMOVE it or enter it, and its handle.
var walkMask = attrMask(attrType, attrFSID, attrRdattrError, attrFilehandle, attrFileID, attrMode)

// walkAttr is what the walk knows of an entry: nothing but its handle when
// the server would not give its attributes. A server that leaves the file
// system out says the entry is on the export's.
func (r nfs4Remover) walkAttr(a attrs4) share.Attr {
	if a.RdattrError != 0 || !a.has(attrType) {
		return share.Attr{Handle: string(a.FH)}
	}
	out := treeAttr(a)
	if !a.has(attrFSID) {
		out.FSID = [2]uint64{r.c.rootFSID.Major, r.c.rootFSID.Minor}
	}
	out.Handle = string(a.FH)
	return out
}

// Top is one COMPOUND: rel's parent, and rel as LOOKUP sees it. A top on
// another file system than the export's is not this driver's to remove.
func (r nfs4Remover) Top(ctx context.Context, rel string) (string, string, share.Attr, error) {
	ops, name, err := r.c.parentOps(ctx, rel, 4)
	if err != nil {
		return "", "", share.Attr{}, err
	}
	var parent, fh []byte
	var top attrs4
	ops = append(ops, opGetfh(&parent), opLookup(name), opGetfh(&fh), opGetattr(walkMask, &top))
	if err := r.c.run(ctx, ops); err != nil {
		return "", "", share.Attr{}, err
	}
	if top.Type == nf4Dir {
		if top.FSID != r.c.rootFSID {
			return "", "", share.Attr{}, fmt.Errorf("it is on another file system than the export (mounted there on the server): left alone: %w", share.ErrLeftBehind)
		}
		if fh == nil {
			return "", "", share.Attr{}, fmt.Errorf("LOOKUP gave no filehandle: %w", share.ErrUnavailable)
		}
	}
	top.FH = fh
	return string(parent), string(fh), r.walkAttr(top), nil
}

func (r nfs4Remover) Lookup(ctx context.Context, dir, name string) (string, share.Attr, error) {
	var fh []byte
	var a attrs4
	if err := r.c.run(ctx, []nfs4Op{opPutfh([]byte(dir)), opLookup(name), opGetfh(&fh), opGetattr(walkMask, &a)}); err != nil {
		return "", share.Attr{}, err
	}
	a.FH = fh
	return string(fh), r.walkAttr(a), nil
}

// Pages reads READDIR replies, and from the start again after one whose
// entries were removed: cookies into a directory whose entries were just
// removed are not reliable on every server. A reply that removed nothing
// must get the listing on (onward).
func (r nfs4Remover) Pages(ctx context.Context, dir string, fn func([]share.DirEntry) (int, error)) error {
	fh := []byte(dir)
	var cookie uint64
	var verf [8]byte
	asked := share.Cookies{}
	for {
		var page readdir4Page
		if err := r.c.run(ctx, []nfs4Op{opPutfh(fh), opReaddir(cookie, verf, 16384, r.c.readdirMax(), walkMask, &page)}); err != nil {
			return err
		}
		removed := 0
		if len(page.Entries) > 0 {
			entries := make([]share.DirEntry, len(page.Entries))
			for i, e := range page.Entries {
				entries[i] = share.DirEntry{Name: e.Name, Attr: r.walkAttr(e.Attrs)}
			}
			var err error
			if removed, err = fn(entries); err != nil {
				return err
			}
		}
		switch {
		case page.EOF:
			return nil
		case removed > 0:
			// Entries went: from the start again, a new listing.
			cookie, verf = 0, [8]byte{}
			clear(asked)
		default:
			if err := r.c.onward(asked, cookie, page); err != nil {
				return err
			}
			cookie, verf = page.Cookie, page.Verf
		}
	}
}

// Unlink is REMOVE, which also takes an empty directory, and refuses a
// full one (NOTEMPTY): the walk then enters it.
func (r nfs4Remover) Unlink(ctx context.Context, dir, name string) error {
	return r.c.run(ctx, []nfs4Op{opPutfh([]byte(dir)), opRemove(name)})
}

func (r nfs4Remover) Rmdir(ctx context.Context, dir, name string) error {
	return r.Unlink(ctx, dir, name)
}

// UnlinkAll sends as many REMOVEs as one COMPOUND takes. The COMPOUND
// stops at a failed REMOVE: the names after it are skipped.
func (r nfs4Remover) UnlinkAll(ctx context.Context, dir string, names []string) ([]error, error) {
	n := min(len(names), int(r.c.s.fore.MaxOps)-2) // SEQUENCE, PUTFH
	ops := []nfs4Op{opPutfh([]byte(dir))}
	for _, name := range names[:n] {
		ops = append(ops, opRemove(name))
	}
	errs := make([]error, n)
	err := r.c.run(ctx, ops)
	if err == nil {
		return errs, nil
	}
	var ne *NFS4Error
	if !errors.As(err, &ne) || ne.Index == 0 {
		return nil, err // not about one name: the directory, or the session
	}
	errs[ne.Index-1] = err
	for i := ne.Index; i < n; i++ {
		errs[i] = share.ErrSkipped
	}
	return errs, nil
}

func (r nfs4Remover) OpenUp(ctx context.Context, dir string, a share.Attr) error {
	mode := share.UnixMode(a.Mode) | 0o700
	return r.c.run(ctx, []nfs4Op{opPutfh([]byte(dir)), opSetattr(anonymousStateid, setAttrs{mode: &mode})})
}

// Marked is one COMPOUND from the root: the marks' directory, and the mark.
func (r nfs4Remover) Marked(ctx context.Context, dir string, id uint64) (bool, error) {
	ops, err := r.c.lookupOps(ctx, share.SplitRel(dir), 1)
	if err == nil {
		err = r.c.run(ctx, append(ops, opLookup(strconv.FormatUint(id, 10))))
	}
	if errors.Is(err, fs.ErrNotExist) {
		return false, nil
	}
	return err == nil, err
}

// DirIDs reads the IDs in as few COMPOUNDs as fit: a path that extends the
// one before it by a name continues its segment (LOOKUP, GETATTR); any
// other starts one from the root. A segment whose LOOKUP finds nothing
// ends there (what lies below a missing directory is missing too), and the
// next segment goes on in a new COMPOUND.
func (r nfs4Remover) DirIDs(ctx context.Context, paths []string) ([]uint64, error) {
	ids := make([]attrs4, len(paths))
	idMask := attrMask(attrFileID)
	var segs [][]nfs4Op
	var prev []string
	for i, p := range paths {
		parts := share.SplitRel(p)
		if len(segs) > 0 && len(parts) == len(prev)+1 && isPrefix(prev, parts) {
			segs[len(segs)-1] = append(segs[len(segs)-1], opLookup(parts[len(parts)-1]), opGetattr(idMask, &ids[i]))
		} else {
			seg := []nfs4Op{opPutfh(r.c.root)}
			for _, q := range parts {
				seg = append(seg, opLookup(q))
			}
			segs = append(segs, append(seg, opGetattr(idMask, &ids[i])))
		}
		prev = parts
	}
	room := int(r.c.s.fore.MaxOps) - 1
	for len(segs) > 0 {
		var ops []nfs4Op
		starts := []int{}
		for len(segs) > 0 && len(ops)+len(segs[0]) <= room {
			starts = append(starts, len(ops))
			ops = append(ops, segs[0]...)
			segs = segs[1:]
		}
		if len(ops) == 0 {
			return nil, fmt.Errorf("a path of %d components is deeper than one COMPOUND reaches: %w", len(segs[0]), share.ErrLeftBehind)
		}
		err := r.c.run(ctx, ops)
		var ne *NFS4Error
		switch {
		case err == nil:
		case errors.As(err, &ne) && ne.Status == nfs4ErrNoent:
			// Put back the segments after the one that failed.
			k := len(starts) - 1
			for k > 0 && starts[k] > ne.Index {
				k--
			}
			var rest [][]nfs4Op
			for i := k + 1; i < len(starts); i++ {
				end := len(ops)
				if i+1 < len(starts) {
					end = starts[i+1]
				}
				rest = append(rest, ops[starts[i]:end])
			}
			segs = append(rest, segs...)
		default:
			return nil, err
		}
	}
	var out []uint64
	for _, a := range ids {
		if a.has(attrFileID) {
			out = append(out, a.FileID)
		}
	}
	return out, nil
}

func isPrefix(prefix, parts []string) bool {
	for i, p := range prefix {
		if parts[i] != p {
			return false
		}
	}
	return true
}
