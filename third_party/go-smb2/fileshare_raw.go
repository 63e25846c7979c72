package smb2

// This file is fileshare-csi's patch to go-smb2 (third_party/README.md):
// IOCTL and SET_INFO requests of the caller's choosing on an open file,
// with input already in wire format (MS-SMB2, MS-FSCC). The library sends
// such requests for its own operations (Readlink, Chmod, Chtimes) but
// exports no way to send others: FSCTL_SRV_COPYCHUNK_WRITE, or the hidden,
// system and archive attributes. The library does everything else as for
// its own requests: credits, signing, encryption, the reply's status.

import "github.com/cloudsoda/go-smb2/internal/smb2"

// rawInput is an input buffer already in wire format.
type rawInput []byte

func (b rawInput) Encode(dst []byte) { copy(dst, b) }
func (b rawInput) Size() int         { return len(b) }

// Fsctl sends the file system control code on f with input in (nil for
// none) and returns a copy of the output, at most maxOut bytes.
func (f *File) Fsctl(code uint32, in []byte, maxOut uint32) ([]byte, error) {
	req := &smb2.IoctlRequest{CtlCode: code, MaxOutputResponse: maxOut, Flags: smb2.SMB2_0_IOCTL_IS_FSCTL}
	if in != nil {
		req.Input = rawInput(in)
	}
	out, err := f.ioctl(req)
	// out is a slice of a receive buffer the library reuses.
	return append([]byte(nil), out...), err
}

// SetInfo sets the file information of class (MS-FSCC 2.4) on f from in.
func (f *File) SetInfo(class uint8, in []byte) error {
	return f.setInfo(&smb2.SetInfoRequest{FileInfoClass: class, Input: rawInput(in)})
}
