/* panel_help: the key reference, drawn over the screen (? or F1 toggles, Esc closes). */
#include "tui/draw.h"

void panel_help_draw(tui_app *a)
{
    static const char *const lines[] = {
        "+ / -      padding of the innermost dimension (elements)",
        "t          element type: float double char short int half float2 float4 ...",
        "a          access pattern: column, row, diagonal, swizzle, strides, broadcast",
        "f          struct field read by the warp (AoS)",
        "e          edit the index expression (live; error position shown)",
        "w / W      next / previous warp      i / I   next / previous loop iteration",
        "x          next access of the scenario",
        "b          block shape               r       architecture (sm_90 ... cc 1.x)",
        "< / >      halve / double the innermost dimension; { / } the outermost",
        "c          compare with the best padding, or the SoA form of a struct field",
        "s          step mode: space replays one wavefront, Enter plays / pauses",
        "n / p      next / previous pattern of the library",
        "S / E      save the scenario as JSON / the grid and array map as SVG",
        "v          advisor: padding sweep, occupancy, swizzle (Enter applies the best; m measures)",
        "o          structs: arrows select a field, t type, + add, d delete, R reorder",
        "m          measure again on the GPU (it measures by itself after each change)",
        "Tab        move between panels; arrows or hjkl select a lane or scroll",
        "mouse      click a grid cell or a lane to select that lane",
        "? / F1     this help (Esc closes)        q       quit",
        "",
        "Cells show lanes. Red: the bank serves several words in one phase (conflict);",
        "yellow: lanes sharing one word (broadcast); green: the selected lane.",
        "Predicted numbers come from the model; measured ones need a GPU.",
    };
    int n = (int)(sizeof lines / sizeof lines[0]);
    int w = 84, h = n + 2;
    if (w > a->cols)
        w = a->cols;
    layout_rect r = {(a->rows - h) / 2, (a->cols - w) / 2, h, w};
    if (r.y < 0)
        r.y = 0;
    for (int y = r.y; y < r.y + r.h; y++)
        draw_fill(a, y, r.x, r.w, ROLE_NORMAL);
    layout_rect in = panel_frame(a, &r, "help", true);
    for (int i = 0; i < n && i < in.h; i++)
        draw_text(a, in.y + i, in.x + 1, in.w - 1, i < 19 ? ROLE_NORMAL : ROLE_DIM, "%s", lines[i]);
}
