//go:build !windows

package powershell

import (
	"context"
	"errors"
	"fmt"
)

func baseEnviron() []string { return nil }

func execPowerShell(context.Context, []string, []string) ([]byte, error) {
	return nil, fmt.Errorf("PowerShell runs only on Windows nodes: %w", errors.ErrUnsupported)
}
