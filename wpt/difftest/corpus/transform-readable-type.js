// TransformStream: transformer with readableType/writableType undefined is fine; the
// transformer's methods are read in order (traced, none called).
attempt('ok', () => new TransformStream(traced('t', { readableType: undefined, writableType: undefined })));
attempt('transform not callable', () => new TransformStream({ transform: 1 }));
attempt('flush not callable', () => new TransformStream({ flush: 'x' }));
attempt('cancel not callable', () => new TransformStream({ cancel: {} }));
