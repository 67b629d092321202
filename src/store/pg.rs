//! One PostgreSQL connection whose exchanges are pipelined (issue 43):
//! [`Pg`], under `db::Connection`'s PostgreSQL side.
//!
//! On one machine a statement's cost is mostly the wait for its answer,
//! not the server's work, so what the work does not wait for goes with
//! the next statement it does: texts without parameters or rows (`BEGIN`,
//! a savepoint made or released: [`Pg::later`]) and writes whose answer the
//! work does not read ([`Pg::ahead`]: a report queued, a submission
//! stored). [`Pg::exchange`] sends them and its own statement together,
//! in order, and waits once: one round trip ([`round_trips`] counts them).
//! The server runs them in that order, each as if sent alone; an error in
//! one ends the transaction as it would have, the statements after it
//! fail, and the exchange answers the first error, so the transaction is
//! rolled back as if the write had failed when it was written (its
//! `COMMIT` too answers it, and commits nothing). A `ROLLBACK` drops what
//! waits: it would be undone; so does a rollback to a savepoint still
//! waiting to go ([`Pg::drop_savepoint`]), which then asks the server
//! nothing.
//!
//! The connection is `tokio_postgres`'s on a runtime of its own (one
//! thread, the caller's: it runs only while an exchange waits), as the
//! `postgres` crate's blocking client does, but with the exchange's
//! statements in flight together, which that client cannot do.

use std::collections::HashMap;
use std::future::Future;
use std::pin::Pin;
use std::sync::atomic::{AtomicU64, Ordering};
use std::task::Poll;
use std::time::Duration;
use tokio_postgres::types::ToSql;
use tokio_postgres::{Client, Error, Row, Statement};

/// Exchanges with PostgreSQL servers by this process, each waiting for
/// its answer ([`round_trips`]).
static ROUND_TRIPS: AtomicU64 = AtomicU64::new(0);

/// How many times this process has sent a PostgreSQL server something and
/// waited for its answer (statements pipelined together count once, a
/// statement's preparing once): for the crunch bench.
pub fn round_trips() -> u64 {
    ROUND_TRIPS.load(Ordering::Relaxed)
}

/// One more exchange with a PostgreSQL server.
fn round_trip() {
    ROUND_TRIPS.fetch_add(1, Ordering::Relaxed);
}

/// What an exchange asks, after what waits to go.
pub(super) enum Ask<'a, V> {
    /// A prepared statement's count of rows changed.
    Execute(&'a Statement, &'a [V]),
    /// A prepared statement's rows.
    Query(&'a Statement, &'a [V]),
    /// A text of statements without parameters or rows.
    Batch(&'a str),
    /// Nothing more: what waits, sent.
    Nothing,
}

/// What the server answered to an [`Ask`].
pub(super) enum Answer {
    Count(u64),
    Rows(Vec<Row>),
    Done,
}

/// A connection to PostgreSQL, its exchanges pipelined (see the module);
/// parameters of type `V` (`db::Value`).
pub(super) struct Pg<V> {
    runtime: tokio::runtime::Runtime,
    client: Client,
    /// Prepared statements by their text as written (`?1`).
    prepared: HashMap<String, Statement>,
    /// What waits to go with the next exchange, in the order written:
    /// texts ([`Pg::later`]) and writes ([`Pg::ahead`]).
    queue: Vec<Queued<V>>,
    /// Exchanges this connection has waited for ([`round_trips`]'s share).
    exchanges: u64,
}

/// A statement waiting to go, its answer not needed.
enum Queued<V> {
    /// Statements without parameters or rows (`BEGIN`, `SAVEPOINT`, …),
    /// each ended by `;`.
    Text(String),
    /// A prepared write and its parameters.
    Write(Statement, Vec<V>),
}

type Pending<'a> = Pin<Box<dyn Future<Output = Result<Answer, Error>> + 'a>>;

impl<V: ToSql + Sync> Pg<V> {
    /// Connect to the server at `url` (libpq's URL), without TLS, on
    /// `runtime` (one thread: `new_current_thread`).
    ///
    /// # Errors
    /// When the URL is not valid or the server cannot be reached.
    pub(super) fn connect(url: &str, runtime: tokio::runtime::Runtime) -> Result<Pg<V>, Error> {
        let mut config: tokio_postgres::Config = url.parse()?;
        config.connect_timeout(Duration::from_secs(30));
        let (client, connection) = runtime.block_on(config.connect(tokio_postgres::NoTls))?;
        // The connection's own work (reading and writing the socket) runs
        // while an exchange waits; when the server ends it, the client
        // says so (`is_closed`) and every exchange fails.
        runtime.spawn(async move {
            if let Err(e) = connection.await {
                tracing::warn!("PostgreSQL connection ended: {e}");
            }
        });
        Ok(Pg {
            runtime,
            client,
            prepared: HashMap::new(),
            queue: Vec::new(),
            exchanges: 0,
        })
    }

    /// How many exchanges this connection has waited for.
    pub(super) fn exchanges(&self) -> u64 {
        self.exchanges
    }

    /// Has the server ended this connection?
    pub(super) fn is_closed(&self) -> bool {
        self.client.is_closed()
    }

    /// The statement `sql` as written, prepared once per connection (a
    /// round trip the first time) as `server` words it (`$N`
    /// placeholders).
    ///
    /// # Errors
    /// When the server refuses it.
    pub(super) fn prepared(
        &mut self,
        sql: &str,
        server: impl FnOnce(&str) -> String,
    ) -> Result<Statement, Error> {
        if let Some(st) = self.prepared.get(sql) {
            return Ok(st.clone());
        }
        round_trip();
        self.exchanges += 1;
        let text = server(sql);
        let st = self.runtime.block_on(self.client.prepare(&text))?;
        self.prepared.insert(sql.to_string(), st.clone());
        Ok(st)
    }

    /// `sql` (without parameters or rows) to go with the next exchange.
    pub(super) fn later(&mut self, sql: &str) {
        if let Some(Queued::Text(text)) = self.queue.last_mut() {
            text.push_str(sql);
            text.push_str("; ");
        } else {
            self.queue.push(Queued::Text(format!("{sql}; ")));
        }
    }

    /// A write to go with the next exchange, its answer not read: its
    /// error, if any, is the next exchange's.
    pub(super) fn ahead(&mut self, st: Statement, values: Vec<V>) {
        self.queue.push(Queued::Write(st, values));
    }

    /// Are writes waiting to go?
    pub(super) fn has_ahead(&self) -> bool {
        self.queue.iter().any(|q| matches!(q, Queued::Write(..)))
    }

    /// Drop what waits to go (a rollback undoes it).
    pub(super) fn drop_waiting(&mut self) {
        self.queue.clear();
    }

    /// Is `SAVEPOINT name` still waiting to go? Then it and all that waits
    /// after it are dropped: nothing of the savepoint has reached the
    /// server, and there is nothing to roll back to (true).
    pub(super) fn drop_savepoint(&mut self, name: &str) -> bool {
        let made = format!("SAVEPOINT {name}; ");
        // The latest of that name: an earlier one, released, may wait too.
        let found = self
            .queue
            .iter()
            .enumerate()
            .rev()
            .find_map(|(k, q)| match q {
                Queued::Text(text) => text.rfind(&made).map(|at| (k, at)),
                Queued::Write(..) => None,
            });
        let Some((k, at)) = found else {
            return false;
        };
        self.queue.truncate(k + 1);
        if let Some(Queued::Text(text)) = self.queue.last_mut() {
            text.truncate(at);
            if text.is_empty() {
                self.queue.pop();
            }
        }
        true
    }

    /// Send what waits and `ask`, in that order, in one round trip; the
    /// answer to `ask`, or the first error of any of them.
    ///
    /// # Errors
    /// The first statement's error, in the order sent.
    pub(super) fn exchange(&mut self, ask: Ask<'_, V>) -> Result<Answer, Error> {
        Ok(self.exchange_all(vec![ask])?.pop().unwrap_or(Answer::Done))
    }

    /// Send what waits and every one of `asks`, in that order, in one
    /// round trip; the answers to `asks`, in order (none to
    /// [`Ask::Nothing`]), or the first error of any of them.
    ///
    /// # Errors
    /// The first statement's error, in the order sent.
    pub(super) fn exchange_all(&mut self, asks: Vec<Ask<'_, V>>) -> Result<Vec<Answer>, Error> {
        let queue = std::mem::take(&mut self.queue);
        let client = &self.client;
        let params: Vec<Vec<&(dyn ToSql + Sync)>> = queue
            .iter()
            .map(|q| match q {
                Queued::Write(_, values) => refs(values),
                Queued::Text(_) => Vec::new(),
            })
            .collect();
        let asked: Vec<Vec<&(dyn ToSql + Sync)>> = asks
            .iter()
            .map(|ask| match ask {
                Ask::Execute(_, values) | Ask::Query(_, values) => refs(values),
                Ask::Batch(_) | Ask::Nothing => Vec::new(),
            })
            .collect();
        let mut sent: Vec<Pending<'_>> = Vec::with_capacity(queue.len() + asks.len());
        for (q, params) in queue.iter().zip(&params) {
            match q {
                Queued::Text(text) => sent.push(Box::pin(batch(client, text))),
                Queued::Write(st, _) => sent.push(Box::pin(async move {
                    client.execute(st, params).await.map(Answer::Count)
                })),
            }
        }
        // The answers after these are the asks'.
        let before = sent.len();
        for (ask, params) in asks.into_iter().zip(&asked) {
            match ask {
                Ask::Execute(st, _) => sent.push(Box::pin(async move {
                    client.execute(st, params).await.map(Answer::Count)
                })),
                Ask::Query(st, _) => sent.push(Box::pin(async move {
                    client.query(st, params).await.map(Answer::Rows)
                })),
                Ask::Batch(text) => sent.push(Box::pin(batch(client, text))),
                Ask::Nothing => {}
            }
        }
        if sent.is_empty() {
            return Ok(Vec::new());
        }
        round_trip();
        self.exchanges += 1;
        let answers = self.runtime.block_on(in_order(sent));
        let mut out = Vec::with_capacity(answers.len() - before);
        for (k, answer) in answers.into_iter().enumerate() {
            let answer = answer?;
            if k >= before {
                out.push(answer);
            }
        }
        Ok(out)
    }
}

/// A text of statements, answered as done.
async fn batch(client: &Client, text: &str) -> Result<Answer, Error> {
    client.batch_execute(text).await.map(|()| Answer::Done)
}

/// The values as the client takes parameters.
fn refs<V: ToSql + Sync>(values: &[V]) -> Vec<&(dyn ToSql + Sync)> {
    values.iter().map(|v| v as &(dyn ToSql + Sync)).collect()
}

/// Every future's output, in their order, each polled first in that
/// order: a statement is sent when its future is first polled, so they
/// go out in order, all before the first answer is awaited.
async fn in_order<T>(mut futures: Vec<Pin<Box<dyn Future<Output = T> + '_>>>) -> Vec<T> {
    let mut out: Vec<Option<T>> = futures.iter().map(|_| None).collect();
    std::future::poll_fn(|cx| {
        let mut pending = false;
        for (future, done) in futures.iter_mut().zip(out.iter_mut()) {
            if done.is_none() {
                match future.as_mut().poll(cx) {
                    Poll::Ready(v) => *done = Some(v),
                    Poll::Pending => pending = true,
                }
            }
        }
        if pending {
            Poll::Pending
        } else {
            Poll::Ready(())
        }
    })
    .await;
    out.into_iter().flatten().collect()
}
