package share

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"strings"
	"sync"
	"time"

	"github.com/fileshare-csi/fileshare-csi/pkg/source"
)

// Pool keeps idle sessions per server, share and credentials, so that a burst
// of CreateVolume calls does not pay a TCP connect, MOUNT and SMB session setup
// each. Sessions idle longer than IdleTimeout are closed.
type Pool struct {
	MaxIdlePerKey int
	IdleTimeout   time.Duration
	// Dial opens a new session; tests may replace it.
	Dial func(ctx context.Context, src source.Source, creds Credentials) (Client, error)

	mu     sync.Mutex
	idle   map[string][]idleClient
	closed bool
	stop   chan struct{}
	once   sync.Once
}

type idleClient struct {
	c     Client
	since time.Time
}

// NewPool returns a pool with sensible defaults and starts its janitor.
func NewPool() *Pool {
	return &Pool{MaxIdlePerKey: 8, IdleTimeout: time.Minute, Dial: Dial}
}

// Lease is a session borrowed from the pool.
type Lease struct {
	Client
	// Reused is true when the session came from the idle list; it may have
	// died while idle, so a transport error on it is worth one fresh retry.
	Reused bool
	pool   *Pool
	key    string
}

// Release returns the session to the pool, or closes it when lastErr shows
// the session may be broken (anything but the server's answer about a path).
func (l *Lease) Release(lastErr error) {
	if lastErr != nil && !IsAnswer(lastErr) {
		_ = l.Client.Close()
		return
	}
	l.pool.put(l.key, l.Client)
}

// poolKey is "<share hash>/<credentials hash>"; the password only enters a
// hash, never the key itself.
func poolKey(src source.Source, creds Credentials) string {
	return hashOf(string(src.Protocol), src.HostPort(0), src.Export, src.Share, src.Base) + "/" +
		hashOf(creds.Domain, creds.Username, creds.Password)
}

func hashOf(fields ...string) string {
	h := sha256.New()
	for _, s := range fields {
		h.Write([]byte(s))
		h.Write([]byte{0})
	}
	return hex.EncodeToString(h.Sum(nil))[:32]
}

// GetNew dials a new session, bypassing idle ones (after one proved dead).
func (p *Pool) GetNew(ctx context.Context, src source.Source, creds Credentials) (*Lease, error) {
	p.once.Do(p.start)
	c, err := p.Dial(ctx, src, creds)
	if err != nil {
		return nil, err
	}
	return &Lease{Client: c, pool: p, key: poolKey(src, creds)}, nil
}

// GetIdle returns an idle session on src authenticated with any credentials,
// or nil. It serves calls that carry no secrets (ControllerGetVolume,
// GetCapacity) for SMB shares that a recent call with secrets reached.
func (p *Pool) GetIdle(src source.Source) *Lease {
	p.once.Do(p.start)
	prefix := poolKey(src, Credentials{})
	prefix = prefix[:strings.IndexByte(prefix, '/')+1]
	p.mu.Lock()
	defer p.mu.Unlock()
	for key, list := range p.idle {
		if strings.HasPrefix(key, prefix) && len(list) > 0 {
			c := list[len(list)-1].c
			p.idle[key] = list[:len(list)-1]
			return &Lease{Client: c, Reused: true, pool: p, key: key}
		}
	}
	return nil
}

// Get returns an idle session for src and creds, or dials a new one.
func (p *Pool) Get(ctx context.Context, src source.Source, creds Credentials) (*Lease, error) {
	p.once.Do(p.start)
	key := poolKey(src, creds)
	p.mu.Lock()
	if list := p.idle[key]; len(list) > 0 {
		c := list[len(list)-1].c
		p.idle[key] = list[:len(list)-1]
		p.mu.Unlock()
		return &Lease{Client: c, Reused: true, pool: p, key: key}, nil
	}
	p.mu.Unlock()
	c, err := p.Dial(ctx, src, creds)
	if err != nil {
		return nil, err
	}
	return &Lease{Client: c, pool: p, key: key}, nil
}

func (p *Pool) put(key string, c Client) {
	p.mu.Lock()
	if p.closed || len(p.idle[key]) >= p.MaxIdlePerKey {
		p.mu.Unlock()
		_ = c.Close()
		return
	}
	p.idle[key] = append(p.idle[key], idleClient{c: c, since: time.Now()})
	p.mu.Unlock()
}

func (p *Pool) start() {
	p.mu.Lock()
	p.idle = map[string][]idleClient{}
	p.stop = make(chan struct{})
	p.mu.Unlock()
	go p.janitor()
}

func (p *Pool) janitor() {
	t := time.NewTicker(p.IdleTimeout / 2)
	defer t.Stop()
	for {
		select {
		case <-p.stop:
			return
		case <-t.C:
		}
		var expired []Client
		p.mu.Lock()
		for k, list := range p.idle {
			keep := list[:0]
			for _, ic := range list {
				if time.Since(ic.since) > p.IdleTimeout {
					expired = append(expired, ic.c)
				} else {
					keep = append(keep, ic)
				}
			}
			if len(keep) == 0 {
				delete(p.idle, k)
			} else {
				p.idle[k] = keep
			}
		}
		p.mu.Unlock()
		for _, c := range expired {
			_ = c.Close()
		}
	}
}

// Close closes every idle session; leased ones close on Release.
func (p *Pool) Close() {
	p.once.Do(p.start)
	p.mu.Lock()
	if p.closed {
		p.mu.Unlock()
		return
	}
	p.closed = true
	close(p.stop)
	var all []Client
	for _, list := range p.idle {
		for _, ic := range list {
			all = append(all, ic.c)
		}
	}
	p.idle = nil
	p.mu.Unlock()
	for _, c := range all {
		_ = c.Close()
	}
}
