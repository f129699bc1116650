//! The tuning commands of the `sololab` binary (issue 17): `list values`, `calibrate` and
//! `sensitivity`, kept apart from `cli.rs`. Each resolves its whole input (experiment, value
//! paths, flags) before playing a game; errors are one line, exit status 2.

use anyhow::Result;
use clap::Args;
use sololab::lab;
use sololab::{Game, GameKind, with_game};

/// `sololab list values GAME [--set KEY=VALUE]...`
#[derive(Args, Debug)]
pub struct ValuesArgs {
    /// The game.
    game: String,
    /// A setup value, KEY=VALUE (`content=my-cards.toml` lists that file's values); repeatable.
    #[arg(long = "set", value_name = "KEY=VALUE")]
    set: Vec<String>,
}

/// `list values`: the text to print.
///
/// # Errors
/// An unknown game, a bad `--set`, an unreadable content file.
pub fn values_command(args: &ValuesArgs) -> Result<String> {
    let kind = GameKind::from_name(&args.game).map_err(anyhow::Error::msg)?;
    with_game!(kind, G => values_typed::<G>(&args.set))
}

fn values_typed<G: Game>(set: &[String]) -> Result<String> {
    let (values, _) = lab::setup_values_from_pairs::<G>(set)?;
    let tunables = lab::tunables::<G>(&values, None)?;
    Ok(lab::values_text(&tunables))
}
