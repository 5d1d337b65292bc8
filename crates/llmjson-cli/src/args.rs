//! Command-line arguments (clap derive), and how they become library options.

use crate::Failure;
use clap::{Args, Parser, Subcommand, ValueEnum};
use llmjson::{Coercion, DuplicateKeys, Options, RepairLevel, Schema, Truncation};
use std::path::PathBuf;

/// Turn what a language model wrote into JSON a program can trust.
#[derive(Debug, Parser)]
#[command(name = "llmjson", version, about, max_term_width = 100)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Locate the JSON in a reply, repair it, and print it on one line.
    Repair(RepairArgs),
    /// Locate the JSON in a reply and print its text untouched.
    Extract(ExtractArgs),
    /// Check a reply against a JSON Schema (after repair; coercion only with --coercion fit):
    /// exit 0 when it fits, 1 when it does not (every violation reported), 2 on a usage error
    /// or an unreadable schema.
    Validate(ValidateArgs),
    /// Check that every non-trivial number of an answer is in the evidence: exit 0 when it is
    /// grounded, 1 when it is not (blocked, or reported with --report-only), 2 on a usage error.
    Verify(VerifyArgs),
    /// Read many replies (JSON Lines records, or files) and write one JSON Lines result per
    /// record, in input order, in parallel: exit 0 when every record gave a value, 1 when some
    /// did not (see --fail-on), 2 on a usage error or an unreachable database, 130 when
    /// interrupted (what was stored is kept: rerun with --resume).
    Batch(BatchArgs),
    /// Write one self-contained HTML report (outcomes, repairs, failures, latency, the worst
    /// replies) of a run stored with `batch --db`.
    Report(ReportArgs),
}

#[derive(Debug, Args)]
pub struct BatchArgs {
    /// Inputs: JSON Lines files (`.jsonl`, `.ndjson`: one record per line), other files (one
    /// reply each, the path as its id), or directories (every file inside, in name order).
    /// Nothing or `-` reads JSON Lines from standard input.
    pub inputs: Vec<PathBuf>,
    /// How to read a file: `auto` (JSON Lines for .jsonl/.ndjson and standard input, a whole
    /// reply otherwise), `jsonl`, or `text` (every file is one reply).
    #[arg(long, value_enum, default_value_t = InputFormat::Auto)]
    pub input_format: InputFormat,
    /// The field of a JSON Lines record that holds its id (missing: `FILE:LINE`).
    #[arg(long, default_value = "id")]
    pub id_field: String,
    /// The field of a JSON Lines record that holds the reply (a record may also carry its own
    /// `schema` and `evidence`).
    #[arg(long, default_value = "reply")]
    pub reply_field: String,
    /// Write the results to FILE instead of standard output. With --resume, FILE is the run's
    /// results file: what a crash left torn is cut, what the store holds but FILE lacks is
    /// written again, and the run goes on after it.
    #[arg(long, short, value_name = "FILE")]
    pub out: Option<PathBuf>,
    /// Exit 1 when any record failed (`any`), or only on usage errors (`none`).
    #[arg(long, value_enum, default_value_t = BatchFailOn::Any)]
    pub fail_on: BatchFailOn,
    /// No progress bar and no summary on standard error.
    #[arg(long, short)]
    pub quiet: bool,
    /// Print the one-line summary even when standard error is not a terminal.
    #[arg(long, conflicts_with = "quiet")]
    pub summary: bool,
    /// Store the run and every result: `sqlite:PATH` (created if missing) or
    /// `postgresql://USER[:PASSWORD]@HOST[:PORT]/DATABASE`.
    #[arg(long, value_name = "URL")]
    pub db: Option<String>,
    /// Continue a run that stopped (interrupted, failed or killed): with --db, the stored run
    /// RUN (a number; none or `last`: the latest unfinished one), without it the run whose
    /// results are in --out FILE. Records already done are not parsed again; the inputs and
    /// options must be the run's own. (Name inputs before --resume, or write --resume=RUN.)
    #[arg(long, value_name = "RUN", num_args = 0..=1, default_missing_value = "last")]
    pub resume: Option<String>,
    /// Write Prometheus text exposition (llmjson_replies_total, …) to FILE at the end.
    #[arg(long, value_name = "FILE")]
    pub metrics: Option<PathBuf>,
    /// Also rewrite the metrics file every SECONDS while the run goes on.
    #[arg(long, value_name = "SECONDS", requires = "metrics")]
    pub metrics_interval: Option<u64>,
    /// Worker threads (default: one per core).
    #[arg(long, short)]
    pub jobs: Option<usize>,
    #[command(flatten)]
    pub parse: ParseArgs,
}

impl BatchArgs {
    /// `--resume` takes an optional run id, so clap reads the word after it as one: a word that
    /// is no run id (`--resume in.jsonl`) is put back among the inputs, in its place on the
    /// command line, and the run resumed is the latest unfinished one.
    fn put_back_resume_input(&mut self, matches: &clap::ArgMatches) {
        let Some(word) = &self.resume else { return };
        if word == "last" || word.parse::<i64>().is_ok() {
            return;
        }
        let at = matches.index_of("resume").unwrap_or(usize::MAX);
        let before = matches
            .indices_of("inputs")
            .map_or(0, |indices| indices.filter(|&i| i < at).count());
        self.inputs.insert(before, PathBuf::from(word));
        self.resume = Some("last".into());
    }
}

/// Parses the command line (clap), with `batch --resume`'s optional value read as it is meant;
/// a flag that does nothing where it is given is a usage error (exit 2) that says where it
/// belongs.
pub fn parse() -> Cli {
    match parse_from(std::env::args_os()) {
        Ok(cli) => cli,
        Err(Refused::Clap(e)) => {
            let note = belongs_elsewhere(&e);
            if note.is_empty() {
                e.exit()
            }
            eprint!("{}", e.render());
            eprintln!("{note}");
            std::process::exit(2)
        }
        Err(Refused::Idle(message)) => {
            eprintln!("llmjson: {message}");
            std::process::exit(2)
        }
    }
}

/// Why a command line was refused.
#[derive(Debug)]
pub enum Refused {
    /// clap's: an unknown flag, a bad value, a missing one, `--help`, `--version`.
    Clap(clap::Error),
    /// A flag that would do nothing with the others given.
    Idle(String),
}

/// [`parse`] of `args` (the program's name first), without exiting.
pub fn parse_from<I, T>(args: I) -> Result<Cli, Refused>
where
    I: IntoIterator<Item = T>,
    T: Into<std::ffi::OsString> + Clone,
{
    use clap::{CommandFactory, FromArgMatches};
    let matches = Cli::command()
        .try_get_matches_from(args)
        .map_err(Refused::Clap)?;
    let mut cli = Cli::from_arg_matches(&matches).map_err(Refused::Clap)?;
    if let Some((name, sub)) = matches.subcommand() {
        refuse_idle(name, sub).map_err(Refused::Idle)?;
    }
    if let (Command::Batch(batch), Some(("batch", sub))) = (&mut cli.command, matches.subcommand())
    {
        batch.put_back_resume_input(sub);
    }
    Ok(cli)
}

/// The grounding flags: they act on an answer checked against `--evidence`.
const GROUNDING: [&str; 9] = [
    "locale",
    "fail_closed",
    "report_only",
    "language",
    "percent_fraction",
    "percent_distinct",
    "check_years",
    "small_counts",
    "max_evidence",
];

/// Refuses a flag given to `command` that would do nothing without another one (a silent
/// no-op misleads): the grounding flags without `--evidence`, `--coercion` and
/// `--invalid-items` without `--schema`. A batch takes them alone: its records may carry their
/// own evidence and schema.
fn refuse_idle(command: &str, sub: &clap::ArgMatches) -> Result<(), String> {
    let given = |id: &str| {
        sub.try_get_raw(id).ok().flatten().is_some()
            && sub.value_source(id) == Some(clap::parser::ValueSource::CommandLine)
    };
    let flag = |id: &str| format!("--{}", id.replace('_', "-"));
    let idle = |ids: &[&str]| -> Vec<String> {
        ids.iter()
            .filter(|id| given(id))
            .map(|id| flag(id))
            .collect()
    };
    let needs = match command {
        "repair" | "validate" => vec![
            (idle(&GROUNDING), "evidence"),
            (idle(&["coercion", "invalid_items"]), "schema"),
        ],
        _ => Vec::new(),
    };
    for (flags, needed) in needs {
        if !flags.is_empty() && !given(needed) {
            return Err(format!(
                "{} does nothing in `{command}` without {}",
                flags.join(", "),
                flag(needed)
            ));
        }
    }
    match command {
        "verify" if !given("evidence") => Err("verify needs evidence: --evidence FILE".into()),
        "validate" if !given("schema") => Err("validate needs a schema: --schema FILE".into()),
        _ => Ok(()),
    }
}

/// For a flag the command does not take: the commands that do take it, as a line to print
/// after clap's error (empty when none does, or for any other error).
fn belongs_elsewhere(e: &clap::Error) -> String {
    use clap::error::{ContextKind, ContextValue, ErrorKind};
    use clap::CommandFactory;
    if e.kind() != ErrorKind::UnknownArgument {
        return String::new();
    }
    let Some(ContextValue::String(given)) = e.get(ContextKind::InvalidArg) else {
        return String::new();
    };
    let name = given
        .trim_start_matches('-')
        .split('=')
        .next()
        .unwrap_or_default();
    let command = Cli::command();
    let owners: Vec<&str> = command
        .get_subcommands()
        .filter(|sub| sub.get_arguments().any(|a| a.get_long() == Some(name)))
        .map(|sub| sub.get_name())
        .collect();
    if owners.is_empty() {
        return String::new();
    }
    format!(
        "note: --{name} belongs to `llmjson {}`; it does nothing here",
        owners.join("`, `llmjson ")
    )
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum InputFormat {
    Auto,
    Jsonl,
    Text,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum BatchFailOn {
    None,
    Any,
}

#[derive(Debug, Args)]
pub struct ReportArgs {
    /// The store: `sqlite:PATH` or `postgresql://…`.
    #[arg(long, value_name = "URL")]
    pub db: String,
    /// The run to report (default: the latest).
    #[arg(long, value_name = "ID")]
    pub run: Option<i64>,
    /// Where to write the HTML file.
    #[arg(long, short, value_name = "FILE")]
    pub out: PathBuf,
    /// How many of the worst replies to show.
    #[arg(long, default_value_t = 20)]
    pub worst: usize,
}

#[derive(Debug, Args)]
pub struct VerifyArgs {
    /// The answer to check; `-` or nothing reads standard input.
    pub answer: Option<PathBuf>,
    /// What to print on standard output: `text` (the answer, or the blocking message when it
    /// is blocked) or `json` (the whole verification, with every number checked).
    #[arg(long, value_enum, default_value_t = ReportArg::Text)]
    pub report: ReportArg,
    /// Read the answer as JSON (located and repaired like `repair` does) and check its strings
    /// and numbers, each located by its JSON Pointer.
    #[arg(long)]
    pub json: bool,
    /// Write the diagnostics record (one JSON object) to FILE, or to standard error for `-`.
    #[arg(long, value_name = "FILE|-")]
    pub diagnostics: Option<PathBuf>,
    #[command(flatten)]
    pub grounding: GroundingArgs,
}

/// How answers are checked against evidence (verify, and repair/validate with --evidence).
#[derive(Debug, Args)]
pub struct GroundingArgs {
    /// An evidence file (repeat for more): `.json` (numbers and strings), `.csv` (cells by row
    /// and column), any other as text. Must be UTF-8; at most --max-evidence bytes together.
    #[arg(long, value_name = "FILE")]
    pub evidence: Vec<PathBuf>,
    /// How numbers are spelled: `auto` decides per number where the spelling is unambiguous
    /// and reports the ambiguous ones (`1,234`); or en, pt-BR, de, es, it, fr.
    #[arg(long, default_value = "auto", value_parser = locale)]
    pub locale: llmjson::verify::Locale,
    /// Block an answer that is not grounded: print the blocking message instead of it. This is
    /// the default (an answer whose numbers the evidence does not hold is never delivered); the
    /// flag is accepted for scripts that spell it out.
    #[arg(long, conflicts_with = "report_only")]
    pub fail_closed: bool,
    /// Report an answer that is not grounded instead of blocking it: print it, with the
    /// unmatched numbers on standard error (exit 1).
    #[arg(long)]
    pub report_only: bool,
    /// The blocking message's language: en or pt.
    #[arg(long, default_value = "en", value_parser = language)]
    pub language: llmjson::verify::Language,
    /// Deprecated, and now the default: a percentage and its fraction bound
    /// to the same claim are one quantity (45% and a `share` of 0.45). Accepted, does nothing.
    #[arg(long, hide = true)]
    pub percent_fraction: bool,
    /// Treat a percentage and a fraction as different quantities (45% is not 0.45).
    #[arg(long)]
    pub percent_distinct: bool,
    /// Check years (1900-2100) like any number (they are skipped by default).
    #[arg(long)]
    pub check_years: bool,
    /// Skip bare integer counts up to this value (default 10; 0 checks every number but 0).
    #[arg(long, default_value_t = 10)]
    pub small_counts: u32,
    /// Refuse evidence larger than this many bytes in total.
    #[arg(long, default_value_t = llmjson::DEFAULT_MAX_SIZE)]
    pub max_evidence: usize,
}

/// Which comments the safety guard counts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum GuardCommentsArg {
    /// Comments holding JSON data only.
    Data,
    /// Every comment.
    All,
}

/// What a schema does with array items that fail their item schema.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum InvalidItemsArg {
    /// One invalid item fails the reply.
    Fail,
    /// Invalid items are left out and logged; the rest is returned.
    Drop,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ReportArg {
    Text,
    Json,
}

fn locale(s: &str) -> Result<llmjson::verify::Locale, String> {
    s.parse()
}

fn language(s: &str) -> Result<llmjson::verify::Language, String> {
    s.parse()
}

impl GroundingArgs {
    /// The verify options these flags ask for.
    pub fn verify_options(&self) -> llmjson::verify::VerifyOptions {
        let mut options = llmjson::verify::VerifyOptions::default()
            .locale(self.locale)
            .language(self.language)
            .small_counts(llmjson::verify::SmallCounts::UpTo(self.small_counts));
        if self.report_only {
            options = options.report_only();
        }
        if self.percent_fraction {
            eprintln!(
                "llmjson: --percent-fraction is deprecated and does nothing: a percentage and \
                 its fraction are one quantity by default (--percent-distinct turns that off)"
            );
        }
        if self.percent_distinct {
            options = options.percent(llmjson::verify::PercentForms::Distinct);
        }
        if self.check_years {
            options = options.years(llmjson::verify::Years::Check);
        }
        options
    }

    /// Reads and indexes the evidence files (a usage error if one cannot be read, is not
    /// UTF-8, or is not the JSON or CSV its name says).
    pub fn evidence(&self) -> Result<llmjson::verify::Evidence, Failure> {
        let mut evidence =
            llmjson::verify::Evidence::with_locale(self.locale).max_size(self.max_evidence);
        let mut total = 0u64;
        for path in &self.evidence {
            let shown = path.display();
            let size = std::fs::metadata(path)
                .map_err(|e| Failure::Usage(format!("cannot read the evidence {shown}: {e}")))?
                .len();
            total = total.saturating_add(size);
            if total > self.max_evidence as u64 {
                return Err(Failure::Usage(format!(
                    "the evidence is {total} bytes or more, over the limit of {} bytes \
                     (--max-evidence)",
                    self.max_evidence
                )));
            }
            let bytes = std::fs::read(path)
                .map_err(|e| Failure::Usage(format!("cannot read the evidence {shown}: {e}")))?;
            let text = std::str::from_utf8(&bytes).map_err(|e| {
                Failure::Usage(format!(
                    "the evidence {shown} is not UTF-8 (invalid byte at offset {})",
                    e.valid_up_to()
                ))
            })?;
            let name = path.display().to_string();
            let extension = path
                .extension()
                .and_then(|e| e.to_str())
                .map(str::to_ascii_lowercase);
            let added = match extension.as_deref() {
                Some("json") => {
                    let value: llmjson::Value = text.parse().map_err(|e| {
                        Failure::Usage(format!("the evidence {shown} is not valid JSON: {e}"))
                    })?;
                    evidence.add_json(&name, &value).map(|_| ())
                }
                Some("csv") => evidence.add_csv(&name, text).map(|_| ()),
                _ => evidence.add_text(&name, text).map(|_| ()),
            };
            added.map_err(|e| Failure::Usage(format!("the evidence {shown}: {e}")))?;
        }
        Ok(evidence)
    }
}

#[derive(Debug, Args)]
pub struct RepairArgs {
    /// The reply to read; `-` or nothing reads standard input.
    pub file: Option<PathBuf>,
    /// Print indented JSON instead of one line.
    #[arg(long)]
    pub pretty: bool,
    /// Escape every non-ASCII character as \uXXXX.
    #[arg(long)]
    pub ascii: bool,
    /// Print the repair log to standard error.
    #[arg(long)]
    pub log: bool,
    /// Format of the repair log: `human`, or `json` (one JSON object per line). Needs --log.
    #[arg(long, value_enum, default_value_t = LogFormat::Human, requires = "log")]
    pub log_format: LogFormat,
    /// How to report a failure: `human` (standard error), or `json` (JSON Lines on standard
    /// output, one object per schema violation or one for any other error).
    #[arg(long, value_enum, default_value_t = LogFormat::Human)]
    pub errors: LogFormat,
    /// Read the reply as it arrives (a pipe from `curl -N`, a model's stream) and print the
    /// value so far as JSON Lines (see --every), then the final value on the last line.
    #[arg(long, conflicts_with_all = ["pretty", "all"])]
    pub stream: bool,
    /// With --stream, when to print the value so far: when a value completed (`value`: the
    /// complete values only, never a string or number still being written), after each read
    /// (`chunk`), or when a line ended (`line`). A line is printed only when the value changed.
    #[arg(long, value_enum, default_value_t = Every::Value, requires = "stream")]
    pub every: Every,
    /// Every JSON value in the reply, as one array (no diagnostics record: it is one call's).
    #[arg(long, conflicts_with = "diagnostics")]
    pub all: bool,
    #[command(flatten)]
    pub policy: PolicyArgs,
}

/// When `repair --stream` prints the value so far.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Every {
    Chunk,
    Value,
    Line,
}

#[derive(Debug, Args)]
pub struct ValidateArgs {
    /// The reply to read; `-` or nothing reads standard input.
    pub file: Option<PathBuf>,
    /// How to report violations: `human` (standard error), or `json` (JSON Lines on standard
    /// output, one object per violation).
    #[arg(long, value_enum, default_value_t = LogFormat::Human)]
    pub errors: LogFormat,
    #[command(flatten)]
    pub policy: PolicyArgs,
}

#[derive(Debug, Args)]
pub struct ExtractArgs {
    /// The reply to read; `-` or nothing reads standard input.
    pub file: Option<PathBuf>,
    /// Every JSON value in the reply, one per line.
    #[arg(long)]
    pub all: bool,
    /// Write the diagnostics record (one JSON object) to FILE, or to standard error for `-`.
    #[arg(long, value_name = "FILE|-", conflicts_with = "all")]
    pub diagnostics: Option<PathBuf>,
    #[command(flatten)]
    pub read: ReadArgs,
}

/// Options shared by the commands that repair one reply (`repair`, `validate`).
#[derive(Debug, Args)]
pub struct PolicyArgs {
    #[command(flatten)]
    pub parse: ParseArgs,
    /// Write the diagnostics record (one JSON object) to FILE, or to standard error for `-`.
    #[arg(long, value_name = "FILE|-")]
    pub diagnostics: Option<PathBuf>,
    /// Exit 1 (the value still printed) when the reply was cut off and completed
    /// (`truncated`), or when anything was repaired (`repaired`, which includes truncation).
    #[arg(long, value_enum)]
    pub fail_on: Option<FailOn>,
}

/// How a reply is located and read: what every command that reads a reply takes (`extract`,
/// which repairs nothing, takes only these).
#[derive(Debug, Args)]
pub struct ReadArgs {
    /// How much may be repaired. `LLMJSON_REPAIR=0` in the environment forces `none`.
    #[arg(long, value_enum, default_value_t = LevelArg::Full)]
    pub level: LevelArg,
    /// Refuse a repair that discards more than this share (0–1) of the located JSON text.
    #[arg(long, default_value_t = llmjson::DEFAULT_MAX_REMOVED_RATIO, value_parser = ratio)]
    pub max_removed_ratio: f64,
    /// Which comments the safety guard counts as discarded data: `data` (members or values the
    /// model commented out; a prose note loses nothing when removed) or `all` (every comment).
    #[arg(long, value_enum, default_value_t = GuardCommentsArg::Data)]
    pub guard_comments: GuardCommentsArg,
    /// Refuse inputs larger than this many bytes.
    #[arg(long, default_value_t = llmjson::DEFAULT_MAX_SIZE)]
    pub max_size: usize,
    /// Refuse a reply whose bytes are not UTF-8 (error `invalid_utf8`, exit 1). Without it,
    /// bad bytes become U+FFFD, logged as an `invalid_utf8` repair and said on standard error.
    #[arg(long)]
    pub strict_utf8: bool,
    /// Refuse containers nested deeper than this (1 to 1024; default: serde_json's own limit).
    #[arg(long, default_value_t = llmjson::DEFAULT_MAX_DEPTH, value_parser = depth)]
    pub max_depth: usize,
}

/// How a reply is parsed: the library's options (every command that repairs, batch included).
#[derive(Debug, Args)]
pub struct ParseArgs {
    #[command(flatten)]
    pub read: ReadArgs,
    /// What to do with a value the reply cut off: complete it, or drop the last incomplete member.
    #[arg(long, value_enum, default_value_t = TruncationArg::Complete)]
    pub truncation: TruncationArg,
    /// Read `\frac`, `\beta` (and `\theta`, `\nabla`, … in a string that shows maths) as JSON's
    /// escapes (a form feed, a backspace, a tab, a line break), as RFC 8259 does, not as the
    /// LaTeX commands a model wrote with one backslash.
    #[arg(long)]
    pub no_latex: bool,
    /// What to do with a key that appears twice in an object.
    #[arg(long, value_enum, default_value_t = DuplicateArg::Last)]
    pub duplicate_keys: DuplicateArg,
    /// A JSON Schema file (drafts 7 and 2020-12): guides the repair, coerces the value to it,
    /// and refuses a value that does not fit.
    #[arg(long, value_name = "FILE")]
    pub schema: Option<PathBuf>,
    /// With a schema: `fit` coerces the value to it first (numeric strings to numbers, enum
    /// case, …); `validate-only` checks the value as repaired. Default: `fit` for repair,
    /// `validate-only` for validate (a validator reports what is there).
    #[arg(long, value_enum)]
    pub coercion: Option<CoercionArg>,
    /// With a schema: `drop` leaves out the array items that fail their item schema and
    /// returns the rest (each logged as `dropped_invalid_item`, with its violations, and in
    /// the diagnostics' `dropped_items`); the items count toward --max-removed-ratio, so a list
    /// that is mostly invalid still fails. `fail` (the default) refuses the reply.
    #[arg(long, value_enum, default_value_t = InvalidItemsArg::Fail)]
    pub invalid_items: InvalidItemsArg,
    /// With --evidence: verify the value's numbers against the evidence, last.
    #[command(flatten)]
    pub grounding: GroundingArgs,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum FailOn {
    Truncated,
    Repaired,
}

impl FailOn {
    /// Why `parsed` fails this check, if it does.
    pub fn refuses(self, parsed: &llmjson::Parsed) -> Option<&'static str> {
        match self {
            FailOn::Truncated if parsed.is_truncated() => {
                Some("the reply was cut off and completed (--fail-on truncated)")
            }
            FailOn::Repaired if parsed.is_repaired() => {
                Some("the reply needed repair (--fail-on repaired)")
            }
            _ => None,
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum CoercionArg {
    Fit,
    #[value(alias = "validate_only")]
    ValidateOnly,
}

fn depth(s: &str) -> Result<usize, String> {
    let d: usize = s
        .parse()
        .map_err(|_| format!("'{s}' is not a whole number"))?;
    if (1..=llmjson::MAX_DEPTH_CEILING).contains(&d) {
        Ok(d)
    } else {
        Err(format!(
            "{d} is not between 1 and {}",
            llmjson::MAX_DEPTH_CEILING
        ))
    }
}

fn ratio(s: &str) -> Result<f64, String> {
    let r: f64 = s.parse().map_err(|_| format!("'{s}' is not a number"))?;
    if (0.0..=1.0).contains(&r) {
        Ok(r)
    } else {
        Err(format!("{r} is not between 0 and 1"))
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum LogFormat {
    Human,
    Json,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum LevelArg {
    None,
    Conservative,
    Full,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum TruncationArg {
    Complete,
    Drop,
    #[value(alias = "drop_element")]
    DropElement,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum DuplicateArg {
    Last,
    First,
    Error,
}

impl PolicyArgs {
    /// The library options; reads and compiles the schema file, if any (a usage error if it
    /// cannot be read or is not a valid schema).
    pub fn options(&self) -> Result<Options, Failure> {
        self.parse.options_coercing(Coercion::Fit)
    }

    /// The library options, with `default` coercion unless `--coercion` says otherwise.
    pub fn options_coercing(&self, default: Coercion) -> Result<Options, Failure> {
        self.parse.options_coercing(default)
    }
}

impl ReadArgs {
    /// The library options these flags set (the others at their defaults).
    pub fn options(&self) -> Options {
        let level = if llmjson::repair_disabled_by_env() {
            RepairLevel::None
        } else {
            match self.level {
                LevelArg::None => RepairLevel::None,
                LevelArg::Conservative => RepairLevel::Conservative,
                LevelArg::Full => RepairLevel::Full,
            }
        };
        Options::default()
            .level(level)
            .max_removed_ratio(self.max_removed_ratio)
            .guard_comments(match self.guard_comments {
                GuardCommentsArg::Data => llmjson::GuardComments::Data,
                GuardCommentsArg::All => llmjson::GuardComments::All,
            })
            .max_size(self.max_size)
            .strict_utf8(self.strict_utf8)
            .max_depth(self.max_depth)
    }
}

impl ParseArgs {
    /// The library options, with `default` coercion unless `--coercion` says otherwise.
    pub fn options_coercing(&self, default: Coercion) -> Result<Options, Failure> {
        let options = self
            .read
            .options()
            .truncation(match self.truncation {
                TruncationArg::Complete => Truncation::Complete,
                TruncationArg::Drop => Truncation::Drop,
                TruncationArg::DropElement => Truncation::DropElement,
            })
            .latex(!self.no_latex)
            .invalid_items(match self.invalid_items {
                InvalidItemsArg::Fail => llmjson::InvalidItems::Fail,
                InvalidItemsArg::Drop => llmjson::InvalidItems::Drop,
            })
            .duplicate_keys(match self.duplicate_keys {
                DuplicateArg::Last => DuplicateKeys::Last,
                DuplicateArg::First => DuplicateKeys::First,
                DuplicateArg::Error => DuplicateKeys::Error,
            })
            .coercion(match self.coercion {
                Some(CoercionArg::Fit) => Coercion::Fit,
                Some(CoercionArg::ValidateOnly) => Coercion::ValidateOnly,
                None => default,
            });
        let options = if self.grounding.evidence.is_empty() {
            options
        } else {
            options
                .evidence(self.grounding.evidence()?)
                .verify(self.grounding.verify_options())
        };
        match &self.schema {
            None => Ok(options),
            Some(path) => {
                let text = std::fs::read_to_string(path).map_err(|e| {
                    Failure::Usage(format!("cannot read the schema {}: {e}", path.display()))
                })?;
                let schema = Schema::from_json(&text)
                    .map_err(|e| Failure::InvalidSchema(format!("{}: {e}", path.display())))?;
                Ok(options.schema(schema))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{parse_from, Cli, Refused};
    use clap::CommandFactory;

    /// A value clap accepts for `arg`: its default, its first possible value, or one for its
    /// value name.
    fn value_for(arg: &clap::Arg) -> Option<String> {
        if !arg.get_action().takes_values() {
            return None;
        }
        if let Some(default) = arg.get_default_values().first() {
            return Some(default.to_string_lossy().into_owned());
        }
        if let Some(first) = arg.get_possible_values().first() {
            return Some(first.get_name().to_string());
        }
        let name = arg
            .get_value_names()
            .and_then(|names| names.first())
            .map(|n| n.as_str().to_string());
        Some(
            match name.as_deref() {
                Some("URL") => "sqlite:runs.db",
                Some("RUN") => "last",
                Some("FILE|-") => "-",
                Some("ID" | "SECONDS") => "1",
                _ if arg.get_id() == "jobs" => "2",
                _ => "x.json",
            }
            .to_string(),
        )
    }

    /// What a command needs to run at all, and what a flag needs beside it to do something.
    fn needed(command: &str, flag: &str) -> Vec<&'static str> {
        let mut args = match command {
            "validate" => vec!["--schema", "s.json"],
            "verify" => vec!["--evidence", "e.txt"],
            "report" => vec!["--db", "sqlite:runs.db", "--out", "r.html"],
            _ => vec![],
        };
        let grounding = super::GROUNDING
            .iter()
            .any(|id| id.replace('_', "-") == flag);
        match flag {
            "log-format" => args.push("--log"),
            "every" => args.push("--stream"),
            "metrics-interval" => args.extend(["--metrics", "m.prom"]),
            "coercion" | "invalid-items" if command == "repair" => {
                args.extend(["--schema", "s.json"])
            }
            _ if grounding && matches!(command, "repair" | "validate") => {
                args.extend(["--evidence", "e.txt"])
            }
            _ => {}
        }
        args
    }

    #[test]
    fn every_command_refuses_every_flag_it_does_not_take_and_takes_its_own() {
        let cli = Cli::command();
        let mut flags: Vec<(String, Option<String>)> = cli
            .get_subcommands()
            .flat_map(|sub| sub.get_arguments())
            .filter_map(|arg| Some((arg.get_long()?.to_string(), value_for(arg))))
            .collect();
        flags.sort();
        flags.dedup_by(|a, b| a.0 == b.0);
        let mut checked = 0;
        for sub in cli.get_subcommands() {
            let command = sub.get_name();
            for (flag, value) in &flags {
                // A flag of the same name may take other values here (`--fail-on`).
                let own = sub.get_arguments().find(|a| a.get_long() == Some(flag));
                let owned = own.is_some();
                let value = own.map_or_else(|| value.clone(), value_for);
                let mut argv = vec!["llmjson".to_string(), command.to_string()];
                let needs = needed(command, if owned { flag } else { "" });
                // A needed flag that is the one tested is given once.
                let given_twice = needs.iter().position(|n| *n == format!("--{flag}"));
                let needs = match given_twice {
                    Some(at) => [&needs[..at], &needs[at + 2..]].concat(),
                    None => needs,
                };
                argv.extend(needs.into_iter().map(String::from));
                argv.push(format!("--{flag}"));
                argv.extend(value);
                match (owned, parse_from(&argv)) {
                    (true, Ok(_)) => {}
                    (false, Err(Refused::Clap(e)))
                        if e.kind() == clap::error::ErrorKind::UnknownArgument =>
                    {
                        let note = super::belongs_elsewhere(&e);
                        assert!(note.contains(&format!("--{flag} belongs to")), "{argv:?}");
                    }
                    (owned, result) => panic!("{argv:?} (takes it: {owned}): {result:?}"),
                }
                checked += 1;
            }
        }
        assert!(checked > 200, "{checked}");
    }

    #[test]
    fn a_flag_that_needs_another_is_refused_without_it() {
        for argv in [
            &["repair", "--report-only"][..],
            &["repair", "--locale", "de"],
            &["validate", "--schema", "s.json", "--small-counts", "3"],
            &["repair", "--coercion", "validate-only"],
            &["repair", "--invalid-items", "drop"],
            &["verify"],
            &["validate"],
        ] {
            let argv: Vec<&str> = std::iter::once("llmjson")
                .chain(argv.iter().copied())
                .collect();
            match parse_from(&argv) {
                Err(Refused::Idle(message)) => {
                    assert!(message.contains("--"), "{argv:?}: {message}")
                }
                other => panic!("{argv:?}: {other:?}"),
            }
        }
        // A batch's records may carry their own evidence and schema: the flags stand alone.
        assert!(parse_from(["llmjson", "batch", "--report-only", "--coercion", "fit"]).is_ok());
    }

    #[test]
    fn extract_refuses_what_only_a_repair_or_a_check_uses() {
        for flag in [
            "--report-only",
            "--fail-closed",
            "--locale=en",
            "--language=en",
            "--check-years",
            "--small-counts=3",
            "--max-evidence=9",
            "--invalid-items=drop",
            "--truncation=drop",
            "--no-latex",
            "--duplicate-keys=error",
            "--schema=s.json",
            "--evidence=e.txt",
            "--fail-on=repaired",
            "--percent-fraction",
        ] {
            let result = parse_from(["llmjson", "extract", flag]);
            assert!(
                matches!(&result, Err(Refused::Clap(e)) if e.kind() == clap::error::ErrorKind::UnknownArgument),
                "{flag}: {result:?}"
            );
        }
    }
}
