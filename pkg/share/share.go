// Package share talks to file servers in user space, so the controller can
// create and delete volume directories without mounting anything: NFSv3 and
// NFSv4.1 over ONC RPC, and SMB2/3. Every call takes a context and gives up at its deadline.
//
// This package holds what the protocols share: the Client interface and its
// optional ones (TreeClient, Batcher, ...), the errors, the session Pool and
// Dial. Each protocol's client is a package below it (nfs3, nfs4, smb) that
// registers itself with Register; pkg/share/all imports them all.
//
// Every walk of a tree obeys one rule, Guard (guard.go): deletes and
// copies alike never enter another volume, the directories above their top,
// the driver's metadata, a loop or another file system. Every protocol's
// RemoveAll is one walk, RemoveTree (remove.go), over that protocol's
// Remover steps; batching and parallel workers are optional interfaces a
// protocol adds where it has them.
package share

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"strings"
	"sync"

	"github.com/fileshare-csi/fileshare-csi/pkg/source"
)

// ErrUnavailable wraps failures to reach or talk to the server (as opposed to
// the server answering "no"); callers map it to gRPC Unavailable.
var ErrUnavailable = errors.New("file server unavailable")

// ErrTryLater is the server's answer "not now" to one request: NFSv3
// JUKEBOX, NFSv4 DELAY or GRACE still so at the call's deadline (a file
// being recalled from offline storage, a server in its grace period after a
// restart). It wraps ErrUnavailable, so the call is retried as any other and
// counts as cut short (the steps before it stand, the one refused did not
// run). Unlike a broken transport it leaves the session in step with its
// server: the pool keeps it, and the share's idle sessions too, so a server
// that asks for patience is not sent a new session for each call it
// refuses.
var ErrTryLater = fmt.Errorf("the server asks to try again later: %w", ErrUnavailable)

// Credentials authenticate SMB sessions (source.Credentials: the mounter
// takes the same struct without importing this package).
type Credentials = source.Credentials

// ErrPrecondition is a setup the server, the realm or the class lacks for
// what the class asks (no service principal for the server, no krb5.conf,
// a server that does not encrypt for encryption: required): retrying does
// not help, the operator has to change something.
var ErrPrecondition = errors.New("not set up for this class")

// ErrNoNFSv3 says the server offers no NFSv3 at all (nothing on the
// portmapper's port, or MOUNT or NFSv3 not registered there), as opposed to
// an NFSv3 server that is down: an unpinned source then tries NFSv4.1
// (see Dial). The NFSv3 client wraps it in its dial errors.
var ErrNoNFSv3 = errors.New("the server offers no NFSv3")

// Unavailable wraps err, a failure to reach src or talk to it, in
// ErrUnavailable, unless the context ended: what names the step. The
// protocol packages report their transports' failures with it.
func Unavailable(src source.Source, what string, err error) error {
	if cutByContext(err) {
		return fmt.Errorf("%s: %s: %w", src.String(), what, err)
	}
	return fmt.Errorf("%s: %s: %w: %w", src.String(), what, ErrUnavailable, err)
}

// Capacity of the file system behind a share.
type Capacity struct {
	TotalBytes, AvailableBytes int64
	TotalInodes, FreeInodes    int64 // zero when the protocol does not report them
}

// ErrNoSpace says the server has no room for what a call writes: its file
// system is full, or the quota of the share's user is reached. Only an
// operator can fix that; the CO's retry succeeds once one has (the spec's
// RESOURCE_EXHAUSTED).
var ErrNoSpace = errors.New("the share is full, or its user's quota is reached: free space on the server or raise the quota")

// ErrNotEmpty says a directory could not be removed because it still has
// entries: a writer is still at work in it, or the server hides some of them
// (Samba does not list links that point outside the share). It is worth a
// retry, never a reason to go looking elsewhere.
var ErrNotEmpty = errors.New("directory not empty")

// ErrInUse says the server refused because another open of the path stands
// in the way for now (a handle a killed controller's session still holds
// until the server drops it): worth a retry.
var ErrInUse = errors.New("in use by another open of the file; retry")

// ErrLeftBehind says a removal finished what it may do, but left entries it
// must not or cannot remove: directories that belong to another volume, or
// entries the server hides. Another try would not change that.
var ErrLeftBehind = fmt.Errorf("entries left behind: %w", ErrNotEmpty)

// FileInfo is the little the controller needs to know about a path.
type FileInfo struct {
	IsDir bool
	// IsLink is true for a symlink, junction or other reparse point, as far
	// as the server lets the client see one.
	IsLink bool
	Mode   fs.FileMode
	// ID is the server's file ID (inode number, SMB IndexNumber); 0 when the
	// server gives none. It names the object a path reaches, which over a
	// server that resolves links for its clients is the link's target.
	ID uint64
}

// RemoveOptions guard a recursive removal on servers that hide links.
type RemoveOptions struct {
	// Foreign, when set, names a directory below the base that holds one
	// empty marker file per directory ID that must never be entered (other
	// volumes' roots). A server that resolves links for its clients (Samba
	// by default) shows a link to another volume as that volume's directory,
	// with its ID: the marker is how the walk recognises it.
	Foreign string
	// RootID, when not 0, is the file ID rel must have: the walk does not
	// enter a directory that is not the one its caller checked (a link swapped
	// in for it since).
	RootID uint64
	// Protect names directories below the base that the walk never enters
	// or removes, wherever a link the server resolves makes them appear
	// (the driver's metadata directories). The directories above rel are
	// never entered either, without being named here.
	Protect []string
}

// Client is one session on a share, rooted at the source's base directory.
// Paths are slash-separated and relative to that base. Errors wrap
// fs.ErrNotExist, fs.ErrExist and fs.ErrPermission where the server said so.
// A Client serves one call at a time; the Pool hands out separate ones.
type Client interface {
	Stat(ctx context.Context, rel string) (FileInfo, error)
	// Mkdir creates one directory whose parent exists, with exactly perm
	// (where the protocol carries Unix modes), or fails with fs.ErrExist.
	Mkdir(ctx context.Context, rel string, perm fs.FileMode) error
	// RemoveAll deletes rel and everything below it, including read-only
	// entries. A missing rel is not an error. Links are removed as links and
	// never entered; a directory whose ID is marked foreign in
	// opts.Foreign, or that repeats an ID met above it, is not entered either.
	// Entries the server will not let it see or remove leave rel in place,
	// with an error wrapping ErrNotEmpty.
	RemoveAll(ctx context.Context, rel string, opts RemoveOptions) error
	// Rename moves from to to, failing with fs.ErrExist rather than replacing.
	Rename(ctx context.Context, from, to string) error
	// Replace moves the file from to to in one step, replacing to if it
	// exists: readers see the old or the new file, never neither.
	Replace(ctx context.Context, from, to string) error
	// List returns up to max names in the directory rel (all when max <= 0).
	List(ctx context.Context, rel string, max int) ([]string, error)
	// WriteFile creates or replaces a small file.
	WriteFile(ctx context.Context, rel string, data []byte) error
	ReadFile(ctx context.Context, rel string) ([]byte, error)
	// Remove deletes one file.
	Remove(ctx context.Context, rel string) error
	Capacity(ctx context.Context) (Capacity, error)
	// Prefix is the path from the session's root to the source's own
	// directory. An NFS session is rooted at the export the source lies in,
	// so two sources inside one export see the same paths.
	Prefix() string
	Close() error
}

// DialFunc opens a session on the share src names: one protocol's (and
// for NFS one version's) client, which its package registers.
type DialFunc func(ctx context.Context, src source.Source, creds Credentials) (Client, error)

type dialKey struct {
	proto   source.Protocol
	version string
}

var (
	dialersMu sync.RWMutex
	dialers   = map[dialKey]DialFunc{}
)

// Register makes Dial open sessions of protocol proto (and NFS version
// version, "" for SMB) with dial. The protocol packages (pkg/share/smb,
// pkg/share/nfs3, pkg/share/nfs4) register themselves from init, as
// database/sql drivers do, because they import this package for its
// interfaces and it cannot import them; a binary imports pkg/share/all to
// have them all. Registering one twice panics.
func Register(proto source.Protocol, version string, dial DialFunc) {
	dialersMu.Lock()
	defer dialersMu.Unlock()
	k := dialKey{proto, version}
	if dial == nil {
		panic(fmt.Sprintf("share: Register of %s %q with a nil DialFunc", proto, version))
	}
	if _, dup := dialers[k]; dup {
		panic(fmt.Sprintf("share: Register called twice for %s %q", proto, version))
	}
	dialers[k] = dial
}

// Registered reports whether Dial can open sessions of protocol proto
// (and NFS version version).
func Registered(proto source.Protocol, version string) bool {
	dialersMu.RLock()
	defer dialersMu.RUnlock()
	return dialers[dialKey{proto, version}] != nil
}

// dial opens a session with the registered client of proto and version.
func dial(ctx context.Context, src source.Source, creds Credentials, proto source.Protocol, version string) (Client, error) {
	dialersMu.RLock()
	d := dialers[dialKey{proto, version}]
	dialersMu.RUnlock()
	if d == nil {
		what := string(proto)
		if version != "" {
			what += "v" + version
		}
		return nil, fmt.Errorf("no %s client is registered in this binary: import github.com/fileshare-csi/fileshare-csi/pkg/share/all", what)
	}
	return d(ctx, src, creds)
}

// Dial opens a session on the share src names, with the client its
// protocol registered (see Register), at the first of its addresses (a
// source alias may give several, source.TryInOrder) that can be reached.
func Dial(ctx context.Context, src source.Source, creds Credentials) (Client, error) {
	var c Client
	err := source.TryInOrder(ctx, src, Unreachable, func(ctx context.Context, a source.Source) error {
		var err error
		c, err = dialAddress(ctx, a, creds)
		return err
	})
	return c, err
}

// Unreachable reports whether err says the server could not be reached (as
// opposed to it answering "no"), so another address of it may do.
func Unreachable(err error) bool { return errors.Is(err, ErrUnavailable) }

// dialAddress opens a session at one address.
func dialAddress(ctx context.Context, src source.Source, creds Credentials) (Client, error) {
	switch src.Protocol {
	case source.NFS:
		if src.EffectiveVersion() == source.NFSv41 {
			return dial(ctx, src, creds, source.NFS, source.NFSv41)
		}
		c, err := dial(ctx, src, creds, source.NFS, source.NFSv3)
		if err != nil && src.Version == "" && errors.Is(err, ErrNoNFSv3) && ctx.Err() == nil {
			// An unpinned source on a server without NFSv3 (AWS EFS, Azure
			// Files NFS, a NAS with v3 off): NFSv3 stays the default where
			// it is offered, and NFSv4.1 serves where it is not.
			c4, err4 := dial(ctx, src, creds, source.NFS, source.NFSv41)
			if err4 == nil {
				return c4, nil
			}
			return nil, fmt.Errorf("%w; NFSv4.1 did not work either: %w", err, err4)
		}
		return c, err
	case source.SMB:
		return dial(ctx, src, creds, source.SMB, "")
	}
	return nil, fmt.Errorf("unknown protocol %q", src.Protocol)
}

// DirMaker is a Client whose MKDIR also tells what it made, in the same
// round trips: the new directory's ID, which a CreateVolume records.
type DirMaker interface {
	MkdirID(ctx context.Context, rel string, perm fs.FileMode) (FileInfo, error)
}

// MkdirStat is Mkdir, then what Stat says of the new directory: in one
// call where c is a DirMaker.
func MkdirStat(ctx context.Context, c Client, rel string, perm fs.FileMode) (FileInfo, error) {
	if m, ok := c.(DirMaker); ok {
		return m.MkdirID(ctx, rel, perm)
	}
	if err := c.Mkdir(ctx, rel, perm); err != nil {
		return FileInfo{}, err
	}
	return c.Stat(ctx, rel)
}

// MkdirAll creates rel and any missing parents with perm. Existing
// directories are left as they are.
func MkdirAll(ctx context.Context, c Client, rel string, perm fs.FileMode) error {
	parts := strings.Split(rel, "/")
	for i := range parts {
		p := path.Join(parts[:i+1]...)
		err := c.Mkdir(ctx, p, perm)
		if err == nil {
			continue
		}
		if !errors.Is(err, fs.ErrExist) {
			return err
		}
		fi, serr := c.Stat(ctx, p)
		if serr != nil {
			return serr
		}
		if !fi.IsDir {
			return fmt.Errorf("%s exists and is not a directory: %w", p, fs.ErrExist)
		}
	}
	return nil
}

// BreaksSession reports whether err means the session it happened on must
// not be used again: a transport failure, or a deadline or cancellation that
// may have cut a request whose reply is still on its way.
func BreaksSession(err error) bool {
	return errors.Is(err, ErrUnavailable) || cutByContext(err)
}

// cutByContext says whether err ended a call by its deadline or its
// cancellation, which may leave a reply on its way.
func cutByContext(err error) bool {
	return errors.Is(err, context.DeadlineExceeded) || errors.Is(err, context.Canceled)
}

// IsAnswer reports whether err is the server's definite answer about a path
// (exists, missing, forbidden, not empty) rather than a broken session.
func IsAnswer(err error) bool {
	return errors.Is(err, fs.ErrNotExist) || errors.Is(err, fs.ErrExist) || errors.Is(err, fs.ErrPermission) || errors.Is(err, ErrNotEmpty)
}

// feed hands items to the workers reading jobs until ctx ends, then closes
// jobs so they finish.
func feed[T any](ctx context.Context, jobs chan<- T, items []T) {
	defer close(jobs)
	for _, it := range items {
		select {
		case jobs <- it:
		case <-ctx.Done():
			return
		}
	}
}

// SplitRel splits a slash-separated path relative to a session's root
// into its names, dropping empty ones and ".": the one reading of a path
// the walks and the protocol clients share.
func SplitRel(rel string) []string {
	var out []string
	for _, p := range strings.Split(rel, "/") {
		if p != "" && p != "." {
			out = append(out, p)
		}
	}
	return out
}

// UnixMode keeps the permission, setuid, setgid and sticky bits of perm.
func UnixMode(perm fs.FileMode) uint32 {
	m := uint32(perm.Perm())
	if perm&fs.ModeSetuid != 0 {
		m |= 0o4000
	}
	if perm&fs.ModeSetgid != 0 {
		m |= 0o2000
	}
	if perm&fs.ModeSticky != 0 {
		m |= 0o1000
	}
	return m
}

// UnixFileMode is UnixMode's inverse: a Unix mode's permission, setuid,
// setgid and sticky bits as a FileMode.
func UnixFileMode(m uint32) fs.FileMode {
	perm := fs.FileMode(m & 0o777)
	if m&0o4000 != 0 {
		perm |= fs.ModeSetuid
	}
	if m&0o2000 != 0 {
		perm |= fs.ModeSetgid
	}
	if m&0o1000 != 0 {
		perm |= fs.ModeSticky
	}
	return perm
}

// ClampInt64 is v, or the largest int64 when v does not fit: servers
// report sizes and counts as uint64, Capacity and Attr hold int64.
func ClampInt64(v uint64) int64 {
	if v > 1<<63-1 {
		return 1<<63 - 1
	}
	return int64(v)
}
