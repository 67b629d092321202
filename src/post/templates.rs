//! The mail texts, rendered from `templates/mail/` with minijinja. The
//! templates only format values they are given; they compute no rules.

use minijinja::Environment;
use serde::Serialize;
use std::sync::OnceLock;

fn env() -> &'static Environment<'static> {
    static ENV: OnceLock<Environment<'static>> = OnceLock::new();
    ENV.get_or_init(|| {
        let mut env = Environment::new();
        env.set_trim_blocks(false);
        for (name, text) in [
            (
                "welcome.txt",
                include_str!("../../templates/mail/welcome.txt"),
            ),
            (
                "refusal.txt",
                include_str!("../../templates/mail/refusal.txt"),
            ),
            (
                "status.txt",
                include_str!("../../templates/mail/status.txt"),
            ),
            (
                "confirmation.txt",
                include_str!("../../templates/mail/confirmation.txt"),
            ),
            (
                "reminder.txt",
                include_str!("../../templates/mail/reminder.txt"),
            ),
            ("held.txt", include_str!("../../templates/mail/held.txt")),
            (
                "game_master.txt",
                include_str!("../../templates/mail/game_master.txt"),
            ),
        ] {
            env.add_template(name, text)
                .unwrap_or_else(|e| panic!("built-in template {name} is broken: {e}"));
        }
        env
    })
}

/// Render a built-in template. The templates ship inside the binary and
/// are covered by tests, so a failure here is a bug, reported as text
/// rather than a panic so the mail still goes out.
pub fn render(name: &str, ctx: impl Serialize) -> String {
    match env().get_template(name).and_then(|t| t.render(ctx)) {
        Ok(s) => s,
        Err(e) => {
            tracing::error!(template = name, error = %e, "template failed");
            format!("(umpire could not format this message: {e})")
        }
    }
}
