//go:build linux

package integration

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/container-storage-interface/spec/lib/go/csi"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/fileshare-csi/fileshare-csi/test/harness"
)

// TestNodeInlineVolumes publishes CSI inline volumes as the kubelet does
// for a pod's csi: volume (no stage, the ephemeral flag in the volume
// context, the secret of nodePublishSecretRef), on a node plugin of its own
// that allows one directory of each share. Each is written through, shows
// on the server, and leaves no mount behind; a source outside the list is
// refused and nothing is mounted.
func TestNodeInlineVolumes(t *testing.T) {
	requireMounts(t)
	var inline []class
	for _, c := range classes(t) {
		if c.name == "nfs3" || c.name == "nfs41only" {
			continue // one NFS class is enough here
		}
		dir := filepath.Join(c.data, "inline", "allowed")
		if err := os.MkdirAll(filepath.Join(dir, "job-1"), 0o777); err != nil {
			t.Fatal(err)
		}
		if err := os.Chmod(filepath.Join(dir, "job-1"), 0o777); err != nil {
			t.Fatal(err)
		}
		c.data = dir
		inline = append(inline, c)
	}
	allowed := nfsSource("node/inline/allowed") + "," + smbSource("node/inline/allowed")
	n, dir := inlineNode(t, "inline-node", allowed)
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	capab := &csi.VolumeCapability{
		AccessType: &csi.VolumeCapability_Mount{Mount: &csi.VolumeCapability_MountVolume{}},
		AccessMode: &csi.VolumeCapability_AccessMode{Mode: csi.VolumeCapability_AccessMode_SINGLE_NODE_WRITER},
	}
	request := func(c class, src, target string) *csi.NodePublishVolumeRequest {
		vctx := map[string]string{"csi.storage.k8s.io/ephemeral": "true", "source": src, "subDir": "job-1"}
		if o := c.params["mountOptions"]; o != "" {
			vctx["mountOptions"] = o
		}
		return &csi.NodePublishVolumeRequest{VolumeId: "csi-inline-" + c.name, TargetPath: target, VolumeCapability: capab, VolumeContext: vctx, Secrets: c.secrets}
	}
	for _, c := range inline {
		t.Run(c.name, func(t *testing.T) {
			src := nfsSource("node/inline/allowed")
			refused := nfsSource("node")
			if c.secrets != nil {
				src, refused = smbSource("node/inline/allowed"), smbSource("node")
			}
			target := filepath.Join(dir, "pods", c.name, "mount")
			if err := os.MkdirAll(filepath.Dir(target), 0o750); err != nil {
				t.Fatal(err)
			}
			// Outside the allow-list: refused, with nothing mounted.
			_, err := n.NodePublishVolume(ctx, request(c, refused, target))
			if status.Code(err) != codes.PermissionDenied || !strings.Contains(err.Error(), "--inline-sources") {
				t.Fatalf("inline volume outside the allow-list: %v, want PermissionDenied", err)
			}
			if isMounted(t, target) {
				t.Fatal("a refused inline volume was mounted")
			}

			req := request(c, src, target)
			if _, err := n.NodePublishVolume(ctx, req); err != nil {
				t.Fatalf("inline volume: %v", err)
			}
			if !isMounted(t, target) {
				t.Fatal("the inline volume is not mounted at the target")
			}
			if err := os.WriteFile(filepath.Join(target, "out.txt"), []byte("inline "+c.name), 0o644); err != nil {
				t.Fatalf("write through the inline volume: %v", err)
			}
			if b, err := os.ReadFile(filepath.Join(c.data, "job-1", "out.txt")); err != nil || string(b) != "inline "+c.name {
				t.Fatalf("the file is not on the server: %q %v", b, err)
			}
			st, err := n.NodeGetVolumeStats(ctx, &csi.NodeGetVolumeStatsRequest{VolumeId: req.VolumeId, VolumePath: target})
			if err != nil || len(st.GetUsage()) == 0 {
				t.Fatalf("stats of the inline volume: %v %v", st, err)
			}
			// The kubelet republishes inline volumes too (requiresRepublish):
			// the mount stays as it is, nothing is stacked on it.
			before := superOptions(t, target)
			if _, err := n.NodePublishVolume(ctx, req); err != nil {
				t.Fatalf("republish: %v", err)
			}
			if got := len(mountsAt(t, target)); got != 1 || superOptions(t, target) != before {
				t.Fatalf("after a republish: %d mounts at the target, options %s (were %s)", got, superOptions(t, target), before)
			}
			for range 2 {
				if _, err := n.NodeUnpublishVolume(ctx, &csi.NodeUnpublishVolumeRequest{VolumeId: req.VolumeId, TargetPath: target}); err != nil {
					t.Fatalf("unpublish: %v", err)
				}
			}
			if isMounted(t, target) {
				t.Fatal("the inline volume is still mounted after unpublish")
			}
			if _, err := os.Stat(target); !os.IsNotExist(err) {
				t.Fatalf("target left behind: %v", err)
			}
			if b, err := os.ReadFile(filepath.Join(c.data, "job-1", "out.txt")); err != nil || string(b) != "inline "+c.name {
				t.Fatalf("unpublish touched the data: %q %v", b, err)
			}
		})
	}
}

// TestNodeNeverFollowsALinkOnTheShare: a pod with the allowed inline
// volume nfs://nas/export/allowed runs `ln -s .. esc` in it; a second
// inline volume with subDir esc (or esc/allowed/job-1), or a static PV
// with that subDir, would mount the directory above the allowed one (with
// an absolute link, the whole export): mountd resolves a MOUNT path with
// realpath and the NFSv4 client follows links while it walks the path. The
// node now mounts the source an administrator wrote and opens the rest
// itself, through no link: each is refused with InvalidArgument and
// nothing is mounted, while the allowed directory still mounts.
//
// NFS only: Samba resolves links inside a share for its clients (with
// unix extensions off, as in this suite and in Samba's default for SMB2),
// so a link there looks like a directory to every client, ours included.
// docs/security.md asks for `follow symlinks = no` on such shares;
// Windows servers show links to the client, which the node then refuses.
func TestNodeNeverFollowsALinkOnTheShare(t *testing.T) {
	requireMounts(t)
	allowed := nfsSource("node/links/allowed")
	n, dir := inlineNode(t, "links-node", allowed)
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	data := filepath.Join(env.nfs.Data, "node", "links")
	if err := os.MkdirAll(filepath.Join(data, "allowed", "job-1"), 0o777); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(data, "private.txt"), []byte("not the tenant's"), 0o644); err != nil {
		t.Fatal(err)
	}
	for name, to := range map[string]string{"esc": "..", "abs": env.nfs.Data} {
		if err := os.Symlink(to, filepath.Join(data, "allowed", name)); err != nil && !os.IsExist(err) {
			t.Fatal(err)
		}
	}
	for _, vers := range []string{"3", "4.1"} {
		capab := &csi.VolumeCapability{
			AccessType: &csi.VolumeCapability_Mount{Mount: &csi.VolumeCapability_MountVolume{MountFlags: []string{"vers=" + vers}}},
			AccessMode: &csi.VolumeCapability_AccessMode{Mode: csi.VolumeCapability_AccessMode_SINGLE_NODE_WRITER},
		}
		t.Run("nfs"+vers, func(t *testing.T) {
			target := filepath.Join(dir, "pods", vers, "mount")
			if err := os.MkdirAll(filepath.Dir(target), 0o750); err != nil {
				t.Fatal(err)
			}
			inline := func(sub string) *csi.NodePublishVolumeRequest {
				return &csi.NodePublishVolumeRequest{VolumeId: "csi-links-" + vers, TargetPath: target, VolumeCapability: capab,
					VolumeContext: map[string]string{"csi.storage.k8s.io/ephemeral": "true", "source": allowed, "subDir": sub}}
			}
			for _, sub := range []string{"esc", "esc/allowed/job-1", "abs", "abs/node/links"} {
				_, err := n.NodePublishVolume(ctx, inline(sub))
				if status.Code(err) != codes.InvalidArgument || !strings.Contains(err.Error(), "symbolic link") {
					t.Errorf("inline subDir %s through a link: %v, want InvalidArgument", sub, err)
				}
				if isMounted(t, target) {
					t.Fatalf("inline subDir %s: the link was followed and mounted", sub)
				}
			}
			// A static PV whose subDir a tenant could replace by a link.
			staging := filepath.Join(dir, "staging-"+vers)
			_, err := n.NodeStageVolume(ctx, &csi.NodeStageVolumeRequest{VolumeId: "static-links-" + vers, StagingTargetPath: staging, VolumeCapability: capab,
				VolumeContext: map[string]string{"source": allowed, "subDir": "esc"}})
			if status.Code(err) != codes.InvalidArgument || isMounted(t, staging) {
				t.Errorf("static PV with subDir through a link: %v, want InvalidArgument and no mount", err)
			}
			// The allowed directory still mounts, and a missing one is
			// NotFound.
			if _, err := n.NodePublishVolume(ctx, inline("job-1/missing")); status.Code(err) != codes.NotFound {
				t.Errorf("inline subDir that does not exist: %v, want NotFound", err)
			}
			if _, err := n.NodePublishVolume(ctx, inline("job-1")); err != nil {
				t.Fatalf("the allowed inline volume: %v", err)
			}
			if err := os.WriteFile(filepath.Join(target, "out"), []byte(vers), 0o644); err != nil {
				t.Fatal(err)
			}
			if b, err := os.ReadFile(filepath.Join(data, "allowed", "job-1", "out")); err != nil || string(b) != vers {
				t.Fatalf("not written through to the allowed directory: %q %v", b, err)
			}
			if _, err := n.NodeUnpublishVolume(ctx, &csi.NodeUnpublishVolumeRequest{VolumeId: "csi-links-" + vers, TargetPath: target}); err != nil {
				t.Fatal(err)
			}
			if isMounted(t, target) {
				t.Fatal("still mounted after unpublish")
			}
		})
	}
	// No share root is left mounted on the node.
	if out, err := os.ReadFile("/proc/self/mountinfo"); err == nil && strings.Contains(string(out), "fileshare-csi-roots") {
		t.Fatalf("a share root is still mounted:\n%s", out)
	}
}

// inlineNode starts a node plugin of its own that allows inline volumes of
// the allowed sources, and returns its client and directory.
func inlineNode(t *testing.T, nodeID, allowed string) (csi.NodeClient, string) {
	t.Helper()
	dir := t.TempDir()
	d, err := harness.StartDriver(env.binary, dir, "--mode", "node", "--nodeid", nodeID,
		"--state-dir", filepath.Join(dir, "state"), "--inline-sources", allowed, "--v", "5")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(d.Stop)
	return csi.NewNodeClient(d.Conn), dir
}
