/* cli_record: what `bankscope record` was asked to do, read from its options
 * (cli_record_opts.c) and carried out by the command (cli_record.c). */
#ifndef BANKSCOPE_CLI_RECORD_H
#define BANKSCOPE_CLI_RECORD_H

#include <stdbool.h>

typedef struct record_opts {
    const char *kernel;
    long long launch; /* -1: the first with shared-memory instructions */
    unsigned block[3];
    long long max;
    const char *out;
    bool force;      /* --force: an existing output file may be replaced */
    bool verbose;    /* --verbose: each run and step with its wall time on stderr */
    bool sequential; /* --sequential: the runs one after another, not side by side */
    bool no_time;    /* --no-time: no time run (the recording says "not timed") */
    char **argv;     /* owned (the array): the program and its arguments, NULL-terminated */
    int argc;
} record_opts;

/* Read record's options into o (cli_args: GNU style, unique prefixes), then the program and its
 * arguments after "--", untouched (or the operands, when there is no "--" and the program takes
 * no options); CLI_OK, -1 once --help printed the usage, or the exit status after a usage
 * message. */
int cli_record_parse(int argc, char **argv, record_opts *o);

#endif
