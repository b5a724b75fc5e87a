/* timing_mem.c — the memory side of the timing model: coalescing of 32 lane addresses into
 * sectors and lines, shared-memory bank conflicts, distinct atomic addresses, and the
 * bounded tables that remember touched sectors and per-address atomic contention. */
#include <stdlib.h>
#include <string.h>
#include "sim/timing_internal.h"

void ws_memset_add(ws_memset *s, uint64_t key)
{
    for (int i = 0; i < s->n; i++)
        if (s->key[i] == key) { s->count[i]++; return; }
    if (s->n < WS_MEMSET_MAX) {
        s->key[s->n] = key;
        s->count[s->n++] = 1;
    }
}

void ws_mem_sectors(const uint64_t *addr, uint32_t mask, int bytes, int sector_bytes,
                    ws_memset *sectors, int *lines, int line_bytes)
{
    sectors->n = 0;
    ws_memset ls;
    ls.n = 0;
    if (bytes < 1) bytes = 1;
    for (uint32_t m = mask; m; m &= m - 1) {
        uint64_t a = addr[__builtin_ctz(m)];
        for (uint64_t s = a / sector_bytes; s <= (a + bytes - 1) / sector_bytes; s++)
            ws_memset_add(sectors, s);
        ws_memset_add(&ls, a / line_bytes);
    }
    *lines = ls.n;
}

/* Write requests a store warp-instruction sends on to the L2 (L1 writes stores through): one
 * for every 4 lines it touches (Nsight Compute's L1 store wavefronts on an H200 are within
 * 10 % of this on 47 of 50 unseen kernels that store, bench/store_requests.py), and a
 * 16-byte-a-lane access goes as four requests of 8 lanes (a full warp's STL.128: 4
 * wavefronts, one a line). A lane's `bytes` start at addr[lane]; with `word_stride` > 0 its
 * 4-byte words lie that far apart instead of side by side (local memory's layout). */
int ws_mem_write_requests_strided(const uint64_t *addr, uint32_t mask, int bytes,
                                  int line_bytes, int word_stride)
{
    const int group = bytes >= 16 ? 8 : 32;
    const int words = bytes >= 4 ? bytes / 4 : 1;
    int n = 0;
    if (bytes < 1) bytes = 1;
    for (int g = 0; g < 32; g += group) {
        uint32_t m = group == 32 ? mask : mask & (((1u << group) - 1) << g);
        if (!m) continue;
        ws_memset ls;
        ls.n = 0;
        for (; m; m &= m - 1) {
            uint64_t a = addr[__builtin_ctz(m)];
            if (word_stride > 0)
                for (int j = 0; j < words; j++)
                    ws_memset_add(&ls, (a + (uint64_t)j * (uint64_t)word_stride) / line_bytes);
            else
                for (uint64_t l = a / line_bytes; l <= (a + bytes - 1) / line_bytes; l++)
                    ws_memset_add(&ls, l);
        }
        n += (ls.n + 3) / 4;
    }
    return n;
}

int ws_mem_write_requests(const uint64_t *addr, uint32_t mask, int bytes, int line_bytes)
{
    return ws_mem_write_requests_strided(addr, mask, bytes, line_bytes, 0);
}

/* The 64-byte beats a store of these sectors takes into the L2: each line's written sectors
 * in twos (bench/calib on an H200: 16 whole lines a cycle, 32 lines of one sector). */
int ws_mem_write_beats(const ws_memset *sectors, int sectors_per_line)
{
    ws_memset lines;
    lines.n = 0;
    for (int i = 0; i < sectors->n; i++)
        ws_memset_add(&lines, sectors->key[i] / (uint64_t)sectors_per_line);
    int beats = 0;
    for (int i = 0; i < lines.n; i++)
        beats += (int)(lines.count[i] + 1) / 2;
    return beats;
}

int ws_mem_shared_wavefronts(const uint64_t *addr, uint32_t mask, int bytes, int banks,
                             int bank_bytes)
{
    ws_memset words;
    words.n = 0;
    if (bytes < bank_bytes) bytes = bank_bytes;
    for (uint32_t m = mask; m; m &= m - 1) {
        uint64_t a = addr[__builtin_ctz(m)] / bank_bytes;
        for (int k = 0; k < bytes / bank_bytes; k++)
            ws_memset_add(&words, a + k);
    }
    if (words.n == 0) return 0;
    int per_bank[64] = { 0 }, worst = 0;
    if (banks > 64) banks = 64;
    for (int i = 0; i < words.n; i++) {
        int b = (int)(words.key[i] % (uint64_t)banks);
        if (++per_bank[b] > worst) worst = per_bank[b];
    }
    /* Wide accesses are served a bank-width of lanes at a time even without conflicts. */
    int min_waves = (int)((words.n + banks - 1) / banks);
    return worst > min_waves ? worst : min_waves;
}

void ws_mem_atomic_addrs(const uint64_t *addr, uint32_t mask, ws_memset *addrs)
{
    addrs->n = 0;
    for (uint32_t m = mask; m; m &= m - 1)
        ws_memset_add(addrs, addr[__builtin_ctz(m)]);
}

/* ------------------------------------------------------------------ atomic address table */

int ws_addr_table_init(ws_addr_table *t, int cap)
{
    memset(t, 0, sizeof *t);
    t->e = calloc((size_t)cap, sizeof *t->e);
    if (!t->e) return WS_ERR_NOMEM;
    t->cap = cap;
    for (int i = 0; i < cap; i++) t->e[i].addr = UINT64_MAX;
    return 0;
}

/* The entry of `addr`, made (zero) if `make` and there is room; NULL otherwise (a full
 * table counts a new address it could not make in `overflow`). */
static ws_addr_entry *probe(ws_addr_table *t, uint64_t addr, int make)
{
    uint64_t h = (addr * 0x9E3779B97F4A7C15ull) >> 17;
    for (int k = 0; k < t->cap; k++) {
        ws_addr_entry *e = &t->e[(h + (uint64_t)k) & (uint64_t)(t->cap - 1)];
        if (e->addr == addr) return e;
        if (e->addr == UINT64_MAX) {
            if (!make) return NULL;
            if (t->n >= t->cap * 3 / 4) break;
            *e = (ws_addr_entry){ .addr = addr };
            t->n++;
            return e;
        }
    }
    if (make) t->overflow++;
    return NULL;
}

ws_addr_entry *ws_addr_table_at(ws_addr_table *t, uint64_t addr) { return probe(t, addr, 1); }

ws_addr_entry *ws_addr_table_find(ws_addr_table *t, uint64_t addr) { return probe(t, addr, 0); }

int ws_addr_table_add(ws_addr_table *t, uint64_t addr, double ops, double service, double cas)
{
    ws_addr_entry *e = ws_addr_table_at(t, addr);
    if (!e) return -1;
    e->ops += ops;
    e->service += service;
    e->cas += cas;
    return 0;
}

void ws_addr_table_free(ws_addr_table *t) { free(t->e); t->e = NULL; }

/* ------------------------------------------------------------------ touched sectors */

int ws_touch_init(ws_touch_set *s, int log2_bits)
{
    s->nbits = 1ull << log2_bits;
    s->bits = calloc(s->nbits / 64, sizeof(uint64_t));
    return s->bits ? 0 : WS_ERR_NOMEM;
}

int ws_touch_first(ws_touch_set *s, uint64_t sector)
{
    uint64_t h = (sector * 0x9E3779B97F4A7C15ull) ^ (sector >> 29);
    h &= s->nbits - 1;
    uint64_t bit = 1ull << (h & 63), *w = &s->bits[h >> 6];
    if (*w & bit) return 0;
    *w |= bit;
    return 1;
}

void ws_touch_free(ws_touch_set *s) { free(s->bits); s->bits = NULL; }
