//go:build linux

package mounter

import (
	"testing"

	"k8s.io/mount-utils"
)

// mountinfo escapes space, tab, newline and backslash in mount points
// (\040, \011, \012, \134); mount.ParseMountInfo keeps them escaped.
func TestSharedInFindsAnEscapedMountPoint(t *testing.T) {
	infos := []mount.MountInfo{
		{MountPoint: `/var/lib/kube\040let/a/globalmount`, Major: 0, Minor: 55},
		{MountPoint: `/var/lib/kube\040let/b/globalmount`, Major: 0, Minor: 55},
	}
	if !sharedIn(infos, "/var/lib/kube let/a/globalmount") {
		t.Fatal("a staging mount whose path has a space is taken for unshared (and forced) while another mount has its superblock")
	}
}
