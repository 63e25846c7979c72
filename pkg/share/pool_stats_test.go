package share

import (
	"context"
	"errors"
	"fmt"
	"sync/atomic"
	"testing"
	"time"

	"github.com/fileshare-csi/fileshare-csi/pkg/source"
)

// namedClient is a session that knows the export it is rooted at, as an
// NFS session does once MOUNT has answered.
type namedClient struct {
	countingClient
	export string
}

func (c namedClient) ShareName() string { return c.export }

func TestPoolStatsPerShare(t *testing.T) {
	var closed atomic.Int32
	failNext := true
	p := &Pool{MaxOpenPerKey: 1, IdleTimeout: time.Hour, Dial: func(_ context.Context, src source.Source, _ Credentials) (Client, error) {
		if failNext {
			failNext = false
			return nil, errors.New("refused")
		}
		return namedClient{countingClient{closed: &closed}, "/export"}, nil
	}}
	defer p.Close()
	// The class names a directory below the export: the label must not.
	src := source.Source{Protocol: source.NFS, Host: "nas", Export: "/export/team-a/claims"}
	ctx := context.Background()
	if _, err := p.Get(ctx, src, Credentials{}); err == nil {
		t.Fatal("the first dial was to fail")
	}
	l, err := p.Get(ctx, src, Credentials{})
	if err != nil {
		t.Fatal(err)
	}
	// A second caller waits for the one session (MaxOpenPerKey 1).
	waited := make(chan error)
	go func() {
		l2, err := p.Get(ctx, src, Credentials{})
		if err == nil {
			l2.Release(nil)
		}
		waited <- err
	}()
	for deadline := time.Now().Add(5 * time.Second); statsOf(p, "/export").Waits == 0; {
		if time.Now().After(deadline) {
			t.Fatal("the second caller never waited")
		}
		time.Sleep(time.Millisecond)
	}
	busy := statsOf(p, "/export")
	if busy.Open != 1 || busy.InUse != 1 {
		t.Errorf("while leased: open %d, in use %d, want 1 and 1", busy.Open, busy.InUse)
	}
	time.Sleep(20 * time.Millisecond)
	l.Release(nil)
	if err := <-waited; err != nil {
		t.Fatal(err)
	}
	st := statsOf(p, "/export")
	want := ShareStats{ShareLabel: ShareLabel{Protocol: "nfs", Server: "nas", Share: "/export"}, Open: 1, InUse: 0, Waits: 1, Dials: 2, DialFailures: 1}
	got := st
	got.WaitSeconds = 0
	if got != want {
		t.Errorf("stats %+v, want %+v", got, want)
	}
	if st.WaitSeconds < 0.015 {
		t.Errorf("wait seconds %v, want the ~20ms the second caller waited", st.WaitSeconds)
	}
	for _, s := range p.Stats() {
		if s.Share != "/export" {
			t.Errorf("a share labelled %q: only the export may name it", s.Share)
		}
	}
}

func statsOf(p *Pool, share string) ShareStats {
	for _, s := range p.Stats() {
		if s.Share == share {
			return s
		}
	}
	return ShareStats{}
}

// Every password rotation makes a new pool key. Once a key has no session
// open its state and figures are dropped, the figures kept with its
// share's: the pool keeps one entry per share however many credentials it
// saw, and a share's counts never go down (Prometheus would read a drop
// as a counter reset).
func TestPoolDropsTheFiguresOfKeysWithoutSessions(t *testing.T) {
	var closed atomic.Int32
	p := &Pool{MaxOpenPerKey: 2, IdleTimeout: time.Hour, Dial: func(_ context.Context, src source.Source, creds Credentials) (Client, error) {
		if creds.Password == "wrong" {
			return nil, errors.New("logon failure")
		}
		return countingClient{closed: &closed}, nil
	}}
	defer p.Close()
	src := source.Source{Protocol: source.SMB, Host: "filer", Share: "data"}
	ctx := context.Background()
	const rotations = 50
	for i := range rotations {
		l, err := p.Get(ctx, src, Credentials{Username: "csi", Password: fmt.Sprintf("password-%d", i)})
		if err != nil {
			t.Fatal(err)
		}
		l.Release(nil)
		if _, err := p.Get(ctx, src, Credentials{Username: "csi", Password: "wrong"}); err == nil {
			t.Fatal("a wrong password logged on")
		}
	}
	before := statsOf(p, "data")
	if before.Dials != 2*rotations || before.DialFailures != rotations {
		t.Fatalf("stats before the idle sessions close: %+v", before)
	}
	// The janitor's sweep: idle sessions past their time close.
	p.closeIdle(func(string, idleClient) bool { return true })
	p.mu.Lock()
	keys, retired := len(p.keys), len(p.retired)
	p.mu.Unlock()
	if keys != 0 || retired != 1 {
		t.Errorf("after every session closed the pool keeps %d keys and %d retired entries, want 0 and 1 (one share)", keys, retired)
	}
	after := statsOf(p, "data")
	if after.Dials != before.Dials || after.DialFailures != before.DialFailures || after.Waits != before.Waits || after.Open != 0 {
		t.Errorf("stats after the keys were dropped: %+v, want the same counts as %+v and none open", after, before)
	}
	// A key used again starts afresh; the share's counts go on growing.
	l, err := p.Get(ctx, src, Credentials{Username: "csi", Password: "password-0"})
	if err != nil {
		t.Fatal(err)
	}
	l.Release(nil)
	if again := statsOf(p, "data"); again.Dials != before.Dials+1 || again.Open != 1 {
		t.Errorf("stats after one more dial: %+v", again)
	}
}
