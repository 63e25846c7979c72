package metrics

import (
	"context"
	"io"
	"net"
	"net/http"
	"strconv"
	"strings"
	"testing"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/fileshare-csi/fileshare-csi/test/freeport"
)

// With metrics off the driver holds a nil *Metrics and calls it anyway.
func TestNilMetricsRecordNothingAndPassCallsThrough(t *testing.T) {
	var m *Metrics
	m.VolumeDeleted("nfs", "delete", 3)
	m.MountRepaired("smb", nil)
	m.ProbeTimedOut("nfs")
	m.SourceAliasUsed("nfs://a/x", "nfs://b/x")
	m.SourceAliasesLoaded(1)
	m.SourceAliasesFailed()
	m.WatchPool(nil)
	m.WatchMounts(nil)
	resp, err := m.UnaryInterceptor()(context.Background(), "req", &grpc.UnaryServerInfo{FullMethod: "/x/Y"},
		func(context.Context, any) (any, error) { return "resp", nil })
	if resp != "resp" || err != nil {
		t.Fatalf("interceptor without metrics: %v %v", resp, err)
	}
}

func TestCallsAreCountedByMethodAndCode(t *testing.T) {
	m := New("test.csi.dev")
	call := m.UnaryInterceptor()
	info := &grpc.UnaryServerInfo{FullMethod: "/csi.v1.Controller/CreateVolume"}
	for _, err := range []error{nil, nil, status.Error(codes.InvalidArgument, "no name")} {
		_, _ = call(context.Background(), nil, info, func(context.Context, any) (any, error) { return nil, err })
	}
	port, err := freeport.Get()
	if err != nil {
		t.Fatal(err)
	}
	addr := net.JoinHostPort("127.0.0.1", strconv.Itoa(port))
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	if err := m.Serve(ctx, addr); err != nil {
		t.Fatal(err)
	}
	resp, err := http.Get("http://" + addr + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	for _, want := range []string{
		`csi_plugin_operations_seconds_count{driver_name="test.csi.dev",grpc_status_code="OK",method_name="/csi.v1.Controller/CreateVolume"} 2`,
		`csi_plugin_operations_seconds_count{driver_name="test.csi.dev",grpc_status_code="InvalidArgument",method_name="/csi.v1.Controller/CreateVolume"} 1`,
		"process_start_time_seconds ",
		"go_goroutines ",
	} {
		if !strings.Contains(string(b), want) {
			t.Errorf("/metrics lacks %q", want)
		}
	}
	if n := strings.Count(string(b), "\nprocess_start_time_seconds "); n != 1 {
		t.Errorf("process_start_time_seconds appears %d times", n)
	}
}

func TestServeRefusesABadAddressAtOnce(t *testing.T) {
	if err := New("x").Serve(context.Background(), "not-an-address"); err == nil || !strings.Contains(err.Error(), "--metrics-address") {
		t.Fatalf("bad address: %v", err)
	}
}
