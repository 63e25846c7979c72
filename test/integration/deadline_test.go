//go:build linux

package integration

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/container-storage-interface/spec/lib/go/csi"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/fileshare-csi/fileshare-csi/test/harness"
	"github.com/fileshare-csi/fileshare-csi/test/localservers"
)

// ownController starts a controller of its own with extra flags (a small
// session cap), so a test can fill that driver's pool without touching the
// shared one, and stops it when the test ends.
func ownController(t *testing.T, flags ...string) csi.ControllerClient {
	t.Helper()
	d, err := harness.StartDriver(env.binary, t.TempDir(), append([]string{"--mode", "controller", "--v", "5"}, flags...)...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		d.Stop()
		if t.Failed() {
			t.Logf("---- own controller log (tail) ----\n%s", d.LogTail(20000))
		}
	})
	return csi.NewControllerClient(d.Conn)
}

// smbBase makes a world-writable directory on the Samba share for one test
// and returns its name.
func smbBase(t *testing.T) string {
	t.Helper()
	name := strings.ReplaceAll(t.Name(), "/", "-")
	dir := filepath.Join(env.samba.Data, name)
	if err := os.MkdirAll(dir, 0o777); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(dir, 0o777); err != nil {
		t.Fatal(err)
	}
	return name
}

func stallProxy(t *testing.T) *localservers.StallProxy {
	t.Helper()
	p, err := localservers.StartStallProxy("127.0.0.1:" + strconv.Itoa(smbPort))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(p.Close)
	return p
}

// timedCreate runs CreateVolume with its own deadline and reports how long
// the call took.
func timedCreate(c csi.ControllerClient, deadline time.Duration, name, src string, bytes int64) (time.Duration, error) {
	ctx, cancel := context.WithTimeout(context.Background(), deadline)
	defer cancel()
	start := time.Now()
	_, err := c.CreateVolume(ctx, &csi.CreateVolumeRequest{
		Name: name, Parameters: map[string]string{"source": src}, Secrets: smbSecrets(),
		VolumeCapabilities: []*csi.VolumeCapability{mountCap},
		CapacityRange:      &csi.CapacityRange{RequiredBytes: bytes},
	})
	return time.Since(start), err
}

// A server that completes SMB session setup and then never answers TREE
// CONNECT must cost a CreateVolume no more than its deadline: the call, its
// volume lock and its pool slot are released at the deadline, so the next
// call on the same volume reaches the server instead of queueing behind the
// stuck one, and stalled calls beyond the session cap do not use up the pool.
func TestSMBStalledTreeConnectReleasesAtDeadline(t *testing.T) {
	const maxSessions, deadline, margin = 2, 3 * time.Second, 2 * time.Second
	c := ownController(t, "--max-sessions-per-share", strconv.Itoa(maxSessions))
	proxy := stallProxy(t)
	base := smbBase(t)
	viaProxy := fmt.Sprintf("smb://%s/%s/%s", proxy.Addr, localservers.SMBShare, base)

	stalled := func(name string) {
		t.Helper()
		before := proxy.TreeConnects()
		elapsed, err := timedCreate(c, deadline, name, viaProxy, 0)
		if status.Code(err) != codes.DeadlineExceeded {
			t.Fatalf("CreateVolume %s against a stalled tree connect: %v, want DeadlineExceeded", name, err)
		}
		if elapsed > deadline+margin {
			t.Fatalf("CreateVolume %s took %v with a %v deadline", name, elapsed, deadline)
		}
		// Only a call that got the volume lock and a pool slot dials and
		// sends TREE_CONNECT; one queued behind a stuck call never does.
		if got := proxy.TreeConnects(); got != before+1 {
			t.Fatalf("CreateVolume %s: %d tree connects reached the server, want 1: the call waited on an earlier stuck one", name, got-before)
		}
	}
	stalled("pvc-stall")
	stalled("pvc-stall") // the same volume again, at once
	for i := range maxSessions + 2 {
		stalled(fmt.Sprintf("pvc-stall-%d", i))
	}

	// The server recovers: the same volume through the same address (same
	// volume lock, same pool key) must now succeed within one deadline.
	proxy.SetStall(false)
	if _, err := timedCreate(c, deadline, "pvc-stall", viaProxy, 0); err != nil {
		t.Fatalf("CreateVolume after the server recovered: %v (a stalled call still holds the volume lock or a pool slot)", err)
	}
	if _, err := os.Stat(filepath.Join(env.samba.Data, base, "pvc-stall")); err != nil {
		t.Fatalf("volume directory missing after the recovered CreateVolume: %v", err)
	}
	direct := smbSource(base)
	if _, err := timedCreate(c, deadline, "pvc-direct", direct, 0); err != nil {
		t.Fatalf("CreateVolume on the direct Samba port after the stalls: %v", err)
	}
}

// A pooled session whose server goes silent in the middle of a call is
// broken at the deadline, and closing it must not hold the call (nor its
// volume lock) any longer: the next call on the volume gets through.
func TestSMBServerSilentMidSessionReleasesAtDeadline(t *testing.T) {
	const deadline, margin = 3 * time.Second, 2 * time.Second
	c := ownController(t)
	proxy := stallProxy(t)
	proxy.SetStall(false)
	src := fmt.Sprintf("smb://%s/%s/%s", proxy.Addr, localservers.SMBShare, smbBase(t))
	if _, err := timedCreate(c, deadline, "pvc-silent", src, 0); err != nil {
		t.Fatalf("CreateVolume: %v", err)
	}
	proxy.StallOpen() // the pooled session's server stops answering
	elapsed, err := timedCreate(c, deadline, "pvc-silent", src, 0)
	if status.Code(err) != codes.DeadlineExceeded || elapsed > deadline+margin {
		t.Fatalf("CreateVolume on a silent pooled session: %v after %v, want DeadlineExceeded within %v", err, elapsed, deadline+margin)
	}
	// New connections are forwarded again; the call above must have let go
	// of the volume lock by the time this one needs it.
	if _, err := timedCreate(c, deadline, "pvc-silent", src, 0); err != nil {
		t.Fatalf("CreateVolume after the silent session: %v (the earlier call still holds the volume lock)", err)
	}
	if n := proxy.Accepted(); n != 2 {
		t.Fatalf("%d connections, want 2: the silent session was reused, or more were dialed", n)
	}
}

// An ordinary answer from the server inside a call (here AlreadyExists for a
// capacity conflict) says nothing about the session: the pool keeps it, and
// the next call reuses the same connection instead of dialing again.
func TestSMBAnswerKeepsPooledSession(t *testing.T) {
	c := ownController(t)
	proxy := stallProxy(t)
	proxy.SetStall(false)
	src := fmt.Sprintf("smb://%s/%s/%s", proxy.Addr, localservers.SMBShare, smbBase(t))
	const gib = 1 << 30
	if _, err := timedCreate(c, 10*time.Second, "pvc-keep", src, gib); err != nil {
		t.Fatalf("CreateVolume: %v", err)
	}
	if _, err := timedCreate(c, 10*time.Second, "pvc-keep", src, 2*gib); status.Code(err) != codes.AlreadyExists {
		t.Fatalf("CreateVolume with another capacity: %v, want AlreadyExists", err)
	}
	if _, err := timedCreate(c, 10*time.Second, "pvc-keep", src, gib); err != nil {
		t.Fatalf("idempotent CreateVolume: %v", err)
	}
	if n := proxy.Accepted(); n != 1 {
		t.Fatalf("%d connections to the server for three sequential calls, want 1: an AlreadyExists answer closed the pooled session", n)
	}
}
