/* Happens-before bookkeeping shared by the models that need it (jmm, and
 * sc when it looks for data races): every thread's vector clock, and the
 * clocks published by releases for later acquires.
 *
 * Copyright (C) 2026 the PathRelax authors. GPL-3.0-or-later.
 *
 * Synchronizes-with edges: an unlock to every later lock of the monitor,
 * a volatile write to every later volatile read of the location, the
 * initial thread's end to each thread's start, a thread's end to a join of
 * it. Everything lives in trail-registered arrays, so backtracking undoes
 * it with the rest of the search state.
 */
#ifndef PATHRELAX_HB_H
#define PATHRELAX_HB_H

#include "pathrelax/model.h"
#include "vclock.h"

typedef struct {
    World *world;
    Trail *trail;
    VClocks vc;
    int64_t *arena_len;  /* one word: the published clocks' arena length */
    int64_t *end_vc;     /* per thread: 1 + clock offset at its end, 0 before */
    int64_t *rel_vol;    /* per location: 1 + offset of the join of its
                            volatile writes */
    int64_t *rel_mon;    /* per object: 1 + offset of the join of its unlocks */
    Loc loc_cap;
    int64_t obj_cap;
    int h_len, h_end, h_vol, h_mon;
} Hb;

void hb_init(Hb *hb, World *world, Trail *trail);
void hb_free(Hb *hb);
/* Before a search: every thread at epoch 1, nothing published. */
void hb_begin(Hb *hb);
/* The synchronisation action kind by tid (SYNC_FREEZE orders nothing). */
void hb_sync(Hb *hb, int tid, SyncKind kind, int64_t arg);
void hb_volatile_read(Hb *hb, int tid, Loc loc);
void hb_volatile_write(Hb *hb, int tid, Loc loc);
/* Publishes tid's current clock; returns its arena offset (for a write's
   clock). */
int64_t hb_publish(Hb *hb, int tid);
bool hb_thread_ended(const Hb *hb, int tid);
/* The clocks, and the published ones still reachable, for a state key. */
void hb_key(Hb *hb, KeyBuf *key);

#endif
