package driver

import (
	"context"
	"testing"
	"time"

	"github.com/container-storage-interface/spec/lib/go/csi"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/fileshare-csi/fileshare-csi/pkg/share/memshare"
)

// CreateVolume is idempotent against the request's capacity range, not
// one exact size: a volume expanded since, or a clone whose source grew
// since its first call (its size follows the source's at creation), is
// the same volume to the same request. (Both were refused AlreadyExists; a
// clone still being filled then never bound.) A request whose range the
// volume does not fit is still refused.
func reviewCaps() []*csi.VolumeCapability {
	return []*csi.VolumeCapability{{
		AccessType: &csi.VolumeCapability_Mount{Mount: &csi.VolumeCapability_MountVolume{}},
		AccessMode: &csi.VolumeCapability_AccessMode{Mode: csi.VolumeCapability_AccessMode_MULTI_NODE_MULTI_WRITER},
	}}
}

func TestACloneRequestedAgainAfterItsSourceGrewIsTheSameVolume(t *testing.T) {
	ms := memshare.New()
	d := memshareDriver(t, ms)
	ctx := context.Background()
	src := createOn(t, d, "pvc-src", "delete")
	if _, err := d.ControllerExpandVolume(ctx, &csi.ControllerExpandVolumeRequest{VolumeId: src, CapacityRange: &csi.CapacityRange{RequiredBytes: 1 << 30}}); err != nil {
		t.Fatal(err)
	}
	req := &csi.CreateVolumeRequest{
		Name:               "pvc-clone",
		Parameters:         map[string]string{"source": "nfs://127.0.0.1/export/base", "onDelete": "delete"},
		VolumeCapabilities: reviewCaps(),
		CapacityRange:      &csi.CapacityRange{RequiredBytes: 1 << 20},
		VolumeContentSource: &csi.VolumeContentSource{Type: &csi.VolumeContentSource_Volume{
			Volume: &csi.VolumeContentSource_VolumeSource{VolumeId: src}}},
	}
	first, err := d.CreateVolume(ctx, req)
	if err != nil {
		t.Fatal(err)
	}
	// The source claim is expanded (its own business).
	if _, err := d.ControllerExpandVolume(ctx, &csi.ControllerExpandVolumeRequest{VolumeId: src, CapacityRange: &csi.CapacityRange{RequiredBytes: 2 << 30}}); err != nil {
		t.Fatal(err)
	}
	again, err := d.CreateVolume(ctx, req)
	if err != nil {
		t.Fatalf("the same CreateVolume request again: %v (first answer %s)", err, first.GetVolume().GetVolumeId())
	}
	if again.GetVolume().GetVolumeId() != first.GetVolume().GetVolumeId() {
		t.Fatalf("another volume: %s, want %s", again.GetVolume().GetVolumeId(), first.GetVolume().GetVolumeId())
	}
}

func TestACloneBeingFilledBindsAfterItsSourceGrew(t *testing.T) {
	ms := memshare.New()
	d := memshareDriver(t, ms)
	ctx := context.Background()
	src := createOn(t, d, "pvc-a", "delete")
	manyFiles(t, ms, 200)
	slowCopies(ms, "pvc-a/")
	req := &csi.CreateVolumeRequest{
		Name:               "pvc-clone",
		Parameters:         map[string]string{"source": "nfs://127.0.0.1/export/base", "onDelete": "delete"},
		VolumeCapabilities: reviewCaps(),
		VolumeContentSource: &csi.VolumeContentSource{Type: &csi.VolumeContentSource_Volume{
			Volume: &csi.VolumeContentSource_VolumeSource{VolumeId: src}}},
	}
	short, cancel := context.WithTimeout(ctx, 700*time.Millisecond)
	_, err := d.CreateVolume(short, req)
	cancel()
	if status.Code(err) != codes.Aborted {
		t.Fatalf("first call: %v, want Aborted (still filling)", err)
	}
	if _, err := d.ControllerExpandVolume(ctx, &csi.ControllerExpandVolumeRequest{VolumeId: src, CapacityRange: &csi.CapacityRange{RequiredBytes: 1 << 30}}); err != nil {
		t.Fatal(err)
	}
	for end := time.Now().Add(20 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		_, err := d.CreateVolume(ctx, req)
		if err == nil {
			return
		}
		if status.Code(err) != codes.Aborted {
			t.Fatalf("a retry of the same request: %v", err)
		}
		if time.Now().After(end) {
			t.Fatal("never answered")
		}
	}
}

func TestAnExpandedVolumeRequestedAgainFitsItsRange(t *testing.T) {
	ms := memshare.New()
	d := memshareDriver(t, ms)
	ctx := context.Background()
	req := &csi.CreateVolumeRequest{
		Name:               "pvc-a",
		Parameters:         map[string]string{"source": "nfs://127.0.0.1/export/base", "onDelete": "delete"},
		VolumeCapabilities: reviewCaps(),
		CapacityRange:      &csi.CapacityRange{RequiredBytes: 1 << 30},
	}
	first, err := d.CreateVolume(ctx, req)
	if err != nil {
		t.Fatal(err)
	}
	id := first.GetVolume().GetVolumeId()
	if _, err := d.ControllerExpandVolume(ctx, &csi.ControllerExpandVolumeRequest{VolumeId: id, CapacityRange: &csi.CapacityRange{RequiredBytes: 2 << 30}}); err != nil {
		t.Fatal(err)
	}
	again, err := d.CreateVolume(ctx, req)
	if err != nil || again.GetVolume().GetVolumeId() != id || again.GetVolume().GetCapacityBytes() != 2<<30 {
		t.Fatalf("the same request after an expansion: %v, %v; want volume %s of %d bytes", again.GetVolume(), err, id, 2<<30)
	}
	for _, r := range []*csi.CapacityRange{{RequiredBytes: 3 << 30}, {RequiredBytes: 1 << 30, LimitBytes: 1 << 30}} {
		req.CapacityRange = r
		if _, err := d.CreateVolume(ctx, req); status.Code(err) != codes.AlreadyExists {
			t.Errorf("a request for %v of a volume of %d bytes: %v, want AlreadyExists", r, 2<<30, err)
		}
	}
}

// CSI: ControllerExpandVolume answers OUT_OF_RANGE for a range it cannot
// meet; a volume already larger than limit_bytes cannot shrink to it.
func TestExpandToLessThanTheVolumeIsOutOfRange(t *testing.T) {
	ms := memshare.New()
	d := memshareDriver(t, ms)
	ctx := context.Background()
	id := createOn(t, d, "pvc-a", "delete")
	if _, err := d.ControllerExpandVolume(ctx, &csi.ControllerExpandVolumeRequest{VolumeId: id, CapacityRange: &csi.CapacityRange{RequiredBytes: 2 << 30}}); err != nil {
		t.Fatal(err)
	}
	resp, err := d.ControllerExpandVolume(ctx, &csi.ControllerExpandVolumeRequest{VolumeId: id, CapacityRange: &csi.CapacityRange{RequiredBytes: 1 << 30, LimitBytes: 1 << 30}})
	if err == nil && resp.GetCapacityBytes() > 1<<30 {
		t.Fatalf("answered OK with %d bytes, above limit_bytes %d; want OUT_OF_RANGE", resp.GetCapacityBytes(), 1<<30)
	}
	if status.Code(err) != codes.OutOfRange {
		t.Fatalf("%v, want OUT_OF_RANGE", err)
	}
}
