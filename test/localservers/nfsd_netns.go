//go:build linux

package localservers

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"sync/atomic"
)

// nfsdIn runs a script in network namespace ns with the kernel NFS server
// control file system of that namespace (ctl, see startKernelNFSv4Only) on
// /proc/fs/nfsd, where nfs-utils look for it: `ip netns exec` gives each
// command a mount namespace of its own. An empty /run hides rpcbind's unix
// socket, which crosses network namespaces: through it, this server's
// mountd and nfsd would register with, and on stopping unregister NFS from,
// the suite's own rpcbind, and the suite's NFSv3 would vanish.
func nfsdIn(ns, ctl, script string) *exec.Cmd {
	return exec.Command("ip", "netns", "exec", ns, "sh", "-ec",
		"mount -t tmpfs tmpfs /run\nmount --bind "+ctl+" /proc/fs/nfsd\n"+script)
}

var nextFSID atomic.Int64

// startKernelNFSv4Only starts a second kernel NFS server, NFSv4 alone, in
// the network namespace o.netns: version 3 off (this kernel has no 2), no rpcbind, and an
// rpc.mountd that only answers the kernel's export look-ups (with v2 and
// v3 off it opens no port and registers nothing), as `rpc.nfsd
// --no-nfs-version 3` servers run. The suite's own nfsd keeps serving
// NFSv3 and v4 in the VM's main network namespace.
func startKernelNFSv4Only(ctx context.Context, s *Server, o options) (*Server, error) {
	logf, err := os.Create(s.LogPath)
	if err != nil {
		return nil, err
	}
	s.Name, s.Port = "nfsd-v4only", o.v4only
	port := strconv.Itoa(o.v4only)
	// nfsd keeps one server per network namespace and stops it when the
	// last mount of that namespace's control file system goes: one made
	// inside `ip netns exec` would go with the command. This one, made from
	// the namespace but in the test's own mount namespace, lasts until Stop.
	ctl := filepath.Join(s.Dir, "nfsdfs")
	if err := os.MkdirAll(ctl, 0o755); err != nil {
		return nil, err
	}
	if out, err := exec.Command("nsenter", "--net=/run/netns/"+o.netns, "mount", "-t", "nfsd", "nfsd", ctl).CombinedOutput(); err != nil {
		return nil, fmt.Errorf("mount the nfsd control file system of %s: %w: %s", o.netns, err, out)
	}
	// Every export is in the one export table all mountds read, the
	// suite's own as fsid 1: each server's needs an fsid of its own, or
	// one server's file handles could lead into another's export.
	fsid := 100 + nextFSID.Add(1)
	exports := []string{"127.0.0.1:" + s.Data}
	for _, c := range o.clients {
		exports = append(exports, c+":"+s.Data)
	}
	script := "for f in nfsv4gracetime nfsv4leasetime; do echo 10 > /proc/fs/nfsd/$f; done\n"
	for _, e := range exports {
		script += fmt.Sprintf("exportfs -o rw,no_root_squash,insecure,no_subtree_check,fsid=%d %s\n", fsid, e)
	}
	setup := nfsdIn(o.netns, ctl, script)
	setup.Stdout, setup.Stderr = logf, logf
	if err := setup.Run(); err != nil {
		_ = exec.Command("umount", ctl).Run()
		return nil, fmt.Errorf("set up nfsd in %s: %w\n%s", o.netns, err, s.Log())
	}
	mountd := nfsdIn(o.netns, ctl, "exec rpc.mountd --foreground --no-nfs-version 2 --no-nfs-version 3")
	mountd.Stdout, mountd.Stderr = logf, logf
	mountd.SysProcAttr = ownProcessGroup()
	if err := mountd.Start(); err != nil {
		_ = exec.Command("umount", ctl).Run()
		return nil, fmt.Errorf("start rpc.mountd in %s: %w", o.netns, err)
	}
	s.extra = append(s.extra, mountd)
	run := func(script string) error {
		cmd := nfsdIn(o.netns, ctl, script)
		cmd.Stdout, cmd.Stderr = logf, logf
		if err := cmd.Run(); err != nil {
			return fmt.Errorf("in %s: %s: %w\n%s", o.netns, script, err, s.Log())
		}
		return nil
	}
	s.up = func(ctx context.Context) error {
		if err := run("rpc.nfsd --no-nfs-version 3 --no-udp --port " + port + " 4"); err != nil {
			return err
		}
		return waitListeningIn(ctx, o.netns, o.v4only, mountd)
	}
	s.down = func() error { return run("rpc.nfsd 0") }
	s.stop = func() {
		_ = run("rpc.nfsd 0")
		for _, e := range exports {
			_ = run("exportfs -u " + e)
		}
		_ = exec.Command("umount", ctl).Run()
	}
	if err := s.up(ctx); err != nil {
		s.Stop()
		return nil, err
	}
	return s, nil
}
