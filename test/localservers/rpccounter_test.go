//go:build linux

package localservers

import (
	"encoding/binary"
	"testing"
)

// replyStatus reads the first word of an accepted reply's result, past a
// verifier of any length, and nothing else.
func TestReplyStatus(t *testing.T) {
	reply := func(msgType, replyStat uint32, verf []byte, acceptStat, status uint32) []byte {
		var b []byte
		for _, w := range []uint32{7, msgType, replyStat, 1, uint32(len(verf))} {
			b = binary.BigEndian.AppendUint32(b, w)
		}
		b = append(b, verf...)
		for len(b)%4 != 0 {
			b = append(b, 0)
		}
		b = binary.BigEndian.AppendUint32(b, acceptStat)
		return binary.BigEndian.AppendUint32(b, status)
	}
	for _, c := range []struct {
		b    []byte
		want uint32
		ok   bool
	}{
		{reply(1, 0, nil, 0, statusDelay), statusDelay, true},
		{reply(1, 0, []byte{1, 2, 3, 4, 5}, 0, statusGrace), statusGrace, true},
		{reply(1, 0, nil, 0, 0), 0, true},
		{reply(0, 0, nil, 0, statusDelay), 0, false}, // a call
		{reply(1, 1, nil, 0, statusDelay), 0, false}, // denied
		{reply(1, 0, nil, 2, statusDelay), 0, false}, // not SUCCESS
		{reply(1, 0, nil, 0, statusDelay)[:20], 0, false},
	} {
		if got, ok := replyStatus(c.b); got != c.want || ok != c.ok {
			t.Errorf("replyStatus(%x) = %d, %v; want %d, %v", c.b, got, ok, c.want, c.ok)
		}
	}
}
