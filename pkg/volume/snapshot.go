package volume

import (
	"fmt"
	"strings"

	"github.com/fileshare-csi/fileshare-csi/pkg/source"
)

// Snapshot is what a snapshot ID encodes: the share its copy lives on (the
// source volume's, which also gives the session root), the key of its
// record and its UID. Like a volume ID it is self-describing and names
// nothing by itself: an ID whose UID is not its record's names no snapshot.
type Snapshot struct {
	Source source.Source
	Key    string // 32 hex digits: the hash of the CreateSnapshot name
	UID    string
}

const (
	snapshotIDVersion = "s1"
	// groupIDVersion starts a group snapshot's ID; the fields are a
	// snapshot ID's, the key and UID those of the group's record.
	groupIDVersion = "g1"
	// volumeGroupIDVersion starts a CSI-Addons volume group's ID; the key
	// and UID are those of the group's record.
	volumeGroupIDVersion = "vg1"
)

// KeyLength is the length of a snapshot record key in hex digits.
const KeyLength = 32

// ID encodes the snapshot as s1#<source>#<key>#<uid>.
func (s Snapshot) ID() string { return s.encode(snapshotIDVersion) }

// GroupID encodes a group snapshot as g1#<source>#<key>#<uid>.
func (s Snapshot) GroupID() string { return s.encode(groupIDVersion) }

// VolumeGroupID encodes a CSI-Addons volume group as vg1#<source>#<key>#<uid>.
func (s Snapshot) VolumeGroupID() string { return s.encode(volumeGroupIDVersion) }

func (s Snapshot) encode(version string) string {
	return strings.Join([]string{version, escape(s.Source.String()), s.Key, s.UID}, idSep)
}

// ParseSnapshotID decodes and validates a snapshot ID.
func ParseSnapshotID(id string) (Snapshot, error) {
	return parseSnapshotID(id, snapshotIDVersion, "snapshot")
}

// ParseGroupSnapshotID decodes and validates a group snapshot ID.
func ParseGroupSnapshotID(id string) (Snapshot, error) {
	return parseSnapshotID(id, groupIDVersion, "group snapshot")
}

// ParseVolumeGroupID decodes and validates a CSI-Addons volume group ID.
func ParseVolumeGroupID(id string) (Snapshot, error) {
	return parseSnapshotID(id, volumeGroupIDVersion, "volume group")
}

func parseSnapshotID(id, version, what string) (Snapshot, error) {
	shown := source.Redact(id)
	fields := strings.Split(id, idSep)
	if len(fields) != 4 || fields[0] != version {
		return Snapshot{}, fmt.Errorf("%s ID %q: unknown format (want %s#<source>#<key>#<uid>)", what, shown, version)
	}
	if !isHex(fields[2], KeyLength) {
		return Snapshot{}, fmt.Errorf("snapshot ID %q: %q is not a record key (%d hex digits)", shown, fields[2], KeyLength)
	}
	if !ValidUID(fields[3]) {
		return Snapshot{}, fmt.Errorf("snapshot ID %q: %q is not a UID (%d hex digits)", shown, fields[3], UIDLength)
	}
	srcStr, err := unescape(fields[1])
	if err != nil {
		return Snapshot{}, fmt.Errorf("snapshot ID %q: the source field has a %% not followed by two hex digits", shown)
	}
	src, err := source.Parse(srcStr)
	if err != nil {
		return Snapshot{}, fmt.Errorf("snapshot ID %q: %w", shown, err)
	}
	return Snapshot{Source: src, Key: fields[2], UID: fields[3]}, nil
}

func isHex(s string, n int) bool {
	if len(s) != n {
		return false
	}
	for _, r := range s {
		if !(r >= '0' && r <= '9' || r >= 'a' && r <= 'f') {
			return false
		}
	}
	return true
}
