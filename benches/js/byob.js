// BYOB reads from a byte stream whose pull() fills the BYOB request. Floor per read: the
// awaited read, the calls pull(), byobRequest, view, respond(), two new views (the
// request's and the result's) and two transfers: the spec detaches the reader's buffer at
// read(view) and the request view's buffer at respond(), and script sees two new ArrayBuffer
// objects (the request view's buffer and the result view's; the spec's third transfer, in
// ReadableByteStreamControllerConvertPullIntoDescriptor, makes an object script never sees).
// Not in the floor: what this loop's own script does beyond that (a second byobRequest get,
// the byteLength/buffer getters, its own new Uint8Array over the returned buffer).
function byobScenario(size, n) {
  scenario({ group: "byob", name: `BYOB read ${size >= 1024 ? size / 1024 + " KiB" : size + " B"}`, n,
    floor: { awaitResult: 1, call: 4, view: 2, transfer: 2 }, bytesPerOp: size,
    check: (n, v) => v === n * size,
    run: async (n) => {
      let pulls = 0;
      const rs = new ReadableStream({
        type: "bytes",
        pull(c) {
          if (++pulls > n) {
            c.close();
            c.byobRequest.respond(0);
            return;
          }
          const v = c.byobRequest.view;
          v[0] = pulls & 255;
          c.byobRequest.respond(v.byteLength);
        },
      });
      const reader = rs.getReader({ mode: "byob" });
      let view = new Uint8Array(size);
      let total = 0;
      for (;;) {
        const { done, value } = await reader.read(view);
        if (done) return total;
        total += value.byteLength;
        view = new Uint8Array(value.buffer);
      }
    } });
}
byobScenario(1024, 20000);
byobScenario(65536, 5000);
