//go:build linux

package mounter

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
	"k8s.io/klog/v2"
	mount "k8s.io/mount-utils"

	"github.com/fileshare-csi/fileshare-csi/pkg/source"
	"github.com/fileshare-csi/fileshare-csi/pkg/volume"
)

// Linux mounts NFS and CIFS with mount(8) and bind-mounts into pods.
type Linux struct {
	m mount.Interface
	// run executes one network mount; replaced in unit tests.
	run func(ctx context.Context, fstype, device, target string, options []string) error
	// CredentialsDir holds short-lived CIFS credential files (mode 0700).
	CredentialsDir string
	// probes runs the health checks, one at a time per path.
	probes probes
	// gens tells the mounts this mounter makes at a path apart, so an
	// unmount that outlives its call never takes down a newer one.
	gens pathGens
	// umount2 is the umount2(2) system call; replaced in unit tests.
	umount2 func(path string, flags int) error
	// sharedFS says whether another mount has the file system of the
	// mount at a path (sharesSuperblock); replaced in unit tests, whose
	// fake mount table has no device numbers.
	sharedFS func(path string) bool
	// RootsDir holds the private mount points of sources whose
	// subdirectory is opened on the node (see beneath_linux.go).
	RootsDir string
	// openSub opens the subdirectory below a mounted root (openSubdir),
	// and bindAt binds what it opened at a target (bindOpened); replaced
	// in unit tests, which mount nothing.
	openSub func(root, sub string) (src string, done func(), err error)
	bindAt  func(src, target string, readOnly bool) error
	// UpcallTarget asks the kernel whether CIFS takes upcall_target=mount
	// (upcallTargetSupported); a test sets what its kernel would answer.
	UpcallTarget func() error
	// Retrans asks the kernel whether CIFS takes retrans= (Linux 6.8),
	// for kerberosRetrans; a test sets what its kernel would answer.
	Retrans func() error
	// CredUIDOf answers the cruid= of the CIFS Kerberos mount at a path
	// (mountedCredUID); a test sets what its mount table would show.
	CredUIDOf func(path string) (uint32, bool)
	// LogonOf answers who the CIFS mount at a path logs on as
	// (MountedLogon); a test sets what its mount table would show.
	LogonOf func(path string) (source.Credentials, bool)
	// remountReadOnly makes the bind mount at a path read-only in place
	// (mount(2) MS_REMOUNT|MS_BIND|MS_RDONLY: the mount's own flag, not
	// the file system's); replaced in unit tests. mount-utils' Mount would
	// bind again first, stacking a second mount.
	remountReadOnly func(path string) error
}

// New returns the mounter of this OS.
func New() Mounter {
	credDir := filepath.Join(os.TempDir(), "fileshare-csi-credentials")
	// A plugin killed during a mount and restarted at once left a file
	// too young for this sweep, and only the next stage of an SMB volume
	// would sweep again, which may never come: swept again once it is
	// stale.
	if wait := removeStaleCredentials(credDir, staleCredentials); wait > 0 {
		time.AfterFunc(wait+time.Second, func() { removeStaleCredentials(credDir, staleCredentials) })
	}
	return &Linux{m: mount.New(""), run: runMount, CredentialsDir: credDir, umount2: unix.Unmount, sharedFS: sharesSuperblock, remountReadOnly: remountBindReadOnly,
		RootsDir: filepath.Join(os.TempDir(), "fileshare-csi-roots"), openSub: openSubdir, bindAt: bindOpened,
		UpcallTarget: upcallTargetSupported, Retrans: func() error { return cifsTakes("retrans", strconv.Itoa(krb5Retrans)) }}
}

// NewLinuxForTest builds a Linux mounter over m (a mount.FakeMounter) with a
// stand-in for mount(8), for unit tests of the staging logic. A hung mount is
// detached with m.Unmount.
// A subdirectory is bound with m.Mount from the root's path joined with it.
// Which mounts share a file system is told from the fake's devices
// (fakeFileSystems).
func NewLinuxForTest(m mount.Interface, run func(ctx context.Context, fstype, device, target string, options []string) error, credDir string) *Linux {
	unmount := func(path string, _ int) error { return m.Unmount(path) }
	fsys := &fakeFileSystems{m: m, bound: map[string]string{}}
	return &Linux{m: m, run: run, CredentialsDir: credDir, umount2: unmount, RootsDir: credDir + "-roots", sharedFS: fsys.shared,
		remountReadOnly: func(path string) error { return m.Mount(path, path, "", []string{"remount", "ro"}) },
		openSub:         func(root, sub string) (string, func(), error) { return filepath.Join(root, sub), func() {}, nil },
		bindAt: func(src, target string, readOnly bool) error {
			opts := []string{"bind"}
			if readOnly {
				opts = append(opts, "ro")
			}
			fsys.bind(src, target)
			return m.Mount(src, target, "", opts)
		}}
}

// fakeFileSystems tells, for NewLinuxForTest, which mounts of a fake mount
// table share a file system, as a real table's major:minor would: a mount
// is of the file system its device names, and a subdirectory bound at a
// staging path (bindAt) is of the file system of the mount it lay in, the
// share's root, mounted under RootsDir while it was bound.
type fakeFileSystems struct {
	m     mount.Interface
	mu    sync.Mutex
	bound map[string]string // bind target: the device of the mount its source lay in
}

// bind records that target is a bind of src, of the mount src lies in now.
func (f *fakeFileSystems) bind(src, target string) {
	mps, _ := f.m.List()
	dev, longest := src, -1
	for _, mp := range mps {
		p := filepath.Clean(mp.Path)
		if (src == p || strings.HasPrefix(src, p+string(filepath.Separator))) && len(p) > longest {
			dev, longest = mp.Device, len(p)
		}
	}
	f.mu.Lock()
	f.bound[filepath.Clean(target)] = dev
	f.mu.Unlock()
}

func (f *fakeFileSystems) shared(path string) bool {
	mps, err := f.m.List()
	if err != nil {
		return true
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	fsOf := func(mp mount.MountPoint) string {
		if dev, ok := f.bound[filepath.Clean(mp.Path)]; ok {
			return dev
		}
		return mp.Device
	}
	path = filepath.Clean(path)
	found := -1
	for i, mp := range mps {
		if filepath.Clean(mp.Path) == path {
			found = i
		}
	}
	if found < 0 {
		return false
	}
	for i, mp := range mps {
		if i != found && fsOf(mp) == fsOf(mps[found]) {
			return true
		}
	}
	return false
}

func (l *Linux) OS() string { return "linux" }

// runMount execs mount(8) and kills it at ctx's deadline, so a server that
// never answers does not leave a mount process behind.
func runMount(ctx context.Context, fstype, device, target string, options []string) error {
	args := []string{"-t", fstype}
	if len(options) > 0 {
		args = append(args, "-o", strings.Join(options, ","))
	}
	args = append(args, device, target)
	cmd := exec.CommandContext(ctx, "mount", args...)
	// mount forks mount.nfs / mount.cifs: kill the whole group.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	cmd.WaitDelay = 5 * time.Second
	out, err := cmd.CombinedOutput()
	if ctx.Err() != nil {
		return fmt.Errorf("mount -t %s %s %s: %w: gave up and killed it", fstype, device, target, ctx.Err())
	}
	if err != nil {
		return fmt.Errorf("mount -t %s %s %s failed: %w: %s", fstype, device, target, err, strings.TrimSpace(string(out)))
	}
	return nil
}

// hasOption tells whether opts has the option key (key or key=value); an
// entry may hold several options separated by commas, as a class's
// mountOptions may.
func hasOption(opts []string, key string) bool {
	for _, o := range strings.Split(strings.Join(opts, ","), ",") {
		if k, _, _ := strings.Cut(o, "="); strings.TrimSpace(k) == key {
			return true
		}
	}
	return false
}

// stageOptions returns the fstype and mount options for req, and for CIFS the
// content of a credentials file. Credentials never go on the command line,
// where any process could read them in /proc/*/cmdline.
func stageOptions(req StageRequest) (fstype string, opts []string, credentials string, err error) {
	opts = append(opts, req.MountOptions...)
	if err := volume.CheckMountOptions(opts); err != nil {
		// Also a repair from a record written before a key was refused.
		return "", nil, "", fmt.Errorf("%w: %w", ErrInvalid, err)
	}
	// Before the node adds its own options after these: an empty one
	// would make the kernel's CIFS parser take the next for part of the
	// last (see CheckMountFlags).
	if err := volume.CheckMountFlags(opts); err != nil {
		return "", nil, "", fmt.Errorf("%w: mount options: %w", ErrInvalid, err)
	}
	if req.ReadOnly && !hasOption(opts, "ro") {
		opts = append(opts, "ro")
	}
	switch req.Source.Protocol {
	case source.NFS:
		if opts, err = volume.NFSVersionOptions(req.Source, opts); err != nil {
			return "", nil, "", fmt.Errorf("%w: %w", ErrInvalid, err)
		}
		if req.Source.Port != 0 && !hasOption(opts, "port") {
			opts = append(opts, "port="+strconv.Itoa(req.Source.Port))
		}
		return "nfs", opts, "", nil
	case source.SMB:
		if err := req.Source.CheckMountCifs(); err != nil {
			return "", nil, "", fmt.Errorf("%w: %w", ErrInvalid, err)
		}
		if req.Source.Port != 0 && !hasOption(opts, "port") {
			opts = append(opts, "port="+strconv.Itoa(req.Source.Port))
		}
		if req.MountGroup != "" {
			if _, err := strconv.ParseUint(req.MountGroup, 10, 32); err != nil {
				return "", nil, "", fmt.Errorf("%w: volume mount group %q is not a numeric GID", ErrInvalid, req.MountGroup)
			}
			if !hasOption(opts, "gid") {
				opts = append(opts, "gid="+req.MountGroup)
			}
			// Group-writable, so the pod's fsGroup can write without a chown.
			if !hasOption(opts, "dir_mode") {
				opts = append(opts, "dir_mode=0775")
			}
			if !hasOption(opts, "file_mode") {
				opts = append(opts, "file_mode=0664")
			}
		}
		if opts, err = smbSecurityOptions(req.Source, req.Credentials, req.CredUID, opts); err != nil {
			return "", nil, "", fmt.Errorf("%w: %w", ErrInvalid, err)
		}
		c := req.Credentials
		if err := checkCredentialFields(c); err != nil {
			return "", nil, "", fmt.Errorf("%w: %w", ErrInvalid, err)
		}
		if KerberosMount(req.Source, c) {
			// No password: cifs.upcall gets the ticket, from the cache of
			// the mount's cruid (root's, or the uid the node gave the
			// Secret's principal) or, failing that, from the host's keytab
			// for the user named here.
			user, realm, _ := strings.Cut(c.Principal, "@")
			if user == "" {
				user, realm = c.Username, c.Domain
			}
			if user == "" {
				return "", nil, "", fmt.Errorf("%w: SMB volumes with auth krb5 need a node-stage secret with principal (NAME@REALM)", ErrInvalid)
			}
			credentials = "username=" + user + "\n"
			if realm != "" {
				credentials += "domain=" + realm + "\n"
			}
			return "cifs", opts, credentials, nil
		}
		if c.Username == "" {
			// The request's to fix: InvalidArgument, not Internal.
			return "", nil, "", fmt.Errorf("%w: SMB volumes need a node-stage secret with username and password", ErrInvalid)
		}
		credentials = "username=" + c.Username + "\npassword=" + c.Password + "\n"
		if c.Domain != "" {
			credentials += "domain=" + c.Domain + "\n"
		}
		return "cifs", opts, credentials, nil
	}
	return "", nil, "", fmt.Errorf("unknown protocol %q", req.Source.Protocol)
}

// mountedCredUID answers the cruid= of the CIFS Kerberos mount at path, as
// the kernel shows it among the mount's super options (sec=krb5,cruid=N);
// false when path is no such mount.
func (l *Linux) mountedCredUID(path string) (uint32, bool) {
	if l.CredUIDOf != nil {
		return l.CredUIDOf(path)
	}
	infos, err := mount.ParseMountInfo("/proc/self/mountinfo")
	if err != nil {
		return 0, false
	}
	mi, err := topMountAt(infos, path)
	if err != nil || mi.FsType != "cifs" {
		return 0, false
	}
	for _, o := range mi.SuperOptions {
		if v, ok := strings.CutPrefix(o, "cruid="); ok {
			if uid, err := strconv.ParseUint(v, 10, 32); err == nil {
				return uint32(uid), true
			}
		}
	}
	return 0, false
}

// MountedLogon answers the username= and domain= the kernel shows among
// the super options of the CIFS mount at path (the top one, should several
// be stacked there): who the live mount logs on as.
func (l *Linux) MountedLogon(path string) (source.Credentials, bool) {
	if l.LogonOf != nil {
		return l.LogonOf(path)
	}
	infos, err := mount.ParseMountInfo("/proc/self/mountinfo")
	if err != nil {
		return source.Credentials{}, false
	}
	var opts []string
	found := false
	for _, mi := range infos {
		if filepath.Clean(unescapeMountInfo(mi.MountPoint)) == filepath.Clean(path) {
			opts, found = mi.SuperOptions, mi.FsType == "cifs" || mi.FsType == "smb3" // the last one is on top
		}
	}
	if !found {
		return source.Credentials{}, false
	}
	return logonIn(opts)
}

// logonIn reads the user of a CIFS mount from its super options, as
// cifs_show_options writes them (username=, and domain= when it has one).
func logonIn(opts []string) (source.Credentials, bool) {
	var c source.Credentials
	for _, o := range opts {
		if v, ok := strings.CutPrefix(o, "username="); ok {
			c.Username = unescapeMountInfo(v)
		} else if v, ok := strings.CutPrefix(o, "domain="); ok {
			c.Domain = unescapeMountInfo(v)
		}
	}
	return c, c.Username != ""
}

// checkCredentialFields refuses Secret values that would become more than
// their own field: mount.cifs appends the credentials file's username and
// domain to the kernel's option string unescaped (",user=<value>"), so a
// comma in them adds options no check saw (u,ip=10.9.9.9 or
// u,sec=krb5,cruid=0); a line break in any of them starts another line of
// the credentials file. A password may hold commas (mount.cifs escapes
// them). The error names the field, never the value.
func checkCredentialFields(c source.Credentials) error {
	for _, f := range []struct {
		name, value, bad string
	}{
		{"username", c.Username, ",\r\n\x00"},
		{"domain", c.Domain, ",\r\n\x00"},
		{"principal", c.Principal, ",\r\n\x00"},
		{"password", c.Password, "\r\n\x00"},
	} {
		if strings.ContainsAny(f.value, f.bad) {
			what := "a line break or NUL"
			if strings.Contains(f.bad, ",") {
				what = "a comma, a line break or NUL"
			}
			return fmt.Errorf("the node-stage secret's %s holds %s, which mount.cifs would read as further options: fix the secret", f.name, what)
		}
	}
	return nil
}

// smbSecurityOptions adds what the class's auth and encryption ask of
// mount.cifs: for a Kerberos mount sec=krb5 with the cruid whose ticket
// cache it logs in with (credUID with upcall_target=mount, so that every
// upcall of the mount, a reconnect's from a pod's process too, runs in the
// host's namespaces for that uid; or 0, root's: --krb5-host-tickets), and
// seal for encryption: required. The driver adds cruid and upcall_target
// itself, after the tenant's options were checked (both are refused
// there). A sec= or seal the options bring that contradicts the class is
// refused rather than one of them silently winning.
// krb5Retrans is the retrans= of a Kerberos mount. The server ends a
// Kerberos session when its ticket does (Samba and Windows answer
// STATUS_NETWORK_SESSION_EXPIRED), and the request that meets the end fails
// with EAGAIN while the kernel sets a new session up (an upcall, a session
// setup). On a soft mount, CIFS's default, Linux 6.8 and later replay such
// a request retrans times, sleeping 1 ms, then twice as long each time up
// to 2 s; the default of 1 gives up after 1 ms, and a pod's call fails at
// every ticket end (an open failed with EAGAIN at both ticket ends of the
// first run of make test-krb5-node on Linux 6.12). 15 tries wait about 10 s
// in all. (Linux 6.1 has no replay and no option, and the same writer saw
// no failure there.)
const krb5Retrans = 15

// kerberosRetrans adds retrans=krb5Retrans to a Kerberos mount's options,
// unless the class says how to retry itself (its own retrans=, or hard,
// which replays without end). A mount with a ticket cache of its own
// (CredUID) runs on a kernel with upcall_target (6.12.30 or later), which
// has retrans; for one with root's tickets the kernel is asked (takes), as
// an older one (6.1) refuses the mount with an unknown option.
func kerberosRetrans(req StageRequest, opts []string, takes func() error) []string {
	if !KerberosMount(req.Source, req.Credentials) || hasOption(opts, "retrans") || hasOption(opts, "hard") {
		return opts
	}
	if req.CredUID == nil && (takes == nil || takes() != nil) {
		return opts
	}
	return append(opts, "retrans="+strconv.Itoa(krb5Retrans))
}

func smbSecurityOptions(src source.Source, creds source.Credentials, credUID *uint32, opts []string) ([]string, error) {
	sec, seal := secOption(opts), false
	for _, o := range strings.Split(strings.Join(opts, ","), ",") {
		if k, _, _ := strings.Cut(o, "="); strings.TrimSpace(k) == "seal" {
			seal = true
		}
	}
	if KerberosMount(src, creds) {
		switch sec {
		case "", "krb5", "krb5i":
		default:
			return nil, fmt.Errorf("mount option sec=%s contradicts the class's auth %s: leave sec out, or use sec=krb5 or krb5i", sec, src.EffectiveAuth())
		}
		if sec == "" {
			opts = append(opts, "sec=krb5")
		}
		if credUID != nil {
			opts = append(opts, "cruid="+strconv.FormatUint(uint64(*credUID), 10), "upcall_target=mount")
		} else {
			opts = append(opts, "cruid=0")
		}
	} else if strings.HasPrefix(sec, "krb5") && src.Auth != "" {
		// Without an auth in the class, sec=krb5 keeps working as it did
		// before classes could choose (PVs made then still mount).
		return nil, fmt.Errorf("mount option sec=%s asks for Kerberos, but the class's auth is %s: set auth: krb5 in the class instead", sec, src.EffectiveAuth())
	}
	if src.Encryption == source.EncryptionRequired && !seal {
		opts = append(opts, "seal")
	}
	if src.Encryption == source.EncryptionOff && seal {
		return nil, errors.New("mount option seal contradicts the class's encryption: off")
	}
	return opts, nil
}

// checkNodePath refuses a staging or target path the node must not mount
// on, unmount or remove. The kubelet's paths are absolute directories of
// its own (or not made yet); mount(8), umount(8) and mount-utils' cleanup
// follow a link at the path, so the node would mount wherever it leads (a
// directory outside the kubelet's), take down the mount it leads to, or
// bind that mount into a pod (a staging path), and the cleanup removes
// whatever is at the path, a file too. Only the last component is looked
// at: the kubelet's own directory may well be reached through a link
// (/var/lib/kubelet on another disk), and what lies above the path is the
// kubelet's, not the request's.
//
// The look must not wait for a file server: a mount at the path (a hung
// one too, which an unstage must still detach) is its file system's root,
// and an lstat(2) revalidates its attributes with the server. statx with
// AT_STATX_DONT_SYNC takes the type from the client's cache where the file
// system honours it (NFS does), and AT_NO_AUTOMOUNT triggers nothing.
//
// CIFS does not always honour it: cifs_getattr goes to the server for an
// inode whose cached attributes were dropped (its time is 0, which an
// unlink or mkdir in the directory sets), so a path the mount table shows
// a mount at exactly is taken for what it is, a file system's root (a
// directory; the kernel mounts on no link), without a look. Only a path
// with no mount at it is looked at, and that look stays on the node's own
// disk.
func (l *Linux) checkNodePath(what, path string) error {
	if !filepath.IsAbs(path) || slices.Contains(strings.Split(path, "/"), "..") {
		return fmt.Errorf("%w: %s %q must be an absolute path without \"..\" (the kubelet's own directory for the volume)", ErrInvalid, what, path)
	}
	if mounted, _ := l.listedAt(path, false); mounted {
		return nil
	}
	var st unix.Statx_t
	if err := statxNodePath(path, &st); err != nil {
		// Nothing there is fine (made later, or already gone); any other
		// error is a broken mount's, the probe's to judge.
		return nil
	}
	switch st.Mode & unix.S_IFMT {
	case unix.S_IFDIR:
		return nil
	case unix.S_IFLNK:
		return fmt.Errorf("%w: %s %s is a symbolic link; the node mounts, unmounts and removes only the kubelet's directory itself, never what a link there leads to", ErrInvalid, what, path)
	}
	return fmt.Errorf("%w: %s %s is not a directory; the node mounts volumes on directories only, and leaves what else is there alone", ErrInvalid, what, path)
}

// statxNodePath is checkNodePath's look at a path with no mount at it.
var statxNodePath = func(path string, st *unix.Statx_t) error {
	return unix.Statx(unix.AT_FDCWD, path, unix.AT_SYMLINK_NOFOLLOW|unix.AT_STATX_DONT_SYNC|unix.AT_NO_AUTOMOUNT, unix.STATX_TYPE, st)
}

func (l *Linux) Stage(ctx context.Context, req StageRequest) error {
	logger := klog.FromContext(ctx)
	if err := l.checkNodePath("staging path", req.StagingPath); err != nil {
		return err
	}
	mounted, err := l.reuseOrClear(ctx, req.StagingPath, true)
	if err != nil {
		return err
	}
	if mounted && req.CredUID != nil {
		// A stage cut short after its mount (the plugin killed before its
		// record, or the deadline) leaves a mount whose cruid is a uid the
		// node may have given back since, or to another principal: its
		// reconnects would log in with that uid's tickets. Mounted again
		// with this stage's uid; nothing is published from a stage that
		// never answered.
		if uid, ok := l.mountedCredUID(req.StagingPath); ok && uid != *req.CredUID {
			logger.Info("the mount at the staging path logs in with another uid's Kerberos tickets than its principal's now; mounting it again", "path", req.StagingPath, "cruid", uid, "want", *req.CredUID)
			if err := l.unmount(ctx, req.StagingPath, true); err != nil {
				return fmt.Errorf("unmount %s, which logs in as uid %d: %w", req.StagingPath, uid, err)
			}
			mounted = false
		}
	}
	if mounted {
		logger.V(4).Info("already staged", "path", req.StagingPath)
		return l.applyMountGroup(ctx, req)
	}
	fstype, opts, creds, err := stageOptions(req)
	if err != nil {
		return err
	}
	opts = kerberosRetrans(req, opts, l.Retrans)
	l.gens.bump(req.StagingPath)
	if err := os.MkdirAll(req.StagingPath, 0o750); err != nil {
		return fmt.Errorf("create staging path: %w", err)
	}
	if creds != "" {
		f, cleanup, err := l.writeCredentials(creds)
		if err != nil {
			return err
		}
		defer cleanup()
		opts = append(opts, "credentials="+f)
	}
	// The server resolves the source's own path only; the subdirectory is
	// opened on the node (beneath_linux.go).
	device := req.Source.Device("")
	// Keys only, and values of the keys known to be harmless: a password
	// under a misspelt key (passwd=) is not refused here, and mount would
	// only refuse it after this line.
	logger.V(2).Info("mounting", "fstype", fstype, "device", device, "subDir", req.SubDir, "path", req.StagingPath, "options", volume.RedactMountOptionList(strings.Join(withoutCredentials(opts), ",")))
	if req.SubDir == "" {
		err = l.run(ctx, fstype, device, req.StagingPath, opts)
	} else {
		err = l.stageBeneath(ctx, req, fstype, device, opts)
	}
	if err != nil {
		return noTicketFor(req, err)
	}
	if err := l.applyMountGroup(ctx, req); err != nil {
		// This call made the mount, and the kubelet calls no NodeUnstage
		// after a stage that failed for good (a root-squashed export's
		// chgrp is refused for good): taken down now, or it stays.
		if ctx.Err() == nil {
			if uerr := l.unmount(ctx, req.StagingPath, true); uerr != nil {
				logger.Error(uerr, "cannot take down the mount of a stage that failed", "path", req.StagingPath)
			}
		}
		return err
	}
	return nil
}

// noTicketFor explains a Kerberos mount that failed because the kernel got
// no ticket for it (ENOKEY, mount.cifs's error 126): request-key runs the
// host's cifs.upcall, whose answer is all the kernel has, so what is
// missing is on the host: the programs themselves (keyutils, cifs-utils),
// and for a mount with a ticket cache of its own (the node wrote the uid's
// cache just before) a cifs.upcall that reads upcall_target=mount and the
// uid's passwd entry; for root's tickets, a valid ticket in root's cache.
func noTicketFor(req StageRequest, err error) error {
	msg := strings.ToLower(err.Error())
	if !KerberosMount(req.Source, req.Credentials) || !strings.Contains(msg, "error(126)") && !strings.Contains(msg, "required key not available") {
		return err
	}
	if req.CredUID == nil {
		return fmt.Errorf("%w: the kernel got no Kerberos ticket for root (cruid=0, --krb5-host-tickets) from the host: the host needs keyutils (request-key) and cifs-utils (cifs.upcall), and root's default ticket cache on the host must hold a valid ticket-granting ticket of the realm, renewed before it ends (docs/kerberos.md): %w",
			ErrUnsupported, err)
	}
	return fmt.Errorf("%w: the kernel got no Kerberos ticket for uid %d from the host, though the node wrote the uid's cache: the host needs keyutils (request-key) and cifs-utils 7.2 or later (cifs.upcall; older ones ignore upcall_target=mount and look in the plugin's container), a passwd entry for uid %d, and its default ticket cache for the uid where --krb5-cache-path writes it (docs/kerberos.md): %w",
		ErrUnsupported, *req.CredUID, *req.CredUID, err)
}

func withoutCredentials(opts []string) []string {
	var out []string
	for _, o := range opts {
		if !strings.HasPrefix(o, "credentials=") {
			out = append(out, o)
		}
	}
	return out
}

// staleCredentials is the age past which a CIFS credentials file is a
// leftover: a mount reads its file at once, and no call lasts this long.
const staleCredentials = 10 * time.Minute

// removeStaleCredentials removes the credentials files (a password in
// plain text) that a plugin killed during a mount left in dir: its /tmp is
// an emptyDir that outlives a restart of the container. Only files older
// than age go: another plugin process on the node (the tests run several)
// may be mounting with a new one. It answers how long until the youngest
// file it kept is that old (0: it kept none).
func removeStaleCredentials(dir string, age time.Duration) (keptFor time.Duration) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return 0
	}
	for _, e := range entries {
		if !strings.HasPrefix(e.Name(), "cifs-") {
			continue
		}
		fi, err := e.Info()
		if err != nil || !fi.Mode().IsRegular() {
			continue
		}
		if since := time.Since(fi.ModTime()); since > age {
			_ = os.Remove(filepath.Join(dir, e.Name()))
		} else {
			keptFor = max(keptFor, age-since)
		}
	}
	return keptFor
}

// writeCredentials writes a mount.cifs credentials file readable by root only,
// and returns its path and a function that deletes it.
func (l *Linux) writeCredentials(content string) (string, func(), error) {
	if err := os.MkdirAll(l.CredentialsDir, 0o700); err != nil {
		return "", nil, fmt.Errorf("create credentials dir: %w", err)
	}
	if err := os.Chmod(l.CredentialsDir, 0o700); err != nil {
		return "", nil, err
	}
	// Again at every write, not only at the start: the kubelet restarts a
	// killed plugin within seconds, when its leftover is too young for
	// the start's sweep, and nothing else would look at it again.
	removeStaleCredentials(l.CredentialsDir, staleCredentials)
	f, err := os.CreateTemp(l.CredentialsDir, "cifs-*")
	if err != nil {
		return "", nil, fmt.Errorf("create credentials file: %w", err)
	}
	name := f.Name()
	cleanup := func() { _ = os.Remove(name) }
	if err := f.Chmod(0o600); err != nil {
		f.Close()
		cleanup()
		return "", nil, err
	}
	if _, err := f.WriteString(content); err != nil {
		f.Close()
		cleanup()
		return "", nil, err
	}
	if err := f.Close(); err != nil {
		cleanup()
		return "", nil, err
	}
	return name, cleanup, nil
}

// applyMountGroup gives an NFS volume root to the pod's fsGroup: chgrp, setgid
// and g+rwx on the root only, so the kubelet never has to walk the tree. SMB
// gets the same through gid= and the mode options at mount time.
//
// It works on the mount the stage made or found healthy a moment ago, whose
// server may stop answering since (a restart): a hard mount would hold the
// chgrp in the kernel until the server is back, and the stage, with the
// volume's lock, past its deadline. So it runs as the probes do (one in
// flight per path, waited for no longer than a probe): the stage answers
// ErrNotResponding by its deadline, and the kubelet's retry does the rest
// once the server answers.
func (l *Linux) applyMountGroup(ctx context.Context, req StageRequest) error {
	if req.MountGroup == "" || req.Source.Protocol != source.NFS || req.ReadOnly {
		return nil
	}
	// 32 bits at most: chown(2) would take the low 32 bits of a larger
	// number, another group (4294967296 is root's).
	g, err := strconv.ParseUint(req.MountGroup, 10, 32)
	if err != nil || g == 1<<32-1 {
		return fmt.Errorf("%w: volume mount group %q is not a numeric GID", ErrInvalid, req.MountGroup)
	}
	gid := int(g)
	// Keyed by the group too: a stage for another group never takes
	// this one's answer.
	key := fmt.Sprintf("%s (fsGroup %d)", req.StagingPath, gid)
	_, err = l.probes.run(ctx, key, probeTimeout(ctx), func(string) (Stats, error) {
		return Stats{}, delegateRoot(req.StagingPath, gid)
	})
	return err
}

// delegateRoot is applyMountGroup's work on the volume root at path: it
// may block in the kernel, so it runs through l.probes only.
var delegateRoot = func(path string, gid int) error {
	fi, err := os.Stat(path)
	if err != nil {
		return err
	}
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return errors.New("cannot read the owner of the volume root")
	}
	if int(st.Gid) != gid {
		if err := os.Lchown(path, -1, gid); err != nil {
			return fmt.Errorf("chgrp %d on the volume root (is root squashed on the server?): %w", gid, err)
		}
	}
	want := fi.Mode() | os.ModeSetgid | 0o070
	if fi.Mode() != want {
		if err := os.Chmod(path, want); err != nil {
			return fmt.Errorf("chmod g+rwxs on the volume root: %w", err)
		}
	}
	klog.V(2).InfoS("delegated the volume root to the pod's fsGroup", "path", path, "gid", gid, "mode", want.String())
	return nil
}

func remountBindReadOnly(path string) error {
	return unix.Mount("", path, "", unix.MS_REMOUNT|unix.MS_BIND|unix.MS_RDONLY, "")
}

// mountedReadOnly says the mount table shows the mount at path read-only
// (its last entry there: the one on top).
func (l *Linux) mountedReadOnly(path string) bool {
	mps, err := l.m.List()
	if err != nil {
		return false
	}
	ro := false
	for _, mp := range mps {
		if filepath.Clean(mp.Path) == filepath.Clean(path) {
			ro = slices.Contains(mp.Opts, "ro")
		}
	}
	return ro
}

func (l *Linux) Unstage(ctx context.Context, stagingPath string) error {
	if err := l.checkNodePath("staging path", stagingPath); err != nil {
		return err
	}
	return l.unmount(ctx, stagingPath, true)
}

func (l *Linux) Publish(ctx context.Context, stagingPath, targetPath string, readOnly bool) error {
	if err := l.checkNodePath("staging path", stagingPath); err != nil {
		return err
	}
	if err := l.checkNodePath("target path", targetPath); err != nil {
		return err
	}
	if err := l.Check(ctx, stagingPath); err != nil {
		return fmt.Errorf("staging path %s: %w", stagingPath, err)
	}
	mounted, err := l.reuseOrClear(ctx, targetPath, false)
	if err != nil {
		return err
	}
	if mounted && readOnly && !l.mountedReadOnly(targetPath) {
		// mount-utils binds, then remounts read-only: a publish cut
		// between the two (the plugin killed, a failed remount) left a
		// bind that writes, which a retry would reuse as it is. Made
		// read-only in place, never taken down: a pod may run on it (the
		// retry that reused it answered OK, and republishes come every
		// minute).
		klog.FromContext(ctx).Info("the target is bound read-write for a read-only publish; remounting it read-only", "path", targetPath)
		if err := l.remountReadOnly(targetPath); err != nil {
			return fmt.Errorf("remount %s read-only: %w", targetPath, err)
		}
	}
	if mounted {
		return nil
	}
	l.gens.bump(targetPath)
	if err := os.MkdirAll(targetPath, 0o750); err != nil {
		return fmt.Errorf("create target path: %w", err)
	}
	opts := []string{"bind"}
	if readOnly {
		opts = append(opts, "ro")
	}
	// mount-utils does the bind and then the read-only remount a bind needs.
	if err := l.m.Mount(stagingPath, targetPath, "", opts); err != nil {
		return fmt.Errorf("bind %s to %s: %w", stagingPath, targetPath, err)
	}
	return nil
}

// reuseOrClear looks at what is mounted at path: true when a working mount
// is there to reuse; a mount broken for good is unmounted so the caller
// mounts again. Any other error is returned and the mount left alone: one
// that does not answer resumes when the server is back, and one the plugin
// may not read (EACCES from a root-squashed server) works for its pod.
func (l *Linux) reuseOrClear(ctx context.Context, path string, force bool) (bool, error) {
	switch err := l.Check(ctx, path); {
	case err == nil:
		return true, nil
	case errors.Is(err, ErrNotMounted):
		return false, nil
	case errors.Is(err, ErrBroken):
		klog.FromContext(ctx).Info("mount is broken, mounting again", "path", path, "error", err.Error())
		if uerr := l.unmount(ctx, path, force); uerr != nil {
			return false, fmt.Errorf("unmount broken mount at %s: %w", path, uerr)
		}
		return false, nil
	default:
		return false, err
	}
}

func (l *Linux) Unpublish(ctx context.Context, targetPath string) error {
	if err := l.checkNodePath("target path", targetPath); err != nil {
		return err
	}
	return l.unmount(ctx, targetPath, false)
}

// defaultBudget bounds node operations whose context has no deadline; the
// kubelet always sets one.
const defaultBudget = 2 * time.Minute

// unmount unmounts path and removes the directory, within ctx's deadline. A
// path that does not exist is already done. force says path is the staging
// mount itself rather than a bind of it (see detach); it is dropped when
// another mount shares the staging mount's file system (sharesSuperblock).
func (l *Linux) unmount(ctx context.Context, path string, force bool) error {
	if _, ok := ctx.Deadline(); !ok {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, defaultBudget)
		defer cancel()
	}
	if force && l.sharedFS != nil && l.sharedFS(path) {
		// The staging mounts of one NFS export share its superblock (each
		// a bind of the export's root, stageBeneath; or mounts the kernel
		// merged), and MNT_FORCE aborts the requests in flight on the
		// superblock: every other volume's pods would get EIO.
		klog.FromContext(ctx).V(2).Info("another mount shares this mount's file system: it is not forced", "path", path)
		force = false
	}
	// Look first, with a third of the time, so a hung mount leaves the rest
	// to detach it. A path whose probe is already stuck answers at once.
	budget := time.Until(deadlineOf(ctx)) / 3
	_, err := l.probes.run(ctx, path, min(checkTimeout, budget), l.check)
	if errors.Is(err, ErrNotResponding) {
		if ctx.Err() != nil {
			return fmt.Errorf("unmount %s: %w", path, err)
		}
		return l.detach(ctx, path, force)
	}
	// The mount answers, or fails fast because it is broken: mount-utils'
	// cleanup (umount, then umount -f after a timeout) works. It runs apart
	// so the call still returns at its deadline should the server vanish
	// now; the volume's lock is then released while that goroutine waits in
	// the kernel, and it only finishes this same unmount.
	//
	// Such a late goroutine may wake long after: once the retry detached
	// the hung mount and a new stage mounted the volume at the same path.
	// It is bound to the mount it started on (gen): each step that
	// unmounts or removes checks first that no mount was made at path
	// since, and leaves a newer one alone.
	umountTimeout := time.Until(deadlineOf(ctx)) / 2
	broken := errors.Is(err, ErrBroken)
	gen := l.gens.of(path)
	done := make(chan error, 1)
	go func() {
		err := l.cleanup(path, broken, force, umountTimeout, gen)
		if err == nil {
			err = l.gone(path)
		}
		done <- err
	}()
	select {
	case err := <-done:
		if err == nil {
			l.gens.forget(path, gen)
			klog.FromContext(ctx).V(2).Info("unmounted", "path", path)
		}
		return err
	case <-ctx.Done():
		return fmt.Errorf("unmount %s: %w: %w", path, ErrNotResponding, ctx.Err())
	}
}

// gone checks, after an unmount that reported success, that the mount
// table has nothing at path any more. umount(8) answers "not mounted" for a
// mount it fails to find, which mount-utils takes for success, and the
// kubelet forgets a volume once it is told it is unstaged: a mount left then
// stays on the node for good, holding a directory the controller may have
// deleted. An error makes the kubelet call again. The table is read, the
// path's file system is not touched: a mount whose root went on the server
// answers "no such file" for its own mount point (CIFS), which is no sign
// that it is gone.
func (l *Linux) gone(path string) error {
	mounted, err := l.inTable(path)
	if err != nil {
		return fmt.Errorf("after unmounting %s, cannot tell whether it is still mounted: %w", path, err)
	}
	if mounted {
		return fmt.Errorf("%s is still mounted after umount reported it unmounted; the call will be retried", path)
	}
	return nil
}

// inTable says whether the mount table has a mount at path, without
// touching the path: one whose directory was removed too.
func (l *Linux) inTable(path string) (bool, error) { return l.listedAt(path, true) }

// listedAt reads the mount table for a mount at path; reading it asks no
// file server. The table writes a mount point with the kernel's octal
// escapes (a space is \040), and one whose directory was removed with
// " (deleted)" after it, which counts only when deletedToo: something else
// may be at the path now.
func (l *Linux) listedAt(path string, deletedToo bool) (bool, error) {
	mps, err := l.m.List()
	if err != nil {
		return false, err
	}
	path = filepath.Clean(path)
	for _, mp := range mps {
		p, deleted := strings.CutSuffix(mp.Path, `\040(deleted)`)
		if (deletedToo || !deleted) && filepath.Clean(unescapeMountInfo(p)) == path {
			return true, nil
		}
	}
	return false, nil
}

func deadlineOf(ctx context.Context) time.Time {
	d, _ := ctx.Deadline()
	return d
}

// cleanup unmounts path and removes it. Only the staging mount (force)
// lets mount-utils follow an umount that has not returned within
// umountTimeout with umount -f: a pod's target is a bind, and MNT_FORCE on
// it would fail the I/O of every other pod on the file system it shares
// (see detach). A target's umount that hangs instead leaves the call to
// its deadline, and the retry finds the mount not answering and detaches
// it.
//
// gen is the generation of path's mount when the unmount began (pathGens):
// every unmount and removal here, mount-utils' own included, is refused
// once a newer mount was made at path.
func (l *Linux) cleanup(path string, broken, force bool, umountTimeout time.Duration, gen uint64) error {
	still := func() error { return l.gens.still(path, gen) }
	if _, err := os.Lstat(path); errors.Is(err, os.ErrNotExist) {
		return l.unmountRootless(path, still)
	}
	m := boundMounter{Interface: l.m, still: still}
	_, forcible := l.m.(mount.MounterForceUnmounter)
	forcible = forcible && force
	if broken {
		// mount-utils would look at the mount point again, and get the
		// same error; the probe has shown something broken is mounted.
		var err error
		if forcible {
			err = m.UnmountWithForce(path, umountTimeout)
		} else {
			err = m.Unmount(path)
		}
		if err != nil {
			return err
		}
		if err := still(); err != nil {
			return err
		}
		if err := os.Remove(path); err != nil && !errors.Is(err, os.ErrNotExist) {
			return fmt.Errorf("remove %s after unmounting it: %w", path, err)
		}
		return nil
	}
	if forcible {
		return mount.CleanupMountWithForce(path, m, true, umountTimeout)
	}
	return mount.CleanupMountPoint(path, m, true)
}

// boundMounter is mount-utils' mounter for a cleanup bound to one mount:
// it unmounts only while still says no newer mount was made at the path.
// (mount-utils removes the directory only after its unmount succeeded, or
// when the path is no mount point, which a newer mount's is.)
type boundMounter struct {
	mount.Interface
	still func() error
}

func (b boundMounter) Unmount(target string) error {
	if err := b.still(); err != nil {
		return err
	}
	return b.Interface.Unmount(target)
}

func (b boundMounter) UnmountWithForce(target string, timeout time.Duration) error {
	if err := b.still(); err != nil {
		return err
	}
	return b.Interface.(mount.MounterForceUnmounter).UnmountWithForce(target, timeout)
}

// pathGens numbers the mounts the mounter makes at each path: a mount made
// at a path makes its generation newer. An unmount that runs apart from its
// call takes the generation when it begins, and each step of it that could
// reach a newer mount checks it first. Kept in memory: the goroutines it
// guards end with the process.
type pathGens struct {
	mu   sync.Mutex
	last uint64
	gens map[string]uint64
}

// bump makes the generation of path newer, before a mount is made there.
func (g *pathGens) bump(path string) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.gens == nil {
		g.gens = map[string]uint64{}
	}
	g.last++
	g.gens[filepath.Clean(path)] = g.last
}

// of is the generation of path now: 0 when this process made no mount
// there.
func (g *pathGens) of(path string) uint64 {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.gens[filepath.Clean(path)]
}

// still answers an error when a mount was made at path since its
// generation was gen.
func (g *pathGens) still(path string, gen uint64) error {
	if now := g.of(path); now != gen {
		return fmt.Errorf("%s was mounted again since this unmount began; the newer mount is left alone", path)
	}
	return nil
}

// forget drops path's generation once nothing is mounted there, if it is
// still gen: a path's entry lasts as long as its mount.
func (g *pathGens) forget(path string, gen uint64) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if p := filepath.Clean(path); g.gens[p] == gen {
		delete(g.gens, p)
	}
}

// unmountRootless unmounts what the table shows at a path that answers "no
// such file": a mount whose root directory was removed on the server (the
// volume deleted while the node still had it mounted; CIFS answers ENOENT
// for the mount point itself, NFS ESTALE). umount(8) and mount-utils stat
// the path first, find nothing and report success with the mount left in
// place; umount(2) resolves the mount point without asking the file
// system. A mount still in use is detached (the kubelet wants the path
// gone; the kernel drops it when its last user lets go). Nothing in the
// table at path: there is nothing to do.
func (l *Linux) unmountRootless(path string, still func() error) error {
	mounted, err := l.inTable(path)
	if err != nil {
		return fmt.Errorf("%s answers no such file, and the mount table cannot be read: %w", path, err)
	}
	if !mounted {
		return nil
	}
	if err := still(); err != nil {
		return err
	}
	// NOFOLLOW: the table's mount point is this very path, never what a
	// link put there since leads to.
	err = l.umount2(path, unix.UMOUNT_NOFOLLOW)
	if errors.Is(err, unix.EBUSY) {
		err = l.umount2(path, unix.UMOUNT_NOFOLLOW|unix.MNT_DETACH)
	}
	if err != nil && !errors.Is(err, unix.EINVAL) {
		return fmt.Errorf("unmount %s, whose directory is gone on the server: %w", path, err)
	}
	if err := os.Remove(path); err != nil && !errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("remove %s after unmounting it: %w", path, err)
	}
	return nil
}

// sharesSuperblock says whether a mount other than the top one at path has
// its file system: another entry of the mount table with the same
// major:minor (for NFS and CIFS, the superblock's anonymous device). One
// NFS export's staging mounts are binds of one superblock (stageBeneath
// mounts the export's root and binds the volume's subdirectory; the kernel
// gives mounts of one export with the same options one superblock too),
// and so are pods' binds of a staging mount. The table is read, the path
// is not touched: it answers for a hung mount. A table it cannot read is
// taken to share: never forced.
func sharesSuperblock(path string) bool {
	infos, err := mount.ParseMountInfo("/proc/self/mountinfo")
	if err != nil {
		return true
	}
	return sharedIn(infos, path)
}

// sharedIn is sharesSuperblock's answer from the mount table infos.
func sharedIn(infos []mount.MountInfo, path string) bool {
	path = filepath.Clean(path)
	found := -1
	for i, mi := range infos {
		// A mount point whose directory was removed shows with the suffix.
		if filepath.Clean(strings.TrimSuffix(unescapeMountInfo(mi.MountPoint), " (deleted)")) == path {
			found = i // the last one is on top
		}
	}
	if found < 0 {
		return false // nothing mounted there: nothing to force
	}
	for i, mi := range infos {
		if i != found && mi.Major == infos[found].Major && mi.Minor == infos[found].Minor {
			return true
		}
	}
	return false
}

// detach takes a hung mount off path. umount(8) and mount-utils stat the
// path first and would block like every other caller; umount(2) resolves
// the mount point without asking the file server, so it answers while the
// server is gone.
//
// The staging mount (force) gets MNT_FORCE first, when no other mount
// shares its file system (unmount): for NFS it aborts the requests in
// flight on the superblock, so the threads stuck in the kernel are
// released (with EIO) and the mount goes if nothing else holds it. If it is
// still busy, MNT_DETACH: the kubelet wants the path gone, and a lazy
// unmount takes it out of the namespace now; the kernel drops the mount
// when its last user lets go. A pod's target is a bind of the staging
// mount and gets MNT_DETACH only: MNT_FORCE acts on the file system the
// binds share, and would fail the I/O of every other pod using the volume
// on this node, which is waiting for the server to return.
func (l *Linux) detach(ctx context.Context, path string, force bool) error {
	logger := klog.FromContext(ctx)
	done := make(chan error, 1)
	go func() {
		if force {
			err := l.umount2(path, unix.MNT_FORCE)
			if err == nil || errors.Is(err, unix.EINVAL) {
				done <- nil // EINVAL: not (or no longer) a mount point
				return
			}
			logger.Info("forced unmount of a hung mount failed, detaching it", "path", path, "error", err.Error())
		}
		err := l.umount2(path, unix.MNT_DETACH)
		if errors.Is(err, unix.EINVAL) {
			err = nil
		}
		done <- err
	}()
	select {
	case err := <-done:
		if err != nil {
			return fmt.Errorf("detach hung mount at %s: %w", path, err)
		}
	case <-ctx.Done():
		return fmt.Errorf("detach hung mount at %s: %w: %w", path, ErrNotResponding, ctx.Err())
	}
	logger.Info("detached a mount that did not answer", "path", path, "force", force)
	// The probe still blocked on the old mount says nothing about the path
	// now.
	l.probes.forget(path)
	if err := os.Remove(path); err != nil && !errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("remove %s after unmounting it: %w", path, err)
	}
	return nil
}

// checkTimeout bounds one health probe, leaving the RPC time to answer.
const checkTimeout = 5 * time.Second

// Check answers in bounded time: a stat on a hard NFS mount whose server is
// gone blocks in the kernel until the server returns, and must not block
// the RPC with it.
func (l *Linux) Check(ctx context.Context, path string) error {
	_, err := l.probe(ctx, path)
	return err
}

func (l *Linux) probe(ctx context.Context, path string) (Stats, error) {
	return l.probes.run(ctx, path, probeTimeout(ctx), l.check)
}

// probeTimeout is how long a call waits for work on a mount that may block
// in the kernel: checkTimeout, or half of what is left of its deadline.
func probeTimeout(ctx context.Context) time.Duration {
	timeout := checkTimeout
	if d, ok := ctx.Deadline(); ok && time.Until(d)/2 < timeout {
		timeout = time.Until(d) / 2
	}
	return timeout
}

// check inspects the mount at path and reports its usage. It may block in
// the kernel: call it through l.probes only.
func (l *Linux) check(path string) (Stats, error) {
	notMnt, err := l.m.IsLikelyNotMountPoint(path)
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			// A mount whose root went on the server answers ENOENT for
			// its own mount point (CIFS): the table tells it from a path
			// with nothing there.
			if mounted, terr := l.inTable(path); terr == nil && mounted {
				return Stats{}, fmt.Errorf("mount at %s: %w: it answers no such file for its own root: the volume's directory was removed on the server", path, ErrBroken)
			}
			return Stats{}, ErrNotMounted
		}
		return Stats{}, classify(path, "stat", err)
	}
	if notMnt {
		// IsLikelyNotMountPoint compares devices; a bind mount from the same
		// file system looks like a plain directory to it, so ask the table.
		mnt, err := l.m.IsMountPoint(path)
		if err != nil || !mnt {
			return Stats{}, ErrNotMounted
		}
	}
	var st unix.Statfs_t
	if err := unix.Statfs(path, &st); err != nil {
		return Stats{}, classify(path, "statfs", err)
	}
	// stat and statfs may be answered from the client's caches; reading one
	// directory entry makes the server validate the handle (ESTALE when the
	// directory was deleted under the mount).
	f, err := os.Open(path)
	if err == nil {
		_, err = f.Readdirnames(1)
		f.Close()
		if errors.Is(err, io.EOF) {
			err = nil
		}
	}
	if err != nil {
		return Stats{}, classify(path, "read", err)
	}
	bs := int64(st.Bsize)
	s := Stats{
		TotalBytes:     int64(st.Blocks) * bs,
		AvailableBytes: int64(st.Bavail) * bs,
		UsedBytes:      int64(st.Blocks-st.Bfree) * bs,
		TotalInodes:    int64(st.Files),
		FreeInodes:     int64(st.Ffree),
	}
	s.UsedInodes = s.TotalInodes - s.FreeInodes
	return s, nil
}

// brokenForGood are the errors a mount answers with when only a new mount
// cures it. mount.IsCorruptedMnt is not used: it counts EACCES too, which a
// root-squashed server answers the plugin for a volume root only its owner
// may read, on a mount that works for the pod.
var brokenForGood = []error{unix.ESTALE, unix.ENOTCONN, unix.EIO, unix.EHOSTDOWN, unix.ENODEV}

// notAnswering are the errors a mount answers with while its server is
// unreachable and the kernel keeps trying: the CIFS client answers EAGAIN
// while it reconnects to a server that went away. Like a hard NFS mount that
// blocks, such a mount recovers by itself when the server is back, so it is
// reported as not responding and never torn down.
var notAnswering = []error{unix.EAGAIN, unix.ETIMEDOUT, unix.ECONNREFUSED, unix.ECONNRESET, unix.EHOSTUNREACH, unix.ENETUNREACH}

// classify wraps an error of a probe of path: ErrBroken for the errors in
// brokenForGood, ErrNotResponding for those in notAnswering; anything else
// (EACCES, EPERM, ...) says the mount answered and is reported as it is, so
// nobody unmounts it.
func classify(path, op string, err error) error {
	for _, e := range notAnswering {
		if errors.Is(err, e) {
			return fmt.Errorf("mount at %s: %w: %s: %w", path, ErrNotResponding, op, err)
		}
	}
	for _, b := range brokenForGood {
		if errors.Is(err, b) {
			return fmt.Errorf("mount at %s: %w: %s: %w", path, ErrBroken, op, err)
		}
	}
	if errors.Is(err, os.ErrPermission) {
		return fmt.Errorf("the node plugin may not %s the volume at %s (%w); the server answers, so the mount is kept: it may work for the pod's user (a root-squashed export with a volume root only its owner may read)", op, path, err)
	}
	return fmt.Errorf("%s %s: %w", op, path, err)
}

func (l *Linux) Stats(ctx context.Context, path string) (Stats, error) {
	// The probe's own statfs: a second one here could block on a mount that
	// stopped answering since.
	return l.probe(ctx, path)
}

// SetUnmountForTest replaces the umount2(2) call that detaches hung mounts.
func (l *Linux) SetUnmountForTest(fn func(path string, flags int) error) { l.umount2 = fn }

// UpcallTargetSupported is UpcallTargeter's.
func (l *Linux) UpcallTargetSupported() error {
	if l.UpcallTarget == nil {
		return errors.New("this mounter cannot ask the kernel")
	}
	return l.UpcallTarget()
}

// upcallTargetSupported asks the kernel's CIFS client to parse
// upcall_target=mount in a mount context it never mounts (fsopen,
// fsconfig). A kernel without the option (before 6.13, 6.12.30) refuses it
// as an unknown parameter; one without CIFS has no such file system.
// Either fails here, before anything is mounted.
func upcallTargetSupported() error { return cifsTakes("upcall_target", "mount") }

// cifsTakes asks the kernel's CIFS client to parse key=value in a mount
// context it never mounts (fsopen, fsconfig): nothing is mounted either way.
func cifsTakes(key, value string) error {
	fd, err := unix.Fsopen("cifs", unix.FSOPEN_CLOEXEC)
	if err != nil {
		return fmt.Errorf("the kernel opens no cifs mount context: %w", err)
	}
	defer unix.Close(fd)
	if err := unix.FsconfigSetString(fd, key, value); err != nil {
		return fmt.Errorf("the kernel's CIFS client does not take %s=%s: %w", key, value, err)
	}
	return nil
}
