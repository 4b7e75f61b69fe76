//! The module loader's records: the modules a context loaded (by canonical path and how the
//! file was parsed), the import edges between them, the CommonJS state the loader keeps for
//! `require`, and the parse of a module file with its one-line SyntaxError. A leaf under the
//! loader itself (`modules`), CommonJS (`cjs`) and the event loop's rejection tracker.

use std::cell::RefCell;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::rc::Rc;

use boa_engine::object::JsObject;
use boa_engine::{Context, JsError, JsNativeError, JsResult, JsValue, Module, Source};

use crate::resolve::display_path;

/// What a module file is parsed as.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) enum Kind {
    JavaScript,
    Json,
    /// The ES module face of a CommonJS file.
    CommonJs,
}

/// The host's module loader: resolves specifiers (see the module docs), caches modules by
/// canonical path, and fills `import.meta`.
#[derive(Default)]
pub(crate) struct HostLoader {
    pub(crate) cache: RefCell<HashMap<(PathBuf, Kind), Module>>,
    /// The entry module's path and text (it need not be a file: `-e`, stdin), to explain a
    /// link error.
    pub(crate) entry: RefCell<Option<(PathBuf, Rc<str>)>>,
    /// The files each loaded module file imports (resolved), for `require()` of an ES module.
    pub(crate) edges: RefCell<HashMap<PathBuf, Vec<PathBuf>>>,
    /// `require.cache` (CommonJS), once created.
    pub(crate) cjs_cache: RefCell<Option<JsObject>>,
    /// `require.main`: the entry's `module` object when the entry is CommonJS.
    pub(crate) cjs_main: RefCell<Option<JsObject>>,
    /// The CommonJS files whose ES module face is being evaluated now (innermost last).
    pub(crate) evaluating: RefCell<Vec<PathBuf>>,
    /// Errors that ended the evaluation of a CommonJS module's face (see `cjs`).
    pub(crate) facade_failures: RefCell<Vec<JsValue>>,
}

impl HostLoader {
    /// Drop the cached modules (when the host goes away).
    pub(crate) fn clear(&self) {
        let cache = std::mem::take(&mut *self.cache.borrow_mut());
        let cjs = (
            self.cjs_cache.take(),
            self.cjs_main.take(),
            self.facade_failures.take(),
        );
        drop((cache, cjs));
    }

    /// The files of the modules loaded so far.
    pub(crate) fn cached_paths(&self) -> std::collections::HashSet<PathBuf> {
        self.cache.borrow().keys().map(|(p, _)| p.clone()).collect()
    }

    /// The module files reachable from `path` through the imports loaded so far (`path`
    /// included).
    pub(crate) fn graph_of(&self, path: &Path) -> Vec<PathBuf> {
        let edges = self.edges.borrow();
        let mut out = vec![path.to_owned()];
        let mut i = 0;
        while let Some(p) = out.get(i).cloned() {
            i += 1;
            for next in edges.get(&p).into_iter().flatten() {
                if !out.contains(next) {
                    out.push(next.clone());
                }
            }
        }
        out
    }

    /// The ES module record of the file `path` (parsed now, or from the cache), for
    /// `require()`.
    pub(crate) fn module_for_require(
        &self,
        path: &Path,
        context: &mut Context,
    ) -> JsResult<Module> {
        if let Some(module) = self.cached(path, Kind::JavaScript) {
            return Ok(module);
        }
        let text = std::fs::read_to_string(path).map_err(|e| {
            JsNativeError::typ()
                .with_message(format!("Cannot read module {}: {e}", display_path(path)))
        })?;
        let module = parse_module(&text, path, context)
            .map_err(|e| JsError::from(JsNativeError::syntax().with_message(e)))?;
        self.insert(path.to_owned(), Kind::JavaScript, module.clone());
        Ok(module)
    }

    pub(crate) fn cached(&self, path: &Path, kind: Kind) -> Option<Module> {
        self.cache.borrow().get(&(path.to_owned(), kind)).cloned()
    }

    pub(crate) fn insert(&self, path: PathBuf, kind: Kind, module: Module) {
        self.cache.borrow_mut().insert((path, kind), module);
    }
}

/// Parse `text` as a module whose file is `path`; the error is one line naming
/// `file:line:col`.
pub(crate) fn parse_module(
    text: &str,
    path: &Path,
    context: &mut Context,
) -> Result<Module, String> {
    let text = with_final_semicolon(text);
    let source = Source::from_bytes(&text).with_path(path);
    Module::parse(source, None, context).map_err(|e| {
        let message = error_text(&e, context);
        syntax_error_line(&message, path)
    })
}

/// `SyntaxError: <what> (file:line:col)` from a Boa parse error message.
pub(crate) fn syntax_error_line(message: &str, path: &Path) -> String {
    syntax_error_line_with(message, path, |_, col| col)
}

/// [`syntax_error_line`] with the column mapped by `column(line, col)` (a wrapped file).
pub(crate) fn syntax_error_line_with(
    message: &str,
    path: &Path,
    column: impl Fn(u32, u32) -> u32,
) -> String {
    let message = message.strip_prefix("SyntaxError: ").unwrap_or(message);
    match parse_position(message) {
        Some((what, line, col)) => {
            format!(
                "{what} ({}:{line}:{})",
                display_path(path),
                column(line, col)
            )
        }
        None => format!("{message} ({})", display_path(path)),
    }
}

/// Boa words a parse error `"<what> at line L, col C"`: split that off.
fn parse_position(message: &str) -> Option<(&str, u32, u32)> {
    let (what, at) = message.rsplit_once(" at line ")?;
    let (line, col) = at.split_once(", col ")?;
    let col = col.split(|c: char| !c.is_ascii_digit()).next()?;
    Some((what, line.trim().parse().ok()?, col.parse().ok()?))
}

/// The message of a JS error without running script.
pub(crate) fn error_text(error: &JsError, context: &mut Context) -> String {
    match error.try_native(context) {
        Ok(native) => native.message().to_string(),
        Err(_) => error.to_string(),
    }
}

/// `text` with a line break and an empty statement appended.
///
/// Boa 0.22's parser does not insert the semicolon that ends `export { … }` at the end of
/// the input ("abrupt end"; docs/engine-bugs/export-list-at-end.mjs), so a module whose last
/// statement is an export list without `;` fails to parse. A `;` on a line of its own at the
/// end either ends that declaration or is an empty statement.
// NOTE: unobservable: the appended text follows every token of the module (the line break
// closes a final `//` comment), so no position, binding or function's source text changes,
// and an empty statement evaluates to nothing.
pub(crate) fn with_final_semicolon(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 2);
    out.push_str(text);
    out.push_str("\n;");
    out
}

/// The error that ends a CommonJS module's evaluation as an ES module is thrown to the
/// importer (and reported there); Boa also rejects the synthetic module's own evaluation
/// promise with it, which no script can see or handle: remember the value so that the
/// rejection tracker leaves that promise out (`is_facade_failure`).
pub(crate) fn remember_failure(error: JsError, context: &mut Context) -> JsError {
    let Ok(value) = error.clone().into_opaque(context) else {
        return error;
    };
    if let Some(loader) = context.downcast_module_loader::<HostLoader>() {
        let mut failures = loader.facade_failures.borrow_mut();
        if failures.len() >= 16 {
            failures.remove(0);
        }
        failures.push(value.clone());
    }
    JsError::from_opaque(value)
}

/// Is `promise` rejected with a value `remember_failure` kept (which is then forgotten)?
pub(crate) fn is_facade_failure(
    promise: &boa_engine::object::JsObject<boa_engine::builtins::promise::Promise>,
    context: &mut Context,
) -> bool {
    let Some(loader) = context.downcast_module_loader::<HostLoader>() else {
        return false;
    };
    let object: JsObject = promise.clone().upcast();
    let Ok(promise) = boa_engine::object::builtins::JsPromise::from_object(object) else {
        return false;
    };
    let boa_engine::builtins::promise::PromiseState::Rejected(reason) = promise.state() else {
        return false;
    };
    let mut failures = loader.facade_failures.borrow_mut();
    match failures.iter().position(|v| v == &reason) {
        Some(i) => {
            failures.remove(i);
            true
        }
        None => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_boa_positions() {
        assert_eq!(
            parse_position("expected token ';', got 'x' at line 3, col 7"),
            Some(("expected token ';', got 'x'", 3, 7))
        );
        assert_eq!(parse_position("no position"), None);
    }
}
