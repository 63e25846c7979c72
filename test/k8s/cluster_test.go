//go:build linux

// Package k8s runs the quickstart manifests, then the Helm chart installed
// with helm, and the driver against a real Kubernetes control plane on
// loopback: etcd, kube-apiserver and kube-controller-manager as local
// processes (no kubelet, so no pods run), our controller binary and the real
// csi-provisioner beside them, and Samba and NFS-Ganesha as the file servers. `make test-k8s` builds the Kubernetes
// binaries (test/k8s/build.sh) and runs this through test/k8s/run.sh.
package k8s

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"go.yaml.in/yaml/v3"

	"github.com/fileshare-csi/fileshare-csi/hack/gobuild"
	"github.com/fileshare-csi/fileshare-csi/test/cluster"
	"github.com/fileshare-csi/fileshare-csi/test/localservers"
)

// The environment run.sh hands over.
const (
	envBin  = "FILESHARE_K8S_BIN"  // colon-separated directories with kube-apiserver, kube-controller-manager, kubectl, csi-provisioner
	envWork = "FILESHARE_K8S_WORK" // scratch directory; pids of every process started go to WORK/pids
)

var env struct {
	repo, work string
	h          *cluster.Harness
}

type proc = cluster.Proc

func start(t *testing.T, name, bin string, args ...string) *proc {
	t.Helper()
	return env.h.Start(t, name, bin, args...)
}
func findBin(t *testing.T, name string) string             { t.Helper(); return env.h.FindBin(t, name) }
func kubectl(stdin string, args ...string) (string, error) { return env.h.Kubectl(stdin, args...) }
func mustKubectl(t *testing.T, stdin string, args ...string) string {
	t.Helper()
	return env.h.MustKubectl(t, stdin, args...)
}
func getJSON(args []string, v any) error { return env.h.GetJSON(args, v) }

var (
	freePort  = cluster.FreePort
	listening = cluster.Listening
	waitFor   = cluster.WaitFor
)

func TestMain(m *testing.M) {
	if os.Getenv(envBin) == "" {
		fmt.Println("skipping: run `make test-k8s` (it builds kube-apiserver and csi-provisioner and sets " + envBin + ")")
		os.Exit(0)
	}
	if os.Geteuid() != 0 {
		fmt.Fprintln(os.Stderr, "test-k8s starts smbd, rpcbind and NFS-Ganesha and needs root")
		os.Exit(1)
	}
	os.Exit(m.Run())
}

// prometheusOperator is the Prometheus Operator release whose
// ServiceMonitor CRD the monitoring manifests are checked against.
const prometheusOperator = "github.com/prometheus-operator/prometheus-operator@v0.85.0"

// serviceMonitorCRD returns the ServiceMonitor CRD from the Prometheus
// Operator's module (downloaded through the module proxy, then cached).
func serviceMonitorCRD(t *testing.T) string {
	t.Helper()
	cmd := exec.Command("go", "mod", "download", "-json", prometheusOperator)
	cmd.Dir = t.TempDir()
	cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "GOWORK=off")
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go mod download %s: %v\n%s", prometheusOperator, err, out)
	}
	var mod struct{ Dir string }
	if err := json.Unmarshal(out, &mod); err != nil || mod.Dir == "" {
		t.Fatalf("go mod download %s: no directory in %s (%v)", prometheusOperator, out, err)
	}
	return filepath.Join(mod.Dir, "example/prometheus-operator-crd/monitoring.coreos.com_servicemonitors.yaml")
}

// overlays lists every kustomization under manifests/.
func kustomizations(t *testing.T) []string {
	t.Helper()
	var dirs []string
	err := filepath.WalkDir(filepath.Join(env.repo, "manifests"), func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() && d.Name() == "kustomization.yaml" {
			// A Component is applied through an overlay that uses it
			// (checkInlineComponent), not by itself.
			if b, err := os.ReadFile(p); err == nil && regexp.MustCompile(`(?m)^kind: Component$`).Match(b) {
				return nil
			}
			rel, _ := filepath.Rel(env.repo, filepath.Dir(p))
			dirs = append(dirs, rel)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(dirs) < 8 {
		t.Fatalf("found only %d kustomizations under manifests/: %v", len(dirs), dirs)
	}
	return dirs
}

type objMeta struct {
	Name   string            `json:"name"`
	Labels map[string]string `json:"labels"`
}

type pvc struct {
	Metadata objMeta `json:"metadata"`
	Spec     struct {
		VolumeName string `json:"volumeName"`
	} `json:"spec"`
	Status struct {
		Phase string `json:"phase"`
	} `json:"status"`
}

type pv struct {
	Metadata objMeta `json:"metadata"`
	Spec     struct {
		CSI struct {
			Driver           string            `json:"driver"`
			VolumeHandle     string            `json:"volumeHandle"`
			VolumeAttributes map[string]string `json:"volumeAttributes"`
		} `json:"csi"`
		NodeAffinity *struct {
			Required struct {
				NodeSelectorTerms []struct {
					MatchExpressions []struct {
						Key      string   `json:"key"`
						Operator string   `json:"operator"`
						Values   []string `json:"values"`
					} `json:"matchExpressions"`
				} `json:"nodeSelectorTerms"`
			} `json:"required"`
		} `json:"nodeAffinity"`
	} `json:"spec"`
}

type eventList struct {
	Items []struct {
		Reason  string `json:"reason"`
		Message string `json:"message"`
	} `json:"items"`
}

const testNS = "team-a"

func TestQuickstartOnARealControlPlane(t *testing.T) {
	env.work = os.Getenv(envWork)
	if env.work == "" {
		env.work = t.TempDir()
	}
	wd, _ := os.Getwd()
	env.repo = filepath.Clean(filepath.Join(wd, "..", ".."))
	env.h = &cluster.Harness{Repo: env.repo, Work: env.work, Bins: filepath.SplitList(os.Getenv(envBin))}
	env.h.KubectlBin = findBin(t, "kubectl")

	// Everything started is stopped on the way out, clients first (each
	// driver's own cleanup, registered later, runs before this one).
	var cp *cluster.ControlPlane
	var servers []interface{ Stop() }
	t.Cleanup(func() {
		if cp != nil {
			cp.Stop()
		}
		for i := len(servers) - 1; i >= 0; i-- {
			servers[i].Stop()
		}
		for _, p := range env.h.Procs() {
			if p.Running() {
				t.Errorf("%s is still running after teardown", p.Name)
			}
		}
		if t.Failed() {
			for _, p := range env.h.Procs() {
				t.Logf("---- %s log (tail) ----\n%s", p.Name, p.Tail())
			}
		}
	})

	begin := time.Now()
	stepper := func(t *testing.T) func(string, ...any) {
		return func(format string, a ...any) {
			t.Helper()
			t.Logf("[%5.1fs] %s", time.Since(begin).Seconds(), fmt.Sprintf(format, a...))
		}
	}
	step := stepper(t)

	// Our controller, built from this checkout as the images build it.
	driverBin := filepath.Join(env.work, "fileshare-csi")
	ctx := context.Background()
	if err := gobuild.Driver(ctx, env.repo, driverBin, gobuild.Describe(ctx, env.repo), gobuild.Target{}); err != nil {
		t.Fatal(err)
	}
	step("built the driver")

	cp = env.h.StartControlPlane(t, cluster.ControlPlaneOptions{})
	step("control plane up at %s", cp.Server)
	out := mustKubectl(t, "", "version", "-o", "json")
	if !strings.Contains(out, `"gitVersion": "v1.`) {
		t.Fatalf("kubectl version: %s", out)
	}

	// c. Every kustomization must be accepted by the API server. Namespaced
	// objects need their namespace to exist for a server-side dry run, so
	// the namespace goes in first.
	mustKubectl(t, "", "apply", "-f", filepath.Join(env.repo, "manifests/base/namespace.yaml"))
	// manifests/monitoring has a ServiceMonitor: its CRD comes from the
	// Prometheus Operator's module, as a cluster running the operator has it.
	mustKubectl(t, "", "apply", "--server-side", "-f", serviceMonitorCRD(t))
	// manifests/examples/snapshots has snapshot classes: their CRDs come
	// from the external-snapshotter release build.sh built.
	mustKubectl(t, "", "apply", "--server-side", "-f", snapshotCRDs(t))
	for _, dir := range kustomizations(t) {
		out, err := kubectl("", "apply", "--dry-run=server", "-k", filepath.Join(env.repo, dir))
		if err != nil {
			t.Errorf("the API server rejects %s: %v", dir, err)
			continue
		}
		t.Logf("dry-run %s: %d objects accepted", dir, strings.Count(out, "(server dry run)"))
	}
	if t.Failed() {
		t.FailNow()
	}
	step("all kustomizations accepted by the API server (dry run)")
	checkRenderedManifests(t)
	checkChartMatchesOverlays(t)
	step("the Helm chart renders what each overlay installs, and the API server accepts it")

	// d. Install for real: the Windows overlay is the default one plus the
	// Windows node DaemonSet, so this creates everything a mixed cluster gets.
	mustKubectl(t, "", "apply", "-k", filepath.Join(env.repo, "manifests/overlays/windows"))
	// No kubelet registers nodes here: one Linux and one Windows node, each
	// with the CSINode the node-driver-registrar would have made.
	for _, n := range []struct{ name, os string }{{"linux-node-1", "linux"}, {"windows-node-1", "windows"}} {
		mustKubectl(t, fmt.Sprintf(`apiVersion: v1
kind: Node
metadata:
  name: %[1]s
  labels:
    kubernetes.io/hostname: %[1]s
    kubernetes.io/os: %[2]s
    topology.fileshare.csi.dev/os: %[2]s
---
apiVersion: storage.k8s.io/v1
kind: CSINode
metadata:
  name: %[1]s
spec:
  drivers:
    - name: fileshare.csi.dev
      nodeID: %[1]s
      topologyKeys: [topology.fileshare.csi.dev/os]
`, n.name, n.os), "apply", "-f", "-")
	}
	mustKubectl(t, "", "create", "namespace", testNS)
	step("installed manifests/overlays/windows, two fake nodes with CSINodes")

	// The file servers. NFS-Ganesha binds the fixed ports 2049 and 111:
	// wait while another test run holds them.
	smbPort := 4460
	for listening(fmt.Sprintf("127.0.0.1:%d", smbPort)) {
		smbPort++
	}
	samba, err := localservers.StartSamba(context.Background(), filepath.Join(env.work, "samba"), smbPort)
	if err != nil {
		t.Fatal(err)
	}
	servers = append(servers, samba)
	env.h.RecordChildren()
	waitFor(t, "127.0.0.1:2049 to be free (another NFS test is running)", 10*time.Minute, func() (bool, error) {
		return !listening("127.0.0.1:2049"), nil
	})
	ganesha, err := localservers.StartGanesha(context.Background(), filepath.Join(env.work, "ganesha"))
	if err != nil {
		t.Fatal(err)
	}
	servers = append(servers, ganesha)
	env.h.RecordChildren()
	step("Samba on 127.0.0.1:%d and NFS-Ganesha on 127.0.0.1:2049", smbPort)

	// Our controller and csi-provisioner, as the Deployment runs them, with
	// its ServiceAccount: the RBAC in manifests/base is what they get.
	quickstart := startDriver(t, cp, driverBin, "fileshare-csi", "")
	step("controller and csi-provisioner running (leader, health on %s)", quickstart.health)

	// The example StorageClasses, pointed at the loopback servers, in the
	// three onDelete flavours.
	sh := shares{nfsBase: filepath.Join(ganesha.Data, "k8s"), smbBase: filepath.Join(samba.Data, "k8s")}
	for _, d := range []string{sh.nfsBase, sh.smbBase} {
		if err := os.MkdirAll(d, 0o777); err != nil {
			t.Fatal(err)
		}
		_ = os.Chmod(d, 0o777)
	}
	sh.nfsSource = "nfs://127.0.0.1" + sh.nfsBase
	sh.smbSource = fmt.Sprintf("smb://127.0.0.1:%d/share/k8s", smbPort)
	nfsExample := env.h.ReadRepoFile(t, "manifests/examples/storageclass-nfs.yaml")
	nfsExample = cluster.ReplaceAll(t, nfsExample, "nfs://nfs-server.example.com/export/k8s", sh.nfsSource)
	for _, mode := range []string{"delete", "retain", "archive"} {
		sc := cluster.ReplaceAll(t, nfsExample, "name: fileshare-nfs", "name: nfs-"+mode, "onDelete: delete", "onDelete: "+mode)
		mustKubectl(t, sc, "apply", "-f", "-")
	}
	smbExample := env.h.ReadRepoFile(t, "manifests/examples/storageclass-smb.yaml")
	smbExample = cluster.ReplaceAll(t, smbExample,
		"smb://fileserver.example.com/share/k8s", sh.smbSource,
		"username: k8s-volumes", "username: "+localservers.SMBUser,
		"password: change-me", "password: "+localservers.SMBPassword)
	mustKubectl(t, smbExample, "apply", "-f", "-") // fileshare-smb, onDelete: archive
	wrong := cluster.ReplaceAll(t, smbExample,
		"password: "+localservers.SMBPassword, "password: not-the-password",
		"fileshare-smb-creds", "fileshare-smb-wrong",
		"name: fileshare-smb\n", "name: smb-wrong-secret\n")
	mustKubectl(t, wrong, "apply", "-f", "-")
	exampleClasses := []string{"nfs-delete", "nfs-retain", "nfs-archive", "fileshare-smb", "smb-wrong-secret"}
	step("StorageClasses %s", strings.Join(exampleClasses, ", "))

	cases := []claimCase{
		{claim: "data-delete", class: "nfs-delete", onDelete: "delete", base: sh.nfsBase, nfs: true, mode: 0o777},
		{claim: "data-retain", class: "nfs-retain", onDelete: "retain", base: sh.nfsBase, nfs: true, mode: 0o777},
		{claim: "data-archive", class: "nfs-archive", onDelete: "archive", base: sh.nfsBase, nfs: true, mode: 0o777},
		{claim: "smb-data", class: "fileshare-smb", onDelete: "archive", base: sh.smbBase},
	}
	for _, c := range cases {
		mustKubectl(t, claim(t, testNS, c.claim, c.class), "apply", "-f", "-")
	}
	mustKubectl(t, claim(t, testNS, "smb-wrong", "smb-wrong-secret"), "apply", "-f", "-")
	bound := bindClaims(t, testNS, cases)
	step("%d claims Bound, directories %s/<claim> on both shares", len(cases), testNS)

	// A wrong SMB password: the claim stays Pending and says why.
	waitFor(t, "a ProvisioningFailed event on smb-wrong that names the cause", 60*time.Second, func() (bool, error) {
		var ev eventList
		err := getJSON([]string{"-n", testNS, "events", "--field-selector", "involvedObject.name=smb-wrong"}, &ev)
		for _, e := range ev.Items {
			if e.Reason == "ProvisioningFailed" && strings.Contains(e.Message, "rejected the credentials") {
				t.Logf("smb-wrong: %s: %s", e.Reason, e.Message)
				return true, nil
			}
		}
		return false, err
	})
	var wrongClaim pvc
	if err := getJSON([]string{"-n", testNS, "pvc", "smb-wrong"}, &wrongClaim); err != nil || wrongClaim.Status.Phase != "Pending" {
		t.Errorf("smb-wrong: phase %q (%v), want Pending", wrongClaim.Status.Phase, err)
	}
	step("wrong credentials: claim Pending with the cause in its events")

	t.Run("snapshots", func(t *testing.T) { checkSnapshots(t, testNS, sh, stepper(t)) })

	// Deleting the claims: the directory goes, stays or is archived. The
	// Pending claim must be gone too: a provisioner started later would
	// retry it with a Secret outside its install's namespace.
	mustKubectl(t, "", "-n", testNS, "delete", "pvc", "smb-wrong", "--wait=false")
	deleteClaims(t, testNS, cases, bound)
	waitFor(t, "claim smb-wrong to be deleted", 60*time.Second, func() (bool, error) {
		_, err := kubectl("", "-n", testNS, "get", "pvc", "smb-wrong")
		return err != nil && strings.Contains(err.Error(), "NotFound"), nil
	})
	step("claims deleted: delete removed, retain kept, archive renamed (NFS and SMB)")

	// The workloads of the installed manifests pass admission for real: the
	// controllers create their pods (which stay Pending: no scheduler here).
	checkPods(t, "fileshare-csi")
	step("controller Deployment, Linux and Windows node DaemonSets created their pods")

	checkNotForbidden(t, quickstart)
	step("the quickstart install provisioned and deleted without an RBAC refusal")

	t.Run("helm install", func(t *testing.T) {
		step := stepper(t)
		// The chart makes the same cluster-wide objects (CSIDriver,
		// ClusterRoles) under the same names, and helm refuses to take over
		// objects another install owns: switch as a user would, by removing
		// the kustomize install and its classes first. Its controller goes
		// first, because its token dies with its namespace. That namespace's
		// finalization (seconds) need not end: the chart goes into a
		// namespace of its own, and the cluster-wide objects have no
		// finalizers, so they are gone when the deletion returns.
		quickstart.stop()
		mustKubectl(t, "", append([]string{"delete", "storageclass"}, exampleClasses...)...)
		mustKubectl(t, "", "delete", "-k", filepath.Join(env.repo, "manifests/overlays/windows"), "--wait=false")
		step("the kustomize install and its example classes removed")
		testChartInstall(t, cp, driverBin, sh, step)
	})
}

// shares are the directories on the loopback file servers that the classes
// point at: each as its server sees it (source) and on this host (base).
type shares struct {
	nfsSource, smbSource string
	nfsBase, smbBase     string
}

// claimCase is a claim of one class and what its volume should look like on
// the file server.
type claimCase struct {
	claim, class, onDelete string
	base                   string // the class's base directory on this host
	nfs                    bool
	// mode is the NFS directory's mode the class asks for (Samba presents
	// its own).
	mode os.FileMode
	// byPVName: the class sets no subDir, so the directory is named after
	// the PV instead of the claim's namespace and name.
	byPVName bool
}

// boundClaim is what bindClaims found for a claimCase: its PV and the
// volume's directory below the class's base.
type boundClaim struct {
	pv  pv
	sub string
}

// claim is the example claim (manifests/examples/pvc-and-pod.yaml) renamed,
// in ns and of class.
func claim(t *testing.T, ns, name, class string) string {
	t.Helper()
	pvc := env.h.ReadRepoFile(t, "manifests/examples/pvc-and-pod.yaml")
	pvc = pvc[:strings.Index(pvc, "\n---")]
	return cluster.ReplaceAll(t, pvc, "name: fileshare-demo", "name: "+name, "namespace: default", "namespace: "+ns,
		"storageClassName: fileshare-nfs", "storageClassName: "+class)
}

// bindClaims waits for each claim in ns to be Bound and checks its PV and
// that its directory is on the share.
func bindClaims(t *testing.T, ns string, cases []claimCase) map[string]boundClaim {
	t.Helper()
	out := map[string]boundClaim{}
	for _, c := range cases {
		var got pvc
		waitFor(t, "claim "+c.claim+" to be Bound", 60*time.Second, func() (bool, error) {
			if err := getJSON([]string{"-n", ns, "pvc", c.claim}, &got); err != nil {
				return false, err
			}
			if got.Status.Phase == "Bound" {
				return true, nil
			}
			// On a timeout, the provisioner's reason is what one needs.
			var ev eventList
			err := getJSON([]string{"-n", ns, "events", "--field-selector", "reason=ProvisioningFailed,involvedObject.name=" + c.claim}, &ev)
			if err != nil {
				return false, fmt.Errorf("phase %q; events: %w", got.Status.Phase, err)
			}
			if n := len(ev.Items); n > 0 {
				return false, fmt.Errorf("phase %q; ProvisioningFailed: %s", got.Status.Phase, ev.Items[n-1].Message)
			}
			return false, fmt.Errorf("phase %q", got.Status.Phase)
		})
		var v pv
		if err := getJSON([]string{"pv", got.Spec.VolumeName}, &v); err != nil {
			t.Fatal(err)
		}
		wantSub := ns + "/" + c.claim
		if c.byPVName {
			wantSub = v.Metadata.Name
		}
		out[c.claim] = boundClaim{pv: v, sub: wantSub}
		if v.Spec.CSI.Driver != "fileshare.csi.dev" || !strings.HasPrefix(v.Spec.CSI.VolumeHandle, "v2#") {
			t.Errorf("%s: PV %s has driver %q, handle %q; want fileshare.csi.dev and v2#...", c.claim, v.Metadata.Name, v.Spec.CSI.Driver, v.Spec.CSI.VolumeHandle)
		}
		// ...#<subDir>#<onDelete>#<uid of this creation>
		handleTail := regexp.MustCompile("#" + regexp.QuoteMeta(strings.ReplaceAll(wantSub, "%", "%25")) + "#" + c.onDelete + "#[0-9a-f]{16}$")
		if !handleTail.MatchString(v.Spec.CSI.VolumeHandle) {
			t.Errorf("%s: volume handle %q does not end in #%s#%s#<16 hex digits>", c.claim, v.Spec.CSI.VolumeHandle, wantSub, c.onDelete)
		}
		if got := v.Spec.CSI.VolumeAttributes["subDir"]; got != wantSub {
			t.Errorf("%s: volumeAttributes subDir = %q, want %q", c.claim, got, wantSub)
		}
		checkAffinity(t, c.claim, v, c.nfs)
		dir := filepath.Join(c.base, wantSub)
		fi, err := os.Stat(dir)
		if err != nil || !fi.IsDir() {
			t.Errorf("%s: the volume directory %s is not on the share: %v", c.claim, dir, err)
		} else if c.nfs && fi.Mode().Perm() != c.mode {
			t.Errorf("%s: %s has mode %v, want the class's mountPermissions %v", c.claim, dir, fi.Mode().Perm(), c.mode)
		}
		t.Logf("%s: Bound to %s, handle %s", c.claim, v.Metadata.Name, v.Spec.CSI.VolumeHandle)
	}
	return out
}

// deleteClaims deletes the claims in ns, waits for their PVs to go and
// checks that each directory was removed, kept or archived as its class
// says.
func deleteClaims(t *testing.T, ns string, cases []claimCase, bound map[string]boundClaim) {
	t.Helper()
	for _, c := range cases {
		mustKubectl(t, "", "-n", ns, "delete", "pvc", c.claim, "--wait=false")
	}
	for _, c := range cases {
		b := bound[c.claim]
		name := b.pv.Metadata.Name
		waitFor(t, "PV "+name+" of "+c.claim+" to be deleted", 60*time.Second, func() (bool, error) {
			_, err := kubectl("", "get", "pv", name)
			return err != nil && strings.Contains(err.Error(), "NotFound"), nil
		})
		dir := filepath.Join(c.base, b.sub)
		_, err := os.Stat(dir)
		archived, _ := filepath.Glob(filepath.Join(filepath.Dir(dir), "archived-"+filepath.Base(dir)+"*"))
		switch c.onDelete {
		case "delete":
			if !errors.Is(err, os.ErrNotExist) {
				t.Errorf("%s (onDelete delete): %s still there after the claim was deleted (%v)", c.claim, dir, err)
			}
		case "retain":
			if err != nil {
				t.Errorf("%s (onDelete retain): %s is gone: %v", c.claim, dir, err)
			}
		case "archive":
			if !errors.Is(err, os.ErrNotExist) || len(archived) != 1 {
				t.Errorf("%s (onDelete archive): directory %v, archives %v; want it renamed to archived-%s", c.claim, err, archived, filepath.Base(dir))
			}
		default:
			t.Fatalf("%s: no check for onDelete %q", c.claim, c.onDelete)
		}
		t.Logf("%s: PV deleted; on the share: dir %v, archives %v", c.claim, err == nil, archived)
	}
}

// driver is our controller and csi-provisioner run as host processes the
// way an install's controller Deployment runs them.
type driver struct {
	controller, provisioner *proc
	health                  string // csi-provisioner's health endpoint
}

// stop takes csi-provisioner down before the controller it calls.
func (d *driver) stop() {
	d.provisioner.Stop(10 * time.Second)
	d.controller.Stop(10 * time.Second)
}

// startDriver runs the controller and csi-provisioner with the arguments of
// the controller Deployment installed in ns, and csi-provisioner with a
// token of that install's ServiceAccount, so that the install's RBAC is what
// it gets; it returns once csi-provisioner leads. prefix keeps the logs and
// sockets of two installs apart.
func startDriver(t *testing.T, cp *cluster.ControlPlane, driverBin, ns, prefix string) *driver {
	t.Helper()
	d := &driver{}
	// Registered after the control plane's cleanup, so it runs before it.
	t.Cleanup(d.stop)
	sock := filepath.Join(env.work, prefix+"csi", "csi.sock")
	if err := os.MkdirAll(filepath.Dir(sock), 0o755); err != nil {
		t.Fatal(err)
	}
	d.controller = start(t, prefix+"fileshare-csi-controller", driverBin, controllerArgs(t, ns, sock)...)
	waitFor(t, "the controller's socket", 20*time.Second, func() (bool, error) {
		if !d.controller.Running() {
			t.Fatalf("controller exited:\n%s", d.controller.Tail())
		}
		_, err := os.Stat(sock)
		return err == nil, err
	})

	token := strings.TrimSpace(mustKubectl(t, "", "-n", ns, "create", "token", "fileshare-csi-controller", "--duration=1h"))
	saKC := filepath.Join(env.work, "cp", prefix+"controller-sa.kubeconfig")
	cluster.WriteKubeconfig(t, saKC, cp.Server, cp.CA, token, "")
	var provArgs []string
	provArgs, d.health = provisionerArgs(t, ns, sock, saKC)
	d.provisioner = start(t, prefix+"csi-provisioner", findBin(t, "csi-provisioner"), provArgs...)
	waitFor(t, "csi-provisioner to lead (its Lease in "+ns+")", 60*time.Second, func() (bool, error) {
		if !d.provisioner.Running() {
			t.Fatalf("csi-provisioner exited:\n%s", d.provisioner.Tail())
		}
		var lease struct {
			Spec struct {
				HolderIdentity string `json:"holderIdentity"`
			} `json:"spec"`
		}
		err := getJSON([]string{"-n", ns, "lease", "fileshare-csi-dev"}, &lease)
		return err == nil && lease.Spec.HolderIdentity != "", err
	})
	return d
}

// checkNotForbidden: nothing the driver needed from the API server was
// refused by the install's RBAC.
func checkNotForbidden(t *testing.T, d *driver) {
	t.Helper()
	for _, p := range []*proc{d.provisioner, d.controller} {
		b, err := os.ReadFile(p.Log)
		if err != nil {
			t.Errorf("%s: %v", p.Name, err)
			continue
		}
		var lines []string
		for _, l := range strings.Split(string(b), "\n") {
			if strings.Contains(l, "forbidden") {
				lines = append(lines, l)
			}
		}
		if len(lines) > 0 {
			t.Errorf("%s was refused by RBAC:\n%s", p.Name, strings.Join(lines, "\n"))
		}
	}
}

// controllerArgs returns the fileshare-csi container's arguments from the
// Deployment installed in ns, with the endpoint moved to sock.
func controllerArgs(t *testing.T, ns, sock string) []string {
	t.Helper()
	var args []string
	for _, a := range deploymentContainer(t, ns, "fileshare-csi").args(ns) {
		if strings.HasPrefix(a, "--endpoint=") {
			a = "--endpoint=unix://" + sock
		}
		args = append(args, a)
	}
	return append(args, "--v=5")
}

// provisionerArgs returns csi-provisioner's arguments from the Deployment
// installed in ns, with the socket, kubeconfig and health endpoint of this
// test.
func provisionerArgs(t *testing.T, ns, sock, kubeconfig string) ([]string, string) {
	t.Helper()
	c := deploymentContainer(t, ns, "csi-provisioner")
	health := fmt.Sprintf("127.0.0.1:%d", freePort(t))
	var args []string
	for _, a := range c.args(ns) {
		switch {
		case strings.HasPrefix(a, "--csi-address="):
			a = "--csi-address=" + sock
		case strings.HasPrefix(a, "--http-endpoint="):
			a = "--http-endpoint=" + health
		}
		args = append(args, a)
	}
	for _, want := range []string{"--csi-address=" + sock, "--extra-create-metadata", "--leader-election", "--leader-election-namespace=" + ns} {
		if !slices.Contains(args, want) {
			t.Errorf("the Deployment's csi-provisioner in %s lacks %s: %v", ns, want, c.Args)
		}
	}
	return append(args, "--kubeconfig="+kubeconfig), health
}

type container struct {
	Name  string   `json:"name"`
	Image string   `json:"image"`
	Args  []string `json:"args"`
	Env   []struct {
		Name      string `json:"name"`
		Value     string `json:"value"`
		ValueFrom *struct {
			FieldRef *struct {
				FieldPath string `json:"fieldPath"`
			} `json:"fieldRef"`
		} `json:"valueFrom"`
	} `json:"env"`
}

// args are the container's arguments as the kubelet would expand them for
// a pod in ns: $(VAR) from its env, of which the downward API's
// metadata.namespace and metadata.uid are the references the manifests use
// (the pod's UID here is made up: the process runs outside a pod).
func (c container) args(ns string) []string {
	var pairs []string
	for _, e := range c.Env {
		v := e.Value
		if e.ValueFrom != nil && e.ValueFrom.FieldRef != nil {
			switch e.ValueFrom.FieldRef.FieldPath {
			case "metadata.namespace":
				v = ns
			case "metadata.uid":
				v = "3f2e1d0c-b9a8-4765-8432-10fedcba9876"
			}
		}
		pairs = append(pairs, "$("+e.Name+")", v)
	}
	r := strings.NewReplacer(pairs...)
	out := make([]string, len(c.Args))
	for i, a := range c.Args {
		out[i] = r.Replace(a)
	}
	return out
}

func deploymentContainer(t *testing.T, ns, name string) container {
	t.Helper()
	var d struct {
		Spec struct {
			Template struct {
				Spec struct {
					Containers []container `json:"containers"`
				} `json:"spec"`
			} `json:"template"`
		} `json:"spec"`
	}
	if err := getJSON([]string{"-n", ns, "deployment", "fileshare-csi-controller"}, &d); err != nil {
		t.Fatal(err)
	}
	for _, c := range d.Spec.Template.Spec.Containers {
		if c.Name == name {
			return c
		}
	}
	t.Fatalf("the controller Deployment in %s has no container %q", ns, name)
	return container{}
}

// checkAffinity: NFS volumes only where the node reports os=linux, SMB
// volumes anywhere.
func checkAffinity(t *testing.T, claim string, v pv, nfs bool) {
	t.Helper()
	if !nfs {
		if v.Spec.NodeAffinity != nil {
			t.Errorf("%s: SMB PV has node affinity %+v, want none (Windows nodes mount SMB too)", claim, *v.Spec.NodeAffinity)
		}
		return
	}
	if v.Spec.NodeAffinity == nil {
		t.Errorf("%s: NFS PV has no node affinity; want topology.fileshare.csi.dev/os In [linux]", claim)
		return
	}
	terms := v.Spec.NodeAffinity.Required.NodeSelectorTerms
	for _, term := range terms {
		ok := false
		for _, e := range term.MatchExpressions {
			if e.Key == "topology.fileshare.csi.dev/os" && e.Operator == "In" && len(e.Values) == 1 && e.Values[0] == "linux" {
				ok = true
			}
		}
		if !ok {
			t.Errorf("%s: NFS PV node selector term %+v does not restrict it to topology.fileshare.csi.dev/os=linux", claim, term)
		}
	}
	if len(terms) == 0 {
		t.Errorf("%s: NFS PV has empty node affinity", claim)
	}
}

// checkPods waits for the pods the workloads installed in ns create:
// admission (Pod Security, ServiceAccounts, priority classes) accepts them.
func checkPods(t *testing.T, ns string) {
	t.Helper()
	want := map[string]string{
		"app.kubernetes.io/component=controller":   "",
		"app.kubernetes.io/component=node":         "linux-node-1",
		"app.kubernetes.io/component=node-windows": "windows-node-1",
	}
	for sel, node := range want {
		waitFor(t, "a pod for "+sel, 60*time.Second, func() (bool, error) {
			var pods struct {
				Items []struct {
					Spec struct {
						Affinity *struct {
							NodeAffinity *struct {
								Required *struct {
									NodeSelectorTerms []struct {
										MatchFields []struct {
											Values []string `json:"values"`
										} `json:"matchFields"`
									} `json:"nodeSelectorTerms"`
								} `json:"requiredDuringSchedulingIgnoredDuringExecution"`
							} `json:"nodeAffinity"`
						} `json:"affinity"`
					} `json:"spec"`
				} `json:"items"`
			}
			if err := getJSON([]string{"-n", ns, "pods", "-l", sel}, &pods); err != nil {
				return false, err
			}
			for _, p := range pods.Items {
				if node == "" {
					return true, nil
				}
				// DaemonSet pods name their node in a matchFields affinity.
				if a := p.Spec.Affinity; a != nil && a.NodeAffinity != nil && a.NodeAffinity.Required != nil {
					for _, term := range a.NodeAffinity.Required.NodeSelectorTerms {
						for _, f := range term.MatchFields {
							for _, v := range f.Values {
								if v == node {
									return true, nil
								}
							}
						}
					}
				}
			}
			ev, _ := kubectl("", "-n", ns, "get", "events", "--field-selector", "reason=FailedCreate", "-o", "custom-columns=OBJ:.involvedObject.name,MSG:.message", "--no-headers")
			return false, fmt.Errorf("no pod yet; FailedCreate events: %s", strings.TrimSpace(ev))
		})
	}
}

// checkRenderedManifests looks at what each overlay renders: every image is
// pinned, the kubelet directory is the overlay's own everywhere, and the
// controller container keeps its promised security context.
func checkRenderedManifests(t *testing.T) {
	t.Helper()
	checkMetricsServices(t)
	checkInlineComponent(t)
	kubeletDirs := map[string]string{
		"manifests/overlays/default":             "/var/lib/kubelet",
		"manifests/overlays/k3s":                 "/var/lib/kubelet",
		"manifests/overlays/k0s":                 "/var/lib/k0s/kubelet",
		"manifests/overlays/microk8s":            "/var/snap/microk8s/common/var/lib/kubelet",
		"manifests/overlays/windows":             "/var/lib/kubelet",
		"manifests/overlays/windows-hostprocess": "/var/lib/kubelet",
	}
	for dir, kdir := range kubeletDirs {
		out := mustKubectl(t, "", "kustomize", filepath.Join(env.repo, dir))
		for _, l := range strings.Split(out, "\n") {
			l = strings.TrimSpace(l)
			if img, ok := strings.CutPrefix(l, "image: "); ok {
				if i := strings.LastIndex(img, ":"); i < 0 || !strings.HasPrefix(img[i+1:], "v") {
					t.Errorf("%s: image %q is not pinned to a version", dir, img)
				}
			}
			if strings.Contains(l, "/kubelet") && !strings.Contains(l, `\`) && !strings.Contains(l, kdir) {
				t.Errorf("%s: %q does not use the kubelet directory %s", dir, l, kdir)
			}
		}
	}
}

// renderedObject is what checkMetricsServices reads of a rendered object.
type renderedObject struct {
	Kind     string `yaml:"kind"`
	Metadata struct {
		Name string `yaml:"name"`
	} `yaml:"metadata"`
	Spec struct {
		Selector map[string]any `yaml:"selector"` // a Service's labels; a workload's matchLabels
		Ports    []struct {
			Name       string `yaml:"name"`
			TargetPort any    `yaml:"targetPort"`
		} `yaml:"ports"`
		Template struct {
			Metadata struct {
				Labels map[string]string `yaml:"labels"`
			} `yaml:"metadata"`
			Spec struct {
				Containers []struct {
					Name string `yaml:"name"`
					Env  []struct {
						Name  string `yaml:"name"`
						Value string `yaml:"value"`
					} `yaml:"env"`
					Args  []string `yaml:"args"`
					Ports []struct {
						Name          string `yaml:"name"`
						ContainerPort int    `yaml:"containerPort"`
					} `yaml:"ports"`
				} `yaml:"containers"`
			} `yaml:"spec"`
		} `yaml:"template"`
	} `yaml:"spec"`
}

// render is `kubectl kustomize` of dir (absolute, or in the repository).
func render(t *testing.T, dir string) []renderedObject {
	t.Helper()
	if !filepath.IsAbs(dir) {
		dir = filepath.Join(env.repo, dir)
	}
	dec := yaml.NewDecoder(strings.NewReader(mustKubectl(t, "", "kustomize", dir)))
	var out []renderedObject
	for {
		var o renderedObject
		if err := dec.Decode(&o); err == io.EOF {
			return out
		} else if err != nil {
			t.Fatalf("%s: %v", dir, err)
		}
		out = append(out, o)
	}
}

// checkMetricsServices: every metrics Service in manifests/monitoring
// selects workloads of the install that serve metrics on the port it
// targets, so the ServiceMonitor scrapes every controller and node plugin.
func checkMetricsServices(t *testing.T) {
	t.Helper()
	var workloads []renderedObject
	for _, dir := range []string{"manifests/overlays/windows", "manifests/overlays/windows-hostprocess"} {
		for _, o := range render(t, dir) {
			if o.Kind == "Deployment" || o.Kind == "DaemonSet" {
				workloads = append(workloads, o)
			}
		}
	}
	scraped := map[string]bool{}
	for _, svc := range render(t, "manifests/monitoring") {
		if svc.Kind != "Service" {
			continue
		}
		if len(svc.Spec.Ports) != 1 || svc.Spec.Ports[0].Name != "metrics" {
			t.Errorf("Service %s: want one port named metrics (the ServiceMonitor's), have %+v", svc.Metadata.Name, svc.Spec.Ports)
			continue
		}
		target := fmt.Sprint(svc.Spec.Ports[0].TargetPort)
		matched := 0
	workload:
		for _, w := range workloads {
			for k, v := range svc.Spec.Selector {
				if w.Spec.Template.Metadata.Labels[k] != fmt.Sprint(v) {
					continue workload
				}
			}
			matched++
			serves := false
			for _, c := range w.Spec.Template.Spec.Containers {
				for _, p := range c.Ports {
					if (p.Name == target || strconv.Itoa(p.ContainerPort) == target) && slices.Contains(c.Args, fmt.Sprintf("--metrics-address=:%d", p.ContainerPort)) {
						serves = true
					}
				}
			}
			if !serves {
				t.Errorf("Service %s targets port %s of %s %s, where no container serves metrics", svc.Metadata.Name, target, w.Kind, w.Metadata.Name)
			}
			scraped[w.Metadata.Name] = true
		}
		if matched == 0 {
			t.Errorf("Service %s selects no workload of the install", svc.Metadata.Name)
		}
	}
	for _, w := range workloads {
		if !scraped[w.Metadata.Name] {
			t.Errorf("%s %s: no metrics Service in manifests/monitoring selects it", w.Kind, w.Metadata.Name)
		}
	}
}

// checkInlineComponent uses manifests/components/inline-volumes from an
// overlay of each cluster kind, as docs/inline-volumes.md says, and checks that the
// API server accepts the result, that the CSIDriver then allows Ephemeral
// volumes and that every node plugin gets an allow-list.
func checkInlineComponent(t *testing.T) {
	t.Helper()
	for _, overlay := range []string{"default", "k0s", "microk8s", "windows", "windows-hostprocess"} {
		dir := filepath.Join(env.work, "inline-"+overlay)
		withComponent(t, "manifests/overlays/"+overlay, "manifests/components/inline-volumes", dir)
		if _, err := kubectl("", "apply", "--dry-run=server", "-k", dir); err != nil {
			t.Errorf("overlay %s with the inline-volumes component: the API server rejects it: %v", overlay, err)
			continue
		}
		out := mustKubectl(t, "", "kustomize", dir)
		if !strings.Contains(out, "- Ephemeral") {
			t.Errorf("overlay %s with the inline-volumes component: the CSIDriver does not allow Ephemeral volumes", overlay)
		}
		for with, d := range map[bool]string{true: dir, false: filepath.Join(env.repo, "manifests/overlays", overlay)} {
			nodes := 0
			for _, o := range render(t, d) {
				if o.Kind != "DaemonSet" {
					continue
				}
				nodes++
				if got := inlineSourcesOf(o); with && got == "" || !with && got != "" {
					t.Errorf("overlay %s (inline-volumes component: %v): DaemonSet %s allows inline sources %q", overlay, with, o.Metadata.Name, got)
				}
			}
			if nodes == 0 {
				t.Errorf("overlay %s: no node DaemonSet", overlay)
			}
		}
	}
}

// inlineSourcesOf is the allow-list a node DaemonSet's plugin gets: the
// INLINE_SOURCES its --inline-sources argument expands, "" for none (also
// when the argument is missing).
func inlineSourcesOf(ds renderedObject) string {
	for _, c := range ds.Spec.Template.Spec.Containers {
		if c.Name != "fileshare-csi" || !slices.Contains(c.Args, "--inline-sources=$(INLINE_SOURCES)") {
			continue
		}
		for _, e := range c.Env {
			if e.Name == "INLINE_SOURCES" {
				return e.Value
			}
		}
	}
	return ""
}
