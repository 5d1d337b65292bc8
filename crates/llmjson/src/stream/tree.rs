//! The value a stream has shown so far: the containers still open (an explicit stack, as the
//! repair parser keeps them), the root once it closed, and the events each change makes.
//! Nothing here reads text: the reader (`reader.rs`) says what it read, the tree builds it.

use super::event::Event;
use crate::schema::Schema;
use crate::{Map, Truncation, Value};
use std::sync::Arc;

/// Where a value sits in its parent.
#[derive(Debug, Clone, Copy)]
pub(super) enum Segment<'a> {
    Key(&'a str),
    Index(usize),
}

#[derive(Debug, Clone)]
enum Container {
    /// An object and the key whose value is being read, if any.
    Object {
        map: Map,
        key: Option<String>,
    },
    Array(Vec<Value>),
}

/// An open container. Where it sits needs no field: its parent's pending key, or its parent's
/// length (the element being read), says so while it is open.
#[derive(Debug, Clone)]
struct Frame {
    container: Container,
    /// Where this container's last complete child ended (for the provisional lag).
    last_end: Option<usize>,
    /// How many of its children the decision procedure settled, in a tree the live reader
    /// reads on from there ([`Tree::freeze`]): the others are provisional.
    settled: Option<usize>,
}

impl Frame {
    /// How many of its children are complete.
    fn len(&self) -> usize {
        match &self.container {
            Container::Array(items) => items.len(),
            Container::Object { map, .. } => map.len(),
        }
    }

    /// Where the value being read in this container goes.
    fn next_segment(&self) -> Segment<'_> {
        match &self.container {
            Container::Array(items) => Segment::Index(items.len()),
            Container::Object { key, .. } => Segment::Key(key.as_deref().unwrap_or_default()),
        }
    }
}

/// How far back from the end of the text a completed value is still shown as provisional: the
/// decision procedure settles what lies this far behind the end of what arrived (`park::LAG`,
/// two of the windows its decisions look ahead: a later fault turns values around up to here).
/// In a tree nothing settled, the values completed this recently are provisional, as they would
/// be had the procedure settled the rest.
pub const LAG: usize = crate::repair::parser::park::LAG;

/// Room a new container is given: most of a reply's containers hold a few members, and growing
/// from nothing reallocates twice on the way to eight.
const OPEN_CAPACITY: usize = 8;

/// The partial value.
#[derive(Debug, Default)]
pub(super) struct Tree {
    frames: Vec<Frame>,
    root: Option<Value>,
    /// Where the root closed.
    root_end: usize,
    /// Events since the caller last took them; `None` until somebody asks for events (or when
    /// they are off).
    pub events: Option<Vec<Event>>,
    /// Events are wanted but nobody has asked yet: the common events are not built at all (the
    /// ones up to the first ask are made from the tree then, [`Tree::record_from_now`]); only
    /// the rare ones the tree cannot show later (a repeated key's `Revised`, `RequiredMissing`)
    /// are kept here.
    deferred: Option<Vec<Event>>,
    /// Pointers of values the reader read with a guess (a spot where readings compete).
    contested: Vec<String>,
    /// Values completed so far.
    pub completed: usize,
    pub schema: Option<Arc<Schema>>,
    max_depth: usize,
    /// What is added from now on is provisional (see [`Tree::freeze`]).
    frozen: bool,
    /// Only the shape is kept (which containers are open, their keys): the values are dropped
    /// as they complete. The live reader's tree once what it read is not strict JSON (its value
    /// can no longer be the result as it is; the decision procedure's is shown).
    shape_only: bool,
    /// A guess stops the reading ([`Tree::halt_at_guess`]); `halted` says one did.
    guess_halts: bool,
    pub halted: bool,
    /// Bumped when a value the tree holds is taken back or replaced (a restart, a repeated
    /// key): a live view that copied it starts again.
    pub generation: u64,
    /// A reading tried on the tree itself and taken back after ([`Tree::scratch`]).
    scratch: Option<Box<Scratch>>,
    /// With [`Tree::track_lag`]: the values completed less than [`LAG`] bytes before the
    /// last one, oldest first, each as (the depth of its container, where it ended). Those of a
    /// container that closed are taken out (it is one of its parent's then).
    recent: Option<std::collections::VecDeque<(usize, usize)>>,
    /// With [`Tree::track_lag`]: an object's key came again. Valid JSON, but most often a
    /// misreading (a closer too many) that the decision procedure reads otherwise: a view of
    /// this tree would replace the member shown.
    pub repeated: bool,
}

/// What a reading on trial changed, to take it back, and what it showed, step by step.
#[derive(Debug, Default)]
struct Scratch {
    undo: Vec<Undo>,
    steps: Vec<Step>,
    saved: Saved,
    /// The outermost open container the trial closed (`usize::MAX`: none).
    lowest_closed: usize,
}

/// The tree's own state a trial reading changes, kept to put back.
#[derive(Debug, Default)]
struct Saved {
    events: Option<Vec<Event>>,
    deferred: Option<Vec<Event>>,
    schema: Option<Arc<Schema>>,
    completed: usize,
    contested: usize,
    guess_halts: bool,
    halted: bool,
    frozen: bool,
}

/// One change of a trial reading, to take back.
#[derive(Debug)]
enum Undo {
    Opened,
    /// The innermost object's pending key before it changed.
    Key(Option<String>),
    /// A value went last in the innermost container (under `key` in an object, whose pending
    /// key it was); the container's `last_end` before.
    Pushed {
        key: Option<String>,
        last_end: Option<usize>,
    },
    /// A repeated key's value replaced `old`.
    Replaced {
        key: String,
        old: Value,
        last_end: Option<usize>,
    },
    /// The root was set (where the one before ended).
    Root {
        end: usize,
    },
    /// The innermost container closed (its value went into its parent, or became the root).
    Closed {
        last_end: Option<usize>,
        settled: Option<usize>,
        object: bool,
        key: Option<String>,
    },
}

/// What a trial reading showed, in order: what a live view does to show it. `depth` is the
/// number of containers open before the step.
#[derive(Debug)]
pub(super) enum Step {
    /// A container opened (under `key` in an object).
    Open {
        depth: usize,
        key: Option<String>,
        object: bool,
    },
    /// A value completed whole (under `key` in an object).
    Push {
        depth: usize,
        key: Option<String>,
        value: Value,
    },
    /// The innermost container closed.
    Close { depth: usize },
}

/// The snapshot's parts, before the public type wraps them.
pub(super) struct Closed {
    pub value: Option<Value>,
    pub complete: Vec<String>,
    pub provisional: Vec<String>,
    /// The open string or number in the snapshot, if kept (the schema leaves it as it is).
    pub open_leaf: Option<String>,
    pub done: bool,
    /// Something was read with a guess.
    pub guessed: bool,
}

impl Tree {
    /// With `events`, events are deferred until first asked for.
    pub fn new(max_depth: usize, schema: Option<Arc<Schema>>, events: bool) -> Tree {
        Tree {
            max_depth,
            schema,
            deferred: events.then(Vec::new),
            ..Tree::default()
        }
    }

    /// From now on only the shape is kept (see `shape_only`); what was built is dropped.
    pub fn drop_values(&mut self) {
        self.shape_only = true;
        for frame in &mut self.frames {
            match &mut frame.container {
                Container::Object { map, .. } => *map = Map::new(),
                Container::Array(items) => *items = Vec::new(),
            }
        }
        if self.root.is_some() {
            self.root = Some(Value::Null);
        }
    }

    /// [`Tree::drop_values`], handing back what was built: a tree that holds it, as it was.
    pub fn take_values(&mut self) -> Tree {
        let mut taken = self.copy_quiet_with(Vec::new(), None);
        taken.frames = self
            .frames
            .iter_mut()
            .map(|frame| {
                let container = match &mut frame.container {
                    Container::Object { map, key } => Container::Object {
                        map: std::mem::take(map),
                        key: key.clone(),
                    },
                    Container::Array(items) => Container::Array(std::mem::take(items)),
                };
                Frame {
                    container,
                    last_end: frame.last_end,
                    settled: frame.settled,
                }
            })
            .collect();
        taken.root = self.root.take();
        self.drop_values();
        if taken.root.is_some() {
            self.root = Some(Value::Null);
        }
        taken
    }

    /// Whether values are kept (a reader need not build what would be dropped).
    pub fn keeps_values(&self) -> bool {
        !self.shape_only
    }

    /// No events at all, now or later.
    pub fn events_off(&mut self) {
        self.events = None;
        self.deferred = None;
    }

    /// Events are wanted and nobody has asked for them yet.
    pub fn is_deferred(&self) -> bool {
        self.deferred.is_some()
    }

    /// The first ask for events: from now on they are recorded as they happen, and the ones
    /// that would have been recorded so far are made from the tree (the value shown so far, in
    /// the order it was read; each string's text as one `StringGrew`), followed by the rare
    /// events kept meanwhile. `string_open`: a string value is being read in the innermost
    /// container (its element was announced; the reader reports its text).
    pub fn record_from_now(&mut self, string_open: bool) {
        let Some(rare) = self.deferred.take() else {
            return;
        };
        let mut events = Vec::new();
        match &self.root {
            Some(root) => announce_value(root, String::new(), &mut events),
            None => {
                for (depth, frame) in self.frames.iter().enumerate() {
                    let path = self.pointer_of(depth);
                    if depth > 0 {
                        announce_place(&self.frames[depth - 1], path.clone(), &mut events);
                    }
                    match &frame.container {
                        Container::Array(items) => {
                            for (i, item) in items.iter().enumerate() {
                                let child = child_pointer(&path, Segment::Index(i));
                                events.push(Event::ElementAppended {
                                    path: child.clone(),
                                });
                                announce_value(item, child, &mut events);
                            }
                        }
                        Container::Object { map, .. } => {
                            for (key, item) in map.iter() {
                                let child = child_pointer(&path, Segment::Key(key));
                                events.push(Event::KeyStarted {
                                    path: child.clone(),
                                });
                                announce_value(item, child, &mut events);
                            }
                        }
                    }
                }
                if self.has_key() || (string_open && self.in_array()) {
                    if let Some(frame) = self.frames.last() {
                        announce_place(frame, self.next_pointer(), &mut events);
                    }
                }
            }
        }
        events.extend(rare);
        self.events = Some(events);
    }

    /// Keeps where recent values ended, so that those completed in the last [`LAG`]
    /// bytes are provisional ([`Tree::lag_provisional`]): the live reader's own tree, shown while
    /// what it read is strict JSON.
    pub fn track_lag(&mut self) {
        self.recent = Some(std::collections::VecDeque::new());
    }

    /// How many of the children of the open container at `depth` are settled (the first of
    /// those a later byte may still change; `text_len`: the text so far): those the decision
    /// procedure settled ([`Tree::freeze`]); with [`Tree::track_lag`], those that ended
    /// [`LAG`] bytes or more ago; else all but the last when it ended within [`LAG`].
    fn unsettled_from(&self, depth: usize, text_len: usize) -> usize {
        let Some(frame) = self.frames.get(depth) else {
            return 0;
        };
        if self.decoy_so_far() {
            return 0;
        }
        let len = frame.len();
        if let Some(settled) = frame.settled {
            return settled.min(len);
        }
        if let Some(recent) = &self.recent {
            let lagging = recent
                .iter()
                .rev()
                .take_while(|&&(_, end)| text_len.saturating_sub(end) < LAG)
                .filter(|&&(at, _)| at == depth)
                .count();
            return len.saturating_sub(lagging);
        }
        let lagging = frame
            .last_end
            .is_some_and(|end| text_len.saturating_sub(end) < LAG);
        if lagging {
            len.saturating_sub(1)
        } else {
            len
        }
    }

    /// A copy without the events (for a snapshot that reads ahead on its own).
    pub fn copy_quiet(&self) -> Tree {
        self.copy_quiet_with(self.frames.clone(), self.root.clone())
    }

    /// [`Tree::copy_quiet`] holding `frames` and `root`.
    fn copy_quiet_with(&self, frames: Vec<Frame>, root: Option<Value>) -> Tree {
        Tree {
            frames,
            root,
            root_end: self.root_end,
            events: None,
            deferred: None,
            contested: self.contested.clone(),
            completed: self.completed,
            schema: None,
            max_depth: self.max_depth,
            frozen: self.frozen,
            shape_only: self.shape_only,
            guess_halts: false,
            halted: false,
            generation: self.generation,
            scratch: None,
            recent: self.recent.clone(),
            repeated: self.repeated,
        }
    }

    /// What the tree holds now is settled, what is added from now on provisional: a copy of
    /// the settled tree that the live reader reads the rest of the text into.
    pub fn freeze(&mut self) {
        self.frozen = true;
        for frame in &mut self.frames {
            frame.settled = Some(match &frame.container {
                Container::Array(items) => items.len(),
                Container::Object { map, .. } => map.len(),
            });
        }
    }

    /// The first guess read into the tree from now on ends what it shows (a snapshot's tail:
    /// what the live reader reads past a guess is what a later byte most often turns around,
    /// and a member shown there would vanish again; the decision procedure shows it once it
    /// settles it).
    pub fn halt_at_guess(&mut self) {
        self.guess_halts = true;
    }

    /// Nothing the tree holds or gets is settled (the decision procedure has vouched for none
    /// of it: the live reader's view alone).
    pub fn unsettle(&mut self) {
        self.frozen = true;
        for frame in &mut self.frames {
            frame.settled = Some(0);
        }
    }

    pub fn depth(&self) -> usize {
        self.frames.len()
    }

    /// The root, when it closed and nothing in it was read with a guess (for `finish`'s
    /// shortcut: a clean read of a valid document is the strict reader's).
    pub fn take_clean_root(&mut self) -> Option<Value> {
        if self.contested.is_empty() && self.frames.is_empty() && !self.shape_only {
            self.root.take()
        } else {
            None
        }
    }

    /// Where the root closed (0 before it did).
    pub fn root_end(&self) -> usize {
        self.root_end
    }

    /// What was shown is abandoned (the decision procedure restarted at a later value, the
    /// draft before it given up): the tree starts again, and says the root was revised.
    pub fn restart(&mut self) {
        if self.has_started() {
            self.push_rare(Event::Revised {
                path: String::new(),
            });
        }
        self.frames.clear();
        self.root = None;
        self.root_end = 0;
        self.generation += 1;
        if let Some(recent) = &mut self.recent {
            recent.clear();
        }
    }

    pub fn put_root(&mut self, value: Value) {
        self.root = Some(value);
    }

    pub fn is_done(&self) -> bool {
        self.root.is_some()
    }

    pub fn has_started(&self) -> bool {
        self.root.is_some() || !self.frames.is_empty()
    }

    /// Whether the innermost open container is an object.
    pub fn in_object(&self) -> bool {
        matches!(
            self.frames.last().map(|f| &f.container),
            Some(Container::Object { .. })
        )
    }

    pub fn in_array(&self) -> bool {
        matches!(
            self.frames.last().map(|f| &f.container),
            Some(Container::Array(_))
        )
    }

    /// Whether an open object waits for a value of a key it read.
    pub fn has_key(&self) -> bool {
        matches!(
            self.frames.last().map(|f| &f.container),
            Some(Container::Object { key: Some(_), .. })
        )
    }

    fn push_event(&mut self, event: impl FnOnce(&Tree) -> Event) {
        if self.events.is_some() {
            let event = event(self);
            if let Some(events) = &mut self.events {
                events.push(event);
            }
        }
    }

    /// An event the tree cannot show later: recorded, or kept while events are deferred.
    fn push_rare(&mut self, event: Event) {
        if let Some(events) = self.events.as_mut().or(self.deferred.as_mut()) {
            events.push(event);
        }
    }

    /// The pointer of the open container at `depth` (0: the root).
    fn pointer_of(&self, depth: usize) -> String {
        let mut out = String::new();
        for parent in &self.frames[..depth.min(self.frames.len())] {
            push_segment(&mut out, parent.next_segment());
        }
        out
    }

    /// The pointer of the value being read in the innermost container.
    pub fn next_pointer(&self) -> String {
        self.pointer_of(self.frames.len())
    }

    /// Marks the value being read (or the innermost container, when none is) as read with a
    /// guess.
    pub fn contest(&mut self) {
        let pointer = if self.frames.is_empty() {
            String::new()
        } else {
            self.next_pointer()
        };
        if self.contested.last() != Some(&pointer) {
            self.contested.push(pointer);
        }
        self.halted |= self.guess_halts;
    }

    /// From now on what is read into the tree is a trial: [`Tree::end_scratch`] takes it back
    /// and says what it showed. Events are not recorded meanwhile, and the first guess ends the
    /// reading ([`Tree::halt_at_guess`]): a snapshot's provisional tail, read on the settled
    /// tree itself instead of on a copy of it.
    pub fn scratch(&mut self) {
        let saved = Saved {
            events: self.events.take(),
            deferred: self.deferred.take(),
            schema: self.schema.take(),
            completed: self.completed,
            contested: self.contested.len(),
            guess_halts: self.guess_halts,
            halted: self.halted,
            frozen: self.frozen,
        };
        self.guess_halts = true;
        self.halted = false;
        self.frozen = false;
        self.scratch = Some(Box::new(Scratch {
            saved,
            lowest_closed: usize::MAX,
            ..Scratch::default()
        }));
    }

    /// Whether anything the tree holds was read with a guess.
    pub fn guessed(&self) -> bool {
        !self.contested.is_empty()
    }

    /// The pointers read with a guess (those of a trial reading last).
    pub fn contested(&self) -> &[String] {
        &self.contested
    }

    /// During a trial reading: the open containers, each with the first value the trial
    /// completed in it (past `settled[i]` in the container at `i` that was open before the
    /// trial and still is; every child of one the trial opened).
    pub fn trial_provisional(&self, settled: &[usize]) -> Vec<(String, usize)> {
        let kept = self
            .scratch
            .as_ref()
            .map_or(0, |s| s.lowest_closed)
            .min(settled.len());
        let pointers = self.frame_pointers(self.frames.len());
        pointers
            .into_iter()
            .enumerate()
            .map(|(i, pointer)| {
                let from = if i < kept && !self.decoy_so_far() {
                    settled[i]
                } else {
                    0
                };
                (pointer, from)
            })
            .collect()
    }

    /// Whether the root, an object still open, reads so far as the JSON Schema a prompt gave
    /// (`$schema`, or a type with the keyword that describes its contents): a value the final
    /// parse passes over when an answer follows it (`pipeline/decoys.rs`). Which it is, only
    /// the end says: nothing in it is settled before.
    fn decoy_so_far(&self) -> bool {
        let Some(Frame {
            container: Container::Object { map, key },
            ..
        }) = self.frames.first()
        else {
            return false;
        };
        let has = |name: &str| map.get(name).is_some() || key.as_deref() == Some(name);
        if has("$schema") {
            return true;
        }
        match map.get("type").and_then(Value::as_str) {
            Some("object") => has("properties"),
            Some("array") => has("items"),
            _ => false,
        }
    }

    /// Whether the root reads as a JSON Schema (open: so far, as [`Tree::decoy_so_far`]), or,
    /// still open, may: every key it has so far is one of a schema's (`{"type": "object",` —
    /// the `properties` that says it comes next).
    pub fn reads_as_schema(&self) -> bool {
        if let Some(Frame {
            container: Container::Object { map, key },
            ..
        }) = self.frames.first()
        {
            let keys = || map.iter().map(|(k, _)| k.as_str()).chain(key.as_deref());
            let schema_keyword = |k: &str| crate::pipeline::decoys::SCHEMA_KEYWORDS.contains(&k);
            if keys().next().is_some() && keys().all(schema_keyword) {
                return true;
            }
        }
        match &self.root {
            Some(root) => crate::pipeline::decoys::is_schema(root),
            None => self.decoy_so_far(),
        }
    }

    /// Whether the root reads so far as a template of the answer echoed from the prompt (every
    /// leaf a type name: `{"name": "string", "when": "<date>"}`): a decoy, as a schema.
    /// Stops at the first real leaf (an answer's first leaf usually is one).
    pub fn reads_as_template(&self) -> bool {
        use crate::pipeline::decoys::{is_template, only_type_names};
        if let Some(root) = &self.root {
            return is_template(root);
        }
        let mut named = false;
        let all = match self.frames.first().map(|f| &f.container) {
            Some(Container::Object { map, .. }) => {
                map.iter().all(|(_, v)| only_type_names(v, &mut named))
            }
            Some(Container::Array(items)) => items.iter().all(|v| only_type_names(v, &mut named)),
            None => false,
        };
        all && named
    }

    /// The events a stream that showed nothing of `value` gives for it (with the schema's
    /// `RequiredMissing`), as its whole final value.
    pub fn announced_anew(&self, value: &Value, end: usize) -> Vec<Event> {
        let mut fresh = Tree::new(self.max_depth, self.schema.clone(), true);
        fresh.record_from_now(false);
        fresh.whole(value.clone(), end, false);
        fresh.events.take().unwrap_or_default()
    }

    /// The steps the trial took since this was last asked.
    pub fn take_steps(&mut self) -> Vec<Step> {
        self.scratch
            .as_mut()
            .map(|s| std::mem::take(&mut s.steps))
            .unwrap_or_default()
    }

    /// Takes back what was read since [`Tree::scratch`], and returns the steps not taken yet.
    pub fn end_scratch(&mut self) -> Vec<Step> {
        let Some(scratch) = self.scratch.take() else {
            return Vec::new();
        };
        let Scratch {
            undo, steps, saved, ..
        } = *scratch;
        // A value taken back, for the step before it in the log (a closed container's).
        let mut taken = None;
        for change in undo.into_iter().rev() {
            match change {
                Undo::Opened => {
                    self.frames.pop();
                }
                Undo::Key(before) => {
                    if let Some(Frame {
                        container: Container::Object { key, .. },
                        ..
                    }) = self.frames.last_mut()
                    {
                        *key = before;
                    }
                }
                Undo::Pushed {
                    key: name,
                    last_end,
                } => {
                    if let Some(frame) = self.frames.last_mut() {
                        let value = match &mut frame.container {
                            Container::Array(items) => items.pop(),
                            Container::Object { map, key } => {
                                *key = name;
                                map.pop().map(|(_, value)| value)
                            }
                        };
                        frame.last_end = last_end;
                        taken = value;
                    }
                }
                Undo::Replaced {
                    key: name,
                    old,
                    last_end,
                } => {
                    if let Some(frame) = self.frames.last_mut() {
                        if let Container::Object { map, key } = &mut frame.container {
                            let value = map.get_mut(&name).map(|slot| std::mem::replace(slot, old));
                            *key = Some(name);
                            taken = value;
                        }
                        frame.last_end = last_end;
                    }
                }
                Undo::Root { end } => {
                    let value = self.root.take();
                    self.root_end = end;
                    taken = value;
                }
                Undo::Closed {
                    last_end,
                    settled,
                    object,
                    key,
                } => {
                    let container = match taken.take() {
                        Some(Value::Object(map)) if object => Container::Object { map, key },
                        Some(Value::Array(items)) if !object => Container::Array(items),
                        // (Never: a closed container's value is the one taken back before.)
                        _ if object => Container::Object {
                            map: Map::new(),
                            key,
                        },
                        _ => Container::Array(Vec::new()),
                    };
                    self.frames.push(Frame {
                        container,
                        last_end,
                        settled,
                    });
                }
            }
        }
        self.events = saved.events;
        self.deferred = saved.deferred;
        self.schema = saved.schema;
        self.completed = saved.completed;
        self.contested.truncate(saved.contested);
        self.guess_halts = saved.guess_halts;
        self.halted = saved.halted;
        self.frozen = saved.frozen;
        steps
    }

    fn undo_log(&mut self, change: Undo) {
        if let Some(scratch) = &mut self.scratch {
            scratch.undo.push(change);
        }
    }

    fn show_step(&mut self, step: impl FnOnce(&Tree) -> Step) {
        if self.scratch.is_some() {
            let step = step(self);
            if let Some(scratch) = &mut self.scratch {
                scratch.steps.push(step);
            }
        }
    }

    /// The pending key of the innermost object (`None` in an array).
    pub fn pending_key(&self) -> Option<&str> {
        match self.frames.last().map(|f| &f.container) {
            Some(Container::Object { key, .. }) => key.as_deref(),
            _ => None,
        }
    }

    /// The open container at `depth`: whether it is an object, and how many members or
    /// elements it holds.
    pub fn frame_at(&self, depth: usize) -> Option<(bool, usize)> {
        self.frames.get(depth).map(|f| match &f.container {
            Container::Object { map, .. } => (true, map.len()),
            Container::Array(items) => (false, items.len()),
        })
    }

    /// The `index`th member or element of the open container at `depth`.
    pub fn child_at(&self, depth: usize, index: usize) -> Option<(Option<&str>, &Value)> {
        match &self.frames.get(depth)?.container {
            Container::Object { map, .. } => map
                .get_index(index)
                .map(|(key, value)| (Some(key.as_str()), value)),
            Container::Array(items) => items.get(index).map(|value| (None, value)),
        }
    }

    /// The key under which the open container at `depth + 1` sits in the one at `depth`.
    pub fn key_at(&self, depth: usize) -> Option<&str> {
        match &self.frames.get(depth)?.container {
            Container::Object { key, .. } => key.as_deref(),
            Container::Array(_) => None,
        }
    }

    /// Where the open container at `depth + 1` goes when it sits under a key the object at
    /// `depth` holds already (a repeated key: its value replaces that member's, in its place).
    pub fn open_child_replaces(&self, depth: usize) -> Option<usize> {
        match &self.frames.get(depth).map(|f| &f.container) {
            Some(Container::Object {
                map,
                key: Some(key),
            }) if self.frames.len() > depth + 1 => map.get_index_of(key),
            _ => None,
        }
    }

    /// The pointers of the first `count` open containers, outermost first.
    fn frame_pointers(&self, count: usize) -> Vec<String> {
        // Each container's pointer is its parent's and one segment: built in one pass.
        let count = count.min(self.frames.len());
        let mut out: Vec<String> = Vec::with_capacity(count);
        for i in 0..count {
            let mut pointer = match i {
                0 => String::new(),
                _ => out[i - 1].clone(),
            };
            if i > 0 {
                push_segment(&mut pointer, self.frames[i - 1].next_segment());
            }
            out.push(pointer);
        }
        out
    }

    /// What a later byte may still change, as [`Tree::close_into`] lists it (its open string or
    /// number aside): each open container, from its first child past
    /// [`Tree::unsettled_from`] on. A few pointers, so an update costs the same however much
    /// the tree holds.
    pub fn lag_provisional(&self, text_len: usize) -> Vec<(String, usize)> {
        let pointers = self.frame_pointers(self.frames.len());
        pointers
            .into_iter()
            .enumerate()
            .map(|(depth, pointer)| (pointer, self.unsettled_from(depth, text_len)))
            .collect()
    }

    /// The pointer of the innermost open container.
    pub fn innermost_pointer(&self) -> Option<String> {
        let depth = self.frames.len().checked_sub(1)?;
        Some(self.pointer_of(depth))
    }

    /// The root, once it closed.
    pub fn root(&self) -> Option<&Value> {
        self.root.as_ref()
    }

    /// Marks the innermost container as read with a guess the decision procedure makes alike
    /// (the `{` of a reply that begins with a key): provisional, but a reading halted at
    /// guesses goes on.
    pub fn presume(&mut self) {
        // (The container itself, not the member it reads next: it holds none yet.)
        let pointer = self.innermost_pointer().unwrap_or_default();
        if self.contested.last() != Some(&pointer) {
            self.contested.push(pointer);
        }
    }

    /// A value starts in the innermost container (an array announces its new element).
    fn starting(&mut self) {
        if self.in_array() {
            self.push_event(|t| Event::ElementAppended {
                path: t.next_pointer(),
            });
        }
    }

    /// Opens a container. Returns false when it would nest deeper than the limit.
    pub fn open(&mut self, object: bool) -> bool {
        if self.frames.len() >= self.max_depth {
            return false;
        }
        if self.in_object() && !self.has_key() {
            // A value with no key (`{[1]}`): the reader guessed; it keeps it under "".
            self.set_key(String::new());
        }
        self.starting();
        let key = self.pending_key().map(str::to_owned);
        self.show_step(|t| Step::Open {
            depth: t.frames.len(),
            key,
            object,
        });
        let container = if object {
            Container::Object {
                map: Map::with_capacity(OPEN_CAPACITY),
                key: None,
            }
        } else {
            Container::Array(Vec::with_capacity(OPEN_CAPACITY))
        };
        self.frames.push(Frame {
            container,
            last_end: None,
            settled: self.frozen.then_some(0),
        });
        self.undo_log(Undo::Opened);
        true
    }

    fn set_key(&mut self, name: String) {
        if let Some(Frame {
            container: Container::Object { key, .. },
            ..
        }) = self.frames.last_mut()
        {
            let before = key.replace(name);
            self.undo_log(Undo::Key(before));
        }
    }

    /// An object key was read: its value comes next.
    pub fn key(&mut self, name: String) {
        if self.guess_halts && self.repeats(&name) {
            // In a snapshot's provisional part, a repeated key is most often a misreading (a
            // closer too many, a quote astray): its value would replace the one shown.
            self.set_key(name);
            self.contest();
            return;
        }
        if self.recent.is_some() && !self.repeated && self.repeats(&name) {
            // (The live reader's tree: a view of it stops being shown, see `repeated`.)
            self.repeated = true;
        }
        self.set_key(name);
        self.push_event(|t| Event::KeyStarted {
            path: t.next_pointer(),
        });
    }

    /// The innermost object has a member `name` already.
    fn repeats(&self, name: &str) -> bool {
        matches!(
            self.frames.last(),
            Some(Frame { container: Container::Object { map, .. }, .. }) if map.get(name).is_some()
        )
    }

    /// A string value starts (its growth is reported by the reader).
    pub fn string_starts(&mut self) {
        if self.in_object() && !self.has_key() {
            self.set_key(String::new());
        }
        self.starting();
    }

    /// A scalar was read whole and ends at `end`.
    pub fn scalar(&mut self, value: Value, end: usize, announced: bool) {
        if !announced {
            if self.in_object() && !self.has_key() {
                self.set_key(String::new());
            }
            self.starting();
        }
        self.complete(value, end, false);
    }

    /// A value read whole (a complete container too), ending at `end`: its place, what it
    /// holds and its completion are announced as a stream reading it would have announced them.
    /// `announced`: its key or element was announced already.
    pub fn whole(&mut self, value: Value, end: usize, announced: bool) {
        if !announced {
            if self.in_object() && !self.has_key() {
                self.set_key(String::new());
            }
            self.starting();
        }
        if self.events.is_some() {
            let mut inner = Vec::new();
            announce_value(&value, self.next_pointer(), &mut inner);
            // The value's own completion is the last, and `complete` says it.
            inner.pop();
            if let Some(events) = &mut self.events {
                events.extend(inner);
            }
        }
        self.check_required_within(&value);
        self.complete(value, end, false);
    }

    /// Puts a complete value in its place (`closed`: a container the tree held open).
    fn complete(&mut self, value: Value, end: usize, closed: bool) {
        self.completed += 1;
        self.push_event(|t| Event::ValueCompleted {
            path: t.next_pointer(),
        });
        // (The step's copy is shown while the trial may go on; the tree's is taken back.)
        if !closed && self.scratch.is_some() {
            let key = self.pending_key().map(str::to_owned);
            let shown = value.clone();
            self.show_step(|t| Step::Push {
                depth: t.frames.len(),
                key,
                value: shown,
            });
        }
        let watching = self.events.is_some() || self.deferred.is_some();
        let in_scratch = self.scratch.is_some();
        let depth = self.frames.len().saturating_sub(1);
        let Some(frame) = self.frames.last_mut() else {
            let end_before = self.root_end;
            self.root = Some(value);
            self.root_end = end;
            self.undo_log(Undo::Root { end: end_before });
            return;
        };
        let last_end = frame.last_end.replace(end);
        if let Some(recent) = &mut self.recent {
            while recent
                .front()
                .is_some_and(|&(_, at)| at.saturating_add(LAG) < end)
            {
                recent.pop_front();
            }
            recent.push_back((depth, end));
        }
        if self.shape_only {
            if let Container::Object { key, .. } = &mut frame.container {
                *key = None;
            }
            return;
        }
        let (repeated, undo) = match &mut frame.container {
            Container::Array(items) => {
                items.push(value);
                (
                    None,
                    Undo::Pushed {
                        key: None,
                        last_end,
                    },
                )
            }
            Container::Object { map, key } => {
                let name = key.take().unwrap_or_default();
                let kept = in_scratch.then(|| name.clone());
                match map.entry(name) {
                    crate::value::Entry::Occupied(mut slot) => {
                        let old = slot.insert(value);
                        let repeated = watching.then(|| slot.key().clone());
                        (
                            repeated,
                            Undo::Replaced {
                                key: kept.unwrap_or_default(),
                                old,
                                last_end,
                            },
                        )
                    }
                    crate::value::Entry::Vacant(slot) => {
                        slot.insert(value);
                        (
                            None,
                            Undo::Pushed {
                                key: kept,
                                last_end,
                            },
                        )
                    }
                }
            }
        };
        if in_scratch {
            self.undo_log(undo);
        } else if matches!(undo, Undo::Replaced { .. }) {
            // A value shown is replaced: a live view copied the old one.
            self.generation += 1;
        }
        // A repeated key: the value shown before is replaced (its pointer built only then).
        if let Some(key) = repeated {
            let parent = self.pointer_of(self.frames.len() - 1);
            self.push_rare(Event::Revised {
                path: child_pointer(&parent, Segment::Key(&key)),
            });
        }
    }

    /// The innermost container closed at `end`.
    pub fn close(&mut self, end: usize) {
        if self.frames.is_empty() {
            return;
        }
        if let Some(scratch) = &mut self.scratch {
            scratch.lowest_closed = scratch.lowest_closed.min(self.frames.len() - 1);
        }
        self.show_step(|t| Step::Close {
            depth: t.frames.len(),
        });
        let Some(frame) = self.frames.pop() else {
            return;
        };
        if let Some(recent) = &mut self.recent {
            // Its values are inside it: it is the one provisional value there.
            let depth = self.frames.len();
            while recent.back().is_some_and(|&(at, _)| at >= depth) {
                recent.pop_back();
            }
        }
        let (last_end, settled) = (frame.last_end, frame.settled);
        let (value, object, key) = match frame.container {
            Container::Array(items) => (Value::Array(items), false, None),
            Container::Object { map, key } => {
                self.check_required(&map);
                (Value::Object(map), true, key)
            }
        };
        self.undo_log(Undo::Closed {
            last_end,
            settled,
            object,
            key,
        });
        self.complete(value, end, true);
    }

    /// Whether an open container of this kind is on the stack (for a closer that does not
    /// match the innermost one).
    pub fn open_kinds(&self) -> impl DoubleEndedIterator<Item = bool> + '_ {
        self.frames
            .iter()
            .map(|f| matches!(f.container, Container::Object { .. }))
    }

    /// With a schema: an object closed; say which required properties it lacks (they can no
    /// longer appear).
    fn check_required(&mut self, map: &Map) {
        let Some(schema) = self.watched_schema() else {
            return;
        };
        if let Some(node) = self.next_schema(&schema) {
            let pointer = self.next_pointer();
            self.report_missing(node, map, &pointer);
        }
    }

    /// With a schema: a complete value was put in place whole; say which required properties
    /// each object in it lacks.
    fn check_required_within(&mut self, value: &Value) {
        let Some(schema) = self.watched_schema() else {
            return;
        };
        let Some(node) = self.next_schema(&schema) else {
            return;
        };
        let root = schema.walk();
        let mut stack = vec![(node, self.next_pointer(), value)];
        while let Some((node, pointer, value)) = stack.pop() {
            let children: Vec<(Segment<'_>, &Value)> = match value {
                Value::Object(map) => {
                    self.report_missing(node, map, &pointer);
                    map.iter().map(|(k, v)| (Segment::Key(k), v)).collect()
                }
                Value::Array(items) => items
                    .iter()
                    .enumerate()
                    .map(|(i, v)| (Segment::Index(i), v))
                    .collect(),
                _ => continue,
            };
            for (segment, child) in children.into_iter().rev() {
                if let Some(next) = child_schema(node, segment) {
                    let node = crate::schema::coerce::resolve_ref(root, next);
                    stack.push((node, child_pointer(&pointer, segment), child));
                }
            }
        }
    }

    /// The schema, when there is one and events are watched.
    fn watched_schema(&self) -> Option<Arc<Schema>> {
        if self.events.is_none() && self.deferred.is_none() {
            return None;
        }
        self.schema.clone()
    }

    /// The schema node of the value being read in the innermost container.
    fn next_schema<'s>(&self, schema: &'s Schema) -> Option<&'s Value> {
        let root = schema.walk();
        let mut node = crate::schema::coerce::resolve_ref(root, root);
        for segment in self.frames.iter().map(Frame::next_segment) {
            node = crate::schema::coerce::resolve_ref(root, child_schema(node, segment)?);
        }
        Some(node)
    }

    fn report_missing(&mut self, node: &Value, map: &Map, pointer: &str) {
        let Some(required) = node.get("required").and_then(Value::as_array) else {
            return;
        };
        let missing: Vec<String> = required
            .iter()
            .filter_map(Value::as_str)
            .filter(|name| !map.contains_key(name))
            .map(str::to_owned)
            .collect();
        for property in missing {
            self.push_rare(Event::RequiredMissing {
                path: pointer.to_owned(),
                property,
            });
        }
    }

    /// The value so far, closed the way `truncation` says, with the pointers of its complete
    /// and provisional values. `text_len` is how much text the reader has seen.
    pub fn close_snapshot(
        &self,
        pending: Option<Value>,
        truncation: Truncation,
        text_len: usize,
    ) -> Closed {
        self.copy_quiet().close_into(pending, truncation, text_len)
    }

    /// [`Self::close_snapshot`] of a copy (the containers are moved, not copied again).
    pub fn close_into(
        mut self,
        pending: Option<Value>,
        truncation: Truncation,
        text_len: usize,
    ) -> Closed {
        let mut complete = Vec::new();
        let mut provisional = Vec::new();
        let guessed = !self.contested.is_empty();
        if let Some(root) = self.root.take() {
            complete.push(String::new());
            // What follows a closed root may still be the answer instead (a draft, a decoy):
            // the root is provisional until the end.
            provisional.push(String::new());
            provisional.extend(self.contested.iter().cloned());
            provisional.sort();
            provisional.dedup();
            return Closed {
                value: Some(root),
                complete,
                provisional,
                open_leaf: None,
                done: true,
                guessed,
            };
        }
        if self.frames.is_empty() {
            return Closed {
                value: None,
                complete,
                provisional,
                open_leaf: None,
                done: false,
                guessed,
            };
        }
        // Under `DropElement`, the outermost open element of an array is left out whole.
        let keep = match truncation {
            Truncation::DropElement => (1..self.frames.len())
                .find(|&i| matches!(self.frames[i - 1].container, Container::Array(_)))
                .unwrap_or(self.frames.len()),
            _ => self.frames.len(),
        };
        let mut child = match pending {
            Some(v) if truncation == Truncation::Complete && keep == self.frames.len() => Some(v),
            _ => None,
        };
        let open_leaf = child.is_some().then(|| self.next_pointer());
        let mut pointers = self.frame_pointers(keep);
        // (A repeated key's value being written again is not complete: the open containers'
        // pointers and the open leaf's are taken out of `complete` at the end.)
        let mut open = pointers.clone();
        let unsettled: Vec<usize> = (0..keep)
            .map(|depth| self.unsettled_from(depth, text_len))
            .collect();
        let frames = std::mem::take(&mut self.frames);
        for (i, frame) in frames.into_iter().take(keep).enumerate().rev() {
            let pointer = std::mem::take(&mut pointers[i]);
            // Complete children of an open container: each is complete; recent ones are
            // provisional (a later byte may still turn the reading around).
            let unsettled = unsettled[i];
            match &frame.container {
                Container::Array(items) => {
                    for index in 0..items.len() {
                        let path = child_pointer(&pointer, Segment::Index(index));
                        if index >= unsettled {
                            provisional.push(path.clone());
                        }
                        complete.push(path);
                    }
                }
                Container::Object { map, .. } => {
                    for (index, key) in map.keys().enumerate() {
                        let path = child_pointer(&pointer, Segment::Key(key));
                        if index >= unsettled {
                            provisional.push(path.clone());
                        }
                        complete.push(path);
                    }
                }
            }
            provisional.push(pointer);
            let mut container = frame.container;
            match (&mut container, child.take()) {
                (Container::Array(items), Some(v)) => items.push(v),
                (Container::Object { map, key }, Some(v)) => {
                    if let Some(name) = key.clone() {
                        map.insert(name, v);
                    }
                }
                _ => {}
            }
            child = Some(match container {
                Container::Array(items) => Value::Array(items),
                Container::Object { map, .. } => Value::Object(map),
            });
        }
        if let Some(leaf) = &open_leaf {
            provisional.push(leaf.clone());
        }
        provisional.extend(self.contested.iter().cloned());
        provisional.sort();
        provisional.dedup();
        open.extend(open_leaf.clone());
        complete.sort();
        if open.iter().any(|p| complete.binary_search(p).is_ok()) {
            complete.retain(|c| !open.contains(c));
        }
        Closed {
            value: child,
            complete,
            provisional,
            open_leaf,
            done: false,
            guessed,
        }
    }

    /// The paths this stream showed as complete whose value the final parse reads otherwise:
    /// what the `Revised` events report at the end.
    pub fn revisions(&self, final_value: Option<&Value>) -> Vec<String> {
        let mut out = Vec::new();
        if let Some(root) = &self.root {
            compare(root, final_value, String::new(), &mut out);
            return out;
        }
        for (depth, frame) in self.frames.iter().enumerate() {
            let pointer = self.pointer_of(depth);
            let here = final_value.and_then(|v| v.pointer(&pointer));
            match &frame.container {
                Container::Array(items) => {
                    for (i, item) in items.iter().enumerate() {
                        let path = child_pointer(&pointer, Segment::Index(i));
                        compare(item, here.and_then(|h| h.get(i)), path, &mut out);
                    }
                }
                Container::Object { map, .. } => {
                    for (key, item) in map.iter() {
                        let path = child_pointer(&pointer, Segment::Key(key));
                        compare(item, here.and_then(|h| h.get(key.as_str())), path, &mut out);
                    }
                }
            }
        }
        out
    }
}

/// Announces the value at `path` in `parent` (a key started or an element appended).
fn announce_place(parent: &Frame, path: String, events: &mut Vec<Event>) {
    events.push(match parent.container {
        Container::Array(_) => Event::ElementAppended { path },
        Container::Object { .. } => Event::KeyStarted { path },
    });
}

/// The events of a complete value at `path` as a stream reading it would record them after its
/// announcement: what it holds (each member's key, each element), a string's text, and each
/// value's completion, innermost first. An explicit stack: values nest up to the depth limit.
fn announce_value(value: &Value, path: String, events: &mut Vec<Event>) {
    enum Step<'v> {
        /// A value to describe; `Some(in_array)`: announce it first (an element, or a member).
        Enter(&'v Value, String, Option<bool>),
        Done(String),
    }
    let mut stack = vec![Step::Enter(value, path, None)];
    while let Some(step) = stack.pop() {
        let (value, path) = match step {
            Step::Done(path) => {
                events.push(Event::ValueCompleted { path });
                continue;
            }
            Step::Enter(value, path, announce) => {
                match announce {
                    Some(true) => events.push(Event::ElementAppended { path: path.clone() }),
                    Some(false) => events.push(Event::KeyStarted { path: path.clone() }),
                    None => {}
                }
                (value, path)
            }
        };
        match value {
            // Children pushed last-first, so that they come out in order.
            Value::Array(items) => {
                stack.push(Step::Done(path.clone()));
                for (i, item) in items.iter().enumerate().rev() {
                    let child = child_pointer(&path, Segment::Index(i));
                    stack.push(Step::Enter(item, child, Some(true)));
                }
            }
            Value::Object(map) => {
                stack.push(Step::Done(path.clone()));
                for (key, item) in map.iter().rev() {
                    let child = child_pointer(&path, Segment::Key(key));
                    stack.push(Step::Enter(item, child, Some(false)));
                }
            }
            Value::String(text) => {
                if !text.is_empty() {
                    events.push(Event::StringGrew {
                        path: path.clone(),
                        text: text.clone(),
                    });
                }
                events.push(Event::ValueCompleted { path });
            }
            _ => events.push(Event::ValueCompleted { path }),
        }
    }
}

/// Reports the highest paths where `shown` (complete) and the final value differ.
fn compare(shown: &Value, last: Option<&Value>, path: String, out: &mut Vec<String>) {
    let Some(last) = last else {
        out.push(path);
        return;
    };
    if shown == last {
        return;
    }
    match (shown, last) {
        (Value::Object(a), Value::Object(b))
            if a.len() == b.len() && a.keys().zip(b.keys()).all(|(x, y)| x == y) =>
        {
            for (key, value) in a.iter() {
                let child = child_pointer(&path, Segment::Key(key));
                compare(value, b.get(key.as_str()), child, out);
            }
        }
        (Value::Array(a), Value::Array(b)) if a.len() == b.len() => {
            for (i, (x, y)) in a.iter().zip(b).enumerate() {
                compare(x, Some(y), child_pointer(&path, Segment::Index(i)), out);
            }
        }
        _ => out.push(path),
    }
}

/// The schema (its `$ref` not followed) a value at `segment` in a value fitting `node` must
/// fit: a property's, or `additionalProperties`; an item's from `prefixItems`, or `items`.
pub(super) fn child_schema<'s>(node: &'s Value, segment: Segment<'_>) -> Option<&'s Value> {
    match segment {
        Segment::Key(key) => node
            .get("properties")
            .and_then(|p| p.get(key))
            .or_else(|| node.get("additionalProperties").filter(|v| v.is_object())),
        Segment::Index(i) => node
            .get("prefixItems")
            .and_then(|p| p.get(i))
            .or_else(|| node.get("items").filter(|v| v.is_object())),
    }
}

/// `parent` + `/` + the segment, escaped as RFC 6901 says.
pub(super) fn child_pointer(parent: &str, segment: Segment<'_>) -> String {
    let mut out = String::with_capacity(parent.len() + 12);
    out.push_str(parent);
    push_segment(&mut out, segment);
    out
}

fn push_segment(out: &mut String, segment: Segment<'_>) {
    match segment {
        Segment::Index(i) => {
            use std::fmt::Write;
            let _ = write!(out, "/{i}");
        }
        Segment::Key(key) => {
            out.push('/');
            crate::value::push_pointer_token(out, key);
        }
    }
}
