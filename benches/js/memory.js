// Memory per live stream: n streams kept alive in an array, after a full collection, minus
// an array of n integers (bytes per object from the host's allocator, or from Node's heap).
memoryScenario({ name: "ReadableStream", n: 10000, make: () => new ReadableStream() });
memoryScenario({ name: "ReadableStream + reader", n: 10000, make: () => { const rs = new ReadableStream(); rs.getReader(); return rs; } });
memoryScenario({ name: "WritableStream", n: 10000, make: () => new WritableStream() });
memoryScenario({ name: "TransformStream", n: 10000, make: () => new TransformStream() });
