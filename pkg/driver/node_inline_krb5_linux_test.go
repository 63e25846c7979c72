//go:build linux

package driver

import (
	"context"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

// "A pod's inline volume never mounts with Kerberos" (docs/security.md), on
// NFS as on SMB: an NFS sec=krb5 mount logs in through the host's
// rpc.gssd, as the node's machine principal for uid 0 and, for another
// uid, with whatever /tmp/krb5cc_<uid> the host has (the --krb5-cache-uids
// caches of staged volumes among them), never the pod's own identity. A
// sec= list is the server's choice among its flavours, so a Kerberos one
// anywhere in it is refused.
func TestAnInlineNFSVolumeNeverMountsWithKerberos(t *testing.T) {
	for _, opts := range []string{"sec=krb5", "sec=krb5p", "sec=sys:krb5i", "SEC=KRB5I", "sec=sys,sec=krb5"} {
		t.Run(opts, func(t *testing.T) {
			d, _, calls := newNodeUnderTest(t)
			var err error
			if d.cfg.InlineSources, err = ParseInlineSources("nfs://nas/exports/scratch"); err != nil {
				t.Fatal(err)
			}
			req := inlineRequest(filepath.Join(t.TempDir(), "mount"), "nfs://nas/exports/scratch", "job-1", nil)
			req.VolumeContext[ContextMountOptions] = opts
			_, err = d.NodePublishVolume(context.Background(), req)
			if status.Code(err) != codes.FailedPrecondition && status.Code(err) != codes.InvalidArgument {
				t.Errorf("inline NFS volume with %s: %v, want it refused", opts, err)
			}
			for _, c := range *calls {
				t.Errorf("mounted: mount -t %s -o %v %s", c.fstype, c.options, c.device)
			}
		})
	}
}

// Without a sec= an NFSv4 mount negotiates its flavour, and takes krb5 by
// itself from an export that offers only Kerberos: the inline mount names
// sec=sys so that it never does. A sec= the pod names that is not Kerberos
// is left as it is.
func TestAnInlineNFSVolumeMountsWithSecSysUnlessItNamesASec(t *testing.T) {
	for opts, want := range map[string]string{"": "sec=sys", "vers=4.1": "sec=sys", "sec=sys": "sec=sys"} {
		t.Run(opts, func(t *testing.T) {
			d, _, calls := newNodeUnderTest(t)
			var err error
			if d.cfg.InlineSources, err = ParseInlineSources("nfs://nas/exports/scratch"); err != nil {
				t.Fatal(err)
			}
			req := inlineRequest(filepath.Join(t.TempDir(), "mount"), "nfs://nas/exports/scratch", "job-1", nil)
			if opts != "" {
				req.VolumeContext[ContextMountOptions] = opts
			}
			if _, err := d.NodePublishVolume(context.Background(), req); err != nil {
				t.Fatal(err)
			}
			if len(*calls) == 0 {
				t.Fatal("nothing mounted")
			}
			for _, c := range *calls {
				if c.fstype != "nfs" {
					continue
				}
				var secs []string
				for _, o := range strings.Split(strings.Join(c.options, ","), ",") {
					if strings.HasPrefix(o, "sec=") {
						secs = append(secs, o)
					}
				}
				if !slices.Equal(secs, []string{want}) {
					t.Errorf("mount -t nfs -o %v %s: sec options %v, want [%s]", c.options, c.device, secs, want)
				}
			}
		})
	}
}
