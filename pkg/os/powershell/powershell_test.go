package powershell

import (
	"context"
	"encoding/base64"
	"errors"
	"sync"
	"sync/atomic"
	"testing"
	"time"
	"unicode/utf16"
)

func decodeScript(t *testing.T, args []string) string {
	t.Helper()
	if len(args) < 2 || args[len(args)-2] != "-EncodedCommand" {
		t.Fatalf("args %q do not end with -EncodedCommand <script>", args)
	}
	b, err := base64.StdEncoding.DecodeString(args[len(args)-1])
	if err != nil || len(b)%2 != 0 {
		t.Fatalf("encoded script: %v", err)
	}
	u := make([]uint16, len(b)/2)
	for i := range u {
		u[i] = uint16(b[2*i]) | uint16(b[2*i+1])<<8
	}
	return string(utf16.Decode(u))
}

func TestArgsCarryTheScriptEncoded(t *testing.T) {
	script := "$ErrorActionPreference = 'Stop'\nWrite-Output \"ü $env:X\"\n"
	args := Command{Script: script, Env: map[string]string{"X": "value"}}.Args()
	if got := decodeScript(t, args); got != script {
		t.Fatalf("decoded script %q, want %q", got, script)
	}
	for _, want := range []string{"-NoProfile", "-NonInteractive"} {
		found := false
		for _, a := range args {
			found = found || a == want
		}
		if !found {
			t.Errorf("args %q lack %s", args, want)
		}
	}
}

func TestEnvironReplacesVariablesOfTheSameNameIgnoringCase(t *testing.T) {
	c := Command{Env: map[string]string{"FILESHARE_X": "new", "B": "2"}}
	got := c.Environ([]string{"Path=C:\\Windows", "fileshare_x=old", "SystemRoot=C:\\Windows"})
	want := []string{"Path=C:\\Windows", "SystemRoot=C:\\Windows", "B=2", "FILESHARE_X=new"}
	if len(got) != len(want) {
		t.Fatalf("Environ = %q, want %q", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("Environ = %q, want %q", got, want)
		}
	}
}

func TestRunnerRunsAtMostItsConcurrency(t *testing.T) {
	var running, most atomic.Int32
	r := newRunner(3, func(ctx context.Context, args, env []string) ([]byte, error) {
		n := running.Add(1)
		defer running.Add(-1)
		for {
			m := most.Load()
			if n <= m || most.CompareAndSwap(m, n) {
				break
			}
		}
		time.Sleep(20 * time.Millisecond)
		return []byte("  OK\r\n"), nil
	})
	var wg sync.WaitGroup
	for i := 0; i < 12; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			out, err := r.Run(context.Background(), Command{Script: "x"})
			if err != nil || out != "OK" {
				t.Errorf("Run = %q, %v; want OK", out, err)
			}
		}()
	}
	wg.Wait()
	if m := most.Load(); m != 3 {
		t.Fatalf("at most %d scripts ran at once, want exactly 3", m)
	}
}

func TestRunnerGivesUpWaitingForASlotAtTheDeadline(t *testing.T) {
	release, busy := make(chan struct{}), make(chan struct{})
	r := newRunner(1, func(ctx context.Context, args, env []string) ([]byte, error) {
		close(busy) // only the first script runs: the second must wait
		<-release
		return nil, nil
	})
	go r.Run(context.Background(), Command{Script: "busy"})
	// The second call starts once the first holds the only slot. After a
	// 10 ms sleep instead, a first call not yet run (a loaded machine)
	// left the slot to the second, whose script then waited for release
	// and the test for it, until go test's timeout.
	<-busy
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	_, err := r.Run(ctx, Command{Script: "waits"})
	close(release)
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("Run while all slots are busy: %v, want DeadlineExceeded", err)
	}
}

func TestRunnerPassesEnvironmentNotArguments(t *testing.T) {
	var gotArgs, gotEnv []string
	r := newRunner(1, func(ctx context.Context, args, env []string) ([]byte, error) {
		gotArgs, gotEnv = args, env
		return nil, nil
	})
	if _, err := r.Run(context.Background(), Command{Script: "Write-Output $env:SECRET_INPUT", Env: map[string]string{"SECRET_INPUT": "hunter2"}}); err != nil {
		t.Fatal(err)
	}
	for _, a := range gotArgs {
		if a == "hunter2" {
			t.Fatalf("input on the command line: %q", gotArgs)
		}
	}
	if len(gotEnv) == 0 || gotEnv[len(gotEnv)-1] != "SECRET_INPUT=hunter2" {
		t.Fatalf("env %q lacks SECRET_INPUT", gotEnv)
	}
}
