package nfs4

import (
	"errors"
	"testing"
	"time"
)

// fuzzOps is a COMPOUND that uses every result decoder the client has; the
// first fuzzed byte picks how many of them the call is taken to have sent,
// so replies that stop early reach each decoder too.
func fuzzOps() []nfs4Op {
	var (
		seq  sequenceRes
		fh   []byte
		a    attrs4
		page readdir4Page
		data []byte
		eof  bool
		open openResult
		w    writeResult
		ex   exchangeIDRes
		cs   createSessionRes
		link string
		verf [8]byte
	)
	mode := uint32(0o755)
	mtime := time.Unix(0, 0)
	return []nfs4Op{
		opSequence([16]byte{}, 1, 0, &seq),
		opPutfh([]byte{1}),
		opLookup("a"),
		opGetfh(&fh),
		opGetattr(walkMask, &a),
		opReaddir(0, [8]byte{}, 1, 1, walkMask, &page),
		opRead(anonymousStateid, 0, 4096, &data, &eof),
		opOpenCreate(1, []byte("o"), "f", 0o644, &open),
		opWrite(currentStateid, 0, []byte("x"), unstable4, &w),
		opClose(currentStateid),
		opMkdir("d", mode),
		opSetattr(anonymousStateid, setAttrs{mode: &mode}),
		opRemove("r"),
		opSavefh(),
		opRename("a", "b"),
		opExchangeID([8]byte{}, []byte("o"), &ex),
		opCreateSession(1, 1, nfs4ForeChannel, nfs4BackChannel, &cs),
		opReclaimComplete(),
		opDelegreturn(anonymousStateid),
		opGetattr(treeMask, &a),
		opReaddir(0, [8]byte{}, 1, 1, treeDirMask, &page),
		opReadlink(&link),
		opSymlink("t", "l"),
		opOpen(1, []byte("o"), openArgs{access: openShareAccessRead, name: "f"}, &open),
		opCommit(&verf),
		opSetattr(anonymousStateid, setAttrs{owner: &owner4{"0", "0"}, mtime: &mtime}),
	}
}

// FuzzCompoundReply feeds bytes to the COMPOUND reply decoder as the reply
// to a call of many operations. It must never panic, never accept a reply
// with bytes left over or results beyond the call's, and report a refusal
// only from the last result it read.
func FuzzCompoundReply(f *testing.F) {
	f.Add(uint8(3), reply(0, result4{op4Sequence, 0, seqOK}, result4{op4Putfh, 0, nil}, result4{op4Lookup, 0, nil}))
	f.Add(uint8(3), reply(nfs4ErrNoent, result4{op4Sequence, 0, seqOK}, result4{op4Putfh, 0, nil}, result4{op4Lookup, nfs4ErrNoent, nil}))
	f.Add(uint8(6), reply(0, result4{op4Sequence, 0, seqOK}, result4{op4Putfh, 0, nil}, result4{op4Lookup, 0, nil},
		result4{op4Getfh, 0, func(e *xdrEnc) { e.opaque([]byte{1, 2}) }},
		result4{op4Getattr, 0, func(e *xdrEnc) { fattr(e, []int{attrType, attrFSID}, func(v *xdrEnc) { v.u32(2); v.u64(1); v.u64(1) }) }},
		result4{op4Readdir, 0, func(e *xdrEnc) {
			e.fixed(make([]byte, 8))
			e.boolean(true)
			e.u64(1)
			e.str("n")
			fattr(e, []int{attrType}, func(v *xdrEnc) { v.u32(1) })
			e.boolean(false)
			e.boolean(true)
		}}))
	f.Add(uint8(1), reply(nfs4ErrBadsession, result4{op4Sequence, nfs4ErrBadsession, nil}))
	f.Add(uint8(0), []byte{0, 0, 0, 0, 0xff, 0xff, 0xff, 0xff})
	f.Fuzz(func(t *testing.T, sent uint8, b []byte) {
		ops := fuzzOps()
		ops = ops[:int(sent)%(len(ops)+1)]
		r, err := decodeCompound(b, ops)
		if err != nil {
			if !errors.Is(err, errXDR) {
				t.Fatalf("decode error that is not errXDR: %v", err)
			}
			return
		}
		if r.n > len(ops) {
			t.Fatalf("%d results accepted for %d operations", r.n, len(ops))
		}
		if r.failed >= 0 && r.failed != r.n-1 {
			t.Fatalf("failure reported at %d of %d results", r.failed, r.n)
		}
		if r.err == nil && r.n != len(ops) {
			t.Fatalf("success with %d results for %d operations", r.n, len(ops))
		}
	})
}
