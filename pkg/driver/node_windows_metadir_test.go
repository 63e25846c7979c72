package driver

import (
	"context"
	"path/filepath"
	"testing"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/fileshare-csi/fileshare-csi/pkg/os/csiproxy/csiproxytest"
)

// A Windows node maps and links an inline volume's whole path (a UNC
// path, which csi-proxy and CreateSymbolicLink normalize as Win32 does):
// a trailing period of a name is dropped, and trailing periods and spaces
// of the last one, so .fileshare-csi. and ".fileshare-csi " are the
// controller's records directory there. Where the allow-list names a
// class's base, such a pod mounted the records of every volume of the
// class, which the name check refuses in any case but not in these
// spellings.
func TestAnInlinePathNamingTheRecordsWithTrailingDotsIsRefused(t *testing.T) {
	for _, tc := range []struct{ src, subDir string }{
		{"smb://fs/share/.fileshare-csi.", ""},
		{"smb://fs/share/.fileshare-csi./pvc-1", ""},
		{"smb://fs/share", ".FileShare-CSI."},
		{"smb://fs/share/a", ".fileshare-csi ."},
		{"smb://fs/share", ".fileshare-csi "},
	} {
		t.Run(tc.src+"+"+tc.subDir, func(t *testing.T) {
			fake := csiproxytest.Start(t, winDriverDir)
			d := newWindowsCredsNode(t, fake, filepath.Join(t.TempDir(), "state"))
			var err error
			if d.cfg.InlineSources, err = ParseInlineSources("smb://fs/share"); err != nil {
				t.Fatal(err)
			}
			fake.SetPassword("fs", `CORP\mallory`, "pw")
			err = inlineOn(context.Background(), d, fake, "csi-mallory", "mallory", tc.src, tc.subDir, secretOf("mallory", "pw"))
			if status.Code(err) != codes.InvalidArgument {
				l, _ := fake.Link(winTargetOf("mallory"))
				t.Fatalf("inline volume %s (subDir %q): %v, want InvalidArgument; linked to %q", tc.src, tc.subDir, err, l)
			}
			wantNothingMounted(t, d, fake, "mallory")
		})
	}
}
