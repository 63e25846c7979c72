//go:build linux

package driver

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/container-storage-interface/spec/lib/go/csi"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	mount "k8s.io/mount-utils"

	"github.com/fileshare-csi/fileshare-csi/pkg/mounter"
	"github.com/fileshare-csi/fileshare-csi/pkg/share"
	"github.com/fileshare-csi/fileshare-csi/pkg/source"
)

// rotatingMounter records the passwords handed to live mounts. The kernel's
// side is tested with real CIFS mounts in the VM (TestSMBPasswordRotation);
// this is the node's own decision of when to hand one over.
type rotatingMounter struct {
	mounter.Mounter
	rotated []string // path=password
	err     error
}

func (r *rotatingMounter) RotateCredentials(_ context.Context, path string, c share.Credentials) error {
	if r.err != nil {
		return r.err
	}
	r.rotated = append(r.rotated, path+"="+c.Password)
	return nil
}

// serverPasswords stands in for the server's user-space logon check.
type serverPasswords struct {
	accepts map[string]bool
	checked []string
}

func (s *serverPasswords) verify(_ context.Context, _ source.Source, c share.Credentials) error {
	s.checked = append(s.checked, c.Password)
	if !s.accepts[c.Password] {
		return fmt.Errorf("session setup: logon failure: %w", fs.ErrPermission)
	}
	return nil
}

// rotationUnderTest is a node with one volume staged with the password
// "old-Pa55" of user alice, which the server accepts.
type rotationUnderTest struct {
	d               *Driver
	fake            *mount.FakeMounter
	mounts          *[]networkMount
	rot             *rotatingMounter
	server          *serverPasswords
	id              string
	staging, target string
}

func newRotationUnderTest(t *testing.T, id string, secrets map[string]string) *rotationUnderTest {
	t.Helper()
	d, fake, calls := newNodeUnderTest(t)
	r := &rotationUnderTest{d: d, fake: fake, mounts: calls, rot: &rotatingMounter{Mounter: d.cfg.Mounter},
		server: &serverPasswords{accepts: map[string]bool{"old-Pa55": true}}, id: id,
		staging: filepath.Join(t.TempDir(), "staging"), target: filepath.Join(t.TempDir(), "target")}
	d.cfg.Mounter = r.rot
	d.cfg.VerifyCredentials = r.server.verify
	if _, err := d.NodeStageVolume(context.Background(), &csi.NodeStageVolumeRequest{
		VolumeId: id, StagingTargetPath: r.staging, Secrets: secrets, VolumeCapability: rwx(),
	}); err != nil {
		t.Fatal(err)
	}
	return r
}

func rwx() *csi.VolumeCapability {
	return capability(csi.VolumeCapability_AccessMode_MULTI_NODE_MULTI_WRITER, nil, "")
}

func alice(pw string) map[string]string {
	return map[string]string{"username": "alice", "password": pw}
}

// publish is the kubelet's publish of the target, or its periodic
// republish, with the Secret as it is now.
func (r *rotationUnderTest) publish(secrets map[string]string) error {
	_, err := r.d.NodePublishVolume(context.Background(), &csi.NodePublishVolumeRequest{
		VolumeId: r.id, StagingTargetPath: r.staging, TargetPath: r.target, Secrets: secrets, VolumeCapability: rwx(),
	})
	return err
}

const smbVolume = "v1#smb://fs/share/base#ns/claim#delete"

func TestRepublishHandsAChangedSMBPasswordToTheLiveMount(t *testing.T) {
	r := newRotationUnderTest(t, smbVolume, alice("old-Pa55"))
	if err := r.publish(alice("old-Pa55")); err != nil {
		t.Fatal(err)
	}
	if err := r.publish(alice("old-Pa55")); err != nil || len(r.rot.rotated) != 0 || len(r.server.checked) != 0 {
		t.Fatalf("republish with the same Secret: err %v, rotated %v, checked %v", err, r.rot.rotated, r.server.checked)
	}

	// The Secret changes before the server does: the mount keeps its
	// password and the republish reports why.
	err := r.publish(alice("new-Pa55"))
	if status.Code(err) != codes.PermissionDenied || !strings.Contains(err.Error(), "keeps its mount") {
		t.Fatalf("a password the server refuses: %v", err)
	}
	if strings.Contains(err.Error(), "new-Pa55") || strings.Contains(err.Error(), "old-Pa55") {
		t.Fatalf("the error carries a password: %v", err)
	}
	if len(r.rot.rotated) != 0 {
		t.Fatalf("a refused password reached the mount: %v", r.rot.rotated)
	}
	wantMetric(t, r.d, "fileshare_csi_node_credential_rotations_total", map[string]string{"result": "refused"}, 1)

	// The server has it now: the next republish hands it over, once.
	r.server.accepts["new-Pa55"] = true
	for range 2 {
		if err := r.publish(alice("new-Pa55")); err != nil {
			t.Fatal(err)
		}
	}
	if want := []string{r.staging + "=new-Pa55"}; fmt.Sprint(r.rot.rotated) != fmt.Sprint(want) {
		t.Fatalf("rotated %v, want %v", r.rot.rotated, want)
	}
	if st, err := r.d.nodeState().Staged(r.staging); err != nil || st.Request.Credentials.Password != "new-Pa55" {
		t.Fatalf("the staging record does not hold the new password: %v", err)
	}
	wantMetric(t, r.d, "fileshare_csi_node_credential_rotations_total", map[string]string{"result": "ok"}, 1)
	if len(*r.mounts) != 1 {
		t.Fatalf("rotation mounted again: %+v", *r.mounts)
	}

	// Another user cannot be handed to a live mount.
	err = r.publish(map[string]string{"username": "bob", "password": "new-Pa55"})
	if status.Code(err) != codes.FailedPrecondition || !strings.Contains(err.Error(), "restart the pods") {
		t.Fatalf("a Secret naming another user: %v", err)
	}

	// A kernel without password2 says so, and what to do.
	r.rot.err = fmt.Errorf("the kernel (6.1.0) cannot give a live SMB mount a new password: %w", mounter.ErrUnsupported)
	r.server.accepts["newer-Pa55"] = true
	err = r.publish(alice("newer-Pa55"))
	if status.Code(err) != codes.FailedPrecondition || !strings.Contains(err.Error(), "restart the pods") {
		t.Fatalf("rotation on a kernel that cannot: %v", err)
	}
	wantMetric(t, r.d, "fileshare_csi_node_credential_rotations_total", map[string]string{"result": "failed"}, 1)
}

// A pod that starts while the Secret is ahead of the server gets its
// volume: the mount works with the password it has.
func TestFirstPublishIsNotHeldBackByARefusedPassword(t *testing.T) {
	r := newRotationUnderTest(t, smbVolume, alice("old-Pa55"))
	if err := r.publish(alice("new-Pa55")); err != nil {
		t.Fatalf("first publish: %v", err)
	}
	if len(r.server.checked) != 1 || len(r.rot.rotated) != 0 {
		t.Fatalf("checked %v, rotated %v", r.server.checked, r.rot.rotated)
	}
}

// NFS has no passwords: a publish Secret on an NFS volume changes nothing.
func TestRepublishOfNFSNeverRotates(t *testing.T) {
	r := newRotationUnderTest(t, "v1#nfs://10.0.0.5/export#pvc-1#delete", nil)
	for range 2 {
		if err := r.publish(map[string]string{"username": "x", "password": "y"}); err != nil {
			t.Fatal(err)
		}
	}
	if len(r.server.checked) != 0 || len(r.rot.rotated) != 0 {
		t.Fatalf("checked %v, rotated %v", r.server.checked, r.rot.rotated)
	}
}

// The server changed the password and dropped the session before the
// Secret followed: the mount fails every look until the kernel has the new
// password, so the republish hands it over before it looks.
func TestRepublishRotatesAMountThatNoLongerLogsOn(t *testing.T) {
	r := newRotationUnderTest(t, smbVolume, alice("old-Pa55"))
	if err := r.publish(alice("old-Pa55")); err != nil {
		t.Fatal(err)
	}
	r.server.accepts = map[string]bool{"new-Pa55": true}
	r.fake.MountCheckErrors = map[string]error{r.staging: &os.PathError{Op: "statfs", Path: r.staging, Err: syscall.EACCES}}
	err := r.publish(alice("new-Pa55"))
	if len(r.rot.rotated) != 1 {
		t.Fatalf("the failing mount did not get the new password (republish: %v)", err)
	}
	if err == nil {
		t.Fatal("a republish of a mount that still fails its look succeeded")
	}
	r.fake.MountCheckErrors = nil
	if err := r.publish(alice("new-Pa55")); err != nil || len(r.rot.rotated) != 1 || len(*r.mounts) != 1 {
		t.Fatalf("once the mount logs on again: %v, rotated %v, mounts %d", err, r.rot.rotated, len(*r.mounts))
	}
}

// A negotiate volume mounted with NTLM (the Secret had username and
// password). The Secret is then changed to a Kerberos identity (principal
// and keytab, no username): the live mount keeps logging on as the old NTLM
// user with the old password, and the republish answers OK, so nothing says
// the change did not reach the mount (it did). It is refused, as another
// user is, with an error that says to restart the pods.
func TestASwitchFromNTLMToKerberosOnALiveMountIsRefused(t *testing.T) {
	r := newRotationUnderTest(t, "v1#smb://fs/share/base?auth=negotiate#ns/claim#delete", alice("old-Pa55"))
	if err := r.publish(alice("old-Pa55")); err != nil {
		t.Fatal(err)
	}
	kerberos := map[string]string{"principal": "alice@CORP.EXAMPLE", "krb5.keytab": "BQIAAA-NEW", "password": "new-Pa55"}
	err := r.publish(kerberos)
	st, _ := r.d.nodeState().Staged(r.staging)
	if err == nil || !strings.Contains(err.Error(), "restart the pods") {
		t.Errorf("the Secret now names Kerberos principal alice@CORP.EXAMPLE; the live mount keeps NTLM user %q: the republish answered %v", st.Request.Credentials.Username, err)
	}
	if st.Request.Credentials.Username != "alice" || st.Request.Credentials.Password != "old-Pa55" {
		t.Errorf("the record no longer says how the live mount logs on: %q", st.Request.Credentials.Username)
	}
}

// After a plugin restart on a node without a kernel keyring the record has
// no credentials, and a republish's Secret is recorded as the best guess.
// A Secret that now names bob while the live mount logs on as alice is
// refused, and nothing is recorded: it was recorded first, the working
// mount answered OK, and the next repair remounted the volume as bob.
func TestARestartWithoutKeyringDoesNotRecordAnotherUser(t *testing.T) {
	r := newRotationUnderTest(t, smbVolume, alice("old-Pa55"))
	linux := r.rot.Mounter.(*mounter.Linux)
	r.d.cfg.Mounter = linux
	// The kernel shows who the mount logs on as (username= among its
	// super options).
	linux.LogonOf = func(p string) (share.Credentials, bool) {
		return share.Credentials{Username: "alice"}, p == r.staging
	}
	if err := r.publish(alice("old-Pa55")); err != nil {
		t.Fatal(err)
	}
	// The restart: the record keeps no credentials.
	st, err := r.d.nodeState().Staged(r.staging)
	if err != nil {
		t.Fatal(err)
	}
	st.Request.Credentials = share.Credentials{}
	if err := r.d.nodeState().SaveStaged(r.staging, st); err != nil {
		t.Fatal(err)
	}

	err = r.publish(map[string]string{"username": "bob", "password": "bob-Pa55"})
	if status.Code(err) != codes.FailedPrecondition || !strings.Contains(err.Error(), "another SMB user") {
		t.Errorf("a Secret naming bob over alice's live mount: %v", err)
	}
	if st, _ := r.d.nodeState().Staged(r.staging); st.Request.Credentials != (share.Credentials{}) {
		t.Errorf("a refused Secret was recorded as the mount's: user %q", st.Request.Credentials.Username)
	}

	// alice's own Secret is recorded as before, in any case.
	if err := r.publish(map[string]string{"username": "ALICE", "password": "old-Pa55"}); err != nil {
		t.Fatal(err)
	}
	if st, _ := r.d.nodeState().Staged(r.staging); st.Request.Credentials.Password != "old-Pa55" {
		t.Errorf("alice's Secret was not recorded after the restart: user %q", st.Request.Credentials.Username)
	}
}

// The kernel shows the domain a CIFS mount logged on in: the server's own
// (from its NTLM challenge) when the Secret named none, and the domain
// mount.cifs split off a "DOMAIN\user" name. Neither makes the Secret's
// own user another.
func TestTheMountsDomainIsNoOtherUser(t *testing.T) {
	for _, tc := range []struct {
		live   share.Credentials
		secret share.Credentials
		same   bool
	}{
		{share.Credentials{Username: "alice", Domain: "SAMBA"}, share.Credentials{Username: "alice"}, true},
		{share.Credentials{Username: "alice", Domain: "CORP"}, share.Credentials{Username: `CORP\alice`}, true},
		{share.Credentials{Username: "alice", Domain: "CORP"}, share.Credentials{Username: "CORP/Alice"}, true},
		{share.Credentials{Username: `CORP\alice`}, share.Credentials{Username: "alice", Domain: "corp"}, true},
		{share.Credentials{Username: "alice", Domain: "CORP"}, share.Credentials{Username: "alice", Domain: "corp"}, true},
		{share.Credentials{Username: "alice", Domain: "CORP"}, share.Credentials{Username: "alice", Domain: "OTHER"}, false},
		{share.Credentials{Username: "alice", Domain: "CORP"}, share.Credentials{Username: `OTHER\alice`}, false},
		{share.Credentials{Username: "alice", Domain: "SAMBA"}, share.Credentials{Username: "bob"}, false},
	} {
		if got := mountedAs(tc.live, tc.secret); got != tc.same {
			t.Errorf("mounted as %+v, Secret %+v: same user %v, want %v", tc.live, tc.secret, got, tc.same)
		}
	}
}
