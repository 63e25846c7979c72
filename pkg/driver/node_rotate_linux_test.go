//go:build linux

package driver

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/container-storage-interface/spec/lib/go/csi"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/fileshare-csi/fileshare-csi/pkg/mounter"
	"github.com/fileshare-csi/fileshare-csi/pkg/share"
	"github.com/fileshare-csi/fileshare-csi/pkg/source"
)

// rotatingMounter records the passwords handed to live mounts. The kernel's
// side is tested with real CIFS mounts in the VM (TestSMBPasswordRotation);
// this is the node's own decision of when to hand one over.
type rotatingMounter struct {
	mounter.Mounter
	rotated []string // path=password
	err     error
}

func (r *rotatingMounter) RotateCredentials(_ context.Context, path string, c share.Credentials) error {
	if r.err != nil {
		return r.err
	}
	r.rotated = append(r.rotated, path+"="+c.Password)
	return nil
}

// serverPasswords stands in for the server's user-space logon check.
type serverPasswords struct {
	accepts map[string]bool
	checked []string
}

func (s *serverPasswords) verify(_ context.Context, _ source.Source, c share.Credentials) error {
	s.checked = append(s.checked, c.Password)
	if !s.accepts[c.Password] {
		return fmt.Errorf("session setup: logon failure: %w", fs.ErrPermission)
	}
	return nil
}

func TestRepublishHandsAChangedSMBPasswordToTheLiveMount(t *testing.T) {
	d, _, calls := newNodeUnderTest(t)
	rot := &rotatingMounter{Mounter: d.cfg.Mounter}
	d.cfg.Mounter = rot
	server := &serverPasswords{accepts: map[string]bool{"old-Pa55": true}}
	d.cfg.VerifyCredentials = server.verify
	ctx := context.Background()
	const id = "v1#smb://fs/share/base#ns/claim#delete"
	staging := filepath.Join(t.TempDir(), "staging")
	creds := func(user, pw string) map[string]string { return map[string]string{"username": user, "password": pw} }
	if _, err := d.NodeStageVolume(ctx, &csi.NodeStageVolumeRequest{
		VolumeId: id, StagingTargetPath: staging, Secrets: creds("alice", "old-Pa55"),
		VolumeCapability: capability(csi.VolumeCapability_AccessMode_MULTI_NODE_MULTI_WRITER, nil, ""),
	}); err != nil {
		t.Fatal(err)
	}
	target := filepath.Join(t.TempDir(), "target")
	publish := func(secrets map[string]string) error {
		_, err := d.NodePublishVolume(ctx, &csi.NodePublishVolumeRequest{
			VolumeId: id, StagingTargetPath: staging, TargetPath: target, Secrets: secrets,
			VolumeCapability: capability(csi.VolumeCapability_AccessMode_MULTI_NODE_MULTI_WRITER, nil, ""),
		})
		return err
	}
	if err := publish(creds("alice", "old-Pa55")); err != nil {
		t.Fatal(err)
	}
	if err := publish(creds("alice", "old-Pa55")); err != nil || len(rot.rotated) != 0 || len(server.checked) != 0 {
		t.Fatalf("republish with the same Secret: err %v, rotated %v, checked %v", err, rot.rotated, server.checked)
	}

	// The Secret changes before the server does: the mount keeps its
	// password and the republish reports why.
	err := publish(creds("alice", "new-Pa55"))
	if status.Code(err) != codes.PermissionDenied || !strings.Contains(err.Error(), "keeps its mount") {
		t.Fatalf("a password the server refuses: %v", err)
	}
	if strings.Contains(err.Error(), "new-Pa55") || strings.Contains(err.Error(), "old-Pa55") {
		t.Fatalf("the error carries a password: %v", err)
	}
	if len(rot.rotated) != 0 {
		t.Fatalf("a refused password reached the mount: %v", rot.rotated)
	}
	wantMetric(t, d, "fileshare_csi_node_credential_rotations_total", map[string]string{"result": "refused"}, 1)

	// The server has it now: the next republish hands it over, once.
	server.accepts["new-Pa55"] = true
	for range 2 {
		if err := publish(creds("alice", "new-Pa55")); err != nil {
			t.Fatal(err)
		}
	}
	if want := []string{staging + "=new-Pa55"}; fmt.Sprint(rot.rotated) != fmt.Sprint(want) {
		t.Fatalf("rotated %v, want %v", rot.rotated, want)
	}
	if st, err := d.nodeState().Staged(staging); err != nil || st.Request.Credentials.Password != "new-Pa55" {
		t.Fatalf("the staging record does not hold the new password: %v", err)
	}
	wantMetric(t, d, "fileshare_csi_node_credential_rotations_total", map[string]string{"result": "ok"}, 1)
	if len(*calls) != 1 {
		t.Fatalf("rotation mounted again: %+v", *calls)
	}

	// Another user cannot be handed to a live mount.
	err = publish(creds("bob", "new-Pa55"))
	if status.Code(err) != codes.FailedPrecondition || !strings.Contains(err.Error(), "restart the pods") {
		t.Fatalf("a Secret naming another user: %v", err)
	}

	// A kernel without password2 says so, and what to do.
	rot.err = fmt.Errorf("the kernel (6.1.0) cannot give a live SMB mount a new password: %w", mounter.ErrUnsupported)
	server.accepts["newer-Pa55"] = true
	err = publish(creds("alice", "newer-Pa55"))
	if status.Code(err) != codes.FailedPrecondition || !strings.Contains(err.Error(), "restart the pods") {
		t.Fatalf("rotation on a kernel that cannot: %v", err)
	}
	wantMetric(t, d, "fileshare_csi_node_credential_rotations_total", map[string]string{"result": "failed"}, 1)
}

// A pod that starts while the Secret is ahead of the server gets its
// volume: the mount works with the password it has.
func TestFirstPublishIsNotHeldBackByARefusedPassword(t *testing.T) {
	d, _, _ := newNodeUnderTest(t)
	rot := &rotatingMounter{Mounter: d.cfg.Mounter}
	d.cfg.Mounter = rot
	server := &serverPasswords{accepts: map[string]bool{"old-Pa55": true}}
	d.cfg.VerifyCredentials = server.verify
	ctx := context.Background()
	const id = "v1#smb://fs/share/base#ns/claim#delete"
	staging := filepath.Join(t.TempDir(), "staging")
	capab := capability(csi.VolumeCapability_AccessMode_MULTI_NODE_MULTI_WRITER, nil, "")
	if _, err := d.NodeStageVolume(ctx, &csi.NodeStageVolumeRequest{VolumeId: id, StagingTargetPath: staging, VolumeCapability: capab,
		Secrets: map[string]string{"username": "alice", "password": "old-Pa55"}}); err != nil {
		t.Fatal(err)
	}
	if _, err := d.NodePublishVolume(ctx, &csi.NodePublishVolumeRequest{VolumeId: id, StagingTargetPath: staging, VolumeCapability: capab,
		TargetPath: filepath.Join(t.TempDir(), "target"), Secrets: map[string]string{"username": "alice", "password": "new-Pa55"}}); err != nil {
		t.Fatalf("first publish: %v", err)
	}
	if len(server.checked) != 1 || len(rot.rotated) != 0 {
		t.Fatalf("checked %v, rotated %v", server.checked, rot.rotated)
	}
}

// NFS has no passwords: a publish Secret on an NFS volume changes nothing.
func TestRepublishOfNFSNeverRotates(t *testing.T) {
	d, _, _ := newNodeUnderTest(t)
	rot := &rotatingMounter{Mounter: d.cfg.Mounter}
	d.cfg.Mounter = rot
	server := &serverPasswords{}
	d.cfg.VerifyCredentials = server.verify
	ctx := context.Background()
	const id = "v1#nfs://10.0.0.5/export#pvc-1#delete"
	staging := filepath.Join(t.TempDir(), "staging")
	capab := capability(csi.VolumeCapability_AccessMode_MULTI_NODE_MULTI_WRITER, nil, "")
	if _, err := d.NodeStageVolume(ctx, &csi.NodeStageVolumeRequest{VolumeId: id, StagingTargetPath: staging, VolumeCapability: capab}); err != nil {
		t.Fatal(err)
	}
	target := filepath.Join(t.TempDir(), "target")
	for range 2 {
		if _, err := d.NodePublishVolume(ctx, &csi.NodePublishVolumeRequest{VolumeId: id, StagingTargetPath: staging, VolumeCapability: capab,
			TargetPath: target, Secrets: map[string]string{"username": "x", "password": "y"}}); err != nil {
			t.Fatal(err)
		}
	}
	if len(server.checked) != 0 || len(rot.rotated) != 0 {
		t.Fatalf("checked %v, rotated %v", server.checked, rot.rotated)
	}
}

// The server changed the password and dropped the session before the
// Secret followed: the mount fails every look until the kernel has the new
// password, so the republish hands it over before it looks.
func TestRepublishRotatesAMountThatNoLongerLogsOn(t *testing.T) {
	d, fake, calls := newNodeUnderTest(t)
	rot := &rotatingMounter{Mounter: d.cfg.Mounter}
	d.cfg.Mounter = rot
	server := &serverPasswords{accepts: map[string]bool{"old-Pa55": true}}
	d.cfg.VerifyCredentials = server.verify
	ctx := context.Background()
	const id = "v1#smb://fs/share/base#ns/claim#delete"
	staging := filepath.Join(t.TempDir(), "staging")
	target := filepath.Join(t.TempDir(), "target")
	capab := capability(csi.VolumeCapability_AccessMode_MULTI_NODE_MULTI_WRITER, nil, "")
	if _, err := d.NodeStageVolume(ctx, &csi.NodeStageVolumeRequest{VolumeId: id, StagingTargetPath: staging, VolumeCapability: capab,
		Secrets: map[string]string{"username": "alice", "password": "old-Pa55"}}); err != nil {
		t.Fatal(err)
	}
	publish := func(pw string) error {
		_, err := d.NodePublishVolume(ctx, &csi.NodePublishVolumeRequest{VolumeId: id, StagingTargetPath: staging, VolumeCapability: capab,
			TargetPath: target, Secrets: map[string]string{"username": "alice", "password": pw}})
		return err
	}
	if err := publish("old-Pa55"); err != nil {
		t.Fatal(err)
	}
	server.accepts = map[string]bool{"new-Pa55": true}
	fake.MountCheckErrors = map[string]error{staging: &os.PathError{Op: "statfs", Path: staging, Err: syscall.EACCES}}
	err := publish("new-Pa55")
	if len(rot.rotated) != 1 {
		t.Fatalf("the failing mount did not get the new password (republish: %v)", err)
	}
	if err == nil {
		t.Fatal("a republish of a mount that still fails its look succeeded")
	}
	fake.MountCheckErrors = nil
	if err := publish("new-Pa55"); err != nil || len(rot.rotated) != 1 || len(*calls) != 1 {
		t.Fatalf("once the mount logs on again: %v, rotated %v, mounts %d", err, rot.rotated, len(*calls))
	}
}
