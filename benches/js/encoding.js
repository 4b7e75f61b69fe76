// TextDecoderStream throughput: 1 KiB ASCII chunks piped through it. Floor per chunk: the
// pull(), enqueue() and write() calls plus a streaming TextDecoder.decode() of 1 KiB.
const CHUNK = new Uint8Array(1024).fill(97);
scenario({ group: "encoding", name: "TextDecoderStream, 1 KiB chunks", n: 5000,
  floor: { call: 3, decode1k: 1 }, bytesPerOp: 1024, check: (n, v) => v === n * 1024,
  run: async (n) => {
    let i = 0;
    let chars = 0;
    await new ReadableStream({ pull(c) { if (i++ < n) c.enqueue(CHUNK); else c.close(); } })
      .pipeThrough(new TextDecoderStream())
      .pipeTo(new WritableStream({ write(s) { chars += s.length; } }));
    return chars;
  } });
// TextEncoderStream throughput: 1 KiB ASCII strings piped through it (each output chunk is a
// new Uint8Array over a new ArrayBuffer: the buffers the collector does not count).
const TEXT = "a".repeat(1024);
scenario({ group: "encoding", name: "TextEncoderStream, 1 KiB strings", n: 5000,
  bytesPerOp: 1024, check: (n, v) => v === n * 1024,
  run: async (n) => {
    let i = 0;
    let bytes = 0;
    await new ReadableStream({ pull(c) { if (i++ < n) c.enqueue(TEXT); else c.close(); } })
      .pipeThrough(new TextEncoderStream())
      .pipeTo(new WritableStream({ write(b) { bytes += b.byteLength; } }));
    return bytes;
  } });
