/* PathRelax front end internals shared by the lexer, parser and checker.
 *
 * Copyright (C) 2026 the PathRelax authors. GPL-3.0-or-later.
 */
#ifndef PATHRELAX_LANG_INTERNAL_H
#define PATHRELAX_LANG_INTERNAL_H

#include "pathrelax/lang.h"

/* ---- tokens --------------------------------------------------------- */

typedef enum {
    TK_EOF,
    TK_ERROR,        /* a lexical error; text holds the message */
    TK_IDENT,
    TK_INT_LIT,
    TK_STRING,
    TK_HEADER_NAME,  /* the NAME after "Java" on the first line */

    /* keywords */
    TK_KW_ASSERT, TK_KW_ASSUME, TK_KW_BOOLEAN, TK_KW_BREAK, TK_KW_CLASS,
    TK_KW_CONTINUE, TK_KW_DO, TK_KW_ELSE, TK_KW_EXISTS, TK_KW_FALSE,
    TK_KW_FINAL, TK_KW_FOR, TK_KW_FORALL, TK_KW_IF, TK_KW_INT, TK_KW_JOIN,
    TK_KW_LOCATIONS, TK_KW_LONG, TK_KW_NEW, TK_KW_NULL, TK_KW_RETURN,
    TK_KW_SYNCHRONIZED, TK_KW_THIS, TK_KW_THREAD, TK_KW_TRUE, TK_KW_VOID,
    TK_KW_VOLATILE, TK_KW_WHILE,

    /* punctuation */
    TK_LPAREN, TK_RPAREN, TK_LBRACE, TK_RBRACE, TK_LBRACKET, TK_RBRACKET,
    TK_SEMI, TK_COMMA, TK_DOT, TK_COLON, TK_QUESTION,

    /* operators */
    TK_ASSIGN, TK_EQ, TK_NE, TK_LT, TK_LE, TK_GT, TK_GE,
    TK_SHL, TK_SHR, TK_USHR, TK_PLUS, TK_MINUS, TK_STAR, TK_SLASH,
    TK_PERCENT, TK_AMP, TK_PIPE, TK_CARET, TK_TILDE, TK_BANG,
    TK_ANDAND, TK_OROR, TK_INC, TK_DEC,
    TK_PLUS_ASSIGN, TK_MINUS_ASSIGN, TK_STAR_ASSIGN, TK_SLASH_ASSIGN,
    TK_PERCENT_ASSIGN, TK_AMP_ASSIGN, TK_PIPE_ASSIGN, TK_CARET_ASSIGN,
    TK_SHL_ASSIGN, TK_SHR_ASSIGN, TK_USHR_ASSIGN,
    TK_COND_AND,     /* /\ in a condition */
    TK_COND_OR,      /* \/ in a condition */
} TokenKind;

typedef struct {
    TokenKind kind;
    SrcPos pos;
    gsize offset;        /* byte offset of the first character */
    gsize len;           /* length in bytes of the source text */
    /* TK_IDENT, TK_HEADER_NAME: the name; TK_STRING: the unescaped value;
       TK_ERROR: the message. Interned in the Ast's string chunk. */
    const char *text;
    uint64_t value;      /* TK_INT_LIT: magnitude as written */
    bool is_long;        /* TK_INT_LIT: L suffix */
    bool is_hex;         /* TK_INT_LIT: 0x prefix (value already wrapped) */
    bool beyond_int;     /* TK_INT_LIT without L that only a long holds: an
                            error in code, a 64-bit value in a condition */
} Token;

/* Splits text into tokens. The array always ends with one TK_EOF token, or
   with a TK_ERROR token at the first lexical error. Names, strings and
   messages are interned in strings. */
GArray *lex_text(const char *text, gsize len, GStringChunk *strings);

/* How a token kind is written in messages: "';'", "'while'", "a name". */
const char *token_kind_name(TokenKind kind);

/* ---- diagnostics ---------------------------------------------------- */

typedef struct {
    const char *filename;
    const char *source;
    gsize source_len;
    GPtrArray *entries;  /* one per diagnostic, in the order reported */
    int limit;           /* further errors are dropped; 0 means no limit */
} Diag;

void diag_init(Diag *diag, const char *filename, const char *source,
               gsize source_len, int limit);
void diag_error(Diag *diag, SrcPos pos, const char *fmt, ...) G_GNUC_PRINTF(3, 4);
int diag_count(const Diag *diag);
/* Returns true when no error was reported; otherwise sets *err (domain
   PR_LANG_ERROR, the given code) to all diagnostics in source order.
   Frees the diagnostics. */
bool diag_finish(Diag *diag, PrLangError code, GError **err);

/* ---- nodes ---------------------------------------------------------- */

/* An empty Ast owning a copy of filename and text. */
Ast *ast_new(const char *filename, const char *text, gsize len);

/* Zeroed memory freed by ast_free. */
gpointer ast_alloc(Ast *ast, gsize size);
#define AST_NEW(ast, T) ((T *) ast_alloc((ast), sizeof(T)))
/* Containers freed by ast_free. */
GPtrArray *ast_ptr_array(Ast *ast);
GArray *ast_array(Ast *ast, gsize elem_size);
const char *ast_intern(Ast *ast, const char *s);

Expr *ast_new_expr(Ast *ast, ExprKind kind, SrcPos pos);
Stmt *ast_new_stmt(Ast *ast, StmtKind kind, SrcPos pos);
Type *ast_new_type(Ast *ast, TypeKind kind);
CondExpr *ast_new_cond(Ast *ast, CondExprKind kind, SrcPos pos);
CondLoc *ast_new_loc(Ast *ast, SrcPos pos);

/* A CE_CMP node as the parser allocates it. The checker needs to know how
   the value was written (1 and true are both stored as 1 in CondExpr). */
typedef struct {
    CondExpr base;       /* first, so that a CondExpr* to it can be cast */
    bool value_is_bool;
    SrcPos value_pos;
} CondCmp;

CondCmp *ast_new_cmp(Ast *ast, SrcPos pos);

/* The Java spelling of an operator: "+", "&&", "-" (for OPR_NEG). */

/* ---- the two phases ------------------------------------------------- */

/* Array types deeper than this are refused, as in Java. */
#define LANG_MAX_ARRAY_DIMS 255

Ast *parse_text(const char *filename, const char *text, gsize len, GError **err);

#endif
