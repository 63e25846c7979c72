//go:build linux

// Package integration runs the driver binary against real file servers on
// loopback: Samba and NFS-Ganesha, started by the tests themselves.
package integration

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/fileshare-csi/fileshare-csi/test/localservers"
)

const smbPort = 4450

var env struct {
	dir      string
	binary   string
	samba    *localservers.Server
	nfs      *localservers.Server // NFS-Ganesha on the host, kernel nfsd in the VM
	endpoint string
	logPath  string
	driver   *exec.Cmd
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
	// Tests run processes as other users (fsGroup), who must reach paths below.
	if err := os.Chmod(dir, 0o755); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	env.dir = dir
	ctx := context.Background()

	// The VM run passes a binary built on the host: compiling under TCG
	// would take minutes.
	if env.binary = os.Getenv("FILESHARE_DRIVER_BINARY"); env.binary == "" {
		env.binary = filepath.Join(dir, "fileshare-csi")
		build := exec.Command("go", "build", "-o", env.binary, "../../cmd/fileshare-csi")
		if out, err := build.CombinedOutput(); err != nil {
			fmt.Fprintf(os.Stderr, "build driver: %v\n%s", err, out)
			return 1
		}
	}
	if env.samba, err = localservers.StartSamba(ctx, filepath.Join(dir, "samba"), smbPort); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer env.samba.Stop()
	if kernelNFS() {
		env.nfs, err = localservers.StartKernelNFS(ctx, filepath.Join(dir, "nfsd"))
	} else {
		env.nfs, err = localservers.StartGanesha(ctx, filepath.Join(dir, "ganesha"))
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer env.nfs.Stop()

	sock := filepath.Join(dir, "csi.sock")
	env.endpoint = "unix://" + sock
	env.logPath = filepath.Join(dir, "driver.log")
	if err := startDriver(); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer stopDriver()
	code := m.Run()
	if code != 0 {
		b, _ := os.ReadFile(env.logPath)
		if len(b) > 20000 {
			b = b[len(b)-20000:]
		}
		fmt.Fprintf(os.Stderr, "---- driver log (tail) ----\n%s\n", b)
	}
	return code
}

func startDriver() error {
	logf, err := os.OpenFile(env.logPath, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		return err
	}
	env.driver = exec.Command(env.binary, "--endpoint", env.endpoint, "--nodeid", "integration-node",
		"--mode", "all", "--state-dir", filepath.Join(env.dir, "state"), "--v", "5")
	env.driver.Stdout, env.driver.Stderr = logf, logf
	if err := env.driver.Start(); err != nil {
		return err
	}
	sock := strings.TrimPrefix(env.endpoint, "unix://")
	// Generous: under emulation on a busy machine a Go binary starts slowly.
	for range 600 {
		if _, err := os.Stat(sock); err == nil {
			return nil
		}
		time.Sleep(50 * time.Millisecond)
	}
	return fmt.Errorf("driver did not create %s", sock)
}

func stopDriver() {
	if env.driver == nil || env.driver.Process == nil {
		return
	}
	_ = env.driver.Process.Signal(os.Interrupt)
	done := make(chan struct{})
	go func() { _ = env.driver.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(15 * time.Second):
		_ = env.driver.Process.Kill()
		<-done
	}
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
	b, err := os.ReadFile("/proc/filesystems")
	return err == nil && bytes.Contains(b, []byte("\tnfs\n")) && bytes.Contains(b, []byte("\tcifs\n"))
}

// kernelNFS says whether to serve NFS with the kernel's nfsd (in the VM)
// instead of NFS-Ganesha (on a host without nfsd).
func kernelNFS() bool {
	if v := os.Getenv("FILESHARE_NFS_SERVER"); v != "" {
		return v == "kernel"
	}
	b, err := os.ReadFile("/proc/filesystems")
	return err == nil && bytes.Contains(b, []byte("\tnfsd\n"))
}
