//go:build windows

package powershell

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"
)

// maxErrorText bounds the part of PowerShell's error output put into an
// error message.
const maxErrorText = 2000

func baseEnviron() []string { return os.Environ() }

// powerShellPath is Windows PowerShell from the system directory: in a
// HostProcess pod the PATH is the container's, but the cmdlets for SMB
// global mappings come with the node's own PowerShell.
func powerShellPath() string {
	root := os.Getenv("SystemRoot")
	if root == "" {
		root = `C:\Windows`
	}
	return filepath.Join(root, "System32", "WindowsPowerShell", "v1.0", "powershell.exe")
}

func execPowerShell(ctx context.Context, args, env []string) ([]byte, error) {
	cmd := exec.CommandContext(ctx, powerShellPath(), args...)
	cmd.Env = env
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	cmd.WaitDelay = 5 * time.Second
	err := cmd.Run()
	if ctx.Err() != nil {
		return nil, fmt.Errorf("PowerShell: %w: gave up and stopped it", ctx.Err())
	}
	if err != nil {
		msg := strings.TrimSpace(stderr.String())
		if len(msg) > maxErrorText {
			msg = msg[:maxErrorText] + "..."
		}
		return nil, fmt.Errorf("PowerShell failed: %w: %s", err, msg)
	}
	return stdout.Bytes(), nil
}
