/* registry.c — ws_reference_find: the table of built-in CPU references by name (the
 * `reference` line of a spec). One entry per reference; the references live beside. */
#include "kernels/ref/ref.h"

#include <string.h>

int ws_ref_branch_unification(const ws_spec *, const ws_variant *, ws_buffers *, ws_error *);
int ws_ref_dynamic_assignment(const ws_spec *, const ws_variant *, ws_buffers *, ws_error *);
int ws_ref_naive_reduction(const ws_spec *, const ws_variant *, ws_buffers *, ws_error *);
int ws_ref_tree_reduction(const ws_spec *, const ws_variant *, ws_buffers *, ws_error *);
int ws_ref_shuffle_reduction(const ws_spec *, const ws_variant *, ws_buffers *, ws_error *);
int ws_ref_divergence_examples(const ws_spec *, const ws_variant *, ws_buffers *, ws_error *);
int ws_ref_predication(const ws_spec *, const ws_variant *, ws_buffers *, ws_error *);
int ws_ref_histogram(const ws_spec *, const ws_variant *, ws_buffers *, ws_error *);
int ws_ref_himeno(const ws_spec *, const ws_variant *, ws_buffers *, ws_error *);
int ws_ref_himeno_omp(const ws_spec *, const ws_variant *, ws_buffers *, ws_error *);
int ws_ref_bfs(const ws_spec *, const ws_variant *, ws_buffers *, ws_error *);
int ws_ref_needleman_wunsch(const ws_spec *, const ws_variant *, ws_buffers *, ws_error *);
int ws_ref_hotspot(const ws_spec *, const ws_variant *, ws_buffers *, ws_error *);
int ws_ref_bitonic_sort(const ws_spec *, const ws_variant *, ws_buffers *, ws_error *);
int ws_ref_byte_histogram(const ws_spec *, const ws_variant *, ws_buffers *, ws_error *);

static const struct {
    const char *name;
    ws_reference_fn fn;
} ws_references[] = {
    {"branch_unification", ws_ref_branch_unification},
    {"dynamic_assignment", ws_ref_dynamic_assignment},
    {"naive_reduction", ws_ref_naive_reduction},
    {"tree_reduction", ws_ref_tree_reduction},
    {"shuffle_reduction", ws_ref_shuffle_reduction},
    {"divergence_examples", ws_ref_divergence_examples},
    {"predication", ws_ref_predication},
    {"histogram", ws_ref_histogram},
    {"himeno", ws_ref_himeno},
    {"himeno_omp", ws_ref_himeno_omp},
    {"bfs", ws_ref_bfs},
    {"needleman_wunsch", ws_ref_needleman_wunsch},
    {"hotspot", ws_ref_hotspot},
    {"bitonic_sort", ws_ref_bitonic_sort},
    {"byte_histogram", ws_ref_byte_histogram},
};

ws_reference_fn ws_reference_find(const char *name)
{
    if (!name)
        return NULL;
    for (size_t i = 0; i < sizeof ws_references / sizeof ws_references[0]; i++)
        if (strcmp(ws_references[i].name, name) == 0)
            return ws_references[i].fn;
    return NULL;
}
