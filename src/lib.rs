//! sololab: a headless simulation and balancing lab for solo and co-op tabletop games whose
//! opponent is written into the rules.
//!
//! The core (games, policies, simulation) does no IO and cannot fail; only the edges
//! (experiment, strategy and content files, reports, the CLI) return errors. See
//! `ARCHITECTURE.md` for the map of the code and its invariants.

pub mod content;
pub mod game;
pub mod games;
pub mod input;
pub mod lab;
pub mod policy;
pub mod position_text;
pub mod setup;

pub use game::{
    Axis, AxisKind, AxisValue, Game, GameRng, GateSize, NoTrace, Outcome, PlanStep, PositionError,
    SetupError, SetupValues, Stream, Tracer, VecTrace, below, game_seed, mix64, stream_rng,
};
pub use games::GameKind;
pub use policy::{Policy, Strategy, StrategyKind};
