/* PathRelax results: the final states, the condition's verdict, the
 * violations with their traces, and the figures of one run on one file.
 *
 * Copyright (C) 2026 the PathRelax authors. GPL-3.0-or-later.
 */
#ifndef PATHRELAX_RESULT_H
#define PATHRELAX_RESULT_H

#include "pathrelax/model.h"

typedef enum {
    VIOL_ASSERT,
    VIOL_EXCEPTION,
    VIOL_DEADLOCK,
} ViolationKind;

typedef enum {
    EXC_NULL_POINTER,
    EXC_ARRAY_INDEX,
    EXC_ARITHMETIC,
    EXC_NEGATIVE_ARRAY_SIZE,
} ExceptionKind;

const char *exception_name(ExceptionKind k);   /* "NullPointerException" */
const char *violation_kind_name(ViolationKind k); /* "assert", "exception", "deadlock" */

typedef struct {
    ViolationKind kind;
    int tid;              /* the failing thread; deadlock: -1 */
    int line;             /* deadlock: 0 */
    char *message;        /* "assertion failed: x == 1", "NullPointerException", ... */
    Event *trace;         /* the first path found that shows it */
    size_t trace_len;
    uint64_t count;       /* executions that show it */
    GArray *relaxed;      /* StaticLoc: locations some execution showing it
                             read other than as sc would (when tagged) */
} Violation;

typedef struct {
    int64_t *values;      /* one per shown location (Ast.shown) */
    uint64_t count;       /* how many times a path ended in it */
} FinalState;

/* One side of a data race: a thread's access to the location. */
typedef struct {
    int tid;
    int line;
    bool is_write;
    int64_t lock;         /* the innermost monitor held (object id), or 0 */
} RaceAccess;

typedef enum {
    RACE_UNCLASSIFIED,
    RACE_BENIGN,       /* the jmm search completed without a failure it causes */
    RACE_DESTRUCTIVE,  /* some failure happens under jmm, not under sc, on an
                          execution where a read of the location saw a write
                          sc would not give it */
    RACE_UNDECIDED,    /* a bound cut the jmm search */
} RaceClass;

typedef struct {
    char *text;           /* "make flag volatile" */
    char *change;         /* the change applied to check it: "--volatile flag" */
    bool verified;        /* re-checking with the change removes the race and
                             the failure */
    char *reason;         /* why it is or is not enough */
} Advice;

/* A data race between two statements, found on some SC execution. */
typedef struct {
    StaticLoc loc;
    char *loc_name;
    RaceAccess source;    /* the write of the pair (the earlier of two writes) */
    RaceAccess manifest;  /* the other access */
    Event *trace;         /* the first execution found that shows it, up to
                             the second access */
    size_t trace_len;
    RaceClass cls;
    GPtrArray *advice;    /* Advice* */
} Race;

/* Figures of one search (one JMM round, or the only search of sc). */
typedef struct {
    uint64_t executions;      /* complete well-formed paths */
    uint64_t states_visited;  /* distinct states stored */
    uint64_t transitions;
    uint64_t discarded;       /* paths dropped: assume false, ill-formed */
    uint64_t cut_unroll;      /* paths cut by --unroll */
    uint64_t cut_depth;       /* paths cut by the call-depth limit */
    uint64_t cut_size;        /* paths cut by the array-size limit */
    double seconds;
} SearchStats;

/* Paths cut by any bound. */
static inline uint64_t search_stats_cut(const SearchStats *s)
{
    return s->cut_unroll + s->cut_depth + s->cut_size;
}

typedef enum {
    LIMIT_NONE,
    LIMIT_STATES,     /* --max-states reached */
    LIMIT_TIME,       /* --timeout reached */
    LIMIT_MEMORY,     /* --max-memory reached */
    LIMIT_VIOLATION,  /* --stop-on-violation: stopped at the first one */
} LimitHit;

/* JRF-E's acquiring history: on some SC execution, a thread's access to
   loc was ordered after another thread's conflicting access by an acquire
   it had performed: joining thread target, or reading volatile global
   target. */
typedef enum { ACQUIRE_JOIN, ACQUIRE_READ } AcquireKind;
typedef struct {
    StaticLoc loc;
    AcquireKind kind;
    int target;
} Acquire;

/* One legal execution, for --list-executions and --dot. */
typedef struct {
    Event *events;        /* the whole path, initial thread included; reads of
                             future writes have their rf resolved */
    size_t len;
    int64_t *states;      /* its final states: n_states tuples, each of
                             Ast.shown->len values (several under jmm) */
    guint n_states;
} Execution;

typedef struct Result {
    const Program *prog;
    const World *world;   /* for names of objects and locations */
    const char *model;
    int unroll;

    GArray *states;       /* FinalState, sorted at result_finish */
    GHashTable *state_index;
    uint64_t positive;    /* final states (with multiplicity) satisfying the
                             condition */
    uint64_t negative;

    GPtrArray *violations; /* Violation* */

    SearchStats total;     /* sums over the searches */
    GArray *rounds;        /* SearchStats, one per search (jmm: per round) */
    LimitHit limit;
    size_t peak_rss_kb;

    /* jmm */
    int iterations;
    uint64_t writeset_size;
    bool drf_shortcut;     /* answered from SC executions of a DRF program */

    GArray *cond_fail_relaxed; /* StaticLoc: the same, over the final states
                                  that make the condition fail */

    /* --races */
    bool races_checked;
    GPtrArray *races;      /* Race*, one per location and pair of statements */
    World *races_world;    /* owned: the world of the search that found them,
                              which names the objects in their traces */
    GArray *acquires;      /* Acquire: how accesses were kept race-free */

    /* --list-executions: every legal execution of the (last) search */
    bool list_executions;
    GPtrArray *executions; /* Execution* */
    GHashTable *execution_index; /* their signatures, to keep each once */
} Result;

Result *result_new(const Program *prog, const World *world, const char *model, int unroll);
void result_free(Result *r);

/* Records one final state (a path end may record several under jmm). */
void result_add_state(Result *r, const int64_t *values);
/* Records a violation; the trace is copied when it is the first of its
   kind, thread, line and message. Returns the record (new or found). */
Violation *result_add_violation(Result *r, ViolationKind kind, int tid, int line,
                                const char *message, const Event *trace, size_t trace_len);
/* Records one legal execution (copied) unless the same execution (the same
   actions per thread, each read seeing the same write) is already kept. */
void result_add_execution(Result *r, const Event *events, size_t len, const int64_t *states,
                          guint n_states);
/* Adds locations to a tag set (a GArray of StaticLoc), each once. */
void relaxed_add(GArray *set, const StaticLoc *locs, guint n);
bool relaxed_has(const GArray *set, StaticLoc s);

/* Records a race between access a (earlier) and b (now, the last event of
   trace) on static location s, unless the same pair of statements on s is
   already recorded. */
void result_add_race(Result *r, StaticLoc s, RaceAccess a, RaceAccess b, const Event *trace,
                     size_t trace_len);
void result_add_acquire(Result *r, Acquire a);
bool result_has_acquire(const Result *r, Acquire a);
const char *race_class_name(RaceClass c);   /* "benign", ... */
void advice_free(Advice *a);
/* Adds one search's figures to r->total. */
void result_add_stats(Result *r, const SearchStats *s);
/* Forgets the states and violations found so far (the figures stay): a
   model with rounds reports only its last search. */
void result_clear_findings(Result *r);
/* Sorts the states; call once after the search. */
void result_finish(Result *r);

/* Every path reached its end: no bound cut anything. */
bool result_complete(const Result *r);
/* The condition holds (exists: some state satisfies it; ~exists: none;
   forall: all). True when there is no condition. */
bool result_validated(const Result *r);
/* Whether one final state satisfies the condition. */
bool result_state_satisfies(const Result *r, const int64_t *values);

/* Exit status for this file: 0 validated and no violation, 1 condition
   fails or a violation, 3 nothing wrong found but a bound cut paths. */
int result_exit_status(const Result *r);

/* Peak resident set size of this process, in kB (from /proc), since the
   last peak_rss_reset() (the command line resets it per file). */
size_t peak_rss_kb(void);
void peak_rss_reset(void);

#endif
