package mounter

// What the Linux cifs mount options of a class mean on a Windows node. Like
// windowsnode.go, this has no build tag, so it is tested on Linux.

import (
	"fmt"
	"sort"
	"strings"

	"github.com/fileshare-csi/fileshare-csi/pkg/os/winhost"
	"github.com/fileshare-csi/fileshare-csi/pkg/source"
	"github.com/fileshare-csi/fileshare-csi/pkg/volume"
)

// windowsMapped are the cifs options New-SmbGlobalMapping has a switch for,
// with the same meaning: seal demands encryption, sign demands signing,
// compress asks for compression of the traffic. csi-proxy's v1 API carries
// none of them, so a csi-proxy node refuses them.
var windowsMapped = map[string]func(*winhost.MapOptions){
	"seal":     func(o *winhost.MapOptions) { o.RequirePrivacy = true },
	"sign":     func(o *winhost.MapOptions) { o.RequireIntegrity = true },
	"compress": func(o *winhost.MapOptions) { o.CompressNetworkTraffic = true },
}

// windowsNoOps are cifs options a Windows node accepts and does nothing
// with. Each only shapes how the Linux client shows the share to Linux
// processes (mode bits, owners, inode numbers, the character set, the
// mfsymlinks emulation of links, the POSIX extensions it would ask for):
// a Windows pod sees the share as the server presents it to the mapping's
// user, with its ACLs, whatever these say. Accepting them gives no pod
// more or less access than the server grants, and lets one class, such as
// the quickstart's (dir_mode, file_mode, mfsymlinks), serve Linux and
// Windows pods. Options that change what the client does on the wire or
// what a pod can rely on (locking, caching, timeouts, dialects, read-only)
// are not here: they are refused, since silently dropping them would
// change the behaviour the class asks for.
var windowsNoOps = map[string]bool{
	"dir_mode": true, "file_mode": true, "uid": true, "gid": true,
	"forceuid": true, "noforceuid": true, "forcegid": true, "noforcegid": true,
	"perm": true, "noperm": true, "mfsymlinks": true,
	"serverino": true, "noserverino": true, "iocharset": true,
	"mapchars": true, "nomapchars": true, "mapposix": true, "nomapposix": true,
	"nounix": true, "nolinux": true, "noposix": true, "cifsacl": true, "nocifsacl": true,
	"rw": true,
}

// windowsDialects are the vers= values a Windows node accepts as no-ops.
// Windows negotiates the highest dialect both ends speak (3.1.1 with any
// current server) and has no per-mapping choice; a class that asks for an
// SMB 3 dialect for its Linux kernels gets SMB 3 on Windows too. An older
// dialect (1.0, 2.0, 2.1) is refused: Windows cannot pin it, and a class
// asks for it only for a server that needs it.
var windowsDialects = map[string]bool{"3": true, "3.0": true, "3.02": true, "3.0.2": true, "3.1.1": true, "3.11": true, "default": true}

// windowsRefusals say why some options a Linux class often has are refused
// on Windows, and where their Windows counterpart lives.
var windowsRefusals = map[string]string{
	"nobrl":    "Windows always sends byte-range locks to the server, which enforces them",
	"brl":      "Windows always sends byte-range locks to the server, which enforces them",
	"actimeo":  "Windows caches file and directory information with node-wide settings (Set-SmbClientConfiguration -FileInfoCacheLifetime, -DirectoryCacheLifetime), not per mapping",
	"acregmin": "Windows caches file information with a node-wide setting (Set-SmbClientConfiguration -FileInfoCacheLifetime), not per mapping",
	"acregmax": "Windows caches file information with a node-wide setting (Set-SmbClientConfiguration -FileInfoCacheLifetime), not per mapping",
	"acdirmin": "Windows caches directories with a node-wide setting (Set-SmbClientConfiguration -DirectoryCacheLifetime), not per mapping",
	"acdirmax": "Windows caches directories with a node-wide setting (Set-SmbClientConfiguration -DirectoryCacheLifetime), not per mapping",
	"cache":    "Windows caches with node-wide settings (Set-SmbClientConfiguration), not per mapping",
	"hard":     "Windows reconnects a mapping by itself, with a node-wide timeout (Set-SmbClientConfiguration -SessionTimeout)",
	"soft":     "Windows reconnects a mapping by itself, with a node-wide timeout (Set-SmbClientConfiguration -SessionTimeout)",
	"ro":       "a link cannot be read-only: use readOnly: true in the pod's volumeMounts",
	"vers":     "Windows negotiates the dialect itself (SMB 3.1.1 with current servers) and cannot pin an older one",
}

// windowsMapOptions turns a class's mount options into the options of a new
// global mapping of src. passes says whether the node can hand them over
// (false through csi-proxy). It returns the options accepted as no-ops, for
// the log, and an error wrapping ErrInvalid (InvalidArgument) that names
// every option refused, with why, and lists what a Windows node takes.
// Option values are never shown, but for keys known to hold nothing secret
// (vers=): the credential options were refused before this.
func windowsMapOptions(src source.Source, opts []string, passes bool) (winhost.MapOptions, []string, error) {
	// HostProcess mappings demanded encryption before classes could
	// choose; a class without encryption keeps that.
	m := winhost.MapOptions{RequirePrivacy: src.Encryption == "" || src.Encryption == source.EncryptionRequired}
	var noops, refused []string
	for _, list := range opts {
		for _, o := range strings.Split(list, ",") {
			o = strings.TrimSpace(o)
			if o == "" {
				continue
			}
			k, v, _ := strings.Cut(o, "=")
			key := strings.ToLower(strings.TrimSpace(k))
			shown := fmt.Sprintf("%q", volume.RedactMountOptionList(o))
			switch set, ok := windowsMapped[key]; {
			case ok && !passes:
				refused = append(refused, shown+": csi-proxy's v1 API has no field for it, so the mapping would be made without it (run the plugin in HostProcess mode to have it)")
			case ok:
				if key == "seal" && src.Encryption == source.EncryptionOff {
					refused = append(refused, shown+": it contradicts the class's encryption: off")
					continue
				}
				set(&m)
			case key == "vers" && windowsDialects[strings.TrimSpace(v)]:
				noops = append(noops, o)
			case windowsNoOps[key]:
				noops = append(noops, o)
			case windowsRefusals[key] != "":
				refused = append(refused, shown+": "+windowsRefusals[key])
			default:
				refused = append(refused, shown+": it has no counterpart in a Windows SMB global mapping")
			}
		}
	}
	if len(refused) > 0 {
		noun := "mount option"
		if len(refused) > 1 {
			noun = "mount options"
		}
		return m, nil, fmt.Errorf("%w: %s refused on this Windows node: %s. %s; give Windows pods a StorageClass without it, or run them on Linux nodes",
			ErrInvalid, noun, strings.Join(refused, "; "), windowsTakes(passes))
	}
	return m, noops, nil
}

// windowsTakes lists the options a Windows node takes, for the refusal.
func windowsTakes(passes bool) string {
	var mapped []string
	for k := range windowsMapped {
		mapped = append(mapped, k)
	}
	sort.Strings(mapped)
	var noops []string
	for k := range windowsNoOps {
		noops = append(noops, k)
	}
	sort.Strings(noops)
	var b strings.Builder
	if passes {
		fmt.Fprintf(&b, "This node honours %s", strings.Join(mapped, ", "))
	} else {
		fmt.Fprintf(&b, "This node (csi-proxy mode) honours no option; HostProcess nodes honour %s", strings.Join(mapped, ", "))
	}
	fmt.Fprintf(&b, ", and accepts as no-ops vers=3.x and %s", strings.Join(noops, ", "))
	return b.String()
}

// errNoUser is the refusal of SMB credentials without a user: the
// request's to fix (InvalidArgument), as on Linux.
var errNoUser = fmt.Errorf("%w: SMB volumes need a node-stage secret with username and password (or, for auth krb5 and negotiate, principal and password)", ErrInvalid)
