//go:build linux

package node

import (
	"crypto/tls"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/fileshare-csi/fileshare-csi/test/cluster"
	"github.com/fileshare-csi/fileshare-csi/test/localservers"
)

func TestMain(m *testing.M) {
	if os.Getenv(envBin) == "" {
		fmt.Println("skipping: run `make test-node` (it builds the kubelet, the images and the e2e suite and sets " + envBin + ")")
		os.Exit(0)
	}
	if os.Geteuid() != 0 {
		fmt.Fprintln(os.Stderr, "test-node starts a control plane and a VM and needs root")
		os.Exit(1)
	}
	os.Exit(m.Run())
}

const testNS = "team-a"

// A class as the examples define it, with the test VM's servers put in.
type class struct {
	name, proto string
	server      string // directory on the server that holds the class's volumes
	onDelete    string // as the example says
}

// kubectl runs kubectl with time for the --wait and --timeout the calls
// here pass (up to 5 minutes).
func kubectl(t *testing.T, stdin string, args ...string) string {
	t.Helper()
	out, err := env.h.KubectlTimeout(6*time.Minute, stdin, args...)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestNode installs the driver on the VM's node the way a user does and
// runs claims and pods on both protocols, then Kubernetes' storage e2e
// suite, then uninstalls it and checks that the node is clean.
func TestNode(t *testing.T) {
	bootCluster(t)
	classes := install(t)
	t.Run("ClaimsAndPods", func(t *testing.T) { claimsAndPods(t, classes) })
	t.Run("ServerMove", func(t *testing.T) { serverMove(t, classes) })
	t.Run("E2E", func(t *testing.T) { runE2E(t) })
	t.Run("Uninstall", func(t *testing.T) { uninstall(t) })
}

// install applies the quickstart through the test overlay and the example
// classes with the VM's servers and credentials in them, and waits until
// the controller and the node plugin run and the kubelet has registered
// the driver.
func install(t *testing.T) []class {
	t.Helper()
	start := time.Now()
	kubectl(t, "", "apply", "-k", filepath.Join(env.repo, "test/node/overlay"))
	servers := map[string]string{}
	for _, p := range []string{"nfs", "smb"} {
		// guestd's servers: /tmp/fileshare-node/{nfsd/export,samba/share}
		out := mustGuest(t, "sh", "-c", fmt.Sprintf("d=$(ls -d /tmp/fileshare-node/%s/%s); mkdir -p $d/k8s && chmod 0777 $d/k8s && echo $d", map[string]string{"nfs": "nfsd", "smb": "samba"}[p], map[string]string{"nfs": "export", "smb": "share"}[p]))
		servers[p] = strings.TrimSpace(out)
	}
	nfsClass := cluster.ReplaceAll(t, env.h.ReadRepoFile(t, "manifests/examples/storageclass-nfs.yaml"),
		"nfs://nfs-server.example.com/export/k8s", "nfs://"+guestIP+servers["nfs"]+"/k8s")
	smbClass := cluster.ReplaceAll(t, env.h.ReadRepoFile(t, "manifests/examples/storageclass-smb.yaml"),
		"smb://fileserver.example.com/share/k8s", "smb://"+guestIP+"/"+localservers.SMBShare+"/k8s",
		"username: k8s-volumes", "username: "+localservers.SMBUser,
		"password: change-me", "password: "+localservers.SMBPassword)
	kubectl(t, nfsClass, "apply", "-f", "-")
	kubectl(t, smbClass, "apply", "-f", "-")
	for _, w := range [][]string{
		{"deployment/fileshare-csi-controller"},
		{"daemonset/fileshare-csi-node"},
	} {
		if out, err := env.h.KubectlTimeout(10*time.Minute, "", "-n", "fileshare-csi", "rollout", "status", w[0], "--timeout=9m"); err != nil {
			describe(t, "fileshare-csi", "pods")
			t.Fatalf("%s did not roll out: %v\n%s", w[0], err, out)
		}
	}
	cluster.WaitFor(t, "the kubelet to register fileshare.csi.dev (CSINode)", 3*time.Minute, func() (bool, error) {
		out, err := env.h.Kubectl("", "get", "csinode", nodeName, "-o", "jsonpath={.spec.drivers[*].name}")
		return strings.Contains(out, "fileshare.csi.dev"), err
	})
	t.Logf("driver installed and registered in %s", time.Since(start).Round(time.Second))
	kubectl(t, "", "create", "namespace", testNS)
	return []class{
		{name: "fileshare-nfs", proto: "nfs", server: servers["nfs"] + "/k8s", onDelete: "delete"},
		{name: "fileshare-smb", proto: "smb", server: servers["smb"] + "/k8s", onDelete: "archive"},
	}
}

func describe(t *testing.T, ns, what string) {
	out, _ := env.h.Kubectl("", "-n", ns, "describe", what)
	t.Logf("---- kubectl describe %s ----\n%s", what, out)
}

func claimYAML(name, class string) string {
	return fmt.Sprintf(`apiVersion: v1
kind: PersistentVolumeClaim
metadata: {name: %s, namespace: %s}
spec:
  accessModes: [ReadWriteMany]
  storageClassName: %s
  resources: {requests: {storage: 1Gi}}
`, name, testNS, class)
}

// podYAML is a busybox pod with the claim at /data running script; uid 0
// means the image's user.
func podYAML(name, claim, script string, uid, fsGroup int) string {
	sc := ""
	if uid != 0 {
		sc = fmt.Sprintf("\n  securityContext: {runAsUser: %d, runAsGroup: %d, fsGroup: %d}", uid, uid, fsGroup)
	}
	return fmt.Sprintf(`apiVersion: v1
kind: Pod
metadata: {name: %s, namespace: %s}
spec:%s
  terminationGracePeriodSeconds: 1
  containers:
  - name: c
    image: busybox:1.36
    command: ["sh", "-c", %q]
    volumeMounts: [{name: v, mountPath: /data}]
  volumes:
  - name: v
    persistentVolumeClaim: {claimName: %s}
`, name, testNS, sc, script, claim)
}

func waitPodRunning(t *testing.T, name string) {
	t.Helper()
	cluster.WaitFor(t, "pod "+name+" to run", 5*time.Minute, func() (bool, error) {
		out, err := env.h.Kubectl("", "-n", testNS, "get", "pod", name, "-o", "jsonpath={.status.phase}")
		if strings.TrimSpace(out) == "Failed" {
			describe(t, testNS, "pod/"+name)
			t.Fatalf("pod %s failed", name)
		}
		return strings.TrimSpace(out) == "Running", err
	})
}

func podExec(t *testing.T, pod string, argv ...string) (string, error) {
	return env.h.Kubectl("", append([]string{"-n", testNS, "exec", pod, "--"}, argv...)...)
}

func mustExec(t *testing.T, pod string, argv ...string) string {
	t.Helper()
	out, err := podExec(t, pod, argv...)
	if err != nil {
		t.Fatalf("exec in %s: %v", pod, err)
	}
	return out
}

func claimsAndPods(t *testing.T, classes []class) {
	for _, c := range classes {
		for _, claim := range []string{c.proto + "-rwx", c.proto + "-fsg"} {
			kubectl(t, claimYAML(claim, c.name), "apply", "-f", "-")
		}
	}
	for _, c := range classes {
		for _, claim := range []string{c.proto + "-rwx", c.proto + "-fsg"} {
			cluster.WaitFor(t, "claim "+claim+" to be Bound", 3*time.Minute, func() (bool, error) {
				out, err := env.h.Kubectl("", "-n", testNS, "get", "pvc", claim, "-o", "jsonpath={.status.phase}")
				return strings.TrimSpace(out) == "Bound", err
			})
		}
	}
	for _, c := range classes {
		claim := c.proto + "-rwx"
		t.Run(c.proto, func(t *testing.T) {
			// One pod writes, a second pod reads the same RWX volume.
			writer, reader := c.proto+"-writer", c.proto+"-reader"
			kubectl(t, podYAML(writer, claim, "echo written-by-"+writer+" > /data/hello && exec sleep 3600", 0, 0), "apply", "-f", "-")
			waitPodRunning(t, writer)
			kubectl(t, podYAML(reader, claim, "exec sleep 3600", 0, 0), "apply", "-f", "-")
			waitPodRunning(t, reader)
			if got := strings.TrimSpace(mustExec(t, reader, "cat", "/data/hello")); got != "written-by-"+writer {
				t.Errorf("the reader sees %q", got)
			}
			// The file is on the server, in the claim's directory.
			dir := c.server + "/" + testNS + "/" + claim
			if got := strings.TrimSpace(mustGuest(t, "cat", dir+"/hello")); got != "written-by-"+writer {
				t.Errorf("the server has %q in %s/hello", got, dir)
			}

			// A non-root pod with an fsGroup writes, and the volume's root
			// carries the group (delegated to the driver: no recursive
			// chown). Its own claim: the group is applied when the volume is
			// staged on the node, which the first pod using it does.
			fsg := c.proto + "-fsgroup"
			kubectl(t, podYAML(fsg, c.proto+"-fsg", "exec sleep 3600", 1000, 4242), "apply", "-f", "-")
			waitPodRunning(t, fsg)
			mustExec(t, fsg, "sh", "-c", "echo by-1000 > /data/by-1000")
			if got := strings.TrimSpace(mustExec(t, fsg, "stat", "-c", "%g", "/data")); got != "4242" {
				t.Errorf("the volume's root has group %s in the fsGroup pod, want 4242", got)
			}
			if got := strings.TrimSpace(mustExec(t, fsg, "id", "-G")); !strings.Contains(" "+got+" ", " 4242 ") {
				t.Errorf("the fsGroup pod's groups: %s", got)
			}

			// The node plugin restarts under a running pod: the pod's I/O
			// goes on, and the new plugin answers the kubelet's stats.
			restartNodePlugin(t, claim)
			mustExec(t, writer, "sh", "-c", "echo after-restart > /data/after && cat /data/hello")
			if got := strings.TrimSpace(mustExec(t, reader, "cat", "/data/after")); got != "after-restart" {
				t.Errorf("after the plugin's restart the reader sees %q", got)
			}
			kubectl(t, "", "-n", testNS, "delete", "pod", writer, reader, fsg, "--wait=true", "--timeout=3m")
			kubectl(t, "", "-n", testNS, "delete", "pvc", c.proto+"-fsg", "--wait=true", "--timeout=3m")
		})
	}
	// Deleting the claims removes or archives the directories as each
	// class says.
	for _, c := range classes {
		deleteClaim(t, c, c.proto+"-rwx")
	}
}

// deleteClaim deletes claim, of a class like c, waits for its PV to go, and
// checks that its directory was deleted or archived as c says.
func deleteClaim(t *testing.T, c class, claim string) {
	t.Helper()
	pv := strings.TrimSpace(kubectl(t, "", "-n", testNS, "get", "pvc", claim, "-o", "jsonpath={.spec.volumeName}"))
	kubectl(t, "", "-n", testNS, "delete", "pvc", claim, "--wait=true", "--timeout=3m")
	cluster.WaitFor(t, "PV "+pv+" to go", 3*time.Minute, func() (bool, error) {
		_, err := env.h.Kubectl("", "get", "pv", pv)
		return err != nil && strings.Contains(err.Error(), "NotFound"), nil
	})
	listing := mustGuest(t, "ls", "-a", c.server+"/"+testNS)
	switch c.onDelete {
	case "delete":
		if regexp.MustCompile(`(?m)^` + claim + `$`).MatchString(listing) {
			t.Errorf("%s: the deleted claim's directory is still there: %s", claim, listing)
		}
	case "archive":
		if !regexp.MustCompile(`(?m)^archived-`+claim).MatchString(listing) || regexp.MustCompile(`(?m)^`+claim+`$`).MatchString(listing) {
			t.Errorf("%s: want the claim's directory archived: %s", claim, listing)
		}
	}
}

// restartNodePlugin deletes the node plugin's pod under the running pods,
// waits for its replacement, and checks that the new plugin answers stats
// and health for the volume, to the test and to the kubelet.
func restartNodePlugin(t *testing.T, claim string) {
	t.Helper()
	sel := "app.kubernetes.io/name=fileshare-csi,app.kubernetes.io/component=node"
	old := strings.TrimSpace(kubectl(t, "", "-n", "fileshare-csi", "get", "pods", "-l", sel, "-o", "jsonpath={.items[0].metadata.name}"))
	before, err := kubeletStatsCalls()
	if err != nil {
		t.Fatal(err)
	}
	kubectl(t, "", "-n", "fileshare-csi", "delete", "pod", old, "--wait=true", "--timeout=2m")
	cluster.WaitFor(t, "a new node plugin pod to be Ready", 5*time.Minute, func() (bool, error) {
		out, err := env.h.Kubectl("", "-n", "fileshare-csi", "get", "pods", "-l", sel, "-o",
			`jsonpath={range .items[*]}{.metadata.name} {.status.conditions[?(@.type=="Ready")].status}{"\n"}{end}`)
		for _, l := range strings.Split(strings.TrimSpace(out), "\n") {
			f := strings.Fields(l)
			if len(f) == 2 && f[0] != old && f[1] == "True" {
				return true, nil
			}
		}
		return false, err
	})
	pv := strings.TrimSpace(kubectl(t, "", "-n", testNS, "get", "pvc", claim, "-o", "jsonpath={.spec.volumeName}"))
	handle := strings.TrimSpace(kubectl(t, "", "get", "pv", pv, "-o", "jsonpath={.spec.csi.volumeHandle}"))
	uid := strings.TrimSpace(kubectl(t, "", "-n", testNS, "get", "pod", writerOf(claim), "-o", "jsonpath={.metadata.uid}"))
	target := "/var/lib/kubelet/pods/" + uid + "/volumes/kubernetes.io~csi/" + pv + "/mount"
	// The new plugin answers stats and health for the volume a pod kept
	// using, asked on its socket as the kubelet asks.
	cluster.WaitFor(t, "the restarted plugin to answer stats and health for "+claim, 2*time.Minute, func() (bool, error) {
		out, code, err := guestExec("/results/bin/csicall", "-volume-id", handle, "-path", target)
		if err == nil && code != 0 {
			err = fmt.Errorf("csicall: exit %d: %s", code, out)
		}
		return err == nil && strings.Contains(out, `"healthy":true`), err
	})
	// And the kubelet gets them from the new plugin (it asks every 10 s
	// here): its count of successful NodeGetVolumeStats calls goes up after
	// the restart, and only the new plugin can have answered those.
	cluster.WaitFor(t, "the kubelet's stats calls to the restarted plugin to succeed", 2*time.Minute, func() (bool, error) {
		n, err := kubeletStatsCalls()
		return n > before, err
	})
	// The restarted plugin's metrics: it found the staged volume in its
	// records (state unknown) and the kubelet's stats calls showed it
	// healthy; its own count of those calls is there too.
	proto, _, _ := strings.Cut(claim, "-")
	healthy := regexp.MustCompile(`(?m)^fileshare_csi_node_mounts\{protocol="` + proto + `",state="healthy"\} ([1-9]\d*)$`)
	stats := regexp.MustCompile(`(?m)^csi_plugin_operations_seconds_count\{driver_name="fileshare.csi.dev",grpc_status_code="OK",method_name="/csi.v1.Node/NodeGetVolumeStats"\} [1-9]`)
	cluster.WaitFor(t, "the restarted plugin's metrics to show the "+proto+" mount healthy", 2*time.Minute, func() (bool, error) {
		m, err := httpGet(env.nodeMetrics)
		return healthy.MatchString(m) && stats.MatchString(m), err
	})
}

func httpGet(url string) (string, error) {
	c := http.Client{Timeout: 20 * time.Second}
	resp, err := c.Get(url)
	if err != nil {
		return "", err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err == nil && resp.StatusCode != http.StatusOK {
		err = fmt.Errorf("GET %s: %s", url, resp.Status)
	}
	return string(b), err
}

// writerOf is the pod that writes to a claim in claimsAndPods.
func writerOf(claim string) string {
	proto, _, _ := strings.Cut(claim, "-")
	return proto + "-writer"
}

// kubeletStatsCalls is how many of the kubelet's NodeGetVolumeStats calls
// to the driver succeeded so far (its csi_operations_seconds metric).
func kubeletStatsCalls() (int, error) {
	m, err := kubeletMetrics()
	if err != nil {
		return 0, err
	}
	re := regexp.MustCompile(`(?m)^csi_operations_seconds_count\{driver_name="fileshare.csi.dev",grpc_status_code="OK",method_name="/csi.v1.Node/NodeGetVolumeStats"[^}]*\} (\d+)`)
	total := 0
	for _, mm := range re.FindAllStringSubmatch(m, -1) {
		n, _ := strconv.Atoi(mm[1])
		total += n
	}
	return total, nil
}

// kubeletMetrics reads the kubelet's /metrics through the VM's forwarded
// port (the apiserver will not proxy to a node called localhost).
func kubeletMetrics() (string, error) {
	c := http.Client{Timeout: 20 * time.Second, Transport: &http.Transport{
		// The kubelet's own self-signed serving certificate; the test
		// cluster's kubelet allows anonymous reads.
		TLSClientConfig: &tls.Config{InsecureSkipVerify: true}, //nolint:gosec
	}}
	resp, err := c.Get(fmt.Sprintf("https://127.0.0.1:%d/metrics", env.kubeletPort))
	if err != nil {
		return "", err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	return string(b), err
}

// uninstall removes everything with `kubectl delete -k` and checks that
// the node holds no mount of ours afterwards. As a user must, it first
// deletes the workloads and their claims and lets the kubelet unmount them:
// a node plugin removed before that can no longer unmount anything.
func uninstall(t *testing.T) {
	t.Cleanup(func() {
		if t.Failed() {
			// The node plugin's own log is on the node; it goes with the VM.
			out, _, _ := guestExec("sh", "-c", "tail -c 300000 /var/log/pods/fileshare-csi_fileshare-csi-node-*/fileshare-csi/*.log")
			keepLog(t, "node-plugin.log", out)
			// A mount the plugin unmounted that stays on the host is a
			// question of propagation: the host's table and the plugin's,
			// with their peer groups, say which copy stayed and why.
			out, _, _ = guestExec("sh", "-c", `echo "== the host"; cat /proc/self/mountinfo; for d in /proc/[0-9]*; do if grep -q -- "--mode=nod[e]" $d/cmdline 2>/dev/null; then echo "== the node plugin, $d"; cat $d/mountinfo; fi; done`)
			keepLog(t, "mountinfo.log", out)
		}
	})
	if out, err := env.h.KubectlTimeout(6*time.Minute, "", "delete", "namespace", testNS, "--wait=true", "--timeout=5m"); err != nil {
		t.Fatalf("delete namespace %s: %v %s\n%s", testNS, err, out, stuck())
	}
	began := time.Now()
	cluster.WaitFor(t, "every PersistentVolume of the driver to be deleted", 5*time.Minute, func() (bool, error) {
		out, err := env.h.Kubectl("", "get", "pv", "-o", "jsonpath={range .items[*]}{.spec.csi.driver} {.metadata.name} {.status.phase}{\"\\n\"}{end}")
		if err == nil && strings.Contains(out, "fileshare.csi.dev") {
			// Said when the wait gives up: which volumes stayed, and
			// (near the end, for it costs two more calls) why.
			err = fmt.Errorf("still there:\n%s", out)
			if time.Since(began) > 4*time.Minute {
				err = fmt.Errorf("%w\n%s", err, stuck())
			}
		}
		return err == nil, err
	})
	cluster.WaitFor(t, "the kubelet to unmount every volume", 5*time.Minute, func() (bool, error) {
		left, err := ourMounts()
		if err == nil && len(left) > 0 {
			// Said when the wait gives up: which mounts stayed.
			err = fmt.Errorf("still mounted: %q", left)
		}
		return len(left) == 0 && err == nil, err
	})
	out, err := env.h.KubectlTimeout(6*time.Minute, "", "delete", "-k", filepath.Join(env.repo, "test/node/overlay"), "--wait=true", "--timeout=5m")
	if err != nil {
		t.Fatalf("kubectl delete -k: %v\n%s", err, out)
	}
	kubectl(t, "", "delete", "storageclass", "--all", "--ignore-not-found")
	cluster.WaitFor(t, "the driver's pods to go", 3*time.Minute, func() (bool, error) {
		out, err := env.h.Kubectl("", "get", "pods", "-A", "-l", "app.kubernetes.io/name=fileshare-csi", "-o", "name")
		return err == nil && strings.TrimSpace(out) == "", err
	})
	for _, obj := range [][]string{{"csidriver", "fileshare.csi.dev"}, {"namespace", "fileshare-csi"}, {"clusterrole", "-l", "app.kubernetes.io/name=fileshare-csi"}} {
		out, err := env.h.Kubectl("", append(append([]string{"get"}, obj...), "--ignore-not-found", "-o", "name")...)
		if err != nil || strings.TrimSpace(out) != "" {
			t.Errorf("left in the cluster after kubectl delete -k: %v: %q %v", obj, out, err)
		}
	}
	left, err := ourMounts()
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range left {
		t.Errorf("left on the node after uninstall: %s", l)
	}
}

// ourMounts lists the node's NFS and CIFS mounts and anything mounted in
// the driver's kubelet directories.
func ourMounts() ([]string, error) {
	out, code, err := guestExec("cat", "/proc/mounts")
	if err != nil || code != 0 {
		return nil, fmt.Errorf("read the node's mounts: exit %d, %v", code, err)
	}
	var left []string
	for _, l := range strings.Split(out, "\n") {
		f := strings.Fields(l)
		if len(f) < 3 {
			continue
		}
		if f[2] == "nfs" || f[2] == "nfs4" || f[2] == "cifs" || strings.Contains(f[1], "fileshare.csi.dev") {
			left = append(left, l)
		}
	}
	return left, nil
}

// keepLog writes a log a failed test collected where run.sh keeps the
// run's logs, rather than into the test's output, where it would bury the
// failure's own message.
func keepLog(t *testing.T, name, content string) {
	if err := os.WriteFile(filepath.Join(env.work, name), []byte(content), 0o644); err != nil {
		t.Logf("%s: %v", name, err)
		return
	}
	t.Logf("%s kept (%d bytes)", name, len(content))
}

// stuck says what an uninstall that does not end waits for: the test
// namespace's pods and claims, and the cluster's last warnings (a
// DeleteVolume or an unmount that fails says so there).
func stuck() string {
	pods, _ := env.h.Kubectl("", "get", "pods,pvc", "-n", testNS, "-o", "wide")
	events, _ := env.h.Kubectl("", "get", "events", "-A", "--field-selector", "type=Warning", "--sort-by", ".lastTimestamp",
		"-o", "custom-columns=OBJECT:.involvedObject.name,REASON:.reason,MESSAGE:.message")
	lines := strings.Split(strings.TrimSpace(events), "\n")
	if len(lines) > 8 {
		lines = lines[len(lines)-8:]
	}
	return "in " + testNS + ":\n" + pods + "\nlast warnings:\n" + strings.Join(lines, "\n")
}
