/* import_stub: the importer in a build without libclang (configure found no libclang-dev). */
#include <stdio.h>
#include <stdlib.h>

#include "import/import.h"

bool import_available(void)
{
    return false;
}

int import_run(const import_options *o, import_result *r)
{
    (void)o;
    *r = (import_result){.skips = xmalloc(sizeof *r->skips)};
    fputs(
        "bankscope: built without libclang: import unavailable (install libclang-dev and llvm-dev, and reconfigure)\n",
        stderr);
    return IMPORT_FAIL;
}

void import_result_free(import_result *r)
{
    free(r->skips);
    free(r->json);
    *r = (import_result){0};
}
