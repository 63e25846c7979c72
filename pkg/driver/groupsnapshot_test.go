package driver

import (
	"strings"
	"testing"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/fileshare-csi/fileshare-csi/pkg/source"
	"github.com/fileshare-csi/fileshare-csi/pkg/state"
	"github.com/fileshare-csi/fileshare-csi/pkg/volume"
)

// A group of three members, "c"'s snapshot record gone (a delete cut short).
func testGroup(t *testing.T) (state.Group, []volume.Volume, []state.Snapshot, map[string]string) {
	t.Helper()
	src, err := source.Parse("nfs://server/export")
	if err != nil {
		t.Fatal(err)
	}
	g := state.Group{UID: "g", Name: "nightly"}
	var vols []volume.Volume
	var snaps []state.Snapshot
	ids := map[string]string{}
	for _, name := range []string{"a", "b", "c"} {
		vol := volume.Volume{Source: src, SubDir: name, OnDelete: volume.Delete, UID: "uid-" + name}
		m := state.GroupMember{VolumeID: vol.ID(), SnapshotName: state.MemberSnapshotName(g.Name, vol.ID())}
		g.Members = append(g.Members, m)
		snap := state.Snapshot{UID: "0123456789abcde" + name[:1], Name: m.SnapshotName, SourceVolumeID: vol.ID()}
		ids[name] = volume.Snapshot{Source: src, Key: snap.Key(), UID: snap.UID}.ID()
		if name != "c" {
			vols = append(vols, vol)
			snaps = append(snaps, snap)
		}
	}
	return g, vols, snaps, ids
}

func TestCheckSnapshotIDs(t *testing.T) {
	g, vols, snaps, ids := testGroup(t)
	other := volume.Snapshot{Source: vols[0].Source, Key: state.SnapshotKey("elsewhere"), UID: "fedcba9876543210"}.ID()
	for _, tc := range []struct {
		name   string
		ids    []string
		errHas []string // nil: accepted
	}{
		{name: "the members", ids: []string{ids["a"], ids["b"]}},
		{name: "in another order, with the gone member", ids: []string{ids["c"], ids["b"], ids["a"]}},
		{name: "none: not checked", ids: nil},
		{name: "a member left out", ids: []string{ids["a"]}, errHas: []string{ids["b"]}},
		{name: "a snapshot of no member", ids: []string{ids["a"], ids["b"], other}, errHas: []string{other}},
		{name: "a member swapped for another", ids: []string{ids["a"], other}, errHas: []string{ids["b"], other}},
		{name: "not a snapshot ID", ids: []string{ids["a"], ids["b"], "junk"}, errHas: []string{"junk"}},
		{name: "a member's key with another UID", ids: []string{ids["a"], strings.Replace(ids["b"], snaps[1].UID, "ffffffffffffffff", 1)}, errHas: []string{ids["b"]}},
	} {
		err := checkSnapshotIDs(g, vols, snaps, tc.ids)
		if tc.errHas == nil {
			if err != nil {
				t.Errorf("%s: %v, want it accepted", tc.name, err)
			}
			continue
		}
		if status.Code(err) != codes.InvalidArgument {
			t.Errorf("%s: %v, want InvalidArgument", tc.name, err)
			continue
		}
		for _, s := range tc.errHas {
			if !strings.Contains(err.Error(), s) {
				t.Errorf("%s: %v does not name %s", tc.name, err, s)
			}
		}
	}
}
