#!/usr/bin/env bash
#
# includes.sh: layers point one way (doc/design.md, "Who may call whom").
# Folders: src/LAYERS lists the folders of src/ bottom first, and
# layers.py names every #include and every call (nm) from a folder to one
# on its own line or above: there must be none. Modules: no module
# includes the header of one that includes its own, directly or around a
# ring; modrings.py draws the modules of src/ (a .c with its .h) by their
# #include "..." lines, and by their objects' symbols (nm: which module
# calls a function, or reaches a global, of which), and names every ring,
# with the lines and symbols that make it. Both graphs must have none.
#
# Environment: TOP_SRCDIR, TOP_BUILDDIR (make check sets them); the calls
# are read from the objects under $TOP_BUILDDIR/src, which make check has
# just built.

# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "$0")/lib.sh"

RINGS=$(dirname "$0")/modrings.py
LAYERS=$(dirname "$0")/layers.py

# none_found DESC SCRIPT ARG...: the finder SCRIPT (modrings.py, layers.py)
# names nothing; each line it names is a line of the diagnostics.
none_found() {
	local d=$1 script=$2 out rc
	shift 2
	out=$(python3 "$script" "$@" 2>&1)
	rc=$?
	case $rc in
	0) pass "$d" ;;
	1) fail "$d" "$out" ;;
	*) fail "$d" "${script##*/} $* exited $rc" "$out" ;;
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

# A tree of three layers with an edge up, one beside and a folder not
# placed: the finder must name each, or a pass means nothing.
t=$WR_TMP/layers
mkdir -p "$t/src/low" "$t/src/mid" "$t/src/side" "$t/src/odd" \
    "$t/obj/src/low" "$t/obj/src/mid"
printf 'low\nmid side\n' >"$t/src/LAYERS"
printf '#include "m.h"\nint l(void) { return m(); }\n' >"$t/src/low/l.c"
printf 'int l(void);\n' >"$t/src/low/l.h"
printf '#include "l.h"\n#include "s.h"\nint m(void) { return 0; }\n' \
    >"$t/src/mid/m.c"
printf 'int m(void);\n' >"$t/src/mid/m.h"
printf 'struct s;\n' >"$t/src/side/s.h"
printf 'struct o;\n' >"$t/src/odd/o.h"
out=$(python3 "$LAYERS" includes "$t/src")
check_contains "$out" 'up: low -> mid (l.c:1 includes "m.h")' \
    "the finder names an include up"
check_contains "$out" 'beside: mid -> side (m.c:2 includes "s.h")' \
    "the finder names an include beside"
check_contains "$out" 'unplaced: odd is a folder of src/' \
    "the finder names a folder LAYERS does not place"
if command -v nm >/dev/null 2>&1 &&
    ${CC:-cc} -c -o "$t/obj/src/low/l.o" -I"$t/src/mid" "$t/src/low/l.c" \
    2>/dev/null &&
    ${CC:-cc} -c -o "$t/obj/src/mid/libx_a-m.o" -I"$t/src/low" \
    -I"$t/src/side" "$t/src/mid/m.c" 2>/dev/null; then
	check_contains "$(python3 "$LAYERS" calls "$t/src" "$t/obj")" \
	    'up: low -> mid (l.c uses m)' "the finder names a call up"
else
	pass "the finder names a call up # SKIP no cc or nm"
fi

none_found "no folder of src/ includes one above it or beside it (src/LAYERS)" \
    "$LAYERS" includes "$TOP_SRCDIR/src"

none_found "no ring of modules by their includes under src/" "$RINGS" \
    includes "$TOP_SRCDIR/src"

if ! command -v nm >/dev/null 2>&1; then
	pass "no ring of modules by their calls # SKIP nm is not installed"
	pass "no folder of src/ calls one above it # SKIP nm is not installed"
elif [ -z "$(find "${TOP_BUILDDIR:-.}/src" -name '*.o' 2>/dev/null | head -n 1)" ]; then
	pass "no ring of modules by their calls # SKIP no objects under ${TOP_BUILDDIR:-.}/src"
	pass "no folder of src/ calls one above it # SKIP no objects under ${TOP_BUILDDIR:-.}/src"
else
	none_found "no ring of modules by their calls (nm of the objects)" \
	    "$RINGS" calls "$TOP_SRCDIR/src" "$TOP_BUILDDIR/src"
	none_found "no folder of src/ calls one above it or beside it (nm of the objects)" \
	    "$LAYERS" calls "$TOP_SRCDIR/src" "$TOP_BUILDDIR"
fi
