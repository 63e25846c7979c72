package driver

// One set of credentials per SMB server on a Windows node. No build tag:
// the Windows mounter's logic is tested on Linux against the fake
// csi-proxy, and this with it.

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"slices"
	"strings"

	"k8s.io/klog/v2"

	"github.com/fileshare-csi/fileshare-csi/pkg/mounter"
	"github.com/fileshare-csi/fileshare-csi/pkg/nodestate"
	"github.com/fileshare-csi/fileshare-csi/pkg/os/winhost"
	"github.com/fileshare-csi/fileshare-csi/pkg/os/winpath"
	"github.com/fileshare-csi/fileshare-csi/pkg/share"
	"github.com/fileshare-csi/fileshare-csi/pkg/source"
)

// Where a volume's credentials come from, for mappingConflict's messages.
const (
	stageSecret  = "node-stage Secret"
	inlineSecret = "Secret (the inline volume's nodePublishSecretRef)"
)

// claimServer is what every mount of an SMB volume on a Windows node
// passes before it maps the share or links into a mapping: a stage, and
// an inline volume's publish, which is a stage at the pod's path. It takes
// the server's lock (lockServer) and checks sr against the mapping of
// every other volume recorded on the server (mappingConflict), the
// volume at sr.StagingPath being the one that maps. The caller keeps the
// lock, by calling release, until the volume's record (stagedRecord) is
// saved: the next volume of the server is checked against it. secret says
// where the volume's credentials come from (stageSecret, inlineSecret).
// Elsewhere it checks and locks nothing.
func (n *node) claimServer(ctx context.Context, volumeID string, sr *mounter.StageRequest, secret string) (release func(), err error) {
	unlock, err := n.lockServer(ctx, *sr)
	if err != nil {
		return nil, err
	}
	if err := n.mappingConflict(ctx, volumeID, sr, secret); err != nil {
		unlock()
		return nil, err
	}
	return unlock, nil
}

// stagedRecord is the record of a volume mounted (staged, or published
// inline) with sr: on a Windows node, with what its mount asked of its
// share's mapping, for the volumes of the server checked after it
// (mappingConflict), after a restart of the plugin too.
func (n *node) stagedRecord(volumeID string, sr mounter.StageRequest) nodestate.Staged {
	rec := nodestate.Staged{Request: sr, VolumeID: volumeID}
	if n.cfg.Mounter.OS() == "windows" && sr.Source.Protocol == source.SMB {
		if m, err := n.mappingDemands(sr); err == nil {
			rec.Mapping = &m
		}
	}
	return rec
}

// lockServer serializes the stages of one SMB server's volumes on a
// Windows node, the server named as mappingConflict compares it
// (serverKey); elsewhere it locks nothing.
func (n *node) lockServer(ctx context.Context, sr mounter.StageRequest) (func(), error) {
	if n.cfg.Mounter.OS() != "windows" || sr.Source.Protocol != source.SMB {
		return func() {}, nil
	}
	// Every name the volume may be mapped at (the aliases'), in one
	// order, so two stages that share any of them wait for each other.
	var unlocks []func()
	release := func() {
		for i := len(unlocks) - 1; i >= 0; i-- {
			unlocks[i]()
		}
	}
	for _, h := range n.aliases.hosts(sr.Source) {
		unlock, err := n.serverLocks.Lock(ctx, h)
		if err != nil {
			release()
			return nil, toStatus(fmt.Errorf("waiting for another stage of a volume on %s: %w", h, err))
		}
		unlocks = append(unlocks, unlock)
	}
	return release, nil
}

// lockServerOf is lockServer for the volume recorded at path, for a call
// that takes it down: on a Windows node its unmount removes the share's
// mapping when no recorded volume links into it, and a stage or an inline
// publish of the server holds the lock from its mapping until its record
// is saved, so waiting for it keeps the mapping under a volume being
// recorded. Nothing to lock without a record, nor elsewhere (no record is
// read then: every unstage comes this way).
func (n *node) lockServerOf(ctx context.Context, path string) (func(), error) {
	if n.cfg.Mounter.OS() != "windows" {
		return func() {}, nil
	}
	st, err := n.nodeState().Staged(path)
	if err != nil {
		return func() {}, nil
	}
	return n.lockServer(ctx, st.Request)
}

// mappingConflict refuses to stage an SMB volume on a Windows node when a
// volume staged here already maps the same server with other credentials.
// Inline volumes count as staged volumes, both ways: their publish is a
// stage at the pod's path, checked here (claimServer), and their record is
// among the ones compared.
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
// Servers are compared by host name as a UNC path writes it, without case,
// as Windows does (it counts another name of the same server, or an
// address, as another server, but an IPv6 address and its
// ipv6-literal.net name as one: serverKey): the names each volume may be
// mapped at, its source's and those the source aliases give it now, so a
// volume reached through an alias meets the volumes of the server it is
// mapped at.
//
// The share's mapping must also give this volume what its class demands
// of it (see weakerMapping); what it demands less than the share's other
// volumes goes into sr.MapFloor, so a mapping this volume makes again
// keeps what they asked for.
func (n *node) mappingConflict(ctx context.Context, volumeID string, sr *mounter.StageRequest, secret string) error {
	if n.cfg.Mounter.OS() != "windows" || sr.Source.Protocol != source.SMB {
		return nil
	}
	user, err := mounter.WindowsUser(sr.Source, sr.Credentials)
	if err != nil {
		return nil // the stage refuses the request, with its own message
	}
	want, err := n.mappingDemands(*sr)
	if err != nil {
		return nil // likewise
	}
	root := mounter.WindowsShareRoot(sr.Source)
	var floor winhost.MapOptions
	check := false
	recs, err := n.nodeState().AllStagedOrError()
	if err != nil {
		// A record it cannot read may be another volume's mapping of
		// this server, with other credentials: never taken for none.
		return fail(share.ErrPrecondition, "the node cannot tell which credentials map the SMB server %s (Windows allows one set per server and node): %v; restore or remove that file under --state-dir", sr.Source.Host, err)
	}
	hosts := n.aliases.hosts(sr.Source)
	for _, rec := range recs {
		other := rec.Request
		if other.Source.Protocol != source.SMB || !slices.ContainsFunc(n.aliases.hosts(other.Source), func(h string) bool { return slices.Contains(hosts, h) }) ||
			winpath.Equal(winpath.Clean(other.StagingPath), winpath.Clean(sr.StagingPath)) || rec.VolumeID == volumeID && volumeID != "" {
			continue
		}
		name := n.recordName(rec)
		// With the credentials it has in memory, when the plugin has not
		// restarted since; else the identity its record keeps.
		full, err := n.nodeState().Staged(other.StagingPath)
		if errors.Is(err, fs.ErrNotExist) {
			continue // unstaged meanwhile
		} else if err != nil {
			return fail(share.ErrPrecondition, "the node cannot tell which credentials volume %s maps the SMB server %s with: %v; restore or remove its record under --state-dir", name, sr.Source.Host, err)
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
				"volume %s maps the SMB server %s on this node with other credentials than this volume's %s; Windows allows one set of credentials per server and node (system error 1219), and a volume never uses another volume's credentials: give the volumes of one server on a node the same node-stage Secret (inline volumes: a Secret with the same credentials), or run them on different nodes (node affinity, pod anti-affinity, a taint)",
				name, sr.Source.Host, secret)
		}
		if !samePassword() {
			check = true
		}
		if !strings.EqualFold(mounter.WindowsShareRoot(other.Source), root) {
			continue // another share of the server: a mapping of its own
		}
		have := n.recordedMapping(full)
		if err := weakerMapping(name, root, want, have); err != nil {
			return err
		}
		floor = union(floor, have)
	}
	if floor != (winhost.MapOptions{}) && !covers(want, floor) {
		sr.MapFloor = &floor
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
	// Prove the identity that was compared: WindowsUser maps negotiate
	// as the username when there is one, never as the principal.
	vc := sr.Credentials
	if sr.Source.EffectiveAuth() == source.AuthNegotiate && vc.Username != "" {
		vc.Principal, vc.Keytab = "", ""
	}
	err = verify(ctx, n.aliases.resolve(ctx, aliasKey(*sr), sr.Source), vc)
	switch {
	case err == nil:
		klog.FromContext(ctx).Info("the Secret brings another password for the user the server's mapping logs on as, and the server takes it; the mapping takes it when it is made again", "server", sr.Source.Host)
		return nil
	case errors.Is(err, fs.ErrPermission):
		return fail(fs.ErrPermission,
			"another volume maps the SMB server %s on this node as the same user with another password, and the server refuses this volume's (%v): the volume would reach the share through the other volume's mapping without a password the server takes; correct the %s", sr.Source.Host, err, secret)
	}
	return fail(share.ErrUnavailable,
		"another volume maps the SMB server %s on this node as the same user with another password, and checking this volume's password with the server failed: %v; the next try checks again", sr.Source.Host, err)
}

// recordName names a recorded volume in mappingConflict's messages (after
// "volume "): its volume ID, said to be inline for an inline volume's; its
// path for a record of an earlier version, which has no ID.
func (n *node) recordName(rec nodestate.Staged) string {
	path := rec.Request.StagingPath
	inline := false
	if pub, err := n.nodeState().Published(path); err == nil && pub.Ephemeral {
		inline = true
	}
	switch {
	case rec.VolumeID != "" && inline:
		return rec.VolumeID + " (an inline volume of a pod)"
	case rec.VolumeID != "":
		return rec.VolumeID
	case inline:
		return "published inline at " + path
	}
	return "staged at " + path
}

// mappingDemander is the Windows mounter: what a stage demands of its
// share's mapping (mounter.Windows.MappingDemands).
type mappingDemander interface {
	MappingDemands(mounter.StageRequest) (winhost.MapOptions, error)
}

// mappingDemands is what staging sr demands of its share's SMB global
// mapping; zero on a node that cannot ask for anything (csi-proxy).
func (n *node) mappingDemands(sr mounter.StageRequest) (winhost.MapOptions, error) {
	d, ok := n.cfg.Mounter.(mappingDemander)
	if !ok {
		return winhost.MapOptions{}, nil
	}
	return d.MappingDemands(sr)
}

// recordedMapping is what a staged volume's stage asked of its share's
// mapping: its record's, kept across plugin restarts; for a record of an
// earlier version, what its class and mount options demand (that version
// asked for the same, and never for BlockNTLM).
func (n *node) recordedMapping(rec nodestate.Staged) winhost.MapOptions {
	if rec.Mapping != nil {
		return *rec.Mapping
	}
	have, err := n.mappingDemands(rec.Request)
	if err != nil {
		// The node took it once; a class it would refuse now gets no
		// credit for any switch, so nothing is reused on its word.
		return winhost.MapOptions{}
	}
	return have
}

// weakerMapping refuses to stage a volume whose class demands of the
// share's mapping (encryption, signing, never NTLM) what another volume
// staged on it was staged without. One share has one mapping per node,
// made by whichever of its volumes mapped it (or mapped it again, after
// the server dropped it), so the mapping is known to have a switch only
// when every volume on it asked for it; and a working mapping is reused as
// it is.
//
// Refused, not replaced: replacing the mapping (Remove-SmbGlobalMapping
// -Force) closes every file the other volume's pods hold open through it,
// which a password rotation avoids too (it replaces only a mapping that no
// longer works); and reusing it would give this volume's pods traffic
// without what their class promises.
func weakerMapping(other, root string, want, have winhost.MapOptions) error {
	var lacks []string
	if want.RequirePrivacy && !have.RequirePrivacy {
		lacks = append(lacks, "encryption (seal or encryption: required, -RequirePrivacy)")
	}
	if want.RequireIntegrity && !have.RequireIntegrity {
		lacks = append(lacks, "signing (sign, -RequireIntegrity)")
	}
	if want.BlockNTLM && !have.BlockNTLM {
		lacks = append(lacks, "no NTLM ever (auth krb5, -BlockNTLM)")
	}
	if len(lacks) == 0 {
		return nil
	}
	return fail(share.ErrPrecondition,
		"volume %s is staged on this node on the SMB global mapping of %s, which may have been made without %s that this volume's class demands; one share has one mapping per node, shared by its volumes, and the node neither reuses it without what this class demands nor replaces it under that volume's pods (which would close their open files): give the volumes of one share the same encryption, sign and auth on a node, or run this pod on another node until that volume is unstaged here",
		other, root, strings.Join(lacks, " and "))
}

// union is every switch of a or b.
func union(a, b winhost.MapOptions) winhost.MapOptions {
	return winhost.MapOptions{
		RequirePrivacy:         a.RequirePrivacy || b.RequirePrivacy,
		RequireIntegrity:       a.RequireIntegrity || b.RequireIntegrity,
		CompressNetworkTraffic: a.CompressNetworkTraffic || b.CompressNetworkTraffic,
		BlockNTLM:              a.BlockNTLM || b.BlockNTLM,
	}
}

// covers says whether a has every switch b has.
func covers(a, b winhost.MapOptions) bool { return union(a, b) == a }
