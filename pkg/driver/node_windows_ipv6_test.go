package driver

import (
	"context"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/fileshare-csi/fileshare-csi/pkg/os/csiproxy/csiproxytest"
	"github.com/fileshare-csi/fileshare-csi/pkg/os/winhost"
	"github.com/fileshare-csi/fileshare-csi/pkg/source"
)

// On a Windows node an IPv6 server is written fd00--5.ipv6-literal.net in
// a UNC path (winpath.UNCHost), so smb://[fd00::5]/share and
// smb://fd00--5.ipv6-literal.net/share are one global mapping,
// \\fd00--5.ipv6-literal.net\share. Compared as the sources write their
// hosts they would be two servers, and a pod's inline volume with any
// Secret would be linked into the mapping alice's volume made with her
// credentials: the per-server check (mappingConflict) compares hosts as
// the UNC path writes them (serverKey).
func TestAnIPv6AddressAndItsLiteralNameAreOneServer(t *testing.T) {
	for _, mode := range []string{"csi-proxy", "HostProcess"} {
		t.Run(mode, func(t *testing.T) {
			fake := csiproxytest.Start(t, winDriverDir)
			var host winhost.Host = fake.NewClient(t)
			if mode == "HostProcess" {
				host = &csiproxytest.OptionsHost{Host: host}
			}
			d := newWindowsCredsNodeOn(t, fake, host, filepath.Join(t.TempDir(), "state"))
			var err error
			if d.cfg.InlineSources, err = ParseInlineSources("smb://fd00--5.ipv6-literal.net/share/scratch"); err != nil {
				t.Fatal(err)
			}
			ctx := context.Background()
			fake.SetPassword("fd00--5.ipv6-literal.net", `CORP\alice`, "alice-pw")
			if err := stageOn(ctx, d, fake, "v1#smb://[fd00::5]/share#pvc-alice#delete", "a", secretOf("alice", "alice-pw")); err != nil {
				t.Fatal(err)
			}
			fake.ResetCalls()
			err = inlineOn(ctx, d, fake, "csi-mallory", "mallory", "smb://fd00--5.ipv6-literal.net/share/scratch", "", secretOf("mallory", "any-pw"))
			l, linked := fake.Link(winTargetOf("mallory"))
			t.Logf("inline publish: err=%v link=%q mappings=%+v", err, l, fake.Mappings())
			if linked || status.Code(err) != codes.FailedPrecondition {
				t.Fatalf("mallory's inline volume was linked to %q through the mapping made as %s (err %v), want FailedPrecondition naming alice's volume",
					l, strings.Join(users(fake), ","), err)
			}
		})
	}
}

// The server's lock (lockServer) is keyed by the same form as the check:
// two stages of one mapping, one naming the address and one its literal
// name, in any case, wait for each other rather than check each other's
// records before either is saved.
func TestAnIPv6AddressAndItsLiteralNameTakeOneServerLock(t *testing.T) {
	var keys [][]string
	for _, s := range []string{"smb://[fd00::5]/share", "smb://fd00--5.ipv6-literal.net/share", "smb://FD00--5.IPv6-Literal.NET/other"} {
		src, err := source.Parse(s)
		if err != nil {
			t.Fatal(err)
		}
		keys = append(keys, (*aliasUse)(nil).hosts(src))
	}
	for _, k := range keys[1:] {
		if !slices.Equal(k, keys[0]) {
			t.Fatalf("the server lock keys of one server differ: %q", keys)
		}
	}
}

func users(fake *csiproxytest.Server) []string {
	var out []string
	for _, m := range fake.Mappings() {
		out = append(out, m.Username)
	}
	return out
}
