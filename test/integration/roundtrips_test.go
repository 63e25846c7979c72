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
// (a compound is one). Issue #28's budgets per pair are NFSv3 12, NFSv4.1 6
// and SMB 10; a change that adds one fails here and must say why.
//
// The store's two calls are batches (pkg/state/batched.go, share.Batcher):
//   - CreateVolume: {intent, holds, the ancestors' records}, MKDIR, and in
//     order {record (COMMIT), root mark, intent removed};
//   - DeleteVolume: {record, the directory's ID}, and in order {RMDIR
//     (COMMIT), root mark, holds, record}.
//
// SMB: 5 and 5 (was 11 and 13, and 25 and 39 before the compounds). An
// unordered batch is one related compound of several files (the patch in
// third_party/go-smb2); the server goes on after a failed part of one, so
// each step of an ordered batch is a message of its own.
//
// NFSv4.1: 3 and 2 (was 9 and 11): each batch is one COMPOUND, which stops
// at a failure, so an ordered batch is one too.
//
// NFSv3: 10 and 8 (was 12 and 14), over #28's 12 per pair. NFSv3 has no
// compound: every step is an RPC (CREATE and WRITE for each record, one
// per hold, mark and removal), and the batches only save the look-ups one
// call repeats. Meeting 12 would mean dropping the intent or the holds,
// which the crash-consistency and nesting guarantees rest on.
var roundTripBudgets = []struct {
	name           string
	create, delete int64
}{
	{"nfs3", 10, 8},
	{"nfs41", 3, 2},
	{"smb", 5, 5},
}

func TestRoundTripsPerVolume(t *testing.T) {
	for _, b := range roundTripBudgets {
		t.Run(b.name, func(t *testing.T) {
			base := "roundtrips-" + b.name
			var params, secrets map[string]string
			var calls func() int64
			resent := func() int64 { return 0 }
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
				// A call the server answered "later" (DELAY, JUKEBOX,
				// GRACE) is sent again: the same step, not one more of the
				// protocol. Counted apart and said in the log.
				calls = func() int64 { return counter.Calls() - counter.Retried() }
				resent = counter.Retried
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
			t.Logf("%s: CreateVolume %d round trips, DeleteVolume %d (and %d calls the server asked for again later)", b.name, created, deleted, resent())
			if created > b.create {
				t.Errorf("CreateVolume took %d round trips, the budget is %d", created, b.create)
			}
			if deleted > b.delete {
				t.Errorf("DeleteVolume took %d round trips, the budget is %d", deleted, b.delete)
			}
		})
	}
}
