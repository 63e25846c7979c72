//go:build linux

package integration

import (
	"bufio"
	"context"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/container-storage-interface/spec/lib/go/csi"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/fileshare-csi/fileshare-csi/test/freeport"
	"github.com/fileshare-csi/fileshare-csi/test/localservers"
)

// retryable are the codes a CO retries on: a call that meets a server in
// trouble must end with one of these, or succeed, never with an error that
// blames the request.
var retryable = map[codes.Code]bool{codes.Unavailable: true, codes.DeadlineExceeded: true, codes.Aborted: true}

// TestNFS41ServerFaults crashes the NFS server under a ?vers=4.1 class and
// lets it come back as production servers do: with a grace period in which
// OPEN, REMOVE and RENAME are refused (NFS4ERR_GRACE), and with short
// leases, so that a client idle for longer is expired and its session
// destroyed by the server. Every call either succeeds after recovery or
// fails with a retryable code within its deadline, and afterwards the
// driver holds exactly the connections its pool counts, none of them lent,
// and no more goroutines than before.
//
// On the host the server is a second NFS-Ganesha (NFSv4 only, graceful,
// leases of 3 s), killed with SIGKILL; in the test VM it is the kernel's
// nfsd (grace and lease 10 s, the kernel's minimum), whose threads are
// stopped and started.
func TestNFS41ServerFaults(t *testing.T) {
	var fs faultServer
	if env.nfs.Name == "ganesha" {
		port, err := freeport.Get()
		if err != nil {
			t.Fatal(err)
		}
		fs = faultServer{port: port, grace: 10 * time.Second, lease: 3 * time.Second, expires: true}
		fs.srv, err = localservers.StartGanesha(context.Background(), filepath.Join(env.dir, "ganesha-faults"),
			localservers.NFSv4Only(port), localservers.Grace(fs.grace, fs.lease))
		if err != nil {
			t.Fatal(err)
		}
		defer fs.srv.Stop()
		defer func() {
			if t.Failed() {
				t.Logf("---- ganesha log (tail) ----\n%s", tail(fs.srv.Log(), 6000))
			}
		}()
	} else {
		// StartKernelNFS set both to the kernel's minimum.
		fs = faultServer{srv: env.nfs, port: env.nfs.Port, grace: 10 * time.Second, lease: 10 * time.Second}
	}
	srv := fs.srv
	// The grace period that starts with the server is not this test's,
	// and the tests after this one get a server out of its grace.
	fs.upAt = time.Now()
	fs.waitOutGrace()
	defer fs.waitOutGrace()

	base := filepath.Join(srv.Data, "faults")
	if err := os.MkdirAll(base, 0o777); err != nil {
		t.Fatal(err)
	}
	// The driver reaches the server through a counter of its calls, and
	// across the server's restarts through the counter's one port.
	counter, err := localservers.StartRPCCounter(net.JoinHostPort("127.0.0.1", strconv.Itoa(fs.port)))
	if err != nil {
		t.Fatal(err)
	}
	defer counter.Close()
	d, metricsURL := metricsDriver(t)
	c := csi.NewControllerClient(d.Conn)
	params := map[string]string{"source": "nfs://" + counter.Addr + base + "?vers=4.1"}
	call := func(timeout time.Duration, name string, fn func(ctx context.Context) error) (time.Duration, error) {
		t.Helper()
		ctx, cancel := context.WithTimeout(context.Background(), timeout)
		defer cancel()
		start := time.Now()
		err := fn(ctx)
		took := time.Since(start)
		if err != nil && !retryable[status.Code(err)] {
			t.Errorf("%s: %v, want success or a retryable code (Unavailable, DeadlineExceeded, Aborted)", name, err)
		}
		// The answer comes within the deadline: a little over it for the
		// reply to travel, never a hang.
		if took > timeout+3*time.Second {
			t.Errorf("%s took %v with a deadline of %v", name, took, timeout)
		}
		return took, err
	}
	createVol := func(timeout time.Duration, name string) (*csi.Volume, time.Duration, error) {
		var vol *csi.Volume
		took, err := call(timeout, "CreateVolume "+name, func(ctx context.Context) error {
			resp, err := c.CreateVolume(ctx, &csi.CreateVolumeRequest{Name: name, Parameters: params, VolumeCapabilities: []*csi.VolumeCapability{mountCap}})
			vol = resp.GetVolume()
			return err
		})
		return vol, took, err
	}
	deleteVolume := func(timeout time.Duration, id string) (time.Duration, error) {
		return call(timeout, "DeleteVolume "+id, func(ctx context.Context) error {
			_, err := c.DeleteVolume(ctx, &csi.DeleteVolumeRequest{VolumeId: id})
			return err
		})
	}
	// until repeats a call that failed retryably, as a CO does, for at
	// most twice the grace period.
	until := func(what string, fn func() error) {
		t.Helper()
		end := time.Now().Add(2 * fs.grace)
		for {
			err := fn()
			if err == nil {
				return
			}
			if !retryable[status.Code(err)] || time.Now().After(end) {
				t.Fatalf("%s did not recover: %v", what, err)
			}
			time.Sleep(time.Second)
		}
	}

	warm, _, err := createVol(30*time.Second, "fault-warm")
	if err != nil {
		t.Fatal(err)
	}
	goroutinesBefore := scrapeMetrics(t, metricsURL).value("go_goroutines", nil)

	t.Run("crash in the middle of a DeleteVolume", func(t *testing.T) {
		vol, _, err := createVol(30*time.Second, "fault-tree")
		if err != nil {
			t.Fatal(err)
		}
		dir := filepath.Join(base, "fault-tree")
		fillTree(t, dir, 40, 100, false, 0)
		done := make(chan error, 1)
		go func() {
			_, err := deleteVolume(30*time.Second, vol.GetVolumeId())
			done <- err
		}()
		// Crash once the call is under way: the tree has just moved to the
		// driver's quarantine (at the export's root), and the walk that
		// removes it is starting.
		waitFor(t, 20*time.Second, func() bool { _, err := os.Lstat(dir); return os.IsNotExist(err) })
		if err := srv.Down(); err != nil {
			t.Fatal(err)
		}
		left := countFiles(filepath.Join(srv.Data, ".fileshare-csi", "deleting"))
		if left == 0 {
			t.Fatal("the tree was gone before the server crashed: nothing was cut short")
		}
		time.Sleep(time.Second)
		if err := srv.Up(context.Background()); err != nil {
			t.Fatal(err)
		}
		fs.upAt = time.Now()
		err = <-done
		t.Logf("the DeleteVolume cut by the crash (%d files left) answered: %v", left, status.Code(err))
		// The CO retries; the server is in its grace period now, and
		// REMOVE waits it out within each call's deadline.
		until("DeleteVolume after the crash", func() error {
			_, err := deleteVolume(30*time.Second, vol.GetVolumeId())
			return err
		})
		if _, err := os.Stat(dir); !os.IsNotExist(err) {
			t.Errorf("the volume's directory is still there after DeleteVolume succeeded: %v", err)
		}
	})

	t.Run("grace period", func(t *testing.T) {
		fs.waitOutGrace()
		// Another controller's client held state and never comes back
		// after the crash, so the server keeps its whole grace period for
		// it to reclaim.
		// Closed after the crash: its session died with the server.
		other := dialSource(t, fmt.Sprintf("nfs://127.0.0.1:%d%s?vers=4.1", fs.port, base))
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		err := other.WriteFile(ctx, "other-controller-record", []byte("state"))
		cancel()
		if err != nil {
			t.Fatal(err)
		}
		if err := srv.Restart(context.Background(), time.Second); err != nil {
			t.Fatal(err)
		}
		fs.upAt = time.Now()
		// A call whose deadline ends inside the grace period fails, with a
		// code the CO retries on, in time.
		if _, took, err := createVol(3*time.Second, "fault-in-grace"); err == nil {
			t.Errorf("CreateVolume succeeded in %v, %v after the server started a grace period of %v", took, time.Since(fs.upAt), fs.grace)
		}
		// One with room for the rest of the grace period succeeds.
		vol, took, err := createVol(fs.grace+10*time.Second, "fault-in-grace")
		if err != nil {
			t.Fatalf("CreateVolume with a deadline past the grace period: %v", err)
		}
		if since := time.Since(fs.upAt); since < fs.grace/2 {
			t.Errorf("CreateVolume succeeded %v after the restart (took %v): the grace period was not in effect", since, took)
		}
		if _, err := os.Stat(filepath.Join(base, "fault-in-grace")); err != nil {
			t.Errorf("the volume made in the grace period: %v", err)
		}
		until("DeleteVolume after the grace period", func() error {
			_, err := deleteVolume(30*time.Second, vol.GetVolumeId())
			return err
		})
	})

	t.Run("the server expires the client and destroys its session", func(t *testing.T) {
		if !fs.expires {
			t.Skip("Linux 5.19 and later keep a client whose lease ran out as a courtesy client, with its session, until another client's request conflicts: the kernel server destroys no session here")
		}
		fs.waitOutGrace()
		// A pair on a live session, after one that may find the session
		// gone while the test waited.
		var calls, warmCalls int64
		for i := range 2 {
			calls = counter.Calls()
			vol, _, err := createVol(30*time.Second, fmt.Sprintf("fault-before-expiry-%d", i))
			if err != nil {
				t.Fatal(err)
			}
			if _, err := deleteVolume(30*time.Second, vol.GetVolumeId()); err != nil {
				t.Fatal(err)
			}
			warmCalls = counter.Calls() - calls
		}
		// Idle for three leases, but less than the pool's renewal period:
		// the server's reaper expires the client and frees its session.
		time.Sleep(3 * fs.lease)
		calls = counter.Calls()
		vol, _, err := createVol(30*time.Second, "fault-after-expiry")
		if err != nil {
			t.Fatalf("CreateVolume after the server expired the session: %v", err)
		}
		if _, err := deleteVolume(30*time.Second, vol.GetVolumeId()); err != nil {
			t.Errorf("DeleteVolume: %v", err)
		}
		// The refused SEQUENCE, EXCHANGE_ID and CREATE_SESSION at least.
		if expired := counter.Calls() - calls; expired < warmCalls+3 {
			t.Errorf("a CreateVolume+DeleteVolume after the lease ran out took %d calls, %d on a live session: the session was not made again", expired, warmCalls)
		}
	})
	if _, err := deleteVolume(30*time.Second, warm.GetVolumeId()); err != nil {
		t.Errorf("DeleteVolume of the first volume: %v", err)
	}
	// No leak: every connection the driver holds to the server is a
	// session its pool counts as open, and none is still lent.
	labels := map[string]string{"protocol": "nfs", "server": counter.Addr}
	var open, conns float64
	waitFor(t, 10*time.Second, func() bool {
		m := scrapeMetrics(t, metricsURL)
		open, conns = m.value("fileshare_csi_pool_sessions_open", labels), float64(connectionsTo(t, d.Cmd.Process.Pid, counter.Port()))
		return m.value("fileshare_csi_pool_sessions_in_use", labels) == 0 && open == conns
	})
	if open != conns {
		t.Errorf("the driver holds %v connections to the server, its pool counts %v sessions open", conns, open)
	}
	goroutines := scrapeMetrics(t, metricsURL).value("go_goroutines", nil)
	t.Logf("after the faults: %v pooled sessions, %v connections, %v goroutines (%v before)", open, conns, goroutines, goroutinesBefore)
	// Each pooled session may keep a reader; anything more is a leak.
	if goroutines > goroutinesBefore+open+2 {
		t.Errorf("%v goroutines after the faults, %v before with one session: something the faults cut short still runs", goroutines, goroutinesBefore)
	}

}

// faultServer is the server TestNFS41ServerFaults crashes, with the grace
// period and lease it keeps.
type faultServer struct {
	srv          *localservers.Server
	port         int
	grace, lease time.Duration
	// expires: the server destroys the session of a client whose lease
	// ran out.
	expires bool
	upAt    time.Time // the server's last start
}

// waitOutGrace waits until the grace period of the server's last start is
// over.
func (f *faultServer) waitOutGrace() {
	time.Sleep(time.Until(f.upAt.Add(f.grace + time.Second)))
}

func waitFor(t *testing.T, within time.Duration, cond func() bool) {
	t.Helper()
	end := time.Now().Add(within)
	for !cond() {
		if time.Now().After(end) {
			return
		}
		time.Sleep(time.Millisecond)
	}
}

// countFiles counts the regular files below dir.
func countFiles(dir string) int {
	n := 0
	_ = filepath.WalkDir(dir, func(_ string, e os.DirEntry, err error) error {
		if err == nil && e.Type().IsRegular() {
			n++
		}
		return nil
	})
	return n
}

// connectionsTo counts the established TCP connections process pid holds
// to port on loopback.
func connectionsTo(t *testing.T, pid, port int) int {
	t.Helper()
	sockets := map[string]bool{}
	fds, err := os.ReadDir(fmt.Sprintf("/proc/%d/fd", pid))
	if err != nil {
		t.Fatal(err)
	}
	for _, fd := range fds {
		l, err := os.Readlink(fmt.Sprintf("/proc/%d/fd/%s", pid, fd.Name()))
		if err == nil && strings.HasPrefix(l, "socket:[") {
			sockets[strings.TrimSuffix(strings.TrimPrefix(l, "socket:["), "]")] = true
		}
	}
	f, err := os.Open(fmt.Sprintf("/proc/%d/net/tcp", pid))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	n := 0
	want := fmt.Sprintf(":%04X", port)
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		// sl local rem st tx:rx tr:when retrnsmt uid timeout inode
		fields := strings.Fields(sc.Text())
		if len(fields) < 10 || !strings.HasSuffix(fields[2], want) || fields[3] != "01" {
			continue
		}
		if sockets[fields[9]] {
			n++
		}
	}
	return n
}

func tail(s string, n int) string {
	if len(s) > n {
		return s[len(s)-n:]
	}
	return s
}
