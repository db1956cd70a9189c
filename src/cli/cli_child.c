/* cli_child: child processes that run side by side (cli_child.h). */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#ifdef __linux__
#include <sys/prctl.h>
#endif

#include "cli/cli_child.h"

/* The children started and not yet reaped: several run at once (the program's runs side by side,
 * the disassemblers), and waitpid(-1) files each one's end here, whichever ends first. */
#define CLI_CHILDREN 8
static cli_child *children[CLI_CHILDREN];

/* Wait until c has ended (reaping the others that end before it). */
static void cli_child_reap(cli_child *c)
{
    while (!c->reaped) {
        int st = 0;
        pid_t pid = waitpid(-1, &st, 0);
        if (pid < 0 && errno == EINTR)
            continue;
        struct timespec now;
        clock_gettime(CLOCK_MONOTONIC, &now);
        for (int i = 0; i < CLI_CHILDREN; i++) {
            cli_child *r = children[i];
            if (r && (pid < 0 || r->pid == pid)) { /* pid < 0: no child is left to wait for */
                *r = (cli_child){.pid = r->pid,
                                 .errfd = r->errfd,
                                 .reaped = true,
                                 .status = pid < 0 ? 127 << 8 : st,
                                 .began = r->began,
                                 .ended = now};
                children[i] = NULL;
            }
        }
        if (pid < 0)
            c->reaped = true;
    }
}

bool cli_child_spawn(char *const *argv, char **env, int nenv, const char *out_file, bool to_stderr, cli_child *c,
                     char *why, size_t n)
{
    int slot = 0;
    while (slot < CLI_CHILDREN && children[slot])
        slot++;
    int pfd[2];
    if (slot == CLI_CHILDREN || pipe2(pfd, O_CLOEXEC) != 0) {
        snprintf(why, n, "cannot start %s: %s", argv[0], slot == CLI_CHILDREN ? "too many children" : strerror(errno));
        return false;
    }
    fflush(stdout);
    fflush(stderr);
    struct timespec began;
    clock_gettime(CLOCK_MONOTONIC, &began);
    pid_t parent = getpid(), pid = fork();
    if (pid < 0) {
        snprintf(why, n, "cannot start %s: %s", argv[0], strerror(errno));
        close(pfd[0]);
        close(pfd[1]);
        return false;
    }
    if (pid == 0) {
#ifdef __linux__
        prctl(PR_SET_PDEATHSIG, SIGKILL);
#endif
        if (getppid() != parent) /* bankscope died before the line above */
            _exit(127);
        close(pfd[0]);
        for (int i = 0; i < nenv; i++)
            putenv(env[i]);
        if (out_file) { /* a run whose output is not shown reads nothing: the capture run has the input */
            int in = open("/dev/null", O_RDONLY);
            if (in > 0) {
                dup2(in, 0);
                close(in);
            }
            int fd = open(out_file, O_WRONLY | O_CREAT | O_TRUNC, 0600);
            if (fd >= 0 && fd != 1) {
                dup2(fd, 1);
                close(fd);
            }
            int nul = to_stderr ? -1 : open("/dev/null", O_WRONLY); /* to_stderr: stderr stays (--verbose) */
            if (nul >= 0 && nul != 2) {
                dup2(nul, 2);
                close(nul);
            }
        } else if (to_stderr) {
            dup2(2, 1);
        }
        execvp(argv[0], argv);
        int e = errno;
        if (write(pfd[1], &e, sizeof e) < 0)
            _exit(127);
        _exit(127);
    }
    close(pfd[1]);
    *c = (cli_child){.pid = pid, .errfd = pfd[0], .began = began};
    children[slot] = c;
    return true;
}

bool cli_child_wait(cli_child *c, const char *name, int *status, char *why, size_t n)
{
    int e = 0;
    ssize_t got;
    while ((got = read(c->errfd, &e, sizeof e)) < 0 && errno == EINTR)
        ;
    close(c->errfd);
    cli_child_reap(c);
    *status = c->status;
    if (got == (ssize_t)sizeof e) {
        snprintf(why, n, "cannot run %s: %s", name, strerror(e));
        return false;
    }
    return true;
}
