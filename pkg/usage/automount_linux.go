package usage

import "golang.org/x/sys/unix"

// atNoAutomount keeps fstatat from triggering an automount at the name.
const atNoAutomount = unix.AT_NO_AUTOMOUNT
