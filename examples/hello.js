// A tiny tour of the host: run with `cargo run -p boa_streams_host --bin boa-streams -- examples/hello.js`.
console.log("hello from boa-streams", scriptArgs.length ? scriptArgs : "");

const start = performance.now();
Promise.resolve("a promise").then((v) => console.log(`then: ${v} (a microtask)`));
queueMicrotask(() => console.log("queueMicrotask: also a microtask"));
setTimeout(() => {
  const ms = Math.round(performance.now() - start);
  console.log(`setTimeout: a task, ~${ms} ms later`);
}, 10);
console.log("script end (jobs run after this line)");
