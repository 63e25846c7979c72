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
//   - CreateVolume: {intent, holds, no other store's records in an
//     ancestor, the ancestors' records}, MKDIR, and in order {record
//     (COMMIT), the intent renamed onto the root's mark};
//   - DeleteVolume: {record, the directory's ID}, and in order {RMDIR
//     (COMMIT), root mark, holds, record}.
//
// SMB: 4 and 5 (was 5 and 5 before the intent became the mark, 11 and 13
// before the store's batches, 25 and 39 before the compounds). An
// unordered batch is one related compound of several files (the patch in
// third_party/go-smb2); the server goes on after a failed part of one, so
// each step of an ordered batch is a message of its own.
//
// NFSv4.1: 4 and 2 (was 9 and 11): each batch is one COMPOUND, which stops
// at a failure, so an ordered batch is one too; the first batch has two
// looks that should find nothing (another store's metadata directory in
// the base, the base's record), and a COMPOUND stops at the first, so it
// takes two (it was 3 before the look for another store).
//
// NFSv3: 10 and 8 (9 with the intent as the mark, before the look for
// another store; 12 and 14 before the batches), over #28's 12 per pair; 6
// and 6 for a class at the export root, which needs no holds, no look in
// or for an ancestor and no look-up of its base. NFSv3 has no
// compound: every step is an RPC (CREATE and WRITE for each record, one
// per hold, the rename, each removal), and the batches only save the
// look-ups one call repeats. Meeting 12 below the export would mean
// dropping the intent or the holds, which the crash-consistency and
// nesting guarantees rest on, or keeping handles by path across calls,
// which issue #26 ruled out (pkg/share/pathscope.go).
var roundTripBudgets = []struct {
	name           string
	create, delete int64
}{
	{"nfs3", 10, 8},
	{"nfs3-export-root", 6, 6},
	{"nfs41", 4, 2},
	{"smb", 4, 5},
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
				src := fmt.Sprintf("nfs://%s%s", counter.Addr, env.nfs.Data)
				if b.name != "nfs3-export-root" {
					if err := os.MkdirAll(filepath.Join(env.nfs.Data, base), 0o777); err != nil {
						t.Fatal(err)
					}
					src += "/" + base
				}
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
			// Named after the row: the export-root row's volumes lie
			// beside every other test's directories.
			warm := create(t, c, base+"-warm", params, secrets)
			deleteVol(t, c, warm.GetVolumeId(), secrets)
			if calls() == 0 {
				t.Fatal("nothing went through the counter")
			}
			before, opened := calls(), conns()
			vol := create(t, c, base+"-measured", params, secrets)
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
