/* PathRelax front end: name resolution, typing, slots and the condition's
 * locations; also the loaders that parse and check in one call.
 *
 * Copyright (C) 2026 the PathRelax authors. GPL-3.0-or-later.
 *
 * The checker annotates the tree in place and collects up to
 * CHECK_MAX_ERRORS errors. An expression whose type could not be found gets
 * type_error, and nothing more is reported about expressions built on it.
 */
#include "lang_internal.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#define CHECK_MAX_ERRORS 20

typedef struct {
    const char *name;
    int slot;
    const Type *type;
} Local;

typedef struct {
    Ast *ast;
    Diag diag;
    /* name -> index */
    GHashTable *globals, *classes, *top_methods, *threads;
    GPtrArray *fields_of;      /* per class: GHashTable field name -> index */
    GPtrArray *methods_of;     /* per class: GHashTable method name -> index */
    GPtrArray *class_types;    /* per class: its Type */

    /* the code being checked: a method, a thread body or the init code */
    const MethodDecl *method;  /* NULL in threads and the init code */
    int class_index;           /* class of method, or -1 */
    int thread_index;          /* thread being checked, or -1 */
    GArray *locals;            /* Local: visible locals, innermost last */
    GArray *scope_starts;      /* int: locals->len when each scope opened */
    int next_slot;
    int loop_depth;
    int initialising;          /* the global whose initialiser is being
                                  checked, or -1 */
} Checker;

/* ---- helpers -------------------------------------------------------- */

static void G_GNUC_PRINTF(3, 4)
error(Checker *c, SrcPos pos, const char *fmt, ...)
{
    va_list args;
    va_start(args, fmt);
    char *message = g_strdup_vprintf(fmt, args);
    va_end(args);
    diag_error(&c->diag, pos, "%s", message);
    g_free(message);
}

/* A type's spelling for a message, kept in the Ast's strings. */
static const char *tname(Checker *c, const Type *t)
{
    char *s = type_to_string(t);
    const char *kept = ast_intern(c->ast, s);
    g_free(s);
    return kept;
}

static bool table_add(GHashTable *table, const char *name, int index)
{
    if (g_hash_table_contains(table, name))
        return false;
    g_hash_table_insert(table, (gpointer) name, GINT_TO_POINTER(index));
    return true;
}

static int table_get(GHashTable *table, const char *name)
{
    gpointer value;
    if (!g_hash_table_lookup_extended(table, name, NULL, &value))
        return -1;
    return GPOINTER_TO_INT(value);
}

static GHashTable *table_new(void)
{
    return g_hash_table_new(g_str_hash, g_str_equal);
}

static VarDecl *global_at(Checker *c, int index)
{
    return &g_array_index(c->ast->globals, VarDecl, index);
}

static ClassDecl *class_at(Checker *c, int index)
{
    return &g_array_index(c->ast->classes, ClassDecl, index);
}

static VarDecl *field_at(Checker *c, int class_index, int field)
{
    return &g_array_index(class_at(c, class_index)->fields, VarDecl, field);
}

static MethodDecl *method_at(Checker *c, int index)
{
    return c->ast->methods->pdata[index];
}

static ThreadDecl *thread_at(Checker *c, int index)
{
    return &g_array_index(c->ast->threads, ThreadDecl, index);
}

static int field_of(Checker *c, int class_index, const char *name)
{
    return table_get(c->fields_of->pdata[class_index], name);
}

static int method_of(Checker *c, int class_index, const char *name)
{
    return table_get(c->methods_of->pdata[class_index], name);
}

/* ---- types ---------------------------------------------------------- */

/* The built-in class named name (AtomicInteger, AtomicIntegerArray), or
   NULL. */
static const Type *builtin_type(const char *name)
{
    if (strcmp(name, "AtomicInteger") == 0)
        return &type_atomic_int;
    if (strcmp(name, "AtomicIntegerArray") == 0)
        return &type_atomic_array;
    return NULL;
}

static const Type *base_of(const Type *t)
{
    while (t->kind == TY_ARRAY)
        t = t->elem;
    return t;
}

static bool is_error(const Type *t)
{
    return base_of(t)->kind == TY_ERROR;
}

/* Links the class named in t to its ClassDecl. An unknown class is
   reported and its type node becomes an error type. */
static void resolve_type(Checker *c, const Type *t, SrcPos pos)
{
    /* Class types are nodes of this Ast, never the shared basic types. */
    Type *base = (Type *) base_of(t);
    if (base->kind != TY_CLASS || base->class_index >= 0)
        return;
    const Type *builtin = builtin_type(base->class_name);
    if (builtin) {
        base->kind = builtin->kind;
        base->elem = builtin->elem;
        return;
    }
    base->class_index = table_get(c->classes, base->class_name);
    if (base->class_index < 0) {
        error(c, pos, "unknown class '%s'", base->class_name);
        base->kind = TY_ERROR;
    }
}

static const Type *promote(const Type *a, const Type *b)
{
    return a->kind == TY_LONG || b->kind == TY_LONG ? &type_long : &type_int;
}

typedef enum {
    CONV_OK,
    CONV_LOSSY,     /* long to int */
    CONV_NONE,
} Conversion;

/* Assignment conversion from a value of type from to a variable of type to. */
static Conversion conversion(const Type *to, const Type *from)
{
    if (type_equal(to, from))
        return CONV_OK;
    if (to->kind == TY_LONG && from->kind == TY_INT)
        return CONV_OK;
    if (to->kind == TY_INT && from->kind == TY_LONG)
        return CONV_LOSSY;
    if (from->kind == TY_NULL && type_is_ref(to))
        return CONV_OK;
    return CONV_NONE;
}

/* Reports a value of type from that cannot be assigned to type to; context
   prefixes the message (e.g. "argument 1 of 'm': "). */
static void check_assignable(Checker *c, const Type *to, const Type *from, SrcPos pos,
                             const char *context)
{
    if (is_error(to) || is_error(from))
        return;
    switch (conversion(to, from)) {
    case CONV_OK:
        break;
    case CONV_LOSSY:
        error(c, pos, "%spossible lossy conversion from long to int", context);
        break;
    case CONV_NONE:
        error(c, pos, "%sincompatible types: %s cannot be converted to %s", context,
              tname(c, from), tname(c, to));
        break;
    }
}

/* ---- locals and scopes ---------------------------------------------- */

static void open_scope(Checker *c)
{
    int start = (int) c->locals->len;
    g_array_append_val(c->scope_starts, start);
}

static void close_scope(Checker *c)
{
    guint last = c->scope_starts->len - 1;
    g_array_set_size(c->locals, (guint) g_array_index(c->scope_starts, int, last));
    g_array_set_size(c->scope_starts, last);
}

static const Local *find_local(Checker *c, const char *name)
{
    for (guint i = c->locals->len; i-- > 0;) {
        const Local *local = &g_array_index(c->locals, Local, i);
        if (strcmp(local->name, name) == 0)
            return local;
    }
    return NULL;
}

/* As in Java, a local may not hide another local or parameter of the same
   body. Every declaration gets a fresh slot. */
static int declare_local(Checker *c, const char *name, const Type *type, SrcPos pos)
{
    if (find_local(c, name))
        error(c, pos, "variable '%s' is already defined", name);
    Local local = { .name = name, .slot = c->next_slot++, .type = type };
    g_array_append_val(c->locals, local);
    return local.slot;
}

static void begin_body(Checker *c, const MethodDecl *method, int thread_index)
{
    c->method = method;
    c->class_index = method ? method->class_index : -1;
    c->thread_index = thread_index;
    g_array_set_size(c->locals, 0);
    g_array_set_size(c->scope_starts, 0);
    c->next_slot = 0;
    c->loop_depth = 0;
}

/* ---- expressions ---------------------------------------------------- */

static const Type *check_expr(Checker *c, Expr *e);

/* An expression used for its value: a void call is an error there. */
static const Type *check_value(Checker *c, Expr *e)
{
    const Type *t = check_expr(c, e);
    if (t->kind != TY_VOID)
        return t;
    error(c, e->pos, "method '%s' returns void; it has no value", e->name);
    e->type = &type_error;
    return &type_error;
}

static void check_boolean(Checker *c, Expr *e)
{
    check_assignable(c, &type_bool, check_value(c, e), e->pos, "");
}

static const Type *check_name(Checker *c, Expr *e)
{
    const Local *local = find_local(c, e->name);
    if (local) {
        e->sym = SYM_LOCAL;
        e->sym_index = local->slot;
        return local->type;
    }
    int field = c->class_index >= 0 ? field_of(c, c->class_index, e->name) : -1;
    if (field >= 0) {
        e->sym = SYM_FIELD;
        e->sym_index = field;
        e->sym_class = c->class_index;
        return field_at(c, c->class_index, field)->type;
    }
    int global = table_get(c->globals, e->name);
    if (global >= 0 && c->initialising >= 0 && global >= c->initialising)
        /* JLS 8.3.3: it would read the default value, silently */
        error(c, e->pos, "global '%s' is read before its initialiser has run (it is declared "
                         "later); move its declaration up", e->name);
    if (global >= 0) {
        e->sym = SYM_GLOBAL;
        e->sym_index = global;
        return global_at(c, global)->type;
    }
    error(c, e->pos, "unknown variable '%s'", e->name);
    return &type_error;
}

static const Type *check_this(Checker *c, Expr *e)
{
    if (c->class_index >= 0)
        return c->class_types->pdata[c->class_index];
    error(c, e->pos, "'this' can only be used in the methods and constructors of a class");
    return &type_error;
}

static const Type *check_field(Checker *c, Expr *e)
{
    const Type *t = check_value(c, e->lhs);
    if (is_error(t))
        return &type_error;
    if (t->kind == TY_ARRAY) {
        if (strcmp(e->name, "length") == 0) {
            e->sym = SYM_LENGTH;
            return &type_int;
        }
        error(c, e->pos, "an array has no field '%s', only 'length'", e->name);
        return &type_error;
    }
    if (t->kind != TY_CLASS) {
        error(c, e->pos, "cannot access field '%s' of a value of type %s", e->name, tname(c, t));
        return &type_error;
    }
    int field = field_of(c, t->class_index, e->name);
    if (field < 0) {
        error(c, e->pos, "unknown field '%s' in class '%s'", e->name, t->class_name);
        return &type_error;
    }
    e->sym = SYM_FIELD;
    e->sym_index = field;
    e->sym_class = t->class_index;
    return field_at(c, t->class_index, field)->type;
}

static const Type *check_index(Checker *c, Expr *e)
{
    const Type *array = check_value(c, e->lhs);
    check_assignable(c, &type_int, check_value(c, e->rhs), e->rhs->pos, "");
    if (is_error(array))
        return &type_error;
    if (array->kind != TY_ARRAY) {
        error(c, e->lhs->pos, "array required, but %s found", tname(c, array));
        return &type_error;
    }
    return array->elem;
}

/* Checks the arguments as values; returns a new array of their types. */
static const Type **check_argument_values(Checker *c, GPtrArray *args)
{
    const Type **types = g_new(const Type *, args->len + 1);
    for (guint i = 0; i < args->len; i++)
        types[i] = check_value(c, args->pdata[i]);
    return types;
}

static bool any_error(const Type **types, guint n)
{
    for (guint i = 0; i < n; i++)
        if (is_error(types[i]))
            return true;
    return false;
}

/* Argument count and types against the parameters of m. */
static void check_arguments(Checker *c, const MethodDecl *m, GPtrArray *args,
                            const Type **types, SrcPos pos)
{
    const char *what = m->is_constructor ? "constructor" : "method";
    if (args->len != m->params->len) {
        error(c, pos, "%s '%s' expects %u argument%s, found %u", what, m->name,
              m->params->len, m->params->len == 1 ? "" : "s", args->len);
        return;
    }
    for (guint i = 0; i < args->len; i++) {
        const Param *param = &g_array_index(m->params, Param, i);
        const Expr *arg = args->pdata[i];
        char *context = g_strdup_printf("argument %u of %s '%s': ", i + 1, what, m->name);
        check_assignable(c, param->type, types[i], arg->pos, context);
        g_free(context);
    }
}

/* m(args) without a receiver: a method of the enclosing class, else a
   top-level method. */
static int resolve_unqualified_call(Checker *c, const Expr *e)
{
    int m = c->class_index >= 0 ? method_of(c, c->class_index, e->name) : -1;
    if (m < 0)
        m = table_get(c->top_methods, e->name);
    if (m >= 0)
        return m;
    for (guint i = 0; i < c->ast->classes->len; i++) {
        if (method_of(c, (int) i, e->name) >= 0) {
            error(c, e->pos, "cannot call method '%s' of class '%s' without an object",
                  e->name, class_at(c, (int) i)->name);
            return -1;
        }
    }
    error(c, e->pos, "unknown method '%s'", e->name);
    return -1;
}

/* obj.m(args): a method of obj's class (receiver is obj's type). */
static int resolve_qualified_call(Checker *c, const Expr *e, const Type *receiver)
{
    if (is_error(receiver))
        return -1;
    if (receiver->kind != TY_CLASS) {
        error(c, e->pos, "cannot call method '%s' on a value of type %s", e->name,
              tname(c, receiver));
        return -1;
    }
    int m = method_of(c, receiver->class_index, e->name);
    if (m < 0)
        error(c, e->pos, "unknown method '%s' in class '%s'", e->name, receiver->class_name);
    return m;
}

/* ---- the methods of AtomicInteger and AtomicIntegerArray ------------ */

typedef struct {
    const char *name;
    AtomicMethod method;
    guint n_values;        /* int arguments, after an array's index */
    const Type *ret;
} AtomicMethodInfo;

static const AtomicMethodInfo atomic_methods[] = {
    { "get", ATOMIC_GET, 0, &type_int },
    { "set", ATOMIC_SET, 1, &type_void },
    { "compareAndSet", ATOMIC_COMPARE_AND_SET, 2, &type_bool },
    { "getAndIncrement", ATOMIC_GET_AND_INCREMENT, 0, &type_int },
    { "incrementAndGet", ATOMIC_INCREMENT_AND_GET, 0, &type_int },
    { "length", ATOMIC_LENGTH, 0, &type_int },
};

static const AtomicMethodInfo *find_atomic_method(const Type *receiver, const char *name)
{
    for (size_t i = 0; i < G_N_ELEMENTS(atomic_methods); i++) {
        const AtomicMethodInfo *info = &atomic_methods[i];
        bool applies = info->method != ATOMIC_LENGTH || receiver->kind == TY_ATOMIC_ARRAY;
        if (applies && strcmp(info->name, name) == 0)
            return info;
    }
    return NULL;
}

/* Every argument is an int: an AtomicIntegerArray's index (except for
   length()), then the values. */
static void check_atomic_arguments(Checker *c, const Expr *e, const Type *receiver,
                                   const AtomicMethodInfo *info, const Type **types)
{
    bool indexed = receiver->kind == TY_ATOMIC_ARRAY && info->method != ATOMIC_LENGTH;
    guint n = info->n_values + (indexed ? 1 : 0);
    if (e->args->len != n) {
        error(c, e->pos, "method '%s' of %s expects %u argument%s, found %u", e->name,
              tname(c, receiver), n, n == 1 ? "" : "s", e->args->len);
        return;
    }
    for (guint i = 0; i < n; i++) {
        const Expr *arg = e->args->pdata[i];
        char *context = g_strdup_printf("argument %u of method '%s' of %s: ", i + 1, e->name,
                                        tname(c, receiver));
        check_assignable(c, &type_int, types[i], arg->pos, context);
        g_free(context);
    }
}

static const Type *check_atomic_call(Checker *c, Expr *e, const Type *receiver)
{
    const Type **types = check_argument_values(c, e->args);
    const AtomicMethodInfo *info = find_atomic_method(receiver, e->name);
    if (info)
        check_atomic_arguments(c, e, receiver, info, types);
    else
        error(c, e->pos, "%s has no method '%s'", tname(c, receiver), e->name);
    g_free(types);
    if (!info)
        return &type_error;
    e->atomic = info->method;
    return info->ret;
}

/* new AtomicInteger(), new AtomicInteger(int), new AtomicIntegerArray(int) */
static void check_new_atomic(Checker *c, const Expr *e, const Type *t, const Type **types)
{
    guint n = e->args->len;
    bool is_array = t->kind == TY_ATOMIC_ARRAY;
    if (is_array ? n != 1 : n > 1) {
        error(c, e->pos, "constructor '%s' expects %s, found %u", tname(c, t),
              is_array ? "1 argument" : "0 or 1 arguments", n);
        return;
    }
    if (n == 1) {
        const Expr *arg = e->args->pdata[0];
        char *context = g_strdup_printf("argument 1 of constructor '%s': ", tname(c, t));
        check_assignable(c, &type_int, types[0], arg->pos, context);
        g_free(context);
    }
}

static const Type *check_call(Checker *c, Expr *e)
{
    const Type *receiver = e->lhs ? check_value(c, e->lhs) : NULL;
    if (receiver && type_is_atomic(receiver))
        return check_atomic_call(c, e, receiver);
    int m = e->lhs ? resolve_qualified_call(c, e, receiver) : resolve_unqualified_call(c, e);
    const Type **types = check_argument_values(c, e->args);
    if (m >= 0)
        check_arguments(c, method_at(c, m), e->args, types, e->pos);
    g_free(types);
    if (m < 0)
        return &type_error;
    e->method_index = m;
    return method_at(c, m)->ret;
}

/* "(int, boolean)" */
static char *types_text(Checker *c, const Type **types, guint n)
{
    GString *text = g_string_new("(");
    for (guint i = 0; i < n; i++)
        g_string_append_printf(text, "%s%s", i ? ", " : "", tname(c, types[i]));
    g_string_append_c(text, ')');
    return g_string_free(text, FALSE);
}

static bool constructor_applies(const MethodDecl *ctor, const Type **types, guint n,
                                bool *exact)
{
    if (ctor->params->len != n)
        return false;
    *exact = true;
    for (guint i = 0; i < n; i++) {
        const Type *param = g_array_index(ctor->params, Param, i).type;
        if (conversion(param, types[i]) != CONV_OK)
            return false;
        if (!type_equal(param, types[i]))
            *exact = false;
    }
    return true;
}

/* Among several constructors: the one whose parameter types are exactly
   the argument types, else the only one the arguments convert to. */
static int choose_constructor(Checker *c, const ClassDecl *cls, const Type **types,
                              guint n, SrcPos pos)
{
    int exact_match = -1, applicable = -1, n_applicable = 0;
    for (guint i = 0; i < cls->ctors->len; i++) {
        int index = g_array_index(cls->ctors, int, i);
        bool exact;
        if (!constructor_applies(method_at(c, index), types, n, &exact))
            continue;
        n_applicable++;
        applicable = index;
        if (exact)
            exact_match = index;
    }
    if (exact_match >= 0)
        return exact_match;
    if (n_applicable == 1)
        return applicable;
    char *args = types_text(c, types, n);
    if (n_applicable == 0)
        error(c, pos, "no constructor of class '%s' takes arguments %s", cls->name, args);
    else
        error(c, pos, "several constructors of class '%s' take arguments %s", cls->name, args);
    g_free(args);
    return -1;
}

static int resolve_constructor(Checker *c, Expr *e, int class_index, const Type **types)
{
    const ClassDecl *cls = class_at(c, class_index);
    guint n = e->args->len;
    if (cls->ctors->len == 0) {
        if (n > 0)
            error(c, e->pos, "class '%s' has no constructor; 'new %s()' takes no arguments",
                  cls->name, cls->name);
        return -1;
    }
    if (cls->ctors->len == 1) {
        int index = g_array_index(cls->ctors, int, 0);
        check_arguments(c, method_at(c, index), e->args, types, e->pos);
        return index;
    }
    if (any_error(types, n))
        return -1;
    return choose_constructor(c, cls, types, n, e->pos);
}

static const Type *check_new_object(Checker *c, Expr *e)
{
    const Type **types = check_argument_values(c, e->args);
    const Type *builtin = builtin_type(e->name);
    if (builtin) {
        check_new_atomic(c, e, builtin, types);
        g_free(types);
        return builtin;
    }
    int class_index = table_get(c->classes, e->name);
    if (class_index < 0)
        error(c, e->pos, "unknown class '%s'", e->name);
    else
        e->method_index = resolve_constructor(c, e, class_index, types);
    g_free(types);
    return class_index < 0 ? &type_error : c->class_types->pdata[class_index];
}

static const Type *check_new_array(Checker *c, Expr *e)
{
    resolve_type(c, e->type, e->pos);
    check_assignable(c, &type_int, check_value(c, e->lhs), e->lhs->pos, "");
    return is_error(e->type) ? &type_error : e->type;
}

static const Type *check_array_init(Checker *c, Expr *e)
{
    resolve_type(c, e->type, e->pos);
    for (guint i = 0; i < e->args->len; i++) {
        Expr *item = e->args->pdata[i];
        check_assignable(c, e->type->elem, check_value(c, item), item->pos, "");
    }
    return is_error(e->type) ? &type_error : e->type;
}

static const Type *check_unary(Checker *c, Expr *e)
{
    const Type *t = check_value(c, e->lhs);
    if (is_error(t))
        return &type_error;
    if (e->op == OPR_NOT ? t->kind == TY_BOOL : type_is_numeric(t))
        return t;
    error(c, e->pos, "bad operand type %s for unary operator '%s'", tname(c, t),
          operator_spelling(e->op));
    return &type_error;
}

/* The type of a op b, or NULL when the operator does not apply. */
static const Type *binary_type(Operator op, const Type *a, const Type *b)
{
    bool numeric = type_is_numeric(a) && type_is_numeric(b);
    bool boolean = a->kind == TY_BOOL && b->kind == TY_BOOL;
    switch (op) {
    case OPR_ADD: case OPR_SUB: case OPR_MUL: case OPR_DIV: case OPR_REM:
        return numeric ? promote(a, b) : NULL;
    case OPR_SHL: case OPR_SHR: case OPR_USHR:
        return numeric ? a : NULL;   /* the left operand's type, as in Java */
    case OPR_AND: case OPR_OR: case OPR_XOR:
        return numeric ? promote(a, b) : boolean ? &type_bool : NULL;
    case OPR_LAND: case OPR_LOR:
        return boolean ? &type_bool : NULL;
    case OPR_EQ: case OPR_NE:
        if (numeric || boolean)
            return &type_bool;
        if (type_is_ref(a) && type_is_ref(b) &&
            (a->kind == TY_NULL || b->kind == TY_NULL || type_equal(a, b)))
            return &type_bool;
        return NULL;
    case OPR_LT: case OPR_LE: case OPR_GT: case OPR_GE:
        return numeric ? &type_bool : NULL;
    default:
        return NULL;
    }
}

static const Type *check_operands(Checker *c, Operator op, const Type *a, const Type *b,
                                  SrcPos pos)
{
    if (is_error(a) || is_error(b))
        return &type_error;
    const Type *t = binary_type(op, a, b);
    if (t)
        return t;
    error(c, pos, "bad operand types for binary operator '%s': %s and %s",
          operator_spelling(op), tname(c, a), tname(c, b));
    return &type_error;
}

static const Type *check_binary(Checker *c, Expr *e)
{
    const Type *a = check_value(c, e->lhs);
    const Type *b = check_value(c, e->rhs);
    return check_operands(c, e->op, a, b, e->pos);
}

static const Type *check_conditional(Checker *c, Expr *e)
{
    check_boolean(c, e->cond);
    const Type *a = check_value(c, e->lhs);
    const Type *b = check_value(c, e->rhs);
    if (is_error(a) || is_error(b))
        return &type_error;
    if (type_is_numeric(a) && type_is_numeric(b))
        return promote(a, b);
    if (type_equal(a, b))
        return a;
    if (type_is_ref(a) && b->kind == TY_NULL)
        return a;
    if (type_is_ref(b) && a->kind == TY_NULL)
        return b;
    error(c, e->pos, "incompatible types in conditional expression: %s and %s",
          tname(c, a), tname(c, b));
    return &type_error;
}

static const Type *expr_type(Checker *c, Expr *e)
{
    switch (e->kind) {
    case EX_INT_LIT: return e->is_long ? &type_long : &type_int;
    case EX_BOOL_LIT: return &type_bool;
    case EX_NULL_LIT: return &type_null;
    case EX_NAME: return check_name(c, e);
    case EX_THIS: return check_this(c, e);
    case EX_FIELD: return check_field(c, e);
    case EX_INDEX: return check_index(c, e);
    case EX_CALL: return check_call(c, e);
    case EX_NEW_OBJECT: return check_new_object(c, e);
    case EX_NEW_ARRAY: return check_new_array(c, e);
    case EX_ARRAY_INIT: return check_array_init(c, e);
    case EX_UNARY: return check_unary(c, e);
    case EX_BINARY: return check_binary(c, e);
    case EX_COND: return check_conditional(c, e);
    }
    return &type_error;
}

static const Type *check_expr(Checker *c, Expr *e)
{
    e->type = expr_type(c, e);
    return e->type;
}

/* ---- assignment targets --------------------------------------------- */

/* A final field may be assigned in its class's constructors, through
   this.f or a bare f. */
static bool may_assign_final_field(const Checker *c, const Expr *target)
{
    if (!c->method || !c->method->is_constructor || c->method->class_index != target->sym_class)
        return false;
    return target->kind == EX_NAME || target->lhs->kind == EX_THIS;
}

static const Type *check_target(Checker *c, Expr *target)
{
    const Type *t = check_value(c, target);
    if (is_error(t))
        return t;
    if (target->sym == SYM_LENGTH) {
        error(c, target->pos, "cannot assign to the length of an array");
    } else if (target->sym == SYM_GLOBAL && global_at(c, target->sym_index)->is_final) {
        error(c, target->pos, "cannot assign to final global '%s'", target->name);
    } else if (target->sym == SYM_FIELD &&
               field_at(c, target->sym_class, target->sym_index)->is_final &&
               !may_assign_final_field(c, target)) {
        error(c, target->pos, "cannot assign to final field '%s'", target->name);
    }
    return t;
}

/* ---- statements ----------------------------------------------------- */

static void check_stmt(Checker *c, Stmt *s);

static void check_local(Checker *c, Stmt *s)
{
    resolve_type(c, s->decl_type, s->pos);
    for (guint i = 0; i < s->decls->len; i++) {
        LocalDecl *decl = &g_array_index(s->decls, LocalDecl, i);
        /* The initialiser is checked before the name is visible. */
        if (decl->init)
            check_assignable(c, s->decl_type, check_value(c, decl->init), decl->init->pos, "");
        decl->slot = declare_local(c, decl->name, s->decl_type, decl->pos);
    }
}

static void check_assign(Checker *c, Stmt *s)
{
    const Type *target = check_target(c, s->target);
    const Type *value = check_value(c, s->expr);
    if (s->op < 0) {
        check_assignable(c, target, value, s->expr->pos, "");
        return;
    }
    /* x op= e is x = (T) (x op e): any numeric result narrows back to T */
    check_operands(c, (Operator) s->op, target, value, s->pos);
}

static void check_incdec(Checker *c, Stmt *s)
{
    const Type *t = check_target(c, s->target);
    if (!is_error(t) && !type_is_numeric(t))
        error(c, s->pos, "bad operand type %s for '%s'", tname(c, t),
              s->op == OPR_ADD ? "++" : "--");
}

/* The statement of an if, else or loop: a declaration there would be a
   local nobody can use, which Java refuses too. */
static void check_sub_statement(Checker *c, Stmt *s)
{
    if (s->kind == ST_LOCAL)
        error(c, s->pos, "variable declaration not allowed here; use a block");
    open_scope(c);
    check_stmt(c, s);
    close_scope(c);
}

static void check_loop_body(Checker *c, Stmt *body)
{
    c->loop_depth++;
    check_sub_statement(c, body);
    c->loop_depth--;
}

static void check_for(Checker *c, Stmt *s)
{
    open_scope(c);
    s->loop_slot = c->next_slot++;
    if (s->init)
        check_stmt(c, s->init);
    if (s->cond)
        check_boolean(c, s->cond);
    if (s->update)
        check_stmt(c, s->update);
    check_loop_body(c, s->body_s);
    close_scope(c);
}

static void check_return(Checker *c, Stmt *s)
{
    const MethodDecl *m = c->method;
    if (!m) {
        if (s->expr) {
            check_value(c, s->expr);
            error(c, s->expr->pos, "a thread cannot return a value");
        }
        return;
    }
    if (m->ret->kind == TY_VOID) {
        if (s->expr) {
            check_value(c, s->expr);
            error(c, s->expr->pos, "cannot return a value from %s '%s'",
                  m->is_constructor ? "constructor" : "void method", m->name);
        }
        return;
    }
    if (!s->expr) {
        error(c, s->pos, "missing return value in method '%s'", m->name);
        return;
    }
    check_assignable(c, m->ret, check_value(c, s->expr), s->expr->pos, "");
}

static void check_synchronized(Checker *c, Stmt *s)
{
    const Type *t = check_value(c, s->expr);
    if (!is_error(t) && t->kind != TY_CLASS && t->kind != TY_ARRAY && !type_is_atomic(t))
        error(c, s->expr->pos, "cannot synchronize on a value of type %s", tname(c, t));
    check_stmt(c, s->body_s);
}

static void check_join(Checker *c, Stmt *s)
{
    s->sym_index = table_get(c->threads, s->name);
    if (s->sym_index < 0)
        error(c, s->pos, "unknown thread '%s'", s->name);
    else if (s->sym_index == c->thread_index)
        error(c, s->pos, "thread '%s' cannot join itself", s->name);
}

static void check_block(Checker *c, Stmt *s)
{
    open_scope(c);
    for (guint i = 0; i < s->body->len; i++)
        check_stmt(c, s->body->pdata[i]);
    close_scope(c);
}

static void check_stmt(Checker *c, Stmt *s)
{
    switch (s->kind) {
    case ST_BLOCK: check_block(c, s); break;
    case ST_LOCAL: check_local(c, s); break;
    case ST_ASSIGN: check_assign(c, s); break;
    case ST_INCDEC: check_incdec(c, s); break;
    case ST_EXPR: check_expr(c, s->expr); break;
    case ST_IF:
        check_boolean(c, s->cond);
        check_sub_statement(c, s->then_s);
        if (s->else_s)
            check_sub_statement(c, s->else_s);
        break;
    case ST_WHILE:
        s->loop_slot = c->next_slot++;
        check_boolean(c, s->cond);
        check_loop_body(c, s->body_s);
        break;
    case ST_DO:
        s->loop_slot = c->next_slot++;
        check_loop_body(c, s->body_s);
        check_boolean(c, s->cond);
        break;
    case ST_FOR: check_for(c, s); break;
    case ST_BREAK:
    case ST_CONTINUE:
        if (c->loop_depth == 0)
            error(c, s->pos, "'%s' outside of a loop", s->kind == ST_BREAK ? "break" : "continue");
        break;
    case ST_RETURN: check_return(c, s); break;
    case ST_SYNC: check_synchronized(c, s); break;
    case ST_ASSERT:
    case ST_ASSUME: check_boolean(c, s->cond); break;
    case ST_JOIN: check_join(c, s); break;
    case ST_EMPTY: break;
    }
}

/* ---- missing return (JLS 14.22, for the statements we have) --------- */

static bool is_constant_true(const Expr *e)
{
    return !e || (e->kind == EX_BOOL_LIT && e->ival == 1);
}

/* Whether s holds a break (or continue) that leaves the loop around s,
   i.e. one not inside a nested loop. */
static bool has_jump(const Stmt *s, StmtKind jump)
{
    if (!s)
        return false;
    switch (s->kind) {
    case ST_BREAK: case ST_CONTINUE:
        return s->kind == jump;
    case ST_BLOCK:
        for (guint i = 0; i < s->body->len; i++)
            if (has_jump(s->body->pdata[i], jump))
                return true;
        return false;
    case ST_IF:
        return has_jump(s->then_s, jump) || has_jump(s->else_s, jump);
    case ST_SYNC:
        return has_jump(s->body_s, jump);
    default:
        return false;
    }
}

static bool can_complete(const Stmt *s)
{
    switch (s->kind) {
    case ST_RETURN: case ST_BREAK: case ST_CONTINUE:
        return false;
    case ST_BLOCK:
        for (guint i = 0; i < s->body->len; i++)
            if (!can_complete(s->body->pdata[i]))
                return false;
        return true;
    case ST_IF:
        return !s->else_s || can_complete(s->then_s) || can_complete(s->else_s);
    case ST_WHILE: case ST_FOR:
        return !is_constant_true(s->cond) || has_jump(s->body_s, ST_BREAK);
    case ST_DO:
        return ((can_complete(s->body_s) || has_jump(s->body_s, ST_CONTINUE)) &&
                !is_constant_true(s->cond)) || has_jump(s->body_s, ST_BREAK);
    case ST_SYNC:
        return can_complete(s->body_s);
    default:
        return true;
    }
}

/* ---- declarations --------------------------------------------------- */

static void declare_classes(Checker *c)
{
    for (guint i = 0; i < c->ast->classes->len; i++) {
        ClassDecl *cls = class_at(c, (int) i);
        if (builtin_type(cls->name))
            error(c, cls->pos, "'%s' is the name of a built-in class", cls->name);
        else if (!table_add(c->classes, cls->name, (int) i))
            error(c, cls->pos, "duplicate class '%s'", cls->name);
        Type *t = ast_new_type(c->ast, TY_CLASS);
        t->class_name = cls->name;
        t->class_index = (int) i;
        g_ptr_array_add(c->class_types, t);
        g_ptr_array_add(c->fields_of, table_new());
        g_ptr_array_add(c->methods_of, table_new());
    }
}

static void declare_fields(Checker *c, int class_index)
{
    ClassDecl *cls = class_at(c, class_index);
    for (guint i = 0; i < cls->fields->len; i++) {
        VarDecl *field = &g_array_index(cls->fields, VarDecl, i);
        if (!table_add(c->fields_of->pdata[class_index], field->name, (int) i))
            error(c, field->pos, "duplicate field '%s' in class '%s'", field->name, cls->name);
        resolve_type(c, field->type, field->pos);
    }
}

static bool same_parameter_types(const MethodDecl *a, const MethodDecl *b)
{
    if (a->params->len != b->params->len)
        return false;
    for (guint i = 0; i < a->params->len; i++)
        if (!type_equal(g_array_index(a->params, Param, i).type,
                        g_array_index(b->params, Param, i).type))
            return false;
    return true;
}

static void declare_constructors(Checker *c, int class_index)
{
    ClassDecl *cls = class_at(c, class_index);
    for (guint i = 1; i < cls->ctors->len; i++) {
        MethodDecl *ctor = method_at(c, g_array_index(cls->ctors, int, i));
        for (guint j = 0; j < i; j++) {
            if (same_parameter_types(ctor, method_at(c, g_array_index(cls->ctors, int, j)))) {
                error(c, ctor->pos, "duplicate constructor of class '%s' with the same parameter types",
                      cls->name);
                break;
            }
        }
    }
}

/* Method names, return and parameter types. */
static void declare_methods(Checker *c)
{
    for (guint i = 0; i < c->ast->methods->len; i++) {
        MethodDecl *m = method_at(c, (int) i);
        resolve_type(c, m->ret, m->pos);
        for (guint k = 0; k < m->params->len; k++) {
            const Param *param = &g_array_index(m->params, Param, k);
            resolve_type(c, param->type, param->pos);
        }
        if (m->is_constructor)
            continue;
        if (m->class_index < 0 && !table_add(c->top_methods, m->name, (int) i))
            error(c, m->pos, "duplicate method '%s'", m->name);
        if (m->class_index >= 0 && !table_add(c->methods_of->pdata[m->class_index], m->name, (int) i))
            error(c, m->pos, "duplicate method '%s' in class '%s'", m->name,
                  class_at(c, m->class_index)->name);
    }
    for (guint i = 0; i < c->ast->classes->len; i++)
        declare_constructors(c, (int) i);
}

static void declare_globals_and_threads(Checker *c)
{
    for (guint i = 0; i < c->ast->globals->len; i++) {
        VarDecl *global = global_at(c, (int) i);
        if (!table_add(c->globals, global->name, (int) i))
            error(c, global->pos, "duplicate global '%s'", global->name);
        resolve_type(c, global->type, global->pos);
    }
    for (guint i = 0; i < c->ast->threads->len; i++) {
        ThreadDecl *t = thread_at(c, (int) i);
        if (strcmp(t->name, "init") == 0)
            /* Results name the thread that runs the initialisers so. */
            error(c, t->pos, "'init' names the initial thread; choose another thread name");
        else if (!table_add(c->threads, t->name, (int) i))
            error(c, t->pos, "duplicate thread '%s'", t->name);
    }
}

/* ---- bodies --------------------------------------------------------- */

/* Global initialisers: expressions of the initial thread, no locals. */
static void check_initialisers(Checker *c)
{
    begin_body(c, NULL, -1);
    for (guint i = 0; i < c->ast->globals->len; i++) {
        VarDecl *global = global_at(c, (int) i);
        c->initialising = (int) i;
        if (global->init)
            check_assignable(c, global->type, check_value(c, global->init), global->init->pos, "");
        else if (global->is_final)
            /* only its initialiser may assign a final global */
            error(c, global->pos, "final global '%s' has no initialiser", global->name);
    }
    c->initialising = -1;
    c->ast->init_n_locals = c->next_slot;
}

static void check_method(Checker *c, MethodDecl *m)
{
    begin_body(c, m, -1);
    if (m->class_index >= 0)
        c->next_slot++;   /* slot 0: this */
    open_scope(c);
    for (guint i = 0; i < m->params->len; i++) {
        const Param *param = &g_array_index(m->params, Param, i);
        declare_local(c, param->name, param->type, param->pos);
    }
    check_stmt(c, m->body);
    close_scope(c);
    m->n_locals = c->next_slot;
    if (m->ret->kind != TY_VOID && can_complete(m->body))
        error(c, m->pos, "missing return statement in method '%s'", m->name);
}

/* The locals declared directly in the body are the thread's registers. */
static void collect_registers(ThreadDecl *t)
{
    for (guint i = 0; i < t->body->body->len; i++) {
        const Stmt *s = t->body->body->pdata[i];
        if (s->kind != ST_LOCAL)
            continue;
        for (guint k = 0; k < s->decls->len; k++) {
            const LocalDecl *decl = &g_array_index(s->decls, LocalDecl, k);
            g_ptr_array_add(t->reg_names, (gpointer) decl->name);
            g_array_append_val(t->reg_slots, decl->slot);
            g_ptr_array_add(t->reg_types, (gpointer) s->decl_type);
        }
    }
}

static void check_thread(Checker *c, int index)
{
    ThreadDecl *t = thread_at(c, index);
    begin_body(c, NULL, index);
    check_stmt(c, t->body);
    t->n_locals = c->next_slot;
    collect_registers(t);
}

/* ---- condition locations -------------------------------------------- */

static int register_index(const ThreadDecl *t, const char *name)
{
    for (guint i = 0; i < t->reg_names->len; i++)
        if (strcmp(t->reg_names->pdata[i], name) == 0)
            return (int) i;
    return -1;
}

static void bind_register(Checker *c, CondLoc *loc, int thread_index, int reg)
{
    const ThreadDecl *t = thread_at(c, thread_index);
    loc->is_register = true;
    loc->thread_index = thread_index;
    loc->reg_slot = g_array_index(t->reg_slots, int, reg);
    loc->type = t->reg_types->pdata[reg];
}

/* "'r1' is a register of T1 and T2; write T1:r1 or T2:r1" */
static void report_ambiguous_register(Checker *c, const CondLoc *loc, GArray *owners)
{
    GString *names = g_string_new(NULL), *choices = g_string_new(NULL);
    for (guint i = 0; i < owners->len; i++) {
        const char *sep = i == 0 ? "" : i + 1 == owners->len ? " and " : ", ";
        const char *thread = thread_at(c, g_array_index(owners, int, i))->name;
        g_string_append_printf(names, "%s%s", sep, thread);
        g_string_append_printf(choices, "%s%s:%s", i == 0 ? "" : i + 1 == owners->len ? " or " : ", ",
                               thread, loc->name);
    }
    error(c, loc->pos, "'%s' is a register of %s; write %s", loc->name, names->str, choices->str);
    g_string_free(names, TRUE);
    g_string_free(choices, TRUE);
}

/* A bare name: a global, else the register of the one thread that has it. */
static bool resolve_bare_location(Checker *c, CondLoc *loc)
{
    loc->global_index = table_get(c->globals, loc->name);
    if (loc->global_index >= 0) {
        loc->type = global_at(c, loc->global_index)->type;
        return true;
    }
    GArray *owners = g_array_new(FALSE, FALSE, sizeof(int));
    int reg = -1;
    for (guint i = 0; i < c->ast->threads->len; i++) {
        int found = register_index(thread_at(c, (int) i), loc->name);
        if (found >= 0) {
            int thread = (int) i;
            g_array_append_val(owners, thread);
            reg = found;
        }
    }
    bool ok = owners->len == 1;
    if (ok)
        bind_register(c, loc, g_array_index(owners, int, 0), reg);
    else if (owners->len == 0)
        error(c, loc->pos, "unknown location '%s': no global and no thread's register has that name",
              loc->name);
    else
        report_ambiguous_register(c, loc, owners);
    g_array_unref(owners);
    return ok;
}

static bool resolve_location_base(Checker *c, CondLoc *loc)
{
    if (!loc->thread)
        return resolve_bare_location(c, loc);
    int thread = table_get(c->threads, loc->thread);
    if (thread < 0) {
        error(c, loc->pos, "unknown thread '%s'", loc->thread);
        return false;
    }
    int reg = register_index(thread_at(c, thread), loc->name);
    if (reg < 0) {
        error(c, loc->pos, "thread '%s' has no register '%s'", loc->thread, loc->name);
        return false;
    }
    bind_register(c, loc, thread, reg);
    return true;
}

/* Follows .f and [k]; text holds the spelling so far. */
static bool resolve_location_steps(Checker *c, CondLoc *loc, GString *text)
{
    for (guint i = 0; i < loc->steps->len; i++) {
        LocStep *step = &g_array_index(loc->steps, LocStep, i);
        const Type *t = loc->type;
        if (is_error(t))
            return false;
        if (step->kind == LOCSTEP_INDEX) {
            if (t->kind != TY_ARRAY && t->kind != TY_ATOMIC_ARRAY) {
                error(c, loc->pos, "cannot index '%s' of type %s", text->str, tname(c, t));
                return false;
            }
            loc->type = t->elem;
            g_string_append_printf(text, "[%" G_GINT64_FORMAT "]", step->index);
            continue;
        }
        int field = t->kind == TY_CLASS ? field_of(c, t->class_index, step->name) : -1;
        if (field < 0) {
            if (t->kind == TY_CLASS)
                error(c, loc->pos, "unknown field '%s' in class '%s'", step->name, t->class_name);
            else
                error(c, loc->pos, "'%s' of type %s has no field '%s'", text->str, tname(c, t),
                      step->name);
            return false;
        }
        step->field_index = field;
        step->class_index = t->class_index;
        loc->type = field_at(c, t->class_index, field)->type;
        g_string_append_printf(text, ".%s", step->name);
    }
    return true;
}

/* In a condition an AtomicInteger stands for its value: one more step,
   to the only field of its built-in class (see compile.h). */
static void step_into_atomic(CondLoc *loc)
{
    LocStep step = { .kind = LOCSTEP_FIELD, .name = "value", .field_index = 0, .class_index = -1 };
    g_array_append_val(loc->steps, step);
    loc->type = &type_int;
}

static void resolve_location(Checker *c, CondLoc *loc)
{
    loc->type = &type_error;
    bool ok = resolve_location_base(c, loc);
    GString *text = g_string_new(NULL);
    if (loc->is_register)
        g_string_append_printf(text, "%s:%s", thread_at(c, loc->thread_index)->name, loc->name);
    else if (loc->thread)
        g_string_append_printf(text, "%s:%s", loc->thread, loc->name);
    else
        g_string_append(text, loc->name);
    if (ok && !resolve_location_steps(c, loc, text))
        loc->type = &type_error;
    else if (ok && !loc->is_register && loc->type->kind == TY_ATOMIC_INT)
        step_into_atomic(loc);
    loc->text = g_string_chunk_insert(c->ast->strings, text->str);
    g_string_free(text, TRUE);
}

static const char *value_kind(const CondCmp *cmp)
{
    return cmp->base.value_is_null ? "null" : cmp->value_is_bool ? "a boolean" : "an integer";
}

/* The value must suit the location: integers for numbers, true/false for
   booleans, null for references; order only on numbers. */
static void check_comparison(Checker *c, const CondCmp *cmp)
{
    const CondLoc *loc = c->ast->shown->pdata[cmp->base.loc];
    const Type *t = loc->type;
    if (is_error(t))
        return;
    bool fits = type_is_numeric(t) ? !cmp->value_is_bool && !cmp->base.value_is_null
              : t->kind == TY_BOOL ? cmp->value_is_bool
              : cmp->base.value_is_null;
    if (!fits) {
        error(c, cmp->value_pos, "cannot compare '%s' of type %s with %s", loc->text,
              tname(c, t), value_kind(cmp));
    } else if (!type_is_numeric(t) && cmp->base.op != OPR_EQ && cmp->base.op != OPR_NE) {
        error(c, cmp->base.pos, "cannot order '%s' of type %s with '%s'", loc->text,
              tname(c, t), operator_spelling(cmp->base.op));
    }
}

/* Points each comparison at the merged location and checks its value. */
static void remap_condition(Checker *c, CondExpr *e, const int *merged)
{
    switch (e->kind) {
    case CE_CMP:
        e->loc = merged[e->loc];
        check_comparison(c, (const CondCmp *) e);
        break;
    case CE_AND: case CE_OR:
        remap_condition(c, e->a, merged);
        remap_condition(c, e->b, merged);
        break;
    case CE_NOT:
        remap_condition(c, e->a, merged);
        break;
    case CE_TRUE:
        break;
    }
}

static void show_all_registers(Checker *c)
{
    for (guint i = 0; i < c->ast->threads->len; i++) {
        const ThreadDecl *t = thread_at(c, (int) i);
        for (guint r = 0; r < t->reg_names->len; r++) {
            CondLoc *loc = ast_new_loc(c->ast, t->pos);
            loc->thread = t->name;
            loc->name = t->reg_names->pdata[r];
            bind_register(c, loc, (int) i, (int) r);
            char *text = g_strdup_printf("%s:%s", t->name, loc->name);
            loc->text = g_string_chunk_insert(c->ast->strings, text);
            g_free(text);
            g_ptr_array_add(c->ast->shown, loc);
        }
    }
}

/* The parser left one entry in Ast.shown per comparison, then the
   locations list; resolve them and keep each canonical text once. */
static void check_locations(Checker *c)
{
    GPtrArray *written = c->ast->shown;
    GPtrArray *shown = g_ptr_array_new();
    GHashTable *by_text = table_new();
    int *merged = g_new(int, written->len + 1);
    for (guint i = 0; i < written->len; i++) {
        CondLoc *loc = written->pdata[i];
        resolve_location(c, loc);
        merged[i] = table_get(by_text, loc->text);
        if (merged[i] < 0) {
            merged[i] = (int) shown->len;
            table_add(by_text, loc->text, merged[i]);
            g_ptr_array_add(shown, loc);
        }
    }
    c->ast->shown = shown;
    if (c->ast->cond)
        remap_condition(c, c->ast->cond, merged);
    else if (shown->len == 0)
        show_all_registers(c);
    g_free(merged);
    g_hash_table_unref(by_text);
    g_ptr_array_unref(written);
}

/* ---- entry points --------------------------------------------------- */

static void checker_init(Checker *c, Ast *ast)
{
    *c = (Checker) {
        .ast = ast,
        .globals = table_new(), .classes = table_new(),
        .top_methods = table_new(), .threads = table_new(),
        .fields_of = g_ptr_array_new_with_free_func((GDestroyNotify) g_hash_table_unref),
        .methods_of = g_ptr_array_new_with_free_func((GDestroyNotify) g_hash_table_unref),
        .class_types = g_ptr_array_new(),
        .locals = g_array_new(FALSE, FALSE, sizeof(Local)),
        .scope_starts = g_array_new(FALSE, FALSE, sizeof(int)),
        .class_index = -1, .thread_index = -1, .initialising = -1,
    };
    diag_init(&c->diag, ast->filename, ast->source, strlen(ast->source), CHECK_MAX_ERRORS);
}

static void checker_clear(Checker *c)
{
    g_hash_table_unref(c->globals);
    g_hash_table_unref(c->classes);
    g_hash_table_unref(c->top_methods);
    g_hash_table_unref(c->threads);
    g_ptr_array_unref(c->fields_of);
    g_ptr_array_unref(c->methods_of);
    g_ptr_array_unref(c->class_types);
    g_array_unref(c->locals);
    g_array_unref(c->scope_starts);
}

bool lang_check(Ast *ast, GError **err)
{
    Checker c;
    checker_init(&c, ast);
    declare_classes(&c);
    for (guint i = 0; i < ast->classes->len; i++)
        declare_fields(&c, (int) i);
    declare_methods(&c);
    declare_globals_and_threads(&c);
    check_initialisers(&c);
    for (guint i = 0; i < ast->methods->len; i++)
        check_method(&c, method_at(&c, (int) i));
    for (guint i = 0; i < ast->threads->len; i++)
        check_thread(&c, (int) i);
    check_locations(&c);
    checker_clear(&c);
    return diag_finish(&c.diag, PR_LANG_ERROR_CHECK, err);
}

/* A litmus file is UTF-8 text (reports quote it, and JSON needs it). */
static bool check_utf8(const char *filename, const char *text, gsize len, GError **err)
{
    const char *bad;
    if (g_utf8_validate(text, (gssize)len, &bad))
        return true;
    SrcPos pos = {1, 1};
    for (const char *p = text; p < bad; p++) {
        if (*p == '\n') {
            pos.line++;
            pos.col = 1;
        } else {
            pos.col++;
        }
    }
    Diag diag;
    diag_init(&diag, filename, text, len, 1);
    if (*bad == '\0')
        diag_error(&diag, pos, "a NUL byte in the file (litmus files are UTF-8 text)");
    else
        diag_error(&diag, pos, "invalid UTF-8 byte 0x%02x (litmus files are UTF-8 text)",
                   (unsigned char)*bad);
    diag_finish(&diag, PR_LANG_ERROR_SYNTAX, err);
    return false;
}

static Ast *load_text(const char *filename, const char *text, gsize len, GError **err)
{
    if (!check_utf8(filename, text, len, err))
        return NULL;
    Ast *ast = parse_text(filename, text, len, err);
    if (ast && !lang_check(ast, err)) {
        ast_free(ast);
        return NULL;
    }
    return ast;
}

Ast *lang_load_string(const char *filename, const char *text, GError **err)
{
    return load_text(filename, text, strlen(text), err);
}

/* Reads the whole file; on failure returns NULL with errno's reason. */
static GString *read_file(const char *path, int *error_number)
{
    FILE *file = fopen(path, "rb");
    if (!file) {
        *error_number = errno;
        return NULL;
    }
    GString *text = g_string_new(NULL);
    char buffer[65536];
    size_t n;
    while ((n = fread(buffer, 1, sizeof buffer, file)) > 0)
        g_string_append_len(text, buffer, (gssize) n);
    *error_number = ferror(file) ? errno : 0;
    fclose(file);
    if (*error_number == 0)
        return text;
    g_string_free(text, TRUE);
    return NULL;
}

Ast *lang_load_file(const char *path, GError **err)
{
    int error_number;
    GString *text = read_file(path, &error_number);
    if (!text) {
        g_set_error(err, PR_LANG_ERROR, PR_LANG_ERROR_IO, "%s: error: cannot read: %s", path,
                    g_strerror(error_number));
        return NULL;
    }
    Ast *ast = load_text(path, text->str, text->len, err);
    g_string_free(text, TRUE);
    return ast;
}
