package source

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"sync"
	"time"
)

// AliasCheckInterval is how often, at most, an AliasFile looks at its file
// again: often enough that a changed ConfigMap applies within a second of
// the kubelet writing it, rarely enough that a burst of calls reads it once.
const AliasCheckInterval = time.Second

// AliasFile is the mapping of a file (a mounted ConfigMap key), read again
// when its content changes, without a restart. The kubelet replaces a
// mounted ConfigMap's files atomically, so each read sees one whole
// version. A file that is not there maps nothing. A file that does not
// parse keeps the last mapping that did, and is reported to OnError once
// per content. A nil *AliasFile maps nothing.
type AliasFile struct {
	path string
	// OnError hears of a changed file that cannot be read or parsed (the
	// last good mapping stays); set before the first Aliases call.
	OnError func(error)
	// OnLoad hears of each new mapping taken from the file.
	OnLoad func(*Aliases)

	mu  sync.Mutex
	cur *Aliases
	// seen is what the last look found (the content, "missing", or the
	// read error), so that only a change is parsed and reported.
	seen    string
	checked time.Time
	now     func() time.Time
}

// OpenAliasFile reads the mapping at path. A missing file is no error (and
// no aliases: the ConfigMap is optional); one that does not parse is, so
// that a mistake is seen at start, not at the first volume that needs it.
func OpenAliasFile(path string) (*AliasFile, error) {
	f := &AliasFile{path: path, now: time.Now}
	seen, a, err := f.load()
	if err != nil {
		return nil, err
	}
	f.cur, f.seen, f.checked = a, seen, f.now()
	return f, nil
}

// load reads and parses the file: what it found (see seen) and the
// mapping, or the error.
func (f *AliasFile) load() (string, *Aliases, error) {
	raw, err := os.ReadFile(f.path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return "missing", &Aliases{}, nil
	case err != nil:
		return "error " + err.Error(), nil, fmt.Errorf("read source aliases: %w", err)
	}
	a, err := ParseAliases(string(raw))
	if err != nil {
		err = fmt.Errorf("%s: %w", f.path, err)
	}
	return "content " + string(raw), a, err
}

// Aliases is the mapping now: the file is looked at again when
// AliasCheckInterval has passed since the last look.
func (f *AliasFile) Aliases() *Aliases {
	if f == nil {
		return nil
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if now := f.now(); now.Sub(f.checked) >= AliasCheckInterval {
		f.checked = now
		f.reload()
	}
	return f.cur
}

// reload takes the file's content when it changed; f.mu is held.
func (f *AliasFile) reload() {
	seen, a, err := f.load()
	if seen == f.seen {
		return
	}
	// Noted either way: a bad version is reported once, not at every
	// look, and fixing it (or going back) is a change.
	f.seen = seen
	if err != nil {
		if f.OnError != nil {
			f.OnError(err)
		}
		return
	}
	f.cur = a
	if f.OnLoad != nil {
		f.OnLoad(a)
	}
}
