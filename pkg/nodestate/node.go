package nodestate

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/fileshare-csi/fileshare-csi/pkg/mounter"
	"github.com/fileshare-csi/fileshare-csi/pkg/os/winhost"
	"github.com/fileshare-csi/fileshare-csi/pkg/share"
)

// Package nodestate keeps the node plugin's records on the node: how each
// volume was staged and each target published, and the SMB credentials a
// staged volume needs to be remounted. The controller's records, on the
// share, are package state's.
//
// NodeStore keeps the node plugin's records in a local, root-only
// directory: how each volume was staged, so a broken mount can be remounted
// at publish or stats time even after a plugin restart, and how each target
// was published, to bind it again and to know who else has the volume.
// Files are 0600 in a 0700 directory. Staged records hold no credentials:
// those are kept in the kernel's keyring, sealed with a key kept in the
// directory (see creds.go), never in a file.
//
// Error contract: the getters return an error wrapping fs.ErrNotExist when
// there is no record, or when the store is disabled (Dir ""); any other
// error is the local file system's, or a corrupt record. Records are
// replaced by a rename, so a crash leaves the old one or the new one.
type NodeStore struct {
	Dir string
	// Identities makes SaveStaged keep an Identity of a record's
	// credentials in its file (Windows nodes, see identity.go).
	Identities bool
}

// Staged is how one volume was staged.
type Staged struct {
	Request mounter.StageRequest `json:"request"`
	// CapacityBytes is the volume's requested size: its volume context's
	// capacityBytes, or the larger size a NodeExpandVolume brought since
	// (the volume context never changes after an expansion); 0 when none is
	// known.
	CapacityBytes int64 `json:"capacityBytes,omitempty"`
	// VolumeID names the volume in messages about it to other volumes (a
	// conflict of credentials); "" in records of earlier versions.
	VolumeID string `json:"volumeID,omitempty"`
	// Identity is who the volume's SMB mapping logs on as, on Windows
	// nodes (NodeStore.Identities); nil elsewhere, and in records of
	// earlier versions until a republish brings the Secret.
	Identity *Identity `json:"identity,omitempty"`
	// Mapping is what the volume's stage asked of its share's SMB global
	// mapping on a Windows node (encryption, signing, never NTLM): a
	// volume staged later on the share that demands more is refused
	// (the driver's mappingConflict). nil elsewhere, and in records of
	// earlier versions.
	Mapping *winhost.MapOptions `json:"mapping,omitempty"`
}

// Published is how one target was published.
type Published struct {
	VolumeID     string `json:"volumeID"`
	StagingPath  string `json:"stagingPath"`
	TargetPath   string `json:"targetPath"`
	ReadOnly     bool   `json:"readOnly"`
	SingleWriter bool   `json:"singleWriter"`
	// Ephemeral: a CSI inline volume, mounted at the target itself (there
	// is no staging; StagingPath is the target, with a staging record).
	Ephemeral bool `json:"ephemeral,omitempty"`
}

const (
	kindStaged    = "staged"
	kindPublished = "published"
)

func (n NodeStore) path(kind, p string) string {
	sum := sha256.Sum256([]byte(p))
	return filepath.Join(n.Dir, kind+"-"+hex.EncodeToString(sum[:16])+".json")
}

func (n NodeStore) save(kind, p string, v any) error {
	if n.Dir == "" {
		return nil
	}
	if err := os.MkdirAll(n.Dir, 0o700); err != nil {
		return fmt.Errorf("create node state dir: %w", err)
	}
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	f := n.path(kind, p)
	if err := os.WriteFile(f+".tmp", b, 0o600); err != nil {
		return fmt.Errorf("save node state: %w", err)
	}
	return os.Rename(f+".tmp", f)
}

func (n NodeStore) load(kind, p string, v any) error {
	if n.Dir == "" {
		return fmt.Errorf("no node state dir: %w", fs.ErrNotExist)
	}
	b, err := os.ReadFile(n.path(kind, p))
	if err != nil {
		return err
	}
	if err := json.Unmarshal(b, v); err != nil {
		return fmt.Errorf("node record for %s is corrupt: %w", p, err)
	}
	return nil
}

func (n NodeStore) drop(kind, p string) {
	if n.Dir != "" {
		_ = os.Remove(n.path(kind, p))
	}
}

// SaveStaged records how the volume at stagingPath was staged: the
// credentials apart from the rest (see creds.go), the rest in a file.
func (n NodeStore) SaveStaged(stagingPath string, s Staged) error {
	if n.Dir == "" {
		return nil
	}
	key := credKey(n.Dir, stagingPath)
	if s.Request.Credentials == (share.Credentials{}) {
		creds.drop(key)
	} else if err := creds.put(sealKeyFile(n.Dir), key, s.Request.Credentials); err != nil {
		return fmt.Errorf("keep the mount's credentials: %w", err)
	}
	if c := s.Request.Credentials; n.Identities && c != (share.Credentials{}) {
		if s.Identity == nil || s.Identity.User() != (share.Credentials{Username: c.Username, Domain: c.Domain, Principal: c.Principal}) || !s.Identity.SamePassword(c.Password) {
			id, err := NewIdentity(c)
			if err != nil {
				return err
			}
			s.Identity = id
		}
	}
	s.Request.Credentials = share.Credentials{}
	return n.save(kindStaged, stagingPath, s)
}

// Staged returns how the volume at stagingPath was staged, with the
// credentials it was mounted with when the node still has them: none after
// a reboot, nor after a plugin restart on a node without a keyring.
func (n NodeStore) Staged(stagingPath string) (Staged, error) {
	var s Staged
	if err := n.load(kindStaged, stagingPath, &s); err != nil {
		return s, err
	}
	if c, ok := creds.get(sealKeyFile(n.Dir), credKey(n.Dir, stagingPath)); ok {
		s.Request.Credentials = c
	}
	return s, nil
}

// MoveCredentialsOutOfRecords rewrites the staging records an earlier
// version left with credentials in them: the credentials go where
// SaveStaged keeps them, and the file is replaced by one without. It
// returns how many records it rewrote; a record whose credentials cannot
// be kept loses them (never left in plain text), and is named in the
// error. Keys of the keyring that do not open are removed as each record is
// read (see creds.go).
func (n NodeStore) MoveCredentialsOutOfRecords() (int, error) {
	moved := 0
	var errs []error
	for _, s := range n.AllStaged() {
		if s.Request.Credentials == (share.Credentials{}) {
			_, _ = n.Staged(s.Request.StagingPath)
			continue
		}
		if err := n.SaveStaged(s.Request.StagingPath, s); err != nil {
			// Never left on disk in plain text: the record loses them, as
			// on a node without a keyring after a restart (the next
			// publish's Secret is recorded then).
			s.Request.Credentials = share.Credentials{}
			if serr := n.save(kindStaged, s.Request.StagingPath, s); serr != nil {
				err = fmt.Errorf("%w (and rewriting it without them: %v)", err, serr)
			}
			errs = append(errs, fmt.Errorf("record of %s: %w", s.Request.StagingPath, err))
			continue
		}
		moved++
	}
	return moved, errors.Join(errs...)
}

// SetCapacity records size as the capacity of the volume staged at
// stagingPath, unless its record has a larger one, and returns the capacity
// now recorded. It rewrites the record's file only: the credentials stay
// where SaveStaged put them (on Windows in memory, which a plugin restart
// empties; a SaveStaged of a loaded record would then drop them).
func (n NodeStore) SetCapacity(stagingPath string, size int64) (int64, error) {
	var s Staged
	if err := n.load(kindStaged, stagingPath, &s); err != nil {
		return 0, err
	}
	if size <= s.CapacityBytes {
		return s.CapacityBytes, nil
	}
	s.CapacityBytes = size
	s.Request.Credentials = share.Credentials{}
	if err := n.save(kindStaged, stagingPath, s); err != nil {
		return 0, err
	}
	return size, nil
}

// AllStaged returns every staging record. Unreadable records are skipped:
// they cannot be remounted from either.
func (n NodeStore) AllStaged() []Staged {
	return all[Staged](n, kindStaged, func(Staged) bool { return true })
}

// AllStagedOrError is AllStaged for the checks that must not take a record
// they cannot read for no volume (who maps a Windows server, which volumes
// use a share's mapping): the records it could read, and an error naming
// each file it could not.
func (n NodeStore) AllStagedOrError() ([]Staged, error) {
	return allOf[Staged](n, kindStaged, func(Staged) bool { return true })
}

// all reads every record of a kind that keep accepts; unreadable ones are
// skipped.
func all[T any](n NodeStore, kind string, keep func(T) bool) []T {
	out, _ := allOf[T](n, kind, keep)
	return out
}

// allOf is all, with an error naming the records it could not read.
func allOf[T any](n NodeStore, kind string, keep func(T) bool) ([]T, error) {
	if n.Dir == "" {
		return nil, nil
	}
	files, err := filepath.Glob(filepath.Join(n.Dir, kind+"-*.json"))
	if err != nil {
		return nil, err
	}
	var out []T
	var errs []error
	for _, f := range files {
		var v T
		b, err := os.ReadFile(f)
		if err == nil {
			err = json.Unmarshal(b, &v)
		}
		switch {
		case errors.Is(err, fs.ErrNotExist):
			// Dropped since the listing.
		case err != nil:
			errs = append(errs, fmt.Errorf("node record %s cannot be read: %w", f, err))
		case keep(v):
			out = append(out, v)
		}
	}
	return out, errors.Join(errs...)
}

// DropStaged forgets the staging at stagingPath, and its credentials.
func (n NodeStore) DropStaged(stagingPath string) {
	if n.Dir != "" {
		creds.drop(credKey(n.Dir, stagingPath))
	}
	n.drop(kindStaged, stagingPath)
}

// SavePublished records a publication.
func (n NodeStore) SavePublished(p Published) error {
	return n.save(kindPublished, p.TargetPath, p)
}

// Published returns how target was published.
func (n NodeStore) Published(target string) (Published, error) {
	var p Published
	return p, n.load(kindPublished, target, &p)
}

// DropPublished forgets the publication at target.
func (n NodeStore) DropPublished(target string) { n.drop(kindPublished, target) }

// PublishedFrom lists the recorded publications bound from the volume
// staged at stagingPath (an inline volume's own record, whose target is
// its staging path, is not one). Unreadable records are skipped.
func (n NodeStore) PublishedFrom(stagingPath string) []Published {
	return all[Published](n, kindPublished, func(p Published) bool {
		return p.StagingPath == stagingPath && p.TargetPath != stagingPath
	})
}

// AllPublished lists every readable publish record.
func (n NodeStore) AllPublished() []Published {
	return all[Published](n, kindPublished, func(Published) bool { return true })
}

// PublishedOf lists the recorded publications of a volume. Unreadable
// records are skipped: they name no target this call could check.
func (n NodeStore) PublishedOf(volumeID string) []Published {
	return all[Published](n, kindPublished, func(p Published) bool { return p.VolumeID == volumeID })
}
