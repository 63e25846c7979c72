//go:build linux

package driver

import (
	"context"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/container-storage-interface/spec/lib/go/csi"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

// A Kerberos volume mounts with the host's own tickets (cifs.upcall, root's
// cache): only when the operator turned that on, with sec=krb5,cruid=0 and
// seal, no password in the credentials file, and the keytab nowhere.
func TestNodeStageKerberosNeedsHostTicketsAndAddsItsOptions(t *testing.T) {
	d, fake, calls := newNodeUnderTest(t)
	staging := filepath.Join(t.TempDir(), "staging")
	req := &csi.NodeStageVolumeRequest{
		VolumeId:          "v1#smb://fs.corp.example/share?auth=krb5&encryption=required#claim#delete",
		StagingTargetPath: staging,
		VolumeCapability:  capability(csi.VolumeCapability_AccessMode_MULTI_NODE_MULTI_WRITER, nil, ""),
		Secrets:           map[string]string{"principal": "svc@CORP.EXAMPLE", "krb5.keytab": "BQIAAA-SECRET", "krb5.conf": "[libdefaults]"},
	}
	_, err := d.NodeStageVolume(context.Background(), req)
	if status.Code(err) != codes.FailedPrecondition || !strings.Contains(err.Error(), "--krb5-host-tickets") {
		t.Fatalf("without --krb5-host-tickets: %v, want FailedPrecondition naming the flag", err)
	}
	if len(*calls) != 0 {
		t.Fatalf("mounted although refused: %+v", *calls)
	}
	d.cfg.Krb5HostTickets = true
	if _, err := d.NodeStageVolume(context.Background(), req); err != nil {
		t.Fatal(err)
	}
	if len(*calls) != 1 {
		t.Fatalf("mount calls: %+v", *calls)
	}
	c := (*calls)[0]
	wantBound(t, fake, c, "//fs.corp.example/share", staging, "claim")
	for _, want := range []string{"sec=krb5", "cruid=0", "seal"} {
		if !slices.Contains(c.options, want) {
			t.Errorf("options %v lack %s", c.options, want)
		}
	}
	if c.credentials != "username=svc\ndomain=CORP.EXAMPLE\n" {
		t.Errorf("credentials file %q", c.credentials)
	}
	st, err := d.nodeState().Staged(staging)
	if err != nil {
		t.Fatal(err)
	}
	if st.Request.Credentials.Keytab != "" || st.Request.Credentials.Krb5Conf != "" {
		t.Error("the node kept the Secret's keytab or krb5.conf")
	}
}

// A pod's inline volume never mounts with Kerberos: the kernel would log
// in with the node's tickets, not the pod's Secret's; not even where the
// node mounts its classes' Kerberos volumes with them.
func TestInlineVolumeNeverMountsWithKerberos(t *testing.T) {
	d, _, calls := newNodeUnderTest(t)
	d.cfg.Krb5HostTickets = true
	var err error
	if d.cfg.InlineSources, err = ParseInlineSources("smb://fs/team"); err != nil {
		t.Fatal(err)
	}
	target := filepath.Join(t.TempDir(), "target")
	_, err = d.NodePublishVolume(context.Background(), inlineRequest(target, "smb://fs/team?auth=krb5", "x", map[string]string{"principal": "svc@R"}))
	if status.Code(err) != codes.FailedPrecondition || !strings.Contains(err.Error(), "node's own tickets") {
		t.Fatalf("inline krb5: %v, want FailedPrecondition", err)
	}
	if len(*calls) != 0 {
		t.Fatalf("mounted: %+v", *calls)
	}
}
