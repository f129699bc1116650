//! Player policies: the [`Policy`] trait and the strategies (`strategies/*.toml`) that build
//! them: `random`, `greedy` and `mcts` (DESIGN.md, "Policies").
//!
//! A policy never sees the game's chance stream: it draws only from the policy stream passed
//! to [`Policy::choose`], and a search simulates futures with generators of its own.

use crate::game::{Game, GameRng};

/// Chooses the player's actions.
pub trait Policy<G: Game>: Send {
    /// Chooses one of `legal` (non-empty, as written by [`Game::legal_actions`]) in `state`.
    /// `rng` is this game's policy stream.
    fn choose(&mut self, state: &G, legal: &[G::Action], rng: &mut GameRng) -> G::Action;
}

/// A named strategy, as read from `strategies/<name>.toml` (placeholder until the strategy
/// loader lands).
#[derive(Clone, Debug, PartialEq)]
pub struct Strategy {
    /// The file stem experiments refer to.
    pub name: String,
    /// The kind and its parameters.
    pub kind: StrategyKind,
}

/// The kinds of policy.
#[derive(Clone, Debug, PartialEq)]
pub enum StrategyKind {
    /// Uniform over legal actions.
    Random,
}
