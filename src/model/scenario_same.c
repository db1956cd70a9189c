/* scenario_same: whether two scenarios would be saved as the same file, decided on the structs,
 * never by writing them out: what the TUI's "modified" mark asks after every key. It compares
 * exactly what io/save.c writes (the two are kept in step by hand; tests/unit/test_scenario_edit.c
 * changes each value of written files one at a time and fails where the two disagree, or where a
 * key the writer writes is never seen to change the file): a field the file does not hold never
 * makes a scenario modified. */
#include <string.h>

#include "model/kinds.h"
#include "model/scenario_edit.h"

static bool same_str(const char *a, const char *b)
{
    return a == b || (a && b && strcmp(a, b) == 0);
}

/* As save.c's save_kind writes the kind: op, and the fields that go with the op. */
static bool same_kind(const banks_request *a, const banks_request *b)
{
    if (a->op != b->op)
        return false;
    const kinds_row *k = kinds_of(a->op);
    if (k && kinds_takes_key(k, "matrices") && (a->matrices != b->matrices || a->trans != b->trans))
        return false;
    if (k && kinds_takes_key(k, "atomic") && (a->atomic != b->atomic || a->returns != b->returns))
        return false;
    return true;
}

/* Trace entries as the file holds them: kind, width, and the addresses of the active lanes. */
static bool same_trace(const scenario *a, const scenario *b)
{
    if (scenario_table_same(a, b))
        return true;
    if (a->ntrace != b->ntrace)
        return false;
    for (int i = 0; i < a->ntrace; i++) {
        const banks_request *x = &a->trace[i], *y = &b->trace[i];
        if (!same_kind(x, y) || x->width != y->width || x->active != y->active)
            return false;
        for (int l = 0; l < BANKS_WARP; l++)
            if ((x->active >> l) & 1 && x->addr[l] != y->addr[l])
                return false;
    }
    return true;
}

/* The structs as save.c writes them: name, forced alignment, and each field's declaration. */
static bool same_types(const types_registry *a, const types_registry *b)
{
    if (a->n != b->n)
        return false;
    for (int i = 0; i < a->n; i++) {
        const types_struct *x = &a->structs[i], *y = &b->structs[i];
        if (!same_str(x->name, y->name) || x->force_align != y->force_align || x->nfields != y->nfields)
            return false;
        for (int f = 0; f < x->nfields; f++) {
            char dx[160], dy[160];
            types_field_decl(&x->fields[f], dx, sizeof dx);
            types_field_decl(&y->fields[f], dy, sizeof dy);
            if (strcmp(dx, dy) != 0)
                return false;
        }
    }
    return true;
}

static bool same_array(const scenario_array *x, const scenario_array *y)
{
    if (!same_str(x->name, y->name) || !same_str(x->type_name, y->type_name) || x->ndims != y->ndims ||
        (x->base >= 0 ? x->base : -1) != (y->base >= 0 ? y->base : -1) || !same_str(x->swizzle, y->swizzle))
        return false;
    for (int d = 0; d < x->ndims; d++)
        if (x->dims[d] != y->dims[d] || x->pad[d] != y->pad[d])
            return false;
    return true;
}

/* An access's location as save.c writes it: the known fields of file, line, column and text. */
static bool same_location(const scenario_srcloc *x, const scenario_srcloc *y)
{
    bool kx = scenario_srcloc_known(x), ky = scenario_srcloc_known(y);
    if (!kx || !ky)
        return kx == ky;
    return same_str(x->file, y->file) && (x->line > 0 ? x->line : 0) == (y->line > 0 ? y->line : 0) &&
           (x->column > 0 ? x->column : 0) == (y->column > 0 ? y->column : 0) && same_str(x->text, y->text);
}

/* The loop an access names in a nest (its variable), NULL when the file names none. */
static const char *access_loop_var(const scenario *s, const scenario_access *a)
{
    return a->loop >= 0 && a->loop < s->nloops ? s->loops[a->loop].var : NULL;
}

/* An access as save.c writes it: kind, array, index, the optional keys, location and (in a nest)
 * its loop. */
static bool same_access(const scenario *sa, const scenario_access *x, const scenario *sb, const scenario_access *y,
                        bool nested)
{
    banks_request kx = scenario_access_kind(x), ky = scenario_access_kind(y);
    if (!same_kind(&kx, &ky) || !same_str(x->array_name, y->array_name) || x->nidx != y->nidx)
        return false;
    for (int d = 0; d < x->nidx; d++)
        if (!same_str(x->index_text[d], y->index_text[d]))
            return false;
    if (!same_str(x->field, y->field) || !same_str(x->vector, y->vector) || !same_str(x->when_text, y->when_text) ||
        !same_str(x->label, y->label) || !same_str(x->source, y->source) || !same_location(&x->at, &y->at))
        return false;
    return !nested || same_str(access_loop_var(sa, x), access_loop_var(sb, y));
}

/* The loops as save.c writes them: variable, bounds, step kind and size, and the loop each is in. */
static bool same_loops(const scenario *a, const scenario *b)
{
    if (a->nloops != b->nloops)
        return false;
    for (int k = 0; k < a->nloops; k++) {
        const scenario_loop *x = &a->loops[k], *y = &b->loops[k];
        if (!same_str(x->var, y->var) || x->from != y->from || x->to != y->to || x->kind != y->kind ||
            x->step != y->step || (x->parent >= 0) != (y->parent >= 0) ||
            (x->parent >= 0 && !same_str(a->loops[x->parent].var, b->loops[y->parent].var)))
            return false;
    }
    return true;
}

bool scenario_same_file(const scenario *a, const scenario *b)
{
    if (a->is_trace != b->is_trace || !same_str(a->name, b->name) || !same_str(a->description, b->description) ||
        strcmp(a->arch->name, b->arch->name) != 0)
        return false;
    if (!scenario_has_layout(a))
        return same_trace(a, b);
    bool nested = scenario_is_nest(a);
    if (nested != scenario_is_nest(b) || memcmp(a->block, b->block, sizeof a->block) != 0 ||
        !same_types(&a->types, &b->types) || a->narrays != b->narrays || a->naccesses != b->naccesses ||
        !same_loops(a, b))
        return false;
    for (int i = 0; i < a->narrays; i++)
        if (!same_array(&a->arrays[i], &b->arrays[i]))
            return false;
    for (int i = 0; i < a->naccesses; i++)
        if (!same_access(a, &a->accesses[i], b, &b->accesses[i], nested))
            return false;
    if ((a->warps != NULL) != (b->warps != NULL))
        return false;
    if (a->warps && (a->nwarps != b->nwarps || memcmp(a->warps, b->warps, sizeof *a->warps * (size_t)a->nwarps) != 0))
        return false;
    return true;
}
