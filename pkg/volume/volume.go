// Package volume describes one provisioned volume: the share it lives on, its
// directory below the share's base, and what happens to it on deletion. It
// owns the volume ID format and the StorageClass parameters.
package volume

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/fileshare-csi/fileshare-csi/pkg/source"
	"github.com/fileshare-csi/fileshare-csi/pkg/state/layout"
)

// OnDelete says what DeleteVolume does with the volume's directory.
type OnDelete string

const (
	Delete  OnDelete = "delete"
	Retain  OnDelete = "retain"
	Archive OnDelete = "archive"
)

func parseOnDelete(s string) (OnDelete, error) {
	switch OnDelete(s) {
	case Delete, Retain, Archive:
		return OnDelete(s), nil
	case "":
		return Delete, nil
	}
	return "", fmt.Errorf("onDelete %q is not one of delete, retain, archive", s)
}

// Volume is what a volume ID encodes: everything the node needs to mount it,
// and what the controller needs to find its record on the share.
type Volume struct {
	Source   source.Source
	SubDir   string // slash-separated, relative to the source's base, validated
	OnDelete OnDelete
	// UID is unique to one CreateVolume that made the directory, and stored
	// in the volume's record: an ID whose UID is not the record's names a
	// volume that no longer exists, even when its directory has been made
	// again for a new claim. Empty in v1 IDs, issued before UIDs existed.
	UID string
}

// MetadataDir, below a share's base, holds one small record per volume (its
// CreateVolume name and recorded size): the controller keeps no other state.
const MetadataDir = layout.Dir

// IsMetadataDir says whether a path component names MetadataDir on some
// server: in any case (an SMB share, or a case-insensitive export, finds
// .FILESHARE-CSI there too), and with trailing periods or spaces, which
// Windows drops from a name (a Windows node links to a UNC path as Win32
// normalizes it, and a Windows server opens .fileshare-csi. as
// .fileshare-csi).
func IsMetadataDir(name string) bool {
	return strings.EqualFold(strings.TrimRight(name, ". "), MetadataDir)
}

const (
	idVersion   = "v2"
	idVersionV1 = "v1"
	idSep       = "#"
	// UIDLength is the length of a volume UID: 16 lower-case hex digits.
	UIDLength = 16
)

// ID encodes the volume as v2#<source>#<subDir>#<onDelete>#<uid>, for example
// v2#nfs://10.0.0.5/export#pvc-1234#delete#9f86d081884c7d65. Fields are
// percent-escaped for '#' and '%' so the separator never appears inside one.
// A volume without a UID (recorded before UIDs existed) keeps its v1 ID.
func (v Volume) ID() string {
	if v.UID == "" {
		return strings.Join([]string{idVersionV1, escape(v.Source.String()), escape(v.SubDir), string(v.OnDelete)}, idSep)
	}
	return strings.Join([]string{idVersion, escape(v.Source.String()), escape(v.SubDir), string(v.OnDelete), v.UID}, idSep)
}

// ValidUID reports whether s has the form of a volume UID.
func ValidUID(s string) bool { return isHex(s, UIDLength) }

// ParseID decodes and validates a volume ID. It refuses anything whose
// directory could resolve outside the source's base.
func ParseID(id string) (Volume, error) {
	if id == "" {
		return Volume{}, errors.New("volume ID is empty")
	}
	// A hand-written ID (a static PV's volumeHandle) may carry a source with
	// user info: messages show the ID without it.
	shown := source.Redact(id)
	fields := strings.Split(id, idSep)
	var uid string
	switch {
	case fields[0] == idVersion && len(fields) == 5:
		uid = fields[4]
		if !ValidUID(uid) {
			return Volume{}, fmt.Errorf("volume ID %q: %q is not a volume UID (%d hex digits)", shown, uid, UIDLength)
		}
	case fields[0] == idVersionV1 && len(fields) == 4:
	case fields[0] == idVersion || fields[0] == idVersionV1:
		return Volume{}, fmt.Errorf("volume ID %q: wrong number of fields for %s", shown, fields[0])
	default:
		return Volume{}, fmt.Errorf("volume ID %q: unknown format (want prefix %s%s)", shown, idVersion, idSep)
	}
	srcStr, err := unescape(fields[1])
	if err != nil {
		// Not wrapped: unescape's message quotes the field, user info included.
		return Volume{}, fmt.Errorf("volume ID %q: the source field has a %% not followed by two hex digits", shown)
	}
	src, err := source.Parse(srcStr)
	if err != nil {
		return Volume{}, fmt.Errorf("volume ID %q: %w", shown, err)
	}
	sub, err := unescape(fields[2])
	if err != nil {
		return Volume{}, fmt.Errorf("volume ID %q: %w", shown, err)
	}
	if err := ValidateSubDir(sub); err != nil {
		return Volume{}, fmt.Errorf("volume ID %q: %w", shown, err)
	}
	od, err := parseOnDelete(fields[3])
	if err != nil || fields[3] == "" {
		return Volume{}, fmt.Errorf("volume ID %q: onDelete field %q is not one of delete, retain, archive", shown, fields[3])
	}
	return Volume{Source: src, SubDir: sub, OnDelete: od, UID: uid}, nil
}

func escape(s string) string {
	return strings.NewReplacer("%", "%25", "#", "%23").Replace(s)
}

func unescape(s string) (string, error) {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] != '%' {
			b.WriteByte(s[i])
			continue
		}
		if i+2 >= len(s) {
			return "", fmt.Errorf("truncated escape in %q", s)
		}
		n, err := strconv.ParseUint(s[i+1:i+3], 16, 8)
		if err != nil || (n != '%' && n != '#') {
			return "", fmt.Errorf("bad escape %q in %q", s[i:i+3], s)
		}
		b.WriteByte(byte(n))
		i += 2
	}
	return b.String(), nil
}

// ValidateSubDir accepts a relative, slash-separated path of plain names:
// no "..", ".", empty components, leading slash, backslash, NUL or control
// characters, so it can only ever name a directory below the base.
func ValidateSubDir(p string) error {
	if p == "" {
		return errors.New("subDir is empty")
	}
	if !utf8.ValidString(p) {
		return fmt.Errorf("subDir %q is not valid UTF-8", p)
	}
	if strings.HasPrefix(p, "/") {
		return fmt.Errorf("subDir %q is absolute: it must be relative to the share's base", p)
	}
	if strings.ContainsRune(p, '\\') {
		return fmt.Errorf("subDir %q contains a backslash: use / between directories", p)
	}
	for _, r := range p {
		if r == 0 || unicode.IsControl(r) {
			return fmt.Errorf("subDir %q contains a control character", p)
		}
	}
	if len(p) > 1024 {
		return fmt.Errorf("subDir is %d bytes long, more than 1024", len(p))
	}
	for i, c := range strings.Split(p, "/") {
		switch {
		case i == 0 && IsMetadataDir(c):
			// In any spelling a server takes for the driver's own
			// directory (a static PV's ID is the administrator's to
			// write, and the node mounts what it says).
			return fmt.Errorf("subDir %q: %s is where the driver keeps its records", p, MetadataDir)
		case c == "":
			return fmt.Errorf("subDir %q has an empty component (// or a trailing /)", p)
		case c == "." || c == "..":
			return fmt.Errorf("subDir %q may not contain %q", p, c)
		case len(c) > 255:
			return fmt.Errorf("subDir %q has a component longer than 255 bytes", p)
		case strings.ContainsAny(c, `:*?"<>|`):
			// SMB forbids these; refusing them for NFS too keeps one rule.
			return fmt.Errorf("subDir %q contains one of : * ? \" < > |, which SMB cannot store", p)
		}
	}
	return nil
}
