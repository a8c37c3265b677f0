/* Happens-before bookkeeping: thread clocks and release clocks.
 *
 * Copyright (C) 2026 the PathRelax authors. GPL-3.0-or-later.
 */
#include "hb.h"

/* Locations and objects appear as the program allocates. */
static void ensure(Hb *hb)
{
    if (hb->world->n_locs > hb->loc_cap) {
        Loc cap = (Loc)array_capacity(hb->loc_cap, hb->world->n_locs, 64);
        array_grow(&hb->rel_vol, hb->loc_cap, cap);
        hb->loc_cap = cap;
    }
    if (hb->world->n_objs > hb->obj_cap) {
        int64_t cap = array_capacity(hb->obj_cap, hb->world->n_objs, 16);
        array_grow(&hb->rel_mon, hb->obj_cap, cap);
        hb->obj_cap = cap;
    }
}

void hb_init(Hb *hb, World *world, Trail *trail)
{
    *hb = (Hb){.world = world, .trail = trail};
    int n = world->n_tids;
    hb->vc.n = n;
    hb->vc.thread = g_new0(int64_t, n * n);
    hb->vc.h_thread = trail_register(trail, &hb->vc.thread);
    hb->arena_len = g_new0(int64_t, 1);
    hb->h_len = trail_register(trail, &hb->arena_len);
    hb->end_vc = g_new0(int64_t, n);
    hb->h_end = trail_register(trail, &hb->end_vc);
    hb->h_vol = trail_register(trail, &hb->rel_vol);
    hb->h_mon = trail_register(trail, &hb->rel_mon);
    ensure(hb);
}

void hb_free(Hb *hb)
{
    g_free(hb->vc.thread);
    g_free(hb->vc.arena);
    g_free(hb->arena_len);
    g_free(hb->end_vc);
    g_free(hb->rel_vol);
    g_free(hb->rel_mon);
}

void hb_begin(Hb *hb)
{
    ensure(hb);
    for (int t = 0; t < hb->vc.n; t++)
        trail_set(hb->trail, hb->vc.h_thread, (size_t)(t * hb->vc.n + t), 1);
}

int64_t hb_publish(Hb *hb, int tid)
{
    int64_t len = *hb->arena_len;
    int64_t off = vc_publish(&hb->vc, tid, &len);
    trail_set(hb->trail, hb->h_len, 0, len);
    return off;
}

/* Publishes tid's clock joined with the clock in a release slot (1 +
   offset, or 0), and returns the slot's new value. */
static int64_t publish_joined(Hb *hb, int tid, int64_t slot)
{
    int64_t off = hb_publish(hb, tid);
    if (slot) {
        const int64_t *old = vc_at(&hb->vc, slot - 1);
        int64_t *now = &hb->vc.arena[off];
        for (int u = 0; u < hb->vc.n; u++)
            now[u] = MAX(now[u], old[u]);
    }
    return off + 1;
}

static void acquire(Hb *hb, int tid, int64_t slot)
{
    if (slot)
        vc_acquire(&hb->vc, hb->trail, tid, slot - 1);
}

void hb_sync(Hb *hb, int tid, SyncKind kind, int64_t arg)
{
    ensure(hb);
    switch (kind) {
    case SYNC_START:
        acquire(hb, tid, hb->end_vc[0]);
        break;
    case SYNC_JOIN:
        acquire(hb, tid, hb->end_vc[arg]);
        break;
    case SYNC_LOCK:
        acquire(hb, tid, hb->rel_mon[arg]);
        break;
    case SYNC_UNLOCK:
        vc_tick(&hb->vc, hb->trail, tid);
        trail_set(hb->trail, hb->h_mon, (size_t)arg, publish_joined(hb, tid, hb->rel_mon[arg]));
        break;
    case SYNC_END:
        vc_tick(&hb->vc, hb->trail, tid);
        trail_set(hb->trail, hb->h_end, (size_t)tid, publish_joined(hb, tid, 0));
        break;
    default:
        break; /* a freeze, or a fence, orders nothing by itself */
    }
}

void hb_volatile_read(Hb *hb, int tid, Loc loc)
{
    ensure(hb);
    acquire(hb, tid, hb->rel_vol[loc]);
}

void hb_volatile_write(Hb *hb, int tid, Loc loc)
{
    ensure(hb);
    vc_tick(&hb->vc, hb->trail, tid);
    trail_set(hb->trail, hb->h_vol, (size_t)loc, publish_joined(hb, tid, hb->rel_vol[loc]));
}

bool hb_thread_ended(const Hb *hb, int tid) { return hb->end_vc[tid] != 0; }

static void key_slots(Hb *hb, KeyBuf *key, const int64_t *slots, int64_t n)
{
    for (int64_t i = 0; i < n; i++) {
        if (!slots[i])
            continue;
        key_put(key, i);
        const int64_t *clock = vc_at(&hb->vc, slots[i] - 1);
        for (int u = 0; u < hb->vc.n; u++)
            key_put(key, clock[u]);
    }
    key_put(key, -1);
}

void hb_key(Hb *hb, KeyBuf *key)
{
    ensure(hb);
    for (int i = 0; i < hb->vc.n * hb->vc.n; i++)
        key_put(key, hb->vc.thread[i]);
    key_slots(hb, key, hb->rel_mon, hb->world->n_objs);
    key_slots(hb, key, hb->rel_vol, hb->world->n_locs);
    key_slots(hb, key, hb->end_vc, hb->vc.n);
}
