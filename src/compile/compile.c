/* PathRelax compiler: turns a checked Ast into stack-machine code.
 *
 * Copyright (C) 2026 the PathRelax authors. GPL-3.0-or-later.
 *
 * Program.methods holds, in order: one CMethod per Ast method (same index),
 * one per thread body, then the init code.
 *
 * Jumps are emitted against label ids and patched to instruction indices
 * when a method is finished. A control stack of loop and monitor frames lets
 * break, continue and return unlock every monitor they leave.
 */
#include "pathrelax/compile.h"

/* ---- program-wide state --------------------------------------------- */

typedef struct {
    const Ast *ast;
    Program *prog;
    GPtrArray *types;      /* const Type*: interned array types */
    GArray *asserts;       /* CAssert */
    int atomic_class;      /* Program.classes index of AtomicInteger, or -1
                              until the code needs it */
} Compiler;

/* ---- per-method state ----------------------------------------------- */

typedef enum { FRAME_LOOP, FRAME_MONITOR } FrameKind;

typedef struct {
    FrameKind kind;
    int break_label;       /* FRAME_LOOP */
    int continue_label;    /* FRAME_LOOP */
    int monitor_slot;      /* FRAME_MONITOR: local holding the locked object */
} Frame;

/* How a return leaves the code being compiled. */
typedef enum { EXIT_RETURN, EXIT_END } ExitKind;

typedef struct {
    Compiler *comp;
    CMethod *method;
    GArray *code;          /* Insn; jump operands are label ids until done */
    GArray *label_pc;      /* int per label: bound pc or -1 */
    GArray *label_refs;    /* int per label: jumps emitted to it so far */
    GArray *frames;        /* Frame: the control stack */
    GArray *counters;      /* int: loop counter slots seen */
    int checked_locals;    /* the checker's slot count; monitor temps follow */
    int monitor_depth;     /* synchronized blocks currently open */
    bool reachable;        /* can control reach the next instruction? */
    bool freeze_on_return; /* constructor of a class with final fields */
    ExitKind exit;
} Gen;

static void compile_expr(Gen *g, const Expr *e);
static void compile_stmt(Gen *g, const Stmt *s);

/* ---- emitting --------------------------------------------------------- */

static bool op_ends_flow(int op)
{
    return op == OP_JMP || op == OP_RET || op == OP_RETV || op == OP_END;
}

static void emit_insn(Gen *g, Opcode op, int32_t a, int64_t k, SrcPos pos)
{
    Insn in = { .op = (uint16_t)op, .a = a, .k = k, .line = pos.line, .col = pos.col };
    g_array_append_val(g->code, in);
    if (op_ends_flow(op))
        g->reachable = false;
}

static void emit(Gen *g, Opcode op, int32_t a, SrcPos pos)
{
    emit_insn(g, op, a, 0, pos);
}

static void emit_const(Gen *g, int64_t k, SrcPos pos)
{
    emit_insn(g, OP_CONST, 0, k, pos);
}

/* Field accesses carry their class in k, so that listings and reports can
   name the field; the machine itself only needs the field index a. */
static void emit_field(Gen *g, Opcode op, int class_index, int field, SrcPos pos)
{
    emit_insn(g, op, field, class_index, pos);
}

static int new_label(Gen *g)
{
    int unbound = -1, no_refs = 0;
    g_array_append_val(g->label_pc, unbound);
    g_array_append_val(g->label_refs, no_refs);
    return (int)g->label_pc->len - 1;
}

static void emit_jump(Gen *g, Opcode op, int label, SrcPos pos)
{
    g_array_index(g->label_refs, int, label)++;
    emit(g, op, label, pos);
}

static void bind_label(Gen *g, int label)
{
    g_array_index(g->label_pc, int, label) = (int)g->code->len;
    /* Backward jumps come later, but they only reach a label that fall-through
       reaches too; so forward references alone decide reachability. */
    if (g_array_index(g->label_refs, int, label) > 0)
        g->reachable = true;
}

static bool op_is_jump(int op)
{
    return op == OP_JMP || op == OP_JZ || op == OP_JNZ;
}

static void patch_jumps(Gen *g)
{
    for (guint i = 0; i < g->code->len; i++) {
        Insn *in = &g_array_index(g->code, Insn, i);
        if (op_is_jump(in->op))
            in->a = g_array_index(g->label_pc, int, in->a);
    }
}

/* ---- types ------------------------------------------------------------ */

static bool is_long(const Type *t)
{
    return t->kind == TY_LONG;
}

static int intern_type(Compiler *comp, const Type *t)
{
    for (guint i = 0; i < comp->types->len; i++)
        if (type_equal(g_ptr_array_index(comp->types, i), t))
            return (int)i;
    g_ptr_array_add(comp->types, (gpointer)t);
    return (int)comp->types->len - 1;
}

/* The machine operation of a binary operator other than && and ||. Shifts
   take the left operand's type, the others the promoted type; the caller
   passes whichever applies as wide. */
static Opcode binary_opcode(Operator op, bool wide)
{
    switch (op) {
    case OPR_ADD: return wide ? OP_LADD : OP_IADD;
    case OPR_SUB: return wide ? OP_LSUB : OP_ISUB;
    case OPR_MUL: return wide ? OP_LMUL : OP_IMUL;
    case OPR_DIV: return wide ? OP_LDIV : OP_IDIV;
    case OPR_REM: return wide ? OP_LREM : OP_IREM;
    case OPR_SHL: return wide ? OP_LSHL : OP_ISHL;
    case OPR_SHR: return wide ? OP_LSHR : OP_ISHR;
    case OPR_USHR: return wide ? OP_LUSHR : OP_IUSHR;
    case OPR_AND: return OP_AND;
    case OPR_OR: return OP_OR;
    case OPR_XOR: return OP_XOR;
    case OPR_EQ: return OP_EQ;
    case OPR_NE: return OP_NE;
    case OPR_LT: return OP_LT;
    case OPR_LE: return OP_LE;
    case OPR_GT: return OP_GT;
    case OPR_GE: return OP_GE;
    default:
        g_assert_not_reached();
    }
}

static bool is_shift(Operator op)
{
    return op == OPR_SHL || op == OPR_SHR || op == OPR_USHR;
}

/* ---- conditions and short-circuit ------------------------------------- */

/* Jumps to label when e evaluates to when_true, else falls through. Only the
   operands that Java evaluates are evaluated. */
static void compile_branch(Gen *g, const Expr *e, bool when_true, int label)
{
    if (e->kind == EX_BOOL_LIT) {
        if ((e->ival != 0) == when_true)
            emit_jump(g, OP_JMP, label, e->pos);
        return;
    }
    if (e->kind == EX_UNARY && e->op == OPR_NOT) {
        compile_branch(g, e->lhs, !when_true, label);
        return;
    }
    if (e->kind == EX_BINARY && (e->op == OPR_LAND || e->op == OPR_LOR)) {
        /* a && b is false as soon as a is; a || b true as soon as a is */
        bool decided_by_lhs = e->op == OPR_LOR;
        if (when_true == decided_by_lhs) {
            compile_branch(g, e->lhs, when_true, label);
            compile_branch(g, e->rhs, when_true, label);
        } else {
            int skip = new_label(g);
            compile_branch(g, e->lhs, decided_by_lhs, skip);
            compile_branch(g, e->rhs, when_true, label);
            bind_label(g, skip);
        }
        return;
    }
    compile_expr(g, e);
    emit_jump(g, when_true ? OP_JNZ : OP_JZ, label, e->pos);
}

/* A boolean value built from jumps: && and || */
static void compile_logical_value(Gen *g, const Expr *e)
{
    int is_false = new_label(g), done = new_label(g);
    compile_branch(g, e, false, is_false);
    emit_const(g, 1, e->pos);
    emit_jump(g, OP_JMP, done, e->pos);
    bind_label(g, is_false);
    emit_const(g, 0, e->pos);
    bind_label(g, done);
}

static void compile_conditional(Gen *g, const Expr *e)
{
    int else_label = new_label(g), done = new_label(g);
    compile_branch(g, e->cond, false, else_label);
    compile_expr(g, e->lhs);
    emit_jump(g, OP_JMP, done, e->pos);
    bind_label(g, else_label);
    compile_expr(g, e->rhs);
    bind_label(g, done);
}

/* ---- expressions ------------------------------------------------------ */

static void compile_args(Gen *g, const GPtrArray *args)
{
    for (guint i = 0; args && i < args->len; i++)
        compile_expr(g, g_ptr_array_index(args, i));
}

static void compile_name(Gen *g, const Expr *e)
{
    switch (e->sym) {
    case SYM_LOCAL:
        emit(g, OP_LOAD, e->sym_index, e->pos);
        break;
    case SYM_GLOBAL:
        emit(g, OP_GETG, e->sym_index, e->pos);
        break;
    case SYM_FIELD:    /* a field of this */
        emit(g, OP_LOAD, 0, e->pos);
        emit_field(g, OP_GETF, e->sym_class, e->sym_index, e->pos);
        break;
    default:
        g_assert_not_reached();
    }
}

static void compile_field(Gen *g, const Expr *e)
{
    compile_expr(g, e->lhs);
    if (e->sym == SYM_LENGTH)
        emit(g, OP_ARRAYLEN, 0, e->pos);
    else
        emit_field(g, OP_GETF, e->sym_class, e->sym_index, e->pos);
}

/* ---- AtomicInteger and AtomicIntegerArray ----------------------------- */

/* The built-in class of AtomicInteger (see compile.h), added to
   Program.classes the first time it is needed. */
static int atomic_integer_class(Compiler *comp)
{
    if (comp->atomic_class >= 0)
        return comp->atomic_class;
    Program *prog = comp->prog;
    CVar *value = g_new0(CVar, 1);
    *value = (CVar){ .name = "value", .type = &type_int, .is_volatile = true };
    prog->classes = g_renew(CClass, prog->classes, prog->n_classes + 1);
    prog->classes[prog->n_classes] = (CClass){ .name = "AtomicInteger", .fields = value,
                                               .n_fields = 1 };
    comp->atomic_class = prog->n_classes++;
    return comp->atomic_class;
}

/* An access to an AtomicInteger's value (op as on a field: GETF, PUTF,
   CAS, GETADD), or the same access to an element of an
   AtomicIntegerArray, whose index is then on the stack. */
static void emit_atomic_access(Gen *g, Opcode op, bool on_array, SrcPos pos)
{
    if (!on_array) {
        emit_field(g, op, atomic_integer_class(g->comp), 0, pos);
        return;
    }
    switch (op) {
    case OP_GETF: emit(g, OP_ALOAD, 0, pos); break;
    case OP_PUTF: emit(g, OP_ASTORE, 0, pos); break;
    default: emit(g, op, ATOMIC_ELEMENT, pos); break;
    }
}

/* The receiver, the arguments (an array's index first), then the access.
   getAndIncrement adds 1 in one atomic step; incrementAndGet is the same
   step plus 1 added locally. */
static void compile_atomic_call(Gen *g, const Expr *e)
{
    bool on_array = e->lhs->type->kind == TY_ATOMIC_ARRAY;
    compile_expr(g, e->lhs);
    compile_args(g, e->args);
    switch (e->atomic) {
    case ATOMIC_GET:
        emit_atomic_access(g, OP_GETF, on_array, e->pos);
        break;
    case ATOMIC_SET:
        emit_atomic_access(g, OP_PUTF, on_array, e->pos);
        break;
    case ATOMIC_COMPARE_AND_SET:
        emit_atomic_access(g, OP_CAS, on_array, e->pos);
        break;
    case ATOMIC_GET_AND_INCREMENT:
    case ATOMIC_INCREMENT_AND_GET:
        emit_const(g, 1, e->pos);
        emit_atomic_access(g, OP_GETADD, on_array, e->pos);
        if (e->atomic == ATOMIC_INCREMENT_AND_GET) {
            emit_const(g, 1, e->pos);
            emit(g, OP_IADD, 0, e->pos);
        }
        break;
    case ATOMIC_LENGTH:
        emit(g, OP_ARRAYLEN, 0, e->pos);
        break;
    case ATOMIC_NONE:
        g_assert_not_reached();
    }
}

/* new AtomicIntegerArray(n) is an array; new AtomicInteger(v) an object
   whose value gets v by a (volatile) write, as in its Java constructor. */
static void compile_new_atomic(Gen *g, const Expr *e)
{
    if (e->type->kind == TY_ATOMIC_ARRAY) {
        compile_args(g, e->args);
        emit(g, OP_NEWARRAY, intern_type(g->comp, e->type), e->pos);
        return;
    }
    emit(g, OP_NEW, atomic_integer_class(g->comp), e->pos);
    if (e->args->len == 0)
        return;
    emit(g, OP_DUP, 0, e->pos);
    compile_args(g, e->args);
    emit_atomic_access(g, OP_PUTF, false, e->pos);
}

static void compile_call(Gen *g, const Expr *e)
{
    if (e->atomic != ATOMIC_NONE) {
        compile_atomic_call(g, e);
        return;
    }
    const MethodDecl *callee = g_ptr_array_index(g->comp->ast->methods, e->method_index);
    if (callee->class_index >= 0) {
        if (e->lhs)
            compile_expr(g, e->lhs);
        else
            emit(g, OP_LOAD, 0, e->pos);    /* implicit this */
    }
    compile_args(g, e->args);
    emit(g, OP_CALL, e->method_index, e->pos);
}

static void compile_new_object(Gen *g, const Expr *e)
{
    if (type_is_atomic(e->type)) {
        compile_new_atomic(g, e);
        return;
    }
    int class_index = e->type->class_index;
    int ctor = e->method_index; /* -1: the class has no constructor */
    emit(g, OP_NEW, class_index, e->pos);
    if (ctor < 0)
        return;
    emit(g, OP_DUP, 0, e->pos);
    compile_args(g, e->args);
    emit(g, OP_CALL, ctor, e->pos);
}

static void compile_new_array(Gen *g, const Expr *e)
{
    compile_expr(g, e->lhs);
    emit(g, OP_NEWARRAY, intern_type(g->comp, e->type), e->pos);
}

/* new T[] {e0, e1, ...}: an array of the right length, then one real write
   per element, in order. */
static void compile_array_init(Gen *g, const Expr *e)
{
    guint n = e->args ? e->args->len : 0;
    emit_const(g, n, e->pos);
    emit(g, OP_NEWARRAY, intern_type(g->comp, e->type), e->pos);
    for (guint i = 0; i < n; i++) {
        const Expr *elem = g_ptr_array_index(e->args, i);
        emit(g, OP_DUP, 0, elem->pos);
        emit_const(g, i, elem->pos);
        compile_expr(g, elem);
        emit(g, OP_ASTORE, 0, elem->pos);
    }
}

static void compile_unary(Gen *g, const Expr *e)
{
    compile_expr(g, e->lhs);
    switch (e->op) {
    case OPR_NEG:
        emit(g, is_long(e->type) ? OP_LNEG : OP_INEG, 0, e->pos);
        break;
    case OPR_NOT:
        emit(g, OP_NOT, 0, e->pos);
        break;
    case OPR_BITNOT:
        emit(g, OP_BITNOT, 0, e->pos);
        break;
    default:
        g_assert_not_reached();
    }
}

static void compile_binary(Gen *g, const Expr *e)
{
    if (e->op == OPR_LAND || e->op == OPR_LOR) {
        compile_logical_value(g, e);
        return;
    }
    compile_expr(g, e->lhs);
    compile_expr(g, e->rhs);
    /* e->type is the promoted type for arithmetic and the left operand's
       for shifts; comparisons and bitwise ops ignore it */
    emit(g, binary_opcode(e->op, is_long(e->type)), 0, e->pos);
}

static void compile_expr(Gen *g, const Expr *e)
{
    switch (e->kind) {
    case EX_INT_LIT:
    case EX_BOOL_LIT:
        emit_const(g, e->ival, e->pos);
        break;
    case EX_NULL_LIT:
        emit_const(g, 0, e->pos);
        break;
    case EX_NAME:
        compile_name(g, e);
        break;
    case EX_THIS:
        emit(g, OP_LOAD, 0, e->pos);
        break;
    case EX_FIELD:
        compile_field(g, e);
        break;
    case EX_INDEX:
        compile_expr(g, e->lhs);
        compile_expr(g, e->rhs);
        emit(g, OP_ALOAD, 0, e->pos);
        break;
    case EX_CALL:
        compile_call(g, e);
        break;
    case EX_NEW_OBJECT:
        compile_new_object(g, e);
        break;
    case EX_NEW_ARRAY:
        compile_new_array(g, e);
        break;
    case EX_ARRAY_INIT:
        compile_array_init(g, e);
        break;
    case EX_UNARY:
        compile_unary(g, e);
        break;
    case EX_BINARY:
        compile_binary(g, e);
        break;
    case EX_COND:
        compile_conditional(g, e);
        break;
    }
}

/* ---- assignments ------------------------------------------------------ */

/* Pushes what a store to target needs below the value (object, index) and,
   for a compound form, reads the current value on top of it. */
static void compile_target_prefix(Gen *g, const Expr *target, bool read_too)
{
    SrcPos pos = target->pos;
    bool is_field = target->kind == EX_FIELD || target->sym == SYM_FIELD;
    switch (target->kind) {
    case EX_NAME:
    case EX_FIELD:
        if (!is_field) {
            if (read_too)
                compile_name(g, target);
            return;
        }
        if (target->kind == EX_FIELD)
            compile_expr(g, target->lhs);
        else
            emit(g, OP_LOAD, 0, pos);       /* implicit this */
        if (read_too) {
            emit(g, OP_DUP, 0, pos);
            emit_field(g, OP_GETF, target->sym_class, target->sym_index, pos);
        }
        return;
    case EX_INDEX:
        compile_expr(g, target->lhs);
        compile_expr(g, target->rhs);
        if (read_too) {
            emit(g, OP_DUP2, 0, pos);
            emit(g, OP_ALOAD, 0, pos);
        }
        return;
    default:
        g_assert_not_reached();
    }
}

/* Pops the value (and what compile_target_prefix pushed) into target. */
static void compile_target_store(Gen *g, const Expr *target)
{
    SrcPos pos = target->pos;
    if (target->kind == EX_INDEX) {
        emit(g, OP_ASTORE, 0, pos);
    } else if (target->sym == SYM_LOCAL) {
        emit(g, OP_STORE, target->sym_index, pos);
    } else if (target->sym == SYM_GLOBAL) {
        emit(g, OP_PUTG, target->sym_index, pos);
    } else {
        emit_field(g, OP_PUTF, target->sym_class, target->sym_index, pos);
    }
}

/* target op= value: the operation on the target's current value, narrowed
   back to int when an int target met a long value. */
static void compile_compound_op(Gen *g, const Expr *target, Operator op,
                                const Type *value_type, SrcPos pos)
{
    bool target_long = is_long(target->type);
    bool wide = is_shift(op) ? target_long : target_long || is_long(value_type);
    emit(g, binary_opcode(op, wide), 0, pos);
    if (wide && !target_long)
        emit(g, OP_L2I, 0, pos);
}

static void compile_assign(Gen *g, const Stmt *s)
{
    bool compound = s->op >= 0;
    compile_target_prefix(g, s->target, compound);
    compile_expr(g, s->expr);
    if (compound)
        compile_compound_op(g, s->target, (Operator)s->op, s->expr->type, s->pos);
    compile_target_store(g, s->target);
}

static void compile_incdec(Gen *g, const Stmt *s)
{
    compile_target_prefix(g, s->target, true);
    emit_const(g, 1, s->pos);
    compile_compound_op(g, s->target, (Operator)s->op, s->target->type, s->pos);
    compile_target_store(g, s->target);
}

/* ---- leaving blocks: break, continue, return -------------------------- */

static void emit_unlock(Gen *g, int slot, SrcPos pos)
{
    emit(g, OP_LOAD, slot, pos);
    emit(g, OP_UNLOCK, 0, pos);
}

static Frame *frame_at(Gen *g, guint depth)
{
    return &g_array_index(g->frames, Frame, depth);
}

/* Unlocks the monitors opened inside the innermost loop, innermost first,
   then jumps to that loop's break or continue label. */
static void compile_loop_exit(Gen *g, bool is_break, SrcPos pos)
{
    for (guint i = g->frames->len; i-- > 0;) {
        Frame *f = frame_at(g, i);
        if (f->kind == FRAME_MONITOR) {
            emit_unlock(g, f->monitor_slot, pos);
            continue;
        }
        emit_jump(g, OP_JMP, is_break ? f->break_label : f->continue_label, pos);
        return;
    }
    g_assert_not_reached();
}

/* The value, if any, is already on the stack. */
static void emit_return(Gen *g, bool with_value, SrcPos pos)
{
    for (guint i = g->frames->len; i-- > 0;) {
        Frame *f = frame_at(g, i);
        if (f->kind == FRAME_MONITOR)
            emit_unlock(g, f->monitor_slot, pos);
    }
    if (g->exit == EXIT_END) {
        emit(g, OP_END, 0, pos);
        return;
    }
    if (g->freeze_on_return)
        emit(g, OP_FREEZE, 0, pos);
    emit(g, with_value ? OP_RETV : OP_RET, 0, pos);
}

static void compile_return(Gen *g, const Stmt *s)
{
    if (s->expr)
        compile_expr(g, s->expr);
    emit_return(g, s->expr != NULL, s->pos);
}

/* ---- loops -------------------------------------------------------------- */

static void push_loop(Gen *g, int break_label, int continue_label)
{
    Frame f = { .kind = FRAME_LOOP, .break_label = break_label,
                .continue_label = continue_label };
    g_array_append_val(g->frames, f);
}

static void pop_frame(Gen *g)
{
    g_array_set_size(g->frames, g->frames->len - 1);
}

static void enter_loop(Gen *g, const Stmt *s)
{
    g_array_append_val(g->counters, s->loop_slot);
    emit(g, OP_LOOP_ENTER, s->loop_slot, s->pos);
}

/* LOOP_ENTER; head: [cond; JZ end]; LOOP_ITER; body; next: [update];
   JMP head; end. While loops are for loops without init and update. */
static void compile_for(Gen *g, const Stmt *s)
{
    int head = new_label(g), next = new_label(g), end = new_label(g);
    if (s->init)
        compile_stmt(g, s->init);
    enter_loop(g, s);
    bind_label(g, head);
    if (s->cond)
        compile_branch(g, s->cond, false, end);
    emit(g, OP_LOOP_ITER, s->loop_slot, s->pos);
    push_loop(g, end, next);
    compile_stmt(g, s->body_s);
    pop_frame(g);
    bind_label(g, next);
    if (g->reachable) {
        if (s->update)
            compile_stmt(g, s->update);
        emit_jump(g, OP_JMP, head, s->pos);
    }
    bind_label(g, end);
}

/* LOOP_ENTER; body: LOOP_ITER; body; next: cond; JNZ body; end. */
static void compile_do(Gen *g, const Stmt *s)
{
    int body = new_label(g), next = new_label(g), end = new_label(g);
    enter_loop(g, s);
    bind_label(g, body);
    emit(g, OP_LOOP_ITER, s->loop_slot, s->pos);
    push_loop(g, end, next);
    compile_stmt(g, s->body_s);
    pop_frame(g);
    bind_label(g, next);
    if (g->reachable)
        compile_branch(g, s->cond, true, body);
    bind_label(g, end);
}

/* ---- other statements --------------------------------------------------- */

/* The monitor's object lives in a hidden local, one per nesting depth,
   after the checker's slots, so that every exit unlocks the same object
   even if the expression's locals change inside the block. */
static int monitor_slot_enter(Gen *g)
{
    int slot = g->checked_locals + g->monitor_depth++;
    if (slot >= g->method->n_locals)
        g->method->n_locals = slot + 1;
    return slot;
}

/* Locks the object in slot; every exit compiled until the frame is popped
   unlocks it. */
static void open_monitor(Gen *g, int slot, SrcPos pos)
{
    Frame f = { .kind = FRAME_MONITOR, .monitor_slot = slot };
    emit(g, OP_LOAD, slot, pos);
    emit(g, OP_LOCK, 0, pos);
    g_array_append_val(g->frames, f);
}

static void compile_sync(Gen *g, const Stmt *s)
{
    int slot = monitor_slot_enter(g);
    compile_expr(g, s->expr);
    emit(g, OP_STORE, slot, s->pos);
    open_monitor(g, slot, s->pos);
    compile_stmt(g, s->body_s);
    pop_frame(g);
    if (g->reachable)
        emit_unlock(g, slot, s->pos);
    g->monitor_depth--;
}

static void compile_if(Gen *g, const Stmt *s)
{
    int else_label = new_label(g), end = new_label(g);
    compile_branch(g, s->cond, false, else_label);
    compile_stmt(g, s->then_s);
    if (s->else_s && g->reachable)
        emit_jump(g, OP_JMP, end, s->pos);
    bind_label(g, else_label);
    if (s->else_s)
        compile_stmt(g, s->else_s);
    bind_label(g, end);
}

/* Every execution of T x; resets x, since a declaration inside a loop runs
   again on each pass. */
static void compile_local(Gen *g, const Stmt *s)
{
    for (guint i = 0; i < s->decls->len; i++) {
        const LocalDecl *d = &g_array_index(s->decls, LocalDecl, i);
        if (d->init)
            compile_expr(g, d->init);
        else
            emit_const(g, 0, d->pos);
        emit(g, OP_STORE, d->slot, d->pos);
    }
}

static void compile_expr_stmt(Gen *g, const Stmt *s)
{
    compile_expr(g, s->expr);
    if (s->expr->type->kind != TY_VOID)
        emit(g, OP_POP, 0, s->pos);
}

static char *expr_to_text(const Expr *e);

static void compile_assert(Gen *g, const Stmt *s)
{
    CAssert a = { .message = s->message, .line = s->pos.line, .col = s->pos.col,
                  .text = expr_to_text(s->cond) };
    g_array_append_val(g->comp->asserts, a);
    compile_expr(g, s->cond);
    emit(g, OP_ASSERT, (int32_t)g->comp->asserts->len - 1, s->pos);
}

static void compile_block(Gen *g, const Stmt *s)
{
    for (guint i = 0; i < s->body->len; i++)
        compile_stmt(g, g_ptr_array_index(s->body, i));
}

static void compile_stmt(Gen *g, const Stmt *s)
{
    switch (s->kind) {
    case ST_BLOCK: compile_block(g, s); break;
    case ST_LOCAL: compile_local(g, s); break;
    case ST_ASSIGN: compile_assign(g, s); break;
    case ST_INCDEC: compile_incdec(g, s); break;
    case ST_EXPR: compile_expr_stmt(g, s); break;
    case ST_IF: compile_if(g, s); break;
    case ST_WHILE:
    case ST_FOR: compile_for(g, s); break;
    case ST_DO: compile_do(g, s); break;
    case ST_BREAK: compile_loop_exit(g, true, s->pos); break;
    case ST_CONTINUE: compile_loop_exit(g, false, s->pos); break;
    case ST_RETURN: compile_return(g, s); break;
    case ST_SYNC: compile_sync(g, s); break;
    case ST_ASSERT: compile_assert(g, s); break;
    case ST_ASSUME:
        compile_expr(g, s->cond);
        emit(g, OP_ASSUME, 0, s->pos);
        break;
    case ST_JOIN:
        /* thread id 0 is the initial thread */
        emit(g, OP_JOIN, s->sym_index + 1, s->pos);
        break;
    case ST_EMPTY: break;
    }
}

/* ---- source text of an expression, for assertion reports --------------- */

enum { PREC_COND = 1, PREC_UNARY = 12, PREC_POSTFIX = 13, PREC_PRIMARY = 14 };

/* Java precedence of a binary operator, higher binds tighter. */
static int binary_prec(Operator op)
{
    switch (op) {
    case OPR_LOR: return 2;
    case OPR_LAND: return 3;
    case OPR_OR: return 4;
    case OPR_XOR: return 5;
    case OPR_AND: return 6;
    case OPR_EQ: case OPR_NE: return 7;
    case OPR_LT: case OPR_LE: case OPR_GT: case OPR_GE: return 8;
    case OPR_SHL: case OPR_SHR: case OPR_USHR: return 9;
    case OPR_ADD: case OPR_SUB: return 10;
    default: return 11;    /* * / % */
    }
}

static int expr_prec(const Expr *e)
{
    switch (e->kind) {
    case EX_COND: return PREC_COND;
    case EX_BINARY: return binary_prec(e->op);
    /* new T[n] cannot be indexed or dereferenced without parentheses */
    case EX_UNARY: case EX_NEW_ARRAY: return PREC_UNARY;
    case EX_FIELD: case EX_INDEX: case EX_CALL: return PREC_POSTFIX;
    default: return PREC_PRIMARY;
    }
}

static void append_expr(GString *out, const Expr *e, int min_prec);

static void append_args(GString *out, const GPtrArray *args)
{
    for (guint i = 0; args && i < args->len; i++) {
        if (i > 0)
            g_string_append(out, ", ");
        append_expr(out, g_ptr_array_index(args, i), PREC_COND);
    }
}

/* new int[n][] for an array of int[]: the length goes after the innermost
   element type, the remaining dimensions after it. */
static void append_new_array(GString *out, const Expr *e)
{
    const Type *innermost = e->type->elem;
    int extra_dims = 0;
    for (; innermost->kind == TY_ARRAY; innermost = innermost->elem)
        extra_dims++;
    char *name = type_to_string(innermost);
    g_string_append_printf(out, "new %s[", name);
    g_free(name);
    append_expr(out, e->lhs, PREC_COND);
    g_string_append_c(out, ']');
    while (extra_dims-- > 0)
        g_string_append(out, "[]");
}

static void append_array_init(GString *out, const Expr *e)
{
    char *name = type_to_string(e->type);
    g_string_append_printf(out, "new %s {", name);
    g_free(name);
    append_args(out, e->args);
    g_string_append_c(out, '}');
}

static void append_binary(GString *out, const Expr *e)
{
    int prec = binary_prec(e->op);
    append_expr(out, e->lhs, prec);          /* left-associative */
    g_string_append_printf(out, " %s ", operator_spelling(e->op));
    append_expr(out, e->rhs, prec + 1);
}

static void append_expr_bare(GString *out, const Expr *e)
{
    switch (e->kind) {
    case EX_INT_LIT:
        g_string_append_printf(out, "%" G_GINT64_FORMAT "%s", e->ival, e->is_long ? "L" : "");
        break;
    case EX_BOOL_LIT: g_string_append(out, e->ival ? "true" : "false"); break;
    case EX_NULL_LIT: g_string_append(out, "null"); break;
    case EX_NAME: g_string_append(out, e->name); break;
    case EX_THIS: g_string_append(out, "this"); break;
    case EX_FIELD:
        append_expr(out, e->lhs, PREC_POSTFIX);
        g_string_append_printf(out, ".%s", e->name);
        break;
    case EX_INDEX:
        append_expr(out, e->lhs, PREC_POSTFIX);
        g_string_append_c(out, '[');
        append_expr(out, e->rhs, PREC_COND);
        g_string_append_c(out, ']');
        break;
    case EX_CALL:
        if (e->lhs) {
            append_expr(out, e->lhs, PREC_POSTFIX);
            g_string_append_c(out, '.');
        }
        g_string_append_printf(out, "%s(", e->name);
        append_args(out, e->args);
        g_string_append_c(out, ')');
        break;
    case EX_NEW_OBJECT:
        g_string_append_printf(out, "new %s(", e->name);
        append_args(out, e->args);
        g_string_append_c(out, ')');
        break;
    case EX_NEW_ARRAY: append_new_array(out, e); break;
    case EX_ARRAY_INIT: append_array_init(out, e); break;
    case EX_UNARY:
        g_string_append(out, operator_spelling(e->op));
        /* "- -w", not "--w" (a decrement): a minus before a minus or a
           negative literal needs a space */
        if (e->op == OPR_NEG && ((e->lhs->kind == EX_UNARY && e->lhs->op == OPR_NEG) ||
                                 (e->lhs->kind == EX_INT_LIT && e->lhs->ival < 0)))
            g_string_append_c(out, ' ');
        append_expr(out, e->lhs, PREC_UNARY);
        break;
    case EX_BINARY: append_binary(out, e); break;
    case EX_COND:
        append_expr(out, e->cond, PREC_COND + 1);
        g_string_append(out, " ? ");
        append_expr(out, e->lhs, PREC_COND);
        g_string_append(out, " : ");
        append_expr(out, e->rhs, PREC_COND);   /* right-associative */
        break;
    }
}

static void append_expr(GString *out, const Expr *e, int min_prec)
{
    bool parens = expr_prec(e) < min_prec;
    if (parens)
        g_string_append_c(out, '(');
    append_expr_bare(out, e);
    if (parens)
        g_string_append_c(out, ')');
}

static char *expr_to_text(const Expr *e)
{
    GString *out = g_string_new(NULL);
    append_expr(out, e, PREC_COND);
    return g_string_free(out, FALSE);
}

/* ---- operand stack depth ---------------------------------------------- */

static int stack_effect(const Program *prog, const Insn *in)
{
    switch (in->op) {
    case OP_CONST: case OP_LOAD: case OP_DUP: case OP_GETG: case OP_NEW:
        return 1;
    case OP_DUP2:
        return 2;
    case OP_STORE: case OP_POP: case OP_PUTG: case OP_ALOAD: case OP_LOCK:
    case OP_UNLOCK: case OP_JZ: case OP_JNZ: case OP_ASSERT: case OP_ASSUME:
    case OP_RETV:
        return -1;
    case OP_PUTF:
        return -2;
    case OP_ASTORE:
        return -3;
    case OP_CAS:
        return in->a == ATOMIC_ELEMENT ? -3 : -2;
    case OP_GETADD:
        return in->a == ATOMIC_ELEMENT ? -2 : -1;
    case OP_CALL: {
        const CMethod *callee = &prog->methods[in->a];
        return (callee->returns_value ? 1 : 0) - callee->n_params;
    }
    default:
        break;
    }
    if ((in->op >= OP_IADD && in->op <= OP_IUSHR) || (in->op >= OP_LADD && in->op <= OP_LUSHR)
        || (in->op >= OP_AND && in->op <= OP_XOR) || (in->op >= OP_EQ && in->op <= OP_GE))
        return -1;
    return 0;
}

static void visit_pc(int *depth, GArray *work, int pc, int d)
{
    if (depth[pc] >= 0)
        return;
    depth[pc] = d;
    g_array_append_val(work, pc);
}

/* Walks every reachable instruction once, with the depth it is reached at:
   compiled code reaches a given pc with one depth only, whichever way. */
static int compute_max_stack(const Program *prog, const CMethod *m)
{
    int *depth = g_new(int, m->n_code);
    GArray *work = g_array_new(FALSE, FALSE, sizeof(int));
    int max = 0;
    for (int i = 0; i < m->n_code; i++)
        depth[i] = -1;
    if (m->n_code > 0)
        visit_pc(depth, work, 0, 0);
    while (work->len > 0) {
        int pc = g_array_index(work, int, work->len - 1);
        g_array_set_size(work, work->len - 1);
        const Insn *in = &m->code[pc];
        int after = depth[pc] + stack_effect(prog, in);
        max = MAX(max, after);
        if (op_is_jump(in->op))
            visit_pc(depth, work, in->a, after);
        if (!op_ends_flow(in->op) && pc + 1 < m->n_code)
            visit_pc(depth, work, pc + 1, after);
    }
    g_array_free(work, TRUE);
    g_free(depth);
    return max;
}

/* ---- methods ------------------------------------------------------------ */

static void gen_init(Gen *g, Compiler *comp, CMethod *m, ExitKind exit)
{
    *g = (Gen){
        .comp = comp,
        .method = m,
        .code = g_array_new(FALSE, FALSE, sizeof(Insn)),
        .label_pc = g_array_new(FALSE, FALSE, sizeof(int)),
        .label_refs = g_array_new(FALSE, FALSE, sizeof(int)),
        .frames = g_array_new(FALSE, FALSE, sizeof(Frame)),
        .counters = g_array_new(FALSE, FALSE, sizeof(int)),
        .checked_locals = m->n_locals,
        .reachable = true,
        .exit = exit,
    };
}

/* Moves the code into the method and frees the generator. */
static void gen_finish(Gen *g)
{
    CMethod *m = g->method;
    patch_jumps(g);
    m->n_code = (int)g->code->len;
    m->code = (Insn *)g_array_free(g->code, FALSE);
    m->is_counter = g_new0(uint8_t, m->n_locals);
    for (guint i = 0; i < g->counters->len; i++)
        m->is_counter[g_array_index(g->counters, int, i)] = 1;
    g_array_free(g->label_pc, TRUE);
    g_array_free(g->label_refs, TRUE);
    g_array_free(g->frames, TRUE);
    g_array_free(g->counters, TRUE);
}

/* The implicit return at the end of a method. The checker rejects a value
   method whose end can be reached (JLS 14.22); our reachability is coarser
   only after dead code such as statements behind a return, where this
   default return never runs but keeps every jump target inside the code. */
static void compile_method_end(Gen *g, const MethodDecl *decl)
{
    if (!g->reachable)
        return;
    bool with_value = decl->ret->kind != TY_VOID;
    if (with_value)
        emit_const(g, 0, decl->pos);
    emit_return(g, with_value, decl->pos);
}

static void compile_method(Compiler *comp, int index)
{
    const MethodDecl *decl = g_ptr_array_index(comp->ast->methods, index);
    CMethod *m = &comp->prog->methods[index];
    const ClassDecl *cls = decl->class_index >= 0
        ? &g_array_index(comp->ast->classes, ClassDecl, decl->class_index) : NULL;
    Gen g;
    gen_init(&g, comp, m, EXIT_RETURN);
    g.freeze_on_return = decl->is_constructor && cls->has_final_field;
    /* this (local 0) cannot be assigned, so it serves as the monitor's slot
       without a hidden copy; the frame stays open for the implicit return */
    if (decl->is_synchronized)
        open_monitor(&g, 0, decl->pos);
    compile_stmt(&g, decl->body);
    compile_method_end(&g, decl);
    gen_finish(&g);
}

static void compile_thread(Compiler *comp, int thread_index, int method_index)
{
    const ThreadDecl *t = &g_array_index(comp->ast->threads, ThreadDecl, thread_index);
    Gen g;
    gen_init(&g, comp, &comp->prog->methods[method_index], EXIT_END);
    compile_stmt(&g, t->body);
    emit(&g, OP_END, 0, t->pos);
    gen_finish(&g);
}

static void compile_init(Compiler *comp)
{
    const Ast *ast = comp->ast;
    Gen g;
    gen_init(&g, comp, &comp->prog->methods[comp->prog->init_method], EXIT_END);
    SrcPos end_pos = { 1, 1 };    /* the header line when nothing is initialised */
    for (guint i = 0; i < ast->globals->len; i++) {
        const VarDecl *v = &g_array_index(ast->globals, VarDecl, i);
        if (!v->init)
            continue;
        compile_expr(&g, v->init);
        emit(&g, OP_PUTG, (int32_t)i, v->pos);
        end_pos = v->pos;
    }
    emit(&g, OP_END, 0, end_pos);
    gen_finish(&g);
}

/* ---- program skeleton --------------------------------------------------- */

static CVar var_from_decl(const VarDecl *v)
{
    return (CVar){ .name = v->name, .type = v->type,
                   .is_volatile = v->is_volatile, .is_final = v->is_final };
}

static void copy_globals(Program *prog, const Ast *ast)
{
    prog->n_globals = (int)ast->globals->len;
    prog->globals = g_new0(CVar, prog->n_globals);
    for (int i = 0; i < prog->n_globals; i++)
        prog->globals[i] = var_from_decl(&g_array_index(ast->globals, VarDecl, i));
}

static void copy_classes(Program *prog, const Ast *ast)
{
    prog->n_classes = (int)ast->classes->len;
    prog->classes = g_new0(CClass, prog->n_classes);
    for (int c = 0; c < prog->n_classes; c++) {
        const ClassDecl *decl = &g_array_index(ast->classes, ClassDecl, c);
        CClass *cls = &prog->classes[c];
        cls->name = decl->name;
        cls->has_final_field = decl->has_final_field;
        cls->n_fields = (int)decl->fields->len;
        cls->fields = g_new0(CVar, cls->n_fields);
        for (int f = 0; f < cls->n_fields; f++)
            cls->fields[f] = var_from_decl(&g_array_index(decl->fields, VarDecl, f));
    }
}

static void copy_threads(Program *prog, const Ast *ast, int first_method)
{
    prog->n_threads = (int)ast->threads->len;
    prog->threads = g_new0(CThread, prog->n_threads);
    for (int i = 0; i < prog->n_threads; i++) {
        const ThreadDecl *decl = &g_array_index(ast->threads, ThreadDecl, i);
        CThread *t = &prog->threads[i];
        t->name = decl->name;
        t->method = first_method + i;
        t->n_regs = (int)decl->reg_names->len;
        t->reg_names = g_new0(const char *, t->n_regs);
        t->reg_slots = g_new0(int, t->n_regs);
        t->reg_types = g_new0(const Type *, t->n_regs);
        for (int r = 0; r < t->n_regs; r++) {
            t->reg_names[r] = g_ptr_array_index(decl->reg_names, r);
            t->reg_slots[r] = g_array_index(decl->reg_slots, int, r);
            t->reg_types[r] = g_ptr_array_index(decl->reg_types, r);
        }
    }
}

static void set_method(CMethod *m, char *name, int class_index, int n_params,
                       bool returns_value, int n_locals)
{
    m->name = name;
    m->class_index = class_index;
    m->is_instance = class_index >= 0;
    m->n_params = n_params;
    m->returns_value = returns_value;
    m->n_locals = MAX(n_locals, n_params);
}

static void declare_ast_method(Compiler *comp, int index)
{
    const MethodDecl *decl = g_ptr_array_index(comp->ast->methods, index);
    int class_index = decl->class_index;
    int n_params = (int)decl->params->len + (class_index >= 0 ? 1 : 0);
    char *name;
    if (class_index < 0) {
        name = g_strdup(decl->name);
    } else {
        const ClassDecl *cls = &g_array_index(comp->ast->classes, ClassDecl, class_index);
        name = g_strdup_printf("%s.%s", cls->name, decl->is_constructor ? "<init>" : decl->name);
    }
    set_method(&comp->prog->methods[index], name, class_index, n_params,
               decl->ret->kind != TY_VOID, decl->n_locals);
}

/* Fills every CMethod's header first, so that calls can be compiled (and
   their stack effect known) before the callee's code exists. */
static void declare_methods(Compiler *comp)
{
    const Ast *ast = comp->ast;
    Program *prog = comp->prog;
    int n_ast = (int)ast->methods->len;
    int first_thread = n_ast;
    prog->init_method = first_thread + (int)ast->threads->len;
    prog->n_methods = prog->init_method + 1;
    prog->methods = g_new0(CMethod, prog->n_methods);

    for (int i = 0; i < n_ast; i++)
        declare_ast_method(comp, i);
    for (guint t = 0; t < ast->threads->len; t++) {
        const ThreadDecl *decl = &g_array_index(ast->threads, ThreadDecl, t);
        set_method(&prog->methods[first_thread + t], g_strdup(decl->name), -1, 0, false,
                   decl->n_locals);
    }
    set_method(&prog->methods[prog->init_method], g_strdup("<init>"), -1, 0, false,
               ast->init_n_locals);
    copy_threads(prog, ast, first_thread);
}

static void compile_bodies(Compiler *comp)
{
    const Ast *ast = comp->ast;
    for (guint i = 0; i < ast->methods->len; i++)
        compile_method(comp, (int)i);
    for (guint t = 0; t < ast->threads->len; t++)
        compile_thread(comp, (int)t, (int)ast->methods->len + (int)t);
    compile_init(comp);
}

Program *compile_program(const Ast *ast)
{
    Program *prog = g_new0(Program, 1);
    Compiler comp = {
        .ast = ast,
        .prog = prog,
        .types = g_ptr_array_new(),
        .asserts = g_array_new(FALSE, FALSE, sizeof(CAssert)),
        .atomic_class = -1,
    };
    prog->ast = ast;
    copy_globals(prog, ast);
    copy_classes(prog, ast);
    declare_methods(&comp);
    compile_bodies(&comp);
    for (int i = 0; i < prog->n_methods; i++)
        prog->methods[i].max_stack = compute_max_stack(prog, &prog->methods[i]);

    prog->n_types = (int)comp.types->len;
    prog->types = (const Type **)g_ptr_array_free(comp.types, FALSE);
    prog->n_asserts = (int)comp.asserts->len;
    prog->asserts = (CAssert *)g_array_free(comp.asserts, FALSE);
    return prog;
}

void program_free(Program *prog)
{
    if (!prog)
        return;
    g_free(prog->globals);
    for (int c = 0; c < prog->n_classes; c++)
        g_free(prog->classes[c].fields);
    g_free(prog->classes);
    for (int i = 0; i < prog->n_methods; i++) {
        CMethod *m = &prog->methods[i];
        g_free((char *)m->name);
        g_free(m->is_counter);
        g_free(m->code);
    }
    g_free(prog->methods);
    for (int t = 0; t < prog->n_threads; t++) {
        g_free(prog->threads[t].reg_names);
        g_free(prog->threads[t].reg_slots);
        g_free(prog->threads[t].reg_types);
    }
    g_free(prog->threads);
    for (int i = 0; i < prog->n_asserts; i++)
        g_free((char *)prog->asserts[i].text);
    g_free(prog->asserts);
    g_free(prog->types);
    g_free(prog);
}
