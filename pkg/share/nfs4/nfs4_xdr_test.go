package nfs4

import (
	"bytes"
	"encoding/hex"
	"errors"
	"io/fs"
	"strings"
	"testing"
	"time"

	"github.com/fileshare-csi/fileshare-csi/pkg/share"
)

// hexWords writes XDR as groups of four bytes, as RFCs print it.
func hexWords(s string) []byte {
	b, err := hex.DecodeString(strings.Join(strings.Fields(s), ""))
	if err != nil {
		panic(err)
	}
	return b
}

func TestEncodeCompound(t *testing.T) {
	var seq sequenceRes
	var a attrs4
	session := [16]byte{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16}
	ops := []nfs4Op{
		opSequence(session, 7, 0, &seq),
		opPutfh([]byte{0xaa, 0xbb, 0xcc, 0xdd, 0xee}),
		opLookup("vol"),
		opGetattr(attrMask(attrType, attrMode, attrFileID), &a),
	}
	var e xdrEnc
	encodeCompound(&e, "", nfs4Minor, ops)
	want := hexWords(`
		00000000 00000001 00000004
		00000035 01020304 05060708 090a0b0c 0d0e0f10 00000007 00000000 00000000 00000000
		00000016 00000005 aabbccdd ee000000
		0000000f 00000003 766f6c00
		00000009 00000002 00100002 00000002`)
	if !bytes.Equal(e.b, want) {
		t.Fatalf("encoded\n%x\nwant\n%x", e.b, want)
	}
}

func TestEncodeSetattrAndOpen(t *testing.T) {
	mode := uint32(0o2750)
	var e xdrEnc
	opSetattr(anonymousStateid, setAttrs{mode: &mode}).enc(&e)
	want := hexWords(`00000000 00000000 00000000 00000000  00000002 00000000 00000002  00000004 000005e8`)
	if !bytes.Equal(e.b, want) {
		t.Fatalf("SETATTR args\n%x\nwant\n%x", e.b, want)
	}
	e = xdrEnc{}
	var res openResult
	opOpenCreate(0x1122334455667788, []byte("o"), "f", 0o644, &res).enc(&e)
	want = hexWords(`
		00000000 00000402 00000000 11223344 55667788 00000001 6f000000
		00000001 00000000
		00000002 00000010 00000002 0000000c 00000000 00000000 000001a4
		00000000 00000001 66000000`)
	if !bytes.Equal(e.b, want) {
		t.Fatalf("OPEN args\n%x\nwant\n%x", e.b, want)
	}
	e = xdrEnc{}
	opWrite(currentStateid, 4096, []byte("abcde"), fileSync4, new(writeResult)).enc(&e)
	want = hexWords(`00000001 00000000 00000000 00000000  00000000 00001000  00000002  00000005 61626364 65000000`)
	if !bytes.Equal(e.b, want) {
		t.Fatalf("WRITE args\n%x\nwant\n%x", e.b, want)
	}
}

// reply builds a COMPOUND4res: results are (opcode, status, body).
type result4 struct {
	op, status uint32
	body       func(e *xdrEnc)
}

func reply(status uint32, results ...result4) []byte {
	var e xdrEnc
	e.u32(status)
	e.str("")
	e.u32(uint32(len(results)))
	for _, r := range results {
		e.u32(r.op)
		e.u32(r.status)
		if r.body != nil {
			r.body(&e)
		}
	}
	return e.b
}

func seqOK(e *xdrEnc) {
	e.fixed(make([]byte, 16))
	for _, v := range []uint32{7, 0, 0, 0, 0} {
		e.u32(v)
	}
}

func fattr(e *xdrEnc, bits []int, vals func(v *xdrEnc)) {
	e.bitmap(attrMask(bits...))
	var v xdrEnc
	vals(&v)
	e.opaque(v.b)
}

func TestDecodeCompound(t *testing.T) {
	var seq sequenceRes
	var fh []byte
	var a attrs4
	ops := []nfs4Op{opSequence([16]byte{}, 7, 0, &seq), opPutfh([]byte{1}), opLookup("x"), opGetfh(&fh), opGetattr(nil, &a)}
	b := reply(0,
		result4{op4Sequence, 0, seqOK},
		result4{op4Putfh, 0, nil},
		result4{op4Lookup, 0, nil},
		result4{op4Getfh, 0, func(e *xdrEnc) { e.opaque([]byte{9, 9, 9}) }},
		result4{op4Getattr, 0, func(e *xdrEnc) {
			fattr(e, []int{attrType, attrSize, attrFSID, attrFileID, attrMode, attrOwner, attrOwnerGroup, attrSpaceAvail, attrMountedOnFileID}, func(v *xdrEnc) {
				v.u32(nf4Dir)
				v.u64(4096)
				v.u64(1)
				v.u64(2)
				v.u64(12345)
				v.u32(0o2755)
				v.str("0")
				v.str("1000")
				v.u64(1 << 40)
				v.u64(777)
			})
		}},
	)
	r, err := decodeCompound(b, ops)
	if err != nil || r.err != nil || r.failed != -1 || r.n != 5 {
		t.Fatalf("decode: %+v, %v", r, err)
	}
	if seq.Seqid != 7 || !bytes.Equal(fh, []byte{9, 9, 9}) {
		t.Fatalf("sequence %+v, filehandle %x", seq, fh)
	}
	wantAttrs := attrs4{Type: nf4Dir, Size: 4096, FSID: fsid4{1, 2}, FileID: 12345, Mode: 0o2755, Owner: "0", OwnerGroup: "1000", SpaceAvail: 1 << 40, MountedOnFileID: 777}
	wantAttrs.mask = a.mask
	if a.FH != nil || a.Type != wantAttrs.Type || a.Size != wantAttrs.Size || a.FSID != wantAttrs.FSID || a.FileID != wantAttrs.FileID ||
		a.Mode != wantAttrs.Mode || a.Owner != wantAttrs.Owner || a.OwnerGroup != wantAttrs.OwnerGroup || a.SpaceAvail != wantAttrs.SpaceAvail || a.MountedOnFileID != wantAttrs.MountedOnFileID {
		t.Fatalf("attributes %+v, want %+v", a, wantAttrs)
	}
	if !a.has(attrMode) || a.has(attrFilehandle) {
		t.Fatalf("attribute mask %x", a.mask)
	}

	// LOOKUP fails: the reply stops there, and the error says which and what.
	b = reply(nfs4ErrNoent, result4{op4Sequence, 0, seqOK}, result4{op4Putfh, 0, nil}, result4{op4Lookup, nfs4ErrNoent, nil})
	r, err = decodeCompound(b, ops)
	var ne *NFS4Error
	if err != nil || r.failed != 2 || r.n != 3 || !errors.As(r.err, &ne) || ne.Op != op4Lookup || !errors.Is(r.err, fs.ErrNotExist) {
		t.Fatalf("failed LOOKUP: %+v, %v", r, err)
	}
	// SETATTR carries its bitmap even when it fails.
	mode := uint32(0o700)
	sops := []nfs4Op{opPutfh([]byte{1}), opSetattr(anonymousStateid, setAttrs{mode: &mode})}
	b = reply(nfs4ErrAccess, result4{op4Putfh, 0, nil}, result4{op4Setattr, nfs4ErrAccess, func(e *xdrEnc) { e.bitmap(nil) }})
	if r, err := decodeCompound(b, sops); err != nil || r.failed != 1 || !errors.Is(r.err, fs.ErrPermission) {
		t.Fatalf("failed SETATTR: %+v, %v", r, err)
	}
	// Refused as a whole, before any operation.
	if r, err := decodeCompound(reply(nfs4ErrMinorVersMism), ops); err != nil || r.failed != -1 || r.n != 0 || !isNFS4Status(r.err, nfs4ErrMinorVersMism) {
		t.Fatalf("whole COMPOUND refused: %+v, %v", r, err)
	}
}

func TestDecodeCompoundRejectsMalformedReplies(t *testing.T) {
	var fh []byte
	var a attrs4
	ops := []nfs4Op{opPutfh([]byte{1}), opGetfh(&fh), opGetattr(nil, &a)}
	ok := []result4{{op4Putfh, 0, nil}, {op4Getfh, 0, func(e *xdrEnc) { e.opaque([]byte{1}) }}, {op4Getattr, 0, func(e *xdrEnc) { fattr(e, []int{attrType}, func(v *xdrEnc) { v.u32(1) }) }}}
	if _, err := decodeCompound(reply(0, ok...), ops); err != nil {
		t.Fatalf("the well-formed reply: %v", err)
	}
	cases := map[string][]byte{
		"truncated":        reply(0, ok...)[:30],
		"trailing bytes":   append(reply(0, ok...), 0, 0, 0, 0),
		"more results":     reply(0, append(ok, result4{op4Putfh, 0, nil})...),
		"fewer, no error":  reply(0, ok[:2]...),
		"another op":       reply(0, result4{op4Lookup, 0, nil}),
		"after a failure":  reply(nfs4ErrIO, result4{op4Putfh, nfs4ErrIO, nil}, ok[1]),
		"huge filehandle":  reply(0, ok[0], result4{op4Getfh, 0, func(e *xdrEnc) { e.u32(1 << 30) }}),
		"filehandle > 128": reply(0, ok[0], result4{op4Getfh, 0, func(e *xdrEnc) { e.opaque(make([]byte, 129)) }}),
		"huge count":       append(reply(0)[:8], 0x7f, 0xff, 0xff, 0xff),
		"unasked attribute": reply(0, ok[0], ok[1], result4{op4Getattr, 0, func(e *xdrEnc) {
			fattr(e, []int{attrType, 2}, func(v *xdrEnc) { v.u32(1); v.u32(0) })
		}}),
		"attribute values too short": reply(0, ok[0], ok[1], result4{op4Getattr, 0, func(e *xdrEnc) {
			fattr(e, []int{attrType, attrSize}, func(v *xdrEnc) { v.u32(1) })
		}}),
		"attribute values too long": reply(0, ok[0], ok[1], result4{op4Getattr, 0, func(e *xdrEnc) {
			fattr(e, []int{attrType}, func(v *xdrEnc) { v.u32(1); v.u32(1) })
		}}),
		"bitmap of 9 words": reply(0, ok[0], ok[1], result4{op4Getattr, 0, func(e *xdrEnc) { e.bitmap(make([]uint32, 9)); e.opaque(nil) }}),
	}
	for name, b := range cases {
		if _, err := decodeCompound(b, ops); !errors.Is(err, errXDR) {
			t.Errorf("%s: %v, want errXDR", name, err)
		}
	}
}

func TestDecodeReaddir(t *testing.T) {
	var page readdir4Page
	ops := []nfs4Op{opPutfh([]byte{1}), opReaddir(0, [8]byte{}, 100, 1000, walkMask, &page)}
	entry := func(e *xdrEnc, cookie uint64, name string, typ uint32, id uint64) {
		e.boolean(true)
		e.u64(cookie)
		e.str(name)
		fattr(e, []int{attrType, attrFilehandle, attrFileID}, func(v *xdrEnc) {
			v.u32(typ)
			v.opaque([]byte{byte(id)})
			v.u64(id)
		})
	}
	b := reply(0, result4{op4Putfh, 0, nil}, result4{op4Readdir, 0, func(e *xdrEnc) {
		e.fixed([]byte("verifier"))
		entry(e, 3, "a", nf4Reg, 10)
		entry(e, 4, "sub", nf4Dir, 11)
		entry(e, 5, "l", nf4Lnk, 12)
		e.boolean(false)
		e.boolean(true)
	}})
	if _, err := decodeCompound(b, ops); err != nil {
		t.Fatal(err)
	}
	if string(page.Verf[:]) != "verifier" || !page.EOF || len(page.Entries) != 3 {
		t.Fatalf("page %+v", page)
	}
	if e := page.Entries[1]; e.Cookie != 4 || e.Name != "sub" || e.Attrs.Type != nf4Dir || e.Attrs.FileID != 11 || !bytes.Equal(e.Attrs.FH, []byte{11}) {
		t.Fatalf("entry %+v", e)
	}
	// An entry list that claims more than the reply holds.
	b = reply(0, result4{op4Putfh, 0, nil}, result4{op4Readdir, 0, func(e *xdrEnc) {
		e.fixed([]byte("verifier"))
		e.boolean(true)
		e.u64(1)
	}})
	if _, err := decodeCompound(b, ops); !errors.Is(err, errXDR) {
		t.Fatalf("truncated entry: %v", err)
	}
}

// The statuses map to the errors the v3 client gives for the same answers.
// A stale handle is no answer about a path: ErrUnavailable, never
// fs.ErrNotExist (which the store reads as "not there").
func TestNFS4ErrorsUnwrapLikeV3(t *testing.T) {
	for status, want := range map[uint32]error{
		nfs4ErrNoent:    fs.ErrNotExist,
		nfs4ErrStale:    share.ErrUnavailable, // v3's STALE too: no answer about a path
		nfs4ErrExist:    fs.ErrExist,
		nfs4ErrNotempty: share.ErrNotEmpty,
		nfs4ErrAccess:   fs.ErrPermission,
		nfs4ErrPerm:     fs.ErrPermission,
		nfs4ErrRofs:     fs.ErrPermission,
		nfs4ErrDelay:    share.ErrTryLater, // ErrUnavailable, but the session stays
		nfs4ErrGrace:    share.ErrTryLater,
	} {
		err := error(&NFS4Error{Op: op4Remove, Status: status})
		if !errors.Is(err, want) {
			t.Errorf("status %d: %v does not unwrap to %v", status, err, want)
		}
		if share.IsAnswer(err) == errors.Is(err, share.ErrUnavailable) {
			t.Errorf("status %d: IsAnswer %v", status, share.IsAnswer(err))
		}
	}
	// No room on the server, as v3's NOSPC and DQUOT: not an answer about
	// a path, nor a broken session.
	for _, status := range []uint32{nfs4ErrNospc, nfs4ErrDquot} {
		if err := error(&NFS4Error{Op: op4Write, Status: status}); !errors.Is(err, share.ErrNoSpace) || share.BreaksSession(err) {
			t.Errorf("status %d: %v, want ErrNoSpace, the session kept", status, err)
		}
	}
	if err := (&NFS4Error{Op: op4Remove, Status: nfs4ErrIO}); share.IsAnswer(err) || err.Error() != "NFSv4 REMOVE: NFS4ERR_IO (5)" {
		t.Errorf("IO: %v", err)
	}
}

func TestEncodeTreeOps(t *testing.T) {
	size, mode := uint64(5), uint32(0o2640)
	mtime := time.Date(2020, 1, 2, 3, 4, 5, 6, time.UTC) // 1577934245 s
	var e xdrEnc
	opSetattr(anonymousStateid, setAttrs{size: &size, mode: &mode, owner: &owner4{"1234", "2345"}, mtime: &mtime}).enc(&e)
	want := hexWords(`00000000 00000000 00000000 00000000
		00000002 00000010 00400032
		0000002c
		00000000 00000005  000005a0  00000004 31323334  00000004 32333435  00000001 00000000 5e0d5da5 00000006`)
	if !bytes.Equal(e.b, want) {
		t.Fatalf("SETATTR args\n%x\nwant\n%x", e.b, want)
	}
	// A time before 1970 is a negative int64.
	e = xdrEnc{}
	early := time.Date(1969, 12, 31, 23, 59, 59, 0, time.UTC)
	opSetattr(anonymousStateid, setAttrs{mtime: &early}).enc(&e)
	if want := hexWords(`00000001 ffffffff ffffffff 00000000`); !bytes.Equal(e.b[len(e.b)-16:], want) {
		t.Fatalf("settime4 of 1969: %x", e.b[len(e.b)-16:])
	}

	e = xdrEnc{}
	opSymlink("../t", "l").enc(&e)
	want = hexWords(`00000005 00000004 2e2e2f74 00000001 6c000000 00000000 00000000`)
	if !bytes.Equal(e.b, want) {
		t.Fatalf("CREATE NF4LNK args\n%x\nwant\n%x", e.b, want)
	}

	// OPEN for reading: no create, CLAIM_NULL of the name.
	e = xdrEnc{}
	var res openResult
	opOpen(0x1122334455667788, []byte("o"), openArgs{access: openShareAccessRead, name: "f"}, &res).enc(&e)
	want = hexWords(`00000000 00000401 00000000 11223344 55667788 00000001 6f000000
		00000000
		00000000 00000001 66000000`)
	if !bytes.Equal(e.b, want) {
		t.Fatalf("OPEN args\n%x\nwant\n%x", e.b, want)
	}
	// CLAIM_FH of the current filehandle.
	e = xdrEnc{}
	opOpen(1, []byte("o"), openArgs{access: openShareAccessWrite}, &res).enc(&e)
	if want := hexWords(`00000000 00000004`); !bytes.Equal(e.b[len(e.b)-8:], want) {
		t.Fatalf("OPEN by handle ends %x", e.b[len(e.b)-8:])
	}

	e = xdrEnc{}
	opWrite(stateid4{Seqid: 2}, 1, []byte("a"), unstable4, new(writeResult)).enc(&e)
	want = hexWords(`00000002 00000000 00000000 00000000  00000000 00000001  00000000  00000001 61000000`)
	if !bytes.Equal(e.b, want) {
		t.Fatalf("UNSTABLE WRITE args\n%x\nwant\n%x", e.b, want)
	}
	e = xdrEnc{}
	opCommit(new([8]byte)).enc(&e)
	if want := hexWords(`00000000 00000000 00000000`); !bytes.Equal(e.b, want) {
		t.Fatalf("COMMIT args %x", e.b)
	}
}

func TestDecodeTreeResults(t *testing.T) {
	var target string
	var w writeResult
	var verf [8]byte
	var a attrs4
	ops := []nfs4Op{opPutfh([]byte{1}), opReadlink(&target), opWrite(anonymousStateid, 0, []byte("x"), unstable4, &w), opCommit(&verf), opGetattr(treeMask, &a)}
	b := reply(0,
		result4{op4Putfh, 0, nil},
		result4{op4Readlink, 0, func(e *xdrEnc) { e.str("../elsewhere") }},
		result4{op4Write, 0, func(e *xdrEnc) { e.u32(1); e.u32(unstable4); e.fixed([]byte("verifier")) }},
		result4{op4Commit, 0, func(e *xdrEnc) { e.fixed([]byte("verifier")) }},
		result4{op4Getattr, 0, func(e *xdrEnc) {
			fattr(e, []int{attrType, attrSize, attrMode, attrOwner, attrOwnerGroup, attrTimeModify}, func(v *xdrEnc) {
				v.u32(nf4Reg)
				v.u64(3)
				v.u32(0o4751)
				v.str("1234")
				v.str("2345")
				v.u64(1577934245)
				v.u32(800000000)
			})
		}},
	)
	if r, err := decodeCompound(b, ops); err != nil || r.err != nil {
		t.Fatalf("decode: %+v, %v", r, err)
	}
	if target != "../elsewhere" || w.Count != 1 || w.Committed != unstable4 || string(w.Verf[:]) != "verifier" || string(verf[:]) != "verifier" {
		t.Fatalf("READLINK %q, WRITE %+v, COMMIT %q", target, w, verf)
	}
	got := treeAttr(a)
	want := share.Attr{Type: share.TypeFile, Size: 3, Mode: 0o751 | fs.ModeSetuid, HasMode: true, UID: 1234, GID: 2345, HasOwner: true,
		ModTime: time.Date(2020, 1, 2, 3, 4, 5, 800000000, time.UTC)}
	if got != want {
		t.Fatalf("treeAttr = %+v, want %+v", got, want)
	}
	// Owners as names cannot be this machine's ids: they are kept as the
	// server's names; no mode returned is no mode known.
	a.Owner, a.OwnerGroup, a.mask = "root@localdomain", "staff@localdomain", a.mask&^(1<<attrMode)
	if got := treeAttr(a); got.HasOwner || got.HasMode || got.OwnerName != "root@localdomain" || got.GroupName != "staff@localdomain" {
		t.Fatalf("treeAttr of a named owner and no mode = %+v", got)
	}
}
