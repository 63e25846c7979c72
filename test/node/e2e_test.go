//go:build linux

package node

import (
	"bufio"
	"context"
	"encoding/xml"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/fileshare-csi/fileshare-csi/test/localservers"
)

// e2eClasses are the classes the suite runs against: one test-driver file
// each in test/node/e2e, and the StorageClass it names.
var e2eClasses = []struct {
	name, proto  string
	mountOptions []string
}{
	{"nfs41", "nfs", []string{"vers=4.1"}},
	{"nfs3", "nfs", []string{"vers=3", "nolock"}},
	{"smb3", "smb", []string{"dir_mode=0777", "file_mode=0777", "mfsymlinks", "vers=3.0"}},
}

// specList is test/node/e2e/specs.txt: the curated specs (run by make
// test-node, each must run and pass for every class) and the skips (never
// run, each with its reason).
type specList struct {
	curated []curated
	skips   []skip
}

// A line may start with {class,class}: it applies to those classes only.
type curated struct {
	name    string
	classes []string // empty: every class
}

type skip struct {
	pattern, reason string
	classes         []string
}

func appliesTo(classes []string, class string) bool {
	if len(classes) == 0 {
		return true
	}
	for _, c := range classes {
		if c == class {
			return true
		}
	}
	return false
}

// forClass narrows the list to one class.
func (l specList) forClass(class string) specList {
	var out specList
	for _, c := range l.curated {
		if appliesTo(c.classes, class) {
			out.curated = append(out.curated, c)
		}
	}
	for _, s := range l.skips {
		if appliesTo(s.classes, class) {
			out.skips = append(out.skips, s)
		}
	}
	return out
}

// classPrefix splits "{a,b} rest" into [a b] and rest.
func classPrefix(line string) ([]string, string) {
	if !strings.HasPrefix(line, "{") {
		return nil, line
	}
	end := strings.Index(line, "}")
	if end < 0 {
		return nil, line
	}
	return strings.Split(line[1:end], ","), strings.TrimSpace(line[end+1:])
}

func readSpecList(t *testing.T) specList {
	t.Helper()
	f, err := os.Open(filepath.Join(env.repo, "test/node/e2e/specs.txt"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var l specList
	section := ""
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		switch {
		case line == "" || strings.HasPrefix(line, "#"):
		case line == "[curated]" || line == "[skip]":
			section = line
		case section == "[curated]":
			classes, name := classPrefix(line)
			l.curated = append(l.curated, curated{name: name, classes: classes})
		case section == "[skip]":
			classes, rest := classPrefix(line)
			pattern, reason, ok := strings.Cut(rest, " -- ")
			if !ok || strings.TrimSpace(reason) == "" {
				t.Fatalf("specs.txt: a skip without a reason: %q (write `pattern -- reason`)", line)
			}
			l.skips = append(l.skips, skip{strings.TrimSpace(pattern), strings.TrimSpace(reason), classes})
		default:
			t.Fatalf("specs.txt: %q is outside [curated] and [skip]", line)
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return l
}

func (l specList) skipRegexp() string {
	var parts []string
	for _, s := range l.skips {
		parts = append(parts, s.pattern)
	}
	return strings.Join(parts, "|")
}

// junit is the part of ginkgo's JUnit report the test reads.
type junit struct {
	Suites []struct {
		Cases []struct {
			Name    string  `xml:"name,attr"`
			Status  string  `xml:"status,attr"`
			Time    float64 `xml:"time,attr"`
			Skipped *struct {
				Message string `xml:"message,attr"`
			} `xml:"skipped"`
			Failure *struct {
				Message string `xml:"message,attr"`
				Text    string `xml:",chardata"` // where ginkgo puts the failure itself
			} `xml:"failure"`
		} `xml:"testcase"`
	} `xml:"testsuite"`
}

type specResult struct {
	name, status, reason string
	seconds              float64
}

// runE2E runs the external storage suite for each class: the curated specs
// by default, all of them with FILESHARE_E2E=full (which also rewrites
// docs/conformance.md).
func runE2E(t *testing.T) {
	mode := os.Getenv(envE2E)
	if mode == "" {
		mode = "curated"
	}
	if mode == "none" {
		t.Skip(envE2E + "=none")
	}
	specs := readSpecList(t)
	e2e := env.h.FindBin(t, "e2e.test")
	results := map[string][]specResult{}
	var mu sync.Mutex
	// The full suite runs the classes side by side (its specs mostly wait
	// on pods and polls); the curated set one class after another.
	t.Run("classes", func(t *testing.T) {
		runClasses(t, mode, e2e, specs, &mu, results)
	})
	// A full run rewrites docs/conformance.md; a curated run writes its
	// record only where FILESHARE_CONFORMANCE_OUT says.
	out := os.Getenv("FILESHARE_CONFORMANCE_OUT")
	narrowed := os.Getenv("FILESHARE_E2E_CLASSES") != "" || os.Getenv("FILESHARE_E2E_FOCUS") != ""
	if mode == "full" && out == "" && !narrowed {
		out = filepath.Join(env.repo, "docs/conformance.md")
	}
	if out != "" {
		if err := writeConformance(out, mode, specs, results); err != nil {
			t.Fatal(err)
		}
		t.Logf("wrote %s", out)
	}
}

func runClasses(t *testing.T, mode, e2e string, specs specList, mu *sync.Mutex, results map[string][]specResult) {
	// FILESHARE_E2E_CLASSES and FILESHARE_E2E_FOCUS narrow a run while a
	// failure is looked into; such a run never rewrites the record.
	only := map[string]bool{}
	for _, n := range strings.FieldsFunc(os.Getenv("FILESHARE_E2E_CLASSES"), func(r rune) bool { return r == ',' || r == ' ' }) {
		only[n] = true
	}
	for _, c := range e2eClasses {
		c := c
		t.Run(c.name, func(t *testing.T) {
			if len(only) > 0 && !only[c.name] {
				t.Skip("not in FILESHARE_E2E_CLASSES")
			}
			if mode == "full" {
				t.Parallel()
			}
			createE2EClass(t, c.name, c.proto, c.mountOptions)
			mine := specs.forClass(c.name)
			focus := `External.Storage`
			if f := os.Getenv("FILESHARE_E2E_FOCUS"); f != "" {
				focus = `External.Storage.*(` + f + `)`
			} else if mode == "curated" {
				var q []string
				for _, s := range mine.curated {
					q = append(q, regexp.QuoteMeta(s.name))
				}
				focus = `External.Storage.*(` + strings.Join(q, "|") + `)`
			}
			report := filepath.Join(env.work, "e2e-"+c.name)
			res := runSuite(t, e2e, c.name, focus, mine.skipRegexp(), report)
			mu.Lock()
			results[c.name] = res
			mu.Unlock()
			ran := map[string]specResult{}
			for _, r := range res {
				if r.status != "skipped" {
					ran[r.name] = r
				}
				if r.status == "failed" {
					t.Errorf("%s failed: %s", r.name, firstLine(r.reason))
				}
			}
			if mode == "curated" && os.Getenv("FILESHARE_E2E_FOCUS") == "" {
				for _, cur := range mine.curated {
					want := cur.name
					found := false
					for name, r := range ran {
						if strings.Contains(name, want) {
							found = true
							t.Logf("%s %s (%.0f s)", r.status, want, r.seconds)
						}
					}
					if !found {
						t.Errorf("curated spec %q did not run for %s (renamed in this Kubernetes version, or skipped by the suite)", want, c.name)
					}
				}
			} else if len(ran) == 0 {
				t.Errorf("no spec ran for %s", c.name)
			}
		})
	}
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(strings.TrimSpace(s), "\n")
	return s
}

// createE2EClass makes the class a test-driver file names: the example's
// parameters and secrets with the VM's servers in them.
func createE2EClass(t *testing.T, name, proto string, mountOptions []string) {
	t.Helper()
	params := fmt.Sprintf("  source: nfs://%s/tmp/fileshare-node/nfsd/export/e2e-%s\n", guestIP, name)
	if proto == "smb" {
		params = fmt.Sprintf(`  source: smb://%s/%s/e2e-%s
  csi.storage.k8s.io/provisioner-secret-name: fileshare-smb-creds
  csi.storage.k8s.io/provisioner-secret-namespace: fileshare-csi
  csi.storage.k8s.io/node-stage-secret-name: fileshare-smb-creds
  csi.storage.k8s.io/node-stage-secret-namespace: fileshare-csi
  csi.storage.k8s.io/node-publish-secret-name: fileshare-smb-creds
  csi.storage.k8s.io/node-publish-secret-namespace: fileshare-csi
`, guestIP, localservers.SMBShare, name)
	}
	mustGuest(t, "sh", "-c", fmt.Sprintf("d=/tmp/fileshare-node/%s/e2e-%s; mkdir -p $d && chmod 0777 $d",
		map[string]string{"nfs": "nfsd/export", "smb": "samba/share"}[proto], name))
	if proto == "nfs" {
		// The test-driver file's inline volume: it must exist, nothing
		// creates an inline volume's directory.
		mustGuest(t, "sh", "-c", fmt.Sprintf("d=/tmp/fileshare-node/nfsd/export/e2e-inline-%s; mkdir -p $d && chmod 0777 $d", name))
	}
	var mo strings.Builder
	for _, o := range mountOptions {
		fmt.Fprintf(&mo, "  - %s\n", o)
	}
	kubectl(t, fmt.Sprintf(`apiVersion: storage.k8s.io/v1
kind: StorageClass
metadata: {name: e2e-%s}
provisioner: fileshare.csi.dev
parameters:
%s  onDelete: delete
  mountPermissions: "0777"
reclaimPolicy: Delete
volumeBindingMode: Immediate
mountOptions:
%s`, name, params, mo.String()), "apply", "-f", "-")
}

// runSuite runs e2e.test once and returns every spec's result from its
// JUnit report.
func runSuite(t *testing.T, e2e, class, focus, skip, report string) []specResult {
	t.Helper()
	if err := os.MkdirAll(report, 0o755); err != nil {
		t.Fatal(err)
	}
	// FILESHARE_E2E_BUDGET cuts a run short (ginkgo's own timeout): the
	// report then shows the specs it did not reach as not run.
	budget := 100 * time.Minute
	if d, err := time.ParseDuration(os.Getenv("FILESHARE_E2E_BUDGET")); err == nil && d > 0 {
		budget = d
	}
	ctx, cancel := context.WithTimeout(context.Background(), budget+5*time.Minute)
	defer cancel()
	args := []string{
		"-kubeconfig=" + env.h.AdminKC,
		"-storage.testdriver=" + filepath.Join(env.repo, "test/node/e2e", class+".yaml"),
		"-ginkgo.focus=" + focus,
		"-ginkgo.skip=" + skip,
		"-ginkgo.no-color", "-ginkgo.v", "-ginkgo.timeout=" + budget.String(),
		"-report-dir=" + report,
		"-provider=skeleton",
		"-node-os-distro=debian",
		// No system pods in this cluster to wait for.
		"-minStartupPods=0",
		"-allowed-not-ready-nodes=0",
	}
	cmd := exec.CommandContext(ctx, e2e, args...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
	logPath := filepath.Join(env.work, "e2e-"+class+".log")
	lf, err := os.Create(logPath)
	if err != nil {
		t.Fatal(err)
	}
	defer lf.Close()
	cmd.Stdout, cmd.Stderr = lf, lf
	start := time.Now()
	runErr := cmd.Run()
	t.Logf("e2e.test for %s: %v after %s (log %s)", class, runErr, time.Since(start).Round(time.Second), logPath)
	b, err := os.ReadFile(filepath.Join(report, "junit_01.xml"))
	if err != nil {
		t.Fatalf("no JUnit report from e2e.test (%v): %v\n%s", runErr, err, tailFile(logPath))
	}
	var j junit
	if err := xml.Unmarshal(b, &j); err != nil {
		t.Fatal(err)
	}
	var out []specResult
	for _, s := range j.Suites {
		for _, c := range s.Cases {
			if !strings.Contains(c.Name, "External Storage") {
				continue // the suite's own setup and teardown nodes
			}
			r := specResult{name: c.Name, status: c.Status, seconds: c.Time}
			if c.Skipped != nil {
				r.reason = c.Skipped.Message
			}
			if c.Failure != nil {
				r.reason = c.Failure.Message
				if strings.TrimSpace(r.reason) == "" {
					r.reason = c.Failure.Text
				}
			}
			out = append(out, r)
		}
	}
	sort.Slice(out, func(i, k int) bool { return out[i].name < out[k].name })
	return out
}

// writeConformance records a full run: per class, every spec with its
// result, and for each skip the reason (ours from specs.txt, or the
// suite's own).
func writeConformance(path, mode string, specs specList, results map[string][]specResult) error {
	version, _ := env.h.Kubectl("", "version", "-o", "yaml")
	kube := "unknown"
	if m := regexp.MustCompile(`(?m)serverVersion:[\s\S]*?gitVersion: (\S+)`).FindStringSubmatch(version); m != nil {
		kube = m[1]
	}
	var b strings.Builder
	fmt.Fprintf(&b, `# Kubernetes storage e2e conformance

Kubernetes' external storage suite (`+"`test/e2e/storage/external`"+`, the one csi-driver-nfs and
csi-driver-smb run) against fileshare-csi on a one-node cluster: the control plane on the host, the kubelet,
containerd and the file servers in the test VM, the driver installed from its own images with the quickstart
manifests (`+"`test/node`"+`).

- Kubernetes %s, run on %s, %s.
- Regenerate: `+"`make test-e2e`"+` (all specs; about a minute each under emulation). `+"`make test`"+` runs the
  curated set in `+"`test/node/e2e/specs.txt`"+`.
- Test-driver files: `+"`test/node/e2e/{nfs41,nfs3,smb3}.yaml`"+` (capabilities declared, and why the others are not).

%s`, kube, time.Now().UTC().Format("2006-01-02"), map[string]string{
		"full":    "every spec of the suite (`make test-e2e`)",
		"curated": "**the curated set only** (`make test-node`, the specs in `test/node/e2e/specs.txt`): specs outside it show as skipped by the suite's focus, not by the driver; `make test-e2e` records them all",
	}[mode], budgetNote())
	b.WriteString("## Skipped on purpose\n\n| classes | pattern | reason |\n|---|---|---|\n")
	for _, s := range specs.skips {
		classes := "all"
		if len(s.classes) > 0 {
			classes = strings.Join(s.classes, ", ")
		}
		fmt.Fprintf(&b, "| %s | `%s` | %s |\n", classes, s.pattern, mdEscape(s.reason))
	}
	for _, c := range e2eClasses {
		res := results[c.name]
		counts := map[string]int{}
		for _, r := range res {
			counts[r.status]++
		}
		tally := fmt.Sprintf("%d passed, %d failed, %d skipped.", counts["passed"], counts["failed"], counts["skipped"])
		if mode != "full" {
			tally = fmt.Sprintf("%d passed, %d failed (the curated set).", counts["passed"], counts["failed"])
		}
		fmt.Fprintf(&b, "\n## %s\n\n%s\n\n| spec | result | note |\n|---|---|---|\n", c.name, tally)
		for _, r := range res {
			if mode != "full" && r.status == "skipped" {
				continue // outside the curated focus
			}
			note := ""
			switch r.status {
			case "skipped":
				note = skipReason(specs.forClass(c.name), r)
			case "failed":
				note = firstLine(r.reason)
			default:
				note = fmt.Sprintf("%.0f s", r.seconds)
			}
			name := strings.TrimPrefix(r.name, "[sig-storage] ")
			fmt.Fprintf(&b, "| %s | %s | %s |\n", mdEscape(name), r.status, mdEscape(note))
		}
	}
	return os.WriteFile(path, []byte(b.String()), 0o644)
}

func budgetNote() string {
	if b := os.Getenv("FILESHARE_E2E_BUDGET"); b != "" {
		return "\n- **This run had a time budget of " + b + "** (FILESHARE_E2E_BUDGET): specs it did not reach show as skipped with the suite's interruption message, not as results.\n"
	}
	return ""
}

func skipReason(specs specList, r specResult) string {
	for _, s := range specs.skips {
		if ok, _ := regexp.MatchString(s.pattern, r.name); ok {
			return "ours: " + s.reason
		}
	}
	if r.reason != "" {
		return "the suite: " + firstLine(r.reason)
	}
	return "the suite skipped it"
}

func mdEscape(s string) string {
	return strings.NewReplacer("|", `\|`, "\n", " ").Replace(s)
}
