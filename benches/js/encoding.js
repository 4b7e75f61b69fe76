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
