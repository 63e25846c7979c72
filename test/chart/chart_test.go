//go:build linux

// Package chart checks the Helm chart's optional values offline, with
// `helm template` and `kubectl kustomize` and no cluster: each value renders
// the objects its kustomize component makes over the quickstart. `make
// test-k8s` compares the cluster kinds' renderings and has an API server
// accept them; this covers the values that have a component instead of an
// overlay, in `make test-unit`, once helm is built (test/k8s/build.sh).
package chart

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/fileshare-csi/fileshare-csi/test/cluster"
)

const repo = "../.."

// tool finds a binary: in the directories of FILESHARE_K8S_BIN (as make
// test-k8s passes them), on the PATH, or in test/k8s/build.sh's default
// caches.
func tool(t *testing.T, name string) string {
	t.Helper()
	dirs := filepath.SplitList(os.Getenv("FILESHARE_K8S_BIN"))
	dirs = append(dirs, filepath.SplitList(os.Getenv("PATH"))...)
	home, _ := os.UserHomeDir()
	for _, c := range []string{"/var/cache/fileshare-csi-k8s", filepath.Join(home, ".cache/fileshare-csi-k8s")} {
		m, _ := filepath.Glob(filepath.Join(c, "*", "bin"))
		dirs = append(dirs, m...)
	}
	for _, d := range dirs {
		p := filepath.Join(d, name)
		if fi, err := os.Stat(p); err == nil && fi.Mode().IsRegular() && fi.Mode()&0o111 != 0 {
			return p
		}
	}
	t.Skipf("no %s on the PATH or in test/k8s/build.sh's cache: run `make test-k8s` once, which builds it", name)
	return ""
}

func run(t *testing.T, bin string, args ...string) string {
	t.Helper()
	cmd := exec.Command(bin, args...)
	// Helm's configuration and cache stay out of the home directory.
	h := t.TempDir()
	cmd.Env = append(os.Environ(), "HELM_CONFIG_HOME="+h, "HELM_CACHE_HOME="+h, "HELM_DATA_HOME="+h)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("%s %s: %v\n%s", filepath.Base(bin), strings.Join(args, " "), err, stderr.String())
	}
	return stdout.String()
}

// overlayWith renders the default overlay with the components over it.
func overlayWith(t *testing.T, kubectl string, components ...string) map[string]any {
	t.Helper()
	// kustomize wants paths below its root, relative to the kustomization.
	dir, err := os.MkdirTemp(filepath.Join(repo, "test", "chart"), ".kustomize-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	k := "resources:\n  - ../../../manifests/overlays/default\n"
	if len(components) > 0 {
		k += "components:\n"
		for _, c := range components {
			k += "  - ../../../manifests/components/" + c + "\n"
		}
	}
	if err := os.WriteFile(filepath.Join(dir, "kustomization.yaml"), []byte(k), 0o644); err != nil {
		t.Fatal(err)
	}
	objs := cluster.MustObjects(t, "kustomize "+strings.Join(components, "+"), run(t, kubectl, "kustomize", dir))
	// The namespace is helm's to make (--create-namespace).
	delete(objs, "Namespace/<nil>/fileshare-csi")
	return objs
}

func chart(t *testing.T, helm string, set ...string) map[string]any {
	t.Helper()
	args := []string{"template", "fileshare-csi", filepath.Join(repo, "charts/fileshare-csi"), "--namespace", "fileshare-csi"}
	for _, s := range set {
		args = append(args, "--set", s)
	}
	return cluster.MustObjects(t, "helm template "+strings.Join(set, " "), run(t, helm, args...))
}

// container is the named container of a Deployment or DaemonSet, and the
// pod's volumes, as the normalized objects hold them.
func container(t *testing.T, objs map[string]any, key, name string) (c map[string]any, volumes []any) {
	t.Helper()
	o, _ := objs[key].(map[string]any)
	spec, _ := dig(o, "spec", "template", "spec").(map[string]any)
	if spec == nil {
		t.Fatalf("no %s", key)
	}
	cs, _ := spec["containers"].([]any)
	for _, x := range cs {
		if m, _ := x.(map[string]any); m["name"] == name {
			v, _ := spec["volumes"].([]any)
			return m, v
		}
	}
	t.Fatalf("%s has no container %s", key, name)
	return nil, nil
}

func dig(v any, path ...string) any {
	for _, p := range path {
		m, _ := v.(map[string]any)
		v = m[p]
	}
	return v
}

// named returns the element of a list of objects with that name.
func named(l any, name string) map[string]any {
	s, _ := l.([]any)
	for _, x := range s {
		if m, _ := x.(map[string]any); m["name"] == name {
			return m
		}
	}
	return nil
}

func env(c map[string]any, name string) any { return named(c["env"], name)["value"] }

const (
	controllerKey = "Deployment/fileshare-csi/fileshare-csi-controller"
	nodeKey       = "DaemonSet/fileshare-csi/fileshare-csi-node"
)

// Off by default, in both installs: the flags are given with the driver's
// own defaults, and nothing of Kerberos is mounted.
func TestKerberosIsOffByDefault(t *testing.T) {
	helm, kubectl := tool(t, "helm"), tool(t, "kubectl")
	got := chart(t, helm)
	for _, d := range cluster.CompareObjects("default overlay", overlayWith(t, kubectl), "chart", got) {
		t.Error(d)
	}
	c, vols := container(t, got, controllerKey, "fileshare-csi")
	if !slices.Contains(toStrings(c["args"]), "--krb5-config=$(KRB5_CONFIG_FILE)") || env(c, "KRB5_CONFIG_FILE") != "/etc/krb5.conf" {
		t.Errorf("controller: want --krb5-config at its default /etc/krb5.conf, got args %v env %v", c["args"], c["env"])
	}
	if named(vols, "krb5-config") != nil {
		t.Error("controller: a krb5-config volume without controller.krb5Config.configMap")
	}
	n, nvols := container(t, got, nodeKey, "fileshare-csi")
	if !slices.Contains(toStrings(n["args"]), "--krb5-host-tickets=$(KRB5_HOST_TICKETS)") || env(n, "KRB5_HOST_TICKETS") != "false" {
		t.Errorf("node: want --krb5-host-tickets=false, got args %v env %v", n["args"], n["env"])
	}
	for _, v := range nvols {
		if m, _ := v.(map[string]any); strings.HasPrefix(m["name"].(string), "krb5") {
			t.Errorf("node: volume %v without node.krb5HostTickets", m)
		}
	}
}

// controller.krb5Config.configMap and node.krb5HostTickets render what
// manifests/components/krb5-config and krb5-host-tickets make, and that is
// what the driver needs: --krb5-config naming the file in the ConfigMap's
// mounted directory, --krb5-host-tickets=true, and the host's krb5.conf and
// keytab read-only at their own paths, as files.
func TestKerberosValuesRenderTheComponents(t *testing.T) {
	helm, kubectl := tool(t, "helm"), tool(t, "kubectl")
	got := chart(t, helm, "controller.krb5Config.configMap=fileshare-csi-krb5", "node.krb5HostTickets=true")
	want := overlayWith(t, kubectl, "krb5-config", "krb5-host-tickets")
	for _, d := range cluster.CompareObjects("overlay with the krb5 components", want, "chart", got) {
		t.Error(d)
	}

	c, vols := container(t, got, controllerKey, "fileshare-csi")
	mount := named(c["volumeMounts"], "krb5-config")
	file, _ := env(c, "KRB5_CONFIG_FILE").(string)
	if mount == nil || mount["readOnly"] != true || filepath.Dir(file) != mount["mountPath"] || filepath.Base(file) != "krb5.conf" {
		t.Errorf("controller: --krb5-config=%q is not krb5.conf in the read-only mount %v", file, mount)
	}
	if v := named(vols, "krb5-config"); dig(v, "configMap", "name") != "fileshare-csi-krb5" {
		t.Errorf("controller: volume krb5-config %v, want the ConfigMap fileshare-csi-krb5", v)
	}

	n, nvols := container(t, got, nodeKey, "fileshare-csi")
	if env(n, "KRB5_HOST_TICKETS") != "true" {
		t.Errorf("node: KRB5_HOST_TICKETS %v, want true", env(n, "KRB5_HOST_TICKETS"))
	}
	for _, p := range []string{"/etc/krb5.conf", "/etc/krb5.keytab"} {
		var m map[string]any
		for _, x := range toMaps(n["volumeMounts"]) {
			if x["mountPath"] == p {
				m = x
			}
		}
		if m == nil || m["readOnly"] != true {
			t.Errorf("node: %s is not mounted read-only: %v", p, m)
			continue
		}
		v := named(nvols, m["name"].(string))
		if dig(v, "hostPath", "path") != p || dig(v, "hostPath", "type") != "File" {
			t.Errorf("node: %s is mounted from %v, want the host's file at the same path", p, v)
		}
	}
	// The chart's list of host paths is the operator's to change.
	got = chart(t, helm, "node.krb5HostTickets=true", "node.krb5HostPaths[0].path=/var/lib/krb5cc", "node.krb5HostPaths[0].type=Directory")
	_, nvols = container(t, got, nodeKey, "fileshare-csi")
	if v := named(nvols, "krb5-host-0"); dig(v, "hostPath", "path") != "/var/lib/krb5cc" || dig(v, "hostPath", "type") != "Directory" {
		t.Errorf("node.krb5HostPaths: volume %v, want the directory /var/lib/krb5cc", v)
	}
}

// node.krb5CacheUIDs renders what manifests/components/krb5-ticket-caches
// makes: the range in KRB5_CACHE_UIDS (--krb5-cache-uids) and the host's
// /tmp at /host/tmp, where --krb5-cache-path writes each uid's cache.
func TestKerberosCacheValuesRenderTheComponent(t *testing.T) {
	helm, kubectl := tool(t, "helm"), tool(t, "kubectl")
	got := chart(t, helm, "node.krb5CacheUIDs=40000-40099")
	for _, d := range cluster.CompareObjects("overlay with krb5-ticket-caches", overlayWith(t, kubectl, "krb5-ticket-caches"), "chart", got) {
		t.Error(d)
	}
	n, nvols := container(t, got, nodeKey, "fileshare-csi")
	if !slices.Contains(toStrings(n["args"]), "--krb5-cache-uids=$(KRB5_CACHE_UIDS)") || env(n, "KRB5_CACHE_UIDS") != "40000-40099" {
		t.Errorf("node: want --krb5-cache-uids=40000-40099, got args %v env %v", n["args"], n["env"])
	}
	m := named(n["volumeMounts"], "krb5-cache-dir")
	if m == nil || m["mountPath"] != "/host/tmp" {
		t.Errorf("node: the host's cache directory is mounted as %v, want at /host/tmp", m)
	}
	if v := named(nvols, "krb5-cache-dir"); dig(v, "hostPath", "path") != "/tmp" || dig(v, "hostPath", "type") != "Directory" {
		t.Errorf("node: volume %v, want the host's /tmp", v)
	}
}

func toStrings(v any) []string {
	var out []string
	l, _ := v.([]any)
	for _, x := range l {
		if s, ok := x.(string); ok {
			out = append(out, s)
		}
	}
	return out
}

func toMaps(v any) []map[string]any {
	var out []map[string]any
	l, _ := v.([]any)
	for _, x := range l {
		if m, ok := x.(map[string]any); ok {
			out = append(out, m)
		}
	}
	return out
}

// The sidecars serve /healthz/leader-election only with leader election
// (csi-lib-utils): without it, a liveness probe on that path gets a 404 and
// restarts them every half minute. controller.leaderElection=false renders
// neither the flags nor the probes; the default renders both.
func TestLeaderElectionOffRendersNoProbeOnItsHealthPath(t *testing.T) {
	helm := tool(t, "helm")
	for _, on := range []bool{true, false} {
		got := chart(t, helm, "controller.leaderElection="+map[bool]string{true: "true", false: "false"}[on])
		for _, name := range []string{"csi-provisioner", "csi-resizer", "csi-snapshotter"} {
			o, _ := got[controllerKey].(map[string]any)
			cs, _ := dig(o, "spec", "template", "spec", "containers").([]any)
			c := named(cs, name)
			if c == nil {
				continue // the snapshotter comes with snapshots.enabled
			}
			probed := dig(c, "livenessProbe", "httpGet", "path") == "/healthz/leader-election"
			flagged := slices.Contains(toStrings(c["args"]), "--leader-election")
			if probed != on || flagged != on {
				t.Errorf("leaderElection=%v: %s probes /healthz/leader-election %v, has --leader-election %v", on, name, probed, flagged)
			}
		}
	}
}
