package driver

import (
	"context"
	"fmt"
	"sync/atomic"
	"testing"

	"github.com/container-storage-interface/spec/lib/go/csi"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/fileshare-csi/fileshare-csi/pkg/share"
	"github.com/fileshare-csi/fileshare-csi/pkg/share/memshare"
	"github.com/fileshare-csi/fileshare-csi/pkg/source"
)

// A server that asks to be called again later (NFSv3 JUKEBOX, NFSv4 DELAY
// or GRACE: a file being recalled, a grace period after a restart) has not
// lost the session the call reused. The call answers Unavailable at once,
// which the CO retries with its backoff, and the retry runs on the same
// session: no fresh session is dialed to send the refused step again at
// once (withShare's retry is for an idle session that died), and none is
// dialed for the retry.
func TestATryLaterIsAnsweredWithoutANewSession(t *testing.T) {
	ms := memshare.New()
	d := memshareDriver(t, ms)
	var dials atomic.Int32
	dial := d.cfg.Pool.Dial
	d.cfg.Pool.Dial = func(ctx context.Context, src source.Source, creds share.Credentials) (share.Client, error) {
		dials.Add(1)
		return dial(ctx, src, creds)
	}
	createOn(t, d, "pvc-warm", "delete") // the pool now holds a session it reuses

	var mkdirs atomic.Int32
	later := true
	ms.SetHook(func(op memshare.Op, when memshare.When) error {
		if op.Name != "mkdir" || when != memshare.Before {
			return nil
		}
		mkdirs.Add(1)
		if later {
			return fmt.Errorf("mkdir %s: NFS status 10008 (JUKEBOX): %w", op.Path, share.ErrTryLater)
		}
		return nil
	})
	req := &csi.CreateVolumeRequest{
		Name:       "pvc-a",
		Parameters: map[string]string{"source": "nfs://127.0.0.1/export/base", "onDelete": "delete"},
		VolumeCapabilities: []*csi.VolumeCapability{{
			AccessType: &csi.VolumeCapability_Mount{Mount: &csi.VolumeCapability_MountVolume{}},
			AccessMode: &csi.VolumeCapability_AccessMode{Mode: csi.VolumeCapability_AccessMode_MULTI_NODE_MULTI_WRITER},
		}},
	}
	_, err := d.CreateVolume(context.Background(), req)
	if status.Code(err) != codes.Unavailable {
		t.Fatalf("CreateVolume when the server asks to try later: %v, want Unavailable", err)
	}
	if n := mkdirs.Load(); n != 1 {
		t.Fatalf("the refused MKDIR was sent %d times, want once: a server that asks to wait is not a dead session to retry on a fresh one", n)
	}
	later = false
	if _, err := d.CreateVolume(context.Background(), req); err != nil {
		t.Fatalf("the CO's retry: %v", err)
	}
	if n := dials.Load(); n != 1 {
		t.Fatalf("%d sessions dialed, want 1: a try-again-later broke the session", n)
	}
}
