package mounter

import (
	"context"
	"errors"
	"path/filepath"
	"sync/atomic"
	"testing"
	"time"

	"github.com/fileshare-csi/fileshare-csi/pkg/source"
	"k8s.io/mount-utils"
)

// A stage whose subdirectory the server answers only after the call gave
// up never binds it late: that bind would stack on the bind of the stage
// again (an unstage would then leave one), or, after an unstage that found
// nothing mounted yet, stay on the node for good.
func TestAStageThatGaveUpNeverBindsLate(t *testing.T) {
	src, err := source.Parse("nfs://10.0.0.5/export")
	if err != nil {
		t.Fatal(err)
	}
	for _, then := range []string{"stage again", "unstage"} {
		t.Run(then, func(t *testing.T) {
			fake := mount.NewFakeMounter(nil)
			run := func(_ context.Context, fstype, device, target string, options []string) error {
				return fake.Mount(device, target, fstype, options)
			}
			l := NewLinuxForTest(fake, run, filepath.Join(t.TempDir(), "creds"))
			open := l.openSub
			answer, closed := make(chan struct{}), make(chan struct{})
			// Only the first open waits for the server; the later stage's
			// goes through. The swap is made once, before any stage: the
			// first stage's goroutine outlives its call, and setting the
			// field back under it would race with its read.
			var opens atomic.Int32
			l.openSub = func(root, sub string) (string, func(), error) {
				if opens.Add(1) > 1 {
					return open(root, sub)
				}
				<-answer // the server answers now
				src, _, err := open(root, sub)
				return src, func() { close(closed) }, err
			}
			req := StageRequest{Source: src, SubDir: "pvc-1", StagingPath: filepath.Join(t.TempDir(), "globalmount")}
			ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
			defer cancel()
			if err := l.Stage(ctx, req); !errors.Is(err, ErrNotResponding) {
				t.Fatalf("stage with the server silent: %v, want ErrNotResponding", err)
			}
			ctx = context.Background()
			want := 0
			if then == "stage again" {
				if err := l.Stage(ctx, req); err != nil {
					t.Fatal(err)
				}
				want = 1
			} else if err := l.Unstage(ctx, req.StagingPath); err != nil {
				t.Fatal(err)
			}
			close(answer)
			select {
			case <-closed: // the open is done with: no bind comes after
			case <-time.After(10 * time.Second):
				t.Fatal("the late open of the subdirectory was never closed")
			}
			var at int
			mps, _ := fake.List()
			for _, mp := range mps {
				if mp.Path == req.StagingPath {
					at++
				}
			}
			if at != want {
				t.Fatalf("%d mounts at the staging path after the server answered the stage that gave up, want %d: %+v", at, want, mps)
			}
		})
	}
}
