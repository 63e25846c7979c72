//go:build linux

package k8s

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

// helmTemplate renders charts/fileshare-csi with the values given.
func helmTemplate(t *testing.T, namespace string, set ...string) string {
	t.Helper()
	args := []string{"template", "fileshare-csi", filepath.Join(env.repo, "charts/fileshare-csi"), "--namespace", namespace}
	for _, s := range set {
		args = append(args, "--set", s)
	}
	out, err := exec.Command(findBin(t, "helm"), args...).CombinedOutput()
	if err != nil {
		t.Fatalf("helm %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return string(out)
}

// objectsOf decodes a multi-document YAML stream into objects keyed by
// kind/namespace/name. The chart and the kustomize install must agree on
// all of each object: images, arguments, environment, ports, volumes,
// security contexts, RBAC rules.
func objectsOf(t *testing.T, what, stream string) map[string]any {
	t.Helper()
	dec := yaml.NewDecoder(strings.NewReader(stream))
	out := map[string]any{}
	for {
		var o map[string]any
		if err := dec.Decode(&o); err != nil {
			if err.Error() == "EOF" {
				return out
			}
			t.Fatalf("%s: %v", what, err)
		}
		if o == nil {
			continue
		}
		md, _ := o["metadata"].(map[string]any)
		key := fmt.Sprintf("%v/%v/%v", o["kind"], md["namespace"], md["name"])
		out[key] = normalize(o)
	}
}

// normalize drops what only one side sets by its nature, the pull policy
// the chart makes explicit (the default for a tagged image is the same), and
// sorts lists of objects (containers, volumes, mounts, env, ports, rules):
// the API treats them as sets, and kustomize's patches reorder them.
// Lists of strings, such as args, keep their order.
func normalize(v any) any {
	switch x := v.(type) {
	case map[string]any:
		m := map[string]any{}
		for k, e := range x {
			if k == "imagePullPolicy" {
				continue
			}
			m[k] = normalize(e)
		}
		return m
	case []any:
		l := make([]any, len(x))
		for i, e := range x {
			l[i] = normalize(e)
		}
		sort.SliceStable(l, func(i, j int) bool {
			a, aok := l[i].(map[string]any)
			b, bok := l[j].(map[string]any)
			return aok && bok && sortKey(a) < sortKey(b)
		})
		return l
	}
	return v
}

func sortKey(m map[string]any) string {
	for _, k := range []string{"name", "mountPath"} {
		if v, ok := m[k]; ok {
			return fmt.Sprint(v)
		}
	}
	b, _ := json.Marshal(m)
	return string(b)
}

// checkChartMatchesOverlays renders the chart as each cluster kind's overlay
// would install it and compares object by object; then lints the chart and
// has the API server accept every rendering.
func checkChartMatchesOverlays(t *testing.T) {
	t.Helper()
	out, err := exec.Command(findBin(t, "helm"), "lint", filepath.Join(env.repo, "charts/fileshare-csi")).CombinedOutput()
	if err != nil {
		t.Fatalf("helm lint: %v\n%s", err, out)
	}
	for overlay, set := range map[string][]string{
		"default":             nil,
		"k3s":                 nil,
		"k0s":                 {"kubeletDir=/var/lib/k0s/kubelet"},
		"microk8s":            {"kubeletDir=/var/snap/microk8s/common/var/lib/kubelet"},
		"windows":             {"windows.mode=csi-proxy"},
		"windows-hostprocess": {"windows.mode=hostprocess"},
	} {
		chart := helmTemplate(t, "fileshare-csi", set...)
		want := objectsOf(t, "overlay "+overlay, mustKubectl(t, "", "kustomize", filepath.Join(env.repo, "manifests/overlays", overlay)))
		got := objectsOf(t, "chart for "+overlay, chart)
		// The namespace is helm's to make (--create-namespace); the
		// overlay's carries the Pod Security labels the README asks for.
		delete(want, "Namespace/<nil>/fileshare-csi")
		var keys []string
		for k := range want {
			keys = append(keys, k)
		}
		for k := range got {
			if _, ok := want[k]; !ok {
				keys = append(keys, k)
			}
		}
		sort.Strings(keys)
		for _, k := range keys {
			w, ok1 := want[k]
			g, ok2 := got[k]
			switch {
			case !ok2:
				t.Errorf("%s: the overlay has %s, the chart does not", overlay, k)
			case !ok1:
				t.Errorf("%s: the chart has %s, the overlay does not", overlay, k)
			case !reflect.DeepEqual(w, g):
				wb, _ := yaml.Marshal(w)
				gb, _ := yaml.Marshal(g)
				t.Errorf("%s: %s differs\n--- overlay\n%s\n--- chart\n%s", overlay, k, wb, gb)
			}
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
	objs := objectsOf(t, "chart with StorageClasses", chart)
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
