//go:build linux

package integration

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/container-storage-interface/spec/lib/go/csi"
	"golang.org/x/sys/unix"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/fileshare-csi/fileshare-csi/pkg/share"
	"github.com/fileshare-csi/fileshare-csi/pkg/source"
	"github.com/fileshare-csi/fileshare-csi/test/localservers"
)

// The password tests change it on a Samba of their own, so no other test
// meets a password it does not know.
const rotationPort = 4451

const rotatedPassword = "rotated-Pa55-2026"

func startRotationSamba(t *testing.T, name string) (*localservers.Server, string) {
	t.Helper()
	srv, err := localservers.StartSamba(context.Background(), filepath.Join(env.dir, "samba-"+name), rotationPort)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(srv.Stop)
	return srv, fmt.Sprintf("smb://127.0.0.1:%d/%s", rotationPort, localservers.SMBShare)
}

func secretsWith(password string) map[string]string {
	return map[string]string{"username": localservers.SMBUser, "password": password}
}

// The controller takes a Secret's new password on the very next call, and
// the sessions the old one opened are never lent again: a call that still
// brings the old password is refused by the server, not answered from a
// session the pool kept.
func TestControllerTakesANewSMBPasswordAtOnce(t *testing.T) {
	srv, src := startRotationSamba(t, "rotation-controller")
	ctrl := controller(t)
	params := map[string]string{"source": src}
	before := create(t, ctrl, "pvc-rotation-before", params, secretsWith(localservers.SMBPassword))
	if err := srv.SetSMBPassword(rotatedPassword); err != nil {
		t.Fatal(err)
	}
	after := create(t, ctrl, "pvc-rotation-after", params, secretsWith(rotatedPassword))
	for _, v := range []*csi.Volume{before, after} {
		dir := filepath.Join(srv.Data, strings.TrimPrefix(v.GetVolumeContext()["subDir"], "/"))
		if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
			t.Fatalf("volume directory %s: %v", dir, err)
		}
		deleteVol(t, ctrl, v.GetVolumeId(), secretsWith(rotatedPassword))
		if _, err := os.Stat(dir); !errors.Is(err, fs.ErrNotExist) {
			t.Fatalf("DeleteVolume with the new password left %s: %v", dir, err)
		}
	}
	_, err := ctrl.CreateVolume(context.Background(), &csi.CreateVolumeRequest{
		Name: "pvc-rotation-stale", Parameters: params, Secrets: secretsWith(localservers.SMBPassword),
		VolumeCapabilities: []*csi.VolumeCapability{mountCap},
	})
	if err == nil {
		t.Fatal("a call with the replaced password succeeded: a session opened with it was reused")
	}
	if strings.Contains(err.Error(), localservers.SMBPassword) {
		t.Fatalf("the error carries the password: %v", err)
	}
	t.Logf("the replaced password: %v", err)
}

// write is one write of the writer standing in for a pod.
type write struct {
	name           string
	started, ended time.Time
	err            error
}

// writer writes a new small file into dir every few milliseconds until
// stop, as a pod's application would.
type writer struct {
	dir    string
	mu     sync.Mutex
	writes []write
	stop   chan struct{}
	done   chan struct{}
}

func contentOf(name string) []byte { return []byte(strings.Repeat(name+"\n", 512)) }

func startWriter(dir string) *writer {
	w := &writer{dir: dir, stop: make(chan struct{}), done: make(chan struct{})}
	go func() {
		defer close(w.done)
		for i := 0; ; i++ {
			select {
			case <-w.stop:
				return
			default:
			}
			name := fmt.Sprintf("w-%06d", i)
			began := time.Now()
			err := os.WriteFile(filepath.Join(dir, name), contentOf(name), 0o644)
			w.mu.Lock()
			w.writes = append(w.writes, write{name, began, time.Now(), err})
			w.mu.Unlock()
			time.Sleep(20 * time.Millisecond)
		}
	}()
	return w
}

// okSince reports whether a write that began after t has succeeded.
func (w *writer) okSince(t time.Time) bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	for _, x := range w.writes {
		if x.started.After(t) && x.err == nil {
			return true
		}
	}
	return false
}

func (w *writer) halt(t *testing.T) []write {
	t.Helper()
	close(w.stop)
	select {
	case <-w.done:
	case <-time.After(2 * time.Minute):
		t.Fatal("the writer is stuck in a write")
	}
	return w.writes
}

// checkWrites checks a writer's record across a switch of passwords: every
// write reported done is on the server with its whole content, and a write
// failed only if it was still running at `from` (zero: from the start) and
// began no later than the first write that began after `ready` and
// succeeded. It returns when that write began, and how many failed and
// landed.
func checkWrites(t *testing.T, writes []write, dir string, from, ready time.Time) (firstOK time.Time, failed, landed int) {
	t.Helper()
	for _, x := range writes {
		if x.started.After(ready) && x.err == nil {
			firstOK = x.started
			break
		}
	}
	for _, x := range writes {
		if x.err != nil {
			failed++
			// A write in flight when the server went away may fail with
			// it, as on any server restart: what counts is when it ended.
			if x.ended.Before(from) || x.started.After(firstOK) {
				t.Errorf("write %s failed outside the switch (%s after it began): %v", x.name, x.started.Sub(from), x.err)
			}
			continue
		}
		b, err := os.ReadFile(filepath.Join(dir, x.name))
		if err != nil || string(b) != string(contentOf(x.name)) {
			t.Errorf("write %s reported success but the server has %d bytes (%v)", x.name, len(b), err)
		}
		landed++
	}
	return firstOK, failed, landed
}

// superOptions returns the options the kernel reports for the mount at
// path (mountinfo's last field).
func superOptions(t *testing.T, path string) string {
	t.Helper()
	at := mountsAt(t, path)
	if len(at) == 0 {
		t.Fatalf("nothing mounted at %s", path)
	}
	_, tail, _ := strings.Cut(at[len(at)-1], " - ")
	f := strings.Fields(tail)
	if len(f) == 0 {
		t.Fatalf("a mount table line without options: %q", at[len(at)-1])
	}
	return f[len(f)-1]
}

// A pod keeps writing while the administrator changes the SMB password on
// the server and in the Secret, and the server drops every session: the
// kubelet's republish hands the mount the new password, and every write
// after the reconnect lands, with no pod restart and no unmount.
func TestSMBPasswordRotation(t *testing.T) {
	requireMounts(t)
	srv, src := startRotationSamba(t, "rotation-node")
	ctrl, nd := controller(t), node(t)
	current := secretsWith(localservers.SMBPassword)
	vol := create(t, ctrl, "pvc-rotation-node", map[string]string{"source": src, "mountOptions": "vers=3.0"}, current)
	dir := filepath.Join(srv.Data, strings.TrimPrefix(vol.GetVolumeContext()["subDir"], "/"))
	capab := &csi.VolumeCapability{
		AccessType: &csi.VolumeCapability_Mount{Mount: &csi.VolumeCapability_MountVolume{VolumeMountGroup: "2000"}},
		AccessMode: &csi.VolumeCapability_AccessMode{Mode: csi.VolumeCapability_AccessMode_MULTI_NODE_MULTI_WRITER},
	}
	staging := filepath.Join(env.dir, "rotation-node", "staging")
	target := filepath.Join(env.dir, "rotation-node", "target")
	if err := os.MkdirAll(filepath.Dir(staging), 0o755); err != nil {
		t.Fatal(err)
	}
	call := func() (context.Context, context.CancelFunc) {
		return context.WithTimeout(context.Background(), time.Minute)
	}
	ctx, cancel := call()
	_, err := nd.NodeStageVolume(ctx, &csi.NodeStageVolumeRequest{VolumeId: vol.GetVolumeId(), StagingTargetPath: staging,
		VolumeCapability: capab, VolumeContext: vol.GetVolumeContext(), Secrets: current})
	cancel()
	if err != nil {
		t.Fatalf("NodeStageVolume: %v", err)
	}
	t.Cleanup(func() {
		ctx, cancel := call()
		defer cancel()
		if _, err := nd.NodeUnpublishVolume(ctx, &csi.NodeUnpublishVolumeRequest{VolumeId: vol.GetVolumeId(), TargetPath: target}); err != nil {
			t.Errorf("NodeUnpublishVolume: %v", err)
		}
		if _, err := nd.NodeUnstageVolume(ctx, &csi.NodeUnstageVolumeRequest{VolumeId: vol.GetVolumeId(), StagingTargetPath: staging}); err != nil {
			t.Errorf("NodeUnstageVolume: %v", err)
		}
		if _, err := ctrl.DeleteVolume(ctx, &csi.DeleteVolumeRequest{VolumeId: vol.GetVolumeId(), Secrets: current}); err != nil {
			t.Errorf("DeleteVolume: %v", err)
		}
	})
	// The kubelet's publish, and with requiresRepublish its periodic
	// republish, both carry the node-publish Secret as it is now.
	publish := func(secrets map[string]string) error {
		ctx, cancel := call()
		defer cancel()
		_, err := nd.NodePublishVolume(ctx, &csi.NodePublishVolumeRequest{VolumeId: vol.GetVolumeId(), StagingTargetPath: staging,
			TargetPath: target, VolumeCapability: capab, VolumeContext: vol.GetVolumeContext(), Secrets: secrets})
		return err
	}
	if err := publish(current); err != nil {
		t.Fatalf("NodePublishVolume: %v", err)
	}
	optionsBefore := superOptions(t, staging)
	w := startWriter(target)
	stopped := false
	defer func() {
		if !stopped {
			w.halt(t)
		}
	}()
	time.Sleep(time.Second)

	if err := srv.SetSMBPassword(rotatedPassword); err != nil {
		t.Fatal(err)
	}
	err = publish(secretsWith(rotatedPassword))
	if status.Code(err) == codes.FailedPrecondition && strings.Contains(err.Error(), "cannot give a live SMB mount a new password") {
		// This kernel has no CIFS password2: the node says so, names what
		// to do, and leaves the working mount alone.
		writes := w.halt(t)
		stopped = true
		for _, x := range writes {
			if x.err != nil {
				t.Fatalf("write %s failed while the node refused to rotate: %v", x.name, x.err)
			}
		}
		if !strings.Contains(err.Error(), "restart the pods") || superOptions(t, staging) != optionsBefore {
			t.Fatalf("refusal %v; options %s, were %s", err, superOptions(t, staging), optionsBefore)
		}
		var u unix.Utsname
		_ = unix.Uname(&u)
		t.Skipf("kernel %s cannot change a live CIFS mount's password (checked: the node refuses cleanly and the mount keeps working); make test-vm boots Linux 6.12 for the rotation itself", unix.ByteSliceToString(u.Release[:]))
	}
	if err != nil {
		t.Fatalf("republish with the new password: %v", err)
	}
	if got := superOptions(t, staging); got != optionsBefore {
		t.Fatalf("the rotation changed the mount's options:\n%s\nwere\n%s", got, optionsBefore)
	}
	current = secretsWith(rotatedPassword)

	// The server drops every session: the kernel reconnects, the old
	// password fails, and it logs on with the new one.
	switchAt := time.Now()
	if err := srv.Restart(context.Background(), 2*time.Second); err != nil {
		t.Fatal(err)
	}
	upAt := time.Now()
	for deadline := time.Now().Add(2 * time.Minute); !w.okSince(upAt); time.Sleep(200 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("no write succeeded within 2 minutes of the server's restart")
		}
	}
	time.Sleep(2 * time.Second)
	writes := w.halt(t)
	stopped = true

	firstOK, failed, landed := checkWrites(t, writes, dir, switchAt, upAt)
	t.Logf("%d writes: %d landed, %d failed while the server was down and the session reconnected (%s from the restart to the first write with the new session)",
		len(writes), landed, failed, firstOK.Sub(switchAt).Round(10*time.Millisecond))

	// The old password is dead on the server, so the mount that just wrote
	// logged on with the new one.
	s, err := source.Parse(src)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel = call()
	c, err := share.Dial(ctx, s, share.Credentials{Username: localservers.SMBUser, Password: localservers.SMBPassword})
	cancel()
	if err == nil {
		c.Close()
		t.Fatal("the server still takes the old password")
	}

	// A wrong password in the Secret is refused, and the mount keeps the
	// one that works.
	err = publish(secretsWith("not-the-Pa55word"))
	if status.Code(err) != codes.PermissionDenied || !strings.Contains(err.Error(), "keeps its mount") || strings.Contains(err.Error(), "not-the-Pa55word") {
		t.Fatalf("republish with a wrong password: %v", err)
	}
	if err := os.WriteFile(filepath.Join(target, "after-wrong"), []byte("ok"), 0o644); err != nil {
		t.Fatalf("write after a wrong password was refused: %v", err)
	}
	if err := publish(current); err != nil {
		t.Fatalf("republish with the right password again: %v", err)
	}

	// The other order: the server changes the password and drops the
	// session before the Secret follows. Until the republish brings the
	// password the mount cannot log on, and writes fail; once it has, the
	// mount (the same one: nothing is unmounted) logs on again and every
	// write lands.
	const third = "third-Pa55-2026"
	if err := srv.SetSMBPassword(third); err != nil {
		t.Fatal(err)
	}
	if err := srv.Restart(context.Background(), time.Second); err != nil {
		t.Fatal(err)
	}
	w = startWriter(target)
	stopped = false
	time.Sleep(3 * time.Second)
	secretAt := time.Now()
	deadline := time.Now().Add(2 * time.Minute)
	for {
		// The kubelet republishes until a call succeeds; the first may find
		// the mount still failing while the kernel retries its logon.
		if err = publish(secretsWith(third)); err == nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("no republish succeeded within 2 minutes of the Secret's change: %v", err)
		}
		time.Sleep(2 * time.Second)
	}
	for !w.okSince(secretAt) {
		if time.Now().After(deadline) {
			t.Fatal("no write succeeded within 2 minutes of the Secret's change")
		}
		time.Sleep(200 * time.Millisecond)
	}
	current = secretsWith(third)
	time.Sleep(2 * time.Second)
	writes = w.halt(t)
	stopped = true
	firstOK, failed, landed = checkWrites(t, writes, dir, time.Time{}, secretAt)
	t.Logf("server first: %d writes, %d landed, %d failed while the Secret was behind the server; the first write on the new session came %s after the Secret changed",
		len(writes), landed, failed, firstOK.Sub(secretAt).Round(10*time.Millisecond))
	if got := superOptions(t, staging); got != optionsBefore {
		t.Fatalf("the mount's options changed:\n%s\nwere\n%s", got, optionsBefore)
	}

	if b := string(driverLog(t)); strings.Contains(b, rotatedPassword) || strings.Contains(b, third) {
		t.Fatal("the driver logged a password")
	}
}
