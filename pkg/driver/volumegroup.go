package driver

import (
	"context"
	"errors"

	"github.com/container-storage-interface/spec/lib/go/csi"
	"github.com/csi-addons/spec/lib/go/volumegroup"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/fileshare-csi/fileshare-csi/pkg/source"
	"github.com/fileshare-csi/fileshare-csi/pkg/state"
	"github.com/fileshare-csi/fileshare-csi/pkg/volume"
)

// VolumeGroups serves the CSI-Addons volumegroup.Controller service. A
// volume group is a named, recorded set of this driver's volumes on one
// share (state.VolumeGroup): joining or leaving one changes the group's
// record, never a volume's directory, and deleting a group leaves its
// volumes as they are (DO_NOT_ALLOW_VG_TO_DELETE_VOLUMES). A volume is in
// at most one group (LIMIT_VOLUME_TO_ONE_VOLUME_GROUP), so that a group
// snapshot of a group's members never overlaps another group's.
type VolumeGroups struct {
	volumegroup.UnimplementedControllerServer
	d *Driver
}

// VolumeGroups returns the CSI-Addons volume group service of this driver.
func (d *Driver) VolumeGroups() *VolumeGroups { return &VolumeGroups{d: d} }

// members parses the volume IDs a request names, each with parse: all this
// driver's, each once, all on one share, where the record of the group
// (what, for the message) lies. Each volume is located once, here, for the
// whole call. Volumes on more than one share are refused with apart, the
// code the RPC's spec gives volumes that cannot be in one group:
// FAILED_PRECONDITION when a group is made (CSI spec, CreateVolumeGroupSnapshot
// Errors, "Cannot snapshot multiple volumes together"; CSI-Addons,
// CreateVolumeGroup, "Volumes cannot be grouped together": the volumes'
// classes put them on other shares), INVALID_ARGUMENT when a group's
// members are changed (CSI-Addons, ModifyVolumeGroupMembership, "Volumes
// incompatible or not supported").
func (d *controller) members(ctx context.Context, ids []string, parse func(string) (volume.Volume, error), what string, apart codes.Code) ([]located, []string, error) {
	var out []located
	var vids []string
	seen := map[string]bool{}
	for _, id := range ids {
		vol, err := parse(id)
		if err != nil {
			return nil, nil, err
		}
		if seen[vol.ID()] {
			return nil, nil, status.Errorf(codes.InvalidArgument, "volume %s is named twice", vol.SubDir)
		}
		seen[vol.ID()] = true
		l := d.locate(ctx, vol)
		if len(out) > 0 && !l.sameShare(out[0]) {
			return nil, nil, status.Errorf(apart, "the volumes of a %s must be on one share: %s is on %s, %s on %s",
				what, out[0].vol.SubDir, out[0].root.String(), vol.SubDir, l.root.String())
		}
		out = append(out, l)
		vids = append(vids, vol.ID())
	}
	return out, vids, nil
}

// groupMemberID parses a volume group member's ID: one this driver never
// issued names no volume (an empty one too, as it always has here).
func groupMemberID(id string) (volume.Volume, error) {
	vol, err := volume.ParseID(id)
	if err != nil {
		return vol, fail(state.ErrNotFound, "no such volume: %v", err)
	}
	return vol, nil
}

// membersExist looks up each member's record on s's share.
func (s site) membersExist(ctx context.Context, members []located) error {
	for _, l := range members {
		if _, err := s.member(l).record(ctx); err != nil {
			return err
		}
	}
	return nil
}

// liveMembers leaves out of g the members whose volumes are gone: a
// DeleteVolume does not edit the group of its volume (it takes only the
// volume's lock), so a group may name a deleted volume until its next
// ModifyVolumeGroupMembership, which sets the members anew.
func (d *controller) liveMembers(ctx context.Context, s site, g state.VolumeGroup) (state.VolumeGroup, error) {
	live := g.Members[:0:0]
	for _, id := range g.Members {
		vol, err := volume.ParseID(id)
		if err != nil {
			continue
		}
		_, err = s.member(d.locate(ctx, vol)).record(ctx)
		if errors.Is(err, state.ErrNotFound) {
			continue
		}
		if err != nil {
			return g, err
		}
		live = append(live, id)
	}
	g.Members = live
	return g, nil
}

// csiVolumeGroup describes g; its ID names the share by the source the
// group was made with (src when the record has none).
func csiVolumeGroup(src source.Source, g state.VolumeGroup) *volumegroup.VolumeGroup {
	if made, err := source.Parse(g.Source); err == nil {
		src = made
	}
	out := &volumegroup.VolumeGroup{VolumeGroupId: volume.Snapshot{Source: src, Key: g.Key(), UID: g.UID}.VolumeGroupID()}
	for _, id := range g.Members {
		out.Volumes = append(out.Volumes, &csi.Volume{VolumeId: id})
	}
	return out
}

// CreateVolumeGroup records a group of the given volumes. An empty group
// needs its share in the parameters (source), as a StorageClass gives it.
func (v *VolumeGroups) CreateVolumeGroup(ctx context.Context, req *volumegroup.CreateVolumeGroupRequest) (*volumegroup.CreateVolumeGroupResponse, error) {
	if req.GetName() == "" {
		return nil, status.Error(codes.InvalidArgument, "volume group name is missing")
	}
	members, ids, err := v.d.members(ctx, req.GetVolumeIds(), groupMemberID, "volume group", codes.FailedPrecondition)
	if err != nil {
		return nil, err
	}
	var src source.Source
	var grp located
	if len(req.GetParameters()) > 0 {
		p, err := volume.ParseShareParams(req.GetParameters())
		if err != nil {
			return nil, status.Error(codes.InvalidArgument, err.Error())
		}
		src = p.Source
		grp = v.d.locateShare(ctx, src)
		if len(members) > 0 && !members[0].sameShare(grp) {
			return nil, status.Errorf(codes.InvalidArgument, "volume %s is on %s, not on the share the parameters name (%s)",
				members[0].vol.SubDir, members[0].root.String(), src.String())
		}
	}
	if len(members) > 0 {
		src = members[0].vol.Source
		grp = v.d.locateShare(ctx, src)
	}
	if src.Protocol == "" {
		return nil, status.Error(codes.InvalidArgument, "an empty volume group needs its share: give parameter source (e.g. nfs://server/export), as in the StorageClass")
	}
	var g state.VolumeGroup
	err = v.d.lockedAt(ctx, grp, credentialsFrom(req.GetSecrets()), state.VolumeGroupsLockPath, func(s site) error {
		if err := s.membersExist(ctx, members); err != nil {
			return err
		}
		var err error
		g, err = s.CreateVolumeGroup(ctx, req.GetName(), src.String(), ids)
		return err
	})
	if err != nil {
		return nil, toStatus(err)
	}
	v.d.groupShares.add(src)
	return &volumegroup.CreateVolumeGroupResponse{VolumeGroup: csiVolumeGroup(src, g)}, nil
}

// ModifyVolumeGroupMembership makes the group's members exactly the given
// volumes: added, removed or replaced in one record write.
func (v *VolumeGroups) ModifyVolumeGroupMembership(ctx context.Context, req *volumegroup.ModifyVolumeGroupMembershipRequest) (*volumegroup.ModifyVolumeGroupMembershipResponse, error) {
	gid, err := parseVolumeGroupID(req.GetVolumeGroupId())
	if err != nil {
		return nil, err
	}
	members, ids, err := v.d.members(ctx, req.GetVolumeIds(), groupMemberID, "volume group", codes.InvalidArgument)
	if err != nil {
		return nil, err
	}
	grp := v.d.locateShare(ctx, gid.Source)
	if len(members) > 0 && !members[0].sameShare(grp) {
		return nil, status.Errorf(codes.InvalidArgument, "volume %s is on %s, not on the group's share %s",
			members[0].vol.SubDir, members[0].root.String(), gid.Source.String())
	}
	var g state.VolumeGroup
	err = v.d.lockedAt(ctx, grp, credentialsFrom(req.GetSecrets()), state.VolumeGroupsLockPath, func(s site) error {
		var err error
		if g, err = s.GetVolumeGroup(ctx, gid.Key, gid.UID); err != nil {
			return err
		}
		if err := s.membersExist(ctx, members); err != nil {
			return err
		}
		g, err = s.SetVolumeGroupMembers(ctx, g, ids)
		return err
	})
	if err != nil {
		return nil, toStatus(err)
	}
	return &volumegroup.ModifyVolumeGroupMembershipResponse{VolumeGroup: csiVolumeGroup(gid.Source, g)}, nil
}

// DeleteVolumeGroup removes the group's record; its volumes stay. A group
// that is gone already is deleted.
func (v *VolumeGroups) DeleteVolumeGroup(ctx context.Context, req *volumegroup.DeleteVolumeGroupRequest) (*volumegroup.DeleteVolumeGroupResponse, error) {
	if req.GetVolumeGroupId() == "" {
		return nil, status.Error(codes.InvalidArgument, "volume group ID is missing")
	}
	gid, err := volume.ParseVolumeGroupID(req.GetVolumeGroupId())
	if err != nil {
		// Not an ID this driver gives: it names no group, which is deleted.
		return &volumegroup.DeleteVolumeGroupResponse{}, nil
	}
	creds := credentialsFrom(req.GetSecrets())
	err = v.d.lockedAt(ctx, v.d.locateShare(ctx, gid.Source), creds, state.VolumeGroupsLockPath, func(st site) error {
		g, err := st.GetVolumeGroup(ctx, gid.Key, gid.UID)
		if errors.Is(err, state.ErrNotFound) {
			return nil
		}
		if err != nil {
			return err
		}
		return st.DeleteVolumeGroup(ctx, g)
	})
	if err != nil {
		return nil, toStatus(err)
	}
	return &volumegroup.DeleteVolumeGroupResponse{}, nil
}

// ControllerGetVolumeGroup reports one group and its members.
func (v *VolumeGroups) ControllerGetVolumeGroup(ctx context.Context, req *volumegroup.ControllerGetVolumeGroupRequest) (*volumegroup.ControllerGetVolumeGroupResponse, error) {
	gid, err := parseVolumeGroupID(req.GetVolumeGroupId())
	if err != nil {
		return nil, err
	}
	creds := credentialsFrom(req.GetSecrets())
	var g state.VolumeGroup
	err = v.d.at(ctx, v.d.locateShare(ctx, gid.Source), creds, false, func(s site) error {
		var err error
		if g, err = s.GetVolumeGroup(ctx, gid.Key, gid.UID); err != nil {
			return err
		}
		g, err = v.d.liveMembers(ctx, s, g)
		return err
	})
	if err != nil {
		return nil, toStatus(err)
	}
	return &volumegroup.ControllerGetVolumeGroupResponse{VolumeGroup: csiVolumeGroup(gid.Source, g)}, nil
}

// ListVolumeGroups lists the groups on every share this controller has made
// a group on since it started (as ListSnapshots does with snapshots), oldest first,
// paged by the last entry each page listed (listPage).
func (v *VolumeGroups) ListVolumeGroups(ctx context.Context, req *volumegroup.ListVolumeGroupsRequest) (*volumegroup.ListVolumeGroupsResponse, error) {
	page, err := parseListPage(req.GetStartingToken(), req.GetMaxEntries())
	if err != nil {
		return nil, err
	}
	creds := credentialsFrom(req.GetSecrets())
	type found struct {
		src source.Source
		g   state.VolumeGroup
	}
	var all []found
	listed := map[string]bool{} // classes with other bases share one record directory
	for _, src := range v.d.groupShares.all() {
		grp := v.d.locateShare(ctx, src)
		if listed[grp.canon] {
			continue
		}
		listed[grp.canon] = true
		var groups []state.VolumeGroup
		err := v.d.at(ctx, grp, creds, false, func(s site) error {
			var err error
			if groups, err = s.ListVolumeGroups(ctx); err != nil {
				return err
			}
			for i := range groups {
				if groups[i], err = v.d.liveMembers(ctx, s, groups[i]); err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			return nil, toStatus(err)
		}
		for _, g := range groups {
			all = append(all, found{src, g})
		}
	}
	// One order across shares, the same on every call, for the tokens.
	entries, next := pageOf(page, all, func(f found) string { return listKey(f.g.Created, f.g.UID) })
	resp := &volumegroup.ListVolumeGroupsResponse{NextToken: next}
	for _, f := range entries {
		resp.Entries = append(resp.Entries, &volumegroup.ListVolumeGroupsResponse_Entry{VolumeGroup: csiVolumeGroup(f.src, f.g)})
	}
	return resp, nil
}

func parseVolumeGroupID(id string) (volume.Snapshot, error) {
	if id == "" {
		return volume.Snapshot{}, status.Error(codes.InvalidArgument, "volume group ID is missing")
	}
	gid, err := volume.ParseVolumeGroupID(id)
	if err != nil {
		return volume.Snapshot{}, fail(state.ErrNotFound, "no such volume group: %v", err)
	}
	return gid, nil
}
