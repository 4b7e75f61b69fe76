// BYOB reads from a byte stream whose pull() fills the BYOB request. Floor per read: the
// awaited read, the calls pull(), byobRequest, view, respond(), and two new views (the
// request's and the result's). Transfers (detaching the buffer) are not counted.
function byobScenario(size, n) {
  scenario({ group: "byob", name: `BYOB read ${size >= 1024 ? size / 1024 + " KiB" : size + " B"}`, n,
    floor: { awaitResult: 1, call: 4, view: 2 }, bytesPerOp: size,
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
