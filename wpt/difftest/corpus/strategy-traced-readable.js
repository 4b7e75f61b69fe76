// ReadableStream constructor: the order in which the strategy (traced) and underlying
// source (traced) are read, and when size() is called.
const rs = new ReadableStream(
  traced('src', { type: undefined }),
  traced('strategy', { highWaterMark: 2, size: cb('size', (chunk) => 1) }),
);
log('constructed');
