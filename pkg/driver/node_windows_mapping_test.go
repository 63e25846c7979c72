package driver

import (
	"context"
	"fmt"
	"io/fs"
	"path/filepath"
	"strings"
	"testing"

	"github.com/container-storage-interface/spec/lib/go/csi"
	"google.golang.org/grpc/codes"

	"github.com/fileshare-csi/fileshare-csi/pkg/mounter"
	"github.com/fileshare-csi/fileshare-csi/pkg/os/csiproxy/csiproxytest"
	"github.com/fileshare-csi/fileshare-csi/pkg/source"
)

// The contract of the node service on a Windows node for credentials,
// through csi-proxy's generated clients against the fake csi-proxy, whose
// servers take the passwords a test sets, refuse a second user on one
// server with system error 1219 as Windows does, and keep a mapping's
// session until the test drops it: one set of credentials per server and
// node, never another volume's credentials, and a changed password that
// replaces a mapping only once the server takes it.

const winDriverDir = `c:\var\lib\kubelet\plugins\kubernetes.io\csi\fileshare.csi.dev`

func winStagingOf(vol string) string { return winDriverDir + `\` + vol + `\globalmount` }

func winTargetOf(pod string) string {
	return `c:\var\lib\kubelet\pods\` + pod + `\volumes\kubernetes.io~csi\pv\mount`
}

// newWindowsCredsNode is a Windows node whose user-space check of a
// password asks the fake's servers.
func newWindowsCredsNode(t *testing.T, fake *csiproxytest.Server, stateDir string) *Driver {
	t.Helper()
	d, err := New(Config{
		Name: "fileshare.csi.dev", NodeID: "win-1", Node: true,
		Mounter:  mounter.NewWindows(fake.NewClient(t)),
		StateDir: stateDir,
		VerifyCredentials: func(_ context.Context, src source.Source, c source.Credentials) error {
			user, err := mounter.WindowsUser(src, c)
			if err != nil {
				return err
			}
			if !fake.Accepts(src.Host, user, c.Password) {
				return fmt.Errorf("session setup: STATUS_LOGON_FAILURE: %w", fs.ErrPermission)
			}
			return nil
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	return d
}

func secretOf(user, password string) map[string]string {
	return map[string]string{"username": user, "password": password, "domain": "CORP"}
}

func stageOn(ctx context.Context, d *Driver, fake *csiproxytest.Server, id, vol string, secrets map[string]string) error {
	fake.Mkdir(winStagingOf(vol))
	_, err := d.NodeStageVolume(ctx, &csi.NodeStageVolumeRequest{
		VolumeId: id, StagingTargetPath: winStagingOf(vol), VolumeCapability: windowsCapability(), Secrets: secrets,
	})
	return err
}

func publishOn(ctx context.Context, d *Driver, id, vol, pod string, secrets map[string]string) error {
	_, err := d.NodePublishVolume(ctx, &csi.NodePublishVolumeRequest{
		VolumeId: id, StagingTargetPath: winStagingOf(vol), TargetPath: winTargetOf(pod),
		VolumeCapability: windowsCapability(), Secrets: secrets,
	})
	return err
}

func wantNoSecret(t *testing.T, what string, err error, secrets ...string) {
	t.Helper()
	for _, s := range secrets {
		if err != nil && strings.Contains(err.Error(), s) {
			t.Fatalf("%s: the error shows a password: %v", what, err)
		}
	}
}

func TestWindowsNodeRefusesASecondUserOnOneServer(t *testing.T) {
	fake := csiproxytest.Start(t, winDriverDir)
	d := newWindowsCredsNode(t, fake, filepath.Join(t.TempDir(), "state"))
	ctx := context.Background()
	const alice, bob = "v1#smb://fs/share#pvc-alice#delete", "v1#smb://FS/other#pvc-bob#delete"
	if err := stageOn(ctx, d, fake, alice, "a", secretOf("alice", "alice-pw")); err != nil {
		t.Fatal(err)
	}
	fake.ResetCalls()

	// Another share of the same server (its name in another case), and the
	// same share: both refused before anything is mapped, naming the
	// volume that holds the server and what to change.
	for _, tc := range []struct{ id, vol string }{{bob, "b"}, {"v1#smb://fs/share#pvc-bob2#delete", "c"}} {
		err := stageOn(ctx, d, fake, tc.id, tc.vol, secretOf("bob", "bob-pw"))
		wantCode(t, "stage as another user", err, codes.FailedPrecondition, alice)
		for _, want := range []string{"same node-stage Secret", "different nodes", "1219"} {
			if !strings.Contains(err.Error(), want) {
				t.Errorf("%s: %q does not say %q", tc.id, err, want)
			}
		}
		wantNoSecret(t, "conflict", err, "bob-pw", "alice-pw")
	}
	for _, c := range fake.Calls() {
		if c.Method == "NewSmbGlobalMapping" {
			t.Fatalf("mapped although the stage was refused: %v", c.Request)
		}
	}
	if m := fake.Mappings(); len(m) != 1 || m[0].Username != `CORP\alice` {
		t.Fatalf("mappings %+v, want alice's only", m)
	}

	// The same user and password on another share of the server is fine;
	// another server is fine for anyone.
	if err := stageOn(ctx, d, fake, "v1#smb://fs/third#pvc-alice2#delete", "d", secretOf("alice", "alice-pw")); err != nil {
		t.Fatalf("same credentials on another share: %v", err)
	}
	if err := stageOn(ctx, d, fake, "v1#smb://fs2/share#pvc-bob3#delete", "e", secretOf("bob", "bob-pw")); err != nil {
		t.Fatalf("another server: %v", err)
	}

	// Once alice's volumes are gone from the server, bob may map it.
	for _, v := range []struct{ id, vol string }{{alice, "a"}, {"v1#smb://fs/third#pvc-alice2#delete", "d"}} {
		if _, err := d.NodeUnstageVolume(ctx, &csi.NodeUnstageVolumeRequest{VolumeId: v.id, StagingTargetPath: winStagingOf(v.vol)}); err != nil {
			t.Fatal(err)
		}
	}
	if err := stageOn(ctx, d, fake, bob, "b", secretOf("bob", "bob-pw")); err != nil {
		t.Fatalf("bob after alice's volumes left the server: %v", err)
	}
}

// The same user with another password shares the mapping only when the
// server takes that password: knowing a user's name is not enough.
func TestWindowsNodeSharesAMappingOnlyWithAPasswordTheServerTakes(t *testing.T) {
	fake := csiproxytest.Start(t, winDriverDir)
	d := newWindowsCredsNode(t, fake, filepath.Join(t.TempDir(), "state"))
	ctx := context.Background()
	fake.SetPassword("fs", `CORP\alice`, "right")
	if err := stageOn(ctx, d, fake, "v1#smb://fs/share#pvc-1#delete", "a", secretOf("alice", "right")); err != nil {
		t.Fatal(err)
	}
	err := stageOn(ctx, d, fake, "v1#smb://fs/share#pvc-2#delete", "b", secretOf("alice", "guessed"))
	wantCode(t, "same user, a password the server refuses", err, codes.PermissionDenied, "refuses")
	wantNoSecret(t, "refusal", err, "guessed", "right")
	if _, ok := fake.Link(winStagingOf("b")); ok {
		t.Fatal("the refused volume was linked to the share")
	}

	// The server changed the password: a Secret with the new one shares
	// the mapping (which takes the new password when it is made again).
	fake.SetPassword("fs", `CORP\alice`, "pw-new-9c")
	if err := stageOn(ctx, d, fake, "v1#smb://fs/share#pvc-2#delete", "b", secretOf("alice", "pw-new-9c")); err != nil {
		t.Fatalf("same user, a password the server takes: %v", err)
	}
}

// A 1219 from a connection the driver did not make is FailedPrecondition
// with the driver's own words, never csi-proxy's raw error.
func TestWindowsNodeMapsSystemError1219(t *testing.T) {
	fake := csiproxytest.Start(t, winDriverDir)
	d := newWindowsCredsNode(t, fake, filepath.Join(t.TempDir(), "state"))
	ctx := context.Background()
	fake.AddMapping(csiproxytest.Mapping{RemotePath: `\\fs\admin`, Username: `CORP\admin`, Password: "x"})
	err := stageOn(ctx, d, fake, "v1#smb://fs/share#pvc-1#delete", "a", secretOf("alice", "alice-pw"))
	wantCode(t, "stage against a connection made outside the driver", err, codes.FailedPrecondition, "1219")
	for _, want := range []string{"did not make", "Get-SmbGlobalMapping", "same credentials"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("%q does not say %q", err, want)
		}
	}
	if strings.Contains(err.Error(), "Multiple connections") {
		t.Errorf("the raw csi-proxy error reached the caller: %v", err)
	}
	if m := fake.Mappings(); len(m) != 1 || m[0].RemotePath != `\\fs\admin` {
		t.Fatalf("mappings %+v, want the outside one alone, untouched", m)
	}
	if fake.Exists(winStagingOf("a")) {
		if _, ok := fake.Link(winStagingOf("a")); ok {
			t.Fatal("a link was left behind")
		}
	}
}
