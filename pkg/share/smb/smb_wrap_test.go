package smb

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"testing"

	smb2 "github.com/cloudsoda/go-smb2"

	"github.com/fileshare-csi/fileshare-csi/pkg/share"
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
