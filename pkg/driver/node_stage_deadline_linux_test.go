//go:build linux

package driver

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/container-storage-interface/spec/lib/go/csi"
)

// A stage that fails because its deadline ran out (a server slow to
// answer the mount) looked at the staging path with that spent deadline:
// the look timed out at once, which says "maybe mounted", so the earlier
// stage's record stayed with nothing mounted: the node kept the volume's
// credentials and counted it staged in its mount metrics, for good when
// the kubelet never stages it again (stageFailed's reasons). The look has
// a deadline of its own now.
func TestAStageCutByItsDeadlineForgetsTheEarlierStage(t *testing.T) {
	const id = "v1#nfs://10.0.0.5/export#pvc-1#delete"
	capab := capability(csi.VolumeCapability_AccessMode_MULTI_NODE_MULTI_WRITER, nil, "")
	d, fake, _ := newNodeWith(t, nil, nil)
	staging := filepath.Join(t.TempDir(), "staging")
	if _, err := d.NodeStageVolume(context.Background(), &csi.NodeStageVolumeRequest{VolumeId: id, StagingTargetPath: staging, VolumeCapability: capab}); err != nil {
		t.Fatal(err)
	}
	// The node restarts: the record outlives the mount.
	if err := fake.Unmount(staging); err != nil {
		t.Fatal(err)
	}
	spent, cancel := context.WithDeadline(context.Background(), time.Now().Add(-time.Second))
	defer cancel()
	d.node.stageFailed(spent, staging, false)
	if _, err := d.nodeState().Staged(staging); err == nil {
		t.Fatal("a stage cut by its deadline, over nothing mounted, kept the earlier stage's record")
	}

	// A stage cut the same way while the mount is there keeps it.
	if _, err := d.NodeStageVolume(context.Background(), &csi.NodeStageVolumeRequest{VolumeId: id, StagingTargetPath: staging, VolumeCapability: capab}); err != nil {
		t.Fatal(err)
	}
	d.node.stageFailed(spent, staging, false)
	if _, err := d.nodeState().Staged(staging); err != nil {
		t.Fatalf("a stage cut by its deadline over a live mount dropped its record: %v", err)
	}
}
