/* hotspot.c — CPU reference of hotspot.cu: STEPS explicit steps of the heat equation on a
 * ROWS x COLS grid (neighbours outside the grid are the cell itself), in double. `temp`
 * holds two grids: after the steps the first is step STEPS, the second step STEPS-1. */
#include "kernels/ref/ref_util.h"

#include <stdlib.h>

typedef struct ws_ref_heat {
    int64_t rows, cols;
    double cap, rx, ry, rz, amb;
} ws_ref_heat;

/* Number constant `name` of the spec: a real literal as written (0.5, 1e-3), else its
 * integer value. */
static int ws_ref_const_real(const ws_spec *s, const char *ref, const char *name, double *out,
                             ws_error *err)
{
    const ws_const *c = ws_spec_const(s, name);
    if (!c)
        return ws_error_set(err, WS_ERR_SPEC, "reference %s needs the number constant %s", ref,
                            name);
    char *end;
    double x = strtod(c->expr, &end);
    while (end != c->expr && (*end == ' ' || *end == '\t'))
        end++;
    if (end != c->expr && *end == '\0')
        *out = x;
    else if (!c->is_string)
        *out = (double)c->ival;
    else
        return ws_error_set(err, WS_ERR_SPEC, "reference %s: constant %s must be a number, not '%s'",
                            ref, name, c->expr);
    return WS_OK;
}

/* One step from `in` to `out`. */
static void ws_ref_heat_step(const ws_ref_heat *h, const float *power, const double *in,
                             double *out)
{
    for (int64_t r = 0; r < h->rows; r++)
        for (int64_t c = 0; c < h->cols; c++) {
            double self = in[r * h->cols + c];
            double north = r > 0 ? in[(r - 1) * h->cols + c] : self;
            double south = r + 1 < h->rows ? in[(r + 1) * h->cols + c] : self;
            double west = c > 0 ? in[r * h->cols + c - 1] : self;
            double east = c + 1 < h->cols ? in[r * h->cols + c + 1] : self;
            double flow = power[r * h->cols + c] + (north + south - 2 * self) * h->ry +
                          (east + west - 2 * self) * h->rx + (h->amb - self) * h->rz;
            out[r * h->cols + c] = self + h->cap * flow;
        }
}

int ws_ref_hotspot(const ws_spec *s, const ws_variant *v, ws_buffers *expect, ws_error *err)
{
    const char *ref = "hotspot";
    ws_ref_heat h;
    int64_t steps;
    float *power, *temp;
    uint64_t npower, ntemp;
    (void)v;
    if (ws_ref_const_int(s, ref, "ROWS", &h.rows, err) ||
        ws_ref_const_int(s, ref, "COLS", &h.cols, err) ||
        ws_ref_const_int(s, ref, "STEPS", &steps, err) ||
        ws_ref_const_real(s, ref, "CAP", &h.cap, err) ||
        ws_ref_const_real(s, ref, "RX", &h.rx, err) ||
        ws_ref_const_real(s, ref, "RY", &h.ry, err) ||
        ws_ref_const_real(s, ref, "RZ", &h.rz, err) ||
        ws_ref_const_real(s, ref, "AMB", &h.amb, err) ||
        ws_ref_buffer(expect, ref, "power", WS_T_F32, (void **)&power, &npower, err) ||
        ws_ref_buffer(expect, ref, "temp", WS_T_F32, (void **)&temp, &ntemp, err))
        return err->code;
    if (h.rows < 1 || h.cols < 1 || steps < 2 || steps % 2 != 0)
        return ws_error_set(err, WS_ERR_SPEC,
                            "reference %s: ROWS and COLS must be >= 1 and STEPS even and >= 2", ref);
    uint64_t cells = (uint64_t)h.rows * (uint64_t)h.cols;
    if (ws_ref_need(ref, "power", npower, cells, err) ||
        ws_ref_need(ref, "temp", ntemp, 2 * cells, err))
        return err->code;
    double *grid = malloc(2 * cells * sizeof *grid);
    if (!grid)
        return ws_error_set(err, WS_ERR_NOMEM, "reference %s: out of memory", ref);
    double *cur = grid, *next = grid + cells;
    for (uint64_t i = 0; i < cells; i++)
        cur[i] = temp[i];
    for (int64_t t = 0; t < steps; t++) {
        ws_ref_heat_step(&h, power, cur, next);
        double *swap = cur;
        cur = next;
        next = swap;
    }
    for (uint64_t i = 0; i < cells; i++) {
        temp[i] = (float)cur[i];          /* step STEPS */
        temp[cells + i] = (float)next[i]; /* step STEPS-1 */
    }
    free(grid);
    return WS_OK;
}
