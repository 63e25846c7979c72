package driver

import (
	"context"
	"strings"
	"testing"

	"github.com/container-storage-interface/spec/lib/go/csi"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/fileshare-csi/fileshare-csi/pkg/mounter"
)

// untouchedMounter fails the test on any call: every request below must be
// refused before the node mounts, checks or unmounts anything.
type untouchedMounter struct{ t *testing.T }

func (untouchedMounter) OS() string { return "linux" }
func (m untouchedMounter) Stage(context.Context, mounter.StageRequest) error {
	m.t.Error("Stage called")
	return nil
}
func (m untouchedMounter) Unstage(context.Context, string) error {
	m.t.Error("Unstage called")
	return nil
}
func (m untouchedMounter) Publish(context.Context, string, string, bool) error {
	m.t.Error("Publish called")
	return nil
}
func (m untouchedMounter) Unpublish(context.Context, string) error {
	m.t.Error("Unpublish called")
	return nil
}
func (m untouchedMounter) Stats(context.Context, string) (mounter.Stats, error) {
	m.t.Error("Stats called")
	return mounter.Stats{}, nil
}
func (m untouchedMounter) Check(context.Context, string) error {
	m.t.Error("Check called")
	return nil
}

func newDriverRefusingMounts(t *testing.T) *Driver {
	t.Helper()
	d, err := newTestDriver(t, Config{Name: "test.csi", NodeID: "n1", Controller: true, Node: true, Mounter: untouchedMounter{t}, StateDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// wantRefused checks an InvalidArgument that names key and repeats no value.
func wantRefused(t *testing.T, what string, err error, key string, values ...string) {
	t.Helper()
	if status.Code(err) != codes.InvalidArgument {
		t.Errorf("%s: %v, want InvalidArgument", what, err)
		return
	}
	if !strings.Contains(err.Error(), key) {
		t.Errorf("%s: %v, want it to name %s", what, err, key)
	}
	for _, v := range append(values, leak) {
		if strings.Contains(err.Error(), v) {
			t.Errorf("%s: %v repeats %q", what, err, v)
		}
	}
}

// The share in these requests does not exist: a refusal must come before the
// controller dials it.
const unreachableSMB = "smb://127.0.0.1:1/share"

func TestCreateVolumeRefusesCredentialsInMountOptions(t *testing.T) {
	d := newDriverRefusingMounts(t)
	ctx := context.Background()
	_, err := d.CreateVolume(ctx, &csi.CreateVolumeRequest{
		Name: "pvc-1", Parameters: map[string]string{"source": unreachableSMB, "mountOptions": "vers=3.0,password=" + leak},
		VolumeCapabilities: []*csi.VolumeCapability{mountCapability()},
	})
	wantRefused(t, "parameter mountOptions", err, `"password"`)

	_, err = d.CreateVolume(ctx, &csi.CreateVolumeRequest{
		Name: "pvc-1", Parameters: map[string]string{"source": unreachableSMB},
		VolumeCapabilities: []*csi.VolumeCapability{mountCapability("ro", "USERNAME=bob")},
	})
	wantRefused(t, "capability mount flags", err, `"username"`, "bob")

	_, err = d.CreateVolume(ctx, &csi.CreateVolumeRequest{
		Name: "pvc-1", Parameters: map[string]string{"source": unreachableSMB},
		VolumeCapabilities: []*csi.VolumeCapability{mountCapability("ro"), mountCapability("vers=3.0", "hard,addr=10.1.2.3")},
	})
	wantRefused(t, "second capability", err, `"addr"`, "10.1.2.3")

	_, err = d.CreateVolume(ctx, &csi.CreateVolumeRequest{
		Name: "pvc-1", Parameters: map[string]string{"source": "smb://alice:" + leak + "@127.0.0.1:1/share"},
		VolumeCapabilities: []*csi.VolumeCapability{mountCapability()},
	})
	wantRefused(t, "source with user info", err, "put them in the secret", "alice")
}

func TestNodeRefusesCredentialsAndRedirectsBeforeMounting(t *testing.T) {
	d := newDriverRefusingMounts(t)
	ctx := context.Background()
	stage := func(vctx map[string]string, flags ...string) error {
		_, err := d.NodeStageVolume(ctx, &csi.NodeStageVolumeRequest{
			VolumeId: "v1#smb://127.0.0.1:1/share#x#delete", StagingTargetPath: t.TempDir(),
			VolumeContext: vctx, VolumeCapability: mountCapability(flags...),
			Secrets: map[string]string{"username": "u", "password": "p"},
		})
		return err
	}
	wantRefused(t, "stage, volume context", stage(map[string]string{"mountOptions": "vers=3.0,pass=" + leak}), `"pass"`)
	wantRefused(t, "stage, flags", stage(nil, "vers=3.0", "addr=10.1.2.3"), `"addr"`, "10.1.2.3")
	wantRefused(t, "stage, sec=none", stage(nil, "Sec=None"), "sec=none")
	wantRefused(t, "stage, guest", stage(nil, "vers=3.0,guest"), `"guest"`)
	wantRefused(t, "stage, source", stage(map[string]string{"source": "//alice:" + leak + "@127.0.0.1/share"}), "put them in the secret", "alice")

	_, err := d.NodePublishVolume(ctx, &csi.NodePublishVolumeRequest{
		VolumeId: "v1#smb://127.0.0.1:1/share#x#delete", StagingTargetPath: t.TempDir(), TargetPath: t.TempDir(),
		VolumeCapability: mountCapability("ro", "credentials=/tmp/"+leak),
	})
	wantRefused(t, "publish, flags", err, `"credentials"`)
}

// Issue #27: every option that sends a mount elsewhere is refused in every
// node input a tenant controls (an inline volume's volumeAttributes, a
// stage's volume context and mount flags, a publish's mount flags) with
// InvalidArgument naming it, before anything is mounted, and no value is
// repeated.
func TestNodeRefusesRedirectOptionsInEveryInput(t *testing.T) {
	d := newDriverRefusingMounts(t)
	var err error
	if d.cfg.InlineSources, err = ParseInlineSources("smb://127.0.0.1/sharexx/scratch,nfs://127.0.0.1/export/scratch"); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	secrets := map[string]string{"username": "u", "password": "p"}
	for _, opt := range []string{
		"path=//127.0.0.123/sharexx/sub/../../private", "target=//127.0.0.123/private", "unc=//127.0.0.123/private",
		"prefixpath=../../private", "source=//127.0.0.123/private", "ip=127.0.0.123", "addr=127.0.0.123",
		"port=4451", "mountport=1", "mounthost=127.0.0.123", "mountaddr=127.0.0.123", "clientaddr=127.0.0.123",
		"proxy=127.0.0.123", "srcaddr=127.0.0.123", "cruid=0", "sep=;ip=127.0.0.123",
		"PATH=//127.0.0.123/private", " Target=//127.0.0.123/private",
	} {
		key := `"` + strings.ToLower(strings.TrimSpace(strings.SplitN(opt, "=", 2)[0])) + `"`
		values := []string{"127.0.0.123", "private", "4451"}
		for _, src := range []string{"smb://127.0.0.1/sharexx/scratch", "nfs://127.0.0.1/export/scratch"} {
			req := &csi.NodePublishVolumeRequest{
				VolumeId: "csi-0123abcd", TargetPath: t.TempDir() + "/mount", Secrets: secrets,
				VolumeContext:    map[string]string{ContextEphemeral: "true", ContextSource: src, ContextMountOptions: "vers=3.0," + opt},
				VolumeCapability: mountCapability(),
			}
			_, err := d.NodePublishVolume(ctx, req)
			wantRefused(t, "inline volumeAttributes "+src+" "+opt, err, key, values...)
		}
		_, err := d.NodeStageVolume(ctx, &csi.NodeStageVolumeRequest{
			VolumeId: "v1#smb://127.0.0.1:1/share#x#delete", StagingTargetPath: t.TempDir(),
			VolumeContext: map[string]string{"mountOptions": opt}, VolumeCapability: mountCapability(), Secrets: secrets,
		})
		wantRefused(t, "stage, volume context "+opt, err, key, values...)
		_, err = d.NodeStageVolume(ctx, &csi.NodeStageVolumeRequest{
			VolumeId: "v1#smb://127.0.0.1:1/share#x#delete", StagingTargetPath: t.TempDir(),
			VolumeCapability: mountCapability("vers=3.0", opt), Secrets: secrets,
		})
		wantRefused(t, "stage, flags "+opt, err, key, values...)
		_, err = d.NodePublishVolume(ctx, &csi.NodePublishVolumeRequest{
			VolumeId: "v1#smb://127.0.0.1:1/share#x#delete", StagingTargetPath: t.TempDir(), TargetPath: t.TempDir(),
			VolumeCapability: mountCapability("ro," + opt),
		})
		wantRefused(t, "publish, flags "+opt, err, key, values...)
	}
}

// Issue #27: an SMB server splits paths at backslashes too, so an inline
// source or subDir with one could pass the allow-list (compared by '/'
// components) as a directory below an allowed one and reach the server as
// ../../private. Both are refused with InvalidArgument before any mount.
func TestInlineSMBPathsWithBackslashesAreRefused(t *testing.T) {
	d := newDriverRefusingMounts(t)
	var err error
	if d.cfg.InlineSources, err = ParseInlineSources("smb://fs/share/scratch"); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ src, sub string }{
		{`smb://fs/share/scratch/a\..\..\private`, ""},
		{`smb://fs/share/scratch/a\b`, ""},
		{"smb://fs/share/scratch", `a\..\..\private`},
		{"smb://fs/share/scratch", `..\private`},
		{"smb://fs/share/scratch", "a/..."},
		{"smb://fs/share/scratch", "a/\uf05c..\uf05cprivate"},
	} {
		req := &csi.NodePublishVolumeRequest{
			VolumeId: "csi-0123abcd", TargetPath: t.TempDir() + "/mount", Secrets: map[string]string{"username": "u", "password": "p"},
			VolumeContext:    map[string]string{ContextEphemeral: "true", ContextSource: c.src, ContextSubDir: c.sub},
			VolumeCapability: mountCapability(),
		}
		if _, err := d.NodePublishVolume(context.Background(), req); status.Code(err) != codes.InvalidArgument {
			t.Errorf("inline %s subDir %q: %v, want InvalidArgument", c.src, c.sub, err)
		}
	}
}
