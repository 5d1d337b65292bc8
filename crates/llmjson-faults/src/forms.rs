//! The forms real replies hold and the older classes did not write: echoed templates and
//! schemas before the answer, wrappers that are not fences (Python triple quotes, a function
//! call around the arguments, odd fences), members with no braces, objects one after another
//! with no brackets, markdown escapes, `key=value` pairs, half-escaped tool arguments, odd
//! separators and containers, unquoted values with units. Each is written the way the models
//! in `realworld.jsonl` write it, with other words, languages and shapes than its examples.

use crate::doc::Node;
use crate::faults::{is_ident, is_value_str, matching_close, standard_key, Fault};
use crate::rng::Rng;
use crate::tokens::{lock_around, prev_sig, render, render_str, tokens};
use crate::tokens::{Layout, StrStyle, Tok, K};

/// Values with units or decimal commas, as non-English replies leave them unquoted, and the
/// keys they come under.
const UNIT_MEMBERS: &[(&str, &str)] = &[
    ("altura", "1,82 m"),
    ("poids", "74 kg"),
    ("Gewicht", "3,5 kg"),
    ("temperatura", "38,5 °C"),
    ("preço", "12,50 €"),
    ("distance", "5 km"),
    ("durée", "2 h 30"),
    ("peso", "0,75 kg"),
    ("Länge", "12,4 cm"),
    ("consumo", "6,8 l/100km"),
    ("vitesse", "90 km/h"),
    ("largura", "2,10 m"),
];

/// Contents a model formatting for markdown writes with escapes (`file\_name.py`).
const MARKDOWN_TEXT: &[&str] = &[
    "file_name.py",
    "**Important**: back up first",
    "# Summary",
    "see [the docs] for details",
    "snake_case_name",
    "2 * 3 = 6",
    "user_id > 100",
    "~approx~ 5 items",
    "__init__.py",
    "max_retries_per_call",
    "pasta_de_trabalho/relatório_final.pdf",
    "価格_税込",
];

/// Maths whose markdown-looking escapes belong to LaTeX and keep their backslash.
const MARKDOWN_MATHS: &[&str] = &[
    r"$a\_1 + a\_2$",
    r"\(x\_i\)",
    r"$\#S = 4$",
    r"$v\_{max} = 12$",
];

/// The characters a markdown writer escapes.
const MARKDOWN_MARKS: &[char] = &['_', '*', '#', '[', ']', '>', '~'];

/// Adds the members a form needs to the document (before it becomes tokens).
pub fn prepare(fault: Fault, rng: &mut Rng, doc: &mut Node) {
    match fault {
        Fault::UnitValues => {
            for _ in 0..rng.range(1, 3) {
                let (key, value) = *rng.pick(UNIT_MEMBERS);
                add_member(rng, doc, key, Node::Str(value.into()));
            }
        }
        Fault::MarkdownEscapes => {
            let key = *rng.pick(&["file_name", "summary_note", "detail_text", "next_step"]);
            let text = rng.pick(MARKDOWN_TEXT).to_string();
            add_member(rng, doc, key, Node::Str(text));
            if rng.chance(0.3) {
                let maths = rng.pick(MARKDOWN_MATHS).to_string();
                add_member(rng, doc, "formula", Node::Str(maths));
            }
        }
        _ => {}
    }
}

/// Adds a member to the root object, or to the first object item of a root list.
fn add_member(rng: &mut Rng, doc: &mut Node, key: &str, value: Node) {
    let target = match doc {
        Node::Obj(_) => Some(doc),
        Node::Arr(items) => items.iter_mut().find(|n| matches!(n, Node::Obj(_))),
        _ => None,
    };
    if let Some(Node::Obj(members)) = target {
        if members.iter().any(|(k, _)| k == key) {
            return;
        }
        let at = rng.below(members.len() + 1);
        members.insert(at, (key.to_string(), value));
    }
}

/// Applies one of the token classes of this module. `false` when the document has no place
/// for it.
pub fn apply(fault: Fault, toks: &mut [Tok], rng: &mut Rng) -> bool {
    match fault {
        Fault::BareMembers => strip_root(toks, b'{', |_| true),
        Fault::UnbracketedObjects => strip_root(toks, b'[', |toks| {
            let items: Vec<&Tok> = toks
                .iter()
                .filter(|t| t.depth == 1 && t.is_sig() && !matches!(t.k, K::Comma | K::Close))
                .collect();
            items.len() >= 2 && items.iter().all(|t| t.k == K::Open && t.bracket == b'{')
        }),
        Fault::MarkdownEscapes => markdown_escapes(toks, rng),
        Fault::KeywordPairs => keyword_pairs(toks, rng),
        Fault::HalfEscaped => half_escaped(toks, rng),
        Fault::ArrowSeparator => arrow_separator(toks, rng),
        Fault::BracketObject => bracket_object(toks, rng),
        Fault::UnitValues => unit_values(toks),
        _ => false,
    }
}

/// The root container's brackets left out, when the root is of kind `bracket` and `fits`.
fn strip_root(toks: &mut [Tok], bracket: u8, fits: impl Fn(&[Tok]) -> bool) -> bool {
    let Some(first) = toks.iter().position(|t| t.is_sig()) else {
        return false;
    };
    let last = matching_close(toks, first);
    let ok = toks[first].k == K::Open
        && toks[first].bracket == bracket
        && !toks[first].locked
        && !toks[last].locked
        && last > first + 1
        && fits(toks);
    if ok {
        for at in [first, last] {
            toks[at].text.clear();
            lock_around(toks, at);
        }
        // The whitespace the brackets laid out goes with them.
        if toks.get(first + 1).is_some_and(|t| t.k == K::Ws) {
            toks[first + 1].text = toks[first + 1].text.trim_start_matches('\n').into();
            if toks[first + 1].text.chars().all(|c| c == ' ' || c == '\t') {
                toks[first + 1].text.clear();
            }
        }
        if last > 0 && toks[last - 1].k == K::Ws {
            toks[last - 1].text.clear();
        }
    }
    ok
}

fn markdown_escape(content: &str, marks: &[char]) -> String {
    let mut out = String::with_capacity(content.len() + 4);
    for c in content.chars() {
        if marks.contains(&c) {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

/// Keys and plain values with `_`, `*`, `#`, `[`, `]`, `>`, `~` escaped for markdown; maths
/// that writes `\_` keeps it (its content holds the backslash).
fn markdown_escapes(toks: &mut [Tok], rng: &mut Rng) -> bool {
    let mut done = false;
    let keys_too = rng.chance(0.7);
    for t in toks.iter_mut().filter(|t| !t.locked) {
        let plain = !t.content.contains(['"', '\\', '\n', '\t', '\r', '$'])
            && !t.content.contains("://")
            && t.content.contains(MARKDOWN_MARKS);
        let key = standard_key(t) && keys_too && t.content.contains('_');
        if MARKDOWN_MATHS.contains(&t.content.as_str()) && is_value_str(t) {
            let style = StrStyle {
                raw_backslashes: true,
                ..StrStyle::JSON
            };
            t.text = render_str(&t.content, style);
            t.locked = true;
        } else if key || (is_value_str(t) && plain) {
            let marks: &[char] = if key { &['_'] } else { MARKDOWN_MARKS };
            t.text = format!("\"{}\"", markdown_escape(&t.content, marks));
            t.locked = true;
            done = true;
        }
    }
    done
}

/// A value that reads the same with no quotes after `=`: one word, not a number or literal.
fn bare_word(s: &str) -> bool {
    !s.is_empty()
        && s.chars()
            .all(|c| c.is_alphanumeric() || matches!(c, '_' | '-' | '.' | '/'))
        && !s.starts_with(|c: char| c.is_ascii_digit() || matches!(c, '-' | '.'))
        && !matches!(
            s,
            "true" | "false" | "null" | "True" | "False" | "None" | "undefined"
        )
}

/// One flat object written `{name=search, path="src/*.rs", limit=5}` (or with `:` and no
/// spaces): identifier keys bare, one-word values bare, the rest quoted.
fn keyword_pairs(toks: &mut [Tok], rng: &mut Rng) -> bool {
    let cands: Vec<usize> = (0..toks.len())
        .filter(|&i| {
            let t = &toks[i];
            t.k == K::Open && t.bracket == b'{' && {
                let close = matching_close(toks, i);
                let inner = &toks[i + 1..close];
                inner.iter().any(|t| t.k == K::Key)
                    && inner.iter().all(|t| {
                        !t.locked
                            && t.k != K::Open
                            && (t.k != K::Key || is_ident(&t.content))
                            && (t.k != K::Str || !t.content.contains(['"', '\\', '\n', '\t']))
                    })
            }
        })
        .collect();
    if cands.is_empty() {
        return false;
    }
    let open = *rng.pick(&cands);
    let close = matching_close(toks, open);
    let sep = if rng.chance(0.75) { "=" } else { ":" };
    for j in open + 1..close {
        match toks[j].k {
            K::Key => toks[j].text = toks[j].content.clone(),
            K::Colon => {
                toks[j].text = sep.into();
                if toks[j + 1].k == K::Ws {
                    toks[j + 1].text.clear();
                }
            }
            K::Str if bare_word(&toks[j].content) => {
                toks[j].text = toks[j].content.clone();
                toks[j].open_ended = true;
            }
            _ => {}
        }
        toks[j].locked = true;
    }
    lock_around(toks, open);
    lock_around(toks, close);
    true
}

/// A member's object value with its quotes escaped, as if stringified once, the rest not
/// (`{"tool":"lookup","args\":{\"id\":\"A7\"}}`); sometimes the key's closing quote too.
fn half_escaped(toks: &mut [Tok], rng: &mut Rng) -> bool {
    let cands: Vec<usize> = (0..toks.len())
        .filter(|&i| {
            let t = &toks[i];
            t.k == K::Open
                && t.bracket == b'{'
                && t.parent == b'{'
                && prev_sig(toks, i).is_some_and(|c| {
                    toks[c].k == K::Colon
                        && prev_sig(toks, c).is_some_and(|k| standard_key(&toks[k]))
                })
                && {
                    let close = matching_close(toks, i);
                    toks[i..=close].iter().enumerate().all(|(n, t)| {
                        !t.locked
                            && (n == 0 || t.k != K::Open)
                            && !(matches!(t.k, K::Str | K::Key)
                                && t.content.contains(['"', '\\', '\n', '\t', '\r']))
                    }) && toks[i + 1..close].iter().any(|t| t.k == K::Key)
                }
        })
        .collect();
    if cands.is_empty() {
        return false;
    }
    let open = *rng.pick(&cands);
    let close = matching_close(toks, open);
    if rng.chance(0.5) {
        if let Some(key) = prev_sig(toks, open).and_then(|c| prev_sig(toks, c)) {
            let content = toks[key].content.clone();
            toks[key].text = format!("\"{content}\\\"");
            toks[key].locked = true;
        }
    }
    for t in &mut toks[open + 1..close] {
        if matches!(t.k, K::Str | K::Key) {
            t.text = format!("\\\"{}\\\"", t.content);
        }
        t.locked = true;
    }
    lock_around(toks, open);
    lock_around(toks, close);
    true
}

/// The colons of one object written `>`, ` > ` or ` -> ` after quoted keys.
fn arrow_separator(toks: &mut [Tok], rng: &mut Rng) -> bool {
    let cands: Vec<usize> = (0..toks.len())
        .filter(|&i| {
            toks[i].k == K::Colon
                && !toks[i].locked
                && prev_sig(toks, i).is_some_and(|k| standard_key(&toks[k]))
        })
        .collect();
    if cands.is_empty() {
        return false;
    }
    let arrow = *rng.pick(&[">", " >", " ->", "->"]);
    let all = rng.chance(0.5);
    let first = *rng.pick(&cands);
    for &c in &cands {
        if all || c == first {
            toks[c].text = arrow.into();
            lock_around(toks, c);
        }
    }
    true
}

/// A nested object written with brackets (`"tags": ["lang": "pt", "level": "B2"]`).
fn bracket_object(toks: &mut [Tok], rng: &mut Rng) -> bool {
    let cands: Vec<usize> = (0..toks.len())
        .filter(|&i| {
            let t = &toks[i];
            t.k == K::Open && t.bracket == b'{' && t.parent != 0 && !t.locked && {
                let close = matching_close(toks, i);
                !toks[close].locked && toks[i + 1..close].iter().any(|t| t.k == K::Key)
            }
        })
        .collect();
    if cands.is_empty() {
        return false;
    }
    let open = *rng.pick(&cands);
    let close = matching_close(toks, open);
    toks[open].text = "[".into();
    toks[close].text = "]".into();
    lock_around(toks, open);
    lock_around(toks, close);
    true
}

/// The unit members [`prepare`] added, written with no quotes (`"altura": 1,82 m`).
fn unit_values(toks: &mut [Tok]) -> bool {
    let mut done = false;
    for i in 0..toks.len() {
        if toks[i].k == K::Str
            && !toks[i].locked
            && UNIT_MEMBERS.iter().any(|(_, v)| *v == toks[i].content)
        {
            toks[i].text = toks[i].content.clone();
            toks[i].open_ended = true;
            lock_around(toks, i);
            done = true;
        }
    }
    done
}

/// A type name in place of a leaf, as templates write them.
fn type_leaf(rng: &mut Rng, node: &Node) -> Node {
    let names: &[&str] = match node {
        Node::Str(_) => &[
            "string", "str", "<string>", "text", "...", "<value>", "STRING",
        ],
        Node::Num(_) => &["number", "int", "float", "<number>", "integer"],
        Node::Bool(_) => &["boolean", "bool", "true|false"],
        _ => &["null", "string | null"],
    };
    Node::Str(rng.pick(names).to_string())
}

/// The template a prompt gave for `node`: its keys, with type names for leaves.
fn template(rng: &mut Rng, node: &Node) -> Node {
    match node {
        Node::Obj(members) => Node::Obj(
            members
                .iter()
                .map(|(k, v)| (k.clone(), template(rng, v)))
                .collect(),
        ),
        Node::Arr(items) => match items.first() {
            Some(first) => Node::Arr(vec![template(rng, first)]),
            None => Node::Arr(vec![Node::Str("...".into())]),
        },
        leaf => type_leaf(rng, leaf),
    }
}

/// The JSON Schema of `node` (what a prompt gives a model to fill).
fn schema(rng: &mut Rng, node: &Node, top: bool) -> Node {
    let kind = |s: &str| ("type".to_string(), Node::Str(s.into()));
    let mut members = Vec::new();
    if top && rng.chance(0.5) {
        members.push((
            "$schema".to_string(),
            Node::Str("http://json-schema.org/draft-07/schema#".into()),
        ));
    }
    if top && rng.chance(0.3) {
        members.push(("title".to_string(), Node::Str("Response".into())));
    }
    match node {
        Node::Obj(fields) => {
            members.push(kind("object"));
            let props = fields
                .iter()
                .map(|(k, v)| (k.clone(), schema(rng, v, false)))
                .collect();
            members.push(("properties".to_string(), Node::Obj(props)));
            if rng.chance(0.7) {
                let required = fields.iter().map(|(k, _)| Node::Str(k.clone())).collect();
                members.push(("required".to_string(), Node::Arr(required)));
            }
            if top && rng.chance(0.3) {
                members.push(("additionalProperties".to_string(), Node::Bool(false)));
            }
        }
        Node::Arr(items) => {
            members.push(kind("array"));
            let item = match items.first() {
                Some(first) => schema(rng, first, false),
                None => Node::Obj(vec![kind("string")]),
            };
            members.push(("items".to_string(), item));
        }
        Node::Str(_) => members.push(kind("string")),
        Node::Num(n) if n.contains(['.', 'e', 'E']) => members.push(kind("number")),
        Node::Num(_) => members.push(kind(if rng.chance(0.5) { "integer" } else { "number" })),
        Node::Bool(_) => members.push(kind("boolean")),
        Node::Null => members.push(kind("null")),
    }
    Node::Obj(members)
}

fn rendered(node: &Node, layout: Layout) -> String {
    render(&tokens(node, layout)).0
}

/// `{"label": string, "score": number}`: a template's type names written bare.
fn bare_type_names(text: &str) -> String {
    let mut out = text.to_string();
    for name in [
        "string", "number", "boolean", "integer", "int", "float", "bool",
    ] {
        out = out.replace(&format!("\"{name}\""), name);
    }
    out
}

/// A wrapper class of this module (see [`wrap`]).
pub fn is_form_wrapper(fault: Fault) -> bool {
    fault.is_form() && fault.is_wrapper()
}

/// The reply around `text` (the faulted answer) for a wrapper class of this module; `None`
/// when the document has no place for it.
pub fn wrap(fault: Fault, rng: &mut Rng, doc: &Node, text: &str) -> Option<String> {
    let layout = *rng.pick(&[Layout::Compact, Layout::Spaced, Layout::Pretty(2)]);
    match fault {
        Fault::TemplateEcho => {
            let mut t = rendered(&template(rng, doc), layout);
            if rng.chance(0.3) {
                t = bare_type_names(&t);
            }
            let (intro, joint) = *rng.pick(&[
                ("Output format: ", "\n\nAnswer: "),
                ("Respond using this format:\n", "\n\nHere is my answer:\n"),
                ("Format:\n", "\nResult:\n"),
                ("", "\n\n"),
                ("The template is ", ", filled in:\n"),
                ("Formato de saída: ", "\nResposta: "),
                ("出力形式: ", "\n回答: "),
                ("Schéma attendu : ", "\nRéponse : "),
            ]);
            Some(if rng.chance(0.3) {
                format!("{intro}\n```json\n{t}\n```{joint}\n```json\n{text}\n```")
            } else {
                format!("{intro}{t}{joint}{text}")
            })
        }
        Fault::SchemaEcho => {
            let s = rendered(&schema(rng, doc, true), layout);
            let (intro, joint) = *rng.pick(&[
                ("Schema:\n", "\n\nOutput:\n"),
                ("", "\n\n"),
                ("Given the schema ", ", the output is: "),
                (
                    "The JSON Schema you gave:\n",
                    "\nAnd the instance that follows it:\n",
                ),
                ("Esquema:\n", "\nSaída:\n"),
                ("スキーマ:\n", "\n出力:\n"),
            ]);
            Some(if rng.chance(0.35) {
                format!("{intro}```json\n{s}\n```{joint}```json\n{text}\n```")
            } else {
                format!("{intro}{s}{joint}{text}")
            })
        }
        Fault::TripleQuotes => {
            let q = *rng.pick(&["\"\"\"", "\"\"\"", "'''"]);
            let inner = match rng.below(4) {
                0 => format!("{q}{text}{q}"),
                1 => format!("{q}\n{text}\n{q}"),
                2 => format!("{q}json\n{text}\n{q}"),
                _ => format!("{q}\n```json\n{text}\n```\n{q}"),
            };
            let (before, after) = *rng.pick(&[
                ("", ""),
                ("Here is the output:\n", ""),
                ("output = ", "\n"),
                ("Resposta:\n", "\nEspero que ajude."),
                ("", "\nThe string above is valid JSON."),
            ]);
            Some(format!("{before}{inner}{after}"))
        }
        Fault::OddFence => {
            let (open, close) = *rng.pick(&[
                ("``json\n", "\n``"),
                ("````json\n", "\n````"),
                ("``\n", "\n``"),
                ("````\n", "\n````"),
            ]);
            let before = *rng.pick(&["", "Here you go:\n", "結果:\n"]);
            Some(format!("{before}{open}{text}{close}"))
        }
        Fault::CallAround => call_around(rng, doc, text),
        _ => None,
    }
}

/// A function call around the arguments object: `lookup_order({...})`, `[f({...})]`, a call
/// glued to prose (`…as follows.get_weather{...}`), keyword arguments `search(q="x", limit=3)`.
fn call_around(rng: &mut Rng, doc: &Node, text: &str) -> Option<String> {
    let Node::Obj(members) = doc else {
        return None;
    };
    let name = *rng.pick(&[
        "lookup_order",
        "get_weather",
        "search",
        "create_ticket",
        "send_email",
        "book_flight",
        "buscar_produto",
    ]);
    let kwargs = members.iter().all(|(k, v)| {
        is_ident(k)
            && match v {
                Node::Str(s) => !s.contains(['"', '\\', '\n', '\r', '\t']),
                Node::Obj(_) | Node::Arr(_) => false,
                _ => true,
            }
    });
    if kwargs && !members.is_empty() && rng.chance(0.4) {
        let args: Vec<String> = members
            .iter()
            .map(|(k, v)| {
                let value = match v {
                    Node::Str(s) => format!("\"{s}\""),
                    Node::Num(n) => n.clone(),
                    Node::Bool(true) => "True".into(),
                    Node::Bool(false) => "False".into(),
                    _ => "None".into(),
                };
                format!("{k}={value}")
            })
            .collect();
        let call = format!("{name}({})", args.join(", "));
        Some(around_call(rng, &call))
    } else {
        Some(call_with_object(rng, name, text))
    }
}

/// `text` (an object) as the argument of a call named `name`, written one of the ways models
/// write a call (`f({…})`, `[f({…})]`, a name glued to prose before it), maybe in a tag or
/// after a line of prose.
pub(crate) fn call_with_object(rng: &mut Rng, name: &str, text: &str) -> String {
    let call = match rng.below(3) {
        0 => format!("{name}({text})"),
        1 => format!("[{name}({text})]"),
        _ => format!("I'll call the tool as follows.{name}{text}"),
    };
    around_call(rng, &call)
}

fn around_call(rng: &mut Rng, call: &str) -> String {
    let (before, after) = *rng.pick(&[
        ("", ""),
        ("", ""),
        ("Calling the tool:\n", ""),
        ("<tool_call>\n", "\n</tool_call>"),
        ("Vou chamar a ferramenta: ", ""),
    ]);
    format!("{before}{call}{after}")
}
