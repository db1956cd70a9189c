/* tui: the interactive view's entry point. The command line (src/cli/cli_tui.c) fills the options;
 * everything else (modes, panels, actions) is internal to src/tui (app.h). The TUI never calls
 * CUDA: GPU results arrive through src/gpu's worker and are drawn when they come. */
#ifndef BANKSCOPE_TUI_H
#define BANKSCOPE_TUI_H

#include <stdbool.h>

typedef struct tui_options {
    const char *file; /* scenario, trace, lesson or library name; NULL: the default demo */
    bool color, mouse, gpu;
    bool present;                    /* start in presentation mode */
    bool force;                      /* background jobs start above the work limit (io/work.h) */
    int bench_redraw;                /* > 0: time this many redraws offscreen and exit */
    bool bench_startup;              /* report the time to the first frame and exit */
    bool snapshot;                   /* headless: apply keys, print the state's numbers as JSON, exit */
    const char *keys;                /* keys for the snapshot (as typed) */
    const char *source_file;         /* the source file the scenario's locations point into; NULL: by their names */
    const char *source_dir;          /* a folder of the user's sources, where the names they carry may be opened */
    const struct source_skip *skips; /* the accesses the importer skipped (borrowed); NULL: not known */
    int nskips;
    const char *display; /* NULL, or the name the header shows for file (an import's .cu) */
    const char *compare; /* NULL, or a second file to compare with, line by line (bankscope A B) */
} tui_options;

/* Exit status of the TUI (0, 2 for bad input, 128+signal after a signal). */
enum { TUI_OK = 0, TUI_FAIL = 1, TUI_USAGE = 2 };

/* Run the interactive view (or the headless snapshot / benchmarks) with these options. */
int tui_main(const tui_options *o);

#endif
