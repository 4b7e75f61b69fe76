// Hash a stream of bytes with SHA-256 as it flows through a TransformStream, and encrypt it
// chunk by chunk with AES-GCM on the way: `boa-streams examples/hash-file.js [MiB]`.
//
// Scripts cannot open files in this host (the file streams of crates/host/src/native_file.rs
// are for Rust embedders, fetch() refuses file: URLs, and there is no stdin stream), so the
// "file" is generated: a ReadableStream of 64 KiB chunks standing in for a file's stream.
// With a real byte stream (a fetch() response body, a Blob's stream()), only `source` changes.
const MiB = Number(scriptArgs[0] ?? 8);
const CHUNK = 64 * 1024;

function fileLikeStream(totalBytes) {
  let sent = 0;
  return new ReadableStream({
    pull(controller) {
      if (sent >= totalBytes) return controller.close();
      const n = Math.min(CHUNK, totalBytes - sent);
      const chunk = new Uint8Array(n);
      for (let i = 0; i < n; i++) chunk[i] = (sent + i) & 0xff;
      sent += n;
      controller.enqueue(chunk);
    },
  });
}

// SubtleCrypto's digest is one-shot: the transform passes every chunk through untouched and
// keeps it; flush() hashes the whole (no copy is made until then).
function sha256Tap(onDigest) {
  const parts = [];
  let length = 0;
  return new TransformStream({
    transform(chunk, controller) {
      parts.push(chunk);
      length += chunk.byteLength;
      controller.enqueue(chunk);
    },
    async flush() {
      const all = new Uint8Array(length);
      let at = 0;
      for (const p of parts) {
        all.set(p, at);
        at += p.byteLength;
      }
      onDigest(await crypto.subtle.digest("SHA-256", all));
    },
  });
}

function aesGcmEncrypt(key) {
  let seq = 0;
  return new TransformStream({
    async transform(chunk, controller) {
      const iv = new Uint8Array(12);
      new DataView(iv.buffer).setUint32(8, seq++);
      controller.enqueue(new Uint8Array(await crypto.subtle.encrypt({ name: "AES-GCM", iv }, key, chunk)));
    },
  });
}

const hex = (buffer) => [...new Uint8Array(buffer)].map((b) => b.toString(16).padStart(2, "0")).join("");

(async () => {
  const key = await crypto.subtle.generateKey({ name: "AES-GCM", length: 256 }, false, ["encrypt"]);
  let digest;
  let encrypted = 0;
  const t0 = performance.now();
  await fileLikeStream(MiB * 1024 * 1024)
    .pipeThrough(sha256Tap((d) => (digest = d)))
    .pipeThrough(aesGcmEncrypt(key))
    .pipeTo(new WritableStream({ write(c) { encrypted += c.byteLength; } }));
  const ms = performance.now() - t0;
  console.log(`sha256 ${hex(digest)}  ${MiB} MiB`);
  console.log(`encrypted ${encrypted} bytes (AES-GCM, 16-byte tag per 64 KiB chunk) in ${ms.toFixed(0)} ms`);
})();
