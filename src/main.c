/* pathrelax: the command line.
 *
 * Copyright (C) 2026 the PathRelax authors. GPL-3.0-or-later.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pathrelax/explore.h"
#include "pathrelax/lang.h"
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
    "  2  usage error, or a file that cannot be read or is not a valid litmus file\n"
    "     (each error is printed as FILE:LINE:COL: error: MESSAGE)\n"
    "  3  nothing wrong was found, but a bound (--unroll, call depth, array size,\n"
    "     --max-states, --timeout) cut paths: the answer holds only up to it\n"
    "With several files the status is the most serious one: 2, then 1, then 3.";

typedef struct {
    const char *model;
    int unroll;
    const char *format;
    gint64 max_states;
    double timeout;
    gboolean version;
} Options;

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

/* Checks one file; appends its text to out or its JSON to array. */
static int run_file(const char *path, const Options *opt, const ModelOps *model, GString *out,
                    JsonArray *array)
{
    GError *err = NULL;
    Ast *ast = lang_load_file(path, &err);
    if (!ast) {
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
    Program *prog = compile_program(ast);
    ExploreConfig cfg = {
        .unroll = opt->unroll,
        .max_states = (uint64_t)opt->max_states,
        .timeout = opt->timeout,
        .deadline = opt->timeout > 0 ? g_get_monotonic_time() / 1e6 + opt->timeout : 0,
    };
    World *world = NULL;
    Result *r = explore_program(prog, model, &cfg, &world);
    if (array)
        json_array_add_element(array, report_json(r));
    else
        report_text(out, r);
    int status = result_exit_status(r);
    result_free(r);
    world_free(world);
    program_free(prog);
    ast_free(ast);
    return status;
}

int main(int argc, char **argv)
{
    Options opt = {
        .model = model_find("jmm") ? "jmm" : "sc",
        .unroll = EXPLORE_DEFAULT_UNROLL,
        .format = "text",
    };
    char *model_name = NULL, *format = NULL;
    char *model_help = g_strdup_printf("Memory model: %s (default %s)", model_names(), opt.model);
    char *unroll_help = g_strdup_printf("Run each loop body at most N times per entry (default %d)",
                                        EXPLORE_DEFAULT_UNROLL);
    GOptionEntry entries[] = {
        {"model", 'm', 0, G_OPTION_ARG_STRING, &model_name, model_help, "MODEL"},
        {"unroll", 'u', 0, G_OPTION_ARG_INT, &opt.unroll, unroll_help, "N"},
        {"format", 'f', 0, G_OPTION_ARG_STRING, &format, "Output format: text (herd-style, default) or json", "FORMAT"},
        {"max-states", 0, 0, G_OPTION_ARG_INT64, &opt.max_states, "Stop after N distinct states per search (default: no limit)", "N"},
        {"timeout", 0, 0, G_OPTION_ARG_DOUBLE, &opt.timeout, "Stop after SECONDS per file (default: no limit)", "SECONDS"},
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
    if (opt.max_states < 0 || opt.timeout < 0) {
        status = usage_error(ctx, "%s must not be negative", opt.max_states < 0 ? "--max-states" : "--timeout");
        goto done;
    }
    if (argc < 2) {
        status = usage_error(ctx, "%s", "no litmus file given");
        goto done;
    }

    bool json = strcmp(opt.format, "json") == 0;
    JsonArray *array = json ? json_array_new() : NULL;
    GString *out = g_string_new(NULL);
    for (int i = 1; i < argc; i++) {
        if (!json && i > 1)
            g_string_append_c(out, '\n');
        status = worse(status, run_file(argv[i], &opt, model, out, array));
        fputs(out->str, stdout);
        fflush(stdout);
        g_string_truncate(out, 0);
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
    g_free(model_help);
    g_free(unroll_help);
    return status;
}
