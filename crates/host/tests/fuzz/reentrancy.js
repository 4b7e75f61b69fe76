// Reentrancy fuzzer: builds streams, readers, writers, controllers, signals and event targets,
// then performs random operations on them while hostile hooks (promise species lookup,
// thenable probes, dictionary getters, size(), sink/source callbacks, event listeners)
// re-enter random operations. Exceptions are expected and swallowed; a Rust panic fails.
// `SEED` is set by the test before this script runs.
var rng = SEED >>> 0 || 1;
function rnd(n) {
  rng = (Math.imul(rng, 1103515245) + 12345) >>> 0;
  return n > 0 ? (rng >>> 8) % n : 0;
}
var objs = [];
var depth = 0;
var budget = 4000;
function add(o) { if (o !== null && (typeof o === 'object' || typeof o === 'function')) { objs.push(o); if (objs.length > 200) objs.splice(rnd(objs.length), 1); } return o; }
function pick() { return objs.length ? objs[rnd(objs.length)] : undefined; }
function detached() {
  const b = new ArrayBuffer(8);
  try { if (b.transfer) b.transfer(); else structuredClone(b, { transfer: [b] }); } catch (e) {}
  return b;
}
function value() {
  switch (rnd(26)) {
    case 0: return undefined;
    case 1: return null;
    case 2: return 0;
    case 3: return 1;
    case 4: return -1;
    case 5: return 2 ** 53;
    case 6: return 1e300;
    case 7: return NaN;
    case 8: return Infinity;
    case 9: return 'x';
    case 10: return new Uint8Array(rnd(16));
    case 11: return new Uint16Array(new ArrayBuffer(16), 2, rnd(7));
    case 12: return new DataView(new ArrayBuffer(rnd(8) + 1));
    case 13: return new ArrayBuffer(rnd(16));
    case 14: return new Uint8Array(detached());
    case 15: return detached();
    case 16: return pick();
    case 17: return { mode: 'byob' };
    case 18: return { min: rnd(20) - 2 };
    case 19: return hostileDict();
    case 20: return function () { poke(); return rnd(3) ? undefined : value(); };
    case 21: return { handleEvent() { poke(); } };
    case 22: return new Float64Array(rnd(4));
    case 23: return rnd(40);
    case 24: return 4294967296 + rnd(3);
    default: return pick();
  }
}
var dictKeys = ['highWaterMark', 'size', 'mode', 'min', 'preventClose', 'preventAbort',
  'preventCancel', 'signal', 'once', 'passive', 'capture', 'bubbles', 'cancelable',
  'composed', 'type', 'autoAllocateChunkSize', 'start', 'pull', 'cancel', 'write', 'close',
  'abort', 'transform', 'flush', 'readable', 'writable', 'handleEvent', 'then', 'done', 'value'];
function hostileDict() {
  const d = {};
  for (let i = 0; i < 3; i++) {
    const k = dictKeys[rnd(dictKeys.length)];
    const v = value();
    Object.defineProperty(d, k, { enumerable: true, configurable: true, get() { poke(); return v; } });
  }
  return d;
}
function members(o) {
  const names = [];
  let p = o;
  for (let i = 0; p && p !== Object.prototype && p !== Function.prototype && i < 5; i++) {
    for (const k of Reflect.ownKeys(p)) {
      if (k === 'constructor' || k === 'prototype' || typeof k === 'symbol' && k !== Symbol.asyncIterator) continue;
      names.push([p, k]);
    }
    p = Object.getPrototypeOf(p);
  }
  return names;
}
function op(o) {
  if (o === undefined) return;
  const ms = members(o);
  if (!ms.length) return;
  const [holder, k] = ms[rnd(ms.length)];
  const d = Object.getOwnPropertyDescriptor(holder, k);
  let self = o;
  if (rnd(12) === 0) self = rnd(2) ? pick() : {};
  try {
    let r;
    if (d.get) r = d.get.call(self);
    else if (typeof d.value === 'function') {
      const args = [];
      for (let n = rnd(4); n > 0; n--) args.push(value());
      if (d.value === ReadableStream || d.value === WritableStream) r = new d.value(...args);
      else r = d.value.apply(self, args);
    } else r = d.value;
    if (r && typeof r === 'object') {
      add(r);
      if (typeof r.then === 'function' && rnd(2)) r.then(() => poke(), () => poke());
    }
  } catch (e) {}
}
function poke() {
  if (depth > 3 || budget-- <= 0) return;
  depth++;
  try {
    for (let i = rnd(3); i > 0; i--) {
      if (rnd(6) === 0) make(); else op(pick());
    }
  } finally { depth--; }
}
function source(type) {
  const s = {
    start(c) { add(c); poke(); if (rnd(3) === 0) return Promise.resolve(); },
    pull(c) { add(c); if (c.byobRequest) add(c.byobRequest); poke(); if (rnd(2)) { try { c.enqueue(type ? new Uint8Array(rnd(5) + 1) : 'chunk'); } catch (e) {} } },
    cancel(r) { poke(); },
  };
  if (type) { s.type = 'bytes'; if (rnd(2)) s.autoAllocateChunkSize = rnd(16) + 1; }
  return s;
}
function sink() {
  return {
    start(c) { add(c); poke(); },
    write(chunk, c) { poke(); if (rnd(3) === 0) return Promise.resolve(); if (rnd(5) === 0) throw new Error('w'); },
    close() { poke(); },
    abort(r) { poke(); },
  };
}
function strategy() {
  if (rnd(2)) return undefined;
  return { highWaterMark: rnd(4), size(c) { poke(); return rnd(4) === 0 ? value() : 1; } };
}
function make() {
  try {
    switch (rnd(14)) {
      case 11: {
        const ts = add(new TransformStream({
          start(c) { add(c); poke(); },
          transform(chunk, c) { poke(); if (rnd(2)) c.enqueue(chunk); },
          flush(c) { poke(); },
          cancel(r) { poke(); },
        }, strategy(), strategy()));
        add(ts.readable); add(ts.writable);
        break;
      }
      case 12: {
        const rs = add(new ReadableStream(source(rnd(2) === 0)));
        const ws = add(new WritableStream(sink(), strategy()));
        const ac = add(new AbortController());
        add(ac.signal);
        const opts = rnd(2) ? hostileDict() : { signal: ac.signal, preventClose: rnd(2) === 0 };
        add(rs.pipeTo(ws, opts).then(() => poke(), () => poke()));
        break;
      }
      case 13: {
        const rs = add(new ReadableStream(source(false)));
        const ts = new TransformStream();
        add(rs.pipeThrough(ts, rnd(2) ? hostileDict() : undefined));
        add(ts.writable);
        break;
      }
      case 0: { const ws = add(new WritableStream(sink(), strategy())); if (rnd(2)) add(ws.getWriter()); break; }
      case 1: { const rs = add(new ReadableStream(source(false), strategy())); if (rnd(2)) add(rs.getReader()); break; }
      case 2: { const rs = add(new ReadableStream(source(true), { highWaterMark: rnd(3) })); if (rnd(2)) add(rs.getReader({ mode: 'byob' })); else if (rnd(2)) add(rs.getReader()); break; }
      case 3: { const ac = add(new AbortController()); add(ac.signal); ac.signal.addEventListener('abort', value(), value()); break; }
      case 4: { const t = add(new EventTarget()); t.addEventListener('e', value(), value()); t.addEventListener('e', () => poke()); break; }
      case 5: add(new Event('e', hostileDict())); break;
      case 6: { const rs = add(new ReadableStream(source(rnd(2) === 0))); const ts = rs.tee(); add(ts[0]); add(ts[1]); break; }
      case 7: add(new CountQueuingStrategy({ highWaterMark: rnd(3) })); break;
      case 8: add(new ByteLengthQueuingStrategy({ highWaterMark: rnd(3) })); break;
      case 9: add(AbortSignal.any([pick(), pick()].filter(s => s instanceof AbortSignal))); break;
      default: { const rs = add(new ReadableStream(source(true))); const r = add(rs.getReader({ mode: 'byob' })); r.read(new Uint8Array(rnd(8) + 1), rnd(2) ? { min: rnd(4) + 1 } : undefined).then(() => poke(), () => poke()); break; }
    }
  } catch (e) {}
}
// Hostile hooks.
Object.defineProperty(Promise.prototype, 'constructor', {
  configurable: true,
  get() { poke(); return Promise; },
});
Object.defineProperty(Object.prototype, 'then', {
  configurable: true,
  get() { poke(); return undefined; },
});
Object.defineProperty(Error.prototype, 'stack', {
  configurable: true,
  get() { poke(); return ''; },
});
// Dictionary members absent from the given objects are looked up on Object.prototype.
if (rnd(2)) {
  for (const k of dictKeys) {
    if (k === 'then' || k === 'value' || k === 'done' || k === 'writable' || k === 'readable') continue;
    Object.defineProperty(Object.prototype, k, {
      configurable: true,
      get() { poke(); return undefined; },
    });
  }
}
for (let i = 0; i < 8; i++) make();
for (let i = 0; i < 200; i++) { budget += 40; op(pick()); if (rnd(4) === 0) make(); }
