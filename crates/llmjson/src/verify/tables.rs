//! Tables written into a text: CSV rows (`A,41.8,7.5`), semicolon rows with decimal commas as
//! pt-BR, de and fr spreadsheets export them (`B;1,047;3,5`), tab-separated rows and markdown
//! tables. Each cell is read on its own (a delimiter is never part of a number), with the
//! decimal mark its delimiter implies, and under its row's and column's subject (`A` under a
//! `Variant` header is variant A; a `2023` column is the year 2023).
//!
//! A table is two or more consecutive lines of the same shape: the same delimiter, as many
//! times. A comma or semicolon counts only glued (`A,41.8`): prose writes `, ` and `; `.

use super::extract::{self, Found, Rule};
use super::subject::{self, Subject};
use super::words::{self, Kind, Plural};
use super::Locale;

/// Scans `text` for numbers (tables cell by cell, the prose between as prose), then reads
/// the ambiguous ones by the convention the text's other numbers show.
pub(crate) fn scan_text(
    text: &str,
    locale: Locale,
    rule: Option<Rule>,
    base: Subject,
    out: &mut Vec<Found>,
) {
    let first = out.len();
    if !text.as_bytes().contains(&b'\n') {
        extract::scan(text, locale, rule, base, out);
    } else {
        let lines = shapes(text);
        let mut prose_from = 0;
        let mut k = 0;
        while k < lines.len() {
            let Some(shape) = lines[k].shape else {
                k += 1;
                continue;
            };
            if shape.0 == HEADER {
                k += 1;
                continue;
            }
            let mut e = k + 1;
            while e < lines.len() && lines[e].shape == Some(shape) {
                e += 1;
            }
            // A comma table's header may hold blanks (`Strength (MPa)`).
            let first = if k > 0 && shape.0 == b',' && lines[k - 1].shape == Some((HEADER, shape.1))
            {
                k - 1
            } else {
                k
            };
            if e - first >= 2 && lines[first].start >= prose_from {
                scan_part(
                    text,
                    prose_from,
                    lines[first].start,
                    locale,
                    rule,
                    base,
                    out,
                );
                table(text, &lines[first..e], shape.0, locale, rule, base, out);
                prose_from = lines[e - 1].end;
            }
            k = e;
        }
        scan_part(text, prose_from, text.len(), locale, rule, base, out);
    }
    if locale == Locale::Auto {
        extract::settle(&mut out[first..]);
    }
}

/// Scans a long `text` in parts of about 64 KB, each ending where a part of the document does
/// (before a heading, at a blank line), and hands each number found, at `text`'s offsets, to
/// `each`: the numbers held stay few at a time, so memory does not grow with the text, and no
/// heading is cut off from its numbers. `found` is the caller's reused buffer.
pub(crate) fn scan_parts(
    text: &str,
    locale: Locale,
    rule: Option<Rule>,
    base: Subject,
    found: &mut Vec<Found>,
    mut each: impl FnMut(&Found),
) {
    let mut from = 0;
    while from < text.len() {
        let to = part_end(text, from);
        found.clear();
        scan_text(&text[from..to], locale, rule, base, found);
        for f in found.iter_mut() {
            f.span = f.span.start + from..f.span.end + from;
            each(f);
        }
        from = to;
    }
}

/// Where the part of `text` that starts at `from` ends: past 64 KB, before the next heading
/// within 16 KB, else after the next blank line within 16 KB, else after the next line break
/// (each byte is looked at a bounded number of times).
fn part_end(text: &str, from: usize) -> usize {
    const PART: usize = 64 << 10;
    const LOOK: usize = 16 << 10;
    let b = text.as_bytes();
    let at = from + PART;
    if at >= b.len() {
        return b.len();
    }
    let window = &b[at..b.len().min(at + LOOK)];
    if let Some(k) = memchr::memmem::find(window, b"\n#") {
        return at + k + 1;
    }
    if let Some(k) = memchr::memmem::find(window, b"\n\n") {
        return at + k + 2;
    }
    match memchr::memchr(b'\n', &b[at..]) {
        Some(k) => at + k + 1,
        None => b.len(),
    }
}

/// Scans `text[from..to]` and shifts what it found to `text`'s offsets.
fn scan_part(
    text: &str,
    from: usize,
    to: usize,
    locale: Locale,
    rule: Option<Rule>,
    base: Subject,
    out: &mut Vec<Found>,
) {
    if from >= to {
        return;
    }
    let first = out.len();
    extract::scan(&text[from..to], locale, rule, base, out);
    for f in &mut out[first..] {
        f.span = f.span.start + from..f.span.end + from;
    }
}

/// The shape of a comma line with blanks: a table's header, never one of its rows.
const HEADER: u8 = 0;

#[derive(Debug, Clone, Copy)]
struct Line {
    start: usize,
    end: usize,
    /// The delimiter and how many times it occurs, when the line can be a table row.
    shape: Option<(u8, u16)>,
}

/// Every line of `text` with its shape. Each line's delimiters are counted in passes the
/// compiler vectorises: prose lines cost little.
fn shapes(text: &str) -> Vec<Line> {
    let b = text.as_bytes();
    let mut lines = Vec::new();
    let mut start = 0;
    while start < b.len() {
        let end = memchr::memchr(b'\n', &b[start..]).map_or(b.len(), |n| start + n + 1);
        let line = &b[start..end];
        let clip = |n: usize| n.min(usize::from(u16::MAX)) as u16;
        let pipes = memchr::memchr_iter(b'|', line).count();
        let tabs =
            memchr::memchr(b'\t', line).map_or(0, |_| memchr::memchr_iter(b'\t', line).count());
        let shape = if pipes >= 2 {
            Some((b'|', clip(pipes)))
        } else if tabs >= 1 {
            Some((b'\t', clip(tabs)))
        } else {
            // Prose writes `, ` and `; `: a line that does is no row.
            let (mut semis, mut commas) = (0usize, 0usize);
            let mut spaced = false;
            for at in memchr::memchr2_iter(b',', b';', line) {
                if line.get(at + 1) == Some(&b' ') {
                    spaced = true;
                    break;
                }
                if line[at] == b';' {
                    semis += 1;
                } else {
                    commas += 1;
                }
            }
            // A comma row holds no blank (`A,41.8,7.5`): prose with decimal commas
            // (`41,8 MPa e 12,4 %`) does. A line with blanks may still be its header.
            let blank = memchr::memchr(b' ', line).is_some();
            match (spaced, semis, commas) {
                (true, ..) | (false, 0, 0) => None,
                (false, 0, commas) if blank => Some((HEADER, clip(commas))),
                (false, 0, commas) => Some((b',', clip(commas))),
                (false, semis, _) => Some((b';', clip(semis))),
            }
        };
        lines.push(Line { start, end, shape });
        start = end;
    }
    lines
}

/// Reads a table's lines cell by cell.
fn table(
    text: &str,
    lines: &[Line],
    delimiter: u8,
    locale: Locale,
    rule: Option<Rule>,
    base: Subject,
    out: &mut Vec<Found>,
) {
    // A semicolon table comes from a decimal-comma spreadsheet; a comma table's numbers hold
    // no comma.
    let cell_locale = match (locale, delimiter) {
        (Locale::Auto, b';') => Locale::Pt,
        (Locale::Auto, b',') => Locale::En,
        (l, _) => l,
    };
    let mut header: Option<Header> = None;
    for (n, line) in lines.iter().enumerate() {
        let row = cells(text, line, delimiter);
        if row.iter().all(|&(a, b)| {
            text[a..b]
                .trim()
                .chars()
                .all(|c| matches!(c, '-' | ':' | ' '))
        }) {
            // `|---|:--:|`: a markdown table's rule.
            continue;
        }
        if n == 0 && !row.iter().any(|&(a, b)| data(&text[a..b])) {
            header = Some(Header::new(row.iter().map(|&(a, b)| &text[a..b])));
        }
        let none = Header::default();
        let h = header.as_ref().unwrap_or(&none);
        let row_subject = h.row(row.iter().map(|&(a, b)| &text[a..b]));
        for (c, &(a, b)) in row.iter().enumerate() {
            let subject = h.cell(row_subject, c).over(base);
            scan_part(text, a, b, cell_locale, rule, subject, out);
        }
    }
}

/// The cells of a line: byte ranges between delimiters (a markdown row's outer pipes
/// dropped).
fn cells(text: &str, line: &Line, delimiter: u8) -> Vec<(usize, usize)> {
    let b = text.as_bytes();
    let mut end = line.end;
    while end > line.start && matches!(b[end - 1], b'\n' | b'\r') {
        end -= 1;
    }
    let mut out = Vec::new();
    let mut from = line.start;
    for (i, &c) in b.iter().enumerate().take(end).skip(line.start) {
        if c == delimiter {
            out.push((from, i));
            from = i + 1;
        }
    }
    out.push((from, end));
    if delimiter == b'|' {
        out.retain(|&(a, b)| !(text[a..b].trim().is_empty() && (a == line.start || b == end)));
    }
    out
}

/// A cell that holds a measurement (a number that is not a year): the row is data, not a
/// header.
fn data(cell: &str) -> bool {
    let t = cell.trim();
    t.starts_with(|c: char| c.is_ascii_digit() || matches!(c, '-' | '−' | '+')) && year(t).is_none()
}

fn year(t: &str) -> Option<super::subject::Id> {
    let y: u16 = t.parse().ok().filter(|_| t.len() == 4)?;
    (1900..=2100).contains(&y).then(|| subject::year(y))
}

/// `2023`, `Variant B`, `amostra A`: the subject a cell or key names, if it names one.
pub(crate) fn mention_in(text: &str) -> Option<(Kind, super::subject::Id)> {
    let t = text.trim();
    if let Some(id) = year(t) {
        return Some((Kind::Year, id));
    }
    let mut tokens = t.split_whitespace();
    let (Some(word), Some(code), None) = (tokens.next(), tokens.next(), tokens.next()) else {
        return None;
    };
    let (kind, Plural::One) = words::lookup(word)?.kind? else {
        return None;
    };
    let id = if kind == Kind::Year {
        year(code)?
    } else {
        subject::pack(code)?
    };
    Some((kind, id))
}

/// What a table's header says: the kind its first column names (`Variant`, `Year`), and the
/// subject each column's header names.
#[derive(Debug, Default)]
pub(crate) struct Header {
    row_kind: Option<Kind>,
    columns: Vec<Subject>,
}

impl Header {
    pub fn new<'a>(cells: impl Iterator<Item = &'a str>) -> Header {
        let mut h = Header::default();
        for (c, cell) in cells.enumerate() {
            if c == 0 {
                let first = cell.split_whitespace().next().unwrap_or_default();
                h.row_kind = words::lookup(first).and_then(|w| w.kind).map(|(k, _)| k);
            }
            let mut s = Subject::default();
            if let Some((kind, id)) = mention_in(cell) {
                s.set(kind, id);
            }
            h.columns.push(s);
        }
        h
    }

    /// The subject a row's first cell names: a code under the header's kind (`A` under
    /// `Variant`), or a subject named in full (`Variant A`, `2023`).
    pub fn row<'a>(&self, mut cells: impl Iterator<Item = &'a str>) -> Subject {
        let mut s = Subject::default();
        let Some(first) = cells.next().map(str::trim) else {
            return s;
        };
        if let Some((kind, id)) = mention_in(first) {
            s.set(kind, id);
        } else if let Some(kind) = self.row_kind {
            let id = if kind == Kind::Year {
                year(first)
            } else {
                subject::pack(first)
            };
            if let Some(id) = id {
                s.set(kind, id);
            }
        }
        s
    }

    /// The subject of the cell in column `c` of a row bound to `row`.
    pub fn cell(&self, row: Subject, c: usize) -> Subject {
        row.over(self.columns.get(c).copied().unwrap_or_default())
    }
}
