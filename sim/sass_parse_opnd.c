/* sass_parse_opnd.c — one SASS instruction's pieces as nvdisasm prints them: the opcode
 * and its dotted modifiers (sass_ops.def, sass_mods.def) and each operand (registers,
 * predicates, immediates, constant banks, addresses, labels, special registers,
 * relocations). Lines, sections and labels are sass_parse.c's. */
#include "sim/sass_parse.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int ws_sass_parse_opcode(const char *s, size_t n, ws_sass_inst *in)
{
    snprintf(in->name, sizeof in->name, "%.*s", (int)n, s);
    const char *dot = memchr(s, '.', n);
    size_t oplen = dot ? (size_t)(dot - s) : n;
    int op = ws_sass_op_find(s, oplen);
    if (op < 0)
        return -1;
    in->op = (uint16_t)op;
    in->cmp = in->boolop = in->rnd = in->dtype = in->stype = 0xff;
    memset(in->mods, 0, sizeof in->mods);
    const char *p = dot, *end = s + n;
    while (p && p < end) {
        const char *m = p + 1, *next = memchr(m, '.', (size_t)(end - m));
        size_t mlen = (size_t)((next ? next : end) - m);
        int mod = ws_sass_mod_find(m, mlen);
        if (mod < 0) /* marked: the parser makes the line the UNKNOWN row (sass_parse.c) */
            in->mods[WS_SMOD_UNKNOWN >> 6] |= 1ull << (WS_SMOD_UNKNOWN & 63);
        if (mod >= 0) {
            in->mods[mod >> 6] |= 1ull << (mod & 63);
            switch (ws_sass_mod_kind(mod)) {
            case WS_SMODK_CMP: if (in->cmp == 0xff) in->cmp = (uint8_t)mod; break;
            case WS_SMODK_BOOL: if (in->boolop == 0xff) in->boolop = (uint8_t)mod; break;
            case WS_SMODK_RND: if (in->rnd == 0xff) in->rnd = (uint8_t)mod; break;
            case WS_SMODK_TYPE:
                if (in->dtype == 0xff) in->dtype = (uint8_t)mod;
                else if (in->stype == 0xff) in->stype = (uint8_t)mod;
                break;
            case WS_SMODK_FLAG: case WS_SMODK_HINT: break;
            }
        }
        p = next;
    }
    return 0;
}

int ws_sass_split_opnds(const char *s, size_t n, const char **start, size_t *len, int max)
{
    int count = 0, depth = 0;
    size_t i = 0;
    while (i <= n) {
        /* one comma-separated piece: [i, j) */
        size_t j = i;
        for (; j < n; j++) {
            char c = s[j];
            if (c == '[' || c == '(') depth++;
            else if (c == ']' || c == ')') { if (--depth < 0) return -1; }
            else if (c == ',' && depth == 0) break;
        }
        if (depth != 0)
            return -1;
        int pieces = 0;
        for (size_t k = i; k < j;) {   /* blanks at depth 0 separate operands too */
            while (k < j && isspace((unsigned char)s[k])) k++;
            if (k >= j) break;
            size_t e = k;
            int d = 0;
            while (e < j && (d > 0 || !isspace((unsigned char)s[e]))) {
                if (s[e] == '[' || s[e] == '(') d++;
                else if (s[e] == ']' || s[e] == ')') d--;
                e++;
            }
            if (count >= max)
                return -1;
            start[count] = s + k;
            len[count++] = e - k;
            pieces++;
            k = e;
        }
        if (pieces == 0 && (j < n || count > 0))
            return -1;           /* an empty piece: ", ," or a trailing comma */
        if (j >= n)
            break;
        i = j + 1;
    }
    return count;
}

/* ---------------------------------------------------------------- small readers */

/* Register-like name at p: R12/RZ, UR4/URZ, P3/PT, UP1/UPT, B5. Returns its length (0
 * when p does not start one) and fills kind and number. */
static size_t ws_reg_name(const char *p, size_t n, uint8_t *kind, int16_t *reg)
{
    struct { const char *prefix; uint8_t kind; int zero; int max; } forms[] = {
        {"UR", WS_SO_UR, WS_SASS_URZ, WS_SASS_NUREGS - 1},
        {"UP", WS_SO_UP, WS_SASS_PT, WS_SASS_PT},
        {"R", WS_SO_R, WS_SASS_RZ, WS_SASS_RZ},
        {"P", WS_SO_P, WS_SASS_PT, WS_SASS_PT},
        {"B", WS_SO_BAR, -1, WS_SASS_NBARRIERS - 1},
    };
    for (size_t f = 0; f < sizeof forms / sizeof *forms; f++) {
        size_t pl = strlen(forms[f].prefix);
        if (n <= pl || memcmp(p, forms[f].prefix, pl) != 0)
            continue;
        char c = p[pl];
        int zero_letter = forms[f].kind == WS_SO_R || forms[f].kind == WS_SO_UR ? 'Z' : 'T';
        if (forms[f].zero >= 0 && c == zero_letter) {
            if (pl + 1 < n && isalnum((unsigned char)p[pl + 1])) return 0;
            *kind = forms[f].kind;
            *reg = (int16_t)forms[f].zero;
            return pl + 1;
        }
        if (!isdigit((unsigned char)c))
            continue;
        size_t e = pl;
        long v = 0;
        while (e < n && isdigit((unsigned char)p[e]) && v < 100000)
            v = v * 10 + (p[e++] - '0');
        if (e < n && (isalnum((unsigned char)p[e]) || p[e] == '_'))
            return 0;
        if (v > forms[f].max || (forms[f].zero >= 0 && v == forms[f].zero &&
                                 forms[f].kind != WS_SO_R))
            return 0;
        *kind = forms[f].kind;
        *reg = (int16_t)v;
        return e;
    }
    return 0;
}

/* 0x.. (hex) integer at [p, p+n) exactly; 0 when it is one. */
static int ws_hex(const char *p, size_t n, int64_t *v)
{
    if (n < 3 || p[0] != '0' || (p[1] != 'x' && p[1] != 'X'))
        return -1;
    uint64_t x = 0;
    for (size_t i = 2; i < n; i++) {
        int d = isdigit((unsigned char)p[i]) ? p[i] - '0'
              : (p[i] >= 'a' && p[i] <= 'f') ? p[i] - 'a' + 10
              : (p[i] >= 'A' && p[i] <= 'F') ? p[i] - 'A' + 10 : -1;
        if (d < 0 || (x >> 60) != 0)
            return -1;
        x = x * 16 + (uint64_t)d;
    }
    *v = (int64_t)x;
    return 0;
}

/* Decimal float (1, 0.5, 1e-05, 5.96e-08), INF, QNAN, SNAN, NAN at [p, p+n) exactly. A NaN
 * reads as the default one: the text has no payload; the cubin loader puts in the bits. */
static int ws_float(const char *p, size_t n, double *v)
{
    if ((n == 3 && memcmp(p, "INF", 3) == 0)) { *v = INFINITY; return 0; }
    if ((n == 4 && (memcmp(p, "QNAN", 4) == 0 || memcmp(p, "SNAN", 4) == 0)) ||
        (n == 3 && memcmp(p, "NAN", 3) == 0)) {
        *v = NAN;
        return 0;
    }
    if (n == 0 || n > 63 || !isdigit((unsigned char)p[0]))
        return -1;
    for (size_t i = 0; i < n; i++)
        if (!isdigit((unsigned char)p[i]) && p[i] != '.' && p[i] != 'e' && p[i] != 'E' &&
            p[i] != '-' && p[i] != '+')
            return -1;
    char buf[64], *end;
    memcpy(buf, p, n);
    buf[n] = '\0';
    errno = 0;
    *v = strtod(buf, &end);
    return *end == '\0' ? 0 : -1;
}

static const struct { const char *name; uint8_t sreg; } ws_sregs[] = {
    {"SR_TID.X", WS_SSR_TID_X}, {"SR_TID.Y", WS_SSR_TID_Y}, {"SR_TID.Z", WS_SSR_TID_Z},
    {"SR_CTAID.X", WS_SSR_CTAID_X}, {"SR_CTAID.Y", WS_SSR_CTAID_Y},
    {"SR_CTAID.Z", WS_SSR_CTAID_Z}, {"SR_TID", WS_SSR_TID}, {"SR_CTAID", WS_SSR_CTAID},
    {"SR_LANEID", WS_SSR_LANEID}, {"SR_WARPID", WS_SSR_WARPID}, {"SR_VIRTID", WS_SSR_WARPID},
    {"SR_NWARPID", WS_SSR_NWARPID}, {"SR_SMID", WS_SSR_SMID}, {"SR_NSMID", WS_SSR_NSMID},
    {"SR_VIRTCFG", WS_SSR_VIRTCFG},
    {"SR_GRIDID", WS_SSR_GRIDID}, {"SR_VIRTUALSMID", WS_SSR_VIRTUALSMID},
    {"SR_LANEMASK_EQ", WS_SSR_LANEMASK_EQ}, {"SR_LANEMASK_LT", WS_SSR_LANEMASK_LT},
    {"SR_LANEMASK_LE", WS_SSR_LANEMASK_LE}, {"SR_LANEMASK_GT", WS_SSR_LANEMASK_GT},
    {"SR_LANEMASK_GE", WS_SSR_LANEMASK_GE},
    {"SR_EQMASK", WS_SSR_EQMASK}, {"SR_LTMASK", WS_SSR_LTMASK}, {"SR_LEMASK", WS_SSR_LEMASK},
    {"SR_GTMASK", WS_SSR_GTMASK}, {"SR_GEMASK", WS_SSR_GEMASK},
    {"SR_CLOCKLO", WS_SSR_CLOCKLO}, {"SR_CLOCKHI", WS_SSR_CLOCKHI},
    {"SR_CLOCK", WS_SSR_CLOCK64},
    {"SR_GLOBALTIMERLO", WS_SSR_GLOBALTIMERLO}, {"SR_GLOBALTIMERHI", WS_SSR_GLOBALTIMERHI},
    {"SR_GLOBALTIMER", WS_SSR_GLOBALTIMER},
    {"SR_CgaCtaId", WS_SSR_CGACTAID}, {"SR_SWINHI", WS_SSR_SWINHI},
    {"SR_SWINLO", WS_SSR_SWINLO}, {"SRZ", WS_SSR_ZERO},
};

/* ---------------------------------------------------------------- bracketed forms */

/* An address expression "R4.64+UR4+-0x8" (inside [ ]) into o's reg, ureg, wide, imm. */
static int ws_addr_expr(const char *p, size_t n, ws_sass_opnd *o, char *why, size_t whyn)
{
    size_t i = 0;
    while (i < n) {
        int neg = 0;
        if (p[i] == '+') i++;
        if (i < n && p[i] == '-') { neg = 1; i++; }
        size_t e = i;
        while (e < n && p[e] != '+')
            e++;
        int64_t v;
        uint8_t kind;
        int16_t reg;
        size_t rl = ws_reg_name(p + i, e - i, &kind, &reg);
        if (e == i) {
            snprintf(why, whyn, "empty term in address");
            return -1;
        } else if (ws_hex(p + i, e - i, &v) == 0) {
            o->imm += neg ? -v : v;
        } else if (rl && !neg && kind == WS_SO_R && o->reg == -1) {
            o->reg = reg == WS_SASS_RZ ? -1 : reg;
            const char *sfx = p + i + rl;
            size_t sl = e - i - rl;
            if (sl == 3 && memcmp(sfx, ".64", 3) == 0) o->wide = 1;
            else if (sl == 3 && memcmp(sfx, ".X4", 3) == 0) o->scale = 4;
            else if (sl == 3 && memcmp(sfx, ".X8", 3) == 0) o->scale = 8;
            else if (sl == 4 && memcmp(sfx, ".X16", 4) == 0) o->scale = 16;
            else if (sl == 4 && memcmp(sfx, ".U32", 4) == 0) o->u32 = 1;
            else if (sl != 0) goto bad;
        } else if (rl == e - i && !neg && kind == WS_SO_UR && o->ureg == -1) {
            o->ureg = reg == WS_SASS_URZ ? -1 : reg;
        } else {
        bad:
            snprintf(why, whyn, "bad address term '%.*s'", (int)(e - i), p + i);
            return -1;
        }
        i = e;
    }
    return 0;
}

/* c[0x3][0x10], c[0x0][R2+0x4], cx[UR4][R0]: constant bank. */
static int ws_cbank(const char *s, size_t n, ws_sass_opnd *o, char *why, size_t whyn)
{
    size_t pre = s[1] == 'x' ? 2 : 1;
    const char *close = memchr(s, ']', n);
    if (!close || close[1] != '[' || s[n - 1] != ']') {
        snprintf(why, whyn, "bad constant bank");
        return -1;
    }
    const char *b = s + pre + 1;
    size_t bl = (size_t)(close - b);
    int64_t bank;
    o->kind = WS_SO_CBANK;
    if (pre == 2) {   /* bank number from a uniform register */
        uint8_t kind;
        int16_t reg;
        if (ws_reg_name(b, bl, &kind, &reg) != bl || kind != WS_SO_UR) {
            snprintf(why, whyn, "bad constant bank register");
            return -1;
        }
        o->bank = -1;
        o->ureg = reg;
    } else if (ws_hex(b, bl, &bank) != 0 || bank > 17) {
        snprintf(why, whyn, "bad constant bank number");
        return -1;
    } else {
        o->bank = (int16_t)bank;
    }
    int16_t ureg = o->ureg;
    o->ureg = -1;
    int rc = ws_addr_expr(close + 2, (size_t)(s + n - 1 - (close + 2)), o, why, whyn);
    if (pre == 2) {
        if (o->ureg != -1) { snprintf(why, whyn, "two uniform registers in cx[]"); return -1; }
        o->ureg = ureg;
    }
    return rc;
}

/* [R4.64+0x8], desc[UR4][R4.64], [R1+UR4+-0x4], [UR4]: a memory address. */
static int ws_mem(const char *s, size_t n, ws_sass_opnd *o, char *why, size_t whyn)
{
    if (n >= 5 && memcmp(s, "desc[", 5) == 0) {
        const char *close = memchr(s, ']', n);
        if (!close || close + 1 >= s + n || close[1] != '[') {
            snprintf(why, whyn, "bad desc[] address");
            return -1;
        }
        n -= (size_t)(close + 1 - s);
        s = close + 1;
    }
    if (n < 2 || s[0] != '[' || s[n - 1] != ']') {
        snprintf(why, whyn, "bad address");
        return -1;
    }
    o->kind = WS_SO_MEM;
    return ws_addr_expr(s + 1, n - 2, o, why, whyn);
}

/* `(.L_x_1), `($k$func), `(kernel): a code label. */
static int ws_label(const char *s, size_t n, ws_sass_opnd *o, ws_sass_ref *ref, char *why,
                    size_t whyn)
{
    if (n < 4 || s[1] != '(' || s[n - 1] != ')' || n - 3 >= sizeof ref->name) {
        snprintf(why, whyn, "bad label");
        return -1;
    }
    o->kind = WS_SO_LABEL;
    snprintf(ref->name, sizeof ref->name, "%.*s", (int)(n - 3), s + 2);
    return 0;
}

/* 32@lo(sym), 32@hi(sym+0x10), 32@lo((kernel + .L_x_5@srel)): a relocated constant. */
static int ws_reloc(const char *s, size_t n, ws_sass_opnd *o, ws_sass_ref *ref, char *why,
                    size_t whyn)
{
    o->kind = WS_SO_RELOC;
    o->hi = s[3] == 'h';
    const char *p = s + 6, *end = s + n - 1;   /* inside 32@lo( ... ) */
    if (n < 8 || s[5] != '(' || *end != ')' || (s[3] != 'h' && s[3] != 'l'))
        goto bad;
    while (p < end && *p == '(' && end[-1] == ')') { p++; end--; }
    const char *q = p;
    while (q < end && *q != '+' && *q != ' ') q++;
    if (q == p || (size_t)(q - p) >= sizeof ref->name)
        goto bad;
    snprintf(ref->name, sizeof ref->name, "%.*s", (int)(q - p), p);
    while (q < end && (*q == ' ' || *q == '+')) q++;
    if (q < end) {
        int64_t v;
        const char *at = memchr(q, '@', (size_t)(end - q));
        if (at && (size_t)(end - at) == 5 && memcmp(at, "@srel", 5) == 0 &&
            (size_t)(at - q) < sizeof ref->label)
            snprintf(ref->label, sizeof ref->label, "%.*s", (int)(at - q), q);
        else if (ws_hex(q, (size_t)(end - q), &v) == 0)
            o->imm = v;
        else
            goto bad;
    }
    return 0;
bad:
    snprintf(why, whyn, "bad relocation");
    return -1;
}

/* ---------------------------------------------------------------- one operand */

static int ws_selector(const char *p, size_t n, uint8_t *sel)
{
    static const char *const names[] = {"", ".H0", ".H1", ".H0_H0", ".H1_H1",
                                         ".B0", ".B1", ".B2", ".B3", ".ROW", ".COL"};
    for (int i = 1; i < 11; i++)
        if (strlen(names[i]) == n && memcmp(names[i], p, n) == 0) {
            *sel = (uint8_t)i;
            return 0;
        }
    return -1;
}

int ws_sass_parse_opnd(const char *s, size_t n, ws_sass_opnd *o, ws_sass_ref *ref,
                       char *why, size_t whyn)
{
    char buf[WS_SASS_SYM_MAX + 64]; /* a label or relocation names a function: C++ template
                                       names run to hundreds of characters (CUB, Thrust) */
    memset(o, 0, sizeof *o);
    memset(ref, 0, sizeof *ref);
    o->reg = o->ureg = -1;
    o->target = o->sym = -1;
    if (n >= sizeof buf) {
        snprintf(why, whyn, "operand too long");
        return -1;
    }
    size_t m = 0;   /* copy without `.reuse` */
    for (size_t i = 0; i < n; i++) {
        if (n - i >= 6 && memcmp(s + i, ".reuse", 6) == 0) { i += 5; continue; }
        buf[m++] = s[i];
    }
    buf[m] = '\0';
    const char *p = buf;
    if (m >= 5 && (memcmp(p, "32@lo", 5) == 0 || memcmp(p, "32@hi", 5) == 0))
        return ws_reloc(p, m, o, ref, why, whyn);
    if ((m == 2 && p[0] == 'P' && p[1] == 'R') || (m == 3 && memcmp(p, "UPR", 3) == 0)) {
        o->kind = WS_SO_PR;
        o->reg = m == 3; /* 1: the uniform predicates (UP2UR) */
        return 0;
    }
    if (m == 3 && p[0] == 'S' && p[1] == 'B' && p[2] >= '0' && p[2] <= '5') {
        o->kind = WS_SO_SB;
        o->reg = (int16_t)(p[2] - '0');
        return 0;
    }
    if (p[0] == '`')
        return ws_label(p, m, o, ref, why, whyn);
    if (p[0] == '[' || (m > 5 && memcmp(p, "desc[", 5) == 0))
        return ws_mem(p, m, o, why, whyn);
    if ((m > 3 && memcmp(p, "SR_", 3) == 0) || strcmp(p, "SRZ") == 0) {
        for (size_t i = 0; i < sizeof ws_sregs / sizeof *ws_sregs; i++)
            if (strcmp(ws_sregs[i].name, p) == 0) {
                o->kind = WS_SO_SREG;
                o->sreg = ws_sregs[i].sreg;
                return 0;
            }
        snprintf(why, whyn, "unknown special register %s", p);
        return -1;
    }
    if (m == 2 && p[0] >= '1' && p[0] <= '3' && p[1] == 'D') { /* TEX/TLD: the dimension */
        o->kind = WS_SO_IMM;
        o->imm = p[0] - '0';
        return 0;
    }
    /* the other texture geometries: 4 + (cube, 1D array, 2D array, cube array) */
    static const char *const geometry[] = {"CUBE", "ARRAY_1D", "ARRAY_2D", "ARRAY_CUBE"};
    for (size_t i = 0; i < sizeof geometry / sizeof *geometry; i++)
        if (strcmp(p, geometry[i]) == 0) {
            o->kind = WS_SO_IMM;
            o->imm = 4 + (int64_t)i;
            return 0;
        }
    int sign = 0;   /* prefixes: - + ! ~ |..| */
    if (*p == '-') { sign = -1; p++; }
    else if (*p == '+') { sign = 1; p++; }
    if (*p == '!') { o->not_ = 1; p++; }
    else if (*p == '~') { o->not_ = 1; p++; }
    size_t len = strlen(p);
    if (*p == '|') {
        const char *bar = strchr(p + 1, '|');
        if (!bar || bar == p + 1) { snprintf(why, whyn, "unbalanced |"); return -1; }
        o->abs = 1;
        p++;
        len = (size_t)(bar - p);
        if (bar[1] != '\0') {   /* |R2|.H0_H0 */
            if (ws_selector(bar + 1, strlen(bar + 1), &o->sel) != 0) goto bad;
        }
    }
    if (len > 2 && (memcmp(p, "c[", 2) == 0 || memcmp(p, "cx[", 3) == 0)) {
        if (o->not_ || sign > 0 || (!o->abs && p[len] != '\0'))
            goto bad;
        o->neg = sign < 0;
        return ws_cbank(p, len, o, why, whyn);
    }
    int64_t v;
    double d;
    if (ws_hex(p, len, &v) == 0 && !o->abs && !o->not_ && sign != 1) {
        o->kind = WS_SO_IMM;
        o->imm = sign < 0 ? -v : v;
        return 0;
    }
    if (ws_float(p, len, &d) == 0 && !o->not_) {
        o->kind = WS_SO_FIMM;
        o->fimm = sign < 0 ? -d : d;
        return 0;
    }
    size_t rl = ws_reg_name(p, len, &o->kind, &o->reg);
    if (rl == 0 || sign > 0)
        goto bad;
    o->neg = sign < 0;
    if (rl < len) {
        if (o->kind != WS_SO_R && o->kind != WS_SO_UR) goto bad;
        if (len - rl == 3 && memcmp(p + rl, ".64", 3) == 0) o->wide = 1;
        else if (ws_selector(p + rl, len - rl, &o->sel) != 0) goto bad;
    }
    if (o->not_ && o->kind != WS_SO_P && o->kind != WS_SO_UP && o->kind != WS_SO_R &&
        o->kind != WS_SO_UR)
        goto bad;
    return 0;
bad:
    snprintf(why, whyn, "bad operand '%.*s'", (int)n, s);
    return -1;
}
