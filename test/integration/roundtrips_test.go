//go:build linux

package integration

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/fileshare-csi/fileshare-csi/test/localservers"
)

// The round trips a CreateVolume and a DeleteVolume of an empty volume
// cost, on a warm session, counted on the wire between the driver and the
// server: ONC RPC calls for NFS (a COMPOUND is one), SMB2 messages for SMB
// (a compound chain is one). The budgets are what the design costs today
// (docs/nfs-versions.md lists where NFSv4.1's go); a change that adds one
// fails here and must say why. Issue #28's targets (NFSv3 12, NFSv4.1 6,
// SMB 10 per pair) need the protocols redesigned and are not met yet.
//
// SMB: 11 and 13 (was 25 and 39): each small operation (a stat with the
// file ID, a mkdir, a record written or read, a remove, a rename) is one
// compound, through the patch in third_party/go-smb2.
//
// Every protocol's MKDIR tells the new directory's ID (share.DirMaker), so
// a CreateVolume looks nothing up after it, and NFSv3 sends its SETATTR
// only when the server did not give the mode asked: NFSv3 12 (was 15),
// NFSv4.1 9 (was 10).
//
// NFSv4.1 CreateVolume: 10, was 8. The intent written before anything else
// and removed after the record (pkg/state, crash consistency) costs an
// OPEN+WRITE+CLOSE and a REMOVE: without it a create cut short wedged its
// claim.
var roundTripBudgets = []struct {
	name           string
	create, delete int64
}{
	{"nfs3", 12, 14},
	{"nfs41", 9, 11},
	{"smb", 11, 13},
}

func TestRoundTripsPerVolume(t *testing.T) {
	for _, b := range roundTripBudgets {
		t.Run(b.name, func(t *testing.T) {
			base := "roundtrips-" + b.name
			var params, secrets map[string]string
			var calls func() int64
			var conns func() int
			switch b.name {
			case "smb":
				proxy, via := smbThroughProxy(t)
				dir := filepath.Join(env.samba.Data, base)
				if err := os.MkdirAll(dir, 0o777); err != nil {
					t.Fatal(err)
				}
				if err := os.Chmod(dir, 0o777); err != nil { // the share's user writes it
					t.Fatal(err)
				}
				params, secrets = map[string]string{"source": via.source(base)}, smbSecrets()
				calls, conns = proxy.Requests, proxy.Accepted
			default:
				counter, err := localservers.StartRPCCounter(fmt.Sprintf("127.0.0.1:%d", env.nfs.Port))
				if err != nil {
					t.Fatal(err)
				}
				defer counter.Close()
				if err := os.MkdirAll(filepath.Join(env.nfs.Data, base), 0o777); err != nil {
					t.Fatal(err)
				}
				src := fmt.Sprintf("nfs://%s%s", counter.Addr, filepath.Join(env.nfs.Data, base))
				if b.name == "nfs41" {
					src += "?vers=4.1"
				}
				params = map[string]string{"source": src}
				calls = func() int64 { return int64(counter.Calls()) }
				conns = func() int { return int(counter.Connections()) }
			}
			c := controller(t)
			// The first volume pays for the session and the metadata
			// directories; the second is what every later one costs.
			warm := create(t, c, "warm", params, secrets)
			deleteVol(t, c, warm.GetVolumeId(), secrets)
			if calls() == 0 {
				t.Fatal("nothing went through the counter")
			}
			before, opened := calls(), conns()
			vol := create(t, c, "measured", params, secrets)
			created := calls() - before
			before = calls()
			deleteVol(t, c, vol.GetVolumeId(), secrets)
			deleted := calls() - before
			if conns() != opened {
				t.Errorf("%d new connections for a warm create and delete: the session was not reused", conns()-opened)
			}
			t.Logf("%s: CreateVolume %d round trips, DeleteVolume %d", b.name, created, deleted)
			if created > b.create {
				t.Errorf("CreateVolume took %d round trips, the budget is %d", created, b.create)
			}
			if deleted > b.delete {
				t.Errorf("DeleteVolume took %d round trips, the budget is %d", deleted, b.delete)
			}
		})
	}
}
