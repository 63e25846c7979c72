package main

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
)

// buildBinary cross-compiles the driver for p: static, so the same binary
// runs on the Debian root and on the empty controller image.
func buildBinary(ctx context.Context, repo, out string, p platform, version string) error {
	if err := os.MkdirAll(filepath.Dir(out), 0o755); err != nil {
		return err
	}
	cmd := exec.CommandContext(ctx, "go", "build", "-trimpath",
		"-ldflags", "-s -w -X main.version="+version, "-o", out, "./cmd/fileshare-csi")
	cmd.Dir = repo
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0", "GOOS=linux", "GOARCH="+p.goarch, "GOARM="+p.goarm)
	if b, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("go build for %s: %w\n%s", p.tagPart, err, b)
	}
	return nil
}
