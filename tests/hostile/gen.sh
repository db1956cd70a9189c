#!/bin/sh
# Big hostile inputs, generated at test time (never committed): gen.sh KIND N OUT
#   lines N    a recording of N one-instruction source lines (each entry its own line), the shape
#              of a recording whose every instruction sits on a line of its own
#   entries N  the same recording with its lines on one line of the file: N trace entries for the
#              kernel view and `bankscope kernel`
# The entries are stores of 32 consecutive words by warp 0 (conflict-free), so only the cost of
# reading and indexing them is exercised.
kind=$1 n=$2 out=$3
case $kind in lines | entries) ;; *) echo "usage: gen.sh lines|entries N OUT" >&2; exit 2 ;; esac
awk -v kind="$kind" -v n="$n" 'BEGIN {
    printf "{\n  \"format\": \"bankscope-record/1\",\n  \"name\": \"hostile\",\n  \"arch\": \"sm_90\",\n"
    printf "  \"kernel\": {\"name\": \"hostile(float*)\", \"mangled\": \"_Z7hostilePf\"},\n"
    printf "  \"launch\": 0,\n  \"grid\": [1, 1, 1],\n  \"block_dim\": [32, 1, 1],\n  \"block\": [0, 0, 0],\n"
    printf "  \"executed\": %d,\n  \"captured\": %d,\n  \"truncated\": false,\n  \"line_info\": true,\n", n, n
    printf "  \"lines\": [\n"
    nl = kind == "lines" ? n : 1
    for (i = 0; i < nl; i++) {
        printf "    {\"file\": \"hostile.cu\", \"line\": %d, \"text\": \"    s[t] = %d;\", ", i + 1, i
        printf "\"pcs\": [{\"pc\": %d, \"sass\": \"STS [R2], R3\", \"executions\": 1}], \"instructions\": [", 16 * i
        if (kind == "lines")
            printf "%d", i
        else
            for (k = 0; k < n; k++)
                printf "%s%d", k ? ", " : "", k
        printf "], \"not_modelled\": 0, \"predicted\": {\"wavefronts\": %d, \"ideal_wavefronts\": %d, \"conflict_degree\": 1}, \"measured\": null}%s\n", kind == "lines" ? 1 : n, kind == "lines" ? 1 : n, i + 1 < nl ? "," : ""
    }
    printf "  ],\n  \"not_visible\": [],\n  \"trace\": [\n"
    addr = ""
    for (l = 0; l < 32; l++)
        addr = addr (l ? ", " : "") 4 * l
    for (i = 0; i < n; i++) {
        ln = kind == "lines" ? i + 1 : 1
        printf "    {\"op\": \"store\", \"width\": 4, \"pc\": %d, \"sass\": \"STS [R2], R3\", \"warp\": 0, \"source\": \"hostile.cu:%d\", \"addresses\": [%s]}%s\n", kind == "lines" ? 16 * i : 0, ln, addr, i + 1 < n ? "," : ""
    }
    printf "  ]\n}\n"
}' > "$out"
