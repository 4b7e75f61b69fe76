//! Patch 0009-parser-depth-limit (third_party/boa/README.md): deeply nested source text is a
//! SyntaxError, not a stack overflow that aborts the process, on an embedder's default 2 MiB
//! thread stack too. Each case runs in a child process (this test binary, re-run with
//! `DEPTH_CASE` set) so an overflow fails that case instead of killing the test run.

use std::process::Command;

use boa_engine::{Context, Source};

/// The stack of a thread spawned without a size (Rust's default): the budget an embedder has.
const EMBEDDER_STACK: usize = 2 * 1024 * 1024;

/// Runs `code` in a fresh context on a thread with `EMBEDDER_STACK` bytes of stack and returns
/// what it printed: `ok <result>` or `<ErrorName>: <message>`.
fn run_on_small_stack(code: String) -> String {
    std::thread::Builder::new()
        .stack_size(EMBEDDER_STACK)
        .spawn(move || {
            let mut context = Context::default();
            match context.eval(Source::from_bytes(&code)) {
                Ok(value) => format!("ok {}", value.display()),
                Err(error) => match error.try_native(&mut context) {
                    Ok(native) => format!("{}: {}", native.kind(), native.message()),
                    Err(_) => format!("error {error}"),
                },
            }
        })
        .expect("spawn")
        .join()
        .expect("join")
}

/// The child side: runs the case named by `DEPTH_CASE` (when set) and prints its outcome.
#[test]
fn child_runner() {
    let Ok(case) = std::env::var("DEPTH_CASE") else {
        return;
    };
    let code = case_source(&case);
    println!("RESULT {}", run_on_small_stack(code));
}

/// Runs `case` in a child process; its outcome line, or how the child died.
fn run_case(case: &str) -> String {
    let output = Command::new(std::env::current_exe().expect("test binary"))
        .args(["--exact", "child_runner", "--nocapture", "--test-threads=1"])
        .env("DEPTH_CASE", case)
        .output()
        .expect("run the child");
    let stdout = String::from_utf8_lossy(&output.stdout);
    // libtest prints the line after "test child_runner ... ".
    match stdout
        .lines()
        .find_map(|line| line.split_once("RESULT ").map(|(_, result)| result))
    {
        Some(result) => result.to_owned(),
        None => format!(
            "child died ({}): {}",
            output.status,
            String::from_utf8_lossy(&output.stderr)
                .lines()
                .last()
                .unwrap_or("")
        ),
    }
}

/// `eval` of `text`, caught: the script's result is `ok` or the error's name and message.
fn eval_caught(text: &str) -> String {
    format!("try {{ eval({text:?}); 'ok' }} catch (e) {{ e.name + ': ' + e.message }}",)
}

/// The source of each case: `NAME` or `NAME:COUNT`.
fn case_source(case: &str) -> String {
    let (name, count) = case.split_once(':').unwrap_or((case, "0"));
    let n: usize = count.parse().expect("count");
    let nested = |open: &str, inner: &str, close: &str| {
        format!("{}{}{}", open.repeat(n), inner, close.repeat(n))
    };
    let text = match name {
        "parens" => nested("(", "1", ")"),
        "arrays" => nested("[", "", "]"),
        "objects" => nested("({a:", "1", "})"),
        "calls" => format!("var f = x => x; {}", nested("f(", "1", ")")),
        "blocks" => nested("{", "", "}"),
        "ifs" => format!("{}1", "if (1) ".repeat(n)),
        "functions" => nested("(function(){ return ", "1", "})()"),
        "arrows" => format!("{}1", "() => ".repeat(n)),
        "templates" => nested("`${", "1", "}`"),
        "unary_minus" => format!("{}1", "- ".repeat(n)),
        "not" => format!("{}1", "!".repeat(n)),
        "typeof" => format!("{}1", "typeof ".repeat(n)),
        "new" => format!("{}Object", "new ".repeat(n)),
        "conditional" => nested("1 ? ", "1", " : 1"),
        "assignment" => format!("var a; {}1", "a = ".repeat(n)),
        "exponent" => format!("{}1", "1 ** ".repeat(n)),
        "plus" => format!("var a = 1; {}a", "a + ".repeat(n)),
        "or" => format!("{}1", "0 || ".repeat(n)),
        "and" => format!("{}1", "1 && ".repeat(n)),
        "coalesce" => format!("{}1", "null ?? ".repeat(n)),
        "comma" => format!("{}1", "1, ".repeat(n)),
        "member" => format!("var o = {{}}; o.o = o; o{}", ".o".repeat(n)),
        "call_chain" => format!("var f = () => f; f{}", "()".repeat(n)),
        "index_chain" => format!("var o = [];o[0] = o; o{}", "[0]".repeat(n)),
        "binding_pattern" => format!("var {} = {};", nested("[", "a", "]"), nested("[", "1", "]")),
        "object_literals" => format!("var x = {};", nested("{a:", "1", "}")),
        "object_pattern" => format!("var {} = {{}};", nested("{a:", "b", "}")),
        "paren_chain" => {
            // Every level a parenthesized chain whose first operand is the next level.
            let mut text = "1".to_owned();
            for _ in 0..n {
                text = format!("({text}{})", " + 1".repeat(n));
            }
            text
        }
        "function_ctor" => {
            return format!(
                "try {{ new Function({:?}); 'ok' }} catch (e) {{ e.name + ': ' + e.message }}",
                format!("return {}", nested("(", "1", ")"))
            );
        }
        "script" => return nested("(", "1", ")"),
        other => panic!("unknown case {other}"),
    };
    eval_caught(&text)
}

#[test]
fn deep_nesting_is_a_syntax_error_not_a_crash() {
    let mut failures = Vec::new();
    for case in [
        "parens:10000",
        "arrays:100000",
        "objects:10000",
        "calls:10000",
        "blocks:10000",
        "ifs:10000",
        "functions:3000",
        "arrows:10000",
        "templates:10000",
        "unary_minus:1000000",
        "not:100000",
        "typeof:100000",
        "new:100000",
        "conditional:10000",
        "assignment:100000",
        "exponent:100000",
        "or:300000",
        "and:300000",
        "coalesce:300000",
        "binding_pattern:100000",
        "object_pattern:100000",
        "function_ctor:10000",
    ] {
        let result = run_case(case);
        if !result.starts_with("ok \"SyntaxError:") {
            failures.push(format!("{case}: {result}"));
        }
    }
    assert!(failures.is_empty(), "{failures:#?}");
}

#[test]
fn long_left_deep_chains_are_a_syntax_error_not_a_crash() {
    let mut failures = Vec::new();
    for case in [
        "plus:300000",
        "comma:300000",
        "member:300000",
        "call_chain:300000",
        "index_chain:300000",
        "paren_chain:600",
    ] {
        let result = run_case(case);
        if !result.starts_with("ok \"SyntaxError:") {
            failures.push(format!("{case}: {result}"));
        }
    }
    assert!(failures.is_empty(), "{failures:#?}");
}

#[test]
fn top_level_script_nesting_is_a_syntax_error() {
    let result = run_case("script:10000");
    assert!(result.starts_with("SyntaxError:"), "{result}");
    assert!(result.contains("nested too deeply"), "{result}");
}

#[test]
fn nesting_within_the_limit_still_runs() {
    // What a 2 MiB thread with the default parser stack limit (1 MiB) accepts: Boa's parser
    // takes ~20 KiB of stack per parenthesis level, ~50 KiB per object literal level, far less
    // per block or operator link.
    let mut failures = Vec::new();
    for case in [
        "parens:30",
        "arrays:30",
        "objects:10",
        "object_literals:15",
        "calls:30",
        "blocks:150",
        "ifs:150",
        "functions:10",
        "unary_minus:150",
        "conditional:30",
        "plus:1500",
        "comma:1500",
        "or:30",
        "member:1500",
        "call_chain:1500",
        "binding_pattern:15",
    ] {
        let result = run_case(case);
        if result != "ok \"ok\"" {
            failures.push(format!("{case}: {result}"));
        }
    }
    assert!(failures.is_empty(), "{failures:#?}");
}

#[test]
fn a_larger_stack_limit_accepts_deeper_text() {
    // The host's setting on its 256 MiB threads: a quarter of the stack for the parser.
    let result = std::thread::Builder::new()
        .stack_size(boa_streams_host::LARGE_STACK_SIZE)
        .spawn(|| {
            let mut context = Context::default();
            context
                .runtime_limits_mut()
                .set_parser_stack_limit(boa_streams_host::LARGE_STACK_PARSER_STACK_LIMIT);
            let mut outcomes = Vec::new();
            for case in ["parens:2000", "plus:100000", "parens:1000000"] {
                let code = case_source(case);
                let outcome = context
                    .eval(Source::from_bytes(&code))
                    .map(|v| v.display().to_string())
                    .unwrap_or_else(|e| e.to_string());
                outcomes.push(format!("{case}: {outcome}"));
            }
            outcomes
        })
        .expect("spawn")
        .join()
        .expect("join");
    assert_eq!(result[0], "parens:2000: \"ok\"");
    assert_eq!(result[1], "plus:100000: \"ok\"");
    assert!(
        result[2].starts_with("parens:1000000: \"SyntaxError:"),
        "{}",
        result[2]
    );
}
