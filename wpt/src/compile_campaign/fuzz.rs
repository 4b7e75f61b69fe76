//! The parser fuzzer: mutants of real files (the campaign's corpus), made by a seeded
//! generator so that a run can be repeated. Each mutant takes one to four edits: a range
//! deleted, a range duplicated, a piece of JavaScript syntax inserted (brackets, keywords,
//! operators, template and regular-expression starts), or a range wrapped in brackets. Most
//! mutants are syntax errors; the point is that none may panic, crash or hang the engine.

use std::path::PathBuf;

use super::compile::{Goal, Request};

/// Pieces of syntax the fuzzer inserts.
const PIECES: &[&str] = &[
    "(",
    ")",
    "{",
    "}",
    "[",
    "]",
    "=>",
    "async ",
    "await ",
    "yield ",
    "yield* ",
    "function ",
    "function* ",
    "class ",
    "extends ",
    "let ",
    "const ",
    "var ",
    "using ",
    "await using ",
    "for (let i of x) ",
    "for await (const x of y) ",
    "#p",
    "?.",
    "??=",
    "...",
    "/re/g",
    "`",
    "${",
    "'",
    "\"",
    "\\u0061",
    "0n",
    "@",
    "import(",
    "import.meta",
    "new.target",
    "super",
    "static {",
    "get ",
    "set ",
    "*",
    "l: ",
    "break ",
    "continue ",
    "return ",
    "throw ",
    "try {",
    "} finally {",
    "} catch {",
    "with (",
    "delete ",
    " in ",
    " of ",
    "=",
    ",",
    ";",
    "\n",
    "0.",
    "?",
    ":",
    "!",
    "-",
    "++",
    "--",
    "**",
    "<",
    "</",
    "-->",
    "<!--",
    "export ",
    "import ",
    "default ",
    "arguments",
    "eval",
    "this",
    "new ",
    "typeof ",
    "void ",
    "switch (x) {",
    "case 1:",
    "if (a) ",
    "else ",
    "do ",
    "while (0) ",
    "label: {",
    "\\",
    "#!",
    "/*",
    "*/",
    "//",
];

/// A small seeded generator (xorshift64*).
struct Rng(u64);

impl Rng {
    fn new(seed: u64) -> Rng {
        Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }

    fn next(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.0 = x;
        x.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    /// A number in `0..n` (0 when `n` is 0).
    fn below(&mut self, n: usize) -> usize {
        if n == 0 {
            0
        } else {
            (self.next() % n as u64) as usize
        }
    }
}

/// The mutants, made one at a time as the pool asks for them.
pub struct Mutants {
    files: Vec<PathBuf>,
    left: usize,
    made: usize,
    rng: Rng,
    max_bytes: usize,
}

impl Mutants {
    pub fn new(files: Vec<PathBuf>, count: usize, seed: u64, max_bytes: usize) -> Mutants {
        Mutants {
            files,
            left: count,
            made: 0,
            rng: Rng::new(seed),
            max_bytes,
        }
    }
}

impl Iterator for Mutants {
    type Item = Request;

    fn next(&mut self) -> Option<Request> {
        if self.left == 0 || self.files.is_empty() {
            return None;
        }
        self.left -= 1;
        self.made += 1;
        let file = self.files.get(self.rng.below(self.files.len()))?.clone();
        let text = std::fs::read(&file)
            .map(|b| String::from_utf8_lossy(&b).into_owned())
            .unwrap_or_default();
        let text = prefix(&text, self.max_bytes);
        let source = mutate(&text, &mut self.rng);
        let path = file.to_string_lossy().into_owned();
        Some(Request {
            goal: Goal::of_path(&path),
            path: format!("{path}#mutant-{}", self.made),
            source: Some(source),
        })
    }
}

/// The longest prefix of `text` of at most `max` bytes that ends on a character boundary.
fn prefix(text: &str, max: usize) -> String {
    let mut end = text.len().min(max);
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    text.get(..end).unwrap_or_default().to_owned()
}

/// A character boundary of `text` at or before `at`.
fn boundary(text: &str, at: usize) -> usize {
    let mut at = at.min(text.len());
    while !text.is_char_boundary(at) {
        at -= 1;
    }
    at
}

/// One to four edits of `text`.
fn mutate(text: &str, rng: &mut Rng) -> String {
    let mut out = text.to_owned();
    for _ in 0..=rng.below(4) {
        let at = boundary(&out, rng.below(out.len() + 1));
        let len = 1 + rng.below(64);
        let end = boundary(&out, at + len);
        match rng.below(4) {
            0 => {
                out.replace_range(at..end, "");
            }
            1 => {
                let piece = out.get(at..end).unwrap_or_default().to_owned();
                out.insert_str(at, &piece);
            }
            2 => {
                let piece = PIECES.get(rng.below(PIECES.len())).copied().unwrap_or("(");
                out.insert_str(at, piece);
            }
            _ => {
                let (open, close) = match rng.below(3) {
                    0 => ("(", ")"),
                    1 => ("[", "]"),
                    _ => ("{", "}"),
                };
                out.insert_str(end, close);
                out.insert_str(at, open);
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mutants_are_repeatable_and_change_the_text() {
        let text = "const a = [1, 2, 3].map((x) => x * 2);\nexport default a;\n";
        let one: Vec<String> = (0..20)
            .scan(Rng::new(5), |rng, _| Some(mutate(text, rng)))
            .collect();
        let two: Vec<String> = (0..20)
            .scan(Rng::new(5), |rng, _| Some(mutate(text, rng)))
            .collect();
        assert_eq!(one, two);
        assert!(one.iter().any(|m| m != text));
    }

    #[test]
    fn edits_respect_character_boundaries() {
        let text = "const s = 'é😀ü'; // ß";
        let mut rng = Rng::new(9);
        let mut changed = 0;
        for _ in 0..500 {
            // An edit at a non-boundary index would panic; each edit at most doubles the text
            // and adds a piece of syntax.
            let m = mutate(text, &mut rng);
            assert!(m.len() <= 16 * text.len() + 4 * 32, "{m}");
            changed += usize::from(m != text);
        }
        assert!(changed > 400, "{changed}");
        assert_eq!(prefix("aé", 2), "a");
    }
}
