/* types: the builtin type table and C struct layout. */
#include "types.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Scalars: sizes and alignments of the x86-64 System V ABI, which CUDA device code follows. */
static const struct {
    const char *name, *canonical;
    int size;
    types_class cls;
} scalars[] = {
    {"char", "char", 1, TYPES_SIGNED},
    {"signed char", "signed char", 1, TYPES_SIGNED},
    {"unsigned char", "unsigned char", 1, TYPES_UNSIGNED},
    {"uchar", "unsigned char", 1, TYPES_UNSIGNED},
    {"bool", "bool", 1, TYPES_UNSIGNED},
    {"int8_t", "signed char", 1, TYPES_SIGNED},
    {"uint8_t", "unsigned char", 1, TYPES_UNSIGNED},
    {"short", "short", 2, TYPES_SIGNED},
    {"unsigned short", "unsigned short", 2, TYPES_UNSIGNED},
    {"ushort", "unsigned short", 2, TYPES_UNSIGNED},
    {"int16_t", "short", 2, TYPES_SIGNED},
    {"uint16_t", "unsigned short", 2, TYPES_UNSIGNED},
    {"half", "__half", 2, TYPES_FLOAT},
    {"__half", "__half", 2, TYPES_FLOAT},
    /* cuda_bf16.h, cuda_fp8.h (checked by tests/unit/test_layout_gcc.c) */
    {"bf16", "__nv_bfloat16", 2, TYPES_FLOAT},
    {"__nv_bfloat16", "__nv_bfloat16", 2, TYPES_FLOAT},
    {"nv_bfloat16", "__nv_bfloat16", 2, TYPES_FLOAT},
    {"__nv_fp8_e4m3", "__nv_fp8_e4m3", 1, TYPES_FLOAT},
    {"fp8_e4m3", "__nv_fp8_e4m3", 1, TYPES_FLOAT},
    {"__nv_fp8_e5m2", "__nv_fp8_e5m2", 1, TYPES_FLOAT},
    {"fp8_e5m2", "__nv_fp8_e5m2", 1, TYPES_FLOAT},
    {"int", "int", 4, TYPES_SIGNED},
    {"unsigned int", "unsigned int", 4, TYPES_UNSIGNED},
    {"unsigned", "unsigned int", 4, TYPES_UNSIGNED},
    {"uint", "unsigned int", 4, TYPES_UNSIGNED},
    {"int32_t", "int", 4, TYPES_SIGNED},
    {"uint32_t", "unsigned int", 4, TYPES_UNSIGNED},
    {"float", "float", 4, TYPES_FLOAT},
    {"long", "long", 8, TYPES_SIGNED},
    {"unsigned long", "unsigned long", 8, TYPES_UNSIGNED},
    {"long long", "long long", 8, TYPES_SIGNED},
    {"unsigned long long", "unsigned long long", 8, TYPES_UNSIGNED},
    {"int64_t", "long long", 8, TYPES_SIGNED},
    {"uint64_t", "unsigned long long", 8, TYPES_UNSIGNED},
    {"double", "double", 8, TYPES_FLOAT},
};

/* CUDA vector families (vector_types.h): component type and size. */
static const struct {
    const char *prefix, *scalar;
    int size;
    types_class cls;
} vectors[] = {
    {"char", "char", 1, TYPES_SIGNED},
    {"uchar", "unsigned char", 1, TYPES_UNSIGNED},
    {"short", "short", 2, TYPES_SIGNED},
    {"ushort", "unsigned short", 2, TYPES_UNSIGNED},
    {"int", "int", 4, TYPES_SIGNED},
    {"uint", "unsigned int", 4, TYPES_UNSIGNED},
    {"float", "float", 4, TYPES_FLOAT},
    {"long", "long", 8, TYPES_SIGNED},
    {"ulong", "unsigned long", 8, TYPES_UNSIGNED},
    {"longlong", "long long", 8, TYPES_SIGNED},
    {"ulonglong", "unsigned long long", 8, TYPES_UNSIGNED},
    {"double", "double", 8, TYPES_FLOAT},
};

bool types_builtin_find(const char *name, types_builtin *out)
{
    memset(out, 0, sizeof *out);
    for (size_t i = 0; i < sizeof scalars / sizeof scalars[0]; i++) {
        if (strcmp(name, scalars[i].name) != 0)
            continue;
        snprintf(out->name, sizeof out->name, "%s", scalars[i].canonical);
        snprintf(out->scalar, sizeof out->scalar, "%s", scalars[i].canonical);
        out->size = out->align = scalars[i].size;
        out->components = 1;
        out->cls = scalars[i].cls;
        return true;
    }
    bool bf = strcmp(name, "__nv_bfloat162") == 0 || strcmp(name, "bf162") == 0 || strcmp(name, "nv_bfloat162") == 0;
    if (strcmp(name, "half2") == 0 || strcmp(name, "__half2") == 0 || bf) {
        snprintf(out->name, sizeof out->name, bf ? "__nv_bfloat162" : "__half2");
        snprintf(out->scalar, sizeof out->scalar, bf ? "__nv_bfloat16" : "__half");
        out->size = out->align = 4;
        out->components = 2;
        out->cls = TYPES_FLOAT;
        return true;
    }
    size_t n = strlen(name);
    if (n < 2 || name[n - 1] < '1' || name[n - 1] > '4')
        return false;
    int comps = name[n - 1] - '0';
    for (size_t i = 0; i < sizeof vectors / sizeof vectors[0]; i++) {
        if (strlen(vectors[i].prefix) != n - 1 || strncmp(name, vectors[i].prefix, n - 1) != 0)
            continue;
        int s = vectors[i].size;
        snprintf(out->name, sizeof out->name, "%s", name);
        snprintf(out->scalar, sizeof out->scalar, "%s", vectors[i].scalar);
        out->size = s * comps;
        /* vector_types.h: 1- and 3-vectors align as the component, 2-vectors at twice it,
         * 4-vectors at four times it but at most 16 (the 4x8-byte types are __align__(16)). */
        out->align = comps == 2 ? 2 * s : comps == 4 ? (4 * s > 16 ? 16 : 4 * s) : s;
        out->components = comps;
        out->cls = vectors[i].cls;
        return true;
    }
    return false;
}

void types_field_decl(const types_field *f, char *buf, size_t n)
{
    if (f->count > 1)
        snprintf(buf, n, "%s %s[%d]", f->type_name, f->name, f->count);
    else
        snprintf(buf, n, "%s %s", f->type_name, f->name);
}

void types_registry_free(types_registry *r)
{
    for (int i = 0; i < r->n; i++) {
        types_struct *s = &r->structs[i];
        for (int f = 0; f < s->nfields; f++) {
            free(s->fields[f].name);
            free(s->fields[f].type_name);
        }
        free(s->fields);
        free(s->name);
    }
    free(r->structs);
    r->structs = NULL;
    r->n = 0;
}

int types_struct_find(const types_registry *r, const char *name)
{
    for (int i = 0; i < r->n; i++)
        if (strcmp(r->structs[i].name, name) == 0)
            return i;
    return -1;
}

bool types_resolve(const types_registry *r, const char *name, types_ref *out)
{
    memset(out, 0, sizeof *out);
    out->struct_index = -1;
    const char *bare = strncmp(name, "struct ", 7) == 0 ? name + 7 : name;
    int si = types_struct_find(r, bare);
    if (si >= 0) {
        out->struct_index = si;
        return true;
    }
    return bare == name && types_builtin_find(name, &out->builtin);
}

int types_size(const types_registry *r, const types_ref *t)
{
    return t->struct_index < 0 ? t->builtin.size : r->structs[t->struct_index].size;
}

int types_align(const types_registry *r, const types_ref *t)
{
    return t->struct_index < 0 ? t->builtin.align : r->structs[t->struct_index].align;
}

const char *types_name(const types_registry *r, const types_ref *t)
{
    return t->struct_index < 0 ? t->builtin.name : r->structs[t->struct_index].name;
}

static int align_up(int v, int a)
{
    return (v + a - 1) / a * a;
}

/* Lay out struct i, first its struct-typed fields; depth guards against cycles. */
static bool layout_one(types_registry *r, int i, int depth, char *err, size_t errlen)
{
    types_struct *s = &r->structs[i];
    if (s->laid_out)
        return true;
    if (depth > r->n) {
        snprintf(err, errlen, "struct %s contains itself", s->name);
        return false;
    }
    if (s->nfields == 0) {
        snprintf(err, errlen, "struct %s has no fields", s->name);
        return false;
    }
    if (s->force_align && (s->force_align & (s->force_align - 1))) {
        snprintf(err, errlen, "struct %s: alignment %d is not a power of two", s->name, s->force_align);
        return false;
    }
    long off = 0;
    int align = 1;
    for (int f = 0; f < s->nfields; f++) {
        types_field *fd = &s->fields[f];
        if (fd->type.struct_index >= 0 && !layout_one(r, fd->type.struct_index, depth + 1, err, errlen))
            return false;
        int fa = types_align(r, &fd->type), fs = types_size(r, &fd->type);
        off = align_up((int)off, fa);
        fd->offset = (int)off;
        off += (long)fs * fd->count;
        if (off > (1L << 24)) {
            snprintf(err, errlen, "struct %s is larger than 16 MiB", s->name);
            return false;
        }
        if (fa > align)
            align = fa;
    }
    if (s->force_align > align)
        align = s->force_align;
    s->align = align;
    s->size = align_up((int)off, align);
    s->laid_out = true;
    return true;
}

bool types_layout(types_registry *r, char *err, size_t errlen)
{
    for (int i = 0; i < r->n; i++)
        r->structs[i].laid_out = false;
    for (int i = 0; i < r->n; i++)
        if (!layout_one(r, i, 0, err, errlen))
            return false;
    return true;
}

bool types_field_path(const types_registry *r, const types_ref *t, const char *path, int *offset, types_ref *out,
                      char *err, size_t errlen)
{
    types_ref cur = *t;
    int off = 0;
    const char *p = path;
    while (*p) {
        if (cur.struct_index < 0) {
            /* a CUDA vector's components: float3.x, int2.y, half2.y (in the order x, y, z, w) */
            static const char comp[] = "xyzw";
            size_t n = strcspn(p, ".[");
            const char *at = n == 1 ? strchr(comp, p[0]) : NULL;
            types_builtin sc;
            if (cur.builtin.components < 2 || !at || at - comp >= cur.builtin.components ||
                !types_builtin_find(cur.builtin.scalar, &sc)) {
                snprintf(err, errlen, "'%s' is not a struct (field path '%s')", cur.builtin.name, path);
                return false;
            }
            off += (int)(at - comp) * sc.size;
            cur.builtin = sc;
            p += n;
            if (*p == '.')
                p++;
            else if (*p) {
                snprintf(err, errlen, "unexpected '%c' in field path '%s'", *p, path);
                return false;
            }
            continue;
        }
        const types_struct *s = &r->structs[cur.struct_index];
        size_t n = strcspn(p, ".[");
        const types_field *fd = NULL;
        for (int f = 0; f < s->nfields; f++)
            if (strlen(s->fields[f].name) == n && strncmp(s->fields[f].name, p, n) == 0)
                fd = &s->fields[f];
        if (!fd) {
            snprintf(err, errlen, "struct %s has no field '%.*s'", s->name, (int)n, p);
            return false;
        }
        off += fd->offset;
        cur = fd->type;
        p += n;
        if (*p == '[') {
            char *end;
            long k = strtol(p + 1, &end, 10);
            if (end == p + 1 || *end != ']' || k < 0 || k >= fd->count) {
                snprintf(err, errlen, "field '%s' index must be 0..%d", fd->name, fd->count - 1);
                return false;
            }
            off += (int)k * types_size(r, &cur);
            p = end + 1;
        } else if (fd->count > 1) {
            snprintf(err, errlen, "field '%s' is an array of %d: give an index", fd->name, fd->count);
            return false;
        }
        if (*p == '.')
            p++;
        else if (*p) {
            snprintf(err, errlen, "unexpected '%c' in field path '%s'", *p, path);
            return false;
        }
    }
    *offset = off;
    *out = cur;
    return true;
}

void types_struct_decl(const types_registry *r, int i, bool comments, strbuf *out)
{
    const types_struct *s = &r->structs[i];
    if (s->force_align)
        strbuf_addf(out, "struct __align__(%d) %s {\n", s->force_align, s->name);
    else
        strbuf_addf(out, "struct %s {\n", s->name);
    int end = 0;
    for (int f = 0; f < s->nfields; f++) {
        const types_field *fd = &s->fields[f];
        int fs = types_size(r, &fd->type) * fd->count;
        if (comments && fd->offset > end)
            strbuf_addf(out, "    /* %d byte hole */\n", fd->offset - end);
        strbuf_addf(out, "    %s%s %s", fd->type.struct_index >= 0 ? "struct " : "", types_name(r, &fd->type),
                    fd->name);
        if (fd->count > 1)
            strbuf_addf(out, "[%d]", fd->count);
        if (comments)
            strbuf_addf(out, ";  /* offset %d, size %d */\n", fd->offset, fs);
        else
            strbuf_addf(out, ";\n");
        end = fd->offset + fs;
    }
    if (comments && s->size > end)
        strbuf_addf(out, "    /* %d bytes tail padding */\n", s->size - end);
    strbuf_addf(out, "};");
    if (comments)
        strbuf_addf(out, "  /* sizeof %d, alignof %d */", s->size, s->align);
    strbuf_addf(out, "\n");
}

void types_struct_decl_line(const types_registry *r, int i, strbuf *out)
{
    strbuf sb = {0};
    types_struct_decl(r, i, false, &sb);
    bool space = false; /* each run of white space one space, none at the ends */
    for (const char *c = strbuf_str(&sb); *c; c++) {
        if (*c == ' ' || *c == '\n') {
            space = true;
            continue;
        }
        if (space && out->len > 0)
            strbuf_addf(out, " ");
        space = false;
        strbuf_addf(out, "%c", *c);
    }
    strbuf_free(&sb);
}
