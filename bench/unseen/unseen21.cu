// unseen21.cu — a twenty-first set of kernels written as a new user would, before its first
// GPU run: decoders and graph steps, where each lane's trip count comes from its data.
// LEB128 varints, a prefix-code (Huffman-like) decoder walking a tree in constant memory,
// an LZ77 longest-match search, Smith-Waterman scoring a block a pair of sequences along
// anti-diagonals in shared memory, unpacking values of a per-block bit width, Bellman-Ford
// relaxation with atomicMin until nothing changes, a PageRank push with float atomics, and
// connected components by union-find with hooking through atomicCAS.
// bench/unseen/unseen21.spec launches them; docs/results/unseen-kernels-h200.txt has what an
// H200 and the model gave. Every checked output is deterministic (pagerank's up to the
// order of its float additions; the spec checks it with a tolerance).

// Each thread decodes up to 12 unsigned LEB128 varints from its own 48 bytes and keeps
// their sum; a varint cut off by the segment's end counts as far as it got.
extern "C" __global__ void varint_decode(const unsigned char *in, unsigned *out, int n)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= n)
        return;
    const unsigned char *p = in + (size_t)t * 48;
    unsigned sum = 0;
    int pos = 0;
    for (int count = 0; count < 12 && pos < 48; count++) {
        unsigned v = 0, b;
        int shift = 0;
        do {
            b = p[pos++];
            v |= (b & 0x7fu) << shift;
            shift += 7;
        } while ((b & 0x80u) && pos < 48 && shift < 35);
        sum += v * (unsigned)(count + 1);
    }
    out[t] = sum;
}

// A prefix code over 10 symbols: node k's children for bit 0 and 1 at [2k] and [2k+1]; a
// negative entry is the leaf -1-symbol. Codes of 2 to 6 bits.
__constant__ int code_tree[18] = {
    1, 2,        // root
    -1, 3,       // 0: '00' -> 0,  '01' -> node 3
    4, 5,        // 1: node 4, node 5
    -2, -3,      // 3: '010' -> 1, '011' -> 2
    -4, 6,       // 4: '100' -> 3, '101' -> node 6
    7, 8,        // 5: node 7, node 8
    -5, -6,      // 6: '1010' -> 4, '1011' -> 5
    -7, -8,      // 7: '1100' -> 6, '1101' -> 7
    -9, -10,     // 8: '1110' -> 8, '1111' -> 9
};

// Each thread decodes its 64 bits, low bit first, until 20 symbols or the bits run out, and
// keeps a position-weighted sum of the symbols and their count.
extern "C" __global__ void huff_decode(const unsigned *bits, int *out, int n)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= n)
        return;
    unsigned long long w = ((unsigned long long)bits[2 * t + 1] << 32) | bits[2 * t];
    int used = 0, syms = 0, acc = 0;
    while (syms < 20) {
        int node = 0, start = used;
        while (node >= 0 && used < 64) {
            node = code_tree[2 * node + (int)((w >> used) & 1)];
            used++;
        }
        if (node >= 0) { // the bits ran out inside a code
            used = start;
            break;
        }
        acc += (-1 - node) * (syms + 1);
        syms++;
    }
    out[t] = acc * 64 + syms;
}

// For every position, the longest match (up to 16 symbols) starting in the 32 positions
// before it, as an LZ77 compressor looks for one; ties go to the nearest. out = len*64+dist.
extern "C" __global__ void lz_match(const unsigned char *text, int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    int best = 0, dist = 0;
    for (int j = i - 1; j >= 0 && j >= i - 32; j--) {
        int len = 0;
        while (len < 16 && i + len < n && text[j + len] == text[i + len])
            len++;
        if (len > best) {
            best = len;
            dist = i - j;
            if (best == 16)
                break;
        }
    }
    out[i] = best * 64 + dist;
}

#define SW_LEN 64

// Smith-Waterman local alignment score of sequence pair blockIdx.x (64 letters each, match
// +3, mismatch -1, gap -2): thread r fills row r+1 of the score matrix, one anti-diagonal
// a step, the matrix in shared memory.
extern "C" __global__ void sw_antidiag(const unsigned char *a, const unsigned char *b, int *score)
{
    __shared__ short h[SW_LEN + 1][SW_LEN + 1];
    __shared__ int best;
    int r = threadIdx.x;
    const unsigned char *sa = a + (size_t)blockIdx.x * SW_LEN, *sb = b + (size_t)blockIdx.x * SW_LEN;
    for (int k = r; k < (SW_LEN + 1) * (SW_LEN + 1); k += blockDim.x)
        h[k / (SW_LEN + 1)][k % (SW_LEN + 1)] = 0;
    if (r == 0)
        best = 0;
    __syncthreads();
    unsigned char ca = sa[r];
    int mine = 0;
    for (int d = 0; d < 2 * SW_LEN - 1; d++) {
        int c = d - r;
        if (c >= 0 && c < SW_LEN) {
            int diag = h[r][c] + (ca == sb[c] ? 3 : -1);
            int up = h[r][c + 1] - 2, left = h[r + 1][c] - 2;
            int v = max(max(diag, 0), max(up, left));
            h[r + 1][c + 1] = (short)v;
            mine = max(mine, v);
        }
        __syncthreads();
    }
    atomicMax(&best, mine);
    __syncthreads();
    if (r == 0)
        score[blockIdx.x] = best;
}

// Values packed at a bit width chosen per block of 128 (1 to 17 bits, from widths[]), each
// block's 68 words starting at block * 68: thread t unpacks value t; a value may straddle two
// words. Each value is then scaled by its block's width and accumulated into a per-width
// histogram of the values' top bits.
extern "C" __global__ void bitpack_unpack(const unsigned *words, const int *widths, unsigned *out,
                                          int *tops, int n)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= n)
        return;
    int blk = t / 128, k = t % 128;
    int wd = widths[blk] % 17 + 1;
    const unsigned *base = words + (size_t)blk * 68;
    int bit = k * wd, wi = bit >> 5, off = bit & 31;
    unsigned v = base[wi] >> off;
    if (off + wd > 32)
        v |= base[wi + 1] << (32 - off);
    v &= (1u << wd) - 1u;
    out[t] = v;
    if (v >> (wd - 1))
        atomicAdd(&tops[wd], 1);
}

// One Bellman-Ford round over a graph whose vertex u has deg[u] (0..MAXD) out-edges at
// adj[u*maxd + k] with weights wt[...]: dist is read, nxt takes the minimum by atomicMin.
extern "C" __global__ void sssp_relax(const int *deg, const int *adj, const int *wt,
                                      const int *dist, int *nxt, int nv, int maxd)
{
    int u = blockIdx.x * blockDim.x + threadIdx.x;
    if (u >= nv)
        return;
    int du = dist[u];
    if (du >= 1000000000)
        return;
    for (int k = 0; k < deg[u]; k++) {
        int v = adj[u * maxd + k], nd = du + wt[u * maxd + k];
        if (nd < nxt[v])
            atomicMin(&nxt[v], nd);
    }
}

// Ends a round: dist takes nxt, and a vertex whose distance fell sets the flag.
extern "C" __global__ void sssp_commit(int *dist, const int *nxt, int *changed, int nv)
{
    int v = blockIdx.x * blockDim.x + threadIdx.x;
    if (v < nv && nxt[v] < dist[v]) {
        dist[v] = nxt[v];
        *changed = 1;
    }
}

// One PageRank push step: every vertex with edges sends 0.85 * rank / deg to each
// neighbour by atomicAdd; a vertex without edges sends its share to vertex 0.
extern "C" __global__ void pagerank_push(const int *deg, const int *adj, const float *rank,
                                         float *next, int nv, int maxd)
{
    int u = blockIdx.x * blockDim.x + threadIdx.x;
    if (u >= nv)
        return;
    int du = deg[u];
    if (du == 0) {
        atomicAdd(&next[0], 0.85f * rank[u]);
        return;
    }
    float share = 0.85f * rank[u] / (float)du;
    for (int k = 0; k < du; k++)
        atomicAdd(&next[adj[u * maxd + k]], share);
}

__device__ int uf_find(int *parent, int x)
{
    while (true) {
        int p = parent[x];
        if (p == x)
            return x;
        int gp = parent[p];
        if (gp != p)
            parent[x] = gp; // path halving
        x = p;
    }
}

// Union-find hooking: edge e joins its ends' roots, the larger root under the smaller.
extern "C" __global__ void uf_hook(const int *eu, const int *ev, int *parent, int ne)
{
    int e = blockIdx.x * blockDim.x + threadIdx.x;
    if (e >= ne)
        return;
    int u = eu[e], v = ev[e];
    while (true) {
        int ru = uf_find(parent, u), rv = uf_find(parent, v);
        if (ru == rv)
            break;
        int hi = max(ru, rv), lo = min(ru, rv);
        if (atomicCAS(&parent[hi], hi, lo) == hi)
            break;
    }
}

// Each vertex's label: its root, the smallest vertex of its component.
extern "C" __global__ void uf_label(int *parent, int *label, int nv)
{
    int v = blockIdx.x * blockDim.x + threadIdx.x;
    if (v < nv)
        label[v] = uf_find(parent, v);
}
