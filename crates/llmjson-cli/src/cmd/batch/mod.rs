//! `llmjson batch`: many replies in, one JSON Lines result per record out, in input order.
//!
//! Three parts run at once: this thread reads records into chunks (bounded by count and bytes),
//! the rayon pool parses and renders a chunk, and a writer thread stores the previous chunks
//! (one transaction each, over one connection per worker with PostgreSQL:
//! `store::inserters`), writes their lines in order once committed, counts them and draws the
//! progress. Channels of two chunks between them bound memory whatever the input's length.
//! `--resume` first brings the results file and the store to one account (`resume.rs`).

mod resume;

use crate::args::{BatchArgs, BatchFailOn, InputFormat};
use crate::store::{self, Chunk, Store};
use crate::Failure;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use llmjson::metrics::Metrics;
use llmjson_batch::{Context, Fields, Line, LineReader, Pending, Record};
use resume::{Fate, Plan};
use std::collections::VecDeque;
use std::fs::File;
use std::io::{self, BufRead, BufReader, IsTerminal, Read, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{mpsc, Arc};
use std::time::{Duration, Instant};

/// A chunk holds at most this many records…
const CHUNK_RECORDS: usize = 1024;
/// …and at most this many bytes of replies.
const CHUNK_BYTES: usize = 16 << 20;
/// A run stores over at most this many connections at once.
const MAX_CONNECTIONS: usize = 4;
/// A JSON Lines record may be this much longer than --max-size (its field names and escapes).
const LINE_OVERHEAD: usize = 64 << 10;

/// Set by Ctrl-C: stop reading, store what was parsed, mark the run interrupted.
static STOP: AtomicBool = AtomicBool::new(false);

pub fn run(args: &BatchArgs) -> Result<(), Failure> {
    let options = args.parse.options_coercing(llmjson::Coercion::Fit)?;
    let sources = sources(&args.inputs, args.input_format)?;
    let settings = settings(args);
    let inputs_json = serde_json::to_string(
        &args
            .inputs
            .iter()
            .map(|p| p.display().to_string())
            .collect::<Vec<_>>(),
    )
    .unwrap_or_else(|_| "[]".into());
    // The store is opened (and migrated) before any work: an unreachable database is a usage
    // error with nothing done.
    let mut store = match &args.db {
        Some(url) => Some(store::open(url).map_err(|e| Failure::Usage(e.0))?),
        None => None,
    };
    let run_id = match store.as_mut() {
        Some(store) => Some(start_run(store.as_mut(), args, &settings, &inputs_json)?),
        None => None,
    };
    let line_limit = options.max_size.saturating_add(LINE_OVERHEAD);
    let plan = match (&args.resume, store.as_mut(), run_id) {
        (None, _, _) => Plan::fresh(),
        (Some(_), Some(store), Some(id)) => resume::plan(
            args.out.as_deref(),
            Some((store.as_mut(), id)),
            result_limit(line_limit),
        )?,
        (Some(which), _, _) => {
            if which != "last" {
                return Err(Failure::Usage(format!(
                    "--resume {which}: a run id names a stored run, and needs --db"
                )));
            }
            resume::plan(args.out.as_deref(), None, result_limit(line_limit))?
        }
    };
    if !args.quiet {
        for note in &plan.notes {
            eprintln!("llmjson: {note}");
        }
    }
    let output = open_output(args.out.as_deref(), plan.keep_bytes)?;
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(args.jobs.unwrap_or(0))
        .build()
        .map_err(|e| Failure::Usage(format!("cannot start the worker threads: {e}")))?;
    // As many connections as workers (at most four): a server converts `jsonb` in one process
    // per connection. Opened before any work, like the first.
    let inserters = match (store, run_id) {
        (Some(store), Some(id)) => {
            let extra = pool.current_num_threads().clamp(1, MAX_CONNECTIONS) - 1;
            let more = store
                .more_connections(extra)
                .map_err(|e| Failure::Usage(e.0))?;
            let mut stores = vec![store];
            stores.extend(more);
            Some(store::Inserters::start(stores, id))
        }
        _ => None,
    };
    let _ = ctrlc::set_handler(|| {
        if STOP.swap(true, Ordering::SeqCst) {
            // A second Ctrl-C: leave now (every committed chunk is already safe).
            std::process::exit(130);
        }
    });

    let shows_progress = !args.quiet && io::stderr().is_terminal();
    let total_bytes = sources.iter().map(Source::size).sum::<Option<u64>>();
    let progress = progress_bar(shows_progress, total_bytes);
    let bytes_read = Arc::new(AtomicU64::new(0));
    let started = Instant::now();

    let (sender, receiver) = mpsc::sync_channel::<Chunk>(2);
    let writer = Writer {
        output,
        rewritten: 0,
        inserters,
        metrics: Metrics::default(),
        metrics_file: args.metrics.clone(),
        metrics_every: args.metrics_interval.map(Duration::from_secs),
        last_metrics: Instant::now(),
        progress: progress.clone(),
        bytes_read: Arc::clone(&bytes_read),
        started,
    };
    let writing = std::thread::spawn(move || writer.run(receiver));

    // Reading (this thread's helper) splits records off the input; the pool decodes, parses
    // and renders them; the writer stores and writes. Each hand-over holds at most two chunks.
    let context = Context::new(options.clone());
    let fields = Fields {
        id: args.id_field.clone(),
        reply: args.reply_field.clone(),
    };
    let plan = Arc::new(plan);
    let reader = Records::new(sources, line_limit, options.max_size, bytes_read);
    let (chunk_sender, chunks) = mpsc::sync_channel::<(Fate, Vec<Pending>)>(2);
    let reading = {
        let (plan, fields) = (Arc::clone(&plan), fields.clone());
        std::thread::spawn(move || read_chunks(reader, &plan, &fields, &chunk_sender))
    };
    let mut check = Ok(());
    for (fate, chunk) in chunks {
        let stored = fate == Fate::Rewrite;
        let results = pool.install(|| {
            if stored {
                let restamp = |p: &mut llmjson_batch::Processed| plan.restamp(p);
                llmjson_batch::process_and_render_with(chunk, &fields, &context, &restamp)
            } else {
                llmjson_batch::process_and_render(chunk, &fields, &context)
            }
        });
        if stored {
            check = results
                .iter()
                .try_for_each(|(p, _)| plan.check_rewritten(p));
            if check.is_err() {
                break;
            }
        }
        if sender.send(Chunk { results, stored }).is_err() {
            // The writer stopped (its error is reported below).
            break;
        }
    }
    drop(sender);
    let read_result = reading
        .join()
        .unwrap_or_else(|_| Err(Failure::Usage("the reader panicked".into())))
        .and(check);
    let written = writing.join().unwrap_or_else(|_| Written {
        store: None,
        metrics: Metrics::default(),
        rewritten: 0,
        error: Some(WriteError::Output(io::Error::other("the writer panicked"))),
    });
    progress.finish_and_clear();
    let interrupted = STOP.load(Ordering::SeqCst);

    let Written {
        mut store,
        metrics,
        rewritten,
        error: write_error,
    } = written;
    let status = if write_error.is_some() || read_result.is_err() {
        "failed"
    } else if interrupted {
        "interrupted"
    } else {
        "finished"
    };
    if let (Some(store), Some(id)) = (store.as_mut(), run_id) {
        store
            .finish_run(id, status)
            .map_err(|e| Failure::Usage(e.0))?;
    }
    if let Some(error) = write_error {
        return Err(error.into_failure(run_id));
    }
    read_result?;
    if let Some(path) = &args.metrics {
        write_metrics(path, &metrics)?;
    }
    let summarised = !args.quiet && (args.summary || io::stderr().is_terminal());
    if summarised {
        eprintln!(
            "llmjson: {}",
            summary(&metrics, started.elapsed(), run_id, &plan, rewritten)
        );
    }
    if interrupted {
        match run_id {
            Some(id) => {
                eprintln!("llmjson: interrupted; what was stored is kept: rerun with --resume {id}")
            }
            None if args.out.is_some() => {
                eprintln!("llmjson: interrupted; what was written is kept: rerun with --resume")
            }
            None => {}
        }
        return Err(Failure::Silent(130));
    }
    match args.fail_on {
        BatchFailOn::Any if metrics.failed > 0 => {
            // No silent exit: the summary says it, or this line does (even with --quiet).
            if !summarised {
                eprintln!(
                    "llmjson: {} of {} records gave no value (exit 1; --fail-on none exits 0)",
                    metrics.failed,
                    metrics.replies()
                );
            }
            Err(Failure::Silent(1))
        }
        _ => Ok(()),
    }
}

/// Reads every record, skipping those done before, and sends the others in chunks (bounded by
/// count and bytes) of one fate each: new, or stored and rewritten. Stops early on Ctrl-C, or
/// when the chunks are no longer taken.
fn read_chunks(
    mut reader: Records,
    plan: &Plan,
    fields: &Fields,
    sender: &mpsc::SyncSender<(Fate, Vec<Pending>)>,
) -> Result<(), Failure> {
    let mut held = None;
    loop {
        let mut chunk = Vec::with_capacity(CHUNK_RECORDS);
        let mut fate = Fate::New;
        let mut bytes = 0;
        while chunk.len() < CHUNK_RECORDS && bytes < CHUNK_BYTES && !STOP.load(Ordering::Relaxed) {
            let Some(pending) = held
                .take()
                .map_or_else(|| reader.next_pending(), |p| Ok(Some(p)))?
            else {
                if reader.seq < plan.kept() {
                    return Err(Failure::Usage(format!(
                        "--resume: the results file holds {} records, and the inputs only {}: \
                         resume with the inputs of the run that wrote it, or run without --resume",
                        plan.kept(),
                        reader.seq
                    )));
                }
                break;
            };
            let seq = pending.seq();
            match plan.fate(seq) {
                Fate::Skip if plan.checks(seq) => {
                    plan.check_skipped(seq, || pending.decode(fields).id)?;
                }
                Fate::Skip => {}
                this if chunk.is_empty() || this == fate => {
                    fate = this;
                    bytes += pending.size();
                    chunk.push(pending);
                }
                _ => {
                    // The next record's fate differs: it starts the next chunk.
                    held = Some(pending);
                    break;
                }
            }
        }
        if chunk.is_empty() || sender.send((fate, chunk)).is_err() {
            return Ok(());
        }
    }
}

/// The run to write into: a new one, or the one `--resume` names.
fn start_run(
    store: &mut dyn Store,
    args: &BatchArgs,
    settings: &serde_json::Value,
    inputs: &str,
) -> Result<i64, Failure> {
    let usage = |e: store::StoreError| Failure::Usage(e.0);
    let Some(which) = &args.resume else {
        return store
            .begin_run(&settings.to_string(), inputs)
            .map_err(usage);
    };
    let id = if which == "last" {
        store
            .latest_run(true)
            .map_err(usage)?
            .ok_or_else(|| Failure::Usage("--resume last: no unfinished run in the store".into()))?
    } else {
        which.parse::<i64>().map_err(|_| {
            Failure::Usage(format!("--resume {which:?}: expected a run id or `last`"))
        })?
    };
    let run = store
        .run(id)
        .map_err(usage)?
        .ok_or_else(|| Failure::Usage(format!("--resume {id}: no such run in the store")))?;
    let same = |stored: &str, now: &serde_json::Value| {
        serde_json::from_str::<serde_json::Value>(stored)
            .ok()
            .as_ref()
            == Some(now)
    };
    if !same(&run.options, settings) {
        return Err(Failure::Usage(format!(
            "--resume {id}: the run was started with other options ({}); resume it with the same ones",
            run.options
        )));
    }
    let inputs_now: serde_json::Value = serde_json::from_str(inputs).unwrap_or_default();
    if !same(&run.inputs, &inputs_now) {
        return Err(Failure::Usage(format!(
            "--resume {id}: the run read other inputs ({}); resume it with the same ones",
            run.inputs
        )));
    }
    Ok(id)
}

/// What a run is started with, as the store records it (and `--resume` compares).
fn settings(args: &BatchArgs) -> serde_json::Value {
    let p = &args.parse;
    let name = |v: &dyn std::fmt::Debug| format!("{v:?}").to_ascii_lowercase();
    let mut settings = serde_json::json!({
        "level": name(&p.read.level),
        "truncation": name(&p.truncation),
        "max_removed_ratio": p.read.max_removed_ratio,
        "guard_comments": name(&p.read.guard_comments),
        "duplicate_keys": name(&p.duplicate_keys),
        "max_size": p.read.max_size,
        "max_depth": p.read.max_depth,
        "schema": p.schema.as_ref().map(|s| s.display().to_string()),
        "coercion": p.coercion.map(|c| name(&c)),
        "evidence": p.grounding.evidence.iter().map(|e| e.display().to_string()).collect::<Vec<_>>(),
        "fail_closed": !p.grounding.report_only,
        "locale": name(&p.grounding.locale),
        "input_format": name(&args.input_format),
        "id_field": args.id_field,
        "reply_field": args.reply_field,
    });
    // Only when set, so that a run stored before the flag existed resumes with the same ones.
    if p.read.strict_utf8 {
        settings["strict_utf8"] = true.into();
    }
    settings
}

/// One place records come from.
enum Source {
    Stdin,
    Lines(PathBuf, u64),
    Whole(PathBuf, u64),
}

impl Source {
    fn size(&self) -> Option<u64> {
        match self {
            Source::Stdin => None,
            Source::Lines(_, size) | Source::Whole(_, size) => Some(*size),
        }
    }
}

/// The inputs as sources, directories expanded (every file inside, recursively, in name
/// order). A missing input is a usage error, found before any work.
fn sources(inputs: &[PathBuf], format: InputFormat) -> Result<Vec<Source>, Failure> {
    if inputs.is_empty() {
        return Ok(vec![Source::Stdin]);
    }
    let mut out = Vec::new();
    for input in inputs {
        if input == Path::new("-") {
            out.push(Source::Stdin);
            continue;
        }
        let meta = std::fs::metadata(input)
            .map_err(|e| Failure::Usage(format!("cannot read {}: {e}", input.display())))?;
        if meta.is_dir() {
            let mut files = Vec::new();
            walk(input, &mut files)?;
            files.sort();
            for (path, size) in files {
                out.push(file_source(path, size, format));
            }
        } else {
            out.push(file_source(input.clone(), meta.len(), format));
        }
    }
    Ok(out)
}

fn walk(dir: &Path, files: &mut Vec<(PathBuf, u64)>) -> Result<(), Failure> {
    let entries = std::fs::read_dir(dir)
        .map_err(|e| Failure::Usage(format!("cannot read {}: {e}", dir.display())))?;
    for entry in entries {
        let entry =
            entry.map_err(|e| Failure::Usage(format!("cannot read {}: {e}", dir.display())))?;
        let path = entry.path();
        let meta = std::fs::metadata(&path)
            .map_err(|e| Failure::Usage(format!("cannot read {}: {e}", path.display())))?;
        if meta.is_dir() {
            walk(&path, files)?;
        } else {
            files.push((path, meta.len()));
        }
    }
    Ok(())
}

fn file_source(path: PathBuf, size: u64, format: InputFormat) -> Source {
    let lines = match format {
        InputFormat::Jsonl => true,
        InputFormat::Text => false,
        InputFormat::Auto => path
            .extension()
            .and_then(|e| e.to_str())
            .is_some_and(|e| e.eq_ignore_ascii_case("jsonl") || e.eq_ignore_ascii_case("ndjson")),
    };
    if lines {
        Source::Lines(path, size)
    } else {
        Source::Whole(path, size)
    }
}

/// The JSON Lines source being read: its lines, its name, the last line's number.
type OpenLines = (LineReader<Box<dyn BufRead + Send>>, Arc<str>, u64);

/// The records of every source, in order, numbered.
struct Records {
    sources: VecDeque<Source>,
    current: Option<OpenLines>,
    seq: u64,
    line_limit: usize,
    max_size: usize,
    bytes_read: Arc<AtomicU64>,
}

impl Records {
    fn new(
        sources: Vec<Source>,
        line_limit: usize,
        max_size: usize,
        bytes_read: Arc<AtomicU64>,
    ) -> Self {
        Records {
            sources: sources.into(),
            current: None,
            seq: 0,
            line_limit,
            max_size,
            bytes_read,
        }
    }

    fn next_seq(&mut self) -> u64 {
        self.seq += 1;
        self.seq - 1
    }

    fn next_pending(&mut self) -> Result<Option<Pending>, Failure> {
        loop {
            if let Some((lines, name, number)) = &mut self.current {
                let line = lines
                    .next_line()
                    .map_err(|e| Failure::Usage(format!("cannot read {name}: {e}")))?;
                match line {
                    Some(line) => {
                        *number += 1;
                        let length = match &line {
                            Line::Bytes(b) => b.len() as u64,
                            Line::TooLong(n) => *n,
                        };
                        self.bytes_read.fetch_add(length + 1, Ordering::Relaxed);
                        let (source, line_number) = (Arc::clone(name), *number);
                        // A blank line is no record (JSON Lines allows a trailing one).
                        if matches!(&line, Line::Bytes(b) if b.iter().all(u8::is_ascii_whitespace))
                        {
                            continue;
                        }
                        let seq = self.next_seq();
                        return Ok(Some(Pending::Line {
                            seq,
                            source,
                            line_number,
                            line,
                        }));
                    }
                    None => self.current = None,
                }
            }
            let Some(source) = self.sources.pop_front() else {
                return Ok(None);
            };
            match source {
                Source::Stdin => {
                    let input: Box<dyn BufRead + Send> =
                        Box::new(BufReader::with_capacity(1 << 16, io::stdin()));
                    self.current = Some((LineReader::new(input, self.line_limit), "-".into(), 0));
                }
                Source::Lines(path, _) => {
                    let file = File::open(&path).map_err(|e| {
                        Failure::Usage(format!("cannot read {}: {e}", path.display()))
                    })?;
                    let input: Box<dyn BufRead + Send> =
                        Box::new(BufReader::with_capacity(1 << 16, file));
                    self.current = Some((
                        LineReader::new(input, self.line_limit),
                        path.display().to_string().into(),
                        0,
                    ));
                }
                Source::Whole(path, size) => {
                    self.bytes_read.fetch_add(size, Ordering::Relaxed);
                    let seq = self.next_seq();
                    return Ok(Some(Pending::Record(self.whole(seq, &path, size)?)));
                }
            }
        }
    }

    /// A file that is one reply; one over the size limit is that record's error, unread.
    fn whole(&self, seq: u64, path: &Path, size: u64) -> Result<Record, Failure> {
        let name = path.display().to_string();
        if size > self.max_size as u64 {
            return Ok(Record {
                seq,
                id: serde_json::Value::String(name),
                input: llmjson_batch::Input::TooLarge {
                    size: usize::try_from(size).unwrap_or(usize::MAX),
                },
            });
        }
        let mut bytes = Vec::new();
        File::open(path)
            .and_then(|f| {
                f.take(self.max_size as u64 + 1)
                    .read_to_end(&mut bytes)
                    .map(|_| ())
            })
            .map_err(|e| Failure::Usage(format!("cannot read {name}: {e}")))?;
        Ok(Record::from_file(seq, &name, bytes))
    }
}

/// The longest result line a run writes for a record of at most `line_limit` bytes: the value
/// is about the reply's length, the repair log and diagnostics add to it. A longer line in a
/// results file is not one of this run's.
fn result_limit(line_limit: usize) -> usize {
    line_limit.saturating_mul(8).max(64 << 20)
}

/// Standard output, or FILE: written anew, or (resuming) cut back to `keep` bytes and appended
/// to.
fn open_output(path: Option<&Path>, keep: Option<u64>) -> Result<Box<dyn Write + Send>, Failure> {
    match path {
        None => Ok(Box::new(io::BufWriter::with_capacity(
            1 << 16,
            io::stdout(),
        ))),
        Some(path) if path == Path::new("-") => Ok(Box::new(io::BufWriter::with_capacity(
            1 << 16,
            io::stdout(),
        ))),
        Some(path) => {
            let cannot =
                |e: io::Error| Failure::Usage(format!("cannot write {}: {e}", path.display()));
            let file = std::fs::OpenOptions::new()
                .create(true)
                .write(true)
                .append(keep.is_some())
                .truncate(keep.is_none())
                .open(path)
                .map_err(cannot)?;
            if let Some(keep) = keep {
                // What follows the kept records (a torn line, another run's lines) goes.
                if file.metadata().map_err(cannot)?.len() != keep {
                    file.set_len(keep).map_err(cannot)?;
                }
            }
            Ok(Box::new(io::BufWriter::with_capacity(1 << 16, file)))
        }
    }
}

fn progress_bar(shown: bool, total_bytes: Option<u64>) -> ProgressBar {
    if !shown {
        return ProgressBar::hidden();
    }
    let bar = match total_bytes {
        Some(total) => ProgressBar::with_draw_target(Some(total), ProgressDrawTarget::stderr())
            .with_style(
                ProgressStyle::with_template(
                    "{elapsed_precise} [{wide_bar}] {percent:>3}% {msg} ETA {eta}",
                )
                .unwrap_or_else(|_| ProgressStyle::default_bar())
                .progress_chars("=> "),
            ),
        None => ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr()).with_style(
            ProgressStyle::with_template("{spinner} {elapsed_precise} {msg}")
                .unwrap_or_else(|_| ProgressStyle::default_spinner()),
        ),
    };
    bar.enable_steady_tick(Duration::from_millis(200));
    bar
}

/// What stops the writer.
enum WriteError {
    Output(io::Error),
    Store(store::StoreError),
    Metrics(Failure),
}

impl WriteError {
    fn into_failure(self, run: Option<i64>) -> Failure {
        let resume = run
            .map(|id| format!(" (what was stored is kept: rerun with --resume {id})"))
            .unwrap_or_default();
        match self {
            WriteError::Output(e) if e.kind() == io::ErrorKind::BrokenPipe => Failure::Io(e),
            WriteError::Output(e) => {
                Failure::Usage(format!("cannot write the results: {e}{resume}"))
            }
            WriteError::Store(e) => Failure::Usage(format!("{}{resume}", e.0)),
            WriteError::Metrics(f) => f,
        }
    }
}

struct Writer {
    output: Box<dyn Write + Send>,
    rewritten: u64,
    inserters: Option<store::Inserters>,
    metrics: Metrics,
    metrics_file: Option<PathBuf>,
    metrics_every: Option<Duration>,
    last_metrics: Instant,
    progress: ProgressBar,
    bytes_read: Arc<AtomicU64>,
    started: Instant,
}

/// What the writer gives back: the store (to finish the run, whatever happened), the counts,
/// and the error that stopped it, if one did.
struct Written {
    store: Option<Box<dyn Store>>,
    metrics: Metrics,
    /// Stored records written to the results file again.
    rewritten: u64,
    error: Option<WriteError>,
}

impl Writer {
    fn run(mut self, chunks: mpsc::Receiver<Chunk>) -> Written {
        let error = self.write_all(chunks).err();
        Written {
            store: self.inserters.take().and_then(store::Inserters::finish),
            metrics: self.metrics,
            rewritten: self.rewritten,
            error,
        }
    }

    /// With a store, a chunk is stored first and its lines written once it is committed, in
    /// input order, and flushed before the next: the results file is always the run's first
    /// records, whole and in order (but a torn last line after a crash), and the store holds
    /// them. The chunks commit side by side (`store::Inserters`).
    fn write_all(&mut self, chunks: mpsc::Receiver<Chunk>) -> Result<(), WriteError> {
        for chunk in chunks {
            let Some(inserters) = self.inserters.as_mut() else {
                self.write_chunk(&chunk)?;
                continue;
            };
            inserters.submit(chunk).map_err(WriteError::Store)?;
            if inserters.busy() {
                self.write_oldest()?;
            }
        }
        while self.write_oldest()? {}
        self.output.flush().map_err(WriteError::Output)
    }

    /// Waits for the oldest chunk in flight and writes it once committed (`false` when no chunk
    /// is in flight). A chunk the store refused stops the writing: no chunk after it is
    /// written, so the file stays the run's first records in order; those that still commit
    /// are written by `--resume` from the store.
    fn write_oldest(&mut self) -> Result<bool, WriteError> {
        let Some(done) = self.inserters.as_mut().and_then(store::Inserters::oldest) else {
            return Ok(false);
        };
        let chunk = done.map_err(WriteError::Store)?;
        self.write_chunk(&chunk)?;
        Ok(true)
    }

    fn write_chunk(&mut self, chunk: &Chunk) -> Result<(), WriteError> {
        for (processed, rendered) in &chunk.results {
            self.output
                .write_all(rendered.line.as_bytes())
                .map_err(WriteError::Output)?;
            // A record written again was counted by the run that parsed it first.
            if !chunk.stored {
                processed.count(&mut self.metrics);
            }
        }
        if chunk.stored {
            self.rewritten += chunk.results.len() as u64;
        }
        self.output.flush().map_err(WriteError::Output)?;
        self.show_progress();
        if let (Some(path), Some(every)) = (&self.metrics_file, self.metrics_every) {
            if self.last_metrics.elapsed() >= every {
                write_metrics(path, &self.metrics).map_err(WriteError::Metrics)?;
                self.last_metrics = Instant::now();
            }
        }
        Ok(())
    }

    fn show_progress(&self) {
        if self.progress.is_hidden() {
            return;
        }
        self.progress
            .set_position(self.bytes_read.load(Ordering::Relaxed));
        let records = self.metrics.replies();
        let rate = records as f64 / self.started.elapsed().as_secs_f64().max(1e-9);
        self.progress.set_message(format!(
            "{records} records, {rate:.0}/s, {} failed",
            self.metrics.failed
        ));
    }
}

/// Writes the metrics file whole (a scraper never sees half of one): to a temporary file
/// beside it, then renamed over it.
fn write_metrics(path: &Path, metrics: &Metrics) -> Result<(), Failure> {
    let mut temporary = path.as_os_str().to_owned();
    temporary.push(".tmp");
    let temporary = PathBuf::from(temporary);
    std::fs::write(&temporary, metrics.to_prometheus())
        .and_then(|()| std::fs::rename(&temporary, path))
        .map_err(|e| {
            Failure::Usage(format!(
                "cannot write the metrics to {}: {e}",
                path.display()
            ))
        })
}

/// The one line printed at the end.
fn summary(
    metrics: &Metrics,
    elapsed: Duration,
    run: Option<i64>,
    plan: &Plan,
    rewritten: u64,
) -> String {
    let seconds = elapsed.as_secs_f64();
    let records = metrics.replies();
    let by_kind = |map: &std::collections::BTreeMap<String, u64>| {
        let mut kinds: Vec<_> = map.iter().collect();
        kinds.sort_by(|a, b| b.1.cmp(a.1).then(a.0.cmp(b.0)));
        // One line: the five most frequent kinds, and how many more.
        let mut shown: Vec<String> = kinds
            .iter()
            .take(5)
            .map(|(k, n)| format!("{k} {n}"))
            .collect();
        if kinds.len() > 5 {
            shown.push(format!("{} more kinds", kinds.len() - 5));
        }
        shown.join(", ")
    };
    let mut line = format!(
        "{records} records in {seconds:.2} s ({:.0}/s): {} ok, {} repaired",
        records as f64 / seconds.max(1e-9),
        metrics.ok,
        metrics.repaired
    );
    if !metrics.repairs.is_empty() {
        line.push_str(&format!(" ({})", by_kind(&metrics.repairs)));
    }
    line.push_str(&format!(", {} failed", metrics.failed));
    if !metrics.failures.is_empty() {
        line.push_str(&format!(" ({})", by_kind(&metrics.failures)));
    }
    match (plan.kept(), rewritten) {
        (0, 0) => {}
        (kept, 0) => line.push_str(&format!("; {kept} already in the results file")),
        (0, again) => line.push_str(&format!(
            "; {again} stored before, written to the results file from the store"
        )),
        (kept, again) => line.push_str(&format!(
            "; {kept} already in the results file, {again} stored before and written to it again"
        )),
    }
    if plan.skipped_stored() > 0 {
        line.push_str(&format!(
            "; {} already stored, skipped",
            plan.skipped_stored()
        ));
    }
    if let Some(id) = run {
        line.push_str(&format!("; run {id}"));
    }
    line
}
