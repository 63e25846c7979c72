//go:build linux

package driver

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/container-storage-interface/spec/lib/go/csi"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/fileshare-csi/fileshare-csi/pkg/source"
)

// The node mounts an aliased volume at the first address of its rule that
// answers, keeps the volume's own source in its record (so a remount
// follows the aliases as they are then), and stops at a refusal, which
// another address of the same server would give too.
func TestNodeStageFollowsSourceAliases(t *testing.T) {
	path := filepath.Join(t.TempDir(), "sourceAliases")
	if err := os.WriteFile(path, []byte("nfs://10.0.0.5/export -> nfs://10.0.0.9/export, nfs://nas-b/export\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	aliases, err := source.OpenAliasFile(path)
	if err != nil {
		t.Fatal(err)
	}
	fail := map[string]error{"10.0.0.9:/export": errors.New("mount.nfs: Connection refused")}
	d, fake, calls := newNodeWith(t, func(c *Config) { c.Aliases = aliases }, func(device string) error { return fail[device] })
	staging := filepath.Join(t.TempDir(), "staging")
	req := &csi.NodeStageVolumeRequest{
		VolumeId:          "v1#nfs://10.0.0.5/export?vers=4.1#pvc-1#delete",
		StagingTargetPath: staging,
		VolumeCapability:  capability(csi.VolumeCapability_AccessMode_MULTI_NODE_MULTI_WRITER, nil, ""),
	}
	if _, err := d.NodeStageVolume(context.Background(), req); err != nil {
		t.Fatal(err)
	}
	var devices []string
	for _, c := range *calls {
		devices = append(devices, c.device)
	}
	if strings.Join(devices, " ") != "10.0.0.9:/export nas-b:/export" {
		t.Fatalf("mounted %v, want the first address, then the second", devices)
	}
	wantBound(t, fake, (*calls)[1], "nas-b:/export", staging, "pvc-1")
	st, err := d.nodeState().Staged(staging)
	if err != nil || st.Request.Source.String() != "nfs://10.0.0.5/export?vers=4.1" {
		t.Fatalf("staged record %+v, %v: want the volume's own source", st.Request.Source, err)
	}
	wantMetric(t, d, "fileshare_csi_source_alias_uses_total", map[string]string{"from": "nfs://10.0.0.5/export", "to": "nfs://10.0.0.9/export"}, 1)
	wantMetric(t, d, "fileshare_csi_source_alias_rules", nil, 1)

	// A refusal is the server's answer: the next address is not tried.
	*calls = nil
	fail["10.0.0.9:/export"] = errors.New("mount.nfs: access denied by server while mounting 10.0.0.9:/export")
	req.StagingTargetPath = filepath.Join(t.TempDir(), "staging2")
	if _, err := d.NodeStageVolume(context.Background(), req); status.Code(err) == codes.OK || len(*calls) != 1 {
		t.Fatalf("stage against a refusing server: %v after %d mounts, want an error after one", err, len(*calls))
	}
}
