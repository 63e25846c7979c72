//go:build unix && !linux

package usage

// atNoAutomount: no such flag outside Linux, where no node plugin runs
// (the tree only builds there).
const atNoAutomount = 0
