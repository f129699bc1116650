//! One game played in the open, for `sololab play`: the state at each turn start, each action,
//! every event of the rules' trace, and the outcome.

use super::experiment::{ErrorKind, ExperimentError, Location, quote};
use super::plan::{axis_kind, check_kind, explain};
use crate::game::{AxisKind, AxisValue, Game, Outcome, SetupValues, Stream, VecTrace, stream_rng};
use crate::policy::Policy;

/// Resolves a setup from `KEY=VALUE` pairs (`--set ruins=2`); other axes take their defaults.
/// A value is read by its axis's kind: an integer, `true`/`false`, or a name; a content value
/// path (`--set monster.Demon.normal.hp=4`, [`crate::content::values`]) takes an integer,
/// `true`/`false` or else a name, and the game's content loading checks it.
///
/// # Errors
/// An [`ExperimentError`] located at the offending `--set KEY=VALUE`: no `=`, an unknown axis
/// (listing the valid ones), an axis given twice (a content value in two spellings too:
/// `monster[1].normal.hp` and `monster.Demon.normal.hp`), a bad value, or a setup the game
/// rejects.
pub fn setup_from_pairs<G: Game>(pairs: &[String]) -> Result<G::Setup, ExperimentError> {
    setup_from_flag::<G>("--set", pairs)
}

/// [`setup_from_pairs`] for pairs given with another flag (`--strength-set`), which the
/// messages name.
///
/// # Errors
/// Those of [`setup_from_pairs`], located at `FLAG KEY=VALUE`.
pub fn setup_from_flag<G: Game>(flag: &str, pairs: &[String]) -> Result<G::Setup, ExperimentError> {
    setup_values_from_flag::<G>(flag, pairs).map(|(_, setup)| setup)
}

/// [`setup_from_pairs`], with the setup values read (for commands that vary them further).
///
/// # Errors
/// Those of [`setup_from_pairs`].
pub fn setup_values_from_pairs<G: Game>(
    pairs: &[String],
) -> Result<(SetupValues, G::Setup), ExperimentError> {
    setup_values_from_flag::<G>("--set", pairs)
}

/// [`setup_values_from_pairs`] for pairs given with flag `flag`, which the messages name.
///
/// # Errors
/// Those of [`setup_from_pairs`], located at `FLAG KEY=VALUE`.
fn setup_values_from_flag<G: Game>(
    flag: &str,
    pairs: &[String],
) -> Result<(SetupValues, G::Setup), ExperimentError> {
    let at = |pair: &str| Location {
        path: format!("{flag} {pair}"),
        line_column: None,
    };
    let mut values = SetupValues::new();
    // Content values given a whole number too large for 64 bits: told their range once every
    // other value is read (the range depends on them), unless they take a real.
    let mut too_large: Vec<(&str, &str, &str)> = Vec::new();
    for (n, pair) in pairs.iter().enumerate() {
        let err = |kind| ExperimentError { at: at(pair), kind };
        let Some((key, text)) = pair.split_once('=') else {
            return Err(err(ErrorKind::Invalid("expected KEY=VALUE".into())));
        };
        let (key, text) = (key.trim(), text.trim());
        let kind = axis_kind::<G>(key);
        let is_value = G::content_toml().is_some() && crate::content::is_value_path(key);
        if kind.is_none() && !is_value {
            return Err(err(ErrorKind::UnknownAxis {
                axis: key.to_string(),
                game: G::NAME.to_string(),
                valid: G::axes().iter().map(|a| a.name.to_string()).collect(),
            }));
        }
        if let Some(first) = pairs[..n]
            .iter()
            .find(|p| p.split('=').next().map(str::trim) == Some(key))
        {
            return Err(err(ErrorKind::Duplicate(format!(
                "axis '{key}' is given twice (first as {flag} {first})"
            ))));
        }
        let not = |expected: String| ErrorKind::AxisValue {
            axis: key.to_string(),
            message: format!("{} is not {expected}", quote(text)),
        };
        let Some(kind) = kind else {
            // A content value path: checked by the game's content loading.
            let real = text
                .contains(|c: char| c.is_ascii_digit())
                .then(|| text.parse::<f64>().ok())
                .flatten();
            let value = if let Ok(n) = text.parse() {
                AxisValue::Int(n)
            } else if let Some(x) = real {
                AxisValue::Real(crate::setup::Real::new(x).ok_or_else(|| {
                    err(ErrorKind::AxisValue {
                        axis: key.to_string(),
                        message: format!("{} is not a finite number", quote(text)),
                    })
                })?)
            } else if let Ok(b) = text.parse() {
                AxisValue::Bool(b)
            } else {
                AxisValue::Name(text.to_string())
            };
            if matches!(value, AxisValue::Real(_)) && crate::input::is_whole_number(text) {
                too_large.push((pair, key, text));
            }
            values.insert(key.to_string(), value);
            continue;
        };
        let value = match kind {
            AxisKind::Int { min, max } => text.parse().map(AxisValue::Int).map_err(|_| {
                // A whole number too large for 64 bits is still a whole number.
                let too_large = crate::input::is_whole_number(text)
                    .then(|| super::values::too_large_integer::<G>(&values, key, text))
                    .flatten();
                err(match too_large {
                    Some(message) => ErrorKind::AxisValue {
                        axis: key.to_string(),
                        message,
                    },
                    None => not(format!("an integer in {min}..={max}")),
                })
            })?,
            AxisKind::Bool => text
                .parse()
                .map(AxisValue::Bool)
                .map_err(|_| err(not("true or false".into())))?,
            AxisKind::Name => AxisValue::Name(text.to_string()),
        };
        check_kind(key, &kind, &value).map_err(err)?;
        values.insert(key.to_string(), value);
    }
    for (pair, key, text) in too_large {
        if let Some(message) = super::values::too_large_integer::<G>(&values, key, text) {
            return Err(ExperimentError {
                at: at(pair),
                kind: ErrorKind::AxisValue {
                    axis: key.to_string(),
                    message,
                },
            });
        }
    }
    // Two spellings of one content value (`monster[1].normal.hp`, `monster.Demon.normal.hp`)
    // are one key given twice, as the same spelling is.
    let keys: Vec<&str> = pairs
        .iter()
        .map(|p| p.split('=').next().unwrap_or_default().trim())
        .collect();
    if let Some((i, j)) = super::values::first_alias::<G>(std::slice::from_ref(&values), &keys) {
        return Err(ExperimentError {
            at: at(&pairs[j]),
            kind: ErrorKind::Duplicate(format!(
                "axis '{}' is given twice (first as {flag} {}, the same content value)",
                keys[j], pairs[i]
            )),
        });
    }
    let setup = G::resolve_setup(&values).map_err(|e| {
        let (culprit, message) = explain::<G>(&values, e.0);
        let pair = culprit
            .and_then(|axis| {
                pairs
                    .iter()
                    .rev()
                    .find(|p| p.split('=').next().map(str::trim) == Some(&axis))
            })
            .map_or_else(|| flag.to_string(), |p| format!("{flag} {p}"));
        ExperimentError {
            at: Location {
                path: pair,
                line_column: None,
            },
            kind: ErrorKind::Setup {
                cell: String::new(),
                message,
            },
        }
    })?;
    Ok((values, setup))
}

/// Plays `start` to the end with `policy`, drawing chance and the policy's randomness from the
/// streams of game `index` of `seed` (`game = (seed, index)`: so `sololab play --seed S --index
/// I` with the same setup replays game I of every cell of an experiment seeded `S`), and sends
/// every line of the playthrough to `emit`:
/// `== turn N ==` and the state's `Display` at each turn start, `> action` for each decision,
/// the trace's events indented by two spaces, and finally `outcome: won` or
/// `outcome: lost (cause)`. Returns the outcome.
///
/// # Panics
/// When the game does not end within [`Game::MAX_DECISIONS`] decisions (a bug in the game).
pub fn play_traced<G: Game>(
    start: G,
    policy: &mut dyn Policy<G>,
    (seed, index): (u64, u64),
    emit: &mut dyn FnMut(&str),
) -> Outcome {
    let mut state = start;
    let mut chance = stream_rng(seed, index, Stream::Chance);
    let mut own = stream_rng(seed, index, Stream::Policy);
    let mut legal = Vec::new();
    let mut shown_turn = None;
    let mut decisions = 0u32;
    let outcome = loop {
        if let Some(outcome) = state.outcome() {
            break outcome;
        }
        assert!(
            decisions < G::MAX_DECISIONS,
            "{}: the game did not end within {} decisions",
            G::NAME,
            G::MAX_DECISIONS
        );
        if shown_turn != Some(state.turns()) {
            shown_turn = Some(state.turns());
            emit(&format!("== state, turn {} ==", state.turns()));
            for line in state.to_string().lines() {
                emit(line);
            }
        }
        state.legal_actions(&mut legal);
        let action = policy.choose_foreseeing(&state, &legal, &mut own, &chance);
        emit(&format!("> {}", state.action_text(action)));
        let mut trace = VecTrace::default();
        state.apply_traced(action, &mut chance, &mut trace);
        for event in &trace.0 {
            emit(&format!("  {event}"));
        }
        decisions += 1;
    };
    for line in state.to_string().lines() {
        emit(line);
    }
    emit(&match outcome {
        Outcome::Won => format!("outcome: won after {} turns", state.turns()),
        Outcome::Lost(cause) => format!(
            "outcome: lost ({}) after {} turns",
            G::LOSS_CAUSES[cause as usize],
            state.turns()
        ),
    });
    outcome
}
