//! The decision procedure. At a spot with several readings, each is followed through the text
//! after it by a beam over the grammar's skeleton (modes and container kinds, no values):
//! readings fork where the text is ambiguous again, readings that reach the same state at the
//! same byte merge (the point where they agree, keeping the cheaper), and readings that already
//! cost more than a finished one are dropped. A spot is decided once every reading still
//! followed is [`cost::WINDOW`] bytes past it: the cheapest path wins (ties go to the reading
//! listed first at the spot where the paths part), and every choice on that path with enough
//! text after it is handed to the parser as a plan. Readings that disagree with what was decided
//! are dropped; when one reading is left, the beam stops until the next ambiguous spot.
//!
//! Spots whose first reading wins clearly (no repair or a cosmetic one, every other reading
//! costing [`CLEAR_GAP`] more, and the same for the next few spots) are decided without a beam.
//!
//! **Invariant: linear time.** The beam holds at most [`cost::BEAM`] readings, each step
//! consumes input or closes a container, and the beam never goes back over text it has read:
//! every token is read at most once per reading in the beam. A budget of steps per input byte
//! caps the total all the same, after which spots are decided on what the beam has seen.

use super::cost::{self, Cost};
use super::grammar::{after_value, Action, Ctx, Mode, Reading, Readings, Stack};
use super::lex::{valid_after, Kind, Stop};
use crate::spelling::QuoteClass;
use crate::value::parse::string_end;
use std::collections::VecDeque;

/// Containers a reading may open beyond the parser's before it stops being followed.
const LOCAL_DEPTH: usize = 32;
/// Spots after a clear winner that must be clear too for the beam to be skipped.
const CLEAN_STEPS: usize = 4;
/// The fast path checks this many spots ahead of the ones it vouches for, so that each spot it
/// vouches for had [`CLEAN_STEPS`] clear spots after it.
const CLEAN_TRUSTED: usize = 12;
/// How far the parser's clean path looks: past the spot it decides, far enough to vouch for the
/// spots after it too (the parser reads them next, spot by spot).
const REACH_SPOTS: usize = CLEAN_STEPS + CLEAN_TRUSTED;
/// How far a lane's check of the spot after its stretch looks: that spot alone is vouched for.
/// The spots after it are mostly the next stretch, which the lane reads in one go: a longer walk
/// would vouch for spots inside it that nobody asks about (3% of a small reply's instructions,
/// measured). The spot's verdict is the same either way: it needs [`CLEAN_STEPS`] clear spots
/// after it.
const REACH_NEXT_STRETCH: usize = CLEAN_STEPS;
/// The path arena is compacted once this many nodes (and at least half of it) can no longer
/// matter: amortised, each node is moved at most once.
const COMPACT_AT: usize = 4096;

/// The open containers of one reading: the parser's own (a prefix of them, as the reading may
/// have closed some) and the ones the reading opened, packed three bits each into a word so
/// that comparing and copying readings costs next to nothing.
#[derive(Clone, Copy, PartialEq, Eq)]
struct SkelStack {
    real_depth: u32,
    local_len: u8,
    local: u128,
}

/// Bits per container kind in [`SkelStack::local`].
const KIND_BITS: u32 = 3;
const KIND_MASK: u128 = (1 << KIND_BITS) - 1;

fn kind_bits(kind: Kind) -> u128 {
    match kind {
        Kind::Object => 0,
        Kind::Array => 1,
        Kind::Call => 2,
        Kind::Tuple => 3,
        Kind::Set => 4,
    }
}

fn bits_kind(bits: u128) -> Kind {
    match bits & KIND_MASK {
        0 => Kind::Object,
        1 => Kind::Array,
        2 => Kind::Call,
        3 => Kind::Tuple,
        _ => Kind::Set,
    }
}

struct View<'a> {
    real: &'a [Kind],
    /// Where the real containers opened.
    opens: &'a [usize],
    stack: &'a SkelStack,
}

impl View<'_> {
    /// The kind `n` containers below the innermost one (0: the innermost).
    fn nth_from_top(&self, n: usize) -> Option<Kind> {
        let s = self.stack;
        let local = usize::from(s.local_len);
        if n < local {
            Some(s.local_kind(local - 1 - n))
        } else {
            let k = n - local;
            (k < s.real_depth as usize).then(|| self.real[s.real_depth as usize - 1 - k])
        }
    }
}

impl Stack for View<'_> {
    fn top(&self) -> Option<Kind> {
        self.nth_from_top(0)
    }

    fn below(&self) -> Option<Kind> {
        self.nth_from_top(1)
    }

    fn depth(&self) -> usize {
        self.stack.real_depth as usize + usize::from(self.stack.local_len)
    }

    fn top_open(&self) -> Option<usize> {
        let s = self.stack;
        // Known for the parser's containers only (the readings' own are not tracked).
        if s.local_len > 0 || s.real_depth == 0 {
            return None;
        }
        self.opens.get(s.real_depth as usize - 1).copied()
    }

    fn open_below(&self, kind: Kind) -> bool {
        let s = self.stack;
        let local = usize::from(s.local_len);
        let real = &self.real[..s.real_depth as usize];
        if local > 0 {
            (0..local - 1).any(|i| s.local_kind(i) == kind) || real.contains(&kind)
        } else if let Some((_, rest)) = real.split_last() {
            rest.contains(&kind)
        } else {
            false
        }
    }
}

impl SkelStack {
    fn new(real_depth: usize) -> Self {
        SkelStack {
            real_depth: real_depth as u32,
            local_len: 0,
            local: 0,
        }
    }

    fn local_kind(&self, i: usize) -> Kind {
        bits_kind(self.local >> (KIND_BITS * i as u32))
    }

    /// Applies a reading's pops and push; `false` if the reading nests too deep to follow.
    fn apply(&mut self, s: &Reading) -> bool {
        for _ in 0..s.pops {
            if self.local_len > 0 {
                self.local_len -= 1;
                self.local &= !(KIND_MASK << (KIND_BITS * u32::from(self.local_len)));
            } else if self.real_depth > 0 {
                self.real_depth -= 1;
            }
        }
        if let Some(kind) = s.push {
            if usize::from(self.local_len) >= LOCAL_DEPTH {
                return false;
            }
            self.local |= kind_bits(kind) << (KIND_BITS * u32::from(self.local_len));
            self.local_len += 1;
        }
        true
    }
}

/// One reading being followed.
#[derive(Clone, Copy)]
struct Hyp {
    pos: usize,
    mode: Mode,
    stack: SkelStack,
    cost: Cost,
    /// The conventions already charged (see [`cost::STYLE`]).
    styles: u16,
    /// Its last choice in the path arena (`NONE`: none since the beam started).
    node: u32,
    /// Its first choice since the last decision handed to the parser: readings are kept per
    /// such choice, so that one reading's many variants cannot crowd out another reading.
    origin: u32,
}

const NONE: u32 = u32::MAX;

impl Hyp {
    /// The kind of state it is in: its mode (without details) and its depth.
    fn niche(&self) -> (u8, u32) {
        let mode = match self.mode {
            Mode::Value { .. } => 0,
            Mode::Key { .. } => 1,
            Mode::Colon => 2,
            Mode::Next { .. } => 3,
            Mode::Str { .. } => 4,
            Mode::Done | Mode::ScalarDone => 5,
        };
        (
            mode,
            self.stack.real_depth + u32::from(self.stack.local_len),
        )
    }

    /// Two readings are in one state (and merge, the cheaper kept) at the same byte, in the
    /// same mode and containers. Inside a string, where it opened is not part of the state:
    /// readings that put a string's start at different quotes of the same text (a string full
    /// of code's quotes has many) would otherwise be followed side by side to its end, each
    /// paying the same for what comes next, and crowd the beam. What the later start saves on
    /// the text it does not hold, the earlier one has already paid or not (its cost so far);
    /// measured on the outcomes (one of 23,639 changed, a wrong value for another wrong one)
    /// and the scoreboards, it decides as before at a fraction of the steps.
    fn same_state(&self, other: &Hyp) -> bool {
        let state = |m: Mode| match m {
            Mode::Str {
                class, key, odd, ..
            } => Mode::Str {
                class,
                key,
                odd,
                open: 0,
            },
            m => m,
        };
        self.pos == other.pos && state(self.mode) == state(other.mode) && self.stack == other.stack
    }
}

/// A choice on a path: at byte `at` in `mode`, `reading` was taken, leading to byte `to`
/// (two readings of one kind may lead to different places: two split points).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Step {
    pub at: usize,
    pub mode: Mode,
    pub action: Action,
    pub to: usize,
}

#[derive(Clone, Copy)]
struct Node {
    parent: u32,
    /// Choices before it on its path.
    depth: u32,
    /// Its index among the readings of its spot (the order readings are listed in).
    choice: u8,
    step: Step,
}

/// The readings being followed ahead of the parser.
struct Beam {
    /// The parser's open containers when the beam started (readings see a prefix of them),
    /// and where each opened.
    base: Vec<Kind>,
    base_opens: Vec<usize>,
    alive: Vec<Hyp>,
    /// The best reading that finished (the input ended, the document closed, prose began).
    done: Option<Hyp>,
    nodes: Vec<Node>,
    /// The last choice handed to the parser: every reading kept descends from it.
    root: u32,
    /// Choices decided and not yet used by the parser.
    plan: VecDeque<Step>,
    /// Scratch space for a path being handed over.
    chain: Vec<u32>,
    /// The readings of the spot being expanded.
    readings: Readings,
}

/// The decision procedure's state across one parse: the beam, and its step budget.
pub(crate) struct Searcher {
    budget: usize,
    beam: Option<Beam>,
    /// A finished beam, kept for its buffers (a parse may start thousands of beams).
    spare: Option<Beam>,
    /// The fast path checked the first readings up to here: spots before it on that path
    /// with a clear winner need no second look.
    clean_until: usize,
    /// Readings of spots the fast path looks at.
    scratch: Readings,
    /// The first readings of the spots the fast path vouched for, in order: the parser takes
    /// them without asking the grammar again (closers excepted: see [`Searcher::planned`]).
    vouched: VecDeque<Vouched>,
    /// The conventions the document has used so far (see [`cost::STYLE`]): charged once per
    /// document, not once per beam.
    styles: u16,
}

impl Searcher {
    pub(crate) fn new(input_len: usize) -> Self {
        Searcher {
            budget: cost::SEARCH_BASE + cost::SEARCH_STEPS_PER_BYTE.saturating_mul(input_len),
            beam: None,
            spare: None,
            clean_until: 0,
            scratch: Readings::default(),
            // Room is made at the first clean path (a parse that fails at its first defect,
            // as the strict attempt before a repair does, never needs it).
            vouched: VecDeque::new(),
            styles: 0,
        }
    }

    /// The reading the fast path vouched for at `at` in `mode`, if it walked there. A closer's
    /// readings are not kept: the layout charges them by where the parser's own containers
    /// opened, which the walk does not know for the containers it opened itself.
    pub(crate) fn planned(&mut self, mode: Mode, at: usize) -> Option<Reading> {
        while self.vouched.front().is_some_and(|v| v.at < at) {
            self.vouched.pop_front();
        }
        let next = self.vouched.front()?;
        (next.at == at && next.mode == mode).then_some(next.reading)
    }

    /// The spot at `at` in `mode` was vouched for (a lane's check of the spot after its
    /// stretch) with `reading` first among its readings: the parser, arriving there, takes it as
    /// it takes the spots a clean path vouched for, without listing the readings again. A
    /// closer is left to the parser, as the clean path leaves it.
    pub(crate) fn plan(&mut self, ctx: &Ctx<'_>, mode: Mode, at: usize, reading: Reading) {
        if !left_to_parser(ctx.lex.b, at)
            && self.vouched.front().is_none_or(|v| v.at > at)
            && super::shortcut(super::Shortcut::Vouched)
        {
            self.vouched.push_front(Vouched { at, mode, reading });
        }
    }

    /// The parser took a reading using convention `style` (a [`crate::repair::grammar::style`]
    /// bit).
    pub(crate) fn note_style(&mut self, style: u16) {
        self.styles |= style;
    }

    /// Stops following readings (their buffers are kept for the next beam).
    fn drop_beam(&mut self) {
        if let Some(beam) = self.beam.take() {
            self.spare = Some(beam);
        }
    }

    /// Chooses among the readings `cands` of the spot at `at` in `mode`, the parser's open
    /// containers being `real` (innermost last). Returns the index of the chosen reading.
    pub(crate) fn choose(
        &mut self,
        ctx: &Ctx<'_>,
        real: &[Kind],
        opens: &[usize],
        mode: Mode,
        at: usize,
        cands: &Readings,
    ) -> usize {
        if cands.len() <= 1 {
            return 0;
        }
        if self.beam.is_some() {
            if let Some(choice) = self.decide(ctx, mode, at, cands) {
                return choice;
            }
            // The parser is somewhere the beam did not expect: start afresh.
            self.drop_beam();
        }
        if self.vouches_reaching(ctx, real, opens, at, cands, REACH_SPOTS) {
            return 0;
        }
        self.clean_until = 0;
        self.vouched.clear();
        self.start(real, opens, mode, at, cands);
        self.decide(ctx, mode, at, cands).unwrap_or(0)
    }

    /// No beam is following the text: the parser's next spots are decided one by one.
    /// The text grew by `bytes` (a stream): the budget grows as a longer input's would, and
    /// what the search planned or followed from the shorter text is dropped (a reading that ran
    /// to its end was priced as if the reply stopped there). The conventions seen stay.
    pub(crate) fn text_grew(&mut self, bytes: usize) {
        self.budget = self
            .budget
            .saturating_add(cost::SEARCH_STEPS_PER_BYTE.saturating_mul(bytes));
        self.forget();
    }

    /// What a step changes that outlives it: the conventions the document has used and the
    /// budget left (a step undone puts them back, so that reading it again prices it alike).
    pub(crate) fn checkpoint(&self) -> (u16, usize) {
        (self.styles, self.budget)
    }

    pub(crate) fn restore(&mut self, (styles, budget): (u16, usize)) {
        self.styles = styles;
        self.budget = budget;
    }

    /// Drops the beam and the plan (the next contested spot starts a new beam).
    pub(crate) fn forget(&mut self) {
        self.drop_beam();
        self.clean_until = 0;
        self.vouched.clear();
    }

    /// No beam follows the text at `at`: none was started, or the last one has handed over
    /// every choice it made and follows no reading. Such a beam is dropped here: at the next
    /// contested spot it would have nothing to say, and be dropped there.
    pub(crate) fn idle_at(&mut self, at: usize) -> bool {
        if let Some(beam) = &self.beam {
            let spent = beam.alive.is_empty()
                && beam.done.is_none()
                && beam.plan.back().is_none_or(|step| step.at < at);
            if !spent {
                return false;
            }
            self.drop_beam();
        }
        true
    }

    /// [`Searcher::vouches_reaching`] for the spot right after a lane's stretch (`at`, its
    /// readings `cands`): the walk looks [`REACH_NEXT_STRETCH`] spots ahead.
    pub(crate) fn vouches_after_stretch(
        &mut self,
        ctx: &Ctx<'_>,
        real: &[Kind],
        opens: &[usize],
        at: usize,
        cands: &Readings,
    ) -> bool {
        self.vouches_reaching(ctx, real, opens, at, cands, REACH_NEXT_STRETCH)
    }

    /// The first of `cands`, the readings of the spot at `at`, wins clearly and so do those of
    /// the next spots: the spot needs no beam. The walk checks up to `reach` spots ahead
    /// ([`REACH_SPOTS`] or [`REACH_NEXT_STRETCH`]); spots it vouches for on the way are not
    /// walked again.
    fn vouches_reaching(
        &mut self,
        ctx: &Ctx<'_>,
        real: &[Kind],
        opens: &[usize],
        at: usize,
        cands: &Readings,
        reach: usize,
    ) -> bool {
        if !clear_winner(cands) {
            return false;
        }
        if at < self.clean_until {
            return true;
        }
        self.vouched.clear();
        // A clean path holds at most this many: one allocation per parse, not a growth at
        // every doubling.
        self.vouched.reserve(CLEAN_STEPS + CLEAN_TRUSTED + 1);
        match clean_path(
            ctx,
            real,
            opens,
            at,
            cands,
            Walk {
                reach,
                readings: &mut self.scratch,
                vouched: &mut self.vouched,
            },
        ) {
            Some(reached) => {
                self.clean_until = reached;
                while self.vouched.back().is_some_and(|v| v.at >= reached) {
                    self.vouched.pop_back();
                }
                true
            }
            None => {
                self.vouched.clear();
                false
            }
        }
    }

    /// Decides one spot on its own (the beam, if any, is dropped: the parser is about to go
    /// somewhere it did not follow).
    pub(crate) fn choose_alone(
        &mut self,
        ctx: &Ctx<'_>,
        real: &[Kind],
        opens: &[usize],
        mode: Mode,
        at: usize,
        cands: &Readings,
    ) -> usize {
        self.drop_beam();
        if cands.len() <= 1 {
            return 0;
        }
        self.start(real, opens, mode, at, cands);
        let choice = self.decide(ctx, mode, at, cands).unwrap_or(0);
        self.drop_beam();
        choice
    }

    fn start(&mut self, real: &[Kind], opens: &[usize], mode: Mode, at: usize, cands: &Readings) {
        let mut beam = self.spare.take().unwrap_or_else(|| Beam {
            base: Vec::new(),
            base_opens: Vec::new(),
            alive: Vec::with_capacity(cost::BEAM * 2),
            done: None,
            nodes: Vec::new(),
            root: NONE,
            plan: VecDeque::new(),
            chain: Vec::new(),
            readings: Readings::new(),
        });
        beam.base.clear();
        beam.base.extend_from_slice(real);
        beam.base_opens.clear();
        beam.base_opens.extend_from_slice(opens);
        beam.alive.clear();
        beam.done = None;
        beam.nodes.clear();
        beam.root = NONE;
        beam.plan.clear();
        let root = Hyp {
            pos: at,
            mode,
            stack: SkelStack::new(real.len()),
            cost: 0,
            styles: self.styles,
            node: NONE,
            origin: NONE,
        };
        beam.branch(&root, cands, at, mode);
        self.beam = Some(beam);
    }

    /// The beam's choice for this spot: from the plan, or by following the readings further
    /// and deciding more. `None` when the spot is not on the beam's path.
    fn decide(&mut self, ctx: &Ctx<'_>, mode: Mode, at: usize, cands: &Readings) -> Option<usize> {
        loop {
            let beam = self.beam.as_mut()?;
            while beam.plan.front().is_some_and(|s| s.at < at) {
                beam.plan.pop_front();
            }
            if let Some(step) = beam.plan.front().copied() {
                if step.at != at || step.mode != mode {
                    return None;
                }
                beam.plan.pop_front();
                return cands
                    .iter()
                    .position(|s| s.action == step.action && s.pos == step.to);
            }
            if beam.alive.is_empty() && beam.done.is_none() {
                return None;
            }
            let target = at.saturating_add(cost::WINDOW);
            let used = beam.advance(ctx, target, self.budget);
            self.budget = self.budget.saturating_sub(used);
            if !beam.commit(ctx, at) {
                return None;
            }
        }
    }
}

impl Beam {
    fn view<'a>(&'a self, stack: &'a SkelStack) -> View<'a> {
        View {
            real: &self.base,
            opens: &self.base_opens,
            stack,
        }
    }

    /// Follows each of `readings`, the readings of the spot at `at` reached by `h`.
    fn branch(&mut self, h: &Hyp, readings: &Readings, at: usize, mode: Mode) {
        let record = readings.len() > 1;
        for (i, s) in readings.iter().enumerate() {
            let mut child = *h;
            if record {
                let depth = if h.node == NONE {
                    0
                } else {
                    self.nodes[h.node as usize].depth + 1
                };
                self.nodes.push(Node {
                    parent: h.node,
                    depth,
                    choice: i as u8,
                    step: Step {
                        at,
                        mode,
                        action: s.action,
                        to: s.pos,
                    },
                });
                child.node = (self.nodes.len() - 1) as u32;
                if h.origin == NONE {
                    child.origin = child.node;
                }
            }
            self.follow(child, &s, mode);
        }
    }

    fn follow(&mut self, mut child: Hyp, s: &Reading, mode: Mode) {
        child.cost += s.cost;
        if s.style != 0 && child.styles & s.style == 0 {
            child.styles |= s.style;
            child.cost += cost::STYLE;
        }
        child.pos = s.pos;
        child.mode = s.mode;
        if s.action == Action::Restart {
            child.stack = SkelStack::new(0);
        }
        if !child.stack.apply(s) {
            // Nested deeper than the beam follows: it competes as it stands.
            self.finish(child);
            return;
        }
        match s.action {
            Action::EndOfInput => {
                let view = self.view(&child.stack);
                let dangling = matches!(mode, Mode::Colon)
                    || (matches!(mode, Mode::Value { .. }) && view.top() == Some(Kind::Object));
                child.cost += cost::CLOSE_AT_END * view.depth() as Cost
                    + if dangling { cost::CUT_TOKEN } else { 0 };
                self.finish(child);
                return;
            }
            Action::EndHere => {
                self.finish(child);
                return;
            }
            _ => {}
        }
        self.insert(child);
    }

    /// A reading that reached the end of what it can read: it competes as it stands.
    fn finish(&mut self, h: Hyp) {
        let better = match self.done {
            None => true,
            Some(d) => self.before(&h, &d),
        };
        if better {
            self.done = Some(h);
        }
    }

    /// `a` wins over `b`: cheaper, or as cheap and listed first where their paths part.
    fn before(&self, a: &Hyp, b: &Hyp) -> bool {
        if a.cost != b.cost {
            return a.cost < b.cost;
        }
        self.path_before(a.node, b.node)
    }

    /// The path to node `a` takes a reading listed before the path to `b` where they part.
    fn path_before(&self, mut a: u32, mut b: u32) -> bool {
        let depth = |n: u32| {
            if n == NONE {
                0
            } else {
                self.nodes[n as usize].depth + 1
            }
        };
        // Lift the deeper path to the other's depth; if one is a prefix, neither is before.
        while depth(a) > depth(b) {
            a = self.nodes[a as usize].parent;
        }
        while depth(b) > depth(a) {
            b = self.nodes[b as usize].parent;
        }
        if a == b {
            return false;
        }
        loop {
            let (pa, pb) = (self.nodes[a as usize].parent, self.nodes[b as usize].parent);
            if pa == pb {
                return self.nodes[a as usize].choice < self.nodes[b as usize].choice;
            }
            a = pa;
            b = pb;
        }
    }

    /// Branch and bound: a reading that already costs more than a finished one cannot win.
    fn hopeless(&self, h: &Hyp) -> bool {
        self.done.is_some_and(|d| h.cost > d.cost)
    }

    fn insert(&mut self, h: Hyp) {
        if self.hopeless(&h) {
            return;
        }
        if let Some(i) = self.alive.iter().position(|a| a.same_state(&h)) {
            if self.before(&h, &self.alive[i]) {
                self.alive[i] = h;
            }
            return;
        }
        self.alive.push(h);
    }

    /// Keeps the readings within [`cost::MARGIN`] of the cheapest, at most [`cost::BEAM`].
    fn prune(&mut self) {
        if self.alive.len() <= 1 {
            return;
        }
        let Some(floor) = self.alive.iter().map(|a| a.cost).min() else {
            return;
        };
        self.alive.retain(|a| a.cost <= floor + cost::MARGIN);
        if self.alive.len() > cost::BEAM {
            self.alive.sort_unstable_by_key(|a| (a.cost, a.node));
            // The cheapest fill the beam, but the best reading of every first choice, and of
            // every kind of state (mode and depth), keeps its place: a reading cannot be
            // crowded out by another's many variants.
            let mut kept = 0;
            for i in 0..self.alive.len() {
                let h = self.alive[i];
                let new_kind = !self.alive[..kept]
                    .iter()
                    .any(|a| a.origin == h.origin && a.niche() == h.niche());
                if kept < cost::BEAM || (new_kind && kept < 2 * cost::BEAM) {
                    self.alive.swap(kept, i);
                    kept += 1;
                }
            }
            self.alive.truncate(kept);
        }
    }

    /// Follows the readings until each is at `target` or beyond, or finished, or one reading is
    /// left (nothing to compare), within `budget` steps. Returns the steps used.
    fn advance(&mut self, ctx: &Ctx<'_>, target: usize, budget: usize) -> usize {
        let mut used = 0;
        while used < budget {
            if self.alive.len() == 1 && self.done.is_none() {
                break;
            }
            let Some(idx) =
                (0..self.alive.len()).min_by_key(|&i| (self.alive[i].pos, self.alive[i].cost))
            else {
                break;
            };
            if self.alive[idx].pos >= target {
                break;
            }
            used += 1;
            let h = self.alive.swap_remove(idx);
            self.expand(ctx, h);
            self.prune();
        }
        used
    }

    fn expand(&mut self, ctx: &Ctx<'_>, mut h: Hyp) {
        if self.hopeless(&h) {
            return;
        }
        let mut readings = std::mem::take(&mut self.readings);
        let at = match h.mode {
            Mode::Str { class, .. } => {
                let (at, stop) = ctx.lex.string_stop(h.pos, class);
                match stop {
                    Stop::Escape => {
                        h.pos = at + ctx.lex.escape_len(at, class);
                        self.readings = readings;
                        self.insert(h);
                        return;
                    }
                    Stop::Control(c) => {
                        if c == b'\n' {
                            // A line break the layout says the string may have ended before.
                            ctx.in_string(&self.view(&h.stack), h.mode, at, stop, &mut readings);
                            if readings.len() > 0 {
                                let mode = h.mode;
                                self.branch(&h, &readings, at, mode);
                                self.readings = readings;
                                return;
                            }
                        }
                        h.pos = at + 1;
                        self.readings = readings;
                        self.insert(h);
                        return;
                    }
                    _ => {
                        ctx.in_string(&self.view(&h.stack), h.mode, at, stop, &mut readings);
                        at
                    }
                }
            }
            Mode::Done | Mode::ScalarDone => {
                h.cost += if h.mode == Mode::Done {
                    ctx.lex.lost_after_document(h.pos)
                } else {
                    ctx.lex.lost_after_scalar(h.pos)
                };
                self.readings = readings;
                self.finish(h);
                return;
            }
            _ => {
                let (p, spent) = ctx.lex.skip_trivia(h.pos);
                h.cost += spent;
                h.pos = p;
                ctx.successors(&self.view(&h.stack), h.mode, p, &mut readings);
                p
            }
        };
        let mode = h.mode;
        self.branch(&h, &readings, at, mode);
        self.readings = readings;
    }

    /// Decides: takes the best path, hands the parser its choices up to the spot at `at` (and
    /// beyond, as far as they have had [`cost::WINDOW`] / 2 bytes of text after them), and drops
    /// the readings that disagree. `false` when there was nothing to decide.
    fn commit(&mut self, ctx: &Ctx<'_>, at: usize) -> bool {
        let mut best: Option<Hyp> = self.done;
        for h in &self.alive {
            if best.is_none_or(|b| self.before(h, &b)) {
                best = Some(*h);
            }
        }
        let Some(best) = best else {
            return false;
        };
        // The best reading's choices since the last commit, first to last.
        let mut chain = std::mem::take(&mut self.chain);
        chain.clear();
        let mut n = best.node;
        while n != NONE && n != self.root {
            chain.push(n);
            n = self.nodes[n as usize].parent;
        }
        chain.reverse();
        let lone = self.alive.len() + usize::from(self.done.is_some()) <= 1;
        let frontier = self.alive.iter().map(|h| h.pos).min();
        let limit = match frontier {
            Some(f) if !lone => f.saturating_sub(cost::WINDOW / 2),
            _ => usize::MAX,
        };
        let mut last = None;
        for &node in &chain {
            let step = self.nodes[node as usize].step;
            if step.at > at && step.at >= limit {
                break;
            }
            self.plan.push_back(step);
            last = Some(node);
        }
        self.chain = chain;
        let Some(root) = last else {
            return false;
        };
        self.root = root;
        let nodes = &self.nodes;
        let descends = |mut n: u32| {
            while n != NONE && n > root {
                n = nodes[n as usize].parent;
            }
            n == root
        };
        self.alive.retain(|h| descends(h.node));
        if self.done.is_some_and(|d| !descends(d.node)) {
            self.done = None;
        }
        // Each reading's first choice after the new root.
        for h in &mut self.alive {
            let mut n = h.node;
            let mut origin = NONE;
            while n != NONE && n != root {
                origin = n;
                n = nodes[n as usize].parent;
            }
            h.origin = origin;
        }
        if lone {
            // One reading: nothing left to compare until the next ambiguous spot.
            self.alive.clear();
            self.done = None;
        }
        let _ = ctx;
        self.compact();
        true
    }

    /// Drops the nodes before the last commit (no reading can need them).
    fn compact(&mut self) {
        let root = self.root;
        if root == NONE || (root as usize) < COMPACT_AT || (root as usize) * 2 < self.nodes.len() {
            return;
        }
        let shift = root;
        self.nodes.drain(..root as usize);
        for node in &mut self.nodes {
            node.parent = if node.parent == NONE || node.parent < shift {
                NONE
            } else {
                node.parent - shift
            };
        }
        let fix = |n: &mut u32| {
            if *n != NONE {
                *n = n.saturating_sub(shift);
            }
        };
        for h in &mut self.alive {
            fix(&mut h.node);
        }
        if let Some(d) = &mut self.done {
            fix(&mut d.node);
        }
        self.root = 0;
    }
}

/// The reading listed first is taken without a search when it and the spots right after it
/// are each won by a wide margin: it costs at most a cosmetic repair, every other reading costs
/// [`CLEAR_GAP`] more at once, and so on for the next [`CLEAN_STEPS`] spots.
///
/// The check goes up to `walk.reach` spots in all ([`REACH_SPOTS`]: [`CLEAN_TRUSTED`] spots
/// further), and returns the position before which every spot on this path had
/// [`CLEAN_STEPS`] clear spots after it (the parser, following the first readings, needs no
/// second look at them).
fn clean_path(
    ctx: &Ctx<'_>,
    real: &[Kind],
    opens: &[usize],
    at: usize,
    cands: &Readings,
    walk: Walk<'_>,
) -> Option<usize> {
    let Walk {
        reach,
        readings,
        vouched,
    } = walk;
    let first = cands.get(0);
    let mut stack = SkelStack::new(real.len());
    if !stack.apply(&first) {
        return None;
    }
    let mut pos = first.pos;
    let mut mode = first.mode;
    // Where each spot on the path is (the spot being decided first).
    let mut spots = [0usize; CLEAN_STEPS + CLEAN_TRUSTED + 1];
    spots[0] = at;
    let mut clear = 0;
    // `None`: the path goes on; `Some(end)`: it ends cleanly at `end` (nothing left to misread).
    let mut ended = None;
    while clear < reach {
        let view = View {
            real,
            opens,
            stack: &stack,
        };
        let spot = match mode {
            Mode::Done | Mode::ScalarDone => {
                // The document ends: clean only if nothing JSON-like is left out after it.
                let lost = if mode == Mode::Done {
                    ctx.lex.lost_after_document(pos)
                } else {
                    ctx.lex.lost_after_scalar(pos)
                };
                if lost > 0 {
                    break;
                }
                ended = Some(pos);
                break;
            }
            Mode::Str {
                class, key, open, ..
            } => {
                if pos == open
                    && class == QuoteClass::Double
                    && super::shortcut(super::Shortcut::StringSkip)
                {
                    // A valid string followed by what a valid document has there: its closing
                    // quote is a clear spot, found at the strict reader's speed.
                    let lex = &ctx.lex;
                    let valid = open
                        .checked_sub(1)
                        .and_then(|quote| string_end(lex.text, quote, lex.end))
                        .filter(|&end| valid_after(lex.b, end, lex.end, key, view.top()).is_some());
                    if let Some(end) = valid {
                        clear += 1;
                        spots[clear] = end - 1;
                        pos = end;
                        mode = if key {
                            Mode::Colon
                        } else {
                            after_value(view.depth(), true)
                        };
                        continue;
                    }
                }
                let (spot, stop) = ctx.lex.string_stop(pos, class);
                match stop {
                    Stop::Escape => {
                        pos = spot + ctx.lex.escape_len(spot, class);
                        continue;
                    }
                    Stop::Control(_) => {
                        pos = spot + 1;
                        continue;
                    }
                    _ => {
                        ctx.in_string(&view, mode, spot, stop, readings);
                        spot
                    }
                }
            }
            _ => {
                let (p, spent) = ctx.lex.skip_trivia(pos);
                if spent > cost::COMMENT {
                    break;
                }
                ctx.successors(&view, mode, p, readings);
                p
            }
        };
        if !clear_winner(readings) {
            break;
        }
        let s = readings.get(0);
        clear += 1;
        spots[clear] = spot;
        if !left_to_parser(ctx.lex.b, spot) && super::shortcut(super::Shortcut::Vouched) {
            vouched.push_back(Vouched {
                at: spot,
                mode,
                reading: s,
            });
        }
        if s.action == Action::EndOfInput {
            ended = Some(spot + 1);
            break;
        }
        if !stack.apply(&s) {
            break;
        }
        pos = s.pos;
        mode = s.mode;
    }
    if let Some(end) = ended {
        return Some(end);
    }
    // Spots 0..=clear - CLEAN_STEPS had enough clear spots after them.
    let vouched = clear.checked_sub(CLEAN_STEPS)?;
    Some(spots[vouched + 1].max(at + 1))
}

/// A closer's reading is left to the parser even on a vouched path: the layout charges it by
/// where the parser's own containers opened.
fn left_to_parser(b: &[u8], spot: usize) -> bool {
    matches!(b.get(spot), Some(b'}' | b']' | b')'))
}

/// How many spots a clean-path walk may check, and where it writes: the readings of the spot it
/// is at, the spots it vouches for.
struct Walk<'s> {
    reach: usize,
    readings: &'s mut Readings,
    vouched: &'s mut VecDeque<Vouched>,
}

/// A spot the fast path vouched for, and its reading.
struct Vouched {
    at: usize,
    mode: Mode,
    reading: Reading,
}

/// How much more every other reading must cost at once for the first to be a clear winner.
const CLEAR_GAP: Cost = 3;

/// The first reading costs at most a cosmetic repair and every other at least [`CLEAR_GAP`]
/// more.
fn clear_winner(readings: &Readings) -> bool {
    if readings.len() == 0 {
        return false;
    }
    let first = readings.get(0);
    first.cost <= cost::TRAILING_COMMA
        && first.action != Action::CutString
        && readings
            .iter()
            .skip(1)
            .all(|s| s.cost >= first.cost + CLEAR_GAP)
}
