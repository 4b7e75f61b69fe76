use std::cell::{Cell, RefCell};
use std::pin::Pin;
use std::rc::Rc;
use std::task::{Context as TaskContext, Poll};

use bytes::Bytes;
use futures::{Sink, Stream};

use super::*;
use crate::native::{pending_tasks, run_until_idle};
use crate::test_support::{
    context, eval, joined_out, new_log, poll_once, set_global, DropFlag, Log,
};

/// Yields `chunks` one per poll, counting polls; `Pending` forever once `stall` is reached.
struct Counted {
    chunks: Vec<Result<Bytes, std::io::Error>>,
    polls: Rc<Cell<usize>>,
    _dropped: DropFlag,
}

impl Stream for Counted {
    type Item = Result<Bytes, std::io::Error>;
    fn poll_next(mut self: Pin<&mut Self>, _cx: &mut TaskContext<'_>) -> Poll<Option<Self::Item>> {
        self.polls.set(self.polls.get() + 1);
        if self.chunks.is_empty() {
            return Poll::Pending;
        }
        Poll::Ready(Some(self.chunks.remove(0)))
    }
}

fn counted(
    chunks: Vec<Result<Bytes, std::io::Error>>,
) -> (Counted, Rc<Cell<usize>>, Rc<Cell<bool>>) {
    let polls = Rc::new(Cell::new(0));
    let (flag, dropped) = DropFlag::new();
    let stream = Counted {
        chunks,
        polls: polls.clone(),
        _dropped: flag,
    };
    (stream, polls, dropped)
}

#[test]
fn a_rust_stream_is_polled_only_when_a_reader_asks() {
    let mut ctx = context();
    let chunks = vec![
        Ok(Bytes::from_static(b"ab")),
        Ok(Bytes::new()),
        Ok(Bytes::from_static(b"c")),
    ];
    let (stream, polls, _) = counted(chunks);
    let rs = readable_stream_from_stream(stream, &mut ctx).unwrap();
    set_global(&mut ctx, "rs", rs.upcast());
    run_until_idle(&mut ctx).unwrap();
    // High water mark 0: nothing is polled before a read.
    assert_eq!(polls.get(), 0);
    eval(
        &mut ctx,
        r#"
        globalThis.out = [];
        globalThis.reader = rs.getReader();
        reader.read().then(({ value }) => out.push(value.constructor.name + ':' + value.length));
        "#,
    );
    run_until_idle(&mut ctx).unwrap();
    assert_eq!(joined_out(&mut ctx), "Uint8Array:2");
    // One poll for one read; the stream stays unpolled while nobody reads.
    assert_eq!(polls.get(), 1);
    run_until_idle(&mut ctx).unwrap();
    assert_eq!(polls.get(), 1);
    // The empty chunk is skipped.
    eval(
        &mut ctx,
        "reader.read().then(({ value }) => out.push(value.length));",
    );
    run_until_idle(&mut ctx).unwrap();
    assert_eq!(joined_out(&mut ctx), "Uint8Array:2,1");
    assert_eq!(polls.get(), 3);
}

#[test]
fn cancel_drops_the_pending_future() {
    let mut ctx = context();
    let (stream, polls, dropped) = counted(Vec::new());
    let rs = readable_stream_from_stream(stream, &mut ctx).unwrap();
    set_global(&mut ctx, "rs", rs.upcast());
    eval(
        &mut ctx,
        "globalThis.reader = rs.getReader(); globalThis.out = [];
         reader.read().then((r) => out.push('done ' + r.done));",
    );
    poll_once(&mut ctx);
    assert_eq!(polls.get(), 1);
    assert_eq!(pending_tasks(&ctx), 1);
    assert!(!dropped.get());
    eval(
        &mut ctx,
        "reader.cancel('stop').then(() => out.push('cancelled'));",
    );
    ctx.run_jobs().unwrap();
    assert!(
        dropped.get(),
        "cancel drops the stream and its pending poll"
    );
    assert_eq!(pending_tasks(&ctx), 0);
    assert_eq!(joined_out(&mut ctx), "done true,cancelled");
}

#[test]
fn a_rust_stream_error_is_a_type_error_with_its_message() {
    let mut ctx = context();
    let chunks = vec![
        Ok(Bytes::from_static(b"x")),
        Err(std::io::Error::other("disk on fire")),
    ];
    let (stream, _, dropped) = counted(chunks);
    let rs = readable_stream_from_stream(stream, &mut ctx).unwrap();
    set_global(&mut ctx, "rs", rs.upcast());
    eval(
        &mut ctx,
        r#"
        globalThis.out = [];
        (async () => {
          try { for await (const c of rs) out.push(c.length); }
          catch (e) { out.push(e.constructor.name + ': ' + e.message); }
        })();
        "#,
    );
    run_until_idle(&mut ctx).unwrap();
    assert_eq!(joined_out(&mut ctx), "1,TypeError: disk on fire");
    assert!(dropped.get(), "the failed stream is dropped");
}

#[test]
fn a_pending_future_completes_from_another_thread() {
    let mut ctx = context();
    let (tx, rx) = futures::channel::mpsc::unbounded::<Result<Bytes, std::io::Error>>();
    let rs = readable_stream_from_stream(rx, &mut ctx).unwrap();
    set_global(&mut ctx, "rs", rs.upcast());
    eval(
        &mut ctx,
        r#"
        globalThis.out = [];
        (async () => { for await (const c of rs) out.push(String.fromCharCode(...c)); out.push('end'); })();
        "#,
    );
    let sender = std::thread::spawn(move || {
        for word in ["late", "r"] {
            std::thread::sleep(std::time::Duration::from_millis(20));
            tx.unbounded_send(Ok(Bytes::from_static(word.as_bytes())))
                .unwrap();
        }
    });
    run_until_idle(&mut ctx).unwrap();
    sender.join().unwrap();
    assert_eq!(joined_out(&mut ctx), "late,r,end");
}

#[test]
fn async_read_fills_the_byob_view_in_place() {
    let mut ctx = context();
    let input = futures::io::Cursor::new(b"0123456789".to_vec());
    let rs = readable_stream_from_async_read(input, 4, &mut ctx).unwrap();
    set_global(&mut ctx, "rs", rs.upcast());
    eval(
        &mut ctx,
        r#"
        globalThis.out = [];
        (async () => {
          const reader = rs.getReader({ mode: 'byob' });
          const buffer = new ArrayBuffer(6);
          let r = await reader.read(new Uint8Array(buffer, 1, 3));
          out.push(r.value.byteOffset + ':' + String.fromCharCode(...r.value));
          reader.releaseLock();
          // A default reader gets autoAllocateChunkSize (4) bytes at most.
          const d = rs.getReader();
          for (;;) {
            r = await d.read();
            if (r.done) break;
            out.push(String.fromCharCode(...r.value));
          }
          out.push('end');
        })();
        "#,
    );
    run_until_idle(&mut ctx).unwrap();
    assert_eq!(joined_out(&mut ctx), "1:012,3456,789,end");
}

#[test]
fn a_high_water_mark_polls_ahead_of_the_reads() {
    let mut ctx = context();
    let chunks = vec![
        Ok(Bytes::from_static(b"ab")),
        Ok(Bytes::from_static(b"cd")),
        Ok(Bytes::from_static(b"ef")),
    ];
    let (stream, polls, _) = counted(chunks);
    let rs = readable_stream_from_stream_with_high_water_mark(stream, 4.0, &mut ctx).unwrap();
    set_global(&mut ctx, "rs", rs.upcast());
    run_until_idle(&mut ctx).unwrap();
    // Polled until 4 bytes are queued, before any read.
    assert_eq!(polls.get(), 2);
    eval(
        &mut ctx,
        "globalThis.out = [];
         rs.getReader().read().then(({ value }) => out.push(String.fromCharCode(...value)));",
    );
    run_until_idle(&mut ctx).unwrap();
    assert_eq!(joined_out(&mut ctx), "ab");
    // The read made room for 2 more bytes: one more poll.
    assert_eq!(polls.get(), 3);

    let input = futures::io::Cursor::new(b"abcdefgh".to_vec());
    let rs = readable_stream_from_async_read_with_high_water_mark(input, 3, 4.0, &mut ctx).unwrap();
    set_global(&mut ctx, "rs", rs.upcast());
    run_until_idle(&mut ctx).unwrap();
    eval(
        &mut ctx,
        "globalThis.out = [];
         (async () => {
           const reader = rs.getReader({ mode: 'byob' });
           for (;;) {
             const { value, done } = await reader.read(new Uint8Array(8));
             if (done) break;
             out.push(String.fromCharCode(...value));
           }
         })();",
    );
    run_until_idle(&mut ctx).unwrap();
    // Two chunks of 3 were read ahead (4 bytes wanted); the first BYOB read takes both.
    assert_eq!(joined_out(&mut ctx), "abcdef,gh");

    let input = futures::io::Cursor::new(Vec::new());
    assert!(
        readable_stream_from_async_read_with_high_water_mark(input, 3, -1.0, &mut ctx).is_err()
    );
}

/// An `AsyncRead` that fails.
struct Failing;

impl futures::AsyncRead for Failing {
    fn poll_read(
        self: Pin<&mut Self>,
        _cx: &mut TaskContext<'_>,
        _buf: &mut [u8],
    ) -> Poll<std::io::Result<usize>> {
        Poll::Ready(Err(std::io::Error::new(
            std::io::ErrorKind::ConnectionReset,
            "connection reset",
        )))
    }
}

#[test]
fn an_io_error_errors_the_stream() {
    let mut ctx = context();
    let rs = readable_stream_from_async_read(Failing, 16, &mut ctx).unwrap();
    set_global(&mut ctx, "rs", rs.upcast());
    eval(
        &mut ctx,
        "globalThis.out = [];
         rs.getReader().read().catch((e) => out.push(e.name + ': ' + e.message));",
    );
    run_until_idle(&mut ctx).unwrap();
    assert_eq!(joined_out(&mut ctx), "TypeError: connection reset");
}

/// A sink that records what it gets, stays not-ready while `gate` is false, fails on
/// `"bad"`, and sets a flag when dropped.
struct Recorder {
    got: Log,
    gate: Rc<Gate>,
    _dropped: DropFlag,
}

/// Whether a [`Recorder`] is ready, and the waker of the write waiting for it.
#[derive(Default)]
struct Gate {
    open: Cell<bool>,
    waker: RefCell<Option<std::task::Waker>>,
}

impl Gate {
    fn set(&self, open: bool) {
        self.open.set(open);
        if let Some(w) = self.waker.borrow_mut().take() {
            w.wake();
        }
    }
}

impl Sink<Bytes> for Recorder {
    type Error = String;
    fn poll_ready(self: Pin<&mut Self>, cx: &mut TaskContext<'_>) -> Poll<Result<(), String>> {
        if self.gate.open.get() {
            Poll::Ready(Ok(()))
        } else {
            *self.gate.waker.borrow_mut() = Some(cx.waker().clone());
            Poll::Pending
        }
    }
    fn start_send(self: Pin<&mut Self>, item: Bytes) -> Result<(), String> {
        if &item[..] == b"bad" {
            return Err("the sink refused".into());
        }
        self.got
            .borrow_mut()
            .push(String::from_utf8_lossy(&item).into_owned());
        Ok(())
    }
    fn poll_flush(self: Pin<&mut Self>, _cx: &mut TaskContext<'_>) -> Poll<Result<(), String>> {
        Poll::Ready(Ok(()))
    }
    fn poll_close(self: Pin<&mut Self>, _cx: &mut TaskContext<'_>) -> Poll<Result<(), String>> {
        self.got.borrow_mut().push("close".into());
        Poll::Ready(Ok(()))
    }
}

type Recorded = (Recorder, Log, Rc<Gate>, Rc<Cell<bool>>);

fn recorder(open: bool) -> Recorded {
    let got = new_log();
    let gate = Rc::new(Gate::default());
    gate.open.set(open);
    let (flag, dropped) = DropFlag::new();
    let sink = Recorder {
        got: got.clone(),
        gate: gate.clone(),
        _dropped: flag,
    };
    (sink, got, gate, dropped)
}

#[test]
fn a_sink_gets_the_writes_and_the_close_and_errors_come_back() {
    let mut ctx = context();
    let (sink, got, _, _) = recorder(true);
    let ws = writable_stream_from_sink(sink, &mut ctx).unwrap();
    set_global(&mut ctx, "ws", ws);
    eval(
        &mut ctx,
        r#"
        globalThis.out = [];
        const w = ws.getWriter();
        w.write(Uint8Array.from('a', (ch) => ch.charCodeAt(0)));
        w.write(new Uint8Array([98]).buffer);
        w.write('not bytes').catch((e) => out.push(e.name));
        "#,
    );
    run_until_idle(&mut ctx).unwrap();
    assert_eq!(got.borrow().join(","), "a,b");
    assert_eq!(joined_out(&mut ctx), "TypeError");

    let (sink, got, _, dropped) = recorder(true);
    let ws = writable_stream_from_sink(sink, &mut ctx).unwrap();
    set_global(&mut ctx, "ws2", ws);
    eval(
        &mut ctx,
        r#"
        const w2 = ws2.getWriter();
        w2.write(Uint8Array.from('ok', (ch) => ch.charCodeAt(0)));
        w2.write(Uint8Array.from('bad', (ch) => ch.charCodeAt(0))).catch((e) => out.push(e.name + ': ' + e.message));
        w2.close().catch(() => out.push('close rejected'));
        "#,
    );
    run_until_idle(&mut ctx).unwrap();
    assert_eq!(got.borrow().join(","), "ok");
    assert_eq!(
        joined_out(&mut ctx),
        "TypeError,TypeError: the sink refused,close rejected"
    );
    assert!(dropped.get(), "a failed sink is dropped");

    let (sink, got, _, _) = recorder(true);
    let ws = writable_stream_from_sink(sink, &mut ctx).unwrap();
    set_global(&mut ctx, "ws3", ws);
    eval(
        &mut ctx,
        "ws3.getWriter().close().then(() => out.push('closed'));",
    );
    run_until_idle(&mut ctx).unwrap();
    assert_eq!(got.borrow().join(","), "close");
    assert!(joined_out(&mut ctx).ends_with("closed"));
}

#[test]
fn a_write_completes_when_the_sink_is_ready_and_abort_drops_it() {
    let mut ctx = context();
    let (sink, got, gate, dropped) = recorder(false);
    let ws = writable_stream_from_sink(sink, &mut ctx).unwrap();
    set_global(&mut ctx, "ws", ws);
    eval(
        &mut ctx,
        r#"
        globalThis.out = [];
        globalThis.w = ws.getWriter();
        w.write(Uint8Array.from('1', (ch) => ch.charCodeAt(0))).then(() => out.push('w1'));
        "#,
    );
    poll_once(&mut ctx);
    // The sink is not ready: the write waits.
    assert_eq!(joined_out(&mut ctx), "");
    assert_eq!(pending_tasks(&ctx), 1);
    gate.set(true);
    run_until_idle(&mut ctx).unwrap();
    assert_eq!(joined_out(&mut ctx), "w1");
    // The next write waits for the sink; an abort drops its future and the sink, and the
    // data of the completed write stays committed.
    gate.set(false);
    eval(
        &mut ctx,
        "w.write(Uint8Array.from('2', (ch) => ch.charCodeAt(0))).catch((e) => out.push('w2 ' + e));
         w.abort('enough').then(() => out.push('aborted'));",
    );
    run_until_idle(&mut ctx).unwrap();
    assert!(dropped.get(), "abort drops the sink");
    assert_eq!(pending_tasks(&ctx), 0, "no future is left behind");
    assert_eq!(joined_out(&mut ctx), "w1,w2 enough,aborted");
    assert_eq!(got.borrow().join(","), "1");
}
