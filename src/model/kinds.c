/* kinds: the table of shared-memory access kinds (see kinds.h). Sources of the rows:
 * [PTX]  PTX ISA, "Target ISA notes" of each instruction: ld/st.shared all targets; atom.shared
 *        sm_12, 64-bit atom.shared.{add,cas,exch} sm_20 (and, or, xor, min, max: sm_32);
 *        ldmatrix sm_75; stmatrix sm_90; cp.async sm_80; cp.async.bulk (TMA), wgmma, and
 *        ld/st.shared::cluster (distributed shared memory) sm_90.
 * [H200m] tests/data/h200_tensor.tsv and tests/data/h200_dev.tsv (README "Tensor-era kinds"):
 *        which counters see which instruction on GH100 (LDSM and STSM in the op_ld / op_st
 *        hardware counters, ATOMS in op_atom, LDGSTS only in the SASS metrics); cp.async.cg
 *        leaves no shared-memory wavefronts in any counter.
 * [H100m] cp.async.cg on an H100: 0 bank conflicts and 2-29 wavefronts whatever the lanes'
 *        banks: its shared-side counters follow the global source, not the banks.
 * [CUPTI] cuptiProfilerHostGetBaseMetrics for chip GH100 (CUDA 13.0): smsp__inst_executed_op_ldsm
 *        and smsp__inst_executed_op_shared_stsm exist and fit one pass with the op_ld / op_st
 *        counters; smsp__inst_executed_op_shared_ld / _st do not count LDSM / STSM.
 * [H100p] HARDWARE.md "Shared atomics as compilers emit them" (H100, 2026-11-28), checked again by
 *        tests/gpu/calib_popc.sh: ATOMS.POPC.INC merges the lanes on one word (a skewed 256-bin
 *        histogram: 0 excess wavefronts over 131072 instructions); every other ATOMS form counts
 *        every lane.
 * Opcodes: cuobjdump -sass of kernels/measure.cu and tests/gpu/calib_tensor.cu on sm_90. */
#include "kinds.h"

#include <stdio.h>
#include <string.h>

#define W124816 (KINDS_W(1) | KINDS_W(2) | KINDS_W(4) | KINDS_W(8) | KINDS_W(16))
#define L1 "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_"
#define L1C "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_"
#define SASS "smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_"
#define SASSC "smsp__sass_l1tex_data_bank_conflicts_pipe_lsu_mem_shared_op_"

/* Counter groups: the op_ld / op_st hardware counters (one configuration reads loads, stores,
 * ldmatrix and stmatrix), the atomics', and the LDGSTS SASS metrics. */
enum { GROUP_LDST, GROUP_ATOM, GROUP_LDGSTS, GROUP_NONE };

static const kinds_row rows[] = {
    {.name = "load",
     .title = "shared-memory load",
     .op = BANKS_LOAD,
     .widths = W124816,
     .rule = KINDS_RULE_WORDS,
     .reads = true,
     .pairs = true,
     .chain = true,
     .cycles = true,
     .keys = "",
     .width_text = "width is 1, 2, 4, 8 or 16",
     .since = {{W124816, 10}},
     .counters = {L1 "ld.sum", L1C "ld.sum", "smsp__inst_executed_op_shared_ld.sum", GROUP_LDST},
     .ptx = "ld.shared",
     .sass = "LDS",
     .source = "[PTX] [H200m] h200_dev.tsv"},
    {.name = "store",
     .title = "shared-memory store",
     .op = BANKS_STORE,
     .widths = W124816,
     .rule = KINDS_RULE_WORDS,
     .cycles = true,
     .keys = "",
     .width_text = "width is 1, 2, 4, 8 or 16",
     .since = {{W124816, 10}},
     .counters = {L1 "st.sum", L1C "st.sum", "smsp__inst_executed_op_shared_st.sum", GROUP_LDST},
     .ptx = "st.shared",
     .sass = "STS",
     .source = "[PTX] [H200m] h200_dev.tsv"},
    {.name = "ldmatrix",
     .title = "ldmatrix (m8n8 .b16 rows to registers)",
     .op = BANKS_LDMATRIX,
     .widths = KINDS_W(16),
     .rule = KINDS_RULE_MATRIX,
     .reads = true,
     .chain = true,
     .cycles = true,
     .keys = "matrices trans",
     .width_text = "a matrix row is 16 bytes (8 16-bit elements)",
     .since = {{KINDS_W(16), 75}},
     .counters = {L1 "ld.sum", L1C "ld.sum", "smsp__inst_executed_op_ldsm.sum", GROUP_LDST},
     .ptx = "ldmatrix.sync.aligned.m8n8.shared.b16",
     .sass = "LDSM",
     .source = "[PTX] [H200m] h200_tensor.tsv [CUPTI]"},
    {.name = "stmatrix",
     .title = "stmatrix (registers to m8n8 .b16 rows)",
     .op = BANKS_STMATRIX,
     .widths = KINDS_W(16),
     .rule = KINDS_RULE_MATRIX,
     .cycles = true,
     .keys = "matrices trans",
     .width_text = "a matrix row is 16 bytes (8 16-bit elements)",
     .since = {{KINDS_W(16), 90}},
     .counters = {L1 "st.sum", L1C "st.sum", "smsp__inst_executed_op_shared_stsm.sum", GROUP_LDST},
     .ptx = "stmatrix.sync.aligned.m8n8.shared.b16",
     .sass = "STSM",
     .source = "[PTX] [H200m] h200_tensor.tsv [CUPTI]"},
    {.name = "atomic",
     .title = "shared-memory atomic (atom / red)",
     .op = BANKS_ATOMIC,
     .widths = KINDS_W(4) | KINDS_W(8),
     .rule = KINDS_RULE_LANES,
     .cycles = true,
     .keys = "atomic returns",
     .width_text = "shared atomics are 4 or 8 bytes wide",
     .phase_floor = KINDS_W(8), /* [H200m] exch, one lane: 1 wavefront, 2.00 cycles; cas 4.00 */
     .since = {{KINDS_W(4), 12}, {KINDS_W(8), 20}},
     .counters = {L1 "atom.sum", L1C "atom.sum", "smsp__inst_executed_op_shared_atom.sum", GROUP_ATOM},
     .ptx = "atom.shared / red.shared",
     .sass = "ATOMS|ATOMS.CAS|ATOMS.CAST",
     .source = "[PTX] [H200m] h200_tensor.tsv"},
    {.name = "cp.async",
     .title = "cp.async.ca (global to shared through L1)",
     .op = BANKS_CP_ASYNC,
     .widths = KINDS_W(4) | KINDS_W(8) | KINDS_W(16),
     .rule = KINDS_RULE_LANES,
     .keys = "cache",
     .cache = "ca",
     .width_text = "cp.async copies 4, 8 or 16 bytes",
     .since = {{KINDS_W(4) | KINDS_W(8) | KINDS_W(16), 80}},
     .counters = {SASS "ldgsts.sum", SASSC "ldgsts.sum", "smsp__sass_inst_executed_op_ldgsts.sum", GROUP_LDGSTS},
     .ptx = "cp.async.ca.shared.global",
     .sass = "LDGSTS",
     .fills_async = true,
     .source = "[PTX] [H200m] h200_tensor.tsv"},
    {.name = "cp.async.cg",
     .title = "cp.async.cg (global to shared, L1 bypassed)",
     .op = BANKS_CP_ASYNC_CG,
     .widths = KINDS_W(16),
     .rule = KINDS_RULE_NOT_MODELLED,
     .keys = "cache",
     .file_op = "cp.async",
     .cache = "cg",
     .width_text = "cp.async.cg copies 16 bytes",
     .since = {{KINDS_W(16), 80}},
     .counters = {SASS "ldgsts.sum", SASSC "ldgsts.sum", "smsp__sass_inst_executed_op_ldgsts.sum", GROUP_LDGSTS},
     .ptx = "cp.async.cg.shared.global",
     .sass = "LDGSTS.E.BYPASS",
     .fills_async = true,
     .not_modelled = "cp.async.cg bypasses L1: its shared-side wavefronts follow the global source, not the "
                     "banks (measured on an H100: 0 bank conflicts, 2-29 wavefronts)",
     .source = "[PTX] [H200m] [H100m]"},
    /* [H100p] atomicAdd(&s[i], 1u) whose result is unused: nvcc emits atom.shared.add.u32 with the
     * constant 1 and ptxas turns it into ATOMS.POPC.INC.32, which counts the lanes of each word
     * once (a population count) and adds that: lanes on one word merge. Its wavefronts follow the
     * most distinct words in one bank, as a load's (32 lanes on one word: 1 wavefront). */
    {.name = "atomic.popc",
     .title = "shared-memory atomic add of 1, lanes on one word merged (ATOMS.POPC.INC)",
     .op = BANKS_ATOMIC_POPC,
     .widths = KINDS_W(4),
     .rule = KINDS_RULE_WORDS,
     .cycles = true,
     .keys = "form",
     .file_op = "atomic",
     .form = "popc",
     .width_text = "atomic.popc is a 4-byte add of 1",
     .since = {{KINDS_W(4), 12}},
     .counters = {L1 "atom.sum", L1C "atom.sum", "smsp__inst_executed_op_shared_atom.sum", GROUP_ATOM},
     .ptx = "atom.shared.add.u32 [a], 1 (result unused)",
     .sass = "ATOMS.POPC.INC",
     .merge = "their adds of 1 merge into one add of their count",
     .source = "[PTX] [H100p]"},
    /* Kinds a recording can meet that the model does not cover. */
    {.name = "cp.async.bulk",
     .title = "TMA bulk copy (cp.async.bulk, cp.async.bulk.tensor)",
     .op = -1,
     .widths = 0,
     .rule = KINDS_RULE_NOT_MODELLED,
     .keys = "",
     .since = {{0, 90}},
     .ptx = "cp.async.bulk.shared::cluster.global / cp.async.bulk.tensor",
     .sass = "UBLKCP|UTMALDG",
     .fills_async = true,
     .no_callback = true,
     .not_modelled = "a TMA bulk copy is done by the tensor memory accelerator, not by the lanes of a warp: "
                     "it has no per-lane addresses for the bank model",
     .source = "[PTX]; no callback: cp.async.bulk (UBLKCP) recorded on an H100, CUDA 13.0"},
    {.name = "cp.async.bulk.store",
     .title = "TMA bulk copy or reduction out of shared memory (cp.async.bulk.tensor, cp.reduce.async.bulk)",
     .op = -1,
     .widths = 0,
     .rule = KINDS_RULE_NOT_MODELLED,
     .keys = "",
     .since = {{0, 90}},
     .ptx = "cp.async.bulk.tensor.global.shared::cta / cp.reduce.async.bulk",
     .sass = "UTMASTG|UTMAREDG|UBLKRED",
     .no_callback = true,
     .not_modelled = "a TMA bulk copy is done by the tensor memory accelerator, not by the lanes of a warp: "
                     "it has no per-lane addresses for the bank model",
     .source = "[PTX]"},
    {.name = "wgmma",
     .title = "wgmma operands read from shared memory",
     .op = -1,
     .widths = 0,
     .rule = KINDS_RULE_NOT_MODELLED,
     .keys = "",
     .since = {{0, 90}},
     .counters = {NULL, NULL, "smsp__sass_inst_executed_op_shared_gmma.sum", GROUP_NONE},
     .ptx = "wgmma.mma_async",
     .sass = "HGMMA|QGMMA|IGMMA|BGMMA",
     .no_callback = true,
     .not_modelled = "wgmma reads its A/B operands through matrix descriptors for a warpgroup: the model "
                     "has no rule for how those reads meet the banks",
     .source = "[PTX] TOOLCHAIN.md (SASS metrics on an H100)"},
    {.name = "dsmem",
     .title = "distributed shared memory (another block of the cluster)",
     .op = -1,
     .widths = 0,
     .rule = KINDS_RULE_NOT_MODELLED,
     .keys = "",
     .since = {{0, 90}},
     .ptx = "ld/st/atom/red.shared::cluster",
     .not_modelled = "an access to another block's shared memory goes over the SM-to-SM network: the model "
                     "has no rule for it",
     .source = "[PTX]"},
};

/* [H200m] 8-byte add/min/max/and/or/xor on shared memory compile to a compare-and-swap loop
 * (cuobjdump: LDS.64 + ATOMS.CAST.SPIN.64) whose wavefronts depend on the data; ATOMS.CAS takes
 * two passes (2 x the lanes of the busiest bank in wavefronts), the conflicts counted once. */
#define CAS_LOOP                                                                                                       \
    "8-byte shared atomics other than exch and cas are a compare-and-swap loop on sm_90 "                              \
    "(ATOMS.CAST.SPIN.64), not one instruction: their cost depends on the data"
static const kinds_atomic_row atomics[] = {
    [BANKS_ATOM_ADD] = {.name = "add", .passes = 1, .widths = KINDS_W(4), .width_text = CAS_LOOP},
    [BANKS_ATOM_MIN] = {.name = "min", .passes = 1, .widths = KINDS_W(4), .width_text = CAS_LOOP},
    [BANKS_ATOM_MAX] = {.name = "max", .passes = 1, .widths = KINDS_W(4), .width_text = CAS_LOOP},
    [BANKS_ATOM_AND] = {.name = "and", .passes = 1, .widths = KINDS_W(4), .width_text = CAS_LOOP},
    [BANKS_ATOM_OR] = {.name = "or", .passes = 1, .widths = KINDS_W(4), .width_text = CAS_LOOP},
    [BANKS_ATOM_XOR] = {.name = "xor", .passes = 1, .widths = KINDS_W(4), .width_text = CAS_LOOP},
    [BANKS_ATOM_EXCH] = {.name = "exch", .passes = 1, .returns_only = true, .widths = KINDS_W(4) | KINDS_W(8)},
    [BANKS_ATOM_CAS] = {.name = "cas", .passes = 2, .returns_only = true, .widths = KINDS_W(4) | KINDS_W(8)},
    [BANKS_ATOM_INC] = {.name = "inc", .passes = 1, .widths = KINDS_W(4), .width_text = "inc is 32-bit only"},
};
_Static_assert(sizeof atomics / sizeof atomics[0] == BANKS_ATOM_INC + 1, "every banks_atomic has a row");

const kinds_atomic_row *kinds_atomic(banks_atomic a)
{
    return (unsigned)a <= BANKS_ATOM_INC ? &atomics[a] : NULL;
}

bool kinds_atomic_parse(const char *name, banks_atomic *a)
{
    for (int i = 0; name && i <= BANKS_ATOM_INC; i++)
        if (strcmp(name, atomics[i].name) == 0) {
            *a = (banks_atomic)i;
            return true;
        }
    return false;
}

#define NROWS ((int)(sizeof rows / sizeof rows[0]))
_Static_assert(BANKS_OP_COUNT <= NROWS, "every banks_op has a row");

const kinds_row *kinds_table(int *n)
{
    *n = NROWS;
    return rows;
}

const kinds_row *kinds_of(banks_op op)
{
    if ((unsigned)op >= BANKS_OP_COUNT)
        return NULL;
    return &rows[op];
}

const kinds_row *kinds_find(const char *name)
{
    for (int i = 0; name && i < NROWS; i++)
        if (strcmp(rows[i].name, name) == 0)
            return &rows[i];
    return NULL;
}

const char *kinds_op_message(char *buf, size_t n)
{
    const kinds_row *ops[NROWS] = {NULL};
    int k = 0;
    for (int i = 0; i < NROWS; i++)
        if (rows[i].op >= 0 && !rows[i].file_op)
            ops[k++] = &rows[i];
    size_t at = (size_t)snprintf(buf, n, "op is");
    for (int i = 0; i < k && at < n; i++)
        at += (size_t)snprintf(buf + at, n - at, "%s\"%s\"", i == 0 ? " " : i + 1 < k ? ", " : " or ", ops[i]->name);
    return buf;
}

const char *kinds_op_text(const kinds_row *row)
{
    return row->file_op ? row->file_op : row->name;
}

const kinds_row *kinds_find_op(const char *op, const char *cache)
{
    for (int i = 0; op && i < NROWS; i++) {
        const kinds_row *k = &rows[i];
        if (k->op < 0 || strcmp(kinds_op_text(k), op) != 0)
            continue;
        if (cache ? k->cache && strcmp(k->cache, cache) == 0 : !k->file_op)
            return k;
    }
    return NULL;
}

const kinds_row *kinds_find_form(const char *op, const char *form)
{
    for (int i = 0; op && form && i < NROWS; i++) {
        const kinds_row *k = &rows[i];
        if (k->op >= 0 && k->form && strcmp(kinds_op_text(k), op) == 0 && strcmp(k->form, form) == 0)
            return k;
    }
    return NULL;
}

const char *kinds_select_key(const kinds_row *row, const char **value)
{
    if (!row->file_op)
        return NULL;
    *value = row->cache ? row->cache : row->form;
    return row->cache ? "cache" : "form";
}

/* Length of the opcode of row r that starts sass and ends there or at a '.' or blank: 0 for none. */
static size_t opcode_match(const kinds_row *r, const char *sass)
{
    size_t best = 0, have = strlen(sass);
    for (const char *o = r->sass; o && *o;) {
        size_t len = strcspn(o, "|");
        if (len <= have && strncmp(o, sass, len) == 0 && strchr(". \t", sass[len]) && len > best)
            best = len; /* strchr also finds the terminating '\0' */
        o += len + (o[len] == '|');
    }
    return best;
}

const kinds_row *kinds_find_sass(const char *sass)
{
    const kinds_row *found = NULL;
    size_t best = 0;
    for (int i = 0; sass && i < NROWS; i++) { /* the longest opcode wins: LDGSTS.E.BYPASS over LDGSTS */
        size_t len = opcode_match(&rows[i], sass);
        if (len > best) {
            best = len;
            found = &rows[i];
        }
    }
    return found;
}

const kinds_row *kinds_find_sass_line(const char *text)
{
    if (!text)
        return NULL;
    const char *p = text + strspn(text, " \t");
    if (*p == '@')
        p += strcspn(p, " \t"), p += strspn(p, " \t");
    return kinds_find_sass(p);
}

int kinds_counter_group(const kinds_row *row, const char **names, int max)
{
    int n = 0;
    if (!row->counters.wavefronts)
        return 0;
    for (int i = 0; i < NROWS; i++) {
        const kinds_counters *c = &rows[i].counters;
        if (!c->wavefronts || c->group != row->counters.group)
            continue;
        const char *mine[3] = {c->wavefronts, c->conflicts, c->instructions};
        for (int k = 0; k < 3; k++) {
            bool seen = false;
            for (int j = 0; j < n && !seen; j++)
                seen = strcmp(names[j], mine[k]) == 0;
            if (!seen && n < max)
                names[n++] = mine[k];
        }
    }
    return n;
}

bool kinds_width_ok(const kinds_row *row, int width)
{
    return width > 0 && width < 32 && (row->widths & KINDS_W(width));
}

bool kinds_takes_key(const kinds_row *row, const char *key)
{
    size_t n = strlen(key);
    for (const char *k = row->keys; k && *k;) {
        size_t len = strcspn(k, " ");
        if (len == n && strncmp(k, key, n) == 0)
            return true;
        k += len + (k[len] == ' ');
    }
    return false;
}

/* The architecture (cc x 10) from which row exists with width bytes per lane; 0 when it never
 * does at this width. */
static int kinds_since_cc(const kinds_row *row, int width)
{
    for (int i = 0; i < 3 && row->since[i].widths; i++)
        if (width > 0 && width < 32 && (row->since[i].widths & KINDS_W(width)))
            return row->since[i].cc;
    return 0;
}

const char *kinds_arch_problem(const kinds_row *row, int width, const banks_profile *p, char *buf, size_t n)
{
    int cc = row ? kinds_since_cc(row, width) : 0;
    if (cc == 0 || p->cc >= cc)
        return NULL;
    if (row->since[1].widths) /* the width decides: "8-byte atomic" */
        snprintf(buf, n, "%d-byte %s exists from sm_%d, not on %s", width, row->name, cc, p->name);
    else
        snprintf(buf, n, "%s exists from sm_%d, not on %s", row->name, cc, p->name);
    return buf;
}
