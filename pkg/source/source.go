// Package source parses the `source` parameter that names a file share: where
// the server is, which protocol it speaks, and the base directory under which
// volumes are created.
package source

import (
	"errors"
	"fmt"
	"net"
	"strconv"
	"strings"
	"unicode"
)

// Protocol is the file-sharing protocol of a source.
type Protocol string

const (
	NFS Protocol = "nfs"
	SMB Protocol = "smb"
)

// Source is a parsed, validated share location.
//
// For NFS, Export is the absolute path that is mounted (MOUNT protocol path,
// e.g. "/srv/share/base"); Share is empty. For SMB, Share is the share name
// and Base the directory inside it ("" for the share root), slash-separated.
type Source struct {
	Protocol Protocol
	Host     string // without brackets, even for IPv6
	Port     int    // 0 means the protocol default
	Export   string // NFS only
	Share    string // SMB only
	Base     string // SMB only
}

// Parse accepts nfs://HOST[:PORT]/EXPORT[/BASE], smb://HOST[:PORT]/SHARE[/BASE],
// HOST:/EXPORT[/BASE] (NFS) and //HOST/SHARE[/BASE] or \\HOST\SHARE[\BASE] (SMB).
// IPv6 hosts go in brackets.
func Parse(s string) (Source, error) {
	if s == "" {
		return Source{}, errors.New("source is empty: set it to nfs://HOST/EXPORT or smb://HOST/SHARE")
	}
	if i := strings.IndexFunc(s, func(r rune) bool { return unicode.IsControl(r) || unicode.IsSpace(r) }); i >= 0 {
		return Source{}, fmt.Errorf("source %q contains a space or control character at byte %d", s, i)
	}
	lower := strings.ToLower(s)
	switch {
	case strings.HasPrefix(lower, "nfs://"):
		return parseURL(NFS, s[len("nfs://"):], s)
	case strings.HasPrefix(lower, "smb://"):
		return parseURL(SMB, s[len("smb://"):], s)
	case strings.HasPrefix(lower, "cifs://"):
		return parseURL(SMB, s[len("cifs://"):], s)
	case strings.HasPrefix(s, `\\`):
		return parseURL(SMB, strings.ReplaceAll(s[2:], `\`, "/"), s)
	case strings.HasPrefix(s, "//"):
		return parseURL(SMB, s[2:], s)
	case strings.Contains(s, "://"):
		return Source{}, fmt.Errorf("source %q: unsupported scheme, use nfs:// or smb://", s)
	}
	// HOST:/EXPORT, the form of fstab and mount(8).
	i := strings.Index(s, ":/")
	if i <= 0 {
		return Source{}, fmt.Errorf("source %q: expected nfs://HOST/EXPORT, HOST:/EXPORT, smb://HOST/SHARE or //HOST/SHARE", s)
	}
	host, err := parseHost(s[:i], s)
	if err != nil {
		return Source{}, err
	}
	return finish(Source{Protocol: NFS, Host: host}, s[i+1:], s)
}

func parseURL(p Protocol, rest, orig string) (Source, error) {
	slash := strings.IndexByte(rest, '/')
	if slash < 0 {
		return Source{}, fmt.Errorf("source %q has no path: add /EXPORT (NFS) or /SHARE (SMB) after the host", orig)
	}
	hostport, path := rest[:slash], rest[slash:]
	src := Source{Protocol: p}
	host, port, err := splitHostPort(hostport, orig)
	if err != nil {
		return Source{}, err
	}
	src.Host, src.Port = host, port
	return finish(src, path, orig)
}

func finish(src Source, path, orig string) (Source, error) {
	parts, err := splitPath(path, orig)
	if err != nil {
		return Source{}, err
	}
	if len(parts) == 0 {
		if src.Protocol == NFS {
			return Source{}, fmt.Errorf("source %q: the export path is empty", orig)
		}
		return Source{}, fmt.Errorf("source %q: the share name is empty", orig)
	}
	switch src.Protocol {
	case NFS:
		src.Export = "/" + strings.Join(parts, "/")
	case SMB:
		if strings.ContainsAny(parts[0], `"*:<>?|\`) {
			return Source{}, fmt.Errorf("source %q: share name %q contains a character SMB forbids", orig, parts[0])
		}
		src.Share = parts[0]
		src.Base = strings.Join(parts[1:], "/")
	}
	return src, nil
}

// splitPath cleans a slash path: a trailing slash is fine, but empty, "." and
// ".." components are refused, since they make the base ambiguous.
func splitPath(p, orig string) ([]string, error) {
	p = strings.TrimSuffix(p, "/")
	p = strings.TrimPrefix(p, "/")
	if p == "" {
		return nil, nil
	}
	parts := strings.Split(p, "/")
	for _, c := range parts {
		switch c {
		case "":
			return nil, fmt.Errorf("source %q: the path has an empty component (//)", orig)
		case ".", "..":
			return nil, fmt.Errorf("source %q: the path may not contain %q", orig, c)
		}
	}
	return parts, nil
}

func splitHostPort(hp, orig string) (string, int, error) {
	if hp == "" {
		return "", 0, fmt.Errorf("source %q: the host is empty", orig)
	}
	host, portStr := hp, ""
	if strings.HasPrefix(hp, "[") {
		end := strings.IndexByte(hp, ']')
		if end < 0 {
			return "", 0, fmt.Errorf("source %q: IPv6 host has no closing ]", orig)
		}
		host = hp[:end+1]
		if rest := hp[end+1:]; rest != "" {
			if !strings.HasPrefix(rest, ":") {
				return "", 0, fmt.Errorf("source %q: unexpected %q after the IPv6 host", orig, rest)
			}
			portStr = rest[1:]
		}
	} else if i := strings.LastIndexByte(hp, ':'); i >= 0 {
		host, portStr = hp[:i], hp[i+1:]
	}
	h, err := parseHost(host, orig)
	if err != nil {
		return "", 0, err
	}
	if portStr == "" {
		if strings.HasSuffix(hp, ":") {
			return "", 0, fmt.Errorf("source %q: empty port after ':'", orig)
		}
		return h, 0, nil
	}
	port, err := strconv.Atoi(portStr)
	if err != nil || port < 1 || port > 65535 {
		return "", 0, fmt.Errorf("source %q: port %q is not a number from 1 to 65535", orig, portStr)
	}
	return h, port, nil
}

func parseHost(h, orig string) (string, error) {
	if strings.HasPrefix(h, "[") {
		if !strings.HasSuffix(h, "]") {
			return "", fmt.Errorf("source %q: IPv6 host has no closing ]", orig)
		}
		ip := net.ParseIP(h[1 : len(h)-1])
		if ip == nil || ip.To4() != nil && !strings.Contains(h, ":") {
			return "", fmt.Errorf("source %q: %s is not an IPv6 address", orig, h)
		}
		return ip.String(), nil
	}
	if h == "" {
		return "", fmt.Errorf("source %q: the host is empty", orig)
	}
	if strings.Contains(h, ":") {
		return "", fmt.Errorf("source %q: put the IPv6 address %s in brackets, like [%s]", orig, h, h)
	}
	for _, r := range h {
		if !(r == '.' || r == '-' || r == '_' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z') {
			return "", fmt.Errorf("source %q: host %q contains %q, which no hostname or IP address has", orig, h, r)
		}
	}
	return strings.ToLower(h), nil
}

// HostPort is the host and port for dialing, brackets added for IPv6.
func (s Source) HostPort(defaultPort int) string {
	p := s.Port
	if p == 0 {
		p = defaultPort
	}
	return net.JoinHostPort(s.Host, strconv.Itoa(p))
}

// URLHost is the host as written in a URL or device string (IPv6 bracketed).
func (s Source) URLHost() string {
	if strings.Contains(s.Host, ":") {
		return "[" + s.Host + "]"
	}
	return s.Host
}

// String is the canonical nfs:// or smb:// form; Parse(String()) == s.
func (s Source) String() string {
	hp := s.URLHost()
	if s.Port != 0 {
		hp += ":" + strconv.Itoa(s.Port)
	}
	if s.Protocol == NFS {
		return "nfs://" + hp + s.Export
	}
	p := "smb://" + hp + "/" + s.Share
	if s.Base != "" {
		p += "/" + s.Base
	}
	return p
}

// Device is what mount(8) takes for the directory rel below the base:
// HOST:/EXPORT/rel for NFS, //HOST/SHARE/BASE/rel for CIFS.
func (s Source) Device(rel string) string {
	if s.Protocol == NFS {
		return s.URLHost() + ":" + joinSlash(s.Export, rel)
	}
	return "//" + s.URLHost() + "/" + joinSlash(s.Share, s.Base, rel)
}

func joinSlash(parts ...string) string {
	var out []string
	for _, p := range parts {
		if p = strings.Trim(p, "/"); p != "" {
			out = append(out, p)
		}
	}
	j := strings.Join(out, "/")
	if len(parts) > 0 && strings.HasPrefix(parts[0], "/") {
		return "/" + j
	}
	return j
}
