//go:build linux

package node

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/fileshare-csi/fileshare-csi/test/cluster"
	"github.com/fileshare-csi/fileshare-csi/test/localservers"
)

// The file servers' addresses in the server-move scenario. The servers
// themselves stay at guestIP (the kubelet's node address cannot move): the
// node forwards an address to them (DNAT, for the node's own connections
// and the pods'), and the move is the old address refusing connections
// from then on while the new one forwards.
const (
	oldServerIP = "10.99.0.1"
	newServerIP = "10.99.0.2"
)

// serverMove is issue #30's scenario (docs/server-move.md): claims of
// classes that name the servers' old address hold data; the servers move;
// with the source alias set in the ConfigMap the driver's pods read,
// re-created pods see their data, new claims of the old classes provision,
// and every claim deletes cleanly, without an edit to any PV.
func serverMove(t *testing.T, classes []class) {
	forward(t, "-A", oldServerIP)
	t.Cleanup(func() {
		for _, ip := range []string{oldServerIP, newServerIP} {
			_, _, _ = guestExec("sh", "-c", fmt.Sprintf("while iptables -t nat -D OUTPUT -d %[1]s -j DNAT --to-destination %[2]s; do :; done; "+
				"while iptables -t nat -D PREROUTING -d %[1]s -j DNAT --to-destination %[2]s; do :; done; "+
				"while iptables -D OUTPUT -d %[1]s -p tcp -j REJECT --reject-with tcp-reset; do :; done; "+
				"while iptables -D FORWARD -d %[1]s -p tcp -j REJECT --reject-with tcp-reset; do :; done", ip, guestIP))
		}
		_, _ = env.h.Kubectl("", "-n", "fileshare-csi", "delete", "configmap", "fileshare-csi-source-aliases", "--ignore-not-found")
	})
	var rules []string
	for _, c := range classes {
		moved := "moved-" + c.proto
		kubectl(t, movedClass(t, c, moved), "apply", "-f", "-")
		t.Cleanup(func() { _, _ = env.h.Kubectl("", "delete", "storageclass", moved, "--ignore-not-found") })
		kubectl(t, claimYAML(moved, moved), "apply", "-f", "-")
		// The rule maps the share (SMB) or export (NFS) the class lies in.
		share := strings.TrimSuffix(c.server, "/k8s")
		if c.proto == "smb" {
			share = "/" + localservers.SMBShare
		}
		rules = append(rules, fmt.Sprintf("%[1]s://%[2]s%[4]s -> %[1]s://%[3]s%[4]s", c.proto, oldServerIP, newServerIP, share))
	}
	for _, c := range classes {
		waitBound(t, "moved-"+c.proto)
		pod := "moved-" + c.proto + "-writer"
		kubectl(t, podYAML(pod, "moved-"+c.proto, "echo before-the-move > /data/hello && exec sleep 3600", 0, 0), "apply", "-f", "-")
		waitPodRunning(t, pod)
	}
	// Pods running at a move keep a mount of the old address; the
	// documented way is to re-create them, so they go first.
	for _, c := range classes {
		kubectl(t, "", "-n", testNS, "delete", "pod", "moved-"+c.proto+"-writer", "--wait=true", "--timeout=3m")
	}

	// The move: the old address refuses connections, the new one reaches
	// the servers, and the alias says so.
	forward(t, "-D", oldServerIP)
	for _, chain := range []string{"OUTPUT", "FORWARD"} {
		mustGuest(t, "iptables", "-A", chain, "-d", oldServerIP, "-p", "tcp", "-j", "REJECT", "--reject-with", "tcp-reset")
	}
	forward(t, "-A", newServerIP)
	kubectl(t, "", "-n", "fileshare-csi", "create", "configmap", "fileshare-csi-source-aliases",
		"--from-literal=sourceAliases=# the file servers moved\n"+strings.Join(rules, "\n")+"\n")
	// The kubelet puts the ConfigMap into the driver's two pods within its
	// sync period; the driver reads it at its next look at a source.
	cluster.WaitFor(t, "the kubelet to hand the source aliases to the controller and the node plugin", 4*time.Minute, func() (bool, error) {
		out, _, err := guestExec("sh", "-c", "grep -l "+newServerIP+" /var/lib/kubelet/pods/*/volumes/kubernetes.io~configmap/source-aliases/sourceAliases | wc -l")
		return strings.TrimSpace(out) == "2", err
	})

	for _, c := range classes {
		claim := "moved-" + c.proto
		reader := claim + "-reader"
		kubectl(t, podYAML(reader, claim, "exec sleep 3600", 0, 0), "apply", "-f", "-")
		waitPodRunning(t, reader)
		if got := strings.TrimSpace(mustExec(t, reader, "cat", "/data/hello")); got != "before-the-move" {
			t.Errorf("%s: a pod re-created after the move reads %q", claim, got)
		}
		mustExec(t, reader, "sh", "-c", "echo after-the-move > /data/after")
		if got := strings.TrimSpace(mustGuest(t, "cat", c.server+"/"+testNS+"/"+claim+"/after")); got != "after-the-move" {
			t.Errorf("%s: the server has %q", claim, got)
		}
		// A new claim of the old class provisions through the alias.
		fresh := claim + "-new"
		kubectl(t, claimYAML(fresh, claim), "apply", "-f", "-")
		waitBound(t, fresh)
		kubectl(t, podYAML(fresh+"-pod", fresh, "echo new > /data/new && exec sleep 3600", 0, 0), "apply", "-f", "-")
		waitPodRunning(t, fresh+"-pod")
		if got := strings.TrimSpace(mustGuest(t, "cat", c.server+"/"+testNS+"/"+fresh+"/new")); got != "new" {
			t.Errorf("%s: the server has %q", fresh, got)
		}
		// Its handle names the class's source, as the old ones do.
		if h := handleOf(t, fresh); !strings.Contains(h, oldServerIP) {
			t.Errorf("%s: handle %s, want the class's source", fresh, h)
		}
	}
	// Not one mount on the node is of the old address.
	if m := mustGuest(t, "cat", "/proc/mounts"); strings.Contains(m, oldServerIP) {
		t.Errorf("a mount of the old address after the move:\n%s", m)
	}

	for _, c := range classes {
		claim := "moved-" + c.proto
		kubectl(t, "", "-n", testNS, "delete", "pod", claim+"-reader", claim+"-new-pod", "--wait=true", "--timeout=3m")
		for _, cl := range []string{claim, claim + "-new"} {
			deleteClaim(t, c, cl)
		}
	}
	for _, pod := range []string{"deployment/fileshare-csi-controller", "daemonset/fileshare-csi-node"} {
		out := kubectl(t, "", "-n", "fileshare-csi", "logs", pod, "-c", "fileshare-csi")
		if !strings.Contains(out, `"reaching a volume through a source alias"`) {
			t.Errorf("%s logged no use of the alias", pod)
		}
	}
}

// forward adds (-A) or removes (-D) the node's forwarding of ip to the
// servers, for its own connections (OUTPUT) and its pods' (PREROUTING).
func forward(t *testing.T, op, ip string) {
	t.Helper()
	for _, chain := range []string{"OUTPUT", "PREROUTING"} {
		mustGuest(t, "iptables", "-t", "nat", op, chain, "-d", ip, "-j", "DNAT", "--to-destination", guestIP)
	}
}

// movedClass is c's class under another name, with its source at the
// servers' old address.
func movedClass(t *testing.T, c class, name string) string {
	t.Helper()
	var sc map[string]any
	if err := json.Unmarshal([]byte(kubectl(t, "", "get", "storageclass", c.name, "-o", "json")), &sc); err != nil {
		t.Fatal(err)
	}
	sc["metadata"] = map[string]any{"name": name}
	params := sc["parameters"].(map[string]any)
	params["source"] = strings.Replace(params["source"].(string), "://"+guestIP+"/", "://"+oldServerIP+"/", 1)
	b, err := json.Marshal(sc)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func waitBound(t *testing.T, claim string) {
	t.Helper()
	cluster.WaitFor(t, "claim "+claim+" to be Bound", 3*time.Minute, func() (bool, error) {
		out, err := env.h.Kubectl("", "-n", testNS, "get", "pvc", claim, "-o", "jsonpath={.status.phase}")
		return strings.TrimSpace(out) == "Bound", err
	})
}

func handleOf(t *testing.T, claim string) string {
	t.Helper()
	pv := strings.TrimSpace(kubectl(t, "", "-n", testNS, "get", "pvc", claim, "-o", "jsonpath={.spec.volumeName}"))
	return strings.TrimSpace(kubectl(t, "", "get", "pv", pv, "-o", "jsonpath={.spec.csi.volumeHandle}"))
}
