//! Valid documents of the shapes models are asked for: tool-call arguments, extraction records,
//! arrays of objects, nested configs, plans, code artifacts, answers with citations.

use crate::rng::Rng;
use crate::text::{text, TextKind};
use serde_json::{Map, Number, Value};

/// A JSON value with its members in writing order.
#[derive(Debug, Clone, PartialEq)]
pub enum Node {
    /// An object.
    Obj(Vec<(String, Node)>),
    /// An array.
    Arr(Vec<Node>),
    /// A string (its content, unescaped).
    Str(String),
    /// A number, as written.
    Num(String),
    /// `true` or `false`.
    Bool(bool),
    /// `null`.
    Null,
}

impl Node {
    /// The value this node means.
    pub fn to_value(&self) -> Value {
        match self {
            Node::Obj(members) => {
                let mut map = Map::new();
                for (k, v) in members {
                    map.insert(k.clone(), v.to_value());
                }
                Value::Object(map)
            }
            Node::Arr(items) => Value::Array(items.iter().map(Node::to_value).collect()),
            Node::Str(s) => Value::String(s.clone()),
            Node::Num(n) => n
                .parse::<Number>()
                .map(Value::Number)
                .unwrap_or(Value::Null),
            Node::Bool(b) => Value::Bool(*b),
            Node::Null => Value::Null,
        }
    }
}

fn s(rng: &mut Rng, kind: TextKind) -> Node {
    Node::Str(text(rng, kind))
}

fn int(rng: &mut Rng, lo: i64, hi: i64) -> Node {
    let span = (hi - lo + 1) as usize;
    Node::Num((lo + rng.below(span) as i64).to_string())
}

fn float(rng: &mut Rng) -> Node {
    const FLOATS: &[&str] = &[
        "0.82", "3.14", "-2.5", "1e-3", "12.0", "99.99", "6.02e23", "-0.001", "1.5E+2", "0.5",
    ];
    Node::Num(rng.pick(FLOATS).to_string())
}

/// A string content for an ordinary text field: mostly prose, sometimes the hard kinds.
fn prose(rng: &mut Rng) -> Node {
    let kind = match rng.below(20) {
        0 => TextKind::Quoted,
        1 => TextKind::Url,
        2 => TextKind::Path,
        3 => TextKind::Multiline,
        4..=5 => TextKind::Name,
        _ => TextKind::Plain,
    };
    s(rng, kind)
}

fn key(rng: &mut Rng, base: &str) -> String {
    // Mostly snake_case; sometimes camelCase or a non-ASCII key, as models write them.
    match rng.below(12) {
        0 => {
            let mut out = String::new();
            let mut upper = false;
            for c in base.chars() {
                if c == '_' {
                    upper = true;
                } else if upper {
                    out.extend(c.to_uppercase());
                    upper = false;
                } else {
                    out.push(c);
                }
            }
            out
        }
        1 => rng
            .pick(&["名前", "descrição", "город", "détails", "주소"])
            .to_string(),
        _ => base.to_string(),
    }
}

fn obj(members: Vec<(&str, Node)>) -> Node {
    Node::Obj(
        members
            .into_iter()
            .map(|(k, v)| (k.to_string(), v))
            .collect(),
    )
}

/// Renames some keys the way models write them (camelCase, non-ASCII), keeping them unique.
fn vary_keys(node: &mut Node, rng: &mut Rng) {
    match node {
        Node::Obj(members) => {
            let mut seen = std::collections::HashSet::new();
            for (k, v) in members.iter_mut() {
                let mut name = key(rng, k);
                while !seen.insert(name.clone()) {
                    name.push('_');
                }
                *k = name;
                vary_keys(v, rng);
            }
        }
        Node::Arr(items) => items.iter_mut().for_each(|v| vary_keys(v, rng)),
        _ => {}
    }
}

fn tags(rng: &mut Rng) -> Node {
    let n = rng.range(0, 4);
    Node::Arr(
        (0..n)
            .map(|_| {
                if rng.chance(0.7) {
                    s(rng, TextKind::Word)
                } else {
                    s(rng, TextKind::City)
                }
            })
            .collect(),
    )
}

fn scalar(rng: &mut Rng) -> Node {
    match rng.below(9) {
        0 => Node::Bool(rng.chance(0.5)),
        1 => Node::Null,
        2 => float(rng),
        3..=4 => int(rng, -50, 5000),
        5 => s(rng, TextKind::Word),
        _ => prose(rng),
    }
}

fn tool_call(rng: &mut Rng) -> Node {
    let tool = rng
        .pick(&["search", "get_weather", "send_email", "create_ticket"])
        .to_string();
    let mut args = vec![("query", prose(rng)), ("limit", int(rng, 1, 50))];
    if rng.chance(0.5) {
        args.push((
            "filters",
            obj(vec![("city", s(rng, TextKind::City)), ("tags", tags(rng))]),
        ));
    }
    if rng.chance(0.4) {
        args.push(("urgent", Node::Bool(rng.chance(0.5))));
    }
    let args = obj(args);
    obj(vec![("name", Node::Str(tool)), ("arguments", args)])
}

fn record(rng: &mut Rng) -> Node {
    let mut m = vec![
        ("id", int(rng, 1, 99999)),
        ("name", s(rng, TextKind::Name)),
        ("city", s(rng, TextKind::City)),
    ];
    if rng.chance(0.6) {
        m.push(("tags", tags(rng)));
    }
    if rng.chance(0.5) {
        m.push(("score", float(rng)));
    }
    if rng.chance(0.5) {
        m.push(("active", Node::Bool(rng.chance(0.5))));
    }
    if rng.chance(0.5) {
        m.push((
            "notes",
            if rng.chance(0.3) {
                Node::Null
            } else {
                prose(rng)
            },
        ));
    }
    if rng.chance(0.3) {
        m.push((
            "address",
            obj(vec![
                ("street", s(rng, TextKind::Plain)),
                ("zip", s(rng, TextKind::Word)),
            ]),
        ));
    }
    obj(m)
}

fn records(rng: &mut Rng) -> Node {
    let n = rng.range(2, 5);
    Node::Arr((0..n).map(|_| record(rng)).collect())
}

fn config(rng: &mut Rng, depth: usize) -> Node {
    let n = rng.range(2, 4);
    let names = [
        "server", "database", "cache", "features", "logging", "limits", "retry", "ui",
    ];
    let mut m = Vec::new();
    for i in 0..n {
        let k = names[(i + rng.below(names.len())) % names.len()];
        let v = if depth > 0 && rng.chance(0.5) {
            config(rng, depth - 1)
        } else if rng.chance(0.3) {
            Node::Arr((0..rng.range(1, 4)).map(|_| scalar(rng)).collect())
        } else {
            scalar(rng)
        };
        m.push((k, v));
    }
    obj(m)
}

fn plan(rng: &mut Rng) -> Node {
    let n = rng.range(1, 4);
    let steps = (0..n)
        .map(|i| {
            let mut m = vec![
                ("id", Node::Str(format!("s{}", i + 1))),
                ("tool", s(rng, TextKind::Word)),
                ("description", prose(rng)),
            ];
            if rng.chance(0.5) {
                m.push((
                    "args",
                    obj(vec![
                        ("path", s(rng, TextKind::Path)),
                        ("retries", int(rng, 0, 5)),
                    ]),
                ));
            }
            m.push(("done", Node::Bool(rng.chance(0.5))));
            obj(m)
        })
        .collect();
    obj(vec![
        ("goal", prose(rng)),
        ("steps", Node::Arr(steps)),
        ("summary", prose(rng)),
    ])
}

fn artifact(rng: &mut Rng) -> Node {
    let path = rng.pick(&[
        "src/main.py",
        "app.js",
        "query.sql",
        "run.sh",
        "lib/util.rs",
    ]);
    let mut m = vec![
        ("path", Node::Str(path.to_string())),
        ("content", s(rng, TextKind::Code)),
    ];
    if rng.chance(0.5) {
        m.push(("next_actions", Node::Arr(vec![s(rng, TextKind::Word)])));
    }
    if rng.chance(0.4) {
        m.push(("summary", prose(rng)));
    }
    obj(m)
}

fn answer(rng: &mut Rng) -> Node {
    let n = rng.range(1, 3);
    let cites = (0..n)
        .map(|_| {
            obj(vec![
                ("doc", s(rng, TextKind::Word)),
                ("page", int(rng, 1, 300)),
            ])
        })
        .collect();
    obj(vec![
        ("answer", prose(rng)),
        ("citations", Node::Arr(cites)),
        ("confidence", float(rng)),
    ])
}

fn extraction(rng: &mut Rng) -> Node {
    let n = rng.range(1, 4);
    let ents = (0..n)
        .map(|_| {
            let start = rng.below(200) as i64;
            obj(vec![
                ("text", s(rng, TextKind::Name)),
                ("type", s(rng, TextKind::Word)),
                ("start", Node::Num(start.to_string())),
                ("end", Node::Num((start + 5).to_string())),
            ])
        })
        .collect();
    obj(vec![
        ("entities", Node::Arr(ents)),
        ("language", s(rng, TextKind::Word)),
    ])
}

fn list(rng: &mut Rng) -> Node {
    let n = rng.range(2, 6);
    match rng.below(3) {
        0 => Node::Arr((0..n).map(|_| s(rng, TextKind::Word)).collect()),
        1 => Node::Arr((0..n).map(|_| scalar(rng)).collect()),
        _ => Node::Arr(
            (0..n)
                .map(|_| Node::Arr((0..rng.range(1, 3)).map(|_| int(rng, 0, 9)).collect()))
                .collect(),
        ),
    }
}

/// A random document; `long` makes it a few kilobytes.
pub fn document(rng: &mut Rng) -> Node {
    let mut doc = match rng.below(10) {
        0 => tool_call(rng),
        1 => record(rng),
        2 => records(rng),
        3 => config(rng, 2),
        4 => plan(rng),
        5 => artifact(rng),
        6 => answer(rng),
        7 => extraction(rng),
        8 => list(rng),
        _ => {
            // A long reply: many records under one key.
            let n = rng.range(8, 20);
            obj(vec![
                ("items", Node::Arr((0..n).map(|_| record(rng)).collect())),
                ("total", Node::Num(n.to_string())),
            ])
        }
    };
    vary_keys(&mut doc, rng);
    doc
}

/// Python's shapes for [`crate::Fault::PythonContainers`]: a list of pairs (tuples of tuples)
/// and a list of distinct words (a set), as a member of the document.
pub fn add_python_shapes(rng: &mut Rng, doc: &mut Node) {
    let value = if rng.chance(0.5) {
        let n = rng.range(1, 4);
        Node::Arr(
            (0..n)
                .map(|_| Node::Arr(vec![s(rng, TextKind::Word), int(rng, 0, 99)]))
                .collect(),
        )
    } else {
        let mut words: Vec<String> = Vec::new();
        for _ in 0..rng.range(2, 4) {
            let w = text(rng, TextKind::Word);
            if !words.contains(&w) {
                words.push(w);
            }
        }
        Node::Arr(words.into_iter().map(Node::Str).collect())
    };
    let key = *rng.pick(&["pairs", "tags", "colors", "options", "counts"]);
    match doc {
        Node::Obj(members) if !members.iter().any(|(k, _)| k == key) => {
            let at = rng.below(members.len() + 1);
            members.insert(at, (key.to_string(), value));
        }
        Node::Arr(items) => {
            let at = rng.below(items.len() + 1);
            items.insert(at, value);
        }
        _ => {}
    }
}

/// A document that holds at least one string of `kind` (placed in an ordinary field); for
/// the strings that are hard to write in single quotes, one to three of them.
pub fn document_with(rng: &mut Rng, kind: TextKind) -> Node {
    let mut doc = document(rng);
    let n = if kind == TextKind::SingleQuotedHard {
        rng.range(1, 3)
    } else {
        1
    };
    for _ in 0..n {
        add_text(rng, &mut doc, kind);
    }
    doc
}

fn add_text(rng: &mut Rng, doc: &mut Node, kind: TextKind) {
    let content = text(rng, kind);
    let field = match kind {
        TextKind::Code | TextKind::CodeNoQuotes => "content",
        TextKind::Quoted => "note",
        TextKind::Multiline => "body",
        TextKind::SingleQuotedHard => *rng.pick(&["snippet", "note", "payload", "path"]),
        TextKind::Maths => *rng.pick(&["answer", "formula", "solution", "explanation"]),
        TextKind::Controls => *rng.pick(&["table", "message", "rows"]),
        _ => "value",
    };
    match doc {
        Node::Obj(members) => {
            let at = rng.below(members.len() + 1);
            let mut k = field.to_string();
            while members.iter().any(|(m, _)| *m == k) {
                k.push('_');
            }
            members.insert(at, (k, Node::Str(content)));
        }
        Node::Arr(items) => {
            let at = rng.below(items.len() + 1);
            items.insert(at, Node::Str(content));
        }
        _ => {}
    }
}
