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
