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
	// A record of the earliest versions names no volume (nor the single
	// writer): the kubelet's republish over it goes on.
	old, err := d.nodeState().Published(target)
	if err != nil {
		t.Fatal(err)
	}
	old.VolumeID, old.SingleWriter = "", false
	if err := d.nodeState().SavePublished(old); err != nil {
		t.Fatal(err)
	}
	if err := publish(stage.VolumeId, false, capability(csi.VolumeCapability_AccessMode_SINGLE_NODE_SINGLE_WRITER, nil, "")); err != nil {
		t.Errorf("republish over a record that names no volume: %v", err)
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

// NodeGetVolumeStats and NodeExpandVolume for a volume that is not the one
// at volume_path (or at staging_target_path) are the spec's NOT_FOUND, "a
// volume corresponding to the specified volume_id does not exist on
// specified volume_path", whether the path is a target or a staging path.
// (They answered for the volume that is there: another volume's usage,
// and its size recorded as this one's.) Records of a version that kept no
// volume ID refuse nothing.
func TestNodeStatsAndExpandOfAnotherVolumesPathAreNotFound(t *testing.T) {
	d, _, _ := newNodeUnderTest(t)
	ctx := context.Background()
	const a, b = "v1#nfs://10.0.0.5/export#pvc-a#delete", "v1#nfs://10.0.0.5/export#pvc-b#delete"
	rw := capability(csi.VolumeCapability_AccessMode_MULTI_NODE_MULTI_WRITER, nil, "")
	dir := t.TempDir()
	staging := map[string]string{a: filepath.Join(dir, "staging-a"), b: filepath.Join(dir, "staging-b")}
	target := map[string]string{a: filepath.Join(dir, "target-a"), b: filepath.Join(dir, "target-b")}
	for _, id := range []string{a, b} {
		if _, err := d.NodeStageVolume(ctx, &csi.NodeStageVolumeRequest{
			VolumeId: id, StagingTargetPath: staging[id], VolumeCapability: rw,
			VolumeContext: map[string]string{"capacityBytes": "65536"},
		}); err != nil {
			t.Fatal(err)
		}
		if _, err := d.NodePublishVolume(ctx, &csi.NodePublishVolumeRequest{VolumeId: id, StagingTargetPath: staging[id], TargetPath: target[id], VolumeCapability: rw}); err != nil {
			t.Fatal(err)
		}
	}
	stats := func(id, path, staging string) error {
		_, err := d.NodeGetVolumeStats(ctx, &csi.NodeGetVolumeStatsRequest{VolumeId: id, VolumePath: path, StagingTargetPath: staging})
		return err
	}
	expand := func(id, path, staging string) error {
		_, err := d.NodeExpandVolume(ctx, &csi.NodeExpandVolumeRequest{VolumeId: id, VolumePath: path, StagingTargetPath: staging, CapacityRange: &csi.CapacityRange{RequiredBytes: 1 << 20}})
		return err
	}
	for _, c := range []struct{ what, path, staging string }{
		{"a's target", target[a], ""},
		{"a's target and staging path", target[a], staging[a]},
		{"a's staging path", staging[a], ""},
		{"a's staging path as both", staging[a], staging[a]},
		{"b's target, a's staging path", target[b], staging[a]},
	} {
		if err := stats(b, c.path, c.staging); status.Code(err) != codes.NotFound {
			t.Errorf("stats of b at %s: %v, want NotFound", c.what, err)
		}
		if err := expand(b, c.path, c.staging); status.Code(err) != codes.NotFound {
			t.Errorf("expand of b at %s: %v, want NotFound", c.what, err)
		}
	}
	if st, err := d.nodeState().Staged(staging[a]); err != nil || st.CapacityBytes != 65536 {
		t.Fatalf("a's record after the refused expansions: %+v, %v; want its size unchanged", st, err)
	}
	for _, id := range []string{a, b} {
		if err := stats(id, target[id], staging[id]); err != nil {
			t.Errorf("stats of %s at its own target: %v", id, err)
		}
		if err := stats(id, staging[id], ""); err != nil {
			t.Errorf("stats of %s at its own staging path: %v", id, err)
		}
		if err := expand(id, target[id], staging[id]); err != nil {
			t.Errorf("expand of %s at its own target: %v", id, err)
		}
	}

	// Records of an earlier version, with no volume ID: the volume at
	// the path is not known, and nothing is refused.
	st, err := d.nodeState().Staged(staging[a])
	if err != nil {
		t.Fatal(err)
	}
	st.VolumeID = ""
	pub, err := d.nodeState().Published(target[a])
	if err != nil {
		t.Fatal(err)
	}
	pub.VolumeID = ""
	if err := d.nodeState().SaveStaged(staging[a], st); err != nil {
		t.Fatal(err)
	}
	if err := d.nodeState().SavePublished(pub); err != nil {
		t.Fatal(err)
	}
	if err := stats(a, target[a], staging[a]); err != nil {
		t.Errorf("stats of a at its target, records without volume IDs: %v", err)
	}
	if err := expand(a, target[a], ""); err != nil {
		t.Errorf("expand of a at its target, records without volume IDs: %v", err)
	}
	// A publish record without one leads to the staging record, which
	// names the volume.
	pub.StagingPath = staging[b]
	if err := d.nodeState().SavePublished(pub); err != nil {
		t.Fatal(err)
	}
	if err := stats(a, target[a], ""); status.Code(err) != codes.NotFound {
		t.Errorf("stats of a at a target whose record (no volume ID) binds b's staging path: %v, want NotFound", err)
	}
}

// NodeExpandVolume follows ControllerExpandVolume's rule for a capacity
// range: required_bytes above limit_bytes is INVALID_ARGUMENT (no size
// meets it), a limit_bytes below the size the node recorded is
// OUT_OF_RANGE (a volume never shrinks); neither changes the record. (The
// first recorded required_bytes, above the limit; the second answered OK
// with the recorded size, above the limit.) A limit the recorded size fits
// is fine.
func TestNodeExpandVolumeCapacityRangeErrors(t *testing.T) {
	d, _, _ := newNodeUnderTest(t)
	ctx := context.Background()
	const id = "v1#nfs://10.0.0.5/export#pvc-1#delete"
	dir := t.TempDir()
	staging, target := filepath.Join(dir, "staging"), filepath.Join(dir, "target")
	rw := capability(csi.VolumeCapability_AccessMode_MULTI_NODE_MULTI_WRITER, nil, "")
	if _, err := d.NodeStageVolume(ctx, &csi.NodeStageVolumeRequest{
		VolumeId: id, StagingTargetPath: staging, VolumeCapability: rw,
		VolumeContext: map[string]string{"capacityBytes": "65536"},
	}); err != nil {
		t.Fatal(err)
	}
	if _, err := d.NodePublishVolume(ctx, &csi.NodePublishVolumeRequest{VolumeId: id, StagingTargetPath: staging, TargetPath: target, VolumeCapability: rw}); err != nil {
		t.Fatal(err)
	}
	expand := func(required, limit int64) (*csi.NodeExpandVolumeResponse, error) {
		return d.NodeExpandVolume(ctx, &csi.NodeExpandVolumeRequest{
			VolumeId: id, VolumePath: target, StagingTargetPath: staging,
			CapacityRange: &csi.CapacityRange{RequiredBytes: required, LimitBytes: limit},
		})
	}
	for _, c := range []struct {
		what            string
		required, limit int64
		code            codes.Code
	}{
		{"required above limit", 1 << 20, 1 << 19, codes.InvalidArgument},
		{"a negative required", -1, 0, codes.InvalidArgument},
		{"a negative limit", 0, -1, codes.InvalidArgument},
		{"a limit below the recorded size", 0, 4096, codes.OutOfRange},
		{"required and limit below the recorded size", 1024, 4096, codes.OutOfRange},
	} {
		if resp, err := expand(c.required, c.limit); status.Code(err) != c.code {
			t.Errorf("%s: %v, %v; want %s", c.what, resp, err, c.code)
		}
	}
	if st, err := d.nodeState().Staged(staging); err != nil || st.CapacityBytes != 65536 {
		t.Fatalf("the record after the refused expansions: %d bytes, %v; want 65536", st.CapacityBytes, err)
	}
	if resp, err := expand(1<<20, 1<<20); err != nil || resp.GetCapacityBytes() != 1<<20 {
		t.Fatalf("expand to exactly 1 MiB: %v, %v", resp, err)
	}
	if resp, err := expand(4096, 1<<20); err != nil || resp.GetCapacityBytes() != 1<<20 {
		t.Fatalf("expand to less, within a limit the recorded size fits: %v, %v", resp, err)
	}
}

// A stage again at a staging path where the volume is mounted, with an
// access mode that asks for the other of read-only and read-write, is the
// spec's ALREADY_EXISTS, "Volume published but is incompatible", and
// changes nothing. (It answered OK, reused the mount as it was and recorded
// the new read-only flag.) The kubelet's stage again with the same
// capability, and the republishes of requiresRepublish, are OK, as are
// changes that leave read-only-ness as it is (another read-write access
// mode, another fsGroup, other mount flags: see stagedReadOnlyOtherwise);
// so is any stage once nothing is mounted there.
func TestNodeStageAgainReadOnlyOverAReadWriteMountIsAlreadyExists(t *testing.T) {
	d, fake, calls := newNodeUnderTest(t)
	ctx := context.Background()
	const id = "v1#nfs://10.0.0.5/export#pvc-1#delete"
	dir := t.TempDir()
	staging, target := filepath.Join(dir, "staging"), filepath.Join(dir, "target")
	rw := capability(csi.VolumeCapability_AccessMode_MULTI_NODE_MULTI_WRITER, []string{"vers=4.1"}, "2000")
	stage := func(c *csi.VolumeCapability) error {
		_, err := d.NodeStageVolume(ctx, &csi.NodeStageVolumeRequest{
			VolumeId: id, StagingTargetPath: staging, VolumeCapability: c,
			VolumeContext: map[string]string{"mountOptions": "hard"},
		})
		return err
	}
	publish := func() error {
		_, err := d.NodePublishVolume(ctx, &csi.NodePublishVolumeRequest{VolumeId: id, StagingTargetPath: staging, TargetPath: target, VolumeCapability: rw})
		return err
	}
	if err := stage(rw); err != nil {
		t.Fatal(err)
	}
	if err := publish(); err != nil {
		t.Fatal(err)
	}
	mounts := len(*calls)
	for _, c := range []struct {
		what string
		cap  *csi.VolumeCapability
	}{
		{"the same capability (the kubelet's stage again)", rw},
		{"another read-write access mode", capability(csi.VolumeCapability_AccessMode_SINGLE_NODE_WRITER, []string{"vers=4.1"}, "2000")},
		{"another fsGroup", capability(csi.VolumeCapability_AccessMode_MULTI_NODE_MULTI_WRITER, []string{"vers=4.1"}, "3000")},
		{"other mount flags", capability(csi.VolumeCapability_AccessMode_MULTI_NODE_MULTI_WRITER, []string{"vers=4.2"}, "2000")},
	} {
		if err := stage(c.cap); err != nil {
			t.Errorf("stage again, %s: %v", c.what, err)
		}
		if err := publish(); err != nil {
			t.Errorf("republish after a stage again, %s: %v", c.what, err)
		}
	}
	for _, m := range []csi.VolumeCapability_AccessMode_Mode{csi.VolumeCapability_AccessMode_MULTI_NODE_READER_ONLY, csi.VolumeCapability_AccessMode_SINGLE_NODE_READER_ONLY} {
		if err := stage(capability(m, []string{"vers=4.1"}, "2000")); status.Code(err) != codes.AlreadyExists {
			t.Errorf("stage again %v over a read-write mount: %v, want AlreadyExists", m, err)
		}
	}
	if len(*calls) != mounts {
		t.Fatalf("the stages again mounted: %+v", (*calls)[mounts:])
	}
	if st, err := d.nodeState().Staged(staging); err != nil || st.Request.ReadOnly {
		t.Fatalf("the record after the refused stages: %+v, %v; want read-write", st.Request, err)
	}
	if err := publish(); err != nil {
		t.Fatalf("republish after the refused stages: %v", err)
	}

	// Nothing mounted at the staging path any more: the stage mounts as
	// asked.
	if err := fake.Unmount(staging); err != nil {
		t.Fatal(err)
	}
	if err := stage(capability(csi.VolumeCapability_AccessMode_MULTI_NODE_READER_ONLY, nil, "")); err != nil {
		t.Fatalf("stage read-only where nothing is mounted: %v", err)
	}
	if st, err := d.nodeState().Staged(staging); err != nil || !st.Request.ReadOnly {
		t.Fatalf("the record of the read-only stage: %+v, %v", st.Request, err)
	}
}
