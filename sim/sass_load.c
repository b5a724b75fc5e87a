/* sass_load.c — what the SASS text does not say, read from the cubin (an ELF file, with
 * libelf): per kernel its parameter area (.nv.info.<k> EIATTR_PARAM_CBANK), constant
 * banks (.nv.constant0/2.<k>, the module's .nv.constant3/4) and the addresses relocated
 * into them, static shared memory (.nv.shared.<k>), registers and stack (.nv.info
 * EIATTR_REGCOUNT / FRAME_SIZE / MIN_STACK_SIZE / MAX_STACK_SIZE); and the module's
 * __device__ and __constant__ variables. */
#include "sim/sass_ir.h"

#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* .nv.info entries: [format u8][attribute u8][value]. Formats: */
enum { WS_EIFMT_NVAL = 1, WS_EIFMT_BVAL = 2, WS_EIFMT_HVAL = 3, WS_EIFMT_SVAL = 4 };
/* Attributes this reader uses (the others are skipped by their format). */
enum {
    WS_EIATTR_PARAM_CBANK = 0x0a,     /* SVAL: bank-0 section symbol u32, offset u16, size u16 */
    WS_EIATTR_FRAME_SIZE = 0x11,      /* SVAL: function symbol u32, bytes u32 */
    WS_EIATTR_MIN_STACK_SIZE = 0x12,
    WS_EIATTR_CBANK_PARAM_SIZE = 0x19,/* HVAL: parameter bytes */
    WS_EIATTR_CRS_STACK_SIZE = 0x1e,  /* SVAL: bytes u32 */
    WS_EIATTR_MAX_STACK_SIZE = 0x23,
    WS_EIATTR_REGCOUNT = 0x2f,        /* SVAL: function symbol u32, registers u32 */
    WS_EIATTR_CTA_PER_CLUSTER = 0x3d, /* SVAL: the cluster's shape, 3 x u32 (__cluster_dims__) */
    WS_EIATTR_EXPLICIT_CLUSTER = 0x3e /* NVAL: launched in clusters only */
};
/* Relocation types in constant banks. */
enum { WS_R_CUDA_32 = 1, WS_R_CUDA_64 = 2 };

typedef struct ws_cubin {
    const char *path;
    ws_error *err;
    Elf *elf;
    size_t nsyms;
    GElf_Sym *syms;
    char **symnames;          /* borrowed from libelf */
} ws_cubin;

static int ws_bad(ws_cubin *c, const char *what, const char *name)
{
    return ws_error_at(c->err, WS_ERR_PTX, c->path, 0, "malformed cubin: %s%s%s", what,
                       name ? " " : "", name ? name : "");
}

static uint32_t ws_le32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static uint16_t ws_le16(const uint8_t *p)
{
    return (uint16_t)(p[0] | p[1] << 8);
}

static const char *ws_scn_name(ws_cubin *c, Elf_Scn *scn, GElf_Shdr *sh)
{
    size_t shstrndx;
    if (!gelf_getshdr(scn, sh) || elf_getshdrstrndx(c->elf, &shstrndx) != 0)
        return NULL;
    return elf_strptr(c->elf, shstrndx, sh->sh_name);
}

static Elf_Scn *ws_scn_find(ws_cubin *c, const char *name, GElf_Shdr *sh)
{
    for (Elf_Scn *scn = elf_nextscn(c->elf, NULL); scn; scn = elf_nextscn(c->elf, scn)) {
        const char *n = ws_scn_name(c, scn, sh);
        if (n && strcmp(n, name) == 0)
            return scn;
    }
    return NULL;
}

static int ws_symbols(ws_cubin *c)
{
    GElf_Shdr sh;
    for (Elf_Scn *scn = elf_nextscn(c->elf, NULL); scn; scn = elf_nextscn(c->elf, scn)) {
        if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_SYMTAB)
            continue;
        Elf_Data *d = elf_getdata(scn, NULL);
        if (!d || !sh.sh_entsize)
            return ws_bad(c, "unreadable .symtab", NULL);
        c->nsyms = sh.sh_size / sh.sh_entsize;
        c->syms = calloc(c->nsyms ? c->nsyms : 1, sizeof *c->syms);
        c->symnames = calloc(c->nsyms ? c->nsyms : 1, sizeof *c->symnames);
        if (!c->syms || !c->symnames)
            return ws_error_set(c->err, WS_ERR_NOMEM, "out of memory reading %s", c->path);
        for (size_t i = 0; i < c->nsyms; i++) {
            if (!gelf_getsym(d, (int)i, &c->syms[i]))
                return ws_bad(c, "unreadable symbol", NULL);
            c->symnames[i] = elf_strptr(c->elf, sh.sh_link, c->syms[i].st_name);
            if (!c->symnames[i])
                c->symnames[i] = "";
        }
        return WS_OK;
    }
    return ws_bad(c, "no .symtab", NULL);
}

/* A symbol's name, or its section's name for a section symbol. */
static const char *ws_sym_name(ws_cubin *c, size_t i)
{
    if (i >= c->nsyms)
        return NULL;
    if (GELF_ST_TYPE(c->syms[i].st_info) == STT_SECTION) {
        GElf_Shdr sh;
        Elf_Scn *scn = elf_getscn(c->elf, c->syms[i].st_shndx);
        const char *n = scn ? ws_scn_name(c, scn, &sh) : NULL;
        return n ? n : "";
    }
    return c->symnames[i];
}

/* ---------------------------------------------------------------- .nv.info */

typedef int (*ws_info_fn)(ws_cubin *c, int attr, const uint8_t *val, size_t n, void *ctx);

/* Walks one .nv.info section; SVAL values come with their size, HVAL as 2 bytes. */
static int ws_info_walk(ws_cubin *c, Elf_Scn *scn, const char *name, ws_info_fn fn, void *ctx)
{
    Elf_Data *d = elf_getdata(scn, NULL);
    const uint8_t *p = d ? d->d_buf : NULL, *end = p ? p + d->d_size : NULL;
    if (!p)
        return WS_OK;
    while (p + 4 <= end) {
        int fmt = p[0], attr = p[1];
        size_t n = fmt == WS_EIFMT_SVAL ? ws_le16(p + 2) : 2;
        if (fmt < WS_EIFMT_NVAL || fmt > WS_EIFMT_SVAL ||
            (fmt == WS_EIFMT_SVAL && (size_t)(end - p - 4) < n))
            return ws_bad(c, "bad entry in", name);
        const uint8_t *val = fmt == WS_EIFMT_SVAL ? p + 4 : p + 2;
        int rc = fn(c, attr, fmt == WS_EIFMT_NVAL ? NULL : val, fmt == WS_EIFMT_NVAL ? 0 : n,
                    ctx);
        if (rc != WS_OK)
            return rc;
        p += fmt == WS_EIFMT_SVAL ? 4 + n : 4;
    }
    return p == end ? WS_OK : ws_bad(c, "truncated", name);
}

/* The module's .nv.info: registers and stack sizes keyed by function symbol. */
static int ws_info_global(ws_cubin *c, int attr, const uint8_t *val, size_t n, void *ctx)
{
    ws_sass_module *m = ctx;
    if (attr != WS_EIATTR_REGCOUNT && attr != WS_EIATTR_FRAME_SIZE &&
        attr != WS_EIATTR_MIN_STACK_SIZE && attr != WS_EIATTR_MAX_STACK_SIZE)
        return WS_OK;
    if (n != 8)
        return ws_bad(c, "bad register or stack entry in", ".nv.info");
    const char *fn = ws_sym_name(c, ws_le32(val));
    ws_sass_kernel *k = fn ? ws_sass_kernel_find(m, fn) : NULL;
    uint32_t v = ws_le32(val + 4);
    if (!k)
        return WS_OK;   /* a device function's own entry */
    if (attr == WS_EIATTR_REGCOUNT)
        k->regs = (int)v;
    else if (v > k->frame_bytes)
        k->frame_bytes = v;
    return WS_OK;
}

/* .nv.info.<kernel>: the parameter area. */
static int ws_info_kernel(ws_cubin *c, int attr, const uint8_t *val, size_t n, void *ctx)
{
    ws_sass_kernel *k = ctx;
    if (attr == WS_EIATTR_PARAM_CBANK) {
        if (n != 8)
            return ws_bad(c, "bad EIATTR_PARAM_CBANK for", k->name);
        k->param_base = ws_le16(val + 4);
        k->param_size = ws_le16(val + 6);
    } else if (attr == WS_EIATTR_CBANK_PARAM_SIZE && !k->param_size) {
        k->param_size = ws_le16(val);
    } else if (attr == WS_EIATTR_CRS_STACK_SIZE && n == 4 && ws_le32(val) > k->frame_bytes) {
        k->frame_bytes = ws_le32(val);
    } else if (attr == WS_EIATTR_CTA_PER_CLUSTER && n == 12) {
        k->cluster_ctas = ws_le32(val) * ws_le32(val + 4) * ws_le32(val + 8);
    } else if (attr == WS_EIATTR_EXPLICIT_CLUSTER && !k->cluster_ctas) {
        k->cluster_ctas = -1;
    }
    return WS_OK;
}

/* ---------------------------------------------------------------- banks and relocations */

/* ".nv.constantN" (module) or ".nv.constantN.<kernel>": N, or -1. */
static int ws_bank_of(const char *name, const char *kernel)
{
    if (strncmp(name, ".nv.constant", 12) != 0)
        return -1;
    char *end;
    long b = strtol(name + 12, &end, 10);
    if (end == name + 12 || b < 0 || b > 17)
        return -1;
    if (*end == '\0')
        return (int)b;
    return kernel && *end == '.' && strcmp(end + 1, kernel) == 0 ? (int)b : -1;
}

static int ws_add_bank(ws_cubin *c, ws_sass_kernel *k, int bank, Elf_Scn *scn,
                       const GElf_Shdr *sh)
{
    ws_sass_cbank *nb = realloc(k->cbanks, (size_t)(k->ncbanks + 1) * sizeof *nb);
    if (!nb)
        return ws_error_set(c->err, WS_ERR_NOMEM, "out of memory reading %s", c->path);
    k->cbanks = nb;
    ws_sass_cbank *b = &k->cbanks[k->ncbanks];
    b->bank = bank;
    b->size = (uint32_t)sh->sh_size;
    b->data = calloc(sh->sh_size ? sh->sh_size : 1, 1);
    if (!b->data)
        return ws_error_set(c->err, WS_ERR_NOMEM, "out of memory reading %s", c->path);
    k->ncbanks++;
    Elf_Data *d = sh->sh_type == SHT_NOBITS ? NULL : elf_getdata(scn, NULL);
    if (d && d->d_buf && d->d_size <= sh->sh_size)
        memcpy(b->data, d->d_buf, d->d_size);
    return WS_OK;
}

static int ws_add_relocs(ws_cubin *c, ws_sass_kernel *k, int bank, Elf_Scn *rscn,
                         const GElf_Shdr *rsh, const char *name)
{
    Elf_Data *d = elf_getdata(rscn, NULL);
    size_t n = rsh->sh_entsize ? rsh->sh_size / rsh->sh_entsize : 0;
    for (size_t i = 0; d && i < n; i++) {
        GElf_Rela r;
        GElf_Rel rel;
        if (rsh->sh_type == SHT_RELA ? !gelf_getrela(d, (int)i, &r)
                                     : !gelf_getrel(d, (int)i, &rel))
            return ws_bad(c, "unreadable relocation in", name);
        if (rsh->sh_type == SHT_REL) {
            r.r_offset = rel.r_offset;
            r.r_info = rel.r_info;
            r.r_addend = 0;
        }
        int type = (int)GELF_R_TYPE(r.r_info);
        const char *sym = ws_sym_name(c, GELF_R_SYM(r.r_info));
        if (type != WS_R_CUDA_32 && type != WS_R_CUDA_64)
            return ws_error_at(c->err, WS_ERR_UNSUPPORTED, c->path, 0, "unsupported relocation "
                               "type %d in %s (symbol %s)", type, name, sym ? sym : "?");
        if (!sym)
            return ws_bad(c, "relocation against a missing symbol in", name);
        ws_sass_creloc *nr = realloc(k->relocs, (size_t)(k->nrelocs + 1) * sizeof *nr);
        if (!nr)
            return ws_error_set(c->err, WS_ERR_NOMEM, "out of memory reading %s", c->path);
        k->relocs = nr;
        ws_sass_creloc *cr = &k->relocs[k->nrelocs++];
        memset(cr, 0, sizeof *cr);
        cr->bank = bank;
        cr->offset = (uint32_t)r.r_offset;
        snprintf(cr->sym, sizeof cr->sym, "%s", sym);
        cr->addend = r.r_addend;
        cr->bits = type == WS_R_CUDA_64 ? 64 : 32;
    }
    return WS_OK;
}

/* Every bank kernel k reads, with the relocations that target it. */
static int ws_banks(ws_cubin *c, ws_sass_kernel *k)
{
    GElf_Shdr sh, rsh;
    for (Elf_Scn *scn = elf_nextscn(c->elf, NULL); scn; scn = elf_nextscn(c->elf, scn)) {
        const char *name = ws_scn_name(c, scn, &sh);
        int bank = name ? ws_bank_of(name, k->name) : -1;
        if (bank < 0)
            continue;
        int rc = ws_add_bank(c, k, bank, scn, &sh);
        size_t idx = elf_ndxscn(scn);
        for (Elf_Scn *r = elf_nextscn(c->elf, NULL); rc == WS_OK && r; r = elf_nextscn(c->elf, r))
            if (gelf_getshdr(r, &rsh) && (rsh.sh_type == SHT_RELA || rsh.sh_type == SHT_REL) &&
                rsh.sh_info == idx)
                rc = ws_add_relocs(c, k, bank, r, &rsh, name);
        if (rc != WS_OK)
            return rc;
    }
    return WS_OK;
}

/* ---------------------------------------------------------------- kernels, globals */

/* nvdisasm prints a NaN immediate as QNAN / -QNAN, without its payload; the instruction
 * holds all 32 bits (an f32, an f64's high word) in bits 32..63 of its first 64-bit word,
 * which every FIMM form of sm_70..sm_90 shares. ptxas writes such constants for
 * __longlong_as_double / __int_as_float of NaN patterns and for bit tricks on doubles. */
static int ws_nan_immediates(ws_cubin *c, ws_sass_kernel *k, Elf_Scn *text, const char *name)
{
    Elf_Data *d = NULL;
    for (int i = 0; i < k->ninsts; i++) {
        ws_sass_inst *in = &k->insts[i];
        for (int j = 0; j < in->nopnd; j++) {
            ws_sass_opnd *o = &in->o[j];
            if (o->kind != WS_SO_FIMM || !isnan(o->fimm))
                continue;
            if (!d && !(d = elf_getdata(text, NULL)))
                return ws_bad(c, "unreadable section", name);
            if (!d->d_buf || (size_t)in->offset + 8 > d->d_size)
                return ws_bad(c, "instruction outside its section", name);
            o->imm = ws_le32((const uint8_t *)d->d_buf + in->offset + 4);
            o->raw = 1;
        }
    }
    return WS_OK;
}

/* Every sm_70..sm_90 instruction is 128 bits; ptxas's schedule for it sits in the top bits
 * of the second 64-bit word: from bit 105 on, the stall count (4 bits), the yield bit, the
 * write and read scoreboard barriers (3 bits each, 7 = none) and the wait mask (6 bits).
 * The timing model issues the SASS stream by these (sim/sass_timing.c). */
static int ws_control_bits(ws_cubin *c, ws_sass_kernel *k, Elf_Scn *text, const char *name)
{
    Elf_Data *d = elf_getdata(text, NULL);
    if (!d || (!d->d_buf && d->d_size))
        return ws_bad(c, "unreadable section", name);
    for (int i = 0; i < k->ninsts; i++) {
        ws_sass_inst *in = &k->insts[i];
        if ((size_t)in->offset + 16 > d->d_size)
            return ws_bad(c, "instruction outside its section", name);
        const uint8_t *w = (const uint8_t *)d->d_buf + in->offset + 8;
        uint64_t hi = (uint64_t)ws_le32(w) | (uint64_t)ws_le32(w + 4) << 32;
        uint32_t ctl = (uint32_t)(hi >> 41);
        in->stall = (uint8_t)(ctl & 15);
        in->wbar = (uint8_t)((ctl >> 5) & 7);
        in->rbar = (uint8_t)((ctl >> 8) & 7);
        in->wait = (uint8_t)((ctl >> 11) & 63);
        in->ctl = 1;
    }
    return WS_OK;
}

static int ws_load_kernel(ws_cubin *c, ws_sass_kernel *k)
{
    char name[WS_SASS_SYM_MAX + 32];
    GElf_Shdr sh;
    for (int b = 0; b < k->ncbanks; b++)   /* loading again replaces */
        free(k->cbanks[b].data);
    free(k->cbanks);
    free(k->relocs);
    k->cbanks = NULL;
    k->relocs = NULL;
    k->ncbanks = k->nrelocs = 0;
    snprintf(name, sizeof name, ".text.%s", k->name);
    Elf_Scn *text = ws_scn_find(c, name, &sh);
    if (!text)
        return ws_error_at(c->err, WS_ERR_PTX, c->path, 0, "kernel %s is not in the cubin",
                           k->name);
    int rc = ws_nan_immediates(c, k, text, name);
    if (rc == WS_OK)
        rc = ws_control_bits(c, k, text, name);
    if (rc != WS_OK)
        return rc;
    snprintf(name, sizeof name, ".nv.info.%s", k->name);
    Elf_Scn *info = ws_scn_find(c, name, &sh);
    rc = info ? ws_info_walk(c, info, name, ws_info_kernel, k) : WS_OK;
    snprintf(name, sizeof name, ".nv.shared.%s", k->name);
    if (ws_scn_find(c, name, &sh))
        k->shared_static = (uint32_t)sh.sh_size;
    if (rc == WS_OK)
        rc = ws_banks(c, k);
    k->cubin_loaded = rc == WS_OK;
    return rc;
}

static int ws_globals(ws_cubin *c, ws_sass_module *m)
{
    for (int g = 0; g < m->nglobals; g++)
        free(m->globals[g].data);
    free(m->globals);
    m->globals = NULL;
    m->nglobals = 0;
    for (size_t i = 0; i < c->nsyms; i++) {
        const GElf_Sym *s = &c->syms[i];
        if (GELF_ST_TYPE(s->st_info) != STT_OBJECT || s->st_shndx == SHN_UNDEF ||
            s->st_shndx >= SHN_LORESERVE)
            continue;
        GElf_Shdr sh;
        Elf_Scn *scn = elf_getscn(c->elf, s->st_shndx);
        const char *sec = scn ? ws_scn_name(c, scn, &sh) : NULL;
        int bank = sec ? ws_bank_of(sec, NULL) : -1;
        if (!sec || (bank < 0 && strcmp(sec, ".nv.global") && strcmp(sec, ".nv.global.init")))
            continue;
        if (s->st_value + s->st_size > sh.sh_size)
            return ws_bad(c, "symbol outside its section:", c->symnames[i]);
        ws_sass_global *ng = realloc(m->globals, (size_t)(m->nglobals + 1) * sizeof *ng);
        if (!ng)
            return ws_error_set(c->err, WS_ERR_NOMEM, "out of memory reading %s", c->path);
        m->globals = ng;
        ws_sass_global *g = &m->globals[m->nglobals++];
        memset(g, 0, sizeof *g);
        snprintf(g->name, sizeof g->name, "%s", c->symnames[i]);
        g->bank = bank;
        g->offset = (uint32_t)s->st_value;
        g->size = (uint32_t)s->st_size;
        Elf_Data *d = sh.sh_type == SHT_NOBITS ? NULL : elf_getdata(scn, NULL);
        if (d && d->d_buf && s->st_value + s->st_size <= d->d_size && s->st_size) {
            if (!(g->data = malloc(s->st_size)))
                return ws_error_set(c->err, WS_ERR_NOMEM, "out of memory reading %s", c->path);
            memcpy(g->data, (const uint8_t *)d->d_buf + s->st_value, s->st_size);
        }
    }
    return WS_OK;
}

static int ws_load(ws_cubin *c, ws_sass_module *m)
{
    GElf_Ehdr eh;
    if (elf_kind(c->elf) != ELF_K_ELF || !gelf_getehdr(c->elf, &eh) ||
        gelf_getclass(c->elf) != ELFCLASS64 || eh.e_machine != 190 /* EM_CUDA */)
        return ws_error_at(c->err, WS_ERR_PTX, c->path, 0, "not a cubin (a 64-bit CUDA ELF)");
    int rc = ws_symbols(c);
    for (int i = 0; i < m->nkernels; i++) {
        m->kernels[i].regs = 0;
        m->kernels[i].frame_bytes = 0;
    }
    GElf_Shdr sh;
    Elf_Scn *info = rc == WS_OK ? ws_scn_find(c, ".nv.info", &sh) : NULL;
    if (rc == WS_OK && info)
        rc = ws_info_walk(c, info, ".nv.info", ws_info_global, m);
    for (int i = 0; rc == WS_OK && i < m->nkernels; i++)
        rc = ws_load_kernel(c, &m->kernels[i]);
    if (rc == WS_OK)
        rc = ws_globals(c, m);
    return rc;
}

int ws_sass_load_cubin(ws_sass_module *m, const char *cubin_path, ws_error *err)
{
    ws_error local;
    if (!err)
        err = &local;
    if (elf_version(EV_CURRENT) == EV_NONE)
        return ws_error_set(err, WS_ERR_IO, "libelf is unusable: %s", elf_errmsg(-1));
    int fd = open(cubin_path, O_RDONLY);
    if (fd < 0)
        return ws_error_at(err, WS_ERR_IO, cubin_path, 0, "cannot open the cubin: %s",
                           strerror(errno));
    ws_cubin c = {.path = cubin_path, .err = err};
    c.elf = elf_begin(fd, ELF_C_READ, NULL);
    int rc = c.elf ? ws_load(&c, m)
                   : ws_error_at(err, WS_ERR_PTX, cubin_path, 0, "not a cubin: %s",
                                 elf_errmsg(-1));
    if (c.elf)
        elf_end(c.elf);
    close(fd);
    free(c.syms);
    free(c.symnames);
    return rc;
}
