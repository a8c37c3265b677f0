/* PathRelax front end: recursive-descent parser from tokens to the Ast.
 *
 * Copyright (C) 2026 the PathRelax authors. GPL-3.0-or-later.
 *
 * The parser stops at the first error: every parse function returns NULL
 * (or false) once p->failed is set, and its callers pass that on.
 *
 * Nesting: every production that recurses (statements, expressions, prefix
 * operators, conditions) and every left-deep chain (a + b + c, a.f.g, a[0][1])
 * counts one level in p->depth, so that neither the parser nor any later
 * pass over the tree can exhaust the C stack.
 */
#include "lang_internal.h"

#include <stdarg.h>
#include <string.h>

typedef struct {
    Ast *ast;
    GArray *tokens;      /* Token; the last is TK_EOF or TK_ERROR */
    guint next;          /* index of the current token */
    Diag diag;
    bool failed;
    int depth;           /* nesting of statements and expressions so far */
    int class_index;     /* class whose members are being parsed, or -1 */
} Parser;

/* ---- tokens --------------------------------------------------------- */

static const Token *peek_token(const Parser *p, guint ahead)
{
    guint index = MIN(p->next + ahead, p->tokens->len - 1);
    return &g_array_index(p->tokens, Token, index);
}

static const Token *cur(const Parser *p)
{
    return peek_token(p, 0);
}

static bool at(const Parser *p, TokenKind kind)
{
    return cur(p)->kind == kind;
}

static const Token *advance(Parser *p)
{
    const Token *tok = cur(p);
    if (p->next + 1 < p->tokens->len)
        p->next++;
    return tok;
}

static bool accept(Parser *p, TokenKind kind)
{
    if (!at(p, kind))
        return false;
    advance(p);
    return true;
}

/* ---- errors --------------------------------------------------------- */

static void G_GNUC_PRINTF(3, 4)
fail_at(Parser *p, SrcPos pos, const char *fmt, ...)
{
    if (p->failed)
        return;
    va_list args;
    va_start(args, fmt);
    char *message = g_strdup_vprintf(fmt, args);
    va_end(args);
    diag_error(&p->diag, pos, "%s", message);
    g_free(message);
    p->failed = true;
}

/* An error at the current token. When that token is a lexical error, the
   lexer's message is the real cause and is reported instead. */
static void G_GNUC_PRINTF(2, 3)
fail_here(Parser *p, const char *fmt, ...)
{
    const Token *tok = cur(p);
    if (tok->kind == TK_ERROR) {
        fail_at(p, tok->pos, "%s", tok->text);
        return;
    }
    va_list args;
    va_start(args, fmt);
    char *message = g_strdup_vprintf(fmt, args);
    va_end(args);
    fail_at(p, tok->pos, "%s", message);
    g_free(message);
}

/* The current token as a message shows it: 'x', '}', a string, end of file. */
static char *describe_current(const Parser *p)
{
    const Token *tok = cur(p);
    if (tok->kind == TK_EOF || tok->kind == TK_STRING)
        return g_strdup(token_kind_name(tok->kind));
    const char *text = p->ast->source + tok->offset;
    if (tok->len > 32)
        return g_strdup_printf("'%.29s...'", text);
    return g_strdup_printf("'%.*s'", (int) tok->len, text);
}

static void expected(Parser *p, const char *what)
{
    char *found = describe_current(p);
    fail_here(p, "expected %s, found %s", what, found);
    g_free(found);
}

static bool expect(Parser *p, TokenKind kind, const char *context)
{
    if (accept(p, kind))
        return true;
    char *what = g_strdup_printf("%s %s", token_kind_name(kind), context);
    expected(p, what);
    g_free(what);
    return false;
}

/* The name at the current token, consumed; NULL after an error. */
static const Token *expect_name(Parser *p, const char *what)
{
    if (at(p, TK_IDENT))
        return advance(p);
    expected(p, what);
    return NULL;
}

/* ---- nesting -------------------------------------------------------- */

static bool enter(Parser *p)
{
    if (++p->depth <= LANG_MAX_NESTING)
        return true;
    fail_here(p, "nesting deeper than %d levels", LANG_MAX_NESTING);
    return false;
}

static void leave(Parser *p)
{
    p->depth--;
}

/* ---- types ---------------------------------------------------------- */

static const Type *array_of(Parser *p, const Type *elem, int dims, SrcPos pos)
{
    for (int d = 0; d < dims; d++) {
        if (d == LANG_MAX_ARRAY_DIMS) {
            fail_at(p, pos, "array type has more than %d dimensions", LANG_MAX_ARRAY_DIMS);
            return NULL;
        }
        Type *array = ast_new_type(p->ast, TY_ARRAY);
        array->elem = elem;
        elem = array;
    }
    return elem;
}

/* Consumes "[]" pairs; returns how many. */
static int parse_dims(Parser *p)
{
    int dims = 0;
    while (at(p, TK_LBRACKET) && peek_token(p, 1)->kind == TK_RBRACKET) {
        advance(p);
        advance(p);
        dims++;
    }
    return dims;
}

/* int, long, boolean, void or a class name: no array suffix. */
static const Type *parse_base_type(Parser *p)
{
    const Token *tok = cur(p);
    switch (tok->kind) {
    case TK_KW_INT: advance(p); return &type_int;
    case TK_KW_LONG: advance(p); return &type_long;
    case TK_KW_BOOLEAN: advance(p); return &type_bool;
    case TK_KW_VOID: advance(p); return &type_void;
    case TK_IDENT: {
        advance(p);
        Type *t = ast_new_type(p->ast, TY_CLASS);
        t->class_name = tok->text;
        return t;
    }
    default:
        expected(p, "a type");
        return NULL;
    }
}

static const Type *parse_type(Parser *p)
{
    SrcPos pos = cur(p)->pos;
    const Type *base = parse_base_type(p);
    if (!base)
        return NULL;
    int dims = parse_dims(p);
    if (base->kind == TY_VOID && dims > 0) {
        fail_at(p, pos, "'void' cannot be an array element type");
        return NULL;
    }
    return array_of(p, base, dims, pos);
}

/* Variables (globals, fields, locals, parameters) cannot be void. */
static bool reject_void(Parser *p, const Type *type, SrcPos pos)
{
    if (type->kind != TY_VOID)
        return true;
    fail_at(p, pos, "a variable cannot have type 'void'");
    return false;
}

/* ---- expressions ---------------------------------------------------- */

static Expr *parse_expression(Parser *p);
static Expr *parse_unary(Parser *p);

static bool can_start_expression(TokenKind kind)
{
    switch (kind) {
    case TK_IDENT: case TK_INT_LIT: case TK_KW_TRUE: case TK_KW_FALSE:
    case TK_KW_NULL: case TK_KW_THIS: case TK_KW_NEW: case TK_LPAREN:
    case TK_MINUS: case TK_BANG: case TK_TILDE:
        return true;
    default:
        return false;
    }
}

/* The magnitude a decimal literal may have only right after a unary minus:
   2147483648 for int, 9223372036854775808 for long. */
static bool is_min_magnitude(const Token *tok)
{
    return tok->kind == TK_INT_LIT && !tok->is_hex &&
           tok->value == (tok->is_long ? (uint64_t) INT64_MAX + 1 : (uint64_t) INT32_MAX + 1);
}

static Expr *new_int_literal(Parser *p, const Token *tok, SrcPos pos, int64_t value)
{
    Expr *e = ast_new_expr(p->ast, EX_INT_LIT, pos);
    e->ival = value;
    e->is_long = tok->is_long;
    return e;
}

static Expr *parse_int_literal(Parser *p)
{
    const Token *tok = advance(p);
    if (tok->beyond_int) {
        fail_at(p, tok->pos, "integer literal too large for int: %.*s (add L for a long)",
                (int) tok->len, p->ast->source + tok->offset);
        return NULL;
    }
    if (is_min_magnitude(tok)) {
        fail_at(p, tok->pos, "integer literal too large for %s: %.*s",
                tok->is_long ? "long" : "int", (int) tok->len, p->ast->source + tok->offset);
        return NULL;
    }
    return new_int_literal(p, tok, tok->pos, (int64_t) tok->value);
}

/* "(args)" after a call or a "new Name"; fills a new argument array. */
static GPtrArray *parse_arguments(Parser *p)
{
    GPtrArray *args = ast_ptr_array(p->ast);
    if (!expect(p, TK_LPAREN, "to start the arguments"))
        return NULL;
    if (accept(p, TK_RPAREN))
        return args;
    do {
        Expr *arg = parse_expression(p);
        if (!arg)
            return NULL;
        g_ptr_array_add(args, arg);
    } while (accept(p, TK_COMMA));
    return expect(p, TK_RPAREN, "after the arguments") ? args : NULL;
}

static Expr *parse_call(Parser *p, Expr *receiver, const Token *name)
{
    Expr *call = ast_new_expr(p->ast, EX_CALL, receiver ? receiver->pos : name->pos);
    call->lhs = receiver;
    call->name = name->text;
    call->args = parse_arguments(p);
    return call->args ? call : NULL;
}

/* new T[] {e, ...}: the cursor is on the first "[". */
static Expr *parse_array_initialiser(Parser *p, const Type *elem, SrcPos pos)
{
    Expr *e = ast_new_expr(p->ast, EX_ARRAY_INIT, pos);
    e->type = array_of(p, elem, parse_dims(p), pos);
    e->args = ast_ptr_array(p->ast);
    if (!e->type || !expect(p, TK_LBRACE, "after 'new T[]'"))
        return NULL;
    while (!at(p, TK_RBRACE)) {
        Expr *item = parse_expression(p);
        if (!item)
            return NULL;
        g_ptr_array_add(e->args, item);
        if (!accept(p, TK_COMMA))
            break;
    }
    return expect(p, TK_RBRACE, "to close the array initialiser") ? e : NULL;
}

/* new T[n] and new T[n][]...: the cursor is on the first "[". */
static Expr *parse_array_creation(Parser *p, const Type *elem, SrcPos pos)
{
    Expr *e = ast_new_expr(p->ast, EX_NEW_ARRAY, pos);
    advance(p);
    e->lhs = parse_expression(p);
    if (!e->lhs || !expect(p, TK_RBRACKET, "after the array length"))
        return NULL;
    int dims = 1 + parse_dims(p);
    if (at(p, TK_LBRACKET)) {
        fail_here(p, "only the first dimension of a new array can have a length");
        return NULL;
    }
    e->type = array_of(p, elem, dims, pos);
    return e->type ? e : NULL;
}

static Expr *parse_new(Parser *p)
{
    SrcPos pos = advance(p)->pos;
    if (at(p, TK_IDENT) && peek_token(p, 1)->kind == TK_LPAREN) {
        Expr *e = ast_new_expr(p->ast, EX_NEW_OBJECT, pos);
        e->name = advance(p)->text;
        e->args = parse_arguments(p);
        return e->args ? e : NULL;
    }
    if (!at(p, TK_KW_INT) && !at(p, TK_KW_LONG) && !at(p, TK_KW_BOOLEAN) && !at(p, TK_IDENT)) {
        expected(p, "a class or element type after 'new'");
        return NULL;
    }
    const Type *elem = parse_base_type(p);
    if (!at(p, TK_LBRACKET)) {
        expected(p, "'(' or '[' after the type in 'new'");
        return NULL;
    }
    if (peek_token(p, 1)->kind == TK_RBRACKET)
        return parse_array_initialiser(p, elem, pos);
    return parse_array_creation(p, elem, pos);
}

static Expr *parse_primary(Parser *p)
{
    const Token *tok = cur(p);
    Expr *e;
    switch (tok->kind) {
    case TK_INT_LIT:
        return parse_int_literal(p);
    case TK_KW_TRUE:
    case TK_KW_FALSE:
        e = ast_new_expr(p->ast, EX_BOOL_LIT, advance(p)->pos);
        e->ival = tok->kind == TK_KW_TRUE;
        return e;
    case TK_KW_NULL:
        return ast_new_expr(p->ast, EX_NULL_LIT, advance(p)->pos);
    case TK_KW_THIS:
        return ast_new_expr(p->ast, EX_THIS, advance(p)->pos);
    case TK_IDENT:
        advance(p);
        if (at(p, TK_LPAREN))
            return parse_call(p, NULL, tok);
        e = ast_new_expr(p->ast, EX_NAME, tok->pos);
        e->name = tok->text;
        return e;
    case TK_LPAREN:
        advance(p);
        e = parse_expression(p);
        return e && expect(p, TK_RPAREN, "to close '('") ? e : NULL;
    case TK_KW_NEW:
        return parse_new(p);
    default:
        expected(p, "an expression");
        return NULL;
    }
}

/* One ".f", ".m(args)" or "[i]" applied to e. */
static Expr *parse_postfix_step(Parser *p, Expr *e)
{
    if (accept(p, TK_DOT)) {
        const Token *name = expect_name(p, "a field or method name after '.'");
        if (!name)
            return NULL;
        if (at(p, TK_LPAREN))
            return parse_call(p, e, name);
        Expr *field = ast_new_expr(p->ast, EX_FIELD, e->pos);
        field->lhs = e;
        field->name = name->text;
        return field;
    }
    advance(p);
    Expr *index = ast_new_expr(p->ast, EX_INDEX, e->pos);
    index->lhs = e;
    index->rhs = parse_expression(p);
    if (!index->rhs || !expect(p, TK_RBRACKET, "after the array index"))
        return NULL;
    return index;
}

static Expr *parse_postfix(Parser *p)
{
    Expr *e = parse_primary(p);
    int chain = 0;
    while (e && (at(p, TK_DOT) || at(p, TK_LBRACKET))) {
        chain++;
        e = enter(p) ? parse_postfix_step(p, e) : NULL;
    }
    p->depth -= chain;
    return e;
}

static Expr *parse_unary(Parser *p)
{
    Operator op;
    switch (cur(p)->kind) {
    case TK_MINUS: op = OPR_NEG; break;
    case TK_BANG: op = OPR_NOT; break;
    case TK_TILDE: op = OPR_BITNOT; break;
    default: return parse_postfix(p);
    }
    SrcPos pos = advance(p)->pos;
    if (op == OPR_NEG && is_min_magnitude(cur(p))) {
        /* -2147483648 is one literal: its magnitude alone is no int */
        const Token *tok = advance(p);
        return new_int_literal(p, tok, pos, tok->is_long ? INT64_MIN : INT32_MIN);
    }
    if (!enter(p))
        return NULL;
    Expr *operand = parse_unary(p);
    leave(p);
    if (!operand)
        return NULL;
    Expr *e = ast_new_expr(p->ast, EX_UNARY, pos);
    e->op = op;
    e->lhs = operand;
    return e;
}

/* Binary operators by precedence, lowest first; unused entries are zero,
   that is TK_EOF, which never matches. */
typedef struct {
    TokenKind token;
    Operator op;
} BinaryOp;

static const BinaryOp binary_levels[][4] = {
    { { TK_OROR, OPR_LOR } },
    { { TK_ANDAND, OPR_LAND } },
    { { TK_PIPE, OPR_OR } },
    { { TK_CARET, OPR_XOR } },
    { { TK_AMP, OPR_AND } },
    { { TK_EQ, OPR_EQ }, { TK_NE, OPR_NE } },
    { { TK_LT, OPR_LT }, { TK_LE, OPR_LE }, { TK_GT, OPR_GT }, { TK_GE, OPR_GE } },
    { { TK_SHL, OPR_SHL }, { TK_SHR, OPR_SHR }, { TK_USHR, OPR_USHR } },
    { { TK_PLUS, OPR_ADD }, { TK_MINUS, OPR_SUB } },
    { { TK_STAR, OPR_MUL }, { TK_SLASH, OPR_DIV }, { TK_PERCENT, OPR_REM } },
};

static bool binary_op_at(const Parser *p, int level, Operator *op)
{
    for (int i = 0; i < 4; i++) {
        const BinaryOp *entry = &binary_levels[level][i];
        if (entry->token != TK_EOF && at(p, entry->token)) {
            *op = entry->op;
            return true;
        }
    }
    return false;
}

/* Left-associative operators of one precedence level and above. */
static Expr *parse_binary(Parser *p, int level)
{
    if (level == (int) G_N_ELEMENTS(binary_levels))
        return parse_unary(p);
    Expr *lhs = parse_binary(p, level + 1);
    int chain = 0;
    Operator op;
    while (lhs && binary_op_at(p, level, &op)) {
        chain++;
        if (!enter(p))
            return NULL;
        advance(p);
        Expr *rhs = parse_binary(p, level + 1);
        if (!rhs)
            return NULL;
        Expr *e = ast_new_expr(p->ast, EX_BINARY, lhs->pos);
        e->op = op;
        e->lhs = lhs;
        e->rhs = rhs;
        lhs = e;
    }
    p->depth -= chain;
    return lhs;
}

static Expr *parse_conditional(Parser *p)
{
    Expr *cond = parse_binary(p, 0);
    if (!cond || !accept(p, TK_QUESTION))
        return cond;
    Expr *e = ast_new_expr(p->ast, EX_COND, cond->pos);
    e->cond = cond;
    e->lhs = parse_expression(p);
    if (!e->lhs || !expect(p, TK_COLON, "in the conditional expression"))
        return NULL;
    e->rhs = parse_expression(p);
    return e->rhs ? e : NULL;
}

static Expr *parse_expression(Parser *p)
{
    if (!enter(p))
        return NULL;
    Expr *e = parse_conditional(p);
    leave(p);
    return e;
}

/* ---- statements ----------------------------------------------------- */

static Stmt *parse_statement(Parser *p);

static Stmt *parse_block(Parser *p, const char *context)
{
    SrcPos pos = cur(p)->pos;
    if (!expect(p, TK_LBRACE, context))
        return NULL;
    Stmt *block = ast_new_stmt(p->ast, ST_BLOCK, pos);
    block->body = ast_ptr_array(p->ast);
    while (!accept(p, TK_RBRACE)) {
        if (at(p, TK_EOF)) {
            fail_here(p, "expected '}' to close the block opened at line %d, found end of file",
                      pos.line);
            return NULL;
        }
        Stmt *s = parse_statement(p);
        if (!s)
            return NULL;
        g_ptr_array_add(block->body, s);
    }
    return block;
}

/* A class-typed local declaration starts "Name name" or "Name[] ...". */
static bool at_local_declaration(const Parser *p)
{
    switch (cur(p)->kind) {
    case TK_KW_INT: case TK_KW_LONG: case TK_KW_BOOLEAN: case TK_KW_VOID:
        return true;
    case TK_IDENT: {
        TokenKind next = peek_token(p, 1)->kind;
        return next == TK_IDENT ||
               (next == TK_LBRACKET && peek_token(p, 2)->kind == TK_RBRACKET);
    }
    default:
        return false;
    }
}

/* "T name [= e], ..." without the ";". */
static Stmt *parse_local_declaration(Parser *p)
{
    SrcPos pos = cur(p)->pos;
    Stmt *s = ast_new_stmt(p->ast, ST_LOCAL, pos);
    s->decl_type = parse_type(p);
    if (!s->decl_type || !reject_void(p, s->decl_type, pos))
        return NULL;
    s->decls = ast_array(p->ast, sizeof(LocalDecl));
    do {
        const Token *name = expect_name(p, "a variable name");
        if (!name)
            return NULL;
        LocalDecl decl = { .name = name->text, .pos = name->pos, .slot = -1 };
        if (accept(p, TK_ASSIGN) && !(decl.init = parse_expression(p)))
            return NULL;
        g_array_append_val(s->decls, decl);
    } while (accept(p, TK_COMMA));
    return s;
}

/* What an assignment or ++/-- may change: a variable, field or element. */
static bool check_target(Parser *p, const Expr *target)
{
    switch (target->kind) {
    case EX_NAME: case EX_FIELD: case EX_INDEX:
        return true;
    case EX_THIS:
        fail_at(p, target->pos, "cannot assign to 'this'");
        return false;
    case EX_CALL:
        fail_at(p, target->pos, "cannot assign to a method call");
        return false;
    default:
        fail_at(p, target->pos, "cannot assign to this expression; "
                "expected a variable, a field or an array element");
        return false;
    }
}

static int assignment_operator(TokenKind kind)
{
    switch (kind) {
    case TK_ASSIGN: return -1;
    case TK_PLUS_ASSIGN: return OPR_ADD;
    case TK_MINUS_ASSIGN: return OPR_SUB;
    case TK_STAR_ASSIGN: return OPR_MUL;
    case TK_SLASH_ASSIGN: return OPR_DIV;
    case TK_PERCENT_ASSIGN: return OPR_REM;
    case TK_AMP_ASSIGN: return OPR_AND;
    case TK_PIPE_ASSIGN: return OPR_OR;
    case TK_CARET_ASSIGN: return OPR_XOR;
    case TK_SHL_ASSIGN: return OPR_SHL;
    case TK_SHR_ASSIGN: return OPR_SHR;
    case TK_USHR_ASSIGN: return OPR_USHR;
    default: return -2;
    }
}

/* ++x and --x */
static Stmt *parse_prefix_incdec(Parser *p)
{
    const Token *op = advance(p);
    Stmt *s = ast_new_stmt(p->ast, ST_INCDEC, op->pos);
    s->op = op->kind == TK_INC ? OPR_ADD : OPR_SUB;
    s->target = parse_unary(p);
    return s->target && check_target(p, s->target) ? s : NULL;
}

/* An assignment, x++/x--/++x/--x or a call, without the ";". */
static Stmt *parse_simple_statement(Parser *p)
{
    if (at(p, TK_INC) || at(p, TK_DEC))
        return parse_prefix_incdec(p);
    Expr *e = parse_expression(p);
    if (!e)
        return NULL;
    int op = assignment_operator(cur(p)->kind);
    if (op != -2) {
        if (!check_target(p, e))
            return NULL;
        advance(p);
        Stmt *s = ast_new_stmt(p->ast, ST_ASSIGN, e->pos);
        s->target = e;
        s->op = op;
        s->expr = parse_expression(p);
        return s->expr ? s : NULL;
    }
    if (at(p, TK_INC) || at(p, TK_DEC)) {
        if (!check_target(p, e))
            return NULL;
        Stmt *s = ast_new_stmt(p->ast, ST_INCDEC, e->pos);
        s->target = e;
        s->op = advance(p)->kind == TK_INC ? OPR_ADD : OPR_SUB;
        return s;
    }
    if (at(p, TK_ERROR)) {
        fail_here(p, "unexpected input"); /* reports the lexer's message */
        return NULL;
    }
    if (e->kind != EX_CALL) {
        fail_at(p, e->pos, "not a statement");
        return NULL;
    }
    Stmt *s = ast_new_stmt(p->ast, ST_EXPR, e->pos);
    s->expr = e;
    return s;
}

static Stmt *with_semicolon(Parser *p, Stmt *s, const char *context)
{
    return s && expect(p, TK_SEMI, context) ? s : NULL;
}

/* "(e)" after if, while, synchronized; keyword names the statement. */
static Expr *parse_paren_expression(Parser *p, const char *keyword)
{
    char *context = g_strdup_printf("after '%s'", keyword);
    bool opened = expect(p, TK_LPAREN, context);
    g_free(context);
    if (!opened)
        return NULL;
    Expr *e = parse_expression(p);
    return e && expect(p, TK_RPAREN, "to close the condition") ? e : NULL;
}

static Stmt *parse_if(Parser *p)
{
    Stmt *s = ast_new_stmt(p->ast, ST_IF, advance(p)->pos);
    if (!(s->cond = parse_paren_expression(p, "if")) || !(s->then_s = parse_statement(p)))
        return NULL;
    if (accept(p, TK_KW_ELSE) && !(s->else_s = parse_statement(p)))
        return NULL;
    return s;
}

static Stmt *parse_while(Parser *p)
{
    Stmt *s = ast_new_stmt(p->ast, ST_WHILE, advance(p)->pos);
    if (!(s->cond = parse_paren_expression(p, "while")))
        return NULL;
    s->body_s = parse_statement(p);
    return s->body_s ? s : NULL;
}

static Stmt *parse_do(Parser *p)
{
    Stmt *s = ast_new_stmt(p->ast, ST_DO, advance(p)->pos);
    if (!(s->body_s = parse_statement(p)) ||
        !expect(p, TK_KW_WHILE, "after the body of 'do'") ||
        !(s->cond = parse_paren_expression(p, "while")))
        return NULL;
    return with_semicolon(p, s, "after 'do ... while (...)'");
}

static Stmt *parse_for_init(Parser *p)
{
    if (at_local_declaration(p))
        return parse_local_declaration(p);
    return parse_simple_statement(p);
}

static Stmt *parse_for(Parser *p)
{
    Stmt *s = ast_new_stmt(p->ast, ST_FOR, advance(p)->pos);
    if (!expect(p, TK_LPAREN, "after 'for'"))
        return NULL;
    if (!at(p, TK_SEMI) && !(s->init = parse_for_init(p)))
        return NULL;
    if (!expect(p, TK_SEMI, "after the initialiser of 'for'"))
        return NULL;
    if (!at(p, TK_SEMI) && !(s->cond = parse_expression(p)))
        return NULL;
    if (!expect(p, TK_SEMI, "after the condition of 'for'"))
        return NULL;
    if (!at(p, TK_RPAREN) && !(s->update = parse_simple_statement(p)))
        return NULL;
    if (!expect(p, TK_RPAREN, "after the update of 'for'"))
        return NULL;
    s->body_s = parse_statement(p);
    return s->body_s ? s : NULL;
}

static Stmt *parse_return(Parser *p)
{
    Stmt *s = ast_new_stmt(p->ast, ST_RETURN, advance(p)->pos);
    if (!at(p, TK_SEMI) && !(s->expr = parse_expression(p)))
        return NULL;
    return with_semicolon(p, s, "after 'return'");
}

static Stmt *parse_synchronized(Parser *p)
{
    Stmt *s = ast_new_stmt(p->ast, ST_SYNC, advance(p)->pos);
    if (!(s->expr = parse_paren_expression(p, "synchronized")))
        return NULL;
    s->body_s = parse_block(p, "after 'synchronized (...)'");
    return s->body_s ? s : NULL;
}

static Stmt *parse_assert(Parser *p)
{
    Stmt *s = ast_new_stmt(p->ast, ST_ASSERT, advance(p)->pos);
    if (!(s->cond = parse_expression(p)))
        return NULL;
    if (accept(p, TK_COLON)) {
        if (!at(p, TK_STRING)) {
            expected(p, "a string message after ':'");
            return NULL;
        }
        s->message = advance(p)->text;
    }
    return with_semicolon(p, s, "after 'assert'");
}

static Stmt *parse_assume(Parser *p)
{
    Stmt *s = ast_new_stmt(p->ast, ST_ASSUME, advance(p)->pos);
    s->cond = parse_expression(p);
    return with_semicolon(p, s->cond ? s : NULL, "after 'assume'");
}

static Stmt *parse_join(Parser *p)
{
    Stmt *s = ast_new_stmt(p->ast, ST_JOIN, advance(p)->pos);
    const Token *name = expect_name(p, "a thread name after 'join'");
    if (!name)
        return NULL;
    s->name = name->text;
    return with_semicolon(p, s, "after 'join'");
}

static Stmt *parse_jump(Parser *p, StmtKind kind)
{
    const Token *keyword = advance(p);
    Stmt *s = ast_new_stmt(p->ast, kind, keyword->pos);
    return with_semicolon(p, s, kind == ST_BREAK ? "after 'break'" : "after 'continue'");
}

static Stmt *parse_statement_here(Parser *p)
{
    switch (cur(p)->kind) {
    case TK_LBRACE: return parse_block(p, "");
    case TK_SEMI: return ast_new_stmt(p->ast, ST_EMPTY, advance(p)->pos);
    case TK_KW_IF: return parse_if(p);
    case TK_KW_WHILE: return parse_while(p);
    case TK_KW_DO: return parse_do(p);
    case TK_KW_FOR: return parse_for(p);
    case TK_KW_BREAK: return parse_jump(p, ST_BREAK);
    case TK_KW_CONTINUE: return parse_jump(p, ST_CONTINUE);
    case TK_KW_RETURN: return parse_return(p);
    case TK_KW_SYNCHRONIZED: return parse_synchronized(p);
    case TK_KW_ASSERT: return parse_assert(p);
    case TK_KW_ASSUME: return parse_assume(p);
    case TK_KW_JOIN: return parse_join(p);
    default: break;
    }
    if (at_local_declaration(p))
        return with_semicolon(p, parse_local_declaration(p), "after the declaration");
    if (can_start_expression(cur(p)->kind) || at(p, TK_INC) || at(p, TK_DEC))
        return with_semicolon(p, parse_simple_statement(p), "after statement");
    expected(p, "a statement");
    return NULL;
}

static Stmt *parse_statement(Parser *p)
{
    if (!enter(p))
        return NULL;
    gsize start = cur(p)->offset;
    Stmt *s = parse_statement_here(p);
    leave(p);
    if (s) {
        /* Its text, for tools that rewrite the source (race advice). */
        const Token *last = &g_array_index(p->tokens, Token, p->next - 1);
        s->src_start = start;
        s->src_end = last->offset + last->len;
    }
    return s;
}

/* ---- declarations --------------------------------------------------- */

typedef struct {
    bool is_volatile, is_final, is_synchronized;
    SrcPos volatile_pos, final_pos, synchronized_pos;
} Modifiers;

static bool parse_modifiers(Parser *p, Modifiers *mods)
{
    *mods = (Modifiers) { 0 };
    for (;;) {
        bool *flag;
        SrcPos *pos;
        switch (cur(p)->kind) {
        case TK_KW_VOLATILE: flag = &mods->is_volatile; pos = &mods->volatile_pos; break;
        case TK_KW_FINAL: flag = &mods->is_final; pos = &mods->final_pos; break;
        case TK_KW_SYNCHRONIZED:
            flag = &mods->is_synchronized; pos = &mods->synchronized_pos; break;
        default: return true;
        }
        if (*flag) {
            char *word = describe_current(p);
            fail_here(p, "repeated modifier %s", word);
            g_free(word);
            return false;
        }
        *flag = true;
        *pos = advance(p)->pos;
    }
}

/* Methods and constructors take no volatile or final. */
static bool check_method_modifiers(Parser *p, const Modifiers *mods)
{
    if (mods->is_volatile)
        fail_at(p, mods->volatile_pos, "a method cannot be 'volatile'");
    else if (mods->is_final)
        fail_at(p, mods->final_pos, "a method cannot be 'final'");
    return !p->failed;
}

static bool check_variable_modifiers(Parser *p, const Modifiers *mods)
{
    if (mods->is_synchronized)
        fail_at(p, mods->synchronized_pos, "a variable cannot be 'synchronized'");
    else if (mods->is_volatile && mods->is_final)
        /* JLS 8.3.1.4: a final variable never changes, so volatile is void */
        fail_at(p, mods->volatile_pos, "a variable cannot be both 'volatile' and 'final'");
    return !p->failed;
}

/* "(T a, T b)" of a method or constructor. */
static GArray *parse_parameters(Parser *p)
{
    GArray *params = ast_array(p->ast, sizeof(Param));
    if (!expect(p, TK_LPAREN, "to start the parameters"))
        return NULL;
    if (accept(p, TK_RPAREN))
        return params;
    do {
        SrcPos type_pos = cur(p)->pos;
        const Type *type = parse_type(p);
        if (!type || !reject_void(p, type, type_pos))
            return NULL;
        const Token *name = expect_name(p, "a parameter name");
        if (!name)
            return NULL;
        Param param = { .name = name->text, .pos = name->pos, .type = type };
        g_array_append_val(params, param);
    } while (accept(p, TK_COMMA));
    return expect(p, TK_RPAREN, "after the parameters") ? params : NULL;
}

/* The rest of a method or constructor after its name. */
static bool parse_method(Parser *p, const Type *ret, const Token *name,
                         bool is_constructor, bool is_synchronized)
{
    MethodDecl *m = AST_NEW(p->ast, MethodDecl);
    m->name = name->text;
    m->pos = name->pos;
    m->ret = ret;
    m->class_index = p->class_index;
    m->is_constructor = is_constructor;
    m->is_synchronized = is_synchronized;
    if (!(m->params = parse_parameters(p)) || !(m->body = parse_block(p, "to start the method body")))
        return false;
    int index = (int) p->ast->methods->len;
    g_ptr_array_add(p->ast->methods, m);
    if (p->class_index >= 0) {
        ClassDecl *c = &g_array_index(p->ast->classes, ClassDecl, p->class_index);
        g_array_append_val(is_constructor ? c->ctors : c->methods, index);
    }
    return true;
}

/* "name [= e], ... ;" of globals (into Ast.globals) or fields. */
static bool parse_variables(Parser *p, const Type *type, const Modifiers *mods,
                            const Token *first_name, GArray *out, bool is_field)
{
    const Token *name = first_name;
    for (;;) {
        VarDecl var = { .name = name->text, .pos = name->pos, .type = type,
                        .is_volatile = mods->is_volatile, .is_final = mods->is_final };
        if (at(p, TK_ASSIGN) && is_field) {
            fail_here(p, "fields cannot have initialisers; assign '%s' in a constructor",
                      name->text);
            return false;
        }
        if (accept(p, TK_ASSIGN) && !(var.init = parse_expression(p)))
            return false;
        g_array_append_val(out, var);
        if (!accept(p, TK_COMMA))
            break;
        if (!(name = expect_name(p, "a variable name after ','")))
            return false;
    }
    return expect(p, TK_SEMI, "after the declaration");
}

static bool parse_member(Parser *p, const char *class_name)
{
    Modifiers mods;
    if (!parse_modifiers(p, &mods))
        return false;
    const Token *first = cur(p);
    if (first->kind == TK_IDENT && strcmp(first->text, class_name) == 0 &&
        peek_token(p, 1)->kind == TK_LPAREN) {
        if (mods.is_synchronized) {
            fail_at(p, mods.synchronized_pos, "a constructor cannot be 'synchronized'");
            return false;
        }
        advance(p);
        return check_method_modifiers(p, &mods) && parse_method(p, &type_void, first, true, false);
    }
    if (first->kind == TK_IDENT && peek_token(p, 1)->kind == TK_LPAREN) {
        fail_here(p, "invalid method declaration; return type required");
        return false;
    }
    const Type *type = parse_type(p);
    const Token *name = type ? expect_name(p, "a field or method name after the type") : NULL;
    if (!name)
        return false;
    if (at(p, TK_LPAREN))
        return check_method_modifiers(p, &mods) &&
               parse_method(p, type, name, false, mods.is_synchronized);
    if (!check_variable_modifiers(p, &mods) || !reject_void(p, type, first->pos))
        return false;
    ClassDecl *c = &g_array_index(p->ast->classes, ClassDecl, p->class_index);
    if (mods.is_final)
        c->has_final_field = true;
    return parse_variables(p, type, &mods, name, c->fields, true);
}

static bool parse_class(Parser *p)
{
    advance(p);
    const Token *name = expect_name(p, "a class name after 'class'");
    if (!name)
        return false;
    ClassDecl c = {
        .name = name->text, .pos = name->pos,
        .fields = ast_array(p->ast, sizeof(VarDecl)),
        .ctors = ast_array(p->ast, sizeof(int)),
        .methods = ast_array(p->ast, sizeof(int)),
    };
    g_array_append_val(p->ast->classes, c);
    p->class_index = (int) p->ast->classes->len - 1;
    SrcPos open = cur(p)->pos;
    if (!expect(p, TK_LBRACE, "after the class name"))
        return false;
    while (!accept(p, TK_RBRACE)) {
        if (at(p, TK_EOF)) {
            fail_here(p, "expected '}' to close class '%s' opened at line %d, found end of file",
                      name->text, open.line);
            return false;
        }
        if (!parse_member(p, name->text))
            return false;
    }
    p->class_index = -1;
    return true;
}

/* A global or a top-level method. */
static bool parse_global_or_method(Parser *p)
{
    Modifiers mods;
    if (!parse_modifiers(p, &mods))
        return false;
    SrcPos type_pos = cur(p)->pos;
    const Type *type = parse_type(p);
    const Token *name = type ? expect_name(p, "a name after the type") : NULL;
    if (!name)
        return false;
    if (at(p, TK_LPAREN)) {
        if (mods.is_synchronized) {
            fail_at(p, mods.synchronized_pos, "a top-level method cannot be 'synchronized'");
            return false;
        }
        return check_method_modifiers(p, &mods) && parse_method(p, type, name, false, false);
    }
    return check_variable_modifiers(p, &mods) && reject_void(p, type, type_pos) &&
           parse_variables(p, type, &mods, name, p->ast->globals, false);
}

static bool parse_thread(Parser *p)
{
    advance(p);
    const Token *name = expect_name(p, "a thread name after 'thread'");
    if (!name)
        return false;
    ThreadDecl t = {
        .name = name->text, .pos = name->pos,
        .body = parse_block(p, "to start the thread body"),
        .reg_names = ast_ptr_array(p->ast),
        .reg_slots = ast_array(p->ast, sizeof(int)),
        .reg_types = ast_ptr_array(p->ast),
    };
    if (!t.body)
        return false;
    g_array_append_val(p->ast->threads, t);
    return true;
}

/* ---- final condition and locations ---------------------------------- */

static CondExpr *parse_cond_or(Parser *p);

/* "T:r" or "name", then ".f" and "[k]" steps. */
static CondLoc *parse_location(Parser *p)
{
    const Token *first = expect_name(p, "a location (a global or a register T:r)");
    if (!first)
        return NULL;
    CondLoc *loc = ast_new_loc(p->ast, first->pos);
    loc->name = first->text;
    if (accept(p, TK_COLON)) {
        const Token *reg = expect_name(p, "a register name after ':'");
        if (!reg)
            return NULL;
        loc->thread = first->text;
        loc->name = reg->text;
    }
    for (;;) {
        LocStep step = { .field_index = -1, .class_index = -1 };
        if (accept(p, TK_DOT)) {
            const Token *field = expect_name(p, "a field name after '.'");
            if (!field)
                return NULL;
            step.kind = LOCSTEP_FIELD;
            step.name = field->text;
        } else if (accept(p, TK_LBRACKET)) {
            if (!at(p, TK_INT_LIT) || cur(p)->value > INT32_MAX) {
                expected(p, "an array index (an integer from 0 to 2147483647)");
                return NULL;
            }
            step.kind = LOCSTEP_INDEX;
            step.index = (int64_t) advance(p)->value;
            if (!expect(p, TK_RBRACKET, "after the array index"))
                return NULL;
        } else {
            return loc;
        }
        g_array_append_val(loc->steps, step);
    }
}

static bool parse_cond_operator(Parser *p, Operator *op)
{
    switch (cur(p)->kind) {
    case TK_EQ: case TK_ASSIGN: *op = OPR_EQ; break;
    case TK_NE: *op = OPR_NE; break;
    case TK_LT: *op = OPR_LT; break;
    case TK_LE: *op = OPR_LE; break;
    case TK_GT: *op = OPR_GT; break;
    case TK_GE: *op = OPR_GE; break;
    default:
        expected(p, "a comparison ('==', '!=', '<', '<=', '>' or '>=') after the location");
        return false;
    }
    advance(p);
    return true;
}

/* An integer (maybe negative), true, false or null. */
static bool parse_cond_value(Parser *p, CondCmp *cmp)
{
    cmp->value_pos = cur(p)->pos;
    switch (cur(p)->kind) {
    case TK_KW_TRUE: case TK_KW_FALSE:
        cmp->value_is_bool = true;
        cmp->base.value = advance(p)->kind == TK_KW_TRUE;
        return true;
    case TK_KW_NULL:
        advance(p);
        cmp->base.value_is_null = true;
        return true;
    default:
        break;
    }
    bool negative = accept(p, TK_MINUS);
    if (!at(p, TK_INT_LIT)) {
        expected(p, negative ? "an integer after '-'" : "a value (an integer, true, false or null)");
        return false;
    }
    /* A condition compares 64-bit values: a literal may take the whole
       long range with or without the L of code. */
    const Token *tok = cur(p);
    if (!negative && tok->value > (uint64_t) INT64_MAX) {
        fail_here(p, "integer too large for a long: %.*s", (int) tok->len,
                  p->ast->source + tok->offset);
        return false;
    }
    advance(p);
    /* unsigned negation: the magnitude may be 2^63 */
    cmp->base.value = (int64_t) (negative ? 0 - tok->value : tok->value);
    return true;
}

static CondExpr *parse_comparison(Parser *p)
{
    CondLoc *loc = parse_location(p);
    if (!loc)
        return NULL;
    CondCmp *cmp = ast_new_cmp(p->ast, loc->pos);
    /* Until the checker merges equal locations, each comparison has its
       own entry in Ast.shown. */
    cmp->base.loc = (int) p->ast->shown->len;
    g_ptr_array_add(p->ast->shown, loc);
    if (!parse_cond_operator(p, &cmp->base.op) || !parse_cond_value(p, cmp))
        return NULL;
    return &cmp->base;
}

static CondExpr *parse_cond_atom(Parser *p)
{
    const Token *tok = cur(p);
    if (tok->kind == TK_LPAREN) {
        advance(p);
        CondExpr *inner = enter(p) ? parse_cond_or(p) : NULL;
        leave(p);
        return inner && expect(p, TK_RPAREN, "to close '('") ? inner : NULL;
    }
    if (tok->kind == TK_KW_TRUE || tok->kind == TK_KW_FALSE) {
        CondExpr *truth = ast_new_cond(p->ast, CE_TRUE, advance(p)->pos);
        if (tok->kind == TK_KW_TRUE)
            return truth;
        CondExpr *negation = ast_new_cond(p->ast, CE_NOT, tok->pos);
        negation->a = truth;
        return negation;
    }
    return parse_comparison(p);
}

static CondExpr *parse_cond_not(Parser *p)
{
    if (!at(p, TK_TILDE) && !at(p, TK_BANG))
        return parse_cond_atom(p);
    CondExpr *c = ast_new_cond(p->ast, CE_NOT, advance(p)->pos);
    c->a = enter(p) ? parse_cond_not(p) : NULL;
    leave(p);
    return c->a ? c : NULL;
}

/* Left-associative chains of one connective over operands from next. */
static CondExpr *parse_cond_chain(Parser *p, CondExprKind kind, TokenKind herd,
                                  TokenKind java, CondExpr *(*next)(Parser *))
{
    CondExpr *lhs = next(p);
    int chain = 0;
    while (lhs && (at(p, herd) || at(p, java))) {
        chain++;
        if (!enter(p))
            return NULL;
        advance(p);
        CondExpr *c = ast_new_cond(p->ast, kind, lhs->pos);
        c->a = lhs;
        c->b = next(p);
        lhs = c->b ? c : NULL;
    }
    p->depth -= chain;
    return lhs;
}

static CondExpr *parse_cond_and(Parser *p)
{
    return parse_cond_chain(p, CE_AND, TK_COND_AND, TK_ANDAND, parse_cond_not);
}

static CondExpr *parse_cond_or(Parser *p)
{
    return parse_cond_chain(p, CE_OR, TK_COND_OR, TK_OROR, parse_cond_and);
}

/* The source text of tokens [first, end) with each gap (blanks, comments)
   shown as one space. */
static char *tokens_text(const Parser *p, guint first, guint end)
{
    GString *text = g_string_new(NULL);
    for (guint i = first; i < end; i++) {
        const Token *tok = &g_array_index(p->tokens, Token, i);
        if (i > first) {
            const Token *prev = &g_array_index(p->tokens, Token, i - 1);
            if (tok->offset > prev->offset + prev->len)
                g_string_append_c(text, ' ');
        }
        g_string_append_len(text, p->ast->source + tok->offset, (gssize) tok->len);
    }
    return g_string_free(text, FALSE);
}

static bool at_condition(const Parser *p)
{
    return at(p, TK_KW_EXISTS) || at(p, TK_KW_FORALL) || at(p, TK_TILDE);
}

static bool parse_condition(Parser *p)
{
    guint first = p->next;
    const Token *keyword = advance(p);
    if (keyword->kind == TK_KW_EXISTS) {
        p->ast->cond_kind = CK_EXISTS;
    } else if (keyword->kind == TK_KW_FORALL) {
        p->ast->cond_kind = CK_FORALL;
    } else {
        p->ast->cond_kind = CK_NOT_EXISTS;
        if (!expect(p, TK_KW_EXISTS, "after '~'"))
            return false;
    }
    if (!expect(p, TK_LPAREN, p->ast->cond_kind == CK_FORALL ? "after 'forall'" : "after 'exists'"))
        return false;
    p->ast->cond = parse_cond_or(p);
    if (!p->ast->cond || !expect(p, TK_RPAREN, "to close the condition"))
        return false;
    p->ast->cond_text = tokens_text(p, first, p->next);
    return true;
}

/* locations [loc; loc; ...], kept aside until the condition is read. */
static bool parse_locations(Parser *p, GPtrArray *out)
{
    advance(p);
    if (!expect(p, TK_LBRACKET, "after 'locations'"))
        return false;
    while (!at(p, TK_RBRACKET)) {
        CondLoc *loc = parse_location(p);
        if (!loc)
            return false;
        g_ptr_array_add(out, loc);
        if (!accept(p, TK_SEMI))
            break;
    }
    return expect(p, TK_RBRACKET, "to close 'locations ['");
}

/* ---- the file ------------------------------------------------------- */

static bool parse_header(Parser *p)
{
    const Token *tok = cur(p);
    if (tok->kind != TK_IDENT || strcmp(tok->text, "Java") != 0) {
        expected(p, "the header 'Java NAME' at the start of the file");
        return false;
    }
    advance(p);
    if (!at(p, TK_HEADER_NAME)) {
        expected(p, "a test name after 'Java' on the same line");
        return false;
    }
    p->ast->name = g_strdup(advance(p)->text);
    if (at(p, TK_STRING))
        p->ast->description = g_strdup(advance(p)->text);
    return true;
}

static bool at_declaration(const Parser *p)
{
    switch (cur(p)->kind) {
    case TK_KW_CLASS: case TK_KW_VOLATILE: case TK_KW_FINAL: case TK_KW_SYNCHRONIZED:
    case TK_KW_INT: case TK_KW_LONG: case TK_KW_BOOLEAN: case TK_KW_VOID: case TK_IDENT:
        return true;
    default:
        return false;
    }
}

static bool parse_declarations(Parser *p)
{
    while (!at(p, TK_KW_THREAD)) {
        if (!at_declaration(p)) {
            expected(p, "a declaration or 'thread'");
            return false;
        }
        bool ok = at(p, TK_KW_CLASS) ? parse_class(p) : parse_global_or_method(p);
        if (!ok)
            return false;
    }
    return true;
}

/* Threads, then locations [...], then the condition, then the end. */
static bool parse_tail(Parser *p)
{
    while (at(p, TK_KW_THREAD))
        if (!parse_thread(p))
            return false;
    bool had_locations = at(p, TK_KW_LOCATIONS);
    GPtrArray *locations = g_ptr_array_new();
    bool ok = !had_locations || parse_locations(p, locations);
    if (ok && at_condition(p))
        ok = parse_condition(p);
    /* Shown locations: the condition's first, then those of the list. */
    for (guint i = 0; ok && i < locations->len; i++)
        g_ptr_array_add(p->ast->shown, locations->pdata[i]);
    g_ptr_array_unref(locations);
    if (!ok)
        return false;
    if (at(p, TK_EOF))
        return true;
    if (p->ast->cond_kind != CK_NONE)
        expected(p, "end of file after the final condition");
    else if (had_locations)
        expected(p, "a final condition or end of file");
    else
        expected(p, "'thread', 'locations', a final condition or end of file");
    return false;
}

static void parse_file(Parser *p)
{
    if (parse_header(p) && parse_declarations(p))
        parse_tail(p);
}

Ast *parse_text(const char *filename, const char *text, gsize len, GError **err)
{
    Ast *ast = ast_new(filename, text, len);
    Parser p = { .ast = ast, .class_index = -1 };
    p.tokens = lex_text(ast->source, len, ast->strings);
    diag_init(&p.diag, ast->filename, ast->source, len, 1);
    parse_file(&p);
    g_array_unref(p.tokens);
    if (!diag_finish(&p.diag, PR_LANG_ERROR_SYNTAX, err)) {
        ast_free(ast);
        return NULL;
    }
    return ast;
}

Ast *lang_parse(const char *filename, const char *text, GError **err)
{
    return parse_text(filename, text, strlen(text), err);
}
