//go:build linux

package integration

import (
	"bytes"
	"context"
	"crypto/rand"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/fileshare-csi/fileshare-csi/pkg/copytree"
	"github.com/fileshare-csi/fileshare-csi/pkg/share"
	"github.com/fileshare-csi/fileshare-csi/pkg/source"
	"github.com/fileshare-csi/fileshare-csi/test/localservers"
)

// The server copies a file itself (FSCTL_SRV_COPYCHUNK_WRITE): the copy is
// exact, and the bytes that cross the connection, counted by a proxy in
// front of Samba, are a small fraction of the file's.
func TestSMBServerSideCopy(t *testing.T) {
	proxy, viaProxy := smbThroughProxy(t)
	c, rel, dir := dialTree(t, viaProxy, "smb-server-side-copy")
	ssc, ok := c.(share.ServerSideCopier)
	if !ok {
		t.Fatal("the SMB client is not a share.ServerSideCopier")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()

	// 40 MiB and a bit: several copychunk requests and a short last chunk.
	data := make([]byte, 40<<20+4097)
	rand.Read(data)
	must(t, os.WriteFile(filepath.Join(dir, "src"), data, 0o666))
	must(t, os.Chmod(filepath.Join(dir, "src"), 0o666))
	w, err := c.Create(ctx, rel+"/dst", 0o644)
	if err != nil {
		t.Fatal(err)
	}
	must(t, w.Close(ctx))

	up, down := proxy.Forwarded()
	start := time.Now()
	must(t, ssc.CopyData(ctx, rel+"/src", rel+"/dst", int64(len(data))))
	took := time.Since(start)
	up2, down2 := proxy.Forwarded()
	sent, received := up2-up, down2-down
	t.Logf("copied %d bytes in %v; the connection carried %d bytes to the server and %d back", len(data), took, sent, received)

	got, err := os.ReadFile(filepath.Join(dir, "dst"))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, data) {
		t.Fatalf("the copy has %d bytes and differs from the source's %d", len(got), len(data))
	}
	if limit := int64(len(data)) / 100; sent > limit || received > limit {
		t.Fatalf("the copy moved %d bytes up and %d down the connection, more than 1%% of the file's %d: the data went through the client", sent, received, len(data))
	}

	// The counts are real: reading 1 MiB through the client shows on them.
	r, err := c.Open(ctx, rel+"/dst")
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close(ctx)
	if n, err := r.ReadAt(ctx, make([]byte, 1<<20), 0); err != nil || n != 1<<20 {
		t.Fatalf("ReadAt = %d, %v", n, err)
	}
	if _, down3 := proxy.Forwarded(); down3-down2 < 1<<20 {
		t.Fatalf("reading 1 MiB moved only %d bytes down the connection: the proxy does not count", down3-down2)
	}
}

// A tree copy of many small files costs 7 SMB round trips per file: CREATE
// of the copy, CREATE, resume key, copychunk and CLOSE of the source, then
// the time and attributes and CLOSE on the copy's own handle. Samba's
// per-request work is what a copy of small files waits on, so this is a
// budget, counted by a proxy in front of Samba.
func TestSMBCopyRequestsPerFile(t *testing.T) {
	proxy, viaProxy := smbThroughProxy(t)
	const base = "smb-copy-requests"
	worker, rel, dir := dialTree(t, viaProxy, base)
	src, err := source.Parse(viaProxy.source(base))
	must(t, err)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	c, err := share.Dial(ctx, src, viaProxy.creds)
	must(t, err)
	defer c.Close()
	lister := c.(share.TreeClient)

	const files = 60
	must(t, os.Mkdir(filepath.Join(dir, "src"), 0o777))
	must(t, os.Chmod(filepath.Join(dir, "src"), 0o777))
	mtime := time.Date(2020, 2, 29, 12, 0, 0, 0, time.UTC)
	for i := range files {
		p := filepath.Join(dir, "src", fmt.Sprintf("f%02d", i))
		must(t, os.WriteFile(p, []byte(fmt.Sprintf("file %d\n", i)), 0o666))
		must(t, os.Chmod(p, 0o666))
		must(t, os.Chtimes(p, mtime, mtime))
	}

	before := proxy.Requests()
	stats, err := copytree.Copy(ctx, copytree.Sessions{Lister: lister, Workers: []copytree.Pair{{Src: worker, Dst: worker}}}, rel+"/src", rel+"/dst", copytree.Options{})
	must(t, err)
	requests := proxy.Requests() - before
	perFile := float64(requests) / files
	t.Logf("copied %d files (%d bytes on the server) in %d round trips: %.2f per file", stats.Files, stats.ServerSideBytes, requests, perFile)
	if stats.Files != files {
		t.Fatalf("copied %d files, want %d", stats.Files, files)
	}
	for i := range files {
		p := filepath.Join(dir, "dst", fmt.Sprintf("f%02d", i))
		got, err := os.ReadFile(p)
		must(t, err)
		if want := fmt.Sprintf("file %d\n", i); string(got) != want {
			t.Fatalf("%s holds %q, want %q", p, got, want)
		}
		fi, err := os.Stat(p)
		must(t, err)
		if !fi.ModTime().Equal(mtime) {
			t.Fatalf("%s has mtime %v, want %v", p, fi.ModTime(), mtime)
		}
	}
	// 7 per file, and the directory's own listing, creation and attributes
	// spread over the files.
	if perFile > 7.5 {
		t.Fatalf("%.2f SMB round trips per file, the budget is 7.5", perFile)
	}
}

// smbThroughProxy is the SMB tree protocol through a stall proxy (stalling
// off) that counts what crosses it.
func smbThroughProxy(t *testing.T) (*localservers.StallProxy, treeProtocol) {
	t.Helper()
	proxy := stallProxy(t)
	proxy.SetStall(false)
	return proxy, treeProtocol{
		name:   "smb",
		source: func(base string) string { return "smb://" + proxy.Addr + "/" + localservers.SMBShare + "/" + base },
		creds:  share.Credentials{Username: localservers.SMBUser, Password: localservers.SMBPassword},
	}
}
