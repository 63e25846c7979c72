//go:build linux

package integration

import (
	"bytes"
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	csi0 "github.com/fileshare-csi/fileshare-csi/pkg/csiv0/csi"
	"github.com/fileshare-csi/fileshare-csi/test/localservers"
)

// These tests drive the CSI v0.1 API (pkg/csiv0, --csi-v0) through the
// clients generated from its protobuf, on the same socket as v1, against
// the real servers; the node part mounts for real in the test VM.

var v0Version = &csi0.Version{Major: 0, Minor: 1, Patch: 0}

var v0Mount = &csi0.VolumeCapability{Value: &csi0.VolumeCapability_Mount{Mount: &csi0.VolumeCapability_MountVolume{}}}

type v0Clients struct {
	id   csi0.IdentityClient
	ctrl csi0.ControllerClient
	node csi0.NodeClient
}

func dialV0(t *testing.T) v0Clients {
	t.Helper()
	conn := dial(t)
	return v0Clients{csi0.NewIdentityClient(conn), csi0.NewControllerClient(conn), csi0.NewNodeClient(conn)}
}

func v0Ctx(t *testing.T) context.Context {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	t.Cleanup(cancel)
	return ctx
}

func v0ID(id string) *csi0.VolumeID {
	return &csi0.VolumeID{Values: map[string]string{"volume_id": id}}
}

// wantGeneral checks that e is a GeneralError of code with the retry flag.
func wantGeneral(t *testing.T, what string, e *csi0.Error, code csi0.Error_GeneralError_GeneralErrorCode, mustNotRetry bool) {
	t.Helper()
	g := e.GetGeneralError()
	if g == nil || g.GetErrorCode() != code || g.GetCallerMustNotRetry() != mustNotRetry || g.GetErrorDescription() == "" {
		t.Fatalf("%s: want general error %v (caller_must_not_retry %v) with a description, got %v", what, code, mustNotRetry, e)
	}
}

func TestCSIv0Identity(t *testing.T) {
	c := dialV0(t)
	ctx := v0Ctx(t)
	vs, err := c.id.GetSupportedVersions(ctx, &csi0.GetSupportedVersionsRequest{})
	if err != nil {
		t.Fatal(err)
	}
	got := vs.GetResult().GetSupportedVersions()
	if len(got) != 1 || got[0].GetMajor() != 0 || got[0].GetMinor() != 1 || got[0].GetPatch() != 0 {
		t.Fatalf("GetSupportedVersions: %v, want [0.1.0]", vs)
	}
	info, err := c.id.GetPluginInfo(ctx, &csi0.GetPluginInfoRequest{Version: v0Version})
	if err != nil {
		t.Fatal(err)
	}
	if info.GetResult().GetName() != "fileshare.csi.dev" || info.GetResult().GetVendorVersion() == "" {
		t.Fatalf("GetPluginInfo: %v", info)
	}
	// Every request carries the version it assumes; one the plugin does
	// not speak, or none, is refused in each service.
	for _, v := range []*csi0.Version{{Major: 1}, {Major: 0, Minor: 2}, {Major: 0, Minor: 1, Patch: 1}} {
		r, err := c.id.GetPluginInfo(ctx, &csi0.GetPluginInfoRequest{Version: v})
		if err != nil {
			t.Fatal(err)
		}
		wantGeneral(t, "GetPluginInfo "+v.String(), r.GetError(), csi0.Error_GeneralError_UNSUPPORTED_REQUEST_VERSION, true)
		cr, err := c.ctrl.CreateVolume(ctx, &csi0.CreateVolumeRequest{Version: v, Name: "v0-version", VolumeCapabilities: []*csi0.VolumeCapability{v0Mount},
			Parameters: map[string]string{"source": nfsSource("")}})
		if err != nil {
			t.Fatal(err)
		}
		wantGeneral(t, "CreateVolume "+v.String(), cr.GetError(), csi0.Error_GeneralError_UNSUPPORTED_REQUEST_VERSION, true)
		nr, err := c.node.GetNodeID(ctx, &csi0.GetNodeIDRequest{Version: v})
		if err != nil {
			t.Fatal(err)
		}
		wantGeneral(t, "GetNodeID "+v.String(), nr.GetError(), csi0.Error_GeneralError_UNSUPPORTED_REQUEST_VERSION, true)
	}
	r, err := c.id.GetPluginInfo(ctx, &csi0.GetPluginInfoRequest{})
	if err != nil {
		t.Fatal(err)
	}
	wantGeneral(t, "GetPluginInfo without a version", r.GetError(), csi0.Error_GeneralError_MISSING_REQUIRED_FIELD, true)
	if _, err := os.Stat(filepath.Join(env.nfs.Data, "v0-version")); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("a refused CreateVolume left something: %v", err)
	}

	node, err := c.node.GetNodeID(ctx, &csi0.GetNodeIDRequest{Version: v0Version})
	if err != nil || node.GetResult().GetNodeId().GetValues()["node_id"] != "integration-node" {
		t.Fatalf("GetNodeID: %v, %v", node, err)
	}
	if p, err := c.node.ProbeNode(ctx, &csi0.ProbeNodeRequest{Version: v0Version}); err != nil || p.GetResult() == nil {
		t.Fatalf("ProbeNode: %v, %v", p, err)
	}
	if p, err := c.ctrl.ControllerProbe(ctx, &csi0.ControllerProbeRequest{Version: v0Version}); err != nil || p.GetResult() == nil {
		t.Fatalf("ControllerProbe: %v, %v", p, err)
	}
	caps, err := c.ctrl.ControllerGetCapabilities(ctx, &csi0.ControllerGetCapabilitiesRequest{Version: v0Version})
	if err != nil {
		t.Fatal(err)
	}
	var rpcs []csi0.ControllerServiceCapability_RPC_Type
	var mount bool
	for _, c := range caps.GetResult().GetCapabilities() {
		if c.GetRpc() != nil {
			rpcs = append(rpcs, c.GetRpc().GetType())
		}
		if c.GetVolumeCapability().GetMount() != nil {
			mount = true
		}
	}
	// GET_CAPACITY is not advertised: a v0.1 GetCapacity names no share.
	if len(rpcs) != 1 || rpcs[0] != csi0.ControllerServiceCapability_RPC_CREATE_DELETE_VOLUME || !mount {
		t.Fatalf("ControllerGetCapabilities: %v", caps)
	}
	gc, err := c.ctrl.GetCapacity(ctx, &csi0.GetCapacityRequest{Version: v0Version})
	if err != nil {
		t.Fatal(err)
	}
	wantGeneral(t, "GetCapacity", gc.GetError(), csi0.Error_GeneralError_UNDEFINED, true)
	nc, err := c.node.NodeGetCapabilities(ctx, &csi0.NodeGetCapabilitiesRequest{Version: v0Version})
	if err != nil || len(nc.GetResult().GetCapabilities()) != 1 || nc.GetResult().GetCapabilities()[0].GetVolumeCapability().GetMount() == nil {
		t.Fatalf("NodeGetCapabilities: %v, %v", nc, err)
	}
}

// TestCSIv0CreateRefusals: what v1 answers with InvalidArgument gets
// v0.1's own codes, and nothing is made on the share.
func TestCSIv0CreateRefusals(t *testing.T) {
	protocols(t, func(t *testing.T, params, _ map[string]string, base string) {
		c := dialV0(t)
		ctx := v0Ctx(t)
		createErr := func(name string, params map[string]string, caps ...*csi0.VolumeCapability) *csi0.Error {
			t.Helper()
			r, err := c.ctrl.CreateVolume(ctx, &csi0.CreateVolumeRequest{Version: v0Version, Name: name, Parameters: params, VolumeCapabilities: caps})
			if err != nil {
				t.Fatal(err)
			}
			if r.GetResult() != nil {
				t.Fatalf("CreateVolume %q %v: succeeded, want an error", name, params)
			}
			return r.GetError()
		}
		for _, tc := range []struct {
			name   string
			params map[string]string
			want   csi0.Error_CreateVolumeError_CreateVolumeErrorCode
		}{
			{"v0-unknown", withParams(params, "subdir", "x"), csi0.Error_CreateVolumeError_UNSUPPORTED_PARAMETER_KEY},
			{"v0-badsource", withParams(params, "source", "ftp://127.0.0.1/x"), csi0.Error_CreateVolumeError_INVALID_PARAMETER_VALUE},
			{"v0-badmode", withParams(params, "mountPermissions", "rwx"), csi0.Error_CreateVolumeError_INVALID_PARAMETER_VALUE},
			{"../v0-escape", params, csi0.Error_CreateVolumeError_INVALID_VOLUME_NAME},
		} {
			e := createErr(tc.name, tc.params, v0Mount).GetCreateVolumeError()
			if e.GetErrorCode() != tc.want || e.GetErrorDescription() == "" {
				t.Errorf("CreateVolume %q %v: got %v, want %v", tc.name, tc.params, e, tc.want)
			}
		}
		wantGeneral(t, "CreateVolume without a name", createErr("", params, v0Mount), csi0.Error_GeneralError_MISSING_REQUIRED_FIELD, true)
		wantGeneral(t, "CreateVolume without capabilities", createErr("v0-nocaps", params), csi0.Error_GeneralError_MISSING_REQUIRED_FIELD, true)
		block := &csi0.VolumeCapability{Value: &csi0.VolumeCapability_Block{Block: &csi0.VolumeCapability_BlockVolume{}}}
		wantGeneral(t, "CreateVolume of a block volume", createErr("v0-block", params, block), csi0.Error_GeneralError_UNDEFINED, true)
		entries, err := os.ReadDir(base)
		if err != nil {
			t.Fatal(err)
		}
		if len(entries) != 0 {
			t.Fatalf("refused calls left %v in %s", entries, base)
		}
		if _, err := os.Stat(filepath.Join(filepath.Dir(base), "v0-escape")); !errors.Is(err, fs.ErrNotExist) {
			t.Fatalf("a name with .. reached outside the base: %v", err)
		}
	})
}

func TestCSIv0ControllerLifecycle(t *testing.T) {
	protocols(t, func(t *testing.T, params, _ map[string]string, base string) {
		c := dialV0(t)
		ctx := v0Ctx(t)
		req := &csi0.CreateVolumeRequest{Version: v0Version, Name: "v0-life", Parameters: params,
			VolumeCapabilities: []*csi0.VolumeCapability{v0Mount}, CapacityRange: &csi0.CapacityRange{RequiredBytes: 1 << 30}}
		r, err := c.ctrl.CreateVolume(ctx, req)
		if err != nil || r.GetResult() == nil {
			t.Fatalf("CreateVolume: %v, %v", r, err)
		}
		info := r.GetResult().GetVolumeInfo()
		id := info.GetId().GetValues()["volume_id"]
		if id == "" || info.GetCapacityBytes() != 1<<30 || info.GetAccessMode().GetMode() != csi0.AccessMode_MULTI_NODE_MULTI_WRITER ||
			info.GetMetadata().GetValues()["source"] == "" {
			t.Fatalf("CreateVolume result: %v", info)
		}
		dir := filepath.Join(base, "v0-life")
		if st, err := os.Stat(dir); err != nil || !st.IsDir() {
			t.Fatalf("volume directory %s: %v", dir, err)
		}
		// The same name again is the same volume.
		again, err := c.ctrl.CreateVolume(ctx, req)
		if err != nil || again.GetResult().GetVolumeInfo().GetId().GetValues()["volume_id"] != id {
			t.Fatalf("CreateVolume again: %v, %v (first %s)", again, err, id)
		}
		val, err := c.ctrl.ValidateVolumeCapabilities(ctx, &csi0.ValidateVolumeCapabilitiesRequest{Version: v0Version,
			VolumeInfo: info, VolumeCapabilities: []*csi0.VolumeCapability{v0Mount}})
		if err != nil || !val.GetResult().GetSupported() {
			t.Fatalf("ValidateVolumeCapabilities: %v, %v", val, err)
		}
		cp, err := c.ctrl.ControllerPublishVolume(ctx, &csi0.ControllerPublishVolumeRequest{Version: v0Version, VolumeId: info.GetId(),
			NodeId: &csi0.NodeID{Values: map[string]string{"node_id": "integration-node"}}})
		if err != nil || cp.GetError().GetControllerPublishVolumeError().GetErrorCode() != csi0.Error_ControllerPublishVolumeError_CALL_NOT_IMPLEMENTED {
			t.Fatalf("ControllerPublishVolume: %v, %v, want CALL_NOT_IMPLEMENTED", cp, err)
		}
		// A volume ID without this plugin's key, and one of another
		// driver's: refused, and ignored (nothing of ours has it).
		bad, err := c.ctrl.DeleteVolume(ctx, &csi0.DeleteVolumeRequest{Version: v0Version, VolumeId: &csi0.VolumeID{Values: map[string]string{"id": id}}})
		if err != nil || bad.GetError().GetDeleteVolumeError().GetErrorCode() != csi0.Error_DeleteVolumeError_INVALID_VOLUME_ID {
			t.Fatalf("DeleteVolume without volume_id: %v, %v", bad, err)
		}
		other, err := c.ctrl.DeleteVolume(ctx, &csi0.DeleteVolumeRequest{Version: v0Version, VolumeId: v0ID("vol-0123456789abcdef")})
		if err != nil || other.GetResult() == nil {
			t.Fatalf("DeleteVolume of another driver's ID: %v, %v", other, err)
		}
		if _, err := os.Stat(dir); err != nil {
			t.Fatalf("DeleteVolume of another ID touched %s: %v", dir, err)
		}
		for i := range 2 {
			d, err := c.ctrl.DeleteVolume(ctx, &csi0.DeleteVolumeRequest{Version: v0Version, VolumeId: info.GetId()})
			if err != nil || d.GetResult() == nil {
				t.Fatalf("DeleteVolume #%d: %v, %v", i+1, d, err)
			}
		}
		if _, err := os.Stat(dir); !errors.Is(err, fs.ErrNotExist) {
			t.Fatalf("volume directory after DeleteVolume: %v", err)
		}
		val, err = c.ctrl.ValidateVolumeCapabilities(ctx, &csi0.ValidateVolumeCapabilitiesRequest{Version: v0Version,
			VolumeInfo: info, VolumeCapabilities: []*csi0.VolumeCapability{v0Mount}})
		if err != nil || val.GetError().GetValidateVolumeCapabilitiesError().GetErrorCode() != csi0.Error_ValidateVolumeCapabilitiesError_VOLUME_DOES_NOT_EXIST {
			t.Fatalf("ValidateVolumeCapabilities of a deleted volume: %v, %v", val, err)
		}
		if bytes.Contains(driverLog(t), []byte(localservers.SMBPassword)) {
			t.Fatal("the driver log holds the SMB password")
		}
	})
}

// mountsBelow lists the mounts at or below dir.
func mountsBelow(t *testing.T, dir string) []string {
	t.Helper()
	return mountLines(t, func(p string) bool { return p == dir || strings.HasPrefix(p, dir+"/") })
}

// TestCSIv0NodePublish creates, publishes (staged by the adapter), writes,
// unpublishes and deletes through v0.1 only, with real mounts.
func TestCSIv0NodePublish(t *testing.T) {
	requireMounts(t)
	protocols(t, func(t *testing.T, params, _ map[string]string, base string) {
		c := dialV0(t)
		ctx := v0Ctx(t)
		name := "v0-node"
		r, err := c.ctrl.CreateVolume(ctx, &csi0.CreateVolumeRequest{Version: v0Version, Name: name, Parameters: params,
			VolumeCapabilities: []*csi0.VolumeCapability{v0Mount}})
		if err != nil || r.GetResult() == nil {
			t.Fatalf("CreateVolume: %v, %v", r, err)
		}
		info := r.GetResult().GetVolumeInfo()
		pods := filepath.Join(env.dir, "v0-pods-"+strings.ReplaceAll(t.Name(), "/", "-"))
		if err := os.MkdirAll(pods, 0o755); err != nil {
			t.Fatal(err)
		}
		target, roTarget := filepath.Join(pods, "rw"), filepath.Join(pods, "ro")
		pub := func(target string, readOnly bool) *csi0.NodePublishVolumeResponse {
			t.Helper()
			p, err := c.node.NodePublishVolume(ctx, &csi0.NodePublishVolumeRequest{Version: v0Version, VolumeId: info.GetId(),
				VolumeMetadata: info.GetMetadata(), TargetPath: target, VolumeCapability: v0Mount, Readonly: readOnly})
			if err != nil {
				t.Fatal(err)
			}
			return p
		}
		unpub := func(target string) {
			t.Helper()
			u, err := c.node.NodeUnpublishVolume(ctx, &csi0.NodeUnpublishVolumeRequest{Version: v0Version, VolumeId: info.GetId(), TargetPath: target})
			if err != nil || u.GetResult() == nil {
				t.Fatalf("NodeUnpublishVolume %s: %v, %v", target, u, err)
			}
		}
		stagedBefore := len(mountsBelow(t, env.v0StagingDir))
		for i := range 2 { // the second is a no-op
			if p := pub(target, false); p.GetResult() == nil {
				t.Fatalf("NodePublishVolume #%d: %v", i+1, p)
			}
		}
		if p := pub(roTarget, true); p.GetResult() == nil {
			t.Fatalf("NodePublishVolume read-only: %v", p)
		}
		if n := len(mountsAt(t, target)); n != 1 {
			t.Fatalf("%d mounts at %s after two publishes, want 1", n, target)
		}
		// One staging per target.
		if got := len(mountsBelow(t, env.v0StagingDir)) - stagedBefore; got != 2 {
			t.Fatalf("%d staging mounts, want 2", got)
		}
		if err := os.WriteFile(filepath.Join(target, "through-v0"), []byte("v0.1"), 0o644); err != nil {
			t.Fatalf("write through the published volume: %v", err)
		}
		if b, err := os.ReadFile(filepath.Join(base, name, "through-v0")); err != nil || string(b) != "v0.1" {
			t.Fatalf("the file on the server: %q, %v", b, err)
		}
		if b, err := os.ReadFile(filepath.Join(roTarget, "through-v0")); err != nil || string(b) != "v0.1" {
			t.Fatalf("the file through the read-only target: %q, %v", b, err)
		}
		if err := os.WriteFile(filepath.Join(roTarget, "refused"), nil, 0o644); err == nil {
			t.Fatal("wrote through the read-only target")
		}

		// A publish that fails after this call staged leaves no mount.
		blocker := filepath.Join(pods, "file")
		if err := os.WriteFile(blocker, nil, 0o644); err != nil {
			t.Fatal(err)
		}
		if p := pub(filepath.Join(blocker, "target"), false); p.GetError() == nil {
			t.Fatalf("NodePublishVolume below a file succeeded: %v", p)
		}
		if got := len(mountsBelow(t, env.v0StagingDir)) - stagedBefore; got != 2 {
			t.Fatalf("%d staging mounts after a failed publish, want the 2 of before", got)
		}

		unpub(roTarget)
		unpub(target)
		unpub(target) // idempotent
		if isMounted(t, target) || isMounted(t, roTarget) {
			t.Fatal("a target is still mounted after NodeUnpublishVolume")
		}
		if got := len(mountsBelow(t, env.v0StagingDir)) - stagedBefore; got != 0 {
			t.Fatalf("%d staging mounts left after NodeUnpublishVolume", got)
		}
		// A volume of no share this plugin knows: refused, not retried.
		np, err := c.node.NodePublishVolume(ctx, &csi0.NodePublishVolumeRequest{Version: v0Version, VolumeId: v0ID("vol-0123456789abcdef"),
			TargetPath: filepath.Join(pods, "foreign"), VolumeCapability: v0Mount})
		if err != nil {
			t.Fatal(err)
		}
		wantGeneral(t, "NodePublishVolume of another driver's volume", np.GetError(), csi0.Error_GeneralError_UNDEFINED, true)

		d, err := c.ctrl.DeleteVolume(ctx, &csi0.DeleteVolumeRequest{Version: v0Version, VolumeId: info.GetId()})
		if err != nil || d.GetResult() == nil {
			t.Fatalf("DeleteVolume: %v, %v", d, err)
		}
		if _, err := os.Stat(filepath.Join(base, name)); !errors.Is(err, fs.ErrNotExist) {
			t.Fatalf("volume directory after DeleteVolume: %v", err)
		}
		if bytes.Contains(driverLog(t), []byte(localservers.SMBPassword)) {
			t.Fatal("the driver log holds the SMB password")
		}
	})
}
