# failures.awk reads `go test -v` output and prints, for each top-level
# test that failed, what its tests logged (file_test.go:N: lines and their
# continuations), the last 40 lines of it: the targets that filter the
# stream down to === RUN / --- lines print it at the end, so a failure says
# why in the part of the output a CI excerpt keeps. A panic (a test that
# ran out of time) prints what the running test had logged, and the lines
# that name the tests still running.
function flush(name) {
	if (n == 0) return
	print "--- why " name " failed (its last " (n < 40 ? n : 40) " log lines):"
	for (i = (n > 40 ? n - 40 : 0); i < n; i++) print "    | " buf[i % 40]
}
after > 0 { print "    | " $0; after--; next }
/^panic: / { flush(running " (running at the panic)"); n = 0; print "--- " $0; after = 4; next }
/^=== RUN   [^\/]+$/ { n = 0; logging = 0; running = $3; next }
/^--- FAIL: / { flush($3); n = 0; next }
/^ +[A-Za-z0-9_]+_test\.go:[0-9]+: / { logging = 1; buf[n % 40] = $0; n++; next }
/^(=== |--- |    --- |PASS|FAIL|ok )/ { logging = 0; next }
logging && /^        / { buf[n % 40] = $0; n++ }
