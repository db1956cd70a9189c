/* walk_build: what the walk found -> the model's scenario, built through the model's structures
 * (arrays, structs, the loop nest, accesses with their source locations, expressions printed from
 * the expression pool) and checked with the model's own checks (scenario_finish and the loader's
 * evaluation check), so that every refusal names a place in the user's .cu: an access the model
 * refuses is listed as skipped at its FILE:LINE:COL and the rest goes on. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "import/walk_internal.h"
#include "io/load.h"
#include "model/kernelgen.h"
#include "model/kinds.h"
#include "model/names.h"

/* The kind's name as files write it: "load", "store", "atomic" (the kinds table). */
static const char *op_name(banks_op op)
{
    return kinds_op_text(kinds_of(op));
}

static bool ancestor(const W *w, int anc, int id)
{
    for (int p = id; p >= 0; p = w->loops[p].parent)
        if (p == anc)
            return true;
    return false;
}

/* Iterations of loop id (1 for a loop that could not be counted). */
static int64_t loop_count_of(const wloop *L)
{
    int64_t n = 0;
    if (L->kind == 0 && L->step != 0)
        n = L->step > 0 ? (L->to - L->from + L->step - 1) / L->step : (L->from - L->to - L->step - 1) / -L->step;
    else
        for (int64_t v = L->from; n < 4097 && (L->kind == 1 ? v < L->to : v > L->to) && v != 0;
             v = L->kind == 1 ? v * L->step : v / L->step)
            n++;
    return n > 0 ? n : 1;
}

/* Whether access a uses the variable of loop id. */
static bool access_uses(const W *w, const waccess *a, expr_ref when, const wloop *L)
{
    bool uses = expr_pool_uses(&w->ep, when, L->var);
    for (int d = 0; d < a->nidx; d++)
        uses |= expr_pool_uses(&w->ep, a->idx[d], L->var);
    return uses;
}

/* What the scenario is built from, beside w: the walker's loop and access behind each of the
 * scenario's, for the messages. */
typedef struct build {
    W *w;
    scenario *s;
    int loop_of[SCENARIO_MAX_LOOPS]; /* the scenario's loop k is w->loops[loop_of[k]] */
    int *acc_of;                     /* the scenario's access i is w->acc[acc_of[i]] */
    int *arr_of;                     /* the scenario's array i is w->arrays[arr_of[i]] */
    int *struct_arr;                 /* the scenario's struct i came with w->arrays[struct_arr[i]] */
} build;

/* Decide the scenario's loop nest: every loop around an imported access (its parent the nearest
 * one kept), at most 8 and 4096 iterations in all (the loops whose variable the fewest accesses
 * use are left out first, the longest of those; with
 * --loop LINE only that loop and those around it). keep[id]: loop id is in the nest. */
static void choose_loops(W *w, bool keep[MAX_LOOPS])
{
    for (int i = 0; i < w->nacc; i++)
        for (int j = 0; j < w->acc[i].nloops; j++)
            keep[w->acc[i].loops[j]] = true;
    if (w->o->loop_line > 0) { /* only the loop at that line and those around it */
        int chosen = -1;
        for (int id = 0; id < w->nloops; id++)
            if (keep[id] && w->loops[id].line == w->o->loop_line && chosen < 0)
                chosen = id;
        for (int id = 0; id < w->nloops; id++)
            keep[id] = keep[id] && chosen >= 0 && ancestor(w, id, chosen);
    }
    for (;;) {
        /* too many: leave out the loop whose variable the fewest accesses use (they are listed),
         * the longest of those */
        int n = 0, drop = -1, drop_cost = 0;
        int64_t total = 1;
        for (int id = 0; id < w->nloops; id++)
            if (keep[id]) {
                n++;
                total *= loop_count_of(&w->loops[id]);
                int cost = 0;
                for (int i = 0; i < w->nacc; i++)
                    cost += access_uses(w, &w->acc[i], w->acc[i].when, &w->loops[id]);
                if (drop < 0 || cost < drop_cost ||
                    (cost == drop_cost && loop_count_of(&w->loops[id]) > loop_count_of(&w->loops[drop]))) {
                    drop = id;
                    drop_cost = cost;
                }
                if (total > 1 << 20)
                    total = 1 << 20;
            }
        if (n <= SCENARIO_MAX_LOOPS && total <= SCENARIO_MAX_ITERATIONS)
            break;
        keep[drop] = false;
    }
}

/* The scenario's loops (names: the source's, made unique and never a word of expressions);
 * slot[id] is loop id's index among them. */
static void add_loops(build *b, const bool keep[MAX_LOOPS], int slot[MAX_LOOPS])
{
    W *w = b->w;
    scenario *s = b->s;
    for (int id = 0; id < w->nloops; id++) {
        if (!keep[id])
            continue;
        const wloop *L = &w->loops[id];
        const char *base = expr_is_builtin_name(L->user) ? "loop_var" : L->user;
        char *nm = xstrdup(base);
        for (int k = 2;; k++) {
            bool taken = false;
            for (int j = 0; j < s->nloops; j++)
                taken |= !strcmp(s->loops[j].var, nm);
            if (!taken)
                break;
            free(nm);
            nm = walk_fmt("%s_%d", base, k);
        }
        int k = s->nloops++;
        slot[id] = k;
        b->loop_of[k] = id;
        scenario_loop *sl = &s->loops[k];
        sl->var = nm;
        sl->from = L->from;
        sl->to = L->to;
        sl->step = L->step;
        sl->kind = L->kind == 1 ? SCENARIO_LOOP_MUL : L->kind == 2 ? SCENARIO_LOOP_DIV : SCENARIO_LOOP_ADD;
        sl->parent = -1;
        for (int p = L->parent; p >= 0 && sl->parent < 0; p = w->loops[p].parent)
            if (keep[p])
                sl->parent = slot[p];
    }
    s->nested = s->nloops > 0; /* written as a nest (version 2) */
}

/* Access a as the scenario's access (appended to s), its expressions in the scenario's loop
 * variables; inner is its innermost loop kept (-1: none). */
static void add_access(build *b, int ai, const int slot[MAX_LOOPS], const bool keep[MAX_LOOPS], int inner)
{
    W *w = b->w;
    scenario *s = b->s;
    const waccess *a = &w->acc[ai];
    expr_ref idx[3], when = a->when;
    for (int d = 0; d < a->nidx; d++)
        idx[d] = a->idx[d];
    for (int id = 0; id < w->nloops; id++) {
        /* a loop kept: its scenario variable; one left out: its first iteration */
        expr_ref v = keep[id] ? expr_pool_var(&w->ep, EXPR_LOOP + slot[id]) : expr_pool_num(&w->ep, w->loops[id].from);
        for (int d = 0; d < a->nidx; d++)
            idx[d] = expr_pool_subst(&w->ep, idx[d], w->loops[id].var, v);
        when = expr_pool_subst(&w->ep, when, w->loops[id].var, v);
    }
    const char *names[SCENARIO_MAX_LOOPS];
    for (int k = 0; k < s->nloops; k++)
        names[k] = s->loops[k].var;
    b->acc_of[s->naccesses] = ai;
    scenario_access *sa = &s->accesses[s->naccesses++];
    memset(sa, 0, sizeof *sa);
    sa->op = a->op;
    sa->returns = true;
    if (a->op == BANKS_ATOMIC) {
        banks_atomic_parse(a->atomic, &sa->atomic);
        sa->returns = a->returns;
    }
    sa->array_name = xstrdup(w->arrays[a->array].name);
    sa->nidx = a->nidx;
    strbuf sb = {0};
    for (int d = 0; d < a->nidx; d++) {
        expr_pool_print(&w->ep, idx[d], names, s->nloops, &sb);
        sa->index_text[d] = strbuf_take(&sb);
    }
    int64_t always;
    if (when && !(expr_pool_const(&w->ep, when, &always) && always != 0)) { /* "when": "1" says nothing */
        expr_pool_print(&w->ep, when, names, s->nloops, &sb);
        sa->when_text = strbuf_take(&sb);
    }
    sa->field = a->field ? xstrdup(a->field) : NULL;
    sa->vector = a->vector ? xstrdup(a->vector) : NULL;
    if (a->op == BANKS_LDMATRIX || a->op == BANKS_STMATRIX) {
        sa->matrices = a->matrices;
        sa->trans = a->trans;
    }
    sa->label = xstrdup(a->label);
    sa->source = a->source ? xstrdup(a->source) : NULL;
    scenario_srcloc_set(&sa->at, a->file, a->line, a->col, a->text);
    sa->loop = s->nested ? inner : 0;
}

/* The accesses: each inside the loops kept, or listed as skipped when it uses a loop left out
 * (a loop left out that it does not use is noted once). An access outside a loop runs at its
 * first iteration, or its last when it follows the loop: the model does that from the order of
 * the accesses, which is the order of the source. */
static void add_accesses(build *b, const bool keep[MAX_LOOPS], const int slot[MAX_LOOPS])
{
    W *w = b->w;
    bool noted[MAX_LOOPS] = {false};
    b->s->accesses = xcalloc((size_t)(w->nacc ? w->nacc : 1), sizeof *b->s->accesses);
    b->acc_of = xcalloc((size_t)(w->nacc ? w->nacc : 1), sizeof *b->acc_of);
    for (int i = 0; i < w->nacc; i++) {
        waccess *a = &w->acc[i];
        const warray *arr = &w->arrays[a->array];
        const char *why = NULL;
        char buf[300];
        int inner = -1;
        for (int j = 0; j < a->nloops && !why; j++) {
            const wloop *M = &w->loops[a->loops[j]];
            if (keep[a->loops[j]]) {
                inner = slot[a->loops[j]];
                continue;
            }
            if (!noted[a->loops[j]]) {
                /* the accesses that use it are analysed at its first iteration, as those of a loop
                 * that cannot be counted are */
                noted[a->loops[j]] = true;
                walk_add_skip(w, M->line, 1,
                              walk_fmt("%s:%d: note: the loop over '%s' is left out of the scenario's loop nest (at "
                                       "most %d loops and %d iterations in all): the accesses inside it are counted "
                                       "once, at its first iteration where they use it ('%s' = %lld; choose the loop "
                                       "with --loop %d)",
                                       w->file_base, M->line, M->user, SCENARIO_MAX_LOOPS, SCENARIO_MAX_ITERATIONS,
                                       M->user, (long long)M->from, M->line));
            }
        }
        bool kept = false;
        for (int k = 0; k < b->s->narrays; k++)
            kept |= b->arr_of[k] == a->array;
        if (!why && !kept) {
            if (arr->why)
                snprintf(buf, sizeof buf, "the array cannot be imported: %s", arr->why);
            else
                snprintf(buf, sizeof buf, "its array is left out of the scenario (more than %d arrays)",
                         SCENARIO_MAX_ARRAYS);
            why = buf;
        }
        if (!why && b->s->naccesses == SCENARIO_MAX_ACCESSES) {
            snprintf(buf, sizeof buf, "more than %d accesses: a scenario holds at most %d", SCENARIO_MAX_ACCESSES,
                     SCENARIO_MAX_ACCESSES);
            why = buf;
        }
        if (why) {
            walk_add_skip(w, a->line, a->col,
                          walk_fmt("%s: skipped %s of '%s': %s", a->label, op_name(a->op), arr->name, why));
            continue;
        }
        add_access(b, i, slot, keep, inner);
    }
}

/* A name the scenario cannot use (reserved in CUDA code, such as __smem) becomes one it can
 * (smem, or smem_2 when that is taken), with a note; the accesses name the array by index. */
static void array_rename(W *w, int i)
{
    warray *a = &w->arrays[i];
    if (names_ok_in_cuda(a->name) && kernelgen_name_ok(a->name))
        return;
    const char *base = a->name;
    while (*base == '_')
        base++;
    char *n = NULL;
    for (int k = 1; k < 100 && !n; k++) {
        char *c = k == 1 ? walk_fmt("%s", *base ? base : "shared") : walk_fmt("%s_%d", *base ? base : "shared", k);
        bool taken = !names_ok_in_cuda(c) || !kernelgen_name_ok(c);
        for (int j = 0; j < w->narrays && !taken; j++)
            taken = j != i && !strcmp(w->arrays[j].name, c);
        if (taken)
            free(c);
        else
            n = c;
    }
    if (!n)
        return;
    int l, cl;
    walk_where(a->decl, &l, &cl, NULL);
    walk_add_skip(w, l, cl,
                  walk_fmt("%s:%d:%d: note: the array '%s' is called '%s' in the scenario ('%s' is reserved in CUDA "
                           "code)",
                           w->file_base, l, cl, a->name, n, a->name));
    free(a->name);
    a->name = n;
}

/* The arrays (and the structs they hold): the static ones first, placed one after the other as
 * nvcc does; then the extern ones, which all start where the static ones end (they are one block
 * of dynamic memory). An array that cannot be imported and is not used is listed. */
static void add_arrays(build *b)
{
    W *w = b->w;
    scenario *s = b->s;
    int64_t static_end = 0;
    s->arrays = xcalloc((size_t)(w->narrays ? w->narrays : 1), sizeof *s->arrays);
    b->arr_of = xcalloc((size_t)(w->narrays ? w->narrays : 1), sizeof *b->arr_of);
    for (int pass = 0; pass < 2; pass++)
        for (int i = 0; i < w->narrays; i++) {
            warray *a = &w->arrays[i];
            bool is_extern = clang_getCanonicalType(clang_getCursorType(a->decl)).kind == CXType_IncompleteArray;
            if (is_extern != (pass == 1))
                continue;
            if (a->why) {
                int l, c;
                walk_where(a->decl, &l, &c, NULL);
                bool used = false;
                for (int j = 0; j < w->nacc; j++)
                    used |= w->acc[j].array == i;
                if (!used)
                    walk_add_skip(w, l, c,
                                  walk_fmt("%s:%d:%d: skipped the array '%s': %s", walk_file_of(w, a->decl), l, c,
                                           a->name, a->why));
                continue;
            }
            if (a->is_struct) {
                char sbuf[64];
                int before = s->types.n;
                walk_struct_emit(w, walk_elem_type(clang_getCursorType(a->decl)), &s->types, sbuf, sizeof sbuf);
                b->struct_arr = xrealloc(b->struct_arr, (size_t)(s->types.n ? s->types.n : 1) * sizeof *b->struct_arr);
                for (int k = before; k < s->types.n; k++)
                    b->struct_arr[k] = i;
            }
            array_rename(w, i);
            if (s->narrays == SCENARIO_MAX_ARRAYS) { /* its accesses are listed as skipped */
                int l, c;
                walk_where(a->decl, &l, &c, NULL);
                walk_add_skip(w, l, c,
                              walk_fmt("%s:%d:%d: skipped the array '%s': more than %d arrays (a scenario's limit)",
                                       w->file_base, l, c, a->name, SCENARIO_MAX_ARRAYS));
                continue;
            }
            b->arr_of[s->narrays] = i;
            scenario_array *sa = &s->arrays[s->narrays++];
            sa->name = xstrdup(a->name);
            sa->type_name = xstrdup(a->type);
            sa->ndims = a->ndims;
            memcpy(sa->dims, a->dims, sizeof sa->dims);
            sa->base = -1;
            int64_t align = clang_Type_getAlignOf(a->elem), bytes = a->elem_size;
            align = align < 16 ? 16 : align;
            for (int d = 0; d < a->ndims; d++)
                bytes *= a->dims[d];
            if (is_extern)
                sa->base = (static_end + 15) / 16 * 16;
            else
                static_end = (static_end + align - 1) / align * align + bytes;
        }
}

/* The place in the user's source a refusal at path points to ("FILE:LINE:COL: "): an array's
 * declaration (a struct's: that of the array that holds it), a loop's line; else "FILE: ". */
static char *refusal_place(const build *b, const char *path)
{
    const W *w = b->w;
    int k, l = 0, c = 0;
    if (sscanf(path, "arrays[%d", &k) == 1 && k >= 0 && k < b->s->narrays)
        walk_where(w->arrays[b->arr_of[k]].decl, &l, &c, NULL);
    else if (sscanf(path, "structs[%d", &k) == 1 && k >= 0 && k < b->s->types.n)
        walk_where(w->arrays[b->struct_arr[k]].decl, &l, &c, NULL);
    else if ((sscanf(path, "loops[%d", &k) == 1 || (k = 0, !strncmp(path, "loop.", 5))) && k >= 0 && k < b->s->nloops) {
        l = w->loops[b->loop_of[k]].line;
        c = w->loops[b->loop_of[k]].col;
    }
    return l > 0 ? walk_fmt("%s:%d:%d: ", w->file_base, l, c) : walk_fmt("%s: ", w->file_base);
}

/* Check s as the loader would (scenario_finish, the evaluation check, then the file format's
 * limits): an access refused is listed as skipped at its place and dropped, and the check runs
 * again. False when no access is left (*no_access) or when something else is refused
 * (*refused: the message). */
static bool validate(build *b, bool *no_access, char **refused)
{
    W *w = b->w;
    scenario *s = b->s;
    for (;;) {
        if (s->naccesses == 0) {
            *no_access = true;
            return false;
        }
        scenario_error se;
        if (scenario_finish(s, &se) && load_check_eval(s, &se) && load_check_limits(s, &se))
            return true;
        int i;
        if (sscanf(se.path, "accesses[%d", &i) != 1 || i < 0 || i >= s->naccesses) {
            char *at = refusal_place(b, se.path);
            *refused =
                walk_fmt("%sthe imported scenario is refused: %s%s%s", at, se.path, *se.path ? ": " : "", se.msg);
            free(at);
            return false;
        }
        const waccess *a = &w->acc[b->acc_of[i]];
        walk_add_skip(
            w, a->line, a->col,
            walk_fmt("%s: skipped %s of '%s': %s", a->label, op_name(a->op), w->arrays[a->array].name, se.msg));
        scenario_access_remove(s, i);
        memmove(&b->acc_of[i], &b->acc_of[i + 1], (size_t)(s->naccesses - i) * sizeof *b->acc_of);
    }
}

bool walk_build(W *w, const char *kname, scenario *s, bool *no_access, char **refused)
{
    build b = {w, s, {0}, NULL, NULL, NULL};
    *no_access = false;
    *refused = NULL;
    scenario_init(s);
    s->name = walk_fmt("%s: %s", w->file_base, kname);
    s->description = walk_fmt("Imported from %s (kernel %s) by bankscope import.", w->file_base, kname);
    s->arch = banks_profile_find("sm_90");
    for (int d = 0; d < 3; d++)
        s->block[d] = w->o->block[d] > 0 ? w->o->block[d] : 1;
    add_arrays(&b);
    bool ok = s->narrays > 0;
    if (!ok)
        fprintf(stderr, "%s: kernel '%s' has no __shared__ array that can be imported\n", w->o->file, kname);
    else {
        bool keep[MAX_LOOPS] = {false};
        int slot[MAX_LOOPS];
        choose_loops(w, keep);
        add_loops(&b, keep, slot);
        add_accesses(&b, keep, slot);
        ok = validate(&b, no_access, refused);
    }
    free(b.acc_of);
    free(b.arr_of);
    free(b.struct_arr);
    if (!ok) {
        scenario_free(s);
        scenario_init(s);
    }
    return ok;
}
