/* main: arguments and dispatch to a subcommand or the TUI. Kept thin on purpose: every command
 * lives in src/cli/, the model in src/model/, files and reports in src/io/. */
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/cli_whatif.h"
#include "core/image_cache.h"
#include "config.h"

static const char usage[] =
    "Usage:\n"
    "  bankscope [FILE.json]                 interactive bank grid (default: 32x32 transpose)\n"
    "            [--no-gpu] [--no-color] [--no-mouse] [--present] [--force] [--source FILE|DIR]\n"
    "            [--snapshot [--keys KEYS]] [--bench-redraw N] [--bench-startup]\n"
    "  bankscope analyze FILE.json [--json]  analysis of every warp-instruction\n"
    "            [--warp N] [--all] [--summary] [--arch NAME] [--force]\n"
    "  bankscope measure FILE.json [--json]  run on the GPU; exit 3 when there is none\n"
    "            [--access N] [--iteration K] [--arch NAME]\n"
    "  bankscope kernel FILE.json [--ptx]    the generated CUDA source (or NVRTC's PTX)\n"
    "            [--access N] [--iteration K] [--arch NAME]\n"
    "  bankscope sweep FILE.json [--json]    padding sweep and the cheapest conflict-free\n"
    "            layout (swizzle or padding) [--max-pad N] [--all] [--measure] [--arch NAME] [--force];\n"
    "            on a recording: layouts tried on its recorded addresses (what-if) [--source DIR]\n"
    "  bankscope diff A.json B.json [--json] [--arch NAME]  two recordings line by line\n"
    "  bankscope export FILE.json --svg OUT  bank grid and array map as SVG\n"
    "            [--access N] [--warp W] [--iteration K] [--arch NAME] [--force]\n"
    "  bankscope list [--json | --names | --archs]  the patterns and lessons (built-in,\n"
    "            installed and your own), the architecture names\n"
    "  bankscope import FILE.cu --block X[,Y[,Z]] [--kernel NAME] [-D NAME=VALUE]... [-I DIR]...\n"
    "            [--smem BYTES] [--loop LINE] [--timeout S] [-o OUT.json [--force]]\n"
    "            scenario from CUDA source\n"
    "  bankscope FILE.cu --block X[,Y[,Z]] [import options]  import, then the interactive view\n"
    "  bankscope record [--kernel REGEX] [--launch N] [--block-index X[,Y[,Z]]] [--max-instructions N]\n"
    "            [-o REC.json] -- PROGRAM [ARGS...]   the shared addresses of a running kernel\n"
    "  bankscope --help | --version\n"
    "\n"
    "FILE.json is a scenario, a trace, a lesson, or a library name such as transpose-naive.\n"
    "In the interactive view press ? for the keys.\n"
    "Architectures: sm_90 (default, checked against H100/H200 counters), sm_89, sm_86,\n"
    "sm_80, sm_75, sm_70, sm_60, sm_50, sm_35, sm_35_8byte (Kepler 8-byte banks),\n"
    "sm_13 (compute capability 1.x, 16 banks, half-warps).\n"
    "--force runs work above the limits (bankscope(1), LIMITS AND SIGNALS).\n"
    "Exit status: 0 ok, 1 failure, 2 bad input or usage, 3 no usable GPU,\n"
    "128 + N stopped by signal N (130 Ctrl-C).\n"
    "See bankscope(1) for the file formats.\n";

/* The index of the CUDA source among the view's arguments (options may come first, as they may
 * before a scenario: bankscope --no-gpu k.cu --block 32), or 0. Values of options are skipped. */
static int cuda_source_arg(int argc, char **argv)
{
    static const char *const with_value[] = {"--keys", "--bench-redraw", "--block", "--kernel",  "-D",
                                             "-I",     "--smem",         "--loop",  "--timeout", "-o"};
    for (int i = 1; i < argc; i++) {
        if (argv[i][0] != '-')
            return cli_is_cuda_source(argv[i]) ? i : 0;
        for (size_t k = 0; k < sizeof with_value / sizeof with_value[0]; k++)
            if (strcmp(argv[i], with_value[k]) == 0)
                i++;
    }
    return 0;
}

int main(int argc, char **argv)
{
    static const struct {
        const char *name;
        int (*fn)(int, char **);
    } commands[] = {
        {.name = "analyze", .fn = cli_analyze}, {.name = "list", .fn = cli_list},
        {.name = "kernel", .fn = cli_kernel},   {.name = "measure", .fn = cli_measure},
        {.name = "sweep", .fn = cli_sweep},     {.name = "export", .fn = cli_export},
        {.name = "import", .fn = cli_import},   {.name = "record", .fn = cli_record},
        {.name = "diff", .fn = cli_diff},
    };
    image_cache_install(); /* compiled kernels are kept on disk between runs */
    /* --help and --version anywhere before "--", after a command too (bankscope analyze --help);
     * record answers --help with its own usage */
    bool own_help = argc >= 2 && strcmp(argv[1], "record") == 0;
    for (int i = 1; i < argc && strcmp(argv[i], "--") != 0; i++) {
        if (!own_help && (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0)) {
            fputs(usage, stdout);
            return cli_finish_stdout("--help");
        }
        if (strcmp(argv[i], "--version") == 0) {
            printf("bankscope %s\n", PACKAGE_VERSION);
            return cli_finish_stdout("--version");
        }
    }
    if (argc >= 2)
        for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
            if (strcmp(argv[1], commands[i].name) == 0)
                return commands[i].fn(argc - 2, argv + 2);
    int cu = cuda_source_arg(argc, argv);
    if (cu > 0) { /* the source first, the options around it in their order */
        char *src = argv[cu];
        memmove(argv + 2, argv + 1, (size_t)(cu - 1) * sizeof *argv);
        argv[1] = src;
        return cli_import_tui(argc - 1, argv + 1);
    }
    static const char *const names[] = {"analyze", "measure", "kernel", "sweep", "export",
                                        "list",    "import",  "record", "diff"};
    if (argc >= 2 && cli_check_target(argv[1], names, (int)(sizeof names / sizeof names[0])) != CLI_OK)
        return CLI_USAGE;
    return cli_tui(argc - 1, argv + 1);
}
