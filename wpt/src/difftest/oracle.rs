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
//! the oracle models the WPT-required order.
//!
//! # Patch `from-webidl-exact`
//!
//! `ReadableStream.from()` opens an async sequence, gets its next values and closes it with
//! WebIDL's algorithms, over ECMA-262's CreateAsyncFromSyncIterator for sync iterables. The
//! reference delegates these to webidl2js stand-ins whose microtask counts differ from the
//! text: `next()` / `return()` are async functions that `await` the iterator's result
//! (PromiseResolve, no new promise), where WebIDL takes "a promise resolved with" it (always a
//! new promise: for a native promise a NewPromiseResolveThenableJob and a reaction; the
//! reference's own `promiseResolvedWith` notes that Promise.resolve "will return value itself
//! sometimes, unlike Web IDL"); CreateAsyncFromSyncIterator is an async generator around
//! `yield*` (extra Awaits, `next` read lazily, `return()` not forwarded before the first
//! `next()` and forwarded one microtask late); the pull algorithm has no rejection steps (the
//! spec errors the stream in the reaction: "If nextPromise was rejected with reason r, perform
//! ! ReadableStreamDefaultControllerError(stream.[[controller]], r)", the reference one
//! microtask later through the pull promise) and the cancel algorithm adds a reaction to the
//! close. The patch replaces the three pieces with the specs' steps, transcribed one to one.
//!
//! # Patch `pipe-no-read-after-shutdown`
//!
//! The spec's pipeTo constraint "Shutdown must stop activity: after shuttingDown becomes true,
//! the user agent must not initiate further reads from reader". The reference checks
//! shuttingDown when a pipe step starts, then reads from a reaction to the ready promise; a
//! shutdown that begins in between (a signal aborted right after `pipeTo()`, seed 34677) still
//! gets a read (and so an extra `pull()`). The patched reaction checks shuttingDown again and
//! ends the loop without a read, as ours does.
//!
//! # Patch `pipe-no-read-without-desire`
//!
//! The spec's pipeTo constraint: "While WritableStreamDefaultWriterGetDesiredSize(writer) is ≤
//! 0 or is null, the user agent must not read from reader." The reference's pipe step reads
//! from a reaction to the writer's ready promise without checking again, so when the
//! destination starts erroring (or backpressure returns) between the ready promise's
//! fulfilment and that reaction, it reads anyway (difftest seeds 306 and 748). The patch makes
//! the step check the desired size first and, when it must not read, end the step without a
//! read (the loop then waits on the writer's current ready promise, as ours does).
//!
//! # Patch `spec-hole-chunk-size-assert`
//!
//! WritableStreamDefaultControllerGetChunkSize step 1.1 asserts that the stream is not
//! "writable" when the size algorithm was cleared, but `write()` while a `close()` is in
//! flight reaches it with the stream still "writable" (the close cleared the algorithms). The
//! reference's own comments say its asserts are not normative; without the assert the steps go
//! on ("Return 1"), and WritableStreamDefaultWriterWrite rejects with a TypeError because the
//! close is queued or in flight, which is what ours does. The patch drops that one assert.
//!
//! # Patch `spec-hole-transform-cleared-cancel`
//!
//! TransformStreamDefaultSinkAbortAlgorithm step 5 and TransformStreamDefaultSourceCancelAlgorithm
//! step 5 perform controller.[[cancelAlgorithm]] after `terminate()` or `controller.error()` may already have run
//! TransformStreamDefaultControllerClearAlgorithms (which sets it to undefined). The reference
//! then calls `undefined`, throws, and `abort()` never settles or `cancel()` rejects with that
//! TypeError (seeds 287, 1698, 7395, 22911, ...). Ours treats a cleared cancel algorithm as one that does nothing (a promise
//! resolved with undefined), like every other cleared algorithm in the spec; the patch makes
//! the oracle do the same in that one place.
//!
//! # Patch `spec-hole-transform-cleared-transform`
//!
//! TransformStreamDefaultSourceCancelAlgorithm step 6 clears the algorithms at once, but the
//! writable side is errored only in the reaction to cancelPromise (step 7.1.2.1). A write that
//! reaches TransformStreamDefaultSinkWriteAlgorithm in between (the stream is still
//! "writable", without backpressure) performs controller.[[transformAlgorithm]] in
//! TransformStreamDefaultControllerPerformTransform step 1 after it was set to undefined. The
//! reference calls `undefined`: the TypeError escapes `WritableStreamDefaultWriterWrite` (an
//! uncaught error from the pipe's write microtask in seed 29546), the pipe never ends, and the
//! source is never cancelled. Ours treats the cleared algorithm as one that does nothing (a
//! promise resolved with undefined, like the other cleared algorithms); the write then
//! fulfils, and the cancel reaction errors the writable side with the reason. Node.js fixed the
//! same race the same way (nodejs/node#62036, #62040). The patch makes the oracle do this in
//! that one place.
//!
//! # Patch `pipe-abort-algorithm`
//!
//! ReadableStreamPipeTo: "Add the algorithm abortAlgorithm to signal" and, in finalize,
//! "Remove abortAlgorithm from signal". DOM "signal abort" runs a signal's abort algorithms
//! before it fires the `abort` event. The reference cannot reach the host signal's abort
//! algorithms and adds `abortAlgorithm` as an `abort` event listener instead, so a listener a
//! program added earlier runs before the pipe's shutdown (seed 34677). The patch adds it
//! through two host hooks the tool installs for the reference run only
//! (`boa_web::boa_dom::add_abort_algorithm` / `remove_abort_algorithm`); the bundle's wrapper
//! captures them and deletes the global that carried them before any program runs.
//!
//! `load` fails if a text to patch is not found exactly once.

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

/// The reference's CreateAsyncFromSyncIterator stand-in (an async generator around `yield*`), verbatim.
const FROM_SYNC_WRAPPER: &str = r##"function createAsyncFromSyncIterator(syncIterator) {
  // Instead of re-implementing CreateAsyncFromSyncIterator and %AsyncFromSyncIteratorPrototype%,
  // we use yield* inside an async generator function to achieve the same result.

  // Wrap the sync iterator inside a sync iterable, so we can use it with yield*.
  const syncIterable = {
    [Symbol.iterator]: () => syncIterator
  };
  // Create an async generator function and immediately invoke it.
  const asyncIterator = (async function* () {
    return yield* syncIterable;
  })();
  // Return as an async iterator record.
  return asyncIterator;
}

"##;

/// ECMA-262 CreateAsyncFromSyncIterator with %AsyncFromSyncIteratorPrototype%.next / return and AsyncFromSyncIteratorContinuation, step by step (`next` read once, by GetIteratorFromMethod).
const FROM_SYNC_WRAPPER_PATCHED: &str = r##"function createAsyncFromSyncIterator(syncIterator, syncNext) {
  // difftest patch from-webidl-exact: ECMA-262 CreateAsyncFromSyncIterator.
  const then = Promise.prototype.then;
  function iteratorClose(error) {
    try { const ret = getMethod(syncIterator, "return"); if (ret !== undefined) call(ret, syncIterator); } catch {}
    throw error;
  }
  function continuation(result, closeOnRejection) {
    // AsyncFromSyncIteratorContinuation(result, promiseCapability, syncIteratorRecord, closeOnRejection)
    const done = Boolean(result.done);
    const value = result.value;
    let valueWrapper;
    try { valueWrapper = Promise.resolve(value); } catch (e) {
      if (!done && closeOnRejection) { iteratorClose(e); }
      throw e;
    }
    const onRejected = (done || !closeOnRejection) ? undefined : iteratorClose;
    return call(then, valueWrapper, v => ({ value: v, done }), onRejected);
  }
  return {
    next() {
      let result;
      try {
        result = call(syncNext, syncIterator);
        if (!isObject(result)) { throw new TypeError("iterator result is not an object"); }
        return continuation(result, true);
      } catch (e) { return Promise.reject(e); }
    },
    return(value) {
      try {
        const ret = getMethod(syncIterator, "return");
        if (ret === undefined) { return Promise.resolve({ value, done: true }); }
        const result = call(ret, syncIterator, value);
        if (!isObject(result)) { throw new TypeError("return() result is not an object"); }
        return continuation(result, false);
      } catch (e) { return Promise.reject(e); }
    }
  };
}

"##;

/// webidl2js's opened async sequence: `next()` / `return()` as async functions awaiting the iterator's result, verbatim.
const FROM_OPEN_SEQUENCE: &str = r##"  if (type === "sync") {
    iterator = createAsyncFromSyncIterator(iterator);
  }
  const nextMethod = iterator.next;
  return {
    async next() {
      const nextResult = await call(nextMethod, iterator);
      if (!isObject(nextResult)) {
        throw new TypeError(`${errPrefix}'s next method must return an object`);
      }
      const { done, value } = nextResult;
      if (done) {
        return { done: true, value: undefined };
      }
      return { done: false, value: itemConverter(value) };
    },
    async return(reason) {
      const returnMethod = getMethod(iterator, "return", errPrefix);
      if (returnMethod === undefined) {
        return { done: true, value: undefined };
      }
      const returnResult = await call(returnMethod, iterator, reason);
      if (!isObject(returnResult)) {
        throw new TypeError(`${errPrefix}'s return method must return an object`);
      }
      return { done: true, value: undefined };
    },"##;

/// WebIDL "get the next value of an async iterator" and "close an async iterator": IteratorNext (a non-object result is an abrupt completion), "a promise resolved with" the result (a new promise), then one reaction.
const FROM_OPEN_SEQUENCE_PATCHED: &str = r##"  let nextMethod = iterator.next;
  if (type === "sync") {
    iterator = createAsyncFromSyncIterator(iterator, nextMethod);
    nextMethod = iterator.next;
  }
  const then = Promise.prototype.then;
  return {
    // difftest patch from-webidl-exact: WebIDL "get the next value of an async iterator".
    next() {
      let nextResult;
      try {
        nextResult = call(nextMethod, iterator);
        if (!isObject(nextResult)) { throw new TypeError(`${errPrefix}'s next method must return an object`); }
      } catch (e) { return Promise.reject(e); }
      const nextPromise = new Promise(resolve => resolve(nextResult));
      return call(then, nextPromise, iterResult => {
        if (!isObject(iterResult)) { throw new TypeError(`${errPrefix}'s next method must fulfill with an object`); }
        // The steps return "end of iteration" (here a symbol: not an object, so resolving
        // with it reads no "then") or the value itself (resolving with an object reads its
        // "then"; a thenable value is adopted).
        if (iterResult.done) { return Symbol.for("difftest end of iteration"); }
        return itemConverter(iterResult.value);
      });
    },
    // WebIDL "close an async iterator".
    return(reason) {
      let returnMethod, returnResult;
      try {
        returnMethod = getMethod(iterator, "return", errPrefix);
        if (returnMethod === undefined) { return new Promise(resolve => resolve(undefined)); }
        returnResult = call(returnMethod, iterator, reason);
      } catch (e) { return Promise.reject(e); }
      const returnPromise = new Promise(resolve => resolve(returnResult));
      return call(then, returnPromise, r => {
        if (!isObject(r)) { throw new TypeError(`${errPrefix}'s return method must return an object`); }
        return undefined;
      });
    },"##;

/// ReadableStreamFromIterable's pull reaction (no rejection steps) and cancel algorithm (one more reaction on the close), verbatim.
const FROM_ITERABLE_ALGORITHMS: &str = r##"  function pullAlgorithm() {
    const nextPromise = iterator.next();
    return transformPromiseWith(nextPromise, iterResult => {
      const done = IteratorComplete(iterResult);
      if (done === true) {
        ReadableStreamDefaultControllerClose(stream._controller);
      } else {
        const value = IteratorValue(iterResult);
        ReadableStreamDefaultControllerEnqueue(stream._controller, value);
      }
    });
  }

  function cancelAlgorithm(reason) {
    const returnPromise = iterator.return(reason);
    return transformPromiseWith(returnPromise, () => {
      return undefined;
    });
  }

"##;

/// The spec's steps: "If nextPromise was rejected with reason r, perform ! ReadableStreamDefaultControllerError(stream.[[controller]], r)" in the pull reaction; cancel "Return the result of closing iterator with reason".
const FROM_ITERABLE_ALGORITHMS_PATCHED: &str = r##"  function pullAlgorithm() {
    // difftest patch from-webidl-exact: "Return the result of reacting to nextPromise" with
    // both the fulfillment and the rejection steps of ReadableStreamFromIterable.
    const nextPromise = iterator.next();
    return transformPromiseWith(nextPromise, v => {
      if (v === Symbol.for("difftest end of iteration")) {
        ReadableStreamDefaultControllerClose(stream._controller);
      } else {
        ReadableStreamDefaultControllerEnqueue(stream._controller, v);
      }
    }, r => { ReadableStreamDefaultControllerError(stream._controller, r); });
  }

  function cancelAlgorithm(reason) {
    // "Return the result of closing iterator with reason."
    return iterator.return(reason);
  }

"##;

/// The reference's pipe step, from the ready reaction to the read.
pub const PIPE_STEP_READ: &str = "      return transformPromiseWith(writer._readyPromise, () => {
        return new Promise((resolveRead, rejectRead) => {";

/// The same with the desired-size check of the spec's constraint.
pub const PIPE_STEP_READ_PATCHED: &str = "      return transformPromiseWith(writer._readyPromise, () => {
        // difftest patch pipe-no-read-after-shutdown (wpt/src/difftest/oracle.rs)
        if (shuttingDown === true) {
          return true;
        }
        // difftest patch pipe-no-read-without-desire (wpt/src/difftest/oracle.rs)
        const desiredSize = require('./writable-streams.js').WritableStreamDefaultWriterGetDesiredSize(writer);
        if (desiredSize === null || desiredSize <= 0) {
          return false;
        }
        return new Promise((resolveRead, rejectRead) => {";

/// The reference's assert in WritableStreamDefaultControllerGetChunkSize.
pub const CHUNK_SIZE_ASSERT: &str = "  if (controller._strategySizeAlgorithm === undefined) {
    assert(controller._stream._state !== 'writable');
    return 1;";

/// The same without the (reachable) assert.
pub const CHUNK_SIZE_ASSERT_PATCHED: &str =
    "  if (controller._strategySizeAlgorithm === undefined) {
    // difftest patch spec-hole-chunk-size-assert (wpt/src/difftest/oracle.rs)
    return 1;";

/// The reference's TransformStreamDefaultSinkAbortAlgorithm step 5.
pub const TRANSFORM_ABORT_CANCEL: &str = "  controller._finishPromise = newPromise();

  const cancelPromise = controller._cancelAlgorithm(reason);
  TransformStreamDefaultControllerClearAlgorithms(controller);

  uponPromise(cancelPromise, () => {
    if (readable._state === 'errored') {";

/// The same, with a cleared cancel algorithm doing nothing.
pub const TRANSFORM_ABORT_CANCEL_PATCHED: &str = "  controller._finishPromise = newPromise();

  // difftest patch spec-hole-transform-cleared-cancel (wpt/src/difftest/oracle.rs)
  const cancelPromise = controller._cancelAlgorithm === undefined ?
    promiseResolvedWith(undefined) : controller._cancelAlgorithm(reason);
  TransformStreamDefaultControllerClearAlgorithms(controller);

  uponPromise(cancelPromise, () => {
    if (readable._state === 'errored') {";

/// The reference's TransformStreamDefaultSourceCancelAlgorithm step 5.
pub const TRANSFORM_SOURCE_CANCEL: &str =
    "  const cancelPromise = controller._cancelAlgorithm(reason);
  TransformStreamDefaultControllerClearAlgorithms(controller);

  uponPromise(cancelPromise, () => {
    if (writable._state === 'errored') {";

/// The same, with a cleared cancel algorithm doing nothing.
pub const TRANSFORM_SOURCE_CANCEL_PATCHED: &str =
    "  // difftest patch spec-hole-transform-cleared-cancel (wpt/src/difftest/oracle.rs)
  const cancelPromise = controller._cancelAlgorithm === undefined ?
    promiseResolvedWith(undefined) : controller._cancelAlgorithm(reason);
  TransformStreamDefaultControllerClearAlgorithms(controller);

  uponPromise(cancelPromise, () => {
    if (writable._state === 'errored') {";

/// The reference's TransformStreamDefaultControllerPerformTransform step 1.
pub const TRANSFORM_PERFORM: &str =
    "function TransformStreamDefaultControllerPerformTransform(controller, chunk) {
  const transformPromise = controller._transformAlgorithm(chunk);";

/// The same, with a cleared transform algorithm doing nothing.
pub const TRANSFORM_PERFORM_PATCHED: &str =
    "function TransformStreamDefaultControllerPerformTransform(controller, chunk) {
  // difftest patch spec-hole-transform-cleared-transform (wpt/src/difftest/oracle.rs)
  const transformPromise = controller._transformAlgorithm === undefined ?
    promiseResolvedWith(undefined) : controller._transformAlgorithm(chunk);";

/// The bundle's wrapper (first line).
pub const BUNDLE_WRAPPER: &str = "(function (realGlobalThis, globalThis) {\n";

/// The wrapper capturing the tool's abort-algorithm hooks (see `pipe-abort-algorithm`).
pub const BUNDLE_WRAPPER_PATCHED: &str = "(function (realGlobalThis, globalThis) {\n// difftest patch pipe-abort-algorithm (wpt/src/difftest/oracle.rs)\nconst difftestAbortHooks = realGlobalThis.__difftestAbortHooks;\ndelete realGlobalThis.__difftestAbortHooks;\n";

/// The pipe's abort algorithm declaration.
pub const PIPE_ABORT_DECL: &str = "    let abortAlgorithm;
    if (signal !== undefined) {
      abortAlgorithm = () => {";

/// The same with a slot for the algorithm's id.
pub const PIPE_ABORT_DECL_PATCHED: &str = "    let abortAlgorithm, abortAlgorithmId;
    if (signal !== undefined) {
      abortAlgorithm = () => {";

/// "Add the algorithm abortAlgorithm to signal", as the reference writes it.
pub const PIPE_ABORT_ADD: &str = "      signal.addEventListener('abort', abortAlgorithm);\n";

/// The same through the host's abort algorithms.
pub const PIPE_ABORT_ADD_PATCHED: &str = "      // difftest patch pipe-abort-algorithm (wpt/src/difftest/oracle.rs)\n      abortAlgorithmId = difftestAbortHooks.add(signal, abortAlgorithm);\n";

/// "Remove abortAlgorithm from signal", as the reference writes it.
pub const PIPE_ABORT_REMOVE: &str =
    "        signal.removeEventListener('abort', abortAlgorithm);\n";

/// The same through the host's abort algorithms.
pub const PIPE_ABORT_REMOVE_PATCHED: &str = "        // difftest patch pipe-abort-algorithm (wpt/src/difftest/oracle.rs)\n        difftestAbortHooks.remove(signal, abortAlgorithmId);\n";

/// The patches: name, text in the reference, replacement.
const PATCHES: [(&str, &str, &str); 13] = [
    (
        "pipe-write-deferred",
        PIPE_CHUNK_STEPS,
        PIPE_CHUNK_STEPS_PATCHED,
    ),
    (
        "from-webidl-exact",
        FROM_SYNC_WRAPPER,
        FROM_SYNC_WRAPPER_PATCHED,
    ),
    (
        "from-webidl-exact",
        FROM_OPEN_SEQUENCE,
        FROM_OPEN_SEQUENCE_PATCHED,
    ),
    (
        "from-webidl-exact",
        FROM_ITERABLE_ALGORITHMS,
        FROM_ITERABLE_ALGORITHMS_PATCHED,
    ),
    (
        "pipe-no-read-without-desire",
        PIPE_STEP_READ,
        PIPE_STEP_READ_PATCHED,
    ),
    (
        "spec-hole-chunk-size-assert",
        CHUNK_SIZE_ASSERT,
        CHUNK_SIZE_ASSERT_PATCHED,
    ),
    (
        "spec-hole-transform-cleared-cancel",
        TRANSFORM_ABORT_CANCEL,
        TRANSFORM_ABORT_CANCEL_PATCHED,
    ),
    (
        "spec-hole-transform-cleared-cancel",
        TRANSFORM_SOURCE_CANCEL,
        TRANSFORM_SOURCE_CANCEL_PATCHED,
    ),
    (
        "spec-hole-transform-cleared-transform",
        TRANSFORM_PERFORM,
        TRANSFORM_PERFORM_PATCHED,
    ),
    (
        "pipe-abort-algorithm",
        BUNDLE_WRAPPER,
        BUNDLE_WRAPPER_PATCHED,
    ),
    (
        "pipe-abort-algorithm",
        PIPE_ABORT_DECL,
        PIPE_ABORT_DECL_PATCHED,
    ),
    (
        "pipe-abort-algorithm",
        PIPE_ABORT_ADD,
        PIPE_ABORT_ADD_PATCHED,
    ),
    (
        "pipe-abort-algorithm",
        PIPE_ABORT_REMOVE,
        PIPE_ABORT_REMOVE_PATCHED,
    ),
];

/// Apply every oracle patch to the reference text.
pub fn patch(text: &str) -> Result<String, String> {
    let mut text = text.to_owned();
    for (name, old, new) in PATCHES {
        let count = text.matches(old).count();
        if count != 1 {
            return Err(format!(
                "oracle patch {name}: expected its text exactly once in the reference \
                 implementation, found {count} (a different refimpl build?)"
            ));
        }
        text = text.replacen(old, new, 1);
    }
    Ok(text)
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

    fn all_originals() -> String {
        PATCHES
            .iter()
            .map(|(_, old, _)| format!("{old}\n"))
            .collect()
    }

    #[test]
    fn patch_replaces_exactly_the_patched_texts() {
        let text = format!("a\n{}b", all_originals());
        let patched = patch(&text).unwrap();
        let expected: String = PATCHES
            .iter()
            .map(|(_, _, new)| format!("{new}\n"))
            .collect();
        assert_eq!(patched, format!("a\n{expected}b"));
    }

    #[test]
    fn patch_fails_loudly_when_a_text_is_missing_or_repeated() {
        assert!(patch("no pipe here").is_err());
        let twice = format!("{}{PIPE_CHUNK_STEPS}", all_originals());
        let err = patch(&twice).unwrap_err();
        assert!(err.contains("pipe-write-deferred"), "{err}");
        let missing = all_originals().replace(FROM_ITERABLE_ALGORITHMS, "");
        let err = patch(&missing).unwrap_err();
        assert!(err.contains("from-webidl-exact"), "{err}");
    }

    #[test]
    fn the_pinned_reference_takes_every_patch() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
        let Ok(path) = crate::run::find_refimpl(&root, None) else {
            eprintln!("skipped: no reference implementation beside the repository");
            return;
        };
        let text = std::fs::read_to_string(&path).unwrap();
        let patched = patch(&text).unwrap();
        assert!(patched.contains("difftest patch from-webidl-exact"));
    }
}
