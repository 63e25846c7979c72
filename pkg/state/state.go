// Package state keeps the controller's persistent state on the file share
// itself, beside the volumes and never inside one, so the controller needs no
// database and survives restarts. It owns the layout of the metadata
// directory, the volume records, archive naming and the markers that keep
// volumes from nesting.
//
// Layout, below the share's root (the SMB share, or the NFS export), is
// declared once in package layout (layout.Entries): what each directory
// holds, which no walk enters (all of them: MetadataDirs), and which a
// session may keep the handle of. Records of v1 volumes (no UID) lie in
// their class's base, BASE/.fileshare-csi/<escaped>.json.
//
// <key> is a hash of the directory's path from the root, so record names
// have a fixed length whatever the path, and two classes whose bases overlap
// (smb://h/s with base x/y, smb://h/s/x with base y) find the same record.
//
// # Protocols
//
// Every call that changes the share is a sequence of steps with one commit
// point. A call can stop after any step: the controller is killed, the
// call's deadline passes, the connection drops, or the server did a step
// whose reply was lost. The next call with the same request rolls an
// interrupted call forward from what the share shows (every step is
// idempotent, and what comes after the commit is done again by any call
// that finds the commit), or, before the commit, goes on from where it
// stopped; a different request is refused as it would be had the first
// call ended. TestEveryCrashPointConverges cuts each step of each call in
// three ways and compares the whole share with an uninterrupted call's.
//
//   - CreateVolume: intent (an exclusive create, where a torn one means
//     nothing after it happened, or a replace through a temporary; it says
//     which directory at the path was there before any of the driver's
//     creates, which no rollback removes: Record.AdoptedID) → holds on the
//     ancestors → MKDIR (or adopt a directory that is no one's) → STAT →
//     record (COMMIT) → root mark → intent removed
//     (one step for a volume answered at once: the intent renamed onto
//     the mark, markRoot).
//     Holds come before the directory, so no volume is ever swallowed by
//     one made at an ancestor; the root mark after the record, so a mark
//     always has an owner the retry can find. A call that finds no record
//     starts over and its intent replaces any earlier one: an unfinished
//     create was never answered, so another claim may take its place.
//   - CreateVolume from a snapshot or a volume: as above, but the record
//     says Populating and the intent stays → copy into the directory
//     (resumed by a retry) → record without Populating (COMMIT of the
//     answer) → intent removed. Until then the volume was never answered:
//     the reclaimer deletes one nobody asks for any more, copy and all.
//   - DeleteVolume (delete): RENAME into deleting/<uid> (COMMIT) → root mark
//     → removal in the quarantine → holds → record. A retry finds the record
//     and goes on; with the record gone, Resume finishes the quarantine.
//   - DeleteVolume (retain): holds → root mark → record (COMMIT).
//   - DeleteVolume (archive): record names the archive (ArchivingTo) →
//     archive mark → the archive's holds → RENAME to the archive (COMMIT)
//     → the volume's holds → record; the root mark stays with the archive.
//     A saved name that a directory made by hand took since gives up its
//     archive record and holds (unclaim) before the next name is saved.
//   - CreateSnapshot: record (not ready) → copy into <uid>.partial and the
//     run's own pack <uid>.packs/<run> (the tree resumed by a retry) →
//     record with the copy's counts → the run's pack RENAMEd over <uid>.pack
//     → other runs' packs → RENAME to <uid> (COMMIT: only a whole copy is
//     renamed) → root mark → record ready.
//   - DeleteSnapshot: each copy as a volume delete, the packs, the record.
//   - Group snapshots, volume groups, expansion: one record write each,
//     replaced atomically (a temporary, then RENAME over the record).
//
// CreateVolume of a new directory and DeleteVolume of an empty volume send
// these steps in batches (batched.go), with the same commit points.
//
// Why an intent and a record rather than building the volume under
// .fileshare-csi/ and renaming it into place: a rename into the class's base
// fails where the base is another file system on the server, and costs a
// LOOKUP and a RENAME on every create; the intent costs a write and a
// remove, and is all the reclaimer needs to undo a create nobody retries.
//
// A create that fails for good before its commit (a refusal, a share that
// cannot hold the record) undoes its intent, holds and the empty directory
// it made at once; one cut short leaves them for its retry.
//
// Reclaimer undoes what no retry will: intents older than IntentTTL, with
// their holds (the directory removed only when empty and not there before
// the driver's creates; one with data in it is kept and reported), and
// temporaries.
//
// Error contract: every method returns nil, or an error that wraps one of
// ErrNotFound, ErrConflict, ErrInvalid, ErrBusy, or an error from the share
// client (fs.ErrNotExist, fs.ErrExist, fs.ErrPermission, share.ErrNotEmpty,
// share.ErrUnavailable, a context error). Messages say what to fix.
package state

import (
	"bytes"
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"net/url"
	"path"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/fileshare-csi/fileshare-csi/pkg/share"
	"github.com/fileshare-csi/fileshare-csi/pkg/state/layout"
	"github.com/fileshare-csi/fileshare-csi/pkg/volume"
)

var (
	// ErrNotFound: no volume, snapshot or group this driver made matches
	// (a stale or forged ID). Its words follow what each message names.
	ErrNotFound = errors.New("not found")
	// ErrConflict: the directory cannot be this volume's: it belongs to
	// another volume, holds one, lies inside one, is an archive or a link.
	ErrConflict = errors.New("directory conflict")
	// ErrInvalid: the request can never succeed as given.
	ErrInvalid = errors.New("invalid request")
	// ErrBusy: an earlier volume at the same directory is still being
	// deleted; a retry will succeed once it is gone.
	ErrBusy = errors.New("busy")
)

// Dir is the metadata directory below the share's root.
const Dir = layout.Dir

// metadataDirs are never entered by a delete, whatever link leads there.
var metadataDirs = layout.Protected()

// MetadataDirs are the directories of the driver's own that no walk over a
// volume may enter, wherever a link or mount makes them appear.
func MetadataDirs() []string { return append([]string(nil), metadataDirs...) }

// RootsDir holds one marker per volume and snapshot root's file ID.
const RootsDir = rootsDir

const (
	volumesDir  = layout.Volumes
	holdsDir    = layout.Holds
	rootsDir    = layout.Roots
	archivesDir = layout.Archives
	deletingDir = layout.Deleting
	intentsDir  = layout.Intents
	busyDir     = layout.Busy
	// ArchivePrefix starts the name of every archived volume directory.
	ArchivePrefix = "archived-"
	maxName       = 255
)

// Record is what the share keeps about one volume.
type Record struct {
	UID           string    `json:"uid,omitempty"`
	Name          string    `json:"name"`
	Path          string    `json:"path,omitempty"`
	CapacityBytes int64     `json:"capacityBytes"`
	Created       time.Time `json:"created"`
	// RootID is the volume directory's file ID when it was made: a path that
	// later reaches another ID (the directory was replaced by a link) is not
	// this volume any more.
	RootID uint64 `json:"rootID,omitempty"`
	// ReplacedRootID is the ID of the directory the volume had before its
	// directory was removed behind the driver's back and made again: its
	// mark goes after the record names the new one, and a call cut between
	// the two leaves its retry this to find the old mark by.
	ReplacedRootID uint64 `json:"replacedRootID,omitempty"`
	// ContentSource names the snapshot or volume (by ID) the volume is
	// filled from; Populating stays true until that copy is complete.
	ContentSource string `json:"contentSource,omitempty"`
	Populating    bool   `json:"populating,omitempty"`
	// Parameters are the CreateVolume parameters the volume was made
	// with (CreateRequest.Parameters); nil in a record written before
	// they were kept, which any parameters match.
	Parameters map[string]string `json:"parameters,omitempty"`
	// ArchivingTo is the archive name a DeleteVolume chose before it
	// renamed the directory: its retry after a cut finds the archive there.
	ArchivingTo string `json:"archivingTo,omitempty"`
	// AdoptedID, in an intent only, is the file ID of the directory at
	// Path that none of the driver's creates made: it was there before
	// the first intent of the creates at Path (an administrator's, with
	// its own owner and ACL, or one a volume left). A rollback never
	// removes it, empty or not (rollBack). Written into the intent by the
	// call that knows (begin, createNew's adopted), carried by every
	// intent after it, and never into a record or a mark (markRoot).
	AdoptedID uint64 `json:"adoptedID,omitempty"`
}

// Archive marks a directory as the archive of a deleted volume.
type Archive struct {
	UID      string    `json:"uid"`
	Name     string    `json:"name"`
	From     string    `json:"from"`
	Archived time.Time `json:"archived"`
}

// Store reads and writes the state through one session on the share root.
type Store struct {
	c share.Client
	// caseless: c's server takes names differing only in case for one
	// name (SMB), and what is kept by path is keyed by its folded
	// spelling (key).
	caseless bool
	// Log receives what a delete left behind; may be nil.
	Log func(msg string, kv ...any)
	now func() time.Time
	uid func() (string, error)
}

// New returns a store on c, a session rooted at the share's root.
func New(c share.Client) *Store {
	return &Store{c: c, caseless: share.CaseInsensitive(c), now: time.Now, uid: NewUID}
}

// WithClock makes the store read the time from now and take new UIDs from
// uid: for tests that compare whole trees written by two runs.
func (s *Store) WithClock(now func() time.Time, uid func() (string, error)) *Store {
	s.now, s.uid = now, uid
	return s
}

func key(p string) string {
	sum := sha256.Sum256([]byte(p))
	return hex.EncodeToString(sum[:16])
}

// recordPath, intentPath and holdDir key p as it is spelled: where a
// version before keys were folded (Store.key) kept what it kept of p.
func recordPath(p string) string { return volumesDir + "/" + key(p) + ".json" }
func intentPath(p string) string { return intentsDir + "/" + key(p) + ".json" }
func holdDir(p string) string    { return holdsDir + "/" + key(p) }

// key names what the store keeps of the directory p (its record, intent,
// archive record and holds). On a caseless share every spelling the
// server takes for one directory has one key, so that the guards keyed by
// path (the nesting checks, a directory's one record) see one directory
// where the server has one: Data/team and data/team are one there.
func (s *Store) key(p string) string {
	if s.caseless {
		p = share.FoldCase(p)
	}
	return key(p)
}

// unfolded says whether p's key is not the one of p as spelled (a caseless
// share, and a capital letter in p): what a version before keys were
// folded kept of p is then at recordPath(p), intentPath(p) and holdDir(p).
func (s *Store) unfolded(p string) bool { return s.caseless && share.FoldCase(p) != p }

func (s *Store) recordPath(p string) string  { return volumesDir + "/" + s.key(p) + ".json" }
func (s *Store) intentPath(p string) string  { return intentsDir + "/" + s.key(p) + ".json" }
func (s *Store) archivePath(p string) string { return archivesDir + "/" + s.key(p) + ".json" }
func (s *Store) holdDir(p string) string     { return holdsDir + "/" + s.key(p) }

// RecordPath is where the record of the volume directory p (from the share
// root) lives, for tools that lay out many volumes at once (benchmarks).
func RecordPath(p string) string { return recordPath(p) }

// rootMarker names the marker of a volume root's file ID.
func rootMarker(id uint64) string { return rootsDir + "/" + strconv.FormatUint(id, 10) }

// Quarantine is where the volume with this UID is moved while it is deleted.
func Quarantine(uid string) string { return deletingDir + "/" + uid }

// NewUID returns a fresh volume UID.
func NewUID() (string, error) {
	b := make([]byte, volume.UIDLength/2)
	if _, err := rand.Read(b); err != nil {
		return "", err
	}
	return hex.EncodeToString(b), nil
}

// ancestors lists the proper ancestors of p, top first, without the root.
func ancestors(p string) []string {
	parts := strings.Split(p, "/")
	out := make([]string, 0, len(parts)-1)
	for i := 1; i < len(parts); i++ {
		out = append(out, strings.Join(parts[:i], "/"))
	}
	return out
}

// CheckPath refuses paths no volume may have: in the metadata directory,
// named like an archive, or too long to archive.
func CheckPath(p string) error {
	if p == "" {
		return fmt.Errorf("the share root itself cannot be a volume: %w", ErrInvalid)
	}
	if first, _, _ := strings.Cut(p, "/"); first == Dir {
		return fmt.Errorf("%s is where the driver keeps its records: %w", p, ErrInvalid)
	}
	if archiveNamed(path.Base(p)) {
		return fmt.Errorf("directory %s: names starting with %q are archives of deleted volumes and are never handed to a new claim: %w", p, ArchivePrefix, ErrInvalid)
	}
	for _, c := range strings.Split(p, "/") {
		if len(c) > maxName {
			return fmt.Errorf("directory %s has a component of %d bytes, more than %d: %w", p, len(c), maxName, ErrInvalid)
		}
	}
	return nil
}

// CheckSubDir refuses a claim's directory below its class's base (the
// subDir its template gave) that passes through a directory named like an
// archive, in any case (an SMB server takes Archived-x for archived-x). A
// claim chooses its namespace and name, and another class on the same base
// may have archived a volume there: a template that puts the namespace
// above the claim's directory would otherwise make the volume inside that
// archive, or adopt a directory of it and hand a deleted volume's data to
// another tenant. The base is the administrator's, and not checked.
func CheckSubDir(sub string) error {
	for _, c := range strings.Split(sub, "/") {
		if archiveNamed(share.FoldCase(c)) {
			return fmt.Errorf("subDir %s: %q is named like an archive of a deleted volume (%s...), and no claim's directory is made in one or below one; give the claim another name or namespace: %w", sub, c, ArchivePrefix, ErrInvalid)
		}
	}
	return nil
}

// archiveNamed says whether the name c is an archive's.
func archiveNamed(c string) bool { return strings.HasPrefix(c, ArchivePrefix) }

func (s *Store) readJSON(ctx context.Context, p string, v any) error {
	b, err := s.c.ReadFile(ctx, p)
	if err != nil {
		return err
	}
	return decodeJSON(p, b, v)
}

func decodeJSON(p string, b []byte, v any) error {
	if err := json.Unmarshal(b, v); err != nil {
		return fmt.Errorf("record %s is corrupt (%v): move it away to let the directory be used again: %w", p, err, ErrConflict)
	}
	return nil
}

// errTornIntent says an intent is an empty or partial file: its create
// died between CREATE and WRITE, and did nothing after.
var errTornIntent = fmt.Errorf("a torn intent: %w", fs.ErrNotExist)

// errTorn says a volume record is an empty file: a commit (the record
// written only where none is, share.OpCreate) cut between its CREATE and
// its WRITE. It committed nothing, so it reads as no record at all.
var errTorn = fmt.Errorf("an empty record, a commit cut short: %w", fs.ErrNotExist)

// decodeRecord reads a volume record's file, as ReadFile answered it.
func decodeRecord(file string, b []byte, err error) (Record, error) {
	var r Record
	switch {
	case err != nil:
		return r, err
	case len(b) == 0:
		return r, fmt.Errorf("%s: %w", file, errTorn)
	}
	return r, decodeJSON(file, b, &r)
}

// writeJSON replaces p atomically: a new file under a short temporary name,
// then one rename over the old, so a crash leaves the old or the new record,
// never none.
func (s *Store) writeJSON(ctx context.Context, p string, v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	// One temporary name per record: a write cut short leaves a file that
	// the next write of the same record replaces (or the reclaimer
	// removes), never one more stray file per try.
	tmp := path.Dir(p) + "/" + TempPrefix + path.Base(p)
	if err := s.writeFile(ctx, tmp, b); err != nil {
		return err
	}
	err = s.c.Replace(ctx, tmp, p)
	if errors.Is(err, fs.ErrNotExist) {
		// The temporary went: a request of this call's sender that the
		// server ran late (its process was killed, or its deadline cut
		// the call, just after it sent its own rename of the same
		// temporary) moved it, or a concurrent call did. What the record
		// holds now says whether this write is done.
		if now, rerr := s.c.ReadFile(ctx, p); rerr == nil && bytes.Equal(now, b) {
			return nil
		}
	}
	if err != nil {
		_ = s.c.Remove(ctx, tmp)
		return fmt.Errorf("write %s: %w", p, err)
	}
	return nil
}

func (s *Store) removeFile(ctx context.Context, p string) error {
	if err := s.c.Remove(ctx, p); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	return nil
}

// removeEmptyDir removes the directory p if it is empty (never a tree, nor
// a link's target); a missing one is no error. A directory goes through
// RMDIR: an NFSv3 server refuses REMOVE of one (NFS3ERR_ISDIR).
func (s *Store) removeEmptyDir(ctx context.Context, p string) error {
	return share.RunOne(ctx, s.c, share.Op{Kind: share.OpRmdir, Path: p}).Err
}

// TempPrefix starts the name of a record's new version while it is
// written.
const TempPrefix = ".tmp-"

// record reads the record of the directory p; fs.ErrNotExist when none
// (or a torn one: errTorn).
func (s *Store) record(ctx context.Context, p string) (Record, error) {
	b, err := s.c.ReadFile(ctx, s.recordPath(p))
	return s.recordFrom(ctx, p, b, err)
}

// recordFrom is p's record from a read of s.recordPath(p) (b, err): one not
// there may be where a version before keys were folded wrote it
// (unfoldedRecord).
func (s *Store) recordFrom(ctx context.Context, p string, b []byte, err error) (Record, error) {
	if errors.Is(err, fs.ErrNotExist) && s.unfolded(p) {
		return s.unfoldedRecord(ctx, p)
	}
	return decodeRecord(s.recordPath(p), b, err)
}

// unfoldedRecord finds on a caseless share the record of p that a version
// before keys were folded wrote under p's own spelling (with a capital
// letter), and moves it to p's folded key: holds under the folded keys of
// p's ancestors first, then the record, by a rename that never replaces.
// From then on every step finds it where it writes it, and the checks of
// other spellings see it. A record already at the folded key (made since
// under another spelling) stays the one; this one is left where it is.
// Its holds under the old keys are cleared as stale by the next check that
// meets them (checkNoHolds).
func (s *Store) unfoldedRecord(ctx context.Context, p string) (Record, error) {
	old := recordPath(p)
	b, err := s.c.ReadFile(ctx, old)
	rec, err := decodeRecord(old, b, err)
	if err != nil {
		return rec, err
	}
	if err := s.addHolds(ctx, p, rec); err != nil {
		return Record{}, err
	}
	switch err := s.c.Rename(ctx, old, s.recordPath(p)); {
	case err == nil:
		return rec, nil
	case !errors.Is(err, fs.ErrNotExist) && !errors.Is(err, fs.ErrExist):
		return Record{}, fmt.Errorf("move the record of %s to its key: %w", p, err)
	}
	// Moved by another call meanwhile, or one at the folded key already.
	b, err = s.c.ReadFile(ctx, s.recordPath(p))
	return decodeRecord(s.recordPath(p), b, err)
}

// Get returns the record of the volume at p with this UID, or ErrNotFound.
func (s *Store) Get(ctx context.Context, p, uid string) (Record, error) {
	r, err := s.record(ctx, p)
	if errors.Is(err, fs.ErrNotExist) || err == nil && r.UID != uid {
		return Record{}, fmt.Errorf("no volume with UID %s at %s: %w", uid, p, ErrNotFound)
	}
	return r, err
}

// FilledFrom says whether the volume at p is name's, filled whole from
// contentSource. A CreateVolume whose content source is gone answers such
// a volume: an earlier try of the same request filled it and its answer
// was lost, and refused, the CO would never learn its ID, nor delete it.
func (s *Store) FilledFrom(ctx context.Context, p, name, contentSource string) (bool, error) {
	r, err := s.record(ctx, p)
	if errors.Is(err, fs.ErrNotExist) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	return r.Name == name && r.ContentSource == contentSource && !r.Populating, nil
}

// CreateRequest describes a volume to create.
type CreateRequest struct {
	Path          string // from the share root
	Name          string // the CreateVolume name
	CapacityBytes int64  // the size a new volume records
	// RequiredBytes and LimitBytes are the call's capacity range (0:
	// none), which the volume of an earlier call must fit. A clone's
	// size follows its source's at creation, and a volume may have been
	// expanded since: neither makes the same request another volume.
	RequiredBytes, LimitBytes int64
	Perm                      fs.FileMode
	// Legacy is where a v1 record for the same directory would be: a live
	// v1 volume's directory is never adopted by another claim.
	Legacy string
	// ContentSource, when set, is the ID of the snapshot or volume the new
	// volume is to be filled from: its record says Populating until
	// Populated is called.
	ContentSource string
	// Parameters are the call's parameters that make the volume what it
	// is (its ID's onDelete, its volume context's mount options), which
	// the volume of an earlier call must have been made with.
	Parameters map[string]string
}

// Create makes the volume's directory and record, or returns the record of
// the same volume made by an earlier call (idempotent). The caller holds a
// lock that covers every directory that can nest with p (LockKey).
//
// The protocol (see the package doc) has one commit point, the record's
// write; everything before it is described by the intent written first, so
// a call cut short at any step (a crash, its deadline, a lost reply) is
// redone by the next call with the same name (every step is idempotent,
// and the directory it made is adopted), and rolled back by the reclaimer
// when no such call comes.
func (s *Store) Create(ctx context.Context, req CreateRequest) (Record, error) {
	p := req.Path
	if s.caseless {
		// The server takes .FileShare-CSI and Archived-x for the
		// driver's own names.
		p = share.FoldCase(p)
	}
	if err := CheckPath(p); err != nil {
		return Record{}, err
	}
	// One call's look-ups by path hold for the call (share.WithPathScope):
	// over NFSv3 the base's handle is looked up once, not at every step.
	ctx, end := share.WithPathScope(ctx)
	defer end()
	if rec, done, err := s.createNew(ctx, req); done {
		return rec, err
	}
	return s.create(ctx, req)
}

// create is Create of a volume that createNew did not finish: it looks at
// the record first, then goes step by step.
func (s *Store) create(ctx context.Context, req CreateRequest) (Record, error) {
	p := req.Path
	rec, err := s.record(ctx, p)
	switch {
	case err == nil:
		return s.existing(ctx, rec, req)
	case !errors.Is(err, fs.ErrNotExist):
		return Record{}, err
	}
	// No record: whatever an earlier call for this directory did stopped
	// before its commit, so this call starts over, and its intent takes
	// the place of any earlier one. An earlier call of another claim has
	// not been answered: this one is as if it came first.
	if rec, err = s.begin(ctx, req); err != nil {
		if isRefusal(err) {
			return Record{}, s.abandon(ctx, req, Record{}, err)
		}
		return Record{}, err
	}
	return s.finishCreate(ctx, rec, req)
}

// abandon answers a refused create (err) after undoing what an earlier try
// of the same request, cut short, left at its directory: its intent, its
// holds unless the volume there (owner) owns them, and the directory it
// made, while empty, unmarked and not owner's. A try that was not cut
// short undid the same before it answered.
func (s *Store) abandon(ctx context.Context, req CreateRequest, owner Record, err error) error {
	in, ierr := s.intent(ctx, req.Path)
	switch {
	case errors.Is(ierr, fs.ErrNotExist):
		// No try left an intent that says anything; holds without a
		// record or an intent are stale, as checkNoHolds would find them.
		if errors.Is(ierr, errTornIntent) {
			if rerr := s.removeFile(ctx, s.intentPath(req.Path)); rerr != nil {
				return fmt.Errorf("%w (and removing a torn intent: %v)", err, rerr)
			}
		}
		if owner.UID == "" {
			s.dropHolds(ctx, req.Path)
		}
		return err
	case ierr != nil:
		return fmt.Errorf("%w (and reading the intent an earlier try left: %v)", err, ierr)
	case in.Name != req.Name || in.UID == owner.UID:
		return err // another claim's create, or the owner's own
	}
	if owner.UID == "" {
		if _, rerr := s.rollBack(ctx, in); rerr != nil {
			return fmt.Errorf("%w (and undoing an earlier try: %v)", err, rerr)
		}
		return err
	}
	if rerr := s.dropMadeDir(ctx, in, owner); rerr != nil {
		return fmt.Errorf("%w (and removing the directory an earlier try made: %v)", err, rerr)
	}
	if rerr := s.removeFile(ctx, s.intentPath(req.Path)); rerr != nil {
		return fmt.Errorf("%w (and removing the intent an earlier try left: %v)", err, rerr)
	}
	return err
}

// dropMadeDir removes the directory at in.Path that the create of intent
// in made, cut short, when another volume's record (owner) has the path:
// while it is empty, and only when nothing says it is not that create's.
// It stays when it is owner's root, or owner's record names no root (one
// of a version before root IDs: the directory may be its volume's); when
// the intent says it was there before the create; when it is marked as
// any root. An intent cut before it said the directory was there first
// (adopted) cannot tell an administrator's empty directory from its own:
// the same window a rollback without a record has.
func (s *Store) dropMadeDir(ctx context.Context, in, owner Record) error {
	fi, err := s.c.Stat(ctx, in.Path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil
	case err != nil:
		return err
	case !fi.IsDir || fi.IsLink || fi.ID == 0 || owner.RootID == 0 || fi.ID == owner.RootID || fi.ID == in.AdoptedID || s.isMarked(ctx, fi.ID):
		return nil
	}
	names, err := s.c.List(ctx, in.Path, 1)
	if err != nil || len(names) > 0 {
		return err
	}
	return s.removeEmptyDir(ctx, in.Path)
}

// existing answers a create that found the record of a volume at its
// directory: the same volume (a repeated call) or a refusal.
func (s *Store) existing(ctx context.Context, rec Record, req CreateRequest) (Record, error) {
	if err := s.sameVolume(ctx, rec, req); err != nil {
		if isRefusal(err) {
			return Record{}, s.abandon(ctx, req, rec, err)
		}
		return Record{}, err
	}
	return s.ensureDir(ctx, rec, req.Perm)
}

// IntentTTL is how old the intent of a CreateVolume that did not finish
// must be before the reclaimer undoes it: csi-provisioner retries a claim
// within minutes.
const IntentTTL = 30 * time.Minute

// sameVolume refuses a request that names an existing volume with other
// properties, or another claim's volume.
func (s *Store) sameVolume(ctx context.Context, rec Record, req CreateRequest) error {
	p := req.Path
	if rec.Name != req.Name {
		if busy, berr := s.beingDeleted(ctx, p, rec); berr != nil {
			return berr
		} else if busy {
			return fmt.Errorf("the previous volume %q at %s is still being deleted; retry later: %w", rec.Name, p, ErrBusy)
		}
		return fmt.Errorf("directory %s already belongs to volume %q; use a subDir template that gives each claim its own directory: %w", p, rec.Name, ErrConflict)
	}
	if rec.CapacityBytes < req.RequiredBytes || req.LimitBytes > 0 && rec.CapacityBytes > req.LimitBytes {
		return fmt.Errorf("volume %q exists with capacity %d, outside the requested range (required %d, limit %d): %w", rec.Name, rec.CapacityBytes, req.RequiredBytes, req.LimitBytes, ErrConflict)
	}
	if rec.ContentSource != req.ContentSource {
		return fmt.Errorf("volume %q exists with another content source (%q, not %q): %w", rec.Name, rec.ContentSource, req.ContentSource, ErrConflict)
	}
	// CSI spec, CreateVolume Errors: a volume of the name that exists
	// "but is incompatible with the specified ... parameters" is
	// ALREADY_EXISTS. Answered OK, the same directory would get a second
	// ID (another onDelete: a retained volume deleted as the first ID
	// says) or another volume context. A record without parameters
	// (written before they were kept) matches any.
	if rec.Parameters != nil && !maps.Equal(rec.Parameters, req.Parameters) {
		return fmt.Errorf("volume %q exists, made with other values of the parameters %s; create it with its class's parameters, or under another name: %w", rec.Name, strings.Join(paramsDiffer(rec.Parameters, req.Parameters), ", "), ErrConflict)
	}
	return nil
}

// paramsDiffer names the keys whose values differ between a and b, in
// order. Keys only: a value may hold what no message shows (a mount
// option misspelt for a password, which the volume package's checks do
// not know).
func paramsDiffer(a, b map[string]string) []string {
	var out []string
	for k, v := range a {
		if w, ok := b[k]; !ok || w != v {
			out = append(out, k)
		}
	}
	for k := range b {
		if _, ok := a[k]; !ok {
			out = append(out, k)
		}
	}
	slices.Sort(out)
	return out
}

// begin checks that a new volume may lie at req.Path and writes its intent.
func (s *Store) begin(ctx context.Context, req CreateRequest) (Record, error) {
	if err := s.checkAncestors(ctx, req.Path); err != nil {
		return Record{}, err
	}
	rec, _, err := s.newIntent(req)
	if err != nil {
		return Record{}, err
	}
	in := rec
	if in.AdoptedID, err = s.adoptedBefore(ctx, req.Path); err != nil {
		return Record{}, err
	}
	// Replaced whole, through the temporary createNew's adopted writes
	// too: a cut there leaves one, which this write takes over. (A torn
	// intent, which createNew's exclusive create can leave, means nothing
	// after it happened, and is read as no intent at all.)
	return rec, s.writeJSON(ctx, s.intentPath(req.Path), in)
}

// adoptedBefore says, for the intent a create is about to write at p, the
// ID of a directory at p that none of the driver's creates made
// (Record.AdoptedID). With no intent at p, none is unfinished there: a
// create that made the directory committed (and the caller found no
// record), or was rolled back, which removed it or kept it for what was
// written into it. So a directory there now is not one a rollback may
// take. An earlier intent passes on what it says, since its create may
// have made the directory since; a torn one says nothing (it may have
// replaced one whose create did), and neither does a link or a file.
func (s *Store) adoptedBefore(ctx context.Context, p string) (uint64, error) {
	old, err := s.intent(ctx, p)
	switch {
	case err == nil:
		return old.AdoptedID, nil
	case errors.Is(err, errTornIntent):
		return 0, nil
	case !errors.Is(err, fs.ErrNotExist):
		return 0, err
	}
	return s.dirFirst(ctx, p)
}

// dirFirst is the ID of the directory at p, for a create whose intent is
// the first at p (no other is unfinished there), so that none of the
// driver's creates made that directory; 0 when there is none (or a link,
// a file). On a caseless share, an intent a version before keys were
// folded wrote at p's own spelling's key is an unfinished create too,
// which may have made it (the reclaimer's unfold hands its rollback to the
// intent at the folded key): then 0.
func (s *Store) dirFirst(ctx context.Context, p string) (uint64, error) {
	if s.unfolded(p) {
		switch _, err := s.c.Stat(ctx, intentPath(p)); {
		case err == nil:
			return 0, nil
		case !errors.Is(err, fs.ErrNotExist):
			return 0, err
		}
	}
	fi, err := s.c.Stat(ctx, p)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return 0, nil
	case err != nil:
		return 0, err
	case fi.IsDir && !fi.IsLink:
		return fi.ID, nil
	}
	return 0, nil
}

// newIntent is the record a create of req begins with, and its bytes.
func (s *Store) newIntent(req CreateRequest) (Record, []byte, error) {
	uid, err := s.uid()
	if err != nil {
		return Record{}, nil, err
	}
	rec := Record{UID: uid, Name: req.Name, Path: req.Path, CapacityBytes: req.CapacityBytes, Created: s.now().UTC(),
		ContentSource: req.ContentSource, Populating: req.ContentSource != "", Parameters: req.Parameters}
	b, err := json.Marshal(rec)
	return rec, b, err
}

// finishCreate runs the steps after the intent: holds, the directory, the
// record (the commit), the root's mark, and the intent's removal. Every
// step is idempotent, so a call that rolls an earlier one forward runs them
// all again. A call cut short (its deadline, a broken connection) leaves
// what it did for its retry to go on from; one that fails for good (a
// refusal, a share that cannot hold the record) undoes it at once: the
// intent, the holds and the directory if this call made it, while empty.
func (s *Store) finishCreate(ctx context.Context, rec Record, req CreateRequest) (Record, error) {
	created := false
	err := s.createSteps(ctx, &rec, req, &created)
	if err == nil || cutShort(ctx, err) {
		return rec, err
	}
	return Record{}, s.undoCreate(ctx, rec, created, err)
}

// undoCreate undoes a create that failed for good (err) before its
// commit: the directory when this call made it (and it is still empty),
// the holds and the intent.
func (s *Store) undoCreate(ctx context.Context, rec Record, created bool, err error) error {
	r, rerr := s.record(ctx, rec.Path)
	switch {
	case rerr == nil && r.UID == rec.UID:
		return err // committed: a retry finishes what follows
	case rerr == nil:
		// Another volume's record took the directory since (a create of
		// another process, which no lock of this one serializes with):
		// the holds, named by the path, are that volume's now, and so may
		// be the directory this call made. Only the intent goes.
		_ = s.removeFile(ctx, s.intentPath(rec.Path))
		return err
	case errors.Is(rerr, errTorn):
		_ = s.removeFile(ctx, s.recordPath(rec.Path))
	}
	if created {
		_ = s.removeEmptyDir(ctx, rec.Path)
	}
	s.dropHolds(ctx, rec.Path)
	_ = s.removeFile(ctx, s.intentPath(rec.Path))
	return err
}

// cutShort says whether err only stopped a call that its retry can finish.
// No error is never cut short, whatever ctx says: a step that went
// through as its context ended has done its part, and callers that take
// a cut for the call's answer would answer its nil (success) with nothing.
func cutShort(ctx context.Context, err error) bool {
	if err == nil {
		return false
	}
	return ctx.Err() != nil || share.BreaksSession(err) || errors.Is(err, share.ErrInUse) || errors.Is(err, ErrBusy)
}

func (s *Store) createSteps(ctx context.Context, rec *Record, req CreateRequest, created *bool) error {
	p := rec.Path
	// Holds before the directory: a volume without its holds could be
	// swallowed by a volume made later at an ancestor.
	if err := s.addHolds(ctx, p, *rec); err != nil {
		return err
	}
	var err error
	var fi share.FileInfo
	if *created, fi, err = s.makeDir(ctx, p, req.Perm); err != nil {
		return err
	}
	if !*created {
		old, legacy, err := s.legacyOwner(ctx, req)
		if err != nil {
			return err
		}
		if legacy {
			// A retry of a CreateVolume the previous driver version served.
			s.dropHolds(ctx, p)
			if err := s.removeFile(ctx, s.intentPath(p)); err != nil {
				return err
			}
			*rec = old
			return nil
		}
		if rec.ContentSource != "" {
			// A volume made from a snapshot or volume holds exactly that
			// content: never merged into what a retained directory kept.
			names, err := s.c.List(ctx, p, 1)
			if err != nil {
				return err
			}
			if len(names) > 0 {
				return fmt.Errorf("directory %s already holds data (a retained volume, or made by hand), and a volume restored or cloned into it would mix that data with the copy; move it away or use a subDir template that gives each claim a new directory: %w", p, ErrConflict)
			}
		}
	}
	rec.RootID = fi.ID
	return s.commitFirst(ctx, rec, req)
}

// commitFirst is the commit of a create that found no record at its
// directory: the record is written only where none is (share.OpCreate, as
// createNew's commit), never over one. A create of another process (a
// demoted leader's, another cluster's on the same share) shares no lock
// with this one and may have committed at the same directory since this
// call looked, adopting the directory this call made or made by the same
// claim: replacing its record would answer two claims with one directory,
// and either's DeleteVolume would take the other's data. The same claim's
// volume is then the answer (as a repeated call's); another claim's is a
// refusal. A torn record (an OpCreate cut between its CREATE and WRITE)
// commits nothing, and is replaced.
func (s *Store) commitFirst(ctx context.Context, rec *Record, req CreateRequest) error {
	b, err := json.Marshal(*rec)
	if err != nil {
		return err
	}
	// The share's first volume finds no volumes directory yet.
	p := s.recordPath(rec.Path)
	err = s.withParent(ctx, p, func() error {
		return share.RunOne(ctx, s.c, share.Op{Kind: share.OpCreate, Path: p, Data: b}).Err
	})
	switch {
	case err == nil:
		return s.afterCommit(ctx, *rec, 0)
	case cutShort(ctx, err):
		return err
	case !errors.Is(err, fs.ErrExist):
		// A client that cannot create exclusively, or a file the share
		// would not take: the replacing write.
		return s.commit(ctx, *rec, 0)
	}
	old, err := s.record(ctx, rec.Path)
	switch {
	case errors.Is(err, errTorn):
		return s.commit(ctx, *rec, 0)
	case err != nil:
		return err
	case old.UID == rec.UID:
		return s.afterCommit(ctx, *rec, 0)
	}
	if err := s.sameVolume(ctx, old, req); err != nil {
		return err
	}
	got, err := s.ensureDir(ctx, old, req.Perm)
	if err == nil {
		*rec = got
	}
	return err
}

// commit writes the record (the commit point), then the root's mark, then
// drops the mark of the root the record named before (oldRoot) and the
// intent: what follows the record's write is done again by any later call
// that finds the record.
func (s *Store) commit(ctx context.Context, rec Record, oldRoot uint64) error {
	if err := s.writeJSON(ctx, s.recordPath(rec.Path), rec); err != nil {
		return err
	}
	return s.afterCommit(ctx, rec, oldRoot)
}

func (s *Store) afterCommit(ctx context.Context, rec Record, oldRoot uint64) error {
	if oldRoot == 0 {
		oldRoot = rec.ReplacedRootID
	}
	if answersAtOnce(rec) && oldRoot == 0 {
		return s.markRoot(ctx, rec)
	}
	if rec.RootID != 0 {
		// An empty mark: a volume's mark goes with its DeleteVolume, so
		// only an archive's (ArchiveVolume) outlives what it marks and
		// names its path; an empty file costs no write round trip.
		if err := s.writeMarker(ctx, rootMarker(rec.RootID)); err != nil {
			return err
		}
	}
	if oldRoot != 0 && oldRoot != rec.RootID {
		// The old directory went behind the driver's back: its ID may
		// be another root's now.
		if err := s.dropMark(ctx, oldRoot, rec.Path, false); err != nil {
			return err
		}
	}
	// A volume still being filled has not been answered: its intent stays
	// until Populated, so the reclaimer finds it should its claim go away
	// before then. Another's goes before the record stops naming the
	// replaced root: a retry that finds the record without it takes
	// markRoot, which would rename an intent still there onto the mark
	// this call wrote.
	if !rec.Populating {
		if err := s.removeFile(ctx, s.intentPath(rec.Path)); err != nil {
			return err
		}
	}
	if rec.ReplacedRootID != 0 {
		// Dealt with: no later call looks for its holder again.
		rec.ReplacedRootID = 0
		if err := s.writeJSON(ctx, s.recordPath(rec.Path), rec); err != nil {
			return err
		}
	}
	return nil
}

func isRefusal(err error) bool {
	return errors.Is(err, ErrConflict) || errors.Is(err, ErrInvalid)
}

// legacyOwner looks for a v1 record of the directory being adopted: the
// same claim's is that volume (legacy), another claim's a conflict.
func (s *Store) legacyOwner(ctx context.Context, req CreateRequest) (Record, bool, error) {
	if req.Legacy == "" {
		return Record{}, false, nil
	}
	var old Record
	err := s.readJSON(ctx, req.Legacy, &old)
	switch {
	case err != nil && !errors.Is(err, fs.ErrNotExist):
		return Record{}, false, err
	case err == nil && old.Name != req.Name:
		return Record{}, false, fmt.Errorf("directory %s already belongs to volume %q; use a subDir template that gives each claim its own directory: %w", req.Path, old.Name, ErrConflict)
	case err == nil:
		old.Path = req.Path
		return old, true, nil
	}
	// The v1 volume of any other split is another claim's.
	if err := s.v1Volume(ctx, req.Path, req.Legacy, "already belongs to"); err != nil {
		return Record{}, false, err
	}
	return Record{}, false, nil
}

// v1Volume refuses p when a v1 record, other than the one at skip, names
// it. A v1 record lies in its class's base, which another class on the
// share may split off the same path elsewhere (smb://h/s with subDir
// team/data, smb://h/s/team with data), so every split is read. rel says
// how p relates to the volume, for the message.
func (s *Store) v1Volume(ctx context.Context, p, skip, rel string) error {
	for _, base := range append([]string{""}, ancestors(p)...) {
		other := LegacyRecordPath(base, strings.TrimPrefix(strings.TrimPrefix(p, base), "/"))
		if other == skip {
			continue
		}
		var old Record
		switch err := s.readJSON(ctx, other, &old); {
		case err == nil:
			return fmt.Errorf("directory %s %s v1 volume %q (recorded in %s); use a subDir template that gives each claim its own directory: %w", p, rel, old.Name, other, ErrConflict)
		case !errors.Is(err, fs.ErrNotExist):
			return err
		}
	}
	return nil
}

// intent reads the intent of a create at p; fs.ErrNotExist when there is
// none, or only a torn one.
func (s *Store) intent(ctx context.Context, p string) (Record, error) {
	var in Record
	err := s.readJSON(ctx, s.intentPath(p), &in)
	if errors.Is(err, ErrConflict) {
		return Record{}, fmt.Errorf("intent at %s: %w", p, errTornIntent)
	}
	return in, err
}

// rollBack undoes the create an intent describes, when no record was
// written for it: the directory is removed only when it is empty and no
// other volume's, the holds and the intent always. It reports the
// directory it kept because something was written into it.
func (s *Store) rollBack(ctx context.Context, in Record) (kept string, err error) {
	p := in.Path
	rec, err := s.record(ctx, p)
	switch {
	case err == nil && rec.UID == in.UID && rec.Populating:
		// Committed, but never filled, so never answered: nothing but
		// the copy wrote into it (no pod can have mounted it). It goes
		// as a DeleteVolume would take it, and its intent last; but a
		// directory that was there before the create is not the
		// driver's to remove: it stays, with what the copy wrote,
		// reported for an administrator, and the rest goes.
		if in.AdoptedID != 0 && in.AdoptedID == rec.RootID {
			if ok, err := dirHasID(ctx, s.c, p, in.AdoptedID); err != nil {
				return "", err
			} else if ok {
				if err := s.dropRecord(ctx, rec, true); err != nil {
					return "", err
				}
				return p, s.removeFile(ctx, s.intentPath(p))
			}
		}
		if err := s.DeleteVolume(ctx, rec); err != nil {
			return "", err
		}
		return "", s.removeFile(ctx, s.intentPath(p))
	case err == nil && rec.UID == in.UID:
		// Committed before the call stopped: finish it forward.
		return "", s.afterCommit(ctx, rec, 0)
	case err == nil:
		// Another claim's volume took the place since: its holds stay,
		// and the directory unless this create made it (a volume whose
		// directory went behind the driver's back: abandon undoes the
		// same when the claim's retry comes first).
		if err := s.dropMadeDir(ctx, in, rec); err != nil {
			return "", err
		}
		return "", s.removeFile(ctx, s.intentPath(p))
	case errors.Is(err, errTorn):
		// The create's commit was cut short: it goes with the rest.
		if err := s.removeFile(ctx, s.recordPath(p)); err != nil {
			return "", err
		}
	case !errors.Is(err, fs.ErrNotExist):
		return "", err
	}
	fi, err := s.c.Stat(ctx, p)
	switch {
	case errors.Is(err, fs.ErrNotExist):
	case err != nil:
		return "", err
	case fi.IsDir && !fi.IsLink:
		_, err := s.checkAdoptable(ctx, p)
		if err == nil {
			// Another store's root above it since (foreignStore): its
			// volume, perhaps, now.
			err = s.checkAncestors(ctx, p)
		}
		if isRefusal(err) {
			break // another volume's, an archive, another store's: not the intent's to touch
		} else if err != nil {
			return "", err
		}
		names, err := s.c.List(ctx, p, 1)
		if err != nil {
			return "", err
		}
		if len(names) > 0 {
			kept = p
			break
		}
		if in.AdoptedID != 0 && fi.ID == in.AdoptedID {
			break // there before the create: an administrator's, kept as found
		}
		if err := s.removeEmptyDir(ctx, p); err != nil {
			return "", err
		}
	}
	s.dropHolds(ctx, p)
	return kept, s.removeFile(ctx, s.intentPath(p))
}

// ensureDir answers a repeated CreateVolume: the volume's directory must be
// there, and what the first call did after its commit is done again. One
// on its way out (in the quarantine) makes the caller wait; one removed
// behind the driver's back is made again, empty.
func (s *Store) ensureDir(ctx context.Context, rec Record, perm fs.FileMode) (Record, error) {
	fi, err := s.c.Stat(ctx, rec.Path)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return Record{}, err
	}
	if err == nil {
		if fi.ID == rec.RootID || rec.RootID == 0 || fi.ID == 0 || fi.IsLink || !fi.IsDir {
			return rec, s.afterCommit(ctx, rec, 0)
		}
		// Another directory than the record's: the one an earlier call
		// made again before it was cut short, when empty and unmarked.
		names, err := s.c.List(ctx, rec.Path, 1)
		if err != nil {
			return Record{}, err
		}
		if len(names) > 0 {
			return rec, s.afterCommit(ctx, rec, 0)
		}
		if m, err := s.marked(ctx, fi.ID); err != nil {
			return Record{}, err
		} else if m {
			return rec, s.afterCommit(ctx, rec, 0)
		}
	} else {
		if busy, err := s.beingDeleted(ctx, rec.Path, rec); err != nil {
			return Record{}, err
		} else if busy {
			return Record{}, fmt.Errorf("volume %q at %s is being deleted; retry later: %w", rec.Name, rec.Path, ErrBusy)
		}
		if _, fi, err = s.makeDir(ctx, rec.Path, perm); err != nil {
			return Record{}, err
		}
	}
	old := rec.RootID
	rec.RootID, rec.ReplacedRootID = fi.ID, old
	return rec, s.commit(ctx, rec, old)
}

// writeFile writes p, making its directory when it is not there yet (the
// metadata directories are made on first use).
func (s *Store) writeFile(ctx context.Context, p string, data []byte) error {
	if err := s.withParent(ctx, p, func() error { return s.c.WriteFile(ctx, p, data) }); err != nil {
		return fmt.Errorf("write %s: %w", p, err)
	}
	return nil
}

// withParent runs do, which makes the file p, and when p's directory is
// not there creates it with its parents and runs do again.
func (s *Store) withParent(ctx context.Context, p string, do func() error) error {
	err := do()
	if errors.Is(err, fs.ErrNotExist) {
		if err := share.MkdirAll(ctx, s.c, path.Dir(p), 0o755); err != nil {
			return fmt.Errorf("create %s: %w", path.Dir(p), err)
		}
		err = do()
	}
	return err
}

// makeDir creates p and its missing parents; created is false when p was
// already there and is adopted (after the checks that it may be). fi is
// what the server says of p, its ID included: the MKDIR tells it where the
// protocol lets it (share.DirMaker), so a create needs no look-up after.
func (s *Store) makeDir(ctx context.Context, p string, perm fs.FileMode) (created bool, fi share.FileInfo, err error) {
	// The parents are usually there already (the base): one MKDIR says so.
	fi, err = share.MkdirStat(ctx, s.c, p, perm)
	if parent := path.Dir(p); errors.Is(err, fs.ErrNotExist) && parent != "." {
		if err := share.MkdirAll(ctx, s.c, parent, perm); err != nil {
			return false, fi, fmt.Errorf("create parent directories of %s: %w", p, err)
		}
		fi, err = share.MkdirStat(ctx, s.c, p, perm)
	}
	if err == nil {
		return true, fi, nil
	}
	if !errors.Is(err, fs.ErrExist) {
		return false, fi, fmt.Errorf("create %s: %w", p, err)
	}
	fi, err = s.checkAdoptable(ctx, p)
	return false, fi, err
}

// checkAdoptable decides whether an existing directory without a record
// (retained from an earlier claim, or made by hand) may become a volume.
func (s *Store) checkAdoptable(ctx context.Context, p string) (share.FileInfo, error) {
	fi, err := s.c.Stat(ctx, p)
	if err != nil {
		return fi, err
	}
	switch {
	case fi.IsLink:
		return fi, fmt.Errorf("%s is a link on the server, not a directory: %w", p, ErrConflict)
	case !fi.IsDir:
		return fi, fmt.Errorf("%s exists on the share and is not a directory: %w", p, ErrConflict)
	}
	if err := s.classRootAt(ctx, p); err != nil {
		return fi, err
	}
	var a Archive
	if err := s.readJSON(ctx, s.archivePath(p), &a); err == nil {
		return fi, fmt.Errorf("%s is the archive of deleted volume %q and is never handed to a new claim: %w", p, a.Name, ErrConflict)
	} else if !errors.Is(err, fs.ErrNotExist) {
		return fi, err
	}
	if fi.ID != 0 {
		if m, err := s.marked(ctx, fi.ID); err != nil {
			return fi, err
		} else if m {
			return fi, fmt.Errorf("%s is another volume's directory (a link to it, or a second name): %w", p, ErrConflict)
		}
	}
	return fi, s.checkNoHolds(ctx, p)
}

// foreignStore refuses the directory p when another store keeps its
// records there: p holds a metadata directory of this layout. That is the
// root of another class's sessions on the same files: a share or export
// nested in this one, a directory shared over SMB and exported over NFS at
// another level, or an NFS server that withholds its export list (each
// session is then rooted at its class's own path). Neither store reads the
// other's records, so no volume of this one may lie at or below p: the
// other's claims would adopt it, and a DeleteVolume here would take every
// volume there. A v1 class base holds only .fileshare-csi/<escaped>.json
// (records of volumes from before records moved to the share's root): this
// store's own, not refused.
//
// A directory the controller may not search (a pod's 0700 data directory on
// a root-squashing export) holds no store: the controller could not keep one
// there either, and refusing would break adopting or archiving it.
func (s *Store) foreignStore(ctx context.Context, p string) error {
	_, err := s.storeAt(ctx, p)
	return err
}

// storeAt is foreignStore, and says whether p holds a .fileshare-csi at all.
func (s *Store) storeAt(ctx context.Context, p string) (bool, error) {
	if _, err := s.c.Stat(ctx, path.Join(p, Dir)); errors.Is(err, fs.ErrNotExist) || errors.Is(err, fs.ErrPermission) {
		return false, nil
	} else if err != nil {
		return false, err
	}
	// The first directory a store makes (its first intent's), and the
	// ones every store that ever made a volume has.
	for _, d := range []string{intentsDir, volumesDir, rootsDir} {
		_, err := s.c.Stat(ctx, path.Join(p, d))
		switch {
		case err == nil:
			return true, fmt.Errorf("directory %s holds the records of another class's sessions (%s: a share or export nested in this one, the same files shared over SMB and exported over NFS at another level, or a server that hides its export list): no volume of this class is made, adopted, deleted or archived there, which would take that class's volumes; give the classes bases that do not overlap, or sources that reach the files at the same directory: %w", p, path.Join(p, Dir), ErrConflict)
		case !errors.Is(err, fs.ErrNotExist):
			return true, err
		}
	}
	return true, nil
}

// classRootAt is foreignStore for a directory a call would take whole (adopt,
// delete, archive): a v1 class's base is refused too. Its .fileshare-csi
// holds the records of v1 volumes, whose directories lie below it and have
// no holds; a claim that adopted the base would take them with it at its
// DeleteVolume. It costs a listing only where a .fileshare-csi is there.
// (Not for the directories above a new volume: a class's new volumes go
// into its own v1 base.)
func (s *Store) classRootAt(ctx context.Context, p string) error {
	if has, err := s.storeAt(ctx, p); err != nil || !has {
		return err
	}
	names, err := s.c.List(ctx, path.Join(p, Dir), 1)
	switch {
	case err == nil && len(names) > 0:
		return fmt.Errorf("%s holds the records of v1 volumes (%s), whose directories lie below it; give the classes on this share bases and subDir templates that cannot nest: %w", p, path.Join(p, Dir), ErrConflict)
	case err != nil && !errors.Is(err, fs.ErrNotExist) && !errors.Is(err, fs.ErrPermission):
		return err
	}
	return nil
}

// checkAncestors refuses p when a directory above it is a volume, or the
// root of another store.
func (s *Store) checkAncestors(ctx context.Context, p string) error {
	for _, a := range ancestors(p) {
		if err := s.foreignStore(ctx, a); err != nil {
			return err
		}
		r, err := s.record(ctx, a)
		if err == nil {
			return fmt.Errorf("directory %s would lie inside volume %q (%s); give the classes on this share subDir templates that cannot nest: %w", p, r.Name, a, ErrConflict)
		}
		if !errors.Is(err, fs.ErrNotExist) {
			return err
		}
		// A v1 volume above (its pods would see this one's data).
		if err := s.v1Volume(ctx, a, "", "is"); err != nil {
			return fmt.Errorf("%s would lie inside it: %w", p, err)
		}
	}
	return nil
}

// checkNoHolds refuses p when a volume lies below it. Holds whose volume
// has no record are left over from a crash or an out-of-band removal and
// are cleared.
func (s *Store) checkNoHolds(ctx context.Context, p string) error {
	if err := s.checkHoldsIn(ctx, p, s.holdDir(p)); err != nil {
		return err
	}
	if s.unfolded(p) {
		// Holds a version before keys were folded wrote (unfoldedRecord).
		return s.checkHoldsIn(ctx, p, holdDir(p))
	}
	return nil
}

func (s *Store) checkHoldsIn(ctx context.Context, p, dir string) error {
	names, err := s.c.List(ctx, dir, 64)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	for _, n := range names {
		// A hold is named by the key of the volume below: its record says
		// which volume that is.
		f := volumesDir + "/" + n + ".json"
		b, err := s.c.ReadFile(ctx, f)
		r, err := decodeRecord(f, b, err)
		if err == nil {
			return fmt.Errorf("directory %s would hold volume %q (%s); give the classes on this share subDir templates that cannot nest: %w", p, r.Name, r.Path, ErrConflict)
		}
		if !errors.Is(err, fs.ErrNotExist) {
			return err
		}
		// An archive below (archive): its holds stay as long as its
		// mark, which an administrator who removes the archive by hand
		// removes too.
		var ar Archive
		if err := s.readJSON(ctx, archivesDir+"/"+n+".json", &ar); err == nil {
			return fmt.Errorf("directory %s would hold the archive of deleted volume %q (archived from %s; if that archive was removed by hand, remove %s/%s.json): %w", p, ar.Name, ar.From, archivesDir, n, ErrConflict)
		} else if !errors.Is(err, fs.ErrNotExist) {
			return err // one that cannot be read holds, as a volume's record does
		}
		// A create of the volume below that has not written its record
		// yet: it goes first, or the reclaimer undoes it.
		if err := s.readJSON(ctx, intentsDir+"/"+n+".json", &r); err == nil {
			return fmt.Errorf("directory %s would hold volume %q (%s), which is being created; retry later: %w", p, r.Name, r.Path, ErrBusy)
		} else if !errors.Is(err, fs.ErrNotExist) && !errors.Is(err, ErrConflict) {
			return err
		}
		if err := s.removeFile(ctx, dir+"/"+n); err != nil {
			return err
		}
	}
	if len(names) == 64 {
		// More stale holds than one look clears; the next call goes on.
		return fmt.Errorf("directory %s has many records of volumes below it; retry: %w", p, ErrBusy)
	}
	return nil
}

func (s *Store) addHolds(ctx context.Context, p string, rec Record) error {
	for _, a := range ancestors(p) {
		if err := s.writeMarker(ctx, s.holdDir(a)+"/"+s.key(p)); err != nil {
			return err
		}
	}
	return nil
}

// removeHolds removes p's holds, stopping at the first that will not go.
func (s *Store) removeHolds(ctx context.Context, p string) error {
	for _, a := range ancestors(p) {
		if err := s.removeFile(ctx, s.holdDir(a)+"/"+s.key(p)); err != nil {
			return err
		}
	}
	return nil
}

// dropHolds removes p's holds; best effort, since a stale hold is cleared
// by the next check that meets it.
func (s *Store) dropHolds(ctx context.Context, p string) { _ = s.removeHolds(ctx, p) }

// beingDeleted reports whether rec's directory has gone to quarantine and
// the record only waits for the delete to finish.
func (s *Store) beingDeleted(ctx context.Context, p string, rec Record) (bool, error) {
	if rec.UID == "" {
		return false, nil
	}
	_, err := s.c.Stat(ctx, Quarantine(rec.UID))
	if errors.Is(err, fs.ErrNotExist) {
		return false, nil
	}
	return err == nil, err
}

// CheckDir answers an error wrapping fs.ErrNotExist unless p is a directory.
func (s *Store) CheckDir(ctx context.Context, p string) error {
	fi, err := s.c.Stat(ctx, p)
	if err != nil {
		return err
	}
	if !fi.IsDir || fi.IsLink {
		return fmt.Errorf("volume path %s is not a directory: %w", p, fs.ErrNotExist)
	}
	return nil
}

// Capacity is the space of the share the store's session is to, as its
// server reports it: what GetCapacity answers for a class.
func (s *Store) Capacity(ctx context.Context) (share.Capacity, error) {
	return s.c.Capacity(ctx)
}

// Expand records a larger size and returns the size now recorded.
func (s *Store) Expand(ctx context.Context, p, uid string, size int64) (int64, error) {
	rec, err := s.Get(ctx, p, uid)
	if err != nil {
		return 0, err
	}
	if size <= rec.CapacityBytes {
		return rec.CapacityBytes, nil
	}
	rec.CapacityBytes = size
	return size, s.writeJSON(ctx, s.recordPath(p), rec)
}

// dropRecord removes the holds, the root's mark and last the record: a
// call cut short leaves the record, and its retry finds it and does the
// rest again. Holds never outlive their record. held says rec.Path was
// seen to be the directory with file ID RootID (a retained volume): its
// mark goes at once; that of a directory gone or replaced only if no
// other root has its ID now (dropMark).
func (s *Store) dropRecord(ctx context.Context, rec Record, held bool) error {
	if err := s.removeHolds(ctx, rec.Path); err != nil {
		return err
	}
	if err := s.dropBeat(ctx, rec); err != nil {
		return err
	}
	if err := s.dropMark(ctx, rec.RootID, rec.Path, held); err != nil {
		return err
	}
	if err := s.dropMark(ctx, rec.ReplacedRootID, rec.Path, false); err != nil {
		return err
	}
	return s.removeFile(ctx, s.recordPath(rec.Path))
}

// ownRoot says whether a look at rec.Path (a Stat in a batch) found the
// volume's own directory: the one with the file ID it was made with.
func ownRoot(rec Record, look share.Result) bool {
	fi := look.Info
	return look.Err == nil && fi.IsDir && !fi.IsLink && rec.RootID != 0 && fi.ID == rec.RootID
}

// rootState looks at what rec.Path leads to now: gone, the volume's own
// directory, or something else put in its place (a link, a file, another
// directory), which no delete or archive may enter.
func (s *Store) rootState(ctx context.Context, p string, rootID uint64) (fi share.FileInfo, exists, own bool, err error) {
	fi, err = s.c.Stat(ctx, p)
	if errors.Is(err, fs.ErrNotExist) {
		return fi, false, false, nil
	}
	if err != nil {
		return fi, false, false, err
	}
	own = fi.IsDir && !fi.IsLink && (rootID == 0 || fi.ID == 0 || fi.ID == rootID)
	return fi, true, own, nil
}

// ArchiveVolume renames the volume's directory to an archive beside it and
// marks it as one. It returns the archive's path, "" when there was nothing.
//
// The archive's name goes into the record first, then its mark, then the
// rename (the commit point), then the record goes: a retry after a cut
// renames to the same name, or finds the directory there already.
func (s *Store) ArchiveVolume(ctx context.Context, rec Record) (string, error) {
	_, exists, own, err := s.rootState(ctx, rec.Path, rec.RootID)
	if err != nil {
		return "", err
	}
	to := ""
	switch {
	case exists && !own:
		s.logf("volume path no longer leads to the volume's own directory (replaced by a link or another directory); not archiving it", "path", rec.Path)
	case exists:
		save := func(ctx context.Context, r Record) error { return s.writeJSON(ctx, s.recordPath(r.Path), r) }
		if to, err = s.archive(ctx, rec, save); err != nil {
			return "", err
		}
	case rec.ArchivingTo != "":
		// Renamed by a call that was cut short after it.
		if fi, err := s.c.Stat(ctx, rec.ArchivingTo); err == nil && fi.IsDir && !fi.IsLink && (rec.RootID == 0 || fi.ID == rec.RootID) {
			to = rec.ArchivingTo
		} else if err != nil && !errors.Is(err, fs.ErrNotExist) {
			return "", err
		}
	}
	done := rec
	if to != "" {
		// The archive keeps the root's mark (a rename keeps the file ID):
		// no delete walk enters it through a link the server resolves.
		// Whoever removes the archive by hand leaves the mark behind; a
		// stale mark only makes a later delete leave a directory alone.
		done.RootID = 0
	}
	return to, s.dropRecord(ctx, done, false)
}

// archive moves rec's directory to an archive. The archive's name is
// chosen once and saved in the volume's record (save writes it where the
// volume's kind of record lives) before anything moves, so a retry after a
// cut renames to the same name.
func (s *Store) archive(ctx context.Context, rec Record, save func(context.Context, Record) error) (string, error) {
	// Archived, another class's session root inside would move away from
	// under its share or export (v1 volumes too: ArchiveLegacy).
	if err := s.classRootAt(ctx, rec.Path); err != nil {
		return "", err
	}
	for i := range 10 {
		to := rec.ArchivingTo
		if to == "" || i > 0 {
			to = ArchiveName(rec.Path, s.now(), i)
		}
		if fi, err := s.c.Stat(ctx, to); err == nil {
			if to != rec.ArchivingTo {
				continue
			}
			// The name saved for this volume is taken: by the volume
			// itself, when an earlier try's rename ran after this call
			// looked (the server ran it late, its sender killed or cut).
			if done, err := s.archivedAs(ctx, rec, to, fi); done || err != nil {
				return to, err
			}
			// Taken by hand after an earlier try saved it.
			if err := s.unclaim(ctx, rec, to); err != nil {
				return "", err
			}
			continue
		} else if !errors.Is(err, fs.ErrNotExist) {
			return "", err
		}
		if rec.ArchivingTo != to {
			rec.ArchivingTo = to
			if err := save(ctx, rec); err != nil {
				return "", err
			}
		}
		// The mark comes first: an archive must never exist unmarked, or a
		// claim whose subDir resolves to its name would adopt it.
		if err := s.writeJSON(ctx, s.archivePath(to), Archive{UID: rec.UID, Name: rec.Name, From: rec.Path, Archived: s.now().UTC()}); err != nil {
			return "", err
		}
		// Holds on the archive's ancestors, named by its key, before it
		// is one: no claim adopts a directory that holds it (the volume's
		// own holds go after the rename), which would hand a deleted
		// volume's data to another claim (checkHoldsIn).
		if err := s.addHolds(ctx, to, rec); err != nil {
			return "", err
		}
		// The root's mark names the archive as well: it stays live there.
		if rec.RootID != 0 {
			if err := s.writeMark(ctx, rec.RootID, rec.Path, to); err != nil {
				return "", err
			}
		}
		err := s.c.Rename(ctx, rec.Path, to)
		if err == nil {
			return to, nil
		}
		if taken := errors.Is(err, fs.ErrExist); taken || errors.Is(err, fs.ErrNotExist) {
			// The volume went since this call looked, or the name was
			// taken: by an earlier try's rename of this step that the
			// server ran late?
			if fi, serr := s.c.Stat(ctx, to); serr == nil {
				if done, serr := s.archivedAs(ctx, rec, to, fi); done || serr != nil {
					return to, serr
				}
			} else if taken && !errors.Is(serr, fs.ErrNotExist) {
				return "", serr
			}
		}
		if !errors.Is(err, fs.ErrExist) {
			// Keep the mark: the rename may have happened before the
			// error, and a stray mark only refuses one archive name.
			return "", err
		}
		// Taken by hand since this call looked.
		if err := s.unclaim(ctx, rec, to); err != nil {
			return "", err
		}
	}
	return "", fmt.Errorf("every archive name for %s is taken; move old archives away: %w", rec.Path, ErrBusy)
}

// unclaim takes back what archive wrote for the name to, found taken by a
// directory that is not the volume (made by hand after the name was saved,
// before the rename): the archive's record, when it is this volume's, and
// its holds (first: the record is written before them, and goes after).
// Left, they would call that directory the archive of a deleted volume,
// refuse it to claims, and outlive everything of the volume. It runs before
// the next name is saved, so a retry cut between still reads this name,
// finds it taken, and comes here again.
func (s *Store) unclaim(ctx context.Context, rec Record, to string) error {
	if rec.RootID == 0 {
		// No file ID tells the volume from a directory made by hand (a v1
		// volume, a server that gives none; archivedAs goes by path
		// alone): the directory at to may be the volume, archived there
		// by an earlier try, with one made at its old path since. Its
		// record and holds stay: left, they only refuse a hand-made
		// directory's ancestors to claims; taken, they would hand a
		// deleted volume's data to one.
		return nil
	}
	switch fi, err := s.c.Stat(ctx, to); {
	case errors.Is(err, fs.ErrNotExist):
	case err != nil:
		return err
	case fi.ID == 0 || fi.ID == rec.RootID:
		return nil // the volume's ID: no hand-made directory (archivedAs)
	}
	var a Archive
	switch err := s.readJSON(ctx, s.archivePath(to), &a); {
	case errors.Is(err, fs.ErrNotExist):
		return nil
	case err != nil:
		return err
	case a.UID != rec.UID:
		return nil // another volume's archive: its record and holds stay
	}
	if err := s.removeHolds(ctx, to); err != nil {
		return err
	}
	return s.removeFile(ctx, s.archivePath(to))
}

// archivedAs says whether the directory at to (fi) is rec's volume,
// archived there by an earlier try of this call: to has its file ID, and
// its path is gone or holds another directory (made by hand since); a v1
// volume, which has no ID, by its path alone, as ArchiveVolume takes it.
func (s *Store) archivedAs(ctx context.Context, rec Record, to string, fi share.FileInfo) (bool, error) {
	if !fi.IsDir || fi.IsLink || rec.RootID != 0 && fi.ID != rec.RootID {
		return false, nil
	}
	at, err := s.c.Stat(ctx, rec.Path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return true, nil
	case err != nil:
		return false, err
	}
	// A directory made at the old path since, with another ID, is not the
	// volume, which to has. (One with the volume's ID is the volume still
	// there, and to a way to it: a link the server resolves.)
	return rec.RootID != 0 && at.ID != 0 && at.ID != rec.RootID, nil
}

// ArchiveName is where the i-th attempt archives the directory p at time t:
// archived-<name> beside it, then with a timestamp and a counter. A name
// that would pass the 255-byte component limit is shortened and given a
// hash of the whole, so long names archive as reliably as short ones.
func ArchiveName(p string, t time.Time, i int) string {
	dir, name := path.Split(p)
	suffix := ""
	if i > 0 {
		suffix = "-" + t.UTC().Format("20060102T150405Z")
		if i > 1 {
			suffix += "-" + strconv.Itoa(i)
		}
	}
	full := ArchivePrefix + name + suffix
	if len(full) > maxName {
		sum := sha256.Sum256([]byte(name))
		h := "-" + hex.EncodeToString(sum[:4])
		keep := maxName - len(ArchivePrefix) - len(suffix) - len(h)
		cut := name[:keep]
		for !utf8Start(name, len(cut)) {
			cut = cut[:len(cut)-1]
		}
		full = ArchivePrefix + cut + h + suffix
	}
	return dir + full
}

func utf8Start(s string, i int) bool { return i >= len(s) || s[i]&0xC0 != 0x80 }

// DeleteVolume removes the volume's directory and everything in it, then its
// record. The directory is first moved into the driver's quarantine, so it
// leaves its place at once, relative links inside it stop resolving, and a
// delete cut short resumes from the quarantine. Nothing outside the volume
// is ever entered or removed: links are removed as links, and directories
// whose ID marks them as another volume's are left alone.
func (s *Store) DeleteVolume(ctx context.Context, rec Record) error {
	if err := s.deleteDir(ctx, rec); err != nil {
		return err
	}
	done := rec
	done.RootID = 0 // its mark went with the directory
	return s.dropRecord(ctx, done, false)
}

// deleteDir moves rec.Path to the quarantine under rec.UID and removes
// it there, with its root's mark, through every guard of the delete walk.
func (s *Store) deleteDir(ctx context.Context, rec Record) error {
	fi, exists, own, err := s.rootState(ctx, rec.Path, rec.RootID)
	if err != nil {
		return err
	}
	switch {
	case exists && own:
		// Another class's session root inside the volume (made inside it
		// after it was, or adopted by a version before foreignStore):
		// the walk would take every volume of that class. Not asked of a
		// snapshot's tree (in the metadata directory, where no class is
		// rooted) nor of a volume still being filled (made by this store
		// a moment ago): what they hold is a copy's, and a look-alike a
		// tenant copied in would keep them, and the reclaimer's every pass,
		// stuck.
		if first, _, _ := strings.Cut(rec.Path, "/"); first != Dir && !rec.Populating {
			if err := s.classRootAt(ctx, rec.Path); err != nil {
				return err
			}
		}
		if err := s.moveToQuarantine(ctx, rec); err != nil {
			return err
		}
	case exists && fi.IsLink:
		// A link is removed as a link (purge): that loses no data, and
		// leaves no link where a claim of the same name would be made.
		if err := s.moveToQuarantine(ctx, rec); err != nil {
			return err
		}
	case exists:
		// A file or another directory took the volume's path (the
		// directory went behind the driver's back: an administrator's
		// restore, say): someone else's, never moved or removed.
		s.logf("the volume's path holds something that is not the volume's directory; left it in place", "path", rec.Path)
	}
	held := exists && own && fi.ID == rec.RootID
	if !held && rec.RootID != 0 {
		// An earlier try moved it already, or it went behind the
		// driver's back (then its ID may be another root's now).
		if held, err = dirHasID(ctx, s.c, Quarantine(rec.UID), rec.RootID); err != nil {
			return err
		}
	}
	// Our own root must not look foreign to the walk below.
	if err := s.dropMark(ctx, rec.RootID, rec.Path, held); err != nil {
		return err
	}
	// purge looks again at what the quarantine holds: the path may have
	// been swapped for a link between the look above and the move.
	return s.purge(ctx, Quarantine(rec.UID), rec.RootID)
}

func (s *Store) moveToQuarantine(ctx context.Context, rec Record) error {
	q := Quarantine(rec.UID)
	err := s.c.Rename(ctx, rec.Path, q)
	if errors.Is(err, fs.ErrNotExist) {
		if err = share.MkdirAll(ctx, s.c, deletingDir, 0o700); err == nil {
			err = s.c.Rename(ctx, rec.Path, q)
		}
	}
	if errors.Is(err, fs.ErrExist) {
		// An earlier try moved an earlier directory of this volume there
		// and was cut short: finish that one first.
		if err = s.purge(ctx, q, 0); err == nil {
			err = s.c.Rename(ctx, rec.Path, q)
		}
	}
	if err == nil {
		return nil
	}
	if !share.BreaksSession(err) {
		// The server would not move it (a file still open in it, or the
		// base lies on another file system): delete it in place, with the
		// same guards.
		s.logf("cannot move the volume to the quarantine, deleting it in place", "path", rec.Path, "error", err.Error())
		return s.purge(ctx, rec.Path, rec.RootID)
	}
	return fmt.Errorf("move %s out of the way before deleting it: %w", rec.Path, err)
}

// purge removes the directory q, which must be the volume's own (rootID).
// A link is removed as a link; anything else that is not the volume's own
// directory is left in place, never entered. What the server will not let
// the driver see or remove (links it resolves to other volumes, links out of
// the share it hides) stays in the quarantine, outside every volume, and is
// logged.
func (s *Store) purge(ctx context.Context, q string, rootID uint64) error {
	fi, exists, own, err := s.rootState(ctx, q, rootID)
	switch {
	case err != nil:
		return err
	case !exists:
		return nil
	case fi.IsLink:
		return s.removeFile(ctx, q)
	case !own:
		// Swapped in at the volume's path after the look that found the
		// volume's own directory there, or a link the server resolves:
		// nothing of the volume's, so nothing is removed.
		s.logf("the volume's path led to something that is not the volume's own directory; left it alone", "path", q)
		return nil
	}
	err = s.removeTree(ctx, q, rootID)
	if errors.Is(err, share.ErrLeftBehind) && !errors.Is(err, share.ErrUnavailable) && ctx.Err() == nil {
		if _, serr := s.c.Stat(ctx, q); serr == nil {
			s.logf("deleted what the volume held; entries the server will not let the driver remove stay in the quarantine for an administrator", "path", q, "reason", err.Error())
			return nil
		}
	}
	return err
}

func (s *Store) removeTree(ctx context.Context, p string, rootID uint64) error {
	return s.c.RemoveAll(ctx, p, share.RemoveOptions{Foreign: rootsDir, RootID: rootID, Protect: metadataDirs})
}

// Resume finishes the delete of the volume with this UID when an earlier
// DeleteVolume moved it to the quarantine and was cut short. It returns
// ErrNotFound when there is nothing of that volume left.
func (s *Store) Resume(ctx context.Context, uid string) error {
	q := Quarantine(uid)
	if _, err := s.c.Stat(ctx, q); errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("nothing of volume %s is left: %w", uid, ErrNotFound)
	} else if err != nil {
		return err
	}
	return s.purge(ctx, q, 0)
}

func (s *Store) logf(msg string, kv ...any) {
	if s.Log != nil {
		s.Log(msg, kv...)
	}
}

// LegacyRecordPath is where v1 records (volumes made before UIDs) live:
// in the base's own metadata directory, named by the escaped subDir.
func LegacyRecordPath(base, subDir string) string {
	return path.Join(base, Dir, url.PathEscape(subDir)+".json")
}

// GetLegacy returns the record of a v1 volume. A directory that a newer
// volume has taken since (it has a record in the current layout) is not the
// v1 volume's any more: ErrNotFound.
func (s *Store) GetLegacy(ctx context.Context, base, subDir string) (Record, error) {
	p := path.Join(base, subDir)
	var r Record
	err := s.readJSON(ctx, LegacyRecordPath(base, subDir), &r)
	if errors.Is(err, fs.ErrNotExist) {
		return Record{}, fmt.Errorf("no v1 volume at %s: %w", p, ErrNotFound)
	}
	if err != nil {
		return Record{}, err
	}
	if _, err := s.record(ctx, p); err == nil {
		return Record{}, fmt.Errorf("%s belongs to a newer volume: %w", p, ErrNotFound)
	} else if !errors.Is(err, fs.ErrNotExist) {
		return Record{}, err
	}
	r.Path, r.UID, r.RootID = p, "", 0
	return r, nil
}

// DeleteLegacy deletes a v1 volume's directory in place (v1 volumes have no
// UID to name a quarantine) with the same link guards, then its record.
func (s *Store) DeleteLegacy(ctx context.Context, base, subDir string, rec Record, removeDir bool) error {
	if removeDir {
		fi, err := s.c.Stat(ctx, rec.Path)
		switch {
		case errors.Is(err, fs.ErrNotExist):
		case err != nil:
			return err
		case fi.IsLink:
			if err := s.c.Remove(ctx, rec.Path); err != nil && !errors.Is(err, fs.ErrNotExist) {
				return err
			}
		case !fi.IsDir:
			s.logf("the volume's path holds a file, not the volume's directory; left it in place", "path", rec.Path)
		default:
			if fi.ID != 0 {
				if m, err := s.marked(ctx, fi.ID); err != nil {
					return err
				} else if m {
					return fmt.Errorf("%s now leads to another volume's directory; not deleting it: %w", rec.Path, ErrConflict)
				}
			}
			if err := s.classRootAt(ctx, rec.Path); err != nil {
				return err
			}
			if err := s.purge(ctx, rec.Path, 0); err != nil {
				return err
			}
		}
	}
	return s.removeFile(ctx, LegacyRecordPath(base, subDir))
}

// ArchiveLegacy archives a v1 volume's directory and drops its record.
func (s *Store) ArchiveLegacy(ctx context.Context, base, subDir string, rec Record) (string, error) {
	to := ""
	if _, err := s.c.Stat(ctx, rec.Path); err == nil {
		// The v1 record, in its own form (no path), not one of the new
		// layout: that would outlive this call and claim the directory.
		save := func(ctx context.Context, r Record) error {
			r.Path = ""
			return s.writeJSON(ctx, LegacyRecordPath(base, subDir), r)
		}
		if to, err = s.archive(ctx, rec, save); err != nil {
			return "", err
		}
	} else if !errors.Is(err, fs.ErrNotExist) {
		return "", err
	}
	return to, s.removeFile(ctx, LegacyRecordPath(base, subDir))
}

// DisposeLegacy is Dispose for a v1 volume (no UID): deleted, retained or
// archived in place, since a v1 volume has no UID to name a quarantine. A
// v1 volume of which nothing is left is ErrNotFound, as in Dispose.
func (s *Store) DisposeLegacy(ctx context.Context, base, subDir string, onDelete volume.OnDelete) (archive string, disposed bool, err error) {
	rec, err := s.GetLegacy(ctx, base, subDir)
	if err != nil {
		return "", false, err
	}
	switch onDelete {
	case volume.Retain:
		return "", true, s.DeleteLegacy(ctx, base, subDir, rec, false)
	case volume.Archive:
		archive, err = s.ArchiveLegacy(ctx, base, subDir, rec)
		return archive, true, err
	}
	return "", true, s.DeleteLegacy(ctx, base, subDir, rec, true)
}

// ExpandLegacy records a larger size for a v1 volume.
func (s *Store) ExpandLegacy(ctx context.Context, base, subDir string, size int64) (int64, error) {
	rec, err := s.GetLegacy(ctx, base, subDir)
	if err != nil {
		return 0, err
	}
	if size <= rec.CapacityBytes {
		return rec.CapacityBytes, nil
	}
	// Back in the v1 form: v1 records carry no path.
	rec.Path = ""
	rec.CapacityBytes = size
	return size, s.writeJSON(ctx, LegacyRecordPath(base, subDir), rec)
}

// Dispose carries out a DeleteVolume of the volume at p with this UID as
// onDelete says: delete, retain or archive. stop, when set, runs between
// finding the record and touching anything (a copy still filling the
// volume is stopped there). A volume of which nothing is left (deleted
// already, or a stale ID) is ErrNotFound, which the caller answers with
// success; a delete cut short after its commit (the move to the
// quarantine) is finished. It returns the archive's path, if one was made,
// and whether the volume was disposed of by this call.
func (s *Store) Dispose(ctx context.Context, p, uid string, onDelete volume.OnDelete, stop func(Record) error) (archive string, disposed bool, err error) {
	ctx, end := share.WithPathScope(ctx) // as in Create
	defer end()
	// One batch reads the record and looks at the directory: all that a
	// delete of an empty volume needs to know.
	res := share.RunBatch(ctx, s.c, []share.Op{{Kind: share.OpRead, Path: s.recordPath(p)}, {Kind: share.OpStat, Path: p}}, false)
	rec, err := s.recordFrom(ctx, p, res[0].Data, res[0].Err)
	if errors.Is(err, fs.ErrNotExist) || err == nil && rec.UID != uid {
		err = fmt.Errorf("no volume with UID %s at %s: %w", uid, p, ErrNotFound)
	}
	if errors.Is(err, ErrNotFound) {
		return "", false, s.Resume(ctx, uid)
	}
	if err != nil {
		return "", false, err
	}
	if stop != nil {
		if err := stop(rec); err != nil {
			return "", false, err
		}
	}
	switch onDelete {
	case volume.Retain:
		// The record and marks go; the directory stays, and a later
		// claim may adopt it.
		return "", true, s.dropRecord(ctx, rec, ownRoot(rec, res[1]))
	case volume.Archive:
		archive, err = s.ArchiveVolume(ctx, rec)
		return archive, true, err
	}
	// The batch drops one mark; a volume made again whose old mark is
	// not dealt with yet (ReplacedRootID) takes the step-by-step way,
	// which drops that one too (dropRecord).
	if ownRoot(rec, res[1]) && rec.ReplacedRootID == 0 {
		if done, err := s.deleteEmpty(ctx, rec); done {
			return "", true, err
		}
	}
	return "", true, s.DeleteVolume(ctx, rec)
}
