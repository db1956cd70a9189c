#!/bin/sh
# The benchmarks' random trace: N warp-instructions of mixed widths (1-16 B), loads and stores,
# strided lanes with jitter, 5 % inactive lanes; seeded, so every run writes the same file.
# Usage: tests/bench/gen_trace.sh N > FILE
awk -v n="${1:-100000}" 'BEGIN {
    srand(7); printf "{\"name\": \"bench\", \"arch\": \"sm_90\", \"trace\": [\n";
    split("1 2 4 8 16", W, " ");
    for (i = 0; i < n; i++) {
        w = W[1 + int(rand() * 5)]; stride = int(rand() * 40);
        printf "%s{\"op\": \"%s\", \"width\": %d, \"addresses\": [", i ? ",\n" : "", rand() < 0.5 ? "load" : "store", w;
        for (l = 0; l < 32; l++) {
            if (rand() < 0.05) a = "null"; else a = ((l * stride + int(rand() * 4)) % 2048) * w;
            printf "%s%s", l ? ", " : "", a;
        }
        printf "]}";
    }
    printf "\n]}\n";
}'
