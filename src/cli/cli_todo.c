/* cli_todo: subcommands whose rooms exist but are not built yet. */
#include <stdio.h>

#include "cli/cli.h"

/* Say plainly that a command is not available in this build. */
static int not_yet(const char *cmd)
{
    fprintf(stderr, "bankscope: %s: not available in this version\n", cmd);
    return CLI_FAIL;
}

int cli_export(int argc, char **argv) { (void)argc; (void)argv; return not_yet("export"); }
