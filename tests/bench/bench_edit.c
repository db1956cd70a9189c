/* bench_edit: what one edit key costs in the TUI, through the same calls the interactive loop
 * makes for a key (app_key, then app_react on its reaction flags: the edit on a private copy, its
 * validation, the modified mark, the view of the instruction on show, the background totals
 * started). Usage: bench_edit FILE KEYS [REPEATS]. For each key of KEYS (in order, REPEATS
 * times, 5 by default) it prints the wall time of the key alone (the background totals are
 * waited for after the clock stops, so each key starts from a quiet state; the time until they
 * are in is shown apart), the heap the key
 * leaves allocated (undo history included, mallinfo2) and how much the peak resident memory grew
 * during it. Also the time to open the file (the first screen's state). tests/bench/bench_edit.sh
 * runs it; prints numbers, asserts nothing. */
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "tui/app.h"

static long peak_kb(void)
{
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return ru.ru_maxrss;
}

static long long heap_bytes(void)
{
    struct mallinfo2 mi = mallinfo2();
    return (long long)(mi.uordblks + mi.hblkhd);
}

static int cmp_double(const void *x, const void *y)
{
    double a = *(const double *)x, b = *(const double *)y;
    return a < b ? -1 : a > b;
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: bench_edit FILE KEYS [REPEATS]\n");
        return 2;
    }
    int reps = argc > 3 ? atoi(argv[3]) : 5;
    if (reps < 1 || reps > 1000)
        reps = 5;
    tui_app *a = calloc(1, sizeof *a);
    a->stack[a->depth++] = &mode_main;
    char err[700];
    long long h0 = heap_bytes();
    double t0 = app_now_ms();
    if (!app_open(a, argv[1], err, sizeof err)) {
        fprintf(stderr, "bench_edit: %s\n", err);
        return 2;
    }
    app_refresh_view(a);
    double open_ms = app_now_ms() - t0;
    printf("open %s: %.1f ms, %.1f MB held, %lld warp-instructions\n", argv[1], open_ms, (heap_bytes() - h0) / 1e6,
           (long long)scenario_instr_count(&a->sc));
    jobs_start_totals(a);
    jobs_wait_all(a);
    printf("%-4s %10s %10s %12s %12s %10s  %s\n", "key", "median ms", "max ms", "+totals ms", "held KB/key", "peak +KB",
           "message");
    for (const char *k = argv[2]; *k; k++) {
        double *ms = calloc((size_t)reps, sizeof *ms), *total = calloc((size_t)reps, sizeof *total);
        long long held = 0;
        long grown = 0;
        for (int r = 0; r < reps; r++) {
            long long before = heap_bytes();
            long p0 = peak_kb();
            double s = app_now_ms();
            a->message[0] = '\0';
            int flags = app_key(a, (unsigned char)*k);
            if (!(flags & REACT_QUIT))
                app_react(a, flags);
            ms[r] = app_now_ms() - s;
            grown += peak_kb() - p0;
            jobs_wait_all(a);
            total[r] = app_now_ms() - s;
            held += heap_bytes() - before;
        }
        qsort(ms, (size_t)reps, sizeof *ms, cmp_double);
        qsort(total, (size_t)reps, sizeof *total, cmp_double);
        printf("%-4c %10.2f %10.2f %12.2f %12lld %10ld  %s%s\n", *k, ms[reps / 2], ms[reps - 1], total[reps / 2],
               held / reps / 1024, grown / reps, a->message, a->modified ? " [modified]" : "");
        free(ms);
        free(total);
    }
    app_free(a);
    free(a);
    return 0;
}
