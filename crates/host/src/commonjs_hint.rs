//! The hint added to an uncaught `ReferenceError` for a name only CommonJS defines
//! (`require is not defined`, ...). A leaf: the event loop's error record uses it.

/// The names CommonJS modules use that the host does not define, as the message of the
/// `ReferenceError` a CommonJS file throws when run here.
const COMMONJS_NAMES: [&str; 5] = ["require", "module", "exports", "__dirname", "__filename"];

/// A hint to add to an uncaught `ReferenceError: require is not defined` (or `module`,
/// `exports`, `__dirname`, `__filename`): CommonJS is not supported. When the innermost frame
/// of `stack` names a file whose text calls `require("…")`, the hint names that specifier.
pub(crate) fn commonjs_hint(message: &str, stack: Option<&str>) -> Option<String> {
    let name = message
        .strip_prefix("ReferenceError: ")?
        .strip_suffix(" is not defined")?;
    if !COMMONJS_NAMES.contains(&name) {
        return None;
    }
    let file = stack.and_then(|stack| {
        stack
            .lines()
            .map(str::trim)
            .filter_map(|l| l.strip_prefix("at "))
            .find_map(|l| {
                let place = l.rsplit_once(" (").map_or(l, |(_, p)| p);
                let place = place.strip_suffix(')').unwrap_or(place);
                let file = place.split(':').next()?;
                (!file.is_empty() && file != "native").then(|| file.to_owned())
            })
    });
    let specifier = file
        .as_deref()
        .and_then(|f| std::fs::read_to_string(f).ok())
        .and_then(|text| first_require_specifier(&text));
    let what = match specifier {
        Some(s) => format!("require(\"{s}\")"),
        None => format!("`{name}`"),
    };
    let place = file.map_or_else(String::new, |f| format!(" in {f}"));
    Some(format!(
        "\n  {what}{place}: CommonJS names (require, module, exports) exist only in CommonJS \
         modules: a .cjs file, or a .js file under a package.json with \"type\": \"commonjs\" \
         (or imported or required from one); here, use `import`"
    ))
}

/// The string literal of the first `require('…')` / `require("…")` call in `text`.
fn first_require_specifier(text: &str) -> Option<String> {
    let mut rest = text;
    while let Some((head, tail)) = rest.split_once("require(") {
        let before = head.chars().next_back();
        let after = tail.trim_start();
        rest = tail;
        if before.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == '$' || c == '.') {
            continue;
        }
        let mut chars = after.chars();
        let quote = chars.next().filter(|q| *q == '"' || *q == '\'')?;
        let body: String = chars.take_while(|c| *c != quote && *c != '\n').collect();
        if !body.is_empty() && body.len() < 256 {
            return Some(body);
        }
    }
    None
}
