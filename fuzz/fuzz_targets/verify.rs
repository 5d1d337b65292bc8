//! The verify stage never panics and stays within its input: the first byte splits the data
//! into an answer and evidence (texts, and the same bytes as CSV and, when they parse, JSON),
//! verified under every locale; every reported span lies on character boundaries of the answer,
//! and every blocked number says why. The claim frames are built for both halves read as
//! evidence and as an answer (the layout reader: tables, lists, prose, dates, labels), and a
//! JSON answer is verified value by value.
#![no_main]
use libfuzzer_sys::fuzz_target;
use llmjson::verify::{verify, Evidence, Locale, VerifyOptions};

fuzz_target!(|data: &[u8]| {
    let Some((&split, rest)) = data.split_first() else { return };
    let at = (split as usize * rest.len()) / 256;
    let (answer, evidence) = rest.split_at(at);
    let (Ok(answer), Ok(evidence)) = (std::str::from_utf8(answer), std::str::from_utf8(evidence))
    else {
        return;
    };
    for locale in [Locale::Auto, Locale::En, Locale::Pt, Locale::Fr] {
        let mut ev = Evidence::with_locale(locale);
        ev.add_text("t", evidence).unwrap();
        let _ = ev.add_csv("c", evidence);
        if let Ok(value) = evidence.parse::<llmjson::Value>() {
            ev.add_json("j", &value).unwrap();
        }
        let options = VerifyOptions::default().locale(locale).fail_closed();
        let verdict = verify(answer, &ev, &options).unwrap();
        let v = &verdict.verification;
        assert_eq!(v.matched + v.unmatched, v.numbers_extracted);
        assert_eq!(v.verified, v.unmatched == 0 && !ev.is_empty());
        for n in &v.numbers {
            assert!(answer.is_char_boundary(n.at.span.start) && answer.is_char_boundary(n.at.span.end));
            assert!(n.at.span.start < n.at.span.end);
            assert_eq!(n.matched, n.at.reason.is_none());
        }
        if let Ok(value) = answer.parse::<llmjson::Value>() {
            let v = llmjson::verify::verify_value(&value, &ev, &options).unwrap();
            assert_eq!(v.matched + v.unmatched, v.numbers_extracted);
        }
    }
    // The frames of both halves, as evidence and as an answer.
    let ev = Evidence::new();
    let _ = llmjson::verify::explain(answer, true, &ev);
    let _ = llmjson::verify::explain(evidence, false, &ev);
});
