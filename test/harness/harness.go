//go:build linux

// Package harness starts what the integration tests, the benchmarks and the
// demo drive: the driver binary (built once), the real file servers on
// loopback (test/localservers), and driver processes with a gRPC connection
// to each. Keeping it in one place means the three agree on how the driver
// is run, and a change to its flags or start-up is made once.
package harness

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"sync/atomic"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"

	"github.com/fileshare-csi/fileshare-csi/hack/gobuild"
	"github.com/fileshare-csi/fileshare-csi/test/localservers"
)

// HasFilesystem reports whether this kernel knows the file system type
// (nfs, cifs, nfsd): the host this was written on has none of them.
func HasFilesystem(name string) bool {
	b, err := os.ReadFile("/proc/filesystems")
	return err == nil && bytes.Contains(b, []byte("\t"+name+"\n"))
}

// BuildDriver returns prebuilt when set (the test VM gets a binary built on
// the host: compiling under emulation takes minutes), else builds the
// driver of the repository at repo into dir as the images build it
// (hack/gobuild), stamped with the checkout's version.
func BuildDriver(dir, repo, prebuilt string) (string, error) {
	if prebuilt != "" {
		return prebuilt, nil
	}
	bin := filepath.Join(dir, "fileshare-csi")
	ctx := context.Background()
	if err := gobuild.Driver(ctx, repo, bin, gobuild.Describe(ctx, repo), gobuild.Target{}); err != nil {
		return "", fmt.Errorf("build driver: %w", err)
	}
	return bin, nil
}

// Servers are the loopback file servers: Samba, and the kernel NFS server
// where this kernel has one (the test VM), NFS-Ganesha elsewhere.
type Servers struct {
	Samba, NFS *localservers.Server
}

// StartServers starts both below dir; kernelNFS picks the NFS server.
func StartServers(ctx context.Context, dir string, smbPort int, kernelNFS bool) (*Servers, error) {
	s := &Servers{}
	var err error
	if s.Samba, err = localservers.StartSamba(ctx, filepath.Join(dir, "samba"), smbPort); err != nil {
		return nil, err
	}
	if kernelNFS {
		s.NFS, err = localservers.StartKernelNFS(ctx, filepath.Join(dir, "nfsd"))
	} else {
		s.NFS, err = localservers.StartGanesha(ctx, filepath.Join(dir, "ganesha"))
	}
	if err != nil {
		s.Samba.Stop()
		return nil, err
	}
	return s, nil
}

// Stop stops both servers.
func (s *Servers) Stop() {
	s.NFS.Stop()
	s.Samba.Stop()
}

// Driver is one running driver process and a connection to its socket.
type Driver struct {
	Cmd      *exec.Cmd
	Endpoint string // unix:///...
	LogPath  string
	Conn     *grpc.ClientConn
	done     chan struct{}
}

var seq atomic.Int64

// StartDriver runs bin with a fresh socket and log file in dir and args
// after --endpoint, waits for the socket and connects to it.
func StartDriver(bin, dir string, args ...string) (*Driver, error) {
	n := strconv.FormatInt(seq.Add(1), 10)
	sock := filepath.Join(dir, "csi-"+n+".sock")
	d := &Driver{Endpoint: "unix://" + sock, LogPath: filepath.Join(dir, "driver-"+n+".log"), done: make(chan struct{})}
	logf, err := os.OpenFile(d.LogPath, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		return nil, err
	}
	defer logf.Close()
	d.Cmd = exec.Command(bin, append([]string{"--endpoint", d.Endpoint}, args...)...)
	d.Cmd.Stdout, d.Cmd.Stderr = logf, logf
	if err := d.Cmd.Start(); err != nil {
		return nil, err
	}
	go func() { _ = d.Cmd.Wait(); close(d.done) }()
	// Generous: under emulation on a busy machine a Go binary starts slowly.
	deadline := time.Now().Add(60 * time.Second)
	for {
		// The socket file appears at bind(2), before listen(2): until a
		// connect goes through, a first call would be refused.
		if c, err := net.Dial("unix", sock); err == nil {
			c.Close()
			break
		}
		select {
		case <-d.done:
			return nil, fmt.Errorf("driver exited before creating its socket: %s", d.LogTail(4000))
		default:
		}
		if time.Now().After(deadline) {
			d.Stop()
			return nil, errors.New("driver did not create " + sock)
		}
		time.Sleep(25 * time.Millisecond)
	}
	if d.Conn, err = grpc.NewClient(d.Endpoint, grpc.WithTransportCredentials(insecure.NewCredentials())); err != nil {
		d.Stop()
		return nil, err
	}
	return d, nil
}

// Pid is the driver process's ID.
func (d *Driver) Pid() int { return d.Cmd.Process.Pid }

// Stop closes the connection and stops the driver: an interrupt, then a
// kill after 15 seconds.
func (d *Driver) Stop() {
	if d.Conn != nil {
		d.Conn.Close()
	}
	_ = d.Cmd.Process.Signal(os.Interrupt)
	select {
	case <-d.done:
	case <-time.After(15 * time.Second):
		_ = d.Cmd.Process.Kill()
		<-d.done
	}
}

// Log returns what the driver has logged so far.
func (d *Driver) Log() ([]byte, error) { return os.ReadFile(d.LogPath) }

// LogTail returns at most the last n bytes of the driver's log.
func (d *Driver) LogTail(n int) []byte {
	b, _ := os.ReadFile(d.LogPath)
	if len(b) > n {
		b = b[len(b)-n:]
	}
	return b
}
