// Differential tester prelude: loaded before every program, after the implementation under
// test has been chosen (for the reference run, after `Object.assign(globalThis,
// ReferenceStreams)`). It defines the logging vocabulary programs use. Every line the program
// logs carries its position: `T.K`, where T counts the tasks that logged (script, timers) and
// K is the value of a microtask ticker started by the task's first log line. Two
// implementations with the same observable order produce byte-identical logs.
//
// Vocabulary (all globals):
//   log(...values)          one line: the values formatted with fmt()
//   fmt(value)              deterministic, implementation-independent formatting
//   cb(name, fn)            wraps a callback: logs `>name args` on entry and `<name result`
//                           (or `<name throws error`) on exit
//   source(name, methods)   an underlying source/sink/transformer/strategy object whose
//                           function members are wrapped with cb(`name.member`)
//   traced(name, object)    a Proxy logging every get/has/ownKeys/getOwnPropertyDescriptor on
//                           the object (options dictionaries, strategies, chunks, iterators)
//   watch(name, promise)    logs `name ok value` / `name err reason` when it settles; returns it
//   attempt(name, fn)       runs fn(); logs `name ok result` or `name throws error`
//   thenable(name, value)   an object with a `then` method that resolves with value (logged)
//   delay(ms)               a promise fulfilled by a timer (a new task)
//   hook(object, key, desc) defines a (configurable) property, e.g. a logging `then` getter on
//                           Object.prototype; undone by the tool between batched programs
//
// For the tool (not for programs): `__difftestLines` (the log), `__difftestReset()` (empties
// the log and restarts the task counter between programs of a batch run in one context). At
// most MAX_LINES lines are kept; the next one becomes `log limit reached` and the rest are
// dropped, so a program that logs forever still gives comparable logs.
'use strict';
(function (global) {
  const lines = [];
  const IDLE_TICKS = 300;
  const MAX_LINES = 5000;
  const enqueue = global.queueMicrotask;
  const stringify = JSON.stringify;
  const toStringTag = Object.prototype.toString;
  const ownKeys = Reflect.ownKeys;
  const getDescriptor = Object.getOwnPropertyDescriptor;
  const isView = ArrayBuffer.isView;
  const byteLengthGet = getDescriptor(ArrayBuffer.prototype, 'byteLength').get;
  const detachedGet = (getDescriptor(ArrayBuffer.prototype, 'detached') || {}).get;
  let task = 0;
  let tick = 0;
  let idle = 0;
  let running = false;

  function ticker() {
    tick++;
    idle++;
    if (idle < IDLE_TICKS) {
      enqueue(ticker);
    } else {
      running = false;
    }
  }

  function stamp() {
    if (!running) {
      running = true;
      task++;
      tick = 0;
      enqueue(ticker);
    }
    idle = 0;
    return task + '.' + tick;
  }

  function errorName(e) {
    const tag = toStringTag.call(e);
    if (tag === '[object DOMException]' || (typeof DOMException === 'function' && e instanceof DOMException)) {
      return 'DOMException(' + e.name + ')';
    }
    if (e instanceof TypeError) return 'TypeError';
    if (e instanceof RangeError) return 'RangeError';
    if (e instanceof SyntaxError) return 'SyntaxError';
    if (e instanceof ReferenceError) return 'ReferenceError';
    return null;
  }

  // The value of a data property found on the prototype chain (a getter is not called, so
  // formatting never runs program code such as a `then` getter installed by hook()).
  function inheritedValue(o, key) {
    for (let p = o; p !== null; p = Reflect.getPrototypeOf(p)) {
      const d = getDescriptor(p, key);
      if (d) return 'value' in d ? d.value : undefined;
    }
    return undefined;
  }

  function fmt(v, depth) {
    depth = depth || 0;
    switch (typeof v) {
      case 'undefined': return 'undefined';
      case 'boolean': return String(v);
      case 'number': return Object.is(v, -0) ? '-0' : String(v);
      case 'bigint': return String(v) + 'n';
      case 'string': return stringify(v);
      case 'symbol': return String(v);
      case 'function': return 'fn:' + (typeof v.name === 'string' ? v.name : '?');
    }
    if (v === null) return 'null';
    // Errors created by the library: their messages are implementation-defined.
    const name = errorName(v);
    if (name !== null) return name;
    if (v instanceof Error) {
      const d = getDescriptor(v, 'message');
      return 'Error(' + (d && 'value' in d ? String(d.value) : '') + ')';
    }
    if (isView(v)) {
      const buffer = v.buffer;
      const detached = detachedGet ? detachedGet.call(buffer) : false;
      const kind = toStringTag.call(v).slice(8, -1);
      if (detached) return kind + '(detached)';
      const items = kind === 'DataView' ? '' : Array.prototype.join.call(v, ',');
      return kind + '[' + items + ']@' + v.byteOffset + '+' + v.byteLength + '/' +
        byteLengthGet.call(buffer);
    }
    if (toStringTag.call(v) === '[object ArrayBuffer]') {
      if (detachedGet && detachedGet.call(v)) return 'ArrayBuffer(detached)';
      return 'ArrayBuffer(' + byteLengthGet.call(v) + ')';
    }
    if (depth > 2) return '{..}';
    if (Array.isArray(v)) {
      const out = [];
      for (let i = 0; i < v.length && i < 20; i++) {
        const d = getDescriptor(v, i);
        out.push(d && 'value' in d ? fmt(d.value, depth + 1) : 'get');
      }
      return '[' + out.join(',') + ']';
    }
    const tag = toStringTag.call(v);
    if (tag !== '[object Object]') return tag.slice(8, -1);
    if (!getDescriptor(v, 'then') && typeof inheritedValue(v, 'then') === 'function') {
      // A promise-like from a prototype (not a hand-written thenable).
      return 'Thenable';
    }
    const out = [];
    for (const k of ownKeys(v)) {
      const d = getDescriptor(v, k);
      if (!d.enumerable) continue;
      out.push((typeof k === 'symbol' ? String(k) : k) + ':' +
        ('value' in d ? fmt(d.value, depth + 1) : 'get'));
    }
    return '{' + out.join(',') + '}';
  }

  function log(...values) {
    if (lines.length >= MAX_LINES) {
      if (lines.length === MAX_LINES) lines.push('log limit reached');
      return;
    }
    const at = stamp();
    const parts = [];
    for (const v of values) parts.push(typeof v === 'string' && parts.length === 0 ? v : fmt(v));
    lines.push(at + ' ' + parts.join(' '));
  }

  function cb(name, fn) {
    return function (...args) {
      log('>' + name, ...args);
      let result;
      try {
        result = fn.apply(this, args);
      } catch (e) {
        log('<' + name + ' throws', e);
        throw e;
      }
      log('<' + name, result);
      return result;
    };
  }

  function source(name, methods) {
    const out = {};
    for (const k of ownKeys(methods)) {
      const v = methods[k];
      out[k] = typeof v === 'function' ? cb(name + '.' + String(k), v) : v;
    }
    return out;
  }

  function traced(name, object) {
    const key = (k) => (typeof k === 'symbol' ? String(k) : k);
    return new Proxy(object, {
      get(target, k, receiver) {
        log('get ' + name + '.' + key(k));
        return Reflect.get(target, k, receiver);
      },
      has(target, k) {
        log('has ' + name + '.' + key(k));
        return Reflect.has(target, k);
      },
      ownKeys(target) {
        log('ownKeys ' + name);
        return Reflect.ownKeys(target);
      },
      getOwnPropertyDescriptor(target, k) {
        log('getOwnPropertyDescriptor ' + name + '.' + key(k));
        return Reflect.getOwnPropertyDescriptor(target, k);
      },
    });
  }

  function watch(name, promise) {
    promise.then(
      (v) => log(name + ' ok', v),
      (e) => log(name + ' err', e),
    );
    return promise;
  }

  function attempt(name, fn) {
    try {
      const r = fn();
      log(name + ' ok', r);
      return r;
    } catch (e) {
      log(name + ' throws', e);
      return undefined;
    }
  }

  function thenable(name, value) {
    return {
      then(resolve, reject) {
        log('>' + name + '.then');
        resolve(value);
      },
    };
  }

  // Undo records of hook(), run by __difftestReset.
  const hooks = [];
  function hook(object, key, descriptor) {
    const old = getDescriptor(object, key);
    Object.defineProperty(object, key, { configurable: true, ...descriptor });
    hooks.push(() => {
      if (old) Object.defineProperty(object, key, old);
      else delete object[key];
    });
  }

  function delay(ms) {
    return new Promise((resolve) => setTimeout(resolve, ms));
  }

  const api = { log, fmt, cb, source, traced, watch, attempt, thenable, delay, hook };
  for (const k of Object.keys(api)) {
    Object.defineProperty(global, k, { value: api[k], writable: true, configurable: true });
  }
  Object.defineProperty(global, '__difftestLines', { value: lines, configurable: true });
  Object.defineProperty(global, '__difftestReset', {
    value() {
      while (hooks.length) hooks.pop()();
      lines.length = 0;
      task = 0;
      tick = 0;
      idle = IDLE_TICKS;
    },
    configurable: true,
  });
})(globalThis);
