//go:build linux

package integration

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/container-storage-interface/spec/lib/go/csi"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/fileshare-csi/fileshare-csi/test/harness"
	"github.com/fileshare-csi/fileshare-csi/test/localservers"
)

// faultDuration is how long the controller is killed at random per
// protocol: short in make test, FILESHARE_FAULT_SECONDS for release checks
// (make test-fault).
func faultDuration() time.Duration {
	if s, err := strconv.Atoi(os.Getenv("FILESHARE_FAULT_SECONDS")); err == nil && s > 0 {
		return time.Duration(s) * time.Second
	}
	if kernelNFS() {
		return 8 * time.Second // under emulation every call is slower
	}
	return 15 * time.Second
}

// TestControllerKilledAtRandomConverges is the operator's fault test: four
// clients create, fill, snapshot and delete volumes at once while the
// controller process is SIGKILLed every few hundred milliseconds and
// started again, and the file server crashes and comes back every few
// seconds, and every call is retried until it is answered, as the sidecars
// do. Afterwards no call is stuck, the metadata holds exactly
// what it held before (no orphaned record, intent, hold, mark, temporary
// or quarantine; a mark that was stale before, its directory removed by
// hand, may have gone with a volume the file system gave its ID), no
// volume directory is left, and a bystander volume has every byte it had.
func TestControllerKilledAtRandomConverges(t *testing.T) {
	protocols(t, func(t *testing.T, params, secrets map[string]string, base string) {
		meta := metadataRoot(t)
		// Every process is the next container of one pod, as the kubelet
		// restarts a killed one: each takes over the copies the killed one
		// left at once (a controller of another pod waits 30 s, longer
		// than the killer lets any process live).
		args := []string{"--mode", "controller", "--pod-uid", "0f4c3b2a-1d0e-4f9a-8b7c-6d5e4f3a2b1c"}
		dir := t.TempDir()
		start := func() *harness.Driver {
			d, err := harness.StartDriver(env.binary, dir, args...)
			if err != nil {
				t.Fatal(err)
			}
			return d
		}
		var mu sync.Mutex
		cur := start()
		client := func() csi.ControllerClient {
			mu.Lock()
			defer mu.Unlock()
			return csi.NewControllerClient(cur.Conn)
		}
		defer func() { mu.Lock(); cur.Stop(); mu.Unlock() }()

		bystander := create(t, client(), "bystander", params, secrets)
		bdir := filepath.Join(base, "bystander")
		writeFile(t, filepath.Join(bdir, "data"), strings.Repeat("bystander ", 1000))
		// Marks left stale by earlier tests may go with a volume given
		// their ID; every other file must be as it was.
		stale := staleMarks(t, meta, bdir)
		before := metadataFiles(meta, stale)

		// The protocol's server crashes and comes back now and then too.
		// Not the NFSv4-only Ganesha: started again, it registers with the
		// suite's rpcbind, whose registrations
		// TestNFSv4OnlyNetworkNeedsNoPortmapper holds unchanged; the
		// NFSv4.1 subtest restarts the same code on the shared Ganesha.
		var srv *localservers.Server
		switch {
		case strings.HasSuffix(t.Name(), "/smb"):
			srv = env.samba
		case strings.HasSuffix(t.Name(), "/nfs"), strings.HasSuffix(t.Name(), "/nfs41"):
			srv = env.nfs
		}
		var stop atomic.Bool
		kills := 0
		restarts := 0
		serverDone := make(chan struct{})
		go func() {
			defer close(serverDone)
			for srv != nil && !stop.Load() {
				time.Sleep(time.Duration(3000+rand.IntN(3000)) * time.Millisecond)
				if stop.Load() {
					return
				}
				if err := srv.Restart(context.Background(), 500*time.Millisecond); err != nil {
					t.Logf("%s not restarted: %v", srv.Name, err)
					return
				}
				restarts++
			}
		}()
		killerDone := make(chan struct{})
		go func() {
			defer close(killerDone)
			for !stop.Load() {
				time.Sleep(time.Duration(200+rand.IntN(1000)) * time.Millisecond)
				if stop.Load() {
					return
				}
				mu.Lock()
				_ = cur.Cmd.Process.Kill()
				cur.Stop()
				cur = start()
				kills++
				mu.Unlock()
			}
		}()

		// answered retries a call until it is answered: every code but a
		// definite one means the call may not have happened (the process
		// died, the connection broke, a lock was held by a killed call).
		var retries sync.Map // code -> *atomic.Int64
		faultsEnd := time.Now().Add(faultDuration())
		answered := func(what string, call func(context.Context, csi.ControllerClient) error) bool {
			// Within 2 minutes of the call, or of the end of the kills:
			// a process killed within a second may never finish a copy.
			deadline := later(time.Now(), faultsEnd).Add(2 * time.Minute)
			for {
				ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
				err := call(ctx, client())
				cancel()
				if err != nil {
					n, _ := retries.LoadOrStore(status.Code(err).String(), new(atomic.Int64))
					n.(*atomic.Int64).Add(1)
				}
				switch status.Code(err) {
				case codes.OK:
					return true
				case codes.Unavailable, codes.Aborted, codes.DeadlineExceeded, codes.Canceled:
				default:
					t.Errorf("%s: %v", what, err)
					return false
				}
				if time.Now().After(deadline) {
					t.Errorf("%s: still not answered 2 minutes after it was first asked and the kills ended: %v", what, err)
					return false
				}
				time.Sleep(50 * time.Millisecond)
			}
		}
		var wg sync.WaitGroup
		var rounds atomic.Int64
		for i := range 4 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for k := 0; !stop.Load(); k++ {
					// Snapshot names are the share's, not the base's: the
					// subtests' share one export.
					name := fmt.Sprintf("fault-%s-%d-%d", path.Base(t.Name()), i, k)
					var id string
					if !answered("CreateVolume "+name, func(ctx context.Context, c csi.ControllerClient) error {
						resp, err := c.CreateVolume(ctx, &csi.CreateVolumeRequest{Name: name, Parameters: params, Secrets: secrets,
							VolumeCapabilities: []*csi.VolumeCapability{mountCap}})
						id = resp.GetVolume().GetVolumeId()
						return err
					}) {
						return
					}
					_ = os.WriteFile(filepath.Join(base, name, "f"), []byte(name), 0o644)
					if k%3 == 1 {
						var sid string
						answered("CreateSnapshot of "+name, func(ctx context.Context, c csi.ControllerClient) error {
							resp, err := c.CreateSnapshot(ctx, &csi.CreateSnapshotRequest{Name: "snap-" + name, SourceVolumeId: id, Secrets: secrets})
							if err == nil && !resp.GetSnapshot().GetReadyToUse() {
								return status.Error(codes.Unavailable, "not ready yet")
							}
							sid = resp.GetSnapshot().GetSnapshotId()
							return err
						})
						answered("DeleteSnapshot of "+name, func(ctx context.Context, c csi.ControllerClient) error {
							_, err := c.DeleteSnapshot(ctx, &csi.DeleteSnapshotRequest{SnapshotId: sid, Secrets: secrets})
							return err
						})
					}
					answered("DeleteVolume "+name, func(ctx context.Context, c csi.ControllerClient) error {
						_, err := c.DeleteVolume(ctx, &csi.DeleteVolumeRequest{VolumeId: id, Secrets: secrets})
						return err
					})
					rounds.Add(1)
				}
			}()
		}
		time.Sleep(time.Until(faultsEnd))
		stop.Store(true)
		<-killerDone
		<-serverDone
		wg.Wait()
		var tries []string
		retries.Range(func(k, v any) bool {
			tries = append(tries, fmt.Sprintf("%s %d", k, v.(*atomic.Int64).Load()))
			return true
		})
		t.Logf("%d create/fill/delete rounds (a third with a snapshot), the controller killed %d times, the server restarted %d times; calls answered for a retry: %v", rounds.Load(), kills, restarts, tries)
		if kills == 0 || rounds.Load() == 0 {
			t.Fatalf("nothing was tested: %d kills, %d rounds", kills, rounds.Load())
		}

		changed := changedMetadata(before, metadataFiles(meta, stale), true)
		for _, c := range changed {
			t.Errorf("the metadata changed: %s", c)
		}
		if len(changed) > 0 {
			// The killed controllers' logs go with the test's directory:
			// what they said of the UIDs left behind is all there is to
			// go on afterwards.
			t.Logf("what the controllers logged of them:\n%s", logLinesNaming(dir, changed))
		}
		entries, _ := os.ReadDir(base)
		for _, e := range entries {
			if strings.HasPrefix(e.Name(), "fault-") {
				t.Errorf("a volume directory is left in the base: %s", e.Name())
			}
		}
		if b, err := os.ReadFile(filepath.Join(bdir, "data")); err != nil || string(b) != strings.Repeat("bystander ", 1000) {
			t.Errorf("the bystander volume lost data: %v", err)
		}
		deleteVol(t, client(), bystander.GetVolumeId(), secrets)
	})
}

// logLinesNaming returns the lines of the driver logs in dir that name a
// volume UID (16 hex digits) of the changes, or say what a delete left
// behind; at most 300.
func logLinesNaming(dir string, changes []string) string {
	uids := regexp.MustCompile(`[0-9a-f]{16}`).FindAllString(strings.Join(changes, " "), -1)
	logs, _ := filepath.Glob(filepath.Join(dir, "driver-*.log"))
	var out []string
	for _, l := range logs {
		b, _ := os.ReadFile(l)
		for _, line := range strings.Split(string(b), "\n") {
			hit := strings.Contains(line, "left") || strings.Contains(line, "behind")
			for _, u := range uids {
				hit = hit || strings.Contains(line, u)
			}
			if hit && len(out) < 300 {
				out = append(out, filepath.Base(l)+": "+line)
			}
		}
	}
	return strings.Join(out, "\n")
}

// later is the later of a and b.
func later(a, b time.Time) time.Time {
	if a.After(b) {
		return a
	}
	return b
}

// TestConcurrentCopiesNeverWedgeTheShare: twelve snapshots are taken at
// once through a controller with two sessions per share, while ordinary
// volumes are made and deleted beside them. Each copy used to hold its
// lister's session while it waited for a worker's, so two copies took
// every session and waited for ever, and every other call on the share
// ran into its deadline. Now copies wait for a slot before they take any
// session: every snapshot becomes ready and every ordinary call is
// answered within its deadline.
func TestConcurrentCopiesNeverWedgeTheShare(t *testing.T) {
	protocols(t, func(t *testing.T, params, secrets map[string]string, base string) {
		d := ownDriver(t, "copies", "--max-sessions-per-share", "2")
		c := csi.NewControllerClient(d.Conn)
		var vols []*csi.Volume
		for i := range 12 {
			name := fmt.Sprintf("copied-%d", i)
			v := create(t, c, name, params, secrets)
			for f := range 60 {
				writeFile(t, filepath.Join(base, name, fmt.Sprintf("d%d/f%d", f%4, f)), strings.Repeat(name, 100))
			}
			vols = append(vols, v)
		}
		var wg sync.WaitGroup
		snaps := make([]string, len(vols))
		for i, v := range vols {
			wg.Add(1)
			go func() {
				defer wg.Done()
				deadline := time.Now().Add(2 * time.Minute)
				for time.Now().Before(deadline) {
					ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
					resp, err := c.CreateSnapshot(ctx, &csi.CreateSnapshotRequest{Name: "wedge-" + v.GetVolumeId()[len(v.GetVolumeId())-16:], SourceVolumeId: v.GetVolumeId(), Secrets: secrets})
					cancel()
					if err == nil && resp.GetSnapshot().GetReadyToUse() {
						snaps[i] = resp.GetSnapshot().GetSnapshotId()
						return
					}
					time.Sleep(200 * time.Millisecond)
				}
				t.Errorf("the snapshot of %s never became ready", v.GetVolumeId())
			}()
		}
		for i := range 5 {
			ctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
			resp, err := c.CreateVolume(ctx, &csi.CreateVolumeRequest{Name: fmt.Sprintf("beside-%d", i), Parameters: params, Secrets: secrets,
				VolumeCapabilities: []*csi.VolumeCapability{mountCap}})
			if err == nil {
				_, err = c.DeleteVolume(ctx, &csi.DeleteVolumeRequest{VolumeId: resp.GetVolume().GetVolumeId(), Secrets: secrets})
			}
			cancel()
			if err != nil {
				t.Errorf("an ordinary call beside the copies: %v", err)
			}
		}
		wg.Wait()
		for _, sid := range snaps {
			if sid != "" {
				if _, err := c.DeleteSnapshot(context.Background(), &csi.DeleteSnapshotRequest{SnapshotId: sid, Secrets: secrets}); err != nil {
					t.Error(err)
				}
			}
		}
		for _, v := range vols {
			deleteVol(t, c, v.GetVolumeId(), secrets)
		}
	})
}
