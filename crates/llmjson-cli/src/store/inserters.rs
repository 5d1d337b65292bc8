//! Inserts a run's chunks over several connections at once, and hands each chunk back once it
//! is committed, in the order the chunks came.
//!
//! A PostgreSQL server converts `jsonb` in one process per connection: one connection caps the
//! run at one core of the server, however many the machine has. Each connection gets its own
//! thread; chunk `i` goes to connection `i mod n`, and at most `n` chunks are in flight, so the
//! writer waiting for the oldest is what keeps the order (and bounds memory). Chunks may commit
//! out of order; [`super::Stored`] holds any set of stored records, so `--resume` is exact.
//! A chunk the store already holds (a resumed run writing it to its results file again) takes
//! its place in the order without a transaction.

use super::{Store, StoreError, StoreResult};
use llmjson_batch::{Processed, Rendered};
use std::collections::VecDeque;
use std::sync::mpsc;
use std::thread::JoinHandle;

/// The results of one chunk, as the writer hands them over.
#[derive(Debug)]
pub struct Chunk {
    pub results: Vec<(Processed, Rendered)>,
    /// The store holds them already: they are not inserted again.
    pub stored: bool,
}

/// A chunk handed back, with what its transaction did.
type Done = (Chunk, StoreResult<()>);

type Job = (Chunk, mpsc::SyncSender<Done>);

pub struct Inserters {
    /// One job queue per connection.
    queues: Vec<mpsc::Sender<Job>>,
    threads: Vec<JoinHandle<Box<dyn Store>>>,
    /// The chunks in flight, oldest first.
    in_flight: VecDeque<mpsc::Receiver<Done>>,
    submitted: usize,
}

impl Inserters {
    /// One thread per store (each its own connection); every chunk goes into `run`.
    pub fn start(stores: Vec<Box<dyn Store>>, run: i64) -> Self {
        let mut queues = Vec::with_capacity(stores.len());
        let mut threads = Vec::with_capacity(stores.len());
        for mut store in stores {
            let (queue, jobs) = mpsc::channel::<Job>();
            queues.push(queue);
            threads.push(std::thread::spawn(move || {
                for (chunk, reply) in jobs {
                    let result = store.insert(run, &chunk.results);
                    // The writer may have stopped waiting (an earlier chunk failed): the
                    // commit stands either way.
                    let _ = reply.send((chunk, result));
                }
                store
            }));
        }
        Inserters {
            queues,
            threads,
            in_flight: VecDeque::new(),
            submitted: 0,
        }
    }

    /// Hands a chunk to the next connection (one the store holds is done at once).
    pub fn submit(&mut self, chunk: Chunk) -> StoreResult<()> {
        let (reply, done) = mpsc::sync_channel(1);
        if chunk.stored {
            // The channel has room for this one message, and `done` is alive.
            let _ = reply.send((chunk, Ok(())));
            self.in_flight.push_back(done);
            return Ok(());
        }
        let queue = &self.queues[self.submitted % self.queues.len()];
        queue
            .send((chunk, reply))
            .map_err(|_| StoreError("the store's connection thread stopped".into()))?;
        self.in_flight.push_back(done);
        self.submitted += 1;
        Ok(())
    }

    /// Every connection has a chunk: the next submit would wait behind one.
    pub fn busy(&self) -> bool {
        self.in_flight.len() >= self.queues.len()
    }

    /// Waits for the oldest chunk in flight and hands it back once committed (`None` when none
    /// is in flight).
    pub fn oldest(&mut self) -> Option<StoreResult<Chunk>> {
        let done = self.in_flight.pop_front()?;
        Some(match done.recv() {
            Ok((chunk, Ok(()))) => Ok(chunk),
            Ok((_, Err(e))) => Err(e),
            Err(_) => Err(StoreError(
                "the store's connection thread stopped (it panicked)".into(),
            )),
        })
    }

    /// Lets every chunk in flight finish, closes the extra connections and returns the first
    /// store (to finish the run on), if its thread did not panic.
    pub fn finish(self) -> Option<Box<dyn Store>> {
        drop(self.queues);
        drop(self.in_flight);
        let mut stores = self.threads.into_iter().map(|t| t.join().ok());
        stores.next().flatten()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::{RunInfo, Stored, StoredResult};
    use std::sync::{Arc, Mutex};
    use std::time::Duration;

    /// (connection, first seq) of every chunk committed, in commit order.
    type Commits = Arc<Mutex<Vec<(usize, u64)>>>;

    /// A store that records the first seq of each chunk it commits; connection 0 waits for
    /// connection 1.
    struct Slow {
        connection: usize,
        committed: Commits,
        fail_on: Option<u64>,
    }

    impl Store for Slow {
        fn begin_run(&mut self, _: &str, _: &str) -> StoreResult<i64> {
            Ok(1)
        }
        fn run(&mut self, _: i64) -> StoreResult<Option<RunInfo>> {
            Ok(None)
        }
        fn latest_run(&mut self, _: bool) -> StoreResult<Option<i64>> {
            Ok(None)
        }
        fn stored(&mut self, _: i64) -> StoreResult<Stored> {
            Ok(Stored::default())
        }
        fn stamps(&mut self, _: i64, _: u64) -> StoreResult<Vec<crate::store::Stamp>> {
            Ok(Vec::new())
        }
        fn insert(&mut self, _: i64, results: &[(Processed, Rendered)]) -> StoreResult<()> {
            let first = results[0].0.seq;
            if self.connection == 0 {
                // Connection 0 commits only once connection 1 has: its chunks are overtaken.
                let waited = std::time::Instant::now();
                while !self.committed.lock().unwrap().iter().any(|&(c, _)| c == 1)
                    && waited.elapsed() < Duration::from_secs(10)
                {
                    std::thread::sleep(Duration::from_millis(1));
                }
            }
            if self.fail_on == Some(first) {
                return Err(StoreError(format!("disk full at {first}")));
            }
            self.committed
                .lock()
                .unwrap()
                .push((self.connection, first));
            Ok(())
        }
        fn finish_run(&mut self, _: i64, _: &str) -> StoreResult<()> {
            Ok(())
        }
        fn for_each_result(&mut self, _: i64, _: &mut dyn FnMut(StoredResult)) -> StoreResult<()> {
            Ok(())
        }
    }

    fn chunk(seq: u64) -> Chunk {
        let record = llmjson_batch::Record::from_file(seq, "x", b"{\"a\": 1}".to_vec());
        let processed = llmjson_batch::process(
            record,
            &llmjson_batch::Context::new(llmjson::Options::default()),
        );
        let rendered = processed.render();
        Chunk {
            results: vec![(processed, rendered)],
            stored: false,
        }
    }

    fn stores(n: usize, fail_on: Option<u64>) -> (Vec<Box<dyn Store>>, Commits) {
        let committed = Arc::new(Mutex::new(Vec::new()));
        let stores = (0..n)
            .map(|connection| {
                Box::new(Slow {
                    connection,
                    committed: Arc::clone(&committed),
                    fail_on,
                }) as Box<dyn Store>
            })
            .collect();
        (stores, committed)
    }

    #[test]
    fn chunks_come_back_in_order_though_they_commit_out_of_order() {
        let (stores, committed) = stores(2, None);
        let mut inserters = Inserters::start(stores, 1);
        let mut back = Vec::new();
        for seq in 0..6 {
            inserters.submit(chunk(seq)).unwrap();
            if inserters.busy() {
                back.push(inserters.oldest().unwrap().unwrap().results[0].0.seq);
            }
        }
        while let Some(done) = inserters.oldest() {
            back.push(done.unwrap().results[0].0.seq);
        }
        assert_eq!(back, [0, 1, 2, 3, 4, 5]);
        let committed = committed.lock().unwrap().clone();
        // Both connections worked, and the slow one's chunks were overtaken.
        assert!(committed.iter().any(|&(c, _)| c == 0));
        assert!(committed.iter().any(|&(c, _)| c == 1));
        assert_eq!(committed[0], (1, 1), "{committed:?}");
        assert!(inserters.finish().is_some());
    }

    #[test]
    fn a_chunk_the_store_holds_keeps_its_place_without_a_transaction() {
        let (stores, committed) = stores(2, None);
        let mut inserters = Inserters::start(stores, 1);
        for seq in 0..5 {
            let mut c = chunk(seq);
            c.stored = seq % 2 == 1;
            inserters.submit(c).unwrap();
        }
        let back: Vec<(u64, bool)> = std::iter::from_fn(|| inserters.oldest())
            .map(|done| {
                let c = done.unwrap();
                (c.results[0].0.seq, c.stored)
            })
            .collect();
        assert_eq!(
            back,
            [(0, false), (1, true), (2, false), (3, true), (4, false)]
        );
        assert!(inserters.finish().is_some());
        let mut seqs: Vec<u64> = committed.lock().unwrap().iter().map(|&(_, s)| s).collect();
        seqs.sort_unstable();
        assert_eq!(seqs, [0, 2, 4], "only the new chunks are inserted");
    }

    #[test]
    fn a_failed_chunk_is_reported_in_its_place_and_the_others_still_commit() {
        let (stores, committed) = stores(2, Some(2));
        let mut inserters = Inserters::start(stores, 1);
        for seq in 0..4 {
            inserters.submit(chunk(seq)).unwrap();
        }
        let results: Vec<_> = std::iter::from_fn(|| inserters.oldest()).collect();
        assert!(results[0].is_ok() && results[1].is_ok() && results[3].is_ok());
        assert_eq!(results[2].as_ref().unwrap_err().0, "disk full at 2");
        assert!(inserters.finish().is_some());
        let mut seqs: Vec<u64> = committed.lock().unwrap().iter().map(|&(_, s)| s).collect();
        seqs.sort_unstable();
        assert_eq!(seqs, [0, 1, 3]);
    }
}
