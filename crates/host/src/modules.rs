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
use std::path::{Path, PathBuf};
use std::rc::Rc;

use boa_engine::module::{ModuleLoader, ModuleRequest, Referrer, SyntheticModuleInitializer};
use boa_engine::object::builtins::JsPromise;
use boa_engine::object::JsObject;
use boa_engine::{
    js_string, Context, JsError, JsNativeError, JsResult, JsString, JsValue, Module,
    NativeFunction, Source,
};

use crate::loader::{error_text, parse_module, with_final_semicolon, HostLoader, Kind};
use crate::resolve::{display_path, file_url, Resolver};

impl HostLoader {
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
            Kind::Json => json_module(&text, &path, context).map_err(|e| {
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
        crate::event_loop::report_listener_exception(error, context);
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

/// A JSON module (HTML's "create a JSON module script"): `text` (a leading byte order mark
/// dropped, as UTF-8 decoding does) parsed exactly as `JSON.parse` parses (boa_json: lone
/// surrogates, `1e400` and any nesting depth load, where the engine's own
/// `Module::parse_json` refuses them), and exported as `default`. The text goes to the parser
/// as UTF-16 code units straight from `text`, without a `JsString` copy of it.
///
/// # Errors
/// boa_json's SyntaxError (the position where `text` stops being JSON); the loader adds the
/// file's name.
pub(crate) fn json_module(text: &str, path: &Path, context: &mut Context) -> JsResult<Module> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let units: Vec<u16> = text.encode_utf16().collect();
    let value = boa_json::parse_utf16(&units, context)?;
    drop(units);
    Ok(Module::synthetic(
        &[js_string!("default")],
        SyntheticModuleInitializer::from_copy_closure_with_captures(
            |module, value, _| module.set_export(&js_string!("default"), value.clone()),
            value,
        ),
        Some(path.to_owned()),
        None,
        context,
    ))
}
