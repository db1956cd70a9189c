/* cli_tui: `bankscope [FILE.json] [options]`: the interactive view's command line. It only parses
 * the options; the view itself is src/tui (which knows nothing of the command line). */
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "tui/tui.h"

int cli_tui(int argc, char **argv)
{
    tui_options o = {.color = true, .mouse = true, .gpu = true};
    for (int i = 0; i < argc; i++) {
        if (strcmp(argv[i], "--no-color") == 0)
            o.color = false;
        else if (strcmp(argv[i], "--no-mouse") == 0)
            o.mouse = false;
        else if (strcmp(argv[i], "--no-gpu") == 0)
            o.gpu = false;
        else if (strcmp(argv[i], "--present") == 0)
            o.present = true;
        else if (strcmp(argv[i], "--bench-redraw") == 0 && i + 1 < argc)
            o.bench_redraw = atoi(argv[++i]);
        else if (strcmp(argv[i], "--bench-startup") == 0)
            o.bench_startup = true;
        else if (strcmp(argv[i], "--snapshot") == 0)
            o.snapshot = true;
        else if (strcmp(argv[i], "--keys") == 0 && i + 1 < argc)
            o.keys = argv[++i];
        else if (argv[i][0] == '-')
            return cli_usage_error("unknown option '%s' (see bankscope --help)", argv[i]);
        else if (o.file)
            return cli_usage_error("one file only (got '%s' and '%s')", o.file, argv[i]);
        else
            o.file = argv[i];
    }
    return tui_main(&o);
}
