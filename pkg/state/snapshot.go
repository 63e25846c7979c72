package state

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"sort"
	"strings"
	"time"

	"github.com/fileshare-csi/fileshare-csi/pkg/share"
	"github.com/fileshare-csi/fileshare-csi/pkg/state/layout"
)

const snapshotsDir = layout.Snapshots

// Snapshot is what the share keeps about one snapshot. Its copy of the
// volume lies in the metadata directory, beside the records and never in a
// volume: no claim's subDir can name it (CheckPath), no volume walk enters
// it (it is protected, and its root is marked like a volume's), and no
// CreateVolume adopts it.
type Snapshot struct {
	UID  string `json:"uid"`
	Name string `json:"name"`
	// SourceVolumeID is the volume the snapshot was taken of, SourcePath
	// its directory from the share's root.
	SourceVolumeID string `json:"sourceVolumeID"`
	SourcePath     string `json:"sourcePath"`
	// SizeBytes is the source's recorded size: what a restore needs.
	SizeBytes int64     `json:"sizeBytes"`
	Created   time.Time `json:"created"`
	// Ready is set once the copy is complete, in the same write that
	// records the copy's root ID: a record never says ready for a copy
	// that is not whole.
	Ready  bool   `json:"ready"`
	RootID uint64 `json:"rootID,omitempty"`
	// GroupID names the group snapshot this one was taken in, if any.
	GroupID string `json:"groupID,omitempty"`
	Files   int64  `json:"files,omitempty"`
	Bytes   int64  `json:"bytes,omitempty"`
	// Pack says the copy keeps its small files in the archive at
	// PackPath, beside the tree (copytree's pack). Snapshots recorded
	// before packs existed have none, and restore from the tree alone.
	Pack bool `json:"pack,omitempty"`
}

// SnapshotKey is the record key of the snapshot with this CreateSnapshot name.
func SnapshotKey(name string) string { return key("snapshot\x00" + name) }

func snapshotRecord(k string) string { return snapshotsDir + "/" + k + ".json" }

// Tree is where the snapshot's complete copy lies, from the share's root.
func (s Snapshot) Tree() string { return snapshotsDir + "/" + s.UID }

// PartialTree is where its copy is made: it is renamed to Tree once whole.
func (s Snapshot) PartialTree() string { return snapshotsDir + "/" + s.UID + ".partial" }

// PackPath is where the snapshot's pack lies, from the share's root: a
// file beside the tree, never in it, so a restore of the tree does not
// copy it as a file of the volume.
func (s Snapshot) PackPath() string { return snapshotsDir + "/" + s.UID + ".pack" }

// runPacks holds the packs copies write, one file per run of the copy
// (RunPack): a copy of another process that runs late, after its copy was
// taken over, writes only its own run's file, never the pack the snapshot
// keeps, which CompleteSnapshot puts in place from the run that finished.
func (s Snapshot) runPacks() string { return snapshotsDir + "/" + s.UID + ".packs" }

// Key is the snapshot's record key.
func (s Snapshot) Key() string { return SnapshotKey(s.Name) }

// RunPack says where one run of the snapshot's copy writes its pack
// (copytree.Options.PackTo, which makes its directory), a file of its own:
// "" for a snapshot recorded without a pack.
func (s *Store) RunPack(snap Snapshot) (string, error) {
	if !snap.Pack {
		return "", nil
	}
	run, err := s.uid()
	if err != nil {
		return "", err
	}
	return snap.runPacks() + "/" + run, nil
}

// DropRunPacks removes the packs of every run of the snapshot's copy:
// those of runs that stopped, and of late ones. The run that owns the copy
// (its fence) calls it before it writes its own.
func (s *Store) DropRunPacks(ctx context.Context, snap Snapshot) error {
	names, err := s.c.List(ctx, snap.runPacks(), 0)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("list the packs of snapshot %q's copies: %w", snap.Name, err)
	}
	ops := make([]share.Op, 0, len(names)+1)
	for _, n := range names {
		ops = append(ops, share.Op{Kind: share.OpRemove, Path: snap.runPacks() + "/" + n})
	}
	ops = append(ops, share.Op{Kind: share.OpRmdir, Path: snap.runPacks()})
	for _, r := range share.RunBatch(ctx, s.c, ops, true) {
		if r.Err != nil {
			return fmt.Errorf("remove the packs of snapshot %q's copies: %w", snap.Name, r.Err)
		}
	}
	return nil
}

// SnapshotRequest describes a snapshot to record.
type SnapshotRequest struct {
	Name, SourceVolumeID, SourcePath string
	SizeBytes                        int64
	GroupID                          string
}

// CreateSnapshot records a new snapshot, not ready, or returns the record
// of the snapshot an earlier call with the same name made (idempotent).
// The same name for another source volume is ErrConflict.
func (s *Store) CreateSnapshot(ctx context.Context, req SnapshotRequest) (Snapshot, error) {
	k := SnapshotKey(req.Name)
	var snap Snapshot
	err := s.readJSON(ctx, snapshotRecord(k), &snap)
	switch {
	case err == nil:
		if snap.SourceVolumeID != req.SourceVolumeID {
			return Snapshot{}, fmt.Errorf("snapshot %q exists already, of another volume: %w", req.Name, ErrConflict)
		}
		return snap, nil
	case !errors.Is(err, fs.ErrNotExist):
		return Snapshot{}, err
	}
	uid, err := s.uid()
	if err != nil {
		return Snapshot{}, err
	}
	snap = Snapshot{UID: uid, Name: req.Name, SourceVolumeID: req.SourceVolumeID, SourcePath: req.SourcePath,
		SizeBytes: req.SizeBytes, Created: s.now().UTC(), GroupID: req.GroupID, Pack: true}
	if err := share.MkdirAll(ctx, s.c, snapshotsDir, 0o700); err != nil {
		return Snapshot{}, err
	}
	return snap, s.writeJSON(ctx, snapshotRecord(k), snap)
}

// GetSnapshot returns the record with this key and UID, or ErrNotFound.
func (s *Store) GetSnapshot(ctx context.Context, k, uid string) (Snapshot, error) {
	var snap Snapshot
	err := s.readJSON(ctx, snapshotRecord(k), &snap)
	if errors.Is(err, fs.ErrNotExist) || err == nil && snap.UID != uid {
		return Snapshot{}, fmt.Errorf("no snapshot with UID %s: %w", uid, ErrNotFound)
	}
	return snap, err
}

// GetSnapshotByName returns the record of the snapshot with this
// CreateSnapshot name, or ErrNotFound.
func (s *Store) GetSnapshotByName(ctx context.Context, name string) (Snapshot, error) {
	var snap Snapshot
	err := s.readJSON(ctx, snapshotRecord(SnapshotKey(name)), &snap)
	if errors.Is(err, fs.ErrNotExist) {
		return Snapshot{}, fmt.Errorf("no snapshot named %q: %w", name, ErrNotFound)
	}
	return snap, err
}

// CompleteSnapshot moves the finished copy into place, its pack (pack,
// from RunPack; "" when the copy is in place already, or has none)
// first, marks its root so no volume walk ever enters it, and records the
// snapshot as ready.
//
// The rename of the partial copy is the commit point: only a whole copy is
// ever renamed, so a copy found in place is complete (CopyInPlace), and a
// call cut short after the rename is finished by the next one without
// copying again. The copy's counts go into the record before the rename,
// so the roll forward records what the copy counted. Before it, the pack
// of the run that finished replaces any an earlier cut call moved, and the
// packs of other runs go.
func (s *Store) CompleteSnapshot(ctx context.Context, snap Snapshot, pack string) (Snapshot, error) {
	// The copy is whole; its beat goes first (a call cut short after it
	// does this again).
	if err := s.dropBeatOf(ctx, snap.UID); err != nil {
		return snap, err
	}
	fi, err := s.c.Stat(ctx, snap.Tree())
	if errors.Is(err, fs.ErrNotExist) {
		if err := s.writeJSON(ctx, snapshotRecord(snap.Key()), snap); err != nil {
			return snap, err
		}
		if pack != "" {
			if err := s.placePack(ctx, snap, pack); err != nil {
				return snap, err
			}
		}
		// A rename answered "no such file" may be one whose reply was
		// lost: the look below says whether the copy is in place.
		if err := s.c.Rename(ctx, snap.PartialTree(), snap.Tree()); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return snap, fmt.Errorf("move the finished copy of snapshot %q into place: %w", snap.Name, err)
		}
		if fi, err = s.c.Stat(ctx, snap.Tree()); errors.Is(err, fs.ErrNotExist) {
			return snap, fmt.Errorf("move the finished copy of snapshot %q into place: %w", snap.Name, err)
		}
	}
	if err != nil {
		return snap, err
	}
	if fi.ID != 0 {
		if err := s.writeMark(ctx, fi.ID, snap.Tree()); err != nil {
			return snap, err
		}
	}
	snap.RootID, snap.Ready = fi.ID, true
	return snap, s.writeJSON(ctx, snapshotRecord(snap.Key()), snap)
}

// removePacks removes the snapshot's pack and its runs' packs.
func (s *Store) removePacks(ctx context.Context, snap Snapshot) error {
	if err := s.removeFile(ctx, snap.PackPath()); err != nil {
		return fmt.Errorf("delete the pack of snapshot %q: %w", snap.Name, err)
	}
	return s.DropRunPacks(ctx, snap)
}

// placePack puts the pack of the run that finished, pack, in the
// snapshot's place in one step (one an earlier call that was cut short
// put there is replaced, and the place is never empty), then removes the
// packs of the other runs: left by runs that stopped, or written by a late
// one (which may hold its file open: then the reclaimer removes them once
// they stayed for IntentTTL).
func (s *Store) placePack(ctx context.Context, snap Snapshot, pack string) error {
	// A move answered "no such file" may be one whose reply was lost:
	// a pack in place says so.
	if err := s.c.Replace(ctx, pack, snap.PackPath()); errors.Is(err, fs.ErrNotExist) {
		if _, serr := s.c.Stat(ctx, snap.PackPath()); serr != nil {
			return fmt.Errorf("move the pack of snapshot %q into place: %w", snap.Name, err)
		}
	} else if err != nil {
		return fmt.Errorf("move the pack of snapshot %q into place: %w", snap.Name, err)
	}
	if err := s.DropRunPacks(ctx, snap); err != nil {
		s.logf("cannot remove the packs of other runs of a snapshot's copy; the reclaimer does", "name", snap.Name, "error", err.Error())
	}
	return nil
}

// CopyInPlace reports whether the snapshot's whole copy has been moved into
// place by an earlier call, which may have stopped before it recorded the
// snapshot ready.
func (s *Store) CopyInPlace(ctx context.Context, snap Snapshot) (bool, error) {
	_, err := s.c.Stat(ctx, snap.Tree())
	if errors.Is(err, fs.ErrNotExist) {
		return false, nil
	}
	return err == nil, err
}

// DeleteSnapshot removes the snapshot's copy, whole or partial, with every
// guard of a volume delete (links removed as links, nothing outside the
// copy entered), then its record. The source volume is not touched.
func (s *Store) DeleteSnapshot(ctx context.Context, snap Snapshot) error {
	for _, tree := range []string{snap.Tree(), snap.PartialTree()} {
		rootID := uint64(0)
		if tree == snap.Tree() {
			rootID = snap.RootID
		}
		if tree == snap.Tree() && rootID == 0 {
			// A completion cut after its mark, before its record said
			// ready, marked the tree without recording its ID: the
			// tree, or what a delete cut short moved to the quarantine,
			// tells it (a directory under the metadata is only ever the
			// snapshot's own).
			var err error
			if rootID, err = s.dirID(ctx, tree, Quarantine(snap.UID)); err != nil {
				return fmt.Errorf("delete the copy of snapshot %q: %w", snap.Name, err)
			}
		}
		if err := s.deleteDir(ctx, Record{UID: snap.UID, Path: tree, RootID: rootID}); err != nil {
			return fmt.Errorf("delete the copy of snapshot %q: %w", snap.Name, err)
		}
	}
	// Whatever the record says: a copy may have begun its pack before a
	// restart.
	if err := s.removePacks(ctx, snap); err != nil {
		return err
	}
	if err := s.dropBeatOf(ctx, snap.UID); err != nil {
		return err
	}
	return s.removeFile(ctx, snapshotRecord(snap.Key()))
}

// dirID is the file ID of the first of paths that is a directory (not a
// link), 0 when none is.
func (s *Store) dirID(ctx context.Context, paths ...string) (uint64, error) {
	for _, p := range paths {
		fi, err := s.c.Stat(ctx, p)
		switch {
		case errors.Is(err, fs.ErrNotExist):
		case err != nil:
			return 0, err
		case fi.IsDir && !fi.IsLink:
			return fi.ID, nil
		}
	}
	return 0, nil
}

// ListSnapshots returns the share's snapshot records, oldest first (then
// by UID), the order the driver pages listings in.
func (s *Store) ListSnapshots(ctx context.Context) ([]Snapshot, error) {
	return listRecords(ctx, s, snapshotsDir, func(x Snapshot) (time.Time, string) { return x.Created, x.UID })
}

// recordFile is one record file readAll read: its path and its bytes.
type recordFile struct {
	path string
	data []byte
}

// readAll reads every record of dir (named <key>.json), many to a round
// trip where the protocol batches, skipping any deleted while listing.
func (s *Store) readAll(ctx context.Context, dir string) ([]recordFile, error) {
	names, err := s.c.List(ctx, dir, 0)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var ops []share.Op
	for _, n := range names {
		if k, ok := strings.CutSuffix(n, ".json"); ok && len(k) == 32 {
			ops = append(ops, share.Op{Kind: share.OpRead, Path: dir + "/" + n})
		}
	}
	var out []recordFile
	const perBatch = 32
	for len(ops) > 0 {
		n := min(perBatch, len(ops))
		for i, r := range share.RunBatch(ctx, s.c, ops[:n], false) {
			switch {
			case r.Err == nil:
				out = append(out, recordFile{ops[i].Path, r.Data})
			case !errors.Is(r.Err, fs.ErrNotExist):
				return nil, r.Err
			}
		}
		ops = ops[n:]
	}
	return out, nil
}

// listRecords reads every record of dir (readAll), and sorts them oldest
// first, then by UID.
func listRecords[T any](ctx context.Context, s *Store, dir string, order func(T) (time.Time, string)) ([]T, error) {
	files, err := s.readAll(ctx, dir)
	if err != nil {
		return nil, err
	}
	var out []T
	for _, f := range files {
		var x T
		if err := decodeJSON(f.path, f.data, &x); err != nil {
			return nil, err
		}
		out = append(out, x)
	}
	sort.Slice(out, func(i, j int) bool {
		ti, ui := order(out[i])
		tj, uj := order(out[j])
		if !ti.Equal(tj) {
			return ti.Before(tj)
		}
		return ui < uj
	})
	return out, nil
}

// Populated records that a restored or cloned volume's copy is complete.
func (s *Store) Populated(ctx context.Context, rec Record) (Record, error) {
	// The copy is whole; its beat goes before the commit, so a call cut
	// between the two copies again (skipping what is there) and commits.
	if err := s.dropBeatOf(ctx, rec.UID); err != nil {
		return rec, err
	}
	rec.Populating = false
	if err := s.writeJSON(ctx, s.recordPath(rec.Path), rec); err != nil {
		return rec, err
	}
	// The create's intent stayed while the volume was filled (see
	// afterCommit); a retry that finds it gone has nothing left to do.
	return rec, s.removeFile(ctx, s.intentPath(rec.Path))
}

const groupsDir = layout.Groups

// Group is what the share keeps about one group snapshot: which member
// snapshots were taken together. The members are ordinary snapshots, each
// with its own record and copy, named after the group and their volume.
type Group struct {
	UID     string        `json:"uid"`
	Name    string        `json:"name"`
	Created time.Time     `json:"created"`
	Members []GroupMember `json:"members"`
	// Unanswered: no call has answered the group with its ID yet, so a
	// refusal of it may delete what it holds (nobody can ask for it by
	// ID). Set when the group is made, cleared (Answered) before the first
	// answer; a record made before this field existed counts as answered.
	Unanswered bool `json:"unanswered,omitempty"`
}

// GroupMember is one volume of a group snapshot and the snapshot taken of it.
type GroupMember struct {
	VolumeID     string `json:"volumeID"`
	SnapshotName string `json:"snapshotName"`
}

// GroupKey is the record key of the group snapshot with this name.
func GroupKey(name string) string { return key("group\x00" + name) }

func groupRecord(k string) string { return groupsDir + "/" + k + ".json" }

// GroupLockPath names a group snapshot, by its record key, for the locks.
func GroupLockPath(key string) string { return groupsDir + "/" + key }

// MemberSnapshotName is the snapshot name of a group's member volume.
func MemberSnapshotName(group, volumeID string) string {
	return "group/" + key(group) + "/" + key(volumeID)
}

// CreateGroup records a group snapshot of these volumes, or returns the
// record an earlier call with the same name made. The same name for
// another set of volumes is ErrConflict.
func (s *Store) CreateGroup(ctx context.Context, name string, volumeIDs []string) (Group, error) {
	g, err := s.FindGroup(ctx, name)
	switch {
	case err == nil:
		if !g.OfVolumes(volumeIDs) {
			return Group{}, fmt.Errorf("group snapshot %q exists already, of other volumes: %w", name, ErrConflict)
		}
		return g, nil
	case !errors.Is(err, ErrNotFound):
		return Group{}, err
	}
	uid, err := s.uid()
	if err != nil {
		return Group{}, err
	}
	g = Group{UID: uid, Name: name, Created: s.now().UTC(), Unanswered: true}
	for _, id := range volumeIDs {
		g.Members = append(g.Members, GroupMember{VolumeID: id, SnapshotName: MemberSnapshotName(name, id)})
	}
	if err := share.MkdirAll(ctx, s.c, groupsDir, 0o700); err != nil {
		return Group{}, err
	}
	return g, s.writeJSON(ctx, groupRecord(GroupKey(name)), g)
}

// OfVolumes says whether g is a group snapshot of exactly these volumes
// (each named once), in any order.
func (g Group) OfVolumes(volumeIDs []string) bool {
	if len(g.Members) != len(volumeIDs) {
		return false
	}
	want := map[string]bool{}
	for _, id := range volumeIDs {
		want[id] = true
	}
	for _, m := range g.Members {
		if !want[m.VolumeID] {
			return false
		}
	}
	return true
}

// GetGroup returns the group record with this key and UID, or ErrNotFound.
func (s *Store) GetGroup(ctx context.Context, k, uid string) (Group, error) {
	var g Group
	err := s.readJSON(ctx, groupRecord(k), &g)
	if errors.Is(err, fs.ErrNotExist) || err == nil && g.UID != uid {
		return Group{}, fmt.Errorf("no group snapshot with UID %s: %w", uid, ErrNotFound)
	}
	return g, err
}

// Answered records, before a call answers the group with its ID, that it
// may have been: from then on only DeleteVolumeGroupSnapshot deletes it.
func (s *Store) Answered(ctx context.Context, g Group) (Group, error) {
	if !g.Unanswered {
		return g, nil
	}
	a := g
	a.Unanswered = false
	if err := s.writeJSON(ctx, groupRecord(GroupKey(g.Name)), a); err != nil {
		// g as it was: a caller that tries again with what this returned
		// (the driver runs a step once more on a new session when a
		// pooled one was dead) must write the record, not take it for
		// written.
		return g, err
	}
	return a, nil
}

// FindGroup is the record of the group snapshot named name, ErrNotFound
// when there is none.
func (s *Store) FindGroup(ctx context.Context, name string) (Group, error) {
	var g Group
	err := s.readJSON(ctx, groupRecord(GroupKey(name)), &g)
	if errors.Is(err, fs.ErrNotExist) {
		return Group{}, fmt.Errorf("no group snapshot %q: %w", name, ErrNotFound)
	}
	return g, err
}

// DeleteGroup removes the group's record; its members are deleted first,
// each as a snapshot.
func (s *Store) DeleteGroup(ctx context.Context, g Group) error {
	return s.removeFile(ctx, groupRecord(GroupKey(g.Name)))
}
