/* cli: the subcommands, one file each. Each takes the arguments after its name and returns the
 * process exit status: 0 success, 1 other failure, 2 bad input or usage, 3 no usable GPU. */
#ifndef BANKSCOPE_CLI_H
#define BANKSCOPE_CLI_H

enum { CLI_OK = 0, CLI_FAIL = 1, CLI_USAGE = 2, CLI_NO_GPU = 3 };

int cli_analyze(int argc, char **argv);
int cli_list(int argc, char **argv);
int cli_kernel(int argc, char **argv);
int cli_measure(int argc, char **argv);
int cli_sweep(int argc, char **argv);
int cli_export(int argc, char **argv);
int cli_tui(int argc, char **argv);
int cli_import(int argc, char **argv);
/* `bankscope record ... -- PROGRAM [ARGS...]` (cli_record.c). */
int cli_record(int argc, char **argv);
/* `bankscope FILE.cu [import options] [--no-gpu ...]`: import, then the interactive view. */
int cli_import_tui(int argc, char **argv);
/* Whether a command-line word names CUDA source (.cu, .cuh). */
int cli_is_cuda_source(const char *arg);

/* `bankscope WORD` with WORD not a command: CLI_OK when WORD is an option, a file, a path or a
 * catalog pattern (the interactive view opens it); else CLI_USAGE after a message naming the
 * commands and the closest command or pattern name. */
int cli_check_target(const char *word, const char *const *commands, int ncommands);

/* Print "bankscope: msg" to stderr, made safe for the terminal (messages quote files). */
void cli_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Print "bankscope: msg" to stderr and return CLI_USAGE. */
int cli_usage_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* "bankscope: CMD: cannot write the output: WHY" on stderr; returns CLI_FAIL. */
int cli_write_error(const char *cmd, const char *why);
/* Flush stdout and check that every write to it succeeded (disk full, /dev/full, closed pipe):
 * CLI_OK, or CLI_FAIL after a message. Every command that prints its result ends with it. */
int cli_finish_stdout(const char *cmd);

/* Options every scenario command shares. */
typedef struct cli_common {
    const char *file;
    const char *arch;
    int warp;          /* -1: all */
    int json;
    int all;
    int summary;
    int ptx;
    const char *svg;
    int measure;
    int max_pad;
    int access;        /* -1: all */
    int iteration;
    int force;         /* --force: run work above the limits of io/work.h */
} cli_common;

/* Parse argv into c; returns 0 or CLI_USAGE (after a message). allowed lists the long options
 * the command accepts, e.g. "json warp arch all". */
int cli_parse(int argc, char **argv, const char *cmd, const char *allowed, cli_common *c);

struct scenario;
/* cli_parse, then load c->file (with --arch) into *s; 0, or the exit status after a message. */
int cli_open(int argc, char **argv, const char *cmd, const char *allowed, cli_common *c, struct scenario *s);
/* The accesses (trace entries) a command runs, [*first, *end): the one --access names, or all.
 * CLI_USAGE after a message when --access or --iteration is out of range. */
int cli_access_range(const cli_common *c, const struct scenario *s, const char *cmd, int *first, int *end);

#endif
