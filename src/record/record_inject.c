/* record_inject: the entry of libbankscope-record.so. The CUDA driver loads the library named by
 * CUDA_INJECTION64_PATH at its initialisation and calls InitializeInjection; the library reads
 * its configuration (record.h) and starts the one pass it names. Also the helpers every pass
 * shares: launch selection, demangling, output files. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <dlfcn.h>
#include <errno.h>
#include <regex.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "record.h"

extern const record_pass record_capture_pass;
extern const record_pass record_count_pass, record_time_pass; /* record_measure.c */

/* Every pass the library can run; a new pass is one more line. */
static const record_pass *const record_passes[] = {&record_capture_pass, &record_count_pass, &record_time_pass};

static record_config record_cfg;
static const record_pass *record_running;
static regex_t record_regex;
static bool record_have_regex;
static struct timespec record_t0; /* when the configuration was read */

void record_say(const record_config *cfg, const char *fmt, ...)
{
    if (!cfg->verbose)
        return;
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    char text[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    fprintf(stderr, "record: [in the program, %.3f s] %s\n",
            (double)(t.tv_sec - record_t0.tv_sec) + (double)(t.tv_nsec - record_t0.tv_nsec) / 1e9, text);
}

/* A non-negative integer from the environment into *out; false when it does not parse. */
static bool record_env_int(const char *name, int64_t *out)
{
    const char *v = getenv(name);
    if (!v || !*v)
        return true;
    char *end;
    errno = 0;
    long long x = strtoll(v, &end, 10);
    if (errno || *end || x < -1)
        return false;
    *out = x;
    return true;
}

bool record_config_load(record_config *cfg)
{
    memset(cfg, 0, sizeof *cfg);
    cfg->pass = getenv("BANKSCOPE_RECORD_PASS");
    cfg->dir = getenv("BANKSCOPE_RECORD_DIR");
    if (!cfg->pass || !cfg->dir)
        return false;
    cfg->kernel_regex = getenv("BANKSCOPE_RECORD_KERNEL");
    cfg->kernel_exact = getenv("BANKSCOPE_RECORD_EXACT");
    if (cfg->kernel_regex && !*cfg->kernel_regex)
        cfg->kernel_regex = NULL;
    if (cfg->kernel_exact && !*cfg->kernel_exact)
        cfg->kernel_exact = NULL;
    cfg->launch = -1;
    cfg->max_instructions = 1 << 20;
    if (!record_env_int("BANKSCOPE_RECORD_LAUNCH", &cfg->launch) ||
        !record_env_int("BANKSCOPE_RECORD_MAX", &cfg->max_instructions) || cfg->max_instructions < 1)
        return false;
    const char *b = getenv("BANKSCOPE_RECORD_BLOCK");
    if (b && *b) {
        unsigned x = 0, y = 0, z = 0;
        if (sscanf(b, "%u,%u,%u", &x, &y, &z) != 3)
            return false;
        cfg->block[0] = x;
        cfg->block[1] = y;
        cfg->block[2] = z;
    }
    cfg->patch_path = getenv("BANKSCOPE_RECORD_PATCH");
    cfg->sanitizer_path = getenv("BANKSCOPE_RECORD_SANITIZER");
    const char *v = getenv("BANKSCOPE_RECORD_VERBOSE");
    cfg->verbose = v && strcmp(v, "1") == 0;
    v = getenv("BANKSCOPE_RECORD_SYNC");
    cfg->sync = v && strcmp(v, "1") == 0;
    clock_gettime(CLOCK_MONOTONIC, &record_t0);
    return true;
}

bool record_kernel_matches(const record_config *cfg, const char *mangled, const char *demangled)
{
    if (cfg->kernel_exact)
        return strcmp(cfg->kernel_exact, mangled) == 0;
    if (!record_have_regex)
        return true;
    return regexec(&record_regex, demangled, 0, NULL, 0) == 0 || regexec(&record_regex, mangled, 0, NULL, 0) == 0;
}

char *record_demangle(const char *mangled)
{
    typedef char *(*demangle_fn)(const char *, char *, size_t *, int *);
    static demangle_fn fn;
    static bool looked;
    if (!looked) {
        looked = true;
        fn = (demangle_fn)dlsym(RTLD_DEFAULT, "__cxa_demangle");
        if (!fn) {
            void *h = dlopen("libstdc++.so.6", RTLD_NOW | RTLD_GLOBAL);
            if (h)
                fn = (demangle_fn)dlsym(h, "__cxa_demangle");
        }
    }
    int status = -1;
    char *d = fn && strncmp(mangled, "_Z", 2) == 0 ? fn(mangled, NULL, NULL, &status) : NULL;
    if (d && status == 0)
        return d;
    free(d);
    return strdup(mangled);
}

FILE *record_open_output(const record_config *cfg, const char *name)
{
    char path[4096];
    if ((size_t)snprintf(path, sizeof path, "%s/%s", cfg->dir, name) >= sizeof path)
        return NULL;
    return fopen(path, "w");
}

void record_write_word(FILE *f, const char *text)
{
    for (const unsigned char *p = (const unsigned char *)text; *p; p++) {
        if (*p <= ' ' || *p >= 0x7f || *p == '\\')
            fprintf(f, "\\x%02x", *p);
        else
            fputc(*p, f);
    }
}

/* error.txt: "error WHAT" + the word, one line, which the command prints. */
static void record_error_line(const char *what, const char *word)
{
    FILE *f = record_open_output(&record_cfg, "error.txt");
    if (f) {
        fprintf(f, "error %s", what);
        record_write_word(f, word ? word : "");
        fputc('\n', f);
        fclose(f);
    }
}

/* At exit: the running pass writes what it has not yet written. */
static void record_at_exit(void)
{
    record_say(&record_cfg, "the program exits");
    if (record_running && record_running->stop)
        record_running->stop();
}

/* Read the configuration and start its pass, once. */
static int record_start(void)
{
    static bool started;
    if (started)
        return 0;
    started = true;
    if (!record_config_load(&record_cfg)) {
        if (record_cfg.pass && record_cfg.dir) /* started by bankscope record, but not as it does */
            record_error_line("a bad configuration (BANKSCOPE_RECORD_LAUNCH, _MAX or _BLOCK): pass ", record_cfg.pass);
        return 0; /* else not started by bankscope record: stay out of the way */
    }
    if (record_cfg.kernel_regex && !record_cfg.kernel_exact) {
        record_have_regex = regcomp(&record_regex, record_cfg.kernel_regex, REG_EXTENDED | REG_NOSUB) == 0;
        if (!record_have_regex) { /* never "every kernel": no pass runs, the command says why */
            record_error_line("a --kernel pattern that does not compile: ", record_cfg.kernel_regex);
            return 1;
        }
    }
    for (size_t i = 0; i < sizeof record_passes / sizeof *record_passes; i++) {
        if (strcmp(record_passes[i]->name, record_cfg.pass) == 0) {
            record_running = record_passes[i];
            atexit(record_at_exit);
            int rc = record_running->start(&record_cfg) == 0 ? 0 : 1;
            record_say(&record_cfg, "the %s pass started", record_cfg.pass);
            return rc;
        }
    }
    record_error_line("an unknown pass: ", record_cfg.pass);
    return 1;
}

/* The driver's entry for CUDA_INJECTION64_PATH libraries. */
__attribute__((visibility("default"))) int InitializeInjection(void);
int InitializeInjection(void)
{
    record_start();
    return 1; /* the driver only checks that the entry exists and ran */
}

/* The LD_PRELOAD entry, when the command chose it (BANKSCOPE_RECORD_PRELOAD=1). */
__attribute__((constructor)) static void record_preload(void)
{
    const char *p = getenv("BANKSCOPE_RECORD_PRELOAD");
    if (p && strcmp(p, "1") == 0)
        record_start();
}
