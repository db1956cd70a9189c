/* cli_kernel: `bankscope kernel FILE [--ptx] [--access N] [--iteration K]`: the CUDA source
 * that `measure` runs for each access (or NVRTC's PTX for compute_90; no GPU needed). */
#include <stdio.h>

#include "cli/cli.h"
#include "io/load.h"
#include "io/textsafe.h"
#include "core/kernel_text.h"
#include "core/measure_plan.h"
#include "model/kernelgen.h"

int cli_kernel(int argc, char **argv)
{
    cli_common c;
    scenario s;
    int rc0 = cli_open(argc, argv, "kernel", "ptx access iteration arch", &c, &s);
    if (rc0)
        return rc0;
    int first = 0, end = 0;
    int rc = cli_access_range(&c, &s, "kernel", &first, &end);
    int all = end; /* bounded: the first sections, and a note saying how to reach the others */
    if (end - first > KERNEL_TEXT_MAX_SECTIONS)
        end = first + KERNEL_TEXT_MAX_SECTIONS;
    if (rc == CLI_OK && !c.ptx) { /* the text the TUI's kernel view shows too (kernel_text) */
        strbuf out = {0};
        char msg[700];
        bool ok = kernel_text(&s, c.file, first, end, c.iteration, &out, NULL, msg, sizeof msg);
        fputs(strbuf_str(&out), stdout); /* the accesses before a failing one, as they were */
        strbuf_free(&out);
        if (ok && all > end)
            printf("// ==== the first %d of %d %s shown (at most %d at once): --access N prints the kernel of %s N\n",
                   end - first, all, !scenario_has_layout(&s) ? "trace entries" : "accesses", KERNEL_TEXT_MAX_SECTIONS,
                   !scenario_has_layout(&s) ? "entry" : "access");
        if (!ok) {
            cli_error("%s: %s", c.file, msg);
            rc = CLI_USAGE;
        }
    }
    int64_t smem = c.ptx && rc == CLI_OK ? kernelgen_smem_bytes(&s) : 0; /* once for every entry */
    for (int a = first; c.ptx && a < end && rc == CLI_OK; a++) {
        measure_plan p;
        char msg[600];
        if (!measure_plan_make_sized(&s, a, c.iteration, smem, &p, msg, sizeof msg)) {
            cli_error("%s: access %d: %s", c.file, a, msg);
            rc = CLI_USAGE;
            break;
        }
        strbuf head = {0};
        kernel_text_header(&s, c.file, &p, &head);
        fputs(strbuf_str(&head), stdout);
        strbuf_free(&head);
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
        measure_plan_free(&p);
    }
    scenario_free(&s);
    return rc == CLI_OK ? cli_finish_stdout("kernel") : rc;
}
