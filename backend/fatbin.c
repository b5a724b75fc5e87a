/* fatbin.c — the host-only reading of CUDA module images as an application hands them to
 * the driver (cuModuleLoadData, cuLibraryLoadData): their size (PTX text, ELF cubin,
 * fatbinary or the runtime's fatbin wrapper) and the PTX texts inside a fatbinary,
 * ZSTD-compressed ones through libzstd loaded at run time. Needs no driver. */
#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>
#include "backend/backend.h"

#define WS_FATBIN_MAGIC 0xBA55ED50u
#define WS_FATBIN_WRAPPER_MAGIC 0x466243B1u
#define WS_FATBIN_KIND_PTX 1
#define WS_ZSTD_MAGIC 0xFD2FB528u

/* The fatbinary header (16 bytes) and the head of each entry's header, as nvcc lays them
 * out (little-endian). */
typedef struct fatbin_header { uint32_t magic; uint16_t version, header_size; uint64_t fat_size; } fatbin_header;
typedef struct fatbin_entry {
    uint16_t kind, version;
    uint32_t header_size;
    uint64_t payload_size;   /* padded */
    uint32_t stored_size;    /* bytes of the payload in use */
} fatbin_entry;

static const uint8_t *unwrap(const void *image)
{
    uint32_t magic;
    memcpy(&magic, image, 4);
    if (magic == WS_FATBIN_WRAPPER_MAGIC) {
        const void *data;
        memcpy(&data, (const uint8_t *)image + 8, sizeof data);
        return data;
    }
    return image;
}

size_t ws_cuda_image_size(const void *image, const char **kind)
{
    const uint8_t *p = unwrap(image);
    uint32_t magic;
    memcpy(&magic, p, 4);
    if (magic == WS_FATBIN_MAGIC) {
        fatbin_header h;
        memcpy(&h, p, sizeof h);
        *kind = "fatbin";
        return h.header_size + h.fat_size;
    }
    if (!memcmp(p, "\177ELF", 4) && p[4] == 2) { /* 64-bit ELF: section headers end it */
        uint64_t shoff;
        uint16_t shentsize, shnum;
        memcpy(&shoff, p + 0x28, 8);
        memcpy(&shentsize, p + 0x3A, 2);
        memcpy(&shnum, p + 0x3C, 2);
        *kind = "cubin";
        return (size_t)(shoff + (uint64_t)shentsize * shnum);
    }
    *kind = "ptx";
    return strlen((const char *)p) + 1;
}

typedef size_t (*zstd_decompress_fn)(void *, size_t, const void *, size_t);
typedef unsigned long long (*zstd_size_fn)(const void *, size_t);
typedef unsigned (*zstd_is_error_fn)(size_t);

/* Decompresses one ZSTD frame into a new string. */
static int unzstd(const uint8_t *src, size_t n, char **out, ws_error *err)
{
    void *lib = dlopen("libzstd.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!lib)
        return ws_error_set(err, WS_ERR_UNSUPPORTED, "the module's PTX is ZSTD-compressed and "
                            "libzstd.so.1 cannot be loaded");
    zstd_decompress_fn dec;
    zstd_size_fn size_of;
    zstd_is_error_fn is_error;
    void *a = dlsym(lib, "ZSTD_decompress"), *b = dlsym(lib, "ZSTD_getFrameContentSize"),
         *c = dlsym(lib, "ZSTD_isError");
    int rc = WS_OK;
    if (!a || !b || !c) {
        rc = ws_error_set(err, WS_ERR_UNSUPPORTED, "libzstd.so.1 lacks ZSTD_decompress");
    } else {
        memcpy(&dec, &a, sizeof a);
        memcpy(&size_of, &b, sizeof b);
        memcpy(&is_error, &c, sizeof c);
        unsigned long long size = size_of(src, n);
        if (size >= (1ull << 32))
            rc = ws_error_set(err, WS_ERR_PTX, "the module's compressed PTX has no usable size");
        else if (!(*out = malloc((size_t)size + 1)))
            rc = ws_error_set(err, WS_ERR_NOMEM, "out of memory decompressing PTX");
        else {
            size_t got = dec(*out, (size_t)size, src, n);
            if (is_error(got)) {
                free(*out);
                *out = NULL;
                rc = ws_error_set(err, WS_ERR_PTX, "the module's compressed PTX does not decompress");
            } else {
                (*out)[got] = '\0';
            }
        }
    }
    dlclose(lib);
    return rc;
}

static int entry_ptx(const uint8_t *payload, const fatbin_entry *e, char **out, ws_error *err)
{
    size_t n = e->stored_size && e->stored_size <= e->payload_size ? e->stored_size : e->payload_size;
    uint32_t magic = 0;
    if (n >= 4)
        memcpy(&magic, payload, 4);
    if (magic == WS_ZSTD_MAGIC)
        return unzstd(payload, n, out, err);
    for (size_t i = 0; i < n && i < 16 && payload[i]; i++)
        if (payload[i] < 9 || (payload[i] > 13 && payload[i] < 32) || payload[i] > 126)
            return ws_error_set(err, WS_ERR_UNSUPPORTED, "the module's PTX is compressed in a form "
                            "warpscope does not read (rebuild with nvcc --no-compress)");
    if (!(*out = malloc(n + 1)))
        return ws_error_set(err, WS_ERR_NOMEM, "out of memory reading PTX");
    memcpy(*out, payload, n);
    (*out)[n] = '\0';
    return WS_OK;
}

int ws_cuda_image_ptx(const void *image, size_t size, char ***ptx, int *n, ws_error *err)
{
    *ptx = NULL;
    *n = 0;
    const char *kind;
    const uint8_t *p = unwrap(image);
    size_t total = ws_cuda_image_size(image, &kind);
    if (total > size)
        return ws_error_set(err, WS_ERR_PTX, "a %s module image of %zu bytes is cut short at %zu",
                            kind, total, size);
    if (!strcmp(kind, "cubin"))
        return WS_OK;
    if (!strcmp(kind, "ptx")) {
        if (!(*ptx = malloc(sizeof **ptx)) || !((*ptx)[0] = strdup((const char *)p))) {
            free(*ptx);
            *ptx = NULL;
            return ws_error_set(err, WS_ERR_NOMEM, "out of memory reading PTX");
        }
        *n = 1;
        return WS_OK;
    }
    fatbin_header h;
    memcpy(&h, p, sizeof h);
    for (size_t off = h.header_size; off + sizeof(fatbin_entry) <= total;) {
        fatbin_entry e;
        memcpy(&e, p + off, sizeof e);
        if (e.header_size < sizeof e || off + e.header_size + e.payload_size > total)
            break;
        char *text = NULL;
        if (e.kind == WS_FATBIN_KIND_PTX) {
            char **grown = NULL;
            if (entry_ptx(p + off + e.header_size, &e, &text, err) != WS_OK ||
                !(grown = realloc(*ptx, (size_t)(*n + 1) * sizeof *grown))) {
                free(text);
                ws_cuda_image_ptx_free(*ptx, *n);
                *ptx = NULL;
                *n = 0;
                return err->code ? (int)err->code
                                 : ws_error_set(err, WS_ERR_NOMEM, "out of memory reading PTX");
            }
            (*ptx = grown)[(*n)++] = text;
        }
        off += e.header_size + e.payload_size;
    }
    return WS_OK;
}

void ws_cuda_image_ptx_free(char **ptx, int n)
{
    for (int i = 0; i < n; i++)
        free(ptx[i]);
    free(ptx);
}

/* The base name of a (possibly mangled) kernel name: "_Z9transform6Params" -> "transform",
 * "_ZN2ns4stepEPi" -> "step". */
static void base_name(const char *kernel, char *buf, size_t n)
{
    const char *p = kernel + 2, *last = NULL;
    size_t last_len = 0;
    if (strncmp(kernel, "_Z", 2) != 0) {
        snprintf(buf, n, "%s", kernel);
        return;
    }
    int nested = *p == 'N';
    p += nested;
    while (*p >= '1' && *p <= '9') {
        char *end;
        unsigned long len = strtoul(p, &end, 10);
        if (strlen(end) < len)
            break;
        last = end;
        last_len = len;
        p = end + len;
        if (!nested)
            break;
    }
    if (last)
        snprintf(buf, n, "%.*s", (int)last_len, last);
    else
        snprintf(buf, n, "%s", kernel);
}

void ws_launch_name(const char *kernel, int64_t index, char *buf, size_t n)
{
    char base[128];
    base_name(kernel, base, sizeof base);
    snprintf(buf, n, "%s#%lld", base, (long long)index);
}

int ws_cuda_find_fatbins(const void *data, size_t size, size_t *offsets, int max)
{
    const uint8_t *p = data;
    int n = 0;
    for (size_t off = 0; off + sizeof(fatbin_header) <= size && n < max; off += 8) {
        fatbin_header h;
        memcpy(&h, p + off, sizeof h);
        if (h.magic != WS_FATBIN_MAGIC || h.version != 1 || h.header_size != sizeof h ||
            h.fat_size > size - off - sizeof h)
            continue;
        offsets[n++] = off;
        off += (sizeof h + h.fat_size) / 8 * 8 - 8;
    }
    return n;
}
