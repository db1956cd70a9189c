/* scenario_edit_ops: the edits a user makes to a scenario (padding, swizzle, type, access
 * pattern, block, dimensions, arch, field, index text, struct fields) as typed changes, and the
 * struct-of-arrays form. Each change receives a private copy (scenario_edit_apply) and may try
 * candidates with scenario_finish; a failed change is dropped with its copy, so nothing here ever
 * undoes anything. Pure: no I/O. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/scenario_edit.h"

/* Validate after a change; on failure copy the reason into msg. */
static bool refinish(scenario *s, char *msg, size_t n)
{
    scenario_error e;
    if (scenario_finish(s, &e))
        return true;
    snprintf(msg, n, "%.60s: %.120s", e.path, e.msg);
    return false;
}

/* Replace *slot (an owned string) by a copy of val. */
static void set_text(char **slot, const char *val)
{
    free(*slot);
    *slot = val ? xstrdup(val) : NULL;
}

/* SCENARIO_CHANGE_PAD: the innermost padding moved by delta, kept within 0..64. */
static bool op_padding(scenario *s, const scenario_change *c, char *msg, size_t n)
{
    if (c->u.pad.array < 0 || c->u.pad.array >= s->narrays) { /* a trace has none */
        snprintf(msg, n, "a trace has no array to pad");
        return false;
    }
    scenario_array *a = &s->arrays[c->u.pad.array];
    int64_t *pad = &a->pad[a->ndims - 1];
    if (*pad + c->u.pad.delta < 0 || *pad + c->u.pad.delta > 64) {
        snprintf(msg, n, "padding stays within 0..64");
        return false;
    }
    *pad += c->u.pad.delta;
    return true;
}

/* SCENARIO_CHANGE_SWIZZLE: the array's swizzle set (or cleared), kept only if it validates. */
static bool op_set_swizzle(scenario *s, const scenario_change *c, char *msg, size_t n)
{
    if (c->u.swizzle.array < 0 || c->u.swizzle.array >= s->narrays) {
        snprintf(msg, n, "a trace has no array to swizzle");
        return false;
    }
    scenario_array *a = &s->arrays[c->u.swizzle.array];
    set_text(&a->swizzle, c->u.swizzle.text && *c->u.swizzle.text ? c->u.swizzle.text : NULL);
    if (!refinish(s, msg, n))
        return false;
    snprintf(msg, n, a->swizzle ? "%s: swizzle %s" : "%s: no swizzle", a->name, a->swizzle);
    return true;
}

/* SCENARIO_CHANGE_SWIZZLE_NEXT: the next TMA mode after the current one that validates. */
static bool op_cycle_swizzle(scenario *s, const scenario_change *c, char *msg, size_t n)
{
    static const char *const modes[] = {NULL, "32B", "64B", "128B"};
    if (c->u.swizzle.array < 0 || c->u.swizzle.array >= s->narrays) {
        snprintf(msg, n, "a trace has no array to swizzle");
        return false;
    }
    scenario_array *a = &s->arrays[c->u.swizzle.array];
    int cur = 0; /* an element-form swizzle counts as none: the next is 32B */
    for (int k = 1; k < 4; k++)
        if (a->swizzle && strcmp(a->swizzle, modes[k]) == 0)
            cur = k;
    char why[200] = "";
    for (int k = 1; k <= 4; k++) { /* the next mode this array can take */
        scenario_change one = *c;
        one.u.swizzle.text = modes[(cur + k) % 4];
        if (op_set_swizzle(s, &one, msg, n))
            return true;
        if (!why[0])
            snprintf(why, sizeof why, "%s", msg);
    }
    snprintf(msg, n, "%s", why);
    return false;
}

/* The element types t cycles through: scalars, then the CUDA vector types. */
static const char *const elem_types[] = {"float", "double", "char",   "short",   "int",
                                         "half",  "float2", "float4", "double2", "char4"};
#define NELEM_TYPES ((int)(sizeof elem_types / sizeof elem_types[0]))

/* Index of the type called name in list (aliases resolved), -1 when absent. */
static int type_index(const char *const *list, int n, const char *name)
{
    types_builtin b, c;
    if (!types_builtin_find(name, &b))
        return -1;
    for (int i = 0; i < n; i++)
        if (types_builtin_find(list[i], &c) && strcmp(b.name, c.name) == 0)
            return i;
    return -1;
}

/* SCENARIO_CHANGE_TYPE_NEXT: the next element type that validates (not for an array of
 * structs). */
static bool op_cycle_type(scenario *s, const scenario_change *c, char *msg, size_t n)
{
    if (c->u.array.array < 0 || c->u.array.array >= s->narrays) {
        snprintf(msg, n, "a trace has no element type");
        return false;
    }
    scenario_array *a = &s->arrays[c->u.array.array];
    if (a->type.struct_index >= 0) {
        snprintf(msg, n, "%s holds structs: use f to pick a field, o to edit the struct", a->name);
        return false;
    }
    int cur = type_index(elem_types, NELEM_TYPES, a->type.builtin.name);
    for (int k = 1; k <= NELEM_TYPES; k++) {
        set_text(&a->type_name, elem_types[(cur + k + NELEM_TYPES) % NELEM_TYPES]);
        if (refinish(s, msg, n))
            return true;
    }
    snprintf(msg, n, "no other element type fits this access");
    return false;
}

/* One preset: index texts (with %L for the innermost extent) and a label. */
typedef struct preset {
    char idx[SCENARIO_MAX_DIMS][96];
    const char *label;
    int stride; /* > 0: a stride preset that needs stride * threads elements (2-D: in a row) */
} preset;

/* The access presets for an array of ndims dimensions with innermost extent last. A preset
 * labelled "stride s" is truly stride s: the array grows to hold it, nothing wraps. */
static int presets(int ndims, int64_t last, preset *out)
{
    int k = 0;
    if (ndims == 2) {
        static const struct {
            const char *i0, *i1, *label;
            int stride;
        } p2[] = {
            {"threadIdx.x", "threadIdx.y", "column read", 0},
            {"threadIdx.y", "threadIdx.x", "row read", 0},
            {"threadIdx.x", "(threadIdx.x + threadIdx.y) % %L", "diagonal", 0},
            {"threadIdx.x", "threadIdx.y ^ threadIdx.x", "XOR-swizzled column", 0},
            {"threadIdx.y", "2 * threadIdx.x", "stride 2 in a row", 2},
            {"threadIdx.y", "3 * threadIdx.x", "stride 3 in a row", 3},
            {"threadIdx.y", "4 * threadIdx.x", "stride 4 in a row", 4},
            {"threadIdx.y", "8 * threadIdx.x", "stride 8 in a row", 8},
            {"0", "0", "broadcast", 0},
        };
        for (size_t i = 0; i < sizeof p2 / sizeof p2[0]; i++, k++) {
            const char *src[2] = {p2[i].i0, p2[i].i1};
            for (int d = 0; d < 2; d++) {
                const char *m = strstr(src[d], "%L");
                if (m)
                    snprintf(out[k].idx[d], 96, "%.*s%lld%s", (int)(m - src[d]), src[d], (long long)last, m + 2);
                else
                    snprintf(out[k].idx[d], 96, "%s", src[d]);
            }
            out[k].label = p2[i].label;
            out[k].stride = p2[i].stride;
        }
        return k;
    }
    if (ndims == 1) {
        /* odd strides (3, 5, 7, 33) are conflict-free on 32 banks; 6, 12 and 24 are 2-, 4- and
         * 8-way: the ways follow gcd(stride, 32), not whether the stride is a power of two */
        static const int strides[] = {1, 2, 3, 4, 5, 6, 7, 8, 12, 16, 24, 32, 33};
        static const char *const names[] = {"stride 1",  "stride 2",  "stride 3", "stride 4",  "stride 5",
                                            "stride 6",  "stride 7",  "stride 8", "stride 12", "stride 16",
                                            "stride 24", "stride 32", "stride 33"};
        for (size_t i = 0; i < sizeof strides / sizeof strides[0]; i++, k++) {
            if (strides[i] == 1)
                snprintf(out[k].idx[0], 96, "tid");
            else
                snprintf(out[k].idx[0], 96, "%d * tid", strides[i]);
            out[k].label = names[i];
            out[k].stride = strides[i];
        }
        snprintf(out[k].idx[0], 96, "0");
        out[k].label = "broadcast";
        out[k++].stride = 0;
        snprintf(out[k].idx[0], 96, "lane / 4");
        out[k].label = "4 lanes per word";
        out[k++].stride = 0;
    }
    return k;
}

/* Put preset p into access ai of s, growing the array so a stride preset never leaves it. */
static bool apply_preset(scenario *s, int ai, const preset *p, const int64_t *dims0, char *msg, size_t n)
{
    scenario_access *a = &s->accesses[ai];
    scenario_array *arr = &s->arrays[a->array];
    for (int d = 0; d < a->nidx; d++)
        set_text(&a->index_text[d], p->idx[d]);
    set_text(&a->label, p->label);
    memcpy(arr->dims, dims0, sizeof arr->dims);
    if (p->stride > 0) {
        int last = arr->ndims - 1;
        int64_t reach = arr->ndims == 1 ? (int64_t)p->stride * (scenario_threads(s) - 1) + 1
                                        : (int64_t)p->stride * (s->block[0] - 1) + 1;
        if (arr->dims[last] < reach)
            arr->dims[last] = reach;
    }
    return refinish(s, msg, n);
}

/* SCENARIO_CHANGE_PATTERN_NEXT: the next access preset for the array's shape that applies,
 * starting from the user's dimensions. */
static bool op_cycle_pattern(scenario *s, const scenario_change *c, char *msg, size_t n)
{
    if (!scenario_has_layout(s)) {
        snprintf(msg, n, "a trace has fixed addresses");
        return false;
    }
    scenario_access *a = &s->accesses[c->u.pattern.access];
    scenario_array *arr = &s->arrays[a->array];
    preset ps[16];
    int np = presets(arr->ndims, arr->extent[arr->ndims - 1], ps);
    if (np == 0) {
        snprintf(msg, n, "no presets for %d-D arrays: press e to edit the index", arr->ndims);
        return false;
    }
    int cur = -1;
    for (int i = 0; i < np; i++) {
        bool same = true;
        for (int d = 0; d < a->nidx; d++)
            same &= strcmp(a->index_text[d], ps[i].idx[d]) == 0;
        if (same)
            cur = i;
    }
    int64_t dims0[SCENARIO_MAX_DIMS]; /* a preset starts from the user's dimensions */
    memcpy(dims0, c->u.pattern.user_dims ? c->u.pattern.user_dims : arr->dims, sizeof dims0);
    for (int k = 1; k <= np; k++)
        if (apply_preset(s, c->u.pattern.access, &ps[(cur + k) % np], dims0, msg, n))
            return true;
    return false;
}

/* SCENARIO_CHANGE_BLOCK_NEXT: the next block shape of the list that validates. */
static bool op_cycle_block(scenario *s, const scenario_change *c, char *msg, size_t n)
{
    (void)c;
    static const int blocks[][3] = {{32, 32, 1}, {32, 8, 1},   {16, 16, 1}, {32, 1, 1}, {64, 1, 1},
                                    {256, 1, 1}, {1024, 1, 1}, {8, 8, 4},   {16, 8, 8}};
    enum { NB = sizeof blocks / sizeof blocks[0] };
    if (!scenario_has_layout(s)) {
        snprintf(msg, n, "a trace has no block");
        return false;
    }
    int cur = -1;
    for (int i = 0; i < NB; i++)
        if (s->block[0] == blocks[i][0] && s->block[1] == blocks[i][1] && s->block[2] == blocks[i][2])
            cur = i;
    free(s->warps); /* a warp selection belongs to the old block */
    s->warps = NULL;
    s->nwarps = 0;
    for (int k = 1; k <= NB; k++) {
        int i = (cur + k) % NB;
        memcpy(s->block, blocks[i], sizeof s->block);
        if (refinish(s, msg, n)) {
            snprintf(msg, n, "block %dx%dx%d", s->block[0], s->block[1], s->block[2]);
            return true;
        }
    }
    return false;
}

/* Try architectures from the current one in steps of dir (1 or -1). */
static bool arch_step(scenario *s, int dir, char *msg, size_t n)
{
    int np;
    const banks_profile *ps = banks_profiles(&np);
    int cur = (int)(s->arch - ps);
    char first[200] = ""; /* why the first architecture skipped does not fit (an access kind it lacks) */
    for (int k = 1; k <= np; k++) {
        s->arch = &ps[((cur + dir * k) % np + np) % np];
        if (refinish(s, msg, n)) {
            if (k > 1)
                snprintf(msg, n, "%s (%d skipped: %s)", s->arch->title, k - 1, first);
            else
                snprintf(msg, n, "%s", s->arch->title);
            return true;
        }
        const char *why = strstr(msg, ": "); /* the reason without its path */
        if (k == 1)
            snprintf(first, sizeof first, "%s", why ? why + 2 : msg);
    }
    return false;
}

static bool op_cycle_arch(scenario *s, const scenario_change *c, char *msg, size_t n)
{
    return arch_step(s, c->u.arch.step < 0 ? -1 : 1, msg, n);
}

/* SCENARIO_CHANGE_ARCH_SET: the architecture of the given index. */
static bool op_set_arch(scenario *s, const scenario_change *c, char *msg, size_t n)
{
    int np;
    const banks_profile *ps = banks_profiles(&np);
    if (c->u.arch.index < 0 || c->u.arch.index >= np) {
        snprintf(msg, n, "no such architecture");
        return false;
    }
    s->arch = &ps[c->u.arch.index];
    snprintf(msg, n, "%s", s->arch->title);
    return refinish(s, msg, n);
}

/* SCENARIO_CHANGE_FIELD_NEXT: the next field of the array's struct that the access can read. */
static bool op_cycle_field(scenario *s, const scenario_change *c, char *msg, size_t n)
{
    if (!scenario_has_layout(s)) {
        snprintf(msg, n, "a trace has no fields");
        return false;
    }
    scenario_access *a = &s->accesses[c->u.access.access];
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
    for (int k = 1; k <= st->nfields; k++) {
        const types_field *fd = &st->fields[(cur + k) % st->nfields];
        char path[96];
        snprintf(path, sizeof path, fd->count > 1 ? "%s[0]" : "%s", fd->name);
        set_text(&a->field, path);
        if (refinish(s, msg, n)) {
            snprintf(msg, n, "field %s", path);
            return true;
        }
    }
    snprintf(msg, n, "no field of %s can be read by one access", st->name);
    return false;
}

static bool op_set_index(scenario *s, const scenario_change *c, char *msg, size_t n)
{
    scenario_access *a = &s->accesses[c->u.index.access];
    set_text(c->u.index.dim < 0 ? &a->when_text : &a->index_text[c->u.index.dim], c->u.index.text);
    return refinish(s, msg, n);
}

/* SCENARIO_CHANGE_FIELDS_REORDER: the struct's fields by decreasing alignment, which removes
 * the holes between them. */
static bool op_reorder_fields(scenario *s, const scenario_change *c, char *msg, size_t n)
{
    if (c->u.field.struct_index < 0 || c->u.field.struct_index >= s->types.n) {
        snprintf(msg, n, "no struct to reorder");
        return false;
    }
    types_struct *st = &s->types.structs[c->u.field.struct_index];
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

/* SCENARIO_CHANGE_DIMENSION: the first or innermost dimension halved or doubled. */
static bool op_dimension(scenario *s, const scenario_change *c, char *msg, size_t n)
{
    if (c->u.dimension.array < 0 || c->u.dimension.array >= s->narrays) {
        snprintf(msg, n, "a trace has no array shape");
        return false;
    }
    scenario_array *a = &s->arrays[c->u.dimension.array];
    int d = c->u.dimension.inner ? a->ndims - 1 : 0;
    int64_t next = c->u.dimension.grow ? a->dims[d] * 2 : a->dims[d] / 2;
    if (next < 1 || next > (1 << 20)) {
        snprintf(msg, n, "dimension %d stays within 1..1048576", d);
        return false;
    }
    a->dims[d] = next;
    return true;
}

/* The field types the struct editor cycles through. */
static const char *const field_types[] = {"char",   "short",  "int",  "float",   "double", "half",
                                          "float2", "float4", "int2", "double2", "char4"};
#define NFIELD_TYPES ((int)(sizeof field_types / sizeof field_types[0]))

/* SCENARIO_CHANGE_FIELD_TYPE_NEXT: the next type of the field that validates. */
static bool op_field_type(scenario *s, const scenario_change *c, char *msg, size_t n)
{
    if (c->u.field.struct_index < 0 || c->u.field.struct_index >= s->types.n || c->u.field.field < 0 ||
        c->u.field.field >= s->types.structs[c->u.field.struct_index].nfields) {
        snprintf(msg, n, "no field selected");
        return false;
    }
    types_struct *st = &s->types.structs[c->u.field.struct_index];
    types_field *f = &st->fields[c->u.field.field];
    int cur = f->type.struct_index < 0 ? type_index(field_types, NFIELD_TYPES, f->type.builtin.name) : -1;
    for (int k = 1; k <= NFIELD_TYPES; k++) {
        set_text(&f->type_name, field_types[(cur + k + NFIELD_TYPES) % NFIELD_TYPES]);
        if (refinish(s, msg, n)) {
            snprintf(msg, n, "%s.%s is now %s; sizeof %s = %d", st->name, f->name, f->type_name, st->name, st->size);
            return true;
        }
    }
    snprintf(msg, n, "no other type fits the accesses that read this field");
    return false;
}

/* SCENARIO_CHANGE_FIELD_ADD: a char field after the given one (or at the end). */
static bool op_field_add(scenario *s, const scenario_change *c, char *msg, size_t n)
{
    if (c->u.field.struct_index < 0 || c->u.field.struct_index >= s->types.n) {
        snprintf(msg, n, "no struct to add a field to");
        return false;
    }
    types_struct *st = &s->types.structs[c->u.field.struct_index];
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
    int at = c->u.field.field < 0 ? st->nfields : c->u.field.field + 1;
    st->fields = xrealloc(st->fields, sizeof *st->fields * (size_t)(st->nfields + 1));
    memmove(&st->fields[at + 1], &st->fields[at], sizeof *st->fields * (size_t)(st->nfields - at));
    st->fields[at] = (types_field){.name = xstrdup(name), .type_name = xstrdup("char"), .count = 1};
    st->nfields++;
    if (!refinish(s, msg, n))
        return false;
    snprintf(msg, n, "added char %s; sizeof %s = %d", name, st->name, st->size);
    return true;
}

/* SCENARIO_CHANGE_FIELD_DELETE: the field removed; refused while an access reads it, unless
 * retarget moves those accesses to the first scalar field left. */
static bool op_field_delete(scenario *s, const scenario_change *c, char *msg, size_t n)
{
    if (c->u.field.struct_index < 0 || c->u.field.struct_index >= s->types.n || c->u.field.field < 0 ||
        c->u.field.field >= s->types.structs[c->u.field.struct_index].nfields) {
        snprintf(msg, n, "no field selected");
        return false;
    }
    types_struct *st = &s->types.structs[c->u.field.struct_index];
    if (st->nfields == 1) {
        snprintf(msg, n, "a struct keeps at least one field");
        return false;
    }
    /* the accesses that read the field (its first path component, in an array of this struct) */
    const char *fname = st->fields[c->u.field.field].name;
    int readers[8], nreaders = 0;
    for (int i = 0; i < s->naccesses; i++) {
        const scenario_access *a = &s->accesses[i];
        if (!a->field || a->array < 0 || s->arrays[a->array].type.struct_index != c->u.field.struct_index)
            continue;
        size_t k = strcspn(a->field, ".[");
        if (strlen(fname) == k && strncmp(a->field, fname, k) == 0 && nreaders < 8)
            readers[nreaders++] = i;
    }
    char target[80] = "";
    for (int f = 0; f < st->nfields && nreaders; f++) { /* what they read instead: a scalar */
        const types_field *o = &st->fields[f];
        if (f == c->u.field.field || o->type.struct_index >= 0 || o->type.builtin.components != 1)
            continue;
        snprintf(target, sizeof target, "%s%s", o->name, o->count > 1 ? "[0]" : "");
        break;
    }
    if (nreaders && !c->u.field.retarget) {
        snprintf(msg, n, "%s is read by access %d%s: d again deletes it%s%s", fname, readers[0],
                 nreaders > 1 ? " and others" : "", target[0] ? " and the access reads " : "", target);
        return false;
    }
    if (nreaders && !target[0]) {
        snprintf(msg, n, "%s is read by access %d and no other scalar field is left to read", fname, readers[0]);
        return false;
    }
    for (int i = 0; i < nreaders; i++)
        set_text(&s->accesses[readers[i]].field, target);
    types_field gone = st->fields[c->u.field.field];
    memmove(&st->fields[c->u.field.field], &st->fields[c->u.field.field + 1],
            sizeof *st->fields * (size_t)(st->nfields - c->u.field.field - 1));
    st->nfields--;
    char name[64];
    snprintf(name, sizeof name, "%s", gone.name);
    free(gone.name);
    free(gone.type_name);
    if (!refinish(s, msg, n))
        return false;
    if (nreaders)
        snprintf(msg, n, "removed %s; access %d reads %s now; sizeof %s = %d", name, readers[0], target, st->name,
                 st->size);
    else
        snprintf(msg, n, "removed %s; sizeof %s = %d", name, st->name, st->size);
    return true;
}

/* A struct declared in C: added, or in place of the struct of the same name (whose arrays and
 * accesses then use the new layout). */
static bool op_struct_decl(scenario *s, const scenario_change *c, char *msg, size_t n)
{
    types_struct st;
    int pos;
    char err[200];
    if (!c->u.decl.text || !types_parse_struct(c->u.decl.text, &s->types, &st, &pos, err, sizeof err)) {
        snprintf(msg, n, "column %d: %s", c->u.decl.text ? pos + 1 : 1, c->u.decl.text ? err : "no declaration");
        return false;
    }
    int i = types_struct_find(&s->types, st.name);
    bool replaced = i >= 0;
    if (i < 0) {
        if (s->types.n >= 256) {
            snprintf(msg, n, "at most 256 structs");
            for (int f = 0; f < st.nfields; f++) {
                free(st.fields[f].name);
                free(st.fields[f].type_name);
            }
            free(st.fields);
            free(st.name);
            return false;
        }
        s->types.structs = xrealloc(s->types.structs, sizeof *s->types.structs * (size_t)(s->types.n + 1));
        i = s->types.n++;
    } else {
        types_struct *old = &s->types.structs[i];
        for (int f = 0; f < old->nfields; f++) {
            free(old->fields[f].name);
            free(old->fields[f].type_name);
        }
        free(old->fields);
        free(old->name);
    }
    s->types.structs[i] = st;
    if (!refinish(s, msg, n))
        return false;
    const types_struct *d = &s->types.structs[i];
    snprintf(msg, n, "struct %s %s: sizeof %d, alignof %d", d->name, replaced ? "replaced" : "added", d->size,
             d->align);
    return true;
}

/* A C identifier from a field path: "pos.x" -> "pos_x", "tag[1]" -> "tag_1". */
static void ident_of(const char *path, char *out, size_t n)
{
    size_t o = 0;
    for (const char *p = path; *p && o + 1 < n; p++)
        if ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') || *p == '_')
            out[o++] = *p;
        else if (o && out[o - 1] != '_' && *p != ']')
            out[o++] = '_';
    out[o] = '\0';
}

bool scenario_edit_soa(const scenario *s, scenario *out, char *label, size_t n)
{
    if (!scenario_has_layout(s) || !scenario_clone(s, out)) {
        snprintf(label, n, "no struct-of-arrays form for a trace");
        return false;
    }
    /* One new array per (struct array, field path) read by some access, of the field's type. */
    int nconv = 0;
    strbuf names = {0};
    int old_narrays = out->narrays;
    for (int i = 0; i < out->naccesses; i++) {
        scenario_access *a = &out->accesses[i];
        const scenario_array *arr = &out->arrays[a->array];
        int off;
        types_ref t;
        char err[160];
        if (arr->type.struct_index < 0 || !a->field ||
            !types_field_path(&out->types, &arr->type, a->field, &off, &t, err, sizeof err) || t.struct_index >= 0)
            continue;
        char id[64], name[160];
        ident_of(a->field, id, sizeof id);
        snprintf(name, sizeof name, "%s_%s", arr->name, id);
        int found = -1;
        for (int k = old_narrays; k < out->narrays; k++)
            if (strcmp(out->arrays[k].name, name) == 0)
                found = k;
        if (found < 0) {
            out->arrays = xrealloc(out->arrays, sizeof *out->arrays * (size_t)(out->narrays + 1));
            arr = &out->arrays[a->array]; /* moved by the realloc */
            scenario_array *na = &out->arrays[out->narrays++];
            memset(na, 0, sizeof *na);
            na->name = xstrdup(name);
            na->type_name = xstrdup(t.builtin.name);
            na->ndims = arr->ndims;
            memcpy(na->dims, arr->dims, sizeof na->dims);
            memcpy(na->pad, arr->pad, sizeof na->pad);
            na->base = -1;
            strbuf_addf(&names, "%s%s", nconv ? ", " : "", name);
            nconv++;
        }
        set_text(&a->array_name, name);
        set_text(&a->field, NULL);
    }
    if (nconv == 0) {
        strbuf_free(&names);
        scenario_free(out);
        snprintf(label, n, "no struct field read by an access: no SoA form");
        return false;
    }
    /* Drop the struct arrays no access reads any more. */
    int w = 0;
    for (int i = 0; i < out->narrays; i++) {
        bool still = i >= old_narrays;
        for (int k = 0; k < out->naccesses && !still; k++)
            still = strcmp(out->accesses[k].array_name, out->arrays[i].name) == 0;
        if (still)
            out->arrays[w++] = out->arrays[i];
        else {
            free(out->arrays[i].name);
            free(out->arrays[i].type_name);
            free(out->arrays[i].swizzle);
        }
    }
    out->narrays = w;
    char msg[200];
    if (!refinish(out, msg, sizeof msg)) {
        strbuf_free(&names);
        scenario_free(out);
        snprintf(label, n, "no SoA form: %s", msg);
        return false;
    }
    snprintf(label, n, "SoA (%s)", strbuf_str(&names));
    strbuf_free(&names);
    return true;
}

bool scenario_change_apply(scenario *s, const scenario_change *c, char *msg, size_t n)
{
    switch (c->kind) {
    case SCENARIO_CHANGE_PAD: return op_padding(s, c, msg, n);
    case SCENARIO_CHANGE_SWIZZLE: return op_set_swizzle(s, c, msg, n);
    case SCENARIO_CHANGE_SWIZZLE_NEXT: return op_cycle_swizzle(s, c, msg, n);
    case SCENARIO_CHANGE_TYPE_NEXT: return op_cycle_type(s, c, msg, n);
    case SCENARIO_CHANGE_PATTERN_NEXT: return op_cycle_pattern(s, c, msg, n);
    case SCENARIO_CHANGE_BLOCK_NEXT: return op_cycle_block(s, c, msg, n);
    case SCENARIO_CHANGE_DIMENSION: return op_dimension(s, c, msg, n);
    case SCENARIO_CHANGE_ARCH_STEP: return op_cycle_arch(s, c, msg, n);
    case SCENARIO_CHANGE_ARCH_SET: return op_set_arch(s, c, msg, n);
    case SCENARIO_CHANGE_FIELD_NEXT: return op_cycle_field(s, c, msg, n);
    case SCENARIO_CHANGE_INDEX: return op_set_index(s, c, msg, n);
    case SCENARIO_CHANGE_FIELDS_REORDER: return op_reorder_fields(s, c, msg, n);
    case SCENARIO_CHANGE_FIELD_TYPE_NEXT: return op_field_type(s, c, msg, n);
    case SCENARIO_CHANGE_FIELD_ADD: return op_field_add(s, c, msg, n);
    case SCENARIO_CHANGE_FIELD_DELETE: return op_field_delete(s, c, msg, n);
    case SCENARIO_CHANGE_STRUCT_DECL: return op_struct_decl(s, c, msg, n);
    }
    snprintf(msg, n, "unknown change");
    return false;
}

bool scenario_change_fn(scenario *s, void *ctx, char *msg, size_t n)
{
    return scenario_change_apply(s, ctx, msg, n);
}

bool scenario_edit_change(scenario *cur, scenario_history *h, const scenario_change *c, char *msg, size_t n)
{
    return scenario_edit_apply(cur, h, scenario_change_fn, (void *)c, msg, n);
}
