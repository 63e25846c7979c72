//go:build windows

package mounter

import (
	"github.com/fileshare-csi/fileshare-csi/pkg/os/csiproxy"
	"github.com/fileshare-csi/fileshare-csi/pkg/os/hostprocess"
	"github.com/fileshare-csi/fileshare-csi/pkg/os/powershell"
)

// NewCSIProxy returns the mounter of a node plugin in an ordinary Windows
// pod: csi-proxy on the node does the privileged work, over the named pipes
// mounted into the pod.
func NewCSIProxy() (Mounter, error) {
	c, err := csiproxy.Dial()
	if err != nil {
		return nil, err
	}
	return NewWindows(c), nil
}

// NewHostProcess returns the mounter of a node plugin in a HostProcess pod,
// which runs on the node as SYSTEM and needs no csi-proxy.
func NewHostProcess() Mounter {
	return NewWindows(hostprocess.New(powershell.NewRunner(powershell.DefaultConcurrency)))
}
