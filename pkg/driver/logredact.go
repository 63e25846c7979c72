package driver

import (
	"github.com/kubernetes-csi/csi-lib-utils/protosanitizer"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"

	"github.com/fileshare-csi/fileshare-csi/pkg/source"
	"github.com/fileshare-csi/fileshare-csi/pkg/volume"
)

// forLog renders a CSI request or response for a log line. StripSecrets
// hides only the fields the spec marks csi_secret; a user can still put a
// password in mount flags, in a mountOptions parameter or volume attribute,
// or as user info in a source, and those calls are logged before they are
// refused. So wherever these appear, in any message, values of options that
// may be secret and a source's user info are masked too.
func forLog(msg any) string {
	m, ok := msg.(proto.Message)
	if !ok || m == nil {
		return protosanitizer.StripSecrets(msg).String()
	}
	m = proto.Clone(m)
	redactMessage(m.ProtoReflect())
	return protosanitizer.StripSecrets(m).String()
}

// volumeIDField names the fields that hold a volume's ID: its own, and
// that of a snapshot's or a group snapshot's sources.
var volumeIDField = map[protoreflect.Name]bool{"volume_id": true, "source_volume_id": true, "source_volume_ids": true}

func redactMessage(m protoreflect.Message) {
	m.Range(func(fd protoreflect.FieldDescriptor, v protoreflect.Value) bool {
		switch {
		case !fd.IsList() && fd.Kind() == protoreflect.StringKind && volumeIDField[fd.Name()]:
			// A static PV's handle is written by hand and may hold a source
			// with user info.
			m.Set(fd, protoreflect.ValueOfString(source.Redact(v.String())))
		case fd.IsList() && fd.Kind() == protoreflect.StringKind && volumeIDField[fd.Name()]:
			l := v.List()
			for i := range l.Len() {
				l.Set(i, protoreflect.ValueOfString(source.Redact(l.Get(i).String())))
			}
		case fd.IsList() && fd.Kind() == protoreflect.StringKind && fd.Name() == "mount_flags":
			l := v.List()
			for i := range l.Len() {
				l.Set(i, protoreflect.ValueOfString(volume.RedactMountOptionList(l.Get(i).String())))
			}
		case fd.IsList() && isMessage(fd):
			l := v.List()
			for i := range l.Len() {
				redactMessage(l.Get(i).Message())
			}
		case fd.IsMap() && fd.MapValue().Kind() == protoreflect.StringKind:
			redactStringMap(v.Map())
		case fd.IsMap() && isMessage(fd.MapValue()):
			v.Map().Range(func(_ protoreflect.MapKey, mv protoreflect.Value) bool {
				redactMessage(mv.Message())
				return true
			})
		case !fd.IsList() && !fd.IsMap() && isMessage(fd):
			redactMessage(v.Message())
		}
		return true
	})
}

// csiv0VolumeIDKey holds the volume ID in a CSI v0.1 VolumeID map
// (pkg/csiv0.KeyVolumeID): a hand-written one may carry a source with user
// info, as a v1 volume_id may.
const csiv0VolumeIDKey = "volume_id"

// redactStringMap masks the keys that carry mount options or a source, in
// parameters, volume contexts and any other string map.
func redactStringMap(mp protoreflect.Map) {
	type entry struct {
		k protoreflect.MapKey
		v string
	}
	var changed []entry
	mp.Range(func(k protoreflect.MapKey, v protoreflect.Value) bool {
		switch k.String() {
		case volume.ParamMountOptions:
			changed = append(changed, entry{k, volume.RedactMountOptionList(v.String())})
		case volume.ParamSource, csiv0VolumeIDKey:
			changed = append(changed, entry{k, source.Redact(v.String())})
		}
		return true
	})
	for _, e := range changed {
		mp.Set(e.k, protoreflect.ValueOfString(e.v))
	}
}

func isMessage(fd protoreflect.FieldDescriptor) bool {
	return fd.Kind() == protoreflect.MessageKind || fd.Kind() == protoreflect.GroupKind
}

// shownID is a volume ID as errors, events and logs may quote it: a static
// PV's handle is written by hand and may hold a source with user info.
func shownID(id string) string { return source.Redact(id) }
