//go:build linux

package mounter

import (
	"errors"
	"testing"

	"k8s.io/mount-utils"
)

// The kernel escapes what would break mountinfo's fields and the option
// list; the options handed back to a reconfiguration must be the real ones.
func TestUnescapeMountInfo(t *testing.T) {
	for in, want := range map[string]string{
		`CORP`:             "CORP",
		`a\054b`:           "a,b",
		`with\040space`:    "with space",
		`back\134slash`:    `back\slash`,
		`trailing\05`:      `trailing\05`,
		`not\999an-escape`: `not\999an-escape`,
	} {
		if got := unescapeMountInfo(in); got != want {
			t.Errorf("unescapeMountInfo(%q) = %q, want %q", in, got, want)
		}
	}
}

// A mount point is written escaped in the table: a staging path with a
// space in it is still found, and the top of two mounts there is the one.
func TestTopMountAtFindsAnEscapedMountPoint(t *testing.T) {
	infos := []mount.MountInfo{
		{MountPoint: `/var/lib/kube\040let/g`, FsType: "nfs"},
		{MountPoint: `/var/lib/kube\040let/g`, FsType: "cifs"},
		{MountPoint: `/var/lib/kube let/h`, FsType: "cifs"},
	}
	got, err := topMountAt(infos, "/var/lib/kube let/g")
	if err != nil || got.FsType != "cifs" {
		t.Errorf("topMountAt = %+v, %v; want the cifs mount on top", got, err)
	}
	if _, err := topMountAt(infos, `/var/lib/kube\040let/h`); !errors.Is(err, ErrNotMounted) {
		t.Errorf("topMountAt of a path nothing is mounted at = %v, want ErrNotMounted", err)
	}
}
