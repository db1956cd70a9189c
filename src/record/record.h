/* record: the library `bankscope record` loads into the user's program (libbankscope-record.so,
 * started by the CUDA driver through CUDA_INJECTION64_PATH). Nothing here is linked into
 * `bankscope`: the command and the library speak only through the environment (the
 * configuration below) and the files the library writes into BANKSCOPE_RECORD_DIR.
 *
 * The program runs once per pass. Each run loads the library, which reads its configuration
 * and starts the one pass that BANKSCOPE_RECORD_PASS names:
 *   "capture"   (record_capture.c): the Compute Sanitizer patching API; every shared-memory
 *               access of two blocks of one launch (the chosen one and record_second_block's),
 *               with each lane's address; writes capture.txt and entries.bin (second/ for the
 *               second block) and the kernel's module (module.cubin);
 *   "count", "time" (record_measure.c): the hardware's counts per instruction and the clean
 *               duration of the same launch.
 * A further pass is one more record_pass defined in its own file and listed in record_passes
 * (record_inject.c); the command decides which passes run, in which order, and reads what each
 * wrote.
 *
 * Ownership: the configuration is read once at injection and never freed (the process owns it
 * until exit); a pass owns whatever it allocates. Passes run inside the user's process: they
 * never exit it, never print to its stdout, and report problems in their own output file (a
 * line "error TEXT"), which the command turns into its message. */
#ifndef BANKSCOPE_RECORD_H
#define BANKSCOPE_RECORD_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

/* What the command asks for, from the environment (record_config_load):
 *   BANKSCOPE_RECORD_PASS     pass name (required)
 *   BANKSCOPE_RECORD_DIR      folder the pass writes into (required; exists)
 *   BANKSCOPE_RECORD_KERNEL   POSIX extended regular expression on the demangled name (optional)
 *   BANKSCOPE_RECORD_EXACT    the mangled name a previous pass chose (optional; wins over KERNEL)
 *   BANKSCOPE_RECORD_LAUNCH   that kernel's launch, counted from 0 (optional; -1: the first
 *                             launch whose chosen block executes shared-memory instructions)
 *   BANKSCOPE_RECORD_BLOCK    "X,Y,Z" block index (default 0,0,0)
 *   BANKSCOPE_RECORD_MAX      most warp-instructions kept per block (default 1048576)
 *   BANKSCOPE_RECORD_PATCH    the device patch file (record_patch.fatbin)
 *   BANKSCOPE_RECORD_SANITIZER  libsanitizer-public.so to dlopen
 *   BANKSCOPE_RECORD_VERBOSE  "1": the pass says on stderr what it does and how long it takes
 *   BANKSCOPE_RECORD_SYNC     "1": the runs go side by side (record_sync.c): the capture pass says
 *                             its verdict on each launch it examines, the count and time passes
 *                             wait for it (EXACT is then empty: they choose as the capture does) */
typedef struct record_config {
    const char *pass;
    const char *dir;
    const char *kernel_regex; /* NULL: any kernel */
    const char *kernel_exact; /* NULL: none */
    int64_t launch;           /* -1: first with shared-memory instructions */
    uint32_t block[3];
    int64_t max_instructions;
    const char *patch_path;
    const char *sanitizer_path;
    bool verbose;
    bool sync;
} record_config;

/* A kernel launch as every pass sees it (names are the driver's, valid during the call). */
typedef struct record_launch {
    const char *mangled;   /* the function's symbol */
    const char *demangled; /* readable name (the mangled one when it cannot be demangled) */
    uint32_t grid[3], block_dim[3];
    int64_t index; /* launches of this kernel before this one */
} record_launch;

/* One pass: start is called once, when the driver loads the library (before any CUDA work
 * of the program); it returns 0 or -1 after writing "error TEXT" to its output. stop, when not
 * NULL, is called at process exit (atexit), where a pass writes what it has not yet written. */
typedef struct record_pass {
    const char *name;
    int (*start)(const record_config *cfg);
    void (*stop)(void);
} record_pass;

/* Read the configuration from the environment; false when BANKSCOPE_RECORD_PASS or
 * BANKSCOPE_RECORD_DIR is missing or a value does not parse (nothing is started then). */
bool record_config_load(record_config *cfg);

/* The launch selection every pass applies the same way: a kernel matches when its mangled
 * name equals kernel_exact, else when its demangled name matches kernel_regex (or there is none). */
bool record_kernel_matches(const record_config *cfg, const char *mangled, const char *demangled);

/* The demangled name of a C++ symbol, whole however long (a copy of the symbol itself when it is
 * not mangled or no demangler is loaded), malloc'd; NULL only when out of memory. */
char *record_demangle(const char *mangled);

/* Open DIR/name for writing (the pass's own file); NULL when it cannot be created. */
FILE *record_open_output(const record_config *cfg, const char *name);

/* With verbose: "record: [in the program, S s] TEXT" on stderr, S the seconds since the process
 * loaded the library. */
void record_say(const record_config *cfg, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Write a name or text on one line of an output file, bytes outside printable ASCII, spaces
 * and backslashes escaped as \xHH, so a line is always "key value..." split by spaces. */
void record_write_word(FILE *f, const char *text);

/* Side by side (cfg->sync; record_sync.c). The capture pass's verdict on a launch it examined
 * (matching, with the asked index when there is one): chosen (recorded) or passed. Nothing
 * without sync. */
void record_sync_verdict(const record_config *cfg, const char *mangled, int64_t index, bool chosen);

/* Whether this launch is the one the capture pass chose: waits for its verdict (false when the
 * capture run ended, or the command stopped, without one). */
bool record_sync_chosen(const record_config *cfg, const char *mangled, int64_t index);

/* Waits until the capture and count runs have ended (true), or the command stops (false). */
bool record_sync_gpu_free(const record_config *cfg);

#endif
