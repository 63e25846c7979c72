//go:build linux

package integration

import (
	"bytes"
	"context"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/container-storage-interface/spec/lib/go/csi"
	"github.com/vmware/go-nfs-client/nfs/rpc"

	"github.com/fileshare-csi/fileshare-csi/pkg/share/oncrpc"
	"github.com/fileshare-csi/fileshare-csi/test/freeport"
	"github.com/fileshare-csi/fileshare-csi/test/localservers"
)

// A server that offers NFSv4 alone (Ganesha with Protocols = 4, no MOUNT,
// nothing registered with rpcbind) is provisioned on through a ?vers=4.1
// class: create, delete, retain and archive, with the connections counted
// on the only port there is.
func TestNFS41OnlyServer(t *testing.T) {
	if env.nfs.Name != "ganesha" {
		// The VM serves NFS with the kernel's nfsd and has no Ganesha; a
		// v3-less nfsd there is the next step.
		t.Skip("the NFSv4-only server is a second NFS-Ganesha, run beside the suite's on the host")
	}
	port, err := freeport.Get()
	if err != nil {
		t.Fatal(err)
	}
	rpcBefore, _ := exec.Command("rpcinfo", "-p", "127.0.0.1").CombinedOutput()
	srv, err := localservers.StartGanesha(context.Background(), filepath.Join(env.dir, "ganesha-v4only"), localservers.NFSv4Only(port))
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Stop()
	// The suite's own server keeps its registrations: this one took none
	// of them away.
	if out, _ := exec.Command("rpcinfo", "-p", "127.0.0.1").CombinedOutput(); bytes.Contains(rpcBefore, []byte("100005")) && !bytes.Contains(out, []byte("100005")) {
		t.Fatalf("starting the v4-only server unregistered the suite's MOUNT:\n%s", out)
	}
	// It really has no NFSv3: a v3 NULL call is refused.
	conn, err := oncrpc.Dial(context.Background(), nil, net.JoinHostPort("127.0.0.1", strconv.Itoa(srv.Port)))
	if err != nil {
		t.Fatal(err)
	}
	_, err = conn.Call(context.Background(), &struct{ rpc.Header }{rpc.Header{Rpcvers: 2, Prog: 100003, Vers: 3, Proc: 0, Cred: rpc.AuthNull, Verf: rpc.AuthNull}})
	conn.Close()
	if err == nil || !strings.Contains(err.Error(), "PROG_MISMATCH") {
		t.Fatalf("an NFSv3 NULL call to the v4-only server: %v, want PROG_MISMATCH", err)
	}
	counter, err := localservers.StartRPCCounter(net.JoinHostPort("127.0.0.1", strconv.Itoa(srv.Port)))
	if err != nil {
		t.Fatal(err)
	}
	defer counter.Close()

	base := filepath.Join(srv.Data, "base")
	if err := os.MkdirAll(base, 0o777); err != nil {
		t.Fatal(err)
	}
	params := map[string]string{"source": "nfs://" + counter.Addr + base + "?vers=4.1"}
	c := controller(t)
	for _, onDelete := range []string{"delete", "retain", "archive"} {
		vol := create(t, c, "v4only-"+onDelete, withParams(params, "onDelete", onDelete), nil)
		dir := filepath.Join(base, "v4only-"+onDelete)
		fillTree(t, dir, 3, 10, true, 0)
		writeFile(t, filepath.Join(dir, "top"), "data")
		deleteVol(t, c, vol.GetVolumeId(), nil)
		_, statErr := os.Stat(dir)
		switch onDelete {
		case "delete":
			if !os.IsNotExist(statErr) {
				t.Errorf("delete left %s: %v", dir, statErr)
			}
		case "retain":
			mustRead(t, filepath.Join(dir, "top"), "data")
		case "archive":
			mustRead(t, filepath.Join(base, "archived-v4only-archive", "top"), "data")
		}
	}
	if _, err := c.GetCapacity(context.Background(), &csi.GetCapacityRequest{Parameters: params}); err != nil {
		t.Errorf("GetCapacity: %v", err)
	}
	// The server restarts while the driver keeps idle sessions to it: the
	// next calls get new sessions, and the CO sees no error.
	srv.Stop()
	if srv, err = localservers.StartGanesha(context.Background(), filepath.Join(env.dir, "ganesha-v4only"), localservers.NFSv4Only(port)); err != nil {
		t.Fatal(err)
	}
	defer srv.Stop()
	conns := counter.Connections()
	after := create(t, c, "v4only-after-restart", params, nil)
	deleteVol(t, c, after.GetVolumeId(), nil)
	if _, err := os.Stat(filepath.Join(base, "v4only-after-restart")); !os.IsNotExist(err) {
		t.Errorf("the volume made after the restart is still there: %v", err)
	}
	if counter.Connections() == conns {
		t.Errorf("no new connection after the server restarted")
	}
	if counter.Calls() == 0 || counter.Connections() == 0 {
		t.Fatalf("%d calls on %d connections went to the server's port", counter.Calls(), counter.Connections())
	}
	if out, _ := exec.Command("rpcinfo", "-p", "127.0.0.1").CombinedOutput(); bytes.Contains(rpcBefore, []byte("100005")) && !bytes.Contains(out, []byte("100005")) {
		t.Fatalf("the v4-only server unregistered the suite's MOUNT:\n%s", out)
	}
}
