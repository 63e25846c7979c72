// Package freeport hands out loopback TCP ports for the servers a test must
// tell its port (etcd, kube-apiserver, a second NFS-Ganesha, ...).
//
// Asking the kernel for port 0 and closing the listener is not enough: that
// port comes from the ephemeral range, from which every outgoing connection
// on the machine (the VM's user networking, a kubelet, go's module fetches)
// also takes its local port, and the next ask for port 0 may get it again.
// One CI run lost etcd's start that way ("bind: address already in use").
// So the ports come from outside the ephemeral range, each one at most once
// per process, and only after nothing was found listening on it.
package freeport

import (
	"fmt"
	"math/rand/v2"
	"net"
	"os"
	"strconv"
	"strings"
	"sync"
)

// The ports handed out, from the lowest port considered to the highest.
const lowest, highest = 15000, 65535

var (
	mu sync.Mutex
	// given starts with the fixed ports of the servers the tests start
	// (test/localservers and test/node): NFS, Ganesha's MOUNT, rpcbind,
	// SMB, Kerberos, the Samba ports of the alias tests, the node's
	// metrics, health and liveness ports.
	given = map[int]bool{88: true, 111: true, 445: true, 2049: true, 20048: true,
		4450: true, 4451: true, 4460: true, 6443: true, 9808: true, 29764: true, 29765: true}
)

// Get returns a TCP port nothing listens on now, on loopback or on any
// address, that no other caller in this process was given and that the
// kernel does not hand to outgoing connections.
func Get() (int, error) {
	mu.Lock()
	defer mu.Unlock()
	spans := outside(ephemeral())
	total := 0
	for _, s := range spans {
		total += s[1] - s[0] + 1
	}
	for range 500 {
		p := pick(spans, rand.IntN(total))
		if given[p] || !free(p) {
			continue
		}
		given[p] = true
		return p, nil
	}
	return 0, fmt.Errorf("no free TCP port in %v after 500 tries", spans)
}

// free reports whether p can be listened on both on 127.0.0.1 and on every
// address (a server that binds the wildcard must not clash with one on
// loopback, nor the other way round).
func free(p int) bool {
	for _, addr := range []string{"127.0.0.1", ""} {
		l, err := net.Listen("tcp", net.JoinHostPort(addr, strconv.Itoa(p)))
		if err != nil {
			return false
		}
		l.Close()
	}
	return true
}

// ephemeral is the kernel's range for outgoing connections' local ports.
func ephemeral() [2]int {
	r := [2]int{32768, 60999} // Linux's default
	b, err := os.ReadFile("/proc/sys/net/ipv4/ip_local_port_range")
	if err != nil {
		return r
	}
	f := strings.Fields(string(b))
	if len(f) != 2 {
		return r
	}
	lo, err1 := strconv.Atoi(f[0])
	hi, err2 := strconv.Atoi(f[1])
	if err1 != nil || err2 != nil || lo > hi {
		return r
	}
	return [2]int{lo, hi}
}

// outside is [lowest, highest] without e; the whole span if too little is
// left (a machine that gives nearly every port to outgoing connections).
func outside(e [2]int) [][2]int {
	var spans [][2]int
	if e[0]-1 >= lowest {
		spans = append(spans, [2]int{lowest, min(e[0]-1, highest)})
	}
	if e[1]+1 <= highest {
		spans = append(spans, [2]int{max(e[1]+1, lowest), highest})
	}
	n := 0
	for _, s := range spans {
		n += s[1] - s[0] + 1
	}
	if n < 1000 {
		return [][2]int{{lowest, highest}}
	}
	return spans
}

// pick is the i-th port of spans.
func pick(spans [][2]int, i int) int {
	for _, s := range spans {
		if n := s[1] - s[0] + 1; i >= n {
			i -= n
			continue
		}
		return s[0] + i
	}
	return spans[len(spans)-1][1]
}
