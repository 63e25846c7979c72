package driver

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"strconv"
	"strings"

	"github.com/container-storage-interface/spec/lib/go/csi"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"k8s.io/klog/v2"

	"github.com/fileshare-csi/fileshare-csi/pkg/share"
	"github.com/fileshare-csi/fileshare-csi/pkg/source"
	"github.com/fileshare-csi/fileshare-csi/pkg/state"
	"github.com/fileshare-csi/fileshare-csi/pkg/volume"
)

// Volume context keys handed to the node (and usable in static PVs).
const (
	ContextSource       = "source"
	ContextSubDir       = "subDir"
	ContextMountOptions = "mountOptions"
	// ContextCapacity is the volume's requested size in bytes, which the
	// node reports as its capacity (NodeGetVolumeStats).
	ContextCapacity = "capacityBytes"
)

func (d *controller) ControllerGetCapabilities(context.Context, *csi.ControllerGetCapabilitiesRequest) (*csi.ControllerGetCapabilitiesResponse, error) {
	var caps []*csi.ControllerServiceCapability
	for _, c := range []csi.ControllerServiceCapability_RPC_Type{
		csi.ControllerServiceCapability_RPC_CREATE_DELETE_VOLUME,
		csi.ControllerServiceCapability_RPC_GET_CAPACITY,
		csi.ControllerServiceCapability_RPC_EXPAND_VOLUME,
		csi.ControllerServiceCapability_RPC_GET_VOLUME,
		csi.ControllerServiceCapability_RPC_GET_VOLUME_HEALTH,
		csi.ControllerServiceCapability_RPC_SINGLE_NODE_MULTI_WRITER,
		csi.ControllerServiceCapability_RPC_CREATE_DELETE_SNAPSHOT,
		csi.ControllerServiceCapability_RPC_LIST_SNAPSHOTS,
		csi.ControllerServiceCapability_RPC_GET_SNAPSHOT,
		csi.ControllerServiceCapability_RPC_CLONE_VOLUME,
	} {
		caps = append(caps, &csi.ControllerServiceCapability{
			Type: &csi.ControllerServiceCapability_Rpc{Rpc: &csi.ControllerServiceCapability_RPC{Type: c}},
		})
	}
	return &csi.ControllerGetCapabilitiesResponse{Capabilities: caps}, nil
}

// withShare runs fn on a pooled session. A reused session that turns out to
// be dead (the server restarted while it sat idle) gets one fresh retry. One
// the server asked to wait (share.ErrTryLater) is alive, and a fresh one
// would be asked the same: the call answers, and the CO retries with its
// backoff.
func (d *controller) withShare(ctx context.Context, src source.Source, creds share.Credentials, fn func(share.Client) error) error {
	lease, err := d.cfg.Pool.Get(ctx, src, creds)
	if err != nil {
		return toStatus(dialError{err})
	}
	err = fn(lease.Client)
	lease.Release(err)
	if err == nil || !lease.Reused || !errors.Is(err, share.ErrUnavailable) || errors.Is(err, share.ErrTryLater) || ctx.Err() != nil {
		return err
	}
	klog.FromContext(ctx).V(2).Info("idle session was dead, retrying with a new one", "share", src.String())
	lease, err = d.cfg.Pool.GetNew(ctx, src, creds)
	if err != nil {
		return toStatus(dialError{err})
	}
	err = fn(lease.Client)
	lease.Release(err)
	return err
}

// onDead says what a call does when the pooled session it reused turns out
// to be dead (the server restarted while the session sat idle).
type onDead bool

const (
	// retryDead dials a fresh session and runs the call's function once
	// more, as withShare does for every call that names a volume.
	retryDead onDead = true
	// failDead lets the call fail (Unavailable); Release has closed the dead
	// session, so the next call dials anew. The polled reads without secrets
	// (ControllerGetVolume, GetCapacity) and the reclaimer's pass have always
	// answered this way: the CO asks again and the reclaimer passes again.
	// Giving them the retry would change what they answer, so it is a choice
	// made at their call sites, not here.
	failDead onDead = false
)

// withShareOrIdle is the one rule for calls that may carry no secrets: it
// runs fn on a session to root, one from the pool for creds (NFS needs
// none), or, for an SMB call without an identity, an idle one an earlier
// call with secrets left in the pool. It reports false, without running fn,
// when there is no such session. dead applies to a pooled session: an idle
// one borrowed without secrets cannot be dialed again, so the call fails.
func (d *controller) withShareOrIdle(ctx context.Context, root source.Source, creds share.Credentials, dead onDead, fn func(share.Client) error) (bool, error) {
	var lease *share.Lease
	switch {
	case root.Protocol == source.SMB && !creds.HasIdentity():
		if lease = d.cfg.Pool.GetIdle(root); lease == nil {
			return false, nil
		}
	case dead == retryDead:
		return true, d.withShare(ctx, root, creds, fn)
	default:
		var err error
		if lease, err = d.cfg.Pool.Get(ctx, root, creds); err != nil {
			return true, toStatus(dialError{err})
		}
	}
	err := fn(lease.Client)
	lease.Release(err)
	return true, err
}

// validateCapabilities accepts mount volumes in every access mode the CSI
// spec names; file shares have no block devices.
func validateCapabilities(caps []*csi.VolumeCapability) error {
	if len(caps) == 0 {
		return status.Error(codes.InvalidArgument, "volume capabilities are missing")
	}
	for _, c := range caps {
		if c == nil {
			return status.Error(codes.InvalidArgument, "a volume capability is empty")
		}
		if c.GetBlock() != nil {
			return status.Error(codes.InvalidArgument, "block access is not supported: file shares are mount volumes only")
		}
		if c.GetMount() == nil {
			return status.Error(codes.InvalidArgument, "volume capability has no access type: set mount")
		}
		if err := volume.CheckMountOptions(c.GetMount().GetMountFlags()); err != nil {
			return status.Error(codes.InvalidArgument, err.Error())
		}
		if c.GetAccessMode() == nil || c.GetAccessMode().GetMode() == csi.VolumeCapability_AccessMode_UNKNOWN {
			return status.Error(codes.InvalidArgument, "volume capability has no access mode")
		}
		// A mode this spec version does not name (a newer CO's, or a
		// garbled request) is an unsupported field, the spec's general
		// INVALID_ARGUMENT: accepting it would create, confirm
		// (ValidateVolumeCapabilities) or mount a volume under rules the
		// driver does not know.
		if _, ok := csi.VolumeCapability_AccessMode_Mode_name[int32(c.GetAccessMode().GetMode())]; !ok {
			return status.Errorf(codes.InvalidArgument, "volume capability has access mode %d, which this driver does not know: use one of the CSI spec's access modes", int32(c.GetAccessMode().GetMode()))
		}
	}
	return nil
}

// nfsTopologyAllowed reports whether the requested topology includes a Linux
// node: NFS volumes are mounted by Linux nodes only.
func nfsTopologyAllowed(req *csi.TopologyRequirement) bool {
	segs := req.GetRequisite()
	if len(segs) == 0 {
		segs = req.GetPreferred()
	}
	if len(segs) == 0 {
		return true
	}
	for _, t := range segs {
		if v, ok := t.GetSegments()[TopologyKeyOS]; !ok || v == "linux" {
			return true
		}
	}
	return false
}

func accessibleTopology(p source.Protocol) []*csi.Topology {
	if p == source.NFS {
		return []*csi.Topology{{Segments: map[string]string{TopologyKeyOS: "linux"}}}
	}
	return nil
}

// requestedBytes is the required_bytes of a capacity range. A range that
// contradicts itself (a negative value, or required_bytes above
// limit_bytes) is an invalid field, the spec's general INVALID_ARGUMENT: no
// volume of any size satisfies it.
func requestedBytes(r *csi.CapacityRange) (int64, error) {
	req, lim := r.GetRequiredBytes(), r.GetLimitBytes()
	if req < 0 || lim < 0 {
		return 0, status.Error(codes.InvalidArgument, "capacity range has a negative value")
	}
	if lim > 0 && req > lim {
		return 0, status.Errorf(codes.InvalidArgument, "required_bytes %d is more than limit_bytes %d", req, lim)
	}
	return req, nil
}

func (d *controller) CreateVolume(ctx context.Context, req *csi.CreateVolumeRequest) (*csi.CreateVolumeResponse, error) {
	if req.GetName() == "" {
		return nil, status.Error(codes.InvalidArgument, "volume name is missing")
	}
	if err := validateCapabilities(req.GetVolumeCapabilities()); err != nil {
		return nil, err
	}
	params, err := volume.ParseParams(req.GetName(), req.GetParameters())
	if err != nil {
		return nil, status.Error(codes.InvalidArgument, err.Error())
	}
	size, err := requestedBytes(req.GetCapacityRange())
	if err != nil {
		return nil, err
	}
	if params.Source.Protocol == source.NFS && !nfsTopologyAllowed(req.GetAccessibilityRequirements()) {
		return nil, fail(errNoTopology, "NFS volumes can only be used on Linux nodes, and the requested topology has none (%s)", TopologyKeyOS)
	}
	vol := volume.Volume{Source: params.Source, SubDir: params.SubDir, OnDelete: params.OnDelete}
	// Refused before anything is dialed or created, so no error leaves a
	// directory behind. The place checked is the one the volume is created
	// at: its source goes through the aliases once.
	l := d.locate(ctx, vol)
	err = state.CheckPath(l.path)
	if err == nil {
		err = state.CheckSubDir(vol.SubDir)
	}
	if err != nil {
		return nil, toStatus(err)
	}
	creds := credentialsFrom(req.GetSecrets())
	var origin *contentOrigin
	var contentID string
	if cs := req.GetVolumeContentSource(); cs != nil {
		contentID = contentSourceID(cs)
		origin, err = d.resolveContent(ctx, cs, params.Source.Protocol, creds)
		if status.Code(err) == codes.NotFound && d.filledFrom(ctx, l, creds, req.GetName(), contentID) {
			// Gone since an earlier try of this request filled the
			// volume whole (its answer lost): the volume is answered,
			// with nothing more to copy.
			origin, err = nil, nil
		}
		if err != nil {
			return nil, err
		}
		if origin != nil {
			if lim := req.GetCapacityRange().GetLimitBytes(); lim > 0 && origin.size > lim {
				return nil, fail(errTooLarge, "the content source holds %d bytes, more than limit_bytes %d", origin.size, lim)
			}
			size = max(size, origin.size)
		}
	}
	var rec state.Record
	var w where
	err = d.at(ctx, l, creds, true, func(s site) error {
		w = s.where
		var err error
		rec, err = s.Create(ctx, state.CreateRequest{
			Path: w.path, Name: req.GetName(), CapacityBytes: size,
			RequiredBytes: req.GetCapacityRange().GetRequiredBytes(), LimitBytes: req.GetCapacityRange().GetLimitBytes(),
			Perm:          share.UnixFileMode(params.MountPermissions),
			Legacy:        state.LegacyRecordPath(w.base, w.subDir),
			ContentSource: contentID,
			Parameters:    recordedParams(req.GetParameters()),
		})
		return err
	})
	d.provisionedOn(vol.Source)
	if err != nil {
		return nil, createStatus(err)
	}
	if rec.Populating {
		if origin == nil {
			// Filled whole when filledFrom looked, deleted and made anew
			// since: nothing is left to fill it from, and the reclaimer
			// takes the record it never fills.
			return nil, fail(state.ErrNotFound, "the content source of volume %q is gone", rec.Name)
		}
		if err := d.populate(ctx, rec, w, origin, creds); err != nil {
			return nil, err
		}
	} else if err := d.stopFilling(ctx)(rec); err != nil {
		// Filled by another process's copy (the leader before this
		// one): this process's own copy, should one still run, stops
		// before the volume is handed out, or it would write into it
		// under the pod.
		return nil, toStatus(err)
	}
	vol.UID = rec.UID
	klog.FromContext(ctx).V(2).Info("volume ready", "volume", vol.ID(), "path", w.path)
	return &csi.CreateVolumeResponse{Volume: &csi.Volume{
		VolumeId:           vol.ID(),
		CapacityBytes:      rec.CapacityBytes,
		VolumeContext:      volumeContext(vol, params.MountOptions, rec.CapacityBytes),
		AccessibleTopology: accessibleTopology(vol.Source.Protocol),
		ContentSource:      req.GetVolumeContentSource(),
	}}, nil
}

// recordedParams are the CreateVolume parameters a volume's record keeps,
// for a later call of the same name to be compared with (state's
// sameVolume; CSI spec, CreateVolume: same name, incompatible parameters
// is ALREADY_EXISTS): the class's own, without the keys the sidecars add
// (the claim's name and namespace, which the volume's name stands for).
func recordedParams(p map[string]string) map[string]string {
	out := map[string]string{}
	for k, v := range p {
		if !strings.HasPrefix(k, volume.ReservedPrefix) {
			out[k] = v
		}
	}
	return out
}

func volumeContext(vol volume.Volume, mountOptions []string, capacity int64) map[string]string {
	c := map[string]string{ContextSource: vol.Source.String(), ContextSubDir: vol.SubDir}
	if len(mountOptions) > 0 {
		c[ContextMountOptions] = strings.Join(mountOptions, ",")
	}
	if capacity > 0 {
		c[ContextCapacity] = strconv.FormatInt(capacity, 10)
	}
	return c
}

func (d *controller) DeleteVolume(ctx context.Context, req *csi.DeleteVolumeRequest) (*csi.DeleteVolumeResponse, error) {
	if req.GetVolumeId() == "" {
		return nil, status.Error(codes.InvalidArgument, "volume ID is missing")
	}
	vol, err := volume.ParseID(req.GetVolumeId())
	if err != nil {
		// The spec asks for success when no such volume exists, and no
		// volume can have an ID we cannot parse.
		klog.FromContext(ctx).Info("DeleteVolume of an ID this driver never issued: nothing to delete", "reason", err.Error())
		return &csi.DeleteVolumeResponse{}, nil
	}
	ctx, removedEntries := share.CountRemoved(ctx)
	var disposed bool
	err = d.at(ctx, d.locate(ctx, vol), credentialsFrom(req.GetSecrets()), true, func(s site) (err error) {
		disposed, err = s.dispose(ctx, d.stopFilling(ctx))
		return err
	})
	d.provisionedOn(vol.Source)
	if err := deleteStatus(err); err != nil {
		return nil, err
	}
	if disposed {
		d.volumeDisposed(vol, removedEntries())
	}
	return &csi.DeleteVolumeResponse{}, nil
}

// deleteStatus maps a DeleteVolume's or DeleteSnapshot's error. The
// store answers a volume whose record, directory or base is gone as
// deleted by itself, from what its reads show; a "no such file" that still
// reaches here is the server's answer to a step that makes or moves
// something (the archive's rename, a record's replacement) after the reads
// showed the volume there: a race or a broken server, never a volume that
// is gone. Taking it for one would have the CO forget a volume the share
// still holds, so the call fails retryably and the retry reads again.
//
// A delete never finds its volume already there: a conflict is something
// in the volume the delete will not take (another class's records), which
// the operator has to move first.
func deleteStatus(err error) error {
	if errors.Is(err, fs.ErrNotExist) && !errors.Is(err, share.ErrUnavailable) {
		return fail(share.ErrUnavailable, "the server answered that a path does not exist in the middle of the delete, after it showed the volume there; nothing is forgotten, a retry reads the share again: %v", err)
	}
	if errors.Is(err, state.ErrConflict) {
		return status.Error(codes.FailedPrecondition, err.Error())
	}
	return toStatus(err)
}

// createStatus maps a CreateVolume's error. The spec's NotFound is for a
// content source that is not there (the store's ErrNotFound, or
// resolveContent's, before the store is asked). A "no such file" from one
// of the create's own steps is the server's answer to a step that moves or
// makes something after the reads showed what it needed: a concurrent
// call, or a request of a killed or deadline-cut try that the server ran
// late. csi-provisioner takes NotFound for final (no volume made), so the
// claim would be retried as new and what the create made forgotten; the
// call fails retryably instead, and the retry reads the share again.
func createStatus(err error) error {
	var de dialError
	if errors.Is(err, fs.ErrNotExist) && !errors.Is(err, state.ErrNotFound) && !errors.Is(err, share.ErrUnavailable) && !errors.As(err, &de) {
		return fail(share.ErrUnavailable, "the server answered that a path does not exist in the middle of the create, after it showed what the create needed; a retry reads the share again: %v", err)
	}
	return toStatus(err)
}

// volumeDisposed counts a volume deleted, retained or archived, with the
// entries the delete removed.
func (d *controller) volumeDisposed(vol volume.Volume, removed int64) {
	action := vol.OnDelete
	if action == "" {
		action = volume.Delete
	}
	d.cfg.Metrics.VolumeDeleted(string(vol.Source.Protocol), string(action), removed)
}

func (d *controller) ValidateVolumeCapabilities(ctx context.Context, req *csi.ValidateVolumeCapabilitiesRequest) (*csi.ValidateVolumeCapabilitiesResponse, error) {
	if req.GetVolumeId() == "" {
		return nil, status.Error(codes.InvalidArgument, "volume ID is missing")
	}
	if len(req.GetVolumeCapabilities()) == 0 {
		return nil, status.Error(codes.InvalidArgument, "volume capabilities are missing")
	}
	vol, err := existingVolumeID(req.GetVolumeId())
	if err != nil {
		return nil, err
	}
	err = d.at(ctx, d.locate(ctx, vol), credentialsFrom(req.GetSecrets()), false, func(s site) error {
		_, err := s.check(ctx)
		return err
	})
	if err != nil {
		return nil, toStatus(err)
	}
	if err := validateCapabilities(req.GetVolumeCapabilities()); err != nil {
		return &csi.ValidateVolumeCapabilitiesResponse{Message: status.Convert(err).Message()}, nil
	}
	if err := volume.CheckMountOptions([]string{req.GetVolumeContext()[ContextMountOptions], req.GetParameters()[volume.ParamMountOptions]}); err != nil {
		return &csi.ValidateVolumeCapabilitiesResponse{Message: err.Error()}, nil
	}
	return &csi.ValidateVolumeCapabilitiesResponse{Confirmed: &csi.ValidateVolumeCapabilitiesResponse_Confirmed{
		VolumeContext:      req.GetVolumeContext(),
		VolumeCapabilities: req.GetVolumeCapabilities(),
		Parameters:         req.GetParameters(),
	}}, nil
}

// ControllerGetVolume reports the volume and its recorded size. The request
// carries no secrets, so an SMB share is read through an idle session that an
// earlier call with secrets left in the pool, when there is one.
func (d *controller) ControllerGetVolume(ctx context.Context, req *csi.ControllerGetVolumeRequest) (*csi.ControllerGetVolumeResponse, error) {
	vol, err := existingVolumeID(req.GetVolumeId())
	if err != nil {
		return nil, err
	}
	resp := &csi.ControllerGetVolumeResponse{
		Volume: &csi.Volume{
			VolumeId:           vol.ID(),
			VolumeContext:      map[string]string{ContextSource: vol.Source.String(), ContextSubDir: vol.SubDir},
			AccessibleTopology: accessibleTopology(vol.Source.Protocol),
		},
		Status: &csi.ControllerGetVolumeResponse_VolumeStatus{},
	}
	var rec state.Record
	found, err := d.atOrIdle(ctx, d.locate(ctx, vol), share.Credentials{}, failDead, func(s site) (err error) {
		rec, err = s.check(ctx)
		return err
	})
	if !found {
		return resp, nil
	}
	if err != nil {
		return nil, toStatus(err)
	}
	resp.Volume.CapacityBytes = rec.CapacityBytes
	return resp, nil
}

// ControllerGetVolumeHealth reports INACCESSIBLE when the share cannot be
// reached or the volume's directory is gone from it.
func (d *controller) ControllerGetVolumeHealth(ctx context.Context, req *csi.ControllerGetVolumeHealthRequest) (*csi.ControllerGetVolumeHealthResponse, error) {
	vol, err := existingVolumeID(req.GetVolumeId())
	if err != nil {
		return nil, err
	}
	health := &csi.VolumeHealth{VolumeId: req.GetVolumeId()}
	// SMB without credentials: nothing known is reported rather than a
	// login failure when no session is open.
	found, err := d.atOrIdle(ctx, d.locate(ctx, vol), credentialsFrom(req.GetSecrets()), retryDead, func(s site) error {
		_, err := s.check(ctx)
		return err
	})
	if !found {
		return &csi.ControllerGetVolumeHealthResponse{VolumeHealth: health}, nil
	}
	switch {
	case err == nil:
	case ctx.Err() != nil, errors.Is(err, state.ErrNotFound):
		return nil, toStatus(err)
	case errors.Is(err, fs.ErrNotExist):
		health.HealthStatuses = append(health.HealthStatuses, &csi.VolumeHealth_VolumeHealthEntry{
			Status: csi.VolumeHealthErrorType_INACCESSIBLE, Reason: "DirectoryMissing",
			Message: fmt.Sprintf("volume directory %s is missing from %s", vol.SubDir, vol.Source.String()),
		})
	default:
		health.HealthStatuses = append(health.HealthStatuses, &csi.VolumeHealth_VolumeHealthEntry{
			Status: csi.VolumeHealthErrorType_INACCESSIBLE, Reason: "ServerUnreachable",
			Message: status.Convert(toStatus(err)).Message(),
		})
	}
	return &csi.ControllerGetVolumeHealthResponse{VolumeHealth: health}, nil
}

// GetCapacity reports the free space of the share named by the parameters.
// Capacity is per share: with no source there is no storage to measure, and
// the answer is zero.
func (d *controller) GetCapacity(ctx context.Context, req *csi.GetCapacityRequest) (*csi.GetCapacityResponse, error) {
	p := req.GetParameters()
	if _, ok := p[volume.ParamSource]; !ok {
		return &csi.GetCapacityResponse{}, nil
	}
	params, err := volume.ParseShareParams(p)
	if err != nil {
		return nil, status.Error(codes.InvalidArgument, err.Error())
	}
	if req.GetVolumeCapabilities() != nil {
		if err := validateCapabilities(req.GetVolumeCapabilities()); err != nil {
			return &csi.GetCapacityResponse{}, nil
		}
	}
	// Spec, GetCapacity: "If specified, the Plugin SHALL report the
	// capacity of the storage that can be used to provision volumes that
	// in the specified accessible_topology." An NFS volume is never
	// accessible on a node of another OS (nfsTopologyAllowed): none can be
	// provisioned there, whatever the share has free. (csi-provisioner's
	// capacity tracking asks per segment, and the scheduler would place
	// claims on Windows nodes by the share's free space.)
	if t := req.GetAccessibleTopology(); t != nil && params.Source.Protocol == source.NFS &&
		!nfsTopologyAllowed(&csi.TopologyRequirement{Requisite: []*csi.Topology{t}}) {
		return &csi.GetCapacityResponse{}, nil
	}
	var capacity share.Capacity
	found, err := d.atOrIdle(ctx, d.locateShare(ctx, params.Source), share.Credentials{}, failDead, func(s site) (err error) {
		capacity, err = s.Capacity(ctx)
		return err
	})
	if !found {
		return nil, fail(errNoSession, "GetCapacity carries no secrets and no SMB session to %s is open; it is available after a CreateVolume on that share", params.Source.String())
	}
	if err != nil {
		return nil, toStatus(err)
	}
	return &csi.GetCapacityResponse{AvailableCapacity: capacity.AvailableBytes}, nil
}

// ControllerExpandVolume records the new size. File shares have no per-directory
// quota here, so the size is bookkeeping for Kubernetes, not a limit.
func (d *controller) ControllerExpandVolume(ctx context.Context, req *csi.ControllerExpandVolumeRequest) (*csi.ControllerExpandVolumeResponse, error) {
	if req.GetVolumeId() == "" {
		return nil, status.Error(codes.InvalidArgument, "volume ID is missing")
	}
	if req.GetCapacityRange() == nil {
		return nil, status.Error(codes.InvalidArgument, "capacity range is missing")
	}
	size, err := requestedBytes(req.GetCapacityRange())
	if err != nil {
		return nil, err
	}
	if cap := req.GetVolumeCapability(); cap != nil {
		if err := validateCapabilities([]*csi.VolumeCapability{cap}); err != nil {
			return nil, err
		}
	}
	vol, err := existingVolumeID(req.GetVolumeId())
	if err != nil {
		return nil, err
	}
	want := size
	err = d.at(ctx, d.locate(ctx, vol), credentialsFrom(req.GetSecrets()), true, func(s site) (err error) {
		// Always the size asked for: this step runs a second time on a
		// new session when a pooled one was dead (withShare), and a first
		// run's failure returns 0, which the record is never below (the
		// second run wrote nothing and answered the old size).
		size, err = s.expand(ctx, want)
		return err
	})
	if err != nil {
		return nil, toStatus(err)
	}
	if err := withinLimit(size, req.GetCapacityRange()); err != nil {
		// Already larger (an earlier expansion): nothing was written.
		return nil, err
	}
	// No node expansion is required: the claim's expansion completes now,
	// in use or not. Kubelets where the volume is mounted still call
	// NodeExpandVolume (the node advertises EXPAND_VOLUME), which tells
	// each node the size its stats report (see docs/usage.md).
	return &csi.ControllerExpandVolumeResponse{CapacityBytes: size, NodeExpansionRequired: false}, nil
}

// withinLimit refuses an expansion whose limit_bytes is below size, the
// size the volume already has (ControllerExpandVolume's, and the size a
// node recorded for NodeExpandVolume): a volume never shrinks, so the range
// is valid but one this plugin cannot meet, which the spec's tables of both
// calls answer OUT_OF_RANGE ("Unsupported capacity_range").
func withinLimit(size int64, r *csi.CapacityRange) error {
	if lim := r.GetLimitBytes(); lim > 0 && size > lim {
		return status.Errorf(codes.OutOfRange, "the volume is already %d bytes, above limit_bytes %d: a volume cannot shrink", size, lim)
	}
	return nil
}

// existingVolumeID parses the ID of a volume a call expects to exist: a
// missing ID is InvalidArgument, one this driver never issued is NotFound.
func existingVolumeID(id string) (volume.Volume, error) {
	if id == "" {
		return volume.Volume{}, status.Error(codes.InvalidArgument, "volume ID is missing")
	}
	vol, err := volume.ParseID(id)
	if err != nil {
		return volume.Volume{}, fail(state.ErrNotFound, "no such volume: %v", err)
	}
	return vol, nil
}
