/* types: element types (C scalars, CUDA vector types) and structs laid out by the C rules.
 *
 * A builtin is looked up by name and returned by value. Structs live in a types_registry owned by
 * the scenario; types_layout computes offsets, holes, size and alignment exactly as gcc and nvcc
 * do for the x86-64 / CUDA ABI (each field at the next multiple of its alignment, size rounded up
 * to the struct's alignment, optional __align__(n)). Sizes and offsets are in bytes. */
#ifndef BANKSCOPE_TYPES_H
#define BANKSCOPE_TYPES_H

#include <stdbool.h>
#include <stddef.h>

#include "../util.h"

#define TYPES_NAME_MAX 32

typedef enum types_class { TYPES_SIGNED, TYPES_UNSIGNED, TYPES_FLOAT } types_class;

typedef struct types_builtin {
    char name[TYPES_NAME_MAX];   /* canonical spelling, valid C/CUDA: "unsigned int", "float4" */
    char scalar[TYPES_NAME_MAX]; /* component type: "float" for float4 */
    int size;
    int align;
    int components; /* 1 for scalars */
    types_class cls;
} types_builtin;

/* Look up a builtin by name (aliases such as "uint", "int32_t", "__half" accepted). */
bool types_builtin_find(const char *name, types_builtin *out);

/* A type as a field or array element: a builtin, or a struct of the registry. */
typedef struct types_ref {
    int struct_index; /* -1: builtin */
    types_builtin builtin;
} types_ref;

typedef struct types_field {
    char *name;      /* owned */
    char *type_name; /* owned; as written */
    types_ref type;
    int count;  /* array length; 1 for a plain field */
    int offset; /* set by types_layout */
} types_field;

typedef struct types_struct {
    char *name;          /* owned */
    types_field *fields; /* owned */
    int nfields;
    int force_align; /* __align__(n), 0 when none */
    int size, align; /* set by types_layout */
    bool laid_out;
} types_struct;

typedef struct types_registry {
    types_struct *structs; /* owned */
    int n;
} types_registry;

void types_registry_free(types_registry *r);
/* Index of the struct called name, or -1. */
int types_struct_find(const types_registry *r, const char *name);
/* Resolve a type name to a builtin or a struct of r. False when unknown. */
bool types_resolve(const types_registry *r, const char *name, types_ref *out);
int types_size(const types_registry *r, const types_ref *t);
int types_align(const types_registry *r, const types_ref *t);
/* Printable name of t (points into t or r). */
const char *types_name(const types_registry *r, const types_ref *t);
/* A field as the one declaration a scenario file holds: "float x" or "float x[4]". */
void types_field_decl(const types_field *f, char *buf, size_t n);

/* Lay out every struct (field types must already be resolved). On error (a struct containing
 * itself, a bad alignment) writes a message to err and returns false. */
bool types_layout(types_registry *r, char *err, size_t errlen);

/* Resolve a field path ("pos.x", "v[2]", "pos.c[1].y") inside type t: byte offset and type.
 * False with a message when a field is unknown, t is not a struct or an index is out of range. */
bool types_field_path(const types_registry *r, const types_ref *t, const char *path, int *offset, types_ref *out,
                      char *err, size_t errlen);

/* Parse one C struct declaration as a person types or pastes it ("struct P { float3 pos; float m;
 * };", typedef, __align__(n), comments, "float x, y;", "char tag[3];") into *out (owned; not
 * laid out), field types resolved against r. False with a message and the byte offset of the
 * error in *err_pos. */
bool types_parse_struct(const char *text, const types_registry *r, types_struct *out, int *err_pos, char *err,
                        size_t errlen);

/* Append the C declaration of struct i (with offset comments when comments is true). */
void types_struct_decl(const types_registry *r, int i, bool comments, strbuf *out);
/* The same on one line ("struct P { float3 pos; float m; };"), for a prompt or a message. */
void types_struct_decl_line(const types_registry *r, int i, strbuf *out);

#endif
