//go:build linux

package driver

import (
	"context"
	"os"
	"path/filepath"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/container-storage-interface/spec/lib/go/csi"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"k8s.io/mount-utils"
)

// NodeGetVolumeStats repairs a broken staging mount (unmount, mount again)
// under the volume's lock, as every stage and unstage of it. It used to
// take none: a NodeUnstageVolume that ran while the repair's mount was
// under way answered OK, and the repair then mounted the volume again at
// the staging path, a mount nothing would ever unstage. Now the unstage is
// refused (Aborted) while the repair runs, and its retry takes the mount
// down.
func TestAStatsRepairAndAnUnstageNeverLeaveAMount(t *testing.T) {
	const id = "v1#nfs://10.0.0.5/export#pvc-1#delete"
	var n atomic.Int32
	repairing, unstaged := make(chan struct{}), make(chan struct{})
	staging := filepath.Join(t.TempDir(), "staging")
	var stale atomic.Bool
	d, fake, _ := newNodeOver(t, func(f *mount.FakeMounter) mount.Interface {
		return staleMount{FakeMounter: f, path: staging, stale: &stale}
	}, nil, func(string) error {
		if n.Add(1) == 2 { // the repair's mount(8)
			close(repairing)
			<-unstaged
		}
		return nil
	})
	capab := capability(csi.VolumeCapability_AccessMode_MULTI_NODE_MULTI_WRITER, nil, "")
	if _, err := d.NodeStageVolume(context.Background(), &csi.NodeStageVolumeRequest{VolumeId: id, StagingTargetPath: staging, VolumeCapability: capab}); err != nil {
		t.Fatal(err)
	}
	stale.Store(true)

	statsDone := make(chan struct{})
	go func() {
		defer close(statsDone)
		_, _ = d.NodeGetVolumeStats(context.Background(), &csi.NodeGetVolumeStatsRequest{VolumeId: id, VolumePath: staging, StagingTargetPath: staging})
	}()
	select {
	case <-repairing:
	case <-time.After(10 * time.Second):
		t.Fatal("stats did not repair the broken mount")
	}
	// The pod went meanwhile: the kubelet unstages the volume.
	_, uerr := d.NodeUnstageVolume(context.Background(), &csi.NodeUnstageVolumeRequest{VolumeId: id, StagingTargetPath: staging})
	close(unstaged)
	<-statsDone
	if uerr != nil {
		// Refused while the repair holds the volume: the kubelet calls
		// again, and that call unstages what the repair mounted.
		if status.Code(uerr) != codes.Aborted {
			t.Fatalf("unstage during the repair: %v, want Aborted", uerr)
		}
		stale.Store(false)
		if _, uerr = d.NodeUnstageVolume(context.Background(), &csi.NodeUnstageVolumeRequest{VolumeId: id, StagingTargetPath: staging}); uerr != nil {
			t.Fatal(uerr)
		}
	}
	mps, _ := fake.List()
	for _, mp := range mps {
		if mp.Path == staging {
			t.Fatalf("NodeUnstageVolume answered OK, and the stats call's repair then mounted %s at the staging path again: a mount left for good", mp.Device)
		}
	}
}

// staleMount answers ESTALE for the mount at path while stale is set. The
// test heals the mount while the usage walk its stats call started may
// still be checking it in a goroutine of its own: the fake's
// MountCheckErrors, which the fake reads under a lock of its own and a
// test can only assign without it, was a data race there (go test -race).
type staleMount struct {
	*mount.FakeMounter
	path  string
	stale *atomic.Bool
}

func (s staleMount) IsLikelyNotMountPoint(file string) (bool, error) {
	if file == s.path && s.stale.Load() {
		return false, &os.PathError{Op: "stat", Path: file, Err: syscall.ESTALE}
	}
	return s.FakeMounter.IsLikelyNotMountPoint(file)
}

// IsMountPoint is the fake's, over this IsLikelyNotMountPoint.
func (s staleMount) IsMountPoint(file string) (bool, error) {
	notMnt, err := s.IsLikelyNotMountPoint(file)
	if err != nil {
		return false, err
	}
	return !notMnt, nil
}
