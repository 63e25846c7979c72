package driver

import (
	"context"

	"github.com/csi-addons/spec/lib/go/identity"
	"github.com/csi-addons/spec/lib/go/volumegroup"
	"google.golang.org/grpc"
	"google.golang.org/protobuf/types/known/wrapperspb"
)

// AddonsIdentity serves the CSI-Addons Identity service, which the
// csi-addons sidecar asks on its own endpoint (--csi-addons-address) before
// it calls any other CSI-Addons service there. Its method names repeat the
// CSI Identity's with other messages, so it is a type of its own.
type AddonsIdentity struct {
	identity.UnimplementedIdentityServer
	d *Driver
}

func (a *AddonsIdentity) GetIdentity(context.Context, *identity.GetIdentityRequest) (*identity.GetIdentityResponse, error) {
	return &identity.GetIdentityResponse{Name: a.d.cfg.Name, VendorVersion: a.d.cfg.Version}, nil
}

// GetCapabilities: volume groups are a controller service. A volume is in
// at most one group, and deleting a group never deletes its volumes.
func (a *AddonsIdentity) GetCapabilities(context.Context, *identity.GetCapabilitiesRequest) (*identity.GetCapabilitiesResponse, error) {
	caps := []*identity.Capability{{Type: &identity.Capability_Service_{Service: &identity.Capability_Service{
		Type: identity.Capability_Service_CONTROLLER_SERVICE,
	}}}}
	for _, t := range []identity.Capability_VolumeGroup_Type{
		identity.Capability_VolumeGroup_VOLUME_GROUP,
		identity.Capability_VolumeGroup_LIMIT_VOLUME_TO_ONE_VOLUME_GROUP,
		identity.Capability_VolumeGroup_DO_NOT_ALLOW_VG_TO_DELETE_VOLUMES,
		identity.Capability_VolumeGroup_MODIFY_VOLUME_GROUP,
		identity.Capability_VolumeGroup_GET_VOLUME_GROUP,
		identity.Capability_VolumeGroup_LIST_VOLUME_GROUPS,
	} {
		caps = append(caps, &identity.Capability{Type: &identity.Capability_VolumeGroup_{VolumeGroup: &identity.Capability_VolumeGroup{Type: t}}})
	}
	return &identity.GetCapabilitiesResponse{Capabilities: caps}, nil
}

// Probe: the controller needs nothing at start; each share is dialed when a
// call names it.
func (a *AddonsIdentity) Probe(context.Context, *identity.ProbeRequest) (*identity.ProbeResponse, error) {
	return &identity.ProbeResponse{Ready: wrapperspb.Bool(true)}, nil
}

// RegisterAddons puts the CSI-Addons services on s, the server of the
// CSI-Addons endpoint. Only a controller serves them.
func (d *Driver) RegisterAddons(s *grpc.Server) {
	identity.RegisterIdentityServer(s, &AddonsIdentity{d: d})
	if d.cfg.Controller {
		volumegroup.RegisterControllerServer(s, d.VolumeGroups())
	}
}
