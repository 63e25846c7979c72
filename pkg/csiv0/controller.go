package csiv0

import (
	"context"
	"errors"
	"fmt"
	"math"

	csi1 "github.com/container-storage-interface/spec/lib/go/csi"
	"google.golang.org/grpc/status"

	"github.com/fileshare-csi/fileshare-csi/pkg/csiv0/csi"
	"github.com/fileshare-csi/fileshare-csi/pkg/volume"
)

// everyMode is the access mode v0.1 capabilities leave out: a file share
// volume allows every mode, and this is the widest a CO may later use.
const everyMode = csi1.VolumeCapability_AccessMode_MULTI_NODE_MULTI_WRITER

// v1Capability is c with the access mode v0.1 keeps elsewhere. A
// capability with neither access type stays without one, for the v1
// service to refuse.
func v1Capability(c *csi.VolumeCapability, mode csi1.VolumeCapability_AccessMode_Mode) *csi1.VolumeCapability {
	out := &csi1.VolumeCapability{AccessMode: &csi1.VolumeCapability_AccessMode{Mode: mode}}
	switch {
	case c.GetBlock() != nil:
		out.AccessType = &csi1.VolumeCapability_Block{Block: &csi1.VolumeCapability_BlockVolume{}}
	case c.GetMount() != nil:
		out.AccessType = &csi1.VolumeCapability_Mount{Mount: &csi1.VolumeCapability_MountVolume{
			FsType: c.GetMount().GetFsType(), MountFlags: c.GetMount().GetMountFlags(),
		}}
	}
	return out
}

func v1Capabilities(caps []*csi.VolumeCapability, mode csi1.VolumeCapability_AccessMode_Mode) []*csi1.VolumeCapability {
	out := make([]*csi1.VolumeCapability, len(caps))
	for i, c := range caps {
		out[i] = v1Capability(c, mode)
	}
	return out
}

// mountCapability is what the services advertise: mount volumes of any
// file system type the share has.
func mountCapability() *csi.VolumeCapability {
	return &csi.VolumeCapability{Value: &csi.VolumeCapability_Mount{Mount: &csi.VolumeCapability_MountVolume{}}}
}

func volumeInfo(v *csi1.Volume) *csi.VolumeInfo {
	return &csi.VolumeInfo{
		CapacityBytes: uint64(max(v.GetCapacityBytes(), 0)),
		AccessMode:    &csi.AccessMode{Mode: csi.AccessMode_Mode(everyMode)},
		Id:            &csi.VolumeID{Values: map[string]string{KeyVolumeID: v.GetVolumeId()}},
		Metadata:      &csi.VolumeMetadata{Values: v.GetVolumeContext()},
	}
}

// checkCreate answers, before anything is made, the v0.1 codes that v1
// folds into InvalidArgument: the name, an unknown key, a bad value. It
// runs the parameter parser the v1 service runs again.
func checkCreate(req *csi.CreateVolumeRequest) *csi.Error {
	if req.GetName() == "" {
		return missingField("name")
	}
	if len(req.GetVolumeCapabilities()) == 0 {
		return missingField("volume_capabilities")
	}
	params := req.GetParameters()
	if _, ok := params[volume.ParamSubDir]; !ok {
		// The name is the volume's directory when no subDir is set.
		if err := volume.ValidateSubDir(req.GetName()); err != nil {
			return createError(csi.Error_CreateVolumeError_INVALID_VOLUME_NAME, fmt.Sprintf("name %q: %v", req.GetName(), err))
		}
	}
	if _, err := volume.ParseParams(req.GetName(), params); err != nil {
		var unknown *volume.UnknownParameterError
		if errors.As(err, &unknown) {
			return createError(csi.Error_CreateVolumeError_UNSUPPORTED_PARAMETER_KEY, err.Error())
		}
		return createError(csi.Error_CreateVolumeError_INVALID_PARAMETER_VALUE, err.Error())
	}
	cr := req.GetCapacityRange()
	if cr.GetRequiredBytes() > math.MaxInt64 || cr.GetLimitBytes() > math.MaxInt64 {
		return createError(csi.Error_CreateVolumeError_UNSUPPORTED_CAPACITY_RANGE, fmt.Sprintf("capacity range %d-%d: at most %d bytes", cr.GetRequiredBytes(), cr.GetLimitBytes(), int64(math.MaxInt64)))
	}
	return nil
}

func (a *Adapter) CreateVolume(ctx context.Context, req *csi.CreateVolumeRequest) (*csi.CreateVolumeResponse, error) {
	fail := func(e *csi.Error) (*csi.CreateVolumeResponse, error) {
		return &csi.CreateVolumeResponse{Reply: &csi.CreateVolumeResponse_Error{Error: failed(ctx, "CreateVolume", e)}}, nil
	}
	if e := checkVersion(req.GetVersion()); e != nil {
		return fail(e)
	}
	if e := checkCreate(req); e != nil {
		return fail(e)
	}
	secrets, e := a.secrets()
	if e != nil {
		return fail(e)
	}
	v1req := &csi1.CreateVolumeRequest{
		Name:               req.GetName(),
		VolumeCapabilities: v1Capabilities(req.GetVolumeCapabilities(), everyMode),
		Parameters:         req.GetParameters(),
		Secrets:            secrets,
	}
	if cr := req.GetCapacityRange(); cr.GetRequiredBytes() != 0 || cr.GetLimitBytes() != 0 {
		v1req.CapacityRange = &csi1.CapacityRange{RequiredBytes: int64(cr.GetRequiredBytes()), LimitBytes: int64(cr.GetLimitBytes())}
	}
	resp, err := a.cfg.Controller.CreateVolume(ctx, v1req)
	if err != nil {
		return fail(fromV1(err, createCodes, createError))
	}
	return &csi.CreateVolumeResponse{Reply: &csi.CreateVolumeResponse_Result_{Result: &csi.CreateVolumeResponse_Result{
		VolumeInfo: volumeInfo(resp.GetVolume()),
	}}}, nil
}

func (a *Adapter) DeleteVolume(ctx context.Context, req *csi.DeleteVolumeRequest) (*csi.DeleteVolumeResponse, error) {
	fail := func(e *csi.Error) (*csi.DeleteVolumeResponse, error) {
		return &csi.DeleteVolumeResponse{Reply: &csi.DeleteVolumeResponse_Error{Error: failed(ctx, "DeleteVolume", e)}}, nil
	}
	if e := checkVersion(req.GetVersion()); e != nil {
		return fail(e)
	}
	if req.GetVolumeId() == nil {
		return fail(missingField("volume_id"))
	}
	id := volumeID(req.GetVolumeId())
	if id == "" {
		return fail(deleteError(csi.Error_DeleteVolumeError_INVALID_VOLUME_ID, notOurs))
	}
	secrets, e := a.secrets()
	if e != nil {
		return fail(e)
	}
	if _, err := a.cfg.Controller.DeleteVolume(ctx, &csi1.DeleteVolumeRequest{VolumeId: id, Secrets: secrets}); err != nil {
		return fail(fromV1(err, deleteCodes, deleteError))
	}
	return &csi.DeleteVolumeResponse{Reply: &csi.DeleteVolumeResponse_Result_{Result: &csi.DeleteVolumeResponse_Result{}}}, nil
}

// ControllerPublishVolume and ControllerUnpublishVolume are passed on for
// the v1 service to answer: a file share has nothing to attach, and the
// capabilities say so.
func (a *Adapter) ControllerPublishVolume(ctx context.Context, req *csi.ControllerPublishVolumeRequest) (*csi.ControllerPublishVolumeResponse, error) {
	fail := func(e *csi.Error) (*csi.ControllerPublishVolumeResponse, error) {
		return &csi.ControllerPublishVolumeResponse{Reply: &csi.ControllerPublishVolumeResponse_Error{Error: failed(ctx, "ControllerPublishVolume", e)}}, nil
	}
	if e := checkVersion(req.GetVersion()); e != nil {
		return fail(e)
	}
	resp, err := a.cfg.Controller.ControllerPublishVolume(ctx, &csi1.ControllerPublishVolumeRequest{
		VolumeId: volumeID(req.GetVolumeId()), NodeId: req.GetNodeId().GetValues()[KeyNodeID],
		VolumeCapability: v1Capability(mountCapability(), everyMode), Readonly: req.GetReadonly(),
		VolumeContext: req.GetVolumeMetadata().GetValues(),
	})
	if err != nil {
		return fail(fromV1(err, controllerPublishCodes, controllerPublishError))
	}
	return &csi.ControllerPublishVolumeResponse{Reply: &csi.ControllerPublishVolumeResponse_Result_{Result: &csi.ControllerPublishVolumeResponse_Result{
		PublishVolumeInfo: &csi.PublishVolumeInfo{Values: resp.GetPublishContext()},
	}}}, nil
}

func (a *Adapter) ControllerUnpublishVolume(ctx context.Context, req *csi.ControllerUnpublishVolumeRequest) (*csi.ControllerUnpublishVolumeResponse, error) {
	fail := func(e *csi.Error) (*csi.ControllerUnpublishVolumeResponse, error) {
		return &csi.ControllerUnpublishVolumeResponse{Reply: &csi.ControllerUnpublishVolumeResponse_Error{Error: failed(ctx, "ControllerUnpublishVolume", e)}}, nil
	}
	if e := checkVersion(req.GetVersion()); e != nil {
		return fail(e)
	}
	_, err := a.cfg.Controller.ControllerUnpublishVolume(ctx, &csi1.ControllerUnpublishVolumeRequest{
		VolumeId: volumeID(req.GetVolumeId()), NodeId: req.GetNodeId().GetValues()[KeyNodeID],
	})
	if err != nil {
		return fail(fromV1(err, controllerUnpublishCodes, controllerUnpublishError))
	}
	return &csi.ControllerUnpublishVolumeResponse{Reply: &csi.ControllerUnpublishVolumeResponse_Result_{Result: &csi.ControllerUnpublishVolumeResponse_Result{}}}, nil
}

// ValidateVolumeCapabilities checks the capabilities with the access mode
// the volume info names.
func (a *Adapter) ValidateVolumeCapabilities(ctx context.Context, req *csi.ValidateVolumeCapabilitiesRequest) (*csi.ValidateVolumeCapabilitiesResponse, error) {
	fail := func(e *csi.Error) (*csi.ValidateVolumeCapabilitiesResponse, error) {
		return &csi.ValidateVolumeCapabilitiesResponse{Reply: &csi.ValidateVolumeCapabilitiesResponse_Error{Error: failed(ctx, "ValidateVolumeCapabilities", e)}}, nil
	}
	if e := checkVersion(req.GetVersion()); e != nil {
		return fail(e)
	}
	info := req.GetVolumeInfo()
	switch {
	case info == nil:
		return fail(missingField("volume_info"))
	case len(req.GetVolumeCapabilities()) == 0:
		return fail(missingField("volume_capabilities"))
	case info.GetAccessMode().GetMode() == csi.AccessMode_UNKNOWN:
		return fail(missingField("volume_info.access_mode"))
	case volumeID(info.GetId()) == "":
		return fail(validateError(csi.Error_ValidateVolumeCapabilitiesError_INVALID_VOLUME_INFO, notOurs))
	}
	secrets, e := a.secrets()
	if e != nil {
		return fail(e)
	}
	mode := csi1.VolumeCapability_AccessMode_Mode(info.GetAccessMode().GetMode())
	resp, err := a.cfg.Controller.ValidateVolumeCapabilities(ctx, &csi1.ValidateVolumeCapabilitiesRequest{
		VolumeId:           volumeID(info.GetId()),
		VolumeContext:      info.GetMetadata().GetValues(),
		VolumeCapabilities: v1Capabilities(req.GetVolumeCapabilities(), mode),
		Secrets:            secrets,
	})
	if err != nil {
		return fail(fromV1(err, validateCodes, validateError))
	}
	return &csi.ValidateVolumeCapabilitiesResponse{Reply: &csi.ValidateVolumeCapabilitiesResponse_Result_{Result: &csi.ValidateVolumeCapabilitiesResponse_Result{
		Supported: resp.GetConfirmed() != nil, Message: resp.GetMessage(),
	}}}, nil
}

func (a *Adapter) ListVolumes(ctx context.Context, req *csi.ListVolumesRequest) (*csi.ListVolumesResponse, error) {
	fail := func(e *csi.Error) (*csi.ListVolumesResponse, error) {
		return &csi.ListVolumesResponse{Reply: &csi.ListVolumesResponse_Error{Error: failed(ctx, "ListVolumes", e)}}, nil
	}
	if e := checkVersion(req.GetVersion()); e != nil {
		return fail(e)
	}
	resp, err := a.cfg.Controller.ListVolumes(ctx, &csi1.ListVolumesRequest{
		MaxEntries: int32(min(req.GetMaxEntries(), math.MaxInt32)), StartingToken: req.GetStartingToken(),
	})
	if err != nil {
		return fail(general(status.Convert(err)))
	}
	result := &csi.ListVolumesResponse_Result{NextToken: resp.GetNextToken()}
	for _, e := range resp.GetEntries() {
		result.Entries = append(result.Entries, &csi.ListVolumesResponse_Result_Entry{VolumeInfo: volumeInfo(e.GetVolume())})
	}
	return &csi.ListVolumesResponse{Reply: &csi.ListVolumesResponse_Result_{Result: result}}, nil
}

// GetCapacity: capacity is per share, and a v0.1 request names no share
// (it has no parameters), so there is no pool to measure. The v1 call
// answers zero for that; v0.1's total_capacity is REQUIRED, and zero
// would read as a full pool. GET_CAPACITY is not advertised.
func (a *Adapter) GetCapacity(ctx context.Context, req *csi.GetCapacityRequest) (*csi.GetCapacityResponse, error) {
	e := checkVersion(req.GetVersion())
	if e == nil {
		e = generalError(csi.Error_GeneralError_UNDEFINED, true,
			"capacity is per share, and a CSI v0.1 GetCapacity names none: ask the v1 GetCapacity with the class's source parameter")
	}
	return &csi.GetCapacityResponse{Reply: &csi.GetCapacityResponse_Error{Error: failed(ctx, "GetCapacity", e)}}, nil
}

// v0Controller maps the v1 capabilities v0.1 has a name for.
// GET_CAPACITY is left out (see GetCapacity).
var v0Controller = map[csi1.ControllerServiceCapability_RPC_Type]csi.ControllerServiceCapability_RPC_Type{
	csi1.ControllerServiceCapability_RPC_CREATE_DELETE_VOLUME:     csi.ControllerServiceCapability_RPC_CREATE_DELETE_VOLUME,
	csi1.ControllerServiceCapability_RPC_PUBLISH_UNPUBLISH_VOLUME: csi.ControllerServiceCapability_RPC_PUBLISH_UNPUBLISH_VOLUME,
	csi1.ControllerServiceCapability_RPC_LIST_VOLUMES:             csi.ControllerServiceCapability_RPC_LIST_VOLUMES,
}

func (a *Adapter) ControllerGetCapabilities(ctx context.Context, req *csi.ControllerGetCapabilitiesRequest) (*csi.ControllerGetCapabilitiesResponse, error) {
	fail := func(e *csi.Error) (*csi.ControllerGetCapabilitiesResponse, error) {
		return &csi.ControllerGetCapabilitiesResponse{Reply: &csi.ControllerGetCapabilitiesResponse_Error{Error: failed(ctx, "ControllerGetCapabilities", e)}}, nil
	}
	if e := checkVersion(req.GetVersion()); e != nil {
		return fail(e)
	}
	resp, err := a.cfg.Controller.ControllerGetCapabilities(ctx, &csi1.ControllerGetCapabilitiesRequest{})
	if err != nil {
		return fail(general(status.Convert(err)))
	}
	var caps []*csi.ControllerServiceCapability
	for _, c := range resp.GetCapabilities() {
		if t, ok := v0Controller[c.GetRpc().GetType()]; ok {
			caps = append(caps, &csi.ControllerServiceCapability{Type: &csi.ControllerServiceCapability_Rpc{
				Rpc: &csi.ControllerServiceCapability_RPC{Type: t},
			}})
		}
	}
	caps = append(caps, &csi.ControllerServiceCapability{Type: &csi.ControllerServiceCapability_VolumeCapability{VolumeCapability: mountCapability()}})
	return &csi.ControllerGetCapabilitiesResponse{Reply: &csi.ControllerGetCapabilitiesResponse_Result_{Result: &csi.ControllerGetCapabilitiesResponse_Result{
		Capabilities: caps,
	}}}, nil
}

func (a *Adapter) ControllerProbe(ctx context.Context, req *csi.ControllerProbeRequest) (*csi.ControllerProbeResponse, error) {
	e := checkVersion(req.GetVersion())
	if e == nil {
		e = a.ready(ctx)
	}
	if e != nil {
		return &csi.ControllerProbeResponse{Reply: &csi.ControllerProbeResponse_Error{Error: failed(ctx, "ControllerProbe", e)}}, nil
	}
	return &csi.ControllerProbeResponse{Reply: &csi.ControllerProbeResponse_Result_{Result: &csi.ControllerProbeResponse_Result{}}}, nil
}
