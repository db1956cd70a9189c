/* banks: architecture profiles and the bank engine.
 *
 * One warp-instruction (a banks_request: op, width, 32 lane addresses, active mask) goes in; out
 * comes how the hardware serves it: the phases the request is split into, the wavefronts each
 * phase needs, the conflict degree, Nsight Compute's bank-conflict count, and for every lane the
 * phase and wavefront that serve it. Pure: no globals, no I/O, no allocation.
 *
 * Units: addresses are byte offsets into shared memory; a "bank word" is profile.bank_bytes wide.
 * Invariants of a banks_result: wavefronts = ideal_wavefronts + bank_conflicts;
 * ideal_wavefronts = number of phases with at least one active lane, except for atomic cas, which
 * takes two passes of which Nsight Compute counts the conflicts once (banks_tensor.c). */
#ifndef BANKSCOPE_BANKS_H
#define BANKSCOPE_BANKS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define BANKS_WARP 32       /* lanes in a warp, on every architecture covered */
#define BANKS_MAX_BANKS 32  /* the most banks any profile has */
#define BANKS_MAX_PHASES 16 /* cc 1.x 16-byte: 4 word requests x 2 half-warps = 8 */
#define BANKS_MAX_ROWS 128  /* wavefronts of the worst request of any profile */

/* What a warp-instruction does; each op is a row of the kinds table (kinds.h: widths, rule,
 * architectures, counters, opcodes). The tensor-era kinds (banks_tensor.c) are modelled on sm_90
 * from tests/data/h200_tensor.tsv: ldmatrix/stmatrix (m8n8 .b16: lane l gives the 16-byte row
 * address of matrix l / 8), shared atomics (atom with a returned value, red without) and cp.async
 * (the shared-memory side of cp.async.ca.shared.global). cp.async.cg is a kind the model does not
 * cover: banks_analyze answers not_modelled. The numbers are those of kernels/measure.cu's BS_OP. */
typedef enum banks_op {
    BANKS_LOAD,
    BANKS_STORE,
    BANKS_LDMATRIX,
    BANKS_STMATRIX,
    BANKS_ATOMIC,
    BANKS_CP_ASYNC,
    BANKS_CP_ASYNC_CG,
    BANKS_ATOMIC_POPC, /* atomicAdd(p, 1) with its result unused: ATOMS.POPC.INC (lanes on a word merge) */
    BANKS_OP_COUNT
} banks_op;

/* The operation of a shared atomic (PTX atom/red .add .min .max .and .or .xor .exch .cas .inc). */
typedef enum banks_atomic {
    BANKS_ATOM_ADD,
    BANKS_ATOM_MIN,
    BANKS_ATOM_MAX,
    BANKS_ATOM_AND,
    BANKS_ATOM_OR,
    BANKS_ATOM_XOR,
    BANKS_ATOM_EXCH,
    BANKS_ATOM_CAS,
    BANKS_ATOM_INC
} banks_atomic;

/* The bank rules of one GPU generation. Every number that is hardware lives here. */
typedef struct banks_profile {
    const char *name;      /* as written in files and on the command line: "sm_90" */
    const char *title;     /* one line for people */
    const char *source;    /* where the rules come from */
    int cc;                /* compute capability x 10 of the GPUs it models (sm_35_8byte: 35) */
    int banks;             /* banks per SM */
    int bank_bytes;        /* bytes a bank serves per clock */
    int request_lanes;     /* lanes served as one request: 32, or 16 (cc 1.x half-warps) */
    int wavefront_bytes;   /* most data one wavefront carries (splits 8/16-byte accesses) */
    int same_slot_words;   /* bank words in one bank that never conflict: 1; Kepler 4-byte mode 2 */
    int bank_shift;        /* log2(bank_bytes): bank counts and widths are powers of two */
    int slot_shift;        /* log2(banks * same_slot_words): word >> slot_shift is its slot */
    bool load_pairing;     /* sm_90: loads whose lanes pair up (n^1 or n^2) merge phases */
    bool split_wide;       /* cc 1.x: 8/16-byte accesses issue as separate 32-bit requests */
    bool single_broadcast; /* cc 1.x: one broadcast word per step, one lane per other bank */
    int smem_per_sm;       /* bytes of shared memory per SM */
    int smem_per_block;    /* most bytes one block may use */
    int smem_reserved;     /* bytes the system reserves per block */
    int smem_granularity;  /* per-block allocation unit in bytes */
    int threads_per_sm;
    int blocks_per_sm;
    bool measured;     /* rules checked against hardware counters */
    bool phase_cycles; /* sm_90: a load, or a store of register data, takes at least one
                          clock per phase of its request, empty phases included */
} banks_profile;

/* The profile named name ("sm_90", "sm_86", "sm_35_8byte", "cc1x"...), or NULL. */
const banks_profile *banks_profile_find(const char *name);
/* The reference profile, sm_90. */
const banks_profile *banks_profile_default(void);
/* All profiles, count in *n, in the order a selector shows them. */
const banks_profile *banks_profiles(int *n);
/* The profiles' names as one list for people ("sm_90, sm_89, ..."), written into out (n bytes,
 * always terminated; cut at a name when too small). Generated from the table, so a new profile is
 * named everywhere the list is shown. */
void banks_profile_names(char *out, size_t n);

/* One warp-instruction. Lanes whose bit is clear in active are ignored. */
typedef struct banks_request {
    banks_op op;
    int width;                /* bytes per lane: 1, 2, 4, 8 or 16 (ldmatrix/stmatrix: 16, a row) */
    int matrices;             /* ldmatrix/stmatrix: 1, 2 or 4 (lanes past 8 x matrices are ignored) */
    bool trans;               /* ldmatrix/stmatrix .trans (same banks: it moves the same rows) */
    banks_atomic atomic;      /* atomics: the operation */
    bool returns;             /* atomics: atom (true) or red (false) */
    uint32_t active;          /* bit l: lane l takes part */
    int64_t addr[BANKS_WARP]; /* byte address per lane, >= 0 */
} banks_request;

/* Four bytes, so that the engine writes a lane with one store. */
typedef struct banks_lane {
    int8_t phase;      /* phase serving the lane (first, for split requests); -1 inactive */
    bool broadcast;    /* an earlier lane in the same phase touches the same bank word */
    int16_t wavefront; /* row (0-based over the whole request) serving the lane's first word */
} banks_lane;

typedef struct banks_phase {
    uint32_t lanes; /* lanes the phase covers */
    int sub;        /* for split requests: which 32-bit part of the access */
    int first_row;  /* row of its first wavefront */
    int wavefronts; /* 0 when no active lane */
    int degree;     /* most distinct words one bank serves in it */
} banks_phase;

typedef struct banks_result {
    int wavefronts;
    int ideal_wavefronts; /* phases with an active lane: the cost without conflicts */
    int bank_conflicts;   /* wavefronts - ideal, as Nsight Compute counts them */
    int conflict_degree;  /* most distinct words one bank serves in one phase (1 = none) */
    int active_lanes;
    int broadcast_lanes;
    bool paired;       /* sm_90 load pairing merged phases */
    bool not_modelled; /* a kind the model does not cover (kinds.h): every count above but
                          active_lanes is 0 and no lane has a phase; say "not modelled", never
                          a verdict */
    int nphases;
    banks_phase phase[BANKS_MAX_PHASES];
    banks_lane lane[BANKS_WARP];
} banks_result;

/* One cell of the bank grid: which lanes a bank serves in one wavefront, and the bank word. */
typedef struct banks_cell {
    uint32_t lanes; /* 0: the bank is idle in this wavefront */
    int64_t word;   /* bank word served (address / bank_bytes) */
} banks_cell;

/* True when width is one the hardware has (1, 2, 4, 8, 16). */
bool banks_width_ok(int width);
/* NULL when req's op, width, matrices and atomic kind form one instruction the model covers, else
 * why not (one line, for an error message). */
const char *banks_request_problem(const banks_request *req);
/* Names as written in files: "load", "store", "ldmatrix", "stmatrix", "atomic", "cp.async"; and
 * "add" ... "inc". The parsers return false for an unknown name. */
const char *banks_op_name(banks_op op);
bool banks_op_parse(const char *name, banks_op *op);
const char *banks_atomic_name(banks_atomic a);
bool banks_atomic_parse(const char *name, banks_atomic *a);
/* Alignment in bytes that the access of req needs per lane (ldmatrix rows: 16). */
int banks_request_align(const banks_request *req);

/* Analyse req under profile p (every field of out is written; phase entries at and past
 * out->nphases are unspecified). When cells is not NULL it must hold BANKS_MAX_ROWS * p->banks
 * cells; row r, bank b is cells[r * p->banks + b] (rows up to result->wavefronts are filled).
 * req must satisfy banks_width_ok and have non-negative addresses for active lanes. */
void banks_analyze(const banks_profile *p, const banks_request *req, banks_result *out, banks_cell *cells);

/* Throughput cycles per SM of the warp-instruction req analysed as r: its wavefronts, or one
 * clock per phase where the profile says so (phase_cycles) and that is more. register_data
 * false: a store of the zero register, which reads no register data and skips empty phases. */
double banks_issue_cycles(const banks_profile *p, const banks_request *req, const banks_result *r, bool register_data);
/* Bank of a byte address, and its bank word. */
int banks_bank_of(const banks_profile *p, int64_t addr);
int64_t banks_word_of(const banks_profile *p, int64_t addr);

#endif
