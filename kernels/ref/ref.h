/* ref.h — the public face of kernels/ref: the built-in CPU references by name (the
 * `reference` line of a spec). kernels/ref depends on core; core does not know it, and
 * the CLI (which checks outputs) links both. */
#ifndef WS_REF_H
#define WS_REF_H

#include "core/core.h"

/* A built-in CPU reference computes, from the inputs in `expect` (a clone of the inputs),
 * the expected contents of every output buffer, in place. */
typedef int (*ws_reference_fn)(const ws_spec *s, const ws_variant *v, ws_buffers *expect,
                               ws_error *err);
/* The reference called `name`; NULL when there is none (or name is NULL). */
ws_reference_fn ws_reference_find(const char *name);

#endif
