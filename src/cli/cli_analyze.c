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
    int rc = CLI_OK;
    if (c.json) {
        const char *why;
        if (!report_json(stdout, &s, &o, &why))
            rc = cli_write_error("analyze", why);
    } else {
        report_text(stdout, &s, &o);
        rc = cli_finish_stdout("analyze");
    }
    scenario_free(&s);
    return rc;
}
