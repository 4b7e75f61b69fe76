// ReadableStream.from(), read with a reader. Floor: the awaited read plus the iterator step.
const N = 20000;
async function readAll(rs) {
  const reader = rs.getReader();
  let sum = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return sum;
    sum += value;
  }
}
const tri = (n) => (n * (n - 1)) / 2;
scenario({ group: "from", name: "from(array)", n: N, floor: { awaitResult: 1, arrayNext: 1 },
  check: (n, v) => v === tri(n),
  run: (n) => readAll(ReadableStream.from(Array.from({ length: n }, (_, i) => i))) });
scenario({ group: "from", name: "from(sync generator)", n: N, floor: { awaitResult: 1, genNext: 1 },
  check: (n, v) => v === tri(n),
  run: (n) => readAll(ReadableStream.from((function* () { for (let i = 0; i < n; i++) yield i; })())) });
scenario({ group: "from", name: "from(async generator)", n: N, floor: { awaitResult: 1, asyncGenNext: 1 },
  check: (n, v) => v === tri(n),
  run: (n) => readAll(ReadableStream.from((async function* () { for (let i = 0; i < n; i++) yield i; })())) });
