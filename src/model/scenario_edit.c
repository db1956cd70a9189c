/* scenario_edit: deep copies of scenarios, edits applied to copies that replace the current
 * scenario only when they validate, and the undo/redo stacks of copies. */
#include "model/scenario_edit.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char *dup_or_null(const char *s)
{
    return s ? xstrdup(s) : NULL;
}

/* Copy the struct definitions (as written); layouts are derived again by scenario_finish. */
static void clone_types(const types_registry *src, types_registry *dst)
{
    dst->n = src->n;
    dst->structs = src->n ? xmalloc(sizeof *dst->structs * (size_t)src->n) : NULL;
    for (int i = 0; i < src->n; i++) {
        const types_struct *a = &src->structs[i];
        types_struct *b = &dst->structs[i];
        memset(b, 0, sizeof *b);
        b->name = xstrdup(a->name);
        b->force_align = a->force_align;
        b->nfields = a->nfields;
        b->fields = a->nfields ? xmalloc(sizeof *b->fields * (size_t)a->nfields) : NULL;
        for (int f = 0; f < a->nfields; f++) {
            memset(&b->fields[f], 0, sizeof b->fields[f]);
            b->fields[f].name = xstrdup(a->fields[f].name);
            b->fields[f].type_name = xstrdup(a->fields[f].type_name);
            b->fields[f].count = a->fields[f].count;
        }
    }
}

/* Copy one access: what the user wrote; parsed expressions and derived fields come from finish. */
static void clone_access(const scenario_access *a, scenario_access *b)
{
    memset(b, 0, sizeof *b);
    b->op = a->op;
    b->matrices = a->matrices; /* the tensor-era kinds */
    b->trans = a->trans;
    b->atomic = a->atomic;
    b->returns = a->returns;
    b->array_name = xstrdup(a->array_name);
    b->nidx = a->nidx;
    for (int d = 0; d < a->nidx; d++)
        b->index_text[d] = xstrdup(a->index_text[d]);
    b->when_text = dup_or_null(a->when_text);
    b->field = dup_or_null(a->field);
    b->vector = dup_or_null(a->vector);
    b->label = dup_or_null(a->label);
    b->source = dup_or_null(a->source);
    scenario_srcloc_copy(&a->at, &b->at);
    b->loop = a->loop;
}

bool scenario_clone(const scenario *src, scenario *dst)
{
    scenario_init(dst);
    dst->name = dup_or_null(src->name);
    dst->description = dup_or_null(src->description);
    dst->arch = src->arch;
    memcpy(dst->block, src->block, sizeof dst->block);
    dst->is_trace = src->is_trace;
    dst->whatif = dup_or_null(src->whatif);
    if (src->is_trace) {
        scenario_table_share(src, dst); /* the instructions are shared, never copied */
    } else {
        clone_types(&src->types, &dst->types);
        dst->narrays = src->narrays;
        dst->arrays = xmalloc(sizeof *dst->arrays * (size_t)(src->narrays ? src->narrays : 1));
        for (int i = 0; i < src->narrays; i++) {
            const scenario_array *a = &src->arrays[i];
            scenario_array *b = &dst->arrays[i];
            memset(b, 0, sizeof *b);
            b->name = xstrdup(a->name);
            b->type_name = xstrdup(a->type_name);
            b->ndims = a->ndims;
            memcpy(b->dims, a->dims, sizeof b->dims);
            memcpy(b->pad, a->pad, sizeof b->pad);
            b->base = a->base;
            b->swizzle = dup_or_null(a->swizzle);
        }
        dst->naccesses = src->naccesses;
        dst->accesses = xmalloc(sizeof *dst->accesses * (size_t)(src->naccesses ? src->naccesses : 1));
        for (int i = 0; i < src->naccesses; i++)
            clone_access(&src->accesses[i], &dst->accesses[i]);
        dst->nloops = src->nloops;
        dst->nested = src->nested;
        for (int k = 0; k < src->nloops; k++) {
            const scenario_loop *L = &src->loops[k];
            dst->loops[k] =
                (scenario_loop){dup_or_null(L->var), L->from, L->to, L->step, L->kind, L->parent, 0, NULL, 0};
        }
        if (src->warps) {
            dst->nwarps = src->nwarps;
            dst->warps = xmalloc(sizeof *dst->warps * (size_t)(src->nwarps ? src->nwarps : 1));
            memcpy(dst->warps, src->warps, sizeof *dst->warps * (size_t)src->nwarps);
        }
    }
    scenario_error e;
    if (scenario_finish(dst, &e))
        return true;
    scenario_free(dst);
    return false;
}

/* Push s (taken over) on a bounded stack, dropping the oldest entry when full; the stack grows
 * by doubling, so an edit never pays for slots it does not use. */
static void stack_push(scenario **stack, int *n, int *cap, scenario *s)
{
    if (*n == SCENARIO_HISTORY_MAX) {
        scenario_free(&(*stack)[0]);
        memmove(&(*stack)[0], &(*stack)[1], sizeof **stack * (size_t)(*n - 1));
        (*n)--;
    }
    if (*n == *cap) {
        *cap = *cap ? 2 * *cap : 2;
        *cap = *cap > SCENARIO_HISTORY_MAX ? SCENARIO_HISTORY_MAX : *cap;
        *stack = xrealloc(*stack, sizeof **stack * (size_t)*cap);
    }
    (*stack)[(*n)++] = *s;
    memset(s, 0, sizeof *s);
}

static void stack_clear(scenario *stack, int *n)
{
    for (int i = 0; i < *n; i++)
        scenario_free(&stack[i]);
    *n = 0;
}

void scenario_edit_replace(scenario *cur, scenario_history *h, scenario *next)
{
    if (h) {
        stack_push(&h->undo, &h->nundo, &h->undo_cap, cur);
        stack_clear(h->redo, &h->nredo);
    } else {
        scenario_free(cur);
    }
    *cur = *next;
    memset(next, 0, sizeof *next);
}

bool scenario_edit_apply(scenario *cur, scenario_history *h, scenario_edit_fn fn, void *ctx, char *msg, size_t n)
{
    scenario copy;
    if (n)
        msg[0] = '\0';
    if (!scenario_clone(cur, &copy)) {
        snprintf(msg, n, "the scenario does not validate");
        return false;
    }
    if (!fn(&copy, ctx, msg, n)) {
        scenario_free(&copy);
        return false;
    }
    scenario_error e;
    if (!scenario_finish(&copy, &e)) {
        snprintf(msg, n, "%.60s: %.180s", e.path, e.msg);
        scenario_free(&copy);
        return false;
    }
    scenario_edit_replace(cur, h, &copy);
    return true;
}

bool scenario_edit_undo(scenario *cur, scenario_history *h)
{
    if (!h || h->nundo == 0)
        return false;
    stack_push(&h->redo, &h->nredo, &h->redo_cap, cur);
    *cur = h->undo[--h->nundo];
    return true;
}

bool scenario_edit_redo(scenario *cur, scenario_history *h)
{
    if (!h || h->nredo == 0)
        return false;
    stack_push(&h->undo, &h->nundo, &h->undo_cap, cur);
    *cur = h->redo[--h->nredo];
    return true;
}

void scenario_history_free(scenario_history *h)
{
    stack_clear(h->undo, &h->nundo);
    stack_clear(h->redo, &h->nredo);
    free(h->undo);
    free(h->redo);
    memset(h, 0, sizeof *h);
}
