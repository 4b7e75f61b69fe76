//! The metadata of a test262 file: the YAML frontmatter between `/*---` and `---*/`.
//!
//! test262 uses a small subset of YAML there, which this module reads by hand: top-level
//! `key: value` lines; lists either in flow style (`features: [a, b]`) or in block style (one
//! `  - item` line each); the `negative` mapping (`  phase: parse`, `  type: SyntaxError`); and
//! block scalars (`description: |` / `>` followed by indented lines), which are skipped. Only the
//! keys a runner needs are kept: `includes`, `flags`, `features` and `negative`.

/// When a negative test's error is expected (INTERPRETING.md, `negative`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Phase {
    /// Parsing or early errors.
    Parse,
    /// Module resolution (loading and linking the module graph).
    Resolution,
    /// Evaluation.
    Runtime,
}

impl Phase {
    pub fn as_str(self) -> &'static str {
        match self {
            Phase::Parse => "parse",
            Phase::Resolution => "resolution",
            Phase::Runtime => "runtime",
        }
    }
}

/// A negative test's expected error: its phase and the name of its constructor.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Negative {
    pub phase: Phase,
    pub error: String,
}

/// The frontmatter fields a runner uses.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Meta {
    pub includes: Vec<String>,
    pub flags: Vec<String>,
    pub features: Vec<String>,
    pub negative: Option<Negative>,
}

impl Meta {
    pub fn has_flag(&self, flag: &str) -> bool {
        self.flags.iter().any(|f| f == flag)
    }

    /// Parse the frontmatter of `source`. A file without one has empty metadata; a malformed
    /// frontmatter is an error naming the problem.
    pub fn parse(source: &str) -> Result<Meta, String> {
        let Some(start) = source.find("/*---") else {
            return Ok(Meta::default());
        };
        let body_start = start + "/*---".len();
        let Some(len) = source.get(body_start..).and_then(|rest| rest.find("---*/")) else {
            return Err("frontmatter `/*---` without its closing `---*/`".to_owned());
        };
        let body = source.get(body_start..body_start + len).unwrap_or_default();
        parse_body(body)
    }
}

/// The number of leading spaces of a line.
fn indent(line: &str) -> usize {
    line.len() - line.trim_start_matches(' ').len()
}

/// `[a, b, "c"]` (possibly without its closing bracket when the list goes on over more lines,
/// which the caller joins first).
fn flow_list(value: &str) -> Result<Vec<String>, String> {
    let inner = value
        .trim()
        .strip_prefix('[')
        .and_then(|v| v.strip_suffix(']'))
        .ok_or_else(|| format!("expected a list in brackets, found {value:?}"))?;
    Ok(inner
        .split(',')
        .map(unquote)
        .filter(|s| !s.is_empty())
        .collect())
}

/// A plain or quoted scalar, without its quotes and a trailing comment.
fn unquote(s: &str) -> String {
    let s = s.trim();
    for q in ['"', '\''] {
        if let Some(inner) = s.strip_prefix(q).and_then(|v| v.strip_suffix(q)) {
            return inner.to_owned();
        }
    }
    match s.find(" #") {
        Some(i) => s.get(..i).unwrap_or_default().trim().to_owned(),
        None => s.to_owned(),
    }
}

fn parse_body(body: &str) -> Result<Meta, String> {
    let mut meta = Meta::default();
    let lines: Vec<&str> = body.lines().collect();
    let mut i = 0;
    while let Some(line) = lines.get(i) {
        i += 1;
        let trimmed = line.trim();
        if trimmed.is_empty() || trimmed.starts_with('#') || indent(line) > 0 {
            // Blank, comment, or the body of a key this parser skips.
            continue;
        }
        let Some((key, value)) = line.split_once(':') else {
            continue;
        };
        let key = key.trim();
        let mut value = value.trim().to_owned();
        // The indented lines that belong to this key.
        let mut nested = Vec::new();
        while let Some(next) = lines.get(i) {
            if next.trim().is_empty() || indent(next) > 0 {
                nested.push(*next);
                i += 1;
            } else {
                break;
            }
        }
        if !matches!(key, "includes" | "flags" | "features" | "negative") {
            continue;
        }
        if key == "negative" {
            meta.negative = Some(parse_negative(&value, &nested)?);
            continue;
        }
        let list = if value.starts_with('[') {
            // A flow list may continue on the indented lines.
            if !value.contains(']') {
                for n in &nested {
                    value.push(' ');
                    value.push_str(n.trim());
                }
            }
            flow_list(&value)?
        } else if value.is_empty() {
            let mut items = Vec::new();
            for n in nested.iter().map(|n| n.trim()).filter(|n| !n.is_empty()) {
                if n.starts_with('#') {
                    continue;
                }
                let item = n
                    .strip_prefix('-')
                    .ok_or_else(|| format!("`{key}`: expected `- item`, found {n:?}"))?;
                items.push(unquote(item));
            }
            items
        } else {
            return Err(format!("`{key}`: expected a list, found {value:?}"));
        };
        match key {
            "includes" => meta.includes.extend(list),
            "flags" => meta.flags.extend(list),
            _ => meta.features.extend(list),
        }
    }
    Ok(meta)
}

fn parse_negative(value: &str, nested: &[&str]) -> Result<Negative, String> {
    let mut phase = None;
    let mut error = None;
    let mut pairs: Vec<(String, String)> = Vec::new();
    if let Some(inner) = value
        .strip_prefix('{')
        .and_then(|v| v.trim_end().strip_suffix('}'))
    {
        for part in inner.split(',') {
            if let Some((k, v)) = part.split_once(':') {
                pairs.push((k.trim().to_owned(), unquote(v)));
            }
        }
    } else if !value.is_empty() {
        return Err(format!("`negative`: expected a mapping, found {value:?}"));
    }
    for n in nested.iter().map(|n| n.trim()).filter(|n| !n.is_empty()) {
        if let Some((k, v)) = n.split_once(':') {
            pairs.push((k.trim().to_owned(), unquote(v)));
        }
    }
    for (k, v) in pairs {
        match k.as_str() {
            "phase" => {
                phase = Some(match v.as_str() {
                    "parse" | "early" => Phase::Parse,
                    "resolution" => Phase::Resolution,
                    "runtime" => Phase::Runtime,
                    other => return Err(format!("`negative`: unknown phase {other:?}")),
                })
            }
            "type" => error = Some(v),
            _ => {}
        }
    }
    match (phase, error) {
        (Some(phase), Some(error)) if !error.is_empty() => Ok(Negative { phase, error }),
        _ => Err("`negative` needs both `phase` and `type`".to_owned()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_flow_and_block_lists_and_skips_block_scalars() {
        let src = "// c\n/*---\nesid: x\ndescription: |\n  features: [not, this]\n  flags: [nor-this]\ninfo: >\n  text: here\nincludes: [propertyHelper.js, compareArray.js]\nflags: [onlyStrict, async]\nfeatures:\n  - Symbol.toStringTag\n  - 'class'\n\n---*/\nx;";
        let m = Meta::parse(src).unwrap();
        assert_eq!(m.includes, ["propertyHelper.js", "compareArray.js"]);
        assert_eq!(m.flags, ["onlyStrict", "async"]);
        assert_eq!(m.features, ["Symbol.toStringTag", "class"]);
        assert!(m.has_flag("async") && !m.has_flag("module"));
        assert_eq!(m.negative, None);
    }

    #[test]
    fn reads_negative_in_block_and_flow_style() {
        let block =
            "/*---\nnegative:\n    phase: parse\n    type: SyntaxError\nfeatures: [a]\n---*/";
        let m = Meta::parse(block).unwrap();
        assert_eq!(
            m.negative,
            Some(Negative {
                phase: Phase::Parse,
                error: "SyntaxError".into()
            })
        );
        assert_eq!(m.features, ["a"]);
        let flow = "/*---\nnegative: {phase: resolution, type: ReferenceError}\n---*/";
        let n = Meta::parse(flow).unwrap().negative.unwrap();
        assert_eq!(n.phase, Phase::Resolution);
        assert_eq!(n.error, "ReferenceError");
    }

    #[test]
    fn a_flow_list_may_span_lines_and_a_file_may_have_no_frontmatter() {
        let m = Meta::parse("/*---\nfeatures: [a,\n  b, c]\n---*/").unwrap();
        assert_eq!(m.features, ["a", "b", "c"]);
        assert_eq!(Meta::parse("plain();").unwrap(), Meta::default());
    }

    #[test]
    fn malformed_frontmatter_is_an_error() {
        assert!(Meta::parse("/*---\nflags: [x]\n").is_err());
        assert!(Meta::parse("/*---\nnegative:\n  phase: parse\n---*/").is_err());
        assert!(Meta::parse("/*---\nnegative:\n  phase: later\n  type: X\n---*/").is_err());
        assert!(Meta::parse("/*---\nflags: raw\n---*/").is_err());
        assert!(Meta::parse("/*---\nfeatures:\n  nope\n---*/").is_err());
    }
}
