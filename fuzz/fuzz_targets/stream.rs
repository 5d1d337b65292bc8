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
            // (Bytes fed but not decoded yet: `snapshot` takes `&self` and reads them on a copy
            // of the text while the parser has not seen them, which `live` decodes first; the
            // two agree once both start from the same text, as the stream tests' `look` does.)
            let _ = stream.stats();
            let snapshot = stream.snapshot();
            // The value kept up to date in place is the snapshot's, and so is what it says is
            // done, malformed and provisional.
            let live = stream.live();
            assert_eq!(live.value(), snapshot.value.as_ref());
            assert_eq!(
                (live.done, live.malformed, live.provisional()),
                (snapshot.done, snapshot.malformed, snapshot.provisional.clone())
            );
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
