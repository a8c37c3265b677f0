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

void trail_log_init(TrailLog *log, Trail *t, int entry_words)
{
    *log = (TrailLog){.entry = entry_words, .len = g_new0(int64_t, 1)};
    log->handle = trail_register(t, &log->len);
}

void trail_log_free(TrailLog *log)
{
    g_free(log->data);
    g_free(log->len);
}

int64_t *trail_log_append(TrailLog *log, Trail *t)
{
    int64_t n = *log->len;
    size_t need = (size_t)(n + 1) * (size_t)log->entry;
    if (need > log->cap) {
        log->cap = MAX(need, log->cap ? log->cap * 2 : 64 * (size_t)log->entry);
        log->data = g_renew(int64_t, log->data, log->cap);
    }
    trail_set(t, log->handle, 0, n + 1);
    return log->data + n * log->entry;
}
