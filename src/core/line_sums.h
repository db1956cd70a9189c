/* line_sums: the one walk over warp-instructions that gives their predicted sums per access, per
 * source line and per PC (and in total), whatever they come from: a recording's captured entries
 * (record's book), a recording's trace read back (analyze's lines and SASS page) or a scenario's
 * instructions (the source view, the TUI's SASS view, diff). Each warp-instruction is analysed once by the engine
 * `analyze` uses (banks_analyze) and added to its access, its line and its PC by one rule, so the
 * sums of every view of a recording are the same numbers.
 *
 * The rule: every instruction counts in instructions; wavefronts and ideal add up; worst is the
 * largest conflict degree; an instruction of a kind the model does not cover (banks_analyze says
 * not_modelled, or the caller could not make a request of it) counts in not_modelled (adding
 * nothing else) and the first such kind names it; idle counts the instructions with no active
 * lane.
 *
 * Ownership: the caller owns the arrays a line_sums points to (zeroed before the walk). */
#ifndef BANKSCOPE_CORE_LINE_SUMS_H
#define BANKSCOPE_CORE_LINE_SUMS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/banks.h"
#include "model/source_lines.h"

/* The sums of one access, line or PC (or of them all). */
typedef struct line_sum {
    int64_t instructions;      /* warp-instructions counted here */
    int64_t idle;              /* of which no lane was active (nothing issued) */
    int64_t wavefronts, ideal; /* predicted */
    int worst;                 /* worst conflict degree; 0 when none was analysed */
    int64_t not_modelled;      /* of kinds the model does not cover (in no other sum) */
    const char *kind;          /* the first such kind's name (static), NULL: none or not named */
    bool has_costliest;        /* an instruction was analysed: */
    int64_t costliest;         /* the access of the first one with the most wavefronts beyond ideal */
    int costliest_excess;      /* and those wavefronts */
} line_sum;

/* One warp-instruction of a walk and where it belongs. */
typedef struct line_sums_instr {
    banks_request req;
    const char *unmodelled; /* not NULL: not analysed, a kind the model does not cover (why, static);
                               req is then not read */
    int64_t access;         /* its access or trace entry (index into per_access); -1: none */
    int line;               /* its source line (index into per_line); -1: none */
    int pc;                 /* its PC (index into per_pc); -1: none */
    bool idle;              /* no lane active (counted in idle; the caller knows the lanes' threads) */
} line_sums_instr;

/* The next warp-instruction into *in (all of it set): 1 one more, 0 the end, -1 stop (the
 * caller's error or a signal; the sums so far are kept). */
typedef int (*line_sums_next)(void *ctx, line_sums_instr *in);

/* What a walk sums into. */
typedef struct line_sums {
    const banks_profile *arch; /* the model that predicts */
    line_sum total;            /* over every instruction */
    line_sum *per_access;      /* naccess of them, or NULL */
    int64_t naccess;
    line_sum *per_line; /* nlines of them, or NULL */
    int nlines;
    line_sum *per_pc; /* npcs of them, or NULL */
    int npcs;
} line_sums;

/* Walk every instruction next gives and add it to the total and to its access, line and PC.
 * Returns 0 at the end, -1 when next stopped it. */
int line_sums_walk(line_sums *s, line_sums_next next, void *ctx);

/* Add one instruction, analysed by the caller's walk (res: its result by the engine analyze uses;
 * NULL: not analysed, in->unmodelled), to the total and to its access, line and PC: the rule of
 * line_sums_walk, for a walk that is someone else's (analyze's, which predicts each instruction
 * once for its report and its lines). */
void line_sums_add(line_sums *s, const line_sums_instr *in, const banks_result *res);
/* One instruction of a walk that is the caller's, analysed here and added (line_sums_walk's step). */
void line_sums_step(line_sums *s, const line_sums_instr *in);

/* Walk every warp-instruction of scenario s (a trace entry is its own access) into sums; line_of
 * (naccess entries, NULL: none) gives each access its line. */
void line_sums_scenario(line_sums *sums, const scenario *s, const int *line_of, int64_t naccess);

/* The costliest of trace entries entries[0..n-1] of s (a recording's instructions on one line),
 * summed one by one by the walk: the most wavefronts beyond ideal, then the most wavefronts; the
 * first on a tie (entries[0] when none is in range). */
int line_sums_costliest_entry(const scenario *s, const int *entries, int n);

/* The source view's rows of scenario s (source_lines_layout's, model/source_lines.h) with their
 * predicted sums, from one walk over s's instructions with s's architecture. The arguments are
 * source_lines_layout's. */
bool line_sums_source(const scenario *s, const char *file_text, size_t len, const source_record_line *rec, int nrec,
                      const source_skip *skips, int nskips, source_lines *out, char *why, size_t n);

#endif
