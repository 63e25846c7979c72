package driver

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"

	"github.com/container-storage-interface/spec/lib/go/csi"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"k8s.io/mount-utils"
)

func inlineRequest(target, src, subDir string, secrets map[string]string) *csi.NodePublishVolumeRequest {
	vctx := map[string]string{ContextEphemeral: "true", ContextSource: src, "csi.storage.k8s.io/pod.name": "p"}
	if subDir != "" {
		vctx[ContextSubDir] = subDir
	}
	return &csi.NodePublishVolumeRequest{
		VolumeId: "csi-0123abcd", TargetPath: target, VolumeContext: vctx, Secrets: secrets,
		VolumeCapability: capability(csi.VolumeCapability_AccessMode_SINGLE_NODE_WRITER, nil, ""),
	}
}

func TestInlineVolumesAreOffUnlessTheNodeAllowsTheirSource(t *testing.T) {
	d, fake, calls := newNodeUnderTest(t)
	target := filepath.Join(t.TempDir(), "mount")
	ctx := context.Background()

	_, err := d.NodePublishVolume(ctx, inlineRequest(target, "nfs://nas/exports/scratch", "", nil))
	if status.Code(err) != codes.FailedPrecondition || !strings.Contains(err.Error(), "--inline-sources") {
		t.Fatalf("inline volume on a node without an allow-list: %v, want FailedPrecondition naming --inline-sources", err)
	}
	d.cfg.InlineSources, err = ParseInlineSources("nfs://nas/exports/scratch")
	if err != nil {
		t.Fatal(err)
	}
	for _, src := range []string{"nfs://nas/exports/other", "nfs://nas/exports", "smb://nas/exports/scratch"} {
		_, err := d.NodePublishVolume(ctx, inlineRequest(target, src, "", map[string]string{"username": "u", "password": "Secret-Pw"}))
		if status.Code(err) != codes.PermissionDenied || !strings.Contains(err.Error(), "nfs://nas/exports/scratch") {
			t.Errorf("inline volume of %s: %v, want PermissionDenied naming the allowed sources", src, err)
		}
		if err != nil && strings.Contains(err.Error(), "Secret-Pw") {
			t.Errorf("the refusal quotes the password: %v", err)
		}
	}
	if _, err := d.NodePublishVolume(ctx, inlineRequest(target, "", "", nil)); status.Code(err) != codes.InvalidArgument {
		t.Errorf("inline volume without a source: %v, want InvalidArgument", err)
	}
	if len(*calls) != 0 {
		t.Fatalf("refused inline volumes were mounted: %+v", *calls)
	}

	// Allowed: mounted at the target itself, once, and taken down by unpublish.
	req := inlineRequest(target, "nfs://nas/exports/scratch", "job-1", nil)
	for range 2 {
		if _, err := d.NodePublishVolume(ctx, req); err != nil {
			t.Fatalf("allowed inline volume: %v", err)
		}
	}
	if len(*calls) != 1 || (*calls)[0].fstype != "nfs" {
		t.Fatalf("inline mount: %+v, want one NFS mount", *calls)
	}
	// The allowed root is what the server resolves; job-1 the node opens.
	wantBound(t, fake, (*calls)[0], "nas:/exports/scratch", target, "job-1")
	if pub, err := d.nodeState().Published(target); err != nil || !pub.Ephemeral {
		t.Fatalf("publish record of the inline volume: %+v %v", pub, err)
	}
	wantMetric(t, d, "fileshare_csi_node_mounts", map[string]string{"protocol": "nfs", "state": "healthy"}, 1)
	if _, err := d.NodeUnpublishVolume(ctx, &csi.NodeUnpublishVolumeRequest{VolumeId: req.VolumeId, TargetPath: target}); err != nil {
		t.Fatal(err)
	}
	if mps, _ := fake.List(); len(mps) != 0 {
		t.Fatalf("still mounted after unpublish: %v", mps)
	}
	if _, err := os.Stat(target); !os.IsNotExist(err) {
		t.Fatalf("target left behind: %v", err)
	}
	if _, err := d.nodeState().Staged(target); err == nil {
		t.Fatal("the inline volume's mount record outlived it")
	}
	wantMetric(t, d, "fileshare_csi_node_mounts", map[string]string{"protocol": "nfs", "state": "healthy"}, 0)
}

func TestInlineSMBVolumeTakesTheSecretAndTheAttributesMountOptions(t *testing.T) {
	d, fake, calls := newNodeUnderTest(t)
	var err error
	if d.cfg.InlineSources, err = ParseInlineSources("smb://fs/team"); err != nil {
		t.Fatal(err)
	}
	req := inlineRequest(filepath.Join(t.TempDir(), "mount"), "smb://fs/team", "reports", map[string]string{"username": "u", "password": "Secret-Pw"})
	req.VolumeContext[ContextMountOptions] = "vers=3.0,mfsymlinks"
	req.Readonly = true
	if _, err := d.NodePublishVolume(context.Background(), req); err != nil {
		t.Fatal(err)
	}
	c := (*calls)[0]
	if c.fstype != "cifs" || !slices.Contains(c.options, "mfsymlinks") || !slices.Contains(c.options, "ro") {
		t.Fatalf("inline SMB mount %+v", c)
	}
	wantBound(t, fake, c, "//fs/team", req.TargetPath, "reports")
	if !strings.Contains(c.credentials, "Secret-Pw") || slices.ContainsFunc(c.options, func(o string) bool { return strings.Contains(o, "Secret-Pw") }) {
		t.Fatalf("the password must go in the credentials file only: %+v", c)
	}
}

// An inline NFS volume names a directory the driver did not make (another
// team's, perhaps): the pod's fsGroup does not take it over on the server
// (no chgrp, no g+rwxs), as a claim's volume root gets. An SMB inline
// volume still gets it as the mount's gid=, which changes nothing there.
func TestInlineNFSVolumeLeavesTheDirectorysGroupAlone(t *testing.T) {
	d, _, calls := newNodeUnderTest(t)
	var err error
	if d.cfg.InlineSources, err = ParseInlineSources("nfs://nas/exports/scratch,smb://fs/team"); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	target := filepath.Join(t.TempDir(), "mount")
	req := inlineRequest(target, "nfs://nas/exports/scratch", "other-team", nil)
	req.VolumeCapability = capability(csi.VolumeCapability_AccessMode_SINGLE_NODE_WRITER, nil, "4321")
	if _, err := d.NodePublishVolume(ctx, req); err != nil {
		t.Fatal(err)
	}
	st, err := d.nodeState().Staged(target)
	if err != nil || st.Request.MountGroup != "" {
		t.Fatalf("the inline NFS volume's record asks for group %q (%v), want none", st.Request.MountGroup, err)
	}
	if fi, err := os.Stat(target); err != nil || fi.Sys().(*syscall.Stat_t).Gid == 4321 || fi.Mode()&os.ModeSetgid != 0 {
		t.Fatalf("the directory was given to the pod's group: %v, %v", fi.Mode(), err)
	}
	smbTarget := filepath.Join(t.TempDir(), "smb")
	req = inlineRequest(smbTarget, "smb://fs/team", "x", map[string]string{"username": "u", "password": "p"})
	req.VolumeCapability = capability(csi.VolumeCapability_AccessMode_SINGLE_NODE_WRITER, nil, "4321")
	if _, err := d.NodePublishVolume(ctx, req); err != nil {
		t.Fatal(err)
	}
	if last := (*calls)[len(*calls)-1]; !slices.Contains(last.options, "gid=4321") {
		t.Errorf("the SMB inline volume's options %v lack gid=4321", last.options)
	}
}

// An inline volume whose publish record was never saved (the plugin died
// between its mount and that record) is still taken down as an inline
// volume, found by its mount record at the target: the mount and that
// record, with the credentials it keeps, go with it.
func TestInlineVolumeWithoutItsPublishRecordIsTakenDownWhole(t *testing.T) {
	d, fake, _ := newNodeUnderTest(t)
	var err error
	if d.cfg.InlineSources, err = ParseInlineSources("smb://fs/team"); err != nil {
		t.Fatal(err)
	}
	req := inlineRequest(filepath.Join(t.TempDir(), "mount"), "smb://fs/team", "reports", map[string]string{"username": "u", "password": "Secret-Pw"})
	if _, err := d.NodePublishVolume(context.Background(), req); err != nil {
		t.Fatal(err)
	}
	d.nodeState().DropPublished(req.TargetPath)
	if _, err := d.NodeUnpublishVolume(context.Background(), &csi.NodeUnpublishVolumeRequest{VolumeId: req.VolumeId, TargetPath: req.TargetPath}); err != nil {
		t.Fatal(err)
	}
	if st, err := d.nodeState().Staged(req.TargetPath); err == nil {
		t.Errorf("the inline volume's mount record (and its credentials) stayed: %+v", st.Request.Source)
	}
	if mps, _ := fake.List(); slices.ContainsFunc(mps, func(m mount.MountPoint) bool { return m.Path == req.TargetPath }) {
		t.Errorf("the target is still mounted: %+v", mps)
	}
}

// An inline volume whose records cannot be written answers Unavailable
// (the kubelet then unpublishes it when the pod goes, or publishes again),
// never OK: its records are what takes it down whole and repairs it.
func TestInlineVolumeWhoseRecordsCannotBeWrittenIsCalledAgain(t *testing.T) {
	d, fake, calls := newNodeUnderTest(t)
	var err error
	if d.cfg.InlineSources, err = ParseInlineSources("nfs://nas/exports/scratch"); err != nil {
		t.Fatal(err)
	}
	req := inlineRequest(filepath.Join(t.TempDir(), "mount"), "nfs://nas/exports/scratch", "x", nil)
	unblock := blockStateDir(t, d)
	_, err = d.NodePublishVolume(context.Background(), req)
	if status.Code(err) != codes.Unavailable {
		t.Fatalf("inline publish with no record written: %v, want Unavailable", err)
	}
	unblock()
	if _, err := d.NodePublishVolume(context.Background(), req); err != nil {
		t.Fatalf("publish again: %v", err)
	}
	if len(*calls) != 1 {
		t.Fatalf("the publish again mounted again: %+v", *calls)
	}
	if pub, err := d.nodeState().Published(req.TargetPath); err != nil || !pub.Ephemeral {
		t.Fatalf("no inline publish record after the publish again: %+v, %v", pub, err)
	}
	if _, err := d.NodeUnpublishVolume(context.Background(), &csi.NodeUnpublishVolumeRequest{VolumeId: req.VolumeId, TargetPath: req.TargetPath}); err != nil {
		t.Fatal(err)
	}
	if mps, _ := fake.List(); len(mps) != 0 {
		t.Fatalf("mounts left: %+v", mps)
	}
}
