package driver

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"path"
	"strings"
	"time"

	"github.com/container-storage-interface/spec/lib/go/csi"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"k8s.io/klog/v2"

	"github.com/fileshare-csi/fileshare-csi/pkg/share"
	"github.com/fileshare-csi/fileshare-csi/pkg/source"
	"github.com/fileshare-csi/fileshare-csi/pkg/volume"
)

// Volume context keys handed to the node (and usable in static PVs).
const (
	ContextSource       = "source"
	ContextSubDir       = "subDir"
	ContextMountOptions = "mountOptions"
)

// record is what the controller stores about a volume on the share itself,
// in MetadataDir beside the volumes, so it survives restarts without state.
type record struct {
	Name          string    `json:"name"`
	CapacityBytes int64     `json:"capacityBytes"`
	Created       time.Time `json:"created"`
}

func recordPath(subDir string) string {
	return volume.MetadataDir + "/" + url.PathEscape(subDir) + ".json"
}

func (d *Driver) ControllerGetCapabilities(context.Context, *csi.ControllerGetCapabilitiesRequest) (*csi.ControllerGetCapabilitiesResponse, error) {
	var caps []*csi.ControllerServiceCapability
	for _, c := range []csi.ControllerServiceCapability_RPC_Type{
		csi.ControllerServiceCapability_RPC_CREATE_DELETE_VOLUME,
		csi.ControllerServiceCapability_RPC_GET_CAPACITY,
		csi.ControllerServiceCapability_RPC_EXPAND_VOLUME,
		csi.ControllerServiceCapability_RPC_GET_VOLUME,
		csi.ControllerServiceCapability_RPC_GET_VOLUME_HEALTH,
		csi.ControllerServiceCapability_RPC_SINGLE_NODE_MULTI_WRITER,
	} {
		caps = append(caps, &csi.ControllerServiceCapability{
			Type: &csi.ControllerServiceCapability_Rpc{Rpc: &csi.ControllerServiceCapability_RPC{Type: c}},
		})
	}
	return &csi.ControllerGetCapabilitiesResponse{Capabilities: caps}, nil
}

// withShare runs fn on a pooled session. A reused session that turns out to
// be dead (the server restarted while it sat idle) gets one fresh retry.
func (d *Driver) withShare(ctx context.Context, src source.Source, creds share.Credentials, fn func(share.Client) error) error {
	lease, err := d.cfg.Pool.Get(ctx, src, creds)
	if err != nil {
		return dialStatus(err)
	}
	err = fn(lease.Client)
	lease.Release(err)
	if err == nil || !lease.Reused || !errors.Is(err, share.ErrUnavailable) || ctx.Err() != nil {
		return err
	}
	klog.FromContext(ctx).V(2).Info("idle session was dead, retrying with a new one", "share", src.String())
	lease, err = d.cfg.Pool.GetNew(ctx, src, creds)
	if err != nil {
		return dialStatus(err)
	}
	err = fn(lease.Client)
	lease.Release(err)
	return err
}

// leaseWithoutSecrets serves calls that carry no secrets: NFS needs none, and
// SMB borrows an idle session that an earlier call with secrets left in the
// pool. It returns nil and no error for an SMB share with no such session.
func (d *Driver) leaseWithoutSecrets(ctx context.Context, src source.Source) (*share.Lease, error) {
	if src.Protocol == source.SMB {
		return d.cfg.Pool.GetIdle(src), nil
	}
	lease, err := d.cfg.Pool.Get(ctx, src, share.Credentials{})
	if err != nil {
		return nil, dialStatus(err)
	}
	return lease, nil
}

// dialStatus turns a failure to open a session into a status: a missing
// share or rejected credentials are the caller's to fix, not transient.
func dialStatus(err error) error {
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return status.Error(codes.InvalidArgument, err.Error())
	case errors.Is(err, fs.ErrPermission):
		return status.Error(codes.PermissionDenied, err.Error())
	}
	return shareStatus(err)
}

// validateCapabilities accepts mount volumes in every access mode; file
// shares have no block devices.
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

func (d *Driver) CreateVolume(ctx context.Context, req *csi.CreateVolumeRequest) (*csi.CreateVolumeResponse, error) {
	if req.GetName() == "" {
		return nil, status.Error(codes.InvalidArgument, "volume name is missing")
	}
	if err := validateCapabilities(req.GetVolumeCapabilities()); err != nil {
		return nil, err
	}
	if req.GetVolumeContentSource() != nil {
		return nil, status.Error(codes.InvalidArgument, "volume content sources (snapshots, clones) are not supported")
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
		return nil, status.Errorf(codes.ResourceExhausted, "NFS volumes can only be used on Linux nodes, and the requested topology has none (%s)", TopologyKeyOS)
	}
	vol := volume.Volume{Source: params.Source, SubDir: params.SubDir, OnDelete: params.OnDelete}
	logger := klog.FromContext(ctx).WithValues("volume", vol.ID())

	unlock, err := d.volumeLocks.Lock(ctx, vol.Source.String()+"#"+vol.SubDir)
	if err != nil {
		return nil, status.Error(codes.Aborted, "timed out waiting for another operation on this volume")
	}
	defer unlock()

	perm := fs.FileMode(params.MountPermissions & 0o777)
	if params.MountPermissions&0o2000 != 0 {
		perm |= fs.ModeSetgid
	}
	if params.MountPermissions&0o4000 != 0 {
		perm |= fs.ModeSetuid
	}
	if params.MountPermissions&0o1000 != 0 {
		perm |= fs.ModeSticky
	}
	err = d.withShare(ctx, vol.Source, credentialsFrom(req.GetSecrets()), func(c share.Client) error {
		rec, err := readRecord(ctx, c, vol.SubDir)
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			return err
		}
		if err == nil {
			if rec.Name != req.GetName() {
				return status.Errorf(codes.AlreadyExists, "directory %s already belongs to volume %q; use a subDir template that gives each claim its own directory", vol.SubDir, rec.Name)
			}
			if rec.CapacityBytes != size && size != 0 {
				return status.Errorf(codes.AlreadyExists, "volume %q exists with capacity %d, not %d", rec.Name, rec.CapacityBytes, size)
			}
		}
		if parent := path.Dir(vol.SubDir); parent != "." {
			if err := share.MkdirAll(ctx, c, parent, perm); err != nil {
				return fmt.Errorf("create parent directories: %w", err)
			}
		}
		switch err := c.Mkdir(ctx, vol.SubDir, perm); {
		case err == nil:
			logger.V(2).Info("created volume directory")
		case errors.Is(err, fs.ErrExist):
			fi, serr := c.Stat(ctx, vol.SubDir)
			if serr != nil {
				return serr
			}
			if !fi.IsDir {
				return status.Errorf(codes.AlreadyExists, "%s exists on the share and is not a directory", vol.SubDir)
			}
			// An existing directory without a record (retained from an
			// earlier claim, or made by hand) is adopted as it is.
		default:
			return err
		}
		if rec == nil {
			if err := share.MkdirAll(ctx, c, volume.MetadataDir, 0o755); err != nil {
				return fmt.Errorf("create %s: %w", volume.MetadataDir, err)
			}
			return writeRecord(ctx, c, vol.SubDir, record{Name: req.GetName(), CapacityBytes: size, Created: time.Now().UTC()})
		}
		return nil
	})
	if err != nil {
		return nil, shareStatus(err)
	}
	return &csi.CreateVolumeResponse{Volume: &csi.Volume{
		VolumeId:           vol.ID(),
		CapacityBytes:      size,
		VolumeContext:      volumeContext(vol, params.MountOptions),
		AccessibleTopology: accessibleTopology(vol.Source.Protocol),
	}}, nil
}

func volumeContext(vol volume.Volume, mountOptions []string) map[string]string {
	c := map[string]string{ContextSource: vol.Source.String(), ContextSubDir: vol.SubDir}
	if len(mountOptions) > 0 {
		c[ContextMountOptions] = strings.Join(mountOptions, ",")
	}
	return c
}

func readRecord(ctx context.Context, c share.Client, subDir string) (*record, error) {
	b, err := c.ReadFile(ctx, recordPath(subDir))
	if err != nil {
		return nil, err
	}
	var r record
	if err := json.Unmarshal(b, &r); err != nil {
		return nil, fmt.Errorf("record %s is corrupt (%v); delete it to let the volume be adopted again", recordPath(subDir), err)
	}
	return &r, nil
}

// writeRecord replaces the record through a temporary file and a rename, so
// a crash never leaves a half-written one.
func writeRecord(ctx context.Context, c share.Client, subDir string, r record) error {
	b, err := json.Marshal(r)
	if err != nil {
		return err
	}
	final := recordPath(subDir)
	tmp := final + ".tmp"
	if err := c.WriteFile(ctx, tmp, b); err != nil {
		return fmt.Errorf("write record: %w", err)
	}
	if err := c.Remove(ctx, final); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("replace record: %w", err)
	}
	if err := c.Rename(ctx, tmp, final); err != nil {
		return fmt.Errorf("write record: %w", err)
	}
	return nil
}

func removeRecord(ctx context.Context, c share.Client, subDir string) error {
	if err := c.Remove(ctx, recordPath(subDir)); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("remove record: %w", err)
	}
	return nil
}

func (d *Driver) DeleteVolume(ctx context.Context, req *csi.DeleteVolumeRequest) (*csi.DeleteVolumeResponse, error) {
	if req.GetVolumeId() == "" {
		return nil, status.Error(codes.InvalidArgument, "volume ID is missing")
	}
	logger := klog.FromContext(ctx)
	vol, err := volume.ParseID(req.GetVolumeId())
	if err != nil {
		// The spec asks for success when no such volume exists, and no
		// volume can have an ID we cannot parse.
		logger.Info("DeleteVolume of an ID this driver never issued: nothing to delete", "reason", err.Error())
		return &csi.DeleteVolumeResponse{}, nil
	}
	unlock, err := d.volumeLocks.Lock(ctx, vol.Source.String()+"#"+vol.SubDir)
	if err != nil {
		return nil, status.Error(codes.Aborted, "timed out waiting for another operation on this volume")
	}
	defer unlock()
	err = d.withShare(ctx, vol.Source, credentialsFrom(req.GetSecrets()), func(c share.Client) error {
		switch vol.OnDelete {
		case volume.Retain:
			logger.V(2).Info("retaining volume directory", "subDir", vol.SubDir)
		case volume.Archive:
			to, err := archive(ctx, c, vol.SubDir)
			if err != nil {
				return err
			}
			if to != "" {
				logger.V(2).Info("archived volume directory", "subDir", vol.SubDir, "archive", to)
			}
		default:
			if err := c.RemoveAll(ctx, vol.SubDir); err != nil {
				return err
			}
			logger.V(2).Info("deleted volume directory", "subDir", vol.SubDir)
		}
		return removeRecord(ctx, c, vol.SubDir)
	})
	if errors.Is(err, fs.ErrNotExist) && !errors.Is(err, share.ErrUnavailable) {
		// The share or base itself is gone: so is the volume.
		logger.Info("share or base directory no longer exists; treating the volume as deleted", "error", err.Error())
		return &csi.DeleteVolumeResponse{}, nil
	}
	if err != nil {
		return nil, shareStatus(err)
	}
	return &csi.DeleteVolumeResponse{}, nil
}

// archive renames subDir to archived-<name> beside it, adding a timestamp when
// that name is taken, so no earlier archive is ever replaced. It returns ""
// when there was nothing to archive.
func archive(ctx context.Context, c share.Client, subDir string) (string, error) {
	if _, err := c.Stat(ctx, subDir); errors.Is(err, fs.ErrNotExist) {
		return "", nil
	} else if err != nil {
		return "", err
	}
	dir, name := path.Split(subDir)
	candidates := []string{dir + "archived-" + name}
	stamp := time.Now().UTC().Format("20060102T150405Z")
	for i := range 10 {
		suffix := "-" + stamp
		if i > 0 {
			suffix += fmt.Sprintf("-%d", i)
		}
		candidates = append(candidates, dir+"archived-"+name+suffix)
	}
	for _, to := range candidates {
		err := c.Rename(ctx, subDir, to)
		if err == nil {
			return to, nil
		}
		if !errors.Is(err, fs.ErrExist) {
			return "", err
		}
	}
	return "", status.Errorf(codes.AlreadyExists, "every archive name for %s is taken; move old archives away", subDir)
}

func (d *Driver) ValidateVolumeCapabilities(ctx context.Context, req *csi.ValidateVolumeCapabilitiesRequest) (*csi.ValidateVolumeCapabilitiesResponse, error) {
	if req.GetVolumeId() == "" {
		return nil, status.Error(codes.InvalidArgument, "volume ID is missing")
	}
	if len(req.GetVolumeCapabilities()) == 0 {
		return nil, status.Error(codes.InvalidArgument, "volume capabilities are missing")
	}
	vol, err := volume.ParseID(req.GetVolumeId())
	if err != nil {
		return nil, status.Errorf(codes.NotFound, "no such volume: %v", err)
	}
	if err := d.checkExists(ctx, vol, credentialsFrom(req.GetSecrets())); err != nil {
		return nil, err
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

// checkExists returns NotFound when the volume's directory is gone.
func (d *Driver) checkExists(ctx context.Context, vol volume.Volume, creds share.Credentials) error {
	err := d.withShare(ctx, vol.Source, creds, func(c share.Client) error {
		fi, err := c.Stat(ctx, vol.SubDir)
		if err != nil {
			return err
		}
		if !fi.IsDir {
			return fmt.Errorf("%s is not a directory: %w", vol.SubDir, fs.ErrNotExist)
		}
		return nil
	})
	if errors.Is(err, fs.ErrNotExist) {
		return status.Errorf(codes.NotFound, "volume directory %s does not exist on %s", vol.SubDir, vol.Source.String())
	}
	return shareStatus(err)
}

// ControllerGetVolume reports the volume and its recorded size. The request
// carries no secrets, so an SMB share is read through an idle session that an
// earlier call with secrets left in the pool, when there is one.
func (d *Driver) ControllerGetVolume(ctx context.Context, req *csi.ControllerGetVolumeRequest) (*csi.ControllerGetVolumeResponse, error) {
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
	lease, err := d.leaseWithoutSecrets(ctx, vol.Source)
	if err != nil {
		return nil, err
	}
	if lease == nil {
		return resp, nil
	}
	_, err = lease.Stat(ctx, vol.SubDir)
	if err == nil {
		if rec, rerr := readRecord(ctx, lease.Client, vol.SubDir); rerr == nil {
			resp.Volume.CapacityBytes = rec.CapacityBytes
		}
	}
	lease.Release(err)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, status.Errorf(codes.NotFound, "volume directory %s does not exist on %s", vol.SubDir, vol.Source.String())
	}
	if err != nil {
		return nil, shareStatus(err)
	}
	return resp, nil
}

// ControllerGetVolumeHealth reports INACCESSIBLE when the share cannot be
// reached or the volume's directory is gone from it.
func (d *Driver) ControllerGetVolumeHealth(ctx context.Context, req *csi.ControllerGetVolumeHealthRequest) (*csi.ControllerGetVolumeHealthResponse, error) {
	vol, err := existingVolumeID(req.GetVolumeId())
	if err != nil {
		return nil, err
	}
	health := &csi.VolumeHealth{VolumeId: req.GetVolumeId()}
	check := func(c share.Client) error {
		fi, err := c.Stat(ctx, vol.SubDir)
		if err == nil && !fi.IsDir {
			return fmt.Errorf("%s is not a directory: %w", vol.SubDir, fs.ErrNotExist)
		}
		return err
	}
	if vol.Source.Protocol == source.SMB && req.GetSecrets()["username"] == "" {
		// No credentials: look through a session a call with secrets left
		// open, or report nothing known rather than a login failure.
		lease := d.cfg.Pool.GetIdle(vol.Source)
		if lease == nil {
			return &csi.ControllerGetVolumeHealthResponse{VolumeHealth: health}, nil
		}
		err = check(lease.Client)
		lease.Release(err)
	} else {
		err = d.withShare(ctx, vol.Source, credentialsFrom(req.GetSecrets()), check)
	}
	switch {
	case err == nil:
	case ctx.Err() != nil:
		return nil, shareStatus(err)
	case errors.Is(err, fs.ErrNotExist):
		health.HealthStatuses = append(health.HealthStatuses, &csi.VolumeHealth_VolumeHealthEntry{
			Status: csi.VolumeHealthErrorType_INACCESSIBLE, Reason: "DirectoryMissing",
			Message: fmt.Sprintf("volume directory %s is missing from %s", vol.SubDir, vol.Source.String()),
		})
	default:
		health.HealthStatuses = append(health.HealthStatuses, &csi.VolumeHealth_VolumeHealthEntry{
			Status: csi.VolumeHealthErrorType_INACCESSIBLE, Reason: "ServerUnreachable",
			Message: status.Convert(err).Message(),
		})
	}
	return &csi.ControllerGetVolumeHealthResponse{VolumeHealth: health}, nil
}

// GetCapacity reports the free space of the share named by the parameters.
// Capacity is per share: with no source there is no storage to measure, and
// the answer is zero.
func (d *Driver) GetCapacity(ctx context.Context, req *csi.GetCapacityRequest) (*csi.GetCapacityResponse, error) {
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
	lease, err := d.leaseWithoutSecrets(ctx, params.Source)
	if err != nil {
		return nil, err
	}
	if lease == nil {
		return nil, status.Errorf(codes.FailedPrecondition, "GetCapacity carries no secrets and no SMB session to %s is open; it is available after a CreateVolume on that share", params.Source.String())
	}
	capacity, err := lease.Capacity(ctx)
	lease.Release(err)
	if err != nil {
		return nil, shareStatus(err)
	}
	return &csi.GetCapacityResponse{AvailableCapacity: capacity.AvailableBytes}, nil
}

// ControllerExpandVolume records the new size. File shares have no per-directory
// quota here, so the size is bookkeeping for Kubernetes, not a limit.
func (d *Driver) ControllerExpandVolume(ctx context.Context, req *csi.ControllerExpandVolumeRequest) (*csi.ControllerExpandVolumeResponse, error) {
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
	vol, err := volume.ParseID(req.GetVolumeId())
	if err != nil {
		return nil, status.Errorf(codes.NotFound, "no such volume: %v", err)
	}
	unlock, err := d.volumeLocks.Lock(ctx, vol.Source.String()+"#"+vol.SubDir)
	if err != nil {
		return nil, status.Error(codes.Aborted, "timed out waiting for another operation on this volume")
	}
	defer unlock()
	err = d.withShare(ctx, vol.Source, credentialsFrom(req.GetSecrets()), func(c share.Client) error {
		if _, err := c.Stat(ctx, vol.SubDir); err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				return status.Errorf(codes.NotFound, "volume directory %s does not exist", vol.SubDir)
			}
			return err
		}
		rec, err := readRecord(ctx, c, vol.SubDir)
		if errors.Is(err, fs.ErrNotExist) {
			rec, err = &record{Name: path.Base(vol.SubDir), Created: time.Now().UTC()}, nil
			if err := share.MkdirAll(ctx, c, volume.MetadataDir, 0o755); err != nil {
				return err
			}
		}
		if err != nil {
			return err
		}
		if size <= rec.CapacityBytes {
			size = rec.CapacityBytes
			return nil
		}
		rec.CapacityBytes = size
		return writeRecord(ctx, c, vol.SubDir, *rec)
	})
	if err != nil {
		return nil, shareStatus(err)
	}
	return &csi.ControllerExpandVolumeResponse{CapacityBytes: size, NodeExpansionRequired: false}, nil
}

// existingVolumeID parses the ID of a volume a call expects to exist: a
// missing ID is InvalidArgument, one this driver never issued is NotFound.
func existingVolumeID(id string) (volume.Volume, error) {
	if id == "" {
		return volume.Volume{}, status.Error(codes.InvalidArgument, "volume ID is missing")
	}
	vol, err := volume.ParseID(id)
	if err != nil {
		return volume.Volume{}, status.Errorf(codes.NotFound, "no such volume: %v", err)
	}
	return vol, nil
}
