# shellcheck shell=bash
# It sets R_* for the benchmarks that source it (SC2034).
# shellcheck disable=SC2034
#
# bench/lib.sh: what the benchmarks share, sourced from the top of the
# source tree (SRC): the daemon to measure (bench_waitroomd), and for the
# ones that drive wrk, its report as one machine-readable line
# (wrk_report), one load (load), a quotient (fmt_div) and CPU time from
# /proc (ticks, us_per). DURATION and THREADS are the caller's.

# bench_waitroomd: WAITROOMD, else build/normal's daemon, configured and
# built first if need be; exported. Exits when the build fails.
bench_waitroomd() {
	if [ -z "${WAITROOMD:-}" ]; then
		if [ ! -f build/normal/Makefile ]; then
			[ -x configure ] || autoreconf -fi || exit 1
			mkdir -p build/normal || exit 1
			(cd build/normal && "$SRC/configure" -q) || exit 1
		fi
		if ! make -s -C build/normal -j2 >/dev/null; then
			echo "bench: the build failed (make -C build/normal)" >&2
			exit 1
		fi
		WAITROOMD=$SRC/build/normal/src/waitroomd
	fi
	export WAITROOMD
}

# wrk_report: Lua for wrk -s that prints, at the end, one line "RESULT
# requests= duration_us= status_errors= socket_errors= p50_us= p99_us=".
wrk_report() {
	cat <<'EOF'
done = function(summary, latency, requests)
	local e = summary.errors
	io.write(string.format(
	    "RESULT requests=%d duration_us=%d status_errors=%d socket_errors=%d p50_us=%d p99_us=%d\n",
	    summary.requests, summary.duration, e.status,
	    e.connect + e.read + e.write + e.timeout,
	    latency:percentile(50), latency:percentile(99)))
end
EOF
}

# load NAME URL LUA CONNS: one wrk run of DURATION seconds, THREADS
# threads, CONNS connections, with LUA (which holds wrk_report); sets R_*
# from its RESULT line, and R_ok_s (answers 2xx a second), R_p50_ms,
# R_p99_ms. On failure: zeros, wrk's output on stderr, 1.
load() {
	local out=$WR_TMP/wrk-$1-$4.txt line kv
	R_requests=0 R_duration_us=1 R_status_errors=0 R_socket_errors=0
	R_p50_us=0 R_p99_us=0
	timeout $((DURATION + 30)) wrk -t "$THREADS" -c "$4" -d "${DURATION}s" \
	    --latency --timeout 5s -s "$3" "$2" >"$out" 2>&1
	line=$(grep '^RESULT ' "$out")
	[ -n "$line" ] || {
		echo "bench: wrk gave no result for $1 at $4 connections:" >&2
		cat "$out" >&2
	}
	for kv in ${line#RESULT }; do
		printf -v "R_${kv%%=*}" '%s' "${kv#*=}"
	done
	R_ok_s=$(fmt_div $(((R_requests - R_status_errors) * 1000000)) \
	    "$R_duration_us" 0)
	R_p50_ms=$(fmt_div "$R_p50_us" 1000)
	R_p99_ms=$(fmt_div "$R_p99_us" 1000)
	[ -n "$line" ]
}

# fmt_div A B [DECIMALS]: A / B (2 decimals), or "-" when B is 0 or empty.
fmt_div() {
	awk -v a="$1" -v b="${2:-0}" -v d="${3:-2}" \
	    'BEGIN { if (b == 0) print "-"; else printf "%.*f\n", d, a / b }'
}

# ticks PID: CPU clock ticks (user + system) used so far by process PID,
# its threads, and its child processes (a supervisor's workers).
ticks() {
	local p files=()
	for p in "$1" $(pgrep -P "$1"); do
		[ -r "/proc/$p/stat" ] && files+=("/proc/$p/stat")
	done
	# the name in field 2 has no blank for these daemons
	awk '{ s += $14 + $15 } END { print s + 0 }' "${files[@]}" 2>/dev/null
}
HZ=$(getconf CLK_TCK)

# us_per T0 T1 N: microseconds of CPU per request, from ticks T0 to T1.
us_per() {
	fmt_div "$(( ($2 - $1) * 1000000 / HZ ))" "$3" 1
}
