//go:build linux

package integration

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/container-storage-interface/spec/lib/go/csi"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/fileshare-csi/fileshare-csi/test/localservers"
)

// NFSv3 procedures and the status of a handle the server no longer knows.
const (
	nfs3Lookup = 3
	nfs3Read   = 6
	nfs3Stale  = 70
)

// A stale filehandle (NFS3ERR_STALE: the export's directory, or a
// metadata directory whose handle a session keeps, was replaced on the
// server) says nothing about whether a path exists. Read as "no such
// file", a DeleteVolume would find no record, answer OK and leave the
// volume's data on the share for good, and a ValidateVolumeCapabilities
// would answer NotFound for a live volume. A session that meets one is
// dropped, and the call is answered from a fresh one: the proxy answers
// one call with STALE, the driver's answer must be the one a healthy
// server gets.
func TestNFSv3StaleHandleIsNeverAMissingVolume(t *testing.T) {
	counter, err := localservers.StartRPCCounter(fmt.Sprintf("127.0.0.1:%d", env.nfs.Port))
	if err != nil {
		t.Fatal(err)
	}
	defer counter.Close()
	dir := "stale-handles"
	base := filepath.Join(env.nfs.Data, dir)
	if err := os.MkdirAll(base, 0o777); err != nil {
		t.Fatal(err)
	}
	params := map[string]string{"source": fmt.Sprintf("nfs://%s%s", counter.Addr, base)}
	c := controller(t)
	ctx := context.Background()
	// Warm: the session is pooled and keeps the metadata directories'
	// handles, as after any earlier call.
	deleteVol(t, c, create(t, c, "warm", params, nil).GetVolumeId(), nil)

	for _, proc := range []uint32{nfs3Lookup, nfs3Read} {
		name := fmt.Sprintf("vol-%d", proc)
		vol := create(t, c, name, params, nil)
		writeFile(t, filepath.Join(base, name, "data"), "the tenant's")

		counter.FailNext(proc, nfs3Stale)
		_, err := c.ValidateVolumeCapabilities(ctx, &csi.ValidateVolumeCapabilitiesRequest{VolumeId: vol.GetVolumeId(), VolumeCapabilities: []*csi.VolumeCapability{mountCap}})
		if status.Code(err) == codes.NotFound {
			t.Errorf("procedure %d answered STALE: ValidateVolumeCapabilities of a live volume answered NotFound: %v", proc, err)
		}

		counter.FailNext(proc, nfs3Stale)
		_, err = c.DeleteVolume(ctx, &csi.DeleteVolumeRequest{VolumeId: vol.GetVolumeId()})
		if err == nil {
			if _, serr := os.Stat(filepath.Join(base, name)); !os.IsNotExist(serr) {
				t.Errorf("procedure %d answered STALE: DeleteVolume answered OK and left the volume's directory (%v)", proc, serr)
			}
		} else if c := status.Code(err); c != codes.Unavailable {
			t.Errorf("procedure %d answered STALE: DeleteVolume: %v (%s), want OK or Unavailable", proc, err, c)
		}
		deleteVol(t, c, vol.GetVolumeId(), nil)
		if _, err := os.Stat(filepath.Join(base, name)); !os.IsNotExist(err) {
			t.Errorf("procedure %d answered STALE, then the retry: the volume's directory is still there (%v)", proc, err)
		}
	}
	if matches, _ := filepath.Glob(filepath.Join(env.nfs.Data, ".fileshare-csi", "volumes", "*")); len(matches) > 0 {
		// Other tests' volumes may share the export's metadata: only
		// this test's must be gone, which the directories show above.
		t.Logf("%d records on the export (other tests')", len(matches))
	}
}
