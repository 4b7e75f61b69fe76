//! The CommonJS module wrapper: the text around a CommonJS file's source, the files a
//! context compiled in it, and how a position in the wrapped text maps back to the file's
//! (in SyntaxErrors and stack traces). A leaf: `cjs` wraps, the event loop's error reports
//! correct their stacks.

use std::collections::HashSet;

use boa_engine::Context;

/// What [`wrap`] puts before a CommonJS file's first line.
const WRAPPER_PREFIX: &str = "(function (exports, require, module, __filename, __dirname) {";

/// The module wrapper around a CommonJS file's text (the text starts on the first line, so
/// line numbers are the file's, and so are columns but on the first line, which
/// [`file_position`] and [`fix_stack_columns`] correct; a `#!` line becomes a comment).
pub(crate) fn wrap(text: &str) -> String {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut out = String::with_capacity(text.len() + 96);
    out.push_str(WRAPPER_PREFIX);
    match text.strip_prefix("#!") {
        Some(rest) => {
            out.push_str("//");
            out.push_str(rest);
        }
        None => out.push_str(text),
    }
    out.push_str("\n})");
    out
}

/// The CommonJS files this context compiled in the wrapper (their paths as stack traces
/// show them).
#[derive(Debug, Default)]
pub(crate) struct WrappedFiles(pub(crate) std::cell::RefCell<HashSet<String>>);

/// The column in the CommonJS file of a position the engine reports in its wrapped text:
/// on the first line the wrapper's prefix comes first (a column inside it, which no
/// position of the file's code has, becomes 1); other lines are the file's.
pub(crate) fn file_position(line: u32, column: u32) -> u32 {
    if line != 1 {
        return column;
    }
    let prefix = u32::try_from(WRAPPER_PREFIX.len()).unwrap_or(0);
    column.saturating_sub(prefix).max(1)
}

/// `stack` (a Boa stack trace: lines `    at name (path:line:column)`) with the positions on
/// the first line of the CommonJS files this context wrapped moved to the files' own
/// columns; `None` when nothing changes.
pub(crate) fn fix_stack_columns(stack: &str, context: &Context) -> Option<String> {
    let files = context.get_data::<WrappedFiles>()?.0.borrow();
    if files.is_empty() {
        return None;
    }
    let mut changed = false;
    let lines: Vec<String> = stack
        .split('\n')
        .map(|line| match fix_frame(line, &files) {
            Some(fixed) => {
                changed = true;
                fixed
            }
            None => line.to_owned(),
        })
        .collect();
    changed.then(|| lines.join("\n"))
}

/// One frame line of [`fix_stack_columns`], if it changes.
fn fix_frame(line: &str, files: &HashSet<String>) -> Option<String> {
    if !line.trim_start().starts_with("at ") {
        return None;
    }
    let body = line.strip_suffix(')')?;
    let open = body.rfind('(')?;
    let place = body.get(open + 1..)?;
    let mut parts = place.rsplitn(3, ':');
    let column: u32 = parts.next()?.parse().ok()?;
    let row = parts.next()?;
    let path = parts.next()?;
    if row != "1" || !files.contains(path) {
        return None;
    }
    let head = body.get(..=open)?;
    Some(format!("{head}{path}:1:{})", file_position(1, column)))
}
