#!/bin/sh
# Shell completion: the bash completion, sourced into a bash without bash-completion, completes
# commands, a command's options, architectures (from `bankscope list --archs`) and pattern names
# (from `bankscope list --names`); the zsh one is checked for syntax when zsh is installed.
srcdir=${srcdir:-.}
top_builddir=${top_builddir:-.}
bin="$(cd "$top_builddir" && pwd)/bankscope"
command -v bash >/dev/null 2>&1 || { echo "no bash: skipped"; exit 77; }
comp="$srcdir/completions/bankscope.bash"
pass=0
fail=0
expect() {  # expect "WORDS TO COMPLETE" WANTED...: every WANTED is among the completions
    line=$1; shift
    got=$(cd "$srcdir" && bash -c '. "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _bankscope; printf "%s\n" "${COMPREPLY[@]}"' \
        sh "$comp" "$bin" $line "$CUR")
    for w in "$@"; do
        if printf '%s\n' "$got" | grep -qx -- "$w"; then pass=$((pass + 1)); else
            echo "FAIL: '$line $CUR' does not offer '$w' (got: $(printf '%s ' $got | cut -c1-200))"; fail=$((fail + 1)); fi
    done
}
CUR=an expect "" analyze
CUR=transpose expect "" transpose-naive transpose-padded
CUR=--j expect "analyze default" --json
CUR=--s expect "analyze default" --summary
CUR= expect "analyze default --arch" sm_90 sm_13 sm_35_8byte
CUR=--max expect "sweep default" --max-pad
CUR=--al expect "sweep default" --all
CUR=--sv expect "export default" --svg
CUR=--na expect "list" --names
CUR=--fo expect "import k.cu" --force
CUR=--block expect "record" --block-index
CUR=--max expect "record --kernel k" --max-instructions
CUR=re expect "" record
CUR=float4 expect "analyze" float4-32x32 float4-32x36
CUR=--no-c expect "" --no-color
CUR=--arch=sm_8 expect "analyze default" --arch=sm_80 --arch=sm_86
CUR=sm_8 expect "analyze default --arch =" sm_80
# every option --help shows for a command is offered after that command
"$bin" --help | awk '/^  bankscope [a-z]+ / { cmd = $2 } /^  bankscope \[FILE.json\]/ { cmd = "-" }
    /^  bankscope (--|FILE)/ { cmd = "" }
    cmd != "" { while (match($0, /--[a-z][a-z-]*/)) { print cmd, substr($0, RSTART, RLENGTH); $0 = substr($0, RSTART + RLENGTH) } }' |
    sort -u > "${TMPDIR:-/tmp}/bankscope-comp.$$"
while read -r cmd opt; do
    if [ "$cmd" = - ]; then CUR=$opt expect "" "$opt"; else CUR=$opt expect "$cmd x" "$opt"; fi
done < "${TMPDIR:-/tmp}/bankscope-comp.$$"
rm -f "${TMPDIR:-/tmp}/bankscope-comp.$$"
CUR=--bl expect "import x.cu" --block
if command -v zsh >/dev/null 2>&1; then
    if zsh -n "$srcdir/completions/_bankscope"; then pass=$((pass + 1)); else fail=$((fail + 1)); fi
fi
echo "completion: $pass passed, $fail failed"
[ $fail -eq 0 ]
