package csiproxy_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	fsv1 "github.com/kubernetes-csi/csi-proxy/client/api/filesystem/v1"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/fileshare-csi/fileshare-csi/pkg/os/csiproxy/csiproxytest"
	"github.com/fileshare-csi/fileshare-csi/pkg/os/winhost"
)

func TestUnavailableCSIProxySaysSo(t *testing.T) {
	fake := csiproxytest.Start(t)
	c := fake.NewClient(t)
	fake.Stop()
	err := c.NewSMBGlobalMapping(context.Background(), `\\fs\share\vol`, `c:\var\lib\kubelet\x`, "alice", "s3cret", winhost.MapOptions{})
	if !errors.Is(err, winhost.ErrUnavailable) {
		t.Fatalf("err = %v, want ErrUnavailable", err)
	}
	if !strings.Contains(err.Error(), "is csi-proxy running") || !strings.Contains(err.Error(), fake.Endpoint()) {
		t.Fatalf("message %q does not ask whether csi-proxy runs, or name the endpoint", err)
	}
	if strings.Contains(err.Error(), "s3cret") {
		t.Fatalf("message shows the password: %v", err)
	}
	if _, err := c.PathExists(context.Background(), `c:\var`); !errors.Is(err, winhost.ErrUnavailable) {
		t.Fatalf("filesystem call: %v, want ErrUnavailable", err)
	}
}

func TestDeadlineAndCancellationWrapTheContextErrors(t *testing.T) {
	fake := csiproxytest.Start(t, `c:\var\lib\kubelet`)
	fake.Block("Mkdir")
	c := fake.NewClient(t)

	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	if err := c.Mkdir(ctx, `c:\var\lib\kubelet\d`); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("err = %v, want DeadlineExceeded", err)
	}

	ctx, cancel = context.WithCancel(context.Background())
	time.AfterFunc(50*time.Millisecond, cancel)
	if err := c.Mkdir(ctx, `c:\var\lib\kubelet\d`); !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want Canceled", err)
	}
}

func TestOtherErrorsKeepCSIProxysMessage(t *testing.T) {
	fake := csiproxytest.Start(t)
	fake.Fail("RemoveSmbGlobalMapping", status.Error(codes.Unknown, "error remove smb mapping: Access is denied"))
	err := fake.NewClient(t).RemoveSMBGlobalMapping(context.Background(), `\\fs\share`)
	if err == nil || !strings.Contains(err.Error(), "Access is denied") {
		t.Fatalf("err = %v, want csi-proxy's message", err)
	}
	if errors.Is(err, winhost.ErrUnavailable) || errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("err = %v is classified as retryable", err)
	}
}

// No mapping to remove is what a removal wants (after a reboot): csi-proxy's
// "not found", in the words of Windows in any language, is success.
func TestRemovingAMappingThatIsNotThereSucceeds(t *testing.T) {
	fake := csiproxytest.Start(t)
	if err := fake.NewClient(t).RemoveSMBGlobalMapping(context.Background(), `\\fs\share`); err != nil {
		t.Fatalf("removing a mapping that is not there: %v", err)
	}
	// German Windows: the message is translated, the error's id is not.
	fake.Fail("RemoveSmbGlobalMapping", status.Error(codes.Unknown, `UnmountSmbShare failed. output: "Remove-SmbGlobalMapping : Es wurden keine MSFT_SmbGlobalMapping-Objekte gefunden.\r\n    + FullyQualifiedErrorId : CmdletizationQuery_NotFound_RemotePath,Remove-SmbGlobalMapping", err: exit status 1`))
	if err := fake.NewClient(t).RemoveSMBGlobalMapping(context.Background(), `\\fs\share`); err != nil {
		t.Fatalf("removing a mapping that is not there, German Windows: %v", err)
	}
}

func TestFilesystemRequests(t *testing.T) {
	fake := csiproxytest.Start(t, `c:\var\lib\kubelet\pods\p`, `c:\var\lib\kubelet\plugins\s`)
	c := fake.NewClient(t)
	ctx := context.Background()
	if err := c.CreateSymlink(ctx, `c:\var\lib\kubelet\pods\p\mount`, `c:\var\lib\kubelet\plugins\s`); err != nil {
		t.Fatal(err)
	}
	if err := c.Rmdir(ctx, `c:\var\lib\kubelet\pods\p\mount`); err != nil {
		t.Fatal(err)
	}
	calls := fake.Calls()
	if len(calls) != 2 {
		t.Fatalf("calls %v", calls)
	}
	link := calls[0].Request.(*fsv1.CreateSymlinkRequest)
	if link.GetSourcePath() != `c:\var\lib\kubelet\plugins\s` || link.GetTargetPath() != `c:\var\lib\kubelet\pods\p\mount` {
		t.Fatalf("CreateSymlink %v: SourcePath must be the existing directory, TargetPath the new link", link)
	}
	if rm := calls[1].Request.(*fsv1.RmdirRequest); rm.GetForce() {
		t.Fatalf("Rmdir %v sets Force", rm)
	}
	// csi-proxy refuses links to network paths on the filesystem API: they
	// come from NewSmbGlobalMapping.
	if err := c.CreateSymlink(ctx, `c:\var\lib\kubelet\pods\p\mount`, `\\fs\share\vol`); err == nil {
		t.Fatal("CreateSymlink to a UNC path succeeded on the fake csi-proxy")
	}
}
