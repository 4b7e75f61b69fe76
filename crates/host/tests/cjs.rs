//! CommonJS and `process` in the `boa-streams` binary (fixtures under `tests/fixtures/cjs`):
//! require, the wrapper, the cache and cycles, JSON, conditions, require() of ES modules,
//! the ES module face of CommonJS files, built-in errors; process.env/argv/exit/exitCode/
//! nextTick, and SIGINT/SIGTERM delivered to a child process.

use std::io::{BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::time::Duration;

fn app() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/cjs/app")
}

fn temp_dir(test: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("boa-streams-cjs-{}-{test}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}

fn write(dir: &Path, name: &str, text: &str) {
    std::fs::write(dir.join(name), text).expect("write");
}

fn run_in(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_boa-streams"))
        .args(args)
        .current_dir(dir)
        .output()
        .expect("run boa-streams")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

fn ok_stdout(dir: &Path, args: &[&str]) -> String {
    let out = run_in(dir, args);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{args:?}: {}",
        text(&out.stderr)
    );
    text(&out.stdout)
}

#[test]
fn commonjs_program_requires_like_node() {
    let stdout = ok_stdout(&app(), &["main.js"]);
    let lines: Vec<&str> = stdout.lines().collect();
    let expected_start = [
        // A cycle sees the partial exports of the module still running.
        "cycle: a-early a-late early",
        "same object: true true",
        // Deleting the cache entry runs the file again.
        "cache: 1 2 true",
        // A module that throws leaves the cache: the next require runs it again.
        "throws: throws.js failed 1",
        "throws: throws.js failed 2",
        "json: 42 42",
        "names: A impl",
        "dir main: lib/index.js lib/index.js",
        // The `browser` field's object form: `false` is an empty module, a path replaces.
        "browser map: 0 object swapped",
        // "workerd" (then its "require") before "browser"; "edge-light" is active; "node"
        // is not.
        "conditions: workerd require edge",
        "require(esm): esm value esm default [object Module]",
    ];
    assert_eq!(
        lines.get(..expected_start.len()),
        Some(&expected_start[..]),
        "{stdout}"
    );
    let errors: Vec<&str> = lines
        .iter()
        .copied()
        .filter(|l| l.starts_with("error:"))
        .collect();
    assert_eq!(errors.len(), 4, "{stdout}");
    let checks: [&[&str]; 4] = [
        &[
            "TypeError",
            "Cannot require() ES module",
            "tla-dep/index.js",
            "tla-dep/inner.js uses top-level await",
            "main.js",
        ],
        &[
            "\"node:crypto\"",
            "uses-node/index.js (package \"uses-node\")",
            "\"crypto\" is a Node.js built-in module",
            "not supported",
        ],
        &["\"addon-pkg\"", "binding.node is a native addon"],
        &[
            "Cannot find module \"./missing\"",
            "nor with .js, .json or .node",
        ],
    ];
    for (line, needles) in errors.iter().zip(checks) {
        for needle in needles {
            assert!(line.contains(needle), "{needle:?} not in {line}");
        }
    }
    assert!(
        stdout.contains("module: . true function true\nwrapper: true true\n"),
        "{stdout}"
    );
    // The graph with top-level await did not run at all.
    let out = run_in(
        &app(),
        &[
            "-e",
            "import('tla-dep').then(() => console.log(globalThis.tlaRan))",
        ],
    );
    assert_eq!(text(&out.stdout), "true\n", "{}", text(&out.stderr));
}

#[test]
fn es_modules_import_commonjs_with_detected_names() {
    let stdout = ok_stdout(&app(), &["import.mjs"]);
    assert_eq!(
        stdout,
        "named: A B C D true star export\n\
         default: true object\n\
         reexport: impl\n\
         literal: 1 2 3 4 spread 1\n\
         keys: __esModule,a,b,c,d,default,fromExport,fromStar\n\
         cond import: workerd import\n"
    );
}

#[test]
fn a_missing_named_export_of_commonjs_says_commonjs_and_lists_the_names() {
    let dir = temp_dir("missing");
    write(
        &dir,
        "lib.cjs",
        "exports.present = 1; module.exports.other = 2;",
    );
    write(&dir, "main.mjs", "import { absent } from './lib.cjs';");
    let out = run_in(&dir, &["main.mjs"]);
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    for needle in [
        "\"./lib.cjs\"",
        "is a CommonJS module",
        "\"absent\"",
        "present, other",
        "main.mjs",
        "default export",
    ] {
        assert!(stderr.contains(needle), "{needle:?} not in {stderr}");
    }
}

#[test]
fn require_of_an_es_module_being_evaluated_is_a_cycle_error() {
    let dir = temp_dir("esm-cycle");
    write(
        &dir,
        "a.mjs",
        "import b from './b.cjs';\nconsole.log('b:', b);\nexport const a = 1;",
    );
    write(
        &dir,
        "b.cjs",
        "try { require('./a.mjs'); module.exports = 'no error'; } catch (e) { module.exports = e.message; }",
    );
    let stdout = ok_stdout(&dir, &["a.mjs"]);
    assert!(
        stdout.starts_with("b: Cannot require() ES module") && stdout.contains("in a cycle"),
        "{stdout}"
    );
    // A fresh ES module graph required from CommonJS imported by an ES module works.
    write(&dir, "c.mjs", "export const c = 'c';");
    write(&dir, "d.cjs", "module.exports = require('./c.mjs').c;");
    write(&dir, "e.mjs", "import d from './d.cjs'; console.log(d);");
    assert_eq!(ok_stdout(&dir, &["e.mjs"]), "c\n");
}

#[test]
fn entry_rules_for_commonjs() {
    let dir = temp_dir("entry");
    // .cjs runs as CommonJS: `this` is module.exports and `require` works.
    write(&dir, "lib.js", "exports.x = 'lib';");
    write(
        &dir,
        "main.cjs",
        "console.log(this === module.exports, require('./lib').x);",
    );
    assert_eq!(ok_stdout(&dir, &["main.cjs"]), "true lib\n");
    // --script keeps a classic script (no require).
    let out = run_in(&dir, &["--script", "main.cjs"]);
    assert!(
        text(&out.stderr).contains("is not defined"),
        "{}",
        text(&out.stderr)
    );
    // A syntax error names the file, line and column.
    write(&dir, "bad.cjs", "const ok = 1;\nlet let = 2;\n");
    let out = run_in(&dir, &["bad.cjs"]);
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains("SyntaxError") && stderr.contains("bad.cjs:2:"),
        "{stderr}"
    );
}

/// `process.env` under `--permission`: denied without `--allow-env` (a TypeError naming the
/// capability), the environment with it.
#[test]
fn process_env_follows_the_env_capability() {
    let dir = temp_dir("env-capability");
    write(
        &dir,
        "main.cjs",
        "try { console.log(process.env.BOA_CJS_TEST); } catch (e) { console.log(e.name + ': ' + e.message); }\n",
    );
    let run = |flags: &[&str]| {
        let out = Command::new(env!("CARGO_BIN_EXE_boa-streams"))
            .args(flags)
            .arg("main.cjs")
            .current_dir(std::fs::canonicalize(&dir).expect("dir"))
            .env("BOA_CJS_TEST", "from env")
            .output()
            .expect("run");
        assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
        text(&out.stdout)
    };
    assert_eq!(
        run(&["--permission"]),
        "TypeError: process.env denied: reading the environment needs the env capability (--allow-env)\n"
    );
    assert_eq!(run(&["--permission", "--allow-env"]), "from env\n");
    assert_eq!(run(&[]), "from env\n");
}

#[test]
fn process_basics() {
    let dir = temp_dir("process");
    write(
        &dir,
        "main.cjs",
        "const order = [];\n\
         Promise.resolve().then(() => order.push('promise'));\n\
         process.nextTick((a, b) => order.push('tick ' + a + b), 1, 2);\n\
         setTimeout(() => console.log(order.join(',')), 0);\n\
         console.log(process.argv.slice(1).map((a) => a.split('/').pop()).join(' '));\n\
         console.log(process.env.BOA_CJS_TEST, typeof process.env.PATH);\n\
         console.log(process.cwd() === __dirname, process.platform, 'node' in process.versions, process.version);\n\
         console.log(typeof process.versions.boa_streams, process.argv[0] === process.execPath);\n\
         try { process.nextTick(1); } catch (e) { console.log(e.name); }\n\
         process.stdout.write('partial ');\n\
         process.stdout.write('line\\n');\n\
         process.exitCode = 7;\n",
    );
    let out = Command::new(env!("CARGO_BIN_EXE_boa-streams"))
        .args(["main.cjs", "one", "two"])
        .current_dir(std::fs::canonicalize(&dir).expect("dir"))
        .env("BOA_CJS_TEST", "from env")
        .output()
        .expect("run");
    assert_eq!(out.status.code(), Some(7), "{}", text(&out.stderr));
    assert_eq!(
        text(&out.stdout),
        "main.cjs one two\n\
         from env string\n\
         true linux false undefined\n\
         string true\n\
         TypeError\n\
         partial line\n\
         tick 12,promise\n"
    );
}

#[test]
fn process_exit_ends_the_run_at_once() {
    let dir = temp_dir("exit");
    write(
        &dir,
        "main.mjs",
        "setTimeout(() => console.log('timer must not run'), 0);\n\
         queueMicrotask(() => console.log('microtask must not run'));\n\
         try { process.exit(9); } catch { console.log('caught'); } finally { console.log('finally'); }\n\
         console.log('after exit');\n",
    );
    let out = run_in(&dir, &["main.mjs"]);
    assert_eq!(out.status.code(), Some(9), "{}", text(&out.stderr));
    assert_eq!(text(&out.stdout), "");
    assert_eq!(text(&out.stderr), "");
    // From a timer, with the default code (exitCode, else 0), and errors before it do not
    // change the code.
    write(&dir, "later.js", "process.exitCode = 4; setTimeout(() => process.exit(), 1); setTimeout(() => console.log('no'), 50);");
    let out = run_in(&dir, &["later.js"]);
    assert_eq!(out.status.code(), Some(4));
    assert_eq!(text(&out.stdout), "");
    let out = run_in(&dir, &["-e", "process.exit(1.5)"]);
    assert!(
        text(&out.stderr).contains("RangeError"),
        "{}",
        text(&out.stderr)
    );
}

/// Spawn `boa-streams script` in `dir` with piped output, wait for its first stdout line.
fn spawn_until_ready(
    dir: &Path,
    script: &str,
) -> (Child, BufReader<std::process::ChildStdout>, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_boa-streams"))
        .arg(script)
        .current_dir(dir)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn");
    let mut stdout = BufReader::new(child.stdout.take().expect("stdout"));
    let mut first = String::new();
    stdout.read_line(&mut first).expect("ready line");
    (child, stdout, first)
}

fn kill(child: &Child, signal: &str) {
    let status = Command::new("kill")
        .args([signal, &child.id().to_string()])
        .status()
        .expect("kill");
    assert!(status.success());
}

/// Wait for `child` (at most about 20 s).
fn wait_bounded(child: &mut Child) -> Option<i32> {
    for _ in 0..400 {
        if let Some(status) = child.try_wait().expect("wait") {
            return status.code();
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    let _ = child.kill();
    panic!("the child did not exit");
}

#[cfg(all(target_os = "linux", target_env = "gnu"))]
#[test]
fn signals_reach_listeners_or_end_the_process() {
    let dir = temp_dir("signals");
    // No listener: SIGTERM and SIGINT end the process (128 + signal).
    write(
        &dir,
        "idle.js",
        "setInterval(() => {}, 1000); console.log('ready');",
    );
    for (signal, code) in [("-TERM", 143), ("-INT", 130)] {
        let (mut child, _, ready) = spawn_until_ready(&dir, "idle.js");
        assert_eq!(ready, "ready\n");
        kill(&child, signal);
        assert_eq!(wait_bounded(&mut child), Some(code), "{signal}");
    }
    // A listener gets the signal; the program decides when to end.
    write(
        &dir,
        "listen.js",
        "const timer = setInterval(() => {}, 1000);\n\
         process.once('SIGTERM', (name) => { console.log('got', name); clearInterval(timer); });\n\
         console.log('ready');",
    );
    let (mut child, mut stdout, ready) = spawn_until_ready(&dir, "listen.js");
    assert_eq!(ready, "ready\n");
    kill(&child, "-TERM");
    assert_eq!(wait_bounded(&mut child), Some(0));
    let mut rest = String::new();
    stdout.read_to_string(&mut rest).expect("read");
    assert_eq!(rest, "got SIGTERM\n");
}

#[cfg(all(target_os = "linux", target_env = "gnu"))]
#[test]
fn sigterm_listener_drains_a_server() {
    let dir = temp_dir("drain");
    // The handler answers after a SIGTERM arrived: shutdown() lets that response finish.
    write(
        &dir,
        "server.js",
        "let release;\n\
         const gate = new Promise((r) => { release = r; });\n\
         const server = BoaStreams.serve({ hostname: '127.0.0.1', port: 0 }, async () => {\n\
           console.log('handling');\n\
           await gate;\n\
           return new Response('drained body');\n\
         });\n\
         process.on('SIGTERM', () => { console.log('draining'); server.shutdown(); release(); });\n\
         server.finished.then(() => console.log('finished'));\n\
         console.log(server.addr.port);",
    );
    let (mut child, mut stdout, port) = spawn_until_ready(&dir, "server.js");
    let port: u16 = port.trim().parse().expect("port");
    let mut socket = std::net::TcpStream::connect(("127.0.0.1", port)).expect("connect");
    socket
        .set_read_timeout(Some(Duration::from_secs(20)))
        .expect("timeout");
    socket
        .write_all(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
        .expect("request");
    let mut line = String::new();
    stdout.read_line(&mut line).expect("handling");
    assert_eq!(line, "handling\n");
    kill(&child, "-TERM");
    let mut response = String::new();
    socket.read_to_string(&mut response).expect("response");
    assert!(response.starts_with("HTTP/1.1 200"), "{response}");
    assert!(response.ends_with("drained body"), "{response}");
    assert_eq!(wait_bounded(&mut child), Some(0));
    let mut rest = String::new();
    stdout.read_to_string(&mut rest).expect("read");
    assert_eq!(rest, "draining\nfinished\n");
}
