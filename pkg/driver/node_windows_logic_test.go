package driver

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/container-storage-interface/spec/lib/go/csi"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/fileshare-csi/fileshare-csi/pkg/mounter"
	"github.com/fileshare-csi/fileshare-csi/pkg/os/csiproxy/csiproxytest"
)

// The node service with the Windows mounter, through csi-proxy's generated
// clients against a fake csi-proxy: what CSI codes csi-proxy's failures
// become.

const (
	winStaging = `c:\var\lib\kubelet\plugins\kubernetes.io\csi\fileshare.csi.dev\0a1b\globalmount`
	winTarget  = `c:\var\lib\kubelet\pods\uid\volumes\kubernetes.io~csi\pv\mount`
)

func newWindowsNodeUnderTest(t *testing.T) (*Driver, *csiproxytest.Server) {
	t.Helper()
	fake := csiproxytest.Start(t, winStaging, winTarget)
	d, err := newTestDriver(t, Config{
		Name: "fileshare.csi.dev", NodeID: "win-1", Node: true,
		Mounter:  mounter.NewWindows(fake.NewClient(t)),
		StateDir: filepath.Join(t.TempDir(), "state"),
	})
	if err != nil {
		t.Fatal(err)
	}
	return d, fake
}

func windowsCapability() *csi.VolumeCapability {
	return &csi.VolumeCapability{
		AccessType: &csi.VolumeCapability_Mount{Mount: &csi.VolumeCapability_MountVolume{}},
		AccessMode: &csi.VolumeCapability_AccessMode{Mode: csi.VolumeCapability_AccessMode_MULTI_NODE_MULTI_WRITER},
	}
}

func windowsStage(ctx context.Context, d *Driver, volumeID string) error {
	_, err := d.NodeStageVolume(ctx, &csi.NodeStageVolumeRequest{
		VolumeId:          volumeID,
		StagingTargetPath: winStaging,
		VolumeCapability:  windowsCapability(),
		Secrets:           map[string]string{"username": "alice", "password": "s3cret", "domain": "CORP"},
	})
	return err
}

func wantCode(t *testing.T, what string, err error, code codes.Code, text string) {
	t.Helper()
	if status.Code(err) != code || !strings.Contains(status.Convert(err).Message(), text) {
		t.Fatalf("%s: %v, want %s saying %q", what, err, code, text)
	}
	if strings.Contains(status.Convert(err).Message(), "s3cret") {
		t.Fatalf("%s: the message shows the password: %v", what, err)
	}
}

func TestWindowsNodeStagePublishUnpublishUnstage(t *testing.T) {
	d, fake := newWindowsNodeUnderTest(t)
	ctx := context.Background()
	const id = "v1#smb://fs/share/base#pvc-1#delete"
	if err := windowsStage(ctx, d, id); err != nil {
		t.Fatal(err)
	}
	if got, ok := fake.Link(winStaging); !ok || got != `\\?\UNC\fs\share\base\pvc-1\` {
		t.Fatalf("staging link %q (%v)", got, ok)
	}
	if _, err := d.NodePublishVolume(ctx, &csi.NodePublishVolumeRequest{
		VolumeId: id, StagingTargetPath: winStaging, TargetPath: winTarget, VolumeCapability: windowsCapability(),
	}); err != nil {
		t.Fatal(err)
	}
	if got, ok := fake.Link(winTarget); !ok || got != winStaging {
		t.Fatalf("target link %q (%v)", got, ok)
	}
	if _, err := d.NodeUnpublishVolume(ctx, &csi.NodeUnpublishVolumeRequest{VolumeId: id, TargetPath: winTarget}); err != nil {
		t.Fatal(err)
	}
	if _, err := d.NodeUnstageVolume(ctx, &csi.NodeUnstageVolumeRequest{VolumeId: id, StagingTargetPath: winStaging}); err != nil {
		t.Fatal(err)
	}
	if m := fake.Mappings(); len(m) != 0 {
		t.Fatalf("mappings left: %+v", m)
	}
	// Again, now that nothing is there.
	if _, err := d.NodeUnstageVolume(ctx, &csi.NodeUnstageVolumeRequest{VolumeId: id, StagingTargetPath: winStaging}); err != nil {
		t.Fatalf("second unstage: %v", err)
	}
}

func TestWindowsNodeMapsCSIProxyFailures(t *testing.T) {
	const id = "v1#smb://fs/share#pvc-1#delete"

	t.Run("csi-proxy not running", func(t *testing.T) {
		d, fake := newWindowsNodeUnderTest(t)
		fake.Stop()
		wantCode(t, "stage", windowsStage(context.Background(), d, id), codes.Unavailable, "is csi-proxy running")
	})

	t.Run("csi-proxy too slow", func(t *testing.T) {
		d, fake := newWindowsNodeUnderTest(t)
		fake.Block("NewSmbGlobalMapping")
		ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
		defer cancel()
		wantCode(t, "stage", windowsStage(ctx, d, id), codes.DeadlineExceeded, "NewSmbGlobalMapping")
	})

	t.Run("mapping refused", func(t *testing.T) {
		d, fake := newWindowsNodeUnderTest(t)
		fake.Fail("NewSmbGlobalMapping", status.Error(codes.Unknown, "NewSmbGlobalMapping failed. result: 1326, err: The user name or password is incorrect."))
		wantCode(t, "stage", windowsStage(context.Background(), d, id), codes.Internal, "The user name or password is incorrect")
	})

	t.Run("NFS volume", func(t *testing.T) {
		d, fake := newWindowsNodeUnderTest(t)
		wantCode(t, "stage", windowsStage(context.Background(), d, "v1#nfs://fs/export#pvc-1#delete"), codes.FailedPrecondition, "NFS is Linux-only")
		if n := len(fake.Calls()); n != 0 {
			t.Fatalf("%d csi-proxy calls for an NFS volume", n)
		}
	})

	t.Run("SMB on another port", func(t *testing.T) {
		d, _ := newWindowsNodeUnderTest(t)
		wantCode(t, "stage", windowsStage(context.Background(), d, "v1#smb://fs:4450/share#pvc-1#delete"), codes.FailedPrecondition, "port 4450")
	})

	t.Run("publish of a volume that is not staged", func(t *testing.T) {
		d, _ := newWindowsNodeUnderTest(t)
		_, err := d.NodePublishVolume(context.Background(), &csi.NodePublishVolumeRequest{
			VolumeId: id, StagingTargetPath: winStaging, TargetPath: winTarget, VolumeCapability: windowsCapability(),
		})
		wantCode(t, "publish", err, codes.FailedPrecondition, "not staged")
	})

	t.Run("unstage while csi-proxy is down", func(t *testing.T) {
		d, fake := newWindowsNodeUnderTest(t)
		if err := windowsStage(context.Background(), d, id); err != nil {
			t.Fatal(err)
		}
		fake.Stop()
		_, err := d.NodeUnstageVolume(context.Background(), &csi.NodeUnstageVolumeRequest{VolumeId: id, StagingTargetPath: winStaging})
		wantCode(t, "unstage", err, codes.Unavailable, "is csi-proxy running")
		if _, ok := fake.Link(winStaging); !ok {
			t.Fatal("the staging link is gone although unstage failed")
		}
	})
}

func TestWindowsNodeReportsWindowsTopology(t *testing.T) {
	d, _ := newWindowsNodeUnderTest(t)
	info, err := d.NodeGetInfo(context.Background(), &csi.NodeGetInfoRequest{})
	if err != nil {
		t.Fatal(err)
	}
	if got := info.GetAccessibleTopology().GetSegments()[TopologyKeyOS]; got != "windows" {
		t.Fatalf("topology %s = %q, want windows", TopologyKeyOS, got)
	}
}
