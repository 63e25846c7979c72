package share

import (
	"bytes"
	"errors"
	"io/fs"
	"os"
	"testing"
	"time"

	"github.com/vmware/go-nfs-client/nfs"
	"github.com/vmware/go-nfs-client/nfs/xdr"

	"github.com/fileshare-csi/fileshare-csi/pkg/share/oncrpc"
)

// badNames are names no server may list: joined to a path they lead out
// of the directory listed.
var badNames = []string{"", "../x/payload", "a/b", "/abs", "x\x00y", "..\x00"}

func TestListedName(t *testing.T) {
	for _, syntax := range []nameSyntax{unixNames, smbNames} {
		for _, n := range badNames {
			keep, err := listedName(n, syntax)
			if keep || !errors.Is(err, ErrBadName) || !errors.Is(err, ErrUnavailable) {
				t.Errorf("listedName(%q, %d) = %v, %v; want an error wrapping ErrBadName and ErrUnavailable", n, syntax, keep, err)
			}
		}
		for _, n := range []string{".", ".."} {
			if keep, err := listedName(n, syntax); keep || err != nil {
				t.Errorf("listedName(%q, %d) = %v, %v; want it left out without an error", n, syntax, keep, err)
			}
		}
		for _, n := range []string{"a", "...", ".hidden", "a b", "naïve", "x..y"} {
			if keep, err := listedName(n, syntax); !keep || err != nil {
				t.Errorf("listedName(%q, %d) = %v, %v; want it kept", n, syntax, keep, err)
			}
		}
	}
	// A backslash is a character on NFS and a separator on SMB.
	if keep, err := listedName(`..\x`, unixNames); !keep || err != nil {
		t.Errorf(`listedName("..\x", NFS) = %v, %v; want it kept`, keep, err)
	}
	if _, err := listedName(`..\x`, smbNames); !errors.Is(err, ErrBadName) {
		t.Errorf(`listedName("..\x", SMB) = %v, want ErrBadName`, err)
	}
}

// readdirplusReply encodes a READDIRPLUS reply after its status with the
// given names, each entry with or without attributes and a handle.
func readdirplusReply(t testing.TB, eof bool, names ...string) []byte {
	var b bytes.Buffer
	vals := []any{nfs.PostOpAttr{}, uint64(42)}
	for i, n := range names {
		e := nfs.EntryPlus{FileId: uint64(i + 1), FileName: n, Cookie: uint64(i + 1)}
		if i%2 == 0 {
			e.Attr = nfs.PostOpAttr{IsSet: true, Attr: nfs.Fattr{Type: nfs.NF3Reg, Fileid: uint64(i + 1)}}
			e.Handle = nfs.PostOpFH3{IsSet: true, FH: []byte{byte(i)}}
		}
		vals = append(vals, true, e)
	}
	vals = append(vals, false, eof)
	for _, v := range vals {
		if err := xdr.Write(&b, v); err != nil {
			t.Fatal(err)
		}
	}
	return b.Bytes()
}

func TestDecodeReaddirplusRefusesBadNames(t *testing.T) {
	page, err := decodeReaddirplus(oncrpc.NewReader(readdirplusReply(t, true, ".", "..", "a", `b\c`)), 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(page.entries) != 2 || page.entries[0].FileName != "a" || page.entries[1].FileName != `b\c` || page.cookie != 4 || !page.eof {
		t.Fatalf("page %+v, want a and b\\c, cookie 4, eof", page)
	}
	for _, n := range badNames {
		_, err := decodeReaddirplus(oncrpc.NewReader(readdirplusReply(t, true, "a", n, "b")), 0)
		if !errors.Is(err, ErrBadName) || !errors.Is(err, ErrUnavailable) {
			t.Errorf("a listing with %q: %v, want ErrBadName and ErrUnavailable", n, err)
		}
	}
}

// FuzzReaddirplusReply feeds bytes to the NFSv3 READDIRPLUS decoder. It
// must never panic, fail only with ErrUnavailable, and hand on no name
// that is not a plain entry name.
func FuzzReaddirplusReply(f *testing.F) {
	f.Add(uint64(0), readdirplusReply(f, true, ".", "..", "a", "b"))
	f.Add(uint64(3), readdirplusReply(f, false, "c"))
	for _, n := range badNames {
		f.Add(uint64(0), readdirplusReply(f, true, "a", n))
	}
	f.Add(uint64(0), []byte{0, 0, 0, 0, 0xff, 0xff, 0xff, 0xff})
	f.Fuzz(func(t *testing.T, cookie uint64, b []byte) {
		page, err := decodeReaddirplus(oncrpc.NewReader(b), cookie)
		if err != nil {
			if !errors.Is(err, ErrUnavailable) {
				t.Fatalf("decode error that is not ErrUnavailable: %v", err)
			}
			return
		}
		if !page.eof && page.cookie == cookie {
			t.Fatalf("a page that is not the end and does not move on: %+v", page)
		}
		for _, e := range page.entries {
			if keep, err := listedName(e.FileName, unixNames); !keep || err != nil {
				t.Fatalf("the decoder handed on the name %q", e.FileName)
			}
		}
	})
}

// A client reading a directory of a server that lists a name with a
// separator fails, and never uses the name.
func TestNFSListingsRefuseBadNames(t *testing.T) {
	srv := &fakeNFS3{files: map[string][]byte{"a": []byte("1")}, listed: []string{"../x/payload"}}
	c := startFakeNFS3(t, srv)
	err := c.ReadDir(testCtx(t), "", func(page []DirEntry) error {
		for _, e := range page {
			if e.Name != "a" {
				t.Errorf("ReadDir handed on %q", e.Name)
			}
		}
		return nil
	})
	if !errors.Is(err, ErrBadName) {
		t.Fatalf("ReadDir = %v, want ErrBadName", err)
	}
	c = startFakeNFS3(t, &fakeNFS3{files: map[string][]byte{"a": []byte("1")}, listed: []string{"../x/payload"}})
	if names, err := c.List(testCtx(t), "", 0); !errors.Is(err, ErrBadName) {
		t.Fatalf("List = %q, %v; want ErrBadName", names, err)
	}
}

func TestDecodeReaddir4RefusesBadNames(t *testing.T) {
	for _, n := range append(badNames, ".", "..", "ok") {
		var page readdir4Page
		ops := []nfs4Op{opPutfh([]byte{1}), opReaddir(0, [8]byte{}, 100, 1000, walkMask, &page)}
		b := reply(0, result4{op4Putfh, 0, nil}, result4{op4Readdir, 0, func(e *xdrEnc) {
			e.fixed([]byte("verifier"))
			for i, name := range []string{"a", n} {
				e.boolean(true)
				e.u64(uint64(i + 3))
				e.str(name)
				fattr(e, []int{attrType}, func(v *xdrEnc) { v.u32(nf4Reg) })
			}
			e.boolean(false)
			e.boolean(true)
		}})
		_, err := decodeCompound(b, ops)
		switch n {
		case ".", "..":
			// Tolerated and left out, the cookie kept for the next call.
			if err != nil || len(page.Entries) != 1 || page.Listed != 2 || page.Cookie != 4 {
				t.Errorf("a listing with %q: %v, page %+v; want a alone, 2 listed, cookie 4", n, err, page)
			}
		case "ok":
			if err != nil || len(page.Entries) != 2 {
				t.Errorf("a listing with %q: %v, page %+v", n, err, page)
			}
		default:
			if !errors.Is(err, ErrBadName) || !errors.Is(err, errXDR) {
				t.Errorf("a listing with %q: %v, want ErrBadName in a reply that does not decode", n, err)
			}
		}
	}
}

// fakeInfo is a directory entry as go-smb2 hands one over.
type fakeInfo string

func (f fakeInfo) Name() string       { return string(f) }
func (f fakeInfo) Size() int64        { return 0 }
func (f fakeInfo) Mode() fs.FileMode  { return 0 }
func (f fakeInfo) ModTime() time.Time { return time.Time{} }
func (f fakeInfo) IsDir() bool        { return false }
func (f fakeInfo) Sys() any           { return nil }

// go-smb2 decodes SMB directory listings itself and drops only "." and
// "..": the client checks every name it gets at that boundary.
func TestSMBListingBoundaryRefusesBadNames(t *testing.T) {
	c := &smbClient{}
	out, err := c.listed([]os.FileInfo{fakeInfo("a"), fakeInfo("."), fakeInfo("b")})
	if err != nil || len(out) != 2 || out[0].Name() != "a" || out[1].Name() != "b" {
		t.Fatalf("listed = %v, %v; want a and b", out, err)
	}
	if c.Broken() {
		t.Fatal("a good listing broke the session")
	}
	for _, n := range append(badNames, `..\x\payload`, `a\b`) {
		c := &smbClient{}
		out, err := c.listed([]os.FileInfo{fakeInfo("a"), fakeInfo(n)})
		if !errors.Is(err, ErrBadName) || !errors.Is(err, ErrUnavailable) || out != nil {
			t.Errorf("a listing with %q: %v, %v; want ErrBadName and ErrUnavailable", n, out, err)
		}
		if !c.Broken() {
			t.Errorf("a listing with %q left the session in use", n)
		}
	}
}

// FuzzSMBListedNames: whatever names the library hands over, the boundary
// passes on only plain entry names, or refuses the batch.
func FuzzSMBListedNames(f *testing.F) {
	for _, n := range append(badNames, "a", ".", `..\x`) {
		f.Add(n, "b")
	}
	f.Fuzz(func(t *testing.T, a, b string) {
		c := &smbClient{}
		out, err := c.listed([]os.FileInfo{fakeInfo(a), fakeInfo(b)})
		if err != nil {
			if !errors.Is(err, ErrBadName) {
				t.Fatalf("error that is not ErrBadName: %v", err)
			}
			return
		}
		for _, e := range out {
			n := e.Name()
			if n == "" || n == "." || n == ".." || bytes.ContainsAny([]byte(n), "/\\\x00") {
				t.Fatalf("the boundary handed on %q", n)
			}
		}
	})
}
