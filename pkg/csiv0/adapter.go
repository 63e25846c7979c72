// Package csiv0 serves the pre-1.0 CSI API (CSI v0.1, protobuf package csi)
// as a thin adapter over the driver's CSI v1 services: every v0.1 call is
// checked for the version it assumes, turned into the v1 call (or calls)
// that do the work, and the v1 answer turned back into the v0.1 reply with
// its result/error oneof. No volume, mount or share logic lives here.
//
// The two APIs' gRPC services are named apart (csi.Identity and
// csi.v1.Identity, ...), so both are served on the driver's one socket.
//
// What v0.1 lacks, and what the adapter does about it:
//   - no staging: NodePublishVolume stages the volume at a path of the
//     adapter's own, one per volume and target path (derivable again from
//     the NodeUnpublishVolume request, so nothing is kept between calls),
//     and publishes it from there; NodeUnpublishVolume unpublishes and
//     unstages;
//   - no secrets: SMB credentials come from a directory the operator names
//     (a Kubernetes Secret mounted as a volume), read on every call, so a
//     rotated password is taken without a restart;
//   - no access mode in a volume capability: the widest,
//     MULTI_NODE_MULTI_WRITER, which every file share volume allows; a
//     read-only publish comes from the request's readonly flag;
//   - IDs are key-value maps: a volume's is {"volume_id": <v1 volume ID>},
//     its metadata the v1 volume context, a node's {"node_id": <node ID>}.
package csiv0

import (
	"context"
	"fmt"

	csi1 "github.com/container-storage-interface/spec/lib/go/csi"
	"google.golang.org/grpc"
	"k8s.io/klog/v2"

	"github.com/fileshare-csi/fileshare-csi/pkg/csiv0/csi"
)

// Keys of the v0.1 VolumeID and NodeID maps.
const (
	KeyVolumeID = "volume_id"
	KeyNodeID   = "node_id"
)

// supportedVersions are the CSI versions this adapter speaks: the one the
// seed protobuf is.
var supportedVersions = []*csi.Version{{Major: 0, Minor: 1, Patch: 0}}

// Config names the v1 services the adapter forwards to. Controller and Node
// are nil where the driver does not serve them.
type Config struct {
	Identity   csi1.IdentityServer
	Controller csi1.ControllerServer
	Node       csi1.NodeServer
	// StagingDir holds the staging paths NodePublishVolume mounts the
	// volumes at (node).
	StagingDir string
	// Secrets supplies the secrets v1 calls carry and v0.1 requests cannot
	// (SMB credentials); nil passes none.
	Secrets func() (map[string]string, error)
}

// Adapter serves the v0.1 Identity, Controller and Node services.
type Adapter struct {
	csi.UnimplementedIdentityServer
	csi.UnimplementedControllerServer
	csi.UnimplementedNodeServer
	cfg Config
}

// New returns an adapter over cfg's v1 services.
func New(cfg Config) (*Adapter, error) {
	if cfg.Identity == nil {
		return nil, fmt.Errorf("CSI v0.1: no v1 Identity service to serve it from")
	}
	if cfg.Node != nil && cfg.StagingDir == "" {
		return nil, fmt.Errorf("CSI v0.1: the node service needs a staging directory")
	}
	return &Adapter{cfg: cfg}, nil
}

// Register puts the v0.1 services on s, beside the v1 ones.
func (a *Adapter) Register(s grpc.ServiceRegistrar) {
	csi.RegisterIdentityServer(s, a)
	if a.cfg.Controller != nil {
		csi.RegisterControllerServer(s, a)
	}
	if a.cfg.Node != nil {
		csi.RegisterNodeServer(s, a)
	}
}

// checkVersion answers the error a request gets for the version it
// assumes, or nil when the adapter speaks it.
func checkVersion(v *csi.Version) *csi.Error {
	if v == nil {
		return missingField("version")
	}
	for _, s := range supportedVersions {
		if v.GetMajor() == s.GetMajor() && v.GetMinor() == s.GetMinor() && v.GetPatch() == s.GetPatch() {
			return nil
		}
	}
	return generalError(csi.Error_GeneralError_UNSUPPORTED_REQUEST_VERSION, true,
		fmt.Sprintf("CSI version %d.%d.%d is not supported: this plugin speaks %s", v.GetMajor(), v.GetMinor(), v.GetPatch(), versionList()))
}

func versionList() string {
	out := ""
	for i, v := range supportedVersions {
		if i > 0 {
			out += ", "
		}
		out += fmt.Sprintf("%d.%d.%d", v.GetMajor(), v.GetMinor(), v.GetPatch())
	}
	return out
}

// secrets reads the secrets v1 calls get; an error is a general one the CO
// may retry (a mounted Secret being updated).
func (a *Adapter) secrets() (map[string]string, *csi.Error) {
	if a.cfg.Secrets == nil {
		return nil, nil
	}
	s, err := a.cfg.Secrets()
	if err != nil {
		return nil, generalError(csi.Error_GeneralError_UNDEFINED, false, err.Error())
	}
	return s, nil
}

// failed logs an error reply: v0.1 carries errors in successful gRPC
// answers, which the driver's call log records only at high verbosity.
func failed(ctx context.Context, method string, e *csi.Error) *csi.Error {
	klog.FromContext(ctx).Error(nil, "CSI v0.1 call answered an error", "method", method, "error", e.String())
	return e
}

func volumeID(id *csi.VolumeID) string { return id.GetValues()[KeyVolumeID] }

// notOurs describes a volume ID without this plugin's key.
var notOurs = fmt.Sprintf("the volume ID has no %q: this plugin did not issue it", KeyVolumeID)
