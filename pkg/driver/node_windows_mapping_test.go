package driver

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/container-storage-interface/spec/lib/go/csi"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/fileshare-csi/fileshare-csi/pkg/mounter"
	"github.com/fileshare-csi/fileshare-csi/pkg/os/csiproxy/csiproxytest"
	"github.com/fileshare-csi/fileshare-csi/pkg/os/winhost"
	"github.com/fileshare-csi/fileshare-csi/pkg/os/winpath"
	"github.com/fileshare-csi/fileshare-csi/pkg/share"
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
	return newWindowsCredsNodeOn(t, fake, fake.NewClient(t), stateDir)
}

// newWindowsCredsNodeOn is newWindowsCredsNode reaching the fake through
// host: csi-proxy's clients, or a csiproxytest.OptionsHost (the node in
// HostProcess mode).
func newWindowsCredsNodeOn(t *testing.T, fake *csiproxytest.Server, host winhost.Host, stateDir string) *Driver {
	t.Helper()
	d, err := newTestDriver(t, Config{
		Name: "fileshare.csi.dev", NodeID: "win-1", Node: true,
		Mounter:  mounter.NewWindows(host),
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

// inlineOn publishes an inline volume of src for pod with secrets, as the
// kubelet does: the target's parent exists, the target does not.
func inlineOn(ctx context.Context, d *Driver, fake *csiproxytest.Server, id, pod, src, subDir string, secrets map[string]string) error {
	fake.Mkdir(winpath.Dir(winTargetOf(pod)))
	vctx := map[string]string{ContextEphemeral: "true", ContextSource: src, "csi.storage.k8s.io/pod.name": pod}
	if subDir != "" {
		vctx[ContextSubDir] = subDir
	}
	_, err := d.NodePublishVolume(ctx, &csi.NodePublishVolumeRequest{
		VolumeId: id, TargetPath: winTargetOf(pod), VolumeContext: vctx,
		VolumeCapability: windowsCapability(), Secrets: secrets,
	})
	return err
}

// wantNothingMounted fails unless the refused inline volume of pod left no
// link, no record and no mapping beyond want's.
func wantNothingMounted(t *testing.T, d *Driver, fake *csiproxytest.Server, pod string, mappedAs ...string) {
	t.Helper()
	wantNoMappingCall(t, fake)
	if _, ok := fake.Link(winTargetOf(pod)); ok {
		t.Fatal("the refused inline volume was linked to the share")
	}
	if _, err := d.nodeState().Published(winTargetOf(pod)); err == nil {
		t.Fatal("the refused inline volume has a publish record")
	}
	if _, err := d.nodeState().Staged(winTargetOf(pod)); err == nil {
		t.Fatal("the refused inline volume has a mount record")
	}
	m := fake.Mappings()
	var users []string
	for _, x := range m {
		users = append(users, x.Username)
	}
	if strings.Join(users, ",") != strings.Join(mappedAs, ",") {
		t.Fatalf("mappings %+v, want as %v", m, mappedAs)
	}
}

// aliceVolume is the volume aliceStaged stages, at "a".
const aliceVolume = "v1#smb://fs/share#pvc-alice#delete"

// aliceStaged is newInlineCredsNode whose server fs takes alice's
// password, with her volume aliceVolume staged at "a".
func aliceStaged(t *testing.T, mode string) (*Driver, *csiproxytest.Server) {
	t.Helper()
	d, fake := newInlineCredsNode(t, mode)
	fake.SetPassword("fs", `CORP\alice`, "alice-pw")
	if err := stageOn(context.Background(), d, fake, aliceVolume, "a", secretOf("alice", "alice-pw")); err != nil {
		t.Fatal(err)
	}
	return d, fake
}

// newInlineCredsNode is newWindowsCredsNodeOn, through csi-proxy or in
// HostProcess mode (a csiproxytest.OptionsHost), with inline volumes of
// \\fs\share and \\fs\other allowed.
func newInlineCredsNode(t *testing.T, mode string) (*Driver, *csiproxytest.Server) {
	t.Helper()
	fake := csiproxytest.Start(t, winDriverDir)
	var host winhost.Host = fake.NewClient(t)
	if mode == "HostProcess" {
		host = &csiproxytest.OptionsHost{Host: host}
	}
	d := newWindowsCredsNodeOn(t, fake, host, filepath.Join(t.TempDir(), "state"))
	var err error
	if d.cfg.InlineSources, err = ParseInlineSources("smb://fs/share,smb://fs/other"); err != nil {
		t.Fatal(err)
	}
	return d, fake
}

func wantNoMappingCall(t *testing.T, fake *csiproxytest.Server) {
	t.Helper()
	for _, c := range fake.Calls() {
		if c.Method == "NewSmbGlobalMapping" {
			t.Fatalf("mapped or linked although refused: %v", c.Request)
		}
	}
}

// An inline volume maps its server for the whole node as a stage does, so
// it is held to the same rule, through csi-proxy and in HostProcess mode:
// a pod whose inline Secret names another user than a volume mounted on
// the node uses for the server is refused before anything is mapped or
// linked, rather than linked into the share through that volume's mapping
// with its rights; the same credentials share the mapping; a password the
// server refuses does not.
func TestWindowsNodeHoldsInlineVolumesToOneUserPerServer(t *testing.T) {
	for _, mode := range []string{"csi-proxy", "HostProcess"} {
		t.Run(mode, func(t *testing.T) {
			d, fake := aliceStaged(t, mode)
			ctx := context.Background()
			alice := aliceVolume
			fake.ResetCalls()

			// The share alice's volume maps (whose working mapping the
			// node would reuse), another share of the server, and the
			// server under another case of its name.
			for i, src := range []string{"smb://fs/share", "smb://fs/other", "smb://FS/share"} {
				pod := fmt.Sprintf("mallory-%d", i)
				err := inlineOn(ctx, d, fake, "csi-mallory", pod, src, "", secretOf("mallory", "any-pw"))
				wantCode(t, "inline volume of "+src+" as another user", err, codes.FailedPrecondition, alice)
				for _, want := range []string{"1219", "nodePublishSecretRef", "different nodes"} {
					if !strings.Contains(err.Error(), want) {
						t.Errorf("%s: %q does not say %q", src, err, want)
					}
				}
				wantNoSecret(t, "conflict", err, "any-pw", "alice-pw")
				wantNothingMounted(t, d, fake, pod, `CORP\alice`)
			}

			// alice's user with a password the server refuses is not
			// enough either.
			err := inlineOn(ctx, d, fake, "csi-guess", "guess", "smb://fs/share", "", secretOf("alice", "guessed"))
			wantCode(t, "inline volume as the same user with a wrong password", err, codes.PermissionDenied, "refuses")
			wantNoSecret(t, "refusal", err, "guessed", "alice-pw")
			wantNothingMounted(t, d, fake, "guess", `CORP\alice`)

			// alice's own credentials share her mapping.
			if err := inlineOn(ctx, d, fake, "csi-alice", "alice", "smb://fs/share", "team", secretOf("alice", "alice-pw")); err != nil {
				t.Fatalf("inline volume with the same credentials: %v", err)
			}
			if l, ok := fake.Link(winTargetOf("alice")); !ok || !strings.Contains(strings.ToLower(l), `fs\share\team`) {
				t.Fatalf("inline volume linked to %q (%v), want into %s", l, ok, `\\fs\share\team`)
			}
			if m := fake.Mappings(); len(m) != 1 || m[0].Username != `CORP\alice` {
				t.Fatalf("mappings %+v, want alice's one", m)
			}
		})
	}
}

// The other way round: an inline volume's record holds its server as a
// staged volume's does, so a stage, or another inline volume, as another
// user is refused naming it, until it is unpublished.
func TestWindowsNodeChecksStagesAgainstInlineVolumes(t *testing.T) {
	for _, mode := range []string{"csi-proxy", "HostProcess"} {
		t.Run(mode, func(t *testing.T) {
			d, fake := newInlineCredsNode(t, mode)
			ctx := context.Background()
			if err := inlineOn(ctx, d, fake, "csi-alice", "alice", "smb://fs/share", "", secretOf("alice", "alice-pw")); err != nil {
				t.Fatal(err)
			}
			fake.ResetCalls()
			const bob = "v1#smb://fs/other#pvc-bob#delete"
			err := stageOn(ctx, d, fake, bob, "b", secretOf("bob", "bob-pw"))
			wantCode(t, "stage as another user after an inline volume", err, codes.FailedPrecondition, "volume csi-alice (an inline volume")
			if !strings.Contains(err.Error(), "node-stage Secret") {
				t.Errorf("%q does not name the node-stage Secret", err)
			}
			err = stageOn(ctx, d, fake, "v1#smb://fs/share#pvc-bob2#delete", "c", secretOf("bob", "bob-pw"))
			wantCode(t, "stage of the inline volume's share as another user", err, codes.FailedPrecondition, "volume csi-alice (an inline volume")
			err = inlineOn(ctx, d, fake, "csi-bob", "bob", "smb://fs/other", "", secretOf("bob", "bob-pw"))
			wantCode(t, "inline volume as another user after an inline volume", err, codes.FailedPrecondition, "volume csi-alice (an inline volume")
			wantNoMappingCall(t, fake)
			wantNothingMounted(t, d, fake, "bob", `CORP\alice`)

			// After a restart of the plugin, from the record alone.
			d2 := newWindowsCredsNodeOn(t, fake, fake.NewClient(t), d.cfg.StateDir)
			err = stageOn(ctx, d2, fake, bob, "b", secretOf("bob", "bob-pw"))
			wantCode(t, "stage as another user after a restart", err, codes.FailedPrecondition, "volume csi-alice (an inline volume")

			// Once the inline volume is unpublished, bob may map the server.
			if _, err := d.NodeUnpublishVolume(ctx, &csi.NodeUnpublishVolumeRequest{VolumeId: "csi-alice", TargetPath: winTargetOf("alice")}); err != nil {
				t.Fatal(err)
			}
			if err := stageOn(ctx, d, fake, bob, "b", secretOf("bob", "bob-pw")); err != nil {
				t.Fatalf("bob after alice's inline volume left the server: %v", err)
			}
		})
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

// A node's SMB global mapping of a share serves its staged volumes and its
// inline volumes alike: taking one kind down keeps the mapping while a
// volume of the other kind still links into the share (without it, the
// other volume's link leads nowhere its pod can read), and the last volume
// of either kind removes it. Both orders, through csi-proxy and in
// HostProcess mode.
func TestWindowsNodeKeepsAMappingInlineAndStagedVolumesShare(t *testing.T) {
	for _, mode := range []string{"csi-proxy", "HostProcess"} {
		for _, stagedFirst := range []bool{true, false} {
			t.Run(fmt.Sprintf("%s/staged volume taken down first: %v", mode, stagedFirst), func(t *testing.T) {
				d, fake := aliceStaged(t, mode)
				ctx := context.Background()
				staged := aliceVolume
				if err := inlineOn(ctx, d, fake, "csi-alice", "alice", "smb://fs/share", "team", secretOf("alice", "alice-pw")); err != nil {
					t.Fatal(err)
				}
				unstage := func() {
					if _, err := d.NodeUnstageVolume(ctx, &csi.NodeUnstageVolumeRequest{VolumeId: staged, StagingTargetPath: winStagingOf("a")}); err != nil {
						t.Fatal(err)
					}
				}
				unpublish := func() {
					if _, err := d.NodeUnpublishVolume(ctx, &csi.NodeUnpublishVolumeRequest{VolumeId: "csi-alice", TargetPath: winTargetOf("alice")}); err != nil {
						t.Fatal(err)
					}
				}
				first, second, left := unstage, unpublish, "the inline volume"
				if !stagedFirst {
					first, second, left = unpublish, unstage, "the staged volume"
				}
				first()
				if m := fake.Mappings(); len(m) != 1 {
					t.Fatalf("mappings %+v while %s still links into the share, want the one it uses", m, left)
				}
				second()
				if m := fake.Mappings(); len(m) != 0 {
					t.Fatalf("mappings %+v after the last volume on the share, want none", m)
				}
			})
		}
	}
}

// An inline volume whose records were never saved (the plugin died between
// its mount and its records) is still taken down as an inline volume: its
// link leads straight into the share, and the share's mapping, which logs
// on with the pod's Secret, goes with its last volume instead of staying
// on the node for good.
func TestWindowsInlineVolumeWithoutRecordsTakesItsMappingDown(t *testing.T) {
	for _, mode := range []string{"csi-proxy", "HostProcess"} {
		t.Run(mode, func(t *testing.T) {
			d, fake := newInlineCredsNode(t, mode)
			ctx := context.Background()
			fake.SetPassword("fs", `CORP\alice`, "alice-pw")
			if err := inlineOn(ctx, d, fake, "csi-alice", "alice", "smb://fs/share", "team", secretOf("alice", "alice-pw")); err != nil {
				t.Fatal(err)
			}
			d.nodeState().DropPublished(winTargetOf("alice"))
			d.nodeState().DropStaged(winTargetOf("alice"))
			if _, err := d.NodeUnpublishVolume(ctx, &csi.NodeUnpublishVolumeRequest{VolumeId: "csi-alice", TargetPath: winTargetOf("alice")}); err != nil {
				t.Fatal(err)
			}
			if _, ok := fake.Link(winTargetOf("alice")); ok {
				t.Error("the inline volume's link is still there")
			}
			if m := fake.Mappings(); len(m) != 0 {
				t.Errorf("mappings %+v after the share's last volume went, want none", m)
			}
		})
	}
}

// A node record that cannot be read (a torn write, a disk error) is never
// taken for no volume: a stage that must know who maps its server is
// refused naming the file, and an unstage keeps its share's mapping, which
// the unreadable record's volume (an inline volume here, linked from its
// pod's directory) may use.
func TestWindowsNodeNeverTakesAnUnreadableRecordForNoVolume(t *testing.T) {
	d, fake := aliceStaged(t, "csi-proxy")
	ctx := context.Background()
	staged := aliceVolume
	if err := inlineOn(ctx, d, fake, "csi-alice", "alice", "smb://fs/share", "team", secretOf("alice", "alice-pw")); err != nil {
		t.Fatal(err)
	}
	files, _ := filepath.Glob(filepath.Join(d.cfg.StateDir, "staged-*.json"))
	torn := ""
	for _, f := range files {
		if b, _ := os.ReadFile(f); strings.Contains(string(b), "pods") { // the inline volume's
			torn = f
		}
	}
	if torn == "" {
		t.Fatalf("no record of the inline volume among %v", files)
	}
	if err := os.WriteFile(torn, []byte(`{"volumeID":"csi-al`), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := d.NodeUnstageVolume(ctx, &csi.NodeUnstageVolumeRequest{VolumeId: staged, StagingTargetPath: winStagingOf("a")}); err != nil {
		t.Fatal(err)
	}
	if m := fake.Mappings(); len(m) != 1 {
		t.Errorf("mappings %+v after an unstage that could not read every record, want the share's kept", m)
	}
	// Only the unreadable record's volume maps the server now.
	err := stageOn(ctx, d, fake, "v1#smb://fs/other#pvc-bob#delete", "b", secretOf("bob", "bob-pw"))
	wantCode(t, "a stage while a record cannot be read", err, codes.FailedPrecondition, "cannot be read")
}

// A mapping no volume of the driver links into (an unstage whose removal
// of it failed, then was retried and found no link; a stage killed after
// its mapping and before its link) is vouched for by no record: the next
// stage of the share, another user's here, replaces it with its own
// credentials instead of linking through it with the first user's rights.
func TestWindowsNodeReplacesAMappingNoVolumeUses(t *testing.T) {
	for _, mode := range []string{"csi-proxy", "HostProcess"} {
		t.Run(mode, func(t *testing.T) {
			d, fake := aliceStaged(t, mode)
			ctx := context.Background()
			fake.SetPassword("fs", `CORP\bob`, "bob-pw")
			alice := aliceVolume
			// The unstage's removal of the mapping fails; its retry finds
			// no link and succeeds: alice's mapping stays, with no record.
			fake.Fail("RemoveSmbGlobalMapping", status.Error(codes.Unavailable, "csi-proxy restarting"))
			unstage := &csi.NodeUnstageVolumeRequest{VolumeId: alice, StagingTargetPath: winStagingOf("a")}
			if _, err := d.NodeUnstageVolume(ctx, unstage); err == nil {
				t.Fatal("the unstage whose mapping removal failed succeeded")
			}
			fake.Fail("RemoveSmbGlobalMapping", nil)
			if _, err := d.NodeUnstageVolume(ctx, unstage); err != nil {
				t.Fatal(err)
			}
			if m := fake.Mappings(); len(m) != 1 || m[0].Username != `CORP\alice` {
				t.Fatalf("mappings %+v: the case under test did not arise", m)
			}
			const bob = "v1#smb://fs/share#pvc-bob#delete"
			if err := stageOn(ctx, d, fake, bob, "b", secretOf("bob", "bob-pw")); err != nil {
				t.Fatal(err)
			}
			if m := fake.Mappings(); len(m) != 1 || m[0].Username != `CORP\bob` {
				t.Fatalf("mappings %+v after bob's stage, want bob's own", m)
			}
		})
	}
}

// A stage again of a staged volume (the kubelet's retry) whose Secret now
// names another user reuses a mapping that logs on as the first: it is
// refused, and the record keeps the user the mapping has, so the other
// user's volumes on the server are still held off it. (It was recorded as
// the new user's while the mapping kept the old one, and the other user's
// volume was then linked through that mapping.)
func TestWindowsRestageAsAnotherUserIsRefused(t *testing.T) {
	d, fake := aliceStaged(t, "csi-proxy")
	ctx := context.Background()
	fake.SetPassword("fs", `CORP\bob`, "bob-pw")
	alice := aliceVolume
	err := stageOn(ctx, d, fake, alice, "a", secretOf("bob", "made-up"))
	wantCode(t, "a stage again as another user", err, codes.FailedPrecondition, "another SMB user")
	wantNoSecret(t, "restage", err, "made-up", "alice-pw")
	// After a restart of the plugin a Windows node has no credentials (it
	// keeps them in memory only), just the record's identity: refused all
	// the same. (On Linux the test's node would find them in the keyring:
	// they are dropped from the record by hand.)
	st, err := d.nodeState().Staged(winStagingOf("a"))
	if err != nil || st.Identity == nil {
		t.Fatalf("alice's record: %+v, %v", st, err)
	}
	st.Request.Credentials = share.Credentials{}
	if err := d.nodeState().SaveStaged(winStagingOf("a"), st); err != nil {
		t.Fatal(err)
	}
	d = newWindowsCredsNodeOn(t, fake, fake.NewClient(t), d.cfg.StateDir)
	err = stageOn(ctx, d, fake, alice, "a", secretOf("bob", "made-up"))
	wantCode(t, "a stage again as another user after a restart", err, codes.FailedPrecondition, "another SMB user")
	err = stageOn(ctx, d, fake, "v1#smb://fs/share#pvc-bob#delete", "b", secretOf("bob", "bob-pw"))
	wantCode(t, "bob's own volume on alice's mapping", err, codes.FailedPrecondition, alice)
	if m := fake.Mappings(); len(m) != 1 || m[0].Username != `CORP\alice` {
		t.Fatalf("mappings %+v, want alice's alone", m)
	}
}

// pausingStage is a node's mounter whose Stage at path at waits, once the
// mount is made, until resume is closed: the moment an inline publish has
// linked into the share's mapping and not yet saved its record.
type pausingStage struct {
	mounter.Mounter
	at           string
	made, resume chan struct{}
}

func (p pausingStage) Stage(ctx context.Context, req mounter.StageRequest) error {
	err := p.Mounter.Stage(ctx, req)
	if winpath.Equal(req.StagingPath, p.at) {
		close(p.made)
		<-p.resume
	}
	return err
}

// An unstage of the share's last staged volume while an inline volume of
// the share is being published waits for the inline volume's record, and
// keeps the mapping the inline volume links through. (It went on at once,
// found no other recorded volume of the share, and removed the mapping
// under the live inline volume.)
func TestAnUnstageDuringAnInlinePublishKeepsTheMappingUnderIt(t *testing.T) {
	d, fake := aliceStaged(t, "csi-proxy")
	ctx := context.Background()
	p := pausingStage{Mounter: d.cfg.Mounter, at: winTargetOf("pod1"), made: make(chan struct{}), resume: make(chan struct{})}
	d.cfg.Mounter = p
	published := make(chan error, 1)
	go func() {
		published <- inlineOn(ctx, d, fake, "csi-inline", "pod1", "smb://fs/share", "", secretOf("alice", "alice-pw"))
	}()
	<-p.made
	unstaged := make(chan error, 1)
	go func() {
		_, err := d.NodeUnstageVolume(ctx, &csi.NodeUnstageVolumeRequest{VolumeId: aliceVolume, StagingTargetPath: winStagingOf("a")})
		unstaged <- err
	}()
	time.Sleep(200 * time.Millisecond) // an unstage that does not wait is done by now
	close(p.resume)
	if err := <-published; err != nil {
		t.Fatal(err)
	}
	if err := <-unstaged; err != nil {
		t.Fatal(err)
	}
	mapped := false
	for _, m := range fake.Mappings() {
		mapped = mapped || strings.EqualFold(m.RemotePath, `\\fs\share`)
	}
	if !mapped {
		t.Errorf("the unstage removed the mapping of \\\\fs\\share under the inline volume at %s", winTargetOf("pod1"))
	}
}
