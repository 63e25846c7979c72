package driver

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"strings"

	"k8s.io/klog/v2"

	"github.com/fileshare-csi/fileshare-csi/pkg/mounter"
	"github.com/fileshare-csi/fileshare-csi/pkg/nodestate"
	"github.com/fileshare-csi/fileshare-csi/pkg/share"
	"github.com/fileshare-csi/fileshare-csi/pkg/source"
)

// verifyCredentials logs on to the share in user space with creds and logs
// off: the node's check that the server takes a new password before a live
// mount is given it.
func verifyCredentials(ctx context.Context, src source.Source, creds share.Credentials) error {
	c, err := share.Dial(ctx, src, creds)
	if err != nil {
		return err
	}
	return c.Close()
}

// rotateCredentials gives the SMB mount at mountPath the password of a
// publish call's Secret when it differs from the one the mount was made
// with. The CSIDriver's requiresRepublish makes the kubelet call
// NodePublishVolume again every minute or so with the Secret as it is now,
// so a password changed in the Secret reaches every mount on the node
// without a pod restart.
//
// The mount is never taken down here. A password the server refuses is not
// handed to the kernel: the pods keep the mount they have, and the error
// (which the kubelet shows as an event on the pod) says what to fix.
func (n *node) rotateCredentials(ctx context.Context, mountPath string, secrets map[string]string) error {
	if len(secrets) == 0 {
		return nil // no node-publish secret in the class: nothing to compare
	}
	st, err := n.nodeState().Staged(mountPath)
	if err != nil {
		if !errors.Is(err, fs.ErrNotExist) {
			klog.FromContext(ctx).Error(err, "cannot read how the volume was mounted; its credentials are left as they are", "path", mountPath)
		}
		return nil
	}
	req := st.Request
	creds := n.nodeCredentials(secrets)
	if req.Source.Protocol == source.SMB && req.CredUID != nil && creds != req.Credentials {
		return n.rotateKerberos(ctx, st, creds)
	}
	if req.Source.Protocol != source.SMB {
		return nil
	}
	if n.cfg.Mounter.OS() == "linux" {
		// A Linux Kerberos mount holds no password: the kernel asks
		// cifs.upcall for a ticket at each session setup. (A Windows
		// mapping logs on with the Secret's password whatever the auth.)
		kerberos := mounter.KerberosMount(req.Source, creds)
		if req.Credentials != (share.Credentials{}) && kerberos != mounter.KerberosMount(req.Source, req.Credentials) {
			return fail(errKeepsMount, "the Secret now logs on to %s with %s, and the live mount keeps the way it was made with; restart the pods that use the volume so it is mounted again", req.Source, map[bool]string{true: "Kerberos", false: "a password (NTLM)"}[kerberos])
		}
		if kerberos {
			return nil
		}
	}
	if creds == req.Credentials {
		return nil
	}
	if req.Credentials == (share.Credentials{}) && st.Identity != nil {
		// No credentials after a restart (Windows keeps them in memory
		// only), but the record says who the mapping logs on as: a Secret
		// naming another user is refused, never recorded as the mount's.
		if !sameLogon(st.Identity.User(), creds) {
			return errOtherUser(req.Source)
		}
	}
	if req.Credentials == (share.Credentials{}) && creds.Username != "" {
		// The node no longer has the credentials the mount was made with
		// (a plugin restart where there is no kernel keyring, see
		// nodestate/creds.go). The Secret's are the best guess: they are
		// recorded, so a broken mount can be remounted with them. A mount
		// that works is left as it is; one that does not is handed them as
		// a changed password would be.
		//
		// Not when the Secret names another user than the live mount
		// logs on as: a Linux record keeps no identity, but the kernel
		// shows the mount's user. Refused before anything is recorded, or
		// the record would say the new user while the mount keeps the
		// old, and the next repair would remount as the new one.
		if lr, ok := n.cfg.Mounter.(mounter.LogonReader); ok {
			if live, ok := lr.MountedLogon(mountPath); ok && !mountedAs(live, creds) {
				return errOtherUser(req.Source)
			}
		}
		known := st // the record as it is, with the Secret's credentials
		known.Request.Credentials = creds
		if err := n.nodeState().SaveStaged(mountPath, known); err != nil {
			klog.FromContext(ctx).Error(err, "cannot record the credentials of the Secret", "path", mountPath)
		}
		if n.cfg.Mounter.Check(ctx, mountPath) == nil {
			return nil
		}
		req.Credentials = share.Credentials{Username: creds.Username, Domain: creds.Domain}
	}
	if !sameLogon(creds, req.Credentials) {
		return errOtherUser(req.Source)
	}
	if mr, ok := n.cfg.Mounter.(mounter.MappingRotator); ok {
		return n.rotateMapping(ctx, mr, mountPath, st, creds)
	}
	rotator, ok := n.cfg.Mounter.(mounter.CredentialRotator)
	if !ok {
		return fail(errKeepsMount,
			"the SMB password in the Secret changed, but this node cannot change the password of a live mount of %s: restart the pods that use the volume so it is mounted again", req.Source)
	}
	if err := n.checkNewPassword(ctx, req, creds, "its mount"); err != nil {
		return err
	}
	if err := rotator.RotateCredentials(ctx, mountPath, creds); err != nil {
		if errors.Is(err, mounter.ErrNotMounted) {
			return nil // not staged: the publish says so
		}
		n.cfg.Metrics.CredentialsRotated("failed")
		if errors.Is(err, mounter.ErrUnsupported) {
			return fail(errKeepsMount, "the SMB password in the Secret changed: %v; restart the pods that use the volume so it is mounted again with it", err)
		}
		return fail(nil, "give the mount of %s its new password: %v", req.Source, err)
	}
	req.Credentials = creds
	st.Request = req
	if err := n.nodeState().SaveStaged(mountPath, st); err != nil {
		// The kernel has the password; only the record is behind, so the
		// next publish verifies and sets it once more.
		klog.FromContext(ctx).Error(err, "cannot record the new credentials", "path", mountPath)
	}
	n.cfg.Metrics.CredentialsRotated("ok")
	klog.FromContext(ctx).Info("gave the SMB mount the new password from the Secret", "path", mountPath, "share", req.Source.String())
	return nil
}

// sameLogon says whether a and b name one user, whose changed password is
// handed over; another user is refused. Names are compared as SMB servers
// compare them, in any case; the principal counts (a UPN a mapping logs on
// with).
// mountedAs says whether the user the kernel shows for a live CIFS mount
// (MountedLogon) can be the Secret's. The kernel shows the domain the
// mount logged on in, which is the server's own when the Secret named none
// (the NTLM challenge's), and mount.cifs may have split a "DOMAIN\user"
// or "DOMAIN/user" name: a domain is compared only where both name one.
func mountedAs(live, secret share.Credentials) bool {
	user, domain := secret.Username, secret.Domain
	if domain == "" {
		if i := strings.IndexAny(user, `\/`); i >= 0 {
			domain, user = user[:i], user[i+1:]
		}
	}
	if i := strings.IndexAny(live.Username, `\/`); i >= 0 && live.Domain == "" {
		live.Domain, live.Username = live.Username[:i], live.Username[i+1:]
	}
	return strings.EqualFold(live.Username, user) && (domain == "" || live.Domain == "" || strings.EqualFold(live.Domain, domain))
}

func sameLogon(a, b share.Credentials) bool {
	return strings.EqualFold(a.Username, b.Username) && strings.EqualFold(a.Domain, b.Domain) && strings.EqualFold(a.Principal, b.Principal)
}

// rotationFailed decides what a publish whose mount works but whose new
// password could not be set answers. A pod that is starting gets its
// volume: its mount works with the password it has, and blocking it would
// punish an operator who changed the Secret before the server. The error is
// logged now and returned by the next periodic republish, which the kubelet
// shows as an event on the pod.
func (n *node) rotationFailed(ctx context.Context, republish bool, err error) error {
	if republish {
		return err
	}
	klog.FromContext(ctx).Error(err, "the volume is published with the password it was mounted with")
	return nil
}

// rotateKerberos hands a changed keytab or password of a Kerberos mount
// with a ticket cache of its own (krb5cache) to the cache: the node logs in
// with the Secret as it is now, and on success that is what the cache is
// written and renewed with from then on; the mount itself holds no key,
// and its next session setup reads the cache. A Secret the KDC refuses
// leaves the cache as it is.
func (n *node) rotateKerberos(ctx context.Context, st nodestate.Staged, creds share.Credentials) error {
	req := st.Request
	if n.cfg.Krb5Caches == nil {
		return nil // the plugin runs without caches now: the next stage decides
	}
	if creds.Principal != req.Credentials.Principal && req.Credentials.Principal != "" {
		return fail(errKeepsMount,
			"the Secret now names another Kerberos principal than the one %s was mounted with; a live mount keeps its identity: restart the pods that use the volume so it is mounted again as the new principal", req.Source)
	}
	if _, _, err := n.cfg.Krb5Caches.Acquire(ctx, req.StagingPath, creds, req.Source.Host); err != nil {
		n.cfg.Metrics.CredentialsRotated("refused")
		return toStatus(fmt.Errorf("the Kerberos credentials in the Secret changed, and the node cannot log in with them; the volume keeps the tickets it has: %w", err))
	}
	st.Request.Credentials = creds
	if err := n.nodeState().SaveStaged(req.StagingPath, st); err != nil {
		klog.FromContext(ctx).Error(err, "cannot record the new credentials", "path", req.StagingPath)
	}
	n.cfg.Metrics.CredentialsRotated("ok")
	klog.FromContext(ctx).Info("the Kerberos ticket cache of the volume now comes from the changed Secret", "path", req.StagingPath, "principal", creds.Principal)
	return nil
}

// rotateMapping is rotateCredentials on a Windows node, where the mount is
// the node's SMB global mapping of the share. Its credentials cannot change
// while it lives: a new password replaces the mapping, under the rules a
// Linux mount's rotation follows. The server must take the password first
// (checked in user space), else the mapping stays as it is and the error
// (a FailedMount event on the pod) says so. A mapping that works is never
// removed for a rotation: that would close every file the pods hold open
// through it, for all volumes of the share; the new password is recorded,
// and when the server drops the session (its reconnect fails with the old
// password) the link's repair at the next publish or stats call maps the
// share again with it. A mapping that already fails is replaced at once, at
// the same remote path, so the links of every volume of the share work
// again. Mappings of other shares of the same server keep theirs until
// their own volumes' republish brings the Secret.
func (n *node) rotateMapping(ctx context.Context, mr mounter.MappingRotator, mountPath string, st nodestate.Staged, creds share.Credentials) error {
	req := st.Request
	if err := n.checkNewPassword(ctx, req, creds, "the node's mapping of the share"); err != nil {
		return err
	}
	req.Credentials = creds
	at := req // mapped where a stage maps it: through the aliases as they are now
	at.Source = n.aliases.resolve(ctx, aliasKey(req), req.Source)
	replaced, err := mr.RotateMapping(ctx, at)
	if err != nil {
		if errors.Is(err, mounter.ErrNotMounted) {
			return nil // not staged: the publish says so
		}
		n.cfg.Metrics.CredentialsRotated("failed")
		return toStatus(fmt.Errorf("map the share of %s again with the new password: %w", req.Source, err))
	}
	// Recorded either way: a repair of the mapping uses what is recorded.
	st.Request = req
	if err := n.nodeState().SaveStaged(mountPath, st); err != nil {
		klog.FromContext(ctx).Error(err, "cannot record the new credentials", "path", mountPath)
	}
	n.cfg.Metrics.CredentialsRotated("ok")
	if replaced {
		klog.FromContext(ctx).Info("replaced the node's SMB mapping, which no longer worked, with one with the Secret's new password", "path", mountPath, "share", req.Source.String())
	} else {
		klog.FromContext(ctx).Info("recorded the Secret's new SMB password; the node's mapping keeps its session and is made again with the new password when the server drops it", "path", mountPath, "share", req.Source.String())
	}
	return nil
}

// checkNewPassword asks the server, in user space, whether it takes the
// Secret's changed password for req's share, before a live mount (or a
// Windows node's mapping: kept, what the volume keeps) is given it. A
// refusal is the Secret's to fix; a failure to ask is retried at the next
// publish.
func (n *node) checkNewPassword(ctx context.Context, req mounter.StageRequest, creds share.Credentials, kept string) error {
	verify := n.cfg.VerifyCredentials
	if verify == nil {
		verify = verifyCredentials
	}
	err := verify(ctx, n.aliases.resolve(ctx, aliasKey(req), req.Source), creds)
	switch {
	case err == nil:
		return nil
	case errors.Is(err, fs.ErrPermission):
		n.cfg.Metrics.CredentialsRotated("refused")
		return fail(fs.ErrPermission,
			"the SMB password in the Secret changed, but %s refuses it (%v); the volume keeps %s and the password it has: correct the Secret, or change the password on the server to match it", req.Source, err, kept)
	}
	return fail(share.ErrUnavailable, "the SMB password in the Secret changed, and checking it with %s failed: %v; the volume keeps %s, and the next publish tries again", req.Source, err, kept)
}

// errOtherUser refuses a Secret that names another SMB user than the live
// mount of src logs on as.
func errOtherUser(src source.Source) error {
	return fail(errKeepsMount,
		"the Secret now names another SMB user than the one %s was mounted with; a live mount keeps its user: restart the pods that use the volume so it is mounted again with the new user", src)
}
