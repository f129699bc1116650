//! Seeded games on a game's default setup, the ground `sololab bench --strength` and
//! `sololab fit` share: the strategy looked up and built once (so a bad one is an error before
//! any game), the default setup resolved, a thread pool started without panicking, and game
//! `i` played from the runner's streams (common random numbers: game `i` is the same deal and
//! the same dice for every strategy).

use std::path::Path;

use super::experiment::{ErrorKind, ExperimentError, Location};
use super::plan::{PolicyFactory, strategy_source};
use crate::game::{Game, SetupValues, Stream, stream_rng};
use crate::policy::Policy;

/// The strategy `strategy` (looked up in `dir`, then among the shipped ones) built for `G`,
/// with `G`'s default setup.
///
/// # Errors
/// When the strategy does not exist or does not build for `G`, or `G`'s default setup does not
/// resolve; the error is located at `strategy NAME`.
pub fn default_setup_and_factory<G: Game>(
    strategy: &str,
    dir: &Path,
) -> Result<(PolicyFactory<G>, G::Setup), ExperimentError> {
    let at = || Location {
        path: format!("strategy {strategy}"),
        line_column: None,
    };
    let factory = strategy_source::<G>(strategy, dir)
        .map_err(|kind| ExperimentError { at: at(), kind })?
        .factory;
    let setup = G::resolve_setup(&SetupValues::new()).map_err(|e| ExperimentError {
        at: at(),
        kind: ErrorKind::Strategy {
            name: strategy.to_string(),
            message: format!("default setup of {}: {e}", G::NAME),
        },
    })?;
    Ok((factory, setup))
}

/// A rayon pool of `threads` workers (`0`: one per core).
///
/// # Errors
/// The system's reason when the threads cannot be started, as one line.
pub fn pool(threads: usize) -> Result<rayon::ThreadPool, ExperimentError> {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(|e| ExperimentError {
            at: Location {
                path: "--threads".to_string(),
                line_column: None,
            },
            kind: ErrorKind::Invalid(format!("cannot start the worker threads: {e}")),
        })
}

/// Plays game `index` of `seed` on `setup` to its end with `policy`, calling `before` with the
/// state and its legal actions before every decision; returns the final state and the number
/// of decisions (those with one legal action included).
///
/// # Panics
/// When the game does not end within [`Game::MAX_DECISIONS`] (a bug in the game, which the
/// conformance suite rules out for every registered game).
pub fn play_seeded<G: Game>(
    setup: &G::Setup,
    seed: u64,
    index: u64,
    policy: &mut dyn Policy<G>,
    legal: &mut Vec<G::Action>,
    mut before: impl FnMut(&G, &[G::Action]),
) -> (G, u32) {
    let mut state = G::new_game(setup, &mut stream_rng(seed, index, Stream::Setup));
    let mut chance = stream_rng(seed, index, Stream::Chance);
    let mut own = stream_rng(seed, index, Stream::Policy);
    let mut decisions = 0u32;
    while state.outcome().is_none() {
        assert!(
            decisions < G::MAX_DECISIONS,
            "{}: game {index} of seed {seed} did not end",
            G::NAME
        );
        state.legal_actions(legal);
        before(&state, legal);
        let action = policy.choose_foreseeing(&state, legal, &mut own, &chance);
        state.apply(action, &mut chance);
        decisions += 1;
    }
    (state, decisions)
}
