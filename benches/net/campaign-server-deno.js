// The campaign server's load routes on Deno (net-campaign --compare):
//   deno run --allow-net --v8-flags=--expose-gc benches/net/campaign-server-deno.js PORT
// Same routes, byte pattern and counters as benches/net/campaign-server.js for what the load
// and slow-reader phases use (/, /stats[?gc=1], /stream?mib=N, /echo, /self?mib=N), served by
// Deno.serve; /self uses Deno's fetch(). gc() exists through V8's --expose-gc flag.
const port = Number(Deno.args[0] ?? 0);
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
  gc: typeof globalThis.gc === "function" ? "gc() (--v8-flags=--expose-gc)" : "none",
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

let base;
Deno.serve({
  hostname: "127.0.0.1",
  port,
  onListen({ hostname, port }) {
    base = `http://${hostname}:${port}`;
    console.log(`listening on ${base}`);
  },
}, async (request) => {
  stats.requests++;
  const url = new URL(request.url);
  const mib = () => {
    const n = Number(url.searchParams.get("mib") ?? 1);
    if (!Number.isFinite(n) || n < 0) throw new RangeError("bad mib");
    return n;
  };
  request.signal.addEventListener("abort", () => stats.aborts++);
  switch (url.pathname) {
    case "/":
      return new Response("ok\n");
    case "/stats":
      if (url.searchParams.has("gc") && typeof globalThis.gc === "function") globalThis.gc();
      return new Response(JSON.stringify(stats), { headers: { "content-type": "application/json" } });
    case "/stream":
      return new Response(patternStream(Math.floor(mib() * 1048576)));
    case "/echo":
      return new Response(request.body);
    case "/self": {
      stats.selfFetches++;
      const inner = await fetch(base + "/stream?mib=" + mib());
      return new Response(inner.body);
    }
    default:
      return new Response("not found\n", { status: 404 });
  }
});
