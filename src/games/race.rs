//! A tiny fixture game for testing the lab and the policies without a full rules engine: reach
//! square 10 within 6 turns, walking 1 square for sure or running 3 squares on a coin flip.
//!
//! It is deliberately not in the registry ([`GameKind`](super::GameKind)): users never play it.
//! Its optimal play is known (run while behind the walking pace), so tests can check that
//! policies tell good choices from bad.

use std::fmt;

use crate::game::{
    Axis, AxisKind, Game, GameRng, Outcome, PositionError, SetupError, SetupValues, Tracer, below,
};

/// Squares to reach.
pub const GOAL: u8 = 10;
/// Turns available.
pub const TURNS: u8 = 6;

/// A race position.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Race {
    /// Squares reached, `0..=GOAL`.
    pub position: u8,
    /// Turns played, `0..=TURNS`.
    pub turn: u8,
}

/// The two choices.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum RaceAction {
    /// +1 square.
    Walk,
    /// +3 squares on heads, nothing on tails.
    Run,
}

static AXES: [Axis; 1] = [Axis {
    name: "start",
    kind: AxisKind::Int { min: 0, max: 9 },
    default: "0",
    doc: "starting square (fixture)",
}];

impl fmt::Display for Race {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "square {}/{} after {} of {} turns",
            self.position, GOAL, self.turn, TURNS
        )
    }
}

impl Game for Race {
    type Action = RaceAction;
    type Setup = u8;
    const NAME: &'static str = "race";
    const MAX_DECISIONS: u32 = TURNS as u32;

    fn axes() -> &'static [Axis] {
        &AXES
    }
    fn resolve_setup(values: &SetupValues) -> Result<u8, SetupError> {
        let r = crate::setup::AxisReader::new(Self::NAME, &AXES, values)?;
        Ok(r.int("start")?.unwrap_or(0) as u8)
    }
    fn axis_names(_setup: &u8, _axis: &str) -> Vec<String> {
        Vec::new()
    }
    fn new_game(setup: &u8, _rng: &mut GameRng) -> Self {
        Race {
            position: *setup,
            turn: 0,
        }
    }
    fn legal_actions(&self, out: &mut Vec<RaceAction>) {
        out.clear();
        if self.outcome().is_none() {
            out.push(RaceAction::Walk);
            out.push(RaceAction::Run);
        }
    }
    fn apply_traced<T: Tracer>(&mut self, action: RaceAction, rng: &mut GameRng, trace: &mut T) {
        let gain = match action {
            RaceAction::Walk => 1,
            RaceAction::Run => {
                if below(rng, 2) == 0 {
                    3
                } else {
                    0
                }
            }
        };
        trace.event(|| format!("{action:?}: +{gain}"));
        self.position = (self.position + gain).min(GOAL);
        self.turn += 1;
    }
    fn result_code(&self) -> u8 {
        if self.position >= GOAL {
            Outcome::Won.code()
        } else if self.turn >= TURNS {
            Outcome::Lost(0).code()
        } else {
            0
        }
    }
    const LOSS_CAUSES: &'static [&'static str] = &["out_of_time"];
    const FEATURE_NAMES: &'static [&'static str] = &["position", "turns_left"];
    fn features(&self, out: &mut [f64]) {
        out[0] = self.position as f64;
        out[1] = (TURNS - self.turn) as f64;
    }
    const METRIC_NAMES: &'static [&'static str] = &["final_position"];
    fn metrics(&self, out: &mut [i64]) {
        out[0] = self.position as i64;
    }
    fn turns(&self) -> u32 {
        self.turn as u32
    }
    fn action_text(&self, action: RaceAction) -> String {
        format!("{action:?}").to_lowercase()
    }
    fn to_position(&self) -> String {
        format!("race {} {}\n", self.position, self.turn)
    }
    fn from_position(text: &str) -> Result<Self, PositionError> {
        let err = |m: &str| PositionError {
            line: 1,
            message: m.to_string(),
        };
        let mut it = text.split_whitespace();
        if it.next() != Some("race") {
            return Err(err("expected 'race POSITION TURN'"));
        }
        let position: u8 = it
            .next()
            .and_then(|s| s.parse().ok())
            .ok_or_else(|| err("bad position"))?;
        let turn: u8 = it
            .next()
            .and_then(|s| s.parse().ok())
            .ok_or_else(|| err("bad turn"))?;
        if position > GOAL || turn > TURNS {
            return Err(err("position or turn out of range"));
        }
        Ok(Race { position, turn })
    }
}
