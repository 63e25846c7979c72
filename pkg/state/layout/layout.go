// Package layout declares, once, the driver's metadata directory on a
// share: what each path holds, which directories no walk over a volume may
// enter, and which a session may keep the handle of across calls. The
// state package's doc, its protected directories and locks, and the share
// clients' kept handles are all read off Entries; it imports nothing, so
// the share layer can use it too.
package layout

import (
	"path"
	"strings"
)

// Dir is the metadata directory below the share's root.
const Dir = ".fileshare-csi"

// Entry is one directory of the layout.
type Entry struct {
	// Path from the share's root; a "*" component stands for any one name.
	Path string
	// Holds says what is in it, for the package docs.
	Holds string
	// Fixed says the driver makes the directory once and never renames or
	// removes it: a session may keep its handle across calls (an NFSv3
	// session would otherwise look each of them up again for every
	// record it reads or writes). Nothing a tenant can reach is fixed, and
	// no directory whose path a rename can give to another directory.
	Fixed bool
}

// The directories of the layout, by name, for the state package.
const (
	Volumes      = Dir + "/volumes"
	Intents      = Dir + "/intents"
	Busy         = Dir + "/busy"
	Holds        = Dir + "/holds"
	Roots        = Dir + "/roots"
	Archives     = Dir + "/archives"
	Deleting     = Dir + "/deleting"
	Snapshots    = Dir + "/snapshots"
	Groups       = Snapshots + "/groups"
	VolumeGroups = Dir + "/volumegroups"
)

// Entries is the layout. A file's temporary next version lies beside it as
// .tmp-<name> while it is written.
var Entries = []Entry{
	{Dir, "the driver's own state; never inside a volume, never a volume", true},
	{Volumes, "<key>.json: the record of the volume directory whose path hashes to <key>", true},
	{Intents, "<key>.json: a CreateVolume of <key> that has not committed (its record is not written yet)", true},
	{Busy, "<uid>: a copy into the volume or snapshot <uid> runs (in any process, or any cluster on the share): names its process, rewritten with a new token every 10 seconds while it does", true},
	{Holds, "one directory per directory with volumes below it", true},
	{Holds + "/*", "<key2>: the volume or archive <key2> lies below this directory (empty)", true},
	{Roots, "<id>: a volume, archive or snapshot root's server file ID (a volume's carries no paths list: empty, or its create's intent renamed onto it; an archive's or snapshot's lists its paths); <id>.drop: a mark being removed, until the look for another root given its ID is done", true},
	{Archives, "<key>.json: the directory <key> is the archive of a deleted volume", true},
	{Deleting, "<uid>: a volume or snapshot copy being deleted (the quarantine)", true},
	{Snapshots, "<key>.json: a snapshot's record; <uid>: its whole copy; <uid>.partial: the copy while it is made; <uid>.pack: its small files; <uid>.packs/<run>: the small files of each run of its copy, until the one that finished is moved to <uid>.pack", true},
	{Groups, "<key>.json: a group snapshot's record", true},
	{VolumeGroups, "<key>.json: a CSI-Addons volume group's record", true},
}

// Protected lists the directories no walk over a volume enters, wherever a
// link or a mount on the server makes them appear: each directory of the
// layout, and with "dir/*" each directory in dir (share.Guard's Protect).
func Protected() []string {
	var out []string
	for _, e := range Entries {
		if !strings.Contains(strings.TrimSuffix(e.Path, "/*"), "*") {
			out = append(out, e.Path)
		}
	}
	return out
}

// KeepHandle reports whether a session may keep the handle of the
// directory p (from the share's root) across calls.
func KeepHandle(p string) bool {
	for _, e := range Entries {
		if ok, _ := path.Match(e.Path, p); ok && e.Fixed {
			return true
		}
	}
	return false
}
