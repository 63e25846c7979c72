//go:build linux

// Command guestd turns the test VM into a one-node Kubernetes cluster's
// node: it runs inside the guest as the VM's command (test/vm/run.sh),
// prepares cgroups, mounts and the network, starts the file servers
// (kernel NFS and Samba, reachable from the node and its pods), containerd
// and the kubelet, imports the images the host built, and then serves a
// small control API on the VM's forwarded port so the host-side test can
// look at what only the node sees (its mounts, the servers' directories)
// and shut the node down cleanly.
//
// Everything it reads comes from one JSON file the host writes (Config).
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"log"
	"net"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/fileshare-csi/fileshare-csi/test/localservers"
)

// Config is what the host hands the guest.
type Config struct {
	// RuntimeRoot holds Debian's containerd, runc and CNI plugins, unpacked
	// (never installed) by the host: RuntimeRoot/usr/bin/containerd, ...
	RuntimeRoot string `json:"runtimeRoot"`
	Kubelet     string `json:"kubelet"`
	// Images are image archives for `ctr import`.
	Images []string `json:"images"`
	// SandboxImage is the pause image's name, among Images.
	SandboxImage string `json:"sandboxImage"`
	// APIServer is where the host's apiserver is reached from the guest
	// (qemu's guestfwd); ServiceIP is the "kubernetes" Service's address,
	// forwarded there as kube-proxy would.
	APIServer string `json:"apiServer"`
	ServiceIP string `json:"serviceIP"`
	CA        string `json:"ca"`
	Token     string `json:"token"`
	// NodeName: the apiserver reaches the kubelet by this name through the
	// VM's forwarded port, so it is "localhost".
	NodeName    string `json:"nodeName"`
	KubeletPort int    `json:"kubeletPort"`
	ControlPort int    `json:"controlPort"`
	// GuestCIDR is the guest's address on qemu's user network.
	GuestCIDR string `json:"guestCIDR"`
	Gateway   string `json:"gateway"`
	PodCIDR   string `json:"podCIDR"`
	SMBPort   int    `json:"smbPort"`
	// Logs go here (the results share), one file per daemon.
	LogDir string `json:"logDir"`
}

func main() {
	cfgPath := flag.String("config", "/results/guest-cluster.json", "the host's Config")
	flag.Parse()
	log.SetFlags(log.Ltime | log.Lmicroseconds)
	b, err := os.ReadFile(*cfgPath)
	if err != nil {
		log.Fatal(err)
	}
	var cfg Config
	if err := json.Unmarshal(b, &cfg); err != nil {
		log.Fatalf("%s: %v", *cfgPath, err)
	}
	n := &node{cfg: cfg}
	if err := n.run(); err != nil {
		log.Printf("guestd: %v", err)
		n.stop()
		os.Exit(1)
	}
}

type node struct {
	cfg     Config
	mu      sync.Mutex
	daemons []*exec.Cmd
	nfs     *localservers.Server
	smb     *localservers.Server
	ready   string // what the node is doing, for the host's status polls
}

func (n *node) setState(s string) {
	n.mu.Lock()
	n.ready = s
	n.mu.Unlock()
	log.Printf("guestd: %s", s)
}

func (n *node) run() error {
	ctx, cancel := signal.NotifyContext(context.Background(), syscall.SIGTERM, syscall.SIGINT)
	defer cancel()
	// The control API comes first: the host learns of failures through it.
	shutdown := make(chan struct{})
	go n.serve(shutdown)
	n.setState("preparing the system")
	if err := n.prepare(); err != nil {
		return n.fail(fmt.Errorf("prepare: %w", err), shutdown)
	}
	n.setState("starting the file servers")
	if err := n.startServers(ctx); err != nil {
		return n.fail(fmt.Errorf("file servers: %w", err), shutdown)
	}
	n.setState("starting containerd")
	if err := n.startContainerd(ctx); err != nil {
		return n.fail(fmt.Errorf("containerd: %w", err), shutdown)
	}
	n.setState("importing images")
	if err := n.importImages(ctx); err != nil {
		return n.fail(fmt.Errorf("images: %w", err), shutdown)
	}
	n.setState("starting the kubelet")
	if err := n.startKubelet(); err != nil {
		return n.fail(fmt.Errorf("kubelet: %w", err), shutdown)
	}
	n.setState("running")
	select {
	case <-shutdown:
	case <-ctx.Done():
	}
	n.stop()
	return nil
}

// fail keeps the control API up for a while after a failure, so the host
// can read why, then gives up.
func (n *node) fail(err error, shutdown chan struct{}) error {
	n.setState("failed: " + err.Error())
	select {
	case <-shutdown:
	case <-time.After(2 * time.Minute):
	}
	return err
}

func sh(args ...string) error {
	out, err := exec.Command(args[0], args[1:]...).CombinedOutput()
	if err != nil {
		return fmt.Errorf("%s: %w: %s", strings.Join(args, " "), err, strings.TrimSpace(string(out)))
	}
	return nil
}

func writeFile(p, content string) error {
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return err
	}
	return os.WriteFile(p, []byte(content), 0o644)
}

// prepare does what a node's init system would: cgroup v2 with the
// controllers the kubelet asks for, shared mount propagation (the node
// plugin's mounts must reach the pods), scratch file systems for the
// runtime, and the network.
func (n *node) prepare() error {
	if err := os.MkdirAll("/sys/fs/cgroup", 0o755); err != nil {
		return err
	}
	if err := sh("mount", "-t", "cgroup2", "none", "/sys/fs/cgroup"); err != nil {
		return err
	}
	if err := os.WriteFile("/sys/fs/cgroup/cgroup.subtree_control", []byte("+cpu +cpuset +memory +pids +io +hugetlb"), 0o644); err != nil {
		return fmt.Errorf("enable cgroup controllers: %w", err)
	}
	if err := sh("mount", "--make-rshared", "/"); err != nil {
		return err
	}
	for _, d := range []string{"/var/lib/containerd", "/var/lib/kubelet", "/run/containerd", "/etc/cni/net.d", "/var/log/pods", "/var/lib/cni"} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			return err
		}
		if err := sh("mount", "-t", "tmpfs", "tmpfs", d); err != nil {
			return err
		}
	}
	// The kubelet's root must be a shared mount point of its own, so the
	// node plugin's staging mounts propagate to pod volumes.
	if err := sh("mount", "--make-shared", "/var/lib/kubelet"); err != nil {
		return err
	}
	return n.network()
}

func (n *node) network() error {
	c := n.cfg
	for _, m := range []string{"virtio_net", "bridge", "veth", "br_netfilter", "overlay", "nf_tables", "nft_chain_nat", "nft_compat", "xt_MASQUERADE", "xt_nat", "xt_conntrack", "xt_comment", "xt_mark", "xt_addrtype", "ip_tables", "iptable_nat", "iptable_filter"} {
		if err := sh("modprobe", m); err != nil {
			log.Printf("guestd: %v (going on)", err)
		}
	}
	ip, _, err := net.ParseCIDR(c.GuestCIDR)
	if err != nil {
		return err
	}
	for _, cmd := range [][]string{
		{"ip", "link", "set", "eth0", "up"},
		{"ip", "addr", "add", c.GuestCIDR, "dev", "eth0"},
		{"ip", "route", "add", "default", "via", c.Gateway},
	} {
		if err := sh(cmd...); err != nil {
			return err
		}
	}
	if err := writeFile("/proc/sys/net/ipv4/ip_forward", "1"); err != nil {
		return err
	}
	if err := writeFile("/etc/hosts", "127.0.0.1 localhost\n"+ip.String()+" fileshare-node\n"); err != nil {
		return err
	}
	if err := writeFile("/etc/resolv.conf", "# no DNS in the test VM\n"); err != nil {
		return err
	}
	api, port, err := net.SplitHostPort(c.APIServer)
	if err != nil {
		return err
	}
	// What kube-proxy would do for the one Service the pods use, and the
	// masquerade qemu's user network needs to answer pods at all.
	for _, rule := range [][]string{
		{"-t", "nat", "-A", "OUTPUT", "-d", c.ServiceIP, "-p", "tcp", "--dport", "443", "-j", "DNAT", "--to-destination", api + ":" + port},
		{"-t", "nat", "-A", "PREROUTING", "-d", c.ServiceIP, "-p", "tcp", "--dport", "443", "-j", "DNAT", "--to-destination", api + ":" + port},
		{"-t", "nat", "-A", "POSTROUTING", "-s", c.PodCIDR, "!", "-d", c.PodCIDR, "-j", "MASQUERADE"},
	} {
		if err := sh(append([]string{"iptables"}, rule...)...); err != nil {
			return err
		}
	}
	return nil
}

func (n *node) startServers(ctx context.Context) error {
	base := "/tmp/fileshare-node"
	var err error
	if n.nfs, err = localservers.StartKernelNFS(ctx, filepath.Join(base, "nfsd"), localservers.Reachable(n.cfg.GuestCIDR), localservers.NFSClients(n.cfg.PodCIDR)); err != nil {
		return err
	}
	if n.smb, err = localservers.StartSamba(ctx, filepath.Join(base, "samba"), n.cfg.SMBPort, localservers.Reachable(n.cfg.GuestCIDR)); err != nil {
		return err
	}
	return nil
}

func (n *node) daemon(name string, env []string, bin string, args ...string) (*exec.Cmd, error) {
	f, err := os.Create(filepath.Join(n.cfg.LogDir, name+".log"))
	if err != nil {
		return nil, err
	}
	cmd := exec.Command(bin, args...)
	cmd.Stdout, cmd.Stderr = f, f
	cmd.Env = append(os.Environ(), env...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		f.Close()
		return nil, err
	}
	go func() { _ = cmd.Wait(); f.Close() }()
	n.mu.Lock()
	n.daemons = append(n.daemons, cmd)
	n.mu.Unlock()
	return cmd, nil
}

func (n *node) runtimePath() string {
	r := n.cfg.RuntimeRoot
	return "PATH=" + strings.Join([]string{r + "/usr/bin", r + "/usr/sbin", r + "/usr/lib/cni", os.Getenv("PATH")}, ":")
}

func (n *node) startContainerd(ctx context.Context) error {
	r := n.cfg.RuntimeRoot
	conf := fmt.Sprintf(`version = 2
root = "/var/lib/containerd"
state = "/run/containerd"
[grpc]
  address = "/run/containerd/containerd.sock"
[plugins."io.containerd.grpc.v1.cri"]
  sandbox_image = %q
  enable_unprivileged_ports = true
  [plugins."io.containerd.grpc.v1.cri".containerd]
    snapshotter = "overlayfs"
    default_runtime_name = "runc"
    [plugins."io.containerd.grpc.v1.cri".containerd.runtimes.runc]
      runtime_type = "io.containerd.runc.v2"
      [plugins."io.containerd.grpc.v1.cri".containerd.runtimes.runc.options]
        BinaryName = %q
        SystemdCgroup = false
  [plugins."io.containerd.grpc.v1.cri".cni]
    bin_dir = %q
    conf_dir = "/etc/cni/net.d"
  [plugins."io.containerd.grpc.v1.cri".registry]
    config_path = ""
`, n.cfg.SandboxImage, r+"/usr/sbin/runc", r+"/usr/lib/cni")
	if err := writeFile("/etc/containerd/config.toml", conf); err != nil {
		return err
	}
	cni := fmt.Sprintf(`{
  "cniVersion": "1.0.0",
  "name": "pods",
  "plugins": [
    {"type": "bridge", "bridge": "cni0", "isGateway": true, "ipMasq": false, "hairpinMode": true,
     "ipam": {"type": "host-local", "ranges": [[{"subnet": %q}]], "routes": [{"dst": "0.0.0.0/0"}]}},
    {"type": "portmap", "capabilities": {"portMappings": true}}
  ]
}
`, n.cfg.PodCIDR)
	if err := writeFile("/etc/cni/net.d/10-pods.conflist", cni); err != nil {
		return err
	}
	if _, err := n.daemon("containerd", []string{n.runtimePath()}, r+"/usr/bin/containerd", "--config", "/etc/containerd/config.toml"); err != nil {
		return err
	}
	deadline := time.Now().Add(2 * time.Minute)
	for {
		err := exec.CommandContext(ctx, r+"/usr/bin/ctr", "--address", "/run/containerd/containerd.sock", "version").Run()
		if err == nil {
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("containerd did not answer in 2 minutes: %w", err)
		}
		time.Sleep(time.Second)
	}
}

func (n *node) importImages(ctx context.Context) error {
	for _, img := range n.cfg.Images {
		start := time.Now()
		cmd := exec.CommandContext(ctx, n.cfg.RuntimeRoot+"/usr/bin/ctr", "--address", "/run/containerd/containerd.sock",
			"-n", "k8s.io", "images", "import", "--no-unpack", img)
		if out, err := cmd.CombinedOutput(); err != nil {
			return fmt.Errorf("import %s: %w: %s", img, err, out)
		}
		log.Printf("guestd: imported %s in %s", filepath.Base(img), time.Since(start).Round(time.Second))
	}
	return nil
}

func (n *node) startKubelet() error {
	c := n.cfg
	dir := "/etc/kubernetes"
	ca := filepath.Join(dir, "ca.crt")
	if err := writeFile(ca, c.CA); err != nil {
		return err
	}
	kc := fmt.Sprintf(`apiVersion: v1
kind: Config
clusters:
- name: local
  cluster:
    server: https://%s:443
    certificate-authority: %s
users:
- name: kubelet
  user:
    token: %s
contexts:
- name: local
  context: {cluster: local, user: kubelet}
current-context: local
`, c.ServiceIP, ca, c.Token)
	if err := writeFile(filepath.Join(dir, "kubelet.kubeconfig"), kc); err != nil {
		return err
	}
	if err := os.Chmod(filepath.Join(dir, "kubelet.kubeconfig"), 0o600); err != nil {
		return err
	}
	// makeIPTablesUtilChains off: the kubelet's chains are for kube-proxy,
	// which this node has not (network() writes the one rule it would), and
	// the ip6tables the kubelet ran while it started once locked up both
	// vCPUs under TCG (the kubelet's thread and ip6tables, soft lockups until
	// the test gave up). The likely cause: the first IPv6 netfilter hooks
	// flip static keys, which patches kernel text while the other vCPU runs
	// it, the hazard the boot's clock patching showed (test/vm/run.sh).
	conf := fmt.Sprintf(`apiVersion: kubelet.config.k8s.io/v1beta1
kind: KubeletConfiguration
port: %d
readOnlyPort: 0
cgroupDriver: cgroupfs
failSwapOn: false
authentication:
  anonymous: {enabled: true}
  webhook: {enabled: false}
authorization: {mode: AlwaysAllow}
containerRuntimeEndpoint: unix:///run/containerd/containerd.sock
imageServiceEndpoint: unix:///run/containerd/containerd.sock
serializeImagePulls: false
imageGCHighThresholdPercent: 100
imageGCLowThresholdPercent: 99
evictionHard: {memory.available: "50Mi", nodefs.available: "1%%", imagefs.available: "1%%", nodefs.inodesFree: "1%%"}
localStorageCapacityIsolation: false
maxPods: 40
resolvConf: /etc/resolv.conf
podCIDR: %s
registerNode: true
makeIPTablesUtilChains: false
syncFrequency: 10s
fileCheckFrequency: 10s
nodeStatusUpdateFrequency: 5s
volumeStatsAggPeriod: 10s
`, c.KubeletPort, c.PodCIDR)
	if err := writeFile(filepath.Join(dir, "kubelet.yaml"), conf); err != nil {
		return err
	}
	ip, _, _ := net.ParseCIDR(c.GuestCIDR)
	_, err := n.daemon("kubelet", []string{n.runtimePath()}, c.Kubelet,
		"--config="+filepath.Join(dir, "kubelet.yaml"),
		"--kubeconfig="+filepath.Join(dir, "kubelet.kubeconfig"),
		"--hostname-override="+c.NodeName,
		"--node-ip="+ip.String(),
		"--root-dir=/var/lib/kubelet",
		"--v=2")
	return err
}

// stop takes the node down: kubelet first (no restarts of what follows),
// then containerd and the servers.
func (n *node) stop() {
	n.mu.Lock()
	ds := append([]*exec.Cmd(nil), n.daemons...)
	n.mu.Unlock()
	for i := len(ds) - 1; i >= 0; i-- {
		_ = syscall.Kill(-ds[i].Process.Pid, syscall.SIGTERM)
		done := make(chan struct{})
		go func(c *exec.Cmd) {
			for c.ProcessState == nil {
				if err := syscall.Kill(c.Process.Pid, 0); errors.Is(err, syscall.ESRCH) {
					break
				}
				time.Sleep(200 * time.Millisecond)
			}
			close(done)
		}(ds[i])
		select {
		case <-done:
		case <-time.After(15 * time.Second):
			_ = syscall.Kill(-ds[i].Process.Pid, syscall.SIGKILL)
		}
	}
	if n.smb != nil {
		n.smb.Stop()
	}
	if n.nfs != nil {
		n.nfs.Stop()
	}
}
