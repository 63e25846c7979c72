package source

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

const testAliases = `
# the NAS moved in March
nfs://10.0.0.5/export -> nfs://nas.lan/export
nfs://10.0.0.5/export/team -> nfs://nas.lan:2050/srv/team
smb://10.0.0.6/share -> smb://nas.lan/share
smb://10.0.0.6/other/k8s -> smb://nas.lan/moved/volumes
NFS://10.0.0.7/export -> nfs://nas-a.lan/export, nfs://nas-b.lan:2049/export
[fd00::1]:/data -> nfs://[FD00::2]/data
`

func TestResolve(t *testing.T) {
	a, err := ParseAliases(testAliases)
	if err != nil {
		t.Fatal(err)
	}
	if a.Rules() != 6 {
		t.Fatalf("Rules() = %d, want 6", a.Rules())
	}
	cases := []struct {
		in   string
		want []string // the addresses, in order; nil: unchanged
		rule string
	}{
		{"nfs://10.0.0.5/export", []string{"nfs://nas.lan/export"}, "nfs://10.0.0.5/export"},
		{"nfs://10.0.0.5/export/k8s/base?vers=4.1", []string{"nfs://nas.lan/export/k8s/base?vers=4.1"}, "nfs://10.0.0.5/export"},
		{"10.0.0.5:/export/k8s", []string{"nfs://nas.lan/export/k8s"}, "nfs://10.0.0.5/export"},
		// The longest match wins, and may move the export.
		{"nfs://10.0.0.5/export/team/a", []string{"nfs://nas.lan:2050/srv/team/a"}, "nfs://10.0.0.5/export/team"},
		{"nfs://10.0.0.5/export/teamx", []string{"nfs://nas.lan/export/teamx"}, "nfs://10.0.0.5/export"},
		// Whole components only.
		{"nfs://10.0.0.5/exportx", nil, ""},
		{"nfs://10.0.0.5:2049/export", nil, ""}, // another port is another rule
		{"nfs://10.0.0.50/export", nil, ""},
		{"smb://10.0.0.6/share/k8s?auth=krb5&encryption=required", []string{"smb://nas.lan/share/k8s?auth=krb5&encryption=required"}, "smb://10.0.0.6/share"},
		{`\\10.0.0.6\SHARE\k8s`, []string{"smb://nas.lan/share/k8s"}, "smb://10.0.0.6/share"}, // SMB names are case-insensitive
		{"smb://10.0.0.6/other/k8s/x", []string{"smb://nas.lan/moved/volumes/x"}, "smb://10.0.0.6/other/k8s"},
		{"smb://10.0.0.6/other", nil, ""},
		{"smb://10.0.0.6/sharex", nil, ""},
		{"nfs://10.0.0.6/share", nil, ""}, // another protocol
		{"nfs://10.0.0.7/export/v", []string{"nfs://nas-a.lan/export/v", "nfs://nas-b.lan:2049/export/v"}, "nfs://10.0.0.7/export"},
		{"nfs://[fd00::1]/data/v", []string{"nfs://[fd00::2]/data/v"}, "nfs://[fd00::1]/data"},
	}
	for _, c := range cases {
		src, err := Parse(c.in)
		if err != nil {
			t.Fatal(err)
		}
		got, rule, ok := a.Resolve(src)
		if ok != (c.want != nil) || rule.From != c.rule {
			t.Errorf("Resolve(%s): rule %+v, %v; want %q", c.in, rule, ok, c.rule)
			continue
		}
		want := c.want
		if want == nil {
			want = []string{src.String()}
		}
		var addrs []string
		for _, s := range got.Addresses() {
			addrs = append(addrs, s.String())
			if _, err := Parse(s.String()); err != nil {
				t.Errorf("Resolve(%s) gave %s, which does not parse: %v", c.in, s, err)
			}
		}
		if strings.Join(addrs, " ") != strings.Join(want, " ") {
			t.Errorf("Resolve(%s) = %v, want %v", c.in, addrs, want)
		}
		if got.String() != want[0] {
			t.Errorf("Resolve(%s).String() = %s: the further addresses must stay out of it", c.in, got)
		}
	}
	var none *Aliases
	src, _ := Parse("nfs://10.0.0.5/export")
	if got, _, ok := none.Resolve(src); ok || got != src {
		t.Errorf("a nil mapping resolved %s to %s", src, got)
	}
}

func TestParseAliasesRefuses(t *testing.T) {
	cases := map[string]string{
		"nfs://a/export nfs://b/export":                             "line 1: want OLD-SOURCE -> NEW-SOURCE",
		"\n\nnfs://a/export -> smb://b/share":                       "line 3: nfs://a/export -> smb://b/share changes the protocol",
		"smb://a/s -> nfs://b/export":                               "changes the protocol",
		"nfs://a/export -> nfs://b/export, nfs://c/other":           "may differ in host and port only",
		"nfs://a/export -> nfs://b/export, smb://c/export":          "changes the protocol",
		"nfs://a/export -> ":                                        "a source is missing",
		"nfs://a/export -> nfs://b/export,":                         "a source is missing",
		"nfs://a/export?vers=4.1 -> nfs://b/export":                 "leave the query",
		"nfs://a/export -> nfs://b/export?vers=3":                   "leave the query",
		"smb://a/s -> smb://b/s?auth=krb5":                          "leave the query",
		"ftp://a/export -> nfs://b/export":                          "unsupported scheme",
		"smb://user:hunter2@a/s -> smb://b/s":                       "credentials do not belong",
		"nfs://a/export -> nfs://b/x\nnfs://A/export/ -> nfs://c/y": "line 2: nfs://a/export is mapped on line 1 already",
		"smb://a/S -> smb://b/s\nsmb://a/s -> smb://c/s":            "mapped on line 1 already",
	}
	for in, want := range cases {
		_, err := ParseAliases(in)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("ParseAliases(%q) = %v, want an error with %q", in, err, want)
		}
		if err != nil && strings.Contains(err.Error(), "hunter2") {
			t.Errorf("ParseAliases(%q) quotes the password: %v", in, err)
		}
	}
}

func TestAliasFileReloads(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "sourceAliases")
	f, err := OpenAliasFile(path)
	if err != nil {
		t.Fatalf("a missing file is no aliases, not an error: %v", err)
	}
	now := time.Now()
	f.now = func() time.Time { return now }
	var errs []error
	loads := 0
	f.OnError = func(err error) { errs = append(errs, err) }
	f.OnLoad = func(*Aliases) { loads++ }
	src, _ := Parse("nfs://10.0.0.5/export/v")
	resolved := func() string {
		got, _, _ := f.Aliases().Resolve(src)
		return got.String()
	}
	tick := func() { now = now.Add(AliasCheckInterval) }
	write := func(s string) {
		if err := os.WriteFile(path, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}

	if got := resolved(); got != src.String() {
		t.Fatalf("no file: %s", got)
	}
	write("nfs://10.0.0.5/export -> nfs://nas.lan/export\n")
	if got := resolved(); got != src.String() {
		t.Fatalf("read again before the interval passed: %s", got)
	}
	tick()
	if got := resolved(); got != "nfs://nas.lan/export/v" || loads != 1 {
		t.Fatalf("after a change: %s, %d loads", got, loads)
	}
	// A malformed version keeps the last good mapping, reported once.
	write("nfs://10.0.0.5/export -> smb://nas.lan/share\n")
	for range 3 {
		tick()
		if got := resolved(); got != "nfs://nas.lan/export/v" {
			t.Fatalf("a malformed file replaced the mapping: %s", got)
		}
	}
	if len(errs) != 1 || !strings.Contains(errs[0].Error(), "line 1") || !strings.Contains(errs[0].Error(), path) {
		t.Fatalf("errors reported: %v, want one naming the file and the line", errs)
	}
	write("nfs://10.0.0.5/export -> nfs://nas2.lan/export\n")
	tick()
	if got := resolved(); got != "nfs://nas2.lan/export/v" || len(errs) != 1 {
		t.Fatalf("after the fix: %s, errors %v", got, errs)
	}
	// The ConfigMap goes away: no aliases.
	if err := os.Remove(path); err != nil {
		t.Fatal(err)
	}
	tick()
	if got := resolved(); got != src.String() {
		t.Fatalf("after the file went away: %s", got)
	}

	write("nfs://a/export -> nfs://b/export\nbad line\n")
	if _, err := OpenAliasFile(path); err == nil || !strings.Contains(err.Error(), "line 2") {
		t.Fatalf("OpenAliasFile of a malformed file: %v, want an error naming line 2", err)
	}
	var none *AliasFile
	if none.Aliases() != nil {
		t.Fatal("a nil AliasFile has aliases")
	}
}

func TestTryInOrder(t *testing.T) {
	a, err := ParseAliases("nfs://old/export -> nfs://a/export, nfs://b/export, nfs://c/export")
	if err != nil {
		t.Fatal(err)
	}
	src, _ := Parse("nfs://old/export/v")
	src, _, _ = a.Resolve(src)
	errDown := errors.New("connection refused")
	errDenied := errors.New("permission denied")
	unreachable := func(err error) bool { return errors.Is(err, errDown) }
	run := func(ctx context.Context, results map[string]error) ([]string, error) {
		var tried []string
		err := TryInOrder(ctx, src, unreachable, func(ctx context.Context, s Source) error {
			tried = append(tried, s.Host)
			if results[s.Host] == context.DeadlineExceeded {
				<-ctx.Done()
				return ctx.Err()
			}
			return results[s.Host]
		})
		return tried, err
	}
	tried, err := run(context.Background(), map[string]error{"a": errDown})
	if err != nil || strings.Join(tried, ",") != "a,b" {
		t.Errorf("first down: tried %v, %v", tried, err)
	}
	tried, err = run(context.Background(), map[string]error{"a": errDenied})
	if !errors.Is(err, errDenied) || strings.Join(tried, ",") != "a" {
		t.Errorf("a refusal is not the address's: tried %v, %v", tried, err)
	}
	tried, err = run(context.Background(), map[string]error{"a": errDown, "b": errDown, "c": errDown})
	if !errors.Is(err, errDown) || len(tried) != 3 || !strings.Contains(err.Error(), "before that: a: connection refused; b: connection refused") {
		t.Errorf("all down: tried %v, %v", tried, err)
	}
	// An address that never answers gets its share of the deadline.
	// Three addresses share 3 s: a gets 1 s, and b answers well before the
	// whole deadline (the bound leaves a loaded machine 1.5 s of slack).
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
	defer cancel()
	began := time.Now()
	tried, err = run(ctx, map[string]error{"a": context.DeadlineExceeded})
	if err != nil || strings.Join(tried, ",") != "a,b" || time.Since(began) > 2500*time.Millisecond {
		t.Errorf("a silent address: tried %v in %v, %v", tried, time.Since(began), err)
	}
}

// A source derived from a resolved one (a session root: an SMB source
// without its base, an NFS one with another export) keeps its further
// addresses, each with the derived path.
func TestAddressesFollowTheSource(t *testing.T) {
	a, err := ParseAliases("smb://old/share -> smb://a/share, smb://b:4450/share")
	if err != nil {
		t.Fatal(err)
	}
	src, _ := Parse("smb://old/share/base?auth=krb5")
	got, _, _ := a.Resolve(src)
	got.Base = ""
	var addrs []string
	for _, s := range got.Addresses() {
		addrs = append(addrs, s.String())
	}
	if want := "smb://a/share?auth=krb5 smb://b:4450/share?auth=krb5"; strings.Join(addrs, " ") != want {
		t.Fatalf("addresses %v, want %s", addrs, want)
	}
}
