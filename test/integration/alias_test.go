//go:build linux

package integration

import (
	"context"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/container-storage-interface/spec/lib/go/csi"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/fileshare-csi/fileshare-csi/pkg/source"
	"github.com/fileshare-csi/fileshare-csi/test/freeport"
	"github.com/fileshare-csi/fileshare-csi/test/localservers"
)

// aliasedShare is a share reached at a first address (a proxy the test can
// close, as a server that moved away) and at the server's own.
type aliasedShare struct {
	old     string // the class's source, at the first address
	oldAddr string // that address, host:port
	rule    string // the alias: the old share -> a dead address, the server's own
	from    string // the rule's source, canonical (the metric's label)
	to      string // its first address, canonical
	dir     string // the class's base on the server's disk
	secrets map[string]string
	close   func() // the first address stops answering
}

// A server moves: volumes made at its old address are expanded,
// snapshotted and deleted through a source alias, with no change to their
// IDs, while the old address refuses connections; the rule's first address
// is dead too, so the second is used. A new claim of the old class
// provisions through the alias. A malformed change of the file keeps the
// last good mapping; the log names each volume's alias once, and the
// metrics count the uses and the refused reload.
func TestSourceAliases(t *testing.T) {
	for _, proto := range []string{"smb", "nfs41"} {
		t.Run(proto, func(t *testing.T) {
			sh := aliasedShareOf(t, proto)
			aliases := filepath.Join(t.TempDir(), "sourceAliases") // no ConfigMap yet: no aliases
			d, metricsURL := metricsDriver(t, "--source-aliases", aliases)
			c := csi.NewControllerClient(d.Conn)
			ctx := context.Background()
			params := map[string]string{"source": sh.old}

			vol := create(t, c, "moved", params, sh.secrets)
			if err := os.WriteFile(filepath.Join(sh.dir, "moved", "data"), []byte("kept"), 0o644); err != nil {
				t.Fatal(err)
			}
			if err := os.Chown(filepath.Join(sh.dir, "moved", "data"), fileOwner(t), -1); err != nil {
				t.Fatal(err)
			}
			sh.close()
			expand := func() error {
				cctx, cancel := context.WithTimeout(ctx, 20*time.Second)
				defer cancel()
				_, err := c.ControllerExpandVolume(cctx, &csi.ControllerExpandVolumeRequest{VolumeId: vol.GetVolumeId(),
					CapacityRange: &csi.CapacityRange{RequiredBytes: 2 << 20}, Secrets: sh.secrets})
				return err
			}
			if err := expand(); status.Code(err) != codes.Unavailable {
				t.Fatalf("ControllerExpandVolume at an address that refuses connections, no alias: %v, want Unavailable", err)
			}

			if err := os.WriteFile(aliases, []byte("# the server moved\n"+sh.rule+"\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			time.Sleep(source.AliasCheckInterval + 200*time.Millisecond)
			if err := expand(); err != nil {
				t.Fatalf("ControllerExpandVolume through the alias: %v", err)
			}
			snap := snapshotOf(t, c, "moved-snap", vol.GetVolumeId(), sh.secrets)
			if !strings.Contains(snap.GetSnapshotId(), sh.oldAddr) {
				t.Errorf("snapshot ID %s does not name the volume's own source", snap.GetSnapshotId())
			}
			fresh := create(t, c, "provisioned-after-the-move", params, sh.secrets)
			if fresh.GetVolumeContext()["source"] != vol.GetVolumeContext()["source"] {
				t.Errorf("a new claim of the old class says source %s, want the class's", fresh.GetVolumeContext()["source"])
			}

			// A malformed version is refused; the last good one stays.
			if err := os.WriteFile(aliases, []byte(sh.rule+"\nnfs://10.0.0.1/export -> smb://10.0.0.2/share\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			time.Sleep(source.AliasCheckInterval + 200*time.Millisecond)
			if _, err := c.DeleteSnapshot(ctx, &csi.DeleteSnapshotRequest{SnapshotId: snap.GetSnapshotId(), Secrets: sh.secrets}); err != nil {
				t.Fatalf("DeleteSnapshot through the alias: %v", err)
			}
			for _, v := range []*csi.Volume{vol, fresh} {
				if _, err := c.DeleteVolume(ctx, &csi.DeleteVolumeRequest{VolumeId: v.GetVolumeId(), Secrets: sh.secrets}); err != nil {
					t.Fatalf("DeleteVolume through the alias: %v", err)
				}
			}
			for _, name := range []string{"moved", "provisioned-after-the-move"} {
				if _, err := os.Stat(filepath.Join(sh.dir, name)); !os.IsNotExist(err) {
					t.Errorf("%s is still on the server after DeleteVolume: %v", name, err)
				}
			}

			log, err := d.Log()
			if err != nil {
				t.Fatal(err)
			}
			// One line for the volume, whatever the calls that reached it.
			var aliasLines int
			for _, l := range strings.Split(string(log), "\n") {
				if strings.Contains(l, `"reaching a volume through a source alias"`) && strings.Contains(l, `volume="`+vol.GetVolumeId()+`"`) {
					aliasLines++
				}
			}
			if aliasLines != 1 {
				t.Errorf("the alias of the volume was logged %d times, want once", aliasLines)
			}
			if !strings.Contains(string(log), "the changed source aliases are refused") || !strings.Contains(string(log), "line 2") {
				t.Errorf("the driver's log does not name the refused line")
			}
			m := scrapeMetrics(t, metricsURL)
			m.atLeast(t, "fileshare_csi_source_alias_uses_total", map[string]string{"from": sh.from, "to": sh.to}, 5)
			m.want(t, "fileshare_csi_source_alias_rules", nil, 1)
			m.want(t, "fileshare_csi_source_alias_reload_errors_total", nil, 1)
		})
	}
}

// aliasedShareOf sets up the share of proto behind a proxy, with a base of
// the test's own.
func aliasedShareOf(t *testing.T, proto string) aliasedShare {
	t.Helper()
	dead, err := freeport.Get() // nothing listens there: refused
	if err != nil {
		t.Fatal(err)
	}
	var sh aliasedShare
	switch proto {
	case "smb":
		proxy, _ := smbThroughProxy(t)
		base := smbBase(t)
		sh = aliasedShare{
			old: "smb://" + proxy.Addr + "/" + localservers.SMBShare + "/" + base, oldAddr: proxy.Addr,
			from: "smb://" + proxy.Addr + "/" + localservers.SMBShare,
			to:   fmt.Sprintf("smb://127.0.0.1:%d/%s", dead, localservers.SMBShare),
			rule: fmt.Sprintf("smb://%s/%s -> smb://127.0.0.1:%d/%s, smb://127.0.0.1:%d/%s", proxy.Addr, localservers.SMBShare,
				dead, localservers.SMBShare, smbPort, localservers.SMBShare),
			dir: filepath.Join(env.samba.Data, base), secrets: smbSecrets(), close: proxy.Close,
		}
	default:
		proxy, err := localservers.StartRPCCounter(net.JoinHostPort("127.0.0.1", strconv.Itoa(env.nfs.Port)))
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(proxy.Close)
		dir := filepath.Join(env.nfs.Data, strings.ReplaceAll(t.Name(), "/", "-"))
		if err := os.MkdirAll(dir, 0o777); err != nil {
			t.Fatal(err)
		}
		sh = aliasedShare{
			old: "nfs://" + proxy.Addr + dir + "?vers=4.1", oldAddr: proxy.Addr,
			from: "nfs://" + proxy.Addr + env.nfs.Data,
			to:   fmt.Sprintf("nfs://127.0.0.1:%d%s", dead, env.nfs.Data),
			rule: fmt.Sprintf("nfs://%s%s -> nfs://127.0.0.1:%d%s, nfs://127.0.0.1:%d%s", proxy.Addr, env.nfs.Data,
				dead, env.nfs.Data, env.nfs.Port, env.nfs.Data),
			dir: dir, close: proxy.Close,
		}
	}
	return sh
}
