package nfs3

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"testing"

	"github.com/fileshare-csi/fileshare-csi/pkg/share"
	"github.com/fileshare-csi/fileshare-csi/pkg/share/oncrpc"
)

func TestExportOfPicksTheLongestExportHoldingThePath(t *testing.T) {
	exports := []string{"/srv", "/srv/share", "/data/", "/srv/shared"}
	for p, want := range map[string]string{
		"/srv/share":     "/srv/share",
		"/srv/share/x/y": "/srv/share",
		"/srv/shared/x":  "/srv/shared",
		"/srv/sharex":    "/srv",
		"/data/x":        "/data",
		"/elsewhere/x":   "/elsewhere/x",
		"/srv":           "/srv",
	} {
		if got := exportOf(p, exports); got != want {
			t.Errorf("exportOf(%q) = %q, want %q", p, got, want)
		}
	}
	if got := exportOf("/a/b", []string{"/"}); got != "/" {
		t.Errorf("a server exporting / roots sessions there, got %q", got)
	}
	if got := exportOf("/a/b", nil); got != "/a/b" {
		t.Errorf("no export list: the source's own path, got %q", got)
	}
}

// The session is rooted at the source's own path only when the server
// withholds its exports for good (it does not run EXPORT, or not for us);
// a failure that may pass (SYSTEM_ERR, a dropped connection, a garbled
// list, the deadline) fails the dial instead: a session rooted there by
// chance would look for the records where they are not, and a DeleteVolume
// would answer OK and leave the volume.
func TestOnlyWithheldExportsRootTheSessionAtTheSource(t *testing.T) {
	for _, c := range []struct {
		err      error
		withheld bool
	}{
		{fmt.Errorf("%w: %w: RPC: the server does not implement this procedure (PROC_UNAVAIL)", share.ErrUnavailable, oncrpc.ErrRefused), true},
		{fmt.Errorf("%w: %w: RPC: call denied (auth_stat 1)", share.ErrUnavailable, oncrpc.ErrRefused), true},
		{fmt.Errorf("%w: RPC: the server failed (SYSTEM_ERR)", share.ErrUnavailable), false},
		{fmt.Errorf("%w: read RPC record mark: %w", share.ErrUnavailable, io.ErrUnexpectedEOF), false},
		{fmt.Errorf("%w: export list: %w", share.ErrUnavailable, oncrpc.ErrMalformed), false},
		{context.DeadlineExceeded, false},
		{fs.ErrPermission, false},
	} {
		if got := exportsWithheld(c.err); got != c.withheld {
			t.Errorf("%v: withheld %v, want %v", c.err, got, c.withheld)
		}
	}
}

// The statuses that say nothing about a path (a stale handle, a server
// that asks for the call again later) are ErrUnavailable, retried, never
// fs.ErrNotExist, which the store takes for "not there". JUKEBOX is
// ErrTryLater: the session that read it stays in the pool.
func TestStatusesThatAreNoAnswerAboutAPath(t *testing.T) {
	for status, want := range map[uint32]error{
		2:              fs.ErrNotExist, // NOENT
		17:             fs.ErrExist,
		13:             fs.ErrPermission,
		66:             share.ErrNotEmpty,
		70:             share.ErrUnavailable, // STALE
		10001:          share.ErrUnavailable, // BADHANDLE
		nfs3ErrJukebox: share.ErrTryLater,
	} {
		err := statusError(status)
		if !errors.Is(err, want) {
			t.Errorf("status %d: %v, want %v", status, err, want)
		}
		if errors.Is(want, share.ErrUnavailable) && share.IsAnswer(err) {
			t.Errorf("status %d: %v reads as an answer about a path", status, err)
		}
		if status == 70 && errors.Is(err, share.ErrTryLater) {
			t.Errorf("STALE reads as try-again-later, which keeps a session whose handles the server no longer knows")
		}
	}
}
