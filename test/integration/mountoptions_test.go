//go:build linux

package integration

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/container-storage-interface/spec/lib/go/csi"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

// The secret a user pasted into a mount option or a source. It must come back
// in no error and reach no line of the driver's log (the driver runs at --v 5,
// where every request is logged).
const pastedSecret = "S3cretLeak"

func mountCapWithFlags(flags ...string) *csi.VolumeCapability {
	return &csi.VolumeCapability{
		AccessType: &csi.VolumeCapability_Mount{Mount: &csi.VolumeCapability_MountVolume{MountFlags: flags}},
		AccessMode: &csi.VolumeCapability_AccessMode{Mode: csi.VolumeCapability_AccessMode_MULTI_NODE_MULTI_WRITER},
	}
}

// refusedWithout checks an InvalidArgument whose message names want and
// repeats none of the values.
func refusedWithout(t *testing.T, err error, want string, values ...string) {
	t.Helper()
	if status.Code(err) != codes.InvalidArgument {
		t.Fatalf("%v, want InvalidArgument", err)
	}
	if !strings.Contains(err.Error(), want) {
		t.Errorf("%v, want it to mention %s", err, want)
	}
	for _, v := range append(values, pastedSecret) {
		if strings.Contains(err.Error(), v) {
			t.Errorf("%v repeats %q", err, v)
		}
	}
}

func TestMountOptionCredentialsAreRefusedAndNotLogged(t *testing.T) {
	ctrl, nd := controller(t), node(t)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	base := "mountoptions"
	if err := os.MkdirAll(filepath.Join(env.samba.Data, base), 0o777); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(filepath.Join(env.samba.Data, base), 0o777); err != nil {
		t.Fatal(err)
	}
	smbParams := map[string]string{"source": smbSource(base)}
	noDirectory := func(t *testing.T, name string) {
		t.Helper()
		if _, err := os.Stat(filepath.Join(env.samba.Data, base, name)); !os.IsNotExist(err) {
			t.Errorf("CreateVolume was refused but made %s on the share (%v)", name, err)
		}
	}

	t.Run("CreateVolume/parameter", func(t *testing.T) {
		_, err := ctrl.CreateVolume(ctx, &csi.CreateVolumeRequest{
			Name: "pvc-mo-param", Parameters: withParams(smbParams, "mountOptions", "vers=3.0,password="+pastedSecret),
			Secrets: smbSecrets(), VolumeCapabilities: []*csi.VolumeCapability{mountCap},
		})
		refusedWithout(t, err, `"password"`)
		noDirectory(t, "pvc-mo-param")
	})
	t.Run("CreateVolume/flags", func(t *testing.T) {
		_, err := ctrl.CreateVolume(ctx, &csi.CreateVolumeRequest{
			Name: "pvc-mo-flags", Parameters: smbParams, Secrets: smbSecrets(),
			VolumeCapabilities: []*csi.VolumeCapability{mountCapWithFlags("ro", "USERNAME=bob")},
		})
		refusedWithout(t, err, `"username"`, "bob")
		noDirectory(t, "pvc-mo-flags")
	})
	t.Run("CreateVolume/source", func(t *testing.T) {
		_, err := ctrl.CreateVolume(ctx, &csi.CreateVolumeRequest{
			Name: "pvc-mo-source", Parameters: map[string]string{"source": "smb://alice:" + pastedSecret + "@127.0.0.1:4450/share/" + base},
			Secrets: smbSecrets(), VolumeCapabilities: []*csi.VolumeCapability{mountCap},
		})
		refusedWithout(t, err, "credentials do not belong in the source; put them in the secret", "alice:")
		noDirectory(t, "pvc-mo-source")
	})

	t.Run("ValidateVolumeCapabilities", func(t *testing.T) {
		vol := create(t, ctrl, "pvc-mo-validate", smbParams, smbSecrets())
		t.Cleanup(func() {
			if _, err := ctrl.DeleteVolume(context.Background(), &csi.DeleteVolumeRequest{VolumeId: vol.GetVolumeId(), Secrets: smbSecrets()}); err != nil {
				t.Errorf("DeleteVolume: %v", err)
			}
		})
		validate := func(vctx map[string]string, flags ...string) *csi.ValidateVolumeCapabilitiesResponse {
			t.Helper()
			resp, err := ctrl.ValidateVolumeCapabilities(ctx, &csi.ValidateVolumeCapabilitiesRequest{
				VolumeId: vol.GetVolumeId(), VolumeContext: vctx, Secrets: smbSecrets(),
				VolumeCapabilities: []*csi.VolumeCapability{mountCapWithFlags(flags...)},
			})
			if err != nil {
				t.Fatalf("ValidateVolumeCapabilities: %v", err)
			}
			return resp
		}
		if resp := validate(vol.GetVolumeContext(), "vers=3.0"); resp.GetConfirmed() == nil {
			t.Fatalf("harmless options not confirmed: %s", resp.GetMessage())
		}
		for _, resp := range []*csi.ValidateVolumeCapabilitiesResponse{
			validate(vol.GetVolumeContext(), "vers=3.0", "hard,Password="+pastedSecret),
			validate(withParams(vol.GetVolumeContext(), "mountOptions", "vers=3.0,cred=/"+pastedSecret)),
		} {
			if resp.GetConfirmed() != nil {
				t.Errorf("confirmed: %v", resp.GetConfirmed())
			}
			if msg := resp.GetMessage(); !strings.Contains(msg, "secret") || strings.Contains(msg, pastedSecret) {
				t.Errorf("message %q: want a refusal that points to the secret, without the password", msg)
			}
		}
	})

	// The node refuses before it creates the staging directory or runs mount.
	stageDir := filepath.Join(env.dir, "mountoptions-staging")
	stage := func(vctx map[string]string, flags ...string) error {
		_, err := nd.NodeStageVolume(ctx, &csi.NodeStageVolumeRequest{
			VolumeId: "v1#" + smbSource(base) + "#pvc-mo-node#delete", StagingTargetPath: stageDir,
			VolumeContext: vctx, VolumeCapability: mountCapWithFlags(flags...), Secrets: smbSecrets(),
		})
		return err
	}
	notStaged := func(t *testing.T) {
		t.Helper()
		if _, err := os.Stat(stageDir); !os.IsNotExist(err) {
			t.Errorf("staging path exists after a refused stage (%v)", err)
		}
		if b, _ := os.ReadFile("/proc/self/mountinfo"); bytes.Contains(b, []byte(stageDir)) {
			t.Errorf("%s is mounted", stageDir)
		}
	}
	t.Run("NodeStageVolume/context", func(t *testing.T) {
		refusedWithout(t, stage(map[string]string{"mountOptions": "vers=3.0,pass=" + pastedSecret}, "vers=3.0"), `"pass"`)
		notStaged(t)
	})
	t.Run("NodeStageVolume/flags", func(t *testing.T) {
		refusedWithout(t, stage(nil, "vers=3.0", "addr=10.1.2.3"), `"addr"`, "10.1.2.3")
		notStaged(t)
	})
	t.Run("NodeStageVolume/source", func(t *testing.T) {
		err := stage(map[string]string{"source": "smb://alice:" + pastedSecret + "@127.0.0.1:4450/share", "subDir": "x"}, "vers=3.0")
		refusedWithout(t, err, "credentials do not belong in the source; put them in the secret", "alice:")
		notStaged(t)
	})
	// Issue #27: the options that send the mount to another server, share,
	// path or port, in the volume context and in the flags.
	t.Run("NodeStageVolume/redirects", func(t *testing.T) {
		for _, opt := range []string{"path=//127.0.0.123/sharexx/sub/../../private", "target=//127.0.0.123/private",
			"prefixpath=../private", "source=//127.0.0.123/private", "port=4451", "clientaddr=127.0.0.123", "PATH=//127.0.0.123/private"} {
			key := `"` + strings.ToLower(strings.SplitN(opt, "=", 2)[0]) + `"`
			refusedWithout(t, stage(map[string]string{"mountOptions": "vers=3.0," + opt}, "vers=3.0"), key, "127.0.0.123", "private", "4451")
			refusedWithout(t, stage(nil, "vers=3.0", opt), key, "127.0.0.123", "private", "4451")
			notStaged(t)
		}
	})
	t.Run("NodePublishVolume/flags", func(t *testing.T) {
		_, err := nd.NodePublishVolume(ctx, &csi.NodePublishVolumeRequest{
			VolumeId: "v1#" + smbSource(base) + "#pvc-mo-node#delete", StagingTargetPath: stageDir,
			TargetPath: filepath.Join(env.dir, "mountoptions-target"), VolumeCapability: mountCapWithFlags("ro", "password="+pastedSecret),
		})
		refusedWithout(t, err, `"password"`)
	})

	log := driverLog(t)
	if !bytes.Contains(log, []byte("pvc-mo-param")) {
		t.Fatal("the driver log does not show the refused calls: is it logging requests at --v 5?")
	}
	for _, s := range []string{pastedSecret, "USERNAME=bob", "addr=10.1.2.3", "127.0.0.123"} {
		if bytes.Contains(log, []byte(s)) {
			for _, line := range strings.Split(string(log), "\n") {
				if strings.Contains(line, s) {
					t.Errorf("the driver log has %q: %.300s", s, line)
					break
				}
			}
		}
	}
}
