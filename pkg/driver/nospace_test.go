package driver

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/fileshare-csi/fileshare-csi/pkg/share"
	"github.com/fileshare-csi/fileshare-csi/pkg/share/memshare"
	"github.com/fileshare-csi/fileshare-csi/pkg/state"
)

// TestAFullShareIsResourceExhausted: a share that has no room for
// CreateVolume's directory, or for any data (a quota on blocks), or for
// anything at all, answers the spec's RESOURCE_EXHAUSTED, with words that
// say what to free. Nothing of the volume is left but, at most, the empty
// intent file a create made before its write failed, which says nothing
// and which the retry replaces (the reclaimer takes it too); once there is
// room, the CO's retry makes the volume, and no intent is left.
func TestAFullShareIsResourceExhausted(t *testing.T) {
	for at, fails := range map[string]func(op string) bool{
		"no room for a directory": func(op string) bool { return op == "mkdir" },
		"no room for data":        func(op string) bool { return op == "write" },
		"no room at all":          func(op string) bool { return op == "mkdir" || op == "create" || op == "write" },
	} {
		t.Run(at, func(t *testing.T) {
			ms := memshare.New()
			d := memshareDriver(t, ms)
			createOn(t, d, "pvc-warm", "delete") // the metadata is there
			before := deadCanon(ms.Dump())
			full := 0
			ms.SetHook(func(op memshare.Op, when memshare.When) error {
				if fails(op.Name) && when == memshare.Before {
					full++
					return fmt.Errorf("%s %s: %w", op.Name, op.Path, share.ErrNoSpace)
				}
				return nil
			})
			req := deadCreateReq("pvc-a", nil)
			_, err := d.CreateVolume(context.Background(), req)
			ms.SetHook(nil)
			if full == 0 {
				t.Fatal("CreateVolume met no full share")
			}
			if st := status.Convert(err); st.Code() != codes.ResourceExhausted || !strings.Contains(st.Message(), "free space on the server") {
				t.Fatalf("CreateVolume on a full share: %v, want ResourceExhausted saying what to free", err)
			}
			if diff := memshare.Diff(memshare.WithoutEmptyDirs(before, state.Dir), memshare.WithoutEmptyDirs(withoutEmptyIntents(deadCanon(ms.Dump())), state.Dir)); diff != "" {
				t.Errorf("the refused create left:\n%s", diff)
			}
			if _, err := d.CreateVolume(context.Background(), req); err != nil {
				t.Fatalf("the retry once there is room: %v", err)
			}
			for _, l := range deadCanon(ms.Dump()) {
				if strings.HasPrefix(l, ".fileshare-csi/intents/") && !strings.HasSuffix(l, "/") {
					t.Errorf("after the retry an intent is left: %s", l)
				}
			}
		})
	}
}

// withoutEmptyIntents drops the intent files that hold nothing (the
// canonical line of an empty file is its path alone).
func withoutEmptyIntents(lines []string) []string {
	var out []string
	for _, l := range lines {
		if strings.HasPrefix(l, ".fileshare-csi/intents/") && strings.HasSuffix(l, ".json") {
			continue
		}
		out = append(out, l)
	}
	return out
}
