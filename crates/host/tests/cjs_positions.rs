//! Positions in CommonJS files: the module wrapper comes first on the file's first line, yet
//! `err.stack`, uncaught error reports (the `error` event's `colno`, the printed stack) and
//! SyntaxError positions give the column in the file, as for an ES module with the same text.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn temp_dir(test: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!(
        "boa-streams-cjs-positions-{}-{test}",
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    std::fs::canonicalize(&dir).expect("canonical dir")
}

fn write(dir: &Path, name: &str, text: &str) {
    std::fs::write(dir.join(name), text).expect("write");
}

fn run(dir: &Path, file: &str) -> Output {
    Command::new(env!("CARGO_BIN_EXE_boa-streams"))
        .arg(file)
        .current_dir(dir)
        .output()
        .expect("run boa-streams")
}

fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// The `line:column` right after `file` in `text` (its first occurrence).
fn position_of(text: &str, file: &str) -> Option<(u32, u32)> {
    let at = text.find(&format!("{file}:"))? + file.len() + 1;
    let rest = text.get(at..)?;
    let mut parts = rest.splitn(3, |c: char| !c.is_ascii_digit());
    let line = parts.next()?.parse().ok()?;
    let column = parts.next()?.parse().ok()?;
    Some((line, column))
}

/// The same first line as CommonJS, as an ES module, and (one line down) as CommonJS.
#[test]
fn err_stack_columns_on_the_first_line_are_the_files() {
    let dir = temp_dir("stack");
    let line = "const e = new Error('x'); console.log(e.stack);\n";
    write(&dir, "a.cjs", line);
    write(&dir, "a.mjs", line);
    write(&dir, "b.cjs", &format!("\n{line}"));
    let cjs = stdout(&run(&dir, "a.cjs"));
    let esm = stdout(&run(&dir, "a.mjs"));
    let below = stdout(&run(&dir, "b.cjs"));
    let (l1, c1) = position_of(&cjs, "a.cjs").unwrap_or_else(|| panic!("{cjs}"));
    let (_, c_esm) = position_of(&esm, "a.mjs").unwrap_or_else(|| panic!("{esm}"));
    let (l2, c2) = position_of(&below, "b.cjs").unwrap_or_else(|| panic!("{below}"));
    assert_eq!((l1, l2), (1, 2));
    // `new Error('x')` starts at column 11.
    assert_eq!(c1, 11, "{cjs}");
    assert_eq!(c1, c_esm, "{cjs} / {esm}");
    assert_eq!(c1, c2, "{cjs} / {below}");
}

/// A function declared on line 1 and called from line 2: the first frame's column is the
/// file's (`new` at 23; in a required file, at 22), the frames of other lines are as the
/// engine gives them (a call's position is its `(`).
#[test]
fn frames_of_functions_on_the_first_line_and_required_files() {
    let dir = temp_dir("frames");
    write(&dir, "dep.cjs", "exports.make = () => new Error('dep');\n");
    write(
        &dir,
        "main.cjs",
        "function f() { return new Error('f'); }\n\
         console.log(f().stack);\n\
         console.log(require('./dep.cjs').make().stack);\n",
    );
    let out = run(&dir, "main.cjs");
    let text = stdout(&out);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let frames: Vec<&str> = text.lines().map(str::trim).collect();
    let main = dir.join("main.cjs");
    let dep = dir.join("dep.cjs");
    let main = main.display();
    let dep = dep.display();
    assert!(
        frames.contains(&format!("at f ({main}:1:23)").as_str()),
        "{text}"
    );
    assert!(
        frames
            .iter()
            .any(|f| f.ends_with(&format!("({main}:2:14)"))),
        "{text}"
    );
    assert!(
        frames.iter().any(|f| f.ends_with(&format!("({dep}:1:22)"))),
        "{text}"
    );
    assert!(
        frames
            .iter()
            .any(|f| f.ends_with(&format!("({main}:3:38)"))),
        "{text}"
    );
}

/// An uncaught error thrown on the first line: the `error` event's `lineno`/`colno` and the
/// printed report say the file's column.
#[test]
fn uncaught_errors_report_the_files_column() {
    let dir = temp_dir("uncaught");
    let line = "addEventListener('error', (e) => console.log('event', e.lineno, e.colno)); throw new Error('boom');\n";
    write(&dir, "main.cjs", line);
    write(&dir, "main.mjs", line);
    let cjs = run(&dir, "main.cjs");
    let esm = run(&dir, "main.mjs");
    // `new Error('boom')` starts at column 82.
    assert_eq!(stdout(&cjs), "event 1 82\n", "{}", stderr(&cjs));
    assert_eq!(stdout(&esm), stdout(&cjs));
    let cjs = run_unlistened(&dir, "plain.cjs", "throw new Error('boom');\n");
    assert_eq!(position_of(&cjs, "plain.cjs"), Some((1, 7)), "{cjs}");
}

/// The stderr of a file (written first) that throws with no listener.
fn run_unlistened(dir: &Path, name: &str, text: &str) -> String {
    write(dir, name, text);
    let out = run(dir, name);
    assert_ne!(out.status.code(), Some(0));
    stderr(&out)
}

/// A SyntaxError on the first line of a CommonJS file (the main one or a required one)
/// names the file's column; on another line it was right already.
#[test]
fn syntax_errors_on_the_first_line_name_the_files_column() {
    let dir = temp_dir("syntax");
    // Required by main: the error is catchable, its message has the position.
    write(&dir, "bad1.cjs", "let x = ;\n");
    write(&dir, "bad2.cjs", "\nlet x = ;\n");
    write(
        &dir,
        "main.cjs",
        "for (const f of ['./bad1.cjs', './bad2.cjs']) {\n\
         try { require(f); } catch (e) { console.log(e.name, e.message.slice(e.message.lastIndexOf('/') + 1)); }\n\
         }\n",
    );
    let out = run(&dir, "main.cjs");
    let text = stdout(&out);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 2, "{text}{}", stderr(&out));
    assert!(
        lines[0].starts_with("SyntaxError") && lines[0].ends_with("bad1.cjs:1:9)"),
        "{text}"
    );
    assert!(lines[1].ends_with("bad2.cjs:2:9)"), "{text}");
    // The main file itself.
    let main = run_unlistened(&dir, "bad3.cjs", "let y = ;\n");
    assert_eq!(position_of(&main, "bad3.cjs"), Some((1, 9)), "{main}");
}
