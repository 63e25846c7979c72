package mounter

// The Windows mounter's logic. It has no build tag: everything it does to
// the node goes through winhost.Host, so it builds and is tested on Linux,
// against a fake csi-proxy. mounter_windows.go only picks the Host.

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"slices"
	"strings"

	"k8s.io/klog/v2"

	"github.com/fileshare-csi/fileshare-csi/pkg/keylock"
	"github.com/fileshare-csi/fileshare-csi/pkg/os/winhost"
	"github.com/fileshare-csi/fileshare-csi/pkg/os/winpath"
	"github.com/fileshare-csi/fileshare-csi/pkg/source"
	"github.com/fileshare-csi/fileshare-csi/pkg/volume"
)

// smbPort is the only port an SMB global mapping connects to: the
// cmdlets and csi-proxy take a UNC path, which has no place for a port.
const smbPort = 445

// Windows stages an SMB volume as a directory link from the staging path to
// the volume's directory on the share, reached through an SMB global mapping
// of the share: one mapping per share and node, shared by all volumes on it.
// Publishing links the target path to the staging path.
//
// What the node has staged is read from the links themselves, never kept in
// memory, so a restarted plugin removes a mapping exactly when the last
// volume on its share is unstaged.
type Windows struct {
	host winhost.Host
	// shareLocks serializes staging and unstaging per share, so an unstage
	// that finds no other user of a share cannot remove its mapping while a
	// stage is linking a new volume to it.
	shareLocks keylock.Keyed
	// Mounted lists where the node has mounted its volumes, staged and
	// inline (the node's records): an unstage reads those links too, not
	// only the staging paths beside its own, since an inline volume links
	// into a share from its pod's directory and uses the same mapping.
	// An error (a record it cannot read) keeps the mapping: one left
	// behind is removed with the share's next volume once the records
	// read, one removed under a live volume breaks it. nil: the staging
	// paths only.
	Mounted func() ([]string, error)
}

// NewWindows returns the Windows mounter over host.
func NewWindows(host winhost.Host) *Windows {
	return &Windows{host: host}
}

func (*Windows) OS() string { return "windows" }

// smbMapping is what staging one volume asks of the node.
type smbMapping struct {
	root     string // \\host\share, what the global mapping covers
	remote   string // \\host\share\base\subdir, the volume's directory
	username string // DOMAIN\user when the secret has a domain
	opts     winhost.MapOptions
}

// windowsMapping is what staging req asks of the node. passes says whether
// the node can hand mapping options over (not through csi-proxy); the
// mount options accepted as no-ops are returned for the log.
func windowsMapping(req StageRequest, passes bool) (smbMapping, []string, error) {
	src := req.Source
	switch src.Protocol {
	case source.SMB:
	case source.NFS:
		return smbMapping{}, nil, fmt.Errorf("%w: %s is an NFS volume, and NFS is Linux-only in this driver: run the pod on a Linux node", ErrUnsupported, src)
	default:
		return smbMapping{}, nil, fmt.Errorf("unknown protocol %q", src.Protocol)
	}
	if err := src.CheckMapping(); err != nil {
		return smbMapping{}, nil, fmt.Errorf("%w: %w", ErrInvalid, err)
	}
	if src.Port != 0 && src.Port != smbPort {
		return smbMapping{}, nil, fmt.Errorf("%w: %s uses port %d, but SMB global mappings on Windows always connect to port %d", ErrUnsupported, src, src.Port, smbPort)
	}
	// Refused as on Linux, so a StorageClass fails the same way on every node.
	if err := volume.CheckMountOptions(req.MountOptions); err != nil {
		return smbMapping{}, nil, err
	}
	if src.EffectiveAuth() == source.AuthKrb5 && !passes {
		// Refused before the Secret is looked at: no Secret makes it work.
		return smbMapping{}, nil, errKrb5ThroughProxy
	}
	user, err := WindowsUser(src, req.Credentials)
	if err != nil {
		return smbMapping{}, nil, err
	}
	if a := src.EffectiveAuth(); (a == source.AuthKrb5 || a == source.AuthNegotiate) && req.Credentials.Password == "" {
		// A mapping logs on with a password: Windows has no keytab login
		// for it. Most often this is a Secret written for Linux nodes,
		// with a keytab (which the node plugin does not even keep without
		// --krb5-cache-uids): refused saying what to put in the Secret,
		// rather than left to fail at the server as a wrong password.
		return smbMapping{}, nil, fmt.Errorf("%w: the node-stage Secret has no password, and a Windows SMB mapping logs on with a password only (Windows has no keytab login for a mapping, so a %s is not used): for Windows pods put password in the Secret, with principal (the user principal name) or username and domain", ErrInvalid, source.SecretKeytab)
	}
	opts, noops, err := windowsMapOptions(src, req.MountOptions, passes)
	if err != nil {
		return smbMapping{}, nil, err
	}
	if passes {
		securityDemands(&opts, req)
	}
	return smbMapping{
		root:     winpath.UNC(src.Host, src.Share),
		remote:   winpath.UNC(src.Host, src.Share, src.Base, req.SubDir),
		username: user,
		opts:     opts,
	}, noops, nil
}

// errKrb5ThroughProxy refuses auth krb5 on a node that cannot pass
// -BlockNTLM.
var errKrb5ThroughProxy = fmt.Errorf("%w: auth krb5 promises never to use NTLM, and only New-SmbGlobalMapping -BlockNTLM keeps a Windows mapping from it, which csi-proxy's v1 API cannot pass: run the node plugin in HostProcess mode on Windows Server 2025 (or Windows 11 24H2) or later, or give Windows pods a class with auth negotiate", ErrUnsupported)

// WindowsUser is the user a Windows node maps src's share as with creds:
// DOMAIN\user when the Secret has a domain, the principal (a user
// principal name) for auth negotiate without a username, and for auth
// krb5 the principal first (a krb5 Secret names its Kerberos identity
// so, on Linux too). Windows compares user names without case.
//
// It does not look at the password: the node service compares users of
// records that keep none (see windowsMapping for the password check).
func WindowsUser(src source.Source, c source.Credentials) (string, error) {
	user := c.Username
	switch src.EffectiveAuth() {
	case source.AuthKrb5:
		if c.Principal != "" {
			user = c.Principal
		}
	case source.AuthNegotiate:
		if user == "" && c.Principal != "" {
			// The user principal name: Windows logs on with Kerberos when
			// the domain lets it.
			user = c.Principal
		}
	}
	if user == "" {
		return "", errNoUser
	}
	if c.Domain != "" && !strings.ContainsAny(user, `\@`) {
		user = c.Domain + `\` + user
	}
	return user, nil
}

// Stage maps the share, unless the node has a working mapping of it, and
// links the staging path to the volume's directory. Mount options with a
// counterpart in New-SmbGlobalMapping are honoured, a few that only shape a
// Linux client's view are accepted as no-ops, and the rest are refused
// (windowsoptions.go). The mount group and read-only have no counterpart in
// an SMB global mapping and are ignored (see docs/windows.md).
func (w *Windows) Stage(ctx context.Context, req StageRequest) error {
	if err := checkWindowsPath("staging path", req.StagingPath); err != nil {
		return err
	}
	m, noops, err := windowsMapping(req, w.host.PassesMapOptions())
	if err != nil {
		return err
	}
	staging := req.StagingPath
	logger := klog.FromContext(ctx).WithValues("path", staging, "share", m.root)
	if len(noops) > 0 {
		logger.V(2).Info("accepting mount options that mean nothing to a Windows mapping", "options", strings.Join(volume.RedactMountOptions(noops), ","))
	}
	unlock, err := w.lockShare(ctx, m.root)
	if err != nil {
		return err
	}
	defer unlock()

	switch l, err := w.readLink(ctx, staging); {
	case err != nil:
		return err
	case l.kind == linkMissing:
		if err := w.ensureDir(ctx, winpath.Dir(staging)); err != nil {
			return err
		}
	case l.kind == notALink:
		// The kubelet creates the staging directory; the link takes its
		// place. Rmdir fails on a directory that is not empty, on purpose.
		if err := w.host.Rmdir(ctx, staging); err != nil {
			return fmt.Errorf("remove the directory at the staging path to put the link there: %w", err)
		}
	case !winpath.IsUNC(l.target):
		// A stage links only into a share: this link is not one it made
		// (a pod's publish link, say). Taken for a staging link whose
		// mapping is gone, it was replaced by a link to this volume.
		return notOurLink("staging path", staging, l.target)
	default:
		return w.restage(ctx, staging, l.target, m, req.Credentials.Password)
	}

	if err := w.dropUnvouchedMapping(ctx, m.root, staging); err != nil {
		return err
	}
	logger.V(2).Info("mapping SMB share", "remote", m.remote, "user", m.username)
	if err := w.host.NewSMBGlobalMapping(ctx, m.remote, staging, m.username, req.Credentials.Password, m.opts); err != nil {
		w.undoFailedStage(ctx, staging, m.root, err)
		return fmt.Errorf("map %s and link %s to it: %w", m.remote, staging, err)
	}
	// The link is made even when the volume's directory is missing on the
	// share: only following it tells.
	if works, err := w.host.IsSymlink(ctx, staging); err != nil || !works {
		w.undoFailedStage(ctx, staging, m.root, err)
		if err != nil {
			return fmt.Errorf("follow the new link %s to %s: %w", staging, m.remote, err)
		}
		return fmt.Errorf("%s is not reachable through the new mapping: is the volume's directory missing on the share?", m.remote)
	}
	return nil
}

// RotateMapping: see MappingRotator. A mapping that works is kept; one that
// does not is replaced by staging the volume again, which maps the share
// anew where the node's mapping does not work (csi-proxy and the
// HostProcess host both remove a mapping that does not work before they
// map) and keeps the links.
func (w *Windows) RotateMapping(ctx context.Context, req StageRequest) (bool, error) {
	staging := winpath.Clean(req.StagingPath)
	switch err := w.Check(ctx, staging); {
	case err == nil:
		return false, nil
	case errors.Is(err, ErrNotMounted):
		return false, err
	case !errors.Is(err, ErrBroken):
		// csi-proxy did not answer, or the context ended: nothing is
		// known, nothing is touched.
		return false, err
	}
	if err := w.Stage(ctx, req); err != nil {
		return false, err
	}
	return true, nil
}

var _ MappingRotator = (*Windows)(nil)

// MappingDemands is what staging req demands of the SMB global mapping of
// its share that makes it safer, when the node can ask for it: encryption
// (RequirePrivacy), signing (RequireIntegrity), and never NTLM
// (BlockNTLM), with req.MapFloor. Compression is left out: it is no
// promise to the pods. Through csi-proxy it is zero: that node passes no
// option (and refuses the classes that need one). The error is the
// stage's own refusal of req.
//
// One share has one mapping per node, shared by all its volumes, and a
// stage reuses a working one as it is; the node service compares these
// before it stages (mappingConflict), so a volume that demands more than
// the share's mapping was made with is refused rather than staged on it.
func (w *Windows) MappingDemands(req StageRequest) (winhost.MapOptions, error) {
	if !w.host.PassesMapOptions() {
		if req.Source.EffectiveAuth() == source.AuthKrb5 {
			// The stage's refusal, before any comparison of credentials
			// can answer with something a Secret would not fix.
			return winhost.MapOptions{}, errKrb5ThroughProxy
		}
		return winhost.MapOptions{}, nil
	}
	// Not windowsMapping: a record read after a plugin restart has no
	// credentials, and the switches do not depend on them.
	opts, _, err := windowsMapOptions(req.Source, req.MountOptions, true)
	if err != nil {
		return winhost.MapOptions{}, err
	}
	securityDemands(&opts, req)
	opts.CompressNetworkTraffic = false
	return opts, nil
}

// securityDemands adds to opts what req asks of its mapping beside the
// mount options: -BlockNTLM for auth krb5 (Windows picks Kerberos or NTLM
// for a mapping itself; -BlockNTLM leaves it Kerberos or nothing, which is
// what auth krb5 promises), and the other volumes' MapFloor. Only for a
// node that passes options: windowsMapping refuses krb5 on the others.
func securityDemands(opts *winhost.MapOptions, req StageRequest) {
	opts.BlockNTLM = req.Source.EffectiveAuth() == source.AuthKrb5
	if f := req.MapFloor; f != nil {
		// If this volume makes the share's mapping again, the other
		// volumes keep what they asked of it (see StageRequest.MapFloor).
		opts.RequirePrivacy = opts.RequirePrivacy || f.RequirePrivacy
		opts.RequireIntegrity = opts.RequireIntegrity || f.RequireIntegrity
		opts.BlockNTLM = opts.BlockNTLM || f.BlockNTLM
	}
}

// WindowsShareRoot is \\host\share of src: what one global mapping covers.
func WindowsShareRoot(src source.Source) string { return winpath.UNC(src.Host, src.Share) }

// restage handles a staging path that is a link already. A working link to
// the volume is the volume staged. A link that does not work is usually one
// whose mapping is gone (after a reboot, or when the server dropped the
// session): the share is mapped again and the link kept. A failure keeps the
// link too, so the volume stays staged for the kubelet's retry, or its
// unstage, which removes the mapping when it is the share's last volume.
func (w *Windows) restage(ctx context.Context, staging, current string, m smbMapping, password string) error {
	logger := klog.FromContext(ctx).WithValues("path", staging, "share", m.root)
	works, err := w.host.IsSymlink(ctx, staging)
	switch {
	case err == nil && works && winpath.Equal(current, m.remote):
		logger.V(4).Info("already staged")
		return nil
	case err == nil && works:
		return fmt.Errorf("staging path %s already links to %s, not to %s: unstage it first", staging, current, m.remote)
	case err != nil && (ctx.Err() != nil || errors.Is(err, winhost.ErrUnavailable)):
		return err
	}
	logger.Info("staged link does not reach the share, mapping it again", "target", current, "reason", errText(err))
	relink := !winpath.Equal(current, m.remote)
	if relink {
		// Linked to another share before (its source moved, an alias):
		// a mapping of this one no volume vouches for is never reused,
		// as a first stage would not reuse it.
		if err := w.dropUnvouchedMapping(ctx, m.root, staging); err != nil {
			return err
		}
	}
	if err := w.host.NewSMBGlobalMapping(ctx, m.remote, "", m.username, password, m.opts); err != nil {
		return fmt.Errorf("map %s again: %w", m.root, err)
	}
	if winpath.Equal(current, m.remote) {
		if works, err := w.host.IsSymlink(ctx, staging); err != nil {
			return fmt.Errorf("follow %s to %s: %w", staging, m.remote, err)
		} else if !works {
			return fmt.Errorf("%s is not reachable although the share is mapped again: is the volume's directory missing on the share?", m.remote)
		}
		return nil
	}
	// The link points elsewhere: the volume's source changed since it was
	// staged. Link it to where the volume is now.
	if err := w.host.Rmdir(ctx, staging); err != nil {
		return fmt.Errorf("remove link to %s: %w", current, err)
	}
	if err := w.host.NewSMBGlobalMapping(ctx, m.remote, staging, m.username, password, m.opts); err != nil {
		return fmt.Errorf("link %s to %s: %w", staging, m.remote, err)
	}
	if works, err := w.host.IsSymlink(ctx, staging); err != nil || !works {
		return fmt.Errorf("%s is not reachable through the new link: %s", m.remote, errText(err))
	}
	w.dropOldMapping(ctx, current, m.root, staging)
	return nil
}

// dropOldMapping removes, after staging was linked away from current, the
// mapping of current's share when no volume links into it any more, as
// Unstage would have: nothing else would remove it. Best effort: a mapping
// left stays until a volume of that share is unstaged.
func (w *Windows) dropOldMapping(ctx context.Context, current, newRoot, staging string) {
	old, err := winpath.ShareRoot(current)
	if err != nil || winpath.Equal(old, newRoot) {
		return
	}
	logger := klog.FromContext(ctx).WithValues("share", old)
	unlock, err := w.lockShare(ctx, old)
	if err != nil {
		logger.Info("the old share's mapping stays", "reason", err.Error())
		return
	}
	defer unlock()
	if users, err := w.shareUsers(ctx, old, staging); err != nil || len(users) > 0 {
		return
	}
	if err := w.host.RemoveSMBGlobalMapping(ctx, old); err != nil {
		logger.Info("the old share's mapping stays", "reason", err.Error())
		return
	}
	logger.V(2).Info("removed the SMB global mapping of the share the volume was linked to before")
}

// lockShare holds the share root's lock (names in any case are one share
// to Windows) until the returned function is called: a share's stages and
// unstages, and what they do to its mapping, go one at a time.
func (w *Windows) lockShare(ctx context.Context, root string) (func(), error) {
	unlock, err := w.shareLocks.Lock(ctx, strings.ToLower(root))
	if err != nil {
		return nil, fmt.Errorf("waiting for another stage or unstage on %s: %w", root, err)
	}
	return unlock, nil
}

// dropUnvouchedMapping removes the node's mapping of root, if there is one,
// when no volume of the driver links into the share. The host reuses a
// working mapping whoever it logs on as, which is safe only for a mapping
// the node's records vouch for (the driver checks every stage against the
// records of the volumes on the server). One no volume uses was left by an
// unstage whose removal of it failed, or a stage cut after its mapping and
// before its link, or made outside the driver: linked through, it would
// give this volume another user's rights. Called under root's lock.
func (w *Windows) dropUnvouchedMapping(ctx context.Context, root, staging string) error {
	users, err := w.shareUsers(ctx, root, staging)
	if err != nil || len(users) > 0 {
		return err
	}
	if err := w.host.RemoveSMBGlobalMapping(ctx, root); err != nil {
		if ctx.Err() != nil || errors.Is(err, winhost.ErrUnavailable) {
			return fmt.Errorf("remove the SMB global mapping of %s, which no volume uses, before mapping it: %w", root, err)
		}
		// A missing mapping is no error (the hosts answer it with
		// success); another failure is logged and the stage goes on, as
		// it did when the two could not be told apart.
		klog.FromContext(ctx).V(2).Info("cannot remove the SMB global mapping of the share, which no volume uses", "share", root, "reason", err.Error())
	}
	return nil
}

// undoFailedStage leaves nothing behind a stage that failed for good: the
// kubelet calls no NodeUnstage after a final error, so a mapping left now
// would stay on the node. After a timeout or an unavailable csi-proxy the
// outcome is uncertain and the kubelet retries; the retry finds what is there.
func (w *Windows) undoFailedStage(ctx context.Context, staging, root string, cause error) {
	if ctx.Err() != nil || errors.Is(cause, winhost.ErrUnavailable) {
		return
	}
	logger := klog.FromContext(ctx).WithValues("path", staging, "share", root)
	if l, err := w.readLink(ctx, staging); err == nil && l.kind == isLink {
		if err := w.host.Rmdir(ctx, staging); err != nil {
			logger.Error(err, "cannot remove the link of a failed stage")
			return
		}
	}
	if errors.Is(cause, winhost.ErrCredentialConflict) {
		// The mapping was refused: any mapping of the share there is
		// someone else's.
		return
	}
	users, err := w.shareUsers(ctx, root, staging)
	if err != nil {
		logger.Error(err, "cannot tell whether other volumes use the share; keeping its mapping")
		return
	}
	if len(users) > 0 {
		return
	}
	if err := w.host.RemoveSMBGlobalMapping(ctx, root); err != nil {
		logger.V(2).Info("no mapping to remove after a failed stage", "reason", err.Error())
	}
}

// Unstage removes the staging link, and the share's mapping when no other
// volume staged on this node links to that share.
func (w *Windows) Unstage(ctx context.Context, stagingPath string) error {
	if err := checkWindowsPath("staging path", stagingPath); err != nil {
		return err
	}
	return w.unstage(ctx, stagingPath)
}

func (w *Windows) unstage(ctx context.Context, staging string) error {
	l, err := w.readLink(ctx, staging)
	switch {
	case err != nil:
		return err
	case l.kind == linkMissing:
		return nil
	case l.kind == notALink:
		// The kubelet's empty directory (Rmdir removes no other).
		return w.rmdir(ctx, staging)
	case !winpath.IsUNC(l.target):
		// No stage makes a link but into a share: this one is not the
		// driver's staging link (a pod's publish link, say), and stays.
		return notOurLink("staging path", staging, l.target)
	}
	root, err := winpath.ShareRoot(l.target)
	if err != nil {
		return fmt.Errorf("staging path %s links to %s: %w", staging, l.target, err)
	}
	unlock, err := w.lockShare(ctx, root)
	if err != nil {
		return err
	}
	defer unlock()
	// Count before removing anything: if counting fails, the link stays and
	// the kubelet's retry finds it.
	users, err := w.shareUsers(ctx, root, staging)
	if err != nil {
		return err
	}
	if err := w.rmdir(ctx, staging); err != nil {
		return err
	}
	logger := klog.FromContext(ctx).WithValues("path", staging, "share", root)
	if len(users) > 0 {
		logger.V(4).Info("keeping the SMB global mapping, other volumes use the share", "volumes", len(users))
		return nil
	}
	// No mapping (a reboot dropped it) is success. If this fails, the
	// kubelet's retry finds no link and succeeds; the mapping then stays
	// until the next volume on the share is unstaged.
	if err := w.host.RemoveSMBGlobalMapping(ctx, root); err != nil {
		return fmt.Errorf("remove the SMB global mapping of %s: %w", root, err)
	}
	logger.V(2).Info("removed SMB global mapping, no staged volume uses the share any more")
	return nil
}

// shareUsers lists the other volumes that link into the share root: the
// staging paths beside staging (the kubelet stages each volume at
// <dir>\<volume hash>\globalmount, so the siblings of the staging path's
// parent hold the staging paths of all volumes of this driver on the
// node), and every path w.Mounted names (inline volumes, in their pods'
// directories). The links themselves say which share they use.
func (w *Windows) shareUsers(ctx context.Context, root, staging string) ([]string, error) {
	parent := winpath.Dir(staging)
	dir, leaf := winpath.Dir(parent), winpath.Base(staging)
	names, err := w.host.ReadDir(ctx, dir)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("list staged volumes in %s: %w", dir, err)
	}
	var candidates []string
	for _, name := range names {
		candidates = append(candidates, winpath.Join(dir, name, leaf))
	}
	var unknown error
	if w.Mounted != nil {
		var more []string
		more, unknown = w.Mounted()
		candidates = append(candidates, more...)
	}
	var users []string
	for _, p := range candidates {
		if winpath.Equal(p, staging) || slices.ContainsFunc(users, func(u string) bool { return winpath.Equal(u, p) }) {
			continue
		}
		target, err := w.host.Readlink(ctx, p)
		if errors.Is(err, fs.ErrNotExist) || errors.Is(err, winhost.ErrNotLink) {
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("read volume link %s: %w", p, err)
		}
		if winpath.IsUNC(target) && winpath.Within(target, root) {
			users = append(users, p)
		}
	}
	if unknown != nil {
		// A record the node cannot read may be a volume on this share: it
		// counts as one, so the mapping stays (the link still goes; the
		// share's next unstage removes the mapping once the records read).
		klog.FromContext(ctx).Error(unknown, "keeping the SMB global mapping: a node record cannot be read", "share", root)
		users = append(users, "(a node record that cannot be read)")
	}
	return users, nil
}

// Publish links targetPath to the staging path. A link cannot be made
// read-only: read-only is enforced by the container runtime for volumeMounts
// with readOnly: true, and by the share's permissions.
func (w *Windows) Publish(ctx context.Context, stagingPath, targetPath string, readOnly bool) error {
	if err := checkWindowsPath("staging path", stagingPath); err != nil {
		return err
	}
	if err := checkWindowsPath("target path", targetPath); err != nil {
		return err
	}
	staging, target := stagingPath, targetPath
	if winpath.Equal(staging, target) {
		return fmt.Errorf("%w: the target path %s is the staging path", ErrInvalid, target)
	}
	if err := w.Check(ctx, staging); err != nil {
		return fmt.Errorf("staging path %s: %w", staging, err)
	}
	if readOnly {
		klog.FromContext(ctx).V(2).Info("read-only is not enforced by a link on Windows", "path", target)
	}
	switch l, err := w.readLink(ctx, target); {
	case err != nil:
		return err
	case l.kind == isLink && winpath.Equal(l.target, staging):
		return nil
	case l.kind == linkMissing:
		if err := w.ensureDir(ctx, winpath.Dir(target)); err != nil {
			return err
		}
	case l.kind == isLink && winpath.IsUNC(l.target):
		// A link straight into a share is a staging link, or an inline
		// volume's: re-pointed, the pods that link through it would
		// see this volume's directory instead of their own.
		return fmt.Errorf("%w: the target path %s links into the share %s: it is a volume's staging path or an inline volume, not a pod's target of this volume", ErrInvalid, target, l.target)
	case l.kind == isLink:
		// A link to an old staging path of the volume goes; a link to
		// anything else that is there (a directory of the node) is not
		// the driver's to remove.
		switch to, err := w.readLink(ctx, winpath.Clean(l.target)); {
		case err != nil:
			return err
		case to.kind == notALink:
			return notOurLink("target path", target, l.target)
		}
		fallthrough
	default:
		// The kubelet creates the target directory, and a link to an old
		// staging path must go: the new link takes their place.
		if err := w.host.Rmdir(ctx, target); err != nil {
			return fmt.Errorf("remove %s to put the link there: %w", target, err)
		}
	}
	if err := w.host.CreateSymlink(ctx, target, staging); err != nil {
		return fmt.Errorf("link %s to %s: %w", target, staging, err)
	}
	return nil
}

// Unpublish removes the link at targetPath; the volume stays staged.
func (w *Windows) Unpublish(ctx context.Context, targetPath string) error {
	if err := checkWindowsPath("target path", targetPath); err != nil {
		return err
	}
	target := targetPath
	l, err := w.readLink(ctx, target)
	if err != nil {
		return err
	}
	if l.kind == linkMissing {
		return nil
	}
	if l.kind != notALink && winpath.IsUNC(l.target) {
		// A link straight into a share is an inline volume's (a publish
		// links to its staging path): taken down as an unstage, so the
		// share's mapping goes with its last volume even when the node
		// lost the inline volume's records.
		return w.unstage(ctx, target)
	}
	return w.rmdir(ctx, target)
}

// Check follows a publish link to its staging link, and that to the share.
func (w *Windows) Check(ctx context.Context, path string) error {
	return w.check(ctx, winpath.Clean(path), 1)
}

func (w *Windows) check(ctx context.Context, path string, hops int) error {
	l, err := w.readLink(ctx, path)
	if err != nil {
		return err
	}
	if l.kind != isLink {
		return ErrNotMounted
	}
	if !winpath.IsUNC(l.target) {
		if hops == 0 {
			return fmt.Errorf("%s links to %s, which is not a share: %w", path, l.target, ErrBroken)
		}
		err := w.check(ctx, winpath.Clean(l.target), hops-1)
		if errors.Is(err, ErrNotMounted) {
			return fmt.Errorf("%s links to %s, where no volume is staged: %w", path, l.target, ErrBroken)
		}
		if err != nil {
			return fmt.Errorf("%s links to %s: %w", path, l.target, err)
		}
		return nil
	}
	works, err := w.host.IsSymlink(ctx, path)
	if err != nil {
		if errors.Is(err, ErrUnavailable) || ctx.Err() != nil {
			// csi-proxy, not the share, did not answer: nothing is known.
			return fmt.Errorf("%s links to %s, which could not be followed: %w", path, l.target, err)
		}
		// Windows answered for the share: the mapping is gone or the path
		// unreachable, which mapping the share again cures.
		return fmt.Errorf("%s links to %s, which does not answer: %w: %w", path, l.target, ErrBroken, err)
	}
	if !works {
		return fmt.Errorf("%s links to %s, which is not reachable: the server does not answer, the node's mapping of the share is gone, or the directory was removed: %w", path, l.target, ErrBroken)
	}
	return nil
}

// Stats reports the share's space. Windows has no inodes; they stay 0.
func (w *Windows) Stats(ctx context.Context, path string) (Stats, error) {
	if err := w.Check(ctx, path); err != nil {
		return Stats{}, err
	}
	sp, err := w.host.FreeSpace(ctx, winpath.Clean(path))
	if err != nil {
		return Stats{}, fmt.Errorf("free space of %s: %w", path, err)
	}
	return Stats{TotalBytes: sp.Total, AvailableBytes: sp.Available, UsedBytes: sp.Total - sp.Free}, nil
}

type linkKind int

const (
	linkMissing linkKind = iota // nothing at the path
	notALink                    // a directory or file
	isLink
)

type link struct {
	kind   linkKind
	target string
}

func (w *Windows) readLink(ctx context.Context, path string) (link, error) {
	target, err := w.host.Readlink(ctx, path)
	switch {
	case err == nil:
		return link{kind: isLink, target: target}, nil
	case errors.Is(err, fs.ErrNotExist):
		return link{kind: linkMissing}, nil
	case errors.Is(err, winhost.ErrNotLink):
		return link{kind: notALink}, nil
	}
	return link{}, fmt.Errorf("read link %s: %w", path, err)
}

func (w *Windows) rmdir(ctx context.Context, path string) error {
	if err := w.host.Rmdir(ctx, path); err != nil {
		return fmt.Errorf("remove %s: %w", path, err)
	}
	return nil
}

func (w *Windows) ensureDir(ctx context.Context, dir string) error {
	exists, err := w.host.PathExists(ctx, dir)
	if err != nil {
		return fmt.Errorf("look for %s: %w", dir, err)
	}
	if exists {
		return nil
	}
	if err := w.host.Mkdir(ctx, dir); err != nil {
		return fmt.Errorf("create %s: %w", dir, err)
	}
	return nil
}

func errText(err error) string {
	if err == nil {
		return "the link's target does not exist"
	}
	return err.Error()
}

// notOurLink refuses a link at a staging or target path that the driver
// did not make there: what it leads to, and the link itself, are left
// alone.
func notOurLink(what, path, to string) error {
	return fmt.Errorf("%w: the %s %s is a link to %s, which the driver does not make there; it leaves it alone: remove it on the node if it is not wanted", ErrInvalid, what, path, to)
}

// checkWindowsPath refuses a staging or target path the kubelet never
// writes, before anything on the node is touched: the kubelet writes an
// absolute path of its own directory (C:\var\lib\kubelet\..., or rooted
// \var\lib\kubelet\... with its default root directory), with backslashes,
// as filepath.Join cleans it. Everything else names the kubelet's path in
// another spelling, or another place:
//
//   - a UNC or device path (\\host\share\..., \\.\, \\?\): the node would
//     remove or make links on a share, or behind the long-path prefix, where
//     Win32 normalizes nothing;
//   - slashes, a trailing or doubled separator: the node's records are kept
//     by the path as written, so another spelling of a volume's staging path
//     passed the check of which volume is staged there, and its unstage took
//     the other volume's link and mapping;
//   - "." and "..": out of the kubelet's directory;
//   - a name with trailing periods or spaces, which Win32 drops
//     (globalmount. is globalmount), a colon past the drive's (an alternate
//     data stream; globalmount::$INDEX_ALLOCATION is the directory itself),
//     an 8.3 short name (GLOBAL~1): other names of one file, past the
//     records' comparison. No name the kubelet writes has any of them.
//
// Case is not refused (the kubelet's root directory may be written in any
// case); the node service compares paths without it (winpath.Equal).
func checkWindowsPath(what, p string) error {
	bad := func(why string) error {
		return fmt.Errorf("%w: %s %q %s: the node links only the kubelet's own directory for the volume, spelled as the kubelet spells it", ErrInvalid, what, p, why)
	}
	if strings.HasPrefix(p, `\\`) || strings.HasPrefix(p, `\??\`) || strings.HasPrefix(p, `//`) {
		return bad("is a network, device or long-path name")
	}
	if p != winpath.Clean(p) {
		return bad("has a slash, or a trailing or doubled backslash")
	}
	var rest string
	switch {
	case len(p) >= 3 && p[1] == ':' && p[2] == '\\' && isASCIILetter(p[0]):
		rest = p[3:]
	case strings.HasPrefix(p, `\`):
		rest = p[1:]
	default:
		return bad("is not an absolute path")
	}
	if rest == "" {
		return bad("is a drive's root")
	}
	for _, c := range strings.Split(rest, `\`) {
		switch {
		case c == "." || c == "..":
			return bad(`has a "." or ".." in it`)
		case strings.HasSuffix(c, ".") || strings.HasSuffix(c, " "):
			return bad("has a name that ends in a period or a space, which Windows drops")
		case strings.Contains(c, ":"):
			return bad("names a stream of a file (a colon)")
		case isShortName(c):
			return bad("has an 8.3 short name, another name of a directory")
		}
	}
	return nil
}

func isASCIILetter(b byte) bool { return b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' }

// isShortName says c has the shape of an 8.3 short name Windows generates
// (up to 8 characters ending in ~ and digits, and an extension of up to 3),
// as GLOBAL~1 or KUBERN~1.IO.
func isShortName(c string) bool {
	base, ext, hasExt := strings.Cut(c, ".")
	if hasExt && (len(ext) == 0 || len(ext) > 3 || strings.Contains(ext, ".")) || len(base) > 8 {
		return false
	}
	i := strings.LastIndexByte(base, '~')
	if i < 1 || i == len(base)-1 {
		return false
	}
	for _, r := range base[i+1:] {
		if r < '0' || r > '9' {
			return false
		}
	}
	return true
}
