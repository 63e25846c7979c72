//go:build linux

package integration

import (
	"context"
	"fmt"
	"io/fs"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/container-storage-interface/spec/lib/go/csi"
	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/fileshare-csi/fileshare-csi/test/freeport"
	"github.com/fileshare-csi/fileshare-csi/test/harness"
	"github.com/fileshare-csi/fileshare-csi/test/localservers"
)

// ownDriver starts a driver (controller and node) of the test's own beside
// the suite's, stopped when the test ends; its log is shown if it fails.
func ownDriver(t *testing.T, nodeID string, args ...string) *harness.Driver {
	t.Helper()
	dir := t.TempDir()
	if err := os.Chmod(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	d, err := harness.StartDriver(env.binary, dir, append([]string{"--mode", "all", "--nodeid", nodeID,
		"--state-dir", filepath.Join(dir, "state"), "--v", "5"}, args...)...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		d.Stop()
		if t.Failed() {
			t.Logf("---- %s driver log (tail) ----\n%s", nodeID, d.LogTail(20000))
		}
	})
	return d
}

// metricsDriver starts a driver of its own with metrics on (and args), so
// the counts it shows come from this test's calls alone.
func metricsDriver(t *testing.T, args ...string) (*harness.Driver, string) {
	t.Helper()
	port, err := freeport.Get()
	if err != nil {
		t.Fatal(err)
	}
	addr := net.JoinHostPort("127.0.0.1", strconv.Itoa(port))
	d := ownDriver(t, "metrics-node", append([]string{"--metrics-address", addr}, args...)...)
	return d, "http://" + addr + "/metrics"
}

type scrape map[string]*dto.MetricFamily

func scrapeMetrics(t *testing.T, url string) scrape {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("GET %s: %s", url, resp.Status)
	}
	parser := expfmt.NewTextParser(model.UTF8Validation)
	fams, err := parser.TextToMetricFamilies(resp.Body)
	if err != nil {
		t.Fatalf("parse %s: %v", url, err)
	}
	return fams
}

// value is the sample of family name whose labels include want; -1 when
// there is none.
func (s scrape) value(name string, want map[string]string) float64 {
	f := s[name]
	if f == nil {
		return -1
	}
next:
	for _, m := range f.GetMetric() {
		have := map[string]string{}
		for _, l := range m.GetLabel() {
			have[l.GetName()] = l.GetValue()
		}
		for k, v := range want {
			if have[k] != v {
				continue next
			}
		}
		switch {
		case m.Counter != nil:
			return m.GetCounter().GetValue()
		case m.Gauge != nil:
			return m.GetGauge().GetValue()
		case m.Histogram != nil:
			return float64(m.GetHistogram().GetSampleCount())
		}
	}
	return -1
}

func (s scrape) want(t *testing.T, name string, labels map[string]string, want float64) {
	t.Helper()
	if got := s.value(name, labels); got != want {
		t.Errorf("%s%v = %v, want %v", name, labels, got, want)
	}
}

func (s scrape) atLeast(t *testing.T, name string, labels map[string]string, min float64) {
	t.Helper()
	if got := s.value(name, labels); got < min {
		t.Errorf("%s%v = %v, want at least %v", name, labels, got, min)
	}
}

// call selects the CSI call metrics of one method and code.
func call(method, code string) map[string]string {
	return map[string]string{"driver_name": "fileshare.csi.dev", "method_name": method, "grpc_status_code": code}
}

const callsMetric = "csi_plugin_operations_seconds"

// TestMetrics makes known calls on a driver of its own against the real
// servers and reads them back from /metrics: calls by method and code,
// the pool's dials and sessions per share, what DeleteVolume removed, and,
// where the kernel can mount, the node's mounts. No label may carry a
// secret, a user, a volume ID or a path below the share.
func TestMetrics(t *testing.T) {
	d, url := metricsDriver(t)
	c, n := csi.NewControllerClient(d.Conn), csi.NewNodeClient(d.Conn)
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()

	before := scrapeMetrics(t, url)
	before.want(t, "fileshare_csi_node_mounts", map[string]string{"protocol": "smb", "state": "healthy"}, 0)

	var secretish []string // what no label value may contain
	secretish = append(secretish, localservers.SMBPassword, localservers.SMBUser)
	const wrong = "Wr0ng-Metrics-Passw0rd"
	secretish = append(secretish, wrong)

	type proto struct {
		name, data string
		source     func(string) string
		secrets    map[string]string
	}
	protos := []proto{
		{"nfs", env.nfs.Data, nfsSource, nil},
		{"smb", env.samba.Data, smbSource, smbSecrets()},
	}
	const dirs, files = 3, 4
	for _, p := range protos {
		baseName := "metrics-" + p.name
		base := filepath.Join(p.data, baseName)
		if err := os.MkdirAll(base, 0o777); err != nil {
			t.Fatal(err)
		}
		if err := os.Chmod(base, 0o777); err != nil {
			t.Fatal(err)
		}
		secretish = append(secretish, baseName)
		params := map[string]string{"source": p.source(baseName), "onDelete": "delete"}
		for _, name := range []string{"metrics-a", "metrics-b"} {
			resp, err := c.CreateVolume(ctx, &csi.CreateVolumeRequest{Name: name, Parameters: params, Secrets: p.secrets, VolumeCapabilities: []*csi.VolumeCapability{mountCap}})
			if err != nil {
				t.Fatalf("%s CreateVolume %s: %v", p.name, name, err)
			}
			id := resp.GetVolume().GetVolumeId()
			secretish = append(secretish, id, name)
			owner := 0
			if p.secrets != nil {
				owner = smbUID(t)
			}
			fillTree(t, filepath.Join(base, name), dirs, files, false, owner)
			if _, err := c.DeleteVolume(ctx, &csi.DeleteVolumeRequest{VolumeId: id, Secrets: p.secrets}); err != nil {
				t.Fatalf("%s DeleteVolume %s: %v", p.name, name, err)
			}
		}
	}
	// Refused calls: a missing name, and an SMB password the server refuses.
	if _, err := c.CreateVolume(ctx, &csi.CreateVolumeRequest{Parameters: map[string]string{"source": nfsSource("")}, VolumeCapabilities: []*csi.VolumeCapability{mountCap}}); status.Code(err) != codes.InvalidArgument {
		t.Fatalf("CreateVolume without a name: %v, want InvalidArgument", err)
	}
	_, err := c.CreateVolume(ctx, &csi.CreateVolumeRequest{
		Name: "metrics-wrong", Parameters: map[string]string{"source": smbSource("metrics-smb")},
		Secrets:            map[string]string{"username": localservers.SMBUser, "password": wrong},
		VolumeCapabilities: []*csi.VolumeCapability{mountCap},
	})
	if status.Code(err) != codes.PermissionDenied {
		t.Fatalf("CreateVolume with a wrong password: %v, want PermissionDenied", err)
	}

	s := scrapeMetrics(t, url)
	s.want(t, callsMetric, call("/csi.v1.Controller/CreateVolume", "OK"), 4)
	s.want(t, callsMetric, call("/csi.v1.Controller/CreateVolume", "InvalidArgument"), 1)
	s.want(t, callsMetric, call("/csi.v1.Controller/CreateVolume", "PermissionDenied"), 1)
	s.want(t, callsMetric, call("/csi.v1.Controller/DeleteVolume", "OK"), 4)
	// Each delete removes the tree and the volume's own directory.
	perVolume := float64(dirs*files + dirs + 1)
	for _, p := range protos {
		s.want(t, "fileshare_csi_volume_deletes_total", map[string]string{"protocol": p.name, "action": "delete"}, 2)
		s.want(t, "fileshare_csi_volume_delete_entries_removed_total", map[string]string{"protocol": p.name}, 2*perVolume)
		share := map[string]string{"protocol": p.name}
		s.atLeast(t, "fileshare_csi_pool_dials_total", share, 1)
		s.atLeast(t, "fileshare_csi_pool_sessions_open", share, 1)
		s.want(t, "fileshare_csi_pool_sessions_in_use", share, 0)
	}
	smbShare := map[string]string{"protocol": "smb", "server": fmt.Sprintf("127.0.0.1:%d", smbPort), "share": localservers.SMBShare}
	s.atLeast(t, "fileshare_csi_pool_dial_failures_total", smbShare, 1)

	if kernelCanMount() {
		nodeMetrics(t, c, n, url, &secretish)
	} else {
		t.Log("node mount metrics: needs a kernel with NFS and CIFS clients; checked in make test-vm")
	}

	// No label value carries a secret, a user, a volume ID or name, or a
	// directory below the share.
	for name, f := range scrapeMetrics(t, url) {
		for _, m := range f.GetMetric() {
			for _, l := range m.GetLabel() {
				for _, bad := range secretish {
					if strings.Contains(l.GetValue(), bad) {
						t.Errorf("%s has label %s=%q, which contains %q", name, l.GetName(), l.GetValue(), bad)
					}
				}
			}
		}
	}
}

// nodeMetrics stages an NFS and an SMB volume on the metrics driver's node
// and checks the mounts gauge follows them through stats and unstage.
func nodeMetrics(t *testing.T, c csi.ControllerClient, n csi.NodeClient, url string, secretish *[]string) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	capab := &csi.VolumeCapability{
		AccessType: &csi.VolumeCapability_Mount{Mount: &csi.VolumeCapability_MountVolume{}},
		AccessMode: &csi.VolumeCapability_AccessMode{Mode: csi.VolumeCapability_AccessMode_MULTI_NODE_MULTI_WRITER},
	}
	var staged []func()
	for _, cl := range classes(t) {
		if cl.name == "nfs3" || cl.name == "nfs41only" {
			continue // one NFS class is enough here
		}
		resp, err := c.CreateVolume(ctx, &csi.CreateVolumeRequest{Name: "metrics-node-" + cl.name, Parameters: cl.params, Secrets: cl.secrets, VolumeCapabilities: []*csi.VolumeCapability{capab}})
		if err != nil {
			t.Fatalf("CreateVolume: %v", err)
		}
		vol := resp.GetVolume()
		*secretish = append(*secretish, vol.GetVolumeId())
		staging := filepath.Join(t.TempDir(), "staging")
		if _, err := n.NodeStageVolume(ctx, &csi.NodeStageVolumeRequest{VolumeId: vol.GetVolumeId(), StagingTargetPath: staging,
			VolumeCapability: capab, VolumeContext: vol.GetVolumeContext(), Secrets: cl.secrets}); err != nil {
			t.Fatalf("NodeStageVolume %s: %v", cl.name, err)
		}
		if _, err := n.NodeGetVolumeStats(ctx, &csi.NodeGetVolumeStatsRequest{VolumeId: vol.GetVolumeId(), VolumePath: staging}); err != nil {
			t.Fatalf("NodeGetVolumeStats %s: %v", cl.name, err)
		}
		id, secrets := vol.GetVolumeId(), cl.secrets
		staged = append(staged, func() {
			if _, err := n.NodeUnstageVolume(ctx, &csi.NodeUnstageVolumeRequest{VolumeId: id, StagingTargetPath: staging}); err != nil {
				t.Errorf("NodeUnstageVolume: %v", err)
			}
			if _, err := c.DeleteVolume(ctx, &csi.DeleteVolumeRequest{VolumeId: id, Secrets: secrets}); err != nil {
				t.Errorf("DeleteVolume: %v", err)
			}
		})
	}
	s := scrapeMetrics(t, url)
	for _, p := range []string{"nfs", "smb"} {
		s.want(t, "fileshare_csi_node_mounts", map[string]string{"protocol": p, "state": "healthy"}, 1)
		s.want(t, "fileshare_csi_node_mounts", map[string]string{"protocol": p, "state": "broken"}, 0)
	}
	s.want(t, callsMetric, call("/csi.v1.Node/NodeStageVolume", "OK"), 2)
	s.want(t, callsMetric, call("/csi.v1.Node/NodeGetVolumeStats", "OK"), 2)
	for _, undo := range staged {
		undo()
	}
	s = scrapeMetrics(t, url)
	for _, p := range []string{"nfs", "smb"} {
		s.want(t, "fileshare_csi_node_mounts", map[string]string{"protocol": p, "state": "healthy"}, 0)
	}
}

// Snapshot, restore and clone copies show in the metrics: how many ended
// and how, their files and bytes, and none left running once ready. Small
// files go into and come out of a snapshot's pack through the controller
// (streamed); a clone of them on SMB is copied by the server.
func TestCopyMetrics(t *testing.T) {
	d, url := metricsDriver(t)
	c := csi.NewControllerClient(d.Conn)
	protocols(t, func(t *testing.T, params, secrets map[string]string, base string) {
		proto := "nfs"
		if !isNFS(t) {
			proto = "smb"
		}
		before := scrapeMetrics(t, url)
		v := create(t, c, "src", params, secrets)
		for i := range 5 {
			writeFile(t, filepath.Join(base, "src", fmt.Sprintf("f%d", i)), strings.Repeat("x", 1000))
		}
		if !isNFS(t) {
			must(t, filepath.WalkDir(filepath.Join(base, "src"), func(p string, _ fs.DirEntry, err error) error {
				if err != nil {
					return err
				}
				return os.Chmod(p, 0o777)
			}))
		}
		snap := snapshotOf(t, c, "snap", v.GetVolumeId(), secrets)
		restored := createFrom(t, c, "restored", params, secrets, fromSnapshot(snap.GetSnapshotId()))
		cloned := createFrom(t, c, "cloned", params, secrets, fromVolume(v.GetVolumeId()))
		after := scrapeMetrics(t, url)
		delta := func(name string, labels map[string]string) float64 {
			b := before.value(name, labels)
			if b < 0 {
				b = 0
			}
			return after.value(name, labels) - b
		}
		for _, kind := range []string{"snapshot", "restore", "clone"} {
			if got := delta("fileshare_csi_copies_total", map[string]string{"kind": kind, "protocol": proto, "result": "ok"}); got != 1 {
				t.Errorf("%s copies ended ok: %v, want 1", kind, got)
			}
			if got := delta("fileshare_csi_copy_files_total", map[string]string{"kind": kind, "protocol": proto}); got != 5 {
				t.Errorf("%s copied %v files, want 5", kind, got)
			}
			streamed := delta("fileshare_csi_copy_bytes_total", map[string]string{"kind": kind, "protocol": proto, "how": "streamed"})
			server := delta("fileshare_csi_copy_bytes_total", map[string]string{"kind": kind, "protocol": proto, "how": "server"})
			if byServer := proto == "smb" && kind == "clone"; streamed+server != 5000 || byServer != (server == 5000) {
				t.Errorf("%s bytes: %v streamed, %v by the server; want 5000 in all, by the server for an SMB clone only", kind, streamed, server)
			}
			after.want(t, "fileshare_csi_copies_running", map[string]string{"kind": kind}, 0)
		}
		if _, err := c.DeleteSnapshot(context.Background(), &csi.DeleteSnapshotRequest{SnapshotId: snap.GetSnapshotId(), Secrets: secrets}); err != nil {
			t.Fatal(err)
		}
		for _, id := range []string{restored.GetVolumeId(), cloned.GetVolumeId(), v.GetVolumeId()} {
			deleteVol(t, c, id, secrets)
		}
	})
}
