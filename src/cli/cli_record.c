/* cli_record: `bankscope record [--kernel REGEX] [--launch N] [--block-index X[,Y[,Z]]]
 * [--max-instructions N] [-o REC.json] [--verbose] [--sequential] [--no-time] -- PROGRAM [ARGS...]`.
 * Runs the user's program with the recording library (src/record/, started through
 * CUDA_INJECTION64_PATH) once per pass (capture, count, time; the disassembler runs beside the
 * last two), reads what each pass wrote into a private folder, and writes the recording
 * (core/recording_book.c). The three runs start side by side (src/record/record_sync.c: the count and
 * time runs wait inside the program for the capture run's choice of launch, the time run's launch
 * until the other two have ended), so a program's start-up is paid once in wall time;
 * --sequential, or a GPU in exclusive-process mode, runs them one after another; --no-time
 * leaves the time run out.
 * Everything that can be checked before the program starts is checked first: no GPU, driver or
 * sanitizer library exits 3, bad options or a program that is not found exit 2. The program's
 * own output passes through untouched (the capture run's); its failure (status or signal) exits
 * 1 and writes nothing. The program is never left running: every run dies with bankscope
 * (PR_SET_PDEATHSIG), a failed capture run ends the others, and SIGTERM/SIGHUP/SIGINT are passed
 * on to every run; bankscope then exits 128 + N, writing nothing. The options are read by
 * cli_record_opts.c, the runs started and waited for by cli_child.c. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/cli_child.h"
#include "cli/cli_record.h"
#include "config.h"
#include "core/recording_book.h"
#include "core/recording_capture.h"
#include "core/recording_measured.h"
#include "gpu/gpu.h"
#include "gpu/gpu_toolkit.h"
#include "io/cubin.h"
#include "io/save.h"
#include "io/textsafe.h"
#include "util.h"

/* --verbose: "record: WHAT: S s" on stderr, the wall time since *t0 (then reset to now). */
static void record_step(const record_opts *o, const char *what, struct timespec *t0)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    if (o->verbose)
        fprintf(stderr, "record: %s: %.2f s\n", what,
                (double)(t.tv_sec - t0->tv_sec) + (double)(t.tv_nsec - t0->tv_nsec) / 1e9);
    *t0 = t;
}

static volatile sig_atomic_t record_signal;
static volatile sig_atomic_t record_runs[3];  /* the program's runs going on (capture, count, time), 0 when none */
static volatile sig_atomic_t record_tools[2]; /* the disassembler children running, 0 when none */
static char record_stop[PATH_MAX + 32];       /* DIR/stop, made on a signal: the waiting runs give up */

/* SIGTERM, SIGHUP or SIGINT to bankscope: remembered (the command then exits 128 + N) and passed
 * on to every run of the program, unless the terminal sent it (Ctrl-C reaches the program's process
 * group by itself: a second one would be too many); the runs that wait for each other are told to
 * stop waiting (DIR/stop); the disassembler children are stopped. */
static void pass_on(int sig, siginfo_t *info, void *ctx)
{
    (void)ctx;
    record_signal = sig;
    bool from_terminal = false;
#ifdef SI_KERNEL
    from_terminal = sig == SIGINT && info && info->si_code == SI_KERNEL;
#else
    (void)info;
#endif
    if (record_stop[0]) {
        int fd = open(record_stop, O_WRONLY | O_CREAT | O_CLOEXEC, 0600);
        if (fd >= 0)
            close(fd);
    }
    for (int i = 0; i < 3; i++)
        if (record_runs[i] > 0 && !from_terminal)
            kill((pid_t)record_runs[i], sig);
    for (int i = 0; i < 2; i++)
        if (record_tools[i] > 0)
            kill((pid_t)record_tools[i], SIGKILL);
}

/* pass_on catches SIGTERM, SIGHUP and SIGINT (SIGQUIT ignored) while a child runs: from the first
 * signals_catch to the matching signals_release (they nest). */
static struct sigaction signals_old[4];
static int signals_depth;
static const int signals_caught[4] = {SIGTERM, SIGHUP, SIGINT, SIGQUIT};

static void signals_catch(void)
{
    if (signals_depth++ > 0)
        return;
    struct sigaction sa = {.sa_sigaction = pass_on, .sa_flags = SA_SIGINFO}, ign = {.sa_handler = SIG_IGN};
    for (int i = 0; i < 4; i++)
        sigaction(signals_caught[i], signals_caught[i] == SIGQUIT ? &ign : &sa, &signals_old[i]);
}

static void signals_release(void)
{
    if (--signals_depth > 0)
        return;
    for (int i = 0; i < 4; i++)
        sigaction(signals_caught[i], &signals_old[i], NULL);
}

/* A signal stopped the command: say so; the exit status 128 + N. */
static int stopped_by_signal(void)
{
    cli_error("record: stopped by signal %d (%s), passed on to the program; nothing written", (int)record_signal,
              strsignal(record_signal));
    return 128 + record_signal;
}

/* Where a run's files are: the private folder, the library, its patches, the sanitizer. */
typedef struct record_paths {
    const char *dir, *lib, *patch, *sanitizer;
} record_paths;

static const char *program_failure(const char *prog, int status, char *buf, size_t n);

/* The runs of the program, by pass: their slot in record_runs. */
enum { RUN_CAPTURE, RUN_COUNT, RUN_TIME };

/* Starts the program with the library running pass (record.h) in slot run: the selection of o,
 * or the kernel exact (mangled, a previous pass's choice) and launch; block (NULL: o's) is the
 * one captured; its stdout to out_file when not NULL; side: beside the other runs
 * (record_sync.c). false with why when it could not be started. */
static bool record_start(const record_opts *o, const record_paths *p, int run, const char *pass, const char *exact,
                         long long launch, const uint32_t *block, const char *out_file, bool side, cli_child *c,
                         char *why, size_t n)
{
    char e_pass[96], e_dir[PATH_MAX + 32], e_kernel[4096], e_exact[4096], e_launch[64], e_block[96], e_max[64],
        e_patch[PATH_MAX + 32], e_san[PATH_MAX + 32], e_inj[PATH_MAX + 32], e_verbose[32], e_sync[32];
    snprintf(e_pass, sizeof e_pass, "BANKSCOPE_RECORD_PASS=%s", pass);
    snprintf(e_dir, sizeof e_dir, "BANKSCOPE_RECORD_DIR=%s", p->dir);
    snprintf(e_kernel, sizeof e_kernel, "BANKSCOPE_RECORD_KERNEL=%s", o->kernel ? o->kernel : "");
    snprintf(e_exact, sizeof e_exact, "BANKSCOPE_RECORD_EXACT=%s", exact ? exact : "");
    snprintf(e_launch, sizeof e_launch, "BANKSCOPE_RECORD_LAUNCH=%lld", launch);
    snprintf(e_block, sizeof e_block, "BANKSCOPE_RECORD_BLOCK=%u,%u,%u", block ? block[0] : o->block[0],
             block ? block[1] : o->block[1], block ? block[2] : o->block[2]);
    snprintf(e_max, sizeof e_max, "BANKSCOPE_RECORD_MAX=%lld", o->max);
    snprintf(e_patch, sizeof e_patch, "BANKSCOPE_RECORD_PATCH=%s", p->patch);
    snprintf(e_san, sizeof e_san, "BANKSCOPE_RECORD_SANITIZER=%s", p->sanitizer);
    snprintf(e_inj, sizeof e_inj, "CUDA_INJECTION64_PATH=%s", p->lib);
    snprintf(e_verbose, sizeof e_verbose, "BANKSCOPE_RECORD_VERBOSE=%d", o->verbose ? 1 : 0);
    snprintf(e_sync, sizeof e_sync, "BANKSCOPE_RECORD_SYNC=%d", side ? 1 : 0);
    char *env[] = {e_pass, e_dir,   e_kernel, e_exact, e_launch,  e_block,
                   e_max,  e_patch, e_san,    e_inj,   e_verbose, e_sync};
    /* stdout is the recording's; a measuring run's stderr is shown with --verbose */
    bool to_stderr = out_file ? o->verbose : o->out && strcmp(o->out, "-") == 0;
    if (!cli_child_spawn(o->argv, env, (int)(sizeof env / sizeof *env), out_file, to_stderr, c, why, n))
        return false;
    record_runs[run] = c->pid;
    if (record_signal) /* it came before pass_on could see this run */
        kill(c->pid, record_signal);
    return true;
}

/* Wait for run (record_start's), the signals passed on to it; its status into *status; false
 * with why when it could not be executed. */
static bool record_wait(const record_opts *o, int run, cli_child *c, int *status, char *why, size_t n)
{
    bool ok = cli_child_wait(c, o->argv[0], status, why, n);
    record_runs[run] = 0;
    return ok;
}

/* One run of the program, to its end (record_start's arguments, o's selection), the signals
 * passed on to it. */
static bool record_spawn(const record_opts *o, const record_paths *p, const char *pass, const char *exact,
                         long long launch, const uint32_t *block, const char *out_file, int *status, char *why,
                         size_t n)
{
    cli_child c;
    signals_catch();
    bool ok = record_start(o, p, RUN_CAPTURE, pass, exact, launch, block, out_file, false, &c, why, n) &&
              record_wait(o, RUN_CAPTURE, &c, status, why, n);
    signals_release();
    return ok;
}

/* How the capture run ended (status, or why it could not run): CLI_OK when the program ran and
 * exited 0; else the exit status after a message (its failure: CLI_FAIL, nothing written). */
static int capture_verdict(const record_opts *o, const record_paths *p, bool ran, int status, const char *why_run)
{
    char why[1024];
    if (!ran) {
        cli_error("record: %s", why_run);
        return CLI_USAGE;
    }
    if (record_signal)
        return stopped_by_signal();
    if (program_failure(o->argv[0], status, why, sizeof why)) {
        cli_error("record: %s; nothing written", why);
        return CLI_FAIL;
    }
    if (record_error_read(p->dir, why, sizeof why)) {
        cli_error("record: the recording library stopped: %s; nothing written", why);
        return CLI_FAIL;
    }
    return CLI_OK;
}

/* One run of the program with the library running pass, its output passed through. CLI_OK when
 * the program ran and exited 0; else the exit status after a message (its failure: CLI_FAIL,
 * nothing written). */
static int record_run_pass(const record_opts *o, const record_paths *p, const char *pass, const char *exact,
                           long long launch)
{
    char why[1024] = "";
    int status = 0;
    bool ran = record_spawn(o, p, pass, exact, launch, NULL, NULL, &status, why, sizeof why);
    return capture_verdict(o, p, ran, status, why);
}

/* One line saying how the program ended, or NULL when it exited 0. */
static const char *program_failure(const char *prog, int status, char *buf, size_t n)
{
    char t[256];
    if (WIFSIGNALED(status))
        snprintf(buf, n, "%s was killed by signal %d (%s)%s", textsafe(prog, t, sizeof t), WTERMSIG(status),
                 strsignal(WTERMSIG(status)), WCOREDUMP(status) ? ", core dumped" : "");
    else if (WIFEXITED(status) && WEXITSTATUS(status) != 0)
        snprintf(buf, n, "%s exited with status %d", textsafe(prog, t, sizeof t), WEXITSTATUS(status));
    else
        return NULL;
    return buf;
}

/* The message for a run that chose no launch; returns the exit status. */
static int no_launch(const record_opts *o, const record_capture *c)
{
    char list[1024] = "";
    size_t at = 0;
    int matched = 0;
    for (int k = 0; k < c->nkernels && at < sizeof list - 64; k++) {
        char t[200];
        at += (size_t)snprintf(list + at, sizeof list - at, "%s%s (%lld)", k ? ", " : "",
                               textsafe(c->kernels[k].demangled, t, sizeof t), (long long)c->kernels[k].launches);
        matched += c->kernels[k].matches;
    }
    char prog[256];
    textsafe(o->argv[0], prog, sizeof prog);
    if (c->nkernels == 0) {
        cli_error("record: %s launched no CUDA kernel; nothing written", prog);
        return CLI_FAIL;
    }
    if (o->kernel && matched == 0) {
        char t[256];
        cli_error("record: no kernel matches --kernel '%s'; launched: %s", textsafe(o->kernel, t, sizeof t), list);
        return CLI_USAGE;
    }
    if (matched && c->outside_launches) {
        cli_error("record: block (%u,%u,%u) is outside the grid of every launch%s (the last: (%u,%u,%u)); "
                  "launched: %s",
                  c->block[0], c->block[1], c->block[2], o->kernel ? " of a matching kernel" : "", c->grid[0],
                  c->grid[1], c->grid[2], list);
        return CLI_USAGE;
    }
    if (o->launch >= 0) {
        cli_error("record: no launch %lld (--launch counts each kernel's launches from 0); launched: %s", o->launch,
                  list);
        return CLI_USAGE;
    }
    cli_error("record: no launch%s executed a shared-memory instruction in block (%u,%u,%u); launched: %s",
              o->kernel ? " of a matching kernel" : "", o->block[0], o->block[1], o->block[2], list);
    return CLI_FAIL;
}

/* A disassembly of the captured kernel's module running beside the measuring runs: nvdisasm
 * -g (SASS and the innermost line) and nvdisasm -gi (the inline chain of every instruction), each a child writing
 * DIR/listing-g.txt and DIR/listing-gi.txt; or, without nvdisasm, cuobjdump -sass (SASS only). nvdisasm lists the
 * kernel alone when told its symbol index (-fun), the whole module else. The children are stopped by a signal to
 * bankscope. */
typedef struct disasm_job {
    cli_child run[2]; /* -g, -gi; pid 0: not started */
    char tool[PATH_MAX];
    long sym; /* the kernel's symbol index in the cubin, -1 when not found */
} disasm_job;

/* DIR/listing-OPTION.txt into buf. */
static void listing_path(const char *dir, const char *option, char *buf, size_t n)
{
    snprintf(buf, n, "%s/listing%s.txt", dir, option);
}

/* Start tool on DIR/module.cubin with option ("-g", "-gi": nvdisasm; "-sass": cuobjdump), its
 * output into the listing file; false when it cannot start. */
static bool listing_start(const char *dir, const char *tool, const char *option, long sym, cli_child *c)
{
    char cubin[PATH_MAX + 32], out[PATH_MAX + 32], idx[32], why[256];
    snprintf(cubin, sizeof cubin, "%s/module.cubin", dir);
    listing_path(dir, option, out, sizeof out);
    snprintf(idx, sizeof idx, "%ld", sym);
    char *argv[] = {(char *)tool, (char *)option, "-c", sym >= 0 ? "-fun" : cubin, sym >= 0 ? idx : NULL, cubin, NULL};
    if (strcmp(option, "-sass") == 0) {
        argv[2] = cubin;
        argv[3] = NULL;
    }
    return cli_child_spawn(argv, NULL, 0, out, false, c, why, sizeof why);
}

/* Wait for a listing child and parse its output into s (the instructions of the captured
 * kernel); false when it failed. */
static bool listing_finish(cli_child *c, const char *dir, const char *option, const record_capture *cap, record_sass *s)
{
    int status = 0;
    char why[256], out[PATH_MAX + 32];
    bool ran = cli_child_wait(c, option, &status, why, sizeof why);
    listing_path(dir, option, out, sizeof out);
    FILE *f = ran && WIFEXITED(status) && WEXITSTATUS(status) == 0 ? fopen(out, "r") : NULL;
    if (f) {
        record_sass_parse(f, cap->mangled, s);
        fclose(f);
    }
    unlink(out);
    return f != NULL;
}

/* Start the disassembly (the listing children run while the program runs again). */
static void disassembly_start(const char *dir, const record_capture *c, disasm_job *j)
{
    static const char *const option[2] = {"-g", "-gi"};
    char cubin[PATH_MAX + 32];
    memset(j, 0, sizeof *j);
    snprintf(cubin, sizeof cubin, "%s/module.cubin", dir);
    j->sym = cubin_symbol_index(cubin, c->mangled);
    signals_catch();
    bool have = gpu_toolkit_tool("nvdisasm", j->tool, sizeof j->tool);
    for (int i = 0; have && i < 2; i++)
        if (listing_start(dir, j->tool, option[i], j->sym, &j->run[i]))
            record_tools[i] = j->run[i].pid;
}

/* The disassembly into s: nvdisasm -g's, with -gi's inline chains (each instruction on the
 * kernel's own line it was inlined from); else cuobjdump -sass's; an empty listing when neither is installed
 * or a signal stopped bankscope. */
static void disassembly_finish(const char *dir, const record_capture *c, disasm_job *j, record_sass *s)
{
    record_sass outer;
    memset(s, 0, sizeof *s);
    memset(&outer, 0, sizeof outer);
    bool inner = j->run[0].pid && listing_finish(&j->run[0], dir, "-g", c, s);
    bool outer_ok = j->run[1].pid && listing_finish(&j->run[1], dir, "-gi", c, &outer);
    record_tools[0] = record_tools[1] = 0;
    if (inner && outer_ok) /* every instruction's inline chain, and its kernel's own line */
        record_sass_inline(s, &outer);
    record_sass_free(&outer);
    if (!inner) {
        record_sass_free(s);
        cli_child run;
        if (!record_signal && gpu_toolkit_tool("cuobjdump", j->tool, sizeof j->tool) &&
            listing_start(dir, j->tool, "-sass", -1, &run)) {
            record_tools[0] = run.pid;
            listing_finish(&run, dir, "-sass", c, s);
            record_tools[0] = 0;
        }
    }
    signals_release();
}

/* Remove the private folder and what the passes left in it (the second block's folder too). */
static void remove_dir(const char *dir)
{
    static const char *const files[] = {"capture.txt",
                                        "entries.bin",
                                        "module.cubin",
                                        "listing-g.txt",
                                        "listing-gi.txt",
                                        "listing-sass.txt",
                                        "error.txt",
                                        "count.txt",
                                        "time.txt",
                                        "count.txt.part",
                                        "time.txt.part",
                                        "second/capture.txt",
                                        "second/entries.bin",
                                        "verdicts.txt",
                                        "capture.done",
                                        "gpu.free",
                                        "stop"};
    char p[PATH_MAX + 32];
    for (size_t i = 0; i < sizeof files / sizeof *files; i++) {
        snprintf(p, sizeof p, "%s/%s", dir, files[i]);
        unlink(p);
    }
    snprintf(p, sizeof p, "%s/second", dir);
    rmdir(p);
    rmdir(dir);
}

/* Whether path may be written: never the program nor a source file of the kernel (the same
 * device and inode), and an existing regular file only with --force; the file's kind otherwise
 * is save_atomic's to judge. 0, or CLI_USAGE after a message. */
static int output_allowed(const record_opts *o, const char *path, const char *prog, const record_book *b)
{
    struct stat so, si;
    char t[256], u[256];
    if (strcmp(path, "-") == 0 || stat(path, &so) != 0)
        return 0; /* stdout, a new file (or a dangling link: its target is created) */
    if (prog && stat(prog, &si) == 0 && si.st_dev == so.st_dev && si.st_ino == so.st_ino)
        return cli_usage_error("record: the output %s is the program %s: refusing to replace it",
                               textsafe(path, t, sizeof t), textsafe(prog, u, sizeof u));
    for (int i = 0; b && i < b->nlines; i++)
        if (b->lines[i].file && stat(b->lines[i].file, &si) == 0 && si.st_dev == so.st_dev && si.st_ino == so.st_ino)
            return cli_usage_error("record: the output %s is the kernel's source %s: refusing to replace it",
                                   textsafe(path, t, sizeof t), textsafe(b->lines[i].file, u, sizeof u));
    if (S_ISREG(so.st_mode) && !o->force)
        return cli_usage_error("record: %s exists: give --force to replace it, or another -o",
                               textsafe(path, t, sizeof t));
    return 0;
}

/* The folder -o writes into must exist before the program runs three times for a recording that
 * could not be written. 0, or CLI_USAGE after a message. */
static int output_folder(const char *path)
{
    if (strcmp(path, "-") == 0)
        return 0;
    char dir[PATH_MAX], t[256];
    const char *slash = strrchr(path, '/');
    if (!slash)
        return 0; /* the current folder */
    snprintf(dir, sizeof dir, "%.*s", slash == path ? 1 : (int)(slash - path), path);
    struct stat st;
    if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode)) {
        char u[256];
        return cli_usage_error("record: -o %s: %s %s; nothing was run", textsafe(path, t, sizeof t),
                               textsafe(dir, u, sizeof u), stat(dir, &st) != 0 ? "does not exist" : "is not a folder");
    }
    return 0;
}

/* Write the recording to o->out (or KERNEL.record.json) with save_atomic: the whole file or,
 * on failure, the old one untouched. */
static int write_recording(const record_opts *o, const record_book *b, const record_measured *m, const char *prog,
                           char *path, size_t n)
{
    if (o->out) {
        snprintf(path, n, "%s", o->out);
    } else {
        char name[128];
        const char *d = b->cap->demangled;
        const char *paren = strchr(d, '(');
        const char *sp = strchr(d, ' ');
        if (sp && paren && sp < paren)
            d = sp + 1;
        size_t k = 0;
        for (; d[k] && d[k] != '(' && d[k] != '<' && k < 100; k++)
            name[k] = (char)((d[k] == '/' || d[k] == ':' || d[k] == ' ') ? '_' : d[k]);
        name[k] = '\0';
        snprintf(path, n, "%s.record.json", k ? name : "kernel");
    }
    bool ok;
    const char *why;
    if (strcmp(path, "-") == 0) {
        record_book_json(b, m, (const char *const *)o->argv, o->argc, stdout, &ok, &why);
        return ok ? CLI_OK : cli_write_error("record", why);
    }
    int rc = output_allowed(o, path, prog, b);
    if (rc != 0)
        return rc;
    char *data = NULL, err[512], t[256];
    size_t len = 0;
    FILE *f = open_memstream(&data, &len);
    if (!f) {
        cli_error("record: cannot write %s: %s (nothing written)", textsafe(path, t, sizeof t), strerror(errno));
        return CLI_FAIL;
    }
    record_book_json(b, m, (const char *const *)o->argv, o->argc, f, &ok, &why);
    ok = (fclose(f) == 0) && ok;
    if (!ok)
        cli_error("record: cannot write %s: %s (nothing written)", textsafe(path, t, sizeof t), why ? why : "");
    else if (!(ok = save_atomic(path, data, len, err, sizeof err)))
        cli_error("record: %s", err);
    free(data);
    return ok ? CLI_OK : CLI_FAIL;
}

/* One more run of the program for pass, told the captured kernel and launch (and block), in
 * folder dir; its stdout goes to /dev/null (the capture run showed it), its stderr too unless --verbose. false with why
 * when the program could not run or failed (then nothing it wrote is used). */
static bool run_pass(const record_opts *o, const record_paths *p, const char *pass, const char *dir,
                     const record_capture *c, const uint32_t block[3], char *why, size_t n)
{
    record_paths in = *p;
    in.dir = dir;
    int status;
    char fail[512];
    if (!record_spawn(o, &in, pass, c->mangled, (long long)c->launch, block, "/dev/null", &status, why, n))
        return false;
    if (program_failure(o->argv[0], status, fail, sizeof fail)) {
        snprintf(why, n, "in the %s run, %s", pass, fail);
        return false;
    }
    return true;
}

/* The second block's book: the capture run recorded it beside the chosen one
 * (record_second_block: the last block of the grid, the first when the last was chosen) into
 * DIR/second; its disassembly is the first capture's. false when the grid has one block or
 * the run could not record it. */
static bool capture_second(const record_paths *p, const record_capture *c, const record_sass *s, record_capture *c2,
                           record_book *b2)
{
    uint32_t want[3];
    char path[PATH_MAX + 32], why[1024];
    snprintf(path, sizeof path, "%s/second/capture.txt", p->dir);
    if (!record_second_block(c->grid, c->block, want) || access(path, F_OK) != 0)
        return false;
    bool ok = record_capture_read(path, c2, why, sizeof why);
    if (ok && (c2->status != RECORD_CAPTURED || memcmp(c2->block, want, sizeof want) != 0)) {
        record_capture_free(c2);
        ok = false;
    }
    if (ok && !record_book_build(b2, c2, s, why, sizeof why)) {
        record_capture_free(c2);
        ok = false;
    }
    return ok;
}

/* The program's runs side by side (record_sync.c): capture, count and time started at once. The
 * count and time runs wait inside the program for the capture run's verdict on each launch that
 * could be the recorded one, and the time run's launch until the capture and count runs have
 * ended (DIR/gpu.free), so the GPU is its own; the command makes the signs they wait for. */
typedef struct side_runs {
    bool on;       /* started side by side (else the runs go one after another) */
    bool going[3]; /* started and not yet waited for, by RUN_ */
    cli_child run[3];
} side_runs;

/* DIR/name made, empty: a sign to the runs that wait. */
static void side_sign(const char *dir, const char *name)
{
    char path[PATH_MAX + 32];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    int fd = open(path, O_WRONLY | O_CREAT | O_CLOEXEC, 0600);
    if (fd >= 0)
        close(fd);
}

/* --verbose: "record: WHAT: S s", the wall time of a run from its start to its end; *t0 then now. */
static void record_run_time(const record_opts *o, const char *what, const cli_child *c, struct timespec *t0)
{
    if (o->verbose)
        fprintf(stderr, "record: %s: %.2f s\n", what,
                (double)(c->ended.tv_sec - c->began.tv_sec) + (double)(c->ended.tv_nsec - c->began.tv_nsec) / 1e9);
    clock_gettime(CLOCK_MONOTONIC, t0);
}

/* Wait for side run i (its status, false with why when it could not run or failed). */
static bool side_wait(const record_opts *o, side_runs *r, int i, int *status, char *why, size_t n)
{
    r->going[i] = false;
    return record_wait(o, i, &r->run[i], status, why, n);
}

/* End the runs still going and wait for them: killed, unless a signal was passed on to them
 * (they end by it; those waiting inside the program were told to stop by DIR/stop). */
static void side_stop(const record_opts *o, side_runs *r)
{
    if (!r->on)
        return;
    for (int i = 0; i < 3; i++) {
        if (!r->going[i])
            continue;
        if (!record_signal)
            kill(r->run[i].pid, SIGKILL);
        int status;
        char why[256];
        side_wait(o, r, i, &status, why, sizeof why);
    }
    r->on = false;
    signals_release();
}

/* Start the capture, count and time (unless --no-time) runs at once, each told to choose as the
 * capture run does; CLI_OK, or the exit status after a message (none left running). */
static int side_start(const record_opts *o, const record_paths *p, side_runs *r)
{
    static const char *const pass[3] = {"capture", "count", "time"};
    char why[1024];
    memset(r, 0, sizeof *r);
    r->on = true;
    signals_catch();
    for (int i = 0; i < 3; i++) {
        if (i == RUN_TIME && o->no_time)
            continue;
        if (!record_start(o, p, i, pass[i], NULL, o->launch, NULL, i == RUN_CAPTURE ? NULL : "/dev/null", true,
                          &r->run[i], why, sizeof why)) {
            side_stop(o, r);
            cli_error("record: %s", why);
            return CLI_USAGE;
        }
        r->going[i] = true;
    }
    return CLI_OK;
}

/* The capture run's end, as record_run_pass says it; then no verdict will follow (DIR/capture.done). */
static int side_capture(const record_opts *o, const record_paths *p, side_runs *r, struct timespec *t0)
{
    char why[1024] = "";
    int status = 0;
    bool ran = side_wait(o, r, RUN_CAPTURE, &status, why, sizeof why);
    record_run_time(o, "capture run", &r->run[RUN_CAPTURE], t0);
    side_sign(p->dir, "capture.done");
    return capture_verdict(o, p, ran, status, why);
}

/* The measuring runs' ends when side by side: the count run (false with why when it failed: the
 * time run is stopped then), then the time run, told that the GPU is its own (a failed one leaves
 * no time.txt). */
static bool side_measure(const record_opts *o, const record_paths *p, side_runs *r, char *why, size_t n,
                         struct timespec *t0)
{
    int status = 0;
    char fail[512];
    bool counted = side_wait(o, r, RUN_COUNT, &status, why, n);
    record_run_time(o, "count run", &r->run[RUN_COUNT], t0);
    if (counted && program_failure(o->argv[0], status, fail, sizeof fail)) {
        snprintf(why, n, "in the count run, %s", fail);
        counted = false;
    }
    if (!counted || record_signal || !r->going[RUN_TIME]) {
        side_stop(o, r);
        return counted;
    }
    side_sign(p->dir, "gpu.free");
    char twhy[1024];
    bool timed = side_wait(o, r, RUN_TIME, &status, twhy, sizeof twhy) &&
                 !program_failure(o->argv[0], status, fail, sizeof fail);
    record_run_time(o, "time run", &r->run[RUN_TIME], t0);
    if (!timed) {
        char t[PATH_MAX + 32];
        snprintf(t, sizeof t, "%s/time.txt", p->dir);
        unlink(t);
    }
    side_stop(o, r);
    return true;
}

/* The measuring runs of the recorded launch, each a run of the program of its own: the count
 * run (false with why when it failed: then nothing is measured), then the time run unless
 * --no-time (a failed one leaves no time.txt). */
static bool measure_runs(const record_opts *o, const record_paths *p, const record_capture *c, char *why, size_t n,
                         struct timespec *t0)
{
    bool counted = run_pass(o, p, "count", p->dir, c, c->block, why, n);
    record_step(o, "count run", t0);
    if (!counted || record_signal || o->no_time)
        return counted;
    char twhy[1024];
    bool timed = run_pass(o, p, "time", p->dir, c, c->block, twhy, sizeof twhy);
    record_step(o, "time run", t0);
    if (!timed) {
        char t[PATH_MAX + 32];
        snprintf(t, sizeof t, "%s/time.txt", p->dir);
        unlink(t);
    }
    return true;
}

/* What the hardware did in the recorded launch (the measuring runs' files, why when the count
 * run failed), joined to the book's lines, with the second block's capture for invariance. */
static void measure_build(const record_paths *p, const record_capture *c, const record_sass *s, const record_book *b,
                          bool counted, const char *why, record_measured *m)
{
    record_capture c2;
    record_book b2;
    bool second = capture_second(p, c, s, &c2, &b2);
    uint64_t blocks = (uint64_t)c->grid[0] * c->grid[1] * c->grid[2];
    if (!counted)
        record_measured_none(m, b, why);
    else /* a one-block grid is its own second block */
        record_measured_build(m, b, second ? &b2 : blocks == 1 ? b : NULL, p->dir);
    if (second) {
        record_book_free(&b2);
        record_capture_free(&c2);
    }
}

/* The end of a recording, whatever it wrote: no run left going, the private folder removed. */
static void record_end(const record_opts *o, side_runs *side, const char *dir)
{
    side_stop(o, side);
    record_stop[0] = '\0';
    remove_dir(dir);
}

/* The command once its options are read. */
static int record_main(record_opts *o);

int cli_record(int argc, char **argv)
{
    record_opts o;
    int rc = cli_record_parse(argc, argv, &o);
    if (rc == 0)
        rc = record_main(&o);
    free(o.argv);
    return rc < 0 ? cli_finish_stdout("record --help") : rc;
}

static int record_main(record_opts *op)
{
    record_opts o = *op;
    int rc;
    char why[1024], prog[PATH_MAX], t[256];
    /* the user's mistakes first (exit 2), then what the machine lacks (exit 3) */
    if (!gpu_toolkit_program(o.argv[0], prog, sizeof prog)) {
        cli_error("record: %s: program not found", textsafe(o.argv[0], t, sizeof t));
        return CLI_USAGE;
    }
    if (o.out && (rc = output_allowed(&o, o.out, prog, NULL)) != 0)
        return rc; /* the source files are known only after the run: checked again then */
    if (o.out && (rc = output_folder(o.out)) != 0)
        return rc;
    gpu_toolkit kit;
    if (!gpu_toolkit_find(&kit, why, sizeof why)) {
        cli_error("record: %s", why);
        return CLI_NO_GPU;
    }
    bool shared_gpu = kit.shared;

    char tmpl[] = "/tmp/bankscope-record.XXXXXX";
    const char *tdir = getenv("TMPDIR");
    char dir[PATH_MAX];
    snprintf(dir, sizeof dir, "%s/bankscope-record.XXXXXX", tdir && *tdir ? tdir : "/tmp");
    if (!mkdtemp(dir) && !mkdtemp(strcpy(dir, tmpl))) {
        cli_error("record: cannot create a temporary folder: %s", strerror(errno));
        return CLI_FAIL;
    }
    record_paths paths = {.dir = dir, .lib = kit.library, .patch = kit.patch, .sanitizer = kit.sanitizer};
    snprintf(record_stop, sizeof record_stop, "%s/stop", dir);
    struct timespec t0;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    side_runs side = {.on = false};
    if (o.verbose && !o.sequential)
        fprintf(stderr, "record: the runs go %s\n",
                shared_gpu ? "side by side" : "one after another (a GPU in exclusive-process mode)");
    if (!o.sequential && shared_gpu) {
        if ((rc = side_start(&o, &paths, &side)) == CLI_OK)
            rc = side_capture(&o, &paths, &side, &t0);
    } else {
        rc = record_run_pass(&o, &paths, "capture", NULL, o.launch);
        record_step(&o, "capture run", &t0);
    }
    if (rc != CLI_OK) {
        record_end(&o, &side, dir);
        return rc;
    }
    char path[PATH_MAX + 32];
    snprintf(path, sizeof path, "%s/capture.txt", dir);
    record_capture c;
    if (access(path, F_OK) != 0) { /* the library never started: the program made no CUDA call */
        memset(&c, 0, sizeof c);
        record_end(&o, &side, dir);
        return no_launch(&o, &c);
    }
    if (!record_capture_read(path, &c, why, sizeof why)) {
        record_end(&o, &side, dir);
        cli_error("record: %s; nothing written", why);
        return CLI_FAIL;
    }
    record_step(&o, "reading the capture", &t0);
    rc = CLI_OK;
    if (c.status == RECORD_NONE) {
        rc = no_launch(&o, &c);
    } else if (c.status == RECORD_OUTSIDE) {
        cli_error("record: block (%u,%u,%u) is outside the grid (%u,%u,%u) of launch %lld of %s", c.block[0],
                  c.block[1], c.block[2], c.grid[0], c.grid[1], c.grid[2], (long long)c.launch,
                  textsafe(c.demangled, t, sizeof t));
        rc = CLI_USAGE;
    } else if (c.status == RECORD_ERROR) {
        cli_error("record: the capture failed: %s", textsafe(c.error, t, sizeof t));
        rc = CLI_FAIL;
    }
    if (rc != CLI_OK || c.status != RECORD_CAPTURED) {
        record_capture_free(&c);
        record_end(&o, &side, dir);
        return rc;
    }
    /* the disassembler works while the program runs for the counts and the time */
    disasm_job job;
    disassembly_start(dir, &c, &job);
    char mwhy[1024];
    bool counted = !record_signal && (side.on ? side_measure(&o, &paths, &side, mwhy, sizeof mwhy, &t0)
                                              : measure_runs(&o, &paths, &c, mwhy, sizeof mwhy, &t0));
    side_stop(&o, &side);
    record_sass s;
    disassembly_finish(dir, &c, &job, &s);
    record_step(&o, "the rest of the disassembly", &t0);
    if (record_signal) { /* during the measuring runs or the disassembly */
        record_sass_free(&s);
        record_capture_free(&c);
        record_end(&o, &side, dir);
        return stopped_by_signal();
    }
    record_book b;
    cubin_shared shared;
    char cubin[PATH_MAX + 32];
    snprintf(cubin, sizeof cubin, "%s/module.cubin", dir);
    bool have_shared = cubin_shared_read(cubin, c.mangled, &shared);
    if (!record_book_build(&b, &c, &s, why, sizeof why)) {
        cli_error("record: %s", why);
        rc = CLI_FAIL;
    } else {
        b.shared = have_shared ? &shared : NULL;
        record_measured m;
        measure_build(&paths, &c, &s, &b, counted, mwhy, &m);
        if (o.no_time && m.have)
            snprintf(m.time_why, sizeof m.time_why, "not timed: recorded with --no-time");
        record_step(&o, "lines and predictions", &t0);
        char out[PATH_MAX] = "";
        rc = write_recording(&o, &b, &m, prog, out, sizeof out);
        record_step(&o, "writing the recording", &t0);
        if (rc == CLI_OK && strcmp(out, "-") != 0) {
            record_book_print(&b, stdout);
            record_measured_print(&m, &b, stdout);
            if (s.n == 0)
                printf("no disassembler (nvdisasm, cuobjdump) found: no SASS text and no source lines\n");
            printf("wrote %s\n", textsafe(out, t, sizeof t));
            rc = cli_finish_stdout("record");
        }
        record_measured_free(&m);
        record_book_free(&b);
    }
    cubin_shared_free(&shared);
    record_sass_free(&s);
    record_capture_free(&c);
    record_end(&o, &side, dir);
    return rc;
}
