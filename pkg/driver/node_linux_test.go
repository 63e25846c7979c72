//go:build linux

package driver

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/container-storage-interface/spec/lib/go/csi"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	mount "k8s.io/mount-utils"

	"github.com/fileshare-csi/fileshare-csi/pkg/metrics"
	"github.com/fileshare-csi/fileshare-csi/pkg/mounter"
	"github.com/fileshare-csi/fileshare-csi/pkg/nodestate"
	"github.com/fileshare-csi/fileshare-csi/pkg/volume"
)

// networkMount records what the node asked mount(8) to do. It stands in for
// mount(8) only: these are unit tests of the node's own logic; real mounts
// are tested in the VM suite.
type networkMount struct {
	fstype, device, target string
	options                []string
	credentials            string // content of the credentials file at mount time
	credentialsMode        os.FileMode
}

// credDirOf is where the node under test writes CIFS credential files.
var credDirOf = map[*Driver]string{}

func newNodeUnderTest(t *testing.T) (*Driver, *mount.FakeMounter, *[]networkMount) {
	t.Helper()
	return newNodeWith(t, nil, nil)
}

// newNodeWith is newNodeUnderTest with a configuration of its own (set
// changes it) and a mount(8) that fails as fails says for a device (nil:
// none fails). A failed mount is recorded too.
func newNodeWith(t *testing.T, set func(*Config), fails func(device string) error) (*Driver, *mount.FakeMounter, *[]networkMount) {
	t.Helper()
	return newNodeOver(t, nil, set, fails)
}

// newNodeOver is newNodeWith whose mounter sees the fake mount table
// through wrap(fake), when wrap is not nil.
func newNodeOver(t *testing.T, wrap func(*mount.FakeMounter) mount.Interface, set func(*Config), fails func(device string) error) (*Driver, *mount.FakeMounter, *[]networkMount) {
	t.Helper()
	fake := mount.NewFakeMounter(nil)
	var calls []networkMount
	run := func(_ context.Context, fstype, device, target string, options []string) error {
		c := networkMount{fstype: fstype, device: device, target: target, options: options}
		for _, o := range options {
			if f, ok := strings.CutPrefix(o, "credentials="); ok {
				b, err := os.ReadFile(f)
				if err != nil {
					t.Errorf("credentials file: %v", err)
				}
				fi, _ := os.Stat(f)
				c.credentials, c.credentialsMode = string(b), fi.Mode().Perm()
			}
		}
		calls = append(calls, c)
		if fails != nil {
			if err := fails(device); err != nil {
				return err
			}
		}
		return fake.Mount(device, target, fstype, options)
	}
	credDir := filepath.Join(t.TempDir(), "creds")
	var table mount.Interface = fake
	if wrap != nil {
		table = wrap(fake)
	}
	m := mounter.NewLinuxForTest(table, run, credDir)
	cfg := Config{Name: "test.csi", NodeID: "n1", Node: true, Mounter: m, Metrics: metrics.New("test.csi"), StateDir: filepath.Join(t.TempDir(), "state")}
	if set != nil {
		set(&cfg)
	}
	d, err := newTestDriver(t, cfg)
	if err != nil {
		t.Fatal(err)
	}
	credDirOf[d] = credDir
	return d, fake, &calls
}

// wantBound checks that the share's root was mounted by itself (device, the
// path an administrator wrote), that sub below it was bound at target (the
// node opens it, the server never resolves it), and that the root mount is
// gone again.
func wantBound(t *testing.T, fake *mount.FakeMounter, c networkMount, device, target, sub string) {
	t.Helper()
	if c.device != device || c.target == target {
		t.Fatalf("mount %+v, want %s mounted at a private root", c, device)
	}
	mps, _ := fake.List()
	var found bool
	for _, mp := range mps {
		if mp.Path == c.target {
			t.Errorf("the share's root is still mounted at %s", c.target)
		}
		if mp.Path == target {
			found = mp.Device == filepath.Join(c.target, sub)
		}
	}
	if !found {
		t.Fatalf("%s is not bound at %s: %+v", sub, target, mps)
	}
}

func capability(mode csi.VolumeCapability_AccessMode_Mode, flags []string, group string) *csi.VolumeCapability {
	return &csi.VolumeCapability{
		AccessType: &csi.VolumeCapability_Mount{Mount: &csi.VolumeCapability_MountVolume{MountFlags: flags, VolumeMountGroup: group}},
		AccessMode: &csi.VolumeCapability_AccessMode{Mode: mode},
	}
}

func TestNodeStageSMBPassesCredentialsInAFile(t *testing.T) {
	d, fake, calls := newNodeUnderTest(t)
	staging := filepath.Join(t.TempDir(), "staging")
	_, err := d.NodeStageVolume(context.Background(), &csi.NodeStageVolumeRequest{
		VolumeId:          "v1#smb://fs:4450/share/base#ns/claim#delete",
		StagingTargetPath: staging,
		VolumeCapability:  capability(csi.VolumeCapability_AccessMode_MULTI_NODE_MULTI_WRITER, []string{"vers=3.0"}, "2000"),
		Secrets:           map[string]string{"username": "alice", "password": "s3cret", "domain": "CORP"},
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(*calls) != 1 {
		t.Fatalf("mount calls: %+v", *calls)
	}
	c := (*calls)[0]
	if c.fstype != "cifs" {
		t.Fatalf("mount %+v", c)
	}
	wantBound(t, fake, c, "//fs/share/base", staging, "ns/claim")
	for _, want := range []string{"vers=3.0", "port=4450", "gid=2000", "dir_mode=0775", "file_mode=0664"} {
		if !slices.Contains(c.options, want) {
			t.Errorf("options %v lack %s", c.options, want)
		}
	}
	if strings.Contains(strings.Join(c.options, ","), "s3cret") {
		t.Fatalf("password on the mount command line: %v", c.options)
	}
	if c.credentials != "username=alice\npassword=s3cret\ndomain=CORP\n" || c.credentialsMode != 0o600 {
		t.Fatalf("credentials file %q mode %v", c.credentials, c.credentialsMode)
	}
	left, err := os.ReadDir(credDirOf[d])
	if err != nil || len(left) != 0 {
		t.Fatalf("credentials files left behind: %v %v", left, err)
	}
}

func TestNodeStageNFSIsIdempotentAndReadOnlyForReaders(t *testing.T) {
	d, fake, calls := newNodeUnderTest(t)
	staging := filepath.Join(t.TempDir(), "staging")
	req := &csi.NodeStageVolumeRequest{
		VolumeId:          "v1#nfs://10.0.0.5:2050/export#pvc-1#delete",
		StagingTargetPath: staging,
		VolumeCapability:  capability(csi.VolumeCapability_AccessMode_MULTI_NODE_READER_ONLY, []string{"vers=4.1"}, ""),
	}
	for range 2 {
		if _, err := d.NodeStageVolume(context.Background(), req); err != nil {
			t.Fatal(err)
		}
	}
	if len(*calls) != 1 {
		t.Fatalf("want one mount for two stages, got %+v", *calls)
	}
	c := (*calls)[0]
	if c.fstype != "nfs" || !slices.Contains(c.options, "ro") || !slices.Contains(c.options, "port=2050") || !slices.Contains(c.options, "vers=4.1") {
		t.Fatalf("mount %+v", c)
	}
	wantBound(t, fake, c, "10.0.0.5:/export", staging, "pvc-1")
	if _, err := d.NodeUnstageVolume(context.Background(), &csi.NodeUnstageVolumeRequest{VolumeId: req.VolumeId, StagingTargetPath: staging}); err != nil {
		t.Fatal(err)
	}
	if mps, _ := fake.List(); len(mps) != 0 {
		t.Fatalf("still mounted: %v", mps)
	}
	if _, err := os.Stat(staging); !os.IsNotExist(err) {
		t.Fatalf("staging dir left: %v", err)
	}
	// Unstaging what is already gone succeeds.
	if _, err := d.NodeUnstageVolume(context.Background(), &csi.NodeUnstageVolumeRequest{VolumeId: req.VolumeId, StagingTargetPath: staging}); err != nil {
		t.Fatalf("second unstage: %v", err)
	}
}

// A source pinned with ?vers= mounts with that version unless the class's
// options name one of their own; one of another major version is refused
// before anything is mounted.
func TestNodeStageMountsWithThePinnedNFSVersion(t *testing.T) {
	for _, tc := range []struct {
		id, classOptions string
		flags            []string
		want             []string // options the mount must carry
		code             codes.Code
	}{
		{id: "v1#nfs://10.0.0.5/export?vers=4.1#pvc-1#delete", want: []string{"vers=4.1"}},
		{id: "v1#nfs://10.0.0.5/export?vers=3#pvc-1#delete", classOptions: "nolock", want: []string{"nolock", "vers=3"}},
		{id: "v1#nfs://10.0.0.5/export?vers=4.1#pvc-1#delete", classOptions: "nfsvers=4.2", want: []string{"nfsvers=4.2"}},
		{id: "v1#nfs://10.0.0.5/export#pvc-1#delete", flags: []string{"hard"}, want: []string{"hard"}},
		{id: "v1#nfs://10.0.0.5/export?vers=4.1#pvc-1#delete", classOptions: "vers=3", code: codes.InvalidArgument},
		{id: "v1#nfs://10.0.0.5/export?vers=3#pvc-1#delete", flags: []string{"vers=4.1"}, code: codes.InvalidArgument},
	} {
		d, _, calls := newNodeUnderTest(t)
		req := &csi.NodeStageVolumeRequest{
			VolumeId:          tc.id,
			StagingTargetPath: filepath.Join(t.TempDir(), "staging"),
			VolumeCapability:  capability(csi.VolumeCapability_AccessMode_MULTI_NODE_MULTI_WRITER, tc.flags, ""),
		}
		if tc.classOptions != "" {
			req.VolumeContext = map[string]string{"mountOptions": tc.classOptions}
		}
		_, err := d.NodeStageVolume(context.Background(), req)
		if status.Code(err) != tc.code {
			t.Errorf("%s with %q %v: %v, want code %v", tc.id, tc.classOptions, tc.flags, err, tc.code)
			continue
		}
		if tc.code != codes.OK {
			if len(*calls) != 0 {
				t.Errorf("%s: mounted despite the conflict: %+v", tc.id, *calls)
			}
			continue
		}
		if len(*calls) != 1 {
			t.Fatalf("%s: want one mount, got %+v", tc.id, *calls)
		}
		opts := (*calls)[0].options
		for _, w := range tc.want {
			if !slices.Contains(opts, w) {
				t.Errorf("%s: mount options %v lack %q", tc.id, opts, w)
			}
		}
		versions := 0
		for _, o := range opts {
			if strings.HasPrefix(o, "vers=") || strings.HasPrefix(o, "nfsvers=") {
				versions++
			}
		}
		if versions > 1 || strings.Contains(tc.id, "?vers=") && versions != 1 {
			t.Errorf("%s: mount options %v name %d versions", tc.id, opts, versions)
		}
	}
}

func TestNodeRefusesCredentialsInMountOptionsAndBlock(t *testing.T) {
	d, _, calls := newNodeUnderTest(t)
	_, err := d.NodeStageVolume(context.Background(), &csi.NodeStageVolumeRequest{
		VolumeId:          "v1#smb://fs/share#x#delete",
		StagingTargetPath: filepath.Join(t.TempDir(), "s"),
		VolumeCapability:  capability(csi.VolumeCapability_AccessMode_SINGLE_NODE_WRITER, []string{"password=oops"}, ""),
		Secrets:           map[string]string{"username": "u", "password": "p"},
	})
	if err == nil || !strings.Contains(err.Error(), "secret") {
		t.Fatalf("password in mount options: %v", err)
	}
	block := &csi.VolumeCapability{AccessType: &csi.VolumeCapability_Block{Block: &csi.VolumeCapability_BlockVolume{}},
		AccessMode: &csi.VolumeCapability_AccessMode{Mode: csi.VolumeCapability_AccessMode_SINGLE_NODE_WRITER}}
	_, err = d.NodeStageVolume(context.Background(), &csi.NodeStageVolumeRequest{VolumeId: "v1#nfs://h/e#x#delete", StagingTargetPath: t.TempDir(), VolumeCapability: block})
	if status.Code(err) != codes.InvalidArgument {
		t.Fatalf("block: %v", err)
	}
	if len(*calls) != 0 {
		t.Fatalf("mount was called: %+v", *calls)
	}
}

func TestNodeGetInfoReportsOSTopology(t *testing.T) {
	d, _, _ := newNodeUnderTest(t)
	info, err := d.NodeGetInfo(context.Background(), &csi.NodeGetInfoRequest{})
	if err != nil || info.GetNodeId() != "n1" || info.GetAccessibleTopology().GetSegments()[TopologyKeyOS] != "linux" {
		t.Fatalf("NodeGetInfo = %v, %v", info, err)
	}
}

// hangingMounter is a FakeMounter whose mount-point checks block, like a stat
// on a hard NFS mount whose server is down.
type hangingMounter struct {
	*mount.FakeMounter
	release chan struct{}
	// probes counts the checks begun: each is a thread stuck in the kernel
	// on a real hung mount.
	probes *atomic.Int32
}

func (h hangingMounter) IsLikelyNotMountPoint(file string) (bool, error) {
	if h.probes != nil {
		h.probes.Add(1)
	}
	<-h.release
	return h.FakeMounter.IsLikelyNotMountPoint(file)
}

// IsMountPoint blocks too: mount-utils' real one stats the path (statx,
// openat2) on its way to the mount table.
func (h hangingMounter) IsMountPoint(file string) (bool, error) {
	<-h.release
	return h.FakeMounter.IsMountPoint(file)
}

// A mount that does not answer is not broken: stats answer Unavailable in
// time and nothing is unmounted or remounted behind the kernel's back.
func TestNodeStatsOfAHungMountAnswerUnavailableWithoutRemounting(t *testing.T) {
	release := make(chan struct{})
	defer close(release)
	fake := mount.NewFakeMounter(nil)
	var remounts int
	run := func(context.Context, string, string, string, []string) error { remounts++; return nil }
	m := mounter.NewLinuxForTest(hangingMounter{FakeMounter: fake, release: release}, run, t.TempDir())
	d, err := newTestDriver(t, Config{Name: "test.csi", NodeID: "n1", Node: true, Mounter: m, Metrics: metrics.New("test.csi"), StateDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	target := t.TempDir()
	if err := d.nodeState().SavePublished(nodestate.Published{VolumeID: "v", StagingPath: t.TempDir(), TargetPath: target}); err != nil {
		t.Fatal(err)
	}
	// The probe takes half the deadline; the bound leaves a loaded
	// machine 1.5 s over that and still shows the call gave up early.
	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Second)
	defer cancel()
	start := time.Now()
	_, err = d.NodeGetVolumeStats(ctx, &csi.NodeGetVolumeStatsRequest{VolumeId: "v", VolumePath: target})
	if status.Code(err) != codes.Unavailable {
		t.Fatalf("stats of a hung mount: %v, want Unavailable", err)
	}
	if time.Since(start) > 3500*time.Millisecond {
		t.Fatalf("stats took %s, past the call's deadline", time.Since(start))
	}
	hctx, hcancel := context.WithTimeout(context.Background(), time.Second)
	defer hcancel()
	h, err := d.NodeGetVolumeHealth(hctx, &csi.NodeGetVolumeHealthRequest{VolumeId: "v", VolumePublishPath: target})
	if err != nil {
		t.Fatal(err)
	}
	if st := h.GetVolumeHealth().GetHealthStatuses(); len(st) != 1 || st[0].GetReason() != "ServerNotResponding" {
		t.Fatalf("health of a hung mount: %v", st)
	}
	if remounts != 0 || len(fake.GetLog()) != 0 {
		t.Fatalf("a hung mount was touched: %d mounts, log %v", remounts, fake.GetLog())
	}
}

// newHungNodeUnderTest returns a node whose mount table holds a staged NFS
// volume and its publication, both of which hang when looked at.
func newHungNodeUnderTest(t *testing.T) (d *Driver, fake *mount.FakeMounter, staging, target string, probes *atomic.Int32) {
	t.Helper()
	release := make(chan struct{})
	t.Cleanup(func() { close(release) })
	fake = mount.NewFakeMounter(nil)
	probes = &atomic.Int32{}
	run := func(context.Context, string, string, string, []string) error {
		t.Error("a hung mount was mounted again")
		return nil
	}
	m := mounter.NewLinuxForTest(hangingMounter{FakeMounter: fake, release: release, probes: probes}, run, t.TempDir())
	d, err := newTestDriver(t, Config{Name: "test.csi", NodeID: "n1", Node: true, Mounter: m, Metrics: metrics.New("test.csi"), StateDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	staging, target = publishedVolume(t, d, fake)
	return d, fake, staging, target, probes
}

// publishedVolume puts a staged NFS volume and its publication in the fake
// mount table and in the node's records, as a stage and a publish would.
func publishedVolume(t *testing.T, d *Driver, fake *mount.FakeMounter) (staging, target string) {
	t.Helper()
	staging, target = filepath.Join(t.TempDir(), "staging"), filepath.Join(t.TempDir(), "target")
	for _, p := range []string{staging, target} {
		if err := os.Mkdir(p, 0o750); err != nil {
			t.Fatal(err)
		}
	}
	_ = fake.Mount("10.0.0.5:/export/v", staging, "nfs", nil)
	_ = fake.Mount(staging, target, "", []string{"bind"})
	if err := d.nodeState().SavePublished(nodestate.Published{VolumeID: "v", StagingPath: staging, TargetPath: target}); err != nil {
		t.Fatal(err)
	}
	fake.ResetLog()
	return staging, target
}

// returnsWithin runs call and fails the test if it has not returned long
// after its own deadline: it hung.
func returnsWithin[T any](t *testing.T, what string, call func(ctx context.Context) (T, error)) error {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	done := make(chan error, 1)
	go func() { _, err := call(ctx); done <- err }()
	select {
	case err := <-done:
		return err
	case <-time.After(30 * time.Second):
		t.Fatalf("%s of a hung mount did not return at its deadline: it blocks", what)
		return nil
	}
}

// Every stats call on a hung mount used to start a probe of its own, and so
// another OS thread stuck in the kernel; now they share the one in flight.
func TestNodeStatsOfAHungMountStartOneProbe(t *testing.T) {
	d, _, _, target, probes := newHungNodeUnderTest(t)
	const calls = 20
	var wg sync.WaitGroup
	for range calls {
		wg.Add(1)
		go func() {
			defer wg.Done()
			ctx, cancel := context.WithTimeout(context.Background(), 400*time.Millisecond)
			defer cancel()
			_, err := d.NodeGetVolumeStats(ctx, &csi.NodeGetVolumeStatsRequest{VolumeId: "v", VolumePath: target})
			if status.Code(err) != codes.Unavailable {
				t.Errorf("stats of a hung mount: %v, want Unavailable", err)
			}
		}()
	}
	wg.Wait()
	if n := probes.Load(); n != 1 {
		t.Fatalf("%d stats calls on a hung mount started %d probes, want 1", calls, n)
	}
}

// Unpublish and unstage of a hung mount finish within their deadline,
// detach the mount (a bind only lazily; the staging mount forced), and
// release the volume's lock.
func TestNodeUnpublishAndUnstageOfAHungMountFinish(t *testing.T) {
	d, fake, staging, target, _ := newHungNodeUnderTest(t)
	unpublish := func(ctx context.Context) (*csi.NodeUnpublishVolumeResponse, error) {
		return d.NodeUnpublishVolume(ctx, &csi.NodeUnpublishVolumeRequest{VolumeId: "v", TargetPath: target})
	}
	unstage := func(ctx context.Context) (*csi.NodeUnstageVolumeResponse, error) {
		return d.NodeUnstageVolume(ctx, &csi.NodeUnstageVolumeRequest{VolumeId: "v", StagingTargetPath: staging})
	}
	if err := returnsWithin(t, "unpublish", unpublish); err != nil {
		t.Fatalf("unpublish of a hung mount: %v", err)
	}
	if err := returnsWithin(t, "unstage", unstage); err != nil {
		t.Fatalf("unstage of a hung mount: %v", err)
	}
	if mps, _ := fake.List(); len(mps) != 0 {
		t.Fatalf("still mounted: %v", mps)
	}
	for _, p := range []string{staging, target} {
		if _, err := os.Lstat(p); !os.IsNotExist(err) {
			t.Fatalf("%s left behind: %v", p, err)
		}
	}
	// The lock was released: the kubelet's retries are answered, not Aborted.
	if err := returnsWithin(t, "second unstage", unstage); err != nil {
		t.Fatalf("unstage again: %v", err)
	}
}

func TestHungMountDetachForcesOnlyTheStagingMount(t *testing.T) {
	release := make(chan struct{})
	defer close(release)
	fake := mount.NewFakeMounter(nil)
	m := mounter.NewLinuxForTest(hangingMounter{FakeMounter: fake, release: release}, nil, t.TempDir())
	var flags []int
	m.SetUnmountForTest(func(path string, f int) error {
		flags = append(flags, f)
		if f == syscall.MNT_FORCE {
			return syscall.EBUSY // still in use: the lazy unmount follows
		}
		return fake.Unmount(path)
	})
	staging, target := filepath.Join(t.TempDir(), "s"), filepath.Join(t.TempDir(), "t")
	for _, p := range []string{staging, target} {
		if err := os.Mkdir(p, 0o750); err != nil {
			t.Fatal(err)
		}
		_ = fake.Mount("dev", p, "nfs", nil)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	if err := m.Unpublish(ctx, target); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(flags, []int{syscall.MNT_DETACH}) {
		t.Fatalf("unpublish of a hung bind used flags %v, want MNT_DETACH only", flags)
	}
	flags = nil
	ctx, cancel = context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	if err := m.Unstage(ctx, staging); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(flags, []int{syscall.MNT_FORCE, syscall.MNT_DETACH}) {
		t.Fatalf("unstage of a hung mount used flags %v, want MNT_FORCE then MNT_DETACH", flags)
	}
}

// A root-squashed server answers the plugin EACCES for a volume root only
// its owner may read. The mount works for the pod: stats say so and
// nothing is unmounted or remounted.
func TestNodeStatsDeniedToThePluginLeaveTheMountAlone(t *testing.T) {
	for _, denial := range []syscall.Errno{syscall.EACCES, syscall.EPERM} {
		t.Run(denial.Error(), func(t *testing.T) {
			d, fake, calls := newNodeUnderTest(t)
			staging, target := publishedVolume(t, d, fake)
			fake.MountCheckErrors = map[string]error{target: &os.PathError{Op: "stat", Path: target, Err: denial}}
			_, err := d.NodeGetVolumeStats(context.Background(), &csi.NodeGetVolumeStatsRequest{VolumeId: "v", VolumePath: target, StagingTargetPath: staging})
			if status.Code(err) != codes.PermissionDenied || !strings.Contains(err.Error(), "root-squashed") {
				t.Fatalf("stats denied to the plugin: %v, want PermissionDenied saying why", err)
			}
			if len(fake.GetLog()) != 0 || len(*calls) != 0 {
				t.Fatalf("a working mount was touched: log %v, mounts %v", fake.GetLog(), *calls)
			}
			h, err := d.NodeGetVolumeHealth(context.Background(), &csi.NodeGetVolumeHealthRequest{VolumeId: "v", VolumePublishPath: target})
			if err != nil {
				t.Fatal(err)
			}
			if st := h.GetVolumeHealth().GetHealthStatuses(); len(st) != 1 || st[0].GetStatus() == csi.VolumeHealthErrorType_INACCESSIBLE {
				t.Fatalf("health of a mount the plugin may not read: %v", st)
			}
			// The kubelet's publish of another pod is refused with the same
			// code, and the staged mount stays.
			_, err = d.NodePublishVolume(context.Background(), &csi.NodePublishVolumeRequest{
				VolumeId: "v", StagingTargetPath: target, TargetPath: filepath.Join(t.TempDir(), "t2"),
				VolumeCapability: capability(csi.VolumeCapability_AccessMode_MULTI_NODE_MULTI_WRITER, nil, ""),
			})
			if status.Code(err) != codes.PermissionDenied || len(fake.GetLog()) != 0 {
				t.Fatalf("publish over a mount denied to the plugin: %v, log %v", err, fake.GetLog())
			}
		})
	}
}

// Stale handles and lost connections are broken for good: stats remount.
func TestNodeStatsRemountAStaleMount(t *testing.T) {
	d, fake, calls := newNodeUnderTest(t)
	staging := filepath.Join(t.TempDir(), "s")
	_, err := d.NodeStageVolume(context.Background(), &csi.NodeStageVolumeRequest{
		VolumeId: "v1#nfs://10.0.0.5/export#pvc-1#delete", StagingTargetPath: staging,
		VolumeCapability: capability(csi.VolumeCapability_AccessMode_MULTI_NODE_MULTI_WRITER, nil, ""),
	})
	if err != nil {
		t.Fatal(err)
	}
	fake.MountCheckErrors = map[string]error{staging: &os.PathError{Op: "stat", Path: staging, Err: syscall.ESTALE}}
	if _, err := d.NodeGetVolumeStats(context.Background(), &csi.NodeGetVolumeStatsRequest{VolumeId: "v1#nfs://10.0.0.5/export#pvc-1#delete", VolumePath: staging}); err != nil {
		t.Fatalf("stats of a stale mount: %v", err)
	}
	if len(*calls) != 2 {
		t.Fatalf("a stale mount was not mounted again: %+v", *calls)
	}
	wantMetric(t, d, "fileshare_csi_node_mount_repairs_total", map[string]string{"protocol": "nfs", "result": "ok"}, 1)
	wantMetric(t, d, "fileshare_csi_node_mounts", map[string]string{"protocol": "nfs", "state": "healthy"}, 1)
	wantMetric(t, d, "fileshare_csi_node_mounts", map[string]string{"protocol": "nfs", "state": "broken"}, 0)
}

// The node's mount gauge follows what the kubelet's looks find: a hung
// mount shows as hung, with its probe timeout counted, and nothing else.
func TestNodeMountMetricsShowAHungMount(t *testing.T) {
	d, _, staging, target, _ := newHungNodeUnderTest(t)
	d.mounts.staged(staging, "nfs")
	wantMetric(t, d, "fileshare_csi_node_mounts", map[string]string{"protocol": "nfs", "state": "healthy"}, 1)
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	if _, err := d.NodeGetVolumeStats(ctx, &csi.NodeGetVolumeStatsRequest{VolumeId: "v", VolumePath: target}); status.Code(err) != codes.Unavailable {
		t.Fatalf("stats of a hung mount: %v, want Unavailable", err)
	}
	wantMetric(t, d, "fileshare_csi_node_mounts", map[string]string{"protocol": "nfs", "state": "hung"}, 1)
	wantMetric(t, d, "fileshare_csi_node_mounts", map[string]string{"protocol": "nfs", "state": "healthy"}, 0)
	wantMetric(t, d, "fileshare_csi_node_probe_timeouts_total", map[string]string{"protocol": "nfs"}, 1)
	wantMetric(t, d, "fileshare_csi_node_mount_repairs_total", map[string]string{"protocol": "nfs", "result": "ok"}, 0)
}

// A stage whose mount succeeded and whose fsGroup delegation then failed
// for good (a root-squashed export refuses the chgrp; here a group that is
// no number, which NodeStageVolume refuses before it mounts, and only a
// repair from an earlier version's record brings the mounter) takes its
// own mount down: the kubelet calls no NodeUnstage after a stage that
// failed for good, so the mount would stay on the node.
func TestAStageThatFailsAfterItsMountTakesItDown(t *testing.T) {
	d, fake, calls := newNodeUnderTest(t)
	staging := filepath.Join(t.TempDir(), "staging")
	vol, err := volume.ParseID("v1#nfs://10.0.0.5/export#pvc-1#delete")
	if err != nil {
		t.Fatal(err)
	}
	err = d.cfg.Mounter.Stage(context.Background(), mounter.StageRequest{Source: vol.Source, SubDir: vol.SubDir, StagingPath: staging, MountGroup: "staff"})
	if err == nil || len(*calls) != 1 {
		t.Fatalf("stage: %v after %d mounts, want the mount made and the stage failed", err, len(*calls))
	}
	if mps, _ := fake.List(); len(mps) != 0 {
		t.Fatalf("the failed stage left its mounts: %+v", mps)
	}
}

// A read-only publish that finds the target bound read-write (a publish cut
// between the bind and its read-only remount) remounts it read-only in
// place, and never unmounts it: a pod may be running on it. (Real mounts:
// TestNodeReadOnlyPublishMendsABindThatWrites in the VM.)
func TestReadOnlyPublishRemountsABindThatWrites(t *testing.T) {
	d, fake, _ := newNodeUnderTest(t)
	ctx := context.Background()
	staging, target := filepath.Join(t.TempDir(), "staging"), filepath.Join(t.TempDir(), "target")
	req := &csi.NodeStageVolumeRequest{
		VolumeId: "v1#nfs://10.0.0.5/export#pvc-1#delete", StagingTargetPath: staging,
		VolumeCapability: capability(csi.VolumeCapability_AccessMode_MULTI_NODE_MULTI_WRITER, nil, ""),
	}
	if _, err := d.NodeStageVolume(ctx, req); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(target, 0o750); err != nil {
		t.Fatal(err)
	}
	if err := fake.Mount(staging, target, "", []string{"bind"}); err != nil {
		t.Fatal(err)
	}
	fake.ResetLog()
	if _, err := d.NodePublishVolume(ctx, &csi.NodePublishVolumeRequest{
		VolumeId: req.VolumeId, StagingTargetPath: staging, TargetPath: target, VolumeCapability: req.VolumeCapability, Readonly: true,
	}); err != nil {
		t.Fatal(err)
	}
	for _, a := range fake.GetLog() {
		if a.Action == mount.FakeActionUnmount {
			t.Fatalf("the publish unmounted the target: %+v", fake.GetLog())
		}
	}
	mps, _ := fake.List()
	ro := false
	for _, mp := range mps {
		if mp.Path == target {
			ro = slices.Contains(mp.Opts, "ro") && slices.Contains(mp.Opts, "remount")
		}
	}
	if !ro {
		t.Fatalf("the target was not remounted read-only: %+v", mps)
	}
}

// blockStateDir makes the node's records impossible to write (a file where
// their directory goes) until the returned func puts the directory back.
func blockStateDir(t *testing.T, d *Driver) (unblock func()) {
	t.Helper()
	dir := d.cfg.StateDir
	if err := os.RemoveAll(dir); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(dir, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	return func() {
		if err := os.Remove(dir); err != nil {
			t.Fatal(err)
		}
	}
}

// A stage whose record cannot be written is not answered OK: the kubelet
// would take the volume for staged while no record says how to repair its
// mount. It answers Unavailable, keeps the mount (the kubelet takes the
// answer for "maybe staged", and calls again or unstages), and the call
// again reuses the mount and writes the record.
func TestAStageWhoseRecordCannotBeWrittenIsCalledAgain(t *testing.T) {
	d, fake, calls := newNodeUnderTest(t)
	staging := filepath.Join(t.TempDir(), "staging")
	req := &csi.NodeStageVolumeRequest{
		VolumeId:          "v1#nfs://10.0.0.5/export#pvc-1#delete",
		StagingTargetPath: staging,
		VolumeCapability:  capability(csi.VolumeCapability_AccessMode_MULTI_NODE_MULTI_WRITER, nil, ""),
	}
	unblock := blockStateDir(t, d)
	_, err := d.NodeStageVolume(context.Background(), req)
	if status.Code(err) != codes.Unavailable || !strings.Contains(err.Error(), "state directory") {
		t.Fatalf("stage with no record written: %v, want Unavailable naming the state directory", err)
	}
	if len(*calls) != 1 {
		t.Fatalf("%d mounts, want 1", len(*calls))
	}
	wantBound(t, fake, (*calls)[0], "10.0.0.5:/export", staging, "pvc-1")
	unblock()
	if _, err := d.NodeStageVolume(context.Background(), req); err != nil {
		t.Fatalf("stage again: %v", err)
	}
	if len(*calls) != 1 {
		t.Fatalf("the stage again mounted again: %+v", *calls)
	}
	if mps, _ := fake.List(); len(mps) != 1 {
		t.Fatalf("mounts after the stage again: %+v, want the staging mount alone", mps)
	}
	if st, err := d.nodeState().Staged(staging); err != nil || st.Request.SubDir != "pvc-1" {
		t.Fatalf("the stage again left no record: %+v, %v", st.Request, err)
	}
}
