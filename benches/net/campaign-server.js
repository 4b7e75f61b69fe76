// The server the issue-26 campaign (benches/src/bin/net-campaign.rs) drives:
//   boa-streams --expose-gc benches/net/campaign-server.js PORT
// It prints `listening on http://127.0.0.1:PORT` and keeps counters the campaign reads at
// GET /stats (after a full GC with GET /stats?gc=1).
const port = Number(scriptArgs[0] ?? 0);
const CHUNK = 65536;
const pattern = new Uint8Array(CHUNK + 251);
for (let i = 0; i < pattern.length; i++) pattern[i] = i % 251;

const stats = {
  requests: 0,
  // Response body streams started and not yet closed or cancelled.
  liveStreams: 0,
  streamsStarted: 0,
  streamsClosed: 0,
  // cancel() calls, those without a reason, and a second cancel() of one stream.
  cancels: 0,
  cancelsWithoutReason: 0,
  doubleCancels: 0,
  // request.signal aborts seen.
  aborts: 0,
  // Bytes produced by stream sources (enqueued), and bytes read from request bodies.
  produced: 0,
  consumed: 0,
  badConsumed: 0,
  // Handlers waiting for the client to go away (/hold).
  holding: 0,
  selfFetches: 0,
};

function patternStream(total, track = true) {
  let sent = 0;
  let cancelled = false;
  if (track) {
    stats.liveStreams++;
    stats.streamsStarted++;
  }
  return new ReadableStream({
    pull(controller) {
      const n = Math.min(CHUNK, total - sent);
      const offset = sent % 251;
      controller.enqueue(pattern.slice(offset, offset + n));
      sent += n;
      stats.produced += n;
      if (sent >= total) {
        controller.close();
        if (track) {
          stats.liveStreams--;
          stats.streamsClosed++;
        }
      }
    },
    cancel(reason) {
      stats.cancels++;
      if (reason === undefined) stats.cancelsWithoutReason++;
      if (cancelled) stats.doubleCancels++;
      cancelled = true;
      if (track) stats.liveStreams--;
    },
  }, { highWaterMark: 0 });
}

async function consume(body) {
  let n = 0;
  let bad = 0;
  if (body) {
    for await (const chunk of body) {
      for (let i = 0; i < chunk.length; i++) if (chunk[i] !== (n + i) % 251) bad++;
      n += chunk.length;
    }
  }
  stats.consumed += n;
  stats.badConsumed += bad;
  return n;
}

let base;
BoaStreams.serve({
  hostname: "127.0.0.1",
  port,
  onListen({ hostname, port }) {
    base = `http://${hostname}:${port}`;
    console.log(`listening on ${base}`);
  },
}, async (request) => {
  stats.requests++;
  const url = new URL(request.url);
  const q = (name, fallback) => {
    const n = Number(url.searchParams.get(name) ?? fallback);
    if (!Number.isFinite(n) || n < 0) throw new RangeError(`bad ${name}`);
    return n;
  };
  request.signal.addEventListener("abort", () => stats.aborts++);
  switch (url.pathname) {
    case "/":
      return new Response("ok\n");
    case "/stats":
      if (url.searchParams.has("gc") && typeof gc === "function") gc();
      return new Response(JSON.stringify(stats), { headers: { "content-type": "application/json" } });
    case "/stream":
      return new Response(patternStream(Math.floor(q("mib", 1) * 1048576)));
    case "/echo":
      return new Response(request.body);
    case "/count":
      return new Response(String(await consume(request.body)));
    case "/throw":
      throw new Error("campaign: handler throws");
    case "/reject":
      return Promise.reject(new TypeError("campaign: handler rejects"));
    case "/nonresponse":
      return { status: 200, body: "not a Response" };
    case "/error-mid": {
      // 256 KiB, then the source errors: the client must see a truncated body.
      let sent = 0;
      return new Response(new ReadableStream({
        pull(c) {
          if (sent >= 262144) {
            c.error(new Error("campaign: source fails mid-body"));
            return;
          }
          c.enqueue(new Uint8Array(65536));
          sent += 65536;
        },
      }, { highWaterMark: 0 }));
    }
    case "/never": {
      // One chunk, then a pull() that never settles (until the client goes away).
      let first = true;
      stats.liveStreams++;
      stats.streamsStarted++;
      let cancelled = false;
      return new Response(new ReadableStream({
        pull(c) {
          if (first) {
            first = false;
            c.enqueue(new Uint8Array(1000));
            return;
          }
          return new Promise(() => {});
        },
        cancel(reason) {
          stats.cancels++;
          if (reason === undefined) stats.cancelsWithoutReason++;
          if (cancelled) stats.doubleCancels++;
          cancelled = true;
          stats.liveStreams--;
        },
      }, { highWaterMark: 0 }));
    }
    case "/hold":
      // Answer only once the client went away (or after 30 s).
      stats.holding++;
      await new Promise((resolve) => {
        const t = setTimeout(resolve, 30000);
        request.signal.addEventListener("abort", () => { clearTimeout(t); resolve(); });
      });
      stats.holding--;
      return new Response("late\n");
    case "/self": {
      // A handler re-entering fetch() of its own server.
      stats.selfFetches++;
      const inner = await fetch(base + "/stream?mib=" + q("mib", 1));
      return new Response(inner.body);
    }
    case "/fetch": {
      // fetch() a (scripted, possibly hostile) upstream and say how it went.
      const ms = q("ms", 3000);
      try {
        const r = await fetch(url.searchParams.get("url"), { signal: AbortSignal.timeout(ms) });
        let n = 0;
        for await (const chunk of r.body ?? []) n += chunk.length;
        return new Response(JSON.stringify({ status: r.status, bytes: n }));
      } catch (e) {
        return new Response(JSON.stringify({ error: e?.name ?? String(e), message: String(e?.message ?? e) }));
      }
    }
    case "/bomb": {
      // fetch() a compressed upstream body (a decompression bomb, or a corrupt one) and read
      // it as `how` says: `cancel` (for await, cancelled after `mib` MiB), `read` (for await
      // to the end), `arrayBuffer`, `text`.
      const how = url.searchParams.get("how");
      const limit = q("mib", 16) * 1048576;
      const t0 = Date.now();
      let n = 0;
      try {
        const r = await fetch(url.searchParams.get("url"), { signal: AbortSignal.timeout(q("ms", 60000)) });
        if (how === "arrayBuffer") {
          n = (await r.arrayBuffer()).byteLength;
        } else if (how === "text") {
          n = (await r.text()).length;
        } else {
          for await (const chunk of r.body) {
            n += chunk.length;
            if (how === "cancel" && n >= limit) break;
          }
        }
        return new Response(JSON.stringify({ bytes: n, ms: Date.now() - t0 }));
      } catch (e) {
        return new Response(JSON.stringify({
          error: e?.name ?? String(e), message: String(e?.message ?? e), bytes: n, ms: Date.now() - t0,
        }));
      }
    }
    default:
      return new Response("not found\n", { status: 404 });
  }
});
