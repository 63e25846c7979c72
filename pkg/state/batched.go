package state

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"path"

	"github.com/fileshare-csi/fileshare-csi/pkg/share"
)

// The two calls every claim makes, CreateVolume and DeleteVolume, take the
// protocols of the package doc in batches (share.Batcher), so that each
// costs the round trips its order needs and no more: the steps that may
// happen in any order go together, and the steps that must follow one
// another go in one ordered batch, which an NFSv4.1 COMPOUND sends at once.
// Anything the share shows besides the plain case (an earlier call's
// intent, a directory or a record already there, a metadata directory not
// made yet, a volume with something in it) sends the call the step-by-step
// way, which expects what the batches may have left: they write nothing
// it does not write too.
//
// CreateVolume of a new directory, three batches:
//
//  1. unordered: the intent, written only where none is (share.OpCreate:
//     an earlier call's intent, or a volume still being filled, takes the
//     step-by-step way); the holds on the ancestors; the ancestors'
//     records read, which should not be there (last: a COMPOUND stops at
//     the first miss).
//  2. MKDIR, which tells the new directory's ID.
//  3. ordered: the record, written only where none is (COMMIT: a record
//     already there is a volume whose directory went behind the driver's
//     back, and is never replaced unread); the intent renamed onto the
//     root's mark (markRoot: one step for the two), or for a volume still
//     to be filled the mark alone (its intent stays).
//
// A cut anywhere is the step-by-step protocol's cut at the same step, with
// one more: between the record's CREATE and its WRITE, which leaves an
// empty record (errTorn) that reads as none.
//
// DeleteVolume (delete) of an empty volume, two batches:
//
//  1. unordered: the record read, and the volume's directory looked at;
//  2. ordered: RMDIR of the directory, which removes only an empty one
//     and never what a link leads to (COMMIT: with the directory gone, a
//     retry finds the record and finishes); the root's mark; the holds;
//     last the record.
//
// A volume with anything in it fails the RMDIR, and takes the quarantine.

// createNew is Create of a volume at a directory that is not there yet, in
// the three batches above. done is false, with nothing to undo, when the
// call must take the step-by-step way (create).
func (s *Store) createNew(ctx context.Context, req CreateRequest) (rec Record, done bool, err error) {
	p := req.Path
	rec, intent, err := s.newIntent(req)
	if err != nil {
		return Record{}, true, err
	}
	anc := ancestors(p)
	ops := []share.Op{{Kind: share.OpCreate, Path: s.intentPath(p), Data: intent}}
	for _, a := range anc {
		ops = append(ops, share.Op{Kind: share.OpWrite, Path: s.holdDir(a) + "/" + s.key(p)})
	}
	// No other store's records in an ancestor (foreignStore): a metadata
	// directory there sends the call the step-by-step way, which tells a
	// v1 base's from another store's.
	for _, a := range anc {
		ops = append(ops, share.Op{Kind: share.OpStat, Path: path.Join(a, Dir)})
	}
	for _, a := range anc {
		ops = append(ops, share.Op{Kind: share.OpRead, Path: s.recordPath(a)})
		if s.unfolded(a) {
			// One a version before keys were folded wrote: found, it
			// sends the call the step-by-step way, which moves it.
			ops = append(ops, share.Op{Kind: share.OpRead, Path: recordPath(a)})
		}
	}
	res := share.RunBatch(ctx, s.c, ops, false)
	for _, r := range res {
		if cutShort(ctx, r.Err) {
			return Record{}, true, r.Err
		}
	}
	if res[0].Err != nil {
		return Record{}, false, nil // an intent there, or no intents directory yet
	}
	fine := true
	for i, r := range res[1:] {
		switch {
		case i < len(anc): // the holds
			fine = fine && r.Err == nil
		case i < 2*len(anc): // no metadata directory of another store
			fine = fine && errors.Is(r.Err, fs.ErrNotExist)
		default:
			if _, err := decodeRecord(ops[i+1].Path, r.Data, r.Err); !errors.Is(err, fs.ErrNotExist) {
				fine = false // a volume above, or a record that cannot be read
			}
		}
	}
	if !fine {
		return Record{}, false, s.dropIntent(ctx, rec, true)
	}
	fi, err := share.MkdirStat(ctx, s.c, p, req.Perm)
	switch {
	case cutShort(ctx, err):
		return Record{}, true, err
	case err != nil:
		// The directory is there (a volume's, or one to adopt), or its
		// parents are not: this call's intent stands, and the record
		// says which.
		old, rerr := s.record(ctx, p)
		switch {
		case rerr == nil:
			if err := s.removeFile(ctx, s.intentPath(p)); err != nil {
				return Record{}, true, err
			}
			rec, err := s.existing(ctx, old, req)
			return rec, true, err
		case !errors.Is(rerr, fs.ErrNotExist):
			return Record{}, true, rerr
		}
		if err := s.adopted(ctx, rec); err != nil {
			if cutShort(ctx, err) {
				return Record{}, true, err
			}
			return Record{}, true, s.undoCreate(ctx, rec, false, err)
		}
		rec, err := s.finishCreate(ctx, rec, req)
		return rec, true, err
	}
	rec.RootID = fi.ID
	rec, err = s.commitNew(ctx, rec, req)
	return rec, true, err
}

// adopted writes into createNew's intent, which was the first at its
// directory (share.OpCreate), the ID of the directory its MKDIR found
// there: none of the driver's creates made it (Record.AdoptedID). Until
// this write lands, a create cut short and never retried leaves the
// reclaimer an intent that does not say so, and an empty directory found
// so is removed with the rest; from this write on, it is kept. The intent
// is replaced whole (writeJSON, as begin writes it): a torn one would say
// nothing.
func (s *Store) adopted(ctx context.Context, rec Record) error {
	id, err := s.dirFirst(ctx, rec.Path)
	if err != nil || id == 0 {
		// None: its parents are not there, or what is there is refused
		// by the steps that follow.
		return err
	}
	rec.AdoptedID = id
	return s.writeJSON(ctx, s.intentPath(rec.Path), rec)
}

// dropIntent removes the intent createNew wrote, and its holds unless a
// record at the same directory owns them, before the call takes the
// step-by-step way.
func (s *Store) dropIntent(ctx context.Context, rec Record, holds bool) error {
	if holds {
		if _, err := s.record(ctx, rec.Path); errors.Is(err, fs.ErrNotExist) {
			s.dropHolds(ctx, rec.Path)
		} else if err != nil && !isRefusal(err) {
			return err
		}
	}
	return s.removeFile(ctx, s.intentPath(rec.Path))
}

// commitNew is createNew's third batch: the record where none is (the
// commit), then the intent renamed onto the root's mark (markRoot), or for
// a volume to be filled the mark alone. It answers the volume's
// record: rec, or the one a record already there says.
func (s *Store) commitNew(ctx context.Context, rec Record, req CreateRequest) (Record, error) {
	b, err := json.Marshal(rec)
	if err != nil {
		return Record{}, err
	}
	ops := []share.Op{{Kind: share.OpCreate, Path: s.recordPath(rec.Path), Data: b}}
	switch {
	case answersAtOnce(rec):
		// The intent renamed onto the root's mark (markRoot).
		ops = append(ops, share.Op{Kind: share.OpReplace, Path: s.intentPath(rec.Path), To: rootMarker(rec.RootID)})
	case rec.RootID != 0:
		ops = append(ops, share.Op{Kind: share.OpWrite, Path: rootMarker(rec.RootID)})
	case !rec.Populating:
		ops = append(ops, share.Op{Kind: share.OpRemove, Path: s.intentPath(rec.Path)})
	}
	res := share.RunBatch(ctx, s.c, ops, true)
	err = res[0].Err
	switch {
	case err == nil:
		for _, r := range res[1:] {
			if r.Err != nil {
				// Committed: the rest is what every later call that
				// finds the record does again (a roots directory not
				// made yet, for one).
				return rec, s.afterCommit(ctx, rec, 0)
			}
		}
		return rec, nil
	case cutShort(ctx, err):
		return rec, err
	case errors.Is(err, fs.ErrExist):
		return s.recordThere(ctx, rec, req)
	}
	// No volumes directory yet, or the share would not take the file: the
	// step-by-step commit makes the directories, and undoes the create
	// when it fails for good.
	if err := s.commit(ctx, rec, 0); err != nil && !cutShort(ctx, err) {
		return Record{}, s.undoCreate(ctx, rec, true, err)
	} else if err != nil {
		return rec, err
	}
	return rec, nil
}

// recordThere answers a commit that found a record at the new directory's
// path: a torn one is replaced; another is a volume whose directory went
// behind the driver's back, which this call's new directory becomes (the
// same claim, as ensureDir would make it again) or leaves (another claim's
// path: refused, and the directory, empty, removed, unless the record names
// it: another process's create adopted it and committed first). The answer is the
// volume the record says, with its own UID: the claim's first call may have
// been answered with it.
func (s *Store) recordThere(ctx context.Context, rec Record, req CreateRequest) (Record, error) {
	old, err := s.record(ctx, rec.Path)
	switch {
	case errors.Is(err, errTorn):
		return rec, s.commit(ctx, rec, 0)
	case err != nil:
		return Record{}, err
	}
	if err := s.sameVolume(ctx, old, req); err != nil {
		// The directory this call made is the other volume's when the
		// record names it: a create of another process (no lock of this
		// one serializes with it) adopted it and committed first. It
		// stays, however empty: that volume may have been answered.
		if old.RootID == 0 || old.RootID != rec.RootID {
			if rerr := s.removeEmptyDir(ctx, rec.Path); rerr != nil {
				return Record{}, fmt.Errorf("%w (and removing the directory this call made: %v)", err, rerr)
			}
		}
		if rerr := s.removeFile(ctx, s.intentPath(rec.Path)); rerr != nil {
			return Record{}, fmt.Errorf("%w (and removing the intent: %v)", err, rerr)
		}
		return Record{}, err
	}
	if err := s.removeFile(ctx, s.intentPath(rec.Path)); err != nil {
		return Record{}, err
	}
	return s.ensureDir(ctx, old, req.Perm)
}

// deleteEmpty is DeleteVolume (delete) of a volume whose directory fi
// showed as its own, in the ordered batch above. done is false when the
// RMDIR did not happen (the volume holds something): the caller takes the
// quarantine.
func (s *Store) deleteEmpty(ctx context.Context, rec Record) (done bool, err error) {
	ops := []share.Op{{Kind: share.OpRmdir, Path: rec.Path}, {Kind: share.OpRemove, Path: rootMarker(rec.RootID)}}
	for _, a := range ancestors(rec.Path) {
		ops = append(ops, share.Op{Kind: share.OpRemove, Path: s.holdDir(a) + "/" + s.key(rec.Path)})
	}
	if p, ok := recordBeat(rec); ok {
		ops = append(ops, share.Op{Kind: share.OpRemove, Path: p}) // see dropBeat
	}
	ops = append(ops, share.Op{Kind: share.OpRemove, Path: s.recordPath(rec.Path)})
	res := share.RunBatch(ctx, s.c, ops, true)
	if err := res[0].Err; err != nil {
		if cutShort(ctx, err) {
			return true, err
		}
		return false, nil
	}
	for _, r := range res[1:] {
		if r.Err != nil {
			if cutShort(ctx, r.Err) {
				return true, r.Err
			}
			// The directory is gone (the commit): DeleteVolume finishes
			// from the record, as its retry would.
			return true, s.DeleteVolume(ctx, rec)
		}
	}
	return true, nil
}
