// The campaign server's load routes on Node (net-campaign --compare):
//   node --expose-gc benches/net/campaign-server-node.mjs PORT
// Same routes, byte pattern and counters as benches/net/campaign-server.js for what the load
// and slow-reader phases use (/, /stats[?gc=1], /stream?mib=N, /echo, /self?mib=N): bodies are
// web ReadableStreams (highWaterMark 0, 64 KiB slices of the pattern) written through
// Readable.fromWeb; /echo goes through Readable.toWeb and back; /self uses Node's fetch().
import http from "node:http";
import { Readable, pipeline } from "node:stream";

const port = Number(process.argv[2] ?? 0);
const CHUNK = 65536;
const pattern = new Uint8Array(CHUNK + 251);
for (let i = 0; i < pattern.length; i++) pattern[i] = i % 251;

const stats = {
  requests: 0,
  liveStreams: 0,
  streamsStarted: 0,
  streamsClosed: 0,
  cancels: 0,
  cancelsWithoutReason: 0,
  doubleCancels: 0,
  aborts: 0,
  produced: 0,
  consumed: 0,
  badConsumed: 0,
  holding: 0,
  selfFetches: 0,
  gc: typeof gc === "function" ? "gc() (--expose-gc)" : "none",
};

function patternStream(total) {
  let sent = 0;
  let cancelled = false;
  stats.liveStreams++;
  stats.streamsStarted++;
  return new ReadableStream({
    pull(controller) {
      const n = Math.min(CHUNK, total - sent);
      const offset = sent % 251;
      controller.enqueue(pattern.slice(offset, offset + n));
      sent += n;
      stats.produced += n;
      if (sent >= total) {
        controller.close();
        stats.liveStreams--;
        stats.streamsClosed++;
      }
    },
    cancel(reason) {
      stats.cancels++;
      if (reason === undefined) stats.cancelsWithoutReason++;
      if (cancelled) stats.doubleCancels++;
      cancelled = true;
      stats.liveStreams--;
    },
  }, { highWaterMark: 0 });
}

// A web stream written to `res`; pipeline() destroys the Readable (cancelling the web
// stream) when the client goes away.
function send(res, stream, status = 200) {
  res.writeHead(status, { "content-type": "application/octet-stream" });
  pipeline(Readable.fromWeb(stream), res, () => {});
}

let base;
const server = http.createServer(async (req, res) => {
  stats.requests++;
  const url = new URL(req.url, "http://127.0.0.1");
  const mib = () => {
    const n = Number(url.searchParams.get("mib") ?? 1);
    if (!Number.isFinite(n) || n < 0) throw new RangeError("bad mib");
    return n;
  };
  req.on("close", () => { if (!res.writableEnded) stats.aborts++; });
  try {
    switch (url.pathname) {
      case "/":
        res.writeHead(200, { "content-type": "text/plain;charset=UTF-8" });
        res.end("ok\n");
        return;
      case "/stats":
        if (url.searchParams.has("gc") && typeof gc === "function") gc();
        res.writeHead(200, { "content-type": "application/json" });
        res.end(JSON.stringify(stats));
        return;
      case "/stream":
        send(res, patternStream(Math.floor(mib() * 1048576)));
        return;
      case "/echo":
        send(res, Readable.toWeb(req));
        return;
      case "/self": {
        stats.selfFetches++;
        const inner = await fetch(base + "/stream?mib=" + mib());
        send(res, inner.body);
        return;
      }
      default:
        res.writeHead(404);
        res.end("not found\n");
    }
  } catch (e) {
    if (!res.headersSent) res.writeHead(500);
    res.end(String(e));
  }
});
server.keepAliveTimeout = 60_000;
server.listen(port, "127.0.0.1", () => {
  base = `http://127.0.0.1:${server.address().port}`;
  console.log(`listening on ${base}`);
});
