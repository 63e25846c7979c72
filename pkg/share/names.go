package share

import (
	"errors"
	"fmt"
	"strings"
	"unicode"
)

// ErrBadName says a server listed a name that cannot be an entry of the
// directory it listed: empty, or with a path separator or a NUL. Such a
// name joined to a path
// would lead elsewhere: "../x/payload" from a broken or hostile server
// would make a clone write outside its destination, or a delete remove
// outside its volume.
//
// The listing is refused rather than the name dropped: a snapshot or clone
// that left an entry out would report success and lose data, and a delete
// could not finish either way. A server that sends such a name is broken,
// like one whose reply does not decode, so the error wraps ErrUnavailable
// (the session is not used again, and the caller may retry).
var ErrBadName = errors.New("the server listed a name that is not a plain directory entry")

// NameSyntax says what separates path components on a protocol.
type NameSyntax uint8

const (
	// UnixNames: NFS. A backslash is an ordinary character.
	UnixNames NameSyntax = iota
	// SMBNames: SMB, where a backslash separates components too, and
	// the client turns a slash into one.
	SMBNames
)

// SyntaxOf says what separates path components on c's server: SMBNames
// for a client that says so (SMB's), UnixNames otherwise. A name that
// holds a separator of its server's is a path there, whatever it is here.
func SyntaxOf(c any) NameSyntax {
	if n, ok := c.(interface{ NameSyntax() NameSyntax }); ok {
		return n.NameSyntax()
	}
	return UnixNames
}

// ListedName checks one name a server listed in a directory: the one check
// every listing of the protocol packages passes its names through, before a caller
// sees them. keep is false for "." and "..", which NFSv3 and SMB servers
// list and callers never want; a name that is no entry name at all is an
// error wrapping ErrBadName and ErrUnavailable.
func ListedName(name string, syntax NameSyntax) (keep bool, err error) {
	if name == "." || name == ".." {
		return false, nil
	}
	seps := "/\x00"
	if syntax == SMBNames {
		seps = "/\\\x00"
	}
	if name == "" || strings.ContainsAny(name, seps) {
		return false, fmt.Errorf("%w: %q: %w", ErrBadName, name, ErrUnavailable)
	}
	return true, nil
}

// Caseless is a Client of a server that takes names differing only in case
// for one name: SMB (Windows, and Samba for SMB2/3 clients by default).
// The state store keys what it keeps by path through FoldCase there, so
// that two spellings of one directory meet the same records, holds and
// locks.
type Caseless interface {
	CaseInsensitive() bool
}

// CaseInsensitive says whether c's server takes names differing only in
// case for one name.
func CaseInsensitive(c Client) bool {
	ci, ok := c.(Caseless)
	return ok && ci.CaseInsensitive()
}

// FoldCase is the one spelling every spelling of p that a caseless server
// takes for the same name maps to. Windows and Samba compare names by
// upper-casing each character; lower-casing that again keeps a path of
// lower-case ASCII (every claim's name) as it is, so its keys are those it
// always had.
func FoldCase(p string) string {
	return strings.Map(FoldRune, p)
}

// FoldRune is FoldCase of one character.
func FoldRune(r rune) rune { return unicode.ToLower(unicode.ToUpper(r)) }
