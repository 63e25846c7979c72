package csiv0

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io/fs"
	"os"
	"path/filepath"

	csi1 "github.com/container-storage-interface/spec/lib/go/csi"
	"google.golang.org/grpc/status"
	"k8s.io/klog/v2"

	"github.com/fileshare-csi/fileshare-csi/pkg/csiv0/csi"
)

// stagingPath is where NodePublishVolume stages a volume for one target:
// one staging per volume and target, so NodeUnpublishVolume, which names
// both, finds it again without a record, and never unstages what another
// target still uses.
func (a *Adapter) stagingPath(volumeID, target string) string {
	sum := sha256.Sum256([]byte(volumeID + "\x00" + target))
	return filepath.Join(a.cfg.StagingDir, hex.EncodeToString(sum[:16]))
}

// nodeTarget checks what both node calls carry, and returns the v1 volume
// ID; invalid makes the call's own error for an ID that is not ours.
func nodeTarget(v *csi.Version, id *csi.VolumeID, target string, invalid func(msg string) *csi.Error) (string, *csi.Error) {
	if e := checkVersion(v); e != nil {
		return "", e
	}
	switch {
	case id == nil:
		return "", missingField("volume_id")
	case target == "":
		return "", missingField("target_path")
	case volumeID(id) == "":
		return "", invalid(notOurs)
	}
	return volumeID(id), nil
}

// NodePublishVolume stages the volume and publishes it from there. When
// this call staged it and the publish fails, it unstages it again, so a CO
// that gives up leaves no mount behind.
func (a *Adapter) NodePublishVolume(ctx context.Context, req *csi.NodePublishVolumeRequest) (*csi.NodePublishVolumeResponse, error) {
	fail := func(e *csi.Error) (*csi.NodePublishVolumeResponse, error) {
		return &csi.NodePublishVolumeResponse{Reply: &csi.NodePublishVolumeResponse_Error{Error: failed(ctx, "NodePublishVolume", e)}}, nil
	}
	id, e := nodeTarget(req.GetVersion(), req.GetVolumeId(), req.GetTargetPath(), func(msg string) *csi.Error {
		return nodePublishError(csi.Error_NodePublishVolumeError_INVALID_VOLUME_ID, msg)
	})
	if e == nil && req.GetVolumeCapability() == nil {
		e = missingField("volume_capability")
	}
	if e != nil {
		return fail(e)
	}
	secrets, e := a.secrets()
	if e != nil {
		return fail(e)
	}
	if err := os.MkdirAll(a.cfg.StagingDir, 0o750); err != nil {
		return fail(generalError(csi.Error_GeneralError_UNDEFINED, false, "staging directory: "+err.Error()))
	}
	staging := a.stagingPath(id, req.GetTargetPath())
	_, lerr := os.Lstat(staging)
	fresh := errors.Is(lerr, fs.ErrNotExist)
	capability := v1Capability(req.GetVolumeCapability(), everyMode)
	vctx := req.GetVolumeMetadata().GetValues()
	pctx := req.GetPublishVolumeInfo().GetValues()
	if _, err := a.cfg.Node.NodeStageVolume(ctx, &csi1.NodeStageVolumeRequest{
		VolumeId: id, PublishContext: pctx, StagingTargetPath: staging,
		VolumeCapability: capability, Secrets: secrets, VolumeContext: vctx,
	}); err != nil {
		return fail(fromV1(err, nodePublishCodes, nodePublishError))
	}
	if _, err := a.cfg.Node.NodePublishVolume(ctx, &csi1.NodePublishVolumeRequest{
		VolumeId: id, PublishContext: pctx, StagingTargetPath: staging, TargetPath: req.GetTargetPath(),
		VolumeCapability: capability, Readonly: req.GetReadonly(), Secrets: secrets, VolumeContext: vctx,
	}); err != nil {
		if fresh {
			a.unstage(ctx, id, staging)
		}
		return fail(fromV1(err, nodePublishCodes, nodePublishError))
	}
	return &csi.NodePublishVolumeResponse{Reply: &csi.NodePublishVolumeResponse_Result_{Result: &csi.NodePublishVolumeResponse_Result{}}}, nil
}

// unstage undoes a staging this adapter made; what it cannot undo it logs,
// and NodeUnpublishVolume tries again.
func (a *Adapter) unstage(ctx context.Context, id, staging string) {
	if _, err := a.cfg.Node.NodeUnstageVolume(ctx, &csi1.NodeUnstageVolumeRequest{VolumeId: id, StagingTargetPath: staging}); err != nil {
		klog.FromContext(ctx).Error(err, "CSI v0.1: cannot unstage after a failed publish", "volume", id, "staging", staging)
	}
}

func (a *Adapter) NodeUnpublishVolume(ctx context.Context, req *csi.NodeUnpublishVolumeRequest) (*csi.NodeUnpublishVolumeResponse, error) {
	fail := func(e *csi.Error) (*csi.NodeUnpublishVolumeResponse, error) {
		return &csi.NodeUnpublishVolumeResponse{Reply: &csi.NodeUnpublishVolumeResponse_Error{Error: failed(ctx, "NodeUnpublishVolume", e)}}, nil
	}
	id, e := nodeTarget(req.GetVersion(), req.GetVolumeId(), req.GetTargetPath(), func(msg string) *csi.Error {
		return nodeUnpublishError(csi.Error_NodeUnpublishVolumeError_INVALID_VOLUME_ID, msg)
	})
	if e != nil {
		return fail(e)
	}
	if _, err := a.cfg.Node.NodeUnpublishVolume(ctx, &csi1.NodeUnpublishVolumeRequest{VolumeId: id, TargetPath: req.GetTargetPath()}); err != nil {
		return fail(fromV1(err, nodeUnpublishCodes, nodeUnpublishError))
	}
	staging := a.stagingPath(id, req.GetTargetPath())
	if _, err := a.cfg.Node.NodeUnstageVolume(ctx, &csi1.NodeUnstageVolumeRequest{VolumeId: id, StagingTargetPath: staging}); err != nil {
		return fail(fromV1(err, nodeUnpublishCodes, nodeUnpublishError))
	}
	// The mounter takes its mount points away; one it left (another OS's
	// mounter) goes if empty. Never more than that directory.
	if err := os.Remove(staging); err != nil && !errors.Is(err, fs.ErrNotExist) {
		klog.FromContext(ctx).Info("CSI v0.1: staging path left in place", "path", staging, "reason", err.Error())
	}
	return &csi.NodeUnpublishVolumeResponse{Reply: &csi.NodeUnpublishVolumeResponse_Result_{Result: &csi.NodeUnpublishVolumeResponse_Result{}}}, nil
}

func (a *Adapter) GetNodeID(ctx context.Context, req *csi.GetNodeIDRequest) (*csi.GetNodeIDResponse, error) {
	fail := func(e *csi.Error) (*csi.GetNodeIDResponse, error) {
		return &csi.GetNodeIDResponse{Reply: &csi.GetNodeIDResponse_Error{Error: failed(ctx, "GetNodeID", e)}}, nil
	}
	if e := checkVersion(req.GetVersion()); e != nil {
		return fail(e)
	}
	info, err := a.cfg.Node.NodeGetInfo(ctx, &csi1.NodeGetInfoRequest{})
	if err != nil {
		return fail(general(status.Convert(err)))
	}
	return &csi.GetNodeIDResponse{Reply: &csi.GetNodeIDResponse_Result_{Result: &csi.GetNodeIDResponse_Result{
		NodeId: &csi.NodeID{Values: map[string]string{KeyNodeID: info.GetNodeId()}},
	}}}, nil
}

func (a *Adapter) ProbeNode(ctx context.Context, req *csi.ProbeNodeRequest) (*csi.ProbeNodeResponse, error) {
	e := checkVersion(req.GetVersion())
	if e == nil {
		e = a.ready(ctx)
	}
	if e != nil {
		return &csi.ProbeNodeResponse{Reply: &csi.ProbeNodeResponse_Error{Error: failed(ctx, "ProbeNode", e)}}, nil
	}
	return &csi.ProbeNodeResponse{Reply: &csi.ProbeNodeResponse_Result_{Result: &csi.ProbeNodeResponse_Result{}}}, nil
}

// NodeGetCapabilities: v0.1 names no node RPC capability (staging is the
// adapter's own business), only the volumes the node mounts.
func (a *Adapter) NodeGetCapabilities(ctx context.Context, req *csi.NodeGetCapabilitiesRequest) (*csi.NodeGetCapabilitiesResponse, error) {
	if e := checkVersion(req.GetVersion()); e != nil {
		return &csi.NodeGetCapabilitiesResponse{Reply: &csi.NodeGetCapabilitiesResponse_Error{Error: failed(ctx, "NodeGetCapabilities", e)}}, nil
	}
	return &csi.NodeGetCapabilitiesResponse{Reply: &csi.NodeGetCapabilitiesResponse_Result_{Result: &csi.NodeGetCapabilitiesResponse_Result{
		Capabilities: []*csi.NodeServiceCapability{{Type: &csi.NodeServiceCapability_VolumeCapability{VolumeCapability: mountCapability()}}},
	}}}, nil
}
