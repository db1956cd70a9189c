/* edits: what the single keys do to a scenario (padding, type, access pattern, block, arch,
 * field) and the compare-mode variant. No curses here: each edit changes the scenario, runs
 * scenario_finish, and undoes itself with a message when the result does not validate. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/save.h"
#include "tui/tui.h"

/* Re-validate after an edit; on failure copy the reason into msg. */
static bool refinish(scenario *s, char *msg, size_t n)
{
    scenario_error e;
    if (scenario_finish(s, &e))
        return true;
    snprintf(msg, n, "%.60s: %.120s", e.path, e.msg);
    return false;
}

bool edit_padding(scenario *s, int array, int delta, char *msg, size_t n)
{
    if (s->is_trace || array < 0) {
        snprintf(msg, n, "a trace has no array to pad");
        return false;
    }
    scenario_array *a = &s->arrays[array];
    int64_t *pad = &a->pad[a->ndims - 1];
    int64_t old = *pad;
    if (old + delta < 0 || old + delta > 64) {
        snprintf(msg, n, "padding stays within 0..64");
        return false;
    }
    *pad = old + delta;
    if (refinish(s, msg, n))
        return true;
    *pad = old;
    refinish(s, msg + strlen(msg), 0);
    return false;
}

/* Replace *slot (an owned string) by a copy of val. */
static void set_text(char **slot, const char *val)
{
    free(*slot);
    *slot = val ? xstrdup(val) : NULL;
}

bool edit_cycle_type(scenario *s, int array, char *msg, size_t n)
{
    static const char *const types[] = {"float", "double", "char", "short", "int",
                                        "half", "float2", "float4", "double2", "char4"};
    enum { NT = sizeof types / sizeof types[0] };
    if (s->is_trace || array < 0) {
        snprintf(msg, n, "a trace has no element type");
        return false;
    }
    scenario_array *a = &s->arrays[array];
    if (a->type.struct_index >= 0) {
        snprintf(msg, n, "%s holds structs: use f to pick a field", a->name);
        return false;
    }
    char *old = xstrdup(a->type_name);
    int cur = -1;
    for (int i = 0; i < NT; i++)
        if (strcmp(types[i], a->type.builtin.name) == 0)
            cur = i;
    for (int k = 1; k <= NT; k++) {
        set_text(&a->type_name, types[(cur + k + NT) % NT]);
        if (refinish(s, msg, n)) {
            free(old);
            return true;
        }
    }
    set_text(&a->type_name, old);
    free(old);
    refinish(s, msg, 0);
    snprintf(msg, n, "no other element type fits this access");
    return false;
}

/* The access presets for an array of ndims dimensions, extent last (index texts, label). */
static int presets(int ndims, int64_t last, char out[][3][64], const char **labels)
{
    int k = 0;
    if (ndims == 2) {
        static const char *const p2[][3] = {
            {"threadIdx.x", "threadIdx.y", "column read"},
            {"threadIdx.y", "threadIdx.x", "row read"},
            {"threadIdx.x", "(threadIdx.x + threadIdx.y) % %L", "diagonal"},
            {"threadIdx.x", "threadIdx.y ^ threadIdx.x", "XOR-swizzled column"},
            {"threadIdx.y", "(2 * threadIdx.x) % %L", "stride 2 in a row"},
            {"0", "0", "broadcast"},
        };
        for (size_t i = 0; i < sizeof p2 / sizeof p2[0]; i++, k++) {
            for (int d = 0; d < 2; d++) {
                const char *t = p2[i][d], *m = strstr(t, "%L");
                if (m)
                    snprintf(out[k][d], 64, "%.*s%lld%s", (int)(m - t), t, (long long)last, m + 2);
                else
                    snprintf(out[k][d], 64, "%s", t);
            }
            labels[k] = p2[i][2];
        }
        return k;
    }
    if (ndims == 1) {
        static const int strides[] = {1, 2, 4, 8, 16, 32, 33};
        static const char *const names[] = {"stride 1", "stride 2", "stride 4", "stride 8",
                                            "stride 16", "stride 32", "stride 33"};
        for (size_t i = 0; i < sizeof strides / sizeof strides[0]; i++, k++) {
            if (strides[i] == 1)
                snprintf(out[k][0], 64, "tid %% %lld", (long long)last);
            else
                snprintf(out[k][0], 64, "(%d * tid) %% %lld", strides[i], (long long)last);
            labels[k] = names[i];
        }
        snprintf(out[k][0], 64, "0");
        labels[k++] = "broadcast";
        snprintf(out[k][0], 64, "lane / 4");
        labels[k++] = "4 lanes per word";
    }
    return k;
}

bool edit_cycle_pattern(scenario *s, int access, char *msg, size_t n)
{
    if (s->is_trace) {
        snprintf(msg, n, "a trace has fixed addresses");
        return false;
    }
    scenario_access *a = &s->accesses[access];
    const scenario_array *arr = &s->arrays[a->array];
    char texts[16][3][64];
    const char *labels[16];
    int np = presets(arr->ndims, arr->extent[arr->ndims - 1], texts, labels);
    if (np == 0) {
        snprintf(msg, n, "no presets for %d-D arrays: press e to edit the index", arr->ndims);
        return false;
    }
    int cur = -1;
    for (int i = 0; i < np; i++) {
        bool same = true;
        for (int d = 0; d < a->nidx; d++)
            same &= strcmp(a->index_text[d], texts[i][d]) == 0;
        if (same)
            cur = i;
    }
    char *saved[SCENARIO_MAX_DIMS];
    for (int d = 0; d < a->nidx; d++)
        saved[d] = xstrdup(a->index_text[d]);
    char *saved_label = a->label ? xstrdup(a->label) : NULL;
    bool ok = false;
    for (int k = 1; k <= np && !ok; k++) {
        int i = (cur + k) % np;
        for (int d = 0; d < a->nidx; d++)
            set_text(&a->index_text[d], texts[i][d]);
        set_text(&a->label, labels[i]);
        ok = refinish(s, msg, n);
    }
    if (!ok) {
        for (int d = 0; d < a->nidx; d++)
            set_text(&a->index_text[d], saved[d]);
        set_text(&a->label, saved_label);
        refinish(s, msg, 0);
    }
    for (int d = 0; d < a->nidx; d++)
        free(saved[d]);
    free(saved_label);
    return ok;
}

bool edit_cycle_block(scenario *s, char *msg, size_t n)
{
    static const int blocks[][2] = {{32, 32}, {32, 8}, {16, 16}, {32, 1}, {64, 1}, {256, 1}, {1024, 1}};
    enum { NB = sizeof blocks / sizeof blocks[0] };
    if (s->is_trace) {
        snprintf(msg, n, "a trace has no block");
        return false;
    }
    int cur = -1;
    for (int i = 0; i < NB; i++)
        if (s->block[0] == blocks[i][0] && s->block[1] == blocks[i][1] && s->block[2] == 1)
            cur = i;
    int old[3] = {s->block[0], s->block[1], s->block[2]};
    int *old_warps = s->warps;
    int old_n = s->nwarps;
    s->warps = NULL;
    s->nwarps = 0;
    for (int k = 1; k <= NB; k++) {
        int i = (cur + k) % NB;
        s->block[0] = blocks[i][0];
        s->block[1] = blocks[i][1];
        s->block[2] = 1;
        if (refinish(s, msg, n)) {
            free(old_warps);
            return true;
        }
    }
    memcpy(s->block, old, sizeof old);
    s->warps = old_warps;
    s->nwarps = old_n;
    refinish(s, msg, 0);
    return false;
}

bool edit_cycle_arch(scenario *s, char *msg, size_t n)
{
    int np;
    const banks_profile *ps = banks_profiles(&np);
    const banks_profile *old = s->arch;
    int cur = (int)(old - ps);
    for (int k = 1; k <= np; k++) {
        s->arch = &ps[(cur + k) % np];
        if (refinish(s, msg, n))
            return true;
    }
    s->arch = old;
    refinish(s, msg, 0);
    return false;
}

bool edit_cycle_field(scenario *s, int access, char *msg, size_t n)
{
    if (s->is_trace) {
        snprintf(msg, n, "a trace has no fields");
        return false;
    }
    scenario_access *a = &s->accesses[access];
    const scenario_array *arr = &s->arrays[a->array];
    if (arr->type.struct_index < 0) {
        snprintf(msg, n, "%s holds %s, not structs", arr->name, arr->type.builtin.name);
        return false;
    }
    const types_struct *st = &s->types.structs[arr->type.struct_index];
    int cur = -1;
    for (int f = 0; f < st->nfields; f++)
        if (a->field && strcmp(a->field, st->fields[f].name) == 0)
            cur = f;
    char *old = a->field ? xstrdup(a->field) : NULL;
    for (int k = 1; k <= st->nfields; k++) {
        const types_field *fd = &st->fields[(cur + k) % st->nfields];
        char path[96];
        if (fd->count > 1)
            snprintf(path, sizeof path, "%s[0]", fd->name);
        else
            snprintf(path, sizeof path, "%s", fd->name);
        set_text(&a->field, path);
        if (refinish(s, msg, n)) {
            free(old);
            return true;
        }
    }
    set_text(&a->field, old);
    free(old);
    refinish(s, msg, 0);
    snprintf(msg, n, "no field of %s can be read by one access", st->name);
    return false;
}

/* Total wavefronts of one access over all selected warps and iterations. */
static int64_t access_wavefronts(const scenario *s, int access)
{
    int64_t sum = 0;
    scenario_instr in;
    banks_result r;
    for (int it = 0; it < s->iterations; it++)
        for (int w = 0; w < scenario_selected_warps(s); w++) {
            scenario_instr_build(s, access, it, scenario_selected_warp(s, w), &in);
            banks_analyze(s->arch, &in.req, &r, NULL);
            sum += r.wavefronts;
        }
    return sum;
}

bool edit_compare_variant(const scenario *s, int access, scenario *out, char *label, size_t n)
{
    if (s->is_trace || !save_clone(s, out)) {
        snprintf(label, n, "no variant for a trace");
        return false;
    }
    scenario_access *a = &out->accesses[access];
    scenario_array *arr = &out->arrays[a->array];
    char msg[200];
    if (arr->type.struct_index >= 0 && a->field) {
        /* Struct of arrays: the field becomes the element type. */
        int off;
        types_ref t;
        if (types_field_path(&out->types, &arr->type, a->field, &off, &t, msg, sizeof msg) &&
            t.struct_index < 0) {
            set_text(&arr->type_name, t.builtin.name);
            set_text(&a->field, NULL);
            if (refinish(out, msg, sizeof msg)) {
                snprintf(label, n, "SoA: %s as its own %s array", a->array_name, t.builtin.name);
                return true;
            }
        }
        scenario_free(out);
        snprintf(label, n, "no SoA form for this field");
        return false;
    }
    /* Padding: the smallest padding with the fewest wavefronts (0..32); when the current one is
     * already that good, the contrast is no padding at all. */
    int64_t *pad = &arr->pad[arr->ndims - 1];
    int64_t start = *pad, best_pad = -1, best = INT64_MAX;
    int64_t now = access_wavefronts(out, access);
    for (int64_t p = 0; p <= 32; p++) {
        *pad = p;
        if (p == start || !refinish(out, msg, sizeof msg))
            continue;
        int64_t w = access_wavefronts(out, access);
        if (w < best) {
            best = w;
            best_pad = p;
        }
    }
    bool contrast = best_pad < 0 || best >= now;
    if (contrast)
        best_pad = start != 0 ? 0 : -1;
    *pad = best_pad < 0 ? start : best_pad;
    if (best_pad < 0 || !refinish(out, msg, sizeof msg)) {
        scenario_free(out);
        snprintf(label, n, "no other padding is better");
        return false;
    }
    if (contrast)
        snprintf(label, n, "no padding (the current one is already the best)");
    else
        snprintf(label, n, "padding %lld (best of 0..32)", (long long)best_pad);
    return true;
}

bool edit_reorder_fields(scenario *s, int si, char *msg, size_t n)
{
    if (si < 0 || si >= s->types.n) {
        snprintf(msg, n, "no struct to reorder");
        return false;
    }
    types_struct *st = &s->types.structs[si];
    int before = st->size;
    /* stable insertion sort by decreasing alignment: the classic way to remove holes */
    for (int i = 1; i < st->nfields; i++) {
        types_field f = st->fields[i];
        int fa = types_align(&s->types, &f.type), j = i;
        while (j > 0 && types_align(&s->types, &st->fields[j - 1].type) < fa) {
            st->fields[j] = st->fields[j - 1];
            j--;
        }
        st->fields[j] = f;
    }
    if (!refinish(s, msg, n))
        return false;
    snprintf(msg, n, "struct %s: fields by alignment, sizeof %d -> %d", st->name, before, st->size);
    return true;
}

bool edit_dimension(scenario *s, int array, bool inner, bool grow, char *msg, size_t n)
{
    if (s->is_trace || array < 0) {
        snprintf(msg, n, "a trace has no array shape");
        return false;
    }
    scenario_array *a = &s->arrays[array];
    int d = inner ? a->ndims - 1 : 0;
    int64_t old = a->dims[d], next = grow ? old * 2 : old / 2;
    if (next < 1 || next > (1 << 20)) {
        snprintf(msg, n, "dimension %d stays within 1..1048576", d);
        return false;
    }
    a->dims[d] = next;
    if (refinish(s, msg, n))
        return true;
    a->dims[d] = old;
    refinish(s, msg + strlen(msg), 0);
    return false;
}

/* The field types the struct editor cycles through. */
static const char *const field_types[] = {"char", "short", "int", "float", "double", "half", "float2", "float4", "int2",
                                          "double2", "char4"};
#define NFIELD_TYPES ((int)(sizeof field_types / sizeof field_types[0]))

bool edit_field_type(scenario *s, int si, int fi, char *msg, size_t n)
{
    if (si < 0 || si >= s->types.n || fi < 0 || fi >= s->types.structs[si].nfields) {
        snprintf(msg, n, "no field selected");
        return false;
    }
    types_field *f = &s->types.structs[si].fields[fi];
    char *old = xstrdup(f->type_name);
    int cur = -1;
    for (int i = 0; i < NFIELD_TYPES; i++)
        if (f->type.struct_index < 0 && strcmp(f->type.builtin.name, field_types[i]) == 0)
            cur = i;
    for (int k = 1; k <= NFIELD_TYPES; k++) {
        set_text(&f->type_name, field_types[(cur + k) % NFIELD_TYPES]);
        if (refinish(s, msg, n)) {
            free(old);
            snprintf(msg, n, "%s.%s is now %s; sizeof %s = %d", s->types.structs[si].name, f->name, f->type_name,
                     s->types.structs[si].name, s->types.structs[si].size);
            return true;
        }
    }
    set_text(&f->type_name, old);
    free(old);
    refinish(s, msg, 0);
    snprintf(msg, n, "no other type fits the accesses that read this field");
    return false;
}

bool edit_field_add(scenario *s, int si, int fi, char *msg, size_t n)
{
    if (si < 0 || si >= s->types.n) {
        snprintf(msg, n, "no struct to add a field to");
        return false;
    }
    types_struct *st = &s->types.structs[si];
    if (st->nfields >= 256) {
        snprintf(msg, n, "a struct has at most 256 fields");
        return false;
    }
    char name[32];
    for (int k = 1;; k++) { /* a fresh name: f1, f2, ... */
        snprintf(name, sizeof name, "f%d", k);
        bool used = false;
        for (int i = 0; i < st->nfields; i++)
            used |= strcmp(st->fields[i].name, name) == 0;
        if (!used)
            break;
    }
    int at = fi < 0 ? st->nfields : fi + 1;
    st->fields = xrealloc(st->fields, sizeof *st->fields * (size_t)(st->nfields + 1));
    memmove(&st->fields[at + 1], &st->fields[at], sizeof *st->fields * (size_t)(st->nfields - at));
    st->fields[at] = (types_field){.name = xstrdup(name), .type_name = xstrdup("char"), .count = 1};
    st->nfields++;
    if (refinish(s, msg, n)) {
        snprintf(msg, n, "added char %s; sizeof %s = %d", name, st->name, st->size);
        return true;
    }
    free(st->fields[at].name);
    free(st->fields[at].type_name);
    memmove(&st->fields[at], &st->fields[at + 1], sizeof *st->fields * (size_t)(st->nfields - at - 1));
    st->nfields--;
    refinish(s, msg + strlen(msg), 0);
    return false;
}

bool edit_field_delete(scenario *s, int si, int fi, char *msg, size_t n)
{
    if (si < 0 || si >= s->types.n || fi < 0 || fi >= s->types.structs[si].nfields) {
        snprintf(msg, n, "no field selected");
        return false;
    }
    types_struct *st = &s->types.structs[si];
    if (st->nfields == 1) {
        snprintf(msg, n, "a struct keeps at least one field");
        return false;
    }
    types_field gone = st->fields[fi];
    memmove(&st->fields[fi], &st->fields[fi + 1], sizeof *st->fields * (size_t)(st->nfields - fi - 1));
    st->nfields--;
    if (refinish(s, msg, n)) {
        snprintf(msg, n, "removed %s; sizeof %s = %d", gone.name, st->name, st->size);
        free(gone.name);
        free(gone.type_name);
        return true;
    }
    memmove(&st->fields[fi + 1], &st->fields[fi], sizeof *st->fields * (size_t)(st->nfields - fi));
    st->fields[fi] = gone;
    st->nfields++;
    refinish(s, msg + strlen(msg), 0);
    return false;
}
