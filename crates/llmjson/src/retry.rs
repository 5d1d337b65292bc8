//! Retry with feedback: ask the model again, telling it exactly what was wrong with its reply.
//!
//! The loop calls a generator (the caller's code that prompts the model) with `None` first, then
//! with the [`Feedback`] built from the previous attempt's specific errors: line, column and
//! excerpt for syntax; paths and messages for schema violations. Feedback always names the
//! attempt, so no two retries send the same text. A reply cut off by the token limit is its own
//! outcome, with advice to raise the limit or ask for less, not a generic "fix your JSON".

use crate::{parse, Error, Options, Parsed, Repair, RepairKind};
use std::fmt;

/// A model's reply, and whether the caller knows it stopped at its output token limit (for
/// example `finish_reason == "length"`). A `String` converts into a reply without that flag.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Reply {
    /// The reply's text.
    pub text: String,
    /// The model stopped because it hit its output token limit.
    pub hit_token_limit: bool,
}

impl Reply {
    /// A reply that stopped at the token limit.
    pub fn cut_off(text: impl Into<String>) -> Self {
        Reply {
            text: text.into(),
            hit_token_limit: true,
        }
    }
}

impl From<String> for Reply {
    fn from(text: String) -> Self {
        Reply {
            text,
            hit_token_limit: false,
        }
    }
}

impl From<&str> for Reply {
    fn from(text: &str) -> Self {
        Reply::from(text.to_string())
    }
}

/// Why an attempt failed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Failure {
    /// The reply was cut off (it ended inside a string, object or array, or the model hit its
    /// token limit) and what remained did not give a usable value.
    Truncated,
    /// The reply was empty.
    Empty,
    /// The reply held no JSON.
    NoJson,
    /// The JSON had a defect the repair level does not repair.
    Syntax,
    /// The repair would have discarded too much (the safety guard).
    RepairRejected,
    /// The JSON does not fit the schema.
    Schema,
    /// The JSON is invalid because strings hold characters they should have escaped (a `"` in
    /// code, a raw newline or tab, a lone backslash): read from the reply's own repair log.
    Escaping,
    /// Anything else (too large, too deep, duplicate keys, …).
    Other,
}

impl Failure {
    /// The stable snake_case name.
    pub fn as_str(self) -> &'static str {
        match self {
            Failure::Truncated => "truncated",
            Failure::Empty => "empty",
            Failure::NoJson => "no_json",
            Failure::Syntax => "syntax",
            Failure::RepairRejected => "repair_rejected",
            Failure::Schema => "schema",
            Failure::Escaping => "escaping",
            Failure::Other => "other",
        }
    }
}

/// What went wrong with one attempt, and the message sent to the model about it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Feedback {
    /// The attempt this feedback is about (1-based).
    pub attempt: usize,
    /// Why it failed.
    pub failure: Failure,
    /// The message for the model: what was wrong, specifically, and what to do.
    pub message: String,
    /// Advice for the caller (not the model), when the fix is on the caller's side: for a
    /// truncated reply, raise the output token limit or ask for less.
    pub advice: Option<String>,
}

impl fmt::Display for Feedback {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

/// One attempt's record.
#[derive(Debug)]
pub struct Attempt {
    /// The reply as the model wrote it.
    pub reply: String,
    /// Why it failed; `None` for the attempt that succeeded.
    pub feedback: Option<Feedback>,
    /// The error the parse returned, if it failed.
    pub error: Option<Error>,
}

/// The loop's success: the value and every attempt's record (the last one succeeded).
#[derive(Debug)]
pub struct Success {
    /// The parsed (repaired, coerced, validated) value of the successful attempt.
    pub parsed: Parsed,
    /// Every attempt, in order.
    pub attempts: Vec<Attempt>,
}

/// The loop's failure.
#[derive(Debug, thiserror::Error)]
pub enum RetryError<E> {
    /// Every attempt in the budget failed. The last reply and every attempt's errors are kept.
    #[error("no usable JSON after {} attempts; last: {}", .attempts.len(), last_message(.attempts))]
    Exhausted {
        /// Every attempt, in order.
        attempts: Vec<Attempt>,
    },
    /// The generator itself failed (the model call errored); the attempts so far are kept.
    #[error("the generator failed after {} attempts: {error}", .attempts.len())]
    Generator {
        /// The generator's error.
        error: E,
        /// The attempts before it.
        attempts: Vec<Attempt>,
    },
}

impl<E> RetryError<E> {
    /// Every attempt made.
    pub fn attempts(&self) -> &[Attempt] {
        match self {
            RetryError::Exhausted { attempts } | RetryError::Generator { attempts, .. } => attempts,
        }
    }

    /// The last reply the model gave, if any.
    pub fn last_reply(&self) -> Option<&str> {
        self.attempts().last().map(|a| a.reply.as_str())
    }
}

fn last_message(attempts: &[Attempt]) -> String {
    attempts
        .last()
        .and_then(|a| a.error.as_ref())
        .map_or_else(String::new, ToString::to_string)
}

/// Calls `generate` until its reply parses (and fits the schema in `options`, if any), at most
/// `max_attempts` times. The first call gets `None`; every later call gets the feedback about the
/// previous reply.
///
/// ```
/// use llmjson::{Options, Schema};
/// use llmjson::retry::retry;
/// let schema = Schema::new(serde_json::json!({
///     "type": "object", "required": ["tool"],
///     "properties": {"tool": {"enum": ["python", "shell"]}}
/// }))?;
/// let options = Options::default().schema(schema);
/// let mut replies = vec!["{\"tool\": \"perl\"}", "{\"tool\": \"python\"}"].into_iter();
/// let done = retry(&options, 3, |feedback| {
///     if let Some(f) = feedback {
///         assert!(f.message.contains("/tool: 'perl' is not one of 'python', 'shell'"));
///     }
///     Ok::<_, std::convert::Infallible>(replies.next().unwrap_or_default())
/// })
/// .unwrap();
/// assert_eq!(done.parsed.value["tool"], "python");
/// assert_eq!(done.attempts.len(), 2);
/// # Ok::<(), llmjson::Error>(())
/// ```
///
/// # Errors
/// [`RetryError::Exhausted`] when every attempt failed, [`RetryError::Generator`] when the
/// generator returned an error.
pub fn retry<R, E, G>(
    options: &Options,
    max_attempts: usize,
    mut generate: G,
) -> Result<Success, RetryError<E>>
where
    R: Into<Reply>,
    G: FnMut(Option<&Feedback>) -> Result<R, E>,
{
    let mut attempts: Vec<Attempt> = Vec::new();
    for number in 1..=max_attempts.max(1) {
        let previous = attempts.last().and_then(|a| a.feedback.as_ref());
        let reply: Reply = match generate(previous) {
            Ok(reply) => reply.into(),
            Err(error) => return Err(RetryError::Generator { error, attempts }),
        };
        match parse(&reply.text, options) {
            Ok(parsed) => {
                attempts.push(Attempt {
                    reply: reply.text,
                    feedback: None,
                    error: None,
                });
                return Ok(Success { parsed, attempts });
            }
            Err(error) => {
                let feedback =
                    feedback_for(number, max_attempts, &reply, &error, options, previous);
                attempts.push(Attempt {
                    reply: reply.text,
                    feedback: Some(feedback),
                    error: Some(error),
                });
            }
        }
    }
    Err(RetryError::Exhausted { attempts })
}

/// Schema errors listed in feedback, at most.
const LISTED_ERRORS: usize = 10;

/// The feedback for a failed attempt, from its own errors: `Attempt N of M failed.`, then
/// [`feedback_body`], then a note if the previous attempt failed the same way.
pub fn feedback_for(
    attempt: usize,
    budget: usize,
    reply: &Reply,
    error: &Error,
    options: &Options,
    previous: Option<&Feedback>,
) -> Feedback {
    let diagnosis = diagnose(reply, options, error);
    let (body, advice) = diagnosis.feedback(error);
    let failure = diagnosis.failure;
    let repeated = previous.is_some_and(|p| p.failure == failure);
    Feedback {
        attempt,
        failure,
        message: feedback_message(attempt, budget, &body, repeated),
        advice,
    }
}

/// The feedback text: the attempt, what was wrong ([`feedback_body`]), and whether the previous
/// attempt failed the same way. Numbered, so no two attempts get the same text.
pub fn feedback_message(attempt: usize, budget: usize, body: &str, repeated: bool) -> String {
    let mut message = format!("Attempt {attempt} of {budget} failed. {body}");
    if repeated {
        message.push_str(" (The previous attempt failed the same way.)");
    }
    message
}

/// Why a parse failed, as the retry loop sees it (`hit_token_limit`: the caller knows the model
/// stopped at its output limit).
pub fn failure_of(error: &Error, hit_token_limit: bool) -> Failure {
    if hit_token_limit || error_is_truncation(error) {
        return Failure::Truncated;
    }
    match error {
        Error::Empty => Failure::Empty,
        Error::NoJson { .. } => Failure::NoJson,
        Error::Syntax(_) => Failure::Syntax,
        Error::RepairRejected { .. } => Failure::RepairRejected,
        Error::Schema { .. } => Failure::Schema,
        _ => Failure::Other,
    }
}

/// What to tell the model about a failure (specific: positions, excerpts, paths), and advice
/// for the caller when the fix is theirs (a truncated reply: raise the token limit).
pub fn feedback_body(failure: Failure, error: &Error) -> (String, Option<String>) {
    match (failure, error) {
        (Failure::Truncated, _) => {
            let place = match error.position() {
                Some(p) if p.line > 0 => format!(" at line {} column {}", p.line, p.column),
                _ => String::new(),
            };
            (
                format!(
                    "Your reply was cut off{place} before the JSON was complete: it is too long \
                     for the output limit. Reply with the complete JSON only, shorter: no prose, \
                     no comments, no repeated content."
                ),
                Some(
                    "The model stopped at its output token limit: raise the limit (max_tokens) \
                     or ask for less content per call."
                        .to_string(),
                ),
            )
        }
        (Failure::Escaping, _) => (escaping_feedback(&[]), None),
        (_, Error::Schema { errors, .. }) => {
            let lines: Vec<String> = errors.iter().map(ToString::to_string).collect();
            (schema_feedback(&lines), None)
        }
        (_, Error::Syntax(syntax)) => (
            format!(
                "Your reply is not valid JSON: {} at line {} column {}:\n{}\nReply with the \
                 corrected JSON only.",
                syntax.message, syntax.position.line, syntax.position.column, syntax.excerpt
            ),
            None,
        ),
        (_, Error::Empty) => (
            "Your reply was empty. Reply with the JSON object only.".to_string(),
            None,
        ),
        (_, Error::NoJson { hint }) => (
            format!(
                "Your reply contained no JSON{}. Reply with the JSON only, in a ```json block.",
                hint.as_deref()
                    .map(|h| format!(" ({h})"))
                    .unwrap_or_default()
            ),
            None,
        ),
        (_, Error::RepairRejected { .. }) => (
            "Most of your reply was not JSON (comments or stray text). Reply with the JSON \
             only, without comments."
                .to_string(),
            None,
        ),
        (_, other) => (
            format!("Your reply could not be used: {other}. Reply with the corrected JSON only."),
            None,
        ),
    }
}

/// Feedback for schema violations given as `path: message` lines (the Python binding uses it
/// for Pydantic's errors too, so both read the same).
pub fn schema_feedback(violations: &[String]) -> String {
    let mut lines: Vec<String> = violations
        .iter()
        .take(LISTED_ERRORS)
        .map(|e| format!("- {e}"))
        .collect();
    if violations.len() > LISTED_ERRORS {
        lines.push(format!("- and {} more", violations.len() - LISTED_ERRORS));
    }
    format!(
        "Your JSON does not match the required schema:\n{}\nReply with the corrected JSON only.",
        lines.join("\n")
    )
}

/// The parse failed because the reply ended early: a syntax error at the end of the input, or
/// a schema error on a value that had to be completed.
fn error_is_truncation(error: &Error) -> bool {
    match error {
        Error::Syntax(syntax) => syntax.truncated,
        Error::Schema { truncated, .. } => *truncated,
        _ => false,
    }
}

/// The rule a model breaks when its strings hold code, paths or quotations unescaped.
pub const ESCAPING_RULE: &str = "inside a JSON string, write a double quote as \\\", a newline \
     as \\n, a backslash as \\\\ and a tab as \\t";

/// Feedback for an escaping failure: the rule, and where the reply broke it.
pub fn escaping_feedback(defects: &[Repair]) -> String {
    let mut places: Vec<String> = defects
        .iter()
        .take(LISTED_ERRORS)
        .map(|r| {
            let path = if r.path.is_empty() { "(root)" } else { &r.path };
            format!(
                "- line {} column {} ({path}): {}",
                r.line,
                r.column,
                escaping_defect(r.kind)
            )
        })
        .collect();
    if defects.len() > LISTED_ERRORS {
        places.push(format!("- and {} more", defects.len() - LISTED_ERRORS));
    }
    let places = if places.is_empty() {
        String::new()
    } else {
        format!(" Where:\n{}\n", places.join("\n"))
    };
    format!(
        "Your reply is not valid JSON: string values hold characters that must be escaped \
         ({ESCAPING_RULE}).{places} Reply with the corrected JSON only."
    )
}

fn escaping_defect(kind: RepairKind) -> &'static str {
    match kind {
        RepairKind::UnescapedQuote => "an unescaped double quote",
        RepairKind::ControlCharacter => "a raw newline, tab or control character",
        RepairKind::InvalidEscape => "a backslash that starts no valid escape",
        RepairKind::InvalidUnicodeEscape => "an invalid \\u escape",
        _ => "a character to escape",
    }
}

/// Why a reply failed, read from the reply itself as well as from the error.
#[derive(Debug, Clone, PartialEq)]
pub struct Diagnosis {
    /// The failure.
    pub failure: Failure,
    /// For an escaping failure, where the reply's strings hold what they should have escaped
    /// (the repair log of the reply read with every repair).
    pub escaping: Vec<Repair>,
}

/// Diagnoses a failed reply: [`failure_of`], except that a syntax error, a refused repair or
/// "no JSON" whose reply, read with every repair, shows strings holding unescaped quotes, raw
/// control characters or invalid escapes is an escaping failure.
pub fn diagnose(reply: &Reply, options: &Options, error: &Error) -> Diagnosis {
    let failure = failure_of(error, reply.hit_token_limit);
    if !matches!(
        failure,
        Failure::Syntax | Failure::RepairRejected | Failure::NoJson
    ) {
        return Diagnosis {
            failure,
            escaping: Vec::new(),
        };
    }
    let mut full = Options::default()
        .max_size(options.max_size)
        .max_depth(options.max_depth)
        .max_removed_ratio(1.0);
    full.truncation = options.truncation;
    let escaping: Vec<Repair> = match parse(&reply.text, &full) {
        Ok(parsed) => parsed
            .repairs
            .into_iter()
            .filter(|r| r.kind.is_escaping())
            .collect(),
        Err(_) => Vec::new(),
    };
    Diagnosis {
        failure: if escaping.is_empty() {
            failure
        } else {
            Failure::Escaping
        },
        escaping,
    }
}

impl Diagnosis {
    /// The feedback for the model and the advice for the caller ([`feedback_body`], with the
    /// escaping places when that is the failure).
    pub fn feedback(&self, error: &Error) -> (String, Option<String>) {
        match self.failure {
            Failure::Escaping => (escaping_feedback(&self.escaping), None),
            failure => feedback_body(failure, error),
        }
    }

    /// The failure envelope (`{"status": "FAIL", …}`) for `error`, under `request_id`.
    pub fn envelope(&self, error: &Error, request_id: impl Into<String>) -> Envelope {
        let errors: Vec<String> = match (self.failure, error) {
            (Failure::Escaping, _) => self
                .escaping
                .iter()
                .map(|r| format!("{}:{} {}", r.line, r.column, escaping_defect(r.kind)))
                .collect(),
            (_, Error::Schema { errors, .. }) => errors.iter().map(ToString::to_string).collect(),
            (_, other) => vec![other.to_string()],
        };
        let summary = match (self.failure, error) {
            (Failure::Escaping, _) => format!(
                "invalid JSON — probably an escaping problem: {} place(s) in string values hold \
                 characters that must be escaped",
                self.escaping.len()
            ),
            (Failure::Truncated, _) => {
                "the reply was cut off before the JSON was complete (output token limit)".into()
            }
            (Failure::Empty, _) => "empty response".into(),
            (Failure::NoJson, _) => "no JSON in the response".into(),
            (Failure::Syntax, Error::Syntax(s)) => format!(
                "invalid JSON: {} at line {} column {}",
                s.message, s.position.line, s.position.column
            ),
            (Failure::RepairRejected, _) => {
                "the repair would discard too much of the reply (the safety guard)".into()
            }
            (Failure::Schema, Error::Schema { errors, .. }) => {
                format!(
                    "the JSON does not fit the schema ({} violations)",
                    errors.len()
                )
            }
            (_, other) => other.to_string(),
        };
        let (feedback, advice) = self.feedback(error);
        let mut next_actions = Vec::new();
        match self.failure {
            Failure::Escaping => next_actions.push(format!(
                "retry with feedback naming the escaping rule ({ESCAPING_RULE})"
            )),
            Failure::Truncated => next_actions.push(
                "raise the output token limit (max_tokens) or ask for less content, then retry"
                    .to_string(),
            ),
            Failure::Schema => next_actions.push(
                "retry with the schema violations as feedback (a different prompt each time)"
                    .to_string(),
            ),
            Failure::Other => next_actions.push("check the input and the options".to_string()),
            _ => next_actions.push("retry with the feedback (a different prompt each time)".into()),
        }
        if let Some(advice) = advice {
            next_actions.push(advice);
        }
        Envelope {
            status: "FAIL",
            summary,
            failure: self.failure,
            errors,
            next_actions,
            feedback,
            request_id: request_id.into(),
        }
    }
}

/// What a pipeline returns when nothing worked: the `FAIL` envelope, as one JSON object.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Envelope {
    /// Always `FAIL`.
    pub status: &'static str,
    /// One line: what went wrong ("invalid JSON — probably an escaping problem: …").
    pub summary: String,
    /// The failure's stable name.
    pub failure: Failure,
    /// Each error: violations, escaping places, or the error's message.
    pub errors: Vec<String>,
    /// What to do next (retry with which feedback, raise which limit).
    pub next_actions: Vec<String>,
    /// The feedback a retry would send the model.
    pub feedback: String,
    /// The call's request id.
    pub request_id: String,
}

impl Failure {
    /// The envelope for a failed `reply` (diagnosed with [`diagnose`]), under a fresh UUID v4.
    pub fn envelope(reply: &Reply, options: &Options, error: &Error) -> Envelope {
        diagnose(reply, options, error).envelope(error, uuid::Uuid::new_v4().to_string())
    }
}
