/* cli_getopt: a command's arguments read with getopt_long, as GNU tools read theirs (see cli.h):
 * on a copy of argv, so that the permutation never touches the caller's words. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "util.h"

void cli_args_init(cli_args *a, const char *cmd, int argc, char **argv, bool split_rest)
{
    memset(a, 0, sizeof *a);
    a->cmd = cmd;
    int n = argc;
    if (split_rest)
        for (int i = 0; i < argc; i++)
            if (strcmp(argv[i], "--") == 0) {
                n = i;
                a->rest = argv + i + 1;
                a->rest_argc = argc - i - 1;
                a->has_rest = true;
                break;
            }
    a->argv = xcalloc((size_t)n + 2, sizeof *a->argv);
    a->argv[0] = (char *)(cmd && *cmd ? cmd : "bankscope");
    memcpy(a->argv + 1, argv, (size_t)n * sizeof *argv);
    a->argc = n + 1;
    optind = 0; /* GNU: start over (a process may parse more than once: `bankscope FILE.cu`) */
    opterr = 0; /* the messages are ours, in the program's form */
}

/* "CMD: " or nothing (the interactive view's options have no command word). */
static const char *prefix(const cli_args *a, char *buf, size_t n)
{
    snprintf(buf, n, "%s%s", a->cmd && *a->cmd ? a->cmd : "", a->cmd && *a->cmd ? ": " : "");
    return buf;
}

int cli_args_next(cli_args *a, const char *shortopts, const struct option *longopts, const char **arg)
{
    char opts[64], pre[64];
    snprintf(opts, sizeof opts, ":%s", shortopts ? shortopts : ""); /* ':' reports a missing value */
    int c = getopt_long(a->argc, a->argv, opts, longopts, NULL);
    *arg = optarg;
    if (c == -1) {
        a->operands = a->argv + optind;
        a->noperands = a->argc - optind;
        return -1;
    }
    if (c != '?' && c != ':')
        return c;
    const char *word = optind > 0 && optind <= a->argc ? a->argv[optind - 1] : "";
    bool is_long = strncmp(word, "--", 2) == 0;
    prefix(a, pre, sizeof pre);
    if (c == ':' && is_long) {
        const char *name = word + 2;
        size_t n = strcspn(name, "=");
        for (const struct option *o = longopts; o && o->name; o++)
            if (strncmp(o->name, name, n) == 0) { /* the option a prefix stood for */
                name = o->name;
                break;
            }
        cli_usage_error("%s--%s needs a value", pre, name);
    } else if (c == ':') {
        cli_usage_error("%s-%c needs a value", pre, optopt);
    } else if (is_long && optopt && strchr(word, '=')) {
        cli_usage_error("%s%.*s takes no value", pre, (int)strcspn(word, "="), word);
    } else if (is_long) {
        cli_usage_error("%sunknown option '%s' (see bankscope --help)", pre, word);
    } else {
        cli_usage_error("%sunknown option '-%c' (see bankscope --help)", pre, optopt);
    }
    return CLI_ARGS_ERROR;
}

void cli_args_free(cli_args *a)
{
    free(a->argv);
    memset(a, 0, sizeof *a);
}
