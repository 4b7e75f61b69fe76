use crate::test_support::{check, context, string};

#[test]
fn performance_is_an_event_target_with_now_and_time_origin() {
    let mut ctx = context();
    check(
        &mut ctx,
        "performance instanceof Performance && performance instanceof EventTarget",
    );
    check(
        &mut ctx,
        "typeof performance.now() === 'number' && performance.now() >= 0",
    );
    check(
        &mut ctx,
        "Math.abs(performance.timeOrigin - Date.now()) < 60000",
    );
    check(
        &mut ctx,
        "performance.toJSON().timeOrigin === performance.timeOrigin",
    );
    check(
        &mut ctx,
        "(() => { try { new Performance(); return false; } catch (e) { return e instanceof TypeError; } })()",
    );
    // Coarsened to 100 microseconds.
    check(
        &mut ctx,
        "Math.abs(Math.round(performance.now() * 10) - performance.now() * 10) < 1e-6",
    );
    // [Replaceable].
    check(&mut ctx, "performance = 5; performance === 5");
}

#[test]
fn mark_and_measure_overloads() {
    let mut ctx = context();
    check(
        &mut ctx,
        "const m = performance.mark('a', { startTime: 10, detail: { x: [1] } });
         m instanceof PerformanceMark && m instanceof PerformanceEntry && m.startTime === 10
           && m.duration === 0 && m.entryType === 'mark' && m.detail.x[0] === 1",
    );
    performance_mark_b(&mut ctx);
    assert_eq!(
        string(
            &mut ctx,
            "[performance.measure('m1', 'a', 'b'), performance.measure('m2', { start: 'a', duration: 5 }),
              performance.measure('m3', { end: 40, duration: 15 }), performance.measure('m4', { start: 12, end: 'b', detail: 7 })]
             .map(m => [m.name, m.startTime, m.duration, m.detail].join(':')).join(' ')"
        ),
        "m1:10:20: m2:10:5: m3:25:15: m4:12:18:7"
    );
    // Errors: an unknown mark is a SyntaxError DOMException, an endMark with options and
    // start+duration+end are TypeErrors, a negative start is a TypeError.
    check(
        &mut ctx,
        "(() => { try { performance.measure('x', 'nope'); } catch (e) { return e.name === 'SyntaxError'; } })()",
    );
    check(
        &mut ctx,
        "(() => { try { performance.measure('x', { start: 1 }, 'a'); } catch (e) { return e instanceof TypeError; } })()",
    );
    check(
        &mut ctx,
        "(() => { try { performance.measure('x', { start: 1, end: 2, duration: 1 }); } catch (e) { return e instanceof TypeError; } })()",
    );
    check(
        &mut ctx,
        "(() => { try { performance.mark('x', { startTime: -1 }); } catch (e) { return e instanceof TypeError; } })()",
    );
    check(
        &mut ctx,
        "(() => { try { performance.measure('x', 'navigationStart'); } catch (e) { return e instanceof TypeError; } })()",
    );
}

fn performance_mark_b(ctx: &mut boa_engine::Context) {
    check(
        ctx,
        "performance.mark('b', { startTime: 30 }).startTime === 30",
    );
}

#[test]
fn entries_are_sorted_filtered_and_cleared() {
    let mut ctx = context();
    check(
        &mut ctx,
        "performance.mark('late', { startTime: 50 }); performance.mark('early', { startTime: 5 });
         performance.measure('all');
         performance.getEntries().map(e => e.name).join() === 'all,early,late'",
    );
    check(
        &mut ctx,
        "performance.getEntriesByType('mark').length === 2",
    );
    check(
        &mut ctx,
        "performance.getEntriesByName('late', 'measure').length === 0",
    );
    check(
        &mut ctx,
        "performance.getEntriesByName('late').length === 1",
    );
    check(
        &mut ctx,
        "performance.clearMarks('late'); performance.getEntriesByType('mark').length === 1",
    );
    check(
        &mut ctx,
        "performance.clearMarks(); performance.getEntries().length === 1",
    );
    check(
        &mut ctx,
        "performance.clearMeasures(); performance.getEntries().length === 0",
    );
}

#[test]
fn mark_detail_is_structured_cloned_and_constructor_works() {
    let mut ctx = context();
    check(
        &mut ctx,
        "const d = { a: 1 }; const m = new PerformanceMark('x', { detail: d });
         m.detail !== d && m.detail.a === 1 && performance.getEntries().length === 0",
    );
    check(
        &mut ctx,
        "(() => { try { new PerformanceMark('x', { detail: () => 1 }); } catch (e) { return e.name === 'DataCloneError'; } })()",
    );
    check(
        &mut ctx,
        "new PerformanceMark('y', { detail: null }).detail === null",
    );
    check(
        &mut ctx,
        "(() => { try { PerformanceMeasure.prototype.detail; } catch (e) { return e instanceof TypeError; } })()",
    );
    check(
        &mut ctx,
        "JSON.stringify(new PerformanceMark('z', { startTime: 1 })).includes('\"startTime\":1')",
    );
}

#[test]
fn register_installs_only_this_crate_and_its_dependencies() {
    let mut ctx = context();
    crate::test_support::assert_crates_registered(
        &mut ctx,
        &[
            "webidl", "dom", "streams", "fileapi", "url", "html", "hrtime",
        ],
    );
}

// ---------------------------------------------------------------------------------------
// PerformanceObserver
// ---------------------------------------------------------------------------------------

/// An event loop as HTML has it, for the tests of task ordering: one task (a `GenericJob`)
/// at a time, each followed by a microtask checkpoint that runs the microtasks it queues
/// too. (Boa's `SimpleJobExecutor` runs a round of promise jobs, then every generic job.)
#[derive(Default)]
struct HtmlLoop {
    microtasks: std::cell::RefCell<std::collections::VecDeque<boa_engine::job::PromiseJob>>,
    tasks: std::cell::RefCell<std::collections::VecDeque<boa_engine::job::GenericJob>>,
}

impl boa_engine::job::JobExecutor for HtmlLoop {
    fn enqueue_job(
        self: std::rc::Rc<Self>,
        job: boa_engine::job::Job,
        _: &mut boa_engine::Context,
    ) {
        match job {
            boa_engine::job::Job::PromiseJob(p) => self.microtasks.borrow_mut().push_back(p),
            boa_engine::job::Job::GenericJob(g) => self.tasks.borrow_mut().push_back(g),
            _ => panic!("these tests queue only promise jobs and generic jobs"),
        }
    }

    fn run_jobs(
        self: std::rc::Rc<Self>,
        ctx: &mut boa_engine::Context,
    ) -> boa_engine::JsResult<()> {
        // A bounded number of steps: a test that loops forever fails instead of hanging.
        for _ in 0..10_000 {
            let micro = self.microtasks.borrow_mut().pop_front();
            if let Some(job) = micro {
                job.call(ctx)?;
                continue;
            }
            let task = self.tasks.borrow_mut().pop_front();
            match task {
                Some(task) => {
                    task.call(ctx)?;
                }
                None => return Ok(()),
            }
        }
        panic!("the event loop did not become idle");
    }
}

fn html_loop_context() -> boa_engine::Context {
    let mut ctx = boa_engine::Context::builder()
        .job_executor(std::rc::Rc::new(HtmlLoop::default()))
        .build()
        .unwrap();
    crate::register(&mut ctx).unwrap();
    eval(&mut ctx, "globalThis.log = [];");
    ctx
}

use crate::test_support::{eval, run_jobs};

#[test]
fn observer_callback_runs_as_a_task_after_the_microtasks() {
    let mut ctx = html_loop_context();
    eval(
        &mut ctx,
        "new PerformanceObserver((list, observer, options) => {
           log.push('observer:' + list.getEntries().map(e => e.name).join('+')
             + ':' + options.droppedEntriesCount);
           Promise.resolve().then(() => log.push('micro in callback'));
         }).observe({ entryTypes: ['mark', 'measure'] });
         performance.mark('a');
         Promise.resolve().then(() => log.push('micro 1'))
           .then(() => log.push('micro 2')).then(() => log.push('micro 3'));
         performance.measure('m', 'a');
         log.push('sync');",
    );
    run_jobs(&mut ctx);
    assert_eq!(
        string(&mut ctx, "log.join()"),
        "sync,micro 1,micro 2,micro 3,observer:a+m:0,micro in callback"
    );
}

#[test]
fn one_task_for_many_entries_and_dropped_count_only_once() {
    let mut ctx = html_loop_context();
    eval(
        &mut ctx,
        "const po = new PerformanceObserver((list, observer, options) => {
           log.push(list.getEntries().length + ':' + ('droppedEntriesCount' in options)
             + ':' + (observer === po));
         });
         po.observe({ type: 'mark' });
         for (let i = 0; i < 5; i++) performance.mark('x' + i);
         performance.measure('not observed');",
    );
    run_jobs(&mut ctx);
    eval(&mut ctx, "performance.mark('later');");
    run_jobs(&mut ctx);
    assert_eq!(string(&mut ctx, "log.join()"), "5:true:true,1:false:true");
}

#[test]
fn disconnect_inside_the_callback_stops_delivery() {
    let mut ctx = html_loop_context();
    eval(
        &mut ctx,
        "const po = new PerformanceObserver(function (list, observer) {
           log.push('called ' + list.getEntries().length + ' ' + (this === po));
           observer.disconnect();
           performance.mark('after disconnect');
         });
         po.observe({ entryTypes: ['mark'] });
         performance.mark('a');",
    );
    run_jobs(&mut ctx);
    assert_eq!(string(&mut ctx, "log.join()"), "called 1 true");
    check(&mut ctx, "po.takeRecords().length === 0");
    // Observing again works after a disconnect.
    eval(
        &mut ctx,
        "po.observe({ entryTypes: ['mark'] }); performance.mark('b');",
    );
    check(&mut ctx, "po.takeRecords().map(e => e.name).join() === 'b'");
}

thread_local! {
    static REPORTED: std::cell::RefCell<Vec<String>> = const { std::cell::RefCell::new(Vec::new()) };
}

fn record_report(value: boa_engine::JsValue, ctx: &mut boa_engine::Context) {
    let text = value
        .to_string(ctx)
        .map(|s| s.to_std_string_escaped())
        .unwrap_or_default();
    REPORTED.with(|r| r.borrow_mut().push(text));
}

#[test]
fn a_throwing_callback_is_reported_and_the_other_observers_still_run() {
    boa_dom::set_exception_reporter(record_report);
    let mut ctx = html_loop_context();
    eval(
        &mut ctx,
        "new PerformanceObserver(() => { log.push('first'); throw new Error('boom'); })
           .observe({ type: 'mark' });
         new PerformanceObserver(() => log.push('second')).observe({ entryTypes: ['mark'] });
         performance.mark('a');",
    );
    run_jobs(&mut ctx);
    assert_eq!(string(&mut ctx, "log.join()"), "first,second");
    let reported = REPORTED.with(|r| r.borrow().clone());
    assert_eq!(reported, vec!["Error: boom".to_owned()]);
}

#[test]
fn observe_validation() {
    let mut ctx = context();
    check(
        &mut ctx,
        "const po = new PerformanceObserver(() => {});
         const throws = (f, name) => { try { f(); return false; } catch (e) { return e.name === name; } };
         throws(() => po.observe(), 'TypeError')
           && throws(() => po.observe({}), 'TypeError')
           && throws(() => po.observe({ entryTypes: ['mark'], type: 'mark' }), 'TypeError')
           && throws(() => po.observe({ entryTypes: ['mark'], buffered: false }), 'TypeError')
           && throws(() => po.observe({ entryTypes: 'mark' }), 'TypeError')
           && throws(() => po.observe(1), 'TypeError')",
    );
    check(
        &mut ctx,
        "const single = new PerformanceObserver(() => {});
         single.observe({ type: 'mark' });
         const multiple = new PerformanceObserver(() => {});
         multiple.observe({ entryTypes: ['mark'] });
         throws(() => single.observe({ entryTypes: ['measure'] }), 'InvalidModificationError')
           && throws(() => multiple.observe({ type: 'measure' }), 'InvalidModificationError')",
    );
    // An unknown type is ignored silently (but fixes the observer type); unknown entryTypes
    // are dropped.
    check(
        &mut ctx,
        "const po2 = new PerformanceObserver(() => {});
         po2.observe({ type: 'resource' });
         const ok = throws(() => po2.observe({ entryTypes: ['mark'] }), 'InvalidModificationError');
         const po3 = new PerformanceObserver(() => {});
         po3.observe({ entryTypes: ['paint', 'measure'] });
         performance.mark('m'); performance.measure('x');
         ok && po2.takeRecords().length === 0
           && po3.takeRecords().map(e => e.entryType).join() === 'measure'",
    );
    // Constructor errors.
    check(
        &mut ctx,
        "throws(() => new PerformanceObserver(), 'TypeError')
           && throws(() => new PerformanceObserver({}), 'TypeError')
           && throws(() => PerformanceObserver(() => {}), 'TypeError')
           && throws(() => new PerformanceObserverEntryList(), 'TypeError')",
    );
}

#[test]
fn single_type_observers_accumulate_types_and_buffered_reads_the_buffer() {
    let mut ctx = context();
    check(
        &mut ctx,
        "performance.mark('early'); performance.measure('early measure');
         const po = new PerformanceObserver(() => {});
         po.observe({ type: 'mark', buffered: true });
         po.observe({ type: 'measure' });
         performance.measure('late');
         po.takeRecords().map(e => e.name).join() === 'early,late'",
    );
}

#[test]
fn supported_entry_types_is_frozen_and_the_same_object() {
    let mut ctx = context();
    check(
        &mut ctx,
        "const t = PerformanceObserver.supportedEntryTypes;
         t === PerformanceObserver.supportedEntryTypes && Object.isFrozen(t)
           && t.join() === 'mark,measure'
           && Object.getOwnPropertyDescriptor(PerformanceObserver, 'supportedEntryTypes').set === undefined",
    );
}

#[test]
fn entry_list_filters_and_sorts() {
    let mut ctx = context();
    eval(
        &mut ctx,
        "globalThis.lists = [];
         new PerformanceObserver((list) => lists.push(list)).observe({ entryTypes: ['mark', 'measure'] });
         performance.mark('b', { startTime: 20 }); performance.mark('a', { startTime: 10 });
         performance.measure('b', { start: 5, end: 6 });",
    );
    run_jobs(&mut ctx);
    check(
        &mut ctx,
        "const l = lists[0]; lists.length === 1
           && l.getEntries().map(e => e.name + e.entryType).join() === 'bmeasure,amark,bmark'
           && l.getEntriesByType('mark').length === 2 && l.getEntriesByType('Mark').length === 0
           && l.getEntriesByName('b').length === 2 && l.getEntriesByName('b', 'mark').length === 1
           && l instanceof PerformanceObserverEntryList",
    );
}

#[test]
fn each_global_has_its_own_observers() {
    // A worker's global is another realm with its own registration.
    let mut ctx = html_loop_context();
    eval(
        &mut ctx,
        "new PerformanceObserver((l) => log.push('main:' + l.getEntries().map(e => e.name).join()))
           .observe({ type: 'mark', buffered: true });
         performance.mark('in main');",
    );
    let realm = ctx.create_realm().unwrap();
    let main = ctx.enter_realm(realm);
    crate::register(&mut ctx).unwrap();
    eval(
        &mut ctx,
        "globalThis.log = [];
         performance.mark('in worker before');
         new PerformanceObserver((l) => log.push('worker:' + l.getEntries().map(e => e.name).join()))
           .observe({ type: 'mark', buffered: true });
         performance.mark('in worker');",
    );
    run_jobs(&mut ctx);
    assert_eq!(
        string(&mut ctx, "log.join()"),
        "worker:in worker before,in worker"
    );
    let worker = ctx.enter_realm(main);
    assert_eq!(string(&mut ctx, "log.join()"), "main:in main");
    drop(worker);
}
