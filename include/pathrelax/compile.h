/* PathRelax compiler: a checked Ast becomes per-thread code for a small
 * stack machine in which every shared read, shared write and
 * synchronisation action is one explicit instruction.
 *
 * Copyright (C) 2026 the PathRelax authors. GPL-3.0-or-later.
 *
 * Values are int64_t everywhere: int values are kept sign-extended from 32
 * bits (the I* arithmetic wraps them), booleans are 0/1, references are 0
 * for null and an object id > 0 otherwise (see explore.h).
 */
#ifndef PATHRELAX_COMPILE_H
#define PATHRELAX_COMPILE_H

#include "pathrelax/ast.h"

typedef enum {
    OP_NOP,
    OP_CONST,      /* push k */
    OP_LOAD,       /* push local[a] */
    OP_STORE,      /* local[a] = pop */
    OP_POP,
    OP_DUP,        /* x -> x x */
    OP_DUP2,       /* x y -> x y x y */

    /* int arithmetic, wrapping to 32 bits (Java semantics) */
    OP_IADD, OP_ISUB, OP_IMUL,
    OP_IDIV, OP_IREM,      /* ArithmeticException on a zero divisor */
    OP_ISHL, OP_ISHR, OP_IUSHR, /* shift count masked with 31 */
    OP_INEG,
    /* long arithmetic, 64 bits */
    OP_LADD, OP_LSUB, OP_LMUL, OP_LDIV, OP_LREM,
    OP_LSHL, OP_LSHR, OP_LUSHR, /* shift count masked with 63 */
    OP_LNEG,
    /* bitwise, on int, long and boolean alike (values are sign-extended) */
    OP_AND, OP_OR, OP_XOR,
    OP_BITNOT,     /* ~x */
    OP_NOT,        /* !x on booleans: 1 - x */
    OP_L2I,        /* truncate to 32 bits and sign-extend */
    /* comparisons: pop b, pop a, push (a OP b) as 0/1 */
    OP_EQ, OP_NE, OP_LT, OP_LE, OP_GT, OP_GE,

    OP_JMP,        /* pc = a */
    OP_JZ,         /* if pop == 0: pc = a */
    OP_JNZ,        /* if pop != 0: pc = a */

    /* ---- visible actions: the thread stops before each of these ---- */
    OP_GETG,       /* push global a */
    OP_PUTG,       /* global a = pop */
    OP_GETF,       /* obj = pop; push obj.field[a]  (NullPointerException) */
    OP_PUTF,       /* v = pop; obj = pop; obj.field[a] = v */
    OP_ALOAD,      /* i = pop; arr = pop; push arr[i] (NPE, AIOOBE) */
    OP_ASTORE,     /* v = pop; i = pop; arr = pop; arr[i] = v */
    /* The atomic steps of AtomicInteger (a = the field, k = its class, as
       for GETF) and AtomicIntegerArray (a = ATOMIC_ELEMENT; an index i
       follows the array): a volatile read and, if it writes, a volatile
       write of the same location with nothing in between. */
    OP_CAS,        /* update = pop; expect = pop; [i = pop;] obj = pop;
                      if obj.f == expect: obj.f = update; push 1, else 0 */
    OP_GETADD,     /* delta = pop; [i = pop;] obj = pop;
                      push obj.f; obj.f += delta (wrapping as an int) */
    OP_LOCK,       /* obj = pop; enter its monitor (re-entrant; NPE) */
    OP_UNLOCK,     /* obj = pop; leave its monitor */
    OP_JOIN,       /* wait until thread a has ended */
    /* ---- end of visible actions ---- */

    OP_NEW,        /* push a new object of class a, fields at defaults */
    OP_NEWARRAY,   /* n = pop; push a new array of type types[a] with n
                      default elements (NegativeArraySizeException) */
    OP_ARRAYLEN,   /* arr = pop; push its length (NPE) */
    OP_FREEZE,     /* end of a constructor of a class with final fields:
                      freeze the object in local[0] (JLS 17.5) */
    OP_CALL,       /* call method a; its n_params arguments (receiver first
                      for instance methods) are popped into its locals
                      0..n_params-1; a null receiver throws NPE */
    OP_RET,        /* return from a void method */
    OP_RETV,       /* return pop to the caller's stack */
    OP_ASSERT,     /* c = pop; if c == 0: assertion a fails */
    OP_ASSUME,     /* c = pop; if c == 0: the path is discarded */
    OP_LOOP_ENTER, /* local[a] = 0 (a loop's unroll counter) */
    OP_LOOP_ITER,  /* local[a] += 1; past the unroll bound the path is cut */
    OP_END,        /* end of a thread body (or of the init code) */
    OP__COUNT
} Opcode;

static inline bool op_is_visible(int op) { return op >= OP_GETG && op <= OP_JOIN; }

/* Insn.a of OP_CAS and OP_GETADD on an element of an AtomicIntegerArray. */
#define ATOMIC_ELEMENT (-1)

typedef struct {
    uint16_t op;
    int32_t a;
    int64_t k;      /* OP_CONST */
    int32_t line;   /* source position of the statement or expression */
    int32_t col;
} Insn;

typedef struct {
    const char *name;       /* "C.m", "C.<init>", "m", "T1" (thread body), "<init>" */
    int class_index;        /* -1 for top-level methods and thread bodies */
    bool is_instance;       /* local 0 is this */
    bool returns_value;
    int n_params;           /* including this */
    int n_locals;           /* >= n_params */
    int max_stack;          /* deepest operand stack the code can reach */
    uint8_t *is_counter;    /* n_locals flags: 1 for loop unroll counters,
                               which state matching treats apart */
    Insn *code;
    int n_code;
} CMethod;

typedef struct {
    const char *name;
    const Type *type;
    bool is_volatile;
    bool is_final;
} CVar;                    /* a global or a field */

/* An AtomicInteger is an object of a built-in class "AtomicInteger" with
   one volatile int field "value"; the compiler appends it to
   Program.classes when the code needs it. An AtomicIntegerArray is an
   array whose type (in Program.types) is TY_ATOMIC_ARRAY: its elements
   are volatile. */
typedef struct {
    const char *name;
    CVar *fields;
    int n_fields;
    bool has_final_field;
} CClass;

typedef struct {
    const char *name;
    int method;             /* the body, as a method with no parameters */
    int n_regs;
    const char **reg_names;
    int *reg_slots;
    const Type **reg_types;
} CThread;

typedef struct {
    const char *message;    /* NULL: "assertion failed" */
    int line, col;
    const char *text;       /* the asserted expression's source text */
} CAssert;

typedef struct Program {
    const Ast *ast;         /* names, condition, shown locations; not owned */
    CVar *globals;
    int n_globals;
    CClass *classes;
    int n_classes;
    CMethod *methods;
    int n_methods;
    CThread *threads;       /* the declared threads, in order */
    int n_threads;
    int init_method;        /* global initialisers, run by the initial thread */
    CAssert *asserts;
    int n_asserts;
    const Type **types;     /* array types named by OP_NEWARRAY */
    int n_types;
} Program;

/* Compiles a checked Ast. The Program borrows the Ast, which must outlive
   it. Never fails on a checked Ast. */
Program *compile_program(const Ast *ast);
void program_free(Program *prog);

/* Human-readable listing of one method's code, for debugging and tests. */
char *program_disassemble(const Program *prog, int method);
const char *opcode_name(int op);

#endif
