/* lesson: an ordered list of scenarios with a text for each step, for class and self-study.
 * File format: { "lesson": "title", "steps": [ { "pattern": NAME_OR_FILE, "text": "..." } ] },
 * a FILE being a .json file of the lesson's folder (io/safe_open.h: nothing else is opened).
 * Every step's scenario is checked when the lesson loads. A lesson owns its strings. */
#ifndef BANKSCOPE_LESSON_H
#define BANKSCOPE_LESSON_H

#include <stdbool.h>
#include <stddef.h>

#include "io/load.h"

typedef struct lesson_step {
    char *pattern;
    char *text;
} lesson_step;

typedef struct lesson {
    char *title;
    lesson_step *steps;
    int nsteps;
} lesson;

/* True when the JSON text is a lesson (its top-level object has "lesson"). */
bool lesson_is(const char *text, size_t len);
/* The lesson in text; name is used in messages. A step's pattern is a library name or a .json
 * file of dir, the lesson's folder (NULL: library names only); a file's pattern is kept as its
 * real path. */
bool lesson_load_text(const char *text, size_t len, const char *name, const char *dir, lesson *out, io_error *err);
/* Read a lesson from a file or the library; false with a message otherwise. */
bool lesson_load(const char *source, lesson *out, io_error *err);
void lesson_free(lesson *l);

#endif
