/* sass_parse.c — reads `nvdisasm -gi -c` (or -g -c) output into the SASS IR (sass_ir.h):
 * one kernel per .text.<kernel> section with its device functions, labels resolved to
 * instruction indices, source lines from the `//## File "...", line N` comments. One
 * instruction's opcode and operands are sass_parse_opnd.c's. */
#include "sim/sass_parse.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct ws_sass_label {
    char name[WS_SASS_SYM_MAX];
    int index;        /* instruction that follows the label (ninsts at the end) */
} ws_sass_label;

typedef struct ws_sass_pending {
    int inst, opnd;              /* opnd -1: target `brx_target` of kernel.brx[brx] */
    int brx, brx_target;
    ws_sass_ref ref;
} ws_sass_pending;

typedef struct ws_sass_parser {
    const char *name;     /* the .sass file, for messages */
    ws_error *err;
    ws_sass_module *m;
    int kidx;             /* current kernel; -1 outside a .text section */
    int cap_kernels, cap_insts, cap_syms, cap_files, cap_brx;
    int nlabels, cap_labels;     ws_sass_label *labels;
    int npending, cap_pending;   ws_sass_pending *pending;
    int file, line;       /* the current line-info location */
    int chain;            /* the //## lines read since the last instruction: 0 none, 1 a
                             chain whose location is final (in a .cu/.cuh), 2 one whose
                             innermost location so far is in a header */
    int text_line;
} ws_sass_parser;

static int ws_grow(void *pp, int *cap, int need, size_t elem)
{
    void **p = pp;
    if (need <= *cap)
        return 0;
    int ncap = *cap ? *cap * 2 : 16;
    while (ncap < need)
        ncap *= 2;
    void *q = realloc(*p, (size_t)ncap * elem);
    if (!q)
        return -1;
    memset((char *)q + (size_t)*cap * elem, 0, (size_t)(ncap - *cap) * elem);
    *p = q;
    *cap = ncap;
    return 0;
}

static int ws_nomem(ws_sass_parser *ps)
{
    return ws_error_set(ps->err, WS_ERR_NOMEM, "out of memory reading %s", ps->name);
}

static int ws_malformed(ws_sass_parser *ps, const char *what, const char *s, size_t n)
{
    return ws_error_at(ps->err, WS_ERR_PTX, ps->name, ps->text_line,
                       "malformed SASS at line %d: %s%s%.*s", ps->text_line, what,
                       n ? ": " : "", (int)(n > 120 ? 120 : n), s);
}

static ws_sass_kernel *ws_cur(ws_sass_parser *ps)
{
    return ps->kidx >= 0 ? &ps->m->kernels[ps->kidx] : NULL;
}

/* ---------------------------------------------------------------- kernels and labels */

static int ws_sym_find(const ws_sass_kernel *k, const char *name)
{
    for (int i = 0; i < k->nsyms; i++)
        if (strcmp(k->syms[i].name, name) == 0)
            return i;
    return -1;
}

static int ws_sym_add(ws_sass_parser *ps, const char *name, int64_t offset)
{
    ws_sass_kernel *k = ws_cur(ps);
    int i = ws_sym_find(k, name);
    if (i >= 0) {
        if (offset >= 0)
            k->syms[i].offset = offset;
        return i;
    }
    if (ws_grow(&k->syms, &ps->cap_syms, k->nsyms + 1, sizeof *k->syms) != 0)
        return -1;
    snprintf(k->syms[k->nsyms].name, sizeof k->syms[k->nsyms].name, "%s", name);
    k->syms[k->nsyms].offset = offset;
    return k->nsyms++;
}

static const ws_sass_label *ws_label_find(const ws_sass_parser *ps, const char *name)
{
    for (int i = 0; i < ps->nlabels; i++)
        if (strcmp(ps->labels[i].name, name) == 0)
            return &ps->labels[i];
    return NULL;
}

static int64_t ws_index_offset(const ws_sass_kernel *k, int index)
{
    if (index < k->ninsts)
        return k->insts[index].offset;
    return k->ninsts ? (int64_t)k->insts[k->ninsts - 1].offset + 16 : 0;
}

/* Resolves one operand's label or symbol once the whole section is read. */
static int ws_resolve_ref(ws_sass_parser *ps, ws_sass_pending *pd)
{
    ws_sass_kernel *k = ws_cur(ps);
    ws_sass_inst *in = &k->insts[pd->inst];
    if (pd->opnd < 0) {
        ps->text_line = in->text_line;
        const ws_sass_label *l = ws_label_find(ps, pd->ref.name);
        if (!l)
            return ws_malformed(ps, "unknown label", pd->ref.name, strlen(pd->ref.name));
        k->brx[pd->brx].targets[pd->brx_target] = l->index;
        return WS_OK;
    }
    ws_sass_opnd *o = &in->o[pd->opnd];
    const char *lname = o->kind == WS_SO_LABEL ? pd->ref.name : pd->ref.label;
    ps->text_line = in->text_line;
    if (o->kind == WS_SO_RELOC) {
        const ws_sass_label *fn = ws_label_find(ps, pd->ref.name);
        o->sym = ws_sym_add(ps, pd->ref.name, fn ? ws_index_offset(k, fn->index) : -1);
        if (o->sym < 0)
            return ws_nomem(ps);
        if (!lname[0])
            return WS_OK;
    }
    const ws_sass_label *l = ws_label_find(ps, lname);
    if (!l)
        return ws_malformed(ps, "unknown label", lname, strlen(lname));
    o->target = l->index;
    int64_t off = ws_index_offset(k, l->index);
    o->imm = o->kind == WS_SO_RELOC ? o->imm + off : off;
    if (o->kind == WS_SO_LABEL) {
        o->sym = ws_sym_find(k, lname);
        if (in->target < 0 && in->op != WS_SOP_RET)
            in->target = l->index;
    }
    return WS_OK;
}

/* Ends the current kernel: symbol offsets, label and symbol references. */
static int ws_kernel_finish(ws_sass_parser *ps)
{
    ws_sass_kernel *k = ws_cur(ps);
    if (!k)
        return WS_OK;
    for (int i = 0; i < ps->nlabels; i++) {
        const char *n = ps->labels[i].name;
        if (strncmp(n, ".L", 2) != 0 &&
            ws_sym_add(ps, n, ws_index_offset(k, ps->labels[i].index)) < 0)
            return ws_nomem(ps);
    }
    int text_line = ps->text_line;
    for (int i = 0; i < ps->npending; i++) {
        int rc = ws_resolve_ref(ps, &ps->pending[i]);
        if (rc != WS_OK)
            return rc;
    }
    ps->text_line = text_line;
    ps->nlabels = ps->npending = 0;
    ps->kidx = -1;
    return WS_OK;
}

static int ws_kernel_start(ws_sass_parser *ps, const char *name, size_t n)
{
    ws_sass_module *m = ps->m;
    if (n == 0 || n >= sizeof m->kernels[0].name)
        return ws_malformed(ps, "bad section name", name, n);
    if (ws_grow(&m->kernels, &ps->cap_kernels, m->nkernels + 1, sizeof *m->kernels) != 0)
        return ws_nomem(ps);
    ws_sass_kernel *k = &m->kernels[m->nkernels];
    memset(k, 0, sizeof *k);
    snprintf(k->name, sizeof k->name, "%.*s", (int)n, name);
    ps->kidx = m->nkernels++;
    ps->cap_insts = ps->cap_syms = ps->cap_files = ps->cap_brx = 0;
    ps->file = -1;
    ps->line = 0;
    ps->chain = 0;
    return WS_OK;
}

static int ws_label_add(ws_sass_parser *ps, const char *s, size_t n)
{
    ws_sass_kernel *k = ws_cur(ps);
    if (!k)
        return ws_malformed(ps, "label outside a code section", s, n);
    if (n >= 7 && memcmp(s, ".text.", 6) == 0)
        return WS_OK;   /* the section's own label */
    if (n == 0 || n >= sizeof ps->labels[0].name)
        return ws_malformed(ps, "bad label", s, n);
    if (ws_grow(&ps->labels, &ps->cap_labels, ps->nlabels + 1, sizeof *ps->labels) != 0)
        return ws_nomem(ps);
    ws_sass_label *l = &ps->labels[ps->nlabels++];
    snprintf(l->name, sizeof l->name, "%.*s", (int)n, s);
    l->index = k->ninsts;
    return WS_OK;
}

/* One `"path", line N` at p (in [p, end)): the path's span and N; 0 when one is there. */
static int ws_loc(const char *p, const char *end, const char **path, size_t *plen, int *line)
{
    const char *q1 = memchr(p, '"', (size_t)(end - p));
    const char *q2 = q1 ? memchr(q1 + 1, '"', (size_t)(end - q1 - 1)) : NULL;
    if (!q2 || end - q2 < 9 || memcmp(q2 + 1, ", line ", 7) != 0 ||
        !isdigit((unsigned char)q2[8]))
        return -1;
    *path = q1 + 1;
    *plen = (size_t)(q2 - q1 - 1);
    *line = atoi(q2 + 8);
    return 0;
}

/* //## File "path", line N[ inlined at "path", line M]: nvdisasm writes an instruction's
 * inlining chain innermost first, one //## line per frame (`File "k.cu", line 8 inlined at
 * "k.cu", line 40` then `File "k.cu", line 40`). The instruction's location is the
 * innermost one in a .cu/.cuh file (a __device__ function's own line, as CUPTI and the PTX
 * model have it; toolkit headers' intrinsics map to the kernel line that calls them), else
 * the innermost. */
static int ws_line_info(ws_sass_parser *ps, const char *s, size_t n)
{
    ws_sass_kernel *k = ws_cur(ps);
    const char *end = s + n, *path, *p;
    size_t plen;
    int line;
    if (ws_loc(s, end, &path, &plen, &line) != 0)
        return ws_malformed(ps, "bad line info", s, n);
    if (ps->chain == 1)
        return WS_OK; /* an outer frame of a chain already placed in a source file */
    for (p = path; !ws_is_cuda_source(path, plen);) {
        const char *in = memmem(p, (size_t)(end - p), " inlined at ", 12);
        const char *op;
        size_t ol;
        int oline;
        if (!in || ws_loc(in, end, &op, &ol, &oline) != 0)
            break;
        if (ws_is_cuda_source(op, ol)) {
            path = op, plen = ol, line = oline;
            break;
        }
        p = op + ol;
    }
    int source = ws_is_cuda_source(path, plen);
    if (ps->chain == 2 && !source)
        return WS_OK; /* a header frame outside the innermost one */
    ps->chain = source ? 1 : 2;
    if (!k)
        return WS_OK;
    int f = -1;
    for (int i = 0; i < k->nfiles && f < 0; i++)
        if (strlen(k->files[i]) == plen && memcmp(k->files[i], path, plen) == 0)
            f = i;
    if (f < 0) {
        char *copy = malloc(plen + 1);
        if (!copy || ws_grow(&k->files, &ps->cap_files, k->nfiles + 1, sizeof *k->files)) {
            free(copy);
            return ws_nomem(ps);
        }
        memcpy(copy, path, plen);
        copy[plen] = '\0';
        f = k->nfiles;
        k->files[k->nfiles++] = copy;
    }
    ps->file = f;
    ps->line = line;
    return WS_OK;
}

/* ---------------------------------------------------------------- instructions */

static int ws_guard(ws_sass_parser *ps, const char **pp, const char *end, ws_sass_inst *in)
{
    const char *p = *pp + 1, *e = p;
    while (e < end && !isspace((unsigned char)*e))
        e++;
    in->guard = -1;
    if (p < e && *p == '!') { in->guard_neg = 1; p++; }
    if (p < e && *p == 'U') { in->guard_uniform = 1; p++; }
    if (e - p == 2 && p[0] == 'P' && (p[1] == 'T' || (p[1] >= '0' && p[1] <= '6'))) {
        in->guard = p[1] == 'T' ? (in->guard_neg ? WS_SASS_PT : -1) : p[1] - '0';
        if (p[1] == 'T' && !in->guard_neg) in->guard_uniform = 0;
        *pp = e;
        return WS_OK;
    }
    return ws_malformed(ps, "bad guard predicate", *pp, (size_t)(e - *pp));
}

static int ws_operands(ws_sass_parser *ps, const char *s, size_t n, ws_sass_inst *in)
{
    const char *start[WS_SASS_MAXOPND + 1];
    size_t len[WS_SASS_MAXOPND + 1];
    int count = ws_sass_split_opnds(s, n, start, len, WS_SASS_MAXOPND);
    if (count < 0)
        return ws_malformed(ps, "bad operand list", s, n);
    in->nopnd = (uint8_t)count;
    for (int i = 0; i < count; i++) {
        ws_sass_ref ref;
        char why[160];
        if (ws_sass_parse_opnd(start[i], len[i], &in->o[i], &ref, why, sizeof why) != 0)
            return ws_malformed(ps, why, "", 0);
        if (in->o[i].kind != WS_SO_LABEL && in->o[i].kind != WS_SO_RELOC)
            continue;
        if (ws_grow(&ps->pending, &ps->cap_pending, ps->npending + 1, sizeof *ps->pending))
            return ws_nomem(ps);
        ws_sass_pending *pd = &ps->pending[ps->npending++];
        pd->inst = ws_cur(ps)->ninsts;
        pd->opnd = i;
        pd->ref = ref;
    }
    return WS_OK;
}

/* (*"BRANCH_TARGETS .L_x_1,.L_x_2"*): the current instruction's indirect targets; other
 * notes are skipped. */
static int ws_branch_targets(ws_sass_parser *ps, const char *s, size_t n)
{
    static const char head[] = "(*\"BRANCH_TARGETS ";
    size_t hl = sizeof head - 1;
    ws_sass_kernel *k = ws_cur(ps);
    while (n > 0 && isspace((unsigned char)s[n - 1]))
        n--;
    if (n < 6 || memcmp(s + n - 3, "\"*)", 3) != 0)
        return ws_malformed(ps, "bad annotation", s, n);
    if (n < hl + 3 || memcmp(s, head, hl) != 0) {
        int op = k->insts[k->ninsts].op;   /* the instruction being read */
        if (op == WS_SOP_BRX)
            return ws_malformed(ps, "bad annotation", s, n);
        return WS_OK; /* another note ((*"SpillRefill"*) on spill code): nothing to keep */
    }
    if (ws_grow(&k->brx, &ps->cap_brx, k->nbrx + 1, sizeof *k->brx) != 0)
        return ws_nomem(ps);
    ws_sass_brx *b = &k->brx[k->nbrx];
    const char *p = s + hl, *end = s + n - 3;
    int count = 1;
    for (const char *q = p; q < end; q++)
        count += *q == ',';
    if (!(b->targets = calloc((size_t)count, sizeof *b->targets)))
        return ws_nomem(ps);
    b->inst = k->ninsts;
    b->ntargets = count;
    k->nbrx++;
    for (int t = 0; t < count; t++) {
        const char *e = memchr(p, ',', (size_t)(end - p));
        if (!e) e = end;
        if (e == p || (size_t)(e - p) >= sizeof ps->pending[0].ref.name)
            return ws_malformed(ps, "bad branch target", s, n);
        if (ws_grow(&ps->pending, &ps->cap_pending, ps->npending + 1, sizeof *ps->pending))
            return ws_nomem(ps);
        ws_sass_pending *pd = &ps->pending[ps->npending++];
        memset(pd, 0, sizeof *pd);
        pd->inst = k->ninsts;
        pd->opnd = -1;
        pd->brx = k->nbrx - 1;
        pd->brx_target = t;
        snprintf(pd->ref.name, sizeof pd->ref.name, "%.*s", (int)(e - p), p);
        p = e + 1;
    }
    return WS_OK;
}

/* An opcode the table lacks, an operand count outside the row's range, a modifier
 * sass_mods.def does not name, or one the row does not list (ATOMG.E.ADD.F32x2 and
 * CS2R.32 were run as the plain form before their handlers read them) makes the line the
 * UNKNOWN row: the module still loads, and only a kernel
 * that runs it fails (ws_sass_x_unsupported names it, its PC and its source line). */
static void ws_check_inst(ws_sass_inst *in, int known)
{
    if (known && ws_sass_row_stray_mod(in->op, in->mods) >= 0) {
        in->op = WS_SOP_UNKNOWN;
        in->target = -1;
        return;
    }
    if (!known) {
        in->op = WS_SOP_UNKNOWN;
        in->nopnd = 0;
        in->target = -1;
        in->cmp = in->boolop = in->rnd = in->dtype = in->stype = 0xff;
        memset(in->mods, 0, sizeof in->mods);
        return;
    }
    const ws_sass_opinfo *oi = &ws_sass_ops[in->op];
    if (in->nopnd < oi->nmin || in->nopnd > oi->nmax) {
        in->op = WS_SOP_UNKNOWN;
        in->target = -1;
    }
}

/* One instruction line: offset comment, guard, opcode, operands, ";" (a trailing
 * encoding comment is allowed). */
static int ws_inst_line(ws_sass_parser *ps, const char *s, size_t n)
{
    ws_sass_kernel *k = ws_cur(ps);
    const char *end = s + n, *close = n > 4 ? strstr(s, "*/") : NULL;
    if (!k)
        return ws_malformed(ps, "instruction outside a code section", s, n);
    char *hexend;
    unsigned long off = strtoul(s + 2, &hexend, 16);
    if (!close || close >= end || hexend != close || hexend == s + 2 || off > 0xffffffffUL ||
        (off & 0xf) != 0)
        return ws_malformed(ps, "bad instruction offset", s, n);
    if (k->ninsts && off <= k->insts[k->ninsts - 1].offset)
        return ws_malformed(ps, "instruction offsets do not increase", s, n);
    const char *semi = memchr(close, ';', (size_t)(end - close));
    if (!semi)
        return ws_malformed(ps, "missing ';'", s, n);
    for (const char *t = semi + 1; t < end; t++)
        if (!isspace((unsigned char)*t)) {
            if (end - t >= 4 && t[0] == '/' && t[1] == '*' && end[-1] == '/' && end[-2] == '*')
                break;
            return ws_malformed(ps, "text after ';'", s, n);
        }
    if (ws_grow(&k->insts, &ps->cap_insts, k->ninsts + 1, sizeof *k->insts) != 0)
        return ws_nomem(ps);
    ws_sass_inst *in = &k->insts[k->ninsts];
    memset(in, 0, sizeof *in);
    in->offset = (uint32_t)off;
    in->target = -1;
    in->file = ps->file;
    in->line = ps->line;
    in->text_line = ps->text_line;
    ps->chain = 0;
    const char *p = close + 2;
    while (p < semi && isspace((unsigned char)*p)) p++;
    in->guard = -1;
    if (p < semi && *p == '@' && ws_guard(ps, &p, semi, in) != WS_OK)
        return ps->err->code;
    while (p < semi && isspace((unsigned char)*p)) p++;
    const char *op = p;
    while (p < semi && !isspace((unsigned char)*p)) p++;
    if (p == op)
        return ws_malformed(ps, "missing opcode", s, n);
    int known = ws_sass_parse_opcode(op, (size_t)(p - op), in) == 0;
    const char *ann = memmem(p, (size_t)(semi - p), "(*\"", 3);
    int rc = known ? ws_operands(ps, p, (size_t)((ann ? ann : semi) - p), in) : WS_OK;
    if (rc == WS_OK && known && ann)
        rc = ws_branch_targets(ps, ann, (size_t)(semi - ann));
    if (rc == WS_OK) {
        ws_check_inst(in, known);
        k->ninsts++;
    }
    return rc;
}

/* ---------------------------------------------------------------- lines */

static int ws_directive(ws_sass_parser *ps, const char *s, size_t n)
{
    if (n > 9 && memcmp(s, ".section", 8) == 0 && isspace((unsigned char)s[8])) {
        int rc = ws_kernel_finish(ps);
        const char *p = s + 8;
        while (p < s + n && isspace((unsigned char)*p)) p++;
        if (rc != WS_OK || (size_t)(s + n - p) < 7 || memcmp(p, ".text.", 6) != 0)
            return rc;
        const char *name = p + 6, *e = name;
        while (e < s + n && *e != ',' && !isspace((unsigned char)*e)) e++;
        return ws_kernel_start(ps, name, (size_t)(e - name));
    }
    if (n > 8 && memcmp(s, ".target", 7) == 0 && isspace((unsigned char)s[7])) {
        const char *p = s + 7;
        while (p < s + n && isspace((unsigned char)*p)) p++;
        snprintf(ps->m->arch, sizeof ps->m->arch, "%.*s", (int)(s + n - p), p);
    }
    return WS_OK;   /* .align, .global, .type, .size, .other, .elftype: nothing to keep */
}

static int ws_line(ws_sass_parser *ps, const char *s, size_t n)
{
    while (n && isspace((unsigned char)*s)) { s++; n--; }
    while (n && isspace((unsigned char)s[n - 1])) n--;
    if (n == 0)
        return WS_OK;
    if (n >= 4 && memcmp(s, "//##", 4) == 0)
        return ws_line_info(ps, s, n);
    if (n >= 2 && s[0] == '/' && s[1] == '/')
        return WS_OK;
    if (n >= 2 && s[0] == '/' && s[1] == '*')
        return ws_inst_line(ps, s, n);
    if (s[n - 1] == ':')
        return ws_label_add(ps, s, n - 1);
    if (s[0] == '.')
        return ws_directive(ps, s, n);
    return ws_malformed(ps, "unrecognized line", s, n);
}

int ws_sass_parse(const char *text, size_t len, const char *name, ws_sass_module **out,
                  ws_error *err)
{
    ws_error local;
    if (!err)
        err = &local;
    ws_error_clear(err);
    *out = NULL;
    ws_sass_module *m = calloc(1, sizeof *m);
    if (!m || !(m->text = malloc(len + 1))) {
        free(m);
        return ws_error_set(err, WS_ERR_NOMEM, "out of memory reading %s", name);
    }
    memcpy(m->text, text, len);
    m->text[len] = '\0';
    ws_sass_parser ps = {.name = name ? name : "<sass>", .err = err, .m = m, .kidx = -1};
    int rc = WS_OK;
    const char *p = m->text, *end = m->text + len;
    while (rc == WS_OK && p < end) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        const char *e = nl ? nl : end;
        ps.text_line++;
        if (memchr(p, '\0', (size_t)(e - p)))
            rc = ws_malformed(&ps, "NUL byte in the text", "", 0);
        else
            rc = ws_line(&ps, p, (size_t)(e - p));
        p = nl ? nl + 1 : end;
    }
    if (rc == WS_OK)
        rc = ws_kernel_finish(&ps);
    if (rc == WS_OK && m->nkernels == 0)
        rc = ws_error_at(err, WS_ERR_PTX, ps.name, 0, "malformed SASS: no .text section");
    free(ps.labels);
    free(ps.pending);
    if (rc != WS_OK) {
        ws_sass_module_free(m);
        return rc;
    }
    *out = m;
    return WS_OK;
}

void ws_sass_module_free(ws_sass_module *m)
{
    if (!m)
        return;
    for (int i = 0; i < m->nkernels; i++) {
        ws_sass_kernel *k = &m->kernels[i];
        free(k->insts);
        free(k->syms);
        for (int f = 0; f < k->nfiles; f++)
            free(k->files[f]);
        free(k->files);
        for (int b = 0; b < k->ncbanks; b++)
            free(k->cbanks[b].data);
        free(k->cbanks);
        free(k->relocs);
        for (int b = 0; b < k->nbrx; b++)
            free(k->brx[b].targets);
        free(k->brx);
    }
    free(m->kernels);
    for (int g = 0; g < m->nglobals; g++)
        free(m->globals[g].data);
    free(m->globals);
    free(m->text);
    free(m);
}

ws_sass_kernel *ws_sass_kernel_find(ws_sass_module *m, const char *mangled)
{
    for (int i = 0; m && i < m->nkernels; i++)
        if (strcmp(m->kernels[i].name, mangled) == 0)
            return &m->kernels[i];
    return NULL;
}

int ws_sass_source_line(const ws_sass_module *m, const char *function, int offset,
                        const char **path, int *line)
{
    const ws_sass_kernel *k = ws_sass_kernel_find((ws_sass_module *)m, function);
    int i = k ? ws_sass_index_of(k, offset) : -1;
    if (i < 0 || k->insts[i].file < 0 || k->insts[i].file >= k->nfiles)
        return -1;
    *path = k->files[k->insts[i].file];
    *line = k->insts[i].line;
    return 0;
}

int ws_sass_index_of(const ws_sass_kernel *k, int64_t offset)
{
    int lo = 0, hi = k->ninsts - 1;
    while (lo <= hi) {
        int mid = (lo + hi) / 2;
        int64_t o = k->insts[mid].offset;
        if (o == offset) return mid;
        if (o < offset) lo = mid + 1;
        else hi = mid - 1;
    }
    return -1;
}
