//go:build linux

package integration

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/container-storage-interface/spec/lib/go/csi"

	"github.com/fileshare-csi/fileshare-csi/test/harness"
	"github.com/fileshare-csi/fileshare-csi/test/localservers"
)

// nfs4OnlyNet is an NFSv4-only server and a driver in a network namespace
// of their own: loopback alone, where nothing listens but the server's
// 2049, not even rpcbind on 111, as on a network that reaches an EFS or Azure
// Files NFS endpoint and nothing else.
type nfs4OnlyNet struct {
	ns     string
	server *localservers.Server
	driver *harness.Driver
}

// startNFS4OnlyNet starts them, the driver with args (a controller by
// default); the caller stops them with stop.
func startNFS4OnlyNet(name string, args ...string) (*nfs4OnlyNet, func(), error) {
	n := &nfs4OnlyNet{ns: fmt.Sprintf("fscsi-%s-%d", name, os.Getpid())}
	var undo []func()
	stop := func() {
		for i := len(undo) - 1; i >= 0; i-- {
			undo[i]()
		}
		undo = nil
	}
	removeNS, err := localservers.NewNetNS(n.ns)
	if err != nil {
		return nil, nil, err
	}
	undo = append(undo, removeNS)
	dir := filepath.Join(env.dir, n.ns)
	// The server of the suite's kind: NFS-Ganesha on the host, the
	// kernel's nfsd in the test VM (a second one: nfsd runs per network
	// namespace, and the suite's keeps NFSv3 for the other tests).
	start := localservers.StartGanesha
	if env.nfs.Name != "ganesha" {
		start = localservers.StartKernelNFS
	}
	n.server, err = start(context.Background(), filepath.Join(dir, "server"), localservers.NFSv4Only(2049), localservers.InNetNS(n.ns))
	if err != nil {
		stop()
		return nil, nil, err
	}
	undo = append(undo, n.server.Stop)
	// The driver reaches the server through the namespace's loopback; the
	// tests reach the driver through its unix socket, on the file system.
	wrapper := filepath.Join(dir, "driver-in-netns")
	script := fmt.Sprintf("#!/bin/sh\nexec ip netns exec %s %s \"$@\"\n", n.ns, env.binary)
	if err := os.WriteFile(wrapper, []byte(script), 0o755); err != nil {
		stop()
		return nil, nil, err
	}
	if len(args) == 0 {
		args = []string{"--mode", "controller"}
	}
	n.driver, err = harness.StartDriver(wrapper, dir, append(args, "--state-dir", filepath.Join(dir, "state"), "--v", "5")...)
	if err != nil {
		stop()
		return nil, nil, err
	}
	undo = append(undo, n.driver.Stop)
	return n, stop, nil
}

// tcpCounters reads the TCP counters of the network namespace process pid
// is in: connections it opened, and attempts refused (a SYN answered with a
// reset, as one to a port where nothing listens is).
func tcpCounters(t *testing.T, pid int) (activeOpens, attemptFails int) {
	t.Helper()
	f, err := os.Open(fmt.Sprintf("/proc/%d/net/snmp", pid))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var names []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		if len(fields) == 0 || fields[0] != "Tcp:" {
			continue
		}
		if names == nil {
			names = fields
			continue
		}
		for i, v := range fields {
			n, _ := strconv.Atoi(v)
			switch names[i] {
			case "ActiveOpens":
				activeOpens = n
			case "AttemptFails":
				attemptFails = n
			}
		}
	}
	return activeOpens, attemptFails
}

// A ?vers=4.1 class needs nothing but the server's 2049: in a network where
// nothing listens on 111, its volumes are made, snapshotted, restored and
// deleted without a single refused connection (no portmapper, no MOUNT
// attempt). An unpinned class on the same server tries NFSv3's portmapper,
// is refused, and provisions over NFSv4.1.
func TestNFSv4OnlyNetworkNeedsNoPortmapper(t *testing.T) {
	registered := func() []byte {
		out, _ := exec.Command("rpcinfo", "-p", "127.0.0.1").CombinedOutput()
		return out
	}
	before := registered()
	n, stop, err := startNFS4OnlyNet("v4only")
	if err != nil {
		t.Fatal(err)
	}
	// The suite's server keeps its registrations through this server's
	// life and after it: rpcbind's unix socket reaches across network
	// namespaces, and the other server must not use it.
	defer func() {
		stop()
		if after := registered(); !bytes.Equal(before, after) {
			t.Errorf("the suite's rpcbind registrations changed with the NFSv4-only server:\nbefore:\n%s\nafter:\n%s", before, after)
		}
	}()
	ports, err := localservers.ListeningIn(n.ns)
	if err != nil {
		t.Fatal(err)
	}
	if slices.Contains(ports, 111) || !slices.Contains(ports, 2049) {
		t.Fatalf("in %s, listening on %v: want 2049 and nothing on 111", n.ns, ports)
	}
	c := csi.NewControllerClient(n.driver.Conn)
	base := filepath.Join(n.server.Data, "base")
	must(t, os.MkdirAll(base, 0o777))
	pid := n.driver.Pid()

	opens, fails := tcpCounters(t, pid)
	pinned := map[string]string{"source": "nfs://127.0.0.1" + base + "?vers=4.1"}
	v := create(t, c, "pinned", pinned, nil)
	writeFile(t, filepath.Join(base, "pinned", "data"), "v4.1 only")
	snap := snapshotOf(t, c, "pinned-snap", v.GetVolumeId(), nil)
	restored := createFrom(t, c, "pinned-restored", pinned, nil, fromSnapshot(snap.GetSnapshotId()))
	mustRead(t, filepath.Join(base, "pinned-restored", "data"), "v4.1 only")
	if _, err := c.GetCapacity(context.Background(), &csi.GetCapacityRequest{Parameters: pinned}); err != nil {
		t.Errorf("GetCapacity: %v", err)
	}
	if _, err := c.DeleteSnapshot(context.Background(), &csi.DeleteSnapshotRequest{SnapshotId: snap.GetSnapshotId()}); err != nil {
		t.Fatal(err)
	}
	deleteVol(t, c, restored.GetVolumeId(), nil)
	deleteVol(t, c, v.GetVolumeId(), nil)
	opens2, fails2 := tcpCounters(t, pid)
	if opens2 == opens {
		t.Fatal("the pinned class opened no connection: the counters are not the driver's")
	}
	if fails2 != fails {
		t.Errorf("the ?vers=4.1 class made %d connection attempts that were refused (to the portmapper, or MOUNT)", fails2-fails)
	}
	t.Logf("?vers=4.1: %d connections opened, %d refused", opens2-opens, fails2-fails)

	unpinned := map[string]string{"source": "nfs://127.0.0.1" + base}
	u := create(t, c, "unpinned", unpinned, nil)
	if _, err := os.Stat(filepath.Join(base, "unpinned")); err != nil {
		t.Fatalf("the unpinned class's volume is not on the server: %v", err)
	}
	deleteVol(t, c, u.GetVolumeId(), nil)
	_, fails3 := tcpCounters(t, pid)
	if fails3 == fails2 {
		t.Errorf("the unpinned class did not try NFSv3's portmapper first")
	}
	if _, err := os.Stat(filepath.Join(base, "unpinned")); !os.IsNotExist(err) {
		t.Errorf("the unpinned volume was not deleted: %v", err)
	}
}
