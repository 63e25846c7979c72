package smb

import (
	"errors"
	"io/fs"
	"math"
	"os"
	"testing"
	"time"

	smb2 "github.com/cloudsoda/go-smb2"

	"github.com/fileshare-csi/fileshare-csi/pkg/share"
)

func TestSMBAttr(t *testing.T) {
	when := time.Date(2021, 3, 4, 5, 6, 7, 800, time.UTC)
	for _, tc := range []struct {
		name  string
		st    smb2.FileStat
		typ   share.EntryType
		attrs uint32
	}{
		{"file", smb2.FileStat{FileAttributes: 0x20 | 0x80}, share.TypeFile, 0x20},
		{"hidden system read-only file", smb2.FileStat{FileAttributes: 0x1 | 0x2 | 0x4 | 0x200}, share.TypeFile, 0x1 | 0x2 | 0x4},
		{"directory", smb2.FileStat{FileAttributes: 0x10 | 0x2000}, share.TypeDir, 0x2000},
		{"symlink", smb2.FileStat{FileAttributes: 0x10 | 0x400, ReparsePointTag: ioReparseTagSymlink}, share.TypeSymlink, 0},
		{"junction", smb2.FileStat{FileAttributes: 0x10 | 0x400, ReparsePointTag: 0xA0000003}, share.TypeOther, 0},
	} {
		tc.st.LastWriteTime, tc.st.EndOfFile, tc.st.FileId = when.Local(), 42, 7
		a, err := (&smbClient{}).smbAttr(&tc.st)
		if err != nil || a.Type != tc.typ || a.DOSAttributes != tc.attrs || a.Size != 42 || a.ID != 7 || a.ModTime != when || a.HasMode || a.HasOwner {
			t.Errorf("%s: smbAttr = %+v, %v; want a %v with attributes %#x", tc.name, a, err, tc.typ, tc.attrs)
		}
	}
}

// EndOfFile and AllocationSize are signed 64-bit fields the server fills:
// a negative one (a broken server's, or a hostile one's) must not reach
// copytree as a negative size, of which the copy makes a slice and the
// controller panics. It is refused as a broken reply, with ErrUnavailable,
// and the session is not used again.
func TestANegativeSMBSizeIsRefusedAsABrokenReply(t *testing.T) {
	for _, st := range []smb2.FileStat{
		{EndOfFile: -1},
		{EndOfFile: math.MinInt64, AllocationSize: 4096},
		{EndOfFile: 1 << 20, AllocationSize: -4096},
	} {
		c := &smbClient{}
		a, err := c.smbAttr(&st)
		if !errors.Is(err, share.ErrUnavailable) || !c.Broken() {
			t.Errorf("EndOfFile %d, AllocationSize %d: %+v, %v (session broken %v); want ErrUnavailable", st.EndOfFile, st.AllocationSize, a, err, c.Broken())
		}
	}
}

func TestCopychunkLimitsShrink(t *testing.T) {
	l, steps := defaultCopychunkLimits, 0
	for {
		next, ok := l.smaller()
		if !ok {
			break
		}
		if int64(next.chunks)*next.size >= int64(l.chunks)*l.size {
			t.Fatalf("%+v after %+v asks no less", next, l)
		}
		l = next
		steps++
	}
	if l.chunks != 1 || l.size != 64<<10 || steps > 10 {
		t.Fatalf("shrinking ends at %+v after %d steps", l, steps)
	}
}

// A server that lists no file IDs has each directory's asked for by name
// (fileID). An entry removed between the listing and that question is
// gone, as the NFS clients' listings take it: skipped. Its "not found" is
// not the listed directory's: passed up as the listing's error, it told
// RemoveTree that the top it was emptying was gone (a RemoveAll answered
// nil with the tree still there, and a DeleteVolume OK), and a copy that
// its source directory was.
func TestAnSMBEntryGoneBeforeItsIDIsSkipped(t *testing.T) {
	batch := []os.FileInfo{
		&smb2.FileStat{FileName: "gone", FileAttributes: 0x10},
		&smb2.FileStat{FileName: "kept", FileAttributes: 0x10},
		&smb2.FileStat{FileName: "file", FileAttributes: 0x20, FileId: 9},
	}
	ids := map[string]uint64{"kept": 7}
	page, err := (&smbClient{}).dirEntries(batch, func(name string) (uint64, error) {
		if id, ok := ids[name]; ok {
			return id, nil
		}
		return 0, &fs.PathError{Op: "stat", Path: `dir\` + name, Err: fs.ErrNotExist}
	})
	if err != nil {
		t.Fatalf("dirEntries = %v; want the entries still there", err)
	}
	if len(page) != 2 || page[0].Name != "kept" || page[0].Attr.ID != 7 || page[1].Name != "file" || page[1].Attr.ID != 9 {
		t.Errorf("dirEntries = %+v; want kept (ID 7) and file (ID 9)", page)
	}
	// Any other failure to read an ID fails the page.
	_, err = (&smbClient{}).dirEntries(batch, func(string) (uint64, error) { return 0, &smb2.ResponseError{Code: 0xC0000022} })
	if err == nil {
		t.Error("dirEntries with every ID refused = nil; want the refusal")
	}
}
