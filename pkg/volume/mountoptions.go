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
	refuseRedirect   refusal = "the server is the one in the source parameter, and options that send the mount to another address are not allowed"
	refuseDowngrade  refusal = "the driver always logs in with the secret's credentials, never as a guest, anonymously or with a weak hash"
)

// refusedKeys are option keys (compared in lower case, with or without a
// value) that are refused whatever their value. Options reach mount.cifs and
// mount.nfs from three places (StorageClass mountOptions, the mountOptions
// parameter, a static PV's volume context), none of which is treated as a
// secret by the CO: a password there ends up in the PV object, events and
// logs, and an address there makes the node log in to a server nobody chose
// as the source.
//
// Decisions on the borderline cases:
//   - clientaddr (NFSv4) is allowed: it only names the node's own address for
//     server callbacks and does not change which server is mounted.
//   - srcaddr (CIFS) is allowed for the same reason: it picks the local
//     address the connection leaves from.
//   - mounthost and mountaddr (NFSv3) are refused: they send the MOUNT request
//     to another host, so the source would no longer say which server a
//     volume's file handle comes from.
//   - unc (CIFS) is refused: it names a share on another server than the
//     source's.
//   - guest (CIFS) is refused: it logs in as the guest account without a
//     password, bypassing the node-stage secret, which is a downgrade of the
//     same kind as sec=none.
var refusedKeys = map[string]refusal{
	"password":    refuseCredential,
	"pass":        refuseCredential,
	"password2":   refuseCredential, // CIFS multiuser key rotation
	"credentials": refuseCredential,
	"cred":        refuseCredential,
	"user":        refuseCredential,
	"username":    refuseCredential,
	"domain":      refuseCredential,
	"dom":         refuseCredential,
	"workgroup":   refuseCredential,
	"addr":        refuseRedirect, // CIFS and NFS: the server's address, overriding the source's host
	"ip":          refuseRedirect, // CIFS alias of addr
	"unc":         refuseRedirect,
	"mounthost":   refuseRedirect,
	"mountaddr":   refuseRedirect,
	"guest":       refuseDowngrade,
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

// RedactMountOptions returns opts with the value of every refused option
// replaced by "***", for logging: an option that is refused may hold a
// password. Elements keep their comma-joined shape.
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
	if !hasValue {
		return o
	}
	key := normalKey(k)
	if _, ok := refusedKeys[key]; ok || looksSecret(key) {
		return k + "=***"
	}
	return o
}

// looksSecret catches misspelt credential keys (passwd=, secret=) that mount
// would refuse as unknown, but only after they reached a log line.
func looksSecret(key string) bool {
	for _, w := range []string{"pass", "cred", "secret"} {
		if strings.Contains(key, w) {
			return true
		}
	}
	return false
}

// refused reports whether one option is refused, and the name to show for it:
// the key, or sec=FLAVOUR for a refused flavour (a fixed word, not a secret).
func refused(o string) (string, refusal, bool) {
	k, v, _ := strings.Cut(o, "=")
	key := normalKey(k)
	if r, ok := refusedKeys[key]; ok {
		return key, r, true
	}
	if key == "sec" {
		for _, f := range strings.Split(v, ":") {
			if f = strings.ToLower(strings.TrimSpace(f)); refusedSec[f] {
				return "sec=" + f, refuseDowngrade, true
			}
		}
	}
	return "", "", false
}

func normalKey(k string) string {
	return strings.ToLower(strings.TrimSpace(k))
}

func splitOptions(opts []string) []string {
	var out []string
	for _, o := range opts {
		out = append(out, strings.Split(o, ",")...)
	}
	return out
}
