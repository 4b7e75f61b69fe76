//! Cursor implementation for the parser.
mod buffered_lexer;

use crate::{
    Error,
    lexer::{InputElement, Lexer, Token, TokenKind},
    parser::{OrAbrupt, ParseResult},
    source::ReadChar,
};
use boa_ast::{LinearPosition, Position, PositionGroup, Punctuator, Spanned};
use boa_interner::Interner;
use buffered_lexer::BufferedLexer;

/// The result of a peek for a semicolon.
#[derive(Debug)]
pub(super) enum SemicolonResult<'s> {
    Found(Option<&'s Token>),
    NotFound(&'s Token),
}

/// Token cursor.
///
/// This internal structure gives basic testable operations to the parser.
#[derive(Debug)]
pub(super) struct Cursor<R> {
    buffered_lexer: BufferedLexer<R>,

    /// Tracks if the cursor is in a arrow function declaration.
    arrow: bool,

    /// Indicate if the cursor is used in `JSON.parse`.
    json_parse: bool,

    /// A unique identifier for each parser instance.
    /// This is used to generate unique identifiers tagged template literals.
    identifier: u32,

    /// Tracks the number of tagged templates that are currently being parsed.
    tagged_templates_count: u32,

    /// How deep the parser is nested now (see [`Cursor::nested`]).
    nesting: u32,

    /// The deepest nesting reached since the innermost operator chain began (see
    /// [`Cursor::start_chain`]).
    nesting_peak: u32,

    /// The deepest nesting accepted: [`Cursor::stack_limit`] / [`STACK_PER_LEVEL`].
    nesting_limit: u32,

    /// The bytes of native stack the parser may use below the point where it began.
    stack_limit: usize,

    /// The address of the stack where the parser began: set at the first nesting level.
    stack_base: Option<usize>,
}

/// The default of [`Cursor::set_stack_limit`]: 1 MiB, half the stack of a thread spawned with
/// Rust's default size.
pub(super) const DEFAULT_STACK_LIMIT: usize = 1024 * 1024;

/// The native stack the passes after the parser (scope analysis, bytecompiler, dropping the
/// AST) use per level of AST depth, with a margin: they recurse once per level, so the AST may
/// be `stack_limit / STACK_PER_LEVEL` levels deep.
const STACK_PER_LEVEL: usize = 512;

/// An operator chain being parsed: see [`Cursor::start_chain`].
#[derive(Debug)]
pub(super) struct Chain {
    /// The nesting when the chain began.
    nesting: u32,
    /// The deepest nesting reached before the chain began.
    outer_peak: u32,
    /// The chain's links (operators) so far.
    links: u32,
}

impl<R> Cursor<R>
where
    R: ReadChar,
{
    /// Creates a new cursor with the given reader.
    pub(super) fn new(reader: R) -> Self {
        Self {
            buffered_lexer: Lexer::new(reader).into(),
            arrow: false,
            json_parse: false,
            identifier: 0,
            tagged_templates_count: 0,
            nesting: 0,
            nesting_peak: 0,
            nesting_limit: (DEFAULT_STACK_LIMIT / STACK_PER_LEVEL) as u32,
            stack_limit: DEFAULT_STACK_LIMIT,
            stack_base: None,
        }
    }

    /// Sets how many bytes of native stack the parser may use, which bounds how deeply the
    /// source text may nest (see [`Cursor::nested`]).
    pub(super) fn set_stack_limit(&mut self, bytes: usize) {
        self.stack_limit = bytes;
        self.nesting_limit = u32::try_from(bytes / STACK_PER_LEVEL).unwrap_or(u32::MAX);
    }

    /// The SyntaxError for source text nested too deeply.
    fn too_deep(&mut self, interner: &mut Interner) -> Error {
        let position = match self.peek(0, interner) {
            Ok(Some(token)) => token.span().start(),
            _ => Position::default(),
        };
        Error::general("the source text is nested too deeply", position)
    }

    /// Runs `parse` one nesting level deeper. The recursive productions (expressions,
    /// statements, unary operators, binding patterns) parse their nested parts through this, so
    /// deeply nested source text is a SyntaxError instead of a native stack overflow: when the
    /// parser has used more than its stack limit since it began, or when the AST would nest
    /// deeper than the later passes can recurse in that much stack.
    pub(super) fn nested<T>(
        &mut self,
        interner: &mut Interner,
        parse: impl FnOnce(&mut Self, &mut Interner) -> ParseResult<T>,
    ) -> ParseResult<T> {
        let marker = 0u8;
        let here = std::ptr::addr_of!(marker) as usize;
        let base = *self.stack_base.get_or_insert(here);
        // The stack grows down on the platforms Rust supports.
        if self.nesting >= self.nesting_limit || base.saturating_sub(here) > self.stack_limit {
            return Err(self.too_deep(interner));
        }
        self.nesting += 1;
        self.nesting_peak = self.nesting_peak.max(self.nesting);
        let result = parse(self, interner);
        self.nesting -= 1;
        result
    }

    /// Begins a left-deep operator chain (`a + b + c`: `(a + b) + c`), whose AST is at most as
    /// deep as it has links ([`Cursor::link_chain`]) plus its deepest operand;
    /// [`Cursor::end_chain`] checks that.
    pub(super) fn start_chain(&mut self) -> Chain {
        let chain = Chain {
            nesting: self.nesting,
            outer_peak: self.nesting_peak,
            links: 0,
        };
        self.nesting_peak = self.nesting;
        chain
    }

    /// Begins a chain whose first operand was just parsed: its depth is in the current peak
    /// (a call expression's tail after its member expression).
    pub(super) fn continue_chain(&mut self) -> Chain {
        Chain {
            nesting: self.nesting,
            outer_peak: self.nesting_peak,
            links: 0,
        }
    }

    /// Counts one more link of `chain`.
    pub(super) fn link_chain(
        &mut self,
        chain: &mut Chain,
        interner: &mut Interner,
    ) -> ParseResult<()> {
        chain.links += 1;
        // Fail early: the chain is already too deep whatever its operands.
        if self.nesting.saturating_add(chain.links) > self.nesting_limit {
            return Err(self.too_deep(interner));
        }
        Ok(())
    }

    /// Ends `chain`: a SyntaxError if its AST, as deep as its links plus its deepest operand,
    /// nests deeper than the limit.
    pub(super) fn end_chain(&mut self, chain: Chain, interner: &mut Interner) -> ParseResult<()> {
        // The operands nest at most `nesting_peak - chain.nesting` levels deep.
        let depth = self.nesting_peak.saturating_add(chain.links);
        self.nesting = chain.nesting;
        self.nesting_peak = chain.outer_peak.max(depth);
        if depth > self.nesting_limit {
            return Err(self.too_deep(interner));
        }
        Ok(())
    }

    /// Sets the goal symbol of the cursor to `Module`.
    pub(super) fn set_module(&mut self) {
        self.buffered_lexer.set_module(true);
    }

    /// Returns `true` if the cursor is currently parsing a `Module`.
    pub(super) const fn module(&self) -> bool {
        self.buffered_lexer.module()
    }

    pub(super) fn set_goal(&mut self, elm: InputElement) {
        self.buffered_lexer.set_goal(elm);
    }

    /// Lexes the next tokens as a regex assuming that the starting '/' has already been consumed.
    /// If `init_with_eq` is `true`, then assuming that the starting '/=' has already been consumed.
    pub(super) fn lex_regex(
        &mut self,
        start: PositionGroup,
        interner: &mut Interner,
        init_with_eq: bool,
    ) -> ParseResult<Token> {
        self.buffered_lexer.lex_regex(start, interner, init_with_eq)
    }

    pub(super) fn lex_template(
        &mut self,
        start: PositionGroup,
        interner: &mut Interner,
    ) -> ParseResult<Token> {
        self.buffered_lexer.lex_template(start, interner)
    }

    /// Advances the cursor and returns the next token.
    pub(super) fn next(&mut self, interner: &mut Interner) -> ParseResult<Option<Token>> {
        self.buffered_lexer.next(true, interner)
    }

    /// Advances the cursor without returning the next token.
    ///
    /// # Panics
    ///
    /// This function will panic if there is no further token in the cursor.
    #[track_caller]
    pub(super) fn advance(&mut self, interner: &mut Interner) {
        self.next(interner)
            .expect("tried to advance cursor, but the buffer was empty");
    }

    /// Peeks a future token, without consuming it or advancing the cursor.
    /// This peeking **skips** line terminators.
    ///
    /// You can skip some tokens with the `skip_n` option.
    pub(super) fn peek(
        &mut self,
        skip_n: usize,
        interner: &mut Interner,
    ) -> ParseResult<Option<&Token>> {
        self.buffered_lexer.peek(skip_n, true, interner)
    }

    /// Peeks a future token, without consuming it or advancing the cursor.
    /// This peeking **does not skips** line terminators.
    ///
    /// You can skip some tokens with the `skip_n` option.
    pub(super) fn peek_no_skip_line_term(
        &mut self,
        skip_n: usize,
        interner: &mut Interner,
    ) -> ParseResult<Option<&Token>> {
        self.buffered_lexer.peek(skip_n, false, interner)
    }

    /// Gets the current strict mode for the cursor.
    pub(super) const fn strict(&self) -> bool {
        self.buffered_lexer.strict()
    }

    /// Sets the strict mode to strict or non-strict.
    pub(super) fn set_strict(&mut self, strict: bool) {
        self.buffered_lexer.set_strict(strict);
    }

    /// Returns if the cursor is currently in an arrow function declaration.
    pub(super) const fn arrow(&self) -> bool {
        self.arrow
    }

    /// Set if the cursor is currently in a arrow function declaration.
    pub(super) fn set_arrow(&mut self, arrow: bool) {
        self.arrow = arrow;
    }

    /// Returns if the cursor is currently used in `JSON.parse`.
    pub(super) const fn json_parse(&self) -> bool {
        self.json_parse
    }

    /// Set if the cursor is currently used in `JSON.parse`.
    pub(super) fn set_json_parse(&mut self, json_parse: bool) {
        self.json_parse = json_parse;
    }

    /// Set the identifier of the cursor.
    #[inline]
    pub(super) fn set_identifier(&mut self, identifier: u32) {
        self.identifier = identifier;
    }

    /// Get the identifier for a tagged template.
    #[inline]
    pub(super) fn tagged_template_identifier(&mut self) -> u64 {
        self.tagged_templates_count += 1;

        let identifier = u64::from(self.identifier);
        let count = u64::from(self.tagged_templates_count);

        (count << 32) | identifier
    }

    /// Returns an error if the next token is not of kind `kind`.
    pub(super) fn expect<K>(
        &mut self,
        kind: K,
        context: &'static str,
        interner: &mut Interner,
    ) -> ParseResult<Token>
    where
        K: Into<TokenKind>,
    {
        let next_token = self.next(interner).or_abrupt()?;
        let kind = kind.into();

        if next_token.kind() == &kind {
            Ok(next_token)
        } else {
            Err(Error::expected(
                [kind.to_string(interner)],
                next_token.to_string(interner),
                next_token.span(),
                context,
            ))
        }
    }

    /// It will peek for the next token, to see if it's a semicolon.
    ///
    /// It will automatically insert a semicolon if needed, as specified in the [spec][spec].
    ///
    /// [spec]: https://tc39.es/ecma262/#sec-automatic-semicolon-insertion
    pub(super) fn peek_semicolon(
        &mut self,
        interner: &mut Interner,
    ) -> ParseResult<SemicolonResult<'_>> {
        self.peek_no_skip_line_term(0, interner)?
            .map_or(Ok(SemicolonResult::Found(None)), |tk| match tk.kind() {
                TokenKind::Punctuator(Punctuator::Semicolon | Punctuator::CloseBlock)
                | TokenKind::LineTerminator => Ok(SemicolonResult::Found(Some(tk))),
                _ => Ok(SemicolonResult::NotFound(tk)),
            })
    }

    /// Consumes the next token if it is a semicolon, or returns a `Error` if it's not.
    ///
    /// It will automatically insert a semicolon if needed, as specified in the [spec][spec].
    ///
    /// [spec]: https://tc39.es/ecma262/#sec-automatic-semicolon-insertion
    pub(super) fn expect_semicolon(
        &mut self,
        context: &'static str,
        interner: &mut Interner,
    ) -> ParseResult<()> {
        match self.peek_semicolon(interner)? {
            SemicolonResult::Found(Some(tk)) => match *tk.kind() {
                TokenKind::Punctuator(Punctuator::Semicolon) | TokenKind::LineTerminator => {
                    let _next = self.buffered_lexer.next(false, interner)?;
                    Ok(())
                }
                _ => Ok(()),
            },
            SemicolonResult::Found(None) => Ok(()),
            SemicolonResult::NotFound(tk) => Err(Error::expected(
                [";".to_owned()],
                tk.to_string(interner),
                tk.span(),
                context,
            )),
        }
    }

    /// It will make sure that the peeked token (skipping n tokens) is not a line terminator.
    ///
    /// It expects that the token stream does not end here.
    ///
    /// This is just syntactic sugar for a `.peek(skip_n)` call followed by a check that the result
    /// is not a line terminator or `None`.
    pub(super) fn peek_expect_no_lineterminator(
        &mut self,
        skip_n: usize,
        context: &'static str,
        interner: &mut Interner,
    ) -> ParseResult<&Token> {
        let tok = self.peek_no_skip_line_term(skip_n, interner).or_abrupt()?;

        if tok.kind() == &TokenKind::LineTerminator {
            Err(Error::unexpected(
                tok.to_string(interner),
                tok.span(),
                context,
            ))
        } else {
            Ok(tok)
        }
    }

    /// Check if the peeked token is a line terminator.
    pub(super) fn peek_is_line_terminator(
        &mut self,
        skip_n: usize,
        interner: &mut Interner,
    ) -> ParseResult<Option<bool>> {
        self.peek_no_skip_line_term(skip_n, interner)?
            .map_or(Ok(None), |t| {
                Ok(Some(t.kind() == &TokenKind::LineTerminator))
            })
    }

    /// Advance the cursor to the next token and retrieve it, only if it's of `kind` type.
    ///
    /// When the next token is a `kind` token, get the token, otherwise return `None`.
    ///
    /// No next token also returns None.
    pub(super) fn next_if<K>(
        &mut self,
        kind: K,
        interner: &mut Interner,
    ) -> ParseResult<Option<Token>>
    where
        K: Into<TokenKind>,
    {
        if let Some(token) = self.peek(0, interner)?
            && token.kind() == &kind.into()
        {
            self.next(interner)
        } else {
            Ok(None)
        }
    }

    /// Gets current linear position in the source code.
    #[inline]
    pub(super) fn linear_pos(&self) -> LinearPosition {
        self.buffered_lexer.linear_pos()
    }

    pub(super) fn take_source(&mut self) -> boa_ast::SourceText {
        self.buffered_lexer.take_source()
    }
}
