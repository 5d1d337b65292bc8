//! LaTeX written inside a JSON string with single backslashes (`"$\frac{a}{b} + \beta$"`).
//!
//! `\b`, `\f`, `\n`, `\r` and `\t` are valid JSON escapes, so a strict reader turns `\frac`
//! into a form feed and `rac`, `\beta` into a backspace and `eta`, `\theta` into a tab and
//! `heta` — with no error. The rule: an escape whose letter begins a known LaTeX command name
//! (the whole run of letters after the backslash is the name, and what follows is not a
//! letter) is read as that command, backslash kept, when
//! - the escape is `\f` or `\b` (form feed and backspace are not what a model means before a
//!   command name), or
//! - the string shows maths: a pair of `$`, `\(` or `\[`, or another known command written
//!   with one backslash (`\alpha`, `\cdot`, `\sum`: escapes JSON does not have) or two
//!   (`\\alpha`), or a `\f`/`\b` command.
//!
//! Real tabs and newlines stay: in `"Name\tScore\nAna\t91"` and `"Send\tto the team"` the
//! letters after the escape (`tScore`, `nAna`, `tto`) name no command.

/// Commands that begin with a letter JSON reads as an escape (b, f, n, r, t), sorted: the ones
/// a strict reader corrupts. Public as `llmjson::sink::LATEX_COLLISIONS`.
pub const COLLIDING: &[&str] = &[
    "backsim",
    "backslash",
    "bar",
    "because",
    "begin",
    "beta",
    "beth",
    "bf",
    "big",
    "bigcap",
    "bigcirc",
    "bigcup",
    "bigg",
    "biggl",
    "biggr",
    "bigl",
    "bigodot",
    "bigoplus",
    "bigotimes",
    "bigr",
    "bigsqcup",
    "bigstar",
    "bigtriangledown",
    "bigtriangleup",
    "biguplus",
    "bigvee",
    "bigwedge",
    "binom",
    "blacksquare",
    "bm",
    "bmod",
    "boldsymbol",
    "bot",
    "bowtie",
    "boxdot",
    "boxed",
    "boxplus",
    "boxtimes",
    "breve",
    "bullet",
    "fbox",
    "flat",
    "forall",
    "frac",
    "framebox",
    "frown",
    "nabla",
    "natural",
    "ncong",
    "ne",
    "nearrow",
    "neg",
    "neq",
    "newline",
    "nexists",
    "ngeq",
    "ngtr",
    "ni",
    "nleftarrow",
    "nleftrightarrow",
    "nleq",
    "nless",
    "nmid",
    "noindent",
    "nolimits",
    "nonumber",
    "not",
    "notin",
    "nparallel",
    "nrightarrow",
    "nsim",
    "nsubseteq",
    "nsupseteq",
    "nu",
    "nwarrow",
    "rVert",
    "rangle",
    "rbrace",
    "rbrack",
    "rceil",
    "rfloor",
    "rho",
    "right",
    "rightarrow",
    "rightharpoonup",
    "rightleftarrows",
    "rightleftharpoons",
    "rightrightarrows",
    "rm",
    "rtimes",
    "rvert",
    "tag",
    "tan",
    "tanh",
    "tau",
    "tbinom",
    "text",
    "textbf",
    "textcolor",
    "textit",
    "textnormal",
    "textrm",
    "textsc",
    "textsf",
    "textstyle",
    "texttt",
    "textup",
    "tfrac",
    "therefore",
    "theta",
    "thinspace",
    "tilde",
    "times",
    "tiny",
    "to",
    "top",
    "triangle",
    "triangleleft",
    "triangleq",
    "triangleright",
    "tt",
    "twoheadrightarrow",
];

/// Other common commands, sorted: written with one backslash (an escape JSON does not have),
/// each shows that its string is maths.
const SIGNS: &[&str] = &[
    "Delta",
    "Gamma",
    "Lambda",
    "Leftarrow",
    "Leftrightarrow",
    "Longrightarrow",
    "Omega",
    "Phi",
    "Pi",
    "Psi",
    "Rightarrow",
    "Sigma",
    "Theta",
    "alpha",
    "approx",
    "arccos",
    "arcsin",
    "arctan",
    "ast",
    "cap",
    "cdot",
    "cdots",
    "chi",
    "circ",
    "cong",
    "cos",
    "cosh",
    "cot",
    "cup",
    "ddots",
    "delta",
    "det",
    "dfrac",
    "displaystyle",
    "div",
    "dot",
    "dots",
    "ell",
    "emptyset",
    "end",
    "epsilon",
    "equiv",
    "eta",
    "exists",
    "exp",
    "gamma",
    "ge",
    "geq",
    "gg",
    "hat",
    "hbar",
    "iff",
    "implies",
    "in",
    "infty",
    "int",
    "iota",
    "kappa",
    "lambda",
    "langle",
    "lceil",
    "ldots",
    "le",
    "left",
    "leftarrow",
    "leq",
    "lfloor",
    "lim",
    "ll",
    "ln",
    "log",
    "mapsto",
    "mathbb",
    "mathbf",
    "mathcal",
    "mathrm",
    "max",
    "mid",
    "min",
    "mu",
    "odot",
    "oint",
    "omega",
    "operatorname",
    "oplus",
    "otimes",
    "overline",
    "partial",
    "perp",
    "phi",
    "pi",
    "pm",
    "prod",
    "propto",
    "psi",
    "qquad",
    "quad",
    "sigma",
    "sim",
    "sin",
    "sinh",
    "sqrt",
    "subset",
    "subseteq",
    "sum",
    "sup",
    "varepsilon",
    "varphi",
    "vdots",
    "vec",
    "vee",
    "wedge",
    "xi",
    "zeta",
];

/// The longest name in either table: a longer run of letters names no command.
const LONGEST: usize = 17;

/// The run of ASCII letters starting at `at` (bounded just past [`LONGEST`]), and whether a
/// letter follows it (then it is no command).
fn letters(b: &[u8], at: usize, end: usize) -> &[u8] {
    let end = end.min(b.len());
    let mut i = at;
    while i < end && b[i].is_ascii_alphabetic() && i - at <= LONGEST {
        i += 1;
    }
    b.get(at..i).unwrap_or_default()
}

fn known(table: &[&str], name: &[u8]) -> bool {
    !name.is_empty()
        && name.len() <= LONGEST
        && table.binary_search_by(|c| c.as_bytes().cmp(name)).is_ok()
}

/// The backslash at `at` (`b[at] == b'\\'`, with `b[at + 1]` one of `b f n r t`) begins a
/// colliding command: the letters after it are a [`COLLIDING`] name, followed by a non-letter
/// or the end. Returns the name's length.
#[inline]
pub(crate) fn collision_at(b: &[u8], at: usize, end: usize) -> Option<usize> {
    // Every name has two letters at least: `\n` before a blank, a digit or a quote (nearly
    // every escape in real text) is decided here, before any lookup.
    if !collides_by_letter(b, at)
        || !b.get(at + 2).is_some_and(u8::is_ascii_alphabetic)
        || at + 2 >= end
    {
        return None;
    }
    collision_name(b, at, end)
}

/// The escape at `at` is one JSON shares with LaTeX command names (`\b \f \n \r \t`).
fn collides_by_letter(b: &[u8], at: usize) -> bool {
    matches!(b.get(at + 1), Some(b'b' | b'f' | b'n' | b'r' | b't'))
}

/// The escape at `at` may begin a command once more text arrives: a colliding escape before a
/// letter, or before the end of what has arrived (a stream's reader cannot vouch for it).
pub(crate) fn may_begin_command(b: &[u8], at: usize) -> bool {
    collides_by_letter(b, at) && b.get(at + 2).is_none_or(u8::is_ascii_alphabetic)
}

#[cold]
fn collision_name(b: &[u8], at: usize, end: usize) -> Option<usize> {
    let name = letters(b, at + 1, end);
    known(COLLIDING, name).then_some(name.len())
}

/// The escape `\letter` written before `rest` would begin a colliding command: a writer that
/// means the control character writes `\u00XX` there instead, so that its own output reads
/// back as the same value under every option.
pub(crate) fn would_collide(letter: u8, rest: &[u8]) -> bool {
    if !rest.first().is_some_and(u8::is_ascii_alphabetic) {
        return false;
    }
    let run = rest
        .iter()
        .take(LONGEST + 1)
        .take_while(|c| c.is_ascii_alphabetic())
        .count();
    if run == 0 || run >= LONGEST {
        return false;
    }
    let mut name = [0u8; LONGEST];
    name[0] = letter;
    name[1..=run].copy_from_slice(&rest[..run]);
    known(COLLIDING, &name[..=run])
}

/// The collision at `at` is read as LaTeX whatever else its string holds (`\f`, `\b`).
pub(crate) fn fires_alone(b: &[u8], at: usize) -> bool {
    matches!(b.get(at + 1), Some(b'b' | b'f'))
}

/// The string whose text starts at `start` shows maths (see the module): read up to its first
/// unescaped `quote` byte (or `end`).
pub(crate) fn shows_maths(b: &[u8], start: usize, end: usize, quote: u8) -> bool {
    signs(b, start, end, Some(quote))
}

/// `\[…\]` at `i` holds maths (`\[x^2\]`, `\[a = b\]`), not words a markdown writer
/// escaped (`see \[the docs\]`): something other than letters, blanks and sentence marks lies
/// before its `\]` (or no `\]` follows on its line).
fn bracket_maths(b: &[u8], i: usize, end: usize) -> bool {
    let from = i + 2;
    let to = end.min(from + 200);
    let Some(close) = memchr::memmem::find(b.get(from..to).unwrap_or_default(), b"\\]") else {
        return true;
    };
    // A markdown escape inside (`\[overdraft\_ok\]`) is text: LaTeX maths writes `x_i`.
    let inner = &b[from..from + close];
    let escaped = |k: usize| {
        inner[k] == b'\\'
            && inner
                .get(k + 1)
                .is_some_and(|&e| crate::spelling::markdown_escape(e))
            || (k > 0 && inner[k - 1] == b'\\' && crate::spelling::markdown_escape(inner[k]))
    };
    (0..inner.len()).any(|k| {
        let c = inner[k];
        !(c.is_ascii_alphabetic()
            || c >= 0x80
            || escaped(k)
            || matches!(c, b' ' | b'.' | b',' | b'\'' | b'!' | b'?' | b':'))
    })
}

/// The document between `start` and `end` shows maths in some string: a command written with
/// one backslash (or two), `\(`, `\[`, or a `\f`/`\b` command (not `$`, which prices use
/// too). Then `{"symbol": "\theta", "formula": "\frac{a}{b}"}` reads `\theta` as LaTeX.
pub(crate) fn document_shows_maths(b: &[u8], start: usize, end: usize) -> bool {
    signs(b, start, end, None)
}

/// A sign of maths between `start` and `end`; with `quote`, only in the string that ends at
/// the first unescaped `quote`, and a pair of `$` counts.
fn signs(b: &[u8], start: usize, end: usize, quote: Option<u8>) -> bool {
    let end = end.min(b.len());
    let mut dollars = 0;
    let mut i = start;
    while i < end {
        match b[i] {
            c if Some(c) == quote => return false,
            b'$' if quote.is_some() => {
                dollars += 1;
                if dollars == 2 {
                    return true;
                }
            }
            b'\\' => {
                let next = b.get(i + 1).copied();
                match next {
                    Some(b'(') => return true,
                    Some(b'[') if bracket_maths(b, i, end) => return true,
                    // `\\alpha`: a command written with its backslash escaped.
                    Some(b'\\') => {
                        let name = letters(b, i + 2, end);
                        if known(SIGNS, name) || known(COLLIDING, name) {
                            return true;
                        }
                        i += 2;
                        continue;
                    }
                    Some(b'b' | b'f') if collision_at(b, i, end).is_some() => return true,
                    Some(c) if c.is_ascii_alphabetic() && known(SIGNS, letters(b, i + 1, end)) => {
                        return true
                    }
                    _ => {}
                }
                // The escaped byte is skipped (an escaped quote does not end the string).
                i += 2;
                continue;
            }
            _ => {}
        }
        i += 1;
    }
    false
}

/// Whether `raw` (a string's text as written, escapes undecoded) holds any collision: a strict
/// reader leaves such a string to the repair stage, which decides (a cheap check, made only at
/// the escapes `\b \f \n \r \t`).
pub(crate) fn any_collision(raw: &[u8]) -> bool {
    let mut i = 0;
    while let Some(offset) = memchr::memchr(b'\\', raw.get(i..).unwrap_or_default()) {
        let at = i + offset;
        if collision_at(raw, at, raw.len()).is_some() {
            return true;
        }
        i = at + 2;
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_tables_are_sorted_and_within_the_longest_name() {
        for table in [COLLIDING, SIGNS] {
            assert!(
                table.windows(2).all(|w| w[0] < w[1]),
                "sorted, no duplicates"
            );
            assert!(table.iter().all(|n| n.len() <= LONGEST));
        }
        assert!(COLLIDING
            .iter()
            .all(|n| matches!(n.as_bytes()[0], b'b' | b'f' | b'n' | b'r' | b't')));
        assert!(SIGNS
            .iter()
            .all(|n| !matches!(n.as_bytes()[0], b'b' | b'f' | b'n' | b'r' | b't' | b'u')));
    }

    fn collides(text: &str) -> bool {
        let b = text.as_bytes();
        (0..b.len()).any(|i| b[i] == b'\\' && collision_at(b, i, b.len()).is_some())
    }

    #[test]
    fn a_collision_is_a_whole_command_name_then_a_non_letter() {
        for yes in [
            r"\frac{a}{b}",
            r"\beta",
            r"\theta_1",
            r"\times 2",
            r"\to",
            r"\nabla f",
        ] {
            assert!(collides(yes), "{yes}");
        }
        for no in [
            r"Name\tScore\nAna\t91",
            r"Send\tto the team",
            r"line\nline",
            r"\fractal",
            r"\bx",
            r"C:\new",
        ] {
            assert!(!collides(no), "{no}");
        }
    }

    #[test]
    fn maths_is_a_pair_of_dollars_a_bracket_or_another_command() {
        let maths = |s: &str| shows_maths(s.as_bytes(), 0, s.len(), b'"');
        assert!(maths(r"$x$ and \theta"));
        assert!(maths(r"\theta = \alpha"));
        assert!(maths(r"\(\theta\)"));
        assert!(maths(r"\\alpha + \theta"));
        assert!(maths(r"\theta \frac{1}{2}"));
        assert!(!maths(r"costs $5 \tan"));
        assert!(!maths(r"Fruit\tan apple"));
        assert!(!maths(r#"a\" $ b" $"#), "stops at the closing quote");
        assert!(any_collision(br"$\frac{a}{b}$"));
        assert!(
            any_collision(br"Fruit\tan apple"),
            "a collision, which maths decides"
        );
        assert!(!any_collision(br"Name\tScore\nAna"));
        assert!(document_shows_maths(
            br#"{"a": "\theta", "b": "\alpha"}"#,
            0,
            30
        ));
        assert!(
            !document_shows_maths(br#"{"a": "$5 and $6"}"#, 0, 18),
            "no dollars"
        );
    }
}
