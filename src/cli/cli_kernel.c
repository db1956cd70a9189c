/* cli_kernel: `bankscope kernel FILE [--ptx] [--access N] [--iteration K]`: the CUDA source
 * that `measure` runs for each access (or NVRTC's PTX for compute_90; no GPU needed). */
#include <stdio.h>

#include "cli/cli.h"
#include "io/load.h"
#include "io/textsafe.h"
#include "io/measure_plan.h"

int cli_kernel(int argc, char **argv)
{
    cli_common c;
    scenario s;
    int rc0 = cli_open(argc, argv, "kernel", "ptx access iteration arch", &c, &s);
    if (rc0)
        return rc0;
    int first = 0, end = 0;
    int rc = cli_access_range(&c, &s, "kernel", &first, &end);
    for (int a = first; a < end && rc == CLI_OK; a++) {
        measure_plan p;
        char msg[600];
        if (!measure_plan_make(&s, a, c.iteration, &p, msg, sizeof msg)) {
            cli_error("%s: access %d: %s", c.file, a, msg);
            rc = CLI_USAGE;
            break;
        }
        char f[600];
        printf("// ==== %s, %s %d, %zu bytes of shared memory, block %dx%dx%d%s\n", textsafe(c.file, f, sizeof f),
               s.is_trace ? "trace entry" : "access", a, p.rq.smem_bytes, p.rq.block[0], p.rq.block[1], p.rq.block[2],
               s.loop.var ? ", loop value passed as bs_loop" : "");
        if (c.ptx) {
            strbuf ptx = {0};
            if (!gpu_compile_ptx(p.rq.source, &ptx, msg, sizeof msg)) {
                fputs("bankscope: kernel --ptx: ", stderr); /* a compiler log: its lines kept */
                textsafe_fputs_lines(msg, stderr);
                fputc('\n', stderr);
                rc = CLI_FAIL;
            } else {
                fputs(strbuf_str(&ptx), stdout);
            }
            strbuf_free(&ptx);
        } else {
            fputs(p.rq.source, stdout);
        }
        measure_plan_free(&p);
    }
    scenario_free(&s);
    return rc == CLI_OK ? cli_finish_stdout("kernel") : rc;
}
