/* PathRelax explorer: depth-first search over the choice points of a
 * program (which thread moves next, which write a read sees, and the
 * model's own steps), with state matching, bounds and violation traces.
 *
 * Copyright (C) 2026 the PathRelax authors. GPL-3.0-or-later.
 */
#ifndef PATHRELAX_EXPLORE_H
#define PATHRELAX_EXPLORE_H

#include "pathrelax/result.h"

#define EXPLORE_DEFAULT_UNROLL 8
/* Default bound on a search's memory; a run that needs more ends as
   incomplete instead of exhausting the machine. */
#define EXPLORE_DEFAULT_MAX_MEMORY_MB 4096
/* Deepest call nesting per thread; a path that goes deeper is cut. */
#define EXPLORE_MAX_CALL_DEPTH 64

typedef struct {
    int unroll;               /* loop body runs per entry */
    uint64_t max_states;      /* 0: no limit */
    uint64_t max_memory_mb;   /* search memory (visited states, stack); 0: none */
    bool stop_on_violation;   /* end at the first violation found, as JPF does */
    double timeout;           /* seconds, 0: no limit */
    bool list_executions;     /* keep every legal execution (and match
                                 states only within one execution) */
    bool no_drf_shortcut;     /* jmm: run the rounds even for a DRF program */
    bool track_races;         /* sc: record every data race in the result */
    bool tag_relaxed_reads;   /* note, for each violation and each state
                                 failing the condition, the locations read
                                 other than as sc would (race classification) */
    const char *const *make_volatile; /* static locations to treat as volatile
                                 (NULL-terminated; --volatile), or NULL */
    const char *relax;        /* jmm: relax only this static location
                                 (--relax), or NULL: all */
    double deadline;          /* absolute g_get_monotonic_time()/1e6 of the
                                 whole run; 0: none (set by the caller) */
} ExploreConfig;

/* Runs one complete search of prog under the model into r: final states,
   violations, and one SearchStats appended to r->rounds (and added to
   r->total). The model instance persists across searches (jmm keeps its
   WriteSet there); ops->begin and ops->finish bracket the search. */
void explore_run(World *world, const ModelOps *ops, Model *model, Trail *trail,
                 EventLog *events, const ExploreConfig *cfg, Result *r);

/* Runs prog under the named model, from scratch, and returns its result
   (the driver of jmm iterates searches; other models search once). */
Result *explore_program(const Program *prog, const ModelOps *ops, const ExploreConfig *cfg,
                        World **world_out);

#endif
