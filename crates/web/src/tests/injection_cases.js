// Generated hostile-input injection cases (see injection.rs). Phase 1 (`setupAll`)
// builds every case's streams; the host drains the jobs; phase 2 (`runAll`) evaluates each
// case's operation as an argument of g(1, 2, <op>, 'd') (the operand-stack check of
// docs/engine-bugs/native-catch-stack.js); the host drains the jobs; phase 3 (`report`)
// checks that every promise settled and every exception is an Error object.
'use strict';
// The case being set up or run; the injected code marks it as having fired (so a promise that
// stays pending is a lost settlement, not an operation that legitimately waits).
let active = null;
function fail() { if (active) active.fired = true; throw new Error('injected'); }
function rec() { if (active) active.fired = true; return rec() + 1; }
// Known engine limitation (docs/engine-bugs/README.md, native-catch-stack): a `then` getter
// whose own code exhausts the recursion limit makes Boa's promise resolve function fail
// after consuming the resolving functions; the promise can never settle.
const KNOWN_UNSETTLEABLE = /thenGetterRecursion$/;
let lastArg;
function g(a, b, p, d) {
  lastArg = p;
  const kind = p instanceof Promise ? 'P' : 'V';
  return [a, b, kind, d].join(':');
}

// Injections into a callback: its body.
const CALLBACK = {
  throws: () => function () { fail(); },
  recursion: () => function () { return rec(); },
  thenGetterThrows: () => function () { return { get then() { fail(); } }; },
  thenGetterRecursion: () => function () { return { get then() { return rec(); } }; },
  valueOfThrows: () => function () { return { valueOf() { fail(); }, toString() { fail(); } }; },
};
// Injections into a dictionary member `m`.
const MEMBER = {
  getterThrows: (m) => ({ get [m]() { fail(); } }),
  getterRecursion: (m) => ({ get [m]() { return rec(); } }),
  valueOfThrows: (m) => ({ [m]: { valueOf() { fail(); } } }),
  toStringThrows: (m) => ({ [m]: { toString() { fail(); } } }),
  valueOfRecursion: (m) => ({ [m]: { valueOf() { return rec(); } } }),
};
// Injections into a converted value itself (a chunk, a string argument).
const VALUE = {
  valueOfThrows: () => ({ valueOf() { fail(); } }),
  toStringThrows: () => ({ toString() { fail(); } }),
  valueOfRecursion: () => ({ valueOf() { return rec(); } }),
  toStringRecursion: () => ({ toString() { return rec(); } }),
  proxyThrows: () => new Proxy({}, { get() { fail(); }, getPrototypeOf() { fail(); } }),
};

// Each operation is source text compiled INTO the argument list of g(1, 2, <op>, 'd') (a
// wrapper function would truncate the stack on its return and hide a corruption); `e` is the
// case's setup result, `A` the injected value (the callback, the dictionary, the value).
// kind 'promise': the operation must return a promise that settles.
// kind 'sync': it may throw (an Error object) or return; the frame must be intact either way.
const TABLE = [
  // Callbacks.
  ['callback', 'pull', 'promise', (H) => new ReadableStream({ pull: H }, { highWaterMark: 0 }).getReader(), `e.read()`],
  ['callback', 'pull (bytes)', 'promise', (H) => new ReadableStream({ type: 'bytes', pull: H }).getReader(), `e.read()`],
  ['callback', 'pull (bytes, BYOB read)', 'promise', (H) => new ReadableStream({ type: 'bytes', pull: H }).getReader({ mode: 'byob' }), `e.read(new Uint8Array(4))`],
  ['callback', 'cancel', 'promise', (H) => new ReadableStream({ cancel: H }), `e.cancel()`],
  ['callback', 'cancel (bytes)', 'promise', (H) => new ReadableStream({ type: 'bytes', cancel: H }), `e.cancel()`],
  ['callback', 'cancel (reader)', 'promise', (H) => new ReadableStream({ cancel: H }).getReader(), `e.cancel()`],
  ['callback', 'cancel (BYOB reader)', 'promise', (H) => new ReadableStream({ type: 'bytes', cancel: H }).getReader({ mode: 'byob' }), `e.cancel()`],
  ['callback', 'write', 'promise', (H) => new WritableStream({ write: H }).getWriter(), `e.write('x')`],
  ['callback', 'close', 'promise', (H) => new WritableStream({ close: H }).getWriter(), `e.close()`],
  ['callback', 'abort', 'promise', (H) => new WritableStream({ abort: H }).getWriter(), `e.abort()`],
  ['callback', 'abort (stream)', 'promise', (H) => new WritableStream({ abort: H }), `e.abort()`],
  ['callback', 'close (stream)', 'promise', (H) => new WritableStream({ close: H }), `e.close()`],
  ['callback', 'writer.ready after write', 'promise', (H) => new WritableStream({ write: H }).getWriter(), `(e.write('x'), e.ready)`],
  ['callback', 'writer.closed after close', 'promise', (H) => new WritableStream({ close: H }).getWriter(), `(e.close(), e.closed)`],
  ['callback', 'reader.closed after cancel', 'promise', (H) => new ReadableStream({ cancel: H }).getReader(), `(e.cancel(), e.closed)`],
  ['callback', 'transform', 'promise', (H) => { const ts = new TransformStream({ transform: H }, undefined, { highWaterMark: 1 }); return ts.writable.getWriter(); }, `e.write('x')`],
  ['callback', 'flush', 'promise', (H) => new TransformStream({ flush: H }).writable.getWriter(), `e.close()`],
  ['callback', 'transformer cancel', 'promise', (H) => new TransformStream({ cancel: H }).readable, `e.cancel()`],
  ['callback', 'transformer cancel (abort)', 'promise', (H) => new TransformStream({ cancel: H }).writable, `e.abort()`],
  ['callback', 'size (writable)', 'promise', (H) => new WritableStream({}, { size: H }).getWriter(), `e.write('x')`],
  ['callback', 'size (readable, enqueue)', 'sync', (H) => { const o = {}; new ReadableStream({ start(c) { o.c = c; } }, { size: H, highWaterMark: 5 }); return o; }, `e.c.enqueue('x')`],
  ['callback', 'size (transform readable)', 'promise', (H) => new TransformStream({}, undefined, { highWaterMark: 1, size: H }).writable.getWriter(), `e.write('x')`],
  ['callback', 'start (readable)', 'sync', (H) => null, `new ReadableStream({ start: A })`],
  ['callback', 'start (writable)', 'sync', (H) => null, `new WritableStream({ start: A })`],
  ['callback', 'start (transform)', 'sync', (H) => null, `new TransformStream({ start: A })`],
  ['callback', 'from() sync next', 'promise', (H) => ReadableStream.from({ [Symbol.iterator]() { return { next: H }; } }).getReader(), `e.read()`],
  ['callback', 'from() async next', 'promise', (H) => ReadableStream.from({ [Symbol.asyncIterator]() { return { next: H }; } }).getReader(), `e.read()`],
  ['callback', 'from() async return', 'promise', (H) => ReadableStream.from({ [Symbol.asyncIterator]() { return { next() { return new Promise(() => {}); }, return: H }; } }), `e.cancel()`],
  ['callback', 'from() sync return', 'promise', (H) => ReadableStream.from({ [Symbol.iterator]() { return { next() { return { value: 1, done: false }; }, return: H }; } }), `e.cancel()`],
  ['callback', 'from() @@asyncIterator', 'sync', (H) => null, `ReadableStream.from({ [Symbol.asyncIterator]: A })`],
  ['callback', 'pipeTo (sink write)', 'promise', (H) => ({ rs: new ReadableStream({ start(c) { c.enqueue(1); } }), ws: new WritableStream({ write: H }) }), `e.rs.pipeTo(e.ws)`],
  ['callback', 'pipeTo (source cancel)', 'promise', (H) => ({ rs: new ReadableStream({ cancel: H }), ws: new WritableStream({ start(c) { c.error(new Error('dest')); } }) }), `e.rs.pipeTo(e.ws)`],
  ['callback', 'abort listener', 'sync', (H) => { const ac = new AbortController(); ac.signal.addEventListener('abort', H); return ac; }, `e.abort()`],
  ['callback', 'abort handleEvent', 'sync', (H) => { const ac = new AbortController(); ac.signal.addEventListener('abort', { handleEvent: H }); return ac; }, `e.abort()`],
  ['callback', 'onabort handler', 'sync', (H) => { const ac = new AbortController(); ac.signal.onabort = H; return ac; }, `e.abort()`],
  ['callback', 'pipeTo signal abort', 'promise', (H) => { const ac = new AbortController(); const o = { ac, rs: new ReadableStream({ cancel: H }), ws: new WritableStream({ abort: H }) }; o.p = o.rs.pipeTo(o.ws, { signal: ac.signal }); o.p.catch(() => {}); return o; }, `(e.ac.abort(), e.p)`],
  ['callback', 'async iterator return', 'promise', (H) => new ReadableStream({ cancel: H }).values(), `e.return()`],

  // Dictionary and option members.
  ['member', 'BYOB read options.min', 'promise', (H) => new ReadableStream({ type: 'bytes' }).getReader({ mode: 'byob' }), `e.read(new Uint8Array(4), A)`, 'min'],
  ...['preventAbort', 'preventCancel', 'preventClose', 'signal'].map((m) =>
    ['member', `pipeTo options.${m}`, 'promise', (H) => ({ rs: new ReadableStream(), ws: new WritableStream() }), `e.rs.pipeTo(e.ws, A)`, m]),
  ...['preventAbort', 'preventCancel', 'preventClose', 'signal'].map((m) =>
    ['member', `pipeThrough options.${m}`, 'sync', (H) => ({ rs: new ReadableStream(), ts: new TransformStream() }), `e.rs.pipeThrough(e.ts, A)`, m]),
  ...['readable', 'writable'].map((m) =>
    ['member', `pipeThrough pair.${m}`, 'sync', (H) => new ReadableStream(), `e.pipeThrough(A)`, m]),
  ['member', 'getReader mode', 'sync', (H) => new ReadableStream({ type: 'bytes' }), `e.getReader(A)`, 'mode'],
  ['member', 'values preventCancel', 'sync', (H) => new ReadableStream(), `e.values(A)`, 'preventCancel'],
  ...['start', 'pull', 'cancel', 'type', 'autoAllocateChunkSize'].map((m) =>
    ['member', `underlying source ${m}`, 'sync', (H) => null, `new ReadableStream(A)`, m]),
  ...['start', 'write', 'close', 'abort', 'type'].map((m) =>
    ['member', `underlying sink ${m}`, 'sync', (H) => null, `new WritableStream(A)`, m]),
  ...['start', 'transform', 'flush', 'cancel', 'readableType', 'writableType'].map((m) =>
    ['member', `transformer ${m}`, 'sync', (H) => null, `new TransformStream(A)`, m]),
  ...['highWaterMark', 'size'].flatMap((m) => [
    ['member', `readable strategy ${m}`, 'sync', (H) => null, `new ReadableStream({}, A)`, m],
    ['member', `writable strategy ${m}`, 'sync', (H) => null, `new WritableStream({}, A)`, m],
    ['member', `transform strategies ${m}`, 'sync', (H) => null, `new TransformStream({}, A, A)`, m],
  ]),
  ['member', 'CountQueuingStrategy highWaterMark', 'sync', (H) => null, `new CountQueuingStrategy(A)`, 'highWaterMark'],
  ['member', 'ByteLengthQueuingStrategy highWaterMark', 'sync', (H) => null, `new ByteLengthQueuingStrategy(A)`, 'highWaterMark'],
  ...['fatal', 'ignoreBOM'].map((m) =>
    ['member', `TextDecoderStream options.${m}`, 'sync', (H) => null, `new TextDecoderStream('utf-8', A)`, m]),

  // Converted values.
  ['value', 'TextEncoderStream chunk (ToString)', 'promise', (H) => { const ts = new TextEncoderStream(); ts.readable.getReader().read(); return ts.writable.getWriter(); }, `e.write(A)`],
  ['value', 'TextDecoderStream chunk (BufferSource)', 'promise', (H) => { const ts = new TextDecoderStream(); ts.readable.getReader().read(); return ts.writable.getWriter(); }, `e.write(A)`],
  ['value', 'CompressionStream chunk (BufferSource)', 'promise', (H) => { const ts = new CompressionStream('gzip'); ts.readable.getReader().read(); return ts.writable.getWriter(); }, `e.write(A)`],
  ['value', 'DecompressionStream chunk (BufferSource)', 'promise', (H) => { const ts = new DecompressionStream('gzip'); ts.readable.getReader().read(); return ts.writable.getWriter(); }, `e.write(A)`],
  ['value', 'CompressionStream format', 'sync', (H) => null, `new CompressionStream(A)`],
  ['value', 'DecompressionStream format', 'sync', (H) => null, `new DecompressionStream(A)`],
  ['value', 'TextDecoderStream label', 'sync', (H) => null, `new TextDecoderStream(A)`],
  ['value', 'BYOB read view', 'promise', (H) => new ReadableStream({ type: 'bytes' }).getReader({ mode: 'byob' }), `e.read(A)`],
  ['value', 'byte controller enqueue chunk', 'sync', (H) => { const o = {}; new ReadableStream({ type: 'bytes', start(c) { o.c = c; } }); return o; }, `e.c.enqueue(A)`],
  ['value', 'byobRequest.respond bytesWritten', 'sync', (H) => { const o = {}; const r = new ReadableStream({ type: 'bytes', pull(c) { o.req = c.byobRequest; } }).getReader({ mode: 'byob' }); r.read(new Uint8Array(4)).catch(() => {}); return o; }, `e.req.respond(A)`],
  ['value', 'enqueue chunk read by size()', 'sync', (H) => { const o = {}; new ReadableStream({ start(c) { o.c = c; } }, { size(ch) { return ch.size; }, highWaterMark: 5 }); return o; }, `e.c.enqueue(A)`],
  ['value', 'write chunk read by size()', 'promise', (H) => new WritableStream({}, { size(ch) { return ch.size; } }).getWriter(), `e.write(A)`],
  ['value', 'cancel reason', 'promise', (H) => new ReadableStream(), `e.cancel(A)`],
  ['value', 'AbortSignal.timeout ms', 'sync', (H) => null, `AbortSignal.timeout(A)`],
];

// Thenable probes: `then` read while resolving a read result (Object.prototype patched).
const THENABLE = {
  thenGetterThrows: function () { fail(); },
  thenGetterRecursion: function () { return rec(); },
  thenGetterReenters: null, // set per case: re-enters reader.read()
};

const cases = [];
function compile(op) {
  return new Function('e', 'A', 'g', `return g(1, 2, ${op}, 'd');`);
}
for (const [category, name, kind, setup, op, member] of TABLE) {
  const injections = category === 'callback' ? CALLBACK : category === 'member' ? MEMBER : VALUE;
  const run = compile(op);
  for (const [inj, make] of Object.entries(injections)) {
    const c = { name: `${name} / ${inj}`, kind, run };
    if (category === 'callback') {
      const H = make();
      // Callbacks run later (in jobs): they mark their own case.
      c.arg = function (...args) { const prev = active; active = c; try { return H.apply(this, args); } finally { active = prev; } };
      c.setup = () => setup(c.arg);
    } else {
      c.arg = category === 'member' ? make(member) : make();
      c.setup = () => setup(null);
    }
    cases.push(c);
  }
}
for (const [inj, getter] of Object.entries(THENABLE)) {
  for (const bytes of [false, true]) {
    const name = `read result then-probe${bytes ? ' (bytes)' : ''} / ${inj}`;
    cases.push({
      name, kind: 'promise', fired: true, run: compile('e.read()'),
      setup: () => {
        const source = bytes
          ? { type: 'bytes', start(c) { for (let i = 0; i < 20000; i++) c.enqueue(new Uint8Array(1)); } }
          : { start(c) { for (let i = 0; i < 20000; i++) c.enqueue(i); } };
        return new ReadableStream(source, bytes ? undefined : { highWaterMark: Infinity }).getReader();
      },
      before: (reader) => {
        const get = getter || function () { reader.read().catch(() => {}); return undefined; };
        Object.defineProperty(Object.prototype, 'then', { configurable: true, get });
      },
      after: () => { delete Object.prototype.then; },
    });
  }
}

globalThis.setupAll = function () {
  for (const c of cases) {
    try { c.env = c.setup(); } catch (e) { c.setupError = e; }
  }
  return cases.length;
};

globalThis.runAll = function () {
  for (const c of cases) {
    if (c.setupError !== undefined) { c.frame = 'no setup'; continue; }
    let out;
    globalThis.currentCase = c.name;
    active = c;
    lastArg = undefined;
    if (c.before) c.before(c.env);
    try {
      // The operation is an argument of the call (pending operands 1, 2 before it and 'd'
      // after it, in the same frame); its promise, if any, is recorded afterwards.
      out = c.run(c.env, c.arg, g);
      c.result = lastArg;
    } catch (e) {
      c.threw = e;
      out = g(1, 2, null, 'd').replace(':V:', ':T:');
    } finally {
      if (c.after) c.after();
    }
    active = null;
    c.frame = out;
    if (c.result instanceof Promise) {
      c.settled = 'pending';
      c.result.then(() => { c.settled = 'fulfilled'; }, (e) => { c.settled = 'rejected'; c.reason = e; });
    }
  }
};

globalThis.report = function () {
  const failures = [];
  for (const c of cases) {
    const problems = [];
    if (c.setupError !== undefined) problems.push('setup threw ' + c.setupError);
    else {
      const expected = c.threw !== undefined ? '1:2:T:d' : c.result instanceof Promise ? '1:2:P:d' : '1:2:V:d';
      if (c.frame !== expected) problems.push(`frame ${c.frame}, expected ${expected}`);
      if (c.threw !== undefined && !(c.threw instanceof Error)) problems.push('threw a non-Error: ' + String(c.threw));
      if (c.kind === 'promise') {
        if (c.threw !== undefined) problems.push('threw instead of returning a promise: ' + c.threw);
        else if (!(c.result instanceof Promise)) problems.push('did not return a promise');
        else if (c.settled === 'pending' && c.fired && !KNOWN_UNSETTLEABLE.test(c.name)) problems.push('never settled after the injection fired');
      }
      if (c.settled === 'rejected' && !(c.reason instanceof Error)) problems.push('rejected with a non-Error: ' + String(c.reason));
    }
    if (problems.length) failures.push(c.name + ': ' + problems.join('; '));
  }
  const fired = cases.filter((c) => c.fired).length;
  const residual = cases.filter((c) => c.settled === 'pending' && c.fired && KNOWN_UNSETTLEABLE.test(c.name)).map((c) => c.name);
  return JSON.stringify({ cases: cases.length, fired, failures, residual });
};
