/* view: the pure helpers the panels and the application share: one warp-instruction analysed
 * for drawing, the declaration of an array, and the grid's and lane table's geometry (drawing and
 * mouse hits use the same records). */
#include <stdio.h>
#include <string.h>

#include "tui/view.h"

void view_build(const scenario *s, int access, int iteration, int warp, tui_view *v)
{
    scenario_instr_get(s, access, iteration, warp, &v->in);
    banks_analyze(s->arch, &v->in.req, &v->res, v->cells);
    scenario_instr_excluded(&v->in, &v->excl);
    v->valid = true;
}

void view_declaration(const scenario *s, int access, char *buf, size_t n)
{
    if (!scenario_has_layout(s)) {
        snprintf(buf, n, "trace of %d instruction%s", s->ntrace, s->ntrace == 1 ? "" : "s");
        return;
    }
    const scenario_array *arr = &s->arrays[s->accesses[access].array];
    int k = snprintf(buf, n, "%s %s", types_name(&s->types, &arr->type), arr->name);
    for (int d = 0; d < arr->ndims && k >= 0 && (size_t)k < n; d++)
        k += arr->pad[d]
                 ? snprintf(buf + k, n - (size_t)k, "[%lld+%lld]", (long long)arr->dims[d], (long long)arr->pad[d])
                 : snprintf(buf + k, n - (size_t)k, "[%lld]", (long long)arr->dims[d]);
    if (arr->swizzle && k >= 0 && (size_t)k < n)
        snprintf(buf + k, n - (size_t)k, " swizzle %s", arr->swizzle);
}

grid_geom grid_geom_make(const layout_rect *r, const tui_view *v, int scroll, int cw, int lw)
{
    grid_geom g = {.frame = *r, .cw = cw, .lw = lw};
    g.in = (layout_rect){r->y + 1, r->x + 1, r->h - 2, r->w - 2};
    if (r->h < 3 || r->w < 4)
        g.in = (layout_rect){r->y, r->x, 0, 0};
    g.banks = 0;              /* set by the caller from the profile */
    g.head = cw >= 3 ? 1 : 2; /* bank numbers: one line, or tens above ones */
    g.x0 = g.in.x + lw;
    g.y0 = g.in.y + g.head;
    g.nvis = g.in.h - g.head - 1; /* header and footer */
    if (g.nvis < 0)
        g.nvis = 0;
    g.rows = v->valid ? v->res.wavefronts : 0;
    if (scroll > g.rows - g.nvis)
        scroll = g.rows - g.nvis;
    g.scroll = scroll < 0 ? 0 : scroll;
    return g;
}

bool grid_geom_hit(const grid_geom *g, int y, int x, int *row, int *bank)
{
    if (y < g->y0 || y >= g->y0 + g->nvis || x < g->x0 || x >= g->x0 + g->banks * g->cw || g->cw < 1)
        return false;
    *row = g->scroll + (y - g->y0);
    *bank = (x - g->x0) / g->cw;
    return *row < g->rows;
}

int lanes_geom_hit(const lanes_geom *g, int y, int x)
{
    if (y < g->in.y || y >= g->in.y + g->in.h || x < g->in.x || x >= g->in.x + g->in.w)
        return -1;
    int lane = g->scroll + (y - g->in.y);
    return lane < BANKS_WARP ? lane : -1;
}
