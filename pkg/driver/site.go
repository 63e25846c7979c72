package driver

import (
	"context"
	"errors"
	"path"
	"strings"

	"k8s.io/klog/v2"

	"github.com/fileshare-csi/fileshare-csi/pkg/share"
	"github.com/fileshare-csi/fileshare-csi/pkg/source"
	"github.com/fileshare-csi/fileshare-csi/pkg/state"
	"github.com/fileshare-csi/fileshare-csi/pkg/volume"
)

// where says which session a volume is reached through and its directory's
// path from that session's root. An SMB session is rooted at the share, not
// the class's base, and an NFS session at the export the class's path lies
// in (the NFS client finds it), so that classes whose bases overlap
// (smb://h/s with base x/y and smb://h/s/x with base y; nfs://h/export and
// nfs://h/export/x) see one directory as one, in the records, the nesting
// checks and the locks.
type where struct {
	root   source.Source // what the session is dialed with
	canon  string        // the session root's canonical name, for locks
	path   string        // from the session's root
	base   string        // the class's base, from the session's root
	subDir string
	prefix string // the session's Prefix the paths were placed under (under)
}

// located is a volume (or a share: no subDir and no UID) placed once for
// a call: where it lies, before a session says its prefix, and the volume
// as its ID names it. A call that checks its volumes lie on one share and
// then works on them reads each one's place from here, so the source
// aliases are resolved once for each.
type located struct {
	where
	vol volume.Volume
}

// locate places vol, reached through the source aliases: the one place the
// controller turns a volume's source into the share it dials and locks.
func (d *controller) locate(ctx context.Context, vol volume.Volume) located {
	key := vol.ID()
	if vol.SubDir == "" && vol.UID == "" {
		key = vol.Source.String() // a share, not a volume (snapshots, groups)
	}
	src := vol
	src.Source = d.aliases.resolve(ctx, key, vol.Source)
	return located{where: place(src), vol: vol}
}

// locateShare places src's share, whose metadata directory holds the
// records that are no one volume's (snapshots, groups).
func (d *controller) locateShare(ctx context.Context, src source.Source) located {
	return d.locate(ctx, volume.Volume{Source: src})
}

// sameShare reports whether l and o are reached through one share as the
// locks name it (lockName): the members of a group, and its record, must
// be.
func (l located) sameShare(o located) bool { return l.canon == o.canon }

// on is l's site on session c to its share.
func (l located) on(ctx context.Context, c share.Client) site {
	return site{Store: storeOf(ctx, c), where: l.under(c.Prefix()), vol: l.vol}
}

// place says where vol's source lies, as it is written.
func place(vol volume.Volume) where {
	w := where{root: vol.Source, path: vol.SubDir, subDir: vol.SubDir}
	if vol.Source.Protocol == source.SMB {
		w.root.Base = ""
		w.base = vol.Source.Base
		w.path = path.Join(vol.Source.Base, vol.SubDir)
	}
	w.canon = lockName(w.root)
	return w
}

// lockName names the share a session is rooted at for the volume locks.
// The pinned version, auth and encryption are left out: a class on NFSv3
// and one on NFSv4.1 (or an NTLM and a Kerberos class) reach the same
// directories, and their operations must exclude each other.
func lockName(root source.Source) string {
	root.Version = ""
	root.Auth, root.Encryption = "", ""
	if root.Protocol == source.SMB {
		// A share's and a directory's names in any case are one to an
		// SMB server (share.FoldCase).
		return share.FoldCase(root.String())
	}
	return root.String()
}

// under places w below prefix, the path from the session's root to the
// source's own directory, once the session says what it is.
func (w where) under(prefix string) where {
	w.prefix = prefix
	if prefix == "" {
		return w
	}
	w.base = path.Join(prefix, w.base)
	w.path = path.Join(prefix, w.path)
	if w.root.Protocol == source.NFS {
		root := w.root
		root.Export = strings.TrimSuffix(strings.TrimSuffix(root.Export, "/"), "/"+prefix)
		w.canon = lockName(root)
	}
	return w
}

// lock holds w.path exclusively and its ancestors shared, below the
// session's canonical root: an operation excludes every operation on a
// directory that could nest with its own, and volumes side by side (the
// usual case, all below one base) proceed together.
func (d *controller) lock(ctx context.Context, w where) (func(), error) {
	p := w.path
	if w.root.Protocol == source.SMB {
		p = share.FoldCase(p) // as the store keys it (state.Store.key)
	}
	unlock, err := d.volumeLocks.Lock(ctx, w.canon, p)
	if err != nil {
		return nil, fail(errInProgress, "timed out waiting for another operation on this volume or one that nests with it")
	}
	return unlock, nil
}

// storeOf is the state store of session c, logging to ctx's logger.
func storeOf(ctx context.Context, c share.Client) *state.Store {
	st := state.New(c)
	logger := klog.FromContext(ctx)
	st.Log = func(msg string, kv ...any) { logger.Info(msg, kv...) }
	return st
}

// site is a volume located on its share: the store of a session to the
// share, where the volume lies below the session's root, and the volume its
// ID names. The controller's handlers reach the state through a site, so
// that how a volume is found (by UID or, for a v1 ID, its v1 record) is
// written once, here.
type site struct {
	*state.Store
	where
	vol volume.Volume
}

// member is l's site on s's session: a volume of a group whose record s's
// share holds, found to lie on that share (sameShare) before the session
// was taken.
func (s site) member(l located) site {
	return site{Store: s.Store, where: l.under(s.prefix), vol: l.vol}
}

// whereOf is where p, a path from the session's root (a record in the
// metadata directory, or a volume the reclaimer undoes), lies, for its
// lock.
func (s site) whereOf(p string) where {
	w := s.where
	w.path = p
	return w
}

// at runs fn at l's site, through a pooled session, holding the volume's
// lock when locked is set (taken once the session says where the volume
// lies). fn returns store or share errors; the caller maps them once. The
// caller locates: a volume (locate) or a share (locateShare), once for the
// call, so that what it checked before it dialed (a path, a group's share)
// is where fn runs.
func (d *controller) at(ctx context.Context, l located, creds share.Credentials, locked bool, fn func(site) error) error {
	return d.withShare(ctx, l.root, creds, func(c share.Client) error {
		s := l.on(ctx, c)
		if locked {
			unlock, err := d.lock(ctx, s.where)
			if err != nil {
				return err
			}
			defer unlock()
		}
		return fn(s)
	})
}

// atOrIdle runs fn at l's site, unlocked, for the calls that may carry no
// secrets: through withShareOrIdle, which says what dead means and reports
// false, without running fn, when an SMB call without secrets finds no idle
// session to borrow.
func (d *controller) atOrIdle(ctx context.Context, l located, creds share.Credentials, dead onDead, fn func(site) error) (bool, error) {
	return d.withShareOrIdle(ctx, l.root, creds, dead, func(c share.Client) error {
		return fn(l.on(ctx, c))
	})
}

// lockedAt runs fn at the site of l, a share, through a pooled session,
// holding the lock of p, a path in the metadata directory at the session's
// root (a snapshot's copy, a group's record).
func (d *controller) lockedAt(ctx context.Context, l located, creds share.Credentials, p string, fn func(site) error) error {
	return d.at(ctx, l, creds, false, func(s site) error {
		return d.lockedSite(ctx, s, p, fn)
	})
}

// lockedSite runs fn at s while holding the lock of p, a path in the
// metadata directory at the session's root: a copy's last step, which
// records its result, must not race a delete, nor two changes of a group's
// record each other.
func (d *controller) lockedSite(ctx context.Context, s site, p string, fn func(site) error) error {
	return d.holding(ctx, s.whereOf(p), func() error { return fn(s) })
}

// holding runs fn while holding w's lock.
func (d *controller) holding(ctx context.Context, w where, fn func() error) error {
	unlock, err := d.lock(ctx, w)
	if err != nil {
		return err
	}
	defer unlock()
	return fn()
}

// record finds the record the volume's ID names: by path and UID, or for a
// v1 ID (no UID) the v1 record. ErrNotFound when the ID matches nothing.
func (s site) record(ctx context.Context) (state.Record, error) {
	if s.vol.UID == "" {
		return s.GetLegacy(ctx, s.base, s.subDir)
	}
	return s.Get(ctx, s.path, s.vol.UID)
}

// check answers ErrNotFound unless the ID matches a record and the
// volume's directory is there.
func (s site) check(ctx context.Context) (state.Record, error) {
	rec, err := s.record(ctx)
	if err != nil {
		return rec, err
	}
	return rec, s.CheckDir(ctx, s.path)
}

// dispose carries out a DeleteVolume as the volume's ID says (its
// onDelete): see state.Store.Dispose. stop runs before anything is touched
// (a v1 volume has no copy to stop). It reports whether this call disposed
// of the volume; a volume of which nothing is left is no error.
func (s site) dispose(ctx context.Context, stop func(state.Record) error) (bool, error) {
	logger := klog.FromContext(ctx)
	var archive string
	var done bool
	var err error
	if s.vol.UID == "" {
		archive, done, err = s.DisposeLegacy(ctx, s.base, s.subDir, s.vol.OnDelete)
	} else {
		archive, done, err = s.Dispose(ctx, s.path, s.vol.UID, s.vol.OnDelete, stop)
	}
	switch {
	case errors.Is(err, state.ErrNotFound):
		logger.Info("no volume of this driver matches the ID (deleted already, or stale): nothing deleted", "path", s.path, "reason", err.Error())
		return false, nil
	case err == nil && done:
		logger.V(2).Info("volume disposed of", "path", s.path, "onDelete", string(s.vol.OnDelete), "archive", archive)
	}
	return done, err
}

// expand records a larger size, once the volume's directory is seen to be
// there (the record is read by the store, ErrNotFound when none matches).
func (s site) expand(ctx context.Context, size int64) (int64, error) {
	if err := s.CheckDir(ctx, s.path); err != nil {
		return 0, err
	}
	if s.vol.UID == "" {
		return s.ExpandLegacy(ctx, s.base, s.subDir, size)
	}
	return s.Expand(ctx, s.path, s.vol.UID, size)
}
