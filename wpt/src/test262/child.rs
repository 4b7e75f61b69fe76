//! Child mode: run tests one at a time, each in a fresh `Context`, as INTERPRETING.md says.
//!
//! The parent writes one request per line on the child's stdin (`path<TAB>mode`, the path
//! relative to test262's `test/`) and reads one result line per request from its stdout
//! ([`RESULT_MARKER`] then a JSON [`Outcome`]). An engine panic is caught, reported as a crash
//! of that test, and ends the child (the engine's thread-local state may be inconsistent after
//! it): the parent starts a new one for the next test. An endless loop is the parent's to end
//! (it kills the child at the test's time limit).

use std::cell::RefCell;
use std::collections::HashMap;
use std::io::{BufRead, Write};
use std::path::{Component, Path, PathBuf};
use std::rc::Rc;

use boa_engine::builtins::promise::PromiseState;
use boa_engine::module::{ModuleLoader, Referrer};
use boa_engine::object::builtins::JsArrayBuffer;
use boa_engine::property::{Attribute, PropertyDescriptor};
use boa_engine::realm::Realm;
use boa_engine::{
    js_string, Context, JsError, JsNativeError, JsObject, JsResult, JsString, JsValue, Module,
    NativeFunction, Script, Source,
};
use serde::{Deserialize, Serialize};

use super::meta::{Meta, Phase};
use super::results::{Mode, Status};

/// The line prefix under which the child prints each result on stdout.
pub const RESULT_MARKER: &str = "@@test262-result@@ ";

/// Messages are cut to this many bytes.
const MAX_MESSAGE: usize = 600;
/// `print` keeps at most this many calls (an async test needs one).
const MAX_PRINTS: usize = 64;
/// The stack of the thread that runs the tests (deeply nested test sources).
const STACK_SIZE: usize = 256 * 1024 * 1024;
/// The child's address-space limit: an allocation beyond it fails (an abort, reported as a
/// crash of that test) instead of exhausting the machine's memory.
#[cfg(unix)]
const ADDRESS_SPACE_LIMIT: u64 = 6 * 1024 * 1024 * 1024;

/// What one test did, as the child reports it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Outcome {
    pub status: Status,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub message: Option<String>,
}

impl Outcome {
    fn pass() -> Self {
        Outcome {
            status: Status::Pass,
            message: None,
        }
    }

    fn fail(message: impl Into<String>) -> Self {
        Outcome {
            status: Status::Fail,
            message: Some(cut(&message.into(), MAX_MESSAGE)),
        }
    }
}

/// Shorten `s` to at most `max` bytes on a char boundary.
pub fn cut(s: &str, max: usize) -> String {
    if s.len() <= max {
        return s.to_owned();
    }
    let mut end = max;
    while !s.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}…", s.get(..end).unwrap_or_default())
}

/// The harness files, read once per child.
#[derive(Default)]
struct Harness {
    dir: PathBuf,
    files: HashMap<String, Rc<str>>,
}

impl Harness {
    fn get(&mut self, name: &str) -> Result<Rc<str>, String> {
        if let Some(text) = self.files.get(name) {
            return Ok(text.clone());
        }
        if name.contains("..") || name.starts_with('/') {
            return Err(format!("harness file name {name:?} leaves harness/"));
        }
        let text: Rc<str> = std::fs::read_to_string(self.dir.join(name))
            .map_err(|e| format!("cannot read harness/{name}: {e}"))?
            .into();
        self.files.insert(name.to_owned(), text.clone());
        Ok(text)
    }
}

/// The child process: serve requests from stdin until it closes. Returns the exit code.
pub fn child_main(corpus: &Path) -> i32 {
    limit_address_space();
    let corpus = corpus.to_owned();
    let worker = std::thread::Builder::new()
        .name("test262-child".into())
        .stack_size(STACK_SIZE)
        .spawn(move || serve(&corpus));
    match worker.map(std::thread::JoinHandle::join) {
        Ok(Ok(code)) => code,
        // The panic was reported by `serve` (or by the default hook on stderr).
        Ok(Err(_)) => 101,
        Err(e) => {
            eprintln!("test262: cannot start the test thread: {e}");
            1
        }
    }
}

#[cfg(unix)]
fn limit_address_space() {
    let limit = libc::rlimit {
        rlim_cur: ADDRESS_SPACE_LIMIT,
        rlim_max: ADDRESS_SPACE_LIMIT,
    };
    // SAFETY: setrlimit reads the struct it is given; lowering our own limit is always allowed.
    unsafe {
        libc::setrlimit(libc::RLIMIT_AS, &limit);
    }
}

#[cfg(not(unix))]
fn limit_address_space() {}

fn serve(corpus: &Path) -> i32 {
    let mut harness = Harness {
        dir: corpus.join("harness"),
        files: HashMap::new(),
    };
    let tests = corpus.join("test");
    let stdin = std::io::stdin();
    let mut line = String::new();
    loop {
        line.clear();
        match stdin.lock().read_line(&mut line) {
            Ok(0) | Err(_) => return 0,
            Ok(_) => {}
        }
        let request = line.trim_end_matches(['\n', '\r']);
        let (rel, mode) = match request.split_once('\t') {
            Some((rel, mode)) => (rel, Mode::parse(mode)),
            None => (request, None),
        };
        let Some(mode) = mode else {
            let _ = report(&Outcome::fail(format!("bad request {request:?}")));
            continue;
        };
        let run = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            run_test(&tests, &mut harness, rel, mode)
        }));
        match run {
            Ok(outcome) => {
                if report(&outcome).is_err() {
                    return 1;
                }
            }
            Err(panic) => {
                let text = panic
                    .downcast_ref::<&str>()
                    .map(|s| (*s).to_owned())
                    .or_else(|| panic.downcast_ref::<String>().cloned())
                    .unwrap_or_else(|| "(no message)".to_owned());
                let _ = report(&Outcome {
                    status: Status::Crash,
                    message: Some(cut(&format!("engine panic: {text}"), MAX_MESSAGE)),
                });
                // The engine's thread-local state may be inconsistent: end this child.
                return 0;
            }
        }
    }
}

fn report(outcome: &Outcome) -> std::io::Result<()> {
    let json = serde_json::to_string(outcome).map_err(std::io::Error::other)?;
    let mut out = std::io::stdout().lock();
    writeln!(out, "{RESULT_MARKER}{json}")?;
    out.flush()
}

/// An error of the test, with the phase it happened in.
struct Thrown {
    phase: Phase,
    /// The name of the thrown value's constructor (`None`: not an object with a named
    /// constructor, or an uncatchable engine error).
    constructor: Option<String>,
    /// What to show.
    text: String,
}

/// Run one test file in one mode in a fresh context.
fn run_test(tests: &Path, harness: &mut Harness, rel: &str, mode: Mode) -> Outcome {
    if rel.contains("..") {
        return Outcome::fail("the test path leaves test/");
    }
    let path = tests.join(rel);
    let source = match std::fs::read_to_string(&path) {
        Ok(s) => s,
        Err(e) => return Outcome::fail(format!("cannot read the test: {e}")),
    };
    let meta = match Meta::parse(&source) {
        Ok(m) => m,
        Err(e) => return Outcome::fail(format!("bad frontmatter: {e}")),
    };
    let dir = path.parent().unwrap_or(tests).to_owned();
    let loader = Rc::new(Loader::new(tests.to_owned(), dir));
    let mut context = match Context::builder().module_loader(loader.clone()).build() {
        Ok(c) => c,
        Err(e) => return Outcome::fail(format!("cannot build a context: {e}")),
    };
    // Deeply nested test sources (32 nested functions in S13.2.1_A1_T1) need more than the
    // engine's default parser stack, which suits a 2 MiB thread.
    #[cfg(feature = "patched-engine")]
    context
        .runtime_limits_mut()
        .set_parser_stack_limit(STACK_SIZE / 4);
    let outcome = run_in_context(&mut context, harness, &path, &source, &meta, mode);
    // Modules (and through them the realm) are kept by the loader: let them go with the
    // context.
    loader.clear();
    drop(context);
    outcome
}

fn run_in_context(
    context: &mut Context,
    harness: &mut Harness,
    path: &Path,
    source: &str,
    meta: &Meta,
    mode: Mode,
) -> Outcome {
    context.insert_data(PrintLog::default());
    if let Err(e) = install_host(context) {
        return Outcome::fail(format!("cannot install $262: {e}"));
    }
    let raw = meta.has_flag("raw");
    if !raw {
        let mut names = vec!["assert.js", "sta.js"];
        if meta.has_flag("async") {
            names.push("doneprintHandle.js");
        }
        names.extend(meta.includes.iter().map(String::as_str));
        for name in names {
            let text = match harness.get(name) {
                Ok(t) => t,
                Err(e) => return Outcome::fail(e),
            };
            if let Err(e) = context.eval(Source::from_bytes(text.as_bytes())) {
                let thrown = thrown(e, Phase::Runtime, context);
                return Outcome::fail(format!("harness/{name} threw: {}", thrown.text));
            }
        }
    }

    let result = match mode {
        Mode::Module => run_module(context, path, source),
        Mode::Strict => run_script(context, path, &format!("\"use strict\";\n{source}")),
        Mode::Sloppy => run_script(context, path, source),
    };

    let prints = context
        .get_data::<PrintLog>()
        .map(|log| log.0.borrow().clone())
        .unwrap_or_default();
    judge(meta, result, &prints)
}

/// The verdict from what happened and what the metadata expects.
fn judge(meta: &Meta, result: Result<(), Thrown>, prints: &[String]) -> Outcome {
    match (&meta.negative, result) {
        (Some(negative), Ok(())) => Outcome::fail(format!(
            "expected a {} in phase {}, but the test completed",
            negative.error,
            negative.phase.as_str()
        )),
        (Some(negative), Err(thrown)) => {
            let same_name = thrown.constructor.as_deref() == Some(negative.error.as_str());
            if thrown.phase == negative.phase && same_name {
                Outcome::pass()
            } else {
                Outcome::fail(format!(
                    "expected a {} in phase {}, got {} in phase {}: {}",
                    negative.error,
                    negative.phase.as_str(),
                    thrown.constructor.as_deref().unwrap_or("a non-error value"),
                    thrown.phase.as_str(),
                    thrown.text
                ))
            }
        }
        (None, Err(thrown)) => Outcome::fail(format!(
            "uncaught ({} phase): {}",
            thrown.phase.as_str(),
            thrown.text
        )),
        (None, Ok(())) if meta.has_flag("async") => {
            if let Some(failure) = prints
                .iter()
                .find(|p| p.starts_with("Test262:AsyncTestFailure:"))
            {
                Outcome::fail(failure.clone())
            } else if prints.iter().any(|p| p == "Test262:AsyncTestComplete") {
                Outcome::pass()
            } else {
                Outcome::fail("async test did not print Test262:AsyncTestComplete")
            }
        }
        (None, Ok(())) => Outcome::pass(),
    }
}

fn run_script(context: &mut Context, path: &Path, text: &str) -> Result<(), Thrown> {
    let script = Script::parse(
        Source::from_bytes(text.as_bytes()).with_path(path),
        None,
        context,
    )
    .map_err(|e| thrown(e, Phase::Parse, context))?;
    script
        .evaluate(context)
        .map_err(|e| thrown(e, Phase::Runtime, context))?;
    context
        .run_jobs()
        .map_err(|e| thrown(e, Phase::Runtime, context))
}

fn run_module(context: &mut Context, path: &Path, text: &str) -> Result<(), Thrown> {
    let module = Module::parse(
        Source::from_bytes(text.as_bytes()).with_path(path),
        None,
        context,
    )
    .map_err(|e| thrown(e, Phase::Parse, context))?;
    // The test itself is in the module map: a test importing itself gets the same module.
    if let Some(loader) = context.downcast_module_loader::<Loader>() {
        loader.insert(path.to_owned(), None, module.clone());
    }
    let loading = module.load(context);
    settle(context, &loading, Phase::Resolution)?;
    module
        .link(context)
        .map_err(|e| thrown(e, Phase::Resolution, context))?;
    let evaluation = module
        .evaluate(context)
        .map_err(|e| thrown(e, Phase::Runtime, context))?;
    settle(context, &evaluation, Phase::Runtime)
}

/// Run the jobs, then read the promise: rejected is an error of `phase`; still pending is
/// fine (a module waiting on a promise that never settles: an async test then fails for not
/// printing).
fn settle(
    context: &mut Context,
    promise: &boa_engine::object::builtins::JsPromise,
    phase: Phase,
) -> Result<(), Thrown> {
    context
        .run_jobs()
        .map_err(|e| thrown(e, Phase::Runtime, context))?;
    match promise.state() {
        PromiseState::Rejected(value) => Err(thrown(JsError::from_opaque(value), phase, context)),
        PromiseState::Fulfilled(_) | PromiseState::Pending => Ok(()),
    }
}

/// Describe an error: the name of its constructor and a message.
fn thrown(error: JsError, phase: Phase, context: &mut Context) -> Thrown {
    let shown = error.to_string();
    let value = match error.into_opaque(context) {
        Ok(v) => v,
        // An uncatchable engine error (a runtime limit).
        Err(e) => {
            return Thrown {
                phase,
                constructor: None,
                text: cut(&format!("{shown} ({e})"), MAX_MESSAGE),
            }
        }
    };
    let constructor = value.as_object().and_then(|object| {
        let ctor = object.get(js_string!("constructor"), context).ok()?;
        let name = ctor.as_object()?.get(js_string!("name"), context).ok()?;
        name.as_string().map(|s| s.to_std_string_escaped())
    });
    let text = match value.as_object() {
        // `String(error)` (Test262Error's own `toString` gives its message), guarded: a
        // throwing `toString` falls back to the engine's display.
        Some(_) => value
            .to_string(context)
            .map(|s| s.to_std_string_escaped())
            .unwrap_or(shown),
        None => value.display().to_string(),
    };
    Thrown {
        phase,
        constructor,
        text: cut(&text, MAX_MESSAGE),
    }
}

/// What the test printed (the async protocol), kept in the context.
#[derive(Default)]
struct PrintLog(RefCell<Vec<String>>);

/// Define `print` and `$262` on the current realm's global object.
fn install_host(context: &mut Context) -> JsResult<JsObject> {
    let realm = context.realm().clone();
    let print = NativeFunction::from_copy_closure(|_, args, context| {
        let text = args
            .first()
            .cloned()
            .unwrap_or_default()
            .to_string(context)?
            .to_std_string_escaped();
        if let Some(log) = context.get_data::<PrintLog>() {
            let mut log = log.0.borrow_mut();
            if log.len() < MAX_PRINTS {
                log.push(cut(&text, MAX_MESSAGE));
            }
        }
        Ok(JsValue::undefined())
    })
    .to_js_function(&realm);

    let create_realm = NativeFunction::from_copy_closure(|_, _, context| {
        let realm = context.create_realm()?;
        let old = context.enter_realm(realm);
        let installed = install_host(context);
        context.enter_realm(old);
        Ok(installed?.into())
    })
    .to_js_function(&realm);

    let detach = NativeFunction::from_copy_closure(|_, args, _| {
        let object = args
            .first()
            .and_then(JsValue::as_object)
            .ok_or_else(|| JsNativeError::typ().with_message("not an ArrayBuffer"))?;
        let buffer = JsArrayBuffer::from_object(object)?;
        // Detaching a detached buffer does nothing (DetachArrayBuffer has no such check).
        let attached = buffer.data().is_some();
        if attached {
            let key = args.get(1).cloned().unwrap_or_default();
            buffer.detach(&key)?;
        }
        Ok(JsValue::null())
    })
    .to_js_function(&realm);

    let eval_script = NativeFunction::from_copy_closure_with_captures(
        |_, args, realm: &Realm, context| {
            let text = args
                .first()
                .cloned()
                .unwrap_or_default()
                .to_string(context)?
                .to_std_string_escaped();
            let old = context.enter_realm(realm.clone());
            let result = Script::parse(Source::from_bytes(text.as_bytes()), None, context)
                .and_then(|script| script.evaluate(context));
            context.enter_realm(old);
            result
        },
        realm.clone(),
    )
    .to_js_function(&realm);

    let gc = NativeFunction::from_copy_closure(|_, _, _| {
        boa_gc::force_collect();
        Ok(JsValue::undefined())
    })
    .to_js_function(&realm);

    let global = context.global_object();
    let host = JsObject::with_object_proto(context.intrinsics());
    let data = |value: JsValue| {
        PropertyDescriptor::builder()
            .value(value)
            .writable(true)
            .enumerable(false)
            .configurable(true)
            .build()
    };
    host.define_property_or_throw(
        js_string!("createRealm"),
        data(create_realm.into()),
        context,
    )?;
    host.define_property_or_throw(
        js_string!("detachArrayBuffer"),
        data(detach.into()),
        context,
    )?;
    host.define_property_or_throw(js_string!("evalScript"), data(eval_script.into()), context)?;
    host.define_property_or_throw(js_string!("gc"), data(gc.into()), context)?;
    host.define_property_or_throw(js_string!("global"), data(global.into()), context)?;
    let attributes = Attribute::WRITABLE | Attribute::CONFIGURABLE;
    context.register_global_property(js_string!("print"), print, attributes)?;
    context.register_global_property(js_string!("$262"), host.clone(), attributes)?;
    Ok(host)
}

/// The module loader: `./name` and `../name` specifiers resolved against the importing
/// module's directory (the test's directory when the referrer has no path), never leaving
/// test262's `test/` directory; one module per resolved path and type.
struct Loader {
    root: PathBuf,
    fallback_dir: PathBuf,
    modules: RefCell<HashMap<(PathBuf, Option<String>), Module>>,
}

impl Loader {
    fn new(root: PathBuf, fallback_dir: PathBuf) -> Self {
        Loader {
            root,
            fallback_dir,
            modules: RefCell::default(),
        }
    }

    fn insert(&self, path: PathBuf, kind: Option<String>, module: Module) {
        self.modules.borrow_mut().insert((path, kind), module);
    }

    fn clear(&self) {
        let modules = std::mem::take(&mut *self.modules.borrow_mut());
        drop(modules);
    }

    fn resolve(&self, specifier: &str, referrer: Option<&Path>) -> JsResult<PathBuf> {
        if !(specifier.starts_with("./") || specifier.starts_with("../")) {
            return Err(JsNativeError::typ()
                .with_message(format!("cannot resolve module specifier {specifier:?}"))
                .into());
        }
        let base = referrer
            .and_then(Path::parent)
            .unwrap_or(&self.fallback_dir);
        let mut path = PathBuf::new();
        for component in base.join(specifier).components() {
            match component {
                Component::CurDir => {}
                Component::ParentDir => {
                    path.pop();
                }
                other => path.push(other),
            }
        }
        if !path.starts_with(&self.root) {
            return Err(JsNativeError::typ()
                .with_message(format!("module specifier {specifier:?} leaves test/"))
                .into());
        }
        Ok(path)
    }

    fn load(
        &self,
        referrer: &Referrer,
        request: &boa_engine::module::ModuleRequest,
        context: &mut Context,
    ) -> JsResult<Module> {
        let specifier = request.specifier().to_std_string_escaped();
        let path = self.resolve(&specifier, referrer.path())?;
        let kind = request
            .get_attribute("type")
            .map(JsString::to_std_string_escaped);
        let key = (path.clone(), kind.clone());
        if let Some(module) = self.modules.borrow().get(&key) {
            return Ok(module.clone());
        }
        let text = std::fs::read_to_string(&path).map_err(|e| {
            JsNativeError::typ().with_message(format!("cannot load module {specifier:?}: {e}"))
        })?;
        let module = match kind.as_deref() {
            None => Module::parse(
                Source::from_bytes(text.as_bytes()).with_path(&path),
                None,
                context,
            )?,
            Some("json") => Module::parse_json(JsString::from(text.as_str()), context)?,
            Some(other) => {
                return Err(JsNativeError::typ()
                    .with_message(format!("unsupported module type {other:?}"))
                    .into())
            }
        };
        self.modules.borrow_mut().insert(key, module.clone());
        Ok(module)
    }
}

impl ModuleLoader for Loader {
    async fn load_imported_module(
        self: Rc<Self>,
        referrer: Referrer,
        request: boa_engine::module::ModuleRequest,
        context: &RefCell<&mut Context>,
    ) -> JsResult<Module> {
        let mut context = context.borrow_mut();
        self.load(&referrer, &request, &mut context)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::meta::Negative;

    fn meta(src: &str) -> Meta {
        Meta::parse(src).unwrap()
    }

    #[test]
    fn a_negative_test_passes_only_with_its_phase_and_constructor() {
        let m = meta("/*---\nnegative:\n  phase: parse\n  type: SyntaxError\n---*/");
        let thrown = |phase, name: &str| Thrown {
            phase,
            constructor: Some(name.to_owned()),
            text: "x".into(),
        };
        assert_eq!(
            judge(&m, Err(thrown(Phase::Parse, "SyntaxError")), &[]).status,
            Status::Pass
        );
        let wrong_phase = judge(&m, Err(thrown(Phase::Runtime, "SyntaxError")), &[]);
        assert_eq!(wrong_phase.status, Status::Fail);
        assert!(wrong_phase.message.unwrap().contains("phase runtime"));
        let wrong_type = judge(&m, Err(thrown(Phase::Parse, "TypeError")), &[]);
        assert_eq!(wrong_type.status, Status::Fail);
        let completed = judge(&m, Ok(()), &[]);
        assert!(completed.message.unwrap().contains("completed"));
        assert_eq!(
            m.negative,
            Some(Negative {
                phase: Phase::Parse,
                error: "SyntaxError".into()
            })
        );
    }

    #[test]
    fn an_async_test_passes_only_when_it_prints_completion() {
        let m = meta("/*---\nflags: [async]\n---*/");
        let done = vec!["Test262:AsyncTestComplete".to_owned()];
        assert_eq!(judge(&m, Ok(()), &done).status, Status::Pass);
        assert_eq!(judge(&m, Ok(()), &[]).status, Status::Fail);
        let failed = vec!["Test262:AsyncTestFailure:Test262Error: no".to_owned()];
        let r = judge(&m, Ok(()), &failed);
        assert_eq!(r.status, Status::Fail);
        assert!(r.message.unwrap().contains("Test262Error: no"));
    }

    /// A scratch test262 tree: `harness/` from the strings given, `test/` files.
    fn tree(name: &str, files: &[(&str, &str)]) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("t262-child-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let harness = [
            ("harness/assert.js", "var assert = function (c, m) { if (!c) throw new Test262Error(m); };\nassert.sameValue = function (a, b) { if (a !== b) throw new Test262Error('expected ' + b + ', got ' + a); };"),
            ("harness/sta.js", "function Test262Error(m) { this.message = m; }\nTest262Error.prototype.toString = function () { return 'Test262Error: ' + this.message; };\nfunction $DONOTEVALUATE() { throw 'do not evaluate'; }"),
            ("harness/doneprintHandle.js", "function $DONE(e) { print(e ? 'Test262:AsyncTestFailure:' + e : 'Test262:AsyncTestComplete'); }"),
        ];
        for (rel, text) in harness.iter().chain(files) {
            let path = dir.join(rel);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(path, text).unwrap();
        }
        dir
    }

    fn run(dir: &Path, rel: &str, mode: Mode) -> Outcome {
        let mut harness = Harness {
            dir: dir.join("harness"),
            files: HashMap::new(),
        };
        run_test(&dir.join("test"), &mut harness, rel, mode)
    }

    #[test]
    fn strict_and_sloppy_runs_differ_as_the_directive_says() {
        let dir = tree(
            "modes",
            &[(
                "test/a.js",
                "/*---\n---*/\nvar self = (function () { return this; })();\nassert.sameValue(self, undefined);",
            )],
        );
        assert_eq!(run(&dir, "a.js", Mode::Strict).status, Status::Pass);
        let sloppy = run(&dir, "a.js", Mode::Sloppy);
        assert_eq!(sloppy.status, Status::Fail);
        assert!(sloppy.message.unwrap().contains("Test262Error"));
        let _ = std::fs::remove_dir_all(dir);
    }

    #[test]
    fn the_host_object_and_print_are_there() {
        let dir = tree(
            "host",
            &[(
                "test/h.js",
                "/*---\nflags: [async]\n---*/\n\
                 var d = Object.getOwnPropertyDescriptor(this, '$262');\n\
                 assert(d.writable && d.configurable && !d.enumerable, 'attributes');\n\
                 assert.sameValue($262.global, this);\n\
                 var buf = new ArrayBuffer(8); $262.detachArrayBuffer(buf); $262.detachArrayBuffer(buf);\n\
                 assert.sameValue(buf.byteLength, 0);\n\
                 $262.evalScript('var fromEval = 3;'); assert.sameValue(fromEval, 3);\n\
                 var other = $262.createRealm();\n\
                 assert(other.global.Array !== Array, 'a new realm');\n\
                 assert.sameValue(other.evalScript('var x = 1; x + 1'), 2);\n\
                 assert.sameValue(other.global.x, 1);\n\
                 $262.gc();\n\
                 Promise.resolve().then(function () { $DONE(); });",
            )],
        );
        let r = run(&dir, "h.js", Mode::Sloppy);
        assert_eq!(r.status, Status::Pass, "{r:?}");
        let _ = std::fs::remove_dir_all(dir);
    }

    #[test]
    fn modules_import_fixtures_relative_to_the_importer() {
        let dir = tree(
            "modules",
            &[
                (
                    "test/m/main.js",
                    "/*---\nflags: [module]\n---*/\nimport { v } from './sub/a_FIXTURE.js';\nimport * as self from './main.js';\nassert.sameValue(v, 42);\nassert.sameValue(self.own(), 1);\nexport function own() { return 1; }",
                ),
                ("test/m/sub/a_FIXTURE.js", "export { v } from '../b_FIXTURE.js';"),
                ("test/m/b_FIXTURE.js", "export var v = 42;"),
                (
                    "test/m/missing.js",
                    "/*---\nnegative:\n  phase: resolution\n  type: SyntaxError\nflags: [module]\n---*/\n$DONOTEVALUATE();\nimport './bad_FIXTURE.js';",
                ),
                ("test/m/bad_FIXTURE.js", "export var = ;"),
                (
                    "test/m/escape.js",
                    "/*---\nflags: [module]\n---*/\nimport '../../../outside.js';",
                ),
            ],
        );
        let r = run(&dir, "m/main.js", Mode::Module);
        assert_eq!(r.status, Status::Pass, "{r:?}");
        let r = run(&dir, "m/missing.js", Mode::Module);
        assert_eq!(r.status, Status::Pass, "{r:?}");
        let r = run(&dir, "m/escape.js", Mode::Module);
        assert_eq!(r.status, Status::Fail, "{r:?}");
        assert!(r.message.unwrap().contains("leaves test/"));
        let _ = std::fs::remove_dir_all(dir);
    }

    #[test]
    fn parse_errors_are_the_parse_phase_and_raw_tests_get_no_harness() {
        let dir = tree(
            "negative",
            &[
                (
                    "test/n.js",
                    "/*---\nnegative:\n  phase: parse\n  type: SyntaxError\n---*/\n$DONOTEVALUATE();\nvar var;",
                ),
                (
                    "test/raw.js",
                    "/*---\nflags: [raw]\n---*/\nif (typeof assert !== 'undefined') throw new Error('harness loaded');",
                ),
                (
                    "test/late.js",
                    "/*---\nnegative:\n  phase: parse\n  type: SyntaxError\n---*/\n$DONOTEVALUATE();",
                ),
            ],
        );
        assert_eq!(run(&dir, "n.js", Mode::Sloppy).status, Status::Pass);
        assert_eq!(run(&dir, "raw.js", Mode::Sloppy).status, Status::Pass);
        let late = run(&dir, "late.js", Mode::Sloppy);
        assert_eq!(late.status, Status::Fail);
        assert!(late.message.unwrap().contains("phase runtime"));
        let _ = std::fs::remove_dir_all(dir);
    }
}
