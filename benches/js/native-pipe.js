// Native-to-native pipes (issue 11 item 4): a file read as a ReadableStream, piped through
// CompressionStream('gzip') (or directly) into a WritableStream that writes a file, 64 KiB
// chunks. MB/s counts input bytes; an op is one 64 KiB input chunk.
//
// Under bench-js the two ends are boa_streams_host::native_file (a NativeSource and a
// NativeSink, installed as `__nativeFiles`); under Node they are Node's own web-stream
// adapters of its fs streams: Readable.toWeb(fs.createReadStream(...)) and
// Writable.toWeb(fs.createWriteStream(...)). The script is the same on both.
const CHUNK = 65536;
const files =
  typeof __nativeFiles === "object"
    ? __nativeFiles
    : (() => {
        const fs = require("fs");
        const os = require("os");
        const { Readable, Writable } = require("stream");
        return {
          dir: os.tmpdir(),
          open: (p) => Readable.toWeb(fs.createReadStream(p, { highWaterMark: CHUNK })),
          create: (p) => Writable.toWeb(fs.createWriteStream(p)),
          size: (p) => fs.statSync(p).size,
          remove: (p) => fs.rmSync(p, { force: true }),
        };
      })();
const base = `${files.dir}/bench-native-pipe-${Date.now()}-${Math.floor(Math.random() * 1e9)}`;
const INPUT = `${base}.txt`;
const OUTPUT = `${base}.out`;

function makeChunk(seed) {
  const a = new Uint8Array(CHUNK);
  let x = seed | 1;
  for (let i = 0; i < CHUNK; i++) {
    // Text-like: mostly a small alphabet with runs, some noise (as compression.js).
    x = (x * 1103515245 + 12345) & 0x7fffffff;
    a[i] = (x >> 16) % 7 === 0 ? 32 : 97 + ((i >> 3) % 26);
  }
  return a;
}
const CHUNKS = [makeChunk(1), makeChunk(2), makeChunk(3), makeChunk(4)];

// The input file: n chunks, written once per n (untimed), through the same sink.
let inputChunks = -1;
async function makeInput(n) {
  if (inputChunks === n) return;
  let i = 0;
  await new ReadableStream({
    pull(c) {
      if (i < n) c.enqueue(CHUNKS[i++ % CHUNKS.length].slice());
      else c.close();
    },
  }).pipeTo(files.create(INPUT));
  if (files.size(INPUT) !== n * CHUNK) throw new Error("input file not written");
  inputChunks = n;
}

async function teardown() {
  files.remove(INPUT);
  files.remove(OUTPUT);
  inputChunks = -1;
}

scenario({ group: "native pipe", name: "native file -> CompressionStream('gzip') -> native file, 64 KiB chunks",
  n: 200, bytesPerOp: CHUNK,
  setup: makeInput,
  check: (n, v) => v > 0 && v < n * CHUNK,
  run: async () => {
    await files.open(INPUT).pipeThrough(new CompressionStream("gzip")).pipeTo(files.create(OUTPUT));
    return files.size(OUTPUT);
  },
  teardown });
scenario({ group: "native pipe", name: "native file -> native file (pipeTo), 64 KiB chunks",
  n: 1000, bytesPerOp: CHUNK,
  setup: makeInput,
  check: (n, v) => v === n * CHUNK,
  run: async () => {
    await files.open(INPUT).pipeTo(files.create(OUTPUT));
    return files.size(OUTPUT);
  },
  teardown });
