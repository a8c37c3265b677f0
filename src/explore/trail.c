/* The undo trail shared by the explorer and the memory models.
 *
 * Copyright (C) 2026 the PathRelax authors. GPL-3.0-or-later.
 */
#include "pathrelax/world.h"

int trail_register(Trail *t, int64_t **array)
{
    g_assert(t->n_arrays < (int)G_N_ELEMENTS(t->arrays));
    t->arrays[t->n_arrays] = array;
    return t->n_arrays++;
}

void trail_undo(Trail *t, size_t mark)
{
    while (t->len > mark) {
        const TrailEntry *e = &t->entries[--t->len];
        (*t->arrays[e->array])[e->index] = e->old;
    }
}

void trail_clear(Trail *t)
{
    g_free(t->entries);
    *t = (Trail){0};
}
