//! What docs/embedding.md shows: `Host::import_module` and calls into a module's exports,
//! errors naming the file, JSON modules parsed as `JSON.parse` parses, and the raw TCP
//! server example over loopback.

use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::time::Duration;

use boa_engine::{js_string, JsValue};
use boa_streams_host::{run_with_large_stack, Capabilities, Host, HostOptions};

#[path = "../examples/tcp_server.rs"]
mod tcp_server;

fn temp_dir(test: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!(
        "boa-streams-embedding-{}-{test}",
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path
}

/// A host that may read the temporary directories these tests write their modules to.
fn quiet_host() -> Host {
    Host::new(HostOptions {
        print_errors: false,
        capabilities: Capabilities::default().allow_fs_read([std::env::temp_dir()]),
        ..HostOptions::default()
    })
    .unwrap()
}

fn string(host: &mut Host, expr: &str) -> String {
    let value = host.eval_source(expr, "check.js").unwrap();
    value
        .to_string(host.context())
        .unwrap()
        .to_std_string_escaped()
}

#[test]
fn import_module_returns_the_namespace_and_evaluates_once() {
    run_with_large_stack(|| {
        let dir = temp_dir("namespace");
        write(
            &dir,
            "dep.mjs",
            "globalThis.evaluations = (globalThis.evaluations ?? 0) + 1; export const base = 40;",
        );
        let lib = write(
            &dir,
            "lib.mjs",
            "import { base } from './dep.mjs';
             await new Promise((resolve) => setTimeout(resolve, 2));
             export const ready = true;
             export function add(x) { return base + x; }
             export default 'the default';",
        );
        let mut host = quiet_host();
        let spec = lib.to_str().unwrap();
        let ns = host.import_module(spec).unwrap();
        let add = ns.get(js_string!("add"), host.context()).unwrap();
        let sum = add
            .as_callable()
            .unwrap()
            .call(&JsValue::undefined(), &[2.into()], host.context())
            .unwrap();
        assert_eq!(sum.as_number(), Some(42.0));
        assert_eq!(
            ns.get(js_string!("ready"), host.context()).unwrap(),
            JsValue::from(true)
        );
        let default = ns.get(js_string!("default"), host.context()).unwrap();
        assert_eq!(
            default.as_string().unwrap().to_std_string_escaped(),
            "the default"
        );
        // The same record again (a file: URL names the same file), not evaluated twice.
        let url = format!("file://{}", lib.display());
        let again = host.import_module(&url).unwrap();
        assert_eq!(again, ns);
        assert_eq!(string(&mut host, "evaluations"), "1");
        assert!(host.take_errors().is_empty());
        std::fs::remove_dir_all(&dir).unwrap();
    })
    .unwrap();
}

#[test]
fn import_module_rejects_with_the_modules_error() {
    run_with_large_stack(|| {
        let dir = temp_dir("errors");
        let throws = write(
            &dir,
            "throws.mjs",
            "export const x = 1;\nthrow new TypeError('plugin failed');",
        );
        let syntax = write(&dir, "syntax.mjs", "export const = 1;");
        let rejects = write(
            &dir,
            "rejects.mjs",
            "await Promise.reject(new RangeError('later'));",
        );
        let missing_export = write(
            &dir,
            "missing-export.mjs",
            "import { nope } from './throws.mjs';",
        );
        let never = write(&dir, "never.mjs", "await new Promise(() => {});");
        let mut host = quiet_host();
        let mut error_of = |path: &Path| {
            let e = host.import_module(path.to_str().unwrap()).unwrap_err();
            host.describe_error(&e)
        };
        let thrown = error_of(&throws);
        assert!(thrown.starts_with("TypeError: plugin failed"), "{thrown}");
        assert!(thrown.contains("throws.mjs"), "{thrown}");
        let bad = error_of(&syntax);
        assert!(bad.starts_with("SyntaxError"), "{bad}");
        assert!(bad.contains("syntax.mjs"), "{bad}");
        assert!(error_of(&rejects).starts_with("RangeError: later"));
        let link = error_of(&missing_export);
        assert!(
            link.contains("nope") && link.contains("missing-export.mjs"),
            "{link}"
        );
        let never = error_of(&never);
        assert!(never.contains("did not settle"), "{never}");
        let absent = error_of(&dir.join("absent.mjs"));
        assert!(absent.contains("absent.mjs"), "{absent}");
        // Returned, never reported as uncaught or unhandled.
        let errors = host.take_errors();
        assert!(errors.is_empty(), "{errors:?}");
        std::fs::remove_dir_all(&dir).unwrap();
    })
    .unwrap();
}

#[test]
fn errors_from_later_calls_name_the_modules_file() {
    run_with_large_stack(|| {
        let dir = temp_dir("later");
        let lib = write(
            &dir,
            "plugin.mjs",
            "export function transform(line) {\n  if (line === 'bad') throw new Error('cannot transform ' + line);\n  return line;\n}",
        );
        let mut host = quiet_host();
        let ns = host.import_module(lib.to_str().unwrap()).unwrap();
        let transform = ns.get(js_string!("transform"), host.context()).unwrap();
        let error = transform
            .as_callable()
            .unwrap()
            .call(&JsValue::undefined(), &[js_string!("bad").into()], host.context())
            .unwrap_err();
        let text = host.describe_error(&error);
        assert!(text.starts_with("Error: cannot transform bad\n"), "{text}");
        assert!(text.contains("plugin.mjs:2:"), "{text}");
        std::fs::remove_dir_all(&dir).unwrap();
    })
    .unwrap();
}

#[test]
fn json_modules_parse_as_json_parse_does() {
    run_with_large_stack(|| {
        let dir = temp_dir("json");
        write(&dir, "surrogate.json", r#"["\ud83c"]"#);
        write(&dir, "huge.json", "[1e400, -1e400]");
        let deep = format!("{}1{}", "[".repeat(5000), "]".repeat(5000));
        write(&dir, "deep.json", &deep);
        write(&dir, "bom.json", "\u{feff}{\"a\": 1}");
        write(&dir, "broken.json", "{\n  \"a\": [1, 2,]\n}");
        let main = write(
            &dir,
            "main.mjs",
            "import s from './surrogate.json' with { type: 'json' };
             import h from './huge.json' with { type: 'json' };
             import d from './deep.json' with { type: 'json' };
             import b from './bom.json' with { type: 'json' };
             let depth = 0;
             for (let v = d; Array.isArray(v); v = v[0]) depth++;
             export const results = [s[0].length, s[0].charCodeAt(0), h[0], h[1], depth, b.a];",
        );
        let mut host = quiet_host();
        let ns = host.import_module(main.to_str().unwrap()).unwrap();
        let results = ns.get(js_string!("results"), host.context()).unwrap();
        let ctx = host.context();
        ctx.global_object()
            .set(js_string!("results"), results, false, ctx)
            .unwrap();
        assert_eq!(
            string(&mut host, "results.join()"),
            "1,55356,Infinity,-Infinity,5000,1"
        );
        // A JSON module through import_module directly: its default export.
        let ns = host
            .import_module(dir.join("surrogate.json").to_str().unwrap())
            .unwrap();
        let default = ns.get(js_string!("default"), host.context()).unwrap();
        assert!(default.is_object());
        // Invalid JSON: a SyntaxError naming the file and the position.
        let error = host
            .import_module(dir.join("broken.json").to_str().unwrap())
            .unwrap_err();
        let text = host.describe_error(&error);
        assert!(text.starts_with("SyntaxError: Invalid JSON in "), "{text}");
        assert!(text.contains("broken.json"), "{text}");
        assert!(text.contains("position"), "{text}");
        assert!(host.take_errors().is_empty());
        std::fs::remove_dir_all(&dir).unwrap();
    })
    .unwrap();
}

#[test]
fn tcp_server_example_serves_connections_over_loopback() {
    const CONNECTIONS: usize = 3;
    let (addr_tx, addr_rx) = std::sync::mpsc::channel();
    let server = std::thread::spawn(move || {
        tcp_server::serve(CONNECTIONS, move |addr| {
            let _ = addr_tx.send(addr);
        })
    });
    let addr = addr_rx
        .recv_timeout(Duration::from_secs(60))
        .expect("the server listens");
    let mut answers = Vec::new();
    for i in 0..CONNECTIONS {
        let mut socket = std::net::TcpStream::connect(addr).unwrap();
        socket
            .set_read_timeout(Some(Duration::from_secs(20)))
            .unwrap();
        let text = format!("hello {i}\n").repeat(1000 * (i + 1));
        socket.write_all(text.as_bytes()).unwrap();
        socket.shutdown(std::net::Shutdown::Write).unwrap();
        let mut answer = String::new();
        socket.read_to_string(&mut answer).unwrap();
        assert_eq!(answer, text.to_uppercase());
        answers.push(answer.len());
    }
    let errors = server.join().unwrap().unwrap();
    assert!(errors.is_empty(), "{errors:?}");
    assert_eq!(answers, [8000, 16000, 24000]);
}
