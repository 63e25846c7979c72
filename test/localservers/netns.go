//go:build linux

package localservers

import (
	"context"
	"fmt"
	"hash/fnv"
	"os/exec"
	"slices"
	"strconv"
	"strings"
)

// InNetNS runs the server in the network namespace ns (see NewNetNS): a
// network of its own, with loopback alone, where nothing else listens, not
// even rpcbind on port 111. Only an NFSv4Only Ganesha runs there.
func InNetNS(ns string) Option {
	return func(o *options) { o.netns = ns }
}

// NewNetNS makes the network namespace name with its loopback up, and
// returns what removes it.
func NewNetNS(name string) (func(), error) {
	// A run killed by its time limit skips its cleanup: its namespace of
	// the same name goes first (the names are the suites' own).
	_ = exec.Command("ip", "netns", "del", name).Run()
	if out, err := exec.Command("ip", "netns", "add", name).CombinedOutput(); err != nil {
		return nil, fmt.Errorf("ip netns add %s: %w: %s", name, err, out)
	}
	remove := func() { _ = exec.Command("ip", "netns", "del", name).Run() }
	// Loopback, with a second address on it: getaddrinfo (AI_ADDRCONFIG)
	// resolves no IPv4 address, 127.0.0.1 included, in a network whose only
	// IPv4 addresses are 127/8 ones, and Ganesha looks up its bind address
	// that way. The extra address is loopback's too: it reaches nothing.
	for _, args := range [][]string{
		{"link", "set", "lo", "up"},
		{"addr", "add", "10.253.0.1/32", "dev", "lo"},
	} {
		if out, err := exec.Command("ip", append([]string{"netns", "exec", name, "ip"}, args...)...).CombinedOutput(); err != nil {
			remove()
			return nil, fmt.Errorf("ip %v in %s: %w: %s", args, name, err, out)
		}
	}
	return remove, nil
}

// ListeningIn lists the TCP ports something listens on in the network
// namespace ns.
func ListeningIn(ns string) ([]int, error) {
	out, err := exec.Command("ip", "netns", "exec", ns, "ss", "-ltnH").CombinedOutput()
	if err != nil {
		return nil, fmt.Errorf("ss in %s: %w: %s", ns, err, out)
	}
	var ports []int
	for _, l := range strings.Split(string(out), "\n") {
		f := strings.Fields(l)
		if len(f) < 4 {
			continue
		}
		local := f[3]
		if p, err := strconv.Atoi(local[strings.LastIndex(local, ":")+1:]); err == nil {
			ports = append(ports, p)
		}
	}
	return ports, nil
}

func waitListeningIn(ctx context.Context, ns string, port int, cmd *exec.Cmd) error {
	return waitFor(ctx, cmd, func() (bool, error) {
		ports, err := ListeningIn(ns)
		return slices.Contains(ports, port), err
	})
}

// LinkNetNS joins network namespace ns to this one with a veth pair: here
// the address hostCIDR, in ns the address nsCIDR (CIDR notation, one
// subnet). A server in ns is then reachable from here at nsCIDR's address,
// and from nothing else. It returns what removes the pair.
func LinkNetNS(ns, hostCIDR, nsCIDR string) (func(), error) {
	host, peer := "fsh-"+shortName(ns), "fsn-"+shortName(ns)
	steps := [][]string{
		{"ip", "link", "add", host, "type", "veth", "peer", "name", peer, "netns", ns},
		{"ip", "addr", "add", hostCIDR, "dev", host},
		{"ip", "link", "set", host, "up"},
		{"ip", "netns", "exec", ns, "ip", "addr", "add", nsCIDR, "dev", peer},
		{"ip", "netns", "exec", ns, "ip", "link", "set", peer, "up"},
	}
	remove := func() { _ = exec.Command("ip", "link", "del", host).Run() }
	remove() // one a killed run left
	for _, s := range steps {
		if out, err := exec.Command(s[0], s[1:]...).CombinedOutput(); err != nil {
			remove()
			return nil, fmt.Errorf("%s: %w: %s", strings.Join(s, " "), err, out)
		}
	}
	return remove, nil
}

// shortName fits ns into an interface name (15 bytes with the prefix).
func shortName(ns string) string {
	h := fnv.New32a()
	h.Write([]byte(ns))
	return strconv.FormatUint(uint64(h.Sum32()), 36)
}
