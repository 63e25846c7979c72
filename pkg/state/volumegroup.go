package state

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"slices"
	"time"

	"github.com/fileshare-csi/fileshare-csi/pkg/share"
	"github.com/fileshare-csi/fileshare-csi/pkg/state/layout"
)

// volumeGroupsDir holds one record per CSI-Addons volume group on the
// share, beside the volume records. A group is only a record: its members
// are ordinary volumes, and nothing in their directories changes when they
// join or leave.
const volumeGroupsDir = layout.VolumeGroups

// VolumeGroup is a named set of this driver's volumes on one share.
// Members are volume IDs, sorted, so a membership is one record write.
type VolumeGroup struct {
	UID     string    `json:"uid"`
	Name    string    `json:"name"`
	Created time.Time `json:"created"`
	// Source is the share (as a source parameter) the group was made
	// with: its ID names it, whichever class's base lists the group.
	Source  string   `json:"source"`
	Members []string `json:"members"`
}

// Key is the group's record key.
func (g VolumeGroup) Key() string { return VolumeGroupKey(g.Name) }

// VolumeGroupKey is the record key of the volume group with this name.
func VolumeGroupKey(name string) string { return key("volumegroup\x00" + name) }

func volumeGroupRecord(k string) string { return volumeGroupsDir + "/" + k + ".json" }

// VolumeGroupsLockPath is the one lock every volume group change on a share
// takes: a volume is in at most one group, so adding it to one group must
// see every other group's membership unchanged until the write.
const VolumeGroupsLockPath = volumeGroupsDir

// ErrInOtherGroup: a volume is a member of another volume group already
// (the driver advertises LIMIT_VOLUME_TO_ONE_VOLUME_GROUP).
var ErrInOtherGroup = errors.New("volume is in another volume group")

// CreateVolumeGroup records a volume group of these volumes, or returns the
// record an earlier call with the same name made. The same name with other
// members is ErrConflict; a member of another group is ErrInOtherGroup.
// The caller holds VolumeGroupsLockPath.
func (s *Store) CreateVolumeGroup(ctx context.Context, name, source string, members []string) (VolumeGroup, error) {
	members = sortedUnique(members)
	k := VolumeGroupKey(name)
	var g VolumeGroup
	err := s.readJSON(ctx, volumeGroupRecord(k), &g)
	switch {
	case err == nil:
		if !slices.Equal(g.Members, members) {
			return VolumeGroup{}, fmt.Errorf("volume group %q exists already, with other volumes: %w", name, ErrConflict)
		}
		return g, nil
	case !errors.Is(err, fs.ErrNotExist):
		return VolumeGroup{}, err
	}
	if err := s.checkNotInOtherGroup(ctx, k, members); err != nil {
		return VolumeGroup{}, err
	}
	uid, err := s.uid()
	if err != nil {
		return VolumeGroup{}, err
	}
	g = VolumeGroup{UID: uid, Name: name, Created: s.now().UTC(), Source: source, Members: members}
	if err := share.MkdirAll(ctx, s.c, volumeGroupsDir, 0o700); err != nil {
		return VolumeGroup{}, err
	}
	return g, s.writeJSON(ctx, volumeGroupRecord(k), g)
}

// GetVolumeGroup returns the group record with this key and UID, or
// ErrNotFound.
func (s *Store) GetVolumeGroup(ctx context.Context, k, uid string) (VolumeGroup, error) {
	var g VolumeGroup
	err := s.readJSON(ctx, volumeGroupRecord(k), &g)
	if errors.Is(err, fs.ErrNotExist) || err == nil && g.UID != uid {
		return VolumeGroup{}, fmt.Errorf("no volume group with UID %s: %w", uid, ErrNotFound)
	}
	return g, err
}

// SetVolumeGroupMembers replaces the group's members in one record write.
// The same members again change nothing. The caller holds
// VolumeGroupsLockPath.
func (s *Store) SetVolumeGroupMembers(ctx context.Context, g VolumeGroup, members []string) (VolumeGroup, error) {
	members = sortedUnique(members)
	if slices.Equal(g.Members, members) {
		return g, nil
	}
	if err := s.checkNotInOtherGroup(ctx, g.Key(), members); err != nil {
		return VolumeGroup{}, err
	}
	g.Members = members
	return g, s.writeJSON(ctx, volumeGroupRecord(g.Key()), g)
}

// DeleteVolumeGroup removes the group's record. Its member volumes stay as
// they are: the driver advertises DO_NOT_ALLOW_VG_TO_DELETE_VOLUMES.
func (s *Store) DeleteVolumeGroup(ctx context.Context, g VolumeGroup) error {
	return s.removeFile(ctx, volumeGroupRecord(g.Key()))
}

// ListVolumeGroups returns the share's volume group records, oldest first
// (then by UID), the order the driver pages listings in.
func (s *Store) ListVolumeGroups(ctx context.Context) ([]VolumeGroup, error) {
	return listRecords(ctx, s, volumeGroupsDir, func(g VolumeGroup) (time.Time, string) { return g.Created, g.UID })
}

func (s *Store) checkNotInOtherGroup(ctx context.Context, k string, members []string) error {
	groups, err := s.ListVolumeGroups(ctx)
	if err != nil {
		return err
	}
	for _, g := range groups {
		if g.Key() == k {
			continue
		}
		for _, m := range members {
			if _, found := slices.BinarySearch(g.Members, m); found {
				return fmt.Errorf("volume %s is a member of volume group %q; remove it there first: %w", m, g.Name, ErrInOtherGroup)
			}
		}
	}
	return nil
}

func sortedUnique(ids []string) []string {
	out := slices.Clone(ids)
	slices.Sort(out)
	return slices.Compact(out)
}
