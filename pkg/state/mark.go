package state

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"

	"github.com/fileshare-csi/fileshare-csi/pkg/share"
)

// Root marks: one file per root's file ID in rootsDir. A file ID outlives
// its directory: once a directory is removed behind the driver's back, the
// file system may give its ID to the next directory it makes, a volume's
// root made later among them, whose mark then has the same name. So a mark
// is removed by ID only by the root that holds the directory with that ID
// (dropMark): a volume whose directory went first leaves a mark that
// another root holds now.

// marked reports whether a root mark names this file ID. Only the server's
// "no such file" says there is none: any other failure to look is an error,
// never a directory free to adopt, repoint a record at, or remove.
func (s *Store) marked(ctx context.Context, id uint64) (bool, error) {
	_, err := s.c.Stat(ctx, rootMarker(id))
	switch {
	case err == nil:
		return true, nil
	case errors.Is(err, fs.ErrNotExist):
		return false, nil
	}
	return false, fmt.Errorf("look for the root mark of file ID %d: %w", id, err)
}

// isMarked is marked for a cleanup that may skip its step: a mark it could
// not look for counts as one (the directory is left).
func (s *Store) isMarked(ctx context.Context, id uint64) bool {
	m, err := s.marked(ctx, id)
	return m || err != nil
}

// writeMarker makes an empty file: its name is all it says, and an empty
// file costs the server no data write to stable storage.
func (s *Store) writeMarker(ctx context.Context, p string) error {
	return s.writeFile(ctx, p, nil)
}

// markRoot is what follows the commit of a volume answered at once (made
// empty, not filled from a snapshot or volume, nor replacing an old root):
// its intent renamed onto its root's mark, one step for the mark's write
// and the intent's removal. The record stands, so the intent has served;
// and a volume's mark says all it says by its name, so the intent's
// content in it names no path (rootMark), as an empty mark does.
//
// Only this volume's intent becomes its mark (a later call's, for the same
// claim, is removed as any intent after a commit). With none to rename (a
// call cut after the rename, or the intent removed since) the mark there is
// kept, unless it names paths: a stale mark of an archive or snapshot whose
// file ID this root was given, which the root's own empty one replaces, as
// writeMarker does.
func (s *Store) markRoot(ctx context.Context, rec Record) error {
	intent, mark := s.intentPath(rec.Path), rootMarker(rec.RootID)
	switch in, err := s.intent(ctx, rec.Path); {
	case err == nil && in.UID == rec.UID && in.AdoptedID != 0:
		// What an intent says of the directory it found ends with the
		// commit: the mark is the intent without it, as a retry that
		// never learned it (its create cut before adopted) writes it.
		in.AdoptedID = 0
		b, err := json.Marshal(in)
		if err == nil {
			err = s.writeFile(ctx, mark, b)
		}
		if err != nil {
			return wrapMark(rec.RootID, err)
		}
		return s.removeFile(ctx, intent)
	case err == nil && in.UID == rec.UID:
		err := s.c.Replace(ctx, intent, mark)
		if errors.Is(err, fs.ErrNotExist) {
			err = s.markAgain(ctx, intent, mark)
		}
		if !errors.Is(err, errIntentGone) {
			return wrapMark(rec.RootID, err)
		}
	case err != nil && !errors.Is(err, fs.ErrNotExist):
		return err
	}
	b, err := s.c.ReadFile(ctx, mark)
	var m rootMark
	switch {
	case errors.Is(err, fs.ErrNotExist):
		err = s.writeMarker(ctx, mark)
	case err != nil:
		return fmt.Errorf("read the root mark of file ID %d: %w", rec.RootID, err)
	case json.Unmarshal(b, &m) == nil && len(m.Paths) > 0:
		err = s.writeMarker(ctx, mark)
	}
	if err != nil {
		return err
	}
	return s.removeFile(ctx, intent)
}

// errIntentGone: the intent markRoot read went before its rename.
var errIntentGone = errors.New("the intent went")

// markAgain follows a rename of the intent onto the mark that found no
// such file: either the roots directory is not made yet, or the intent
// went since markRoot read it, renamed by a request of this call's
// sender that the server ran late (a process killed just after it sent
// it, a call cut by its deadline) or removed by a concurrent call. The
// second is errIntentGone, and markRoot goes on as for an intent it never
// found: never an error for a step that is done.
func (s *Store) markAgain(ctx context.Context, intent, mark string) error {
	if _, err := s.c.Stat(ctx, intent); errors.Is(err, fs.ErrNotExist) {
		return errIntentGone
	} else if err != nil {
		return err
	}
	if err := share.MkdirAll(ctx, s.c, rootsDir, 0o755); err != nil {
		return fmt.Errorf("create %s: %w", rootsDir, err)
	}
	err := s.c.Replace(ctx, intent, mark)
	if errors.Is(err, fs.ErrNotExist) {
		if _, serr := s.c.Stat(ctx, intent); errors.Is(serr, fs.ErrNotExist) {
			return errIntentGone
		}
	}
	return err
}

// answersAtOnce says whether a committed volume's create ends with its
// root's mark (markRoot): it has a root ID, replaces no old root, and is
// not filled from a snapshot or volume (whose intent stays until the fill
// is done: Populated).
func answersAtOnce(rec Record) bool {
	return rec.RootID != 0 && rec.ReplacedRootID == 0 && rec.ContentSource == ""
}

func wrapMark(id uint64, err error) error {
	if err != nil {
		return fmt.Errorf("mark the root with file ID %d: %w", id, err)
	}
	return nil
}

// rootMark is what a root mark says beside its name (the file ID): the
// paths where the marked directory is, from the share root. A file ID
// alone outlives its directory: an archive removed by hand leaves its mark,
// and the file system may give the ID to a directory inside a volume, which
// every copy of that volume would then take for another volume's root.
// Archives' and snapshots' marks name their paths; a volume's mark names
// none (it is empty, or its create's intent: markRoot; it goes with the
// volume's DeleteVolume) and counts as live, so a volume
// directory removed by hand, behind the driver's back, makes copies that
// meet its ID fail loudly rather than drop a directory.
type rootMark struct {
	Paths []string `json:"paths"`
}

// writeMark marks the directory with file ID id at paths. A plain write:
// a torn mark reads as one that says nothing, which is taken as live.
func (s *Store) writeMark(ctx context.Context, id uint64, paths ...string) error {
	b, err := json.Marshal(rootMark{Paths: paths})
	if err != nil {
		return err
	}
	return s.writeFile(ctx, rootMarker(id), b)
}

// ForeignRoot says whether the directory with file ID id, met inside a
// tree a walk copies, is the root of another volume, snapshot or archive:
// its mark is there and names a path that still leads to a directory with
// that ID. A mark whose paths all lead elsewhere is stale (its directory
// went by hand, and the ID was given again): the directory is the copied
// volume's own. A mark that names no path (written before marks did, or
// torn) counts as live. c is a session on the share root.
func ForeignRoot(ctx context.Context, c share.Client, id uint64) (bool, error) {
	b, err := c.ReadFile(ctx, rootMarker(id))
	if errors.Is(err, fs.ErrNotExist) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	var m rootMark
	if json.Unmarshal(b, &m) != nil || len(m.Paths) == 0 {
		return true, nil
	}
	at, err := liveAt(ctx, c, id, m.Paths, "")
	return at != "", err
}

// dropMark removes the mark of file ID id, which the root at p (a volume's
// or a snapshot's) was given. held says the caller saw its own directory
// with that ID (at p, or moved to its quarantine): no other directory can
// have the ID, and the mark goes at once, with no more round trips.
//
// Otherwise the directory went behind the driver's back (or a call cut
// short removed it already), and the ID may be another root's now: the
// mark goes only when no other root holds it (holder). A root made at this
// moment writes its record (a volume), or moves its tree into place (a
// snapshot), before its mark, and its mark write may land in the file just
// before it goes. So the mark is not removed but renamed to its tombstone
// (markTombstone), a second look for a holder follows and writes the mark
// back for one it finds, and the tombstone goes last: a call cut anywhere
// in between leaves the tombstone, and its retry (the caller's record is
// still there) looks again. One race is left, needing a stale mark, the ID
// given again and a retain of that other root within the same round trip:
// the second look between a retain's mark removal and its record's removal
// writes back the mark of a directory no volume owns any more (a stale
// mark: it refuses that directory to a new claim, and makes copies that
// meet its ID fail, as a directory removed by hand does). Closing it needs
// one lock over every mark write of the share, across processes.
func (s *Store) dropMark(ctx context.Context, id uint64, p string, held bool) error {
	if id == 0 {
		return nil
	}
	m, tomb := rootMarker(id), markTombstone(id)
	if held {
		return s.removeFile(ctx, m)
	}
	b, err := s.c.ReadFile(ctx, m)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		// Removed already, or renamed by a call cut short before its
		// second look.
		if _, err := s.c.Stat(ctx, tomb); errors.Is(err, fs.ErrNotExist) {
			return nil
		} else if err != nil {
			return fmt.Errorf("look for the tombstone of the root mark of file ID %d: %w", id, err)
		}
	case err != nil:
		return fmt.Errorf("read the root mark of file ID %d: %w", id, err)
	default:
		var named rootMark
		_ = json.Unmarshal(b, &named) // a torn or empty mark names no path
		at, _, err := s.holder(ctx, id, p, named.Paths)
		if err != nil {
			return err
		}
		if at != "" {
			s.logf("the directory this root had went behind the driver's back, and its file ID is another root's now; that root keeps the mark", "path", p, "id", id, "holder", at)
			return nil
		}
		if err := s.c.Replace(ctx, m, tomb); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("remove the root mark of file ID %d: %w", id, err)
		}
	}
	at, paths, err := s.holder(ctx, id, p, nil)
	if err != nil {
		return err
	}
	if at != "" {
		if len(paths) == 0 {
			err = s.writeMarker(ctx, m)
		} else {
			err = s.writeMark(ctx, id, paths...)
		}
		if err != nil {
			return err
		}
	}
	return s.removeFile(ctx, tomb)
}

// markTombstone is where dropMark moves a mark it is removing, until it has
// looked again for a root with the ID.
func markTombstone(id uint64) string { return rootMarker(id) + ".drop" }

// holder looks for a root other than p whose directory has file ID id now:
// a path the mark names (an archive's, a snapshot's), a volume whose record
// names the ID, or a snapshot whose tree has it. It answers where that root
// is ("" when none) and the paths its mark names (none for a volume, whose
// mark is empty). Only the server's "no such file" rules a candidate out:
// any other failure fails the call, whose retry looks again.
func (s *Store) holder(ctx context.Context, id uint64, p string, named []string) (at string, paths []string, err error) {
	at, paths, err = s.findHolder(ctx, id, p, named)
	if err != nil {
		err = fmt.Errorf("look for another root with file ID %d: %w", id, err)
	}
	return at, paths, err
}

func (s *Store) findHolder(ctx context.Context, id uint64, p string, named []string) (string, []string, error) {
	if at, err := liveAt(ctx, s.c, id, named, p); err != nil || at != "" {
		return at, named, err
	}
	vols, err := s.readAll(ctx, volumesDir)
	if err != nil {
		return "", nil, err
	}
	for _, f := range vols {
		var r Record
		if json.Unmarshal(f.data, &r) != nil || r.Path == p || r.RootID != id {
			continue
		}
		if ok, err := dirHasID(ctx, s.c, r.Path, id); err != nil || ok {
			return r.Path, nil, err
		}
	}
	snaps, err := s.readAll(ctx, snapshotsDir)
	if err != nil {
		return "", nil, err
	}
	for _, f := range snaps {
		var sn Snapshot
		// A snapshot's tree is in place before its record names the ID.
		if json.Unmarshal(f.data, &sn) != nil || sn.Tree() == p || sn.Ready && sn.RootID != id {
			continue
		}
		if ok, err := dirHasID(ctx, s.c, sn.Tree(), id); err != nil || ok {
			return sn.Tree(), []string{sn.Tree()}, err
		}
	}
	return "", nil, nil
}

// dirHasID says whether p is a directory (not a link) with file ID id.
// Only the server's "no such file" says no without an error.
func dirHasID(ctx context.Context, c share.Client, p string, id uint64) (bool, error) {
	fi, err := c.Stat(ctx, p)
	if errors.Is(err, fs.ErrNotExist) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	return fi.IsDir && !fi.IsLink && fi.ID == id, nil
}

// liveAt is the first of a mark's paths, skip aside, that still leads to
// the directory with file ID id ("" when none does).
func liveAt(ctx context.Context, c share.Client, id uint64, paths []string, skip string) (string, error) {
	for _, p := range paths {
		if p == skip {
			continue
		}
		if ok, err := dirHasID(ctx, c, p, id); err != nil || ok {
			return p, err
		}
	}
	return "", nil
}
