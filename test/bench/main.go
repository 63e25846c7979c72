//go:build linux

// Command bench measures provisioning and mount cost against real servers
// on loopback and prints a Markdown table: our user-space controller next to
// the mount-based way peer drivers work, each row with its baseline measured
// in the same run. `make bench` runs it on the host (Samba, NFS-Ganesha) and
// inside the test VM (kernel nfsd, where mount(8) works).
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/container-storage-interface/spec/lib/go/csi"
	"google.golang.org/grpc"

	"github.com/fileshare-csi/fileshare-csi/pkg/state"
	"github.com/fileshare-csi/fileshare-csi/test/harness"
	"github.com/fileshare-csi/fileshare-csi/test/localservers"
)

var (
	driverPath = flag.String("driver", "", "driver binary (default: build ./cmd/fileshare-csi with hack/gobuild)")
	ops        = flag.Int("ops", 200, "CreateVolume+DeleteVolume pairs per sequential row")
	concurrent = flag.Int("clients", 16, "concurrent clients for the parallel rows")
	treeFiles  = flag.Int("tree-files", 10000, "files in the DeleteVolume tree")
	smbTree    = flag.Int("smb-tree-files", 0, "files in the SMB DeleteVolume tree (default: -tree-files)")
	treeDirs   = flag.Int("tree-dirs", 100, "directories the files are spread over")
	bigFileMiB = flag.Int("big-file-mib", 1024, "size of the one-file snapshot rows (0: no such rows)")
	snapshots  = flag.Bool("snapshots", true, "run the snapshot, restore and clone rows")
	baselines  = flag.Bool("baselines", true, "run the rows that mount where this kernel can: the peers' baselines and the node rows (false: user-space rows only, for comparing two builds)")
	output     = flag.String("o", "", "also write the table to this file")
	where      = flag.String("where", "host", "label for the rows' environment")
	only       = flag.String("only", "", "run only these row groups, comma-separated: provisioning, scaling, delete, snapshots, node, usage (default: all)")
	protoNames = flag.String("protocols", "", "run only the rows of these shares, comma-separated: NFS, SMB, NFSv4.1 (default: all)")
)

func main() {
	flag.Parse()
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "bench:", err)
		os.Exit(1)
	}
}

// row is one line of the table.
type row struct {
	name, server, method string
	n                    int
	p50, p99             time.Duration
	opsPerSec            float64
	note                 string
}

type env struct {
	dir          string
	bin          string
	samba, nfs   *localservers.Server
	canMount     bool
	rows         []row
	driverRSS    []string
	usage        []string // the usage rows' table at the node's defaults
	usageTree    string   // the tree they count, between shares
	baselineP50s map[string]time.Duration
}

func run() error {
	if os.Geteuid() != 0 {
		return errors.New("run as root: the benchmark starts file servers and mounts")
	}
	ctx := context.Background()
	dir, err := os.MkdirTemp("", "fileshare-bench-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	_ = os.Chmod(dir, 0o755)
	e := &env{dir: dir, canMount: *baselines && harness.HasFilesystem("nfs") && harness.HasFilesystem("cifs"), baselineP50s: map[string]time.Duration{}}
	if e.bin, err = harness.BuildDriver(dir, ".", *driverPath); err != nil {
		return err
	}
	servers, err := harness.StartServers(ctx, dir, 4450, harness.HasFilesystem("nfsd"))
	if err != nil {
		return err
	}
	defer servers.Stop()
	e.samba, e.nfs = servers.Samba, servers.NFS

	if selected("provisioning") {
		for _, p := range chosen(append(e.protocols(), e.nfs41())) {
			if err := e.provisioningRows(p); err != nil {
				return err
			}
		}
	}
	if selected("scaling") {
		if err := e.scalingRows(); err != nil {
			return err
		}
	}
	if selected("delete") {
		for _, p := range chosen(e.protocols()) {
			if err := e.deleteTreeRows(p); err != nil {
				return err
			}
		}
	}
	if *snapshots && selected("snapshots") {
		for _, p := range chosen(e.protocols()) {
			if err := e.snapshotRows(p); err != nil {
				return err
			}
		}
	}
	if e.canMount && selected("node") {
		for _, p := range chosen(e.protocols()) {
			if err := e.nodeRows(p); err != nil {
				return err
			}
		}
	}
	if e.canMount && selected("usage") {
		for _, p := range chosen(e.protocols()) {
			if err := e.usageRows(p); err != nil {
				return err
			}
		}
	}
	return e.print()
}

// selected says whether -only asks for the row group: iterating on one
// kind of row should not cost the whole run.
func selected(group string) bool {
	return *only == "" || slices.Contains(strings.Split(*only, ","), group)
}

// chosen keeps the shares -protocols names.
func chosen(ps []protocol) []protocol {
	if *protoNames == "" {
		return ps
	}
	var out []protocol
	for _, p := range ps {
		if slices.Contains(strings.Split(*protoNames, ","), p.name) {
			out = append(out, p)
		}
	}
	return out
}

// protocol is one share the rows run against.
type protocol struct {
	name, server string
	base         string // directory on the server's disk
	source       string
	secrets      map[string]string
	fstype       string
	device       string // for mount(8), the share root
	options      string // for mount(8)
	// classOptions are the StorageClass's mountOptions for the same mount:
	// the port is the source's, and the driver refuses it there.
	classOptions string
}

func (e *env) protocols() []protocol {
	nfsBase := filepath.Join(e.nfs.Data, "bench")
	smbBase := filepath.Join(e.samba.Data, "bench")
	for _, d := range []string{nfsBase, smbBase} {
		_ = os.MkdirAll(d, 0o777)
		_ = os.Chmod(d, 0o777)
	}
	return []protocol{
		{name: "NFS", server: e.nfs.Name, base: nfsBase, source: "nfs://127.0.0.1" + nfsBase,
			fstype: "nfs", device: "127.0.0.1:" + nfsBase, options: "vers=3,nolock", classOptions: "vers=3,nolock"},
		{name: "SMB", server: "smbd", base: smbBase, source: "smb://127.0.0.1:4450/" + localservers.SMBShare + "/bench",
			secrets: map[string]string{"username": localservers.SMBUser, "password": localservers.SMBPassword},
			fstype:  "cifs", device: "//127.0.0.1/" + localservers.SMBShare + "/bench", options: "vers=3.0,port=4450", classOptions: "vers=3.0"},
	}
}

// nfs41 is the NFS share pinned to NFSv4.1: the controller's own v4.1
// client, and mount(8) with vers=4.1 for the baseline.
func (e *env) nfs41() protocol {
	p := e.protocols()[0]
	p.name, p.source, p.options, p.classOptions = "NFSv4.1", p.source+"?vers=4.1", "vers=4.1", "vers=4.1"
	return p
}

// roundTrips counts the RPCs one CreateVolume+DeleteVolume pair sends to
// nfsd, on a warm pooled session, through a counting proxy in front of
// port 2049.
// roundTrips counts the requests a warm CreateVolume+DeleteVolume pair of
// p sends to its server, through a counting proxy: ONC RPC calls for NFS
// (a COMPOUND is one), SMB2 messages for SMB (a compound chain is one).
func (e *env) roundTrips(p protocol) (float64, error) {
	var source string
	var calls func() int64
	if p.fstype == "nfs" {
		counter, err := localservers.StartRPCCounter("127.0.0.1:2049")
		if err != nil {
			return 0, err
		}
		defer counter.Close()
		source = strings.Replace(p.source, "nfs://127.0.0.1/", "nfs://"+counter.Addr+"/", 1)
		calls = func() int64 { return int64(counter.Calls()) }
	} else {
		proxy, err := localservers.StartStallProxy("127.0.0.1:4450")
		if err != nil {
			return 0, err
		}
		defer proxy.Close()
		proxy.SetStall(false)
		source = strings.Replace(p.source, "smb://127.0.0.1:4450/", "smb://"+proxy.Addr+"/", 1)
		calls = proxy.Requests
	}
	d, err := e.startDriver("controller")
	if err != nil {
		return 0, err
	}
	defer d.stop()
	ctrl := csi.NewControllerClient(d.conn)
	pair := func(name string) error {
		resp, err := ctrl.CreateVolume(context.Background(), &csi.CreateVolumeRequest{Name: name, Secrets: p.secrets,
			Parameters: map[string]string{"source": source}, VolumeCapabilities: []*csi.VolumeCapability{mountCap}})
		if err != nil {
			return err
		}
		_, err = ctrl.DeleteVolume(context.Background(), &csi.DeleteVolumeRequest{VolumeId: resp.GetVolume().GetVolumeId(), Secrets: p.secrets})
		return err
	}
	if err := pair("rt-warm"); err != nil {
		return 0, err
	}
	const n = 20
	before := calls()
	for i := range n {
		if err := pair(fmt.Sprintf("rt-%d", i)); err != nil {
			return 0, err
		}
	}
	return float64(calls()-before) / n, nil
}

// driver is a running driver process and a connection to it.
type driver struct {
	*harness.Driver
	conn *grpc.ClientConn
}

func (e *env) startDriver(mode string, extra ...string) (*driver, error) {
	d, err := harness.StartDriver(e.bin, e.dir, append([]string{"--mode", mode, "--nodeid", "bench", "--state-dir", filepath.Join(e.dir, "state")}, extra...)...)
	if err != nil {
		return nil, err
	}
	return &driver{Driver: d, conn: d.Conn}, nil
}

func (d *driver) stop() { d.Stop() }

// rss reads the resident set size (current and peak) of a process.
func rss(pid int) (cur, peak string) {
	b, _ := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	for _, line := range strings.Split(string(b), "\n") {
		f := strings.Fields(line)
		if len(f) >= 2 && f[0] == "VmRSS:" {
			cur = mib(f[1])
		}
		if len(f) >= 2 && f[0] == "VmHWM:" {
			peak = mib(f[1])
		}
	}
	return cur, peak
}

func mib(kb string) string {
	n, _ := strconv.Atoi(kb)
	return fmt.Sprintf("%.1f MiB", float64(n)/1024)
}

var mountCap = &csi.VolumeCapability{
	AccessType: &csi.VolumeCapability_Mount{Mount: &csi.VolumeCapability_MountVolume{}},
	AccessMode: &csi.VolumeCapability_AccessMode{Mode: csi.VolumeCapability_AccessMode_MULTI_NODE_MULTI_WRITER},
}

// measure runs op n times over `clients` goroutines and summarizes.
func measure(n, clients int, op func(i int) error) (p50, p99 time.Duration, perSec float64, err error) {
	lat := make([]time.Duration, n)
	var (
		wg       sync.WaitGroup
		mu       sync.Mutex
		firstErr error
		next     int
	)
	start := time.Now()
	for range clients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				mu.Lock()
				i := next
				next++
				mu.Unlock()
				if i >= n {
					return
				}
				t := time.Now()
				if err := op(i); err != nil {
					mu.Lock()
					if firstErr == nil {
						firstErr = err
					}
					mu.Unlock()
					return
				}
				lat[i] = time.Since(t)
			}
		}()
	}
	wg.Wait()
	total := time.Since(start)
	if firstErr != nil {
		return 0, 0, 0, firstErr
	}
	sort.Slice(lat, func(a, b int) bool { return lat[a] < lat[b] })
	return lat[n/2], lat[(n*99)/100], float64(n) / total.Seconds(), nil
}

func (e *env) add(r row) {
	e.rows = append(e.rows, r)
	fmt.Fprintf(os.Stderr, "  %-60s p50 %-10s p99 %-10s %8.1f ops/s %s\n", r.name+" ["+r.method+"]", r.p50.Round(time.Microsecond), r.p99.Round(time.Microsecond), r.opsPerSec, r.note)
}

func (e *env) provisioningRows(p protocol) error {
	ctx := context.Background()
	for _, pool := range []bool{true, false} {
		extra := []string{}
		method := "fileshare-csi, user space"
		if !pool {
			extra = append(extra, "--max-sessions-per-share=0")
			method = "fileshare-csi, user space, new session per call"
		}
		d, err := e.startDriver("controller", extra...)
		if err != nil {
			return err
		}
		ctrl := csi.NewControllerClient(d.conn)
		idleCur, _ := rss(d.Pid())
		for _, clients := range []int{1, *concurrent} {
			if !pool && clients > 1 {
				// Unpooled and concurrent, the NFS sessions exhaust the
				// reserved source ports (TIME_WAIT): that is why the pool is.
				continue
			}
			prefix := fmt.Sprintf("b%d-%t-%d", clients, pool, time.Now().UnixNano())
			n := *ops
			if clients > 1 {
				n = *ops * 2
			}
			if !pool {
				// Each unpooled call binds two reserved ports that then wait
				// a minute in TIME_WAIT; a few hundred calls would use them up.
				n = min(n, 50)
			}
			p50, p99, rate, err := measure(n, clients, func(i int) error {
				resp, err := ctrl.CreateVolume(ctx, &csi.CreateVolumeRequest{Name: fmt.Sprintf("%s-%d", prefix, i),
					Parameters: map[string]string{"source": p.source}, Secrets: p.secrets, VolumeCapabilities: []*csi.VolumeCapability{mountCap}})
				if err != nil {
					return fmt.Errorf("CreateVolume: %w", err)
				}
				_, err = ctrl.DeleteVolume(ctx, &csi.DeleteVolumeRequest{VolumeId: resp.GetVolume().GetVolumeId(), Secrets: p.secrets})
				return err
			})
			if err != nil {
				d.stop()
				return fmt.Errorf("%s create+delete: %w", p.name, err)
			}
			note := ""
			if clients == 1 && pool {
				rt, err := e.roundTrips(p)
				if err != nil {
					d.stop()
					return fmt.Errorf("%s round trips: %w", p.name, err)
				}
				note = fmt.Sprintf("%.1f round trips to %s per pair", rt, p.server)
			}
			if clients > 1 && pool {
				cur, peak := rss(d.Pid())
				e.driverRSS = append(e.driverRSS, fmt.Sprintf("| controller (%s) | %s | %s | %s |", p.name, idleCur, cur, peak))
			}
			e.add(row{name: fmt.Sprintf("%s CreateVolume+DeleteVolume, %d client(s)", p.name, clients), server: p.server,
				method: method, n: n, p50: p50, p99: p99, opsPerSec: rate, note: note})
		}
		d.stop()
	}
	if !e.canMount {
		return nil
	}
	// The peer drivers' way: mount the share, mkdir (or rm -rf), unmount.
	mnt := filepath.Join(e.dir, "peer-"+p.name)
	_ = os.MkdirAll(mnt, 0o755)
	opts := p.mountOptions()
	for _, clients := range []int{1, *concurrent} {
		n := *ops
		if clients > 1 {
			n = *ops * 2
		}
		p50, p99, rate, err := measure(n, clients, func(i int) error {
			m := fmt.Sprintf("%s-%d-%d", mnt, clients, i)
			if err := os.MkdirAll(m, 0o755); err != nil {
				return err
			}
			defer os.Remove(m)
			return runSteps([][]string{
				{"mount", "-t", p.fstype, "-o", opts, p.device, m},
				{"mkdir", filepath.Join(m, fmt.Sprintf("peer-%d-%d", clients, i))},
				{"umount", m},
				{"mount", "-t", p.fstype, "-o", opts, p.device, m},
				{"rm", "-rf", filepath.Join(m, fmt.Sprintf("peer-%d-%d", clients, i))},
				{"umount", m},
			})
		})
		if err != nil {
			return fmt.Errorf("%s mount baseline: %w", p.name, err)
		}
		e.add(row{name: fmt.Sprintf("%s CreateVolume+DeleteVolume, %d client(s)", p.name, clients), server: p.server,
			method: "baseline: mount(8), mkdir / rm -rf, umount", n: n, p50: p50, p99: p99, opsPerSec: rate})
	}
	return nil
}

// scalingRows: CreateVolume latency with 1, 1000 and 10000 volumes already on
// the share. Directory lookups by name must not grow with the count.
func (e *env) scalingRows() error {
	ctx := context.Background()
	p := e.protocols()[0]
	d, err := e.startDriver("controller")
	if err != nil {
		return err
	}
	defer d.stop()
	ctrl := csi.NewControllerClient(d.conn)
	base := filepath.Join(p.base, "scale")
	// Records live at the export's root, keyed by the path from there.
	rel, err := filepath.Rel(e.nfs.Data, base)
	if err != nil {
		return err
	}
	_ = os.MkdirAll(filepath.Join(e.nfs.Data, state.Dir, "volumes"), 0o777)
	_ = os.MkdirAll(base, 0o777)
	existing := 0
	for _, count := range []int{1, 1000, 10000} {
		for ; existing < count; existing++ {
			name := fmt.Sprintf("existing-%05d", existing)
			if err := os.Mkdir(filepath.Join(base, name), 0o777); err != nil {
				return err
			}
			// As CreateVolume leaves them.
			p := filepath.ToSlash(filepath.Join(rel, name))
			rec := fmt.Sprintf(`{"uid":"%016x","name":%q,"path":%q,"capacityBytes":0}`, existing, name, p)
			if err := os.WriteFile(filepath.Join(e.nfs.Data, filepath.FromSlash(state.RecordPath(p))), []byte(rec), 0o644); err != nil {
				return err
			}
		}
		n := min(*ops, 100)
		p50, p99, rate, err := measure(n, 1, func(i int) error {
			_, err := ctrl.CreateVolume(ctx, &csi.CreateVolumeRequest{Name: fmt.Sprintf("scale-%d-%d", count, i),
				Parameters: map[string]string{"source": p.source + "/scale"}, VolumeCapabilities: []*csi.VolumeCapability{mountCap}})
			return err
		})
		if err != nil {
			return fmt.Errorf("scaling at %d: %w", count, err)
		}
		existing += n
		e.add(row{name: fmt.Sprintf("NFS CreateVolume with %d volumes on the share", count), server: p.server,
			method: "fileshare-csi, user space", n: n, p50: p50, p99: p99, opsPerSec: rate})
	}
	return nil
}

// makeTree writes files small files spread over dirs directories.
func makeTree(root string, dirs, files int, uid int) error {
	if err := os.MkdirAll(root, 0o777); err != nil {
		return err
	}
	// As if written through the share by its user: SMB deletes as that user.
	_ = os.Lchown(root, uid, -1)
	for d := range dirs {
		sub := filepath.Join(root, fmt.Sprintf("d%03d", d))
		if err := os.MkdirAll(sub, 0o777); err != nil {
			return err
		}
		_ = os.Lchown(sub, uid, -1)
		for f := range files / dirs {
			p := filepath.Join(sub, fmt.Sprintf("f%05d", f))
			if err := os.WriteFile(p, []byte("x"), 0o644); err != nil {
				return err
			}
			_ = os.Lchown(p, uid, -1)
		}
	}
	return nil
}

func (e *env) deleteTreeRows(p protocol) error {
	ctx := context.Background()
	d, err := e.startDriver("controller")
	if err != nil {
		return err
	}
	defer d.stop()
	ctrl := csi.NewControllerClient(d.conn)
	files, uid := p.tree()
	resp, err := ctrl.CreateVolume(ctx, &csi.CreateVolumeRequest{Name: "tree-" + p.name,
		Parameters: map[string]string{"source": p.source}, Secrets: p.secrets, VolumeCapabilities: []*csi.VolumeCapability{mountCap}})
	if err != nil {
		return err
	}
	if err := makeTree(filepath.Join(p.base, "tree-"+p.name), *treeDirs, files, uid); err != nil {
		return err
	}
	start := time.Now()
	if _, err := ctrl.DeleteVolume(ctx, &csi.DeleteVolumeRequest{VolumeId: resp.GetVolume().GetVolumeId(), Secrets: p.secrets}); err != nil {
		return fmt.Errorf("DeleteVolume of the tree: %w", err)
	}
	ours := time.Since(start)
	name := fmt.Sprintf("%s DeleteVolume of %d files in %d directories", p.name, files, *treeDirs)
	e.add(row{name: name, server: p.server, method: "fileshare-csi, user space", n: 1, p50: ours, p99: ours, opsPerSec: float64(files) / ours.Seconds(), note: "ops/s = files/s"})
	if !e.canMount {
		return nil
	}
	tree := filepath.Join(p.base, "tree-rm-"+p.name)
	if err := makeTree(tree, *treeDirs, files, uid); err != nil {
		return err
	}
	mnt := filepath.Join(e.dir, "rm-"+p.name)
	_ = os.MkdirAll(mnt, 0o755)
	opts := p.mountOptions()
	start = time.Now()
	if err := runSteps([][]string{
		{"mount", "-t", p.fstype, "-o", opts, p.device, mnt},
		{"rm", "-rf", filepath.Join(mnt, "tree-rm-"+p.name)},
		{"umount", mnt},
	}); err != nil {
		return err
	}
	base := time.Since(start)
	e.add(row{name: name, server: p.server, method: "baseline: mount(8), rm -rf, umount", n: 1, p50: base, p99: base, opsPerSec: float64(files) / base.Seconds(), note: "ops/s = files/s"})
	return nil
}

func (e *env) nodeRows(p protocol) error {
	ctx := context.Background()
	d, err := e.startDriver("all")
	if err != nil {
		return err
	}
	defer d.stop()
	ctrl, node := csi.NewControllerClient(d.conn), csi.NewNodeClient(d.conn)
	idle, _ := rss(d.Pid())
	resp, err := ctrl.CreateVolume(ctx, &csi.CreateVolumeRequest{Name: "node-" + p.name,
		Parameters: map[string]string{"source": p.source, "mountOptions": p.classOptions}, Secrets: p.secrets, VolumeCapabilities: []*csi.VolumeCapability{mountCap}})
	if err != nil {
		return err
	}
	vol := resp.GetVolume()
	n := max(*ops/4, 10)
	root := filepath.Join(e.dir, "node-"+p.name)
	p50, p99, rate, err := measure(n, 1, func(i int) error {
		staging, target := filepath.Join(root, fmt.Sprint(i), "staging"), filepath.Join(root, fmt.Sprint(i), "target")
		if _, err := node.NodeStageVolume(ctx, &csi.NodeStageVolumeRequest{VolumeId: vol.GetVolumeId(), StagingTargetPath: staging,
			VolumeCapability: mountCap, VolumeContext: vol.GetVolumeContext(), Secrets: p.secrets}); err != nil {
			return err
		}
		if _, err := node.NodePublishVolume(ctx, &csi.NodePublishVolumeRequest{VolumeId: vol.GetVolumeId(), StagingTargetPath: staging,
			TargetPath: target, VolumeCapability: mountCap, VolumeContext: vol.GetVolumeContext()}); err != nil {
			return err
		}
		if _, err := node.NodeUnpublishVolume(ctx, &csi.NodeUnpublishVolumeRequest{VolumeId: vol.GetVolumeId(), TargetPath: target}); err != nil {
			return err
		}
		_, err := node.NodeUnstageVolume(ctx, &csi.NodeUnstageVolumeRequest{VolumeId: vol.GetVolumeId(), StagingTargetPath: staging})
		return err
	})
	if err != nil {
		return fmt.Errorf("%s node cycle: %w", p.name, err)
	}
	cur, peak := rss(d.Pid())
	e.driverRSS = append(e.driverRSS, fmt.Sprintf("| node plugin (%s, %d stage/publish cycles) | %s | %s | %s |", p.name, n, idle, cur, peak))
	e.add(row{name: p.name + " NodeStage+NodePublish+NodeUnpublish+NodeUnstage", server: p.server, method: "fileshare-csi", n: n, p50: p50, p99: p99, opsPerSec: rate})
	device := p.device + "/node-" + p.name
	opts := p.mountOptions()
	p50, p99, rate, err = measure(n, 1, func(i int) error {
		staging, target := filepath.Join(root, "bare", fmt.Sprint(i), "s"), filepath.Join(root, "bare", fmt.Sprint(i), "t")
		for _, dir := range []string{staging, target} {
			if err := os.MkdirAll(dir, 0o750); err != nil {
				return err
			}
		}
		return runSteps([][]string{
			{"mount", "-t", p.fstype, "-o", opts, device, staging},
			{"mount", "--bind", staging, target},
			{"umount", target},
			{"umount", staging},
		})
	})
	if err != nil {
		return fmt.Errorf("%s bare mount cycle: %w", p.name, err)
	}
	e.add(row{name: p.name + " NodeStage+NodePublish+NodeUnpublish+NodeUnstage", server: p.server, method: "baseline: mount, mount --bind, umount x2", n: n, p50: p50, p99: p99, opsPerSec: rate})
	return nil
}

// mountOptions are the options a peer driver would pass to mount(8):
// credentials included, as they do.
func (p protocol) mountOptions() string {
	if p.secrets == nil {
		return p.options
	}
	return p.options + ",username=" + p.secrets["username"] + ",password=" + p.secrets["password"]
}

// runSteps runs commands in order and stops at the first that fails.
func runSteps(steps [][]string) error {
	for _, step := range steps {
		if out, err := exec.Command(step[0], step[1:]...).CombinedOutput(); err != nil {
			return fmt.Errorf("%s: %w: %s", step[0], err, out)
		}
	}
	return nil
}

// tree is how many files the tree rows put in a volume of p, and the uid
// they belong to: SMB deletes and copies as the share's user.
func (p protocol) tree() (files, uid int) {
	files = *treeFiles
	if p.secrets == nil {
		return files, 0
	}
	if *smbTree > 0 {
		files = *smbTree
	}
	return files, smbUID()
}

func smbUID() int {
	out, err := exec.Command("id", "-u", localservers.SMBUser).Output()
	if err != nil {
		return 0
	}
	uid, _ := strconv.Atoi(strings.TrimSpace(string(out)))
	return uid
}

func (e *env) print() error {
	var w io.Writer = os.Stdout
	var f *os.File
	if *output != "" {
		var err error
		if f, err = os.Create(*output); err != nil {
			return err
		}
		defer f.Close()
		w = io.MultiWriter(os.Stdout, f)
	}
	fmt.Fprintf(w, "| where | operation | server | method | n | p50 | p99 | ops/s | vs. baseline (p50) |\n|---|---|---|---|---|---|---|---|---|\n")
	baseline := map[string]time.Duration{}
	for _, r := range e.rows {
		if strings.HasPrefix(r.method, "baseline") {
			baseline[r.name] = r.p50
		}
	}
	for _, r := range e.rows {
		ratio := ""
		if b, ok := baseline[r.name]; ok && !strings.HasPrefix(r.method, "baseline") && b > 0 {
			ratio = fmt.Sprintf("%.2fx", float64(r.p50)/float64(b))
		}
		if r.note != "" {
			ratio = strings.TrimSpace(ratio + " (" + r.note + ")")
		}
		fmt.Fprintf(w, "| %s | %s | %s | %s | %d | %s | %s | %.1f | %s |\n", *where, r.name, r.server, r.method, r.n,
			r.p50.Round(10*time.Microsecond), r.p99.Round(10*time.Microsecond), r.opsPerSec, ratio)
	}
	if len(e.driverRSS) > 0 {
		fmt.Fprintf(w, "\n| where: %s — process | RSS idle | RSS after load | peak RSS |\n|---|---|---|---|\n", *where)
		for _, l := range e.driverRSS {
			fmt.Fprintln(w, l)
		}
	}
	if len(e.usage) > 0 {
		fmt.Fprintf(w, "\n| where: %s — usage count at the node's defaults | entries | node CPU (one core) | node peak RSS | a whole count at 5,000 entries/s |\n|---|---|---|---|---|\n", *where)
		for _, l := range e.usage {
			fmt.Fprintln(w, l)
		}
	}
	return nil
}
