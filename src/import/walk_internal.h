/* walk_internal: what the walker's files share: the walk state (W), the shared arrays, accesses
 * and loops found so far, and the helpers each file offers the others. Private to src/import. */
#ifndef BANKSCOPE_WALK_INTERNAL_H
#define BANKSCOPE_WALK_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>

#include "import/import_internal.h"
#include "model/banks.h"
#include "model/expr.h"
#include "model/scenario.h"

#define MAX_INLINE 16
#define MAX_CALLS 64
/* The walk's budget: every statement and expression walked, once per inlined call. A function
 * that calls itself (as templates can) twice per level doubles it per level; real kernels,
 * even unrolled ones of thousands of accesses, stay far below. */
#define WALK_MAX_STEPS 1500000L
#define MAX_LOOPS 256
#define MAX_DEPTH 400
#define MAX_ITER 4096
#define MAX_TRIAL_DEPTH 3 /* loops analysed for their first iteration that try one inside another */
#define MAX_TRIALS 256    /* trial walks in all (each walks a loop body once more) */

typedef struct pbind { /* a pointer into a shared array */
    int array;
    int nfixed; /* leading indexes already chosen (a row of a 2-D array) */
    expr_ref fixed[3];
    expr_ref off;       /* elements added to the next index */
    const char *vector; /* reinterpreted type (bankscope name), NULL: the element type */
    int ratio;          /* elements per reinterpreted item */
} pbind;

typedef struct binding { /* a parameter of an inlined function, or a loop variable */
    CXCursor decl;
    expr_ref val; /* 0 with why: unknown */
    bool is_ptr;
    bool is_var;     /* a local variable followed through assignments (val: its value now) */
    bool ptr_shared; /* a pointer into a shared array that cannot be followed (why says why) */
    pbind ptr;
    const char *why;
    /* a reference parameter bound to an element of a shared array: reading or writing it is a
     * load or store of that element (ref_array >= 0), or of one that cannot be expressed
     * (ref_array -1 with why set and ref_shared) */
    bool ref_shared;
    int ref_array, ref_nidx;
    expr_ref ref_idx[3];
    const char *ref_field, *ref_vector; /* in the arena */
    CXCursor arg;                       /* a parameter: the argument it is bound to (null: none) */
    const char *tname;                  /* a type template parameter of an inlined function: the bankscope name of its
                                           type at the call (decl is the parameter), in the arena */
    expr_ref decl_cond;                 /* a local: the path condition where it is declared (0: none) */
} binding;

typedef struct warray {
    CXCursor decl;
    char *name, *type;
    int ndims;
    int64_t dims[3];
    int64_t elem_size;
    CXType elem; /* canonical element type */
    bool is_struct;
    bool is_union;   /* a union of arrays: its narrowest element type over the union's bytes */
    const char *why; /* not importable: why */
} warray;

/* The walker's variables beside the built-in ones (expr_pool_var): the break condition's loop
 * value, and loop n of w->loops. */
#define WALK_VAR_BREAK EXPR_LOOP
#define WALK_VAR_LOOP(n) (EXPR_LOOP + 1 + (n))
/* The address (a number) where shared array a starts, as __cvta_generic_to_shared gives it:
 * what inline PTX's [%N] operands are read against; it never reaches a scenario. */
#define WALK_MAX_BASES 64
#define WALK_VAR_BASE(a) WALK_VAR_LOOP(MAX_LOOPS + 128 + (a))

typedef struct wloop {
    int var;    /* WALK_VAR_LOOP(its index) */
    char *user; /* the source's name */
    int64_t from, to, step;
    int kind; /* 0 add, 1 mul, 2 div */
    int64_t first, last;
    unsigned begin, end; /* file offsets of the for statement */
    expr_ref start;      /* strided loop (per-thread start): the variable is start + var * stride,
                               under 'when: start + var * stride < bound' */
    int64_t bound, stride;
    expr_ref bound_e; /* a bound that depends on enclosing loops' variables: the loop runs to
                         its furthest value, under 'when: var bound_op bound_e' */
    expr_op bound_op;
    expr_ref start_e; /* a start that depends on enclosing loops' variables: the loop runs from
                         its furthest value, under 'when: var start_op start_e' */
    expr_op start_op;
    int line, col;
    int parent; /* enclosing simple loop, -1 */
} wloop;

typedef struct waccess {
    banks_op op;  /* BANKS_LOAD, BANKS_STORE or BANKS_ATOMIC */
    char *atomic; /* atomic function name */
    int array;
    int nidx;
    expr_ref idx[3];
    expr_ref when;
    char *field, *vector;
    char *label;
    char *source; /* the line of source it comes from, tidied */
    char *text;   /* that line as written */
    char *file;   /* the file it is in (a header, for an inlined function) */
    bool returns; /* atomic: the old value is used */
    int matrices; /* ldmatrix/stmatrix: 1, 2 or 4 */
    bool trans;   /* ldmatrix/stmatrix .trans */
    int line, col;
    unsigned offset;
    int loops[8];
    int nloops;
} waccess;

typedef struct wskip {
    int line, col;
    char *text;
} wskip;

#define WALK_MAX_TPARAMS 8
typedef struct walk_tparam { /* a kernel template parameter's values at the launches */
    CXCursor decl;
    int64_t vals[8];
    int nvals;
    char type[32]; /* a type parameter: its type at every launch ("" none, "?" several) */
    int line, col; /* the first launch */
    bool noted;
    bool inst;    /* the values come from explicit instantiations (no launch gives one) */
    int vline[8]; /* inst: the line of each value's instantiation */
} walk_tparam;

typedef struct W {
    CXTranslationUnit tu;
    const import_options *o;
    expr_pool ep; /* every expression built */
    char **strs;  /* strings kept until the walk ends (walk_strdup) */
    int nstrs;
    warray *arrays;
    int narrays;
    waccess *acc;
    int nacc;
    wloop loops[MAX_LOOPS];
    int nloops;
    wskip *skips;
    int nskips;
    binding *binds;
    int nbinds;
    CXCursor calls[MAX_CALLS]; /* functions being walked (inlined, or listed when refused) */
    int ncalls;
    expr_ref guard;        /* current condition; 0: always */
    const char *guard_why; /* the condition cannot be expressed */
    /* early exits: the lanes that have returned from the function being walked (0: none),
     * and those that took a 'continue' in the current iteration of the innermost loop */
    expr_ref exited, skipped;
    const char *exited_why;  /* a return under a condition (or in a loop) that cannot be expressed */
    const char *skipped_why; /* the same for a continue */
    bool break_ok;           /* a break here ends the last iteration of a counted loop */
    int fn_nlstack;          /* loops open when the function being walked was entered */
    const char *fn_loop_why; /* loop_why when it was entered */
    int lstack[8];
    int nlstack;
    const char *loop_why;                  /* inside a loop that is not simple */
    char why[320];                         /* the last translation failure */
    char exit_why[400];                    /* why the last loop looked at is not simple */
    bool block_noted[3];                   /* the note that blockIdx.x (y, z) is taken as 0 was given */
    walk_tparam tparams[WALK_MAX_TPARAMS]; /* by position among the kernel's template parameters */
    int lblock[3];                         /* the block of the first launch with a constant one; 0: none */
    int lblock_line, lblock_col;           /* that launch */
    char lblock_others[160];               /* the other blocks launches give ("128 at line 20, ...") */
    int depth;
    const char *file_base;
    CXCursor kernel;
    CXCursor stmt_expr; /* the expression statement being walked */
    bool piece;         /* emitting one piece of a struct copy */
    int ignore_exits;   /* walking a branch the analysis does not take: its exits do not count */
    int trial;          /* trial walks (undone after) open around the code being walked */
    int ntrials;        /* trial walks made */
    int *call_lines, ncall_lines, cap_call_lines; /* lines of the kernel's calls whose body was walked */
    char *src_path, *src_text;                    /* the last source file read for walk_source_line */
    size_t src_len;                               /* src_text's length */
    long steps;                                   /* statements and expressions walked, inlined calls' included */
    CXCursor top_call;                            /* the kernel's call being inlined (null: none) */
    CXCursor last_stmt; /* the kernel body's last statement (a loop there may end by return) */
    char *over;         /* where the walk passed WALK_MAX_STEPS, and why (NULL: it did not) */
    int cap_acc, cap_binds, cap_arrays, cap_skips, cap_strs; /* the room of those lists */
} W;

typedef struct walk_kids { /* every child of a node; the list lives until walk_children_release */
    CXCursor *c;
    int n;
} walk_kids;

/* walk_util.c: text, positions, children of a cursor, -D values */
char *walk_fmt(const char *f, ...) __attribute__((format(printf, 1, 2)));
/* A copy of s that lives until walk_pool_free. */
const char *walk_strdup(W *w, const char *s);
/* Free the expressions and strings the walk kept. */
void walk_pool_free(W *w);
/* Expansion position of c (what the user sees in the file); off may be NULL. */
void walk_where(CXCursor c, int *line, int *col, unsigned *off);
char *walk_spell(CXCursor c);
char *walk_type_spell(CXType t);
/* Set w->why (the first failure wins until cleared), pointing at c; returns 0 (no expression). */
expr_ref walk_fail(W *w, CXCursor c, const char *f, ...) __attribute__((format(printf, 3, 4)));
/* p (a list of n elements of elem bytes, room for *cap) with room for one more: the room doubles
 * and never shrinks, so appending costs the same whatever the list holds, also where realloc
 * always copies (sanitized builds). */
void *walk_grow(void *p, int n, int *cap, size_t elem);
/* Record a skipped access or a note (text owned by the list) for the sorted report. */
void walk_add_skip(W *w, int line, int col, char *text);
walk_kids walk_children(CXCursor c);
/* Free every list walk_children returned. */
void walk_children_release(void);
/* Parentheses and implicit conversions removed. */
CXCursor walk_strip(CXCursor c);
bool walk_address_from_shared(W *w, CXCursor c);
bool walk_has_attr(CXCursor c, enum CXCursorKind attr);
/* The -D value given for name, or NULL. */
const char *walk_define(const W *w, const char *name);
bool walk_parse_i64(const char *s, int64_t *out);
/* The source line of c (whitespace collapsed, at most 160 characters), or NULL. */
char *walk_source_line(W *w, CXCursor c);
/* The whole line of c as written (at most 1000 bytes) and the path of its file (*file, owned
 * by w, valid until the next call), or NULL. */
char *walk_line_text(W *w, CXCursor c, const char **file);

/* walk.c: the name (without folders) of the file c is in, as the user sees it (w->file_base
 * when unknown); a string that lives as long as w. */
const char *walk_file_of(W *w, CXCursor c);

/* walk_types.c: element types, structs and the shared arrays */
/* The vector type a struct packing scalars of one type into 4, 8 or 16 aligned bytes is moved
 * as (float4 for llm.c's Packed128<float>), in buf; NULL for another type. */
const char *walk_pack_name(CXType t, char *buf, size_t n);
CXType walk_elem_type(CXType e);
/* The bankscope name of a scalar or CUDA vector type (in buf), or NULL. */
const char *walk_builtin_name(CXType t, char *buf, size_t n);
/* Like walk_builtin_name, also for a template type parameter given with -D NAME=TYPE; *size is
 * the type's size in bytes (negative when not known). */
const char *walk_type_name(W *w, CXType t, char *buf, size_t n, int64_t *size);
/* Add struct t (and the structs it contains, first) to reg; its name, or NULL. */
const char *walk_struct_emit(W *w, CXType t, types_registry *reg, char *name_out, size_t n);
/* The explicit specialization (template <> struct C<float> { ... }) of the class template tmpl
 * (or, tmpl null, of the one called name) for the type arguments args (bankscope names), or a
 * null cursor. */
CXCursor walk_specialization(W *w, CXCursor tmpl, const char *name, const char *const *args, int nargs);
/* Register the shared array declared by decl; its index in w->arrays. */
int walk_array_add(W *w, CXCursor decl);

/* walk_value.c: values, pointers into shared arrays, elements, inlined calls */
bool walk_refers_to(CXCursor e, CXCursor var);
/* How often var is written (or has its address taken) in the function that declares it. */
int walk_mod_count(CXCursor var, CXCursor *first);
/* How often var is written (or has its address taken) inside scope. */
int walk_mod_count_in(CXCursor scope, CXCursor var);
/* Forget the counts walk_mod_count and walk_mod_count_in keep for the walk. */
void walk_mod_cache_free(void);
const char *walk_callee_name(CXCursor call, char *buf, size_t n);
/* The definition of the function a call calls (also a function template named by a call that
 * depends on a template parameter), or a null cursor. */
CXCursor walk_callee(CXCursor call);
/* Whether parameter i of fn is an lvalue reference. */
bool walk_param_is_ref(CXCursor fn, int i);
/* A __device__ (or __global__) function defined in the user's files. */
bool walk_is_device_fn(CXCursor fn);
/* Translate a value expression into w->ep; 0 with w->why set when it cannot be expressed. */
expr_ref walk_value(W *w, CXCursor c);
/* A pointer or array expression: 1 and *p when it points into a shared array, 0 when it does
 * not, -1 when it does but cannot be followed (w->why says why). */
int walk_pointer(W *w, CXCursor c, pbind *p);
/* An element of a shared array: 1 with *a filled (array, indexes, field, vector), 0 when c is
 * not one, -1 when it is but cannot be expressed. */
int walk_element(W *w, CXCursor c, waccess *a);
/* Whether fn can call itself, directly or through other functions of the user's files. */
bool walk_calls_itself(CXCursor fn);
/* Bind fn's parameters to the arguments of call; *saved restores the bindings. */
bool walk_bind_params(W *w, CXCursor call, CXCursor fn, int *saved);

/* walk_launch.c: template values and the block from the kernel's launches */
void walk_launch_scan(W *w);
/* The block the launches give (w->lblock) into block, with a note; false when none gives one. */
bool walk_launch_block(W *w, int block[3]);
/* The value of template parameter param (called name) at every launch: 0 when no launch gives
 * it, or with w->why set (at cursor at) when the launches give several. */
expr_ref walk_launch_value(W *w, CXCursor param, CXCursor at, const char *name);
/* The bankscope type the kernel's template type parameter called name has at every launch, or
 * NULL. */
const char *walk_launch_type(W *w, const char *name);

/* walk_build.c: the scenario */
/* Build the scenario of what the walk found into *s (kernel kname) and check it with the model's
 * checks; accesses the model refuses are listed as skipped. False (s empty) when no array can be
 * imported (said on stderr), when no access is left (*no_access), or when something other than
 * an access is refused (*refused: the message, "FILE:LINE:COL: ...", owned by the caller). */
bool walk_build(W *w, const char *kname, scenario *s, bool *no_access, char **refused);

/* walk_loop.c: simple counted loops */
/* Read a for statement as a simple loop: NULL and *L filled, or the reason it is not one. */
const char *walk_simple_for(W *w, CXCursor c, wloop *L, CXCursor *var, CXCursor *body);
/* Read a while loop as a simple loop (the variable var, whose value when the loop starts is
 * from, stepped by the body's last statement): NULL and *L filled, or the reason it is not one. */
const char *walk_simple_while(W *w, CXCursor c, CXCursor var, expr_ref from, wloop *L);
/* Read 'for (; cond; inc) body' as a simple loop of var, whose value when the loop starts is
 * from: NULL and *L filled, or the reason it is not one. */
/* A do-while loop as a simple loop: do { ...; v += k; ... } while (v OP bound), v stepped once,
 * by a statement of the body's own (not under a condition): the same iterations as the while
 * loop of that condition when v's start meets it. */
const char *walk_simple_do(W *w, CXCursor c, CXCursor var, expr_ref from, wloop *L);
const char *walk_simple_noinit(W *w, CXCursor c, CXCursor var, expr_ref from, CXCursor cond, CXCursor inc,
                               CXCursor body, wloop *L);
/* A break, return or goto in a loop body that leaves that loop (not an inner one), or null. */
CXCursor walk_loop_exit(CXCursor body);
/* Whether the value of c is the same for every thread of the block (it may read memory, at an
 * address that is the same for every thread). */
bool walk_uniform(W *w, CXCursor c);

#endif
