//! `llmjson extract`: print the located JSON text exactly as it appears in the reply (its own
//! bytes, even where they are not UTF-8).

use super::{note_invalid_utf8, read_recorded, write_diagnostics};
use crate::args::ExtractArgs;
use crate::Failure;
use std::io::Write;
use std::ops::Range;

pub fn run(args: &ExtractArgs) -> Result<(), Failure> {
    let options = args.read.options();
    let bytes = read_recorded(args.file.as_deref(), &options, args.diagnostics.as_deref())?;
    let decoded = Decoded::of(&bytes);
    let mut out = std::io::stdout().lock();
    if args.all {
        // JSON Lines: one value per line. A value written over several lines is printed
        // compact (its own text when that is valid JSON, otherwise as repaired).
        let all = llmjson::parse_all_bytes(&bytes, &options)?;
        if let Some(first) = all.first() {
            note_invalid_utf8(&first.repairs, false);
        }
        for parsed in all {
            let located = decoded.original(&bytes, parsed.span.clone());
            if !located.contains(&b'\n') && !located.contains(&b'\r') {
                out.write_all(located)?;
            } else {
                let value = std::str::from_utf8(located)
                    .ok()
                    .and_then(|text| text.parse::<llmjson::Value>().ok())
                    .unwrap_or(parsed.value);
                out.write_all(value.to_json().as_bytes())?;
            }
            out.write_all(b"\n")?;
        }
    } else {
        let start = std::time::Instant::now();
        let result = llmjson::parse_decoded(&decoded.text, decoded.invalid_at, &options);
        let record = llmjson::Diagnostics::of_parse(&result, &options, start.elapsed());
        write_diagnostics(args.diagnostics.as_deref(), &record)?;
        let parsed = result?;
        note_invalid_utf8(&parsed.repairs, false);
        out.write_all(decoded.original(&bytes, parsed.span))?;
        out.write_all(b"\n")?;
    }
    out.flush()?;
    Ok(())
}

/// A reply's bytes as text (bad bytes as U+FFFD, as `llmjson::parse_bytes` reads them), with
/// what maps a range of the text back to the bytes it came from.
struct Decoded {
    text: String,
    /// Where the first bad byte was (`None`: the bytes were UTF-8).
    invalid_at: Option<usize>,
    /// For each replacement character: its offset in the text, the bytes it replaced, and how
    /// far the bytes after it are from the text (the sum of every shift up to it).
    replaced: Vec<(usize, Range<usize>, isize)>,
}

impl Decoded {
    fn of(bytes: &[u8]) -> Decoded {
        let mut text = String::with_capacity(bytes.len());
        let mut replaced = Vec::new();
        let mut at = 0;
        for chunk in bytes.utf8_chunks() {
            text.push_str(chunk.valid());
            at += chunk.valid().len();
            let bad = chunk.invalid();
            if !bad.is_empty() {
                let before = replaced.last().map_or(0, |(_, _, shift)| *shift);
                let shift = before + bad.len() as isize - 3;
                replaced.push((text.len(), at..at + bad.len(), shift));
                text.push('\u{fffd}');
                at += bad.len();
            }
        }
        let invalid_at = replaced.first().map(|(_, bytes, _)| bytes.start);
        Decoded {
            text,
            invalid_at,
            replaced,
        }
    }

    /// The bytes the text's `range` came from.
    fn original<'b>(&self, bytes: &'b [u8], range: Range<usize>) -> &'b [u8] {
        let start = self.byte_at(range.start);
        let end = self.byte_at(range.end).max(start);
        bytes.get(start..end).unwrap_or_default()
    }

    /// The byte offset of the text's offset `at` (a replacement character's start maps to its
    /// bytes' start, its end to their end): a binary search, so `--all` over many values and
    /// many bad bytes stays linear.
    fn byte_at(&self, at: usize) -> usize {
        // The replacements that start before `at`.
        let before = self.replaced.partition_point(|(offset, _, _)| *offset < at);
        match before.checked_sub(1).map(|k| &self.replaced[k]) {
            None => at,
            Some((offset, bad, _)) if at < offset + 3 => bad.start,
            Some((_, _, shift)) => at.saturating_add_signed(*shift),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Decoded;

    #[test]
    fn a_range_of_the_decoded_text_maps_back_to_its_own_bytes() {
        let bytes = b"x \xff{\"name\": \"Jos\xe9\", \"n\": \"\xf0\x9f\"} \xc3";
        let d = Decoded::of(bytes);
        assert_eq!(d.invalid_at, Some(2));
        let start = d.text.find('{').unwrap();
        let end = d.text.rfind('}').unwrap() + 1;
        assert_eq!(
            d.original(bytes, start..end),
            b"{\"name\": \"Jos\xe9\", \"n\": \"\xf0\x9f\"}"
        );
        let valid = Decoded::of(b"[1]");
        assert_eq!(valid.invalid_at, None);
        assert_eq!(valid.original(b"[1]", 0..3), b"[1]");
    }
}
