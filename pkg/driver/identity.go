package driver

import (
	"context"

	"github.com/container-storage-interface/spec/lib/go/csi"
	"google.golang.org/protobuf/types/known/wrapperspb"
)

func (d *Driver) GetPluginInfo(context.Context, *csi.GetPluginInfoRequest) (*csi.GetPluginInfoResponse, error) {
	return &csi.GetPluginInfoResponse{Name: d.cfg.Name, VendorVersion: d.cfg.Version}, nil
}

func (d *Driver) GetPluginCapabilities(context.Context, *csi.GetPluginCapabilitiesRequest) (*csi.GetPluginCapabilitiesResponse, error) {
	caps := []*csi.PluginCapability{{
		Type: &csi.PluginCapability_Service_{Service: &csi.PluginCapability_Service{
			Type: csi.PluginCapability_Service_VOLUME_ACCESSIBILITY_CONSTRAINTS,
		}},
	}}
	// ControllerExpandVolume only records the size, so it is as safe while
	// the volume is in use as when it is not.
	caps = append(caps, &csi.PluginCapability{
		Type: &csi.PluginCapability_VolumeExpansion_{VolumeExpansion: &csi.PluginCapability_VolumeExpansion{
			Type: csi.PluginCapability_VolumeExpansion_ONLINE,
		}},
	})
	if d.cfg.Controller {
		// Snapshots are usable from every topology: they report none, and
		// the volume a restore makes has its protocol's (NFS: Linux nodes).
		for _, t := range []csi.PluginCapability_Service_Type{
			csi.PluginCapability_Service_CONTROLLER_SERVICE,
			csi.PluginCapability_Service_SNAPSHOT_ACCESSIBILITY_CONSTRAINTS,
			csi.PluginCapability_Service_GROUP_CONTROLLER_SERVICE,
		} {
			caps = append(caps, &csi.PluginCapability{
				Type: &csi.PluginCapability_Service_{Service: &csi.PluginCapability_Service{Type: t}},
			})
		}
	}
	return &csi.GetPluginCapabilitiesResponse{Capabilities: caps}, nil
}

// Probe reports ready: the driver has no backend connection of its own to
// wait for; each share is reached per call.
func (d *Driver) Probe(context.Context, *csi.ProbeRequest) (*csi.ProbeResponse, error) {
	return &csi.ProbeResponse{Ready: wrapperspb.Bool(true)}, nil
}
