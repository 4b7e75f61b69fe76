//! The host's `console` logger: where each level goes, as in Node and Deno. `log`, `info`,
//! `debug` (and what boa_runtime's console prints at those levels: `table`, `group` labels,
//! `timeLog`/`timeEnd`, `count`) go to standard output; `warn`, `error`, `trace` and a
//! failing `assert` (and boa_runtime's `warn`-level notices: an unknown timer or counter) go
//! to standard error. Inside `console.group()` each line is indented by two spaces a level.

use std::io::Write;

use boa_engine::{Context, JsError, JsResult};
use boa_gc::{Finalize, Trace};
use boa_runtime::{ConsoleState, Logger};

/// The logger the host's `console` writes through (see the module documentation).
#[derive(Debug, Default, Trace, Finalize)]
pub(crate) struct HostLogger;

/// Which stream a message goes to.
#[derive(Clone, Copy)]
enum Stream {
    Out,
    Err,
}

/// `msg` with every line indented for the current group depth, and a final newline.
fn indented(msg: &str, state: &ConsoleState) -> String {
    let indent = " ".repeat(state.indent());
    let mut text = String::with_capacity(msg.len() + indent.len() + 1);
    for (i, line) in msg.split('\n').enumerate() {
        if i > 0 {
            text.push('\n');
        }
        text.push_str(&indent);
        text.push_str(line);
    }
    text.push('\n');
    text
}

/// Write `text` to `stream` in one call (a line from another thread is not interleaved
/// inside it).
fn write(stream: Stream, text: &str) -> JsResult<()> {
    let result = match stream {
        Stream::Out => std::io::stdout().lock().write_all(text.as_bytes()),
        Stream::Err => std::io::stderr().lock().write_all(text.as_bytes()),
    };
    result.map_err(JsError::from_rust)
}

impl Logger for HostLogger {
    fn trace(&self, msg: String, state: &ConsoleState, context: &mut Context) -> JsResult<()> {
        // As Node prints it: `Trace: <message>`, then one `    at <function>` line a frame.
        let mut text = if msg.is_empty() {
            "Trace".to_owned()
        } else {
            format!("Trace: {msg}")
        };
        for frame in context.stack_trace() {
            let name = frame.code_block().name();
            let name = if name.is_empty() {
                "<anonymous>".to_owned()
            } else {
                name.to_std_string_escaped()
            };
            text.push_str("\n    at ");
            text.push_str(&name);
        }
        write(Stream::Err, &indented(&text, state))
    }

    fn debug(&self, msg: String, state: &ConsoleState, _: &mut Context) -> JsResult<()> {
        write(Stream::Out, &indented(&msg, state))
    }

    fn log(&self, msg: String, state: &ConsoleState, _: &mut Context) -> JsResult<()> {
        write(Stream::Out, &indented(&msg, state))
    }

    fn info(&self, msg: String, state: &ConsoleState, _: &mut Context) -> JsResult<()> {
        write(Stream::Out, &indented(&msg, state))
    }

    fn warn(&self, msg: String, state: &ConsoleState, _: &mut Context) -> JsResult<()> {
        write(Stream::Err, &indented(&msg, state))
    }

    fn error(&self, msg: String, state: &ConsoleState, _: &mut Context) -> JsResult<()> {
        write(Stream::Err, &indented(&msg, state))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_are_indented_for_the_group_depth() {
        let state = ConsoleState::default();
        assert_eq!(indented("a\nb", &state), "a\nb\n");
        assert_eq!(indented("", &state), "\n");
    }
}
