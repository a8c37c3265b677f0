/* PathRelax: the world of one program under exploration: threads, objects
 * and memory locations with dense ids, and the undo trail that the
 * explorer and the memory models share.
 *
 * Copyright (C) 2026 the PathRelax authors. GPL-3.0-or-later.
 *
 * Thread ids: 0 is the initial thread (it runs the global initialisers and
 * then starts every declared thread); tid i >= 1 is Program.threads[i-1].
 *
 * Objects are named by their allocation: the seq-th allocation of thread
 * tid, with its class or array type and length. That name is the same in
 * every interleaving and every JMM round, so an object id, and the
 * location ids of its fields, can be compared across paths and rounds
 * (the action-id scheme of the JPR paper, Section III, applied to objects).
 * Objects are interned once and never collected (JPR Section IV.C).
 *
 * Locations: 0 .. n_globals-1 are the globals; each object then owns a
 * contiguous block (its fields, or its elements).
 */
#ifndef PATHRELAX_WORLD_H
#define PATHRELAX_WORLD_H

#include "pathrelax/compile.h"

typedef int32_t Loc;
#define LOC_NONE (-1)

typedef struct {
    int tid;          /* allocating thread */
    int seq;          /* allocation number within that thread, from 0 */
    int class_index;  /* >= 0 for objects, -1 for arrays */
    int type_index;   /* arrays: index into Program.types */
    int64_t length;   /* arrays: element count */
    Loc loc_base;     /* first location of the object */
} ObjInfo;

typedef struct {
    int64_t obj;      /* 0 for a global */
    int index;        /* global index, field index or element index */
    bool is_volatile;
    bool is_final;
    bool is_sc;       /* jmm with --relax: reads see the last write, as sc */
} LocInfo;

/* The static name of a location, the one races and advice speak of: a
   global, a field of a class (of every object of it), or the elements of
   one array. Encoded in one int64: a global is its index; a field is
   STATIC_FIELD | class << 20 | field; elements are STATIC_ELEMS | object. */
typedef int64_t StaticLoc;
#define STATIC_FIELD ((int64_t)1 << 40)
#define STATIC_ELEMS ((int64_t)2 << 40)

/* ---- undo trail -------------------------------------------------------
 * Every change to search state that outlives a step goes through the
 * trail, so that backtracking is trail_undo() to a mark. Arrays are
 * registered once by the address of their pointer, so they may be
 * reallocated while the trail refers to them. */
typedef struct {
    uint32_t array;
    uint32_t index;
    int64_t old;
} TrailEntry;

typedef struct {
    int64_t **arrays[64];
    int n_arrays;
    TrailEntry *entries;
    size_t len, cap;
} Trail;

int trail_register(Trail *t, int64_t **array);
static inline void trail_set(Trail *t, int array, size_t index, int64_t value)
{
    int64_t *a = *t->arrays[array];
    if (a[index] == value)
        return;
    if (t->len == t->cap) {
        t->cap = t->cap ? t->cap * 2 : 1024;
        t->entries = g_renew(TrailEntry, t->entries, t->cap);
    }
    t->entries[t->len++] = (TrailEntry){(uint32_t)array, (uint32_t)index, a[index]};
    a[index] = value;
}
static inline size_t trail_mark(const Trail *t) { return t->len; }

/* An append-only log of fixed-size entries whose length is on the trail:
   backtracking shortens it, and entries past the length are left to be
   overwritten by later appends. The log must not move once initialised
   (the trail holds the address of its length). */
typedef struct {
    int64_t *data;
    size_t cap;           /* in words */
    int entry;            /* words per entry */
    int64_t *len;         /* one word, registered on the trail */
    int handle;           /* its trail handle */
} TrailLog;

void trail_log_init(TrailLog *log, Trail *t, int entry_words);
void trail_log_free(TrailLog *log);
/* Room for one more entry, counted in the length; the caller fills it. */
int64_t *trail_log_append(TrailLog *log, Trail *t);
static inline int64_t trail_log_len(const TrailLog *log) { return *log->len; }
static inline int64_t *trail_log_at(const TrailLog *log, int64_t i)
{
    return log->data + i * log->entry;
}

/* Per-location and per-object arrays grow as the program allocates:
   array_capacity gives the doubled capacity (at least min) that covers
   need; array_grow reallocates a[0..old_n) to new_n, zero-filling the rest
   (a trail-registered array may move: the trail holds its address). */
int64_t array_capacity(int64_t cap, int64_t need, int64_t min);
void array_grow(int64_t **a, int64_t old_n, int64_t new_n);
void trail_undo(Trail *t, size_t mark);
void trail_clear(Trail *t);

/* ---- the world ------------------------------------------------------ */

typedef struct World {
    const Program *prog;
    int n_tids;           /* 1 + prog->n_threads */

    ObjInfo *objs;        /* index = object id; objs[0] unused (null) */
    int64_t n_objs;       /* ids 1 .. n_objs-1 are in use */
    int64_t objs_cap;
    GHashTable *obj_index; /* allocation name -> object id */
    int64_t *global_ref;  /* per global: the object or array the initial
                               thread stored in it last, 0 if none */
    const char *const *want_volatile; /* requests not yet resolved */
    const char *want_relax;
    const char *unresolved;  /* a requested name that names nothing */

    LocInfo *locs;
    Loc n_locs;
    Loc locs_cap;

    /* Changes asked for on the command line (--volatile, --relax), by
       static location; applied to every location as it is created. */
    GHashTable *make_volatile;   /* StaticLoc set */
    GHashTable *relax_only;      /* StaticLoc set; NULL: relax everything */
} World;

World *world_new(const Program *prog);
void world_free(World *w);

/* The object allocated as the seq-th allocation of tid with that shape;
   created (with fresh locations) the first time it is asked for. */
int64_t world_intern_object(World *w, int tid, int seq, int class_index,
                            int type_index, int64_t length);

static inline Loc world_field_loc(const World *w, int64_t obj, int index)
{
    return w->objs[obj].loc_base + index;
}

/* How many locations an object has: its fields, or its elements. */
static inline int64_t world_obj_size(const World *w, int64_t obj)
{
    const ObjInfo *o = &w->objs[obj];
    return o->class_index >= 0 ? w->prog->classes[o->class_index].n_fields : o->length;
}

StaticLoc world_static_loc(const World *w, Loc loc);
/* "x", "Helper.x", "flag[]" (elements of the array a global was
   initialised with) or "int[]@T1.0[]". */
char *world_static_loc_name(const World *w, StaticLoc s);
/* Finds a static location by its name as a user writes it: "x", "C.f", or
   "g[]" for the elements of the array global g holds after the
   initialiser. Returns false when there is none. Array names resolve only
   once the initial thread has run (world_note_init_write). */
bool world_parse_static_loc(const World *w, const char *name, StaticLoc *out);
/* The initial thread wrote value to global g (arrays a global holds are
   named after it; objects it holds can be named by it, as locks). */
void world_note_init_write(World *w, int global, int64_t value);
/* Names of static locations to make volatile or to relax, resolved once
   the initial thread has run (array names need it). */
void world_request(World *w, const char *const *make_volatile, const char *relax);
/* Resolves the requests; the first name that names nothing, or NULL. */
const char *world_resolve_requests(World *w);

/* Marks a static location volatile (--volatile), or as the only one the
   jmm model relaxes (--relax); both apply to locations created later and
   to those existing now. */
void world_make_volatile(World *w, StaticLoc s);
void world_relax_only(World *w, StaticLoc s);

/* The declared type of what a location holds. */
const Type *world_loc_type(const World *w, Loc loc);

/* The value of a shown location that does not exist in a final state: a
   step through null, or past an array's end (p.f with p null, a[5] of a
   2-element array). It prints as "undefined", and every comparison with it
   is false. No int, boolean or reference holds this value; a long can, so
   for a long location it is just the least long. */
#define VALUE_UNDEFINED INT64_MIN

static inline bool world_value_undefined(const Type *type, int64_t value)
{
    return value == VALUE_UNDEFINED && !(type && type->kind == TY_LONG);
}

/* "T1", "init" */
const char *world_thread_name(const World *w, int tid);
/* Location as a user reads it: "x", "Helper@T1.0.val", "int[]@init.0[1]". */
char *world_loc_name(const World *w, Loc loc);
/* A value of the given type as a user reads it: 5, true, null, Helper@T1.0 */
char *world_value_string(const World *w, const Type *type, int64_t value);
/* The name of an object: "Helper@T1.0" */
char *world_obj_name(const World *w, int64_t obj);

#endif
