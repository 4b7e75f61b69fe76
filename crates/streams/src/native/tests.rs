use super::*;
use crate::test_support::{context, display, eval, joined_out, new_log, set_global, string, Log};
use boa_gc::{Finalize, Trace};

#[test]
fn a_native_byte_stream_reads_back_in_js() {
    let mut ctx = context();
    let chunks = vec![
        Bytes::from_static(b"hello, "),
        Bytes::from_static(b""),
        Bytes::from(vec![0xe2, 0x9c, 0x93]),
    ];
    let stream = native_byte_stream(chunks.into_iter(), &mut ctx).unwrap();
    set_global(&mut ctx, "nativeStream", stream.upcast());
    eval(
        &mut ctx,
        r#"
        globalThis.out = [];
        (async () => {
          let last;
          for await (const c of nativeStream) {
            out.push(c.constructor.name + ':' + c.length);
            last = c;
          }
          out.push(Array.from(last, (b) => b.toString(16)).join(''));
        })();
        "#,
    );
    ctx.run_jobs().unwrap();
    assert_eq!(joined_out(&mut ctx), "Uint8Array:7,Uint8Array:3,e29c93");
}

#[test]
fn cancel_drops_the_iterator() {
    let mut ctx = context();
    let stream = native_byte_stream(
        std::iter::repeat_n(Bytes::from_static(b"x"), 1_000_000),
        &mut ctx,
    )
    .unwrap();
    set_global(&mut ctx, "s", stream.upcast());
    eval(
        &mut ctx,
        r#"
        globalThis.n = 0;
        (async () => { for await (const c of s) { if (++n === 3) break; } })();
        "#,
    );
    ctx.run_jobs().unwrap();
    assert_eq!(string(&mut ctx, "n + ':' + s.locked"), "3:false");
}

/// Counts down from `n`, one chunk per pull; records a cancel.
#[derive(Trace, Finalize)]
struct Countdown {
    #[unsafe_ignore_trace]
    left: std::cell::Cell<u32>,
    #[unsafe_ignore_trace]
    log: Log,
}

impl NativeSource for Countdown {
    fn pull(&self, controller: &StreamController, ctx: &mut Context) -> Completion {
        let StreamController::Default(controller) = controller else {
            return Completion::Rejected(JsValue::from(boa_engine::js_string!(
                "not a default controller"
            )));
        };
        let left = self.left.get();
        self.log.borrow_mut().push(format!(
            "pull {left} (desired {:?})",
            readable_stream_default_controller_get_desired_size(controller)
        ));
        if left == 0 {
            readable_stream_default_controller_close(controller, ctx);
        } else {
            self.left.set(left - 1);
            readable_stream_default_controller_enqueue(controller, JsValue::from(left), ctx)
                .unwrap();
        }
        Completion::undefined()
    }

    fn cancel(&self, reason: JsValue, ctx: &mut Context) -> Completion {
        let reason = display(&reason, ctx);
        self.log.borrow_mut().push(format!("cancel {reason}"));
        Completion::undefined()
    }
}

#[test]
fn a_native_source_fills_to_its_high_water_mark_and_reads_back() {
    let mut ctx = context();
    let log = new_log();
    let source = Countdown {
        left: std::cell::Cell::new(3),
        log: log.clone(),
    };
    let stream = native_readable_stream(source, 2.0, &mut ctx).unwrap();
    assert!(!readable_stream_is_disturbed(&stream));
    set_global(&mut ctx, "rs", stream.clone().upcast());
    ctx.run_jobs().unwrap();
    // Start, then pulls until two chunks are queued.
    assert_eq!(
        log.borrow().join(";"),
        "pull 3 (desired Some(2.0));pull 2 (desired Some(1.0))"
    );
    eval(
        &mut ctx,
        r#"
        globalThis.out = [];
        (async () => { for await (const c of rs) out.push(c); out.push('done'); })();
        "#,
    );
    assert!(readable_stream_is_locked(&stream));
    ctx.run_jobs().unwrap();
    assert_eq!(joined_out(&mut ctx), "3,2,1,done");
    assert!(readable_stream_is_disturbed(&stream));
    assert!(!readable_stream_is_locked(&stream));
}

#[test]
fn a_native_source_is_cancelled_with_the_reason() {
    let mut ctx = context();
    let log = new_log();
    let source = Countdown {
        left: std::cell::Cell::new(100),
        log: log.clone(),
    };
    let stream = native_readable_stream(source, 0.0, &mut ctx).unwrap();
    set_global(&mut ctx, "rs", stream.upcast());
    eval(&mut ctx, "rs.cancel('stop');");
    ctx.run_jobs().unwrap();
    // High water mark 0: no pull before the cancel.
    assert_eq!(log.borrow().join(";"), "cancel stop");
}

/// Collects chunks; `close` and `abort` are recorded.
#[derive(Trace, Finalize)]
struct Collect {
    #[unsafe_ignore_trace]
    log: Log,
}

impl NativeSink for Collect {
    fn write(&self, chunk: JsValue, _controller: &JsObject, ctx: &mut Context) -> Completion {
        let chunk = display(&chunk, ctx);
        if chunk == "bad" {
            return Completion::Rejected(JsValue::from(boa_engine::js_string!("refused")));
        }
        self.log.borrow_mut().push(format!("write {chunk}"));
        Completion::undefined()
    }

    fn close(&self, _ctx: &mut Context) -> Completion {
        self.log.borrow_mut().push("close".into());
        Completion::undefined()
    }
}

#[test]
fn a_native_sink_gets_the_writes_and_the_close() {
    let mut ctx = context();
    let log = new_log();
    let stream = native_writable_stream(Collect { log: log.clone() }, 1.0, &mut ctx).unwrap();
    set_global(&mut ctx, "ws", stream);
    eval(
        &mut ctx,
        r#"
        globalThis.out = [];
        const w = ws.getWriter();
        w.write('a');
        w.write('b');
        w.close().then(() => out.push('closed'));
        "#,
    );
    ctx.run_jobs().unwrap();
    assert_eq!(log.borrow().join(";"), "write a;write b;close");
    assert_eq!(joined_out(&mut ctx), "closed");

    // A rejected write errors the stream with the reason.
    let log = new_log();
    let stream = native_writable_stream(Collect { log: log.clone() }, 1.0, &mut ctx).unwrap();
    set_global(&mut ctx, "ws2", stream);
    eval(
        &mut ctx,
        r#"
        const w2 = ws2.getWriter();
        w2.write('bad').catch((e) => out.push('write ' + e));
        w2.write('c').catch((e) => out.push('write ' + e));
        w2.closed.catch((e) => out.push('closed ' + e));
        "#,
    );
    ctx.run_jobs().unwrap();
    assert_eq!(log.borrow().join(";"), "");
    assert_eq!(
        joined_out(&mut ctx),
        "closed,write refused,write refused,closed refused"
    );
}
