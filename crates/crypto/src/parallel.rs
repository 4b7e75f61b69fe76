//! Running an operation's "in parallel" steps and settling its promise: light steps on the
//! event-loop thread, heavy ones on a worker thread (settled through `boa_streams::native`'s
//! future driver), and the JavaScript values of their outputs.

use boa_engine::{
    job::GenericJob, object::builtins::AlignedVec, Context, JsObject, JsResult, JsString, JsValue,
};
use boa_webidl::{self as webidl, promise::PromiseCapability};

use crate::algorithm::Normalized;
use crate::failure::{failure_value, Failure, Outcome};
use crate::key::CryptoKey;
use crate::records::KeyParts;

/// What an operation's "in parallel" steps produce.
pub(crate) enum Output {
    Bytes(Vec<u8>),
    Bool(bool),
    Key(KeyParts),
    KeyPair { public: KeyParts, private: KeyParts },
    Jwk(serde_json::Map<String, serde_json::Value>),
}

pub(crate) fn output_value(output: Output, ctx: &mut Context) -> JsResult<JsValue> {
    Ok(match output {
        Output::Bytes(bytes) => {
            let buffer =
                webidl::gc_pressure::new_array_buffer(AlignedVec::from_slice(64, &bytes), ctx)?;
            buffer.into()
        }
        Output::Bool(b) => b.into(),
        Output::Key(parts) => CryptoKey::create(parts, ctx)?.into(),
        Output::KeyPair { public, private } => {
            // A CryptoKeyPair dictionary: its members in lexicographic order.
            let private = CryptoKey::create(private, ctx)?;
            let public = CryptoKey::create(public, ctx)?;
            let pair = JsObject::with_object_proto(ctx.intrinsics());
            pair.create_data_property_or_throw(JsString::from("privateKey"), private, ctx)?;
            pair.create_data_property_or_throw(JsString::from("publicKey"), public, ctx)?;
            pair.into()
        }
        Output::Jwk(map) => JsValue::from_json(&serde_json::Value::Object(map), ctx)?,
    })
}

/// Inputs of at least this many bytes make an operation [`Work::Heavy`].
pub(crate) const HEAVY_BYTES: usize = 1 << 20;
/// The most operations running on worker threads at once (one more runs on the event-loop
/// thread instead).
pub(crate) const MAX_WORKERS: usize = 4;

/// The operations running on worker threads now (all contexts of the process).
static WORKERS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);

/// Where an operation's "in parallel" steps run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Work {
    /// On the event-loop thread, at once (microseconds of work).
    Light,
    /// On a worker thread (RSA key generation, a digest or cipher of megabytes, PBKDF2 with
    /// many iterations), when fewer than [`MAX_WORKERS`] are busy.
    Heavy,
}

impl Work {
    /// Heavy when `bytes` is at least [`HEAVY_BYTES`].
    pub(crate) fn of_len(bytes: usize) -> Self {
        if bytes >= HEAVY_BYTES {
            Self::Heavy
        } else {
            Self::Light
        }
    }

    pub(crate) fn max(self, other: Self) -> Self {
        if self == Self::Heavy || other == Self::Heavy {
            Self::Heavy
        } else {
            Self::Light
        }
    }

    /// The weight of an algorithm's own parameters (PBKDF2 iterations, RSA generation).
    pub(crate) fn of_algorithm(alg: &Normalized) -> Self {
        if alg.algorithm.heavy(alg) {
            Self::Heavy
        } else {
            Self::Light
        }
    }
}

/// Marks one busy worker; frees it when dropped (also if the steps panic).
pub(crate) struct WorkerSlot;

impl WorkerSlot {
    pub(crate) fn acquire() -> Option<Self> {
        use std::sync::atomic::Ordering;
        WORKERS
            .fetch_update(Ordering::SeqCst, Ordering::SeqCst, |n| {
                (n < MAX_WORKERS).then_some(n + 1)
            })
            .ok()
            .map(|_| Self)
    }
}

impl Drop for WorkerSlot {
    fn drop(&mut self) {
        WORKERS.fetch_sub(1, std::sync::atomic::Ordering::SeqCst);
    }
}

/// Settle `promise` with the outcome of an operation's steps.
pub(crate) fn settle(promise: &PromiseCapability, result: Outcome<Output>, ctx: &mut Context) {
    match result.map_err(|f| failure_value(&f, ctx)) {
        Ok(output) => match output_value(output, ctx) {
            Ok(v) => promise.resolve(v, ctx),
            Err(e) => {
                let e = webidl::own_error_value(e, ctx);
                promise.reject(e, ctx);
            }
        },
        Err(reason) => promise.reject(reason, ctx),
    }
}

/// A new promise, settled by a task with the result of `steps` (the operation's "in
/// parallel" steps, which touch no JavaScript value: they own copies of the inputs and the
/// Rust key material).
///
/// [`Work::Light`] steps run now, on the event-loop thread, and a queued job settles the
/// promise (after the current script and its microtasks). [`Work::Heavy`] steps run on a
/// worker thread; when they finish, the event loop's native-future driver
/// (`boa_streams::native`, polled by the host's loop) settles the promise from a task.
// NOTE: which thread runs the steps is unobservable but for timing: the steps read no
// JavaScript state, and the spec runs them "in parallel" and then queues a task, so the
// order in which two operations' promises settle was never defined. When every worker is
// busy, heavy steps run on the event-loop thread as light ones do (a bound on the threads a
// script can start).
pub(crate) fn run_in_parallel(
    ctx: &mut Context,
    work: Work,
    steps: impl FnOnce() -> Outcome<Output> + Send + 'static,
) -> JsValue {
    let promise = PromiseCapability::new(ctx);
    let slot = (work == Work::Heavy).then(WorkerSlot::acquire).flatten();
    let Some(slot) = slot else {
        let result = steps();
        let settle_promise = promise.clone();
        let job = GenericJob::new(
            move |ctx| {
                settle(&settle_promise, result, ctx);
                Ok(JsValue::undefined())
            },
            ctx.realm().clone(),
        );
        ctx.enqueue_job(job.into());
        return promise.value();
    };
    let (sender, receiver) = futures::channel::oneshot::channel();
    let spawned = std::thread::Builder::new()
        .name("boa_crypto worker".into())
        .spawn(move || {
            let _slot = slot;
            // The receiver is gone only if the context was dropped: nothing to settle.
            let _ = sender.send(steps());
        });
    if let Err(e) = spawned {
        let failure = Failure::operation(format!("could not start a worker thread: {e}"));
        settle(&promise, Err(failure), ctx);
        return promise.value();
    }
    settle_from_worker(promise, receiver, ctx)
}

/// `promise`'s value, settled from a task when a worker thread sends its steps' outcome on
/// `receiver` (through `boa_streams::native`'s future driver).
pub(crate) fn settle_from_worker(
    promise: PromiseCapability,
    receiver: futures::channel::oneshot::Receiver<Outcome<Output>>,
    ctx: &mut Context,
) -> JsValue {
    let settle_promise = promise.clone();
    boa_streams::native::spawn_future(
        receiver,
        move |result, ctx| {
            let result =
                result.unwrap_or_else(|_| Err(Failure::operation("the worker thread stopped")));
            settle(&settle_promise, result, ctx);
        },
        ctx,
    );
    promise.value()
}
