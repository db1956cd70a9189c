/* svg: bank grid + array map rendering. Colours match the TUI's roles: green served, red a
 * bank serving several words in one phase, yellow lanes sharing a word, grey padding. */
#include "svg.h"

#include <stdio.h>
#include <string.h>

#include "io/report.h"
#include "io/textsafe.h"

enum { CW = 26, CH = 20, LEFT = 60, TOP = 70 };

static void text(strbuf *o, int x, int y, const char *anchor, const char *style, const char *t)
{
    strbuf_addf(o, "<text x=\"%d\" y=\"%d\" text-anchor=\"%s\" %s>", x, y, anchor, style);
    textsafe_xml_add(o, t); /* always well-formed: escaped, control characters and bad UTF-8 made visible */
    strbuf_addf(o, "</text>\n");
}

static void rect(strbuf *o, int x, int y, int w, int h, const char *fill)
{
    strbuf_addf(
        o, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"%s\" stroke=\"#888\" stroke-width=\"0.5\"/>\n", x,
        y, w, h, fill);
}

/* The array map's largest size in cells; a larger array is cut, and the cut is marked and said. */
enum { MAP_MAX_COLS = 40, MAP_MAX_ROWS = 32 };

/* The array map below the grid: rows of the array, each cell its bank, the warp's lanes marked. */
static int draw_map(const scenario *s, const scenario_instr *in, int y0, strbuf *o)
{
    const scenario_access *a = &s->accesses[in->access];
    const scenario_array *arr = &s->arrays[a->array];
    int64_t rows, cols, all_rows, all_cols;
    scenario_map_shape(arr, &all_rows, &all_cols);
    cols = all_cols > MAP_MAX_COLS ? MAP_MAX_COLS : all_cols;
    rows = all_rows > MAP_MAX_ROWS ? MAP_MAX_ROWS : all_rows;
    uint32_t drawn = 0; /* lanes whose element is among the cells drawn */
    char buf[320];      /* the longest: the map-cut line (its three parts are at most 63 + 63 + 79) */
    /* a swizzled array is drawn in storage order: each cell is a place in shared memory and says
     * which column's element the swizzle stored there (the permutation is visible) */
    bool swz = arr->swz_bits != 0;
    if (swz)
        snprintf(buf, sizeof buf,
                 "array map of %s in storage order (%s swizzle): each cell shows the column of the element stored "
                 "there; the warp's cells show their lane",
                 arr->name, arr->swizzle);
    else
        snprintf(buf, sizeof buf, "array map of %s: each cell shows its bank; the warp's cells show their lane",
                 arr->name);
    text(o, LEFT, y0, "start", "font-size=\"14\" font-weight=\"bold\"", buf);
    y0 += 10;
    for (int64_t r = 0; r < rows; r++) {
        snprintf(buf, sizeof buf, "%lld", (long long)r);
        text(o, LEFT - 6, y0 + (int)r * CH + 14, "end", "font-size=\"11\" fill=\"#555\"", buf);
        for (int64_t c = 0; c < cols; c++) {
            int64_t rowlen = arr->ndims == 1 ? cols : arr->extent[arr->ndims - 1];
            int64_t e = r * rowlen + c;
            if (arr->ndims == 1 && e >= arr->extent[0])
                break;
            int64_t slot, held; /* held: the element stored here */
            bool pad = scenario_map_cell(arr, rowlen, e, a->offset, &slot, &held);
            int64_t addr = arr->start + slot, hc = held % rowlen;
            int lane = -1;
            for (int l = 0; l < BANKS_WARP; l++)
                if (in->lane[l].state == SCENARIO_LANE_OK && in->lane[l].address == addr) {
                    drawn |= 1u << l;
                    if (lane < 0)
                        lane = l;
                }
            int x = LEFT + (int)c * CW, y = y0 + (int)r * CH;
            rect(o, x, y, CW, CH, lane >= 0 ? "#7fd3e8" : pad ? "#d0d0d0" : "#ffffff");
            if (lane < 0 && swz && held / rowlen == e / rowlen)
                snprintf(buf, sizeof buf, "c%lld", (long long)hc);
            else if (lane < 0 && swz) /* rows shorter than the swizzle's line: it may come from another row */
                snprintf(buf, sizeof buf, "%lld:%lld", (long long)(held / rowlen), (long long)hc);
            else
                snprintf(buf, sizeof buf, "%d", lane >= 0 ? lane : banks_bank_of(s->arch, addr));
            text(o, x + CW / 2, y + 14, "middle",
                 lane >= 0         ? "font-size=\"11\" font-weight=\"bold\""
                 : strlen(buf) > 3 ? "font-size=\"7\" fill=\"#777\"" /* "11:12": row:column of another row */
                                   : "font-size=\"10\" fill=\"#777\"",
                 pad ? "pad" : buf);
        }
    }
    int y = y0 + (int)rows * CH;
    if (rows == all_rows && cols == all_cols)
        return y;
    /* the map is cut: mark the cut edges and say what is left out */
    if (cols < all_cols) {
        snprintf(buf, sizeof buf, "+%lld columns", (long long)(all_cols - cols));
        text(o, LEFT + (int)cols * CW + 4, y0 + 14, "start", "font-size=\"11\" font-weight=\"bold\" fill=\"#c00\"",
             buf);
        strbuf_addf(o,
                    "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#c00\" stroke-width=\"2\" "
                    "stroke-dasharray=\"4 3\"/>\n",
                    LEFT + (int)cols * CW, y0, LEFT + (int)cols * CW, y);
    }
    if (rows < all_rows)
        strbuf_addf(o,
                    "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#c00\" stroke-width=\"2\" "
                    "stroke-dasharray=\"4 3\"/>\n",
                    LEFT, y, LEFT + (int)cols * CW, y);
    uint32_t active = 0;
    for (int l = 0; l < BANKS_WARP; l++)
        active |= (uint32_t)(in->lane[l].state == SCENARIO_LANE_OK) << l;
    int outside = __builtin_popcount(active & ~drawn);
    char lanes[80] = "every active lane of the warp is inside it";
    if (outside)
        snprintf(lanes, sizeof lanes, "%d active lane%s of the warp fall%s outside it", outside,
                 outside == 1 ? "" : "s", outside == 1 ? "s" : "");
    char rtxt[64], ctxt[64];
    if (rows < all_rows)
        snprintf(rtxt, sizeof rtxt, "rows 0-%lld of %lld", (long long)rows - 1, (long long)all_rows);
    else
        snprintf(rtxt, sizeof rtxt, "all %lld rows", (long long)all_rows);
    if (cols < all_cols)
        snprintf(ctxt, sizeof ctxt, "columns 0-%lld of %lld", (long long)cols - 1, (long long)all_cols);
    else
        snprintf(ctxt, sizeof ctxt, "all %lld columns", (long long)all_cols);
    snprintf(buf, sizeof buf, "map cut (dashed red edge): %s and %s drawn; %s", rtxt, ctxt, lanes);
    text(o, LEFT, y + 16, "start", "font-size=\"11\" fill=\"#c00\"", buf);
    return y + 20;
}

void svg_render(const scenario *s, const scenario_instr *in, const banks_result *r, const banks_cell *cells, strbuf *o)
{
    int banks = s->arch->banks, rows = r->wavefronts;
    strbuf body = {0};
    char buf[512], deg[32];
    /* title: a long name is cut on a character boundary */
    const char *name = s->name ? s->name : "bankscope";
    size_t cut = textsafe_cut(name, 160);
    snprintf(buf, sizeof buf, "%.*s%s", (int)cut, name, name[cut] ? "..." : "");
    text(&body, LEFT, 24, "start", "font-size=\"18\" font-weight=\"bold\"", buf);
    strbuf line = {0};
    if (!scenario_has_layout(s)) {
        char kt[32];
        strbuf_addf(&line, "trace[%lld]: %s, %d B per lane", (long long)in->seq,
                    scenario_kind_text(&in->req, kt, sizeof kt), in->req.width);
    } else {
        const scenario_access *a = &s->accesses[in->access];
        char kt[32];
        strbuf_addf(&line, "warp %d", in->warp);
        strbuf it = {0}; /* the loops' values: which iteration the grid is */
        scenario_iteration_text(s, in->access, in->iteration, &it);
        if (it.len)
            strbuf_addf(&line, ", %s", strbuf_str(&it));
        strbuf_free(&it);
        strbuf_addf(&line, ": %s %s", scenario_kind_text(&in->req, kt, sizeof kt), s->arrays[a->array].name);
        for (int d = 0; d < a->nidx; d++)
            strbuf_addf(&line, "[%s]", a->index_text[d]);
        if (a->field)
            strbuf_addf(&line, ".%s", a->field);
        if (a->label) /* e.g. the source position of an imported access */
            strbuf_addf(&line, "  (%s)", a->label);
    }
    text(&body, LEFT, 44, "start", "font-size=\"13\"", strbuf_str(&line));
    strbuf_clear(&line);
    scenario_excluded ex;
    scenario_instr_excluded(in, &ex);
    int64_t nex = scenario_excluded_total(&ex);
    if (nex) { /* lanes left out are said first, never a bare "conflict-free" (as analyze) */
        char why[160];
        strbuf_addf(&line, "%lld of %d lanes left out (%s)%s; the %d remaining: ", (long long)nex,
                    scenario_instr_threads(in), report_excluded_text(&ex, why, sizeof why),
                    ex.misaligned ? ": this access faults" : "", r->active_lanes);
    }
    strbuf_addf(&line, "%s: %d wavefront%s (ideal %d), %d bank conflict%s - predicted, %s",
                report_degree_text(r->conflict_degree, deg, sizeof deg), r->wavefronts, r->wavefronts == 1 ? "" : "s",
                r->ideal_wavefronts, r->bank_conflicts, r->bank_conflicts == 1 ? "" : "s", s->arch->name);
    text(&body, LEFT, 62, "start",
         r->conflict_degree > 1 || nex ? "font-size=\"13\" fill=\"#c00\" font-weight=\"bold\""
                                       : "font-size=\"13\" fill=\"#070\" font-weight=\"bold\"",
         strbuf_str(&line));
    strbuf_free(&line);
    /* bank header and grid */
    for (int b = 0; b < banks; b++) {
        snprintf(buf, sizeof buf, "%d", b);
        text(&body, LEFT + b * CW + CW / 2, TOP + 12, "middle", "font-size=\"11\" fill=\"#555\"", buf);
    }
    text(&body, LEFT - 6, TOP + 12, "end", "font-size=\"11\" fill=\"#555\"", "bank");
    int y = TOP + 18;
    for (int row = 0; row < rows && row < BANKS_MAX_ROWS; row++) {
        int ph = 0;
        for (int p = 0; p < r->nphases; p++)
            if (row >= r->phase[p].first_row && row < r->phase[p].first_row + r->phase[p].wavefronts)
                ph = p;
        snprintf(buf, sizeof buf, "%d", row);
        text(&body, LEFT - 6, y + row * CH + 14, "end", "font-size=\"11\" fill=\"#555\"", buf);
        for (int b = 0; b < banks; b++) {
            const banks_cell *c = &cells[row * banks + b];
            int x = LEFT + b * CW, yy = y + row * CH;
            if (!c->lanes) {
                rect(&body, x, yy, CW, CH, "#f4f4f4");
                continue;
            }
            int load = 0;
            for (int rr = r->phase[ph].first_row; rr < r->phase[ph].first_row + r->phase[ph].wavefronts; rr++)
                load += cells[rr * banks + b].lanes != 0;
            int n = __builtin_popcount(c->lanes);
            rect(&body, x, yy, CW, CH, n > 1 ? "#ffe066" : load > 1 ? "#f08080" : "#9be39b");
            snprintf(buf, sizeof buf, n > 1 ? "%d+" : "%d", __builtin_ctz(c->lanes));
            text(&body, x + CW / 2, yy + 14, "middle", "font-size=\"11\"", buf);
        }
    }
    y += rows * CH + 40;
    if (scenario_has_layout(s))
        y = draw_map(s, in, y, &body) + 20;
    text(&body, LEFT, y, "start", "font-size=\"11\" fill=\"#555\"",
         "rows: wavefronts; cells: lanes served (red: the bank serves several words in one phase; yellow: lanes "
         "sharing one word)");
    int width = LEFT + (banks > 40 ? banks : 40) * CW + 20, height = y + 20;
    if (scenario_has_layout(s)) { /* room for the "+N columns" mark of a map cut on the right */
        int64_t mr, mc;
        scenario_map_shape(&s->arrays[s->accesses[in->access].array], &mr, &mc);
        if (mc > MAP_MAX_COLS && LEFT + MAP_MAX_COLS * CW + 100 > width)
            width = LEFT + MAP_MAX_COLS * CW + 100;
    }
    strbuf_addf(o,
                "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg xmlns=\"http://www.w3.org/2000/svg\" "
                "width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" font-family=\"DejaVu Sans, Arial, sans-serif\">\n"
                "<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n",
                width, height, width, height);
    strbuf_add(o, body.data, body.len);
    strbuf_addf(o, "</svg>\n");
    strbuf_free(&body);
}
