//go:build linux

package integration

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/container-storage-interface/spec/lib/go/csi"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/fileshare-csi/fileshare-csi/test/localservers"
)

// requireMounts skips node end-to-end tests where the kernel cannot mount
// NFS or CIFS; make test-vm runs them in a VM whose kernel can.
func requireMounts(t *testing.T) {
	t.Helper()
	if !kernelCanMount() {
		t.Skip("needs a kernel with NFS and CIFS clients: runs in make test-vm")
	}
}

func node(t *testing.T) csi.NodeClient {
	t.Helper()
	return csi.NewNodeClient(dial(t))
}

// class is one StorageClass the node tests run against.
type class struct {
	name    string
	data    string // the share's directory on the server's disk
	params  map[string]string
	secrets map[string]string
	server  *localservers.Server
}

func classes(t *testing.T) []class {
	t.Helper()
	var out []class
	for _, c := range []class{
		{"nfs3", env.nfs.Data, map[string]string{"source": nfsSource("node"), "mountOptions": "vers=3"}, nil, env.nfs},
		{"nfs41", env.nfs.Data, map[string]string{"source": nfsSource("node"), "mountOptions": "vers=4.1"}, nil, env.nfs},
		// The pin alone makes the node mount with vers=4.1.
		{"nfs41only", env.nfs4only.Data, map[string]string{"source": nfs41OnlySource("node")}, nil, env.nfs4only},
		{"smb3", env.samba.Data, map[string]string{"source": smbSource("node"), "mountOptions": "vers=3.0"}, smbSecrets(), env.samba},
	} {
		base := filepath.Join(c.data, "node")
		if err := os.MkdirAll(base, 0o777); err != nil {
			t.Fatal(err)
		}
		if err := os.Chmod(base, 0o777); err != nil {
			t.Fatal(err)
		}
		c.data = base
		out = append(out, c)
	}
	return out
}

// staged creates a volume, stages it, and registers cleanup that unpublishes
// the given targets and unstages and deletes it.
type stagedVol struct {
	id, staging, dir string
}

func stage(t *testing.T, c class, name string, mode csi.VolumeCapability_AccessMode_Mode, group string) (stagedVol, *csi.VolumeCapability) {
	t.Helper()
	ctrl, nd := controller(t), node(t)
	vol := create(t, ctrl, name, c.params, c.secrets)
	capab := &csi.VolumeCapability{
		AccessType: &csi.VolumeCapability_Mount{Mount: &csi.VolumeCapability_MountVolume{VolumeMountGroup: group}},
		AccessMode: &csi.VolumeCapability_AccessMode{Mode: mode},
	}
	sv := stagedVol{id: vol.GetVolumeId(), staging: filepath.Join(env.dir, "node-"+name, "staging"), dir: filepath.Join(c.data, name)}
	if err := os.MkdirAll(filepath.Dir(sv.staging), 0o755); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if _, err := nd.NodeStageVolume(ctx, &csi.NodeStageVolumeRequest{
		VolumeId: sv.id, StagingTargetPath: sv.staging, VolumeCapability: capab,
		VolumeContext: vol.GetVolumeContext(), Secrets: c.secrets,
	}); err != nil {
		t.Fatalf("NodeStageVolume: %v", err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		if _, err := nd.NodeUnstageVolume(ctx, &csi.NodeUnstageVolumeRequest{VolumeId: sv.id, StagingTargetPath: sv.staging}); err != nil {
			t.Errorf("NodeUnstageVolume: %v", err)
		}
		if _, err := ctrl.DeleteVolume(ctx, &csi.DeleteVolumeRequest{VolumeId: sv.id, Secrets: c.secrets}); err != nil {
			t.Errorf("DeleteVolume: %v", err)
		}
	})
	return sv, capab
}

func publish(t *testing.T, sv stagedVol, capab *csi.VolumeCapability, target string, readOnly bool) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if _, err := node(t).NodePublishVolume(ctx, &csi.NodePublishVolumeRequest{
		VolumeId: sv.id, StagingTargetPath: sv.staging, TargetPath: target, VolumeCapability: capab, Readonly: readOnly,
	}); err != nil {
		t.Fatalf("NodePublishVolume %s: %v", target, err)
	}
}

func unpublish(t *testing.T, sv stagedVol, target string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if _, err := node(t).NodeUnpublishVolume(ctx, &csi.NodeUnpublishVolumeRequest{VolumeId: sv.id, TargetPath: target}); err != nil {
		t.Fatalf("NodeUnpublishVolume %s: %v", target, err)
	}
}

// mountsAt returns the mount table's lines for the mounts stacked at
// path, bottom first.
func mountsAt(t *testing.T, path string) []string {
	t.Helper()
	return mountLines(t, func(mountPoint string) bool { return mountPoint == path })
}

// mountLines returns the mount table's lines whose mount point match
// takes, in the table's order.
func mountLines(t *testing.T, match func(mountPoint string) bool) []string {
	t.Helper()
	b, err := os.ReadFile("/proc/self/mountinfo")
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, line := range strings.Split(string(b), "\n") {
		if f := strings.Fields(line); len(f) > 4 && match(f[4]) {
			out = append(out, line)
		}
	}
	return out
}

func isMounted(t *testing.T, path string) bool {
	t.Helper()
	return len(mountsAt(t, path)) > 0
}

func TestNodeMultiWriterTwoTargets(t *testing.T) {
	requireMounts(t)
	for _, c := range classes(t) {
		t.Run(c.name, func(t *testing.T) {
			sv, capab := stage(t, c, "mnmw-"+c.name, csi.VolumeCapability_AccessMode_MULTI_NODE_MULTI_WRITER, "")
			pods := filepath.Join(env.dir, "pods-"+c.name)
			t1, t2 := filepath.Join(pods, "a", "mount"), filepath.Join(pods, "b", "mount")
			publish(t, sv, capab, t1, false)
			publish(t, sv, capab, t2, false)
			if err := os.WriteFile(filepath.Join(t1, "hello.txt"), []byte("from a"), 0o644); err != nil {
				t.Fatal(err)
			}
			if b, err := os.ReadFile(filepath.Join(t2, "hello.txt")); err != nil || string(b) != "from a" {
				t.Fatalf("read through the second target: %q %v", b, err)
			}
			if b, err := os.ReadFile(filepath.Join(sv.dir, "hello.txt")); err != nil || string(b) != "from a" {
				t.Fatalf("the file is not on the server: %q %v", b, err)
			}
			unpublish(t, sv, t1)
			if isMounted(t, t1) {
				t.Fatalf("%s still mounted", t1)
			}
			if err := os.WriteFile(filepath.Join(t2, "after.txt"), []byte("b alone"), 0o644); err != nil {
				t.Fatalf("second target broke when the first was unpublished: %v", err)
			}
			// Publishing the same target twice is idempotent.
			publish(t, sv, capab, t2, false)
			unpublish(t, sv, t2)
			unpublish(t, sv, t2)
			if isMounted(t, t2) {
				t.Fatalf("%s still mounted", t2)
			}
		})
	}
}

func TestNodeReadOnlyPublishRefusesWrites(t *testing.T) {
	requireMounts(t)
	for _, c := range classes(t) {
		t.Run(c.name, func(t *testing.T) {
			sv, capab := stage(t, c, "ro-"+c.name, csi.VolumeCapability_AccessMode_MULTI_NODE_MULTI_WRITER, "")
			target := filepath.Join(env.dir, "ro-"+c.name, "mount")
			publish(t, sv, capab, target, true)
			defer unpublish(t, sv, target)
			err := os.WriteFile(filepath.Join(target, "nope"), []byte("x"), 0o644)
			if !errors.Is(err, syscall.EROFS) {
				t.Fatalf("write to a read-only publish: %v, want EROFS", err)
			}
			// The staging mount itself stays writable for other pods.
			if err := os.WriteFile(filepath.Join(sv.staging, "rw"), []byte("x"), 0o644); err != nil {
				t.Fatalf("staging became read-only: %v", err)
			}
		})
	}
}

// A read-only publish cut between mount-utils' bind and its read-only
// remount leaves a bind that writes, which the retry (or a republish,
// every minute, while the pod runs) finds mounted: it is remounted
// read-only in place, never taken down under the pod.
func TestNodeReadOnlyPublishMendsABindThatWrites(t *testing.T) {
	requireMounts(t)
	for _, c := range classes(t) {
		t.Run(c.name, func(t *testing.T) {
			sv, capab := stage(t, c, "rw-left-"+c.name, csi.VolumeCapability_AccessMode_MULTI_NODE_MULTI_WRITER, "")
			target := filepath.Join(env.dir, "rw-left-"+c.name, "mount")
			if err := os.MkdirAll(target, 0o750); err != nil {
				t.Fatal(err)
			}
			if out, err := exec.Command("mount", "--bind", sv.staging, target).CombinedOutput(); err != nil {
				t.Fatalf("the cut publish's bind: %v: %s", err, out)
			}
			defer unpublish(t, sv, target)
			// A pod's open directory on the mount: it must stay usable.
			dir, err := os.Open(target)
			if err != nil {
				t.Fatal(err)
			}
			defer dir.Close()
			publish(t, sv, capab, target, true)
			if err := os.WriteFile(filepath.Join(target, "nope"), []byte("x"), 0o644); !errors.Is(err, syscall.EROFS) {
				t.Fatalf("write after the read-only publish: %v, want EROFS", err)
			}
			if _, err := dir.Readdirnames(-1); err != nil {
				t.Fatalf("the open directory on the mount: %v", err)
			}
			if err := os.WriteFile(filepath.Join(sv.staging, "rw"), []byte("x"), 0o644); err != nil {
				t.Fatalf("staging became read-only: %v", err)
			}
		})
	}
}

// runAs writes a file as uid:gid with the supplementary group, the way a pod
// with runAsUser and fsGroup would.
func runAs(uid, gid, group uint32, path string) error {
	cmd := exec.Command("/bin/sh", "-c", `echo written > "$1"`, "sh", path)
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: uid, Gid: gid, Groups: []uint32{group}}}
	out, err := cmd.CombinedOutput()
	if err != nil {
		return fmt.Errorf("%w: %s", err, out)
	}
	return nil
}

func TestNodeVolumeMountGroup(t *testing.T) {
	requireMounts(t)
	const fsGroup = 4242
	for _, c := range classes(t) {
		t.Run(c.name, func(t *testing.T) {
			name := "fsgroup-" + c.name
			ctrl := controller(t)
			// Pre-existing content owned by root: delegation must not walk it.
			// 0755: without the delegated group, only root could write.
			c.params = withParams(c.params, "mountPermissions", "0755")
			vol := create(t, ctrl, name, c.params, c.secrets)
			deep := filepath.Join(c.data, name, "deep", "tree")
			if err := os.MkdirAll(deep, 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(deep, "f"), []byte("x"), 0o644); err != nil {
				t.Fatal(err)
			}
			if c.secrets != nil {
				// Content on an SMB share belongs to the share's user.
				uid := smbUID(t)
				for _, p := range []string{filepath.Join(c.data, name, "deep"), deep, filepath.Join(deep, "f")} {
					if err := os.Lchown(p, uid, -1); err != nil {
						t.Fatal(err)
					}
				}
			}
			_ = vol
			sv, capab := stage(t, c, name, csi.VolumeCapability_AccessMode_MULTI_NODE_MULTI_WRITER, fmt.Sprint(fsGroup))
			// The pod's user must reach the mount point, as it would inside
			// its container.
			podDir := filepath.Join(env.dir, name)
			if err := os.MkdirAll(podDir, 0o755); err != nil {
				t.Fatal(err)
			}
			target := filepath.Join(podDir, "mount")
			publish(t, sv, capab, target, false)
			defer unpublish(t, sv, target)
			if err := runAs(5001, 5001, fsGroup, filepath.Join(target, "by-pod")); err != nil {
				var st syscall.Stat_t
				_ = syscall.Stat(target, &st)
				t.Fatalf("a uid in the fsGroup cannot write: %v (volume root mode %o gid %d)", err, st.Mode, st.Gid)
			}
			if err := runAs(5002, 5002, 5002, filepath.Join(target, "by-stranger")); err == nil {
				t.Fatalf("a uid outside the fsGroup could write to the volume root")
			}
			var st syscall.Stat_t
			if err := syscall.Stat(target, &st); err != nil || st.Gid != fsGroup {
				t.Fatalf("volume root group %d, want %d (%v)", st.Gid, fsGroup, err)
			}
			if strings.HasPrefix(c.name, "nfs") {
				// Only the root was changed: the tree below keeps its group.
				if err := syscall.Stat(filepath.Join(c.data, name, "deep", "tree", "f"), &st); err != nil || st.Gid != 0 {
					t.Fatalf("a file deep in the tree was chgrp'ed to %d: the tree was walked", st.Gid)
				}
			}
		})
	}
}

// The server's directory is deleted and made again under the client: the
// mount's handles go stale (ESTALE). Health reports it, and the next stats
// call remounts so the pod's path works again.
func TestNodeStaleMountIsRepaired(t *testing.T) {
	requireMounts(t)
	for _, c := range classes(t) {
		if !strings.HasPrefix(c.name, "nfs") {
			continue
		}
		t.Run(c.name, func(t *testing.T) {
			nd := node(t)
			sv, capab := stage(t, c, "stale-"+c.name, csi.VolumeCapability_AccessMode_MULTI_NODE_MULTI_WRITER, "")
			target := filepath.Join(env.dir, "stale-"+c.name, "mount")
			publish(t, sv, capab, target, false)
			defer unpublish(t, sv, target)
			if err := os.RemoveAll(sv.dir); err != nil {
				t.Fatal(err)
			}
			if err := os.Mkdir(sv.dir, 0o777); err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			h, err := nd.NodeGetVolumeHealth(ctx, &csi.NodeGetVolumeHealthRequest{VolumeId: sv.id, VolumePublishPath: target})
			if err != nil {
				t.Fatal(err)
			}
			if st := h.GetVolumeHealth().GetHealthStatuses(); len(st) != 1 || st[0].GetStatus() != csi.VolumeHealthErrorType_INACCESSIBLE {
				t.Fatalf("stale mount health: %v", st)
			}
			if _, err := nd.NodeGetVolumeStats(ctx, &csi.NodeGetVolumeStatsRequest{VolumeId: sv.id, VolumePath: target, StagingTargetPath: sv.staging}); err != nil {
				t.Fatalf("stats did not repair the stale mount: %v", err)
			}
			if err := os.WriteFile(filepath.Join(target, "again"), []byte("ok"), 0o644); err != nil {
				t.Fatalf("pod path still broken after repair: %v", err)
			}
			if b, err := os.ReadFile(filepath.Join(sv.dir, "again")); err != nil || string(b) != "ok" {
				t.Fatalf("write after repair did not reach the new directory: %q %v", b, err)
			}
			h, err = nd.NodeGetVolumeHealth(ctx, &csi.NodeGetVolumeHealthRequest{VolumeId: sv.id, VolumePublishPath: target})
			if err != nil || len(h.GetVolumeHealth().GetHealthStatuses()) != 0 {
				t.Fatalf("health after repair: %v %v", h, err)
			}
		})
	}
}

// The volume is deleted while the node still has it mounted: the CO removes
// a claim once its pod object is gone, which can be before the kubelet has
// unmounted it, and an operator may delete a directory by hand. Through a
// mount whose root went on the server, a stat answers ESTALE on NFS and "no
// such file" on CIFS; unpublish and unstage must take the mounts down
// anyway and say so only once the mount table has nothing at either path.
// A mount left there answering "no such file" is a mount the kubelet has
// forgotten, on the node for good.
func TestNodeUnmountsAVolumeDeletedUnderIt(t *testing.T) {
	requireMounts(t)
	for _, c := range classes(t) {
		t.Run(c.name, func(t *testing.T) {
			name := "gone-" + c.name
			sv, capab := stage(t, c, name, csi.VolumeCapability_AccessMode_MULTI_NODE_MULTI_WRITER, "")
			target := filepath.Join(env.dir, name, "mount")
			publish(t, sv, capab, target, false)
			if err := os.WriteFile(filepath.Join(target, "data"), []byte("x"), 0o644); err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			if _, err := controller(t).DeleteVolume(ctx, &csi.DeleteVolumeRequest{VolumeId: sv.id, Secrets: c.secrets}); err != nil {
				t.Fatalf("DeleteVolume: %v", err)
			}
			if _, err := os.Stat(sv.dir); !errors.Is(err, fs.ErrNotExist) {
				t.Fatalf("the volume's directory on the server after DeleteVolume: %v", err)
			}
			// The client learns that the root went once its cached
			// attributes expire (CIFS: a second), or at once from a read
			// of the directory (NFS: ESTALE).
			var statErr error
			for end := time.Now().Add(15 * time.Second); statErr == nil && time.Now().Before(end); time.Sleep(200 * time.Millisecond) {
				_, _ = os.ReadDir(target)
				_, statErr = os.Stat(target)
			}
			if statErr == nil {
				t.Fatal("the pod's path still answers a stat 15 s after its directory was deleted: this test needs a mount whose root is gone")
			}
			t.Logf("stat of the pod's path once its directory is gone: %v", statErr)
			unpublish(t, sv, target)
			if m := mountsAt(t, target); len(m) > 0 {
				t.Fatalf("NodeUnpublishVolume answered OK and left %q", m)
			}
			if _, err := node(t).NodeUnstageVolume(ctx, &csi.NodeUnstageVolumeRequest{VolumeId: sv.id, StagingTargetPath: sv.staging}); err != nil {
				t.Fatalf("NodeUnstageVolume: %v", err)
			}
			if m := mountsAt(t, sv.staging); len(m) > 0 {
				t.Fatalf("NodeUnstageVolume answered OK and left %q", m)
			}
		})
	}
}

// The server goes away under a staged volume and comes back: health reports
// the outage, and afterwards the volume works without manual steps.
func TestNodeServerRestart(t *testing.T) {
	requireMounts(t)
	for _, c := range classes(t) {
		if c.name == "nfs3" {
			continue // one NFS version is enough for the restart; nfs41 covers it
		}
		t.Run(c.name, func(t *testing.T) {
			nd := node(t)
			server := c.server
			sv, capab := stage(t, c, "restart-"+c.name, csi.VolumeCapability_AccessMode_MULTI_NODE_MULTI_WRITER, "")
			target := filepath.Join(env.dir, "restart-"+c.name, "mount")
			publish(t, sv, capab, target, false)
			defer unpublish(t, sv, target)
			if err := os.WriteFile(filepath.Join(target, "before"), []byte("1"), 0o644); err != nil {
				t.Fatal(err)
			}
			if err := server.Down(); err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			h, err := nd.NodeGetVolumeHealth(ctx, &csi.NodeGetVolumeHealthRequest{VolumeId: sv.id, VolumePublishPath: target})
			cancel()
			upErr := server.Up(context.Background())
			if upErr != nil {
				t.Fatalf("bring %s back: %v", server.Name, upErr)
			}
			if err != nil {
				t.Fatalf("health while the server is down: %v", err)
			}
			if st := h.GetVolumeHealth().GetHealthStatuses(); len(st) != 1 || st[0].GetStatus() != csi.VolumeHealthErrorType_INACCESSIBLE {
				t.Fatalf("health while the server is down: %v, want INACCESSIBLE", st)
			}
			// After the restart the next stats call finds (or makes) a working
			// mount and the pod's path works again.
			deadline := time.Now().Add(90 * time.Second)
			for {
				ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
				_, err = nd.NodeGetVolumeStats(ctx, &csi.NodeGetVolumeStatsRequest{VolumeId: sv.id, VolumePath: target, StagingTargetPath: sv.staging})
				cancel()
				if err == nil || time.Now().After(deadline) {
					break
				}
				time.Sleep(2 * time.Second)
			}
			if err != nil {
				t.Fatalf("volume did not recover after the restart: %v", err)
			}
			if err := os.WriteFile(filepath.Join(target, "after"), []byte("2"), 0o644); err != nil {
				t.Fatalf("write after restart: %v", err)
			}
			if b, err := os.ReadFile(filepath.Join(sv.dir, "before")); err != nil || string(b) != "1" {
				t.Fatalf("data from before the restart: %q %v", b, err)
			}
		})
	}
}

// mountProcesses lists running mount(8) helpers.
func mountProcesses() []string {
	var out []string
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		b, err := os.ReadFile(filepath.Join("/proc", e.Name(), "cmdline"))
		if err != nil || len(b) == 0 {
			continue
		}
		argv0 := filepath.Base(string(bytes.SplitN(b, []byte{0}, 2)[0]))
		if argv0 == "mount" || strings.HasPrefix(argv0, "mount.") {
			out = append(out, strings.ReplaceAll(string(b), "\x00", " "))
		}
	}
	return out
}

func TestNodeMountOfSilentServerFailsAtDeadline(t *testing.T) {
	requireMounts(t)
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer lis.Close()
	go func() {
		var held []net.Conn
		defer func() {
			for _, c := range held {
				c.Close()
			}
		}()
		for {
			c, err := lis.Accept()
			if err != nil {
				return
			}
			held = append(held, c)
		}
	}()
	port := lis.Addr().(*net.TCPAddr).Port
	nd := node(t)
	staging := filepath.Join(env.dir, "silent", "staging")
	ctx, cancel := context.WithTimeout(context.Background(), 8*time.Second)
	defer cancel()
	start := time.Now()
	_, err = nd.NodeStageVolume(ctx, &csi.NodeStageVolumeRequest{
		VolumeId: "v1#nfs://127.0.0.1:" + fmt.Sprint(port) + "/export#silent#delete", StagingTargetPath: staging,
		VolumeContext: map[string]string{"mountOptions": "vers=4.1"},
		VolumeCapability: &csi.VolumeCapability{
			AccessType: &csi.VolumeCapability_Mount{Mount: &csi.VolumeCapability_MountVolume{}},
			AccessMode: &csi.VolumeCapability_AccessMode{Mode: csi.VolumeCapability_AccessMode_SINGLE_NODE_WRITER},
		},
	})
	elapsed := time.Since(start)
	if err == nil {
		t.Fatal("staging against a server that never answers succeeded")
	}
	if code := status.Code(err); code != codes.DeadlineExceeded {
		t.Fatalf("got %v, want DeadlineExceeded", err)
	}
	if elapsed > 20*time.Second {
		t.Fatalf("the call took %s, far past its 8 s deadline", elapsed)
	}
	// The driver killed mount(8); give the kernel a moment to reap it.
	var left []string
	for range 50 {
		if left = mountProcesses(); len(left) == 0 {
			break
		}
		time.Sleep(200 * time.Millisecond)
	}
	if len(left) != 0 {
		t.Fatalf("mount processes left behind: %v", left)
	}
	if isMounted(t, staging) {
		t.Fatal("something is mounted at the staging path")
	}
}

// worldReadableFilesContaining lists files under root that others can read
// and that contain needle.
func worldReadableFilesContaining(root string, needle []byte) []string {
	var hits []string
	_ = filepath.Walk(root, func(p string, fi os.FileInfo, err error) error {
		if err != nil || fi.IsDir() || !fi.Mode().IsRegular() || fi.Size() > 1<<20 {
			return nil
		}
		if fi.Mode().Perm()&0o004 == 0 {
			return nil
		}
		if b, err := os.ReadFile(p); err == nil && bytes.Contains(b, needle) {
			hits = append(hits, p)
		}
		return nil
	})
	return hits
}

func TestNodeSMBPasswordStaysSecret(t *testing.T) {
	requireMounts(t)
	var c class
	for _, cl := range classes(t) {
		if cl.secrets != nil {
			c = cl
		}
	}
	password := []byte(c.secrets["password"])
	var seen atomic.Value
	stop := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for {
			select {
			case <-stop:
				return
			default:
			}
			entries, _ := os.ReadDir("/proc")
			for _, e := range entries {
				if b, err := os.ReadFile(filepath.Join("/proc", e.Name(), "cmdline")); err == nil && bytes.Contains(b, password) {
					seen.Store(strings.ReplaceAll(string(b), "\x00", " "))
				}
			}
		}
	}()
	sv, capab := stage(t, c, "secret-smb", csi.VolumeCapability_AccessMode_SINGLE_NODE_WRITER, "")
	target := filepath.Join(env.dir, "secret-smb", "mount")
	publish(t, sv, capab, target, false)
	unpublish(t, sv, target)
	close(stop)
	wg.Wait()
	if v := seen.Load(); v != nil {
		t.Fatalf("the password was on a command line: %s", v)
	}
	if bytes.Contains(driverLog(t), password) {
		t.Fatal("the password is in the driver's log")
	}
	for _, root := range []string{env.dir, "/tmp", "/run", "/var/lib/kubelet"} {
		if hits := worldReadableFilesContaining(root, password); len(hits) != 0 {
			// The test's own secrets files for csi-sanity are 0600, so any
			// hit is the driver's doing.
			t.Fatalf("world-readable files hold the password: %v", hits)
		}
	}
}

// runAsRead reads path as uid:gid, the way the pod owning it would.
func runAsRead(uid, gid uint32, path string) (string, error) {
	cmd := exec.Command("/bin/cat", path)
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: uid, Gid: gid}}
	out, err := cmd.CombinedOutput()
	if err != nil {
		return "", fmt.Errorf("%w: %s", err, out)
	}
	return string(out), nil
}

// A root-squashed export whose volume root only its owner may read: the
// plugin's probe (root, squashed to nobody) gets EACCES from the server. The
// mount works for its pod, so stats must answer PermissionDenied and leave
// it mounted, never remount it under the pod.
func TestNodeRootSquashedVolumeStaysMounted(t *testing.T) {
	requireMounts(t)
	if !kernelNFS() {
		t.Skip("adds a root_squash export with exportfs: needs the kernel NFS server of the test VM")
	}
	const owner = 5001
	export := filepath.Join(env.dir, "squashed")
	vol := filepath.Join(export, "vol")
	if err := os.MkdirAll(vol, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(export, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Chown(vol, owner, owner); err != nil {
		t.Fatal(err)
	}
	// fsid: the export may live on tmpfs.
	if out, err := exec.Command("exportfs", "-o", "rw,root_squash,insecure,no_subtree_check,fsid=4711", "127.0.0.1:"+export).CombinedOutput(); err != nil {
		t.Fatalf("exportfs: %v: %s", err, out)
	}
	defer func() { _ = exec.Command("exportfs", "-u", "127.0.0.1:"+export).Run() }()

	nd := node(t)
	const id = "squashed-static"
	capab := &csi.VolumeCapability{
		AccessType: &csi.VolumeCapability_Mount{Mount: &csi.VolumeCapability_MountVolume{}},
		AccessMode: &csi.VolumeCapability_AccessMode{Mode: csi.VolumeCapability_AccessMode_MULTI_NODE_MULTI_WRITER},
	}
	staging := filepath.Join(env.dir, "node-squashed", "staging")
	target := filepath.Join(env.dir, "node-squashed", "pod", "mount")
	if err := os.MkdirAll(filepath.Dir(target), 0o755); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	// actimeo=0: the client asks the server for every access decision, so
	// the chmod below is seen at once.
	vctx := map[string]string{"source": "nfs://127.0.0.1" + export, "subDir": "vol", "mountOptions": "vers=3,actimeo=0"}
	if _, err := nd.NodeStageVolume(ctx, &csi.NodeStageVolumeRequest{VolumeId: id, StagingTargetPath: staging, VolumeCapability: capab, VolumeContext: vctx}); err != nil {
		t.Fatalf("NodeStageVolume: %v", err)
	}
	defer func() {
		_ = os.Chmod(vol, 0o755)
		if _, err := nd.NodeUnpublishVolume(ctx, &csi.NodeUnpublishVolumeRequest{VolumeId: id, TargetPath: target}); err != nil {
			t.Errorf("NodeUnpublishVolume: %v", err)
		}
		if _, err := nd.NodeUnstageVolume(ctx, &csi.NodeUnstageVolumeRequest{VolumeId: id, StagingTargetPath: staging}); err != nil {
			t.Errorf("NodeUnstageVolume: %v", err)
		}
	}()
	if _, err := nd.NodePublishVolume(ctx, &csi.NodePublishVolumeRequest{VolumeId: id, StagingTargetPath: staging, TargetPath: target, VolumeCapability: capab}); err != nil {
		t.Fatalf("NodePublishVolume: %v", err)
	}
	if err := runAs(owner, owner, owner, filepath.Join(target, "mine")); err != nil {
		t.Fatalf("the owner cannot write to its volume: %v", err)
	}
	// Only the owner may list the volume root now; root is squashed.
	if err := os.Chmod(vol, 0o700); err != nil {
		t.Fatal(err)
	}
	if _, err := os.ReadDir(target); !errors.Is(err, os.ErrPermission) {
		t.Fatalf("root's listing of the volume: %v, want EACCES (is the export root-squashed?)", err)
	}
	_, err := nd.NodeGetVolumeStats(ctx, &csi.NodeGetVolumeStatsRequest{VolumeId: id, VolumePath: target, StagingTargetPath: staging})
	if status.Code(err) != codes.PermissionDenied {
		t.Fatalf("stats of a volume root the plugin may not read: %v, want PermissionDenied", err)
	}
	if !isMounted(t, target) || !isMounted(t, staging) {
		t.Fatalf("stats unmounted a working volume: target mounted %v, staging mounted %v", isMounted(t, target), isMounted(t, staging))
	}
	if got, err := runAsRead(owner, owner, filepath.Join(target, "mine")); err != nil || got != "written\n" {
		t.Fatalf("the owner's file through the pod's path after stats: %q %v", got, err)
	}
	h, err := nd.NodeGetVolumeHealth(ctx, &csi.NodeGetVolumeHealthRequest{VolumeId: id, VolumePublishPath: target})
	if err != nil {
		t.Fatal(err)
	}
	for _, st := range h.GetVolumeHealth().GetHealthStatuses() {
		if st.GetStatus() == csi.VolumeHealthErrorType_INACCESSIBLE {
			t.Fatalf("a volume its owner uses is reported inaccessible: %v", st)
		}
	}
}

// threadsOf returns the number of OS threads of process pid.
func threadsOf(t *testing.T, pid int) int {
	t.Helper()
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, "Threads:"); ok {
			var n int
			if _, err := fmt.Sscan(v, &n); err != nil {
				t.Fatal(err)
			}
			return n
		}
	}
	t.Fatalf("no Threads line in /proc/%d/status", pid)
	return 0
}

// With the NFS server gone, a hard mount hangs every access. Stats calls
// must not add a thread stuck in the kernel each, and unpublish and unstage
// must answer by their deadline and release the volume's lock.
func TestNodeHungMountNeitherPilesUpThreadsNorHoldsTheLock(t *testing.T) {
	requireMounts(t)
	var c class
	for _, cl := range classes(t) {
		if cl.name == "nfs3" {
			c = cl
		}
	}
	nd := node(t)
	sv, capab := stage(t, c, "hung-"+c.name, csi.VolumeCapability_AccessMode_MULTI_NODE_MULTI_WRITER, "")
	target := filepath.Join(env.dir, "hung-"+c.name, "mount")
	publish(t, sv, capab, target, false)
	if err := os.WriteFile(filepath.Join(target, "before"), []byte("1"), 0o644); err != nil {
		t.Fatal(err)
	}
	pid := env.driver.Pid()
	before := threadsOf(t, pid)
	if err := env.nfs.Down(); err != nil {
		t.Fatal(err)
	}
	up := sync.OnceFunc(func() {
		if err := env.nfs.Up(context.Background()); err != nil {
			t.Errorf("bring %s back: %v", env.nfs.Name, err)
		}
	})
	defer up()

	const rounds, calls = 2, 25
	for range rounds {
		var wg sync.WaitGroup
		for range calls {
			wg.Add(1)
			go func() {
				defer wg.Done()
				ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
				defer cancel()
				_, err := nd.NodeGetVolumeStats(ctx, &csi.NodeGetVolumeStatsRequest{VolumeId: sv.id, VolumePath: target, StagingTargetPath: sv.staging})
				if code := status.Code(err); code != codes.Unavailable && code != codes.DeadlineExceeded {
					t.Errorf("stats while the server is down: %v, want Unavailable", err)
				}
			}()
		}
		wg.Wait()
	}
	// The Go runtime adds a thread for each one blocked in a system call.
	const slack = 10
	if after := threadsOf(t, pid); after > before+slack {
		t.Fatalf("%d stats calls on a hung mount grew the driver from %d to %d threads", rounds*calls, before, after)
	}

	// Each call answers at its deadline; the kubelet's retry afterwards is
	// not told Aborted: the lock went with the call.
	settled := func(what string, call func(ctx context.Context) error) {
		t.Helper()
		ctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
		err := call(ctx)
		cancel()
		switch status.Code(err) {
		case codes.OK, codes.DeadlineExceeded, codes.Unavailable:
		default:
			t.Fatalf("%s of a hung mount: %v", what, err)
		}
		for try := 0; ; try++ {
			ctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
			err = call(ctx)
			cancel()
			if status.Code(err) != codes.Aborted {
				break
			}
			if try == 10 {
				t.Fatalf("%s: the volume's lock is still held after the call returned: %v", what, err)
			}
			time.Sleep(time.Second)
		}
		if err != nil {
			t.Fatalf("%s again: %v", what, err)
		}
	}
	settled("unpublish", func(ctx context.Context) error {
		_, err := nd.NodeUnpublishVolume(ctx, &csi.NodeUnpublishVolumeRequest{VolumeId: sv.id, TargetPath: target})
		return err
	})
	if isMounted(t, target) {
		t.Fatalf("%s still mounted after unpublish", target)
	}
	settled("unstage", func(ctx context.Context) error {
		_, err := nd.NodeUnstageVolume(ctx, &csi.NodeUnstageVolumeRequest{VolumeId: sv.id, StagingTargetPath: sv.staging})
		return err
	})
	if isMounted(t, sv.staging) {
		t.Fatalf("%s still mounted after unstage", sv.staging)
	}
	up()
	if b, err := os.ReadFile(filepath.Join(sv.dir, "before")); err != nil || string(b) != "1" {
		t.Fatalf("data written before the outage: %q %v", b, err)
	}
}
