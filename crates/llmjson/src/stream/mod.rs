//! Streaming: a reply read while it arrives.
//!
//! [`StreamParser`] holds the text fed so far. The repair parser runs over it as it arrives,
//! parked between chunks (`settled.rs` over `repair::parser::park`): it decides each spot once a
//! window of text follows it, and what it decided is shown in a tree (`tree.rs`) whose
//! [`Event`]s say what was settled — what a chat UI or a tool-call router shows while the model
//! is still writing. A live reader (`reader.rs`) locates the value as bytes arrive and reads the
//! last window on from where the parser stopped, for snapshots (that part is provisional); while
//! the reply is strict JSON, a view shows the live reader's own tree without waiting for the
//! parser (`StreamParser::reads_strictly`).
//! [`StreamParser::finish`] runs the one-shot pipeline once over the whole reply — a later fence
//! or a restated draft can change which value is the answer — so the final result is
//! [`crate::parse`]'s, byte for byte, and every path the stream showed as complete but the
//! final parse reads otherwise is reported as an [`Event::Revised`]. Work is linear; the parser
//! runs only when the stream is looked at.

mod event;
mod hold;
mod live;
mod reader;
mod settled;
mod tree;

use crate::{Error, Options, Parsed, Value};
use reader::{Reader, Stop};
use settled::{Settled, Trial, View, RESUME_AFTER, RESUME_AFTER_IN_PLACE};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};
use tree::Tree;

pub use event::Event;
use live::Mirror;
pub use live::{Change, Changes, Live, Provisional};
pub use tree::LAG as PROVISIONAL_LAG;

/// The value so far.
#[derive(Debug, Clone, PartialEq)]
pub struct Snapshot {
    /// The partial value, closed the way [`Options::truncation`] says (an open string kept or
    /// dropped, open containers closed); `None` before the JSON starts. With a schema in the
    /// options, complete values are coerced to it (the open string or number is left as is).
    pub value: Option<Value>,
    /// Pointers of the values that are complete: the largest ones (everything inside a complete
    /// value is complete too).
    pub complete: Vec<String>,
    /// Pointers a later byte may still change: the open values, and every value the decision
    /// procedure has not settled yet (those in about the last 512 bytes, read on by the live
    /// reader up to its first guess — what follows a guess appears once settled; all of them
    /// before the JSON is located or when the procedure cannot read the reply at the options'
    /// level). A root that closed stays provisional until the end: what follows it may still
    /// be the answer instead (a draft written in the prose before it, a decoy a later fence
    /// supersedes), which only the final parse decides. Sorted.
    pub provisional: Vec<String>,
    /// The value's root closed (the final parse may still read the reply otherwise).
    pub done: bool,
    /// What has arrived is already not JSON as written — it needs a repair (a comment, another
    /// quote, a bare key, a trailing or missing comma, a Python literal, a spot read with a
    /// guess) — rather than merely incomplete (a prefix of valid JSON, prose or a fence around
    /// it aside).
    pub malformed: bool,
}

impl Snapshot {
    /// Whether the value at `pointer` is complete and settled: inside a complete value, and
    /// no provisional value is it or inside it.
    pub fn is_settled(&self, pointer: &str) -> bool {
        use crate::value::pointer_within;
        self.complete.iter().any(|c| pointer_within(pointer, c))
            && !self.provisional.iter().any(|p| pointer_within(p, pointer))
    }

    /// The value with only its complete parts: each complete value whole, the open containers
    /// around them holding only those (an open container with nothing complete inside is left
    /// out). `None` when nothing is complete yet. What `llmjson repair --stream --every value`
    /// prints: never a string or number still being written. Linear in the value's size.
    pub fn complete_value(&self) -> Option<Value> {
        let value = self.value.as_ref()?;
        let complete: std::collections::HashSet<&str> =
            self.complete.iter().map(String::as_str).collect();
        let mut pointer = String::new();
        complete_part(value, &complete, &mut pointer, 0)
    }
}

/// `value` (at `pointer`) cut to its complete parts ([`Snapshot::complete_value`]); `depth`
/// bounds the walk as the parser bounds nesting.
fn complete_part(
    value: &Value,
    complete: &std::collections::HashSet<&str>,
    pointer: &mut String,
    depth: usize,
) -> Option<Value> {
    if complete.contains(pointer.as_str()) {
        return Some(value.clone());
    }
    if depth > crate::MAX_DEPTH_CEILING {
        return None;
    }
    let at = pointer.len();
    match value {
        Value::Object(map) => {
            let mut kept = crate::Map::new();
            for (key, item) in map {
                pointer.push('/');
                crate::value::push_pointer_token(pointer, key);
                let part = complete_part(item, complete, pointer, depth + 1);
                pointer.truncate(at);
                if let Some(part) = part {
                    kept.insert(key.clone(), part);
                }
            }
            (!kept.is_empty()).then_some(Value::Object(kept))
        }
        Value::Array(items) => {
            let mut kept = Vec::new();
            for (i, item) in items.iter().enumerate() {
                use std::fmt::Write as _;
                let _ = write!(pointer, "/{i}");
                kept.extend(complete_part(item, complete, pointer, depth + 1));
                pointer.truncate(at);
            }
            (!kept.is_empty()).then_some(Value::Array(kept))
        }
        // A string or number that is not complete is still being written.
        _ => None,
    }
}

/// A snapshot's provisional part: `reader` reads `text` into `tree` up to its first guess, and
/// the value the end of `text` cuts is added. A member read past a guess is what a later byte
/// most often turns around (a quote misread swallows the next key, a missing `}` merges two
/// objects): shown, it would vanish from a later snapshot. It is shown once the decision
/// procedure settles it, a lag later.
fn read_provisional(
    mut reader: Reader,
    mut tree: Tree,
    text: &str,
    truncation: crate::Truncation,
) -> (tree::Closed, Reader) {
    tree.halt_at_guess();
    let _ = reader.run(text, &mut tree);
    let pending = reader.pending(text, tree.halted);
    (tree.close_into(pending, truncation, text.len()), reader)
}

pub use crate::schema::DONE_ONLY;

/// Schemas nested deeper than this are not searched for done-only properties.
const DONE_ONLY_DEPTH: usize = 64;

/// Removes from `value` (at `pointer`, fitting `node` of the schema `root`) the members the
/// schema marks done-only whose value is not complete yet.
fn hide_unfinished(
    value: &mut Value,
    root: &Value,
    node: &Value,
    pointer: &str,
    complete: &[String],
    depth: usize,
) {
    if depth > DONE_ONLY_DEPTH {
        return;
    }
    let node = crate::schema::coerce::resolve_ref(root, node);
    let is_complete = |p: &str| covered(complete, p);
    if is_complete(pointer) {
        return;
    }
    match value {
        Value::Object(map) => {
            let mut hidden = Vec::new();
            for (key, child) in map.iter_mut() {
                let segment = tree::Segment::Key(key);
                let Some(schema) = tree::child_schema(node, segment) else {
                    continue;
                };
                let child_pointer = tree::child_pointer(pointer, segment);
                let done_only = crate::schema::coerce::resolve_ref(root, schema)
                    .get(DONE_ONLY)
                    .and_then(Value::as_bool)
                    == Some(true);
                if done_only && !is_complete(&child_pointer) {
                    hidden.push(key.clone());
                } else {
                    hide_unfinished(child, root, schema, &child_pointer, complete, depth + 1);
                }
            }
            for key in hidden {
                map.remove(&key);
            }
        }
        Value::Array(items) => {
            for (i, item) in items.iter_mut().enumerate() {
                let segment = tree::Segment::Index(i);
                if let Some(schema) = tree::child_schema(node, segment) {
                    let child_pointer = tree::child_pointer(pointer, segment);
                    hide_unfinished(item, root, schema, &child_pointer, complete, depth + 1);
                }
            }
        }
        _ => {}
    }
}

/// Whether `pointer` is one of the `complete` pointers (sorted) or inside one: its ancestors
/// looked up one by one, so a snapshot's check costs its depth, not the list's length.
fn covered(complete: &[String], pointer: &str) -> bool {
    let mut at = pointer;
    loop {
        if complete.binary_search_by(|c| c.as_str().cmp(at)).is_ok() {
            return true;
        }
        match at.rfind('/') {
            Some(cut) => at = &at[..cut],
            None => return false,
        }
    }
}

/// Counts of a streamed parse, for the diagnostics record.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct StreamStats {
    /// Chunks fed.
    pub chunks: usize,
    /// Bytes fed.
    pub bytes: usize,
    /// From the parser's creation to the first complete value (a scalar, a string or a
    /// container), when one completed.
    pub first_value: Option<Duration>,
    /// From the parser's creation to the end of `finish` (zero before it).
    pub elapsed: Duration,
}

/// Parses a reply while it arrives: [`feed`](Self::feed) chunks, take
/// [`snapshot`](Self::snapshot)s and [`events`](Self::events) at any time, and
/// [`finish`](Self::finish) when the stream ends.
///
/// ```
/// use llmjson::{Event, Options, StreamParser};
///
/// let mut stream = StreamParser::new(Options::default());
/// stream.feed("Sure! ```json\n{\"steps\": [{\"id\": 1, \"title\": \"Boil wa")?;
/// let snapshot = stream.snapshot();
/// assert_eq!(snapshot.value.unwrap()["steps"][0]["title"], "Boil wa");
/// assert!(snapshot.complete.contains(&"/steps/0/id".to_string()));
/// stream.feed("ter\"}, {\"id\": 2}]}\n```")?;
/// // Events say what the decision procedure settled: a window behind what has arrived, so a
/// // short reply's come with its end.
/// let finished = stream.finish_with_events();
/// assert!(finished.events.contains(&Event::ValueCompleted { path: "/steps/1".into() }));
/// assert_eq!(finished.result?, llmjson::parse(
///     "Sure! ```json\n{\"steps\": [{\"id\": 1, \"title\": \"Boil water\"}, {\"id\": 2}]}\n```",
///     &Options::default(),
/// )?);
/// # Ok::<(), llmjson::Error>(())
/// ```
pub struct StreamParser {
    options: Options,
    text: String,
    /// Bytes fed but not decoded yet: small chunks wait here until 64 bytes have arrived, and a
    /// UTF-8 character cut at a chunk's end waits for its last byte.
    raw: Vec<u8>,
    reader: Reader,
    tree: Tree,
    /// What the decision procedure settled: the events, and where snapshots start.
    settled: Mutex<Settled>,
    stats: StreamStats,
    created: Instant,
    /// A limit the stream went over: every later call returns it.
    failed: Option<Oversized>,
    /// How much of the text the live reader was given.
    read_to: usize,
    /// The first byte [`feed_bytes`](Self::feed_bytes) met that was not UTF-8.
    invalid_utf8_at: Option<usize>,
    /// What [`changes`](Self::changes) handed out so far.
    changes_mirror: Option<Box<Mirror>>,
    /// The value [`live`](Self::live) keeps, and what it holds of the settled tree.
    live: Option<Box<(Mirror, Live)>>,
    /// Every update reads the last window again (see [`StreamParser::fresh_trials`]).
    fresh_trials: bool,
    /// A reply strict so far is shown from the settled tree too (see
    /// [`StreamParser::settled_only`]).
    settled_only: bool,
    /// How much text had arrived when a view or snapshot last showed the live reader's own
    /// tree (a reply strict so far; 0: none did): what it showed as settled, the decision
    /// procedure has not, yet. (Atomic: `snapshot` takes `&self`.)
    strict_view_at: AtomicUsize,
    /// The live reader's values as they were when what it read stopped being strict JSON, if
    /// a view had shown them (see [`LaterEvents`]).
    shown_by_reader: Option<Tree>,
    /// Whether the events of the value read so far are held back (it may not be the answer).
    hold: hold::Hold,
}

/// The open string or number a view shows last, where `tree` says it goes.
struct OpenLeaf {
    value: Value,
    depth: usize,
    key: Option<String>,
    in_object: bool,
    pointer: String,
}

impl OpenLeaf {
    fn at(tree: &Tree, value: Value) -> OpenLeaf {
        OpenLeaf {
            value,
            depth: tree.depth(),
            key: tree.pending_key().map(str::to_owned),
            in_object: tree.in_object(),
            pointer: tree.next_pointer(),
        }
    }

    /// Shows it after the rest (the value is open and provisional); the depth it was shown at.
    fn show(
        self,
        mirror: &mut Mirror,
        out: &mut Changes,
        provisional: &mut Provisional,
    ) -> Option<usize> {
        // (A value with no key in an object is not shown, as `close_into` leaves it.)
        let shown = self.depth == 0 || self.key.is_some() || !self.in_object;
        if shown {
            mirror.show_leaf(self.depth, self.key, self.value, &mut out.changes);
        }
        provisional.other.push(self.pointer.clone());
        out.open = Some(self.pointer);
        shown.then_some(self.depth)
    }
}

/// Whether what `reader` read into `tree` is strict JSON with one reading, located where the
/// final parse looks first (see [`StreamParser::reads_strictly`]).
fn strict_so_far(reader: &Reader, tree: &Tree, text: &str) -> bool {
    reader.start.is_some()
        && !reader.weak
        && reader.strict
        && !reader.latex_doubt
        && !tree.guessed()
        && tree.generation == 0
        && !tree.repeated
        // (A fence that closed with the value open: its closers are missing.)
        && (reader.fence_closed_at().is_none() || tree.is_done())
        && !(tree.is_done() && more_json_follows(text, tree.root_end()))
}

/// Whether what follows the root that closed at `end` goes on as JSON (`{…}, {…}`: objects with
/// no brackets around them, a closer too many, another value): the decision procedure decides
/// what the root is then.
fn more_json_follows(text: &str, end: usize) -> bool {
    let rest = text.get(end..).unwrap_or_default().trim_start();
    matches!(
        rest.as_bytes().first(),
        Some(b',' | b'{' | b'[' | b'}' | b']' | b':' | b'"')
    )
}

/// The live reader runs once this many bytes arrived since it last ran (and whenever events,
/// stats or the end are asked for): a reply arriving a few bytes at a time costs one short read
/// per 64 bytes, not one per chunk. A snapshot reads the rest with a copy of the reader.
const CATCH_UP: usize = 64;

impl StreamParser {
    /// A parser for one reply, with the options [`crate::parse`] would take.
    pub fn new(options: Options) -> StreamParser {
        let depth = options.max_depth.clamp(1, crate::MAX_DEPTH_CEILING);
        // The live reader's value is kept while it can become the result as it is (a clean read
        // of a valid reply); the value shown is the decision procedure's.
        let mut tree = Tree::new(depth, None, false);
        tree.track_lag();
        let settled = Mutex::new(Settled::new(Tree::new(depth, options.schema.clone(), true)));
        StreamParser {
            options,
            text: String::new(),
            raw: Vec::new(),
            reader: Reader::new(),
            tree,
            settled,
            stats: StreamStats::default(),
            created: Instant::now(),
            failed: None,
            read_to: 0,
            invalid_utf8_at: None,
            changes_mirror: None,
            live: None,
            fresh_trials: false,
            settled_only: false,
            strict_view_at: AtomicUsize::new(0),
            shown_by_reader: None,
            hold: hold::Hold::default(),
        }
    }

    /// Stops recording [`Event`]s (a caller that only takes snapshots saves their cost);
    /// [`events`](Self::events) then returns nothing. `RequiredMissing` needs events on.
    pub fn without_events(mut self) -> StreamParser {
        let settled = self.settled_mut();
        settled.end_trial();
        settled.view.tree.events_off();
        self
    }

    /// Every update of a view kept in place reads the last window again from where the parser
    /// stopped (for tests: a view whose reading goes on between updates must show what this
    /// shows; the parser runs as often for both).
    #[doc(hidden)]
    pub fn fresh_trials(mut self) -> StreamParser {
        self.fresh_trials = true;
        self
    }

    /// A reply strict so far is shown as any other: from what the decision procedure settled
    /// and a trial reading of the last window (for tests: the live reader's own view of such a
    /// reply must show the values this shows).
    #[doc(hidden)]
    pub fn settled_only(mut self) -> StreamParser {
        self.settled_only = true;
        self
    }

    /// Whether a view of the value now is the live reader's own (for tests; see
    /// [`StreamParser::reads_strictly`]).
    #[doc(hidden)]
    pub fn shows_the_readers_view(&self) -> bool {
        self.reads_strictly()
    }

    /// The settled part (a lock nobody else holds: the parser is used by one thread at a
    /// time; the lock lets `snapshot` take `&self`).
    fn settled_mut(&mut self) -> &mut Settled {
        self.settled
            .get_mut()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// Reads the next chunk of the reply. Work is proportional to the chunk (and to the token
    /// it completes), never to the text before it.
    ///
    /// Nesting deeper than [`Options::max_depth`] stops the live view there (snapshots keep what
    /// was read within the limit, marked provisional) and [`finish`](Self::finish) gives
    /// `parse`'s verdict — [`Error::TooDeep`] when `parse` gives it: the live reader's guess of
    /// the structure must not raise an error the one-shot parse would not.
    ///
    /// # Errors
    /// [`Error::TooLarge`] once the reply goes over [`Options::max_size`], as [`crate::parse`]
    /// gives it, raised as the bytes arrive; every later call returns the same error.
    pub fn feed(&mut self, chunk: &str) -> Result<(), Error> {
        if let Some(limit) = &self.failed {
            return Err(limit.error());
        }
        self.decode_raw(true);
        self.stats.chunks += 1;
        self.stats.bytes += chunk.len();
        self.check_size(self.text.len() + chunk.len())?;
        self.text.push_str(chunk);
        if self.text.len() - self.read_to >= CATCH_UP {
            self.catch_up()
        } else {
            Ok(())
        }
    }

    /// Reads the next chunk as bytes: a UTF-8 character split between chunks is held until its
    /// last byte arrives. Invalid UTF-8 is read as U+FFFD (and logged by `finish`, as
    /// [`crate::parse_bytes`] logs it).
    ///
    /// # Errors
    /// As [`feed`](Self::feed).
    pub fn feed_bytes(&mut self, chunk: &[u8]) -> Result<(), Error> {
        if let Some(limit) = &self.failed {
            return Err(limit.error());
        }
        self.stats.chunks += 1;
        self.stats.bytes += chunk.len();
        self.check_size(self.text.len() + self.raw.len() + chunk.len())?;
        // Small chunks wait until 64 bytes have arrived: one UTF-8 check per 64 bytes, not one
        // per chunk. A large chunk is read at once.
        self.raw.extend_from_slice(chunk);
        if self.raw.len() < CATCH_UP {
            return Ok(());
        }
        self.decode_raw(false);
        self.check_size(self.text.len())?;
        self.catch_up()
    }

    /// Moves the bytes waiting in `raw` into the text, but for a character cut at their end
    /// (kept, unless `all`: then it is read as U+FFFD, as `parse_bytes` reads a cut character).
    fn decode_raw(&mut self, all: bool) {
        if self.raw.is_empty() {
            return;
        }
        let keep = if all { 0 } else { unfinished_tail(&self.raw) };
        let body_len = self.raw.len() - keep;
        let body = &self.raw[..body_len];
        match std::str::from_utf8(body) {
            Ok(text) => self.text.push_str(text),
            Err(e) => {
                self.invalid_utf8_at
                    .get_or_insert(self.text.len() + e.valid_up_to());
                self.text.push_str(&String::from_utf8_lossy(body));
            }
        }
        // The buffer keeps its allocation for the next chunks.
        self.raw.drain(..body_len);
    }

    fn check_size(&mut self, size: usize) -> Result<(), Error> {
        if size > self.options.max_size {
            return self.fail(Oversized {
                size,
                limit: self.options.max_size,
            });
        }
        Ok(())
    }

    /// Everything fed, read: what events, stats and the end need.
    fn settle(&mut self) -> Result<(), Error> {
        if self.failed.is_none() {
            self.decode_raw(false);
        }
        self.catch_up()
    }

    /// Runs the live reader over the text not read yet.
    fn catch_up(&mut self) -> Result<(), Error> {
        if self.failed.is_some() || self.read_to == self.text.len() {
            return Ok(());
        }
        self.read_to = self.text.len();
        if let Stop::TooDeep = self.reader.run(&self.text, &mut self.tree) {
            // The live view stops at the limit; `finish` gives parse's verdict.
            self.reader.halt();
            self.tree.contest();
        }
        if !self.reader.strict && self.tree.keeps_values() {
            // Not valid JSON as written: `finish` parses it, so the live reader's value is of
            // no use (the value shown is the decision procedure's) — but for what a view
            // showed of it, which the final events compare with the result.
            if *self.strict_view_at.get_mut() > 0 {
                self.shown_by_reader = Some(self.tree.take_values());
            } else {
                self.tree.drop_values();
            }
        }
        if self.stats.first_value.is_none() && self.tree.completed > 0 {
            self.stats.first_value = Some(self.created.elapsed());
        }
        Ok(())
    }

    fn fail(&mut self, limit: Oversized) -> Result<(), Error> {
        let error = limit.error();
        self.failed = Some(limit);
        Err(error)
    }

    /// The value so far, with which paths are complete and which may still change. Costs about
    /// what building the value once does (the partial value is copied and closed).
    pub fn snapshot(&self) -> Snapshot {
        let waiting = unfinished_tail(&self.raw);
        let pending_bytes =
            !self.raw.is_empty() && self.raw.len() > waiting && self.failed.is_none();
        // Bytes still waiting to be decoded are read on a copy of the text (the snapshot copies
        // the value anyway).
        let text: std::borrow::Cow<'_, str> = if pending_bytes {
            let mut text = self.text.clone();
            text.push_str(&String::from_utf8_lossy(
                &self.raw[..self.raw.len() - waiting],
            ));
            std::borrow::Cow::Owned(text)
        } else {
            std::borrow::Cow::Borrowed(&self.text)
        };
        let from_reader = match self.reader_view(&text, pending_bytes) {
            Some(closed) => Some((closed, true)),
            None => self.settled_view(&text),
        };
        let (closed, strict) = match from_reader {
            Some(view) => view,
            // Not located yet, or the decision procedure failed where the final parse may not:
            // the live reader's view, none of it settled, read from the start (the live
            // reader keeps only the shape as it goes).
            None => {
                let depth = self.options.max_depth.clamp(1, crate::MAX_DEPTH_CEILING);
                let mut tree = Tree::new(depth, None, false);
                tree.unsettle();
                let (closed, reader) =
                    read_provisional(Reader::new(), tree, &text, self.options.truncation);
                (closed, reader.strict)
            }
        };
        // (A guess of the live reader's counts too: the settled part may have been decided past it.)
        let malformed = !strict || closed.guessed || self.tree.guessed();
        let value = match (&self.options.schema, closed.value) {
            (Some(schema), Some(value)) if self.options.coercion == crate::Coercion::Fit => {
                let leaf = closed
                    .open_leaf
                    .as_deref()
                    .and_then(|p| value.pointer(p).cloned());
                let mut coerced = crate::schema::coerce::coerce(schema.walk(), value, false).value;
                // The open string or number is not coerced: "12" may be "123" next.
                if let (Some(pointer), Some(leaf)) = (&closed.open_leaf, leaf) {
                    if let Some(slot) = pointer_mut(&mut coerced, pointer) {
                        *slot = leaf;
                    }
                }
                Some(coerced)
            }
            (_, value) => value,
        };
        let value = match (&self.options.schema, value) {
            (Some(schema), Some(mut value)) if schema.has_done_only() => {
                hide_unfinished(
                    &mut value,
                    schema.walk(),
                    schema.walk(),
                    "",
                    &closed.complete,
                    0,
                );
                Some(value)
            }
            (_, value) => value,
        };
        Snapshot {
            value,
            complete: closed.complete,
            provisional: closed.provisional,
            done: closed.done,
            malformed,
        }
    }

    /// The value so far, kept up to date in place: each call costs what arrived since the last
    /// one (and the last window, read again), not the value's size — what a UI that shows the
    /// value after every chunk calls. The value is the one [`snapshot`](Self::snapshot) shows;
    /// what is complete, settled or provisional is asked of [`Live`]. Clone it to keep it.
    ///
    /// ```
    /// use llmjson::{Options, StreamParser};
    ///
    /// let mut stream = StreamParser::new(Options::default());
    /// stream.feed("{\"steps\": [{\"id\": 1, \"title\": \"Boil wa")?;
    /// let live = stream.live();
    /// assert_eq!(live.value().unwrap()["steps"][0]["title"], "Boil wa");
    /// assert!(live.is_complete("/steps/0/id") && !live.is_complete("/steps/0/title"));
    /// # Ok::<(), llmjson::Error>(())
    /// ```
    pub fn live(&mut self) -> &Live {
        let mut state = self.live.take().unwrap_or_default();
        let changes = self.update(&mut state.0);
        state.1.apply(changes);
        &self.live.insert(state).1
    }

    /// What changed in the value since the last call (the first call: the value so far), as
    /// changes to apply to a copy of it held elsewhere — what the Python and Node packages keep
    /// their objects up to date with. Costs what [`live`](Self::live) costs; the two keep
    /// apart what they handed out.
    pub fn changes(&mut self) -> Changes {
        let mut mirror = self.changes_mirror.take().unwrap_or_default();
        let changes = self.update(&mut mirror);
        self.changes_mirror = Some(mirror);
        changes
    }

    /// The changes since `mirror`'s last update: the settled tree's new values copied, the last
    /// window read on the settled tree itself (and taken back).
    fn update(&mut self, mirror: &mut Mirror) -> Changes {
        if self.failed.is_none() {
            self.decode_raw(false);
        }
        let _ = self.catch_up();
        let mut out = Changes::default();
        let owner = mirror.id();
        let from_reader = self.reads_strictly();
        let settled = self
            .settled
            .get_mut()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        let schema_shapes = self.options.schema.as_ref().is_some_and(|schema| {
            self.options.coercion == crate::Coercion::Fit || schema.has_done_only()
        });
        let direct = self.failed.is_none()
            && self.options.truncation != crate::Truncation::DropElement
            && !schema_shapes;
        if direct && from_reader {
            if settled.trial.as_ref().is_some_and(|t| t.owner == owner) {
                settled.end_trial();
            }
            self.strict_view_at
                .store(self.text.len(), Ordering::Relaxed);
            return self.update_from_reader(mirror);
        }
        mirror.copy_from(false);
        // The trial this view showed goes on while the parser does not run.
        let going_on = direct
            && !self.fresh_trials
            && settled.trial.as_ref().is_some_and(|t| {
                // A reading halted at a guess, or past the value's end, is read again: what
                // it decided at the end of the text may read otherwise with more of it.
                t.owner == owner && t.reader.reading_json()
            })
            && !settled.view.tree.halted
            && !settled.view.tree.is_done()
            && !settled.due(&self.text, &self.reader, true, RESUME_AFTER_IN_PLACE);
        if !going_on {
            settled.end_trial();
            if direct {
                let (text, reader) = (&self.text, &self.reader);
                settled.catch_up(text, reader, &self.options, true, RESUME_AFTER_IN_PLACE);
            }
        }
        let waiting = settled.waiting_at();
        if !direct || settled.view.broken || (waiting.is_none() && !settled.view.tree.is_done()) {
            // Read another way (the value built whole: a schema's coercion, an element left
            // out whole, the JSON not located yet or not settled before the end).
            let snapshot = self.snapshot();
            out.open = innermost_open(&snapshot);
            mirror.replace(snapshot.value, &mut out.changes);
            out.settled = Some(out.changes.len());
            out.done = snapshot.done;
            out.malformed = snapshot.malformed;
            out.provisional.other = snapshot.provisional;
            return out;
        }
        let mut trial = match settled.trial.take() {
            Some(trial) => {
                // The open string or number shown last is taken back; the reading goes on.
                if let Some(depth) = trial.leaf {
                    mirror.take_leaf(depth, &settled.view.tree, &mut out.changes);
                }
                trial
            }
            None => {
                let tree = &mut settled.view.tree;
                mirror.sync(tree, &mut out.changes);
                out.settled = Some(out.changes.len());
                if tree.is_done() {
                    out.done = true;
                    out.malformed = !self.reader.strict || tree.guessed() || self.tree.guessed();
                    // (The root stays provisional until the end: see `Snapshot::provisional`.)
                    out.provisional.other.push(String::new());
                    out.provisional
                        .other
                        .extend(tree.contested().iter().cloned());
                    return out;
                }
                let Some((pos, mode)) = waiting else {
                    return out;
                };
                let counts = (0..tree.depth())
                    .filter_map(|depth| tree.frame_at(depth).map(|(_, len)| len))
                    .collect();
                tree.scratch();
                if !tree.has_started() && matches!(mode, crate::repair::grammar::Mode::Key { .. }) {
                    // The reply begins inside an object whose `{` is missing (as `settled_view`).
                    tree.open(true);
                }
                Box::new(Trial {
                    reader: self.reader.after_engine(pos, mode),
                    owner,
                    settled: counts,
                    leaf: None,
                })
            }
        };
        let tree = &mut settled.view.tree;
        let _ = trial.reader.run(&self.text, tree);
        let leaf = match self.options.truncation {
            crate::Truncation::Complete => trial.reader.pending(&self.text, tree.halted),
            _ => None,
        };
        out.malformed =
            !(self.reader.strict && trial.reader.strict) || tree.guessed() || self.tree.guessed();
        let mut provisional = Provisional::default();
        if tree.is_done() {
            out.done = true;
            provisional.other.push(String::new());
        } else {
            provisional.open = tree.trial_provisional(&trial.settled);
            out.open = tree.innermost_pointer();
        }
        provisional.other.extend(tree.contested().iter().cloned());
        // (Where the leaf goes is the tree's now; the steps are shown before it.)
        let leaf = leaf.map(|value| OpenLeaf::at(tree, value));
        mirror.show_steps(tree.take_steps(), &mut out.changes);
        trial.leaf = leaf.and_then(|leaf| leaf.show(mirror, &mut out, &mut provisional));
        out.provisional = provisional;
        settled.trial = Some(trial);
        if self.fresh_trials {
            settled.end_trial();
        }
        out
    }

    /// Whether the value so far can be shown from the live reader's own tree: what it read is
    /// strict JSON (no escape the repair stage may read as LaTeX, no byte that was not UTF-8,
    /// no repeated key, no fence closed on an open value), located where the final parse looks
    /// first. Such a text has one reading: the decision procedure settles what the reader
    /// read, so a view need not wait for it (what completed in its lag stays provisional, as
    /// a later byte may still turn a quote around; so does a closed root, as what follows may
    /// still change which value is the answer).
    fn reads_strictly(&self) -> bool {
        !self.settled_only
            && self.read_to == self.text.len()
            && strict_so_far(&self.reader, &self.tree, &self.text)
            && self.invalid_utf8_at.is_none()
            && self.tree.keeps_values()
    }

    /// [`StreamParser::update`] of a reply strict so far: the live reader's tree copied (each
    /// value once, as it completes), its open string or number shown after it; provisional
    /// are the open values and the lag's ([`Tree::lag_provisional`]), as
    /// [`StreamParser::snapshot`] shows them.
    fn update_from_reader(&self, mirror: &mut Mirror) -> Changes {
        let mut out = Changes::default();
        let tree = &self.tree;
        let text_len = self.text.len();
        mirror.copy_from(true);
        mirror.sync(tree, &mut out.changes);
        out.settled = Some(out.changes.len());
        out.malformed = tree.guessed();
        let mut provisional = Provisional::default();
        if tree.is_done() {
            out.done = true;
            provisional.other.push(String::new());
        } else if tree.has_started() {
            provisional.open = tree.lag_provisional(text_len);
            out.open = tree.innermost_pointer();
        }
        provisional.other.extend(tree.contested().iter().cloned());
        let leaf = match self.options.truncation {
            crate::Truncation::Complete if !tree.is_done() => {
                self.reader.pending(&self.text, tree.halted)
            }
            _ => None,
        };
        if let Some(value) = leaf {
            OpenLeaf::at(tree, value).show(mirror, &mut out, &mut provisional);
        }
        out.provisional = provisional;
        out
    }

    /// The events since the last call, in order. Nothing is built for events before the first
    /// call: it makes the events so far from what the stream has read (in the order it was
    /// read; each string's text so far as one [`Event::StringGrew`]), and from then on they are
    /// recorded as bytes arrive.
    pub fn events(&mut self) -> Vec<Event> {
        // A limit met here is returned by the next `feed` and by `finish`.
        let _ = self.settle();
        let failed = self.failed.is_some();
        let (text, reader, options) = (&self.text, &self.reader, &self.options);
        let settled = self
            .settled
            .get_mut()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        settled.end_trial();
        if !failed {
            settled.catch_up(text, reader, options, true, RESUME_AFTER);
        }
        let tree = &mut settled.view.tree;
        if tree.is_deferred() {
            // The first ask: the events so far are made from what was settled.
            tree.record_from_now(false);
        }
        let in_fence = reader.fence_byte().is_some();
        if self
            .hold
            .holds(text, reader.start, in_fence, tree, &self.tree)
        {
            return Vec::new();
        }
        let events = tree.events.as_mut().map(std::mem::take).unwrap_or_default();
        self.hold.handed_out |= tree.has_started() && !events.is_empty();
        events
    }

    /// The snapshot's parts from the live reader's own tree, read to the end of `text`, when
    /// that is strict JSON (as [`StreamParser::update_from_reader`] shows it).
    fn reader_view(&self, text: &str, pending_bytes: bool) -> Option<tree::Closed> {
        if self.settled_only
            || pending_bytes
            || self.failed.is_some()
            || self.invalid_utf8_at.is_some()
            || !self.tree.keeps_values()
        {
            return None;
        }
        let truncation = self.options.truncation;
        let closed = if self.read_to == text.len() {
            if !strict_so_far(&self.reader, &self.tree, text) {
                return None;
            }
            let leaf = self.reader.pending(text, self.tree.halted);
            self.tree.close_snapshot(leaf, truncation, text.len())
        } else {
            // The text the live reader has not read yet is read on copies.
            let mut reader = self.reader.clone();
            let mut tree = self.tree.copy_quiet();
            if let Stop::TooDeep = reader.run(text, &mut tree) {
                return None;
            }
            if !strict_so_far(&reader, &tree, text) {
                return None;
            }
            let leaf = reader.pending(text, tree.halted);
            tree.close_into(leaf, truncation, text.len())
        };
        self.strict_view_at.store(text.len(), Ordering::Relaxed);
        Some(closed)
    }

    /// The snapshot's parts from what the decision procedure settled, and the live reader's
    /// reading of the text after it (provisional): `None` before the JSON is located, or when
    /// the procedure failed where the final parse may not (the live view then stands alone).
    fn settled_view(&self, text: &str) -> Option<(tree::Closed, bool)> {
        if self.failed.is_some() {
            return None;
        }
        let mut settled = self
            .settled
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        settled.end_trial();
        settled.catch_up(&self.text, &self.reader, &self.options, true, RESUME_AFTER);
        if settled.view.broken {
            return None;
        }
        let truncation = self.options.truncation;
        if settled.view.tree.is_done() {
            let closed = settled
                .view
                .tree
                .close_snapshot(None, truncation, text.len());
            return Some((closed, self.reader.strict));
        }
        let (pos, mode) = settled.waiting_at()?;
        let mut tree = settled.view.tree.copy_quiet();
        tree.freeze();
        if !tree.has_started() && matches!(mode, crate::repair::grammar::Mode::Key { .. }) {
            // The reply begins inside an object whose `{` is missing, and the parser has not
            // decided its first spot yet: the object is open all the same.
            tree.open(true);
        }
        let reader = self.reader.after_engine(pos, mode);
        let (closed, reader) = read_provisional(reader, tree, text, truncation);
        Some((closed, self.reader.strict && reader.strict))
    }

    /// The text fed so far.
    pub fn text(&self) -> &str {
        &self.text
    }

    /// Chunks and bytes fed, and the time to the first complete value.
    pub fn stats(&mut self) -> StreamStats {
        let _ = self.settle();
        self.stats
    }

    /// Ends the stream: the result [`crate::parse`] gives for the whole reply (the same value,
    /// repair log and errors).
    ///
    /// # Errors
    /// As [`crate::parse`]; a limit the stream went over is returned again.
    pub fn finish(self) -> Result<Parsed, Error> {
        self.finish_later().result
    }

    /// `parse`'s result when the live reader read the whole reply as one document without a
    /// guess (the value it built is the fast path's; a clean read leaves nothing to revise).
    fn clean_result(&mut self) -> Option<Result<Parsed, Error>> {
        if self.invalid_utf8_at.is_some() {
            return None;
        }
        let start = self.reader.start?;
        let value = self.tree.take_clean_root()?;
        let read = start..self.tree.root_end();
        match crate::pipeline::strict_whole_read(
            &self.text,
            &self.options.settings(),
            value,
            read,
            self.reader.strict && !self.reader.latex_doubt,
        ) {
            Ok(result) => Some(result),
            Err(value) => {
                self.tree.put_root(value);
                None
            }
        }
    }

    /// Ends the stream, and says where the final parse reads a value the stream showed as
    /// complete otherwise ([`Event::Revised`], after the events not yet taken).
    pub fn finish_with_events(self) -> Finished {
        let FinishedLater {
            result,
            stats,
            text,
            events,
        } = self.finish_later();
        let read = match &result {
            Ok(parsed) => Some(&parsed.value),
            Err(error) => error.value(),
        };
        let events = events.resolve(&text, read);
        Finished {
            result,
            events,
            stats,
            text,
        }
    }

    /// Ends the stream as [`finish_with_events`](Self::finish_with_events) does, with the
    /// events made only when [`LaterEvents::resolve`] is called: what the Python and Node
    /// packages hold, as most callers never read them.
    pub fn finish_later(mut self) -> FinishedLater {
        if self.failed.is_none() {
            // A character still cut at the end is U+FFFD, as `parse_bytes` reads it.
            self.decode_raw(true);
            let _ = self.check_size(self.text.len());
        }
        let _ = self.catch_up();
        let clean = match self.failed.take() {
            Some(limit) => Err(Err(limit.error())),
            None => match self.clean_result() {
                Some(result) => Ok(result),
                None => Err(crate::parse_decoded(
                    &self.text,
                    self.invalid_utf8_at,
                    &self.options,
                )),
            },
        };
        // A view showed the live reader's own values as settled (`reads_strictly`) and the
        // result is not that reading: the events say which values it revised.
        let shown_by_reader = match (&clean, *self.strict_view_at.get_mut()) {
            (Err(_), at) if at > 0 => Some(match self.shown_by_reader.take() {
                Some(tree) => tree,
                None => self.tree.take_values(),
            }),
            _ => None,
        };
        let result = clean.unwrap_or_else(|result| result);
        self.stats.elapsed = self.created.elapsed();
        let view = self
            .settled
            .into_inner()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .into_view();
        let in_fence = self.reader.fence_byte().is_some();
        let held = self.hold.holds(
            &self.text,
            self.reader.start,
            in_fence,
            &view.tree,
            &self.tree,
        );
        FinishedLater {
            result,
            stats: self.stats,
            events: LaterEvents {
                shown_by_reader,
                view,
                held,
            },
            text: self.text,
        }
    }
}

/// What [`StreamParser::finish_later`] returns: [`Finished`] with its events still to make.
#[derive(Debug)]
pub struct FinishedLater {
    /// [`crate::parse`]'s result for the whole reply.
    pub result: Result<Parsed, Error>,
    /// The stream's counts.
    pub stats: StreamStats,
    /// The whole reply.
    pub text: String,
    /// The events, made when asked for.
    pub events: LaterEvents,
}

/// The events a finished stream has not handed out yet, made only when asked for.
#[derive(Debug)]
pub struct LaterEvents {
    /// What the stream showed: the final value completes it.
    view: View,
    /// The live reader's values a view showed as settled while the reply was strict JSON, when
    /// the result is not that reading.
    shown_by_reader: Option<Tree>,
    /// None of the value the stream read was handed out as events (see `hold.rs`): if the
    /// final value is not it, the final value is announced alone.
    held: bool,
}

impl LaterEvents {
    /// The events not taken before `finish` — what the stream settled, then the rest of
    /// `final_value` (the result's value, or the value a schema refused; `text` the whole
    /// reply) — then a [`Event::Revised`] for each value the stream showed as complete that
    /// `final_value` reads otherwise.
    pub fn resolve(mut self, text: &str, final_value: Option<&Value>) -> Vec<Event> {
        if self.view.tree.is_deferred() {
            self.view.tree.record_from_now(false);
        }
        // What was not settled while the reply arrived is the final value's.
        if let Some(value) = final_value {
            self.view.finish_with(value, text.len());
        }
        let tree = &mut self.view.tree;
        let mut events = tree.events.take().unwrap_or_default();
        let mut revised = Vec::new();
        if tree.has_started() {
            revised = tree.revisions(final_value);
        }
        if self.held && !revised.is_empty() {
            // What was held back is not the answer: nothing of it was shown.
            revised.clear();
            events =
                final_value.map_or_else(Vec::new, |value| tree.announced_anew(value, text.len()));
        }
        if let Some(shown) = &self.shown_by_reader {
            for path in shown.revisions(final_value) {
                if !revised.contains(&path) {
                    revised.push(path);
                }
            }
        }
        events.extend(revised.into_iter().map(|path| Event::Revised { path }));
        events
    }
}

/// What [`StreamParser::finish_with_events`] returns.
#[derive(Debug)]
pub struct Finished {
    /// What [`crate::parse`] gives for the whole reply.
    pub result: Result<Parsed, Error>,
    /// The events not taken yet, then one `Revised` per value the stream showed as complete
    /// that the final parse reads otherwise (or leaves out).
    pub events: Vec<Event>,
    /// Chunks, bytes, time to the first complete value.
    pub stats: StreamStats,
    /// The whole reply, as fed (spans in the result and the log refer to it).
    pub text: String,
}

/// The size limit the stream went over (kept so that every later call returns it).
#[derive(Debug, Clone)]
struct Oversized {
    size: usize,
    limit: usize,
}

impl Oversized {
    fn error(&self) -> Error {
        Error::TooLarge {
            size: self.size,
            limit: self.limit,
        }
    }
}

/// The innermost value of `snapshot` that is not complete: its longest provisional pointer
/// that no complete value covers.
fn innermost_open(snapshot: &Snapshot) -> Option<String> {
    if snapshot.done || snapshot.value.is_none() {
        return None;
    }
    snapshot
        .provisional
        .iter()
        .filter(|p| !covered(&snapshot.complete, p))
        .max_by_key(|p| p.len())
        .cloned()
}

fn pointer_mut<'v>(value: &'v mut Value, pointer: &str) -> Option<&'v mut Value> {
    let mut node = value;
    for token in crate::value::pointer_tokens(pointer)? {
        node = match node {
            Value::Object(map) => map.get_mut(&token)?,
            Value::Array(items) => items.get_mut(token.parse::<usize>().ok()?)?,
            _ => return None,
        };
    }
    Some(node)
}

/// How many bytes at the end of `bytes` start a UTF-8 character that is not finished there.
fn unfinished_tail(bytes: &[u8]) -> usize {
    for back in 1..=bytes.len().min(3) {
        let byte = bytes[bytes.len() - back];
        if byte & 0xC0 == 0x80 {
            continue; // a continuation byte: look further back for the lead
        }
        let needs = match byte {
            0xC2..=0xDF => 2,
            0xE0..=0xEF => 3,
            0xF0..=0xF4 => 4,
            _ => return 0,
        };
        return if needs > back { back } else { 0 };
    }
    0
}

#[cfg(test)]
mod done_only_tests {
    use super::covered;

    #[test]
    fn a_pointer_is_covered_by_itself_or_an_ancestor_only() {
        let complete: Vec<String> = ["/a", "/b/0", "/b/1/c"].map(String::from).to_vec();
        for inside in ["/a", "/a/x", "/a/x/y", "/b/0/z", "/b/1/c"] {
            assert!(covered(&complete, inside), "{inside}");
        }
        for outside in ["", "/ab", "/b", "/b/1", "/b/10", "/c"] {
            assert!(!covered(&complete, outside), "{outside}");
        }
        assert!(covered(&[String::new()], "/anything/at/all"));
    }
}
