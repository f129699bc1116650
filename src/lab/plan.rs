//! The resolved plan of a run: an [`Experiment`] checked against one game's axes and setups and
//! against the strategies, expanded into cells. Everything that can be wrong with the input is
//! found here, before any game is played (ripgrep's low-args/high-args split, STYLE.md).

use std::fmt;
use std::path::Path;
use std::sync::Arc;

use super::experiment::{ErrorKind, Experiment, ExperimentError, value as toml_value};
use super::values::first_alias;
use crate::content::is_value_path;
use crate::game::{AxisKind, AxisValue, Game, SetupValues};
use crate::policy::{Policy, Strategy, StrategyErrorKind};

/// Builds a fresh policy for one strategy; called once per rayon task (and per strategy) by the
/// runner, so it must be cheap next to playing a few games, and must not fail (strategies are
/// built once while planning to surface their errors).
pub type PolicyFactory<G> = Arc<dyn Fn() -> Box<dyn Policy<G>> + Send + Sync>;

/// What [`Plan::new`] needs of a strategy: how to build its policy and, when it comes from a
/// strategy file, its parsed definition (recorded in `run.toml`). A bare [`PolicyFactory`]
/// converts into one without a definition.
#[derive(Clone)]
pub struct StrategySource<G: Game> {
    /// Builds the policy.
    pub factory: PolicyFactory<G>,
    /// The strategy file's definition (origin, kind, parameters, weights), if any.
    pub definition: Option<Strategy>,
}

impl<G: Game> From<PolicyFactory<G>> for StrategySource<G> {
    fn from(factory: PolicyFactory<G>) -> StrategySource<G> {
        StrategySource {
            factory,
            definition: None,
        }
    }
}

/// The strategy `name` for game `G` ([`Strategy::named`]: the file `dir/<name>.toml` if it
/// exists, else the shipped strategy), built once here so that its errors surface before any
/// game is played, with its definition for `run.toml`.
///
/// # Errors
/// [`ErrorKind::Invalid`] for a name that is not a plain name, [`ErrorKind::UnknownStrategy`]
/// listing the available names, or [`ErrorKind::Strategy`] with the loader's message when the
/// file is bad or does not build for `G`.
pub fn strategy_source<G: Game>(name: &str, dir: &Path) -> Result<StrategySource<G>, ErrorKind> {
    let strategy = Strategy::named(name, dir).map_err(|e| match e.kind {
        StrategyErrorKind::NotFound { name, available } => ErrorKind::UnknownStrategy {
            name,
            valid: available,
        },
        // Not a plain name: the message names it and says why.
        StrategyErrorKind::BadName { message } => ErrorKind::Invalid(message),
        _ => ErrorKind::Strategy {
            name: name.to_string(),
            message: e.to_string(),
        },
    })?;
    strategy.build::<G>().map_err(|e| ErrorKind::Strategy {
        name: name.to_string(),
        message: e.to_string(),
    })?;
    let built = strategy.clone();
    Ok(StrategySource {
        factory: Arc::new(move || {
            built
                .build::<G>()
                .expect("the strategy was built once before")
        }),
        definition: Some(strategy),
    })
}

/// One cell: a strategy and one value of each sweep axis, with the game's resolved setup.
#[derive(Clone, Debug)]
pub struct Cell<G: Game> {
    /// Index into [`Plan::strategies`].
    pub strategy: usize,
    /// One value per sweep axis, in the order of [`Plan::axes`].
    pub values: Vec<AxisValue>,
    /// The setup every game of this cell starts from.
    pub setup: G::Setup,
}

/// A strategy of the plan: its name, how to build its policy, and its definition when it came
/// from a strategy file.
#[derive(Clone)]
pub struct PlanStrategy<G: Game> {
    /// The name the experiment uses.
    pub name: String,
    /// Builds the policy.
    pub factory: PolicyFactory<G>,
    /// The parsed strategy file (recorded in `run.toml`), `None` for a factory given in code.
    pub definition: Option<Strategy>,
}

impl<G: Game> fmt::Debug for PlanStrategy<G> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("PlanStrategy")
            .field("name", &self.name)
            .field("definition", &self.definition)
            .finish_non_exhaustive()
    }
}

/// An experiment resolved for game `G`: every cell's setup resolved and every strategy built.
///
/// Cells are ordered strategy first (in the experiment's order), then by sweep values with the
/// first axis varying slowest; cell `c`'s games are `0..experiment.games`.
#[derive(Clone, Debug)]
pub struct Plan<G: Game> {
    /// The experiment as it will be run (overrides such as `--games` already applied).
    pub experiment: Experiment,
    /// The sweep axes' names, in file order (the report's axis columns).
    pub axes: Vec<String>,
    /// The strategies, in the experiment's order.
    pub strategies: Vec<PlanStrategy<G>>,
    /// The cells, in report order.
    pub cells: Vec<Cell<G>>,
}

impl<G: Game> Plan<G> {
    /// Checks `experiment` against game `G` and resolves it into cells. `strategy` turns a
    /// strategy name into a policy factory or a [`StrategySource`] (such as
    /// [`strategy_source`]), or says what is wrong with the name; it is called once per
    /// strategy.
    ///
    /// Checks, in order: the experiment is for `G`; the size of the run
    /// ([`Experiment::check_size`]); every `[setup]` and `[sweep]` key is one of
    /// [`Game::axes`] or a content value path (for a game with [`Game::content_toml`]); every
    /// value has the axis's type and range (and, for name axes, is one of
    /// [`Game::axis_names`] when the game lists them); no two keys name one content value
    /// ([`check_value_keys`]); [`Game::resolve_setup`] accepts every cell; no two values of a
    /// sweep axis are the same setting (they resolve to equal setups in every cell); every
    /// strategy resolves; the `[compare]` baseline names one cell, each of its values the
    /// same setting as one of the sweep's, and is then written as the sweep writes it.
    ///
    /// # Errors
    /// The first problem found, as an [`ExperimentError`] at the offending value.
    pub fn new<S: Into<StrategySource<G>>>(
        experiment: Experiment,
        mut strategy: impl FnMut(&str) -> Result<S, ErrorKind>,
    ) -> Result<Plan<G>, ExperimentError> {
        let e = &experiment;
        if e.game != G::NAME {
            return Err(e.game_error(ErrorKind::WrongGame {
                expected: G::NAME.to_string(),
                found: e.game.clone(),
            }));
        }
        e.check_size()?;
        let unknown_axis = |axis: &str| ErrorKind::UnknownAxis {
            axis: axis.to_string(),
            game: G::NAME.to_string(),
            valid: G::axes().iter().map(|a| a.name.to_string()).collect(),
        };
        // A content value path (`monster.Demon.normal.hp`) is checked when the cells resolve,
        // against the game's content (crate::content::values).
        let is_value = |axis: &str| G::content_toml().is_some() && is_value_path(axis);
        for (i, (axis, value)) in e.setup.iter().enumerate() {
            if is_value(axis) {
                continue;
            }
            let Some(kind) = axis_kind::<G>(axis) else {
                return Err(e.setup_key_error(i, unknown_axis(axis)));
            };
            check_kind(axis, &kind, value).map_err(|k| e.setup_value_error(i, k))?;
        }
        for (a, (axis, values)) in e.sweep.iter().enumerate() {
            if is_value(axis) {
                continue;
            }
            let Some(kind) = axis_kind::<G>(axis) else {
                return Err(e.sweep_key_error(a, unknown_axis(axis)));
            };
            for (v, value) in values.iter().enumerate() {
                check_kind(axis, &kind, value).map_err(|k| e.sweep_value_error(a, v, k))?;
            }
        }
        check_value_keys::<G>(e)?;

        // Cells: odometer over the sweep axes, last axis fastest.
        let fixed: SetupValues = e.setup.iter().cloned().collect();
        let sizes: Vec<usize> = e.sweep.iter().map(|(_, v)| v.len()).collect();
        let grid = Grid::new(&sizes);
        let combos: usize = sizes.iter().product();
        let mut setups = Vec::with_capacity(combos);
        let mut digits = vec![0usize; sizes.len()];
        for _ in 0..combos {
            let mut values = fixed.clone();
            let mut cell_values = Vec::with_capacity(sizes.len());
            for (a, (axis, vs)) in e.sweep.iter().enumerate() {
                values.insert(axis.clone(), vs[digits[a]].clone());
                cell_values.push(e.as_written(&vs[digits[a]]));
            }
            let setup = resolve_cell::<G>(e, &values, &digits)?;
            setups.push((cell_values, setup));
            for a in (0..digits.len()).rev() {
                digits[a] += 1;
                if digits[a] < sizes[a] {
                    break;
                }
                digits[a] = 0;
            }
        }

        // One setting spelt twice (`"Bastian,Elisa"` and `"Bastian, Elisa"`, `24` and `24.0`
        // for a real value, two paths to one file) would make a second, identical cell under
        // another label: refused at the later value.
        let cell_setups: Vec<G::Setup> = setups.iter().map(|(_, s)| s.clone()).collect();
        for (a, (axis, values)) in e.sweep.iter().enumerate() {
            for w in 1..values.len() {
                let same = (0..w).find(|&v| {
                    let back = (w - v) * grid.strides[a];
                    same_setting::<G>(&grid, &cell_setups, a, w, |j| {
                        Some(cell_setups[j - back].clone())
                    })
                });
                if let Some(v) = same {
                    return Err(e.sweep_value_error(
                        a,
                        w,
                        ErrorKind::Duplicate(format!(
                            "axis '{axis}': value {} is the same setting as {} listed before \
                             (the game resolves both to one setup)",
                            e.sweep_value_text(a, w),
                            e.sweep_value_text(a, v)
                        )),
                    ));
                }
            }
        }

        let mut strategies = Vec::with_capacity(e.strategies.len());
        for (i, name) in e.strategies.iter().enumerate() {
            let source: StrategySource<G> =
                strategy(name).map_err(|k| e.strategy_error(i, k))?.into();
            strategies.push(PlanStrategy {
                name: name.clone(),
                factory: source.factory,
                definition: source.definition,
            });
        }
        let mut cells = Vec::with_capacity(strategies.len() * setups.len());
        for s in 0..strategies.len() {
            for (values, setup) in &setups {
                cells.push(Cell {
                    strategy: s,
                    values: values.clone(),
                    setup: setup.clone(),
                });
            }
        }
        let axes = e.sweep.iter().map(|(a, _)| a.clone()).collect();
        let mut experiment = experiment;
        match_baseline::<G>(&mut experiment, &grid, &fixed, &cell_setups)?;
        Ok(Plan {
            experiment,
            axes,
            strategies,
            cells,
        })
    }

    /// Games in the whole run: cells times games per cell (at most
    /// [`MAX_TOTAL_GAMES`](super::MAX_TOTAL_GAMES), checked by [`Plan::new`]).
    ///
    /// # Panics
    /// When the product overflows, which a plan made by [`Plan::new`] cannot (its experiment
    /// is public, though; change it only through [`Experiment::set_games`]).
    pub fn total_games(&self) -> u64 {
        (self.cells.len() as u64)
            .checked_mul(self.experiment.games)
            .expect("Plan::new checked the size of the run")
    }

    /// Positions per chunk of a run without `raw` (the unit saved for `--resume`): about
    /// [`CHUNK_GAMES`](super::CHUNK_GAMES) random moves' worth of decisions, that is
    /// `CHUNK_GAMES / (cells x cost)` with `cost` the dearest strategy's
    /// [`decision_cost`](crate::policy::StrategyKind::decision_cost) (1 for a strategy without
    /// a definition), but at least [`CHUNK_MIN_GAMES`](super::CHUNK_MIN_GAMES) games over all
    /// cells and at least 1 position. Depends only on the plan, so a resumed run cuts its
    /// chunks where the interrupted one did; the report's numbers do not depend on it.
    pub fn chunk_positions(&self) -> u64 {
        let cells = (self.cells.len() as u64).max(1);
        let cost = self
            .strategies
            .iter()
            .map(|s| s.definition.as_ref().map_or(1, |d| d.kind.decision_cost()))
            .max()
            .unwrap_or(1);
        let by_cost = super::CHUNK_GAMES / cells.saturating_mul(cost);
        by_cost.max(super::CHUNK_MIN_GAMES.div_ceil(cells)).max(1)
    }
}

/// The sweep's combinations of values as an odometer (the last axis fastest): the index of a
/// combination is `Σ digit[a] × strides[a]`.
struct Grid {
    sizes: Vec<usize>,
    strides: Vec<usize>,
}

impl Grid {
    fn new(sizes: &[usize]) -> Grid {
        let mut strides = vec![1; sizes.len()];
        for a in (0..sizes.len().saturating_sub(1)).rev() {
            strides[a] = strides[a + 1] * sizes[a + 1];
        }
        Grid {
            sizes: sizes.to_vec(),
            strides,
        }
    }

    /// Value `a`'s digit of combination `j`.
    fn digit(&self, j: usize, a: usize) -> usize {
        (j / self.strides[a]) % self.sizes[a]
    }

    /// Every combination whose axis `a` has its value `w`, in order.
    fn with(&self, a: usize, w: usize) -> impl Iterator<Item = usize> + '_ {
        let total: usize = self.sizes.iter().product();
        let (stride, size) = (self.strides[a], self.sizes[a]);
        (0..total / size).map(move |k| (k / stride) * stride * size + w * stride + k % stride)
    }
}

/// Whether some value of sweep axis `a` is the same setting as its value `w`: in every
/// combination `j` with `w`, the setup with that value instead (`other(j)`; `None` when the
/// game refuses it) equals the setup `setups[j]`, so every game starts alike. The one test of
/// "the same setting" ([`Game::Setup`]'s equality), for two values of the sweep and for the
/// baseline's.
fn same_setting<G: Game>(
    grid: &Grid,
    setups: &[G::Setup],
    a: usize,
    w: usize,
    other: impl Fn(usize) -> Option<G::Setup>,
) -> bool {
    grid.with(a, w)
        .all(|j| other(j).is_some_and(|s| s == setups[j]))
}

/// The content the keys of `e` are read in: each `content` the sweep names, else the one
/// `[setup]` names (or the game's own).
fn contents(e: &Experiment) -> Vec<SetupValues> {
    let one = |v: Option<&AxisValue>| -> SetupValues {
        v.map(|v| ("content".to_string(), v.clone()))
            .into_iter()
            .collect()
    };
    match e.sweep.iter().find(|(k, _)| k == "content") {
        Some((_, vs)) => vs.iter().map(|v| one(Some(v))).collect(),
        None => vec![one(e
            .setup
            .iter()
            .find(|(k, _)| k == "content")
            .map(|(_, v)| v))],
    }
}

/// Refuses two `[setup]` or `[sweep]` keys that name one content value in two spellings
/// (`monster[1].normal.hp` and `monster.Demon.normal.hp`, [`first_alias`]), which would
/// silently override each other in every cell: at the later key in the file, like a key given
/// twice. [`Plan::new`] checks it; the tuning commands, which read an experiment's `[setup]`
/// without a plan, too.
///
/// # Errors
/// [`ErrorKind::Duplicate`] at the later key.
pub fn check_value_keys<G: Game>(e: &Experiment) -> Result<(), ExperimentError> {
    let keys = e.keys_in_order();
    let names: Vec<&str> = keys.iter().map(|(k, _)| *k).collect();
    match first_alias::<G>(&contents(e), &names) {
        Some((i, j)) => Err(e.key_error(
            keys[j].1,
            ErrorKind::Duplicate(format!(
                "axis '{}' is given twice: '{}' ({}) names the same content value",
                names[j],
                names[i],
                e.key_where(keys[i].1)
            )),
        )),
        None => Ok(()),
    }
}

/// Matches the `[compare]` baseline to its cell ([`Experiment::match_baseline`]): a key is the
/// sweep axis it names (its name, or another spelling of a swept content value path), a value
/// the sweep's value that is the same setting ([`same_setting`]: every cell with the sweep's
/// value resolves alike with the baseline's), so `scoundrel.max_range = 20.0` is the sweep's
/// `20` and a scenario spelt with `_` for its spaces is the sweep's scenario.
fn match_baseline<G: Game>(
    experiment: &mut Experiment,
    grid: &Grid,
    fixed: &SetupValues,
    setups: &[G::Setup],
) -> Result<(), ExperimentError> {
    if experiment.baseline.is_none() {
        return Ok(());
    }
    let sweep = experiment.sweep.clone();
    let contents = contents(experiment);
    let axis_of = |key: &str| {
        sweep.iter().position(|(k, _)| k == key).or_else(|| {
            sweep
                .iter()
                .position(|(k, _)| first_alias::<G>(&contents, &[k.as_str(), key]).is_some())
        })
    };
    let value_of = |a: usize, given: &AxisValue| {
        let values_at = |j: usize| {
            let mut values = fixed.clone();
            for (b, (axis, vs)) in sweep.iter().enumerate() {
                let v = if b == a { given } else { &vs[grid.digit(j, b)] };
                values.insert(axis.clone(), v.clone());
            }
            values
        };
        (0..sweep[a].1.len()).find(|&w| {
            same_setting::<G>(grid, setups, a, w, |j| G::resolve_setup(&values_at(j)).ok())
        })
    };
    experiment.match_baseline(axis_of, value_of)
}

pub(crate) fn axis_kind<G: Game>(axis: &str) -> Option<AxisKind> {
    G::axes()
        .iter()
        .find(|a| a.name == axis)
        .map(|a| a.kind.clone())
}

pub(crate) fn check_kind(axis: &str, kind: &AxisKind, value: &AxisValue) -> Result<(), ErrorKind> {
    let bad = |message: String| {
        Err(ErrorKind::AxisValue {
            axis: axis.to_string(),
            message,
        })
    };
    // The value as written in TOML (a name in quotes) and what it is.
    let is = |v: &AxisValue| {
        let what = match v {
            AxisValue::Int(_) => "an integer",
            AxisValue::Bool(_) => "a boolean",
            AxisValue::Name(_) => "a string",
            AxisValue::Real(_) => "a real number",
        };
        format!("{} is {what}", toml_value(v))
    };
    match (kind, value) {
        (AxisKind::Int { min, max }, AxisValue::Int(v)) if v < min || v > max => {
            bad(format!("{v} is not in {min}..={max}"))
        }
        (AxisKind::Int { .. }, AxisValue::Int(_)) => Ok(()),
        (AxisKind::Int { min, max }, v) => {
            bad(format!("{}, expected an integer in {min}..={max}", is(v)))
        }
        (AxisKind::Bool, AxisValue::Bool(_)) => Ok(()),
        (AxisKind::Bool, v) => bad(format!("{}, expected true or false", is(v))),
        (AxisKind::Name, AxisValue::Name(_)) => Ok(()),
        (AxisKind::Name, v) => bad(format!("{}, expected a name (write it in quotes)", is(v))),
    }
}

/// Resolves one cell's values; on failure, locates the error at the value responsible when it
/// can tell (see [`explain`]), else at the cell.
fn resolve_cell<G: Game>(
    e: &Experiment,
    values: &SetupValues,
    digits: &[usize],
) -> Result<G::Setup, ExperimentError> {
    let message = match G::resolve_setup(values) {
        Ok(setup) => return Ok(setup),
        Err(err) => err.0,
    };
    let (culprit, message) = explain::<G>(values, message);
    let cell: Vec<String> = e
        .sweep
        .iter()
        .zip(digits)
        .map(|((axis, vs), &d)| format!("{axis}={}", vs[d]))
        .collect();
    let kind = ErrorKind::Setup {
        cell: cell.join(" "),
        message,
    };
    if let Some(axis) = culprit {
        if let Some(a) = e.sweep.iter().position(|(k, _)| *k == axis) {
            return Err(e.sweep_value_error(a, digits[a], kind));
        }
        if let Some(i) = e.setup.iter().position(|(k, _)| *k == axis) {
            return Err(e.setup_value_error(i, kind));
        }
    }
    Err(if e.sweep.is_empty() {
        e.error(None, kind)
    } else {
        e.sweep_key_error(0, kind)
    })
}

/// Finds the axis responsible for a [`Game::resolve_setup`] failure with `message`: the first
/// axis of `values` the message names in quotes (`'ruins'`), else the first name axis without
/// which the setup resolves. When that is a name axis and the message lists no valid values,
/// appends [`Game::axis_names`]. Returns the axis (if found) and the message.
pub(crate) fn explain<G: Game>(values: &SetupValues, message: String) -> (Option<String>, String) {
    let without = |axis: &str| {
        let mut v = values.clone();
        v.remove(axis);
        G::resolve_setup(&v).ok()
    };
    let culprit = values
        .keys()
        .find(|k| message.contains(&format!("'{k}'")))
        .cloned()
        .or_else(|| {
            values
                .iter()
                .filter(|(k, v)| {
                    matches!(v, AxisValue::Name(_))
                        && matches!(axis_kind::<G>(k), Some(AxisKind::Name))
                })
                .find(|(k, _)| without(k).is_some())
                .map(|(k, _)| k.clone())
        });
    let mut message = message;
    if let Some(axis) = &culprit
        && matches!(axis_kind::<G>(axis), Some(AxisKind::Name))
        && !message.contains("valid")
        && let Some(setup) = without(axis)
    {
        let names = G::axis_names(&setup, axis);
        if !names.is_empty() {
            message = format!("{message} (valid: {})", names.join(", "));
        }
    }
    (culprit, message)
}
