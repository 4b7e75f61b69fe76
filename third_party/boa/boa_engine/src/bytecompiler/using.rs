//! `using` and `await using` declarations (explicit resource management).
//!
//! A scope that declares resources (a block, a function body, a module, a `for` statement
//! with a `using` head, an iteration of a `for (using x of ...)` loop) is compiled like a
//! `try { ... } finally { DisposeResources }`: the resources live in a dispose capability held
//! in a register, and every exit of the scope (normal, `break`, `continue`, `return`, a
//! throw, a generator's `return()`) runs through the disposal, which awaits in async code.
//!
//! More information:
//!  - [ECMAScript reference][spec]
//!
//! [spec]: https://tc39.es/proposal-explicit-resource-management/

use crate::{
    bytecompiler::{ByteCompiler, Register, ToJsString, jump_control::JumpControlInfoFlags},
    vm::opcode::{BindingOpcode, RegisterOperand},
};
use boa_ast::{
    Declaration, ModuleItem, StatementList, StatementListItem,
    declaration::{Binding, LexicalDeclaration, VariableList},
};

/// What kind of resources a scope declares.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum UsingKind {
    /// Only `using` declarations.
    Sync,
    /// At least one `await using` declaration.
    Async,
}

impl UsingKind {
    /// The kind of a lexical declaration, `None` for `let` and `const`.
    pub(crate) const fn of_declaration(decl: &LexicalDeclaration) -> Option<Self> {
        match decl {
            LexicalDeclaration::Using(_) => Some(Self::Sync),
            LexicalDeclaration::AwaitUsing(_) => Some(Self::Async),
            LexicalDeclaration::Let(_) | LexicalDeclaration::Const(_) => None,
        }
    }

    fn merge(kind: Option<Self>, item: Option<Self>) -> Option<Self> {
        match (kind, item) {
            (Some(Self::Async), _) | (_, Some(Self::Async)) => Some(Self::Async),
            (Some(Self::Sync), _) | (_, Some(Self::Sync)) => Some(Self::Sync),
            (None, None) => None,
        }
    }

    fn of_item(item: &StatementListItem) -> Option<Self> {
        match item {
            StatementListItem::Declaration(decl) => match decl.as_ref() {
                Declaration::Lexical(decl) => Self::of_declaration(decl),
                _ => None,
            },
            StatementListItem::Statement(_) => None,
        }
    }

    /// The kind of the resources a statement list declares directly, `None` if it declares
    /// none.
    pub(crate) fn of_statement_list(list: &StatementList) -> Option<Self> {
        list.statements()
            .iter()
            .fold(None, |kind, item| Self::merge(kind, Self::of_item(item)))
    }

    /// The kind of the resources a module declares at its top level, `None` if it declares
    /// none.
    pub(crate) fn of_module_items(items: &[ModuleItem]) -> Option<Self> {
        items.iter().fold(None, |kind, item| match item {
            ModuleItem::StatementListItem(item) => Self::merge(kind, Self::of_item(item)),
            _ => kind,
        })
    }
}

impl ByteCompiler<'_> {
    /// Compiles `body` as a scope whose `using` declarations add their resources to a new
    /// dispose capability, and disposes of them on every exit of the scope.
    pub(crate) fn compile_using_scope<F>(&mut self, kind: UsingKind, use_expr: bool, body: F)
    where
        F: FnOnce(&mut Self),
    {
        let capability = self.register_allocator.alloc();
        self.bytecode
            .emit_new_dispose_capability(capability.variable());

        // The registers of the `finally` machinery: `break`, `continue` and `return` in the
        // scope go through the disposal, then on with the jump table.
        let finally_re_throw = self.register_allocator.alloc();
        let finally_jump_index = self.register_allocator.alloc();
        self.bytecode.emit_store_false(finally_re_throw.variable());
        self.bytecode.emit_store_zero(finally_jump_index.variable());

        // `true` unless the scope is left by a generator's `return()`, which unwinds the
        // handlers without an exception: the disposal runs, then the unwinding goes on.
        let has_exception = self.register_allocator.alloc();
        self.bytecode.emit_store_true(has_exception.variable());

        self.push_try_with_finally_control_info(&finally_re_throw, &finally_jump_index, use_expr);

        let previous = self.dispose_capability.replace(capability.index());
        let try_handler = self.push_handler();
        body(self);
        let finally = self.jump();
        self.patch_handler(try_handler);
        self.dispose_capability = previous;

        // The scope threw: record the error, it is the completion the disposal starts from.
        let exception = self.register_allocator.alloc();
        self.bytecode
            .emit_maybe_exception(has_exception.variable(), exception.variable());
        let no_exception = self.jump_if_false(&has_exception);
        self.bytecode
            .emit_dispose_error(capability.variable(), exception.variable());
        self.register_allocator.dealloc(exception);
        self.patch_jump(no_exception);
        self.patch_jump(finally);

        let finally_start = self.next_opcode_location();
        self.jump_info
            .last_mut()
            .expect("the using scope's control info was just pushed")
            .flags |= JumpControlInfoFlags::IN_FINALLY;

        let completion_value = self.register_allocator.alloc();
        self.bytecode
            .emit_set_register_from_accumulator(completion_value.variable());
        self.emit_dispose_resources(kind, capability.variable());
        self.bytecode
            .emit_set_accumulator(completion_value.variable());
        self.register_allocator.dealloc(completion_value);

        if self.is_generator() {
            let not_returning = self.jump_if_true(&has_exception);
            self.bytecode.emit_re_throw();
            self.patch_jump(not_returning);
        }

        self.pop_try_with_finally_control_info(finally_start);
        self.register_allocator.dealloc(has_exception);
        self.register_allocator.dealloc(finally_re_throw);
        self.register_allocator.dealloc(finally_jump_index);
        self.register_allocator.dealloc(capability);
    }

    /// Emits `DisposeResources` of the capability: a loop that awaits what the opcode asks
    /// to await (an `await using` resource's disposal) and records a rejection as an error.
    /// The last `DisposeResources` throws the error the scope ends with, if any.
    fn emit_dispose_resources(&mut self, kind: UsingKind, capability: RegisterOperand) {
        let value = self.register_allocator.alloc();
        let awaiting = self.register_allocator.alloc();

        let start = self.next_opcode_location();
        self.bytecode
            .emit_dispose_resources(capability, value.variable(), awaiting.variable());

        if kind == UsingKind::Async && self.is_async() {
            let done = self.jump_if_false(&awaiting);

            let await_handler = self.push_handler();
            self.bytecode.emit_await(value.variable());
            let resume_kind = self.register_allocator.alloc();
            self.pop_into_register(&resume_kind);
            self.pop_into_register(&value);
            self.generator_next(&value, &resume_kind);
            self.register_allocator.dealloc(resume_kind);
            self.bytecode.emit_jump(start);
            self.patch_handler(await_handler);

            // The awaited disposal rejected.
            self.bytecode.emit_exception(value.variable());
            self.bytecode
                .emit_dispose_error(capability, value.variable());
            self.bytecode.emit_jump(start);

            self.patch_jump(done);
        } else {
            // Code that cannot await (the parser allows no `await using` there): the
            // disposal does not wait for the promises it gets.
            let again = self.jump_if_true(&awaiting);
            self.patch_jump_with_target(again, start);
        }

        self.register_allocator.dealloc(awaiting);
        self.register_allocator.dealloc(value);
    }

    /// Compiles a `using` or `await using` declaration: each initializer's value is added
    /// to the scope's dispose capability (`TypeError` if it is not an object, `null` or
    /// `undefined`, or has no dispose method), then bound.
    pub(crate) fn compile_using_decl(&mut self, decls: &VariableList, kind: UsingKind) {
        for variable in decls.as_ref() {
            let value = self.register_allocator.alloc();
            if let Some(init) = variable.init() {
                self.compile_expr(init, &value);
            } else {
                self.bytecode.emit_store_undefined(value.variable());
            }
            self.emit_add_disposable_resource(&value, kind);
            match variable.binding() {
                Binding::Identifier(ident) => {
                    let ident = ident.to_js_string(self.interner());
                    self.emit_binding(BindingOpcode::InitLexical, ident, &value);
                }
                Binding::Pattern(pattern) => {
                    self.compile_declaration_pattern(pattern, BindingOpcode::InitLexical, &value);
                }
            }
            self.register_allocator.dealloc(value);
        }
    }

    /// Adds `value` to the current scope's dispose capability.
    pub(crate) fn emit_add_disposable_resource(&mut self, value: &Register, kind: UsingKind) {
        let hint = kind == UsingKind::Async;
        if let Some(capability) = self.dispose_capability {
            self.bytecode.emit_add_disposable_resource(
                RegisterOperand::new(capability),
                value.variable(),
                hint.into(),
            );
        } else {
            // Only reachable with an AST the parser does not produce (a `using` declaration
            // outside of a scope that disposes).
            self.emit_type_error("`using` declaration outside of a block");
        }
    }
}
