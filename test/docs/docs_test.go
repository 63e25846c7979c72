// Package docs checks the documentation against the tree: every relative
// link and anchor resolves, every flag of the binary and every StorageClass
// parameter is documented, every YAML (and JSON) example parses, every
// metric is listed, and the install lines name the overlays and the chart
// that `make test-k8s` and `make test-node` install. `make test-unit` runs
// it; it reads files only (no network, no build), in well under a second.
//
// Each failure names the file and line and what is wrong; where a check
// reads Go source (flags, parameters, metrics, the tests' overlays) and
// cannot find what it looks for, it fails too, rather than pass on nothing.
package docs

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"
	"unicode"

	"go.yaml.in/yaml/v3"
)

// root is the repository, from this package's directory.
const root = "../.."

// The pages the checks start from; Markdown files they link to are added.
func startPages(t *testing.T) []string {
	t.Helper()
	pages := []string{"README.md", "CHANGELOG.md"}
	docs, err := filepath.Glob(filepath.Join(root, "docs", "*.md"))
	if err != nil || len(docs) == 0 {
		t.Fatalf("no docs/*.md found (%v)", err)
	}
	for _, d := range docs {
		rel, _ := filepath.Rel(root, d)
		pages = append(pages, filepath.ToSlash(rel))
	}
	return pages
}

// The page every flag must be on, and the one every parameter must be on.
const (
	flagsPage   = "docs/flags.md"
	paramsPage  = "docs/parameters.md"
	metricsPage = "docs/metrics.md"
	installPage = "docs/install.md"
)

// page is one Markdown file, split into what the checks need.
type page struct {
	path    string // from the repository root, with slashes
	lines   []string
	anchors map[string]bool
	links   []link
	blocks  []block // fenced code blocks
}

type link struct {
	line   int
	target string
}

type block struct {
	line   int // of the opening fence
	indent int // of the opening fence
	lang   string
	text   string
}

func readPage(t *testing.T, rel string) *page {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(rel)))
	if err != nil {
		t.Fatalf("%s: %v", rel, err)
	}
	p := &page{path: rel, lines: strings.Split(string(b), "\n"), anchors: map[string]bool{}}
	seen := map[string]int{}
	var fence string // the open fence's marker, "" outside code blocks
	var cur *block
	for i, l := range p.lines {
		n := i + 1
		trimmed := strings.TrimLeft(l, " ")
		if fence != "" {
			if strings.HasPrefix(trimmed, fence) && strings.TrimSpace(strings.TrimLeft(trimmed, fence[:1])) == "" {
				p.blocks = append(p.blocks, *cur)
				fence, cur = "", nil
				continue
			}
			// A block indented in a list item: strip the fence's indent only.
			ind := min(cur.indent, len(l)-len(trimmed))
			cur.text += l[ind:] + "\n"
			continue
		}
		if m := fenceRE.FindStringSubmatch(trimmed); m != nil {
			fence = m[1]
			cur = &block{line: n, indent: len(l) - len(trimmed)}
			if f := strings.Fields(m[2]); len(f) > 0 {
				cur.lang = strings.ToLower(f[0])
			}
			continue
		}
		if m := headingRE.FindStringSubmatch(l); m != nil {
			a := anchor(m[1])
			if k := seen[a]; k > 0 {
				p.anchors[fmt.Sprintf("%s-%d", a, k)] = true
			} else {
				p.anchors[a] = true
			}
			seen[a]++
		}
		text := maskCodeSpans(l)
		for _, m := range linkRE.FindAllStringSubmatch(text, -1) {
			p.links = append(p.links, link{n, m[1]})
		}
		if m := refDefRE.FindStringSubmatch(text); m != nil {
			p.links = append(p.links, link{n, m[1]})
		}
	}
	if fence != "" {
		t.Errorf("%s:%d: code block opened with %s is never closed", rel, cur.line, fence)
	}
	return p
}

var (
	fenceRE   = regexp.MustCompile("^(```+|~~~+)\\s*(.*)$")
	headingRE = regexp.MustCompile(`^#{1,6}\s+(.*?)\s*#*\s*$`)
	// [text](target) and ![alt](target), with an optional "title".
	linkRE   = regexp.MustCompile(`\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)`)
	refDefRE = regexp.MustCompile(`^\s{0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s+.*)?$`)
	schemeRE = regexp.MustCompile(`^[a-zA-Z][a-zA-Z0-9+.-]*:`)
	mdLinkRE = regexp.MustCompile(`!?\[([^\]]*)\]\([^)]*\)`)
)

// maskCodeSpans replaces the contents of inline code spans with x, so a
// link or bracket written as code is not read as one.
func maskCodeSpans(s string) string {
	var out strings.Builder
	for i := 0; i < len(s); {
		if s[i] != '`' {
			out.WriteByte(s[i])
			i++
			continue
		}
		j := i
		for j < len(s) && s[j] == '`' {
			j++
		}
		run := s[i:j]
		end := -1
		for k := j; k < len(s); {
			if s[k] != '`' {
				k++
				continue
			}
			e := k
			for e < len(s) && s[e] == '`' {
				e++
			}
			if e-k == len(run) {
				end = k
				break
			}
			k = e
		}
		if end < 0 { // no closing run: literal backticks
			out.WriteString(run)
			i = j
			continue
		}
		out.WriteString(run + strings.Repeat("x", end-j) + run)
		i = end + len(run)
	}
	return out.String()
}

// anchor is GitHub's anchor of a heading: the text as rendered (links by
// their text, no emphasis or code marks), lower case, every character but
// letters, digits, spaces, '-' and '_' dropped, spaces turned into '-'.
func anchor(heading string) string {
	h := mdLinkRE.ReplaceAllString(heading, "$1")
	var b strings.Builder
	for _, r := range strings.ToLower(h) {
		switch {
		case r == ' ':
			b.WriteByte('-')
		case r == '-' || r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r):
			b.WriteRune(r)
		}
	}
	return b.String()
}

// pages reads the start pages and every Markdown file in the repository
// they link to, transitively.
func pages(t *testing.T) (map[string]*page, []string) {
	t.Helper()
	all := map[string]*page{}
	order := startPages(t)
	for i := 0; i < len(order); i++ {
		p := readPage(t, order[i])
		all[p.path] = p
		for _, l := range p.links {
			target, _, _ := strings.Cut(l.target, "#")
			if target == "" || schemeRE.MatchString(target) || !strings.HasSuffix(target, ".md") {
				continue
			}
			rel := path.Clean(path.Join(path.Dir(p.path), target))
			if _, ok := all[rel]; ok || strings.HasPrefix(rel, "../") {
				continue
			}
			if _, err := os.Stat(filepath.Join(root, rel)); err == nil && !contains(order, rel) {
				order = append(order, rel)
			}
		}
	}
	return all, order
}

func contains(s []string, v string) bool {
	for _, x := range s {
		if x == v {
			return true
		}
	}
	return false
}

// TestLinksResolve: every relative link names a file or directory of the
// repository, and every #anchor a heading of the page it points into.
func TestLinksResolve(t *testing.T) {
	all, order := pages(t)
	for _, name := range order {
		p := all[name]
		for _, l := range p.links {
			if schemeRE.MatchString(l.target) {
				continue // http(s), mailto: not checked offline
			}
			target, frag, hasFrag := strings.Cut(l.target, "#")
			dest := p
			if target != "" {
				rel := path.Clean(path.Join(path.Dir(p.path), target))
				if rel == ".." || strings.HasPrefix(rel, "../") {
					t.Errorf("%s:%d: link %q leaves the repository", p.path, l.line, l.target)
					continue
				}
				if _, err := os.Stat(filepath.Join(root, filepath.FromSlash(rel))); err != nil {
					t.Errorf("%s:%d: link %q: %s does not exist", p.path, l.line, l.target, rel)
					continue
				}
				dest = all[rel]
			}
			if !hasFrag {
				continue
			}
			if dest == nil {
				t.Errorf("%s:%d: link %q: an anchor into a file that is not Markdown", p.path, l.line, l.target)
				continue
			}
			if !dest.anchors[frag] {
				t.Errorf("%s:%d: link %q: %s has no heading with the anchor #%s (it has: %s)",
					p.path, l.line, l.target, dest.path, frag, strings.Join(sortedKeys(dest.anchors), ", "))
			}
		}
	}
}

func sortedKeys(m map[string]bool) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// TestAnchor pins the anchor rules the link check relies on.
func TestAnchor(t *testing.T) {
	for h, want := range map[string]string{
		"Install":                       "install",
		"A real node: `make test-node`": "a-real-node-make-test-node",
		"Images: until the first release, build and load them": "images-until-the-first-release-build-and-load-them",
		"Volume groups (CSI-Addons)":                           "volume-groups-csi-addons",
		"CSI v0.1 (the pre-1.0 API)":                           "csi-v01-the-pre-10-api",
		"What is honoured, and what is not":                    "what-is-honoured-and-what-is-not",
		"See [the docs](docs/x.md) *now*":                      "see-the-docs-now",
		"snake_case and UPPER":                                 "snake_case-and-upper",
	} {
		if got := anchor(h); got != want {
			t.Errorf("anchor(%q) = %q, want %q", h, got, want)
		}
	}
}

// TestYAMLExamplesParse: every ```yaml block parses (each document of it),
// and every ```json block too.
func TestYAMLExamplesParse(t *testing.T) {
	all, order := pages(t)
	n := 0
	for _, name := range order {
		p := all[name]
		for _, b := range p.blocks {
			switch b.lang {
			case "yaml", "yml":
				n++
				dec := yaml.NewDecoder(strings.NewReader(b.text))
				for doc := 1; ; doc++ {
					var v any
					err := dec.Decode(&v)
					if errors.Is(err, io.EOF) {
						break
					}
					if err != nil {
						t.Errorf("%s:%d: the yaml block opened here does not parse (document %d; its lines count from the line after the fence): %v", p.path, b.line, doc, err)
						break
					}
				}
			case "json":
				n++
				var v any
				if err := json.Unmarshal([]byte(b.text), &v); err != nil {
					t.Errorf("%s:%d: the json block opened here does not parse: %v", p.path, b.line, err)
				}
			}
		}
	}
	if n == 0 {
		t.Error("no yaml or json blocks found: the check reads nothing")
	}
}

// parseDir parses the Go files of a directory (its tests only when asked),
// whatever their build constraints (nodemounter_windows.go defines a flag
// too; test/k8s builds on Linux only).
func parseDir(t *testing.T, dir string, withTests bool) (*token.FileSet, []*ast.File) {
	t.Helper()
	fset := token.NewFileSet()
	matches, err := filepath.Glob(filepath.Join(root, dir, "*.go"))
	if err != nil || len(matches) == 0 {
		t.Fatalf("no Go files in %s (%v)", dir, err)
	}
	var files []*ast.File
	for _, m := range matches {
		if strings.HasSuffix(m, "_test.go") && !withTests {
			continue
		}
		src, err := os.ReadFile(m)
		if err != nil {
			t.Fatal(err)
		}
		rel, _ := filepath.Rel(root, m) // positions name files from the repository root
		f, err := parser.ParseFile(fset, filepath.ToSlash(rel), src, parser.SkipObjectResolution)
		if err != nil {
			t.Fatalf("%s: %v", m, err)
		}
		files = append(files, f)
	}
	return fset, files
}

// The flag package's definers, and which argument is the flag's name.
var flagDefiners = map[string]int{
	"String": 0, "Bool": 0, "Int": 0, "Int64": 0, "Uint": 0, "Uint64": 0, "Float64": 0, "Duration": 0,
	"Func": 0, "BoolFunc": 0,
	"StringVar": 1, "BoolVar": 1, "IntVar": 1, "Int64Var": 1, "UintVar": 1, "Uint64Var": 1,
	"Float64Var": 1, "DurationVar": 1, "Var": 1, "TextVar": 1,
}

// binaryFlags reads every flag cmd/fileshare-csi defines with the flag
// package. klog's flags (-v, -logtostderr, ...), which klog.InitFlags adds,
// are not among them on purpose: they are klog's, documented by klog, and
// docs/flags.md names -v and points there.
func binaryFlags(t *testing.T) map[string]string {
	t.Helper()
	fset, files := parseDir(t, "cmd/fileshare-csi", false)
	flags := map[string]string{}
	for _, f := range files {
		ast.Inspect(f, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok {
				return true
			}
			sel, ok := call.Fun.(*ast.SelectorExpr)
			if !ok {
				return true
			}
			if x, ok := sel.X.(*ast.Ident); !ok || x.Name != "flag" {
				return true
			}
			i, ok := flagDefiners[sel.Sel.Name]
			if !ok {
				return true
			}
			pos := fset.Position(call.Pos())
			if len(call.Args) <= i {
				t.Errorf("%s: flag.%s with too few arguments", pos, sel.Sel.Name)
				return true
			}
			lit, ok := call.Args[i].(*ast.BasicLit)
			if !ok || lit.Kind != token.STRING {
				t.Errorf("%s: flag.%s's name is not a string literal; the docs check cannot read it", pos, sel.Sel.Name)
				return true
			}
			name, _ := strconv.Unquote(lit.Value)
			flags[name] = pos.String()
			return true
		})
	}
	if len(flags) < 5 || flags["version"] == "" {
		t.Fatalf("found only %d flags in cmd/fileshare-csi (%v): the check no longer reads the flag definitions", len(flags), flags)
	}
	return flags
}

// TestEveryFlagIsDocumented: every flag of the binary is in docs/flags.md
// as `--name`, and every flag that page lists in its table exists.
func TestEveryFlagIsDocumented(t *testing.T) {
	flags := binaryFlags(t)
	p := readPage(t, flagsPage)
	text := strings.Join(p.lines, "\n")
	for name, where := range flags {
		if !strings.Contains(text, "`--"+name+"`") {
			t.Errorf("%s: the flag --%s (defined at %s) is not documented: add a row `--%s` to its table", flagsPage, name, where, name)
		}
	}
	rowRE := regexp.MustCompile("^\\|\\s*`--([a-z0-9-]+)`")
	for i, l := range p.lines {
		if m := rowRE.FindStringSubmatch(l); m != nil {
			if _, ok := flags[m[1]]; !ok {
				t.Errorf("%s:%d: --%s is documented but cmd/fileshare-csi defines no such flag", flagsPage, i+1, m[1])
			}
		}
	}
}

// constants collects the string constants of a package by name.
func constants(files []*ast.File) map[string]string {
	out := map[string]string{}
	for _, f := range files {
		for _, d := range f.Decls {
			g, ok := d.(*ast.GenDecl)
			if !ok || g.Tok != token.CONST {
				continue
			}
			for _, s := range g.Specs {
				vs := s.(*ast.ValueSpec)
				for i, n := range vs.Names {
					if i < len(vs.Values) {
						if lit, ok := vs.Values[i].(*ast.BasicLit); ok && lit.Kind == token.STRING {
							out[n.Name], _ = strconv.Unquote(lit.Value)
						}
					}
				}
			}
		}
	}
	return out
}

// TestEveryParameterIsDocumented: every StorageClass (and snapshot class)
// parameter the driver accepts, and every volume attribute the node reads,
// is in docs/parameters.md as `name`. The names are the Param* constants of
// pkg/volume and pkg/driver, the keys volume.ParseShareParams switches on,
// and the Context* constants of pkg/driver outside the sidecars' reserved
// csi.storage.k8s.io/ prefix.
func TestEveryParameterIsDocumented(t *testing.T) {
	want := map[string]string{} // name -> where it comes from
	_, vfiles := parseDir(t, "pkg/volume", false)
	vconsts := constants(vfiles)
	_, dfiles := parseDir(t, "pkg/driver", false)
	dconsts := constants(dfiles)
	for pkg, consts := range map[string]map[string]string{"pkg/volume": vconsts, "pkg/driver": dconsts} {
		for name, v := range consts {
			if strings.HasPrefix(name, "Param") || (strings.HasPrefix(name, "Context") && !strings.HasPrefix(v, "csi.storage.k8s.io/")) {
				want[v] = pkg + " " + name
			}
		}
	}
	// The keys the StorageClass parser accepts, read off its switch.
	found := false
	for _, f := range vfiles {
		for _, d := range f.Decls {
			fn, ok := d.(*ast.FuncDecl)
			if !ok || fn.Name.Name != "ParseShareParams" {
				continue
			}
			ast.Inspect(fn, func(n ast.Node) bool {
				cc, ok := n.(*ast.CaseClause)
				if !ok {
					return true
				}
				for _, e := range cc.List {
					switch e := e.(type) {
					case *ast.Ident:
						if v, ok := vconsts[e.Name]; ok {
							want[v] = "volume.ParseShareParams"
							found = true
						}
					case *ast.BasicLit:
						if v, err := strconv.Unquote(e.Value); err == nil {
							want[v] = "volume.ParseShareParams"
							found = true
						}
					}
				}
				return true
			})
		}
	}
	if !found {
		t.Fatal("pkg/volume: no case keys found in ParseShareParams: the check no longer reads the parser")
	}
	if len(want) < 5 {
		t.Fatalf("found only %d parameters (%v)", len(want), want)
	}
	text := strings.Join(readPage(t, paramsPage).lines, "\n")
	for name, from := range want {
		if !strings.Contains(text, "`"+name+"`") {
			t.Errorf("%s: the parameter `%s` (%s) is not documented", paramsPage, name, from)
		}
	}
}

// TestEveryMetricIsDocumented: every metric pkg/metrics defines is in
// docs/metrics.md as `name`.
func TestEveryMetricIsDocumented(t *testing.T) {
	fset, files := parseDir(t, "pkg/metrics", false)
	consts := constants(files)
	ns := consts["namespace"]
	if ns == "" {
		t.Fatal("pkg/metrics: no const namespace")
	}
	names := map[string]string{}
	for _, f := range files {
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.CompositeLit: // prometheus.CounterOpts{Namespace: namespace, Name: "x"}
				var hasNS bool
				var name string
				for _, e := range n.Elts {
					kv, ok := e.(*ast.KeyValueExpr)
					if !ok {
						continue
					}
					k, _ := kv.Key.(*ast.Ident)
					if k == nil {
						continue
					}
					if id, ok := kv.Value.(*ast.Ident); ok && k.Name == "Namespace" && id.Name == "namespace" {
						hasNS = true
					}
					if lit, ok := kv.Value.(*ast.BasicLit); ok && k.Name == "Name" {
						name, _ = strconv.Unquote(lit.Value)
					}
				}
				if hasNS && name != "" {
					names[ns+"_"+name] = fset.Position(n.Pos()).String()
				}
			case *ast.BinaryExpr: // namespace+"_x" in prometheus.NewDesc
				if id, ok := n.X.(*ast.Ident); ok && id.Name == "namespace" && n.Op == token.ADD {
					if lit, ok := n.Y.(*ast.BasicLit); ok {
						s, _ := strconv.Unquote(lit.Value)
						names[ns+s] = fset.Position(n.Pos()).String()
					}
				}
			}
			return true
		})
	}
	if len(names) < 5 {
		t.Fatalf("found only %d metrics in pkg/metrics (%v): the check no longer reads their definitions", len(names), names)
	}
	text := strings.Join(readPage(t, metricsPage).lines, "\n")
	for name, where := range names {
		if !strings.Contains(text, "`"+name+"`") {
			t.Errorf("%s: the metric %s (defined at %s) is not documented", metricsPage, name, where)
		}
	}
}

var (
	kustomizeRE = regexp.MustCompile("kubectl (?:apply|delete)(?: --?[a-z-]+(?:=\\S+)?)* -k ([^\\s`'\"|)]+)")
	helmRE      = regexp.MustCompile("helm3? (?:install|upgrade --install) ([^\\s`]+) ([^\\s`'\"|)]+)")
	overlayRE   = regexp.MustCompile(`manifests/overlays/[a-z0-9-]+`)
	chartRE     = regexp.MustCompile(`charts/[a-z0-9-]+`)
)

// installLine is a kustomize or helm install in the docs.
type installLine struct {
	where string // file:line
	kind  string // "kustomize" or "helm"
	path  string // from the repository root
	line  string
}

func installLines(t *testing.T) []installLine {
	t.Helper()
	all, order := pages(t)
	var out []installLine
	for _, name := range order {
		p := all[name]
		for i, l := range p.lines {
			where := fmt.Sprintf("%s:%d", p.path, i+1)
			for _, m := range kustomizeRE.FindAllStringSubmatch(l, -1) {
				out = append(out, installLine{where, "kustomize", path.Clean(m[1]), l})
			}
			for _, m := range helmRE.FindAllStringSubmatch(l, -1) {
				if m[1] == "..." || strings.HasPrefix(m[2], "-") {
					continue // "helm install ... --set x": a reminder, not a line to run
				}
				out = append(out, installLine{where, "helm", path.Clean(m[2]), l})
			}
		}
	}
	return out
}

// testedInstalls reads what make test-k8s and make test-node install: the
// overlays and charts test/k8s and test/node name (their Go tests, run.sh
// and test/node/overlay), and the --set values test/k8s renders the chart
// with for each cluster kind (checkChartMatchesOverlays).
func testedInstalls(t *testing.T) (overlays, charts map[string]string, sets map[string]string) {
	t.Helper()
	overlays, charts, sets = map[string]string{}, map[string]string{}, map[string]string{}
	var files []string
	for _, pat := range []string{"test/k8s/*.go", "test/k8s/*.sh", "test/node/*.go", "test/node/*.sh", "test/node/overlay/kustomization.yaml"} {
		m, _ := filepath.Glob(filepath.Join(root, pat))
		files = append(files, m...)
	}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		rel, _ := filepath.Rel(root, f)
		for i, l := range strings.Split(string(b), "\n") {
			for _, o := range overlayRE.FindAllString(l, -1) {
				if _, err := os.Stat(filepath.Join(root, o, "kustomization.yaml")); err == nil {
					overlays[o] = fmt.Sprintf("%s:%d", rel, i+1)
				}
			}
			for _, c := range chartRE.FindAllString(l, -1) {
				if _, err := os.Stat(filepath.Join(root, c, "Chart.yaml")); err == nil {
					charts[c] = fmt.Sprintf("%s:%d", rel, i+1)
				}
			}
		}
	}
	// The node test's overlay is the quickstart: what it builds on counts.
	if len(overlays) == 0 || len(charts) == 0 {
		t.Fatalf("found no overlays (%v) or charts (%v) in test/k8s and test/node: the check no longer reads them", overlays, charts)
	}

	fset, parsed := parseDir(t, "test/k8s", true)
	found := false
	for _, f := range parsed {
		for _, d := range f.Decls {
			fn, ok := d.(*ast.FuncDecl)
			if !ok || fn.Name.Name != "checkChartMatchesOverlays" {
				continue
			}
			ast.Inspect(fn, func(n ast.Node) bool {
				kv, ok := n.(*ast.KeyValueExpr)
				if !ok {
					return true
				}
				key, ok := kv.Key.(*ast.BasicLit)
				vals, ok2 := kv.Value.(*ast.CompositeLit)
				if !ok || !ok2 {
					return true
				}
				found = true
				k, _ := strconv.Unquote(key.Value)
				for _, e := range vals.Elts {
					if lit, ok := e.(*ast.BasicLit); ok {
						s, _ := strconv.Unquote(lit.Value)
						sets[s] = fmt.Sprintf("%s (cluster kind %q)", fset.Position(lit.Pos()), k)
					}
				}
				return true
			})
		}
	}
	if !found {
		t.Fatal("test/k8s: no map of cluster kinds to --set values in checkChartMatchesOverlays: the check no longer reads it")
	}
	return overlays, charts, sets
}

// TestInstallLinesAreTheTestedOnes: every kustomize and helm install line in
// the README and the docs names a kustomization or a chart of this
// repository, every overlay one names is one the tests install, and every
// overlay, chart and --set value the tests install with has its line in the
// README and in docs/install.md.
func TestInstallLinesAreTheTestedOnes(t *testing.T) {
	lines := installLines(t)
	overlays, charts, sets := testedInstalls(t)
	for _, l := range lines {
		want := "kustomization.yaml"
		if l.kind == "helm" {
			want = "Chart.yaml"
		}
		if _, err := os.Stat(filepath.Join(root, filepath.FromSlash(l.path), want)); err != nil {
			t.Errorf("%s: %s install of %q: no %s there", l.where, l.kind, l.path, want)
			continue
		}
		if strings.HasPrefix(l.path, "manifests/overlays/") {
			if _, ok := overlays[l.path]; !ok {
				t.Errorf("%s: the overlay %s is not one make test-k8s or make test-node installs", l.where, l.path)
			}
		}
		if l.kind == "helm" {
			if _, ok := charts[l.path]; !ok {
				t.Errorf("%s: the chart %s is not the one make test-k8s installs", l.where, l.path)
			}
		}
	}
	for _, page := range []string{"README.md", installPage} {
		has := map[string]bool{}
		var helmText []string
		for _, l := range lines {
			if strings.HasPrefix(l.where, page+":") {
				has[l.kind+" "+l.path] = true
				if l.kind == "helm" {
					helmText = append(helmText, l.line)
				}
			}
		}
		for o, from := range overlays {
			if !has["kustomize "+o] {
				t.Errorf("%s: no `kubectl apply -k %s` line, but %s installs that overlay", page, o, from)
			}
		}
		for c, from := range charts {
			if !has["helm "+c] {
				t.Errorf("%s: no `helm install ... %s` line, but %s installs that chart", page, c, from)
			}
		}
		all := strings.Join(helmText, "\n")
		for s, from := range sets {
			if strings.HasPrefix(s, "snapshots.") {
				continue // the snapshots component: docs/snapshots.md, checked below
			}
			if !strings.Contains(all, s) {
				t.Errorf("%s: no helm install line with --set %s, which make test-k8s renders the chart with (%s)", page, s, from)
			}
		}
	}
	// Values outside the per-cluster-kind table (the snapshot component) must
	// still be shown somewhere next to a helm command.
	all, order := pages(t)
	var docText bytes.Buffer
	for _, name := range order {
		for _, l := range all[name].lines {
			if strings.Contains(l, "helm") {
				docText.WriteString(l + "\n")
			}
		}
	}
	for s, from := range sets {
		if !strings.Contains(docText.String(), s) {
			t.Errorf("no page shows the helm value %s next to a helm command, which make test-k8s renders the chart with (%s)", s, from)
		}
	}
}
