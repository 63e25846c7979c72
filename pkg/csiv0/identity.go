package csiv0

import (
	"context"

	csi1 "github.com/container-storage-interface/spec/lib/go/csi"
	"google.golang.org/grpc/status"

	"github.com/fileshare-csi/fileshare-csi/pkg/csiv0/csi"
)

// GetSupportedVersions is the one call without a version: it is how a CO
// learns which to send.
func (a *Adapter) GetSupportedVersions(context.Context, *csi.GetSupportedVersionsRequest) (*csi.GetSupportedVersionsResponse, error) {
	versions := make([]*csi.Version, len(supportedVersions))
	for i, v := range supportedVersions {
		versions[i] = &csi.Version{Major: v.GetMajor(), Minor: v.GetMinor(), Patch: v.GetPatch()}
	}
	return &csi.GetSupportedVersionsResponse{Reply: &csi.GetSupportedVersionsResponse_Result_{
		Result: &csi.GetSupportedVersionsResponse_Result{SupportedVersions: versions},
	}}, nil
}

func (a *Adapter) GetPluginInfo(ctx context.Context, req *csi.GetPluginInfoRequest) (*csi.GetPluginInfoResponse, error) {
	fail := func(e *csi.Error) (*csi.GetPluginInfoResponse, error) {
		return &csi.GetPluginInfoResponse{Reply: &csi.GetPluginInfoResponse_Error{Error: failed(ctx, "GetPluginInfo", e)}}, nil
	}
	if e := checkVersion(req.GetVersion()); e != nil {
		return fail(e)
	}
	info, err := a.cfg.Identity.GetPluginInfo(ctx, &csi1.GetPluginInfoRequest{})
	if err != nil {
		return fail(general(status.Convert(err)))
	}
	return &csi.GetPluginInfoResponse{Reply: &csi.GetPluginInfoResponse_Result_{Result: &csi.GetPluginInfoResponse_Result{
		Name: info.GetName(), VendorVersion: info.GetVendorVersion(), Manifest: info.GetManifest(),
	}}}, nil
}

// ready asks the v1 Probe; a plugin not ready yet is an error the CO may
// retry.
func (a *Adapter) ready(ctx context.Context) *csi.Error {
	p, err := a.cfg.Identity.Probe(ctx, &csi1.ProbeRequest{})
	if err != nil {
		return general(status.Convert(err))
	}
	if p.GetReady() != nil && !p.GetReady().GetValue() {
		return generalError(csi.Error_GeneralError_UNDEFINED, false, "the plugin is not ready yet")
	}
	return nil
}
