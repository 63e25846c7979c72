//go:build linux

package driver

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"sync/atomic"
	"syscall"
	"testing"

	"github.com/container-storage-interface/spec/lib/go/csi"
)

// A repair unmounts the broken staging mount before it mounts again. When
// that mount fails (the server restarted and is not answering yet), the
// staging path is left unmounted with its record still there. The next
// publish (the kubelet republishes every minute, and it never stages a
// volume again that it takes for staged) and the next stats call of a pod
// must try again from the record. They used to answer "not staged" for
// good, and the stats call unmounted and removed the pod's target before
// finding it could not bind it again: the volume stayed down on the node
// until every pod using it was gone.
func TestAFailedRepairIsTriedAgain(t *testing.T) {
	const id = "v1#nfs://10.0.0.5/export#pvc-1#delete"
	capab := capability(csi.VolumeCapability_AccessMode_MULTI_NODE_MULTI_WRITER, nil, "")
	for _, next := range []string{"publish", "stats"} {
		t.Run(next, func(t *testing.T) {
			var serverDown atomic.Bool
			d, fake, _ := newNodeWith(t, nil, func(string) error {
				if serverDown.Load() {
					return errors.New("mount.nfs: Connection refused")
				}
				return nil
			})
			ctx := context.Background()
			staging, target := filepath.Join(t.TempDir(), "staging"), filepath.Join(t.TempDir(), "target")
			if _, err := d.NodeStageVolume(ctx, &csi.NodeStageVolumeRequest{VolumeId: id, StagingTargetPath: staging, VolumeCapability: capab}); err != nil {
				t.Fatal(err)
			}
			publish := &csi.NodePublishVolumeRequest{VolumeId: id, StagingTargetPath: staging, TargetPath: target, VolumeCapability: capab}
			if _, err := d.NodePublishVolume(ctx, publish); err != nil {
				t.Fatal(err)
			}
			// The server restarts: both mounts answer ESTALE, and the first
			// repair's mount is refused.
			stale := func(p string) error { return &os.PathError{Op: "stat", Path: p, Err: syscall.ESTALE} }
			fake.MountCheckErrors = map[string]error{staging: stale(staging), target: stale(target)}
			serverDown.Store(true)
			stats := &csi.NodeGetVolumeStatsRequest{VolumeId: id, VolumePath: target, StagingTargetPath: staging}
			if _, err := d.NodeGetVolumeStats(ctx, stats); err == nil {
				t.Fatal("stats repaired the mount while the server refused it")
			}
			serverDown.Store(false)
			var err error
			if next == "publish" {
				_, err = d.NodePublishVolume(ctx, publish)
			} else {
				_, err = d.NodeGetVolumeStats(ctx, stats)
			}
			if err != nil {
				t.Fatalf("%s once the server is back: %v", next, err)
			}
			mounted := map[string]bool{}
			mps, _ := fake.List()
			for _, mp := range mps {
				mounted[mp.Path] = true
			}
			if !mounted[staging] || !mounted[target] {
				t.Fatalf("after the %s, staging mounted %v, target mounted %v: %+v", next, mounted[staging], mounted[target], mps)
			}
		})
	}
}
