// Creation of streams, against `new` of a small JS class (floor: one object creation).
const N = 20000;
function loop(make) {
  return async (n) => {
    let count = 0;
    for (let i = 0; i < n; i++) if (make()) count++;
    return count;
  };
}
scenario({ group: "creation", name: "new ReadableStream()", n: N, floor: { object: 1 },
  run: loop(() => new ReadableStream()) });
scenario({ group: "creation", name: "new ReadableStream({ pull }).getReader()", n: N, floor: { object: 1 },
  run: loop(() => new ReadableStream({ pull() {} }).getReader()) });
scenario({ group: "creation", name: "new ReadableStream({ type: 'bytes' })", n: N, floor: { object: 1 },
  run: loop(() => new ReadableStream({ type: "bytes" })) });
scenario({ group: "creation", name: "new WritableStream()", n: N, floor: { object: 1 },
  run: loop(() => new WritableStream()) });
scenario({ group: "creation", name: "new TransformStream()", n: N, floor: { object: 1 },
  run: loop(() => new TransformStream()) });
scenario({ group: "creation", name: "new ReadableStream().tee()", n: N, floor: { object: 1 },
  run: loop(() => new ReadableStream().tee()) });
