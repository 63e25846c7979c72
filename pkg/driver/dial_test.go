package driver

import (
	"testing"

	"github.com/fileshare-csi/fileshare-csi/pkg/share"
	"github.com/fileshare-csi/fileshare-csi/pkg/source"
)

// The driver dials shares through share.Dial, which reaches only the
// protocol clients some import registered: every protocol and NFS version a
// class can name must have one wherever the driver is built in.
func TestDialReachesEveryProtocol(t *testing.T) {
	for _, k := range []struct {
		proto   source.Protocol
		version string
	}{{source.NFS, source.NFSv3}, {source.NFS, source.NFSv41}, {source.SMB, ""}} {
		if !share.Registered(k.proto, k.version) {
			t.Errorf("no %s %q client registered: import pkg/share/all", k.proto, k.version)
		}
	}
}
