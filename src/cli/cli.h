/* cli: the subcommands, one file each. Each takes the arguments after its name and returns the
 * process exit status: 0 success, 1 other failure, 2 bad input or usage, 3 no usable GPU. */
#ifndef BANKSCOPE_CLI_H
#define BANKSCOPE_CLI_H

#include <getopt.h>
#include <stdbool.h>

enum { CLI_OK = 0, CLI_FAIL = 1, CLI_USAGE = 2, CLI_NO_GPU = 3 };

/* A command's arguments read with getopt_long, as GNU tools read theirs: options and operands in
 * any order, "--opt=value" or "--opt value", unique prefixes of long options, "--" ends the
 * options. Usage errors are printed here in the program's form ("CMD: unknown option '--x' (see
 * bankscope --help)", "CMD: --warp needs a value", "CMD: --json takes no value"). */
typedef struct cli_args {
    const char *cmd; /* the command word, for messages ("" for the interactive view) */
    int argc;        /* the copy getopt permutes: argv[0] = cmd, then the options */
    char **argv;     /* owned (the array, not the words) */
    char **operands; /* once cli_args_next returned -1: the operands, in their order */
    int noperands;
    bool has_rest; /* split_rest and a "--" was given: the words after it, untouched */
    char **rest;
    int rest_argc;
} cli_args;
#define CLI_ARGS_ERROR (-2)
/* Start reading argc words of argv (the words after the command). With split_rest, the first "--"
 * ends the words read and what follows it is handed back untouched in rest (a program and its
 * own arguments); without, "--" only ends the options. */
void cli_args_init(cli_args *a, const char *cmd, int argc, char **argv, bool split_rest);
/* The next option: the val of its struct option (or its short letter), its value in *arg; -1 when
 * the options are done (operands then set); CLI_ARGS_ERROR after the usage message. */
int cli_args_next(cli_args *a, const char *shortopts, const struct option *longopts, const char **arg);
void cli_args_free(cli_args *a);

int cli_analyze(int argc, char **argv);
int cli_list(int argc, char **argv);
int cli_kernel(int argc, char **argv);
int cli_measure(int argc, char **argv);
int cli_sweep(int argc, char **argv);
int cli_export(int argc, char **argv);
int cli_tui(int argc, char **argv);
/* The view with the importer's skipped accesses for the source view to list (borrowed; NULL:
 * not known) and display as the name its header shows for the file (NULL: the file's own). */
typedef struct source_skip source_skip;
int cli_tui_named(int argc, char **argv, const source_skip *skips, int nskips, const char *display);
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
    int warp; /* -1: all */
    int json;
    int all;
    int summary;
    int sass; /* analyze --sass: a recording's page per SASS instruction */
    int ptx;
    const char *svg;
    const char *source; /* --source DIR: where a recording's source file may be read */
    int measure;
    int max_pad;
    int access; /* -1: all */
    int iteration;
    int force; /* --force: run work above the limits of io/work.h */
    /* --warp, --access, --iteration as given (NULL: not given): their range is the file's, so
     * cli_check_indexes turns them into warp, access and iteration once it is loaded */
    const char *warp_arg, *access_arg, *iteration_arg;
} cli_common;

/* Parse argv into c; returns 0 or CLI_USAGE (after a message). allowed lists the long options
 * the command accepts, e.g. "json warp arch all". */
int cli_parse(int argc, char **argv, const char *cmd, const char *allowed, cli_common *c);

struct scenario;
/* cli_parse, then load c->file (with --arch) into *s; 0, or the exit status after a message. */
int cli_open(int argc, char **argv, const char *cmd, const char *allowed, cli_common *c, struct scenario *s);
/* cli_open that also keeps a recording's members, read in the same pass as its trace (*rec: a
 * reference for the caller, NULL when the file is not a recording; load_scenario_file_doc). */
struct recording_doc;
int cli_open_doc(int argc, char **argv, const char *cmd, const char *allowed, cli_common *c, struct scenario *s,
                 struct recording_doc **rec);
/* Check --warp, --access and --iteration against the ranges of the loaded s (the block's warps,
 * the accesses or trace instructions, the loop iterations) and set c->warp, c->access and
 * c->iteration; 0, or CLI_USAGE after a message that gives the range. */
int cli_check_indexes(cli_common *c, const struct scenario *s, const char *cmd);
/* The accesses (trace entries) a command runs, [*first, *end): the one --access names, or all.
 * CLI_USAGE after a message when --access or --iteration is out of range. */
int cli_access_range(const cli_common *c, const struct scenario *s, const char *cmd, int *first, int *end);

#endif
