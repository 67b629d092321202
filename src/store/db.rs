//! The store's one door to SQL, in two dialects: SQLite (a file, the
//! default) and PostgreSQL (a server several `umpire run` workers share).
//!
//! The store's modules write their SQL once, in the shapes rusqlite made
//! familiar — [`Connection::execute`], [`Connection::query_row`],
//! [`Connection::prepare_cached`] then `query_map` / `query_row` /
//! `execute`, [`Row::get`], [`OptionalExtension::optional`], [`params!`] —
//! and this module runs it on either server:
//!
//! - placeholders are written `?1`, `?2`…; PostgreSQL gets `$1`, `$2`…
//!   (rewritten once per statement and kept with the prepared statement);
//! - row locks are written as PostgreSQL has them (`FOR UPDATE SKIP
//!   LOCKED`); SQLite, whose write transactions are taken whole
//!   (`BEGIN IMMEDIATE`) and so never meet a row another writer holds,
//!   reads the same statement without them;
//! - values cross as [`Value`]s (integer, real, text, bytes, null) and are
//!   converted to and from whatever type the server declares for the
//!   column or parameter, so `INTEGER` in SQLite and `BIGINT` in PostgreSQL
//!   read alike, and a Rust `bool` is stored as 0 or 1 in both.
//!
//! What is left to write portably: `ON CONFLICT … DO NOTHING / DO UPDATE`
//! rather than `INSERT OR IGNORE / OR REPLACE`, `RETURNING` rather than
//! `last_insert_rowid()`, an alias on every subquery in `FROM`, no
//! booleans tested bare, no SQLite-only functions (`json_*`, `instr`,
//! `randomblob`). The migrations (`schema`) say what differs in the tables.
//!
//! Transactions: [`Connection::transaction`] begins one (`BEGIN
//! IMMEDIATE` in SQLite: writers queue; `SERIALIZABLE` in PostgreSQL: each
//! write transaction sees the store as if it were alone, and one that
//! could not is refused with a serialization failure, which
//! [`Error::is_transient`] names, so the work is done again later).
//! [`Connection::transaction_locking`] begins one guarded by the row locks
//! its work takes instead (`READ COMMITTED` in PostgreSQL); work in it
//! that reaches beyond those rows stops with [`Error::Serializable`]
//! ([`Transaction::needs_serializable`]) and is done again serializable.
//! [`Transaction`] dereferences to [`Connection`], so every store function
//! taking `&Connection` takes a transaction too. A read marked
//! [`Statement::kept`] is answered from its rows kept for the open
//! transaction (`store::kept`) until a statement writes its table.
//!
//! Round trips (PostgreSQL): each statement waits for the server's answer,
//! and on one machine that wait, not the server's work, is most of a
//! statement's cost. Statements are prepared once per connection; the
//! transaction's `BEGIN`, a savepoint's making and its `RELEASE`, which
//! answer nothing the work needs, and writes whose answer it does not read
//! ([`Connection::execute_ahead`]) wait and go with the next statement
//! (`store::pg`); [`Connection::query_each`] sends many runs of one
//! statement at once. [`round_trips`] counts the exchanges for the crunch
//! bench.

use std::cell::{Cell, RefCell};
use std::collections::HashMap;
use std::fmt;
use std::time::Duration;

pub use super::pg::round_trips;
use super::pg::{Answer, Ask, Pg};

/// Which server a connection talks to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Dialect {
    Sqlite,
    Postgres,
}

/// An error of the database.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    #[error("{0}")]
    Sqlite(#[from] rusqlite::Error),
    #[error("{}", postgres_words(.0))]
    Postgres(#[from] tokio_postgres::Error),
    /// The runtime a PostgreSQL connection's exchanges run on could not
    /// be made.
    #[error("cannot start a PostgreSQL connection's runtime: {0}")]
    Runtime(std::io::Error),
    /// A query that must return a row returned none.
    #[error("no row found")]
    NotFound,
    /// A PostgreSQL transaction that an error (one its work passed over)
    /// had already ended: nothing of it was kept. `code` is that error's
    /// SQLSTATE.
    #[error("the transaction was ended by an earlier error ({code}): nothing of it was kept")]
    Aborted { code: String },
    /// Work begun in a transaction guarded by row locks
    /// ([`Connection::transaction_locking`]) that reaches beyond the rows
    /// it locked (another game's, a league's, a campaign's): nothing of it
    /// is kept, and it is done again in a serializable transaction
    /// ([`Transaction::needs_serializable`]).
    #[error("this work needs a serializable transaction: done again in one")]
    Serializable,
    /// A column whose value is not of the type asked for.
    #[error("column {column}: wanted {wanted}, found {found}")]
    Type {
        column: usize,
        wanted: &'static str,
        found: &'static str,
    },
}

/// PostgreSQL's own words, with its detail and hint when it gives them.
fn postgres_words(e: &tokio_postgres::Error) -> String {
    match e.as_db_error() {
        Some(db) => {
            let mut s = format!("{} ({})", db.message(), db.code().code());
            if let Some(d) = db.detail() {
                s.push_str(&format!("; {d}"));
            }
            if let Some(h) = db.hint() {
                s.push_str(&format!("; {h}"));
            }
            s
        }
        None => e.to_string(),
    }
}

impl Error {
    /// Is this a fault of the moment (the database busy or locked, a
    /// conflict with another worker, the server gone) rather than of the
    /// work? Such work is left to be done again on the next run.
    pub fn is_transient(&self) -> bool {
        use rusqlite::ErrorCode;
        match self {
            Error::Sqlite(e) => matches!(
                e.sqlite_error_code(),
                Some(
                    ErrorCode::DatabaseBusy
                        | ErrorCode::DatabaseLocked
                        | ErrorCode::SystemIoFailure
                        | ErrorCode::DiskFull
                        | ErrorCode::CannotOpen
                        | ErrorCode::ReadOnly
                        | ErrorCode::OutOfMemory
                )
            ),
            Error::Postgres(e) => e.code().is_none_or(|code| transient_code(code.code())),
            Error::Aborted { code } => transient_code(code),
            Error::Serializable => true,
            Error::NotFound | Error::Type { .. } | Error::Runtime(_) => false,
        }
    }

    /// Is this work that a transaction guarded by row locks began and a
    /// serializable one must do ([`Error::Serializable`])?
    pub fn wants_serializable(&self) -> bool {
        matches!(self, Error::Serializable)
    }
}

/// A SQLSTATE of the moment: class 40, a serialization failure or a
/// deadlock; 53, out of resources; 57, the server shutting down; 08, the
/// connection; 55P03, a lock not available. (An error without one is the
/// connection itself failing: of the moment too.)
fn transient_code(c: &str) -> bool {
    c.starts_with("40")
        || c.starts_with("53")
        || c.starts_with("57")
        || c.starts_with("08")
        || c == "55P03"
}

pub type Result<T> = std::result::Result<T, Error>;

/// One value in a row or a parameter.
#[derive(Debug, Clone, PartialEq)]
pub enum Value {
    Null,
    Integer(i64),
    Real(f64),
    Text(String),
    Blob(Vec<u8>),
}

impl Value {
    fn kind(&self) -> &'static str {
        match self {
            Value::Null => "null",
            Value::Integer(_) => "an integer",
            Value::Real(_) => "a real number",
            Value::Text(_) => "text",
            Value::Blob(_) => "bytes",
        }
    }
}

/// A Rust value that can be a parameter.
pub trait ToValue {
    fn to_value(&self) -> Value;
}

impl<T: ToValue + ?Sized> ToValue for &T {
    fn to_value(&self) -> Value {
        (**self).to_value()
    }
}

impl<T: ToValue> ToValue for Option<T> {
    fn to_value(&self) -> Value {
        self.as_ref().map_or(Value::Null, ToValue::to_value)
    }
}

macro_rules! integer_values {
    ($($t:ty),*) => {$(
        impl ToValue for $t {
            fn to_value(&self) -> Value {
                Value::Integer(i64::from(*self))
            }
        }
        impl FromValue for $t {
            fn from_value(v: &Value, column: usize) -> Result<Self> {
                match v {
                    Value::Integer(i) => <$t>::try_from(*i).map_err(|_| Error::Type {
                        column,
                        wanted: stringify!($t),
                        found: "an integer out of its range",
                    }),
                    other => Err(Error::Type { column, wanted: stringify!($t), found: other.kind() }),
                }
            }
        }
    )*};
}
integer_values!(i32, u32, i16, u16, u8);

impl ToValue for i64 {
    fn to_value(&self) -> Value {
        Value::Integer(*self)
    }
}

impl FromValue for i64 {
    fn from_value(v: &Value, column: usize) -> Result<Self> {
        match v {
            Value::Integer(i) => Ok(*i),
            other => Err(Error::Type {
                column,
                wanted: "i64",
                found: other.kind(),
            }),
        }
    }
}

impl ToValue for usize {
    fn to_value(&self) -> Value {
        Value::Integer(i64::try_from(*self).unwrap_or(i64::MAX))
    }
}

impl ToValue for bool {
    fn to_value(&self) -> Value {
        Value::Integer(i64::from(*self))
    }
}

impl ToValue for f64 {
    fn to_value(&self) -> Value {
        Value::Real(*self)
    }
}

impl ToValue for str {
    fn to_value(&self) -> Value {
        Value::Text(self.to_string())
    }
}

impl ToValue for String {
    fn to_value(&self) -> Value {
        Value::Text(self.clone())
    }
}

impl ToValue for [u8] {
    fn to_value(&self) -> Value {
        Value::Blob(self.to_vec())
    }
}

impl ToValue for Vec<u8> {
    fn to_value(&self) -> Value {
        Value::Blob(self.clone())
    }
}

impl ToValue for Value {
    fn to_value(&self) -> Value {
        self.clone()
    }
}

/// A statement's parameters: `params![a, b]`, `[a]`, `[]`.
pub trait Params {
    fn values(self) -> Vec<Value>;
}

impl Params for Vec<Value> {
    fn values(self) -> Vec<Value> {
        self
    }
}

impl Params for [&dyn ToValue; 0] {
    fn values(self) -> Vec<Value> {
        Vec::new()
    }
}

macro_rules! array_params {
    ($($n:literal),*) => {$(
        impl<T: ToValue> Params for [T; $n] {
            fn values(self) -> Vec<Value> {
                self.iter().map(ToValue::to_value).collect()
            }
        }
    )*};
}
array_params!(1, 2, 3, 4, 5, 6, 7, 8);

/// Parameters of mixed types, in order: `params![id, name, now]`.
macro_rules! store_params {
    ($($x:expr),* $(,)?) => {
        ::std::vec![$($crate::store::db::ToValue::to_value(&$x)),*]
    };
}
pub(crate) use store_params as params;

/// A Rust value a column can be read as.
pub trait FromValue: Sized {
    fn from_value(v: &Value, column: usize) -> Result<Self>;
}

impl<T: FromValue> FromValue for Option<T> {
    fn from_value(v: &Value, column: usize) -> Result<Self> {
        match v {
            Value::Null => Ok(None),
            other => T::from_value(other, column).map(Some),
        }
    }
}

impl FromValue for bool {
    fn from_value(v: &Value, column: usize) -> Result<Self> {
        i64::from_value(v, column).map(|i| i != 0)
    }
}

impl FromValue for f64 {
    fn from_value(v: &Value, column: usize) -> Result<Self> {
        match v {
            Value::Real(r) => Ok(*r),
            Value::Integer(i) => Ok(*i as f64),
            other => Err(Error::Type {
                column,
                wanted: "a real number",
                found: other.kind(),
            }),
        }
    }
}

impl FromValue for String {
    fn from_value(v: &Value, column: usize) -> Result<Self> {
        match v {
            Value::Text(s) => Ok(s.clone()),
            other => Err(Error::Type {
                column,
                wanted: "text",
                found: other.kind(),
            }),
        }
    }
}

impl FromValue for Vec<u8> {
    fn from_value(v: &Value, column: usize) -> Result<Self> {
        match v {
            Value::Blob(b) => Ok(b.clone()),
            // SQLite keeps what was written: text written into a BLOB
            // column reads back as text.
            Value::Text(s) => Ok(s.as_bytes().to_vec()),
            other => Err(Error::Type {
                column,
                wanted: "bytes",
                found: other.kind(),
            }),
        }
    }
}

impl FromValue for Value {
    fn from_value(v: &Value, _column: usize) -> Result<Self> {
        Ok(v.clone())
    }
}

/// A column's position in a row.
pub trait RowIndex {
    fn index(self) -> usize;
}

impl RowIndex for usize {
    fn index(self) -> usize {
        self
    }
}

/// One row of a result, read in full.
#[derive(Debug, Clone)]
pub struct Row {
    values: Vec<Value>,
}

impl Row {
    /// Column `i` as a `T`.
    ///
    /// # Errors
    /// When there is no such column or its value is not a `T`.
    pub fn get<I: RowIndex, T: FromValue>(&self, i: I) -> Result<T> {
        let i = i.index();
        let v = self.values.get(i).ok_or(Error::Type {
            column: i,
            wanted: "a column",
            found: "none (the row is shorter)",
        })?;
        T::from_value(v, i)
    }

    /// Columns `range` of this row, as a row of their own: what a read of
    /// only those columns would give ([`Connection::keep`]). Columns past
    /// the row's end are left out.
    pub fn columns(&self, range: std::ops::Range<usize>) -> Row {
        let end = range.end.min(self.values.len());
        Row {
            values: self.values[range.start.min(end)..end].to_vec(),
        }
    }
}

/// `query_row(..).optional()`: no row is `None`, not an error.
pub trait OptionalExtension<T> {
    /// # Errors
    /// Every error but [`Error::NotFound`].
    fn optional(self) -> Result<Option<T>>;
}

impl<T> OptionalExtension<T> for Result<T> {
    fn optional(self) -> Result<Option<T>> {
        match self {
            Ok(v) => Ok(Some(v)),
            Err(Error::NotFound) => Ok(None),
            Err(e) => Err(e),
        }
    }
}

enum Inner {
    Sqlite(rusqlite::Connection),
    Postgres(Box<Pg<Value>>),
}

/// A connection to the store's database, SQLite or PostgreSQL.
pub struct Connection {
    inner: RefCell<Inner>,
    dialect: Dialect,
    /// PostgreSQL: the SQLSTATE of an error that has ended the open
    /// transaction (until a `ROLLBACK TO` a savepoint takes it back). Its
    /// `COMMIT` would roll back without a word; [`Transaction::commit`]
    /// says so instead.
    aborted: RefCell<Option<String>>,
    /// A SQLite file's writers in this process take turns (`turns`).
    turns: Option<std::sync::Arc<super::turns::Turns>>,
    /// Values read once for the connection's life ([`Connection::read_once`]).
    once: RefCell<HashMap<&'static str, String>>,
    /// Reads kept for the open transaction ([`Statement::kept`]).
    kept: RefCell<super::kept::Kept<Value, Row>>,
    /// A transaction is open ([`Connection::transaction`]): only then are
    /// reads kept.
    in_transaction: Cell<bool>,
}

/// How long a writer waits for its turn before it leaves the waiting to
/// SQLite's lock: as long as SQLite's own busy time-out.
const TURN_PATIENCE: Duration = Duration::from_secs(60);

impl fmt::Debug for Connection {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Connection({:?})", self.dialect)
    }
}

/// A statement to run, once or many times.
pub struct Statement<'c> {
    conn: &'c Connection,
    sql: String,
    /// Its rows kept for the transaction: the table it reads, and the
    /// text they are kept under when not its own ([`Statement::kept_as`]).
    kept: Option<(Vec<&'static str>, Option<String>)>,
}

impl<'c> Statement<'c> {
    /// Keep this read's rows for the open transaction (`store::kept`): a
    /// second reading with the same parameters answers them without
    /// asking the server, until a statement writes `table` or the
    /// transaction ends. For reads of rows a message's handling or a
    /// round's play reads again and again (a game's row, sides, rules).
    pub fn kept(self, table: &'static str) -> Self {
        self.kept_over(&[table])
    }

    /// [`Statement::kept`] for a read of several tables: forgotten when
    /// a statement writes any of them.
    pub fn kept_over(mut self, tables: &[&'static str]) -> Self {
        self.kept = Some((tables.to_vec(), None));
        self
    }

    /// [`Statement::kept`], the rows kept as the answer of `read` (the same
    /// parameters): a write that returns the rows a read would (an
    /// `UPDATE … RETURNING`), so the read after it need not ask.
    pub fn kept_as(mut self, table: &'static str, read: &str) -> Self {
        self.kept = Some((vec![table], Some(read.to_string())));
        self
    }

    /// The statement's rows: kept ones, or the server's (then kept, when
    /// the statement says so and a transaction is open).
    fn rows(&self, values: Vec<Value>) -> Result<Vec<Row>> {
        let Some((tables, key)) = &self.kept else {
            return self.conn.rows(&self.sql, values);
        };
        let key = key.as_deref().unwrap_or(&self.sql);
        if key == self.sql {
            if let Some(rows) = self.conn.kept.borrow().get(key, &values) {
                return Ok(rows);
            }
        }
        let rows = self.conn.rows(&self.sql, values.clone())?;
        if self.conn.in_transaction.get() {
            self.conn.kept.borrow_mut().put(tables, key, values, &rows);
        }
        Ok(rows)
    }

    /// # Errors
    /// On database errors.
    pub fn execute(&mut self, p: impl Params) -> Result<usize> {
        self.conn.run(&self.sql, p.values())
    }

    /// The first row, read by `f`; [`Error::NotFound`] when there is none.
    ///
    /// # Errors
    /// On database errors, no row, or an error of `f`.
    pub fn query_row<T>(&mut self, p: impl Params, f: impl FnOnce(&Row) -> Result<T>) -> Result<T> {
        let rows = self.rows(p.values())?;
        rows.first().map_or(Err(Error::NotFound), f)
    }

    /// Every row, read by `f`, in the order the query gives them.
    ///
    /// # Errors
    /// On database errors (an error of `f` is in its row's item).
    pub fn query_map<T>(
        &mut self,
        p: impl Params,
        mut f: impl FnMut(&Row) -> Result<T>,
    ) -> Result<std::vec::IntoIter<Result<T>>> {
        let rows = self.rows(p.values())?;
        Ok(rows.iter().map(&mut f).collect::<Vec<_>>().into_iter())
    }

    /// This statement with its parameters: a read that can be made ahead
    /// ([`Connection::read_ahead`]) before its work asks it.
    pub fn with(self, p: impl Params) -> Read<'c> {
        Read {
            statement: self,
            values: p.values(),
        }
    }
}

/// A kept read and its parameters ([`Statement::with`]).
pub struct Read<'c> {
    statement: Statement<'c>,
    values: Vec<Value>,
}

impl Read<'_> {
    /// The first row, read by `f`, as [`Statement::query_row`].
    ///
    /// # Errors
    /// On database errors, no row, or an error of `f`.
    pub fn query_row<T>(mut self, f: impl FnOnce(&Row) -> Result<T>) -> Result<T> {
        self.statement.query_row(self.values, f)
    }

    /// Every row, read by `f`, as [`Statement::query_map`].
    ///
    /// # Errors
    /// On database errors (an error of `f` is in its row's item).
    pub fn query_map<T>(
        mut self,
        f: impl FnMut(&Row) -> Result<T>,
    ) -> Result<std::vec::IntoIter<Result<T>>> {
        self.statement.query_map(self.values, f)
    }
}

/// Where a store lives: a PostgreSQL URL (`postgres://` or
/// `postgresql://`) or anything else, a SQLite file.
pub fn is_postgres_url(location: &str) -> bool {
    location.starts_with("postgres://") || location.starts_with("postgresql://")
}

/// A PostgreSQL URL with any password masked, for messages and logs.
pub fn redact(location: &str) -> String {
    if !is_postgres_url(location) {
        return location.to_string();
    }
    let (scheme, rest) = location.split_once("://").unwrap_or(("", location));
    let (auth, host) = match rest.split_once('@') {
        Some((a, h)) => (Some(a), h),
        None => (None, rest),
    };
    match auth {
        Some(a) => match a.split_once(':') {
            Some((user, _)) => format!("{scheme}://{user}:***@{host}"),
            None => format!("{scheme}://{a}@{host}"),
        },
        None => location.to_string(),
    }
}

/// How many prepared statements a SQLite connection keeps: more than the
/// store has (`src/store/` holds about 140).
const STATEMENTS_KEPT: usize = 512;

impl Connection {
    /// Open (creating if needed) the SQLite file at `path`.
    ///
    /// # Errors
    /// When it cannot be opened.
    pub fn open_sqlite(path: &std::path::Path) -> Result<Connection> {
        let mut c = Self::sqlite(rusqlite::Connection::open(path)?);
        c.turns = Some(super::turns::Turns::of_file(path));
        Ok(c)
    }

    /// A private in-memory SQLite database.
    ///
    /// # Errors
    /// When SQLite cannot make one.
    pub fn open_in_memory() -> Result<Connection> {
        Ok(Self::sqlite(rusqlite::Connection::open_in_memory()?))
    }

    fn sqlite(c: rusqlite::Connection) -> Connection {
        // Every statement of the store stays prepared: rusqlite keeps 16
        // by default, fewer than a message's handling uses, so each was
        // parsed again nearly every time (issue 24: 4% of a crunch).
        c.set_prepared_statement_cache_capacity(STATEMENTS_KEPT);
        Connection {
            inner: RefCell::new(Inner::Sqlite(c)),
            dialect: Dialect::Sqlite,
            aborted: RefCell::new(None),
            turns: None,
            once: RefCell::default(),
            kept: RefCell::default(),
            in_transaction: Cell::new(false),
        }
    }

    /// Connect to the PostgreSQL server at `url`.
    ///
    /// # Errors
    /// When the URL is not valid or the server cannot be reached.
    pub fn open_postgres(url: &str) -> Result<Connection> {
        // The connection's exchanges run on a runtime of its own, one
        // thread: the caller's, while it waits (`store::pg`).
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .map_err(Error::Runtime)?;
        Ok(Connection {
            inner: RefCell::new(Inner::Postgres(Box::new(Pg::connect(url, runtime)?))),
            dialect: Dialect::Postgres,
            aborted: RefCell::new(None),
            turns: None,
            once: RefCell::default(),
            kept: RefCell::default(),
            in_transaction: Cell::new(false),
        })
    }

    /// The value named `key`, read by `read` the first time it is asked
    /// and kept for the connection's life: for what never changes once the
    /// store is made (its installation key), which a message's every reply
    /// would otherwise read again.
    ///
    /// # Errors
    /// What `read` returns.
    pub fn read_once<E>(
        &self,
        key: &'static str,
        read: impl FnOnce() -> std::result::Result<String, E>,
    ) -> std::result::Result<String, E> {
        if let Some(v) = self.once.borrow().get(key) {
            return Ok(v.clone());
        }
        let v = read()?;
        self.once.borrow_mut().insert(key, v.clone());
        Ok(v)
    }

    /// Which server this is.
    pub fn dialect(&self) -> Dialect {
        self.dialect
    }

    /// Has the server ended this connection (restarted, or the backend
    /// terminated)? Only a new connection can go on. A SQLite file never is.
    pub fn is_broken(&self) -> bool {
        match &*self.inner.borrow() {
            Inner::Sqlite(_) => false,
            Inner::Postgres(pg) => pg.is_closed(),
        }
    }

    /// Run `f` on SQLite's own connection, for what only SQLite has
    /// (pragmas); `None` on PostgreSQL.
    pub(crate) fn with_sqlite<T>(
        &self,
        f: impl FnOnce(&rusqlite::Connection) -> rusqlite::Result<T>,
    ) -> Option<Result<T>> {
        match &*self.inner.borrow() {
            Inner::Sqlite(c) => Some(f(c).map_err(Error::from)),
            Inner::Postgres(_) => None,
        }
    }

    /// How many times this connection has sent PostgreSQL something and
    /// waited for its answer (0 on SQLite): for tests of how many round
    /// trips a piece of work costs.
    pub fn round_trips(&self) -> u64 {
        match &*self.inner.borrow() {
            Inner::Sqlite(_) => 0,
            Inner::Postgres(pg) => pg.exchanges(),
        }
    }

    /// Keep `rows` as the answer of `sql` (a read of `table`) with `p`
    /// for the open transaction, as a kept read's ([`Statement::kept`]):
    /// for rows a statement read along with others (a message's claim
    /// reads its size and arrival with its bytes), so the read of them
    /// alone need not ask the server. Nothing is kept outside a
    /// transaction.
    pub fn keep(&self, table: &'static str, sql: &str, p: impl Params, rows: &[Row]) {
        if self.in_transaction.get() {
            self.kept.borrow_mut().put(&[table], sql, p.values(), rows);
        }
    }

    /// Make these kept reads ([`Statement::kept`]) now, so that each is
    /// answered from what is kept when its work asks it: on PostgreSQL all
    /// in one round trip (issue 43: a game just locked, its sides, mail
    /// rules and orders in, which a message's handling and a round's play
    /// each ask one after the other). Reads kept already, reads not marked
    /// kept, and everything outside a transaction or on SQLite (where a
    /// read costs no round trip) are left to be asked when needed.
    ///
    /// # Errors
    /// On database errors (the first).
    pub fn read_ahead(&self, reads: &[Read<'_>]) -> Result<()> {
        if !self.in_transaction.get() || self.dialect != Dialect::Postgres {
            return Ok(());
        }
        let wanted: Vec<(&Read<'_>, &[&'static str])> = reads
            .iter()
            .filter_map(|r| match &r.statement.kept {
                Some((tables, None))
                    if self
                        .kept
                        .borrow()
                        .get(&r.statement.sql, &r.values)
                        .is_none() =>
                {
                    Some((r, tables.as_slice()))
                }
                _ => None,
            })
            .collect();
        if wanted.is_empty() {
            return Ok(());
        }
        let done = match &mut *self.inner.borrow_mut() {
            Inner::Sqlite(_) => return Ok(()),
            Inner::Postgres(pg) => wanted
                .iter()
                .map(|(r, _)| pg.prepared(&r.statement.sql, postgres_text))
                .collect::<std::result::Result<Vec<_>, _>>()
                .and_then(|statements| {
                    let asks = statements
                        .iter()
                        .zip(&wanted)
                        .map(|(st, (r, _))| Ask::Query(st, &r.values))
                        .collect();
                    pg.exchange_all(asks)
                }),
        };
        let answers = self.noted(done.map_err(Error::from))?;
        for ((r, tables), answer) in wanted.into_iter().zip(answers) {
            let rows = match answer {
                Answer::Rows(rows) => rows.iter().map(pg_row).collect::<Result<Vec<_>>>()?,
                Answer::Count(_) | Answer::Done => Vec::new(),
            };
            self.kept
                .borrow_mut()
                .put(tables, &r.statement.sql, r.values.clone(), &rows);
        }
        Ok(())
    }

    /// Note `key` under `what` for the rest of the open transaction
    /// (nothing outside one), as kept reads are kept ([`Statement::kept`])
    /// but named by no table: forgotten only as all of them are, by a
    /// `DELETE`, a way back to a savepoint or the transaction's end. For a
    /// write that need not be made twice in one transaction
    /// ([`Connection::noted_for_transaction`]).
    pub fn note_for_transaction(&self, what: &str, key: &str) {
        if self.in_transaction.get() {
            self.kept
                .borrow_mut()
                .put(&[], what, vec![Value::Text(key.to_string())], &[]);
        }
    }

    /// Whether `key` was noted under `what` ([`Connection::note_for_transaction`]).
    pub fn noted_for_transaction(&self, what: &str, key: &str) -> bool {
        self.kept
            .borrow()
            .get(what, &[Value::Text(key.to_string())])
            .is_some()
    }

    /// Run statements with no parameters and no result (DDL, savepoints).
    ///
    /// # Errors
    /// On database errors.
    pub fn execute_batch(&self, sql: &str) -> Result<()> {
        // A transaction's end, a savepoint's way back, a migration: what
        // was kept may be no longer so.
        self.kept.borrow_mut().clear();
        let done = match &mut *self.inner.borrow_mut() {
            Inner::Sqlite(c) => Ok(c.execute_batch(sql)?),
            Inner::Postgres(pg) => {
                // What a rollback undoes need not go first: a `RELEASE`
                // in a transaction an error ended would fail, and the
                // rollback after it would then not be run.
                if sql.starts_with("ROLLBACK") {
                    pg.drop_waiting();
                }
                let ask = if sql.is_empty() {
                    Ask::Nothing
                } else {
                    Ask::Batch(sql)
                };
                pg.exchange(ask).map(|_| ()).map_err(Error::from)
            }
        };
        if done.is_ok() && sql.starts_with("ROLLBACK") {
            // Back to a savepoint, or out: the error is taken back.
            self.aborted.replace(None);
        }
        self.noted(done)
    }

    /// Run `sql` (statements without parameters or rows) on PostgreSQL with
    /// the next statement sent, or at once on SQLite.
    ///
    /// # Errors
    /// On SQLite, on database errors (on PostgreSQL they come with the
    /// statement it goes with).
    fn execute_later(&self, sql: &str) -> Result<()> {
        if let Inner::Postgres(pg) = &mut *self.inner.borrow_mut() {
            pg.later(sql);
            return Ok(());
        }
        self.execute_batch(sql)
    }

    /// Take back all since savepoint `name` and end it. On PostgreSQL a
    /// savepoint whose making still waits to go (nothing since has reached
    /// the server) is dropped with what waits after it, without a round
    /// trip.
    ///
    /// # Errors
    /// On database errors.
    fn rollback_to(&self, name: &str) -> Result<()> {
        if let Inner::Postgres(pg) = &mut *self.inner.borrow_mut() {
            if pg.drop_savepoint(name) {
                self.kept.borrow_mut().clear();
                return Ok(());
            }
        }
        self.execute_batch(&format!("ROLLBACK TO {name}; RELEASE {name}"))
    }

    /// Run a write whose answer (the rows it changed) the work does not
    /// need: at once on SQLite or outside a transaction; on PostgreSQL in
    /// a transaction with the next statement sent (`store::pg`), so an
    /// error of it is that statement's (at the latest the transaction's
    /// `COMMIT`, which then keeps nothing).
    ///
    /// # Errors
    /// On database errors (on PostgreSQL, only a statement the server
    /// cannot prepare; the rest come later).
    pub fn execute_ahead(&self, sql: &str, p: impl Params) -> Result<()> {
        self.kept.borrow_mut().forget_written(sql);
        let values = p.values();
        let mut inner = self.inner.borrow_mut();
        // Outside a transaction a write goes at once: nothing else may
        // follow it on this connection to carry it.
        let (Inner::Postgres(pg), true) = (&mut *inner, self.in_transaction.get()) else {
            drop(inner);
            return self.run_unnoted(sql, values).map(|_| ());
        };
        let done = pg
            .prepared(sql, postgres_text)
            .map(|st| pg.ahead(st, values))
            .map_err(Error::from);
        drop(inner);
        self.noted(done)
    }

    /// Send the writes waiting to go ([`Connection::execute_ahead`]) now,
    /// so that an error of theirs is the caller's: work in a savepoint
    /// ends with it, so that the savepoint takes back its own failures.
    ///
    /// # Errors
    /// The first error of those writes.
    pub fn flush(&self) -> Result<()> {
        let done = match &mut *self.inner.borrow_mut() {
            Inner::Postgres(pg) if pg.has_ahead() => {
                pg.exchange(Ask::Nothing).map(|_| ()).map_err(Error::from)
            }
            _ => return Ok(()),
        };
        self.noted(done)
    }

    /// `done`, an error of which, on PostgreSQL, is noted as ending the
    /// open transaction (the first one only).
    fn noted<T>(&self, done: Result<T>) -> Result<T> {
        if let Err(Error::Postgres(e)) = &done {
            let mut aborted = self.aborted.borrow_mut();
            if aborted.is_none() {
                *aborted = Some(e.code().map_or("08000", |c| c.code()).to_string());
            }
        }
        done
    }

    /// Run one statement; returns the rows it changed.
    ///
    /// # Errors
    /// On database errors.
    pub fn execute(&self, sql: &str, p: impl Params) -> Result<usize> {
        self.run(sql, p.values())
    }

    /// The first row of a query, read by `f`.
    ///
    /// # Errors
    /// On database errors, no row ([`Error::NotFound`]) or an error of `f`.
    pub fn query_row<T>(
        &self,
        sql: &str,
        p: impl Params,
        f: impl FnOnce(&Row) -> Result<T>,
    ) -> Result<T> {
        let rows = self.rows(sql, p.values())?;
        rows.first().map_or(Err(Error::NotFound), f)
    }

    /// The rows of `sql` for each of `each`'s parameters, in order: on
    /// PostgreSQL all sent in one round trip (`store::pg`), on SQLite one
    /// after the other. For work that reads (or writes and returns) many
    /// rows by id, one statement each: an outbox's bodies, its marks.
    ///
    /// # Errors
    /// On database errors (the first, on PostgreSQL).
    pub fn query_each<P: Params>(&self, sql: &str, each: Vec<P>) -> Result<Vec<Vec<Row>>> {
        self.kept.borrow_mut().forget_written(sql);
        let values: Vec<Vec<Value>> = each.into_iter().map(Params::values).collect();
        let done = match &mut *self.inner.borrow_mut() {
            Inner::Sqlite(_) => None,
            Inner::Postgres(pg) => Some(pg.prepared(sql, postgres_text).and_then(|st| {
                let asks = values.iter().map(|v| Ask::Query(&st, v)).collect();
                pg.exchange_all(asks)
            })),
        };
        let Some(done) = done else {
            return values.into_iter().map(|v| self.rows(sql, v)).collect();
        };
        let answers = self.noted(done.map_err(Error::from))?;
        answers
            .into_iter()
            .map(|answer| match answer {
                Answer::Rows(rows) => rows.iter().map(pg_row).collect(),
                Answer::Count(_) | Answer::Done => Ok(Vec::new()),
            })
            .collect()
    }

    /// A statement, prepared once per connection and kept.
    ///
    /// # Errors
    /// None now: a statement that does not prepare fails when run.
    pub fn prepare_cached(&self, sql: &str) -> Result<Statement<'_>> {
        Ok(Statement {
            conn: self,
            sql: sql.to_string(),
            kept: None,
        })
    }

    /// A statement (the same as [`Connection::prepare_cached`]: every
    /// statement is kept).
    ///
    /// # Errors
    /// None now: a statement that does not prepare fails when run.
    pub fn prepare(&self, sql: &str) -> Result<Statement<'_>> {
        self.prepare_cached(sql)
    }

    /// Begin a write transaction (see the module's notes); it is rolled
    /// back unless committed.
    ///
    /// # Errors
    /// On database errors (in SQLite, the lock not had within the busy
    /// timeout).
    pub fn transaction(&self) -> Result<Transaction<'_>> {
        self.begin(
            match self.dialect {
                Dialect::Sqlite => "BEGIN IMMEDIATE",
                Dialect::Postgres => "BEGIN ISOLATION LEVEL SERIALIZABLE",
            },
            false,
        )
    }

    /// Begin a write transaction whose work is guarded by the row locks it
    /// takes (`FOR UPDATE SKIP LOCKED`, leases) rather than by
    /// serializability: `READ COMMITTED` in PostgreSQL, so it is never
    /// refused for another worker's reads; the same as
    /// [`Connection::transaction`] in SQLite.
    ///
    /// # Errors
    /// On database errors.
    pub fn transaction_locking(&self) -> Result<Transaction<'_>> {
        match self.dialect {
            Dialect::Sqlite => self.begin("BEGIN IMMEDIATE", false),
            Dialect::Postgres => self.begin("BEGIN ISOLATION LEVEL READ COMMITTED", true),
        }
    }

    fn begin(&self, sql: &str, locking: bool) -> Result<Transaction<'_>> {
        self.aborted.replace(None);
        let turn = self.turns.as_ref().and_then(|t| t.wait(TURN_PATIENCE));
        self.execute_later(sql)?;
        self.kept.borrow_mut().clear();
        self.in_transaction.set(true);
        Ok(Transaction {
            conn: self,
            open: Cell::new(true),
            locking,
            _turn: turn,
        })
    }

    fn run(&self, sql: &str, values: Vec<Value>) -> Result<usize> {
        self.kept.borrow_mut().forget_written(sql);
        let done = self.run_unnoted(sql, values);
        self.noted(done)
    }

    fn run_unnoted(&self, sql: &str, values: Vec<Value>) -> Result<usize> {
        match &mut *self.inner.borrow_mut() {
            Inner::Sqlite(c) => {
                let mut st = c.prepare_cached(&sqlite_text(sql))?;
                Ok(st.execute(rusqlite::params_from_iter(values.iter()))?)
            }
            Inner::Postgres(pg) => {
                let st = pg.prepared(sql, postgres_text)?;
                match pg.exchange(Ask::Execute(&st, &values))? {
                    Answer::Count(n) => Ok(usize::try_from(n).unwrap_or(usize::MAX)),
                    Answer::Rows(_) | Answer::Done => Ok(0),
                }
            }
        }
    }

    fn rows(&self, sql: &str, values: Vec<Value>) -> Result<Vec<Row>> {
        self.kept.borrow_mut().forget_written(sql);
        let done = self.rows_unnoted(sql, values);
        self.noted(done)
    }

    fn rows_unnoted(&self, sql: &str, values: Vec<Value>) -> Result<Vec<Row>> {
        match &mut *self.inner.borrow_mut() {
            Inner::Sqlite(c) => {
                let mut st = c.prepare_cached(&sqlite_text(sql))?;
                let n = st.column_count();
                let mut rows = st.query(rusqlite::params_from_iter(values.iter()))?;
                let mut out = Vec::new();
                while let Some(r) = rows.next()? {
                    let values = (0..n)
                        .map(|i| r.get_ref(i).map(Value::from))
                        .collect::<rusqlite::Result<Vec<_>>>()?;
                    out.push(Row { values });
                }
                Ok(out)
            }
            Inner::Postgres(pg) => {
                let st = pg.prepared(sql, postgres_text)?;
                let rows = match pg.exchange(Ask::Query(&st, &values))? {
                    Answer::Rows(rows) => rows,
                    Answer::Count(_) | Answer::Done => Vec::new(),
                };
                rows.iter().map(pg_row).collect()
            }
        }
    }
}

/// A row as the PostgreSQL client gave it, read in full.
fn pg_row(r: &tokio_postgres::Row) -> Result<Row> {
    let values = (0..r.len())
        .map(|i| r.try_get::<_, Value>(i))
        .collect::<std::result::Result<Vec<_>, _>>()?;
    Ok(Row { values })
}

/// A write transaction: a [`Connection`] (it dereferences to one) whose
/// work is kept only by [`Transaction::commit`].
pub struct Transaction<'c> {
    conn: &'c Connection,
    open: Cell<bool>,
    /// Guarded by the row locks it takes, not by serializability
    /// (`READ COMMITTED`, PostgreSQL only).
    locking: bool,
    /// This process's turn at writing the file, given up after the
    /// transaction ends (its fields drop after `commit` or `drop`).
    _turn: Option<super::turns::Turn>,
}

impl Transaction<'_> {
    /// Is this a transaction guarded by the row locks it takes
    /// ([`Connection::transaction_locking`] on PostgreSQL), where each
    /// statement reads what is committed when it runs?
    pub fn is_locking(&self) -> bool {
        self.locking
    }

    /// Refuse to go on in a transaction guarded by row locks: the work
    /// that calls this reads or writes beyond the rows such a transaction
    /// locks (a league, a campaign, every game of an address), and only a
    /// serializable transaction keeps that as if it were alone. The caller
    /// rolls back and does the work again in one (SQLite's transactions
    /// always are).
    ///
    /// # Errors
    /// [`Error::Serializable`] in a locking transaction.
    pub fn needs_serializable(&self) -> Result<()> {
        if self.locking {
            return Err(Error::Serializable);
        }
        Ok(())
    }

    /// Keep what the transaction wrote.
    ///
    /// # Errors
    /// When the commit fails (in PostgreSQL, a serialization failure): then
    /// nothing of it is kept.
    pub fn commit(self) -> Result<()> {
        self.open.set(false);
        self.conn.in_transaction.set(false);
        if let Some(code) = self.conn.aborted.replace(None) {
            self.conn.execute_batch("ROLLBACK")?;
            return Err(Error::Aborted { code });
        }
        let done = self.conn.execute_batch("COMMIT");
        if done.is_err() {
            let _ = self.conn.execute_batch("ROLLBACK");
        }
        done
    }

    /// Run `work` in a savepoint of this transaction named `name` (an SQL
    /// identifier): what it wrote stays when `keep` says so of its outcome,
    /// else all of it is taken back and nothing written before. Savepoints
    /// read the same in SQLite and PostgreSQL; on PostgreSQL the way back
    /// also ends the abort an error in `work` left (see [`Connection`]).
    ///
    /// # Errors
    /// When the savepoint cannot be made (then `work` is not run), or
    /// cannot be released or rolled back to.
    pub fn savepoint<T>(
        &self,
        name: &str,
        work: impl FnOnce() -> T,
        keep: impl FnOnce(&T) -> bool,
    ) -> Result<T> {
        debug_assert!(
            name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_'),
            "savepoint name {name:?}"
        );
        self.conn.execute_later(&format!("SAVEPOINT {name}"))?;
        let outcome = work();
        if keep(&outcome) {
            self.conn.execute_later(&format!("RELEASE {name}"))?;
        } else {
            self.conn.rollback_to(name)?;
        }
        Ok(outcome)
    }
}

impl Drop for Transaction<'_> {
    fn drop(&mut self) {
        self.conn.in_transaction.set(false);
        self.conn.kept.borrow_mut().clear();
        if self.open.get() {
            // Nothing to do if it fails: the connection's next BEGIN would
            // report the trouble.
            let _ = self.conn.execute_batch("ROLLBACK");
        }
    }
}

impl std::ops::Deref for Transaction<'_> {
    type Target = Connection;
    fn deref(&self) -> &Connection {
        self.conn
    }
}

/// The statement as SQLite reads it: without PostgreSQL's row locks.
fn sqlite_text(sql: &str) -> std::borrow::Cow<'_, str> {
    if sql.contains(" FOR UPDATE") {
        std::borrow::Cow::Owned(
            sql.replace(" FOR UPDATE SKIP LOCKED", "")
                .replace(" FOR UPDATE", ""),
        )
    } else {
        std::borrow::Cow::Borrowed(sql)
    }
}

/// The statement as PostgreSQL reads it: `?N` placeholders as `$N` (a bare
/// `?` takes the next number), nothing changed inside quotes.
pub fn postgres_text(sql: &str) -> String {
    let mut out = String::with_capacity(sql.len() + 8);
    let mut chars = sql.chars().peekable();
    let mut quote: Option<char> = None;
    let mut next = 1;
    while let Some(c) = chars.next() {
        match quote {
            Some(q) => {
                out.push(c);
                if c == q {
                    quote = None;
                }
            }
            None if c == '\'' || c == '"' => {
                quote = Some(c);
                out.push(c);
            }
            None if c == '?' => {
                let mut digits = String::new();
                while let Some(d) = chars.peek().filter(|d| d.is_ascii_digit()) {
                    digits.push(*d);
                    chars.next();
                }
                if digits.is_empty() {
                    digits = next.to_string();
                }
                next = digits.parse::<usize>().unwrap_or(next) + 1;
                out.push('$');
                out.push_str(&digits);
            }
            None => out.push(c),
        }
    }
    out
}

impl From<rusqlite::types::ValueRef<'_>> for Value {
    fn from(v: rusqlite::types::ValueRef<'_>) -> Value {
        use rusqlite::types::ValueRef;
        match v {
            ValueRef::Null => Value::Null,
            ValueRef::Integer(i) => Value::Integer(i),
            ValueRef::Real(r) => Value::Real(r),
            ValueRef::Text(t) => Value::Text(String::from_utf8_lossy(t).into_owned()),
            ValueRef::Blob(b) => Value::Blob(b.to_vec()),
        }
    }
}

impl rusqlite::ToSql for Value {
    fn to_sql(&self) -> rusqlite::Result<rusqlite::types::ToSqlOutput<'_>> {
        use rusqlite::types::{ToSqlOutput, ValueRef};
        Ok(ToSqlOutput::Borrowed(match self {
            Value::Null => ValueRef::Null,
            Value::Integer(i) => ValueRef::Integer(*i),
            Value::Real(r) => ValueRef::Real(*r),
            Value::Text(s) => ValueRef::Text(s.as_bytes()),
            Value::Blob(b) => ValueRef::Blob(b),
        }))
    }
}

type BoxError = Box<dyn std::error::Error + Sync + Send>;

impl tokio_postgres::types::ToSql for Value {
    fn to_sql(
        &self,
        ty: &tokio_postgres::types::Type,
        out: &mut bytes::BytesMut,
    ) -> std::result::Result<tokio_postgres::types::IsNull, BoxError> {
        use tokio_postgres::types::{IsNull, Type};
        let wrong = || -> BoxError {
            format!("a parameter of type {ty} cannot take {}", self.kind()).into()
        };
        match self {
            Value::Null => Ok(IsNull::Yes),
            Value::Integer(i) => match *ty {
                Type::INT8 => i.to_sql(ty, out),
                Type::INT4 => i32::try_from(*i)?.to_sql(ty, out),
                Type::INT2 => i16::try_from(*i)?.to_sql(ty, out),
                Type::BOOL => (*i != 0).to_sql(ty, out),
                Type::FLOAT8 => (*i as f64).to_sql(ty, out),
                Type::TEXT | Type::VARCHAR | Type::UNKNOWN => i.to_string().to_sql(ty, out),
                _ => Err(wrong()),
            },
            Value::Real(r) => match *ty {
                Type::FLOAT8 => r.to_sql(ty, out),
                Type::FLOAT4 => (*r as f32).to_sql(ty, out),
                Type::TEXT | Type::VARCHAR | Type::UNKNOWN => r.to_string().to_sql(ty, out),
                _ => Err(wrong()),
            },
            Value::Text(s) => match *ty {
                Type::TEXT | Type::VARCHAR | Type::BPCHAR | Type::NAME | Type::UNKNOWN => {
                    s.as_str().to_sql(ty, out)
                }
                Type::BYTEA => s.as_bytes().to_sql(ty, out),
                Type::INT8 => s
                    .trim()
                    .parse::<i64>()
                    .map_err(|_| wrong())?
                    .to_sql(ty, out),
                Type::INT4 => s
                    .trim()
                    .parse::<i32>()
                    .map_err(|_| wrong())?
                    .to_sql(ty, out),
                _ => Err(wrong()),
            },
            Value::Blob(b) => match *ty {
                Type::BYTEA => b.as_slice().to_sql(ty, out),
                _ => Err(wrong()),
            },
        }
    }

    fn accepts(_: &tokio_postgres::types::Type) -> bool {
        true
    }

    tokio_postgres::types::to_sql_checked!();
}

impl<'a> tokio_postgres::types::FromSql<'a> for Value {
    fn from_sql(
        ty: &tokio_postgres::types::Type,
        raw: &'a [u8],
    ) -> std::result::Result<Value, BoxError> {
        use tokio_postgres::types::Type;
        Ok(match *ty {
            Type::INT8 => Value::Integer(i64::from_sql(ty, raw)?),
            Type::INT4 => Value::Integer(i64::from(i32::from_sql(ty, raw)?)),
            Type::INT2 => Value::Integer(i64::from(i16::from_sql(ty, raw)?)),
            Type::BOOL => Value::Integer(i64::from(bool::from_sql(ty, raw)?)),
            Type::FLOAT8 => Value::Real(f64::from_sql(ty, raw)?),
            Type::FLOAT4 => Value::Real(f64::from(f32::from_sql(ty, raw)?)),
            Type::BYTEA => Value::Blob(raw.to_vec()),
            _ => Value::Text(String::from_sql(&Type::TEXT, raw)?),
        })
    }

    fn from_sql_null(_: &tokio_postgres::types::Type) -> std::result::Result<Value, BoxError> {
        Ok(Value::Null)
    }

    fn accepts(ty: &tokio_postgres::types::Type) -> bool {
        use tokio_postgres::types::Type;
        !matches!(*ty, Type::NUMERIC)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn placeholders_are_numbered_for_postgres_outside_quotes() {
        assert_eq!(
            postgres_text("SELECT a FROM t WHERE b = ?2 AND c = '?1' AND d = ?1"),
            "SELECT a FROM t WHERE b = $2 AND c = '?1' AND d = $1"
        );
        assert_eq!(
            postgres_text("VALUES (?, ?, ?5, ?)"),
            "VALUES ($1, $2, $5, $6)"
        );
    }

    #[test]
    fn sqlite_reads_row_locks_as_nothing() {
        assert_eq!(
            sqlite_text("SELECT id FROM m WHERE s = 'new' LIMIT 1 FOR UPDATE SKIP LOCKED"),
            "SELECT id FROM m WHERE s = 'new' LIMIT 1"
        );
        assert_eq!(sqlite_text("SELECT 1 FOR UPDATE"), "SELECT 1");
    }

    /// A kept read is answered from its rows while the transaction lasts
    /// and its table is not written; a write of its table, the
    /// transaction's end, or a read outside one asks again. (The store
    /// writes its SQL in capitals: a write in small letters, which the
    /// store never writes, is how this test sees that the kept rows
    /// answered, not the file.)
    #[test]
    fn kept_reads_answer_until_their_table_is_written_or_the_transaction_ends() {
        let c = Connection::open_in_memory().unwrap();
        c.execute_batch(
            "CREATE TABLE t (k TEXT, v INTEGER); CREATE TABLE t_log (v INTEGER); INSERT INTO t VALUES ('a', 1);",
        )
        .unwrap();
        let read = |c: &Connection| -> i64 {
            c.prepare_cached("SELECT v FROM t WHERE k = ?1")
                .unwrap()
                .kept("t")
                .query_row(["a"], |r| r.get(0))
                .unwrap()
        };
        let tx = c.transaction().unwrap();
        assert_eq!(read(&tx), 1);
        tx.execute("update t set v = 2", []).unwrap();
        assert_eq!(read(&tx), 1, "kept");
        tx.execute("UPDATE t SET v = 3", []).unwrap();
        assert_eq!(read(&tx), 3, "its table written: read again");
        tx.execute("update t set v = 4", []).unwrap();
        tx.execute("INSERT INTO t_log VALUES (1)", []).unwrap();
        assert_eq!(read(&tx), 3, "another table's name is not its own");
        tx.commit().unwrap();
        assert_eq!(read(&c), 4, "the transaction ended: read again");
        c.execute("update t set v = 5", []).unwrap();
        assert_eq!(read(&c), 5, "nothing kept outside a transaction");
    }

    /// SQLite-only SQL in a store module would fail on PostgreSQL only:
    /// none is written (the migrations say per dialect what differs).
    #[test]
    fn the_store_writes_no_sqlite_only_sql() {
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/src/store");
        let mut files: Vec<_> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|e| e == "rs"))
            .filter(|p| !p.ends_with("schema.rs") && !p.ends_with("db.rs"))
            .collect();
        files.sort();
        assert!(files.len() >= 10, "{files:?}");
        let sqlite_only = [
            "INSERT OR ",
            "REPLACE INTO",
            "last_insert_rowid",
            "json_",
            "instr(",
            "randomblob",
            "ifnull(",
            "IFNULL(",
            "group_concat",
            "GROUP_CONCAT",
        ];
        for file in files {
            let text = std::fs::read_to_string(&file).unwrap();
            for word in sqlite_only {
                assert!(
                    !text.contains(word),
                    "{}: {word} is SQLite's alone (store::db says what to write)",
                    file.display()
                );
            }
        }
    }

    #[test]
    fn passwords_in_urls_are_masked() {
        assert_eq!(
            redact("postgres://umpire:s3cret@db.club.example:5432/umpire"),
            "postgres://umpire:***@db.club.example:5432/umpire"
        );
        assert_eq!(
            redact("postgresql://umpire@127.0.0.1/umpire"),
            "postgresql://umpire@127.0.0.1/umpire"
        );
        assert_eq!(redact("umpire.sqlite"), "umpire.sqlite");
    }
}
