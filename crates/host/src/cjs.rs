//! CommonJS: `require`, the module wrapper, and the ES module face of a CommonJS module.
//!
//! A file is CommonJS when it ends in `.cjs`, or ends in `.js` (or another extension but
//! `.mjs`/`.json`) and the nearest `package.json` says `"type": "commonjs"`, or says no type
//! and the file does not use ES module syntax (Node's detection: it fails to parse as a script
//! but parses as a module).
//!
//! * The file runs once, inside `function (exports, require, module, __filename, __dirname)`
//!   with `this` = `module.exports`; `module` has `id`, `filename`, `path`, `exports`,
//!   `loaded`, `children`, `paths` and `require`.
//! * `require(specifier)` resolves as the `modules` docs say, with the `require` condition
//!   instead of `import`/`module`, the `main` field (never `module`), and Node's probing for
//!   paths and for packages without `exports`: `X`, `X.js`, `X.json`, then the directory's
//!   `package.json` `main` (probed the same way) and `index.js`/`index.json`. `.node` files
//!   (native addons) are refused, as are Node's built-in modules (`node:fs`, or `fs` when no
//!   package of that name is installed): the error names the built-in and the file (and
//!   package) that asked for it.
//! * `require.cache` maps file names to module objects; deleting an entry makes the next
//!   `require` run the file again. A module is cached before it runs, so a cycle sees the
//!   partial `module.exports` of a module that is still running; one that throws is removed.
//! * A package's `browser` field mapping a file or module name to `false` (an empty object)
//!   or to another file is honoured by `require` (bundlers' convention, as the `browser`
//!   condition is active).
//! * `.json` files are parsed with `boa_json` (the module's `exports` is the value).
//! * `require()` of an ES module links and evaluates it at once and returns its namespace
//!   (Node 22); a graph with top-level `await` is an error naming the file (before anything
//!   runs), and so is a module in a cycle with the module being evaluated.
//! * `import` of a CommonJS file gives a module whose `default` export is `module.exports`
//!   and whose named exports are the names `cjs_lexer` finds in the source (and, through
//!   re-exports, in the modules it re-exports), read from `module.exports` after it ran.

use std::collections::HashSet;
use std::path::{Path, PathBuf};

use boa_engine::module::SyntheticModuleInitializer;
use boa_engine::object::builtins::{JsArray, JsFunction};
use boa_engine::object::JsObject;
use boa_engine::{
    js_string, Context, JsError, JsNativeError, JsResult, JsString, JsValue, Module,
    NativeFunction, Source,
};

use crate::cjs_lexer;
use crate::cjs_wrapper::{file_position, wrap, WrappedFiles};
use crate::loader::{remember_failure, HostLoader};
use crate::resolve::{display_path, package_type, Resolver};

/// What a resolved file is loaded as.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Format {
    Esm,
    CommonJs,
    Json,
    Addon,
}

/// The format of the file at `path` (see the module docs).
pub(crate) fn format_of(path: &Path) -> Format {
    match path.extension().and_then(|e| e.to_str()) {
        Some("mjs") => return Format::Esm,
        Some("cjs") => return Format::CommonJs,
        Some("json") => return Format::Json,
        Some("node") => return Format::Addon,
        _ => {}
    }
    match package_type(path).as_deref() {
        Some("module") => Format::Esm,
        Some("commonjs") => Format::CommonJs,
        _ => match std::fs::read_to_string(path) {
            Ok(text) if looks_like_module(&text) => Format::Esm,
            _ => Format::CommonJs,
        },
    }
}

/// Node's syntax detection without a context: the text fails to parse as a script (in a
/// function body, as CommonJS runs) but parses as a module.
fn looks_like_module(text: &str) -> bool {
    let mut interner = boa_engine::interner::Interner::default();
    let scope = boa_engine::ast::scope::Scope::new_global();
    let wrapped = wrap(text);
    let script = boa_engine::parser::Parser::new(Source::from_bytes(&wrapped))
        .parse_script(&scope, &mut interner);
    if script.is_ok() {
        return false;
    }
    let mut interner = boa_engine::interner::Interner::default();
    let module_text = format!("{text}\n;");
    boa_engine::parser::Parser::new(Source::from_bytes(&module_text))
        .parse_module(&scope, &mut interner)
        .is_ok()
}

/// The conditions `require` matches.
pub(crate) fn require_resolver() -> Resolver {
    Resolver::for_require()
}

fn loader(context: &Context) -> Option<std::rc::Rc<HostLoader>> {
    context.downcast_module_loader::<HostLoader>()
}

/// `require.cache`, created on first use.
fn cache_object(context: &mut Context) -> JsObject {
    let Some(loader) = loader(context) else {
        return JsObject::with_null_proto();
    };
    if let Some(cache) = loader.cjs_cache.borrow().clone() {
        return cache;
    }
    let cache = JsObject::with_null_proto();
    *loader.cjs_cache.borrow_mut() = Some(cache.clone());
    cache
}

fn type_error(message: String) -> JsError {
    JsNativeError::typ().with_message(message).into()
}

/// The package name of the nearest `package.json` above `file`, for messages.
fn package_of(file: &Path) -> Option<String> {
    let mut dir = file.parent();
    while let Some(d) = dir {
        if let Ok(text) = std::fs::read_to_string(d.join("package.json")) {
            let json = crate::package_json::Json::parse(&text).ok()?;
            return json
                .get("name")
                .and_then(crate::package_json::Json::as_str)
                .map(str::to_owned);
        }
        dir = d.parent();
    }
    None
}

/// The words naming who asked for a module: `file` and its package.
pub(crate) fn requester(file: &Path) -> String {
    match package_of(file) {
        Some(name) => format!("{} (package \"{name}\")", display_path(file)),
        None => display_path(file),
    }
}

/// Resolve `specifier` for `require` from the file `referrer`.
pub(crate) fn resolve_for_require(specifier: &str, referrer: &Path) -> JsResult<PathBuf> {
    let path = require_resolver()
        .resolve(specifier, Some(referrer))
        .map_err(|e| {
            e.into_js_from(specifier, &format!("required from {}", requester(referrer)))
        })?;
    if format_of(&path) == Format::Addon {
        return Err(type_error(format!(
            "Cannot require \"{specifier}\" from {}: {} is a native addon (.node), which boa-streams does not support",
            requester(referrer),
            display_path(&path)
        )));
    }
    Ok(path)
}

/// `require(specifier)` from the file `referrer`.
pub(crate) fn require(
    specifier: &str,
    referrer: &Path,
    context: &mut Context,
) -> JsResult<JsValue> {
    let bare = !specifier.starts_with('.') && !Path::new(specifier).is_absolute();
    if bare && browser_replacement(referrer, specifier) == Some(None) {
        return Ok(JsObject::with_object_proto(context.intrinsics()).into());
    }
    let mut path = resolve_for_require(specifier, referrer)?;
    if let Some(root) = path.parent().and_then(package_root) {
        let relative = path
            .strip_prefix(&root)
            .map(|r| r.to_string_lossy().into_owned())
            .unwrap_or_default();
        let manifest = root.join("package.json");
        match browser_replacement(&manifest, &format!("./{relative}")) {
            Some(None) => return Ok(JsObject::with_object_proto(context.intrinsics()).into()),
            Some(Some(replacement)) => {
                let replacement = format!("./{}", replacement.trim_start_matches("./"));
                path = resolve_for_require(&replacement, &manifest)?;
            }
            None => {}
        }
    }
    // The context's capabilities: the file must be inside the readable directories (checked
    // before it is read, so a denied require reveals nothing of it), as for `import`.
    let path = boa_web::Capabilities::of(context)
        .check_read(&path)
        .map_err(|d| {
            d.to_error(&format!(
                "require(\"{specifier}\") ({}) from {}",
                display_path(&path),
                display_path(referrer)
            ))
        })?;
    load(&path, Some(referrer), context)
}

/// The directory of the nearest `package.json` at or above `dir`.
fn package_root(dir: &Path) -> Option<PathBuf> {
    let mut dir = Some(dir);
    while let Some(d) = dir {
        if d.join("package.json").is_file() {
            return Some(d.to_owned());
        }
        dir = d.parent();
    }
    None
}

/// The `browser` field's object form (bundlers' convention, honoured with the `browser`
/// condition) in the package of `file`: what `key` (a module name, or `./file` in the
/// package) maps to: `Some(None)` for `false` (an empty module), `Some(Some(path))` for a
/// replacement, `None` when it is not mapped.
fn browser_replacement(file: &Path, key: &str) -> Option<Option<String>> {
    let root = package_root(file.parent()?)?;
    let text = std::fs::read_to_string(root.join("package.json")).ok()?;
    let manifest = crate::package_json::Json::parse(&text).ok()?;
    let map = manifest.get("browser")?;
    let value = map.get(key).or_else(|| map.get(key.strip_suffix(".js")?))?;
    match value {
        crate::package_json::Json::Bool(false) => Some(None),
        crate::package_json::Json::String(s) => Some(Some(s.clone())),
        _ => None,
    }
}

/// The value `require` gives for the resolved file `path`: a cached module's exports, or the
/// file loaded now.
pub(crate) fn load(path: &Path, parent: Option<&Path>, context: &mut Context) -> JsResult<JsValue> {
    let format = format_of(path);
    if format == Format::Esm {
        return require_esm(path, parent, context);
    }
    let cache = cache_object(context);
    let key = JsString::from(display_path(path).as_str());
    let cached = cache.get(key.clone(), context)?;
    if let Some(module) = cached.as_object() {
        return module.get(js_string!("exports"), context);
    }
    let module = new_module(path, context)?;
    cache.create_data_property_or_throw(key.clone(), module.clone(), context)?;
    let result = match format {
        Format::Json => load_json(path, &module, context),
        _ => run(path, &module, context),
    };
    if let Err(e) = result {
        let _ = cache.delete_property_or_throw(key, context);
        return Err(e);
    }
    module.set(js_string!("loaded"), true, false, context)?;
    module.get(js_string!("exports"), context)
}

/// A fresh `module` object for the file `path`.
fn new_module(path: &Path, context: &mut Context) -> JsResult<JsObject> {
    let module = JsObject::with_object_proto(context.intrinsics());
    let filename = JsString::from(display_path(path).as_str());
    let dirname = JsString::from(path.parent().map(display_path).unwrap_or_default().as_str());
    let exports = JsObject::with_object_proto(context.intrinsics());
    let require = require_function(path, context)?;
    let paths = JsArray::new(context)?;
    let mut dir = path.parent();
    while let Some(d) = dir {
        if d.file_name().is_some_and(|n| n != "node_modules") {
            paths.push(
                JsString::from(display_path(&d.join("node_modules")).as_str()),
                context,
            )?;
        }
        dir = d.parent();
    }
    for (key, value) in [
        ("id", JsValue::from(filename.clone())),
        ("filename", filename.into()),
        ("path", dirname.into()),
        ("exports", exports.into()),
        ("loaded", false.into()),
        ("children", JsArray::new(context)?.into()),
        ("paths", paths.into()),
        ("require", require.into()),
    ] {
        module.create_data_property_or_throw(JsString::from(key), value, context)?;
    }
    Ok(module)
}

fn load_json(path: &Path, module: &JsObject, context: &mut Context) -> JsResult<()> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| type_error(format!("Cannot read {}: {e}", display_path(path))))?;
    let text = text.strip_prefix('\u{feff}').unwrap_or(&text);
    let value = boa_web::boa_json::parse(&JsString::from(text), context).map_err(|e| {
        let message = e
            .try_native(context)
            .map_or_else(|_| e.to_string(), |n| n.message().to_string());
        JsError::from(
            JsNativeError::syntax().with_message(format!("{}: {message}", display_path(path))),
        )
    })?;
    module.set(js_string!("exports"), value, true, context)?;
    Ok(())
}

/// Compile the wrapper of the CommonJS file at `path` and call it for `module`.
fn run(path: &Path, module: &JsObject, context: &mut Context) -> JsResult<()> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| type_error(format!("Cannot read {}: {e}", display_path(path))))?;
    run_source(&text, path, module, context)
}

fn run_source(text: &str, path: &Path, module: &JsObject, context: &mut Context) -> JsResult<()> {
    let wrapped = wrap(text);
    if context.get_data::<WrappedFiles>().is_none() {
        context.insert_data(WrappedFiles::default());
    }
    if let Some(files) = context.get_data::<WrappedFiles>() {
        files.0.borrow_mut().insert(display_path(path));
    }
    let function = context
        .eval(Source::from_bytes(&wrapped).with_path(path))
        .map_err(|e| {
            let message = e
                .try_native(context)
                .map_or_else(|_| e.to_string(), |n| n.message().to_string());
            JsError::from(JsNativeError::syntax().with_message(
                crate::loader::syntax_error_line_with(&message, path, file_position),
            ))
        })?;
    let Some(function) = function.as_callable() else {
        return Err(type_error(format!(
            "{}: the CommonJS wrapper did not compile to a function",
            display_path(path)
        )));
    };
    let exports = module.get(js_string!("exports"), context)?;
    let require = module.get(js_string!("require"), context)?;
    let filename = JsString::from(display_path(path).as_str());
    let dirname = JsString::from(path.parent().map(display_path).unwrap_or_default().as_str());
    function.call(
        &exports,
        &[
            exports.clone(),
            require,
            module.clone().into(),
            filename.into(),
            dirname.into(),
        ],
        context,
    )?;
    Ok(())
}

/// The `require` function of the module at `path`, with `resolve`, `cache` and `main`.
fn require_function(path: &Path, context: &mut Context) -> JsResult<JsFunction> {
    let filename = JsString::from(display_path(path).as_str());
    let require = NativeFunction::from_copy_closure_with_captures(
        |_, args, filename: &JsString, context| {
            let specifier = specifier_arg(args, "require")?;
            let referrer = PathBuf::from(filename.to_std_string_escaped());
            require(&specifier, &referrer, context)
        },
        filename.clone(),
    )
    .to_js_function(context.realm());
    let resolve = NativeFunction::from_copy_closure_with_captures(
        |_, args, filename: &JsString, _context| {
            let specifier = specifier_arg(args, "require.resolve")?;
            let referrer = PathBuf::from(filename.to_std_string_escaped());
            let path = resolve_for_require(&specifier, &referrer)?;
            Ok(JsString::from(display_path(&path).as_str()).into())
        },
        filename,
    )
    .to_js_function(context.realm());
    let cache = cache_object(context);
    let main = loader(context)
        .and_then(|l| l.cjs_main.borrow().clone())
        .map_or_else(JsValue::undefined, JsValue::from);
    for (key, value) in [
        ("resolve", JsValue::from(resolve)),
        ("cache", cache.into()),
        ("main", main),
    ] {
        require.create_data_property_or_throw(JsString::from(key), value, context)?;
    }
    Ok(require)
}

fn specifier_arg(args: &[JsValue], what: &str) -> JsResult<String> {
    match args.first().and_then(JsValue::as_string) {
        Some(s) if !s.is_empty() => Ok(s.to_std_string_escaped()),
        _ => Err(type_error(format!(
            "{what}: the specifier must be a non-empty string"
        ))),
    }
}

/// Run `source` as the main CommonJS module, whose file is `path` (`require.main`).
pub(crate) fn eval_main(source: &str, path: &Path, context: &mut Context) -> JsResult<()> {
    let module = new_module(path, context)?;
    module.set(js_string!("id"), js_string!("."), false, context)?;
    if let Some(loader) = loader(context) {
        *loader.cjs_main.borrow_mut() = Some(module.clone());
    }
    let require = module.get(js_string!("require"), context)?;
    if let Some(require) = require.as_object() {
        require.set(js_string!("main"), module.clone(), false, context)?;
    }
    let cache = cache_object(context);
    let key = JsString::from(display_path(path).as_str());
    cache.create_data_property_or_throw(key, module.clone(), context)?;
    run_source(source, path, &module, context)?;
    module.set(js_string!("loaded"), true, false, context)?;
    Ok(())
}

// ---------------------------------------------------------------------------------------
// Named exports (static analysis)

/// The export names an ES module importing the CommonJS file `path` sees (without
/// `default`): the lexer's names, then those of the modules it re-exports (followed up to
/// 32 deep, each file once).
pub(crate) fn detected_names(path: &Path) -> Vec<String> {
    let mut names = Vec::new();
    let mut seen = HashSet::new();
    collect_names(path, &mut names, &mut seen, 0);
    names
}

fn collect_names(path: &Path, names: &mut Vec<String>, seen: &mut HashSet<PathBuf>, depth: usize) {
    if depth > 32 || !seen.insert(path.to_owned()) {
        return;
    }
    let Ok(text) = std::fs::read_to_string(path) else {
        return;
    };
    let found = cjs_lexer::scan(&text);
    for name in found.names {
        if !names.contains(&name) {
            names.push(name);
        }
    }
    for specifier in found.reexports {
        let Ok(target) = require_resolver().resolve(&specifier, Some(path)) else {
            continue;
        };
        if format_of(&target) == Format::CommonJs {
            collect_names(&target, names, seen, depth + 1);
        }
    }
}

/// The ES module an `import` of the CommonJS file `path` gets (see the module docs).
pub(crate) fn facade(path: &Path, context: &mut Context) -> Module {
    let names = detected_names(path);
    let mut exports: Vec<JsString> = vec![js_string!("default")];
    exports.extend(names.iter().map(|n| JsString::from(n.as_str())));
    let list = JsArray::from_iter(
        names.iter().map(|n| JsString::from(n.as_str()).into()),
        context,
    );
    let filename = JsString::from(display_path(path).as_str());
    Module::synthetic(
        &exports,
        SyntheticModuleInitializer::from_copy_closure_with_captures(
            |module, (filename, names): &(JsString, JsArray), context| {
                let path = PathBuf::from(filename.to_std_string_escaped());
                let loader = loader(context);
                if let Some(l) = &loader {
                    l.evaluating.borrow_mut().push(path.clone());
                }
                let result = load(&path, None, context);
                if let Some(l) = &loader {
                    l.evaluating.borrow_mut().pop();
                }
                let value = match result {
                    Ok(value) => value,
                    Err(error) => return Err(remember_failure(error, context)),
                };
                module.set_export(&js_string!("default"), value.clone())?;
                let count = names.length(context)?;
                for i in 0..count {
                    let name = names.get(i, context)?;
                    let Some(name) = name.as_string() else {
                        continue;
                    };
                    let export = match value.as_object() {
                        Some(object) => object.get(name.clone(), context)?,
                        None => JsValue::undefined(),
                    };
                    module.set_export(&name, export)?;
                }
                Ok(())
            },
            (filename, list),
        ),
        Some(path.to_owned()),
        None,
        context,
    )
}

// ---------------------------------------------------------------------------------------
// require() of an ES module

fn require_esm(path: &Path, parent: Option<&Path>, context: &mut Context) -> JsResult<JsValue> {
    let Some(loader) = loader(context) else {
        return Err(type_error(
            "require() of an ES module needs the host's module loader".into(),
        ));
    };
    let asked_by = parent.map_or_else(String::new, |p| format!(" from {}", requester(p)));
    let before: HashSet<PathBuf> = loader.cached_paths();
    let module = loader.module_for_require(path, context)?;
    // Load the graph now: the host's loader answers at once, so the loading jobs finish
    // when run here.
    let event_loop = context.downcast_job_executor::<crate::event_loop::EventLoop>();
    let mark = event_loop.as_ref().map_or(0, |l| l.queued_async_jobs());
    let promise = module.load(context);
    if let Some(event_loop) = event_loop {
        event_loop.run_loading_jobs_since(mark, context);
    }
    match promise.state() {
        boa_engine::builtins::promise::PromiseState::Fulfilled(_) => {}
        boa_engine::builtins::promise::PromiseState::Rejected(reason) => {
            return Err(JsError::from_opaque(reason));
        }
        boa_engine::builtins::promise::PromiseState::Pending => {
            return Err(type_error(format!(
                "Cannot require() ES module {}{asked_by}: its imports did not load",
                display_path(path)
            )));
        }
    }
    let graph = loader.graph_of(path);
    // A module of the graph that is being evaluated now (an importer of the CommonJS module
    // running this `require`, or a module whose body is on the stack) cannot be evaluated
    // again: that is a cycle.
    let mut active: Vec<PathBuf> = loader.evaluating.borrow().clone();
    for frame in context.stack_trace() {
        let location = frame.position();
        if location.function_name.to_std_string_escaped() == "<main>" {
            if let boa_engine::vm::SourcePath::Path(p) = location.path {
                active.push(p.to_path_buf());
            }
        }
    }
    if let Some(busy) = graph.iter().find(|p| active.contains(p)) {
        return Err(type_error(format!(
            "Cannot require() ES module {}{asked_by}: it is in a cycle with {}, which is being evaluated",
            display_path(path),
            display_path(busy)
        )));
    }
    // Top-level await: refused before anything runs.
    if let Some(tla) = graph
        .iter()
        .filter(|p| !before.contains(*p) && format_of(p) == Format::Esm)
        .find(|p| has_top_level_await(p))
    {
        return Err(type_error(format!(
            "Cannot require() ES module {}{asked_by}: {} uses top-level await; use import() instead",
            display_path(path),
            display_path(tla)
        )));
    }
    module.link(context).map_err(|e| {
        let message = e
            .try_native(context)
            .map_or_else(|_| e.to_string(), |n| n.message().to_string());
        JsError::from(JsNativeError::syntax().with_message(format!(
            "{message} (linking {}, required{asked_by})",
            display_path(path)
        )))
    })?;
    let evaluation = module.evaluate(context)?;
    match evaluation.state() {
        boa_engine::builtins::promise::PromiseState::Fulfilled(_) => {
            Ok(module.namespace(context).into())
        }
        boa_engine::builtins::promise::PromiseState::Rejected(reason) => {
            Err(JsError::from_opaque(reason))
        }
        boa_engine::builtins::promise::PromiseState::Pending => Err(type_error(format!(
            "Cannot require() ES module {}{asked_by}: its evaluation is asynchronous (top-level await in its graph); use import() instead",
            display_path(path)
        ))),
    }
}

/// Does the module file at `path` use `await` at its top level?
fn has_top_level_await(path: &Path) -> bool {
    use boa_engine::ast::operations::{contains, ContainsSymbol};
    let Ok(text) = std::fs::read_to_string(path) else {
        return false;
    };
    let mut interner = boa_engine::interner::Interner::default();
    let scope = boa_engine::ast::scope::Scope::new_global();
    let text = format!("{text}\n;");
    let Ok(module) = boa_engine::parser::Parser::new(Source::from_bytes(&text))
        .parse_module(&scope, &mut interner)
    else {
        return false;
    };
    contains(module.items(), ContainsSymbol::AwaitExpression)
}
