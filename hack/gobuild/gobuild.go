// Package gobuild is the one way the project's Go programs are compiled for
// images and tests: `make images` (hack/images), `make test-k8s`
// (test/k8s), `make test-node` (test/node, for the stand-ins it puts in
// images of its own) and the integration suite, benchmarks and demo
// (test/harness). With one recipe the driver a test runs is the driver the
// images ship, and a change of flags is made once.
//
// Every program is static (CGO_ENABLED=0, so one binary runs on a Debian
// root, on the empty controller image and on any node) and built with
// -trimpath (the same bytes from any checkout path: the images are
// reproducible). The driver is also stripped (-s -w) and carries its
// version (-X main.version), which `fileshare-csi --version`, GetPluginInfo
// and the log at start report.
package gobuild

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// DriverPackage is the driver's main package, relative to the repository.
const DriverPackage = "./cmd/fileshare-csi"

// Target is the platform to build for; empty fields are the host's.
type Target struct {
	GOOS, GOARCH, GOARM string
}

// String names the target as GOOS/GOARCH[/vGOARM], for error messages.
func (t Target) String() string {
	if t == (Target{}) {
		return "the host"
	}
	s := t.GOOS + "/" + t.GOARCH
	if t.GOARM != "" {
		s += "/v" + t.GOARM
	}
	return s
}

// Driver builds the driver into out, stamped with version.
func Driver(ctx context.Context, repo, out, version string, t Target) error {
	return build(ctx, repo, DriverPackage, out, t, "-s -w -X main.version="+version)
}

// Program builds another main package of the repository (pkg relative to
// repo, as "./test/node/pause") into out with the driver's static recipe.
// It is not stripped: these are test programs whose stack traces and
// symbols are worth more than their size.
func Program(ctx context.Context, repo, pkg, out string, t Target) error {
	return build(ctx, repo, pkg, out, t, "")
}

func build(ctx context.Context, repo, pkg, out string, t Target, ldflags string) error {
	if err := os.MkdirAll(filepath.Dir(out), 0o755); err != nil {
		return fmt.Errorf("go build %s: %w", pkg, err)
	}
	args := []string{"build", "-trimpath"}
	if ldflags != "" {
		args = append(args, "-ldflags", ldflags)
	}
	args = append(args, "-o", out, pkg)
	cmd := exec.CommandContext(ctx, "go", args...)
	cmd.Dir = repo
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
	// Always set, empty meaning the host's: a GOOS or GOARCH inherited from
	// whoever runs the test must not turn a host build into a cross build.
	for _, kv := range [][2]string{{"GOOS", t.GOOS}, {"GOARCH", t.GOARCH}, {"GOARM", t.GOARM}} {
		cmd.Env = append(cmd.Env, kv[0]+"="+kv[1])
	}
	if b, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("go build %s for %s: %w\n%s", pkg, t, err, b)
	}
	return nil
}

// Describe is the version `make build` stamps: `git describe --tags
// --always --dirty` of the repository, or "dev" outside a git checkout.
func Describe(ctx context.Context, repo string) string {
	cmd := exec.CommandContext(ctx, "git", "describe", "--tags", "--always", "--dirty")
	cmd.Dir = repo
	out, err := cmd.Output()
	if v := strings.TrimSpace(string(out)); err == nil && v != "" {
		return v
	}
	return "dev"
}
