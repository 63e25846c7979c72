package driver

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"os"
	"strconv"
	"time"

	"github.com/container-storage-interface/spec/lib/go/csi"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"k8s.io/klog/v2"

	"github.com/fileshare-csi/fileshare-csi/pkg/mounter"
	"github.com/fileshare-csi/fileshare-csi/pkg/nodestate"
	"github.com/fileshare-csi/fileshare-csi/pkg/os/winpath"
	"github.com/fileshare-csi/fileshare-csi/pkg/share"
	"github.com/fileshare-csi/fileshare-csi/pkg/source"
	"github.com/fileshare-csi/fileshare-csi/pkg/volume"
)

func (n *node) NodeGetCapabilities(context.Context, *csi.NodeGetCapabilitiesRequest) (*csi.NodeGetCapabilitiesResponse, error) {
	var caps []*csi.NodeServiceCapability
	for _, c := range []csi.NodeServiceCapability_RPC_Type{
		csi.NodeServiceCapability_RPC_STAGE_UNSTAGE_VOLUME,
		csi.NodeServiceCapability_RPC_GET_VOLUME_STATS,
		csi.NodeServiceCapability_RPC_SINGLE_NODE_MULTI_WRITER,
		csi.NodeServiceCapability_RPC_VOLUME_MOUNT_GROUP,
		csi.NodeServiceCapability_RPC_GET_VOLUME_HEALTH,
		// Expanding grows nothing on the node; NodeExpandVolume tells it
		// the new size, which the volume context (immutable) never will.
		csi.NodeServiceCapability_RPC_EXPAND_VOLUME,
	} {
		caps = append(caps, &csi.NodeServiceCapability{
			Type: &csi.NodeServiceCapability_Rpc{Rpc: &csi.NodeServiceCapability_RPC{Type: c}},
		})
	}
	return &csi.NodeGetCapabilitiesResponse{Capabilities: caps}, nil
}

func (n *node) NodeGetInfo(context.Context, *csi.NodeGetInfoRequest) (*csi.NodeGetInfoResponse, error) {
	return &csi.NodeGetInfoResponse{
		NodeId:             n.cfg.NodeID,
		AccessibleTopology: &csi.Topology{Segments: map[string]string{TopologyKeyOS: n.cfg.Mounter.OS()}},
	}, nil
}

// nodeVolume finds the share and directory to mount: from the volume context
// when it names a source (static PVs, and what CreateVolume returns), else
// from the volume ID.
func nodeVolume(volumeID string, vctx map[string]string) (source.Source, string, error) {
	if s, ok := vctx[ContextSource]; ok {
		src, err := source.Parse(s)
		if err != nil {
			return source.Source{}, "", fmt.Errorf("volume attribute %s: %w", ContextSource, err)
		}
		sub := vctx[ContextSubDir]
		if sub != "" {
			if err := volume.ValidateSubDir(sub); err != nil {
				return source.Source{}, "", fmt.Errorf("volume attribute %s: %w", ContextSubDir, err)
			}
			if src.Protocol == source.SMB {
				if err := source.CheckSMBPath(sub); err != nil {
					return source.Source{}, "", fmt.Errorf("volume attribute %s: %w", ContextSubDir, err)
				}
			}
		}
		return src, sub, nil
	}
	vol, err := volume.ParseID(volumeID)
	if err != nil {
		return source.Source{}, "", fmt.Errorf("volume attributes have no %q and the ID is not one of ours: %w", ContextSource, err)
	}
	return vol.Source, vol.SubDir, nil
}

func isReadOnlyMode(c *csi.VolumeCapability) bool {
	switch c.GetAccessMode().GetMode() {
	case csi.VolumeCapability_AccessMode_SINGLE_NODE_READER_ONLY, csi.VolumeCapability_AccessMode_MULTI_NODE_READER_ONLY:
		return true
	}
	return false
}

// otherPublication finds a target, other than target, where the volume is
// published, from the records publish leaves on disk (so it holds across
// plugin restarts).
func (n *node) otherPublication(ctx context.Context, volumeID, target string) (nodestate.Published, bool) {
	for _, p := range n.nodeState().PublishedOf(volumeID) {
		if p.TargetPath == target {
			continue
		}
		if err := n.cfg.Mounter.Check(ctx, p.TargetPath); errors.Is(err, mounter.ErrNotMounted) {
			continue // a stale record of a target that is gone
		}
		return p, true
	}
	return nodestate.Published{}, false
}

// nodeState is the node's records. On Windows they keep who each volume's
// mapping logs on as (nodestate.Identity), for mappingConflict.
func (n *node) nodeState() nodestate.NodeStore {
	return nodestate.NodeStore{Dir: n.cfg.StateDir, Identities: n.cfg.Mounter != nil && n.cfg.Mounter.OS() == "windows"}
}

// checkMountGroup refuses a volume_mount_group (the pod's fsGroup) that is
// not a group ID as the kubelet writes one: decimal, below 2^32-1. The
// node hands it to chown(2) (an NFS volume's root) and to mount.cifs
// (gid=): a value past 32 bits reached chown cut to its low 32 bits
// (4294967296 is 0, root's group, given g+rwxs on the volume's root),
// 2^32-1 is chown's "leave the group as it is", and the kernel's CIFS
// parser reads a leading 0 as octal (010 is group 8).
func checkMountGroup(g string) error {
	if g == "" {
		return nil
	}
	if v, err := strconv.ParseUint(g, 10, 32); err != nil || v == math.MaxUint32 || strconv.FormatUint(v, 10) != g {
		return status.Errorf(codes.InvalidArgument, "volume mount group %q is not a group ID: the pod's fsGroup must be a decimal number from 0 to %d", g, uint32(math.MaxUint32-1))
	}
	return nil
}

func validateNodeCapability(c *csi.VolumeCapability) error {
	if c == nil {
		return status.Error(codes.InvalidArgument, "volume capability is missing")
	}
	return validateCapabilities([]*csi.VolumeCapability{c})
}

func (n *node) NodeStageVolume(ctx context.Context, req *csi.NodeStageVolumeRequest) (*csi.NodeStageVolumeResponse, error) {
	if req.GetVolumeId() == "" {
		return nil, status.Error(codes.InvalidArgument, "volume ID is missing")
	}
	if req.GetStagingTargetPath() == "" {
		return nil, status.Error(codes.InvalidArgument, "staging target path is missing")
	}
	if err := validateNodeCapability(req.GetVolumeCapability()); err != nil {
		return nil, err
	}
	src, sub, err := nodeVolume(req.GetVolumeId(), req.GetVolumeContext())
	if err != nil {
		return nil, status.Error(codes.InvalidArgument, err.Error())
	}
	unlock, err := n.nodeLocks.lockVolume(req.GetVolumeId())
	if err != nil {
		return nil, err
	}
	defer unlock()
	mnt := req.GetVolumeCapability().GetMount()
	if err := checkMountGroup(mnt.GetVolumeMountGroup()); err != nil {
		return nil, err
	}
	classOptions, err := volume.ParseMountOptions(req.GetVolumeContext()[ContextMountOptions])
	if err != nil {
		return nil, status.Errorf(codes.InvalidArgument, "volume attribute %s: %v", ContextMountOptions, err)
	}
	capacity, err := capacityOf(req.GetVolumeContext())
	if err != nil {
		return nil, err
	}
	if err := n.heldByOther(ctx, req.GetStagingTargetPath(), req.GetVolumeId(), false); err != nil {
		return nil, err
	}
	sr := mounter.StageRequest{
		Source:       src,
		SubDir:       sub,
		StagingPath:  req.GetStagingTargetPath(),
		MountOptions: append(classOptions, mnt.GetMountFlags()...),
		Credentials:  n.nodeCredentials(req.GetSecrets()),
		MountGroup:   mnt.GetVolumeMountGroup(),
		ReadOnly:     isReadOnlyMode(req.GetVolumeCapability()),
	}
	// A stage again over a live mount (the kubelet's retry, or after its
	// restart) reuses the mount, which keeps the credentials it was made
	// with: a Secret changed since is the change a republish hands over
	// (a new password to the live mount, a new user refused), never
	// recorded as the mount's while the mount keeps the old ones.
	old, oldErr := n.nodeState().Staged(sr.StagingPath)
	if oldErr == nil {
		live := n.cfg.Mounter.Check(ctx, sr.StagingPath)
		if !errors.Is(live, mounter.ErrNotMounted) && old.Request.ReadOnly != sr.ReadOnly {
			return nil, stagedReadOnlyOtherwise(req.GetVolumeId(), sr, old.Request.ReadOnly)
		}
		if live == nil {
			if err := n.rotateCredentials(ctx, sr.StagingPath, req.GetSecrets()); err != nil {
				return nil, err
			}
		}
	}
	// On Windows, one server's volumes are checked and staged one at a
	// time, so two volumes with other credentials cannot both pass the
	// check before either is recorded.
	releaseServer, err := n.claimServer(ctx, req.GetVolumeId(), &sr, stageSecret)
	if err != nil {
		n.stageFailed(ctx, sr.StagingPath, false)
		return nil, err
	}
	defer releaseServer()
	// Last before the mount: a uid taken here is given back only when the
	// mount fails.
	added, err := n.kerberosMount(ctx, &sr, false)
	if err != nil {
		n.stageFailed(ctx, sr.StagingPath, false)
		return nil, err
	}
	if err := n.stage(ctx, sr); err != nil {
		n.stageFailed(ctx, sr.StagingPath, added)
		return nil, toStatus(err)
	}
	// A stage again of a staged volume (the kubelet's retry, or after its
	// restart) keeps the size a NodeExpandVolume recorded: the volume
	// context still says the size the volume was created with. Another
	// volume's leftover record (heldByOther let the stage go on, nothing
	// being mounted there) is replaced, its size too; a record that names
	// no volume is an earlier version's, taken for this volume's. (The
	// record read above: nothing since changes its size or volume.)
	if oldErr == nil && (old.VolumeID == "" || old.VolumeID == req.GetVolumeId()) {
		capacity = max(capacity, old.CapacityBytes)
	}
	rec := n.stagedRecord(req.GetVolumeId(), sr)
	rec.CapacityBytes = capacity
	if err := n.nodeState().SaveStaged(sr.StagingPath, rec); err != nil {
		return nil, recordFailed(sr.StagingPath, err)
	}
	n.mounts.staged(sr.StagingPath, string(src.Protocol))
	return &csi.NodeStageVolumeResponse{}, nil
}

func (n *node) NodeUnstageVolume(ctx context.Context, req *csi.NodeUnstageVolumeRequest) (*csi.NodeUnstageVolumeResponse, error) {
	if req.GetVolumeId() == "" {
		return nil, status.Error(codes.InvalidArgument, "volume ID is missing")
	}
	if req.GetStagingTargetPath() == "" {
		return nil, status.Error(codes.InvalidArgument, "staging target path is missing")
	}
	unlock, err := n.nodeLocks.lockVolume(req.GetVolumeId())
	if err != nil {
		return nil, err
	}
	defer unlock()
	if err := n.heldByOther(ctx, req.GetStagingTargetPath(), req.GetVolumeId(), false); err != nil {
		return nil, err
	}
	releaseServer, err := n.lockServerOf(ctx, req.GetStagingTargetPath())
	if err != nil {
		return nil, err
	}
	defer releaseServer()
	// A usage walk under way keeps the mount busy: it ends first.
	n.forgetUsage(ctx, req.GetStagingTargetPath())
	if err := n.cfg.Mounter.Unstage(ctx, req.GetStagingTargetPath()); err != nil {
		return nil, toStatus(err)
	}
	n.nodeState().DropStaged(req.GetStagingTargetPath())
	n.mounts.unstaged(req.GetStagingTargetPath())
	n.releaseKerberos(ctx, req.GetStagingTargetPath())
	return &csi.NodeUnstageVolumeResponse{}, nil
}

// stagedReadOnlyOtherwise refuses a stage again, at a staging path where
// the volume is mounted, whose access mode asks for the other of read-only
// and read-write. Spec, NodeStageVolume: OK only when the volume "is
// identical to the specified volume_capability", ALREADY_EXISTS ("Volume
// published but is incompatible") otherwise. Answered OK, the mount was
// reused as it was while its record took the new flag, so the record the
// node repairs and remounts from no longer said what the mount is, and a
// reader-only volume could be written through a read-write mount.
//
// Other mount flags (a PV's mountOptions edited while its pods run) are
// not refused, though the spec would have it: the kubelet stages again
// after its restarts, and a refusal would keep every new pod of the volume
// off the node until its running pods stop. The mount keeps the flags it
// was made with and the record takes the new ones, which a remount after a
// repair, or the next stage once it is unstaged, applies (as before).
func stagedReadOnlyOtherwise(volumeID string, sr mounter.StageRequest, wasReadOnly bool) error {
	return status.Errorf(codes.AlreadyExists, "volume %s is already staged at %s read-only %v, and this stage asks for read-only %v: a staged mount is not changed while pods use it; stop the volume's pods on this node (it is unstaged, and the next stage mounts it as asked), or stage it with its earlier access mode",
		shownID(volumeID), sr.StagingPath, wasReadOnly, sr.ReadOnly)
}

// heldByOther refuses a call for volumeID at a staging path that the
// node's record says holds another volume. The kubelet derives a volume's
// staging path from its ID, so the two always agree; a request in which
// they do not would have the node hand one volume's mount, with its share,
// directory and credentials, to another: a publish would bind it into the
// other volume's pod (or first remount it from its record), a stage would
// reuse it and record it as the other volume's, an unstage would take it
// from under its own pods without its volume's lock. A stage or unstage
// may go on where nothing is mounted any more (the record is a leftover,
// and is replaced or dropped); a publish never binds another volume's
// staging path, mounted or not.
func (n *node) heldByOther(ctx context.Context, staging, volumeID string, evenUnmounted bool) error {
	st, err := n.stagedAt(staging)
	if err != nil || st.VolumeID == "" || st.VolumeID == volumeID {
		return nil // no record, or one of a version that kept no volume ID
	}
	if !evenUnmounted && errors.Is(n.cfg.Mounter.Check(ctx, staging), mounter.ErrNotMounted) {
		return nil
	}
	return fail(errNotStaged, "volume %s is not staged at %s: the node staged volume %s there; the staging path of a volume is the kubelet's for that volume alone", shownID(volumeID), staging, shownID(st.VolumeID))
}

// volumeNotAt refuses a call about volumeID at paths (a volume_path, which
// is a published target or a staging path, and a staging_target_path; ""
// is skipped) when the node's records say another volume is there. Spec,
// NodeGetVolumeStats: NOT_FOUND, "a volume corresponding to the specified
// volume_id does not exist on specified volume_path"; NodeExpandVolume
// "ONLY supports expansion of already node-published or node-staged volumes
// on the given volume_path", its NOT_FOUND being the volume that is not
// there. Answered for the volume mounted at the path, a call would report
// another volume's usage, or record a new size for another volume's mount,
// under this volume's ID. A record that names no volume (one of a version
// that kept no volume ID in it) refuses nothing.
func (n *node) volumeNotAt(volumeID string, paths ...string) error {
	for _, p := range paths {
		if p == "" {
			continue
		}
		// The target's publish record, and the staging record of the path
		// itself or of the staging path the target is bound from (which
		// names the volume where a publish record of an earlier version
		// does not).
		var ids []string
		staging := p
		if pub, err := n.publishedAt(p); err == nil {
			ids = append(ids, pub.VolumeID)
			if pub.StagingPath != "" {
				staging = pub.StagingPath
			}
		}
		if st, err := n.stagedAt(staging); err == nil {
			ids = append(ids, st.VolumeID)
		}
		for _, other := range ids {
			if other != "" && other != volumeID {
				return fail(fs.ErrNotExist, "volume %s is not at %s: the node has volume %s there", shownID(volumeID), p, shownID(other))
			}
		}
	}
	return nil
}

// targetHeldByOther refuses an unpublish of volumeID at a target that the
// node's records give to another volume, while something is there: a
// volume's staging path or an inline volume's target (a staging record),
// or another volume's publish target. The kubelet derives a target from
// its volume, so the two always agree; a request in which they do not
// would take another volume from under its pods, without its lock (a
// staging path looked like an inline volume whose publish record is
// missing, and was unstaged with its share's mapping).
func (n *node) targetHeldByOther(ctx context.Context, target, volumeID string) error {
	if err := n.heldByOther(ctx, target, volumeID, false); err != nil {
		return err
	}
	p, err := n.publishedAt(target)
	if err != nil || p.VolumeID == "" || p.VolumeID == volumeID {
		return nil
	}
	if errors.Is(n.cfg.Mounter.Check(ctx, target), mounter.ErrNotMounted) {
		return nil // a stale record
	}
	return fail(errPublished, "volume %s is not published at %s: the node published volume %s there; a target path is the kubelet's for one volume alone", shownID(volumeID), target, shownID(p.VolumeID))
}

// stagedAt is the node's staging record of path. On Windows a path is
// one in any case (the Windows mounter refuses the other spellings Win32
// takes for one path), and the records are kept by the path as written:
// a record under another case is found by comparing them all, so a
// request cannot pass the checks of which volume is where by writing a
// volume's path in capitals.
func (n *node) stagedAt(path string) (nodestate.Staged, error) {
	st, err := n.nodeState().Staged(path)
	if err == nil || !errors.Is(err, fs.ErrNotExist) || n.cfg.Mounter.OS() != "windows" {
		return st, err
	}
	for _, r := range n.nodeState().AllStaged() {
		if winpath.Equal(r.Request.StagingPath, path) {
			return r, nil
		}
	}
	return st, err
}

// publishedAt is stagedAt for publish records.
func (n *node) publishedAt(target string) (nodestate.Published, error) {
	p, err := n.nodeState().Published(target)
	if err == nil || !errors.Is(err, fs.ErrNotExist) || n.cfg.Mounter.OS() != "windows" {
		return p, err
	}
	for _, r := range n.nodeState().AllPublished() {
		if winpath.Equal(r.TargetPath, target) {
			return r, nil
		}
	}
	return p, err
}

// recordFailed answers a stage (or an inline publish) whose mount is made
// but whose node record could not be written. Unavailable is what the
// kubelet takes for "maybe mounted": it calls again, which reuses the
// mount and writes the record, or, when the pod goes first, unstages.
// Answering OK would leave a mount the node cannot repair after a server
// restart, whose credentials and Kerberos uid nothing records, and, on
// Windows, a mapping whose user the server's other volumes cannot check.
func recordFailed(path string, err error) error {
	return status.Errorf(codes.Unavailable, "%s is mounted, but the node's record of it could not be written (%v): the mount stays, and the call again records it; check the node plugin's state directory (disk full, read-only)", path, err)
}

// repairStaging remounts a staged volume whose mount broke (the server
// restarted and the handle went stale, or the connection is gone).
func (n *node) repairStaging(ctx context.Context, stagingPath string) error {
	st, err := n.nodeState().Staged(stagingPath)
	if err != nil {
		return fmt.Errorf("no record of how %s was staged, cannot remount it: %w", stagingPath, err)
	}
	klog.FromContext(ctx).Info("remounting broken staged volume", "path", stagingPath)
	req := st.Request
	if pub, perr := n.nodeState().Published(stagingPath); perr == nil && pub.Ephemeral && req.Source.Protocol == source.NFS {
		// An inline NFS volume is remounted under today's rule, from a
		// record an earlier version wrote too (sec=krb5, or no sec=).
		err = inlineNFSSecurity(&req)
	}
	if err == nil {
		// A repair maps (and may relink) as a stage does: held to the same
		// per-server check, with the aliases as they are now.
		var release func()
		if release, err = n.claimServer(ctx, st.VolumeID, &req, stageSecret); err == nil {
			err = n.stage(ctx, req)
			release()
		}
	}
	protocol := string(st.Request.Source.Protocol)
	n.cfg.Metrics.MountRepaired(protocol, err)
	if err == nil {
		n.mounts.staged(stagingPath, protocol)
	}
	return err
}

// observe notes what a look at a volume's mount found, for the node's
// metrics. path is the staging or a published path.
func (n *node) observe(path, stagingHint string, err error) {
	staging := stagingHint
	if staging == "" {
		staging = path
		if pub, perr := n.nodeState().Published(path); perr == nil {
			staging = pub.StagingPath
		}
	}
	protocol := n.mounts.observed(staging, err)
	if protocol != "" && errors.Is(err, mounter.ErrNotResponding) {
		n.cfg.Metrics.ProbeTimedOut(protocol)
	}
}

func (n *node) NodePublishVolume(ctx context.Context, req *csi.NodePublishVolumeRequest) (*csi.NodePublishVolumeResponse, error) {
	if req.GetVolumeId() == "" {
		return nil, status.Error(codes.InvalidArgument, "volume ID is missing")
	}
	if req.GetTargetPath() == "" {
		return nil, status.Error(codes.InvalidArgument, "target path is missing")
	}
	if err := validateNodeCapability(req.GetVolumeCapability()); err != nil {
		return nil, err
	}
	if req.GetVolumeContext()[ContextEphemeral] == "true" {
		return n.publishInline(ctx, req)
	}
	if req.GetStagingTargetPath() == "" {
		// The spec's own row for this (NodePublishVolume Errors, "Staging
		// target path not set"): FAILED_PRECONDITION, not the general
		// INVALID_ARGUMENT of a missing field, since the field is
		// required only because the node has STAGE_UNSTAGE_VOLUME.
		return nil, fail(errNotStaged, "staging target path is missing: this driver stages volumes before publishing them (NodeStageVolume first, then NodePublishVolume with its staging_target_path)")
	}
	unlock, err := n.nodeLocks.lockVolume(req.GetVolumeId())
	if err != nil {
		return nil, err
	}
	defer unlock()
	staging := req.GetStagingTargetPath()
	if err := n.heldByOther(ctx, staging, req.GetVolumeId(), true); err != nil {
		return nil, err
	}
	// Nor is the target another volume's staging path (or an inline
	// volume's target): published over, that volume's pods would see this
	// one (on Windows they follow its staging link at every access).
	if err := n.heldByOther(ctx, req.GetTargetPath(), req.GetVolumeId(), false); err != nil {
		return nil, err
	}
	// A changed password is handed over before the mount is looked at:
	// once the server has dropped the session, a mount with the old
	// password fails every look until the kernel has the new one.
	rotErr := n.rotateCredentials(ctx, staging, req.GetSecrets())
	checkErr := n.cfg.Mounter.Check(ctx, staging)
	n.observe(staging, staging, checkErr)
	switch err := checkErr; {
	case err == nil:
	case errors.Is(err, mounter.ErrNotMounted):
		// Nothing mounted, yet the node's record says staged: a repair
		// took the broken mount down and could not mount it again (the
		// server not back yet). The kubelet never stages again a volume
		// it takes for staged: mounted again from the record, as a
		// broken mount is.
		if _, serr := n.nodeState().Staged(staging); serr != nil {
			return nil, fail(errNotStaged, "volume %s is not staged at %s", shownID(req.GetVolumeId()), staging)
		}
		if rerr := n.repairStaging(ctx, staging); rerr != nil {
			return nil, fail(nil, "volume %s is not mounted at its staging path %s, and mounting it again failed: %v", shownID(req.GetVolumeId()), staging, rerr)
		}
	case rotErr != nil:
		// What the failing mount needs is the password the server takes.
		return nil, rotErr
	case errors.Is(err, mounter.ErrNotResponding):
		return nil, fail(mounter.ErrNotResponding, "the file server does not answer: %v", err)
	case errors.Is(err, mounter.ErrBroken):
		if rerr := n.repairStaging(ctx, staging); rerr != nil {
			return nil, fail(nil, "staged mount is broken (%v) and remounting failed: %v", err, rerr)
		}
	default:
		// The mount answers but cannot be inspected: it is left as it is.
		return nil, toStatus(fmt.Errorf("staged volume %s: %w", shownID(req.GetVolumeId()), err))
	}
	readOnly := req.GetReadonly() || isReadOnlyMode(req.GetVolumeCapability())
	singleWriter := req.GetVolumeCapability().GetAccessMode().GetMode() == csi.VolumeCapability_AccessMode_SINGLE_NODE_SINGLE_WRITER
	if other, ok := n.otherPublication(ctx, req.GetVolumeId(), req.GetTargetPath()); ok && (singleWriter || other.SingleWriter) {
		return nil, fail(errPublished, "volume %s is SINGLE_NODE_SINGLE_WRITER and already published at %s", shownID(req.GetVolumeId()), other.TargetPath)
	}
	pub, perr := n.publishedAt(req.GetTargetPath())
	republish := perr == nil
	// A record that names no volume is one of the earliest versions, which
	// kept neither it nor the single-writer flag: it refuses nothing (the
	// kubelet republishes every pod's target again and again:
	// requiresRepublish).
	if republish && pub.VolumeID != "" && (pub.VolumeID != req.GetVolumeId() || pub.ReadOnly != readOnly || pub.SingleWriter != singleWriter) &&
		!errors.Is(n.cfg.Mounter.Check(ctx, req.GetTargetPath()), mounter.ErrNotMounted) {
		// Spec, NodePublishVolume: the same target with other arguments
		// (T1=T2, P1!=P2) is ALREADY_EXISTS, "Volume published but is
		// incompatible". Reused as it is, the target would stay as the
		// first publish made it (a pod that asked to write gets a
		// read-only bind and an OK), or be remounted read-only under a
		// pod already writing there. A record whose target is no longer
		// mounted is stale, and the publish goes on.
		return nil, status.Errorf(codes.AlreadyExists, "%s is already published (volume %s, read-only %v, single writer %v), and this publish asks for volume %s, read-only %v, single writer %v: unpublish it first, or publish at another target",
			req.GetTargetPath(), shownID(pub.VolumeID), pub.ReadOnly, pub.SingleWriter, shownID(req.GetVolumeId()), readOnly, singleWriter)
	}
	if err := n.cfg.Mounter.Publish(ctx, staging, req.GetTargetPath(), readOnly); err != nil {
		return nil, toStatus(err)
	}
	rec := nodestate.Published{VolumeID: req.GetVolumeId(), StagingPath: staging, TargetPath: req.GetTargetPath(), ReadOnly: readOnly, SingleWriter: singleWriter}
	if err := n.nodeState().SavePublished(rec); err != nil {
		klog.FromContext(ctx).Error(err, "cannot save publish state")
	}
	if rotErr != nil {
		return nil, n.rotationFailed(ctx, republish, rotErr)
	}
	return &csi.NodePublishVolumeResponse{}, nil
}

func (n *node) NodeUnpublishVolume(ctx context.Context, req *csi.NodeUnpublishVolumeRequest) (*csi.NodeUnpublishVolumeResponse, error) {
	if req.GetVolumeId() == "" {
		return nil, status.Error(codes.InvalidArgument, "volume ID is missing")
	}
	if req.GetTargetPath() == "" {
		return nil, status.Error(codes.InvalidArgument, "target path is missing")
	}
	unlock, err := n.nodeLocks.lockVolume(req.GetVolumeId())
	if err != nil {
		return nil, err
	}
	defer unlock()
	if err := n.targetHeldByOther(ctx, req.GetTargetPath(), req.GetVolumeId()); err != nil {
		return nil, err
	}
	if n.isInline(req.GetTargetPath()) {
		return n.unpublishInline(ctx, req.GetTargetPath())
	}
	if err := n.cfg.Mounter.Unpublish(ctx, req.GetTargetPath()); err != nil {
		return nil, toStatus(err)
	}
	n.nodeState().DropPublished(req.GetTargetPath())
	// An inline volume whose plugin died after keeping its credentials and
	// before writing any record looks like this: its credentials go too.
	n.nodeState().DropStaged(req.GetTargetPath())
	return &csi.NodeUnpublishVolumeResponse{}, nil
}

// isInline says the volume published at target is an inline volume: its
// publish record says so, or, where that record was never saved (the
// plugin died between the mount and the record), a mount record at the
// target itself, where only an inline volume is mounted (a staged volume's
// mount is at its staging path). Taken down as an inline volume, its mount
// record and credentials go, and on Windows its share's mapping with its
// last volume.
func (n *node) isInline(target string) bool {
	if pub, err := n.nodeState().Published(target); err == nil {
		return pub.Ephemeral
	}
	st, err := n.nodeState().Staged(target)
	return err == nil && st.Request.StagingPath == target
}

// repairPath brings a broken volume path back: the staging mount is
// remounted, and a published path is bound to it again.
func (n *node) repairPath(ctx context.Context, path, stagingHint string) error {
	if pub, err := n.nodeState().Published(path); err == nil {
		if pub.Ephemeral {
			return n.repairStaging(ctx, pub.TargetPath)
		}
		// A staging path with nothing mounted is one a failed repair
		// left: mounted again from its record (no record: not staged,
		// an error), before the pod's target is touched, which is
		// never taken down when it cannot be bound again.
		switch cerr := n.cfg.Mounter.Check(ctx, pub.StagingPath); {
		case errors.Is(cerr, mounter.ErrBroken), errors.Is(cerr, mounter.ErrNotMounted):
			if err := n.repairStaging(ctx, pub.StagingPath); err != nil {
				return err
			}
		case cerr != nil:
			return fmt.Errorf("staging path %s: %w", pub.StagingPath, cerr)
		}
		if err := n.cfg.Mounter.Unpublish(ctx, path); err != nil {
			return err
		}
		return n.cfg.Mounter.Publish(ctx, pub.StagingPath, path, pub.ReadOnly)
	}
	staging := path
	if stagingHint != "" {
		staging = stagingHint
	}
	return n.repairStaging(ctx, staging)
}

func (n *node) NodeGetVolumeStats(ctx context.Context, req *csi.NodeGetVolumeStatsRequest) (*csi.NodeGetVolumeStatsResponse, error) {
	if req.GetVolumeId() == "" {
		return nil, status.Error(codes.InvalidArgument, "volume ID is missing")
	}
	path := req.GetVolumePath()
	if path == "" {
		return nil, status.Error(codes.InvalidArgument, "volume path is missing")
	}
	if err := n.volumeNotAt(req.GetVolumeId(), path, req.GetStagingTargetPath()); err != nil {
		return nil, err
	}
	// Check before any stat of our own: a stat of a hung mount would hang.
	st, err := n.cfg.Mounter.Stats(ctx, path)
	n.observe(path, req.GetStagingTargetPath(), err)
	if errors.Is(err, mounter.ErrNotMounted) {
		if _, lerr := os.Lstat(path); errors.Is(lerr, os.ErrNotExist) {
			return nil, fail(fs.ErrNotExist, "volume path %s does not exist", path)
		}
		return nil, fail(fs.ErrNotExist, "no volume is mounted at %s", path)
	}
	if errors.Is(err, mounter.ErrNotResponding) {
		// Not broken, only waiting for the server: remounting would hurt.
		return nil, fail(mounter.ErrNotResponding, "volume at %s: the file server does not answer: %v", path, err)
	}
	// Only a mount broken for good is remounted. Anything else, such as a
	// root-squashed server denying the plugin a look into a volume root only
	// its owner may read, is reported and the pod's mount left alone.
	if errors.Is(err, mounter.ErrBroken) && ctx.Err() == nil {
		// A broken mount: remount it now rather than wait for a new pod,
		// under the volume's lock as every other mount and unmount of it:
		// an unstage that went on meanwhile would answer OK and then find
		// the volume mounted again, for good. The repair reads the node's
		// records under the lock, so it mounts nothing once unstaged.
		unlock, lerr := n.nodeLocks.lockVolume(req.GetVolumeId())
		if lerr != nil {
			return nil, lerr
		}
		defer unlock()
		if rerr := n.repairPath(ctx, path, req.GetStagingTargetPath()); rerr != nil {
			return nil, fail(nil, "volume at %s is broken (%v) and remounting failed: %v", path, err, rerr)
		}
		klog.FromContext(ctx).Info("remounted broken volume", "path", path)
		st, err = n.cfg.Mounter.Stats(ctx, path)
	}
	if err != nil {
		return nil, toStatus(err)
	}
	return &csi.NodeGetVolumeStatsResponse{Usage: n.volumeUsage(path, req.GetStagingTargetPath(), st)}, nil
}

// NodeGetVolumeHealth reports INACCESSIBLE while the mount at the path is
// broken; it only looks, the repair happens in stats and publish calls.
func (n *node) NodeGetVolumeHealth(ctx context.Context, req *csi.NodeGetVolumeHealthRequest) (*csi.NodeGetVolumeHealthResponse, error) {
	if req.GetVolumeId() == "" {
		return nil, status.Error(codes.InvalidArgument, "volume ID is missing")
	}
	path := req.GetVolumePublishPath()
	if path == "" {
		path = req.GetStagingTargetPath()
	}
	health := &csi.VolumeHealth{VolumeId: req.GetVolumeId()}
	if path == "" {
		return &csi.NodeGetVolumeHealthResponse{VolumeHealth: health}, nil
	}

	err := n.cfg.Mounter.Check(ctx, path)
	n.observe(path, req.GetStagingTargetPath(), err)
	// Only a mount that works: a broken one's last count says nothing now.
	if err == nil {
		if msg := n.overCapacity(path, req.GetStagingTargetPath()); msg != "" {
			// Enforcement is the server's (a quota); the node can only say.
			health.HealthStatuses = append(health.HealthStatuses, &csi.VolumeHealth_VolumeHealthEntry{
				Status: csi.VolumeHealthErrorType_DEGRADED, Reason: "OverCapacity", Message: msg,
			})
		}
	}
	if err != nil {
		reason := "MountBroken"
		switch {
		case errors.Is(err, mounter.ErrNotMounted):
			if _, lerr := os.Lstat(path); errors.Is(lerr, os.ErrNotExist) {
				return nil, fail(fs.ErrNotExist, "volume path %s does not exist", path)
			}
			reason = "NotMounted"
		case errors.Is(err, mounter.ErrNotResponding):
			reason = "ServerNotResponding"
		case !errors.Is(err, mounter.ErrBroken):
			// The server answers, but not to the plugin: the pod may well
			// use the volume, so it is not reported inaccessible.
			health.HealthStatuses = append(health.HealthStatuses, &csi.VolumeHealth_VolumeHealthEntry{
				Status: csi.VolumeHealthErrorType_UNKNOWN_VOLUME_HEALTH_TYPE, Reason: "CannotInspect", Message: err.Error(),
			})
			return &csi.NodeGetVolumeHealthResponse{VolumeHealth: health}, nil
		}
		health.HealthStatuses = append(health.HealthStatuses, &csi.VolumeHealth_VolumeHealthEntry{
			Status: csi.VolumeHealthErrorType_INACCESSIBLE, Reason: reason, Message: err.Error(),
		})
	}
	return &csi.NodeGetVolumeHealthResponse{VolumeHealth: health}, nil
}

// kerberosMount readies a Linux Kerberos mount (sec=krb5). The kernel gets
// its tickets from cifs.upcall on the host. With --krb5-cache-uids the
// volume's mount logs in as its Secret's principal: sr.CredUID is the uid
// whose ticket cache the node writes from the Secret and renews (see
// pkg/krb5cache). Without it, cifs.upcall finds root's tickets (cruid=0):
// the node's own identity, not the Secret's, which only the operator may
// allow (--krb5-host-tickets). An inline volume, which a tenant writes in
// a pod, never mounts with Kerberos, on NFS either (see inlineNFSSecurity).
// added is true when the volume was not using its uid before, for the
// caller to undo on a failed stage.
func (n *node) kerberosMount(ctx context.Context, sr *mounter.StageRequest, inline bool) (added bool, err error) {
	if inline && sr.Source.Protocol == source.NFS {
		return false, inlineNFSSecurity(sr)
	}
	if inline && sr.Source.Protocol == source.SMB && mounter.OptionsAskForKerberos(sr.MountOptions) {
		// sec=krb5 in the options, without auth: krb5, is mounted with
		// the mounting uid's tickets: root's, the node's.
		return false, fail(share.ErrPrecondition, "inline volume: mount option sec=krb5 asks for Kerberos, which a Linux node would log in with using the node's own tickets, not the pod's Secret: inline volumes use auth ntlm (or negotiate with a username)")
	}
	if sr.Source.Protocol != source.SMB || n.cfg.Mounter.OS() != "linux" {
		return false, nil
	}
	if !mounter.KerberosMount(sr.Source, sr.Credentials) {
		if mounter.OptionsAskForKerberos(sr.MountOptions) && !n.cfg.Krb5HostTickets {
			// The same gate as auth krb5 without a cache per principal:
			// the host's tickets are the operator's to hand out.
			return false, fail(share.ErrPrecondition, "mount option sec=krb5 (without auth krb5 in the source) logs in with the host's own tickets, which this node allows only when its plugin runs with --krb5-host-tickets; or use auth=krb5 in the source with --krb5-cache-uids, to log in as the Secret's principal (docs/kerberos.md)")
		}
		return false, nil
	}
	if inline {
		return false, fail(share.ErrPrecondition, "inline volume: %s asks for Kerberos, which a Linux node would log in with using the node's own tickets, not the pod's Secret: inline volumes use auth ntlm (or negotiate with a username)", sr.Source)
	}
	caches := n.cfg.Krb5Caches
	if caches == nil {
		if !n.cfg.Krb5HostTickets {
			return false, fail(share.ErrPrecondition, "%s asks for Kerberos (auth %s), and this node mounts Kerberos volumes only when its plugin runs with --krb5-cache-uids (a ticket cache per Secret's principal) or --krb5-host-tickets (the host's own tickets); see docs/kerberos.md", sr.Source, sr.Source.EffectiveAuth())
		}
		return false, nil
	}
	if p, ok := n.cfg.Mounter.(mounter.UpcallTargeter); ok {
		if err := p.UpcallTargetSupported(); err != nil {
			return false, fail(share.ErrPrecondition, "%s asks for Kerberos with a ticket cache of its Secret's principal (--krb5-cache-uids), which needs the CIFS mount option upcall_target=mount: %v; use a kernel that has it (Linux 6.13, or 6.12.30 and later), or --krb5-host-tickets", sr.Source, err)
		}
	}
	uid, added, err := caches.Acquire(ctx, sr.StagingPath, sr.Credentials, sr.Source.Host)
	if err != nil {
		return false, toStatus(fmt.Errorf("a Kerberos ticket cache for %s: %w", sr.Source, err))
	}
	sr.CredUID = &uid
	return added, nil
}

// stageFailed gives back what a failed stage holds: the Kerberos uid it
// took (added), and, when nothing is mounted at the staging path, the
// record and uid of an earlier stage of the volume. Those outlive the mount
// when the node reboots (the state directory is on the host's disk), and a
// kubelet that meets a stage failing for good may never unstage the volume:
// kept, the uid's tickets would be renewed, and the record's credentials
// kept, for a mount that is not there, forever. A mount that is there
// (still serving pods while a new stage fails) keeps both.
//
// The stage may have failed because its deadline ran out: the look at the
// mounts gets a deadline of its own, since a look with a spent one times
// out at once, which says "maybe mounted", and kept the record of a
// volume not mounted anywhere.
func (n *node) stageFailed(ctx context.Context, staging string, added bool) {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), stageFailedLook)
	defer cancel()
	if !added {
		if n.mountedFrom(ctx, staging) {
			return
		}
		if _, err := n.nodeState().Staged(staging); err == nil {
			klog.FromContext(ctx).Info("the stage failed and nothing is mounted at the staging path: forgetting the earlier stage's record and Kerberos identity", "path", staging)
		}
		n.nodeState().DropStaged(staging)
		n.mounts.unstaged(staging)
	}
	n.releaseKerberos(ctx, staging)
}

// stageFailedLook bounds stageFailed's look at the mounts: a probe of each
// (mounter.Linux's own bound is 5 s), on the staging path and a pod's few
// targets at most.
const stageFailedLook = 30 * time.Second

// mountedFrom says a mount may still serve pods from the volume staged at
// staging: the staging mount, or a pod's bind of it, which outlives the
// staging mount's unmount (a failed repair unmounts a broken staging mount
// and mounts again) and reconnects as the same CIFS session, with the same
// Kerberos uid's tickets.
func (n *node) mountedFrom(ctx context.Context, staging string) bool {
	if err := n.cfg.Mounter.Check(ctx, staging); !errors.Is(err, mounter.ErrNotMounted) {
		return true
	}
	for _, p := range n.nodeState().PublishedFrom(staging) {
		if err := n.cfg.Mounter.Check(ctx, p.TargetPath); !errors.Is(err, mounter.ErrNotMounted) {
			return true
		}
	}
	return false
}

// releaseKerberos ends the volume's use of its Kerberos uid, if it has one.
func (n *node) releaseKerberos(ctx context.Context, staging string) {
	if c := n.cfg.Krb5Caches; c != nil {
		if err := c.Release(staging); err != nil {
			klog.FromContext(ctx).Error(err, "cannot record that the volume no longer uses its Kerberos ticket cache", "path", staging)
		}
	}
}
