// ReadableStreamDefaultReader.read(): the result object is a plain object with own
// enumerable value/done (checked via descriptor flags), from both queue and pending paths.
let ctrl;
const rs = new ReadableStream({ start(c) { ctrl = c; c.enqueue(1); } });
const r = rs.getReader();
function shape(x) {
  const d = Object.getOwnPropertyDescriptor(x, 'value');
  log('proto', Object.getPrototypeOf(x) === Object.prototype, 'keys', Object.keys(x).sort(), d.writable, d.enumerable, d.configurable);
}
r.read().then(shape);
r.read().then(shape);
(async () => { await delay(1); ctrl.enqueue(2); ctrl.close(); })();
