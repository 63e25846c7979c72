package copytree

import (
	"archive/tar"
	"bytes"
	"context"
	"errors"
	"io"
	"io/fs"
	"path"
	"strings"
	"testing"
	"time"

	"github.com/fileshare-csi/fileshare-csi/pkg/share"
	"github.com/fileshare-csi/fileshare-csi/pkg/share/memshare"
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
		e, err := entryOf(h, share.UnixNames)
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
		for _, syntax := range []share.NameSyntax{share.UnixNames, share.SMBNames} {
			if err := validPackName(name, syntax); err == nil {
				t.Errorf("%q accepted (syntax %d)", name, syntax)
			}
		}
	}
	for _, name := range []string{"f", "a/b/c", "..f", "a/..b"} {
		for _, syntax := range []share.NameSyntax{share.UnixNames, share.SMBNames} {
			if err := validPackName(name, syntax); err != nil {
				t.Errorf("%q refused (syntax %d): %v", name, syntax, err)
			}
		}
	}
	// A backslash is a character of a name on NFS, a separator on SMB.
	for _, name := range []string{`a\b`, `x\..\..\y`, `a/..\b`} {
		if err := validPackName(name, share.UnixNames); err != nil {
			t.Errorf("%q refused on NFS: %v", name, err)
		}
		if err := validPackName(name, share.SMBNames); !errors.Is(err, fs.ErrInvalid) {
			t.Errorf("%q on SMB: %v, want fs.ErrInvalid", name, err)
		}
	}
	// What is not a regular file of a packed size is refused too.
	for _, h := range []*tar.Header{
		{Typeflag: tar.TypeSymlink, Name: "l", Linkname: "/etc"},
		{Typeflag: tar.TypeDir, Name: "d"},
		{Typeflag: tar.TypeReg, Name: "big", Size: packLimit + 1},
		{Typeflag: tar.TypeReg, Name: "../escape"},
	} {
		if _, err := entryOf(h, share.UnixNames); err == nil {
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

// sambaPaths is a destination whose server takes a backslash for a
// separator and resolves ".." in a path by its text, as Samba does with
// the paths of SMB2 CREATEs (go-smb2 passes both through as they are).
type sambaPaths struct{ share.TreeClient }

func samba(rel string) string { return path.Clean(strings.ReplaceAll(rel, `\`, "/")) }

func (s sambaPaths) NameSyntax() share.NameSyntax { return share.SMBNames }
func (s sambaPaths) Lstat(ctx context.Context, rel string) (share.Attr, error) {
	return s.TreeClient.Lstat(ctx, samba(rel))
}
func (s sambaPaths) Mkdir(ctx context.Context, rel string, perm fs.FileMode) error {
	return s.TreeClient.Mkdir(ctx, samba(rel), perm)
}
func (s sambaPaths) ReadDir(ctx context.Context, rel string, fn func([]share.DirEntry) error) error {
	return s.TreeClient.ReadDir(ctx, samba(rel), fn)
}
func (s sambaPaths) Create(ctx context.Context, rel string, perm fs.FileMode) (share.FileWriter, error) {
	return s.TreeClient.Create(ctx, samba(rel), perm)
}
func (s sambaPaths) SetAttr(ctx context.Context, rel string, a share.Attr, mask share.AttrMask) error {
	return s.TreeClient.SetAttr(ctx, samba(rel), a, mask)
}
func (s sambaPaths) Remove(ctx context.Context, rel string) error {
	return s.TreeClient.Remove(ctx, samba(rel))
}

// A pack is the driver's, but a restore never writes outside its volume
// whatever one holds: on SMB, where a backslash separates names, an entry
// `x\..\..\pvc-b\secret.txt` (a plain name to the check of pack names,
// which knows only "/") reached another volume's file and overwrote it.
// An SMB snapshot's names never hold one (its listings refuse them).
func TestAPackEntryWithBackslashesStaysInAnSMBVolume(t *testing.T) {
	ctx := context.Background()
	sh := memshare.New()
	if err := sh.WriteFileDirect("base/pvc-b/secret.txt", []byte("another tenant's")); err != nil {
		t.Fatal(err)
	}
	if err := sh.WriteFileDirect(".fileshare-csi/snapshots/u1/keep", []byte("tree")); err != nil {
		t.Fatal(err)
	}
	data := []byte("overwritten")
	var buf bytes.Buffer
	tw := tar.NewWriter(&buf)
	if err := tw.WriteHeader(&tar.Header{Typeflag: tar.TypeReg, Name: `x\..\..\pvc-b\secret.txt`, Size: int64(len(data)), Mode: 0o644, Format: tar.FormatPAX}); err != nil {
		t.Fatal(err)
	}
	if _, err := tw.Write(data); err != nil {
		t.Fatal(err)
	}
	if err := tw.Close(); err != nil {
		t.Fatal(err)
	}
	if err := sh.WriteFileDirect(".fileshare-csi/snapshots/u1.pack", buf.Bytes()); err != nil {
		t.Fatal(err)
	}
	c := sh.Client().(share.TreeClient)
	if err := c.Mkdir(ctx, "base/pvc-a", 0o777); err != nil {
		t.Fatal(err)
	}
	s := Sessions{Lister: c, Workers: []Pair{{Src: c, Dst: sambaPaths{c}}}}
	_, err := Copy(ctx, s, ".fileshare-csi/snapshots/u1", "base/pvc-a", Options{UnpackFrom: ".fileshare-csi/snapshots/u1.pack", TopExists: true})
	if got, rerr := c.ReadFile(ctx, "base/pvc-b/secret.txt"); rerr != nil || string(got) != "another tenant's" {
		t.Errorf("another volume's file is now %q (%v); the restore: %v", got, rerr, err)
	}
	if !errors.Is(err, fs.ErrInvalid) {
		t.Errorf("a pack entry with backslashes restored to SMB: %v, want fs.ErrInvalid", err)
	}
}
