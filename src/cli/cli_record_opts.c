/* cli_record_opts: record's options, read and checked before anything runs (cli_record.h). */
#include <errno.h>
#include <limits.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/cli_record.h"
#include "core/recording_capture.h"
#include "io/textsafe.h"

#define RECORD_MAX_INSTRUCTIONS_LIMIT RECORD_ENTRIES_MAX /* 160 B each on the GPU, per block: 2 x 2.5 GiB */

static const char record_usage[] =
    "usage: bankscope record [--kernel REGEX] [--launch N] [--block-index X[,Y[,Z]]] [--max-instructions N]\n"
    "                        [-o REC.json] [--force] [--verbose] [--sequential] [--no-time] -- PROGRAM [ARGS...]";

/* A non-negative integer option value; false when it is not one or exceeds max. */
static bool parse_count(const char *s, long long max, long long *out)
{
    char *end;
    errno = 0;
    long long v = strtoll(s, &end, 10);
    if (errno || end == s || *end || v < 0 || v > max)
        return false;
    *out = v;
    return true;
}

/* A bound on what compiling the POSIX extended regex re costs: its positions once every bounded
 * repetition is expanded (regcomp copies a{n} n times, so nested counts multiply:
 * '((a{1000}){1000}){1000}' is 10^9 positions, gigabytes and half a minute). Counted by its
 * spelling, saturating at limit + 1. */
static long long regex_cost(const char *re, long long limit)
{
    long long stack[64], cur = 0, last = 0; /* last: the cost of the atom a repetition applies to */
    int depth = 0;
    for (const char *p = re; *p; p++) {
        long long atom = 1;
        if (*p == '\\' && p[1]) {
            p++;
        } else if (*p == '[') { /* a bracket expression is one position */
            const char *q = p + 1;
            if (*q == '^')
                q++;
            if (*q == ']')
                q++;
            while (*q && *q != ']') {
                if (*q == '[' && (q[1] == ':' || q[1] == '.' || q[1] == '=')) {
                    char end = q[1];
                    for (q += 2; *q && !(q[0] == end && q[1] == ']'); q++)
                        ;
                    if (*q)
                        q++;
                }
                if (*q)
                    q++;
            }
            p = *q ? q : q - 1;
        } else if (*p == '(') {
            if (depth == 64)
                return limit + 1;
            stack[depth++] = cur;
            cur = 0;
            continue;
        } else if (*p == ')' && depth > 0) {
            atom = cur;
            cur = stack[--depth];
        } else if (*p == '*' || *p == '+' || *p == '?') {
            cur += last; /* the atom once more, roughly */
            last *= 2;
            continue;
        } else if (*p == '{') {
            long long lo = 0, hi = 0;
            const char *q = p + 1;
            while (*q >= '0' && *q <= '9' && lo <= limit)
                lo = lo * 10 + (*q++ - '0');
            hi = lo;
            if (*q == ',') {
                hi = 0;
                for (q++; *q >= '0' && *q <= '9' && hi <= limit;)
                    hi = hi * 10 + (*q++ - '0');
                if (hi < lo)
                    hi = lo;
            }
            long long times = (hi > 0 ? hi : 1);
            long long grown = last > 0 && times > (limit + 1) / last ? limit + 1 : last * times;
            cur += grown - last;
            last = grown;
            while (*q && *q != '}')
                q++;
            p = *q ? q : q - 1;
            if (cur > limit)
                return limit + 1;
            continue;
        }
        cur += atom;
        last = atom;
        if (cur > limit)
            return limit + 1;
    }
    while (depth > 0)
        cur += stack[--depth];
    return cur > limit ? limit + 1 : cur;
}

/* What --kernel may cost to compile (positions after expansion; see regex_cost) and be long. */
#define RECORD_REGEX_COST 10000
#define RECORD_REGEX_LEN 4096

int cli_record_parse(int argc, char **argv, record_opts *o)
{
    memset(o, 0, sizeof *o);
    o->launch = -1;
    o->max = 1 << 20;
    enum { OPT_KERNEL = 1000, OPT_LAUNCH, OPT_BLOCK, OPT_MAX, OPT_FORCE, OPT_HELP, OPT_VERBOSE, OPT_SEQ, OPT_NOTIME };
    static const struct option longopts[] = {{"kernel", required_argument, NULL, OPT_KERNEL},
                                             {"launch", required_argument, NULL, OPT_LAUNCH},
                                             {"block-index", required_argument, NULL, OPT_BLOCK},
                                             {"max-instructions", required_argument, NULL, OPT_MAX},
                                             {"output", required_argument, NULL, 'o'},
                                             {"force", no_argument, NULL, OPT_FORCE},
                                             {"verbose", no_argument, NULL, OPT_VERBOSE},
                                             {"sequential", no_argument, NULL, OPT_SEQ},
                                             {"no-time", no_argument, NULL, OPT_NOTIME},
                                             {"help", no_argument, NULL, OPT_HELP},
                                             {NULL, 0, NULL, 0}};
    cli_args a;
    cli_args_init(&a, "record", argc, argv, true);
    int c, rc = 0;
    const char *v;
    while (rc == 0 && (c = cli_args_next(&a, "hvo:", longopts, &v)) != -1) {
        switch (c) {
        case CLI_ARGS_ERROR: rc = CLI_USAGE; break;
        case 'h':
        case OPT_HELP:
            printf("%s\n", record_usage);
            rc = -1;
            break;
        case OPT_KERNEL: {
            /* compiled here as the recording library compiles it (POSIX extended), so that a
             * pattern it could not use never reaches it */
            regex_t re;
            char t[256];
            if (strlen(v) > RECORD_REGEX_LEN || regex_cost(v, RECORD_REGEX_COST) > RECORD_REGEX_COST) {
                rc = cli_usage_error("record: --kernel '%s': too costly a pattern (longer than %d bytes, or "
                                     "repetition counts that multiply past %d positions): give a simpler one",
                                     textsafe(v, t, sizeof t), RECORD_REGEX_LEN, RECORD_REGEX_COST);
                break;
            }
            int e = regcomp(&re, v, REG_EXTENDED | REG_NOSUB);
            if (e != 0) {
                char msg[256];
                regerror(e, &re, msg, sizeof msg);
                rc = cli_usage_error("record: --kernel '%s': %s", textsafe(v, t, sizeof t), msg);
            } else {
                regfree(&re);
            }
            o->kernel = v;
            break;
        }
        case OPT_LAUNCH:
            if (!parse_count(v, LLONG_MAX / 2, &o->launch))
                rc = cli_usage_error("record: --launch takes a launch count from 0, not '%s'", v);
            break;
        case OPT_BLOCK: {
            long long b[3] = {0, 0, 0};
            int n = 0;
            char buf[128];
            snprintf(buf, sizeof buf, "%s", v);
            char *save = NULL;
            bool ok = strlen(v) < sizeof buf && v[0] && v[0] != ',' && v[strlen(v) - 1] != ',' && !strstr(v, ",,");
            for (char *t = strtok_r(buf, ",", &save); ok && t; t = strtok_r(NULL, ",", &save))
                ok = n < 3 && parse_count(t, 0x7fffffff, &b[n++]);
            if (!ok || n == 0)
                rc = cli_usage_error("record: --block-index takes X[,Y[,Z]] (block indexes from 0), not '%s'", v);
            for (int d = 0; d < 3; d++)
                o->block[d] = (unsigned)b[d];
            break;
        }
        case OPT_MAX:
            if (!parse_count(v, RECORD_MAX_INSTRUCTIONS_LIMIT, &o->max) || o->max < 1)
                rc = cli_usage_error("record: --max-instructions takes 1 to %d, not '%s'",
                                     RECORD_MAX_INSTRUCTIONS_LIMIT, v);
            break;
        case 'o': o->out = v; break;
        case OPT_FORCE: o->force = true; break;
        case 'v':
        case OPT_VERBOSE: o->verbose = true; break;
        case OPT_SEQ: o->sequential = true; break;
        case OPT_NOTIME: o->no_time = true; break;
        }
    }
    if (rc == 0 && a.has_rest && a.noperands > 0)
        rc = cli_usage_error("record: '%s' before --: the program and its arguments follow --", a.operands[0]);
    if (rc == 0) {
        o->argc = a.has_rest ? a.rest_argc : a.noperands;
        o->argv = xcalloc((size_t)o->argc + 1, sizeof *o->argv); /* NULL-terminated for execvp */
        memcpy(o->argv, a.has_rest ? a.rest : a.operands, (size_t)o->argc * sizeof *o->argv);
        if (o->argc < 1)
            rc = cli_usage_error("record: no program to run: bankscope record [OPTIONS] -- PROGRAM [ARGS...]");
    }
    cli_args_free(&a);
    return rc;
}
