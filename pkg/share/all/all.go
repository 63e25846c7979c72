// Package all registers every protocol client of pkg/share with share.Dial:
// a binary or test that dials shares imports it for its side effect.
//
//	import _ "github.com/fileshare-csi/fileshare-csi/pkg/share/all"
package all

import (
	// NFSv3 (nfs3 registers NFSv4.1 through its import of nfs4 as well,
	// which it needs for server-side copies).
	_ "github.com/fileshare-csi/fileshare-csi/pkg/share/nfs3"
	_ "github.com/fileshare-csi/fileshare-csi/pkg/share/nfs4"
	_ "github.com/fileshare-csi/fileshare-csi/pkg/share/smb"
)
