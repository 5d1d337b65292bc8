//! The forms that models write and JSON does not have, as whole conventions rather than single
//! slips: strings in Python's `repr` or JavaScript's single quotes (with the escapes and the raw
//! `"` those conventions have), comments of prose or of commented-out data, Python's tuples and
//! sets, CJK full-width punctuation, digit separators. Each is written the way models write it,
//! awkward cases included: a generator that only writes the easy cases measures nothing.

use crate::faults::{
    insert, is_ident, is_value_str, matching_close, pick_and, standard_key, unlocked, Fault,
};
use crate::rng::Rng;
use crate::text::comment_text;
use crate::tokens::{lock_around, next_sig, prev_sig, Tok, K};

/// A string as Python's `repr` writes it: single quotes unless the text holds `'` and no `"`;
/// `\\`, `\n`, `\r`, `\t` escaped; `'` escaped inside single quotes; `"` left as it is.
pub fn python_repr(content: &str) -> String {
    let quote = if content.contains('\'') && !content.contains('"') {
        '"'
    } else {
        '\''
    };
    let mut out = String::with_capacity(content.len() + 2);
    out.push(quote);
    for c in content.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\'' if quote == '\'' => out.push_str("\\'"),
            c if (c as u32) < 0x20 || c == '\u{7f}' => {
                out.push_str(&format!("\\x{:02x}", c as u32))
            }
            c => out.push(c),
        }
    }
    out.push(quote);
    out
}

/// A string in JavaScript's single quotes: `'` and `\` escaped, line breaks and tabs as
/// escapes, `"` as it is.
pub fn js_single(content: &str) -> String {
    let mut out = String::with_capacity(content.len() + 2);
    out.push('\'');
    for c in content.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '\'' => out.push_str("\\'"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('\'');
    out
}

/// Applies one of the classes of this module. `false` when the document has no place for it.
pub fn apply(fault: Fault, toks: &mut Vec<Tok>, rng: &mut Rng) -> bool {
    match fault {
        Fault::PythonRepr => python_document(toks),
        Fault::JsSingleQuotes => js_document(toks, rng),
        Fault::ProseComment => prose_comments(toks, rng, false),
        Fault::QuotedComment => prose_comments(toks, rng, true),
        Fault::CommentedOut => commented_out(toks, rng),
        Fault::CommentAfterValue => comment_after_value(toks, rng),
        Fault::PythonContainers => python_containers(toks, rng),
        Fault::FullwidthPunctuation => fullwidth(toks, rng),
        Fault::DigitSeparators => digit_separators(toks, rng),
        Fault::OpenStringAtLineEnd => open_string_at_line_end(toks, rng),
        Fault::ExtraCloserPretty => crate::faults::extra_closer(toks, rng, true),
        _ => false,
    }
}

/// Every string and literal the other faults left alone, as Python's `repr` writes them.
fn python_document(toks: &mut [Tok]) -> bool {
    let mut hard = false;
    for t in toks.iter_mut().filter(|t| !t.locked) {
        if is_value_str(t) || standard_key(t) {
            t.text = python_repr(&t.content);
            hard |= t.text.starts_with('\'') && t.content.contains(['"', '\\', '\'', '\n']);
            t.locked = true;
        } else if t.k == K::Lit {
            t.text = match t.text.as_str() {
                "true" => "True",
                "false" => "False",
                _ => "None",
            }
            .into();
            t.locked = true;
        }
    }
    // The class is about the hard strings: a document without one is another class's case.
    hard
}

/// Every string in JavaScript's single quotes; keys bare where they are identifiers (most
/// models do all or nothing).
fn js_document(toks: &mut [Tok], rng: &mut Rng) -> bool {
    let bare_keys = rng.chance(0.7);
    let mut hard = false;
    for t in toks.iter_mut().filter(|t| !t.locked) {
        if standard_key(t) {
            if bare_keys && is_ident(&t.content) {
                t.text = t.content.clone();
                t.open_ended = true;
            } else {
                t.text = js_single(&t.content);
            }
            t.locked = true;
        } else if is_value_str(t) {
            t.text = js_single(&t.content);
            hard |= t.content.contains(['"', '\\', '\'', '\n']);
            t.locked = true;
        }
    }
    hard
}

/// The indentation of the line a whitespace token starts (`"\n    "` → 4 spaces).
fn line_break_ws(toks: &[Tok], i: usize) -> Option<&str> {
    toks.get(i)
        .filter(|t| t.k == K::Ws && t.text.starts_with('\n'))
        .map(|t| t.text.as_str())
}

/// A comment around `body`: `//`, `#` or `/* */`, ending its line when it must.
fn comment_around(rng: &mut Rng, body: &str, line_follows: bool, hash: bool) -> String {
    let style = if hash { 2 } else { rng.below(3) };
    match style {
        0 if line_follows => format!(" // {body}"),
        0 => format!(" // {body}\n"),
        1 => {
            if body.len() > 80 && line_follows && rng.chance(0.5) {
                // A long block comment laid out over lines, as models write explanations.
                let mut out = String::from(" /*\n");
                for line in wrap_words(body, 60) {
                    out.push_str("   * ");
                    out.push_str(&line);
                    out.push('\n');
                }
                out.push_str("   */");
                out
            } else {
                format!(" /* {body} */ ")
            }
        }
        _ if line_follows => format!(" # {body}"),
        _ => format!(" # {body}\n"),
    }
}

/// `text` in lines of about `width` bytes, broken at spaces (text without spaces stays whole).
fn wrap_words(text: &str, width: usize) -> Vec<String> {
    let mut lines = vec![String::new()];
    for word in text.split(' ') {
        let last = lines.last_mut().expect("one line at least");
        if !last.is_empty() && last.len() + word.len() > width {
            lines.push(word.to_string());
        } else {
            if !last.is_empty() {
                last.push(' ');
            }
            last.push_str(word);
        }
    }
    lines
}

/// One to three comments of prose (`quoted`: holding quotes) after an opener or a comma:
/// at the end of the line, or on a line of their own before the next member.
fn prose_comments(toks: &mut Vec<Tok>, rng: &mut Rng, quoted: bool) -> bool {
    let n = rng.range(1, 3);
    let mut placed = false;
    // Python-style documents comment with `#`.
    let hash = toks
        .iter()
        .any(|t| t.text.starts_with('\'') || t.text == "True");
    for _ in 0..n {
        let cands = unlocked(toks, |i, t| {
            matches!(t.k, K::Open | K::Comma)
                && next_sig(toks, i).is_some_and(|n| !toks[n].locked && toks[n].k != K::Close)
        });
        if cands.is_empty() {
            break;
        }
        let c = *rng.pick(&cands);
        let body = comment_text(rng, quoted);
        let own_line = line_break_ws(toks, c + 1).map(str::to_string);
        let text = match own_line {
            // `,⏎  // note⏎  "next": …`
            Some(ws) if rng.chance(0.5) => {
                let marker = if hash {
                    "#"
                } else {
                    *rng.pick(&["//", "//", "#"])
                };
                if marker == "//" && rng.chance(0.3) {
                    format!("{ws}/* {body} */")
                } else {
                    format!("{ws}{marker} {body}")
                }
            }
            Some(_) => comment_around(rng, &body, true, hash),
            None => comment_around(rng, &body, false, hash),
        };
        lock_around(toks, c);
        insert(toks, c + 1, &text, c);
        placed = true;
    }
    placed
}

/// Non-whitespace bytes of `toks`.
fn solid(toks: &[Tok]) -> usize {
    toks.iter()
        .filter(|t| t.k != K::Ws)
        .map(|t| t.text.chars().filter(|c| !c.is_whitespace()).count())
        .sum()
}

/// A member (or an item) the model commented out: `// "age": 31,`, `/* "a": 1, "b": 2, */`,
/// `[1, 2, /* 3, */ 4]`. The value is the document without it. Only members small enough that
/// leaving them out is not most of the reply (the safety guard counts commented-out data).
fn commented_out(toks: &mut [Tok], rng: &mut Rng) -> bool {
    let total = solid(toks);
    // Each candidate: its first token, its last (the comma after it, or the value).
    let spans: Vec<(usize, usize)> = (0..toks.len())
        .filter_map(|i| {
            let t = &toks[i];
            let starts = match t.k {
                K::Key => true,
                K::Str | K::Num | K::Lit | K::Open => t.parent == b'[',
                _ => false,
            };
            if !starts || t.locked || t.depth == 0 {
                return None;
            }
            let value = if t.k == K::Key {
                let colon = next_sig(toks, i)?;
                next_sig(toks, colon)?
            } else {
                i
            };
            let value_end = if toks[value].k == K::Open {
                matching_close(toks, value)
            } else {
                value
            };
            let after = next_sig(toks, value_end)?;
            // The container keeps another member: a comma follows, or one came before.
            let last = match toks[after].k {
                K::Comma => after,
                K::Close => {
                    let before = prev_sig(toks, i)?;
                    if toks[before].k != K::Comma {
                        return None;
                    }
                    value_end
                }
                _ => return None,
            };
            let inner = &toks[i..=last];
            let clean = inner.iter().all(|t| !t.locked && t.k != K::Noise)
                && !inner.iter().any(|t| t.text.contains("*/"));
            (clean && solid(inner) * 4 <= total).then_some((i, last))
        })
        .collect();
    if spans.is_empty() {
        return false;
    }
    let (first, last) = *rng.pick(&spans);
    let one_line = toks[first..=last].iter().all(|t| !t.text.contains('\n'));
    let own_line = first > 0 && line_break_ws(toks, first - 1).is_some();
    let hash = toks
        .iter()
        .any(|t| t.text.starts_with('\'') || t.text == "True");
    let (open, close) = if one_line && own_line && rng.chance(0.7) {
        // The whole line commented out, as editors do.
        (
            if hash {
                "# "
            } else {
                *rng.pick(&["// ", "// ", "# "])
            },
            "",
        )
    } else {
        ("/* ", " */")
    };
    for t in &mut toks[first..=last] {
        if t.k != K::Ws {
            t.k = K::Noise;
        }
        t.locked = true;
    }
    toks[first].text = format!("{open}{}", toks[first].text);
    toks[last].text = format!("{}{close}", toks[last].text);
    if close.is_empty() && line_break_ws(toks, last + 1).is_none() {
        // A line comment must end its line.
        toks[last].text.push('\n');
    }
    lock_around(toks, first);
    lock_around(toks, last);
    true
}

/// A comment after the last value of a container, before its closer: on its own line's end
/// (`"mode": "fast" // default⏎  }`) or, in a one-line layout, running over the closer
/// (`{"cfg": {"mode": "fast" // default }, "n": 2}`).
fn comment_after_value(toks: &mut Vec<Tok>, rng: &mut Rng) -> bool {
    let cands = unlocked(toks, |i, t| {
        matches!(t.k, K::Str | K::Num | K::Lit | K::Close)
            && t.text.len() == t.text.trim().len()
            && next_sig(toks, i).is_some_and(|n| toks[n].k == K::Close && !toks[n].locked)
    });
    pick_and(toks, rng, &cands, |toks, c, rng| {
        const NOTES: &[&str] = &[
            "default",
            "optional",
            "in seconds",
            "padrão",
            "既定値",
            "по умолчанию",
            "TODO: confirm",
            "can be null",
            "the last one",
        ];
        let note = *rng.pick(NOTES);
        let line_follows = line_break_ws(toks, c + 1).is_some();
        let text = match rng.below(3) {
            0 => format!(" // {note}"),
            1 => format!(" # {note}"),
            _ => format!(" /* {note} */"),
        };
        // On one line, the comment runs on to the closer: `// default }`.
        let text = if line_follows || text.ends_with("*/") {
            text
        } else {
            format!("{text} ")
        };
        lock_around(toks, c);
        insert(toks, c + 1, &text, c);
    })
}

/// Python's containers: lists of pairs as nested tuples (`(("a", 1), ("b", 2))`), a list of
/// distinct scalars as a set (`{'red', 'blue'}`), a scalar in parentheses (`(5)`).
fn python_containers(toks: &mut [Tok], rng: &mut Rng) -> bool {
    // Arrays whose items are all scalars or arrays of scalars, no token touched.
    let plain_array = |toks: &[Tok], o: usize, nested_ok: bool| {
        let close = matching_close(toks, o);
        (o + 1..close).all(|j| {
            let t = &toks[j];
            !t.locked
                && match t.k {
                    K::Open => nested_ok && t.bracket == b'[',
                    K::Close => nested_ok && t.bracket == b'[',
                    _ => true,
                }
        }) && (o + 1..close).any(|j| toks[j].is_sig())
    };
    let nested: Vec<usize> = unlocked(toks, |i, t| {
        t.k == K::Open
            && t.bracket == b'['
            && plain_array(toks, i, true)
            && (i + 1..matching_close(toks, i)).any(|j| toks[j].k == K::Open)
    });
    let sets: Vec<usize> = unlocked(toks, |i, t| {
        if t.k != K::Open || t.bracket != b'[' || !plain_array(toks, i, false) {
            return false;
        }
        let close = matching_close(toks, i);
        let items: Vec<&Tok> = toks[i + 1..close]
            .iter()
            .filter(|t| matches!(t.k, K::Str | K::Num))
            .collect();
        let distinct = items
            .iter()
            .enumerate()
            .all(|(a, x)| items[..a].iter().all(|y| y.content != x.content));
        // A set holds hashable scalars: strings and numbers, each once (no literals).
        items.len() >= 2 && distinct && toks[i + 1..close].iter().all(|t| !matches!(t.k, K::Lit))
    });
    let scalars: Vec<usize> = unlocked(toks, |i, t| {
        matches!(t.k, K::Num | K::Str)
            && t.parent == b'{'
            && prev_sig(toks, i).is_some_and(|p| toks[p].k == K::Colon && !toks[p].locked)
    });
    let form = match (nested.is_empty(), sets.is_empty(), scalars.is_empty()) {
        (true, true, true) => return false,
        _ => loop {
            let f = rng.below(5);
            match f {
                0 | 1 if !nested.is_empty() => break 0,
                2 | 3 if !sets.is_empty() => break 1,
                4 if !scalars.is_empty() => break 2,
                _ => {}
            }
        },
    };
    match form {
        0 => {
            let o = *rng.pick(&nested);
            let close = matching_close(toks, o);
            for t in &mut toks[o..=close] {
                match t.k {
                    K::Open => t.text = "(".into(),
                    K::Close => t.text = ")".into(),
                    _ => {}
                }
                t.locked = true;
            }
            // A tuple of one item keeps a comma: `(5,)`, `(("a", 1),)`.
            for j in o..=close {
                if toks[j].k != K::Open {
                    continue;
                }
                let inner_close = matching_close(toks, j);
                // Its items: what stands one level inside it (an inner container by its opener).
                let top_items: Vec<usize> = (j + 1..inner_close)
                    .filter(|&i| {
                        toks[i].is_sig()
                            && !matches!(toks[i].k, K::Comma | K::Close)
                            && toks[i].depth == toks[j].depth + 1
                    })
                    .collect();
                if top_items.len() == 1 {
                    let item = top_items[0];
                    let last = if toks[item].k == K::Open {
                        matching_close(toks, item)
                    } else {
                        item
                    };
                    toks[last].text.push(',');
                }
            }
            lock_around(toks, o);
            lock_around(toks, close);
        }
        1 => {
            let o = *rng.pick(&sets);
            let close = matching_close(toks, o);
            toks[o].text = "{".into();
            toks[close].text = "}".into();
            for t in &mut toks[o..=close] {
                t.locked = true;
            }
            lock_around(toks, o);
            lock_around(toks, close);
        }
        _ => {
            let c = *rng.pick(scalars.as_slice());
            toks[c].text = format!("({})", toks[c].text);
            lock_around(toks, c);
        }
    }
    true
}

/// CJK models' full-width `：` and `，` used as JSON's colon and comma.
fn fullwidth(toks: &mut [Tok], rng: &mut Rng) -> bool {
    let all = rng.chance(0.7);
    let mut done = false;
    for i in 0..toks.len() {
        let t = &toks[i];
        if t.locked || !matches!(t.k, K::Colon | K::Comma) || !(all || rng.chance(0.5)) {
            continue;
        }
        let wide = if t.k == K::Colon { "：" } else { "，" };
        toks[i].text = wide.into();
        toks[i].locked = true;
        // Full-width punctuation carries its own space: models drop the ASCII one after it.
        if toks
            .get(i + 1)
            .is_some_and(|w| w.k == K::Ws && w.text == " ")
            && !toks[i + 1].locked
        {
            toks[i + 1].text.clear();
        }
        done = true;
    }
    done
}

/// Digits grouped with `_` (`250_000`, as Python and Rust write them) and the minus sign
/// U+2212 (`−12.5`, as typeset text has it).
fn digit_separators(toks: &mut [Tok], rng: &mut Rng) -> bool {
    let cands = unlocked(toks, |_, t| {
        t.k == K::Num && {
            let digits = t.content.trim_start_matches('-');
            let int = digits.split(['.', 'e', 'E']).next().unwrap_or("");
            t.content.starts_with('-') || (int.len() >= 4 && !digits.contains(['e', 'E']))
        }
    });
    if cands.is_empty() {
        return false;
    }
    for (n, &c) in cands.iter().enumerate() {
        if n > 0 && !rng.chance(0.5) {
            continue;
        }
        let content = toks[c].content.clone();
        let (sign, digits) = match content.strip_prefix('-') {
            Some(rest) => ("−", rest),
            None => ("", content.as_str()),
        };
        let (int, frac) = match digits.find(['.', 'e', 'E']) {
            Some(k) => digits.split_at(k),
            None => (digits, ""),
        };
        let mut grouped = String::new();
        if int.len() >= 4 && !frac.contains(['e', 'E']) {
            for (k, ch) in int.chars().enumerate() {
                if k > 0 && (int.len() - k) % 3 == 0 {
                    grouped.push('_');
                }
                grouped.push(ch);
            }
        } else {
            grouped.push_str(int);
        }
        toks[c].text = format!("{sign}{grouped}{frac}");
        lock_around(toks, c);
    }
    true
}

/// In a laid-out document, a string that lost its closing quote at the end of its line
/// (`"red,⏎    "blue"` or `"blue⏎  ]`).
fn open_string_at_line_end(toks: &mut Vec<Tok>, rng: &mut Rng) -> bool {
    let cands = unlocked(toks, |i, t| {
        if !is_value_str(t) || !crate::faults::open_end_safe(&t.content) {
            return false;
        }
        match next_sig(toks, i) {
            Some(n) if toks[n].k == K::Comma => {
                line_break_ws(toks, n + 1).is_some()
                    && next_sig(toks, n).is_some_and(|a| !toks[a].locked)
            }
            Some(n) if toks[n].k == K::Close => line_break_ws(toks, i + 1).is_some(),
            _ => false,
        }
    });
    pick_and(toks, rng, &cands, |toks, c, _| {
        let text = toks[c].text.clone();
        toks[c].text = text[..text.len() - 1].to_string();
        toks[c].open_ended = true;
        lock_around(toks, c);
    })
}
