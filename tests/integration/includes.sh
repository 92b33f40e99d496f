#!/usr/bin/env bash
#
# includes.sh: layers point one way (doc/design.md; STYLE: "No module
# includes the header of one that includes its own, directly or around a
# ring"). modrings.py draws the modules of src/ (a .c with its .h) by
# their #include "..." lines, and by their objects' symbols (nm: which
# module calls a function, or reaches a global, of which), and names
# every ring, with the lines and symbols that make it. Both graphs must
# have none.
#
# Environment: TOP_SRCDIR, TOP_BUILDDIR (make check sets them); the calls
# are read from the objects under $TOP_BUILDDIR/src, which make check has
# just built.

# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "$0")/lib.sh"

RINGS=$(dirname "$0")/modrings.py

# no_rings DESC KIND DIR...: modrings.py finds no ring; each one it names
# is a line of the diagnostics.
no_rings() {
	local d=$1 out rc
	shift
	out=$(python3 "$RINGS" "$@" 2>&1)
	rc=$?
	case $rc in
	0) pass "$d" ;;
	1) fail "$d" "$out" ;;
	*) fail "$d" "modrings.py $* exited $rc" "$out" ;;
	esac
}

# A tree with a known ring: the finder must name it, or a pass means
# nothing.
t=$WR_TMP/ring
mkdir -p "$t/src" "$t/obj"
printf '#include "b.h"\nint a(void) { return b(0); }\n' >"$t/src/a.c"
printf 'int a(void);\n' >"$t/src/a.h"
printf '#include "a.h"\nint b(int x) { return x ? a() : 0; }\n' >"$t/src/b.c"
printf '#include "c.h"\nint b(int x);\n' >"$t/src/b.h"
printf 'struct c;\n' >"$t/src/c.h"
check_contains "$(python3 "$RINGS" includes "$t/src")" \
    'ring: a -> b -> a (a.c:1 includes "b.h"; b.c:1 includes "a.h")' \
    "the finder names a ring of includes"
if command -v nm >/dev/null 2>&1 &&
    ${CC:-cc} -c -o "$t/obj/a.o" "$t/src/a.c" 2>/dev/null &&
    ${CC:-cc} -c -o "$t/obj/libx_a-b.o" "$t/src/b.c" 2>/dev/null; then
	check_contains "$(python3 "$RINGS" calls "$t/src" "$t/obj")" \
	    'ring: a -> b -> a (a.c uses b; b.c uses a)' \
	    "the finder names a ring of calls"
else
	pass "the finder names a ring of calls # SKIP no cc or nm"
fi

no_rings "no ring of modules by their includes under src/" \
    includes "$TOP_SRCDIR/src"

if ! command -v nm >/dev/null 2>&1; then
	pass "no ring of modules by their calls # SKIP nm is not installed"
elif [ -z "$(find "${TOP_BUILDDIR:-.}/src" -name '*.o' 2>/dev/null | head -n 1)" ]; then
	pass "no ring of modules by their calls # SKIP no objects under ${TOP_BUILDDIR:-.}/src"
else
	no_rings "no ring of modules by their calls (nm of the objects)" \
	    calls "$TOP_SRCDIR/src" "$TOP_BUILDDIR/src"
fi
