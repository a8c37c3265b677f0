/* The explorer's machine: thread stacks, monitors, and the stepping of one
 * thread from a visible action up to its next one.
 *
 * Copyright (C) 2026 the PathRelax authors. GPL-3.0-or-later.
 *
 * Each thread is one int64 array: a header, then its frames. A frame is
 * [caller method, caller pc, caller fp], the method's locals, then its
 * operand stack. Frame 0 starts at TH_HEADER, so a thread's registers stay
 * at th[TH_HEADER + FRAME_HEADER + slot] after it ends.
 */
#ifndef PATHRELAX_MACHINE_H
#define PATHRELAX_MACHINE_H

#include "pathrelax/explore.h"

enum { TS_NOT_STARTED, TS_READY, TS_ENDED, TS_DEAD };

enum {
    TH_STATUS,
    TH_METHOD,  /* method of the top frame */
    TH_PC,
    TH_FP,      /* index of the top frame */
    TH_SP,      /* first free word */
    TH_DEPTH,   /* frames above frame 0 */
    TH_ALLOCS,  /* objects allocated so far (the next allocation's seq) */
    TH_HEADER
};
#define FRAME_HEADER 3

typedef enum {
    STEP_OK,          /* the thread is parked at a visible action or ended */
    STEP_DISCARD,     /* assume false, or the model found the path ill-formed */
    STEP_CUT_UNROLL,  /* a loop ran past --unroll */
    STEP_CUT_DEPTH,   /* calls nested past EXPLORE_MAX_CALL_DEPTH */
    STEP_CUT_SIZE,    /* an array larger than MACHINE_MAX_ARRAY */
} StepResult;

/* Arrays longer than this are a resource limit, not a program error. */
#define MACHINE_MAX_ARRAY 4096

/* A violation found on the current path; under a model that holds
   violations it waits for the path's end. */
typedef struct {
    ViolationKind kind;
    int tid;
    int line;
    int detail;     /* assert index or ExceptionKind */
    size_t at;      /* events on the path when it happened */
} PathViolation;

typedef struct Machine {
    World *world;
    const Program *prog;
    const ModelOps *ops;
    Model *model;
    Trail *trail;
    EventLog *events;
    Result *result;
    int unroll;

    int n_tids;
    int64_t **th;         /* th[tid]: the thread's words */
    int *th_cap;

    bool *settled;        /* per global: no code but the initialisers writes
                             it, so once they have run it never changes */
    int64_t *frozen;      /* per object: its constructor has finished */
    int64_t *mon_owner;   /* per object: owning tid + 1, 0 when free */
    int64_t *mon_count;   /* per object: nesting of the owner's locks */
    int64_t mon_cap;
    int h_owner, h_count, h_frozen; /* trail handles */

    GArray *held;         /* PathViolation, the current path's, in order */
} Machine;

void machine_init(Machine *mc, World *w, const ModelOps *ops, Model *model, Trail *trail,
                  EventLog *events, Result *r, int unroll);
void machine_free(Machine *mc);
/* Puts every thread at its start (the initial thread ready, the others
   not started) and runs the initial thread to its first visible action. */
StepResult machine_start(Machine *mc);

/* How many ways thread tid can take its next step now (reads may have
   several choices; 0: it waits for a lock or a join). Fills *choices (grown
   as needed). MACHINE_NO_VALUE: it is at a read that can see no value on
   this path, which the model thereby rules out. */
#define MACHINE_NO_VALUE (-1)
int machine_thread_options(Machine *mc, int tid, ReadChoice **choices, int *choices_cap);
/* Performs thread tid's visible action (with choice for a read) and runs it
   up to its next visible action. */
StepResult machine_step(Machine *mc, int tid, const ReadChoice *choice);

static inline int machine_status(const Machine *mc, int tid) { return (int)mc->th[tid][TH_STATUS]; }
static inline int64_t machine_register(const Machine *mc, int tid, int slot)
{
    return mc->th[tid][TH_HEADER + FRAME_HEADER + slot];
}

/* Appends an event to the path's trace and returns it (rf INIT, no
   location: the caller completes it). */
Event *machine_event(Machine *mc, EventKind kind, int tid, int line);

/* Appends the machine's part of the state key; loop counters go to
   counters instead (state matching compares them by domination). */
void machine_key(Machine *mc, KeyBuf *key, GArray *counters);

/* Thread snapshots for backtracking: copies every thread's used words to
   the end of arena; machine_restore copies them back from offset, all of
   them, or only thread only's (when only >= 0: a step of thread t changes
   no other thread's words, except the initial thread's last step, which
   starts them all). */
void machine_snapshot(const Machine *mc, GArray *arena);
void machine_restore(Machine *mc, const GArray *arena, size_t offset, int only);

#endif
