//! Retry with feedback, driven by a scripted fake model (a list of replies).

use llmjson::retry::{retry, Failure, Reply, RetryError};
use llmjson::{Options, Schema};

const PLAN: &str = r#"{
  "type": "object",
  "properties": {
    "steps": {"type": "array", "minItems": 1, "items": {
      "type": "object",
      "properties": {"id": {"type": "string"}, "tool": {"enum": ["python", "shell"]}},
      "required": ["id", "tool"], "additionalProperties": false}}
  },
  "required": ["steps"], "additionalProperties": false
}"#;

fn options() -> Options {
    Options::default().schema(Schema::from_json(PLAN).unwrap())
}

/// A fake model: answers from the script, and records the feedback it was given.
struct FakeModel {
    replies: std::vec::IntoIter<Reply>,
    feedback: Vec<Option<String>>,
}

impl FakeModel {
    fn new(replies: Vec<Reply>) -> Self {
        FakeModel {
            replies: replies.into_iter(),
            feedback: Vec::new(),
        }
    }

    fn answer(&mut self, feedback: Option<&llmjson::retry::Feedback>) -> Result<Reply, String> {
        self.feedback.push(feedback.map(|f| f.message.clone()));
        self.replies
            .next()
            .ok_or_else(|| "script exhausted".to_string())
    }
}

#[test]
fn succeeds_on_the_second_attempt_after_a_schema_error() {
    let mut model = FakeModel::new(vec![
        r#"{"steps": [{"id": "s1", "tool": "perl"}]}"#.into(),
        r#"{"steps": [{"id": "s1", "tool": "python"}]}"#.into(),
    ]);
    let done = retry(&options(), 3, |f| model.answer(f)).unwrap();
    assert_eq!(done.parsed.value["steps"][0]["tool"], "python");
    assert_eq!(done.attempts.len(), 2);
    assert_eq!(model.feedback[0], None, "the first call has no feedback");
    let first = model.feedback[1].as_deref().unwrap();
    assert_eq!(
        first,
        "Attempt 1 of 3 failed. Your JSON does not match the required schema:\n\
         - /steps/0/tool: 'perl' is not one of 'python', 'shell'\n\
         Reply with the corrected JSON only."
    );
    let failed = &done.attempts[0];
    assert_eq!(failed.feedback.as_ref().unwrap().failure, Failure::Schema);
    assert_eq!(failed.error.as_ref().unwrap().kind(), "schema");
    assert!(done.attempts[1].feedback.is_none());
}

#[test]
fn feedback_is_built_from_each_attempts_own_errors_and_never_repeats() {
    let mut model = FakeModel::new(vec![
        "Sure, here is the plan!".into(),
        r#"{"steps": [{"id": "s1", "tool": "perl"}]}"#.into(),
        r#"{"steps": [{"id": "s1", "tool": "ruby"}]}"#.into(),
        r#"{"steps": []}"#.into(),
    ]);
    let err = retry(&options(), 4, |f| model.answer(f)).unwrap_err();
    let messages: Vec<&str> = model.feedback[1..]
        .iter()
        .map(|m| m.as_deref().unwrap())
        .collect();
    assert!(messages[0].contains("no JSON"), "{}", messages[0]);
    assert!(
        messages[1].contains("'perl' is not one of"),
        "{}",
        messages[1]
    );
    assert!(
        messages[2].contains("'ruby' is not one of"),
        "{}",
        messages[2]
    );
    assert!(messages[2].ends_with("(The previous attempt failed the same way.)"));
    for pair in messages.windows(2) {
        assert_ne!(pair[0], pair[1]);
    }
    // Exhausted: the last reply and every attempt's error are kept.
    let RetryError::Exhausted { attempts } = &err else {
        panic!("{err}");
    };
    assert_eq!(attempts.len(), 4);
    assert_eq!(err.last_reply(), Some(r#"{"steps": []}"#));
    assert!(err
        .to_string()
        .starts_with("no usable JSON after 4 attempts; last: "));
    assert!(attempts.iter().all(|a| a.error.is_some()));
}

#[test]
fn identical_failures_still_get_different_feedback() {
    let bad = r#"{"steps": [{"id": "s1", "tool": "perl"}]}"#;
    let mut model = FakeModel::new(vec![bad.into(), bad.into(), bad.into()]);
    let _ = retry(&options(), 3, |f| model.answer(f));
    assert_ne!(model.feedback[1], model.feedback[2]);
}

#[test]
fn a_cut_off_reply_gets_token_limit_advice() {
    // Cut inside a string: the completed plan lacks the required "tool".
    let mut model = FakeModel::new(vec![
        r#"{"steps": [{"id": "s1", "tool": "python"}, {"id": "s2"#.into(),
        r#"{"steps": [{"id": "s1", "tool": "python"}]}"#.into(),
    ]);
    let done = retry(&options(), 2, |f| model.answer(f)).unwrap();
    let feedback = done.attempts[0].feedback.as_ref().unwrap();
    assert_eq!(feedback.failure, Failure::Truncated);
    assert!(feedback.message.contains("cut off"), "{}", feedback.message);
    assert!(feedback
        .advice
        .as_deref()
        .unwrap()
        .contains("raise the limit (max_tokens) or ask for less"));
    assert!(!feedback
        .message
        .contains("does not match the required schema"));
}

#[test]
fn the_caller_can_say_the_model_hit_its_token_limit() {
    // The JSON is complete but wrong; the caller knows the model stopped at the limit.
    let mut model = FakeModel::new(vec![
        Reply::cut_off(r#"{"steps": []}"#),
        r#"{"steps": [{"id": "s1", "tool": "shell"}]}"#.into(),
    ]);
    let done = retry(&options(), 2, |f| model.answer(f)).unwrap();
    assert_eq!(
        done.attempts[0].feedback.as_ref().unwrap().failure,
        Failure::Truncated
    );
}

#[test]
fn the_budget_is_respected() {
    let mut calls = 0;
    let err = retry(&options(), 2, |_| {
        calls += 1;
        Ok::<_, String>("no json here".to_string())
    })
    .unwrap_err();
    assert_eq!(calls, 2);
    assert_eq!(err.attempts().len(), 2);
    // A budget of zero still makes one attempt.
    let mut calls = 0;
    let _ = retry(&options(), 0, |_| {
        calls += 1;
        Ok::<_, String>("{}".to_string())
    });
    assert_eq!(calls, 1);
}

#[test]
fn a_generator_error_stops_the_loop_with_the_attempts_so_far() {
    let mut model = FakeModel::new(vec!["not json".into()]);
    let err = retry(&options(), 5, |f| model.answer(f)).unwrap_err();
    match err {
        RetryError::Generator { error, attempts } => {
            assert_eq!(error, "script exhausted");
            assert_eq!(attempts.len(), 1);
        }
        other => panic!("{other}"),
    }
}

#[test]
fn syntax_feedback_names_line_column_and_shows_the_spot() {
    let strict = Options::strict().schema(Schema::from_json(PLAN).unwrap());
    let mut model = FakeModel::new(vec![
        "{\"steps\": [\n  {'id': 's1'}\n]}".into(),
        r#"{"steps": [{"id": "s1", "tool": "shell"}]}"#.into(),
    ]);
    retry(&strict, 2, |f| model.answer(f)).unwrap();
    let message = model.feedback[1].as_deref().unwrap();
    assert!(
        message.starts_with("Attempt 1 of 2 failed. Your reply is not valid JSON: "),
        "{message}"
    );
    assert!(message.contains("at line 2 column 4"), "{message}");
    assert!(message.contains("{'id': 's1'}\n   ^"), "{message}");
}

/// Seed 002: code with unescaped quotes in a string value. When that makes the attempt fail
/// (here at level conservative), the failure is an escaping failure, read from the reply's own
/// repair log, and the feedback and the envelope name the escaping rule and the places.
#[test]
fn an_escaping_failure_is_diagnosed_from_the_reply_and_enveloped() {
    let reply = "{\"path\": \"a.py\", \"content\": \"print(\"hi\")\n\", \"n\": 1}";
    let options = llmjson::Options::default().level(llmjson::RepairLevel::Conservative);
    let error = llmjson::parse(reply, &options).unwrap_err();
    let diagnosis = llmjson::retry::diagnose(&reply.into(), &options, &error);
    assert_eq!(diagnosis.failure, llmjson::retry::Failure::Escaping);
    assert!(!diagnosis.escaping.is_empty());
    let (feedback, _) = diagnosis.feedback(&error);
    assert!(feedback.contains(r#"a double quote as \""#), "{feedback}");
    assert!(feedback.contains(r"a newline as \n"), "{feedback}");
    assert!(feedback.contains("line 1 column"), "{feedback}");
    let envelope = diagnosis.envelope(&error, "req-1");
    let json = serde_json::to_value(&envelope).unwrap();
    assert_eq!(json["status"], "FAIL");
    assert!(json["summary"]
        .as_str()
        .unwrap()
        .starts_with("invalid JSON — probably an escaping problem"));
    assert!(json["next_actions"][0]
        .as_str()
        .unwrap()
        .contains("escaping rule"));
    assert_eq!(json["request_id"], "req-1");
    for key in ["status", "summary", "errors", "next_actions", "request_id"] {
        assert!(json.get(key).is_some(), "{key}");
    }
    // A failure with nothing to escape keeps its own kind.
    let cut = llmjson::parse("{\"a\": [1, 2", &llmjson::Options::strict()).unwrap_err();
    let envelope = llmjson::retry::Failure::envelope(
        &"{\"a\": [1, 2".into(),
        &llmjson::Options::strict(),
        &cut,
    );
    assert_eq!(envelope.failure, llmjson::retry::Failure::Truncated);
    assert!(envelope.next_actions[0].contains("token limit"));
    assert_eq!(envelope.request_id.len(), 36);
}
