package share

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/fileshare-csi/fileshare-csi/pkg/source"
)

// withDialers swaps in a registry of test dialers for one test.
func withDialers(t *testing.T, d map[dialKey]DialFunc) {
	dialersMu.Lock()
	old := dialers
	dialers = d
	dialersMu.Unlock()
	t.Cleanup(func() {
		dialersMu.Lock()
		dialers = old
		dialersMu.Unlock()
	})
}

// A protocol no import registered is a clear error, not a nil session.
func TestDialUnregisteredProtocol(t *testing.T) {
	withDialers(t, map[dialKey]DialFunc{})
	for _, src := range []source.Source{{Protocol: source.SMB}, {Protocol: source.NFS, Version: source.NFSv41}} {
		c, err := Dial(context.Background(), src, Credentials{})
		if c != nil || err == nil || !strings.Contains(err.Error(), "is registered") {
			t.Errorf("%s %q: %v, %v; want the error that names the missing registration", src.Protocol, src.Version, c, err)
		}
	}
	if Registered(source.SMB, "") {
		t.Error("Registered with an empty registry")
	}
}

// An unpinned NFS source whose server offers no NFSv3 is served with
// NFSv4.1; a pinned one, or any other NFSv3 failure, is not.
func TestDialFallsBackToNFSv41(t *testing.T) {
	v4 := countingClient{}
	var v3err error
	withDialers(t, map[dialKey]DialFunc{
		{source.NFS, source.NFSv3}: func(context.Context, source.Source, Credentials) (Client, error) {
			return nil, v3err
		},
		{source.NFS, source.NFSv41}: func(context.Context, source.Source, Credentials) (Client, error) {
			return v4, nil
		},
	})
	ctx := context.Background()
	v3err = fmt.Errorf("GETPORT: %w: %w", ErrNoNFSv3, ErrUnavailable)
	if c, err := Dial(ctx, source.Source{Protocol: source.NFS}, Credentials{}); err != nil || c != v4 {
		t.Errorf("unpinned, no NFSv3: %v, %v; want the NFSv4.1 session", c, err)
	}
	if c, err := Dial(ctx, source.Source{Protocol: source.NFS, Version: source.NFSv3}, Credentials{}); !errors.Is(err, ErrNoNFSv3) || c != nil {
		t.Errorf("pinned to NFSv3: %v, %v; want NFSv3's error", c, err)
	}
	v3err = ErrUnavailable
	if c, err := Dial(ctx, source.Source{Protocol: source.NFS}, Credentials{}); !errors.Is(err, ErrUnavailable) || c != nil {
		t.Errorf("unpinned, NFSv3 down: %v, %v; want NFSv3's error", c, err)
	}
}
