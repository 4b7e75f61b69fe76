// CompressionStream / DecompressionStream throughput on 64 KiB chunks of compressible data
// (no floor: the work is the codec's). MB/s counts uncompressed bytes.
const SIZE = 65536;
function makeChunk(seed) {
  const a = new Uint8Array(SIZE);
  let x = seed | 1;
  for (let i = 0; i < SIZE; i++) {
    // Text-like: mostly a small alphabet with runs, some noise.
    x = (x * 1103515245 + 12345) & 0x7fffffff;
    a[i] = (x >> 16) % 7 === 0 ? 32 : 97 + ((i >> 3) % 26);
  }
  return a;
}
const CHUNKS = [makeChunk(1), makeChunk(2), makeChunk(3), makeChunk(4)];
function source(n, chunks) {
  let i = 0;
  return new ReadableStream({ pull(c) { if (i < n) c.enqueue(chunks[i++ % chunks.length]); else c.close(); } });
}
async function count(rs) {
  let bytes = 0;
  await rs.pipeTo(new WritableStream({ write(c) { bytes += c.byteLength; } }));
  return bytes;
}
async function collect(rs) {
  const parts = [];
  await rs.pipeTo(new WritableStream({ write(c) { parts.push(c); } }));
  return parts;
}
let gz = null;
let gzFor = -1;
async function gzipped(n) {
  if (gzFor !== n) {
    gz = await collect(source(n, CHUNKS).pipeThrough(new CompressionStream("gzip")));
    gzFor = n;
  }
  return gz;
}
scenario({ group: "compression", name: "CompressionStream('gzip'), 64 KiB chunks", n: 200,
  bytesPerOp: SIZE, check: (n, v) => v > 0 && v < n * SIZE,
  run: (n) => count(source(n, CHUNKS).pipeThrough(new CompressionStream("gzip"))) });
scenario({ group: "compression", name: "DecompressionStream('gzip'), 64 KiB chunks", n: 200,
  bytesPerOp: SIZE, check: (n, v) => v === n * SIZE,
  // The compressed input is made once per n, untimed.
  setup: gzipped,
  run: async (n) => {
    const parts = await gzipped(n);
    let i = 0;
    return count(new ReadableStream({ pull(c) { if (i < parts.length) c.enqueue(parts[i++]); else c.close(); } })
      .pipeThrough(new DecompressionStream("gzip")));
  } });
