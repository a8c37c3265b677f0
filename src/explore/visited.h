/* The set of visited states, for state matching.
 *
 * Copyright (C) 2026 the PathRelax authors. GPL-3.0-or-later.
 *
 * A state is its key (the bytes that decide its future, loop counters
 * apart) plus its loop counters. Keys are stored whole and compared
 * exactly, so matching never merges two different states. A revisit is
 * pruned only when the stored visit had every loop counter at or below
 * this one's: it then had at least as much unroll budget left, so its
 * subtree covers this one's. Otherwise the state is explored again and its
 * stored counters become the new ones.
 */
#ifndef PATHRELAX_VISITED_H
#define PATHRELAX_VISITED_H

#include <glib.h>
#include <stdbool.h>
#include <stdint.h>

typedef struct {
    uint64_t hash;
    uint32_t key_off, key_len;
    uint32_t ctr_off, ctr_len;  /* counters of the latest exploration */
} VisitedEntry;

typedef struct {
    GArray *entries;      /* VisitedEntry; an entry's index never changes */
    uint32_t *table;      /* open addressing: entry index + 1, 0 when empty */
    size_t cap;
    GByteArray *bytes;    /* keys, and every counter vector ever stored */
} Visited;

void visited_init(Visited *v);
void visited_free(Visited *v);
size_t visited_count(const Visited *v);

/* Returns true when the state was visited with no more budget used than
   now (prune it). Otherwise records it (or its new counters) and returns
   false; *entry and *ctr_off then say where. */
bool visited_check_insert(Visited *v, const uint8_t *key, size_t key_len, const GArray *counters,
                          uint32_t *entry, uint32_t *ctr_off);

/* Whether the latest exploration of entry had counters at or below those
   stored at ctr_off, and differed from them: it then had more budget. */
bool visited_reexplored_with_more_budget(const Visited *v, uint32_t entry, uint32_t ctr_off);

/* Whether the set nears the 4 GiB its 32-bit offsets can address: the
   search must stop (a memory limit) before storing more. */
bool visited_nearly_full(const Visited *v);

/* Bytes held, for the memory figure. */
size_t visited_bytes(const Visited *v);

#endif
