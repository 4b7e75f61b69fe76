//! The ordering oracle: the WHATWG reference implementation, loaded from
//! `../shared/refimpl/streams-refimpl.js` and patched at load time (never copied into the
//! repository).
//!
//! # Patch `pipe-write-deferred`
//!
//! The spec says ReadableStreamPipeTo reads and writes "in parallel" and fixes only
//! constraints. WPT `streams/piping/general-addition.any.js` ("enqueue() must not
//! synchronously call write()") requires that a chunk enqueued into the pipe's pending read is
//! not written synchronously inside `enqueue()`. The reference's read request chunk steps
//! call `WritableStreamDefaultWriterWrite` directly, i.e. synchronously inside `enqueue()`.
//! The patch defers that write by one microtask (the form the refimpl README suggests), so
//! the oracle models the WPT-required order. `load` fails if the text to patch is not found
//! exactly once.

/// The reference's pipe read request chunk steps, verbatim.
pub const PIPE_CHUNK_STEPS: &str = "              chunkSteps: chunk => {
                currentWrite = transformPromiseWith(
                  WritableStreamDefaultWriterWrite(writer, chunk), undefined, () => {}
                );
                resolveRead(false);
              },";

/// The same steps with the write deferred by one microtask.
pub const PIPE_CHUNK_STEPS_PATCHED: &str = "              chunkSteps: chunk => {
                // difftest patch pipe-write-deferred (wpt/difftest/README.md)
                currentWrite = new Promise(res => queueMicrotask(() => res(transformPromiseWith(
                  WritableStreamDefaultWriterWrite(writer, chunk), undefined, () => {}))));
                resolveRead(false);
              },";

/// Apply every oracle patch to the reference text.
pub fn patch(text: &str) -> Result<String, String> {
    let count = text.matches(PIPE_CHUNK_STEPS).count();
    if count != 1 {
        return Err(format!(
            "oracle patch pipe-write-deferred: expected the pipe read request's chunk steps \
             exactly once in the reference implementation, found {count} (a different refimpl \
             build?)"
        ));
    }
    Ok(text.replacen(PIPE_CHUNK_STEPS, PIPE_CHUNK_STEPS_PATCHED, 1))
}

/// Read and patch the reference implementation.
pub fn load(path: &std::path::Path) -> Result<String, String> {
    let text = std::fs::read_to_string(path).map_err(|e| {
        format!(
            "cannot read the reference implementation {}: {e}",
            path.display()
        )
    })?;
    patch(&text)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn patch_replaces_exactly_the_chunk_steps() {
        let text = format!("a\n{PIPE_CHUNK_STEPS}\nb");
        let patched = patch(&text).unwrap();
        assert_eq!(patched, format!("a\n{PIPE_CHUNK_STEPS_PATCHED}\nb"));
    }

    #[test]
    fn patch_fails_loudly_when_the_text_is_missing_or_repeated() {
        assert!(patch("no pipe here").is_err());
        let twice = format!("{PIPE_CHUNK_STEPS}{PIPE_CHUNK_STEPS}");
        assert!(patch(&twice).is_err());
    }
}
