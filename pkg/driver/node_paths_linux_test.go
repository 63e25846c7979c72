//go:build linux

package driver

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/container-storage-interface/spec/lib/go/csi"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

// An unstage and an unpublish name the staging or target path of their
// volume: the node takes down the mount there and removes the directory.
// A link at that path is never followed: umount(8) would take down the
// mount the link leads to, another volume's or one that is not the
// driver's at all.
func TestUnmountNeverFollowsALinkAtThePath(t *testing.T) {
	for _, call := range []string{"NodeUnpublishVolume", "NodeUnstageVolume"} {
		t.Run(call, func(t *testing.T) {
			d, fake, _ := newNodeUnderTest(t)
			dir := t.TempDir()
			other := filepath.Join(dir, "not-the-drivers")
			if err := os.Mkdir(other, 0o755); err != nil {
				t.Fatal(err)
			}
			if err := fake.Mount("nas:/private", other, "nfs", nil); err != nil {
				t.Fatal(err)
			}
			link := filepath.Join(dir, "mount")
			if err := os.Symlink(other, link); err != nil {
				t.Fatal(err)
			}
			var err error
			if call == "NodeUnpublishVolume" {
				_, err = d.NodeUnpublishVolume(context.Background(), &csi.NodeUnpublishVolumeRequest{VolumeId: "v", TargetPath: link})
			} else {
				_, err = d.NodeUnstageVolume(context.Background(), &csi.NodeUnstageVolumeRequest{VolumeId: "v", StagingTargetPath: link})
			}
			if mountedAt(fake, other) == "" {
				t.Errorf("%s of a link took down the mount it leads to", call)
			}
			if status.Code(err) != codes.InvalidArgument {
				t.Errorf("%s of a link: %v, want InvalidArgument", call, err)
			}
		})
	}
}

// The node makes its mounts at the kubelet's paths, never through a link
// there: mount(8) follows it, and the volume would be mounted wherever it
// leads, outside the kubelet's directory.
func TestMountNeverFollowsALinkAtThePath(t *testing.T) {
	t.Run("stage", func(t *testing.T) {
		d, fake, calls := newNodeUnderTest(t)
		dir := t.TempDir()
		elsewhere := filepath.Join(dir, "elsewhere")
		if err := os.Mkdir(elsewhere, 0o755); err != nil {
			t.Fatal(err)
		}
		link := filepath.Join(dir, "globalmount")
		if err := os.Symlink(elsewhere, link); err != nil {
			t.Fatal(err)
		}
		_, err := d.NodeStageVolume(context.Background(), &csi.NodeStageVolumeRequest{
			VolumeId: "v", StagingTargetPath: link,
			VolumeCapability: capability(csi.VolumeCapability_AccessMode_MULTI_NODE_MULTI_WRITER, nil, ""),
			VolumeContext:    map[string]string{ContextSource: "nfs://nas/export", ContextSubDir: "team"},
		})
		if status.Code(err) != codes.InvalidArgument {
			t.Errorf("stage at a link: %v, want InvalidArgument", err)
		}
		if dev := mountedAt(fake, elsewhere); dev != "" {
			t.Errorf("the volume (%s) was mounted where the link at the staging path leads", dev)
		}
		if len(*calls) != 0 {
			t.Errorf("mount(8) was run: %+v", *calls)
		}
	})
	t.Run("publish", func(t *testing.T) {
		d, fake, _ := newNodeUnderTest(t)
		dir := t.TempDir()
		staging := filepath.Join(dir, "staging")
		stageNFS(t, d, "v", "team", staging)
		elsewhere := filepath.Join(dir, "elsewhere")
		if err := os.Mkdir(elsewhere, 0o755); err != nil {
			t.Fatal(err)
		}
		link := filepath.Join(dir, "mount")
		if err := os.Symlink(elsewhere, link); err != nil {
			t.Fatal(err)
		}
		_, err := d.NodePublishVolume(context.Background(), &csi.NodePublishVolumeRequest{
			VolumeId: "v", StagingTargetPath: staging, TargetPath: link,
			VolumeCapability: capability(csi.VolumeCapability_AccessMode_MULTI_NODE_MULTI_WRITER, nil, ""),
			VolumeContext:    map[string]string{ContextSource: "nfs://nas/export", ContextSubDir: "team"},
		})
		if status.Code(err) != codes.InvalidArgument {
			t.Errorf("publish at a link: %v, want InvalidArgument", err)
		}
		if dev := mountedAt(fake, elsewhere); dev != "" {
			t.Errorf("the volume (%s) was bound where the link at the target path leads", dev)
		}
	})
	t.Run("publish from a link", func(t *testing.T) {
		// A staging path that is a link to a mount that is not the
		// driver's (here the host's share of another system) would have
		// that mount bound into the pod.
		d, fake, _ := newNodeUnderTest(t)
		dir := t.TempDir()
		staging := filepath.Join(dir, "staging")
		stageNFS(t, d, "v", "team", staging)
		other := filepath.Join(dir, "not-the-drivers")
		if err := os.Mkdir(other, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := fake.Mount("nas:/private", other, "nfs", nil); err != nil {
			t.Fatal(err)
		}
		// The staging directory of record is replaced by a link.
		if err := fake.Unmount(staging); err != nil {
			t.Fatal(err)
		}
		if err := os.Remove(staging); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(other, staging); err != nil {
			t.Fatal(err)
		}
		target := filepath.Join(dir, "target")
		_, err := d.NodePublishVolume(context.Background(), &csi.NodePublishVolumeRequest{
			VolumeId: "v", StagingTargetPath: staging, TargetPath: target,
			VolumeCapability: capability(csi.VolumeCapability_AccessMode_MULTI_NODE_MULTI_WRITER, nil, ""),
			VolumeContext:    map[string]string{ContextSource: "nfs://nas/export", ContextSubDir: "team"},
		})
		if dev := mountedAt(fake, target); dev != "" {
			t.Errorf("a mount that is not the driver's was bound into the pod")
		}
		if status.Code(err) != codes.InvalidArgument {
			t.Errorf("publish from a link: %v, want InvalidArgument", err)
		}
	})
}

// An unpublish or unstage removes the directory its mount was on. What
// is at the path and is no directory (a file) was never the driver's: it
// is left where it is.
func TestUnmountNeverRemovesAFile(t *testing.T) {
	for _, call := range []string{"NodeUnpublishVolume", "NodeUnstageVolume"} {
		t.Run(call, func(t *testing.T) {
			d, _, _ := newNodeUnderTest(t)
			f := filepath.Join(t.TempDir(), "file")
			if err := os.WriteFile(f, []byte("not the driver's"), 0o644); err != nil {
				t.Fatal(err)
			}
			var err error
			if call == "NodeUnpublishVolume" {
				_, err = d.NodeUnpublishVolume(context.Background(), &csi.NodeUnpublishVolumeRequest{VolumeId: "v", TargetPath: f})
			} else {
				_, err = d.NodeUnstageVolume(context.Background(), &csi.NodeUnstageVolumeRequest{VolumeId: "v", StagingTargetPath: f})
			}
			if _, serr := os.Stat(f); serr != nil {
				t.Errorf("%s removed a file at its path: %v", call, serr)
			}
			if status.Code(err) != codes.InvalidArgument {
				t.Errorf("%s of a file: %v, want InvalidArgument", call, err)
			}
		})
	}
}
