// WritableStream constructor: underlying sink members read in order (traced, no methods
// called); type must be undefined; strategy read order.
attempt('ctor', () => new WritableStream(traced('sink', {}), traced('strategy', { highWaterMark: 2 })));
attempt('type', () => new WritableStream(traced('sink2', { type: 'bytes' })));
attempt('type undefined', () => new WritableStream({ type: undefined }));
attempt('null sink', () => new WritableStream(null));
attempt('write not callable', () => new WritableStream({ write: {} }));
