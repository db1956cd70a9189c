/* save: a scenario back to JSON (the format load.c reads), and atomic file writing.
 * save_scenario_json is the inverse of load_scenario_text for every field a user can set, so
 * save + load also clones a scenario. */
#ifndef BANKSCOPE_SAVE_H
#define BANKSCOPE_SAVE_H

#include <stdbool.h>
#include <stddef.h>

#include "model/scenario.h"

/* Append s as pretty-printed JSON to out. */
void save_scenario_json(const scenario *s, strbuf *out);
/* Deep copy through JSON; false only if src does not validate (then *dst is empty). */
bool save_clone(const scenario *src, scenario *dst);
/* Write data to path through a temporary file in the same folder and rename(2), so a failed
 * save leaves the old file untouched. False with a message in err. */
bool save_atomic(const char *path, const char *data, size_t len, char *err, size_t errlen);

#endif
