package driver

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/container-storage-interface/spec/lib/go/csi"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/types/known/timestamppb"
	"k8s.io/klog/v2"

	"github.com/fileshare-csi/fileshare-csi/pkg/copytree"
	"github.com/fileshare-csi/fileshare-csi/pkg/jobs"
	"github.com/fileshare-csi/fileshare-csi/pkg/share"
	"github.com/fileshare-csi/fileshare-csi/pkg/share/smb"
	"github.com/fileshare-csi/fileshare-csi/pkg/source"
	"github.com/fileshare-csi/fileshare-csi/pkg/state"
	"github.com/fileshare-csi/fileshare-csi/pkg/volume"
)

// snapshotWait is how long CreateSnapshot waits for a copy before it answers
// ready_to_use=false and lets csi-snapshotter poll: a small volume is ready
// in the first answer, a large one never holds the call.
const snapshotWait = 2 * time.Second

// knownShares remembers the shares this controller has taken snapshots on,
// for a ListSnapshots that names neither a snapshot nor a volume: the
// controller keeps no list of shares, and a request without filters names
// none. Kubernetes always filters; see docs/snapshots.md.
type knownShares struct {
	mu    sync.Mutex
	roots map[string]source.Source // canonical name -> the source as a class gave it
	last  map[string]time.Time     // canonical name -> when a call last named it
}

// add notes src's share, and reports whether it was new.
func (k *knownShares) add(src source.Source) bool {
	k.mu.Lock()
	defer k.mu.Unlock()
	if k.roots == nil {
		k.roots = map[string]source.Source{}
	}
	if k.last == nil {
		k.last = map[string]time.Time{}
	}
	name := lockName(place(volume.Volume{Source: src}).root)
	_, known := k.roots[name]
	k.roots[name] = src
	k.last[name] = time.Now()
	return !known
}

// namedSince returns the shares a call named at t or later.
func (k *knownShares) namedSince(t time.Time) []source.Source {
	k.mu.Lock()
	defer k.mu.Unlock()
	var out []source.Source
	for name, s := range k.roots {
		if !k.last[name].Before(t) {
			out = append(out, s)
		}
	}
	return out
}

func (k *knownShares) all() []source.Source {
	k.mu.Lock()
	defer k.mu.Unlock()
	out := make([]source.Source, 0, len(k.roots))
	for _, s := range k.roots {
		out = append(out, s)
	}
	return out
}

func snapshotJobKey(uid string) string { return "snapshot/" + uid }

// snapshotLock is what locks a snapshot's record and copy: its copy's path
// in the metadata directory at the session's root.
func snapshotLock(sid volume.Snapshot) string { return state.Snapshot{UID: sid.UID}.Tree() }

func (d *controller) CreateSnapshot(ctx context.Context, req *csi.CreateSnapshotRequest) (*csi.CreateSnapshotResponse, error) {
	if req.GetName() == "" {
		return nil, status.Error(codes.InvalidArgument, "snapshot name is missing")
	}
	if req.GetSourceVolumeId() == "" {
		return nil, status.Error(codes.InvalidArgument, "source volume ID is missing")
	}
	vol, err := existingVolumeID(req.GetSourceVolumeId())
	if err != nil {
		return nil, err
	}
	snap, err := d.takeSnapshot(ctx, vol, req.GetName(), credentialsFrom(req.GetSecrets()))
	if err != nil {
		return nil, toStatus(err)
	}
	return &csi.CreateSnapshotResponse{Snapshot: csiSnapshot(vol.Source, snap)}, nil
}

// pendingSnapshot is a snapshot whose copy may still run.
type pendingSnapshot struct {
	vol  volume.Volume
	snap state.Snapshot // as recorded; Ready once the copy is in place
	job  *jobs.Job      // nil when the record said ready already; its result is the ready record
}

// takeSnapshot records the snapshot, starts its copy and waits for it a
// little: the answer says ready when the copy finished in time.
func (d *controller) takeSnapshot(ctx context.Context, vol volume.Volume, name string, creds share.Credentials) (state.Snapshot, error) {
	p, err := d.startSnapshot(ctx, vol, name, "", creds)
	if err != nil {
		return state.Snapshot{}, err
	}
	if err := d.awaitSnapshots(ctx, []*pendingSnapshot{p}, snapshotWait); err != nil {
		return state.Snapshot{}, err
	}
	return p.snap, nil
}

// startSnapshot records the snapshot (or finds the record an earlier call
// made) and makes sure its copy runs, without waiting for it.
func (d *controller) startSnapshot(ctx context.Context, vol volume.Volume, name, groupID string, creds share.Credentials) (*pendingSnapshot, error) {
	p := &pendingSnapshot{vol: vol}
	var from copyEnd
	err := d.at(ctx, d.locate(ctx, vol), creds, true, func(s site) (err error) {
		p.snap, from, err = s.snapshot(ctx, name, groupID)
		return err
	})
	if errors.Is(err, state.ErrNotFound) && p.snap.UID != "" && groupID == "" {
		// A snapshot whose source is gone before its copy was whole
		// (site.snapshot): it can never be finished, so it goes, as
		// DeleteSnapshot deletes, and the refusal stands. A group's
		// member is the group's: refuseGroup deletes it with a group
		// never answered, and answers one the CO may hold with it.
		sid := volume.Snapshot{Source: vol.Source, Key: p.snap.Key(), UID: p.snap.UID}
		if derr := d.deleteSnapshot(ctx, sid, creds); derr != nil {
			return nil, derr
		}
	}
	if err != nil {
		return nil, err
	}
	d.snapshotShares.add(vol.Source)
	d.snapshotCalls.touch(p.snap.UID)
	d.provisionedOn(vol.Source) // the reclaimer passes over it
	key := snapshotJobKey(p.snap.UID)
	if p.snap.Ready {
		if j := d.jobs.Get(key); j != nil {
			d.jobs.Forget(key, j)
		}
		return p, nil
	}
	sid := volume.Snapshot{Source: vol.Source, Key: p.snap.Key(), UID: p.snap.UID}
	snap := p.snap
	p.job = d.jobs.Start(key, func(jctx context.Context) (any, error) {
		return d.copySnapshot(jctx, sid, snap, from, creds)
	})
	return p, nil
}

// awaitSnapshots waits for the copies of ps until all have ended, wait has
// passed or ctx ends. A copy that ended marks its snapshot ready, or fails
// the call (the next call starts the copy again, from where it stopped);
// one still running leaves its snapshot not ready.
func (d *controller) awaitSnapshots(ctx context.Context, ps []*pendingSnapshot, wait time.Duration) error {
	timer := time.NewTimer(wait)
	defer timer.Stop()
	for _, p := range ps {
		if p.job == nil {
			continue
		}
		select {
		case <-p.job.Done():
		case <-timer.C:
			return nil
		case <-ctx.Done():
			return nil
		}
		done, err := p.job.Result()
		if errors.Is(err, errInProgress) {
			// The copy runs in another process, or ended there: the
			// snapshot is not ready as far as this call knows, and the
			// CO asks again.
			continue
		}
		if err != nil {
			return fmt.Errorf("copying volume %s into snapshot %q: %w", p.vol.SubDir, p.snap.Name, err)
		}
		d.jobs.Forget(snapshotJobKey(p.snap.UID), p.job)
		p.snap, p.job = done.(state.Snapshot), nil
	}
	return nil
}

// snapshot records a snapshot of the volume named name (or finds the record
// an earlier call made), and says where its copy comes from.
//
// A volume that is gone (deleted after an earlier call of the same request
// recorded the snapshot, its answer lost) is no source any more. The
// snapshot an earlier call made of it is answered when its copy is whole
// (ready, or in place): it needs its source no more, and refused, the CO
// would never learn its ID, nor delete it. One whose copy is not whole is
// returned with the refusal, for the caller to delete: it can never be
// finished, and the CO, refused, may never have learnt its ID either.
func (s site) snapshot(ctx context.Context, name, groupID string) (state.Snapshot, copyEnd, error) {
	rec, err := s.copySource(ctx, "snapshot")
	if errors.Is(err, state.ErrNotFound) {
		snap, ferr := s.GetSnapshotByName(ctx, name)
		if ferr != nil || snap.SourceVolumeID != s.vol.ID() {
			return state.Snapshot{}, copyEnd{}, err // none, or another volume's: not this call's
		}
		whole := snap.Ready
		if !whole {
			if whole, ferr = s.CopyInPlace(ctx, snap); ferr != nil {
				return state.Snapshot{}, copyEnd{}, ferr
			}
		}
		if whole {
			return snap, copyEnd{}, nil
		}
		return snap, copyEnd{}, err
	}
	if err != nil {
		return state.Snapshot{}, copyEnd{}, err
	}
	snap, err := s.CreateSnapshot(ctx, state.SnapshotRequest{
		Name: name, SourceVolumeID: s.vol.ID(), SourcePath: s.path, SizeBytes: rec.CapacityBytes, GroupID: groupID,
	})
	return snap, copyEnd{root: s.root, prefix: s.prefix, path: s.path, rootID: rec.RootID}, err
}

// copySnapshot copies the volume into the snapshot's partial copy and,
// once it is whole, moves it into place and records the snapshot ready.
func (d *controller) copySnapshot(ctx context.Context, sid volume.Snapshot, snap state.Snapshot, from copyEnd, creds share.Credentials) (state.Snapshot, error) {
	logger := klog.FromContext(ctx).WithValues("snapshot", snap.Name, "source", snap.SourcePath)
	// A call that read the record just before an earlier copy finished
	// and was forgotten starts this one after it: the copy in place
	// stands, and a second one would only fail to move into its place.
	// A copy an earlier call moved into place before it was cut short is
	// whole too: it is recorded ready, and nothing is copied again.
	// This run writes a pack of its own (state.RunPack): one of another
	// process that runs late never writes into the pack that is kept.
	var done state.Snapshot
	var pack string
	finished := false
	err := d.lockedAt(ctx, d.locateShare(ctx, sid.Source), creds, snapshotLock(sid), func(st site) error {
		cur, err := st.GetSnapshot(ctx, sid.Key, sid.UID)
		if err != nil || cur.Ready {
			done, finished = cur, err == nil
			return err
		}
		if finished, err = st.CopyInPlace(ctx, cur); err != nil {
			return err
		}
		if !finished {
			pack, err = st.RunPack(cur)
			return err
		}
		done, err = st.CompleteSnapshot(ctx, cur, "")
		return err
	})
	if err != nil || finished {
		return done, err
	}
	start := time.Now()
	var copied copytree.Stats
	to := copyEnd{root: from.root, prefix: from.prefix, path: snap.PartialTree(), pack: pack, beat: snap.UID, still: stillCopying(sid),
		begin: func(ctx context.Context, st *state.Store) {
			// Earlier runs' packs: this run writes its own from the start.
			if err := st.DropRunPacks(ctx, snap); err != nil {
				logger.Info("cannot remove the packs of earlier runs of the copy; the commit or the reclaimer does", "err", err.Error())
			}
		}}
	err = d.copyBetween(ctx, "snapshot", from, to, creds, logger, func(c share.Client, stats copytree.Stats) error {
		copied = stats
		return d.lockedSite(ctx, d.locateShare(ctx, sid.Source).on(ctx, c), snapshotLock(sid), func(st site) error {
			cur, err := st.GetSnapshot(ctx, sid.Key, sid.UID)
			if err != nil {
				return err // deleted while it was copied
			}
			cur.Files, cur.Bytes = stats.Files, stats.Bytes
			done, err = st.CompleteSnapshot(ctx, cur, pack)
			return err
		})
	})
	if err != nil {
		logger.Error(err, "snapshot copy stopped; the next CreateSnapshot resumes it")
		return state.Snapshot{}, err
	}
	logger.Info("snapshot ready", "files", copied.Files, "bytes", copied.Bytes, "serverSideBytes", copied.ServerSideBytes,
		"resumed", copied.Resumed, "skipped", copied.Skipped, "duration", time.Since(start).String())
	return done, nil
}

// stillCopying is a snapshot's copyEnd.still: its record is there and not
// ready. Only the share's answer stops the copy; a failure to ask does not.
func stillCopying(sid volume.Snapshot) func(context.Context, *state.Store) error {
	return func(ctx context.Context, st *state.Store) error {
		cur, err := st.GetSnapshot(ctx, sid.Key, sid.UID)
		if errors.Is(err, state.ErrNotFound) || err == nil && cur.Ready {
			return errNoLongerWanted
		}
		return nil
	}
}

// snapshotPack is where the snapshot keeps its small files, or "" for a
// snapshot recorded before packs, whose tree holds them all.
func snapshotPack(snap state.Snapshot) string {
	if !snap.Pack {
		return ""
	}
	return snap.PackPath()
}

// idSource is the source a snapshot's ID names: its volume's, as
// CreateSnapshot answered it. Classes whose bases differ share one record
// directory on a share, so the source a listing reached the share through
// may be another class's, which would give the snapshot an ID of another
// shape than the one the CO holds.
func idSource(listed source.Source, snap state.Snapshot) source.Source {
	if vol, err := volume.ParseID(snap.SourceVolumeID); err == nil {
		return vol.Source
	}
	return listed
}

func csiSnapshot(src source.Source, snap state.Snapshot) *csi.Snapshot {
	return &csi.Snapshot{
		SnapshotId:      volume.Snapshot{Source: src, Key: snap.Key(), UID: snap.UID}.ID(),
		SourceVolumeId:  snap.SourceVolumeID,
		SizeBytes:       snap.SizeBytes,
		CreationTime:    timestamppb.New(snap.Created),
		ReadyToUse:      snap.Ready,
		GroupSnapshotId: snap.GroupID,
		// No topology of its own: a snapshot lies on its share, reachable
		// by the controller from anywhere, and a restore is a CreateVolume
		// whose volume gets its protocol's topology (NFS: Linux nodes).
	}
}

// GetSnapshot reports one snapshot. Without secrets an SMB share is read
// through an idle session an earlier call with secrets left in the pool.
func (d *controller) GetSnapshot(ctx context.Context, req *csi.GetSnapshotRequest) (*csi.GetSnapshotResponse, error) {
	if req.GetSnapshotId() == "" {
		return nil, status.Error(codes.InvalidArgument, "snapshot ID is missing")
	}
	sid, err := volume.ParseSnapshotID(req.GetSnapshotId())
	if err != nil {
		return nil, fail(state.ErrNotFound, "no such snapshot: %v", err)
	}
	var snap state.Snapshot
	l := d.locateShare(ctx, sid.Source)
	found, err := d.atOrIdle(ctx, l, credentialsFrom(req.GetSecrets()), retryDead, func(s site) (err error) {
		snap, err = s.GetSnapshot(ctx, sid.Key, sid.UID)
		return err
	})
	if !found {
		return nil, fail(errNoSession, "GetSnapshot carries no secrets and no SMB session to %s is open: pass the snapshot secrets", l.root.String())
	}
	if err != nil {
		return nil, toStatus(err)
	}
	return &csi.GetSnapshotResponse{Snapshot: csiSnapshot(sid.Source, snap)}, nil
}

func (d *controller) DeleteSnapshot(ctx context.Context, req *csi.DeleteSnapshotRequest) (*csi.DeleteSnapshotResponse, error) {
	if req.GetSnapshotId() == "" {
		return nil, status.Error(codes.InvalidArgument, "snapshot ID is missing")
	}
	sid, err := volume.ParseSnapshotID(req.GetSnapshotId())
	if err != nil {
		klog.FromContext(ctx).Info("DeleteSnapshot of an ID this driver never issued: nothing to delete", "reason", err.Error())
		return &csi.DeleteSnapshotResponse{}, nil
	}
	if err := d.deleteSnapshot(ctx, sid, credentialsFrom(req.GetSecrets())); err != nil {
		return nil, err
	}
	return &csi.DeleteSnapshotResponse{}, nil
}

func (d *controller) deleteSnapshot(ctx context.Context, sid volume.Snapshot, creds share.Credentials) error {
	// A copy still running stops first: it must not write into what is
	// being deleted, nor mark it ready afterwards.
	if err := d.jobs.Cancel(ctx, snapshotJobKey(sid.UID)); err != nil {
		return fail(errInProgress, "the snapshot's copy did not stop in time; retry")
	}
	err := d.lockedAt(ctx, d.locateShare(ctx, sid.Source), creds, snapshotLock(sid), func(st site) error {
		snap, err := st.GetSnapshot(ctx, sid.Key, sid.UID)
		if errors.Is(err, state.ErrNotFound) {
			return nil
		}
		if err != nil {
			return err
		}
		return st.DeleteSnapshot(ctx, snap)
	})
	return deleteStatus(err)
}

// ListSnapshots reads the snapshot records of the share a filter names, or
// of every share this controller has snapshotted on since it started.
func (d *controller) ListSnapshots(ctx context.Context, req *csi.ListSnapshotsRequest) (*csi.ListSnapshotsResponse, error) {
	page, err := parseListPage(req.GetStartingToken(), req.GetMaxEntries())
	if err != nil {
		return nil, err
	}
	creds := credentialsFrom(req.GetSecrets())
	var shares []source.Source
	unfiltered := false
	keep := func(state.Snapshot) bool { return true }
	read := d.listShareSnapshots
	switch {
	case req.GetSnapshotId() != "":
		sid, err := volume.ParseSnapshotID(req.GetSnapshotId())
		if err != nil {
			return &csi.ListSnapshotsResponse{}, nil
		}
		shares = []source.Source{sid.Source}
		// The ID names the record: read that one, not every snapshot on
		// the share (the sidecar polls this while a snapshot is made).
		read = func(ctx context.Context, src source.Source, creds share.Credentials) ([]state.Snapshot, error) {
			return d.shareSnapshot(ctx, sid, creds)
		}
		if vid := req.GetSourceVolumeId(); vid != "" {
			// Both filters: the snapshot must be of that volume too.
			vol, err := volume.ParseID(vid)
			if err != nil {
				return &csi.ListSnapshotsResponse{}, nil
			}
			id := vol.ID()
			keep = func(s state.Snapshot) bool { return s.SourceVolumeID == id }
		}
	case req.GetSourceVolumeId() != "":
		vol, err := volume.ParseID(req.GetSourceVolumeId())
		if err != nil {
			return &csi.ListSnapshotsResponse{}, nil
		}
		shares = []source.Source{vol.Source}
		id := vol.ID()
		keep = func(s state.Snapshot) bool { return s.SourceVolumeID == id }
	default:
		shares = d.snapshotShares.all()
		unfiltered = true
	}
	type found struct {
		src  source.Source
		snap state.Snapshot
	}
	var all []found
	// Two classes on one export or share (other bases) reach the same
	// records: each snapshot is listed once.
	seen := map[string]bool{}
	for _, src := range shares {
		c := creds
		if unfiltered && !smb.HasLoginFor(src, creds) {
			// A share of another class whose Secret logs in another way
			// (NTLM and Kerberos classes side by side): read it as a call
			// without secrets would, not fail the whole list.
			c = share.Credentials{}
		}
		snaps, err := read(ctx, src, c)
		if err != nil {
			return nil, err
		}
		for _, s := range snaps {
			if keep(s) && !seen[s.UID] {
				seen[s.UID] = true
				all = append(all, found{idSource(src, s), s})
			}
		}
	}
	entries, next := pageOf(page, all, func(f found) string { return listKey(f.snap.Created, f.snap.UID) })
	resp := &csi.ListSnapshotsResponse{NextToken: next}
	for _, f := range entries {
		resp.Entries = append(resp.Entries, &csi.ListSnapshotsResponse_Entry{Snapshot: csiSnapshot(f.src, f.snap)})
	}
	return resp, nil
}

// shareSnapshot reads the one record sid names, as ListSnapshots with a
// snapshot ID reports it: none when there is no such snapshot, or when an
// SMB share is asked about without secrets and no idle session to it is
// open (as listShareSnapshots).
func (d *controller) shareSnapshot(ctx context.Context, sid volume.Snapshot, creds share.Credentials) ([]state.Snapshot, error) {
	var out []state.Snapshot
	_, err := d.atOrIdle(ctx, d.locateShare(ctx, sid.Source), creds, retryDead, func(s site) error {
		snap, err := s.GetSnapshot(ctx, sid.Key, sid.UID)
		if errors.Is(err, state.ErrNotFound) {
			return nil
		}
		if err == nil {
			out = []state.Snapshot{snap}
		}
		return err
	})
	return out, toStatus(err)
}

// listShareSnapshots reads one share's snapshot records. A call without
// secrets reads an SMB share through an idle session that an earlier call
// with secrets left in the pool, or finds nothing there.
func (d *controller) listShareSnapshots(ctx context.Context, src source.Source, creds share.Credentials) ([]state.Snapshot, error) {
	var out []state.Snapshot
	_, err := d.atOrIdle(ctx, d.locateShare(ctx, src), creds, retryDead, func(s site) (err error) {
		out, err = s.ListSnapshots(ctx)
		return err
	})
	return out, toStatus(err)
}
