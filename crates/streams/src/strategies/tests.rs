use boa_engine::{js_string, JsValue};

use super::*;

use crate::test_support::{context, eval};

#[test]
fn dictionary_members_are_read_once_in_order() {
    let mut ctx = context();
    let value = eval(
        &mut ctx,
        r#"var log = [];
        ({
            get size() { log.push('size'); return c => c.n * 2; },
            get highWaterMark() { log.push('hwm'); return { valueOf() { log.push('valueOf'); return 3; } }; },
        })"#,
    );
    let strategy = QueuingStrategy::from_value(&value, &mut ctx).unwrap();
    let log = eval(&mut ctx, "log.join()");
    assert_eq!(log, js_string!("hwm,valueOf,size").into());
    assert_eq!(extract_high_water_mark(&strategy, 1.0).unwrap(), 3.0);
    let size = extract_size_algorithm(&strategy, &ctx);
    assert!(matches!(size, SizeAlgorithm::JsFunction(_)));
    let chunk = eval(&mut ctx, "({ n: 4 })");
    assert_eq!(size.call(&chunk, &mut ctx).unwrap(), 8.0);
    // Extracting reads nothing again.
    let _ = extract_high_water_mark(&strategy, 1.0);
    let _ = extract_size_algorithm(&strategy, &ctx);
    assert_eq!(eval(&mut ctx, "log.length"), JsValue::from(3));
}

#[test]
fn conversion_errors() {
    let mut ctx = context();
    assert!(QueuingStrategy::from_value(&JsValue::from(5), &mut ctx).is_err());
    let bad_size = eval(&mut ctx, "({ size: 5 })");
    assert!(QueuingStrategy::from_value(&bad_size, &mut ctx).is_err());
    let empty = QueuingStrategy::from_value(&JsValue::undefined(), &mut ctx).unwrap();
    assert_eq!(extract_high_water_mark(&empty, 7.0).unwrap(), 7.0);
    assert!(matches!(
        extract_size_algorithm(&empty, &ctx),
        SizeAlgorithm::ReturnOne
    ));
}

#[test]
fn extract_high_water_mark_validates() {
    let nan = QueuingStrategy {
        high_water_mark: Some(f64::NAN),
        size: None,
    };
    let negative = QueuingStrategy {
        high_water_mark: Some(-1.0),
        size: None,
    };
    let infinite = QueuingStrategy {
        high_water_mark: Some(f64::INFINITY),
        size: None,
    };
    assert!(extract_high_water_mark(&nan, 1.0).is_err());
    assert!(extract_high_water_mark(&negative, 1.0).is_err());
    assert_eq!(
        extract_high_water_mark(&infinite, 1.0).unwrap(),
        f64::INFINITY
    );
}

#[test]
fn size_results_are_converted_to_numbers() {
    let mut ctx = context();
    let value = eval(&mut ctx, "({ size() { return '2.5'; } })");
    let strategy = QueuingStrategy::from_value(&value, &mut ctx).unwrap();
    let size = extract_size_algorithm(&strategy, &ctx);
    assert_eq!(size.call(&JsValue::undefined(), &mut ctx).unwrap(), 2.5);
    let throwing = eval(&mut ctx, "({ size() { throw new RangeError('no'); } })");
    let strategy = QueuingStrategy::from_value(&throwing, &mut ctx).unwrap();
    let size = extract_size_algorithm(&strategy, &ctx);
    assert!(size.call(&JsValue::undefined(), &mut ctx).is_err());
}

#[test]
fn count_strategy_size_needs_no_call() {
    let mut ctx = context();
    let value = eval(&mut ctx, "new CountQueuingStrategy({ highWaterMark: 2 })");
    let strategy = QueuingStrategy::from_value(&value, &mut ctx).unwrap();
    assert_eq!(extract_high_water_mark(&strategy, 1.0).unwrap(), 2.0);
    let size = extract_size_algorithm(&strategy, &ctx);
    if boa_webidl::fast_paths() {
        assert!(matches!(size, SizeAlgorithm::ReturnOne));
    }
    assert_eq!(size.call(&JsValue::undefined(), &mut ctx).unwrap(), 1.0);

    let value = eval(
        &mut ctx,
        "new ByteLengthQueuingStrategy({ highWaterMark: 16 })",
    );
    let strategy = QueuingStrategy::from_value(&value, &mut ctx).unwrap();
    let size = extract_size_algorithm(&strategy, &ctx);
    let chunk = eval(&mut ctx, "new Uint8Array(10)");
    assert_eq!(size.call(&chunk, &mut ctx).unwrap(), 10.0);
}

#[test]
fn shapes() {
    let mut ctx = context();
    for src in [
        "ByteLengthQueuingStrategy.length === 1 && CountQueuingStrategy.length === 1",
        "!Object.getOwnPropertyDescriptor(globalThis, 'CountQueuingStrategy').enumerable",
        "Object.getOwnPropertyDescriptor(CountQueuingStrategy.prototype, 'size').get.name === 'get size'",
        "Object.prototype.toString.call(new CountQueuingStrategy({ highWaterMark: 1 })) === '[object CountQueuingStrategy]'",
        "(() => { try { CountQueuingStrategy({ highWaterMark: 1 }); return false } catch (e) { return e instanceof TypeError } })()",
        "(() => { try { Object.getOwnPropertyDescriptor(CountQueuingStrategy.prototype, 'highWaterMark').get.call(new ByteLengthQueuingStrategy({ highWaterMark: 1 })); return false } catch (e) { return e instanceof TypeError } })()",
        "new ByteLengthQueuingStrategy({ highWaterMark: 1 }).size !== new CountQueuingStrategy({ highWaterMark: 1 }).size",
        "Object.is(new CountQueuingStrategy({ highWaterMark: -0 }).highWaterMark, -0)",
        "Object.is(new ByteLengthQueuingStrategy({ highWaterMark: '1.5' }).highWaterMark, 1.5)",
    ] {
        assert_eq!(eval(&mut ctx, src), JsValue::from(true), "{src}");
    }
}
