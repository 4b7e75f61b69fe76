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
