// Promise.prototype.then replaced after setup: the streams machinery must not call the public
// then (only the program's own watch() calls would show up).
let ctrl;
const rs = new ReadableStream({
  start(c) { ctrl = c; return Promise.resolve(); },
  pull(c) { return Promise.resolve(); },
  cancel() { return Promise.resolve(); },
});
const realThen = Promise.prototype.then;
let count = 0;
Promise.prototype.then = function (...args) { count++; return realThen.apply(this, args); };
const r = rs.getReader();
const p = r.read();
ctrl.enqueue(1);
const q = r.cancel('x');
setTimeout(() => { Promise.prototype.then = realThen; log('public then calls', count); }, 1);
