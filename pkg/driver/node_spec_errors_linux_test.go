//go:build linux

package driver

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/container-storage-interface/spec/lib/go/csi"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	mount "k8s.io/mount-utils"
)

// NodePublishVolume without a staging_target_path, on a node with
// STAGE_UNSTAGE_VOLUME, is the spec's "Staging target path not set":
// FAILED_PRECONDITION (it was INVALID_ARGUMENT).
func TestNodePublishWithoutAStagingPathIsAFailedPrecondition(t *testing.T) {
	d, _, calls := newNodeUnderTest(t)
	_, err := d.NodePublishVolume(context.Background(), &csi.NodePublishVolumeRequest{
		VolumeId: "v1#nfs://10.0.0.5/export#pvc-1#delete", TargetPath: filepath.Join(t.TempDir(), "target"),
		VolumeCapability: capability(csi.VolumeCapability_AccessMode_MULTI_NODE_MULTI_WRITER, nil, ""),
	})
	if status.Code(err) != codes.FailedPrecondition {
		t.Fatalf("publish without a staging path: %v, want FailedPrecondition", err)
	}
	if len(*calls) != 0 {
		t.Fatalf("mount was called: %+v", *calls)
	}
}

// A publish again at a target already published with other arguments
// (the spec's T1=T2, P1!=P2) is ALREADY_EXISTS, and the target is left as
// it is. (It answered OK: a publish that asked to write got the read-only
// bind already there, and a read-only one remounted read-only the bind a
// pod was writing through.) The same arguments again are OK, and a stale
// record, whose target is no longer mounted, is no conflict.
func TestNodePublishAgainWithOtherArgumentsIsAlreadyExists(t *testing.T) {
	d, fake, _ := newNodeUnderTest(t)
	ctx := context.Background()
	staging, target := filepath.Join(t.TempDir(), "staging"), filepath.Join(t.TempDir(), "target")
	rw := capability(csi.VolumeCapability_AccessMode_MULTI_NODE_MULTI_WRITER, nil, "")
	stage := &csi.NodeStageVolumeRequest{VolumeId: "v1#nfs://10.0.0.5/export#pvc-1#delete", StagingTargetPath: staging, VolumeCapability: rw}
	if _, err := d.NodeStageVolume(ctx, stage); err != nil {
		t.Fatal(err)
	}
	// Another volume, staged at a staging path of its own (at the first
	// one's, it is refused before the target is looked at: heldByOther).
	other := &csi.NodeStageVolumeRequest{VolumeId: "v1#nfs://10.0.0.5/export#pvc-2#delete", StagingTargetPath: filepath.Join(t.TempDir(), "staging2"), VolumeCapability: rw}
	if _, err := d.NodeStageVolume(ctx, other); err != nil {
		t.Fatal(err)
	}
	stagedAt := map[string]string{stage.VolumeId: staging, other.VolumeId: other.StagingTargetPath}
	publish := func(id string, ro bool, c *csi.VolumeCapability) error {
		_, err := d.NodePublishVolume(ctx, &csi.NodePublishVolumeRequest{VolumeId: id, StagingTargetPath: stagedAt[id], TargetPath: target, VolumeCapability: c, Readonly: ro})
		return err
	}
	if err := publish(stage.VolumeId, false, rw); err != nil {
		t.Fatal(err)
	}
	if err := publish(stage.VolumeId, false, rw); err != nil {
		t.Fatalf("the same publish again: %v", err)
	}
	fake.ResetLog()
	for _, c := range []struct {
		what string
		id   string
		ro   bool
		cap  *csi.VolumeCapability
	}{
		{"read-only", stage.VolumeId, true, rw},
		{"a reader-only access mode", stage.VolumeId, false, capability(csi.VolumeCapability_AccessMode_MULTI_NODE_READER_ONLY, nil, "")},
		{"single writer", stage.VolumeId, false, capability(csi.VolumeCapability_AccessMode_SINGLE_NODE_SINGLE_WRITER, nil, "")},
		{"another volume", other.VolumeId, false, rw},
	} {
		if err := publish(c.id, c.ro, c.cap); status.Code(err) != codes.AlreadyExists {
			t.Errorf("publish again at the target, %s: %v, want AlreadyExists", c.what, err)
		}
	}
	if log := fake.GetLog(); len(log) != 0 {
		t.Fatalf("the refused publishes touched the target: %+v", log)
	}
	// The target unmounted behind the node's back: its record is stale.
	if err := fake.Unmount(target); err != nil {
		t.Fatal(err)
	}
	if err := publish(stage.VolumeId, true, rw); err != nil {
		t.Fatalf("publish read-only at a target whose record is stale: %v", err)
	}
	mps, _ := fake.List()
	var bound []mount.MountPoint
	for _, mp := range mps {
		if mp.Path == target {
			bound = append(bound, mp)
		}
	}
	if len(bound) == 0 {
		t.Fatalf("nothing bound at the target: %+v", mps)
	}
}
