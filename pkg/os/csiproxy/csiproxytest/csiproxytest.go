// Package csiproxytest is an in-process stand-in for csi-proxy's smb v1 and
// filesystem v1 API groups, served over gRPC on a unix socket, for tests of
// the Windows node plugin on Linux. It keeps the node in memory (global
// mappings, directories, links) with the behaviour of csi-proxy v1.3 on
// Windows, records every call, and can be made to fail.
package csiproxytest

import (
	"context"
	"fmt"
	"io"
	"io/fs"
	"net"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"sync"
	"testing"

	fsv1 "github.com/kubernetes-csi/csi-proxy/client/api/filesystem/v1"
	smbv1 "github.com/kubernetes-csi/csi-proxy/client/api/smb/v1"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/protobuf/proto"

	"github.com/fileshare-csi/fileshare-csi/pkg/os/csiproxy"
	"github.com/fileshare-csi/fileshare-csi/pkg/os/winhost"
	"github.com/fileshare-csi/fileshare-csi/pkg/os/winpath"
)

// OptionsHost is the fake as a node that passes a mapping's options, as
// the HostProcess host does with PowerShell (csi-proxy v1 cannot): the
// Windows mounter then asks for -BlockNTLM, -RequirePrivacy and the rest,
// and OptionsHost records them in Asked. With OldWindows it refuses
// -BlockNTLM with the HostProcess host's error for Windows before Server
// 2025 (winhost.NoBlockNTLM); with MapFails set, a mapping fails with what
// MapFails returns. (The PowerShell script itself, and how the HostProcess
// host reads PowerShell's errors, are tested in pkg/os/hostprocess.)
type OptionsHost struct {
	winhost.Host
	OldWindows bool
	MapFails   func(ctx context.Context, remote, user string, opts winhost.MapOptions) error
	Asked      []winhost.MapOptions
}

func (h *OptionsHost) PassesMapOptions() bool { return true }

func (h *OptionsHost) NewSMBGlobalMapping(ctx context.Context, remote, local, user, password string, opts winhost.MapOptions) error {
	h.Asked = append(h.Asked, opts)
	if h.OldWindows && opts.BlockNTLM {
		return winhost.NoBlockNTLM(remote)
	}
	if h.MapFails != nil {
		return h.MapFails(ctx, remote, user, opts)
	}
	return h.Host.NewSMBGlobalMapping(ctx, remote, local, user, password, opts)
}

// Call is one request the fake received.
type Call struct {
	Method  string // "NewSmbGlobalMapping", "Rmdir", ...
	Request proto.Message
}

// Mapping is an SMB global mapping on the fake node.
type Mapping struct {
	RemotePath, Username, Password string
}

type entry struct {
	path   string // as created, for listings
	target string // of a link
	file   bool
}

func (e entry) isLink() bool { return e.target != "" }

// Server is the fake csi-proxy.
type Server struct {
	mu       sync.Mutex
	calls    []Call
	mappings map[string]Mapping // by lower-case share root
	created  int                // mappings made, over the server's life
	entries  map[string]entry   // by lower-case clean path
	down     map[string]bool    // share roots whose server does not answer
	missing  map[string]bool    // remote directories that do not exist
	fail     map[string]error
	block    map[string]bool
	space    winhost.Space
	// remote holds the shares' files, by lower-case \\host\share\... path.
	remote     map[string]winhost.DirEntry
	hung       map[string]chan struct{} // share roots whose listings block
	dirsOpened int
	// passwords the servers take, by passwordKey; a server with none set
	// takes any.
	passwords map[string]string
	// broken are the mappings (by share root) whose session the server
	// dropped and whose password it no longer takes.
	broken map[string]bool

	grpc     *grpc.Server
	endpoint string
}

// Start serves a fake csi-proxy on a unix socket until the test ends. dirs
// are created on the fake node, like the kubelet's directories.
func Start(t testing.TB, dirs ...string) *Server {
	t.Helper()
	s := &Server{
		mappings:  map[string]Mapping{},
		entries:   map[string]entry{},
		down:      map[string]bool{},
		missing:   map[string]bool{},
		fail:      map[string]error{},
		block:     map[string]bool{},
		space:     winhost.Space{Total: 100 << 30, Free: 60 << 30, Available: 50 << 30},
		remote:    map[string]winhost.DirEntry{},
		hung:      map[string]chan struct{}{},
		passwords: map[string]string{},
		broken:    map[string]bool{},
	}
	for _, d := range dirs {
		s.mkdirAll(d)
	}
	lis, endpoint := listen(t)
	s.endpoint = endpoint
	s.grpc = grpc.NewServer()
	smbv1.RegisterSmbServer(s.grpc, smbServer{s})
	fsv1.RegisterFilesystemServer(s.grpc, fsServer{s})
	go s.grpc.Serve(lis)
	t.Cleanup(s.grpc.Stop)
	return s
}

// Endpoint is the address the fake listens on.
func (s *Server) Endpoint() string { return s.endpoint }

// listen opens a unix socket in the test's temporary directory. On Windows
// it listens on loopback TCP instead: Wine, which can run the Windows test
// binaries on Linux, has no AF_UNIX, nor the file deletion t.TempDir's
// cleanup uses.
func listen(t testing.TB) (net.Listener, string) {
	t.Helper()
	if runtime.GOOS == "windows" {
		lis, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		return lis, "passthrough:///" + lis.Addr().String()
	}
	dir := t.TempDir()
	if len(dir) > 80 {
		// A unix socket path must fit in 108 bytes; long test names make
		// long temporary directories.
		d, err := os.MkdirTemp("", "csiproxy")
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { os.RemoveAll(d) })
		dir = d
	}
	socket := filepath.Join(dir, "csi-proxy.sock")
	lis, err := net.Listen("unix", socket)
	if err != nil {
		t.Fatal(err)
	}
	return lis, "unix://" + socket
}

// Stop ends serving, as when csi-proxy is not running.
func (s *Server) Stop() { s.grpc.Stop() }

// NewClient is a csiproxy.Client that talks to the fake through the
// generated gRPC clients over a new connection, as a restarted plugin
// would, with the fake's view of the node as its in-process reads.
func (s *Server) NewClient(t testing.TB) *csiproxy.Client {
	t.Helper()
	conn, err := grpc.NewClient(s.Endpoint(), grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	return csiproxy.New(smbv1.NewSmbClient(conn), s.Endpoint(), fsv1.NewFilesystemClient(conn), s.Endpoint(), Local{s})
}

// Calls returns the requests received so far.
func (s *Server) Calls() []Call {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Call(nil), s.calls...)
}

// ResetCalls forgets the recorded calls.
func (s *Server) ResetCalls() {
	s.mu.Lock()
	s.calls = nil
	s.mu.Unlock()
}

// Mappings returns the node's global mappings.
func (s *Server) Mappings() []Mapping {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []Mapping
	for _, m := range s.mappings {
		out = append(out, m)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].RemotePath < out[j].RemotePath })
	return out
}

// MappingsCreated counts the mappings made since the start.
func (s *Server) MappingsCreated() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.created
}

// Link returns the target of the link at path, and whether there is one.
func (s *Server) Link(path string) (string, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	e, ok := s.entries[key(path)]
	return e.target, ok && e.isLink()
}

// Exists reports whether anything is at path.
func (s *Server) Exists(path string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	_, ok := s.entries[key(path)]
	return ok
}

// Mkdir creates a directory on the fake node, as the kubelet does.
func (s *Server) Mkdir(path string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.mkdirAll(path)
}

// MakeFile puts a file in a directory, so that it is not empty.
func (s *Server) MakeFile(path string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.mkdirAll(winpath.Dir(path))
	s.entries[key(path)] = entry{path: winpath.Clean(path), file: true}
}

// SetServerDown makes the server of a share (\\host\share) stop answering,
// or answer again.
func (s *Server) SetServerDown(shareRoot string, down bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.down[key(shareRoot)] = down
}

func passwordKey(host, user string) string {
	return strings.ToLower(host) + "\x00" + strings.ToLower(user)
}

func hostOf(root string) string {
	h, _, _ := strings.Cut(strings.TrimPrefix(root, `\\`), `\`)
	return strings.ToLower(h)
}

// SetPassword makes the server host take only password for user (as the
// mapping names it, DOMAIN\user). Mappings made with another password keep
// working, as a Windows mapping keeps its session, until DropSessions.
func (s *Server) SetPassword(host, user, password string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.passwords[passwordKey(host, user)] = password
}

// DropSessions ends the sessions of host's mappings, as a server restart
// does: each logs on again, and a mapping whose password the server no
// longer takes stops working.
func (s *Server) DropSessions(host string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for root, m := range s.mappings {
		if hostOf(root) == strings.ToLower(host) && !s.takes(host, m.Username, m.Password) {
			s.broken[root] = true
		}
	}
}

// Accepts reports whether the server host takes password for user.
func (s *Server) Accepts(host, user, password string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.takes(host, user, password)
}

func (s *Server) takes(host, user, password string) bool {
	want, ok := s.passwords[passwordKey(host, user)]
	return !ok || want == password
}

// AddMapping puts a global mapping on the node that the plugin did not
// make (another driver's, an administrator's).
func (s *Server) AddMapping(m Mapping) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.mappings[key(m.RemotePath)] = m
}

// SetMissing makes a directory on a share not exist.
func (s *Server) SetMissing(remotePath string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.missing[key(remotePath)] = true
}

// ForgetMappings drops all mappings, as a reboot does; links stay.
func (s *Server) ForgetMappings() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.mappings = map[string]Mapping{}
	s.broken = map[string]bool{}
}

// Fail makes every later call of method return err (a status error, for a
// particular gRPC code); nil clears it.
func (s *Server) Fail(method string, err error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if err == nil {
		delete(s.fail, method)
		return
	}
	s.fail[method] = err
}

// Block makes calls of method wait until their context ends.
func (s *Server) Block(method string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.block[method] = true
}

// begin records a call and applies Fail and Block; the caller holds no lock.
func (s *Server) begin(ctx context.Context, method string, req proto.Message) error {
	s.mu.Lock()
	s.calls = append(s.calls, Call{Method: method, Request: proto.Clone(req)})
	err, block := s.fail[method], s.block[method]
	s.mu.Unlock()
	if block {
		<-ctx.Done()
		return ctx.Err()
	}
	return err
}

func key(p string) string { return strings.ToLower(winpath.Clean(p)) }

func (s *Server) mkdirAll(p string) {
	for p = winpath.Clean(p); ; p = winpath.Dir(p) {
		if _, ok := s.entries[key(p)]; !ok {
			s.entries[key(p)] = entry{path: p}
		}
		if winpath.Dir(p) == p || winpath.Dir(p) == "." {
			return
		}
	}
}

// remoteExists is what following a link to a share finds.
func (s *Server) remoteExists(remote string) (bool, error) {
	root, err := winpath.ShareRoot(remote)
	if err != nil {
		return false, err
	}
	if _, ok := s.mappings[key(root)]; !ok {
		return false, fmt.Errorf("%s: The network name cannot be found", remote)
	}
	if s.down[key(root)] {
		return false, fmt.Errorf("%s: The network path was not found", remote)
	}
	if s.broken[key(root)] {
		return false, fmt.Errorf("%s: The user name or password is incorrect", remote)
	}
	return !s.missing[key(remote)], nil
}

// validatePath refuses what csi-proxy refuses on the filesystem API: paths
// that are not absolute drive paths, UNC paths among them.
func validatePath(p string) error {
	if strings.HasPrefix(p, `\\`) {
		return fmt.Errorf("unsupported UNC path prefix: %s", p)
	}
	if len(p) < 3 || p[1] != ':' || p[2] != '\\' {
		return fmt.Errorf("not an absolute Windows path: %s", p)
	}
	if strings.Contains(p, "/") {
		return fmt.Errorf("path contains invalid characters: %s", p)
	}
	return nil
}

type smbServer struct{ s *Server }

// NewSmbGlobalMapping maps the share root of RemotePath unless a working
// mapping is there, then links LocalPath to RemotePath, as csi-proxy does.
func (x smbServer) NewSmbGlobalMapping(ctx context.Context, req *smbv1.NewSmbGlobalMappingRequest) (*smbv1.NewSmbGlobalMappingResponse, error) {
	s := x.s
	if err := s.begin(ctx, "NewSmbGlobalMapping", req); err != nil {
		return nil, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	root, err := winpath.ShareRoot(req.GetRemotePath())
	if err != nil {
		return nil, err
	}
	if s.down[key(root)] {
		delete(s.mappings, key(root))
		return nil, fmt.Errorf("NewSmbGlobalMapping failed. err: The network path was not found")
	}
	if s.broken[key(root)] {
		// csi-proxy finds the mapping's path invalid and removes it.
		delete(s.mappings, key(root))
		delete(s.broken, key(root))
	}
	if _, ok := s.mappings[key(root)]; !ok {
		host := hostOf(key(root))
		for r, m := range s.mappings {
			if hostOf(r) == host && !strings.EqualFold(m.Username, req.GetUsername()) {
				return nil, fmt.Errorf("NewSmbGlobalMapping failed. output: \"New-SmbGlobalMapping : Multiple connections to a server or shared resource by the same user, using more than one user name, are not allowed. Disconnect all previous connections to the server or shared resource and try again.\"")
			}
		}
		if !s.takes(host, req.GetUsername(), req.GetPassword()) {
			return nil, fmt.Errorf("NewSmbGlobalMapping failed. result: 1326, err: The user name or password is incorrect.")
		}
		s.mappings[key(root)] = Mapping{RemotePath: strings.ToLower(root), Username: req.GetUsername(), Password: req.GetPassword()}
		s.created++
	}
	if local := req.GetLocalPath(); local != "" {
		if err := validatePath(local); err != nil {
			return nil, err
		}
		if _, ok := s.entries[key(local)]; ok {
			return nil, fmt.Errorf("creating link %s to %s failed with error: Cannot create a file when that file already exists", local, req.GetRemotePath())
		}
		if _, ok := s.entries[key(winpath.Dir(local))]; !ok {
			return nil, fmt.Errorf("creating link %s failed with error: The system cannot find the path specified", local)
		}
		// csi-proxy writes the long form with a trailing backslash.
		target := `\\?\UNC\` + strings.TrimPrefix(winpath.Clean(req.GetRemotePath()), `\\`) + `\`
		s.entries[key(local)] = entry{path: winpath.Clean(local), target: target}
	}
	return &smbv1.NewSmbGlobalMappingResponse{}, nil
}

func (x smbServer) RemoveSmbGlobalMapping(ctx context.Context, req *smbv1.RemoveSmbGlobalMappingRequest) (*smbv1.RemoveSmbGlobalMappingResponse, error) {
	s := x.s
	if err := s.begin(ctx, "RemoveSmbGlobalMapping", req); err != nil {
		return nil, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	root, err := winpath.ShareRoot(req.GetRemotePath())
	if err != nil {
		return nil, err
	}
	if _, ok := s.mappings[key(root)]; !ok {
		// What csi-proxy answers: Remove-SmbGlobalMapping's error, in
		// PowerShell's words, quoted.
		return nil, fmt.Errorf("UnmountSmbShare failed. output: %q, err: exit status 1", NoMappingOutput(root))
	}
	delete(s.mappings, key(root))
	delete(s.broken, key(root))
	return &smbv1.RemoveSmbGlobalMappingResponse{}, nil
}

type fsServer struct{ s *Server }

func (x fsServer) PathExists(ctx context.Context, req *fsv1.PathExistsRequest) (*fsv1.PathExistsResponse, error) {
	s := x.s
	if err := s.begin(ctx, "PathExists", req); err != nil {
		return nil, err
	}
	if err := validatePath(req.GetPath()); err != nil {
		return nil, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	_, ok := s.entries[key(req.GetPath())]
	return &fsv1.PathExistsResponse{Exists: ok}, nil
}

func (x fsServer) Mkdir(ctx context.Context, req *fsv1.MkdirRequest) (*fsv1.MkdirResponse, error) {
	s := x.s
	if err := s.begin(ctx, "Mkdir", req); err != nil {
		return nil, err
	}
	if err := validatePath(req.GetPath()); err != nil {
		return nil, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.mkdirAll(req.GetPath())
	return &fsv1.MkdirResponse{}, nil
}

// Rmdir is os.Remove, or os.RemoveAll with Force, as in csi-proxy.
func (x fsServer) Rmdir(ctx context.Context, req *fsv1.RmdirRequest) (*fsv1.RmdirResponse, error) {
	s := x.s
	if err := s.begin(ctx, "Rmdir", req); err != nil {
		return nil, err
	}
	if err := validatePath(req.GetPath()); err != nil {
		return nil, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	k := key(req.GetPath())
	e, ok := s.entries[k]
	if !ok {
		return nil, fmt.Errorf("remove %s: The system cannot find the file specified", req.GetPath())
	}
	var children []string
	if !e.isLink() {
		for c := range s.entries {
			if strings.HasPrefix(c, k+`\`) {
				children = append(children, c)
			}
		}
	}
	if len(children) > 0 && !req.GetForce() {
		return nil, fmt.Errorf("remove %s: The directory is not empty", req.GetPath())
	}
	for _, c := range children {
		delete(s.entries, c)
	}
	delete(s.entries, k)
	return &fsv1.RmdirResponse{}, nil
}

// CreateSymlink refuses UNC paths on either side, as csi-proxy does: links
// to shares come from NewSmbGlobalMapping.
func (x fsServer) CreateSymlink(ctx context.Context, req *fsv1.CreateSymlinkRequest) (*fsv1.CreateSymlinkResponse, error) {
	s := x.s
	if err := s.begin(ctx, "CreateSymlink", req); err != nil {
		return nil, err
	}
	for _, p := range []string{req.GetTargetPath(), req.GetSourcePath()} {
		if err := validatePath(p); err != nil {
			return nil, err
		}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	link := req.GetTargetPath()
	if _, ok := s.entries[key(link)]; ok {
		return nil, fmt.Errorf("symlink %s %s: Cannot create a file when that file already exists", req.GetSourcePath(), link)
	}
	if _, ok := s.entries[key(winpath.Dir(link))]; !ok {
		return nil, fmt.Errorf("symlink %s %s: The system cannot find the path specified", req.GetSourcePath(), link)
	}
	s.entries[key(link)] = entry{path: winpath.Clean(link), target: req.GetSourcePath()}
	return &fsv1.CreateSymlinkResponse{}, nil
}

// IsSymlink: a link whose target exists, as csi-proxy answers; an error for
// a path that does not exist, or a share that does not answer.
func (x fsServer) IsSymlink(ctx context.Context, req *fsv1.IsSymlinkRequest) (*fsv1.IsSymlinkResponse, error) {
	s := x.s
	if err := s.begin(ctx, "IsSymlink", req); err != nil {
		return nil, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	e, ok := s.entries[key(req.GetPath())]
	if !ok {
		return nil, fmt.Errorf("lstat %s: The system cannot find the file specified", req.GetPath())
	}
	if !e.isLink() {
		return &fsv1.IsSymlinkResponse{}, nil
	}
	if winpath.IsUNC(e.target) {
		exists, err := s.remoteExists(e.target)
		if err != nil {
			return nil, err
		}
		return &fsv1.IsSymlinkResponse{IsSymlink: exists}, nil
	}
	_, exists := s.entries[key(e.target)]
	return &fsv1.IsSymlinkResponse{IsSymlink: exists}, nil
}

// Local answers the plugin's in-process reads from the fake node.
type Local struct{ s *Server }

func (l Local) Readlink(_ context.Context, path string) (string, error) {
	s := l.s
	s.mu.Lock()
	defer s.mu.Unlock()
	e, ok := s.entries[key(path)]
	switch {
	case !ok:
		return "", &fs.PathError{Op: "readlink", Path: path, Err: fs.ErrNotExist}
	case !e.isLink():
		return "", fmt.Errorf("%s: %w", path, winhost.ErrNotLink)
	}
	return e.target, nil
}

func (l Local) ReadDir(_ context.Context, dir string) ([]string, error) {
	s := l.s
	s.mu.Lock()
	defer s.mu.Unlock()
	k := key(dir)
	if e, ok := s.entries[k]; !ok || e.isLink() || e.file {
		return nil, &fs.PathError{Op: "readdir", Path: dir, Err: fs.ErrNotExist}
	}
	var names []string
	for c, e := range s.entries {
		if rest, ok := strings.CutPrefix(c, k+`\`); ok && !strings.Contains(rest, `\`) {
			names = append(names, winpath.Base(e.path))
		}
	}
	sort.Strings(names)
	return names, nil
}

// FreeSpace answers for paths that lead to a reachable share.
func (l Local) FreeSpace(_ context.Context, path string) (winhost.Space, error) {
	s := l.s
	s.mu.Lock()
	defer s.mu.Unlock()
	p := path
	for hops := 0; hops < 3; hops++ {
		e, ok := s.entries[key(p)]
		if !ok {
			return winhost.Space{}, fmt.Errorf("GetDiskFreeSpaceEx %s: The system cannot find the path specified", path)
		}
		if !e.isLink() {
			return winhost.Space{}, fmt.Errorf("GetDiskFreeSpaceEx %s: not on a share in this fake", path)
		}
		if winpath.IsUNC(e.target) {
			exists, err := s.remoteExists(e.target)
			if err != nil || !exists {
				return winhost.Space{}, fmt.Errorf("GetDiskFreeSpaceEx %s: The network path was not found", path)
			}
			return s.space, nil
		}
		p = e.target
	}
	return winhost.Space{}, fmt.Errorf("GetDiskFreeSpaceEx %s: too many links", path)
}

// remoteKey is the lower-case short form of a path on a share: csi-proxy's
// links hold the long form \\?\UNC\host\share\dir\.
func remoteKey(p string) string {
	if rest, ok := strings.CutPrefix(p, `\\?\UNC\`); ok {
		p = `\\` + rest
	}
	return key(strings.TrimRight(p, `\`))
}

// PutRemote puts an entry on a share (remotePath is \\host\share\...),
// with the directories above it up to the share's root; e.Name is taken
// from the path.
func (s *Server) PutRemote(remotePath string, e winhost.DirEntry) {
	s.mu.Lock()
	defer s.mu.Unlock()
	root, err := winpath.ShareRoot(remotePath)
	if err != nil {
		panic(err)
	}
	e.Name = winpath.Base(winpath.Clean(remotePath))
	s.remote[remoteKey(remotePath)] = e
	for d := winpath.Dir(winpath.Clean(remotePath)); len(remoteKey(d)) > len(remoteKey(root)); d = winpath.Dir(d) {
		if _, ok := s.remote[remoteKey(d)]; !ok {
			s.remote[remoteKey(d)] = winhost.DirEntry{Name: winpath.Base(d), Dir: true}
		}
	}
}

// HangShare makes listings on the share root (\\host\share) block, as on
// a server that stopped answering mid-walk, until release is called.
func (s *Server) HangShare(root string) (release func()) {
	s.mu.Lock()
	defer s.mu.Unlock()
	ch := make(chan struct{})
	s.hung[remoteKey(root)] = ch
	var once sync.Once
	return func() {
		once.Do(func() {
			s.mu.Lock()
			delete(s.hung, remoteKey(root))
			s.mu.Unlock()
			close(ch)
		})
	}
}

// DirsOpened counts the directory listings begun on shares.
func (s *Server) DirsOpened() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.dirsOpened
}

// OpenDir lists a directory on a share, through the node's mapping of it,
// as the plugin does in its own process: an error when the share is not
// mapped or its server is down, and a wait while it hangs.
func (l Local) OpenDir(dir string) (winhost.Dir, error) {
	s := l.s
	s.mu.Lock()
	s.dirsOpened++
	root, err := winpath.ShareRoot(strings.Replace(dir, `\\?\UNC\`, `\\`, 1))
	if err != nil {
		s.mu.Unlock()
		return nil, fmt.Errorf("open %s: not on a share in this fake: %w", dir, err)
	}
	hang := s.hung[remoteKey(root)]
	s.mu.Unlock()
	if hang != nil {
		<-hang
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, err := s.remoteExists(root); err != nil {
		return nil, &fs.PathError{Op: "open", Path: dir, Err: err}
	}
	k := remoteKey(dir)
	if e, ok := s.remote[k]; !ok && k != remoteKey(root) || ok && !e.Dir {
		return nil, &fs.PathError{Op: "open", Path: dir, Err: fs.ErrNotExist}
	}
	var out []winhost.DirEntry
	for c, e := range s.remote {
		if rest, ok := strings.CutPrefix(c, k+`\`); ok && !strings.Contains(rest, `\`) {
			out = append(out, e)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return &remoteDir{entries: out}, nil
}

type remoteDir struct{ entries []winhost.DirEntry }

func (d *remoteDir) Read(n int) ([]winhost.DirEntry, error) {
	if len(d.entries) == 0 {
		return nil, io.EOF
	}
	n = min(max(n, 1), len(d.entries))
	out := d.entries[:n:n]
	d.entries = d.entries[n:]
	return out, nil
}

func (d *remoteDir) Close() error { return nil }

// NoMappingOutput is what PowerShell writes when Remove-SmbGlobalMapping
// finds no mapping of root (Windows in English; the error's category and
// id are the same in every language).
func NoMappingOutput(root string) string {
	return "Remove-SmbGlobalMapping : No MSFT_SmbGlobalMapping objects found with property 'RemotePath' equal to '" + root + "'.  Verify the value of the property and retry.\r\n" +
		"At line:1 char:1\r\n+ Remove-SmbGlobalMapping -RemotePath $Env:smbremotepath -Force\r\n" +
		"    + CategoryInfo          : ObjectNotFound: (" + root + ":String) [Remove-SmbGlobalMapping], CimJobException\r\n" +
		"    + FullyQualifiedErrorId : CmdletizationQuery_NotFound_RemotePath,Remove-SmbGlobalMapping\r\n"
}
