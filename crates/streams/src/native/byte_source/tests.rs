use std::cell::{Cell, RefCell};
use std::rc::Rc;

use boa_engine::{Context, JsValue};
use boa_gc::{Finalize, Gc, Trace};
use bytes::Bytes;

use super::*;
use crate::native::{native_byte_stream, RustPromise};
use crate::test_support::{
    array_buffer_pointer, both_modes, context, display, eval, gc_now, joined_out, new_log,
    run_jobs, set_global, string, Log,
};

type PullFn = dyn Fn(&ByteController, &mut Context) -> Completion;

/// A source whose pull is a closure; records the cancel reason.
#[derive(Trace, Finalize)]
struct FnSource {
    #[unsafe_ignore_trace]
    pull: Box<PullFn>,
    #[unsafe_ignore_trace]
    log: Log,
}

impl ByteSource for FnSource {
    fn pull(&self, controller: &ByteController, ctx: &mut Context) -> Completion {
        (self.pull)(controller, ctx)
    }

    fn cancel(&self, reason: JsValue, ctx: &mut Context) -> Completion {
        let reason = display(&reason, ctx);
        self.log.borrow_mut().push(format!("cancel {reason}"));
        Completion::undefined()
    }
}

fn stream_of(
    ctx: &mut Context,
    options: ByteStreamOptions,
    pull: impl Fn(&ByteController, &mut Context) -> Completion + 'static,
) -> Log {
    let log = new_log();
    let source = FnSource {
        pull: Box::new(pull),
        log: log.clone(),
    };
    let stream = native_readable_byte_stream(source, options, ctx).unwrap();
    set_global(ctx, "s", stream.upcast());
    log
}

/// The byte at position `i` of the test data.
fn pattern(i: usize) -> u8 {
    (i % 251) as u8
}

/// `total` pattern bytes, filled in place; counts the bytes it copies and records the data
/// pointer of every view it fills.
struct Filler {
    total: usize,
    sent: Cell<usize>,
    copied: Cell<usize>,
    pointers: RefCell<Vec<usize>>,
    data: Vec<u8>,
}

impl Filler {
    fn new(total: usize) -> Rc<Self> {
        Rc::new(Self {
            total,
            sent: Cell::new(0),
            copied: Cell::new(0),
            pointers: RefCell::new(Vec::new()),
            data: (0..total).map(pattern).collect(),
        })
    }

    fn pull(&self, controller: &ByteController, ctx: &mut Context) -> Completion {
        let sent = self.sent.get();
        if sent == self.total {
            return Completion::from_result(controller.close(ctx), ctx);
        }
        let filled = controller.fill(
            |view| {
                self.pointers.borrow_mut().push(view.as_ptr() as usize);
                let from = &self.data[sent..];
                let n = view.len().min(from.len());
                view[..n].copy_from_slice(&from[..n]);
                self.copied.set(self.copied.get() + n);
                n
            },
            ctx,
        );
        match filled {
            Ok(n) => {
                self.sent.set(sent + n);
                Completion::undefined()
            }
            Err(e) => Completion::from_error(e, ctx),
        }
    }
}

#[test]
fn a_byob_read_is_filled_in_the_callers_buffer_with_one_copy_per_byte() {
    both_modes(|_| {
        let mut ctx = context();
        let total = 1 << 20;
        let filler = Filler::new(total);
        let f = filler.clone();
        stream_of(&mut ctx, ByteStreamOptions::default(), move |c, ctx| {
            f.pull(c, ctx)
        });
        eval(
            &mut ctx,
            r#"
            globalThis.delivered = 0;
            globalThis.reads = 0;
            globalThis.ok = true;
            globalThis.first = new ArrayBuffer(65536);
            (async () => {
              const r = s.getReader({ mode: 'byob' });
              let buffer = first;
              for (;;) {
                const { done, value } = await r.read(new Uint8Array(buffer));
                if (done) break;
                for (let i = 0; i < value.length; i += 997)
                  if (value[i] !== (delivered + i) % 251) ok = false;
                delivered += value.byteLength;
                reads++;
                buffer = value.buffer;
                // Keep the last buffer for the pointer check (before the final read).
                if (delivered === 16 * 65536) { globalThis.last = buffer; break; }
              }
            })();
            "#,
        );
        run_jobs(&mut ctx);
        let delivered: usize = string(&mut ctx, "delivered").parse().unwrap();
        assert_eq!(delivered, total);
        assert_eq!(string(&mut ctx, "reads + ':' + ok"), "16:true");
        // Bytes copied per byte delivered: 1 (the source's copy into the caller's buffer).
        assert_eq!(filler.copied.get(), delivered);
        // The same data block on every read: the caller's buffer, moved, never copied.
        let pointers = filler.pointers.borrow().clone();
        assert_eq!(pointers.len(), 16);
        assert!(pointers.iter().all(|p| *p == pointers[0]), "{pointers:?}");
        assert_eq!(array_buffer_pointer(&mut ctx, "last"), pointers[0]);
        assert_eq!(string(&mut ctx, "first.detached"), "true");
        (delivered, pointers.len())
    });
}

#[test]
fn read_with_min_waits_for_enough_fills() {
    both_modes(|_| {
        let mut ctx = context();
        let needed = new_log();
        let n = needed.clone();
        let next = Cell::new(1u8);
        stream_of(&mut ctx, ByteStreamOptions::default(), move |c, ctx| {
            let request = c.byob_request().unwrap();
            n.borrow_mut().push(format!(
                "{}/{}/{}",
                request.remaining, request.needed, request.filled
            ));
            let r = c.fill(
                |view| {
                    let k = view.len().min(3);
                    for b in &mut view[..k] {
                        *b = next.get();
                        next.set(next.get() + 1);
                    }
                    k
                },
                ctx,
            );
            Completion::from_result(r.map(drop), ctx)
        });
        eval(
            &mut ctx,
            r#"
            globalThis.out = [];
            (async () => {
              const r = s.getReader({ mode: 'byob' });
              const a = await r.read(new Uint8Array(10), { min: 7 });
              out.push(a.value.join('.'));
              const b = await r.read(new Uint16Array(2), { min: 2 });
              out.push(b.value.constructor.name + ':' + b.value.length);
            })();
            "#,
        );
        run_jobs(&mut ctx);
        let out = joined_out(&mut ctx);
        assert_eq!(out, "1.2.3.4.5.6.7.8.9,Uint16Array:2");
        // 3 fills for 7 bytes, then 2 fills (3 bytes + 1 byte) for 4 bytes.
        assert_eq!(needed.borrow().join(" "), "10/7/0 7/4/3 4/1/6 4/4/0 1/1/3");
        out
    });
}

#[test]
fn auto_allocate_chunk_size_gives_default_reads_a_buffer_to_fill() {
    both_modes(|_| {
        let mut ctx = context();
        let filler = Filler::new(100);
        let f = filler.clone();
        let options = ByteStreamOptions {
            auto_allocate_chunk_size: Some(32),
            ..Default::default()
        };
        let sizes = Rc::new(RefCell::new(Vec::new()));
        let s2 = sizes.clone();
        stream_of(&mut ctx, options, move |c, ctx| {
            s2.borrow_mut().push(c.byob_request().map(|r| r.remaining));
            f.pull(c, ctx)
        });
        eval(
            &mut ctx,
            r#"
            globalThis.out = [];
            (async () => {
              for await (const c of s) out.push(c.constructor.name + ':' + c.byteLength + '/' + c.buffer.byteLength + '@' + c[0]);
            })();
            "#,
        );
        run_jobs(&mut ctx);
        let out = joined_out(&mut ctx);
        assert_eq!(
            out,
            "Uint8Array:32/32@0,Uint8Array:32/32@32,Uint8Array:32/32@64,Uint8Array:4/32@96"
        );
        assert_eq!(filler.copied.get(), 100);
        // Every pull had the auto-allocated buffer to fill (the last one closes).
        assert_eq!(*sizes.borrow(), vec![Some(32); 5]);
        out
    });
}

#[test]
fn a_native_byte_stream_tees_into_two_byte_streams() {
    both_modes(|_| {
        let mut ctx = context();
        let filler = Filler::new(1000);
        let f = filler.clone();
        stream_of(&mut ctx, ByteStreamOptions::default(), move |c, ctx| {
            // The tee reads with default readers: enqueue when no read is pending in place.
            if c.byob_request().is_some() {
                return f.pull(c, ctx);
            }
            let sent = f.sent.get();
            if sent == f.total {
                return Completion::from_result(c.close(ctx), ctx);
            }
            let end = (sent + 300).min(f.total);
            f.sent.set(end);
            Completion::from_result(c.enqueue(&f.data[sent..end], ctx), ctx)
        });
        eval(
            &mut ctx,
            r#"
            globalThis.out = [];
            const [a, b] = s.tee();
            const sum = (xs) => xs.reduce((x, y) => x + y, 0);
            (async () => {
              const r = a.getReader({ mode: 'byob' });
              let n = 0, check = 0;
              for (;;) {
                const { done, value } = await r.read(new Uint8Array(128));
                if (done) break;
                n += value.length; check += sum(value);
              }
              out.push('a ' + n + ' ' + check);
            })();
            (async () => {
              let n = 0, check = 0;
              for await (const c of b) { n += c.length; check += sum(c); }
              out.push('b ' + n + ' ' + check);
            })();
            "#,
        );
        run_jobs(&mut ctx);
        let expected: usize = (0..1000).map(|i| usize::from(pattern(i))).sum();
        let out = string(&mut ctx, "out.sort().join()");
        assert_eq!(out, format!("a 1000 {expected},b 1000 {expected}"));
        out
    });
}

#[test]
fn cancel_reaches_the_source_with_the_reason() {
    both_modes(|_| {
        let mut ctx = context();
        let pulls = Rc::new(Cell::new(0));
        let p = pulls.clone();
        // Never answers: the read stays pending until the cancel.
        let log = stream_of(&mut ctx, ByteStreamOptions::default(), move |_, _| {
            p.set(p.get() + 1);
            Completion::undefined()
        });
        eval(
            &mut ctx,
            r#"
            globalThis.out = [];
            const r = s.getReader({ mode: 'byob' });
            r.read(new Uint8Array(8)).then((x) => out.push('read done=' + x.done + ' ' + x.value));
            "#,
        );
        run_jobs(&mut ctx);
        eval(
            &mut ctx,
            "r.cancel('no more').then(() => out.push('cancelled'));",
        );
        run_jobs(&mut ctx);
        assert_eq!(log.borrow().join(","), "cancel no more");
        assert_eq!(pulls.get(), 1);
        let out = joined_out(&mut ctx);
        assert_eq!(out, "read done=true undefined,cancelled");
        out
    });
}

#[test]
fn io_errors_become_stream_errors_with_the_message() {
    // Through error_io, and through a rejected pull.
    for via_pull in [false, true] {
        let mut ctx = context();
        stream_of(&mut ctx, ByteStreamOptions::default(), move |c, ctx| {
            let e = std::io::Error::new(std::io::ErrorKind::BrokenPipe, "pipe burst");
            if via_pull {
                Completion::Rejected(io_error(&e, ctx))
            } else {
                c.error_io(&e, ctx);
                Completion::undefined()
            }
        });
        eval(
            &mut ctx,
            r#"
            globalThis.out = [];
            const r = s.getReader({ mode: 'byob' });
            r.read(new Uint8Array(8)).catch((e) => out.push(e.constructor.name + ': ' + e.message));
            r.closed.catch((e) => out.push('closed ' + e.name));
            "#,
        );
        run_jobs(&mut ctx);
        assert_eq!(
            joined_out(&mut ctx),
            "closed TypeError,TypeError: pipe burst",
            "via pull: {via_pull}"
        );
    }
}

/// A source that fills `n` bytes whatever the view's size.
fn fills(ctx: &mut Context, n: usize) -> Log {
    let errors = new_log();
    let e2 = errors.clone();
    stream_of(ctx, ByteStreamOptions::default(), move |c, ctx| {
        match c.fill(|view| n.min(view.len() + 1).max(n), ctx) {
            Ok(k) => {
                e2.borrow_mut().push(format!("ok {k}"));
                Completion::undefined()
            }
            Err(e) => {
                let e = Completion::from_error(e, ctx);
                e2.borrow_mut().push("err".into());
                e
            }
        }
    });
    errors
}

#[test]
fn filling_zero_bytes_or_more_than_the_view_errors_the_stream_as_respond_would() {
    for (n, expected) in [(0, "TypeError"), (9, "RangeError")] {
        let mut ctx = context();
        let log = fills(&mut ctx, n);
        eval(
            &mut ctx,
            r#"
            globalThis.out = [];
            const r = s.getReader({ mode: 'byob' });
            r.read(new Uint8Array(8)).then(() => out.push('read ok'), (e) => out.push(e.name));
            "#,
        );
        run_jobs(&mut ctx);
        assert_eq!(joined_out(&mut ctx), expected, "fill {n}");
        assert_eq!(log.borrow().join(","), "err");
    }
}

#[test]
fn fill_without_a_pending_read_is_a_type_error_and_fill_or_enqueue_enqueues() {
    let mut ctx = context();
    let log = new_log();
    let l = log.clone();
    let left = Cell::new(2);
    stream_of(&mut ctx, ByteStreamOptions::default(), move |c, ctx| {
        if left.get() == 0 {
            return Completion::from_result(c.close(ctx), ctx);
        }
        left.set(left.get() - 1);
        let e = c.fill(|_| 1, ctx).unwrap_err();
        l.borrow_mut().push(e.to_string());
        let r = c.fill_or_enqueue(
            4,
            |buf| {
                buf.copy_from_slice(b"abcd");
                3
            },
            ctx,
        );
        l.borrow_mut().push(format!("{r:?}"));
        Completion::undefined()
    });
    eval(
        &mut ctx,
        r#"
        globalThis.out = [];
        (async () => { for await (const c of s) out.push(String.fromCharCode(...c) + '/' + c.buffer.byteLength); })();
        "#,
    );
    run_jobs(&mut ctx);
    assert_eq!(joined_out(&mut ctx), "abc/3,abc/3");
    assert_eq!(
        log.borrow().join(","),
        "TypeError: There is no pending BYOB request (native),Ok(3),\
         TypeError: There is no pending BYOB request (native),Ok(3)"
    );
    // Zero-length and empty chunks are TypeErrors; the stream stays usable.
    let mut ctx = context();
    stream_of(&mut ctx, ByteStreamOptions::default(), |c, ctx| {
        assert!(c.enqueue(b"", ctx).is_err());
        assert!(c.fill_or_enqueue(0, |_| 0, ctx).is_err());
        assert!(c.fill_or_enqueue(2, |_| 0, ctx).is_err());
        assert!(c.fill_or_enqueue(2, |_| 3, ctx).is_err());
        assert!(c.is_readable());
        Completion::from_result(c.enqueue(b"x", ctx), ctx)
    });
    eval(
        &mut ctx,
        "globalThis.out = []; s.getReader().read().then((r) => out.push(r.value.length));",
    );
    run_jobs(&mut ctx);
    assert_eq!(joined_out(&mut ctx), "1");
}

/// An I/O-like source: pull returns a pending promise; the test answers later.
#[derive(Default)]
struct Later {
    pending: RefCell<Vec<(ByteController, Gc<RustPromise>)>>,
}

fn later_stream(ctx: &mut Context) -> (Rc<Later>, Log) {
    let later = Rc::new(Later::default());
    let l = later.clone();
    let log = stream_of(ctx, ByteStreamOptions::default(), move |c, _| {
        let p = RustPromise::new();
        l.pending.borrow_mut().push((c.clone(), p.clone()));
        Completion::Rust(p)
    });
    (later, log)
}

#[test]
fn a_source_fills_later_from_a_job() {
    both_modes(|_| {
        let mut ctx = context();
        let (later, _) = later_stream(&mut ctx);
        eval(
            &mut ctx,
            r#"
            globalThis.out = [];
            const r = s.getReader({ mode: 'byob' });
            r.read(new Uint8Array(4)).then((x) => out.push(x.value.join('.')));
            "#,
        );
        run_jobs(&mut ctx);
        assert_eq!(joined_out(&mut ctx), "");
        let (c, p) = later.pending.borrow_mut().pop().unwrap();
        // Later (e.g. when the I/O is ready): fill, then settle the pull.
        gc_now();
        assert_eq!(
            c.fill(
                |v| {
                    v[..2].copy_from_slice(&[7, 8]);
                    2
                },
                &mut ctx
            )
            .unwrap(),
            2
        );
        p.resolve_undefined(&mut ctx);
        run_jobs(&mut ctx);
        let out = joined_out(&mut ctx);
        assert_eq!(out, "7.8");
        // Nothing pending any more: no second pull was needed.
        assert!(later.pending.borrow().is_empty());
        out
    });
}

#[test]
fn a_fill_after_cancel_is_refused_and_a_released_read_keeps_its_bytes() {
    // Cancelled mid-transfer: the late fill is a TypeError, nothing panics.
    let mut ctx = context();
    let (later, log) = later_stream(&mut ctx);
    eval(
        &mut ctx,
        "const r = s.getReader({ mode: 'byob' }); r.read(new Uint8Array(4));",
    );
    run_jobs(&mut ctx);
    eval(&mut ctx, "r.cancel('bye');");
    run_jobs(&mut ctx);
    assert_eq!(log.borrow().join(","), "cancel bye");
    let (c, p) = later.pending.borrow_mut().pop().unwrap();
    assert!(!c.is_readable());
    assert_eq!(c.byob_request(), None);
    assert!(c.fill(|_| 1, &mut ctx).is_err());
    assert!(c.enqueue(b"late", &mut ctx).is_ok());
    assert!(c.close(&mut ctx).is_ok());
    p.resolve_undefined(&mut ctx);
    run_jobs(&mut ctx);

    // The reader released mid-transfer: the bytes filled afterwards are kept (the pull-into
    // goes to the queue) and the next reader reads them.
    let mut ctx = context();
    let (later, _) = later_stream(&mut ctx);
    eval(
        &mut ctx,
        r#"
        globalThis.out = [];
        const r = s.getReader({ mode: 'byob' });
        r.read(new Uint8Array(4)).catch((e) => out.push('first read ' + e.name));
        "#,
    );
    run_jobs(&mut ctx);
    eval(&mut ctx, "r.releaseLock();");
    run_jobs(&mut ctx);
    let (c, p) = later.pending.borrow_mut().pop().unwrap();
    assert_eq!(
        c.fill(
            |v| {
                v[..3].copy_from_slice(b"abc");
                3
            },
            &mut ctx
        )
        .unwrap(),
        3
    );
    p.resolve_undefined(&mut ctx);
    run_jobs(&mut ctx);
    eval(
        &mut ctx,
        "s.getReader().read().then((x) => out.push(String.fromCharCode(...x.value)));",
    );
    run_jobs(&mut ctx);
    assert_eq!(joined_out(&mut ctx), "first read TypeError,abc");
}

#[test]
fn close_with_a_partial_element_errors_the_stream() {
    let mut ctx = context();
    let step = Cell::new(0);
    stream_of(&mut ctx, ByteStreamOptions::default(), move |c, ctx| {
        step.set(step.get() + 1);
        if step.get() == 1 {
            Completion::from_result(c.fill(|_| 1, ctx).map(drop), ctx)
        } else {
            Completion::from_result(c.close(ctx), ctx)
        }
    });
    eval(
        &mut ctx,
        r#"
        globalThis.out = [];
        const r = s.getReader({ mode: 'byob' });
        r.read(new Uint16Array(2)).then(() => out.push('read ok'), (e) => out.push(e.name));
        "#,
    );
    run_jobs(&mut ctx);
    assert_eq!(joined_out(&mut ctx), "TypeError");
}

#[test]
fn native_byte_stream_fills_byob_reads_from_its_chunks() {
    both_modes(|_| {
        let mut ctx = context();
        let chunks = vec![
            Bytes::from_static(b"hello, "),
            Bytes::new(),
            Bytes::from_static(b"abc"),
        ];
        let stream = native_byte_stream(chunks.into_iter(), &mut ctx).unwrap();
        set_global(&mut ctx, "s", stream.upcast());
        eval(
            &mut ctx,
            r#"
            globalThis.out = [];
            (async () => {
              const r = s.getReader({ mode: 'byob' });
              for (;;) {
                const { done, value } = await r.read(new Uint8Array(4));
                if (done) { out.push('done'); break; }
                out.push(String.fromCharCode(...value));
              }
            })();
            "#,
        );
        run_jobs(&mut ctx);
        let out = string(&mut ctx, "out.join('|')");
        assert_eq!(out, "hell|o, |abc|done");
        out
    });
}
