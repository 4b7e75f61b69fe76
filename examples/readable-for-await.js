// Produce, transform by hand and consume a ReadableStream with `for await`.
// Run: cargo run -p boa_streams_host --bin boa-streams -- examples/readable-for-await.js

// A pull source: produces the numbers 1..=8, one per pull(), then closes.
function numbers(limit) {
  let n = 0;
  return new ReadableStream({
    pull(controller) {
      n += 1;
      if (n > limit) {
        controller.close();
      } else {
        controller.enqueue(n);
      }
    },
  });
}

// A hand-made transform: a new stream whose pull() reads one chunk from `source`, maps it
// and enqueues the result. Cancelling the result cancels the source.
function map(source, fn) {
  const reader = source.getReader();
  return new ReadableStream({
    async pull(controller) {
      const { value, done } = await reader.read();
      if (done) {
        controller.close();
      } else {
        controller.enqueue(fn(value));
      }
    },
    cancel(reason) {
      return reader.cancel(reason);
    },
  });
}

// A filter built the same way: keep pulling until a chunk passes.
function filter(source, keep) {
  const reader = source.getReader();
  return new ReadableStream({
    async pull(controller) {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) {
          controller.close();
          return;
        }
        if (keep(value)) {
          controller.enqueue(value);
          return;
        }
      }
    },
    cancel(reason) {
      return reader.cancel(reason);
    },
  });
}

(async () => {
  const squares = map(numbers(8), (x) => x * x);
  const evenSquares = filter(squares, (x) => x % 2 === 0);

  let total = 0;
  for await (const chunk of evenSquares) {
    console.log("chunk:", chunk);
    total += chunk;
  }
  console.log("sum of even squares up to 8*8:", total); // 4 + 16 + 36 + 64 = 120

  // Breaking out of the loop cancels the stream (and, through cancel(), its source).
  const endless = new ReadableStream({
    pull(controller) {
      controller.enqueue("tick");
    },
    cancel(reason) {
      console.log("endless source cancelled:", reason === undefined ? "(no reason)" : reason);
    },
  });
  let seen = 0;
  for await (const tick of endless) {
    seen += 1;
    if (seen === 3) break;
  }
  console.log("read", seen, "ticks; locked after break:", endless.locked);

  // ReadableStream.from() adapts any (async) iterable.
  async function* letters() {
    yield "a";
    yield "b";
    yield "c";
  }
  const upper = [];
  for await (const letter of map(ReadableStream.from(letters()), (s) => s.toUpperCase())) {
    upper.push(letter);
  }
  console.log("from(async generator):", upper.join(""));
})();
