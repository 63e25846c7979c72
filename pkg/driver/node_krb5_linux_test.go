//go:build linux

package driver

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/container-storage-interface/spec/lib/go/csi"
	"github.com/jcmturner/gokrb5/v8/credentials"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	mount "k8s.io/mount-utils"

	"github.com/fileshare-csi/fileshare-csi/pkg/krb5/krb5test"
	"github.com/fileshare-csi/fileshare-csi/pkg/krb5cache"
	"github.com/fileshare-csi/fileshare-csi/pkg/mounter"
)

// A Kerberos volume mounts with the host's own tickets (cifs.upcall, root's
// cache): only when the operator turned that on, with sec=krb5,cruid=0 and
// seal, no password in the credentials file, and the keytab nowhere.
func TestNodeStageKerberosNeedsHostTicketsAndAddsItsOptions(t *testing.T) {
	d, fake, calls := newNodeUnderTest(t)
	staging := filepath.Join(t.TempDir(), "staging")
	req := &csi.NodeStageVolumeRequest{
		VolumeId:          "v1#smb://fs.corp.example/share?auth=krb5&encryption=required#claim#delete",
		StagingTargetPath: staging,
		VolumeCapability:  capability(csi.VolumeCapability_AccessMode_MULTI_NODE_MULTI_WRITER, nil, ""),
		Secrets:           map[string]string{"principal": "svc@CORP.EXAMPLE", "krb5.keytab": "BQIAAA-SECRET", "krb5.conf": "[libdefaults]"},
	}
	_, err := d.NodeStageVolume(context.Background(), req)
	if status.Code(err) != codes.FailedPrecondition || !strings.Contains(err.Error(), "--krb5-host-tickets") || !strings.Contains(err.Error(), "--krb5-cache-uids") {
		t.Fatalf("without --krb5-host-tickets: %v, want FailedPrecondition naming the flag", err)
	}
	if len(*calls) != 0 {
		t.Fatalf("mounted although refused: %+v", *calls)
	}
	d.cfg.Krb5HostTickets = true
	if _, err := d.NodeStageVolume(context.Background(), req); err != nil {
		t.Fatal(err)
	}
	if len(*calls) != 1 {
		t.Fatalf("mount calls: %+v", *calls)
	}
	c := (*calls)[0]
	wantBound(t, fake, c, "//fs.corp.example/share", staging, "claim")
	for _, want := range []string{"sec=krb5", "cruid=0", "seal"} {
		if !slices.Contains(c.options, want) {
			t.Errorf("options %v lack %s", c.options, want)
		}
	}
	if c.credentials != "username=svc\ndomain=CORP.EXAMPLE\n" {
		t.Errorf("credentials file %q", c.credentials)
	}
	st, err := d.nodeState().Staged(staging)
	if err != nil {
		t.Fatal(err)
	}
	if st.Request.Credentials.Keytab != "" || st.Request.Credentials.Krb5Conf != "" {
		t.Error("the node kept the Secret's keytab or krb5.conf")
	}
}

// A pod's inline volume never mounts with Kerberos: the kernel would log
// in with the node's tickets, not the pod's Secret's; not even where the
// node mounts its classes' Kerberos volumes with them.
func TestInlineVolumeNeverMountsWithKerberos(t *testing.T) {
	d, _, calls := newNodeUnderTest(t)
	d.cfg.Krb5HostTickets = true
	var err error
	if d.cfg.InlineSources, err = ParseInlineSources("smb://fs/team"); err != nil {
		t.Fatal(err)
	}
	target := filepath.Join(t.TempDir(), "target")
	_, err = d.NodePublishVolume(context.Background(), inlineRequest(target, "smb://fs/team?auth=krb5", "x", map[string]string{"principal": "svc@R"}))
	if status.Code(err) != codes.FailedPrecondition || !strings.Contains(err.Error(), "node's own tickets") {
		t.Fatalf("inline krb5: %v, want FailedPrecondition", err)
	}
	if len(*calls) != 0 {
		t.Fatalf("mounted: %+v", *calls)
	}
	// Nor through the mount options, the form classes used before auth:
	// it would log in with root's tickets (no cruid).
	for _, opt := range []string{"sec=krb5", "vers=3.0,sec=krb5i", "sec=Krb5"} {
		req := inlineRequest(target, "smb://fs/team", "x", map[string]string{"username": "u", "password": "p"})
		req.VolumeContext[ContextMountOptions] = opt
		_, err = d.NodePublishVolume(context.Background(), req)
		if status.Code(err) != codes.FailedPrecondition || !strings.Contains(err.Error(), "node's own tickets") {
			t.Errorf("inline with mount option %q: %v, want FailedPrecondition", opt, err)
		}
	}
	if len(*calls) != 0 {
		t.Fatalf("mounted: %+v", *calls)
	}
}

// cachedNode is a node that writes Kerberos ticket caches (--krb5-cache-uids
// 40000-40009) into dir, whose kernel takes upcall_target as upcall says.
func cachedNode(t *testing.T, dir, stateDir string, desk *krb5test.KDC, upcall error, fails func(string) error) (*Driver, *mount.FakeMounter, *[]networkMount) {
	t.Helper()
	return cachedNodeOver(t, dir, stateDir, desk, upcall, fails, nil)
}

// cachedNodeOver is cachedNode on a node whose mount table shows mounts
// from its start (nil: newNodeWith's empty one), as after a restart of the
// plugin with its mounts in place.
func cachedNodeOver(t *testing.T, dir, stateDir string, desk *krb5test.KDC, upcall error, fails func(string) error, mounts []mount.MountPoint) (*Driver, *mount.FakeMounter, *[]networkMount) {
	t.Helper()
	return newNodeWith(t, func(c *Config) {
		if mounts != nil {
			c.Mounter = mounter.NewLinuxForTest(mount.NewFakeMounter(mounts), nil, t.TempDir())
		}
		m, err := krb5cache.New(krb5cache.Config{First: 40000, Last: 40009, Path: filepath.Join(dir, "krb5cc_%{uid}"),
			StateFile: filepath.Join(stateDir, "krb5-uids.json"), Login: desk.Login,
			Chown: func(*os.File, int) error { return nil }})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(m.Close)
		c.Krb5Caches, c.StateDir = m, stateDir
		c.Mounter.(*mounter.Linux).UpcallTarget = func() error { return upcall }
	}, fails)
}

// krbStage is the stage of a krb5 volume at staging with a Secret of key.
func krbStage(staging, key string) *csi.NodeStageVolumeRequest {
	return &csi.NodeStageVolumeRequest{
		VolumeId:          "v1#smb://fs.corp.example/share?auth=krb5#claim#delete",
		StagingTargetPath: staging,
		VolumeCapability:  capability(csi.VolumeCapability_AccessMode_MULTI_NODE_MULTI_WRITER, nil, ""),
		Secrets:           krbSecret(key),
	}
}

func krbSecret(key string) map[string]string {
	return map[string]string{"principal": "svc@CORP.EXAMPLE", "krb5.keytab": key, "krb5.conf": "[libdefaults]\n default_realm = CORP.EXAMPLE\n"}
}

// With --krb5-cache-uids a Kerberos volume mounts as its Secret's principal:
// the node logs in with the Secret, writes the tickets into the cache of
// the uid it gives the principal, and mounts with that uid as cruid and
// upcall_target=mount; unstaging the last volume removes the cache.
func TestNodeStageKerberosWithATicketCacheOfTheSecretsPrincipal(t *testing.T) {
	dir, stateDir := t.TempDir(), filepath.Join(t.TempDir(), "state")
	desk := krb5test.New(map[string]string{"svc@CORP.EXAMPLE": "key-1-SECRET"}, time.Hour)
	d, _, calls := cachedNode(t, dir, stateDir, desk, nil, nil)
	staging := filepath.Join(t.TempDir(), "staging")
	req := krbStage(staging, "key-1-SECRET")
	if _, err := d.NodeStageVolume(context.Background(), req); err != nil {
		t.Fatal(err)
	}
	if len(*calls) != 1 {
		t.Fatalf("mount calls: %+v", *calls)
	}
	opts := (*calls)[0].options
	for _, want := range []string{"sec=krb5", "cruid=40000", "upcall_target=mount", "retrans=15"} {
		if !slices.Contains(opts, want) {
			t.Errorf("options %v lack %s", opts, want)
		}
	}
	if slices.Contains(opts, "cruid=0") || strings.Contains(strings.Join(opts, ",")+(*calls)[0].credentials, "SECRET") {
		t.Errorf("options %v, credentials file %q", opts, (*calls)[0].credentials)
	}
	cache := filepath.Join(dir, "krb5cc_40000")
	if c, err := credentials.LoadCCache(cache); err != nil || c.GetClientPrincipalName().PrincipalNameString() != "svc" {
		t.Fatalf("the uid's cache: %v", err)
	}
	// The record keeps the keytab (renewals after a restart need it), in
	// the keyring as staged passwords are: not in a file.
	st, err := d.nodeState().Staged(staging)
	if err != nil || st.Request.Credentials.Keytab != "key-1-SECRET" || st.Request.CredUID == nil || *st.Request.CredUID != 40000 {
		t.Fatalf("staged record: %+v, %v", st.Request, err)
	}
	_ = filepath.WalkDir(stateDir, func(p string, e os.DirEntry, err error) error {
		if err == nil && !e.IsDir() {
			if b, _ := os.ReadFile(p); strings.Contains(string(b), "key-1-SECRET") {
				t.Errorf("%s holds the keytab", p)
			}
		}
		return err
	})

	// The plugin restarts: the volume keeps its uid, and its cache is
	// renewed at once from the kept credentials.
	before := desk.Count()
	restarted, _, _ := cachedNode(t, dir, stateDir, desk, nil, nil)
	for deadline := time.Now().Add(10 * time.Second); desk.Count() == before; time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("no renewal after the restart")
		}
	}
	if uid, ok := restarted.cfg.Krb5Caches.Uses(staging); !ok || uid != 40000 {
		t.Errorf("after the restart: uid %d, %v", uid, ok)
	}
	if _, err := restarted.NodeUnstageVolume(context.Background(), &csi.NodeUnstageVolumeRequest{VolumeId: req.VolumeId, StagingTargetPath: staging}); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(cache); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("the cache after the last volume was unstaged: %v", err)
	}
}

// What stops a Kerberos stage with a cache before anything is mounted: a
// kernel without upcall_target, a Secret the KDC refuses; and a mount that
// fails gives the uid back.
func TestNodeStageKerberosCacheRefusals(t *testing.T) {
	desk := krb5test.New(map[string]string{"svc@CORP.EXAMPLE": "key-1-SECRET"}, time.Hour)
	stage := func(d *Driver, key string) error {
		_, err := d.NodeStageVolume(context.Background(), krbStage(filepath.Join(t.TempDir(), "staging"), key))
		return err
	}
	dir := t.TempDir()
	d, _, calls := cachedNode(t, dir, filepath.Join(t.TempDir(), "state"), desk, errors.New("unknown parameter"), nil)
	if err := stage(d, "key-1-SECRET"); status.Code(err) != codes.FailedPrecondition || !strings.Contains(err.Error(), "upcall_target") {
		t.Errorf("an old kernel: %v", err)
	}
	d, _, calls = cachedNode(t, dir, filepath.Join(t.TempDir(), "state"), desk, nil, nil)
	err := stage(d, "wrong-SECRET")
	if status.Code(err) != codes.PermissionDenied || strings.Contains(err.Error(), "SECRET") {
		t.Errorf("a key the KDC refuses: %v", err)
	}
	if len(*calls) != 0 {
		t.Errorf("mounted: %+v", *calls)
	}
	d, _, _ = cachedNode(t, dir, filepath.Join(t.TempDir(), "state"), desk, nil, func(string) error { return errors.New("mount error(126): Required key not available") })
	if err := stage(d, "key-1-SECRET"); status.Code(err) != codes.FailedPrecondition || !strings.Contains(err.Error(), "cifs-utils 7.2") || !strings.Contains(err.Error(), "uid 40000") {
		t.Fatalf("a mount cifs.upcall found no ticket for: %v", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "krb5cc_40000")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("a failed mount left its uid's cache: %v", err)
	}
}

// A stage cut short after its mount (the plugin killed before its record,
// or the deadline) leaves a mount whose cruid the node may since have given
// back or to another principal. The retry, whose principal has another uid
// now, mounts again with its own instead of reusing that mount; a mount of
// the right uid is reused.
func TestNodeStageKerberosReplacesAMountOfAnotherUID(t *testing.T) {
	dir, stateDir := t.TempDir(), filepath.Join(t.TempDir(), "state")
	desk := krb5test.New(map[string]string{"svc@CORP.EXAMPLE": "key-1-SECRET"}, time.Hour)
	d, fake, calls := cachedNode(t, dir, stateDir, desk, nil, nil)
	shown := map[string]uint32{}
	d.cfg.Mounter.(*mounter.Linux).CredUIDOf = func(p string) (uint32, bool) { u, ok := shown[p]; return u, ok }
	staging := filepath.Join(t.TempDir(), "staging")
	req := krbStage(staging, "key-1-SECRET")
	stage := func() {
		t.Helper()
		if _, err := d.NodeStageVolume(context.Background(), req); err != nil {
			t.Fatal(err)
		}
	}
	stage()
	shown[staging] = 40000
	stage()
	if len(*calls) != 1 {
		t.Fatalf("a mount of the stage's own uid was not reused: %d mounts", len(*calls))
	}
	shown[staging] = 40007 // what the cut stage's mount logs in as
	stage()
	if len(*calls) != 2 || !slices.Contains((*calls)[1].options, "cruid=40000") {
		t.Fatalf("mounts after a mount of another uid: %+v", *calls)
	}
	unmounted := false
	for _, a := range fake.GetLog() {
		unmounted = unmounted || a.Action == mount.FakeActionUnmount && a.Target == staging
	}
	if !unmounted {
		t.Errorf("the mount of the other uid was not taken down first: %+v", fake.GetLog())
	}
}

// stagedKerberosVolume stages a krb5 volume (uid 40000, its cache in dir)
// on a node keeping its records in stateDir, as before a restart.
func stagedKerberosVolume(t *testing.T) (dir, stateDir string, desk *krb5test.KDC, staging string) {
	t.Helper()
	dir, stateDir = t.TempDir(), filepath.Join(t.TempDir(), "state")
	desk = krb5test.New(map[string]string{"svc@CORP.EXAMPLE": "key-1-SECRET"}, time.Hour)
	d, _, _ := cachedNode(t, dir, stateDir, desk, nil, nil)
	staging = filepath.Join(t.TempDir(), "staging")
	if _, err := d.NodeStageVolume(context.Background(), krbStage(staging, "key-1-SECRET")); err != nil {
		t.Fatal(err)
	}
	return dir, stateDir, desk, staging
}

// The node reboots: the staged record and the Kerberos uid outlive the
// mount (the state directory is on the host's disk). The kubelet stages
// again and the mount fails for good (the Secret's key was replaced by a
// wrong one); the kubelet may never unstage a volume whose stage failed.
// So the failed stage gives back the uid (its cache goes, no renewals) and
// the record (its credentials go), and the next start has nothing to
// renew. A stage that fails while the earlier mount is still there keeps
// both: the mount serves its pods.
func TestFailedStageOverNoMountForgetsTheEarlierStage(t *testing.T) {
	dir, stateDir, desk, staging := stagedKerberosVolume(t)
	cache := filepath.Join(dir, "krb5cc_40000")

	// A stage that fails while the mount is there gives nothing back.
	failing, fake2, _ := cachedNode(t, dir, stateDir, desk, nil, nil)
	if err := fake2.Mount("//fs.corp.example/share", staging, "cifs", nil); err != nil {
		t.Fatal(err)
	}
	failing.node.stageFailed(context.Background(), staging, false)
	if _, ok := failing.cfg.Krb5Caches.Uses(staging); !ok {
		t.Error("a failed stage over a live mount gave its uid back")
	}
	if _, err := failing.nodeState().Staged(staging); err != nil {
		t.Errorf("a failed stage over a live mount dropped its record: %v", err)
	}

	// The node reboots: no mount. The stage fails again.
	rebooted, _, _ := cachedNode(t, dir, stateDir, desk, nil, func(string) error { return errors.New("mount error(13): Permission denied") })
	if _, ok := rebooted.cfg.Krb5Caches.Uses(staging); !ok {
		t.Fatal("after the reboot the uid is not on record: the case under test did not arise")
	}
	if _, err := rebooted.NodeStageVolume(context.Background(), krbStage(staging, "key-1-SECRET")); err == nil {
		t.Fatal("the stage with a failing mount succeeded")
	}
	if uid, ok := rebooted.cfg.Krb5Caches.Uses(staging); ok {
		t.Errorf("the failed stage over no mount kept uid %d", uid)
	}
	if _, err := os.Stat(cache); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("the uid's cache after the failed stage: %v", err)
	}
	if st, err := rebooted.nodeState().Staged(staging); err == nil {
		t.Errorf("the failed stage over no mount kept the record %+v", st.Request.Source)
	}
	// The next start renews nothing.
	before := desk.Count()
	again, _, _ := cachedNode(t, dir, stateDir, desk, nil, nil)
	time.Sleep(200 * time.Millisecond)
	if _, ok := again.cfg.Krb5Caches.Uses(staging); ok || desk.Count() != before {
		t.Errorf("the next start took the uid over (%v) or logged in (%d logins)", ok, desk.Count()-before)
	}
}

// At a restart the node keeps a Kerberos uid for every volume that may
// still be mounted: one whose record cannot be read, and one whose record
// was never saved (the plugin died, or SaveStaged failed and the kubelet
// went away before the call again) while its mount is there. Given to another principal, the uid's cache would
// hold that principal's tickets, and the live mount's next reconnect would
// log in as them. Only a volume with neither record nor mount lets it go.
func TestRestartKeepsTheUIDOfAVolumeThatMayBeMounted(t *testing.T) {
	for _, c := range []struct {
		name    string
		record  func(file string) error // what happened to the record
		mounted bool
		keep    bool
	}{
		{"record unreadable, no mount", func(f string) error { return os.WriteFile(f, []byte("{torn"), 0o600) }, false, true},
		{"record never saved, mounted", os.Remove, true, true},
		{"record never saved, no mount", os.Remove, false, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir, stateDir, desk, staging := stagedKerberosVolume(t)
			files, _ := filepath.Glob(filepath.Join(stateDir, "staged-*.json"))
			if len(files) != 1 {
				t.Fatalf("staged records: %v", files)
			}
			if err := c.record(files[0]); err != nil {
				t.Fatal(err)
			}
			var mounts []mount.MountPoint
			if c.mounted {
				mounts = []mount.MountPoint{{Device: "//fs.corp.example/share", Path: staging, Type: "cifs"}}
			}
			restarted, _, _ := cachedNodeOver(t, dir, stateDir, desk, nil, nil, mounts)
			if _, ok := restarted.cfg.Krb5Caches.Uses(staging); ok != c.keep {
				t.Errorf("after the restart the volume holds its uid: %v, want %v", ok, c.keep)
			}
			if _, err := os.Stat(filepath.Join(dir, "krb5cc_40000")); (err == nil) != c.keep {
				t.Errorf("the uid's cache after the restart: %v, want kept %v", err, c.keep)
			}
		})
	}
}

// The node reboots (the records and the uids outlive the mounts) and the
// volume's Secret now names another principal. The stage is refused (a
// live mount would keep its identity), and since nothing is mounted the
// refusal gives back the old principal's uid and record, so the kubelet's
// next stage mounts as the new principal instead of being refused forever.
func TestAnEarlyStageFailureOverNoMountForgetsTheEarlierStage(t *testing.T) {
	dir, stateDir := t.TempDir(), filepath.Join(t.TempDir(), "state")
	desk := krb5test.New(map[string]string{"svc@CORP.EXAMPLE": "key-1-SECRET", "new@CORP.EXAMPLE": "key-2-SECRET"}, time.Hour)
	d, _, _ := cachedNode(t, dir, stateDir, desk, nil, nil)
	staging := filepath.Join(t.TempDir(), "staging")
	if _, err := d.NodeStageVolume(context.Background(), krbStage(staging, "key-1-SECRET")); err != nil {
		t.Fatal(err)
	}
	rebooted, _, calls := cachedNode(t, dir, stateDir, desk, nil, nil)
	req := krbStage(staging, "key-2-SECRET")
	req.Secrets["principal"] = "new@CORP.EXAMPLE"
	_, err := rebooted.NodeStageVolume(context.Background(), req)
	if status.Code(err) != codes.FailedPrecondition {
		t.Fatalf("the stage as another principal over the old one's uid: %v, want FailedPrecondition", err)
	}
	if _, err := rebooted.nodeState().Staged(staging); err == nil {
		t.Error("the refused stage over no mount kept the earlier stage's record")
	}
	if _, err := rebooted.NodeStageVolume(context.Background(), req); err != nil {
		t.Fatalf("the kubelet's next stage: %v", err)
	}
	if len(*calls) != 1 || !slices.Contains((*calls)[0].options, "cruid=40000") {
		t.Fatalf("mounts %+v, want one with the freed uid 40000 for the new principal", *calls)
	}
	if st, err := rebooted.nodeState().Staged(staging); err != nil || st.Request.Credentials.Principal != "new@CORP.EXAMPLE" {
		t.Errorf("the record after the stage: %+v, %v", st.Request.Credentials.Principal, err)
	}
}

// A stage again finds the staging mount gone (a repair unmounted a broken
// one) and its mount fails, while a pod's bind of the volume is still
// mounted: the bind is the same CIFS session, which reconnects with the
// uid's tickets. So the volume keeps its record and its uid (given to
// another principal, the pod's reconnects would log in as them), and a
// restart keeps them too.
func TestAFailedStageKeepsTheUIDWhileAPodStillHasTheVolume(t *testing.T) {
	dir, stateDir := t.TempDir(), filepath.Join(t.TempDir(), "state")
	desk := krb5test.New(map[string]string{"svc@CORP.EXAMPLE": "key-1-SECRET"}, time.Hour)
	failing := false
	d, fake, _ := cachedNode(t, dir, stateDir, desk, nil, func(string) error {
		if failing {
			return errors.New("mount error(112): Host is down")
		}
		return nil
	})
	ctx := context.Background()
	staging, target := filepath.Join(t.TempDir(), "staging"), filepath.Join(t.TempDir(), "target")
	req := krbStage(staging, "key-1-SECRET")
	if _, err := d.NodeStageVolume(ctx, req); err != nil {
		t.Fatal(err)
	}
	if _, err := d.NodePublishVolume(ctx, &csi.NodePublishVolumeRequest{
		VolumeId: req.VolumeId, StagingTargetPath: staging, TargetPath: target, VolumeCapability: req.VolumeCapability,
	}); err != nil {
		t.Fatal(err)
	}
	if err := fake.Unmount(staging); err != nil {
		t.Fatal(err)
	}
	failing = true
	if _, err := d.NodeStageVolume(ctx, req); err == nil {
		t.Fatal("the stage with a failing mount succeeded")
	}
	if _, ok := d.cfg.Krb5Caches.Uses(staging); !ok {
		t.Error("the failed stage gave the uid back while a pod's bind of the volume is mounted")
	}
	if _, err := d.nodeState().Staged(staging); err != nil {
		t.Errorf("the failed stage dropped the record while a pod's bind is mounted: %v", err)
	}
}

func TestALegacySecKrb5NeedsTheHostTicketsFlag(t *testing.T) {
	d, _, calls := newNodeUnderTest(t) // neither Krb5Caches nor Krb5HostTickets
	_, err := d.NodeStageVolume(context.Background(), &csi.NodeStageVolumeRequest{
		VolumeId:          "static-pv",
		StagingTargetPath: filepath.Join(t.TempDir(), "staging"),
		VolumeCapability:  capability(csi.VolumeCapability_AccessMode_MULTI_NODE_MULTI_WRITER, nil, ""),
		VolumeContext:     map[string]string{ContextSource: "smb://fs/share", ContextSubDir: "dir", ContextMountOptions: "sec=krb5"},
		Secrets:           map[string]string{"username": "alice", "password": "pw"},
	})
	if status.Code(err) != codes.FailedPrecondition {
		var opts []string
		if len(*calls) > 0 {
			opts = (*calls)[0].options
		}
		t.Fatalf("stage of a sec=krb5 PV on a node without --krb5-host-tickets: %v, mount options %v; want FailedPrecondition", err, opts)
	}
	if len(*calls) != 0 {
		t.Fatalf("mounted although refused: %+v", *calls)
	}
	// The operator's flag allows it, as before.
	d.cfg.Krb5HostTickets = true
	_, err = d.NodeStageVolume(context.Background(), &csi.NodeStageVolumeRequest{
		VolumeId:          "static-pv",
		StagingTargetPath: filepath.Join(t.TempDir(), "staging"),
		VolumeCapability:  capability(csi.VolumeCapability_AccessMode_MULTI_NODE_MULTI_WRITER, nil, ""),
		VolumeContext:     map[string]string{ContextSource: "smb://fs/share", ContextSubDir: "dir", ContextMountOptions: "sec=krb5"},
		Secrets:           map[string]string{"username": "alice", "password": "pw"},
	})
	if err != nil || len(*calls) != 1 || !slices.Contains((*calls)[0].options, "sec=krb5") {
		t.Fatalf("with --krb5-host-tickets: %v, mounts %+v", err, *calls)
	}
}
