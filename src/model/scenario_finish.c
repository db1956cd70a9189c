/* scenario_finish: validation and layout of a scenario (scenario_finish, scenario.h): its loops
 * expanded, its arrays placed, each access's expressions parsed and resolved, its names checked;
 * and the evaluation check that runs the expressions of the instructions they may fail on. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kinds.h"
#include "names.h"
#include "scenario.h"

/* Fill err; the path is printf-formatted. */
static bool fail(scenario_error *err, int expr_pos, const char *msg, const char *pathfmt, ...)
    __attribute__((format(printf, 4, 5)));
static bool fail(scenario_error *err, int expr_pos, const char *msg, const char *pathfmt, ...)
{
    va_list ap;
    va_start(ap, pathfmt);
    vsnprintf(err->path, sizeof err->path, pathfmt, ap);
    va_end(ap);
    snprintf(err->msg, sizeof err->msg, "%s", msg);
    err->expr_pos = expr_pos;
    return false;
}

/* The file path of loop k: "loop" for the single loop of a version 1 scenario, else "loops[k]". */
static const char *loop_path(const scenario *s, int k)
{
    static const char *const paths[SCENARIO_MAX_LOOPS] = {"loops[0]", "loops[1]", "loops[2]", "loops[3]",
                                                          "loops[4]", "loops[5]", "loops[6]", "loops[7]"};
    return s->nloops <= 1 && !s->nested ? "loop" : paths[k];
}

/* Set a->outside (the loops not around access i) and a->after (those of them it follows: an
 * access of the loop comes before it in the list). */
static void access_nest(scenario *s, int i)
{
    scenario_access *a = &s->accesses[i];
    int in = scenario_access_loop(s, a);
    a->outside = a->after = 0;
    for (int k = 0; k < s->nloops; k++) {
        if (scenario_loop_encloses(s, k, in))
            continue;
        a->outside |= 1u << k;
        for (int b = 0; b < i; b++)
            if (scenario_loop_encloses(s, k, scenario_access_loop(s, &s->accesses[b]))) {
                a->after |= 1u << k;
                break;
            }
    }
}

/* Expand loop k into its values; false when it runs zero or too many times. */
static bool loop_expand(scenario *s, int k, scenario_error *err)
{
    scenario_loop *L = &s->loops[k];
    free(L->values);
    L->values = xmalloc(sizeof *L->values * SCENARIO_MAX_ITERATIONS);
    L->count = 0;
    if (L->kind == SCENARIO_LOOP_ADD && L->step == 0)
        return fail(err, -1, "loop step must not be 0", "%s.step", loop_path(s, k));
    if (L->kind != SCENARIO_LOOP_ADD && L->step < 2)
        return fail(err, -1, "loop factor must be at least 2", "%s", loop_path(s, k));
    int n = 0;
    int64_t v = L->from;
    for (;;) {
        bool go;
        if (L->kind == SCENARIO_LOOP_ADD)
            go = L->step > 0 ? v < L->to : v > L->to;
        else
            go = L->kind == SCENARIO_LOOP_MUL ? v < L->to : v > L->to;
        if (!go)
            break;
        if (n == SCENARIO_MAX_ITERATIONS)
            return fail(err, -1, "loop runs more than 4096 times", "%s", loop_path(s, k));
        L->values[n++] = v;
        bool ovf = false;
        if (L->kind == SCENARIO_LOOP_ADD)
            ovf = __builtin_add_overflow(v, L->step, &v);
        else if (L->kind == SCENARIO_LOOP_MUL)
            ovf = __builtin_mul_overflow(v, L->step, &v) || v == 0;
        else
            v /= L->step;
        if (ovf)
            break;
        if (L->kind == SCENARIO_LOOP_MUL && L->from == 0)
            return fail(err, -1, "a multiplying loop must not start at 0", "%s.from", loop_path(s, k));
    }
    if (n == 0)
        return fail(err, -1, "loop runs zero times", "%s", loop_path(s, k));
    L->count = n;
    return true;
}

/* Expand the nest: each loop's values, the iterations of the whole nest (the product, the
 * first loop varying slowest), and the accesses that run at each. */
static bool nest_expand(scenario *s, scenario_error *err)
{
    int64_t total = 1;
    for (int k = 0; k < s->nloops; k++) {
        scenario_loop *L = &s->loops[k];
        if (!L->var)
            return fail(err, -1, "a loop needs a variable", "%s.var", loop_path(s, k));
        if (L->parent >= k || L->parent < -1)
            return fail(err, -1, "a loop's parent must be listed before it", "%s", loop_path(s, k));
        for (int j = 0; j < k; j++)
            if (!strcmp(s->loops[j].var, L->var))
                return fail(err, -1, "two loops have this variable", "%s.var", loop_path(s, k));
        if (!loop_expand(s, k, err))
            return false;
        total *= L->count;
        if (total > SCENARIO_MAX_ITERATIONS)
            return fail(err, -1, "the loops run more than 4096 iterations in all (the product of their counts)", "%s",
                        loop_path(s, k));
    }
    s->iterations = (int)total;
    int64_t stride = total;
    for (int k = 0; k < s->nloops; k++) {
        stride /= s->loops[k].count;
        s->loops[k].stride = stride;
    }
    for (int it = 0; it < s->iterations; it++)
        s->loop_values[it] = s->nloops ? scenario_loop_value(s, 0, it) : 0;
    for (int i = 0; i < s->naccesses; i++)
        access_nest(s, i);
    free(s->iter_first);
    s->iter_first = xmalloc(sizeof *s->iter_first * (size_t)(s->iterations + 1));
    s->iter_first[0] = 0;
    for (int it = 0; it < s->iterations; it++) {
        int n = 0;
        for (int a = 0; a < s->naccesses; a++)
            n += scenario_access_active(s, a, it);
        s->iter_first[it + 1] = s->iter_first[it] + n;
    }
    return true;
}

/* Check array i's shape and element type, and compute its size. */
static bool array_finish(scenario *s, int i, scenario_error *err)
{
    scenario_array *a = &s->arrays[i];
    for (int j = 0; j < i; j++)
        if (strcmp(s->arrays[j].name, a->name) == 0)
            return fail(err, -1, "two arrays have this name", "arrays[%d].name", i);
    if (!types_resolve(&s->types, a->type_name, &a->type))
        return fail(err, -1, "unknown element type (a C scalar, a CUDA vector or a struct of 'structs')",
                    "arrays[%d].type", i);
    if (a->ndims < 1 || a->ndims > SCENARIO_MAX_DIMS)
        return fail(err, -1, "an array has 1 to 3 dimensions", "arrays[%d].dims", i);
    a->elem_size = types_size(&s->types, &a->type);
    int64_t count = 1;
    for (int d = 0; d < a->ndims; d++) {
        if (a->dims[d] < 1 || a->dims[d] > (1 << 20))
            return fail(err, -1, "dimension must be 1..1048576", "arrays[%d].dims[%d]", i, d);
        if (a->pad[d] < 0 || a->pad[d] > 4096)
            return fail(err, -1, "padding must be 0..4096", "arrays[%d].pad", i);
        a->extent[d] = a->dims[d] + a->pad[d];
        count *= a->extent[d];
        if (count > ((int64_t)1 << 32))
            return fail(err, -1, "array is far larger than any shared memory", "arrays[%d].dims", i);
    }
    a->bytes = count * a->elem_size;
    int64_t limit = s->arch->smem_per_block;
    if (a->bytes > limit) {
        char msg[200];
        snprintf(msg, sizeof msg, "array needs %lld bytes; %s allows %lld bytes of shared memory per block",
                 (long long)a->bytes, s->arch->name, (long long)limit);
        return fail(err, -1, msg, "arrays[%d].dims", i);
    }
    return scenario_swizzle_finish(a, i, err);
}

/* Place arrays without a base after the previous one, aligned to 16 bytes (or more: the element
 * alignment, and the repeat of a TMA swizzle, which works on absolute address bits). */
static bool arrays_place(scenario *s, scenario_error *err)
{
    int64_t end = 0;
    for (int i = 0; i < s->narrays; i++) {
        scenario_array *a = &s->arrays[i];
        int64_t align = types_align(&s->types, &a->type);
        if (align < 16)
            align = 16;
        int64_t swz = scenario_swizzle_align(a);
        if (align < swz)
            align = swz;
        if (a->base < 0)
            a->start = (end + align - 1) / align * align;
        else if (a->base % types_align(&s->types, &a->type) != 0)
            return fail(err, -1, "base is not a multiple of the element alignment", "arrays[%d].base", i);
        else if (a->base % swz != 0) {
            char msg[200];
            snprintf(msg, sizeof msg,
                     "a %s swizzle works on shared-memory address bits: the array must start at a multiple of "
                     "%lld bytes",
                     a->swizzle, (long long)swz);
            return fail(err, -1, msg, "arrays[%d].base", i);
        } else
            a->start = a->base;
        if (a->start + a->bytes > end)
            end = a->start + a->bytes;
    }
    s->smem_bytes = end;
    if (end > s->arch->smem_per_block) {
        char msg[200];
        snprintf(msg, sizeof msg, "arrays need %lld bytes; %s allows %d bytes of shared memory per block",
                 (long long)end, s->arch->name, s->arch->smem_per_block);
        return fail(err, -1, msg, "arrays");
    }
    return true;
}

/* The values each expression variable takes in s (block, warps, loop values): what the
 * expressions of a finished scenario are specialised for. */
static void scenario_expr_ranges(const scenario *s, expr_range *r)
{
    int threads = scenario_threads(s);
    for (int d = 0; d < 3; d++) {
        r->lo[EXPR_TX + d] = 0;
        r->hi[EXPR_TX + d] = s->block[d] - 1;
        r->lo[EXPR_BDX + d] = r->hi[EXPR_BDX + d] = s->block[d];
    }
    r->lo[EXPR_LANE] = r->lo[EXPR_WARP] = r->lo[EXPR_TID] = 0;
    r->hi[EXPR_LANE] = threads < BANKS_WARP ? threads - 1 : BANKS_WARP - 1;
    r->hi[EXPR_WARP] = scenario_warp_count(s) - 1;
    r->hi[EXPR_TID] = threads - 1;
    for (int k = 0; k < SCENARIO_MAX_LOOPS; k++) {
        const scenario_loop *L = &s->loops[k];
        int v = EXPR_LOOP + k;
        r->lo[v] = r->hi[v] = 0;
        for (int j = 0; k < s->nloops && L->values && j < L->count; j++) {
            r->lo[v] = j == 0 || L->values[j] < r->lo[v] ? L->values[j] : r->lo[v];
            r->hi[v] = j == 0 || L->values[j] > r->hi[v] ? L->values[j] : r->hi[v];
        }
    }
}

bool scenario_parse_access(const scenario *s, scenario_access *a, int ai, scenario_error *err)
{
    expr_error ee;
    /* the variables of the loops around the access; another loop's is not a value here */
    const char *vars[EXPR_MAX_LOOPS] = {NULL};
    int in = scenario_access_loop(s, a);
    for (int k = 0; k < s->nloops; k++)
        if (scenario_loop_encloses(s, k, in))
            vars[k] = s->loops[k].var;
    for (int d = 0; d < a->nidx; d++) {
        expr_free(&a->index[d]);
        if (!expr_parse_loops(a->index_text[d], vars, &a->index[d], &ee))
            return fail(err, ee.pos, ee.msg, "accesses[%d].index[%d]", ai, d);
    }
    expr_free(&a->when);
    if (a->when_text && !expr_parse_loops(a->when_text, vars, &a->when, &ee))
        return fail(err, ee.pos, ee.msg, "accesses[%d].when", ai);
    return true;
}

/* Resolve access i: its array, expressions, field and vector, and the bytes each lane moves. */
static bool access_finish(scenario *s, int i, scenario_error *err)
{
    scenario_access *a = &s->accesses[i];
    a->array = -1;
    for (int j = 0; j < s->narrays; j++)
        if (strcmp(s->arrays[j].name, a->array_name) == 0)
            a->array = j;
    if (a->array < 0)
        return fail(err, -1, "no array of this name", "accesses[%d].array", i);
    const scenario_array *arr = &s->arrays[a->array];
    if (a->nidx != arr->ndims) {
        char msg[96];
        snprintf(msg, sizeof msg, "array '%s' has %d dimension%s: give %d index expression%s", arr->name, arr->ndims,
                 arr->ndims > 1 ? "s" : "", arr->ndims, arr->ndims > 1 ? "s" : "");
        return fail(err, -1, msg, "accesses[%d].index", i);
    }
    if (!scenario_parse_access(s, a, i, err))
        return false;
    types_ref t = arr->type;
    a->offset = 0;
    if (a->field) {
        char msg[200];
        if (!types_field_path(&s->types, &arr->type, a->field, &a->offset, &t, msg, sizeof msg))
            return fail(err, -1, msg, "accesses[%d].field", i);
    }
    int size = types_size(&s->types, &t), align = types_align(&s->types, &t);
    const char *tname = types_name(&s->types, &t);
    types_builtin v;
    if (a->vector) {
        if (!types_builtin_find(a->vector, &v))
            return fail(err, -1, "unknown vector type", "accesses[%d].vector", i);
        size = v.size;
        align = v.align;
        tname = v.name;
    }
    const kinds_row *kind = kinds_of(a->op);
    if (!kind)
        return fail(err, -1, "unknown op", "accesses[%d].op", i);
    if (kind->rule != KINDS_RULE_WORDS && !scenario_tensor_access(a, i, &size, &align, err))
        return false;
    if (!banks_width_ok(size)) {
        char msg[160];
        snprintf(msg, sizeof msg,
                 "one lane would move %d bytes (%s): shared-memory accesses are 1, 2, 4, 8 "
                 "or 16 bytes; pick a field or a vector type",
                 size, tname);
        return fail(err, -1, msg,
                    a->vector  ? "accesses[%d].vector"
                    : a->field ? "accesses[%d].field"
                               : "accesses[%d].array",
                    i);
    }
    char why[160]; /* [PTX] the kind must exist on the architecture: never a silent prediction */
    if (kinds_arch_problem(kind, size, s->arch, why, sizeof why))
        return fail(err, -1, why, "accesses[%d].op", i);
    a->width = size;
    a->align = align;
    free(a->type_text);
    a->type_text = xstrdup(tname);
    expr_range r;
    scenario_expr_ranges(s, &r);
    for (int d = 0; d < a->nidx; d++)
        expr_specialize(&a->index[d], &r);
    if (a->when_text)
        expr_specialize(&a->when, &r);
    return true;
}

/* Names that reach generated CUDA code must not be reserved there (names.h), and the loop
 * variable must not hide a word of expressions: both would silently change what is measured. */
static bool names_check(const scenario *s, scenario_error *err)
{
    static const char reserved[] = "reserved in CUDA code (a C/C++ keyword, a CUDA built-in, type or macro, "
                                   "or a bs_, BS_ or __ name)";
    for (int i = 0; i < s->types.n; i++) {
        const types_struct *st = &s->types.structs[i];
        if (!names_ok_in_cuda(st->name))
            return fail(err, -1, reserved, "structs[%d].name", i);
        for (int f = 0; f < st->nfields; f++)
            if (!names_ok_in_cuda(st->fields[f].name))
                return fail(err, -1, reserved, "structs[%d].fields[%d]", i, f);
    }
    for (int i = 0; i < s->narrays; i++)
        if (!names_ok_in_cuda(s->arrays[i].name))
            return fail(err, -1, reserved, "arrays[%d].name", i);
    for (int k = 0; k < s->nloops; k++)
        if (s->loops[k].var && !names_ok_for_loop(s->loops[k].var))
            return fail(err, -1,
                        "the loop variable must be a C identifier that is not a word of expressions "
                        "(threadIdx, blockDim, tx, ty, tz, lane, warp, tid, warpSize, min, max)",
                        "%s.var", loop_path(s, k));
    return true;
}

bool scenario_finish(scenario *s, scenario_error *err)
{
    memset(err, 0, sizeof *err);
    err->expr_pos = -1;
    if (s->is_trace) {
        if (s->ntrace < 1)
            return fail(err, -1, "a trace needs at least one instruction", "trace");
        scenario_table_seal(s);
        char why[160];
        int bad =
            scenario_table_arch_problem(s, why, sizeof why); /* as for accesses: the kind must exist on the arch */
        if (bad >= 0)
            return fail(err, -1, why, "trace[%d].op", bad);
        s->iterations = 1;
        return true;
    }
    for (int d = 0; d < 3; d++)
        if (s->block[d] < 1 || s->block[d] > SCENARIO_MAX_THREADS)
            return fail(err, -1, "block dimensions must be 1..1024", "block[%d]", d);
    if (s->block[2] > 64)
        return fail(err, -1, "block z must be 1..64", "block[2]");
    if (scenario_threads(s) > SCENARIO_MAX_THREADS)
        return fail(err, -1, "a block has at most 1024 threads", "block");
    if (s->nloops == 0 && s->loops[0].var)
        s->nloops = 1;
    for (int i = 0; i < s->naccesses; i++)
        if (s->accesses[i].loop >= s->nloops && s->nloops > 0)
            return fail(err, -1, "no loop of this name", "accesses[%d].loop", i);
    if (!names_check(s, err))
        return false;
    for (int i = 0; i < s->types.n; i++) {
        types_struct *st = &s->types.structs[i];
        for (int j = 0; j < i; j++)
            if (strcmp(s->types.structs[j].name, st->name) == 0)
                return fail(err, -1, "two structs have this name", "structs[%d].name", i);
        for (int f = 0; f < st->nfields; f++)
            if (!types_resolve(&s->types, st->fields[f].type_name, &st->fields[f].type))
                return fail(err, -1, "unknown field type", "structs[%d].fields[%d].type", i, f);
    }
    char msg[200];
    if (!types_layout(&s->types, msg, sizeof msg))
        return fail(err, -1, msg, "structs");
    if (s->narrays < 1)
        return fail(err, -1, "a scenario needs at least one array", "arrays");
    if (s->naccesses < 1)
        return fail(err, -1, "a scenario needs at least one access", "accesses");
    for (int i = 0; i < s->narrays; i++)
        if (!array_finish(s, i, err))
            return false;
    if (!arrays_place(s, err) || !nest_expand(s, err))
        return false;
    for (int i = 0; i < s->naccesses; i++)
        if (!access_finish(s, i, err))
            return false;
    for (int k = 0; k < s->nwarps; k++)
        if (s->warps[k] < 0 || s->warps[k] >= scenario_warp_count(s))
            return fail(err, -1, "warp number outside the block", "warps[%d]", k);
    return true;
}

scenario_check scenario_check_eval_run(const scenario *s, int64_t max_lane_ops, const atomic_int *cancel,
                                       scenario_error *err)
{
    if (s->is_trace)
        return SCENARIO_CHECK_OK;
    bool any = false;
    for (int a = 0; a < s->naccesses; a++)
        any |= scenario_access_may_fail(s, a);
    if (!any) /* proven for every lane of every instruction: nothing to evaluate */
        return SCENARIO_CHECK_OK;
    int64_t n = scenario_instr_count(s);
    int64_t spent = 0;
    scenario_instr in;
    for (int64_t k = 0; k < n; k++) {
        int it, access;
        scenario_instr_locate(s, k, &it, &access);
        if (!scenario_access_may_fail(s, access))
            continue;
        spent += BANKS_WARP * (1 + scenario_access_nodes(&s->accesses[access]));
        if (spent > max_lane_ops)
            break;
        if (cancel && (k & 63) == 0 && atomic_load_explicit(cancel, memory_order_relaxed))
            return SCENARIO_CHECK_CANCELLED;
        scenario_instr_at(s, k, &in);
        for (int l = 0; l < BANKS_WARP; l++) {
            const scenario_lane *ln = &in.lane[l];
            if (ln->state != SCENARIO_LANE_EVAL_ERROR)
                continue;
            strbuf loop = {0};
            scenario_iteration_text(s, in.access, in.iteration, &loop);
            char msg[200];
            snprintf(msg, sizeof msg, "%s for thread (%d,%d,%d)%s%.100s", expr_status_text(ln->eval), ln->tx, ln->ty,
                     ln->tz, loop.len ? ", " : "", strbuf_str(&loop));
            strbuf_free(&loop);
            if (ln->bad_dim < 0)
                fail(err, ln->eval_pos, msg, "accesses[%d].when", in.access);
            else
                fail(err, ln->eval_pos, msg, "accesses[%d].index[%d]", in.access, ln->bad_dim);
            return SCENARIO_CHECK_FAILED;
        }
    }
    return SCENARIO_CHECK_OK;
}

bool scenario_check_eval(const scenario *s, int64_t max_lane_ops, scenario_error *err)
{
    return scenario_check_eval_run(s, max_lane_ops, NULL, err) == SCENARIO_CHECK_OK;
}
