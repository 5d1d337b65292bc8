//! The cost table: what each reading of a reply costs. One table decides every ambiguous spot.
//!
//! At a spot where the text can be read several ways (does this quote end the string? does this
//! `}` close the array, the object, or nothing?), the parser compares the readings by the total
//! cost of the repairs each needs over the next stretch of text ([`WINDOW`] bytes), found by a
//! bounded search over the same grammar (`search.rs`), and takes the cheapest. A new fault is
//! handled by this table, not by a new special case.
//!
//! The costs say how unusual a mistake is in model output: a quote kept as text inside a string
//! (quoted speech, code) is common, a stray quote less so, a key holding a quote almost never
//! happens. Cosmetic repairs cost 1, structural ones 2–5, discarding content costs by what it
//! discards. Ties go to the reading listed first (the plain one). `ARCHITECTURE.md` carries the
//! same table.

/// A cost, in units of "one ordinary repair" ≈ 3.
pub(crate) type Cost = u32;

// --- conventions --------------------------------------------------------------------------
/// A convention other than JSON's, used consistently: strings in single quotes, smart quotes,
/// backticks or `\"`; keys without quotes; Python or JavaScript literals. Charged once per
/// convention in the stretch compared, not per use: a model that writes one single-quoted
/// string writes them all, and a reading that swallows such a stretch into one string must not
/// look cheaper for it.
pub(crate) const STYLE: Cost = 2;

// --- cosmetic (allowed at level `conservative`) ---------------------------------------------
/// A comment; plus [`LOST_STRUCTURE`] for each mark of JSON its body swallows (a closer,
/// `"key":`, `, "`): a comment may quote words, it should not hold members. A comment that is
/// data commented out on purpose (ended by `*/` or a line break, starting with a member or an
/// item, closing nothing it did not open) pays [`DRAFT_MARK`] per mark instead: the model
/// abandoned it as it abandons a draft.
pub(crate) const COMMENT: Cost = 1;
/// A comma before a closer.
pub(crate) const TRAILING_COMMA: Cost = 1;
/// A container left open at the end of the reply (per container).
pub(crate) const CLOSE_AT_END: Cost = 1;
/// A number or literal cut off by the end of the reply.
pub(crate) const CUT_TOKEN: Cost = 1;
/// A string cut off by the end of the reply, plus [`LOST_STRUCTURE`] for each bracket (and
/// quote of another kind) it swallowed: a cut is cheap for text, not for a string that ran over
/// what looks like JSON (a reply cut exactly after a closer is rare).
pub(crate) const CUT_STRING: Cost = 1;

// --- value spelling ---------------------------------------------------------------------------
/// `.5`, `+1`, `0789`: a number JSON does not allow.
pub(crate) const ODD_NUMBER: Cost = 1;
/// `1,299.99`: a number with thousands separators, besides its convention (charged once per
/// document): more than a leading-zero item, so that where the comma can separate two values
/// (`[1,000]`) it does.
pub(crate) const GROUPED_NUMBER: Cost = 1;
/// `...` standing for omitted items.
pub(crate) const ELLIPSIS: Cost = 1;
/// `"a" + "b"`.
pub(crate) const CONCATENATION: Cost = 1;
/// `ObjectId("…")`, JSONP `callback(…)`.
pub(crate) const FUNCTION_WRAPPER: Cost = 1;

// --- structure --------------------------------------------------------------------------------
/// A doubled comma, or a colon doubled.
pub(crate) const EXTRA_PUNCTUATION: Cost = 2;
/// A typographic quote closing an ASCII-opened string, or the reverse (`"prices go up”`).
pub(crate) const MIXED_CLOSE: Cost = 2;
/// A missing `,` between two values.
pub(crate) const MISSING_COMMA: Cost = 2;
/// A missing `:` after a key.
pub(crate) const MISSING_COLON: Cost = 3;
/// A missing closer, added before the token that shows it (`{"a": [1, "b": 2}`).
pub(crate) const MISSING_CLOSER: Cost = 3;
/// A closer of the wrong kind used as the right one (`["a", "b"}`).
pub(crate) const MISMATCHED_CLOSER: Cost = 3;
/// Added to a closer reading that the layout contradicts: a closer in line with its container's
/// opening line read as an outer one's, or one further left read as the container's own.
pub(crate) const MISALIGNED_CLOSER: Cost = 2;
/// Added to a reading that closes a list of objects at a closer after which the next item
/// begins as the list's first item did (`}}}, {"id": …` in a list of `{"id": …}`): the model's
/// records go on, so the closer is more likely doubled than the list ended.
pub(crate) const LIST_GOES_ON: Cost = 2;
/// A string that lost its closing quote, ended at the delimiter before the next quote.
pub(crate) const MISSING_END_QUOTE: Cost = 3;
/// A word value without quotes; also one that lost only its opening quote.
pub(crate) const UNQUOTED_VALUE: Cost = 3;
/// A quote kept as text inside a string value. Charged once per pair of text quotes: what is
/// unusual is a quoted span inside text (`"He said "yes""`), not each of its two quotes.
pub(crate) const TEXT_QUOTE: Cost = 3;
/// [`TEXT_QUOTE`] in a string whose text is itself JSON (`"{"query": "x"}"`: tool arguments
/// stringified without escaping): its quotes are text by nature.
pub(crate) const TEXT_QUOTE_IN_JSON_TEXT: Cost = 1;
/// Added when a string closes with a quote kept as text left unpaired (`"rejected, "python"`
/// is more likely two strings than one holding a lone quote).
pub(crate) const UNPAIRED_TEXT_QUOTE: Cost = 1;
/// Added to [`TEXT_QUOTE`] for a loose text quote: one that opens a quoted span but is followed
/// by a space or a delimiter (`"07:58",` + `","`), or stands first on its line (`"a,⏎  "b"`);
/// an apostrophe before a delimiter (`'docs', "tool"`); a closing quote first on an indented
/// line (`"José,⏎  "type": …`). Quotes kept as text quote something, within a line (`"yes"`,
/// `("key: %s"`, `="/docs"`).
pub(crate) const LOOSE_TEXT_QUOTE: Cost = 4;
/// Added for a text quote that closes a quoted span before a `:`, as a key's quote does
/// (`"x, "b": 1`). Weaker evidence than a loose quote: text does quote a word before a colon.
pub(crate) const KEYLIKE_TEXT_QUOTE: Cost = 2;
/// A closer with nothing to close, dropped.
pub(crate) const STRAY_CLOSER: Cost = 4;
/// A quote that opens nothing, dropped (`",",` stutters).
pub(crate) const STRAY_QUOTE: Cost = 4;
/// A key the schema does not know (only when the schema names every key it allows).
pub(crate) const UNKNOWN_KEY: Cost = 4;
/// A key with no value before the next `,` or `}` (null is used).
pub(crate) const MISSING_VALUE: Cost = 5;
/// A token that fits nowhere, skipped.
pub(crate) const GARBAGE: Cost = 5;

// --- the document -----------------------------------------------------------------------------
/// The JSON ends here, its containers unclosed; what follows is prose (plus [`CLOSE_AT_END`]
/// per container closed).
pub(crate) const END_HERE: Cost = 3;
/// Added to [`END_HERE`] when the prose follows a single line break, not a blank line
/// (`…"concluir"⏎Hope this helps`): a line of its own may still be JSON, a blank line rarely is.
pub(crate) const PROSE_AFTER_ONE_LINE_BREAK: Cost = 2;
/// A top-level scalar followed by more than noise (`"The TV has a 24" screen"` read as the
/// string `The TV has a 24`): a reply that is a scalar is nothing else.
pub(crate) const TEXT_AFTER_SCALAR: Cost = 10;
/// Everything so far was an abandoned draft: start again at the next JSON-looking value (plus
/// [`LOST_STRUCTURE`] for what lies between). A model that rewrites its answer restates it:
/// when the new value begins as the draft did, the restart costs [`RESTATED_RESTART`].
pub(crate) const RESTART: Cost = 6;
/// Added to [`RESTART`] per mark of the draft it throws away (a `,`, `:` or opening bracket:
/// about two per member): a restart must cost in proportion to the document it discards, or
/// a misreading late in a long reply would make dropping everything before it cheap. Counted
/// over the draft's last [`WINDOW`] bytes, or over the values the parser has read, whichever
/// is more. A restart that restates the draft throws nothing away and pays only
/// [`RESTATED_RESTART`].
pub(crate) const DRAFT_MARK: Cost = 1;
/// A restart whose new value begins as the abandoned draft did (`{"a": [1, 2 -- wait. Final:
/// {"a": [1, 2, 3]}`).
pub(crate) const RESTATED_RESTART: Cost = 1;
/// Per quote, bracket or number in text that a reading leaves out of the value (after the
/// document ended), per mark of JSON in a comment or in the text of a string that does not end
/// at `"` (a `'` string swallowing `, "tool": "x"`), and per closer a split string keeps, over
/// the next [`WINDOW`] bytes: what looks like JSON should not be thrown away, and a reading that
/// stops early must not look cheaper than one that reads on and pays for what it reads.
pub(crate) const LOST_STRUCTURE: Cost = 3;

// --- the search -------------------------------------------------------------------------------
/// How far (bytes) the readings at a spot are followed before they are compared.
pub(crate) const WINDOW: usize = 256;
/// The most readings followed at once.
pub(crate) const BEAM: usize = 8;
/// Readings that cost this much more than the best one are dropped.
pub(crate) const MARGIN: Cost = 8;
/// Search steps allowed per input byte over the whole parse (plus [`SEARCH_BASE`]): past it,
/// spots are decided by their next few tokens only, so hostile input stays linear.
pub(crate) const SEARCH_STEPS_PER_BYTE: usize = 24;
/// Search steps every parse may use whatever its size.
pub(crate) const SEARCH_BASE: usize = 200_000;
