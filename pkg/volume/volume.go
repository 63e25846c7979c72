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

// Volume is what a volume ID encodes. The controller keeps no state, so
// everything DeleteVolume and the node need is here.
type Volume struct {
	Source   source.Source
	SubDir   string // slash-separated, relative to the source's base, validated
	OnDelete OnDelete
}

// MetadataDir, below a share's base, holds one small record per volume (its
// CreateVolume name and recorded size): the controller keeps no other state.
const MetadataDir = ".fileshare-csi"

const (
	idVersion = "v1"
	idSep     = "#"
)

// ID encodes the volume as v1#<source>#<subDir>#<onDelete>, for example
// v1#nfs://10.0.0.5/export#pvc-1234#delete. Fields are percent-escaped for
// '#' and '%' so the separator never appears inside one.
func (v Volume) ID() string {
	return strings.Join([]string{idVersion, escape(v.Source.String()), escape(v.SubDir), string(v.OnDelete)}, idSep)
}

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
	if fields[0] != idVersion {
		return Volume{}, fmt.Errorf("volume ID %q: unknown format (want prefix %s%s)", shown, idVersion, idSep)
	}
	if len(fields) != 4 {
		return Volume{}, fmt.Errorf("volume ID %q: want 4 fields separated by %q, got %d", shown, idSep, len(fields))
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
	return Volume{Source: src, SubDir: sub, OnDelete: od}, nil
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
		case i == 0 && c == MetadataDir:
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
