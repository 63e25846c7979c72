package copytree

import (
	"archive/tar"
	"bytes"
	"context"
	"io"
	"io/fs"
	"testing"
	"time"

	"github.com/fileshare-csi/fileshare-csi/pkg/share"
)

// Writing and reading packs against real servers is in
// test/integration (snapshot_test.go, smb_copy_test.go); here, what an
// entry keeps and which names a pack may hold.

func TestPackEntryKeepsWhatACopyKeeps(t *testing.T) {
	mtime := time.Date(2022, 6, 7, 8, 9, 10, 123456789, time.UTC)
	for _, a := range []share.Attr{
		// NFSv3: a mode with setgid, numeric owners.
		{Type: share.TypeFile, Mode: 0o750 | fs.ModeSetgid, HasMode: true, UID: 1234, GID: 2345, HasOwner: true, ModTime: mtime},
		// NFSv4.1 with named owners, and root-owned with mode 0.
		{Type: share.TypeFile, Mode: 0, HasMode: true, OwnerName: "alice@example.com", GroupName: "staff@example.com", ModTime: mtime},
		{Type: share.TypeFile, Mode: 0o644, HasMode: true, HasOwner: true, ModTime: mtime},
		// SMB: no mode, no owner, DOS attributes (hidden, read-only).
		{Type: share.TypeFile, DOSAttributes: 0x3, ModTime: mtime},
	} {
		data := []byte("contents")
		a.Size = int64(len(data))
		var buf bytes.Buffer
		tw := tar.NewWriter(&buf)
		if err := tw.WriteHeader(packHeader(packEntry{name: "a/b/f", attr: a, data: data})); err != nil {
			t.Fatal(err)
		}
		if _, err := tw.Write(data); err != nil {
			t.Fatal(err)
		}
		if err := tw.Close(); err != nil {
			t.Fatal(err)
		}
		h, err := tar.NewReader(&buf).Next()
		if err != nil {
			t.Fatal(err)
		}
		e, err := entryOf(h)
		if err != nil {
			t.Fatal(err)
		}
		got := e.attr
		if e.name != "a/b/f" || got.Type != share.TypeFile || got.Size != a.Size || !got.ModTime.Equal(a.ModTime) ||
			got.Mode != a.Mode || got.HasMode != a.HasMode || got.UID != a.UID || got.GID != a.GID || got.HasOwner != a.HasOwner ||
			got.OwnerName != a.OwnerName || got.GroupName != a.GroupName || got.DOSAttributes != a.DOSAttributes {
			t.Errorf("packed %+v, read back %q %+v", a, e.name, got)
		}
	}
}

func TestPackNamesStayBelowTheTree(t *testing.T) {
	for _, name := range []string{"", ".", "..", "../x", "a/../../x", "/etc/passwd", "a//b", "a/./b", "a/"} {
		if err := validPackName(name); err == nil {
			t.Errorf("%q accepted", name)
		}
	}
	for _, name := range []string{"f", "a/b/c", "..f", "a/..b"} {
		if err := validPackName(name); err != nil {
			t.Errorf("%q refused: %v", name, err)
		}
	}
	// What is not a regular file of a packed size is refused too.
	for _, h := range []*tar.Header{
		{Typeflag: tar.TypeSymlink, Name: "l", Linkname: "/etc"},
		{Typeflag: tar.TypeDir, Name: "d"},
		{Typeflag: tar.TypeReg, Name: "big", Size: packLimit + 1},
		{Typeflag: tar.TypeReg, Name: "../escape"},
	} {
		if _, err := entryOf(h); err == nil {
			t.Errorf("entry %+v accepted", h)
		}
	}
}

func TestPackable(t *testing.T) {
	for _, tc := range []struct {
		a    share.Attr
		want bool
	}{
		{share.Attr{Type: share.TypeFile, Size: 0}, true},
		{share.Attr{Type: share.TypeFile, Size: packLimit}, true},
		{share.Attr{Type: share.TypeFile, Size: packLimit + 1}, false},
		{share.Attr{Type: share.TypeFile, Size: 10, Sparse: true}, false},
		{share.Attr{Type: share.TypeSymlink, Size: 10}, false},
		{share.Attr{Type: share.TypeDir}, false},
	} {
		if got := packable(tc.a); got != tc.want {
			t.Errorf("packable(%+v) = %v", tc.a, got)
		}
	}
}

// sectionReader is a share.FileReader over bytes in memory.
type sectionReader struct{ r *bytes.Reader }

func (s sectionReader) ReadAt(_ context.Context, p []byte, off int64) (int, error) {
	return s.r.ReadAt(p, off)
}
func (s sectionReader) Close(context.Context) error { return nil }

// offsetReader reads a file to its end, through reads that end short.
func TestOffsetReaderReadsToTheEnd(t *testing.T) {
	src := bytes.Repeat([]byte("0123456789"), 1000)
	r := &offsetReader{ctx: context.Background(), r: sectionReader{bytes.NewReader(src)}}
	got, err := io.ReadAll(r)
	if err != nil || !bytes.Equal(got, src) {
		t.Fatalf("read %d bytes (%v), want %d", len(got), err, len(src))
	}
}
