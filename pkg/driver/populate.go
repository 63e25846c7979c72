package driver

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/container-storage-interface/spec/lib/go/csi"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"k8s.io/klog/v2"

	"github.com/fileshare-csi/fileshare-csi/pkg/copytree"
	"github.com/fileshare-csi/fileshare-csi/pkg/share"
	"github.com/fileshare-csi/fileshare-csi/pkg/source"
	"github.com/fileshare-csi/fileshare-csi/pkg/state"
	"github.com/fileshare-csi/fileshare-csi/pkg/volume"
)

// populateMargin is kept of a CreateVolume's deadline to answer in: a copy
// that has not finished by then keeps running, and the call answers
// Aborted, which csi-provisioner retries.
const populateMargin = 500 * time.Millisecond

// contentOrigin is what a new volume is filled from: a snapshot's copy or
// another volume's directory.
type contentOrigin struct {
	kind   string // restore (from a snapshot) or clone (from a volume)
	id     string // the snapshot or volume ID, kept in the new volume's record
	from   copyEnd
	size   int64
	source *csi.VolumeContentSource // echoed in the answer
}

func populateJobKey(uid string) string { return "populate/" + uid }

// contentSourceID is the ID a CreateVolume's content source names, as the
// new volume's record keeps it (contentOrigin.id).
func contentSourceID(cs *csi.VolumeContentSource) string {
	if cs.GetSnapshot() != nil {
		return cs.GetSnapshot().GetSnapshotId()
	}
	return cs.GetVolume().GetVolumeId()
}

// filledFrom says whether the volume of the CreateVolume named name, at
// l, was filled whole from the content source id (state.FilledFrom). A
// failure to look is taken for no: the source's refusal stands, and the
// CO asks again.
func (d *controller) filledFrom(ctx context.Context, l located, creds share.Credentials, name, id string) bool {
	filled := false
	_ = d.at(ctx, l, creds, true, func(s site) (err error) {
		filled, err = s.FilledFrom(ctx, s.where.path, name, id)
		return err
	})
	return filled
}

// resolveContent finds the snapshot or volume a CreateVolume names as its
// content source, on its own share, which may be another share of the same
// protocol reached with the same secrets.
func (d *controller) resolveContent(ctx context.Context, cs *csi.VolumeContentSource, proto source.Protocol, creds share.Credentials) (*contentOrigin, error) {
	sameProtocol := func(p source.Protocol, what string) error {
		if p != proto {
			return status.Errorf(codes.InvalidArgument, "the %s is on an %s share and the new volume on an %s share: a restore or clone stays within one protocol (copy the data yourself across protocols)", what, p, proto)
		}
		return nil
	}
	switch {
	case cs.GetSnapshot() != nil:
		id := cs.GetSnapshot().GetSnapshotId()
		sid, err := volume.ParseSnapshotID(id)
		if err != nil {
			return nil, fail(state.ErrNotFound, "no such snapshot: %v", err)
		}
		if err := sameProtocol(sid.Source.Protocol, "snapshot"); err != nil {
			return nil, err
		}
		o := &contentOrigin{kind: "restore", id: id, source: cs}
		err = d.at(ctx, d.locateShare(ctx, sid.Source), creds, false, func(s site) error {
			snap, err := s.GetSnapshot(ctx, sid.Key, sid.UID)
			if err != nil {
				return err
			}
			if !snap.Ready {
				return fail(errNotReady, "snapshot %q is not ready yet: its copy is still being made", snap.Name)
			}
			o.from = copyEnd{root: s.root, prefix: s.prefix, path: snap.Tree(), rootID: snap.RootID, pack: snapshotPack(snap)}
			o.size = snap.SizeBytes
			return nil
		})
		if err != nil {
			return nil, toStatus(err)
		}
		return o, nil
	case cs.GetVolume() != nil:
		id := cs.GetVolume().GetVolumeId()
		vol, err := existingVolumeID(id)
		if err != nil {
			return nil, err
		}
		if err := sameProtocol(vol.Source.Protocol, "source volume"); err != nil {
			return nil, err
		}
		o := &contentOrigin{kind: "clone", id: id, source: cs}
		err = d.at(ctx, d.locate(ctx, vol), creds, false, func(s site) error {
			rec, err := s.copySource(ctx, "clone")
			if err != nil {
				return err
			}
			o.from = copyEnd{root: s.root, prefix: s.prefix, path: s.path, rootID: rec.RootID}
			o.size = rec.CapacityBytes
			return nil
		})
		if err != nil {
			return nil, toStatus(err)
		}
		return o, nil
	}
	return nil, status.Error(codes.InvalidArgument, "the volume content source names neither a snapshot nor a volume")
}

// stopFilling stops a copy still filling a volume, before the volume is
// deleted.
func (d *controller) stopFilling(ctx context.Context) func(state.Record) error {
	return func(rec state.Record) error {
		if err := d.jobs.Cancel(ctx, populateJobKey(rec.UID)); err != nil {
			return fmt.Errorf("the copy filling the volume did not stop in time: %w", state.ErrBusy)
		}
		return nil
	}
}

// populate fills a new volume from its origin in the background and waits
// for the copy while the call's deadline allows. A copy that outlives the
// call keeps running; the CO's retry finds it (one job per volume) and
// waits again, so no second copy ever starts. After a controller restart
// the retry starts the copy again, which skips what is already complete.
func (d *controller) populate(ctx context.Context, rec state.Record, w where, o *contentOrigin, creds share.Credentials) error {
	logger := klog.FromContext(ctx).WithValues("volume", rec.Name, "from", o.id)
	d.volumeCalls.touch(rec.UID)
	key := populateJobKey(rec.UID)
	job := d.jobs.Start(key, func(jctx context.Context) (any, error) {
		start := time.Now()
		err := d.copyBetween(jctx, o.kind, o.from, copyEnd{root: w.root, prefix: w.prefix, path: w.path, rootID: rec.RootID, beat: rec.UID, still: stillFilling(w.path, rec.UID)}, creds, logger, func(c share.Client, stats copytree.Stats) error {
			return d.holding(jctx, w, func() error {
				st := storeOf(jctx, c)
				cur, err := st.Get(jctx, w.path, rec.UID)
				if err != nil {
					return err // deleted while it was filled
				}
				if _, err := st.Populated(jctx, cur); err != nil {
					return err
				}
				logger.Info("volume filled", "files", stats.Files, "bytes", stats.Bytes, "serverSideBytes", stats.ServerSideBytes, "resumed", stats.Resumed, "duration", time.Since(start).String())
				return nil
			})
		})
		if err != nil {
			logger.Error(err, "filling the volume stopped; the next CreateVolume resumes it")
		}
		return nil, err
	})
	var timeout <-chan time.Time
	if dl, ok := ctx.Deadline(); ok {
		t := time.NewTimer(time.Until(dl) - populateMargin)
		defer t.Stop()
		timeout = t.C
	}
	select {
	case <-job.Done():
		if err := job.Err(); err != nil {
			return createStatus(fmt.Errorf("filling volume %q from %s: %w", rec.Name, o.id, err))
		}
		d.jobs.Forget(key, job)
		return nil
	case <-timeout:
	case <-ctx.Done():
	}
	return fail(errInProgress, "volume %q is still being filled from %s; the copy goes on, and a retry of this call waits for it", rec.Name, o.id)
}

// stillFilling is a restore's or clone's copyEnd.still: the volume's record
// is there and still says it is being filled. Only the share's answer
// stops the copy; a failure to ask does not.
func stillFilling(path, uid string) func(context.Context, *state.Store) error {
	return func(ctx context.Context, st *state.Store) error {
		cur, err := st.Get(ctx, path, uid)
		if errors.Is(err, state.ErrNotFound) || err == nil && !cur.Populating {
			return errNoLongerWanted
		}
		return nil
	}
}
