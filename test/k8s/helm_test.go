//go:build linux

package k8s

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/fileshare-csi/fileshare-csi/test/cluster"
	"github.com/fileshare-csi/fileshare-csi/test/localservers"
)

// helmTemplate renders charts/fileshare-csi with the values given.
func helmTemplate(t *testing.T, namespace string, set ...string) string {
	t.Helper()
	args := []string{"template", "fileshare-csi", filepath.Join(env.repo, "charts/fileshare-csi"), "--namespace", namespace}
	for _, s := range set {
		args = append(args, "--set", s)
	}
	return mustHelm(t, args...)
}

// checkChartMatchesOverlays renders the chart as each cluster kind's overlay
// would install it and compares object by object; then lints the chart and
// has the API server accept every rendering.
func checkChartMatchesOverlays(t *testing.T) {
	t.Helper()
	mustHelm(t, "lint", filepath.Join(env.repo, "charts/fileshare-csi"))
	for overlay, set := range map[string][]string{
		"default":             nil,
		"k3s":                 nil,
		"k0s":                 {"kubeletDir=/var/lib/k0s/kubelet"},
		"microk8s":            {"kubeletDir=/var/snap/microk8s/common/var/lib/kubelet"},
		"windows":             {"windows.mode=csi-proxy"},
		"windows-hostprocess": {"windows.mode=hostprocess"},
		// The default overlay with the snapshot component over it.
		"default+snapshots": {"snapshots.enabled=true"},
	} {
		chart := helmTemplate(t, "fileshare-csi", set...)
		dir := filepath.Join(env.repo, "manifests/overlays", overlay)
		if base, ok := strings.CutSuffix(overlay, "+snapshots"); ok {
			dir = filepath.Join(env.work, "snapshots-"+base)
			installSnapshotComponentDir(t, "manifests/overlays/"+base, dir)
		}
		want := cluster.MustObjects(t, "overlay "+overlay, mustKubectl(t, "", "kustomize", dir))
		got := cluster.MustObjects(t, "chart for "+overlay, chart)
		// The namespace is helm's to make (--create-namespace); the
		// overlay's carries the Pod Security labels docs/install.md asks for.
		delete(want, "Namespace/<nil>/fileshare-csi")
		for _, d := range cluster.CompareObjects("overlay", want, "chart", got) {
			t.Errorf("%s: %s", overlay, d)
		}
		f := filepath.Join(env.work, "chart-"+overlay+".yaml")
		if err := os.WriteFile(f, []byte(chart), 0o644); err != nil {
			t.Fatal(err)
		}
		if _, err := kubectl("", "apply", "--dry-run=server", "-f", f); err != nil {
			t.Errorf("the API server rejects the chart rendered for %s: %v", overlay, err)
		}
	}

	// StorageClasses from values, an SMB one with its Secret wired to every
	// secret parameter, and inline volumes turned on.
	chart := helmTemplate(t, "fileshare-csi",
		`storageClasses[0].name=smb`, `storageClasses[0].source=smb://fs.example.com/share/k8s`,
		`storageClasses[0].onDelete=archive`, `storageClasses[0].mountOptions={vers=3.0,mfsymlinks}`,
		`storageClasses[0].secret.username=k8s`, `storageClasses[0].secret.password=pw`,
		`storageClasses[1].name=nfs`, `storageClasses[1].source=nfs://nas.example.com/export`,
		`node.inlineSources=nfs://nas.example.com/scratch`)
	objs := cluster.MustObjects(t, "chart with StorageClasses", chart)
	smb, _ := objs["StorageClass/<nil>/smb"].(map[string]any)
	params, _ := smb["parameters"].(map[string]any)
	for _, k := range []string{"provisioner", "controller-expand", "node-stage"} {
		if params["csi.storage.k8s.io/"+k+"-secret-name"] != "smb-creds" || params["csi.storage.k8s.io/"+k+"-secret-namespace"] != "fileshare-csi" {
			t.Errorf("StorageClass smb: %s secret parameters %v", k, params)
		}
	}
	if _, ok := objs["Secret/fileshare-csi/smb-creds"]; !ok {
		t.Error("no Secret smb-creds for the SMB StorageClass")
	}
	if nfs, _ := objs["StorageClass/<nil>/nfs"].(map[string]any); nfs == nil || fmt.Sprint(nfs["parameters"]) != "map[onDelete:delete source:nfs://nas.example.com/export]" {
		t.Errorf("StorageClass nfs: %v", nfs)
	}
	if !strings.Contains(chart, "- Ephemeral") || !strings.Contains(chart, "value: \"nfs://nas.example.com/scratch\"") {
		t.Error("node.inlineSources does not turn on inline volumes")
	}
	f := filepath.Join(env.work, "chart-classes.yaml")
	if err := os.WriteFile(f, []byte(chart), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := kubectl("", "apply", "--dry-run=server", "-f", f); err != nil {
		t.Errorf("the API server rejects the chart with StorageClasses: %v", err)
	}
}

// The release test-k8s installs; the namespace differs from the release
// name, so a template that confuses the two shows.
const (
	chartRelease  = "fscsi"
	chartNS       = "fscsi-system"
	chartClaimsNS = "team-chart"
)

// helm runs helm against the test's control plane, with its configuration,
// cache and data in the scratch directory rather than in the home directory
// of whoever runs the test. It returns stdout only: warnings on stderr would
// spoil the YAML and JSON read from it.
func helm(t *testing.T, args ...string) (string, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, findBin(t, "helm"), append(args, "--kubeconfig", env.h.AdminKC)...)
	home := filepath.Join(env.work, "helm")
	cmd.Env = append(os.Environ(),
		"HELM_CONFIG_HOME="+filepath.Join(home, "config"),
		"HELM_CACHE_HOME="+filepath.Join(home, "cache"),
		"HELM_DATA_HOME="+filepath.Join(home, "data"))
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		return stdout.String(), fmt.Errorf("helm %s: %w\n%s%s", strings.Join(args, " "), err, stdout.String(), stderr.String())
	}
	return stdout.String(), nil
}

func mustHelm(t *testing.T, args ...string) string {
	t.Helper()
	out, err := helm(t, args...)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// testChartInstall installs the chart with helm and provisions through it:
// our controller and csi-provisioner with the arguments of the chart's
// Deployment and a token of the chart's ServiceAccount, claims of the
// chart's StorageClasses against the loopback servers, then helm uninstall,
// which must leave nothing of the release behind.
func testChartInstall(t *testing.T, cp *cluster.ControlPlane, driverBin string, sh shares, step func(string, ...any)) {
	subDir := "${pvc.metadata.namespace}/${pvc.metadata.name}"
	secret := map[string]string{"username": localservers.SMBUser, "password": localservers.SMBPassword}
	values := map[string]any{
		// A mixed cluster, as the kustomize part installs.
		"windows": map[string]any{"mode": "csi-proxy"},
		// Not the default, so that the controller run below is seen to run
		// with the chart's arguments.
		"controller": map[string]any{"maxSessionsPerShare": 8},
		"storageClasses": []map[string]any{
			{"name": "chart-nfs-delete", "source": sh.nfsSource, "subDir": subDir, "onDelete": "delete"},
			{"name": "chart-nfs-retain", "source": sh.nfsSource, "subDir": subDir, "onDelete": "retain", "mountPermissions": "0770"},
			{"name": "chart-smb-archive", "source": sh.smbSource, "subDir": subDir, "onDelete": "archive",
				"mountOptions": []string{"dir_mode=0777", "file_mode=0777", "mfsymlinks"}, "secret": secret},
			// As values.yaml's example: no subDir and, here, no onDelete.
			{"name": "chart-smb-delete", "source": sh.smbSource, "secret": secret},
		},
	}
	cases := []claimCase{
		// No mountPermissions in the class: the driver's default, 0777.
		{claim: "nfs-delete", class: "chart-nfs-delete", onDelete: "delete", base: sh.nfsBase, nfs: true, mode: 0o777},
		{claim: "nfs-retain", class: "chart-nfs-retain", onDelete: "retain", base: sh.nfsBase, nfs: true, mode: 0o770},
		{claim: "smb-archive", class: "chart-smb-archive", onDelete: "archive", base: sh.smbBase},
		{claim: "smb-delete", class: "chart-smb-delete", onDelete: "delete", base: sh.smbBase, byPVName: true},
	}
	b, err := json.Marshal(values)
	if err != nil {
		t.Fatal(err)
	}
	valuesFile := filepath.Join(env.work, "chart-values.json")
	if err := os.WriteFile(valuesFile, b, 0o600); err != nil {
		t.Fatal(err)
	}

	// No --wait: without a kubelet no pod ever becomes ready.
	mustHelm(t, "install", chartRelease, filepath.Join(env.repo, "charts/fileshare-csi"),
		"--namespace", chartNS, "--create-namespace", "--values", valuesFile)
	var releases []struct {
		Name, Namespace, Status string
	}
	if err := json.Unmarshal([]byte(mustHelm(t, "list", "--all-namespaces", "--output", "json")), &releases); err != nil {
		t.Fatalf("helm list: %v", err)
	}
	if len(releases) != 1 || releases[0].Name != chartRelease || releases[0].Namespace != chartNS || releases[0].Status != "deployed" {
		t.Fatalf("helm list: %+v, want %s in %s deployed", releases, chartRelease, chartNS)
	}
	step("helm install %s in %s: %d StorageClasses from values", chartRelease, chartNS, len(cases))

	if args := deploymentContainer(t, chartNS, "fileshare-csi").args(chartNS); !slices.Contains(args, "--max-sessions-per-share=8") {
		t.Errorf("the chart's controller does not run with controller.maxSessionsPerShare=8: %v", args)
	}
	d := startDriver(t, cp, driverBin, chartNS, "chart-")
	step("controller and csi-provisioner with the chart's arguments and ServiceAccount (leader in %s)", chartNS)

	mustKubectl(t, "", "create", "namespace", chartClaimsNS)
	for _, c := range cases {
		mustKubectl(t, claim(t, chartClaimsNS, c.claim, c.class), "apply", "-f", "-")
	}
	bound := bindClaims(t, chartClaimsNS, cases)
	step("%d claims of the chart's classes Bound, directories on both shares", len(cases))
	deleteClaims(t, chartClaimsNS, cases, bound)
	step("claims deleted: delete removed (NFS and SMB), retain kept, archive renamed")

	checkPods(t, chartNS)
	checkNotForbidden(t, d)
	step("the chart's workloads created their pods; no RBAC refusal")

	// The release's objects, to look for after the uninstall. The token the
	// driver uses dies with the ServiceAccount: stop it first.
	d.stop()
	rendered := mustHelm(t, "get", "manifest", chartRelease, "--namespace", chartNS)
	manifest := filepath.Join(env.work, "chart-manifest.yaml")
	if err := os.WriteFile(manifest, []byte(rendered), 0o644); err != nil {
		t.Fatal(err)
	}
	made := cluster.MustObjects(t, "the release's manifest", rendered)
	labelled := releaseObjects(t)
	for k := range made {
		if !labelled[k] {
			t.Errorf("%s of the release lacks helm's release label and annotations", k)
		}
	}
	if len(labelled) != len(made) {
		t.Errorf("%d objects carry the release's label and annotations, the manifest has %d", len(labelled), len(made))
	}

	mustHelm(t, "uninstall", chartRelease, "--namespace", chartNS, "--wait")
	if out := strings.TrimSpace(mustHelm(t, "list", "--all", "--all-namespaces", "--short")); out != "" {
		t.Errorf("helm list --all after the uninstall: %s", out)
	}
	if out := strings.TrimSpace(mustKubectl(t, "", "get", "-f", manifest, "--ignore-not-found", "-o", "name")); out != "" {
		t.Errorf("objects of the release left after the uninstall:\n%s", out)
	}
	for k := range releaseObjects(t) {
		t.Errorf("%s still carries the release's label after the uninstall", k)
	}
	var classes struct {
		Items []struct {
			Metadata    objMeta `json:"metadata"`
			Provisioner string  `json:"provisioner"`
		} `json:"items"`
	}
	if err := getJSON([]string{"storageclasses"}, &classes); err != nil {
		t.Fatal(err)
	}
	for _, c := range classes.Items {
		if c.Provisioner == "fileshare.csi.dev" {
			t.Errorf("StorageClass %s of fileshare.csi.dev left after the uninstall", c.Metadata.Name)
		}
	}
	// What the workloads made (ReplicaSet, ControllerRevisions, pods) the
	// garbage collector removes after them.
	waitFor(t, "the garbage collector to remove what the chart's workloads made", 60*time.Second, func() (bool, error) {
		out, err := kubectl("", "-n", chartNS, "get", "replicasets,controllerrevisions,pods", "-l", "app.kubernetes.io/name=fileshare-csi", "-o", "name")
		if err != nil || strings.TrimSpace(out) != "" {
			return false, fmt.Errorf("left: %q (%v)", out, err)
		}
		return true, nil
	})
	// helm uninstall leaves the namespace that --create-namespace made (with
	// the Leases csi-provisioner wrote there): deleting it is the user's call.
	step("helm uninstall --wait: no release, none of its %d objects, no StorageClass, no pod left", len(made))
}

// releaseObjects finds, among every kind the API server lists, the objects
// helm marked as the release's (its managed-by label and release
// annotations), keyed as cluster.Objects keys them.
func releaseObjects(t *testing.T) map[string]bool {
	t.Helper()
	kinds := strings.Fields(mustKubectl(t, "", "api-resources", "--verbs=list", "-o", "name"))
	var list struct {
		Items []struct {
			Kind     string `json:"kind"`
			Metadata struct {
				Name        string            `json:"name"`
				Namespace   string            `json:"namespace"`
				Annotations map[string]string `json:"annotations"`
			} `json:"metadata"`
		} `json:"items"`
	}
	if err := getJSON([]string{strings.Join(kinds, ","), "--all-namespaces", "-l", "app.kubernetes.io/managed-by=Helm"}, &list); err != nil {
		t.Fatal(err)
	}
	out := map[string]bool{}
	for _, o := range list.Items {
		a := o.Metadata.Annotations
		if a["meta.helm.sh/release-name"] != chartRelease || a["meta.helm.sh/release-namespace"] != chartNS {
			continue
		}
		ns := any(nil)
		if o.Metadata.Namespace != "" {
			ns = o.Metadata.Namespace
		}
		out[fmt.Sprintf("%s/%v/%s", o.Kind, ns, o.Metadata.Name)] = true
	}
	return out
}
