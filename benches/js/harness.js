// Bench harness shared by every scenario file in benches/js/. The same files run under the
// boa_streams host (bench-js) and under Node (`bench-js --compare node`): both provide the
// streams, TextDecoderStream, CompressionStream and performance.now() as globals.
//
// A scenario file only registers scenarios; bench-js loads this harness, sets
// `globalThis.__benchConfig`, loads one scenario file and calls `__bench.runAll()`.
//
// Every scenario:
// * runs `run(n)` which must return a value that `check(n, value)` accepts (a wrong count
//   throws, and bench-js fails the run);
// * states its floor model: the engine operations it cannot avoid per op (awaits of fresh
//   promises, callback calls, object creations, ...), as counts of *primitives*. Each
//   primitive is a tiny JS loop measured in the same process (at the start and at the end of
//   the file; the mean is used), so "x floor" = measured ns per op / sum(count * primitive ns).
//
// Primitives are measured from JS, so a native-to-JS callback call is modelled by a JS-to-JS
// call (`call`) and a promise the library creates natively by a promise created in JS.
(function () {
  "use strict";
  const config = Object.assign(
    { n: 0, scale: 1, repeat: 3, filter: "", quick: false, floors: true },
    globalThis.__benchConfig || {}
  );
  // Timings are CPU time where the runtime offers it (so a loaded machine inflates them
  // less): the host's thread CPU clock (bench-js), Node's process CPU time (user + system,
  // all threads); else wall time.
  const now =
    typeof __cpuNow === "function"
      ? __cpuNow
      : typeof process === "object" && typeof process.cpuUsage === "function"
        ? () => {
            const u = process.cpuUsage();
            return (u.user + u.system) / 1000;
          }
        : () => performance.now();

  // ---- primitives: ns per op, measured by a loop of n ops ----
  const sink = { v: 0 };
  function target(x) {
    sink.v = x;
    return x;
  }
  class Small {
    constructor(a) {
      this.a = a;
      this.b = undefined;
    }
  }
  const ARRAY = Array.from({ length: 1000 }, (_, i) => i);
  const BUF = new ArrayBuffer(65536);
  const DECODER_CHUNK = new Uint8Array(1024).fill(97);

  const PRIMITIVES = {
    // A call of an empty JS function with one argument (models a callback call, or a call of
    // a native method such as controller.enqueue()).
    call: {
      n: 200000,
      async run(n) {
        const o = { target };
        for (let i = 0; i < n; i++) o.target(i);
      },
    },
    // `await` of a fresh promise fulfilled with a fresh { value, done } object: what every
    // reader.read() must cost the reader's loop.
    awaitResult: {
      n: 20000,
      async run(n) {
        for (let i = 0; i < n; i++) {
          const r = await Promise.resolve({ value: i, done: false });
          sink.v = r.done;
        }
      },
    },
    // `await` of a fresh promise fulfilled with undefined (an awaited writer.write()).
    awaitUndefined: {
      n: 20000,
      async run(n) {
        for (let i = 0; i < n; i++) await Promise.resolve(undefined);
      },
    },
    // A fresh promise that nobody awaits (a queued writer.write()).
    promise: {
      n: 100000,
      async run(n) {
        let p;
        for (let i = 0; i < n; i++) p = Promise.resolve(i);
        await p;
      },
    },
    // `new` of a small class with two fields (creation scenarios).
    object: {
      n: 100000,
      async run(n) {
        let o;
        for (let i = 0; i < n; i++) o = new Small(i);
        sink.v = o;
      },
    },
    // next() on an array iterator.
    arrayNext: {
      n: 100000,
      async run(n) {
        let it = ARRAY[Symbol.iterator]();
        for (let i = 0; i < n; i++) {
          if (it.next().done) it = ARRAY[Symbol.iterator]();
        }
      },
    },
    // next() on a generator that yields.
    genNext: {
      n: 100000,
      async run(n) {
        const g = (function* () {
          for (let i = 0; ; i++) yield i;
        })();
        for (let i = 0; i < n; i++) g.next();
      },
    },
    // `await` of next() on an async generator that yields.
    asyncGenNext: {
      n: 20000,
      async run(n) {
        const g = (async function* () {
          for (let i = 0; ; i++) yield i;
        })();
        for (let i = 0; i < n; i++) await g.next();
      },
    },
    // A new Uint8Array view over an existing buffer.
    view: {
      n: 100000,
      async run(n) {
        let v;
        for (let i = 0; i < n; i++) v = new Uint8Array(BUF, 0, 1024);
        sink.v = v;
      },
    },
    // A transfer of an ArrayBuffer (the Streams Standard's TransferArrayBuffer): a new
    // ArrayBuffer object takes the data block, the old one is detached (no copy). Node 20 has
    // no ArrayBuffer.prototype.transfer; it transfers through structuredClone there.
    transfer: {
      n: 100000,
      async run(n) {
        let b = new ArrayBuffer(1024);
        if (typeof b.transfer === "function") {
          for (let i = 0; i < n; i++) b = b.transfer();
        } else {
          for (let i = 0; i < n; i++) b = structuredClone(b, { transfer: [b] });
        }
        sink.v = b;
      },
    },
    // TextDecoder.decode of 1 KiB of ASCII in streaming mode.
    decode1k: {
      n: 5000,
      async run(n) {
        const d = new TextDecoder();
        let s = 0;
        for (let i = 0; i < n; i++) s += d.decode(DECODER_CHUNK, { stream: true }).length;
        sink.v = s;
      },
    },
  };

  const primitiveSamples = {};
  async function measurePrimitive(name) {
    const p = PRIMITIVES[name];
    if (!p) throw new Error(`unknown primitive ${name}`);
    const n = config.quick ? Math.max(10, Math.floor(p.n / 1000)) : p.n;
    await p.run(Math.max(1, Math.floor(n / 10)));
    const times = [];
    for (let r = 0; r < Math.max(1, config.repeat); r++) {
      const t0 = now();
      await p.run(n);
      times.push(((now() - t0) * 1e6) / n);
    }
    (primitiveSamples[name] ||= []).push(median(times));
  }

  function median(xs) {
    const s = xs.slice().sort((a, b) => a - b);
    const m = s.length >> 1;
    return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
  }

  // ---- scenarios ----
  const scenarios = [];
  const memory = [];

  // scenario({ group, name, n, floor: { primitive: count }, run: async n => value,
  //            check: (n, value) => bool (default: value === n), bytesPerOp?,
  //            setup: async n => void (untimed, before the runs of that n),
  //            teardown: async () => void (untimed, after the last run) })
  globalThis.scenario = function scenario(s) {
    scenarios.push(s);
  };
  // memoryScenario({ name, n, make: i => object }): bytes per live object.
  globalThis.memoryScenario = function memoryScenario(s) {
    memory.push(s);
  };

  function selected(name) {
    return !config.filter || name.includes(config.filter);
  }
  function sizeOf(s) {
    if (config.n > 0) return config.n;
    return Math.max(1, Math.round(s.n * config.scale));
  }

  async function runScenario(s) {
    const n = sizeOf(s);
    const check = s.check || ((n, v) => v === n);
    // Warm-up (inline caches, shapes), also validated.
    const warm = Math.max(1, Math.floor(n / 10));
    if (s.setup) await s.setup(warm);
    const wv = await s.run(warm);
    if (!check(warm, wv)) throw new Error(`${s.name}: warm-up run (n=${warm}) returned ${wv}`);
    const times = [];
    if (s.setup) await s.setup(n);
    for (let r = 0; r < Math.max(1, config.repeat); r++) {
      const t0 = now();
      const v = await s.run(n);
      const ms = now() - t0;
      if (!check(n, v)) throw new Error(`${s.name}: run (n=${n}) returned ${v}, check failed`);
      times.push((ms * 1e6) / n);
    }
    if (s.teardown) await s.teardown();
    return { n, ns: median(times), samples: times };
  }

  // Live heap bytes: the host's counting allocator, or Node's V8 heap (plus external and
  // array buffer memory).
  function liveBytes() {
    if (typeof __liveBytes === "function") return __liveBytes();
    const m = process.memoryUsage();
    return m.heapUsed + m.external;
  }
  function collect() {
    if (typeof gc === "function") {
      gc();
      gc();
    }
  }
  function measureMemory(m) {
    const n = config.n > 0 ? config.n : Math.max(10, Math.round(m.n * config.scale));
    // Baseline: an array of n small integers (the slots the streams array also needs).
    collect();
    let before = liveBytes();
    let keep = new Array(n);
    for (let i = 0; i < n; i++) keep[i] = i;
    collect();
    const base = liveBytes() - before;
    keep = null;
    collect();
    before = liveBytes();
    keep = new Array(n);
    for (let i = 0; i < n; i++) keep[i] = m.make(i);
    collect();
    const used = liveBytes() - before;
    if (keep.length !== n) throw new Error(`${m.name}: lost objects`);
    keep = null;
    collect();
    return { name: m.name, n, bytesPerObject: (used - base) / n };
  }

  globalThis.__bench = {
    config,
    output: null,
    async runAll() {
      const chosen = scenarios.filter((s) => selected(s.name));
      const mem = memory.filter((m) => selected(m.name));
      const needed = new Set();
      if (config.floors) {
        for (const s of chosen) for (const k of Object.keys(s.floor || {})) needed.add(k);
      }
      for (const p of needed) await measurePrimitive(p);
      const results = [];
      for (const s of chosen) {
        const r = await runScenario(s);
        results.push({ scenario: s, ...r });
      }
      // Calibrate again at the end: the floor is the mean of both, so drift in machine load
      // during the file shows up as the spread between the two.
      for (const p of needed) await measurePrimitive(p);
      const primitives = {};
      for (const [k, v] of Object.entries(primitiveSamples)) {
        primitives[k] = { ns: v.reduce((a, b) => a + b, 0) / v.length, samples: v };
      }
      const out = [];
      for (const { scenario: s, n, ns, samples } of results) {
        let floorNs = null;
        if (config.floors && s.floor && Object.keys(s.floor).length) {
          floorNs = 0;
          for (const [k, c] of Object.entries(s.floor)) floorNs += c * primitives[k].ns;
        }
        out.push({
          group: s.group,
          name: s.name,
          n,
          ns,
          samples,
          opsPerSec: 1e9 / ns,
          floor: s.floor || null,
          floorNs,
          xFloor: floorNs ? ns / floorNs : null,
          bytesPerOp: s.bytesPerOp || null,
          mbPerSec: s.bytesPerOp ? (s.bytesPerOp * 1e9) / ns / 1e6 : null,
        });
      }
      const memOut = mem.map(measureMemory);
      this.output = { primitives, results: out, memory: memOut };
      return this.output;
    },
  };
})();
