/* PathRelax memory models: what a read may see, what a write does, what a
 * synchronisation action orders, and when a path is ill-formed.
 *
 * Copyright (C) 2026 the PathRelax authors. GPL-3.0-or-later.
 *
 * The explorer knows nothing of any particular model. It calls these
 * operations at each visible action; a model keeps its per-path state in
 * arrays registered with the shared Trail, so the explorer's backtracking
 * (trail_undo) undoes the model too, and no model has an undo of its own.
 */
#ifndef PATHRELAX_MODEL_H
#define PATHRELAX_MODEL_H

#include "pathrelax/world.h"

/* One entry of a path's trace, written by the explorer and completed by the
   model (rf, id, future). */
typedef enum {
    EV_READ,
    EV_WRITE,
    EV_LOCK,
    EV_UNLOCK,
    EV_JOIN,
    EV_END,       /* a thread's last action (normal end or uncaught exception) */
    EV_FLUSH,     /* a buffered write reaches memory (tso, pso) */
    EV_ASSERT,    /* a failed assert */
    EV_EXCEPTION, /* an uncaught run-time exception */
} EventKind;

#define RF_INIT (-1)     /* the read saw a location's default value */
#define RF_PENDING (-2)  /* the read saw a write that has not happened yet */

typedef struct {
    uint8_t kind;         /* EventKind */
    bool is_volatile;
    bool future;          /* a read of a write later on the path (jmm) */
    bool buffered;        /* a write that went to a store buffer (tso, pso) */
    int32_t tid;
    int32_t line;
    Loc loc;              /* LOC_NONE for actions on no location */
    int64_t value;
    int32_t rf;           /* reads: index of the event that wrote the value
                             seen, RF_INIT, or RF_PENDING until resolved */
    int64_t arg;          /* lock/unlock: object; join: thread; flush: the
                             index of the buffered write event */
    uint64_t id;          /* the model's action id (jmm), 0 when unused */
    int32_t msg;          /* assert: index into Program.asserts;
                             exception: ExceptionKind */
} Event;

typedef struct {
    Event *v;
    size_t len, cap;
} EventLog;

/* Synchronisation actions reported to the model. */
typedef enum {
    SYNC_START,   /* arg: the starting thread's tid; called as that thread */
    SYNC_END,     /* the thread's last action */
    SYNC_JOIN,    /* arg: the joined thread's tid */
    SYNC_LOCK,    /* arg: object id (outermost acquisition only) */
    SYNC_UNLOCK,  /* arg: object id (outermost release only) */
    SYNC_FREEZE,  /* arg: object id; end of a constructor with final fields */
    SYNC_FENCE,   /* before an atomic step (compareAndSet, getAndIncrement):
                     a full fence, orders nothing by itself */
} SyncKind;

/* A value a read may return, and which write gives it (model-private). */
typedef struct {
    int64_t value;
    int64_t token;
} ReadChoice;

/* A model-internal step, a choice point of the search: for tso a flush of
   thread tid's oldest buffered write; for pso of its write to loc. */
typedef struct {
    int32_t tid;
    Loc loc;
} ModelMove;

/* A state key under construction: bytes appended by key_put. */
typedef struct {
    uint8_t *data;
    size_t len, cap;
} KeyBuf;

void key_grow(KeyBuf *key);

/* Appends a value as a zig-zag varint (small values take one byte). */
static inline void key_put(KeyBuf *key, int64_t v)
{
    if (key->len + 10 > key->cap)
        key_grow(key);
    uint64_t z = ((uint64_t)v << 1) ^ (uint64_t)(v >> 63);
    uint8_t *p = key->data + key->len;
    while (z >= 0x80) {
        *p++ = (uint8_t)(z | 0x80);
        z >>= 7;
    }
    *p++ = (uint8_t)z;
    key->len = (size_t)(p - key->data);
}

typedef struct Model Model;   /* each model defines its own */
typedef struct Result Result; /* result.h */

typedef struct ModelEnv {
    World *world;
    Trail *trail;
    EventLog *events;     /* the current path's trace, read-only to models
                             except for the event being completed and the
                             rf of earlier reads (resolved at path end) */
    bool drf_shortcut;    /* jmm: answer a data-race-free program by its
                             SC executions */
    bool track_races;     /* sc: report every data race to result */
    Result *result;
} ModelEnv;

typedef struct ModelOps {
    const char *name;
    /* Failed asserts, exceptions and deadlocks are held until the path ends
       and reported only when path_end() finds it well formed (jmm). */
    bool holds_violations;

    Model *(*create)(const ModelEnv *env);
    void (*destroy)(Model *m);

    /* Before one search: reset the per-path state to the empty path. */
    void (*begin)(Model *m);
    /* After it. */
    void (*finish)(Model *m);

    /* The values a read of loc by tid may return now. Writes at most cap
       choices and returns how many there are; if that is more than cap,
       the caller calls again with room for all. Zero means the read
       cannot happen on this path (the path is discarded). */
    int (*read_choices)(Model *m, int tid, Loc loc, ReadChoice *out, int cap);
    /* Performs the read with one of those choices; completes ev
       (rf, id, future). */
    void (*read)(Model *m, int tid, Loc loc, const ReadChoice *c, Event *ev);
    /* Performs a write; completes ev. Returns false when the write makes
       the path ill-formed (the path is discarded). */
    bool (*write)(Model *m, int tid, Loc loc, int64_t value, Event *ev);
    /* A synchronisation action; ev is NULL for SYNC_START, SYNC_FREEZE
       and SYNC_FENCE. Returns false when it makes the path ill-formed. */
    bool (*sync)(Model *m, int tid, SyncKind kind, int64_t arg, Event *ev);

    /* Model-internal steps enabled now (may be NULL: none). Same protocol
       as read_choices. */
    int (*moves)(Model *m, ModelMove *out, int cap);
    void (*apply_move)(Model *m, const ModelMove *mv, Event *ev);

    /* Every thread has ended, or the path deadlocked: returns whether the
       path is well formed (a legal execution). */
    bool (*path_end)(Model *m);
    /* At a well-formed path end: the values a reader that joined every
       thread may read from loc. Same protocol as read_choices; at least
       one value. */
    int (*final_values)(Model *m, Loc loc, int64_t *out, int cap);

    /* After a search: whether the model needs another (jmm: the WriteSet
       grew). NULL: one search is the answer. The model may record its
       figures (iterations, WriteSet size) in r. */
    bool (*another_round)(Model *m, Result *r);

    /* Appends to key everything of the model's per-path state that decides
       the future of the search (state matching). */
    void (*key)(Model *m, KeyBuf *key);
} ModelOps;

extern const ModelOps model_sc;
extern const ModelOps model_jmm;
extern const ModelOps model_tso;
extern const ModelOps model_pso;

/* The model named name ("sc", ...), or NULL. */
const ModelOps *model_find(const char *name);
/* Comma-separated names of the models built in, for --help. */
const char *model_names(void);


#endif
