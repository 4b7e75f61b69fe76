//! [Transferable streams](https://streams.spec.whatwg.org/#transferrable-streams): the
//! transfer and transfer-receiving steps of `ReadableStream`, `WritableStream` and
//! `TransformStream`, and the cross-realm transforms over an entangled port pair.
//!
//! The cross-realm readable is a native source ([`NativeSource`]) and the cross-realm
//! writable a native sink ([`NativeSink`]); their message handlers are internal listeners on
//! the (never exposed) ports.

use boa_engine::{
    js_string, object::JsObject, property::PropertyKey, Context, JsResult, JsValue, NativeFunction,
};
use boa_gc::{Finalize, Gc, GcRefCell, Trace};

use crate::message::{self, create_entangled_ports, message_port_post_message, message_port_start};
use crate::records::{PlatformHolder, PortHandle};
use crate::structured_clone::data_clone_error;
use crate::transfer::TransferSteps;
use boa_streams::spec::SizeAlgorithm;
use boa_streams::spec::TransformStream;
use boa_streams::spec::{
    create_readable_stream, is_readable_stream_locked, readable_stream_default_controller_close,
    readable_stream_default_controller_enqueue, readable_stream_default_controller_error,
    readable_stream_pipe_to, NativeSource, NativeSourceBox, ReadableStream,
    ReadableStreamDefaultController, SourceAlgorithms, StartAlgorithm, StreamController,
};
use boa_streams::spec::{
    create_writable_stream, is_writable_stream_locked,
    writable_stream_default_controller_error_if_needed, WritableStream, WritableStreamRef,
};
use boa_streams::spec::{NativeSink, SinkAlgorithms};
use boa_webidl::promise::{react, Completion, RustPromise};
use boa_webidl::{self as webidl, Caught};

/// The transfer steps of `object`'s interface, if it is a stream.
pub(crate) fn transfer_steps_of(object: &JsObject) -> Option<TransferSteps> {
    let steps: TransferSteps = if object.is::<ReadableStream>() {
        readable_stream_transfer_steps
    } else if WritableStream::slots_of(&object.clone().into()).is_some() {
        writable_stream_transfer_steps
    } else if object.is::<TransformStream>() {
        transform_stream_transfer_steps
    } else {
        return None;
    };
    Some(steps)
}

/// The transfer steps of a `ReadableStream`.
fn readable_stream_transfer_steps(value: &JsObject, ctx: &mut Context) -> JsResult<PlatformHolder> {
    let Ok(readable) = value.clone().downcast::<ReadableStream>() else {
        return Err(data_clone_error("Value is not transferable", ctx));
    };
    Ok(PlatformHolder::ReadableStream(readable_transfer_steps(
        &readable, ctx,
    )?))
}

/// The transfer steps of a `WritableStream`.
fn writable_stream_transfer_steps(value: &JsObject, ctx: &mut Context) -> JsResult<PlatformHolder> {
    let Some(writable) = WritableStream::slots_of(&value.clone().into()) else {
        return Err(data_clone_error("Value is not transferable", ctx));
    };
    Ok(PlatformHolder::WritableStream(writable_transfer_steps(
        &writable, ctx,
    )?))
}

/// [ReadableStream transfer steps](https://streams.spec.whatwg.org/#rs-transfer)
fn readable_transfer_steps(
    value: &JsObject<ReadableStream>,
    ctx: &mut Context,
) -> JsResult<PortHandle> {
    // 1. If ! IsReadableStreamLocked(value) is true, throw a "DataCloneError" DOMException.
    if is_readable_stream_locked(value) {
        return Err(data_clone_error(
            "A locked ReadableStream could not be transferred",
            ctx,
        ));
    }
    // 2-4. Let port1 and port2 be new MessagePorts; entangle them.
    let (port1, port2) = create_entangled_ports(ctx)?;
    // 5-6. Let writable be a new WritableStream; SetUpCrossRealmTransformWritable(writable,
    //      port1).
    let (_, writable) = set_up_cross_realm_transform_writable(&port1, ctx)?;
    // 7. Let promise be ! ReadableStreamPipeTo(value, writable, false, false, false).
    let promise = readable_stream_pipe_to(value, &writable, false, false, false, None, ctx)?;
    // 8. Set promise.[[PromiseIsHandled]] to true.
    boa_webidl::promise::mark_as_handled(&promise, ctx);
    // 9. Set dataHolder.[[port]] to ! StructuredSerializeWithTransfer(port2, « port2 »).
    message::ship_port(&port2, ctx)
}

/// [WritableStream transfer steps](https://streams.spec.whatwg.org/#ws-transfer)
fn writable_transfer_steps(value: &WritableStreamRef, ctx: &mut Context) -> JsResult<PortHandle> {
    // 1. If ! IsWritableStreamLocked(value) is true, throw a "DataCloneError" DOMException.
    if is_writable_stream_locked(value) {
        return Err(data_clone_error(
            "A locked WritableStream could not be transferred",
            ctx,
        ));
    }
    // 2-4. Let port1 and port2 be new MessagePorts; entangle them.
    let (port1, port2) = create_entangled_ports(ctx)?;
    // 5-6. Let readable be a new ReadableStream; SetUpCrossRealmTransformReadable(readable,
    //      port1).
    let readable = set_up_cross_realm_transform_readable(&port1, ctx)?;
    // 7. Let promise be ! ReadableStreamPipeTo(readable, value, false, false, false).
    let promise = readable_stream_pipe_to(&readable, value, false, false, false, None, ctx)?;
    // 8. Set promise.[[PromiseIsHandled]] to true.
    boa_webidl::promise::mark_as_handled(&promise, ctx);
    // 9. Set dataHolder.[[port]] to ! StructuredSerializeWithTransfer(port2, « port2 »).
    message::ship_port(&port2, ctx)
}

/// [TransformStream transfer steps](https://streams.spec.whatwg.org/#ts-transfer)
fn transform_stream_transfer_steps(
    value: &JsObject,
    ctx: &mut Context,
) -> JsResult<PlatformHolder> {
    let Ok(t) = value.clone().downcast::<TransformStream>() else {
        return Err(data_clone_error("Value is not transferable", ctx));
    };
    // 1-2. Let readable be value.[[readable]], writable be value.[[writable]].
    let (readable, writable) = {
        let data = t.borrow();
        (data.data().readable(), data.data().writable_slots())
    };
    let (Some(readable), Some(writable)) = (readable, writable) else {
        return Err(data_clone_error(
            "The TransformStream could not be transferred",
            ctx,
        ));
    };
    // 3. If ! IsReadableStreamLocked(readable) is true, throw.
    if is_readable_stream_locked(&readable) {
        return Err(data_clone_error(
            "A TransformStream with a locked readable side could not be transferred",
            ctx,
        ));
    }
    // 4. If ! IsWritableStreamLocked(writable) is true, throw.
    if is_writable_stream_locked(&writable) {
        return Err(data_clone_error(
            "A TransformStream with a locked writable side could not be transferred",
            ctx,
        ));
    }
    // 5. Set dataHolder.[[readable]] to ! StructuredSerializeWithTransfer(readable,
    //    « readable »).
    let readable = readable_transfer_steps(&readable, ctx)?;
    // 6. Set dataHolder.[[writable]] to ! StructuredSerializeWithTransfer(writable,
    //    « writable »).
    let writable = writable_transfer_steps(&writable, ctx)?;
    Ok(PlatformHolder::TransformStream { readable, writable })
}

/// The transfer-receiving steps of a stream interface.
pub(crate) fn transfer_receiving_steps(
    holder: PlatformHolder,
    ctx: &mut Context,
) -> JsResult<JsObject> {
    match holder {
        PlatformHolder::ReadableStream(port) => {
            // 1-2. Let port be the deserialized port.
            let port = message::receive_port(port, ctx)?;
            // 3. Perform ! SetUpCrossRealmTransformReadable(value, port).
            Ok(set_up_cross_realm_transform_readable(&port, ctx)?.upcast())
        }
        PlatformHolder::WritableStream(port) => {
            let port = message::receive_port(port, ctx)?;
            Ok(set_up_cross_realm_transform_writable(&port, ctx)?.0)
        }
        PlatformHolder::TransformStream { readable, writable } => {
            // 1-4. Deserialize the readable and the writable; set [[readable]], [[writable]].
            let readable_port = message::receive_port(readable, ctx)?;
            let readable = set_up_cross_realm_transform_readable(&readable_port, ctx)?;
            let writable_port = message::receive_port(writable, ctx)?;
            let writable = set_up_cross_realm_transform_writable(&writable_port, ctx)?;
            // 5. [[backpressure]], [[backpressureChangePromise]], [[controller]] undefined.
            boa_streams::spec::transferred_transform_stream(readable, writable, ctx)
        }
        PlatformHolder::MessagePort(_) => Err(data_clone_error("Unexpected holder", ctx)),
    }
}

// ---------------------------------------------------------------------------------------
// Cross-realm transforms
// ---------------------------------------------------------------------------------------

/// [PackAndPostMessage](https://streams.spec.whatwg.org/#abstract-opdef-packandpostmessage)
fn pack_and_post_message(
    port: &JsObject,
    message_type: &str,
    value: JsValue,
    ctx: &mut Context,
) -> JsResult<()> {
    // 1. Let message be OrdinaryObjectCreate(null).
    let message = JsObject::with_null_proto();
    // 2. Perform ! CreateDataProperty(message, "type", type).
    message.create_data_property_or_throw(js_string!("type"), js_string!(message_type), ctx)?;
    // 3. Perform ! CreateDataProperty(message, "value", value).
    message.create_data_property_or_throw(js_string!("value"), value, ctx)?;
    // 4-6. Run the message port post message steps providing targetPort, message and
    //      options «[ "transfer" → « » ]».
    message_port_post_message(port, &message.into(), &[], ctx)
}

/// [PackAndPostMessageHandlingError](https://streams.spec.whatwg.org/#abstract-opdef-packandpostmessagehandlingerror):
/// serialization runs user code (getters of the chunk), so it runs inside
/// [`webidl::catching`].
fn pack_and_post_message_handling_error(
    port: &JsObject,
    message_type: &str,
    value: JsValue,
    ctx: &mut Context,
) -> Result<(), Caught> {
    // 1. Let result be PackAndPostMessage(port, type, value).
    let result = webidl::catching(ctx, |ctx| {
        pack_and_post_message(port, message_type, value, ctx)
    });
    // 2. If result is an abrupt completion, perform ! CrossRealmTransformSendError(port,
    //    result.[[Value]]).
    if let Err(e) = &result {
        cross_realm_transform_send_error(port, e.value().clone(), ctx);
    }
    // 3. Return result as a completion record.
    result
}

/// [CrossRealmTransformSendError](https://streams.spec.whatwg.org/#abstract-opdef-crossrealmtransformsenderror)
fn cross_realm_transform_send_error(port: &JsObject, error: JsValue, ctx: &mut Context) {
    // 1. Perform PackAndPostMessage(port, "error", error), discarding the result.
    let _discarded = webidl::catching(ctx, |ctx| pack_and_post_message(port, "error", error, ctx));
}

/// "Disentangle port" (the port is internal: closing it is the same).
fn disentangle_port(port: &JsObject, ctx: &mut Context) {
    message::message_port_close(port, ctx);
}

/// The message's `type` and `value` (own data properties of the deserialized object; no
/// script runs). `None` when the data is not such an object (an untrusted peer).
fn message_fields(data: &JsValue) -> Option<(String, JsValue)> {
    let object = data.as_object()?;
    let props = object.borrow();
    let get = |name: &str| -> Option<JsValue> {
        let key: PropertyKey = js_string!(name).into();
        props.properties().get(&key)?.value().cloned()
    };
    let message_type = get("type")?.as_string()?.to_std_string_escaped();
    let value = get("value").unwrap_or_default();
    Some((message_type, value))
}

/// The `data` of a `MessageEvent` passed to an internal handler.
fn event_data(args: &[JsValue], ctx: &mut Context) -> JsValue {
    let event = webidl::arg(args, 0);
    let Some(object) = event.as_object() else {
        return JsValue::undefined();
    };
    // The MessageEvent's `data` getter is native and runs no script.
    object.get(js_string!("data"), ctx).unwrap_or_default()
}

/// The cross-realm readable's source.
#[derive(Trace, Finalize)]
struct CrossRealmSource {
    port: JsObject,
}

impl NativeSource for CrossRealmSource {
    fn pull(&self, _controller: &StreamController, ctx: &mut Context) -> Completion {
        // 1. Perform ! PackAndPostMessage(port, "pull", undefined).
        let _ = pack_and_post_message(&self.port, "pull", JsValue::undefined(), ctx);
        // 2. Return a promise resolved with undefined.
        Completion::undefined()
    }

    fn cancel(&self, reason: JsValue, ctx: &mut Context) -> Completion {
        // 1. Let result be PackAndPostMessageHandlingError(port, "error", reason).
        let result = pack_and_post_message_handling_error(&self.port, "error", reason, ctx);
        // 2. Disentangle port.
        disentangle_port(&self.port, ctx);
        match result {
            // 3. If result is an abrupt completion, return a promise rejected with it.
            Err(e) => Completion::Rejected(e.into_value()),
            // 4. Otherwise, return a promise resolved with undefined.
            Ok(()) => Completion::undefined(),
        }
    }
}

/// [SetUpCrossRealmTransformReadable](https://streams.spec.whatwg.org/#abstract-opdef-setupcrossrealmtransformreadable)
pub(crate) fn set_up_cross_realm_transform_readable(
    port: &JsObject,
    ctx: &mut Context,
) -> JsResult<JsObject<ReadableStream>> {
    // 1-2, 6-10. InitializeReadableStream; a new controller; startAlgorithm returns
    //    undefined; pull/cancel below; high water mark 0, size 1.
    let stream = create_readable_stream(
        StartAlgorithm::ReturnUndefined,
        SourceAlgorithms::Native(Gc::new(NativeSourceBox(Box::new(CrossRealmSource {
            port: port.clone(),
        })))),
        Some(0.0),
        Some(SizeAlgorithm::ReturnOne),
        ctx,
    )?;
    let controller = stream
        .borrow()
        .data()
        .controller()
        .and_then(|c| c.into_default())
        .ok_or_else(|| webidl::type_error("the cross-realm readable has no controller"))?;
    // 3. Add a handler for port's message event.
    let on_message = NativeFunction::from_copy_closure_with_captures(
        |_,
         args,
         (controller, port): &(JsObject<ReadableStreamDefaultController>, JsObject),
         ctx| {
            // 3.1-5. Let data be the data of the message; type and value.
            let data = event_data(args, ctx);
            let Some((message_type, value)) = message_fields(&data) else {
                return Ok(JsValue::undefined());
            };
            match message_type.as_str() {
                // 3.6. chunk: ! ReadableStreamDefaultControllerEnqueue(controller, value).
                "chunk" => {
                    let _ = readable_stream_default_controller_enqueue(controller, value, ctx);
                }
                // 3.7. close: ! ReadableStreamDefaultControllerClose(controller); disentangle.
                "close" => {
                    readable_stream_default_controller_close(controller, ctx);
                    disentangle_port(port, ctx);
                }
                // 3.8. error: ! ReadableStreamDefaultControllerError(controller, value);
                //      disentangle.
                "error" => {
                    readable_stream_default_controller_error(controller, value, ctx);
                    disentangle_port(port, ctx);
                }
                _ => {}
            }
            Ok(JsValue::undefined())
        },
        (controller.clone(), port.clone()),
    )
    .to_js_function(ctx.realm());
    message::add_internal_listener(port, "message", on_message.into(), ctx)?;
    // 4. Add a handler for port's messageerror event.
    let on_error = NativeFunction::from_copy_closure_with_captures(
        |_, _, (controller, port): &(JsObject<ReadableStreamDefaultController>, JsObject), ctx| {
            // 4.1. Let error be a new "DataCloneError" DOMException.
            let error = boa_dom::create_dom_exception(
                "A chunk could not be deserialized",
                "DataCloneError",
                ctx,
            )?;
            // 4.2. Perform ! CrossRealmTransformSendError(port, error).
            cross_realm_transform_send_error(port, error.clone(), ctx);
            // 4.3. Perform ! ReadableStreamDefaultControllerError(controller, error).
            readable_stream_default_controller_error(controller, error, ctx);
            // 4.4. Disentangle port.
            disentangle_port(port, ctx);
            Ok(JsValue::undefined())
        },
        (controller, port.clone()),
    )
    .to_js_function(ctx.realm());
    message::add_internal_listener(port, "messageerror", on_error.into(), ctx)?;
    // 5. Enable port's port message queue.
    message_port_start(port, ctx);
    Ok(stream)
}

/// `backpressurePromise` of a cross-realm writable (`None` = undefined).
type BackpressureCell = Gc<GcRefCell<Option<Gc<RustPromise>>>>;

/// The cross-realm writable's sink.
#[derive(Trace, Finalize)]
struct CrossRealmSink {
    port: JsObject,
    backpressure: BackpressureCell,
}

impl NativeSink for CrossRealmSink {
    fn write(&self, chunk: JsValue, _controller: &JsObject, ctx: &mut Context) -> Completion {
        // 1. If backpressurePromise is undefined, set backpressurePromise to a promise
        //    resolved with undefined.
        let promise = {
            let mut cell = self.backpressure.borrow_mut();
            match &*cell {
                Some(p) => p.clone(),
                None => {
                    let p = RustPromise::new();
                    p.resolve_undefined(ctx);
                    *cell = Some(p.clone());
                    p
                }
            }
        };
        // 2. Return the result of reacting to backpressurePromise with these fulfillment
        //    steps:
        react(
            Completion::Rust(promise),
            (self.port.clone(), self.backpressure.clone(), chunk),
            |(port, backpressure, chunk), settlement, ctx| {
                if let Err(e) = settlement {
                    return Completion::Rejected(e);
                }
                // 2.1. Set backpressurePromise to a new promise.
                *backpressure.borrow_mut() = Some(RustPromise::new());
                // 2.2. Let result be PackAndPostMessageHandlingError(port, "chunk", chunk).
                match pack_and_post_message_handling_error(port, "chunk", chunk.clone(), ctx) {
                    // 2.3. If result is an abrupt completion: disentangle port; return a
                    //      promise rejected with result.[[Value]].
                    Err(e) => {
                        disentangle_port(port, ctx);
                        Completion::Rejected(e.into_value())
                    }
                    // 2.4. Otherwise, return a promise resolved with undefined.
                    Ok(()) => Completion::undefined(),
                }
            },
            ctx,
        )
    }

    fn close(&self, ctx: &mut Context) -> Completion {
        // 1. Perform ! PackAndPostMessage(port, "close", undefined).
        let _ = pack_and_post_message(&self.port, "close", JsValue::undefined(), ctx);
        // 2. Disentangle port.
        disentangle_port(&self.port, ctx);
        // 3. Return a promise resolved with undefined.
        Completion::undefined()
    }

    fn abort(&self, reason: JsValue, ctx: &mut Context) -> Completion {
        // 1. Let result be PackAndPostMessageHandlingError(port, "error", reason).
        let result = pack_and_post_message_handling_error(&self.port, "error", reason, ctx);
        // 2. Disentangle port.
        disentangle_port(&self.port, ctx);
        match result {
            Err(e) => Completion::Rejected(e.into_value()),
            Ok(()) => Completion::undefined(),
        }
    }
}

/// Resolve `backpressurePromise` with undefined and set it to undefined.
fn release_backpressure(cell: &BackpressureCell, ctx: &mut Context) {
    let promise = cell.borrow_mut().take();
    if let Some(p) = promise {
        p.resolve_undefined(ctx);
    }
}

/// [SetUpCrossRealmTransformWritable](https://streams.spec.whatwg.org/#abstract-opdef-setupcrossrealmtransformwritable)
pub(crate) fn set_up_cross_realm_transform_writable(
    port: &JsObject,
    ctx: &mut Context,
) -> JsResult<(JsObject, WritableStreamRef)> {
    // 3. Let backpressurePromise be a new promise.
    let backpressure: BackpressureCell = Gc::new(GcRefCell::new(Some(RustPromise::new())));
    // 1-2, 6-12. InitializeWritableStream; a new controller; start returns undefined;
    //    write/close/abort below; high water mark 1, size 1.
    let (stream, slots) = create_writable_stream(
        SinkAlgorithms::native(CrossRealmSink {
            port: port.clone(),
            backpressure: backpressure.clone(),
        }),
        1.0,
        SizeAlgorithm::ReturnOne,
        ctx,
    )?;
    // 4. Add a handler for port's message event.
    let on_message = NativeFunction::from_copy_closure_with_captures(
        |_, args, (slots, backpressure): &(WritableStreamRef, BackpressureCell), ctx| {
            let data = event_data(args, ctx);
            let Some((message_type, value)) = message_fields(&data) else {
                return Ok(JsValue::undefined());
            };
            match message_type.as_str() {
                // 4.6. pull: resolve backpressurePromise; set it to undefined.
                "pull" => release_backpressure(backpressure, ctx),
                // 4.7. error: ! WritableStreamDefaultControllerErrorIfNeeded(controller,
                //      value); resolve backpressurePromise; set it to undefined.
                "error" => {
                    writable_stream_default_controller_error_if_needed(slots, value, ctx);
                    release_backpressure(backpressure, ctx);
                }
                _ => {}
            }
            Ok(JsValue::undefined())
        },
        (slots.clone(), backpressure),
    )
    .to_js_function(ctx.realm());
    message::add_internal_listener(port, "message", on_message.into(), ctx)?;
    // 5. Add a handler for port's messageerror event.
    let on_error = NativeFunction::from_copy_closure_with_captures(
        |_, _, (slots, port): &(WritableStreamRef, JsObject), ctx| {
            let error = boa_dom::create_dom_exception(
                "A message could not be deserialized",
                "DataCloneError",
                ctx,
            )?;
            cross_realm_transform_send_error(port, error.clone(), ctx);
            writable_stream_default_controller_error_if_needed(slots, error, ctx);
            disentangle_port(port, ctx);
            Ok(JsValue::undefined())
        },
        (slots.clone(), port.clone()),
    )
    .to_js_function(ctx.realm());
    message::add_internal_listener(port, "messageerror", on_error.into(), ctx)?;
    // 6. Enable port's port message queue.
    message_port_start(port, ctx);
    Ok((stream, slots))
}

#[cfg(test)]
mod tests;
