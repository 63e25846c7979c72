//go:build linux

package integration

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/container-storage-interface/spec/lib/go/csi"
	"github.com/csi-addons/spec/lib/go/identity"
	"github.com/csi-addons/spec/lib/go/volumegroup"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
)

// dialAddons connects to the driver's CSI-Addons endpoint, through the
// clients generated from the CSI-Addons spec (github.com/csi-addons/spec).
func dialAddons(t *testing.T) *grpc.ClientConn {
	t.Helper()
	return dialEndpoint(t, env.addonsEndpoint)
}

func memberIDs(g *volumegroup.VolumeGroup) []string {
	var out []string
	for _, v := range g.GetVolumes() {
		out = append(out, v.GetVolumeId())
	}
	slices.Sort(out)
	return out
}

func sortedIDs(ids ...string) []string {
	out := slices.Clone(ids)
	slices.Sort(out)
	return out
}

func TestAddonsIdentity(t *testing.T) {
	ic := identity.NewIdentityClient(dialAddons(t))
	ctx := context.Background()
	id, err := ic.GetIdentity(ctx, &identity.GetIdentityRequest{})
	if err != nil {
		t.Fatal(err)
	}
	if id.GetName() != "fileshare.csi.dev" || id.GetVendorVersion() == "" {
		t.Fatalf("GetIdentity: %v", id)
	}
	probe, err := ic.Probe(ctx, &identity.ProbeRequest{})
	if err != nil || !probe.GetReady().GetValue() {
		t.Fatalf("Probe: %v, %v", probe, err)
	}
	caps, err := ic.GetCapabilities(ctx, &identity.GetCapabilitiesRequest{})
	if err != nil {
		t.Fatal(err)
	}
	var service bool
	var vg []identity.Capability_VolumeGroup_Type
	for _, c := range caps.GetCapabilities() {
		if c.GetService().GetType() == identity.Capability_Service_CONTROLLER_SERVICE {
			service = true
		}
		if c.GetVolumeGroup() != nil {
			vg = append(vg, c.GetVolumeGroup().GetType())
		}
	}
	want := []identity.Capability_VolumeGroup_Type{
		identity.Capability_VolumeGroup_VOLUME_GROUP,
		identity.Capability_VolumeGroup_LIMIT_VOLUME_TO_ONE_VOLUME_GROUP,
		identity.Capability_VolumeGroup_DO_NOT_ALLOW_VG_TO_DELETE_VOLUMES,
		identity.Capability_VolumeGroup_MODIFY_VOLUME_GROUP,
		identity.Capability_VolumeGroup_GET_VOLUME_GROUP,
		identity.Capability_VolumeGroup_LIST_VOLUME_GROUPS,
	}
	if !service || !slices.Equal(vg, want) {
		t.Fatalf("capabilities: controller service %v, volume group %v, want %v", service, vg, want)
	}
}

func TestVolumeGroups(t *testing.T) {
	c := controller(t)
	vc := volumegroup.NewControllerClient(dialAddons(t))
	protocols(t, func(t *testing.T, params, secrets map[string]string, base string) {
		ctx := context.Background()
		var ids []string
		for _, name := range []string{"vg-a", "vg-b", "vg-c"} {
			ids = append(ids, create(t, c, name, params, secrets).GetVolumeId())
		}
		a, b, cc := ids[0], ids[1], ids[2]

		// Create with members, and again: the same group.
		resp, err := vc.CreateVolumeGroup(ctx, &volumegroup.CreateVolumeGroupRequest{Name: "team", VolumeIds: []string{a, b}, Secrets: secrets})
		if err != nil {
			t.Fatalf("CreateVolumeGroup: %v", err)
		}
		g := resp.GetVolumeGroup()
		if !strings.HasPrefix(g.GetVolumeGroupId(), "vg1#") || !slices.Equal(memberIDs(g), sortedIDs(a, b)) {
			t.Fatalf("group: %v", g)
		}
		again, err := vc.CreateVolumeGroup(ctx, &volumegroup.CreateVolumeGroupRequest{Name: "team", VolumeIds: []string{b, a}, Secrets: secrets})
		if err != nil || again.GetVolumeGroup().GetVolumeGroupId() != g.GetVolumeGroupId() {
			t.Fatalf("a repeated CreateVolumeGroup: %v, %v; want the group %s", again, err, g.GetVolumeGroupId())
		}
		_, err = vc.CreateVolumeGroup(ctx, &volumegroup.CreateVolumeGroupRequest{Name: "team", VolumeIds: []string{a}, Secrets: secrets})
		wantCode(t, "the same name with other volumes", err, codes.AlreadyExists)

		// An empty group names its share in the parameters.
		_, err = vc.CreateVolumeGroup(ctx, &volumegroup.CreateVolumeGroupRequest{Name: "empty", Secrets: secrets})
		wantCode(t, "an empty group without a share", err, codes.InvalidArgument)
		empty, err := vc.CreateVolumeGroup(ctx, &volumegroup.CreateVolumeGroupRequest{Name: "empty", Parameters: params, Secrets: secrets})
		if err != nil || len(empty.GetVolumeGroup().GetVolumes()) != 0 {
			t.Fatalf("empty group: %v, %v", empty, err)
		}
		emptyID := empty.GetVolumeGroup().GetVolumeGroupId()

		// A volume is in one group at most.
		_, err = vc.ModifyVolumeGroupMembership(ctx, &volumegroup.ModifyVolumeGroupMembershipRequest{VolumeGroupId: emptyID, VolumeIds: []string{a}, Secrets: secrets})
		wantCode(t, "adding a member of another group", err, codes.FailedPrecondition)

		// Add, remove, replace: the members are what the call names.
		for _, step := range []struct {
			what    string
			members []string
		}{
			{"add", []string{a, b, cc}},
			{"remove", []string{a, cc}},
			{"replace", []string{b}},
			{"again", []string{b}},
		} {
			m, err := vc.ModifyVolumeGroupMembership(ctx, &volumegroup.ModifyVolumeGroupMembershipRequest{VolumeGroupId: g.GetVolumeGroupId(), VolumeIds: step.members, Secrets: secrets})
			if err != nil {
				t.Fatalf("%s: %v", step.what, err)
			}
			if got := memberIDs(m.GetVolumeGroup()); !slices.Equal(got, sortedIDs(step.members...)) {
				t.Fatalf("%s: members %v, want %v", step.what, got, sortedIDs(step.members...))
			}
			get, err := vc.ControllerGetVolumeGroup(ctx, &volumegroup.ControllerGetVolumeGroupRequest{VolumeGroupId: g.GetVolumeGroupId(), Secrets: secrets})
			if err != nil || !slices.Equal(memberIDs(get.GetVolumeGroup()), sortedIDs(step.members...)) {
				t.Fatalf("%s: ControllerGetVolumeGroup %v, %v", step.what, get, err)
			}
		}
		// a left "team": it may join "empty" now.
		if _, err := vc.ModifyVolumeGroupMembership(ctx, &volumegroup.ModifyVolumeGroupMembershipRequest{VolumeGroupId: emptyID, VolumeIds: []string{a}, Secrets: secrets}); err != nil {
			t.Fatalf("adding a volume that left its group: %v", err)
		}

		// Bad input.
		forged := strings.Replace(a, a[len(a)-4:], "0000", 1)
		if forged == a {
			forged = a[:len(a)-4] + "1111"
		}
		_, err = vc.ModifyVolumeGroupMembership(ctx, &volumegroup.ModifyVolumeGroupMembershipRequest{VolumeGroupId: g.GetVolumeGroupId(), VolumeIds: []string{forged}, Secrets: secrets})
		wantCode(t, "a volume ID with a wrong UID", err, codes.NotFound)
		_, err = vc.ModifyVolumeGroupMembership(ctx, &volumegroup.ModifyVolumeGroupMembershipRequest{VolumeGroupId: g.GetVolumeGroupId(), VolumeIds: []string{"other-driver-volume-17"}, Secrets: secrets})
		wantCode(t, "another driver's volume ID", err, codes.NotFound)
		_, err = vc.ModifyVolumeGroupMembership(ctx, &volumegroup.ModifyVolumeGroupMembershipRequest{VolumeGroupId: "vg1#nothing", Secrets: secrets})
		wantCode(t, "a malformed group ID", err, codes.NotFound)
		_, err = vc.ControllerGetVolumeGroup(ctx, &volumegroup.ControllerGetVolumeGroupRequest{VolumeGroupId: g.GetVolumeGroupId()[:len(g.GetVolumeGroupId())-4] + "0000", Secrets: secrets})
		wantCode(t, "a group ID with a wrong UID", err, codes.NotFound)
		_, err = vc.CreateVolumeGroup(ctx, &volumegroup.CreateVolumeGroupRequest{Name: "twice", VolumeIds: []string{cc, cc}, Secrets: secrets})
		wantCode(t, "a volume named twice", err, codes.InvalidArgument)

		// List, a page at a time.
		var listed []string
		token := ""
		for {
			l, err := vc.ListVolumeGroups(ctx, &volumegroup.ListVolumeGroupsRequest{MaxEntries: 1, StartingToken: token, Secrets: secrets})
			if err != nil {
				t.Fatalf("ListVolumeGroups: %v", err)
			}
			if len(l.GetEntries()) > 1 {
				t.Fatalf("a page of %d entries, max_entries 1", len(l.GetEntries()))
			}
			for _, e := range l.GetEntries() {
				listed = append(listed, e.GetVolumeGroup().GetVolumeGroupId())
			}
			if token = l.GetNextToken(); token == "" {
				break
			}
		}
		for _, want := range []string{g.GetVolumeGroupId(), emptyID} {
			if !slices.Contains(listed, want) {
				t.Fatalf("ListVolumeGroups: %v lacks %s", listed, want)
			}
		}
		_, err = vc.ListVolumeGroups(ctx, &volumegroup.ListVolumeGroupsRequest{StartingToken: "not-a-token", Secrets: secrets})
		wantCode(t, "a starting token the driver never gave", err, codes.Aborted)

		// A deleted member drops out of its group's reports.
		extra := create(t, c, "vg-d", params, secrets).GetVolumeId()
		if _, err := vc.ModifyVolumeGroupMembership(ctx, &volumegroup.ModifyVolumeGroupMembershipRequest{VolumeGroupId: g.GetVolumeGroupId(), VolumeIds: []string{b, extra}, Secrets: secrets}); err != nil {
			t.Fatal(err)
		}
		if _, err := c.DeleteVolume(ctx, &csi.DeleteVolumeRequest{VolumeId: extra, Secrets: secrets}); err != nil {
			t.Fatal(err)
		}
		get, err := vc.ControllerGetVolumeGroup(ctx, &volumegroup.ControllerGetVolumeGroupRequest{VolumeGroupId: g.GetVolumeGroupId(), Secrets: secrets})
		if err != nil || !slices.Equal(memberIDs(get.GetVolumeGroup()), []string{b}) {
			t.Fatalf("after DeleteVolume of a member: %v, %v; want only %s", get, err, b)
		}

		// Delete: the record goes, the volumes stay; a second delete is fine.
		for _, id := range []string{g.GetVolumeGroupId(), emptyID, g.GetVolumeGroupId()} {
			if _, err := vc.DeleteVolumeGroup(ctx, &volumegroup.DeleteVolumeGroupRequest{VolumeGroupId: id, Secrets: secrets}); err != nil {
				t.Fatalf("DeleteVolumeGroup %s: %v", id, err)
			}
		}
		_, err = vc.ControllerGetVolumeGroup(ctx, &volumegroup.ControllerGetVolumeGroupRequest{VolumeGroupId: g.GetVolumeGroupId(), Secrets: secrets})
		wantCode(t, "a deleted group", err, codes.NotFound)
		for _, name := range []string{"vg-a", "vg-b", "vg-c"} {
			if _, err := os.Stat(filepath.Join(base, name)); err != nil {
				t.Fatalf("deleting the groups touched volume %s: %v", name, err)
			}
		}
		for _, id := range ids {
			if _, err := c.DeleteVolume(ctx, &csi.DeleteVolumeRequest{VolumeId: id, Secrets: secrets}); err != nil {
				t.Fatalf("DeleteVolume: %v", err)
			}
		}
	})
}

// TestVolumeGroupOneShare: a group's volumes are on one share, the one its
// record is kept on.
func TestVolumeGroupOneShare(t *testing.T) {
	c := controller(t)
	vc := volumegroup.NewControllerClient(dialAddons(t))
	ctx := context.Background()
	base := "vg-one-share"
	for _, dir := range []string{filepath.Join(env.nfs.Data, base), filepath.Join(env.samba.Data, base)} {
		if err := os.MkdirAll(dir, 0o777); err != nil {
			t.Fatal(err)
		}
		if err := os.Chmod(dir, 0o777); err != nil {
			t.Fatal(err)
		}
	}
	onNFS := create(t, c, "vg-nfs", map[string]string{"source": nfsSource(base)}, nil).GetVolumeId()
	onSMB := create(t, c, "vg-smb", map[string]string{"source": smbSource(base)}, smbSecrets()).GetVolumeId()
	_, err := vc.CreateVolumeGroup(ctx, &volumegroup.CreateVolumeGroupRequest{Name: "mixed", VolumeIds: []string{onNFS, onSMB}, Secrets: smbSecrets()})
	wantCode(t, "volumes on two shares", err, codes.FailedPrecondition)
	_, err = vc.CreateVolumeGroup(ctx, &volumegroup.CreateVolumeGroupRequest{Name: "elsewhere", VolumeIds: []string{onNFS},
		Parameters: map[string]string{"source": smbSource(base)}, Secrets: smbSecrets()})
	wantCode(t, "a volume not on the share the parameters name", err, codes.InvalidArgument)
	g, err := vc.CreateVolumeGroup(ctx, &volumegroup.CreateVolumeGroupRequest{Name: "nfs-only", VolumeIds: []string{onNFS}})
	if err != nil {
		t.Fatal(err)
	}
	_, err = vc.ModifyVolumeGroupMembership(ctx, &volumegroup.ModifyVolumeGroupMembershipRequest{VolumeGroupId: g.GetVolumeGroup().GetVolumeGroupId(), VolumeIds: []string{onSMB}, Secrets: smbSecrets()})
	wantCode(t, "adding a volume of another share", err, codes.InvalidArgument)
	if _, err := vc.DeleteVolumeGroup(ctx, &volumegroup.DeleteVolumeGroupRequest{VolumeGroupId: g.GetVolumeGroup().GetVolumeGroupId()}); err != nil {
		t.Fatal(err)
	}
	for _, v := range []struct {
		id      string
		secrets map[string]string
	}{{onNFS, nil}, {onSMB, smbSecrets()}} {
		if _, err := c.DeleteVolume(ctx, &csi.DeleteVolumeRequest{VolumeId: v.id, Secrets: v.secrets}); err != nil {
			t.Fatal(err)
		}
	}
}

// A group snapshot whose class names a volume group (volumeGroupID) is of
// exactly that group's members: the volumes a label selector picked must be
// them, no more and no less.
func TestGroupSnapshotOfAVolumeGroup(t *testing.T) {
	c := controller(t)
	gc := csi.NewGroupControllerClient(dial(t))
	vc := volumegroup.NewControllerClient(dialAddons(t))
	protocols(t, func(t *testing.T, params, secrets map[string]string, base string) {
		ctx := context.Background()
		var ids []string
		for _, name := range []string{"vgs-a", "vgs-b", "vgs-c"} {
			ids = append(ids, create(t, c, name, params, secrets).GetVolumeId())
			writeFile(t, filepath.Join(base, name, "data"), "contents of "+name)
			if !isNFS(t) {
				must(t, os.Chmod(filepath.Join(base, name, "data"), 0o666))
			}
		}
		resp, err := vc.CreateVolumeGroup(ctx, &volumegroup.CreateVolumeGroupRequest{Name: "db", VolumeIds: ids[:2], Secrets: secrets})
		if err != nil {
			t.Fatalf("CreateVolumeGroup: %v", err)
		}
		vgID := resp.GetVolumeGroup().GetVolumeGroupId()
		snap := func(name string, members []string, params map[string]string) (*csi.VolumeGroupSnapshot, error) {
			r, err := gc.CreateVolumeGroupSnapshot(ctx, &csi.CreateVolumeGroupSnapshotRequest{Name: name, SourceVolumeIds: members, Parameters: params, Secrets: secrets})
			return r.GetGroupSnapshot(), err
		}
		of := map[string]string{"volumeGroupID": vgID}
		_, err = snap("too-many", ids, of)
		wantCode(t, "a group snapshot of more than the volume group", err, codes.InvalidArgument)
		_, err = snap("too-few", ids[:1], of)
		wantCode(t, "a group snapshot of less than the volume group", err, codes.InvalidArgument)
		_, err = snap("forged", ids[:2], map[string]string{"volumeGroupID": vgID[:len(vgID)-4] + "0000"})
		wantCode(t, "a volume group ID with a wrong UID", err, codes.NotFound)
		_, err = snap("unknown", ids[:2], map[string]string{"volumeGroup": vgID})
		wantCode(t, "an unknown parameter", err, codes.InvalidArgument)

		var group *csi.VolumeGroupSnapshot
		for deadline := time.Now().Add(3 * time.Minute); ; time.Sleep(500 * time.Millisecond) {
			if group, err = snap("db-nightly", []string{ids[1], ids[0]}, of); err != nil {
				t.Fatalf("CreateVolumeGroupSnapshot of the volume group's members: %v", err)
			}
			if group.GetReadyToUse() || time.Now().After(deadline) {
				break
			}
		}
		if !group.GetReadyToUse() || len(group.GetSnapshots()) != 2 {
			t.Fatalf("group snapshot: %v", group)
		}
		restored := createFrom(t, c, "vgs-restored", params, secrets, fromSnapshot(group.GetSnapshots()[0].GetSnapshotId()))
		src := group.GetSnapshots()[0].GetSourceVolumeId()
		name := "vgs-a"
		if src == ids[1] {
			name = "vgs-b"
		}
		mustRead(t, filepath.Join(base, "vgs-restored", "data"), "contents of "+name)
		if _, err := gc.DeleteVolumeGroupSnapshot(ctx, &csi.DeleteVolumeGroupSnapshotRequest{GroupSnapshotId: group.GetGroupSnapshotId(), Secrets: secrets}); err != nil {
			t.Fatal(err)
		}
		if _, err := vc.DeleteVolumeGroup(ctx, &volumegroup.DeleteVolumeGroupRequest{VolumeGroupId: vgID, Secrets: secrets}); err != nil {
			t.Fatal(err)
		}
		for _, id := range append(ids, restored.GetVolumeId()) {
			deleteVol(t, c, id, secrets)
		}
	})
}
