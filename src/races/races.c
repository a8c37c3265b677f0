/* Races: detection over every SC execution, classification by the jmm
 * model, and advice checked by re-running.
 *
 * Copyright (C) 2026 the PathRelax authors. GPL-3.0-or-later.
 *
 * A race on location L is destructive when some well-formed jmm execution
 * fails (a violation, or the final condition) in a way no sc execution
 * does, and on that execution a read of L saw a write other than the one
 * sc would give it: the correlation JUMBLE draws between a failure and
 * the race whose adversarial value caused it (papers/002, Section 2). It
 * is benign when the jmm search completed without such an execution, and
 * undecided when a bound cut that search.
 *
 * Advice follows JRF-E (papers/000, Section 3): make the racy location
 * volatile (for array elements: use an atomic array, whose elements are
 * volatile), make another location of the program volatile, or, when one
 * access of the pair holds a lock and the other does not, put the other in
 * a synchronized block on the same lock, or perform before the access an
 * acquire that orders other threads' accesses: read a volatile, or join
 * the writing thread. Each piece is checked by running sc race detection
 * and the jmm search again on the changed program.
 */
#include "pathrelax/lang.h"
#include "pathrelax/races.h"

#include <string.h>

/* The sc and jmm searches of the program with one set of changes. */
typedef struct {
    Result *sc;       /* with race detection */
    World *sc_world;
    Result *jmm;      /* with relaxed reads tagged */
    World *jmm_world;
    GHashTable *sc_failures; /* violation signatures found under sc */
} Check;

static char *violation_signature(const Violation *v)
{
    return g_strdup_printf("%d:%d:%d:%s", v->kind, v->tid, v->line, v->message);
}

static Check *check_new(const Program *prog, const ExploreConfig *base, const char *const *make_volatile)
{
    Check *c = g_new0(Check, 1);
    ExploreConfig cfg = *base;
    cfg.list_executions = false;
    cfg.stop_on_violation = false;
    cfg.make_volatile = make_volatile;
    cfg.track_races = true;
    c->sc = explore_program(prog, &model_sc, &cfg, &c->sc_world);
    cfg.track_races = false;
    cfg.tag_relaxed_reads = true;
    c->jmm = explore_program(prog, &model_jmm, &cfg, &c->jmm_world);
    c->sc_failures = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
    for (guint i = 0; i < c->sc->violations->len; i++)
        g_hash_table_add(c->sc_failures, violation_signature(g_ptr_array_index(c->sc->violations, i)));
    return c;
}

static void check_free(Check *c)
{
    result_free(c->sc);
    world_free(c->sc_world);
    result_free(c->jmm);
    world_free(c->jmm_world);
    g_hash_table_destroy(c->sc_failures);
    g_free(c);
}

static bool tags_name(const World *w, const GArray *tags, const char *loc_name)
{
    for (guint i = 0; i < tags->len; i++) {
        char *name = world_static_loc_name(w, g_array_index(tags, StaticLoc, i));
        bool same = strcmp(name, loc_name) == 0;
        g_free(name);
        if (same)
            return true;
    }
    return false;
}

static bool condition_fails_only_under_jmm(const Check *c)
{
    return result_validated(c->sc) && !result_validated(c->jmm);
}

/* A failure jmm shows and sc does not. With loc_name, only one on an
   execution where a read of that location was relaxed. Its description
   goes to *what (may be NULL). */
static bool jmm_only_failure(const Check *c, const char *loc_name, const char **what)
{
    for (guint i = 0; i < c->jmm->violations->len; i++) {
        const Violation *v = g_ptr_array_index(c->jmm->violations, i);
        char *sig = violation_signature(v);
        bool new_failure = !g_hash_table_contains(c->sc_failures, sig);
        g_free(sig);
        if (new_failure && (!loc_name || tags_name(c->jmm_world, v->relaxed, loc_name))) {
            if (what)
                *what = v->message;
            return true;
        }
    }
    if (condition_fails_only_under_jmm(c) &&
        (!loc_name || tags_name(c->jmm_world, c->jmm->cond_fail_relaxed, loc_name))) {
        if (what)
            *what = "the final condition fails";
        return true;
    }
    return false;
}

static RaceClass classify(const Check *c, const Race *race)
{
    if (jmm_only_failure(c, race->loc_name, NULL))
        return RACE_DESTRUCTIVE;
    return result_complete(c->jmm) ? RACE_BENIGN : RACE_UNDECIDED;
}

static bool same_side(RaceAccess a, RaceAccess b) { return a.line == b.line && a.is_write == b.is_write; }

static bool race_remains(const Check *c, const Race *race)
{
    for (guint i = 0; i < c->sc->races->len; i++) {
        const Race *r = g_ptr_array_index(c->sc->races, i);
        if (strcmp(r->loc_name, race->loc_name) == 0 && same_side(r->source, race->source) &&
            same_side(r->manifest, race->manifest))
            return true;
    }
    return false;
}

/* ---- advice -------------------------------------------------------------- */

typedef struct {
    const Program *prog;
    const ExploreConfig *base;
    GHashTable *checks;  /* location name -> Check with it made volatile */
} Advisor;

static const Check *check_volatile(Advisor *a, const char *loc_name)
{
    Check *c = g_hash_table_lookup(a->checks, loc_name);
    if (c)
        return c;
    /* The base run's own --volatile changes stay in force. */
    GPtrArray *names = g_ptr_array_new();
    for (const char *const *n = a->base->make_volatile; n && *n; n++)
        g_ptr_array_add(names, (gpointer)*n);
    g_ptr_array_add(names, (gpointer)loc_name);
    g_ptr_array_add(names, NULL);
    c = check_new(a->prog, a->base, (const char *const *)names->pdata);
    g_ptr_array_free(names, TRUE);
    g_hash_table_insert(a->checks, g_strdup(loc_name), c);
    return c;
}

/* Whether the changed program c still has the race, or a failure jmm
   shows and sc does not. */
static void set_verdict(Advice *adv, const Check *c, const Race *race)
{
    const char *failure = NULL;
    if (race_remains(c, race))
        adv->reason = g_strdup("not enough: the race remains");
    else if (jmm_only_failure(c, NULL, &failure))
        adv->reason = g_strdup_printf("not enough: the failure remains (%s)", failure);
    else if (!result_complete(c->jmm))
        adv->reason = g_strdup("not confirmed: a bound cut the jmm search");
    else {
        adv->verified = true;
        adv->reason = g_strdup("verified: removes the race and the violation");
    }
}

static void advise(Advisor *a, Race *race, const char *loc_name)
{
    const Check *c = check_volatile(a, loc_name);
    Advice *adv = g_new0(Advice, 1);
    size_t len = strlen(loc_name);
    bool elems = len > 2 && strcmp(loc_name + len - 2, "[]") == 0;
    if (elems)
        adv->text = g_strdup_printf("use an atomic array (AtomicIntegerArray) for %.*s", (int)(len - 2),
                                    loc_name);
    else
        adv->text = g_strdup_printf("make %s volatile", loc_name);
    adv->change = g_strdup_printf("--volatile %s", loc_name);
    set_verdict(adv, c, race);
    g_ptr_array_add(race->advice, adv);
}

/* ---- synchronized advice: a source rewrite ------------------------------ */

/* Where a statement was found, and what encloses it. */
typedef struct {
    int line;             /* the access's line */
    const Stmt *stmt;     /* innermost non-block statement covering it */
    const Stmt *block;    /* the block holding stmt directly */
    guint index;          /* its position there */
    int depth;
    int class_index;      /* class of the enclosing method, or -1 */
    bool instance;        /* the method has `this` */
    bool thread_top;      /* block is a thread body (its locals are registers) */
} Found;

typedef struct {
    const char *source;
    int line;
    Found best;
    int class_index;
    bool instance;
    const Stmt *body;     /* the body being searched */
    bool is_thread;
} Search;

static int line_of(const char *source, size_t offset)
{
    int line = 1;
    for (size_t i = 0; i < offset && source[i]; i++)
        line += source[i] == '\n';
    return line;
}

static void find_in(Search *s, const Stmt *st, const Stmt *block, guint index, int depth);

static void find_children(Search *s, const Stmt *st, int depth)
{
    if (st->kind == ST_BLOCK) {
        for (guint i = 0; i < st->body->len; i++)
            find_in(s, g_ptr_array_index(st->body, i), st, i, depth + 1);
        return;
    }
    const Stmt *children[] = {st->then_s, st->else_s, st->body_s};
    for (size_t i = 0; i < G_N_ELEMENTS(children); i++)
        if (children[i])
            find_in(s, children[i], NULL, 0, depth + 1);
}

static void find_in(Search *s, const Stmt *st, const Stmt *block, guint index, int depth)
{
    /* Method and thread bodies have no range of their own: look inside. */
    bool ranged = st->src_end > 0;
    if (ranged && (s->line < line_of(s->source, st->src_start) ||
                   s->line > line_of(s->source, st->src_end)))
        return;
    if (ranged && st->kind != ST_BLOCK && depth > s->best.depth) {
        s->best = (Found){s->line, st, block, index, depth, s->class_index, s->instance,
                          s->is_thread && block == s->body};
    }
    find_children(s, st, depth);
}

/* The innermost statement at line, in any method or thread body. */
static Found find_statement(const Ast *ast, int line)
{
    Search s = {.source = ast->source, .line = line, .best = {.depth = -1}};
    for (guint m = 0; m < ast->methods->len; m++) {
        const MethodDecl *md = g_ptr_array_index(ast->methods, m);
        s.class_index = md->class_index;
        s.instance = md->class_index >= 0;
        s.body = md->body;
        s.is_thread = false;
        find_in(&s, md->body, NULL, 0, 0);
    }
    for (guint t = 0; t < ast->threads->len; t++) {
        const ThreadDecl *td = &g_array_index(ast->threads, ThreadDecl, t);
        s.class_index = -1;
        s.instance = false;
        s.body = td->body;
        s.is_thread = true;
        find_in(&s, td->body, NULL, 0, 0);
    }
    return s.best;
}

/* How to name monitor obj where f is: `this` in a method of its class,
   else a global the initialiser stored it in; NULL when neither. */
static char *lock_expression(const World *w, const Found *f, int64_t obj)
{
    if (obj <= 0 || obj >= w->n_objs)
        return NULL;
    if (f->instance && w->objs[obj].class_index == f->class_index)
        return g_strdup("this");
    for (int g = 0; g < w->prog->n_globals; g++)
        if (w->global_ref[g] == obj)
            return g_strdup(w->prog->globals[g].name);
    return NULL;
}

/* The source with the statement wrapped in synchronized (lock). A local
   declaration takes the rest of its block along, so the local stays in
   scope; that is not possible for a thread's registers (they must stay at
   the top of the thread). Returns NULL when no rewrite applies. Everything
   stays on its lines, so races compare by line before and after. */
static char *wrap_in_lock(const Ast *ast, const Found *f, const char *lock)
{
    size_t start = f->stmt->src_start, end = f->stmt->src_end;
    if (f->stmt->kind == ST_LOCAL) {
        if (!f->block || f->thread_top)
            return NULL;
        const Stmt *last = g_ptr_array_index(f->block->body, f->block->body->len - 1);
        end = last->src_end;
    }
    return g_strdup_printf("%.*ssynchronized (%s) { %.*s }%s", (int)start, ast->source, lock,
                           (int)(end - start), ast->source + start, ast->source + end);
}

/* Checks the rewritten source like a volatile change. */
static void advise_lock(Advisor *a, Race *race, const World *w, RaceAccess locked, RaceAccess bare)
{
    const Ast *ast = a->prog->ast;
    Found f = find_statement(ast, bare.line);
    if (!f.stmt)
        return;
    char *lock = lock_expression(w, &f, locked.lock);
    char *text = lock ? wrap_in_lock(ast, &f, lock) : NULL;
    GError *err = NULL;
    Ast *changed = text ? lang_load_string(ast->filename, text, &err) : NULL;
    g_clear_error(&err);
    if (changed) {
        Program *prog = compile_program(changed);
        Check *c = check_new(prog, a->base, a->base->make_volatile);
        Advice *adv = g_new0(Advice, 1);
        adv->text = g_strdup_printf("put the %s at line %d in synchronized (%s), as the %s at line %d is",
                                    bare.is_write ? "write" : "read", bare.line, lock,
                                    locked.is_write ? "write" : "read", locked.line);
        adv->change = g_strdup_printf("synchronized (%s) { ... } around line %d", lock, f.stmt->pos.line);
        set_verdict(adv, c, race);
        g_ptr_array_add(race->advice, adv);
        check_free(c);
        program_free(prog);
        ast_free(changed);
    }
    g_free(text);
    g_free(lock);
}

/* The source with code inserted just before the statement (and kept with
   it, in braces, unless it is a declaration, whose local must stay in
   scope). Lines do not move. */
static char *insert_before(const Ast *ast, const Stmt *st, const char *code)
{
    size_t start = st->src_start, end = st->src_end;
    if (st->kind == ST_LOCAL)
        return g_strdup_printf("%.*s%s %s", (int)start, ast->source, code, ast->source + start);
    return g_strdup_printf("%.*s{ %s %.*s }%s", (int)start, ast->source, code, (int)(end - start),
                           ast->source + start, ast->source + end);
}

/* Checks a rewritten source; keeps the advice only when it is verified
   (an acquire that does not remove the race is not worth showing).
   Returns false when the rewrite does not load. */
static bool advise_rewrite(Advisor *a, Race *race, const char *text, char *advice_text, char *change)
{
    GError *err = NULL;
    Ast *changed = lang_load_string(a->prog->ast->filename, text, &err);
    g_clear_error(&err);
    if (!changed) {
        g_free(advice_text);
        g_free(change);
        return false;
    }
    Program *prog = compile_program(changed);
    Check *c = check_new(prog, a->base, a->base->make_volatile);
    Advice *adv = g_new0(Advice, 1);
    adv->text = advice_text;
    adv->change = change;
    set_verdict(adv, c, race);
    if (adv->verified)
        g_ptr_array_add(race->advice, adv);
    else
        advice_free(adv);
    check_free(c);
    program_free(prog);
    ast_free(changed);
    return true;
}

/* JRF-E's "perform the same acquire": the acquires that kept another
   thread's access to the location race-free on some SC execution (its
   acquiring history), performed before this access: read that volatile
   global, or join that thread. */
static void advise_acquire(Advisor *a, Race *race, const World *w, const Result *sc)
{
    const Ast *ast = a->prog->ast;
    const RaceAccess *bare = &race->manifest;
    Found f = find_statement(ast, bare->line);
    if (!f.stmt)
        return;
    const char *verb = bare->is_write ? "write" : "read";
    for (int g = 0; g < a->prog->n_globals; g++) {
        const CVar *v = &a->prog->globals[g];
        if (!v->is_volatile || type_is_ref(v->type) ||
            !result_has_acquire(sc, (Acquire){race->loc, ACQUIRE_READ, g}))
            continue;
        char *type = type_to_string(v->type);
        char *code = g_strdup_printf("%s pathrelax_acquire = %s;", type, v->name);
        char *text = insert_before(ast, f.stmt, code);
        advise_rewrite(a, race, text,
                       g_strdup_printf("read volatile %s before the %s at line %d", v->name, verb, bare->line),
                       g_strdup_printf("'%s' before line %d", code, f.stmt->pos.line));
        g_free(text);
        g_free(code);
        g_free(type);
    }
    for (int joined = 1; joined < w->n_tids; joined++) {
        if (joined == bare->tid || !result_has_acquire(sc, (Acquire){race->loc, ACQUIRE_JOIN, joined}))
            continue;
        const char *name = world_thread_name(w, joined);
        char *code = g_strdup_printf("join %s;", name);
        char *text = insert_before(ast, f.stmt, code);
        advise_rewrite(a, race, text,
                       g_strdup_printf("join %s before the %s at line %d", name, verb, bare->line),
                       g_strdup_printf("'%s' before line %d", code, f.stmt->pos.line));
        g_free(text);
        g_free(code);
    }
}

/* Advice for a destructive race: its own location first, then each other
   racy location. Only verified pieces and the first one (so the user sees
   why the obvious fix falls short) are kept. */
static void advise_race(Advisor *a, Race *race, const GPtrArray *races, const World *w,
                        const Result *sc)
{
    advise(a, race, race->loc_name);
    if (race->source.lock && !race->manifest.lock)
        advise_lock(a, race, w, race->source, race->manifest);
    else if (race->manifest.lock && !race->source.lock)
        advise_lock(a, race, w, race->manifest, race->source);
    advise_acquire(a, race, w, sc);
    GPtrArray *seen = g_ptr_array_new();
    for (guint i = 0; i < races->len; i++) {
        const Race *other = g_ptr_array_index(races, i);
        if (strcmp(other->loc_name, race->loc_name) == 0)
            continue;
        bool done = false;
        for (guint j = 0; j < seen->len && !done; j++)
            done = strcmp(g_ptr_array_index(seen, j), other->loc_name) == 0;
        if (done)
            continue;
        g_ptr_array_add(seen, other->loc_name);
        advise(a, race, other->loc_name);
        Advice *last = g_ptr_array_index(race->advice, race->advice->len - 1);
        if (!last->verified)
            g_ptr_array_remove_index(race->advice, race->advice->len - 1);
    }
    g_ptr_array_free(seen, TRUE);
}

void races_analyse(const Program *prog, const ExploreConfig *base, Result *into)
{
    Check *c = check_new(prog, base, base->make_volatile);
    Advisor advisor = {prog, base,
                       g_hash_table_new_full(g_str_hash, g_str_equal, g_free, (GDestroyNotify)check_free)};
    GPtrArray *races = c->sc->races;
    for (guint i = 0; i < races->len; i++) {
        Race *race = g_ptr_array_index(races, i);
        race->cls = classify(c, race);
        if (race->cls == RACE_DESTRUCTIVE)
            advise_race(&advisor, race, races, c->sc_world, c->sc);
    }
    /* The races move to the file's result, with the world of the search
       that found them: it names the locations in their traces. */
    while (races->len > 0)
        g_ptr_array_add(into->races, g_ptr_array_steal_index(races, 0));
    into->races_checked = true;
    into->races_world = c->sc_world;
    c->sc_world = NULL;
    g_hash_table_destroy(advisor.checks);
    check_free(c);
}
