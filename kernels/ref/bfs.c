/* bfs.c — CPU reference of bfs.cu: breadth-first search with a FIFO queue from node SRC of
 * the padded graph (deg, adj); cost = level (-1 unreachable), visited = reached, and the
 * frontier, updated and over flags all clear at the end. */
#include "kernels/ref/ref_util.h"

#include <stdlib.h>

int ws_ref_bfs(const ws_spec *s, const ws_variant *v, ws_buffers *expect, ws_error *err)
{
    const char *ref = "bfs";
    int64_t n, maxdeg, src;
    int32_t *deg, *adj, *cost, *over;
    uint8_t *frontier, *updated, *visited;
    uint64_t ndeg, nadj, nfront, nupd, nvis, ncost, nover;
    (void)v;
    if (ws_ref_const_int(s, ref, "N", &n, err) || ws_ref_const_int(s, ref, "MAXDEG", &maxdeg, err) ||
        ws_ref_const_int(s, ref, "SRC", &src, err) ||
        ws_ref_buffer(expect, ref, "deg", WS_T_I32, (void **)&deg, &ndeg, err) ||
        ws_ref_buffer(expect, ref, "adj", WS_T_I32, (void **)&adj, &nadj, err) ||
        ws_ref_buffer(expect, ref, "frontier", WS_T_U8, (void **)&frontier, &nfront, err) ||
        ws_ref_buffer(expect, ref, "updated", WS_T_U8, (void **)&updated, &nupd, err) ||
        ws_ref_buffer(expect, ref, "visited", WS_T_U8, (void **)&visited, &nvis, err) ||
        ws_ref_buffer(expect, ref, "cost", WS_T_I32, (void **)&cost, &ncost, err) ||
        ws_ref_buffer(expect, ref, "over", WS_T_I32, (void **)&over, &nover, err))
        return err->code;
    if (n < 1 || maxdeg < 1 || src < 0 || src >= n)
        return ws_error_set(err, WS_ERR_SPEC, "reference %s: needs N, MAXDEG >= 1, 0 <= SRC < N",
                            ref);
    if (ws_ref_need(ref, "deg", ndeg, (uint64_t)n, err) ||
        ws_ref_need(ref, "adj", nadj, (uint64_t)(n * maxdeg), err) ||
        ws_ref_need(ref, "frontier", nfront, (uint64_t)n, err) ||
        ws_ref_need(ref, "updated", nupd, (uint64_t)n, err) ||
        ws_ref_need(ref, "visited", nvis, (uint64_t)n, err) ||
        ws_ref_need(ref, "cost", ncost, (uint64_t)n, err) || ws_ref_need(ref, "over", nover, 1, err))
        return err->code;
    int64_t *queue = malloc((size_t)n * sizeof *queue);
    if (!queue)
        return ws_error_set(err, WS_ERR_NOMEM, "reference %s: out of memory", ref);
    for (int64_t i = 0; i < n; i++)
        cost[i] = -1;
    int64_t head = 0, tail = 0;
    cost[src] = 0;
    queue[tail++] = src;
    while (head < tail) {
        int64_t x = queue[head++];
        if (deg[x] < 0 || deg[x] > maxdeg) {
            free(queue);
            return ws_error_set(err, WS_ERR_SPEC, "reference %s: deg[%lld] = %d outside 0..MAXDEG",
                                ref, (long long)x, deg[x]);
        }
        for (int32_t e = 0; e < deg[x]; e++) {
            int32_t y = adj[x * maxdeg + e];
            if (y < 0 || y >= n) {
                free(queue);
                return ws_error_set(err, WS_ERR_SPEC, "reference %s: edge to node %d outside 0..N-1",
                                    ref, y);
            }
            if (cost[y] < 0) {
                cost[y] = cost[x] + 1;
                queue[tail++] = y;
            }
        }
    }
    free(queue);
    for (int64_t i = 0; i < n; i++) {
        visited[i] = cost[i] >= 0;
        frontier[i] = updated[i] = 0;
    }
    over[0] = 0;
    return WS_OK;
}
