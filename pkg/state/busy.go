package state

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"path"
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
// IntentTTL. Tokens are compared, never times: no two clocks are.

// BeatInterval is how often a running copy beats: a sixth of IntentTTL, so
// that beats lost to a server slow to answer never let a live copy look
// idle.
const BeatInterval = IntentTTL / 6

// beatPath is where the copy into the volume or snapshot uid beats.
func beatPath(uid string) (string, error) {
	if uid == "" || path.Base(uid) != uid || uid == "." || uid == ".." {
		return "", fmt.Errorf("UID %q cannot name a file", uid)
	}
	return busyDir + "/" + uid, nil
}

// Beat says on the share that a copy into the volume or snapshot uid runs
// now.
func (s *Store) Beat(ctx context.Context, uid string) error {
	p, err := beatPath(uid)
	if err != nil {
		return err
	}
	token, err := s.uid()
	if err != nil {
		return err
	}
	// The time is for a person reading the file; a reclaimer compares
	// the whole content with what it saw before.
	return s.writeFile(ctx, p, []byte(token+" "+s.now().UTC().Format(time.RFC3339)+"\n"))
}

// StopBeat says the copy into uid ended here. Another process's copy of
// the same volume or snapshot beats again at its next beat.
func (s *Store) StopBeat(ctx context.Context, uid string) error {
	p, err := beatPath(uid)
	if err != nil {
		return err
	}
	return s.removeFile(ctx, p)
}

// beat reads the beat of uid: "" when there is none.
func (s *Store) beat(ctx context.Context, uid string) (string, error) {
	p, err := beatPath(uid)
	if err != nil {
		return "", err
	}
	b, err := s.c.ReadFile(ctx, p)
	if errors.Is(err, fs.ErrNotExist) {
		return "", nil
	}
	return string(b), err
}
