// tee(): branch A cancelled, then the source closes: A's cancel promise resolves, B closes.
let ctrl;
const rs = new ReadableStream({ start(c) { ctrl = c; } });
const [a, b] = rs.tee();
watch('a.cancel', a.cancel('A'));
const rb = b.getReader();
watch('b.read', rb.read());
watch('b.closed', rb.closed);
(async () => { await delay(1); ctrl.enqueue('z'); ctrl.close(); })();
