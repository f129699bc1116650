//! Strength per CPU-second (`sololab bench --strength GAME`, issue 9): for each strategy, the
//! win rate and the CPU time it spends, on the same seeded games, so the lab can say how good
//! a player it fields per second of compute.
//!
//! Every strategy plays games `0..games` of one seed on the game's default setup, or on the
//! setup values given as `KEY=VALUE` pairs (`--strength-set`, as `play --set`) (common
//! random numbers: game `i` is the same deal and the same dice stream for every strategy).
//! Time is the CPU time of the thread that plays each game (`CLOCK_THREAD_CPUTIME_ID`), summed
//! over games, so a busy machine or the thread count does not change it much, and wins do not
//! depend on threads at all.

use std::path::Path;

use rayon::prelude::*;

use super::experiment::ExperimentError;
use super::seeded::{default_setup_and_factory, play_seeded, pool};
use super::stats::{Z95, wilson};
use crate::game::Game;
use crate::games::GameKind;
use crate::with_game;

/// The strategies `sololab bench --strength` measures by default: the ladder, weakest first.
pub const STRENGTH_STRATEGIES: &[&str] =
    &["random", "greedy", "mcts-200", "mcts-1000", "mcts-3000"];

/// One point of the strength curve: a strategy's win rate and CPU cost on the same games.
#[derive(Clone, Debug, PartialEq)]
pub struct StrengthRow {
    /// The game's registry name.
    pub game: &'static str,
    /// The strategy's name.
    pub strategy: String,
    /// Games played (games `0..games` of the seed).
    pub games: u64,
    /// Games won.
    pub wins: u64,
    /// Player decisions made over all games (decisions with one legal action included).
    pub decisions: u64,
    /// CPU seconds spent playing (the game, the opponent and the policy), summed over games.
    pub cpu_s: f64,
}

impl StrengthRow {
    /// `wins / games`, `0.0` with no games.
    pub fn win_rate(&self) -> f64 {
        if self.games == 0 {
            0.0
        } else {
            self.wins as f64 / self.games as f64
        }
    }

    /// The 95% Wilson interval of the win rate.
    pub fn interval(&self) -> (f64, f64) {
        wilson(self.wins, self.games, Z95)
    }

    /// CPU milliseconds per game.
    pub fn ms_per_game(&self) -> f64 {
        1000.0 * self.cpu_s / self.games.max(1) as f64
    }

    /// CPU milliseconds per player decision.
    pub fn ms_per_decision(&self) -> f64 {
        1000.0 * self.cpu_s / self.decisions.max(1) as f64
    }
}

/// The CPU time of the calling thread, in seconds (0 where the platform has no such clock).
pub fn thread_cpu_seconds() -> f64 {
    let mut t = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `clock_gettime` only writes the `timespec` we pass, which lives on this stack.
    let rc = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut t) };
    if rc == 0 {
        t.tv_sec as f64 + t.tv_nsec as f64 * 1e-9
    } else {
        0.0
    }
}

/// Measures `strategy` on game `kind`'s default setup: games `0..games` of `seed`, on
/// `threads` worker threads (`0`: one per core), on the setup `set` (`KEY=VALUE` pairs as
/// `play --set` reads them; empty: the default setup). Strategies are looked up in `dir`,
/// then among the shipped ones.
///
/// # Errors
/// When the strategy does not exist or does not build for the game, or a pair of `set` is
/// not a setup value of the game (checked before any game is played).
///
/// # Panics
/// When a game does not end within [`Game::MAX_DECISIONS`] (a bug in the game).
pub fn measure_strength(
    kind: GameKind,
    strategy: &str,
    games: u64,
    seed: u64,
    threads: usize,
    set: &[String],
    dir: &Path,
) -> Result<StrengthRow, ExperimentError> {
    with_game!(kind, G => strength_typed::<G>(strategy, games, seed, threads, set, dir))
}

fn strength_typed<G: Game>(
    strategy: &str,
    games: u64,
    seed: u64,
    threads: usize,
    set: &[String],
    dir: &Path,
) -> Result<StrengthRow, ExperimentError> {
    let (factory, setup) = default_setup_and_factory::<G>(strategy, dir)?;
    let setup = if set.is_empty() {
        setup
    } else {
        super::play::setup_from_flag::<G>("--strength-set", set)?
    };
    let (wins, decisions, nanos) = pool(threads)?.install(|| {
        (0..games)
            .into_par_iter()
            .map_init(
                || (factory(), Vec::with_capacity(64)),
                |(policy, legal), i| {
                    let start = thread_cpu_seconds();
                    let (state, decisions) =
                        play_seeded(&setup, seed, i, policy.as_mut(), legal, |_, _| {});
                    let spent = thread_cpu_seconds() - start;
                    let won = u64::from(state.outcome().is_some_and(|o| o.is_win()));
                    // Integer nanoseconds, so the sum does not depend on the order of games.
                    (won, u64::from(decisions), (spent.max(0.0) * 1e9) as u64)
                },
            )
            .reduce(|| (0, 0, 0), |a, b| (a.0 + b.0, a.1 + b.1, a.2 + b.2))
    });
    Ok(StrengthRow {
        game: G::NAME,
        strategy: strategy.to_string(),
        games,
        wins,
        decisions,
        cpu_s: nanos as f64 * 1e-9,
    })
}

/// The CSV columns of the strength curve, in order.
pub const STRENGTH_CSV_HEADER: &[&str] = &[
    "game",
    "strategy",
    "games",
    "wins",
    "win_rate",
    "ci_low",
    "ci_high",
    "decisions",
    "cpu_s",
    "ms_per_game",
    "ms_per_decision",
];

/// `rows` as CSV with [`STRENGTH_CSV_HEADER`].
pub fn strength_csv(rows: &[StrengthRow]) -> String {
    let mut out = STRENGTH_CSV_HEADER.join(",");
    out.push('\n');
    for r in rows {
        let (lo, hi) = r.interval();
        out.push_str(&format!(
            "{},{},{},{},{:.4},{:.4},{:.4},{},{:.3},{:.3},{:.4}\n",
            r.game,
            r.strategy,
            r.games,
            r.wins,
            r.win_rate(),
            lo,
            hi,
            r.decisions,
            r.cpu_s,
            r.ms_per_game(),
            r.ms_per_decision()
        ));
    }
    out
}

/// The strength curve as an SVG chart: win rate (with its 95% interval) against CPU
/// milliseconds per decision on a logarithmic axis, one labelled point per strategy.
///
/// # Errors
/// A message when plotting fails (it draws into memory, so only on a plotting bug).
pub fn strength_svg(rows: &[StrengthRow]) -> Result<String, String> {
    use plotters::prelude::*;
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (720, 460)).into_drawing_area();
        root.fill(&WHITE).map_err(|e| e.to_string())?;
        let game = rows.first().map_or("", |r| r.game);
        let ms: Vec<f64> = rows.iter().map(|r| r.ms_per_decision().max(1e-4)).collect();
        let lo = ms.iter().copied().fold(f64::INFINITY, f64::min).min(1e3) / 3.0;
        let hi = ms.iter().copied().fold(0.0, f64::max).max(lo * 10.0) * 3.0;
        let mut chart = ChartBuilder::on(&root)
            .caption(format!("{game}: strength per CPU time"), ("sans-serif", 22))
            .margin(16)
            .x_label_area_size(44)
            .y_label_area_size(56)
            .build_cartesian_2d((lo..hi).log_scale(), 0.0..1.0)
            .map_err(|e| e.to_string())?;
        chart
            .configure_mesh()
            .x_desc("CPU ms per decision (log scale)")
            .y_desc("win rate (95% Wilson interval)")
            .x_label_formatter(&|v| format!("{v:.3}"))
            .y_label_formatter(&|v| format!("{:.0}%", v * 100.0))
            .draw()
            .map_err(|e| e.to_string())?;
        let points: Vec<(f64, f64)> = rows
            .iter()
            .zip(&ms)
            .map(|(r, &m)| (m, r.win_rate()))
            .collect();
        chart
            .draw_series(LineSeries::new(
                points.iter().copied(),
                BLUE.stroke_width(2),
            ))
            .map_err(|e| e.to_string())?;
        for (r, &m) in rows.iter().zip(&ms) {
            let (l, h) = r.interval();
            chart
                .draw_series(std::iter::once(PathElement::new(
                    vec![(m, l), (m, h)],
                    BLUE.stroke_width(1),
                )))
                .map_err(|e| e.to_string())?;
            chart
                .draw_series(std::iter::once(Circle::new(
                    (m, r.win_rate()),
                    4,
                    BLUE.filled(),
                )))
                .map_err(|e| e.to_string())?;
            chart
                .draw_series(std::iter::once(Text::new(
                    format!("{} {:.1}%", r.strategy, 100.0 * r.win_rate()),
                    (m, (r.win_rate() + 0.04).min(0.97)),
                    ("sans-serif", 13),
                )))
                .map_err(|e| e.to_string())?;
        }
        root.present().map_err(|e| e.to_string())?;
    }
    Ok(svg)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(strategy: &str, wins: u64, decisions: u64, cpu_s: f64) -> StrengthRow {
        StrengthRow {
            game: "rift",
            strategy: strategy.into(),
            games: 100,
            wins,
            decisions,
            cpu_s,
        }
    }

    #[test]
    fn csv_has_the_header_and_derived_columns() {
        let csv = strength_csv(&[row("greedy", 40, 4000, 2.0)]);
        let lines: Vec<&str> = csv.lines().collect();
        assert_eq!(lines[0], STRENGTH_CSV_HEADER.join(","));
        assert_eq!(
            lines[1],
            "rift,greedy,100,40,0.4000,0.3094,0.4980,4000,2.000,20.000,0.5000"
        );
    }

    #[test]
    fn svg_names_every_strategy() {
        let svg = strength_svg(&[
            row("random", 1, 2000, 0.01),
            row("mcts-200", 70, 4000, 90.0),
        ])
        .unwrap();
        assert!(svg.starts_with("<svg"), "{}", &svg[..40]);
        assert!(svg.contains("random 1.0%") && svg.contains("mcts-200 70.0%"));
    }

    #[test]
    fn thread_cpu_time_advances_with_work() {
        let start = thread_cpu_seconds();
        let mut x = 0u64;
        for i in 0..20_000_000u64 {
            x = x.wrapping_mul(6364136223846793005).wrapping_add(i);
        }
        assert!(x != 1);
        assert!(thread_cpu_seconds() > start);
    }
}
