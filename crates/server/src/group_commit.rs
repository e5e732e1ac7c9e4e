//! Group commit: the accepted commands of every game go to one writer
//! task, which stores all that are waiting in one transaction.
//!
//! Why: each game stores its commands before it sends anything (durable
//! before acknowledged), and a durable commit costs a disk flush — from
//! 0.1 to 1.5 ms on the virtual machine we measure on, depending on the
//! day; at 1.5 ms one flush per command capped a SQLite server near 650
//! commands a second however many games ran. One
//! transaction for everything that arrived meanwhile shares the flush:
//! under load, groups grow instead of queues. A game still waits for its
//! own commands to be committed before it answers.

use citadel_store::{CommandRecord, Store, StoreError};
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::{mpsc, oneshot};

/// The longest one group's write may take. Past it the write is dropped
/// (and with it the database connection it was waiting on, which may be
/// stuck behind a silent partition) and its games hear of a failure; the
/// writer goes on with the next group instead of waiting for the kernel to
/// give up on the connection.
const WRITE_TIMEOUT: Duration = Duration::from_secs(5);

/// `store.append_commands(records)`, cut off after [`WRITE_TIMEOUT`].
async fn append_bounded(store: &dyn Store, records: &[CommandRecord]) -> Result<(), StoreError> {
    tokio::time::timeout(WRITE_TIMEOUT, store.append_commands(records))
        .await
        .unwrap_or_else(|_| {
            Err(StoreError::Backend(format!(
                "no answer within {} s",
                WRITE_TIMEOUT.as_secs()
            )))
        })
}

/// Most records in one transaction (bounds a transaction's size).
const MAX_GROUP_RECORDS: usize = 4096;

/// Jobs waiting for the writer; a full queue makes games wait their turn.
const QUEUE: usize = 8192;

struct Job {
    records: Vec<CommandRecord>,
    done: oneshot::Sender<Result<(), StoreError>>,
}

/// The handle games append through.
#[derive(Clone)]
pub struct GroupCommit {
    tx: mpsc::Sender<Job>,
}

impl std::fmt::Debug for GroupCommit {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("GroupCommit").finish_non_exhaustive()
    }
}

impl GroupCommit {
    /// Start the writer task for `store`. It ends when every handle is
    /// dropped.
    pub fn start(store: Arc<dyn Store>) -> Self {
        let (tx, rx) = mpsc::channel(QUEUE);
        tokio::spawn(writer(store, rx));
        GroupCommit { tx }
    }

    /// Store `records` (of one game) and return once they are committed,
    /// with the store's own error if they are not.
    ///
    /// # Errors
    /// The store's error for these records, or a backend error if the
    /// writer has stopped.
    pub async fn append(&self, records: Vec<CommandRecord>) -> Result<(), StoreError> {
        if records.is_empty() {
            return Ok(());
        }
        let (done, wait) = oneshot::channel();
        let stopped = || StoreError::Backend("the command writer has stopped".into());
        self.tx
            .send(Job { records, done })
            .await
            .map_err(|_| stopped())?;
        wait.await.unwrap_or_else(|_| Err(stopped()))
    }
}

async fn writer(store: Arc<dyn Store>, mut rx: mpsc::Receiver<Job>) {
    while let Some(first) = rx.recv().await {
        let mut size = first.records.len();
        let mut jobs = vec![first];
        while size < MAX_GROUP_RECORDS {
            match rx.try_recv() {
                Ok(job) => {
                    size += job.records.len();
                    jobs.push(job);
                }
                Err(_) => break,
            }
        }
        let all: Vec<CommandRecord> = jobs
            .iter()
            .flat_map(|j| j.records.iter().cloned())
            .collect();
        let started = std::time::Instant::now();
        let result = append_bounded(store.as_ref(), &all).await;
        tracing::debug!(
            games = jobs.len(),
            records = all.len(),
            micros = started.elapsed().as_micros() as u64,
            "group commit"
        );
        match result {
            Ok(()) => {
                for job in jobs {
                    let _ = job.done.send(Ok(()));
                }
            }
            Err(e) if jobs.len() == 1 => {
                if let Some(job) = jobs.pop() {
                    let _ = job.done.send(Err(e));
                }
            }
            // The database failed or did not answer: every game of the
            // group hears of it at once (writing each alone would make the
            // last wait a timeout per game before it).
            Err(StoreError::Backend(why)) => {
                for job in jobs {
                    let _ = job.done.send(Err(StoreError::Backend(why.clone())));
                }
            }
            // The group rolled back as a whole because of one game's
            // records: write each game's records alone, so only the game at
            // fault hears of the conflict.
            Err(_) => {
                for job in jobs {
                    let result = append_bounded(store.as_ref(), &job.records).await;
                    let _ = job.done.send(result);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use citadel_store::{GameRecord, MemStore};

    fn game(code: &str) -> GameRecord {
        GameRecord {
            code: code.into(),
            options: "{}".into(),
            seed: 1,
            created_at: 0,
            lobby: "{}".into(),
            setup: None,
            started_at: None,
            finished_at: None,
            result: None,
            campaign: None,
            engine_version: 0,
            content_hash: String::new(),
            kind: "siege".into(),
            active_at: 0,
            abandoned_at: None,
            listed: false,
        }
    }

    fn record(code: &str, index: i64) -> CommandRecord {
        CommandRecord {
            code: code.into(),
            index,
            seat: 0,
            command: format!("\"c{index}\""),
            at: 0,
            checksum: None,
        }
    }

    #[tokio::test]
    async fn concurrent_games_are_all_stored_and_a_conflict_fails_only_its_game() {
        let store: Arc<dyn Store> = Arc::new(MemStore::new());
        for g in 0..20 {
            store
                .create_game(&game(&format!("G{g}")))
                .await
                .expect("game");
        }
        let writer = GroupCommit::start(Arc::clone(&store));
        let mut tasks = Vec::new();
        for g in 0..20 {
            let w = writer.clone();
            tasks.push(tokio::spawn(async move {
                let code = format!("G{g}");
                for i in 0..10 {
                    w.append(vec![record(&code, i)]).await?;
                }
                Ok::<_, StoreError>(())
            }));
        }
        // A repeat of an index already stored, racing the others: it may
        // share their transaction, but only it fails.
        store.create_game(&game("X")).await.expect("game");
        writer.append(vec![record("X", 0)]).await.expect("first");
        let repeat = {
            let w = writer.clone();
            tokio::spawn(async move { w.append(vec![record("X", 0)]).await })
        };
        for t in tasks {
            t.await
                .expect("task")
                .expect("every game's commands stored");
        }
        let repeat = repeat.await.expect("task");
        assert!(matches!(repeat, Err(StoreError::Conflict(_))), "{repeat:?}");
        assert_eq!(store.commands("X").await.expect("commands").len(), 1);
        for g in 0..20 {
            let code = format!("G{g}");
            let stored = store.commands(&code).await.expect("commands");
            assert_eq!(stored.len(), 10, "{code}");
            assert!(stored.iter().enumerate().all(|(i, c)| c.index == i as i64));
        }
    }
}
