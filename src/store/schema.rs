//! Versioned migrations. Each entry moves the schema from version `i` to
//! `i + 1` (SQLite's `user_version`). Never edit a released migration:
//! append a new one. Plain SQL types only, so the schema ports to PostgreSQL.

pub const MIGRATIONS: &[&str] = &[
    // 1: the post office.
    r#"
CREATE TABLE messages (
    id          INTEGER PRIMARY KEY,
    message_id  TEXT NOT NULL UNIQUE,
    raw         BLOB NOT NULL,
    source      TEXT NOT NULL,
    received_at TEXT NOT NULL,
    state       TEXT NOT NULL DEFAULT 'new',
    note        TEXT
);
CREATE INDEX messages_state ON messages(state);

CREATE TABLE games (
    id                TEXT PRIMARY KEY,
    title             TEXT NOT NULL,
    setup             TEXT NOT NULL,
    options           TEXT NOT NULL,
    state             TEXT NOT NULL,
    turn              INTEGER NOT NULL,
    status            TEXT NOT NULL DEFAULT 'active',
    hold              INTEGER NOT NULL DEFAULT 0,
    moderator_address TEXT NOT NULL,
    moderator_pw      TEXT NOT NULL,
    deadline          TEXT NOT NULL,
    turn_hours        INTEGER NOT NULL,
    timezone          TEXT NOT NULL,
    grace_minutes     INTEGER NOT NULL DEFAULT 0,
    reminder_hours    INTEGER NOT NULL DEFAULT 0,
    max_turns         INTEGER NOT NULL DEFAULT 12,
    created_at        TEXT NOT NULL
);

CREATE TABLE sides (
    game_id  TEXT NOT NULL REFERENCES games(id),
    side     TEXT NOT NULL,
    address  TEXT NOT NULL,
    password TEXT NOT NULL,
    PRIMARY KEY (game_id, side)
);

CREATE TABLE turns (
    game_id        TEXT NOT NULL REFERENCES games(id),
    turn           INTEGER NOT NULL,
    seed           TEXT NOT NULL,
    seed_hash      TEXT NOT NULL,
    state_before   TEXT,
    state_after    TEXT,
    orders         TEXT,
    events         TEXT,
    report         TEXT,
    adjudicated_at TEXT,
    released       INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (game_id, turn)
);

CREATE TABLE submissions (
    id          INTEGER PRIMARY KEY,
    game_id     TEXT NOT NULL REFERENCES games(id),
    turn        INTEGER NOT NULL,
    side        TEXT NOT NULL,
    message     INTEGER NOT NULL REFERENCES messages(id),
    text        TEXT NOT NULL,
    checked     TEXT NOT NULL,
    understood  TEXT NOT NULL,
    created_at  TEXT NOT NULL
);
CREATE INDEX submissions_turn ON submissions(game_id, turn, side);

CREATE TABLE outbox (
    id           INTEGER PRIMARY KEY,
    message_id   TEXT NOT NULL UNIQUE,
    game_id      TEXT,
    kind         TEXT NOT NULL,
    recipients   TEXT NOT NULL,
    raw          BLOB NOT NULL,
    created_at   TEXT NOT NULL,
    attempts     INTEGER NOT NULL DEFAULT 0,
    next_attempt TEXT NOT NULL,
    sent_at      TEXT,
    last_error   TEXT
);
CREATE INDEX outbox_pending ON outbox(sent_at, next_attempt);

CREATE TABLE reminders (
    game_id TEXT NOT NULL,
    turn    INTEGER NOT NULL,
    side    TEXT NOT NULL,
    PRIMARY KEY (game_id, turn, side)
);

CREATE TABLE log (
    id      INTEGER PRIMARY KEY,
    at      TEXT NOT NULL,
    game_id TEXT,
    level   TEXT NOT NULL,
    text    TEXT NOT NULL
);
"#,
    // 2: dice a moderator supplies for a turn, and those a played turn used.
    r#"
CREATE TABLE moderator_dice (
    game_id TEXT NOT NULL REFERENCES games(id),
    turn    INTEGER NOT NULL,
    key     TEXT NOT NULL,
    value   INTEGER NOT NULL,
    PRIMARY KEY (game_id, turn, key)
);
ALTER TABLE turns ADD COLUMN moderator_dice TEXT;
"#,
    // 3: campaigns on the world map (issue 9): the state as JSON, the
    // powers' players, orders as mailed, entered battle results, turns.
    r#"
CREATE TABLE campaigns (
    id                TEXT PRIMARY KEY,
    title             TEXT NOT NULL,
    state             TEXT NOT NULL,
    seed              TEXT NOT NULL,
    secretary_address TEXT NOT NULL,
    secretary_pw      TEXT NOT NULL,
    status            TEXT NOT NULL DEFAULT 'active',
    created_at        TEXT NOT NULL
);

CREATE TABLE campaign_powers (
    campaign_id TEXT NOT NULL REFERENCES campaigns(id),
    power       TEXT NOT NULL,
    address     TEXT NOT NULL,
    password    TEXT NOT NULL,
    PRIMARY KEY (campaign_id, power)
);

CREATE TABLE campaign_orders (
    id          INTEGER PRIMARY KEY,
    campaign_id TEXT NOT NULL REFERENCES campaigns(id),
    turn        INTEGER NOT NULL,
    power       TEXT NOT NULL,
    message     INTEGER NOT NULL REFERENCES messages(id),
    text        TEXT NOT NULL,
    orders      TEXT NOT NULL,
    created_at  TEXT NOT NULL
);
CREATE INDEX campaign_orders_turn ON campaign_orders(campaign_id, turn, power);

CREATE TABLE campaign_results (
    campaign_id TEXT NOT NULL REFERENCES campaigns(id),
    battle      INTEGER NOT NULL,
    result      TEXT NOT NULL,
    applied     INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (campaign_id, battle)
);

CREATE TABLE campaign_turns (
    campaign_id  TEXT NOT NULL REFERENCES campaigns(id),
    turn         INTEGER NOT NULL,
    state_before TEXT NOT NULL,
    state_after  TEXT NOT NULL,
    orders       TEXT NOT NULL,
    events       TEXT NOT NULL,
    resolved_at  TEXT NOT NULL,
    PRIMARY KEY (campaign_id, turn)
);
"#,
    // 4: a campaign's map turn has a deadline (settings.week_hours), after
    // which the week is resolved with the orders in.
    r#"
ALTER TABLE campaigns ADD COLUMN deadline TEXT;
"#,
    // 5: several rule sets, and rounds rather than turns (issue 19). A
    // game names its rule set (the Hyborean Age for games made before);
    // each round keeps its label, the sides that write it, and the rules'
    // identity it was played under; played rounds keep each side's orders
    // apart (orders stored before are one merged set, kept under "*").
    r#"
ALTER TABLE games ADD COLUMN ruleset TEXT NOT NULL DEFAULT 'hyborian-age';
ALTER TABLE games RENAME COLUMN turn TO round;
ALTER TABLE turns RENAME TO rounds;
ALTER TABLE rounds RENAME COLUMN turn TO round;
ALTER TABLE rounds ADD COLUMN label TEXT;
ALTER TABLE rounds ADD COLUMN writers TEXT;
ALTER TABLE rounds ADD COLUMN rules TEXT;
UPDATE rounds SET orders = json_object('*', json(orders)) WHERE orders IS NOT NULL;
ALTER TABLE submissions RENAME COLUMN turn TO round;
ALTER TABLE reminders RENAME COLUMN turn TO round;
ALTER TABLE moderator_dice RENAME COLUMN turn TO round;
"#,
    // 6: a post office that never stops and never sends twice (issue 14).
    // The installation's own key (reply Message-IDs are unique to it); each
    // message's digest, size and arrival time (the raw bytes may be only the
    // head of a huge message, or masked once handled); outbox leases so two
    // senders never send one row; a row that held a password loses its body
    // once sent; why a game's last tick failed; wrong passwords per side.
    r#"
CREATE TABLE meta (
    key   TEXT PRIMARY KEY,
    value TEXT NOT NULL
);
INSERT INTO meta (key, value) VALUES ('installation', lower(hex(randomblob(16))));
ALTER TABLE messages ADD COLUMN digest TEXT;
ALTER TABLE messages ADD COLUMN size INTEGER;
ALTER TABLE messages ADD COLUMN arrived_at TEXT;
ALTER TABLE outbox ADD COLUMN lease_owner TEXT;
ALTER TABLE outbox ADD COLUMN lease_until TEXT;
ALTER TABLE outbox ADD COLUMN secret INTEGER NOT NULL DEFAULT 0;
ALTER TABLE games ADD COLUMN failure TEXT;
CREATE TABLE password_failures (
    id      INTEGER PRIMARY KEY,
    game_id TEXT NOT NULL,
    side    TEXT NOT NULL,
    address TEXT NOT NULL,
    at      TEXT NOT NULL
);
CREATE INDEX password_failures_side ON password_failures(game_id, side, at);
CREATE TABLE lockouts (
    game_id TEXT NOT NULL,
    side    TEXT NOT NULL,
    address TEXT NOT NULL,
    until   TEXT NOT NULL,
    PRIMARY KEY (game_id, side, address)
);
"#,
    // 7: whether a side's orders may be played before the deadline: a mail
    // with refused lines waits for the deadline unless its writer says READY;
    // the seeds a held round was played with before the moderator rejected
    // it (issue 15).
    r#"
ALTER TABLE submissions ADD COLUMN ready INTEGER NOT NULL DEFAULT 1;
ALTER TABLE rounds ADD COLUMN rejected TEXT;
"#,
    // 8: what DKIM said of a message when it was first read (JSON of
    // `mail::dkim::Verdict`; NULL when not checked). Kept because the stored
    // copy is masked once handled and would no longer verify (issue 14).
    r#"
ALTER TABLE messages ADD COLUMN dkim TEXT;
"#,
    // 9: a player's own time zone (NULL: the game's), for every deadline
    // the player is shown (issue 15).
    r#"
ALTER TABLE sides ADD COLUMN timezone TEXT;
"#,
    // 10: mail for the round after the open one, held until that round
    // opens (issue 21): the message (state 'deferred'), the game, the round
    // it is for and the side whose identity was proven when it came; when
    // it was let go to be read again.
    r#"
CREATE TABLE deferred (
    message     INTEGER PRIMARY KEY REFERENCES messages(id),
    game_id     TEXT NOT NULL,
    round       INTEGER NOT NULL,
    side        TEXT NOT NULL,
    address     TEXT NOT NULL,
    held_at     TEXT NOT NULL,
    released_at TEXT
);
CREATE INDEX deferred_round ON deferred(game_id, round);
"#,
    // 11: club leagues (issue 24): the league and its rules (JSON of
    // `league::Settings`), the game files it plays (JSON list of paths), its
    // members by seat (seeding order), and each round's boards: a game (or a
    // bye, game_id NULL), who plays which side, and the result once recorded
    // (`league::Score` code, or 'bye'), numbered in the order recorded so
    // ratings replay the same way every time.
    r#"
CREATE TABLE leagues (
    id         TEXT PRIMARY KEY,
    name       TEXT NOT NULL,
    moderator  TEXT NOT NULL,
    settings   TEXT NOT NULL,
    games      TEXT NOT NULL,
    created_at TEXT NOT NULL
);
CREATE TABLE league_members (
    league_id TEXT NOT NULL REFERENCES leagues(id),
    seat      INTEGER NOT NULL,
    name      TEXT NOT NULL,
    address   TEXT NOT NULL,
    prefers   TEXT,
    timezone  TEXT,
    PRIMARY KEY (league_id, seat)
);
CREATE TABLE league_games (
    league_id   TEXT NOT NULL REFERENCES leagues(id),
    round       INTEGER NOT NULL,
    board       INTEGER NOT NULL,
    game_id     TEXT REFERENCES games(id),
    first_seat  INTEGER NOT NULL,
    second_seat INTEGER,
    first_side  TEXT,
    second_side TEXT,
    score       TEXT,
    how         TEXT,
    recorded    INTEGER,
    recorded_at TEXT,
    PRIMARY KEY (league_id, round, board)
);
CREATE UNIQUE INDEX league_games_game ON league_games(game_id);
"#,
    // 12: players talking to each other, and away (issue 16): a game's
    // rules for press and absence (JSON of `post::press::MailRules`, from the
    // game file; NULL row: the defaults); every press delivered (its sender,
    // readers, whether grey, its text); each absence a player declared, with
    // its standby's password hash; the rounds whose deadline an absence has
    // moved (once a round).
    r#"
CREATE TABLE mail_rules (
    game_id TEXT PRIMARY KEY REFERENCES games(id),
    rules   TEXT NOT NULL
);
CREATE TABLE press (
    id         INTEGER PRIMARY KEY,
    game_id    TEXT NOT NULL REFERENCES games(id),
    round      INTEGER NOT NULL,
    message    INTEGER NOT NULL,
    sender     TEXT NOT NULL,
    readers    TEXT NOT NULL,
    grey       INTEGER NOT NULL,
    body       TEXT NOT NULL,
    sent_at    TEXT NOT NULL
);
CREATE INDEX press_game ON press(game_id, id);
CREATE TABLE absences (
    id           INTEGER PRIMARY KEY,
    game_id      TEXT NOT NULL REFERENCES games(id),
    side         TEXT NOT NULL,
    starts       TEXT NOT NULL,
    ends         TEXT NOT NULL,
    standby_pw   TEXT,
    declared_at  TEXT NOT NULL,
    cancelled_at TEXT
);
CREATE INDEX absences_side ON absences(game_id, side);
CREATE TABLE absence_extensions (
    game_id TEXT NOT NULL,
    round   INTEGER NOT NULL,
    PRIMARY KEY (game_id, round)
);
"#,
    // 13: the campaign's battles by mail (ruling CA-18): which battle game
    // plays which waiting battle, and whether its result went back.
    r#"
CREATE TABLE campaign_battles (
    campaign_id TEXT NOT NULL REFERENCES campaigns(id),
    battle      INTEGER NOT NULL,
    game_id     TEXT NOT NULL REFERENCES games(id),
    created_at  TEXT NOT NULL,
    returned_at TEXT,
    PRIMARY KEY (campaign_id, battle)
);
CREATE UNIQUE INDEX campaign_battles_game ON campaign_battles(game_id);
"#,
];
