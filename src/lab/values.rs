//! The tunable values of a game (issue 17), game-agnostic: its content values
//! ([`crate::content::values`]) and its integer setup axes, each with the range the game
//! accepts, for `sololab list values`, `calibrate` and `sensitivity`.
//!
//! A content value's range is found by asking the game: the value is set (alone) to
//! candidates around its current one and the game's setup resolution, with its content
//! validation, says yes or no ([`probe_range`]). Ranges are searched up to
//! [`PROBE_SPAN`] from the current value; beyond, the range is shown open.

use rayon::prelude::*;

use crate::content::{ValueKind, content_values, is_value_path};
use crate::game::{AxisKind, AxisValue, Game, SetupError, SetupValues};

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

/// What values a tunable takes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Range {
    /// Whole numbers (an integer axis, or a content integer or whole real).
    Int(IntRange),
    /// `true` or `false`.
    Bool,
    /// A name (its valid names are the content format's; not probed).
    Name,
    /// A real that is not a whole number (not settable from an experiment).
    Real,
}

impl std::fmt::Display for Range {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Range::Int(r) => r.fmt(f),
            Range::Bool => f.write_str("true|false"),
            Range::Name => f.write_str("name"),
            Range::Real => f.write_str("real"),
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
    /// The current value as a setup value (`None` for a real that is not whole).
    pub value: Option<AxisValue>,
    /// The values accepted.
    pub range: Range,
}

impl Tunable {
    /// The current whole number, for numeric tunables.
    pub fn int(&self) -> Option<i64> {
        match self.value {
            Some(AxisValue::Int(v)) => Some(v),
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
        Some(AxisValue::Name(s)) => std::fs::read_to_string(s)
            .map(Some)
            .map_err(|e| SetupError(format!("{s}: cannot read content file: {e}"))),
        Some(other) => Err(SetupError(format!("axis 'content': {other} is not a name"))),
    }
}

/// Whether the game accepts `path = v` on top of `base`.
pub fn accepts<G: Game>(base: &SetupValues, path: &str, v: i64) -> bool {
    let mut values = base.clone();
    values.insert(path.to_string(), AxisValue::Int(v));
    G::resolve_setup(&values).is_ok()
}

/// The accepted whole numbers around `current` for `path` on top of `base`: a doubling search
/// each way from `current` (up to [`PROBE_SPAN`]), then bisection to the first refused value.
/// The range is the contiguous run of accepted values that holds `current`.
pub fn probe_range<G: Game>(base: &SetupValues, path: &str, current: i64) -> IntRange {
    let side = |dir: i64| -> Option<i64> {
        // last accepted offset, first refused offset
        let (mut ok, mut bad) = (0i64, None);
        let mut step = 1i64;
        while step <= PROBE_SPAN {
            if accepts::<G>(base, path, current + dir * step) {
                ok = step;
                step *= 2;
            } else {
                bad = Some(step);
                break;
            }
        }
        let mut bad = match bad {
            Some(b) => b,
            None if accepts::<G>(base, path, current + dir * PROBE_SPAN) => return None,
            None => PROBE_SPAN,
        };
        while bad - ok > 1 {
            let mid = ok + (bad - ok) / 2;
            if accepts::<G>(base, path, current + dir * mid) {
                ok = mid;
            } else {
                bad = mid;
            }
        }
        Some(current + dir * ok)
    };
    IntRange {
        lo: side(-1),
        hi: side(1),
    }
}

/// Every tunable of game `G` under setup `base`: its integer setup axes (their declared
/// range) and every value of the content `base` names, in file order, with its range
/// (probed for numbers; [`probe_range`]), in parallel across values. `only` keeps the named
/// ones (in that order).
///
/// # Errors
/// The content file cannot be read or parsed, or a name in `only` is neither an axis nor a
/// content value (one line, listing where to look).
pub fn tunables<G: Game>(
    base: &SetupValues,
    only: Option<&[String]>,
) -> Result<Vec<Tunable>, SetupError> {
    G::resolve_setup(base)?;
    let mut out: Vec<(Tunable, Option<i64>)> = Vec::new();
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
                Some(current),
            ));
        }
    }
    if let Some(text) = content_text::<G>(base)? {
        let values = content_values(&text).map_err(|m| SetupError(format!("content: {m}")))?;
        for v in values {
            let current = base.get(&v.path).cloned().or(v.value.clone());
            let (range, probe) = match (v.kind, &current) {
                (ValueKind::Int | ValueKind::Real, Some(AxisValue::Int(n))) => {
                    (Range::Int(IntRange { lo: None, hi: None }), Some(*n))
                }
                (ValueKind::Real, _) => (Range::Real, None),
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
        for name in only {
            let Some(i) = out.iter().position(|(t, _)| t.path == *name) else {
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
            if let Some(current) = probe {
                let mut others = base.clone();
                others.remove(&t.path);
                t.range = Range::Int(probe_range::<G>(&others, &t.path, current));
            }
            t
        })
        .collect())
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

/// The tunables sensitivity moves: `only` (each must be a whole number), or every whole-number
/// tunable of [`tunables`] whose range has room for a step either way.
///
/// # Errors
/// Those of [`tunables`], or a named value that is not a whole number.
pub fn sensitivity_tunables<G: Game>(
    base: &SetupValues,
    only: Option<&[String]>,
) -> Result<Vec<Tunable>, SetupError> {
    let all = tunables::<G>(base, only)?;
    if only.is_some() {
        if let Some(t) = all.iter().find(|t| t.int().is_none()) {
            return Err(SetupError(format!(
                "'{}': a {} value, not a whole number",
                t.path, t.range
            )));
        }
        return Ok(all);
    }
    Ok(all
        .into_iter()
        .filter(|t| match (&t.range, t.int()) {
            (Range::Int(r), Some(v)) => {
                r.lo.is_none_or(|lo| lo < v) || r.hi.is_none_or(|hi| hi > v)
            }
            _ => false,
        })
        .collect())
}
