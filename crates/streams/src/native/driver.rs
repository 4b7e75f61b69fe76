//! The driver of native futures: the pending Rust futures of the async adapters (a
//! `futures::Stream` behind a `ReadableStream`, a `Sink` behind a `WritableStream`, ...) and
//! the steps a Rust consumer queues without a `&mut Context` at hand.
//!
//! Each context has one driver (kept in the context's data). A future the adapters own is
//! `'static` (it holds no context borrow), so it outlives any one call of the job executor:
//! it waits in the driver until its waker fires, from this thread or any other (tokio I/O),
//! and is polled again by [`poll_tasks`] with the context. The waker records which task is
//! ready and wakes the waker given to the last [`poll_tasks`] call: an event loop passes its
//! own waker (one that unparks its thread), so it sleeps, without spinning, until there is
//! something to do.
//!
//! NOTE: Boa's own `NativeAsyncJob`s borrow the context for the duration of one
//! `run_jobs` call, so a job still pending when that call returns is dropped; the driver is
//! independent of that call and of the job executor, so nothing is dropped when the event
//! loop returns: a later [`poll_tasks`] (or [`block_on`] / [`run_until_idle`]) resumes it.

use std::cell::{Cell, RefCell};
use std::collections::{HashMap, VecDeque};
use std::future::Future;
use std::rc::Rc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::task::{Context as TaskContext, Poll, Wake, Waker};
use std::thread::Thread;

use boa_engine::{Context, JsResult};

/// A native future with the steps to take, with the context, when it is ready.
pub(crate) trait Task {
    /// Poll the future; when it is ready, take the steps (they may run JS) and return `Ready`.
    fn poll(&mut self, cx: &mut TaskContext<'_>, ctx: &mut Context) -> Poll<()>;
}

/// One spawned task: the task (taken out while it is polled) and whether it was cancelled.
struct Slot {
    task: RefCell<Option<Box<dyn Task>>>,
    cancelled: Cell<bool>,
}

/// A handle to cancel a spawned task (dropping its future).
#[derive(Clone)]
pub(crate) struct TaskHandle {
    slot: Rc<Slot>,
    id: u64,
    driver: Rc<Driver>,
}

impl TaskHandle {
    /// Drop the task's future now (or, if it is being polled, when that poll returns); it is
    /// never polled again.
    pub(crate) fn cancel(&self) {
        self.slot.cancelled.set(true);
        // Taken out before it is dropped: its Drop may run any Rust code.
        let task = self.slot.task.borrow_mut().take();
        drop(task);
        // (A task being polled is dropped when its poll returns.)
        let slot = self.driver.tasks.borrow_mut().remove(&self.id);
        drop(slot);
    }
}

/// The ids woken since the last poll and the waker of whoever polls the driver.
#[derive(Default)]
struct ReadyState {
    ids: Vec<u64>,
    local: bool,
    notify: Option<Waker>,
}

/// The part of the driver other threads reach (through the task wakers).
#[derive(Default)]
struct Ready {
    state: Mutex<ReadyState>,
}

impl Ready {
    fn lock(&self) -> std::sync::MutexGuard<'_, ReadyState> {
        // A panic while holding the lock leaves consistent data (pushes and takes only).
        self.state
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    fn wake(&self, id: Option<u64>) {
        let notify = {
            let mut state = self.lock();
            match id {
                Some(id) => state.ids.push(id),
                None => state.local = true,
            }
            state.notify.clone()
        };
        if let Some(waker) = notify {
            waker.wake();
        }
    }
}

/// The waker of one task.
struct TaskWaker {
    id: u64,
    ready: Arc<Ready>,
}

impl Wake for TaskWaker {
    fn wake(self: Arc<Self>) {
        self.ready.wake(Some(self.id));
    }
    fn wake_by_ref(self: &Arc<Self>) {
        self.ready.wake(Some(self.id));
    }
}

/// Steps queued by a Rust handle that has no context (run by the next [`poll_tasks`]).
type LocalSteps = Box<dyn FnOnce(&mut Context)>;

/// The per-context driver.
pub(crate) struct Driver {
    tasks: RefCell<HashMap<u64, Rc<Slot>>>,
    next_id: Cell<u64>,
    local: RefCell<VecDeque<LocalSteps>>,
    ready: Arc<Ready>,
}

/// How the driver sits in the context's data.
struct DriverData(Rc<Driver>);

impl Driver {
    /// Queue `steps` to run with the context at the next [`poll_tasks`], and wake the poller.
    pub(crate) fn queue_local(&self, steps: impl FnOnce(&mut Context) + 'static) {
        self.local.borrow_mut().push_back(Box::new(steps));
        self.ready.wake(None);
    }

    fn pending(&self) -> usize {
        self.tasks.borrow().len() + self.local.borrow().len()
    }
}

/// The context's driver (created on first use).
pub(crate) fn driver(ctx: &mut Context) -> Rc<Driver> {
    if let Some(d) = ctx.get_data::<DriverData>() {
        return d.0.clone();
    }
    let driver = Rc::new(Driver {
        tasks: RefCell::default(),
        next_id: Cell::new(0),
        local: RefCell::default(),
        ready: Arc::default(),
    });
    ctx.insert_data(DriverData(driver.clone()));
    driver
}

/// Spawn `task` on the context's driver and poll it once now. Returns `None` if that first
/// poll completed it.
pub(crate) fn spawn(task: impl Task + 'static, ctx: &mut Context) -> Option<TaskHandle> {
    let driver = driver(ctx);
    let id = driver.next_id.get();
    driver.next_id.set(id.wrapping_add(1));
    let slot = Rc::new(Slot {
        task: RefCell::new(Some(Box::new(task))),
        cancelled: Cell::new(false),
    });
    driver.tasks.borrow_mut().insert(id, slot.clone());
    let handle = TaskHandle {
        slot,
        id,
        driver: driver.clone(),
    };
    if poll_slot(&driver, id, ctx) {
        None
    } else {
        Some(handle)
    }
}

/// Poll task `id` once; returns whether it is gone (completed or cancelled).
fn poll_slot(driver: &Rc<Driver>, id: u64, ctx: &mut Context) -> bool {
    let Some(slot) = driver.tasks.borrow().get(&id).cloned() else {
        return true;
    };
    let task = slot.task.borrow_mut().take();
    let Some(mut task) = task else {
        driver.tasks.borrow_mut().remove(&id);
        return true;
    };
    let waker = Waker::from(Arc::new(TaskWaker {
        id,
        ready: driver.ready.clone(),
    }));
    let mut cx = TaskContext::from_waker(&waker);
    let poll = task.poll(&mut cx, ctx);
    if poll.is_pending() && !slot.cancelled.get() {
        *slot.task.borrow_mut() = Some(task);
        return false;
    }
    driver.tasks.borrow_mut().remove(&id);
    drop(task);
    true
}

/// A future run by [`spawn_future`] and the steps that take its output.
struct FutureTask<F: Future, S> {
    future: std::pin::Pin<Box<F>>,
    then: Option<S>,
}

impl<F, S> Task for FutureTask<F, S>
where
    F: Future,
    S: FnOnce(F::Output, &mut Context),
{
    fn poll(&mut self, cx: &mut TaskContext<'_>, ctx: &mut Context) -> Poll<()> {
        match self.future.as_mut().poll(cx) {
            Poll::Pending => Poll::Pending,
            Poll::Ready(output) => {
                if let Some(then) = self.then.take() {
                    then(output, ctx);
                }
                Poll::Ready(())
            }
        }
    }
}

/// The handle of a future spawned with [`spawn_future`]: [`abort`](Self::abort) drops it.
/// Dropping the handle does not abort the future.
#[derive(Clone)]
pub struct SpawnedFuture {
    handle: Option<TaskHandle>,
}

impl std::fmt::Debug for SpawnedFuture {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SpawnedFuture")
            .field("finished", &self.is_finished())
            .finish()
    }
}

impl SpawnedFuture {
    /// Drop the future (and its steps) now, without running the steps; it is never polled
    /// again. Nothing happens if it already finished.
    pub fn abort(&self) {
        if let Some(handle) = &self.handle {
            handle.cancel();
        }
    }

    /// Whether the future finished (its steps ran) or was aborted.
    pub fn is_finished(&self) -> bool {
        self.handle
            .as_ref()
            .is_none_or(|h| h.slot.cancelled.get() || !h.driver.tasks.borrow().contains_key(&h.id))
    }
}

/// Run `future` on the context's driver (polled by [`poll_tasks`] on the context's thread,
/// woken from any thread, e.g. by a tokio runtime's I/O driver) and, once it is ready, run
/// `then` with its output and the context. It is polled once now. While it is pending it
/// counts in [`pending_tasks`], so an event loop keeps running. The embedder's way to await
/// Rust I/O and come back to the context, e.g. to settle a promise with the result.
///
/// ```
/// use std::cell::Cell;
/// use std::rc::Rc;
/// use boa_engine::Context;
/// use boa_streams::native::{pending_tasks, run_until_idle, spawn_future};
///
/// let mut context = Context::default();
/// boa_streams::register(&mut context).unwrap();
/// let (tx, rx) = futures::channel::oneshot::channel::<u32>();
/// let got = Rc::new(Cell::new(0));
/// let seen = got.clone();
/// let task = spawn_future(rx, move |value, _ctx| seen.set(value.unwrap_or(0)), &mut context);
/// assert_eq!(pending_tasks(&context), 1);
/// std::thread::spawn(move || tx.send(42)).join().unwrap().unwrap();
/// run_until_idle(&mut context).unwrap();
/// assert_eq!(got.get(), 42);
/// assert!(task.is_finished());
/// ```
pub fn spawn_future<F, S>(future: F, then: S, ctx: &mut Context) -> SpawnedFuture
where
    F: Future + 'static,
    S: FnOnce(F::Output, &mut Context) + 'static,
{
    let task = FutureTask {
        future: Box::pin(future),
        then: Some(then),
    };
    SpawnedFuture {
        handle: spawn(task, ctx),
    }
}

/// What one [`poll_tasks`] call did.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct TaskProgress {
    /// How many woken futures were polled and queued steps were run (they may have queued
    /// microtasks: run the jobs).
    pub ran: usize,
    /// How many native futures are still pending, plus queued steps not run yet: while it is
    /// non-zero, the event loop must not finish; it waits for `waker`.
    pub pending: usize,
}

/// Poll the context's native futures that were woken since the last call, and run the steps
/// queued by Rust handles (e.g. a [`ChunkStream`](super::ChunkStream) asking for the next
/// chunk); `waker` is woken (from any thread) when there is more to do. An event loop calls
/// this once per turn, runs the microtasks if `ran > 0`, and while `pending > 0` waits for
/// `waker` instead of finishing. (The host crate's event loop does; [`block_on`] and
/// [`run_until_idle`] do it for any other job executor.)
///
/// ```
/// use std::task::Waker;
/// use boa_engine::Context;
///
/// let mut context = Context::default();
/// boa_streams::register(&mut context).unwrap();
/// let progress = boa_streams::native::poll_tasks(&mut context, Waker::noop());
/// assert_eq!((progress.ran, progress.pending), (0, 0));
/// ```
pub fn poll_tasks(ctx: &mut Context, waker: &Waker) -> TaskProgress {
    let Some(driver) = ctx.get_data::<DriverData>().map(|d| d.0.clone()) else {
        return TaskProgress::default();
    };
    let (ids, local) = {
        let mut state = driver.ready.lock();
        if !state.notify.as_ref().is_some_and(|w| w.will_wake(waker)) {
            state.notify = Some(waker.clone());
        }
        let local = std::mem::take(&mut state.local);
        (std::mem::take(&mut state.ids), local)
    };
    let mut ran = 0;
    if local || !driver.local.borrow().is_empty() {
        loop {
            let steps = driver.local.borrow_mut().pop_front();
            let Some(steps) = steps else { break };
            steps(ctx);
            ran += 1;
        }
    }
    let mut seen = std::collections::HashSet::new();
    for id in ids {
        if seen.insert(id) && driver.tasks.borrow().contains_key(&id) {
            poll_slot(&driver, id, ctx);
            ran += 1;
        }
    }
    TaskProgress {
        ran,
        pending: driver.pending(),
    }
}

/// How many native futures of this context are pending (and Rust steps are queued).
///
/// ```
/// use boa_engine::Context;
///
/// let mut context = Context::default();
/// assert_eq!(boa_streams::native::pending_tasks(&context), 0);
/// ```
pub fn pending_tasks(ctx: &Context) -> usize {
    ctx.get_data::<DriverData>().map_or(0, |d| d.0.pending())
}

/// Wakes a parked thread.
struct ThreadWaker {
    woken: AtomicBool,
    thread: Thread,
}

impl Wake for ThreadWaker {
    fn wake(self: Arc<Self>) {
        self.wake_by_ref();
    }
    fn wake_by_ref(self: &Arc<Self>) {
        self.woken.store(true, Ordering::SeqCst);
        self.thread.unpark();
    }
}

/// Run the context until `future` is ready: the context's jobs (`Context::run_jobs`), its
/// native futures ([`poll_tasks`]) and `future`, parking the thread while all of them wait
/// (a waker from another thread wakes it). For embedders that use Boa's job executors (or
/// their own) rather than the host crate's event loop, e.g. to await a
/// [`StreamReader`](super::StreamReader) read.
///
/// A job's error is returned (`Err`) and stops the run. It waits for as long as `future` is
/// pending: a future that nothing will ever wake blocks forever.
///
/// ```
/// use boa_engine::{Context, Source};
/// use boa_streams::native::{block_on, StreamReader};
///
/// let mut context = Context::default();
/// boa_streams::register(&mut context).unwrap();
/// let stream = context
///     .eval(Source::from_bytes(
///         "new ReadableStream({ type: 'bytes', start(c) { c.enqueue(new Uint8Array([104, 105])); c.close(); } })",
///     ))
///     .unwrap();
/// let reader = StreamReader::from_value(&stream, &mut context).unwrap();
/// let all = reader.read_all(&mut context);
/// let bytes = block_on(&mut context, all).unwrap().unwrap();
/// assert_eq!(&bytes[..], b"hi");
/// ```
pub fn block_on<F: Future>(ctx: &mut Context, future: F) -> JsResult<F::Output> {
    let unpark = Arc::new(ThreadWaker {
        woken: AtomicBool::new(false),
        thread: std::thread::current(),
    });
    let waker = Waker::from(unpark.clone());
    let mut cx = TaskContext::from_waker(&waker);
    let mut future = std::pin::pin!(future);
    loop {
        ctx.run_jobs()?;
        let progress = poll_tasks(ctx, &waker);
        if progress.ran > 0 {
            continue;
        }
        unpark.woken.store(false, Ordering::SeqCst);
        if let Poll::Ready(output) = future.as_mut().poll(&mut cx) {
            return Ok(output);
        }
        if !unpark.woken.swap(false, Ordering::SeqCst) {
            std::thread::park();
        }
    }
}

/// Run the context's jobs and native futures until none is left (see [`block_on`]): the
/// workaround for a job executor that returns while native I/O is still pending.
///
/// ```
/// use boa_engine::Context;
///
/// let mut context = Context::default();
/// boa_streams::register(&mut context).unwrap();
/// boa_streams::native::run_until_idle(&mut context).unwrap();
/// ```
pub fn run_until_idle(ctx: &mut Context) -> JsResult<()> {
    let unpark = Arc::new(ThreadWaker {
        woken: AtomicBool::new(false),
        thread: std::thread::current(),
    });
    let waker = Waker::from(unpark.clone());
    loop {
        ctx.run_jobs()?;
        let progress = poll_tasks(ctx, &waker);
        if progress.ran > 0 {
            continue;
        }
        if progress.pending == 0 {
            return Ok(());
        }
        if !unpark.woken.swap(false, Ordering::SeqCst) {
            std::thread::park();
        }
    }
}
