package mounter

import (
	"context"
	"strings"
	"testing"

	"github.com/fileshare-csi/fileshare-csi/pkg/os/csiproxy/csiproxytest"
)

// A volume relinked to its server's new address (a source alias added after
// its stage, the old server gone) is never linked into a mapping of the new
// share that no volume vouches for, and the old share's mapping goes once
// nothing links into it. (Both happened: the relink reused any mapping, and
// nothing removed the old one.)
func TestARelinkNeverReusesAnUnvouchedMappingNorLeavesTheOldOne(t *testing.T) {
	w, fake := newWindowsUnderTest(t)
	ctx := context.Background()
	staging := stagingPath("a")
	fake.Mkdir(staging)
	if err := w.Stage(ctx, smbRequest(t, "smb://old/share", "vol", staging)); err != nil {
		t.Fatal(err)
	}
	fake.SetServerDown(`\\old\share`, true)
	// A mapping of the new share that no volume of the driver uses: left by
	// an unstage whose removal failed, or made outside the driver.
	fake.AddMapping(csiproxytest.Mapping{RemotePath: `\\new\share`, Username: `CORP\mallory`, Password: "x"})
	if err := w.Stage(ctx, smbRequest(t, "smb://new/share", "vol", staging)); err != nil {
		t.Fatal(err)
	}
	var problems []string
	for _, m := range fake.Mappings() {
		if strings.EqualFold(m.RemotePath, `\\new\share`) && m.Username != `CORP\alice` {
			problems = append(problems, "the volume is linked through "+m.Username+"'s mapping of \\\\new\\share, which no volume vouched for")
		}
		if strings.EqualFold(m.RemotePath, `\\old\share`) {
			problems = append(problems, "the mapping of \\\\old\\share stays although no volume links into it")
		}
	}
	if len(problems) > 0 {
		t.Fatalf("after the relink: %s (mappings %+v)", strings.Join(problems, "; "), fake.Mappings())
	}
}
