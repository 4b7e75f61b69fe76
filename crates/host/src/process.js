// The global `process` (see process.rs). Evaluated once per realm; its value is a function
// taking the host's natives and returning [process, dispatchSignal].
(function (natives) {
  "use strict";
  const SIGNALS = ["SIGINT", "SIGTERM"];
  const listeners = new Map();
  let env;
  const process = {};
  const define = (name, value) =>
    Object.defineProperty(process, name, { value, writable: true, configurable: true, enumerable: true });

  Object.defineProperty(process, "env", {
    get() {
      if (env === undefined) env = natives.env();
      return env;
    },
    set(value) {
      env = value;
    },
    enumerable: true,
    configurable: true,
  });
  define("argv", natives.argv);
  define("argv0", natives.argv[0]);
  define("execPath", natives.argv[0]);
  define("execArgv", []);
  define("platform", natives.platform);
  define("arch", natives.arch);
  define("pid", natives.pid);
  define("title", "boa-streams");
  // No `version`/`versions.node`: a package that sees them takes its Node code paths.
  define("versions", Object.freeze({ boa_streams: natives.version }));
  define("release", Object.freeze({ name: "boa-streams" }));
  define("exitCode", undefined);
  define("cwd", function cwd() {
    return natives.cwd();
  });
  define("exit", function exit(code) {
    natives.exit(code === undefined ? process.exitCode : code);
  });
  define("nextTick", function nextTick(callback, ...args) {
    if (typeof callback !== "function") {
      throw new TypeError('process.nextTick: the "callback" argument must be a function');
    }
    // The host's next-tick queue (see event_loop.rs); a microtask where there is none.
    if (!natives.nextTick(callback, ...args)) queueMicrotask(() => callback(...args));
  });
  const stream = (write, fd) =>
    Object.freeze({
      fd,
      isTTY: false,
      write(chunk, encoding, callback) {
        if (typeof encoding === "function") callback = encoding;
        write(typeof chunk === "string" ? chunk : new TextDecoder().decode(chunk));
        if (typeof callback === "function") queueMicrotask(callback);
        return true;
      },
    });
  define("stdout", stream(natives.stdout, 1));
  define("stderr", stream(natives.stderr, 2));

  const changed = (event) => {
    if (SIGNALS.includes(event)) natives.listen(event, (listeners.get(event) || []).length > 0);
  };
  const add = (event, listener, once) => {
    if (typeof listener !== "function") {
      throw new TypeError('process.on: the "listener" argument must be a function');
    }
    const list = listeners.get(event) || [];
    list.push({ listener, once });
    listeners.set(event, list);
    changed(event);
    return process;
  };
  const remove = (event, listener) => {
    const list = listeners.get(event) || [];
    const at = list.findIndex((l) => l.listener === listener);
    if (at >= 0) list.splice(at, 1);
    changed(event);
    return process;
  };
  define("on", function on(event, listener) {
    return add(event, listener, false);
  });
  define("addListener", process.on);
  define("once", function once(event, listener) {
    return add(event, listener, true);
  });
  define("off", function off(event, listener) {
    return remove(event, listener);
  });
  define("removeListener", process.off);
  define("removeAllListeners", function removeAllListeners(event) {
    if (event === undefined) {
      const events = [...listeners.keys()];
      listeners.clear();
      events.forEach(changed);
    } else {
      listeners.delete(event);
      changed(event);
    }
    return process;
  });
  define("listeners", function listenersOf(event) {
    return (listeners.get(event) || []).map((l) => l.listener);
  });
  define("listenerCount", function listenerCount(event) {
    return (listeners.get(event) || []).length;
  });
  define("emit", function emit(event, ...args) {
    const list = (listeners.get(event) || []).slice();
    if (list.length === 0) return false;
    for (const entry of list) {
      if (entry.once) remove(event, entry.listener);
      entry.listener.apply(process, args);
    }
    return true;
  });
  Object.defineProperty(process, Symbol.toStringTag, { value: "process", configurable: true });

  const dispatchSignal = (name) => {
    process.emit(name, name);
  };
  return [process, dispatchSignal];
})
