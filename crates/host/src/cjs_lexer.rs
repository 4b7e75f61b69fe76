//! The named exports of a CommonJS module, found by reading its source (never running it), as
//! an ES module that imports it sees them.
//!
//! The rules (the patterns Node's loader recognises, written here from scratch):
//!
//! * `exports.NAME = …`, `exports["NAME"] = …`, `module.exports.NAME = …` and
//!   `module.exports["NAME"] = …` (not `a.exports.NAME`, not `==`);
//! * `Object.defineProperty(exports, "NAME", …)` and the same on `module.exports`;
//! * `module.exports = { a, b: …, "c": …, d() {…}, ...require("./x") }`: each key, and the
//!   spread `require` as a re-export (a computed key ends the list);
//! * re-exports: `module.exports = require("./y")`, and TypeScript's
//!   `__exportStar(require("./y"), exports)` / `__export(require("./y"))` (also as
//!   `tslib.__exportStar(…)` or `(0, tslib_1.__exportStar)(…)`).
//!
//! `__esModule` is found like any other name. The scan is token-based, so strings,
//! template literals (with nested `${…}`), comments and regular expression literals never
//! produce a name; it looks at the whole file (assignments inside functions count, as they
//! do in Node). It is linear in the source length.

/// What the scan found: export names (in first-seen order, no duplicates) and re-exported
/// specifiers.
#[derive(Debug, Default, PartialEq, Eq)]
pub(crate) struct CjsExports {
    pub(crate) names: Vec<String>,
    pub(crate) reexports: Vec<String>,
}

impl CjsExports {
    fn name(&mut self, name: String) {
        if !self.names.contains(&name) {
            self.names.push(name);
        }
    }

    fn reexport(&mut self, specifier: String) {
        if !self.reexports.contains(&specifier) {
            self.reexports.push(specifier);
        }
    }
}

#[derive(Debug, Clone, PartialEq)]
enum Token {
    Ident(String),
    Str(String),
    /// A punctuator (`=`, `==`, `=>`, `...`, `(`, ...).
    Punct(&'static str),
    /// A number, template literal or regular expression (its content does not matter).
    Other,
}

/// Punctuators, longest first.
const PUNCTS: [&str; 50] = [
    ">>>=", "...", "===", "!==", "**=", "<<=", ">>=", ">>>", "&&=", "||=", "??=", "=>", "==", "!=",
    "<=", ">=", "&&", "||", "??", "?.", "++", "--", "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=",
    "**", "<<", ">>", "{", "}", "(", ")", "[", "]", ";", ",", "<", ">", "+", "-", "*", "%", "&",
    "|", "=",
];
const SINGLE: [&str; 8] = ["!", "~", "?", ":", ".", "^", "/", "@"];

/// Keywords after which a `/` starts a regular expression.
const REGEX_AFTER: [&str; 12] = [
    "return",
    "typeof",
    "instanceof",
    "in",
    "of",
    "new",
    "delete",
    "void",
    "throw",
    "case",
    "do",
    "else",
];

fn is_ident_start(c: char) -> bool {
    c.is_alphabetic() || c == '_' || c == '$'
}

fn is_ident_part(c: char) -> bool {
    c.is_alphanumeric() || c == '_' || c == '$' || c == '\u{200c}' || c == '\u{200d}'
}

struct Lexer<'a> {
    chars: std::iter::Peekable<std::str::CharIndices<'a>>,
    text: &'a str,
    tokens: Vec<Token>,
    /// Open `${` of template literals: the brace depth at which each one closes.
    templates: Vec<usize>,
    braces: usize,
}

impl<'a> Lexer<'a> {
    fn peek(&mut self) -> Option<char> {
        self.chars.peek().map(|(_, c)| *c)
    }

    fn rest(&mut self) -> &'a str {
        let text = self.text;
        let at = self.chars.peek().map_or(text.len(), |(i, _)| *i);
        text.get(at..).unwrap_or_default()
    }

    /// Does a `/` here start a regular expression (rather than divide)?
    fn regex_allowed(&self) -> bool {
        match self.tokens.last() {
            None => true,
            Some(Token::Ident(word)) => REGEX_AFTER.contains(&word.as_str()),
            Some(Token::Str(_) | Token::Other) => false,
            Some(Token::Punct(p)) => !matches!(*p, ")" | "]" | "}" | "++" | "--"),
        }
    }

    fn string(&mut self, quote: char) -> String {
        let mut out = String::new();
        while let Some((_, c)) = self.chars.next() {
            match c {
                c if c == quote => break,
                '\\' => match self.chars.next() {
                    Some((_, 'n')) => out.push('\n'),
                    Some((_, 't')) => out.push('\t'),
                    Some((_, '\n')) | None => {}
                    Some((_, other)) => out.push(other),
                },
                '\n' => break,
                c => out.push(c),
            }
        }
        out
    }

    /// The rest of a template literal after its opening backtick or a closing `}`: stops
    /// after the closing backtick, or after `${` (pushing the brace depth to come back to).
    fn template(&mut self) {
        while let Some((_, c)) = self.chars.next() {
            match c {
                '`' => return,
                '\\' => {
                    self.chars.next();
                }
                '$' if self.peek() == Some('{') => {
                    self.chars.next();
                    self.templates.push(self.braces);
                    self.braces += 1;
                    return;
                }
                _ => {}
            }
        }
    }

    fn regex(&mut self) {
        let mut class = false;
        while let Some((_, c)) = self.chars.next() {
            match c {
                '\\' => {
                    self.chars.next();
                }
                '[' => class = true,
                ']' => class = false,
                '/' if !class => break,
                '\n' => break,
                _ => {}
            }
        }
        while self.peek().is_some_and(is_ident_part) {
            self.chars.next();
        }
    }

    fn run(mut self) -> Vec<Token> {
        while let Some(c) = self.peek() {
            if c.is_whitespace() {
                self.chars.next();
                continue;
            }
            let rest = self.rest();
            if rest.starts_with("//") || rest.starts_with("#!") && self.tokens.is_empty() {
                for (_, c) in self.chars.by_ref() {
                    if c == '\n' {
                        break;
                    }
                }
                continue;
            }
            if rest.starts_with("/*") {
                self.chars.next();
                self.chars.next();
                let mut star = false;
                for (_, c) in self.chars.by_ref() {
                    if star && c == '/' {
                        break;
                    }
                    star = c == '*';
                }
                continue;
            }
            if c == '"' || c == '\'' {
                self.chars.next();
                let s = self.string(c);
                self.tokens.push(Token::Str(s));
                continue;
            }
            if c == '`' {
                self.chars.next();
                self.template();
                self.tokens.push(Token::Other);
                continue;
            }
            if c == '/' && self.regex_allowed() {
                self.chars.next();
                self.regex();
                self.tokens.push(Token::Other);
                continue;
            }
            if is_ident_start(c) || c == '\\' || c == '#' {
                let mut word = String::new();
                while let Some(c) = self
                    .peek()
                    .filter(|c| is_ident_part(*c) || *c == '#' || *c == '\\')
                {
                    word.push(c);
                    self.chars.next();
                }
                self.tokens.push(Token::Ident(word));
                continue;
            }
            if c.is_ascii_digit()
                || (c == '.' && rest.chars().nth(1).is_some_and(|d| d.is_ascii_digit()))
            {
                while self
                    .peek()
                    .is_some_and(|c| c.is_alphanumeric() || c == '.' || c == '_')
                {
                    self.chars.next();
                }
                self.tokens.push(Token::Other);
                continue;
            }
            if c == '{' {
                self.braces += 1;
            }
            if c == '}' {
                self.braces = self.braces.saturating_sub(1);
                if self.templates.last() == Some(&self.braces) {
                    // The `}` closing a template substitution: the template goes on.
                    self.templates.pop();
                    self.chars.next();
                    self.template();
                    self.tokens.push(Token::Other);
                    continue;
                }
            }
            let punct = PUNCTS
                .iter()
                .chain(SINGLE.iter())
                .find(|p| rest.starts_with(**p))
                .copied();
            match punct {
                Some(p) => {
                    for _ in 0..p.len() {
                        self.chars.next();
                    }
                    self.tokens.push(Token::Punct(p));
                }
                None => {
                    self.chars.next();
                    self.tokens.push(Token::Other);
                }
            }
        }
        self.tokens
    }
}

fn tokenize(text: &str) -> Vec<Token> {
    Lexer {
        chars: text.char_indices().peekable(),
        text,
        tokens: Vec::new(),
        templates: Vec::new(),
        braces: 0,
    }
    .run()
}

fn ident(tokens: &[Token], i: usize) -> Option<&str> {
    match tokens.get(i) {
        Some(Token::Ident(s)) => Some(s),
        _ => None,
    }
}

fn punct(tokens: &[Token], i: usize, p: &str) -> bool {
    matches!(tokens.get(i), Some(Token::Punct(q)) if *q == p)
}

fn string(tokens: &[Token], i: usize) -> Option<&str> {
    match tokens.get(i) {
        Some(Token::Str(s)) => Some(s),
        _ => None,
    }
}

/// `require("x")` at `i`: the specifier and the index after the `)`.
fn require_call(tokens: &[Token], i: usize) -> Option<(String, usize)> {
    (ident(tokens, i) == Some("require") && punct(tokens, i + 1, "(") && punct(tokens, i + 3, ")"))
        .then(|| string(tokens, i + 2).map(|s| (s.to_owned(), i + 4)))
        .flatten()
}

/// The length of `exports` or `module.exports` at `i` (0 if neither), when not itself a
/// member of something (`a.exports`).
fn exports_ref(tokens: &[Token], i: usize) -> usize {
    if i > 0 && (punct(tokens, i - 1, ".") || punct(tokens, i - 1, "?.")) {
        return 0;
    }
    match ident(tokens, i) {
        Some("exports") => 1,
        Some("module") if punct(tokens, i + 1, ".") && ident(tokens, i + 2) == Some("exports") => 3,
        _ => 0,
    }
}

/// A member name at `i`: `.NAME` or `["NAME"]`; the name and the index after it.
fn member(tokens: &[Token], i: usize) -> Option<(String, usize)> {
    if punct(tokens, i, ".") {
        return ident(tokens, i + 1).map(|n| (n.to_owned(), i + 2));
    }
    if punct(tokens, i, "[") && punct(tokens, i + 2, "]") {
        return string(tokens, i + 1).map(|n| (n.to_owned(), i + 3));
    }
    None
}

/// Is `name` a valid export name that an importer could ask for (not `default`)?
fn exportable(name: &str) -> bool {
    !name.is_empty() && name != "default" && name.len() < 1024
}

/// Scan a CommonJS module's source for its export names and re-exports.
pub(crate) fn scan(text: &str) -> CjsExports {
    let tokens = tokenize(text);
    let mut out = CjsExports::default();
    let mut i = 0;
    while i < tokens.len() {
        let len = exports_ref(&tokens, i);
        if len > 0 {
            let after = i + len;
            // exports.NAME = / module.exports.NAME =
            if let Some((name, next)) = member(&tokens, after) {
                if punct(&tokens, next, "=") && exportable(&name) {
                    out.name(name);
                }
            } else if len == 3 && punct(&tokens, after, "=") {
                // module.exports = require("x") / module.exports = { ... }
                if let Some((specifier, _)) = require_call(&tokens, after + 1) {
                    out.reexport(specifier);
                } else if punct(&tokens, after + 1, "{") {
                    object_literal(&tokens, after + 2, &mut out);
                }
            }
            i = after;
            continue;
        }
        // Object.defineProperty(exports, "NAME", …)
        if ident(&tokens, i) == Some("Object")
            && punct(&tokens, i + 1, ".")
            && ident(&tokens, i + 2) == Some("defineProperty")
            && punct(&tokens, i + 3, "(")
        {
            let len = exports_ref(&tokens, i + 4);
            if len > 0 && punct(&tokens, i + 4 + len, ",") {
                if let Some(name) = string(&tokens, i + 5 + len).filter(|n| exportable(n)) {
                    out.name(name.to_owned());
                }
            }
            i += 4;
            continue;
        }
        // __exportStar(require("x"), exports) / __export(require("x"))
        if matches!(ident(&tokens, i), Some("__exportStar" | "__export")) {
            let mut j = i + 1;
            if punct(&tokens, j, ")") {
                // `(0, tslib_1.__exportStar)(…)`
                j += 1;
            }
            if punct(&tokens, j, "(") {
                if let Some((specifier, _)) = require_call(&tokens, j + 1) {
                    out.reexport(specifier);
                }
            }
        }
        i += 1;
    }
    out
}

/// The keys of `{ … }` from `i` (after the `{`), until the closing brace or a key this scan
/// cannot name.
fn object_literal(tokens: &[Token], mut i: usize, out: &mut CjsExports) {
    loop {
        if punct(tokens, i, "}") {
            return;
        }
        if punct(tokens, i, "...") {
            match require_call(tokens, i + 1) {
                Some((specifier, next)) => {
                    out.reexport(specifier);
                    i = next;
                }
                None => return,
            }
        } else {
            let key = match tokens.get(i) {
                Some(Token::Ident(k)) => k.clone(),
                Some(Token::Str(k)) => k.clone(),
                _ => return,
            };
            // `get x() {}` / `async x() {}`: the key is the next name.
            let key_at = match (key.as_str(), tokens.get(i + 1)) {
                ("get" | "set" | "async", Some(Token::Ident(_) | Token::Str(_))) => i + 1,
                _ => i,
            };
            let key = match tokens.get(key_at) {
                Some(Token::Ident(k) | Token::Str(k)) => k.clone(),
                _ => return,
            };
            if exportable(&key) {
                out.name(key);
            }
            i = key_at + 1;
        }
        // Skip the value (or method body) to the `,` or `}` at this depth.
        let mut depth = 0usize;
        loop {
            match tokens.get(i) {
                None => return,
                Some(Token::Punct("(" | "[" | "{")) => depth += 1,
                Some(Token::Punct(")" | "]")) => depth = depth.saturating_sub(1),
                Some(Token::Punct("}")) => {
                    if depth == 0 {
                        return;
                    }
                    depth -= 1;
                }
                Some(Token::Punct(",")) if depth == 0 => {
                    i += 1;
                    break;
                }
                _ => {}
            }
            i += 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(text: &str) -> Vec<String> {
        scan(text).names
    }

    #[test]
    fn assignments_and_define_property() {
        assert_eq!(
            names(
                "exports.a = 1; module.exports.b = 2; exports['c'] = 3;\n\
                 Object.defineProperty(exports, '__esModule', { value: true });\n\
                 Object.defineProperty(module.exports, \"d\", { enumerable: true, get() { return 1 } });\n\
                 if (exports.e == 1) {} foo.exports.f = 1; exports.default = 2;"
            ),
            ["a", "b", "c", "__esModule", "d"]
        );
    }

    #[test]
    fn object_literal_keys_and_spread_reexports() {
        let found = scan(
            "module.exports = { a, b: function () { return {x: 1}; }, 'c': [1, 2], d() {}, get e() { return 1 }, ...require('./y'), [computed]: 1, after: 2 };",
        );
        assert_eq!(found.names, ["a", "b", "c", "d", "e"]);
        assert_eq!(found.reexports, ["./y"]);
    }

    #[test]
    fn reexports() {
        let found = scan(
            "module.exports = require('./a');\n\
             __exportStar(require(\"./b\"), exports);\n\
             tslib_1.__exportStar(require('./c'), exports);\n\
             (0, tslib_1.__exportStar)(require('./d'), exports);\n\
             __export(require('./e'));",
        );
        assert_eq!(found.reexports, ["./a", "./b", "./c", "./d", "./e"]);
    }

    #[test]
    fn strings_comments_templates_and_regexes_hide_names() {
        assert_eq!(
            names(
                "// exports.a = 1\n/* exports.b = 2 */ var s = 'exports.c = 3';\n\
                 var t = `exports.d = ${ {x: 'exports.e = 1'}.x } exports.f = 1`;\n\
                 var r = /exports.g = 1/g; var q = a / b / c; exports.h = 1;\n\
                 var u = `${`${'}'}`}`; exports.i = 2;"
            ),
            ["h", "i"]
        );
        // A division is not a regex: the next statement's export is found.
        assert_eq!(names("x = a / 2; exports.j = 1; y = b / 3;"), ["j"]);
        // A regex containing a quote does not open a string.
        assert_eq!(names("x = /'/; exports.k = 1;"), ["k"]);
        assert_eq!(names("#!/usr/bin/env node\nexports.l = 1;"), ["l"]);
    }

    #[test]
    fn unterminated_input_ends_quietly() {
        for text in [
            "exports.a = '",
            "`${",
            "/* ",
            "module.exports = {",
            "exports[",
            "/",
        ] {
            let _ = scan(text);
        }
    }
}
