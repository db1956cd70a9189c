/* save: a scenario back to JSON (the format load.c reads), and careful file writing.
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
/* Write data to path as a careful editor does (save_file.c): a regular file is replaced by a
 * complete, fsync'd temporary file in its folder and rename(2), so a failed save leaves the old
 * file untouched; symbolic links are followed (the link stays a link); an existing file keeps its
 * mode and owner, and its hard links (written in place after a verified temporary copy);
 * character devices and pipes are written in place, directories and other kinds refused.
 * False with a one-line message in err that says whether anything was written. */
bool save_atomic(const char *path, const char *data, size_t len, char *err, size_t errlen);
/* Create a new, empty file named like path's ".NAME.XXXXXX" in path's folder with
 * O_CREAT|O_EXCL (mkostemp, mode 0600; no symbolic link can redirect it). Returns the open
 * descriptor and the malloc'd name in *tmp_out, or -1 with errno set and *tmp_out NULL. */
int save_temp_create(const char *path, char **tmp_out);
/* Write all len bytes of buf to fd, retrying short writes and EINTR; false with errno set. */
bool save_write_all(int fd, const void *buf, size_t len);

#endif
