//! A seeded generator of model replies with known faults, and the value each one means:
//! llmjson's main accuracy instrument.
//!
//! Each case starts from a valid document (tool-call arguments, records, arrays of objects,
//! nested configs, plans, code artifacts, answers; prose in many languages and scripts; strings
//! holding code, HTML, links, quoted speech, Windows paths), laid out compact or pretty, then
//! receives one to three faults ([`Fault`]) at places where a careful reader would not doubt what
//! was meant, and is wrapped bare, in a fence or in prose. The ground truth is the document
//! before the faults (for a cut reply, what the truncation policy keeps of it).
//!
//! The same seed and index always give the same case (the generator is [`Rng`], not `rand`).
#![deny(missing_docs)]

mod doc;
mod faults;
mod forms;
mod rng;
mod text;
mod tokens;
mod truncate;
mod written;

pub use doc::Node;
pub use faults::Fault;
pub use rng::Rng;
pub use written::{js_single, python_repr};

use serde_json::Value;
use tokens::{render, tokens, Layout, Tok, K};
use truncate::Mode;

/// One generated reply and what it means.
#[derive(Debug, Clone)]
pub struct Case {
    /// `<seed>-<index>`: enough to generate it again.
    pub id: String,
    /// The faults it holds (the first one is the class it was made for).
    pub faults: Vec<Fault>,
    /// The reply as the model wrote it.
    pub input: String,
    /// The value a careful reader takes from it.
    pub expected: Value,
    /// The case must be read with `truncation: drop`.
    pub truncation_drop: bool,
    /// Where the faulted document lies in `input` (the answer, not a draft or a decoy before
    /// it); `None` when it was escaped into a string.
    pub document: Option<std::ops::Range<usize>>,
}

impl Case {
    /// The case as one JSON line: `id`, `faults`, `input`, `expected`, `options`.
    pub fn to_json(&self) -> Value {
        let faults: Vec<&str> = self.faults.iter().map(|f| f.name()).collect();
        let mut options = serde_json::Map::new();
        if self.truncation_drop {
            options.insert("truncation".into(), "drop".into());
        }
        serde_json::json!({
            "id": self.id,
            "faults": faults,
            "input": self.input,
            "expected": self.expected,
            "options": options,
        })
    }
}

/// Cases in the fixed set the scoreboard scores: 60 rounds of the weighted schedule (60 cases
/// made for each class of weight 1).
pub fn fixed_count() -> usize {
    60 * Fault::schedule().len()
}

/// `count` cases for `seed`; case `i` is made for class `Fault::schedule()[i % len]` (each
/// class as often as its [`Fault::weight`]).
pub fn generate(seed: u64, count: usize) -> Vec<Case> {
    let schedule = Fault::schedule();
    (0..count)
        .map(|i| case_for(seed, i, schedule[i % schedule.len()]))
        .collect()
}

/// Case `index` of `seed`.
pub fn case(seed: u64, index: usize) -> Case {
    let schedule = Fault::schedule();
    case_for(seed, index, schedule[index % schedule.len()])
}

/// A class picked by weight (for the faults a case gets besides its own).
fn weighted(rng: &mut Rng) -> Fault {
    let total: usize = Fault::ALL.iter().map(|f| f.weight()).sum();
    let mut at = rng.below(total);
    for &f in Fault::ALL {
        if at < f.weight() {
            return f;
        }
        at -= f.weight();
    }
    Fault::ALL[0]
}

fn case_for(seed: u64, index: usize, primary: Fault) -> Case {
    let mut rng = Rng::new(seed ^ (index as u64).wrapping_mul(0xD134_2543_DE82_EF95));
    for _ in 0..200 {
        if let Some(case) = attempt(&mut rng, primary, seed, index) {
            return case;
        }
    }
    // Every class applies to some document: reaching this is a generator bug, and the
    // scoreboard shows it as a case with no input.
    Case {
        id: format!("{seed}-{index}"),
        faults: vec![primary],
        input: String::new(),
        expected: Value::Null,
        truncation_drop: false,
        document: None,
    }
}

fn compatible(faults: &[Fault], f: Fault) -> bool {
    let cut = faults.iter().any(|g| g.is_cut());
    let conflicts = [
        faults.contains(&f),
        // An escaped document holds no other fault.
        f == Fault::EscapedJson || faults.contains(&Fault::EscapedJson),
        // One wrapper, one cut.
        f.is_wrapper() && faults.iter().any(|g| g.is_wrapper()),
        f.is_cut() && cut,
        // A cut must leave every other fault's meaning clear.
        f.is_cut() && !faults.iter().all(|g| g.survives_cut()),
        cut && !f.survives_cut(),
        // A document-wide convention writes every string: nothing else writes one.
        f.writes_strings() && faults.iter().any(|g| g.is_convention()),
        f.is_convention() && faults.iter().any(|g| g.writes_strings()),
        // One line, or laid out over lines.
        f.needs_one_line() && faults.iter().any(|g| g.needs_lines() || g.breaks_lines()),
        f.needs_lines() && faults.iter().any(|g| g.needs_one_line()),
        f.breaks_lines() && faults.iter().any(|g| g.needs_one_line()),
        // Maths in one string makes a lone `\nu` in another LaTeX: the control class has none.
        f == Fault::ControlEscapes && faults.contains(&Fault::LatexBackslashes),
        f == Fault::LatexBackslashes && faults.contains(&Fault::ControlEscapes),
        // Inline code holds a short, whole value.
        f == Fault::InlineCode && faults.contains(&Fault::MissingOpener),
        f == Fault::MissingOpener && faults.contains(&Fault::InlineCode),
        // A root without brackets is read from the whole reply: nothing else at its edges.
        f.strips_root() && faults.iter().any(|g| g.touches_root()),
        f.touches_root() && faults.iter().any(|g| g.strips_root()),
        // Objects with no brackets are a list by the commas between them.
        f == Fault::UnbracketedObjects
            && faults.iter().any(|g| {
                matches!(
                    g,
                    Fault::MissingCommaNewline | Fault::MissingCommaInline | Fault::BracketObject
                )
            }),
        matches!(
            f,
            Fault::MissingCommaNewline | Fault::MissingCommaInline | Fault::BracketObject
        ) && faults.contains(&Fault::UnbracketedObjects),
        // Members with no braces are told by their quoted keys (`"status": "done"`): keys
        // written another way leave a reply that opens with words, which prose does too.
        // So is an object in brackets (`["lang": "pt"]`), and one whose `{` is missing, told by
        // their first quoted key.
        f.told_by_quoted_keys() && faults.iter().any(|g| g.rewrites_keys()),
        f.rewrites_keys() && faults.iter().any(|g| g.told_by_quoted_keys()),
        // A reply that starts inside its object is no call's argument, nor a list of objects.
        f == Fault::MissingOpener
            && faults
                .iter()
                .any(|g| matches!(g, Fault::CallAround | Fault::BracketObject)),
        matches!(f, Fault::CallAround | Fault::BracketObject)
            && faults.contains(&Fault::MissingOpener),
    ];
    !conflicts.contains(&true)
}

fn attempt(rng: &mut Rng, primary: Fault, seed: u64, index: usize) -> Option<Case> {
    let mut faults = vec![primary];
    let extra = match rng.below(100) {
        0..=59 => 0,
        60..=87 => 1,
        _ => 2,
    };
    for _ in 0..extra {
        let f = weighted(rng);
        if compatible(&faults, f) {
            faults.push(f);
        }
    }
    let mut doc = match faults.iter().find_map(|f| f.needs_text()) {
        Some(kind) => doc::document_with(rng, kind),
        None => doc::document(rng),
    };
    if faults.contains(&Fault::PythonContainers) {
        doc::add_python_shapes(rng, &mut doc);
    }
    for &f in &faults {
        forms::prepare(f, rng, &mut doc);
    }
    let layout = if faults.iter().any(|f| f.needs_one_line()) {
        *rng.pick(&[Layout::Compact, Layout::Spaced, Layout::Spaced])
    } else if faults.iter().any(|f| f.needs_lines()) {
        *rng.pick(&[Layout::Pretty(2), Layout::Pretty(4), Layout::Pretty(0)])
    } else {
        Layout::random(rng)
    };
    let clean = tokens(&doc, layout);
    let mut toks = clean.clone();
    // A convention is how the whole document was written: it comes first, the slips after.
    let mut order = faults.clone();
    order.sort_by_key(|f| !f.is_convention());
    for &f in &order {
        if !f.is_wrapper() && !f.is_cut() && !faults::apply(f, &mut toks, rng) {
            return None;
        }
    }
    let (mut text, spans) = render(&toks);
    let mut expected = if faults.iter().any(|f| f.changes_value()) {
        // A member's value became the string of its JSON text, or a member was commented out.
        truncate::value_after_cut(&toks, &spans, text.len() + 1, Mode::Complete)
    } else {
        doc.to_value()
    };
    let mut truncation_drop = false;
    let cut = faults.iter().find(|f| f.is_cut()).copied();
    if let Some(cut_fault) = cut {
        let mode = if cut_fault == Fault::Truncation {
            Mode::Drop
        } else {
            Mode::Complete
        };
        let points = truncate::cut_points(&toks, &spans, &text, mode);
        let points: Vec<usize> = if mode == Mode::Complete {
            points
                .into_iter()
                .filter(|&c| !doubtful_open_end(&toks, &spans, c))
                .collect()
        } else {
            points
        };
        if points.is_empty() {
            return None;
        }
        let at = *rng.pick(&points);
        expected = truncate::value_after_cut(&toks, &spans, at, mode);
        text.truncate(at);
        truncation_drop = mode == Mode::Drop;
    }
    let form_wrapper = faults.iter().copied().find(|f| forms::is_form_wrapper(*f));
    let input = if let Some(w) = form_wrapper {
        forms::wrap(w, rng, &doc, &text)?
    } else if faults.contains(&Fault::EscapedJson) {
        if !escapable(&clean) {
            return None;
        }
        wrap(rng, &text.replace('"', "\\\""), cut.is_some())
    } else if faults.contains(&Fault::DraftThenFinal) {
        let (clean_text, clean_spans) = render(&clean);
        let lo = clean_text.len() * 3 / 10;
        let hi = clean_text.len() * 8 / 10;
        let ends: Vec<usize> = clean_spans
            .iter()
            .zip(&clean)
            .filter(|(s, t)| {
                s.end > lo && s.end < hi && matches!(t.k, K::Comma | K::Str | K::Num | K::Lit)
            })
            .map(|(s, _)| s.end)
            .collect();
        if ends.is_empty() {
            return None;
        }
        let draft = &clean_text[..*rng.pick(&ends)];
        const CONNECTORS: &[&str] = &[
            " -- wait. Final: ",
            "\n\nActually, let me fix that:\n",
            "... no, correction:\n",
            "\n修正版:\n",
            "\nNa verdade, o correto é:\n",
            "\n(cut off, again:)\n",
        ];
        let lead = *rng.pick(&["Draft: ", "", "First try:\n"]);
        let connector = *rng.pick(CONNECTORS);
        format!(
            "{lead}{draft}{connector}{}",
            wrap_final(rng, &text, cut.is_some())
        )
    } else if faults.contains(&Fault::DecoyCodeFence) {
        const DECOYS: &[&str] = &[
            "```bash\ncurl -X POST -d {\"a\": 1} https://api.example.com/v1/items\n```",
            "```sh\ncurl -H 'Content-Type: application/json' -d '{\"query\": \"x\", \"limit\": 5}' $URL\n```",
            "```python\nrequests.post(url, json={\"name\": \"test\", \"ok\": True})\n```",
            "```js\nfetch(url, {method: \"POST\", body: JSON.stringify({id: 7})})\n```",
            "```bash\necho '[1, 2, 3]' | jq '.[0]'\n```",
        ];
        let decoy = *rng.pick(DECOYS);
        let lead = *rng.pick(&["You can call it like this:\n", "", "Request:\n"]);
        let joint = *rng.pick(&["\nResult: ", "\n\nThe response was:\n", "\nResposta:\n"]);
        format!(
            "{lead}{decoy}{joint}{}",
            wrap_final(rng, &text, cut.is_some())
        )
    } else if faults.contains(&Fault::InlineCode) {
        // JSON in inline-code backticks, alone or in a sentence.
        let (lead, tail) = *rng.pick(&[
            ("", ""),
            ("", ""),
            ("Result: ", ""),
            ("The answer is ", "."),
            ("Here it is: ", " — let me know."),
            ("結果: ", ""),
            ("Resposta: ", "\n"),
        ]);
        format!("{lead}`{text}`{tail}")
    } else if faults.contains(&Fault::ThinkDecoy) {
        let other = doc::document(rng);
        let (draft, _) = render(&tokens(&other, Layout::Compact));
        let thought = *rng.pick(&[
            "The user wants JSON. Maybe:",
            "Draft:",
            "ユーザーはJSONを求めている:",
        ]);
        format!(
            "<think>\n{thought} {draft}\nLet me check again.\n</think>\n{}",
            wrap(rng, &text, cut.is_some())
        )
    } else {
        wrap(rng, &text, cut.is_some())
    };
    let document = if faults.contains(&Fault::EscapedJson) {
        None
    } else {
        input.rfind(text.as_str()).map(|at| at..at + text.len())
    };
    Some(Case {
        id: format!("{seed}-{index}"),
        faults,
        input,
        expected,
        truncation_drop,
        document,
    })
}

/// In `complete` mode a string missing its end quote, followed by nothing but a comma before the
/// cut, could hold that comma: such cuts are left out.
fn doubtful_open_end(toks: &[Tok], spans: &[std::ops::Range<usize>], cut: usize) -> bool {
    toks.iter().enumerate().any(|(i, t)| {
        t.open_ended
            && spans[i].end < cut
            && tokens::next_sig(toks, i).is_none_or(|n| {
                spans[n].start >= cut
                    || (toks[n].k == K::Comma
                        && tokens::next_sig(toks, n).is_none_or(|m| spans[m].start >= cut))
            })
    })
}

/// Stringifying again is unambiguous only if no string holds a quote or a backslash.
fn escapable(toks: &[Tok]) -> bool {
    toks.iter().all(|t| {
        !matches!(t.k, K::Str | K::Key) || !t.content.contains(['"', '\\', '\n', '\t', '\r'])
    })
}

/// Bare, fenced, or in prose. A cut reply has nothing after the cut.
fn wrap(rng: &mut Rng, text: &str, cut: bool) -> String {
    let before = *rng.pick(text::PROSE_BEFORE);
    let after = *rng.pick(text::PROSE_AFTER);
    let fence_open = *rng.pick(&[
        "```json\n",
        "```json",
        "```JSON\n",
        "``` json\n",
        "```json\n\n",
    ]);
    let fence_close = *rng.pick(&["\n```", "```", "\n```\n"]);
    match rng.below(20) {
        0..=7 => text.to_string(),
        8..=12 => {
            let close = if cut { "" } else { fence_close };
            format!("{fence_open}{text}{close}")
        }
        13..=14 => {
            let close = if cut { "" } else { "\n```" };
            format!("```\n{text}{close}")
        }
        15..=16 => format!("{before}\n{text}"),
        17..=18 if !cut => format!("{before} {text}\n\n{after}"),
        _ if !cut => format!("{text}\n{after}"),
        _ => format!("{before}\n\n{text}"),
    }
}

/// The answer after a decoy: mostly bare or after a word of prose, sometimes in a JSON fence.
fn wrap_final(rng: &mut Rng, text: &str, cut: bool) -> String {
    if rng.chance(0.25) {
        let close = if cut { "" } else { "\n```" };
        format!("```json\n{text}{close}")
    } else {
        text.to_string()
    }
}

/// A large reply (about `size` bytes): a plan-like object whose `items` are many generated
/// documents, written in one convention throughout (JSON, Python's `repr` or JavaScript) with
/// the hard strings of that convention, up to three other habits of the whole reply (comments,
/// literals, full-width punctuation, …) and a handful of slips anywhere in it (a lost quote, a
/// doubled closer, a missing comma). What the scoreboard cannot show: that a misreading deep in
/// a long reply costs that item at most, never the document.
#[derive(Debug, Clone)]
pub struct LargeCase {
    /// `<seed>-large-<size>`.
    pub id: String,
    /// The reply.
    pub input: String,
    /// The value a careful reader takes from it.
    pub expected: Value,
    /// The faults applied (each touches one item, or the string a convention writes).
    pub faults: Vec<Fault>,
}

/// The languages of [`text::CODE_WITH_LABELS`], in order.
const LABEL_LANGUAGES: [&str; 5] = ["javascript", "javascript", "python", "go", "python"];

/// A pretty-printed plan of about `size` bytes whose steps carry source code in
/// `code.snippet`; every third snippet is code holding a JSON literal (Python, JavaScript, SQL,
/// shell) written with its quotes unescaped, as models write it, and every sixth code that
/// prints quoted labels ending in a colon (`console.log("total:", n)`) with its quotes and
/// line breaks raw; some titles hold an
/// apostrophe (`O'Brien`). With `every_fault`, every local fault class is applied once more
/// where it fits (a model's habits and slips together). The expected value is the plan as meant.
pub fn large_code_case(seed: u64, size: usize, every_fault: bool) -> LargeCase {
    let mut rng = Rng::new(seed ^ (size as u64).wrapping_mul(0xA24B_AED4_963E_E407) ^ 0x636f_6465);
    let languages = ["python", "javascript", "sql", "shell", "python", "python"];
    let mut steps = Vec::new();
    let mut approx = 0;
    while approx < size {
        let i = steps.len();
        let (language, snippet) = if i % 3 == 1 {
            let k = rng.below(text::CODE_WITH_JSON.len());
            (languages[k], text::CODE_WITH_JSON[k].to_string())
        } else if i % 6 == 5 {
            let k = rng.below(text::CODE_WITH_LABELS.len());
            (LABEL_LANGUAGES[k], text::CODE_WITH_LABELS[k].to_string())
        } else {
            ("python", text::text(&mut rng, text::TextKind::Code))
        };
        let title = if rng.chance(0.15) {
            format!("Review with Mary O'Brien ({i})")
        } else {
            format!("Step {i}: {}", text::text(&mut rng, text::TextKind::Plain))
        };
        let step = Node::Obj(vec![
            ("id".into(), Node::Str(format!("s{i}"))),
            ("title".into(), Node::Str(title)),
            ("done".into(), Node::Bool(rng.chance(0.5))),
            (
                "code".into(),
                Node::Obj(vec![
                    ("language".into(), Node::Str(language.into())),
                    ("snippet".into(), Node::Str(snippet)),
                ]),
            ),
            (
                "owner".into(),
                Node::Str(text::text(&mut rng, text::TextKind::Name)),
            ),
            (
                "estimate_hours".into(),
                Node::Num(rng.range(1, 40).to_string()),
            ),
            (
                "tags".into(),
                Node::Arr(vec![
                    Node::Str(text::text(&mut rng, text::TextKind::Word)),
                    Node::Str(text::text(&mut rng, text::TextKind::Word)),
                ]),
            ),
        ]);
        approx += render(&tokens(&step, Layout::Pretty(2))).0.len() + 8;
        steps.push(step);
    }
    let doc = Node::Obj(vec![
        ("objective".into(), Node::Str("Migrate the archive".into())),
        ("steps".into(), Node::Arr(steps)),
        (
            "risks".into(),
            Node::Arr(vec![Node::Str("data loss".into())]),
        ),
        (
            "open_questions".into(),
            Node::Arr(vec![Node::Str("who signs off?".into())]),
        ),
    ]);
    let mut toks = tokens(&doc, Layout::Pretty(2));
    for i in 0..toks.len() {
        let content = toks[i].content.as_str();
        let labels = text::CODE_WITH_LABELS.contains(&content);
        if toks[i].k == K::Str && (labels || text::CODE_WITH_JSON.contains(&content)) {
            let style = tokens::StrStyle {
                raw_quotes: true,
                raw_controls: labels,
                ..tokens::StrStyle::JSON
            };
            toks[i].text = tokens::render_str(&toks[i].content.clone(), style);
            tokens::lock_around(&mut toks, i);
        }
    }
    let mut faults = vec![Fault::CodeInString];
    if every_fault {
        for f in local_faults() {
            if compatible(&faults, f) && faults::apply(f, &mut toks, &mut rng) {
                faults.push(f);
            }
        }
    }
    let (text, spans) = render(&toks);
    let expected = truncate::value_after_cut(&toks, &spans, text.len() + 1, Mode::Complete);
    LargeCase {
        id: format!(
            "{seed}-code-{size}{}",
            if every_fault { "-every-fault" } else { "" }
        ),
        input: text,
        expected,
        faults,
    }
}

/// [`large_code_case`] with every local fault, written as the argument of a tool call
/// (`create_plan({…})`, `[create_plan({…})]`, a name glued to prose, in a `<tool_call>` tag):
/// issue 58's form 7 around a laid-out document. The expected value is the plan.
pub fn large_code_case_in_call(seed: u64, size: usize) -> LargeCase {
    let mut case = large_code_case(seed, size, true);
    let mut rng = Rng::new(seed ^ 0x6361_6c6c);
    case.input = forms::call_with_object(&mut rng, "create_plan", &case.input);
    case.faults.push(Fault::CallAround);
    case.id.push_str("-in-call");
    case
}

/// Token faults that stay within one spot of a document (no wrapper, cut or convention).
fn local_faults() -> Vec<Fault> {
    Fault::ALL
        .iter()
        .copied()
        .filter(|f| {
            !f.is_wrapper()
                && !f.is_cut()
                && !f.is_convention()
                && !f.needs_lines()
                && !f.strips_root()
                && !matches!(
                    f,
                    Fault::MissingOpener | Fault::PrematureClose | Fault::MissingCloserEnd
                )
        })
        .collect()
}

/// A large case of about `size` bytes for `seed`.
pub fn large_case(seed: u64, size: usize) -> LargeCase {
    let mut rng = Rng::new(seed ^ (size as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15));
    let convention = *rng.pick(&[
        None,
        None,
        Some(Fault::PythonRepr),
        Some(Fault::JsSingleQuotes),
    ]);
    let layout = if rng.chance(0.5) {
        Layout::Pretty(2)
    } else {
        Layout::Spaced
    };
    // Items until the rendered document reaches the size.
    let mut items = Vec::new();
    let mut approx = 0;
    while approx < size {
        let item = match convention {
            Some(c) => {
                doc::document_with(&mut rng, c.needs_text().unwrap_or(text::TextKind::Plain))
            }
            None => doc::document(&mut rng),
        };
        approx += render(&tokens(&item, layout)).0.len() + 4;
        items.push(item);
    }
    let n = items.len();
    let doc = Node::Obj(vec![
        (
            "objective".to_string(),
            Node::Str("Migrate the archive".to_string()),
        ),
        ("items".to_string(), Node::Arr(items)),
        ("total".to_string(), Node::Num(n.to_string())),
    ]);
    let mut toks = tokens(&doc, layout);
    let mut faults = Vec::new();
    if let Some(c) = convention {
        if faults::apply(c, &mut toks, &mut rng) {
            faults.push(c);
        }
    }
    // A model's habits hold through a reply (quotes, comments, literals: whole-document
    // faults, up to three of them); its slips are a handful, anywhere in it.
    let (habits, slips): (Vec<Fault>, Vec<Fault>) =
        local_faults().into_iter().partition(|f| !f.is_slip());
    for _ in 0..rng.range(0, 3) {
        let f = *rng.pick(&habits);
        if compatible(&faults, f) && faults::apply(f, &mut toks, &mut rng) {
            faults.push(f);
        }
    }
    for _ in 0..rng.range(1, 6) {
        let f = *rng.pick(&slips);
        // The same slip may come back in another item; other conflicts hold.
        let others: Vec<Fault> = faults.iter().copied().filter(|&g| g != f).collect();
        if compatible(&others, f) && faults::apply(f, &mut toks, &mut rng) {
            faults.push(f);
        }
    }
    let (text, spans) = render(&toks);
    let expected = truncate::value_after_cut(&toks, &spans, text.len() + 1, Mode::Complete);
    let input = if rng.chance(0.5) {
        format!("Here is the plan:\n```json\n{text}\n```\nLet me know if it needs changes.")
    } else {
        text
    };
    LargeCase {
        id: format!("{seed}-large-{size}"),
        input,
        expected,
        faults,
    }
}
