//! Statistics for reports: the Wilson score interval of a win rate.

/// The normal quantile for a two-sided 95% interval.
pub const Z95: f64 = 1.959964;

/// The Wilson score interval `(low, high)` of `wins` successes in `games` trials at
/// `z` standard deviations, both in `0.0..=1.0`. With no games the interval is `(0.0, 1.0)`
/// (nothing is known).
///
/// Unlike the normal approximation it stays inside `0..=1` and is honest near 0% and 100%,
/// where difficult settings live.
///
/// # Examples
/// ```
/// let (lo, hi) = sololab::lab::wilson(50, 100, sololab::lab::Z95);
/// assert_eq!((format!("{lo:.4}"), format!("{hi:.4}")), ("0.4038".into(), "0.5962".into()));
/// ```
pub fn wilson(wins: u64, games: u64, z: f64) -> (f64, f64) {
    if games == 0 {
        return (0.0, 1.0);
    }
    let n = games as f64;
    let p = wins as f64 / n;
    let z2 = z * z;
    let denom = 1.0 + z2 / n;
    let centre = (p + z2 / (2.0 * n)) / denom;
    let half = z * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt() / denom;
    ((centre - half).max(0.0), (centre + half).min(1.0))
}

/// A difference of two paired proportions with its confidence interval
/// ([`paired_difference`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PairedDiff {
    /// The estimate `p_b - p_a` (in `-1.0..=1.0`): the other cell's win rate minus the
    /// baseline's, over the same games.
    pub diff: f64,
    /// The interval's lower end (in `-1.0..=1.0`).
    pub lo: f64,
    /// The interval's upper end (in `-1.0..=1.0`).
    pub hi: f64,
}

/// The difference `p_b - p_a` of two proportions measured on the same `n` paired trials, with
/// Newcombe's score interval for paired data (Newcombe 1998, "Improved confidence intervals for
/// the difference between binomial proportions based on paired data", Statistics in Medicine
/// 17:2635-2650, method 10: the square-and-add combination of the two [Wilson](wilson)
/// intervals, with the correlation `phi` of the pairs corrected as Newcombe does: `ad - bc`
/// is replaced by `max(ad - bc - n/2, 0)` when positive, and `phi` is 0 when a margin is 0).
///
/// The four counts are the 2×2 table of the pairs: `both` (a and b succeeded), `only_a`,
/// `only_b`, `neither`; `n` is their sum. `z` is the normal quantile ([`Z95`] for 95%). With
/// no pairs the estimate is 0 and the interval `(-1, 1)` (nothing is known). The interval
/// always contains the estimate and stays inside `-1..=1`.
///
/// Checked against the published example of Fagerland, Lydersen & Laake (2014, "Recommended
/// tests and confidence intervals for paired binomial proportions", Statistics in Medicine
/// 33:2850-2875; also their book "Statistical Analysis of Contingency Tables", 2017, ch. 8):
/// Cavo et al. (2012), pairs 59/6/16/80, Newcombe square-and-add interval -0.1186 to -0.0046
/// for the difference -0.0621.
///
/// # Examples
/// ```
/// use sololab::lab::{Z95, paired_difference};
/// // Cavo et al. (2012): both 59, first only 6, second only 16, neither 80;
/// // p_first - p_second = -0.0621 (-0.1186 to -0.0046).
/// let d = paired_difference(59, 16, 6, 80, Z95);
/// let shown = format!("{:.4} {:.4} {:.4}", d.diff, d.lo, d.hi);
/// assert_eq!(shown, "-0.0621 -0.1186 -0.0046");
/// ```
pub fn paired_difference(both: u64, only_a: u64, only_b: u64, neither: u64, z: f64) -> PairedDiff {
    let n = both + only_a + only_b + neither;
    if n == 0 {
        return PairedDiff {
            diff: 0.0,
            lo: -1.0,
            hi: 1.0,
        };
    }
    let nf = n as f64;
    // Newcombe's table with the first proportion p1 = b's and the second p2 = a's, so that
    // his theta = p1 - p2 is our p_b - p_a: his cells are a = both, b = only_b,
    // c = only_a, d = neither.
    let (a, b, c, d) = (both as f64, only_b as f64, only_a as f64, neither as f64);
    let p1 = (a + b) / nf;
    let p2 = (a + c) / nf;
    let (l1, u1) = wilson(both + only_b, n, z);
    let (l2, u2) = wilson(both + only_a, n, z);
    let margins = (a + b) * (c + d) * (a + c) * (b + d);
    let phi = if margins == 0.0 {
        0.0
    } else {
        let cross = a * d - b * c;
        let corrected = if cross > 0.0 {
            (cross - nf / 2.0).max(0.0)
        } else {
            cross
        };
        corrected / margins.sqrt()
    };
    let diff = (b - c) / nf;
    let (dl1, du2) = (p1 - l1, u2 - p2);
    let (du1, dl2) = (u1 - p1, p2 - l2);
    let delta = (dl1 * dl1 - 2.0 * phi * dl1 * du2 + du2 * du2)
        .max(0.0)
        .sqrt();
    let epsilon = (dl2 * dl2 - 2.0 * phi * dl2 * du1 + du1 * du1)
        .max(0.0)
        .sqrt();
    PairedDiff {
        diff,
        lo: (diff - delta).max(-1.0),
        hi: (diff + epsilon).min(1.0),
    }
}

/// The difference `p_b - p_a` of two proportions from independent samples of `n_a` and `n_b`
/// trials with `wins_a` and `wins_b` successes, with Newcombe's hybrid score interval (Newcombe
/// 1998, "Interval estimation for the difference between independent proportions: comparison
/// of eleven methods", Statistics in Medicine 17:873-890, method 10): [`paired_difference`]
/// with `phi = 0`. The lab uses it as the unpaired interval of the same games, to show what
/// pairing saved.
///
/// # Examples
/// ```
/// use sololab::lab::{Z95, unpaired_difference};
/// // Newcombe (1998), independent proportions, example (a): 56/70 vs 48/80,
/// // p1 - p2 = 0.2 with the method-10 interval 0.0524 to 0.3339.
/// let d = unpaired_difference(48, 80, 56, 70, Z95);
/// let shown = format!("{:.4} {:.4} {:.4}", d.diff, d.lo, d.hi);
/// assert_eq!(shown, "0.2000 0.0524 0.3339");
/// ```
pub fn unpaired_difference(wins_a: u64, n_a: u64, wins_b: u64, n_b: u64, z: f64) -> PairedDiff {
    if n_a == 0 || n_b == 0 {
        return PairedDiff {
            diff: 0.0,
            lo: -1.0,
            hi: 1.0,
        };
    }
    let pa = wins_a as f64 / n_a as f64;
    let pb = wins_b as f64 / n_b as f64;
    let (la, ua) = wilson(wins_a, n_a, z);
    let (lb, ub) = wilson(wins_b, n_b, z);
    let diff = pb - pa;
    let delta = ((pb - lb).powi(2) + (ua - pa).powi(2)).sqrt();
    let epsilon = ((ub - pb).powi(2) + (pa - la).powi(2)).sqrt();
    PairedDiff {
        diff,
        lo: (diff - delta).max(-1.0),
        hi: (diff + epsilon).min(1.0),
    }
}
