/* scenario_edit: changing a scenario without ever mutating the one on show.
 *
 * scenario_clone makes an independent deep copy (every user-set field copied, every derived field
 * recomputed by scenario_finish), so a copy can be edited, analysed in another thread or kept as a
 * pinned state. An edit is a function applied to a clone; the clone replaces the current scenario
 * only when the function succeeds and the result validates (scenario_finish). The history keeps
 * the replaced scenarios as undo and redo stacks of whole copies (bounded). Pure: no I/O, no
 * globals; every scenario here owns its memory. */
#ifndef BANKSCOPE_SCENARIO_EDIT_H
#define BANKSCOPE_SCENARIO_EDIT_H

#include <stdbool.h>
#include <stddef.h>

#include "model/scenario.h"

/* Deep copy of src (which must have been finished) into *dst; false (and *dst empty) only when
 * the copy does not validate, which cannot happen for a finished src. */
bool scenario_clone(const scenario *src, scenario *dst);

/* An edit: change *s (a private copy) and return true, or false with a reason in msg. It may call
 * scenario_finish itself to try candidates; the caller validates the result again anyway. */
typedef bool (*scenario_edit_fn)(scenario *s, void *ctx, char *msg, size_t n);

/* Undo and redo stacks of whole scenarios, newest last. At most SCENARIO_HISTORY_MAX each. */
#define SCENARIO_HISTORY_MAX 64
typedef struct scenario_history {
    scenario *undo; /* owned */
    int nundo;
    scenario *redo; /* owned */
    int nredo;
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

#endif
