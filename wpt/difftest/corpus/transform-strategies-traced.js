// TransformStream constructor: property read order of transformer and both strategies
// (traced), including readableType/writableType checks.
attempt('ctor', () => new TransformStream(
  traced('transformer', {}),
  traced('wstrategy', { highWaterMark: 2 }),
  traced('rstrategy', { highWaterMark: 3 }),
));
attempt('readableType', () => new TransformStream(traced('t2', { readableType: 'bytes' })));
attempt('writableType', () => new TransformStream(traced('t3', { writableType: 'bytes' })));
attempt('bad hwm', () => new TransformStream({}, { highWaterMark: -1 }));
