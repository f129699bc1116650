//! Player weights tuned by direct search on the win rate (`sololab tune`, issue 9): a
//! strategy's feature weights for one game, changed one at a time (coordinate search), each
//! change kept when it wins more of the same seeded games (common random numbers), then the
//! start and the result both replayed on other games (a held-out seed) so overfitting shows.
//!
//! Where `sololab fit` regresses the result on the features (a value estimate under the
//! playing policy, which need not rank one decision's candidates well: on the Gods' brute_hunt
//! greedy on fitted weights wins 30.9% against 53.5%), this measures what the weights are for,
//! the games won, at the cost of many plays. Everything depends only on the game, the setup,
//! the strategy, the games, the seeds and the sweep count: candidates come in a fixed order,
//! ties keep the earlier, and the thread count only spreads the games.

use rayon::prelude::*;

use super::experiment::{ErrorKind, ExperimentError, Location};
use super::play::setup_from_pairs;
use super::seeded::{play_seeded, pool};
use crate::game::Game;
use crate::games::GameKind;
use crate::policy::Strategy;
use crate::with_game;

/// One candidate weight played.
#[derive(Clone, Debug, PartialEq)]
pub struct TuneProbe {
    /// The sweep, from 1.
    pub sweep: u32,
    /// The feature whose weight was changed.
    pub feature: &'static str,
    /// The weight played.
    pub weight: f64,
    /// Games won of the tuning games.
    pub wins: u64,
    /// Whether the change was kept.
    pub kept: bool,
}

/// How far a tuning run has got, as [`tune_weights`] reports it (what `sololab tune` prints as
/// progress).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum TuneStep<'p> {
    /// The starting weights won `wins` of the tuning games.
    Start {
        /// Games won.
        wins: u64,
    },
    /// One feature's candidates were played in sweep `sweep`: `probes` (at most one `kept`),
    /// and the wins of the best weights so far after it.
    Feature {
        /// The sweep, from 1.
        sweep: u32,
        /// The feature's candidates, in [`candidates`] order.
        probes: &'p [TuneProbe],
        /// Games won by the best weights so far.
        best_wins: u64,
    },
}

/// The outcome of a tuning run.
#[derive(Clone, Debug, PartialEq)]
pub struct Tuned {
    /// The game's feature names ([`Game::FEATURE_NAMES`]), in the order of the weights.
    pub names: &'static [&'static str],
    /// The strategy's weights before.
    pub start: Vec<f64>,
    /// The weights kept.
    pub best: Vec<f64>,
    /// Tuning games played per candidate (games `0..games` of the tuning seed).
    pub games: u64,
    /// Tuning games won with `start` and with `best`.
    pub start_wins: u64,
    /// See `start_wins`.
    pub best_wins: u64,
    /// Held-out games won (games `0..games` of the held-out seed) with `start` and `best`.
    pub holdout_start_wins: u64,
    /// See `holdout_start_wins`.
    pub holdout_best_wins: u64,
    /// Every candidate played, in order.
    pub probes: Vec<TuneProbe>,
    /// Sweeps run (fewer than asked when one kept nothing).
    pub sweeps: u32,
}

/// What a tuning run plays.
#[derive(Clone, Debug)]
pub struct TuneSpec<'a> {
    /// The strategy whose weights are tuned (greedy, beam or MCTS; its search parameters stay).
    pub strategy: &'a Strategy,
    /// Setup pairs, `KEY=VALUE`, as `play --set` reads them (empty: the default setup).
    pub set: &'a [String],
    /// Games a candidate plays, at least 1.
    pub games: u64,
    /// The tuning games' seed.
    pub seed: u64,
    /// The held-out games' seed.
    pub holdout_seed: u64,
    /// Sweeps over the weights at most, at least 1.
    pub sweeps: u32,
    /// Games a change must win beyond the best so far to be kept, at least 1.
    pub min_gain: u64,
    /// Worker threads (`0`: one per core).
    pub threads: usize,
}

/// The candidates for a weight `w` in a fixed order: `w/2`, `3w/4`, `4w/3`, `2w`, `-w` and `0`
/// for a weight that is not 0, else `±scale` and `±0.3·scale`; each rounded to 4 decimals (so
/// the written file holds exactly the weight played), without repeats or `w` itself.
///
/// `scale` is the median absolute non-zero weight of the game (1 when all are 0): a feature
/// with no weight yet is tried at the size of a typical one.
pub fn candidates(w: f64, scale: f64) -> Vec<f64> {
    let raw = if w == 0.0 {
        vec![scale, -scale, 0.3 * scale, -0.3 * scale]
    } else {
        vec![w / 2.0, 0.75 * w, w * 4.0 / 3.0, 2.0 * w, -w, 0.0]
    };
    let mut out: Vec<f64> = Vec::new();
    for c in raw {
        let c = round4(c);
        if c.is_finite() && c != round4(w) && !out.contains(&c) {
            out.push(c);
        }
    }
    out
}

/// `x` rounded to 4 decimals (`-0.0` becomes `0.0`); `x` itself where scaling it would
/// overflow (|x| above about 1e304).
fn round4(x: f64) -> f64 {
    let scaled = x * 1e4;
    if !scaled.is_finite() {
        return x;
    }
    let r = scaled.round() / 1e4;
    if r == 0.0 { 0.0 } else { r }
}

/// The median absolute non-zero weight (1 when there is none).
fn typical(weights: &[f64]) -> f64 {
    let mut a: Vec<f64> = weights
        .iter()
        .map(|w| w.abs())
        .filter(|&w| w > 0.0)
        .collect();
    if a.is_empty() {
        return 1.0;
    }
    a.sort_by(f64::total_cmp);
    round4(a[a.len() / 2]).max(1e-4)
}

/// Tunes `spec.strategy`'s weights for `kind` (see the module docs): for each sweep and each
/// feature in [`Game::FEATURE_NAMES`] order, every [`candidates`] weight plays the tuning games
/// with the other weights as they stand; the candidate with the most wins (the first among
/// equals) is kept when it wins at least `min_gain` games more than the best so far. A sweep
/// that keeps nothing ends the search.
///
/// # Errors
/// A random strategy (no weights), a strategy without weights for the game or that does not
/// build for it, a `set` pair that names an unknown axis or an invalid value, or threads that
/// cannot start; each located.
///
/// # Panics
/// When a game does not end within [`Game::MAX_DECISIONS`] (a bug in the game).
///
/// `progress` hears of the start's wins and of every feature's candidates as they are played
/// ([`TuneStep`]), from the calling thread.
pub fn tune_weights(
    kind: GameKind,
    spec: &TuneSpec,
    progress: &mut dyn FnMut(TuneStep),
) -> Result<Tuned, ExperimentError> {
    with_game!(kind, G => tune_typed::<G>(spec, progress))
}

fn tune_typed<G: Game>(
    spec: &TuneSpec,
    progress: &mut dyn FnMut(TuneStep),
) -> Result<Tuned, ExperimentError> {
    let at = || Location {
        path: format!("strategy {}", spec.strategy.name),
        line_column: None,
    };
    let invalid = |message: String| ExperimentError {
        at: at(),
        kind: ErrorKind::Strategy {
            name: spec.strategy.name.clone(),
            message,
        },
    };
    let setup = setup_from_pairs::<G>(spec.set)?;
    let names = G::FEATURE_NAMES;
    let mut template = spec.strategy.clone();
    let Some(table) = template.kind.weights_mut() else {
        return Err(invalid(format!(
            "a {} strategy takes no weights; name a greedy, beam or mcts strategy",
            spec.strategy.kind.name()
        )));
    };
    // The strategy as it is must play the game (its weights for it given), as `run` asks.
    spec.strategy
        .build::<G>()
        .map_err(|e| invalid(e.to_string()))?;
    let table = table.get(G::NAME).cloned().unwrap_or_default();
    // The weights as the strategy gives them (a feature it leaves out weighs 0), checked by
    // building the policy once.
    let start: Vec<f64> = names
        .iter()
        .map(|n| table.get(*n).copied().unwrap_or(0.0))
        .collect();
    let with = |weights: &[f64]| -> Strategy {
        let mut s = template.clone();
        if let Some(all) = s.kind.weights_mut() {
            let t = all.entry(G::NAME.to_string()).or_default();
            for (n, w) in names.iter().zip(weights) {
                t.insert((*n).to_string(), *w);
            }
        }
        s
    };
    with(&start)
        .build::<G>()
        .map_err(|e| invalid(e.to_string()))?;
    let pool = pool(spec.threads)?;
    let wins = |weights: &[f64], seed: u64| -> u64 {
        let strategy = with(weights);
        pool.install(|| {
            (0..spec.games)
                .into_par_iter()
                .map_init(
                    || {
                        (
                            strategy
                                .build::<G>()
                                .expect("the strategy was built once before"),
                            Vec::with_capacity(64),
                        )
                    },
                    |(policy, legal), i| {
                        let (state, _) =
                            play_seeded(&setup, seed, i, policy.as_mut(), legal, |_: &G, _| {});
                        u64::from(state.outcome().is_some_and(|o| o.is_win()))
                    },
                )
                .sum()
        })
    };
    let start_wins = wins(&start, spec.seed);
    progress(TuneStep::Start { wins: start_wins });
    let (mut best, mut best_wins) = (start.clone(), start_wins);
    let mut probes = Vec::new();
    let mut sweeps = 0;
    for sweep in 1..=spec.sweeps.max(1) {
        sweeps = sweep;
        let mut kept_any = false;
        for j in 0..names.len() {
            let scale = typical(&best);
            let mut chosen: Option<(usize, u64)> = None;
            let first = probes.len();
            for c in candidates(best[j], scale) {
                let mut trial = best.clone();
                trial[j] = c;
                let w = wins(&trial, spec.seed);
                if chosen.is_none_or(|(_, top)| w > top) {
                    chosen = Some((probes.len(), w));
                }
                probes.push(TuneProbe {
                    sweep,
                    feature: names[j],
                    weight: c,
                    wins: w,
                    kept: false,
                });
            }
            if let Some((k, w)) = chosen
                && w >= best_wins + spec.min_gain.max(1)
            {
                debug_assert!(k >= first);
                probes[k].kept = true;
                best[j] = probes[k].weight;
                best_wins = w;
                kept_any = true;
            }
            progress(TuneStep::Feature {
                sweep,
                probes: &probes[first..],
                best_wins,
            });
        }
        if !kept_any {
            break;
        }
    }
    let holdout_start_wins = wins(&start, spec.holdout_seed);
    let holdout_best_wins = if best == start {
        holdout_start_wins
    } else {
        wins(&best, spec.holdout_seed)
    };
    Ok(Tuned {
        names,
        start,
        best,
        games: spec.games,
        start_wins,
        best_wins,
        holdout_start_wins,
        holdout_best_wins,
        probes,
        sweeps,
    })
}

/// The text of the tuned strategy file: `template`'s kind and search parameters, the other
/// games' weights as `template` has them and `tuned.best` for `game`, headed by comments that
/// say how it was made (`made_by`) and what it won before and after, on the tuning games and
/// on the held-out ones, with Wilson 95% intervals.
///
/// # Errors
/// A message when `template` is random (it takes no weights).
pub fn tuned_strategy(
    template: &Strategy,
    game: &str,
    tuned: &Tuned,
    made_by: &str,
) -> Result<String, String> {
    let rate = |w: u64| {
        let (lo, hi) = super::stats::wilson(w, tuned.games, 1.96);
        format!(
            "{:.1}% ({:.1}-{:.1})",
            100.0 * w as f64 / tuned.games as f64,
            100.0 * lo,
            100.0 * hi
        )
    };
    let header = format!(
        "# Made by `{made_by}`: the weights for {game} changed one at a time (coordinate search,\n\
         # {}, {} candidates), each change kept when it won more of the same {} seeded\n\
         # games. Tuning games: {} before, {} after. Held-out games (another seed): {} before,\n\
         # {} after. Search parameters copied from strategy {} ({}).\n",
        super::count(tuned.sweeps as u64, "sweep"),
        tuned.probes.len(),
        tuned.games,
        rate(tuned.start_wins),
        rate(tuned.best_wins),
        rate(tuned.holdout_start_wins),
        rate(tuned.holdout_best_wins),
        template.name,
        template.origin
    );
    let note = "# Tuned (the weights before are in the strategy named above).\n";
    super::fit::strategy_text(template, game, &header, note, tuned.names, &tuned.best)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::race::Race;

    #[test]
    fn candidates_scale_a_weight_flip_it_and_drop_it_in_a_fixed_order() {
        assert_eq!(candidates(2.0, 1.0), vec![1.0, 1.5, 2.6667, 4.0, -2.0, 0.0]);
        assert_eq!(
            candidates(-0.3, 1.0),
            vec![-0.15, -0.225, -0.4, -0.6, 0.3, 0.0]
        );
        // A weight of 0 is tried at the typical size, both signs.
        assert_eq!(candidates(0.0, 2.5), vec![2.5, -2.5, 0.75, -0.75]);
        // Rounding to 4 decimals never offers the weight itself or a repeat.
        assert_eq!(candidates(0.00012, 1.0), vec![0.0002, -0.0001, 0.0]);
        // A weight near the largest float offers no infinite candidate.
        let huge = candidates(1e308, 1.0);
        assert_eq!(huge.len(), 4, "{huge:?}");
        assert!(huge.iter().all(|c| c.is_finite()), "{huge:?}");
        assert_eq!(candidates(0.0, f64::INFINITY), Vec::<f64>::new());
    }

    #[test]
    fn progress_hears_the_start_and_every_features_candidates_in_order() {
        let strategy = Strategy::parse(
            "greedy",
            "test",
            "kind = \"greedy\"\nsamples = 1\n[weights.race]\nposition = 1.0\nturns_left = 0.0\n",
        )
        .unwrap();
        let spec = TuneSpec {
            strategy: &strategy,
            set: &[],
            games: 30,
            seed: 4,
            holdout_seed: 5,
            sweeps: 2,
            min_gain: 1,
            threads: 1,
        };
        let mut heard: Vec<(u32, Vec<TuneProbe>, u64)> = Vec::new();
        let mut start = None;
        let tuned = tune_typed::<Race>(&spec, &mut |step| match step {
            TuneStep::Start { wins } => start = Some(wins),
            TuneStep::Feature {
                sweep,
                probes,
                best_wins,
            } => heard.push((sweep, probes.to_vec(), best_wins)),
        })
        .unwrap();
        assert_eq!(start, Some(tuned.start_wins));
        // Every probe once, in order, a feature at a time.
        let all: Vec<TuneProbe> = heard.iter().flat_map(|h| h.1.clone()).collect();
        assert_eq!(all, tuned.probes);
        assert!(
            heard
                .iter()
                .all(|h| h.1.iter().all(|p| p.feature == h.1[0].feature))
        );
        assert_eq!(
            heard.len(),
            tuned.sweeps as usize * Race::FEATURE_NAMES.len()
        );
        assert_eq!(heard.last().unwrap().2, tuned.best_wins);
    }

    #[test]
    fn the_typical_weight_is_the_median_absolute_non_zero_one() {
        assert_eq!(typical(&[0.0, -3.0, 1.0, 100.0, 2.0]), 3.0);
        assert_eq!(typical(&[0.0, 0.0]), 1.0);
        assert_eq!(typical(&[-0.5]), 0.5);
    }
}
