/* The set of visited states: open addressing over exact keys.
 *
 * Copyright (C) 2026 the PathRelax authors. GPL-3.0-or-later.
 */
#include "visited.h"

#include <string.h>

static uint64_t hash_bytes(const uint8_t *p, size_t n)
{
    /* 64-bit FNV-1a over 8-byte words, then a final avalanche. */
    uint64_t h = 0xcbf29ce484222325ull ^ n;
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        uint64_t w;
        memcpy(&w, p + i, 8);
        h = (h ^ w) * 0x100000001b3ull;
        h ^= h >> 29;
    }
    for (; i < n; i++)
        h = (h ^ p[i]) * 0x100000001b3ull;
    h ^= h >> 33;
    h *= 0xff51afd7ed558ccdull;
    h ^= h >> 33;
    return h;
}

void visited_init(Visited *v)
{
    v->cap = 1024;
    v->table = g_new0(uint32_t, v->cap);
    v->entries = g_array_new(FALSE, FALSE, sizeof(VisitedEntry));
    v->bytes = g_byte_array_new();
}

void visited_free(Visited *v)
{
    g_free(v->table);
    g_array_free(v->entries, TRUE);
    g_byte_array_unref(v->bytes);
    *v = (Visited){0};
}

size_t visited_count(const Visited *v) { return v->entries->len; }

size_t visited_bytes(const Visited *v)
{
    return v->cap * sizeof(uint32_t) + v->entries->len * sizeof(VisitedEntry) + v->bytes->len;
}

static VisitedEntry *entry_at(const Visited *v, uint32_t i)
{
    return &g_array_index(v->entries, VisitedEntry, i);
}

static void grow(Visited *v)
{
    size_t cap = v->cap * 2;
    uint32_t *table = g_new0(uint32_t, cap);
    for (uint32_t i = 0; i < v->entries->len; i++) {
        size_t j = entry_at(v, i)->hash & (cap - 1);
        while (table[j])
            j = (j + 1) & (cap - 1);
        table[j] = i + 1;
    }
    g_free(v->table);
    v->table = table;
    v->cap = cap;
}

static uint32_t store_counters(Visited *v, const GArray *counters)
{
    uint32_t off = v->bytes->len;
    g_byte_array_append(v->bytes, (const guint8 *)counters->data, counters->len * sizeof(int32_t));
    return off;
}

static int32_t counter_at(const Visited *v, uint32_t off, uint32_t i)
{
    int32_t c;
    memcpy(&c, v->bytes->data + off + i * sizeof(int32_t), sizeof c);
    return c;
}

/* Every stored counter is at or below the current one. */
static bool dominates(const Visited *v, const VisitedEntry *e, const GArray *counters)
{
    const int32_t *now = (const int32_t *)(const void *)counters->data;
    for (uint32_t i = 0; i < e->ctr_len; i++)
        if (counter_at(v, e->ctr_off, i) > now[i])
            return false;
    return true;
}

bool visited_check_insert(Visited *v, const uint8_t *key, size_t key_len, const GArray *counters,
                          uint32_t *entry, uint32_t *ctr_off)
{
    if ((v->entries->len + 1) * 4 > v->cap * 3)
        grow(v);
    uint64_t h = hash_bytes(key, key_len);
    size_t j = h & (v->cap - 1);
    for (; v->table[j]; j = (j + 1) & (v->cap - 1)) {
        uint32_t i = v->table[j] - 1;
        VisitedEntry *e = entry_at(v, i);
        if (e->hash != h || e->key_len != key_len ||
            memcmp(v->bytes->data + e->key_off, key, key_len) != 0)
            continue;
        /* Same key means same frames, so the counter vectors line up. */
        if (dominates(v, e, counters))
            return true;
        e->ctr_off = store_counters(v, counters);
        *entry = i;
        *ctr_off = e->ctr_off;
        return false;
    }
    VisitedEntry e = {.hash = h, .key_off = v->bytes->len, .key_len = (uint32_t)key_len,
                      .ctr_len = counters->len};
    g_byte_array_append(v->bytes, key, (guint)key_len);
    e.ctr_off = store_counters(v, counters);
    *entry = v->entries->len;
    *ctr_off = e.ctr_off;
    g_array_append_val(v->entries, e);
    v->table[j] = *entry + 1;
    return false;
}

bool visited_reexplored_with_more_budget(const Visited *v, uint32_t entry, uint32_t ctr_off)
{
    const VisitedEntry *e = entry_at(v, entry);
    if (e->ctr_off == ctr_off)
        return false;
    for (uint32_t i = 0; i < e->ctr_len; i++)
        if (counter_at(v, e->ctr_off, i) > counter_at(v, ctr_off, i))
            return false;
    return true;
}

bool visited_nearly_full(const Visited *v)
{
    /* Room for one more key of any sensible size (1 MiB) and its counters. */
    return v->bytes->len > UINT32_MAX - (1u << 20) || v->entries->len > UINT32_MAX / 2;
}
