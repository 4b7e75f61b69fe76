//! The child side: compiles one source text with the engine the workspace builds and says what
//! happened. Nothing is evaluated: a script is parsed and compiled to bytecode
//! (`Script::codeblock`); a module is parsed, its imports are loaded as empty synthetic modules
//! that export every name the module imports, and it is linked (which compiles its body).

use std::cell::RefCell;
use std::panic::{self, AssertUnwindSafe};
use std::rc::Rc;

use boa_engine::builtins::promise::PromiseState;
use boa_engine::module::{ModuleLoader, Referrer, SyntheticModuleInitializer};
use boa_engine::{Context, JsResult, JsString, Module, Script, Source};
use boa_interner::Interner;
use boa_parser::Parser;
use serde::{Deserialize, Serialize};

/// The goal a source is compiled for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Goal {
    /// A CommonJS file: a script inside the module wrapper function.
    Cjs,
    /// An ES module.
    Module,
    /// `.js`: CommonJS first, then an ES module.
    Either,
}

impl Goal {
    /// The goal of a file, by its extension.
    pub fn of_path(path: &str) -> Goal {
        if path.ends_with(".mjs") {
            Goal::Module
        } else if path.ends_with(".cjs") {
            Goal::Cjs
        } else {
            Goal::Either
        }
    }
}

/// What compiling one source gave.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Status {
    /// Compiled as a (wrapped) script.
    OkScript,
    /// Compiled and linked as a module.
    OkModule,
    /// The engine reported a SyntaxError for every goal tried.
    SyntaxError,
    /// Another catchable error (a RangeError from an engine limit, a link error).
    Error,
    /// The engine panicked (caught by the child).
    Panic,
    /// The child process died (a stack overflow, an abort).
    Crash,
    /// The child passed the time limit and was killed.
    Timeout,
}

impl Status {
    /// A finding: something source text must never cause.
    pub fn is_finding(self) -> bool {
        matches!(self, Status::Panic | Status::Crash | Status::Timeout)
    }
}

/// A request from the parent: a file to read, or a source given inline (a fuzzer's mutant).
#[derive(Debug, Serialize, Deserialize)]
pub struct Request {
    pub path: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source: Option<String>,
    pub goal: Goal,
}

/// The child's answer.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Answer {
    pub status: Status,
    /// The error or panic message (first line, cut), empty for success.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub detail: String,
}

/// Keeps at most `max` characters of the first line of `text`.
pub fn cut(text: &str, max: usize) -> String {
    let first = text.lines().next().unwrap_or("");
    first.chars().take(max).collect()
}

/// Gives every imported module the names the importing module asks for.
#[derive(Default)]
struct CampaignLoader {
    names: RefCell<Vec<JsString>>,
}

impl ModuleLoader for CampaignLoader {
    async fn load_imported_module(
        self: Rc<Self>,
        _referrer: Referrer,
        _request: boa_engine::module::ModuleRequest,
        context: &RefCell<&mut Context>,
    ) -> JsResult<Module> {
        let names = self.names.borrow().clone();
        Ok(Module::synthetic(
            &names,
            SyntheticModuleInitializer::from_copy_closure(|_, _| Ok(())),
            None,
            None,
            &mut context.borrow_mut(),
        ))
    }
}

/// Compiles sources, each in a context of its own: what one compilation leaves behind (Boa
/// 0.22 can leave values on the VM stack after an error) must not decide the next one's result.
pub struct Compiler {
    loader: Rc<CampaignLoader>,
}

impl Default for Compiler {
    fn default() -> Self {
        Self::new()
    }
}

enum Outcome {
    Ok,
    Syntax(String),
    Other(String),
}

impl Compiler {
    pub fn new() -> Compiler {
        Compiler {
            loader: Rc::new(CampaignLoader::default()),
        }
    }

    fn new_context(&self) -> Result<Context, String> {
        #[allow(unused_mut, reason = "set only with the patched engine")]
        let mut context = Context::builder()
            .module_loader(self.loader.clone())
            .build()
            .map_err(|e| format!("cannot build a context: {e}"))?;
        // The child compiles on a thread with the host's stack: the parser gets the host's
        // share of it (the engine's default suits a 2 MiB thread).
        #[cfg(feature = "patched-engine")]
        context
            .runtime_limits_mut()
            .set_parser_stack_limit(boa_streams_host::LARGE_STACK_PARSER_STACK_LIMIT);
        Ok(context)
    }

    /// Compiles `source` for `goal`; a panic is caught and reported as [`Status::Panic`].
    pub fn compile(&mut self, source: &str, goal: Goal) -> Answer {
        let result = panic::catch_unwind(AssertUnwindSafe(|| self.compile_inner(source, goal)));
        match result {
            Ok(answer) => answer,
            Err(payload) => {
                let message = payload
                    .downcast_ref::<&str>()
                    .map(|s| (*s).to_owned())
                    .or_else(|| payload.downcast_ref::<String>().cloned())
                    .unwrap_or_else(|| "a panic with a non-string payload".to_owned());
                let location = LAST_PANIC_LOCATION.with(|l| l.borrow_mut().take());
                let detail = match location {
                    Some(at) => format!("{} (at {at})", cut(&message, 300)),
                    None => cut(&message, 300),
                };
                Answer {
                    status: Status::Panic,
                    detail,
                }
            }
        }
    }

    fn compile_inner(&mut self, source: &str, goal: Goal) -> Answer {
        let mut context = match self.new_context() {
            Ok(context) => context,
            Err(detail) => return answer_of(Outcome::Other(detail)),
        };
        let context = &mut context;
        let text = without_hashbang(source);
        let first = match goal {
            Goal::Module => None,
            Goal::Cjs | Goal::Either => Some(compile_cjs(&text, context)),
        };
        match (goal, first) {
            (_, Some(Outcome::Ok)) => return ok(Status::OkScript),
            (Goal::Cjs, Some(result)) => return answer_of(result),
            _ => {}
        }
        let module = self.compile_module(source, context);
        match module {
            Outcome::Ok => ok(Status::OkModule),
            other => answer_of(other),
        }
    }

    fn compile_module(&self, source: &str, context: &mut Context) -> Outcome {
        *self.loader.names.borrow_mut() = imported_names(source);
        let module = match Module::parse(Source::from_bytes(source.as_bytes()), None, context) {
            Ok(module) => module,
            Err(e) => return classify(&e.to_string(), e.as_native().map(|n| n.kind().to_string())),
        };
        let promise = module.load(context);
        if let Err(e) = context.run_jobs() {
            return Outcome::Other(cut(&e.to_string(), 300));
        }
        if let PromiseState::Rejected(reason) = promise.state() {
            return Outcome::Other(cut(&reason.display().to_string(), 300));
        }
        match module.link(context) {
            Ok(()) => Outcome::Ok,
            Err(e) => classify(&e.to_string(), e.as_native().map(|n| n.kind().to_string())),
        }
    }
}

fn compile_cjs(text: &str, context: &mut Context) -> Outcome {
    // The wrapper a CommonJS loader puts around a file (a `return` at the top level is
    // valid in CommonJS).
    let wrapped =
        format!("(function (exports, require, module, __filename, __dirname) {{{text}\n}})");
    let script = match Script::parse(Source::from_bytes(wrapped.as_bytes()), None, context) {
        Ok(script) => script,
        Err(e) => return classify(&e.to_string(), e.as_native().map(|n| n.kind().to_string())),
    };
    match script.codeblock(context) {
        Ok(_) => Outcome::Ok,
        Err(e) => classify(&e.to_string(), e.as_native().map(|n| n.kind().to_string())),
    }
}

fn ok(status: Status) -> Answer {
    Answer {
        status,
        detail: String::new(),
    }
}

fn answer_of(outcome: Outcome) -> Answer {
    match outcome {
        Outcome::Ok => ok(Status::OkScript),
        Outcome::Syntax(detail) => Answer {
            status: Status::SyntaxError,
            detail,
        },
        Outcome::Other(detail) => Answer {
            status: Status::Error,
            detail,
        },
    }
}

fn classify(message: &str, kind: Option<String>) -> Outcome {
    let detail = cut(message, 300);
    if kind.as_deref() == Some("SyntaxError") || message.starts_with("SyntaxError") {
        Outcome::Syntax(detail)
    } else {
        Outcome::Other(detail)
    }
}

/// A leading `#!` line is valid only at the very start of a source: inside the wrapper it
/// becomes a comment of the same length (positions stay put).
fn without_hashbang(source: &str) -> String {
    if let Some(rest) = source.strip_prefix("#!") {
        format!("//{rest}")
    } else {
        source.to_owned()
    }
}

/// Every name the module imports or re-exports by name from another module (the synthetic
/// modules the loader makes export all of them). Empty when the source does not parse.
fn imported_names(source: &str) -> Vec<JsString> {
    let mut interner = Interner::default();
    let scope = boa_ast::scope::Scope::new_global();
    #[allow(unused_mut, reason = "set only with the patched engine")]
    let mut parser = Parser::new(Source::from_bytes(source.as_bytes()));
    // As for the context's own parse: the host's share of the child's large stack.
    #[cfg(feature = "patched-engine")]
    parser.set_stack_limit(boa_streams_host::LARGE_STACK_PARSER_STACK_LIMIT);
    let Ok(module) = parser.parse_module(&scope, &mut interner) else {
        return Vec::new();
    };
    let mut names = std::collections::BTreeSet::new();
    let items = module.items();
    for entry in items.import_entries() {
        if let boa_ast::declaration::ImportName::Name(sym) = entry.import_name() {
            if let Some(name) = interner.resolve(sym) {
                names.insert(name.to_string());
            }
        }
    }
    for entry in items.export_entries() {
        if let boa_ast::declaration::ExportEntry::ReExport(indirect) = entry {
            if let boa_ast::declaration::ReExportImportName::Name(sym) = indirect.import_name() {
                if let Some(name) = interner.resolve(sym) {
                    names.insert(name.to_string());
                }
            }
        }
    }
    names
        .into_iter()
        .map(|n| JsString::from(n.as_str()))
        .collect()
}

thread_local! {
    static LAST_PANIC_LOCATION: RefCell<Option<String>> = const { RefCell::new(None) };
}

/// A panic hook that records where the panic happened instead of printing it (the child
/// reports it in its answer).
pub fn install_quiet_panic_hook() {
    panic::set_hook(Box::new(|info| {
        if let Some(location) = info.location() {
            let at = format!("{}:{}", location.file(), location.line());
            LAST_PANIC_LOCATION.with(|l| *l.borrow_mut() = Some(at));
        }
    }));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn goals_follow_the_extension() {
        assert_eq!(Goal::of_path("a/b.mjs"), Goal::Module);
        assert_eq!(Goal::of_path("a/b.cjs"), Goal::Cjs);
        assert_eq!(Goal::of_path("a/b.js"), Goal::Either);
    }

    #[test]
    fn scripts_modules_and_syntax_errors_are_told_apart() {
        let mut compiler = Compiler::new();
        let script = compiler.compile("exports.x = 1; return;", Goal::Either);
        assert_eq!(script.status, Status::OkScript);
        let module = compiler.compile(
            "import d, { a as b } from './x.js'; export { c } from 'y'; export * from 'z';\nexport default b + d;",
            Goal::Either,
        );
        assert_eq!(module.status, Status::OkModule, "{}", module.detail);
        let bad = compiler.compile("let let = 1;", Goal::Either);
        assert_eq!(bad.status, Status::SyntaxError);
        assert!(!bad.detail.is_empty());
        let hashbang = compiler.compile("#!/usr/bin/env node\nmodule.exports = 1", Goal::Cjs);
        assert_eq!(hashbang.status, Status::OkScript, "{}", hashbang.detail);
    }

    #[test]
    fn a_module_only_goal_does_not_accept_a_top_level_return() {
        let mut compiler = Compiler::new();
        assert_eq!(
            compiler.compile("return 1", Goal::Module).status,
            Status::SyntaxError
        );
    }

    #[test]
    fn names_imported_and_re_exported_are_collected() {
        let names = imported_names("import { a, b as c } from 'x'; import * as ns from 'y'; export { d as e } from 'z'; export * from 'w';");
        let names: Vec<String> = names.iter().map(|n| n.to_std_string_escaped()).collect();
        assert_eq!(names, ["a", "b", "d"]);
    }
}
