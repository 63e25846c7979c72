package smb

import (
	"context"
	"time"

	smb2 "github.com/cloudsoda/go-smb2"

	"github.com/fileshare-csi/fileshare-csi/pkg/share"
)

// smbFilesBatch is how many files one compound writes or reads: four
// requests each (CREATE, WRITE, SET_INFO, CLOSE; CREATE, QUERY_INFO of the
// file ID, READ, CLOSE), 64 credits, which a session lends each of a
// copy's workers at once.
const smbFilesBatch = 16

// smbFileMax is the largest file a compound writes: one WRITE of at most
// what a request carries without more credits.
const smbFileMax = 60 << 10

func (c *smbClient) FilesLimit() (size, count int) { return smbFileMax, smbFilesBatch }

// FilesMask: SMB carries no Unix mode or owner.
func (c *smbClient) FilesMask() share.AttrMask { return share.SetModTime | share.SetDOSAttributes }

// WriteFiles is FilesWriter's: the files in one related compound (the
// patch in third_party/go-smb2), each CREATE (where nothing is, as Create),
// WRITE, SET_INFO (FileBasicInformation: the time and the DOS attributes)
// and CLOSE. Once a session found the server will not store DOS
// attributes, it sets the time alone, as setOnHandle does; a file whose
// SET_INFO the server refused fails, and its caller writes it again.
func (c *smbClient) WriteFiles(ctx context.Context, files []share.SmallFile) []error {
	c.mu.Lock()
	defer c.mu.Unlock()
	ops := make([]smb2.SmallOp, len(files))
	for i, f := range files {
		var mtime time.Time
		if f.Mask&share.SetModTime != 0 {
			mtime = f.Attr.ModTime
		}
		attrs := dosAttrs(0, f.Attr, f.Mask)
		if c.noDOS.Load() {
			attrs = 0
		}
		op := smb2.SmallOp{Kind: smb2.SmallCreate, Name: c.full(f.Path), Data: f.Data}
		if !mtime.IsZero() || attrs != 0 {
			op.Info = basicInfo(mtime, attrs)
		}
		ops[i] = op
	}
	errs := make([]error, len(files))
	for i, r := range c.on(ctx).Batch(ops) {
		errs[i] = c.wrap(ctx, "write", files[i].Path, r.Err)
	}
	return errs
}

// ReadFiles is FilesReader's: the files in one related compound, each
// CREATE, READ and CLOSE, opened as Open opens them; a file with an ID
// has a QUERY_INFO of its handle's file ID in its chain too (OpenID's
// check), in the same round trip.
func (c *smbClient) ReadFiles(ctx context.Context, files []share.ListedFile) []share.Result {
	c.mu.Lock()
	defer c.mu.Unlock()
	ops := make([]smb2.SmallOp, len(files))
	for i, f := range files {
		ops[i] = smb2.SmallOp{Kind: smb2.SmallRead, Name: c.full(f.Path), ID: f.ID}
	}
	res := make([]share.Result, len(files))
	for i, r := range c.on(ctx).Batch(ops) {
		res[i] = share.Result{Data: r.Data, Err: c.wrap(ctx, "read", files[i].Path, r.Err)}
	}
	return res
}
