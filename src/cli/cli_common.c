/* cli_common: option parsing shared by the scenario subcommands. */
#include "cli/cli.h"
#include "io/load.h"
#include "io/recording.h"
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
    /* every option of the scenario commands; a command takes those its allowed list names */
    static const struct option all[] = {
        {"json", no_argument, NULL, 'j'},
        {"all", no_argument, NULL, 'a'},
        {"summary", no_argument, NULL, 's'},
        {"force", no_argument, NULL, 'f'},
        {"ptx", no_argument, NULL, 'p'},
        {"measure", no_argument, NULL, 'm'},
        {"warp", required_argument, NULL, 'w'},
        {"access", required_argument, NULL, 'A'},
        {"iteration", required_argument, NULL, 'i'},
        {"max-pad", required_argument, NULL, 'P'},
        {"arch", required_argument, NULL, 'r'},
        {"svg", required_argument, NULL, 'g'},
        {"source", required_argument, NULL, 'S'},
        {"sass", no_argument, NULL, 'X'},
    };
    enum { NALL = sizeof all / sizeof all[0] };
    struct option longopts[NALL + 1];
    int n = 0;
    for (int k = 0; k < NALL; k++)
        if (allowed_word(allowed, all[k].name))
            longopts[n++] = all[k];
    longopts[n] = (struct option){0};
    memset(c, 0, sizeof *c);
    c->warp = -1;
    c->access = -1;
    c->max_pad = 64;
    cli_args a;
    cli_args_init(&a, cmd, argc, argv, false);
    int rc = 0, o;
    const char *v;
    char opt[32];
    while (rc == 0 && (o = cli_args_next(&a, "", longopts, &v)) != -1) {
        for (int k = 0; k < n; k++)
            if (longopts[k].val == o)
                snprintf(opt, sizeof opt, "--%s", longopts[k].name);
        switch (o) {
        case 'j': c->json = 1; break;
        case 'a': c->all = 1; break;
        case 's': c->summary = 1; break;
        case 'f': c->force = 1; break;
        case 'p': c->ptx = 1; break;
        case 'm': c->measure = 1; break;
        case 'w': c->warp_arg = v; break;
        case 'A': c->access_arg = v; break;
        case 'i': c->iteration_arg = v; break;
        case 'P': rc = int_value(cmd, opt, v, 256, &c->max_pad); break;
        case 'r': c->arch = v; break;
        case 'g': c->svg = v; break;
        case 'S': c->source = v; break;
        case 'X': c->sass = 1; break;
        default: rc = CLI_USAGE; break;
        }
    }
    if (rc == 0 && a.noperands > 1)
        rc = cli_usage_error("%s: one file only (got '%s' and '%s')", cmd, a.operands[0], a.operands[1]);
    if (rc == 0 && a.noperands == 1)
        c->file = a.operands[0];
    cli_args_free(&a);
    if (rc)
        return CLI_USAGE;
    if (!c->file)
        return cli_usage_error("%s: missing FILE.json (a scenario, a trace, or a name from 'bankscope list')", cmd);
    return 0;
}

/* Option opt's text v as an index below n, the number of what (singular/plural) where has. */
static int index_value(const char *cmd, const char *opt, const char *v, int64_t n, const char *where, const char *one,
                       const char *many, int *out)
{
    char *end;
    errno = 0;
    long long x = strtoll(v, &end, 10);
    if (*v != '\0' && *end == '\0' && errno == 0 && x >= 0 && x < n) {
        *out = (int)x;
        return 0;
    }
    if (n <= 0)
        return cli_usage_error("%s: %s %.40s: %s has no %s", cmd, opt, v, where, many);
    return cli_usage_error("%s: %s %.40s: %s has %lld %s: give 0..%lld", cmd, opt, v, where, (long long)n,
                           n == 1 ? one : many, (long long)(n - 1));
}

int cli_check_indexes(cli_common *c, const scenario *s, const char *cmd)
{
    const char *what = !scenario_has_layout(s) ? "the trace" : "the scenario";
    if (c->warp_arg && !scenario_has_layout(s)) /* each entry carries its warp: said, never silently ignored */
        return cli_usage_error("%s: --warp %.40s: a trace's entries each carry their own warp (a recording holds the "
                               "warps of one block as they ran), so --warp does not apply to a trace; leave it out",
                               cmd, c->warp_arg);
    if (c->warp_arg &&
        index_value(cmd, "--warp", c->warp_arg, scenario_warp_count(s), "the block", "warp", "warps", &c->warp))
        return CLI_USAGE;
    if (c->access_arg && index_value(cmd, "--access", c->access_arg, scenario_access_count(s), what,
                                     scenario_access_noun(s, false), scenario_access_noun(s, true), &c->access))
        return CLI_USAGE;
    if (c->iteration_arg && index_value(cmd, "--iteration", c->iteration_arg, s->iterations, what, "iteration",
                                        "iterations", &c->iteration))
        return CLI_USAGE;
    return 0;
}

int cli_open(int argc, char **argv, const char *cmd, const char *allowed, cli_common *c, scenario *s)
{
    return cli_open_doc(argc, argv, cmd, allowed, c, s, NULL);
}

int cli_open_doc(int argc, char **argv, const char *cmd, const char *allowed, cli_common *c, scenario *s,
                 struct recording_doc **rec)
{
    if (rec)
        *rec = NULL;
    if (cli_parse(argc, argv, cmd, allowed, c))
        return CLI_USAGE;
    io_error err;
    if (!load_scenario_file_doc(c->file, c->arch, s, rec, &err)) {
        /* the message quotes the file's text: never let it reach the terminal raw */
        fputs("bankscope: ", stderr);
        textsafe_fputs(err.text, stderr);
        fputc('\n', stderr);
        return CLI_USAGE;
    }
    if (cli_check_indexes(c, s, cmd)) {
        scenario_free(s);
        if (rec) {
            recording_doc_drop(*rec);
            *rec = NULL;
        }
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
