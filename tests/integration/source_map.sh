#!/usr/bin/env bash
#
# source_map.sh: doc/design.md's map of the source ("The source, part by
# part") covers the tree. The section has one "### src/PART" heading per
# folder, each followed by a paragraph that names the folder's files in
# backticks. Every file of src/ must lie in a folder the map names and be
# named in that folder's paragraph; every folder the map names must exist;
# and every file a paragraph names must exist. So a file or a folder added
# without a word in the map fails here, and so does a map that names what
# is gone.
#
# The files are those git knows (tracked, or new and not ignored) when
# $TOP_SRCDIR is the top of a git checkout; else, as in a release tarball
# (make distcheck runs the tests from one), every file under
# $TOP_SRCDIR/src but build products. A file the build writes
# (lua_scripts.c...) exists in the source or the build tree.
#
# Environment: TOP_SRCDIR and TOP_BUILDDIR (make check sets both);
# WR_SOURCE_MAP_DOC, the page to read (default $TOP_SRCDIR/doc/design.md),
# so the test can be tried on an edited copy.

# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "$0")/lib.sh"

DESIGN=${WR_SOURCE_MAP_DOC:-$TOP_SRCDIR/doc/design.md}
SECTION='The source, part by part'
BUILD=${TOP_BUILDDIR:-$TOP_SRCDIR}

[ -r "$DESIGN" ] || bail "$DESIGN can be read"
[ -d "$TOP_SRCDIR/src" ] || bail "$TOP_SRCDIR/src is a folder"

# map: "FOLDER" for each "### src/..." heading of the section, then
# "FOLDER<tab>NAME" for each file name in backticks in its paragraph (the
# name as written, which may have a path). A code span may wrap lines.
map() {
	awk -v section="## $SECTION" '
	/^## / { on = ($0 == section); part = ""; next }
	!on { next }
	/^### / {
		part = ""
		if (match($0, /^### src(\/[a-z0-9_]+)*[ \t]*$/)) {
			part = $2
			parts[++n] = part
		} else if ($2 ~ /^src/)
			print "?\t" $0
		next
	}
	part != "" { text[part] = text[part] " " $0 }
	END {
		for (i = 1; i <= n; i++) {
			print parts[i]
			k = split(text[parts[i]], f, "`")
			for (j = 2; j <= k; j += 2)
				if (f[j] ~ /^[A-Za-z0-9_.\/-]+\.(c|h|def|lua|js|html|css|sh)$/)
					print parts[i] "\t" f[j]
		}
	}' "$DESIGN"
}

# files: every file of src/, one path a line relative to $TOP_SRCDIR,
# sorted.
files() {
	if [ "$(git -C "$TOP_SRCDIR" rev-parse --show-toplevel 2>/dev/null)" = \
	    "$(cd "$TOP_SRCDIR" && pwd -P)" ]; then
		git -C "$TOP_SRCDIR" ls-files -co --exclude-standard -- src |
		    while IFS= read -r f; do
			[ -e "$TOP_SRCDIR/$f" ] && echo "$f"
		    done
	else
		(cd "$TOP_SRCDIR" && find src \( -name .deps -o -name .libs \) \
		    -prune -o -type f ! -name '*.o' ! -name '*.a' \
		    ! -name .dirstamp ! -path src/waitroomd \
		    ! -path src/waitroomctl -print)
	fi | LC_ALL=C sort
}

# none DESC WHAT LIST: ok when LIST is empty, else each line of it, named.
none() {
	if [ -z "$3" ]; then
		pass "$1"
	else
		fail "$1" "$2: ${3//$'\n'/$'\n'$2: }"
	fi
}

mapped=$(map)
check_eq "$(awk -F'\t' '$1 == "?" { print $2 }' <<<"$mapped")" "" \
    "each heading of the section that names a folder is '### src/FOLDER' alone"
folders=$(awk -F'\t' 'NF == 1' <<<"$mapped" | LC_ALL=C sort)
named=$(awk -F'\t' 'NF == 2 && $1 != "?"' <<<"$mapped")
[ -n "$folders" ] || bail "doc/design.md, \"$SECTION\", names folders (### src/...)"
check_eq "$(uniq -d <<<"$folders")" "" "no folder has two paragraphs"

# src/LAYERS, the folders' order, is the map's own rule, not a part.
tree=$(files | grep -vx 'src/LAYERS')
[ -n "$tree" ] || bail "the files of src/ are found"
diag "$(wc -l <<<"$tree") files in src/, $(wc -l <<<"$folders") folders in the map"

none "every folder the map names exists" "no such folder" \
    "$(while IFS= read -r d; do
	[ -d "$TOP_SRCDIR/$d" ] || echo "$d"
    done <<<"$folders")"

# Each file's folder is its own directory: src/foo.c lies in src, which
# is no part; src/new/x.c in src/new, which is none either.
none "every file of src/ lies in a folder the map names" \
    "in no folder of the map" \
    "$(awk 'NR == FNR { known[$0] = 1; next }
    { d = $0; sub(/\/[^\/]*$/, "", d); if (!(d in known)) print $0 }' \
    <(echo "$folders") <(echo "$tree"))"

none "every file of src/ is named in its folder's paragraph" \
    "not named in its folder's paragraph" \
    "$(awk -F'\t' 'NR == FNR { n = $2; sub(/.*\//, "", n); has[$1 "/" n] = 1; next }
    !($0 in has) { print $0 }' <(echo "$named") <(echo "$tree"))"

# A paragraph may name a file of another folder (api_page.c in the
# page's): it must exist somewhere under src/, in the source or the
# build tree.
none "every file the map names exists" "named, but in no folder of src/" \
    "$(cut -f 2 <<<"$named" | sed 's|.*/||' | LC_ALL=C sort -u |
    while IFS= read -r n; do
	[ -n "$(find "$TOP_SRCDIR/src" "$BUILD/src" -name "$n" -print -quit \
	    2>/dev/null)" ] || echo "$n"
    done)"

# The order of the folders (src/LAYERS, which includes.sh holds the code
# to) places exactly the parts the map has a paragraph for.
check_contains "$(sed -n "/^## $SECTION/,/^## [^#]/p" "$DESIGN")" \
    'src/LAYERS' "the map says where the folders' order is written"
check_eq "$(sed 's/#.*//' "$TOP_SRCDIR/src/LAYERS" | tr -s ' \t' '\n\n' |
    sed '/^$/d' | LC_ALL=C sort)" \
    "$(grep -E '^src/[a-z0-9_]+$' <<<"$folders" | sed 's|^src/||' |
    LC_ALL=C sort)" \
    "src/LAYERS places every part the map names, and no other"

# A request's path names functions as file.c:function: each must still be
# a word of that file (a rename that forgot the map fails here).
none "every file.c:function of doc/design.md is in that file" \
    "no such function" \
    "$(grep -o '`[a-z0-9_/]*\.\(c\|lua\):[a-z0-9_]*`' "$DESIGN" | tr -d '`' |
    LC_ALL=C sort -u | while IFS=: read -r f fn; do
	p=$(find "$TOP_SRCDIR/src" -name "${f##*/}" -print -quit)
	[ -n "$p" ] && grep -qw -- "$fn" "$p" || echo "$f:$fn"
    done)"

