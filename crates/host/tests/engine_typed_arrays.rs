//! Patch 0007-typed-array-bulk-ops (third_party/boa/README.md): `%TypedArray%.prototype`
//! `fill`, `set`, `slice`, `copyWithin`, `indexOf`, `lastIndexOf` and `includes` work on the
//! elements' bytes. `fixtures/typed_arrays/cases.js` runs each method over every element type,
//! negative and out-of-range indices, NaN/-0/Infinity, float-to-int conversions, BigInt arrays,
//! overlapping copies in one buffer, views with offsets, shared buffers and buffers detached or
//! resized by the arguments' conversions; `expected.txt` is its output under Node.js (V8),
//! regenerated with
//!
//! ```sh
//! node -e 'const fs = require("fs"); process.stdout.write(require("vm").runInThisContext(
//!   fs.readFileSync("crates/host/tests/fixtures/typed_arrays/cases.js", "utf8")) + "\n")' \
//!   > crates/host/tests/fixtures/typed_arrays/expected.txt
//! ```

use std::time::Duration;

use boa_engine::error::EngineError;
use boa_engine::{Context, JsValue, Source};

const CASES: &str = include_str!("fixtures/typed_arrays/cases.js");
const EXPECTED: &str = include_str!("fixtures/typed_arrays/expected.txt");

fn eval(context: &mut Context, code: &str) -> JsValue {
    match context.eval(Source::from_bytes(code)) {
        Ok(value) => value,
        Err(error) => panic!("{code}: {error}"),
    }
}

/// The lines of `cases.js` whose group (`// GROUP name`) is `group`, with the shared prelude.
fn group_script(group: &str) -> String {
    let (prelude, groups) = CASES.split_once("// GROUP ").expect("groups");
    let body = groups
        .split("// GROUP ")
        .find_map(|g| g.strip_prefix(group)?.strip_prefix('\n'))
        .unwrap_or_else(|| panic!("no group {group}"));
    format!("{prelude}{body}\nout.join('\\n');")
}

/// Runs one group of the cases and compares its lines with Node's.
fn check_group(group: &str) {
    let mut context = Context::default();
    let got = eval(&mut context, &group_script(group));
    let got = got
        .as_string()
        .expect("the cases return a string")
        .to_std_string_escaped();
    let expected = EXPECTED.lines().collect::<Vec<_>>();
    let mut mismatches = Vec::new();
    let mut lines = 0;
    for line in got.lines() {
        lines += 1;
        if !expected.contains(&line) {
            mismatches.push(line.to_owned());
        }
    }
    assert!(lines > 0, "group {group} printed nothing");
    assert!(
        mismatches.is_empty(),
        "{} of {lines} lines of group {group} differ from Node's:\n{}",
        mismatches.len(),
        mismatches.join("\n")
    );
}

#[test]
fn the_cases_cover_every_line_node_printed() {
    // The groups together print exactly Node's lines, in order.
    let mut context = Context::default();
    let all = eval(&mut context, CASES);
    let all = all.as_string().expect("string").to_std_string_escaped();
    let got = all.lines().collect::<Vec<_>>();
    let expected = EXPECTED.lines().collect::<Vec<_>>();
    let first_difference = got
        .iter()
        .zip(&expected)
        .position(|(a, b)| a != b)
        .map(|i| format!("line {}: got {:?}, Node {:?}", i + 1, got[i], expected[i]));
    assert_eq!(first_difference, None);
    assert_eq!(got.len(), expected.len());
}

#[test]
fn fill_matches_node() {
    check_group("fill");
}

#[test]
fn index_of_last_index_of_and_includes_match_node() {
    check_group("search");
}

#[test]
fn set_matches_node() {
    check_group("set");
}

#[test]
fn slice_matches_node() {
    check_group("slice");
}

#[test]
fn copy_within_matches_node() {
    check_group("copyWithin");
}

/// Runs `code` while another thread interrupts it after a short while; the error it ends with.
fn interrupted(context: &mut Context, code: &str) -> boa_engine::JsError {
    let handle = context.interrupt_handle();
    let watchdog = std::thread::spawn(move || {
        std::thread::sleep(Duration::from_millis(30));
        handle.interrupt();
    });
    let result = context.eval(Source::from_bytes(code));
    watchdog.join().expect("watchdog");
    let error = result.expect_err("the script was not stopped");
    context.interrupt_handle().reset();
    error
}

#[test]
fn the_interrupt_stops_every_bulk_operation() {
    for code in [
        "const a = new Uint8Array(64 << 20); for (;;) a.fill(1)",
        "const a = new Float64Array(8 << 20); for (;;) a.fill(0.5)",
        "const a = new Uint8Array(new SharedArrayBuffer(64 << 20)); for (;;) a.fill(1)",
        "const a = new Uint8Array(64 << 20); for (;;) a.indexOf(1)",
        "const a = new Uint8Array(64 << 20); for (;;) a.lastIndexOf(1)",
        "const a = new Float32Array(16 << 20); for (;;) a.includes(NaN)",
        "const a = new Uint8Array(64 << 20); for (;;) a.slice()",
        "const a = new Uint8Array(64 << 20); for (;;) a.copyWithin(1, 0)",
        "const a = new Uint8Array(64 << 20), b = new Uint8Array(64 << 20); for (;;) b.set(a)",
        "const a = new Int8Array(16 << 20), b = new Float64Array(16 << 20); for (;;) b.set(a)",
        "const a = Array.from({ length: 1 << 20 }, (_, i) => i), b = new Int32Array(1 << 20); \
         for (;;) b.set(a)",
    ] {
        let mut context = Context::default();
        let error = interrupted(&mut context, code);
        assert!(
            matches!(error.as_engine(), Some(EngineError::Interrupted)),
            "{code}: {error}"
        );
    }
}

#[test]
fn bulk_operations_run_at_memory_speed() {
    // Boa 0.22 without the patch: ~6 s for the 64 MiB fill (element by element through `Set`),
    // ~1.5 s for the 16 MiB search, ~0.5 s for the set from an Array. The bounds leave a wide
    // margin for a loaded machine.
    let mut context = Context::default();
    for (setup, operation, bound_ms) in [
        ("const a = new Uint8Array(64 << 20);", "a.fill(1)", 1500.0),
        ("const b = new Uint8Array(16 << 20);", "b.indexOf(1)", 300.0),
        (
            "const c = new Float64Array(2 << 20);",
            "c.includes(NaN)",
            300.0,
        ),
        (
            "const d = Array.from({ length: 1e6 }, (_, i) => i), e = new Float64Array(1e6);",
            "e.set(d)",
            300.0,
        ),
    ] {
        eval(&mut context, setup);
        let ms = eval(
            &mut context,
            &format!("(() => {{ const t = Date.now(); {operation}; return Date.now() - t; }})()"),
        );
        let ms = ms.as_number().expect("a number");
        assert!(ms < bound_ms, "{operation}: {ms} ms");
    }
}
