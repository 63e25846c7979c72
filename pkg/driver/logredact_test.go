package driver

import (
	"strings"
	"testing"

	"github.com/container-storage-interface/spec/lib/go/csi"
	"github.com/csi-addons/spec/lib/go/volumegroup"
	"google.golang.org/protobuf/proto"
)

const leak = "S3cretLeak"

func mountCapability(flags ...string) *csi.VolumeCapability {
	return &csi.VolumeCapability{
		AccessType: &csi.VolumeCapability_Mount{Mount: &csi.VolumeCapability_MountVolume{MountFlags: flags}},
		AccessMode: &csi.VolumeCapability_AccessMode{Mode: csi.VolumeCapability_AccessMode_MULTI_NODE_MULTI_WRITER},
	}
}

func TestForLogMasksSecretsWhereverUsersPutThem(t *testing.T) {
	sensitive := map[string]string{
		"mountOptions": "vers=3.0,password=" + leak + ",addr=10.1.2.3",
		"source":       "smb://alice:" + leak + "@127.0.0.1/share",
	}
	for name, msg := range map[string]proto.Message{
		"CreateVolume": &csi.CreateVolumeRequest{
			Name: "pvc-1", Parameters: sensitive, Secrets: map[string]string{"password": leak},
			VolumeCapabilities: []*csi.VolumeCapability{mountCapability("ro"), mountCapability("vers=3.0", "USERNAME=bob,pass="+leak)},
		},
		"ValidateVolumeCapabilities": &csi.ValidateVolumeCapabilitiesRequest{
			VolumeId: "v1#nfs://h/e#x#delete", VolumeContext: sensitive, Parameters: sensitive,
			VolumeCapabilities: []*csi.VolumeCapability{mountCapability("password=" + leak)},
		},
		"ValidateVolumeCapabilitiesResponse": &csi.ValidateVolumeCapabilitiesResponse{Confirmed: &csi.ValidateVolumeCapabilitiesResponse_Confirmed{
			VolumeContext: sensitive, Parameters: sensitive, VolumeCapabilities: []*csi.VolumeCapability{mountCapability("cred=" + leak)},
		}},
		"NodeStageVolume": &csi.NodeStageVolumeRequest{
			VolumeId: "v1#nfs://h/e#x#delete", StagingTargetPath: "/s", VolumeContext: sensitive,
			VolumeCapability: mountCapability("passwd=" + leak), Secrets: map[string]string{"password": leak},
		},
		"NodePublishVolume": &csi.NodePublishVolumeRequest{
			VolumeId: "v1#nfs://h/e#x#delete", TargetPath: "/t", VolumeContext: sensitive,
			VolumeCapability: mountCapability("domain=" + leak),
		},
		"ControllerPublishVolume": &csi.ControllerPublishVolumeRequest{VolumeContext: sensitive},
		"DeleteVolume":            &csi.DeleteVolumeRequest{VolumeId: "v1#smb://alice:" + leak + "@h/share#x#delete"},
		"NodeUnstageVolume":       &csi.NodeUnstageVolumeRequest{VolumeId: "v1#smb://alice:" + leak + "@h/share#x#delete", StagingTargetPath: "/s"},
		"CreateVolumeResponse":    &csi.CreateVolumeResponse{Volume: &csi.Volume{VolumeContext: sensitive}},
	} {
		orig := proto.Clone(msg)
		got := forLog(msg)
		for _, s := range []string{leak, "bob", "10.1.2.3", "alice"} {
			if strings.Contains(got, s) {
				t.Errorf("%s: logged %q: %s", name, s, got)
			}
		}
		if !proto.Equal(orig, msg) {
			t.Errorf("%s: forLog changed the message it logged", name)
		}
	}
}

func TestForLogKeepsWhatIsNotSecret(t *testing.T) {
	got := forLog(&csi.NodeStageVolumeRequest{
		VolumeId: "v1#nfs://h/e#x#delete", VolumeContext: map[string]string{"mountOptions": "vers=4.1,hard", "source": "nfs://h/e", "subDir": "a"},
		VolumeCapability: mountCapability("nolock", "password="+leak),
	})
	for _, s := range []string{"vers=4.1,hard", "nfs://h/e", "nolock", "password=***", "v1#nfs://h/e#x#delete"} {
		if !strings.Contains(got, s) {
			t.Errorf("%q missing from %s", s, got)
		}
	}
	if got := forLog(&csi.NodeStageVolumeRequest{Secrets: map[string]string{"password": leak}}); strings.Contains(got, leak) {
		t.Errorf("csi_secret field logged: %s", got)
	}
}

// The CSI-Addons requests carry secrets too; they are logged like CSI's.
func TestForLogStripsAddonsSecrets(t *testing.T) {
	for _, m := range []proto.Message{
		&volumegroup.CreateVolumeGroupRequest{Name: "g", Secrets: map[string]string{"password": "hunter2-addons"}},
		&volumegroup.ModifyVolumeGroupMembershipRequest{VolumeGroupId: "vg1#x", Secrets: map[string]string{"password": "hunter2-addons"}},
		&volumegroup.DeleteVolumeGroupRequest{VolumeGroupId: "vg1#x", Secrets: map[string]string{"password": "hunter2-addons"}},
		&volumegroup.ListVolumeGroupsRequest{Secrets: map[string]string{"password": "hunter2-addons"}},
		&volumegroup.ControllerGetVolumeGroupRequest{VolumeGroupId: "vg1#x", Secrets: map[string]string{"password": "hunter2-addons"}},
	} {
		if out := forLog(m); strings.Contains(out, "hunter2-addons") {
			t.Errorf("%T logged with its secret: %s", m, out)
		}
	}
}

// A static PV's handle is written by hand and may hold a source with user
// info; forLog masks it in volume_id, but the same handle reaches the
// controller as a snapshot's source_volume_id (the PV's handle, from the
// external-snapshotter) and a group snapshot's source_volume_ids, and is
// logged there as it is, before CreateSnapshot refuses it.
func TestForLogMasksUserInfoInSourceVolumeIDs(t *testing.T) {
	handle := "v1#smb://alice:" + leak + "@h/share#x#delete"
	for name, msg := range map[string]proto.Message{
		"CreateSnapshot":            &csi.CreateSnapshotRequest{Name: "snap-1", SourceVolumeId: handle},
		"ListSnapshots":             &csi.ListSnapshotsRequest{SourceVolumeId: handle},
		"CreateVolumeGroupSnapshot": &csi.CreateVolumeGroupSnapshotRequest{Name: "g", SourceVolumeIds: []string{handle}},
	} {
		if got := forLog(msg); strings.Contains(got, leak) {
			t.Errorf("%s: logged the password: %s", name, got)
		}
	}
}
