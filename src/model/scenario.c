/* scenario: validation, layout and expansion of a scenario into warp-instructions. */
#include "scenario.h"

#include "kinds.h"
#include "names.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void scenario_init(scenario *s)
{
    memset(s, 0, sizeof *s);
    s->arch = banks_profile_default();
    s->block[0] = 32;
    s->block[1] = s->block[2] = 1;
}

/* Free what access a owns. */
static void access_free(scenario_access *a)
{
    for (int d = 0; d < a->nidx; d++) {
        free(a->index_text[d]);
        expr_free(&a->index[d]);
    }
    free(a->when_text);
    expr_free(&a->when);
    free(a->array_name);
    free(a->field);
    free(a->vector);
    free(a->label);
    free(a->source);
    scenario_srcloc_free(&a->at);
    free(a->type_text);
}

void scenario_access_remove(scenario *s, int i)
{
    access_free(&s->accesses[i]);
    memmove(&s->accesses[i], &s->accesses[i + 1], (size_t)(s->naccesses - i - 1) * sizeof *s->accesses);
    s->naccesses--;
}

void scenario_free(scenario *s)
{
    free(s->name);
    free(s->description);
    types_registry_free(&s->types);
    for (int i = 0; i < s->narrays; i++) {
        free(s->arrays[i].name);
        free(s->arrays[i].type_name);
        free(s->arrays[i].swizzle);
    }
    free(s->arrays);
    for (int i = 0; i < s->naccesses; i++)
        access_free(&s->accesses[i]);
    free(s->accesses);
    for (int k = 0; k < SCENARIO_MAX_LOOPS; k++) {
        free(s->loops[k].var);
        free(s->loops[k].values);
    }
    free(s->iter_first);
    free(s->warps);
    scenario_table_drop(s);
    free(s->whatif);
    memset(s, 0, sizeof *s);
}

void scenario_srcloc_free(scenario_srcloc *l)
{
    free(l->file);
    free(l->text);
    free(l->sass);
    memset(l, 0, sizeof *l);
}

void scenario_srcloc_copy(const scenario_srcloc *src, scenario_srcloc *dst)
{
    dst->file = src->file ? xstrdup(src->file) : NULL;
    dst->text = src->text ? xstrdup(src->text) : NULL;
    dst->sass = src->sass ? xstrdup(src->sass) : NULL;
    dst->warp = src->warp;
    dst->pc = src->pc;
    dst->line = src->line;
    dst->column = src->column;
}

bool scenario_srcloc_known(const scenario_srcloc *l)
{
    return l->file || l->text || l->line > 0 || l->column > 0;
}

void scenario_srcloc_set(scenario_srcloc *l, const char *file, int line, int column, const char *text)
{
    scenario_srcloc n = {NULL, line > 0 ? line : 0, column > 0 ? column : 0, NULL, NULL, -1, -1};
    n.file = file ? xstrdup(file) : NULL;
    n.text = text ? xstrdup(text) : NULL;
    scenario_srcloc_free(l);
    *l = n;
}

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

int scenario_threads(const scenario *s)
{
    return s->block[0] * s->block[1] * s->block[2];
}

int scenario_access_count(const scenario *s)
{
    return s->is_trace ? s->ntrace : s->naccesses;
}

int scenario_warp_count(const scenario *s)
{
    return s->is_trace ? 1 : (scenario_threads(s) + BANKS_WARP - 1) / BANKS_WARP;
}

int scenario_selected_warps(const scenario *s)
{
    return s->warps ? s->nwarps : scenario_warp_count(s);
}

int scenario_selected_warp(const scenario *s, int k)
{
    return s->warps ? s->warps[k] : k;
}

int64_t scenario_instr_count(const scenario *s)
{
    if (s->is_trace)
        return s->ntrace;
    int64_t pairs = s->iter_first ? s->iter_first[s->iterations] : (int64_t)s->iterations * s->naccesses;
    return pairs * scenario_selected_warps(s);
}

/* The innermost loop around access a, or -1. */
static int access_loop(const scenario *s, const scenario_access *a)
{
    return a->loop >= 0 && a->loop < s->nloops ? a->loop : -1;
}

bool scenario_loop_encloses(const scenario *s, int k, int inner)
{
    for (int p = inner; p >= 0 && p < s->nloops; p = s->loops[p].parent)
        if (p == k)
            return true;
    return false;
}

int64_t scenario_loop_value(const scenario *s, int k, int it)
{
    const scenario_loop *L = &s->loops[k];
    if (L->stride == 1 && it < L->count && L->values) /* the innermost loop: no division */
        return L->values[it];
    return L->values && L->count ? L->values[(it / L->stride) % L->count] : 0;
}

/* Set a->outside (the loops not around access i) and a->after (those of them it follows: an
 * access of the loop comes before it in the list). */
static void access_nest(scenario *s, int i)
{
    scenario_access *a = &s->accesses[i];
    int in = access_loop(s, a);
    a->outside = a->after = 0;
    for (int k = 0; k < s->nloops; k++) {
        if (scenario_loop_encloses(s, k, in))
            continue;
        a->outside |= 1u << k;
        for (int b = 0; b < i; b++)
            if (scenario_loop_encloses(s, k, access_loop(s, &s->accesses[b]))) {
                a->after |= 1u << k;
                break;
            }
    }
}

bool scenario_access_active(const scenario *s, int access, int it)
{
    const scenario_access *a = &s->accesses[access];
    /* a loop not around the access: its first iteration, or its last when the access follows it */
    for (unsigned m = a->outside; m; m &= m - 1) {
        const scenario_loop *L = &s->loops[__builtin_ctz(m)];
        if (L->count && (it / L->stride) % L->count != ((a->after >> __builtin_ctz(m)) & 1 ? L->count - 1 : 0))
            return false;
    }
    return true;
}

void scenario_iteration_text(const scenario *s, int access, int it, strbuf *out)
{
    const scenario_access *ac = scenario_access_of(s, access);
    int in = ac ? access_loop(s, ac) : -2;
    const char *sep = "";
    for (int k = 0; k < s->nloops; k++)
        if (in == -2 || scenario_loop_encloses(s, k, in)) {
            strbuf_addf(out, "%s%s = %lld", sep, s->loops[k].var, (long long)scenario_loop_value(s, k, it));
            sep = ", ";
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

void scenario_expr_ranges(const scenario *s, expr_range *r)
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
    int in = access_loop(s, a);
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

static void instr_env(const scenario *s, int iteration, int warp, expr_env *env);

/* The helpers of build are inlined into it, so that they are compiled for each of its targets. */
#define INLINE static inline __attribute__((always_inline))

/* One warp-instruction worked out a lane vector at a time (build): what every lane record is
 * made of, kept in arrays so that each step is one loop over the 32 lanes. */
typedef struct lane_work {
    uint32_t thread, masked, oob, misaligned, failed; /* lanes in each state (the rest: OK) */
    int64_t index[SCENARIO_MAX_DIMS][BANKS_WARP];     /* written up to the dimension a lane left at */
    int64_t address[BANKS_WARP];                      /* for lanes in bounds */
    expr_status eval[BANKS_WARP];                     /* failed lanes: the error and where */
    int eval_pos[BANKS_WARP], bad_dim[BANKS_WARP];
} lane_work;

/* Evaluate expression x for the lanes in *pending, all at once (expr_eval_lanes): lanes where
 * it fails leave *pending as expression errors (bad_dim = dim); the values go to val[lane] (0 for
 * the other lanes). */
INLINE void eval_lanes(const expr *x, expr_env *env, const expr_lanes *lv, lane_work *w, uint32_t *pending, int dim,
                       int64_t *val)
{
    expr_prepare(x, env);
    uint32_t failed = expr_eval_lanes(x, env, lv, *pending, val, w->eval, w->eval_pos);
    for (uint32_t m = failed; m; m &= m - 1)
        w->bad_dim[__builtin_ctz(m)] = dim;
    w->failed |= failed;
    *pending &= ~failed;
}

/* Lane masks of one test over the 32 lanes: loops without branches, which the compiler turns
 * into vector compares. */
INLINE uint32_t lanes_zero(const int64_t *v)
{
    uint32_t m = 0;
    for (int l = 0; l < BANKS_WARP; l++)
        m |= (uint32_t)(v[l] == 0) << l;
    return m;
}

/* Lanes whose v is outside 0 .. n - 1. */
INLINE uint32_t lanes_outside(const int64_t *v, int64_t n)
{
    uint32_t m = 0;
    for (int l = 0; l < BANKS_WARP; l++)
        m |= (uint32_t)((v[l] < 0) | (v[l] >= n)) << l;
    return m;
}

/* Lanes whose v is above hi. */
INLINE uint32_t lanes_above(const int64_t *v, int64_t hi)
{
    uint32_t m = 0;
    for (int l = 0; l < BANKS_WARP; l++)
        m |= (uint32_t)(v[l] > hi) << l;
    return m;
}

/* Lanes whose v has a bit of mask set. */
INLINE uint32_t lanes_any(const int64_t *v, int64_t mask)
{
    uint32_t m = 0;
    for (int l = 0; l < BANKS_WARP; l++)
        m |= (uint32_t)((v[l] & mask) != 0) << l;
    return m;
}

/* The per-lane variables of warp (threadIdx.x/y/z, tid, lane) into lv, 0 for lanes without a
 * thread; the lanes with a thread. x runs fastest, as CUDA numbers threads. */
INLINE uint32_t warp_lanes(const scenario *s, int warp, expr_lanes *lv)
{
    const int bx = s->block[0], by = s->block[1], tid0 = warp * BANKS_WARP;
    const int n = scenario_threads(s) - tid0;
    const uint32_t thread = n >= BANKS_WARP ? 0xffffffffu : n <= 0 ? 0 : (1u << n) - 1u;
    if (bx % BANKS_WARP == 0) { /* the usual block: a warp is one run of x */
        const int64_t tx = tid0 % bx, ty = (tid0 / bx) % by, tz = tid0 / (bx * by);
        for (int l = 0; l < BANKS_WARP; l++) {
            lv->v[0][l] = tx + l;
            lv->v[1][l] = ty;
            lv->v[2][l] = tz;
            lv->v[3][l] = tid0 + l;
            lv->v[4][l] = l;
        }
        return thread;
    }
    int tx = tid0 % bx, ty = (tid0 / bx) % by, tz = tid0 / (bx * by);
    for (int l = 0; l < BANKS_WARP; l++) {
        bool has = (thread >> l) & 1;
        lv->v[0][l] = has ? tx : 0;
        lv->v[1][l] = has ? ty : 0;
        lv->v[2][l] = has ? tz : 0;
        lv->v[3][l] = has ? tid0 + l : 0;
        lv->v[4][l] = has ? l : 0;
        if (++tx == bx) {
            tx = 0;
            if (++ty == by) {
                ty = 0;
                tz++;
            }
        }
    }
    return thread;
}

/* Every lane record of out from w: what each lane reached before it left (or 0). */
INLINE void fill_lanes(const scenario_access *a, int warp, const expr_lanes *lv, const lane_work *w,
                       scenario_instr *out)
{
    for (int l = 0; l < BANKS_WARP; l++) {
        scenario_lane *ln = &out->lane[l];
        uint32_t b = 1u << l;
        bool has = w->thread & b;
        ln->tid = warp * BANKS_WARP + l;
        ln->tx = has ? (int)lv->v[0][l] : 0;
        ln->ty = has ? (int)lv->v[1][l] : 0;
        ln->tz = has ? (int)lv->v[2][l] : 0;
        ln->bad_dim = -1;
        ln->eval = EXPR_OK;
        ln->eval_pos = 0;
        ln->address = 0;
        int reached = 0; /* index dimensions the lane evaluated */
        if (has && !(w->masked & b) && !(w->failed & b && w->bad_dim[l] < 0)) {
            if (w->failed & b) {
                reached = w->bad_dim[l];
                ln->bad_dim = w->bad_dim[l];
                ln->eval = w->eval[l];
                ln->eval_pos = w->eval_pos[l];
            } else if (w->oob & b) { /* its index d is outside (past the end: d = nidx - 1) */
                reached = w->bad_dim[l] + 1;
                ln->bad_dim = w->bad_dim[l];
            } else {
                reached = a->nidx;
                ln->address = w->address[l];
            }
        } else if (has && (w->failed & b)) { /* 'when' failed */
            ln->bad_dim = -1;
            ln->eval = w->eval[l];
            ln->eval_pos = w->eval_pos[l];
        }
        for (int d = 0; d < SCENARIO_MAX_DIMS; d++)
            ln->index[d] = d < reached ? w->index[d][l] : 0;
    }
}

/* Build the instruction of (access, iteration, warp) into out: the request always; every lane
 * record when full, else only each lane's state (what the bank rule and the totals read). The
 * lanes are worked out as vectors (lane_work), the records written once at the end. */
EXPR_CLONES static void build(const scenario *s, int access, int iteration, int warp, scenario_instr *out, bool full)
{
    out->seq = 0;
    out->access = access;
    out->iteration = iteration;
    out->warp = warp;
    out->loop_value = s->loop_values[iteration];
    const scenario_access *a = &s->accesses[access];
    const scenario_array *arr = &s->arrays[a->array];
    out->req.op = a->op;
    out->req.width = a->width;
    scenario_tensor_request(a, &out->req);
    expr_env env;
    instr_env(s, iteration, warp, &env);
    expr_lanes lv;
    lane_work w;
    w.thread = warp_lanes(s, warp, &lv);
    w.masked = w.oob = w.misaligned = w.failed = 0;
    uint32_t pending = w.thread; /* lanes still taking part */
    int64_t val[BANKS_WARP];
    uint64_t elem[BANKS_WARP]; /* wrapping: only lanes in bounds are used */
    if (a->when_text) {
        eval_lanes(&a->when, &env, &lv, &w, &pending, -1, val);
        w.masked = lanes_zero(val) & pending;
        pending &= ~w.masked;
    }
    for (int d = 0; d < a->nidx; d++) {
        eval_lanes(&a->index[d], &env, &lv, &w, &pending, d, val);
        const int64_t ext = arr->extent[d];
        for (int l = 0; l < BANKS_WARP; l++) {
            w.index[d][l] = val[l];
            elem[l] = (d ? elem[l] * (uint64_t)ext : 0) + (uint64_t)val[l];
        }
        uint32_t out_of = lanes_outside(val, ext) & pending;
        for (uint32_t m = out_of; m; m &= m - 1)
            w.bad_dim[__builtin_ctz(m)] = d;
        w.oob |= out_of;
        pending &= ~out_of;
    }
    /* the byte each lane moves first: element, field, then the swizzle; a vector wider than the
     * element may reach past the end (before or after the swizzle) */
    const int64_t esize = arr->elem_size, off = a->offset, bytes = arr->bytes - a->width, start = arr->start;
    const int64_t amask = a->align - 1; /* alignments are powers of two */
    uint32_t past = 0;
    if (arr->swz_bits == 0) {
        for (int l = 0; l < BANKS_WARP; l++)
            w.address[l] = (int64_t)(elem[l] * (uint64_t)esize + (uint64_t)off);
        past = lanes_above(w.address, bytes) & pending;
    } else {
        for (uint32_t m = pending; m; m &= m - 1) {
            int l = __builtin_ctz(m);
            int64_t at = (int64_t)(elem[l] * (uint64_t)esize + (uint64_t)off), to = scenario_swizzle_offset(arr, at);
            past |= (uint32_t)((at > bytes) | (to > bytes)) << l;
            w.address[l] = to;
        }
    }
    for (uint32_t m = past; m; m &= m - 1)
        w.bad_dim[__builtin_ctz(m)] = a->nidx - 1;
    w.oob |= past;
    pending &= ~past;
    for (int l = 0; l < BANKS_WARP; l++)
        w.address[l] = (int64_t)((uint64_t)w.address[l] + (uint64_t)start);
    w.misaligned = lanes_any(w.address, amask) & pending;
    uint32_t active = pending & ~w.misaligned;
    for (int l = 0; l < BANKS_WARP; l++)
        out->req.addr[l] = (active >> l) & 1 ? w.address[l] : 0;
    out->req.active = active;
    for (int l = 0; l < BANKS_WARP; l++) /* the masks are disjoint: one term at most is not 0 */
        out->lane[l].state = (scenario_lane_state)((((~w.thread >> l) & 1) * SCENARIO_LANE_NO_THREAD) |
                                                   (((w.masked >> l) & 1) * SCENARIO_LANE_MASKED) |
                                                   (((w.failed >> l) & 1) * SCENARIO_LANE_EVAL_ERROR) |
                                                   (((w.oob >> l) & 1) * SCENARIO_LANE_OOB) |
                                                   (((w.misaligned >> l) & 1) * SCENARIO_LANE_MISALIGNED));
    if (full)
        fill_lanes(a, warp, &lv, &w, out);
    scenario_tensor_lanes(out); /* ldmatrix/stmatrix: lanes past 8 x matrices give no row */
}

void scenario_instr_build(const scenario *s, int access, int iteration, int warp, scenario_instr *out)
{
    build(s, access, iteration, warp, out, true);
}

void scenario_instr_build_brief(const scenario *s, int access, int iteration, int warp, scenario_instr *out)
{
    build(s, access, iteration, warp, out, false);
}

void scenario_instr_at(const scenario *s, int64_t k, scenario_instr *out)
{
    if (s->is_trace) {
        memset(out, 0, sizeof *out);
        out->seq = k;
        out->access = -1;
        out->req = s->trace[k];
        for (int ln = 0; ln < BANKS_WARP; ln++) {
            scenario_lane *l = &out->lane[ln];
            l->tid = ln;
            l->tx = ln;
            l->bad_dim = -1;
            l->address = out->req.addr[ln];
            l->state = (out->req.active >> ln) & 1 ? SCENARIO_LANE_OK : SCENARIO_LANE_MASKED;
        }
        return;
    }
    int64_t nw = scenario_selected_warps(s);
    int it, access;
    scenario_instr_locate(s, k, &it, &access);
    scenario_instr_build(s, access, it, scenario_selected_warp(s, (int)(k % nw)), out);
    out->seq = k;
}

void scenario_instr_locate(const scenario *s, int64_t k, int *iteration, int *access)
{
    int64_t pair = k / scenario_selected_warps(s); /* the (iteration, access) pair, in order */
    if (s->iter_first[s->iterations] == (int64_t)s->iterations * s->naccesses) { /* every pair runs */
        *iteration = (int)(pair / s->naccesses);
        *access = (int)(pair % s->naccesses);
        return;
    }
    int lo = 0, hi = s->iterations - 1;
    while (lo < hi) { /* the last iteration whose first pair is at or before this one */
        int mid = (lo + hi + 1) / 2;
        if (s->iter_first[mid] <= pair)
            lo = mid;
        else
            hi = mid - 1;
    }
    int64_t j = pair - s->iter_first[lo];
    int a = 0;
    for (; a < s->naccesses - 1; a++)
        if (scenario_access_active(s, a, lo) && j-- == 0)
            break;
    *iteration = lo;
    *access = a;
}

bool scenario_access_may_fail(const scenario *s, int access)
{
    const scenario_access *a = &s->accesses[access];
    for (int d = 0; d < a->nidx; d++)
        if (!a->index[d].fast.ncode || a->index[d].fast.may_fail)
            return true;
    return a->when_text && (!a->when.fast.ncode || a->when.fast.may_fail);
}

/* The instruction depends on the iteration only through the loop variables its expressions read
 * (scenario_instr_build): without them, every iteration builds the same one. */
bool scenario_access_loop_invariant(const scenario *s, int access)
{
    const scenario_access *a = &s->accesses[access];
    for (int k = 0; k < s->nloops; k++) {
        expr_var v = (expr_var)(EXPR_LOOP + k);
        if (expr_uses(&a->when, v))
            return false;
        for (int d = 0; d < a->nidx; d++)
            if (expr_uses(&a->index[d], v))
                return false;
    }
    return true;
}

/* The environment of an instruction of (iteration, warp) before its slots: block, loops, warp. */
static void instr_env(const scenario *s, int iteration, int warp, expr_env *env)
{
    env->v[EXPR_BDX] = s->block[0];
    env->v[EXPR_BDY] = s->block[1];
    env->v[EXPR_BDZ] = s->block[2];
    for (int k = 0; k < SCENARIO_MAX_LOOPS; k++)
        env->v[EXPR_LOOP + k] = k < s->nloops ? scenario_loop_value(s, k, iteration) : 0;
    env->v[EXPR_WARP] = warp;
}

/* The instruction reads the loop only through the slots of its expressions (scenario_access_key):
 * none of their value codes reads a loop variable itself. */
bool scenario_access_loop_slotted(const scenario *s, int access)
{
    const scenario_access *a = &s->accesses[access];
    for (int k = 0; k < s->nloops; k++) {
        expr_var v = (expr_var)(EXPR_LOOP + k);
        if (a->when_text && expr_reads_directly(&a->when, v))
            return false;
        for (int d = 0; d < a->nidx; d++)
            if (expr_reads_directly(&a->index[d], v))
                return false;
    }
    return true;
}

/* The slots expr_prepare computes for each expression of access, in order ('when' first). */
int scenario_access_key(const scenario *s, int access, int iteration, int warp, int64_t *key)
{
    const scenario_access *a = &s->accesses[access];
    expr_env env;
    instr_env(s, iteration, warp, &env);
    int n = 0;
    for (int d = -1; d < a->nidx; d++) {
        const expr *x = d < 0 ? &a->when : &a->index[d];
        if (d < 0 && !a->when_text)
            continue;
        expr_prepare(x, &env);
        for (int k = 0; k < expr_slot_count(x); k++)
            key[n++] = env.v[EXPR_NVARS + k];
    }
    return n;
}

int64_t scenario_access_nodes(const scenario_access *a)
{
    int64_t n = a->when.n;
    for (int d = 0; d < a->nidx; d++)
        n += a->index[d].n;
    return n;
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

bool scenario_lane_past_end(const scenario *s, int access, const scenario_lane *l)
{
    if (access < 0 || l->state != SCENARIO_LANE_OOB)
        return false;
    const scenario_access *a = &s->accesses[access];
    for (int d = 0; d < a->nidx; d++)
        if (l->index[d] < 0 || l->index[d] >= s->arrays[a->array].extent[d])
            return false;
    return true;
}

void scenario_lane_element(const scenario *s, int access, const scenario_lane *l, strbuf *out)
{
    if (access < 0) {
        strbuf_addf(out, "smem[%lld]", (long long)l->address);
        return;
    }
    const scenario_access *a = &s->accesses[access];
    strbuf_addf(out, "%s", s->arrays[a->array].name);
    for (int d = 0; d < a->nidx; d++)
        strbuf_addf(out, "[%lld]", (long long)l->index[d]);
    if (a->field)
        strbuf_addf(out, ".%s", a->field);
}

void scenario_map_shape(const scenario_array *a, int64_t *rows, int64_t *cols)
{
    *cols = a->extent[a->ndims - 1];
    *rows = 1;
    for (int d = 0; d < a->ndims - 1; d++)
        *rows *= a->extent[d];
    if (a->ndims == 1) {
        int64_t per = 128 / a->elem_size > 0 ? 128 / a->elem_size : 1;
        *cols = per < a->extent[0] ? per : a->extent[0];
        *rows = (a->extent[0] + *cols - 1) / *cols;
    }
}

bool scenario_map_cell(const scenario_array *a, int64_t rowlen, int64_t e, int offset, int64_t *slot, int64_t *held)
{
    *slot = e * a->elem_size + offset;
    *held = scenario_swizzle_offset(a, *slot) / a->elem_size;
    if (a->ndims == 1)
        return *held >= a->dims[0];
    int64_t hrow = *held / rowlen, hc = *held % rowlen;
    bool pad = hc >= a->dims[a->ndims - 1];
    if (a->ndims == 3)
        pad |= hrow % a->extent[1] >= a->dims[1] || hrow / a->extent[1] >= a->dims[0];
    else
        pad |= hrow >= a->dims[0];
    return pad;
}

const char *scenario_lane_state_text(scenario_lane_state st)
{
    switch (st) {
    case SCENARIO_LANE_OK: return "active";
    case SCENARIO_LANE_NO_THREAD: return "no thread";
    case SCENARIO_LANE_MASKED: return "inactive";
    case SCENARIO_LANE_OOB: return "out of bounds";
    case SCENARIO_LANE_MISALIGNED: return "misaligned";
    case SCENARIO_LANE_EVAL_ERROR: return "expression error";
    }
    return "?";
}

bool scenario_instr_idle(const scenario_instr *in)
{
    for (int l = 0; l < BANKS_WARP; l++)
        if (in->lane[l].state != SCENARIO_LANE_NO_THREAD && in->lane[l].state != SCENARIO_LANE_MASKED)
            return false;
    return true;
}

int scenario_instr_threads(const scenario_instr *in)
{
    int n = 0;
    for (int l = 0; l < BANKS_WARP; l++)
        n += in->lane[l].state != SCENARIO_LANE_NO_THREAD;
    return n;
}

void scenario_instr_excluded(const scenario_instr *in, scenario_excluded *out)
{
    int mis = 0, oob = 0, err = 0;
    for (int l = 0; l < BANKS_WARP; l++) { /* counted without a branch */
        scenario_lane_state st = in->lane[l].state;
        mis += st == SCENARIO_LANE_MISALIGNED;
        oob += st == SCENARIO_LANE_OOB;
        err += st == SCENARIO_LANE_EVAL_ERROR;
    }
    *out = (scenario_excluded){.misaligned = mis, .out_of_bounds = oob, .expression_error = err};
}

void scenario_excluded_add(scenario_excluded *sum, const scenario_excluded *add)
{
    sum->misaligned += add->misaligned;
    sum->out_of_bounds += add->out_of_bounds;
    sum->expression_error += add->expression_error;
}

int64_t scenario_excluded_total(const scenario_excluded *e)
{
    return e->misaligned + e->out_of_bounds + e->expression_error;
}

const char *scenario_op_text(banks_op op)
{
    const kinds_row *k = kinds_of(op);
    return k ? kinds_op_text(k) : "?"; /* cp.async.cg: "cp.async" (with "cache": "cg") */
}
