/* cli_measure: `bankscope measure FILE [--json]`: prediction and GPU measurement side by side. */
#include <stdio.h>

#include "cli/cli.h"
#include "gpu/gpu.h"
#include "io/load.h"

int cli_measure(int argc, char **argv)
{
    cli_common c;
    if (cli_parse(argc, argv, "measure", "json arch", &c))
        return CLI_USAGE;
    scenario s;
    io_error err;
    if (!load_scenario_file(c.file, c.arch, &s, &err)) {
        fprintf(stderr, "bankscope: %s\n", err.text);
        return CLI_USAGE;
    }
    gpu_device dev;
    char why[256];
    bool ok = gpu_open(&dev, why, sizeof why);
    scenario_free(&s);
    if (!ok) {
        fprintf(stderr, "bankscope: measure: no usable GPU: %s\n", why);
        return CLI_NO_GPU;
    }
    fprintf(stderr, "bankscope: measure: not implemented yet on %s\n", dev.name);
    return CLI_FAIL;
}
