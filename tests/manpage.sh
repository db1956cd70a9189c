#!/bin/sh
# The man page names every command and option that `bankscope --help` shows, every environment
# variable the program reads, and has the sections a packager expects.
srcdir=${srcdir:-.}
top_builddir=${top_builddir:-.}
bin="$top_builddir/bankscope"
man="$srcdir/bankscope.1"
tmp=$(mktemp) || exit 99
trap 'rm -f "$tmp"' EXIT
# the page as plain words: roff escapes of '-' undone
sed 's/\\-/-/g; s/\\(en/-/g' "$man" > "$tmp"
pass=0
fail=0
need() {  # need WHAT WORD: WORD appears in the page
    if grep -qF -- "$2" "$tmp"; then pass=$((pass + 1)); else echo "FAIL: the man page lacks $1 '$2'"; fail=$((fail + 1)); fi
}
help=$("$bin" --help) || { echo "bankscope --help failed"; exit 1; }
for opt in $(printf '%s\n' "$help" | grep -oE '(^|[[ ])--?[A-Za-z][A-Za-z-]*' | sed 's/^[[ ]//' | sort -u); do
    need option "$opt"
done
for cmd in $(printf '%s\n' "$help" | sed -n 's/^  bankscope \([a-z][a-z]*\) .*/\1/p' | sort -u); do
    need command "$cmd"
done
for var in $(grep -rhoE 'getenv\("[A-Z_]+"\)' "$srcdir/src" | sed 's/getenv("//; s/")//' | sort -u); do
    need "environment variable" "$var"
done
for sec in NAME SYNOPSIS DESCRIPTION COMMANDS EXAMPLES ENVIRONMENT FILES "EXIT STATUS" "SEE ALSO"; do
    need section ".SH $sec"
done
need "installed documentation" "/share/doc/bankscope/README.md"
need "kernel cache path" "~/.cache/bankscope"
need "schema folder" "/share/bankscope/schemas/"
echo "man page: $pass passed, $fail failed"
[ $fail -eq 0 ]
