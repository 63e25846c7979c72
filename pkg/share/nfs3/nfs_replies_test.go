package nfs3

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/vmware/go-nfs-client/nfs"

	"github.com/fileshare-csi/fileshare-csi/pkg/share"
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
