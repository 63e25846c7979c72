//go:build linux

package driver

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"

	"github.com/container-storage-interface/spec/lib/go/csi"
)

// A record of an inline NFS volume published before the upgrade (sec=krb5
// then allowed; or no sec=, which may negotiate Kerberos) is remounted by a
// stats call's repair as it is: the new rule is held only at publish.
func TestARepairOfAnOldInlineNFSRecordNeverMountsWithKerberos(t *testing.T) {
	for name, old := range map[string][]string{"sec=krb5": {"sec=krb5"}, "no sec": nil} {
		t.Run(name, func(t *testing.T) {
			d, fake, calls := newNodeUnderTest(t)
			var err error
			if d.cfg.InlineSources, err = ParseInlineSources("nfs://nas/exports/scratch"); err != nil {
				t.Fatal(err)
			}
			target := filepath.Join(t.TempDir(), "mount")
			req := inlineRequest(target, "nfs://nas/exports/scratch", "", nil)
			if _, err := d.NodePublishVolume(context.Background(), req); err != nil {
				t.Fatal(err)
			}
			// The record as the previous version wrote it.
			st, err := d.nodeState().Staged(target)
			if err != nil {
				t.Fatal(err)
			}
			st.Request.MountOptions = old
			if err := d.nodeState().SaveStaged(target, st); err != nil {
				t.Fatal(err)
			}
			*calls = nil
			fake.MountCheckErrors = map[string]error{target: &os.PathError{Op: "stat", Path: target, Err: syscall.ESTALE}}
			_, _ = d.NodeGetVolumeStats(context.Background(), &csi.NodeGetVolumeStatsRequest{VolumeId: req.VolumeId, VolumePath: target})
			if len(*calls) == 0 && old == nil {
				t.Fatal("the broken inline mount was not remounted")
			}
			for _, c := range *calls {
				opts := strings.Split(strings.Join(c.options, ","), ",")
				if slices.Contains(opts, "sec=krb5") || !slices.Contains(opts, "sec=sys") {
					t.Errorf("repair of an inline NFS volume: mount -t %s -o %v %s, want sec=sys and no Kerberos", c.fstype, c.options, c.device)
				}
			}
		})
	}
}
