package mounter

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"sync/atomic"
	"testing"
	"time"

	mount "k8s.io/mount-utils"

	"github.com/fileshare-csi/fileshare-csi/pkg/source"
)

// The fsGroup's chgrp and chmod of an NFS volume root run on the mount,
// whose server may stop answering between the stage's probe (or its
// mount) and them: a hard mount holds them in the kernel until the server
// is back. The stage must still answer by its deadline (ErrNotResponding,
// which the kubelet retries), releasing the volume for an unstage, and a
// retry while the first is stuck must not start a second one beside it;
// once the server answers, a retry delegates the root.
func TestTheFsGroupChgrpNeverHoldsAStagePastItsDeadline(t *testing.T) {
	dir := t.TempDir()
	staging := filepath.Join(dir, "globalmount")
	if err := os.MkdirAll(staging, 0o750); err != nil {
		t.Fatal(err)
	}
	src, err := source.Parse("nfs://nas/export/base")
	if err != nil {
		t.Fatal(err)
	}
	fake := mount.NewFakeMounter([]mount.MountPoint{{Device: "nas:/export/base", Path: staging, Type: "nfs"}})
	l := NewLinuxForTest(fake, nil, t.TempDir())
	release := make(chan struct{})
	var calls atomic.Int32
	was := delegateRoot
	defer func() { delegateRoot = was }()
	delegateRoot = func(path string, gid int) error {
		calls.Add(1)
		<-release // the server does not answer
		return nil
	}
	req := StageRequest{Source: src, StagingPath: staging, MountGroup: "2000"}
	for try := 1; try <= 2; try++ {
		// Room for the stage's own probe of the mount, which must answer
		// first (half the deadline), on a loaded machine.
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		done := make(chan error, 1)
		go func() { done <- l.Stage(ctx, req) }()
		select {
		case err := <-done:
			if !errors.Is(err, ErrNotResponding) {
				t.Errorf("stage %d while the chgrp hangs: %v, want ErrNotResponding", try, err)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("stage %d with a deadline of 2 s waits for the chgrp after 10 s", try)
		}
		cancel()
	}
	if n := calls.Load(); n != 1 {
		t.Errorf("%d chgrps started on the hung mount, want 1", n)
	}
	close(release) // the server is back
	for l.probes.stuck(staging+" (fsGroup 2000)", 0) {
		time.Sleep(time.Millisecond)
	}
	delegateRoot = func(string, int) error { calls.Add(1); return nil }
	if err := l.Stage(context.Background(), req); err != nil || calls.Load() != 2 {
		t.Errorf("stage once the server answers: %v, %d chgrps in all (want 2)", err, calls.Load())
	}
}
