#!/usr/bin/env bash
#
# keytable.sh: the key table of doc/design.md ("Configuration") is the
# parser's table. `waitroomd --list-keys` prints one line a key, NAME SCOPE
# RELOAD (SCOPE global, queue or both; RELOAD reloads or restart); the
# design table must have one row per key, `| key | scope | on reload |
# meaning | default |`, and say the same scope and the same on-reload for
# each. A key added to the parser and not to the table fails here, and so
# does a row the parser does not know.
#
# Environment: WR_KEYTABLE_DOC, the page to read (default
# $TOP_SRCDIR/doc/design.md), so the test can be tried on an edited copy.

# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "$0")/lib.sh"

DESIGN=${WR_KEYTABLE_DOC:-$TOP_SRCDIR/doc/design.md}
HEADER='| key | scope | on reload | meaning | default |'

[ -r "$DESIGN" ] || bail "$DESIGN can be read"

# table_lines: the table lines of the Configuration section, as written.
table_lines() {
	awk '/^## / { on = ($0 ~ /^## Configuration[ \t]*$/); next }
	    on && /^\|/' "$DESIGN"
}

# table_rows: "KEY<tab>SCOPE<tab>RELOAD" for each row of the key table,
# sorted; a row whose key cell is not one name in backticks comes out as
# "?<tab>CELL".
table_rows() {
	table_lines | awk -F'|' -v OFS='\t' '
	function trim(s) { gsub(/^[ \t]+|[ \t]+$/, "", s); return s }
	{
		key = trim($2); scope = trim($3); reload = trim($4)
		if (key == "key" || key ~ /^-+$/)
			next
		if (key !~ /^`[a-z_]+`$/) {
			print "?", key
			next
		}
		gsub(/`/, "", key)
		print key, scope, reload
	}' | LC_ALL=C sort
}

# parser_rows: "KEY<tab>SCOPE<tab>RELOAD" from --list-keys, sorted.
parser_rows() {
	awk -v OFS='\t' '{ print $1, $2, $3 }' <<<"$listed" | LC_ALL=C sort
}

# report DESC GOT WANT: ok when equal, else the lines that differ, named.
report() {
	check_lines "$2" "$3" "$1" "the table"
}

listed=$("$WAITROOMD" --list-keys) || bail "waitroomd --list-keys runs"
check_eq "$(awk 'NF != 3 || $2 !~ /^(global|queue|both)$/ ||
    $3 !~ /^(reloads|restart)$/' <<<"$listed")" "" \
    "--list-keys prints NAME SCOPE RELOAD on every line"

check_eq "$(table_lines | head -n 1)" "$HEADER" \
    "the Configuration section's table has the columns key, scope, on reload, meaning, default"

rows=$(table_rows)
named=$(grep -v $'^?\t' <<<"$rows")
check_eq "$(grep $'^?\t' <<<"$rows" | cut -f 2)" "" \
    "each row of the table names one key, in backticks"
check_eq "$(awk -F'\t' '$2 !~ /^(global|queue|both)$/ ||
    $3 !~ /^(reloads|restart)$/ { print $1 ": " $2 " | " $3 }' <<<"$named")" "" \
    "each row's scope is global, queue or both, and its on reload reloads or restart"
check_eq "$(cut -f 1 <<<"$named" | uniq -d)" "" "no key has two rows"

report "the table holds exactly the keys of the parser's table" \
    "$(cut -f 1 <<<"$named" | LC_ALL=C sort -u)" \
    "$(parser_rows | cut -f 1 | LC_ALL=C sort -u)"

# For the keys in both, the scope and the on-reload column must agree
# (command: lib.sh has a function named join).
differ=$(LC_ALL=C command join -t $'\t' -j 1 <(echo "$named") <(parser_rows) |
    awk -F'\t' '$2 != $4 || $3 != $5 {
	printf "%s: the table says %s, %s; the parser says %s, %s\n", $1,
	    $2, $3, ($4 == "" ? "(nothing)" : $4), ($5 == "" ? "(nothing)" : $5)
    }')
if [ -z "$differ" ]; then
	pass "each key's scope and on reload agree with the parser's"
else
	fail "each key's scope and on reload agree with the parser's" "$differ"
fi
