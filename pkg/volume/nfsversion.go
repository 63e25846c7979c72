package volume

import (
	"fmt"
	"strings"

	"github.com/fileshare-csi/fileshare-csi/pkg/source"
)

// NFSVersionOptions returns opts with the version a pinned NFS source names
// (vers=3 or vers=4.1) added when no vers or nfsvers option says one, so
// the node mounts with the version the controller provisioned with. An
// option naming another major version is an error: a class pinned to 4.1 is
// one whose server may offer nothing else, and one pinned to 3 may have v4
// turned off. A minor version within v4 (vers=4.2, vers=4 with
// minorversion=1) is the class's choice and is kept. Unpinned sources and
// SMB get opts back as they are.
func NFSVersionOptions(src source.Source, opts []string) ([]string, error) {
	if src.Protocol != source.NFS || src.Version == "" {
		return opts, nil
	}
	for _, o := range splitOptions(opts) {
		k, v, ok := strings.Cut(strings.TrimSpace(o), "=")
		k = strings.ToLower(k)
		if !ok || k != "vers" && k != "nfsvers" {
			continue
		}
		major, _, _ := strings.Cut(v, ".")
		want, _, _ := strings.Cut(src.Version, ".")
		if major != want {
			return nil, fmt.Errorf("mount option %s=%s conflicts with the source's vers=%s: the controller provisions with NFS %s, so mount with it too (drop the option or pin the source to the same version)",
				k, v, src.Version, src.Version)
		}
		return opts, nil
	}
	return append(append([]string(nil), opts...), "vers="+src.Version), nil
}
