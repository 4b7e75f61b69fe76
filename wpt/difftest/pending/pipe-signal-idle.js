// PENDING: pipeTo with a signal aborted while the pipe waits for a read (abort + cancel actions).
//   first diff: ref `1.5 pipe err DOMException(AbortError)`, ours `1.4 pipe err ..`.
// Reading: reference right; likely the same cause as the known already-aborted-signal deviation
// (pipe-signal-before): with two actions the 'getting a promise to wait for all' + finalize
// settles one microtask early in ours. With one action (pipe-signal-idle-prevent-abort,
// pipe-signal-idle-prevent-cancel, corpus) both agree.
//
// pipeTo with a signal aborted while the pipe is idle (waiting for a read): abort the
// destination and cancel the source, with the signal's reason (DOMException by default).
const ac = new AbortController();
const rs = new ReadableStream(source('src', { cancel(r) { log('cancel', r); } }));
const ws = new WritableStream(source('sink', { abort(r) { log('abort', r); } }));
watch('pipe', rs.pipeTo(ws, { signal: ac.signal }));
(async () => { await delay(1); ac.abort(); log('aborted'); })();
