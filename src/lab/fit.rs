//! A leaf evaluation fitted to the lab's own playouts (`sololab fit`, issue 9): play seeded
//! games with a strategy, record the game's features at every decision together with how the
//! game ended, and fit a logistic regression of the result (won = 1) on the features. The
//! weights are in log-odds of winning per unit of a feature, so a designer can read them
//! ("one more intact building is worth +0.4 log-odds") and a search can use them as they are:
//! MCTS's cut-off value is the logistic of the weighted features' change since the root, which
//! with these weights is the fitted win probability's change in log-odds.
//!
//! Everything depends only on the game, the strategy, the number of games and the seed: the
//! games are the runner's seeded games (common random numbers), rows are kept in game order,
//! and the fit is a deterministic Newton iteration.

use std::path::Path;

use rayon::prelude::*;

use super::experiment::ExperimentError;
use super::play::setup_from_pairs;
use super::seeded::{default_setup_and_factory, play_seeded, pool};
use crate::game::Game;
use crate::games::GameKind;
use crate::policy::{Rollout, Strategy, StrategyKind};
use crate::with_game;

/// The playout data of a fit: one row of features per recorded decision and the result of
/// its game.
#[derive(Clone, Debug, PartialEq)]
pub struct Playouts {
    /// The game's feature names ([`Game::FEATURE_NAMES`]).
    pub names: &'static [&'static str],
    /// Row-major features, `names.len()` per row.
    pub rows: Vec<f64>,
    /// Per row: 1.0 if its game was won, else 0.0.
    pub won: Vec<f64>,
    /// Games played.
    pub games: u64,
    /// Games won.
    pub wins: u64,
}

/// Plays games `0..games` of `seed` with `strategy` (looked up in `dir`, then among the shipped
/// ones) on `threads` threads (`0`: one per core), recording the features at every decision
/// with more than one legal action. The setup is `kind`'s default with the `set` pairs
/// (`KEY=VALUE`, setup axes or content values, as `play --set` reads them) applied.
///
/// # Errors
/// When the strategy does not exist or does not build for the game, or a `set` pair names an
/// unknown axis or an invalid value (located at `--set PAIR`).
///
/// # Panics
/// When a game does not end within [`Game::MAX_DECISIONS`] (a bug in the game).
pub fn collect_playouts(
    kind: GameKind,
    strategy: &str,
    set: &[String],
    games: u64,
    seed: u64,
    threads: usize,
    dir: &Path,
) -> Result<Playouts, ExperimentError> {
    with_game!(kind, G => collect_typed::<G>(strategy, set, games, seed, threads, dir))
}

fn collect_typed<G: Game>(
    strategy: &str,
    set: &[String],
    games: u64,
    seed: u64,
    threads: usize,
    dir: &Path,
) -> Result<Playouts, ExperimentError> {
    let (factory, _) = default_setup_and_factory::<G>(strategy, dir)?;
    let setup = setup_from_pairs::<G>(set)?;
    let n = G::FEATURE_NAMES.len();
    let per_game: Vec<(bool, Vec<f64>)> = pool(threads)?.install(|| {
        (0..games)
            .into_par_iter()
            .map_init(
                || (factory(), Vec::with_capacity(64)),
                |(policy, legal), i| {
                    let mut rows = Vec::new();
                    let mut f = vec![0.0; n];
                    let (state, _) = play_seeded(
                        &setup,
                        seed,
                        i,
                        policy.as_mut(),
                        legal,
                        |state: &G, legal| {
                            if legal.len() > 1 {
                                state.features(&mut f);
                                rows.extend_from_slice(&f);
                            }
                        },
                    );
                    (state.outcome().is_some_and(|o| o.is_win()), rows)
                },
            )
            .collect()
    });
    let mut out = Playouts {
        names: G::FEATURE_NAMES,
        rows: Vec::new(),
        won: Vec::new(),
        games,
        wins: 0,
    };
    for (won, rows) in per_game {
        out.wins += u64::from(won);
        out.won.extend(std::iter::repeat_n(
            f64::from(u8::from(won)),
            rows.len() / n,
        ));
        out.rows.extend(rows);
    }
    Ok(out)
}

/// A fitted logistic model of winning: `P(won) = 1 / (1 + exp(-(intercept + weights · f)))`.
#[derive(Clone, Debug, PartialEq)]
pub struct LogisticFit {
    /// Log-odds per unit of each feature (0 for a feature that never varied).
    pub weights: Vec<f64>,
    /// The log-odds with every feature 0.
    pub intercept: f64,
    /// Rows fitted.
    pub rows: usize,
    /// Mean log-loss of the fit on its rows (nats).
    pub log_loss: f64,
    /// Mean log-loss of the constant model (the overall win rate), for comparison.
    pub base_log_loss: f64,
}

/// Fits a logistic regression of `won` on the rows of `playouts` by Newton's method on
/// standardized features with an L2 penalty `ridge` (per standardized weight, times the number
/// of rows), then expresses the weights per unit of each feature. Deterministic.
///
/// # Panics
/// When `playouts` has no rows.
pub fn fit_logistic(playouts: &Playouts, ridge: f64) -> LogisticFit {
    let n = playouts.names.len();
    let m = playouts.won.len();
    assert!(m > 0, "no rows to fit");
    let x = |r: usize, j: usize| playouts.rows[r * n + j];
    let mean: Vec<f64> = (0..n)
        .map(|j| (0..m).map(|r| x(r, j)).sum::<f64>() / m as f64)
        .collect();
    let sd: Vec<f64> = (0..n)
        .map(|j| ((0..m).map(|r| (x(r, j) - mean[j]).powi(2)).sum::<f64>() / m as f64).sqrt())
        .collect();
    let active: Vec<usize> = (0..n).filter(|&j| sd[j] > 1e-9).collect();
    let k = active.len() + 1; // + intercept (last)
    let z = |r: usize, i: usize| {
        if i + 1 == k {
            1.0
        } else {
            let j = active[i];
            (x(r, j) - mean[j]) / sd[j]
        }
    };
    let rate = playouts.won.iter().sum::<f64>() / m as f64;
    let mut beta = vec![0.0; k];
    beta[k - 1] = (rate.clamp(1e-6, 1.0 - 1e-6) / (1.0 - rate.clamp(1e-6, 1.0 - 1e-6))).ln();
    let lambda = ridge * m as f64;
    for _ in 0..50 {
        let mut grad = vec![0.0; k];
        let mut hess = vec![0.0; k * k];
        for r in 0..m {
            let eta: f64 = (0..k).map(|i| beta[i] * z(r, i)).sum();
            let p = 1.0 / (1.0 + (-eta).exp());
            let w = (p * (1.0 - p)).max(1e-12);
            let e = playouts.won[r] - p;
            for i in 0..k {
                let zi = z(r, i);
                grad[i] += e * zi;
                for j in 0..=i {
                    hess[i * k + j] += w * zi * z(r, j);
                }
            }
        }
        for i in 0..k {
            for j in 0..i {
                hess[j * k + i] = hess[i * k + j];
            }
            if i + 1 < k {
                grad[i] -= lambda * beta[i];
                hess[i * k + i] += lambda;
            }
        }
        let step = solve(&mut hess, &mut grad, k);
        let mut change = 0.0f64;
        for i in 0..k {
            beta[i] += step[i];
            change = change.max(step[i].abs());
        }
        if change < 1e-9 {
            break;
        }
    }
    let mut weights = vec![0.0; n];
    let mut intercept = beta[k - 1];
    for (i, &j) in active.iter().enumerate() {
        weights[j] = beta[i] / sd[j];
        intercept -= weights[j] * mean[j];
    }
    let loss = |p: f64, y: f64| {
        let p = p.clamp(1e-12, 1.0 - 1e-12);
        -(y * p.ln() + (1.0 - y) * (1.0 - p).ln())
    };
    let log_loss = (0..m)
        .map(|r| {
            let eta = intercept + (0..n).map(|j| weights[j] * x(r, j)).sum::<f64>();
            loss(1.0 / (1.0 + (-eta).exp()), playouts.won[r])
        })
        .sum::<f64>()
        / m as f64;
    let base_log_loss = playouts.won.iter().map(|&y| loss(rate, y)).sum::<f64>() / m as f64;
    LogisticFit {
        weights,
        intercept,
        rows: m,
        log_loss,
        base_log_loss,
    }
}

/// The text of a strategy file with `template`'s kind and parameters and `fit`'s weights for
/// game `game` (other games' weights kept from `template`), headed by comments saying how it
/// was made (`made_by`, e.g. the command line) and how well the fit explains the playouts.
///
/// # Errors
/// A message when `template` is `random` (it takes no weights).
pub fn fitted_strategy(
    template: &Strategy,
    game: &str,
    playouts: &Playouts,
    fit: &LogisticFit,
    made_by: &str,
) -> Result<String, String> {
    let header = format!(
        "# Made by `{made_by}`: {} games ({} won), features at {} decisions, a logistic\n\
         # regression of the game's result on the features (ridge {RIDGE}). Weights are log-odds of\n\
         # winning per unit of a feature; mean log-loss {:.4} against {:.4} for the win rate alone.\n\
         # Search parameters copied from strategy {} ({}).\n",
        playouts.games,
        playouts.wins,
        fit.rows,
        fit.log_loss,
        fit.base_log_loss,
        template.name,
        template.origin
    );
    let note = format!(
        "# Fitted (intercept {:.4}, not used: the search scores changes).\n",
        fit.intercept
    );
    let rounded: Vec<f64> = fit
        .weights
        .iter()
        .map(|w| (w * 1e4).round() / 1e4)
        .collect();
    strategy_text(template, game, &header, &note, playouts.names, &rounded)
}

/// The text of a strategy file: `header` (comment lines, each ending in a newline), then
/// `template`'s kind and search parameters, the other games' weights as `template` has them,
/// and last `[weights.<game>]` headed by `note` (comment lines) with `weights[i]` for
/// feature `names[i]`. The shared writer of `sololab fit` and `sololab tune`.
///
/// # Errors
/// A message when `template` is `random` (it takes no weights).
pub(crate) fn strategy_text(
    template: &Strategy,
    game: &str,
    header: &str,
    note: &str,
    names: &[&str],
    weights: &[f64],
) -> Result<String, String> {
    let (params, others) = match &template.kind {
        StrategyKind::Random => {
            return Err(format!(
                "strategy {} is random and takes no weights; name a greedy or mcts template",
                template.name
            ));
        }
        StrategyKind::Greedy { samples, weights } => {
            (format!("kind = \"greedy\"\nsamples = {samples}\n"), weights)
        }
        StrategyKind::Beam {
            width,
            depth,
            samples,
            weights,
        } => (
            format!("kind = \"beam\"\nwidth = {width}\ndepth = {depth}\nsamples = {samples}\n"),
            weights,
        ),
        StrategyKind::Mcts { config, weights } => {
            let rollout = match config.rollout {
                Rollout::Random => "random",
                Rollout::Greedy => "greedy",
                Rollout::Beam => "beam",
            };
            (
                format!(
                    "kind = \"mcts\"\niterations = {}\nexploration = {}\nrollout = \"{rollout}\"\n\
                     rollout_depth = {}\nrollout_samples = {}\nwidening = {}\nstop_at_chance = {}\nsee_hidden = {}\n\
                     clairvoyant = {}\n",
                    config.iterations,
                    toml::Value::Float(config.exploration),
                    config.rollout_depth,
                    config.rollout_samples,
                    toml::Value::Float(config.widening),
                    config.stop_at_chance,
                    config.see_hidden,
                    config.clairvoyant
                ) + &config.optional_keys_toml(),
                weights,
            )
        }
    };
    let mut out = String::from(header);
    out.push_str(&params);
    for (g, table) in others {
        if g == game {
            continue;
        }
        out.push_str(&format!("\n[weights.{g}]\n"));
        for (f, w) in table {
            out.push_str(&format!("{f} = {}\n", toml::Value::Float(*w)));
        }
    }
    out.push_str(&format!("\n{note}[weights.{game}]\n"));
    for (name, w) in names.iter().zip(weights) {
        out.push_str(&format!("{name} = {}\n", toml::Value::Float(*w)));
    }
    Ok(out)
}

/// The L2 penalty `sololab fit` uses (per standardized weight, per row): small, only to keep
/// collinear features finite.
pub const RIDGE: f64 = 1e-4;

/// Solves `a x = b` (`a` is `k × k`, row-major, symmetric positive definite here) by Gaussian
/// elimination with partial pivoting; a singular pivot gives 0 for that unknown.
fn solve(a: &mut [f64], b: &mut [f64], k: usize) -> Vec<f64> {
    for c in 0..k {
        let p = (c..k)
            .max_by(|&i, &j| a[i * k + c].abs().total_cmp(&a[j * k + c].abs()))
            .unwrap_or(c);
        if p != c {
            for j in 0..k {
                a.swap(c * k + j, p * k + j);
            }
            b.swap(c, p);
        }
        let d = a[c * k + c];
        if d.abs() < 1e-12 {
            continue;
        }
        for i in c + 1..k {
            let f = a[i * k + c] / d;
            if f != 0.0 {
                for j in c..k {
                    a[i * k + j] -= f * a[c * k + j];
                }
                b[i] -= f * b[c];
            }
        }
    }
    let mut x = vec![0.0; k];
    for c in (0..k).rev() {
        let d = a[c * k + c];
        if d.abs() < 1e-12 {
            continue;
        }
        let s: f64 = (c + 1..k).map(|j| a[c * k + j] * x[j]).sum();
        x[c] = (b[c] - s) / d;
    }
    x
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{Stream, stream_rng};

    #[test]
    fn logistic_fit_recovers_known_weights() {
        // Two features; the result is a deterministic function of a hidden uniform draw, so
        // P(won | f) = logistic(-1 + 2 f0 - 0.5 f1) exactly, and f2 never varies.
        let mut rng = stream_rng(3, 0, Stream::Chance);
        let names: &'static [&'static str] = &["a", "b", "c"];
        let mut rows = Vec::new();
        let mut won = Vec::new();
        for _ in 0..20_000 {
            let f0 = crate::game::below(&mut rng, 5) as f64;
            let f1 = crate::game::below(&mut rng, 7) as f64;
            let p = 1.0 / (1.0 + (-(-1.0 + 2.0 * f0 * 0.5 - 0.5 * f1)).exp());
            let u = crate::game::below(&mut rng, 1_000_000) as f64 / 1e6;
            rows.extend_from_slice(&[f0, f1, 4.0]);
            won.push(if u < p { 1.0 } else { 0.0 });
        }
        let wins = won.iter().sum::<f64>() as u64;
        let data = Playouts {
            names,
            rows,
            won,
            games: 20_000,
            wins,
        };
        let fit = fit_logistic(&data, 0.0);
        assert!((fit.weights[0] - 1.0).abs() < 0.08, "{fit:?}");
        assert!((fit.weights[1] + 0.5).abs() < 0.05, "{fit:?}");
        assert_eq!(fit.weights[2], 0.0);
        assert!((fit.intercept + 1.0).abs() < 0.15, "{fit:?}");
        assert!(fit.log_loss < fit.base_log_loss);
    }

    #[test]
    fn solve_handles_a_small_system() {
        let mut a = vec![2.0, 1.0, 1.0, 3.0];
        let mut b = vec![3.0, 5.0];
        let x = solve(&mut a, &mut b, 2);
        assert!(
            (x[0] - 0.8).abs() < 1e-12 && (x[1] - 1.4).abs() < 1e-12,
            "{x:?}"
        );
    }
}
