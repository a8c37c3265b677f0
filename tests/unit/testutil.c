/* Helpers shared by the unit tests.
 *
 * Copyright (C) 2026 the PathRelax authors. GPL-3.0-or-later.
 */
#include "testutil.h"

#include <check.h>
#include <string.h>

#include "pathrelax/lang.h"

Run run_program(const char *model, const ExploreConfig *cfg, const char *text)
{
    GError *err = NULL;
    Run run = {0};
    run.ast = lang_load_string("test.litmus", text, &err);
    if (!run.ast)
        ck_abort_msg("does not load: %s", err->message);
    run.prog = compile_program(run.ast);
    ExploreConfig defaults = {.unroll = EXPLORE_DEFAULT_UNROLL};
    run.r = explore_program(run.prog, model_find(model), cfg ? cfg : &defaults, &run.world);
    return run;
}

void run_free(Run *run)
{
    result_free(run->r);
    world_free(run->world);
    program_free(run->prog);
    ast_free(run->ast);
}

bool has_state(const Result *r, int n, const int64_t *values)
{
    for (guint i = 0; i < r->states->len; i++) {
        const FinalState *st = &g_array_index(r->states, FinalState, i);
        if (memcmp(st->values, values, sizeof(int64_t) * (size_t)n) == 0)
            return true;
    }
    return false;
}
