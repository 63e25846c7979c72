package nfs3

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"io"
	"io/fs"
	"net"
	"slices"
	"sort"
	"sync"
	"testing"
	"time"

	"github.com/vmware/go-nfs-client/nfs"
	"github.com/vmware/go-nfs-client/nfs/rpc"
	"github.com/vmware/go-nfs-client/nfs/xdr"

	"github.com/fileshare-csi/fileshare-csi/pkg/share"
	"github.com/fileshare-csi/fileshare-csi/pkg/share/oncrpc"
)

// fakeNFS3 is an NFSv3 server of one flat directory, for what the
// integration suite's NFS-Ganesha never does: leave attributes out of
// READDIRPLUS, answer READs short or without eof, limit READ and WRITE
// sizes, restart between WRITE and COMMIT. A file's handle is its name;
// the root's is "/".
type fakeNFS3 struct {
	mu           sync.Mutex
	files        map[string][]byte
	rtmax, wtmax uint32
	noAttrs      bool     // READDIRPLUS without attributes
	listed       []string // names READDIRPLUS shows besides the files
	shortRead    int      // READ answers at most this many bytes (0: all asked)
	noEOF        bool     // READ never sets eof
	commitVerf   uint64   // COMMIT's verifier; WRITE's is 1
	reads        []uint32 // counts asked by READ
	writes       []uint32 // counts sent by WRITE
	commits      int
	stable       []uint32 // each WRITE's stable_how
	setattrs     []nfs.Sattr3
	writeClaims  uint32 // WRITE answers it took this many bytes (0: what it was sent)
	cookieRing   bool   // READDIRPLUS cookies go round (1, 2, 1, ...), never at the end
	readdirs     int    // READDIRPLUS calls
	lookupStatus uint32 // LOOKUP answers this NFS status (0: as the files say)
}

func startFakeNFS3(t *testing.T, srv *fakeNFS3) *nfsClient {
	t.Helper()
	client, server := net.Pipe()
	go srv.serve(server)
	t.Cleanup(func() { client.Close() })
	return &nfsClient{conn: oncrpc.NewConn(client), auth: rpc.AuthNull, root: []byte("/"), desc: "nfs://fake/export"}
}

func (srv *fakeNFS3) attr(name string) nfs.Fattr {
	if name == "/" {
		return nfs.Fattr{Type: nfs.NF3Dir, FileMode: 0o755, Fileid: 1, FSID: 7}
	}
	id := uint64(2)
	for _, n := range srv.names() {
		if n == name {
			break
		}
		id++
	}
	return nfs.Fattr{Type: nfs.NF3Reg, FileMode: 0o4755, UID: 5, GID: 6, Filesize: uint64(len(srv.files[name])), Fileid: id, FSID: 7,
		Mtime: nfs.NFS3Time{Seconds: 1600000000, Nseconds: 123456789}}
}

func (srv *fakeNFS3) names() []string {
	var names []string
	for n := range srv.files {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

func (srv *fakeNFS3) serve(c net.Conn) {
	defer c.Close()
	for {
		rec, err := oncrpc.ReadRecord(c, oncrpc.MaxRecord)
		if err != nil {
			return
		}
		var call struct {
			Xid, Type uint32
			rpc.Header
		}
		r := oncrpc.NewReader(rec)
		if err := r.Decode(&call); err != nil {
			return
		}
		srv.mu.Lock()
		res := srv.answer(call.Proc, args{r})
		if call.Prog == mountProg {
			res = []any{uint32(0)} // MNT: OK, and the reply ends there
		}
		srv.mu.Unlock()
		var out bytes.Buffer
		out.Write(make([]byte, 4)) // record mark, set below
		for _, v := range []uint32{call.Xid, 1, 0, 0, 0, 0} {
			binary.Write(&out, binary.BigEndian, v)
		}
		for _, v := range res {
			if err := xdr.Write(&out, v); err != nil {
				panic(err)
			}
		}
		b := out.Bytes()
		binary.BigEndian.PutUint32(b, uint32(len(b)-4)|1<<31)
		if _, err := c.Write(b); err != nil {
			return
		}
	}
}

// args reads a call's arguments: the fake's client is this package's own,
// so an argument that does not decode is the test's failure.
type args struct{ *oncrpc.Reader }

func (a args) u32() uint32 {
	v, err := a.Uint32()
	if err != nil {
		panic(err)
	}
	return v
}

func (a args) u64() uint64 { return uint64(a.u32())<<32 | uint64(a.u32()) }

func (a args) opaque(max int) []byte {
	b, err := a.Opaque(max)
	if err != nil {
		panic(err)
	}
	return b
}

func (a args) str(max int) string { return string(a.opaque(max)) }

// answer decodes one call's arguments and gives the values of its reply,
// status first.
func (srv *fakeNFS3) answer(proc uint32, d args) []any {
	none := nfs.PostOpAttr{}
	fh := string(d.opaque(maxFH))
	switch proc {
	case procGetattr:
		return []any{uint32(0), srv.attr(fh)}
	case procLookup:
		name := d.str(255)
		if srv.lookupStatus != 0 {
			return []any{srv.lookupStatus, none}
		}
		if _, ok := srv.files[name]; !ok {
			return []any{uint32(nfs.NFS3ErrNoEnt), none}
		}
		return []any{uint32(0), []byte(name), none, none}
	case procFsinfo:
		return []any{uint32(0), nfs.FSInfo{RTMax: srv.rtmax, RTPref: srv.rtmax, WTMax: srv.wtmax, WTPref: srv.wtmax}}
	case procRead:
		off, count := d.u64(), d.u32()
		srv.reads = append(srv.reads, count)
		data := srv.files[fh]
		end := min(uint64(len(data)), off+uint64(count))
		if srv.shortRead > 0 {
			end = min(end, off+uint64(srv.shortRead))
		}
		start := min(off, end)
		eof := end == uint64(len(data)) && !srv.noEOF
		return []any{uint32(0), none, uint32(end - start), eof, data[start:end]}
	case procWrite:
		off, count := d.u64(), d.u32()
		srv.stable = append(srv.stable, d.u32())
		data := d.opaque(1 << 20)
		srv.writes = append(srv.writes, count)
		f := srv.files[fh]
		if end := int(off) + len(data); end > len(f) {
			f = append(f, make([]byte, end-len(f))...)
		}
		copy(f[off:], data)
		srv.files[fh] = f
		if srv.writeClaims != 0 {
			count = srv.writeClaims
		}
		return []any{uint32(0), nfs.WccData{}, count, uint32(0), uint64(1)}
	case procCreate:
		// A file in the root, created or truncated whatever the mode.
		name := d.str(255)
		srv.files[name] = nil
		return []any{uint32(0), nfs.PostOpFH3{IsSet: true, FH: []byte(name)}, none, nfs.WccData{}}
	case procSetattr:
		var a nfs.Sattr3
		if err := d.Decode(&a); err != nil {
			panic(err)
		}
		srv.setattrs = append(srv.setattrs, a)
		return []any{uint32(0), nfs.WccData{}}
	case procCommit:
		srv.commits++
		return []any{uint32(0), nfs.WccData{}, srv.commitVerf}
	case procReaddirplus:
		cookie := d.u64()
		srv.readdirs++
		if srv.cookieRing {
			next := uint64(1)
			if cookie == 1 {
				next = 2
			}
			e := nfs.EntryPlus{FileId: next, FileName: "ring", Cookie: next}
			return []any{uint32(0), none, uint64(42), true, e, false, false}
		}
		names := append([]string{".", ".."}, srv.names()...)
		names = append(names, srv.listed...)
		res := []any{uint32(0), none, uint64(42)}
		// Two entries a page, so a listing takes several.
		i := int(cookie)
		for ; i < len(names) && i < int(cookie)+2; i++ {
			e := nfs.EntryPlus{FileId: uint64(i + 1), FileName: names[i], Cookie: uint64(i + 1)}
			if !srv.noAttrs {
				e.Attr = nfs.PostOpAttr{IsSet: true, Attr: srv.attr(names[i])}
			}
			res = append(res, true, e)
		}
		return append(res, false, i == len(names))
	}
	return []any{uint32(nfs.NFS3ErrNotSupp)}
}

func testCtx(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	t.Cleanup(cancel)
	return ctx
}

func TestNFSReadDirAsksForAttributesTheReplyLeftOut(t *testing.T) {
	srv := &fakeNFS3{files: map[string][]byte{"a": []byte("12345"), "b": nil, "c": []byte("x")}, noAttrs: true, listed: []string{"gone"}}
	c := startFakeNFS3(t, srv)
	var got []share.DirEntry
	pages := 0
	err := c.ReadDir(testCtx(t), "", func(page []share.DirEntry) error {
		pages++
		got = append(got, page...)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if pages < 2 {
		t.Errorf("fn called %d times, want a call a page", pages)
	}
	var names []string
	for _, e := range got {
		names = append(names, e.Name)
		if want := attrOf(srv.attr(e.Name)); e.Attr != want {
			t.Errorf("entry %s: %+v, want %+v", e.Name, e.Attr, want)
		}
	}
	// "gone" was listed but no longer there when looked up.
	if !slices.Equal(names, []string{"a", "b", "c"}) {
		t.Fatalf("ReadDir = %v, want a b c", names)
	}
	if a := got[0].Attr; a.Mode != 0o755|fs.ModeSetuid || !a.HasMode || !a.HasOwner || a.UID != 5 || a.Size != 5 || a.ModTime.Nanosecond() != 123456789 || a.FSID != [2]uint64{7, 0} {
		t.Errorf("entry a: %+v", a)
	}
}

func TestNFSReadAtChunksWithinRtmaxAndEndsWithEOF(t *testing.T) {
	data := bytes.Repeat([]byte("0123456789"), 250)
	for _, tc := range []struct {
		name      string
		shortRead int
		noEOF     bool
	}{{"plain", 0, false}, {"short reads", 300, false}, {"no eof flag", 0, true}} {
		t.Run(tc.name, func(t *testing.T) {
			srv := &fakeNFS3{files: map[string][]byte{"f": data}, rtmax: 1000, shortRead: tc.shortRead, noEOF: tc.noEOF}
			c := startFakeNFS3(t, srv)
			ctx := testCtx(t)
			r, err := c.Open(ctx, "f")
			if err != nil {
				t.Fatal(err)
			}
			p := make([]byte, 2000)
			if n, err := r.ReadAt(ctx, p, 100); n != 2000 || err != nil || !bytes.Equal(p, data[100:2100]) {
				t.Fatalf("ReadAt(100) = %d, %v", n, err)
			}
			if n, err := r.ReadAt(ctx, p, 1000); n != 1500 || err != io.EOF || !bytes.Equal(p[:n], data[1000:]) {
				t.Fatalf("ReadAt(1000) over the end = %d, %v; want 1500, io.EOF", n, err)
			}
			for _, off := range []int64{2500, 3000} {
				if n, err := r.ReadAt(ctx, p, off); n != 0 || err != io.EOF {
					t.Fatalf("ReadAt(%d) = %d, %v; want 0, io.EOF", off, n, err)
				}
			}
			for _, count := range srv.reads {
				if count > 1000 {
					t.Fatalf("READ of %d bytes, rtmax is 1000", count)
				}
			}
		})
	}
}

func TestNFSWriteAtChunksWithinWtmaxAndCommits(t *testing.T) {
	data := bytes.Repeat([]byte("abcdefghij"), 250)
	srv := &fakeNFS3{files: map[string][]byte{"f": nil}, wtmax: 1000, commitVerf: 1}
	c := startFakeNFS3(t, srv)
	ctx := testCtx(t)
	w := &nfsFile{c: c, fh: []byte("f"), rel: "f"}
	if n, err := w.WriteAt(ctx, data, 10); n != len(data) || err != nil {
		t.Fatalf("WriteAt = %d, %v", n, err)
	}
	if err := w.Close(ctx); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(ctx); err != nil || srv.commits != 1 {
		t.Fatalf("second Close: %v after %d COMMITs, want nothing more", err, srv.commits)
	}
	if got := srv.files["f"]; !bytes.Equal(got, append(make([]byte, 10), data...)) {
		t.Fatalf("the server holds %d bytes, not what was written", len(got))
	}
	if !slices.Equal(srv.writes, []uint32{1000, 1000, 500}) {
		t.Fatalf("WRITE counts %v, want within wtmax 1000", srv.writes)
	}

	// The server restarted before COMMIT: the data may be gone.
	srv.commitVerf = 2
	w = &nfsFile{c: c, fh: []byte("f"), rel: "f"}
	if _, err := w.WriteAt(ctx, data, 0); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(ctx); !errors.Is(err, share.ErrUnavailable) {
		t.Fatalf("Close after a verifier change = %v, want ErrUnavailable", err)
	}
}

func TestNFSSetAttrSetsTheOwnerBeforeSetuidAndSetgid(t *testing.T) {
	srv := &fakeNFS3{files: map[string][]byte{"f": nil}}
	c := startFakeNFS3(t, srv)
	ctx := testCtx(t)
	mtime := time.Date(2021, 1, 2, 3, 4, 5, 600, time.UTC)
	a := share.Attr{Mode: 0o755 | fs.ModeSetuid, UID: 5, GID: 6, HasOwner: true, ModTime: mtime}
	if err := c.SetAttr(ctx, "f", a, share.SetOwner|share.SetMode|share.SetModTime); err != nil {
		t.Fatal(err)
	}
	owner := nfs.Sattr3{UID: nfs.SetUID{SetIt: true, UID: 5}, GID: nfs.SetUID{SetIt: true, UID: 6}}
	rest := nfs.Sattr3{Mode: nfs.SetMode{SetIt: true, Mode: 0o4755},
		Mtime: nfs.SetTime{SetIt: nfs.SetToClientTime, Time: nfs.NFS3Time{Seconds: uint32(mtime.Unix()), Nseconds: 600}}}
	if !slices.Equal(srv.setattrs, []nfs.Sattr3{owner, rest}) {
		t.Fatalf("SETATTRs %+v, want the owner, then the mode and time", srv.setattrs)
	}

	// Without setuid or setgid, one call does; a time before 1970 is 1970.
	srv.setattrs = nil
	a = share.Attr{Mode: 0o644, UID: 5, GID: 6, HasOwner: true, ModTime: time.Date(1960, 1, 1, 0, 0, 0, 5, time.UTC)}
	if err := c.SetAttr(ctx, "f", a, share.SetOwner|share.SetMode|share.SetModTime); err != nil {
		t.Fatal(err)
	}
	one := nfs.Sattr3{UID: owner.UID, GID: owner.GID, Mode: nfs.SetMode{SetIt: true, Mode: 0o644}, Mtime: nfs.SetTime{SetIt: nfs.SetToClientTime}}
	if !slices.Equal(srv.setattrs, []nfs.Sattr3{one}) {
		t.Fatalf("SETATTRs %+v, want %+v", srv.setattrs, one)
	}
}

// A tenant's setuid or setgid file copied without its owner (owners an
// NFSv4.1 server named, which NFSv3 cannot set; or no owner asked for)
// would stay its creator's, the controller's user: root where owners are
// kept at all. The bits go, as cp drops them when it cannot keep the owner.
func TestNFSSetAttrSetsNoSetuidOrSetgidWithoutTheOwner(t *testing.T) {
	srv := &fakeNFS3{files: map[string][]byte{"f": nil}}
	c := startFakeNFS3(t, srv)
	ctx := testCtx(t)
	for _, tc := range []struct {
		what string
		a    share.Attr
		mask share.AttrMask
	}{
		{"owners by name", share.Attr{Mode: 0o755 | fs.ModeSetuid | fs.ModeSetgid, OwnerName: "alice@example.com", GroupName: "alice@example.com"}, share.SetOwner | share.SetMode},
		{"no owner asked for", share.Attr{Mode: 0o755 | fs.ModeSetuid, UID: 5, GID: 6, HasOwner: true}, share.SetMode},
	} {
		srv.setattrs = nil
		if err := c.SetAttr(ctx, "f", tc.a, tc.mask); err != nil {
			t.Fatal(err)
		}
		want := []nfs.Sattr3{{Mode: nfs.SetMode{SetIt: true, Mode: 0o755}}}
		if !slices.Equal(srv.setattrs, want) {
			t.Errorf("%s: SETATTRs %+v, want %+v", tc.what, srv.setattrs, want)
		}
	}
}

// A file that one WRITE carries whole is written FILE_SYNC and needs no
// COMMIT; one written in pieces is written UNSTABLE and committed.
func TestNFSSmallFileIsWrittenStableWithoutCommit(t *testing.T) {
	srv := &fakeNFS3{files: map[string][]byte{"f": nil, "g": nil}, wtmax: 1000, commitVerf: 1}
	c := startFakeNFS3(t, srv)
	ctx := testCtx(t)
	small := &nfsFile{c: c, fh: []byte("f"), rel: "f", expect: -1}
	small.Expect(500)
	if n, err := small.WriteAt(ctx, bytes.Repeat([]byte("x"), 500), 0); n != 500 || err != nil {
		t.Fatalf("WriteAt = %d, %v", n, err)
	}
	if err := small.Close(ctx); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(srv.stable, []uint32{stableFileSync}) || srv.commits != 0 {
		t.Fatalf("small file: WRITEs %v and %d COMMITs; want one FILE_SYNC and none", srv.stable, srv.commits)
	}
	srv.stable = nil
	big := &nfsFile{c: c, fh: []byte("g"), rel: "g", expect: -1}
	big.Expect(1500)
	if n, err := big.WriteAt(ctx, bytes.Repeat([]byte("y"), 1500), 0); n != 1500 || err != nil {
		t.Fatalf("WriteAt = %d, %v", n, err)
	}
	if err := big.Close(ctx); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(srv.stable, []uint32{stableUnstable, stableUnstable}) || srv.commits != 1 {
		t.Fatalf("file over wtmax: WRITEs %v and %d COMMITs; want two UNSTABLE and one", srv.stable, srv.commits)
	}
}
