//! `--resume`: the results file and the store brought to one account before any new work.
//!
//! A run writes a chunk's lines only once the store has committed the chunk, in input order,
//! and flushes them before the next chunk. So whatever stopped it — Ctrl-C, a full disk,
//! `kill -9`, a lost machine — its results file holds the run's first records, in order, whole,
//! then perhaps one torn line; the store holds those records and perhaps some after them
//! (committed, not yet written). Resuming reads the file once and keeps the longest stretch of
//! whole result lines numbered 0, 1, 2, … whose records the store holds (after a crash, all of
//! it), and cuts what follows. The run goes on from there: a record the store holds is parsed
//! again and given back the request id and latency the store kept — the parse is otherwise
//! deterministic, so its line is, byte for byte, the one the run wrote or would have written —
//! and it goes to the file only; any other record is parsed, stored and written as usual.
//! Without a store the file is the record of what was done: the same cut, and the run goes on
//! after what it kept.

use crate::store::{self, Stamp, Store, Stored};
use crate::Failure;
use std::fs::File;
use std::io::{self, BufRead, BufReader};
use std::path::Path;

/// What becomes of one input record in this run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Fate {
    /// Done before: not read again.
    Skip,
    /// Stored before, missing from the results file: parsed again, written to the file only.
    Rewrite,
    /// Parsed, stored and written.
    New,
}

/// How a run treats each record, from what the results file and the store hold.
#[derive(Debug, Default)]
pub struct Plan {
    /// Records `0..kept` are whole in the results file.
    kept: u64,
    /// What the store holds.
    stored: Stored,
    /// Whether a results file is being made whole (the output is a regular file).
    rewrites: bool,
    /// The stored records past `kept`, in order: what their lines are rebuilt with.
    stamps: Vec<Stamp>,
    /// Without a store: the last kept line's record and id, checked against the input's.
    last_kept: Option<(u64, serde_json::Value)>,
    /// The length the results file is cut back to before anything is written.
    pub keep_bytes: Option<u64>,
    /// What was found and done, in words, for standard error.
    pub notes: Vec<String>,
}

impl Plan {
    /// A run that resumes nothing: every record is new.
    pub fn fresh() -> Self {
        Plan::default()
    }

    pub fn fate(&self, seq: u64) -> Fate {
        if seq < self.kept {
            Fate::Skip
        } else if self.stored.contains(seq) {
            if self.rewrites {
                Fate::Rewrite
            } else {
                Fate::Skip
            }
        } else {
            Fate::New
        }
    }

    /// Records the results file already held (not read again).
    pub fn kept(&self) -> u64 {
        self.kept
    }

    /// Records stored before and not written again (the output is not a file).
    pub fn skipped_stored(&self) -> u64 {
        if self.rewrites {
            0
        } else {
            self.stored.len()
        }
    }

    /// What the store kept of a stored record.
    pub fn stamp(&self, seq: u64) -> Option<&Stamp> {
        self.stamps
            .binary_search_by_key(&seq, |s| s.seq)
            .ok()
            .map(|i| &self.stamps[i])
    }

    /// Gives a stored record parsed again what the store kept of it, so that its line is the
    /// one the run wrote.
    pub fn restamp(&self, processed: &mut llmjson_batch::Processed) {
        let Some(stamp) = self.stamp(processed.seq) else {
            return;
        };
        if let (Some(diagnostics), Some(request_id)) =
            (processed.diagnostics.as_mut(), &stamp.request_id)
        {
            diagnostics.request_id.clone_from(request_id);
            diagnostics.latency_ms = stamp.latency_ms;
        }
    }

    /// A stored record parsed again must be the record the store holds: same id, same outcome.
    /// Anything else means the inputs changed since the run stored it.
    pub fn check_rewritten(&self, processed: &llmjson_batch::Processed) -> Result<(), Failure> {
        let Some(stamp) = self.stamp(processed.seq) else {
            return Ok(());
        };
        let id = store::record_id(&processed.id);
        if same_text(&id, &stamp.record_id) && processed.outcome() == stamp.outcome {
            return Ok(());
        }
        Err(Failure::Usage(format!(
            "--resume: the input's record {} (id {id}, {}) is not the one the run stored \
             (id {}, {}): the inputs changed since the run; nothing more was written",
            processed.seq,
            processed.outcome(),
            stamp.record_id,
            stamp.outcome
        )))
    }

    /// Without a store, the input's record at the last kept line must be that line's record.
    pub fn check_skipped(
        &self,
        seq: u64,
        id: impl FnOnce() -> serde_json::Value,
    ) -> Result<(), Failure> {
        match &self.last_kept {
            Some((kept_seq, kept_id)) if *kept_seq == seq => {
                let input_id = id();
                if &input_id == kept_id {
                    Ok(())
                } else {
                    Err(Failure::Usage(format!(
                        "--resume: the results file's last record ({seq}, id {kept_id}) is not \
                         the input's record {seq} (id {input_id}): resume with the inputs of the \
                         run that wrote it, or run without --resume"
                    )))
                }
            }
            _ => Ok(()),
        }
    }

    /// Whether the reader must look at skipped record `seq` (to check its id).
    pub fn checks(&self, seq: u64) -> bool {
        self.last_kept.as_ref().is_some_and(|(s, _)| *s == seq)
    }
}

/// PostgreSQL text cannot hold NUL: a stored text has U+FFFD where the record had NUL.
fn same_text(record: &str, stored: &str) -> bool {
    record == stored || record.replace('\0', "\u{fffd}") == stored
}

/// The plan of a resumed run writing to `out`, with the store's run `run` (or no store).
/// `longest_line` bounds what is read of one line of the results file (a longer one is not a
/// result this run wrote: the file is cut there, and what follows is done again).
pub fn plan(
    out: Option<&Path>,
    store: Option<(&mut dyn Store, i64)>,
    longest_line: usize,
) -> Result<Plan, Failure> {
    let usage = |e: store::StoreError| Failure::Usage(e.0);
    let results_file = out.filter(|p| *p != Path::new("-") && is_file_or_missing(p));
    let Some((store, run)) = store else {
        let Some(path) = results_file else {
            return Err(Failure::Usage(
                "--resume without --db needs --out FILE, a regular file: the results file is \
                 the record of what the run did"
                    .into(),
            ));
        };
        let scan = scan(path, longest_line, |_| true)?;
        let mut plan = Plan {
            kept: scan.held,
            keep_bytes: Some(scan.keep_bytes),
            notes: vec![describe(path, &scan, "")],
            ..Plan::default()
        };
        if let (Some(id), Some(last)) = (scan.last_id, scan.held.checked_sub(1)) {
            plan.last_kept = Some((last, id));
        }
        return Ok(plan);
    };
    let stored = store.stored(run).map_err(usage)?;
    let Some(path) = results_file else {
        let notes = (stored.len() > 0)
            .then(|| {
                format!(
                    "resuming run {run}: {} records already stored are skipped (the output is \
                     not a file: they are not written to it again)",
                    stored.len()
                )
            })
            .into_iter()
            .collect();
        return Ok(Plan {
            notes,
            stored,
            ..Plan::default()
        });
    };
    let mut scan = scan(path, longest_line, |seq| stored.contains(seq))?;
    let mut stamps = store
        .stamps(run, scan.held.saturating_sub(1))
        .map_err(usage)?;
    if let Some(last) = scan.held.checked_sub(1) {
        // The last kept line is the store's record: else the file is another run's.
        let stored_id = stamps
            .first()
            .filter(|s| s.seq == last)
            .map(|s| s.record_id.clone());
        let file_id = scan.last_id.as_ref().map(store::record_id);
        if stored_id.is_some() && stored_id == file_id {
            stamps.remove(0);
        } else {
            scan.stop = Some(Stop::OtherRun {
                seq: last,
                file_id: file_id.unwrap_or_default(),
                stored_id: stored_id.unwrap_or_default(),
            });
            scan.held = 0;
            scan.keep_bytes = 0;
            stamps = store.stamps(run, 0).map_err(usage)?;
        }
    }
    let then = match (stamps.len(), scan.held) {
        (0, _) => String::new(),
        (rewritten, 0) => format!("; the {rewritten} records the store holds are written to it"),
        (rewritten, _) => {
            format!("; the {rewritten} records the store holds past them are written to it again")
        }
    };
    Ok(Plan {
        kept: scan.held,
        keep_bytes: Some(scan.keep_bytes),
        notes: vec![format!(
            "resuming run {run}: {}",
            describe(path, &scan, &then)
        )],
        stored,
        rewrites: true,
        stamps,
        last_kept: None,
    })
}

fn is_file_or_missing(path: &Path) -> bool {
    match std::fs::metadata(path) {
        Ok(meta) => meta.is_file(),
        Err(e) => e.kind() == io::ErrorKind::NotFound,
    }
}

/// What reading the results file found.
#[derive(Debug)]
struct Scan {
    /// Whole result lines numbered 0, 1, … at its start.
    held: u64,
    /// Their length in bytes.
    keep_bytes: u64,
    /// The file's length (0 when it is missing).
    size: u64,
    exists: bool,
    /// Why reading stopped before the end.
    stop: Option<Stop>,
    /// The last kept line's `id`.
    last_id: Option<serde_json::Value>,
}

/// Why the results file is cut where it is.
#[derive(Debug, PartialEq)]
enum Stop {
    /// The last line has no newline: the run stopped while writing it.
    Torn,
    /// Line `line` (1-based) is not a result line (not JSON, or no `seq`).
    NotAResult { line: u64, why: String },
    /// Line `line` is record `seq` where record `expected` was due.
    OutOfOrder { line: u64, seq: u64, expected: u64 },
    /// Line `line` is longer than any result line this run writes.
    TooLong { line: u64 },
    /// The store does not hold record `seq`, which the file has.
    NotStored { seq: u64 },
    /// The file's record `seq` is not the store's: the file is another run's.
    OtherRun {
        seq: u64,
        file_id: String,
        stored_id: String,
    },
}

/// The head of a result line (the rest is checked to be JSON, and skipped).
#[derive(serde::Deserialize)]
struct Head {
    seq: u64,
}

#[derive(serde::Deserialize)]
struct Id {
    id: serde_json::Value,
}

/// Reads the results file once: its whole result lines numbered 0, 1, … (each checked to be
/// JSON), as long as `held` accepts their record.
fn scan(path: &Path, longest_line: usize, held: impl Fn(u64) -> bool) -> Result<Scan, Failure> {
    let cannot = |e: io::Error| Failure::Usage(format!("cannot read {}: {e}", path.display()));
    let file = match File::open(path) {
        Ok(file) => file,
        Err(e) if e.kind() == io::ErrorKind::NotFound => {
            return Ok(Scan {
                held: 0,
                keep_bytes: 0,
                size: 0,
                exists: false,
                stop: None,
                last_id: None,
            })
        }
        Err(e) => return Err(cannot(e)),
    };
    let size = file.metadata().map_err(cannot)?.len();
    let mut input = BufReader::with_capacity(1 << 20, file);
    let (mut line, mut last) = (Vec::new(), Vec::new());
    let (mut count, mut keep_bytes) = (0u64, 0u64);
    let stop = loop {
        let number = count + 1;
        match read_line(&mut input, &mut line, longest_line).map_err(cannot)? {
            LineEnd::Eof => break None,
            LineEnd::Torn => break Some(Stop::Torn),
            LineEnd::TooLong => break Some(Stop::TooLong { line: number }),
            LineEnd::Whole => {}
        }
        let seq = match serde_json::from_slice::<Head>(&line) {
            Ok(head) => head.seq,
            Err(e) => {
                break Some(Stop::NotAResult {
                    line: number,
                    why: e.to_string(),
                })
            }
        };
        if seq != count {
            break Some(Stop::OutOfOrder {
                line: number,
                seq,
                expected: count,
            });
        }
        if !held(seq) {
            break Some(Stop::NotStored { seq });
        }
        count += 1;
        keep_bytes += line.len() as u64;
        std::mem::swap(&mut line, &mut last);
    };
    let last_id = (count > 0)
        .then(|| serde_json::from_slice::<Id>(&last).ok().map(|l| l.id))
        .flatten();
    Ok(Scan {
        held: count,
        keep_bytes,
        size,
        exists: true,
        stop,
        last_id,
    })
}

enum LineEnd {
    /// A line with its newline.
    Whole,
    /// Bytes without a newline, then the end of the file.
    Torn,
    /// A line longer than the limit.
    TooLong,
    /// The end of the file.
    Eof,
}

/// Reads one line, with its `\n`, into `line` (at most `limit` bytes).
fn read_line(input: &mut impl BufRead, line: &mut Vec<u8>, limit: usize) -> io::Result<LineEnd> {
    line.clear();
    loop {
        let buffer = match input.fill_buf() {
            Ok(b) => b,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if buffer.is_empty() {
            return Ok(if line.is_empty() {
                LineEnd::Eof
            } else {
                LineEnd::Torn
            });
        }
        let (piece, ended) = match memchr::memchr(b'\n', buffer) {
            Some(i) => (&buffer[..=i], true),
            None => (buffer, false),
        };
        if line.len() + piece.len() > limit {
            return Ok(LineEnd::TooLong);
        }
        line.extend_from_slice(piece);
        let used = piece.len();
        input.consume(used);
        if ended {
            return Ok(LineEnd::Whole);
        }
    }
}

/// What was kept and cut, in words.
fn describe(path: &Path, scan: &Scan, then: &str) -> String {
    let name = path.display();
    if !scan.exists {
        return format!("{name} does not exist: it is written anew{then}");
    }
    let cut = scan.size - scan.keep_bytes;
    let kept = match scan.held {
        0 => format!("{name} holds no record of this run"),
        n => format!("kept the first {n} records of {name}"),
    };
    let why = match &scan.stop {
        None => return format!("{kept}{then}"),
        Some(Stop::Torn) => "a torn last line: the run stopped while writing it".to_string(),
        Some(Stop::NotAResult { line, why }) => format!("line {line} is not a result line: {why}"),
        Some(Stop::OutOfOrder {
            line,
            seq,
            expected,
        }) => format!("line {line} is record {seq} where record {expected} was due"),
        Some(Stop::TooLong { line }) => format!("line {line} is longer than any result line"),
        Some(Stop::NotStored { seq }) => format!("the store does not hold its record {seq}"),
        Some(Stop::OtherRun {
            seq,
            file_id,
            stored_id,
        }) => format!(
            "its record {seq} has id {file_id} where the store has {stored_id}: it is another \
             run's file"
        ),
    };
    format!("{kept}; cut the {cut} bytes after them ({why}){then}")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn file(dir: &str, contents: &[u8]) -> std::path::PathBuf {
        let dir = std::env::temp_dir().join(format!("llmjson-resume-{}-{dir}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("r.jsonl");
        std::fs::write(&path, contents).unwrap();
        path
    }

    fn line(seq: u64) -> String {
        format!("{{\"seq\":{seq},\"id\":\"r{seq}\",\"ok\":true,\"value\":[1,\"}}\\n\"]}}\n")
    }

    fn lines(n: u64) -> String {
        (0..n).map(line).collect()
    }

    #[test]
    fn whole_lines_are_kept_and_a_torn_tail_is_cut() {
        let whole = lines(3);
        for cut in 0..line(3).len() {
            let contents = format!("{whole}{}", &line(3)[..cut]);
            let found = scan(&file("torn", contents.as_bytes()), 1 << 20, |_| true).unwrap();
            assert_eq!(found.held, 3, "cut at {cut}");
            assert_eq!(found.keep_bytes, whole.len() as u64);
            assert_eq!(found.stop, (cut > 0).then_some(Stop::Torn));
            assert_eq!(found.last_id, Some(serde_json::json!("r2")));
        }
        // A whole result without its newline is torn too: the newline is part of the record.
        let contents = format!("{whole}{}", line(3).trim_end());
        let found = scan(&file("no-newline", contents.as_bytes()), 1 << 20, |_| true).unwrap();
        assert_eq!((found.held, found.stop), (3, Some(Stop::Torn)));
    }

    #[test]
    fn reading_stops_at_the_first_line_that_breaks_the_account() {
        // A torn line with the next run's output after it (what an older llmjson left).
        let broken = format!("{}{}{}", lines(2), &line(2)[..10], lines(5));
        let found = scan(&file("broken", broken.as_bytes()), 1 << 20, |_| true).unwrap();
        assert_eq!(found.held, 2);
        assert!(matches!(found.stop, Some(Stop::NotAResult { line: 3, .. })));
        // Out of order.
        let skipped = format!("{}{}", lines(2), line(3));
        let found = scan(&file("order", skipped.as_bytes()), 1 << 20, |_| true).unwrap();
        assert_eq!(
            found.stop,
            Some(Stop::OutOfOrder {
                line: 3,
                seq: 3,
                expected: 2
            })
        );
        // A record the store lacks.
        let found = scan(&file("store", lines(5).as_bytes()), 1 << 20, |s| s < 4).unwrap();
        assert_eq!(
            (found.held, found.stop),
            (4, Some(Stop::NotStored { seq: 4 }))
        );
        // Too long.
        let found = scan(&file("long", lines(5).as_bytes()), 40, |_| true).unwrap();
        assert_eq!(found.stop, Some(Stop::TooLong { line: 1 }));
        // Missing: nothing held.
        let missing = std::env::temp_dir().join("llmjson-resume-no-such-file.jsonl");
        let found = scan(&missing, 1 << 20, |_| true).unwrap();
        assert!(!found.exists && found.held == 0);
    }

    #[test]
    fn fates_follow_the_file_and_the_store() {
        let plan = Plan {
            kept: 3,
            stored: Stored::from_sorted([0, 1, 2, 3, 4, 7]),
            rewrites: true,
            ..Plan::default()
        };
        let fates: Vec<Fate> = (0..9).map(|s| plan.fate(s)).collect();
        use Fate::*;
        assert_eq!(
            fates,
            [Skip, Skip, Skip, Rewrite, Rewrite, New, New, Rewrite, New]
        );
        let to_stdout = Plan {
            rewrites: false,
            ..plan
        };
        assert_eq!(to_stdout.fate(4), Skip);
        assert_eq!(to_stdout.fate(5), New);
    }
}
