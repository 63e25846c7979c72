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
	"strconv"
	"strings"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
	"k8s.io/klog/v2"
	mount "k8s.io/mount-utils"

	"github.com/fileshare-csi/fileshare-csi/pkg/source"
	"github.com/fileshare-csi/fileshare-csi/pkg/volume"
)

// unmountTimeout bounds a plain umount before it is retried with force
// (a server that is gone makes umount of an NFS mount hang).
const unmountTimeout = 20 * time.Second

// Linux mounts NFS and CIFS with mount(8) and bind-mounts into pods.
type Linux struct {
	m mount.Interface
	// run executes one network mount; replaced in unit tests.
	run func(ctx context.Context, fstype, device, target string, options []string) error
	// CredentialsDir holds short-lived CIFS credential files (mode 0700).
	CredentialsDir string
}

// New returns the mounter of this OS.
func New() Mounter {
	return &Linux{m: mount.New(""), run: runMount, CredentialsDir: filepath.Join(os.TempDir(), "fileshare-csi-credentials")}
}

// NewLinuxForTest builds a Linux mounter over m (a mount.FakeMounter) with a
// stand-in for mount(8), for unit tests of the staging logic.
func NewLinuxForTest(m mount.Interface, run func(ctx context.Context, fstype, device, target string, options []string) error, credDir string) *Linux {
	return &Linux{m: m, run: run, CredentialsDir: credDir}
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

func hasOption(opts []string, key string) bool {
	for _, o := range opts {
		if o == key || strings.HasPrefix(o, key+"=") {
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
		return "", nil, "", err
	}
	if req.ReadOnly && !hasOption(opts, "ro") {
		opts = append(opts, "ro")
	}
	switch req.Source.Protocol {
	case source.NFS:
		if req.Source.Port != 0 && !hasOption(opts, "port") {
			opts = append(opts, "port="+strconv.Itoa(req.Source.Port))
		}
		return "nfs", opts, "", nil
	case source.SMB:
		if req.Source.Port != 0 && !hasOption(opts, "port") {
			opts = append(opts, "port="+strconv.Itoa(req.Source.Port))
		}
		if req.MountGroup != "" {
			if _, err := strconv.ParseUint(req.MountGroup, 10, 32); err != nil {
				return "", nil, "", fmt.Errorf("volume mount group %q is not a numeric GID", req.MountGroup)
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
		c := req.Credentials
		if c.Username == "" {
			return "", nil, "", errors.New("SMB volumes need a node-stage secret with username and password")
		}
		credentials = "username=" + c.Username + "\npassword=" + c.Password + "\n"
		if c.Domain != "" {
			credentials += "domain=" + c.Domain + "\n"
		}
		return "cifs", opts, credentials, nil
	}
	return "", nil, "", fmt.Errorf("unknown protocol %q", req.Source.Protocol)
}

func (l *Linux) Stage(ctx context.Context, req StageRequest) error {
	logger := klog.FromContext(ctx)
	mounted, err := l.reuseOrClear(ctx, req.StagingPath)
	if err != nil {
		return err
	}
	if mounted {
		logger.V(4).Info("already staged", "path", req.StagingPath)
		return l.applyMountGroup(req)
	}
	fstype, opts, creds, err := stageOptions(req)
	if err != nil {
		return err
	}
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
	device := req.Source.Device(req.SubDir)
	logger.V(2).Info("mounting", "fstype", fstype, "device", device, "path", req.StagingPath, "options", strings.Join(withoutCredentials(opts), ","))
	if err := l.run(ctx, fstype, device, req.StagingPath, opts); err != nil {
		return err
	}
	return l.applyMountGroup(req)
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

// writeCredentials writes a mount.cifs credentials file readable by root only,
// and returns its path and a function that deletes it.
func (l *Linux) writeCredentials(content string) (string, func(), error) {
	if err := os.MkdirAll(l.CredentialsDir, 0o700); err != nil {
		return "", nil, fmt.Errorf("create credentials dir: %w", err)
	}
	if err := os.Chmod(l.CredentialsDir, 0o700); err != nil {
		return "", nil, err
	}
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
func (l *Linux) applyMountGroup(req StageRequest) error {
	if req.MountGroup == "" || req.Source.Protocol != source.NFS || req.ReadOnly {
		return nil
	}
	gid, err := strconv.Atoi(req.MountGroup)
	if err != nil || gid < 0 {
		return fmt.Errorf("volume mount group %q is not a numeric GID", req.MountGroup)
	}
	fi, err := os.Stat(req.StagingPath)
	if err != nil {
		return err
	}
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return errors.New("cannot read the owner of the volume root")
	}
	if int(st.Gid) != gid {
		if err := os.Lchown(req.StagingPath, -1, gid); err != nil {
			return fmt.Errorf("chgrp %d on the volume root (is root squashed on the server?): %w", gid, err)
		}
	}
	want := fi.Mode() | os.ModeSetgid | 0o070
	if fi.Mode() != want {
		if err := os.Chmod(req.StagingPath, want); err != nil {
			return fmt.Errorf("chmod g+rwxs on the volume root: %w", err)
		}
	}
	klog.V(2).InfoS("delegated the volume root to the pod's fsGroup", "path", req.StagingPath, "gid", gid, "mode", want.String())
	return nil
}

func (l *Linux) Unstage(_ context.Context, stagingPath string) error {
	return l.unmount(stagingPath)
}

func (l *Linux) Publish(ctx context.Context, stagingPath, targetPath string, readOnly bool) error {
	if err := l.Check(ctx, stagingPath); err != nil {
		return fmt.Errorf("staging path %s: %w", stagingPath, err)
	}
	if mounted, err := l.reuseOrClear(ctx, targetPath); err != nil || mounted {
		return err
	}
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
// is there to reuse; a broken one is unmounted so the caller mounts again;
// a mount that does not answer is an error and is left alone, since the
// kernel resumes it when the server is back.
func (l *Linux) reuseOrClear(ctx context.Context, path string) (bool, error) {
	switch err := l.Check(ctx, path); {
	case err == nil:
		return true, nil
	case errors.Is(err, ErrNotMounted):
		return false, nil
	case errors.Is(err, ErrNotResponding):
		return false, err
	default:
		klog.FromContext(ctx).Info("mount is broken, mounting again", "path", path, "error", err.Error())
		if uerr := l.unmount(path); uerr != nil {
			return false, fmt.Errorf("unmount broken mount at %s: %w", path, uerr)
		}
		return false, nil
	}
}

func (l *Linux) Unpublish(_ context.Context, targetPath string) error {
	return l.unmount(targetPath)
}

// unmount unmounts path (forcing it when the server is gone) and removes the
// directory. A path that does not exist is already done.
func (l *Linux) unmount(path string) error {
	if _, err := os.Lstat(path); errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if fm, ok := l.m.(mount.MounterForceUnmounter); ok {
		return mount.CleanupMountWithForce(path, fm, true, unmountTimeout)
	}
	return mount.CleanupMountPoint(path, l.m, true)
}

// checkTimeout bounds one health probe, leaving the RPC time to answer.
const checkTimeout = 5 * time.Second

// Check answers in bounded time: a stat on a hard NFS mount whose server is
// gone blocks in the kernel (the probe goroutine stays blocked until the
// server returns), and must not block the RPC with it.
func (l *Linux) Check(ctx context.Context, path string) error {
	timeout := checkTimeout
	if d, ok := ctx.Deadline(); ok && time.Until(d)/2 < timeout {
		timeout = time.Until(d) / 2
	}
	done := make(chan error, 1)
	go func() { done <- l.check(path) }()
	select {
	case err := <-done:
		return err
	case <-time.After(timeout):
		return fmt.Errorf("%s did not answer within %s: %w", path, timeout, ErrNotResponding)
	case <-ctx.Done():
		return fmt.Errorf("%s: %w: %w", path, ErrNotResponding, ctx.Err())
	}
}

func (l *Linux) check(path string) error {
	notMnt, err := l.m.IsLikelyNotMountPoint(path)
	if err != nil {
		if mount.IsCorruptedMnt(err) {
			return fmt.Errorf("mount at %s is broken: %w", path, err)
		}
		if errors.Is(err, os.ErrNotExist) {
			return ErrNotMounted
		}
		return err
	}
	if notMnt {
		// IsLikelyNotMountPoint compares devices; a bind mount from the same
		// file system looks like a plain directory to it, so ask the table.
		mnt, err := l.m.IsMountPoint(path)
		if err != nil || !mnt {
			return ErrNotMounted
		}
	}
	var st unix.Statfs_t
	if err := unix.Statfs(path, &st); err != nil {
		if mount.IsCorruptedMnt(err) {
			return fmt.Errorf("mount at %s is broken: %w", path, err)
		}
		return fmt.Errorf("statfs %s: %w", path, err)
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
		if mount.IsCorruptedMnt(err) {
			return fmt.Errorf("mount at %s is broken: %w", path, err)
		}
		return fmt.Errorf("read %s: %w", path, err)
	}
	return nil
}

func (l *Linux) Stats(ctx context.Context, path string) (Stats, error) {
	if err := l.Check(ctx, path); err != nil {
		return Stats{}, err
	}
	var st unix.Statfs_t
	if err := unix.Statfs(path, &st); err != nil {
		return Stats{}, fmt.Errorf("statfs %s: %w", path, err)
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
