package smb

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"strings"
	"testing"

	smb2 "github.com/cloudsoda/go-smb2"

	"github.com/fileshare-csi/fileshare-csi/pkg/share"
	"github.com/fileshare-csi/fileshare-csi/pkg/source"
)

// wrap decides both the error class callers see and whether the session
// goes back to the pool: only transport failures and cut deadlines break it.
func TestSMBWrapBreaksSessionOnlyOnTransportFailures(t *testing.T) {
	done, cancel := context.WithCancel(context.Background())
	cancel()
	for _, tc := range []struct {
		name        string
		ctx         context.Context
		err         error
		unavailable bool
		broken      bool
	}{
		{"not found", context.Background(), &fs.PathError{Op: "stat", Path: "a", Err: fs.ErrNotExist}, false, false},
		{"exists", context.Background(), fs.ErrExist, false, false},
		{"not empty", context.Background(), &fs.PathError{Op: "remove", Path: "a", Err: &smb2.ResponseError{Code: 0xC0000101}}, false, false},
		{"disk full", context.Background(), &smb2.ResponseError{Code: 0xC000007F}, false, false},
		{"our own refusal", context.Background(), errors.New("a: directory keeps getting new entries"), false, false},
		{"connection reset", context.Background(), &smb2.TransportError{Err: io.ErrUnexpectedEOF}, true, true},
		{"garbled reply", context.Background(), &smb2.InvalidResponseError{Message: "broken"}, true, true},
		{"session deleted by the server", context.Background(), &smb2.ResponseError{Code: 0xC0000203}, true, true},
		{"closed connection", context.Background(), fmt.Errorf("write: %w", io.EOF), true, true},
		{"cut at the deadline", done, &smb2.TransportError{Err: io.EOF}, false, true},
		{"derived context canceled", context.Background(), context.Canceled, false, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := &smbClient{}
			err := c.wrap(tc.ctx, "op", "a", tc.err)
			if got := errors.Is(err, share.ErrUnavailable); got != tc.unavailable {
				t.Errorf("wrap(%v) = %v: Unavailable %v, want %v", tc.err, err, got, tc.unavailable)
			}
			if c.Broken() != tc.broken {
				t.Errorf("wrap(%v): session broken %v, want %v", tc.err, c.Broken(), tc.broken)
			}
			if share.BreaksSession(err) != tc.broken {
				t.Errorf("BreaksSession(%v) = %v, want %v", err, !tc.broken, tc.broken)
			}
		})
	}
}

// STATUS_DISK_FULL and STATUS_QUOTA_EXCEEDED are share.ErrNoSpace (the
// driver's RESOURCE_EXHAUSTED), an answer that keeps the session.
func TestNoSpaceIsTheStatus(t *testing.T) {
	for _, code := range []uint32{0xC000007F, 0xC0000044} {
		c := &smbClient{}
		err := c.wrap(context.Background(), "write", "a", &fs.PathError{Op: "write", Path: "a", Err: &smb2.ResponseError{Code: code}})
		if !errors.Is(err, share.ErrNoSpace) || c.Broken() {
			t.Errorf("status %#x: %v (session broken %v); want ErrNoSpace and the session kept", code, err, c.Broken())
		}
	}
	if err := (&smbClient{}).wrap(context.Background(), "write", "disk full", &smb2.ResponseError{Code: 0xC0000022}); errors.Is(err, share.ErrNoSpace) {
		t.Errorf("access denied on a file named %q: %v", "disk full", err)
	}
}

// "Not empty" is STATUS_DIRECTORY_NOT_EMPTY, and only that: the error's
// text holds the path too, which a volume's user names. Read from the
// text, a directory called "not empty" that another open held
// (STATUS_SHARING_VIOLATION, worth a retry) was "not empty" to Rmdir, and
// after two passes left behind for good (ErrLeftBehind: purge answered OK
// with the tree kept in the quarantine).
func TestNotEmptyIsTheStatusNotThePath(t *testing.T) {
	for _, tc := range []struct {
		name string
		err  error
		want bool
	}{
		{"directory not empty", &fs.PathError{Op: "remove", Path: `q\a`, Err: &smb2.ResponseError{Code: 0xC0000101}}, true},
		{"in use, in a directory named so", &fs.PathError{Op: "remove", Path: `q\not empty`, Err: &smb2.ResponseError{Code: 0xC0000043}}, false},
		{"connection reset, in a directory named so", &fs.PathError{Op: "remove", Path: `q\not empty\b`, Err: &smb2.TransportError{Err: io.ErrUnexpectedEOF}}, false},
		{"no error", nil, false},
	} {
		if got := isNotEmpty(tc.err); got != tc.want {
			t.Errorf("%s: isNotEmpty(%v) = %v, want %v", tc.name, tc.err, got, tc.want)
		}
	}
}

// A Windows server answers a path through a link with
// STATUS_STOPPED_ON_SYMLINK and leaves the link to its client. The client's
// share never follows it (go-smb2 would open the target, wherever in the
// share it lies: another volume's file swapped in after a copy's listing),
// on every context it is bound to, and the status is a refusal that says
// why: never "not found", never a broken session.
func TestTheSMBClientNeverFollowsAServersLink(t *testing.T) {
	c := newClient(nil, nil, &smb2.Share{}, source.Source{Protocol: source.SMB, Host: "fs", Share: "s"})
	if c.share.FollowsClientLinks() || c.on(context.Background()).FollowsClientLinks() {
		t.Fatal("the client's share follows a server's links for it")
	}
	err := c.wrap(context.Background(), "open", "vol/f", &fs.PathError{Op: "open", Path: `vol\f`, Err: &smb2.ResponseError{Code: stoppedOnSymlink}})
	if !errors.Is(err, fs.ErrPermission) || errors.Is(err, fs.ErrNotExist) || c.Broken() || !strings.Contains(err.Error(), "never follows") {
		t.Fatalf("wrap(STOPPED_ON_SYMLINK) = %v (broken %v); want a refusal that names the link", err, c.Broken())
	}
}

// A path that opened another file than the one a listing showed (go-smb2's
// OpenID, and a Batch read with an ID: a directory swapped for a link the
// server resolves) is share.ErrChanged, which fails a copy, and the
// server's answer about the path: the session is not broken.
func TestAnotherFileThanListedIsChangedNotABrokenSession(t *testing.T) {
	c := &smbClient{}
	err := c.wrap(context.Background(), "open", "vol/d/f", &fs.PathError{Op: "open", Path: `vol\d\f`, Err: fmt.Errorf("file ID 8, not 7: %w", smb2.ErrOtherFile)})
	if !errors.Is(err, share.ErrChanged) || errors.Is(err, share.ErrUnavailable) || c.Broken() || share.BreaksSession(err) {
		t.Fatalf("wrap(ErrOtherFile) = %v (broken %v); want ErrChanged, the session kept", err, c.Broken())
	}
}
