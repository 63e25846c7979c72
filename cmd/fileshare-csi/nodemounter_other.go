//go:build !windows

package main

import "github.com/fileshare-csi/fileshare-csi/pkg/mounter"

// newNodeMounter returns this OS's mounter. --windows-host-process exists
// only in Windows builds.
func newNodeMounter() (mounter.Mounter, error) {
	return mounter.New(), nil
}
