//go:build linux

package integration

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"syscall"
	"testing"
	"time"

	"github.com/fileshare-csi/fileshare-csi/pkg/share"
	"github.com/fileshare-csi/fileshare-csi/pkg/source"
)

// dialNFS41 opens a user-space NFSv4.1 session on the test server's export,
// with base (made here, world-writable) as the source's directory below it.
func dialNFS41(t *testing.T, base string) (share.Client, string) {
	t.Helper()
	dir := filepath.Join(env.nfs.Data, base)
	if err := os.MkdirAll(dir, 0o777); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(dir, 0o777); err != nil {
		t.Fatal(err)
	}
	return dialSource(t, nfsSource(base)+"?vers=4.1"), dir
}

// dialSource opens a client of the test's own to the share raw names,
// closed when the test ends.
func dialSource(t *testing.T, raw string) share.Client {
	t.Helper()
	src, err := source.Parse(raw)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	c, err := share.Dial(ctx, src, share.Credentials{})
	if err != nil {
		t.Fatalf("dial %s: %v", src, err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

// Every call of the client against the real server, checked on the
// server's disk.
func TestNFS41ClientOperations(t *testing.T) {
	c, dir := dialNFS41(t, "nfs41-client")
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	// The session is rooted at the export, like the v3 client's.
	if want := "nfs41-client"; c.Prefix() != want {
		t.Fatalf("Prefix() = %q, want %q", c.Prefix(), want)
	}
	if n, ok := c.(interface{ ShareName() string }); !ok || n.ShareName() != env.nfs.Data {
		t.Fatalf("the session is not rooted at the export %s", env.nfs.Data)
	}
	p := func(rel string) string { return c.Prefix() + "/" + rel }

	// Mkdir sets exactly the mode asked for, setgid included, whatever
	// the server's umask; a second Mkdir says it exists; a missing parent
	// says so.
	if err := c.Mkdir(ctx, p("d"), 0o2750|fs.ModeSetgid); err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(filepath.Join(dir, "d"))
	if err != nil || fi.Mode()&(fs.ModePerm|fs.ModeSetgid) != 0o750|fs.ModeSetgid {
		t.Fatalf("made directory: %v, %v; want drwxr-s---", fi.Mode(), err)
	}
	if err := c.Mkdir(ctx, p("d"), 0o755); !errors.Is(err, fs.ErrExist) {
		t.Fatalf("second mkdir: %v, want fs.ErrExist", err)
	}
	if err := c.Mkdir(ctx, p("no/such"), 0o755); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("mkdir below a missing parent: %v, want fs.ErrNotExist", err)
	}

	st, err := c.Stat(ctx, p("d"))
	var sys syscall.Stat_t
	if serr := syscall.Stat(filepath.Join(dir, "d"), &sys); err != nil || serr != nil || !st.IsDir || st.IsLink || st.Mode != 0o750 || st.ID != sys.Ino {
		t.Fatalf("Stat(d) = %+v, %v; inode %d", st, err, sys.Ino)
	}
	if _, err := c.Stat(ctx, p("missing")); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("Stat(missing): %v", err)
	}
	if err := os.Symlink("/etc", filepath.Join(dir, "link")); err != nil {
		t.Fatal(err)
	}
	if st, err := c.Stat(ctx, p("link")); err != nil || !st.IsLink || st.IsDir {
		t.Fatalf("Stat(link) = %+v, %v: a link must show as one", st, err)
	}
	if root, err := c.Stat(ctx, ""); err != nil || !root.IsDir {
		t.Fatalf("Stat of the export: %+v, %v", root, err)
	}

	// WriteFile creates and replaces; ReadFile reads back; large data spans
	// several WRITEs and READs.
	small := []byte(`{"a":1}`)
	if err := c.WriteFile(ctx, p("d/rec.json"), small); err != nil {
		t.Fatal(err)
	}
	if b, err := os.ReadFile(filepath.Join(dir, "d", "rec.json")); err != nil || !bytes.Equal(b, small) {
		t.Fatalf("written file: %q, %v", b, err)
	}
	large := bytes.Repeat([]byte("0123456789abcdef"), 70<<10/16+3)
	if err := c.WriteFile(ctx, p("d/rec.json"), large); err != nil {
		t.Fatal(err)
	}
	if b, err := c.ReadFile(ctx, p("d/rec.json")); err != nil || !bytes.Equal(b, large) {
		onDisk, _ := os.ReadFile(filepath.Join(dir, "d", "rec.json"))
		t.Fatalf("read back %d bytes, %v; want %d; first difference at %d; the server's disk has %d bytes, first difference at %d",
			len(b), err, len(large), firstDifference(b, large), len(onDisk), firstDifference(onDisk, large))
	}
	if err := c.WriteFile(ctx, p("d/rec.json"), small); err != nil {
		t.Fatal(err)
	}
	if b, err := c.ReadFile(ctx, p("d/rec.json")); err != nil || !bytes.Equal(b, small) {
		t.Fatalf("a shorter rewrite must truncate: %q, %v", b, err)
	}
	if err := c.WriteFile(ctx, p("d/empty"), nil); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Stat(filepath.Join(dir, "d", "empty")); err != nil || fi.Size() != 0 {
		t.Fatalf("empty file: %v, %v", fi, err)
	}
	if _, err := c.ReadFile(ctx, p("d/none")); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("ReadFile(missing): %v", err)
	}
	if err := c.WriteFile(ctx, p("nodir/f"), small); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("WriteFile into a missing directory: %v", err)
	}

	// Rename never replaces; Replace does.
	if err := c.WriteFile(ctx, p("d/other"), []byte("other")); err != nil {
		t.Fatal(err)
	}
	if err := c.Rename(ctx, p("d/other"), p("d/rec.json")); !errors.Is(err, fs.ErrExist) {
		t.Fatalf("Rename onto an existing file: %v, want fs.ErrExist", err)
	}
	if err := c.Rename(ctx, p("d/other"), p("nodir/x")); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("Rename into a missing directory: %v, want fs.ErrNotExist", err)
	}
	if err := c.Rename(ctx, p("d/other"), p("moved")); err != nil {
		t.Fatal(err)
	}
	if err := c.Replace(ctx, p("moved"), p("d/rec.json")); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "d", "rec.json")); string(b) != "other" {
		t.Fatalf("after Replace: %q", b)
	}

	// List pages through a directory larger than one READDIR reply.
	many := filepath.Join(dir, "many")
	if err := os.Mkdir(many, 0o777); err != nil {
		t.Fatal(err)
	}
	var want []string
	for i := range 3000 {
		n := fmt.Sprintf("entry-with-a-longish-name-%05d", i)
		want = append(want, n)
		if err := os.WriteFile(filepath.Join(many, n), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	names, err := c.List(ctx, p("many"), 0)
	slices.Sort(names)
	if err != nil || !slices.Equal(names, want) {
		t.Fatalf("List: %d names, %v; want %d", len(names), err, len(want))
	}
	if names, err := c.List(ctx, p("many"), 10); err != nil || len(names) != 10 {
		t.Fatalf("List with max 10: %d names, %v", len(names), err)
	}

	if err := c.Remove(ctx, p("d/empty")); err != nil {
		t.Fatal(err)
	}
	if err := c.Remove(ctx, p("d/empty")); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("second Remove: %v", err)
	}
	if err := c.Remove(ctx, p("link")); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat("/etc/hostname"); err != nil {
		t.Fatalf("removing a link to /etc reached it: %v", err)
	}

	capa, err := c.Capacity(ctx)
	if err != nil || capa.TotalBytes <= 0 || capa.AvailableBytes <= 0 || capa.AvailableBytes > capa.TotalBytes {
		t.Fatalf("Capacity = %+v, %v", capa, err)
	}

	// RemoveAll of a tree with read-only files and directories, a link out,
	// and 3000 entries in one directory.
	fillTree(t, filepath.Join(dir, "many", "tree"), 5, 20, true, 0)
	if err := os.Symlink(dir, filepath.Join(dir, "many", "up")); err != nil {
		t.Fatal(err)
	}
	ctx2, count := share.CountRemoved(ctx)
	if err := c.RemoveAll(ctx2, p("many"), share.RemoveOptions{}); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Lstat(many); !os.IsNotExist(err) {
		t.Fatalf("RemoveAll left %s: %v", many, err)
	}
	if want := int64(3000 + 1 + 5 + 5*20 + 1 + 1); count() != want {
		t.Errorf("RemoveAll counted %d removals, want %d", count(), want)
	}
	if _, err := os.Stat(filepath.Join(dir, "d", "rec.json")); err != nil {
		t.Fatalf("RemoveAll reached outside its directory: %v", err)
	}
	if err := c.RemoveAll(ctx, p("many"), share.RemoveOptions{}); err != nil {
		t.Fatalf("RemoveAll of what is gone: %v", err)
	}
	if err := c.RemoveAll(ctx, "", share.RemoveOptions{}); !errors.Is(err, fs.ErrPermission) {
		t.Fatalf("RemoveAll of the root: %v", err)
	}
}

// firstDifference is the offset of the first byte where a and b differ, or
// the shorter length when one is a prefix of the other; -1 when equal.
func firstDifference(a, b []byte) int {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return i
		}
	}
	if len(a) != len(b) {
		return min(len(a), len(b))
	}
	return -1
}

// An idle pooled session renews its lease with a SEQUENCE alone; the real
// server takes it, and the session goes on serving calls.
func TestNFS41RenewKeepsTheSession(t *testing.T) {
	c, _ := dialNFS41(t, "nfs41-renew")
	r, ok := c.(share.Renewer)
	if !ok {
		t.Fatal("the NFSv4.1 client does not renew its lease")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	for range 3 {
		if err := r.Renew(ctx); err != nil {
			t.Fatalf("Renew: %v", err)
		}
	}
	if _, err := c.Stat(ctx, c.Prefix()); err != nil {
		t.Fatalf("Stat after renewing: %v", err)
	}
}
