/* import_stub: the importer in a build without libclang (configure found no libclang-dev). */
#include <stdio.h>

#include "import/import.h"

bool import_available(void)
{
    return false;
}

int import_run(const import_options *o, char **json)
{
    (void)o;
    *json = NULL;
    fputs(
        "bankscope: built without libclang: import unavailable (install libclang-dev and llvm-dev, and reconfigure)\n",
        stderr);
    return IMPORT_FAIL;
}
