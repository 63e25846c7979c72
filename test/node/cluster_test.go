//go:build linux

package node

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/fileshare-csi/fileshare-csi/hack/gobuild"
	"github.com/fileshare-csi/fileshare-csi/test/cluster"
)

// The environment run.sh hands over.
const (
	envBin     = "FILESHARE_NODE_BIN"     // colon-separated directories: the Kubernetes binaries, e2e.test, agnhost, csi-provisioner
	envRuntime = "FILESHARE_NODE_RUNTIME" // Debian's containerd, runc, CNI plugins and busybox-static, unpacked
	envWork    = "FILESHARE_NODE_WORK"    // scratch directory, not under /tmp (the guest has its own /tmp)
	envImages  = "FILESHARE_NODE_IMAGES"  // the driver's image archives from `make images`
	envE2E     = "FILESHARE_E2E"          // curated (default), full or none
)

// The guest's place on qemu's user network, and what the cluster calls it.
const (
	guestIP   = "10.0.2.15"
	guestCIDR = guestIP + "/24"
	gateway   = "10.0.2.2"
	// qemu hands connections to this address to a command on the host
	// that connects them to the apiserver on loopback.
	apiForward = "10.0.2.100:6443"
	serviceIP  = "10.0.0.1" // the "kubernetes" Service in 10.0.0.0/24
	podCIDR    = "10.88.0.0/16"
	// The kubelet refuses a loopback node IP, and the apiserver must reach
	// it through the VM's forwarded port on the host's loopback: so the
	// node is called localhost and the apiserver dials node names.
	nodeName = "localhost"
	smbPort  = 445
)

// Image names: ours from `make images` (the manifests' names), the
// stand-ins the test overlay names, and what the kubelet and the e2e suite
// ask for.
const (
	sandboxImage  = "fileshare-csi.test/pause:standin"
	registrarImg  = "fileshare-csi.test/node-driver-registrar:standin"
	livenessImg   = "fileshare-csi.test/livenessprobe:standin"
	provisionerIm = "registry.k8s.io/sig-storage/csi-provisioner:v6.3.0"
	// k8s.io/kubernetes v1.34.4, test/utils/image/manifest.go.
	agnhostImage = "registry.k8s.io/e2e-test-images/agnhost:2.56"
	e2ePause     = "registry.k8s.io/pause:3.10.1"
)

// busyboxImages: the e2e suite's busybox, the one manifests/examples use,
// and jessie-dnsutils, which the suite's volume specs run shell commands in
// (sh, dd, md5sum, mount: busybox has them all).
// busyboxImages are the images the suite only runs shell commands in: it
// gives nginx a command of its own ("volumes should allow exec of files on
// the volume"), so busybox stands in for it too.
var busyboxImages = []string{"registry.k8s.io/e2e-test-images/busybox:1.37.0-1", "busybox:1.36", "registry.k8s.io/e2e-test-images/jessie-dnsutils:1.7", "registry.k8s.io/e2e-test-images/nginx:1.14-4"}

var env struct {
	repo, work, results string
	h                   *cluster.Harness
	cp                  *cluster.ControlPlane
	vm                  *exec.Cmd
	vmDone              chan error
	control             string // the guest's control API, http://127.0.0.1:port
	kubeletPort         int
	nodeMetrics         string // the node plugin's /metrics, through a forwarded port
	nodeStarted         bool   // guestd said "running"
}

// nodeMetricsPort is the node plugin's --metrics-address port in
// manifests/base/node.yaml (hostNetwork: a port of the node).
const nodeMetricsPort = 29765

// guestExec runs a command on the node (guestd's /exec).
func guestExec(argv ...string) (string, int, error) {
	body, _ := json.Marshal(map[string]any{"argv": argv, "timeout": "2m"})
	c := http.Client{Timeout: 3 * time.Minute}
	resp, err := c.Post(env.control+"/exec", "application/json", bytes.NewReader(body))
	if err != nil {
		return "", -1, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		b, _ := io.ReadAll(resp.Body)
		return "", -1, fmt.Errorf("exec %v: %s: %s", argv, resp.Status, b)
	}
	var res struct {
		Output string `json:"output"`
		Code   int    `json:"code"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&res); err != nil {
		return "", -1, err
	}
	return res.Output, res.Code, nil
}

func mustGuest(t *testing.T, argv ...string) string {
	t.Helper()
	out, code, err := guestExec(argv...)
	if err != nil || code != 0 {
		t.Fatalf("on the node: %v: exit %d, %v\n%s", argv, code, err, out)
	}
	return out
}

func guestStatus() (string, error) {
	c := http.Client{Timeout: 5 * time.Second}
	resp, err := c.Get(env.control + "/status")
	if err != nil {
		return "", err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	return strings.TrimSpace(string(b)), err
}

// bootCluster starts the control plane and the VM node and waits for the
// node to be Ready. Everything is stopped by the test's cleanup.
func bootCluster(t *testing.T) {
	t.Helper()
	wd, _ := os.Getwd()
	env.repo = filepath.Clean(filepath.Join(wd, "..", ".."))
	env.work = os.Getenv(envWork)
	if env.work == "" || strings.HasPrefix(env.work, "/tmp/") {
		t.Fatalf("%s must name a directory outside /tmp (the VM sees the host's files except /tmp)", envWork)
	}
	env.h = &cluster.Harness{Repo: env.repo, Work: env.work, Bins: filepath.SplitList(os.Getenv(envBin))}
	env.h.KubectlBin = env.h.FindBin(t, "kubectl")
	kubelet := env.h.FindBin(t, "kubelet")
	runtimeRoot := os.Getenv(envRuntime)
	if _, err := os.Stat(filepath.Join(runtimeRoot, "usr/bin/containerd")); err != nil {
		t.Fatalf("%s: no containerd in %q: %v", envRuntime, runtimeRoot, err)
	}

	env.cp = env.h.StartControlPlane(t, cluster.ControlPlaneOptions{
		Scheduler: true,
		APIServerArgs: []string{
			"--kubelet-preferred-address-types=Hostname",
		},
	})
	t.Cleanup(func() {
		env.cp.Stop()
		if t.Failed() {
			// Their logs stay in files (run.sh keeps them on failure): in the
			// test's output they would bury the failure's own message, which
			// is what CI shows.
			for _, p := range env.h.Procs() {
				t.Logf("%s's log: %s", p.Name, filepath.Base(p.Log))
			}
		}
	})
	checkServiceIPInCert(t)

	env.results = filepath.Join(env.work, "vm")
	for _, d := range []string{"bin", "images", "logs"} {
		if err := os.MkdirAll(filepath.Join(env.results, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	images := buildImages(t)
	guestd := filepath.Join(env.results, "bin", "guestd")
	goBuild(t, guestd, "./test/node/guestd")
	goBuild(t, filepath.Join(env.results, "bin", "csicall"), "./test/node/csicall")

	env.kubeletPort = cluster.FreePort(t)
	controlPort := cluster.FreePort(t)
	env.control = fmt.Sprintf("http://127.0.0.1:%d", controlPort)
	metricsPort := cluster.FreePort(t)
	env.nodeMetrics = fmt.Sprintf("http://127.0.0.1:%d/metrics", metricsPort)
	ca, err := os.ReadFile(env.cp.CA)
	if err != nil {
		t.Fatal(err)
	}
	cfg := map[string]any{
		"runtimeRoot": runtimeRoot, "kubelet": kubelet, "images": images, "sandboxImage": sandboxImage,
		"apiServer": apiForward, "serviceIP": serviceIP, "ca": string(ca), "token": env.cp.Token,
		"nodeName": nodeName, "kubeletPort": env.kubeletPort, "controlPort": controlPort,
		"guestCIDR": guestCIDR, "gateway": gateway, "podCIDR": podCIDR, "smbPort": smbPort,
		"logDir": "/results/logs",
	}
	b, _ := json.MarshalIndent(cfg, "", "  ")
	if err := os.WriteFile(filepath.Join(env.results, "guest-cluster.json"), b, 0o600); err != nil {
		t.Fatal(err)
	}
	apiPort := strings.TrimPrefix(env.cp.Server, "https://127.0.0.1:")
	socat, err := exec.LookPath("socat")
	if err != nil {
		t.Fatal("socat is needed to forward the guest's apiserver connections: apt-get install socat")
	}
	nic := fmt.Sprintf("user,model=virtio-net-pci,restrict=on,net=10.0.2.0/24,guestfwd=tcp:%s-cmd:%s - TCP:127.0.0.1:%s,hostfwd=tcp:127.0.0.1:%d-:%d,hostfwd=tcp:127.0.0.1:%d-:%d,hostfwd=tcp:127.0.0.1:%d-:%d",
		apiForward, socat, apiPort, env.kubeletPort, env.kubeletPort, controlPort, controlPort, metricsPort, nodeMetricsPort)
	t.Cleanup(stopVM(t))
	for boot := 1; ; boot++ {
		stuck := bootNode(t, nic)
		if stuck == "" {
			return
		}
		if boot == 2 {
			t.Fatalf("the node's kernel got stuck before the node was Ready, on both boots; the console's last lines:\n%s", stuck)
		}
		// Nothing of the driver's has run yet: the kubelet is not even
		// registered. A second boot tells an emulator's accident from a
		// node that cannot start.
		t.Logf("the node's kernel got stuck before the node was Ready; booting it once more. The console's last lines:\n%s", stuck)
		killVM()
	}
}

// kernelStuck matches what the guest's kernel says on its console when it
// can no longer run the node: seen once under QEMU's multi-threaded TCG, the
// kubelet and an ip6tables it ran spinning on both vCPUs ("BUG: soft lockup")
// until the test gave up waiting for the node to register.
var kernelStuck = regexp.MustCompile(`BUG: soft lockup|detected stalls? on CPU|Oops:|Kernel panic`)

// bootNode starts the VM and waits for the kubelet to run and the node to be
// Ready. It returns the console's last lines when the guest's kernel got
// stuck first, and "" once the node is Ready; any other failure ends the test.
func bootNode(t *testing.T, nic string) (stuck string) {
	t.Helper()
	vmLog, err := os.OpenFile(filepath.Join(env.work, "vm.log"), os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	// run.sh empties the console's log too, but only once the initrd is
	// built: until then a stuck first boot's log would still be read.
	console := filepath.Join(env.results, "console.log")
	if err := os.WriteFile(console, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	env.vm = exec.Command(filepath.Join(env.repo, "test/vm/run.sh"), env.results, "/results/bin/guestd", "--config", "/results/guest-cluster.json")
	env.vm.Env = append(os.Environ(), "VM_NIC="+nic, "VM_MEMORY=6144", "VM_TIMEOUT=5400")
	env.vm.Stdout, env.vm.Stderr = vmLog, vmLog
	env.vm.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	if err := env.vm.Start(); err != nil {
		t.Fatal(err)
	}
	env.vmDone = make(chan error, 1)
	go func() { env.vmDone <- env.vm.Wait(); vmLog.Close() }()
	if pf, err := os.OpenFile(filepath.Join(env.work, "pids"), os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o600); err == nil {
		fmt.Fprintf(pf, "%d run.sh\n", env.vm.Process.Pid)
		pf.Close()
	}
	consoleStuck := func() bool {
		b, _ := os.ReadFile(console)
		return kernelStuck.Match(b)
	}
	start := time.Now()
	for deadline := start.Add(10 * time.Minute); ; time.Sleep(250 * time.Millisecond) {
		select {
		case err := <-env.vmDone:
			env.vmDone <- err
			t.Fatalf("the VM stopped while the node started: %v\n%s", err, tailFile(filepath.Join(env.work, "vm.log")))
		default:
		}
		if consoleStuck() {
			return lastLines(console, 15)
		}
		s, err := guestStatus()
		if strings.HasPrefix(s, "failed") {
			t.Fatalf("the node failed to start: %s\n%s", s, guestLogs())
		}
		if env.nodeStarted = s == "running"; env.nodeStarted {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("timed out after 10m waiting for the node to start (guestd running; last error: %v)", err)
		}
	}
	t.Logf("node started in %s", time.Since(start).Round(time.Second))
	for deadline := time.Now().Add(6 * time.Minute); ; time.Sleep(250 * time.Millisecond) {
		if consoleStuck() {
			return lastLines(console, 15)
		}
		out, err := env.h.Kubectl("", "get", "node", nodeName, "-o", `jsonpath={.status.conditions[?(@.type=="Ready")].status}`)
		if strings.TrimSpace(out) == "True" {
			break
		}
		if time.Now().After(deadline) {
			// CI shows only the test's output: what the kubelet and the
			// kernel last said goes in it.
			t.Fatalf("timed out after 6m waiting for node %s to be Ready (last error: %v); the last of kubelet.log and console.log:\n---- kubelet.log ----\n%s\n---- console.log ----\n%s",
				nodeName, err, lastLines(filepath.Join(env.results, "logs/kubelet.log"), 15), lastLines(console, 15))
		}
	}
	t.Logf("node Ready %s after boot", time.Since(start).Round(time.Second))
	return ""
}

// stopVM asks the node to shut down cleanly and waits for the VM to end.
func stopVM(t *testing.T) func() {
	return func() {
		if env.vmDone == nil {
			return // the VM never started
		}
		c := http.Client{Timeout: 10 * time.Second}
		if resp, err := c.Post(env.control+"/shutdown", "text/plain", nil); err == nil {
			resp.Body.Close()
		}
		select {
		case <-env.vmDone:
		case <-time.After(2 * time.Minute):
			killVM()
		}
		if t.Failed() {
			t.Logf("the node's logs: guest.log, logs/containerd.log, logs/kubelet.log")
			if !env.nodeStarted {
				// A node that never started has no kubelet or driver logs to
				// look at, and CI shows only the test's output: what the boot
				// (run.sh), the kernel and guestd last said goes in it.
				t.Logf("the node never started; the last of vm.log, console.log and guest.log:\n%s", bootLogs())
			}
		}
	}
}

// killVM ends the VM at once and waits until its qemu is gone, so its
// forwarded ports are free for another boot.
func killVM() {
	pattern := "qemu-system-x86_64 .*path=" + env.results
	// qemu runs under timeout(1) in a process group of its own.
	_ = exec.Command("pkill", "-KILL", "-f", pattern).Run()
	_ = syscall.Kill(-env.vm.Process.Pid, syscall.SIGKILL)
	err := <-env.vmDone
	env.vmDone <- err
	for i := 0; i < 40 && exec.Command("pgrep", "-f", pattern).Run() == nil; i++ {
		time.Sleep(250 * time.Millisecond)
	}
}

func bootLogs() string {
	var out strings.Builder
	for _, f := range []string{filepath.Join(env.work, "vm.log"), filepath.Join(env.results, "console.log"), filepath.Join(env.results, "guest.log")} {
		fmt.Fprintf(&out, "---- %s ----\n%s\n", filepath.Base(f), lastLines(f, 15))
	}
	return out.String()
}

// lastLines is the end of a log, at most n lines of at most 200 bytes.
func lastLines(p string, n int) string {
	lines := strings.Split(strings.TrimRight(tailFile(p), "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	for i, l := range lines {
		if len(l) > 200 {
			lines[i] = l[:200] + "…"
		}
	}
	return strings.Join(lines, "\n")
}

func tailFile(p string) string {
	b, _ := os.ReadFile(p)
	if len(b) > 4000 {
		b = b[len(b)-4000:]
	}
	return string(b)
}

func guestLogs() string {
	var out strings.Builder
	for _, f := range []string{"guest.log", "logs/containerd.log", "logs/kubelet.log"} {
		fmt.Fprintf(&out, "---- %s ----\n%s\n", f, tailFile(filepath.Join(env.results, f)))
	}
	return out.String()
}

// checkServiceIPInCert: pods reach the apiserver at the "kubernetes"
// Service's address (forwarded by the node as kube-proxy would), so the
// apiserver's own certificate must name it.
func checkServiceIPInCert(t *testing.T) {
	t.Helper()
	out, err := exec.Command("openssl", "x509", "-in", env.cp.CA, "-noout", "-ext", "subjectAltName").CombinedOutput()
	if err != nil {
		t.Fatalf("openssl: %v\n%s", err, out)
	}
	if !strings.Contains(string(out), "IP Address:"+serviceIP) {
		t.Fatalf("the apiserver's certificate does not name %s: %s", serviceIP, out)
	}
}

// goBuild builds a program the node runs (in the guest or in an image of
// buildImages) the way the driver's images are built.
func goBuild(t *testing.T, out, pkg string) {
	t.Helper()
	if err := gobuild.Program(context.Background(), env.repo, pkg, out, gobuild.Target{}); err != nil {
		t.Fatal(err)
	}
}

// buildImages writes every image the node needs into the results share and
// returns their paths as the guest sees them.
func buildImages(t *testing.T) []string {
	t.Helper()
	var guestPaths []string
	// Ours, from `make images`.
	dir := os.Getenv(envImages)
	ours, _ := filepath.Glob(filepath.Join(dir, "*linux-amd64*.tar"))
	if len(ours) < 2 {
		t.Fatalf("%s: want the node and controller image archives for linux/amd64 from `make images` in %q, found %v", envImages, dir, ours)
	}
	for _, p := range ours {
		dst := filepath.Join(env.results, "images", filepath.Base(p))
		if err := copyFile(p, dst); err != nil {
			t.Fatal(err)
		}
		guestPaths = append(guestPaths, "/results/images/"+filepath.Base(p))
	}
	bins := filepath.Join(env.work, "image-bins")
	for _, c := range []string{"registrar", "livenessprobe", "pause"} {
		goBuild(t, filepath.Join(bins, c), "./test/node/"+c)
	}
	busybox := filepath.Join(os.Getenv(envRuntime), "bin/busybox")
	links, err := busyboxLinks(busybox)
	if err != nil {
		t.Fatal(err)
	}
	imgs := []testImage{
		{refs: []string{sandboxImage, e2ePause}, files: map[string]string{"/pause": filepath.Join(bins, "pause")}, entrypoint: []string{"/pause"}, user: "65535"},
		{refs: []string{registrarImg}, files: map[string]string{"/csi-node-driver-registrar": filepath.Join(bins, "registrar")}, entrypoint: []string{"/csi-node-driver-registrar"}},
		{refs: []string{livenessImg}, files: map[string]string{"/livenessprobe": filepath.Join(bins, "livenessprobe")}, entrypoint: []string{"/livenessprobe"}},
		{refs: []string{provisionerIm}, files: map[string]string{"/csi-provisioner": env.h.FindBin(t, "csi-provisioner")}, entrypoint: []string{"/csi-provisioner"}},
		// The real agnhost image carries a shell and nsenter: the suite's
		// host-exec pods run `nsenter --mount=/rootfs/proc/1/ns/mnt -- sh`
		// in it to look at the node's mounts.
		{refs: []string{agnhostImage}, files: map[string]string{"/agnhost": env.h.FindBin(t, "agnhost"), "/bin/busybox": busybox}, links: links, entrypoint: []string{"/agnhost"}},
	}
	imgs = append(imgs, testImage{refs: busyboxImages, files: map[string]string{"/bin/busybox": busybox}, links: links, entrypoint: []string{"/bin/sh"}})
	for i, im := range imgs {
		name := "test-" + strconv.Itoa(i) + ".tar"
		if err := im.write(filepath.Join(env.results, "images", name)); err != nil {
			t.Fatalf("image %v: %v", im.refs, err)
		}
		guestPaths = append(guestPaths, "/results/images/"+name)
	}
	return guestPaths
}

func copyFile(src, dst string) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.Create(dst)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}
