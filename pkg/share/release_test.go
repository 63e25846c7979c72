package share

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"sync/atomic"
	"testing"
	"time"

	smb2 "github.com/cloudsoda/go-smb2"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/fileshare-csi/fileshare-csi/pkg/source"
)

// Release must tell the server's answers, which say nothing about the
// session, from transport failures and cut deadlines, after which the
// session may have a reply in flight and must be closed.
func TestReleaseClosesOnlyBrokenSessions(t *testing.T) {
	for _, tc := range []struct {
		name   string
		err    error
		closed bool
	}{
		{"success", nil, false},
		{"exists", fmt.Errorf("mkdir a: %w", fs.ErrExist), false},
		{"not found", fmt.Errorf("stat a: %w", fs.ErrNotExist), false},
		{"permission", fmt.Errorf("remove a: %w", fs.ErrPermission), false},
		{"gRPC AlreadyExists from a callback", status.Error(codes.AlreadyExists, "volume exists with another capacity"), false},
		{"gRPC NotFound from a callback", status.Error(codes.NotFound, "volume directory a does not exist"), false},
		{"SMB not empty", fmt.Errorf("remove a: %w", &smb2.ResponseError{Code: 0xC0000101}), false},
		{"directory keeps getting new entries", errors.New("a: directory keeps getting new entries"), false},
		{"unavailable", fmt.Errorf("read: %w: connection reset", ErrUnavailable), true},
		{"deadline", fmt.Errorf("mkdir a: %w", context.DeadlineExceeded), true},
		{"canceled", fmt.Errorf("mkdir a: %w", context.Canceled), true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p, dialed, closed := newTestPool(2)
			defer p.Close()
			l, err := p.Get(context.Background(), testSrc, Credentials{})
			if err != nil {
				t.Fatal(err)
			}
			l.Release(tc.err)
			if got := closed.Load() == 1; got != tc.closed {
				t.Fatalf("Release(%v) closed the session: %v, want %v", tc.err, got, tc.closed)
			}
			l, _ = p.Get(context.Background(), testSrc, Credentials{})
			defer l.Release(nil)
			if l.Reused == tc.closed || dialed.Load() != map[bool]int32{false: 1, true: 2}[tc.closed] {
				t.Fatalf("after Release(%v): reused=%v dialed=%d", tc.err, l.Reused, dialed.Load())
			}
		})
	}
}

// brokenClient is a session that knows it is broken although the error its
// caller passes on no longer says so.
type brokenClient struct{ countingClient }

func (brokenClient) Broken() bool { return true }

func TestReleaseClosesASessionThatReportsItselfBroken(t *testing.T) {
	var closed atomic.Int32
	p := &Pool{MaxOpenPerKey: 2, IdleTimeout: time.Hour, Dial: func(context.Context, source.Source, Credentials) (Client, error) {
		return brokenClient{countingClient{closed: &closed}}, nil
	}}
	defer p.Close()
	l, err := p.Get(context.Background(), testSrc, Credentials{})
	if err != nil {
		t.Fatal(err)
	}
	l.Release(status.Error(codes.Internal, "the cause was flattened into a message"))
	if closed.Load() != 1 {
		t.Fatal("a session that reported itself broken went back to the pool")
	}
}
