//! Player policies: the [`Policy`] trait and the strategies (`strategies/*.toml`) that build
//! them: `random`, `greedy` and `mcts` (DESIGN.md, "Policies").
//!
//! A policy never sees the game's chance stream: it draws only from the policy stream passed
//! to [`Policy::choose`], and a search simulates futures with generators of its own, seeded
//! from that stream. So advancing the game's dice never changes what a policy chooses, and a
//! seeded run is reproducible bit for bit.
//!
//! - [`RandomPolicy`]: uniform over the legal actions;
//! - [`GreedyPolicy`]: one-ply look-ahead on a weighted feature score, planning a move and the
//!   attack that follows it as one choice ([`PlanStep`](crate::game::PlanStep));
//! - [`MctsPolicy`]: open-loop UCT with determinization and a fixed iteration budget;
//! - [`Strategy`]: a named, validated strategy file, and the one registry of shipped ones.

mod greedy;
mod mcts;
mod random;
mod strategy;

use crate::game::{Game, GameRng};

pub use greedy::{GreedyPolicy, WIN_BONUS};
pub use mcts::{MctsConfig, MctsPolicy, cutoff_value};
pub use random::RandomPolicy;
pub use strategy::{
    MAX_ITERATIONS, Rollout, Strategy, StrategyError, StrategyErrorKind, StrategyKind, Weights,
    strategy_names,
};

/// Chooses the player's actions.
pub trait Policy<G: Game>: Send {
    /// Chooses one of `legal` (non-empty, as written by [`Game::legal_actions`]) in `state`.
    /// `rng` is this game's policy stream.
    fn choose(&mut self, state: &G, legal: &[G::Action], rng: &mut GameRng) -> G::Action;
}
