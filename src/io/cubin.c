/* cubin: a function's symbol index in an ELF64 cubin (see cubin.h). Every offset and size read
 * from the file is checked against the file's length before use. */
#include <elf.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/cubin.h"
#include "util.h"

/* The whole file (at most 1 GiB) into *data; its length, or -1. */
static long cubin_read(const char *path, unsigned char **data)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return -1;
    long len = -1;
    if (fseek(f, 0, SEEK_END) == 0 && (len = ftell(f)) >= 0 && len <= (1L << 30) && fseek(f, 0, SEEK_SET) == 0) {
        *data = xmalloc((size_t)len + 1);
        if (fread(*data, 1, (size_t)len, f) != (size_t)len) {
            free(*data);
            len = -1;
        }
    } else {
        len = -1;
    }
    fclose(f);
    return len;
}

/* Whether [off, off + size) lies inside a file of len bytes. */
static bool inside(uint64_t off, uint64_t size, long len)
{
    return off <= (uint64_t)len && size <= (uint64_t)len - off;
}

long cubin_symbol_index(const char *path, const char *name)
{
    unsigned char *d = NULL;
    long len = cubin_read(path, &d);
    if (len < 0)
        return -1;
    long found = -1;
    /* headers and symbols are copied out (memcpy): the file's offsets need not be aligned */
    Elf64_Ehdr eh;
    if (len < (long)sizeof eh)
        goto done;
    memcpy(&eh, d, sizeof eh);
    if (memcmp(eh.e_ident, ELFMAG, SELFMAG) != 0 || eh.e_ident[EI_CLASS] != ELFCLASS64 ||
        eh.e_shentsize != sizeof(Elf64_Shdr) || !inside(eh.e_shoff, (uint64_t)eh.e_shnum * sizeof(Elf64_Shdr), len))
        goto done;
    for (int i = 0; i < eh.e_shnum && found < 0; i++) {
        Elf64_Shdr sh, str;
        memcpy(&sh, d + eh.e_shoff + (uint64_t)i * sizeof sh, sizeof sh);
        if (sh.sh_type != SHT_SYMTAB || sh.sh_link >= eh.e_shnum || sh.sh_entsize != sizeof(Elf64_Sym) ||
            !inside(sh.sh_offset, sh.sh_size, len))
            continue;
        memcpy(&str, d + eh.e_shoff + (uint64_t)sh.sh_link * sizeof str, sizeof str);
        if (!inside(str.sh_offset, str.sh_size, len))
            continue;
        const char *names = (const char *)d + str.sh_offset;
        size_t n = sh.sh_size / sizeof(Elf64_Sym), nlen = strlen(name);
        for (size_t k = 0; k < n; k++) {
            Elf64_Sym sym;
            memcpy(&sym, d + sh.sh_offset + k * sizeof sym, sizeof sym);
            uint64_t at = sym.st_name;
            if (nlen && at < str.sh_size && str.sh_size - at > nlen && memcmp(names + at, name, nlen + 1) == 0) {
                found = (long)k;
                break;
            }
        }
    }
done:
    free(d);
    return found;
}

/* Section header i of the file (checked against its length by the caller's e_shoff test). */
static Elf64_Shdr section(const unsigned char *d, const Elf64_Ehdr *eh, int i)
{
    Elf64_Shdr sh;
    memcpy(&sh, d + eh->e_shoff + (uint64_t)i * sizeof sh, sizeof sh);
    return sh;
}

/* The NUL-terminated string at offset at of the string table str, or NULL outside it. */
static const char *string_at(const unsigned char *d, const Elf64_Shdr *str, uint64_t at)
{
    if (at >= str->sh_size)
        return NULL;
    const char *s = (const char *)d + str->sh_offset + at;
    return memchr(s, '\0', str->sh_size - at) ? s : NULL;
}

void cubin_short_name(const char *symbol, char *buf, size_t n)
{
    /* _ZZ<function>E<len><name>[_<discriminator>] and _ZN<len><part>...E: the last <len><name> */
    if (strncmp(symbol, "_ZZ", 3) == 0 || strncmp(symbol, "_ZN", 3) == 0) {
        const char *p = symbol + 3, *last = NULL;
        size_t last_len = 0;
        bool whole = false; /* the last name ends the symbol (or its E, or a discriminator _N) */
        while (*p) {
            if (*p >= '1' && *p <= '9') {
                char *end;
                unsigned long len = strtoul(p, &end, 10);
                if (len == 0 || strlen(end) < len)
                    break;
                last = end;
                last_len = len;
                p = end + len;
                whole = *p == '\0' || (*p == 'E' && p[1] == '\0') || *p == '_';
            } else {
                p++;
            }
        }
        if (last && whole) {
            snprintf(buf, n, "%.*s", (int)last_len, last);
            return;
        }
    }
    snprintf(buf, n, "%s", symbol);
}

/* Variables by offset. */
static int var_cmp(const void *a, const void *b)
{
    const cubin_shared_var *x = a, *y = b;
    return x->offset < y->offset ? -1 : x->offset > y->offset;
}

bool cubin_shared_read(const char *path, const char *mangled, cubin_shared *out)
{
    memset(out, 0, sizeof *out);
    unsigned char *d = NULL;
    long len = cubin_read(path, &d);
    if (len < 0)
        return false;
    bool ok = false;
    Elf64_Ehdr eh;
    if (len < (long)sizeof eh)
        goto done;
    memcpy(&eh, d, sizeof eh);
    if (memcmp(eh.e_ident, ELFMAG, SELFMAG) != 0 || eh.e_ident[EI_CLASS] != ELFCLASS64 ||
        eh.e_shentsize != sizeof(Elf64_Shdr) || !inside(eh.e_shoff, (uint64_t)eh.e_shnum * sizeof(Elf64_Shdr), len) ||
        eh.e_shstrndx >= eh.e_shnum)
        goto done;
    ok = true;
    Elf64_Shdr names = section(d, &eh, eh.e_shstrndx);
    if (!inside(names.sh_offset, names.sh_size, len))
        goto done;
    size_t wlen = strlen(mangled) + sizeof ".nv.shared.";
    char *want = xmalloc(wlen); /* kernels' names run to many kilobytes (CuTe) */
    snprintf(want, wlen, ".nv.shared.%s", mangled);
    int shared = -1;
    for (int i = 0; i < eh.e_shnum && shared < 0; i++) {
        Elf64_Shdr sh = section(d, &eh, i);
        const char *nm = string_at(d, &names, sh.sh_name);
        if (nm && strcmp(nm, want) == 0) {
            shared = i;
            out->found = true;
            out->section_bytes = (int64_t)(sh.sh_size < (1u << 30) ? sh.sh_size : 0);
        }
    }
    int cap = 0;
    for (int i = 0; i < eh.e_shnum; i++) {
        Elf64_Shdr sh = section(d, &eh, i);
        if (sh.sh_type != SHT_SYMTAB || sh.sh_link >= eh.e_shnum || sh.sh_entsize != sizeof(Elf64_Sym) ||
            !inside(sh.sh_offset, sh.sh_size, len))
            continue;
        Elf64_Shdr str = section(d, &eh, (int)sh.sh_link);
        if (!inside(str.sh_offset, str.sh_size, len))
            continue;
        size_t n = sh.sh_size / sizeof(Elf64_Sym);
        for (size_t k = 0; k < n; k++) {
            Elf64_Sym sym;
            memcpy(&sym, d + sh.sh_offset + k * sizeof sym, sizeof sym);
            const char *nm = string_at(d, &str, sym.st_name);
            if (!nm)
                continue;
            /* sm_90 builds reference the driver's reserved shared memory: the section's size counts
             * its 1 KiB before the variables (transpose.cu: a 4096-byte tile, a 0x1400-byte section,
             * the tile at 0x400 in a -G build, recorded offsets 1024-5119 on an H100) */
            if (strcmp(nm, ".nv.reservedSmem.offset0") == 0 && out->section_bytes >= 1024)
                out->reserved = 1024;
            if (shared < 0 || sym.st_shndx != shared || ELF64_ST_TYPE(sym.st_info) != STT_OBJECT || sym.st_size == 0 ||
                sym.st_size > (1u << 30) || sym.st_value > (1u << 30) || !nm[0])
                continue;
            if (out->nvars == cap)
                out->vars = xrealloc(out->vars, sizeof *out->vars * (size_t)(cap = cap ? 2 * cap : 8));
            cubin_shared_var *v = &out->vars[out->nvars++];
            char shortname[256];
            cubin_short_name(nm, shortname, sizeof shortname);
            v->symbol = xstrdup(nm);
            v->name = xstrdup(shortname);
            v->offset = (int64_t)sym.st_value;
            v->bytes = (int64_t)sym.st_size;
        }
    }
    if (out->nvars)
        qsort(out->vars, (size_t)out->nvars, sizeof *out->vars, var_cmp);
    free(want);
done:
    free(d);
    return ok;
}

void cubin_shared_free(cubin_shared *s)
{
    for (int i = 0; i < s->nvars; i++) {
        free(s->vars[i].symbol);
        free(s->vars[i].name);
    }
    free(s->vars);
    memset(s, 0, sizeof *s);
}
