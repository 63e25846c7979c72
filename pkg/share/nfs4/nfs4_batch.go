package nfs4

import (
	"context"
	"errors"
	"fmt"
	"io/fs"

	"github.com/fileshare-csi/fileshare-csi/pkg/share"
)

const (
	op4Verify      = 37
	nfs4ErrNotSame = 10027
)

// opVerifyDir fails with NFS4ERR_NOT_SAME unless the current filehandle is
// a directory: a COMPOUND stops there.
func opVerifyDir() nfs4Op {
	return nfs4Op{code: op4Verify, enc: func(e *xdrEnc) {
		e.bitmap(attrMask(attrType))
		var v xdrEnc
		v.u32(nf4Dir)
		e.opaque(v.b)
	}}
}

// batchPart is one Op of a Batch as COMPOUND operations: they run from
// the root's filehandle, so parts follow one another in one COMPOUND.
type batchPart struct {
	ops []nfs4Op
	// done reads the part's results once the COMPOUND ran up to its end
	// (err nil) or failed inside it (err, at index failed of ops).
	done func(err error, failed int) share.Result
}

// batchChunk bounds the data a Batch's write carries; a larger one runs
// on its own through WriteFile.
const batchChunk = 16 << 10

// Batch is Batcher's: the ops' operations in one COMPOUND, as many as the
// session allows in one. A COMPOUND stops at the first failure: an
// unordered batch sends the ops after the failed one in the next, an
// ordered one stops there.
func (c *nfs4Client) Batch(ctx context.Context, ops []share.Op, ordered bool) []share.Result {
	res := make([]share.Result, len(ops))
	for i := 0; i < len(ops); {
		next, halt := c.batchStep(ctx, ops, i, res, ordered)
		if halt {
			for k := next; k < len(ops); k++ {
				res[k].Err = share.ErrSkipped
			}
			break
		}
		i = next
	}
	return res
}

// alone says whether op does not fit a COMPOUND of a Batch: a write larger
// than batchChunk runs on its own, through WriteFile's loop.
func alone(op share.Op) bool {
	return (op.Kind == share.OpCreate || op.Kind == share.OpWrite) && len(op.Data) > batchChunk
}

// batchStep runs ops from i on, in one COMPOUND, into res. It answers where
// the next step starts, and whether the batch stops (an ordered batch's
// failure, a broken session).
func (c *nfs4Client) batchStep(ctx context.Context, ops []share.Op, i int, res []share.Result, ordered bool) (next int, halt bool) {
	stops := func(err error) bool { return err != nil && (ordered || share.BreaksSession(err)) }
	wrap := func(k int, err error) error { return fmt.Errorf("%s %s: %w", ops[k].Kind, ops[k].Path, err) }
	if alone(ops[i]) {
		if ops[i].Kind == share.OpCreate {
			res[i].Err = wrap(i, fmt.Errorf("%d bytes, more than a record: %w", len(ops[i].Data), errors.ErrUnsupported))
		} else {
			res[i] = share.RunOne(ctx, c, ops[i])
		}
		return i + 1, stops(res[i].Err)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	var all []nfs4Op
	var parts []batchPart
	var at []int
	for j := i; j < len(ops) && !alone(ops[j]); j++ {
		p, err := c.batchPart(ctx, ops[j])
		if err != nil && j == i {
			res[i].Err = wrap(i, err)
			return i + 1, stops(res[i].Err)
		}
		if err != nil || j > i && len(all)+len(p.ops)+1 > int(c.s.fore.MaxOps) {
			break // op j starts the next COMPOUND
		}
		at, parts = append(at, len(all)), append(parts, p)
		all = append(all, p.ops...)
	}
	err := c.run(ctx, all)
	var ne *NFS4Error
	failedAt := -1
	if err != nil && errors.As(err, &ne) {
		failedAt = ne.Index
	}
	for k, p := range parts {
		idx := i + k
		switch {
		case err == nil || failedAt >= at[k]+len(p.ops):
			res[idx] = p.done(nil, -1)
		case failedAt < 0:
			// The COMPOUND failed as a whole (a broken session).
			res[idx].Err = wrap(idx, err)
			return idx + 1, true
		default:
			res[idx] = p.done(err, failedAt-at[k])
			return idx + 1, stops(res[idx].Err)
		}
	}
	return i + len(parts), false
}

// batchPart builds op's operations.
func (c *nfs4Client) batchPart(ctx context.Context, op share.Op) (batchPart, error) {
	wrap := func(err error) error { return fmt.Errorf("%s %s: %w", op.Kind, op.Path, err) }
	gone := func(err error) error {
		if err == nil || errors.Is(err, fs.ErrNotExist) {
			return nil // a missing path is what a removal wants
		}
		return wrap(err)
	}
	switch op.Kind {
	case share.OpStat:
		var a attrs4
		ops, err := c.lookupOps(ctx, share.SplitRel(op.Path), 1)
		if err != nil {
			return batchPart{}, err
		}
		return batchPart{ops: append(ops, opGetattr(statMask, &a)), done: func(err error, _ int) share.Result {
			if err != nil {
				return share.Result{Err: wrap(err)}
			}
			fi, err := c.fileInfoOf(a)
			if err != nil {
				return share.Result{Err: wrap(err)}
			}
			return share.Result{Info: fi}
		}}, nil
	case share.OpRead:
		var data []byte
		var eof bool
		ops, err := c.lookupOps(ctx, share.SplitRel(op.Path), 1)
		if err != nil {
			return batchPart{}, err
		}
		return batchPart{ops: append(ops, opRead(anonymousStateid, 0, batchChunk, &data, &eof)), done: func(err error, _ int) share.Result {
			if err != nil {
				return share.Result{Err: wrap(err)}
			}
			if !eof && len(data) > 0 {
				// Longer than one READ: the rest goes on its own.
				more, err := c.readFrom(ctx, op.Path, data)
				return share.Result{Data: more, Err: err}
			}
			return share.Result{Data: data}
		}}, nil
	case share.OpCreate, share.OpWrite:
		ops, name, err := c.parentOps(ctx, op.Path, 4)
		if err != nil {
			return batchPart{}, err
		}
		if name == "" {
			return batchPart{}, fmt.Errorf("write of the share root: %w", fs.ErrPermission)
		}
		var fh []byte
		var open openResult
		var w writeResult
		ops = append(ops, opOpen(c.s.clientID, openOwner, openArgs{access: openShareAccessWrite, create: true, guarded: op.Kind == share.OpCreate, mode: 0o644, name: name}, &open), opGetfh(&fh))
		openAt := len(ops) - 2
		if len(op.Data) > 0 {
			ops = append(ops, opWrite(currentStateid, 0, op.Data, fileSync4, &w))
		}
		ops = append(ops, opClose(currentStateid))
		return batchPart{ops: ops, done: func(err error, failed int) share.Result {
			if err != nil && failed > openAt {
				// CLOSE did not run: close the file with the stateid OPEN gave.
				c.closeOpen(ctx, fh, open.Stateid)
			}
			if open.Delegation != nil {
				c.returnDelegation(ctx, fh, *open.Delegation)
			}
			if err == nil && len(op.Data) > 0 && int(w.Count) < len(op.Data) {
				err = fmt.Errorf("short write (%d of %d bytes): %w", w.Count, len(op.Data), share.ErrUnavailable)
			}
			if err != nil {
				return share.Result{Err: wrap(err)}
			}
			return share.Result{}
		}}, nil
	case share.OpRemove, share.OpRmdir:
		ops, name, err := c.parentOps(ctx, op.Path, 5)
		if err != nil {
			return batchPart{}, err
		}
		if name == "" {
			return batchPart{}, fmt.Errorf("remove of the share root: %w", fs.ErrPermission)
		}
		if op.Kind == share.OpRmdir {
			// REMOVE takes files too: the name must be a directory (a
			// link is NF4LNK, and stays).
			ops = append(ops, opSavefh(), opLookup(name), opVerifyDir(), opRestorefh())
		}
		ops = append(ops, opRemove(name))
		return batchPart{ops: ops, done: func(err error, _ int) share.Result {
			if isNFS4Status(err, nfs4ErrNotSame) {
				return share.Result{Err: wrap(fmt.Errorf("not a directory: %w", err))}
			}
			return share.Result{Err: gone(err)}
		}}, nil
	case share.OpReplace:
		// As Replace: from's directory, SAVEFH, to's directory, RENAME.
		from, to := share.SplitRel(op.Path), share.SplitRel(op.To)
		if len(from) == 0 || len(to) == 0 {
			return batchPart{}, fmt.Errorf("rename of the share root: %w", fs.ErrPermission)
		}
		ops, err := c.lookupOps(ctx, from[:len(from)-1], len(to)+2)
		if err != nil {
			return batchPart{}, err
		}
		toOps, toName, err := c.parentOps(ctx, op.To, len(ops)+2)
		if err != nil {
			return batchPart{}, err
		}
		ops = append(append(append(ops, opSavefh()), toOps...), opRename(from[len(from)-1], toName))
		return batchPart{ops: ops, done: func(err error, _ int) share.Result {
			if err != nil {
				return share.Result{Err: wrap(err)}
			}
			return share.Result{}
		}}, nil
	}
	return batchPart{}, fmt.Errorf("%s: %w", op.Kind, errors.ErrUnsupported)
}

// CreateFile is Creator's: OPEN (GUARDED4), WRITE and CLOSE in one
// COMPOUND.
func (c *nfs4Client) CreateFile(ctx context.Context, rel string, data []byte) error {
	return c.Batch(ctx, []share.Op{{Kind: share.OpCreate, Path: rel, Data: data}}, false)[0].Err
}

// RemoveDir is Rmdirer's: REMOVE of a name that is a directory, in one
// COMPOUND.
func (c *nfs4Client) RemoveDir(ctx context.Context, rel string) error {
	return c.Batch(ctx, []share.Op{{Kind: share.OpRmdir, Path: rel}}, false)[0].Err
}
