/* Vector clocks for happens-before, kept in trail-friendly int64 arrays.
 *
 * Copyright (C) 2026 the PathRelax authors. GPL-3.0-or-later.
 *
 * A thread's epoch counts its release actions (unlock, volatile write,
 * thread end), starting at 1. An action of thread u done at epoch e
 * happens-before an action b of another thread exactly when b's clock has
 * seen a later epoch of u: clock_b[u] > e. A release first increments the
 * releasing thread's epoch, then publishes its clock; so what u did before
 * the release is seen by every acquirer, and what it does after is not.
 * Reads and writes do not move the epoch, so a thread that only re-reads
 * memory comes back to the same clock, and state matching can end a spin.
 *
 * Clocks that must outlive a step (of a write, of a release) live in an
 * append-only arena: a clock is its offset there, and backtracking just
 * shortens the arena.
 */
#ifndef PATHRELAX_VCLOCK_H
#define PATHRELAX_VCLOCK_H

#include "pathrelax/world.h"

#include <string.h>

typedef struct {
    int n;              /* entries per clock: one per thread */
    int64_t *thread;    /* n*n: thread t's clock at [t*n .. t*n+n) */
    int h_thread;       /* trail handle */
    int64_t *arena;     /* published clocks */
    size_t arena_cap;
} VClocks;

static inline int64_t *vc_of_thread(const VClocks *vc, int t) { return &vc->thread[t * vc->n]; }
static inline int64_t vc_epoch(const VClocks *vc, int t) { return vc->thread[t * vc->n + t]; }
static inline const int64_t *vc_at(const VClocks *vc, int64_t off) { return &vc->arena[off]; }

/* Copies thread t's clock to the arena at *len (which grows); returns its
   offset. The caller keeps *len on the trail. */
static inline int64_t vc_publish(VClocks *vc, int t, int64_t *len)
{
    if ((size_t)(*len + vc->n) > vc->arena_cap) {
        vc->arena_cap = vc->arena_cap ? vc->arena_cap * 2 : 1024;
        vc->arena = g_renew(int64_t, vc->arena, vc->arena_cap);
    }
    int64_t off = *len;
    memcpy(&vc->arena[off], vc_of_thread(vc, t), sizeof(int64_t) * (size_t)vc->n);
    *len += vc->n;
    return off;
}

/* Thread t acquires the published clock at off: elementwise max. */
static inline void vc_acquire(VClocks *vc, Trail *trail, int t, int64_t off)
{
    const int64_t *src = vc_at(vc, off);
    for (int u = 0; u < vc->n; u++)
        if (src[u] > vc->thread[t * vc->n + u])
            trail_set(trail, vc->h_thread, (size_t)(t * vc->n + u), src[u]);
}

/* A release by t: its epoch moves on. */
static inline void vc_tick(VClocks *vc, Trail *trail, int t)
{
    trail_set(trail, vc->h_thread, (size_t)(t * vc->n + t), vc_epoch(vc, t) + 1);
}

/* Whether an action of thread u at epoch e happens-before the current
   point of thread t (u != t). */
static inline bool vc_seen_by(const VClocks *vc, int u, int64_t e, int t)
{
    return vc->thread[t * vc->n + u] > e;
}

#endif
