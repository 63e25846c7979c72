package share

import (
	"errors"
	"io/fs"
	"testing"
)

func TestEachOpKeepsBatchSemantics(t *testing.T) {
	ops := []Op{{Kind: OpStat, Path: "a"}, {Kind: OpStat, Path: "missing"}, {Kind: OpStat, Path: "c"}}
	var ran []string
	run := func(op Op) Result {
		ran = append(ran, op.Path)
		if op.Path == "missing" {
			return Result{Err: fs.ErrNotExist}
		}
		return Result{}
	}
	res := EachOp(ops, false, run)
	if len(ran) != 3 || res[0].Err != nil || !errors.Is(res[1].Err, fs.ErrNotExist) || res[2].Err != nil {
		t.Fatalf("unordered: ran %v, results %+v: every op must run, each with its own outcome", ran, res)
	}
	ran = nil
	res = EachOp(ops, true, run)
	if len(ran) != 2 || res[0].Err != nil || !errors.Is(res[1].Err, fs.ErrNotExist) || !errors.Is(res[2].Err, ErrSkipped) {
		t.Fatalf("ordered: ran %v, results %+v: the ops after a failure must not run", ran, res)
	}
}
