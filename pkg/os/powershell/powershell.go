// Package powershell runs PowerShell scripts on a Windows node, a few at a
// time, with their inputs in environment variables.
package powershell

import (
	"context"
	"encoding/base64"
	"fmt"
	"sort"
	"strings"
	"unicode/utf16"
)

// Command is one script and the environment variables it reads its inputs
// from. Inputs never go into the script text, where PowerShell would parse
// them as code, nor on the command line, which every process on the node
// can read.
type Command struct {
	Script string
	Env    map[string]string
}

// Args are powershell.exe's arguments for c. The script travels encoded
// (-EncodedCommand is Base64 of UTF-16LE), so no quoting rule of the Windows
// command line can change it.
func (c Command) Args() []string {
	return []string{"-NoLogo", "-NoProfile", "-NonInteractive", "-ExecutionPolicy", "Bypass", "-EncodedCommand", encode(c.Script)}
}

func encode(script string) string {
	u := utf16.Encode([]rune(script))
	b := make([]byte, 2*len(u))
	for i, r := range u {
		b[2*i], b[2*i+1] = byte(r), byte(r>>8)
	}
	return base64.StdEncoding.EncodeToString(b)
}

// Environ is base with c.Env added, replacing variables of the same name.
// Names are compared without case, as Windows does.
func (c Command) Environ(base []string) []string {
	out := make([]string, 0, len(base)+len(c.Env))
	for _, kv := range base {
		name, _, _ := strings.Cut(kv, "=")
		if !c.sets(name) {
			out = append(out, kv)
		}
	}
	names := make([]string, 0, len(c.Env))
	for k := range c.Env {
		names = append(names, k)
	}
	sort.Strings(names)
	for _, k := range names {
		out = append(out, k+"="+c.Env[k])
	}
	return out
}

func (c Command) sets(name string) bool {
	for k := range c.Env {
		if strings.EqualFold(k, name) {
			return true
		}
	}
	return false
}

// DefaultConcurrency bounds the PowerShell processes of one plugin: each
// takes some 100 MB and a second or more to start, and a node that stages
// many volumes at once must not be flooded with them.
const DefaultConcurrency = 3

// Runner runs Commands, at most a fixed number at a time.
type Runner struct {
	slots chan struct{}
	// exec starts powershell.exe and returns what it wrote to stdout.
	exec func(ctx context.Context, args, env []string) ([]byte, error)
}

// NewRunner returns a Runner that runs up to concurrency scripts at once.
func NewRunner(concurrency int) *Runner {
	return newRunner(concurrency, execPowerShell)
}

func newRunner(concurrency int, exec func(ctx context.Context, args, env []string) ([]byte, error)) *Runner {
	if concurrency < 1 {
		concurrency = 1
	}
	return &Runner{slots: make(chan struct{}, concurrency), exec: exec}
}

// Run runs c and returns its standard output without surrounding space. It
// waits for a free slot until ctx ends, and kills the script when it does.
func (r *Runner) Run(ctx context.Context, c Command) (string, error) {
	select {
	case r.slots <- struct{}{}:
	case <-ctx.Done():
		return "", fmt.Errorf("waiting for a free PowerShell slot: %w", ctx.Err())
	}
	defer func() { <-r.slots }()
	out, err := r.exec(ctx, c.Args(), c.Environ(baseEnviron()))
	if err != nil {
		return "", err
	}
	return strings.TrimSpace(string(out)), nil
}
