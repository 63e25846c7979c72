package mounter

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"golang.org/x/sys/unix"
	mount "k8s.io/mount-utils"
)

// The look at a staging or target path (checkNodePath) must not wait for a
// file server. statx with AT_STATX_DONT_SYNC does go to a CIFS server for a
// directory whose cached attributes were dropped (cifs_getattr revalidates
// when the inode's time is 0, which cifs_unlink, cifs_mkdir and the like
// set on the parent directory: any file a pod removed in the volume's root).
// A mount at the path is its file system's root, a directory, and is
// known from the mount table without asking the server; an unpublish or
// unstage of a dead server's volume then reaches the unmount's own
// time-bounded probe and detach, as before the check.
func TestTheNodePathCheckNeverWaitsForAMountsServer(t *testing.T) {
	dir := t.TempDir()
	staging := filepath.Join(dir, "globalmount")
	target := filepath.Join(dir, "pod", "mount")
	for _, p := range []string{staging, target} {
		if err := os.MkdirAll(p, 0o750); err != nil {
			t.Fatal(err)
		}
	}
	fake := mount.NewFakeMounter([]mount.MountPoint{
		{Device: "//fs/share/v", Path: staging, Type: "cifs"},
		{Device: staging, Path: target, Type: "cifs", Opts: []string{"bind"}},
	})
	l := NewLinuxForTest(fake, nil, t.TempDir())
	release := make(chan struct{})
	defer close(release)
	look := statxNodePath
	defer func() { statxNodePath = look }()
	statxNodePath = func(p string, st *unix.Statx_t) error {
		if p == staging || p == target {
			<-release // the server does not answer
		}
		return look(p, st)
	}
	// In this order: each takes its mount away (unpublish the target's,
	// unstage the staging path's), and a path with none left is looked at
	// by the statx, which here does not answer.
	for _, c := range []struct {
		name string
		call func(context.Context) error
	}{
		{"publish", func(ctx context.Context) error { return l.Publish(ctx, staging, target, false) }},
		{"unpublish", func(ctx context.Context) error { return l.Unpublish(ctx, target) }},
		{"unstage", func(ctx context.Context) error { return l.Unstage(ctx, staging) }},
	} {
		name, call := c.name, c.call
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		done := make(chan error, 1)
		go func() { done <- call(ctx) }()
		select {
		case err := <-done:
			if err != nil {
				t.Errorf("%s: %v", name, err)
			}
		case <-time.After(3 * time.Second):
			t.Errorf("%s waited for the server of the mount at its path (the path check's statx)", name)
		}
		cancel()
	}
	// A path with no mount is still looked at: a link there is refused.
	link := filepath.Join(dir, "link")
	if err := os.Symlink(dir, link); err != nil {
		t.Fatal(err)
	}
	if err := l.Unpublish(context.Background(), link); err == nil {
		t.Error("unpublish of a symbolic link: no error")
	}
}

// The mount table writes a mount point with the kernel's escapes, and one
// whose directory was removed with " (deleted)" after it: listedAt finds a
// path with a space in it (inTable compared the escaped form, and never
// did), and counts a removed directory's mount only when asked to.
func TestListedAtReadsTheTablesEscapes(t *testing.T) {
	l := NewLinuxForTest(mount.NewFakeMounter([]mount.MountPoint{
		{Device: "//fs/share/v", Path: `/var/lib/kube\040let/a`, Type: "cifs"},
		{Device: "//fs/share/w", Path: `/var/lib/kubelet/b\040(deleted)`, Type: "cifs"},
	}), nil, t.TempDir())
	for _, c := range []struct {
		path       string
		deletedToo bool
		want       bool
	}{
		{"/var/lib/kube let/a", false, true},
		{"/var/lib/kube let/a/", true, true},
		{`/var/lib/kube\040let/a`, true, false},
		{"/var/lib/kubelet/b", true, true},
		{"/var/lib/kubelet/b", false, false},
	} {
		if got, err := l.listedAt(c.path, c.deletedToo); err != nil || got != c.want {
			t.Errorf("listedAt(%q, deletedToo %v) = %v, %v; want %v", c.path, c.deletedToo, got, err, c.want)
		}
	}
}
