// ReadableStreamDefaultController: constructors throw; methods called on wrong this throw;
// close on errored stream throws.
attempt('new controller', () => new ReadableStreamDefaultController());
attempt('new byte controller', () => new ReadableByteStreamController());
attempt('new byobRequest', () => new ReadableStreamBYOBRequest());
let ctrl;
new ReadableStream({ start(c) { ctrl = c; } });
attempt('enqueue wrong this', () => ReadableStreamDefaultController.prototype.enqueue.call({}, 1));
attempt('desiredSize wrong this', () => Object.getOwnPropertyDescriptor(ReadableStreamDefaultController.prototype, 'desiredSize').get.call({}));
ctrl.error('e');
attempt('close errored', () => ctrl.close());
attempt('enqueue errored', () => ctrl.enqueue(1));
attempt('error errored', () => ctrl.error('f'));
log('desiredSize', ctrl.desiredSize);
