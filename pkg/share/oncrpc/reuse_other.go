//go:build !unix

package oncrpc

import "syscall"

// reuseAddr does nothing where the controller does not run (Windows nodes
// have no NFS controller); see reuse_unix.go.
func reuseAddr(_, _ string, _ syscall.RawConn) error { return nil }
