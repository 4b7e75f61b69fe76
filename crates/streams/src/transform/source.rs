//! The readable side: [default source](https://streams.spec.whatwg.org/#ts-default-source-abstract-ops)
//! abstract operations.

use super::*;

/// [TransformStreamDefaultSourceCancelAlgorithm](https://streams.spec.whatwg.org/#transform-stream-default-source-cancel)
pub fn transform_stream_default_source_cancel_algorithm(
    stream: &JsObject<TransformStream>,
    reason: JsValue,
    ctx: &mut Context,
) -> Completion {
    // 1. Let controller be stream.[[controller]]. (Its slots live in the stream.)
    if !has_controller(stream) {
        return Completion::undefined();
    }
    // 2. If controller.[[finishPromise]] is not undefined, return controller.[[finishPromise]].
    // 3. Let writable be stream.[[writable]].
    // 4. Let controller.[[finishPromise]] be a new promise.
    let finish = match existing_finish_promise(stream) {
        Ok(p) => return Completion::Rust(p),
        Err(p) => p,
    };
    // 5. Let cancelPromise be the result of performing controller.[[cancelAlgorithm]], passing
    //    reason.
    let cancel_promise = perform_cancel_algorithm(stream, reason.clone(), ctx);
    // 6. Perform ! TransformStreamDefaultControllerClearAlgorithms(controller).
    transform_stream_default_controller_clear_algorithms(stream);
    // 7. React to cancelPromise:
    cancel_promise.upon(
        (stream.clone(), finish.clone(), reason),
        |(stream, finish, reason), settlement, ctx| {
            let writable = writable_of(stream);
            match settlement {
                //   1. If cancelPromise was fulfilled, then:
                Ok(_) => {
                    //   1. If writable.[[state]] is "errored", reject
                    //      controller.[[finishPromise]] with writable.[[storedError]].
                    if let Some(w) = writable
                        .as_ref()
                        .filter(|w| w.state() == WritableStreamState::Errored)
                    {
                        finish.settle(Err(w.stored_error()), ctx);
                    } else {
                        //   2. Otherwise:
                        //     1. Perform ! WritableStreamDefaultControllerErrorIfNeeded(
                        //        writable.[[controller]], reason).
                        if let Some(w) = &writable {
                            writable_stream_default_controller_error_if_needed(
                                w,
                                reason.clone(),
                                ctx,
                            );
                        }
                        //     2. Perform ! TransformStreamUnblockWrite(stream).
                        transform_stream_unblock_write(stream, ctx);
                        //     3. Resolve controller.[[finishPromise]] with undefined.
                        finish.resolve_undefined(ctx);
                    }
                }
                //   2. If cancelPromise was rejected with reason r, then:
                Err(r) => {
                    //   1. Perform ! WritableStreamDefaultControllerErrorIfNeeded(
                    //      writable.[[controller]], r).
                    if let Some(w) = &writable {
                        writable_stream_default_controller_error_if_needed(w, r.clone(), ctx);
                    }
                    //   2. Perform ! TransformStreamUnblockWrite(stream).
                    transform_stream_unblock_write(stream, ctx);
                    //   3. Reject controller.[[finishPromise]] with r.
                    finish.settle(Err(r), ctx);
                }
            }
        },
        ctx,
    );
    // 8. Return controller.[[finishPromise]].
    Completion::Rust(finish)
}

/// [TransformStreamDefaultSourcePullAlgorithm](https://streams.spec.whatwg.org/#transform-stream-default-source-pull)
pub fn transform_stream_default_source_pull_algorithm(
    stream: &JsObject<TransformStream>,
    ctx: &mut Context,
) -> Completion {
    // 1. Assert: stream.[[backpressure]] is true.
    debug_assert_eq!(ts(stream, TransformStream::backpressure), Some(true));
    // 2. Assert: stream.[[backpressureChangePromise]] is not undefined. (Made on demand by
    //    `backpressure_change_promise` with fast paths on.)
    // 3. Perform ! TransformStreamSetBackpressure(stream, false).
    transform_stream_set_backpressure(stream, false, ctx);
    // 4. Return stream.[[backpressureChangePromise]].
    Completion::Rust(backpressure_change_promise(stream))
}
