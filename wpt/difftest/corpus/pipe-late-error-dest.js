// pipeTo: the destination errors later (controller.error) while the pipe waits for a read:
// the source is cancelled; with preventCancel it is released instead.
let w1, w2;
const rs1 = new ReadableStream(source('src1', { cancel(r) { log('cancel1', r); } }));
const rs2 = new ReadableStream(source('src2', { cancel() { log('cancel2 must not run'); } }));
const ws1 = new WritableStream({ start(c) { w1 = c; } });
const ws2 = new WritableStream({ start(c) { w2 = c; } });
watch('pipe1', rs1.pipeTo(ws1));
watch('pipe2', rs2.pipeTo(ws2, { preventCancel: true }));
(async () => {
  await delay(1);
  w1.error(new Error('d1'));
  w2.error(new Error('d2'));
  await delay(1);
  log('rs2 locked', rs2.locked);
})();
