/* scenario: what the user describes (shared arrays, block shape, loop, accesses, or a trace of
 * raw addresses) and its expansion into warp-instructions with per-lane addresses.
 *
 * A scenario owns everything it points to. scenario_finish validates it and derives the layout
 * (array bases, element sizes, access widths); after that the scenario is read-only and every
 * function here is pure. Errors name the offending item by a JSON-like path ("accesses[1].field")
 * so the file reader can turn it into a line and column. */
#ifndef BANKSCOPE_SCENARIO_H
#define BANKSCOPE_SCENARIO_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "banks.h"
#include "expr.h"
#include "types.h"

#define SCENARIO_MAX_DIMS 3
#define SCENARIO_MAX_THREADS 1024
#define SCENARIO_MAX_ITERATIONS 4096 /* of the whole loop nest (the product of its loops) */
#define SCENARIO_MAX_LOOPS EXPR_MAX_LOOPS
#define SCENARIO_MAX_ARRAYS 64 /* what a scenario file may hold */
#define SCENARIO_MAX_ACCESSES 256

typedef struct scenario_array {
    char *name;      /* owned */
    char *type_name; /* owned; as written */
    types_ref type;
    int ndims;
    int64_t dims[SCENARIO_MAX_DIMS]; /* logical extents */
    int64_t pad[SCENARIO_MAX_DIMS];  /* padding elements added to each extent */
    int64_t base;                    /* requested byte offset in shared memory; -1: automatic */
    /* owned, as written; NULL: none. "32B", "64B", "128B" (the TMA/wgmma modes, CuTe
     * Swizzle<1,4,3>, <2,4,3>, <3,4,3> on byte offsets) or "Swizzle<B,M,S>" (CuTe's Swizzle on
     * element offsets; elements of 2^k bytes) */
    char *swizzle;
    /* derived by scenario_finish (which may run again after an edit) */
    int64_t start;                     /* byte offset actually used */
    int64_t extent[SCENARIO_MAX_DIMS]; /* dims + pad */
    int64_t elem_size;
    int64_t bytes;
    /* the swizzle on BYTE offsets inside the array (scenario_swizzle_offset): the swz_bits bits
     * from bit swz_base + swz_shift are XOR-ed into the swz_bits bits from bit swz_base.
     * Swizzle<B,M,S> on elements of 2^k bytes is bits B, base M + k, shift S. swz_bits 0: none.
     * Invariants: swz_shift >= swz_bits >= 1 when set (a bijection that keeps every 2^(base +
     * shift)-byte block in place), base + shift + bits <= 62, bytes a multiple of 2^(base +
     * shift); swz_tma (the three TMA modes) also means start is a multiple of
     * 2^(base + shift + bits), as the hardware swizzles absolute address bits. */
    int swz_bits, swz_base, swz_shift;
    bool swz_tma;
} scenario_array;

/* Where something comes from in the user's source: the file, the 1-based line and column and the
 * text of that line (as bankscope import and recordings find them). Owned strings; NULL or 0 is
 * unknown, field by field. */
typedef struct scenario_srcloc {
    char *file; /* owned, NULL: unknown */
    int line;   /* 1-based, 0: unknown */
    int column; /* 1-based, 0: unknown */
    char *text; /* owned: the source line, without its newline; NULL: unknown */
    /* a recording's trace entry: where it ran */
    char *sass; /* owned: the SASS instruction; NULL: unknown */
    int warp;   /* the warp of the block that executed it; -1 (or sass NULL): unknown */
    int64_t pc; /* the SASS instruction's byte offset in the kernel; -1 (or sass NULL): unknown */
} scenario_srcloc;

/* Free what l owns and leave it unknown. */
void scenario_srcloc_free(scenario_srcloc *l);
/* Deep copy of src into *dst (which owns nothing yet). */
void scenario_srcloc_copy(const scenario_srcloc *src, scenario_srcloc *dst);
/* True when any field is known. */
bool scenario_srcloc_known(const scenario_srcloc *l);
/* Set every field (strings copied, NULL allowed), freeing what *l owned. */
void scenario_srcloc_set(scenario_srcloc *l, const char *file, int line, int column, const char *text);

typedef struct scenario_access {
    banks_op op;
    int matrices;        /* ldmatrix/stmatrix: 1, 2 or 4 */
    bool trans;          /* ldmatrix/stmatrix .trans */
    banks_atomic atomic; /* atomic: the operation */
    bool returns;        /* atomic: atom (true) or red (false) */
    char *array_name;    /* owned */
    int nidx;
    char *index_text[SCENARIO_MAX_DIMS]; /* owned */
    expr index[SCENARIO_MAX_DIMS];
    char *when_text; /* owned, NULL: every thread */
    expr when;
    char *field;        /* owned, NULL: the whole element */
    char *vector;       /* owned, NULL: no reinterpretation */
    char *label;        /* owned, optional */
    char *source;       /* owned, optional: the source line it comes from (bankscope import) */
    scenario_srcloc at; /* where it is in the user's source (file, line, column, text) */
    /* the innermost loop around it (an index into loops; -1: outside every loop). It runs once
     * per iteration of its loop and of the loops around that; a loop that is not around it is
     * at its first iteration, or at its last when an access of that loop comes earlier in the
     * list (the access follows the loop in the source). */
    int loop;
    /* derived */
    int array;
    int offset;              /* bytes from the element start (field offset) */
    int width;               /* bytes per lane */
    unsigned outside, after; /* loops not around it (bit k: loops[k]); those of them it follows */
    int align;               /* alignment the access needs */
    char *type_text;         /* owned: C type of what one lane reads */
} scenario_access;

typedef enum scenario_loop_kind { SCENARIO_LOOP_ADD, SCENARIO_LOOP_MUL, SCENARIO_LOOP_DIV } scenario_loop_kind;

typedef struct scenario_loop {
    char *var;              /* owned, NULL: no loop */
    int64_t from, to, step; /* for (var = from; var < to (or > to); var += step / *= / /=) */
    scenario_loop_kind kind;
    int parent; /* the loop around it (an earlier index), -1: none */
    /* derived */
    int count;       /* iterations */
    int64_t *values; /* owned: its value at each of its iterations */
    int64_t stride;  /* iteration it of the nest is iteration (it / stride) % count of this loop */
} scenario_loop;

typedef struct scenario {
    char *name, *description; /* owned, may be NULL */
    const banks_profile *arch;
    int block[3];
    types_registry types;
    scenario_array *arrays;
    int narrays;
    scenario_access *accesses;
    int naccesses;
    /* the loop nest: loops[k] is expression variable EXPR_LOOP + k; a parent comes before its
     * children; loops[0].var NULL: no loop. One loop and accesses with loop 0: the version 1
     * format's single loop around every access. */
    scenario_loop loops[SCENARIO_MAX_LOOPS];
    int nloops;
    bool nested; /* written as a nest ("loops", version 2), even of one loop */
    int *warps;  /* owned; NULL: every warp of the block */
    int nwarps;
    bool is_trace;
    bool recording; /* a recording of a real program ("format": "bankscope-record/1") */
    /* trace mode: the instructions. A reader builds trace and trace_at (owned) and
     * scenario_finish seals them into table; from then on they point into the table, which is
     * immutable and shared by every copy (scenario_table_*), never written again */
    banks_request *trace;
    int ntrace;
    /* NULL: none; else one location per trace entry, unknown where the entry has none (a
     * recording's file, line and the line's text: bankscope record) */
    scenario_srcloc *trace_at;
    struct scenario_table *table; /* a reference held; NULL until sealed */
    /* owned, NULL: as loaded. A recording's trace with a layout applied as a what-if (its
     * addresses remapped, model/whatif.h): the layout's name, which every view shows */
    char *whatif;
    /* derived */
    int64_t loop_values[SCENARIO_MAX_ITERATIONS]; /* loops[0]'s value at each iteration of the nest */
    int iterations;                               /* of the whole nest: the product of its loops */
    int *iter_first; /* owned: active (access, iteration) pairs before iteration it; iterations + 1 */
    int64_t smem_bytes;
} scenario;

/* The shared instruction table of a trace (scenario_table.c): its requests and source map,
 * immutable once sealed, reference-counted (atomically: job threads hold copies). */
typedef struct scenario_table scenario_table;
/* Make s's trace and trace_at (built by a reader, owned by s) its shared table; nothing when s
 * is not a trace or already has one. scenario_finish calls it. */
void scenario_table_seal(scenario *s);
/* Give dst (whose own trace is dropped) src's table: one more reference, nothing copied. */
void scenario_table_share(const scenario *src, scenario *dst);
/* Let go of s's trace (the table's reference, or what a reader built) and empty the fields. */
void scenario_table_drop(scenario *s);
/* Replace s's requests by req (ntrace of them, taken over) keeping its source map (shared, not
 * copied): a layout applied to a recording changes addresses, never where they come from. */
void scenario_table_set_requests(scenario *s, banks_request *req);
/* True when a and b hold the same table (so the same instructions). */
bool scenario_table_same(const scenario *a, const scenario *b);
/* The first trace entry whose kind (op and width) s's architecture lacks, with the reason in
 * why; -1 when every kind exists. Checks each distinct kind once, not each entry. */
int scenario_table_arch_problem(const scenario *s, char *why, size_t n);

/* What the front ends ask without asking which kind the scenario is (scenario_doc.c). A trace
 * has no arrays, accesses, loops or warp selection: those counts are 0 for it. */
/* Whether s describes a layout (arrays, block, loops, accesses with index expressions) that the
 * layout edits change; false for a trace, whose addresses were recorded. */
bool scenario_has_layout(const scenario *s);
/* Whether s is a loop nest as files hold it (version 2): more than one loop, or an access
 * outside the one loop. */
bool scenario_is_nest(const scenario *s);
/* Whether s carries the source map of its instructions (a recording's lines). */
bool scenario_has_source_map(const scenario *s);
/* The source map's entry of instruction k; NULL without a source map or out of range. */
const scenario_srcloc *scenario_source_of(const scenario *s, int64_t k);
/* Access i as described; NULL for a trace (its instructions describe nothing) or out of range. */
const scenario_access *scenario_access_of(const scenario *s, int i);
/* The array access i reads; -1 for a trace's instruction or out of range. */
int scenario_access_array(const scenario *s, int i);
/* The kind of access i (0 <= i < scenario_access_count) as one request: an access's prototype
 * (op, width and the tensor-era fields, no lanes), or a trace's instruction as recorded. */
banks_request scenario_kind_of(const scenario *s, int i);
/* Access i's warp-instruction at that iteration for that warp; a trace's instruction i (it has
 * one iteration and one warp). */
typedef struct scenario_instr scenario_instr;
void scenario_instr_get(const scenario *s, int i, int iteration, int warp, scenario_instr *out);
/* What `access` counts, for messages: "instruction(s)" of a trace, "access(es)" of a description. */
const char *scenario_access_noun(const scenario *s, bool plural);

typedef struct scenario_error {
    char path[96]; /* e.g. "accesses[0].index[1]" */
    int expr_pos;  /* offset inside an expression, -1 when none */
    char msg[256];
} scenario_error;

void scenario_init(scenario *s);
void scenario_free(scenario *s);
/* Remove access i (0 <= i < naccesses), freeing what it owns; the later ones move down. Call
 * scenario_finish again before using s. */
void scenario_access_remove(scenario *s, int i);
/* Validate and derive; false with *err filled on the first problem. Idempotent: call it again
 * after changing padding, dimensions, block or expressions. */
bool scenario_finish(scenario *s, scenario_error *err);
/* Parse every expression of access a (index, when) given the loop variable. */
bool scenario_parse_access(const scenario *s, scenario_access *a, int ai, scenario_error *err);

int scenario_threads(const scenario *s);
/* The innermost loop around access a, or -1. */
int scenario_access_loop(const scenario *s, const scenario_access *a);
/* Accesses of a scenario, or instructions of a trace (what `access` indexes everywhere). */
int scenario_access_count(const scenario *s);
int scenario_warp_count(const scenario *s);
/* Warps analysed (the selection, or all). */
int scenario_selected_warps(const scenario *s);
int scenario_selected_warp(const scenario *s, int k);
/* Warp-instructions analysed: trace entries, or (for each iteration of the loop nest, each
 * access that runs then) x selected warps, ordered by iteration, then access, then warp. */
int64_t scenario_instr_count(const scenario *s);
/* Whether access runs at iteration it of the nest (always, without loops). */
bool scenario_access_active(const scenario *s, int access, int it);
/* The value of loop k at iteration it of the nest. */
int64_t scenario_loop_value(const scenario *s, int k, int it);
/* "k = 3, i = 2": the loops around access (every loop when access < 0) at iteration it; nothing
 * without loops. */
void scenario_iteration_text(const scenario *s, int access, int it, strbuf *out);
/* Whether loop k encloses (or is) loop inner (-1: none). */
bool scenario_loop_encloses(const scenario *s, int k, int inner);

typedef enum scenario_lane_state {
    SCENARIO_LANE_OK,         /* takes part */
    SCENARIO_LANE_NO_THREAD,  /* the block has no thread for this lane */
    SCENARIO_LANE_MASKED,     /* 'when' is false, or inactive in the trace */
    SCENARIO_LANE_OOB,        /* an index is outside the array */
    SCENARIO_LANE_MISALIGNED, /* address not a multiple of the access alignment */
    SCENARIO_LANE_EVAL_ERROR  /* division by zero, overflow, bad shift */
} scenario_lane_state;

typedef struct scenario_lane {
    scenario_lane_state state;
    int tid, tx, ty, tz;
    int64_t index[SCENARIO_MAX_DIMS];
    int64_t address;
    int bad_dim; /* index that is out of bounds or failed (-1: 'when') */
    expr_status eval;
    int eval_pos;
} scenario_lane;

struct scenario_instr {
    int64_t seq; /* position in scenario order */
    int access;  /* -1 for trace entries */
    int iteration;
    int64_t loop_value;
    int warp;
    banks_request req;
    scenario_lane lane[BANKS_WARP];
};

/* The iteration and access of warp-instruction k (0 <= k < scenario_instr_count). */
void scenario_instr_locate(const scenario *s, int64_t k, int *iteration, int *access);
/* Build warp-instruction k (0 <= k < scenario_instr_count). */
void scenario_instr_at(const scenario *s, int64_t k, scenario_instr *out);
/* Build the instruction of one access, iteration and warp. */
void scenario_instr_build(const scenario *s, int access, int iteration, int warp, scenario_instr *out);
/* The same with only what the bank rule and the totals read: the request and each lane's state
 * (the other fields of a lane record are left as they were). For a caller that analyses many
 * instructions and shows none of their lanes (scenario_instr_idle, _threads and _excluded work
 * on it). */
void scenario_instr_build_brief(const scenario *s, int access, int iteration, int warp, scenario_instr *out);
/* Whether access builds the same instruction (all but seq, iteration and loop_value) at every
 * iteration of the nest: no expression of it reads a loop variable. */
bool scenario_access_loop_invariant(const scenario *s, int access);
/* Whether access builds an instruction that depends on the iteration only through the slots of
 * its expressions (the parts that read only the loops, the warp and blockDim, computed once per
 * instruction: "i % 32" in "threadIdx.x + i % 32"): equal keys (scenario_access_key) of one
 * warp give the same instruction, all but seq, iteration and loop_value. */
bool scenario_access_loop_slotted(const scenario *s, int access);
#define SCENARIO_KEY_MAX ((SCENARIO_MAX_DIMS + 1) * EXPR_MAX_SLOTS) /* values of a key at most */
/* The slots of access's expressions at (iteration, warp) into key (at most SCENARIO_KEY_MAX
 * values); returns how many. */
int scenario_access_key(const scenario *s, int access, int iteration, int warp, int64_t *key);
/* True unless every index and 'when' expression of access was proven free of errors (division
 * by zero, overflow, bad shift) for every lane and iteration of s. */
bool scenario_access_may_fail(const scenario *s, int access);
/* Expression nodes one lane evaluates for access (its index dimensions and 'when'): the unit of
 * every work estimate is one lane evaluating one node, and an instruction of access costs
 * BANKS_WARP x (1 + scenario_access_nodes) of them. */
int64_t scenario_access_nodes(const scenario_access *a);

typedef enum scenario_check {
    SCENARIO_CHECK_OK,       /* no error within the budget */
    SCENARIO_CHECK_FAILED,   /* err holds the first error */
    SCENARIO_CHECK_CANCELLED /* *cancel was set before the check ended */
} scenario_check;
/* The evaluation check: the first expression error (division by zero, overflow, bad shift) in
 * scenario order among the warp-instructions that fit in max_lane_ops lane evaluations (each
 * evaluated costs BANKS_WARP x (1 + scenario_access_nodes), so the time is bounded whatever the
 * expressions' length), reported as the path, the expression
 * offset and "division by zero for thread (x,y,z), i = v". Only accesses that may fail are
 * evaluated, so a scenario whose expressions cannot fail costs nothing here. Pure and
 * re-entrant: it reads s only, so a thread may run it on its own copy of a scenario; it stops
 * with SCENARIO_CHECK_CANCELLED soon after *cancel becomes non-zero (cancel may be NULL). */
scenario_check scenario_check_eval_run(const scenario *s, int64_t max_lane_ops, const atomic_int *cancel,
                                       scenario_error *err);
/* The same without cancellation: false when it found an error (err says which). */
bool scenario_check_eval(const scenario *s, int64_t max_lane_ops, scenario_error *err);
/* True when lane l of access is out of bounds only because its access (a vector wider than
 * the element) reaches past the end of the array: every index is inside its extent. */
bool scenario_lane_past_end(const scenario *s, int access, const scenario_lane *l);
/* Human text for a lane's element, e.g. "tile[1][0]" or "p[3].x"; lane must be in bounds. */
void scenario_lane_element(const scenario *s, int access, const scenario_lane *l, strbuf *out);
/* How an array is drawn as a map: rows x cols of elements (the last dimension across, the
 * others down; a 1-D array wraps every 128 bytes). */
void scenario_map_shape(const scenario_array *a, int64_t *rows, int64_t *cols);
/* What map cell e of array a shows (cells row-major, rowlen per row; the field at offset bytes
 * into the element): *slot is the cell's byte offset in the array, *held the element stored
 * there (the swizzle is its own inverse), and the result is true when that element is padding. */
bool scenario_map_cell(const scenario_array *a, int64_t rowlen, int64_t e, int offset, int64_t *slot, int64_t *held);
const char *scenario_lane_state_text(scenario_lane_state st);

/* Lanes of one warp-instruction left out of the analysis because the access cannot happen as
 * written: the hardware would fault (misaligned), the index leaves the array (out of bounds), or
 * an index or 'when' expression failed (division by zero, overflow, bad shift). Lanes without a
 * thread or masked by 'when' are not excluded: they simply do not take part. */
typedef struct scenario_excluded {
    int64_t misaligned; /* int64: also used for totals over many instructions */
    int64_t out_of_bounds;
    int64_t expression_error;
} scenario_excluded;

/* True when no lane of in issues the access: every lane is without a thread or masked ('when'
 * false, inactive in a trace). Such a warp executes no shared-memory instruction (a branch skips
 * it), so totals count it apart from the issued ones. Excluded lanes do issue (and fault or
 * are left out), so an instruction with any is not idle. */
bool scenario_instr_idle(const scenario_instr *in);
/* Lanes of in that have a thread (the block may not fill its last warp): what "N of M lanes"
 * counts M from, in every view. */
int scenario_instr_threads(const scenario_instr *in);
/* Count the excluded lanes of in into *out (overwritten). */
void scenario_instr_excluded(const scenario_instr *in, scenario_excluded *out);
/* Add the counts of add into *sum (totals over many instructions). */
void scenario_excluded_add(scenario_excluded *sum, const scenario_excluded *add);
/* All excluded lanes of e. */
int64_t scenario_excluded_total(const scenario_excluded *e);
const char *scenario_op_text(banks_op op);

/* Array swizzles (scenario_swizzle.c). Byte offset inside array a (from its start) -> the byte
 * offset where it is stored: off ^ (((off >> (base + shift)) & (2^bits - 1)) << base); the
 * identity without a swizzle. Pure; an involution (its own inverse). A lane's address is
 * start + scenario_swizzle_offset(a, element offset + field offset): the lane's first byte is
 * swizzled and the access moves its width contiguous bytes from there, as the hardware does. */
int64_t scenario_swizzle_offset(const scenario_array *a, int64_t byte_offset);
/* Parse a->swizzle (array i) and set swz_bits, swz_base, swz_shift and swz_tma from it and the
 * element size; false with err at "arrays[i].swizzle". */
bool scenario_swizzle_finish(scenario_array *a, int i, scenario_error *err);
/* The alignment the array start needs for its swizzle: 2^(base + shift + bits) bytes for the
 * TMA modes (256, 512, 1024), else 1. */
int64_t scenario_swizzle_align(const scenario_array *a);
/* The byte offset inside the array of lane l's first byte before the swizzle (element offset
 * plus field offset); l must be in bounds (its indexes inside the extents). */
int64_t scenario_lane_offset(const scenario *s, int access, const scenario_lane *l);
/* The swizzle as people name it: "128B", or "Swizzle<3,3,3> (Swizzle<3,4,3> on bytes)" for the
 * element form; nothing without a swizzle. */
void scenario_swizzle_name(const scenario_array *a, strbuf *out);
/* What the swizzle does to byte offset off, e.g. "128B swizzle: offset 448 is 16-byte unit 4 of
 * 128-byte line 3; unit 4 ^ (3 % 8) = 7, so it is stored at offset 496". */
void scenario_swizzle_step(const scenario_array *a, int64_t off, strbuf *out);
/* How the swizzle's lines meet the array's rows, e.g. "the 128B swizzle permutes the 16-byte
 * units of each 128-byte line by the line number mod 8; rows of t are 256 B: 2 lines each". */
void scenario_swizzle_rows(const scenario_array *a, strbuf *out);

/* The tensor-era kinds (scenario_tensor.c). For an access whose op is not a plain load or store:
 * check it and set the bytes one lane moves (*size, from the element type: ldmatrix/stmatrix
 * always 16, a row) and the alignment it needs (*align); false with err filled (path
 * "accesses[i]..."). */
bool scenario_tensor_access(const scenario_access *a, int i, int *size, int *align, scenario_error *err);
/* Copy the access's matrices, trans, atomic and returns into req. */
void scenario_tensor_request(const scenario_access *a, banks_request *req);
/* The kind of an access as one request prototype (op and the tensor-era fields). */
banks_request scenario_access_kind(const scenario_access *a);
/* The instruction as people write it: "load", "ldmatrix.x4.trans", "atom.add", "red.inc",
 * "cp.async"; into buf, which is returned. */
const char *scenario_kind_text(const banks_request *r, char *buf, size_t n);
/* The inverse of scenario_kind_text (also "ld" and "st", as the calibration tables write loads
 * and stores): op, matrices, trans, atomic and returns into *r; false for an unknown text. */
bool scenario_kind_parse(const char *text, banks_request *r);
/* Lanes past 8 x matrices of an ldmatrix/stmatrix give no address: mark them inactive (not
 * excluded), whatever their index expressions say. */
void scenario_tensor_lanes(scenario_instr *in);

#endif
