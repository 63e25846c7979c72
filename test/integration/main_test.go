//go:build linux

// Package integration runs the driver binary against real file servers on
// loopback: Samba and NFS-Ganesha, started by the tests themselves.
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

	"github.com/fileshare-csi/fileshare-csi/test/freeport"
	"github.com/fileshare-csi/fileshare-csi/test/harness"
	"github.com/fileshare-csi/fileshare-csi/test/localservers"
)

const smbPort = 4450

var env struct {
	dir    string
	binary string
	samba  *localservers.Server
	nfs    *localservers.Server // NFS-Ganesha on the host, kernel nfsd in the VM
	// nfs4only serves NFSv4 alone, at nfs4onlyAddr: the controller tests
	// run against it too (see protocols).
	nfs4only     *localservers.Server
	nfs4onlyAddr string
	endpoint     string
	// addonsEndpoint serves the CSI-Addons services (--csi-addons-endpoint).
	addonsEndpoint string
	// v0StagingDir is where the CSI v0.1 adapter stages volumes.
	v0StagingDir string
	logPath      string
	driver       *harness.Driver
}

func TestMain(m *testing.M) {
	os.Exit(run(m))
}

func run(m *testing.M) int {
	if os.Geteuid() != 0 {
		fmt.Fprintln(os.Stderr, "integration tests start smbd, rpcbind and an NFS server, and need root")
		return 1
	}
	dir, err := os.MkdirTemp("", "fileshare-integration-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer os.RemoveAll(dir)
	// The domain controller of the Kerberos tests, if one of them started it.
	defer stopSharedDC()
	// Tests run processes as other users (fsGroup), who must reach paths below.
	if err := os.Chmod(dir, 0o755); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	env.dir = dir
	if env.binary, err = harness.BuildDriver(dir, "../..", os.Getenv("FILESHARE_DRIVER_BINARY")); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	servers, err := harness.StartServers(context.Background(), dir, smbPort, kernelNFS())
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer servers.Stop()
	env.samba, env.nfs = servers.Samba, servers.NFS
	stopV4, err := startNFS4Only(dir)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer stopV4()

	env.addonsEndpoint = "unix://" + filepath.Join(dir, "csi-addons.sock")
	// CSI v0.1 beside v1 (csiv0_test.go): its SMB calls take their
	// credentials from files, as from a mounted Secret.
	env.v0StagingDir = filepath.Join(dir, "csi-v0-staging")
	v0Secrets := filepath.Join(dir, "csi-v0-secrets")
	if err := writeSecretDir(v0Secrets, smbSecrets()); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	env.driver, err = harness.StartDriver(env.binary, dir, "--nodeid", "integration-node",
		"--mode", "all", "--state-dir", filepath.Join(dir, "state"), "--v", "5",
		"--csi-addons-endpoint", env.addonsEndpoint,
		"--csi-v0", "--csi-v0-staging-dir", env.v0StagingDir, "--csi-v0-secret-dir", v0Secrets)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer env.driver.Stop()
	env.endpoint, env.logPath = env.driver.Endpoint, env.driver.LogPath
	code := m.Run()
	if code != 0 {
		fmt.Fprintf(os.Stderr, "---- driver log (tail) ----\n%s\n", env.driver.LogTail(20000))
	}
	return code
}

// startNFS4Only starts the suite's NFSv4-only server, of the suite's kind:
// on the host an NFS-Ganesha with Protocols = 4 on a port of its own; in
// the test VM a second kernel nfsd with NFSv3 off, in a network namespace
// of its own (nfsd runs one server per namespace) joined to this one by a
// veth pair, so the suite's driver reaches it at the namespace's address.
func startNFS4Only(dir string) (stop func(), err error) {
	ctx := context.Background()
	if !kernelNFS() {
		port, err := freeport.Get()
		if err != nil {
			return nil, err
		}
		env.nfs4only, err = localservers.StartGanesha(ctx, filepath.Join(dir, "ganesha-v4only-suite"), localservers.NFSv4Only(port))
		if err != nil {
			return nil, err
		}
		env.nfs4onlyAddr = net.JoinHostPort("127.0.0.1", strconv.Itoa(port))
		return env.nfs4only.Stop, nil
	}
	const ns = "fscsi-suite-v4only"
	var undo []func()
	stop = func() {
		for i := len(undo) - 1; i >= 0; i-- {
			undo[i]()
		}
	}
	removeNS, err := localservers.NewNetNS(ns)
	if err != nil {
		return nil, err
	}
	undo = append(undo, removeNS)
	unlink, err := localservers.LinkNetNS(ns, "10.254.0.1/30", "10.254.0.2/30")
	if err != nil {
		stop()
		return nil, err
	}
	undo = append(undo, unlink)
	env.nfs4only, err = localservers.StartKernelNFS(ctx, filepath.Join(dir, "nfsd-v4only-suite"),
		localservers.NFSv4Only(2049), localservers.InNetNS(ns), localservers.NFSClients("10.254.0.1/32"))
	if err != nil {
		stop()
		return nil, err
	}
	undo = append(undo, env.nfs4only.Stop)
	env.nfs4onlyAddr = "10.254.0.2"
	return stop, nil
}

// writeSecretDir lays secrets out as a Kubernetes Secret volume does: one
// file per key.
func writeSecretDir(dir string, secrets map[string]string) error {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	for k, v := range secrets {
		if err := os.WriteFile(filepath.Join(dir, k), []byte(v), 0o600); err != nil {
			return err
		}
	}
	return nil
}

// nfs41OnlySource is a ?vers=4.1 source on the NFSv4-only server.
func nfs41OnlySource(base string) string {
	return "nfs://" + env.nfs4onlyAddr + filepath.Join(env.nfs4only.Data, base) + "?vers=4.1"
}

// driverLog returns what the driver has logged so far.
func driverLog(t *testing.T) []byte {
	t.Helper()
	b, err := os.ReadFile(env.logPath)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func nfsSource(base string) string {
	return "nfs://127.0.0.1" + filepath.Join(env.nfs.Data, base)
}

// nfs41Source is nfsSource pinned to NFSv4.1: the controller reaches it
// with its NFSv4.1 client, no portmapper or MOUNT involved.
func nfs41Source(base string) string {
	return nfsSource(base) + "?vers=4.1"
}

// isNFS says whether a subtest of protocols runs on NFS, of either version.
func isNFS(t *testing.T) bool {
	for _, p := range []string{"/nfs", "/nfs41", "/nfs41only"} {
		if strings.HasSuffix(t.Name(), p) {
			return true
		}
	}
	return false
}

func smbSource(base string) string {
	s := fmt.Sprintf("smb://127.0.0.1:%d/%s", smbPort, localservers.SMBShare)
	if base != "" {
		s += "/" + base
	}
	return s
}

func smbSecrets() map[string]string {
	return map[string]string{"username": localservers.SMBUser, "password": localservers.SMBPassword}
}

// kernelCanMount reports whether this kernel has NFS and CIFS clients; the
// host this was written on has neither, so node mounts run in the VM suite.
func kernelCanMount() bool {
	return harness.HasFilesystem("nfs") && harness.HasFilesystem("cifs")
}

// kernelNFS says whether to serve NFS with the kernel's nfsd (in the VM)
// instead of NFS-Ganesha (on a host without nfsd).
func kernelNFS() bool {
	if v := os.Getenv("FILESHARE_NFS_SERVER"); v != "" {
		return v == "kernel"
	}
	return harness.HasFilesystem("nfsd")
}
