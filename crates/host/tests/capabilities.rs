//! `HostOptions::capabilities`: the restrictive default of an embedder's `Host` (the entry
//! script's tree readable, nothing else), grants, and workers inheriting them.

use std::path::{Path, PathBuf};

use boa_streams_host::{run_with_large_stack, Capabilities, Host, HostOptions, LoopOutcome};

fn tree(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("boa-host-caps-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    for (path, text) in [
        ("app/lib.mjs", "export const value = 'lib';"),
        ("app/worker.js", "onmessage = (m) => fetch(m.data).then(() => postMessage('read'), (e) => postMessage(e.name + ': ' + e.message));"),
        ("outside/x.txt", "outside"),
        ("outside/mod.mjs", "export const value = 'outside';"),
    ] {
        let path = dir.join(path);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }
    std::fs::canonicalize(dir).unwrap()
}

/// Run the module `source` as `dir/app/main.mjs` (through `eval_module_file`) under
/// `options`; return its `log` joined with newlines.
fn run_module(dir: &Path, options: HostOptions, source: &str) -> String {
    let main = dir.join("app/main.mjs");
    std::fs::write(&main, format!("globalThis.log = [];\n{source}")).unwrap();
    run_with_large_stack(move || {
        let mut host = Host::new(HostOptions {
            print_errors: false,
            ..options
        })
        .unwrap();
        host.eval_module_file(&main).unwrap();
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(30);
        assert_eq!(host.run_event_loop(Some(deadline)), LoopOutcome::Idle);
        let errors = host.take_errors();
        assert!(errors.is_empty(), "{errors:?}");
        host.eval_source("log.join('\\n')", "log")
            .unwrap()
            .as_string()
            .unwrap()
            .to_std_string_escaped()
    })
    .unwrap()
}

const ATTEMPTS: &str = r#"
const show = (label, e) => log.push(`${label}: ${e.name}: ${e.message.replace(/^.* denied: /, "denied: ")}`);
try { log.push("lib " + (await import("./lib.mjs")).value); } catch (e) { show("lib", e); }
try { log.push("import " + (await import("../outside/mod.mjs")).value); } catch (e) { show("import", e); }
try { log.push("fetch " + await (await fetch("../outside/x.txt")).text()); } catch (e) { show("fetch", e); }
try { BoaStreams.serve({ port: 0 }, () => new Response("")).shutdown(); log.push("serve ok"); } catch (e) { show("serve", e); }
try {
  const w = new Worker("./worker.js");
  const reply = new Promise((r) => { w.onmessage = (e) => r(e.data); });
  w.postMessage(new URL("../outside/x.txt", import.meta.url).href);
  log.push("worker " + await reply);
  w.terminate();
} catch (e) { show("worker", e); }
"#;

#[test]
fn the_default_allows_only_the_entry_scripts_tree() {
    let dir = tree("default");
    let log = run_module(&dir, HostOptions::default(), ATTEMPTS);
    let outside = "denied: reading files outside the readable directories needs the fs-read capability (--allow-fs-read)";
    assert_eq!(
        log,
        format!(
            "lib lib\nimport: TypeError: {outside}\nfetch: TypeError: {outside}\n\
             serve: TypeError: denied: listening for connections needs the net capability (--allow-net)\n\
             worker: TypeError: denied: starting a worker needs the worker capability (--allow-worker)"
        )
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn grants_and_worker_inheritance() {
    let dir = tree("grants");
    // Workers, but no reading outside: the worker is denied as its creator is.
    let options = HostOptions {
        capabilities: Capabilities::default().allow_worker(),
        ..HostOptions::default()
    };
    let log = run_module(&dir, options, ATTEMPTS);
    let last = log.lines().last().unwrap_or_default();
    assert!(
        last.starts_with("worker TypeError: fetch of file://"),
        "{log}"
    );
    assert!(last.ends_with("reading files outside the readable directories needs the fs-read capability (--allow-fs-read)"), "{log}");
    // Everything granted.
    let log = run_module(&dir, HostOptions::unrestricted(), ATTEMPTS);
    assert_eq!(
        log,
        "lib lib\nimport outside\nfetch outside\nserve ok\nworker read"
    );
    // Reading granted for the outside directory only.
    let options = HostOptions {
        capabilities: Capabilities::default().allow_fs_read([dir.join("outside")]),
        ..HostOptions::default()
    };
    let log = run_module(&dir, options, ATTEMPTS);
    assert!(
        log.starts_with("lib lib\nimport outside\nfetch outside\nserve: TypeError"),
        "{log}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn module_source_without_a_file_gets_no_tree() {
    let dir = tree("source");
    let main = dir.join("app/main.mjs");
    let log = run_with_large_stack(move || {
        let mut host = Host::new(HostOptions {
            print_errors: false,
            ..HostOptions::default()
        })
        .unwrap();
        host.eval_module_source(
            "globalThis.log = [];
             import('./lib.mjs').then((m) => log.push(m.value), (e) => log.push(e.name + ': ' + e.message));",
            &main,
        )
        .unwrap();
        host.run_event_loop(None);
        host.eval_source("log.join()", "log")
            .unwrap()
            .as_string()
            .unwrap()
            .to_std_string_escaped()
    })
    .unwrap();
    assert!(
        log.starts_with("TypeError: import of \"./lib.mjs\""),
        "{log}"
    );
    assert!(
        log.ends_with("denied: reading files needs the fs-read capability (--allow-fs-read)"),
        "{log}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}
