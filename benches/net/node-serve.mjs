// The contract of examples/serve.js on Node: http.createServer, the body a web
// ReadableStream made the same way and written through Readable.fromWeb; /echo through
// Readable.toWeb / fromWeb.   node node-serve.mjs PORT
import http from "node:http";
import { Readable } from "node:stream";

const port = Number(process.argv[2] ?? 0);
const CHUNK = 65536;
const pattern = new Uint8Array(CHUNK + 251);
for (let i = 0; i < pattern.length; i++) pattern[i] = i % 251;

function patternStream(total) {
  let sent = 0;
  return new ReadableStream({
    pull(controller) {
      const n = Math.min(CHUNK, total - sent);
      const offset = sent % 251;
      controller.enqueue(pattern.slice(offset, offset + n));
      sent += n;
      if (sent >= total) controller.close();
    },
  }, { highWaterMark: 0 });
}

const server = http.createServer((req, res) => {
  const url = new URL(req.url, "http://127.0.0.1");
  if (req.method === "GET" && url.pathname === "/") {
    res.writeHead(200, { "content-type": "text/plain; charset=utf-8" });
    res.end("hello from node\n");
    return;
  }
  if (req.method === "GET" && url.pathname === "/stream") {
    const total = Math.floor(Number(url.searchParams.get("mib") ?? "1") * 1048576);
    res.writeHead(200, { "content-type": "application/octet-stream" });
    Readable.fromWeb(patternStream(total)).pipe(res);
    return;
  }
  if (req.method === "POST" && url.pathname === "/echo") {
    res.writeHead(200, { "content-type": "application/octet-stream" });
    Readable.fromWeb(Readable.toWeb(req)).pipe(res);
    return;
  }
  res.writeHead(404);
  res.end("not found\n");
});
server.keepAliveTimeout = 60_000;
server.listen(port, "127.0.0.1", () => {
  console.log(`listening on http://127.0.0.1:${server.address().port}`);
});
