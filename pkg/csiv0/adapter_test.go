package csiv0

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	csi1 "github.com/container-storage-interface/spec/lib/go/csi"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/fileshare-csi/fileshare-csi/pkg/csiv0/csi"
)

// The adapter's own logic: versions, error codes, where it stages and
// when it unstages. The calls against a real driver, servers and mounts
// are in test/integration/csiv0_test.go.

func TestCheckVersion(t *testing.T) {
	if e := checkVersion(&csi.Version{Major: 0, Minor: 1, Patch: 0}); e != nil {
		t.Fatalf("0.1.0 refused: %v", e)
	}
	for _, v := range []*csi.Version{{Major: 1}, {Minor: 2}, {Minor: 1, Patch: 3}, {}} {
		g := checkVersion(v).GetGeneralError()
		if g.GetErrorCode() != csi.Error_GeneralError_UNSUPPORTED_REQUEST_VERSION || !g.GetCallerMustNotRetry() || !strings.Contains(g.GetErrorDescription(), "0.1.0") {
			t.Errorf("version %v: %v", v, g)
		}
	}
	g := checkVersion(nil).GetGeneralError()
	if g.GetErrorCode() != csi.Error_GeneralError_MISSING_REQUIRED_FIELD || !g.GetCallerMustNotRetry() {
		t.Errorf("no version: %v", g)
	}
}

func TestErrorsFromV1(t *testing.T) {
	for _, tc := range []struct {
		err  error
		want string // the v0.1 error, as its text shows it
	}{
		{status.Error(codes.Aborted, "busy"), "OPERATION_PENDING_FOR_VOLUME"},
		{status.Error(codes.OutOfRange, "too big"), "UNSUPPORTED_CAPACITY_RANGE"},
		{status.Error(codes.Unimplemented, "no"), "CALL_NOT_IMPLEMENTED"},
		// v1's AlreadyExists (other parameters) is not "assume success".
		{status.Error(codes.AlreadyExists, "other parameters"), "UNDEFINED"},
		{status.Error(codes.InvalidArgument, "block"), "UNDEFINED"},
	} {
		if got := fromV1(tc.err, createCodes, createError).String(); !strings.Contains(got, tc.want) {
			t.Errorf("CreateVolume %v: %s, want %s", tc.err, got, tc.want)
		}
	}
	if got := fromV1(status.Error(codes.Internal, "mount.nfs: access denied"), nodePublishCodes, nodePublishError); got.GetNodePublishVolumeError().GetErrorCode() != csi.Error_NodePublishVolumeError_MOUNT_ERROR {
		t.Errorf("a failed mount: %v", got)
	}
	// A server that does not answer may come back: retry; a bad request
	// will not get better.
	if g := fromV1(status.Error(codes.Unavailable, "no answer"), nodePublishCodes, nodePublishError).GetGeneralError(); g == nil || g.GetCallerMustNotRetry() {
		t.Errorf("Unavailable: %v", g)
	}
	if g := fromV1(status.Error(codes.InvalidArgument, "bad"), nodePublishCodes, nodePublishError).GetGeneralError(); g == nil || !g.GetCallerMustNotRetry() || !strings.Contains(g.GetErrorDescription(), "bad") {
		t.Errorf("InvalidArgument: %v", g)
	}
	if got := fromV1(status.Error(codes.InvalidArgument, "not ours"), deleteCodes, deleteError); got.GetDeleteVolumeError().GetErrorCode() != csi.Error_DeleteVolumeError_INVALID_VOLUME_ID {
		t.Errorf("DeleteVolume InvalidArgument: %v", got)
	}
}

func TestCheckCreate(t *testing.T) {
	mount := []*csi.VolumeCapability{mountCapability()}
	for _, tc := range []struct {
		req  *csi.CreateVolumeRequest
		want string
	}{
		{&csi.CreateVolumeRequest{Name: "a", VolumeCapabilities: mount, Parameters: map[string]string{"source": "nfs://h/e", "subdir": "x"}}, "UNSUPPORTED_PARAMETER_KEY"},
		{&csi.CreateVolumeRequest{Name: "a", VolumeCapabilities: mount, Parameters: map[string]string{"source": "nfs://h/e", "onDelete": "shred"}}, "INVALID_PARAMETER_VALUE"},
		{&csi.CreateVolumeRequest{Name: "a", VolumeCapabilities: mount}, "INVALID_PARAMETER_VALUE"},
		{&csi.CreateVolumeRequest{Name: "../a", VolumeCapabilities: mount, Parameters: map[string]string{"source": "nfs://h/e"}}, "INVALID_VOLUME_NAME"},
		{&csi.CreateVolumeRequest{Name: "a", VolumeCapabilities: mount, Parameters: map[string]string{"source": "nfs://h/e"},
			CapacityRange: &csi.CapacityRange{RequiredBytes: 1 << 63}}, "UNSUPPORTED_CAPACITY_RANGE"},
		{&csi.CreateVolumeRequest{VolumeCapabilities: mount}, "MISSING_REQUIRED_FIELD"},
		{&csi.CreateVolumeRequest{Name: "a", Parameters: map[string]string{"source": "nfs://h/e"}}, "MISSING_REQUIRED_FIELD"},
	} {
		if got := checkCreate(tc.req).String(); !strings.Contains(got, tc.want) {
			t.Errorf("%v: %s, want %s", tc.req, got, tc.want)
		}
	}
	// A subDir parameter makes the name only a name.
	ok := &csi.CreateVolumeRequest{Name: "pvc/with/slashes", VolumeCapabilities: mount, Parameters: map[string]string{"source": "nfs://h/e", "subDir": "vol"}}
	if e := checkCreate(ok); e != nil {
		t.Errorf("%v: %v", ok, e)
	}
}

func TestStagingPathPerVolumeAndTarget(t *testing.T) {
	a := &Adapter{cfg: Config{StagingDir: "/staging"}}
	p := a.stagingPath("v1", "/pods/a")
	if filepath.Dir(p) != "/staging" || p != a.stagingPath("v1", "/pods/a") {
		t.Fatalf("staging path %s is not one stable entry of the staging directory", p)
	}
	// "\x00" keeps ("v", "1/pods/a") apart from ("v1", "/pods/a").
	for _, other := range []string{a.stagingPath("v1", "/pods/b"), a.stagingPath("v2", "/pods/a"), a.stagingPath("v", "1/pods/a")} {
		if other == p {
			t.Fatalf("two volume-target pairs share %s", p)
		}
	}
}

// recordingNode is a v1 node that records what it is asked and fails its
// publish.
type recordingNode struct {
	csi1.UnimplementedNodeServer
	calls []string
}

func (n *recordingNode) NodeStageVolume(_ context.Context, req *csi1.NodeStageVolumeRequest) (*csi1.NodeStageVolumeResponse, error) {
	n.calls = append(n.calls, "stage "+filepath.Base(req.GetStagingTargetPath()))
	if req.GetVolumeCapability().GetAccessMode().GetMode() != everyMode {
		return nil, status.Error(codes.InvalidArgument, "access mode")
	}
	return &csi1.NodeStageVolumeResponse{}, nil
}

func (n *recordingNode) NodePublishVolume(context.Context, *csi1.NodePublishVolumeRequest) (*csi1.NodePublishVolumeResponse, error) {
	n.calls = append(n.calls, "publish")
	return nil, status.Error(codes.Internal, "mount failed")
}

func (n *recordingNode) NodeUnstageVolume(_ context.Context, req *csi1.NodeUnstageVolumeRequest) (*csi1.NodeUnstageVolumeResponse, error) {
	n.calls = append(n.calls, "unstage "+filepath.Base(req.GetStagingTargetPath()))
	return &csi1.NodeUnstageVolumeResponse{}, nil
}

func TestNodePublishUnstagesOnlyWhatItStaged(t *testing.T) {
	n := &recordingNode{}
	a, err := New(Config{Identity: &csi1.UnimplementedIdentityServer{}, Node: n, StagingDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	req := &csi.NodePublishVolumeRequest{Version: supportedVersions[0], VolumeId: &csi.VolumeID{Values: map[string]string{KeyVolumeID: "vol"}},
		TargetPath: "/pods/a", VolumeCapability: mountCapability()}
	staged := filepath.Base(a.stagingPath("vol", "/pods/a"))
	resp, err := a.NodePublishVolume(context.Background(), req)
	if err != nil || resp.GetError().GetNodePublishVolumeError().GetErrorCode() != csi.Error_NodePublishVolumeError_MOUNT_ERROR {
		t.Fatalf("NodePublishVolume: %v, %v", resp, err)
	}
	if want := []string{"stage " + staged, "publish", "unstage " + staged}; strings.Join(n.calls, ",") != strings.Join(want, ",") {
		t.Fatalf("calls %v, want %v", n.calls, want)
	}
	// Staged before this call (an earlier publish to the target): the
	// failed publish leaves it for NodeUnpublishVolume.
	n.calls = nil
	if err := os.Mkdir(a.stagingPath("vol", "/pods/a"), 0o750); err != nil {
		t.Fatal(err)
	}
	if _, err := a.NodePublishVolume(context.Background(), req); err != nil {
		t.Fatal(err)
	}
	if want := []string{"stage " + staged, "publish"}; strings.Join(n.calls, ",") != strings.Join(want, ",") {
		t.Fatalf("calls %v, want %v", n.calls, want)
	}
}

func TestSecretDir(t *testing.T) {
	// As the kubelet lays out a Secret volume: the keys are links into a
	// timestamped directory that ..data points at.
	dir := t.TempDir()
	data := filepath.Join(dir, "..2026_11_25_06_00_00.000000001")
	if err := os.Mkdir(data, 0o755); err != nil {
		t.Fatal(err)
	}
	for k, v := range map[string]string{"username": "u", "password": "p4ss word\n"} {
		if err := os.WriteFile(filepath.Join(data, k), []byte(v), 0o600); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(filepath.Join("..data", k), filepath.Join(dir, k)); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink(filepath.Base(data), filepath.Join(dir, "..data")); err != nil {
		t.Fatal(err)
	}
	got, err := SecretDir(dir)()
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || got["username"] != "u" || got["password"] != "p4ss word\n" {
		t.Fatalf("secrets %q", got)
	}
	// A file too large to be a secret is refused by name, not shown.
	big := strings.Repeat("s", maxSecretBytes+1)
	if err := os.WriteFile(filepath.Join(dir, "domain"), []byte(big), 0o600); err != nil {
		t.Fatal(err)
	}
	_, err = SecretDir(dir)()
	if err == nil || !strings.Contains(err.Error(), "domain") || strings.Contains(err.Error(), "sss") {
		t.Fatalf("an oversized secret: %v", err)
	}
	if _, err := SecretDir(filepath.Join(dir, "missing"))(); err == nil {
		t.Fatal("a missing directory gave secrets")
	}
}
