package share

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
)

// OpKind names one small step of a Batch.
type OpKind uint8

const (
	// OpStat is Stat of Path (Result.Info).
	OpStat OpKind = iota + 1
	// OpRead is ReadFile of Path (Result.Data).
	OpRead
	// OpCreate writes Data into a new file at Path, failing with
	// fs.ErrExist when Path exists: where two calls race, one wins. A call
	// cut short between creating and writing leaves an empty file.
	OpCreate
	// OpWrite is WriteFile: Path created or replaced.
	OpWrite
	// OpRemove removes the file Path; a missing Path is success.
	OpRemove
	// OpRmdir removes the empty directory Path, or fails with ErrNotEmpty;
	// a missing Path is success. A link is never followed: what a link
	// leads to is never removed.
	OpRmdir
	// OpReplace is Replace: the file Path moved to To in one step, in
	// place of any file there.
	OpReplace
)

func (k OpKind) String() string {
	switch k {
	case OpStat:
		return "stat"
	case OpRead:
		return "read"
	case OpCreate:
		return "create"
	case OpWrite:
		return "write"
	case OpRemove:
		return "remove"
	case OpRmdir:
		return "rmdir"
	case OpReplace:
		return "replace"
	}
	return fmt.Sprintf("op %d", k)
}

// Op is one small step of a Batch, on a path from the session's root.
type Op struct {
	Kind OpKind
	Path string
	Data []byte
	// To is where OpReplace moves Path.
	To string
}

// Result is what one Op did: Err wraps fs.ErrNotExist, fs.ErrExist,
// ErrNotEmpty and the rest as the Client's methods do.
type Result struct {
	Info FileInfo
	Data []byte
	Err  error
}

// ErrSkipped answers the ops of an ordered batch after the one that failed.
var ErrSkipped = errors.New("not run: an earlier step of the batch failed")

// Batcher is a Client that sends several small steps in fewer round trips
// than one each: SMB2 compounds of several files, one NFSv4.1 COMPOUND.
// The state store's protocols are written as such batches, so that every
// protocol pays the round trips it must and no more.
type Batcher interface {
	// Batch runs ops and answers one Result per op.
	//
	// Ordered: an op runs only after every op before it succeeded; the
	// rest answer ErrSkipped. The store uses it where a later step may
	// only happen after an earlier one (a mark only after its record).
	//
	// Unordered: every op runs, whatever the others' outcome, in the
	// order given (an SMB2 related compound, which the server handles in
	// order; an NFSv4.1 COMPOUND, which stops at a failure, so the rest go
	// in the next one): a crash leaves the ops up to some point done. Ops
	// that may well fail (a look for a record that should not be there)
	// go last.
	Batch(ctx context.Context, ops []Op, ordered bool) []Result
}

// RunBatch runs ops on c: through its Batcher, or one call each.
func RunBatch(ctx context.Context, c Client, ops []Op, ordered bool) []Result {
	if b, ok := c.(Batcher); ok {
		return b.Batch(ctx, ops, ordered)
	}
	return EachOp(ops, ordered, func(op Op) Result { return RunOne(ctx, c, op) })
}

// EachOp runs ops one at a time through run, as a protocol without
// batching does (NFSv3), with Batch's rule for ordered batches.
func EachOp(ops []Op, ordered bool, run func(Op) Result) []Result {
	res := make([]Result, len(ops))
	for i, op := range ops {
		res[i] = run(op)
		if res[i].Err != nil && ordered {
			for j := i + 1; j < len(ops); j++ {
				res[j].Err = ErrSkipped
			}
			break
		}
	}
	return res
}

// Creator is a Client that writes a new file only where none is.
type Creator interface {
	CreateFile(ctx context.Context, rel string, data []byte) error
}

// Rmdirer is a Client that removes one empty directory, never a link's
// target.
type Rmdirer interface {
	RemoveDir(ctx context.Context, rel string) error
}

// RunOne is one Op through c's methods: for clients that do not batch, and
// for a protocol's Batch when an op must go on its own.
func RunOne(ctx context.Context, c Client, op Op) Result {
	var r Result
	switch op.Kind {
	case OpStat:
		r.Info, r.Err = c.Stat(ctx, op.Path)
	case OpRead:
		r.Data, r.Err = c.ReadFile(ctx, op.Path)
	case OpCreate:
		cr, ok := c.(Creator)
		if !ok {
			r.Err = fmt.Errorf("create %s: %w", op.Path, errors.ErrUnsupported)
			break
		}
		r.Err = cr.CreateFile(ctx, op.Path, op.Data)
	case OpWrite:
		r.Err = c.WriteFile(ctx, op.Path, op.Data)
	case OpRemove:
		r.Err = c.Remove(ctx, op.Path)
	case OpRmdir:
		rd, ok := c.(Rmdirer)
		if !ok {
			r.Err = fmt.Errorf("rmdir %s: %w", op.Path, errors.ErrUnsupported)
			break
		}
		r.Err = rd.RemoveDir(ctx, op.Path)
	case OpReplace:
		r.Err = c.Replace(ctx, op.Path, op.To)
	default:
		r.Err = fmt.Errorf("%s: %w", op.Kind, errors.ErrUnsupported)
	}
	if (op.Kind == OpRemove || op.Kind == OpRmdir) && errors.Is(r.Err, fs.ErrNotExist) {
		r.Err = nil
	}
	return r
}
