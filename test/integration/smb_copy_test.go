//go:build linux

package integration

import (
	"bytes"
	"context"
	"crypto/rand"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/fileshare-csi/fileshare-csi/pkg/share"
	"github.com/fileshare-csi/fileshare-csi/test/localservers"
)

// The server copies a file itself (FSCTL_SRV_COPYCHUNK_WRITE): the copy is
// exact, and the bytes that cross the connection, counted by a proxy in
// front of Samba, are a small fraction of the file's.
func TestSMBServerSideCopy(t *testing.T) {
	proxy := stallProxy(t)
	proxy.SetStall(false)
	viaProxy := treeProtocol{
		name:   "smb",
		source: func(base string) string { return "smb://" + proxy.Addr + "/" + localservers.SMBShare + "/" + base },
		creds:  share.Credentials{Username: localservers.SMBUser, Password: localservers.SMBPassword},
	}
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
