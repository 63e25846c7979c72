//go:build unix

package oncrpc

import (
	"syscall"
)

// reuseAddr lets a connection bind a local port whose last connection is
// still in TIME_WAIT (a minute after it closed). NFS clients bind reserved
// ports (600-1023) and a busy controller cycles through them: without it, a
// burst of sessions after a test run or a restart finds every one taken.
// The kernel still refuses a port whose TIME_WAIT is with the same server
// port, unless it may safely reuse it (net.ipv4.tcp_tw_reuse).
func reuseAddr(_, _ string, c syscall.RawConn) error {
	var serr error
	err := c.Control(func(fd uintptr) {
		serr = syscall.SetsockoptInt(int(fd), syscall.SOL_SOCKET, syscall.SO_REUSEADDR, 1)
	})
	if err != nil {
		return err
	}
	return serr
}
