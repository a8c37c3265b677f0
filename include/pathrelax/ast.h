/* PathRelax: abstract syntax of a litmus file, as produced by the parser
 * and annotated by the checker.
 *
 * Copyright (C) 2026 the PathRelax authors. GPL-3.0-or-later.
 *
 * All nodes live in one arena owned by the Ast (a GStringChunk for names and
 * GPtrArrays of nodes); nothing is freed before ast_free(). Positions are
 * 1-based line and column of the first character of the construct.
 */
#ifndef PATHRELAX_AST_H
#define PATHRELAX_AST_H

#include <glib.h>
#include <stdbool.h>
#include <stdint.h>

typedef struct {
    int line;
    int col;
} SrcPos;

/* ---- types ---------------------------------------------------------- */

typedef enum {
    TY_VOID,
    TY_INT,
    TY_LONG,
    TY_BOOL,
    TY_NULL,   /* type of the literal null: assignable to any class/array */
    TY_CLASS,  /* class_index names the class */
    TY_ARRAY,  /* elem is the element type */
    TY_ATOMIC_INT,   /* AtomicInteger, a built-in class */
    TY_ATOMIC_ARRAY, /* AtomicIntegerArray, a built-in class; elem is int */
    TY_ERROR,  /* after a reported error, to avoid cascades */
} TypeKind;

typedef struct Type Type;
struct Type {
    TypeKind kind;
    int class_index;   /* TY_CLASS: index into Ast.classes (set by checker) */
    const char *class_name; /* TY_CLASS: as written */
    const Type *elem;  /* TY_ARRAY */
};

/* Interned basic types, shared by every Ast. */
extern const Type type_void, type_int, type_long, type_bool, type_null, type_error;
extern const Type type_atomic_int, type_atomic_array;

bool type_equal(const Type *a, const Type *b);
bool type_is_ref(const Type *t);      /* class, array, atomic or null */
bool type_is_atomic(const Type *t);   /* AtomicInteger or AtomicIntegerArray */
bool type_is_numeric(const Type *t);  /* int or long */
/* Writes "int", "long[]", "Helper" ... into a newly allocated string. */
char *type_to_string(const Type *t);

/* ---- expressions ---------------------------------------------------- */

typedef enum {
    EX_INT_LIT,    /* ival; is_long for an L suffix */
    EX_BOOL_LIT,   /* ival 0/1 */
    EX_NULL_LIT,
    EX_NAME,       /* name: a local, a global, or (in a class) a field of this */
    EX_THIS,
    EX_FIELD,      /* a.f   (lhs = a, name = f); also a.length on arrays */
    EX_INDEX,      /* a[i]  (lhs = a, rhs = i) */
    EX_CALL,       /* name(args) or lhs.name(args) (lhs may be NULL) */
    EX_NEW_OBJECT, /* new name(args) */
    EX_NEW_ARRAY,  /* new T[lhs]: type is the array type, lhs the length */
    EX_ARRAY_INIT, /* new T[] {args}: type is the array type */
    EX_UNARY,      /* op lhs */
    EX_BINARY,     /* lhs op rhs (also && and ||) */
    EX_COND,       /* cond ? lhs : rhs */
} ExprKind;

typedef enum {
    OPR_ADD, OPR_SUB, OPR_MUL, OPR_DIV, OPR_REM,
    OPR_SHL, OPR_SHR, OPR_USHR,
    OPR_AND, OPR_OR, OPR_XOR,            /* bitwise, also on booleans */
    OPR_LAND, OPR_LOR,                   /* && || (short-circuit) */
    OPR_EQ, OPR_NE, OPR_LT, OPR_LE, OPR_GT, OPR_GE,
    OPR_NEG, OPR_NOT, OPR_BITNOT,        /* unary - ! ~ */
} Operator;

/* The built-in methods of AtomicInteger and AtomicIntegerArray; those of
   an AtomicIntegerArray take the element's index first. */
typedef enum {
    ATOMIC_NONE,            /* not a call of a built-in method */
    ATOMIC_GET,
    ATOMIC_SET,
    ATOMIC_COMPARE_AND_SET,
    ATOMIC_GET_AND_INCREMENT,
    ATOMIC_INCREMENT_AND_GET,
    ATOMIC_LENGTH,          /* AtomicIntegerArray only */
} AtomicMethod;

/* What a name or field expression resolves to (set by the checker). */
/* "+", "&&", "<=", ...: an operator as Java spells it. */
const char *operator_spelling(Operator op);

typedef enum {
    SYM_NONE,
    SYM_LOCAL,   /* index: local slot in the enclosing method/thread body */
    SYM_GLOBAL,  /* index: into Ast.globals */
    SYM_FIELD,   /* index: field index in class class_index (implicit this
                    for EX_NAME, explicit object for EX_FIELD) */
    SYM_LENGTH,  /* EX_FIELD only: array length */
} SymKind;

typedef struct Expr Expr;
struct Expr {
    ExprKind kind;
    SrcPos pos;
    Operator op;
    int64_t ival;
    bool is_long;          /* EX_INT_LIT with L suffix */
    const char *name;      /* EX_NAME, EX_FIELD, EX_CALL, EX_NEW_OBJECT */
    Expr *lhs, *rhs, *cond;
    GPtrArray *args;       /* of Expr*; EX_CALL, EX_NEW_OBJECT, EX_ARRAY_INIT */
    const Type *type;      /* EX_NEW_ARRAY/EX_ARRAY_INIT: as written; after
                              checking: the expression's type, for every kind */
    /* resolution, set by the checker */
    SymKind sym;
    int sym_index;
    int sym_class;         /* SYM_FIELD: class index */
    int method_index;      /* EX_CALL: index into Ast.methods;
                              EX_NEW_OBJECT: constructor's method index, or -1
                              when the class has no constructor */
    AtomicMethod atomic;   /* EX_CALL on an atomic receiver: the built-in
                              method (method_index is then -1) */
};

/* ---- statements ----------------------------------------------------- */

typedef enum {
    ST_BLOCK,      /* body */
    ST_LOCAL,      /* decls: a local declaration with one or more names */
    ST_ASSIGN,     /* target op= value; op is OPR_ADD.. or -1 for plain = */
    ST_INCDEC,     /* target++ (op OPR_ADD) or target-- (op OPR_SUB) */
    ST_EXPR,       /* expr: a method call */
    ST_IF,         /* cond, then_s, else_s (may be NULL) */
    ST_WHILE,      /* cond, body_s */
    ST_DO,         /* body_s, cond */
    ST_FOR,        /* init (may be NULL), cond (may be NULL), update (may be
                      NULL), body_s */
    ST_BREAK,
    ST_CONTINUE,
    ST_RETURN,     /* expr may be NULL */
    ST_SYNC,       /* synchronized (expr) body_s */
    ST_ASSERT,     /* cond, message may be NULL */
    ST_ASSUME,     /* cond */
    ST_JOIN,       /* name: thread; sym_index set by checker to thread index */
    ST_EMPTY,      /* ; */
} StmtKind;

typedef struct {
    const char *name;
    SrcPos pos;
    Expr *init;        /* may be NULL */
    int slot;          /* set by the checker: local slot */
} LocalDecl;

typedef struct Stmt Stmt;
struct Stmt {
    StmtKind kind;
    SrcPos pos;
    GPtrArray *body;       /* ST_BLOCK: Stmt* */
    const Type *decl_type; /* ST_LOCAL */
    GArray *decls;         /* ST_LOCAL: LocalDecl */
    Expr *target;          /* ST_ASSIGN, ST_INCDEC: lhs (EX_NAME, EX_FIELD,
                              EX_INDEX) */
    int op;                /* ST_ASSIGN: Operator or -1; ST_INCDEC: OPR_ADD/SUB */
    Expr *expr;            /* ST_ASSIGN value, ST_EXPR, ST_RETURN, ST_SYNC */
    Expr *cond;
    Stmt *then_s, *else_s, *body_s;
    Stmt *init, *update;   /* ST_FOR */
    const char *message;   /* ST_ASSERT */
    const char *name;      /* ST_JOIN */
    int sym_index;         /* ST_JOIN: thread index */
    int loop_slot;         /* loops: local slot of the unroll counter (checker) */
    size_t src_start;      /* byte offsets of the statement's text in */
    size_t src_end;        /* Ast.source: [src_start, src_end) */
};

/* ---- declarations --------------------------------------------------- */

typedef struct {
    const char *name;
    SrcPos pos;
    const Type *type;
    bool is_volatile;
    bool is_final;
    Expr *init;            /* may be NULL */
} VarDecl;                 /* a global or a field */

typedef struct {
    const char *name;
    SrcPos pos;
    const Type *type;
} Param;

typedef struct {
    const char *name;      /* for constructors: the class name */
    SrcPos pos;
    const Type *ret;       /* type_void for constructors */
    GArray *params;        /* Param */
    Stmt *body;            /* ST_BLOCK */
    int class_index;       /* -1 for top-level methods */
    bool is_constructor;
    bool is_synchronized;
    int n_locals;          /* set by the checker: slots for this (if any),
                              params, locals and loop counters */
} MethodDecl;

typedef struct {
    const char *name;
    SrcPos pos;
    GArray *fields;        /* VarDecl */
    GArray *ctors;         /* int: indices into Ast.methods */
    GArray *methods;       /* int: indices into Ast.methods */
    bool has_final_field;
} ClassDecl;

typedef struct {
    const char *name;
    SrcPos pos;
    Stmt *body;            /* ST_BLOCK */
    int n_locals;          /* set by the checker */
    /* Registers: the locals declared at the top level of the body. */
    GPtrArray *reg_names;  /* const char* */
    GArray *reg_slots;     /* int */
    GPtrArray *reg_types;  /* const Type* */
} ThreadDecl;

/* ---- final condition ------------------------------------------------ */

typedef enum {
    CK_NONE,
    CK_EXISTS,
    CK_NOT_EXISTS,
    CK_FORALL,
} CondKind;

/* A location named in a condition or in locations [...]. */
typedef enum {
    LOCSTEP_FIELD,   /* .name */
    LOCSTEP_INDEX,   /* [index] */
} LocStepKind;

typedef struct {
    LocStepKind kind;
    const char *name;
    int64_t index;
    int field_index;   /* set by the checker */
    int class_index;   /* set by the checker */
} LocStep;

typedef struct {
    SrcPos pos;
    const char *thread;    /* "T" in T:r, or NULL */
    const char *name;      /* register or global name */
    GArray *steps;         /* LocStep, may be empty */
    /* resolved by the checker */
    bool is_register;
    int thread_index;      /* register: owning thread */
    int reg_slot;          /* register: local slot */
    int global_index;      /* global */
    const Type *type;      /* type of the whole location */
    char *text;            /* canonical spelling, e.g. "T1:r1", "p.f", "a[1]" */
} CondLoc;

typedef enum {
    CE_CMP,    /* loc op value */
    CE_AND,
    CE_OR,
    CE_NOT,
    CE_TRUE,
} CondExprKind;

typedef struct CondExpr CondExpr;
struct CondExpr {
    CondExprKind kind;
    SrcPos pos;
    Operator op;            /* CE_CMP: OPR_EQ .. OPR_GE */
    int loc;                /* CE_CMP: index into Ast.shown */
    int64_t value;          /* CE_CMP: true = 1, false = 0, null = 0 */
    bool value_is_null;
    CondExpr *a, *b;
};

typedef struct {
    char *filename;
    char *source;          /* whole file text, for diagnostics */
    GStringChunk *strings;
    GPtrArray *nodes;      /* every allocated node, freed by ast_free */

    char *name;            /* from the header "Java NAME" */
    char *description;     /* may be NULL */

    GArray *globals;       /* VarDecl, in declaration order */
    GArray *classes;       /* ClassDecl */
    GPtrArray *methods;    /* MethodDecl* (top-level, class methods and
                              constructors) */
    GArray *threads;       /* ThreadDecl */

    /* Shown locations: those of the condition first, then locations [...]
       (each once, by canonical text). With neither, the checker fills it
       with every thread's registers. */
    GPtrArray *shown;      /* CondLoc* */
    CondKind cond_kind;
    CondExpr *cond;        /* NULL when cond_kind == CK_NONE */
    char *cond_text;       /* the condition as written, normalised spacing */

    /* Init code: the global initialisers, run by the initial thread. */
    int init_n_locals;     /* set by the checker */
} Ast;

void ast_free(Ast *ast);

#endif
