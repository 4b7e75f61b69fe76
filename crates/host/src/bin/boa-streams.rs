//! `boa-streams FILE.js [args]`: run a script in the boa_streams host (see `--help`).

use std::path::PathBuf;
use std::process::ExitCode;

use boa_streams_host::{exit_code, run_with_large_stack, Host, HostOptions};

const HELP: &str = "\
boa-streams: run a JavaScript file in Boa with the WHATWG Streams globals

USAGE:
    boa-streams [OPTIONS] FILE.js [ARGS...]

The script runs as a classic script, then the event loop runs until no microtask, timer or
async job is left. Everything after FILE.js is passed to the script as the global array
`scriptArgs` (strings).

Globals: console, setTimeout/setInterval/clearTimeout/clearInterval, queueMicrotask,
structuredClone, atob/btoa, URL, self, performance.now(), performance.timeOrigin,
scriptArgs, ErrorEvent, the streams, encoding (TextEncoder/TextDecoder) and DOM interfaces of
boa_streams (with structuredClone, MessageChannel), Worker (a script on its own thread; URLs
resolve against the main script's directory), and gc() with --expose-gc. An uncaught exception
fires an `error` event at the global first (a listener that calls preventDefault() handles it).

OPTIONS:
    --expose-gc       define a global gc() that runs a full garbage collection
    --virtual-time    timers fire without waiting (the clock jumps to the next timer)
    -h, --help        print this help

EXIT CODES:
    0    the script and the event loop finished with no error
    1    an uncaught exception (in the script or in a job)
    2    usage error (bad arguments, unreadable file)
    3    an unhandled promise rejection (and no uncaught exception)
    70   the engine panicked

Errors are printed to stderr as they are reported; the event loop goes on after an error
(as in a browser), the exit code says what happened.
";

struct Args {
    options: HostOptions,
    file: PathBuf,
    script_args: Vec<String>,
}

enum Parsed {
    Run(Args),
    Help,
    Usage(String),
}

fn parse_args(mut args: impl Iterator<Item = String>) -> Parsed {
    let mut options = HostOptions::default();
    let file = loop {
        let Some(arg) = args.next() else {
            return Parsed::Usage("missing FILE.js".into());
        };
        match arg.as_str() {
            "-h" | "--help" => return Parsed::Help,
            "--expose-gc" | "--expose_gc" => options.expose_gc = true,
            "--virtual-time" => options.virtual_time = true,
            "--" => match args.next() {
                Some(file) => break file,
                None => return Parsed::Usage("missing FILE.js after --".into()),
            },
            flag if flag.starts_with('-') && flag != "-" => {
                return Parsed::Usage(format!("unknown option {flag}"))
            }
            _ => break arg,
        }
    };
    Parsed::Run(Args {
        options,
        file: PathBuf::from(file),
        script_args: args.collect(),
    })
}

fn run(args: Args) -> i32 {
    let source = match std::fs::read_to_string(&args.file) {
        Ok(source) => source,
        Err(e) => {
            eprintln!("boa-streams: cannot read {}: {e}", args.file.display());
            return exit_code::USAGE;
        }
    };
    let mut host = match Host::new(args.options) {
        Ok(host) => host,
        Err(e) => {
            eprintln!("boa-streams: cannot set up the host: {e}");
            return exit_code::UNCAUGHT_ERROR;
        }
    };
    if let Err(e) = host.set_script_args(&args.script_args) {
        eprintln!("boa-streams: cannot set scriptArgs: {e}");
        return exit_code::UNCAUGHT_ERROR;
    }
    if let Some(dir) = args.file.parent() {
        host.set_script_base(dir);
    }
    let name = args.file.to_string_lossy().into_owned();
    if let Err(e) = host.eval_source(&source, &name) {
        // HTML: report the exception, then the event loop goes on.
        host.report_exception(e);
    }
    host.run_event_loop(None);
    exit_code::for_errors(&host.take_errors())
}

fn main() -> ExitCode {
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
            eprintln!("boa-streams: {message}\nusage: boa-streams [OPTIONS] FILE.js [ARGS...] (see --help)");
            return to_exit_code(exit_code::USAGE);
        }
    };
    let code = match run_with_large_stack(move || run(args)) {
        Ok(code) => code,
        Err(panic) => {
            eprintln!("boa-streams: engine panic: {panic}");
            exit_code::ENGINE_PANIC
        }
    };
    to_exit_code(code)
}

fn to_exit_code(code: i32) -> ExitCode {
    ExitCode::from(u8::try_from(code).unwrap_or(1))
}
