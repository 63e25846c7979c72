package nfs3

import (
	"context"
	"errors"
	"net"
	"testing"
	"time"

	"github.com/vmware/go-nfs-client/nfs"
	"github.com/vmware/go-nfs-client/nfs/rpc"

	"github.com/fileshare-csi/fileshare-csi/pkg/share"
	"github.com/fileshare-csi/fileshare-csi/pkg/share/oncrpc"
)

// A size3 is unsigned: a server answering one of 2^63 or more (broken or
// hostile) must not give the copy a negative size, of which copytree makes
// a slice and the controller panics. The size is clamped, as NFSv4's are
// (share.ClampInt64).
func TestAHugeNFS3SizeIsClampedNotNegative(t *testing.T) {
	for _, size := range []uint64{1 << 63, 1<<64 - 1} {
		a := attrOf(nfs.Fattr{Type: nfs.NF3Reg, Filesize: size, Used: 4096})
		if a.Size != 1<<63-1 || !a.Sparse {
			t.Errorf("a size of %d bytes reads as %d (sparse %v), want %d and sparse", size, a.Size, a.Sparse, int64(1<<63-1))
		}
	}
}

// A server whose READDIRPLUS cookies go round (from 1 it answers an entry
// with cookie 2, from 2 one with cookie 1, never the end) would have a
// listing ask for the same pages, and List gather names, until the
// deadline: decodeReaddirplus sees one reply and catches only a cookie
// that stays. Every listing (List, the tree walk's ReadDir, the delete
// walk's Pages) fails with ErrUnavailable once a cookie comes again, and
// the session, whose server broke the protocol, is not used again.
func TestNFSListingsStopWhenCookiesGoRound(t *testing.T) {
	for _, tc := range []struct {
		name string
		list func(ctx context.Context, c *nfsClient) error
	}{
		{"List", func(ctx context.Context, c *nfsClient) error {
			_, err := c.List(ctx, "", 0)
			return err
		}},
		{"ReadDir", func(ctx context.Context, c *nfsClient) error {
			return c.ReadDir(ctx, "", func([]share.DirEntry) error { return nil })
		}},
		{"the delete walk's Pages", func(ctx context.Context, c *nfsClient) error {
			return nfsRemover{c}.Pages(ctx, "/", func([]share.DirEntry) (int, error) { return 0, nil })
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := &fakeNFS3{files: map[string][]byte{}, cookieRing: true}
			c := startFakeNFS3(t, srv)
			ctx, cancel := context.WithTimeout(context.Background(), time.Second)
			defer cancel()
			err := tc.list(ctx, c)
			srv.mu.Lock()
			calls := srv.readdirs
			srv.mu.Unlock()
			if !errors.Is(err, share.ErrUnavailable) || ctx.Err() != nil || calls > 3 || !c.Broken() {
				t.Fatalf("after %d READDIRPLUS going round two cookies: %v (session broken %v); want ErrUnavailable at the third", calls, err, c.Broken())
			}
		})
	}
}

// A WRITE reply that says the server took more than the call carried
// would move writeFile past data never sent: the record stored short, and
// CreateFile answering OK. Such a reply is refused, as the tree copy's
// WriteAt refuses it, and the session is not used again.
func TestNFSWriteCountAboveTheCallIsRefused(t *testing.T) {
	srv := &fakeNFS3{files: map[string][]byte{}, writeClaims: 65536}
	c := startFakeNFS3(t, srv)
	data := make([]byte, 40000)
	err := c.CreateFile(testCtx(t), "rec", data)
	if !errors.Is(err, share.ErrUnavailable) || !c.Broken() {
		srv.mu.Lock()
		defer srv.mu.Unlock()
		t.Fatalf("CreateFile of %d bytes, the server holding %d: %v (session broken %v); want ErrUnavailable", len(data), len(srv.files["rec"]), err, c.Broken())
	}
}

// NFS3ERR_BADHANDLE says the server does not take a handle at all (one
// the session kept for a metadata directory, or the export's), nothing
// about whether a path is there, as STALE does and as NFSv4's client reads
// the same status: never "no such file", and the session, which would send
// the handle again, is not used again.
func TestABadHandleIsNoAnswerAndEndsTheSession(t *testing.T) {
	for _, status := range []uint32{nfs.NFS3ErrStale, nfs.NFS3ErrBadHandle} {
		srv := &fakeNFS3{files: map[string][]byte{"rec": []byte("x")}, lookupStatus: status}
		c := startFakeNFS3(t, srv)
		_, err := c.Stat(testCtx(t), "rec")
		if !errors.Is(err, share.ErrUnavailable) || share.IsAnswer(err) || !c.Broken() {
			t.Errorf("LOOKUP answered status %d: %v (session broken %v); want ErrUnavailable and the session done", status, err, c.Broken())
		}
	}
}

// A full file system or a user's quota reached is share.ErrNoSpace (which
// the driver answers RESOURCE_EXHAUSTED), never a broken session.
func TestNoSpaceIsAnAnswer(t *testing.T) {
	for _, status := range []uint32{nfs.NFS3ErrNoSpc, nfs.NFS3ErrDQuot} {
		srv := &fakeNFS3{files: map[string][]byte{"rec": []byte("x")}, lookupStatus: status}
		c := startFakeNFS3(t, srv)
		_, err := c.Stat(testCtx(t), "rec")
		if !errors.Is(err, share.ErrNoSpace) || share.BreaksSession(err) || c.Broken() {
			t.Errorf("status %d: %v (session broken %v); want ErrNoSpace and the session kept", status, err, c.Broken())
		}
	}
}

// An MNT reply that says OK and ends before the handle is the server's
// fault, not an answer about the export: Unavailable (retried, or the
// server's next address tried), not an Internal error.
func TestAMountReplyCutShortIsUnavailable(t *testing.T) {
	client, server := net.Pipe()
	go (&fakeNFS3{files: map[string][]byte{}}).serve(server)
	t.Cleanup(func() { client.Close() })
	_, err := mountExport(testCtx(t), oncrpc.NewConn(client), rpc.AuthNull, "/export")
	if !errors.Is(err, share.ErrUnavailable) || share.IsAnswer(err) {
		t.Fatalf("MNT answered OK without a handle: %v; want ErrUnavailable", err)
	}
}
