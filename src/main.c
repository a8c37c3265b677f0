/* pathrelax: the command line.
 *
 * Copyright (C) 2026 the PathRelax authors. GPL-3.0-or-later.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pathrelax/explore.h"
#include "pathrelax/lang.h"
#include "pathrelax/races.h"
#include "pathrelax/report.h"

enum {
    EXIT_OK = 0,
    EXIT_FOUND = 1,      /* a condition fails or a violation is found */
    EXIT_INPUT = 2,      /* usage or input error */
    EXIT_INCOMPLETE = 3, /* nothing wrong found, but a bound cut paths */
};

static const char *exit_status_help =
    "Exit status:\n"
    "  0  every condition is validated and no violation is found\n"
    "  1  a condition fails, or a violation (failed assert, uncaught exception,\n"
    "     deadlock) is found\n"
    "  2  usage error, a file that cannot be read or is not a valid litmus file\n"
    "     (each error is printed as FILE:LINE:COL: error: MESSAGE), a --volatile\n"
    "     or --relax location the program does not have, or --dot cannot write\n"
    "     its files\n"
    "  3  nothing wrong was found, but a bound (--unroll, call depth, array size,\n"
    "     --max-states, --timeout, --max-memory) cut paths: the answer holds only\n"
    "     up to it\n"
    "With several files the status is the most serious one: 2, then 1, then 3.";

typedef struct {
    const char *model;
    int unroll;
    const char *format;
    gint64 max_states;
    double timeout;
    gint64 max_memory_mb;
    gboolean races;
    char **make_volatile;    /* --volatile, NULL-terminated */
    const char *relax;       /* --relax */
    gboolean stop_on_violation;
    gboolean list_executions;
    const char *dot_dir;     /* NULL: no --dot */
    gboolean stats;
    gboolean no_drf_shortcut;
    gboolean version;
} Options;

/* One checked file, with everything its Result refers to. */
typedef struct {
    Ast *ast;
    Program *prog;
    World *world;
    Result *result;
} Checked;

static void checked_free(Checked *c)
{
    result_free(c->result);
    world_free(c->world);
    program_free(c->prog);
    ast_free(c->ast);
    g_free(c);
}

static int usage_error(GOptionContext *ctx, const char *fmt, const char *arg)
{
    fprintf(stderr, "pathrelax: error: ");
    fprintf(stderr, fmt, arg);
    fprintf(stderr, "\n");
    (void)ctx;
    fprintf(stderr, "Try 'pathrelax --help' for more information.\n");
    return EXIT_INPUT;
}

/* The more serious of two exit statuses. */
static int worse(int a, int b)
{
    static const int rank[] = {[EXIT_OK] = 0, [EXIT_INCOMPLETE] = 1, [EXIT_FOUND] = 2, [EXIT_INPUT] = 3};
    return rank[b] > rank[a] ? b : a;
}

/* A file that does not load: its error on stderr, and in the JSON array. */
static int load_error(const char *path, GError *err, JsonArray *array)
{
    fprintf(stderr, "%s\n", err->message);
    if (array) {
        JsonObject *o = json_object_new();
        json_object_set_string_member(o, "file", path);
        json_object_set_string_member(o, "error", err->message);
        json_array_add_object_element(array, o);
    }
    g_error_free(err);
    return EXIT_INPUT;
}

static Checked *check_ast(Ast *ast, const Options *opt, const ModelOps *model)
{
    Checked *c = g_new0(Checked, 1);
    c->ast = ast;
    c->prog = compile_program(ast);
    ExploreConfig cfg = {
        .unroll = opt->unroll,
        .max_states = (uint64_t)opt->max_states,
        .timeout = opt->timeout,
        .max_memory_mb = (uint64_t)opt->max_memory_mb,
        .stop_on_violation = opt->stop_on_violation,
        .list_executions = opt->list_executions || opt->dot_dir,
        .no_drf_shortcut = opt->no_drf_shortcut,
        .make_volatile = (const char *const *)opt->make_volatile,
        .relax = opt->relax,
        .deadline = opt->timeout > 0 ? g_get_monotonic_time() / 1e6 + opt->timeout : 0,
    };
    c->result = explore_program(c->prog, model, &cfg, &c->world);
    if (opt->races && !c->world->unresolved)
        races_analyse(c->prog, &cfg, c->result);
    return c;
}

/* Writes the --dot files of r; EXIT_OK, or EXIT_INPUT when it cannot. */
static int write_dot(const Result *r, const char *dir)
{
    GError *err = NULL;
    if (report_dot(r, dir, &err))
        return EXIT_OK;
    fprintf(stderr, "pathrelax: error: %s\n", err->message);
    g_error_free(err);
    return EXIT_INPUT;
}

/* Checks one file; appends its text to out or its JSON to array, and
   keeps what it checked in kept (for --stats) unless kept is NULL. */
static int run_file(const char *path, const Options *opt, const ModelOps *model, GString *out,
                    JsonArray *array, GPtrArray *kept)
{
    GError *err = NULL;
    peak_rss_reset(); /* each file's figures are its own */
    Ast *ast = lang_load_file(path, &err);
    if (!ast)
        return load_error(path, err, array);
    Checked *c = check_ast(ast, opt, model);
    Result *r = c->result;
    if (c->world->unresolved) {
        /* --volatile or --relax named no location of this program. */
        GError *bad = g_error_new(PR_LANG_ERROR, PR_LANG_ERROR_CHECK,
                                  "%s: error: no location '%s' (write a global 'x', a field 'C.f', "
                                  "or the elements of a global array 'a[]')",
                                  path, c->world->unresolved);
        checked_free(c);
        return load_error(path, bad, array);
    }
    int status = result_exit_status(r);
    if (opt->dot_dir)
        status = worse(status, write_dot(r, opt->dot_dir));
    /* --dot alone records the executions for its files, not for output. */
    r->list_executions = opt->list_executions;
    if (array) {
        json_array_add_element(array, report_json(r));
    } else {
        report_text(out, r);
        if (opt->list_executions)
            report_executions_text(out, r);
    }
    if (kept)
        g_ptr_array_add(kept, c);
    else
        checked_free(c);
    return status;
}

/* The --stats table of the files checked. */
static void append_stats(GString *out, const GPtrArray *kept)
{
    Result **results = g_new(Result *, kept->len);
    for (guint i = 0; i < kept->len; i++)
        results[i] = ((Checked *)g_ptr_array_index(kept, i))->result;
    g_string_append_c(out, '\n');
    report_stats_table(out, results, kept->len);
    g_free(results);
}

int main(int argc, char **argv)
{
    Options opt = {
        .model = model_find("jmm") ? "jmm" : "sc",
        .unroll = EXPLORE_DEFAULT_UNROLL,
        .format = "text",
        .max_memory_mb = EXPLORE_DEFAULT_MAX_MEMORY_MB,
    };
    char *model_name = NULL, *format = NULL, *dot_dir = NULL, *relax = NULL;
    char *model_help = g_strdup_printf("Memory model: %s (default %s)", model_names(), opt.model);
    char *unroll_help = g_strdup_printf("Run each loop body at most N times per entry (default %d)",
                                        EXPLORE_DEFAULT_UNROLL);
    char *memory_help = g_strdup_printf("Stop a search that holds more than MB megabytes of states "
                                        "(default %d; 0: no limit)", EXPLORE_DEFAULT_MAX_MEMORY_MB);
    GOptionEntry entries[] = {
        {"model", 'm', 0, G_OPTION_ARG_STRING, &model_name, model_help, "MODEL"},
        {"unroll", 'u', 0, G_OPTION_ARG_INT, &opt.unroll, unroll_help, "N"},
        {"format", 'f', 0, G_OPTION_ARG_STRING, &format, "Output format: text (herd-style, default) or json", "FORMAT"},
        {"max-states", 0, 0, G_OPTION_ARG_INT64, &opt.max_states, "Stop after N distinct states per search (default: no limit)", "N"},
        {"timeout", 0, 0, G_OPTION_ARG_DOUBLE, &opt.timeout, "Stop after SECONDS per file (default: no limit)", "SECONDS"},
        {"max-memory", 0, 0, G_OPTION_ARG_INT64, &opt.max_memory_mb, memory_help, "MB"},
        {"races", 0, 0, G_OPTION_ARG_NONE, &opt.races, "Report the data races of every SC execution, each classified benign, destructive or undecided by a jmm search, with fix advice checked by re-running", NULL},
        {"volatile", 0, 0, G_OPTION_ARG_STRING_ARRAY, &opt.make_volatile, "Check the program as if LOC were volatile (a global x, a field C.f, or a[] for the elements of global array a); repeatable", "LOC"},
        {"relax", 0, 0, G_OPTION_ARG_STRING, &relax, "jmm: relax only LOC, keeping every other location SC (to pin a failure on one race)", "LOC"},
        {"stop-on-violation", 0, 0, G_OPTION_ARG_NONE, &opt.stop_on_violation, "Stop at the first violation found, as JPF does (the result is then incomplete)", NULL},
        {"list-executions", 0, 0, G_OPTION_ARG_NONE, &opt.list_executions, "Also print every legal execution: its actions with their ids and what each read saw", NULL},
        {"dot", 0, 0, G_OPTION_ARG_FILENAME, &dot_dir, "Write each legal execution as a Graphviz file DIR/TEST-N.dot", "DIR"},
        {"stats", 0, 0, G_OPTION_ARG_NONE, &opt.stats, "After all files, print a table of figures per file (JPR paper, Fig. 14); in JSON it adds nothing, as each \"stats\" holds them", NULL},
        {"no-drf-shortcut", 0, 0, G_OPTION_ARG_NONE, &opt.no_drf_shortcut, "jmm: run the rounds even for a data-race-free program (else answered from its SC executions)", NULL},
        {"version", 0, 0, G_OPTION_ARG_NONE, &opt.version, "Print the version and exit", NULL},
        {NULL, 0, 0, 0, NULL, NULL, NULL},
    };
    GOptionContext *ctx = g_option_context_new("FILE.litmus... - enumerate the executions of litmus tests");
    g_option_context_set_summary(ctx,
        "Checks each litmus file under a memory model and prints its final states,\n"
        "the verdict of its final condition, and any violation with a trace.");
    g_option_context_set_description(ctx, exit_status_help);
    g_option_context_add_main_entries(ctx, entries, NULL);

    GError *err = NULL;
    int status = EXIT_OK;
    if (!g_option_context_parse(ctx, &argc, &argv, &err)) {
        status = usage_error(ctx, "%s", err->message);
        g_error_free(err);
        goto done;
    }
    if (opt.version) {
        printf("pathrelax 0.1.0\n");
        goto done;
    }
    if (model_name)
        opt.model = model_name;
    const ModelOps *model = model_find(opt.model);
    if (!model) {
        status = usage_error(ctx, "unknown model '%s' (choose sc, tso, pso or jmm)", opt.model);
        goto done;
    }
    if (format)
        opt.format = format;
    if (strcmp(opt.format, "text") != 0 && strcmp(opt.format, "json") != 0) {
        status = usage_error(ctx, "unknown format '%s' (choose text or json)", opt.format);
        goto done;
    }
    if (opt.unroll < 0) {
        status = usage_error(ctx, "--unroll must be 0 or more, not %s", "a negative number");
        goto done;
    }
    if (opt.max_states < 0 || opt.timeout < 0 || opt.max_memory_mb < 0) {
        status = usage_error(ctx, "%s must not be negative",
                             opt.max_states < 0 ? "--max-states" : opt.timeout < 0 ? "--timeout" : "--max-memory");
        goto done;
    }
    opt.relax = relax;
    if (dot_dir) {
        opt.dot_dir = dot_dir;
    }
    if (argc < 2) {
        status = usage_error(ctx, "%s", "no litmus file given");
        goto done;
    }

    bool json = strcmp(opt.format, "json") == 0;
    JsonArray *array = json ? json_array_new() : NULL;
    /* In JSON each file's "stats" already holds what the table shows. */
    GPtrArray *kept = NULL;
    if (opt.stats && !json)
        kept = g_ptr_array_new_with_free_func((GDestroyNotify)checked_free);
    GString *out = g_string_new(NULL);
    for (int i = 1; i < argc; i++) {
        if (!json && i > 1)
            g_string_append_c(out, '\n');
        status = worse(status, run_file(argv[i], &opt, model, out, array, kept));
        fputs(out->str, stdout);
        fflush(stdout);
        g_string_truncate(out, 0);
    }
    if (kept) {
        append_stats(out, kept);
        fputs(out->str, stdout);
        g_ptr_array_unref(kept);
    }
    if (json) {
        JsonNode *root;
        if (json_array_get_length(array) == 1 && argc == 2) {
            root = json_node_copy(json_array_get_element(array, 0));
        } else {
            root = json_node_new(JSON_NODE_ARRAY);
            json_node_set_array(root, array);
        }
        char *text = json_to_string(root, TRUE);
        printf("%s\n", text);
        g_free(text);
        json_node_unref(root);
        json_array_unref(array);
    }
    g_string_free(out, TRUE);

done:
    g_option_context_free(ctx);
    g_free(model_name);
    g_free(format);
    g_free(dot_dir);
    g_free(relax);
    g_strfreev(opt.make_volatile);
    g_free(model_help);
    g_free(unroll_help);
    g_free(memory_help);
    return status;
}
