#!/bin/sh
# Big hostile inputs, generated at test time (never committed): gen.sh KIND N OUT
#   lines N    a recording of N one-instruction source lines (each entry its own line), the shape
#              of a recording whose every instruction sits on a line of its own
#   files N    the same with each line in a file of its own: every line but one is an extra row
#              of the source view
#   entries N  the same recording with its lines on one line of the file: N trace entries for the
#              kernel view and `bankscope kernel`
# The entries are stores of 32 consecutive words by warp 0 (conflict-free), so only the cost of
# reading and indexing them is exercised.
kind=$1 n=$2 out=$3
case $kind in lines | files | entries) ;; *) echo "usage: gen.sh lines|files|entries N OUT" >&2; exit 2 ;; esac
awk -v kind="$kind" -v n="$n" 'BEGIN {
    printf "{\n  \"format\": \"bankscope-record/1\",\n  \"name\": \"hostile\",\n  \"arch\": \"sm_90\",\n"
    printf "  \"kernel\": {\"name\": \"hostile(float*)\", \"mangled\": \"_Z7hostilePf\"},\n"
    printf "  \"launch\": 0,\n  \"grid\": [1, 1, 1],\n  \"block_dim\": [32, 1, 1],\n  \"block\": [0, 0, 0],\n"
    printf "  \"executed\": %d,\n  \"captured\": %d,\n  \"truncated\": false,\n  \"line_info\": true,\n", n, n
    printf "  \"lines\": [\n"
    one = kind == "entries"
    nl = one ? 1 : n
    for (i = 0; i < nl; i++) {
        printf "    {\"file\": \"%s.cu\", \"line\": %d, \"text\": \"    s[t] = %d;\", ", kind == "files" ? "f" i : "hostile", i + 1, i
        printf "\"pcs\": [{\"pc\": %d, \"sass\": \"STS [R2], R3\", \"executions\": 1}], \"instructions\": [", 16 * i
        if (!one)
            printf "%d", i
        else
            for (k = 0; k < n; k++)
                printf "%s%d", k ? ", " : "", k
        printf "], \"not_modelled\": 0, \"predicted\": {\"wavefronts\": %d, \"ideal_wavefronts\": %d, \"conflict_degree\": 1}, \"measured\": null}%s\n", !one ? 1 : n, !one ? 1 : n, i + 1 < nl ? "," : ""
    }
    printf "  ],\n  \"not_visible\": [],\n  \"trace\": [\n"
    addr = ""
    for (l = 0; l < 32; l++)
        addr = addr (l ? ", " : "") 4 * l
    for (i = 0; i < n; i++) {
        ln = !one ? i + 1 : 1
        printf "    {\"op\": \"store\", \"width\": 4, \"pc\": %d, \"sass\": \"STS [R2], R3\", \"warp\": 0, \"source\": \"%s.cu:%d\", \"addresses\": [%s]}%s\n", !one ? 16 * i : 0, kind == "files" ? "f" i : "hostile", ln, addr, i + 1 < n ? "," : ""
    }
    printf "  ]\n}\n"
}' > "$out"
