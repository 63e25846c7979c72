package source

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"
)

// Aliases map the sources of volumes made against a server's old address to
// where the share is now (--source-aliases, docs/server-move.md). A volume's
// ID and attributes hold its source and are immutable, so after a server
// moves the driver applies the mapping each time it reaches a volume,
// instead of anyone editing PVs. A nil *Aliases maps nothing.
type Aliases struct {
	rules []aliasRule
}

// aliasRule is one line: sources at or below from are reached at the same
// place below each of to, in order.
type aliasRule struct {
	line int
	from Source
	to   []Source
}

// AliasRule names the rule a source was resolved through, for logs and the
// metric: its source and its first address, canonical (never credentials:
// sources refuse them).
type AliasRule struct {
	From, To string
	Line     int
}

// Rules is the number of rules.
func (a *Aliases) Rules() int {
	if a == nil {
		return 0
	}
	return len(a.rules)
}

// ParseAliases reads the mapping, one rule a line:
//
//	SOURCE -> SOURCE[, SOURCE...]
//
// Blank lines and lines starting with # are skipped. Each side is a source
// as the StorageClass parameter takes it, without ?vers=, ?auth= or
// ?encryption= (a volume's own are kept). Refused, naming the line: a rule
// between protocols, several addresses that name different shares (they
// must differ only in host and port: they are one server's), and a source
// given twice.
func ParseAliases(text string) (*Aliases, error) {
	a := &Aliases{}
	seen := map[string]int{}
	for i, line := range strings.Split(text, "\n") {
		n := i + 1
		line = strings.TrimSpace(strings.TrimSuffix(line, "\r"))
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		r, err := parseAliasRule(n, line)
		if err != nil {
			return nil, fmt.Errorf("source aliases, line %d: %w", n, err)
		}
		key := r.from.matchKey()
		if m, ok := seen[key]; ok {
			return nil, fmt.Errorf("source aliases, line %d: %s is mapped on line %d already", n, r.from, m)
		}
		seen[key] = n
		a.rules = append(a.rules, r)
	}
	return a, nil
}

func parseAliasRule(n int, line string) (aliasRule, error) {
	fromText, toText, ok := strings.Cut(line, "->")
	if !ok {
		return aliasRule{}, errors.New("want OLD-SOURCE -> NEW-SOURCE[, NEW-SOURCE...]")
	}
	from, err := parseAliasSide(fromText)
	if err != nil {
		return aliasRule{}, err
	}
	r := aliasRule{line: n, from: from}
	for _, t := range strings.Split(toText, ",") {
		to, err := parseAliasSide(t)
		if err != nil {
			return aliasRule{}, err
		}
		if to.Protocol != from.Protocol {
			return aliasRule{}, fmt.Errorf("%s -> %s changes the protocol: a volume made over %s is reached over %s only", from, to, protoName(from.Protocol), protoName(from.Protocol))
		}
		if len(r.to) > 0 && !sameShare(r.to[0], to) {
			return aliasRule{}, fmt.Errorf("%s and %s are not the same share at two addresses: the addresses of one rule may differ in host and port only", r.to[0], to)
		}
		r.to = append(r.to, to)
	}
	return r, nil
}

func protoName(p Protocol) string { return strings.ToUpper(string(p)) }

// parseAliasSide parses one source of a rule. Its query is refused: a rule
// moves where a share is, and a volume keeps the version, auth and
// encryption its class chose.
func parseAliasSide(s string) (Source, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return Source{}, errors.New("a source is missing: want OLD-SOURCE -> NEW-SOURCE[, NEW-SOURCE...]")
	}
	src, err := Parse(s)
	if err != nil {
		return Source{}, err
	}
	if src.Version != "" || src.Auth != "" || src.Encryption != "" {
		return Source{}, fmt.Errorf("source %q: leave the query (?vers=, ?auth=, ?encryption=) off a rule: each volume keeps its own", s)
	}
	return src, nil
}

// segments are the path components a rule matches on: the export's for
// NFS, the share's and the base's for SMB.
func (s Source) segments() []string {
	if s.Protocol == NFS {
		return strings.Split(strings.Trim(s.Export, "/"), "/")
	}
	if s.Base == "" {
		return []string{s.Share}
	}
	return append([]string{s.Share}, strings.Split(s.Base, "/")...)
}

// matchKey is what two rule sources must differ in to be two rules: SMB
// names are case-insensitive, as SMB servers treat them.
func (s Source) matchKey() string {
	k := s.String()
	if s.Protocol == SMB {
		k = strings.ToLower(k)
	}
	return k
}

// sameShare reports whether a and b name one share, whatever their host and
// port.
func sameShare(a, b Source) bool {
	a.Host, a.Port, b.Host, b.Port = "", 0, "", 0
	return a.matchKey() == b.matchKey()
}

// below reports whether src lies at or below the rule source from: the same
// protocol, host and port, and from's path components a prefix of src's
// (whole components: /export matches /export/sub, never /exportx).
func (from Source) below(src Source) ([]string, bool) {
	if src.Protocol != from.Protocol || src.Host != from.Host || src.Port != from.Port {
		return nil, false
	}
	fs, ss := from.segments(), src.segments()
	if len(fs) > len(ss) {
		return nil, false
	}
	for i := range fs {
		if fs[i] != ss[i] && !(src.Protocol == SMB && strings.EqualFold(fs[i], ss[i])) {
			return nil, false
		}
	}
	return ss[len(fs):], true
}

// at is the rule source to with rest below its path, and src's query.
func (to Source) at(rest []string, src Source) Source {
	out := to
	out.Version, out.Auth, out.Encryption = src.Version, src.Auth, src.Encryption
	segs := append(to.segments(), rest...)
	if out.Protocol == NFS {
		out.Export = "/" + strings.Join(segs, "/")
	} else {
		out.Share, out.Base = segs[0], strings.Join(segs[1:], "/")
	}
	return out
}

// Resolve maps src through the rule whose source is the longest prefix of
// it. The result is the first address, carrying the others (Addresses); a
// source no rule matches is returned as it is, with ok false. Rules apply
// once: an address is not looked up again.
func (a *Aliases) Resolve(src Source) (Source, AliasRule, bool) {
	if a == nil {
		return src, AliasRule{}, false
	}
	var best *aliasRule
	var rest []string
	for i := range a.rules {
		r := &a.rules[i]
		if tail, ok := r.from.below(src); ok && (best == nil || len(tail) < len(rest)) {
			best, rest = r, tail
		}
	}
	if best == nil {
		return src, AliasRule{}, false
	}
	out := best.to[0].at(rest, src)
	if len(best.to) > 1 {
		// The addresses name one share (ParseAliases checks it): only the
		// host and port differ.
		next := make([]address, 0, len(best.to)-1)
		for _, t := range best.to[1:] {
			next = append(next, address{host: t.Host, port: t.Port})
		}
		out.next = &next
	}
	return out, AliasRule{From: best.from.String(), To: best.to[0].String(), Line: best.line}, true
}

// address is where a server is reached: a host and a port (0: the
// protocol's).
type address struct {
	host string
	port int
}

// Addresses are s and s at each further address an alias gave it, in the
// order they are tried.
func (s Source) Addresses() []Source {
	first := s
	first.next = nil
	out := []Source{first}
	if s.next != nil {
		for _, a := range *s.next {
			o := first
			o.Host, o.Port = a.host, a.port
			out = append(out, o)
		}
	}
	return out
}

// TryInOrder runs try on each of src's addresses in turn, until one
// succeeds or fails with an error that is not the address's: only when
// unreachable says the server could not be reached there is the next one
// tried (a refused login or a missing share would be the same at the next
// address of one server). Each address but the last gets an even share of
// what remains of ctx's deadline, so an address that drops packets leaves
// time for the next one; running out of its share counts as unreachable.
// The error is the last address's, wrapped, with the others' in its text.
func TryInOrder(ctx context.Context, src Source, unreachable func(error) bool, try func(context.Context, Source) error) error {
	addrs := src.Addresses()
	var failed []string
	for i, a := range addrs {
		actx, cancel := ctx, context.CancelFunc(func() {})
		if left := len(addrs) - i; left > 1 {
			if dl, ok := ctx.Deadline(); ok {
				actx, cancel = context.WithTimeout(ctx, time.Until(dl)/time.Duration(left))
			}
		}
		err := try(actx, a)
		timedOut := actx.Err() != nil && ctx.Err() == nil
		cancel()
		if err == nil {
			return nil
		}
		if i == len(addrs)-1 || ctx.Err() != nil || !(timedOut || unreachable(err)) {
			if len(failed) == 0 {
				return err
			}
			return fmt.Errorf("%w (before that: %s)", err, strings.Join(failed, "; "))
		}
		failed = append(failed, fmt.Sprintf("%s: %v", a.URLHost(), err))
	}
	return nil // not reached: the last address returns
}
