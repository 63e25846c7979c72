package state

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"strings"
	"time"
)

// A copy that fills a volume (a restore, a clone) or a snapshot can run for
// hours, in any process: another replica of the controller, one restarted
// since, a controller of another cluster whose classes use the same share.
// Each of them runs a reclaimer, and what a process knows of its own calls
// and copies (VolumeBusy, SnapshotBusy) says nothing of the others'. So a
// copy beats on the share it writes to: every BeatInterval it writes a new
// token to busy/<uid>, and a reclaimer takes a volume or a snapshot for
// abandoned only once its passes have seen the same beat (or none) for
// IntentTTL. Tokens are compared, never times: no two clocks are. The beat
// names the process whose copy it is, so that a second process does not
// start the same copy beside it (see the driver's copy fence).

// BeatInterval is how often a running copy beats. A reclaimer waits for
// IntentTTL of the same beat; a controller that finds another process's
// copy beating waits for TakeoverAfter of the same beat before it takes
// the copy over (that process died, or lost the share), which it would
// otherwise run beside, both writing the same files.
const BeatInterval = 10 * time.Second

// TakeoverAfter is how long another process's beat must stay the same
// before a controller takes its copy over: three beats missed.
const TakeoverAfter = 3 * BeatInterval

// A Beat is what a copy wrote in busy/<uid>.
type Beat struct {
	// Owner names the process that runs the copy; "" when there is no
	// beat (or one that names none).
	Owner string
	// Raw is the whole content, which a reader compares with what it saw
	// before: a new one every beat.
	Raw string
}

// beatPath is where the copy into the volume or snapshot uid beats.
func beatPath(uid string) (string, error) {
	// UIDs are hex (NewUID): anything else, a separator of any protocol
	// above all, names no beat.
	if !IsUID(uid) {
		return "", fmt.Errorf("UID %q cannot name a file", uid)
	}
	return busyDir + "/" + uid, nil
}

// IsUID says whether s is shaped as a UID, ours (NewUID) or Kubernetes'
// (a pod's): 1 to 64 letters, digits and dashes, so one word of a beat
// and a name of a file on every protocol.
func IsUID(s string) bool {
	return s != "" && len(s) <= 64 && strings.IndexFunc(s, func(r rune) bool {
		return !('0' <= r && r <= '9' || 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || r == '-')
	}) < 0
}

// Beat says on the share that owner's copy into the volume or snapshot
// uid runs now. owner is one word.
func (s *Store) Beat(ctx context.Context, uid, owner string) error {
	p, err := beatPath(uid)
	if err != nil {
		return err
	}
	if owner == "" || strings.ContainsAny(owner, " \n") {
		return fmt.Errorf("owner %q is not one word", owner)
	}
	token, err := s.uid()
	if err != nil {
		return err
	}
	// The time is for a person reading the file; readers compare the
	// whole content with what they saw before.
	return s.writeFile(ctx, p, []byte(owner+" "+token+" "+s.now().UTC().Format(time.RFC3339)+"\n"))
}

// StopBeat says owner's copy into uid ended: its beat goes, and another
// owner's is left alone.
func (s *Store) StopBeat(ctx context.Context, uid, owner string) error {
	b, err := s.ReadBeat(ctx, uid)
	if err != nil || b.Owner != owner {
		return err
	}
	return s.dropBeatOf(ctx, uid)
}

// ReadBeat reads the beat of uid: the zero Beat when there is none.
func (s *Store) ReadBeat(ctx context.Context, uid string) (Beat, error) {
	p, err := beatPath(uid)
	if err != nil {
		return Beat{}, err
	}
	raw, err := s.c.ReadFile(ctx, p)
	if errors.Is(err, fs.ErrNotExist) {
		return Beat{}, nil
	}
	if err != nil {
		return Beat{}, err
	}
	owner, _, _ := strings.Cut(string(raw), " ")
	return Beat{Owner: owner, Raw: string(raw)}, nil
}

// dropBeat removes the beat of a volume filled by a copy (whoever's it is:
// a killed process's stays otherwise), before the record that owns it goes.
func (s *Store) dropBeat(ctx context.Context, rec Record) error {
	if p, ok := recordBeat(rec); ok {
		return s.removeFile(ctx, p)
	}
	return nil
}

// recordBeat is where the copy that filled rec beat, if one did: a volume
// made from a content source (never one made empty, whose delete keeps
// its round trips).
func recordBeat(rec Record) (string, bool) {
	if rec.ContentSource == "" {
		return "", false
	}
	p, err := beatPath(rec.UID)
	return p, err == nil
}

// dropBeatOf removes the beat of uid, whoever's it is: the copy it stood
// for is finished, or its destination deleted.
func (s *Store) dropBeatOf(ctx context.Context, uid string) error {
	p, err := beatPath(uid)
	if err != nil {
		return err
	}
	return s.removeFile(ctx, p)
}
