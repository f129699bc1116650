//! Calibration (issue 17): the value of one tunable (an integer setup axis or content value)
//! whose win rate brackets a target, for one strategy.
//!
//! Every probe plays games `0..n` of the same seed (common random numbers: the values are
//! compared on the same dice, deals and policy randomness), and a probe whose Wilson interval
//! holds the target plays more games (doubling, games `n..2n`, ...) until the interval
//! excludes the target, is within the precision, or reaches the games cap.
//!
//! The value searched is whole ([`Domain::Int`]) or real ([`Domain::Real`], a content value
//! written with a decimal point): one search, where a "step" is 1 for whole numbers and the
//! resolution for reals (default [`DEFAULT_RESOLUTION`] of the range's width).
//!
//! - **Bisection** (monotone win rate): the two ends of the range are probed, then the middle
//!   of the bracket, until a probe's interval is within the precision around the target (that
//!   value is the answer) or the bracket is one step wide (the answer is the end nearer the
//!   target; both ends' intervals exclude the target unless the cap was reached).
//! - **Stochastic approximation** (Robbins-Monro) where the win rate is not monotone: a probe
//!   outside the interval hull of its bracket's ends switches to it (or `--method sa`):
//!   `x ← x + s·(hi − lo)·(target − rate)/k`, rounded to the range (to a whole number, or to
//!   the resolution's grid from `lo` for a real), `s` the direction the ends show, for at most
//!   [`SA_STEPS`] probes or until it stays put; the answer is the probe nearest the target.

use std::sync::atomic::AtomicU64;

use super::plan::PolicyFactory;
use super::sensitivity::play_wins;
use super::stats::{Z95, wilson};
use crate::game::{AxisValue, Game, SetupValues};
use crate::setup::Real;

/// The most stochastic-approximation probes.
pub const SA_STEPS: usize = 12;

/// The default resolution of a real calibration: this fraction of the searched range's width
/// (1%: about seven bisection probes).
pub const DEFAULT_RESOLUTION: f64 = 0.01;

/// The values a calibration searches.
#[derive(Copy, Clone, Debug, PartialEq)]
pub enum Domain {
    /// Whole numbers `lo..=hi` (`lo < hi`); a step is 1.
    Int(i64, i64),
    /// Real numbers `lo..=hi` (finite, `lo < hi`), in the value's own unit; bisection stops
    /// when the bracket is at most `resolution` wide (`> 0`).
    Real {
        /// The smallest value searched.
        lo: f64,
        /// The largest value searched.
        hi: f64,
        /// The width at which a bracket is one step.
        resolution: f64,
    },
}

impl Domain {
    /// The ends as numbers.
    pub fn ends(&self) -> (f64, f64) {
        match *self {
            Domain::Int(lo, hi) => (lo as f64, hi as f64),
            Domain::Real { lo, hi, .. } => (lo, hi),
        }
    }

    /// The ends as setup values.
    pub fn end_values(&self) -> (AxisValue, AxisValue) {
        let (lo, hi) = self.ends();
        (self.value(lo), self.value(hi))
    }

    /// `x` as a setup value of the domain: rounded to a whole number, or for reals rounded to
    /// 12 significant digits; clamped to the ends.
    pub fn value(&self, x: f64) -> AxisValue {
        match *self {
            Domain::Int(lo, hi) => AxisValue::Int((x.round() as i64).clamp(lo, hi)),
            Domain::Real { lo, hi, .. } => AxisValue::Real(
                Real::rounded(x.clamp(lo, hi))
                    .or(Real::new(lo))
                    .expect("the ends are finite"),
            ),
        }
    }

    /// `x` on the domain's grid: a whole number, or `lo + k·resolution` (stochastic
    /// approximation's probes).
    fn grid(&self, x: f64) -> AxisValue {
        match *self {
            Domain::Int(..) => self.value(x),
            Domain::Real { lo, resolution, .. } => {
                self.value(lo + ((x - lo) / resolution).round() * resolution)
            }
        }
    }

    /// The middle of the bracket `a < b` (whole numbers round down), `None` when the bracket
    /// is one step wide (or has no value strictly inside).
    fn middle(&self, a: &AxisValue, b: &AxisValue) -> Option<AxisValue> {
        match (*self, a, b) {
            (Domain::Int(..), AxisValue::Int(a), AxisValue::Int(b)) => {
                (b - a > 1).then(|| AxisValue::Int(a + (b - a) / 2))
            }
            (Domain::Real { resolution, .. }, a, b) => {
                let (a, b) = (number(a), number(b));
                if b - a <= resolution {
                    return None;
                }
                let m = self.value(a + (b - a) / 2.0);
                (number(&m) > a && number(&m) < b).then_some(m)
            }
            _ => None,
        }
    }
}

/// A numeric setup value as a number (0 for a switch or a name).
pub fn number(v: &AxisValue) -> f64 {
    match v {
        AxisValue::Int(n) => *n as f64,
        AxisValue::Real(x) => x.get(),
        _ => 0.0,
    }
}

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
    /// The values searched.
    pub domain: Domain,
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
    /// The value played ([`AxisValue::Int`] or [`AxisValue::Real`]).
    pub value: AxisValue,
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
    pub answer: AxisValue,
    /// Index in `probes` of the answer's probe.
    pub answer_probe: usize,
    /// The bracket `(a, b)` (neighbouring values on either side of the target) when bisection
    /// closed one, else `None`.
    pub bracket: Option<(AxisValue, AxisValue)>,
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
    fn probe(&mut self, v: AxisValue, method: &'static str) -> Result<usize, String> {
        if let Some(i) = self.probes.iter().position(|p| p.value == v) {
            return Ok(i);
        }
        let mut values = self.base.clone();
        values.insert(self.spec.path.clone(), v.clone());
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
    let (lo_v, hi_v) = spec.domain.end_values();
    let a = s.probe(lo_v, "bisect")?;
    let b = s.probe(hi_v, "bisect")?;
    let rising = s.probes[b].rate() >= s.probes[a].rate();
    let done_with = |s: &Searcher<G>, i: usize, bracket, stop: String| Calibration {
        probes: s.probes.clone(),
        answer: s.probes[i].value.clone(),
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
        while let Some(mid) = spec.domain.middle(&s.probes[x0].value, &s.probes[x1].value) {
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
            let (v0, v1) = (s.probes[x0].value.clone(), s.probes[x1].value.clone());
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
                Some(if v0 <= v1 { (v0, v1) } else { (v1, v0) }),
                stop.into(),
            ));
        }
    }
    // Stochastic approximation from the middle of the range.
    let dir = if rising { 1.0 } else { -1.0 };
    let (lo_x, hi_x) = spec.domain.ends();
    let width = hi_x - lo_x;
    let mut x = match spec.domain {
        // As integers: the middle rounds half up, as `(lo + hi) / 2.0` then `round` did.
        Domain::Int(lo, hi) => (lo + hi) as f64 / 2.0,
        Domain::Real { .. } => lo_x + width / 2.0,
    };
    let mut still = 0;
    for k in 1..=SA_STEPS {
        let v = spec.domain.grid(x);
        let i = s.probe(v.clone(), "sa")?;
        if s.precise(i) {
            return Ok(done_with(
                &s,
                i,
                None,
                "a probe's interval is within the precision around the target".into(),
            ));
        }
        let next =
            (x + dir * width * (spec.target - s.probes[i].rate()) / k as f64).clamp(lo_x, hi_x);
        if spec.domain.grid(next) == v {
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
        let xs: Vec<f64> = c.probes.iter().map(|p| number(&p.value)).collect();
        let real = c
            .probes
            .iter()
            .any(|p| matches!(p.value, AxisValue::Real(_)));
        let lo = xs.iter().copied().fold(f64::INFINITY, f64::min);
        let hi = xs.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        let (lo, hi) = if lo.is_finite() { (lo, hi) } else { (0.0, 1.0) };
        // Whole numbers: half a step of margin, one label a value; reals: 4% of the width.
        let pad = if real {
            ((hi - lo) * 0.04).max(1e-9)
        } else {
            0.5
        };
        let (x0, x1) = (lo - pad, hi + pad);
        let labels = if real {
            12
        } else {
            ((hi - lo) as usize + 1).min(12)
        };
        let decimals = if real {
            (2.0 - ((hi - lo).max(1e-9)).log10().floor()).clamp(0.0, 9.0) as usize
        } else {
            0
        };
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
            .x_labels(labels)
            .x_label_formatter(&|v| format!("{v:.decimals$}"))
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
        pts.sort_by(|a, b| number(&a.value).total_cmp(&number(&b.value)));
        chart
            .draw_series(LineSeries::new(
                pts.iter().map(|p| (number(&p.value), p.rate())),
                BLUE.mix(0.5).stroke_width(1),
            ))
            .map_err(|e| e.to_string())?;
        for (i, p) in c.probes.iter().enumerate() {
            let (l, h) = p.interval();
            let x = number(&p.value);
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
                    (x + pad / 10.0, (h + 0.03).min(0.97)),
                    ("sans-serif", 11),
                )))
                .map_err(|e| e.to_string())?;
        }
        root.present().map_err(|e| e.to_string())?;
    }
    Ok(svg)
}
