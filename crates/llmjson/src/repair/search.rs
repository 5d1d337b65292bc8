//! The decision procedure. At a spot with several readings, each is followed through the next
//! [`cost::WINDOW`] bytes by a search over the grammar's skeleton (modes and container kinds, no
//! values): readings fork where the text is ambiguous again, readings that reach the same state
//! at the same byte merge (the point where they agree, keeping the cheaper), and readings that
//! already cost more than a finished one are dropped. The cheapest reading wins; ties go to the
//! reading listed first.
//!
//! The winning path also decides the spots it passed, so the parser follows it (a *plan*) for
//! the first half of the window instead of searching again at every quote of a long string.
//!
//! **Invariant: linear time.** A search visits at most [`cost::BEAM`] readings at a time, each
//! step consumes input or closes a container, and the window is bounded; a budget of steps per
//! input byte caps the total, after which spots are decided by a short look ahead only.

use super::cost::{self, Cost};
use super::grammar::{Ctx, Mode, Reading, Stack, Succ, Succs};
use super::lex::{Kind, Stop};

/// Containers a reading may open inside the window before it is cut short.
const LOCAL_DEPTH: usize = 32;
/// Steps of the short look ahead used once the budget is spent.
const SHORT_STEPS: usize = 24;
/// Tokens a zero-cost reading must read cleanly to be taken without a search.
const CLEAN_STEPS: usize = 4;

/// The open containers of one reading: the parser's own (a prefix of them, as the reading may
/// have closed some) and the ones the reading opened.
#[derive(Clone, Copy, PartialEq, Eq)]
struct SkelStack {
    real_depth: u32,
    local: [Kind; LOCAL_DEPTH],
    local_len: u8,
}

struct View<'a> {
    real: &'a [Kind],
    stack: &'a SkelStack,
}

impl Stack for View<'_> {
    fn top(&self) -> Option<Kind> {
        let s = self.stack;
        if s.local_len > 0 {
            Some(s.local[usize::from(s.local_len) - 1])
        } else if s.real_depth > 0 {
            Some(self.real[s.real_depth as usize - 1])
        } else {
            None
        }
    }

    fn below(&self) -> Option<Kind> {
        let s = self.stack;
        let local = usize::from(s.local_len);
        match local {
            0 if s.real_depth >= 2 => Some(self.real[s.real_depth as usize - 2]),
            0 => None,
            1 if s.real_depth >= 1 => Some(self.real[s.real_depth as usize - 1]),
            1 => None,
            n => Some(s.local[n - 2]),
        }
    }

    fn depth(&self) -> usize {
        self.stack.real_depth as usize + usize::from(self.stack.local_len)
    }

    fn open_below(&self, kind: Kind) -> bool {
        let s = self.stack;
        let local = &s.local[..usize::from(s.local_len)];
        let real = &self.real[..s.real_depth as usize];
        if let Some((_, rest)) = local.split_last() {
            rest.contains(&kind) || real.contains(&kind)
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
            local: [Kind::Object; LOCAL_DEPTH],
            local_len: 0,
        }
    }

    /// Applies a reading's pops and push; `false` if the reading nests too deep to follow.
    fn apply(&mut self, s: &Succ) -> bool {
        for _ in 0..s.pops {
            if self.local_len > 0 {
                self.local_len -= 1;
            } else if self.real_depth > 0 {
                self.real_depth -= 1;
            }
        }
        if let Some(kind) = s.push {
            if usize::from(self.local_len) >= LOCAL_DEPTH {
                return false;
            }
            self.local[usize::from(self.local_len)] = kind;
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
    /// The index of the first reading it descends from.
    origin: usize,
    /// The conventions already charged (see [`cost::STYLE`]).
    styles: u8,
    /// Its last choice in the path arena (`u32::MAX`: none yet).
    node: u32,
}

impl Hyp {
    fn same_state(&self, other: &Hyp) -> bool {
        self.pos == other.pos && self.mode == other.mode && self.stack == other.stack
    }

    fn better_than(&self, other: &Hyp) -> bool {
        (self.cost, self.origin) < (other.cost, other.origin)
    }
}

/// A choice made on the winning path: at byte `at` in `mode`, `reading` was taken.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Step {
    pub at: usize,
    pub mode: Mode,
    pub reading: Reading,
}

struct Node {
    parent: u32,
    step: Step,
}

/// What the search decided, and the choices it made further on that the parser may follow.
pub(crate) struct Decision {
    pub choice: usize,
    pub plan: Vec<Step>,
    /// The plan may be followed for spots before this byte.
    pub trust_until: usize,
}

/// The search's state across one parse: its step budget.
pub(crate) struct Searcher {
    budget: usize,
}

impl Searcher {
    pub(crate) fn new(input_len: usize) -> Self {
        Searcher {
            budget: cost::SEARCH_BASE + cost::SEARCH_STEPS_PER_BYTE.saturating_mul(input_len),
        }
    }

    /// Chooses among the readings `cands` of the spot at `at` in `mode`, the parser's open
    /// containers being `real` (innermost last).
    pub(crate) fn decide(
        &mut self,
        ctx: &Ctx<'_>,
        real: &[Kind],
        mode: Mode,
        at: usize,
        cands: &Succs,
    ) -> Decision {
        if cands.len() <= 1 {
            return Decision {
                choice: 0,
                plan: Vec::new(),
                trust_until: 0,
            };
        }
        if let Some(choice) = clean_choice(ctx, real, cands) {
            return Decision {
                choice,
                plan: Vec::new(),
                trust_until: 0,
            };
        }
        let (window, steps) = if self.budget > 0 {
            (cost::WINDOW, usize::MAX)
        } else {
            (cost::WINDOW, SHORT_STEPS)
        };
        let mut run = Run {
            ctx,
            real,
            horizon: (at + window).min(ctx.lex.end),
            nodes: Vec::new(),
            alive: Vec::with_capacity(cost::BEAM * 2),
            best: None,
            best_reached_end: false,
        };
        let start = SkelStack::new(real.len());
        for (i, s) in cands.iter().enumerate() {
            let root = Hyp {
                pos: at,
                mode,
                stack: start,
                cost: 0,
                origin: i,
                styles: 0,
                node: u32::MAX,
            };
            run.follow(&root, &s, at, mode, true);
        }
        let mut used = 0usize;
        while let Some(idx) = run.next_index() {
            if used >= steps {
                break;
            }
            used += 1;
            let h = run.alive.swap_remove(idx);
            run.expand(h);
        }
        self.budget = self.budget.saturating_sub(used);
        // Readings still being followed when the steps ran out count as they stand.
        for h in std::mem::take(&mut run.alive) {
            run.finish(h, 0, false);
        }
        let Some(best) = run.best else {
            return Decision {
                choice: 0,
                plan: Vec::new(),
                trust_until: 0,
            };
        };
        let mut plan = Vec::new();
        let mut node = best.node;
        while node != u32::MAX {
            let n = &run.nodes[node as usize];
            plan.push(n.step);
            node = n.parent;
        }
        plan.reverse();
        let trust_until = if run.best_reached_end {
            usize::MAX
        } else {
            at + window / 2
        };
        if std::env::var_os("LLMJSON_TRACE").is_some() {
            eprintln!("decide at {at} {mode:?}: {:?} -> choice {} cost {} plan {:?}", cands.iter().map(|s| (s.reading, s.cost)).collect::<Vec<_>>(), best.origin, best.cost, plan.iter().map(|s| (s.at, s.reading)).collect::<Vec<_>>());
        }
        Decision {
            choice: best.origin,
            plan,
            trust_until,
        }
    }
}

/// A reading of cost 0 that reads the next few tokens without any repair, when every other
/// reading costs something at once, is taken without a search.
fn clean_choice(ctx: &Ctx<'_>, real: &[Kind], cands: &Succs) -> Option<usize> {
    let first = cands.get(0);
    if first.cost != 0 || cands.iter().skip(1).any(|s| s.cost == 0) {
        return None;
    }
    let mut stack = SkelStack::new(real.len());
    if !stack.apply(&first) {
        return None;
    }
    let mut pos = first.pos;
    let mut mode = first.mode;
    let mut steps = 0;
    while steps < CLEAN_STEPS {
        let view = View {
            real,
            stack: &stack,
        };
        let succs = match mode {
            // The document ends: clean only if nothing JSON-like is left out after it.
            Mode::Done => {
                let lost = ctx.lex.lost_structure(pos, (pos + cost::WINDOW).min(ctx.lex.end));
                return (lost == 0).then_some(0);
            }
            Mode::Str { class, .. } => {
                let (at, stop) = ctx.lex.string_stop(pos, class);
                match stop {
                    Stop::Escape => {
                        pos = at + ctx.lex.escape_len(at, class);
                        continue;
                    }
                    Stop::Control(_) => {
                        pos = at + 1;
                        continue;
                    }
                    _ => ctx.in_string(&view, mode, at, stop),
                }
            }
            _ => {
                let (p, spent) = ctx.lex.skip_trivia(pos);
                if spent > 0 {
                    return None;
                }
                ctx.successors(&view, mode, p)
            }
        };
        if succs.len() == 0 {
            return None;
        }
        let s = succs.get(0);
        if s.cost != 0 || s.reading == Reading::CutString {
            return None;
        }
        if s.reading == Reading::EndOfInput {
            return Some(0);
        }
        if !stack.apply(&s) {
            return None;
        }
        pos = s.pos;
        mode = s.mode;
        steps += 1;
    }
    Some(0)
}

struct Run<'a, 't> {
    ctx: &'a Ctx<'t>,
    real: &'a [Kind],
    horizon: usize,
    nodes: Vec<Node>,
    alive: Vec<Hyp>,
    best: Option<Hyp>,
    best_reached_end: bool,
}

impl Run<'_, '_> {
    /// The reading to expand next: the one furthest behind (then the cheapest), so readings
    /// meet at the same byte and can merge.
    fn next_index(&self) -> Option<usize> {
        (0..self.alive.len()).min_by_key(|&i| (self.alive[i].pos, self.alive[i].cost, self.alive[i].origin))
    }

    /// A reading reached the horizon, the end, or the end of the document: it competes as it
    /// stands plus `extra`.
    fn finish(&mut self, mut h: Hyp, extra: Cost, reached_end: bool) {
        h.cost += extra;
        if self.best.is_none_or(|b| h.better_than(&b)) {
            self.best = Some(h);
            self.best_reached_end = reached_end;
        }
    }

    /// Branch and bound: a reading that already costs more than a finished one cannot win.
    fn hopeless(&self, h: &Hyp) -> bool {
        self.best.is_some_and(|b| !h.better_than(&b))
    }

    /// Follows reading `s` taken from `h` at byte `at` in `mode`.
    fn follow(&mut self, h: &Hyp, s: &Succ, at: usize, mode: Mode, record: bool) {
        let mut child = *h;
        child.cost += s.cost;
        if s.style != 0 && child.styles & s.style == 0 {
            child.styles |= s.style;
            child.cost += cost::STYLE;
        }
        child.pos = s.pos;
        child.mode = s.mode;
        if record {
            self.nodes.push(Node {
                parent: h.node,
                step: Step {
                    at,
                    mode,
                    reading: s.reading,
                },
            });
            child.node = (self.nodes.len() - 1) as u32;
        }
        if s.reading == Reading::Restart {
            child.stack = SkelStack::new(0);
        }
        if !child.stack.apply(s) {
            self.finish(child, 0, false);
            return;
        }
        match s.reading {
            Reading::EndOfInput => {
                let depth = child.stack.real_depth + u32::from(child.stack.local_len);
                let dangling = matches!(mode, Mode::Colon)
                    || (matches!(mode, Mode::Value { .. }) && View { real: self.real, stack: &child.stack }.top() == Some(Kind::Object));
                let extra = cost::CLOSE_AT_END * depth + if dangling { cost::CUT_TOKEN } else { 0 };
                self.finish(child, extra, true);
                return;
            }
            Reading::EndHere => {
                self.finish(child, 0, true);
                return;
            }
            _ => {}
        }
        if child.mode == Mode::Done {
            let lost = self.ctx.lex.lost_structure(child.pos, self.horizon);
            self.finish(child, lost, true);
            return;
        }
        self.insert(child);
    }

    fn insert(&mut self, h: Hyp) {
        if self.hopeless(&h) {
            return;
        }
        if let Some(same) = self.alive.iter_mut().find(|a| a.same_state(&h)) {
            if h.better_than(same) {
                *same = h;
            }
            return;
        }
        self.alive.push(h);
        let floor = self.alive.iter().map(|a| a.cost).min().unwrap_or(0);
        self.alive.retain(|a| a.cost <= floor + cost::MARGIN);
        if self.alive.len() > cost::BEAM {
            let worst = (0..self.alive.len())
                .max_by_key(|&i| (self.alive[i].cost, self.alive[i].origin))
                .unwrap_or(0);
            self.alive.swap_remove(worst);
        }
    }

    fn expand(&mut self, mut h: Hyp) {
        if self.hopeless(&h) {
            return;
        }
        if h.pos >= self.horizon {
            self.finish(h, 0, false);
            return;
        }
        let ctx = self.ctx;
        let (at, succs) = match h.mode {
            Mode::Str { class, .. } => {
                let (at, stop) = ctx.lex.string_stop(h.pos, class);
                if at >= self.horizon && stop != Stop::End {
                    self.finish(h, 0, false);
                    return;
                }
                match stop {
                    Stop::Escape => {
                        h.pos = at + ctx.lex.escape_len(at, class);
                        self.insert(h);
                        return;
                    }
                    Stop::Control(_) => {
                        h.pos = at + 1;
                        self.insert(h);
                        return;
                    }
                    _ => {
                        let view = View {
                            real: self.real,
                            stack: &h.stack,
                        };
                        (at, ctx.in_string(&view, h.mode, at, stop))
                    }
                }
            }
            Mode::Done => {
                let lost = ctx.lex.lost_structure(h.pos, self.horizon);
                self.finish(h, lost, true);
                return;
            }
            _ => {
                let (p, spent) = ctx.lex.skip_trivia(h.pos);
                h.cost += spent;
                h.pos = p;
                if p >= self.horizon && !ctx.lex.at_end(p) {
                    self.finish(h, 0, false);
                    return;
                }
                let view = View {
                    real: self.real,
                    stack: &h.stack,
                };
                (p, ctx.successors(&view, h.mode, p))
            }
        };
        let record = succs.len() > 1;
        let mode = h.mode;
        for s in succs.iter() {
            self.follow(&h, &s, at, mode, record);
        }
    }
}
