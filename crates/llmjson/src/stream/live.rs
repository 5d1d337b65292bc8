//! A stream's value kept up to date in place: each update says what changed since the last one
//! ([`Change`]s), so that reading the value after every chunk costs what arrived, not the value
//! so far. The settled part is copied once, as the decision procedure settles it (a [`Mirror`]
//! remembers how much of each open container it copied); the provisional tail — the last window,
//! read on by the live reader on the settled tree itself and taken back after
//! ([`Tree::scratch`]) — is shown after it and taken back at the next update. A reply strict so
//! far is copied from the live reader's own tree instead (the same `Mirror`, see
//! `StreamParser::reads_strictly`). What is provisional is kept as where it starts
//! ([`Provisional`]) and listed only when asked.

use super::tree::{Step, Tree};
use crate::{Map, Value};

/// One change to the value a stream shows, since the last update. Changes act at a cursor: a
/// container on the value's open path (the root after [`Change::Root`]).
#[derive(Debug, Clone, PartialEq)]
pub enum Change {
    /// The value is replaced (`None`: nothing shown); the cursor goes to its root.
    Root(Option<Value>),
    /// The cursor goes to the container holding the one at the cursor.
    Up,
    /// The cursor goes into a member or element of the container at the cursor: in an object
    /// the one under `key`, in an array the `index`th (`index` is the member's position in an
    /// object too). Not always the last one: a repeated key's value is written in the first
    /// one's place.
    Enter {
        /// The member's key (`None` in an array).
        key: Option<String>,
        /// Its position.
        index: usize,
    },
    /// The container at the cursor keeps its first `len` members or elements.
    Truncate(usize),
    /// A value goes last in the container at the cursor (under `key` in an object).
    Push {
        /// The member's key (`None` in an array).
        key: Option<String>,
        /// The value.
        value: Value,
    },
    /// An empty container goes last in the one at the cursor (under `key` in an object), and
    /// the cursor goes into it.
    Open {
        /// The member's key (`None` in an array).
        key: Option<String>,
        /// An object (else an array).
        object: bool,
    },
}

/// What an update of a live view holds: the changes, and what the value is now.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Changes {
    /// The changes, in order.
    pub changes: Vec<Change>,
    /// How many of `changes` show what the decision procedure settled: the cursor is then on
    /// the innermost container it holds open; the rest show the provisional tail. `None`: the
    /// settled part did not change (the update only goes on with the tail), and that container
    /// is the one the last update said. A view that hands out copies copies the containers on
    /// both paths (the ones later changes touch).
    pub settled: Option<usize>,
    /// The root closed (as [`super::Snapshot::done`]).
    pub done: bool,
    /// As [`super::Snapshot::malformed`].
    pub malformed: bool,
    /// As [`super::Snapshot::provisional`]: the open values, those the decision procedure has
    /// not settled, and those read with a guess — kept as where they start
    /// ([`Provisional::pointers`] lists them).
    pub provisional: Provisional,
    /// The pointer of the innermost value still being written (an open container, or the open
    /// string or number shown): it and the containers around it are the only values not
    /// complete. `None` when the value is complete or nothing is shown.
    pub open: Option<String>,
}

/// Which values of a view a later byte may still change, kept as where they start: each open
/// container, and the first of its members or elements that is provisional (those after it are
/// too). Listing them would cost what the last window holds at every update; a caller that
/// wants the list asks for it ([`Provisional::pointers`]).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Provisional {
    /// The open containers, outermost first: each one's pointer, and the position of its first
    /// provisional member or element.
    pub open: Vec<(String, usize)>,
    /// The other provisional values: the root once it closed, values read with a guess, the
    /// open string or number.
    pub other: Vec<String>,
}

impl Provisional {
    /// Every provisional pointer of `value` (the view's), sorted: each open container's, those
    /// of its members or elements from the first provisional one on, and the others.
    pub fn pointers(&self, value: Option<&Value>) -> Vec<String> {
        let mut out = self.other.clone();
        for (pointer, from) in &self.open {
            out.push(pointer.clone());
            match value.and_then(|v| v.pointer(pointer)) {
                Some(Value::Object(map)) => {
                    for (key, _) in map.iter().skip(*from) {
                        let mut child = pointer.clone();
                        child.push('/');
                        crate::value::push_pointer_token(&mut child, key);
                        out.push(child);
                    }
                }
                Some(Value::Array(items)) => {
                    out.extend((*from..items.len()).map(|i| format!("{pointer}/{i}")));
                }
                _ => {}
            }
        }
        out.sort();
        out.dedup();
        out
    }

    /// Whether a provisional value of `value` (the view's) is the one at `pointer` or inside it
    /// (what [`Live::is_settled`] asks, as [`super::Snapshot::is_settled`]), without listing
    /// them.
    pub fn touches(&self, value: Option<&Value>, pointer: &str) -> bool {
        use crate::value::pointer_within;
        if self.other.iter().any(|p| pointer_within(p, pointer)) {
            return true;
        }
        self.open.iter().any(|(open, from)| {
            if pointer_within(open, pointer) {
                return true;
            }
            // A member or element of the open container, provisional from `from` on.
            let Some(token) = pointer
                .strip_prefix(open.as_str())
                .and_then(|rest| rest.strip_prefix('/'))
                .filter(|token| !token.contains('/'))
            else {
                return false;
            };
            let position = match value.and_then(|v| v.pointer(open)) {
                Some(Value::Object(map)) => map.get_index_of(&unescape(token)),
                Some(Value::Array(_)) => token.parse::<usize>().ok(),
                _ => None,
            };
            position.is_some_and(|at| at >= *from)
        })
    }
}

/// A JSON Pointer token's text.
fn unescape(token: &str) -> std::borrow::Cow<'_, str> {
    if token.contains('~') {
        std::borrow::Cow::Owned(token.replace("~1", "/").replace("~0", "~"))
    } else {
        std::borrow::Cow::Borrowed(token)
    }
}

/// The value a stream shows, kept up to date in place by [`super::StreamParser::live`].
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Live {
    value: Option<Value>,
    /// The cursor: positions from the root.
    cursor: Vec<usize>,
    /// The root closed.
    pub done: bool,
    /// As [`super::Snapshot::malformed`].
    pub malformed: bool,
    /// As [`Changes::provisional`].
    unsettled: Provisional,
    /// As [`Changes::open`].
    pub open: Option<String>,
}

impl Live {
    /// The value so far (as [`super::Snapshot::value`]).
    pub fn value(&self) -> Option<&Value> {
        self.value.as_ref()
    }

    /// Whether the value at `pointer` is complete: not the innermost open value nor a
    /// container around it.
    pub fn is_complete(&self, pointer: &str) -> bool {
        self.value
            .as_ref()
            .is_some_and(|v| v.pointer(pointer).is_some())
            && !self
                .open
                .as_deref()
                .is_some_and(|open| crate::value::pointer_within(open, pointer))
    }

    /// Whether the value at `pointer` is complete and settled (as
    /// [`super::Snapshot::is_settled`]).
    pub fn is_settled(&self, pointer: &str) -> bool {
        self.is_complete(pointer) && !self.unsettled.touches(self.value(), pointer)
    }

    /// As [`super::Snapshot::provisional`]: the pointers a later byte may still change, sorted
    /// (made when asked: see [`Provisional`]).
    pub fn provisional(&self) -> Vec<String> {
        self.unsettled.pointers(self.value())
    }

    /// Applies an update.
    pub fn apply(&mut self, changes: Changes) {
        for change in changes.changes {
            self.change(change);
        }
        self.done = changes.done;
        self.malformed = changes.malformed;
        self.unsettled = changes.provisional;
        self.open = changes.open;
    }

    fn at_cursor(&mut self) -> Option<&mut Value> {
        let mut node = self.value.as_mut()?;
        for &i in &self.cursor {
            node = match node {
                Value::Array(items) => items.get_mut(i)?,
                Value::Object(map) => map.get_index_mut(i)?.1,
                _ => return None,
            };
        }
        Some(node)
    }

    fn change(&mut self, change: Change) {
        match change {
            Change::Root(value) => {
                self.value = value;
                self.cursor.clear();
            }
            Change::Up => {
                self.cursor.pop();
            }
            Change::Enter { index, .. } => {
                let len = match self.at_cursor() {
                    Some(Value::Array(items)) => items.len(),
                    Some(Value::Object(map)) => map.len(),
                    _ => 0,
                };
                if index < len {
                    self.cursor.push(index);
                }
            }
            Change::Truncate(len) => match self.at_cursor() {
                Some(Value::Array(items)) => items.truncate(len),
                Some(Value::Object(map)) => map.truncate(len),
                _ => {}
            },
            Change::Push { key, value } => {
                push(self.at_cursor(), key, value);
            }
            Change::Open { key, object } => {
                let empty = if object {
                    Value::Object(Map::new())
                } else {
                    Value::Array(Vec::new())
                };
                if let Some(at) = push(self.at_cursor(), key, empty) {
                    self.cursor.push(at);
                }
            }
        }
    }
}

/// Puts `value` last in `container` (in an object, in the place of a member of the same key);
/// returns its position.
fn push(container: Option<&mut Value>, key: Option<String>, value: Value) -> Option<usize> {
    match container? {
        Value::Array(items) => {
            items.push(value);
            Some(items.len() - 1)
        }
        Value::Object(map) => Some(map.insert_full(key.unwrap_or_default(), value).0),
        _ => None,
    }
}

/// One open container a view shows of the settled tree.
#[derive(Debug, Default, Clone)]
struct Level {
    /// Its members or elements the view holds as settled (complete; they never change).
    synced: usize,
    /// The view holds, after those, the settled container still open below it.
    open_child: bool,
    /// The view holds provisional values after those.
    dirty: bool,
    /// The settled container open below is written under a key the container holds already
    /// (a repeated key): the view shows it in that member's place, not after the others.
    open_in_place: bool,
    /// Where the view shows the container open below: its position, and its key in an object
    /// (what [`Change::Enter`] says).
    open_at: usize,
    open_key: Option<String>,
}

impl Level {
    /// How many members or elements the view's container holds that are not provisional.
    fn kept(&self) -> usize {
        self.synced + usize::from(self.open_child && !self.open_in_place)
    }
}

/// Views are told apart by a number drawn once (a trial reading left open is its view's).
static NEXT_VIEW: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(1);

/// What a view holds of the settled tree, and where its cursor is: what the next update
/// starts from.
#[derive(Debug, Default)]
pub(super) struct Mirror {
    /// Which view this is (0: not drawn yet).
    id: u64,
    /// The settled tree's open containers the view holds, outermost first.
    levels: Vec<Level>,
    /// The view shows a value.
    shown: bool,
    /// The view shows the settled root, complete.
    done: bool,
    /// The view's root is provisional (it is replaced at the next update).
    provisional_root: bool,
    /// The settled tree's generation the view copied.
    generation: u64,
    /// How deep the cursor is (0: at the root).
    cursor: usize,
    /// The view copies the live reader's own tree (a reply strict so far), not the settled one.
    from_reader: bool,
}

impl Mirror {
    /// Which view this is.
    pub fn id(&mut self) -> u64 {
        if self.id == 0 {
            self.id = NEXT_VIEW.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        }
        self.id
    }

    /// The tree the next [`Mirror::sync`] copies: the live reader's own (`from_reader`) or the
    /// settled one. A view that copied the other starts again.
    pub fn copy_from(&mut self, from_reader: bool) {
        if self.from_reader != from_reader {
            self.from_reader = from_reader;
            self.provisional_root = true;
        }
    }

    /// The view is replaced whole by `value` (a view read another way).
    pub fn replace(&mut self, value: Option<Value>, out: &mut Vec<Change>) {
        *self = Mirror {
            id: self.id,
            shown: true,
            provisional_root: true,
            from_reader: self.from_reader,
            ..Mirror::default()
        };
        out.push(Change::Root(value));
    }

    /// Brings the view up to what `tree` (the settled tree) holds: provisional values taken
    /// back, settled ones copied once. The cursor ends on the innermost open container.
    pub fn sync(&mut self, tree: &Tree, out: &mut Vec<Change>) {
        if !self.try_sync(tree, out) {
            // (Never: what the view holds and the tree disagree.) The view starts again.
            self.shown = true;
            self.provisional_root = true;
            let _ = self.try_sync(tree, out);
        }
    }

    /// [`Mirror::sync`]; false when the view does not hold a container the tree says it does.
    fn try_sync(&mut self, tree: &Tree, out: &mut Vec<Change>) -> bool {
        if self.provisional_root || tree.generation != self.generation {
            if self.shown {
                out.push(Change::Root(None));
            }
            *self = Mirror {
                id: self.id,
                generation: tree.generation,
                from_reader: self.from_reader,
                ..Mirror::default()
            };
        }
        if let Some(root) = tree.root() {
            if !self.shown {
                out.push(Change::Root(Some(root.clone())));
                self.shown = true;
                self.cursor = 0;
            } else if !self.done {
                self.goto(0, out);
                self.finish(0, root, out);
            }
            self.done = true;
            self.levels.clear();
            return true;
        }
        let Some((object, _)) = tree.frame_at(0) else {
            return true;
        };
        if !self.shown {
            out.push(Change::Root(Some(empty(object))));
            self.shown = true;
            self.cursor = 0;
            self.levels = vec![Level::default()];
        }
        // The cursor moves only where something changes: an update that adds to the innermost
        // container says so without walking down from the root.
        let mut depth = 0;
        while let Some((_, len)) = tree.frame_at(depth) {
            let open_child = self.levels.get(depth).is_some_and(|l| l.open_child);
            if self.levels.len() <= depth + usize::from(open_child) {
                return false;
            }
            if std::mem::take(&mut self.levels[depth].dirty) {
                self.goto(depth, out);
                let level = &self.levels[depth];
                out.push(Change::Truncate(level.kept()));
            }
            let deeper = tree.frame_at(depth + 1);
            if self.levels[depth].open_child {
                let synced = self.levels[depth].synced;
                if len == synced && deeper.is_some() {
                    // The container below is still open.
                    depth += 1;
                    continue;
                }
                // It closed: the view finishes it from its complete value.
                if let Some((_, value)) = tree.child_at(depth, synced) {
                    self.goto(depth + 1, out);
                    self.finish(depth + 1, value, out);
                }
                let level = &mut self.levels[depth];
                level.synced += usize::from(!level.open_in_place);
                level.open_child = false;
                level.open_in_place = false;
                self.levels.truncate(depth + 1);
            }
            if self.levels[depth].synced < len {
                self.goto(depth, out);
            }
            for index in self.levels[depth].synced..len {
                if let Some((key, value)) = tree.child_at(depth, index) {
                    out.push(Change::Push {
                        key: key.map(str::to_owned),
                        value: value.clone(),
                    });
                }
            }
            self.levels[depth].synced = len;
            let Some((object, _)) = deeper else { break };
            self.goto(depth, out);
            let key = tree.key_at(depth).map(str::to_owned);
            out.push(Change::Open {
                key: key.clone(),
                object,
            });
            let replaced = tree.open_child_replaces(depth);
            let level = &mut self.levels[depth];
            level.open_child = true;
            level.open_in_place = replaced.is_some();
            level.open_at = replaced.unwrap_or(len);
            level.open_key = key;
            self.levels.truncate(depth + 1);
            self.levels.push(Level::default());
            self.cursor = depth + 1;
            depth += 1;
        }
        self.goto(depth, out);
        true
    }

    /// Moves the view's cursor to the open container at `depth` (each container on the way
    /// down holds the next one where its level says).
    fn goto(&mut self, depth: usize, out: &mut Vec<Change>) {
        while self.cursor > depth {
            out.push(Change::Up);
            self.cursor -= 1;
        }
        while self.cursor < depth {
            let level = self.levels.get(self.cursor).cloned().unwrap_or_default();
            out.push(Change::Enter {
                key: level.open_key,
                index: level.open_at,
            });
            self.cursor += 1;
        }
    }

    /// The view's container at `depth` (the cursor's) is `value` now complete: what it lacks
    /// is added, what it shows provisionally taken back first.
    fn finish(&mut self, depth: usize, value: &Value, out: &mut Vec<Change>) {
        let Some(level) = self.levels.get(depth).cloned() else {
            return;
        };
        if level.dirty {
            out.push(Change::Truncate(level.kept()));
        }
        let mut from = level.synced;
        if level.open_child {
            out.push(Change::Enter {
                key: level.open_key.clone(),
                index: level.open_at,
            });
            if let Some(child) = child_of(value, level.open_at) {
                self.finish(depth + 1, child.1, out);
            }
            out.push(Change::Up);
            from += 1;
        }
        let mut index = from;
        while let Some((key, child)) = child_of(value, index) {
            out.push(Change::Push {
                key: key.map(str::to_owned),
                value: child.clone(),
            });
            index += 1;
        }
    }

    /// Shows a trial reading's steps after the settled part (`sync` just ran).
    pub fn show_steps(&mut self, steps: Vec<Step>, out: &mut Vec<Change>) {
        for step in steps {
            match step {
                Step::Open { depth, key, object } => {
                    if depth == 0 {
                        self.replace_root(Some(empty(object)), out);
                    } else {
                        self.touch(depth - 1);
                        out.push(Change::Open { key, object });
                        self.cursor = depth;
                    }
                }
                Step::Push {
                    depth, key, value, ..
                } => {
                    if depth == 0 {
                        self.replace_root(Some(value), out);
                    } else {
                        self.touch(depth - 1);
                        out.push(Change::Push { key, value });
                    }
                }
                Step::Close { depth, .. } => {
                    if depth >= 2 {
                        out.push(Change::Up);
                        self.cursor = depth - 2;
                    }
                }
            }
        }
    }

    /// The open string or number, shown last at the cursor.
    pub fn show_leaf(
        &mut self,
        depth: usize,
        key: Option<String>,
        value: Value,
        out: &mut Vec<Change>,
    ) {
        if depth == 0 {
            self.replace_root(Some(value), out);
        } else {
            self.touch(depth - 1);
            out.push(Change::Push { key, value });
        }
    }

    /// The open string or number shown last (at `depth`: in the container at `depth - 1`, which
    /// `tree`, read on since, holds without it) is taken back.
    pub fn take_leaf(&mut self, depth: usize, tree: &Tree, out: &mut Vec<Change>) {
        match depth.checked_sub(1) {
            None => self.replace_root(None, out),
            Some(container) => {
                if let Some((_, len)) = tree.frame_at(container) {
                    out.push(Change::Truncate(len));
                }
            }
        }
    }

    /// A provisional value goes in the view's container at `depth`.
    fn touch(&mut self, depth: usize) {
        if let Some(level) = self.levels.get_mut(depth) {
            level.dirty = true;
        }
    }

    /// The trial reading shows a root the settled tree does not hold.
    fn replace_root(&mut self, value: Option<Value>, out: &mut Vec<Change>) {
        out.push(Change::Root(value));
        self.shown = true;
        self.provisional_root = true;
        self.cursor = 0;
    }
}

fn empty(object: bool) -> Value {
    if object {
        Value::Object(Map::new())
    } else {
        Value::Array(Vec::new())
    }
}

fn child_of(value: &Value, index: usize) -> Option<(Option<&str>, &Value)> {
    match value {
        Value::Object(map) => map
            .get_index(index)
            .map(|(key, value)| (Some(key.as_str()), value)),
        Value::Array(items) => items.get(index).map(|value| (None, value)),
        _ => None,
    }
}
