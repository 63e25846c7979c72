//go:build linux

// Package krb5node is make test-krb5-node (test/krb5node/run.sh): node
// mounts with sec=krb5 made by the driver's node plugin, in the test VM,
// against the Samba AD domain controller that the script runs on the host
// (test/krb5node/dc), in the mode the driver ships: the plugin runs with
// --krb5-host-tickets and the kernel's cifs.upcall finds root's ticket
// cache (cruid=0), which the test keeps renewed from a keytab as an
// operator's timer would. It runs only in the VM, where the script puts the
// realm's files in /results/krb5; elsewhere it skips.
package krb5node

import (
	"bufio"
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/container-storage-interface/spec/lib/go/csi"
	"github.com/jcmturner/gokrb5/v8/credentials"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/fileshare-csi/fileshare-csi/test/harness"
)

// dcInfo is the dc.json test/krb5node/dc writes (its Info).
type dcInfo struct {
	Realm, Domain, Addr, Host, Share, EncryptedShare, User, Keytab string
}

// rootCache is root's default credential cache: the guest's krb5.conf names
// none, so libkrb5's built-in default, where cifs.upcall looks for cruid=0.
const rootCache = "/tmp/krb5cc_0"

var env struct {
	dir     string // /results/krb5: the realm's files and the requests to the host
	logs    string // /results/logs
	info    dcInfo
	keytab  string // the node's keytab, in the guest, not /etc/krb5.keytab
	krbConf string // the Secret's krb5.conf (the controller's)
	// lifetime is the tickets' (kinit -l), FILESHARE_KRB5_LIFETIME.
	lifetime time.Duration
	bin      string
	work     string
	// upcallVersion is cifs.upcall's (FILESHARE_CIFS_UPCALL's, if set).
	upcallVersion string
	seq           atomic.Int64
}

func principal() string { return env.info.User + "@" + env.info.Realm }

func secrets(t *testing.T) map[string]string {
	t.Helper()
	kt, err := os.ReadFile(env.keytab)
	if err != nil {
		t.Fatal(err)
	}
	return map[string]string{"principal": principal(), "krb5.keytab": base64.StdEncoding.EncodeToString(kt), "krb5.conf": env.krbConf}
}

var mountCap = &csi.VolumeCapability{
	AccessType: &csi.VolumeCapability_Mount{Mount: &csi.VolumeCapability_MountVolume{}},
	AccessMode: &csi.VolumeCapability_AccessMode{Mode: csi.VolumeCapability_AccessMode_MULTI_NODE_MULTI_WRITER},
}

func TestMain(m *testing.M) {
	// The test binary again, as a pod's process (podWriter).
	if dir := os.Getenv("FILESHARE_KRB5_POD_WRITER"); dir != "" {
		pause, _ := time.ParseDuration(os.Getenv("FILESHARE_KRB5_POD_PAUSE"))
		podWrite(dir, pause)
		return
	}
	os.Exit(m.Run())
}

// TestKerberosNode: the three parts of #29's "node, in the VM", on one
// domain controller and one guest set-up.
func TestKerberosNode(t *testing.T) {
	setUp(t)
	// The controller: a session per call (--max-sessions-per-share 0), so
	// the DC's smbstatus shows the kernel's sessions alone; and without
	// --krb5-host-tickets, so its node refuses Kerberos stages.
	plain := startDriver(t, "--mode", "all", "--max-sessions-per-share", "0")
	hosted := startDriver(t, "--mode", "node", "--krb5-host-tickets")
	ctrl := csi.NewControllerClient(plain.Conn)
	kinit(t)

	t.Run("without --krb5-host-tickets the stage is refused", func(t *testing.T) {
		vol := create(t, ctrl, "krb-noflag", map[string]string{"source": "smb://" + env.info.Host + "/" + env.info.Share, "auth": "krb5"})
		staging := filepath.Join(env.work, "noflag", "staging")
		_, err := csi.NewNodeClient(plain.Conn).NodeStageVolume(context.Background(), &csi.NodeStageVolumeRequest{
			VolumeId: vol.GetVolumeId(), StagingTargetPath: staging, VolumeCapability: mountCap,
			VolumeContext: vol.GetVolumeContext(), Secrets: secrets(t)})
		if status.Code(err) != codes.FailedPrecondition || !strings.Contains(err.Error(), "--krb5-host-tickets") {
			t.Errorf("NodeStageVolume without --krb5-host-tickets: %v, want FailedPrecondition naming the flag", err)
		}
		t.Logf("refused: %v", err)
		deleteVol(t, ctrl, vol.GetVolumeId())
	})

	t.Run("encryption required mounts with seal", func(t *testing.T) {
		before := smbstatus(t, "--shares")
		if l := shareLines(before, env.info.EncryptedShare); len(l) != 0 {
			t.Logf("before the stage the DC already shows %s in use: %q", env.info.EncryptedShare, l)
		}
		vol := create(t, ctrl, "krb-sealed", map[string]string{"source": "smb://" + env.info.Host + "/" + env.info.EncryptedShare, "auth": "krb5", "encryption": "required"})
		sv := stage(t, hosted, vol, "sealed")
		line := mountLine(t, sv.staging)
		for _, want := range []string{"sec=krb5", "cruid=0", "seal"} {
			if !hasOpt(line, want) {
				t.Errorf("the staged mount lacks %s: %s", want, line)
			}
		}
		target := filepath.Join(env.work, "sealed", "pod", "mount")
		publish(t, hosted, sv, target)
		p := filepath.Join(target, "sealed.txt")
		if err := os.WriteFile(p, []byte("over an encrypted session"), 0o644); err != nil {
			t.Fatal(err)
		}
		if b, err := os.ReadFile(p); err != nil || string(b) != "over an encrypted session" {
			t.Fatalf("read back: %q %v", b, err)
		}
		after := smbstatus(t, "--shares")
		lines := shareLines(after, env.info.EncryptedShare)
		if len(lines) == 0 || !strings.Contains(strings.Join(lines, "\n"), "AES") {
			t.Errorf("the DC's smbstatus shows no encrypted connection to %s:\n%s", env.info.EncryptedShare, after)
		}
		for _, l := range lines {
			t.Logf("smbstatus --shares: %s", strings.Join(strings.Fields(l), " "))
		}
		// The session itself: the only one (the controller keeps none).
		sessions := sessionLines(smbstatus(t, "-p"))
		if len(sessions) == 0 || !strings.Contains(strings.Join(sessions, "\n"), "AES") {
			t.Errorf("the DC's smbstatus -p shows no encrypted session: %q", sessions)
		}
		for _, l := range sessions {
			t.Logf("smbstatus -p: %s", strings.Join(strings.Fields(l), " "))
		}
		unpublish(t, hosted, sv, target)
		unstage(t, hosted, sv)
		deleteVol(t, ctrl, vol.GetVolumeId())
	})

	t.Run("a writer across two ticket lifetimes", func(t *testing.T) {
		writerAcrossLifetimes(t, ctrl, hosted)
	})

	t.Run("pod writer in a mount namespace of its own", func(t *testing.T) {
		if os.Getenv("FILESHARE_KRB5_POD") == "" {
			t.Skip("an experiment: FILESHARE_KRB5_POD=1")
		}
		podWriter(t, ctrl, hosted)
	})

	t.Run("a host whose request-key runs no cifs.upcall: FailedPrecondition", func(t *testing.T) {
		missingUpcall(t, ctrl)
	})

	// Last: it rotates the user's keys, after which the node's keytab
	// (env.keytab, root's kinit) no longer logs in.
	t.Run("a ticket cache of the Secret's principal: a pod writer across two lifetimes and a keytab rotation", func(t *testing.T) {
		cachePodWriter(t, ctrl)
	})
}

// The pool of --krb5-cache-uids in the guest; setUp gives each uid a
// passwd entry, as docs/kerberos.md asks of a host.
const cacheUIDFirst, cacheUIDLast = 7100, 7103

// missingUpcall: a host whose request-key names no working cifs.upcall
// (cifs-utils missing, or removed) cannot give the kernel a ticket; the
// stage answers FailedPrecondition saying what the host needs, mounts
// nothing, and gives the uid back with its cache.
func missingUpcall(t *testing.T, ctrl csi.ControllerClient) {
	const conf = "/etc/request-key.d/cifs.spnego.conf"
	saved, err := os.ReadFile(conf)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(conf, []byte("create cifs.spnego * * /nonexistent/cifs.upcall %k\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	defer func() {
		if err := os.WriteFile(conf, saved, 0o644); err != nil {
			t.Fatal(err)
		}
	}()
	d := startDriver(t, "--mode", "node", "--krb5-cache-uids", fmt.Sprintf("%d-%d", cacheUIDFirst, cacheUIDLast), "--krb5-cache-path", "/tmp/krb5cc_%{uid}")
	vol := create(t, ctrl, "krb-no-upcall", map[string]string{"source": "smb://" + env.info.Host + "/" + env.info.Share, "auth": "krb5"})
	defer deleteVol(t, ctrl, vol.GetVolumeId())
	staging := filepath.Join(env.work, "no-upcall", "staging")
	if err := os.MkdirAll(filepath.Dir(staging), 0o755); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	_, err = csi.NewNodeClient(d.Conn).NodeStageVolume(ctx, &csi.NodeStageVolumeRequest{
		VolumeId: vol.GetVolumeId(), StagingTargetPath: staging, VolumeCapability: mountCap,
		VolumeContext: vol.GetVolumeContext(), Secrets: cacheSecrets(t, env.info.Keytab),
	})
	t.Logf("NodeStageVolume: %v", err)
	if status.Code(err) != codes.FailedPrecondition || !strings.Contains(status.Convert(err).Message(), "cifs-utils") {
		t.Errorf("NodeStageVolume on a host without cifs.upcall: %v; want FailedPrecondition naming cifs-utils", err)
	}
	if l := mountLineNoFail(staging); l != "" {
		t.Errorf("the failed stage left a mount: %s", l)
	}
	for u := cacheUIDFirst; u <= cacheUIDLast; u++ {
		if _, err := os.Lstat(fmt.Sprintf("/tmp/krb5cc_%d", u)); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("the failed stage left uid %d's cache (%v)", u, err)
		}
	}
}

// cacheSecrets is the Secret of a volume mounted with a ticket cache of its
// own: the keytab at path (in env.dir), and the DC's krb5.conf with the
// test's ticket lifetime, which the plugin's logins ask the KDC for.
func cacheSecrets(t *testing.T, keytab string) map[string]string {
	t.Helper()
	kt, err := os.ReadFile(filepath.Join(env.dir, keytab))
	if err != nil {
		t.Fatal(err)
	}
	conf := strings.Replace(env.krbConf, "[libdefaults]\n", fmt.Sprintf("[libdefaults]\n  ticket_lifetime = %ds\n", int(env.lifetime.Seconds())), 1)
	if conf == env.krbConf {
		t.Fatalf("the DC's krb5.conf has no [libdefaults] line:\n%s", env.krbConf)
	}
	return map[string]string{"principal": principal(), "krb5.keytab": base64.StdEncoding.EncodeToString(kt), "krb5.conf": conf}
}

// cachePodWriter is the mode #29 asks for: the plugin (--krb5-cache-uids)
// logs in as the Secret's principal, writes the tickets into the cache of
// a host uid of its own and renews them there; the mount says
// sec=krb5,cruid=<uid>,upcall_target=mount, so cifs.upcall (7.2+, on a
// kernel with the option) reads that uid's cache in the host's namespaces
// whoever sets a session up. A pod's writer, in a mount namespace of its
// own whose /tmp is empty and whose krb5.conf is /dev/null (an upcall made
// in the pod's namespaces would find neither), writes for two and a half
// ticket lifetimes while the DC ends the kernel's session three times
// after the first tickets expired, and the Secret's keytab is rotated half
// way (the republish hands it to the plugin). Root has no tickets: a pass
// comes from the uid's cache alone. No write and no upcall may fail.
func cachePodWriter(t *testing.T, ctrl csi.ControllerClient) {
	L := env.lifetime
	// Root's cache of the earlier subtests goes: nothing may fall back on it.
	if err := os.Remove(rootCache); err != nil && !errors.Is(err, os.ErrNotExist) {
		t.Fatal(err)
	}
	cached := startDriver(t, "--mode", "node", "--krb5-cache-uids", fmt.Sprintf("%d-%d", cacheUIDFirst, cacheUIDLast), "--krb5-cache-path", "/tmp/krb5cc_%{uid}")
	t0 := time.Now()
	vol := create(t, ctrl, "krb-cache", map[string]string{"source": "smb://" + env.info.Host + "/" + env.info.Share, "auth": "krb5"})
	sv := stageWith(t, cached, vol, "cache", cacheSecrets(t, env.info.Keytab))
	line := mountLine(t, sv.staging)
	uid := -1
	for _, o := range strings.Split(strings.Fields(line)[3], ",") {
		if v, ok := strings.CutPrefix(o, "cruid="); ok {
			uid, _ = strconv.Atoi(v)
		}
	}
	if uid < cacheUIDFirst || uid > cacheUIDLast {
		t.Fatalf("the staged mount's cruid is %d, not of the pool %d-%d: %s", uid, cacheUIDFirst, cacheUIDLast, line)
	}
	for _, want := range []string{"sec=krb5", "upcall_target=mount", "retrans=15"} {
		if !hasOpt(line, want) {
			t.Errorf("the staged mount lacks %s: %s", want, line)
		}
	}
	t.Logf("mount: %s", line)
	cache := fmt.Sprintf("/tmp/krb5cc_%d", uid)
	checkCacheFile(t, cache, uid)
	first := cacheTGT(t, cache)
	t.Logf("uid %d's first ticket: %s", uid, first)
	target := filepath.Join(env.work, "cache", "pod", "mount")
	publish(t, cached, sv, target)

	up0 := upcalls(t)
	from := len(syslogLines(t))
	// A write every half second, as writerAcrossLifetimes. Back to back
	// (no pause), one fsync in 30,254 failed with EBADF on Linux 6.12 at
	// the instant a session expired: the file was opened in the old
	// session and the flush replayed after the reconnect with its old
	// handle, which the kernel does not reopen for a replay
	// (docs/kerberos.md). With back-to-back writes the pod's own call set
	// the session up again in one run of two, the case that fails with
	// root's tickets; at this pace mostly the kernel's worker does.
	pod, podNS := startPod(t, target, "cache-pod-writer.log", 500*time.Millisecond)
	type event struct {
		at   time.Time
		what string
		done bool
	}
	events := []*event{
		{at: t0.Add(L + L/4), what: "kill"},
		{at: t0.Add(L + L/2), what: "rotate"},
		{at: t0.Add(L + 3*L/4), what: "kill"},
		{at: t0.Add(2*L + L/4), what: "kill"},
	}
	end := t0.Add(2*L + L/2)
	tgts := map[time.Time]bool{first.start: true}
	var report []string
	var rotatedAt time.Time
	kills := 0
	for time.Now().Before(end) {
		time.Sleep(5 * time.Second)
		if k, err := cacheTGTNoFail(cache); err == nil && !tgts[k.start] {
			tgts[k.start] = true
			t.Logf("%s: the plugin renewed uid %d's cache: %s", time.Now().Format(time.TimeOnly), uid, k)
		}
		for _, e := range events {
			if e.done || time.Now().Before(e.at) {
				continue
			}
			e.done = true
			switch e.what {
			case "kill":
				kills++
				report = append(report, forceReconnect(t, kills, first.end, func() int { ok, _ := pod.results(t); return ok }, cache))
			case "rotate":
				rotatedAt = time.Now()
				rotateUnderWriter(t, cached, sv, target)
			}
		}
	}
	// Who asked for each upcall, in whose namespaces (while the pod's
	// tasks still run), and with what.
	up := upcalls(t)
	inPod := 0
	var who []string
	for _, l := range syslogLines(t)[from:] {
		// The key description names the task that set the session up
		// (pid=0x..., in hex), whichever cifs.upcall reads it.
		if m := keyPIDRE.FindStringSubmatch(l); m != nil {
			pid, _ := strconv.ParseInt(m[1], 16, 64)
			desc, ofPod := asker(pid, podNS)
			if ofPod {
				inPod++
			}
			who = append(who, strings.Fields(l)[2]+" "+desc)
		}
		if strings.Contains(l, "key description:") && !strings.Contains(l, fmt.Sprintf("creduid=0x%x;", uid)) {
			t.Errorf("an upcall during the run was not for uid %d: %s", uid, l)
		}
		if strings.Contains(l, "key description:") && !strings.Contains(l, "upcall_target=mount") {
			t.Errorf("an upcall during the run was not made with upcall_target=mount: %s", l)
		}
	}
	if pod.stop(t) == 0 {
		t.Errorf("the pod's writer made no write")
	}
	for _, r := range report {
		t.Log(r)
	}

	t.Logf("cifs.upcall: %d successful upcalls during the run, %d failed, %d named a task of the pod's mount namespace (which, with root's tickets, fails: podWriter); the last for %s; asked by: %s",
		up.ok-up0.ok, up.failed-up0.failed, inPod, up.last, strings.Join(who, "; "))
	if up.failed > up0.failed {
		t.Errorf("%d upcalls failed during the run (syslog in %s)", up.failed-up0.failed, env.logs)
	}
	if up.ok-up0.ok < kills {
		t.Errorf("%d successful upcalls for %d forced reconnects", up.ok-up0.ok, kills)
	}
	// The plugin renewed the cache at least once per lifetime, and after
	// the rotation with the new keys (the old ones no longer log in:
	// rotateUnderWriter checks), so the last tickets are younger than it.
	if len(tgts) < 3 {
		t.Errorf("uid %d's cache held %d tickets over %v, want a renewal per lifetime", uid, len(tgts), time.Since(t0).Round(time.Second))
	}
	if last := cacheTGT(t, cache); !rotatedAt.IsZero() && !last.start.After(rotatedAt) {
		t.Errorf("no renewal after the keytab rotation at %s: the cache's ticket is %s", rotatedAt.Format(time.TimeOnly), last)
	}
	checkCacheFile(t, cache, uid)

	unpublish(t, cached, sv, target)
	unstage(t, cached, sv)
	if _, err := os.Lstat(cache); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("uid %d's cache is still there after its principal's last volume was unstaged (%v)", uid, err)
	}
	deleteVol(t, ctrl, vol.GetVolumeId())
}

var keyPIDRE = regexp.MustCompile(`key description: .*;pid=0x([0-9a-f]+)`)

// rotateUnderWriter has the DC give the Secret's user new keys, checks that
// the old keytab no longer logs in, and republishes the volume with the new
// one, as the kubelet does (requiresRepublish) when the Secret changed.
func rotateUnderWriter(t *testing.T, d *harness.Driver, sv stagedVol, target string) {
	t.Helper()
	name, err := ask("rotate-keytab")
	if err != nil {
		t.Errorf("rotate: %v", err)
		return
	}
	name = strings.TrimSpace(name)
	old := exec.Command("kinit", "-k", "-t", env.keytab, principal())
	old.Env = append(os.Environ(), "KRB5CCNAME=FILE:"+filepath.Join(env.work, "old-keytab-cc"))
	if out, err := old.CombinedOutput(); err == nil {
		t.Errorf("the old keytab still logs in after the rotation; the test cannot tell which keys the plugin renews with")
	} else {
		t.Logf("%s: rotated the user's keys (%s); the old keytab is refused: %s", time.Now().Format(time.TimeOnly), name, strings.TrimSpace(string(out)))
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if _, err := csi.NewNodeClient(d.Conn).NodePublishVolume(ctx, &csi.NodePublishVolumeRequest{
		VolumeId: sv.id, StagingTargetPath: sv.staging, TargetPath: target, VolumeCapability: mountCap,
		Secrets: cacheSecrets(t, name),
	}); err != nil {
		t.Errorf("the republish with the rotated keytab: %v", err)
	}
}

// checkCacheFile: the cache is a regular file of uid's, readable by it
// alone.
func checkCacheFile(t *testing.T, path string, uid int) {
	t.Helper()
	fi, err := os.Lstat(path)
	if err != nil {
		t.Fatalf("uid %d's cache: %v", uid, err)
	}
	st := fi.Sys().(*syscall.Stat_t)
	if !fi.Mode().IsRegular() || fi.Mode().Perm() != 0o600 || int(st.Uid) != uid {
		t.Errorf("%s: mode %v, owner %d; want a regular file, 0600, owned by %d", path, fi.Mode(), st.Uid, uid)
	}
}

// podWriter is what a pod does on a node in the shipped mode: a writer in
// a mount namespace of its own (its own /tmp, no krb5.conf), while the DC
// ends the kernel's session five times. It reports, for each reconnect, in
// whose namespaces the upcall ran and how it ended, and fails on a failed
// write.
func podWriter(t *testing.T, ctrl csi.ControllerClient, hosted *harness.Driver) {
	kinit(t)
	vol := create(t, ctrl, "krb-pod", map[string]string{"source": "smb://" + env.info.Host + "/" + env.info.Share, "auth": "krb5"})
	sv := stage(t, hosted, vol, "pod")
	target := filepath.Join(env.work, "pod", "pod", "mount")
	publish(t, hosted, sv, target)
	pod, podNS := startPod(t, target, "pod-writer.log", 500*time.Millisecond)
	for i := 1; i <= 5; i++ {
		from := len(syslogLines(t))
		killed, err := ask("kill-sessions")
		if err != nil {
			t.Errorf("kill %d: %v", i, err)
		}
		time.Sleep(20 * time.Second)
		var who []string
		for _, l := range syslogLines(t)[from:] {
			if _, v, ok := strings.Cut(l, "cifs.upcall: pid="); ok {
				pid, _ := strconv.ParseInt(strings.TrimSpace(v), 10, 64)
				desc, _ := asker(pid, podNS)
				who = append(who, desc)
			}
			if strings.Contains(l, "Exit status") || strings.Contains(l, "unable") || strings.Contains(l, "rror") || strings.Contains(l, "ailed") {
				who = append(who, strings.TrimSpace(l[strings.Index(l, "cifs.upcall:")+len("cifs.upcall:"):]))
			}
		}
		t.Logf("kill %d (smbd %s): upcalls: %s", i, strings.TrimSpace(killed), strings.Join(who, "; "))
	}
	pod.stop(t)
	unpublish(t, hosted, sv, target)
	unstage(t, hosted, sv)
	deleteVol(t, ctrl, vol.GetVolumeId())
}

// podProc is a pod's writer: this test binary again (podWrite), in a mount
// namespace of its own with the volume at /mnt, its own empty /tmp and
// /dev/null for a krb5.conf, as a container has; its lines go to log.
type podProc struct {
	cmd *exec.Cmd
	log string
}

// startPod starts a pod's writer on the published volume at target, and
// returns it with its mount namespace.
func startPod(t *testing.T, target, logName string, pause time.Duration) (*podProc, string) {
	t.Helper()
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	p := &podProc{log: filepath.Join(env.logs, logName)}
	logf, err := os.Create(p.log)
	if err != nil {
		t.Fatal(err)
	}
	defer logf.Close()
	p.cmd = exec.Command("unshare", "--mount", "--propagation", "private", "sh", "-c",
		`mount --bind "$1" /mnt && mount -t tmpfs tmpfs /tmp && mount --bind /dev/null /etc/krb5.conf && exec "$2"`, "sh", target, self)
	p.cmd.Env = append(os.Environ(), "FILESHARE_KRB5_POD_WRITER=/mnt", "FILESHARE_KRB5_POD_PAUSE="+pause.String())
	p.cmd.Stdout, p.cmd.Stderr = logf, logf
	if err := p.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = p.cmd.Process.Kill(); _ = p.cmd.Wait() })
	myNS, _ := os.Readlink("/proc/self/ns/mnt")
	var podNS string
	waitFor(t, "the pod's first write", 30*time.Second, func() bool {
		podNS, _ = os.Readlink(fmt.Sprintf("/proc/%d/ns/mnt", p.cmd.Process.Pid))
		ok, _ := p.results(t)
		return ok > 0
	})
	if podNS == myNS {
		t.Fatalf("the pod's writer runs in the test's mount namespace %s", myNS)
	}
	t.Logf("the pod's writer: pid %d, mount namespace %s (the test's %s)", p.cmd.Process.Pid, podNS, myNS)
	return p, podNS
}

// stop ends the pod's writer and fails t for each of its writes that
// failed; it returns how many succeeded.
func (p *podProc) stop(t *testing.T) int {
	t.Helper()
	_ = p.cmd.Process.Kill()
	_ = p.cmd.Wait()
	ok, failed := p.results(t)
	t.Logf("the pod's writer: %d writes, %d failed", ok, len(failed))
	for _, f := range failed {
		t.Errorf("the pod's write failed: %s", f)
	}
	return ok
}

// asker describes the task the kernel named for an upcall (its pid): its
// name and whose mount namespace it is in, the pod's (ofPod), the node's,
// or none (gone).
func asker(pid int64, podNS string) (desc string, ofPod bool) {
	myNS, _ := os.Readlink("/proc/self/ns/mnt")
	ns, _ := os.Readlink(fmt.Sprintf("/proc/%d/ns/mnt", pid))
	comm, _ := os.ReadFile(fmt.Sprintf("/proc/%d/comm", pid))
	where := "gone"
	switch {
	case ns != "" && ns == podNS:
		where, ofPod = "the pod's", true
	case ns == myNS:
		where = "the node's"
	}
	return fmt.Sprintf("pid %d (%s, %s mount namespace)", pid, strings.TrimSpace(string(comm)), where), ofPod
}

// results are the pod's successful writes so far, and its failures.
func (p *podProc) results(t *testing.T) (ok int, failed []string) {
	t.Helper()
	b, err := os.ReadFile(p.log)
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range strings.Split(string(b), "\n") {
		switch {
		case strings.HasPrefix(l, "ok "):
			ok++
		case strings.HasPrefix(l, "FAIL "):
			failed = append(failed, l)
		}
	}
	return ok, failed
}

// podWrite is the pod's writer: an fsync'd append, then pause, with "ok N"
// or "FAIL N time error" on stdout, until killed.
func podWrite(dir string, pause time.Duration) {
	for i := 1; ; i++ {
		began := time.Now()
		f, err := os.OpenFile(filepath.Join(dir, "pod.log"), os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
		if err == nil {
			if _, err = fmt.Fprintf(f, "%06d %s\n", i, began.Format(time.RFC3339Nano)); err == nil {
				err = f.Sync()
			}
			if cerr := f.Close(); err == nil {
				err = cerr
			}
		}
		if err != nil {
			fmt.Printf("FAIL %d %s %v (after %v)\n", i, began.Format("15:04:05.000"), err, time.Since(began).Round(time.Millisecond))
		} else {
			fmt.Printf("ok %d %v\n", i, time.Since(began).Round(time.Millisecond))
		}
		time.Sleep(pause)
	}
}

// syslogLines are the guest's syslog's lines of cifs.upcall.
func syslogLines(t *testing.T) []string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(env.logs, "syslog.log"))
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, l := range strings.Split(string(b), "\n") {
		if strings.Contains(l, "cifs.upcall:") {
			out = append(out, l)
		}
	}
	return out
}

// writerAcrossLifetimes stages a volume of an auth: krb5 class, publishes
// it, and writes to it every half second for two and a half ticket
// lifetimes, while root's cache is renewed (kinit -k) every two fifths of
// a lifetime and the DC ends the kernel's sessions (their smbd is terminated) a
// quarter lifetime after the first ticket and after the second expired.
// No write may fail; each forced reconnect must be followed by a
// successful upcall and a new session at the DC.
func writerAcrossLifetimes(t *testing.T, ctrl csi.ControllerClient, hosted *harness.Driver) {
	L := env.lifetime
	t0 := time.Now()
	kinit(t)
	first := tgt(t)
	t.Logf("root's first ticket: %s", first)
	vol := create(t, ctrl, "krb-writer", map[string]string{"source": "smb://" + env.info.Host + "/" + env.info.Share, "auth": "krb5"})
	sv := stage(t, hosted, vol, "writer")
	line := mountLine(t, sv.staging)
	for _, want := range []string{"sec=krb5", "cruid=0"} {
		if !hasOpt(line, want) {
			t.Errorf("the staged mount lacks %s: %s", want, line)
		}
	}
	t.Logf("mount: %s", line)
	target := filepath.Join(env.work, "writer", "pod", "mount")
	publish(t, hosted, sv, target)
	pids := sessionPIDs(t)
	t.Logf("the DC serves the mount's session with smbd %v", pids)
	up0 := upcalls(t)
	rc0 := reconnects(t)

	w := startWriter(target)
	renewals := 0
	type kill struct {
		at   time.Time
		done bool
	}
	kills := []*kill{{at: t0.Add(L + L/4)}, {at: t0.Add(2*L + L/4)}}
	// Every two fifths of a lifetime: a ticket's end (a renewal's time
	// plus a lifetime, when the server expires the session and the kernel
	// asks again) then falls between two renewals, never on one. Renewing
	// every half lifetime put a renewal on the very second of a session's
	// expiry, and in one run of three that renewal's kinit never returned
	// and the upcalls failed from then on.
	period := 2 * L / 5
	nextRenew := t0.Add(period)
	end := t0.Add(2*L + L/2)
	var reconnectReport []string
	for {
		now := time.Now()
		if now.After(end) {
			break
		}
		wake := end
		if nextRenew.Before(wake) {
			wake = nextRenew
		}
		for _, k := range kills {
			if !k.done && k.at.Before(wake) {
				wake = k.at
			}
		}
		if d := time.Until(wake); d > 0 {
			if !w.waitUntil(wake) {
				t.Errorf("%s: the writer made no progress for %v (last error: %s)", time.Now().Format(time.TimeOnly), time.Since(w.lastProgress()).Round(time.Second), w.lastError())
				break
			}
		}
		now = time.Now()
		if !now.Before(nextRenew) {
			// The operator's timer: a fresh TGT into root's default cache
			// before the one there expires.
			kinit(t)
			renewals++
			t.Logf("%s: renewed root's cache (%d): %s", now.Format(time.TimeOnly), renewals, tgt(t))
			nextRenew = nextRenew.Add(period)
		}
		for i, k := range kills {
			if k.done || now.Before(k.at) {
				continue
			}
			k.done = true
			r := forceReconnect(t, i+1, first.end, func() int { return w.stats().appends }, rootCache)
			reconnectReport = append(reconnectReport, r)
		}
	}
	w.stop()
	st := w.stats()
	t.Logf("writer: %d writes (%d appends, %d files written and read back) over %v, %d failed, slowest %v",
		st.appends+st.files, st.appends, st.files, st.elapsed.Round(time.Second), st.failures, st.slowest.Round(time.Millisecond))
	for _, e := range st.errors {
		t.Errorf("write failed: %s", e)
	}
	if st.appends == 0 {
		t.Errorf("no write succeeded")
	}
	// Every append that reported success is in the file, in order.
	if n, err := countLines(filepath.Join(target, "appends.log")); err != nil || n != st.appends {
		t.Errorf("appends.log has %d lines (%v), the writer made %d appends", n, err, st.appends)
	}
	up := upcalls(t)
	rc := reconnects(t)
	t.Logf("cifs.upcall: %d successful upcalls during the run (%d before it), %d failed, the last for %s; kernel reconnects: %d session, %d share (%d, %d before)",
		up.ok-up0.ok, up0.ok, up.failed-up0.failed, up.last, rc[0]-rc0[0], rc[1]-rc0[1], rc0[0], rc0[1])
	if up.failed > up0.failed {
		t.Errorf("%d upcalls failed during the run (syslog in %s)", up.failed-up0.failed, env.logs)
	}
	for _, r := range reconnectReport {
		t.Log(r)
	}
	if renewals < 3 {
		t.Errorf("root's cache was renewed %d times, want at least 3", renewals)
	}
	unpublish(t, hosted, sv, target)
	unstage(t, hosted, sv)
	deleteVol(t, ctrl, vol.GetVolumeId())
}

// forceReconnect has the DC terminate the smbd serving the kernel's
// session (after firstEnd, when the first ticket has expired), then waits
// for the kernel to have a new session, made with a new upcall, while the
// writer goes on (writes: its successful writes so far). It returns a line
// for the report, with the tickets in the mount's cache.
func forceReconnect(t *testing.T, n int, firstEnd time.Time, writes func() int, cache string) string {
	t.Helper()
	at := time.Now()
	if !at.After(firstEnd) {
		t.Errorf("forced reconnect %d at %s, before the first ticket expired (%s)", n, at.Format(time.TimeOnly), firstEnd.Format(time.TimeOnly))
	}
	up0 := upcalls(t)
	rc0 := reconnects(t)
	writes0 := writes()
	out, err := ask("kill-sessions")
	if err != nil {
		t.Errorf("forced reconnect %d: %v", n, err)
		return fmt.Sprintf("forced reconnect %d: failed: %v", n, err)
	}
	killed := strings.Fields(out)
	var pids []int
	deadline := time.Now().Add(2 * time.Minute)
	for time.Now().Before(deadline) {
		time.Sleep(2 * time.Second)
		pids = sessionPIDsNoFail()
		if len(pids) > 0 && !overlap(pids, killed) && upcalls(t).ok > up0.ok && writes() > writes0+2 {
			break
		}
	}
	up := upcalls(t)
	rc := reconnects(t)
	took := time.Since(at).Round(time.Second)
	r := fmt.Sprintf("forced reconnect %d at %s (%v after the first ticket's end): DC terminated smbd %v; new session smbd %v; %d new upcall(s), the last for %s; kernel session reconnects +%d, writes +%d, within %v; %s: %s",
		n, at.Format(time.TimeOnly), at.Sub(firstEnd).Round(time.Second), killed, pids, up.ok-up0.ok, up.last, rc[0]-rc0[0], writes()-writes0, took, cache, cacheSummary(t, cache))
	t.Logf("%s", r)
	if len(pids) == 0 || overlap(pids, killed) {
		t.Errorf("forced reconnect %d: the DC shows no new session (smbd %v, terminated %v)", n, pids, killed)
	}
	if up.ok <= up0.ok {
		t.Errorf("forced reconnect %d: no successful upcall after it", n)
	}
	if rc[0] <= rc0[0] {
		t.Errorf("forced reconnect %d: the kernel's session reconnect count did not grow (%d)", n, rc[0])
	}
	return r
}

func overlap(pids []int, killed []string) bool {
	for _, p := range pids {
		for _, k := range killed {
			if strconv.Itoa(p) == k {
				return true
			}
		}
	}
	return false
}

// --- the guest's set-up ---

func setUp(t *testing.T) {
	t.Helper()
	env.dir = getenv("FILESHARE_KRB5_NODE_DIR", "/results/krb5")
	b, err := os.ReadFile(filepath.Join(env.dir, "dc.json"))
	if errors.Is(err, os.ErrNotExist) {
		t.Skip("runs in the test VM with the host's domain controller: make test-krb5-node")
	}
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &env.info); err != nil {
		t.Fatal(err)
	}
	if env.lifetime, err = time.ParseDuration(getenv("FILESHARE_KRB5_LIFETIME", "3m")); err != nil {
		t.Fatal(err)
	}
	env.logs = getenv("FILESHARE_KRB5_NODE_LOGS", filepath.Join(filepath.Dir(env.dir), "logs"))
	if err := os.MkdirAll(env.logs, 0o755); err != nil {
		t.Fatal(err)
	}
	if env.bin, err = harness.BuildDriver(t.TempDir(), "../..", os.Getenv("FILESHARE_DRIVER_BINARY")); err != nil {
		t.Fatal(err)
	}
	// Unix sockets do not work on the 9p results share: the work
	// directory is the guest's; the drivers' logs are copied out.
	env.work, err = os.MkdirTemp("", "krb5node-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = os.RemoveAll(env.work) })

	// What the kernel's Kerberos upcall needs on a node: request-key and
	// its cifs.spnego line (keyutils, cifs-utils), cifs.upcall and the MIT
	// libraries it links, a krb5.conf; kinit and klist to make the cache.
	upcall := "/usr/sbin/cifs.upcall"
	if u := os.Getenv("FILESHARE_CIFS_UPCALL"); u != "" {
		// The script's cifs.upcall (test/vm/fetch-cifs-utils.sh): 7.2 or
		// later, which reads upcall_target=mount, where the host's
		// bookworm has 7.0. The guest's /etc is its own (an overlay).
		upcall = u
		line := "create cifs.spnego * * " + u + " %k\n"
		if err := os.WriteFile("/etc/request-key.d/cifs.spnego.conf", []byte(line), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, p := range []string{"/sbin/request-key", upcall, "/etc/request-key.d/cifs.spnego.conf"} {
		if _, err := os.Stat(p); err != nil {
			t.Fatalf("%v: the node needs cifs-utils and keyutils", err)
		}
	}
	for _, c := range []string{"kinit", "klist", "mount.cifs", "busybox", "ip"} {
		if _, err := exec.LookPath(c); err != nil {
			t.Fatalf("%s: %v", c, err)
		}
	}
	if out, err := exec.Command(upcall, "--version").CombinedOutput(); err != nil {
		t.Fatalf("%s: %v\n%s", upcall, err, out)
	} else {
		env.upcallVersion = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(string(out)), "version:"))
	}
	// The uids of --krb5-cache-uids have passwd entries, as on a host
	// (docs/kerberos.md): cifs.upcall looks the cache's uid up.
	pw, err := os.OpenFile("/etc/passwd", os.O_APPEND|os.O_WRONLY, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	for u := cacheUIDFirst; u <= cacheUIDLast; u++ {
		fmt.Fprintf(pw, "fscsi-krb5-%d:x:%d:%d:fileshare-csi ticket cache:/nonexistent:/usr/sbin/nologin\n", u, u, u)
	}
	if err := pw.Close(); err != nil {
		t.Fatal(err)
	}
	// The node's keytab stays out of /etc/krb5.keytab, where cifs.upcall
	// would log in from it by itself when root's cache has no ticket: a
	// pass must come from the renewed cache.
	if err := os.Remove("/etc/krb5.keytab"); err != nil && !errors.Is(err, os.ErrNotExist) {
		t.Fatal(err)
	}
	env.keytab = "/etc/fileshare-krb5/node.keytab"
	kt, err := os.ReadFile(filepath.Join(env.dir, env.info.Keytab))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Dir(env.keytab), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(env.keytab, kt, 0o600); err != nil {
		t.Fatal(err)
	}
	kc, err := os.ReadFile(filepath.Join(env.dir, "krb5.conf"))
	if err != nil {
		t.Fatal(err)
	}
	env.krbConf = string(kc)

	// The network: qemu's user network (the script's VM_NIC) NATs the
	// guest's connections through the host's sockets, so the DC is reached
	// at its namespace's address through the gateway, 10.0.2.2; nothing
	// else is routed.
	run(t, "modprobe", "virtio_net")
	waitFor(t, "eth0", 30*time.Second, func() bool { _, err := os.Stat("/sys/class/net/eth0"); return err == nil })
	run(t, "ip", "link", "set", "eth0", "up")
	runOK(t, "ip", "addr", "add", "10.0.2.15/24", "dev", "eth0")
	runOK(t, "ip", "route", "add", env.info.Addr+"/32", "via", "10.0.2.2")
	hosts, err := os.OpenFile("/etc/hosts", os.O_APPEND|os.O_WRONLY, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	fmt.Fprintf(hosts, "%s %s %s\n", env.info.Addr, env.info.Host, strings.SplitN(env.info.Host, ".", 2)[0])
	hosts.Close()
	// The node's krb5.conf: the KDC by name, over TCP (through the NAT),
	// no DNS (the guest has none), and the name the mount uses mapped to
	// the realm.
	conf := fmt.Sprintf(`[libdefaults]
  default_realm = %[1]s
  dns_lookup_kdc = false
  dns_lookup_realm = false
  rdns = false
  dns_canonicalize_hostname = false
  udp_preference_limit = 1
[realms]
  %[1]s = {
    kdc = %[2]s
  }
[domain_realm]
  .%[3]s = %[1]s
  %[3]s = %[1]s
`, env.info.Realm, env.info.Host, strings.ToLower(env.info.Realm))
	if err := os.WriteFile("/etc/krb5.conf", []byte(conf), 0o644); err != nil {
		t.Fatal(err)
	}
	// cifs.upcall logs to syslog: each upcall, the cache it used and how
	// it ended, which the test counts.
	syslog := exec.Command("busybox", "syslogd", "-n", "-O", filepath.Join(env.logs, "syslog.log"))
	if err := syslog.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = syslog.Process.Kill(); _ = syslog.Wait() })
	waitFor(t, "syslogd's /dev/log", 30*time.Second, func() bool { _, err := os.Stat("/dev/log"); return err == nil })
	t.Cleanup(func() {
		if out, err := exec.Command("dmesg").CombinedOutput(); err == nil {
			_ = os.WriteFile(filepath.Join(env.logs, "dmesg.log"), out, 0o644)
		}
	})
	for _, port := range []string{"88", "445"} {
		addr := net.JoinHostPort(env.info.Host, port)
		waitFor(t, "the DC at "+addr, 30*time.Second, func() bool {
			c, err := net.DialTimeout("tcp", addr, 3*time.Second)
			if err == nil {
				c.Close()
			}
			return err == nil
		})
	}
	kver, _ := os.ReadFile("/proc/sys/kernel/osrelease")
	t.Logf("guest ready: kernel %s, cifs.upcall %s; DC %s (%s) at %s, tickets of %v", strings.TrimSpace(string(kver)), env.upcallVersion, env.info.Host, env.info.Realm, env.info.Addr, env.lifetime)
}

func getenv(k, def string) string {
	if v := os.Getenv(k); v != "" {
		return v
	}
	return def
}

func run(t *testing.T, name string, args ...string) string {
	t.Helper()
	out, err := exec.Command(name, args...).CombinedOutput()
	if err != nil {
		t.Fatalf("%s %s: %v\n%s", name, strings.Join(args, " "), err, out)
	}
	return string(out)
}

// runOK is run where "already there" (EEXIST) is fine.
func runOK(t *testing.T, name string, args ...string) {
	t.Helper()
	out, err := exec.Command(name, args...).CombinedOutput()
	if err != nil && !bytes.Contains(out, []byte("File exists")) {
		t.Fatalf("%s %s: %v\n%s", name, strings.Join(args, " "), err, out)
	}
}

func waitFor(t *testing.T, what string, d time.Duration, ok func() bool) {
	t.Helper()
	deadline := time.Now().Add(d)
	for !ok() {
		if time.Now().After(deadline) {
			t.Fatalf("waited %v for %s", d, what)
		}
		time.Sleep(250 * time.Millisecond)
	}
}

func startDriver(t *testing.T, args ...string) *harness.Driver {
	t.Helper()
	n := env.seq.Add(1)
	d, err := harness.StartDriver(env.bin, env.work, append([]string{"--nodeid", "krb5-node", "--v", "5",
		"--state-dir", filepath.Join(env.work, fmt.Sprintf("state-%d", n))}, args...)...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		d.Stop()
		if b, err := d.Log(); err == nil {
			_ = os.WriteFile(filepath.Join(env.logs, filepath.Base(d.LogPath)), b, 0o644)
		}
	})
	return d
}

// --- Kerberos on the node ---

// kinit puts a fresh ticket-granting ticket of the node's identity into
// root's default cache, from its keytab, with the test's short lifetime:
// what an operator's timer (kinit -k, k5start) does.
func kinit(t *testing.T) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "kinit", "-k", "-t", env.keytab, "-l", strconv.Itoa(int(env.lifetime.Seconds()))+"s", principal())
	for _, e := range os.Environ() {
		if !strings.HasPrefix(e, "KRB5CCNAME=") {
			cmd.Env = append(cmd.Env, e)
		}
	}
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("kinit (%v): %v\n%s", ctx.Err(), err, out)
	}
}

type ticket struct {
	server     string
	start, end time.Time
}

func (k ticket) String() string {
	return fmt.Sprintf("%s %s-%s", k.server, k.start.Format(time.TimeOnly), k.end.Format(time.TimeOnly))
}

func cacheTickets(t *testing.T) []ticket {
	t.Helper()
	out, err := cacheTicketsAt(rootCache)
	if err != nil {
		t.Fatalf("root's cache %s: %v", rootCache, err)
	}
	return out
}

func cacheTicketsAt(path string) ([]ticket, error) {
	c, err := credentials.LoadCCache(path)
	if err != nil {
		return nil, err
	}
	var out []ticket
	for _, cr := range c.Credentials {
		if strings.HasPrefix(cr.Server.Realm, "X-CACHECONF") {
			continue
		}
		out = append(out, ticket{server: cr.Server.PrincipalName.PrincipalNameString() + "@" + cr.Server.Realm, start: cr.StartTime, end: cr.EndTime})
	}
	return out, nil
}

// cacheTGTNoFail is the ticket-granting ticket in the cache at path.
func cacheTGTNoFail(path string) (ticket, error) {
	ks, err := cacheTicketsAt(path)
	if err != nil {
		return ticket{}, err
	}
	for _, k := range ks {
		if strings.HasPrefix(k.server, "krbtgt/") {
			return k, nil
		}
	}
	return ticket{}, fmt.Errorf("no ticket-granting ticket in %s", path)
}

// cacheTGT is cacheTGTNoFail, whose lifetime must be the test's.
func cacheTGT(t *testing.T, path string) ticket {
	t.Helper()
	k, err := cacheTGTNoFail(path)
	if err != nil {
		t.Fatal(err)
	}
	if got := k.end.Sub(k.start); got > env.lifetime+time.Minute || got < env.lifetime-time.Minute {
		t.Fatalf("the KDC gave the plugin a ticket of %v, its krb5.conf asked for %v: %s", got, env.lifetime, k)
	}
	return k
}

// tgt is root's ticket-granting ticket; its lifetime must be the test's.
func tgt(t *testing.T) ticket {
	t.Helper()
	for _, k := range cacheTickets(t) {
		if strings.HasPrefix(k.server, "krbtgt/") {
			if got := k.end.Sub(k.start); got > env.lifetime+time.Minute || got < env.lifetime-time.Minute {
				t.Fatalf("the KDC gave a ticket of %v, asked for %v: %s", got, env.lifetime, k)
			}
			return k
		}
	}
	t.Fatalf("no ticket-granting ticket in %s", rootCache)
	return ticket{}
}

// cacheSummary lists the tickets in the cache at path.
func cacheSummary(t *testing.T, path string) string {
	t.Helper()
	ks, err := cacheTicketsAt(path)
	if err != nil {
		return err.Error()
	}
	var s []string
	for _, k := range ks {
		s = append(s, k.String())
	}
	return strings.Join(s, ", ")
}

type upcallCount struct {
	ok, failed int
	// last says who asked for the last upcall (the task the kernel named:
	// pid=, and its name when it still runs) and the cache it used.
	last string
}

// upcalls counts cifs.upcall's ends in the guest's syslog ("Exit status
// N"): with cruid=0 every one looks in root's default cache,
// FILE:/tmp/krb5cc_0 ("default ccache is").
func upcalls(t *testing.T) upcallCount {
	t.Helper()
	f, err := os.Open(filepath.Join(env.logs, "syslog.log"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var c upcallCount
	var pid, cache string
	s := bufio.NewScanner(f)
	for s.Scan() {
		l := s.Text()
		if !strings.Contains(l, "cifs.upcall") {
			continue
		}
		if _, v, ok := strings.Cut(l, "cifs.upcall: pid="); ok {
			pid = strings.TrimSpace(v)
		}
		if _, v, ok := strings.Cut(l, "default ccache is "); ok {
			cache = strings.TrimSpace(v)
		}
		if i := strings.Index(l, "Exit status "); i >= 0 {
			code := strings.TrimSpace(l[i+len("Exit status "):])
			if code == "0" {
				c.ok++
			} else {
				c.failed++
			}
			who := "pid " + pid
			if b, err := os.ReadFile("/proc/" + pid + "/comm"); err == nil {
				who += " (" + strings.TrimSpace(string(b)) + ")"
			}
			c.last = fmt.Sprintf("%s, cache %s, exit %s", who, cache, code)
		}
	}
	return c
}

var reconnectRE = regexp.MustCompile(`(\d+) session (\d+) share reconnects`)

// reconnects is the kernel CIFS client's count of session and share
// reconnects (/proc/fs/cifs/Stats).
func reconnects(t *testing.T) [2]int {
	t.Helper()
	b, err := os.ReadFile("/proc/fs/cifs/Stats")
	if err != nil {
		t.Fatal(err)
	}
	m := reconnectRE.FindSubmatch(b)
	if m == nil {
		t.Fatalf("no reconnect count in /proc/fs/cifs/Stats:\n%s", b)
	}
	s, _ := strconv.Atoi(string(m[1]))
	sh, _ := strconv.Atoi(string(m[2]))
	return [2]int{s, sh}
}

// --- the host's side: requests to test/krb5node/dc ---

// ask has the host's dc command run a request (see its doc) and returns
// the answer's body.
func ask(req string) (string, error) {
	ctl := filepath.Join(env.dir, "ctl")
	n := fmt.Sprintf("%d-%d", time.Now().UnixNano(), env.seq.Add(1))
	tmp := filepath.Join(ctl, n+".tmp-req")
	if err := os.WriteFile(tmp, []byte(req+"\n"), 0o644); err != nil {
		return "", err
	}
	if err := os.Rename(tmp, filepath.Join(ctl, n+".req")); err != nil {
		return "", err
	}
	out := filepath.Join(ctl, n+".out")
	deadline := time.Now().Add(time.Minute)
	for time.Now().Before(deadline) {
		if b, err := os.ReadFile(out); err == nil {
			status, body, _ := strings.Cut(string(b), "\n")
			if status != "ok" {
				return "", fmt.Errorf("%s: %s %s", req, status, body)
			}
			return body, nil
		}
		time.Sleep(200 * time.Millisecond)
	}
	return "", fmt.Errorf("%s: the host did not answer in a minute", req)
}

func smbstatus(t *testing.T, args ...string) string {
	t.Helper()
	out, err := ask(strings.Join(append([]string{"smbstatus"}, args...), " "))
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// shareLines are smbstatus --shares' lines of share.
func shareLines(out, share string) []string {
	var l []string
	for _, line := range strings.Split(out, "\n") {
		if f := strings.Fields(line); len(f) > 0 && f[0] == share {
			l = append(l, line)
		}
	}
	return l
}

// sessionLines are smbstatus -p's session lines. The DC's sessions are
// the guest's alone (its controller keeps none open: a session per call),
// and the host's smbstatus names their users by uid (the DC's winbindd is
// in its own mount namespace), so they are not told apart by user.
func sessionLines(out string) []string {
	var l []string
	for _, line := range strings.Split(out, "\n") {
		if f := strings.Fields(line); len(f) > 2 {
			if _, err := strconv.Atoi(f[0]); err == nil {
				l = append(l, line)
			}
		}
	}
	return l
}

func sessionPIDsNoFail() []int {
	out, err := ask("smbstatus -p")
	if err != nil {
		return nil
	}
	var pids []int
	for _, l := range sessionLines(out) {
		p, _ := strconv.Atoi(strings.Fields(l)[0])
		pids = append(pids, p)
	}
	return pids
}

func sessionPIDs(t *testing.T) []int {
	t.Helper()
	pids := sessionPIDsNoFail()
	if len(pids) == 0 {
		t.Fatalf("the DC shows no session:\n%s", smbstatus(t, "-p"))
	}
	return pids
}

// --- CSI calls ---

type stagedVol struct{ id, staging string }

func create(t *testing.T, c csi.ControllerClient, name string, params map[string]string) *csi.Volume {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	resp, err := c.CreateVolume(ctx, &csi.CreateVolumeRequest{Name: name, Parameters: params, Secrets: secrets(t), VolumeCapabilities: []*csi.VolumeCapability{mountCap}})
	if err != nil {
		t.Fatalf("CreateVolume %s: %v", name, err)
	}
	return resp.GetVolume()
}

func deleteVol(t *testing.T, c csi.ControllerClient, id string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	if _, err := c.DeleteVolume(ctx, &csi.DeleteVolumeRequest{VolumeId: id, Secrets: secrets(t)}); err != nil {
		t.Errorf("DeleteVolume %s: %v", id, err)
	}
}

func stage(t *testing.T, d *harness.Driver, vol *csi.Volume, name string) stagedVol {
	t.Helper()
	return stageWith(t, d, vol, name, secrets(t))
}

func stageWith(t *testing.T, d *harness.Driver, vol *csi.Volume, name string, sec map[string]string) stagedVol {
	t.Helper()
	sv := stagedVol{id: vol.GetVolumeId(), staging: filepath.Join(env.work, name, "staging")}
	if err := os.MkdirAll(filepath.Dir(sv.staging), 0o755); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	began := time.Now()
	if _, err := csi.NewNodeClient(d.Conn).NodeStageVolume(ctx, &csi.NodeStageVolumeRequest{
		VolumeId: sv.id, StagingTargetPath: sv.staging, VolumeCapability: mountCap,
		VolumeContext: vol.GetVolumeContext(), Secrets: sec,
	}); err != nil {
		t.Fatalf("NodeStageVolume %s: %v", sv.id, err)
	}
	t.Logf("NodeStageVolume %s in %v", sv.id, time.Since(began).Round(time.Millisecond))
	return sv
}

func unstage(t *testing.T, d *harness.Driver, sv stagedVol) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	if _, err := csi.NewNodeClient(d.Conn).NodeUnstageVolume(ctx, &csi.NodeUnstageVolumeRequest{VolumeId: sv.id, StagingTargetPath: sv.staging}); err != nil {
		t.Errorf("NodeUnstageVolume: %v", err)
	}
	if mountLineNoFail(sv.staging) != "" {
		t.Errorf("%s is still mounted after NodeUnstageVolume", sv.staging)
	}
}

func publish(t *testing.T, d *harness.Driver, sv stagedVol, target string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if _, err := csi.NewNodeClient(d.Conn).NodePublishVolume(ctx, &csi.NodePublishVolumeRequest{
		VolumeId: sv.id, StagingTargetPath: sv.staging, TargetPath: target, VolumeCapability: mountCap,
	}); err != nil {
		t.Fatalf("NodePublishVolume %s: %v", target, err)
	}
}

func unpublish(t *testing.T, d *harness.Driver, sv stagedVol, target string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if _, err := csi.NewNodeClient(d.Conn).NodeUnpublishVolume(ctx, &csi.NodeUnpublishVolumeRequest{VolumeId: sv.id, TargetPath: target}); err != nil {
		t.Errorf("NodeUnpublishVolume %s: %v", target, err)
	}
}

// mountLineNoFail is /proc/mounts' line for the mount at path ("" if none).
func mountLineNoFail(path string) string {
	b, _ := os.ReadFile("/proc/mounts")
	var line string
	for _, l := range strings.Split(string(b), "\n") {
		if f := strings.Fields(l); len(f) > 3 && f[1] == path {
			line = l
		}
	}
	return line
}

func mountLine(t *testing.T, path string) string {
	t.Helper()
	l := mountLineNoFail(path)
	if l == "" {
		t.Fatalf("nothing is mounted at %s", path)
	}
	return l
}

func hasOpt(line, opt string) bool {
	f := strings.Fields(line)
	if len(f) < 4 {
		return false
	}
	for _, o := range strings.Split(f[3], ",") {
		if o == opt {
			return true
		}
	}
	return false
}

func countLines(p string) (int, error) {
	b, err := os.ReadFile(p)
	if err != nil {
		return 0, err
	}
	return bytes.Count(b, []byte("\n")), nil
}

// --- the writer: a pod's process on the volume ---

// writer appends a line to a file it keeps open, with an fsync, every half
// second, and every other second also writes a new 4 KiB file, fsyncs it,
// and reads it back.
type writer struct {
	dir      string
	mu       sync.Mutex
	appends  int
	files    int
	failures int
	errors   []string
	slowest  time.Duration
	progress time.Time
	began    time.Time
	ended    time.Time
	quit     chan struct{}
	done     chan struct{}
}

type writerStats struct {
	appends, files, failures int
	errors                   []string
	slowest, elapsed         time.Duration
}

func startWriter(dir string) *writer {
	w := &writer{dir: dir, quit: make(chan struct{}), done: make(chan struct{}), began: time.Now(), progress: time.Now()}
	go w.run()
	return w
}

func (w *writer) record(op string, began time.Time, err error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	d := time.Since(began)
	if d > w.slowest {
		w.slowest = d
	}
	w.progress = time.Now()
	if err != nil {
		w.failures++
		w.errors = append(w.errors, fmt.Sprintf("%s %s: %v (after %v)", began.Format("15:04:05.000"), op, err, d.Round(time.Millisecond)))
		return
	}
	if op == "append" {
		w.appends++
	} else {
		w.files++
	}
}

func (w *writer) run() {
	defer close(w.done)
	defer func() { w.mu.Lock(); w.ended = time.Now(); w.mu.Unlock() }()
	var f *os.File
	defer func() {
		if f != nil {
			f.Close()
		}
	}()
	tick := time.NewTicker(500 * time.Millisecond)
	defer tick.Stop()
	for i := 0; ; i++ {
		select {
		case <-w.quit:
			return
		case <-tick.C:
		}
		began := time.Now()
		var err error
		if f == nil {
			f, err = os.OpenFile(filepath.Join(w.dir, "appends.log"), os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
		}
		if err == nil {
			w.mu.Lock()
			n := w.appends
			w.mu.Unlock()
			if _, err = fmt.Fprintf(f, "%06d %s\n", n, began.Format(time.RFC3339Nano)); err == nil {
				err = f.Sync()
			}
			if err != nil {
				// A pod would see this; it reopens the file.
				f.Close()
				f = nil
			}
		}
		w.record("append", began, err)
		if i%4 != 0 {
			continue
		}
		began = time.Now()
		p := filepath.Join(w.dir, fmt.Sprintf("file-%05d", i/4))
		data := bytes.Repeat([]byte(fmt.Sprintf("%05d", i/4)), 4096/5)
		err = writeSync(p, data)
		if err == nil {
			var b []byte
			if b, err = os.ReadFile(p); err == nil && !bytes.Equal(b, data) {
				err = fmt.Errorf("read back %d bytes that differ from the %d written", len(b), len(data))
			}
		}
		w.record("write "+filepath.Base(p), began, err)
	}
}

func writeSync(p string, data []byte) error {
	f, err := os.OpenFile(p, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 0o644)
	if err != nil {
		return err
	}
	if _, err := f.Write(data); err != nil {
		f.Close()
		return err
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

func (w *writer) stop() {
	close(w.quit)
	select {
	case <-w.done:
	case <-time.After(2 * time.Minute):
	}
}

func (w *writer) stats() writerStats {
	w.mu.Lock()
	defer w.mu.Unlock()
	end := w.ended
	if end.IsZero() {
		end = time.Now()
	}
	return writerStats{appends: w.appends, files: w.files, failures: w.failures, errors: append([]string(nil), w.errors...), slowest: w.slowest, elapsed: end.Sub(w.began)}
}

func (w *writer) lastProgress() time.Time {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.progress
}

func (w *writer) lastError() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	if len(w.errors) == 0 {
		return "none"
	}
	return w.errors[len(w.errors)-1]
}

// waitUntil sleeps until t, and reports false if the writer stalls (no
// write ended for two minutes) meanwhile.
func (w *writer) waitUntil(t time.Time) bool {
	for time.Now().Before(t) {
		if time.Since(w.lastProgress()) > 2*time.Minute {
			return false
		}
		d := time.Until(t)
		if d > time.Second {
			d = time.Second
		}
		time.Sleep(d)
	}
	return true
}
