// Package winpath handles Windows paths on any OS. The Windows node plugin's
// path logic lives here rather than in path/filepath, which on Linux knows
// only slashes, so that the logic builds and is tested on Linux too.
package winpath

import (
	"fmt"
	"strings"
)

// Long-path and NT-namespace prefixes a link target may carry: csi-proxy
// writes `\\?\UNC\host\share\...` into the links it creates, and Readlink
// may hand back `\??\UNC\...`. They name the same place as `\\host\share\...`.
var uncPrefixes = []string{`\\?\UNC\`, `\??\UNC\`}
var localPrefixes = []string{`\\?\`, `\??\`}

// Clean turns slashes into backslashes, strips the long-path prefixes and
// drops trailing separators, keeping the one a drive root needs (`C:\`).
// Case is kept: Windows preserves it even where it ignores it.
func Clean(p string) string {
	p = strings.ReplaceAll(p, "/", `\`)
	for _, pre := range uncPrefixes {
		if hasPrefixFold(p, pre) {
			p = `\\` + p[len(pre):]
			break
		}
	}
	for _, pre := range localPrefixes {
		if strings.HasPrefix(p, pre) {
			p = p[len(pre):]
			break
		}
	}
	unc := strings.HasPrefix(p, `\\`)
	// Collapse repeated separators after the UNC lead-in.
	body := p
	if unc {
		body = p[2:]
	}
	for strings.Contains(body, `\\`) {
		body = strings.ReplaceAll(body, `\\`, `\`)
	}
	body = strings.TrimRight(body, `\`)
	if unc {
		return `\\` + body
	}
	if len(body) == 2 && body[1] == ':' {
		return body + `\`
	}
	return body
}

func hasPrefixFold(s, prefix string) bool {
	return len(s) >= len(prefix) && strings.EqualFold(s[:len(prefix)], prefix)
}

// Equal reports whether a and b name the same path, ignoring case, separator
// style, long-path prefixes and trailing separators.
func Equal(a, b string) bool {
	return strings.EqualFold(Clean(a), Clean(b))
}

// Within reports whether p is dir or lies below it.
func Within(p, dir string) bool {
	p, dir = strings.ToLower(Clean(p)), strings.ToLower(Clean(dir))
	return p == dir || strings.HasPrefix(p, strings.TrimSuffix(dir, `\`)+`\`)
}

// Join joins non-empty elements with backslashes and cleans the result.
// Slash-separated elements (a share's base directory, a volume's subDir) come
// out with backslashes.
func Join(elem ...string) string {
	var parts []string
	for _, e := range elem {
		if e != "" {
			parts = append(parts, e)
		}
	}
	if len(parts) == 0 {
		return ""
	}
	return Clean(strings.Join(parts, `\`))
}

// Dir is the parent of p, or p itself for a drive root or a UNC share root.
func Dir(p string) string {
	p = Clean(p)
	if IsUNC(p) {
		if root, err := ShareRoot(p); err == nil && strings.EqualFold(root, p) {
			return p
		}
	}
	i := strings.LastIndexByte(p, '\\')
	switch {
	case i < 0:
		return "."
	case i == 2 && p[1] == ':': // C:\dir
		return p[:3]
	case i == len(p)-1: // C:\
		return p
	}
	return p[:i]
}

// Base is the last element of p.
func Base(p string) string {
	p = Clean(p)
	if i := strings.LastIndexByte(p, '\\'); i >= 0 && i < len(p)-1 {
		return p[i+1:]
	}
	return p
}

// IsUNC reports whether p names a network path, \\host\share\...
func IsUNC(p string) bool {
	return strings.HasPrefix(Clean(p), `\\`)
}

// ShareRoot is the `\\host\share` part of a UNC path: what an SMB global
// mapping covers.
func ShareRoot(p string) (string, error) {
	c := Clean(p)
	if !strings.HasPrefix(c, `\\`) {
		return "", fmt.Errorf("%q is not a UNC path (\\\\host\\share\\...)", p)
	}
	parts := strings.SplitN(c[2:], `\`, 3)
	if len(parts) < 2 || parts[0] == "" || parts[1] == "" {
		return "", fmt.Errorf("%q has no share name after the host", p)
	}
	return `\\` + parts[0] + `\` + parts[1], nil
}

// UNCHost is how a host is written in a UNC path. Windows does not accept
// IPv6 literals there; it has the ipv6-literal.net names for them instead
// (`fd00::5` is `fd00--5.ipv6-literal.net`, a zone `%4` becomes `s4`).
func UNCHost(host string) string {
	if !strings.Contains(host, ":") {
		return host
	}
	h := strings.ReplaceAll(host, ":", "-")
	h = strings.ReplaceAll(h, "%", "s")
	return h + ".ipv6-literal.net"
}

// UNC builds `\\host\share\rel...` from a host, a share name and
// slash- or backslash-separated relative paths.
func UNC(host, share string, rel ...string) string {
	return Join(append([]string{`\\` + UNCHost(host), share}, rel...)...)
}
