/* measure_plan: kernel source + request + prediction for one access. */
#include "measure_plan.h"

#include <math.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

#include "io/library.h"
#include "io/load.h"
#include "model/kernelgen.h"
#include "model/kinds.h"

/* ldmatrix/stmatrix: every lane of a warp issues them, so a warp that takes part must give a
 * row in each of its 8 x matrices lanes: the kernel cannot leave a row out as the model would. */
static bool measure_plan_matrix_ok(const scenario_instr *in, int w, char *err, size_t n)
{
    if (kinds_of(in->req.op)->rule != KINDS_RULE_MATRIX || !in->req.active)
        return true;
    for (int l = 0; l < 8 * in->req.matrices; l++)
        if (!((in->req.active >> l) & 1)) {
            snprintf(err, n, "warp %d lane %d gives no row (%s): %s needs a row from each of lanes 0-%d of a warp", w,
                     l, scenario_lane_state_text(in->lane[l].state), banks_op_name(in->req.op),
                     8 * in->req.matrices - 1);
            return false;
        }
    return true;
}

/* A plain store (st.shared): what the kernel's BS_STORE and the latency run key on. */
static bool is_store(banks_op op)
{
    const kinds_row *k = kinds_of(op);
    return k->rule == KINDS_RULE_WORDS && !k->reads;
}

bool measure_plan_make(const scenario *s, int access, int iteration, measure_plan *p, char *err, size_t n)
{
    return measure_plan_make_sized(s, access, iteration, kernelgen_smem_bytes(s), p, err, n);
}

bool measure_plan_make_sized(const scenario *s, int access, int iteration, int64_t smem_bytes, measure_plan *p,
                             char *err, size_t n)
{
    memset(p, 0, sizeof *p);
    p->access = access;
    p->iteration = iteration;
    /* BANKSCOPE_KERNEL_TEMPLATE: a template file to use instead of the embedded one (for work
     * on the measurement kernels without rebuilding) */
    const char *path = getenv("BANKSCOPE_KERNEL_TEMPLATE");
    char *own = NULL;
    if (path && *path) {
        io_error e;
        size_t len;
        own = load_read_file(path, &len, &e);
        if (!own) {
            snprintf(err, n, "BANKSCOPE_KERNEL_TEMPLATE: %s", e.text);
            return false;
        }
    }
    const char *tmpl = own ? own : library_kernel("measure.cu");
    if (!tmpl) {
        snprintf(err, n, "kernel template missing from this build");
        return false;
    }
    bool made = kernelgen_source(s, access, tmpl, &p->source, err, n);
    free(own);
    if (!made)
        return false;
    gpu_request *q = &p->rq;
    q->source = strbuf_str(&p->source);
    q->smem_bytes = (size_t)smem_bytes;
    q->counters = true;
    q->latency_warp = -1;
    banks_request kind = scenario_kind_of(s, access); /* a trace's: the instruction as recorded */
    bool trace = !scenario_has_layout(s);
    q->store = is_store(kind.op);
    if (trace) {
        q->block[0] = 32;
        q->block[1] = q->block[2] = 1;
        q->has_table = true;
        for (int l = 0; l < BANKS_WARP; l++)
            q->table[l] = (s->trace[access].active >> l) & 1 ? (int)s->trace[access].addr[l] : -1;
    } else {
        memcpy(q->block, s->block, sizeof q->block);
        q->loop_value = s->loop_values[iteration];
    }
    p->kind = kind;
    const kinds_row *row = kinds_of(kind.op); /* its counters: the kinds table */
    q->counter_set.wavefronts = row->counters.wavefronts;
    q->counter_set.conflicts = row->counters.conflicts;
    q->counter_set.instructions = row->counters.instructions;
    q->counter_set.ngroup = kinds_counter_group(row, q->counter_set.group, GPU_COUNTER_GROUP_MAX);
    p->warps = scenario_warp_count(s); /* a trace's: 1 */
    p->expect = xmalloc(sizeof *p->expect * (size_t)p->warps * BANKS_WARP);
    q->expect = p->expect;
    q->nexpect = p->warps * BANKS_WARP;
    scenario_instr in;
    banks_result r;
    double cycles = 0, data_cycles = 0;
    for (int w = 0; w < p->warps; w++) {
        scenario_instr_get(s, access, iteration, w, &in);
        for (int l = 0; l < BANKS_WARP; l++)
            if (in.lane[l].state == SCENARIO_LANE_EVAL_ERROR || in.lane[l].state == SCENARIO_LANE_MISALIGNED) {
                snprintf(err, n, "warp %d lane %d: %s: the kernel would not do what the model shows", w, l,
                         in.lane[l].state == SCENARIO_LANE_MISALIGNED ? "misaligned address"
                                                                      : expr_status_text(in.lane[l].eval));
                measure_plan_free(p);
                return false;
            }
        if (!measure_plan_matrix_ok(&in, w, err, n)) {
            measure_plan_free(p);
            return false;
        }
        for (int l = 0; l < BANKS_WARP; l++) /* what the kernel must compute, lane by lane */
            p->expect[w * BANKS_WARP + l] = (in.req.active >> l) & 1 ? (long long)in.req.addr[l] : -1;
        banks_analyze(s->arch, &in.req, &r, NULL);
        p->wavefronts += r.wavefronts;
        p->bank_conflicts += r.bank_conflicts;
        /* kernels/measure.cu stores the zero register: no store data floor */
        cycles += banks_issue_cycles(s->arch, &in.req, &r, false);
        data_cycles += banks_issue_cycles(s->arch, &in.req, &r, true);
        if (r.conflict_degree > p->worst_degree)
            p->worst_degree = r.conflict_degree;
        if (r.active_lanes > 0) {
            p->active_warps++;
            if (q->latency_warp < 0)
                q->latency_warp = w;
            if (p->bytes_per_warp == 0)
                p->bytes_per_warp = r.active_lanes * in.req.width;
        }
    }
    /* latency: a dependent chain of loads (ld.shared or ldmatrix) only */
    if (!row->chain)
        q->latency_warp = -1;
    memcpy(q->tp_block, q->block, sizeof q->block);
    q->active_warps = p->active_warps;
    if (trace && p->active_warps) {
        /* A trace is one warp-instruction: 32 warps of a block replay it so the SM stays full,
         * each on its own copy of the region (128-byte multiples apart: the same banks) when
         * shared memory allows, so that warps never store to one address together. */
        q->tp_block[0] = 1024;
        q->active_warps = 32;
        size_t region = q->smem_bytes;
        if (region * 32 <= (size_t)s->arch->smem_per_block / 2) {
            q->table[32] = (int)region;
            q->smem_bytes = region * 32;
        }
    }
    p->cycles_per_access = p->active_warps ? cycles / p->active_warps : 0;
    p->cycles_predicted = row->cycles;
    p->data_cycles_per_access = p->active_warps ? data_cycles / p->active_warps : 0;
    return true;
}

bool measure_plan_padded(scenario *s, int array, int pad, int access, measure_plan *p, char *err, size_t n)
{
    scenario_array *arr = &s->arrays[array];
    int64_t old = arr->pad[arr->ndims - 1];
    arr->pad[arr->ndims - 1] = pad;
    scenario_error e;
    bool ok = scenario_finish(s, &e);
    if (!ok)
        snprintf(err, n, "%.250s", e.msg);
    else
        ok = measure_plan_make(s, access, 0, p, err, n);
    arr->pad[arr->ndims - 1] = old;
    scenario_finish(s, &e); /* as it was: it finished before */
    return ok;
}

void measure_plan_free(measure_plan *p)
{
    strbuf_free(&p->source);
    free(p->expect);
    p->expect = NULL;
    p->rq.expect = NULL;
}

bool measure_plan_agrees(double predicted, double measured)
{
    return fabs(measured - predicted) <= 0.05 * predicted + 0.1;
}

const banks_profile *measure_plan_gpu_arch(int cc_major, int cc_minor)
{
    char name[32];
    if (cc_major < 1 || cc_major > 9 || cc_minor < 0 || cc_minor > 9) /* sm_100 and later: no model */
        return NULL;
    snprintf(name, sizeof name, "sm_%d%d", cc_major, cc_minor);
    return banks_profile_find(name);
}

const banks_profile *measure_plan_compare_arch(const banks_profile *chosen, int cc_major, int cc_minor, char *note,
                                               size_t n)
{
    const banks_profile *gpu = measure_plan_gpu_arch(cc_major, cc_minor);
    note[0] = '\0';
    if (!gpu) {
        snprintf(note, n,
                 "bankscope has no bank model for sm_%d%d: the %s model is compared, and may not be what this GPU "
                 "runs",
                 cc_major, cc_minor, chosen->name);
        return chosen;
    }
    /* Kepler's 8-byte bank mode is a setting of the same GPU */
    if (gpu == chosen || (strcmp(gpu->name, "sm_35") == 0 && strcmp(chosen->name, "sm_35_8byte") == 0))
        return chosen;
    snprintf(note, n,
             "the %s model (--arch or the file's \"arch\") is not what this GPU runs: the measurement is compared "
             "with the %s model, the GPU's own; `analyze --arch %s` shows the %s prediction",
             chosen->name, gpu->name, chosen->name, chosen->name);
    return gpu;
}
