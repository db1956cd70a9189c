/* kinds: the shared-memory access kinds as data. One row per kind of warp-instruction that can
 * touch shared memory: its name in files, the widths it takes, the rule that serves it (phase
 * split and how a bank serves lanes), the architectures that have it, the hardware counters that
 * measure it (Nsight Compute / CUPTI metric names), its PTX instruction and SASS opcode(s). The
 * engine (banks.c, banks_tensor.c), the file readers, the measurement plan and the GPU counter
 * reader all read this table instead of branching on the kind: a new kind is a new row.
 *
 * Kinds that a recording of a real program can meet but the model does not cover (TMA bulk
 * copies, wgmma operands read from shared memory, distributed shared memory, cp.async.cg) are
 * rows too, with rule KINDS_RULE_NOT_MODELLED and the reason in `not_modelled`: a reader that
 * meets them names them and says "not modelled" instead of guessing. Look them up by SASS opcode
 * (kinds_find_sass) or by name (kinds_find). The not-modelled rows, by name:
 *   "cp.async.cg"   LDGSTS.E.BYPASS (files: "op": "cp.async", "cache": "cg"; op BANKS_CP_ASYNC_CG)
 *   "cp.async.bulk" UBLKCP, UTMALDG (TMA bulk and bulk-tensor copies into shared memory; no op)
 *   "cp.async.bulk.store" UTMASTG, UTMAREDG, UBLKRED (TMA copies and reductions out of it; no op)
 *   "wgmma"         HGMMA, QGMMA, IGMMA, BGMMA (operands read from shared memory; no op)
 *   "dsmem"         ld/st/atom/red.shared::cluster (distributed shared memory; no op)
 * A modelled kind can also be selected by a key beside "op": "atomic.popc" (ATOMS.POPC.INC, what
 * atomicAdd(p, 1) with its result unused compiles to) is "op": "atomic", "form": "popc" in files.
 *
 * Pure: constant data and lookups, no globals written, no I/O, no allocation. */
#ifndef BANKSCOPE_KINDS_H
#define BANKSCOPE_KINDS_H

#include <stdbool.h>
#include <stddef.h>

#include "banks.h"

/* How the bank engine serves a kind (the rules and their sources are in banks.c and
 * banks_tensor.c). */
typedef enum kinds_rule {
    KINDS_RULE_WORDS,       /* loads and stores: 128-byte wavefronts (8 B: half-warps, 16 B:
                               quarter-warps); a bank serves one distinct word per wavefront to
                               any number of lanes */
    KINDS_RULE_MATRIX,      /* ldmatrix/stmatrix: one phase per 8x16-byte matrix */
    KINDS_RULE_LANES,       /* atomics, cp.async: phases as a store of the width; a bank serves
                               one lane per wavefront, lanes on one word included */
    KINDS_RULE_NOT_MODELLED /* the model has no rule: answer "not modelled" */
} kinds_rule;

/* Widths as a bit set: bit w is set when w bytes per lane is allowed. */
#define KINDS_W(w) (1u << (w))

/* From which architecture (compute capability x 10: 75 = sm_75) the widths in `widths` exist. */
typedef struct kinds_since {
    unsigned widths; /* KINDS_W bits; 0 ends the list */
    int cc;
} kinds_since;

/* The counters that measure one instruction of a kind (one warp, once): wavefronts, bank
 * conflicts and instructions executed, as CUPTI range-profiler metric names valid on GH100.
 * Metrics whose name starts with "smsp__sass_" are SASS metrics (CUPTI patches the kernel). */
typedef struct kinds_counters {
    const char *wavefronts, *conflicts, *instructions;
    int group; /* kinds of one group are read by one profiler configuration (one pass) */
} kinds_counters;

typedef struct kinds_row {
    const char *name;  /* as in files: "load", "ldmatrix", "cp.async", "cp.async.cg" */
    const char *title; /* for people: "shared-memory load" */
    int op;            /* its banks_op; -1 for a kind files cannot name (met by recordings only) */
    unsigned widths;   /* bytes per lane it takes (KINDS_W bits) */
    kinds_rule rule;
    bool reads;               /* lanes receive shared data (a load): one word read serves them all */
    bool pairs;               /* sm_90 pairs lanes n^1 / n^2 of 8/16-byte requests (loads) */
    bool chain;               /* a dependent chain of it times its latency (loads, ldmatrix) */
    bool cycles;              /* the model predicts its throughput cycles (cp.async: the time
                                 includes the copy from global memory) */
    bool fills_async;         /* shared memory is filled later, by a copy engine, not by the
                                 instruction's lanes (cp.async, TMA loads): a line's measured time
                                 and second-block comparison cannot be read as its own */
    bool no_callback;         /* the patching API calls no callback for it, so a recording has
                                 no lanes of it (TMA copies; wgmma operands), only its SASS and
                                 the count run's numbers */
    unsigned phase_floor;     /* widths at which it takes at least one cycle per phase (KINDS_W
                                 bits; 8-byte atomics), per pass */
    const char *width_text;   /* what a wrong width is told: "width is 1, 2, 4, 8 or 16" */
    const char *keys;         /* the keys it takes besides op/width/addresses, space-separated */
    const char *file_op;      /* what files write as "op" when not name ("cp.async" for cp.async.cg) */
    const char *cache;        /* the value of "cache" that selects it ("ca", "cg"); NULL: no key */
    const char *form;         /* the value of "form" that selects it ("popc"); NULL: no key */
    kinds_since since[3];     /* the first architecture with each width */
    kinds_counters counters;  /* NULL names: no counter known */
    const char *ptx;          /* the PTX instruction */
    const char *sass;         /* its SASS opcode(s), '|'-separated */
    const char *not_modelled; /* rule KINDS_RULE_NOT_MODELLED: why (one line) */
    const char *merge;        /* what lanes on one word do, when neither a broadcast nor one write wins */
    const char *source;       /* where the row's facts come from */
} kinds_row;

/* One operation of a shared atomic (banks_atomic order). */
typedef struct kinds_atomic_row {
    const char *name;       /* as in files and PTX: "add" */
    int passes;             /* passes over the banks (cas: 2, the conflicts counted once) */
    bool returns_only;      /* no red form (exch, cas) */
    unsigned widths;        /* widths that are one instruction (KINDS_W bits) */
    const char *width_text; /* why another width of the kind is refused */
} kinds_atomic_row;

/* The row of atomic operation a, or NULL. */
const kinds_atomic_row *kinds_atomic(banks_atomic a);
/* The operation named name, into *a; false for an unknown name. */
bool kinds_atomic_parse(const char *name, banks_atomic *a);

/* All rows, modelled kinds first in banks_op order (row i has op i), count in *n. */
const kinds_row *kinds_table(int *n);
/* The row of op (a banks_op), or NULL. */
const kinds_row *kinds_of(banks_op op);
/* The row named name (as in files), or NULL. */
const kinds_row *kinds_find(const char *name);
/* The modelled or not-modelled kind a file names by "op" and "cache" (cache NULL: the key is
 * absent), or NULL: ("cp.async", "cg") is cp.async.cg, ("cp.async", NULL) and ("cp.async", "ca")
 * cp.async, ("load", NULL) load. Only rows with an op are found. */
const kinds_row *kinds_find_op(const char *op, const char *cache);
/* The kind a file names by "op" and "form" ("atomic", "popc": atomic.popc), or NULL. */
const kinds_row *kinds_find_form(const char *op, const char *form);
/* The key beside "op" that selects row in files ("cache" or "form") and its value, into *value;
 * NULL when row is named by "op" alone. */
const char *kinds_select_key(const kinds_row *row, const char **value);
/* The message for an unknown "op": 'op is "load", "store", ... or "cp.async"' (every value files
 * may write, from the table), into buf, which is returned. */
const char *kinds_op_message(char *buf, size_t n);
/* What files write as "op" for row: file_op, or the name. */
const char *kinds_op_text(const kinds_row *row);
/* The first row one of whose SASS opcodes is the first word of sass ("LDSM.16.M88.4" finds
 * ldmatrix; suffixes after a '.' are ignored), or NULL. */
const kinds_row *kinds_find_sass(const char *sass);
/* The row of a SASS line's opcode, its predicate ("@P0 ") and leading blanks skipped, or NULL. */
const kinds_row *kinds_find_sass_line(const char *text);
/* The distinct metric names of row's counter group (every row with its counters.group), in table
 * order, into names (at most max); returns how many (0: the row has no counters). */
int kinds_counter_group(const kinds_row *row, const char **names, int max);
/* True when row takes width bytes per lane. */
bool kinds_width_ok(const kinds_row *row, int width);
/* True when key (e.g. "matrices") is one of the keys row takes. */
bool kinds_takes_key(const kinds_row *row, const char *key);
/* NULL when profile p's GPU has row at width, else one line naming the first architecture that
 * has it: "ldmatrix exists from sm_75, not on sm_50", "8-byte atomic exists from sm_20, not on
 * sm_13" (into buf, which is returned). */
const char *kinds_arch_problem(const kinds_row *row, int width, const banks_profile *p, char *buf, size_t n);

#endif
