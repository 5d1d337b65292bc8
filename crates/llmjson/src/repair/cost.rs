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
//! discards. Ties go to the reading listed first (the plain one).
//!
//! # The table
//!
//! Costs are in units of "one ordinary repair" ≈ 3. A reading's cost is the sum along its path.
//!
//! | reading | cost | why |
//! |---|---:|---|
//! | a convention (single quotes, bare keys, Python literals and sets, `=` for `:`, full-width `：` `，`, digit separators and `−`, thousands separators, …), once per document | 2 | a model that writes one writes them all: a convention charged per use would make reading a whole reply written in it dearer than swallowing it into one string |
//! | comment, trailing comma, container closed at the end, token or string cut at the end | 1 | cosmetic or the reply's own end |
//! | odd number (`.5`), ellipsis, `"a" + "b"`, `ObjectId(…)`, restart whose value restates the draft | 1 | a known spelling |
//! | grouped number (`75,515`: 1 besides its convention), doubled `,`/`:`, `“` closing an ASCII string, missing comma | 2 | |
//! | missing colon, missing or mismatched closer, missing end quote, bare value, text quote pair | 3 | an ordinary repair |
//! | stray closer, stray quote, key the schema does not know, loose text quote (+) | 4 | |
//! | missing value, garbage token | 5 | |
//! | document ends here with containers open | 3 (+1 each) | +2 after a single line break (only in a document written on one line: in a laid-out one the next line is more JSON) |
//! | restart at a new value (an abandoned draft) | 6 + 1 per mark of the draft (`,` `:` or opener in its last 256 bytes, or per value the parser read, whichever is more) | a restart must cost in proportion to the document it discards; a draft the new value restates (an alignment of the two, blanks, quotes and escapes aside, that tolerates added comments and changed values: 80% of the draft's first 256 characters) throws nothing away and costs 1 |
//! | text after a top-level scalar | 10 | a scalar reply is nothing else |
//! | **lost structure**: per quote, bracket or number left out after the document, per JSON mark (closer, `"key":`, `, "`) in a comment, per closer a split or cut string keeps | 3 each | a reading that throws JSON away must not look cheaper than one that reads it |
//! | a comment that is data commented out on purpose (ends as its form says — `*/` or a line break —, starts with a member or an item, closes nothing it did not open) | 1 + 1 per JSON mark | the model abandoned it, as a draft: charged as a restart's draft is, or a member commented out would make the string before it run on over `", /* "` |
//! | **swallowed structure**: per mark in a string's text outside the brackets the text itself opened and closed — a closer nothing in it opened, a comma before a key and its colon (any quotes, bare, `：`, `=`), a comma before an opening bracket, and in a non-`"` string a `"` before `:` or after `,` — charged when the string closes *and* as it runs on (each quote kept as text pays for the marks since the string's previous quote) | 3 each | JSON a string holds whole (`'{"a": 1}'`) is its content; a string that ran over members is a misreading, and paying only at its close let readings that close beyond the window look cheap |
//! | a list closed at a doubled closer when the object after it shares its first keys with the list's first item | +2 | records go on: the closer is doubled, not the list ended |
//! | **key marks**: per bracket, quote (any kind) or `:` before a blank or value in a key's text, unless `:` follows its closing quote | 3 each | a key is a name; one holding JSON's punctuation swallowed members |
//! | **a member swallowed**: a quote kept as text, outside the text's own brackets, before a colon (`:` `：` `=` `=>`) and an opening bracket that ends its line (maybe before a comment: `"steps" => [⏎`, `” = [ # …`) | 6 | that quote ends a key and the bracket opens a laid-out container: text running on from there swallows the member and everything under it, which the text's own (open) bracket would otherwise make look like code (a `",` stutter read as a key `","` swallowed a whole plan) |
//! | closer the layout contradicts: a closer (or a run of closers starting its line) whose line does not line up with the opening line of the container it is read as closing | +2 | indentation is the model's own statement of nesting |
//! | **a string running over a line break** when the next line starts structure (a closer, a key and its colon — or a quoted key and `=`, not the bare `x =` of a line of code —, or a line that is one quoted item) at an indentation no deeper than the string's own line, and the string's text leaves none of its brackets open; the other reading there, listed first: the string lost its closing quote at the end of its first line (before that line's comma) | 3 per such line | the layout says where the string ended: a string that swallows lines of members pays for each even when it never meets a quote of its own (an apostrophe read as an opening quote after a JSON literal in code ran over a whole step) |
//!
//! Text-quote refinements: a quote inside text that is itself JSON or code (it starts with a
//! bracket, or the quote stands inside a bracket the text opened: `d = {"a": 1}`, `'{"id": 7}'` in
//! an SQL statement; not a quote that `+` and another quote follow) costs 1 per pair; a *loose* text quote — an opener before a space or a
//! delimiter, first on its line, an apostrophe before a delimiter, a closing quote first on an
//! indented line — adds 4; a text quote closing before `:` adds 2; a string closing with a text quote
//! unpaired adds 1; a typographic quote read as text right before a delimiter (`"東京“, "tags"`) is
//! loose too. A key that lost its closing quote may end at its first `:` or at the `=` the colon
//! readings accept. A restated draft is recognised whatever quotes it uses. A string that runs to the end of the reply is a cut (closed, logged as
//! truncation) unless its text ends with a run of closers that nothing in the text opened and that
//! close the open containers in order (`"cache: [2631]}`: the `]` is the text's own, the `}` ends the
//! document): then it lost its closing quote before them. A value string may also have ended at the first comma its text puts before a member
//! (`"Seoul, 'tags': [], … „Mary“`): that split is offered at every quote the string meets. A line
//! comment (`//`, `#`) ends before a closer in it that nothing in it opened (`"fast" // default },
//! "n": 2` on one line). A new fault kind is handled by a row (or a refinement) here, not by a special
//! case in the parser.

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
