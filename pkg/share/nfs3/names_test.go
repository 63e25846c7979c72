package nfs3

import (
	"bytes"
	"errors"
	"testing"

	nfs "github.com/vmware/go-nfs-client/nfs"
	"github.com/vmware/go-nfs-client/nfs/xdr"

	"github.com/fileshare-csi/fileshare-csi/pkg/share"
	"github.com/fileshare-csi/fileshare-csi/pkg/share/internal/sharetest"
	"github.com/fileshare-csi/fileshare-csi/pkg/share/oncrpc"
)

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
	for _, n := range sharetest.BadNames {
		_, err := decodeReaddirplus(oncrpc.NewReader(readdirplusReply(t, true, "a", n, "b")), 0)
		if !errors.Is(err, share.ErrBadName) || !errors.Is(err, share.ErrUnavailable) {
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
	for _, n := range sharetest.BadNames {
		f.Add(uint64(0), readdirplusReply(f, true, "a", n))
	}
	f.Add(uint64(0), []byte{0, 0, 0, 0, 0xff, 0xff, 0xff, 0xff})
	f.Fuzz(func(t *testing.T, cookie uint64, b []byte) {
		page, err := decodeReaddirplus(oncrpc.NewReader(b), cookie)
		if err != nil {
			if !errors.Is(err, share.ErrUnavailable) {
				t.Fatalf("decode error that is not ErrUnavailable: %v", err)
			}
			return
		}
		if !page.eof && page.cookie == cookie {
			t.Fatalf("a page that is not the end and does not move on: %+v", page)
		}
		for _, e := range page.entries {
			if keep, err := share.ListedName(e.FileName, share.UnixNames); !keep || err != nil {
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
	err := c.ReadDir(testCtx(t), "", func(page []share.DirEntry) error {
		for _, e := range page {
			if e.Name != "a" {
				t.Errorf("ReadDir handed on %q", e.Name)
			}
		}
		return nil
	})
	if !errors.Is(err, share.ErrBadName) {
		t.Fatalf("ReadDir = %v, want ErrBadName", err)
	}
	c = startFakeNFS3(t, &fakeNFS3{files: map[string][]byte{"a": []byte("1")}, listed: []string{"../x/payload"}})
	if names, err := c.List(testCtx(t), "", 0); !errors.Is(err, share.ErrBadName) {
		t.Fatalf("List = %q, %v; want ErrBadName", names, err)
	}
}
