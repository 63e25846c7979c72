//go:build linux

package integration

import (
	"bytes"
	"context"
	"crypto/rand"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/fileshare-csi/fileshare-csi/pkg/share"
)

// TestNFSServerSideCopy copies a large file with NFSv4.2 COPY from both
// NFS clients. Against kernel nfsd (the VM), the server's own counters
// show COPY ran and no READ or WRITE carried the data; against a server
// without COPY (NFS-Ganesha on the host), the client answers
// errors.ErrUnsupported and has written nothing, so the copy streams.
func TestNFSServerSideCopy(t *testing.T) {
	for _, p := range treeProtocols() {
		if !p.unix {
			continue
		}
		t.Run(p.name, func(t *testing.T) {
			c, rel, dir := dialTree(t, p, "nfs-server-side-copy-"+p.name)
			ssc, ok := c.(share.ServerSideCopier)
			if !ok {
				t.Fatalf("the %s client is not a share.ServerSideCopier", p.name)
			}
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
			defer cancel()

			// 9 MiB and a bit: more than one 4 MiB COPY on Linux, and a
			// short last piece.
			data := make([]byte, 9<<20+4097)
			rand.Read(data)
			must(t, os.WriteFile(filepath.Join(dir, "src"), data, 0o666))
			w, err := c.Create(ctx, rel+"/dst", 0o644)
			if err != nil {
				t.Fatal(err)
			}
			must(t, w.Close(ctx))

			// A small file is better streamed.
			if err := ssc.CopyData(ctx, rel+"/src", rel+"/dst", 4096); !errors.Is(err, share.ErrStreamInstead) {
				t.Fatalf("CopyData of 4096 bytes = %v, want share.ErrStreamInstead", err)
			}

			before, counted := nfsdOps(t)
			err = ssc.CopyData(ctx, rel+"/src", rel+"/dst", int64(len(data)))
			after, _ := nfsdOps(t)
			got, rerr := os.ReadFile(filepath.Join(dir, "dst"))
			must(t, rerr)
			if errors.Is(err, errors.ErrUnsupported) {
				if kernelNFS() {
					t.Fatalf("kernel nfsd has NFSv4.2 COPY, but the client says: %v", err)
				}
				if len(got) != 0 {
					t.Fatalf("CopyData answered %v but left %d bytes in the destination", err, len(got))
				}
				t.Logf("this server does not copy (%v): the data is streamed", err)
				return
			}
			must(t, err)
			if !bytes.Equal(got, data) {
				t.Fatalf("the copy has %d bytes and differs from the source's %d", len(got), len(data))
			}
			if !counted {
				return
			}
			copies := after["proc4ops"][60] - before["proc4ops"][60]
			reads := after["proc3"][6] - before["proc3"][6] + after["proc4ops"][25] - before["proc4ops"][25]
			writes := after["proc3"][7] - before["proc3"][7] + after["proc4ops"][38] - before["proc4ops"][38]
			t.Logf("nfsd counted %d COPY, %d READ and %d WRITE operations", copies, reads, writes)
			if copies < 3 {
				t.Errorf("nfsd counted %d COPY operations for %d bytes (4 MiB each at most): the copy did not run on the server", copies, len(data))
			}
			if reads > 0 || writes > 0 {
				t.Errorf("nfsd counted %d READ and %d WRITE operations during a server-side copy: the data went through the client", reads, writes)
			}

			// The stats are real: a 1 MiB READ through the client shows.
			r, err := c.Open(ctx, rel+"/dst")
			must(t, err)
			defer r.Close(ctx)
			if n, err := r.ReadAt(ctx, make([]byte, 1<<20), 0); err != nil || n != 1<<20 {
				t.Fatalf("ReadAt = %d, %v", n, err)
			}
			if read, _ := nfsdOps(t); read["proc3"][6]+read["proc4ops"][25] == after["proc3"][6]+after["proc4ops"][25] {
				t.Fatal("a READ through the client did not show in nfsd's counters: they do not count")
			}
		})
	}
}

// nfsdOps reads kernel nfsd's per-operation counters of this network
// namespace (/proc/net/rpc/nfsd: "proc3" by NFSv3 procedure, "proc4ops" by
// NFSv4 operation number); ok is false where no kernel nfsd serves.
func nfsdOps(t *testing.T) (map[string][]uint64, bool) {
	t.Helper()
	if !kernelNFS() {
		return nil, false
	}
	b, err := os.ReadFile("/proc/net/rpc/nfsd")
	if err != nil {
		t.Fatalf("kernel nfsd's counters: %v", err)
	}
	out := map[string][]uint64{}
	for _, line := range strings.Split(string(b), "\n") {
		f := strings.Fields(line)
		if len(f) < 2 || (f[0] != "proc3" && f[0] != "proc4ops") {
			continue
		}
		var vals []uint64
		for _, v := range f[2:] { // f[1] is how many follow
			n, err := strconv.ParseUint(v, 10, 64)
			if err != nil {
				t.Fatalf("kernel nfsd's counters: %q: %v", line, err)
			}
			vals = append(vals, n)
		}
		out[f[0]] = vals
	}
	if len(out["proc3"]) < 8 || len(out["proc4ops"]) < 61 {
		t.Fatalf("kernel nfsd's counters lack NFSv3 READ/WRITE or NFSv4 COPY: %v", out)
	}
	return out, true
}
