/* cli_whatif: `bankscope sweep REC.json [--json]` on a recording: per shared variable with
 * conflicts, the layouts the what-if model (model/whatif.h) finds on the recorded addresses,
 * ranked, each with its declaration and its effect per source line (printed by io/whatif_report). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/cli_whatif.h"
#include "core/line_sums.h"
#include "io/recording.h"
#include "io/recording_arrays.h"
#include "io/whatif_report.h"
#include "io/textsafe.h"

/* Search every region with conflicts (at most max), most conflicts first; how many. */
static int cli_whatif_search_all(const whatif_input *in, whatif_result *res, int *searched, int max)
{
    int n = whatif_conflicted_regions(in, searched, max);
    for (int k = 0; k < n; k++)
        whatif_search(in, searched[k], &res[k]);
    return n;
}

int cli_sweep_recording(const cli_common *c, scenario *s, const recording_doc *doc)
{
    int rc = doc ? doc->rc : 0;
    if (rc < 0) {
        fputs("bankscope: ", stderr);
        textsafe_fputs(doc->err.text, stderr);
        fputc('\n', stderr);
        return CLI_USAGE;
    }
    if (rc == 0)
        return cli_usage_error("sweep: %s is a trace: there is no array to pad", c->file);
    const recording *rec = &doc->r;
    static recording_regions g;
    recording_regions_build(rec, c->file, c->source, s, &g);
    whatif_input in = recording_whatif_input(s, rec, &g);
    static whatif_result res[4];
    int searched[4];
    int n = cli_whatif_search_all(&in, res, searched, 4);
    whatif_report rep = {
        .s = s, .in = &in, .g = &g, .rec = rec, .file = c->file, .res = res, .searched = searched, .nsearched = n};
    if (c->json) {
        const char *why;
        return whatif_report_json(&rep, stdout, &why) ? CLI_OK : cli_write_error("sweep", why);
    }
    if (n == 0) { /* the recording's total, which the text states */
        line_sums t = {.arch = s->arch};
        line_sums_scenario(&t, s, NULL, 0);
        rep.wavefronts = t.total.wavefronts;
    }
    whatif_report_text(&rep, stdout);
    return cli_finish_stdout("sweep");
}
