//go:build linux

package k8s

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// snapshotCRDs is where build.sh put the snapshot CRDs of the
// external-snapshotter release it built: beside its binaries.
func snapshotCRDs(t *testing.T) string {
	t.Helper()
	return filepath.Join(filepath.Dir(findBin(t, "csi-snapshotter")), "crd")
}

// installSnapshotComponent applies overlay with manifests/components/snapshots
// over it, as a user opting in would.
func installSnapshotComponent(t *testing.T, overlay string) {
	t.Helper()
	dir := filepath.Join(env.work, "snapshots-"+filepath.Base(overlay))
	installSnapshotComponentDir(t, overlay, dir)
	mustKubectl(t, "", "apply", "-k", dir)
}

// installSnapshotComponentDir writes into dir a kustomization of overlay
// with manifests/components/snapshots over it.
func installSnapshotComponentDir(t *testing.T, overlay, dir string) {
	t.Helper()
	withComponent(t, overlay, "manifests/components/snapshots", dir)
}

// withComponent writes into dir a kustomization of overlay with component
// over it, both paths from the repository's root.
func withComponent(t *testing.T, overlay, component, dir string) {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	rel := func(p string) string {
		r, err := filepath.Rel(dir, filepath.Join(env.repo, p))
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	k := fmt.Sprintf("resources:\n  - %s\ncomponents:\n  - %s\n", rel(overlay), rel(component))
	if err := os.WriteFile(filepath.Join(dir, "kustomization.yaml"), []byte(k), 0o644); err != nil {
		t.Fatal(err)
	}
}

// startSnapshotter runs snapshot-controller (the cluster's, with the admin's
// credentials) and csi-snapshotter with the arguments of the controller
// Deployment in ns and that install's ServiceAccount, so that the
// component's RBAC is what it gets.
func startSnapshotter(t *testing.T, ns, sock string) (controller, sidecar *proc) {
	t.Helper()
	controller = start(t, "snapshot-controller", findBin(t, "snapshot-controller"),
		"--kubeconfig="+env.h.AdminKC, "--leader-election=false", "--feature-gates=CSIVolumeGroupSnapshot=true", "--v=4")
	c := deploymentContainer(t, ns, "csi-snapshotter")
	var args []string
	for _, a := range c.args(ns) {
		switch {
		case strings.HasPrefix(a, "--csi-address="):
			a = "--csi-address=" + sock
		case strings.HasPrefix(a, "--http-endpoint="):
			a = fmt.Sprintf("--http-endpoint=127.0.0.1:%d", freePort(t))
		}
		args = append(args, a)
	}
	for _, want := range []string{"--csi-address=" + sock, "--leader-election", "--feature-gates=CSIVolumeGroupSnapshot=true"} {
		if !slices.Contains(args, want) {
			t.Errorf("the Deployment's csi-snapshotter lacks %s: %v", want, c.Args)
		}
	}
	saKC := filepath.Join(env.work, "cp", "controller-sa.kubeconfig")
	sidecar = start(t, "csi-snapshotter", findBin(t, "csi-snapshotter"), append(args, "--kubeconfig="+saKC, "--v=4")...)
	t.Cleanup(func() {
		sidecar.Stop(10 * time.Second)
		controller.Stop(10 * time.Second)
	})
	return controller, sidecar
}

type readyStatus struct {
	Status struct {
		ReadyToUse *bool `json:"readyToUse"`
		Error      *struct {
			Message string `json:"message"`
		} `json:"error"`
	} `json:"status"`
}

// waitReady waits for a VolumeSnapshot or VolumeGroupSnapshot to be ready.
func waitReady(t *testing.T, ns, kind, name string) {
	t.Helper()
	waitFor(t, kind+" "+name+" to be ready to use", 2*time.Minute, func() (bool, error) {
		var s readyStatus
		if err := getJSON([]string{"-n", ns, kind, name}, &s); err != nil {
			return false, err
		}
		if s.Status.Error != nil {
			return false, fmt.Errorf("error: %s", s.Status.Error.Message)
		}
		return s.Status.ReadyToUse != nil && *s.Status.ReadyToUse, nil
	})
}

// checkSnapshots: with the component installed, a VolumeSnapshot of an NFS
// and of an SMB claim become ready, a claim restored from one and a claim
// cloned from another hold the source's data, a VolumeGroupSnapshot of two
// claims picked by a label becomes ready, and deleting them all removes
// every copy from the share.
func checkSnapshots(t *testing.T, ns string, sh shares, step func(string, ...any)) {
	installSnapshotComponent(t, "manifests/overlays/windows")
	controller, sidecar := startSnapshotter(t, "fileshare-csi", filepath.Join(env.work, "csi", "csi.sock"))
	mustKubectl(t, "", "apply", "-k", filepath.Join(env.repo, "manifests/examples/snapshots"))
	step("snapshot component installed; snapshot-controller and csi-snapshotter running; example snapshot classes")

	src := filepath.Join(sh.nfsBase, ns, "data-delete")
	if err := os.WriteFile(filepath.Join(src, "hello.txt"), []byte("snapshot me"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(sh.smbBase, ns, "smb-data", "hello.txt"), []byte("smb data"), 0o666); err != nil {
		t.Fatal(err)
	}
	snapshot := func(name, claim string) string {
		return fmt.Sprintf(`apiVersion: snapshot.storage.k8s.io/v1
kind: VolumeSnapshot
metadata:
  name: %s
  namespace: %s
spec:
  volumeSnapshotClassName: fileshare
  source:
    persistentVolumeClaimName: %s
`, name, ns, claim)
	}
	mustKubectl(t, snapshot("nfs-snap", "data-delete")+"---\n"+snapshot("smb-snap", "smb-data"), "apply", "-f", "-")
	waitReady(t, ns, "volumesnapshot", "nfs-snap")
	waitReady(t, ns, "volumesnapshot", "smb-snap")
	step("VolumeSnapshots of an NFS and an SMB claim ReadyToUse")

	// The source changes after the snapshot; the restore has what was there.
	if err := os.WriteFile(filepath.Join(src, "hello.txt"), []byte("changed later"), 0o644); err != nil {
		t.Fatal(err)
	}
	withSource := func(name, class, kind, apiGroup, from string) string {
		c := claim(t, ns, name, class)
		group := ""
		if apiGroup != "" {
			group = "\n    apiGroup: " + apiGroup
		}
		return c + fmt.Sprintf("\n  dataSource:\n    kind: %s%s\n    name: %s\n", kind, group, from)
	}
	mustKubectl(t, withSource("restored", "nfs-delete", "VolumeSnapshot", "snapshot.storage.k8s.io", "nfs-snap"), "apply", "-f", "-")
	mustKubectl(t, withSource("cloned", "nfs-delete", "PersistentVolumeClaim", "", "data-delete"), "apply", "-f", "-")
	mustKubectl(t, withSource("smb-restored", "fileshare-smb", "VolumeSnapshot", "snapshot.storage.k8s.io", "smb-snap"), "apply", "-f", "-")
	restored := bindClaims(t, ns, []claimCase{
		{claim: "restored", class: "nfs-delete", onDelete: "delete", base: sh.nfsBase, nfs: true, mode: 0o777},
		{claim: "cloned", class: "nfs-delete", onDelete: "delete", base: sh.nfsBase, nfs: true, mode: 0o777},
		{claim: "smb-restored", class: "fileshare-smb", onDelete: "archive", base: sh.smbBase},
	})
	for p, want := range map[string]string{
		filepath.Join(sh.nfsBase, ns, "restored", "hello.txt"):     "snapshot me",
		filepath.Join(sh.nfsBase, ns, "cloned", "hello.txt"):       "changed later",
		filepath.Join(sh.smbBase, ns, "smb-restored", "hello.txt"): "smb data",
	} {
		if b, err := os.ReadFile(p); err != nil || string(b) != want {
			t.Errorf("%s: %q, %v; want %q", p, b, err, want)
		}
	}
	step("claims restored from the snapshots and cloned from a claim are Bound with the source's data")

	// A group snapshot of the two NFS claims that carry a label.
	for _, c := range []string{"data-delete", "data-retain"} {
		mustKubectl(t, "", "-n", ns, "label", "pvc", c, "backup=nightly")
	}
	mustKubectl(t, fmt.Sprintf(`apiVersion: groupsnapshot.storage.k8s.io/v1beta2
kind: VolumeGroupSnapshot
metadata:
  name: nightly
  namespace: %s
spec:
  volumeGroupSnapshotClassName: fileshare
  source:
    selector:
      matchLabels:
        backup: nightly
`, ns), "apply", "-f", "-")
	waitReady(t, ns, "volumegroupsnapshot", "nightly")
	var members struct {
		Items []struct {
			Metadata struct {
				OwnerReferences []struct {
					Kind string `json:"kind"`
				} `json:"ownerReferences"`
			} `json:"metadata"`
			Spec struct {
				Source struct {
					PVC string `json:"persistentVolumeClaimName"`
				} `json:"source"`
			} `json:"spec"`
		} `json:"items"`
	}
	if err := getJSON([]string{"-n", ns, "volumesnapshot"}, &members); err != nil {
		t.Fatal(err)
	}
	var grouped []string
	for _, m := range members.Items {
		for _, o := range m.Metadata.OwnerReferences {
			if o.Kind == "VolumeGroupSnapshot" {
				grouped = append(grouped, m.Spec.Source.PVC)
			}
		}
	}
	slices.Sort(grouped)
	if !slices.Equal(grouped, []string{"data-delete", "data-retain"}) {
		t.Errorf("the group snapshot's members are of %v, want data-delete and data-retain", grouped)
	}
	step("VolumeGroupSnapshot of the claims labelled backup=nightly ReadyToUse, one member each")

	// Deleting everything removes every copy from the shares.
	mustKubectl(t, "", "-n", ns, "delete", "volumegroupsnapshot", "nightly")
	mustKubectl(t, "", "-n", ns, "delete", "volumesnapshot", "nfs-snap", "smb-snap")
	// A group's members go with its VolumeGroupSnapshotContent, whose
	// deletion (DeleteVolumeGroupSnapshot) may end after theirs.
	waitFor(t, "the VolumeSnapshotContents and VolumeGroupSnapshotContents to be deleted", 2*time.Minute, func() (bool, error) {
		out, err := kubectl("", "get", "volumesnapshotcontents,volumegroupsnapshotcontents", "-o", "name")
		return err == nil && strings.TrimSpace(out) == "", err
	})
	// The export's and the share's roots, where the driver keeps its records.
	for _, root := range []string{filepath.Dir(sh.nfsBase), filepath.Dir(sh.smbBase)} {
		copies, _ := filepath.Glob(filepath.Join(root, ".fileshare-csi", "snapshots", "*"))
		for _, c := range copies {
			fi, err := os.Stat(c)
			// A copy is its tree (a directory) and its pack of small files.
			if err == nil && (fi.IsDir() && filepath.Base(c) != "groups" || strings.HasSuffix(c, ".pack")) {
				t.Errorf("a snapshot copy is left after its VolumeSnapshot was deleted: %s", c)
			}
		}
	}
	deleteClaims(t, ns, []claimCase{
		{claim: "restored", class: "nfs-delete", onDelete: "delete", base: sh.nfsBase, nfs: true},
		{claim: "cloned", class: "nfs-delete", onDelete: "delete", base: sh.nfsBase, nfs: true},
		{claim: "smb-restored", class: "fileshare-smb", onDelete: "archive", base: sh.smbBase},
	}, restored)
	for _, c := range []string{"data-delete", "data-retain"} {
		mustKubectl(t, "", "-n", ns, "label", "pvc", c, "backup-")
	}
	for _, p := range []*proc{controller, sidecar} {
		if !p.Running() {
			t.Errorf("%s exited:\n%s", p.Name, p.Tail())
		}
		b, _ := os.ReadFile(p.Log)
		for _, l := range strings.Split(string(b), "\n") {
			if strings.Contains(l, "forbidden") {
				t.Errorf("%s was refused by RBAC: %s", p.Name, l)
			}
		}
	}
	// Back to the install without the component, as the rest of the test
	// (and a user opting out) has it.
	sidecar.Stop(10 * time.Second)
	controller.Stop(10 * time.Second)
	mustKubectl(t, "", "apply", "-k", filepath.Join(env.repo, "manifests/overlays/windows"))
	mustKubectl(t, "", "delete", "clusterrolebinding,clusterrole", "fileshare-csi-snapshotter")
	step("snapshots deleted: no copy left on either share; restored and cloned claims deleted")
}
