/* cli_child: child processes that run side by side (the program's runs of `record`, the
 * disassemblers beside them). Each is started with fork and exec, exec's failure comes back
 * through a pipe, every child dies with bankscope (PR_SET_PDEATHSIG), and waitpid(-1) files each
 * one's end, whichever child ends first. At most eight are started and not yet waited for. */
#ifndef BANKSCOPE_CLI_CHILD_H
#define BANKSCOPE_CLI_CHILD_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>
#include <time.h>

/* A started child: its pid, the pipe that carries exec's errno (closed on success), and, once
 * reaped, its status and when it started and ended. Stays where it is from cli_child_spawn to
 * cli_child_wait (the table of started children points at it). */
typedef struct cli_child {
    pid_t pid;
    int errfd;
    bool reaped;
    int status;
    struct timespec began, ended;
} cli_child;

/* Start argv with env (NAME=VALUE strings added); its stdout to out_file when not NULL (its
 * stdin then from /dev/null, its stderr to /dev/null unless to_stderr), or to bankscope's stderr
 * when to_stderr (the recording goes to stdout). false with why when it could not be started. */
bool cli_child_spawn(char *const *argv, char **env, int nenv, const char *out_file, bool to_stderr, cli_child *c,
                     char *why, size_t n);
/* Wait for a started child: its exit status into *status (waitpid's); false with why when it
 * could not be executed (name says which program). */
bool cli_child_wait(cli_child *c, const char *name, int *status, char *why, size_t n);

#endif
