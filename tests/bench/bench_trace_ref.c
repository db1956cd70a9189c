/* bench_trace_ref: the one-pass reference for `analyze --summary` of a trace: maps a trace file
 * written by tests/bench/bench_trace.sh (that exact layout, no JSON checks), parses each
 * instruction's op, width and 32 addresses, calls banks_analyze and sums the totals. What
 * bankscope's streaming reader is compared with; prints the totals (they must equal
 * `analyze --summary`'s) and asserts nothing. Usage: bench_trace_ref FILE [ARCH] */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "model/banks.h"

int main(int argc, char **argv)
{
    if (argc < 2)
        return 2;
    int fd = open(argv[1], O_RDONLY);
    struct stat st;
    if (fd < 0 || fstat(fd, &st) != 0 || st.st_size == 0)
        return 1;
    const size_t len = (size_t)st.st_size;
    const char *buf = mmap(NULL, len, PROT_READ, MAP_PRIVATE, fd, 0);
    if (buf == MAP_FAILED)
        return 1;
    madvise((void *)buf, len, MADV_SEQUENTIAL);
    const banks_profile *arch = banks_profile_find(argc > 2 ? argv[2] : "sm_90");
    size_t pos = 0;
    long long n = 0, wavefronts = 0, ideal = 0, conflicts = 0;
    int worst = 0, lane = -1;
    banks_request req = {0};
    banks_result r;
    /* a byte-at-a-time scanner: the keys' first letters ('o'p, 'w'idth, 'a'ddresses) say what
     * the next value is */
    enum { NONE, WIDTH, ADDR } what = NONE;
    long long num = 0;
    int in_num = 0, quote = 0, first = 0;
    char key = 0;
    while (pos < len) {
        char c = buf[pos++];
        if (quote) { /* the first letter of a string names the key, or is the op */
            if (first) {
                first = 0;
                if (key == 'O') {
                    req.op = c == 's' ? BANKS_STORE : BANKS_LOAD;
                    key = 0;
                } else {
                    key = c;
                }
            }
            quote = c != '"';
            continue;
        }
        if (c >= '0' && c <= '9') {
            num = in_num ? num * 10 + (c - '0') : c - '0';
            in_num = 1;
            continue;
        }
        if (in_num) {
            in_num = 0;
            if (what == WIDTH) {
                req.width = (int)num;
                what = NONE;
            } else if (what == ADDR && lane < 32) {
                req.addr[lane] = num;
                req.active |= 1u << lane;
            }
        }
        if (c == '"') {
            quote = first = 1;
        } else if (c == ':' && key == 'w') {
            what = WIDTH;
        } else if (c == ':' && key == 'o') {
            key = 'O';
        } else if (c == '[' && key == 'a') {
            what = ADDR;
            lane = 0;
            req.active = 0;
        } else if (c == ',' && what == ADDR) {
            lane++;
        } else if (c == ']' && what == ADDR) {
            what = NONE;
            banks_analyze(arch, &req, &r, NULL);
            n++;
            wavefronts += r.wavefronts;
            ideal += r.ideal_wavefronts;
            conflicts += r.bank_conflicts;
            if (r.conflict_degree > worst)
                worst = r.conflict_degree;
        }
    }
    munmap((void *)buf, len);
    close(fd);
    printf("total: %lld warp-instructions, %lld wavefronts (ideal %lld), %lld bank conflicts, worst %d-way\n", n,
           wavefronts, ideal, conflicts, worst);
    return 0;
}
