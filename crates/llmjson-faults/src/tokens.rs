//! A document as a list of tokens, each knowing where it sits: the faults edit tokens, so each
//! fault says exactly what it changed and the truncation oracle can replay what survived a cut.

use crate::doc::Node;
use crate::rng::Rng;

/// What a token is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum K {
    /// `{` or `[`.
    Open,
    /// `}` or `]` (its text may be edited or emptied by a fault; its meaning stays).
    Close,
    /// `:` between a key and its value.
    Colon,
    /// `,` between members or items.
    Comma,
    /// An object key.
    Key,
    /// A string value.
    Str,
    /// A number.
    Num,
    /// `true`, `false` or `null`.
    Lit,
    /// Whitespace.
    Ws,
    /// Text a fault added that means nothing (a comment, a stray closer, a stutter).
    Noise,
}

/// One token.
#[derive(Debug, Clone)]
pub struct Tok {
    /// What it is.
    pub k: K,
    /// How it is written now.
    pub text: String,
    /// Keys and strings: the content; numbers: the digits; literals: the word.
    pub content: String,
    /// Open/Close: `{` or `[`.
    pub bracket: u8,
    /// The kind of the innermost enclosing container (`{`, `[`), or 0 at the top.
    pub parent: u8,
    /// How many containers enclose it (a container's own brackets count its parent's).
    pub depth: usize,
    /// A fault touched it or its neighbour: no second fault may.
    pub locked: bool,
    /// A scalar written without its closing delimiter (an unquoted word, a string missing its end
    /// quote): only a delimiter after it shows that it ended.
    pub open_ended: bool,
}

impl Tok {
    fn new(k: K, text: String, parent: u8, depth: usize) -> Tok {
        Tok {
            k,
            content: text.clone(),
            text,
            bracket: 0,
            parent,
            depth,
            locked: false,
            open_ended: false,
        }
    }

    /// A token that carries meaning (not whitespace or noise).
    pub fn is_sig(&self) -> bool {
        !matches!(self.k, K::Ws | K::Noise)
    }
}

/// How whitespace is laid out.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Layout {
    /// `{"a":1,"b":[1,2]}`
    Compact,
    /// `{"a": 1, "b": [1, 2]}`
    Spaced,
    /// One member per line, indented by this many spaces (0: a tab).
    Pretty(usize),
}

impl Layout {
    /// A random layout.
    pub fn random(rng: &mut Rng) -> Layout {
        match rng.below(6) {
            0 => Layout::Compact,
            1 | 2 => Layout::Spaced,
            3 => Layout::Pretty(4),
            4 => Layout::Pretty(0),
            _ => Layout::Pretty(2),
        }
    }
}

/// How a string is written.
#[derive(Debug, Clone, Copy)]
pub struct StrStyle<'a> {
    /// The opening delimiter (`"`, `'`, `“`, or nothing).
    pub open: &'a str,
    /// The closing delimiter.
    pub close: &'a str,
    /// `"` in the content written as is, not `\"`.
    pub raw_quotes: bool,
    /// Line breaks and tabs in the content written as is.
    pub raw_controls: bool,
    /// Backslashes written as is, not `\\` (LaTeX as models write it in JSON: `"\frac{a}{b}"`).
    pub raw_backslashes: bool,
}

impl StrStyle<'static> {
    /// Standard JSON.
    pub const JSON: StrStyle<'static> = StrStyle {
        open: "\"",
        close: "\"",
        raw_quotes: false,
        raw_controls: false,
        raw_backslashes: false,
    };
}

/// Writes a string's content in a style.
pub fn render_str(content: &str, style: StrStyle<'_>) -> String {
    let mut out = String::with_capacity(content.len() + 2);
    out.push_str(style.open);
    for c in content.chars() {
        match c {
            '"' if style.raw_quotes => out.push('"'),
            '"' => out.push_str("\\\""),
            '\\' if style.raw_backslashes => out.push('\\'),
            '\\' => out.push_str("\\\\"),
            '\n' | '\t' | '\r' if style.raw_controls => out.push(c),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            '\r' => out.push_str("\\r"),
            c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push_str(style.close);
    out
}

/// The tokens of a document in a layout.
pub fn tokens(doc: &Node, layout: Layout) -> Vec<Tok> {
    let mut out = Vec::new();
    emit(doc, layout, 0, 0, &mut out);
    out
}

fn indent(layout: Layout, depth: usize) -> Option<String> {
    match layout {
        Layout::Pretty(0) => Some(format!("\n{}", "\t".repeat(depth))),
        Layout::Pretty(n) => Some(format!("\n{}", " ".repeat(n * depth))),
        _ => None,
    }
}

fn ws(out: &mut Vec<Tok>, text: String, parent: u8, depth: usize) {
    if !text.is_empty() {
        out.push(Tok::new(K::Ws, text, parent, depth));
    }
}

fn emit(node: &Node, layout: Layout, parent: u8, depth: usize, out: &mut Vec<Tok>) {
    match node {
        Node::Obj(_) | Node::Arr(_) => {
            let (open, close, own) = match node {
                Node::Obj(_) => ("{", "}", b'{'),
                _ => ("[", "]", b'['),
            };
            let mut t = Tok::new(K::Open, open.into(), parent, depth);
            t.bracket = own;
            out.push(t);
            let n = match node {
                Node::Obj(m) => m.len(),
                Node::Arr(a) => a.len(),
                _ => 0,
            };
            for i in 0..n {
                if let Some(nl) = indent(layout, depth + 1) {
                    ws(out, nl, own, depth + 1);
                }
                match node {
                    Node::Obj(m) => {
                        let (k, v) = &m[i];
                        let mut t = Tok::new(K::Key, render_str(k, StrStyle::JSON), own, depth + 1);
                        t.content = k.clone();
                        out.push(t);
                        out.push(Tok::new(K::Colon, ":".into(), own, depth + 1));
                        if layout != Layout::Compact {
                            ws(out, " ".into(), own, depth + 1);
                        }
                        emit(v, layout, own, depth + 1, out);
                    }
                    Node::Arr(a) => emit(&a[i], layout, own, depth + 1, out),
                    _ => {}
                }
                if i + 1 < n {
                    out.push(Tok::new(K::Comma, ",".into(), own, depth + 1));
                    if layout == Layout::Spaced {
                        ws(out, " ".into(), own, depth + 1);
                    }
                }
            }
            if n > 0 {
                if let Some(nl) = indent(layout, depth) {
                    ws(out, nl, own, depth + 1);
                }
            }
            let mut t = Tok::new(K::Close, close.into(), parent, depth);
            t.bracket = own;
            out.push(t);
        }
        Node::Str(s) => {
            let mut t = Tok::new(K::Str, render_str(s, StrStyle::JSON), parent, depth);
            t.content = s.clone();
            out.push(t);
        }
        Node::Num(n) => out.push(Tok::new(K::Num, n.clone(), parent, depth)),
        Node::Bool(b) => out.push(Tok::new(K::Lit, b.to_string(), parent, depth)),
        Node::Null => out.push(Tok::new(K::Lit, "null".into(), parent, depth)),
    }
}

/// The text of the tokens, and each token's byte range in it.
pub fn render(toks: &[Tok]) -> (String, Vec<std::ops::Range<usize>>) {
    let mut text = String::new();
    let mut spans = Vec::with_capacity(toks.len());
    for t in toks {
        let start = text.len();
        text.push_str(&t.text);
        spans.push(start..text.len());
    }
    (text, spans)
}

/// The next token after `i` that carries meaning and is written (non-empty).
pub fn next_sig(toks: &[Tok], i: usize) -> Option<usize> {
    (i + 1..toks.len()).find(|&j| toks[j].is_sig() && !toks[j].text.is_empty())
}

/// The previous token before `i` that carries meaning and is written.
pub fn prev_sig(toks: &[Tok], i: usize) -> Option<usize> {
    (0..i)
        .rev()
        .find(|&j| toks[j].is_sig() && !toks[j].text.is_empty())
}

/// Locks a token and its written neighbours (no other fault may touch them).
pub fn lock_around(toks: &mut [Tok], i: usize) {
    toks[i].locked = true;
    if let Some(p) = prev_sig(toks, i) {
        toks[p].locked = true;
    }
    if let Some(n) = next_sig(toks, i) {
        toks[n].locked = true;
    }
}
