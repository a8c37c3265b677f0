/* Helpers shared by the unit tests: one program checked under a model.
 *
 * Copyright (C) 2026 the PathRelax authors. GPL-3.0-or-later.
 */
#ifndef PATHRELAX_TESTUTIL_H
#define PATHRELAX_TESTUTIL_H

#include "pathrelax/explore.h"

/* A program and everything its check owns. */
typedef struct {
    Ast *ast;
    Program *prog;
    World *world;
    Result *r;
} Run;

/* Loads text (failing the test when it does not load), compiles it and
   explores it under the named model with cfg (NULL: the default unroll
   bound and nothing else). */
Run run_program(const char *model, const ExploreConfig *cfg, const char *text);
void run_free(Run *run);

/* Whether r has a final state with exactly these n values. */
bool has_state(const Result *r, int n, const int64_t *values);

#endif
