/* sass_parse.h — private to the SASS parser's two files: sass_parse.c reads lines,
 * sections, labels and line info; sass_parse_opnd.c reads one instruction's opcode,
 * modifiers and operands. */
#ifndef WS_SIM_SASS_PARSE_H
#define WS_SIM_SASS_PARSE_H

#include <stddef.h>
#include "sim/sass_ir.h"

/* Names an operand refers to, resolved by the caller once the section is read. */
typedef struct ws_sass_ref {
    char name[WS_SASS_SYM_MAX]; /* LABEL: the label; RELOC: the symbol */
    char label[64];   /* RELOC of the form (sym + .L_x_N@srel): the label; else "" */
} ws_sass_ref;

/* Parses the operand text [s, s+n) (trimmed, `.reuse` allowed) into o. On error returns
 * -1 with a short reason in why. */
int ws_sass_parse_opnd(const char *s, size_t n, ws_sass_opnd *o, ws_sass_ref *ref,
                       char *why, size_t whyn);
/* Splits "OPCODE.MOD.MOD" into in->op, in->mods and the cmp/boolop/rnd/dtype/stype
 * fields, and in->name; returns 0, or -1 when the opcode is not in the table. */
int ws_sass_parse_opcode(const char *s, size_t n, ws_sass_inst *in);
/* Splits the operand list [s, s+n) at top-level commas and blanks into at most max
 * pieces (start, length); returns the count, or -1 when there are more than max or a
 * bracket is unbalanced. */
int ws_sass_split_opnds(const char *s, size_t n, const char **start, size_t *len, int max);

#endif
