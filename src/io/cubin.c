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
