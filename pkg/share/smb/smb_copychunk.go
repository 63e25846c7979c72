package smb

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"

	smb2 "github.com/cloudsoda/go-smb2"
)

// FSCTL codes of a server-side copy (MS-SMB2 2.2.31).
const (
	fsctlSrvRequestResumeKey = 0x00140078
	fsctlSrvCopychunkWrite   = 0x001480F2
)

// copychunkLimits bound one FSCTL_SRV_COPYCHUNK_WRITE: how many chunks, and
// how long each. They start at what Windows and Samba both take (MS-SMB2
// 3.3.3: 1 MiB chunks, 16 MiB a request; Samba allows 256 chunks).
type copychunkLimits struct {
	chunks int
	size   int64
}

var defaultCopychunkLimits = copychunkLimits{chunks: 16, size: 1 << 20}

// smaller is the next limits to try after a server refused these, or false
// when there is nothing smaller worth trying.
func (l copychunkLimits) smaller() (copychunkLimits, bool) {
	switch {
	case l.chunks > 1:
		l.chunks /= 2
	case l.size > 64<<10:
		l.size /= 2
	default:
		return l, false
	}
	return l, true
}

// CopyData has the server copy the file: FSCTL_SRV_REQUEST_RESUME_KEY names
// the source, FSCTL_SRV_COPYCHUNK_WRITE on the target copies it a request
// of chunks at a time (MS-SMB2 3.3.5.15.6). A server that does neither
// answers errors.ErrUnsupported before anything is written.
//
// A server answers a request beyond its limits with STATUS_INVALID_PARAMETER
// and its limits in an IOCTL reply; go-smb2 reads every failed reply as an
// error reply and reports that one as "broken error response format",
// without the limits. That answer (nothing copied) is taken as the refusal
// it is, and the request is retried with fewer chunks, then shorter ones.
//
// FSCTL_DUPLICATE_EXTENTS_TO_FILE (a clone on ReFS, or Samba on btrfs) is
// not tried: it needs the source's file handle in its input, which go-smb2
// keeps to itself.
func (c *smbClient) CopyData(ctx context.Context, from, to string, size int64) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	sh := c.on(ctx)
	dst, err := sh.OpenFile(c.full(to), os.O_WRONLY, 0)
	if err != nil {
		return c.wrap(ctx, "open", to, err)
	}
	err = c.copyInto(ctx, sh, from, 0, dst, size)
	if cerr := dst.Close(); err == nil {
		err = cerr
	}
	return c.finishCopy(ctx, from, to, err)
}

// CopyFrom is CopyData into the handle Create gave: the destination is not
// opened a second time, which saves a CREATE and a CLOSE per file. The
// source is opened as OpenID opens it when fromID is not 0: Samba copies
// from whatever the path leads to now, a link's target included.
func (h *smbFile) CopyFrom(ctx context.Context, from string, fromID uint64, size int64) error {
	err := h.during(ctx, func() error {
		return h.c.copyInto(ctx, h.c.on(ctx), from, fromID, h.f, size)
	})
	return h.c.finishCopy(ctx, from, h.rel, err)
}

// copyInto opens from (the file with file ID id only, when id is not 0,
// in the same round trip) and has the server copy it into dst; under c.mu.
func (c *smbClient) copyInto(ctx context.Context, sh *smb2.Share, from string, id uint64, dst *smb2.File, size int64) error {
	src, err := sh.OpenID(c.full(from), id)
	if err != nil {
		return c.wrap(ctx, "open", from, err)
	}
	err = c.copychunks(src, dst, size)
	if cerr := src.Close(); err == nil {
		err = cerr
	}
	return err
}

func (c *smbClient) finishCopy(ctx context.Context, from, to string, err error) error {
	if errors.Is(err, errors.ErrUnsupported) {
		return fmt.Errorf("server-side copy of %s: %w", from, err)
	}
	return c.wrap(ctx, "server-side copy to", to, err)
}

func (c *smbClient) copychunks(src, dst *smb2.File, size int64) error {
	out, err := src.Fsctl(fsctlSrvRequestResumeKey, nil, 32)
	if isRefusal(err) {
		return fmt.Errorf("the server has no resume keys (%v): %w", err, errors.ErrUnsupported)
	}
	if err != nil {
		return err
	}
	if len(out) < 24 {
		return &smb2.InvalidResponseError{Message: "short SRV_REQUEST_RESUME_KEY reply"}
	}
	key := out[:24]
	lim := c.chunkLimits
	if lim.chunks == 0 {
		lim = defaultCopychunkLimits
	}
	for off := int64(0); off < size; {
		written, err := copychunk(dst, key, off, size, lim)
		switch {
		case isLimitsReply(err):
			var ok bool
			if lim, ok = lim.smaller(); ok {
				continue
			}
		case isRefusal(err) && off == 0:
			return fmt.Errorf("the server does not copy chunks (%v): %w", err, errors.ErrUnsupported)
		case err == nil && written == 0:
			err = fmt.Errorf("the server copied nothing at offset %d: %w", off, io.ErrNoProgress)
		}
		if err != nil {
			return err
		}
		c.chunkLimits = lim
		off += written
	}
	return nil
}

// isLimitsReply reports whether err is how go-smb2 passes on the IOCTL reply
// with which a server refuses a copy beyond its limits.
func isLimitsReply(err error) bool {
	var ie *smb2.InvalidResponseError
	return errors.As(err, &ie) && ie.Message == "broken error response format"
}

// copychunk sends one FSCTL_SRV_COPYCHUNK_WRITE for the bytes from off on,
// as many as lim allows, each at the same offset in both files, and returns
// how many the server wrote (all of them, or fewer when it stopped early).
func copychunk(dst *smb2.File, key []byte, off, size int64, lim copychunkLimits) (int64, error) {
	// SRV_COPYCHUNK_COPY (MS-SMB2 2.2.31.1.1): the source key, a count,
	// 4 reserved bytes, then 24-byte SRV_COPYCHUNKs.
	in := make([]byte, 32, 32+24*lim.chunks)
	copy(in, key)
	n := 0
	for pos := off; pos < size && n < lim.chunks; n++ {
		length := min(lim.size, size-pos)
		var chunk [24]byte
		binary.LittleEndian.PutUint64(chunk[0:8], uint64(pos))  // SourceOffset
		binary.LittleEndian.PutUint64(chunk[8:16], uint64(pos)) // TargetOffset
		binary.LittleEndian.PutUint32(chunk[16:20], uint32(length))
		in = append(in, chunk[:]...)
		pos += length
	}
	binary.LittleEndian.PutUint32(in[24:28], uint32(n))
	out, err := dst.Fsctl(fsctlSrvCopychunkWrite, in, 12)
	if err != nil {
		return 0, err
	}
	// SRV_COPYCHUNK_RESPONSE: ChunksWritten, ChunkBytesWritten, TotalBytesWritten.
	if len(out) < 12 {
		return 0, &smb2.InvalidResponseError{Message: "short SRV_COPYCHUNK_WRITE reply"}
	}
	return int64(binary.LittleEndian.Uint32(out[8:12])), nil
}
