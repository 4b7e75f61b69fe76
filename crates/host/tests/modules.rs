//! ES modules in the `boa-streams` binary: entry detection, resolution (fixtures under
//! `tests/fixtures/modules`), errors and exit codes, `-e` and `-`, module workers.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use boa_streams_host::exit_code;

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/modules")
}

fn app() -> PathBuf {
    fixtures().join("app")
}

/// A fresh temporary directory for one test.
fn temp_dir(test: &str) -> PathBuf {
    let dir =
        std::env::temp_dir().join(format!("boa-streams-modules-{}-{test}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}

fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
    let path = dir.join(name);
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent).expect("dir");
    }
    std::fs::write(&path, text).expect("write");
    path
}

fn run_in(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_boa-streams"))
        .args(args)
        .current_dir(dir)
        .output()
        .expect("run boa-streams")
}

fn run_stdin(dir: &Path, args: &[&str], input: &str) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_boa-streams"))
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn boa-streams");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(input.as_bytes())
        .expect("write stdin");
    child.wait_with_output().expect("wait")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// Run `code` with `-e` in the fixture app directory (its imports resolve from there) and
/// expect exit code 1 with exactly one stderr line containing every one of `needles`.
fn expect_error(code: &str, needles: &[&str]) {
    let out = run_in(&app(), &["-e", code]);
    let stderr = text(&out.stderr);
    assert_eq!(
        out.status.code(),
        Some(exit_code::UNCAUGHT_ERROR),
        "{code}: {stderr}"
    );
    assert_eq!(stderr.lines().count(), 1, "{code}: not one line: {stderr}");
    for needle in needles {
        assert!(
            stderr.contains(needle),
            "{code}: {needle:?} not in {stderr}"
        );
    }
}

#[test]
fn fixture_app_resolves_packages_json_cycles_and_runs_once() {
    let out = run_in(&fixtures(), &["app/main.js"]);
    assert_eq!(
        out.status.code(),
        Some(exit_code::OK),
        "{}",
        text(&out.stderr)
    );
    assert_eq!(
        text(&out.stdout),
        "cond-pkg: boa-streams condition\n\
         cond-pkg: nested import.browser\n\
         cond-pkg: nested import.module\n\
         cond-pkg: default\n\
         feature: main thread / main thread\n\
         utils/strings\n\
         main-only via main\n\
         index-only via index.js\n\
         @scope/mod-pkg via module\n\
         @scope/mod-pkg subpath\n\
         internal helper\n\
         json: 42 2\n\
         cycle: A [\"b starts\",\"b after await\",\"a: b is B, ready true\"]\n\
         counter evaluated 1 time(s) 1\n\
         resolve: true\n\
         meta: true true true\n\
         same json: true\n"
    );
    assert_eq!(text(&out.stderr), "");
}

#[test]
fn module_worker_transfers_a_readable_stream_back() {
    let out = run_in(&app(), &["worker-main.js"]);
    assert_eq!(
        out.status.code(),
        Some(exit_code::OK),
        "{}",
        text(&out.stderr)
    );
    // The worker resolved cond-pkg/feature with the `worker` condition.
    assert_eq!(
        text(&out.stdout),
        "from the worker: hello from internal helper\n"
    );
}

#[test]
fn worker_type_is_checked_and_classic_workers_stay_scripts() {
    let dir = temp_dir("worker-type");
    write(
        &dir,
        "w.js",
        "postMessage(typeof importScripts + ' ' + (this === globalThis));",
    );
    write(
        &dir,
        "main.mjs",
        r#"
        try { new Worker("./w.js", { type: "shared" }); } catch (e) { console.log(e.name); }
        const w = new Worker("./w.js");
        w.onmessage = (e) => { console.log(e.data); w.terminate(); };
        "#,
    );
    let out = run_in(&dir, &["main.mjs"]);
    assert_eq!(
        out.status.code(),
        Some(exit_code::OK),
        "{}",
        text(&out.stderr)
    );
    // A classic script's top-level `this` is the global.
    assert_eq!(text(&out.stdout), "TypeError\nundefined true\n");
}

#[test]
fn module_not_found_names_specifier_importer_and_path() {
    expect_error(
        "import './missing.js';",
        &[
            "Cannot find module",
            "\"./missing.js\"",
            "[eval]",
            "app/missing.js",
        ],
    );
    expect_error(
        "import 'no-such-package';",
        &["Cannot find module", "\"no-such-package\"", "node_modules"],
    );
    expect_error(
        "import '#nothing';",
        &[
            "\"#nothing\"",
            "not defined in the \"imports\"",
            "app/package.json",
        ],
    );
    expect_error(
        "import './internal';",
        &["\"./internal\"", "is a directory", "index.js"],
    );
    // A dynamic import() that fails rejects; unhandled, its rejection is reported.
    let out = run_in(&app(), &["-e", "await import('./nope.js')"]);
    assert_eq!(out.status.code(), Some(exit_code::UNCAUGHT_ERROR));
    assert!(text(&out.stderr).contains("\"./nope.js\""));
}

#[test]
fn bad_and_hidden_exports_targets() {
    expect_error(
        "import 'cond-pkg/bad';",
        &[
            "Invalid package target",
            "\"cond-pkg/bad\"",
            "\"../outside.js\"",
            "cond-pkg/package.json",
        ],
    );
    expect_error(
        "import 'bad-pkg';",
        &[
            "Invalid package target",
            "\"bad-pkg\"",
            "bad-pkg/package.json",
        ],
    );
    expect_error(
        "import 'cond-pkg/bare-target';",
        &["Invalid package target", "\"other-pkg/x.js\""],
    );
    expect_error(
        "import 'cond-pkg/utils/private/secret';",
        &[
            "not exported",
            "\"./utils/private/secret\"",
            "cond-pkg/package.json",
        ],
    );
    expect_error(
        "import 'cond-pkg/not-listed';",
        &["not exported", "\"cond-pkg/not-listed\""],
    );
    expect_error(
        "import 'cond-pkg/utils/../../escape';",
        &["Invalid package target", "leaves the package"],
    );
    expect_error("import '#hidden';", &["\"#hidden\"", "not defined"]);
    expect_error(
        "import 'broken-json';",
        &[
            "\"broken-json\"",
            "broken-json/package.json is not valid JSON",
            "at line 1 column",
        ],
    );
}

#[test]
fn syntax_errors_name_file_line_and_column() {
    let dir = temp_dir("syntax");
    write(&dir, "bad.mjs", "export const a = 1;\nlet let = 2;\n");
    write(
        &dir,
        "main.mjs",
        "import './bad.mjs';\nconsole.log('never');\n",
    );
    let out = run_in(&dir, &["main.mjs"]);
    let stderr = text(&out.stderr);
    assert_eq!(
        out.status.code(),
        Some(exit_code::UNCAUGHT_ERROR),
        "{stderr}"
    );
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(stderr.starts_with("Uncaught SyntaxError: "), "{stderr}");
    assert!(stderr.contains("bad.mjs:2:5"), "{stderr}");
    assert!(stderr.contains("\"./bad.mjs\" imported from "), "{stderr}");
    assert!(stderr.contains("main.mjs"), "{stderr}");
    assert_eq!(text(&out.stdout), "");

    // In the entry module itself.
    let out = run_in(&dir, &["bad.mjs"]);
    let stderr = text(&out.stderr);
    assert_eq!(
        out.status.code(),
        Some(exit_code::UNCAUGHT_ERROR),
        "{stderr}"
    );
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(stderr.contains("bad.mjs:2:5"), "{stderr}");

    // A missing export is a link error naming the entry whose imports were linked.
    write(&dir, "ok.mjs", "export const here = 1;\n");
    write(&dir, "named.mjs", "import { missing } from './ok.mjs';\n");
    let out = run_in(&dir, &["named.mjs"]);
    let stderr = text(&out.stderr);
    assert_eq!(
        out.status.code(),
        Some(exit_code::UNCAUGHT_ERROR),
        "{stderr}"
    );
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(stderr.contains("SyntaxError"), "{stderr}");
    assert!(stderr.contains("missing"), "{stderr}");
    assert!(stderr.contains("named.mjs"), "{stderr}");

    // A JSON module that does not parse.
    expect_error(
        "import c from './data/broken.json' with { type: 'json' };",
        &[
            "SyntaxError",
            "Invalid JSON",
            "broken.json",
            "\"./data/broken.json\"",
        ],
    );
}

#[test]
fn unsupported_specifiers_and_attributes_say_so() {
    expect_error(
        "import fs from 'node:fs';",
        &["\"node:fs\"", "not supported", "[eval]"],
    );
    expect_error(
        "import x from 'https://example.com/x.js';",
        &[
            "\"https://example.com/x.js\"",
            "https: URLs are not supported",
        ],
    );
    expect_error(
        "import c from './data/config.json';",
        &["\"./data/config.json\"", "type: \"json\""],
    );
    expect_error(
        "import c from './data/config.json' with { type: 'css' };",
        &["Unsupported import type \"css\"", "\"./data/config.json\""],
    );
    expect_error(
        "import x from '@scope/mod-pkg/cjs-main.cjs';",
        &["CommonJS", "\"@scope/mod-pkg/cjs-main.cjs\""],
    );
    // `require` does not exist (as in Node's ES modules and Deno): the ReferenceError gets a
    // hint naming the specifier of the file's first `require(...)` and saying CommonJS is not
    // supported.
    let dir = temp_dir("require");
    for (file, code) in [
        ("cjs.js", "const path = 1;\nconst fs = require('fs');\n"),
        (
            "cjs.mjs",
            "const x = require(\"some-pkg/sub\");\nexport {};\n",
        ),
    ] {
        write(&dir, file, code);
        let out = run_in(&dir, &[file]);
        let stderr = text(&out.stderr);
        assert_eq!(
            out.status.code(),
            Some(exit_code::UNCAUGHT_ERROR),
            "{stderr}"
        );
        let specifier = if file == "cjs.js" {
            "require(\"fs\")"
        } else {
            "require(\"some-pkg/sub\")"
        };
        for needle in [
            "ReferenceError: require is not defined",
            specifier,
            file,
            "CommonJS (require, module.exports) is not supported",
        ] {
            assert!(
                stderr.contains(needle),
                "{file}: {needle:?} not in {stderr}"
            );
        }
    }
    // Other CommonJS names get the hint without a specifier.
    let out = run_in(&dir, &["-e", "module.exports = 1;"]);
    let stderr = text(&out.stderr);
    assert!(
        stderr.contains("ReferenceError: module is not defined")
            && stderr.contains("`module`")
            && stderr.contains("CommonJS"),
        "{stderr}"
    );
    // A ReferenceError for any other name gets none.
    let out = run_in(&dir, &["-e", "nothingHere();"]);
    assert!(
        !text(&out.stderr).contains("CommonJS"),
        "{}",
        text(&out.stderr)
    );
}

#[test]
fn a_missing_export_names_the_module_the_importer_and_the_name() {
    let dir = temp_dir("missing-export");
    write(&dir, "b.mjs", "export const yes = 1;\n");
    write(&dir, "star.mjs", "export * from './b.mjs';\n");
    write(&dir, "data.json", "{\"a\": 1}\n");
    write(
        &dir,
        "mid.mjs",
        "import { nope } from './b.mjs';\nexport const m = nope;\n",
    );
    write(&dir, "entry.mjs", "import './mid.mjs';\n");
    write(
        &dir,
        "via-star.mjs",
        "import { yes, zz } from './star.mjs';\n",
    );
    write(&dir, "reexport.mjs", "export { gone } from './b.mjs';\n");
    write(
        &dir,
        "json.mjs",
        "import { a } from './data.json' with { type: 'json' };\n",
    );
    for (file, needles) in [
        // The import is in a module the entry imports: that module is named, not the entry.
        (
            "entry.mjs",
            [
                "\"./b.mjs\"",
                "does not provide an export named \"nope\"",
                "imported by",
                "mid.mjs",
            ],
        ),
        // Through `export * from`.
        (
            "via-star.mjs",
            [
                "\"./star.mjs\"",
                "named \"zz\"",
                "imported by",
                "via-star.mjs",
            ],
        ),
        (
            "reexport.mjs",
            [
                "\"./b.mjs\"",
                "named \"gone\"",
                "imported by",
                "reexport.mjs",
            ],
        ),
        (
            "json.mjs",
            ["\"./data.json\"", "named \"a\"", "imported by", "json.mjs"],
        ),
    ] {
        let out = run_in(&dir, &[file]);
        let stderr = text(&out.stderr);
        assert_eq!(
            out.status.code(),
            Some(exit_code::UNCAUGHT_ERROR),
            "{file}: {stderr}"
        );
        assert_eq!(stderr.lines().count(), 1, "{file}: not one line: {stderr}");
        assert!(
            stderr.starts_with("Uncaught SyntaxError: "),
            "{file}: {stderr}"
        );
        for needle in needles {
            assert!(
                stderr.contains(needle),
                "{file}: {needle:?} not in {stderr}"
            );
        }
    }
}

#[test]
fn an_export_list_without_a_semicolon_ends_a_module() {
    // Boa 0.22's parser does not end `export { ... }` at the end of the input
    // (docs/engine-bugs/export-list-at-end.mjs); the host parses every module with a `;` line
    // appended.
    let dir = temp_dir("export-list-at-end");
    write(&dir, "lib.mjs", "const a = 1, b = 2;\nexport { a, b as c }");
    write(&dir, "comment.mjs", "export {}\n// a last comment");
    write(
        &dir,
        "main.mjs",
        "import { a, c } from './lib.mjs';\nimport './comment.mjs';\nconsole.log(a + c)\nexport { a }",
    );
    let out = run_in(&dir, &["main.mjs"]);
    assert_eq!(
        out.status.code(),
        Some(exit_code::OK),
        "{}",
        text(&out.stderr)
    );
    assert_eq!(text(&out.stdout), "3\n");
    // Detection of a `.js` file with module syntax sees it too.
    write(
        &dir,
        "detect.js",
        "const z = 5;\nconsole.log(z)\nexport { z }",
    );
    let out = run_in(&dir, &["detect.js"]);
    assert_eq!(
        out.status.code(),
        Some(exit_code::OK),
        "{}",
        text(&out.stderr)
    );
    assert_eq!(text(&out.stdout), "5\n");
}

#[test]
fn evaluation_errors_fire_the_error_event_first() {
    let dir = temp_dir("throws");
    write(&dir, "throws.mjs", "throw new RangeError('module boom');\n");
    write(
        &dir,
        "main.mjs",
        r#"
        import "./listener.mjs";
        import "./throws.mjs";
        "#,
    );
    write(
        &dir,
        "listener.mjs",
        r#"
        addEventListener("error", (e) => {
          console.log("error event:", e.message, e.error instanceof RangeError);
          if (globalThis.scriptArgs[0] === "handle") e.preventDefault();
        });
        "#,
    );
    let out = run_in(&dir, &["main.mjs"]);
    assert_eq!(out.status.code(), Some(exit_code::UNCAUGHT_ERROR));
    assert_eq!(
        text(&out.stdout),
        "error event: RangeError: module boom true\n"
    );
    assert!(text(&out.stderr).contains("Uncaught RangeError: module boom"));

    let out = run_in(&dir, &["main.mjs", "handle"]);
    assert_eq!(
        out.status.code(),
        Some(exit_code::OK),
        "{}",
        text(&out.stderr)
    );
    assert_eq!(text(&out.stderr), "");

    // A rejected top-level await is reported the same way (not as an unhandled rejection).
    write(
        &dir,
        "tla.mjs",
        "await new Promise((_, reject) => setTimeout(() => reject(new TypeError('late')), 2));\n",
    );
    let out = run_in(&dir, &["tla.mjs"]);
    assert_eq!(out.status.code(), Some(exit_code::UNCAUGHT_ERROR));
    assert!(
        text(&out.stderr).contains("Uncaught TypeError: late"),
        "{}",
        text(&out.stderr)
    );

    // A top-level await that can never settle.
    write(&dir, "stuck.mjs", "await new Promise(() => {});\n");
    let out = run_in(&dir, &["stuck.mjs"]);
    assert_eq!(out.status.code(), Some(exit_code::UNCAUGHT_ERROR));
    assert!(text(&out.stderr).contains("top-level await never settled"));
}

#[test]
fn top_level_await_waits_on_timers_and_streams() {
    let out = run_in(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("../.."),
        &["examples/pipeline.mjs"],
    );
    assert_eq!(
        out.status.code(),
        Some(exit_code::OK),
        "{}",
        text(&out.stderr)
    );
    let stdout = text(&out.stdout);
    assert!(stdout.starts_with("id,value\n1,1\n2,4\n"), "{stdout}");
    assert!(
        stdout.ends_with("# end\n12 lines written by pipeline.mjs\n"),
        "{stdout}"
    );
}

#[test]
fn detection_rules() {
    let dir = temp_dir("detect");
    // .mjs: a module even without module syntax (`this` is undefined at the top).
    write(&dir, "plain.mjs", "console.log(this === undefined);");
    // .cjs: a script, so module syntax is a syntax error.
    write(&dir, "mod.cjs", "export const x = 1;");
    // .js without package.json type: detected.
    write(
        &dir,
        "detect-module.js",
        "import './plain.mjs'; console.log('module', this);",
    );
    // Top-level lexical declarations: the detection parse must not declare them.
    write(
        &dir,
        "detect-script.js",
        "let s = 'script'; class C {} console.log(s, this === globalThis);",
    );
    write(&dir, "tla.js", "console.log(await Promise.resolve('tla'));");
    // A syntax error that is not about module syntax stays a script error.
    write(&dir, "broken.js", "let x = ;");
    // "type": "module" and "commonjs".
    write(&dir, "esm/package.json", r#"{ "type": "module" }"#);
    write(&dir, "esm/x.js", "console.log('esm', this);");
    write(&dir, "cjs/package.json", r#"{ "type": "commonjs" }"#);
    write(&dir, "cjs/x.js", "export {};");

    let check = |args: &[&str], code: i32, stdout: &str| {
        let out = run_in(&dir, args);
        assert_eq!(
            out.status.code(),
            Some(code),
            "{args:?}: {}",
            text(&out.stderr)
        );
        assert_eq!(text(&out.stdout), stdout, "{args:?}");
        text(&out.stderr)
    };
    check(&["plain.mjs"], 0, "true\n");
    check(&["--script", "plain.mjs"], 0, "false\n");
    let stderr = check(&["mod.cjs"], 1, "");
    assert!(stderr.contains("SyntaxError"), "{stderr}");
    check(&["--module", "mod.cjs"], 0, "");
    check(&["detect-module.js"], 0, "true\nmodule undefined\n");
    check(&["detect-script.js"], 0, "script true\n");
    check(&["tla.js"], 0, "tla\n");
    let stderr = check(&["broken.js"], 1, "");
    assert!(stderr.contains("SyntaxError"), "{stderr}");
    check(&["esm/x.js"], 0, "esm undefined\n");
    let stderr = check(&["cjs/x.js"], 1, "");
    assert!(stderr.contains("SyntaxError"), "{stderr}");
    check(&["--module", "cjs/x.js"], 0, "");
}

#[test]
fn eval_and_stdin_programs() {
    let dir = temp_dir("eval");
    write(&dir, "lib.mjs", "export const v = 'lib value';");
    let out = run_in(
        &dir,
        &[
            "-e",
            "import { v } from './lib.mjs'; console.log(v, scriptArgs[0])",
            "a",
        ],
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(text(&out.stdout), "lib value a\n");
    // A script: `this` is the global; dynamic import() works from scripts too.
    let out = run_in(
        &dir,
        &[
            "-e",
            "console.log(this === globalThis); import('./lib.mjs').then((m) => console.log(m.v))",
        ],
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(text(&out.stdout), "true\nlib value\n");
    let out = run_in(&dir, &["-e"]);
    assert_eq!(out.status.code(), Some(exit_code::USAGE));

    let out = run_stdin(
        &dir,
        &["-"],
        "import { v } from './lib.mjs';\nconsole.log(await v);\n",
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(text(&out.stdout), "lib value\n");
    let out = run_stdin(&dir, &["--script", "-", "x"], "console.log(scriptArgs[0]);");
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(text(&out.stdout), "x\n");
    let out = run_stdin(&dir, &["-"], "throw new Error('from stdin');");
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stderr).contains("from stdin"));
}

#[test]
fn help_documents_the_module_rules() {
    let out = run_in(&fixtures(), &["--help"]);
    let help = text(&out.stdout);
    for needle in [
        ".mjs",
        ".cjs",
        "\"type\"",
        "--module",
        "--script",
        "-e CODE",
        "boa-streams, worker (in a worker),\n    browser, import, module, default",
        "node:",
    ] {
        assert!(help.contains(needle), "{needle:?} not in --help");
    }
}
