//! Any bytes, cut into chunks of any sizes (the first bytes choose them), streamed: no panic,
//! and `finish` gives what `parse_bytes` gives for the whole input — with events read after every
//! chunk, and with events left unread until a chunk the first byte chooses (they are made from
//! the tree then) or until the end.
#![no_main]
use libfuzzer_sys::fuzz_target;
use llmjson::{Options, RepairLevel, StreamParser};

fuzz_target!(|data: &[u8]| {
    let Some((&sizes, input)) = data.split_first() else { return };
    for level in [RepairLevel::None, RepairLevel::Full] {
        let options = Options::default().level(level);
        let mut stream = StreamParser::new(options.clone());
        let mut at = 0;
        let mut step = usize::from(sizes % 17) + 1;
        let mut failed = false;
        // Events first asked at this chunk (past the end: only by `finish_with_events`).
        let first_ask = usize::from(sizes / 17) % 8;
        let mut chunk = 0;
        while at < input.len() {
            let end = (at + step).min(input.len());
            if stream.feed_bytes(&input[at..end]).is_err() {
                failed = true;
                break;
            }
            let snapshot = stream.snapshot();
            // The value kept up to date in place is the snapshot's.
            assert_eq!(stream.live().value(), snapshot.value.as_ref());
            if chunk >= first_ask {
                let _ = stream.events();
            }
            chunk += 1;
            at = end;
            step = step % 13 + 1;
        }
        let streamed = stream.finish_with_events().result;
        let whole = llmjson::parse_bytes(input, &options);
        match (&streamed, &whole) {
            (Ok(a), Ok(b)) => assert_eq!(a, b),
            (Err(a), Err(b)) => assert_eq!(a.kind(), b.kind()),
            _ => assert!(failed, "streamed {streamed:?} vs whole {whole:?}"),
        }
    }
});
