//! A column of replies in Arrow's layout parsed at once, its results written as Arrow columns
//! (what `llmjson.spark` hands Spark, one call per Arrow batch, no object per row).
//!
//! Arrow's columnar format for the types used: a string column is a validity bitmap (bit set: a
//! value; absent when no row is null), offsets (row `i` is `data[offsets[i]..offsets[i + 1]]`,
//! little-endian, 32-bit for `string` and 64-bit for `large_string`) and the UTF-8 data; a list
//! column is a validity bitmap, 32-bit offsets into its child, and the child (here a struct of
//! two string columns and two 64-bit integer columns). The results use the input's width.

use crate::process::{process, Context, Processed};
use crate::record::{Fields, Input, Pending, Record};
use crate::shape::Shape;

/// A column of replies: an Arrow `string` or `large_string` array's buffers and its slice.
pub struct ReplyColumn<'a> {
    /// The offsets buffer.
    pub offsets: &'a [u8],
    /// The data buffer.
    pub data: &'a [u8],
    /// The validity bitmap (None: no nulls).
    pub validity: Option<&'a [u8]>,
    /// The array's first row in its buffers.
    pub offset: usize,
    /// The array's rows.
    pub length: usize,
    /// 64-bit offsets (`large_string`).
    pub large: bool,
}

impl ReplyColumn<'_> {
    /// Row `row`'s bytes (None for a null), or why the buffers do not hold it.
    pub fn cell(&self, row: usize) -> Result<Option<&[u8]>, String> {
        if row >= self.length {
            return Err(format!(
                "row {row} is past the array's {} rows",
                self.length
            ));
        }
        let at = self
            .offset
            .checked_add(row)
            .ok_or("the array's offset is out of range")?;
        if let Some(validity) = self.validity {
            let byte = validity
                .get(at / 8)
                .ok_or("the validity buffer is too short")?;
            if byte & (1 << (at % 8)) == 0 {
                return Ok(None);
            }
        }
        let next = at
            .checked_add(1)
            .ok_or("the array's offset is out of range")?;
        let (start, end) = (self.offset_at(at)?, self.offset_at(next)?);
        match self.data.get(start..end) {
            Some(bytes) => Ok(Some(bytes)),
            None => Err(format!(
                "row {row}: offsets {start}..{end} are outside the data buffer ({} bytes)",
                self.data.len()
            )),
        }
    }

    fn offset_at(&self, index: usize) -> Result<usize, String> {
        let width = if self.large { 8 } else { 4 };
        let bytes = index
            .checked_mul(width)
            .and_then(|start| self.offsets.get(start..start.checked_add(width)?))
            .ok_or("the offsets buffer is too short")?;
        let value = if self.large {
            i64::from_le_bytes(bytes.try_into().map_err(|_| "an offset")?)
        } else {
            i64::from(i32::from_le_bytes(
                bytes.try_into().map_err(|_| "an offset")?,
            ))
        };
        usize::try_from(value).map_err(|_| format!("a negative offset ({value})"))
    }
}

/// How many rows are parsed at a time: the values and records of one chunk are held at once,
/// not the whole column's (a million replies would hold gigabytes).
const CHUNK_ROWS: usize = 4096;

/// Parses every row of `column` (`evidence[row]`: that row's evidence, a text or an array of
/// texts; empty: none) with `context`'s options, on `threads` threads (a Spark task passes the
/// cores it was given: one pool per call, so tasks sharing a machine do not oversubscribe it).
/// A null reply gives a null in every result column; bytes that are not UTF-8 are read as
/// `llmjson::parse_bytes` reads them, as every door does. With a `shape`, each value is also
/// written in it ([`ResultColumns::shaped`]). The rows go [`CHUNK_ROWS`] at a time, each
/// chunk's results written out (in the workers) before the next is read.
pub fn parse_column(
    column: &ReplyColumn<'_>,
    evidence: Vec<Option<serde_json::Value>>,
    context: &Context,
    threads: usize,
    shape: Option<&Shape>,
) -> Result<ResultColumns, String> {
    if !evidence.is_empty() && evidence.len() != column.length {
        return Err(format!(
            "the evidence has {} rows, the replies {}",
            evidence.len(),
            column.length
        ));
    }
    let mut evidence = evidence.into_iter();
    // No thread to be had: the work still gets done, on this one.
    let pool = (threads > 1)
        .then(|| {
            rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .ok()
        })
        .flatten();
    let fields = Fields::default();
    let render =
        |pending: Pending| RenderedRow::of(process(pending.decode(&fields), context), shape);
    let mut out = ResultWriter::new(column.length, column.large, shape.is_some());
    for first in (0..column.length).step_by(CHUNK_ROWS) {
        let rows = first..column.length.min(first + CHUNK_ROWS);
        let mut records = Vec::with_capacity(rows.len());
        let mut present = Vec::with_capacity(rows.len());
        for row in rows {
            let evidence = evidence.next().flatten();
            let Some(reply) = column.cell(row)? else {
                present.push(false);
                continue;
            };
            present.push(true);
            let input = match Input::of_bytes(reply.to_vec()) {
                Input::Reply {
                    text,
                    invalid_utf8_at,
                    schema,
                    ..
                } => Input::Reply {
                    text,
                    invalid_utf8_at,
                    schema,
                    evidence,
                },
                unreadable => unreadable,
            };
            records.push(Pending::Record(Record {
                seq: row as u64,
                id: serde_json::Value::Null,
                input,
            }));
        }
        let rendered: Vec<RenderedRow> = match &pool {
            Some(pool) => pool.install(|| {
                use rayon::prelude::*;
                records.into_par_iter().map(render).collect()
            }),
            None => records.into_iter().map(render).collect(),
        };
        out.append(&present, rendered);
    }
    out.finish()
}

/// One row's results as text, made in the worker that parsed it (which also frees its value).
struct RenderedRow {
    value: Option<String>,
    shaped: Option<String>,
    outcome: &'static str,
    repairs: Vec<llmjson::Repair>,
    diagnostics: Option<String>,
}

impl RenderedRow {
    fn of(processed: Processed, shape: Option<&Shape>) -> Self {
        let text = |write: &dyn Fn(&mut String)| {
            let mut out = String::new();
            write(&mut out);
            out
        };
        RenderedRow {
            value: processed
                .value
                .as_ref()
                .map(|v| text(&|out| v.write_json(out))),
            shaped: shape.and_then(|shape| {
                let value = processed.value.as_ref()?;
                Some(text(&|out| shape.write(value, out)))
            }),
            outcome: processed.outcome(),
            diagnostics: processed
                .diagnostics
                .as_ref()
                .map(|d| text(&|out| d.write_json(out))),
            repairs: processed.repairs,
        }
    }
}

/// The result columns: `value` (the value's JSON text), `outcome` ([`Processed::outcome`],
/// as every door names it), `repairs` (kind, path, start, end of each) and `diagnostics` (the
/// pipeline's record as JSON).
pub struct ResultColumns {
    /// The value's JSON text; null on failure.
    pub value: StringBuffers,
    /// ok, repaired, or the failure's kind.
    pub outcome: StringBuffers,
    /// Every repair.
    pub repairs: RepairBuffers,
    /// The diagnostics record.
    pub diagnostics: StringBuffers,
    /// The value written in the shape asked for ([`Shape::write`]); null where `value` is.
    pub shaped: Option<StringBuffers>,
}

/// A string column's buffers.
pub struct StringBuffers {
    /// The validity bitmap (None: no nulls).
    pub validity: Option<Vec<u8>>,
    /// The offsets, 32- or 64-bit as the input's.
    pub offsets: Vec<u8>,
    /// The UTF-8 data.
    pub data: Vec<u8>,
    /// How many rows are null.
    pub nulls: usize,
}

/// The repairs column's buffers: a list of structs (kind, path, start, end).
pub struct RepairBuffers {
    /// The list's validity bitmap (None: no nulls).
    pub validity: Option<Vec<u8>>,
    /// The list's 32-bit offsets into the struct rows.
    pub offsets: Vec<u8>,
    /// How many lists are null (rows whose reply was null).
    pub nulls: usize,
    /// The repairs' kinds (never null; 32-bit offsets).
    pub kind: StringBuffers,
    /// The repairs' JSON Pointer paths (never null; 32-bit offsets).
    pub path: StringBuffers,
    /// The repairs' first byte in the reply (64-bit).
    pub start: Vec<u8>,
    /// The repairs' end byte in the reply (64-bit).
    pub end: Vec<u8>,
}

/// The result columns being written, chunk by chunk.
struct ResultWriter {
    value: Strings,
    outcome: Strings,
    diagnostics: Strings,
    repairs: Repairs,
    shaped: Option<Strings>,
}

impl ResultWriter {
    fn new(rows: usize, large: bool, shaped: bool) -> Self {
        ResultWriter {
            value: Strings::new(rows, large),
            outcome: Strings::new(rows, large),
            diagnostics: Strings::new(rows, large),
            repairs: Repairs::new(rows),
            shaped: shaped.then(|| Strings::new(rows, large)),
        }
    }

    /// The next rows: one result per present row, in order (`present[row]` false for a null
    /// reply).
    fn append(&mut self, present: &[bool], rendered: Vec<RenderedRow>) {
        let mut rendered = rendered.into_iter();
        for &is_present in present {
            let Some(row) = is_present.then(|| rendered.next()).flatten() else {
                self.value.push_null();
                self.outcome.push_null();
                self.diagnostics.push_null();
                self.repairs.push(None);
                if let Some(shaped) = self.shaped.as_mut() {
                    shaped.push_null();
                }
                continue;
            };
            self.value.push_optional(row.value.as_deref());
            self.outcome.push(row.outcome);
            self.diagnostics.push_optional(row.diagnostics.as_deref());
            self.repairs.push(Some(&row.repairs));
            if let Some(shaped) = self.shaped.as_mut() {
                shaped.push_optional(row.shaped.as_deref());
            }
        }
    }

    fn finish(self) -> Result<ResultColumns, String> {
        Ok(ResultColumns {
            value: self.value.finish("value")?,
            outcome: self.outcome.finish("outcome")?,
            repairs: self.repairs.finish()?,
            diagnostics: self.diagnostics.finish("diagnostics")?,
            shaped: self
                .shaped
                .map(|column| column.finish("shaped value"))
                .transpose()?,
        })
    }
}

/// A string column being written.
struct Strings {
    offsets: Vec<u8>,
    data: String,
    validity: Validity,
    large: bool,
}

impl Strings {
    fn new(rows: usize, large: bool) -> Self {
        let mut strings = Strings {
            offsets: Vec::with_capacity((rows + 1) * if large { 8 } else { 4 }),
            data: String::new(),
            validity: Validity::new(rows),
            large,
        };
        strings.push_offset();
        strings
    }

    fn push(&mut self, text: &str) {
        self.push_with(|out| out.push_str(text));
    }

    fn push_optional(&mut self, text: Option<&str>) {
        match text {
            Some(text) => self.push(text),
            None => self.push_null(),
        }
    }

    fn push_with(&mut self, write: impl FnOnce(&mut String)) {
        write(&mut self.data);
        self.validity.push(true);
        self.push_offset();
    }

    fn push_null(&mut self) {
        self.validity.push(false);
        self.push_offset();
    }

    fn push_offset(&mut self) {
        let end = self.data.len();
        if self.large {
            self.offsets.extend_from_slice(&(end as i64).to_le_bytes());
        } else {
            // Past i32::MAX the column is refused by `finish`.
            let end = i32::try_from(end).unwrap_or(i32::MAX);
            self.offsets.extend_from_slice(&end.to_le_bytes());
        }
    }

    fn finish(self, name: &str) -> Result<StringBuffers, String> {
        if !self.large && i32::try_from(self.data.len()).is_err() {
            return Err(format!(
                "the {name} column of this Arrow batch holds over 2 GiB: use smaller batches \
                 (spark.sql.execution.arrow.maxRecordsPerBatch) or large strings"
            ));
        }
        let (validity, nulls) = self.validity.finish();
        Ok(StringBuffers {
            validity,
            offsets: self.offsets,
            data: self.data.into_bytes(),
            nulls,
        })
    }
}

/// A validity bitmap being written.
struct Validity {
    bits: Vec<u8>,
    len: usize,
    nulls: usize,
}

impl Validity {
    fn new(rows: usize) -> Self {
        Validity {
            bits: Vec::with_capacity(rows.div_ceil(8)),
            len: 0,
            nulls: 0,
        }
    }

    fn push(&mut self, valid: bool) {
        if self.len % 8 == 0 {
            self.bits.push(0);
        }
        if valid {
            if let Some(last) = self.bits.last_mut() {
                *last |= 1 << (self.len % 8);
            }
        } else {
            self.nulls += 1;
        }
        self.len += 1;
    }

    /// The bitmap (None when no row is null, as Arrow allows) and the null count.
    fn finish(self) -> (Option<Vec<u8>>, usize) {
        ((self.nulls > 0).then_some(self.bits), self.nulls)
    }
}

/// The repairs column being written.
struct Repairs {
    offsets: Vec<u8>,
    validity: Validity,
    kind: Strings,
    path: Strings,
    start: Vec<u8>,
    end: Vec<u8>,
    count: usize,
}

impl Repairs {
    fn new(rows: usize) -> Self {
        Repairs {
            offsets: 0i32.to_le_bytes().to_vec(),
            validity: Validity::new(rows),
            kind: Strings::new(0, false),
            path: Strings::new(0, false),
            start: Vec::new(),
            end: Vec::new(),
            count: 0,
        }
    }

    fn push(&mut self, repairs: Option<&[llmjson::Repair]>) {
        for repair in repairs.unwrap_or_default() {
            self.kind.push(repair.kind.as_str());
            self.path.push(&repair.path);
            self.start
                .extend_from_slice(&(repair.span.start as i64).to_le_bytes());
            self.end
                .extend_from_slice(&(repair.span.end as i64).to_le_bytes());
            self.count += 1;
        }
        self.validity.push(repairs.is_some());
        let end = i32::try_from(self.count).unwrap_or(i32::MAX);
        self.offsets.extend_from_slice(&end.to_le_bytes());
    }

    fn finish(self) -> Result<RepairBuffers, String> {
        if i32::try_from(self.count).is_err() {
            return Err(
                "this Arrow batch's repairs overflow a list column: use smaller batches"
                    .to_string(),
            );
        }
        let (validity, nulls) = self.validity.finish();
        Ok(RepairBuffers {
            validity,
            offsets: self.offsets,
            nulls,
            kind: self.kind.finish("repair kind")?,
            path: self.path.finish("repair path")?,
            start: self.start,
            end: self.end,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use llmjson::Options;

    fn offsets32(offsets: &[i32]) -> Vec<u8> {
        offsets.iter().flat_map(|o| o.to_le_bytes()).collect()
    }

    fn strings(buffers: &StringBuffers, large: bool) -> Vec<Option<String>> {
        let rows = buffers.offsets.len() / if large { 8 } else { 4 } - 1;
        let column = ReplyColumn {
            offsets: &buffers.offsets,
            data: &buffers.data,
            validity: buffers.validity.as_deref(),
            offset: 0,
            length: rows,
            large,
        };
        (0..rows)
            .map(|r| {
                let cell = column.cell(r).expect("the written column reads back");
                cell.map(|b| String::from_utf8(b.to_vec()).expect("UTF-8"))
            })
            .collect()
    }

    #[test]
    fn a_string_column_is_read_row_by_row_with_its_nulls_and_slice() {
        // Rows "ab", null, "", "c": offsets 0,2,2,2,3; validity 0b1101.
        let offsets = offsets32(&[0, 2, 2, 2, 3]);
        let column = ReplyColumn {
            offsets: &offsets,
            data: b"abc",
            validity: Some(&[0b1101]),
            offset: 0,
            length: 4,
            large: false,
        };
        let rows: Vec<_> = (0..4).map(|r| column.cell(r).unwrap()).collect();
        assert_eq!(
            rows,
            [Some(&b"ab"[..]), None, Some(&b""[..]), Some(&b"c"[..])]
        );
        let sliced = ReplyColumn {
            offset: 3,
            length: 1,
            ..column
        };
        assert_eq!(sliced.cell(0).unwrap(), Some(&b"c"[..]));
        assert!(sliced.cell(1).is_err(), "past the offsets");
    }

    #[test]
    fn hostile_buffers_are_errors_not_panics() {
        let wide: Vec<u8> = [0i64, 99].iter().flat_map(|o| o.to_le_bytes()).collect();
        let column = ReplyColumn {
            offsets: &wide,
            data: b"x",
            validity: Some(&[]),
            offset: 0,
            length: 1,
            large: true,
        };
        assert!(column.cell(0).is_err(), "validity too short");
        let column = ReplyColumn {
            validity: None,
            ..column
        };
        assert!(column.cell(0).unwrap_err().contains("outside"));
        let negative = offsets32(&[0, -1]);
        let column = ReplyColumn {
            offsets: &negative,
            data: b"",
            validity: None,
            offset: 0,
            length: 1,
            large: false,
        };
        assert!(column.cell(0).unwrap_err().contains("negative"));
        for offset in [usize::MAX, usize::MAX / 4, usize::MAX / 8 + 1] {
            let far = ReplyColumn { offset, ..column };
            assert!(far.cell(0).is_err());
        }
        let context = Context::new(Options::default());
        assert!(parse_column(&column, Vec::new(), &context, 1, None).is_err());
    }

    #[test]
    fn a_column_is_parsed_to_its_result_columns_nulls_and_all() {
        let replies = ["{'a': 1,}", "", "[1, 2]", "\u{fffd}"];
        let mut data = Vec::new();
        let mut offsets = vec![0i64];
        for (i, reply) in replies.iter().enumerate() {
            if i == 3 {
                data.push(0xff); // not UTF-8
            } else {
                data.extend_from_slice(reply.as_bytes());
            }
            offsets.push(data.len() as i64);
        }
        // Row 4: a null reply.
        offsets.push(data.len() as i64);
        let offsets: Vec<u8> = offsets.iter().flat_map(|o| o.to_le_bytes()).collect();
        let column = ReplyColumn {
            offsets: &offsets,
            data: &data,
            validity: Some(&[0b0_1111]),
            offset: 0,
            length: 5,
            large: true,
        };
        let shape = Shape::parse(r#"{"list": "integer"}"#).unwrap();
        for threads in [1, 2] {
            let context = Context::new(Options::default());
            let out = parse_column(&column, Vec::new(), &context, threads, Some(&shape)).unwrap();
            // The value in the shape asked for: an object where a list goes is null.
            assert_eq!(
                strings(out.shaped.as_ref().unwrap(), true),
                [Some("null".into()), None, Some("[1,2]".into()), None, None]
            );
            assert_eq!(
                strings(&out.value, true),
                [
                    Some("{\"a\":1}".into()),
                    None,
                    Some("[1,2]".into()),
                    None,
                    None
                ]
            );
            let outcomes = strings(&out.outcome, true);
            let outcomes: Vec<_> = outcomes.iter().map(Option::as_deref).collect();
            assert_eq!(
                outcomes,
                // The outcomes every door gives these replies: an empty reply is `empty`, a
                // lone byte that is not UTF-8 is not text.
                [
                    Some("repaired"),
                    Some("empty"),
                    Some("ok"),
                    Some("binary"),
                    None
                ]
            );
            let diagnostics = strings(&out.diagnostics, true);
            assert!(diagnostics[0].as_deref().unwrap().contains("\"repaired\""));
            assert!(diagnostics[3].as_deref().unwrap().contains("\"binary\""));
            assert_eq!(diagnostics[4], None);
            // Row 0's repairs (at least the quotes and the trailing comma), the others none.
            let list = offsets32(&[0]);
            assert_eq!(&out.repairs.offsets[..4], &list[..]);
            let ends: Vec<i32> = out
                .repairs
                .offsets
                .chunks(4)
                .map(|c| i32::from_le_bytes(c.try_into().unwrap()))
                .collect();
            assert!(
                ends[1] >= 2 && ends[1..].iter().all(|&e| e == ends[1]),
                "{ends:?}"
            );
            assert_eq!(out.repairs.nulls, 1);
            let kinds = strings(&out.repairs.kind, false);
            assert!(kinds.iter().all(Option::is_some));
            assert_eq!(out.repairs.start.len(), 8 * ends[1] as usize);
            assert_eq!(out.repairs.end.len(), out.repairs.start.len());
        }
    }

    #[test]
    fn rows_past_one_chunk_keep_their_order_nulls_and_evidence() {
        // Three chunks and a bit: every seventh row null, every row its own number.
        let rows = 2 * CHUNK_ROWS + CHUNK_ROWS / 2 + 3;
        let mut data = String::new();
        let mut offsets = vec![0i32];
        let mut validity = vec![0u8; rows.div_ceil(8)];
        let mut evidence = Vec::new();
        for row in 0..rows {
            if row % 7 != 3 {
                data.push_str(&format!("{{n: {},}}", 10_000 + row));
                validity[row / 8] |= 1 << (row % 8);
            }
            offsets.push(data.len() as i32);
            // Odd rows' evidence holds another number: those rows are `grounding`.
            let said = 10_000 + if row % 2 == 0 { row } else { row + 1 };
            evidence.push(Some(serde_json::json!(format!("n was {said}"))));
        }
        let offsets = offsets32(&offsets);
        let column = ReplyColumn {
            offsets: &offsets,
            data: data.as_bytes(),
            validity: Some(&validity),
            offset: 0,
            length: rows,
            large: false,
        };
        let context = Context::new(Options::default());
        let out = parse_column(&column, evidence, &context, 2, None).unwrap();
        let values = strings(&out.value, false);
        let outcomes = strings(&out.outcome, false);
        for row in 0..rows {
            let (value, outcome) = (values[row].as_deref(), outcomes[row].as_deref());
            if row % 7 == 3 {
                assert_eq!((value, outcome), (None, None), "row {row}");
            } else if row % 2 == 0 {
                let wanted = format!("{{\"n\":{}}}", 10_000 + row);
                assert_eq!(value, Some(wanted.as_str()), "row {row}");
                assert_eq!(outcome, Some("repaired"), "row {row}");
            } else {
                assert_eq!((value, outcome), (None, Some("grounding")), "row {row}");
            }
        }
        assert_eq!(out.repairs.nulls, (0..rows).filter(|r| r % 7 == 3).count());
    }

    #[test]
    fn a_rows_evidence_grounds_or_blocks_it() {
        let replies = ["{\"revenue\": 4817}", "{\"revenue\": 9999}"];
        let data = replies.concat();
        let offsets = offsets32(&[0, replies[0].len() as i32, data.len() as i32]);
        let column = ReplyColumn {
            offsets: &offsets,
            data: data.as_bytes(),
            validity: None,
            offset: 0,
            length: 2,
            large: false,
        };
        let evidence = vec![Some(serde_json::json!("Revenue was 4817 units.")); 2];
        let context = Context::new(Options::default());
        let out = parse_column(&column, evidence, &context, 1, None).unwrap();
        let outcomes = strings(&out.outcome, false);
        assert_eq!(
            outcomes,
            [Some("ok".to_string()), Some("grounding".to_string())]
        );
        assert!(parse_column(&column, vec![None], &context, 1, None).is_err());
    }

    #[test]
    fn a_validity_bitmap_is_omitted_when_nothing_is_null() {
        let mut v = Validity::new(9);
        for i in 0..9 {
            v.push(i != 3);
        }
        assert_eq!(v.finish(), (Some(vec![0b1111_0111, 0b1]), 1));
        let mut all = Validity::new(2);
        all.push(true);
        all.push(true);
        assert_eq!(all.finish(), (None, 0));
    }
}
