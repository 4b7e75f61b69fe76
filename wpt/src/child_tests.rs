//! End-to-end tests of the child mode through the real host and the real testharness.js, on
//! a small synthetic corpus (a temp dir holding the pinned `resources/testharness.js`).

use std::path::{Path, PathBuf};

use crate::child::run_file;
use crate::results::{FileResult, HarnessStatus, SubtestStatus};

/// The pinned testharness.js: the laid corpus, else `WPT_DIR`, else `shared/wpt` beside the
/// repository or one of its ancestors (as scripts/fetch-wpt finds it).
fn testharness() -> String {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut candidates = vec![root.join("third_party/wpt")];
    if let Ok(dir) = std::env::var("WPT_DIR") {
        candidates.push(PathBuf::from(dir));
    }
    let mut here = root.canonicalize().unwrap_or(root.clone());
    while let Some(parent) = here.parent() {
        candidates.push(parent.join("shared/wpt"));
        here = parent.to_path_buf();
    }
    for c in candidates {
        if let Ok(text) = std::fs::read_to_string(c.join("resources/testharness.js")) {
            return text;
        }
    }
    panic!("resources/testharness.js not found: run scripts/fetch-wpt first");
}

struct Corpus(PathBuf);

impl Corpus {
    fn new(name: &str, files: &[(&str, &str)]) -> Corpus {
        let dir = std::env::temp_dir().join(format!("wpt-child-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let mut all: Vec<(String, String)> = files
            .iter()
            .map(|(p, t)| ((*p).to_owned(), (*t).to_owned()))
            .collect();
        all.push(("resources/testharness.js".into(), testharness()));
        for (path, text) in all {
            let p = dir.join(path);
            std::fs::create_dir_all(p.parent().unwrap()).unwrap();
            std::fs::write(p, text).unwrap();
        }
        Corpus(dir)
    }

    fn run(&self, rel: &str) -> FileResult {
        run_file(&self.0, rel)
    }
}

impl Drop for Corpus {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn statuses(r: &FileResult) -> Vec<(&str, SubtestStatus)> {
    r.subtests
        .iter()
        .map(|s| (s.name.as_str(), s.status))
        .collect()
}

#[test]
fn results_come_from_testharness_and_hangs_time_out() {
    let c = Corpus::new(
        "basic",
        &[(
            "t/basic.any.js",
            r#"
test(() => { assert_true(true); }, "sync pass");
test(() => { assert_equals(1, 2, "one is two"); }, "sync fail");
promise_test(async () => { await Promise.resolve(); }, "promise pass");
promise_test(() => new Promise(() => {}), "promise hang");
promise_test(async () => {}, "queued behind the hang");
"#,
        )],
    );
    let r = c.run("t/basic.any.js");
    assert_eq!(r.harness, HarnessStatus::Timeout, "{r:?}");
    assert!(r.subtests_reported);
    assert_eq!(
        statuses(&r),
        vec![
            ("sync pass", SubtestStatus::Pass),
            ("sync fail", SubtestStatus::Fail),
            ("promise pass", SubtestStatus::Pass),
            ("promise hang", SubtestStatus::Timeout),
            ("queued behind the hang", SubtestStatus::Notrun),
        ]
    );
    let fail = r.subtests.get(1).and_then(|s| s.message.clone()).unwrap();
    assert!(fail.contains("one is two"), "{fail}");
    assert!(r.message.unwrap().contains("idle"));
}

#[test]
fn a_complete_file_is_ok() {
    let c = Corpus::new(
        "ok",
        &[(
            "ok.any.js",
            r#"
promise_test(async () => {
  assert_equals(typeof gc, "function", "gc exposed");
  assert_equals(self, globalThis, "self is the global");
  assert_equals(GLOBAL.isWindow(), false);
}, "globals");
"#,
        )],
    );
    let r = c.run("ok.any.js");
    assert_eq!(r.harness, HarnessStatus::Ok, "{r:?}");
    assert_eq!(statuses(&r), vec![("globals", SubtestStatus::Pass)]);
}

#[test]
fn meta_scripts_title_and_virtual_time() {
    let c = Corpus::new(
        "meta",
        &[
            ("common/helper.js", "self.fromAbsolute = 1;"),
            ("d/resources/local.js", "self.fromRelative = 2;"),
            (
                "d/meta.any.js",
                r#"// META: script=/common/helper.js
// META: script=resources/local.js
// META: title=The title
test(function () { assert_equals(fromAbsolute + fromRelative, 3); });
promise_test(t => new Promise(resolve => t.step_timeout(resolve, 100000)), "a long timer");
"#,
            ),
        ],
    );
    let r = c.run("d/meta.any.js");
    assert_eq!(r.harness, HarnessStatus::Ok, "{r:?}");
    // The unnamed test takes the META title; a 100 s timer fires on virtual time, well
    // before the 30 s wall-clock deadline.
    assert_eq!(
        statuses(&r),
        vec![
            ("The title", SubtestStatus::Pass),
            ("a long timer", SubtestStatus::Pass)
        ]
    );
}

#[test]
fn fetch_shim_serves_interfaces() {
    let c = Corpus::new(
        "fetch",
        &[
            ("interfaces/x.idl", "interface X {};\n"),
            (
                "f.any.js",
                r#"
promise_test(async () => {
  const r = await fetch("/interfaces/x.idl");
  assert_true(r.ok);
  assert_equals(r.status, 200);
  assert_equals(await r.text(), "interface X {};\n");
  const missing = await fetch("/interfaces/nope.idl");
  assert_false(missing.ok);
  assert_equals(missing.status, 404);
}, "fetch");
"#,
            ),
        ],
    );
    let r = c.run("f.any.js");
    assert_eq!(statuses(&r), vec![("fetch", SubtestStatus::Pass)], "{r:?}");
}

#[test]
fn exceptions_and_unhandled_rejections_are_harness_errors() {
    let c = Corpus::new(
        "errors",
        &[
            (
                "throws.any.js",
                "test(() => {}, \"before\");\nthrow new TypeError(\"top-level boom\");\n",
            ),
            (
                "rejects.any.js",
                "test(() => {}, \"fine\");\nPromise.reject(new RangeError(\"nobody listens\"));\n",
            ),
            (
                "missing-meta.any.js",
                "// META: script=/nope.js\ntest(() => {}, \"t\");\n",
            ),
        ],
    );
    let r = c.run("throws.any.js");
    assert_eq!(r.harness, HarnessStatus::Error, "{r:?}");
    assert!(
        r.message.as_deref().unwrap().contains("top-level boom"),
        "{r:?}"
    );
    assert_eq!(statuses(&r), vec![("before", SubtestStatus::Pass)]);

    let r = c.run("rejects.any.js");
    assert_eq!(r.harness, HarnessStatus::Error, "{r:?}");
    assert!(
        r.message.as_deref().unwrap().contains("nobody listens"),
        "{r:?}"
    );

    let r = c.run("missing-meta.any.js");
    assert_eq!(r.harness, HarnessStatus::Error, "{r:?}");
    assert!(r.message.as_deref().unwrap().contains("nope.js"), "{r:?}");
}
