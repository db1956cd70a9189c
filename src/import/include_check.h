/* include_check: the includes of an imported source must be regular files (see include_check.c). */
#ifndef BANKSCOPE_IMPORT_INCLUDE_CHECK_H
#define BANKSCOPE_IMPORT_INCLUDE_CHECK_H

#include <stdbool.h>

#include "import/import.h"

/* True when every #include the source names (followed through the files they name) is a regular
 * file outside /dev, /proc and /sys; otherwise false, with FILE:LINE:COL: error printed. */
bool import_check_includes(const import_options *o);

#endif
