/* bench_scenario_ref: the floor of `analyze --summary` of tests/bench/scenario-393k.json: the same
 * warp-instructions built from the scenario's address expressions compiled as C (written out
 * below for that file and no other), each analysed with banks_analyze, the totals summed. What
 * bankscope's scenario path is compared with (tests/bench/bench_scenario.sh); the file is loaded
 * only for where its arrays are placed. Prints the totals (they must equal `analyze --summary`'s)
 * and asserts nothing. Usage: bench_scenario_ref FILE */
#include <stdio.h>
#include <string.h>

#include "io/load.h"
#include "model/banks.h"

int main(int argc, char **argv)
{
    if (argc < 2)
        return 2;
    scenario s;
    io_error err;
    if (!load_scenario_file(argv[1], NULL, &s, &err)) {
        fprintf(stderr, "%s\n", err.text);
        return 1;
    }
    const scenario_array *tile = &s.arrays[0], *buf = &s.arrays[1];
    const int64_t tw = tile->extent[1];
    long long n = 0, wavefronts = 0, ideal = 0, conflicts = 0, oob = 0;
    int worst = 0;
    banks_request req = {.matrices = 0};
    banks_result r;
    for (int i = 0; i < 4096; i++)
        for (int a = 0; a < 3; a++)
            for (int w = 0; w < 32; w++) {
                req.active = 0;
                for (int l = 0; l < 32; l++) {
                    const int tid = 32 * w + l, tx = tid % 32, ty = tid / 32;
                    int64_t at;
                    req.addr[l] = 0;
                    if (a == 0) { /* tile[threadIdx.y][threadIdx.x + (i % 32)] */
                        at = tile->start + (ty * tw + tx + i % 32) * 4;
                    } else if (a == 1) { /* tile[threadIdx.x * 2 + threadIdx.y % 2][(threadIdx.y + i) % 64] */
                        at = tile->start + ((tx * 2 + ty % 2) * tw + (ty + i) % 64) * 4;
                    } else { /* buf[2 * lane + 64 * warp + (i % 8)] when tid < 1024 - i % 4 */
                        if (!(tid < 1024 - i % 4))
                            continue;
                        int64_t e = 2 * l + 64 * w + i % 8;
                        if (e >= 2048) {
                            oob++;
                            continue;
                        }
                        at = buf->start + e * 8;
                    }
                    req.addr[l] = at;
                    req.active |= 1u << l;
                }
                req.op = a == 1 ? BANKS_STORE : BANKS_LOAD;
                req.width = a == 2 ? 8 : 4;
                banks_analyze(s.arch, &req, &r, NULL);
                n++;
                wavefronts += r.wavefronts;
                ideal += r.ideal_wavefronts;
                conflicts += r.bank_conflicts;
                worst = r.conflict_degree > worst ? r.conflict_degree : worst;
            }
    printf("total: %lld warp-instructions, %lld wavefronts (ideal %lld), %lld bank conflicts, worst %d-way, %lld "
           "lanes out of bounds\n",
           n, wavefronts, ideal, conflicts, worst, oob);
    scenario_free(&s);
    return 0;
}
