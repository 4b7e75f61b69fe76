//! `boa-streams FILE [args]`: run a module or script in the boa_streams host (see `--help`).

use std::io::Read;
use std::path::PathBuf;
use std::process::ExitCode;

use boa_streams_host::boa_engine::builtins::promise::PromiseState;
use boa_streams_host::capabilities::HostPort;
use boa_streams_host::limits::{CountingAllocator, Limits};
use boa_streams_host::{
    exit_code, run_with_large_stack, Capabilities, Host, HostOptions, SignalHandle,
};

/// The signal handles of the running copies of the program (see `signals`).
static SIGNAL_HANDLES: std::sync::Mutex<Vec<SignalHandle>> = std::sync::Mutex::new(Vec::new());

/// Counts the bytes in use, for `--max-heap-mib` (boa_streams_host::limits).
#[global_allocator]
static ALLOCATOR: CountingAllocator = CountingAllocator;

const HELP: &str = "\
boa-streams: run a JavaScript file in Boa with the WHATWG Streams globals

USAGE:
    boa-streams [OPTIONS] FILE [ARGS...]
    boa-streams [OPTIONS] -e CODE [ARGS...]
    boa-streams [OPTIONS] - [ARGS...]          (the program is read from stdin)

The program runs as an ES module or as a classic script, then the event loop runs until no
microtask, timer or async job is left (while a module's top-level await waits, timers and
tasks go on). Everything after the program is passed to it as the global array `scriptArgs`
(strings).

MODULE OR SCRIPT:
    --module / --script decide. Otherwise FILE runs as a module if it ends in .mjs, as
    CommonJS if it ends in .cjs; for another file the \"type\" of the nearest package.json
    decides (\"module\" or \"commonjs\"). Failing all that (and for -e and -), the program is
    a module if it fails to parse as a script but parses as a module (it uses import/export
    or top-level await), else a script.

MODULES:
    Imports resolve as: relative and absolute paths and file: URLs (no extension is added);
    #name from the \"imports\" of the nearest package.json; other names are packages found in
    node_modules walking up from the importing file, through package.json \"exports\"
    (subpath patterns with *; null hides a subpath) and else \"module\", \"main\", index.js.
    Conditions, matched in the package's key order: boa-streams, workerd, edge-light, worker,
    browser, then import and module (require for require()), then default. JSON modules need
    `with { type: \"json\" }`. import.meta has url, filename, dirname and resolve(). Each file
    is evaluated once. CommonJS (.cjs, and .js under \"type\": \"commonjs\" or without a type
    and without import/export) runs with require, module, exports, __filename, __dirname;
    importing it gives module.exports as default and the names found in its source. Not
    supported: node: built-ins, native addons (.node), URLs other than file:.

SERVER FRAMEWORKS:
    Serve an app's fetch handler with BoaStreams.serve({ hostname, port }, app.fetch) (Hono,
    h3, itty-router, ...). A framework's own serve(app) that picks its runtime adapter by
    export conditions (h3 2.x through srvx) gets the Workers (workerd) adapter here, which
    registers a \"fetch\" event listener and does not listen.

Globals: console, setTimeout/setInterval/clearTimeout/clearInterval, queueMicrotask,
structuredClone, atob/btoa, URL, self, performance.now(), performance.timeOrigin,
scriptArgs, ErrorEvent, the streams, encoding (TextEncoder/TextDecoder) and DOM interfaces of
boa_streams (with structuredClone, MessageChannel), Worker (a script on its own thread, or a
module with { type: \"module\" }; URLs resolve against the main program's directory), and
gc() with --expose-gc. An uncaught exception fires an `error` event at the global first (a
listener that calls preventDefault() handles it).

OPTIONS:
    --module          run the program as an ES module
    --script          run the program as a classic script
    -e CODE           run CODE (the current directory is its base for imports)
    -                 read the program from stdin
    --expose-gc       define a global gc() that runs a full garbage collection
    --virtual-time    timers fire without waiting (the clock jumps to the next timer)
    --serve-threads N run the program N times at once, each on its own thread with its own
                      context (a server on several cores: BoaStreams.serve({ reusePort: true })
                      in each copy shares one listener, port 0 included, and each request goes
                      to whichever copy takes it next); the exit code is the worst one
    --cpu-time-limit-ms=N
                      stop the program once its thread has spent N ms of CPU time (a tight
                      loop, a long native call, an endless promise chain): not catchable by
                      the script; exit code 1 with \"LimitExceeded: CPU time limit\"
    --max-heap-mib=N  heap budget of N MiB (all memory the process allocates): a single
                      allocation that does not fit (ArrayBuffer, typed array, repeat())
                      throws a RangeError; passing the budget stops the program (exit 1,
                      \"LimitExceeded: heap limit\")
    -h, --help        print this help

PERMISSIONS (least authority, as Node's permission model):
    Without --permission a program may do everything the process may (as in Node and Bun).
    With it, only what is granted; a denied operation throws or rejects with a TypeError
    naming the capability and the flag, e.g. \"fetch of file:///etc/passwd denied: reading
    files needs the fs-read capability (--allow-fs-read)\".
    --permission                 turn restriction on: no network, no file outside the
                                 program's own directory tree (always readable for imports
                                 and file: fetches), no workers, no environment
    --allow-fs-read[=PATH,...]   read files inside these directories too (file: fetches,
                                 imports); bare or =*: any file
    --allow-net[=HOST[:PORT],...]  fetch() to these hosts (every port of a HOST without one;
                                 URLs without a port use their scheme's, checked on every
                                 redirect) and BoaStreams.serve() on these hostnames (port 0
                                 needs an entry without a port); bare: any host
    --allow-worker               new Worker() (workers inherit these permissions)
    --allow-env                  read the environment
    The program's own tree is the directory of FILE and everything below it; -e and stdin
    programs have none (grant it with --allow-fs-read=.).

EXIT CODES:
    0    the program and the event loop finished with no error
    1    an uncaught exception (in the program, a module it imports, or a job), a module
         that cannot be found or parsed, or a top-level await that never settled
    2    usage error (bad arguments, unreadable file)
    3    an unhandled promise rejection (and no uncaught exception)
    70   the engine panicked

Errors are printed to stderr as they are reported; the event loop goes on after an error
(as in a browser), the exit code says what happened.

MEMORY (glibc on Linux):
    The allocator keeps up to 32 MiB of freed memory per heap instead of returning it to the
    system after every garbage collection (blocks of 1 MiB and more are mapped apart), so the
    64 KiB chunks a stream makes reuse warm memory. MALLOC_TRIM_THRESHOLD_,
    MALLOC_MMAP_THRESHOLD_ or GLIBC_TUNABLES in the environment leave glibc's own settings.
";

/// Keep freed memory for reuse: glibc returns the free top of a heap to the system (madvise)
/// once it passes 128 KiB, so after a collection frees the dead chunks a stream made, the
/// next chunks fault their pages in again (measured on a server streaming 64 KiB chunks:
/// page faults were a quarter of the script thread's time; docs/perf/net-2026-12-04.md).
/// Skipped when the environment sets glibc's own malloc parameters.
#[cfg(all(target_os = "linux", target_env = "gnu"))]
fn tune_allocator() {
    let set_by_user = [
        "MALLOC_TRIM_THRESHOLD_",
        "MALLOC_MMAP_THRESHOLD_",
        "GLIBC_TUNABLES",
    ]
    .iter()
    .any(|name| std::env::var_os(name).is_some());
    if set_by_user {
        return;
    }
    // SAFETY: mallopt only changes the allocator's parameters (it takes the allocator's own
    // lock); it is called first thing in main, before any other thread exists.
    unsafe {
        libc::mallopt(libc::M_MMAP_THRESHOLD, 1 << 20);
        libc::mallopt(libc::M_TRIM_THRESHOLD, 32 << 20);
    }
}

#[cfg(not(all(target_os = "linux", target_env = "gnu")))]
fn tune_allocator() {}

/// Where the program comes from.
#[derive(Clone)]
enum Program {
    File(PathBuf),
    Eval(String),
    Stdin,
}

#[derive(Clone)]
struct Args {
    options: HostOptions,
    /// `--cpu-time-limit-ms`, `--max-heap-mib`.
    limits: Limits,
    /// `--serve-threads N`: copies of the program run at once (1: just this one).
    threads: usize,
    program: Program,
    /// `Some(true)` for `--module`, `Some(false)` for `--script`.
    module: Option<bool>,
    script_args: Vec<String>,
}

enum Parsed {
    Run(Args),
    Help,
    Usage(String),
}

/// The grants of `--allow-*` flags (they take effect with `--permission`).
fn grant(flag: &str, capabilities: Capabilities) -> Result<Capabilities, String> {
    let (name, value) = match flag.split_once('=') {
        Some((name, value)) => (name, Some(value)),
        None => (flag, None),
    };
    let list = |value: &str| -> Vec<String> {
        value
            .split(',')
            .map(str::trim)
            .filter(|v| !v.is_empty())
            .map(str::to_owned)
            .collect()
    };
    match (name, value) {
        ("--allow-fs-read", None | Some("*")) => Ok(capabilities.allow_fs_read_any()),
        ("--allow-fs-read", Some(paths)) => {
            let paths = list(paths);
            if paths.is_empty() {
                return Err("--allow-fs-read= needs a PATH".into());
            }
            let cwd = std::env::current_dir().unwrap_or_default();
            Ok(capabilities.allow_fs_read(paths.iter().map(|p| cwd.join(p))))
        }
        ("--allow-net", None | Some("*")) => Ok(capabilities.allow_net_any().allow_listen_any()),
        ("--allow-net", Some(hosts)) => {
            let hosts = list(hosts);
            if hosts.is_empty() {
                return Err("--allow-net= needs a HOST".into());
            }
            for host in &hosts {
                HostPort::parse(host).map_err(|e| format!("--allow-net: {e}"))?;
            }
            Ok(capabilities.allow_net(&hosts).allow_listen(&hosts))
        }
        ("--allow-worker", None) => Ok(capabilities.allow_worker()),
        ("--allow-env", None) => Ok(capabilities.allow_env()),
        _ => Err(format!("unknown option {flag}")),
    }
}

fn parse_args(mut args: impl Iterator<Item = String>) -> Parsed {
    let mut options = HostOptions::default();
    let mut limits = Limits::default();
    let mut module = None;
    let mut threads = 1;
    // `--permission` and the grants of `--allow-*`.
    let mut permission = false;
    let mut grants = Capabilities::default();
    let program = loop {
        let Some(arg) = args.next() else {
            return Parsed::Usage("missing FILE".into());
        };
        match arg.as_str() {
            "--permission" => permission = true,
            flag if flag.starts_with("--allow-") => match grant(flag, grants) {
                Ok(g) => grants = g,
                Err(message) => return Parsed::Usage(message),
            },
            "-h" | "--help" => return Parsed::Help,
            "--expose-gc" | "--expose_gc" => options.expose_gc = true,
            "--virtual-time" => options.virtual_time = true,
            "--module" => module = Some(true),
            "--serve-threads" => match args.next().and_then(|n| n.parse::<usize>().ok()) {
                Some(n @ 1..=256) => threads = n,
                _ => return Parsed::Usage("--serve-threads needs a count from 1 to 256".into()),
            },
            "--script" => module = Some(false),
            flag if flag.starts_with("--cpu-time-limit-ms=")
                || flag.starts_with("--max-heap-mib=") =>
            {
                if let Err(message) = parse_limit(flag, &mut limits) {
                    return Parsed::Usage(message);
                }
            }
            "-e" | "--eval" => match args.next() {
                Some(code) => break Program::Eval(code),
                None => return Parsed::Usage(format!("missing CODE after {arg}")),
            },
            "-" => break Program::Stdin,
            "--" => match args.next() {
                Some(file) => break Program::File(PathBuf::from(file)),
                None => return Parsed::Usage("missing FILE after --".into()),
            },
            flag if flag.starts_with('-') => {
                return Parsed::Usage(format!("unknown option {flag}"))
            }
            _ => break Program::File(PathBuf::from(arg)),
        }
    };
    // Without --permission, everything is allowed (as today, and as in Node and Bun).
    options.capabilities = if permission {
        grants
    } else {
        Capabilities::unrestricted()
    };
    Parsed::Run(Args {
        options,
        limits,
        threads,
        program,
        module,
        script_args: args.collect(),
    })
}

/// `--cpu-time-limit-ms=N` or `--max-heap-mib=N` into `limits`.
fn parse_limit(flag: &str, limits: &mut Limits) -> Result<(), String> {
    let (name, value) = flag.split_once('=').unwrap_or((flag, ""));
    let n = value
        .parse::<u64>()
        .ok()
        .filter(|n| *n > 0)
        .ok_or_else(|| format!("{name} needs a positive whole number, not {value:?}"))?;
    if name == "--cpu-time-limit-ms" {
        limits.cpu_time = Some(std::time::Duration::from_millis(n));
    } else {
        let bytes = usize::try_from(n)
            .ok()
            .and_then(|n| n.checked_mul(1 << 20))
            .ok_or_else(|| format!("{name}={n} is too large"))?;
        limits.max_heap_bytes = Some(bytes);
    }
    Ok(())
}

fn run(args: Args) -> i32 {
    let (source, file) = match &args.program {
        Program::File(path) => match std::fs::read_to_string(path) {
            Ok(source) => (source, Some(path.clone())),
            Err(e) => {
                eprintln!("boa-streams: cannot read {}: {e}", path.display());
                return exit_code::USAGE;
            }
        },
        Program::Eval(code) => (code.clone(), None),
        Program::Stdin => {
            let mut source = String::new();
            if let Err(e) = std::io::stdin().read_to_string(&mut source) {
                eprintln!("boa-streams: cannot read stdin: {e}");
                return exit_code::USAGE;
            }
            (source, None)
        }
    };
    let mut host = match Host::new(args.options) {
        Ok(host) => host,
        Err(e) => {
            eprintln!("boa-streams: cannot set up the host: {e}");
            return exit_code::UNCAUGHT_ERROR;
        }
    };
    host.set_limits(args.limits);
    #[cfg(debug_assertions)]
    install_test_engine_panic(&mut host);
    if let Err(e) = host.set_script_args(&args.script_args) {
        eprintln!("boa-streams: cannot set scriptArgs: {e}");
        return exit_code::UNCAUGHT_ERROR;
    }
    if let Ok(mut handles) = SIGNAL_HANDLES.lock() {
        handles.push(host.signal_handle());
    }
    let is_module = args
        .module
        .unwrap_or_else(|| host.is_module_program(file.as_deref(), &source));
    let commonjs = args.module.is_none()
        && !is_module
        && file.as_deref().is_some_and(|f| host.is_commonjs_file(f));
    // The name of a program without a file (its imports resolve from the current directory).
    let name = match (&args.program, &file) {
        (_, Some(file)) => file.clone(),
        (Program::Stdin, None) => PathBuf::from("[stdin]"),
        _ => PathBuf::from("[eval]"),
    };
    if is_module {
        let evaluation = match &file {
            Some(file) => host.eval_module_file(file),
            None => host.eval_module_source(&source, &name),
        };
        match evaluation {
            Ok(promise) => {
                host.run_event_loop(None);
                if let Some(code) = host.exit_requested() {
                    return code;
                }
                if matches!(promise.state(), PromiseState::Pending) {
                    eprintln!(
                        "boa-streams: {}: the module's top-level await never settled (nothing left to wait for)",
                        name.display()
                    );
                    return exit_code::UNCAUGHT_ERROR;
                }
            }
            Err(e) => {
                host.report_exception(e);
                host.run_event_loop(None);
            }
        }
        return final_code(&mut host);
    }
    if let (true, Some(file)) = (commonjs, file.as_deref()) {
        if let Err(e) = host.eval_commonjs_source(&source, file) {
            host.report_exception(e);
        }
        host.run_event_loop(None);
        return final_code(&mut host);
    }
    if let Some(file) = file.as_deref() {
        host.set_main_script(file);
    }
    if let Err(e) = host.eval_source(&source, &name.to_string_lossy()) {
        // HTML: report the exception, then the event loop goes on.
        host.report_exception(e);
    }
    host.run_event_loop(None);
    final_code(&mut host)
}

/// The exit code of a finished run: `process.exit(code)`'s, else the errors', else
/// `process.exitCode`.
fn final_code(host: &mut Host) -> i32 {
    if let Some(code) = host.exit_requested() {
        return code;
    }
    match exit_code::for_errors(&host.take_errors()) {
        exit_code::OK => host.process_exit_code().unwrap_or(exit_code::OK),
        code => code,
    }
}

/// SIGINT and SIGTERM: a thread waits for them (they are blocked in every other thread) and
/// hands each to the programs' `process.on(...)` listeners; with none, the process exits at
/// once with 128 + the signal's number, as Node's does.
#[cfg(all(target_os = "linux", target_env = "gnu"))]
fn handle_signals() {
    use boa_streams_host::Signal;
    // SAFETY: sigset_t is plain data that sigemptyset initializes; pthread_sigmask only
    // changes this thread's mask, before any other thread exists (they inherit it).
    let set = unsafe {
        let mut set: libc::sigset_t = std::mem::zeroed();
        libc::sigemptyset(&mut set);
        libc::sigaddset(&mut set, libc::SIGINT);
        libc::sigaddset(&mut set, libc::SIGTERM);
        if libc::pthread_sigmask(libc::SIG_BLOCK, &set, std::ptr::null_mut()) != 0 {
            return;
        }
        set
    };
    let spawned = std::thread::Builder::new()
        .name("boa-streams-signals".into())
        .spawn(move || loop {
            let mut number: libc::c_int = 0;
            // SAFETY: `set` is an initialized signal set and `number` a valid out pointer.
            if unsafe { libc::sigwait(&set, &mut number) } != 0 {
                continue;
            }
            let signal = match number {
                libc::SIGINT => Signal::Interrupt,
                libc::SIGTERM => Signal::Terminate,
                _ => continue,
            };
            // Every copy gets the signal (no short cut after the first listener).
            let delivered = SIGNAL_HANDLES.lock().is_ok_and(|handles| {
                handles
                    .iter()
                    .map(|handle| handle.deliver(signal))
                    .collect::<Vec<_>>()
                    .contains(&true)
            });
            if !delivered {
                std::process::exit(128 + signal.number());
            }
        });
    if spawned.is_err() {
        // No thread to wait for them: let the signals act as they would.
        // SAFETY: as above, on this thread's own mask.
        unsafe {
            libc::pthread_sigmask(libc::SIG_UNBLOCK, &set, std::ptr::null_mut());
        }
    }
}

#[cfg(not(all(target_os = "linux", target_env = "gnu")))]
fn handle_signals() {}

fn main() -> ExitCode {
    tune_allocator();
    handle_signals();
    let args = match parse_args(
        std::env::args_os()
            .skip(1)
            .map(|a| a.to_string_lossy().into_owned()),
    ) {
        Parsed::Run(args) => args,
        Parsed::Help => {
            print!("{HELP}");
            return ExitCode::from(0);
        }
        Parsed::Usage(message) => {
            eprintln!("boa-streams: {message}\nusage: boa-streams [OPTIONS] FILE|-e CODE|- [ARGS...] (see --help)");
            return to_exit_code(exit_code::USAGE);
        }
    };
    // `--serve-threads N`: N - 1 more copies of the program, each on its own thread (the
    // stdin program is read once, here, and handed to every copy).
    let mut args = args;
    if args.threads > 1 {
        if let Program::Stdin = args.program {
            let mut source = String::new();
            if let Err(e) = std::io::stdin().read_to_string(&mut source) {
                eprintln!("boa-streams: cannot read stdin: {e}");
                return to_exit_code(exit_code::USAGE);
            }
            args.program = Program::Eval(source);
        }
    }
    let copies: Vec<_> = (1..args.threads)
        .map(|_| {
            let args = args.clone();
            std::thread::spawn(move || run_copy(args))
        })
        .collect();
    let mut code = run_copy(args);
    for copy in copies {
        let other = copy.join().unwrap_or(exit_code::ENGINE_PANIC);
        code = code.max(other);
    }
    to_exit_code(code)
}

/// Debug builds only: with `BOA_STREAMS_TEST_ENGINE_PANIC` set in the environment, the global
/// function `__boaStreamsTestEnginePanic()` panics inside script execution, so the tests can
/// exercise the engine-panic path (exit code 70) without relying on an engine bug.
#[cfg(debug_assertions)]
fn install_test_engine_panic(host: &mut Host) {
    use boa_streams_host::boa_engine::{js_string, JsValue, NativeFunction};
    if std::env::var_os("BOA_STREAMS_TEST_ENGINE_PANIC").is_none() {
        return;
    }
    let panic = NativeFunction::from_fn_ptr(|_, _, _| -> Result<JsValue, _> {
        panic!("test engine panic (BOA_STREAMS_TEST_ENGINE_PANIC)")
    });
    if let Err(e) =
        host.context()
            .register_global_callable(js_string!("__boaStreamsTestEnginePanic"), 0, panic)
    {
        eprintln!("boa-streams: cannot install the test engine panic: {e}");
    }
}

/// Run one copy of the program on a large-stack thread.
fn run_copy(args: Args) -> i32 {
    match run_with_large_stack(move || run(args)) {
        Ok(code) => code,
        Err(panic) => {
            eprintln!("boa-streams: engine panic: {panic}");
            exit_code::ENGINE_PANIC
        }
    }
}

fn to_exit_code(code: i32) -> ExitCode {
    ExitCode::from(u8::try_from(code).unwrap_or(1))
}
