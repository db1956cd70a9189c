/* kernelgen: fills kernels/measure.cu with one access of a scenario. */
#include "kernelgen.h"

#include "kinds.h"
#include "names.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

bool kernelgen_name_ok(const char *name)
{
    return names_ok_in_cuda(name);
}

int64_t kernelgen_smem_bytes(const scenario *s)
{
    if (scenario_has_layout(s))
        return s->smem_bytes > 0 ? s->smem_bytes : 16;
    int64_t hi = 16;
    for (int i = 0; i < s->ntrace; i++)
        for (int l = 0; l < BANKS_WARP; l++)
            if ((s->trace[i].active >> l) & 1 && s->trace[i].addr[l] + s->trace[i].width > hi)
                hi = s->trace[i].addr[l] + s->trace[i].width;
    return (hi + 127) / 128 * 128;
}

/* The CUDA spelling of a builtin: __half has no header-free type, so use same-size storage. */
static const char *cuda_type(const char *name)
{
    if (strcmp(name, "__half") == 0 || strcmp(name, "__nv_bfloat16") == 0)
        return "unsigned short";
    if (strcmp(name, "__half2") == 0 || strcmp(name, "__nv_bfloat162") == 0)
        return "ushort2";
    if (strcmp(name, "__nv_fp8_e4m3") == 0 || strcmp(name, "__nv_fp8_e5m2") == 0)
        return "unsigned char";
    return name;
}

/* The scenario's structs as CUDA declarations, with __align__ where the file forces one. */
static void emit_structs(const scenario *s, strbuf *o)
{
    for (int i = 0; i < s->types.n; i++) {
        const types_struct *st = &s->types.structs[i];
        if (st->force_align)
            strbuf_addf(o, "struct __align__(%d) %s {\n", st->force_align, st->name);
        else
            strbuf_addf(o, "struct %s {\n", st->name);
        for (int f = 0; f < st->nfields; f++) {
            const types_field *fd = &st->fields[f];
            const char *tn = fd->type.struct_index >= 0 ? s->types.structs[fd->type.struct_index].name
                                                        : cuda_type(fd->type.builtin.name);
            strbuf_addf(o, "    %s%s %s", fd->type.struct_index >= 0 ? "struct " : "", tn, fd->name);
            if (fd->count > 1)
                strbuf_addf(o, "[%d]", fd->count);
            strbuf_addf(o, ";  /* offset %d */\n", fd->offset);
        }
        strbuf_addf(o, "};  /* sizeof %d */\n", st->size);
    }
}

/* Re-emit a field path token by token (names checked against the struct, indexes as numbers). */
static bool emit_field(const char *path, strbuf *o, char *err, size_t n)
{
    const char *p = path;
    while (*p) {
        if (!(isalpha((unsigned char)*p) || *p == '_')) {
            snprintf(err, n, "bad field path '%s'", path);
            return false;
        }
        strbuf_addc(o, '.');
        while (isalnum((unsigned char)*p) || *p == '_')
            strbuf_addc(o, *p++);
        if (*p == '[') {
            p++;
            long k = 0;
            if (!isdigit((unsigned char)*p)) {
                snprintf(err, n, "bad field index in '%s'", path);
                return false;
            }
            while (isdigit((unsigned char)*p))
                k = k * 10 + (*p++ - '0');
            if (*p++ != ']') {
                snprintf(err, n, "bad field index in '%s'", path);
                return false;
            }
            strbuf_addf(o, "[%ld]", k);
        }
        if (*p == '.')
            p++;
    }
    return true;
}

static const char *const var_names[EXPR_NVARS] = {
    "threadIdx.x", "threadIdx.y", "threadIdx.z", "blockDim.x", "blockDim.y", "blockDim.z",
    "bs_lane",     "bs_warp",     "bs_tid",      "bs_loop",    "bs_loop1",   "bs_loop2",
    "bs_loop3",    "bs_loop4",    "bs_loop5",    "bs_loop6",   "bs_loop7"};

/* The address of a lane of a swizzled array, as the model computes it (scenario_instr_build):
 * the byte offset of the lane's element and field inside the array (taken from the typed view,
 * so the compiler's layout is the one used), swizzled with scenario_swizzle_offset's arithmetic,
 * and the lane left out when the swizzled access would reach past the array's end. */
static bool emit_swizzled(const scenario_access *a, const scenario_array *arr, strbuf *o, char *err, size_t n)
{
    strbuf_addf(o, "    const long long bs_off = (long long)((const unsigned char *)&%s", arr->name);
    for (int d = 0; d < a->nidx; d++)
        strbuf_addf(o, "[bs_i%d]", d);
    if (a->field && !emit_field(a->field, o, err, n))
        return false;
    strbuf_addf(o, " - (const unsigned char *)%s);\n", arr->name);
    strbuf_addf(o, "    /* %s swizzle: bits [%d, %d) of the byte offset XOR-ed into bits [%d, %d) */\n", arr->swizzle,
                arr->swz_base + arr->swz_shift, arr->swz_base + arr->swz_shift + arr->swz_bits, arr->swz_base,
                arr->swz_base + arr->swz_bits);
    strbuf_addf(o, "    const long long bs_at = bs_off ^ (((bs_off >> %d) & %lldLL) << %d);\n",
                arr->swz_base + arr->swz_shift, (long long)(((int64_t)1 << arr->swz_bits) - 1), arr->swz_base);
    strbuf_addf(o, "    if (bs_at + %d > %lldLL) {\n        *bs_active = false;\n        return 0;\n    }\n", a->width,
                (long long)arr->bytes);
    strbuf_addf(o, "    return (unsigned)__cvta_generic_to_shared(bs_smem) + (unsigned)(%lldLL + bs_at);\n",
                (long long)arr->start);
    return true;
}

/* The address function's body for access: its guards and index expressions in C, or the table
 * of a trace's lanes; false with err when a name is reserved in CUDA or a field cannot be
 * written. */
static bool emit_body(const scenario *s, int access, strbuf *o, char *err, size_t n)
{
    if (!scenario_has_layout(s)) {
        /* bs_table[32]: bytes between the copies of the region that replaying warps use */
        strbuf_addf(o, "    const int bs_a = bs_table[bs_lane];\n    *bs_active = bs_a >= 0;\n"
                       "    return (unsigned)__cvta_generic_to_shared(bs_smem) + (unsigned)(bs_a < 0 ? 0 : bs_a)\n"
                       "           + (unsigned)(bs_warp * bs_table[32]);\n");
        return true;
    }
    const scenario_access *a = &s->accesses[access];
    const scenario_array *arr = &s->arrays[a->array];
    if (!kernelgen_name_ok(arr->name)) {
        snprintf(err, n, "array name '%s' is reserved in CUDA code", arr->name);
        return false;
    }
    const char *tn =
        arr->type.struct_index >= 0 ? s->types.structs[arr->type.struct_index].name : cuda_type(arr->type.builtin.name);
    const char *kw = arr->type.struct_index >= 0 ? "struct " : "";
    /* a typed view of the array: T (*name)[e1][e2] at its byte offset */
    strbuf_addf(o, "    %s%s (*%s)", kw, tn, arr->name);
    for (int d = 1; d < arr->ndims; d++)
        strbuf_addf(o, "[%lld]", (long long)arr->extent[d]);
    strbuf_addf(o, " = reinterpret_cast<%s%s (*)", kw, tn);
    for (int d = 1; d < arr->ndims; d++)
        strbuf_addf(o, "[%lld]", (long long)arr->extent[d]);
    strbuf_addf(o, ">(bs_smem + %lld);\n", (long long)arr->start);
    /* the model's arithmetic: 64 bits, checked (bs_err: an error the model reports) */
    strbuf_addf(o, "    bool bs_err = false;\n");
    for (int d = 0; d < a->nidx; d++) {
        strbuf_addf(o, "    const long long bs_i%d = ", d);
        expr_emit_cuda(&a->index[d], var_names, o);
        strbuf_addf(o, ";\n");
    }
    strbuf_addf(o, "    *bs_active = bs_tid < %d", scenario_threads(s));
    if (a->when_text) {
        strbuf_addf(o, " && (");
        expr_emit_cuda(&a->when, var_names, o);
        strbuf_addc(o, ')');
    }
    for (int d = 0; d < a->nidx; d++)
        strbuf_addf(o, "\n        && bs_i%d >= 0 && bs_i%d < %lldLL", d, d, (long long)arr->extent[d]);
    if (a->vector) { /* the whole vector inside the array, as the model requires */
        strbuf_addf(o, "\n        && ");
        for (int d = 1; d < a->nidx; d++)
            strbuf_addc(o, '(');
        strbuf_addf(o, "bs_i0");
        for (int d = 1; d < a->nidx; d++)
            strbuf_addf(o, " * %lldLL + bs_i%d)", (long long)arr->extent[d], d);
        strbuf_addf(o, " * %lldLL + %d <= %lldLL", (long long)arr->elem_size, a->offset + a->width,
                    (long long)arr->bytes);
    }
    strbuf_addf(o, "\n        && !bs_err;\n    if (!*bs_active)\n        return 0;\n");
    if (arr->swz_bits)
        return emit_swizzled(a, arr, o, err, n);
    strbuf_addf(o, "    return (unsigned)__cvta_generic_to_shared(&%s", arr->name);
    for (int d = 0; d < a->nidx; d++)
        strbuf_addf(o, "[bs_i%d]", d);
    if (a->field && !emit_field(a->field, o, err, n))
        return false;
    strbuf_addf(o, ");\n");
    return true;
}

/* Copy tmpl to out, replacing @KEY@ markers by the given texts. */
static void fill(const char *tmpl, const char *const keys[], const char *const vals[], int nkeys, strbuf *out)
{
    const char *p = tmpl;
    while (*p) {
        const char *at = strchr(p, '@');
        if (!at) {
            strbuf_add(out, p, strlen(p));
            break;
        }
        strbuf_add(out, p, (size_t)(at - p));
        int k;
        for (k = 0; k < nkeys; k++)
            if (strncmp(at + 1, keys[k], strlen(keys[k])) == 0 && at[1 + strlen(keys[k])] == '@')
                break;
        if (k == nkeys) {
            strbuf_addc(out, '@');
            p = at + 1;
            continue;
        }
        strbuf_add(out, vals[k], strlen(vals[k]));
        p = at + strlen(keys[k]) + 2;
    }
}

bool kernelgen_source(const scenario *s, int access, const char *tmpl, strbuf *out, char *err, size_t n)
{
    /* the kernel template passes one loop value (bs_loop): a nest's other loops have no slot */
    if (s->nloops > 1) {
        snprintf(err, n, "a scenario with %d nested or sibling loops cannot be measured yet (one loop can)", s->nloops);
        return false;
    }
    /* no kernel for a kind the model does not cover, nor for one the architecture lacks */
    const banks_request kind0 = scenario_kind_of(s, access);
    const kinds_row *row = kinds_of(kind0.op);
    int width = kind0.width;
    char why[160];
    if (row->rule == KINDS_RULE_NOT_MODELLED) {
        snprintf(err, n, "%s is not modelled (%s): no measurement kernel", row->name, row->not_modelled);
        return false;
    }
    if (kinds_arch_problem(row, width, s->arch, why, sizeof why)) {
        snprintf(err, n, "%s", why);
        return false;
    }
    for (int i = 0; i < s->types.n; i++)
        if (!kernelgen_name_ok(s->types.structs[i].name)) {
            snprintf(err, n, "struct name '%s' is reserved in CUDA code", s->types.structs[i].name);
            return false;
        }
    strbuf structs = {0}, body = {0};
    emit_structs(s, &structs);
    bool ok = emit_body(s, access, &body, err, n);
    if (ok) {
        char width[8], store[8];
        snprintf(width, sizeof width, "%d", kind0.width);
        snprintf(store, sizeof store, "%d", row->rule == KINDS_RULE_WORDS && !row->reads); /* st.shared */
        /* the instruction: op, matrices, trans, atomic operation, returns (kernels/measure.cu) */
        banks_request kind = kind0;
        char op[8], mats[8], trans[8], atomic[8], returns[8];
        snprintf(op, sizeof op, "%d", (int)kind.op);
        snprintf(mats, sizeof mats, "%d", kind.matrices);
        snprintf(trans, sizeof trans, "%d", kind.trans);
        snprintf(atomic, sizeof atomic, "%d", (int)kind.atomic);
        snprintf(returns, sizeof returns, "%d", kind.returns);
        const char *keys[] = {"STRUCTS", "BODY", "WIDTH", "STORE", "OP", "MATRICES", "TRANS", "ATOMIC", "RETURNS"};
        const char *vals[] = {strbuf_str(&structs), strbuf_str(&body), width, store, op, mats, trans, atomic, returns};
        fill(tmpl, keys, vals, 9, out);
    }
    strbuf_free(&structs);
    strbuf_free(&body);
    return ok;
}
