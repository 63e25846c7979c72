//go:build linux

package driver

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/container-storage-interface/spec/lib/go/csi"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

// volume_mount_group is the pod's fsGroup, a group ID. Anything else is
// the request's to fix (InvalidArgument), refused before anything is
// mounted: a value past 32 bits reached chown(2) cut to its low 32 bits
// (4294967296 gave an NFS volume's root to group 0, root's, with g+rwxs),
// 4294967295 is chown's "leave the group" (the root was made group-writable
// for whatever group it had), a leading 0 is octal to the kernel's CIFS
// parser (gid=010 is group 8), and a word failed an SMB stage as Internal.
func TestVolumeMountGroupIsAGroupID(t *testing.T) {
	for _, tc := range []struct{ src, group string }{
		{"nfs://nas/export", "4294967296"},
		{"nfs://nas/export", "4294967295"},
		{"nfs://nas/export", "-1"},
		{"nfs://nas/export", "staff"},
		{"smb://fs/share", "staff"},
		{"smb://fs/share", "4294967295"},
		{"smb://fs/share", "010"}, // gid=010 is group 8 to the kernel
	} {
		t.Run(tc.src+" "+tc.group, func(t *testing.T) {
			d, _, calls := newNodeUnderTest(t)
			staging := filepath.Join(t.TempDir(), "staging")
			if err := os.Mkdir(staging, 0o750); err != nil {
				t.Fatal(err)
			}
			if err := os.Chown(staging, -1, 4321); err != nil {
				t.Skipf("cannot chgrp (not root?): %v", err)
			}
			_, err := d.NodeStageVolume(context.Background(), &csi.NodeStageVolumeRequest{
				VolumeId: "v", StagingTargetPath: staging,
				VolumeCapability: capability(csi.VolumeCapability_AccessMode_MULTI_NODE_MULTI_WRITER, nil, tc.group),
				VolumeContext:    map[string]string{ContextSource: tc.src},
				Secrets:          map[string]string{"username": "alice", "password": "pw"},
			})
			if status.Code(err) != codes.InvalidArgument || !strings.Contains(err.Error(), "group") {
				t.Errorf("stage with volume_mount_group %q: %v, want InvalidArgument about the group", tc.group, err)
			}
			if len(*calls) != 0 {
				t.Errorf("mount(8) was run: %+v", *calls)
			}
			fi, err := os.Stat(staging)
			if err != nil {
				t.Fatal(err)
			}
			if gid := fi.Sys().(*syscall.Stat_t).Gid; gid != 4321 || fi.Mode()&os.ModeSetgid != 0 {
				t.Errorf("the staging directory is now group %d, mode %v", gid, fi.Mode())
			}
		})
	}
}

// An SMB volume without a node-stage Secret is the request's to fix: the
// error says so, with InvalidArgument, not Internal (a fault of the
// driver's).
func TestSMBStageWithoutASecretIsInvalidArgument(t *testing.T) {
	d, _, calls := newNodeUnderTest(t)
	_, err := d.NodeStageVolume(context.Background(), &csi.NodeStageVolumeRequest{
		VolumeId: "v", StagingTargetPath: filepath.Join(t.TempDir(), "staging"),
		VolumeCapability: capability(csi.VolumeCapability_AccessMode_MULTI_NODE_MULTI_WRITER, nil, ""),
		VolumeContext:    map[string]string{ContextSource: "smb://fs/share"},
	})
	if status.Code(err) != codes.InvalidArgument || !strings.Contains(err.Error(), "secret") {
		t.Errorf("SMB stage without a Secret: %v, want InvalidArgument naming the secret", err)
	}
	if len(*calls) != 0 {
		t.Errorf("mount(8) was run: %+v", *calls)
	}
}

// mount(8) gets the options joined with commas, mount.cifs copies an empty
// one through, and the kernel's CIFS parser reads ",," as a comma inside
// the option before it (a password's escaped comma). An empty mount flag,
// or one that ends in a comma, so swallowed the option the node adds next
// into the value of the last one: "symlinkroot=/x,,seal" is the path
// "/x,seal", and the encryption the class requires was gone; a Kerberos
// mount's cruid= would go the same way (root's tickets). Mount flags are
// held to the rules of the mountOptions attribute: no empty option, no
// space or control character.
func TestAnEmptyMountFlagNeverSwallowsTheNodesOptions(t *testing.T) {
	for _, flags := range [][]string{
		{"symlinkroot=/x", ""},
		{"symlinkroot=/x,"},
		{",nodfs"},
		{"vers=3.0\nseal"},
	} {
		t.Run(strings.Join(flags, "|"), func(t *testing.T) {
			d, _, calls := newNodeUnderTest(t)
			_, err := d.NodeStageVolume(context.Background(), &csi.NodeStageVolumeRequest{
				VolumeId: "v", StagingTargetPath: filepath.Join(t.TempDir(), "staging"),
				VolumeCapability: capability(csi.VolumeCapability_AccessMode_MULTI_NODE_MULTI_WRITER, flags, ""),
				VolumeContext:    map[string]string{ContextSource: "smb://fs/share?encryption=required"},
				Secrets:          map[string]string{"username": "alice", "password": "pw"},
			})
			for _, c := range *calls {
				if joined := strings.Join(c.options, ","); strings.Contains(joined, ",,") || strings.ContainsAny(joined, "\n") {
					t.Errorf("mount(8) was given the options %q", joined)
				}
			}
			if status.Code(err) != codes.InvalidArgument {
				t.Errorf("stage with mount flags %q: %v, want InvalidArgument", flags, err)
			}
		})
	}
}
