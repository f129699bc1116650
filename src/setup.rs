//! Reading one cell's setup values against the axes a game declares, with the standard
//! one-line messages, so a game lists its axes (`static AXES: [Axis; N]`) and gets validation
//! for free in its [`Game::resolve_setup`](crate::Game::resolve_setup).
//!
//! The lab already refuses values of the wrong kind or out of range in experiment files and
//! `--set`; a game's `resolve_setup` is also called directly (tests, benches, positions), so it
//! reads through an [`AxisReader`], which checks again and words its errors like the lab:
//! `axis 'ruins': 4 is not in 1..=3`, `axis 'mech_a': unknown name 'Gundam' (valid: random,
//! Wukong, ...)`. Every message names the axis in quotes, which is how the lab finds the value
//! to locate an error at.

use std::cmp::Ordering;
use std::fmt::Display;
use std::hash::{Hash, Hasher};

use crate::game::SetupValues;
use crate::game::{Axis, AxisKind, AxisValue, SetupError};

/// A finite real number as a setup value ([`AxisValue::Real`]): a content value the file
/// writes with a decimal point (`move = 4.0`, `base_radius = 0.5`; inches, a probability,
/// whatever the format's unit is), set from an experiment as `2.5` (or a whole number `2`).
///
/// Never NaN or infinite, and `-0.0` is stored as `0.0`, so equality, the order (the numeric
/// one) and hashing are total and agree: a `Real` can be a sweep value, a map key, a cache key.
/// It is shown as the shortest text that reads back as the same `f64` (`2.5`, `4.0`, `1e-7`),
/// which is valid TOML, so a value written into a content file round-trips exactly.
#[derive(Copy, Clone, Debug)]
pub struct Real(f64);

impl Real {
    /// `x` as a setup value; `None` when it is NaN or infinite.
    pub fn new(x: f64) -> Option<Real> {
        if x.is_finite() {
            Some(Real(if x == 0.0 { 0.0 } else { x }))
        } else {
            None
        }
    }

    /// `x` rounded to 12 significant digits, so a computed value reads as written (`3.6`, not
    /// `3.5999999999999996`); `None` when it is NaN or infinite.
    pub fn rounded(x: f64) -> Option<Real> {
        Real::new(format!("{x:.11e}").parse().unwrap_or(x))
    }

    /// The number.
    pub fn get(self) -> f64 {
        self.0
    }
}

impl PartialEq for Real {
    fn eq(&self, other: &Real) -> bool {
        self.0.to_bits() == other.0.to_bits()
    }
}

impl Eq for Real {}

impl PartialOrd for Real {
    fn partial_cmp(&self, other: &Real) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Real {
    fn cmp(&self, other: &Real) -> Ordering {
        self.0.total_cmp(&other.0)
    }
}

impl Hash for Real {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.0.to_bits().hash(state);
    }
}

impl std::fmt::Display for Real {
    /// The shortest round-trip text, always with a decimal point or an exponent (`4.0`).
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{:?}", self.0)
    }
}

/// The value as written in an experiment file (names in quotes).
fn written(v: &AxisValue) -> String {
    match v {
        AxisValue::Name(n) => format!("{n:?}"),
        other => other.to_string(),
    }
}

/// What kind of value `v` is, in words.
fn what(v: &AxisValue) -> &'static str {
    match v {
        AxisValue::Int(_) => "an integer",
        AxisValue::Bool(_) => "a boolean",
        AxisValue::Name(_) => "a string",
        AxisValue::Real(_) => "a real number",
    }
}

/// Checks `value` against `axis`'s kind: an integer in its `min..=max`, a boolean, or a name.
///
/// # Errors
/// `axis 'NAME': 4 is not in 1..=3`, or `axis 'NAME': "3" is a string, expected an integer in
/// 1..=3` (or `expected true or false`, `expected a name`).
pub fn check_value(axis: &Axis, value: &AxisValue) -> Result<(), SetupError> {
    let bad = |message: String| Err(axis_error(axis.name, message));
    match (&axis.kind, value) {
        (AxisKind::Int { min, max }, AxisValue::Int(v)) if v < min || v > max => {
            bad(format!("{v} is not in {min}..={max}"))
        }
        (AxisKind::Int { .. }, AxisValue::Int(_))
        | (AxisKind::Bool, AxisValue::Bool(_))
        | (AxisKind::Name, AxisValue::Name(_)) => Ok(()),
        (AxisKind::Int { min, max }, v) => bad(format!(
            "{} is {}, expected an integer in {min}..={max}",
            written(v),
            what(v)
        )),
        (AxisKind::Bool, v) => bad(format!(
            "{} is {}, expected true or false",
            written(v),
            what(v)
        )),
        (AxisKind::Name, v) => bad(format!("{} is {}, expected a name", written(v), what(v))),
    }
}

/// The standard error about axis `axis`: `axis 'NAME': MESSAGE`.
pub fn axis_error(axis: &str, message: impl Display) -> SetupError {
    SetupError(format!("axis '{axis}': {message}"))
}

/// Finds `name` with `find`, or refuses it listing the valid names.
///
/// # Errors
/// `axis 'AXIS': unknown name 'NAME' (valid: A, B, ...)`, listing `valid` in its order.
pub fn pick_name<T, S: AsRef<str>>(
    axis: &str,
    name: &str,
    find: impl FnOnce(&str) -> Option<T>,
    valid: &[S],
) -> Result<T, SetupError> {
    find(name).ok_or_else(|| {
        let valid: Vec<&str> = valid.iter().map(AsRef::as_ref).collect();
        axis_error(
            axis,
            format!("unknown name '{name}' (valid: {})", valid.join(", ")),
        )
    })
}

/// One cell's setup values, read against a game's declared axes.
///
/// # Examples
/// ```
/// use sololab::{Axis, AxisKind, AxisValue, SetupValues};
/// use sololab::setup::AxisReader;
/// static AXES: [Axis; 2] = [
///     Axis { name: "ruins", kind: AxisKind::Int { min: 1, max: 3 }, default: "3", doc: "" },
///     Axis { name: "boss", kind: AxisKind::Name, default: "random", doc: "" },
/// ];
/// let mut values = SetupValues::new();
/// values.insert("ruins".into(), AxisValue::Int(4));
/// let r = AxisReader::new("demo", &AXES, &values).unwrap();
/// assert_eq!(r.int("ruins").unwrap_err().0, "axis 'ruins': 4 is not in 1..=3");
/// assert_eq!(r.name("boss").unwrap(), "random");
/// ```
#[derive(Clone, Copy, Debug)]
pub struct AxisReader<'a> {
    axes: &'static [Axis],
    values: &'a SetupValues,
}

impl<'a> AxisReader<'a> {
    /// Reads `values` for game `game` (its name, for messages) with axes `axes`.
    ///
    /// # Errors
    /// `unknown axis 'KEY' for game 'GAME' (valid: ...)` when `values` names an axis the game
    /// does not declare. Content value paths (keys with a dot or a bracket,
    /// [`crate::content::values`]) are not axes: the game's content loading reads them.
    pub fn new(
        game: &str,
        axes: &'static [Axis],
        values: &'a SetupValues,
    ) -> Result<AxisReader<'a>, SetupError> {
        if let Some(k) = values
            .keys()
            .find(|k| !axes.iter().any(|a| a.name == *k) && !crate::content::is_value_path(k))
        {
            let names: Vec<&str> = axes.iter().map(|a| a.name).collect();
            return Err(SetupError(format!(
                "unknown axis '{k}' for game '{game}' (valid: {})",
                names.join(", ")
            )));
        }
        Ok(AxisReader { axes, values })
    }

    /// The declaration of `axis`.
    ///
    /// # Panics
    /// When the game does not declare `axis` (a bug in the game, not bad input).
    pub fn axis(&self, axis: &str) -> &'static Axis {
        self.axes
            .iter()
            .find(|a| a.name == axis)
            .unwrap_or_else(|| panic!("axis '{axis}' is not declared"))
    }

    /// The value given for `axis`, checked against its kind; `None` when absent.
    ///
    /// # Errors
    /// The messages of [`check_value`].
    ///
    /// # Panics
    /// When the game does not declare `axis`.
    pub fn value(&self, axis: &str) -> Result<Option<&'a AxisValue>, SetupError> {
        let decl = self.axis(axis);
        match self.values.get(axis) {
            None => Ok(None),
            Some(v) => check_value(decl, v).map(|()| Some(v)),
        }
    }

    /// Whether `axis` was given (not left to its default).
    pub fn is_set(&self, axis: &str) -> bool {
        self.values.contains_key(axis)
    }

    /// An integer axis, within its declared `min..=max`; `None` when absent.
    ///
    /// # Errors
    /// The messages of [`check_value`].
    ///
    /// # Panics
    /// When the game does not declare `axis`, or declares it of another kind.
    pub fn int(&self, axis: &str) -> Result<Option<i64>, SetupError> {
        let AxisKind::Int { min, max } = self.axis(axis).kind else {
            panic!("axis '{axis}' is not declared as an integer");
        };
        self.int_within(axis, min, max)
    }

    /// An integer axis within `min..=max`, for bounds the content sets inside the declared ones
    /// (a campaign with 4 games); `None` when absent.
    ///
    /// # Errors
    /// `axis 'NAME': V is not in MIN..=MAX`, or a wrong kind (see [`check_value`]).
    ///
    /// # Panics
    /// When the game does not declare `axis`.
    pub fn int_within(&self, axis: &str, min: i64, max: i64) -> Result<Option<i64>, SetupError> {
        match self.value(axis)? {
            None => Ok(None),
            Some(AxisValue::Int(n)) if (min..=max).contains(n) => Ok(Some(*n)),
            Some(AxisValue::Int(n)) => {
                Err(axis_error(axis, format!("{n} is not in {min}..={max}")))
            }
            Some(v) => Err(axis_error(
                axis,
                format!(
                    "{} is {}, expected an integer in {min}..={max}",
                    written(v),
                    what(v)
                ),
            )),
        }
    }

    /// A boolean axis; `None` when absent.
    ///
    /// # Errors
    /// A wrong kind (see [`check_value`]).
    ///
    /// # Panics
    /// When the game does not declare `axis`, or declares it of another kind.
    pub fn bool(&self, axis: &str) -> Result<Option<bool>, SetupError> {
        assert!(
            matches!(self.axis(axis).kind, AxisKind::Bool),
            "axis '{axis}' is not declared as a boolean"
        );
        match self.value(axis)? {
            Some(AxisValue::Bool(b)) => Ok(Some(*b)),
            _ => Ok(None),
        }
    }

    /// The game's content as the `content` axis names it (`builtin`, the default, or a file
    /// path, with content value paths applied: [`crate::content::resolve_content`]).
    ///
    /// # Errors
    /// A wrong kind for `content`, an unreadable or invalid file (`compile`'s error).
    ///
    /// # Panics
    /// When the game does not declare a `content` name axis.
    pub fn content<C: Send + Sync + 'static>(
        &self,
        builtin: fn() -> &'static C,
        builtin_text: &str,
        compile: fn(&str, &str) -> Result<C, SetupError>,
    ) -> Result<&'static C, SetupError> {
        self.name("content")?;
        crate::content::resolve_content(self.values, builtin, builtin_text, compile)
    }

    /// A name axis, or its declared default when absent.
    ///
    /// # Errors
    /// A wrong kind (see [`check_value`]).
    ///
    /// # Panics
    /// When the game does not declare `axis`, or declares it of another kind.
    pub fn name(&self, axis: &str) -> Result<&'a str, SetupError> {
        let decl = self.axis(axis);
        assert!(
            matches!(decl.kind, AxisKind::Name),
            "axis '{axis}' is not declared as a name"
        );
        match self.value(axis)? {
            Some(AxisValue::Name(s)) => Ok(s.as_str()),
            _ => Ok(decl.default),
        }
    }

    /// A name axis, or `default` when absent: for a default that depends on the content (a
    /// content file's first encounter), where the declared default is the builtin content's.
    ///
    /// # Errors
    /// A wrong kind (see [`check_value`]).
    ///
    /// # Panics
    /// When the game does not declare `axis`, or declares it of another kind.
    pub fn name_or<'b>(&self, axis: &str, default: &'b str) -> Result<&'b str, SetupError>
    where
        'a: 'b,
    {
        match self.name(axis)? {
            _ if !self.is_set(axis) => Ok(default),
            s => Ok(s),
        }
    }

    /// A name axis looked up with `find` (see [`pick_name`]); absent, its declared default is
    /// looked up.
    ///
    /// # Errors
    /// A wrong kind, or `axis 'AXIS': unknown name 'NAME' (valid: ...)` listing `valid`.
    ///
    /// # Panics
    /// When the game does not declare `axis`, or declares it of another kind.
    pub fn pick<T, S: AsRef<str>>(
        &self,
        axis: &str,
        find: impl FnOnce(&str) -> Option<T>,
        valid: &[S],
    ) -> Result<T, SetupError> {
        let name = self.name(axis)?;
        pick_name(axis, name, find, valid)
    }

    /// The standard error about `axis` (`axis 'NAME': MESSAGE`), for what only the game can
    /// tell (two axes that conflict, a name list of the wrong length).
    pub fn error(&self, axis: &str, message: impl Display) -> SetupError {
        axis_error(axis, message)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    static AXES: [Axis; 3] = [
        Axis {
            name: "ruins",
            kind: AxisKind::Int { min: 1, max: 3 },
            default: "3",
            doc: "",
        },
        Axis {
            name: "extra_turn",
            kind: AxisKind::Bool,
            default: "false",
            doc: "",
        },
        Axis {
            name: "boss",
            kind: AxisKind::Name,
            default: "random",
            doc: "",
        },
    ];

    fn values(pairs: &[(&str, AxisValue)]) -> SetupValues {
        pairs
            .iter()
            .map(|(k, v)| (k.to_string(), v.clone()))
            .collect()
    }

    #[test]
    fn absent_axes_take_none_or_the_default_name() {
        let v = values(&[]);
        let r = AxisReader::new("demo", &AXES, &v).unwrap();
        assert_eq!(r.int("ruins"), Ok(None));
        assert_eq!(r.bool("extra_turn"), Ok(None));
        assert_eq!(r.name("boss"), Ok("random"));
        assert!(!r.is_set("boss"));
    }

    #[test]
    fn values_are_checked_with_the_standard_messages() {
        let v = values(&[
            ("ruins", AxisValue::Int(4)),
            ("extra_turn", AxisValue::Name("yes".into())),
            ("boss", AxisValue::Int(2)),
        ]);
        let r = AxisReader::new("demo", &AXES, &v).unwrap();
        assert_eq!(
            r.int("ruins").unwrap_err().0,
            "axis 'ruins': 4 is not in 1..=3"
        );
        assert_eq!(
            r.bool("extra_turn").unwrap_err().0,
            "axis 'extra_turn': \"yes\" is a string, expected true or false"
        );
        assert_eq!(
            r.name("boss").unwrap_err().0,
            "axis 'boss': 2 is an integer, expected a name"
        );
        let v = values(&[
            ("ruins", AxisValue::Bool(true)),
            ("boss", AxisValue::Name("Rex".into())),
        ]);
        let r = AxisReader::new("demo", &AXES, &v).unwrap();
        assert_eq!(
            r.int("ruins").unwrap_err().0,
            "axis 'ruins': true is a boolean, expected an integer in 1..=3"
        );
        let v = values(&[("ruins", AxisValue::Int(3))]);
        let r = AxisReader::new("demo", &AXES, &v).unwrap();
        assert_eq!(r.int("ruins"), Ok(Some(3)));
        assert_eq!(
            r.int_within("ruins", 1, 2).unwrap_err().0,
            "axis 'ruins': 3 is not in 1..=2"
        );
    }

    #[test]
    fn unknown_axes_and_names_list_the_valid_ones() {
        let v = values(&[("speed", AxisValue::Int(1))]);
        assert_eq!(
            AxisReader::new("demo", &AXES, &v).unwrap_err().0,
            "unknown axis 'speed' for game 'demo' (valid: ruins, extra_turn, boss)"
        );
        let v = values(&[("boss", AxisValue::Name("Kraken".into()))]);
        let r = AxisReader::new("demo", &AXES, &v).unwrap();
        let bosses = ["random", "Rex", "Hydra"];
        let find = |n: &str| bosses.iter().position(|b| b.eq_ignore_ascii_case(n));
        assert_eq!(
            r.pick("boss", find, &bosses).unwrap_err().0,
            "axis 'boss': unknown name 'Kraken' (valid: random, Rex, Hydra)"
        );
        let v = values(&[("boss", AxisValue::Name("hydra".into()))]);
        let r = AxisReader::new("demo", &AXES, &v).unwrap();
        assert_eq!(r.pick("boss", find, &bosses), Ok(2));
    }

    #[test]
    #[should_panic(expected = "axis 'ruins' is not declared as a boolean")]
    fn reading_an_axis_as_another_kind_is_a_bug() {
        let v = values(&[]);
        let _ = AxisReader::new("demo", &AXES, &v).unwrap().bool("ruins");
    }

    #[test]
    fn name_or_gives_the_value_or_the_callers_default_and_checks_the_kind() {
        let content_first = String::from("the content's first");
        let none = values(&[]);
        let r = AxisReader::new("demo", &AXES, &none).unwrap();
        assert_eq!(
            r.name_or("boss", &content_first).unwrap(),
            "the content's first"
        );
        let set = values(&[("boss", AxisValue::Name("Devourer".into()))]);
        let r = AxisReader::new("demo", &AXES, &set).unwrap();
        assert_eq!(r.name_or("boss", &content_first).unwrap(), "Devourer");
        let wrong = values(&[("boss", AxisValue::Int(2))]);
        let r = AxisReader::new("demo", &AXES, &wrong).unwrap();
        assert_eq!(
            r.name_or("boss", &content_first).unwrap_err().0,
            "axis 'boss': 2 is an integer, expected a name"
        );
    }
}
