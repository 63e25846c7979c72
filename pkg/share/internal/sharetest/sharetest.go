// Package sharetest holds what the tests of pkg/share and its protocol
// packages share.
package sharetest

// BadNames are names no server may list: joined to a path they lead out
// of the directory listed.
var BadNames = []string{"", "../x/payload", "a/b", "/abs", "x\x00y", "..\x00"}
