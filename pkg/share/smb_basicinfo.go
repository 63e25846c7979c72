package share

import (
	"encoding/binary"
	"errors"
	"fmt"
	"runtime/debug"
	"sync"
	"time"
	"unsafe"

	smb2 "github.com/cloudsoda/go-smb2"
)

// go-smb2 sends IOCTL and SET_INFO requests for its own operations (Readlink,
// Chmod, Chtimes, a buggy whole-file server-side copy) but exports no way to
// send one of our choosing: no File.Ioctl, no way to set FileAttributes
// beyond read-only, no copy of a byte range. Without those there is no
// FSCTL_SRV_COPYCHUNK_WRITE and no hidden, system or archive attribute.
//
// This file reaches the library's two unexported request methods,
// (*File).ioctl and (*File).setInfo, by linkname. They take the library's
// internal request structs, which are mirrored below field for field: the
// library then does everything else as for its own requests (credits,
// signing, encryption, the reply's status). Only the input buffers (wire
// format, MS-SMB2 and MS-FSCC) and the decoding of the output are ours.
//
// The mirrors are right for exactly one version of the library, so the
// bridge opens only for it (smbPrivateOK) and TestSMBPrivateMirrors fails
// when go.mod moves to another: check the structs in
// internal/smb2/request.go and packet.go, then update smbPrivateVersion.
// Where the bridge is closed, CopyData and setting DOS attributes answer
// errors.ErrUnsupported. Once go-smb2 exports an ioctl and a set-info, this
// file goes.

const (
	smbModule = "github.com/cloudsoda/go-smb2"
	// smbPrivateVersion is the go-smb2 version the mirrors were checked against.
	smbPrivateVersion = "v0.0.0-20260918041005-0c5d69b69701"
)

// errNoSMBBridge says the library in this binary is not the one the
// mirrors were checked against.
var errNoSMBBridge = fmt.Errorf("go-smb2 other than %s: its unexported request methods are not used: %w", smbPrivateVersion, errors.ErrUnsupported)

// smbPrivateOK reports whether this binary carries the go-smb2 version the
// mirrors match, unreplaced. Test binaries carry no dependency list; there
// TestSMBPrivateMirrors checks go.mod and the source instead.
var smbPrivateOK = sync.OnceValue(func() bool {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return false
	}
	for _, d := range bi.Deps {
		if d.Path == smbModule {
			return d.Version == smbPrivateVersion && d.Replace == nil
		}
	}
	return len(bi.Deps) == 0
})

// rawHeader mirrors smb2.PacketHeader (internal/smb2/packet.go).
type rawHeader struct {
	CreditCharge          uint16
	ChannelSequence       uint16
	Status                uint32
	Command               uint16
	CreditRequestResponse uint16
	Flags                 uint32
	MessageId             uint64
	AsyncId               uint64
	TreeId                uint32
	SessionId             uint64
}

// rawEncoder has the method set of smb2.Encoder (internal/smb2/iface.go),
// so its interface values are laid out and dispatched alike.
type rawEncoder interface {
	Encode(b []byte)
	Size() int
}

// rawIoctlRequest mirrors smb2.IoctlRequest (internal/smb2/request.go).
type rawIoctlRequest struct {
	rawHeader
	CtlCode           uint32
	FileId            unsafe.Pointer // *smb2.FileId: set by the library
	OutputOffset      uint32
	OutputCount       uint32
	MaxInputResponse  uint32
	MaxOutputResponse uint32
	Flags             uint32
	Input             rawEncoder
}

// rawSetInfoRequest mirrors smb2.SetInfoRequest (internal/smb2/request.go).
type rawSetInfoRequest struct {
	rawHeader
	InfoType              uint8
	FileInfoClass         uint8
	AdditionalInformation uint32
	FileId                unsafe.Pointer // *smb2.FileId: set by the library
	Input                 rawEncoder
}

//go:linkname smbFileIoctl github.com/cloudsoda/go-smb2.(*File).ioctl
func smbFileIoctl(f *smb2.File, req *rawIoctlRequest) ([]byte, error)

//go:linkname smbFileSetInfo github.com/cloudsoda/go-smb2.(*File).setInfo
func smbFileSetInfo(f *smb2.File, req *rawSetInfoRequest) error

const (
	smb2IoctlIsFsctl      = 0x1 // SMB2_0_IOCTL_IS_FSCTL
	fileBasicInformation  = 4   // MS-FSCC 2.4.7
	fileAttributeNormal   = 0x80
	fileAttributeReadOnly = 0x1
)

// fsctl sends the FSCTL code on the open file f with input in (nil for
// none) and returns a copy of the output, at most maxOut bytes.
func fsctl(f *smb2.File, code uint32, in []byte, maxOut uint32) ([]byte, error) {
	if !smbPrivateOK() {
		return nil, errNoSMBBridge
	}
	req := &rawIoctlRequest{CtlCode: code, MaxOutputResponse: maxOut, Flags: smb2IoctlIsFsctl}
	if in != nil {
		req.Input = rawBytes(in)
	}
	out, err := smbFileIoctl(f, req)
	// out is a slice of a receive buffer the library reuses.
	return append([]byte(nil), out...), err
}

// setBasicInfo sets FileBasicInformation on the open file f (MS-FSCC
// 2.4.7): a zero time or zero attributes leave that field as it is.
func setBasicInfo(f *smb2.File, mtime time.Time, attrs uint32) error {
	if !smbPrivateOK() {
		return errNoSMBBridge
	}
	b := make(rawBytes, 40)
	if !mtime.IsZero() {
		binary.LittleEndian.PutUint64(b[16:24], uint64(filetime(mtime)))
	}
	binary.LittleEndian.PutUint32(b[32:36], attrs)
	return smbFileSetInfo(f, &rawSetInfoRequest{FileInfoClass: fileBasicInformation, Input: b})
}

// filetime is t in 100-nanosecond intervals since 1601 (MS-DTYP 2.3.3).
func filetime(t time.Time) int64 {
	return t.UnixNano()/100 + 116444736000000000
}

// rawBytes is an input buffer already in wire format.
type rawBytes []byte

func (b rawBytes) Encode(dst []byte) { copy(dst, b) }
func (b rawBytes) Size() int         { return len(b) }
