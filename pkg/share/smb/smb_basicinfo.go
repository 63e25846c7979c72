package smb

import (
	"encoding/binary"
	"time"

	smb2 "github.com/cloudsoda/go-smb2"
)

// go-smb2 exports no IOCTL or SET_INFO of the caller's choosing; the copy
// of it in third_party/go-smb2 does (fileshare_raw.go, a patch meant to go
// upstream): FSCTL_SRV_COPYCHUNK_WRITE for server-side copies, and
// FileBasicInformation for the hidden, system and archive attributes. Only
// the input buffers (wire format, MS-SMB2 and MS-FSCC) and the decoding of
// the output are this package's.

const (
	fileBasicInformation  = 4 // MS-FSCC 2.4.7
	fileAttributeNormal   = 0x80
	fileAttributeReadOnly = 0x1
)

// setBasicInfo sets FileBasicInformation on the open file f (MS-FSCC
// 2.4.7): a zero time or zero attributes leave that field as it is.
func setBasicInfo(f *smb2.File, mtime time.Time, attrs uint32) error {
	return f.SetInfo(fileBasicInformation, basicInfo(mtime, attrs))
}

// basicInfo is FileBasicInformation's wire format with the last write time
// and attributes: zero leaves a field as it is.
func basicInfo(mtime time.Time, attrs uint32) []byte {
	b := make([]byte, 40)
	if !mtime.IsZero() {
		binary.LittleEndian.PutUint64(b[16:24], uint64(filetime(mtime)))
	}
	binary.LittleEndian.PutUint32(b[32:36], attrs)
	return b
}

// filetime is t in 100-nanosecond intervals since 1601 (MS-DTYP 2.3.3).
func filetime(t time.Time) int64 {
	return t.UnixNano()/100 + 116444736000000000
}
