/* cli_whatif: the commands over recordings' what-ifs: `sweep REC.json` (cli_whatif.c) and
 * `diff A.json B.json` (cli_diff.c). */
#ifndef BANKSCOPE_CLI_WHATIF_H
#define BANKSCOPE_CLI_WHATIF_H

#include "cli/cli.h"
#include "model/scenario.h"
#include "model/whatif.h"

/* `sweep` on a loaded trace: a recording's what-if (rec: its recording, read with the trace;
 * NULL: not one), or the old message for a plain trace. */
struct recording_doc;
int cli_sweep_recording(const cli_common *c, scenario *s, const struct recording_doc *rec);
/* `bankscope diff A.json B.json [--json] [--arch NAME]` (cli_diff.c). */
int cli_diff(int argc, char **argv);

#endif
