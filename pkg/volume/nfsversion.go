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
	want, _, _ := strings.Cut(src.Version, ".")
	named := false
	for _, o := range splitOptions(opts) {
		k, v, ok := versionOption(o)
		if !ok {
			continue
		}
		if major, _, _ := strings.Cut(v, "."); major != want {
			return nil, fmt.Errorf("mount option %s conflicts with the source's vers=%s: the controller provisions with NFS %s, so mount with it too (drop the option or pin the source to the same version)",
				k, src.Version, src.Version)
		}
		named = true // every one is checked: "vers=4.1,v3" names two
	}
	if named {
		return opts, nil
	}
	return append(append([]string(nil), opts...), "vers="+src.Version), nil
}

// versionOption reads an option of nfs(5) that names a version: vers=N or
// nfsvers=N, or the short flags v3, v4, v4.1, ... It answers the option as
// written (for an error) and the version.
func versionOption(o string) (opt, version string, ok bool) {
	o = strings.TrimSpace(o)
	k, v, hasValue := strings.Cut(o, "=")
	switch lk := strings.ToLower(k); {
	case hasValue && (lk == "vers" || lk == "nfsvers"):
		return k + "=" + v, v, true
	case !hasValue && len(lk) > 1 && lk[0] == 'v' && lk[1] >= '0' && lk[1] <= '9':
		return o, lk[1:], true
	}
	return "", "", false
}
