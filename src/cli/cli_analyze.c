/* cli_analyze: `bankscope analyze FILE [--json] [--warp N] [--all] [--summary] [--arch NAME]`. */
#include <stdio.h>

#include "cli/cli.h"
#include "io/load.h"
#include "io/report.h"

int cli_analyze(int argc, char **argv)
{
    cli_common c;
    scenario s;
    int rc0 = cli_open(argc, argv, "analyze", "json warp all arch summary", &c, &s);
    if (rc0)
        return rc0;
    if (c.warp >= scenario_warp_count(&s) && !s.is_trace) {
        scenario_free(&s);
        return cli_usage_error("analyze: --warp %d: the block has %d warp(s)", c.warp, scenario_warp_count(&s));
    }
    report_options o = {.all_lanes = c.all, .summary = c.summary, .warp = s.is_trace ? -1 : c.warp};
    if (c.json)
        report_json(stdout, &s, &o);
    else
        report_text(stdout, &s, &o);
    scenario_free(&s);
    return fflush(stdout) == 0 ? CLI_OK : CLI_FAIL;
}
