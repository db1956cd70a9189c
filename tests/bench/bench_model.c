/* bench_model: warp-instructions analysed per second by the model alone (no file parsing, no
 * output): random traces of all widths through the bank engine as it runs on this CPU (its
 * AVX-512 kernel where the CPU has AVX-512 F, CD, VPOPCNTDQ and VBMI with GFNI), through its
 * portable kernel built for AVX2 (what x86-64 CPUs without those run), its portable path (every other CPU) and
 * through the original engine
 * (tests/unit/banks_reference.c) side by side, and a 1024-thread block with a 32-step loop. Times
 * are the process's CPU time (one core), so a busy machine slows the figures less; pin it
 * (`taskset -c 1`) and run it several times. Build with `make tests/bench/bench_model`; prints
 * numbers, asserts nothing. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../unit/banks_reference.h"
#include "io/load.h"
#include "model/banks.h"
#include "model/banks_fast.h"

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

typedef void (*engine_fn)(const banks_profile *, const banks_request *, banks_result *, banks_cell *);

/* Best of 3 passes of reps x n requests; returns millions per second, adds to *sum. */
static double engine_rate(engine_fn fn, const banks_profile *p, const banks_request *reqs, int n, int reps, long *sum)
{
    double best = 0;
    banks_result res;
    for (int pass = 0; pass < 3; pass++) {
        double t0 = now();
        for (int rep = 0; rep < reps; rep++)
            for (int i = 0; i < n; i++) {
                fn(p, &reqs[i], &res, NULL);
                *sum += res.wavefronts;
            }
        double rate = (double)reps * n / (now() - t0) / 1e6;
        best = rate > best ? rate : best;
    }
    return best;
}

int main(void)
{
    enum { N = 100000 };
    banks_request *reqs = malloc(sizeof *reqs * N);
    static const int widths[] = {1, 2, 4, 8, 16};
    srand(7);
    for (int i = 0; i < N; i++) {
        banks_request *r = &reqs[i];
        r->op = rand() % 2 ? BANKS_LOAD : BANKS_STORE;
        r->width = widths[rand() % 5];
        r->active = 0;
        int stride = rand() % 40;
        for (int l = 0; l < 32; l++) {
            if (rand() % 20)
                r->active |= 1u << l;
            r->addr[l] = (int64_t)((l * stride + rand() % 4) % 2048) * r->width;
        }
    }
    const banks_profile *p = banks_profile_default();
    banks_result res;
    long sum = 0, port_sum = 0, ref_sum = 0;
    double fast = engine_rate(banks_analyze, p, reqs, N, 5, &sum);
    double port = engine_rate(banks_analyze_portable, p, reqs, N, 5, &port_sum);
    long avx2_sum = 0;
    double avx2 = engine_rate(banks_analyze_avx2, p, reqs, N, 5, &avx2_sum);
    double ref = engine_rate(banks_reference_analyze, p, reqs, N, 5, &ref_sum);
    printf("bank engine: %d random warp-instructions (widths 1-16, sm_90): %.2f million per second "
           "(AVX-512 kernel: %s), portable kernel built for AVX2 %.2f million per second (%s), portable path %.2f million per second "
           "(original engine: %.2f million per second, %.1fx, %.1fx and %.1fx; checksums %ld %ld %ld %ld)\n",
           5 * N, fast,
           banks_fast_simd_usable()   ? "yes"
           : banks_fast_avx2_usable() ? "no, the portable kernel built for AVX2"
                                      : "no, the portable path",
           avx2, banks_fast_avx2_usable() ? "this CPU has AVX2" : "no AVX2 here: the portable path", port, ref,
           fast / ref, avx2 / ref, port / ref, sum, avx2_sum, port_sum, ref_sum);
    /* the same engine on requests that stay in the cache, as when a caller builds each request
     * just before analysing it (the 28 MB above are read from memory) */
    long hot_sum = 0;
    double hot = engine_rate(banks_analyze, p, reqs, 1000, 500, &hot_sum);
    double hot_avx2 = engine_rate(banks_analyze_avx2, p, reqs, 1000, 500, &hot_sum);
    double hot_port = engine_rate(banks_analyze_portable, p, reqs, 1000, 500, &hot_sum);
    printf("bank engine on the first 1000 of them repeated (in the cache): %.2f million per second, "
           "portable kernel built for AVX2 %.2f million per second, portable path %.2f million per second\n",
           hot, hot_avx2, hot_port);

    const char *json =
        "{\"block\": [32, 32], \"loop\": {\"var\": \"i\", \"from\": 0, \"to\": 32},"
        "\"arrays\": [{\"name\": \"tile\", \"type\": \"float\", \"dims\": [64, 64], \"pad\": 1}],"
        "\"accesses\": [{\"op\": \"load\", \"array\": \"tile\", \"index\": [\"(threadIdx.x + i) % 64\", \"threadIdx.y "
        "* 2\"]},"
        "{\"op\": \"store\", \"array\": \"tile\", \"index\": [\"threadIdx.y + i\", \"threadIdx.x ^ i\"]}]}";
    scenario s;
    io_error err;
    if (!load_scenario_text(json, strlen(json), "bench", NULL, &s, &err)) {
        fprintf(stderr, "%s\n", err.text);
        return 1;
    }
    scenario_instr in;
    int64_t n = scenario_instr_count(&s);
    double t0 = now();
    for (int rep = 0; rep < 20; rep++)
        for (int64_t k = 0; k < n; k++) {
            scenario_instr_at(&s, k, &in);
            banks_analyze(s.arch, &in.req, &res, NULL);
            sum += res.wavefronts;
        }
    double t = now() - t0;
    printf("scenario (1024 threads, 32 iterations, 2 accesses = %lld warp-instructions): %.2f ms each, "
           "%.2f million warp-instructions per second including address evaluation\n",
           (long long)n, t / 20 * 1e3, 20 * n / t / 1e6);
    scenario_free(&s);
    free(reqs);
    return 0;
}
