//go:build linux

package cluster

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// ControlPlaneOptions says what the control plane runs beside etcd,
// kube-apiserver and kube-controller-manager.
type ControlPlaneOptions struct {
	// Scheduler starts kube-scheduler (a cluster with nodes needs one).
	Scheduler bool
	// APIServerArgs are added to kube-apiserver's.
	APIServerArgs []string
}

// ControlPlane is etcd, kube-apiserver, kube-controller-manager and
// optionally kube-scheduler on the host loopback.
type ControlPlane struct {
	etcd, apiserver, kcm, scheduler *Proc
	// Server is the apiserver's URL on loopback; CA its certificate (it
	// signs itself); Token the admin's bearer token; SAKey the key that
	// signs service account tokens.
	Server, CA, Token, Dir string
}

// StartControlPlane starts the control plane and waits until the apiserver
// is ready and its bootstrap RBAC policy is in place. It sets h.AdminKC.
func (h *Harness) StartControlPlane(t *testing.T, o ControlPlaneOptions) *ControlPlane {
	t.Helper()
	cp := &ControlPlane{Dir: filepath.Join(h.Work, "cp")}
	certs := filepath.Join(cp.Dir, "certs")
	for _, d := range []string{cp.Dir, certs} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			t.Fatal(err)
		}
	}
	saKey, saPub := filepath.Join(cp.Dir, "sa.key"), filepath.Join(cp.Dir, "sa.pub")
	for _, c := range [][]string{{"genrsa", "-out", saKey, "2048"}, {"rsa", "-in", saKey, "-pubout", "-out", saPub}} {
		if out, err := exec.Command("openssl", c...).CombinedOutput(); err != nil {
			t.Fatalf("openssl %v: %v\n%s", c, err, out)
		}
	}
	b := make([]byte, 16)
	_, _ = rand.Read(b)
	cp.Token = hex.EncodeToString(b)
	tokens := filepath.Join(cp.Dir, "tokens.csv")
	if err := os.WriteFile(tokens, []byte(cp.Token+`,admin,admin-uid,"system:masters"`+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}

	clientPort, peerPort, metricsPort := FreePort(t), FreePort(t), FreePort(t)
	etcdURL := fmt.Sprintf("http://127.0.0.1:%d", clientPort)
	peerURL := fmt.Sprintf("http://127.0.0.1:%d", peerPort)
	cp.etcd = h.Start(t, "etcd", h.FindBin(t, "etcd"),
		"--name", "test", "--data-dir", filepath.Join(cp.Dir, "etcd"),
		"--listen-client-urls", etcdURL, "--advertise-client-urls", etcdURL,
		"--listen-peer-urls", peerURL, "--initial-advertise-peer-urls", peerURL,
		"--initial-cluster", "test="+peerURL,
		"--listen-metrics-urls", fmt.Sprintf("http://127.0.0.1:%d", metricsPort),
		"--unsafe-no-fsync")
	WaitFor(t, "etcd to listen", 30*time.Second, func() (bool, error) {
		if !cp.etcd.Running() {
			t.Fatalf("etcd exited:\n%s", cp.etcd.Tail())
		}
		return Listening(fmt.Sprintf("127.0.0.1:%d", clientPort)), nil
	})

	apiPort := FreePort(t)
	cp.Server = fmt.Sprintf("https://127.0.0.1:%d", apiPort)
	args := []string{
		"--etcd-servers=" + etcdURL,
		"--bind-address=127.0.0.1", "--advertise-address=127.0.0.1",
		"--secure-port=" + strconv.Itoa(apiPort), "--cert-dir=" + certs,
		"--service-account-issuer=https://kubernetes.default.svc",
		"--service-account-key-file=" + saPub, "--service-account-signing-key-file=" + saKey,
		"--service-cluster-ip-range=10.0.0.0/24",
		"--token-auth-file=" + tokens, "--authorization-mode=RBAC",
		"--endpoint-reconciler-type=none",
		// As on every real cluster: the node DaemonSet is privileged.
		"--allow-privileged=true",
		"--v=1",
	}
	cp.apiserver = h.Start(t, "kube-apiserver", h.FindBin(t, "kube-apiserver"), append(args, o.APIServerArgs...)...)
	h.AdminKC = filepath.Join(cp.Dir, "admin.kubeconfig")
	cp.CA = filepath.Join(certs, "apiserver.crt")
	WriteKubeconfig(t, h.AdminKC, cp.Server, cp.CA, cp.Token, "")
	WaitFor(t, "kube-apiserver to be ready", 60*time.Second, func() (bool, error) {
		if !cp.apiserver.Running() {
			t.Fatalf("kube-apiserver exited:\n%s", cp.apiserver.Tail())
		}
		if _, err := os.Stat(cp.CA); err != nil {
			return false, err
		}
		out, err := h.Kubectl("", "get", "--raw", "/readyz")
		return err == nil && strings.TrimSpace(out) == "ok", err
	})
	// The RBAC bootstrap policy must be in place before anything relies on it.
	WaitFor(t, "the bootstrap ClusterRoles", 30*time.Second, func() (bool, error) {
		_, err := h.Kubectl("", "get", "clusterrole", "system:kube-controller-manager")
		return err == nil, err
	})

	cp.kcm = h.Start(t, "kube-controller-manager", h.FindBin(t, "kube-controller-manager"),
		"--kubeconfig="+h.AdminKC,
		"--bind-address=127.0.0.1", "--secure-port="+strconv.Itoa(FreePort(t)),
		"--leader-elect=false",
		"--service-account-private-key-file="+saKey, "--root-ca-file="+cp.CA,
		"--v=1")
	if o.Scheduler {
		cp.scheduler = h.Start(t, "kube-scheduler", h.FindBin(t, "kube-scheduler"),
			"--kubeconfig="+h.AdminKC, "--authentication-kubeconfig="+h.AdminKC, "--authorization-kubeconfig="+h.AdminKC,
			"--bind-address=127.0.0.1", "--secure-port="+strconv.Itoa(FreePort(t)),
			"--leader-elect=false", "--v=1")
	}
	return cp
}

// Stop takes the clients down before the apiserver: with watches open it
// ignores SIGTERM for a long time.
func (cp *ControlPlane) Stop() {
	cp.scheduler.Stop(10 * time.Second)
	cp.kcm.Stop(10 * time.Second)
	cp.apiserver.Stop(15 * time.Second)
	cp.etcd.Stop(10 * time.Second)
}
