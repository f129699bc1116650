//! Player policies: the [`Policy`] trait and the strategies (`strategies/*.toml`) that build
//! them: `random`, `greedy` and `mcts` (DESIGN.md, "Policies").
//!
//! An honest policy never looks at the game's chance stream: it draws only from the policy
//! stream passed to [`Policy::choose`], and a search simulates futures with generators of its
//! own, seeded from that stream. So advancing the game's dice never changes what an honest
//! policy chooses, and a seeded run is reproducible bit for bit.
//!
//! The one exception is the clairvoyant search (`clairvoyant = true` in an MCTS strategy,
//! issue 15), an upper bound for reports, never a player. The seam: whoever plays a game (the
//! runner's `play_game`, `sololab play`, `bench --strength`, `fit`) calls
//! [`Policy::choose_foreseeing`] with a read-only view of the game's own chance generator as it
//! stands at this decision. Every policy but the clairvoyant MCTS ignores it (the default
//! method calls [`Policy::choose`]); the clairvoyant one copies it and simulates every
//! iteration's dice from that copy, so each line of play it searches meets exactly the dice and
//! draws the real game would deal it (chance is a function of the state, the action and the
//! generator: [`Game::apply`]). The policy cannot advance the real generator, so the game's
//! chance stream, and reproducibility, are untouched.
//!
//! - [`RandomPolicy`]: uniform over the legal actions;
//! - [`GreedyPolicy`]: one-ply look-ahead on a weighted feature score, planning a move and the
//!   attack that follows it as one choice ([`PlanStep`](crate::game::PlanStep));
//! - [`MctsPolicy`]: open-loop UCT with determinization and a fixed iteration budget;
//! - [`BeamPolicy`]: a beam search over the decisions up to the next chance event (a turn's
//!   deterministic part), following the best line it finds;
//! - [`Strategy`]: a named, validated strategy file, and the one registry of shipped ones.

mod beam;
mod greedy;
mod mcts;
mod random;
mod strategy;

use crate::game::{Game, GameRng};

/// Room the policies reserve in their per-decision action and value lists (greedy's follow-ups
/// and ties, MCTS's legal, tried, eligible, values and order lists): more than the widest
/// legal-action list of any registered game (Beyond's attack plans with aiding heroes run past
/// 64), so a rollout that meets a new widest state after warm-up does not allocate
/// (tests/alloc.rs).
pub(crate) const LIST_ROOM: usize = 512;

pub use beam::{BeamPolicy, MAX_WIDTH};
pub use greedy::{GreedyPolicy, WIN_BONUS};
pub use mcts::{MctsConfig, MctsPolicy, cutoff_value};
pub use random::RandomPolicy;
pub use strategy::{
    DEFAULT_ROLLOUT_WIDTH, MAX_ITERATIONS, ROLLOUT_BEAM_DEPTH, Rollout, Strategy, StrategyError,
    StrategyErrorKind, StrategyKind, Weights, strategy_name_problem, strategy_names,
};

/// Chooses the player's actions.
pub trait Policy<G: Game>: Send {
    /// Chooses one of `legal` (non-empty, as written by [`Game::legal_actions`]) in `state`.
    /// `rng` is this game's policy stream.
    fn choose(&mut self, state: &G, legal: &[G::Action], rng: &mut GameRng) -> G::Action;

    /// [`choose`](Policy::choose), with a view of `chance`, the game's chance generator as it
    /// stands at this decision (the one the next [`Game::apply`] will draw from). Only a
    /// clairvoyant search looks at it (see the module docs); the default ignores it, so an
    /// honest policy chooses exactly as through `choose`. Whoever plays a game calls this.
    #[inline]
    fn choose_foreseeing(
        &mut self,
        state: &G,
        legal: &[G::Action],
        rng: &mut GameRng,
        chance: &GameRng,
    ) -> G::Action {
        let _ = chance;
        self.choose(state, legal, rng)
    }
}
