#!/bin/sh
# run.sh: each libFuzzer target of tests/fuzz, briefly, as one TAP result.
# A target fuzzes a copy of its seed corpus (tests/fuzz/<target>/) under
# tests/fuzz/work/ in the build tree; a crash, a leak, a sanitizer report
# or a broken invariant fails it, and its log and reproducer are kept there.
#
#   FUZZ_TIME=60 make check     fuzz each target for 60 s (default 5)
#   FUZZ_ONLY="join" make check  only these targets
#   FUZZ_JOBS=1 make check       one target at a time (default 2)

targets=${FUZZ_ONLY:-pass http sse pow join}
time=${FUZZ_TIME:-5}
top_builddir=${TOP_BUILDDIR:-.}
top_srcdir=${TOP_SRCDIR:-.}
work=$top_builddir/tests/fuzz/work

# fuzz_one N TARGET: fuzz TARGET; its TAP result (line N) and diagnostics
# into its work dir's result file.
fuzz_one() {
	n=$1 t=$2
	bin=$top_builddir/tests/fuzz/fuzz_$t
	dir=$work/$t
	# timeout: a hang in the target must not hang CI either
	if timeout --kill-after=10 $((time + 60)) "$bin" \
	    -max_total_time="$time" -timeout=10 -rss_limit_mb=2048 \
	    -print_final_stats=1 -artifact_prefix="$dir/artifacts/" \
	    "$dir/corpus" >"$dir/log" 2>&1; then
		runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$dir/log")
		echo "ok $n - fuzz_$t: ${runs:-?} runs in ${time} s, no finding"
	else
		echo "not ok $n - fuzz_$t: see $dir/log"
		tail -n 40 "$dir/log" | sed 's/^/# /'
		ls "$dir/artifacts" | sed 's/^/# artifact: /'
	fi >"$dir/result"
}

echo "1..$(echo $targets | wc -w)"
n=0
for t in $targets; do
	dir=$work/$t
	rm -rf "$dir" && mkdir -p "$dir/corpus" "$dir/artifacts" || exit 1
	cp "$top_srcdir/tests/fuzz/$t"/* "$dir/corpus/" || exit 1
	chmod -R u+w "$dir/corpus"
done
# FUZZ_JOBS targets at a time (default 2, a core each): each still fuzzes
# for FUZZ_TIME seconds, and the whole run takes half as long on two cores.
jobs=${FUZZ_JOBS:-2}
running=0
for t in $targets; do
	n=$((n + 1))
	fuzz_one "$n" "$t" &
	running=$((running + 1))
	if [ "$running" -ge "$jobs" ]; then
		wait
		running=0
	fi
done
wait
for t in $targets; do
	cat "$work/$t/result"
done
