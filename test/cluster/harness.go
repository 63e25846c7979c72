//go:build linux

// Package cluster runs the pieces of a real Kubernetes cluster that the
// project's cluster tests share: daemons started as local processes (each in
// its own process group, killed with the test), a control plane on the host
// loopback (etcd, kube-apiserver, kube-controller-manager and, on request,
// kube-scheduler), and kubectl with the admin's kubeconfig. `make test-k8s`
// (test/k8s) runs it without a kubelet; `make test-node` (test/node) adds a
// kubelet in the test VM.
package cluster

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/fileshare-csi/fileshare-csi/test/freeport"
)

// Harness is one test run's processes and tools. Work is the scratch
// directory: every process started is recorded in Work/pids, so the script
// that runs the test can kill what a crashed test left behind.
type Harness struct {
	Repo, Work string
	Bins       []string // directories searched first for binaries
	KubectlBin string
	AdminKC    string // kubeconfig with the admin token

	mu       sync.Mutex
	procs    []*Proc
	recorded map[int]bool // pids of other children, in Work/pids
}

// Proc is one daemon started by the test.
type Proc struct {
	Name, Log string
	cmd       *exec.Cmd
	done      chan struct{}
}

// Start starts bin in its own process group, with its output in
// Work/<name>.log; the kernel kills it should the test process die first.
func (h *Harness) Start(t *testing.T, name, bin string, args ...string) *Proc {
	t.Helper()
	p := &Proc{Name: name, Log: filepath.Join(h.Work, name+".log"), done: make(chan struct{})}
	f, err := os.Create(p.Log)
	if err != nil {
		t.Fatal(err)
	}
	p.cmd = exec.Command(bin, args...)
	p.cmd.Stdout, p.cmd.Stderr = f, f
	p.cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	if err := p.cmd.Start(); err != nil {
		t.Fatalf("start %s: %v", name, err)
	}
	go func() { _ = p.cmd.Wait(); f.Close(); close(p.done) }()
	h.mu.Lock()
	h.procs = append(h.procs, p)
	h.mu.Unlock()
	h.recordPid(p.cmd.Process.Pid, filepath.Base(bin))
	t.Logf("started %s (pid %d)", name, p.cmd.Process.Pid)
	return p
}

// Procs lists the daemons started so far.
func (h *Harness) Procs() []*Proc {
	h.mu.Lock()
	defer h.mu.Unlock()
	return append([]*Proc(nil), h.procs...)
}

func (h *Harness) recordPid(pid int, name string) {
	pf, err := os.OpenFile(filepath.Join(h.Work, "pids"), os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o600)
	if err == nil {
		fmt.Fprintf(pf, "%d %s\n", pid, name)
		pf.Close()
	}
}

// RecordChildren adds the test's own child processes that Start did not
// make (servers started by test/localservers) to Work/pids. They die with
// the test through their parent-death signal, except rpcbind: it switches
// to its own user, which clears that signal.
func (h *Harness) RecordChildren() {
	entries, _ := os.ReadDir("/proc")
	me := os.Getpid()
	h.mu.Lock()
	defer h.mu.Unlock()
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		b, err := os.ReadFile(filepath.Join("/proc", e.Name(), "stat"))
		if err != nil {
			continue
		}
		// pid (comm) state ppid ...; comm may contain spaces.
		open, end := bytes.IndexByte(b, '('), bytes.LastIndexByte(b, ')')
		if open < 0 || end < open {
			continue
		}
		fields := strings.Fields(string(b[end+1:]))
		if len(fields) < 2 || fields[1] != strconv.Itoa(me) {
			continue
		}
		known := false
		for _, p := range h.procs {
			known = known || p.cmd.Process.Pid == pid
		}
		if !known && !h.recorded[pid] {
			if h.recorded == nil {
				h.recorded = map[int]bool{}
			}
			h.recorded[pid] = true
			h.recordPid(pid, string(b[open+1:end]))
		}
	}
}

// Running reports whether the process has not exited.
func (p *Proc) Running() bool {
	select {
	case <-p.done:
		return false
	default:
		return true
	}
}

// Stop sends SIGTERM to the process group, and SIGKILL after grace.
func (p *Proc) Stop(grace time.Duration) {
	if p == nil || p.cmd.Process == nil {
		return
	}
	pgid := p.cmd.Process.Pid
	_ = syscall.Kill(-pgid, syscall.SIGTERM)
	select {
	case <-p.done:
	case <-time.After(grace):
		_ = syscall.Kill(-pgid, syscall.SIGKILL)
		<-p.done
	}
	_ = syscall.Kill(-pgid, syscall.SIGKILL) // children that outlived the leader
}

// Tail is the end of the process's log.
func (p *Proc) Tail() string {
	b, _ := os.ReadFile(p.Log)
	if len(b) > 6000 {
		b = b[len(b)-6000:]
	}
	return string(b)
}

// FindBin finds name in Bins, then in PATH.
func (h *Harness) FindBin(t *testing.T, name string) string {
	t.Helper()
	for _, d := range h.Bins {
		if p := filepath.Join(d, name); isExec(p) {
			return p
		}
	}
	if p, err := exec.LookPath(name); err == nil {
		return p
	}
	t.Fatalf("%s not found in %s or PATH", name, strings.Join(h.Bins, ":"))
	return ""
}

func isExec(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.Mode().IsRegular() && fi.Mode()&0o111 != 0
}

// FreePort is a TCP port on 127.0.0.1 that nothing listens on now (see
// package freeport for why not port 0).
func FreePort(t *testing.T) int {
	t.Helper()
	p, err := freeport.Get()
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// Listening reports whether something accepts connections at addr.
func Listening(addr string) bool {
	c, err := net.DialTimeout("tcp", addr, 500*time.Millisecond)
	if err != nil {
		return false
	}
	c.Close()
	return true
}

// Kubectl runs kubectl with the admin kubeconfig.
func (h *Harness) Kubectl(stdin string, args ...string) (string, error) {
	return h.KubectlTimeout(60*time.Second, stdin, args...)
}

// KubectlTimeout is Kubectl with its own time limit.
func (h *Harness) KubectlTimeout(limit time.Duration, stdin string, args ...string) (string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), limit)
	defer cancel()
	cmd := exec.CommandContext(ctx, h.KubectlBin, append([]string{"--kubeconfig", h.AdminKC}, args...)...)
	if stdin != "" {
		cmd.Stdin = strings.NewReader(stdin)
	}
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	if err != nil {
		return out.String(), fmt.Errorf("kubectl %s: %w\n%s%s", strings.Join(args, " "), err, out.String(), errb.String())
	}
	return out.String(), nil
}

// MustKubectl is Kubectl that fails the test on an error.
func (h *Harness) MustKubectl(t *testing.T, stdin string, args ...string) string {
	t.Helper()
	out, err := h.Kubectl(stdin, args...)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// GetJSON decodes `kubectl get ... -o json` into v.
func (h *Harness) GetJSON(args []string, v any) error {
	out, err := h.Kubectl("", append(append([]string{"get"}, args...), "-o", "json")...)
	if err != nil {
		return err
	}
	return json.Unmarshal([]byte(out), v)
}

// WaitFor polls cond until it returns true or the timeout passes.
func WaitFor(t *testing.T, what string, timeout time.Duration, cond func() (bool, error)) {
	t.Helper()
	deadline := time.Now().Add(timeout)
	var lastErr error
	for {
		ok, err := cond()
		if ok {
			return
		}
		lastErr = err
		if time.Now().After(deadline) {
			t.Fatalf("timed out after %s waiting for %s (last error: %v)", timeout, what, lastErr)
		}
		time.Sleep(250 * time.Millisecond)
	}
}

// WriteKubeconfig writes a kubeconfig for server with a bearer token.
// serverName, when set, is the name the server's certificate is checked
// against (the address dialled is not among its names).
func WriteKubeconfig(t *testing.T, path, server, ca, token, serverName string) {
	t.Helper()
	tlsName := ""
	if serverName != "" {
		tlsName = "\n    tls-server-name: " + serverName
	}
	kc := fmt.Sprintf(`apiVersion: v1
kind: Config
clusters:
- name: local
  cluster:
    server: %s
    certificate-authority: %s%s
users:
- name: user
  user:
    token: %s
contexts:
- name: local
  context: {cluster: local, user: user}
current-context: local
`, server, ca, tlsName, token)
	if err := os.WriteFile(path, []byte(kc), 0o600); err != nil {
		t.Fatal(err)
	}
}

// ReadRepoFile reads a file of the repository.
func (h *Harness) ReadRepoFile(t *testing.T, rel string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(h.Repo, rel))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// ReplaceAll applies old/new pairs and fails when an old string is missing,
// so a test notices when the examples it edits change under it.
func ReplaceAll(t *testing.T, s string, pairs ...string) string {
	t.Helper()
	for i := 0; i+1 < len(pairs); i += 2 {
		if !strings.Contains(s, pairs[i]) {
			t.Fatalf("%q not found in:\n%s", pairs[i], s)
		}
		s = strings.ReplaceAll(s, pairs[i], pairs[i+1])
	}
	return s
}
