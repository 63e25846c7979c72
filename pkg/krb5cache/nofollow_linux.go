package krb5cache

import "syscall"

const noFollow = syscall.O_NOFOLLOW
