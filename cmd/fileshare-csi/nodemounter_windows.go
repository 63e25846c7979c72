//go:build windows

package main

import (
	"flag"

	"github.com/fileshare-csi/fileshare-csi/pkg/mounter"
)

var windowsHostProcess = flag.Bool("windows-host-process", false,
	"node: run as a HostProcess pod, mapping shares with PowerShell on the node itself instead of through csi-proxy")

// newNodeMounter picks how the Windows node plugin reaches the node.
func newNodeMounter() (mounter.Mounter, error) {
	if *windowsHostProcess {
		return mounter.NewHostProcess(), nil
	}
	return mounter.NewCSIProxy()
}
