//go:build !windows

package main

import "github.com/fileshare-csi/fileshare-csi/pkg/mounter"

// newNodeMounter returns this OS's mounter: mount(8) on Linux, and on an OS
// without a node plugin one that answers FailedPrecondition. Only Windows has
// a choice to make (--windows-host-process, in nodemounter_windows.go).
func newNodeMounter() (mounter.Mounter, error) {
	return mounter.New(), nil
}
