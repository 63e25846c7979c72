//go:build linux

// Package localservers starts real file servers on the loopback interface for
// integration tests and the demo: Samba (smbd) and NFS-Ganesha with rpcbind.
//
// They are real daemons, not fakes: the controller's user-space clients talk to
// them over TCP exactly as they would to a NAS. Both need root (smbd for its
// user database, Ganesha for port 2049 and rpcbind for port 111).
package localservers

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
	"strings"
	"syscall"
	"time"
)

// SMBUser and SMBPassword are the credentials of the loopback Samba share.
// They protect nothing but a throw-away directory on 127.0.0.1.
const (
	SMBUser     = "csiuser"
	SMBPassword = "fileshare-Test-Pa55"
	SMBShare    = "share"
)

// Server is one running daemon.
type Server struct {
	Name    string
	Dir     string // where its data and logs live
	Data    string // the exported or shared directory
	Port    int
	LogPath string
	cmd     *exec.Cmd
	extra   []*exec.Cmd
	// down and up take the service away and bring it back, for tests of
	// what clients do across a server restart.
	down func() error
	up   func(ctx context.Context) error
	stop func()
}

// Restart takes the service down, waits, and brings it back.
func (s *Server) Restart(ctx context.Context, downtime time.Duration) error {
	if s.down == nil {
		return fmt.Errorf("%s cannot be restarted", s.Name)
	}
	if err := s.down(); err != nil {
		return fmt.Errorf("stop %s: %w", s.Name, err)
	}
	select {
	case <-time.After(downtime):
	case <-ctx.Done():
	}
	return s.up(ctx)
}

// Down takes the service away until Up.
func (s *Server) Down() error { return s.down() }

// Up brings the service back after Down.
func (s *Server) Up(ctx context.Context) error { return s.up(ctx) }

// Stop terminates the daemon and its helpers and waits for them.
func (s *Server) Stop() {
	if s == nil {
		return
	}
	if s.stop != nil {
		s.stop()
	}
	for _, c := range append([]*exec.Cmd{s.cmd}, s.extra...) {
		stopCmd(c)
	}
}

// stopCmd terminates a daemon started in its own process group, with the
// children it forked (smbd serves each connection from a child).
func stopCmd(c *exec.Cmd) {
	if c == nil || c.Process == nil || c.ProcessState != nil {
		return
	}
	_ = syscall.Kill(-c.Process.Pid, syscall.SIGTERM)
	done := make(chan struct{})
	go func() { _ = c.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		_ = syscall.Kill(-c.Process.Pid, syscall.SIGKILL)
		<-done
	}
	// Children that outlived the leader.
	_ = syscall.Kill(-c.Process.Pid, syscall.SIGKILL)
}

// Log returns the tail of the server's log, for test failure messages.
func (s *Server) Log() string {
	b, _ := os.ReadFile(s.LogPath)
	if len(b) > 4000 {
		b = b[len(b)-4000:]
	}
	return string(b)
}

// Option widens where a server is reachable from.
type Option func(*options)

type options struct {
	networks []string // beside loopback, in CIDR notation: 10.0.2.15/24
	clients  []string // more NFS clients, in CIDR notation
	v4only   int      // NFSv4 alone, on this port (Ganesha)
	netns    string   // the network namespace to run in; "" for the host's
	grace    [2]int   // Ganesha's NFSv4 grace period and lease, seconds; 0: graceless
}

// Grace makes Ganesha keep an NFSv4 grace period of period after every
// start, and grant leases of lease, as a production server does: after a
// crash, clients that held state get period to reclaim it, and everybody
// else's OPENs are refused with NFS4ERR_GRACE until then. Without it the
// test servers are graceless, so a restart costs the suite nothing.
func Grace(period, lease time.Duration) Option {
	return func(o *options) { o.grace = [2]int{int(period.Seconds()), int(lease.Seconds())} }
}

// NFSv4Only makes Ganesha serve NFSv4 alone (Protocols = 4) on port, as
// AWS EFS, Azure Files NFS and NAS setups with v3 turned off do: no MOUNT,
// no NLM, no rpcbind needed. Its own port lets it run beside the suite's
// Ganesha on 2049.
func NFSv4Only(port int) Option {
	return func(o *options) { o.v4only = port }
}

// Reachable also serves the network of addr (CIDR notation, the server
// machine's own address on it: "10.0.2.15/24"): the test VM's cluster
// serves its pods and node from there. Without it a server answers on
// loopback only.
func Reachable(addr string) Option {
	return func(o *options) { o.networks = append(o.networks, addr) }
}

// NFSClients also exports to the network cidr, without serving on it: the
// test cluster's pods reach the VM's address from their own network, which
// no masquerade rewrites for a local destination.
func NFSClients(cidr string) Option {
	return func(o *options) { o.clients = append(o.clients, cidr) }
}

func collect(opts []Option) options {
	var o options
	for _, f := range opts {
		f(&o)
	}
	return o
}

// StartSamba runs smbd on 127.0.0.1:port with one share, "share", writable by
// SMBUser. The Unix user is created if missing because smbd maps every SMB
// user to one.
func StartSamba(ctx context.Context, dir string, port int, opts ...Option) (*Server, error) {
	o := collect(opts)
	if _, err := exec.LookPath("smbd"); err != nil {
		return nil, fmt.Errorf("smbd not installed (apt-get install samba): %w", err)
	}
	s := &Server{Name: "smbd", Dir: dir, Data: filepath.Join(dir, "share"), Port: port}
	state := filepath.Join(dir, "state")
	for _, d := range []string{s.Data, state, filepath.Join(state, "ncalrpc")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			return nil, err
		}
	}
	// Samba checks Unix permissions as the mapped user, so the share root must be
	// writable by it for mkdir over SMB to succeed, and its parents searchable
	// (temporary directories are created 0700).
	if err := os.Chmod(s.Data, 0o777); err != nil {
		return nil, err
	}
	if err := allowSearch(dir); err != nil {
		return nil, err
	}
	conf := filepath.Join(dir, "smb.conf")
	s.LogPath = filepath.Join(dir, "log.smbd")
	cfg := fmt.Sprintf(`[global]
  server role = standalone server
  interfaces = %[7]s
  bind interfaces only = yes
  smb ports = %[1]d
  map to guest = never
  state directory = %[2]s
  cache directory = %[2]s
  lock directory = %[2]s
  private dir = %[2]s
  pid directory = %[2]s
  ncalrpc dir = %[2]s/ncalrpc
  log file = %[3]s/log.%%m
  disable spoolss = yes
  load printers = no
  printcap name = /dev/null
  server min protocol = SMB2_10
  unix extensions = no
[%[4]s]
  path = %[5]s
  read only = no
  valid users = %[6]s
  create mask = 0777
  directory mask = 0777
`, port, state, dir, SMBShare, s.Data, SMBUser, strings.Join(append([]string{"lo"}, o.networks...), " "))
	if err := os.WriteFile(conf, []byte(cfg), 0o644); err != nil {
		return nil, err
	}
	if err := exec.Command("id", SMBUser).Run(); err != nil {
		if out, err := exec.Command("useradd", "-M", "-s", "/usr/sbin/nologin", SMBUser).CombinedOutput(); err != nil {
			return nil, fmt.Errorf("useradd %s: %w: %s", SMBUser, err, out)
		}
	}
	pw := exec.Command("smbpasswd", "-c", conf, "-s", "-a", SMBUser)
	pw.Stdin = strings.NewReader(SMBPassword + "\n" + SMBPassword + "\n")
	if out, err := pw.CombinedOutput(); err != nil {
		return nil, fmt.Errorf("smbpasswd: %w: %s", err, out)
	}
	logf, err := os.Create(s.LogPath)
	if err != nil {
		return nil, err
	}
	s.up = func(ctx context.Context) error {
		s.cmd = exec.Command("smbd", "-F", "--no-process-group", "-s", conf, "--debug-stdout", "-d", "1")
		s.cmd.Stdout, s.cmd.Stderr = logf, logf
		s.cmd.SysProcAttr = ownProcessGroup()
		if err := s.cmd.Start(); err != nil {
			return fmt.Errorf("start smbd: %w", err)
		}
		if err := waitTCP(ctx, "127.0.0.1:"+strconv.Itoa(port), s.cmd); err != nil {
			stopCmd(s.cmd)
			return fmt.Errorf("smbd did not listen: %w\n%s", err, s.Log())
		}
		return nil
	}
	s.down = func() error { stopCmd(s.cmd); return nil }
	if err := s.up(ctx); err != nil {
		return nil, err
	}
	return s, nil
}

// SetSMBPassword changes SMBUser's password in this smbd's own user
// database, as an administrator rotating it would. Sessions already set up
// stay until the server drops them.
func (s *Server) SetSMBPassword(password string) error {
	if s.Name != "smbd" {
		return fmt.Errorf("%s has no SMB users", s.Name)
	}
	pw := exec.Command("smbpasswd", "-c", filepath.Join(s.Dir, "smb.conf"), "-s", SMBUser)
	pw.Stdin = strings.NewReader(password + "\n" + password + "\n")
	if out, err := pw.CombinedOutput(); err != nil {
		return fmt.Errorf("smbpasswd: %w: %s", err, out)
	}
	return nil
}

// StartGanesha runs NFS-Ganesha with one NFSv3+v4 export of dir/export on
// 127.0.0.1:2049, and rpcbind on port 111 if none is running; with
// NFSv4Only, an NFSv4 export on its own port and no rpcbind. Ganesha's
// default ports are fixed, so only one instance of each kind runs per
// machine.
func StartGanesha(ctx context.Context, dir string, opts ...Option) (*Server, error) {
	if _, err := exec.LookPath("ganesha.nfsd"); err != nil {
		return nil, fmt.Errorf("ganesha.nfsd not installed (apt-get install nfs-ganesha nfs-ganesha-vfs): %w", err)
	}
	o := collect(opts)
	s := &Server{Name: "ganesha", Dir: dir, Data: filepath.Join(dir, "export"), Port: 2049}
	protocols := "3, 4"
	if o.v4only != 0 {
		s.Name, s.Port, protocols = "ganesha-v4only", o.v4only, "4"
	}
	if err := os.MkdirAll(s.Data, 0o777); err != nil {
		return nil, err
	}
	if err := os.Chmod(s.Data, 0o777); err != nil {
		return nil, err
	}
	if o.v4only == 0 {
		if err := s.ensureRPCBind(ctx); err != nil {
			return nil, err
		}
	}
	addr := net.JoinHostPort("127.0.0.1", strconv.Itoa(s.Port))
	if o.netns != "" && o.v4only == 0 {
		return nil, errors.New("only an NFSv4-only Ganesha runs in a network namespace of its own: MOUNT needs rpcbind")
	}
	if o.netns == "" && listening(addr) {
		s.Stop()
		return nil, fmt.Errorf("port %d is already in use: stop the other NFS server first", s.Port)
	}
	conf := filepath.Join(dir, "ganesha.conf")
	s.LogPath = filepath.Join(dir, "ganesha.log")
	ports := fmt.Sprintf("NFS_Port = %d; MNT_Port = 20048;", s.Port)
	if o.v4only != 0 {
		ports = fmt.Sprintf("NFS_Port = %d;", s.Port)
	}
	grace := "Graceless = true;"
	if o.grace[0] > 0 {
		grace = fmt.Sprintf("Graceless = false; Grace_Period = %d; Lease_Lifetime = %d;", o.grace[0], o.grace[1])
	}
	// The v4 client records go below dir, so two instances never read or
	// clear each other's.
	cfg := fmt.Sprintf(`NFS_CORE_PARAM {
  Protocols = %[2]s; %[3]s Bind_addr = 127.0.0.1;
  Enable_NLM = false; Enable_RQUOTA = false;
}
# Owners as numeric ids, as kernel nfsd gives them to AUTH_SYS clients by
# default: an NFSv4.1 client can carry an owner only as a number, and
# Ganesha would name every id this machine's passwd knows (root@domain).
NFSV4 { %[5]s RecoveryRoot = %[4]s; Only_Numeric_Owners = true; }
# Tests change the exported directory behind Ganesha's back; don't cache.
MDCACHE { Dir_Chunk = 0; }
EXPORT {
  Export_Id = 1; Path = %[1]s; Pseudo = %[1]s; Access_Type = RW; Attr_Expiration_Time = 0;
  Squash = No_Root_Squash; Protocols = %[2]s; Transports = TCP; SecType = sys;
  FSAL { Name = VFS; }
}
`, s.Data, protocols, ports, filepath.Join(dir, "recovery"), grace)
	if err := os.WriteFile(conf, []byte(cfg), 0o644); err != nil {
		return nil, err
	}
	args := []string{"ganesha.nfsd", "-F", "-f", conf, "-L", s.LogPath, "-p", filepath.Join(dir, "ganesha.pid")}
	if o.netns != "" {
		args = append([]string{"ip", "netns", "exec", o.netns}, args...)
	}
	s.up = func(ctx context.Context) error { return s.startGanesha(ctx, args, addr, o) }
	// A crash, not a shutdown: the server gets no chance to tell clients
	// or to end its sessions, as when a NAS loses power.
	s.down = func() error {
		if s.cmd == nil || s.cmd.Process == nil || s.cmd.ProcessState != nil {
			return nil
		}
		_ = syscall.Kill(-s.cmd.Process.Pid, syscall.SIGKILL)
		_ = s.cmd.Wait()
		return nil
	}
	if err := s.up(ctx); err != nil {
		s.Stop()
		return nil, err
	}
	return s, nil
}

// startGanesha starts the daemon and waits until it serves: it listens,
// and, unless it serves NFSv4 alone, has registered MOUNT with rpcbind.
func (s *Server) startGanesha(ctx context.Context, args []string, addr string, o options) error {
	s.cmd = exec.Command(args[0], args[1:]...)
	s.cmd.SysProcAttr = ownProcessGroup()
	if err := s.cmd.Start(); err != nil {
		return fmt.Errorf("start ganesha: %w", err)
	}
	if o.netns != "" {
		if err := waitListeningIn(ctx, o.netns, s.Port, s.cmd); err != nil {
			return fmt.Errorf("ganesha did not listen in %s: %w\n%s", o.netns, err, s.Log())
		}
		return nil
	}
	if err := waitTCP(ctx, addr, s.cmd); err != nil {
		return fmt.Errorf("ganesha did not listen: %w\n%s", err, s.Log())
	}
	if o.v4only != 0 {
		return nil
	}
	// Ganesha listens before it has registered MOUNT with rpcbind; wait for that.
	deadline := time.Now().Add(20 * time.Second)
	for {
		out, _ := exec.Command("rpcinfo", "-p", "127.0.0.1").CombinedOutput()
		if bytes.Contains(out, []byte("100005")) {
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("ganesha did not register MOUNT with rpcbind\n%s", s.Log())
		}
		time.Sleep(200 * time.Millisecond)
	}
}

// ensureRPCBind starts rpcbind on port 111 unless one is running; NFS
// clients find MOUNT (and NFSv3) through it.
func (s *Server) ensureRPCBind(ctx context.Context) error {
	if listening("127.0.0.1:111") {
		return nil
	}
	rpcbind := exec.Command("rpcbind", "-w", "-f")
	rpcbind.SysProcAttr = ownProcessGroup()
	if err := rpcbind.Start(); err != nil {
		return fmt.Errorf("start rpcbind: %w", err)
	}
	s.extra = append(s.extra, rpcbind)
	if err := waitTCP(ctx, "127.0.0.1:111", rpcbind); err != nil {
		s.Stop()
		return fmt.Errorf("rpcbind did not listen: %w", err)
	}
	return nil
}

// allowSearch adds o+x to dir and its parents below the temp directory, so an
// unprivileged server process can reach the data inside.
func allowSearch(dir string) error {
	tmp := filepath.Clean(os.TempDir())
	for p := filepath.Clean(dir); strings.HasPrefix(p, tmp+"/"); p = filepath.Dir(p) {
		fi, err := os.Stat(p)
		if err != nil {
			return err
		}
		if fi.Mode().Perm()&0o001 == 0 {
			if err := os.Chmod(p, fi.Mode().Perm()|0o001); err != nil {
				return err
			}
		}
	}
	return nil
}

// ownProcessGroup keeps a daemon out of the caller's process group: ganesha and
// smbd signal their whole group when they shut down, which would kill the test.
func ownProcessGroup() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
}

func listening(addr string) bool {
	c, err := net.DialTimeout("tcp", addr, time.Second)
	if err != nil {
		return false
	}
	_ = c.Close()
	return true
}

func waitTCP(ctx context.Context, addr string, cmd *exec.Cmd) error {
	return waitFor(ctx, cmd, func() (bool, error) { return listening(addr), nil })
}

// waitFor polls ready for 30 seconds, or until the server's process exits.
func waitFor(ctx context.Context, cmd *exec.Cmd, ready func() (bool, error)) error {
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	for {
		ok, err := ready()
		if ok || err != nil {
			return err
		}
		if cmd.ProcessState != nil {
			return fmt.Errorf("process exited: %s", cmd.ProcessState)
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(100 * time.Millisecond):
		}
	}
}

// StartKernelNFS exports dir/export with the kernel NFS server (NFSv3 and
// NFSv4.x) on this machine's loopback. It needs a kernel with nfsd, which
// the test VM has; the grace period is cut to the minimum so NFSv4 clients
// are not held up for 90 s after every start.
func StartKernelNFS(ctx context.Context, dir string, opts ...Option) (*Server, error) {
	o := collect(opts)
	for _, tool := range []string{"rpc.nfsd", "rpc.mountd", "exportfs", "rpcbind"} {
		if _, err := exec.LookPath(tool); err != nil {
			return nil, fmt.Errorf("%s not installed (apt-get install nfs-kernel-server rpcbind): %w", tool, err)
		}
	}
	s := &Server{Name: "nfsd", Dir: dir, Data: filepath.Join(dir, "export"), Port: 2049, LogPath: filepath.Join(dir, "nfsd.log")}
	if err := os.MkdirAll(s.Data, 0o777); err != nil {
		return nil, err
	}
	if err := os.Chmod(s.Data, 0o777); err != nil {
		return nil, err
	}
	if o.netns != "" || o.v4only != 0 {
		if o.netns == "" || o.v4only == 0 {
			return nil, errors.New("a kernel NFS server beside the suite's serves NFSv4 alone, in a network namespace of its own")
		}
		return startKernelNFSv4Only(ctx, s, o)
	}
	logf, err := os.Create(s.LogPath)
	if err != nil {
		return nil, err
	}
	run := func(name string, args ...string) error {
		cmd := exec.CommandContext(ctx, name, args...)
		cmd.Stdout, cmd.Stderr = logf, logf
		if err := cmd.Run(); err != nil {
			return fmt.Errorf("%s %s: %w\n%s", name, strings.Join(args, " "), err, s.Log())
		}
		return nil
	}
	if _, err := os.Stat("/proc/fs/nfsd/threads"); err != nil {
		if err := run("mount", "-t", "nfsd", "nfsd", "/proc/fs/nfsd"); err != nil {
			return nil, err
		}
	}
	if err := s.ensureRPCBind(ctx); err != nil {
		return nil, err
	}
	// rpc.statd serves NFSv3 locking (NLM); without it v3 mounts need nolock.
	if statd, err := exec.LookPath("rpc.statd"); err == nil {
		cmd := exec.Command(statd, "--foreground", "--no-notify")
		cmd.Stdout, cmd.Stderr = logf, logf
		cmd.SysProcAttr = ownProcessGroup()
		if err := cmd.Start(); err == nil {
			s.extra = append(s.extra, cmd)
		}
	}
	// Debian's nfs.conf turns on manage-gids: mountd then replaces the groups
	// a client sends with the server's own idea of the uid's groups, and a pod
	// uid the server does not know loses its fsGroup. Test servers honour
	// the AUTH_SYS groups, as most NAS appliances do. This writes to /etc: it
	// is meant for the throw-away test VM.
	const mountdConf = "/etc/nfs.conf.d/fileshare-csi-test.conf"
	if err := os.MkdirAll(filepath.Dir(mountdConf), 0o755); err == nil {
		_ = os.WriteFile(mountdConf, []byte("[mountd]\nmanage-gids=n\n"), 0o644)
	}
	for _, f := range []string{"nfsv4gracetime", "nfsv4leasetime"} {
		_ = os.WriteFile("/proc/fs/nfsd/"+f, []byte("10\n"), 0o644)
	}
	// fsid: the export may live on tmpfs, which has no UUID for nfsd to use.
	clients := []string{"127.0.0.1"}
	for _, n := range append(append([]string(nil), o.networks...), o.clients...) {
		_, ipnet, err := net.ParseCIDR(n)
		if err != nil {
			s.Stop()
			return nil, fmt.Errorf("network %q: %w", n, err)
		}
		clients = append(clients, ipnet.String())
	}
	for _, c := range clients {
		if err := run("exportfs", "-o", "rw,no_root_squash,insecure,no_subtree_check,fsid=1", c+":"+s.Data); err != nil {
			s.Stop()
			return nil, err
		}
	}
	mountd := exec.Command("rpc.mountd", "--foreground")
	mountd.Stdout, mountd.Stderr = logf, logf
	mountd.SysProcAttr = ownProcessGroup()
	if err := mountd.Start(); err != nil {
		s.Stop()
		return nil, fmt.Errorf("start rpc.mountd: %w", err)
	}
	s.extra = append(s.extra, mountd)
	s.up = func(ctx context.Context) error {
		if err := run("rpc.nfsd", "--port", "2049", "4"); err != nil {
			return err
		}
		return waitTCP(ctx, "127.0.0.1:2049", mountd)
	}
	s.down = func() error { return run("rpc.nfsd", "0") }
	s.stop = func() {
		_ = run("rpc.nfsd", "0")
		_ = run("exportfs", "-u", "127.0.0.1:"+s.Data)
		_ = os.Remove(mountdConf)
	}
	if err := s.up(ctx); err != nil {
		s.Stop()
		return nil, err
	}
	// Wait until MOUNT is registered, as clients look it up first.
	deadline := time.Now().Add(20 * time.Second)
	for {
		out, _ := exec.Command("rpcinfo", "-p", "127.0.0.1").CombinedOutput()
		if bytes.Contains(out, []byte("100005")) && bytes.Contains(out, []byte("100003")) {
			return s, nil
		}
		if time.Now().After(deadline) {
			s.Stop()
			return nil, fmt.Errorf("kernel nfsd did not register with rpcbind\n%s", out)
		}
		time.Sleep(200 * time.Millisecond)
	}
}
