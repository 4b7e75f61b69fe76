// Web Crypto throughput (not a bench-js scenario file: wall time, own output): the same file runs under the boa_streams host (`boa-streams`) and
// under Node (`node`); `scripts/bench-crypto` runs both in one go and prints the ratios.
// Wall time (performance.now()): digests and ciphers of a megabyte or more run on worker
// threads in boa_crypto, as Node runs its WebCrypto work on its thread pool.
// Each scenario prints one line: `RESULT <name>\t<value>\t<unit>` (the best of 3 runs).
const subtle = globalThis.crypto.subtle;
const MiB = 1 << 20;

async function best(runs, once) {
  let top = 0;
  for (let i = 0; i < runs; i++) top = Math.max(top, await once());
  return top;
}

async function digest256MiB() {
  const data = new Uint8Array(256 * MiB).fill(0x5a);
  // Warm-up on 1 MiB.
  await subtle.digest("SHA-256", data.subarray(0, MiB));
  return best(3, async () => {
    const t0 = performance.now();
    const out = await subtle.digest("SHA-256", data);
    const ms = performance.now() - t0;
    if (out.byteLength !== 32) throw new Error("digest length " + out.byteLength);
    return 256 / (ms / 1000);
  });
}

async function aesGcmStream() {
  const CHUNK = 64 * 1024;
  const COUNT = 512; // 32 MiB per run
  const key = await subtle.generateKey({ name: "AES-GCM", length: 256 }, false, ["encrypt"]);
  const chunk = new Uint8Array(CHUNK).fill(0x61);
  const run = async () => {
    let i = 0;
    let seq = 0;
    let bytes = 0;
    const source = new ReadableStream({
      pull(c) {
        if (i++ < COUNT) c.enqueue(chunk);
        else c.close();
      },
    });
    const encrypt = new TransformStream({
      async transform(plain, c) {
        const iv = new Uint8Array(12);
        new DataView(iv.buffer).setUint32(8, seq++);
        c.enqueue(new Uint8Array(await subtle.encrypt({ name: "AES-GCM", iv }, key, plain)));
      },
    });
    const t0 = performance.now();
    await source.pipeThrough(encrypt).pipeTo(new WritableStream({ write(c) { bytes += c.byteLength; } }));
    const ms = performance.now() - t0;
    if (bytes !== COUNT * (CHUNK + 16)) throw new Error("encrypted " + bytes + " bytes");
    return (COUNT * CHUNK) / MiB / (ms / 1000);
  };
  await run();
  return best(3, run);
}

async function hmac1KiB() {
  const N = 20000;
  const key = await subtle.importKey("raw", new Uint8Array(32).fill(1), { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  const message = new Uint8Array(1024).fill(0x62);
  const run = async () => {
    const t0 = performance.now();
    for (let i = 0; i < N; i++) {
      const mac = await subtle.sign("HMAC", key, message);
      if (mac.byteLength !== 32) throw new Error("mac length");
    }
    return N / ((performance.now() - t0) / 1000);
  };
  await run();
  return best(3, run);
}

(async () => {
  const scenarios = [
    ["digest SHA-256, 256 MiB buffer", "MB/s", digest256MiB],
    ["AES-GCM encrypt, 64 KiB chunks through a TransformStream", "MB/s", aesGcmStream],
    ["HMAC-SHA-256 sign, 1 KiB messages", "ops/s", hmac1KiB],
  ];
  for (const [name, unit, fn] of scenarios) {
    const value = await fn();
    console.log(`RESULT ${name}\t${value.toFixed(1)}\t${unit}`);
  }
})().catch((e) => {
  console.log("FAILED " + e);
});
