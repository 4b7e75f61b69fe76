//! ES modules: the host's module loader (Boa's `ModuleLoader`), specifier resolution, and
//! `import.meta`.
//!
//! # Resolution
//!
//! A specifier imported from a module or script at `referrer` (the current directory when
//! the referrer has no file) resolves to a file:
//!
//! 1. `node:…` and URLs of schemes other than `file:` are refused (not supported).
//! 2. `file:` URLs, absolute paths (`/…`) and relative ones (`./…`, `../…`) name the file
//!    directly (no extension is added; a directory is an error).
//! 3. `#name` is looked up in the `imports` of the nearest `package.json` above `referrer`.
//! 4. Any other specifier is a package name (`pkg` or `@scope/pkg`) and an optional subpath:
//!    the package is the first `node_modules/<name>` directory found walking up from
//!    `referrer`. With an `exports` field, the subpath must match one of its keys (exactly,
//!    or a pattern with one `*`, the longest prefix winning); without one, the package root
//!    resolves through `module`, then `main` (each as given, with `.js`, or as a directory
//!    with `index.js`), then `index.js`, and a subpath names a file (or a directory with
//!    `index.js`) inside the package.
//!
//! A target object of conditions is matched in the package's key order: the first key that
//! is an active condition wins. A `null` target means "not exported". The active conditions
//! are the runtime's, `boa-streams`, `workerd`, `edge-light`, `worker` and `browser`, then
//! the loader's, `import` and `module` for an `import` (`require` for a `require()`, see the
//! `cjs` module), then `default`; `node`, `deno` and `bun` are not. Why, from the exports of
//! the packages a server program pulls in (h3 2.0, srvx 1.0, nanoid 5.1, hono 4.13,
//! @whatwg-node/fetch 0.10, standardwebhooks 1.3, urlpattern-polyfill 10, as installed
//! from npm):
//!
//! * The host has the web platform's APIs and not Node's, which is what the Workers runtimes
//!   offer: Cloudflare's bundler resolves with `workerd`, `worker`, `browser`, Vercel's edge
//!   runtime with `edge-light`, `worker`, `browser`. Packages list those keys before
//!   `browser` when their build for a server-side Workers runtime differs from the one for a
//!   page (h3 and srvx: `deno`, `bun`, `workerd`, `browser`, `node`, `default`), so they
//!   are active here too, and the package's own order decides.
//! * `browser` stays: a package's browser build is often the only one without Node's
//!   built-ins (nanoid: `browser` uses `crypto.getRandomValues`, `default` imports
//!   `node:crypto`; @whatwg-node/fetch's `browser` field, which this loader does not read,
//!   is the same idea).
//! * `worker` is active on the main thread too: a Workers runtime's program is a worker.
//!
//! Known gap: h3's and srvx's `serve(app)` pick their Cloudflare adapter here, which (as the
//! service-worker one `browser` gave) registers a `fetch` event listener and does not
//! listen on a port; serve `app.fetch` with `BoaStreams.serve` instead.
//!
//! The resolved file must be readable under the context's capabilities (fs-read; a
//! TypeError naming the capability otherwise, before the file is read).
//!
//! The resolved path is canonicalized (symlinks followed) and each file is parsed and
//! evaluated once per context (the cache key is the canonical path and whether it was
//! imported as JSON).

use std::cell::RefCell;
use std::collections::HashMap;
use std::path::{Component, Path, PathBuf};
use std::rc::Rc;

use boa_engine::module::{ModuleLoader, ModuleRequest, Referrer};
use boa_engine::object::builtins::JsPromise;
use boa_engine::object::JsObject;
use boa_engine::{
    js_string, Context, JsError, JsNativeError, JsResult, JsString, JsValue, Module,
    NativeFunction, Source,
};

use crate::json::Json;

/// What a module file is parsed as.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
enum Kind {
    JavaScript,
    Json,
    /// The ES module face of a CommonJS file.
    CommonJs,
}

/// The host's module loader: resolves specifiers (see the module docs), caches modules by
/// canonical path, and fills `import.meta`.
#[derive(Default)]
pub(crate) struct HostLoader {
    cache: RefCell<HashMap<(PathBuf, Kind), Module>>,
    /// The entry module's path and text (it need not be a file: `-e`, stdin), to explain a
    /// link error.
    entry: RefCell<Option<(PathBuf, Rc<str>)>>,
    /// The files each loaded module file imports (resolved), for `require()` of an ES module.
    edges: RefCell<HashMap<PathBuf, Vec<PathBuf>>>,
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

    fn cached(&self, path: &Path, kind: Kind) -> Option<Module> {
        self.cache.borrow().get(&(path.to_owned(), kind)).cloned()
    }

    fn insert(&self, path: PathBuf, kind: Kind, module: Module) {
        self.cache.borrow_mut().insert((path, kind), module);
    }

    /// Which import makes linking fail with "could not find export `name`" (Boa's link error
    /// names neither the importing module nor the imported one): the first loaded module
    /// with an `import { name } from "s"` or `export { name } from "s"` whose `s` resolves to a
    /// module that does not export `name`. Parses the loaded files again (error path only).
    fn explain_missing_export(&self, name: &str) -> Option<String> {
        let mut files: Vec<(PathBuf, Rc<str>)> = Vec::new();
        if let Some(entry) = self.entry.borrow().clone() {
            files.push(entry);
        }
        let mut paths: Vec<PathBuf> = self
            .cache
            .borrow()
            .keys()
            .filter(|(_, kind)| *kind == Kind::JavaScript)
            .map(|(path, _)| path.clone())
            .collect();
        paths.sort();
        for path in paths {
            if files.iter().any(|(p, _)| *p == path) {
                continue;
            }
            if let Ok(text) = std::fs::read_to_string(&path) {
                files.push((path, Rc::from(text)));
            }
        }
        let resolver = Resolver::for_import();
        for (importer, text) in &files {
            let Some(requests) = module_requests_of(text, name) else {
                continue;
            };
            for (specifier, json) in requests {
                let Ok(target) = resolver.resolve(&specifier, Some(importer)) else {
                    continue;
                };
                if !json && crate::cjs::format_of(&target) == crate::cjs::Format::CommonJs {
                    let names = crate::cjs::detected_names(&target);
                    if name == "default" || names.iter().any(|n| n == name) {
                        continue;
                    }
                    let found = if names.is_empty() {
                        "none".to_owned()
                    } else {
                        names.join(", ")
                    };
                    return Some(format!(
                        "\"{specifier}\" ({}) is a CommonJS module, which does not provide an export named \"{name}\", imported by {}: the names found in its source are: {found}; its module.exports is the default export (import m from \"{specifier}\"; then m.{name})",
                        display_path(&target),
                        display_path(importer)
                    ));
                }
                let exported = json && name == "default"
                    || !json && exports_name(&resolver, &target, name, &mut Vec::new());
                if !exported {
                    return Some(format!(
                        "\"{specifier}\" ({}) does not provide an export named \"{name}\", imported by {}",
                        display_path(&target),
                        display_path(importer)
                    ));
                }
            }
        }
        None
    }

    /// Resolve, read, parse (or take from the cache) the module `request` names.
    fn load(
        &self,
        referrer: Option<&Path>,
        request: &ModuleRequest,
        context: &mut Context,
    ) -> JsResult<Module> {
        let specifier = request.specifier().to_std_string_escaped();
        let from = referrer.map_or_else(|| "the current directory".to_owned(), display_path);
        let kind = match request.get_attribute("type") {
            None => Kind::JavaScript,
            Some(t) if *t == js_string!("json") => Kind::Json,
            Some(t) => {
                return Err(JsNativeError::typ()
                    .with_message(format!(
                        "Unsupported import type \"{}\" for \"{specifier}\" imported from {from} (only \"json\" is supported)",
                        t.to_std_string_escaped()
                    ))
                    .into())
            }
        };
        let resolver = Resolver::for_import();
        let path = resolver
            .resolve(&specifier, referrer)
            .map_err(|e| e.into_js(&specifier, &from))?;
        // The context's capabilities: the file must be inside the readable directories
        // (checked before it is read, so a denied import reveals nothing of it).
        let path = boa_web::Capabilities::of(context)
            .check_read(&path)
            .map_err(|d| {
                d.to_error(&format!(
                    "import of \"{specifier}\" ({}) from {from}",
                    display_path(&path)
                ))
            })?;
        let is_json_file = path.extension().is_some_and(|e| e == "json");
        if is_json_file && kind != Kind::Json {
            return Err(JsNativeError::typ()
                .with_message(format!(
                    "\"{specifier}\" imported from {from} is a JSON module: import it with {{ type: \"json\" }}"
                ))
                .into());
        }
        if let Some(referrer) = referrer {
            let mut edges = self.edges.borrow_mut();
            let list = edges.entry(referrer.to_owned()).or_default();
            if !list.contains(&path) {
                list.push(path.clone());
            }
        }
        let format = if kind == Kind::Json {
            crate::cjs::Format::Json
        } else {
            crate::cjs::format_of(&path)
        };
        if format == crate::cjs::Format::Addon {
            return Err(JsNativeError::typ()
                .with_message(format!(
                    "\"{specifier}\" imported from {from} resolves to {}: native addons (.node) are not supported",
                    display_path(&path)
                ))
                .into());
        }
        if format == crate::cjs::Format::CommonJs {
            if let Some(module) = self.cached(&path, Kind::CommonJs) {
                return Ok(module);
            }
            let module = crate::cjs::facade(&path, context);
            self.insert(path, Kind::CommonJs, module.clone());
            return Ok(module);
        }
        if let Some(module) = self.cached(&path, kind) {
            return Ok(module);
        }
        let text = std::fs::read_to_string(&path).map_err(|e| {
            JsNativeError::typ().with_message(format!(
                "Cannot read module {} (\"{specifier}\" imported from {from}): {e}",
                display_path(&path)
            ))
        })?;
        let module = match kind {
            Kind::Json => crate::json::json_module(&text, &path, context).map_err(|e| {
                JsError::from(JsNativeError::syntax().with_message(format!(
                    "Invalid JSON in {} (\"{specifier}\" imported from {from}): {}",
                    display_path(&path),
                    error_text(&e, context)
                )))
            })?,
            Kind::JavaScript | Kind::CommonJs => {
                parse_module(&text, &path, context).map_err(|e| {
                    JsError::from(
                        JsNativeError::syntax()
                            .with_message(format!("{e} (\"{specifier}\" imported from {from})")),
                    )
                })?
            }
        };
        self.insert(path, kind, module.clone());
        Ok(module)
    }
}

impl ModuleLoader for HostLoader {
    fn load_imported_module(
        self: Rc<Self>,
        referrer: Referrer,
        request: ModuleRequest,
        context: &RefCell<&mut Context>,
    ) -> impl std::future::Future<Output = JsResult<Module>> {
        let result = self.load(referrer.path(), &request, &mut context.borrow_mut());
        std::future::ready(result)
    }

    fn init_import_meta(
        self: Rc<Self>,
        import_meta: &JsObject,
        module: &Module,
        context: &mut Context,
    ) {
        let Some(path) = module.path() else {
            return;
        };
        let path = path.to_owned();
        let url = file_url(&path);
        let filename = display_path(&path);
        let dirname = path.parent().map(display_path).unwrap_or_default();
        let resolve = NativeFunction::from_copy_closure_with_captures(
            meta_resolve,
            JsString::from(filename.as_str()),
        )
        .to_js_function(context.realm());
        for (key, value) in [
            (
                js_string!("url"),
                JsValue::from(JsString::from(url.as_str())),
            ),
            (
                js_string!("filename"),
                JsString::from(filename.as_str()).into(),
            ),
            (
                js_string!("dirname"),
                JsString::from(dirname.as_str()).into(),
            ),
            (js_string!("resolve"), resolve.into()),
        ] {
            // A fresh ordinary object: defining a property cannot fail.
            let _ = import_meta.define_property_or_throw(
                key,
                boa_engine::property::PropertyDescriptor::builder()
                    .value(value)
                    .writable(true)
                    .enumerable(true)
                    .configurable(true),
                context,
            );
        }
    }
}

/// `import.meta.resolve(specifier)`: the `file:` URL `specifier` resolves to from the module.
fn meta_resolve(
    _: &JsValue,
    args: &[JsValue],
    module_path: &JsString,
    context: &mut Context,
) -> JsResult<JsValue> {
    let specifier = args
        .first()
        .cloned()
        .unwrap_or_default()
        .to_string(context)?
        .to_std_string_escaped();
    let referrer = PathBuf::from(module_path.to_std_string_escaped());
    let path = Resolver::for_import()
        .resolve(&specifier, Some(&referrer))
        .map_err(|e| e.into_js(&specifier, &display_path(&referrer)))?;
    Ok(JsString::from(file_url(&path).as_str()).into())
}

/// Parse `text` as a module whose file is `path`; the error is one line naming
/// `file:line:col`.
fn parse_module(text: &str, path: &Path, context: &mut Context) -> Result<Module, String> {
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
fn error_text(error: &JsError, context: &mut Context) -> String {
    match error.try_native(context) {
        Ok(native) => native.message().to_string(),
        Err(_) => error.to_string(),
    }
}

pub(crate) fn display_path(path: &Path) -> String {
    path.to_string_lossy().into_owned()
}

/// The `file:` URL of an absolute path (the path itself if it has no URL form).
pub(crate) fn file_url(path: &Path) -> String {
    url::Url::from_file_path(path).map_or_else(|()| display_path(path), String::from)
}

/// Why a specifier did not resolve.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum ResolveError {
    /// No such file or package.
    NotFound(String),
    /// The specifier form is not supported (`node:`, `http:`, ...).
    Unsupported(String),
    /// A package's `exports`/`imports` target is invalid.
    BadTarget(String),
    /// The package does not export that subpath (no key matched, or a `null` target).
    NotExported(String),
    /// A `package.json` that cannot be parsed, or a malformed specifier.
    Invalid(String),
}

impl ResolveError {
    fn into_js(self, specifier: &str, from: &str) -> JsError {
        self.into_js_from(specifier, &format!("imported from {from}"))
    }

    /// The error for `specifier`, `from` saying who asked (`"required from file"`).
    pub(crate) fn into_js_from(self, specifier: &str, from: &str) -> JsError {
        let (prefix, detail) = match self {
            ResolveError::NotFound(d) => ("Cannot find module", d),
            ResolveError::Unsupported(d) => ("Unsupported module specifier", d),
            ResolveError::BadTarget(d) => ("Invalid package target for", d),
            ResolveError::NotExported(d) => ("Package subpath not exported for", d),
            ResolveError::Invalid(d) => ("Invalid module specifier", d),
        };
        JsNativeError::typ()
            .with_message(format!("{prefix} \"{specifier}\" {from}: {detail}"))
            .into()
    }
}

/// A target of `exports`/`imports`: a file, or (in `imports` only) a package specifier.
enum Target {
    Path(PathBuf),
    Bare(String),
}

/// The conditions matched in a package's `exports`/`imports`, before the loader's own
/// (`import` and `module` for an `import`, `require` for a `require`), and `default` after
/// them. See the module docs for why these.
pub(crate) const RUNTIME_CONDITIONS: [&str; 5] =
    ["boa-streams", "workerd", "edge-light", "worker", "browser"];

/// Node's built-in modules (without the `node:` prefix): a bare specifier naming one that no
/// installed package provides gets an error saying it is a built-in.
const NODE_BUILTINS: [&str; 40] = [
    "assert",
    "async_hooks",
    "buffer",
    "child_process",
    "cluster",
    "console",
    "constants",
    "crypto",
    "dgram",
    "diagnostics_channel",
    "dns",
    "domain",
    "events",
    "fs",
    "http",
    "http2",
    "https",
    "inspector",
    "module",
    "net",
    "os",
    "path",
    "perf_hooks",
    "process",
    "punycode",
    "querystring",
    "readline",
    "repl",
    "stream",
    "string_decoder",
    "sys",
    "timers",
    "tls",
    "trace_events",
    "tty",
    "url",
    "util",
    "v8",
    "vm",
    "zlib",
];

/// Specifier resolution with a set of active conditions.
pub(crate) struct Resolver {
    pub(crate) conditions: Vec<&'static str>,
    /// `require` resolution: Node's CommonJS probing (`.js`, `.json`, directories) and the
    /// `main` field only.
    pub(crate) require: bool,
}

impl Resolver {
    /// The resolver of `import` (and `import()`, `import.meta.resolve`).
    pub(crate) fn for_import() -> Self {
        let mut conditions = RUNTIME_CONDITIONS.to_vec();
        conditions.extend(["import", "module", "default"]);
        Self {
            conditions,
            require: false,
        }
    }

    /// The resolver of `require`.
    pub(crate) fn for_require() -> Self {
        let mut conditions = RUNTIME_CONDITIONS.to_vec();
        conditions.extend(["require", "default"]);
        Self {
            conditions,
            require: true,
        }
    }

    /// The canonical path `specifier` names, imported from the file `referrer`.
    pub(crate) fn resolve(
        &self,
        specifier: &str,
        referrer: Option<&Path>,
    ) -> Result<PathBuf, ResolveError> {
        let base = referrer
            .and_then(Path::parent)
            .map(Path::to_owned)
            .filter(|p| !p.as_os_str().is_empty())
            .or_else(|| std::env::current_dir().ok())
            .unwrap_or_default();
        if let Some(name) = specifier.strip_prefix("node:") {
            return Err(ResolveError::Unsupported(format!(
                "\"{name}\" is a Node.js built-in module: not supported by boa-streams (it provides web-platform APIs, not Node's built-ins)"
            )));
        }
        if let Some(path) = self.path_specifier(specifier, &base)? {
            return if self.require {
                probe(&path)
            } else {
                existing_file(&path)
            };
        }
        if specifier.starts_with('#') {
            return self.resolve_import(specifier, &base);
        }
        match self.resolve_package(specifier, &base) {
            Err(ResolveError::NotFound(_))
                if NODE_BUILTINS.contains(&specifier.split('/').next().unwrap_or_default()) =>
            {
                Err(ResolveError::Unsupported(format!(
                    "\"{specifier}\" is a Node.js built-in module (and no package of that name is installed): not supported by boa-streams (it provides web-platform APIs, not Node's built-ins)"
                )))
            }
            other => other,
        }
    }

    /// A URL, absolute or relative specifier: its path (`None` for a bare or `#` one).
    fn path_specifier(
        &self,
        specifier: &str,
        base: &Path,
    ) -> Result<Option<PathBuf>, ResolveError> {
        if specifier.starts_with("file:") {
            let url = url::Url::parse(specifier)
                .map_err(|e| ResolveError::Invalid(format!("bad file: URL ({e})")))?;
            return url
                .to_file_path()
                .map(Some)
                .map_err(|()| ResolveError::Invalid("the file: URL names no local file".into()));
        }
        if let Some((scheme, _)) = specifier.split_once(':') {
            let is_scheme = scheme.len() > 1
                && scheme
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || "+-.".contains(c));
            if is_scheme {
                return Err(ResolveError::Unsupported(format!(
                    "{scheme}: URLs are not supported (only file: URLs, paths and packages)"
                )));
            }
        }
        let relative = specifier == "."
            || specifier == ".."
            || specifier.starts_with("./")
            || specifier.starts_with("../");
        if relative {
            return Ok(Some(base.join(specifier)));
        }
        if Path::new(specifier).is_absolute() {
            return Ok(Some(PathBuf::from(specifier)));
        }
        Ok(None)
    }

    /// `#name`: the nearest package.json's `imports`.
    fn resolve_import(&self, specifier: &str, base: &Path) -> Result<PathBuf, ResolveError> {
        if specifier == "#" || specifier.starts_with("#/") {
            return Err(ResolveError::Invalid(
                "\"#\" must be followed by a name".into(),
            ));
        }
        let Some((dir, manifest)) = nearest_package_json(base)? else {
            return Err(ResolveError::NotFound(
                "no package.json with \"imports\" above the importing file".into(),
            ));
        };
        let file = dir.join("package.json");
        let imports = manifest.get("imports").ok_or_else(|| {
            ResolveError::NotFound(format!("{} has no \"imports\"", display_path(&file)))
        })?;
        let not_defined = || {
            ResolveError::NotFound(format!(
                "not defined in the \"imports\" of {}",
                display_path(&file)
            ))
        };
        let Json::Object(_) = imports else {
            return Err(not_defined());
        };
        match self.match_map(imports, specifier, &dir, &file, true)? {
            Some(Target::Path(path)) => existing_file(&path),
            Some(Target::Bare(bare)) => self.resolve_package(&bare, &dir),
            None => Err(not_defined()),
        }
    }

    /// `name[/subpath]` from `node_modules` directories walking up from `base`.
    fn resolve_package(&self, specifier: &str, base: &Path) -> Result<PathBuf, ResolveError> {
        let (name, subpath) = split_package(specifier)?;
        let mut dir = Some(base);
        while let Some(d) = dir {
            let package = d.join("node_modules").join(name);
            if package.is_dir() {
                return self.resolve_in_package(&package, &subpath);
            }
            dir = d.parent();
        }
        Err(ResolveError::NotFound(format!(
            "package \"{name}\" not found in any node_modules above {}",
            display_path(base)
        )))
    }

    /// `subpath` (`"."` or `"./…"`) of the package at `package`.
    fn resolve_in_package(&self, package: &Path, subpath: &str) -> Result<PathBuf, ResolveError> {
        let file = package.join("package.json");
        let manifest = read_package_json(&file)?;
        if let Some(exports) = manifest.as_ref().and_then(|m| m.get("exports")) {
            let has_subpaths =
                matches!(exports, Json::Object(m) if m.iter().any(|(k, _)| k.starts_with('.')));
            let target = if has_subpaths {
                self.match_map(exports, subpath, package, &file, false)?
            } else if subpath == "." {
                self.target(exports, None, package, &file, false)?
            } else {
                None
            };
            return match target {
                Some(Target::Path(path)) => existing_file(&path),
                Some(Target::Bare(_)) | None => Err(ResolveError::NotExported(format!(
                    "\"{subpath}\" is not exported by {}",
                    display_path(&file)
                ))),
            };
        }
        if subpath == "." && self.require {
            for field in ["browser", "main"] {
                let entry = manifest.as_ref().and_then(|m| entry_field(m, field));
                if let Some(found) = entry.and_then(|m| probe(&package.join(m)).ok()) {
                    return Ok(found);
                }
            }
            return probe_index(package).ok_or_else(|| {
                ResolveError::NotFound(format!(
                    "{} has no \"exports\", no usable \"main\" and no index.js",
                    display_path(package)
                ))
            });
        }
        if subpath == "." {
            for field in ["browser", "module", "main"] {
                let Some(entry) = manifest.as_ref().and_then(|m| entry_field(m, field)) else {
                    continue;
                };
                let entry = package.join(entry);
                let candidates = [
                    entry.clone(),
                    with_suffix(&entry, ".js"),
                    entry.join("index.js"),
                ];
                if let Some(found) = candidates.iter().find(|c| c.is_file()) {
                    return existing_file(found);
                }
            }
            let index = package.join("index.js");
            if index.is_file() {
                return existing_file(&index);
            }
            return Err(ResolveError::NotFound(format!(
                "{} has no \"exports\", no usable \"module\"/\"main\" and no index.js",
                display_path(package)
            )));
        }
        let path = package.join(subpath.trim_start_matches("./"));
        if self.require {
            return probe(&path);
        }
        if path.is_dir() && path.join("index.js").is_file() {
            return existing_file(&path.join("index.js"));
        }
        existing_file(&path)
    }

    /// Match `key` against the keys of an `exports`/`imports` map: exactly, else the pattern
    /// (one `*`) with the longest prefix.
    fn match_map(
        &self,
        map: &Json,
        key: &str,
        package: &Path,
        file: &Path,
        imports: bool,
    ) -> Result<Option<Target>, ResolveError> {
        let Json::Object(members) = map else {
            return Ok(None);
        };
        if let Some((_, target)) = members
            .iter()
            .rev()
            .find(|(k, _)| k == key && !k.contains('*'))
        {
            return self.target(target, None, package, file, imports);
        }
        let mut best: Option<(&str, &Json, &str)> = None;
        for (pattern, target) in members {
            let Some((prefix, suffix)) = pattern.split_once('*') else {
                continue;
            };
            if suffix.contains('*') {
                continue;
            }
            if key.len() >= prefix.len() + suffix.len()
                && key.starts_with(prefix)
                && key.ends_with(suffix)
                && key != prefix
            {
                let better = best.is_none_or(|(p, _, _)| {
                    let best_prefix = p.split_once('*').map_or(p, |s| s.0);
                    prefix.len() > best_prefix.len()
                        || (prefix.len() == best_prefix.len() && pattern.len() > p.len())
                });
                if better {
                    let capture = key
                        .get(prefix.len()..key.len() - suffix.len())
                        .unwrap_or_default();
                    best = Some((pattern, target, capture));
                }
            }
        }
        match best {
            Some((_, target, capture)) => {
                self.target(target, Some(capture), package, file, imports)
            }
            None => Ok(None),
        }
    }

    /// Resolve one target value (string, array of fallbacks, conditions object, or null).
    fn target(
        &self,
        target: &Json,
        capture: Option<&str>,
        package: &Path,
        file: &Path,
        imports: bool,
    ) -> Result<Option<Target>, ResolveError> {
        match target {
            Json::Null => Ok(None),
            Json::String(s) => {
                let bad = || {
                    ResolveError::BadTarget(format!(
                        "target \"{s}\" in {} must start with \"./\" and stay inside the package",
                        display_path(file)
                    ))
                };
                if let Some(capture) = capture {
                    if has_bad_segment(capture, false) {
                        return Err(ResolveError::BadTarget(format!(
                            "the pattern match \"{capture}\" leaves the package ({})",
                            display_path(file)
                        )));
                    }
                }
                let substituted = match capture {
                    Some(c) => s.replace('*', c),
                    None => s.clone(),
                };
                let Some(rest) = s.strip_prefix("./") else {
                    let is_bare =
                        imports && !s.starts_with("../") && !s.starts_with('/') && !s.contains(':');
                    return if is_bare {
                        Ok(Some(Target::Bare(substituted)))
                    } else {
                        Err(bad())
                    };
                };
                if has_bad_segment(rest, true) {
                    return Err(bad());
                }
                let rest = substituted.trim_start_matches("./");
                Ok(Some(Target::Path(package.join(rest))))
            }
            Json::Array(items) => {
                let mut last = None;
                for item in items {
                    match self.target(item, capture, package, file, imports) {
                        Ok(Some(t)) => return Ok(Some(t)),
                        Ok(None) => last = None,
                        Err(e @ ResolveError::BadTarget(_)) => last = Some(e),
                        Err(e) => return Err(e),
                    }
                }
                last.map_or(Ok(None), Err)
            }
            Json::Object(members) => {
                for (condition, value) in members {
                    if condition.starts_with('.') {
                        return Err(ResolveError::BadTarget(format!(
                            "{} mixes subpath keys (\"{condition}\") with conditions",
                            display_path(file)
                        )));
                    }
                    if self.conditions.contains(&condition.as_str()) {
                        if let Some(t) = self.target(value, capture, package, file, imports)? {
                            return Ok(Some(t));
                        }
                    }
                }
                Ok(None)
            }
            Json::Bool(_) | Json::Number(_) => Err(ResolveError::BadTarget(format!(
                "a target in {} is neither a string, an array, an object nor null",
                display_path(file)
            ))),
        }
    }
}

/// Does a `/`-separated path contain `.`, `..` or `node_modules` segments (or, for a
/// target, an empty one)?
fn has_bad_segment(path: &str, target: bool) -> bool {
    path.split(['/', '\\'])
        .any(|seg| seg == ".." || (target && (seg == "." || seg == "node_modules")))
}

/// `name` and `./subpath` (or `"."`) of a bare specifier.
fn split_package(specifier: &str) -> Result<(&str, String), ResolveError> {
    let name_end = if specifier.starts_with('@') {
        let Some(slash) = specifier.find('/') else {
            return Err(ResolveError::Invalid(
                "a scoped package name needs a \"/\"".into(),
            ));
        };
        specifier
            .get(slash + 1..)
            .and_then(|rest| rest.find('/'))
            .map_or(specifier.len(), |i| slash + 1 + i)
    } else {
        specifier.find('/').unwrap_or(specifier.len())
    };
    let name = specifier.get(..name_end).unwrap_or(specifier);
    let rest = specifier.get(name_end..).unwrap_or_default();
    if name.is_empty()
        || name.starts_with('.')
        || name.contains('\\')
        || name.contains('%')
        || name.ends_with('/')
    {
        return Err(ResolveError::Invalid(format!(
            "\"{name}\" is not a valid package name"
        )));
    }
    Ok((name, format!(".{rest}")))
}

fn with_suffix(path: &Path, suffix: &str) -> PathBuf {
    let mut s = path.as_os_str().to_owned();
    s.push(suffix);
    PathBuf::from(s)
}

/// The canonical path of an existing file.
fn existing_file(path: &Path) -> Result<PathBuf, ResolveError> {
    if path.is_dir() {
        return Err(ResolveError::NotFound(format!(
            "{} is a directory (import a file in it, e.g. {})",
            display_path(path),
            display_path(&normalize(&path.join("index.js")))
        )));
    }
    std::fs::canonicalize(path)
        .map_err(|_| ResolveError::NotFound(format!("no file {}", display_path(&normalize(path)))))
}

/// A package's entry from the field `field` of its `package.json` (without `exports`). The
/// `browser` field (bundlers' convention, as the `browser` condition) is a path, or an object
/// mapping files to replacements, of which the entry of `main` (or `./index.js`) counts.
fn entry_field<'a>(manifest: &'a Json, field: &str) -> Option<&'a str> {
    let value = manifest.get(field)?;
    if field != "browser" {
        return value.as_str();
    }
    match value {
        Json::String(s) => Some(s),
        Json::Object(_) => {
            let main = manifest
                .get("main")
                .and_then(Json::as_str)
                .unwrap_or("./index.js");
            let bare = main.trim_start_matches("./");
            [main.to_owned(), format!("./{bare}"), bare.to_owned()]
                .iter()
                .find_map(|k| value.get(k).and_then(Json::as_str))
        }
        _ => None,
    }
}

/// Node's `require` probing of a path: the file, then with `.js`, `.json`, `.node`, then
/// as a directory (its `package.json` `main`, probed the same way, then `index.*`).
fn probe(path: &Path) -> Result<PathBuf, ResolveError> {
    if let Some(found) = probe_file(path) {
        return Ok(found);
    }
    if path.is_dir() {
        let main = read_package_json(&path.join("package.json"))
            .ok()
            .flatten()
            .and_then(|m| m.get("main").and_then(Json::as_str).map(str::to_owned));
        if let Some(main) = main {
            let main = path.join(main);
            if let Some(found) = probe_file(&main).or_else(|| probe_index(&main)) {
                return Ok(found);
            }
        }
        if let Some(found) = probe_index(path) {
            return Ok(found);
        }
    }
    Err(ResolveError::NotFound(format!(
        "no file {} (nor with .js, .json or .node, nor a directory with index.js)",
        display_path(&normalize(path))
    )))
}

fn probe_file(path: &Path) -> Option<PathBuf> {
    [
        path.to_owned(),
        with_suffix(path, ".js"),
        with_suffix(path, ".json"),
        with_suffix(path, ".node"),
    ]
    .into_iter()
    .find(|c| c.is_file())
    .and_then(|c| std::fs::canonicalize(c).ok())
}

fn probe_index(dir: &Path) -> Option<PathBuf> {
    ["index.js", "index.json", "index.node"]
        .into_iter()
        .map(|i| dir.join(i))
        .find(|c| c.is_file())
        .and_then(|c| std::fs::canonicalize(c).ok())
}

/// `.` and `..` removed lexically (for messages).
fn normalize(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for component in path.components() {
        match component {
            Component::CurDir => {}
            Component::ParentDir => {
                out.pop();
            }
            other => out.push(other),
        }
    }
    out
}

fn read_package_json(file: &Path) -> Result<Option<Json>, ResolveError> {
    let Ok(text) = std::fs::read_to_string(file) else {
        return Ok(None);
    };
    Json::parse(&text).map(Some).map_err(|e| {
        ResolveError::Invalid(format!("{} is not valid JSON: {e}", display_path(file)))
    })
}

/// The nearest directory at or above `dir` with a `package.json`, and its contents.
fn nearest_package_json(dir: &Path) -> Result<Option<(PathBuf, Json)>, ResolveError> {
    let mut dir = Some(dir);
    while let Some(d) = dir {
        if let Some(json) = read_package_json(&d.join("package.json"))? {
            return Ok(Some((d.to_owned(), json)));
        }
        dir = d.parent();
    }
    Ok(None)
}

/// The nearest `package.json`'s `"type"` above `file` (`None` if there is none or no type).
pub(crate) fn package_type(file: &Path) -> Option<String> {
    let dir = std::fs::canonicalize(file).ok()?.parent()?.to_owned();
    let (_, json) = nearest_package_json(&dir).ok()??;
    json.get("type").and_then(Json::as_str).map(str::to_owned)
}

/// Does `source` fail to parse as a script but parse as a module (Node's detection)?
///
/// The trial parses use a context of their own: Boa's `Script::parse` declares the
/// script's top-level lexical names in the realm's global scope, so parsing the program
/// once more in the host's context would make it a "duplicate lexical declaration".
pub(crate) fn has_module_syntax(source: &str) -> bool {
    let Ok(mut scratch) = Context::builder().build() else {
        return false;
    };
    let script = boa_engine::Script::parse(Source::from_bytes(source), None, &mut scratch);
    script.is_err()
        && Module::parse(
            Source::from_bytes(&with_final_semicolon(source)),
            None,
            &mut scratch,
        )
        .is_ok()
}

/// Parse `text` as a module for its static structure only (no context).
fn parse_module_items(
    text: &str,
) -> Option<(boa_engine::ast::Module, boa_engine::interner::Interner)> {
    let mut interner = boa_engine::interner::Interner::default();
    let text = with_final_semicolon(text);
    let scope = boa_engine::ast::scope::Scope::new_global();
    let module = boa_engine::parser::Parser::new(Source::from_bytes(&text))
        .parse_module(&scope, &mut interner)
        .ok()?;
    Some((module, interner))
}

/// The specifiers (and whether each is a JSON import) from which module `text` imports or
/// re-exports the binding `name`.
fn module_requests_of(text: &str, name: &str) -> Option<Vec<(String, bool)>> {
    use boa_engine::ast::declaration::{ExportEntry, ImportName, ReExportImportName};
    let (module, interner) = parse_module_items(text)?;
    let sym_text = |sym| interner.resolve(sym).map(|s| s.to_string());
    let is_json = |attributes: &[boa_engine::ast::declaration::ImportAttribute]| {
        attributes.iter().any(|a| {
            sym_text(a.key()).as_deref() == Some("type")
                && sym_text(a.value()).as_deref() == Some("json")
        })
    };
    let mut out = Vec::new();
    for entry in module.items().import_entries() {
        if let ImportName::Name(sym) = entry.import_name() {
            if sym_text(sym).as_deref() == Some(name) {
                if let Some(specifier) = sym_text(entry.module_request()) {
                    out.push((specifier, is_json(entry.attributes())));
                }
            }
        }
    }
    for entry in module.items().export_entries() {
        if let ExportEntry::ReExport(entry) = entry {
            if let ReExportImportName::Name(sym) = entry.import_name() {
                if sym_text(sym).as_deref() == Some(name) {
                    if let Some(specifier) = sym_text(entry.module_request()) {
                        out.push((specifier, is_json(entry.attributes())));
                    }
                }
            }
        }
    }
    Some(out)
}

/// Whether the module file at `path` exports `name`, following `export * from` (a file that
/// cannot be read or parsed counts as exporting it: the explanation is then not this one).
fn exports_name(resolver: &Resolver, path: &Path, name: &str, seen: &mut Vec<PathBuf>) -> bool {
    use boa_engine::ast::declaration::ExportEntry;
    if seen.iter().any(|p| p == path) || seen.len() > 64 {
        return false;
    }
    seen.push(path.to_owned());
    let Some((module, interner)) = std::fs::read_to_string(path)
        .ok()
        .and_then(|text| parse_module_items(&text))
    else {
        return true;
    };
    let text_of = |sym| interner.resolve(sym).map(|s| s.to_string());
    let mut stars = Vec::new();
    for entry in module.items().export_entries() {
        let sym = match entry {
            ExportEntry::Ordinary(e) => e.export_name(),
            ExportEntry::ReExport(e) => e.export_name(),
            ExportEntry::StarReExport { module_request, .. } => {
                stars.extend(text_of(module_request));
                continue;
            }
        };
        if text_of(sym).as_deref() == Some(name) {
            return true;
        }
    }
    // `export * from` never re-exports `default`.
    name != "default"
        && stars.iter().any(|specifier| {
            resolver
                .resolve(specifier, Some(path))
                .is_ok_and(|target| exports_name(resolver, &target, name, seen))
        })
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
fn with_final_semicolon(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 2);
    out.push_str(text);
    out.push_str("\n;");
    out
}

/// The names CommonJS modules use that the host does not define, as the message of the
/// `ReferenceError` a CommonJS file throws when run here.
const COMMONJS_NAMES: [&str; 5] = ["require", "module", "exports", "__dirname", "__filename"];

/// A hint to add to an uncaught `ReferenceError: require is not defined` (or `module`,
/// `exports`, `__dirname`, `__filename`): CommonJS is not supported. When the innermost frame
/// of `stack` names a file whose text calls `require("…")`, the hint names that specifier.
pub(crate) fn commonjs_hint(message: &str, stack: Option<&str>) -> Option<String> {
    let name = message
        .strip_prefix("ReferenceError: ")?
        .strip_suffix(" is not defined")?;
    if !COMMONJS_NAMES.contains(&name) {
        return None;
    }
    let file = stack.and_then(|stack| {
        stack
            .lines()
            .map(str::trim)
            .filter_map(|l| l.strip_prefix("at "))
            .find_map(|l| {
                let place = l.rsplit_once(" (").map_or(l, |(_, p)| p);
                let place = place.strip_suffix(')').unwrap_or(place);
                let file = place.split(':').next()?;
                (!file.is_empty() && file != "native").then(|| file.to_owned())
            })
    });
    let specifier = file
        .as_deref()
        .and_then(|f| std::fs::read_to_string(f).ok())
        .and_then(|text| first_require_specifier(&text));
    let what = match specifier {
        Some(s) => format!("require(\"{s}\")"),
        None => format!("`{name}`"),
    };
    let place = file.map_or_else(String::new, |f| format!(" in {f}"));
    Some(format!(
        "\n  {what}{place}: CommonJS names (require, module, exports) exist only in CommonJS \
         modules: a .cjs file, or a .js file under a package.json with \"type\": \"commonjs\" \
         (or imported or required from one); here, use `import`"
    ))
}

/// The string literal of the first `require('…')` / `require("…")` call in `text`.
fn first_require_specifier(text: &str) -> Option<String> {
    let mut rest = text;
    while let Some((head, tail)) = rest.split_once("require(") {
        let before = head.chars().next_back();
        let after = tail.trim_start();
        rest = tail;
        if before.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == '$' || c == '.') {
            continue;
        }
        let mut chars = after.chars();
        let quote = chars.next().filter(|q| *q == '"' || *q == '\'')?;
        let body: String = chars.take_while(|c| *c != quote && *c != '\n').collect();
        if !body.is_empty() && body.len() < 256 {
            return Some(body);
        }
    }
    None
}

/// Parse `source` as the module at `path` (which need not exist), cache it under that path,
/// load its imports, link and evaluate it. A failure after parsing (an import that does not
/// resolve, a link error, an exception, a rejected top-level await) is reported as an
/// uncaught exception when it happens; the returned promise is the evaluation's.
pub(crate) fn eval_entry(source: &str, path: &Path, context: &mut Context) -> JsResult<JsPromise> {
    let module = parse_module(source, path, context)
        .map_err(|e| JsError::from(JsNativeError::syntax().with_message(e)))?;
    if let Some(loader) = context.downcast_module_loader::<HostLoader>() {
        loader.insert(path.to_owned(), Kind::JavaScript, module.clone());
        *loader.entry.borrow_mut() = Some((path.to_owned(), Rc::from(source)));
    }
    // Load, link and evaluate (as `Module::load_link_evaluate`, with the entry's path added
    // to a link error, which Boa words without one: "could not find export `x`").
    let link = NativeFunction::from_copy_closure_with_captures(
        |_, _, (module, path): &(Module, JsString), context| {
            module.link(context).map_err(|e| {
                let message = error_text(&e, context);
                let explained = message
                    .strip_prefix("could not find export `")
                    .and_then(|rest| rest.strip_suffix('`'))
                    .and_then(|name| {
                        let loader = context.downcast_module_loader::<HostLoader>()?;
                        loader.explain_missing_export(name)
                    });
                JsError::from(
                    JsNativeError::syntax().with_message(explained.unwrap_or_else(|| {
                        format!(
                            "{message} (linking the imports of {})",
                            path.to_std_string_escaped()
                        )
                    })),
                )
            })?;
            Ok(module.evaluate(context)?.into())
        },
        (module.clone(), JsString::from(display_path(path).as_str())),
    )
    .to_js_function(context.realm());
    let promise = module.load(context).then(Some(link), None, context)?;
    let report = NativeFunction::from_fn_ptr(|_, args, context| {
        let error = args.first().cloned().unwrap_or_default();
        crate::report_listener_exception(error, context);
        Ok(JsValue::undefined())
    })
    .to_js_function(context.realm());
    promise.then(None, Some(report), context)?;
    Ok(promise)
}

/// `Host::import_module`: load the module `specifier` names (resolved as an `import` in a
/// module of the current directory would be; a `.json` specifier is imported as JSON) and
/// its graph, link and evaluate it. The promise fulfills with its namespace once it has
/// evaluated (top-level `await` included) and rejects with the first error (a resolution or
/// read error, a SyntaxError, a missing export naming the importing file, the module's own
/// exception). A module already imported (by this call or by `import`) is not evaluated
/// again.
pub(crate) fn import_namespace(specifier: &str, context: &mut Context) -> JsResult<JsPromise> {
    let loader = context
        .downcast_module_loader::<HostLoader>()
        .ok_or_else(|| {
            JsNativeError::typ().with_message("the host's module loader is not installed")
        })?;
    let attributes: Box<[boa_engine::module::ImportAttribute]> = if specifier.ends_with(".json") {
        Box::new([boa_engine::module::ImportAttribute::new(
            js_string!("type"),
            js_string!("json"),
        )])
    } else {
        Box::default()
    };
    let request = ModuleRequest::new(JsString::from(specifier), attributes);
    let module = loader.load(None, &request, context)?;
    let name = JsString::from(
        module
            .path()
            .map_or_else(|| specifier.to_owned(), display_path)
            .as_str(),
    );
    let link = NativeFunction::from_copy_closure_with_captures(
        |_, _, (module, name): &(Module, JsString), context| {
            module.link(context).map_err(|e| {
                let message = error_text(&e, context);
                let explained = message
                    .strip_prefix("could not find export `")
                    .and_then(|rest| rest.strip_suffix('`'))
                    .and_then(|export| {
                        context
                            .downcast_module_loader::<HostLoader>()?
                            .explain_missing_export(export)
                    });
                JsError::from(
                    JsNativeError::syntax().with_message(explained.unwrap_or_else(|| {
                        format!(
                            "{message} (linking the imports of {})",
                            name.to_std_string_escaped()
                        )
                    })),
                )
            })?;
            Ok(module.evaluate(context)?.into())
        },
        (module.clone(), name),
    )
    .to_js_function(context.realm());
    let namespace = NativeFunction::from_copy_closure_with_captures(
        |_, _, module: &Module, context| Ok(module.namespace(context).into()),
        module.clone(),
    )
    .to_js_function(context.realm());
    module
        .load(context)
        .then(Some(link), None, context)?
        .then(Some(namespace), None, context)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splits_package_names() {
        assert_eq!(split_package("a").unwrap(), ("a", ".".to_owned()));
        assert_eq!(split_package("a/b/c").unwrap(), ("a", "./b/c".to_owned()));
        assert_eq!(split_package("@s/a/b").unwrap(), ("@s/a", "./b".to_owned()));
        assert_eq!(split_package("@s/a").unwrap(), ("@s/a", ".".to_owned()));
        assert!(split_package("@s").is_err());
        assert!(split_package(".a").is_err());
    }

    fn fixture_referrer() -> PathBuf {
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/modules/app/main.js")
    }

    fn resolve_with(conditions: &[&'static str], specifier: &str) -> Result<String, ResolveError> {
        let resolver = Resolver {
            conditions: conditions.to_vec(),
            require: false,
        };
        resolver
            .resolve(specifier, Some(&fixture_referrer()))
            .map(|p| display_path(&p))
    }

    #[test]
    fn conditions_follow_the_package_key_order() {
        let main = ["boa-streams", "browser", "import", "module", "default"];
        let worker = [
            "boa-streams",
            "worker",
            "browser",
            "import",
            "module",
            "default",
        ];
        assert!(resolve_with(&main, "cond-pkg/feature")
            .unwrap()
            .ends_with("/feature.js"));
        assert!(resolve_with(&worker, "cond-pkg/feature")
            .unwrap()
            .ends_with("/feature-worker.js"));
        // "node" comes first in the package but is not active; "boa-streams" is next.
        assert!(resolve_with(&main, "cond-pkg")
            .unwrap()
            .ends_with("/boa.js"));
        assert!(resolve_with(&["default"], "cond-pkg")
            .unwrap()
            .ends_with("/default.js"));
        assert!(matches!(
            resolve_with(&["node"], "cond-pkg/feature"),
            Err(ResolveError::NotExported(_))
        ));
    }

    #[test]
    fn patterns_pick_the_longest_prefix() {
        let main = ["import", "default"];
        assert!(resolve_with(&main, "cond-pkg/utils/strings")
            .unwrap()
            .ends_with("/lib/utils/strings.js"));
        // "./utils/private/*" (null) is longer than "./utils/*".
        assert!(matches!(
            resolve_with(&main, "cond-pkg/utils/private/secret"),
            Err(ResolveError::NotExported(_))
        ));
        // The file exists, but the package does not export it.
        assert!(matches!(
            resolve_with(&main, "cond-pkg/lib/utils/strings.js"),
            Err(ResolveError::NotExported(_))
        ));
        // An array of fallbacks skips an invalid target.
        assert!(resolve_with(&main, "cond-pkg/fallback")
            .unwrap()
            .ends_with("/default.js"));
    }

    #[test]
    fn parses_boa_positions() {
        assert_eq!(
            parse_position("expected token ';', got 'x' at line 3, col 7"),
            Some(("expected token ';', got 'x'", 3, 7))
        );
        assert_eq!(parse_position("no position"), None);
    }
}
