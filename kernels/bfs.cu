// bfs.cu — level-synchronous breadth-first search (after Rodinia's bfs) from node SRC of a
// random directed graph of N nodes, stored padded: node v has deg[v] edges, to
// adj[v*MAXDEG .. v*MAXDEG+deg[v]-1]. One level is two launches: expand the frontier (a
// node on it labels its unvisited neighbours with its cost + 1 and marks them updated),
// then make the updated nodes the next frontier and raise the `over` flag; the host
// repeats both while the flag comes back set. Masks are bool (one byte per node). Variants
// of the expand kernel:
//   thread  bfs_expand: one thread per node; most threads find their node off the
//           frontier, and a frontier node's lanes loop deg[v] times (divergent trips)
//   vwarp   bfs_expand_vwarp: a virtual warp of VWARP lanes per node (Hong et al., PPoPP
//           2011), its lanes striding over the node's edges

#ifndef N
#define N 4096
#endif
#ifndef MAXDEG
#define MAXDEG 16
#endif
#ifndef VWARP
#define VWARP 8 // lanes per node in bfs_expand_vwarp: 1, 2, 4, 8, 16 or 32
#endif

// ---------------------------------------------------------------- a thread per node
__global__ void bfs_expand(const int *deg, const int *adj, const bool *frontier, bool *updated,
                           const bool *visited, int *cost)
{
    int v = blockIdx.x * blockDim.x + threadIdx.x;
    if (v < N && frontier[v]) {
        for (int e = 0; e < deg[v]; e++) {
            int u = adj[v * MAXDEG + e];
            if (!visited[u]) {
                cost[u] = cost[v] + 1;
                updated[u] = true;
            }
        }
    }
}

// ---------------------------------------------------------------- a virtual warp per node
__global__ void bfs_expand_vwarp(const int *deg, const int *adj, const bool *frontier,
                                 bool *updated, const bool *visited, int *cost)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    int v = t / VWARP, lane = t % VWARP;
    if (v < N && frontier[v]) {
        int next = cost[v] + 1;
        for (int e = lane; e < deg[v]; e += VWARP) {
            int u = adj[v * MAXDEG + e];
            if (!visited[u]) {
                cost[u] = next;
                updated[u] = true;
            }
        }
    }
}

// The updated nodes become the frontier (and visited); the others leave it.
__global__ void bfs_update(bool *frontier, bool *updated, bool *visited, int *over)
{
    int v = blockIdx.x * blockDim.x + threadIdx.x;
    if (v < N) {
        bool next = updated[v];
        frontier[v] = next;
        if (next) {
            visited[v] = true;
            updated[v] = false;
            *over = 1;
        }
    }
}
