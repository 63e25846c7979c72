package mounter

import (
	"errors"
	"strings"
	"syscall"
)

// unreachableText are what mount.nfs, mount.cifs and Windows' SMB client
// say when the server cannot be reached at an address, as opposed to it
// answering "no" (access denied, no such export or share), which another
// address of the same server would answer too.
var unreachableText = []string{
	"connection refused",
	"no route to host",
	"network is unreachable",
	"connection timed out",
	"host is down",
	"could not connect to",            // mount.cifs: "mount error(111): could not connect to ..."
	"unable to find suitable address", // mount.cifs, after every address of the name failed
	"failed to resolve server",        // mount.nfs, a name that does not resolve
	"could not resolve address",       // mount.cifs
	"name or service not known",
	"mount error(101)", "mount error(110)", "mount error(111)", "mount error(112)", "mount error(113)",
	"the network path was not found", // Windows, ERROR_BAD_NETPATH
	"the remote computer refused the network connection",
	"the network location cannot be reached",
}

// Unreachable reports whether a failed Stage says the file server could not
// be reached at the source's address, so that another address of the same
// server (a source alias may list several) is worth trying.
func Unreachable(err error) bool {
	if err == nil {
		return false
	}
	for _, e := range []error{syscall.ECONNREFUSED, syscall.EHOSTUNREACH, syscall.ENETUNREACH, syscall.ETIMEDOUT} {
		if errors.Is(err, e) {
			return true
		}
	}
	msg := strings.ToLower(err.Error())
	for _, t := range unreachableText {
		if strings.Contains(msg, t) {
			return true
		}
	}
	return false
}
