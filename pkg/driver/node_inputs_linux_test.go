//go:build linux

package driver

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/container-storage-interface/spec/lib/go/csi"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

// mount.cifs copies the device's share and prefix path into the kernel's
// option string unescaped ("ip=A,unc=\\host\<share>,<options>,prefixpath=<prefix>"),
// so a comma in an SMB source's share or directory adds options that
// CheckMountOptions never saw (cruid=0,sec=krb5: the node's own Kerberos
// identity; ip=: another server; guest; sep; ...). A static PV's source (or
// volume handle) must be refused, not mounted.
func TestACommaInAnSMBSourceNeverReachesMountCifs(t *testing.T) {
	for _, src := range []string{
		"smb://fs/share,cruid=0,sec=krb5",      // share name: lands right after unc=
		"smb://fs/share/base,sec=krb5,cruid=0", // base: lands in prefixpath=, after every other option
		"smb://fs/share/base,ip=10.9.9.9",
	} {
		t.Run(src, func(t *testing.T) {
			d, _, calls := newNodeUnderTest(t)
			_, err := d.NodeStageVolume(context.Background(), &csi.NodeStageVolumeRequest{
				VolumeId:          "static-pv",
				StagingTargetPath: filepath.Join(t.TempDir(), "staging"),
				VolumeCapability:  capability(csi.VolumeCapability_AccessMode_MULTI_NODE_MULTI_WRITER, nil, ""),
				VolumeContext:     map[string]string{ContextSource: src, ContextSubDir: "dir"},
				Secrets:           map[string]string{"username": "alice", "password": "pw"},
			})
			for _, c := range *calls {
				if strings.Contains(c.device, ",") {
					t.Errorf("mount(8) was given device %q: mount.cifs passes the share and prefix path to the kernel unescaped", c.device)
				}
			}
			if status.Code(err) != codes.InvalidArgument {
				t.Errorf("stage of %s: %v, want InvalidArgument", src, err)
			}
		})
	}
}

// The request log masks a volume ID's user info (logredact.go: "a static
// PV's handle is written by hand and may hold a source with user info"),
// and volume.ParseID quotes IDs redacted; the node's own errors quote the
// raw ID, and the kubelet shows them in the pod's events.
func TestAVolumeIDsPasswordIsNeverInANodeError(t *testing.T) {
	const id = "smb://alice:hunter2@fs/share"
	d, _, _ := newNodeUnderTest(t)
	dir := t.TempDir()
	_, err := d.NodePublishVolume(context.Background(), &csi.NodePublishVolumeRequest{
		VolumeId: id, StagingTargetPath: filepath.Join(dir, "staging"), TargetPath: filepath.Join(dir, "target"),
		VolumeCapability: capability(csi.VolumeCapability_AccessMode_MULTI_NODE_MULTI_WRITER, nil, ""),
		VolumeContext:    map[string]string{ContextSource: "smb://fs/share"},
	})
	if err == nil || strings.Contains(err.Error(), "hunter2") {
		t.Errorf("publish of a volume not staged: %v, want an error without the volume ID's password", err)
	}
	_, err = d.NodeGetVolumeStats(context.Background(), &csi.NodeGetVolumeStatsRequest{VolumeId: id, VolumePath: filepath.Join(dir, "nowhere")})
	if err == nil || strings.Contains(err.Error(), "hunter2") {
		t.Errorf("stats of a volume not staged: %v, want an error without the volume ID's password", err)
	}
	_, err = d.NodeExpandVolume(context.Background(), &csi.NodeExpandVolumeRequest{VolumeId: id, VolumePath: filepath.Join(dir, "nowhere")})
	if err == nil || strings.Contains(err.Error(), "hunter2") {
		t.Errorf("expand of a volume not staged: %v, want an error without the volume ID's password", err)
	}
	unlock, err := d.nodeLocks.lockVolume(id)
	if err != nil {
		t.Fatal(err)
	}
	defer unlock()
	if _, err := d.nodeLocks.lockVolume(id); err == nil || strings.Contains(err.Error(), "hunter2") {
		t.Errorf("a second lock of the volume: %v, want an error without the volume ID's password", err)
	}
}
