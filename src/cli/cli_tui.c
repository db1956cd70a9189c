/* cli_tui: `bankscope [FILE.json] [options]`: the interactive view's command line. It only parses
 * the options; the view itself is src/tui (which knows nothing of the command line). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli/cli.h"
#include "io/textsafe.h"
#include "tui/tui.h"

int cli_tui(int argc, char **argv)
{
    return cli_tui_named(argc, argv, NULL, 0, NULL);
}

int cli_tui_named(int argc, char **argv, const source_skip *skips, int nskips, const char *display)
{
    tui_options o = {.color = true, .mouse = true, .gpu = true, .skips = skips, .nskips = nskips, .display = display};
    static const struct option opts[] = {{"no-color", no_argument, NULL, 'c'},
                                         {"no-mouse", no_argument, NULL, 'm'},
                                         {"no-gpu", no_argument, NULL, 'g'},
                                         {"present", no_argument, NULL, 'p'},
                                         {"force", no_argument, NULL, 'f'},
                                         {"bench-redraw", required_argument, NULL, 'r'},
                                         {"bench-startup", no_argument, NULL, 'b'},
                                         {"snapshot", no_argument, NULL, 's'},
                                         {"keys", required_argument, NULL, 'k'},
                                         {"source", required_argument, NULL, 'S'},
                                         {0}};
    cli_args a;
    cli_args_init(&a, "", argc, argv, false);
    int c, rc = 0;
    const char *v;
    while (rc == 0 && (c = cli_args_next(&a, "", opts, &v)) != -1) {
        switch (c) {
        case 'c': o.color = false; break;
        case 'm': o.mouse = false; break;
        case 'g': o.gpu = false; break;
        case 'p': o.present = true; break;
        case 'f': o.force = true; break;
        case 'r': o.bench_redraw = atoi(v); break;
        case 'b': o.bench_startup = true; break;
        case 's': o.snapshot = true; break;
        case 'k': o.keys = v; break;
        case 'S': {
            struct stat st; /* --source FILE names the file; --source DIR a folder of sources */
            char t[256];
            if (stat(v, &st) != 0)
                rc = cli_usage_error("--source %s: %s", textsafe(v, t, sizeof t), strerror(errno));
            else if (S_ISDIR(st.st_mode))
                o.source_dir = v;
            else
                o.source_file = v;
            break;
        }
        default: rc = CLI_USAGE; break;
        }
    }
    if (rc == 0 && a.noperands > 2)
        rc = cli_usage_error("two files at most (A.json B.json compares them), got %d", a.noperands);
    if (rc == 0 && a.noperands >= 1)
        o.file = a.operands[0];
    if (rc == 0 && a.noperands == 2)
        o.compare = a.operands[1];
    cli_args_free(&a);
    if (rc)
        return rc;
    return tui_main(&o);
}
