//! What the decision procedure has settled: the repair parser, parked between chunks
//! (`repair::parser::park`), run over the reply as it arrives, and a [`Tree`] that shows what it
//! decided — the value, and the events that say how it grew. A value appears here once the
//! parser has decided past it (a lag behind the end of what has arrived), so what it shows is
//! what the final parse reads, bar what a later fence or draft changes: the stream's events come
//! from here, and its snapshots start from here (the live reader reads the lag's bytes after it).
//!
//! The parser runs only when the stream is looked at (events, a snapshot, the end): a stream
//! nobody looks at costs nothing here.

use super::reader::Reader;
use super::tree::Tree;
use crate::pipeline::{config, Detail};
use crate::repair::grammar::Mode;
use crate::repair::index::StructIndex;
use crate::repair::parser::park::{resume, Holder, Parked, Progress};
use crate::repair::{Fence, Output};
use crate::{Options, Value};

/// A parked parse runs again once this many bytes have arrived since it last ran (each run
/// first reads again the token it stopped before), when events or a snapshot ask.
pub const RESUME_AFTER: usize = 256;

/// The same for a view kept up to date in place: between two runs its trial reading of the
/// last window goes on over what arrives instead of starting again (`StreamParser::live`).
pub const RESUME_AFTER_IN_PLACE: usize = 1024;

/// An open container the tree shows, as the parser opened it.
#[derive(Debug, Clone)]
struct Shown {
    opened_at: usize,
    object: bool,
    /// Its complete members or items in the tree.
    children: usize,
    /// The key whose value is being read, as the tree announced it.
    key: Option<String>,
}

#[derive(Debug)]
enum State {
    /// The reply's JSON has not been located yet.
    Before,
    Parsing(Box<ParkedParse>),
    /// The text ended and the parser finished (or failed, or went too deep: the tree then
    /// keeps what it showed).
    Ended,
}

/// The parked parser with what it needs to run again.
struct ParkedParse {
    parked: Parked,
    fence: Option<Fence>,
    index: StructIndex,
}

impl std::fmt::Debug for ParkedParse {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ParkedParse")
            .field("pos", &self.parked.pos())
            .finish_non_exhaustive()
    }
}

/// The settled part of a stream: the parked parser, and what it has shown.
#[derive(Debug)]
pub(super) struct Settled {
    state: State,
    pub view: View,
    /// The text's length when the parser last ran (`None`: it has not).
    ran_at: Option<usize>,
    /// How far the text must grow before the parser runs again at least: a token longer than
    /// the gap between runs (a long string) is read again at each run.
    stuck: usize,
    /// A trial reading of the last window left open on the tree between two updates of the
    /// view it showed: it goes on while the parser does not run.
    pub trial: Option<Box<Trial>>,
}

/// A trial reading of the last window, left open on the settled tree ([`Tree::scratch`]).
#[derive(Debug)]
pub struct Trial {
    /// Its reader, where it stopped.
    pub reader: Reader,
    /// Which view shows it.
    pub owner: u64,
    /// How many members each open container held when it began (what it shows comes after).
    pub settled: Vec<usize>,
    /// The open string or number it showed last (the depth it was shown at): taken back before
    /// the reading goes on.
    pub leaf: Option<usize>,
}

/// What the parser has shown: the tree, and its open containers as the parser opened them.
#[derive(Debug)]
pub struct View {
    pub tree: Tree,
    shown: Vec<Shown>,
    /// The parser failed where the final parse may not (level `none`, the depth limit): the
    /// live reader's view stands in for it.
    pub broken: bool,
}

impl Settled {
    pub fn new(tree: Tree) -> Settled {
        Settled {
            state: State::Before,
            view: View {
                tree,
                shown: Vec::new(),
                broken: false,
            },
            ran_at: None,
            stuck: 0,
            trial: None,
        }
    }

    /// Takes back a trial reading left open, if any.
    pub fn end_trial(&mut self) {
        if self.trial.take().is_some() {
            self.view.tree.end_scratch();
        }
    }

    /// Whether [`Settled::catch_up`] would run the parser now (`cadence`: the bytes to wait for
    /// between runs).
    pub fn due(&self, text: &str, reader: &Reader, more: bool, cadence: usize) -> bool {
        let more = more && reader.fence_closed_at().is_none();
        if more
            && self
                .ran_at
                .is_some_and(|at| text.len() < at + cadence.max(self.stuck))
        {
            return false;
        }
        match self.state {
            State::Before => reader.start.is_some() && !reader.weak,
            State::Parsing(_) => true,
            State::Ended => false,
        }
    }

    /// Where the parser stopped and what it expects there, while it waits for more text.
    pub fn waiting_at(&self) -> Option<(usize, Mode)> {
        match &self.state {
            State::Parsing(parse) => Some((parse.parked.pos(), parse.parked.mode())),
            _ => None,
        }
    }

    /// Runs the parser over the reply so far (`more`: more may come), once the live reader has
    /// located its JSON, and shows in the tree what it decided.
    /// `cadence`: the bytes to wait for between two runs. A trial reading left open is taken
    /// back first when the parser runs.
    pub fn catch_up(
        &mut self,
        text: &str,
        reader: &Reader,
        options: &Options,
        more: bool,
        cadence: usize,
    ) {
        if !self.due(text, reader, more, cadence) {
            return;
        }
        self.end_trial();
        // A fence that closed ends the value's region: what it holds can be decided whole.
        let (end, more) = match reader.fence_closed_at() {
            Some(end) => (end, false),
            None => (text.len(), more),
        };
        if matches!(self.state, State::Before) {
            let Some(start) = reader.start else { return };
            // JSON in a line of code: the final parse takes any JSON in the prose over it, so
            // nothing of it is settled before the end.
            if reader.weak {
                return;
            }
            let mut config = config(&options.settings(), Detail::Kinds);
            config.inside_object = !matches!(text.as_bytes().get(start), Some(b'{' | b'['));
            self.state = State::Parsing(Box::new(ParkedParse {
                parked: Parked::new(start, &config),
                fence: reader.fence_byte().map(|byte| Fence { byte }),
                index: StructIndex::new(),
            }));
        }
        let State::Parsing(parse) = std::mem::replace(&mut self.state, State::Ended) else {
            return;
        };
        let ParkedParse {
            parked,
            fence,
            index,
        } = *parse;
        // (Whether the reply began inside an object is the parked parse's own: set at its start.)
        let config = config(&options.settings(), Detail::Kinds);
        let before = parked.pos();
        match resume(text, &index, end, fence, config, parked, more) {
            Progress::Waiting(parked) => {
                // What it completed ended before where it stopped.
                self.view.show(&parked, parked.pos());
                if self.view.broken {
                    return;
                }
                // A token longer than the gap between runs (a long string) is read again at
                // each run: the next run waits until the text has grown by as much again.
                self.stuck = if parked.pos() == before {
                    text.len() - before
                } else {
                    0
                };
                self.ran_at = Some(text.len());
                self.state = State::Parsing(Box::new(ParkedParse {
                    parked: *parked,
                    fence,
                    index,
                }));
            }
            Progress::Finished(Ok(Output { value, end, .. })) => {
                self.view.show_root(value, end);
            }
            // The final parse says why; the tree keeps what it showed.
            Progress::Finished(Err(_)) => self.view.broken = true,
        }
    }

    /// The reply ended: what the parser showed, for the last events.
    pub fn into_view(mut self) -> View {
        self.end_trial();
        self.view
    }
}

impl View {
    /// The reply ended and the final parse read `value` (ending at `end`): what the tree shows
    /// open is completed and closed by it (where the two disagree, the tree keeps what it showed
    /// and the revisions say so).
    pub fn finish_with(&mut self, value: &Value, end: usize) {
        self.show_root(value.clone(), end);
    }

    /// The value is complete: whatever the tree shows open is closed by it.
    fn show_root(&mut self, value: Value, end: usize) {
        if self.tree.is_done() {
            return;
        }
        if self.shown.is_empty() {
            self.tree.whole(value, end, false);
            return;
        }
        self.close_shown(0, Some(&value), end);
    }

    /// Shows the parked parse: closes what the tree shows open that the parser closed, adds the
    /// members and items the parser completed, opens what it opened.
    fn show(&mut self, parked: &Parked, end: usize) {
        let open: Vec<(usize, Holder<'_>)> = parked
            .open()
            .filter(|(_, holder)| !matches!(holder, Holder::Pass(_)))
            .collect();
        if open.is_empty() {
            // (Shown once: a parse waiting after its value is not copied at every run.)
            if let (Some(root), false) = (parked.root(), self.tree.is_done()) {
                self.show_root(root.clone(), end);
            }
            return;
        }
        // How deep the tree and the parser agree on what is open.
        let mut common = 0;
        while common < self.shown.len()
            && common < open.len()
            && self.shown[common].opened_at == open[common].0
            && self.shown[common].object == matches!(open[common].1, Holder::Object(..))
        {
            common += 1;
        }
        if common < self.shown.len() {
            // The tree's containers past `common` were closed by the parser: their values are
            // in the container at `common - 1`.
            let Some(parent) = common.checked_sub(1) else {
                // The parser's outermost container is not the tree's: a restart.
                self.reset();
                return self.show(parked, end);
            };
            let value = child_being_read(&open[parent].1, &self.shown[parent]);
            self.close_shown(common, value, end);
        }
        for depth in common.saturating_sub(1)..open.len() {
            if depth >= self.shown.len() {
                // Newly opened: announced under its key (or as the next element).
                let object = matches!(open[depth].1, Holder::Object(..));
                if let Some(parent) = depth.checked_sub(1) {
                    self.announce_key(parent, &open[parent].1);
                }
                if !self.tree.open(object) {
                    self.broken = true;
                    return;
                }
                self.shown.push(Shown {
                    opened_at: open[depth].0,
                    object,
                    children: 0,
                    key: None,
                });
            }
            self.add_children(depth, &open[depth].1, end);
        }
        if let Some(top) = open.len().checked_sub(1) {
            self.announce_key(top, &open[top].1);
        }
    }

    /// The tree's open containers from `depth` on are closed; `value` is the one at `depth` as
    /// the parser completed it (whose children past the tree's are added first).
    fn close_shown(&mut self, depth: usize, value: Option<&Value>, end: usize) {
        // The values of the containers from `depth` on, outermost first.
        let mut values = vec![value];
        for k in depth..self.shown.len().saturating_sub(1) {
            let next = values
                .last()
                .copied()
                .flatten()
                .and_then(|v| child_of_value(v, &self.shown[k]));
            values.push(next);
        }
        for k in (depth..self.shown.len()).rev() {
            let Some(value) = values[k - depth] else {
                // The parser read it otherwise than the tree shows it: shown as it is, revised
                // at the end.
                self.close_top(end);
                continue;
            };
            let shown = &self.shown[k];
            let children: Vec<(Option<String>, Value)> = match value {
                Value::Object(map) if shown.object => map
                    .iter()
                    .skip(shown.children)
                    .map(|(k, v)| (Some(k.clone()), v.clone()))
                    .collect(),
                Value::Array(items) if !shown.object => items
                    .iter()
                    .skip(shown.children)
                    .map(|v| (None, v.clone()))
                    .collect(),
                _ => Vec::new(),
            };
            for (key, item) in children {
                self.add_child(k, key, item, end);
            }
            self.close_top(end);
        }
    }

    /// Closes the tree's innermost container (its parent counts one more child).
    fn close_top(&mut self, end: usize) {
        self.tree.close(end);
        self.shown.pop();
        if let Some(parent) = self.shown.last_mut() {
            parent.children += 1;
            parent.key = None;
        }
    }

    /// Adds the members or items of the parser's container at `depth` past those the tree shows.
    fn add_children(&mut self, depth: usize, holder: &Holder<'_>, end: usize) {
        let from = self.shown[depth].children;
        match holder {
            Holder::Object(map, _) => {
                for (key, item) in map.iter().skip(from) {
                    self.add_child(depth, Some(key.clone()), item.clone(), end);
                }
            }
            Holder::Array(items) => {
                for item in items.iter().skip(from) {
                    self.add_child(depth, None, item.clone(), end);
                }
            }
            Holder::Pass(_) => {}
        }
    }

    fn add_child(&mut self, depth: usize, key: Option<String>, value: Value, end: usize) {
        let announced = match key {
            Some(key) => {
                if self.shown[depth].key.as_deref() != Some(key.as_str()) {
                    self.tree.key(key);
                }
                true
            }
            None => false,
        };
        self.tree.whole(value, end, announced);
        self.shown[depth].children += 1;
        self.shown[depth].key = None;
    }

    /// Announces the key the parser's object at `depth` read for the value it is reading.
    fn announce_key(&mut self, depth: usize, holder: &Holder<'_>) {
        if let Holder::Object(_, Some(key)) = holder {
            if self.shown[depth].key.as_deref() != Some(*key) {
                self.tree.key((*key).to_owned());
                self.shown[depth].key = Some((*key).to_owned());
            }
        }
    }

    /// The parser abandoned what it read (a draft): the tree starts again.
    fn reset(&mut self) {
        self.shown.clear();
        self.tree.restart();
    }
}

/// The value the parser completed in `holder` where the tree shows the child being read.
fn child_being_read<'v>(holder: &Holder<'v>, shown: &Shown) -> Option<&'v Value> {
    match holder {
        Holder::Object(map, _) => shown.key.as_deref().and_then(|k| map.get(k)),
        Holder::Array(items) => items.get(shown.children),
        Holder::Pass(value) => *value,
    }
}

/// The child of a complete `value` where the tree shows the child being read.
fn child_of_value<'v>(value: &'v Value, shown: &Shown) -> Option<&'v Value> {
    match value {
        Value::Object(map) if shown.object => shown.key.as_deref().and_then(|k| map.get(k)),
        Value::Array(items) if !shown.object => items.get(shown.children),
        _ => None,
    }
}
