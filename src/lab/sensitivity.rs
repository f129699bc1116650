//! Sensitivity (issue 17): for each tunable value, the paired change in win rate one step
//! down and one step up, over the same seeded games as the baseline (common random numbers),
//! with Newcombe's paired 95% interval, ranked by effect. A whole number moves by
//! [`Step::int`] (`--step`, default 1); a real number (a content value written with a decimal
//! point) by the fraction [`Step::real`] of its value (`--real-step`, default [`REAL_STEP`]:
//! `4.0` moves to `3.6` and `4.4`), so values of every unit rank together by the change a
//! like-sized nudge makes. Also the engine calibration shares:
//! [`play_wins`], which plays game `0..n` of a seed on each of several setups, in parallel,
//! with results that do not depend on the thread count.

use std::sync::atomic::{AtomicU64, Ordering};

use rayon::prelude::*;

use super::plan::PolicyFactory;
use super::runner::{MAX_THREADS, RunError, play_game, thread_pool};
use super::stats::{PairedDiff, Z95, paired_difference};
use super::values::Tunable;
use crate::game::{AxisValue, Game, SetupValues};
use crate::setup::Real;

/// The default relative step of a real value: 10% of its value each way.
pub const REAL_STEP: f64 = 0.1;

/// How far sensitivity moves a value each way.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Step {
    /// Whole numbers move by this many (`>= 1`).
    pub int: i64,
    /// Real numbers move by this fraction of their size (`x ± real·|x|`, in `(0, 1]`); a real
    /// at zero moves by `real` in its own unit. The moved value is rounded to 12 significant
    /// digits, so it reads as written (`3.6`, not `3.5999999999999996`).
    pub real: f64,
}

impl Step {
    /// Whole numbers by `int`, reals by the default [`REAL_STEP`].
    pub fn whole(int: i64) -> Step {
        Step {
            int,
            real: REAL_STEP,
        }
    }

    /// The real `x` moved one step down (`up == false`) or up, `None` when not finite.
    pub fn move_real(&self, x: f64, up: bool) -> Option<Real> {
        let d = if x == 0.0 {
            self.real
        } else {
            self.real * x.abs()
        };
        let v = if up { x + d } else { x - d };
        Real::rounded(v)
    }
}

/// Whether game `first + i` (for `i` in `0..games`) of seed `seed` is won from each setup:
/// `out[s][i]`. Every setup plays the same game indices, so they meet the same dice, deals and
/// policy randomness (common random numbers). Parallel over (setup, game) on `threads` threads
/// (0: one per core); the result does not depend on the thread count. `done` counts finished
/// games, for progress.
///
/// # Errors
/// [`RunError::Threads`] when the worker threads cannot start.
pub fn play_wins<G: Game>(
    setups: &[G::Setup],
    factory: &PolicyFactory<G>,
    seed: u64,
    first: u64,
    games: u64,
    threads: usize,
    done: &AtomicU64,
) -> Result<Vec<Vec<bool>>, RunError> {
    let threads = threads.min(MAX_THREADS);
    let pool = thread_pool(
        rayon::ThreadPoolBuilder::new().num_threads(threads).build(),
        threads,
    )?;
    let n = games as usize;
    let flat: Vec<bool> = pool.install(|| {
        (0..setups.len() * n)
            .into_par_iter()
            .map_init(
                || (factory(), Vec::new()),
                |(policy, legal), k| {
                    let (s, i) = (k / n, (k % n) as u64);
                    let end = play_game(&setups[s], policy.as_mut(), seed, first + i, legal);
                    done.fetch_add(1, Ordering::Relaxed);
                    end.outcome().is_some_and(|o| o.is_win())
                },
            )
            .collect()
    });
    Ok(flat.chunks(n.max(1)).map(<[bool]>::to_vec).collect())
}

/// The paired difference of `b`'s wins against `a`'s over the same games.
pub fn paired(a: &[bool], b: &[bool]) -> PairedDiff {
    let mut n = [0u64; 4];
    for (&x, &y) in a.iter().zip(b) {
        n[(usize::from(x) << 1) | usize::from(y)] += 1;
    }
    // n[3] both, n[2] only a, n[1] only b, n[0] neither
    paired_difference(n[3], n[2], n[1], n[0], Z95)
}

/// One side (down or up) of a value's sensitivity.
#[derive(Clone, Debug, PartialEq)]
pub struct Side {
    /// The value played ([`AxisValue::Int`] or [`AxisValue::Real`]).
    pub value: AxisValue,
    /// Games won with it.
    pub wins: u64,
    /// Its win rate minus the baseline's, with the paired 95% interval.
    pub change: PairedDiff,
}

/// The sensitivity of one value.
#[derive(Clone, Debug, PartialEq)]
pub struct SensitivityRow {
    /// The value's path (or axis).
    pub path: String,
    /// Its baseline value ([`AxisValue::Int`] or [`AxisValue::Real`]).
    pub current: AxisValue,
    /// One step down, `None` when the game refuses that value.
    pub down: Option<Side>,
    /// One step up, `None` when the game refuses that value.
    pub up: Option<Side>,
}

impl SensitivityRow {
    /// The effect used for ranking: the larger of the two changes' sizes (a side that cannot
    /// be played counts 0).
    pub fn effect(&self) -> f64 {
        let size = |s: &Option<Side>| s.as_ref().map_or(0.0, |s| s.change.diff.abs());
        size(&self.down).max(size(&self.up))
    }
}

/// A sensitivity analysis: the baseline and one row per value, ranked by effect.
#[derive(Clone, Debug)]
pub struct Sensitivity {
    /// Games per setup.
    pub games: u64,
    /// Baseline wins.
    pub base_wins: u64,
    /// Rows, largest effect first (ties by path).
    pub rows: Vec<SensitivityRow>,
}

/// Plays the baseline `base` and each numeric tunable moved one `step` down and up (each
/// alone; [`Step`]), all on games `0..games` of `seed`, in one parallel pass, and ranks the
/// values, whole and real together, by effect. Values whose moved setups the game refuses get
/// no side; tunables that are not numbers are left out.
///
/// # Errors
/// The baseline setup is refused, or the worker threads cannot start.
#[allow(clippy::too_many_arguments)]
pub fn sensitivity<G: Game>(
    base: &SetupValues,
    tunables: &[Tunable],
    step: Step,
    factory: &PolicyFactory<G>,
    seed: u64,
    games: u64,
    threads: usize,
    done: &AtomicU64,
) -> Result<Sensitivity, String> {
    let mut setups = vec![G::resolve_setup(base).map_err(|e| e.0)?];
    // (path, current, (value, setup index) of down, of up)
    type Planned = (
        String,
        AxisValue,
        Option<(AxisValue, usize)>,
        Option<(AxisValue, usize)>,
    );
    let mut plan: Vec<Planned> = Vec::new();
    for t in tunables {
        let (current, down, up) = match (t.int(), t.real()) {
            (Some(v), _) => (
                AxisValue::Int(v),
                v.checked_sub(step.int).map(AxisValue::Int),
                v.checked_add(step.int).map(AxisValue::Int),
            ),
            (None, Some(x)) => (
                AxisValue::Real(Real::new(x).ok_or("a real value is not finite")?),
                step.move_real(x, false).map(AxisValue::Real),
                step.move_real(x, true).map(AxisValue::Real),
            ),
            (None, None) => continue,
        };
        let mut side = |v: AxisValue| {
            let mut values = base.clone();
            values.insert(t.path.clone(), v.clone());
            G::resolve_setup(&values).ok().map(|s| {
                setups.push(s);
                (v, setups.len() - 1)
            })
        };
        let down = down.and_then(&mut side);
        let up = up.and_then(&mut side);
        plan.push((t.path.clone(), current, down, up));
    }
    let wins = play_wins::<G>(&setups, factory, seed, 0, games, threads, done)
        .map_err(|e| e.to_string())?;
    let count = |w: &[bool]| w.iter().filter(|&&x| x).count() as u64;
    let side = |s: Option<(AxisValue, usize)>| {
        s.map(|(value, i)| Side {
            value,
            wins: count(&wins[i]),
            change: paired(&wins[0], &wins[i]),
        })
    };
    let mut rows: Vec<SensitivityRow> = plan
        .into_iter()
        .map(|(path, current, down, up)| SensitivityRow {
            path,
            current,
            down: side(down),
            up: side(up),
        })
        .collect();
    rows.sort_by(|a, b| {
        b.effect()
            .total_cmp(&a.effect())
            .then_with(|| a.path.cmp(&b.path))
    });
    Ok(Sensitivity {
        games,
        base_wins: count(&wins[0]),
        rows,
    })
}

/// The header of `sensitivity.csv`.
pub const SENSITIVITY_CSV_HEADER: &str = "rank,path,current,games,base_win_rate,\
down_value,down_win_rate,down_change,down_lo,down_hi,\
up_value,up_win_rate,up_change,up_lo,up_hi,effect";

/// `sensitivity.csv`: one row per value, ranked; fractions with 4 decimals, empty cells for a
/// side the game refuses.
pub fn sensitivity_csv(s: &Sensitivity) -> String {
    let g = s.games as f64;
    let mut out = format!("{SENSITIVITY_CSV_HEADER}\n");
    for (i, r) in s.rows.iter().enumerate() {
        let side = |x: &Option<Side>| match x {
            Some(x) => format!(
                "{},{:.4},{:.4},{:.4},{:.4}",
                x.value,
                x.wins as f64 / g,
                x.change.diff,
                x.change.lo,
                x.change.hi
            ),
            None => ",,,,".to_string(),
        };
        out.push_str(&format!(
            "{},{},{},{},{:.4},{},{},{:.4}\n",
            i + 1,
            csv_field(&r.path),
            r.current,
            s.games,
            s.base_wins as f64 / g,
            side(&r.down),
            side(&r.up),
            r.effect()
        ));
    }
    out
}

/// A CSV field, quoted (inner quotes doubled) when it holds a comma, a quote or a line break.
pub(crate) fn csv_field(s: &str) -> String {
    if s.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_string()
    }
}

/// The tornado chart of the `top` largest effects (SVG): per value a bar from the baseline to
/// the change one step down (orange) and one step up (blue), with the paired 95% intervals.
///
/// # Errors
/// A drawing error of plotters, as text.
pub fn tornado_svg(s: &Sensitivity, title: &str, top: usize) -> Result<String, String> {
    use plotters::prelude::*;
    let rows: Vec<&SensitivityRow> = s.rows.iter().take(top).collect();
    let n = rows.len().max(1);
    let height = 120 + 26 * n as u32;
    let mut lim = 0.02f64;
    for r in &rows {
        for x in [&r.down, &r.up].into_iter().flatten() {
            lim = lim.max(x.change.lo.abs()).max(x.change.hi.abs());
        }
    }
    let lim = (lim * 1.1 * 100.0).ceil() / 100.0;
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (900, height)).into_drawing_area();
        root.fill(&WHITE).map_err(|e| e.to_string())?;
        let (left, right) = root.split_horizontally(330);
        let mut chart = ChartBuilder::on(&right)
            .caption(title, ("sans-serif", 18))
            .margin(12)
            .x_label_area_size(40)
            .build_cartesian_2d(-lim..lim, 0.0..n as f64)
            .map_err(|e| e.to_string())?;
        chart
            .configure_mesh()
            .disable_y_mesh()
            .y_labels(0)
            .x_desc(format!(
                "change in win rate from {:.1}% (paired 95% interval)",
                100.0 * s.base_wins as f64 / s.games.max(1) as f64
            ))
            .x_label_formatter(&|v| format!("{:+.0}%", v * 100.0))
            .draw()
            .map_err(|e| e.to_string())?;
        chart
            .draw_series(std::iter::once(PathElement::new(
                vec![(0.0, 0.0), (0.0, n as f64)],
                BLACK.stroke_width(1),
            )))
            .map_err(|e| e.to_string())?;
        let orange = RGBColor(230, 120, 30);
        let blue = RGBColor(40, 100, 200);
        for (k, r) in rows.iter().enumerate() {
            let y = (n - 1 - k) as f64;
            for (side, color, y0, y1) in [
                (&r.down, orange, y + 0.52, y + 0.88),
                (&r.up, blue, y + 0.12, y + 0.48),
            ] {
                if let Some(x) = side {
                    chart
                        .draw_series(std::iter::once(Rectangle::new(
                            [(0.0, y0), (x.change.diff, y1)],
                            color.mix(0.75).filled(),
                        )))
                        .map_err(|e| e.to_string())?;
                    let ym = (y0 + y1) / 2.0;
                    chart
                        .draw_series(std::iter::once(PathElement::new(
                            vec![(x.change.lo, ym), (x.change.hi, ym)],
                            BLACK.stroke_width(1),
                        )))
                        .map_err(|e| e.to_string())?;
                }
            }
        }
        // Labels: path and the two values, aligned with the bars.
        let area_top = 12 + 18 + 12; // margin + caption + gap (approximate)
        let plot_h = height as i32 - area_top - 40 - 12;
        for (k, r) in rows.iter().enumerate() {
            let yc = area_top + ((k as f64 + 0.5) * plot_h as f64 / n as f64) as i32;
            let values = format!(
                "{} = {} ({} / {})",
                r.path,
                r.current,
                r.down.as_ref().map_or("-".into(), |d| d.value.to_string()),
                r.up.as_ref().map_or("-".into(), |d| d.value.to_string())
            );
            left.draw(&Text::new(
                values,
                (8, yc - 6),
                ("sans-serif", 12).into_font().color(&BLACK),
            ))
            .map_err(|e| e.to_string())?;
        }
        left.draw(&Text::new(
            "orange: one step down, blue: one step up",
            (8, height as i32 - 24),
            ("sans-serif", 12).into_font().color(&BLACK),
        ))
        .map_err(|e| e.to_string())?;
        root.present().map_err(|e| e.to_string())?;
    }
    Ok(svg)
}
