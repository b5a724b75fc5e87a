/* himeno.c — the Himeno benchmark's Jacobi sweep on the CPU, as himenoBMTxpa.c's jacobi()
 * loop body (single precision): serial, and OpenMP over (i, j) with collapse(2) and a
 * reduction on gosa (seed 001's patterns (5) and (6)). One sweep, no copy back. gosa is
 * accumulated in double (the original sums in float, which drifts by ~1e-4 relative at
 * size S), so the reference is the accurate side of a comparison. */
#include "kernels/ref/ref_util.h"

#define HAT(m, i, j, k) (m)[((size_t)(i) * h->jmax + (size_t)(j)) * h->kmax + (size_t)(k)]

/* One point's ss; writes wrk2 there. */
static float ws_ref_himeno_point(const ws_ref_himeno_grid *h, int i, int j, int k)
{
    const float *p = h->p;
    float s0 = HAT(h->a[0], i, j, k) * HAT(p, i + 1, j, k)
             + HAT(h->a[1], i, j, k) * HAT(p, i, j + 1, k)
             + HAT(h->a[2], i, j, k) * HAT(p, i, j, k + 1)
             + HAT(h->b[0], i, j, k) * (HAT(p, i + 1, j + 1, k) - HAT(p, i + 1, j - 1, k)
                                      - HAT(p, i - 1, j + 1, k) + HAT(p, i - 1, j - 1, k))
             + HAT(h->b[1], i, j, k) * (HAT(p, i, j + 1, k + 1) - HAT(p, i, j - 1, k + 1)
                                      - HAT(p, i, j + 1, k - 1) + HAT(p, i, j - 1, k - 1))
             + HAT(h->b[2], i, j, k) * (HAT(p, i + 1, j, k + 1) - HAT(p, i - 1, j, k + 1)
                                      - HAT(p, i + 1, j, k - 1) + HAT(p, i - 1, j, k - 1))
             + HAT(h->c[0], i, j, k) * HAT(p, i - 1, j, k)
             + HAT(h->c[1], i, j, k) * HAT(p, i, j - 1, k)
             + HAT(h->c[2], i, j, k) * HAT(p, i, j, k - 1)
             + HAT(h->wrk1, i, j, k);
    float ss = (s0 * HAT(h->a[3], i, j, k) - HAT(p, i, j, k)) * HAT(h->bnd, i, j, k);
    HAT(h->wrk2, i, j, k) = HAT(p, i, j, k) + 0.8f * ss;
    return ss;
}

static double ws_ref_himeno_serial(const ws_ref_himeno_grid *h)
{
    double gosa = 0.0;
    for (int i = 1; i < h->imax - 1; i++)
        for (int j = 1; j < h->jmax - 1; j++)
            for (int k = 1; k < h->kmax - 1; k++) {
                float ss = ws_ref_himeno_point(h, i, j, k);
                gosa += (double)(ss * ss);
            }
    return gosa;
}

static double ws_ref_himeno_parallel(const ws_ref_himeno_grid *h)
{
    double gosa = 0.0;
#pragma omp parallel for collapse(2) reduction(+ : gosa) schedule(guided)
    for (int i = 1; i < h->imax - 1; i++)
        for (int j = 1; j < h->jmax - 1; j++)
            for (int k = 1; k < h->kmax - 1; k++) {
                float ss = ws_ref_himeno_point(h, i, j, k);
                gosa += (double)(ss * ss);
            }
    return gosa;
}

float ws_ref_himeno_sweep(const ws_ref_himeno_grid *h, int parallel)
{
    return (float)(parallel ? ws_ref_himeno_parallel(h) : ws_ref_himeno_serial(h));
}
