//! Calibration (issue 17): the value of one tunable (an integer setup axis or content value)
//! whose win rate brackets a target, for one strategy.
//!
//! Every probe plays games `0..n` of the same seed (common random numbers: the values are
//! compared on the same dice, deals and policy randomness), and a probe whose Wilson interval
//! holds the target plays more games (doubling, games `n..2n`, ...) until the interval
//! excludes the target, is within the precision, or reaches the games cap.
//!
//! - **Bisection** (monotone win rate): the two ends of the range are probed, then the middle
//!   of the bracket, until a probe's interval is within the precision around the target (that
//!   value is the answer) or the bracket is one step wide (the answer is the end nearer the
//!   target; both ends' intervals exclude the target unless the cap was reached).
//! - **Stochastic approximation** (Robbins-Monro) where the win rate is not monotone: a probe
//!   outside the interval hull of its bracket's ends switches to it (or `--method sa`):
//!   `x ← x + s·(hi − lo)·(target − rate)/k`, rounded to the range, `s` the direction the
//!   ends show, for at most [`SA_STEPS`] probes or until it stays put; the answer is the probe
//!   nearest the target.

use std::sync::atomic::AtomicU64;

use super::plan::PolicyFactory;
use super::sensitivity::play_wins;
use super::stats::{Z95, wilson};
use crate::game::{AxisValue, Game, SetupValues};

/// The most stochastic-approximation probes.
pub const SA_STEPS: usize = 12;

/// How to search.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Method {
    /// Bisection, switching to stochastic approximation if the win rate is seen not monotone.
    Auto,
    /// Bisection only.
    Bisect,
    /// Stochastic approximation only.
    Sa,
}

/// What to calibrate.
#[derive(Clone, Debug)]
pub struct CalibrateSpec {
    /// The path or axis.
    pub path: String,
    /// The smallest and largest value searched.
    pub range: (i64, i64),
    /// The target win rate.
    pub target: f64,
    /// Half-width of the interval at which a probe holding the target is an answer.
    pub precision: f64,
    /// Games of a probe's first round.
    pub games: u64,
    /// The most games one probe plays.
    pub max_games: u64,
    /// Seed of the games.
    pub seed: u64,
    /// Search method.
    pub method: Method,
}

/// One probe: a value and its games.
#[derive(Clone, Debug, PartialEq)]
pub struct Probe {
    /// 1-based order of the probe.
    pub step: usize,
    /// The value played.
    pub value: i64,
    /// Games played (`0..games` of the seed).
    pub games: u64,
    /// Games won.
    pub wins: u64,
    /// `bisect` or `sa`.
    pub method: &'static str,
}

impl Probe {
    /// Win rate.
    pub fn rate(&self) -> f64 {
        self.wins as f64 / self.games.max(1) as f64
    }
    /// Wilson 95% interval.
    pub fn interval(&self) -> (f64, f64) {
        wilson(self.wins, self.games, Z95)
    }
}

/// The outcome of a calibration.
#[derive(Clone, Debug)]
pub struct Calibration {
    /// Every probe, in order.
    pub probes: Vec<Probe>,
    /// The value found.
    pub answer: i64,
    /// Index in `probes` of the answer's probe.
    pub answer_probe: usize,
    /// The bracket `(a, b)` (neighbouring values on either side of the target) when bisection
    /// closed one, else `None`.
    pub bracket: Option<(i64, i64)>,
    /// Why the search stopped, in words.
    pub stop: String,
}

struct Searcher<'a, G: Game> {
    base: &'a SetupValues,
    spec: &'a CalibrateSpec,
    factory: &'a PolicyFactory<G>,
    threads: usize,
    done: &'a AtomicU64,
    probes: Vec<Probe>,
}

impl<G: Game> Searcher<'_, G> {
    /// Probes `v` (games doubling while the interval holds the target and is wider than the
    /// precision); reuses an earlier probe of `v`.
    fn probe(&mut self, v: i64, method: &'static str) -> Result<usize, String> {
        if let Some(i) = self.probes.iter().position(|p| p.value == v) {
            return Ok(i);
        }
        let mut values = self.base.clone();
        values.insert(self.spec.path.clone(), AxisValue::Int(v));
        let setup = G::resolve_setup(&values).map_err(|e| e.0)?;
        let (mut games, mut wins) = (0u64, 0u64);
        let mut batch = self.spec.games;
        loop {
            let w = play_wins::<G>(
                std::slice::from_ref(&setup),
                self.factory,
                self.spec.seed,
                games,
                batch,
                self.threads,
                self.done,
            )
            .map_err(|e| e.to_string())?;
            wins += w[0].iter().filter(|&&x| x).count() as u64;
            games += batch;
            let (lo, hi) = wilson(wins, games, Z95);
            let holds = lo <= self.spec.target && self.spec.target <= hi;
            if !holds || (hi - lo) / 2.0 <= self.spec.precision || games >= self.spec.max_games {
                break;
            }
            batch = games.min(self.spec.max_games - games);
        }
        self.probes.push(Probe {
            step: self.probes.len() + 1,
            value: v,
            games,
            wins,
            method,
        });
        Ok(self.probes.len() - 1)
    }

    /// -1, 0, +1: the probe's interval is below, holds, or is above the target.
    fn side(&self, i: usize) -> i8 {
        let (lo, hi) = self.probes[i].interval();
        if hi < self.spec.target {
            -1
        } else if lo > self.spec.target {
            1
        } else {
            0
        }
    }

    fn precise(&self, i: usize) -> bool {
        let (lo, hi) = self.probes[i].interval();
        self.side(i) == 0 && (hi - lo) / 2.0 <= self.spec.precision
    }

    fn nearest(&self) -> usize {
        (0..self.probes.len())
            .min_by(|&a, &b| {
                let d = |i: usize| (self.probes[i].rate() - self.spec.target).abs();
                d(a).total_cmp(&d(b))
                    .then(self.probes[b].games.cmp(&self.probes[a].games))
            })
            .expect("at least one probe")
    }
}

/// Calibrates `spec.path` on top of setup `base` for the strategy of `factory`.
///
/// # Errors
/// A setup the game refuses (a value in the range it does not accept), or the worker threads
/// cannot start.
pub fn calibrate<G: Game>(
    base: &SetupValues,
    spec: &CalibrateSpec,
    factory: &PolicyFactory<G>,
    threads: usize,
    done: &AtomicU64,
) -> Result<Calibration, String> {
    let mut s = Searcher::<G> {
        base,
        spec,
        factory,
        threads,
        done,
        probes: Vec::new(),
    };
    let (lo_v, hi_v) = spec.range;
    let a = s.probe(lo_v, "bisect")?;
    let b = s.probe(hi_v, "bisect")?;
    let rising = s.probes[b].rate() >= s.probes[a].rate();
    let done_with = |s: &Searcher<G>, i: usize, bracket, stop: String| Calibration {
        probes: s.probes.clone(),
        answer: s.probes[i].value,
        answer_probe: i,
        bracket,
        stop,
    };
    for i in [a, b] {
        if s.precise(i) {
            return Ok(done_with(
                &s,
                i,
                None,
                "an end of the range is within the precision of the target".into(),
            ));
        }
    }
    if s.side(a) != 0 && s.side(a) == s.side(b) {
        let i = s.nearest();
        return Ok(done_with(
            &s,
            i,
            None,
            "the target is outside the win rates of the range; the answer is the nearer end".into(),
        ));
    }
    let mut method = spec.method;
    if method != Method::Sa {
        // Bisection on the bracket (x0, x1): x0's side is "below" in the rising direction.
        let (mut x0, mut x1) = (a, b);
        while s.probes[x1].value - s.probes[x0].value > 1 {
            let mid = s.probes[x0].value + (s.probes[x1].value - s.probes[x0].value) / 2;
            let m = s.probe(mid, "bisect")?;
            if s.precise(m) {
                return Ok(done_with(
                    &s,
                    m,
                    None,
                    "a probe's interval is within the precision around the target".into(),
                ));
            }
            // Monotone check: the middle must lie within the ends' interval hull.
            let (l0, h0) = s.probes[x0].interval();
            let (l1, h1) = s.probes[x1].interval();
            let (lm, hm) = s.probes[m].interval();
            if (hm < l0.min(l1) || lm > h0.max(h1)) && method == Method::Auto {
                method = Method::Sa;
                break;
            }
            let below = s.probes[m].rate() < spec.target;
            // Rising: below the target → the answer is above mid.
            if below == rising {
                x0 = m;
            } else {
                x1 = m;
            }
        }
        if method != Method::Sa {
            let (v0, v1) = (s.probes[x0].value, s.probes[x1].value);
            let i = if (s.probes[x0].rate() - spec.target).abs()
                <= (s.probes[x1].rate() - spec.target).abs()
            {
                x0
            } else {
                x1
            };
            let stop = if s.side(x0) != 0 && s.side(x1) != 0 {
                "the bracket is one step wide and both intervals exclude the target"
            } else {
                "the bracket is one step wide (an interval holds the target at the games cap)"
            };
            return Ok(done_with(
                &s,
                i,
                Some((v0.min(v1), v0.max(v1))),
                stop.into(),
            ));
        }
    }
    // Stochastic approximation from the middle of the range.
    let dir = if rising { 1.0 } else { -1.0 };
    let width = (hi_v - lo_v) as f64;
    let mut x = (lo_v + hi_v) as f64 / 2.0;
    let mut still = 0;
    for k in 1..=SA_STEPS {
        let v = (x.round() as i64).clamp(lo_v, hi_v);
        let i = s.probe(v, "sa")?;
        if s.precise(i) {
            return Ok(done_with(
                &s,
                i,
                None,
                "a probe's interval is within the precision around the target".into(),
            ));
        }
        let next = (x + dir * width * (spec.target - s.probes[i].rate()) / k as f64)
            .clamp(lo_v as f64, hi_v as f64);
        if next.round() as i64 == v {
            still += 1;
            if still >= 2 {
                break;
            }
        } else {
            still = 0;
        }
        x = next;
    }
    let i = s.nearest();
    Ok(done_with(
        &s,
        i,
        None,
        "stochastic approximation settled; the answer is the probe nearest the target".into(),
    ))
}

/// The header of `probes.csv`.
pub const PROBES_CSV_HEADER: &str = "step,method,value,games,wins,win_rate,ci_low,ci_high";

/// `probes.csv`: every probe in order.
pub fn probes_csv(c: &Calibration) -> String {
    let mut out = format!("{PROBES_CSV_HEADER}\n");
    for p in &c.probes {
        let (lo, hi) = p.interval();
        out.push_str(&format!(
            "{},{},{},{},{},{:.4},{:.4},{:.4}\n",
            p.step,
            p.method,
            p.value,
            p.games,
            p.wins,
            p.rate(),
            lo,
            hi
        ));
    }
    out
}

/// The chart of the probes' win rates against the value (SVG), with the Wilson intervals, the
/// target (dashed) and the answer (filled).
///
/// # Errors
/// A drawing error of plotters, as text.
pub fn calibration_svg(
    c: &Calibration,
    title: &str,
    path: &str,
    target: f64,
) -> Result<String, String> {
    use plotters::prelude::*;
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (720, 460)).into_drawing_area();
        root.fill(&WHITE).map_err(|e| e.to_string())?;
        let lo = c.probes.iter().map(|p| p.value).min().unwrap_or(0);
        let hi = c.probes.iter().map(|p| p.value).max().unwrap_or(1);
        let (x0, x1) = (lo as f64 - 0.5, hi as f64 + 0.5);
        let mut chart = ChartBuilder::on(&root)
            .caption(title, ("sans-serif", 20))
            .margin(16)
            .x_label_area_size(44)
            .y_label_area_size(56)
            .build_cartesian_2d(x0..x1, 0.0..1.0)
            .map_err(|e| e.to_string())?;
        chart
            .configure_mesh()
            .x_desc(path)
            .y_desc("win rate (95% Wilson interval)")
            .x_labels(((hi - lo) as usize + 1).min(12))
            .x_label_formatter(&|v| format!("{v:.0}"))
            .y_label_formatter(&|v| format!("{:.0}%", v * 100.0))
            .draw()
            .map_err(|e| e.to_string())?;
        let red = RGBColor(200, 40, 40);
        chart
            .draw_series(DashedLineSeries::new(
                vec![(x0, target), (x1, target)],
                6,
                4,
                red.stroke_width(1),
            ))
            .map_err(|e| e.to_string())?;
        let mut pts: Vec<&Probe> = c.probes.iter().collect();
        pts.sort_by_key(|p| p.value);
        chart
            .draw_series(LineSeries::new(
                pts.iter().map(|p| (p.value as f64, p.rate())),
                BLUE.mix(0.5).stroke_width(1),
            ))
            .map_err(|e| e.to_string())?;
        for (i, p) in c.probes.iter().enumerate() {
            let (l, h) = p.interval();
            let x = p.value as f64;
            chart
                .draw_series(std::iter::once(PathElement::new(
                    vec![(x, l), (x, h)],
                    BLUE.stroke_width(1),
                )))
                .map_err(|e| e.to_string())?;
            let style = if i == c.answer_probe {
                red.filled()
            } else {
                BLUE.filled()
            };
            chart
                .draw_series(std::iter::once(Circle::new((x, p.rate()), 4, style)))
                .map_err(|e| e.to_string())?;
            chart
                .draw_series(std::iter::once(Text::new(
                    format!("#{} {:.1}% ({} g)", p.step, 100.0 * p.rate(), p.games),
                    (x + 0.05, (h + 0.03).min(0.97)),
                    ("sans-serif", 11),
                )))
                .map_err(|e| e.to_string())?;
        }
        root.present().map_err(|e| e.to_string())?;
    }
    Ok(svg)
}
