//go:build linux

package driver

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

// An inline volume's subDir is held to volume.ValidateSubDir, which refuses
// .fileshare-csi: the controller's records of every volume below a class's
// base, which a pod must neither read nor rewrite. The path a pod names in
// its inline source, below the allow-list entry it lies in, is as much its
// choice, and is held to the same rules: where the allow-list names a
// class's base (nfs://nas/exports), nfs://nas/exports/.fileshare-csi is
// refused as subDir .fileshare-csi is. So is the records directory deeper
// down (an entry above a class's base) and in another case (an SMB share,
// a case-insensitive export), and a path that ValidateSubDir refuses for
// any other reason.
func TestAnInlineSourcePathIsHeldToTheSubDirRules(t *testing.T) {
	for _, tc := range []struct{ allowed, src, subDir string }{
		{"nfs://nas/exports", "nfs://nas/exports/.fileshare-csi", ""},
		{"nfs://nas/exports", "nfs://nas/exports/.fileshare-csi/pvc-1", ""},
		{"nfs://nas/exports", "nfs://nas/exports", ".fileshare-csi"},
		{"nfs://nas/srv", "nfs://nas/srv/exports/.fileshare-csi", ""},
		{"nfs://nas/exports", "nfs://nas/exports/.FileShare-CSI", ""},
		{"nfs://nas/exports", "nfs://nas/exports/a", ".FILESHARE-CSI"},
		{"smb://nas/share", "smb://nas/share/.FILESHARE-CSI", ""},
		{"nfs://nas/exports", "nfs://nas/exports/a:b", ""},
	} {
		t.Run(tc.src+"+"+tc.subDir, func(t *testing.T) {
			d, fake, calls := newNodeUnderTest(t)
			var err error
			if d.cfg.InlineSources, err = ParseInlineSources(tc.allowed); err != nil {
				t.Fatal(err)
			}
			target := filepath.Join(t.TempDir(), "mount")
			_, err = d.NodePublishVolume(context.Background(), inlineRequest(target, tc.src, tc.subDir, map[string]string{"username": "u", "password": "p"}))
			if status.Code(err) != codes.InvalidArgument {
				mps, _ := fake.List()
				t.Fatalf("inline volume %s (subDir %q) within %s: %v, want InvalidArgument; mounted %+v %+v", tc.src, tc.subDir, tc.allowed, err, mps, *calls)
			}
			if len(*calls) != 0 {
				t.Fatalf("mounted: %+v", *calls)
			}
		})
	}
}

// A directory of the pod's own below the entry is still mounted, one named
// like the records directory only in part included.
func TestAnInlineSourcePathOfPlainNamesIsMounted(t *testing.T) {
	for _, src := range []string{"nfs://nas/exports/team/.fileshare-csi-notes", "nfs://nas/exports"} {
		d, _, calls := newNodeUnderTest(t)
		var err error
		if d.cfg.InlineSources, err = ParseInlineSources("nfs://nas/exports"); err != nil {
			t.Fatal(err)
		}
		if _, err := d.NodePublishVolume(context.Background(), inlineRequest(filepath.Join(t.TempDir(), "mount"), src, "", nil)); err != nil {
			t.Fatalf("inline volume %s: %v", src, err)
		}
		if len(*calls) == 0 || !strings.HasPrefix((*calls)[0].device, "nas:/exports") {
			t.Fatalf("inline volume %s: mounts %+v", src, *calls)
		}
	}
}
