//! The tunable values of a game (issue 17), game-agnostic: its content values
//! ([`crate::content::values`]) and its integer setup axes, each with the range the game
//! accepts, for `sololab list values`, `calibrate` and `sensitivity`.
//!
//! A content value's range is found by asking the game: the value is set (alone) to
//! candidates around its current one and the game's setup resolution, with its content
//! validation, says yes or no ([`probe_range`], [`probe_real_range`]). Ranges are searched up
//! to [`PROBE_SPAN`] from the current value; beyond, the range is shown open. A real value's
//! ends are found to [`REAL_GRID`] and shown closed (`[0.5, 4.0]`) or open (`(0.0, 600.0]`)
//! as the game accepts the end itself or not.

use rayon::prelude::*;

use crate::content::{ValueKind, canonical_paths, content_values, is_value_path, set_values};
use crate::game::{AxisKind, AxisValue, Game, SetupError, SetupValues};
use crate::setup::Real;

/// How far from its current value a content value's range is searched (each side).
pub const PROBE_SPAN: i64 = 1000;

/// The accepted whole numbers around a value: `lo..=hi`, `None` for a side that reaches
/// [`PROBE_SPAN`] (open).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct IntRange {
    /// The smallest accepted value, `None` when the search reached `current - PROBE_SPAN`.
    pub lo: Option<i64>,
    /// The largest accepted value, `None` when the search reached `current + PROBE_SPAN`.
    pub hi: Option<i64>,
}

impl std::fmt::Display for IntRange {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match (self.lo, self.hi) {
            (Some(lo), Some(hi)) => write!(f, "{lo}..={hi}"),
            (Some(lo), None) => write!(f, "{lo}.."),
            (None, Some(hi)) => write!(f, "..={hi}"),
            (None, None) => write!(f, ".."),
        }
    }
}

/// The grid a real value's range ends are found to (in the value's own unit): the bisection
/// stops below it and the end is rounded to a multiple of it.
pub const REAL_GRID: f64 = 1e-6;

/// One end of a real range: the number and whether the game accepts it itself.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct RealBound {
    /// The end (a multiple of [`REAL_GRID`]).
    pub value: Real,
    /// Whether the end itself is accepted (`[` or `]`), else only values beyond it toward the
    /// current one (`(` or `)`).
    pub inclusive: bool,
}

/// The accepted reals around a value, each end `None` when the search reached
/// [`PROBE_SPAN`] from the current value (open).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct RealRange {
    /// The lower end.
    pub lo: Option<RealBound>,
    /// The upper end.
    pub hi: Option<RealBound>,
}

impl RealRange {
    /// Whether the range holds `x`.
    pub fn contains(&self, x: f64) -> bool {
        let above = self.lo.is_none_or(|b| {
            if b.inclusive {
                x >= b.value.get()
            } else {
                x > b.value.get()
            }
        });
        let below = self.hi.is_none_or(|b| {
            if b.inclusive {
                x <= b.value.get()
            } else {
                x < b.value.get()
            }
        });
        above && below
    }
}

impl std::fmt::Display for RealRange {
    /// Interval notation: `[0.5, 4.0]`, `(0.0, 600.0]`, `[1.0, ..)`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.lo {
            Some(b) => write!(f, "{}{}", if b.inclusive { '[' } else { '(' }, b.value)?,
            None => f.write_str("(..")?,
        }
        f.write_str(", ")?;
        match self.hi {
            Some(b) => write!(f, "{}{}", b.value, if b.inclusive { ']' } else { ')' }),
            None => f.write_str("..)"),
        }
    }
}

/// What values a tunable takes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Range {
    /// Whole numbers (an integer axis or content value).
    Int(IntRange),
    /// `true` or `false`.
    Bool,
    /// A name (its valid names are the content format's; not probed).
    Name,
    /// Real numbers (a content value written with a decimal point).
    Real(RealRange),
}

impl std::fmt::Display for Range {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Range::Int(r) => r.fmt(f),
            Range::Bool => f.write_str("true|false"),
            Range::Name => f.write_str("name"),
            Range::Real(r) => r.fmt(f),
        }
    }
}

/// One tunable value of a game: a content value path or an integer setup axis.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Tunable {
    /// The path (`monster.Demon.normal.hp`) or the axis name (`ruins`).
    pub path: String,
    /// The current value as written in the content file (or the axis's value).
    pub current: String,
    /// The current value as a setup value (`None` for a real the file writes as `inf`/`nan`).
    pub value: Option<AxisValue>,
    /// The values accepted.
    pub range: Range,
}

impl Tunable {
    /// The current whole number, for numeric tunables.
    pub fn int(&self) -> Option<i64> {
        match (&self.range, &self.value) {
            (Range::Real(_), _) => None,
            (_, Some(AxisValue::Int(v))) => Some(*v),
            _ => None,
        }
    }

    /// The current real number, for real tunables (a content value written with a decimal
    /// point; an experiment may have set it with a whole number).
    pub fn real(&self) -> Option<f64> {
        match (&self.range, &self.value) {
            (Range::Real(_), Some(AxisValue::Real(x))) => Some(x.get()),
            (Range::Real(_), Some(AxisValue::Int(n))) => Some(*n as f64),
            _ => None,
        }
    }
}

/// The content text the setup `values` name: the file of the `content` axis, else the game's
/// built-in content; `None` for a game without content.
///
/// # Errors
/// `content: cannot read content file: REASON`, or the `content` value is not a name.
pub fn content_text<G: Game>(values: &SetupValues) -> Result<Option<String>, SetupError> {
    let Some(builtin) = G::content_toml() else {
        return Ok(None);
    };
    match values.get("content") {
        None => Ok(Some(builtin.to_string())),
        Some(AxisValue::Name(s)) if s == "builtin" => Ok(Some(builtin.to_string())),
        Some(AxisValue::Name(s)) => {
            crate::content::read_content_file(std::path::Path::new(s), s).map(Some)
        }
        Some(other) => Err(SetupError(format!("axis 'content': {other} is not a name"))),
    }
}

/// The one spelling of each of `keys` under the setup `values` (whose `content` names the
/// content; a game's axis is its own): a content value path in the spelling
/// [`canonical_paths`] gives in that content (`monster[1].normal.hp` is
/// `monster.Demon.normal.hp` when the Demon is the first monster), `None` when it names no
/// value there or the content cannot be read (resolving the setup says why). Keys are compared
/// by it wherever two could name one value: [`first_alias`].
pub fn canonical_keys<G: Game>(values: &SetupValues, keys: &[&str]) -> Vec<Option<String>> {
    let is_path = |k: &str| G::content_toml().is_some() && is_value_path(k);
    let paths: Vec<&str> = keys.iter().copied().filter(|k| is_path(k)).collect();
    let mut found = if paths.is_empty() {
        Vec::new()
    } else {
        content_text::<G>(values)
            .ok()
            .flatten()
            .and_then(|text| canonical_paths(&text, &paths).ok())
            .unwrap_or_else(|| vec![None; paths.len()])
    }
    .into_iter();
    keys.iter()
        .map(|k| {
            if is_path(k) {
                found.next().flatten()
            } else {
                Some(k.to_string())
            }
        })
        .collect()
}

/// The first of `keys` that names what an earlier one names ([`canonical_keys`]: another
/// spelling of one content value, or the same key), as `(earlier, later)` indices into `keys`;
/// compared under each of `contents` (setup values naming a content each: a swept `content`
/// gives several), the first later key found under any of them.
pub fn first_alias<G: Game>(contents: &[SetupValues], keys: &[&str]) -> Option<(usize, usize)> {
    let mut first: Option<(usize, usize)> = None;
    for values in contents {
        let canonical = canonical_keys::<G>(values, keys);
        let end = first.map_or(keys.len(), |(_, later)| later);
        for j in 0..end {
            let Some(c) = &canonical[j] else { continue };
            if let Some(i) = canonical[..j].iter().position(|x| x.as_ref() == Some(c)) {
                first = Some((i, j));
                break;
            }
        }
    }
    first
}

/// `values` with every content value path written in its one spelling ([`canonical_keys`]),
/// so that the tuning commands find, replace and move a value of the experiment's `[setup]`
/// whichever spelling it was given in; a path that names nothing is kept as written.
///
/// # Errors
/// `axis 'LATER' is given twice (first as 'EARLIER')` when two keys name one value.
pub fn canonical_setup<G: Game>(values: &SetupValues) -> Result<SetupValues, SetupError> {
    let keys: Vec<&str> = values.keys().map(String::as_str).collect();
    if let Some((i, j)) = first_alias::<G>(std::slice::from_ref(values), &keys) {
        return Err(SetupError(format!(
            "axis '{}' is given twice (first as '{}')",
            keys[j], keys[i]
        )));
    }
    let canonical = canonical_keys::<G>(values, &keys);
    Ok(values
        .iter()
        .zip(canonical)
        .map(|((k, v), c)| (c.unwrap_or_else(|| k.clone()), v.clone()))
        .collect())
}

/// Whether the game accepts `path = v` on top of `base`.
pub fn accepts<G: Game>(base: &SetupValues, path: &str, v: i64) -> bool {
    let mut values = base.clone();
    values.insert(path.to_string(), AxisValue::Int(v));
    G::resolve_setup(&values).is_ok()
}

/// Whether the game accepts the real `path = x` on top of `base` (`false` for a non-finite `x`).
pub fn accepts_real<G: Game>(base: &SetupValues, path: &str, x: f64) -> bool {
    let Some(x) = Real::new(x) else {
        return false;
    };
    let mut values = base.clone();
    values.insert(path.to_string(), AxisValue::Real(x));
    G::resolve_setup(&values).is_ok()
}

/// `x` rounded to the nearest multiple of [`REAL_GRID`].
fn on_grid(x: f64) -> f64 {
    let r = (x / REAL_GRID).round() * REAL_GRID;
    // The shortest text of the grid value (`0.1`, not `0.10000000000000002`).
    format!("{r:.6}").parse().unwrap_or(r)
}

/// The accepted reals around `current` for the real value `path` on top of `base`: each way, a
/// doubling search of offsets `1, 2, 4, ...` (up to [`PROBE_SPAN`]) to the first refused one,
/// then bisection between the last accepted and the first refused offset to below
/// [`REAL_GRID`]; the end is that boundary rounded to the grid (or to 6 significant digits
/// when that is within two grid steps, for a game that rounds to `f32`), inclusive when the
/// game accepts it. The range is the contiguous run of accepted values that holds `current`.
pub fn probe_real_range<G: Game>(base: &SetupValues, path: &str, current: f64) -> RealRange {
    let side = |dir: f64| -> Option<RealBound> {
        let ok = last_accepted(
            REAL_GRID / 4.0,
            |ok, bad| ok + (bad - ok) / 2.0,
            |d| accepts_real::<G>(base, path, current + dir * d),
        )?;
        let mut end = on_grid(current + dir * ok);
        // A game that rounds (to `f32`, say) puts the boundary a grid step past a round end
        // (`4.000001`): the round number within two steps is the end shown.
        if let Ok(round) = format!("{end:.5e}").parse::<f64>()
            && (round - end).abs() <= 2.0 * REAL_GRID
        {
            end = round;
        }
        let inclusive = accepts_real::<G>(base, path, end);
        Real::new(end).map(|value| RealBound { value, inclusive })
    };
    RealRange {
        lo: side(-1.0),
        hi: side(1.0),
    }
}

/// The accepted whole numbers around `current` for `path` on top of `base`: a doubling search
/// each way from `current` (up to [`PROBE_SPAN`]), then bisection to the first refused value.
/// The range is the contiguous run of accepted values that holds `current`.
pub fn probe_range<G: Game>(base: &SetupValues, path: &str, current: i64) -> IntRange {
    // Offsets are whole numbers up to PROBE_SPAN, exact as f64; the midpoint rounds down.
    let side = |dir: i64| -> Option<i64> {
        let ok = last_accepted(
            1.0,
            |ok, bad| ok + ((bad - ok) / 2.0).floor(),
            |d| accepts::<G>(base, path, current + dir * d as i64),
        )?;
        Some(current + dir * ok as i64)
    };
    IntRange {
        lo: side(-1),
        hi: side(1),
    }
}

/// One side of a probe ([`probe_range`], [`probe_real_range`]): the largest offset `ok_at`
/// accepts before the first it refuses. Offsets `1, 2, 4, ...` up to [`PROBE_SPAN`] are tried
/// until one is refused; then `mid(ok, bad)` bisects between the last accepted and the first
/// refused offset while they are more than `gap` apart (and the midpoint lies strictly between
/// them). `None` when every doubled offset and [`PROBE_SPAN`] itself are accepted (no end
/// within the span).
fn last_accepted(
    gap: f64,
    mid: impl Fn(f64, f64) -> f64,
    ok_at: impl Fn(f64) -> bool,
) -> Option<f64> {
    let span = PROBE_SPAN as f64;
    let (mut ok, mut bad) = (0.0f64, None);
    let mut step = 1.0f64;
    while step <= span {
        if ok_at(step) {
            ok = step;
            step *= 2.0;
        } else {
            bad = Some(step);
            break;
        }
    }
    let mut bad = match bad {
        Some(b) => b,
        None if ok_at(span) => return None,
        None => span,
    };
    while bad - ok > gap {
        let m = mid(ok, bad);
        if m <= ok || m >= bad {
            break;
        }
        if ok_at(m) {
            ok = m;
        } else {
            bad = m;
        }
    }
    Some(ok)
}

/// Where a numeric tunable's range is probed from.
#[derive(Copy, Clone, Debug)]
enum Start {
    Int(i64),
    Real(f64),
}

/// Every tunable of game `G` under setup `base`: its integer setup axes (their declared
/// range) and every value of the content `base` names, in file order, with its range
/// (probed for numbers; [`probe_range`]), in parallel across values. `only` keeps the named
/// ones (in that order). A content value is listed, and found in `base` and `only`, by its one
/// spelling ([`canonical_keys`]: `monster[1].normal.hp` is `monster.Demon.normal.hp`).
///
/// # Errors
/// The content file cannot be read or parsed, two keys of `base` name one value, or a name in
/// `only` is neither an axis nor a content value (one line, listing where to look).
pub fn tunables<G: Game>(
    base: &SetupValues,
    only: Option<&[String]>,
) -> Result<Vec<Tunable>, SetupError> {
    let base = &canonical_setup::<G>(base)?;
    G::resolve_setup(base)?;
    let mut out: Vec<(Tunable, Option<Start>)> = Vec::new();
    for axis in G::axes() {
        if let AxisKind::Int { min, max } = axis.kind {
            // An axis whose default is not a number ("campaign card") overrides a content value
            // only when set; unset, the content value is the tunable.
            let current = match base.get(axis.name) {
                Some(AxisValue::Int(v)) => *v,
                _ => match axis.default.parse() {
                    Ok(v) => v,
                    Err(_) => continue,
                },
            };
            out.push((
                Tunable {
                    path: axis.name.to_string(),
                    current: current.to_string(),
                    value: Some(AxisValue::Int(current)),
                    range: Range::Int(IntRange {
                        lo: Some(min),
                        hi: Some(max),
                    }),
                },
                // Probed too: the game may accept less than the declared range (rift's
                // `game` stops at the content's campaign games).
                Some(Start::Int(current)),
            ));
        }
    }
    if let Some(text) = content_text::<G>(base)? {
        let values = content_values(&text).map_err(|m| SetupError(format!("content: {m}")))?;
        for v in values {
            let current = base.get(&v.path).cloned().or(v.value.clone());
            let open = RealRange { lo: None, hi: None };
            let (range, probe) = match (v.kind, &current) {
                (ValueKind::Int, Some(AxisValue::Int(n))) => (
                    Range::Int(IntRange { lo: None, hi: None }),
                    Some(Start::Int(*n)),
                ),
                (ValueKind::Real, Some(AxisValue::Int(n))) => {
                    (Range::Real(open), Some(Start::Real(*n as f64)))
                }
                (ValueKind::Real, Some(AxisValue::Real(x))) => {
                    (Range::Real(open), Some(Start::Real(x.get())))
                }
                (ValueKind::Real, _) => (Range::Real(open), None),
                (ValueKind::Bool, _) => (Range::Bool, None),
                _ => (Range::Name, None),
            };
            let shown = match &current {
                Some(x) if base.contains_key(&v.path) => crate::lab::experiment::value(x),
                _ => v.current.clone(),
            };
            out.push((
                Tunable {
                    path: v.path,
                    current: shown,
                    value: current,
                    range,
                },
                probe,
            ));
        }
    }
    if let Some(only) = only {
        let mut kept = Vec::with_capacity(only.len());
        let names: Vec<&str> = only.iter().map(String::as_str).collect();
        let canonical = canonical_keys::<G>(base, &names);
        for (name, canonical) in only.iter().zip(canonical) {
            let path = canonical.as_ref().unwrap_or(name);
            let Some(i) = out.iter().position(|(t, _)| t.path == *path) else {
                // An integer axis whose default is the content's ("campaign card") moves only
                // when the experiment sets it.
                if let Some(axis) = G::axes()
                    .iter()
                    .find(|a| a.name == name && matches!(a.kind, AxisKind::Int { .. }))
                {
                    return Err(SetupError(format!(
                        "'{name}': its default is the content's ({}), not a number to move: set \
                         {name} in the experiment's [setup] to move it from there",
                        axis.default
                    )));
                }
                let what = if is_value_path(name) {
                    "no content value"
                } else {
                    "no integer axis or content value"
                };
                return Err(SetupError(format!(
                    "'{name}': {what} of that name for {} (`sololab list values {}` lists them)",
                    G::NAME,
                    G::NAME
                )));
            };
            kept.push(out[i].clone());
        }
        out = kept;
    }
    Ok(out
        .into_par_iter()
        .map(|(mut t, probe)| {
            let mut others = base.clone();
            others.remove(&t.path);
            match probe {
                Some(Start::Int(current)) => {
                    t.range = Range::Int(probe_range::<G>(&others, &t.path, current));
                }
                Some(Start::Real(current)) => {
                    t.range = Range::Real(probe_real_range::<G>(&others, &t.path, current));
                }
                None => {}
            }
            t
        })
        .collect())
}

/// What a whole number too large for a 64-bit integer (`99999999999999999999`, as `written`)
/// given to setting `key` on top of the other settings `base` is told: `99999999999999999999
/// is out of range 1..=3`, with the range the game accepts: an integer axis's declared
/// `min..=max`, a whole-number content value's as `sololab list values` shows it (probed
/// around the content's value; the 64-bit range when the other settings do not resolve or
/// the path is written other than `list values` writes it). `None` when `key` does not take
/// whole numbers only (a real content value reads the number as a real; a switch or a name
/// is refused as such) or is no setting of the game.
pub fn too_large_integer<G: Game>(base: &SetupValues, key: &str, written: &str) -> Option<String> {
    let range = match G::axes().iter().find(|a| a.name == key) {
        Some(axis) => match axis.kind {
            AxisKind::Int { min, max } => format!("{min}..={max}"),
            _ => return None,
        },
        None if G::content_toml().is_some() && is_value_path(key) => {
            let mut others = base.clone();
            others.remove(key);
            match tunables::<G>(&others, Some(&[key.to_string()])).as_deref() {
                Ok([t]) => match &t.range {
                    Range::Int(r) => r.to_string(),
                    _ => return None,
                },
                _ => {
                    // A whole-number value takes an integer and refuses a real.
                    let text = content_text::<G>(&others).ok()??;
                    let set = |v: AxisValue| set_values(&text, &[(key.to_string(), v)]).is_ok();
                    if !set(AxisValue::Int(0)) || set(AxisValue::Real(Real::new(0.5)?)) {
                        return None;
                    }
                    format!("{}..={}", i64::MIN, i64::MAX)
                }
            }
        }
        None => return None,
    };
    Some(format!("{written} is out of range {range}"))
}

/// `list values`: one tunable a line, its path, current value and range, aligned.
pub fn values_text(tunables: &[Tunable]) -> String {
    let w = tunables.iter().map(|t| t.path.len()).max().unwrap_or(0);
    let c = tunables.iter().map(|t| t.current.len()).max().unwrap_or(0);
    let mut out = String::new();
    for t in tunables {
        out.push_str(&format!("{:<w$}  {:<c$}  {}\n", t.path, t.current, t.range));
    }
    out
}

/// The tunables sensitivity moves: `only` (each must be a number: whole or real), or every
/// numeric tunable of [`tunables`] whose range has room for a step either way (for a real, its
/// range is more than the one value).
///
/// # Errors
/// Those of [`tunables`], a value named twice in `only` (in one spelling or two:
/// [`first_alias`]), or a named value that is not a number.
pub fn sensitivity_tunables<G: Game>(
    base: &SetupValues,
    only: Option<&[String]>,
) -> Result<Vec<Tunable>, SetupError> {
    if let Some(only) = only {
        let names: Vec<&str> = only.iter().map(String::as_str).collect();
        if let Some((i, j)) = first_alias::<G>(std::slice::from_ref(base), &names) {
            return Err(SetupError(if names[i] == names[j] {
                format!("'{}' is listed twice", names[j])
            } else {
                format!(
                    "'{}' is listed twice (first as '{}', the same content value)",
                    names[j], names[i]
                )
            }));
        }
    }
    let all = tunables::<G>(base, only)?;
    if only.is_some() {
        if let Some(t) = all.iter().find(|t| t.int().is_none() && t.real().is_none()) {
            return Err(SetupError(format!(
                "'{}': a {} value, not a number",
                t.path, t.range
            )));
        }
        return Ok(all);
    }
    Ok(all
        .into_iter()
        .filter(|t| match (&t.range, t.int(), t.real()) {
            (Range::Int(r), Some(v), _) => {
                r.lo.is_none_or(|lo| lo < v) || r.hi.is_none_or(|hi| hi > v)
            }
            (Range::Real(r), _, Some(x)) => {
                r.lo.is_none_or(|b| b.value.get() < x) || r.hi.is_none_or(|b| b.value.get() > x)
            }
            _ => false,
        })
        .collect())
}
