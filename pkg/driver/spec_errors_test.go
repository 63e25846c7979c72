package driver

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/container-storage-interface/spec/lib/go/csi"
	"github.com/csi-addons/spec/lib/go/volumegroup"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/fileshare-csi/fileshare-csi/pkg/share/memshare"
)

// Answers the CSI spec's error tables name, for inputs csi-sanity does not
// send.

// An access mode the spec does not name is an unsupported field
// (INVALID_ARGUMENT): no volume is made for it, ValidateVolumeCapabilities
// confirms nothing, and an expansion that names it is refused. (It was
// taken as a mode like any other: the volume was made and confirmed.)
func TestAnAccessModeTheSpecDoesNotNameIsRefused(t *testing.T) {
	ms := memshare.New()
	d := memshareDriver(t, ms)
	ctx := context.Background()
	a := createOn(t, d, "pvc-a", "delete")
	odd := []*csi.VolumeCapability{{
		AccessType: &csi.VolumeCapability_Mount{Mount: &csi.VolumeCapability_MountVolume{}},
		AccessMode: &csi.VolumeCapability_AccessMode{Mode: 42},
	}}
	_, err := d.CreateVolume(ctx, &csi.CreateVolumeRequest{Name: "pvc-odd", Parameters: map[string]string{"source": "nfs://127.0.0.1/export/base"}, VolumeCapabilities: odd})
	if status.Code(err) != codes.InvalidArgument || !strings.Contains(err.Error(), "42") {
		t.Fatalf("CreateVolume with access mode 42: %v, want InvalidArgument naming the mode", err)
	}
	for _, e := range ms.Dump() {
		if strings.HasPrefix(e.Path, "pvc-odd") {
			t.Fatalf("the refused CreateVolume left %s on the share", e.Path)
		}
	}
	res, err := d.ValidateVolumeCapabilities(ctx, &csi.ValidateVolumeCapabilitiesRequest{VolumeId: a, VolumeCapabilities: odd})
	if err != nil || res.GetConfirmed() != nil || res.GetMessage() == "" {
		t.Fatalf("ValidateVolumeCapabilities with access mode 42: %v, %v; want not confirmed, with a message", res, err)
	}
	_, err = d.ControllerExpandVolume(ctx, &csi.ControllerExpandVolumeRequest{VolumeId: a, CapacityRange: &csi.CapacityRange{RequiredBytes: 1 << 20}, VolumeCapability: odd[0]})
	if status.Code(err) != codes.InvalidArgument {
		t.Fatalf("ControllerExpandVolume with access mode 42: %v, want InvalidArgument", err)
	}
}

// GetCapacity for a topology segment no volume of the class can be used
// in answers 0: an NFS class's volumes are accessible on Linux nodes only.
// (The share's free space was answered for Windows nodes too, and
// csi-provisioner's capacity tracking would have the scheduler place
// claims there.)
func TestGetCapacityOfAnNFSClassForAWindowsTopologyIsZero(t *testing.T) {
	d := memshareDriver(t, memshare.New())
	ctx := context.Background()
	params := map[string]string{"source": "nfs://127.0.0.1/export/base"}
	for _, c := range []struct {
		segments map[string]string
		some     bool
	}{
		{map[string]string{TopologyKeyOS: "windows"}, false},
		{map[string]string{TopologyKeyOS: "linux"}, true},
		{map[string]string{"other": "x"}, true},
		{nil, true},
	} {
		req := &csi.GetCapacityRequest{Parameters: params}
		if c.segments != nil {
			req.AccessibleTopology = &csi.Topology{Segments: c.segments}
		}
		res, err := d.GetCapacity(ctx, req)
		if err != nil {
			t.Fatalf("%v: %v", c.segments, err)
		}
		if got := res.GetAvailableCapacity() > 0; got != c.some {
			t.Errorf("GetCapacity of an NFS class for topology %v: %d bytes, want some: %v", c.segments, res.GetAvailableCapacity(), c.some)
		}
	}
}

// A starting_token this driver never gave is the spec's "Invalid
// starting_token" (ABORTED, the CO starts over), also when it has the
// driver's prefix. (An "after:" token was taken for a key, and answered
// an empty last page: the CO took the listing for complete.) One the
// driver gave goes on being taken.
func TestAStartingTokenThisDriverNeverGaveIsAborted(t *testing.T) {
	ms := memshare.New()
	d := memshareDriver(t, ms)
	ctx := context.Background()
	a := createOn(t, d, "pvc-a", "delete")
	for _, name := range []string{"s1", "s2"} {
		if _, err := d.CreateSnapshot(ctx, &csi.CreateSnapshotRequest{Name: name, SourceVolumeId: a}); err != nil {
			t.Fatal(err)
		}
	}
	first, err := d.ListSnapshots(ctx, &csi.ListSnapshotsRequest{MaxEntries: 1})
	if err != nil || first.GetNextToken() == "" {
		t.Fatalf("first page: %v, %v", first, err)
	}
	if next, err := d.ListSnapshots(ctx, &csi.ListSnapshotsRequest{MaxEntries: 1, StartingToken: first.GetNextToken()}); err != nil || len(next.GetEntries()) != 1 {
		t.Fatalf("the page after the driver's own token: %v, %v", next, err)
	}
	for _, tok := range []string{"bogus", "after:", "after:bogus", "after:20260101T000000.000000000Z", "after:20260101T000000Z/x", "after:x/0123456789abcdef"} {
		_, err := d.ListSnapshots(ctx, &csi.ListSnapshotsRequest{StartingToken: tok})
		if status.Code(err) != codes.Aborted {
			t.Errorf("ListSnapshots from %q: %v, want Aborted", tok, err)
		}
		_, err = d.VolumeGroups().ListVolumeGroups(ctx, &volumegroup.ListVolumeGroupsRequest{StartingToken: tok})
		if status.Code(err) != codes.Aborted {
			t.Errorf("ListVolumeGroups from %q: %v, want Aborted", tok, err)
		}
	}
}

// Volumes whose classes put them on other shares cannot be snapshotted
// (or grouped) together: the spec's FAILED_PRECONDITION, "Cannot snapshot
// multiple volumes together" (CSI-Addons CreateVolumeGroup: "Volumes
// cannot be grouped together"), not INVALID_ARGUMENT. Changing an existing
// group's members to another share's volume stays INVALID_ARGUMENT
// (CSI-Addons ModifyVolumeGroupMembership: "Volumes incompatible").
func TestVolumesOnOtherSharesCannotBeGroupedIsAFailedPrecondition(t *testing.T) {
	d := memshareDriver(t, memshare.New())
	ctx := context.Background()
	a := createOn(t, d, "pvc-a", "delete")
	other := "v2#nfs://10.0.0.9/other#pvc-q#delete#0123456789abcdef"
	_, err := d.CreateVolumeGroupSnapshot(ctx, &csi.CreateVolumeGroupSnapshotRequest{Name: "g", SourceVolumeIds: []string{a, other}})
	if status.Code(err) != codes.FailedPrecondition || !strings.Contains(err.Error(), "one share") {
		t.Errorf("CreateVolumeGroupSnapshot across shares: %v, want FailedPrecondition", err)
	}
	vg := d.VolumeGroups()
	_, err = vg.CreateVolumeGroup(ctx, &volumegroup.CreateVolumeGroupRequest{Name: "g", VolumeIds: []string{a, other}})
	if status.Code(err) != codes.FailedPrecondition {
		t.Errorf("CreateVolumeGroup across shares: %v, want FailedPrecondition", err)
	}
	g, err := vg.CreateVolumeGroup(ctx, &volumegroup.CreateVolumeGroupRequest{Name: "g", VolumeIds: []string{a}})
	if err != nil {
		t.Fatal(err)
	}
	_, err = vg.ModifyVolumeGroupMembership(ctx, &volumegroup.ModifyVolumeGroupMembershipRequest{VolumeGroupId: g.GetVolumeGroup().GetVolumeGroupId(), VolumeIds: []string{a, other}})
	if status.Code(err) != codes.InvalidArgument {
		t.Errorf("ModifyVolumeGroupMembership across shares: %v, want InvalidArgument", err)
	}
}

// CreateVolume of a name that exists, with other parameters, is the spec's
// "Volume already exists but is incompatible" (ALREADY_EXISTS), and
// nothing of the volume changes. (It answered OK with an ID of its own:
// one directory had two IDs, one deleting it and one retaining it, and a
// volume context with other mount options.) The message names the keys,
// never their values. The same parameters again, with the keys the
// sidecars add changed, are the same volume; so is a volume whose record
// was written before parameters were kept.
func TestCreateVolumeOfANameWithOtherParametersIsAlreadyExists(t *testing.T) {
	ms := memshare.New()
	d := memshareDriver(t, ms)
	ctx := context.Background()
	a := createOn(t, d, "pvc-a", "delete")
	for _, p := range []map[string]string{
		{"source": "nfs://127.0.0.1/export/base", "onDelete": "retain"},
		{"source": "nfs://127.0.0.1/export/base", "onDelete": "delete", "mountOptions": "nosuid,actimeo=17"},
		{"source": "nfs://127.0.0.1/export/base", "onDelete": "delete", "mountPermissions": "0700"},
	} {
		res, err := d.CreateVolume(ctx, &csi.CreateVolumeRequest{Name: "pvc-a", Parameters: p, VolumeCapabilities: reviewCaps()})
		if status.Code(err) != codes.AlreadyExists {
			t.Errorf("CreateVolume pvc-a with %v: %v (%s), want AlreadyExists", p, err, res.GetVolume().GetVolumeId())
			continue
		}
		if strings.Contains(err.Error(), "actimeo") || strings.Contains(err.Error(), "retain") {
			t.Errorf("the refusal shows a parameter's value: %v", err)
		}
	}
	same := map[string]string{"source": "nfs://127.0.0.1/export/base", "onDelete": "delete",
		"csi.storage.k8s.io/pvc/name": "claim", "csi.storage.k8s.io/pvc/namespace": "ns"}
	res, err := d.CreateVolume(ctx, &csi.CreateVolumeRequest{Name: "pvc-a", Parameters: same, VolumeCapabilities: reviewCaps()})
	if err != nil || res.GetVolume().GetVolumeId() != a {
		t.Fatalf("the same parameters again: %v, %v; want %s", res.GetVolume().GetVolumeId(), err, a)
	}
	// A record written before parameters were kept matches any.
	for _, e := range ms.Dump() {
		if strings.HasPrefix(e.Path, ".fileshare-csi/volumes/") && !e.Dir {
			b, err := ms.Client().ReadFile(ctx, e.Path)
			if err != nil {
				t.Fatal(err)
			}
			var rec map[string]any
			if err := json.Unmarshal(b, &rec); err != nil {
				t.Fatal(err)
			}
			if rec["parameters"] == nil {
				t.Fatalf("the record keeps no parameters: %s", b)
			}
			delete(rec, "parameters")
			if b, err = json.Marshal(rec); err != nil {
				t.Fatal(err)
			}
			if err := ms.WriteFileDirect(e.Path, b); err != nil {
				t.Fatal(err)
			}
		}
	}
	old := map[string]string{"source": "nfs://127.0.0.1/export/base", "onDelete": "delete", "mountOptions": "nosuid"}
	if _, err := d.CreateVolume(ctx, &csi.CreateVolumeRequest{Name: "pvc-a", Parameters: old, VolumeCapabilities: reviewCaps()}); err != nil {
		t.Fatalf("a volume recorded without parameters, asked for again: %v", err)
	}
}
