//! Child mode: run one test file in a fresh host and print its result.
//!
//! Order, all in one synchronous turn (no job runs in between, so testharness.js's shell
//! environment sees every test before it decides that loading finished): our prelude
//! (`GLOBAL`, `META_TITLE`, a `fetch` shim for `/interfaces/*.idl`), `resources/testharness.js`,
//! our collectors (`add_result_callback` / `add_completion_callback`), for files that load
//! idlharness.js a `DedicatedWorkerGlobalScope` the global is an instance of, each `// META: script=`
//! and the test file. Then the event loop runs (virtual time) until idle or the deadline. If
//! the harness has not completed by then, testharness's `timeout()` completes it: started
//! tests end TIMEOUT, tests never started NOTRUN, the harness TIMEOUT.

use std::path::Path;
use std::time::Instant;

use boa_streams_host::boa_engine::JsError;
use boa_streams_host::{Host, HostError, HostOptions, LoopOutcome};
use serde::Deserialize;

use crate::limits;
use crate::meta::{resolve_script, Meta};
use crate::results::{truncate, FileResult, HarnessStatus, Subtest, SubtestStatus};

/// The line prefix under which the child prints its JSON result on stdout.
pub const RESULT_MARKER: &str = "@@wpt-runner-result@@ ";

const MAX_MESSAGE: usize = 2000;

/// Run `rel` (corpus-relative) from `corpus` in a fresh host on a large stack, catching a
/// panic of the engine as a CRASH.
pub fn run_file(corpus: &Path, rel: &str) -> FileResult {
    let start = Instant::now();
    let corpus_owned = corpus.to_owned();
    let rel_owned = rel.to_owned();
    let mut result = match boa_streams_host::run_with_large_stack(move || {
        run_in_host(&corpus_owned, &rel_owned)
    }) {
        Ok(r) => r,
        Err(panic) => FileResult::without_subtests(
            rel,
            HarnessStatus::Crash,
            format!("engine panic: {}", truncate(&panic, MAX_MESSAGE)),
        ),
    };
    result.duration_ms = u64::try_from(start.elapsed().as_millis()).unwrap_or(u64::MAX);
    result
}

/// The child's whole job: run the file and print the marker line. Returns the exit code.
pub fn child_main(corpus: &Path, rel: &str) -> i32 {
    let result = run_file(corpus, rel);
    match serde_json::to_string(&result) {
        Ok(json) => {
            println!("\n{RESULT_MARKER}{json}");
            0
        }
        Err(e) => {
            eprintln!("wpt-runner: cannot serialise the result: {e}");
            1
        }
    }
}

/// What the collectors hand back (see `GLUE`).
#[derive(Deserialize)]
struct Report {
    complete: bool,
    status: Option<i64>,
    message: Option<String>,
    tests: Vec<ReportedTest>,
}

#[derive(Deserialize)]
struct ReportedTest {
    name: String,
    status: i64,
    message: Option<String>,
}

fn describe(err: JsError, host: &mut Host) -> String {
    let context = host.context();
    let plain = err.to_string();
    // An Error object reads best through its own toString ("TypeError: message").
    let text = match err.into_opaque(context) {
        Ok(value) if !value.is_undefined() => match value.to_string(context) {
            Ok(s) => s.to_std_string_escaped(),
            Err(_) => plain,
        },
        _ => plain,
    };
    truncate(&compact_lines(&text), MAX_MESSAGE)
}

/// Collapse runs of identical lines (deep recursion backtraces) and keep at most 20 lines.
pub fn compact_lines(text: &str) -> String {
    let mut out: Vec<String> = Vec::new();
    let mut lines = text.lines().peekable();
    while let Some(line) = lines.next() {
        let mut repeats = 1;
        while lines.peek() == Some(&line) {
            lines.next();
            repeats += 1;
        }
        if repeats > 1 {
            out.push(format!("{line}  [x{repeats}]"));
        } else {
            out.push(line.to_owned());
        }
    }
    if out.len() > 20 {
        let more = out.len() - 20;
        out.truncate(20);
        out.push(format!("    ... {more} more lines"));
    }
    out.join("\n")
}

fn host_error_text(e: &HostError) -> String {
    let text = match e {
        HostError::Uncaught { message, .. } => format!("uncaught exception: {message}"),
        HostError::UnhandledRejection { message, .. } => {
            format!("unhandled promise rejection: {message}")
        }
    };
    truncate(&compact_lines(&text), MAX_MESSAGE)
}

/// The file stem WPT would use as the default title (`foo` for `foo.any.js`).
fn default_title(rel: &str) -> String {
    let name = rel.rsplit('/').next().unwrap_or(rel);
    name.split('.').next().unwrap_or(name).to_owned()
}

/// The scope a test file runs in (both keep testharness.js's shell environment).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Scope {
    /// A dedicated-worker-like global (the default: most interfaces here are `[Exposed=*]`).
    Worker,
    /// A Window-like global, for tests of interfaces exposed to `Window` and workers but not
    /// `*` (`FileAPI/`) and the runnable `*.window.js` files: `GLOBAL.isWindow()` is true,
    /// `window` is the global and `self instanceof Window` holds.
    Window,
}

impl Scope {
    /// The scope for a corpus-relative test file.
    pub fn for_file(file: &str) -> Scope {
        if file.starts_with("FileAPI/") || file.ends_with(".window.js") {
            Scope::Window
        } else {
            Scope::Worker
        }
    }
}

/// The URL WPT would load the test from: `http://web-platform.test:8000/dir/name.any.html?v`
/// for a window, `.../name.any.worker.js?v` for a worker.
pub fn test_url(file: &str, variant: &str, scope: Scope) -> String {
    let stem = file.strip_suffix(".js").unwrap_or(file);
    let ext = match scope {
        Scope::Window => ".html",
        Scope::Worker => ".worker.js",
    };
    format!("http://web-platform.test:8000/{stem}{ext}{variant}")
}

/// The prelude evaluated before testharness.js: `GLOBAL`, `META_TITLE`, `location` (for
/// `url`, the test's URL) and a `fetch` shim serving corpus files (`/interfaces/*.idl` for
/// idlharness.js, JSON test data) through the native `__wpt_runner_read`.
pub fn prelude(title: &str, url: &str, scope: Scope) -> String {
    let title = serde_json::Value::String(title.to_owned()).to_string();
    let (origin, rest) = match url.match_indices('/').nth(2) {
        Some((i, _)) => url.split_at(i),
        None => (url, "/"),
    };
    let (path_and_query, hash) = match rest.find('#') {
        Some(i) => rest.split_at(i),
        None => (rest, ""),
    };
    let (pathname, search) = match path_and_query.find('?') {
        Some(i) => path_and_query.split_at(i),
        None => (path_and_query, ""),
    };
    let js = |v: &str| serde_json::Value::String(v.to_owned()).to_string();
    let is_window = scope == Scope::Window;
    format!(
        r#"(function (g) {{
  "use strict";
  var define = function (name, value) {{
    Object.defineProperty(g, name, {{ value: value, writable: true, configurable: true, enumerable: false }});
  }};
  // What WPT's .any.js wrappers define: the scope the file runs in.
  define("GLOBAL", {{
    isWindow: function () {{ return {is_window}; }},
    isWorker: function () {{ return false; }},
    isShadowRealm: function () {{ return false; }},
  }});
  define("META_TITLE", {title});
  // The test's URL, as a browser's location (subset-tests.js reads location.search).
  var location = {{
    href: {href}, origin: {origin}, protocol: "http:", host: "web-platform.test:8000",
    hostname: "web-platform.test", port: "8000", pathname: {pathname}, search: {search},
    hash: {hash},
  }};
  Object.defineProperty(location, "toString", {{ value: function () {{ return location.href; }} }});
  define("location", location);
  // A tiny fetch() over the corpus (for idlharness.js's fetch_spec and JSON test data):
  // r.ok, r.status, r.text(), r.json(). URLs resolve against location.
  var read = g.__wpt_runner_read;
  delete g.__wpt_runner_read;
  var resolve = function (url) {{
    var path;
    var abs = /^[a-z][a-z0-9+.-]*:\/\/[^\/]*(\/[^?#]*)?/i.exec(url);
    if (abs) path = abs[1] || "/";
    else if (url.charAt(0) === "/") path = url.split(/[?#]/)[0];
    else path = location.pathname.replace(/[^\/]*$/, "") + url.split(/[?#]/)[0];
    var out = [];
    path.split("/").forEach(function (p) {{
      if (p === "..") out.pop(); else if (p !== "." && p !== "") out.push(p);
    }});
    return out.join("/");
  }};
  if (typeof g.fetch === "undefined") {{
    define("fetch", function fetch(input) {{
      var url = String(input);
      var body = read(resolve(url));
      var found = typeof body === "string";
      if (!found) body = "";
      return Promise.resolve({{
        ok: found,
        status: found ? 200 : 404,
        url: url,
        text: function () {{ return Promise.resolve(body); }},
        json: function () {{ return Promise.resolve(body).then(JSON.parse); }},
      }});
    }});
  }}
}})(globalThis);
"#,
        href = js(url),
        origin = js(origin),
        pathname = js(pathname),
        search = js(search),
        hash = js(hash),
    )
}

thread_local! {
    /// The corpus root `__wpt_runner_read` serves files from (set for the run's thread).
    static CORPUS_ROOT: std::cell::RefCell<Option<std::path::PathBuf>> =
        const { std::cell::RefCell::new(None) };
}

/// `__wpt_runner_read(path)`: the text of the corpus-relative `path`, or `undefined`.
fn read_corpus_for_js(
    _: &boa_streams_host::boa_engine::JsValue,
    args: &[boa_streams_host::boa_engine::JsValue],
    ctx: &mut boa_streams_host::boa_engine::Context,
) -> boa_streams_host::boa_engine::JsResult<boa_streams_host::boa_engine::JsValue> {
    use boa_streams_host::boa_engine::{JsString, JsValue};
    let path = match args.first() {
        Some(v) => v.to_string(ctx)?.to_std_string_escaped(),
        None => return Ok(JsValue::undefined()),
    };
    if path.is_empty()
        || path
            .split('/')
            .any(|p| p.is_empty() || p == "." || p == "..")
    {
        return Ok(JsValue::undefined());
    }
    let text = CORPUS_ROOT.with(|root| {
        root.borrow()
            .as_ref()
            .and_then(|r| std::fs::read_to_string(r.join(&path)).ok())
    });
    Ok(text.map_or_else(JsValue::undefined, |t| JsString::from(t.as_str()).into()))
}

/// The origin of the WPT server the tests believe they are loaded from.
const WPT_ORIGIN: &str = "http://web-platform.test:8000";

/// The WPT server's answer to `request` (an URL of [`WPT_ORIGIN`]): the corpus file at the
/// URL's path with a `Content-Type` by extension, or a 404.
fn serve_corpus(
    root: &Path,
    request: &boa_web::boa_net::LocalRequest,
) -> boa_web::boa_net::LocalResponse {
    use boa_web::boa_net::LocalResponse;
    let path = request
        .url
        .strip_prefix(WPT_ORIGIN)
        .unwrap_or_default()
        .split(['?', '#'])
        .next()
        .unwrap_or_default()
        .trim_start_matches('/');
    let traverses = path
        .split('/')
        .any(|p| p.is_empty() || p == "." || p == ".." || p.contains('\\'));
    if path.is_empty() || traverses || !matches!(request.method.as_str(), "GET" | "HEAD") {
        return LocalResponse::new(404, "not found");
    }
    match std::fs::read(root.join(path)) {
        Ok(bytes) => {
            let content_type = match path.rsplit_once('.').map(|(_, e)| e) {
                Some("json") => "application/json",
                Some("js") => "text/javascript",
                Some("html" | "htm") => "text/html",
                Some("txt" | "idl") => "text/plain",
                Some("css") => "text/css",
                Some("png") => "image/png",
                Some("jpg" | "jpeg") => "image/jpeg",
                Some("svg") => "image/svg+xml",
                _ => "application/octet-stream",
            };
            LocalResponse::new(200, bytes).with_header("content-type", content_type)
        }
        Err(_) => LocalResponse::new(404, "not found"),
    }
}

/// The collectors evaluated right after testharness.js.
pub const GLUE: &str = r#"(function (g) {
  "use strict";
  var stringify = JSON.stringify;
  var results = [];
  var done = null;
  var str = function (v) { return v === undefined || v === null ? null : String(v); };
  var snapshot = function (t) { return { name: String(t.name), status: t.status, message: str(t.message) }; };
  add_result_callback(function (t) { results.push(snapshot(t)); });
  add_completion_callback(function (tests, status) {
    var list = [];
    for (var i = 0; i < tests.length; i++) list.push(snapshot(tests[i]));
    done = { status: status.status, message: str(status.message), tests: list };
  });
  // An uncaught exception reaches the global's `error` event, where testharness.js's
  // listener (added before this one) records it; cancel it so the host does not report it a
  // second time, as a browser's runner only reads testharness's status.
  if (typeof g.addEventListener === "function") {
    g.addEventListener("error", function (e) { e.preventDefault(); });
  }
  var timeoutHarness = timeout;
  Object.defineProperty(g, "__wpt_runner", { enumerable: false, configurable: false, writable: false, value: Object.freeze({
    complete: function () { return done !== null; },
    forceTimeout: function () { if (done === null) timeoutHarness(); },
    report: function () {
      if (done !== null) return stringify({ complete: true, status: done.status, message: done.message, tests: done.tests });
      return stringify({ complete: false, status: null, message: null, tests: results });
    },
  }) });
})(globalThis);
"#;

/// For a Window-like scope: `window` (the global) and a `Window` interface the global is an
/// instance of (idlharness's exposure check then takes `[Exposed=Window]`). Evaluated after
/// testharness.js, so testharness keeps its shell environment.
pub const WINDOW_SCOPE: &str = r#"(function (g) {
  "use strict";
  function Window() { throw new TypeError("Illegal constructor"); }
  Object.defineProperty(Window, Symbol.hasInstance, {
    value: function (v) { return v === g; },
  });
  Object.defineProperty(g, "Window", {
    value: Window, writable: true, configurable: true, enumerable: false,
  });
  Object.defineProperty(g, "window", {
    get: function () { return g; }, configurable: false, enumerable: true,
  });
})(globalThis);
"#;

/// For `*.window.js` files: the window's own `postMessage(message, targetOrigin, transfer)`
/// (and `(message, options)`): the message is serialized with its transfer list and, as a
/// task, a `MessageEvent` (its `ports` the transferred `MessagePort`s) is fired at the window.
/// Built over a private `MessageChannel` (the same serialization and task queueing).
pub const WINDOW_MESSAGING: &str = r#"(function (g) {
  "use strict";
  var channel = new MessageChannel();
  var send = channel.port1;
  channel.port2.onmessage = function (e) {
    g.dispatchEvent(new MessageEvent("message", { data: e.data, ports: e.ports, origin: location.origin }));
  };
  Object.defineProperty(g, "postMessage", {
    value: function postMessage(message, targetOrigin, transfer) {
      if (arguments.length < 1) throw new TypeError("postMessage: 1 argument required");
      var list = [];
      if (typeof targetOrigin === "object" && targetOrigin !== null) {
        if (targetOrigin.transfer !== undefined) list = targetOrigin.transfer;
      } else if (transfer !== undefined) {
        list = transfer;
      }
      send.postMessage(message, list);
    },
    writable: true, configurable: true, enumerable: true,
  });
})(globalThis);
"#;

/// For files that load idlharness.js: make the global a dedicated worker scope for
/// idlharness's exposure checks (`exposed_in`), which otherwise reject a global whose
/// prototype is not `Object.prototype`. Evaluated after testharness.js, so testharness
/// keeps its shell environment.
pub const IDL_SCOPE: &str = r#"(function (g) {
  "use strict";
  function DedicatedWorkerGlobalScope() { throw new TypeError("Illegal constructor"); }
  Object.defineProperty(DedicatedWorkerGlobalScope, Symbol.hasInstance, {
    value: function (v) { return v === g; },
  });
  Object.defineProperty(g, "DedicatedWorkerGlobalScope", {
    value: DedicatedWorkerGlobalScope, writable: true, configurable: true, enumerable: false,
  });
})(globalThis);
"#;

fn read_corpus_file(corpus: &Path, rel: &str) -> Result<String, String> {
    std::fs::read_to_string(corpus.join(rel)).map_err(|e| format!("cannot read {rel}: {e}"))
}

fn error_result(rel: &str, message: String) -> FileResult {
    FileResult {
        path: rel.to_owned(),
        harness: HarnessStatus::Error,
        message: Some(message),
        subtests_reported: true,
        subtests: Vec::new(),
        duration_ms: 0,
    }
}

fn run_in_host(corpus: &Path, rel: &str) -> FileResult {
    let (file, variant) = crate::meta::split_variant(rel);
    let scope = Scope::for_file(file);
    CORPUS_ROOT.with(|root| *root.borrow_mut() = Some(corpus.to_owned()));
    let source = match read_corpus_file(corpus, file) {
        Ok(s) => s,
        Err(e) => return error_result(rel, e),
    };
    let meta = Meta::parse(&source);
    let testharness = match read_corpus_file(corpus, "resources/testharness.js") {
        Ok(s) => s,
        Err(e) => return error_result(rel, e),
    };

    let mut host = match Host::new(HostOptions {
        expose_gc: true,
        virtual_time: true,
        print_errors: false,
        ..HostOptions::unrestricted()
    }) {
        Ok(h) => h,
        Err(e) => return error_result(rel, format!("host setup failed: {e}")),
    };

    // The test runs as a browser page of the WPT server would: the browser headers guards,
    // relative URLs against the test's URL, and the real fetch() answered for the server's
    // origin from the corpus (in process: no socket).
    let url = test_url(file, variant, scope);
    {
        let ctx = host.context();
        boa_web::boa_fetch::set_headers_policy(ctx, boa_web::boa_fetch::HeadersPolicy::Browser);
        boa_web::boa_fetch::set_api_base_url(ctx, Some(&url));
        let root = corpus.to_owned();
        boa_web::boa_net::serve_origin_locally(ctx, WPT_ORIGIN, move |request| {
            serve_corpus(&root, request)
        });
    }

    // Errors that make the file a harness ERROR, in order.
    let mut errors: Vec<String> = Vec::new();

    let title = meta.title.clone().unwrap_or_else(|| default_title(file));
    if let Err(e) = host.context().register_global_callable(
        boa_streams_host::boa_engine::js_string!("__wpt_runner_read"),
        1,
        boa_streams_host::boa_engine::NativeFunction::from_fn_ptr(read_corpus_for_js),
    ) {
        let msg = describe(e, &mut host);
        return error_result(rel, format!("runner prelude failed: {msg}"));
    }
    if let Err(e) = host.eval_source(&prelude(&title, &url, scope), "wpt-runner-prelude.js") {
        let msg = describe(e, &mut host);
        return error_result(rel, format!("runner prelude failed: {msg}"));
    }
    if let Err(e) = host.eval_source(&testharness, "/resources/testharness.js") {
        let msg = describe(e, &mut host);
        return error_result(rel, format!("resources/testharness.js threw: {msg}"));
    }
    if let Err(e) = host.eval_source(GLUE, "wpt-runner-glue.js") {
        let msg = describe(e, &mut host);
        return error_result(rel, format!("runner glue failed: {msg}"));
    }
    if scope == Scope::Window {
        if let Err(e) = host.eval_source(WINDOW_SCOPE, "wpt-runner-window-scope.js") {
            let msg = describe(e, &mut host);
            errors.push(format!("runner window scope failed: {msg}"));
        }
        if file.ends_with(".window.js") {
            if let Err(e) = host.eval_source(WINDOW_MESSAGING, "wpt-runner-window-messaging.js") {
                let msg = describe(e, &mut host);
                errors.push(format!("runner window messaging failed: {msg}"));
            }
        }
    } else if meta
        .scripts
        .iter()
        .any(|s| resolve_script(file, s).as_deref() == Some("resources/idlharness.js"))
    {
        if let Err(e) = host.eval_source(IDL_SCOPE, "wpt-runner-idl-scope.js") {
            let msg = describe(e, &mut host);
            errors.push(format!("runner idl scope failed: {msg}"));
        }
    }
    for script in &meta.scripts {
        let Some(path) = resolve_script(file, script) else {
            errors.push(format!(
                "META script {script:?} does not resolve inside the corpus"
            ));
            continue;
        };
        match read_corpus_file(corpus, &path) {
            Ok(text) => {
                if let Err(e) = host.eval_source(&text, &format!("/{path}")) {
                    let msg = describe(e, &mut host);
                    errors.push(format!("uncaught exception in {path}: {msg}"));
                }
            }
            Err(e) => errors.push(format!("META script: {e}")),
        }
    }
    if let Err(e) = host.eval_source(&source, &format!("/{file}")) {
        let msg = describe(e, &mut host);
        errors.push(format!("uncaught exception in {file}: {msg}"));
    }

    // The event loop runs until idle, until the process has spent its CPU budget (counted
    // from its start), or until the wall-clock backstop (a loop waiting without spending CPU).
    let budget = limits::cpu_budget(meta.long_timeout);
    let wall = budget * limits::WALL_FACTOR;
    let loop_start = Instant::now();
    let outcome = host.run_event_loop_with_budget(Some(loop_start + wall), &mut || {
        limits::process_cpu_time().is_some_and(|spent| spent >= budget)
    });

    let complete = host
        .eval_source("__wpt_runner.complete()", "wpt-runner-query.js")
        .map(|v| v.to_boolean())
        .unwrap_or(false);
    let mut timeout_note = None;
    if !complete {
        timeout_note = Some(match outcome {
            LoopOutcome::Idle => "the event loop went idle with the harness incomplete".to_owned(),
            LoopOutcome::DeadlineReached => format!(
                "the event loop was still busy at the limit ({:.1}s CPU of a {}s CPU budget, \
                 {:.1}s wall clock of {}s)",
                limits::process_cpu_time().unwrap_or_default().as_secs_f64(),
                budget.as_secs(),
                loop_start.elapsed().as_secs_f64(),
                wall.as_secs()
            ),
        });
        // Completes synchronously when no test is in its cleanup phase; no job is run here
        // (after a deadline the microtask queue may never drain).
        if let Err(e) = host.eval_source("__wpt_runner.forceTimeout()", "wpt-runner-timeout.js") {
            let msg = describe(e, &mut host);
            errors.push(format!("forcing the harness timeout threw: {msg}"));
        }
    }

    let report = host
        .eval_source("__wpt_runner.report()", "wpt-runner-report.js")
        .map_err(|e| describe(e, &mut host))
        .and_then(|v| {
            v.as_string()
                .map(|s| s.to_std_string_escaped())
                .ok_or_else(|| "report is not a string".to_owned())
        })
        .and_then(|s| serde_json::from_str::<Report>(&s).map_err(|e| e.to_string()));

    errors.extend(host.take_errors().iter().map(host_error_text));

    let report = match report {
        Ok(r) => r,
        Err(e) => {
            errors.push(format!("cannot read the harness report: {e}"));
            Report {
                complete: false,
                status: None,
                message: None,
                tests: Vec::new(),
            }
        }
    };

    let subtests = report
        .tests
        .into_iter()
        .map(|t| Subtest {
            name: t.name,
            status: SubtestStatus::from_testharness(t.status).unwrap_or(SubtestStatus::Fail),
            message: t.message.map(|m| truncate(&m, MAX_MESSAGE)),
        })
        .collect();

    let mut harness = if report.complete {
        report
            .status
            .and_then(HarnessStatus::from_testharness)
            .unwrap_or(HarnessStatus::Error)
    } else {
        HarnessStatus::Timeout
    };
    let mut messages: Vec<String> = Vec::new();
    if let Some(note) = timeout_note {
        messages.push(note);
    }
    if let Some(m) = report.message {
        messages.push(m);
    }
    if !errors.is_empty() {
        harness = HarnessStatus::Error;
        messages.extend(errors);
    }
    FileResult {
        path: rel.to_owned(),
        harness,
        message: if messages.is_empty() {
            None
        } else {
            Some(truncate(&messages.join("\n"), MAX_MESSAGE * 2))
        },
        subtests_reported: true,
        subtests,
        duration_ms: 0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn compacts_repeated_lines() {
        let text = format!(
            "RangeError: deep\n{}    at g (x.js:2:1)",
            "    at f (x.js:1:1)\n".repeat(500)
        );
        assert_eq!(
            compact_lines(&text),
            "RangeError: deep\n    at f (x.js:1:1)  [x500]\n    at g (x.js:2:1)"
        );
        let many: String = (0..30).map(|i| format!("l{i}\n")).collect();
        let c = compact_lines(&many);
        assert_eq!(c.lines().count(), 21);
        assert!(c.ends_with("... 10 more lines"));
    }

    #[test]
    fn default_title_is_the_stem() {
        assert_eq!(default_title("streams/piping/abort.any.js"), "abort");
        assert_eq!(default_title("x.https.any.js"), "x");
    }

    #[test]
    fn prelude_embeds_strings_as_json() {
        let p = prelude(
            "t\"itle</script>",
            "http://web-platform.test:8000/a/b.any.worker.js?1-10",
            Scope::Worker,
        );
        assert!(p.contains(r#""t\"itle</script>""#));
        assert!(p.contains(r#"pathname: "/a/b.any.worker.js", search: "?1-10""#));
        assert!(p.contains(r#"origin: "http://web-platform.test:8000""#));
    }

    #[test]
    fn test_urls_and_scopes() {
        assert_eq!(
            Scope::for_file("FileAPI/blob/Blob-slice.any.js"),
            Scope::Window
        );
        assert_eq!(Scope::for_file("encoding/api-basics.any.js"), Scope::Worker);
        assert_eq!(
            Scope::for_file("streams/transferable/transfer-with-messageport.window.js"),
            Scope::Window
        );
        assert_eq!(
            test_url("encoding/a.any.js", "?1-1000", Scope::Worker),
            "http://web-platform.test:8000/encoding/a.any.worker.js?1-1000"
        );
        assert_eq!(
            test_url("FileAPI/x.any.js", "", Scope::Window),
            "http://web-platform.test:8000/FileAPI/x.any.html"
        );
    }
}
