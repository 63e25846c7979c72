//go:build linux

package mounter

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"github.com/fileshare-csi/fileshare-csi/pkg/source"
	"strconv"
	"strings"

	"golang.org/x/sys/unix"
	mount "k8s.io/mount-utils"
)

// RotateCredentials sets the CIFS option password2 on the live superblock
// at path. The kernel keeps password2 as an alternate: when a reconnect's
// session setup fails with the password it has, it swaps the two and tries
// again (Linux 6.10, with the remount fixes of 6.12.2 and later). So it is
// safe to set before or after the server changes: nothing is unmounted,
// the pods' bind mounts and open files stay, and a write in flight sees at
// most the reconnect the server's own session drop causes.
//
// The new mount API (fspick, fsconfig) carries the password: it never
// appears in an argv, and no credentials file is written. A CIFS
// reconfiguration resets every option it is not given to its default, so
// the mount's own options are handed back first, as the kernel reports them.
func (l *Linux) RotateCredentials(ctx context.Context, path string, creds source.Credentials) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	info, err := mountInfoAt(path)
	if err != nil {
		return err
	}
	if info.FsType != "cifs" && info.FsType != "smb3" {
		return fmt.Errorf("%s is a %s mount, not SMB: no password to change", path, info.FsType)
	}
	fd, err := unix.Fspick(unix.AT_FDCWD, path, unix.FSPICK_CLOEXEC|unix.FSPICK_NO_AUTOMOUNT|unix.FSPICK_SYMLINK_NOFOLLOW)
	if errors.Is(err, unix.ENOSYS) {
		return fmt.Errorf("the kernel (%s) has no fspick(2) (Linux 5.2+): %w", kernelRelease(), ErrUnsupported)
	}
	if err != nil {
		return fmt.Errorf("open the mount at %s for reconfiguration: %w", path, err)
	}
	defer unix.Close(fd)
	for _, opt := range info.SuperOptions {
		key, value, hasValue := strings.Cut(opt, "=")
		if key == "password" || key == "password2" || key == "" {
			continue
		}
		if hasValue {
			err = unix.FsconfigSetString(fd, key, unescapeMountInfo(value))
		} else {
			err = unix.FsconfigSetFlag(fd, key)
		}
		if err != nil {
			return fmt.Errorf("hand the mount at %s its option %s back: %w%s", path, key, err, contextLog(fd))
		}
	}
	if err := unix.FsconfigSetString(fd, "password2", creds.Password); err != nil {
		log := contextLog(fd)
		if errors.Is(err, unix.EINVAL) && strings.Contains(log, "password2") {
			return fmt.Errorf("the kernel (%s) cannot give a live SMB mount a new password (CIFS password2 came in Linux 6.10; use 6.12.2 or later)%s: %w", kernelRelease(), log, ErrUnsupported)
		}
		return fmt.Errorf("set the new password on the mount at %s: %w%s", path, err, log)
	}
	if err := unix.FsconfigReconfigure(fd); err != nil {
		return fmt.Errorf("reconfigure the mount at %s: %w%s", path, err, contextLog(fd))
	}
	return nil
}

// mountInfoAt returns the mount table's entry for the mount at path (the
// top one, should several be stacked there).
func mountInfoAt(path string) (mount.MountInfo, error) {
	infos, err := mount.ParseMountInfo("/proc/self/mountinfo")
	if err != nil {
		return mount.MountInfo{}, fmt.Errorf("read the mount table: %w", err)
	}
	return topMountAt(infos, path)
}

// topMountAt is the last of infos mounted at path. The table writes a
// mount point with the kernel's octal escapes (a space is \040), which
// mount-utils leaves in: compared as written, a staging path with a space
// in it was never found, and its password never changed.
func topMountAt(infos []mount.MountInfo, path string) (mount.MountInfo, error) {
	found := -1
	for i, m := range infos {
		if unescapeMountInfo(m.MountPoint) == path {
			found = i
		}
	}
	if found < 0 {
		return mount.MountInfo{}, fmt.Errorf("%s: %w", path, ErrNotMounted)
	}
	return infos[found], nil
}

// unescapeMountInfo undoes the kernel's octal escapes (\054 for a comma,
// \040 for a space) in a mountinfo option value.
func unescapeMountInfo(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+4 <= len(s) {
			if n, err := strconv.ParseUint(s[i+1:i+4], 8, 8); err == nil {
				b.WriteByte(byte(n))
				i += 3
				continue
			}
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// contextLog reads the messages the kernel left on a file system context
// ("e cifs: ..."), which say why a parameter or a reconfiguration was
// refused. They never carry a password's value.
func contextLog(fd int) string {
	var msgs []string
	buf := make([]byte, 4096)
	for range 16 {
		n, err := unix.Read(fd, buf)
		if err != nil || n <= 0 {
			break
		}
		msgs = append(msgs, string(bytes.TrimSpace(buf[:n])))
	}
	if len(msgs) == 0 {
		return ""
	}
	return " (kernel: " + strings.Join(msgs, "; ") + ")"
}

func kernelRelease() string {
	var u unix.Utsname
	if unix.Uname(&u) != nil {
		return "unknown"
	}
	return unix.ByteSliceToString(u.Release[:])
}
