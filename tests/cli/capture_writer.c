/* capture_writer.c — writes a capture file as `warpscope capture -- inject_app` would,
 * without a GPU: the app's PTX (nvcc), its three kernels' launches with their parameter
 * blocks laid out as the driver gives them, and memory before/after from a CPU reference
 * of the kernels; plus one cooperative launch reported, not captured. --corrupt flips one
 * byte of launch 1's memory after, so a replay must report the difference. With
 * --executable APP the modules are APP's fatbinaries with the PTX read from them, as
 * `warpscope capture` adds them (APP.ptx then only names the kernels).
 * --short-params cuts launch 0's parameter block to 12 bytes; --no-ptx keeps the module
 * without its PTX.
 * usage: capture_writer APP.ptx OUT.capture [--corrupt | --short-params | --no-ptx |
 *                                            --executable APP] */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend/backend.h"
#include "store/store.h"

#define N 1000
#define NBINS 64
#define THREADS 128
#define DATA_ADDR 0x7f3a00200000ull
/* the bins right after the data, as cudaMalloc often places them: the histogram's bins
   pointer is also one past the end of the data */
#define BINS_ADDR (DATA_ADDR + N * sizeof(int))

static void put(uint8_t *p, size_t off, const void *v, size_t n) { memcpy(p + off, v, n); }

static void cpu_fill(int *a, int n, unsigned seed)
{
    for (int i = 0; i < n; i++)
        a[i] = (int)(((unsigned)i * 2654435761u ^ seed) % 1000u);
}

static void cpu_transform(int *a, int n, int scale, unsigned mask)
{
    for (int i = 0; i < n; i++) {
        int v = a[i];
        if (v & 1)
            for (int k = 0; k < (v & 7); k++)
                v = (v * scale + k) & (int)mask;
        else
            v = v / 2 + 3;
        a[i] = v;
    }
}

static void cpu_histogram(const int *a, int n, unsigned *bins, int nbins)
{
    for (int i = 0; i < n; i++)
        bins[(unsigned)a[i] % (unsigned)nbins]++;
}

static const char *entry(ws_ptx_entry *e, int n, const char *c_name)
{
    for (int i = 0; i < n; i++)
        if (ws_kernel_name_matches(c_name, e[i].name))
            return e[i].name;
    fprintf(stderr, "capture_writer: no kernel %s in the PTX\n", c_name);
    exit(1);
}

static void launch(ws_capture *c, int64_t index, const char *kernel, const uint8_t *params,
                   size_t np, ws_capture_region *regions, int nregions)
{
    ws_capture_launch l;
    ws_error err;
    ws_error_clear(&err);
    memset(&l, 0, sizeof l);
    l.index = index;
    snprintf(l.kernel, sizeof l.kernel, "%s", kernel);
    snprintf(l.api, sizeof l.api, "cuLaunchKernel");
    l.grid[0] = (N + THREADS - 1) / THREADS;
    l.grid[1] = l.grid[2] = 1;
    l.block[0] = THREADS;
    l.block[1] = l.block[2] = 1;
    l.params = (uint8_t *)params;
    l.param_bytes = np;
    l.regions = regions;
    l.nregions = nregions;
    if (ws_capture_add_launch(c, &l, &err) != WS_OK) {
        fprintf(stderr, "capture_writer: %s\n", err.msg);
        exit(1);
    }
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: capture_writer APP.ptx OUT.capture [--corrupt]\n");
        return 2;
    }
    int corrupt = argc > 3 && !strcmp(argv[3], "--corrupt");
    int short_params = argc > 3 && !strcmp(argv[3], "--short-params");
    int no_ptx = argc > 3 && !strcmp(argv[3], "--no-ptx");
    const char *exe = argc > 4 && !strcmp(argv[3], "--executable") ? argv[4] : NULL;
    ws_error err;
    ws_error_clear(&err);
    char *ptx;
    size_t len;
    ws_ptx_entry *entries;
    int nentries;
    ws_capture *c;
    if (ws_read_file(argv[1], &ptx, &len, &err) || ws_ptx_scan_entries(ptx, &entries, &nentries, &err) ||
        ws_capture_create(argv[2], &c, &err)) {
        fprintf(stderr, "capture_writer: %s\n", err.msg);
        return 1;
    }
    int64_t module;
    ws_capture_set_meta(c, "app", "inject_app", &err);
    if (!exe)
        ws_capture_add_module(c, no_ptx ? "cubin" : "ptx", ptx, len + 1, no_ptx ? NULL : ptx,
                              &module, &err);
    else { /* the fatbinaries of the executable, as `warpscope capture` adds them */
        char *bin;
        size_t size, off[16];
        if (ws_read_file(exe, &bin, &size, &err)) {
            fprintf(stderr, "capture_writer: %s\n", err.msg);
            return 1;
        }
        int nfat = ws_cuda_find_fatbins(bin, size, off, 16);
        for (int i = 0; i < nfat; i++) {
            const char *kind;
            char **texts;
            int ntexts;
            size_t n = ws_cuda_image_size(bin + off[i], &kind);
            if (ws_cuda_image_ptx(bin + off[i], n, &texts, &ntexts, &err) == WS_OK)
                ws_capture_add_module(c, kind, bin + off[i], n, ntexts ? texts[0] : NULL, &module, &err);
            ws_cuda_image_ptx_free(texts, ntexts);
        }
        free(bin);
    }

    static int data0[N], data1[N], data2[N];
    static unsigned bins0[NBINS], bins1[NBINS];
    uint64_t data = DATA_ADDR, bins = BINS_ADDR;
    memset(data0, 0xab, sizeof data0);           /* cudaMalloc'd, never written yet */
    memcpy(data1, data0, sizeof data1);
    cpu_fill(data1, N, 0x5eedu);
    uint8_t p0[16] = {0};                        /* fill(int *a, int n, unsigned seed) */
    int n = N, scale = 3, nbins = NBINS;
    unsigned seed = 0x5eedu, mask = 0xffffu;
    put(p0, 0, &data, 8), put(p0, 8, &n, 4), put(p0, 12, &seed, 4);
    ws_capture_region r0 = {DATA_ADDR, sizeof data0, (uint8_t *)data0, (uint8_t *)data1};
    launch(c, 0, entry(entries, nentries, "fill"), p0, short_params ? 12 : sizeof p0, &r0, 1);

    memcpy(data2, data1, sizeof data2);          /* transform(Params{data, n, scale, mask}) */
    cpu_transform(data2, N, scale, mask);
    uint8_t p1[24] = {0};
    put(p1, 0, &data, 8), put(p1, 8, &n, 4), put(p1, 12, &scale, 4), put(p1, 16, &mask, 4);
    static int data2_seen[N];
    memcpy(data2_seen, data2, sizeof data2_seen);
    if (corrupt)
        ((uint8_t *)data2_seen)[4 * 7 + 1] ^= 0x40;
    ws_capture_region r1 = {DATA_ADDR, sizeof data1, (uint8_t *)data1, (uint8_t *)data2_seen};
    launch(c, 1, entry(entries, nentries, "transform"), p1, sizeof p1, &r1, 1);

    memset(bins0, 0, sizeof bins0);              /* histogram(data, n, bins, nbins) */
    memcpy(bins1, bins0, sizeof bins1);
    cpu_histogram(data2, N, bins1, NBINS);
    uint8_t p2[28] = {0};
    put(p2, 0, &data, 8), put(p2, 8, &n, 4), put(p2, 16, &bins, 8), put(p2, 24, &nbins, 4);
    ws_capture_region r2[2] = {{DATA_ADDR, sizeof data2, (uint8_t *)data2, (uint8_t *)data2},
                               {BINS_ADDR, sizeof bins0, (uint8_t *)bins0, (uint8_t *)bins1}};
    launch(c, 2, entry(entries, nentries, "histogram"), p2, sizeof p2, r2, 2);

    static int data4[N];                         /* note(data, n): printf, then +1 */
    for (int i = 0; i < N; i++)
        data4[i] = data2[i] + 1;
    uint8_t p4[16] = {0};
    put(p4, 0, &data, 8), put(p4, 8, &n, 4);
    ws_capture_region r4 = {DATA_ADDR, sizeof data2, (uint8_t *)data2, (uint8_t *)data4};
    launch(c, 4, entry(entries, nentries, "note"), p4, 12, &r4, 1);

    ws_capture_launch coop;                      /* reported by name, not captured */
    memset(&coop, 0, sizeof coop);
    coop.index = 3;
    snprintf(coop.kernel, sizeof coop.kernel, "%s", entry(entries, nentries, "histogram"));
    snprintf(coop.api, sizeof coop.api, "cuLaunchCooperativeKernel");
    snprintf(coop.status, sizeof coop.status, "cooperative launches are not captured");
    if (ws_capture_add_launch(c, &coop, &err) != WS_OK) {
        fprintf(stderr, "capture_writer: %s\n", err.msg);
        return 1;
    }
    ws_capture_close(c);
    free(entries);
    free(ptx);
    return 0;
}
