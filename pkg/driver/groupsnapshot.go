package driver

import (
	"context"
	"errors"
	"slices"
	"strings"

	"github.com/container-storage-interface/spec/lib/go/csi"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/types/known/timestamppb"
	"k8s.io/klog/v2"

	"github.com/fileshare-csi/fileshare-csi/pkg/share"
	"github.com/fileshare-csi/fileshare-csi/pkg/source"
	"github.com/fileshare-csi/fileshare-csi/pkg/state"
	"github.com/fileshare-csi/fileshare-csi/pkg/volume"
)

// A group snapshot is one snapshot of each member volume, their copies
// started together and deleted together. A file share cannot stop writes
// across volumes, so it is not a point-in-time image of the group:
// docs/snapshots.md says so, and what to do for one (quiesce the
// application).

func (d *controller) GroupControllerGetCapabilities(context.Context, *csi.GroupControllerGetCapabilitiesRequest) (*csi.GroupControllerGetCapabilitiesResponse, error) {
	return &csi.GroupControllerGetCapabilitiesResponse{Capabilities: []*csi.GroupControllerServiceCapability{{
		Type: &csi.GroupControllerServiceCapability_Rpc{Rpc: &csi.GroupControllerServiceCapability_RPC{
			Type: csi.GroupControllerServiceCapability_RPC_CREATE_DELETE_GET_VOLUME_GROUP_SNAPSHOT,
		}},
	}}}, nil
}

func (d *controller) CreateVolumeGroupSnapshot(ctx context.Context, req *csi.CreateVolumeGroupSnapshotRequest) (*csi.CreateVolumeGroupSnapshotResponse, error) {
	if req.GetName() == "" {
		return nil, status.Error(codes.InvalidArgument, "group snapshot name is missing")
	}
	if len(req.GetSourceVolumeIds()) == 0 {
		return nil, status.Error(codes.InvalidArgument, "source volume IDs are missing")
	}
	// The group's record lives on its members' share: one share.
	members, ids, err := d.members(ctx, req.GetSourceVolumeIds(), existingVolumeID, "group snapshot", codes.FailedPrecondition)
	if err != nil {
		return nil, err
	}
	vols := make([]volume.Volume, 0, len(members))
	for _, m := range members {
		vols = append(vols, m.vol)
	}
	creds := credentialsFrom(req.GetSecrets())
	vg, err := d.groupSnapshotOf(ctx, req.GetParameters(), members[0])
	if err != nil {
		return nil, err
	}
	// Every member is looked at before anything is written: one gone, or
	// still being filled, refuses the group with nothing made (a member's
	// snapshot made first would be a full copy nobody has an ID for).
	roots := map[string]bool{}
	for _, vol := range vols {
		if err := d.at(ctx, d.locate(ctx, vol), creds, false, func(s site) error {
			roots[s.canon] = true
			_, err := s.copySource(ctx, "snapshot")
			return err
		}); err != nil {
			return d.refuseGroup(ctx, req.GetName(), vols[0].Source, ids, creds, err)
		}
	}
	var g state.Group
	err = d.at(ctx, d.locateShare(ctx, vols[0].Source), creds, false, func(s site) error {
		// One share by name is not one session root: each member's
		// snapshot must lie where the group's record does.
		if len(roots) != 1 || !roots[s.canon] {
			// The spec's "Cannot snapshot multiple volumes together"
			// (FAILED_PRECONDITION): the volumes' classes, not the
			// request, must change.
			return status.Errorf(codes.FailedPrecondition, "the volumes of a group snapshot must be reached at one session root (their classes reach %d)", len(roots))
		}
		if vg != nil {
			if err := d.checkVolumeGroupMembers(ctx, s, *vg, ids); err != nil {
				return err
			}
		}
		return d.lockedSite(ctx, s, state.GroupLockPath(state.GroupKey(req.GetName())), func(s site) error {
			var err error
			g, err = s.CreateGroup(ctx, req.GetName(), ids)
			return err
		})
	})
	if err != nil {
		return nil, toStatus(err)
	}
	gid := volume.Snapshot{Source: vols[0].Source, Key: state.GroupKey(g.Name), UID: g.UID}
	// Every member's copy starts before any is waited for: taken together.
	pending := make([]*pendingSnapshot, 0, len(vols))
	for i, vol := range vols {
		p, err := d.startSnapshot(ctx, vol, g.Members[memberIndex(g, ids[i])].SnapshotName, gid.GroupID(), creds)
		if err != nil {
			return d.refuseGroup(ctx, req.GetName(), vols[0].Source, ids, creds, err)
		}
		pending = append(pending, p)
	}
	if err := d.awaitSnapshots(ctx, pending, snapshotWait); err != nil {
		return nil, toStatus(err)
	}
	// From the first answer on, the CO may hold the group's ID: no refusal
	// deletes it any more (refuseGroup).
	err = d.lockedAt(ctx, d.locateShare(ctx, vols[0].Source), creds, state.GroupLockPath(gid.Key), func(s site) error {
		// g changes only once the record says answered: this step may run
		// twice (withShare, on a new session when a pooled one was dead),
		// and the second run must not take the first one's failed write
		// for done, or the CO gets the ID of a group recorded as never
		// answered, which a refusal of a repeated call would delete.
		a, err := s.Answered(ctx, g)
		if err != nil {
			return err
		}
		g = a
		return nil
	})
	if err != nil {
		return nil, toStatus(err)
	}
	snaps := make([]state.Snapshot, 0, len(pending))
	for _, p := range pending {
		snaps = append(snaps, p.snap)
	}
	return &csi.CreateVolumeGroupSnapshotResponse{GroupSnapshot: csiGroupSnapshot(gid, g, vols, snaps)}, nil
}

// ParamVolumeGroupID, a VolumeGroupSnapshotClass parameter, names a
// CSI-Addons volume group whose members a group snapshot must be: with
// it, the volumes the request names (a label selector's claims) must be
// exactly the group's, so the snapshot is of that group, no more and no
// less.
const ParamVolumeGroupID = "volumeGroupID"

// groupSnapshotOf reads the group snapshot's parameters: the volume group
// it must be of, if any (nil), on the members' share.
func (d *controller) groupSnapshotOf(ctx context.Context, params map[string]string, member located) (*volume.Snapshot, error) {
	for k := range params {
		if k != ParamVolumeGroupID && !strings.HasPrefix(k, volume.ReservedPrefix) {
			return nil, status.Errorf(codes.InvalidArgument, "unknown group snapshot parameter %q: the known one is %s", k, ParamVolumeGroupID)
		}
	}
	id, ok := params[ParamVolumeGroupID]
	if !ok {
		return nil, nil
	}
	gid, err := volume.ParseVolumeGroupID(id)
	if err != nil {
		return nil, status.Errorf(codes.InvalidArgument, "parameter %s: %v", ParamVolumeGroupID, err)
	}
	if !d.locateShare(ctx, gid.Source).sameShare(member) {
		return nil, status.Errorf(codes.InvalidArgument, "parameter %s names a volume group on %s, and the volumes are on %s",
			ParamVolumeGroupID, gid.Source.String(), member.root.String())
	}
	return &gid, nil
}

// checkVolumeGroupMembers answers InvalidArgument unless ids are exactly
// the volume group's live members, and NotFound when there is no such group.
func (d *controller) checkVolumeGroupMembers(ctx context.Context, s site, gid volume.Snapshot, ids []string) error {
	vg, err := s.GetVolumeGroup(ctx, gid.Key, gid.UID)
	if err != nil {
		return err
	}
	if vg, err = d.liveMembers(ctx, s, vg); err != nil {
		return err
	}
	named := map[string]bool{}
	for _, id := range ids {
		named[id] = true
	}
	var missing, extra []string
	for _, m := range vg.Members {
		if !named[m] {
			missing = append(missing, m)
		}
		delete(named, m)
	}
	for id := range named {
		extra = append(extra, id)
	}
	if len(missing)+len(extra) > 0 {
		slices.Sort(extra)
		return status.Errorf(codes.InvalidArgument, "a group snapshot of volume group %q must be of exactly its members: missing %v, not members %v",
			vg.Name, missing, extra)
	}
	return nil
}

func memberIndex(g state.Group, volumeID string) int {
	for i, m := range g.Members {
		if m.VolumeID == volumeID {
			return i
		}
	}
	return -1
}

func csiGroupSnapshot(gid volume.Snapshot, g state.Group, vols []volume.Volume, snaps []state.Snapshot) *csi.VolumeGroupSnapshot {
	out := &csi.VolumeGroupSnapshot{GroupSnapshotId: gid.GroupID(), CreationTime: timestamppb.New(g.Created), ReadyToUse: true}
	for i, s := range snaps {
		out.Snapshots = append(out.Snapshots, csiSnapshot(vols[i].Source, s))
		out.ReadyToUse = out.ReadyToUse && s.Ready
	}
	return out
}

// checkSnapshotIDs answers InvalidArgument, naming the mismatch, when ids
// (the snapshot_ids of a Get or Delete of group snapshot g) are not g's
// member snapshots: the CSI spec's "snapshot list mismatch". A Delete must
// never remove a member the caller did not name, nor report a list it
// named done when some of it is not this group's.
//
// A member whose snapshot record is gone (a delete cut short after it)
// may be named or not: its ID still names the group's member. An empty
// list is not checked: the field is required, but a caller that never
// learnt the members (a group snapshot cut short before the CO recorded
// them) could otherwise never delete the group, and the spec has a Delete
// remove all of a group's snapshots.
func checkSnapshotIDs(g state.Group, vols []volume.Volume, snaps []state.Snapshot, ids []string) error {
	if len(ids) == 0 {
		return nil
	}
	// A snapshot is its record's key and UID; the source part of an ID may
	// be spelled in more than one way.
	member := map[[2]string]string{} // key and UID -> the ID the group reports
	present := map[string]bool{}     // keys of members with a record
	for i, s := range snaps {
		member[[2]string{s.Key(), s.UID}] = volume.Snapshot{Source: vols[i].Source, Key: s.Key(), UID: s.UID}.ID()
		present[s.Key()] = true
	}
	gone := map[string]bool{}
	for _, m := range g.Members {
		if k := state.SnapshotKey(m.SnapshotName); !present[k] {
			gone[k] = true
		}
	}
	named := map[string]bool{}
	var extra, missing []string
	for _, id := range ids {
		sid, err := volume.ParseSnapshotID(id)
		switch {
		case err != nil:
			extra = append(extra, id)
		case member[[2]string{sid.Key, sid.UID}] != "":
			named[member[[2]string{sid.Key, sid.UID}]] = true
		case gone[sid.Key]:
		default:
			extra = append(extra, id)
		}
	}
	for _, id := range member {
		if !named[id] {
			missing = append(missing, id)
		}
	}
	if len(extra)+len(missing) == 0 {
		return nil
	}
	slices.Sort(extra)
	slices.Sort(missing)
	return status.Errorf(codes.InvalidArgument, "snapshot_ids do not match group snapshot %q: its snapshots not named %v, named snapshots not of this group %v",
		g.Name, missing, extra)
}

// groupMembers reads a group's record and its members' snapshot records.
func (s site) groupMembers(ctx context.Context, gid volume.Snapshot) (state.Group, []volume.Volume, []state.Snapshot, error) {
	g, err := s.GetGroup(ctx, gid.Key, gid.UID)
	if err != nil {
		return g, nil, nil, err
	}
	var vols []volume.Volume
	var snaps []state.Snapshot
	for _, m := range g.Members {
		vol, err := volume.ParseID(m.VolumeID)
		if err != nil {
			return g, nil, nil, err
		}
		snap, err := s.GetSnapshotByName(ctx, m.SnapshotName)
		if errors.Is(err, state.ErrNotFound) {
			continue // never recorded, or deleted with a delete cut short
		}
		if err != nil {
			return g, nil, nil, err
		}
		vols = append(vols, vol)
		snaps = append(snaps, snap)
	}
	return g, vols, snaps, nil
}

func (d *controller) GetVolumeGroupSnapshot(ctx context.Context, req *csi.GetVolumeGroupSnapshotRequest) (*csi.GetVolumeGroupSnapshotResponse, error) {
	if req.GetGroupSnapshotId() == "" {
		return nil, status.Error(codes.InvalidArgument, "group snapshot ID is missing")
	}
	gid, err := volume.ParseGroupSnapshotID(req.GetGroupSnapshotId())
	if err != nil {
		return nil, fail(state.ErrNotFound, "no such group snapshot: %v", err)
	}
	var resp *csi.VolumeGroupSnapshot
	err = d.at(ctx, d.locateShare(ctx, gid.Source), credentialsFrom(req.GetSecrets()), false, func(s site) error {
		g, vols, snaps, err := s.groupMembers(ctx, gid)
		if err != nil {
			return err
		}
		if err := checkSnapshotIDs(g, vols, snaps, req.GetSnapshotIds()); err != nil {
			return err
		}
		resp = csiGroupSnapshot(gid, g, vols, snaps)
		return nil
	})
	if err != nil {
		return nil, toStatus(err)
	}
	return &csi.GetVolumeGroupSnapshotResponse{GroupSnapshot: resp}, nil
}

// DeleteVolumeGroupSnapshot deletes every member snapshot, each with all the
// guards of DeleteSnapshot, then the group's record. The member volumes are
// not touched.
func (d *controller) DeleteVolumeGroupSnapshot(ctx context.Context, req *csi.DeleteVolumeGroupSnapshotRequest) (*csi.DeleteVolumeGroupSnapshotResponse, error) {
	if req.GetGroupSnapshotId() == "" {
		return nil, status.Error(codes.InvalidArgument, "group snapshot ID is missing")
	}
	gid, err := volume.ParseGroupSnapshotID(req.GetGroupSnapshotId())
	if err != nil {
		klog.FromContext(ctx).Info("DeleteVolumeGroupSnapshot of an ID this driver never issued: nothing to delete", "reason", err.Error())
		return &csi.DeleteVolumeGroupSnapshotResponse{}, nil
	}
	check := func(g state.Group, vols []volume.Volume, snaps []state.Snapshot) error {
		return checkSnapshotIDs(g, vols, snaps, req.GetSnapshotIds())
	}
	if err := d.deleteGroup(ctx, gid, credentialsFrom(req.GetSecrets()), check); err != nil {
		return nil, err
	}
	return &csi.DeleteVolumeGroupSnapshotResponse{}, nil
}

// deleteGroup deletes the group snapshot gid: every member snapshot, each
// with all the guards of DeleteSnapshot, then the group's record. check,
// if not nil, must pass before anything is deleted. A group that is not
// there is deleted already.
func (d *controller) deleteGroup(ctx context.Context, gid volume.Snapshot, creds share.Credentials, check func(state.Group, []volume.Volume, []state.Snapshot) error) error {
	grp := d.locateShare(ctx, gid.Source)
	var g state.Group
	var vols []volume.Volume
	var snaps []state.Snapshot
	err := d.at(ctx, grp, creds, false, func(s site) error {
		var err error
		if g, vols, snaps, err = s.groupMembers(ctx, gid); err != nil || check == nil {
			return err
		}
		return check(g, vols, snaps)
	})
	if errors.Is(err, state.ErrNotFound) {
		return nil
	}
	if err != nil {
		return toStatus(err)
	}
	for i, s := range snaps {
		if err := d.deleteSnapshot(ctx, volume.Snapshot{Source: vols[i].Source, Key: s.Key(), UID: s.UID}, creds); err != nil {
			return err
		}
	}
	err = d.lockedAt(ctx, grp, creds, state.GroupLockPath(gid.Key), func(st site) error {
		return st.DeleteGroup(ctx, g)
	})
	return toStatus(err)
}

// refuseGroup answers err, which refused group snapshot name on the share
// of src. A member that is gone (NotFound) refuses it for good: a group no
// call answered yet (an earlier call cut short made it, or this one) is
// deleted then, with the snapshots of its members made so far, since
// nobody holds its ID to delete it. Anything else (a member still being
// filled, the server away) leaves it to the call's retry, which goes on
// from it; and an answered group is only ever deleted by its ID.
//
// An answered group of the same volumes is answered again instead, from
// its records: the answer may never have reached the CO (the process died
// after Answered, or the call's deadline passed as it was sent), and this
// call is then the CO's retry, holding no ID. Refused, it would leave the
// group and its members' copies with no ID anywhere, for good (the
// reclaimer leaves answered groups and finished snapshots alone); an
// uninterrupted call answered it, and the snapshots were taken.
func (d *controller) refuseGroup(ctx context.Context, name string, src source.Source, ids []string, creds share.Credentials, err error) (*csi.CreateVolumeGroupSnapshotResponse, error) {
	refused := toStatus(err)
	if status.Code(refused) != codes.NotFound {
		return nil, refused
	}
	var g state.Group
	var again *csi.VolumeGroupSnapshot
	ferr := d.at(ctx, d.locateShare(ctx, src), creds, false, func(s site) error {
		var err error
		if g, err = s.FindGroup(ctx, name); err != nil || g.Unanswered || !g.OfVolumes(ids) {
			return err
		}
		gid := volume.Snapshot{Source: src, Key: state.GroupKey(g.Name), UID: g.UID}
		rec, vols, snaps, err := s.groupMembers(ctx, gid)
		if err != nil {
			return err
		}
		again = csiGroupSnapshot(gid, rec, vols, snaps)
		return nil
	})
	switch {
	case ferr == nil && again != nil:
		return &csi.CreateVolumeGroupSnapshotResponse{GroupSnapshot: again}, nil
	case errors.Is(ferr, state.ErrNotFound) || ferr == nil && !g.Unanswered:
		return nil, refused
	case ferr != nil:
		// Not known whether a group the CO may not hold the ID of is
		// there: a refusal, final, could leave it for good. The CO asks
		// again.
		return nil, toStatus(ferr)
	}
	if ferr = d.deleteGroup(ctx, volume.Snapshot{Source: src, Key: state.GroupKey(g.Name), UID: g.UID}, creds, nil); ferr != nil {
		return nil, status.Errorf(codes.NotFound, "%s (and deleting what the group's calls made so far: %v)", status.Convert(refused).Message(), ferr)
	}
	return nil, refused
}
