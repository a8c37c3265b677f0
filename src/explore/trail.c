/* The undo trail shared by the explorer and the memory models.
 *
 * Copyright (C) 2026 the PathRelax authors. GPL-3.0-or-later.
 */
#include "pathrelax/world.h"

#include <string.h>

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

int64_t array_capacity(int64_t cap, int64_t need, int64_t min)
{
    if (cap < min)
        cap = min;
    while (cap < need)
        cap *= 2;
    return cap;
}

void array_grow(int64_t **a, int64_t old_n, int64_t new_n)
{
    *a = g_renew(int64_t, *a, new_n);
    memset(*a + old_n, 0, sizeof(int64_t) * (size_t)(new_n - old_n));
}
