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
	// Version pins the NFS version the controller speaks and the node
	// mounts with, "3" or "4.1", from ?vers= after the path. Empty means
	// unpinned, which the controller serves with NFSv3 (see DefaultNFSVersion).
	Version string
	// Auth and Encryption are an SMB class's choices, from ?auth= and
	// ?encryption= after the path (or the class parameters of the same
	// names). They live in the source, and so in the volume ID, because
	// DeleteVolume and the node see only the ID and the volume context,
	// never the class: a krb5 volume must never be reached with NTLM.
	// Empty means the default, which leaves the ID of a volume made before
	// they existed unchanged.
	Auth       Auth
	Encryption Encryption
	// next holds further addresses (hosts and ports) of the same share,
	// which a source alias gave (Aliases.Resolve), tried in order when
	// this one cannot be reached (Addresses, TryInOrder). Only the address
	// is kept, so that a source derived from this one (a session root,
	// without the base) has the same further addresses. It is not part of
	// the source's identity: String, volume IDs, session pool keys and
	// locks leave it out, and no string parses into it. A pointer keeps
	// Source comparable.
	next *[]address
}

// Auth is how SMB sessions and mounts log in.
type Auth string

const (
	// AuthNTLM logs in with the Secret's username and password over NTLMv2
	// (the default, and the only way before issue #29).
	AuthNTLM Auth = "ntlm"
	// AuthKrb5 logs in with Kerberos only, never falling back to NTLM.
	AuthKrb5 Auth = "krb5"
	// AuthNegotiate tries Kerberos and falls back to NTLM when the Secret
	// holds no Kerberos identity or the realm cannot give a ticket for the
	// server.
	AuthNegotiate Auth = "negotiate"
)

// Encryption is whether SMB traffic must be encrypted.
type Encryption string

const (
	// EncryptionRequired: the session must be encrypted, or it is refused.
	EncryptionRequired Encryption = "required"
	// EncryptionPreferred: encrypted when the server offers it.
	EncryptionPreferred Encryption = "preferred"
	// EncryptionOff: encryption is not asked for (a server that demands it
	// still gets it).
	EncryptionOff Encryption = "off"
)

// ParseAuth checks an auth value; "" is the default.
func ParseAuth(v string) (Auth, error) {
	switch a := Auth(v); a {
	case "", AuthNTLM, AuthKrb5, AuthNegotiate:
		return a, nil
	}
	return "", fmt.Errorf("auth %q is not one of ntlm, krb5, negotiate", v)
}

// ParseEncryption checks an encryption value; "" is the default.
func ParseEncryption(v string) (Encryption, error) {
	switch e := Encryption(v); e {
	case "", EncryptionRequired, EncryptionPreferred, EncryptionOff:
		return e, nil
	}
	return "", fmt.Errorf("encryption %q is not one of required, preferred, off", v)
}

// EffectiveAuth is the login an SMB source uses.
func (s Source) EffectiveAuth() Auth {
	if s.Auth == "" {
		return AuthNTLM
	}
	return s.Auth
}

// NFS versions a source can pin with ?vers=.
const (
	NFSv3  = "3"
	NFSv41 = "4.1"
)

// DefaultNFSVersion is what the controller speaks to an unpinned NFS
// source. NFSv3 is the path with the long data-safety record (every delete
// guard was proven on it first); NFSv4.1 is opt-in, per class, until its
// client has the same record. Unpinned sources keep the behaviour they had
// before versions could be pinned, and their volume IDs stay the same.
const DefaultNFSVersion = NFSv3

// EffectiveVersion is the NFS version the controller speaks to s.
func (s Source) EffectiveVersion() string {
	if s.Version == "" && s.Protocol == NFS {
		return DefaultNFSVersion
	}
	return s.Version
}

// ErrCredentials is returned for a source with user info (user:password@).
var ErrCredentials = errors.New("credentials do not belong in the source; put them in the secret (username, password, domain)")

// Parse accepts nfs://HOST[:PORT]/EXPORT[/BASE], smb://HOST[:PORT]/SHARE[/BASE],
// HOST:/EXPORT[/BASE] (NFS) and //HOST/SHARE[/BASE] or \\HOST\SHARE[\BASE] (SMB).
// An NFS source may end in ?vers=3 or ?vers=4.1 to pin the version.
// IPv6 hosts go in brackets. User info (smb://user:password@host/share) is
// refused with ErrCredentials, and no error quotes it.
func Parse(s string) (Source, error) {
	p := parser{orig: s, shown: Redact(s)}
	// An @ that is not in the host part (a password with an unescaped /, or
	// an @ in a path) may still sit right after a password: then no part of
	// the source is quoted in full, only its redacted form.
	p.hideParts = p.shown != s
	return p.parse()
}

// Redact returns s with everything between the scheme (or the start) and its
// last @ replaced by ***, so a source with user info can be logged or quoted
// in an error without its password. A source without @ is returned as is.
func Redact(s string) string {
	start := 0
	switch i := strings.Index(s, "://"); {
	case i >= 0:
		start = i + 3
	case strings.HasPrefix(s, "//"), strings.HasPrefix(s, `\\`):
		start = 2
	}
	at := strings.LastIndexByte(s, '@')
	if at < start {
		return s
	}
	return s[:start] + "***" + s[at:]
}

// parser carries what error messages may show of the source being parsed.
type parser struct {
	orig      string
	shown     string // orig without user info
	hideParts bool   // quote no part of orig but shown
}

// q quotes a part of the source for an error message, unless that part may
// hold a password.
func (p parser) q(part string) string {
	if p.hideParts {
		return "***"
	}
	return fmt.Sprintf("%q", part)
}

func (p parser) errorf(format string, args ...any) error {
	return fmt.Errorf("source %q: "+format, append([]any{p.shown}, args...)...)
}

func (p parser) parse() (Source, error) {
	s := p.orig
	if s == "" {
		return Source{}, errors.New("source is empty: set it to nfs://HOST/EXPORT or smb://HOST/SHARE")
	}
	if i := strings.IndexFunc(s, func(r rune) bool { return unicode.IsControl(r) || unicode.IsSpace(r) }); i >= 0 {
		return Source{}, fmt.Errorf("source %q contains a space or control character at byte %d", p.shown, i)
	}
	lower := strings.ToLower(s)
	switch {
	case strings.HasPrefix(lower, "nfs://"):
		return p.parseURL(NFS, s[len("nfs://"):])
	case strings.HasPrefix(lower, "smb://"):
		return p.parseURL(SMB, s[len("smb://"):])
	case strings.HasPrefix(lower, "cifs://"):
		return p.parseURL(SMB, s[len("cifs://"):])
	case strings.HasPrefix(s, `\\`):
		return p.parseURL(SMB, strings.ReplaceAll(s[2:], `\`, "/"))
	case strings.HasPrefix(s, "//"):
		return p.parseURL(SMB, s[2:])
	case strings.Contains(s, "://"):
		return Source{}, p.errorf("unsupported scheme, use nfs:// or smb://")
	}
	// HOST:/EXPORT, the form of fstab and mount(8).
	i := strings.Index(s, ":/")
	if i <= 0 {
		return Source{}, p.errorf("expected nfs://HOST/EXPORT, HOST:/EXPORT, smb://HOST/SHARE or //HOST/SHARE")
	}
	if strings.Contains(s[:i], "@") {
		return Source{}, p.errorf("%w", ErrCredentials)
	}
	host, err := p.parseHost(s[:i])
	if err != nil {
		return Source{}, err
	}
	path, vers, err := p.splitQuery(s[i+1:])
	if err != nil {
		return Source{}, err
	}
	src, err := p.finish(Source{Protocol: NFS, Host: host}, path)
	src.Version = vers
	return src, err
}

// splitQuery takes the ?vers= parameter off an NFS path. A '?' always
// starts it, so an export path cannot hold one: the canonical form puts the
// version there, and a path with a '?' would not survive a round trip.
func (p parser) splitQuery(rest string) (string, string, error) {
	path, query, ok := strings.Cut(rest, "?")
	if !ok {
		return rest, "", nil
	}
	if query == "" {
		return "", "", p.errorf("nothing follows '?': pin the NFS version with ?vers=3 or ?vers=4.1, or leave the '?' out")
	}
	vers := ""
	for _, kv := range strings.Split(query, "&") {
		k, v, _ := strings.Cut(kv, "=")
		switch k {
		case "vers":
		default:
			return "", "", p.errorf("unknown parameter %s after '?': the only one is vers (3 or 4.1)", p.q(k))
		}
		if vers != "" {
			return "", "", p.errorf("vers is given twice")
		}
		switch v {
		case NFSv3, NFSv41:
			vers = v
		case "4", "4.0":
			return "", "", p.errorf("vers=%s: the controller speaks NFSv4.1, not v4.0; use vers=4.1 (or vers=3)", v)
		case "":
			return "", "", p.errorf("vers is empty: use vers=3 or vers=4.1")
		default:
			return "", "", p.errorf("vers=%s is not supported: use vers=3 or vers=4.1", p.q(v))
		}
	}
	return path, vers, nil
}

// splitSMBQuery takes ?auth= and ?encryption= off an SMB path. SMB names
// cannot hold a '?', so it always starts the query.
func (p parser) splitSMBQuery(rest string, src *Source) (string, error) {
	path, query, ok := strings.Cut(rest, "?")
	if !ok {
		return rest, nil
	}
	if query == "" {
		return "", p.errorf("nothing follows '?': add auth= or encryption=, or leave the '?' out")
	}
	seen := map[string]bool{}
	for _, kv := range strings.Split(query, "&") {
		k, v, _ := strings.Cut(kv, "=")
		if seen[k] {
			return "", p.errorf("%s is given twice", p.q(k))
		}
		seen[k] = true
		var err error
		switch k {
		case "auth":
			src.Auth, err = ParseAuth(v)
		case "encryption":
			src.Encryption, err = ParseEncryption(v)
		default:
			return "", p.errorf("unknown parameter %s after '?': the SMB ones are auth (ntlm, krb5, negotiate) and encryption (required, preferred, off)", p.q(k))
		}
		if err != nil {
			return "", p.errorf("%w", err)
		}
		if v == "" {
			return "", p.errorf("%s is empty", k)
		}
	}
	return path, nil
}

func (p parser) parseURL(proto Protocol, rest string) (Source, error) {
	slash := strings.IndexByte(rest, '/')
	hostport := rest
	if slash >= 0 {
		hostport = rest[:slash]
	}
	if strings.Contains(hostport, "@") {
		return Source{}, p.errorf("%w", ErrCredentials)
	}
	if slash < 0 {
		return Source{}, fmt.Errorf("source %q has no path: add /EXPORT (NFS) or /SHARE (SMB) after the host", p.shown)
	}
	src := Source{Protocol: proto}
	host, port, err := p.splitHostPort(hostport)
	if err != nil {
		return Source{}, err
	}
	src.Host, src.Port = host, port
	path := rest[slash:]
	if proto == NFS {
		if path, src.Version, err = p.splitQuery(path); err != nil {
			return Source{}, err
		}
	} else if path, err = p.splitSMBQuery(path, &src); err != nil {
		return Source{}, err
	}
	return p.finish(src, path)
}

func (p parser) finish(src Source, path string) (Source, error) {
	parts, err := p.splitPath(path)
	if err != nil {
		return Source{}, err
	}
	if len(parts) == 0 {
		if src.Protocol == NFS {
			return Source{}, p.errorf("the export path is empty")
		}
		return Source{}, p.errorf("the share name is empty")
	}
	switch src.Protocol {
	case NFS:
		src.Export = "/" + strings.Join(parts, "/")
	case SMB:
		if strings.ContainsAny(parts[0], `"*:<>?|\`) {
			return Source{}, p.errorf("share name %s contains a character SMB forbids", p.q(parts[0]))
		}
		for _, c := range parts[1:] {
			if err := CheckSMBName(c); err != nil {
				return Source{}, p.errorf("the directory %s: %w", p.q(c), err)
			}
		}
		src.Share = parts[0]
		src.Base = strings.Join(parts[1:], "/")
	}
	return src, nil
}

// CheckMountCifs refuses an SMB source mount.cifs cannot be given as it
// is: it copies the share and the directories below it into the kernel's
// option string unescaped (unc=, prefixpath=), and the kernel splits that
// string at every comma, so a comma there would add mount options nothing
// checked (sec=krb5,cruid=0). Checked for every new volume (CreateVolume)
// and before every mount on a Linux node; not in Parse, so that a volume
// an earlier build made with one is still found, and deleted. A volume's
// own subDir is opened on the node, never given to mount.cifs, and may
// hold a comma.
func (s Source) CheckMountCifs() error {
	if s.Protocol != SMB {
		return nil
	}
	for _, c := range append([]string{s.Share}, strings.Split(s.Base, "/")...) {
		if strings.Contains(c, ",") {
			return fmt.Errorf("%q has a comma, which mount.cifs would pass to the kernel as a separator of mount options; rename the share or directory, or point the source above it and put the rest in subDir", c)
		}
	}
	return nil
}

// CheckMapping refuses an SMB share a Windows node cannot look its
// mapping up by: to the cmdlets that find a mapping by its share
// (Get-SmbGlobalMapping -RemotePath, in csi-proxy and in HostProcess mode)
// [ and ] are a wildcard, which would match, and remove, another share's
// mapping. Windows forbids them in share names, and Samba's section names
// cannot hold them. Checked for every new volume and before every mapping
// on a Windows node, not in Parse (see CheckMountCifs).
func (s Source) CheckMapping() error {
	if s.Protocol == SMB && strings.ContainsAny(s.Share, "[]") {
		return fmt.Errorf("share name %q has [ or ], which Windows forbids in share names and its SMB cmdlets take for a wildcard", s.Share)
	}
	return nil
}

// CheckSMBName refuses a path component of an SMB source or subDir that the
// server could take as more than one name. The allow-list of inline
// sources and every check of a path compare by '/' components, but an SMB
// server splits at '\' as well (and mount.cifs turns '\' into '/' in the
// prefix path), so smb://fs/share/scratch/a\..\..\private would pass as one
// directory below scratch and reach the server as ../../private. Refused:
// the backslash; control characters; the private-use characters
// U+F000-U+F0FF, which Samba's catia and fruit modules map back to
// characters Windows forbids, the backslash among them; and a name of dots
// and spaces only, which Windows may trim to "." or "..". The other
// characters SMB forbids in a name ("*:<>?|) separate nothing, and are
// left to the server to refuse, as they always were.
func CheckSMBName(c string) error {
	for _, r := range c {
		switch {
		case r == '\\':
			return errors.New("a backslash is a separator to an SMB server; separate directories with /")
		case unicode.IsControl(r):
			return errors.New("a control character is forbidden in an SMB name")
		case r >= 0xF000 && r <= 0xF0FF:
			return fmt.Errorf("%U is a private-use character that SMB servers may map to a separator", r)
		}
	}
	if strings.Trim(c, ". ") == "" {
		return errors.New("a name of dots and spaces only may stand for . or .. on the server")
	}
	return nil
}

// CheckSMBPath is CheckSMBName for each directory of rel, a slash path
// below an SMB source (a volume's subDir).
func CheckSMBPath(rel string) error {
	for _, c := range strings.Split(rel, "/") {
		if err := CheckSMBName(c); err != nil {
			return fmt.Errorf("the directory %q: %w", c, err)
		}
	}
	return nil
}

// splitPath cleans a slash path: a trailing slash is fine, but empty, "." and
// ".." components are refused, since they make the base ambiguous.
func (p parser) splitPath(path string) ([]string, error) {
	path = strings.TrimSuffix(path, "/")
	path = strings.TrimPrefix(path, "/")
	if path == "" {
		return nil, nil
	}
	parts := strings.Split(path, "/")
	for _, c := range parts {
		switch c {
		case "":
			return nil, p.errorf("the path has an empty component (//)")
		case ".", "..":
			return nil, p.errorf("the path may not contain %q", c)
		}
	}
	return parts, nil
}

func (p parser) splitHostPort(hp string) (string, int, error) {
	if hp == "" {
		return "", 0, p.errorf("the host is empty")
	}
	host, portStr := hp, ""
	if strings.HasPrefix(hp, "[") {
		end := strings.IndexByte(hp, ']')
		if end < 0 {
			return "", 0, p.errorf("IPv6 host has no closing ]")
		}
		host = hp[:end+1]
		if rest := hp[end+1:]; rest != "" {
			if !strings.HasPrefix(rest, ":") {
				return "", 0, p.errorf("unexpected %s after the IPv6 host", p.q(rest))
			}
			portStr = rest[1:]
		}
	} else if i := strings.LastIndexByte(hp, ':'); i >= 0 {
		host, portStr = hp[:i], hp[i+1:]
	}
	h, err := p.parseHost(host)
	if err != nil {
		return "", 0, err
	}
	if portStr == "" {
		if strings.HasSuffix(hp, ":") {
			return "", 0, p.errorf("empty port after ':'")
		}
		return h, 0, nil
	}
	port, err := strconv.Atoi(portStr)
	if err != nil || port < 1 || port > 65535 {
		return "", 0, p.errorf("port %s is not a number from 1 to 65535", p.q(portStr))
	}
	return h, port, nil
}

func (p parser) parseHost(h string) (string, error) {
	if strings.HasPrefix(h, "[") {
		if !strings.HasSuffix(h, "]") {
			return "", p.errorf("IPv6 host has no closing ]")
		}
		ip := net.ParseIP(h[1 : len(h)-1])
		if ip == nil || ip.To4() != nil && !strings.Contains(h, ":") {
			return "", p.errorf("%s is not an IPv6 address", p.q(h))
		}
		return ip.String(), nil
	}
	if h == "" {
		return "", p.errorf("the host is empty")
	}
	if strings.Contains(h, ":") {
		if p.hideParts {
			return "", p.errorf("put an IPv6 address in brackets, like [fd00::1]")
		}
		return "", p.errorf("put the IPv6 address %s in brackets, like [%s]", h, h)
	}
	for _, r := range h {
		if !(r == '.' || r == '-' || r == '_' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z') {
			return "", p.errorf("host %s contains %s, which no hostname or IP address has", p.q(h), p.q(string(r)))
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
		if s.Version != "" {
			return "nfs://" + hp + s.Export + "?vers=" + s.Version
		}
		return "nfs://" + hp + s.Export
	}
	p := "smb://" + hp + "/" + s.Share
	if s.Base != "" {
		p += "/" + s.Base
	}
	var q []string
	if s.Auth != "" {
		q = append(q, "auth="+string(s.Auth))
	}
	if s.Encryption != "" {
		q = append(q, "encryption="+string(s.Encryption))
	}
	if len(q) > 0 {
		p += "?" + strings.Join(q, "&")
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
