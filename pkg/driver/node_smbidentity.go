package driver

// One set of credentials per SMB server on a Windows node. No build tag:
// the Windows mounter's logic is tested on Linux against the fake
// csi-proxy, and this with it.

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"strings"

	"k8s.io/klog/v2"

	"github.com/fileshare-csi/fileshare-csi/pkg/mounter"
	"github.com/fileshare-csi/fileshare-csi/pkg/os/winpath"
	"github.com/fileshare-csi/fileshare-csi/pkg/share"
	"github.com/fileshare-csi/fileshare-csi/pkg/source"
)

// lockServer serializes the stages of one SMB server's volumes on a
// Windows node; elsewhere it locks nothing.
func (n *node) lockServer(ctx context.Context, sr mounter.StageRequest) (func(), error) {
	if n.cfg.Mounter.OS() != "windows" || sr.Source.Protocol != source.SMB {
		return func() {}, nil
	}
	unlock, err := n.serverLocks.Lock(ctx, strings.ToLower(sr.Source.Host))
	if err != nil {
		return nil, toStatus(fmt.Errorf("waiting for another stage of a volume on %s: %w", sr.Source.Host, err))
	}
	return unlock, nil
}

// mappingConflict refuses to stage an SMB volume on a Windows node when a
// volume staged here already maps the same server with other credentials.
//
// A Windows node has one set of credentials per SMB server: a second
// mapping to the server, of the same share or another, with another user
// fails with system error 1219; and the node's mapping of a share is reused
// by every volume on it, so without this check a second volume of a share
// would be staged on the first one's mapping, with the first one's
// credentials, whatever its own Secret says. A tenant must never reach a
// share with another tenant's credentials.
//
// The same user is not a conflict. With the same password the mapping is
// shared, as before. With another password, the Secret is checked against
// the server in user space first (as a rotation is): the mapping is shared
// only when the server takes it, so knowing a user's name is not enough to
// share its mapping. Replacing the mapping's password is the rotation's
// work (rotateCredentials), at the next republish.
//
// Servers are compared by the host name in their source, without case:
// Windows does the same (and counts another name of the same server, an
// alias or an address, as another server).
func (n *node) mappingConflict(ctx context.Context, volumeID string, sr mounter.StageRequest) error {
	if n.cfg.Mounter.OS() != "windows" || sr.Source.Protocol != source.SMB {
		return nil
	}
	user, err := mounter.WindowsUser(sr.Source, sr.Credentials)
	if err != nil {
		return nil // the stage refuses the request, with its own message
	}
	check := false
	for _, rec := range n.nodeState().AllStaged() {
		other := rec.Request
		if other.Source.Protocol != source.SMB || !strings.EqualFold(other.Source.Host, sr.Source.Host) ||
			winpath.Equal(winpath.Clean(other.StagingPath), winpath.Clean(sr.StagingPath)) || rec.VolumeID == volumeID && volumeID != "" {
			continue
		}
		name := rec.VolumeID
		if name == "" {
			name = "staged at " + other.StagingPath
		}
		// With the credentials it has in memory, when the plugin has not
		// restarted since; else the identity its record keeps.
		full, err := n.nodeState().Staged(other.StagingPath)
		if err != nil {
			continue // unstaged meanwhile
		}
		var otherCreds share.Credentials
		var samePassword func() bool
		switch {
		case full.Request.Credentials != (share.Credentials{}):
			otherCreds = full.Request.Credentials
			samePassword = func() bool { return otherCreds.Password == sr.Credentials.Password }
		case full.Identity != nil:
			otherCreds = full.Identity.User()
			samePassword = func() bool { return full.Identity.SamePassword(sr.Credentials.Password) }
		default:
			return fail(share.ErrPrecondition,
				"volume %s maps the SMB server %s on this node, and the node does not know which credentials its mapping uses (it was staged before a restart of the plugin, by an earlier version); Windows allows one set of credentials per server and node, so this volume waits until that volume's next republish records them (its class needs a node-publish Secret), or until it is unstaged",
				name, sr.Source.Host)
		}
		otherUser, err := mounter.WindowsUser(full.Request.Source, otherCreds)
		if err != nil || !strings.EqualFold(otherUser, user) {
			return fail(share.ErrPrecondition,
				"volume %s maps the SMB server %s on this node with other credentials than this volume's node-stage Secret; Windows allows one set of credentials per server and node (system error 1219), and a volume never uses another volume's credentials: give the volumes of one server on a node the same node-stage Secret, or run them on different nodes (node affinity, pod anti-affinity, a taint)",
				name, sr.Source.Host)
		}
		if !samePassword() {
			check = true
		}
	}
	if !check {
		return nil
	}
	// The same user with another password: the mapping is shared only if
	// the server takes this Secret's password.
	verify := n.cfg.VerifyCredentials
	if verify == nil {
		verify = verifyCredentials
	}
	err = verify(ctx, n.aliases.resolve(ctx, aliasKey(sr), sr.Source), sr.Credentials)
	switch {
	case err == nil:
		klog.FromContext(ctx).Info("the Secret brings another password for the user the server's mapping logs on as, and the server takes it; the mapping takes it when it is made again", "server", sr.Source.Host)
		return nil
	case errors.Is(err, fs.ErrPermission):
		return fail(fs.ErrPermission,
			"another volume maps the SMB server %s on this node as the same user with another password, and the server refuses this volume's (%v): the volume would reach the share through the other volume's mapping without a password the server takes; correct the node-stage Secret", sr.Source.Host, err)
	}
	return fail(share.ErrUnavailable,
		"another volume maps the SMB server %s on this node as the same user with another password, and checking this volume's password with the server failed: %v; the next try checks again", sr.Source.Host, err)
}
