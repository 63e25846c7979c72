package gobuild

import (
	"context"
	"debug/buildinfo"
	"debug/elf"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

const repo = "../.."

// settings reads the build settings go build recorded in the binary (with
// -trimpath it leaves -ldflags out: they may hold paths).
func settings(t *testing.T, bin string) map[string]string {
	t.Helper()
	info, err := buildinfo.ReadFile(bin)
	if err != nil {
		t.Fatal(err)
	}
	m := map[string]string{}
	for _, s := range info.Settings {
		m[s.Key] = s.Value
	}
	return m
}

// The driver as the images ship it: it prints the version it was stamped
// with, and the binary records the static, trimmed, stripped recipe. The
// caller's GOOS and GOARCH point elsewhere, so a build for the host that
// obeyed them would not run here.
func TestDriverIsStampedStaticAndForTheTargetAsked(t *testing.T) {
	t.Setenv("GOOS", "windows")
	t.Setenv("GOARCH", "arm64")
	t.Setenv("CGO_ENABLED", "1")
	bin := filepath.Join(t.TempDir(), "fileshare-csi")
	const version = "v9.8.7-gobuild-test"
	if err := Driver(context.Background(), repo, bin, version, Target{}); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(bin, "--version").CombinedOutput()
	if err != nil {
		t.Fatalf("%s --version: %v\n%s", bin, err, out)
	}
	if got := strings.TrimSpace(string(out)); got != version {
		t.Errorf("--version printed %q, want %q", got, version)
	}
	s := settings(t, bin)
	for k, want := range map[string]string{
		"CGO_ENABLED": "0",
		"-trimpath":   "true",
		"GOOS":        runtime.GOOS,
		"GOARCH":      runtime.GOARCH,
	} {
		if s[k] != want {
			t.Errorf("build setting %s = %q, want %q (all: %v)", k, s[k], want, s)
		}
	}
	f := openELF(t, bin)
	if f.Section(".symtab") != nil {
		t.Error("the driver has a symbol table: it was not built with -s")
	}
	checkStatic(t, f)
}

func openELF(t *testing.T, bin string) *elf.File {
	t.Helper()
	f, err := elf.Open(bin)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	return f
}

// checkStatic: a static binary names no program interpreter (ld.so).
func checkStatic(t *testing.T, f *elf.File) {
	t.Helper()
	for _, p := range f.Progs {
		if p.Type == elf.PT_INTERP {
			t.Error("the binary names a program interpreter: it is not static")
		}
	}
}

// A test program cross-built for a platform of the images (linux/arm/v7):
// the same static recipe, an ARM ELF, not stripped as the driver is.
func TestProgramCrossBuildsStatic(t *testing.T) {
	bin := filepath.Join(t.TempDir(), "pause")
	target := Target{GOOS: "linux", GOARCH: "arm", GOARM: "7"}
	if err := Program(context.Background(), repo, "./test/node/pause", bin, target); err != nil {
		t.Fatal(err)
	}
	s := settings(t, bin)
	for k, want := range map[string]string{"CGO_ENABLED": "0", "-trimpath": "true", "GOOS": "linux", "GOARCH": "arm", "GOARM": "7"} {
		if s[k] != want {
			t.Errorf("build setting %s = %q, want %q (all: %v)", k, s[k], want, s)
		}
	}
	f := openELF(t, bin)
	if f.Machine != elf.EM_ARM {
		t.Errorf("ELF machine %v, want ARM", f.Machine)
	}
	if f.Section(".symtab") == nil {
		t.Error("the test program was stripped: only the driver is")
	}
	checkStatic(t, f)
}

// A failed build says what and for which platform.
func TestBuildErrorNamesPackageAndTarget(t *testing.T) {
	err := Program(context.Background(), repo, "./no/such/package", filepath.Join(t.TempDir(), "x"), Target{GOOS: "linux", GOARCH: "arm64"})
	if err == nil || !strings.Contains(err.Error(), "./no/such/package for linux/arm64") {
		t.Fatalf("error %v, want one naming the package and linux/arm64", err)
	}
}

func TestDescribeOutsideAGitCheckoutIsDev(t *testing.T) {
	if v := Describe(context.Background(), t.TempDir()); v != "dev" {
		t.Errorf("Describe outside a checkout = %q, want dev", v)
	}
}
