/* cli_common: option parsing shared by the scenario subcommands. */
#include "cli/cli.h"
#include "io/load.h"
#include "io/textsafe.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Print "bankscope: " and the formatted message, made safe for a terminal, and a newline. */
static void error_v(const char *fmt, va_list ap)
{
    strbuf sb = {0};
    strbuf_vaddf(&sb, fmt, ap); /* arguments may quote the command line or a file: made safe */
    fputs("bankscope: ", stderr);
    textsafe_fputs(strbuf_str(&sb), stderr);
    fputc('\n', stderr);
    strbuf_free(&sb);
}

void cli_error(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    error_v(fmt, ap);
    va_end(ap);
}

int cli_usage_error(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    error_v(fmt, ap);
    va_end(ap);
    return CLI_USAGE;
}

int cli_write_error(const char *cmd, const char *why)
{
    cli_error("%s: cannot write the output: %s", cmd, why);
    return CLI_FAIL;
}

int cli_finish_stdout(const char *cmd)
{
    errno = 0;
    if (fflush(stdout) != 0 || ferror(stdout))
        return cli_write_error(cmd, errno ? strerror(errno) : "a write failed (disk full or output closed)");
    return CLI_OK;
}

/* True when word is one of the space-separated words of list. */
static int allowed_word(const char *list, const char *word)
{
    size_t n = strlen(word);
    for (const char *p = list; (p = strstr(p, word)) != NULL; p += n)
        if ((p == list || p[-1] == ' ') && (p[n] == ' ' || p[n] == '\0'))
            return 1;
    return 0;
}

/* Parse a non-negative integer option value. */
static int int_value(const char *cmd, const char *opt, const char *v, int max, int *out)
{
    char *end;
    long x = v ? strtol(v, &end, 10) : -1;
    if (!v || *v == '\0' || *end != '\0' || x < 0 || x > max)
        return cli_usage_error("%s: %s needs a number 0..%d", cmd, opt, max);
    *out = (int)x;
    return 0;
}

int cli_parse(int argc, char **argv, const char *cmd, const char *allowed, cli_common *c)
{
    memset(c, 0, sizeof *c);
    c->warp = -1;
    c->access = -1;
    c->max_pad = 64;
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i];
        if (strncmp(a, "--", 2) != 0 || a[2] == '\0') {
            if (c->file)
                return cli_usage_error("%s: one file only (got '%s' and '%s')", cmd, c->file, a);
            c->file = a;
            continue;
        }
        const char *name = a + 2;
        if (!allowed_word(allowed, name))
            return cli_usage_error("%s: unknown option '%s' (see bankscope --help)", cmd, a);
        const char *val = i + 1 < argc ? argv[i + 1] : NULL;
        if (strcmp(name, "json") == 0)
            c->json = 1;
        else if (strcmp(name, "all") == 0)
            c->all = 1;
        else if (strcmp(name, "summary") == 0)
            c->summary = 1;
        else if (strcmp(name, "force") == 0)
            c->force = 1;
        else if (strcmp(name, "ptx") == 0)
            c->ptx = 1;
        else if (strcmp(name, "measure") == 0)
            c->measure = 1;
        else if (strcmp(name, "warp") == 0) {
            if (int_value(cmd, a, val, 31, &c->warp))
                return CLI_USAGE;
            i++;
        } else if (strcmp(name, "access") == 0) {
            if (int_value(cmd, a, val, 10000000, &c->access))
                return CLI_USAGE;
            i++;
        } else if (strcmp(name, "iteration") == 0) {
            if (int_value(cmd, a, val, 4095, &c->iteration))
                return CLI_USAGE;
            i++;
        } else if (strcmp(name, "max-pad") == 0) {
            if (int_value(cmd, a, val, 4096, &c->max_pad))
                return CLI_USAGE;
            i++;
        } else if (strcmp(name, "arch") == 0 || strcmp(name, "svg") == 0) {
            if (!val)
                return cli_usage_error("%s: %s needs a value", cmd, a);
            if (name[0] == 'a')
                c->arch = val;
            else
                c->svg = val;
            i++;
        }
    }
    if (!c->file)
        return cli_usage_error("%s: missing FILE.json (a scenario, a trace, or a name from 'bankscope list')", cmd);
    return 0;
}

int cli_open(int argc, char **argv, const char *cmd, const char *allowed, cli_common *c, scenario *s)
{
    if (cli_parse(argc, argv, cmd, allowed, c))
        return CLI_USAGE;
    io_error err;
    if (!load_scenario_file(c->file, c->arch, s, &err)) {
        /* the message quotes the file's text: never let it reach the terminal raw */
        fputs("bankscope: ", stderr);
        textsafe_fputs(err.text, stderr);
        fputc('\n', stderr);
        return CLI_USAGE;
    }
    return 0;
}

int cli_access_range(const cli_common *c, const scenario *s, const char *cmd, int *first, int *end)
{
    int n = scenario_access_count(s);
    if (c->access >= n || c->iteration >= s->iterations)
        return cli_usage_error("%s: the scenario has %d access(es) and %d iteration(s)", cmd, n, s->iterations);
    *first = c->access < 0 ? 0 : c->access;
    *end = c->access < 0 ? n : c->access + 1;
    return CLI_OK;
}
