package volume

import (
	"fmt"
	"strings"
)

// refusal says why an option is refused, in words that tell the user what to
// do instead.
type refusal string

const (
	refuseCredential refusal = "credentials belong in the provisioner and node-stage secret (username, password, domain), never in mount options"
	refuseRedirect   refusal = "the server, share and directory are the ones in the source parameter (and subDir), and options that send the mount to another address, share or path are not allowed"
	refusePort       refusal = "the port is the source's: write it there (smb://HOST:PORT/SHARE, nfs://HOST:PORT/EXPORT)"
	refuseIdentity   refusal = "the node logs in as the secret's user, never with another identity of the node (its Kerberos tickets, its NetBIOS names)"
	refuseDowngrade  refusal = "the driver always logs in with the secret's credentials, never as a guest, anonymously or with a weak hash"
	refuseParser     refusal = "sep changes how the kernel splits the options that follow, so they could not be checked"
	refuseMountTool  refusal = "options of mount(8) itself (bind, move, remount, propagation, loop, helpers, x-* and X-mount.*) change what it does with the source and the node's paths: the driver makes the mount, and only the file system's options reach it"
)

// refusedKeys are option keys that are refused whatever their value, from
// mount.cifs(8) and nfs(5) (and the kernel parsers behind them): every key
// that names a host, a port, a share, a path or an identity, or lowers the
// login. Options reach mount.cifs and mount.nfs from four places, each
// checked here: StorageClass mountOptions and a PV's mountOptions (the
// capability's mount flags), the mountOptions parameter or volume attribute
// (a static PV's, or a pod's inline volumeAttributes). None of them is
// treated as a secret by the CO, and the node cannot tell an administrator's
// StorageClass from a tenant's PV or pod: so these keys are refused
// everywhere, the administrator's StorageClass included. An administrator
// loses nothing by that: the server, port, share and directory go in the
// source, where the controller, the inline allow-list and the node all read
// them, and the credentials in the secret.
//
// Decisions on the borderline cases:
//   - unc, target, path (mount.cifs aliases of one option), prefixpath and
//     source (the kernel takes fsconfig's "source" as the UNC, overriding the
//     device mount.cifs passes) name another server, share or directory:
//     mount.cifs copies host, share and prefix path out of them, so
//     path=//h/share/sub/../../private is the same as another source.
//   - port (CIFS and NFS) and mountport (NFSv3) would override the port of
//     a source an inline allow-list names with its port.
//   - clientaddr (NFSv4) is refused (it was allowed before issue #27): for
//     NFSv4.0 it is the address the server opens its callback connection
//     to, so a tenant could make the file server connect wherever it
//     likes, and it names the client in its NFSv4 client ID. The kernel
//     finds the node's own address by itself; nothing needs it set.
//   - srcaddr (CIFS) is refused too (also allowed before): it picks which of
//     the node's addresses the connection leaves from, and a server that
//     trusts clients by address (Samba's hosts allow, an export list) would
//     see the node with an address the administrator may keep for another
//     network. The kernel picks the route's address by itself.
//   - mounthost, mountaddr (NFSv3) send the MOUNT request to another host;
//     proxy is refused as the issue lists it, whatever the kernel makes of it.
//   - cruid and upcall_target (CIFS) choose whose Kerberos tickets and keys
//     the kernel's upcall uses; netbiosname, servern and servernetbiosname
//     name the node and the server on port 139. The login is the secret's.
//   - guest (CIFS) logs in as the guest account without a password,
//     bypassing the node-stage secret, a downgrade like sec=none.
//   - sep (CIFS) sets another separator for the rest of the option string:
//     options it hides from this check would reach the kernel unchecked.
//   - mount(8)'s own options are not the file system's, and libmount acts
//     on them before any helper runs: bind and rbind make the mount a bind
//     of the node path the source names (//host/share as /host/share:
//     libmount then never calls mount.cifs), move and remount act on
//     another mount, the propagation flags change the staging mount's,
//     loop, offset and sizelimit set up a loop device, helper and uhelper
//     pick the umount helper, and the x-* and X-mount.* options
//     (X-mount.subdir, X-mount.mkdir, X-mount.owner, ...) make mount(8)
//     walk, create or chown node paths (X-mount.subdir follows links; a
//     bind with X-mount.subdir=../../.. bound the node's /). None of them
//     is needed to mount a file share, so all are refused.
//
// How keys are compared: mount.cifs and both kernel parsers (fs_parse)
// match keys exactly, case-sensitively, with no trimming; a key in another
// case or with spaces or quotes around it is an unknown key there, which
// fails the mount. It is refused here all the same (lower case, spaces and
// quotes trimmed), so no spelling the tools might ever accept slips
// through. The kernel's "no" prefix applies only to flags declared with it,
// none of which is here; "no" followed by a refused key is refused anyway.
// The kernel CIFS parser joins "a,,b" into one option (an escaped comma in
// a password) and mount.cifs splits it: options are split here at every
// comma, so every key either of them could see is checked.
var refusedKeys = map[string]refusal{
	"password":          refuseCredential,
	"pass":              refuseCredential,
	"password2":         refuseCredential, // CIFS multiuser key rotation
	"credentials":       refuseCredential,
	"cred":              refuseCredential,
	"user":              refuseCredential,
	"username":          refuseCredential,
	"domain":            refuseCredential,
	"dom":               refuseCredential,
	"workgroup":         refuseCredential,
	"addr":              refuseRedirect, // CIFS and NFS: the server's address, overriding the source's host
	"ip":                refuseRedirect, // CIFS alias of addr
	"unc":               refuseRedirect,
	"target":            refuseRedirect, // mount.cifs alias of unc
	"path":              refuseRedirect, // mount.cifs alias of unc
	"prefixpath":        refuseRedirect,
	"source":            refuseRedirect,
	"mounthost":         refuseRedirect,
	"mountaddr":         refuseRedirect,
	"clientaddr":        refuseRedirect,
	"srcaddr":           refuseRedirect,
	"proxy":             refuseRedirect,
	"port":              refusePort,
	"mountport":         refusePort,
	"cruid":             refuseIdentity,
	"upcall_target":     refuseIdentity,
	"netbiosname":       refuseIdentity,
	"servern":           refuseIdentity,
	"servernetbiosname": refuseIdentity,
	"multiuser":         refuseIdentity, // each uid touching the mount logs in with what the node holds for it (another principal's --krb5-cache-uids cache), not the secret's user
	"guest":             refuseDowngrade,
	"sep":               refuseParser,
	"bind":              refuseMountTool,
	"rbind":             refuseMountTool,
	"move":              refuseMountTool,
	"remount":           refuseMountTool,
	"shared":            refuseMountTool,
	"rshared":           refuseMountTool,
	"slave":             refuseMountTool,
	"rslave":            refuseMountTool,
	"private":           refuseMountTool,
	"rprivate":          refuseMountTool,
	"unbindable":        refuseMountTool,
	"runbindable":       refuseMountTool,
	"loop":              refuseMountTool,
	"offset":            refuseMountTool,
	"sizelimit":         refuseMountTool,
	"helper":            refuseMountTool,
	"uhelper":           refuseMountTool,
}

// refusedSec are sec= flavours that are refused: none logs in anonymously
// (CIFS null session, NFS AUTH_NONE) instead of as the secret's user; ntlm,
// ntlmi and lanman send the password as a hash that can be cracked offline.
// NFS accepts a colon-separated list of flavours, so each one is checked.
var refusedSec = map[string]bool{"none": true, "ntlm": true, "ntlmi": true, "lanman": true}

// CheckMountOptions refuses options that carry credentials, send the mount to
// another server, or log in without the secret's credentials. Each element
// may itself be a comma-separated list, as StorageClass mountOptions entries
// can be. Keys are compared case-insensitively and every option is checked;
// the error names each refused key but never a value, since the value may be
// a password.
func CheckMountOptions(opts []string) error {
	var bad []string
	var why []refusal
	seen := map[refusal]bool{}
	for _, o := range splitOptions(opts) {
		name, r, ok := refused(o)
		if !ok {
			continue
		}
		bad = append(bad, fmt.Sprintf("%q", name))
		if !seen[r] {
			seen[r] = true
			why = append(why, r)
		}
	}
	if len(bad) == 0 {
		return nil
	}
	noun := "mount option"
	if len(bad) > 1 {
		noun = "mount options"
	}
	reasons := make([]string, len(why))
	for i, r := range why {
		reasons[i] = string(r)
	}
	return fmt.Errorf("%s %s refused: %s", noun, strings.Join(bad, ", "), strings.Join(reasons, "; "))
}

// RedactMountOptions returns opts for a log line or an error: every
// option's key, but a value only for the keys in shownValues, known to hold
// nothing secret; any other value is "***". A word without a value is shown
// only when it is a known flag: a password with a comma in it, or one pasted
// on its own, would otherwise show up as a flag. Elements keep their
// comma-joined shape.
func RedactMountOptions(opts []string) []string {
	if opts == nil {
		return nil
	}
	out := make([]string, len(opts))
	for i, o := range opts {
		out[i] = RedactMountOptionList(o)
	}
	return out
}

// RedactMountOptionList is RedactMountOptions for one comma-separated list.
func RedactMountOptionList(s string) string {
	parts := strings.Split(s, ",")
	for i, o := range parts {
		parts[i] = redactOption(o)
	}
	return strings.Join(parts, ",")
}

func redactOption(o string) string {
	k, _, hasValue := strings.Cut(o, "=")
	key := normalKey(k)
	switch {
	case !hasValue && (knownFlags[key] || refusedKeys[key] != "" || key == ""):
		return o
	case !hasValue:
		return "***"
	case shownValues[key]:
		return o
	}
	return k + "=***"
}

// shownValues are the option keys whose values the log shows: versions,
// timeouts, sizes, modes, owners and cache settings of mount.nfs and
// mount.cifs. A key not listed here has its value masked, whatever it is:
// a misspelt password key (passwd=) is logged as passwd=***.
var shownValues = setOf(
	"vers", "nfsvers", "minorversion", "sec", "proto", "mountproto", "mountvers",
	"timeo", "retrans", "retry", "rsize", "wsize", "bsize", "rasize", "namlen",
	"actimeo", "acregmin", "acregmax", "acdirmin", "acdirmax", "closetimeo",
	"lookupcache", "local_lock", "nconnect", "max_connect", "xprtsec", "write",
	"cache", "dir_mode", "file_mode", "uid", "gid", "backupuid", "backupgid",
	"iocharset", "echo_interval", "max_credits", "handletimeout", "max_channels",
	"snapshot", "context", "fscontext", "defcontext", "rootcontext",
)

// knownFlags are value-less options the log shows as they are.
var knownFlags = setOf(
	"ro", "rw", "hard", "soft", "softerr", "softreval", "nosoftreval", "intr", "nointr",
	"lock", "nolock", "ac", "noac", "cto", "nocto", "acl", "noacl", "rdirplus", "nordirplus",
	"sharecache", "nosharecache", "resvport", "noresvport", "fsc", "nofsc", "tcp", "udp", "rdma",
	"bg", "fg", "sync", "async", "atime", "noatime", "diratime", "nodiratime", "relatime",
	"norelatime", "strictatime", "suid", "nosuid", "dev", "nodev", "exec", "noexec",
	"migration", "nomigration", "trunkdiscovery", "notrunkdiscovery", "sloppy", "defaults",
	"mfsymlinks", "nosharesock", "perm", "noperm", "serverino", "noserverino", "seal",
	"sign", "unix", "nounix", "linux", "nolinux", "posix", "noposix", "brl", "nobrl",
	"forcemand", "nostrictsync", "strictsync", "rwpidforward", "cifsacl", "nocifsacl",
	"nocase", "ignorecase", "nodfs", "multichannel", "nomultichannel", "domainauto",
	"forceuid", "noforceuid", "forcegid", "noforcegid", "setuids", "nosetuids",
	"dynperm", "nodynperm", "mapchars", "nomapchars", "mapposix", "nomapposix",
	"sfu", "nouser_xattr", "user_xattr", "handlecache", "nohandlecache", "persistenthandles",
	"resilienthandles", "noblocksend", "noautotune", "nolease", "rootfs", "witness",
	"compress", "nosparse", "multiuser", "bind", "remount",
)

func setOf(keys ...string) map[string]bool {
	m := make(map[string]bool, len(keys))
	for _, k := range keys {
		m[k] = true
	}
	return m
}

// refused reports whether one option is refused, and the name to show for it:
// the key, or sec=FLAVOUR for a refused flavour (a fixed word, not a secret).
func refused(o string) (string, refusal, bool) {
	k, v, _ := strings.Cut(o, "=")
	key := normalKey(k)
	if r, ok := refusedKeys[key]; ok {
		return key, r, true
	}
	if r, ok := refusedKeys[strings.TrimPrefix(key, "no")]; ok && strings.HasPrefix(key, "no") {
		return key, r, true
	}
	if strings.HasPrefix(key, "x-") {
		return key, refuseMountTool, true
	}
	if looksSecret(key) {
		// No option of mount.cifs or mount.nfs is named like this but the
		// refused ones: a misspelt password key (passwd=, pwd=) would
		// otherwise reach mount's argv, where any process on the node can
		// read it, before mount refuses it as unknown.
		return key, refuseCredential, true
	}
	if key == "sec" {
		for _, f := range strings.Split(v, ":") {
			if f = normalKey(f); refusedSec[f] {
				return "sec=" + f, refuseDowngrade, true
			}
		}
	}
	return "", "", false
}

// normalKey is k in lower case without the spaces and quotes around it (see
// refusedKeys for why more spellings are refused than the tools accept).
func normalKey(k string) string {
	return strings.ToLower(strings.Trim(k, " \t\n\r\v\f\"'`"))
}

func splitOptions(opts []string) []string {
	var out []string
	for _, o := range opts {
		out = append(out, strings.Split(o, ",")...)
	}
	return out
}

// looksSecret catches misspelt credential keys (passwd=, pwd=, secret=).
func looksSecret(key string) bool {
	for _, w := range []string{"pass", "pwd", "cred", "secret"} {
		if strings.Contains(key, w) {
			return true
		}
	}
	return false
}
