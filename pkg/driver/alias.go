package driver

import (
	"context"
	"slices"
	"strings"
	"sync"

	"k8s.io/klog/v2"

	"github.com/fileshare-csi/fileshare-csi/pkg/mounter"
	"github.com/fileshare-csi/fileshare-csi/pkg/os/winpath"
	"github.com/fileshare-csi/fileshare-csi/pkg/source"
)

// aliasUse applies the source aliases (Config.Aliases, --source-aliases)
// where the driver reaches a volume's share: the controller's locate and
// the node's mounts and logons. Each use is counted, and logged once per
// volume and rule, so the log says which volumes still depend on an alias
// without a line for every call.
type aliasUse struct {
	cfg *Config

	mu sync.Mutex
	// logged holds, per volume, the rule its use was last logged with.
	logged map[string]string
}

// maxAliasLogged bounds what aliasUse remembers: past it, it forgets and
// logs each volume once more, rather than grow with every volume ever seen.
const maxAliasLogged = 10000

// newAliasUse readies cfg's alias file: its reloads and refusals are logged
// and counted.
func newAliasUse(cfg *Config) *aliasUse {
	if f := cfg.Aliases; f != nil {
		f.OnError = func(err error) {
			klog.Background().Error(err, "the changed source aliases are refused; the last good version stays in use")
			cfg.Metrics.SourceAliasesFailed()
		}
		f.OnLoad = func(a *source.Aliases) {
			klog.Background().Info("source aliases read again", "rules", a.Rules())
			cfg.Metrics.SourceAliasesLoaded(a.Rules())
		}
		cfg.Metrics.SourceAliasesLoaded(f.Aliases().Rules())
	}
	return &aliasUse{cfg: cfg, logged: map[string]string{}}
}

// stage mounts sr with its source reached through the aliases: at the first
// of its addresses that can be reached. Its record keeps the source as the
// volume names it, so a remount follows the aliases as they are then.
func (n *node) stage(ctx context.Context, sr mounter.StageRequest) error {
	src := n.aliases.resolve(ctx, aliasKey(sr), sr.Source)
	return source.TryInOrder(ctx, src, mounter.Unreachable, func(ctx context.Context, a source.Source) error {
		sr.Source = a
		return n.cfg.Mounter.Stage(ctx, sr)
	})
}

// aliasKey names the volume a node mount is of, for the alias log: where it
// lies on its server as the volume names it.
func aliasKey(sr mounter.StageRequest) string { return sr.Source.Device(sr.SubDir) }

// hosts are the server names a mount of src may be made at now, as
// serverKey writes them: src's own, and every address the aliases give it
// (stage tries them in order). Not logged: it is asked for checks, not to
// reach a volume.
func (a *aliasUse) hosts(src source.Source) []string {
	out := []string{serverKey(src.Host)}
	if a == nil {
		return out
	}
	if got, _, ok := a.cfg.Aliases.Aliases().Resolve(src); ok {
		for _, addr := range got.Addresses() {
			if h := serverKey(addr.Host); !slices.Contains(out, h) {
				out = append(out, h)
			}
		}
	}
	slices.Sort(out)
	return out
}

// resolve is src as the aliases map it now, for the volume (or share)
// named key; src itself when no rule matches.
func (a *aliasUse) resolve(ctx context.Context, key string, src source.Source) source.Source {
	if a == nil {
		return src // a driver built without New, in tests
	}
	got, rule, ok := a.cfg.Aliases.Aliases().Resolve(src)
	if !ok {
		return src
	}
	a.cfg.Metrics.SourceAliasUsed(rule.From, rule.To)
	r := rule.From + " -> " + rule.To
	a.mu.Lock()
	first := a.logged[key] != r
	if first {
		if len(a.logged) >= maxAliasLogged {
			clear(a.logged)
		}
		a.logged[key] = r
	}
	a.mu.Unlock()
	if first {
		klog.FromContext(ctx).Info("reaching a volume through a source alias", "volume", key, "from", rule.From, "to", rule.To,
			"line", rule.Line, "addresses", len(got.Addresses()))
	}
	return got
}

// serverKey is a host as a Windows node names the server: as its UNC paths
// write it (winpath.UNCHost), lower case, as Windows compares them. The one
// form of a host for the per-server checks of a Windows node, the server's
// lock (lockServer) and its one user (mappingConflict): Windows keys a
// global mapping by its UNC root, where an IPv6 address is written as its
// ipv6-literal.net name, so smb://[fd00::5]/share and
// smb://fd00--5.ipv6-literal.net/share are one mapping, and must be one
// server to the checks, or one volume links into the mapping another made
// with other credentials.
func serverKey(host string) string { return strings.ToLower(winpath.UNCHost(host)) }
