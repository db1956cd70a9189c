/* recording_shared: the "arrays" of a recording: which shared variable each recorded address belongs
 * to, from the kernel's cubin (io/cubin.h) and the recorded addresses (recording_book.h). */
#include <stdint.h>

#include "core/recording_book.h"
#include "io/cubin.h"
#include "io/jsonw.h"

/* One region as a JSON object. */
static void region_json(jsonw *w, const char *name, const char *symbol, const char *kind, int64_t offset, int64_t bytes)
{
    jsonw_begin_object(w, JSONW_INLINE);
    JSONW_KV_STRING(w, "name", name);
    if (symbol)
        JSONW_KV_STRING(w, "symbol", symbol);
    else
        JSONW_KV_NULL(w, "symbol");
    JSONW_KV_STRING(w, "kind", kind);
    JSONW_KV_INT(w, "offset", offset);
    JSONW_KV_INT(w, "bytes", bytes);
    jsonw_end_object(w);
}

void record_arrays_json(jsonw *w, const record_book *b)
{
    const cubin_shared *sh = b->shared;
    if (!sh)
        return;
    /* the static part ends at the section's end; dynamic shared memory starts there (16-byte
     * aligned) and is known only as far as the recorded addresses reach */
    int64_t static_end = sh->found ? sh->section_bytes : 0, dyn_start = (static_end + 15) / 16 * 16;
    int64_t lo = INT64_MAX, hi = -1;
    for (int64_t i = 0; i < b->cap->nentries; i++) {
        const record_entry *e = &b->cap->entries[i];
        if (b->trace_index[i] < 0)
            continue;
        for (int l = 0; l < RECORD_WARP; l++)
            if ((e->mask >> l) & 1) {
                int64_t a = e->addr[l], end = a + (e->size ? e->size : 1);
                if (a < lo)
                    lo = a;
                if (end > hi && a >= dyn_start)
                    hi = end;
            }
    }
    if (!sh->found && lo != INT64_MAX)
        dyn_start = lo / 16 * 16;
    JSONW_KEY(w, "arrays");
    jsonw_begin_array(w, JSONW_LINES);
    if (sh->nvars) {
        for (int i = 0; i < sh->nvars; i++)
            region_json(w, sh->vars[i].name, sh->vars[i].symbol, "static", sh->vars[i].offset, sh->vars[i].bytes);
    } else if (static_end > sh->reserved) {
        region_json(w, "static shared memory", NULL, "static", sh->reserved, static_end - sh->reserved);
    }
    if (hi > dyn_start)
        region_json(w, "dynamic shared memory", NULL, "dynamic", dyn_start, hi - dyn_start);
    jsonw_end_array(w);
}
