/* types.c — the element types of argument buffers: names, sizes, parsing.
 * Nothing about values or generators lives here. */
#include "core/core.h"

#include <string.h>

static const struct {
    const char *name;
    size_t size;
    int is_float;
} ws_types[WS_T__COUNT] = {
    [WS_T_I8] = {"i8", 1, 0},   [WS_T_U8] = {"u8", 1, 0},   [WS_T_I16] = {"i16", 2, 0},
    [WS_T_U16] = {"u16", 2, 0}, [WS_T_I32] = {"i32", 4, 0}, [WS_T_U32] = {"u32", 4, 0},
    [WS_T_I64] = {"i64", 8, 0}, [WS_T_U64] = {"u64", 8, 0}, [WS_T_F32] = {"f32", 4, 1},
    [WS_T_F64] = {"f64", 8, 1},
};

size_t ws_type_size(ws_type t)
{
    return (unsigned)t < WS_T__COUNT ? ws_types[t].size : 0;
}

const char *ws_type_name(ws_type t)
{
    return (unsigned)t < WS_T__COUNT ? ws_types[t].name : "?";
}

int ws_type_parse(const char *s, ws_type *t)
{
    for (int i = 0; i < WS_T__COUNT; i++) {
        if (strcmp(s, ws_types[i].name) == 0) {
            *t = (ws_type)i;
            return 0;
        }
    }
    return -1;
}

int ws_type_is_float(ws_type t)
{
    return (unsigned)t < WS_T__COUNT ? ws_types[t].is_float : 0;
}
