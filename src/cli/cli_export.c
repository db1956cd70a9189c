/* cli_export: `bankscope export FILE --svg OUT.svg [--access N] [--warp W] [--iteration K]`:
 * the bank grid and array map of one warp-instruction (default: the worst one) as SVG. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "core/analysis.h"
#include "io/load.h"
#include "io/save.h"
#include "io/work.h"

int cli_export(int argc, char **argv)
{
    cli_common c;
    scenario s;
    int rc0 = cli_open(argc, argv, "export", "svg access warp iteration arch force", &c, &s);
    if (rc0)
        return rc0;
    if (!c.svg) {
        scenario_free(&s);
        return cli_usage_error("export: give --svg OUT.svg");
    }
    int64_t k;
    if (!scenario_has_layout(&s)) {
        k = c.access >= 0 ? c.access : analysis_worst_instr(&s);
        if (k >= s.ntrace) {
            scenario_free(&s);
            return cli_usage_error("export: the trace has %d instruction(s)", s.ntrace);
        }
    } else if (c.access >= 0 || c.warp >= 0 || c.iteration > 0) {
        int a = c.access < 0 ? 0 : c.access, w = c.warp < 0 ? 0 : c.warp;
        if (a >= s.naccesses || w >= scenario_warp_count(&s) || c.iteration >= s.iterations) {
            scenario_free(&s);
            return cli_usage_error("export: %d access(es), %d warp(s), %d iteration(s)", s.naccesses,
                                   scenario_warp_count(&s), s.iterations);
        }
        free(s.warps);
        s.warps = NULL; /* address the instruction directly: iteration, access, warp */
        k = ((int64_t)c.iteration * s.naccesses + a) * scenario_warp_count(&s) + w;
    } else {
        /* finding the worst instruction analyses them all: bounded like analyze --summary */
        work_estimate e;
        work_estimate_analyze(&s, -1, WORK_OUT_SUMMARY, false, &e);
        char msg[400];
        if (!c.force &&
            !work_within_limits(&e, "export", "--access N, --warp W and --iteration K (the instruction to draw)", "",
                                msg, sizeof msg)) {
            scenario_free(&s);
            return cli_usage_error("%s", msg);
        }
        work_catch_signals();
        work_exit_on_signal(true); /* nothing is written before the search ends: a signal ends it at once */
        k = analysis_worst_instr(&s);
        work_exit_on_signal(false);
    }
    strbuf out = {0};
    analysis_svg(&s, k, &out);
    char msg[400];
    bool ok = save_atomic(c.svg, out.data, out.len, msg, sizeof msg);
    if (!ok)
        cli_error("export: %s", msg);
    strbuf_free(&out);
    scenario_free(&s);
    return ok ? CLI_OK : CLI_FAIL;
}
