package state

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"slices"
	"strings"
	"sync"
	"time"
)

// Reclaimer undoes, on a share, what calls that never came back left: the
// intents of CreateVolumes that stopped before their commit and were not
// retried within IntentTTL (their claim was deleted while Pending), with
// their holds, and records' temporary files. It reads the intents and the
// temporaries, never every volume's record or hold: a pass costs what
// there is to reclaim, plus one listing of the records' directory. (Holds
// outlive neither their record nor their intent: a create writes them
// after its intent, a delete removes them before its record. Holds older
// versions left are cleared by the next create that meets them.)
//
// Its rule: it removes only what the driver wrote itself and nothing else
// holds. The directory of an abandoned create is removed when it is empty
// and its intent does not say it was there before the driver's creates
// (Record.AdoptedID); one that holds anything (a pod wrote into it, or it
// was a retained directory being adopted) is kept and reported, never
// deleted.
//
// A volume being filled from a snapshot or a volume keeps its intent until
// it is filled, and is answered only then: one whose claim went away (no
// call and no copy for IntentTTL, VolumeBusy, and passes of this process
// that saw it so for IntentTTL, its beat on the share unchanged: a
// restarted controller knows of no call yet, and none knows another
// process's copy; see busy.go) is deleted whole, as a DeleteVolume would,
// since nothing but its copy wrote into it.
//
// Temporary files and torn intents carry no time of their own: they are
// removed once a pass finds them again IntentTTL after the pass that first
// saw them, so a write in flight is never taken for a leftover.
//
// A snapshot whose copy never finished (a partial copy, or a pack beside
// no finished copy) is abandoned when no call asked for it and no copy of
// it ran (SnapshotBusy, and its beat) for IntentTTL: its CreateSnapshot was never
// answered with an ID, or the CO gave up on it, so nothing will delete it.
// It is deleted as DeleteSnapshot deletes, with every guard, under the
// snapshot's lock, but its record first (deleteAbandoned), so that a pass
// cut short leaves only what a later pass finds. A snapshot record with no
// copy begun holds no data and is left alone.
type Reclaimer struct {
	// SnapshotBusy says whether this process ran a copy of the snapshot
	// with this UID, or had a call for it, within IntentTTL. Nil: no
	// snapshot is reclaimed.
	SnapshotBusy func(uid string) bool
	// VolumeBusy says the same of a volume being filled from a snapshot
	// or a volume (its copy may run for hours). Nil: no such volume is
	// reclaimed.
	VolumeBusy func(uid string) bool

	mu   sync.Mutex
	seen map[string]sighting // share/path -> what a pass first saw
	// unfolded: shares whose records and intents an earlier version
	// keyed by an unfolded path this process has moved (unfold).
	unfolded map[string]bool
}

// sighting is when a pass first saw a leftover, and with which beat (see
// busy.go; "" for none, and for what no copy beats for).
type sighting struct {
	first time.Time
	beat  string
}

// ReclaimReport says what one pass did.
type ReclaimReport struct {
	Intents     int      // abandoned creates undone, or finished after their commit
	Temps       int      // temporary files and torn intents
	Snapshots   int      // abandoned snapshots deleted
	Quarantines int      // quarantined directories no call finished deleting
	Kept        []string // directories of abandoned creates that hold data
}

// LockFunc holds the volume lock of the directory p until the returned
// function is called.
type LockFunc func(ctx context.Context, p string) (func(), error)

// tempDirs are where records are written through temporaries (intents
// too, but the pass over intentsDir takes theirs).
var tempDirs = []string{volumesDir, archivesDir, snapshotsDir, groupsDir, volumeGroupsDir}

// Pass reclaims once on the share s works on; shareName tells shares apart
// in what the Reclaimer remembers between passes.
func (r *Reclaimer) Pass(ctx context.Context, s *Store, shareName string, lock LockFunc) (ReclaimReport, error) {
	var rep ReclaimReport
	now := s.now()
	live := map[string]bool{}
	// quiet says whether a time-less leftover has been seen for IntentTTL
	// with the same beat: a beat that changed starts its time again.
	quiet := func(p, beat string) bool {
		k := shareName + "\x00" + p
		live[k] = true
		r.mu.Lock()
		defer r.mu.Unlock()
		if r.seen == nil {
			r.seen = map[string]sighting{}
		}
		was, ok := r.seen[k]
		if !ok || was.beat != beat {
			r.seen[k] = sighting{first: now, beat: beat}
			return false
		}
		return now.Sub(was.first) >= IntentTTL
	}
	old := func(p string) bool { return quiet(p, "") }
	// leftover removes a time-less leftover (a temporary, a torn intent)
	// once the passes have seen it for IntentTTL.
	leftover := func(p string) error {
		if !old(p) {
			return nil
		}
		if err := s.removeFile(ctx, p); err != nil {
			return err
		}
		rep.Temps++
		return nil
	}
	// idle says the same of a volume or snapshot a copy fills, by its
	// beat on the share: a copy in another process beats there.
	idle := func(p, uid string) (bool, error) {
		b, err := s.ReadBeat(ctx, uid)
		if err != nil {
			return false, err
		}
		return quiet(p, b.Raw), nil
	}
	if err := r.unfold(ctx, s, shareName, lock); err != nil {
		return rep, err
	}
	names, err := s.list(ctx, intentsDir)
	if err != nil {
		return rep, err
	}
	for _, n := range names {
		p := intentsDir + "/" + n
		if strings.HasPrefix(n, TempPrefix) {
			// An intent is replaced through a temporary (begin, createNew's
			// adopted), which a cut or a late request may leave.
			if err := leftover(p); err != nil {
				return rep, err
			}
			continue
		}
		var in Record
		err := s.readJSON(ctx, p, &in)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			continue
		case errors.Is(err, ErrConflict):
			if err := leftover(p); err != nil {
				return rep, err
			}
			continue
		case err != nil:
			return rep, err
		case in.Path == "" || s.intentPath(in.Path) != p || now.Sub(in.Created) < IntentTTL:
			continue
		case in.Populating && (r.VolumeBusy == nil || r.VolumeBusy(in.UID)):
			continue
		case in.Populating:
			// Its copy may run for hours, and VolumeBusy knows only this
			// process's calls and copies: after a restart it knows none,
			// and a copy the retry would resume is not yet asked for; a
			// copy in another process, it never knows. So the pass must
			// also have seen it idle, its beat unchanged, for IntentTTL.
			ok, err := idle(p, in.UID)
			if err != nil {
				return rep, err
			}
			if !ok {
				continue
			}
		}
		kept, done, err := r.undo(ctx, s, in, lock)
		if err != nil {
			return rep, fmt.Errorf("undo the create of %q at %s: %w", in.Name, in.Path, err)
		}
		if done {
			rep.Intents++
		}
		if kept != "" {
			rep.Kept = append(rep.Kept, kept)
		}
	}
	for _, dir := range tempDirs {
		names, err := s.list(ctx, dir)
		if err != nil {
			return rep, err
		}
		for _, n := range names {
			p := dir + "/" + n
			if strings.HasPrefix(n, TempPrefix) {
				if err := leftover(p); err != nil {
					return rep, err
				}
			}
		}
		if dir == snapshotsDir {
			n, stray, err := r.abandonedSnapshots(ctx, s, names, idle, lock)
			rep.Snapshots += n
			rep.Temps += stray
			if err != nil {
				return rep, err
			}
		}
	}
	// Beats no copy writes any more: a live copy rewrites its own every
	// BeatInterval, so one unchanged for IntentTTL is left by a process
	// that died, or was removed by none (StopBeat failed).
	names, err = s.list(ctx, busyDir)
	if err != nil {
		return rep, err
	}
	for _, n := range names {
		p := busyDir + "/" + n
		if ok, err := idle(p, n); err != nil {
			// Not a beat the driver wrote (a directory, a name no UID
			// has): left alone, and the pass goes on.
			s.logf("cannot read a beat in the metadata directory", "path", p, "error", err.Error())
			continue
		} else if ok {
			if err := s.removeFile(ctx, p); err != nil {
				return rep, err
			}
			rep.Temps++
		}
	}
	// Quarantines no call will finish: a DeleteVolume whose RMDIR found its
	// directory gone, moved here just before by a rename of an earlier try
	// that the server ran late (its process killed, or its deadline cut
	// it, just after it sent it), answered done: an RMDIR of a missing
	// directory is success, and one more look on every delete would cost
	// NFSv3 a round trip. One whose volume or snapshot record is still
	// there is its delete's to finish (its retry comes; until then a claim
	// of the same directory is told to wait, not refused). The rest is
	// being deleted and nothing names it, so the purge, with every guard of
	// the delete walk, ends where any call would.
	if names, err = s.list(ctx, deletingDir); err != nil {
		return rep, err
	}
	var named map[string]bool // the UIDs records name; read once a quarantine is due
	for _, n := range names {
		p := deletingDir + "/" + n
		if !old(p) || r.SnapshotBusy == nil || r.VolumeBusy == nil || r.SnapshotBusy(n) || r.VolumeBusy(n) {
			continue
		}
		if named == nil {
			if named, err = s.namedUIDs(ctx); err != nil {
				return rep, err
			}
		}
		if named[n] || named[""] {
			continue
		}
		switch err := s.Resume(ctx, n); {
		case errors.Is(err, ErrNotFound):
			continue // gone meanwhile
		case cutShort(ctx, err):
			return rep, err
		case err != nil:
			// What the walk will not remove stays, logged, outside every
			// volume; the pass goes on.
			s.logf("cannot finish the delete of a quarantined directory", "path", p, "error", err.Error())
			continue
		}
		if _, err := s.c.Stat(ctx, p); !errors.Is(err, fs.ErrNotExist) {
			continue // left (a marked top, entries the server keeps): purge logged it
		}
		rep.Quarantines++
	}
	// Forget what is gone from this share.
	r.mu.Lock()
	for k := range r.seen {
		if strings.HasPrefix(k, shareName+"\x00") && !live[k] {
			delete(r.seen, k)
		}
	}
	r.mu.Unlock()
	return rep, nil
}

// abandonedSnapshots deletes the snapshots among the entries of the
// snapshots directory whose copy never finished and nobody asked for
// within IntentTTL, and the partial copies left beside finished ones
// (stray). The records are read only when one is due.
func (r *Reclaimer) abandonedSnapshots(ctx context.Context, s *Store, names []string, idle func(p, uid string) (bool, error), lock LockFunc) (deleted, stray int, err error) {
	if r.SnapshotBusy == nil {
		return 0, 0, nil
	}
	finished := map[string]bool{}
	for _, n := range names {
		finished[n] = true // <uid>: a copy in place
	}
	var due []string
	for _, n := range names {
		if uid, ok := strings.CutSuffix(n, ".packs"); ok && finished[uid] {
			// Packs a late run of the copy held open when the snapshot
			// was finished: nothing reads them, and no copy writes them
			// once they stayed for IntentTTL.
			if ok, err := idle(snapshotsDir+"/"+n, uid); err != nil {
				return 0, 0, err
			} else if ok {
				if err := s.DropRunPacks(ctx, Snapshot{UID: uid}); err != nil {
					s.logf("cannot remove the packs a late run left beside a finished snapshot", "uid", uid, "error", err.Error())
				}
			}
			continue
		}
		uid, ok := strings.CutSuffix(n, ".partial")
		if !ok {
			if uid, ok = cutAnySuffix(n, ".pack", ".packs"); !ok || finished[uid] {
				continue
			}
		}
		if r.SnapshotBusy(uid) {
			continue // not seen: its time starts again (see Pass)
		}
		ok, err := idle(snapshotsDir+"/"+n, uid)
		if err != nil {
			return 0, 0, err
		}
		if ok && !slices.Contains(due, uid) {
			due = append(due, uid)
		}
	}
	if len(due) == 0 {
		return 0, 0, nil
	}
	records, err := s.ListSnapshots(ctx)
	if err != nil {
		return 0, 0, err
	}
	for _, uid := range due {
		snap := Snapshot{UID: uid}
		for _, rec := range records {
			if rec.UID == uid {
				snap = rec
			}
		}
		if snap.Ready {
			if !finished[uid] || !slices.Contains(names, uid+".partial") {
				continue // finished since the listing
			}
			// A partial copy beside the finished one: a copy taken over
			// while it paused after its last look at the fence (design.md,
			// the copy fence) committed, and the new owner's workers made
			// the partial copy again before their next beat stopped them.
			// Nothing reads it, and nothing writes it once it stayed for
			// IntentTTL.
			ok, err := r.dropStrayPartial(ctx, s, snap, lock)
			if err != nil {
				return deleted, stray, fmt.Errorf("delete the partial copy left beside the finished snapshot %s: %w", uid, err)
			}
			if ok {
				stray++
			}
			continue
		}
		ok, err := r.deleteAbandoned(ctx, s, snap, lock)
		if err != nil {
			return deleted, stray, fmt.Errorf("delete the abandoned snapshot %s: %w", uid, err)
		}
		if ok {
			deleted++
		}
	}
	return deleted, stray, nil
}

// dropStrayPartial deletes the partial copy of the finished snapshot snap,
// with every guard of a delete.
func (r *Reclaimer) dropStrayPartial(ctx context.Context, s *Store, snap Snapshot, lock LockFunc) (bool, error) {
	return r.whileIdle(ctx, snap, lock, func() (bool, error) {
		s.logf("deleting a partial copy a late run of a snapshot's copy left beside the finished snapshot", "name", snap.Name, "uid", snap.UID)
		return true, s.deleteDir(ctx, Record{UID: snap.UID, Path: snap.PartialTree()})
	})
}

// deleteAbandoned deletes one abandoned snapshot. A snapshot without a
// record (its delete was cut short after the record) has only its copy.
func (r *Reclaimer) deleteAbandoned(ctx context.Context, s *Store, snap Snapshot, lock LockFunc) (bool, error) {
	return r.whileIdle(ctx, snap, lock, func() (bool, error) {
		if snap.Name == "" {
			if err := s.deleteDir(ctx, Record{UID: snap.UID, Path: snap.PartialTree()}); err != nil {
				return false, err
			}
			return true, s.removePacks(ctx, snap)
		}
		cur, err := s.GetSnapshot(ctx, snap.Key(), snap.UID)
		if errors.Is(err, ErrNotFound) || err == nil && cur.Ready {
			return false, nil
		}
		if err != nil {
			return false, err
		}
		s.logf("deleting a snapshot nobody asked for since its copy stopped (its CreateSnapshot was never answered, or the CO gave up on it)", "name", cur.Name, "uid", cur.UID)
		// The record goes first, not last as in DeleteSnapshot: no
		// retry comes for an abandoned snapshot, and what this pass
		// finds it by (the partial copy, the packs) goes in the
		// delete. A pass cut after that with the record kept would
		// leave a record nothing finds any more, naming a quarantine
		// (the partial copy moved there) that the sweep therefore
		// never takes: the copy's data for good. Without the record,
		// a later pass finds what is left as a snapshot with none (the
		// partial copy, the packs: above), or as nobody's quarantine.
		if err := s.removeFile(ctx, snapshotRecord(cur.Key())); err != nil {
			return false, err
		}
		return true, s.DeleteSnapshot(ctx, cur)
	})
}

// whileIdle runs do under the snapshot's lock, after asking again whether
// a call came for it meanwhile (then it does nothing, and answers false).
func (r *Reclaimer) whileIdle(ctx context.Context, snap Snapshot, lock LockFunc, do func() (bool, error)) (bool, error) {
	unlock, err := lock(ctx, snap.Tree())
	if err != nil {
		return false, err
	}
	defer unlock()
	if r.SnapshotBusy(snap.UID) {
		return false, nil
	}
	return do()
}

// undo rolls back one abandoned intent under its directory's lock, after
// reading it again: a retry may have finished it meanwhile.
func (r *Reclaimer) undo(ctx context.Context, s *Store, in Record, lock LockFunc) (kept string, done bool, err error) {
	unlock, err := lock(ctx, in.Path)
	if err != nil {
		return "", false, err
	}
	defer unlock()
	now, err := s.intent(ctx, in.Path)
	if errors.Is(err, fs.ErrNotExist) {
		return "", false, nil
	}
	if err != nil || now.UID != in.UID {
		return "", false, err
	}
	if now.Populating && r.VolumeBusy(now.UID) {
		return "", false, nil // a call for it came meanwhile
	}
	kept, err = s.rollBack(ctx, now)
	return kept, err == nil, err
}

// unfold moves, on a caseless share, what a version before keys were
// folded wrote under a path with a capital letter to its folded key, once
// per share in this process's life: every such record (unfoldedRecord:
// holds first), so that the nesting checks of every spelling see its
// volume; and every such intent, so that this pass rolls its create back
// as any other (one a create made since under the folded key supersedes
// goes: that create adopts or undoes the directory). Until then a record
// is moved when a call reads it by its own spelling (Store.record).
func (r *Reclaimer) unfold(ctx context.Context, s *Store, shareName string, lock LockFunc) error {
	r.mu.Lock()
	done := r.unfolded[shareName]
	r.mu.Unlock()
	if done || !s.caseless {
		return nil
	}
	files, err := s.readAll(ctx, volumesDir)
	if err != nil {
		return err
	}
	under := func(p string, fn func() error) error {
		unlock, err := lock(ctx, p)
		if err != nil {
			return err
		}
		defer unlock()
		return fn()
	}
	for _, f := range files {
		var rec Record
		if decodeJSON(f.path, f.data, &rec) != nil || !s.unfolded(rec.Path) || f.path != recordPath(rec.Path) {
			continue
		}
		if err := under(rec.Path, func() error {
			_, err := s.record(ctx, rec.Path)
			if errors.Is(err, fs.ErrNotExist) {
				err = nil // deleted meanwhile
			}
			return err
		}); err != nil {
			return fmt.Errorf("move the record of %s to its folded key: %w", rec.Path, err)
		}
	}
	names, err := s.list(ctx, intentsDir)
	if err != nil {
		return err
	}
	for _, n := range names {
		p := intentsDir + "/" + n
		var in Record
		if s.readJSON(ctx, p, &in) != nil || !s.unfolded(in.Path) || p != intentPath(in.Path) {
			continue
		}
		if err := under(in.Path, func() error {
			err := s.c.Rename(ctx, p, s.intentPath(in.Path))
			if errors.Is(err, fs.ErrExist) {
				err = s.removeFile(ctx, p)
			}
			if errors.Is(err, fs.ErrNotExist) {
				err = nil
			}
			return err
		}); err != nil {
			return fmt.Errorf("move the intent of %s to its folded key: %w", in.Path, err)
		}
	}
	r.mu.Lock()
	if r.unfolded == nil {
		r.unfolded = map[string]bool{}
	}
	r.unfolded[shareName] = true
	r.mu.Unlock()
	return nil
}

// list names the entries of dir; none when it does not exist.
func (s *Store) list(ctx context.Context, dir string) ([]string, error) {
	names, err := s.c.List(ctx, dir, 0)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	return names, err
}

// cutAnySuffix is strings.CutSuffix with the first of suffixes s ends with.
func cutAnySuffix(s string, suffixes ...string) (string, bool) {
	for _, x := range suffixes {
		if before, ok := strings.CutSuffix(s, x); ok {
			return before, true
		}
	}
	return s, false
}

// namedUIDs are the UIDs the share's volume and snapshot records name. A
// record that cannot be read names one it cannot tell: the set then holds
// "", and no quarantine is taken for nobody's.
func (s *Store) namedUIDs(ctx context.Context) (map[string]bool, error) {
	out := map[string]bool{}
	for _, dir := range []string{volumesDir, snapshotsDir} {
		files, err := s.readAll(ctx, dir)
		if err != nil {
			return nil, err
		}
		for _, f := range files {
			var rec struct {
				UID string `json:"uid"`
			}
			if err := decodeJSON(f.path, f.data, &rec); err != nil || rec.UID == "" {
				out[""] = true
				continue
			}
			out[rec.UID] = true
		}
	}
	return out, nil
}
