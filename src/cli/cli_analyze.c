/* cli_analyze: `bankscope analyze FILE [--json] [--warp N] [--all] [--summary] [--arch NAME]`.
 * The instructions come from an instr_source: a trace file streams (read as it is analysed, in
 * bounded memory); for any output but the text summary a first pass checks the whole trace so
 * that a bad file prints nothing. */
#include <stdio.h>
#include <stdlib.h>

#include "cli/cli.h"
#include "io/instr_source.h"
#include "io/load.h"
#include "io/report.h"

int cli_analyze(int argc, char **argv)
{
    cli_common c;
    if (cli_parse(argc, argv, "analyze", "json warp all arch summary", &c))
        return CLI_USAGE;
    bool summary = c.summary && !c.json;
    instr_source src;
    io_error err;
    if (!instr_source_open(&src, c.file, c.arch, !summary, &err)) {
        fprintf(stderr, "bankscope: %s\n", err.text);
        return CLI_USAGE;
    }
    const scenario *s = src.s;
    if (c.warp >= scenario_warp_count(s) && !s->is_trace) {
        int nw = scenario_warp_count(s);
        instr_source_close(&src);
        return cli_usage_error("analyze: --warp %d: the block has %d warp(s)", c.warp, nw);
    }
    instr_source_set_warp(&src, s->is_trace ? -1 : c.warp);
    report_options o = {.all_lanes = c.all, .summary = c.summary, .warp = s->is_trace ? -1 : c.warp, .source = &src};
    /* a streamed summary is printed only once the whole file has been read and found good */
    char *buf = NULL;
    size_t buflen = 0;
    FILE *out = summary && instr_source_streams(&src) ? open_memstream(&buf, &buflen) : stdout;
    if (!out)
        out = stdout;
    if (c.json)
        report_json(out, s, &o);
    else
        report_text(out, s, &o);
    if (out != stdout)
        fclose(out);
    bool failed = src.failed;
    if (failed)
        fprintf(stderr, "bankscope: %s\n", src.err.text);
    else if (buf)
        fwrite(buf, 1, buflen, stdout);
    free(buf);
    instr_source_close(&src);
    if (failed)
        return CLI_USAGE;
    return fflush(stdout) == 0 ? CLI_OK : CLI_FAIL;
}
