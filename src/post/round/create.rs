//! A new game: its rows, the first round's committed seed, and the
//! welcome mails (each with the table at the start).

use super::*;
use crate::post::{gamefile, password};

/// Create the game's rows, the first round's seed, and the welcome mails.
pub fn create_game(
    tx: &Transaction<'_>,
    config: &Config,
    file: &GameFile,
    now: DateTime<Utc>,
) -> Result<(), PostError> {
    let scenario_text =
        std::fs::read_to_string(&file.scenario).map_err(|e| PostError::Scenario {
            path: file.scenario.display().to_string(),
            message: e.to_string(),
        })?;
    create_game_of(tx, config, file, scenario_text, now)
}

/// [`create_game`] with the scenario's text given rather than read from
/// `file.scenario` (a campaign's battle by mail makes its own, ruling CA-18).
pub(crate) fn create_game_of(
    tx: &Transaction<'_>,
    config: &Config,
    file: &GameFile,
    scenario_text: String,
    now: DateTime<Utc>,
) -> Result<(), PostError> {
    if Game::load(tx, &file.id)?.is_some() {
        return Err(PostError::GameExists(file.id.clone()));
    }
    let first_deadline = file.first_deadline_at(now)?;
    if first_deadline <= now {
        return Err(PostError::NotStarted(format!(
            "the first deadline {} ({}) has passed: give a later first_deadline in the game file",
            file.first_deadline, file.timezone
        )));
    }
    let ruleset = games::named(&file.ruleset)?;
    let (seed, seed_hash) = new_seed(config);
    let new = set_up(ruleset, file, &scenario_text, &seed)?;
    let stand_in = file.absence.when == gamefile::WhenAbsent::General;
    if stand_in || file.sides.iter().any(|s| s.general.is_some()) {
        ruleset
            .general_plays(&new.options)
            .map_err(PostError::NotStarted)?;
    }
    let mod_pw = file
        .moderator
        .password
        .clone()
        .unwrap_or_else(|| password::fresh(&config.entropy));
    let first = ruleset.round(&new.state)?;
    let row = GameRow {
        id: file.id.clone(),
        ruleset: ruleset.name().to_string(),
        title: file.title.clone(),
        setup: scenario_text,
        options: to_json(&new.options)?,
        state: to_json(&new.state)?,
        round: first.number,
        status: GameStatus::Active,
        hold: file.hold,
        moderator_address: file.moderator.address.to_ascii_lowercase(),
        moderator_pw: password::hash_kept(tx, config, &mod_pw)?,
        deadline: first_deadline,
        turn_hours: file.turn_hours,
        gm_hours: file.gm_hours,
        timezone: file.timezone.clone(),
        grace_minutes: file.grace_minutes,
        reminder_hours: file.reminder_hours,
        max_turns: new.last_turn,
        failure: None,
    };
    crate::store::games::insert(tx, &row, now)?;
    let game = Game::load(tx, &file.id)?.ok_or_else(|| PostError::NoGame(file.id.clone()))?;
    open_round(tx, &game, seed, seed_hash.clone())?;
    crate::post::press::MailRules::of_file(file).save(tx, &file.id)?;
    let opening = Opening {
        file,
        game: &game,
        first: &first,
        seed_hash: &seed_hash,
    };
    for s in &file.sides {
        let welcome = new.welcome.get(&s.id).cloned().unwrap_or_default();
        welcome_side(tx, config, &opening, s, welcome, now)?;
    }
    welcome_moderator(tx, config, &opening, &mod_pw, now)?;
    crate::post::general::write_orders(tx, config, &game, now)?;
    audit(tx, now, Some(&file.id), "game created")?;
    Ok(())
}

/// The rule set's new game from the game file and the scenario, with a
/// committed `seed`; refused when the game file names a side the scenario
/// does not have.
fn set_up(
    ruleset: &dyn games::Ruleset,
    file: &GameFile,
    scenario_text: &str,
    seed: &str,
) -> Result<games::NewGame, PostError> {
    let (armies, pack) = file.read_armies_and_pack()?;
    let companions = gamefile::read_companions(&file.scenario, &ruleset.companions(scenario_text));
    let scenario_error = |message: String| PostError::Scenario {
        path: file.scenario.display().to_string(),
        message,
    };
    let new = ruleset
        .new_game(&Setup {
            scenario_path: &file.scenario,
            scenario_text,
            options: &file.options,
            max_turns: file.max_turns,
            seed: seed_bytes(seed)?,
            armies: &armies,
            pack: pack.as_deref(),
            companions: &companions,
        })
        .map_err(|e| scenario_error(e.to_string()))?;
    if let Some(s) = file.sides.iter().find(|s| !new.sides.contains(&s.id)) {
        return Err(scenario_error(format!(
            "the game file names side '{}' but the scenario's sides are: {}",
            s.id,
            new.sides.join(", ")
        )));
    }
    Ok(new)
}

/// What every welcome of a new game names: the game file, the game as
/// stored, its first round and that round's published seed hash.
struct Opening<'a> {
    file: &'a GameFile,
    game: &'a Game,
    first: &'a games::Round,
    seed_hash: &'a str,
}

/// Store one side with its password and queue its welcome: the password,
/// the first deadline, the rule set's briefing, and the table at the start
/// as PNG and SVG where the rule set draws one.
fn welcome_side(
    tx: &Transaction<'_>,
    config: &Config,
    opening: &Opening<'_>,
    s: &gamefile::SideEntry,
    welcome: games::Welcome,
    now: DateTime<Utc>,
) -> Result<(), PostError> {
    let file = opening.file;
    let pw = s
        .password
        .clone()
        .unwrap_or_else(|| password::fresh(&config.entropy));
    let side = SideRow {
        side: s.id.clone(),
        address: s.address.to_ascii_lowercase(),
        password: password::hash_kept(tx, config, &pw)?,
        timezone: s.timezone.clone(),
        general: s.general.map(|g| g.code().to_string()),
    };
    crate::store::games::insert_side(tx, &file.id, &side)?;
    // A general's side is mailed nothing; its password is never told.
    if s.general.is_some() {
        return Ok(());
    }
    let opponents: Vec<String> = file
        .sides
        .iter()
        .filter_map(|o| o.general.map(|g| general_line(&o.id, g)))
        .collect();
    let text = templates::render(
        "welcome.txt",
        minijinja::context! {
            title => &file.title, game => &file.id, side => &s.id, password => &pw,
            umpire => &config.address, deadline => opening.game.deadline_for(&side),
            round => capitalize_first(&opening.first.label), seed_hash => opening.seed_hash, address => &s.address,
            rules => welcome.rules, length => welcome.length, briefing => welcome.briefing, example => welcome.example,
            generals => opponents,
        },
    );
    let mut mail = plain(
        config,
        vec![s.address.clone()],
        format!("[{}] Welcome: you command {}", file.id, s.id),
        text,
        None,
    );
    if let Some(svg) = &welcome.picture {
        let png = picture::png(svg).map_err(|e| PostError::Corrupt(e.to_string()))?;
        let name = format!("{}-start", file.id);
        mail.attachments.push(Attachment {
            name: format!("{name}.png"),
            mime: "image/png".into(),
            bytes: png,
        });
        mail.attachments.push(Attachment {
            name: format!("{name}.svg"),
            mime: "image/svg+xml".into(),
            bytes: svg.clone().into_bytes(),
        });
    }
    outbox::queue(tx, config, Some(&file.id), Kind::Welcome, &mail, &s.id, now)?;
    Ok(())
}

/// What a player is told of a side the umpire's general plays.
fn general_line(side: &str, style: crate::sim::Style) -> String {
    format!(
        "{side} is played by the umpire's {style} general, who {}. Its orders appear in each report with yours.",
        style.manner()
    )
}

/// Queue the moderator's welcome: his password and the first deadline.
fn welcome_moderator(
    tx: &Transaction<'_>,
    config: &Config,
    opening: &Opening<'_>,
    mod_pw: &str,
    now: DateTime<Utc>,
) -> Result<(), PostError> {
    let file = opening.file;
    let mut text = format!(
        "You moderate {} ({}). Your moderator password: {mod_pw}\n\
         Moderator commands start with the line: MODERATOR {} PASSWORD {mod_pw}\n\
         First deadline: {}\n",
        file.title,
        file.id,
        file.id,
        opening.game.deadline_text()
    );
    for s in &file.sides {
        if let Some(style) = s.general {
            let _ = writeln!(
                text,
                "{} is played by the umpire's {style} general: it writes as each round opens, and you are told if the rules ever refuse a line of it. REPLACE {} new@address hands the side to a player.",
                s.id, s.id
            );
        }
    }
    let mail = plain(
        config,
        vec![file.moderator.address.clone()],
        format!("[{}] You moderate this game", file.id),
        text,
        None,
    );
    outbox::queue(
        tx,
        config,
        Some(&file.id),
        Kind::Welcome,
        &mail,
        "moderator",
        now,
    )?;
    Ok(())
}
