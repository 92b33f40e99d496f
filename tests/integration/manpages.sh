#!/usr/bin/env bash
#
# manpages.sh: the man pages tell the truth about the programs. Every key
# of the parser's table (waitroomd --list-keys) is documented in
# waitroom.conf.5 and no other; every flag of waitroomd --help is in
# waitroomd.8 and no other; every waitroomctl command and option of its
# --help (and plan --help) is in waitroomctl.1. The pages render without
# warnings where man is installed.

# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "$0")/lib.sh"

DOC=$TOP_SRCDIR/doc

# tagged PAGE: the first bold word after each .TP, unescaped, sorted, unique.
tagged() {
	awk 'tp { print; tp = 0 } /^\.TP/ { tp = 1 }' "$1" |
	    sed -E 's/^\.B[IR]? +//; s/\\-/-/g; s/ .*//; s/"//g' | sort -u
}

# flags TEXT...: the --flags in help texts, sorted, unique.
flags() {
	grep -oE -- '--[a-z][a-z-]*' | sort -u
}

# same GOT WANT DESC: the lists of a page and of a program agree.
same() {
	check_lines "$1" "$2" "$3" "the page"
}

same "$(tagged "$DOC/waitroom.conf.5" | grep -v -- '^-')" \
    "$("$WAITROOMD" --list-keys | awk '{ print $1 }' | sort -u)" \
    "waitroom.conf.5 documents exactly the keys of the parser's table"
check_eq "$("$WAITROOMD" --list-keys | awk '$2 == "queue" || $2 == "both" { print $1 }' |
    while read -r k; do
	awk '/^\.SH QUEUE KEYS/ { on = 1; next } /^\.SH/ { on = 0 }
	    on && tp { print; tp = 0 } on && /^\.TP/ { tp = 1 }' "$DOC/waitroom.conf.5" |
	    grep -qx "\.B $k" || echo "$k"
    done)" "" "each queue key is under QUEUE KEYS"

same "$(tagged "$DOC/waitroomd.8" | grep -- '^--')" \
    "$("$WAITROOMD" --help | flags)" \
    "waitroomd.8 documents exactly the flags of waitroomd --help"

ctl_help=$("$WAITROOMCTL" --help; "$WAITROOMCTL" plan --help)
same "$(tagged "$DOC/waitroomctl.1" | grep -- '^--')" \
    "$(echo "$ctl_help" | flags)" \
    "waitroomctl.1 documents the options of waitroomctl --help and plan --help"
same "$(awk '/^\.SH COMMANDS/ { on = 1; next } /^\.SH/ { on = 0 }
    on && tp { print; tp = 0 } on && /^\.TP/ { tp = 1 }' "$DOC/waitroomctl.1" |
    sed -E 's/^\.BI? +//; s/ .*//' | sort -u)" \
    "$(echo "$ctl_help" | sed -n '/^commands:/,/^$/p' | awk 'NR > 1 && NF { print $1 }' | sort -u)" \
    "waitroomctl.1 documents each command of waitroomctl --help"

if command -v man >/dev/null 2>&1 && man --version >/dev/null 2>&1; then
	for page in waitroomd.8 waitroom.conf.5 waitroomctl.1; do
		check_eq "$(LC_ALL=C.UTF-8 MANWIDTH=80 man --warnings -l "$DOC/$page" 2>&1 >/dev/null)" "" \
		    "$page renders without warnings"
	done
else
	pass "the pages render # SKIP man is not installed"
fi
