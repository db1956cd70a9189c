/* types_parse: one C struct declaration as a person types or pastes it, into a types_struct.
 *
 * Accepted: [typedef] struct [__align__(n) | alignas(n) | __attribute__((aligned(n)))] NAME
 * { TYPE NAME[N], NAME2; ... } [NAME] ; with comments, several declarators per line, multi-word
 * scalar types ("unsigned int"), CUDA vector types and the registry's structs ("struct Vec3 v"
 * or "Vec3 v"). const and volatile are ignored. Every error names its position (0-based byte
 * offset into the text). Pure: no I/O. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "names.h"
#include "types.h"

typedef struct lexer {
    const char *text;
    size_t pos;
    int err_pos;
    char *err;
    size_t errlen;
} lexer;

/* Skip white space and comments; false (with the position) on an unclosed comment. */
static bool skip_space(lexer *L)
{
    for (;;) {
        const char *p = L->text + L->pos;
        if (isspace((unsigned char)*p)) {
            L->pos++;
        } else if (p[0] == '/' && p[1] == '/') {
            while (L->text[L->pos] && L->text[L->pos] != '\n')
                L->pos++;
        } else if (p[0] == '/' && p[1] == '*') {
            const char *e = strstr(p + 2, "*/");
            if (!e) {
                L->err_pos = (int)L->pos;
                snprintf(L->err, L->errlen, "unclosed comment");
                return false;
            }
            L->pos = (size_t)(e + 2 - L->text);
        } else {
            return true;
        }
    }
}

static bool fail(lexer *L, size_t pos, const char *what)
{
    L->err_pos = (int)pos;
    snprintf(L->err, L->errlen, "%s", what);
    return false;
}

/* A name the generated CUDA code could not use (a keyword, a built-in, a bs_ or __ name) is
 * refused where it is typed, with its column, rather than later by the scenario's check, which
 * knows only the field's index. */
static bool reserved_name(lexer *L, size_t pos, const char *name)
{
    char msg[160];
    snprintf(msg, sizeof msg, "'%s' is reserved in CUDA code (a keyword, a built-in, or a bs_ or __ name)", name);
    return fail(L, pos, msg);
}

/* An identifier at the cursor into buf (n bytes); false when there is none. */
static bool ident(lexer *L, char *buf, size_t n)
{
    if (!skip_space(L))
        return false;
    const char *p = L->text + L->pos;
    if (!(isalpha((unsigned char)*p) || *p == '_'))
        return false;
    size_t k = 0;
    while (isalnum((unsigned char)p[k]) || p[k] == '_')
        k++;
    if (k >= n)
        return fail(L, L->pos, "name too long");
    memcpy(buf, p, k);
    buf[k] = '\0';
    L->pos += k;
    return true;
}

/* The punctuation c at the cursor (consumed); false, without an error, when another is there. */
static bool punct(lexer *L, char c)
{
    if (!skip_space(L))
        return false;
    if (L->text[L->pos] != c)
        return false;
    L->pos++;
    return true;
}

/* A positive integer in 1..max at the cursor. */
static bool number(lexer *L, long max, long *out, const char *what)
{
    if (!skip_space(L))
        return false;
    char *e;
    const char *p = L->text + L->pos;
    long v = isdigit((unsigned char)*p) ? strtol(p, &e, 0) : -1;
    if (v < 1 || v > max)
        return fail(L, L->pos, what);
    L->pos = (size_t)(e - L->text);
    *out = v;
    return true;
}

/* An alignment after 'struct': __align__(n), alignas(n), _Alignas(n) or
 * __attribute__((aligned(n))). Returns false on a malformed one; *align stays 0 without one. */
static bool alignment(lexer *L, int *align)
{
    size_t at = L->pos;
    char w[40];
    if (!ident(L, w, sizeof w)) {
        L->pos = at;
        return L->err_pos < 0;
    }
    long v;
    bool attr = strcmp(w, "__attribute__") == 0;
    if (strcmp(w, "__align__") && strcmp(w, "alignas") && strcmp(w, "_Alignas") && !attr) {
        L->pos = at; /* the struct's name */
        return true;
    }
    if (!punct(L, '(') ||
        (attr && (!punct(L, '(') || !ident(L, w, sizeof w) || strcmp(w, "aligned") != 0 || !punct(L, '('))))
        return L->err_pos >= 0 ? false : fail(L, L->pos, "expected '(' and an alignment");
    if (!number(L, 256, &v, "expected an alignment of 1 to 256"))
        return false;
    if ((v & (v - 1)) != 0)
        return fail(L, L->pos, "an alignment is a power of two");
    if (!punct(L, ')') || (attr && (!punct(L, ')') || !punct(L, ')'))))
        return L->err_pos >= 0 ? false : fail(L, L->pos, "expected ')'");
    *align = (int)v;
    return true;
}

/* Append a field to st (owned strings). */
static void add_field(types_struct *st, const char *type, const types_ref *ref, const char *name, int count)
{
    st->fields = xrealloc(st->fields, sizeof *st->fields * (size_t)(st->nfields + 1));
    st->fields[st->nfields++] =
        (types_field){.name = xstrdup(name), .type_name = xstrdup(type), .type = *ref, .count = count};
}

/* One member line: TYPE WORDS then declarators NAME[N] separated by commas, then ';'. The type
 * is the longest run of leading words that names a type ("unsigned int"), the next word the
 * name: a word after it means a missing ';'. */
static bool member(lexer *L, const types_registry *r, const char *self, types_struct *st)
{
    char words[8][64];
    size_t at[8];
    int nw = 0;
    for (;;) {
        size_t p = (skip_space(L), L->pos);
        char word[64];
        if (!ident(L, word, sizeof word)) {
            if (L->err_pos >= 0)
                return false;
            break;
        }
        if (strcmp(word, "const") == 0 || strcmp(word, "volatile") == 0 || strcmp(word, "struct") == 0)
            continue;
        if (nw == 8)
            return fail(L, p, "too many words in one field");
        at[nw] = p;
        snprintf(words[nw++], sizeof words[0], "%s", word);
    }
    if (nw < 2)
        return fail(L, nw ? L->pos : (skip_space(L), L->pos),
                    nw ? "expected a type and a name ('float m;')" : "expected a field");
    char type[96] = "";
    types_ref ref;
    int k = nw - 1;
    for (; k >= 1; k--) {
        type[0] = '\0';
        for (int w = 0; w < k; w++) {
            size_t len = strlen(type);
            snprintf(type + len, sizeof type - len, "%s%s", w ? " " : "", words[w]);
        }
        if (types_resolve(r, type, &ref))
            break;
    }
    if (k < 1) {
        char msg[160];
        type[0] = '\0';
        for (int w = 0; w < nw - 1; w++) {
            size_t len = strlen(type);
            snprintf(type + len, sizeof type - len, "%s%s", w ? " " : "", words[w]);
        }
        snprintf(msg, sizeof msg, "unknown type '%s'", type);
        return fail(L, at[0], msg);
    }
    if (k + 1 < nw)
        return fail(L, at[k + 1], "expected ';' after the field");
    if (strcmp(type, self) == 0)
        return fail(L, at[0], "a struct cannot contain itself");
    char last[64];
    snprintf(last, sizeof last, "%s", words[k]);
    size_t name_at = at[k];
    for (;;) {
        long count = 1;
        if (punct(L, '[')) {
            if (!number(L, 65536, &count, "expected an array length of 1 to 65536"))
                return false;
            if (!punct(L, ']'))
                return L->err_pos >= 0 ? false : fail(L, L->pos, "expected ']'");
        }
        if (!names_ok_in_cuda(last))
            return reserved_name(L, name_at, last);
        for (int f = 0; f < st->nfields; f++)
            if (strcmp(st->fields[f].name, last) == 0)
                return fail(L, name_at, "two fields have this name");
        add_field(st, type, &ref, last, (int)count);
        if (punct(L, ';'))
            return true;
        if (L->err_pos >= 0)
            return false;
        if (!punct(L, ','))
            return fail(L, L->pos, "expected ';' after the field");
        name_at = (skip_space(L), L->pos);
        if (!ident(L, last, sizeof last))
            return L->err_pos >= 0 ? false : fail(L, L->pos, "expected a field name after ','");
    }
}

bool types_parse_struct(const char *text, const types_registry *r, types_struct *out, int *err_pos, char *err,
                        size_t errlen)
{
    lexer L = {.text = text, .err_pos = -1, .err = err, .errlen = errlen};
    *out = (types_struct){0};
    char w[64], name[64] = "";
    bool typedef_ = false;
    bool ok = false;
    size_t name_at = 0;
    if (ident(&L, w, sizeof w) && strcmp(w, "typedef") == 0) {
        typedef_ = true;
        if (!ident(&L, w, sizeof w))
            w[0] = '\0';
    }
    if (L.err_pos >= 0)
        goto done;
    if (strcmp(w, "struct") != 0) {
        fail(&L, 0, "expected 'struct NAME { TYPE NAME; ... };'");
        goto done;
    }
    if (!alignment(&L, &out->force_align))
        goto done;
    name_at = (skip_space(&L), L.pos);
    if (!ident(&L, name, sizeof name) && L.err_pos >= 0)
        goto done;
    if (!name[0] && !typedef_) {
        fail(&L, name_at, "expected the struct's name");
        goto done;
    }
    if (!punct(&L, '{')) {
        if (L.err_pos < 0)
            fail(&L, L.pos, "expected '{'");
        goto done;
    }
    while (!punct(&L, '}')) {
        if (L.err_pos >= 0)
            goto done;
        if (!L.text[L.pos]) {
            fail(&L, L.pos, "expected '}' to close the struct");
            goto done;
        }
        if (!member(&L, r, name, out))
            goto done;
    }
    if (L.err_pos >= 0)
        goto done;
    char tname[64] = "";
    size_t tname_at = (skip_space(&L), L.pos);
    if (ident(&L, tname, sizeof tname) && !typedef_) {
        fail(&L, tname_at, "a variable after the struct: declare only the type");
        goto done;
    }
    if (L.err_pos >= 0)
        goto done;
    if (typedef_ && !tname[0]) {
        fail(&L, tname_at, "expected the typedef's name");
        goto done;
    }
    if (!name[0])
        snprintf(name, sizeof name, "%s", tname);
    else
        tname_at = name_at;
    if (!names_ok_in_cuda(name)) {
        reserved_name(&L, tname_at, name);
        goto done;
    }
    if (!punct(&L, ';') && L.err_pos < 0 && (skip_space(&L), L.text[L.pos])) { /* at the end it may go */
        fail(&L, L.pos, "expected ';' after '}'");
        goto done;
    }
    if (L.err_pos >= 0 || !skip_space(&L))
        goto done;
    if (L.text[L.pos]) {
        fail(&L, L.pos, "one struct at a time: text after ';'");
        goto done;
    }
    if (out->nfields == 0) {
        fail(&L, name_at, "a struct needs at least one field");
        goto done;
    }
    out->name = xstrdup(name);
    ok = true;
done:
    if (!ok) {
        for (int f = 0; f < out->nfields; f++) {
            free(out->fields[f].name);
            free(out->fields[f].type_name);
        }
        free(out->fields);
        *out = (types_struct){0};
        *err_pos = L.err_pos < 0 ? 0 : L.err_pos;
    }
    return ok;
}
