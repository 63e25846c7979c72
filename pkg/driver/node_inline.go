package driver

import (
	"context"
	"fmt"
	"io/fs"
	"strings"

	"github.com/container-storage-interface/spec/lib/go/csi"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"k8s.io/klog/v2"

	"github.com/fileshare-csi/fileshare-csi/pkg/mounter"
	"github.com/fileshare-csi/fileshare-csi/pkg/nodestate"
	"github.com/fileshare-csi/fileshare-csi/pkg/share"
	"github.com/fileshare-csi/fileshare-csi/pkg/source"
	"github.com/fileshare-csi/fileshare-csi/pkg/volume"
)

// publishInline mounts a CSI inline volume for one pod: the share directory
// the pod's volumeAttributes name (source, subDir, mountOptions), with the
// credentials of its nodePublishSecretRef, straight at the target. Nothing
// is created on the server; the directory must exist. Only sources within
// the node's --inline-sources are mounted.
func (n *node) publishInline(ctx context.Context, req *csi.NodePublishVolumeRequest) (*csi.NodePublishVolumeResponse, error) {
	vctx := req.GetVolumeContext()
	if len(n.cfg.InlineSources) == 0 {
		return nil, fail(errInlineOff, "inline volumes are turned off on this node: the cluster administrator allows shares for them with the node plugin's --inline-sources (docs/inline-volumes.md)")
	}
	if vctx[ContextSource] == "" {
		return nil, status.Errorf(codes.InvalidArgument, "inline volume: volumeAttributes.%s is missing: name the share, e.g. nfs://server/export/dir or smb://server/share/dir", ContextSource)
	}
	src, sub, err := nodeVolume(req.GetVolumeId(), vctx)
	if err != nil {
		return nil, status.Errorf(codes.InvalidArgument, "inline volume: %v", err)
	}
	root, rel, ok := n.cfg.InlineSources.Root(src, sub)
	if !ok {
		where := src.String()
		if sub != "" {
			where += " (subDir " + sub + ")"
		}
		return nil, fail(fs.ErrPermission, "inline volume: %s is not within the shares this node allows for inline volumes (%s); ask the cluster administrator to add it to the node plugin's --inline-sources",
			where, n.cfg.InlineSources)
	}
	if rel != "" {
		if err := checkInlinePath(rel); err != nil {
			return nil, status.Errorf(codes.InvalidArgument, "inline volume: %s: the path below the allowed share %s: %v; name a directory of your own below it", src, root, err)
		}
	}
	options, err := volume.ParseMountOptions(vctx[ContextMountOptions])
	if err != nil {
		return nil, status.Errorf(codes.InvalidArgument, "inline volume: volumeAttributes.%s: %v", ContextMountOptions, err)
	}
	if err := checkMountGroup(req.GetVolumeCapability().GetMount().GetVolumeMountGroup()); err != nil {
		return nil, err
	}
	unlock, err := n.nodeLocks.lockVolume(req.GetVolumeId())
	if err != nil {
		return nil, err
	}
	defer unlock()
	target := req.GetTargetPath()
	if prev, err := n.nodeState().Published(target); err == nil && prev.Ephemeral {
		// The periodic republish (requiresRepublish) of an inline mount:
		// a changed password in its Secret is handed over first (a mount
		// whose server dropped the session needs it to answer again), and
		// a mount that then works is left as it is. The record keeps the
		// credentials the mount has until the kernel has the new ones.
		rotErr := n.rotateCredentials(ctx, target, req.GetSecrets())
		if cerr := n.cfg.Mounter.Check(ctx, target); cerr == nil || rotErr != nil {
			if rotErr != nil {
				return nil, rotErr
			}
			return &csi.NodePublishVolumeResponse{}, nil
		}
	}
	// The server resolves the allowed source only; what the pod wrote below
	// it is opened on the node, where no link is followed.
	sr := mounter.StageRequest{
		Source:       root,
		SubDir:       rel,
		StagingPath:  target,
		MountOptions: append(options, req.GetVolumeCapability().GetMount().GetMountFlags()...),
		Credentials:  n.nodeCredentials(req.GetSecrets()),
		MountGroup:   inlineMountGroup(ctx, src, req.GetVolumeCapability().GetMount().GetVolumeMountGroup()),
		ReadOnly:     req.GetReadonly() || isReadOnlyMode(req.GetVolumeCapability()),
	}
	if _, err := n.kerberosMount(ctx, &sr, true); err != nil {
		return nil, err
	}
	// On Windows an inline volume maps its server as a stage does, for the
	// whole node: it is held to the same rule (one set of credentials per
	// server, never another volume's mapping), against staged and inline
	// volumes alike, until its records are saved.
	releaseServer, err := n.claimServer(ctx, req.GetVolumeId(), &sr, inlineSecret)
	if err != nil {
		return nil, err
	}
	defer releaseServer()
	if err := n.stage(ctx, sr); err != nil {
		return nil, toStatus(fmt.Errorf("inline volume: %w", err))
	}
	// The staging record lets a broken inline mount be remounted, as a
	// staged one is, and on Windows tells the server's other volumes who
	// its mapping logs on as; the publish record says how to take it down.
	if err := n.nodeState().SaveStaged(target, n.stagedRecord(req.GetVolumeId(), sr)); err != nil {
		return nil, recordFailed(target, err)
	}
	if err := n.nodeState().SavePublished(nodestate.Published{VolumeID: req.GetVolumeId(), StagingPath: target, TargetPath: target, ReadOnly: sr.ReadOnly, Ephemeral: true}); err != nil {
		return nil, recordFailed(target, err)
	}
	n.mounts.staged(target, string(src.Protocol))
	return &csi.NodePublishVolumeResponse{}, nil
}

// unpublishInline takes an inline volume's mount down as an unstage does.
func (n *node) unpublishInline(ctx context.Context, target string) (*csi.NodeUnpublishVolumeResponse, error) {
	releaseServer, err := n.lockServerOf(ctx, target)
	if err != nil {
		return nil, err
	}
	defer releaseServer()
	n.forgetUsage(ctx, target) // a usage walk under way keeps the mount busy
	if err := n.cfg.Mounter.Unstage(ctx, target); err != nil {
		return nil, toStatus(err)
	}
	n.nodeState().DropStaged(target)
	n.nodeState().DropPublished(target)
	n.mounts.unstaged(target)
	return &csi.NodeUnpublishVolumeResponse{}, nil
}

// checkInlinePath holds rel, the path of an inline volume below the
// allowed source it lies in (the source's own path and its subDir
// together), to the rules of a subDir (volume.ValidateSubDir): the subDir
// alone is checked, but the path a pod writes in its source is as much its
// choice. Without it, nfs://nas/exports/.fileshare-csi is mounted where
// the allow-list names a class's base, nfs://nas/exports: the controller's
// records of every volume of the class, for the pod to read and rewrite.
// The records directory is refused at any depth and in any spelling a
// server or a Windows node takes for it (volume.IsMetadataDir: any case,
// trailing periods and spaces): an allow-list entry may lie above a class's
// base, and no inline volume has any business with the controller's
// records.
func checkInlinePath(rel string) error {
	if err := volume.ValidateSubDir(rel); err != nil {
		return err
	}
	for _, c := range strings.Split(rel, "/") {
		if volume.IsMetadataDir(c) {
			return fmt.Errorf("%q: %s is where the driver keeps its records", rel, volume.MetadataDir)
		}
	}
	return nil
}

// inlineNFSSecurity holds an inline NFS volume to the rule that a pod's
// inline volume never mounts with Kerberos. An NFS sec=krb5 mount logs in
// through the host's rpc.gssd: as the node's machine principal for uid 0
// and, for another uid, with whatever ticket cache the host has for it
// (the --krb5-cache-uids caches of staged volumes among them), none of it
// the pod's. So a sec= naming a Kerberos flavour anywhere in its list is
// refused, and a mount whose options name no sec= is given sec=sys: NFSv4
// negotiates the flavour otherwise, and takes krb5 by itself from an
// export that offers only that.
func inlineNFSSecurity(sr *mounter.StageRequest) error {
	if mounter.OptionsNameKerberos(sr.MountOptions) {
		return fail(share.ErrPrecondition, "inline volume: an NFS mount option sec= names Kerberos (krb5, krb5i or krb5p), which a Linux node would log in with using the node's own tickets, not the pod's: inline NFS volumes mount with sec=sys; leave sec out or use sec=sys, or mount the export through a PersistentVolume")
	}
	if !mounter.OptionsNameSec(sr.MountOptions) {
		sr.MountOptions = append(sr.MountOptions, "sec=sys")
	}
	return nil
}

// inlineMountGroup is the fsGroup an inline volume's mount gets. On NFS the
// node gives a volume's root to the group on the server (chgrp, g+rwxs): a
// directory the driver made for a claim. An inline volume's directory is
// whatever an allowed share holds, another team's perhaps, and the pod that
// names it must not take it over, so it is left as it is there; on SMB the
// group is the mount's gid=, which changes nothing on the server.
func inlineMountGroup(ctx context.Context, src source.Source, group string) string {
	if group != "" && src.Protocol == source.NFS {
		klog.FromContext(ctx).Info("inline NFS volume: the pod's fsGroup is not given the directory on the server, which is not the driver's to change; grant the group access there", "gid", group, "source", src.String())
		return ""
	}
	return group
}
