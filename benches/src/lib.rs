//! Bench support: run the JS scenario files of `benches/js/` (each after `js/harness.js`)
//! on the boa_streams host or under Node, and collect the harness's JSON results.
//!
//! A run of one file is one fresh [`Host`] (or one Node process): the harness calibrates the
//! floor primitives the file's scenarios name, runs every scenario (validating its result),
//! calibrates again, and leaves `__bench.output` (see `js/harness.js`).

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::path::{Path, PathBuf};

use boa_engine::object::ObjectInitializer;
use boa_engine::property::Attribute;
use boa_engine::{js_string, Context, JsNativeError, JsResult, JsValue, NativeFunction};
use boa_streams_host::native_file::{file_readable_stream, file_writable_stream};
use boa_streams_host::{Host, HostOptions, LoopOutcome};
use serde_json::Value;

/// Directory of the JS bench scripts.
pub fn js_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("js")
}

/// The scenario files in `js/` (every `.js` but the harness), sorted.
pub fn scenario_files() -> Vec<PathBuf> {
    let mut all: Vec<PathBuf> = std::fs::read_dir(js_dir())
        .map(|d| d.filter_map(|e| e.ok().map(|e| e.path())).collect())
        .unwrap_or_default();
    all.retain(|p| {
        p.extension().is_some_and(|e| e == "js") && p.file_name().is_some_and(|n| n != "harness.js")
    });
    all.sort();
    all
}

/// What the harness reads from `globalThis.__benchConfig`.
#[derive(Debug, Clone, Default)]
pub struct Config {
    /// Run every scenario with this N (0: each scenario's own N times `scale`).
    pub n: u64,
    /// Multiplier of each scenario's own N.
    pub scale: f64,
    /// Timed runs per scenario (the median is reported).
    pub repeat: u32,
    /// Only scenarios whose name contains this.
    pub filter: String,
    /// Tiny primitive calibrations (for smoke tests).
    pub quick: bool,
    /// Skip the floor calibration (profiling runs: only the scenarios run).
    pub no_floors: bool,
}

impl Config {
    fn to_js(&self) -> String {
        let config = serde_json::json!({
            "n": self.n,
            "scale": if self.scale > 0.0 { self.scale } else { 1.0 },
            "repeat": self.repeat.max(1),
            "filter": self.filter,
            "quick": self.quick,
            "floors": !self.no_floors,
        });
        format!("globalThis.__benchConfig = {config};\n")
    }
}

thread_local! {
    static LIVE_BYTES: Cell<i64> = const { Cell::new(0) };
}

/// A global allocator that counts the live bytes allocated by the current thread (no atomics:
/// the engine runs on one thread). `bench-js` installs it so the memory scenarios can read
/// `__liveBytes()`; without it `__liveBytes()` stays 0.
pub struct CountingAlloc;

fn count(delta: i64) {
    // `try_with`: the thread-local has no destructor, but stay safe during thread teardown.
    let _ = LIVE_BYTES.try_with(|c| c.set(c.get() + delta));
}

// SAFETY: every method forwards to `System` with the same arguments; counting only touches a
// thread-local `Cell<i64>` and never allocates.
unsafe impl GlobalAlloc for CountingAlloc {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let p = System.alloc(layout);
        if !p.is_null() {
            count(layout.size() as i64);
        }
        p
    }
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        let p = System.alloc_zeroed(layout);
        if !p.is_null() {
            count(layout.size() as i64);
        }
        p
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        System.dealloc(ptr, layout);
        count(-(layout.size() as i64));
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let p = System.realloc(ptr, layout, new_size);
        if !p.is_null() {
            count(new_size as i64 - layout.size() as i64);
        }
        p
    }
}

/// CPU time consumed by the calling thread, in nanoseconds (`CLOCK_THREAD_CPUTIME_ID`).
/// On a shared, loaded machine this is far steadier than wall time: time spent waiting for
/// a core is not counted.
pub fn thread_cpu_ns() -> u64 {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `ts` is a valid, writable timespec; the call only writes it.
    let rc = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) };
    if rc != 0 {
        return 0;
    }
    (ts.tv_sec as u64) * 1_000_000_000 + ts.tv_nsec as u64
}

/// Live bytes allocated by this thread (through [`CountingAlloc`], when installed).
pub fn live_bytes() -> i64 {
    LIVE_BYTES.with(Cell::get)
}

/// Run one scenario file on a fresh host with the fast paths on or off; returns the
/// harness's output (`{ primitives, results, memory }`). Errors if a scenario's validation
/// fails, the script throws, or a rejection stays unhandled. Call on a thread from
/// [`boa_streams_host::run_with_large_stack`].
pub fn run_file(path: &Path, fast_paths: bool, config: &Config) -> Result<Value, String> {
    boa_web::set_fast_paths(fast_paths);
    let mut host = Host::new(HostOptions {
        expose_gc: true,
        ..HostOptions::unrestricted()
    })
    .map_err(|e| e.to_string())?;
    host.context()
        .register_global_callable(
            js_string!("__liveBytes"),
            0,
            NativeFunction::from_fn_ptr(|_, _, _| Ok(JsValue::from(live_bytes() as f64))),
        )
        .map_err(|e| e.to_string())?;
    host.context()
        .register_global_callable(
            js_string!("__cpuNow"),
            0,
            NativeFunction::from_fn_ptr(|_, _, _| Ok(JsValue::from(thread_cpu_ns() as f64 / 1e6))),
        )
        .map_err(|e| e.to_string())?;
    install_native_files(host.context()).map_err(|e| e.to_string())?;
    let harness = read(&js_dir().join("harness.js"))?;
    host.eval_source(&config.to_js(), "config.js")
        .map_err(|e| e.to_string())?;
    host.eval_source(&harness, "harness.js")
        .map_err(|e| e.to_string())?;
    host.eval_file(path).map_err(|e| e.to_string())?;
    host.eval_source(
        "__bench.runAll().catch((e) => { __bench.error = String(e) + (e && e.stack ? '\\n' + e.stack : ''); });",
        "run.js",
    )
    .map_err(|e| e.to_string())?;
    match host.run_event_loop(None) {
        LoopOutcome::Idle => {}
        LoopOutcome::DeadlineReached => return Err("deadline reached".into()),
    }
    let errors = host.take_errors();
    if !errors.is_empty() {
        return Err(format!("{errors:?}"));
    }
    let out = host
        .eval_source(
            "__bench.error ? 'ERROR ' + __bench.error : JSON.stringify(__bench.output)",
            "out.js",
        )
        .map_err(|e| e.to_string())?;
    let text = out
        .as_string()
        .map(|s| s.to_std_string_escaped())
        .ok_or("no output")?;
    parse_output(&text)
}

/// `__nativeFiles` for `js/native-pipe.js`: files as native streams
/// (`boa_streams_host::native_file`) and the few file operations the scenario needs (Node's
/// run of the same file uses `fs` and its web-stream adapters instead).
fn install_native_files(ctx: &mut Context) -> JsResult<()> {
    fn path(args: &[JsValue], ctx: &mut Context) -> JsResult<PathBuf> {
        let p = args.first().cloned().unwrap_or_default().to_string(ctx)?;
        Ok(PathBuf::from(p.to_std_string_escaped()))
    }
    let dir = std::env::temp_dir().display().to_string();
    let files = ObjectInitializer::new(ctx)
        .property(js_string!("dir"), js_string!(dir), Attribute::all())
        .function(
            NativeFunction::from_fn_ptr(|_, args, ctx| {
                let p = path(args, ctx)?;
                Ok(file_readable_stream(&p, 64 * 1024, ctx)?.upcast().into())
            }),
            js_string!("open"),
            1,
        )
        .function(
            NativeFunction::from_fn_ptr(|_, args, ctx| {
                let p = path(args, ctx)?;
                Ok(file_writable_stream(&p, ctx)?.into())
            }),
            js_string!("create"),
            1,
        )
        .function(
            NativeFunction::from_fn_ptr(|_, args, ctx| {
                let p = path(args, ctx)?;
                let size = std::fs::metadata(&p)
                    .map_err(|e| JsNativeError::typ().with_message(e.to_string()))?
                    .len();
                Ok(JsValue::from(size as f64))
            }),
            js_string!("size"),
            1,
        )
        .function(
            NativeFunction::from_fn_ptr(|_, args, ctx| {
                let p = path(args, ctx)?;
                let _ = std::fs::remove_file(&p);
                Ok(JsValue::undefined())
            }),
            js_string!("remove"),
            1,
        )
        .build();
    ctx.register_global_property(js_string!("__nativeFiles"), files, Attribute::all())
}

fn parse_output(text: &str) -> Result<Value, String> {
    if let Some(e) = text.strip_prefix("ERROR ") {
        return Err(e.to_owned());
    }
    let v: Value = serde_json::from_str(text).map_err(|e| format!("bad output: {e}: {text}"))?;
    if v.is_null() {
        return Err("the scenarios did not finish".into());
    }
    Ok(v)
}

fn read(path: &Path) -> Result<String, String> {
    std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))
}

/// Run one scenario file under Node (`node --expose-gc`): the same harness and file, one
/// process.
pub fn run_file_node(node: &str, path: &Path, config: &Config) -> Result<Value, String> {
    let script = format!(
        "{}{}\n{}\n__bench.runAll().then((o) => console.log('__BENCH_JSON__' + JSON.stringify(o)), \
         (e) => {{ console.error(e); process.exit(1); }});\n",
        config.to_js(),
        read(&js_dir().join("harness.js"))?,
        read(path)?
    );
    let tmp = std::env::temp_dir().join(format!(
        "bench-js-{}-{}",
        std::process::id(),
        path.file_name().and_then(|n| n.to_str()).unwrap_or("x.js")
    ));
    std::fs::write(&tmp, script).map_err(|e| e.to_string())?;
    let out = std::process::Command::new(node)
        .arg("--expose-gc")
        .arg(&tmp)
        .output()
        .map_err(|e| format!("{node}: {e}"));
    let _ = std::fs::remove_file(&tmp);
    let out = out?;
    if !out.status.success() {
        return Err(format!(
            "node failed: {}",
            String::from_utf8_lossy(&out.stderr)
        ));
    }
    let stdout = String::from_utf8_lossy(&out.stdout);
    let line = stdout
        .lines()
        .find_map(|l| l.strip_prefix("__BENCH_JSON__"))
        .ok_or("node printed no results")?;
    parse_output(line)
}

/// Evaluate `setup` then time `body` (a JS expression producing a promise or value) through
/// the event loop; used by the criterion bench.
pub fn host_with(setup: &str) -> Host {
    let mut host = Host::new(HostOptions {
        print_errors: true,
        ..HostOptions::unrestricted()
    })
    .unwrap_or_else(|e| panic!("host: {e}"));
    if let Err(e) = host.eval_source(setup, "setup.js") {
        panic!("setup: {e}");
    }
    host.run_event_loop(None);
    host
}
