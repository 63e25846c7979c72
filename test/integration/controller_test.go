//go:build linux

package integration

import (
	"bytes"
	"context"
	"fmt"
	"net"
	"os"
	"os/user"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/container-storage-interface/spec/lib/go/csi"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/status"

	"github.com/fileshare-csi/fileshare-csi/test/localservers"
)

// dial connects to the driver for the length of the test.
func dial(t *testing.T) *grpc.ClientConn {
	t.Helper()
	return dialEndpoint(t, env.endpoint)
}

func dialEndpoint(t *testing.T, endpoint string) *grpc.ClientConn {
	t.Helper()
	conn, err := grpc.NewClient(endpoint, grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	return conn
}

func controller(t *testing.T) csi.ControllerClient {
	t.Helper()
	return csi.NewControllerClient(dial(t))
}

var mountCap = &csi.VolumeCapability{
	AccessType: &csi.VolumeCapability_Mount{Mount: &csi.VolumeCapability_MountVolume{}},
	AccessMode: &csi.VolumeCapability_AccessMode{Mode: csi.VolumeCapability_AccessMode_MULTI_NODE_MULTI_WRITER},
}

// protocols runs a subtest per protocol with a fresh base directory on the
// share, returning the base's path on the server's disk. NFS runs three
// times: as an unpinned source (NFSv3, the default) and pinned to
// ?vers=4.1, against the same server and export, and pinned to ?vers=4.1
// on the NFSv4-only server.
func protocols(t *testing.T, fn func(t *testing.T, params map[string]string, secrets map[string]string, base string)) {
	for _, p := range []struct {
		name    string
		data    string
		source  func(string) string
		secrets map[string]string
	}{
		{"nfs", env.nfs.Data, nfsSource, nil},
		{"nfs41", env.nfs.Data, nfs41Source, nil},
		{"nfs41only", env.nfs4only.Data, nfs41OnlySource, nil},
		{"smb", env.samba.Data, smbSource, smbSecrets()},
	} {
		t.Run(p.name, func(t *testing.T) {
			shareRoots.Store(t.Name(), p.data)
			defer shareRoots.Delete(t.Name())
			baseName := strings.ReplaceAll(t.Name(), "/", "-")
			base := filepath.Join(p.data, baseName)
			if err := os.MkdirAll(base, 0o777); err != nil {
				t.Fatal(err)
			}
			if err := os.Chmod(base, 0o777); err != nil {
				t.Fatal(err)
			}
			fn(t, map[string]string{"source": p.source(baseName)}, p.secrets, base)
		})
	}
}

// shareRoots maps a protocols subtest to the share's root on the server's
// disk, where the driver keeps its metadata.
var shareRoots sync.Map

// metadataRoot is the driver's metadata directory on the share of the
// protocols subtest t.
func metadataRoot(t *testing.T) string {
	t.Helper()
	root, ok := shareRoots.Load(t.Name())
	if !ok {
		t.Fatalf("%s is not a subtest of protocols", t.Name())
	}
	return filepath.Join(root.(string), ".fileshare-csi")
}

func withParams(base map[string]string, kv ...string) map[string]string {
	out := map[string]string{}
	for k, v := range base {
		out[k] = v
	}
	for i := 0; i+1 < len(kv); i += 2 {
		out[kv[i]] = kv[i+1]
	}
	return out
}

func create(t *testing.T, c csi.ControllerClient, name string, params, secrets map[string]string) *csi.Volume {
	t.Helper()
	resp, err := c.CreateVolume(context.Background(), &csi.CreateVolumeRequest{
		Name: name, Parameters: params, Secrets: secrets, VolumeCapabilities: []*csi.VolumeCapability{mountCap},
	})
	if err != nil {
		t.Fatalf("CreateVolume %s: %v", name, err)
	}
	return resp.GetVolume()
}

// fillTree writes files and directories below dir, every file read-only. With
// readOnlyDirs, every other directory is read-only too (NFS: the controller
// opens them with SETATTR; SMB carries no Unix modes, so a share user cannot
// undo a 0555 directory it does not own and the SMB case leaves them out).
// owner is the uid the tree belongs to, as if written through the share.
func fillTree(t *testing.T, dir string, dirs, files int, readOnlyDirs bool, owner int) {
	t.Helper()
	for d := range dirs {
		sub := filepath.Join(dir, fmt.Sprintf("d%03d", d))
		if err := os.MkdirAll(sub, 0o777); err != nil {
			t.Fatal(err)
		}
		for f := range files {
			p := filepath.Join(sub, fmt.Sprintf("f%03d", f))
			if err := os.WriteFile(p, []byte("data"), 0o444); err != nil {
				t.Fatal(err)
			}
			if err := os.Lchown(p, owner, -1); err != nil {
				t.Fatal(err)
			}
		}
		if err := os.Lchown(sub, owner, -1); err != nil {
			t.Fatal(err)
		}
		if readOnlyDirs && d%2 == 0 {
			if err := os.Chmod(sub, 0o555); err != nil {
				t.Fatal(err)
			}
		}
	}
}

func TestOnDelete(t *testing.T) {
	c := controller(t)
	protocols(t, func(t *testing.T, params, secrets map[string]string, base string) {
		ctx := context.Background()
		// delete: a tree with read-only files and directories goes entirely.
		vol := create(t, c, "vol-delete", withParams(params, "onDelete", "delete"), secrets)
		isNFS := secrets == nil
		owner := 0
		if !isNFS {
			owner = smbUID(t)
		}
		fillTree(t, filepath.Join(base, "vol-delete"), 20, 50, isNFS, owner)
		if err := os.WriteFile(filepath.Join(base, "neighbour.txt"), []byte("keep"), 0o644); err != nil {
			t.Fatal(err)
		}
		if _, err := c.DeleteVolume(ctx, &csi.DeleteVolumeRequest{VolumeId: vol.GetVolumeId(), Secrets: secrets}); err != nil {
			t.Fatalf("DeleteVolume: %v", err)
		}
		if _, err := os.Stat(filepath.Join(base, "vol-delete")); !os.IsNotExist(err) {
			t.Fatalf("volume directory still there after delete: %v", err)
		}
		if b, err := os.ReadFile(filepath.Join(base, "neighbour.txt")); err != nil || string(b) != "keep" {
			t.Fatalf("a file beside the volume was touched: %q %v", b, err)
		}
		// Deleting again is fine.
		if _, err := c.DeleteVolume(ctx, &csi.DeleteVolumeRequest{VolumeId: vol.GetVolumeId(), Secrets: secrets}); err != nil {
			t.Fatalf("second DeleteVolume: %v", err)
		}

		// retain: the data stays where it was.
		vol = create(t, c, "vol-retain", withParams(params, "onDelete", "retain"), secrets)
		if err := os.WriteFile(filepath.Join(base, "vol-retain", "precious"), []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
		if _, err := c.DeleteVolume(ctx, &csi.DeleteVolumeRequest{VolumeId: vol.GetVolumeId(), Secrets: secrets}); err != nil {
			t.Fatalf("DeleteVolume retain: %v", err)
		}
		if _, err := os.Stat(filepath.Join(base, "vol-retain", "precious")); err != nil {
			t.Fatalf("retained data is gone: %v", err)
		}

		// archive, twice under one name: the first archive is not replaced.
		for round, content := range []string{"first", "second"} {
			vol = create(t, c, "vol-archive", withParams(params, "onDelete", "archive"), secrets)
			if err := os.WriteFile(filepath.Join(base, "vol-archive", "data"), []byte(content), 0o644); err != nil {
				t.Fatal(err)
			}
			if _, err := c.DeleteVolume(ctx, &csi.DeleteVolumeRequest{VolumeId: vol.GetVolumeId(), Secrets: secrets}); err != nil {
				t.Fatalf("DeleteVolume archive round %d: %v", round, err)
			}
			if _, err := os.Stat(filepath.Join(base, "vol-archive")); !os.IsNotExist(err) {
				t.Fatalf("archived directory still under its own name: %v", err)
			}
		}
		if b, err := os.ReadFile(filepath.Join(base, "archived-vol-archive", "data")); err != nil || string(b) != "first" {
			t.Fatalf("first archive: %q, %v", b, err)
		}
		matches, _ := filepath.Glob(filepath.Join(base, "archived-vol-archive-*", "data"))
		if len(matches) != 1 {
			t.Fatalf("want one timestamped second archive, got %v", matches)
		}
		if b, _ := os.ReadFile(matches[0]); string(b) != "second" {
			t.Fatalf("second archive holds %q", b)
		}
	})
}

func TestCreateVolumeSemantics(t *testing.T) {
	c := controller(t)
	protocols(t, func(t *testing.T, params, secrets map[string]string, base string) {
		ctx := context.Background()
		// Templated, nested subDir from csi-provisioner's metadata.
		tp := withParams(params, "subDir", "${pvc.metadata.namespace}/${pvc.metadata.name}",
			"csi.storage.k8s.io/pvc/name", "db", "csi.storage.k8s.io/pvc/namespace", "shop", "mountPermissions", "0750")
		vol := create(t, c, "pvc-aaa", tp, secrets)
		fi, err := os.Stat(filepath.Join(base, "shop", "db"))
		if err != nil || !fi.IsDir() {
			t.Fatalf("templated directory missing: %v", err)
		}
		if strings.Contains(t.Name(), "nfs") && fi.Mode().Perm() != 0o750 {
			t.Fatalf("mountPermissions 0750 gave %v", fi.Mode().Perm())
		}
		if vol.GetVolumeContext()["subDir"] != "shop/db" {
			t.Fatalf("volume context: %v", vol.GetVolumeContext())
		}
		// Another claim resolving to the same directory is refused.
		_, err = c.CreateVolume(ctx, &csi.CreateVolumeRequest{Name: "pvc-bbb", Parameters: tp, Secrets: secrets, VolumeCapabilities: []*csi.VolumeCapability{mountCap}})
		if status.Code(err) != codes.AlreadyExists || !strings.Contains(err.Error(), "pvc-aaa") {
			t.Fatalf("second claim on shop/db: %v, want AlreadyExists naming pvc-aaa", err)
		}

		// Concurrent CreateVolume of one name: one directory, one ID.
		var wg sync.WaitGroup
		ids := make([]string, 16)
		errs := make([]error, 16)
		for i := range ids {
			wg.Add(1)
			go func() {
				defer wg.Done()
				resp, err := c.CreateVolume(ctx, &csi.CreateVolumeRequest{Name: "pvc-race", Parameters: params, Secrets: secrets, VolumeCapabilities: []*csi.VolumeCapability{mountCap}})
				errs[i] = err
				ids[i] = resp.GetVolume().GetVolumeId()
			}()
		}
		wg.Wait()
		for i := range ids {
			if errs[i] != nil || ids[i] != ids[0] {
				t.Fatalf("concurrent create %d: id %q err %v (first id %q)", i, ids[i], errs[i], ids[0])
			}
		}
		entries, _ := filepath.Glob(filepath.Join(base, "pvc-race*"))
		if len(entries) != 1 {
			t.Fatalf("concurrent creates made %v", entries)
		}

		// Bad input: clear InvalidArgument naming the problem.
		for _, bad := range []struct {
			params map[string]string
			want   string
		}{
			{withParams(params, "subDir", "../../etc"), `".."`},
			{withParams(params, "colour", "blue"), `"colour"`},
			{withParams(params, "onDelete", "shred"), "onDelete"},
		} {
			_, err := c.CreateVolume(ctx, &csi.CreateVolumeRequest{Name: "bad", Parameters: bad.params, Secrets: secrets, VolumeCapabilities: []*csi.VolumeCapability{mountCap}})
			if status.Code(err) != codes.InvalidArgument || !strings.Contains(err.Error(), bad.want) {
				t.Errorf("params %v: %v, want InvalidArgument mentioning %s", bad.params, err, bad.want)
			}
		}
		block := &csi.VolumeCapability{AccessType: &csi.VolumeCapability_Block{Block: &csi.VolumeCapability_BlockVolume{}}, AccessMode: mountCap.AccessMode}
		if _, err := c.CreateVolume(ctx, &csi.CreateVolumeRequest{Name: "blk", Parameters: params, Secrets: secrets, VolumeCapabilities: []*csi.VolumeCapability{block}}); status.Code(err) != codes.InvalidArgument {
			t.Errorf("block volume: %v, want InvalidArgument", err)
		}
	})
}

func TestSMBWrongPasswordIsRefusedAndNotLogged(t *testing.T) {
	c := controller(t)
	const wrong = "Wr0ng-Passw0rd-Marker"
	_, err := c.CreateVolume(context.Background(), &csi.CreateVolumeRequest{
		Name: "pvc-wrong", Parameters: map[string]string{"source": smbSource("")},
		Secrets:            map[string]string{"username": localservers.SMBUser, "password": wrong},
		VolumeCapabilities: []*csi.VolumeCapability{mountCap},
	})
	if status.Code(err) != codes.PermissionDenied || !strings.Contains(err.Error(), "credentials") {
		t.Fatalf("wrong password: %v, want PermissionDenied about credentials", err)
	}
	for _, secret := range []string{wrong, localservers.SMBPassword} {
		if bytes.Contains(driverLog(t), []byte(secret)) {
			t.Fatalf("the driver log contains a password")
		}
	}
}

// A server that accepts TCP connections and never answers: the call must end
// at the caller's deadline with DeadlineExceeded, not hang.
func TestSilentServerFailsAtDeadline(t *testing.T) {
	lis, err := net.Listen("tcp", "127.0.0.2:0")
	if err != nil {
		t.Fatal(err)
	}
	defer lis.Close()
	var conns []net.Conn
	var mu sync.Mutex
	go func() {
		for {
			conn, err := lis.Accept()
			if err != nil {
				return
			}
			mu.Lock()
			conns = append(conns, conn)
			mu.Unlock()
		}
	}()
	defer func() {
		mu.Lock()
		for _, c := range conns {
			c.Close()
		}
		mu.Unlock()
	}()
	port := lis.Addr().(*net.TCPAddr).Port
	c := controller(t)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	_, err = c.CreateVolume(ctx, &csi.CreateVolumeRequest{
		Name: "pvc-silent", Parameters: map[string]string{"source": fmt.Sprintf("smb://127.0.0.2:%d/share", port)},
		Secrets: smbSecrets(), VolumeCapabilities: []*csi.VolumeCapability{mountCap},
	})
	if code := status.Code(err); code != codes.DeadlineExceeded {
		t.Fatalf("silent SMB server: %v, want DeadlineExceeded", err)
	}
	// NFSv4.1 talks to the source's port alone, so the same silent server
	// stands for an NFSv4.1 server that hangs in session setup.
	ctx41, cancel41 := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel41()
	began := time.Now()
	_, err = c.CreateVolume(ctx41, &csi.CreateVolumeRequest{
		Name: "pvc-silent-41", Parameters: map[string]string{"source": fmt.Sprintf("nfs://127.0.0.2:%d/export?vers=4.1", port)},
		VolumeCapabilities: []*csi.VolumeCapability{mountCap},
	})
	// The bound shows the call does not hang past its deadline; its slack
	// is for a loaded machine or the test VM's emulation.
	if code := status.Code(err); code != codes.DeadlineExceeded || time.Since(began) > 10*time.Second {
		t.Fatalf("silent NFSv4.1 server: %v after %v, want DeadlineExceeded at the 2s deadline", err, time.Since(began))
	}
	// Nothing listens on this port: a refused connection is Unavailable.
	lis2, _ := net.Listen("tcp", "127.0.0.3:0")
	closedPort := lis2.Addr().(*net.TCPAddr).Port
	lis2.Close()
	ctx2, cancel2 := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel2()
	_, err = c.CreateVolume(ctx2, &csi.CreateVolumeRequest{
		Name: "pvc-refused", Parameters: map[string]string{"source": fmt.Sprintf("smb://127.0.0.3:%d/share", closedPort)},
		Secrets: smbSecrets(), VolumeCapabilities: []*csi.VolumeCapability{mountCap},
	})
	if status.Code(err) != codes.Unavailable {
		t.Fatalf("refused SMB connection: %v, want Unavailable", err)
	}
	_, err = c.CreateVolume(ctx2, &csi.CreateVolumeRequest{
		Name: "pvc-refused-41", Parameters: map[string]string{"source": fmt.Sprintf("nfs://127.0.0.3:%d/export?vers=4.1", closedPort)},
		VolumeCapabilities: []*csi.VolumeCapability{mountCap},
	})
	if status.Code(err) != codes.Unavailable {
		t.Fatalf("refused NFSv4.1 connection: %v, want Unavailable", err)
	}
	if listeningOn("127.0.0.3:111") {
		// In the VM, rpcbind answers on every loopback address.
		return
	}
	_, err = c.CreateVolume(ctx2, &csi.CreateVolumeRequest{
		Name: "pvc-refused", Parameters: map[string]string{"source": "nfs://127.0.0.3/export"},
		VolumeCapabilities: []*csi.VolumeCapability{mountCap},
	})
	if status.Code(err) != codes.Unavailable {
		t.Fatalf("NFS host without portmapper: %v, want Unavailable", err)
	}
}

func TestControllerGetVolumeHealthReportsMissingDirectory(t *testing.T) {
	c := controller(t)
	protocols(t, func(t *testing.T, params, secrets map[string]string, base string) {
		ctx := context.Background()
		vol := create(t, c, "vol-health", params, secrets)
		h, err := c.ControllerGetVolumeHealth(ctx, &csi.ControllerGetVolumeHealthRequest{VolumeId: vol.GetVolumeId(), Secrets: secrets})
		if err != nil || len(h.GetVolumeHealth().GetHealthStatuses()) != 0 {
			t.Fatalf("healthy volume: %v %v", h, err)
		}
		if err := os.RemoveAll(filepath.Join(base, "vol-health")); err != nil {
			t.Fatal(err)
		}
		h, err = c.ControllerGetVolumeHealth(ctx, &csi.ControllerGetVolumeHealthRequest{VolumeId: vol.GetVolumeId(), Secrets: secrets})
		if err != nil {
			t.Fatal(err)
		}
		st := h.GetVolumeHealth().GetHealthStatuses()
		if len(st) != 1 || st[0].GetStatus() != csi.VolumeHealthErrorType_INACCESSIBLE {
			t.Fatalf("missing directory: %v", st)
		}
		if _, err := c.ControllerGetVolume(ctx, &csi.ControllerGetVolumeRequest{VolumeId: vol.GetVolumeId()}); status.Code(err) != codes.NotFound {
			t.Fatalf("ControllerGetVolume of a missing directory: %v, want NotFound", err)
		}
		// The claim's CreateVolume, sent again (a provisioner that lost
		// the answer), makes the directory again and answers the same
		// volume: an ID of its own would be one no later call finds.
		again := create(t, c, "vol-health", params, secrets)
		if again.GetVolumeId() != vol.GetVolumeId() {
			t.Errorf("CreateVolume sent again answered %s, first %s", again.GetVolumeId(), vol.GetVolumeId())
		}
		if fi, err := os.Stat(filepath.Join(base, "vol-health")); err != nil || !fi.IsDir() {
			t.Errorf("CreateVolume sent again did not make the directory again: %v", err)
		}
		// Its record and mark go too: a test that leaves them leaves a
		// stale mark that a later volume may be given the ID of.
		deleteVol(t, c, vol.GetVolumeId(), secrets)
	})
}

// fileOwner is who the files a test writes on the server must belong to:
// the share's user on SMB (Samba acts as that user), root on NFS.
func fileOwner(t *testing.T) int {
	t.Helper()
	if strings.HasSuffix(t.Name(), "smb") {
		return smbUID(t)
	}
	return 0
}

func smbUID(t *testing.T) int {
	t.Helper()
	u, err := user.Lookup(localservers.SMBUser)
	if err != nil {
		t.Fatal(err)
	}
	uid, err := strconv.Atoi(u.Uid)
	if err != nil {
		t.Fatal(err)
	}
	return uid
}

func listeningOn(addr string) bool {
	c, err := net.DialTimeout("tcp", addr, time.Second)
	if err != nil {
		return false
	}
	c.Close()
	return true
}

// A port in an NFSv3 source is nfsd's: the portmapper and mountd are still
// found on 111, as mount.nfs finds them.
func TestNFSv3SourceWithAPort(t *testing.T) {
	c := controller(t)
	base := filepath.Join(env.nfs.Data, "with-port")
	if err := os.MkdirAll(base, 0o777); err != nil {
		t.Fatal(err)
	}
	params := map[string]string{"source": "nfs://127.0.0.1:2049" + base}
	vol := create(t, c, "pvc-with-port", params, nil)
	dir := filepath.Join(base, vol.GetVolumeContext()["subDir"])
	if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
		t.Fatalf("volume directory %s: %v", dir, err)
	}
	if !strings.Contains(vol.GetVolumeId(), "127.0.0.1:2049") {
		t.Fatalf("the port is not in the volume ID %s", vol.GetVolumeId())
	}
	deleteVol(t, c, vol.GetVolumeId(), nil)
	if _, err := os.Stat(dir); !os.IsNotExist(err) {
		t.Fatalf("DeleteVolume left %s: %v", dir, err)
	}
}
