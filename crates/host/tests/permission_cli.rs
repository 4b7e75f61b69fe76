//! `boa-streams --permission` and the `--allow-*` flags: each capability denied (a TypeError
//! naming the capability and its flag) and granted, and the permissive default without
//! `--permission`. Loopback only (127.0.0.1); every child is killed after 60 s.

use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// A fresh tree: `app/` (the program, a module it imports, a worker, a text file) and
/// `outside/` (a text file and a "secret" that is not JavaScript).
fn tree(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("boa-streams-perm-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    for (path, text) in [
        ("app/main.mjs", MAIN),
        ("app/lib.mjs", "export const value = 'from lib';"),
        ("app/own.txt", "own file"),
        ("app/worker.js", WORKER),
        ("outside/data.txt", "outside file"),
        (
            "outside/secret.txt",
            "TOPSECRET line that is not JavaScript",
        ),
        ("outside/mod.mjs", "export const value = 'outside module';"),
    ] {
        let path = dir.join(path);
        std::fs::create_dir_all(path.parent().expect("parent")).expect("dir");
        std::fs::write(path, text).expect("write");
    }
    std::fs::canonicalize(dir).expect("canonical")
}

/// Tries every capability and prints one line per attempt.
const MAIN: &str = r#"
const [outsideUrl, outsideModule, secret] = scriptArgs;
const out = [];
const show = (label, e) => out.push(`${label}: ${e.name}: ${e.message}`);
try { await fetch(outsideUrl).then((r) => r.text()).then((t) => out.push("file: " + t)); } catch (e) { show("file", e); }
try { out.push("own: " + await (await fetch("./own.txt")).text()); } catch (e) { show("own", e); }
try { out.push("lib: " + (await import("./lib.mjs")).value); } catch (e) { show("lib", e); }
try { out.push("import: " + (await import(outsideModule)).value); } catch (e) { show("import", e); }
try { await import(secret); out.push("secret: loaded"); } catch (e) { show("secret", e); }
try {
  const server = BoaStreams.serve({ hostname: "127.0.0.1", port: 0 }, () => new Response("served"));
  out.push("serve: listening");
  try { out.push("net: " + await (await fetch(`http://127.0.0.1:${server.addr.port}/`)).text()); } catch (e) { show("net", e); }
  await server.shutdown();
} catch (e) { show("serve", e); }
try { await fetch("http://127.0.0.1:9/"); out.push("net9: fetched"); } catch (e) { show("net9", e); }
try {
  const worker = new Worker("./worker.js");
  const reply = new Promise((resolve) => { worker.onmessage = (e) => resolve(e.data); });
  worker.postMessage(outsideUrl);
  out.push("worker: " + await reply);
  worker.terminate();
} catch (e) { show("worker", e); }
console.log(out.join("\n"));
"#;

/// Reads the URL it is sent (with its creator's capabilities) and answers.
const WORKER: &str = r#"
onmessage = (e) => fetch(e.data).then((r) => r.text()).then(
  (t) => postMessage("read " + t),
  (err) => postMessage(`${err.name}: ${err.message}`));
"#;

/// Run `boa-streams ARGS... app/main.mjs URLS...` in `dir`; (exit code, stdout, stderr).
fn run(dir: &Path, flags: &[&str]) -> (Option<i32>, String, String) {
    let url = |p: &str| {
        url::Url::from_file_path(dir.join(p))
            .expect("url")
            .to_string()
    };
    let mut args: Vec<String> = flags.iter().map(|s| s.to_string()).collect();
    args.push(dir.join("app/main.mjs").to_string_lossy().into_owned());
    args.push(url("outside/data.txt"));
    args.push(dir.join("outside/mod.mjs").to_string_lossy().into_owned());
    args.push(
        dir.join("outside/secret.txt")
            .to_string_lossy()
            .into_owned(),
    );
    spawn(dir, &args)
}

fn spawn(dir: &Path, args: &[String]) -> (Option<i32>, String, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_boa-streams"))
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run boa-streams");
    let deadline = Instant::now() + Duration::from_secs(60);
    let status = loop {
        if let Some(status) = child.try_wait().expect("wait") {
            break status.code();
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            let _ = child.wait();
            panic!("boa-streams {args:?} did not finish in 60 s");
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let mut stdout = String::new();
    let mut stderr = String::new();
    child
        .stdout
        .take()
        .expect("stdout")
        .read_to_string(&mut stdout)
        .expect("read");
    child
        .stderr
        .take()
        .expect("stderr")
        .read_to_string(&mut stderr)
        .expect("read");
    (status, stdout, stderr)
}

const FS: &str = "needs the fs-read capability (--allow-fs-read)";
const NET: &str = "needs the net capability (--allow-net)";

#[test]
fn permission_without_grants_denies_every_capability() {
    let dir = tree("none");
    let (code, out, err) = run(&dir, &["--permission"]);
    assert_eq!(code, Some(0), "{out}\n{err}");
    let data = url::Url::from_file_path(dir.join("outside/data.txt"))
        .expect("url")
        .to_string();
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(
        lines,
        [
            format!("file: TypeError: fetch of {data} denied: reading files outside the readable directories {FS}"),
            "own: own file".to_string(),
            "lib: from lib".to_string(),
            format!(
                "import: TypeError: import of \"{0}\" ({0}) from {1} denied: reading files outside the readable directories {FS}",
                dir.join("outside/mod.mjs").display(),
                dir.join("app/main.mjs").display()
            ),
            format!(
                "secret: TypeError: import of \"{0}\" ({0}) from {1} denied: reading files outside the readable directories {FS}",
                dir.join("outside/secret.txt").display(),
                dir.join("app/main.mjs").display()
            ),
            format!("serve: TypeError: BoaStreams.serve on 127.0.0.1:0 denied: listening for connections {NET}"),
            format!("net9: TypeError: fetch of http://127.0.0.1:9/ denied: network access {NET}"),
            "worker: TypeError: new Worker(\"./worker.js\") denied: starting a worker needs the worker capability (--allow-worker)".to_string(),
        ]
    );
    // A denied import reads nothing: the secret's text appears nowhere.
    assert!(!out.contains("TOPSECRET") && !err.contains("TOPSECRET"));
    std::fs::remove_dir_all(&dir).expect("cleanup");
}

#[test]
fn grants_allow_each_capability() {
    let dir = tree("grants");
    let outside = dir.join("outside").to_string_lossy().into_owned();
    let (code, out, err) = run(
        &dir,
        &[
            "--permission",
            &format!("--allow-fs-read={outside}"),
            "--allow-net=127.0.0.1",
            "--allow-worker",
        ],
    );
    assert_eq!(code, Some(0), "{out}\n{err}");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines[0], "file: outside file");
    assert_eq!(lines[1], "own: own file");
    assert_eq!(lines[2], "lib: from lib");
    assert_eq!(lines[3], "import: outside module");
    // Granted, the secret is read: and fails as JavaScript (a SyntaxError, not a denial).
    assert!(lines[4].starts_with("secret: SyntaxError"), "{}", lines[4]);
    assert_eq!(lines[5], "serve: listening");
    assert_eq!(lines[6], "net: served");
    // Port 9 is allowed (no port in the grant): the connection is refused, not denied.
    assert!(
        lines[7].starts_with("net9: TypeError: fetch failed"),
        "{}",
        lines[7]
    );
    // The worker inherits the grants: it reads the outside file.
    assert_eq!(lines[8], "worker: read outside file");
    std::fs::remove_dir_all(&dir).expect("cleanup");
}

#[test]
fn workers_inherit_their_creators_restrictions() {
    let dir = tree("inherit");
    let (code, out, err) = run(&dir, &["--permission", "--allow-worker"]);
    assert_eq!(code, Some(0), "{out}\n{err}");
    let data = url::Url::from_file_path(dir.join("outside/data.txt"))
        .expect("url")
        .to_string();
    let last = out.lines().last().unwrap_or_default().to_string();
    assert_eq!(
        last,
        format!("worker: TypeError: fetch of {data} denied: reading files outside the readable directories {FS}")
    );
    std::fs::remove_dir_all(&dir).expect("cleanup");
}

#[test]
fn a_host_list_admits_only_its_hosts_and_ports() {
    let dir = tree("list");
    let (code, out, err) = run(&dir, &["--permission", "--allow-net=127.0.0.1:1"]);
    assert_eq!(code, Some(0), "{out}\n{err}");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(
        lines[5],
        format!("serve: TypeError: BoaStreams.serve on 127.0.0.1:0 denied: listening for connections on 127.0.0.1:0 {NET}")
    );
    assert_eq!(
        lines[6],
        format!("net9: TypeError: fetch of http://127.0.0.1:9/ denied: network access to 127.0.0.1:9 {NET}")
    );
    std::fs::remove_dir_all(&dir).expect("cleanup");
}

#[test]
fn without_permission_everything_is_allowed() {
    let dir = tree("open");
    // The grants alone change nothing: without --permission all is allowed.
    let (code, out, err) = run(&dir, &["--allow-env"]);
    assert_eq!(code, Some(0), "{out}\n{err}");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines[0], "file: outside file");
    assert_eq!(lines[3], "import: outside module");
    assert_eq!(lines[5], "serve: listening");
    assert_eq!(lines[6], "net: served");
    assert_eq!(lines[8], "worker: read outside file");
    std::fs::remove_dir_all(&dir).expect("cleanup");
}

#[test]
fn eval_programs_have_no_tree_of_their_own() {
    let dir = tree("eval");
    let code = "import('./app/lib.mjs').then((m) => console.log(m.value), (e) => console.log(e.name + ': ' + e.message));";
    let (status, out, err) = spawn(&dir, &["--permission".into(), "-e".into(), code.into()]);
    assert_eq!(status, Some(0), "{out}\n{err}");
    assert!(
        out.starts_with("TypeError: import of \"./app/lib.mjs\""),
        "{out}"
    );
    assert!(
        out.contains("reading files needs the fs-read capability (--allow-fs-read)"),
        "{out}"
    );
    let (status, out, err) = spawn(
        &dir,
        &[
            "--permission".into(),
            "--allow-fs-read=.".into(),
            "-e".into(),
            code.into(),
        ],
    );
    assert_eq!(status, Some(0), "{out}\n{err}");
    assert_eq!(out, "from lib\n");
    std::fs::remove_dir_all(&dir).expect("cleanup");
}

#[test]
fn bad_grants_are_usage_errors_and_help_lists_the_flags() {
    let dir = tree("usage");
    for bad in [
        "--allow-net=a:b:c",
        "--allow-net=",
        "--allow-fs-read=",
        "--allow-worker=yes",
        "--allow-everything",
    ] {
        let (code, _, err) = spawn(&dir, &[bad.into(), "-e".into(), "1".into()]);
        assert_eq!(code, Some(2), "{bad}: {err}");
    }
    let (code, help, _) = spawn(&dir, &["--help".into()]);
    assert_eq!(code, Some(0));
    for flag in [
        "--permission",
        "--allow-fs-read",
        "--allow-net",
        "--allow-worker",
        "--allow-env",
    ] {
        assert!(help.contains(flag), "{flag}");
    }
    assert!(help.contains(
        "boa-streams, workerd, edge-light, worker,\n    browser, then import and module"
    ));
    std::fs::remove_dir_all(&dir).expect("cleanup");
}

/// CommonJS `require` is held to the same readable directories as `import`: under
/// `--permission` a file outside the program's tree is a TypeError naming the capability and
/// its content is never read; `--allow-fs-read` grants it.
#[test]
fn require_outside_the_tree_needs_fs_read() {
    let dir = tree("require");
    let secret = dir.join("outside/secret.txt");
    let outside = dir.join("outside/lib.cjs");
    std::fs::write(&outside, "module.exports = 'outside cjs';").expect("write");
    let main = dir.join("app/main.cjs");
    std::fs::write(
        &main,
        "for (const p of process.argv.slice(2)) {\n\
         try { console.log('ok: ' + require(p)); } catch (e) { console.log(e.name + ': ' + e.message); }\n\
         }\n\
         console.log('own: ' + require('./own.cjs'));\n",
    )
    .expect("write");
    std::fs::write(dir.join("app/own.cjs"), "module.exports = 'own cjs';").expect("write");
    let run = |flags: &[&str]| {
        let out = Command::new(env!("CARGO_BIN_EXE_boa-streams"))
            .args(flags)
            .arg(&main)
            .arg(&outside)
            .arg(&secret)
            .current_dir(&dir)
            .output()
            .expect("run");
        (
            out.status.code(),
            String::from_utf8_lossy(&out.stdout).into_owned(),
        )
    };
    let (code, denied) = run(&["--permission"]);
    assert_eq!(code, Some(0), "{denied}");
    assert!(!denied.contains("TOPSECRET"), "{denied}");
    assert_eq!(denied.matches("TypeError: require(").count(), 2, "{denied}");
    assert!(
        denied.contains("needs the fs-read capability (--allow-fs-read)"),
        "{denied}"
    );
    assert!(denied.ends_with("own: own cjs\n"), "{denied}");
    let outside_dir = dir.join("outside");
    let grant = format!("--allow-fs-read={}", outside_dir.display());
    let (code, granted) = run(&["--permission", &grant]);
    assert_eq!(code, Some(0), "{granted}");
    assert!(granted.starts_with("ok: outside cjs\n"), "{granted}");
    assert!(granted.ends_with("own: own cjs\n"), "{granted}");
}
