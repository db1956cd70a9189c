/* scenario_edit: changing a scenario without ever mutating the one on show.
 *
 * scenario_clone makes an independent copy of the description (every user-set field copied,
 * every derived field recomputed by scenario_finish) that shares a trace's instruction table
 * (immutable, reference-counted: scenario_table_*), so a copy costs what the description does,
 * whatever the trace's length; it can be edited, analysed in another thread or kept as a pinned
 * state. An edit is a function applied to a clone; the clone replaces the current scenario only
 * when the function succeeds and the result validates (scenario_finish). The history keeps the
 * replaced scenarios as undo and redo stacks of such copies (bounded). Pure: no I/O, no globals;
 * every scenario here owns its description and holds a reference to its table. */
#ifndef BANKSCOPE_SCENARIO_EDIT_H
#define BANKSCOPE_SCENARIO_EDIT_H

#include <stdbool.h>
#include <stddef.h>

#include "model/scenario.h"

/* Copy of src (which must have been finished) into *dst, sharing its trace table; false (and *dst empty) only when
 * the copy does not validate, which cannot happen for a finished src. */
bool scenario_clone(const scenario *src, scenario *dst);

/* True when a and b would be saved as the same file (io/save.c writes the same JSON for both),
 * decided on the structs without writing anything: the "modified" mark's question. Two traces
 * sharing one table are compared without looking at their entries. */
bool scenario_same_file(const scenario *a, const scenario *b);

/* An edit: change *s (a private copy) and return true, or false with a reason in msg. It may call
 * scenario_finish itself to try candidates; the caller validates the result again anyway. */
typedef bool (*scenario_edit_fn)(scenario *s, void *ctx, char *msg, size_t n);

/* Undo and redo stacks of scenarios (descriptions, each holding a reference to its trace's table),
 * newest last. At most SCENARIO_HISTORY_MAX each; the stacks grow as they fill. */
#define SCENARIO_HISTORY_MAX 64
typedef struct scenario_history {
    scenario *undo; /* owned */
    int nundo, undo_cap;
    scenario *redo; /* owned */
    int nredo, redo_cap;
} scenario_history;

/* Apply fn to a clone of *cur; when it succeeds and validates, the clone becomes *cur and the
 * old scenario goes on the undo stack (the redo stack is cleared). On failure *cur is untouched
 * and msg says why (the reason from fn, or the validation error with its path). h may be NULL:
 * then the old scenario is freed. */
bool scenario_edit_apply(scenario *cur, scenario_history *h, scenario_edit_fn fn, void *ctx, char *msg, size_t n);
/* Replace *cur by next (taken over; next is left empty), keeping *cur for undo. */
void scenario_edit_replace(scenario *cur, scenario_history *h, scenario *next);
/* Step back (undo) or forward (redo); false when there is nothing to step to. */
bool scenario_edit_undo(scenario *cur, scenario_history *h);
bool scenario_edit_redo(scenario *cur, scenario_history *h);
void scenario_history_free(scenario_history *h);

/* ---- the edits a user makes, with typed arguments (scenario_edit_ops.c) ----
 * A change names what to do and to which array, access or struct; scenario_change_apply makes it
 * on a private copy (through scenario_edit_apply), trying candidates with scenario_finish where a
 * key cycles through choices. Every message is for a person: what changed, or why nothing did. */
typedef enum scenario_change_kind {
    SCENARIO_CHANGE_PAD,             /* pad: innermost padding of .array by .delta elements */
    SCENARIO_CHANGE_SWIZZLE,         /* swizzle: .array's swizzle set to .text (NULL or "": none) */
    SCENARIO_CHANGE_SWIZZLE_NEXT,    /* swizzle: the next TMA mode (none 32B 64B 128B) that fits */
    SCENARIO_CHANGE_TYPE_NEXT,       /* array: the next element type that fits */
    SCENARIO_CHANGE_PATTERN_NEXT,    /* pattern: the next access preset of .access */
    SCENARIO_CHANGE_BLOCK_NEXT,      /* (none): the next block shape that validates */
    SCENARIO_CHANGE_DIMENSION,       /* dimension: halve or double a dimension of .array */
    SCENARIO_CHANGE_ARCH_STEP,       /* arch: the next (.step 1) or previous (-1) architecture */
    SCENARIO_CHANGE_ARCH_SET,        /* arch: the architecture of index .index (banks_profiles) */
    SCENARIO_CHANGE_FIELD_NEXT,      /* access: the next struct field the access can read */
    SCENARIO_CHANGE_INDEX,           /* index: an index expression (.dim >= 0) or 'when' (-1) */
    SCENARIO_CHANGE_FIELDS_REORDER,  /* field: fields of .struct_index by decreasing alignment */
    SCENARIO_CHANGE_FIELD_TYPE_NEXT, /* field: the next type of field .field that fits */
    SCENARIO_CHANGE_FIELD_ADD,       /* field: a char field after .field (-1: at the end) */
    SCENARIO_CHANGE_FIELD_DELETE,    /* field: field .field removed; an access that reads it
                                        refuses ("x is read by access 0") unless .retarget, which
                                        moves such accesses to the first scalar field left */
    SCENARIO_CHANGE_STRUCT_DECL      /* decl: a C struct declaration added (or replacing the
                                        struct of its name); a parse error says its column */
} scenario_change_kind;

typedef struct scenario_change {
    scenario_change_kind kind;
    union {
        struct {
            int array, delta;
        } pad;
        struct {
            int array;
            const char *text; /* borrowed */
        } swizzle;
        struct {
            int array;
        } array;
        struct {
            int access;
            /* the dimensions to put back before a preset; a stride preset grows the array from
             * them while it is shown. NULL: the array's dimensions as they are. */
            const int64_t *user_dims;
        } pattern;
        struct {
            int array;
            bool inner, grow;
        } dimension;
        struct {
            int step, index;
        } arch;
        struct {
            int access;
        } access;
        struct {
            int access, dim;
            const char *text; /* borrowed */
        } index;
        struct {
            int struct_index, field;
            bool retarget;
        } field;
        struct {
            const char *text; /* borrowed */
        } decl;
    } u;
} scenario_change;

/* Apply c to *s (a private copy): true, or false with the reason in msg. On success msg may hold
 * a line describing the result ("block 32x8x1", "field pos.x"), or be empty. */
bool scenario_change_apply(scenario *s, const scenario_change *c, char *msg, size_t n);
/* scenario_edit_fn form of scenario_change_apply (ctx: the const scenario_change *). */
bool scenario_change_fn(scenario *s, void *ctx, char *msg, size_t n);
/* scenario_edit_apply with a change: *cur is replaced only when c applies and validates. */
bool scenario_edit_change(scenario *cur, scenario_history *h, const scenario_change *c, char *msg, size_t n);
/* The struct-of-arrays form of s: every field access reads an array of the field's type. */
bool scenario_edit_soa(const scenario *s, scenario *out, char *label, size_t n);

#endif
