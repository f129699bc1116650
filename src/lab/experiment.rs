//! Experiment files (`experiments/*.toml`): read once, checked for syntax and unknown keys, and
//! kept with the position of every value so that later checks (against a game's axes and the
//! strategies) can say exactly where a bad value is.
//!
//! This is the game-agnostic half of validation; [`Plan`](super::Plan) does the half that needs
//! the game type.

use std::collections::BTreeMap;
use std::fmt;
use std::ops::Range;
use std::path::{Path, PathBuf};

use serde::Deserialize;
use toml::Spanned;

use crate::game::AxisValue;
use crate::games::GameKind;

/// The most games per cell an experiment (or `--games`) may ask for.
pub const MAX_GAMES_PER_CELL: u64 = 1_000_000_000_000;

/// The most games one run may play (cells times games per cell).
pub const MAX_TOTAL_GAMES: u64 = 10_000_000_000_000;

/// The most cells one run may have (every cell keeps its totals in each worker's memory).
pub const MAX_CELLS: u64 = 10_000;

/// The largest experiment seed: seeds are `0..=i64::MAX`, the range a TOML integer holds, so
/// that every seed (from the file or `--seed`) is recorded in `run.toml` as a value the loader
/// reads back.
pub const MAX_SEED: u64 = i64::MAX as u64;

/// Where an error is: a file, and the 1-based line and column in it when known.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Location {
    /// The file as the user named it.
    pub path: String,
    /// 1-based `(line, column)` in the file, when the error is tied to a place in it.
    pub line_column: Option<(usize, usize)>,
}

impl fmt::Display for Location {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.line_column {
            Some((line, column)) => write!(f, "{}:{line}:{column}", self.path),
            None => f.write_str(&self.path),
        }
    }
}

/// What was wrong with an experiment.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ErrorKind {
    /// The file could not be read.
    Io(String),
    /// TOML syntax, an unknown or missing key, or a value of the wrong type (the TOML
    /// parser's message).
    Toml(String),
    /// The experiment directory has no experiment of this name.
    NoSuchExperiment {
        /// The name asked for.
        name: String,
        /// The experiments that exist.
        valid: Vec<String>,
    },
    /// `game = ...` names no game in the registry.
    UnknownGame {
        /// The name in the file.
        name: String,
        /// The games that exist.
        valid: Vec<String>,
    },
    /// The experiment is for another game than the one it is being planned for.
    WrongGame {
        /// The game the plan is for.
        expected: String,
        /// The game the file names.
        found: String,
    },
    /// A `[setup]` or `[sweep]` key that is not one of the game's axes.
    UnknownAxis {
        /// The key in the file.
        axis: String,
        /// The game.
        game: String,
        /// The game's axes.
        valid: Vec<String>,
    },
    /// A value an axis does not accept (wrong type, out of range, unknown name).
    AxisValue {
        /// The axis.
        axis: String,
        /// What is wrong, naming the valid values.
        message: String,
    },
    /// An axis given twice (in both `[setup]` and `[sweep]`) or a sweep value repeated.
    Duplicate(String),
    /// A strategy name that does not exist.
    UnknownStrategy {
        /// The name in the file.
        name: String,
        /// The strategies that exist.
        valid: Vec<String>,
    },
    /// A strategy that exists but could not be loaded or built.
    Strategy {
        /// The strategy.
        name: String,
        /// The strategy loader's message.
        message: String,
    },
    /// The game rejected the setup of one cell.
    Setup {
        /// The cell's sweep values (`ruins=3 extra_turn=true`), empty without a sweep.
        cell: String,
        /// The game's message.
        message: String,
    },
    /// Any other invalid value (`games = 0`, a name that is not a folder name, ...).
    Invalid(String),
}

impl fmt::Display for ErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ErrorKind::Io(m) => write!(f, "cannot read: {m}"),
            ErrorKind::Toml(m) => f.write_str(m),
            ErrorKind::NoSuchExperiment { name, valid } => {
                write!(f, "no experiment '{name}' (valid: {})", list(valid))
            }
            ErrorKind::UnknownGame { name, valid } => {
                write!(f, "unknown game '{name}' (valid: {})", list(valid))
            }
            ErrorKind::WrongGame { expected, found } => {
                write!(f, "experiment is for game '{found}', not '{expected}'")
            }
            ErrorKind::UnknownAxis { axis, game, valid } => {
                write!(
                    f,
                    "unknown axis '{axis}' for game '{game}' (valid: {})",
                    list(valid)
                )
            }
            ErrorKind::AxisValue { axis, message } => write!(f, "axis '{axis}': {message}"),
            ErrorKind::Duplicate(m) => f.write_str(m),
            ErrorKind::UnknownStrategy { name, valid } => {
                write!(f, "unknown strategy '{name}' (valid: {})", list(valid))
            }
            ErrorKind::Strategy { name, message } => write!(f, "strategy '{name}': {message}"),
            ErrorKind::Setup { cell, message } if cell.is_empty() => f.write_str(message),
            ErrorKind::Setup { cell, message } => write!(f, "cell {cell}: {message}"),
            ErrorKind::Invalid(m) => f.write_str(m),
        }
    }
}

fn list(names: &[String]) -> String {
    if names.is_empty() {
        "none".to_string()
    } else {
        names.join(", ")
    }
}

/// A bad experiment: what was wrong and where, displayed on one line as
/// `FILE:LINE:COLUMN: message` (or `FILE: message` when no place in the file applies).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ExperimentError {
    /// Where.
    pub at: Location,
    /// What.
    pub kind: ErrorKind,
}

impl fmt::Display for ExperimentError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // One line, always: messages from other parsers may carry newlines.
        let message = self.kind.to_string();
        let message = message.split_whitespace().collect::<Vec<_>>().join(" ");
        write!(f, "{}: {message}", self.at)
    }
}

impl std::error::Error for ExperimentError {}

/// The file as written (serde's view, positions kept).
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawExperiment {
    name: Spanned<String>,
    game: Spanned<String>,
    strategies: Spanned<Vec<Spanned<String>>>,
    games: Spanned<i64>,
    seed: Spanned<i64>,
    #[serde(default)]
    setup: BTreeMap<Spanned<String>, Spanned<toml::Value>>,
    #[serde(default)]
    sweep: BTreeMap<Spanned<String>, Spanned<Vec<Spanned<toml::Value>>>>,
    precision: Option<Spanned<f64>>,
    max_games: Option<Spanned<i64>>,
    compare: Option<RawCompare>,
    #[serde(default)]
    ladder: Option<RawLadder>,
}

/// `[compare]`: the baseline cell of the paired comparisons.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawCompare {
    baseline: Spanned<BTreeMap<Spanned<String>, Spanned<toml::Value>>>,
}

/// `[ladder]`: the skill ladder (issue 15).
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawLadder {
    strategies: Spanned<Vec<Spanned<String>>>,
}

/// Byte ranges of the values in the file, for error locations.
#[derive(Clone, Debug, Default)]
struct Spans {
    game: Option<Range<usize>>,
    games: Option<Range<usize>>,
    strategies: Vec<Range<usize>>,
    /// Per `[setup]` entry: (key, value).
    setup: Vec<(Range<usize>, Range<usize>)>,
    /// Per `[sweep]` axis: key and each value.
    sweep: Vec<(Range<usize>, Vec<Range<usize>>)>,
    precision: Option<Range<usize>>,
    max_games: Option<Range<usize>>,
    /// The `[compare] baseline` table, and per entry (file order): key and value.
    baseline: Option<Range<usize>>,
    baseline_entries: Vec<(Range<usize>, Range<usize>)>,
}

/// Where a `[setup]` or `[sweep]` key is: entry `i` of `[setup]`, or axis `a` of `[sweep]`.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum KeyPlace {
    /// `[setup]` entry `i`.
    Setup(usize),
    /// `[sweep]` axis `a`.
    Sweep(usize),
}

/// An experiment, read and checked for everything that does not need the game type: the
/// experiment's name (a folder name), the game name, the strategies (plain names, at least
/// one, no repeats), `games` in `1..=`[`MAX_GAMES_PER_CELL`], `seed` in `0..=`[`MAX_SEED`],
/// setup and sweep values that are integers, booleans or names, non-empty sweeps without
/// a value written twice, no axis in both tables, at most [`MAX_CELLS`] cells and at most
/// [`MAX_TOTAL_GAMES`] games in all. What needs the game (two spellings of one value or one
/// key, the baseline's values) is [`Plan::new`](super::Plan::new)'s.
///
/// A name value ending in `.toml` is a file (such as rift's `content = "my-cards.toml"`): when
/// the experiment is [loaded](Experiment::load) from a file, a relative one is resolved against
/// that file's folder, and the resolved path is the value the game sees. What the run records
/// (`run.toml`, a work area's or a partial's identity, the report's cell labels) keeps the name
/// as the file writes it ([`Experiment::as_written`]), so those bytes do not depend on the
/// folder sololab runs from or on how the experiment's path was typed.
///
/// `[setup]` and `[sweep]` keep the order of the file; the sweep's order is the order of the
/// report's axis columns, and its first axis varies slowest among cells.
#[derive(Clone, Debug)]
pub struct Experiment {
    /// The experiment's name; the report goes to `results/<name>/`.
    pub name: String,
    /// The game's registry name.
    pub game: String,
    /// The strategies to compare, by name (`strategies/<name>.toml`).
    pub strategies: Vec<String>,
    /// Games per cell (`1..=`[`MAX_GAMES_PER_CELL`]; set it with [`Experiment::set_games`]).
    pub games: u64,
    /// The experiment seed every game's seeds derive from (`0..=`[`MAX_SEED`]; set it with
    /// [`Experiment::set_seed`]).
    pub seed: u64,
    /// Fixed setup values, in file order.
    pub setup: Vec<(String, AxisValue)>,
    /// Sweep axes and their values, in file order.
    pub sweep: Vec<(String, Vec<AxisValue>)>,
    /// `precision = 0.01`: the largest Wilson 95% half-width allowed in any cell. With it,
    /// `games` is the batch size: every cell still above the target plays another batch
    /// (game indices `b*games..(b+1)*games`), until it meets the target or reaches
    /// [`Experiment::max_games`]. In `0.0001..=0.5`; given together with `max_games`.
    pub precision: Option<f64>,
    /// `max_games`: the most games a cell plays under a [`precision`](Experiment::precision)
    /// target (at least `games`; the last batch is cut there).
    pub max_games: Option<u64>,
    /// `[compare] baseline = { strategy = "greedy", ruins = 3 }`: the values naming the
    /// baseline cell of the paired comparisons, in file order (`strategy` or sweep axes; an
    /// axis with one value, or the only strategy, may be left out). As read, the keys are the
    /// strategy, sweep axes or content value paths and the strategy one of the experiment's;
    /// [`Plan::new`](super::Plan::new) checks that they name exactly one cell (a key or value
    /// may be another spelling the game reads alike) and writes them as the sweep does, so
    /// [`Experiment::baseline_cell`] finds its index.
    pub baseline: Option<Vec<(String, AxisValue)>>,
    /// `[ladder] strategies = [...]`: the skill ladder, weakest first, each one of
    /// [`strategies`](Experiment::strategies); empty without `[ladder]`. The report then has
    /// `ladder.csv` ([`ladder_csv`](super::ladder_csv)).
    pub ladder: Vec<String>,
    /// `(resolved, as written)` for each file name [`Experiment::resolve_files`] changed.
    written: Vec<(String, String)>,
    path: String,
    text: String,
    spans: Spans,
    /// `--games N` when the games per cell come from the command line, for error locations.
    games_flag: Option<String>,
}

impl Experiment {
    /// Reads and checks an experiment file, and resolves the relative file names among its
    /// values against the file's folder ([`Experiment::resolve_files`]).
    ///
    /// # Errors
    /// An [`ExperimentError`] naming the file (and line and column where it applies) when the
    /// file cannot be read or fails a check of [`Experiment::parse`].
    pub fn load(path: &Path) -> Result<Experiment, ExperimentError> {
        let shown = path.display().to_string();
        let text = crate::input::read_text(path).map_err(|e| ExperimentError {
            at: Location {
                path: shown.clone(),
                line_column: e.line_column(),
            },
            kind: match e {
                crate::input::ReadError::Io(e) => ErrorKind::Io(e.to_string()),
                not_utf8 => ErrorKind::Invalid(not_utf8.to_string()),
            },
        })?;
        let mut experiment = Experiment::parse(&text, &shown)?;
        experiment.resolve_files(path.parent().unwrap_or(Path::new("")));
        Ok(experiment)
    }

    /// Resolves every relative file name among the `[setup]`, `[sweep]` and `[compare]`
    /// values (a name ending in `.toml`, such as rift's `content = "cards.toml"`) against
    /// `base`, the folder of the experiment file, so that a file next to the experiment is
    /// found whatever the current directory. Absolute paths and other names are left as they
    /// are. The spelling of the file is kept for what the run records
    /// ([`Experiment::as_written`]).
    pub fn resolve_files(&mut self, base: &Path) {
        let written = &mut self.written;
        let mut resolve = |v: &mut AxisValue| {
            if let AxisValue::Name(name) = v
                && name.to_ascii_lowercase().ends_with(".toml")
                && Path::new(name.as_str()).is_relative()
            {
                let resolved = base.join(name.as_str()).to_string_lossy().into_owned();
                if resolved != *name && !written.iter().any(|(r, _)| *r == resolved) {
                    written.push((resolved.clone(), name.clone()));
                }
                *name = resolved;
            }
        };
        for (_, v) in &mut self.setup {
            resolve(v);
        }
        for (_, vs) in &mut self.sweep {
            vs.iter_mut().for_each(&mut resolve);
        }
        // The baseline's `strategy` names a strategy, never a file.
        for (_, v) in self
            .baseline
            .iter_mut()
            .flatten()
            .filter(|(k, _)| k != "strategy")
        {
            resolve(v);
        }
    }

    /// `v` as the experiment file writes it: a file name [`Experiment::resolve_files`]
    /// resolved is given back in its spelling in the file (`"../cards.toml"`, not
    /// `"experiments/../cards.toml"`); any other value is `v` itself. What a run records
    /// (`run.toml`, identities, cell labels) uses this spelling, so its bytes do not depend on
    /// the current folder.
    pub fn as_written(&self, v: &AxisValue) -> AxisValue {
        match v {
            AxisValue::Name(name) => AxisValue::Name(self.written_name(name).to_string()),
            other => other.clone(),
        }
    }

    /// The spelling in the file of the file name `resolved` (itself when it was not resolved).
    pub fn written_name<'a>(&'a self, resolved: &'a str) -> &'a str {
        self.written
            .iter()
            .find(|(r, _)| r == resolved)
            .map_or(resolved, |(_, w)| w.as_str())
    }

    /// Checks the text of an experiment file; `path` is only used in error messages.
    ///
    /// # Errors
    /// An [`ExperimentError`] with the line and column of the first bad value: TOML syntax, an
    /// unknown or missing key, a wrong type, or a failed check (see [`Experiment`]).
    ///
    /// # Examples
    /// ```
    /// let e = sololab::lab::Experiment::parse(
    ///     "name = 'x'\ngame = 'rift'\nstrategies = ['random']\ngames = 10\nseed = 1\n\
    ///      [sweep]\nruins = [3, 2]\n",
    ///     "x.toml",
    /// )
    /// .unwrap();
    /// assert_eq!(e.sweep[0].1.len(), 2);
    /// let err = sololab::lab::Experiment::parse("name = 'x'\nbogus = 1\n", "x.toml").unwrap_err();
    /// assert!(err.to_string().starts_with("x.toml:2:1: unknown field `bogus`"));
    /// ```
    pub fn parse(text: &str, path: &str) -> Result<Experiment, ExperimentError> {
        let text = crate::input::strip_bom(text);
        let mut exp = Experiment {
            name: String::new(),
            game: String::new(),
            strategies: Vec::new(),
            games: 0,
            seed: 0,
            setup: Vec::new(),
            sweep: Vec::new(),
            precision: None,
            max_games: None,
            baseline: None,
            ladder: Vec::new(),
            written: Vec::new(),
            path: path.to_string(),
            text: text.to_string(),
            spans: Spans::default(),
            games_flag: None,
        };
        if let Some(big) = crate::input::big_integer(text) {
            let kind = exp
                .too_large_setting(&big)
                .unwrap_or_else(|| ErrorKind::Toml(big.message()));
            return Err(exp.error(Some(big.span), kind));
        }
        let raw: RawExperiment = toml::from_str(text).map_err(|e| {
            // serde names Rust types; say what the file needs.
            let message = e
                .message()
                .trim()
                .replace("expected i64", "expected an integer")
                .replace("expected a sequence", "expected an array");
            exp.error(e.span(), ErrorKind::Toml(message))
        })?;

        let name = raw.name.get_ref();
        if !crate::input::is_plain_name(name) {
            return Err(exp.error(
                Some(raw.name.span()),
                ErrorKind::Invalid(format!(
                    "name '{name}' must be a folder name ({})",
                    crate::input::PLAIN_NAME_CHARS
                )),
            ));
        }
        if name.starts_with('.') {
            // A hidden report folder, and sololab's own names (`.sololab-work`, staging
            // folders) begin with '.': a report folder named like one could be removed as a
            // run's debris.
            return Err(exp.error(
                Some(raw.name.span()),
                ErrorKind::Invalid(format!(
                    "name '{name}' must not begin with '.' (its report folder would be hidden, \
                     and names beginning with '.sololab' are sololab's own)"
                )),
            ));
        }
        exp.name = name.clone();
        exp.game = raw.game.get_ref().clone();
        exp.spans.game = Some(raw.game.span());

        if raw.strategies.get_ref().is_empty() {
            return Err(exp.error(
                Some(raw.strategies.span()),
                ErrorKind::Invalid("strategies: name at least one strategy".into()),
            ));
        }
        for s in raw.strategies.get_ref() {
            if let Some(message) = crate::policy::strategy_name_problem(s.get_ref()) {
                return Err(exp.error(Some(s.span()), ErrorKind::Invalid(message)));
            }
            if exp.strategies.contains(s.get_ref()) {
                return Err(exp.error(
                    Some(s.span()),
                    ErrorKind::Duplicate(format!("strategy '{}' is listed twice", s.get_ref())),
                ));
            }
            exp.strategies.push(s.get_ref().clone());
            exp.spans.strategies.push(s.span());
        }

        let games = *raw.games.get_ref();
        exp.spans.games = Some(raw.games.span());
        if games < 1 {
            return Err(exp.error(
                Some(raw.games.span()),
                ErrorKind::Invalid(format!("games = {games}: play at least 1 game per cell")),
            ));
        }
        exp.games = games as u64;
        let seed = *raw.seed.get_ref();
        if seed < 0 {
            return Err(exp.error(
                Some(raw.seed.span()),
                ErrorKind::Invalid(format!("seed = {seed}: must be in 0..={MAX_SEED}")),
            ));
        }
        exp.seed = seed as u64;

        if let Some(ladder) = &raw.ladder {
            exp.ladder = exp.check_ladder(ladder)?;
        }

        let mut setup: Vec<_> = raw.setup.into_iter().collect();
        setup.sort_by_key(|(k, _)| k.span().start);
        for (key, value) in setup {
            let v = exp.axis_value(key.get_ref(), &value)?;
            exp.setup.push((key.get_ref().clone(), v));
            exp.spans.setup.push((key.span(), value.span()));
        }

        let mut sweep: Vec<_> = raw.sweep.into_iter().collect();
        sweep.sort_by_key(|(k, _)| k.span().start);
        for (key, values) in sweep {
            let axis = key.get_ref();
            if let Some(i) = exp.setup.iter().position(|(k, _)| k == axis) {
                let at = exp.spans.setup[i].0.clone();
                return Err(exp.error(
                    Some(key.span()),
                    ErrorKind::Duplicate(format!(
                        "axis '{axis}' is in both [setup] (line {}) and [sweep]",
                        exp.line_column(at.start).0
                    )),
                ));
            }
            if values.get_ref().is_empty() {
                return Err(exp.error(
                    Some(values.span()),
                    ErrorKind::AxisValue {
                        axis: axis.clone(),
                        message: "a sweep axis needs at least one value".into(),
                    },
                ));
            }
            let mut parsed: Vec<AxisValue> = Vec::new();
            let mut spans = Vec::new();
            for item in values.get_ref() {
                let v = exp.axis_value(axis, item)?;
                // Written twice; other spellings of one setting are the game's to tell
                // (Plan::new).
                if parsed.contains(&v) {
                    return Err(exp.error(
                        Some(item.span()),
                        ErrorKind::Duplicate(format!(
                            "axis '{axis}': value {} is listed twice",
                            value(&v)
                        )),
                    ));
                }
                parsed.push(v);
                spans.push(item.span());
            }
            exp.sweep.push((axis.clone(), parsed));
            exp.spans.sweep.push((key.span(), spans));
        }
        exp.parse_precision(raw.precision, raw.max_games)?;
        if let Some(compare) = raw.compare {
            exp.parse_baseline(compare.baseline)?;
        }
        exp.check_size()?;
        Ok(exp)
    }

    fn parse_precision(
        &mut self,
        precision: Option<Spanned<f64>>,
        max_games: Option<Spanned<i64>>,
    ) -> Result<(), ExperimentError> {
        match (precision, max_games) {
            (None, None) => Ok(()),
            (Some(p), None) => Err(self.error(
                Some(p.span()),
                ErrorKind::Invalid(
                    "precision needs max_games (the most games a cell may play)".into(),
                ),
            )),
            (None, Some(m)) => Err(self.error(
                Some(m.span()),
                ErrorKind::Invalid("max_games is only used with precision".into()),
            )),
            (Some(p), Some(m)) => {
                let target = *p.get_ref();
                if !(0.0001..=0.5).contains(&target) {
                    return Err(self.error(
                        Some(p.span()),
                        ErrorKind::Invalid(format!(
                            "precision = {target}: the largest Wilson half-width must be in \
                             0.0001..=0.5"
                        )),
                    ));
                }
                let most = *m.get_ref();
                if most < 1 {
                    return Err(self.error(
                        Some(m.span()),
                        ErrorKind::Invalid(format!("max_games = {most}: must be at least 1")),
                    ));
                }
                self.precision = Some(target);
                self.max_games = Some(most as u64);
                self.spans.precision = Some(p.span());
                self.spans.max_games = Some(m.span());
                Ok(())
            }
        }
    }

    /// Reads `[compare] baseline` as written: each key the strategy (one of the experiment's),
    /// a sweep axis or a content value path (a key with a dot or a bracket, which may be
    /// another spelling of a swept path). Which cell it names needs the game:
    /// [`Experiment::match_baseline`].
    fn parse_baseline(
        &mut self,
        baseline: Spanned<BTreeMap<Spanned<String>, Spanned<toml::Value>>>,
    ) -> Result<(), ExperimentError> {
        self.spans.baseline = Some(baseline.span());
        let mut entries: Vec<_> = baseline.into_inner().into_iter().collect();
        entries.sort_by_key(|(k, _)| k.span().start);
        let mut values = Vec::new();
        for (key, item) in entries {
            let name = key.get_ref();
            let v = self.axis_value(name, &item)?;
            if name == "strategy" {
                if !self
                    .strategies
                    .iter()
                    .any(|s| v == AxisValue::Name(s.clone()))
                {
                    return Err(self.baseline_value_error(
                        Some(item.span()),
                        name,
                        &v,
                        &self.strategy_values(),
                    ));
                }
            } else if !self.sweep.iter().any(|(a, _)| a == name)
                && !crate::content::is_value_path(name)
            {
                return Err(self.error(Some(key.span()), self.baseline_not_an_axis(name)));
            }
            values.push((name.clone(), v));
            self.spans.baseline_entries.push((key.span(), item.span()));
        }
        self.baseline = Some(values);
        Ok(())
    }

    fn strategy_values(&self) -> Vec<AxisValue> {
        self.strategies
            .iter()
            .map(|s| AxisValue::Name(s.clone()))
            .collect()
    }

    fn baseline_not_an_axis(&self, name: &str) -> ErrorKind {
        let mut valid = vec!["strategy".to_string()];
        valid.extend(self.sweep.iter().map(|(a, _)| a.clone()));
        ErrorKind::Invalid(format!(
            "[compare] baseline: '{name}' is not the strategy or a sweep axis (valid: {})",
            valid.join(", ")
        ))
    }

    fn baseline_value_error(
        &self,
        span: Option<Range<usize>>,
        name: &str,
        v: &AxisValue,
        allowed: &[AxisValue],
    ) -> ExperimentError {
        let listed: Vec<String> = allowed.iter().map(value).collect();
        self.error(
            span,
            ErrorKind::Invalid(format!(
                "[compare] baseline: {name} = {} is not one of the experiment's values ({})",
                value(v),
                listed.join(", ")
            )),
        )
    }

    /// Matches `[compare] baseline` to one cell and writes it as the sweep does (each key the
    /// sweep axis's, each value the sweep's value), so that [`Experiment::baseline_cell`] and
    /// what the run records name that cell. `axis_of(key)` is the sweep axis a key names (its
    /// own name, or another spelling of a content value path); `value_of(a, v)` the index of
    /// the value of axis `a` that `v` is the same setting as. Both are the game's
    /// ([`Plan::new`](super::Plan::new)); nothing to do without `[compare]`.
    ///
    /// # Errors
    /// At the key or value of the first entry that names no sweep axis, names an axis an
    /// earlier entry names, or whose value is none of the axis's; at the table when the
    /// baseline leaves out the strategy (of several) or an axis of several values.
    pub(crate) fn match_baseline(
        &mut self,
        axis_of: impl Fn(&str) -> Option<usize>,
        mut value_of: impl FnMut(usize, &AxisValue) -> Option<usize>,
    ) -> Result<(), ExperimentError> {
        let Some(given) = self.baseline.clone() else {
            return Ok(());
        };
        let place = |i: usize| self.spans.baseline_entries.get(i).cloned();
        let mut matched: Vec<(String, AxisValue)> = Vec::with_capacity(given.len());
        let mut axes: Vec<Option<usize>> = Vec::with_capacity(given.len());
        for (i, (key, v)) in given.iter().enumerate() {
            if key == "strategy" {
                matched.push((key.clone(), v.clone()));
                axes.push(None);
                continue;
            }
            let Some(a) = axis_of(key) else {
                return Err(self.error(place(i).map(|p| p.0), self.baseline_not_an_axis(key)));
            };
            if let Some(first) = axes.iter().position(|x| *x == Some(a)) {
                return Err(self.error(
                    place(i).map(|p| p.0),
                    ErrorKind::Duplicate(format!(
                        "[compare] baseline: '{key}' is given twice (first as '{}'): both name \
                         the sweep axis '{}'",
                        given[first].0, self.sweep[a].0
                    )),
                ));
            }
            let (axis, values) = &self.sweep[a];
            let w = match values.iter().position(|x| x == v) {
                Some(w) => w,
                None => value_of(a, v).ok_or_else(|| {
                    self.baseline_value_error(place(i).map(|p| p.1), key, v, values)
                })?,
            };
            matched.push((axis.clone(), values[w].clone()));
            axes.push(Some(a));
        }
        let mut missing = Vec::new();
        if self.strategies.len() > 1 && !given.iter().any(|(k, _)| k == "strategy") {
            missing.push("strategy".to_string());
        }
        for (a, (axis, vs)) in self.sweep.iter().enumerate() {
            if vs.len() > 1 && !axes.contains(&Some(a)) {
                missing.push(axis.clone());
            }
        }
        if !missing.is_empty() {
            return Err(self.error(
                self.spans.baseline.clone(),
                ErrorKind::Invalid(format!(
                    "[compare] baseline names more than one cell: give {}",
                    missing.join(", ")
                )),
            ));
        }
        self.baseline = Some(matched);
        Ok(())
    }

    /// The index of the `[compare]` baseline cell in plan order (strategy first, then the
    /// sweep values with the first axis slowest), or `None` without `[compare]`. The baseline
    /// is written as the sweep does once [`Plan::new`](super::Plan::new) matched it (and so in
    /// every experiment a run records); `None` too for a baseline value the sweep does not
    /// write or a key that is not a sweep axis (one not yet matched), never another cell.
    pub fn baseline_cell(&self) -> Option<usize> {
        let baseline = self.baseline.as_ref()?;
        if baseline
            .iter()
            .any(|(k, _)| k != "strategy" && !self.sweep.iter().any(|(a, _)| a == k))
        {
            return None;
        }
        let pick = |name: &str, values: &[AxisValue]| -> Option<usize> {
            match baseline.iter().find(|(k, _)| k == name) {
                Some((_, v)) => values.iter().position(|x| x == v),
                None => Some(0),
            }
        };
        let mut index = pick("strategy", &self.strategy_values())?;
        for (axis, vs) in &self.sweep {
            index = index * vs.len() + pick(axis, vs)?;
        }
        Some(index)
    }

    /// The most games a cell may play: `max_games` under a precision target, else `games`.
    pub fn games_cap(&self) -> u64 {
        self.max_games.unwrap_or(self.games)
    }

    /// Overrides the games per cell (`--games`), checked like the file's `games`; errors about
    /// the size of the run then name `--games N` instead of the file's line.
    ///
    /// # Errors
    /// When `games` is not in `1..=`[`MAX_GAMES_PER_CELL`] or the run would have more than
    /// [`MAX_TOTAL_GAMES`] games.
    pub fn set_games(&mut self, games: u64) -> Result<(), ExperimentError> {
        let old = (self.games, self.games_flag.take());
        self.games = games;
        self.games_flag = Some(format!("--games {games}"));
        if let Err(e) = self.check_size() {
            (self.games, self.games_flag) = old;
            return Err(e);
        }
        Ok(())
    }

    /// Overrides the seed (`--seed`).
    ///
    /// # Errors
    /// When `seed` is above [`MAX_SEED`] (it could not be recorded in `run.toml`).
    pub fn set_seed(&mut self, seed: u64) -> Result<(), ExperimentError> {
        self.check_seed(seed, Some(format!("--seed {seed}")))?;
        self.seed = seed;
        Ok(())
    }

    fn check_seed(&self, seed: u64, flag: Option<String>) -> Result<(), ExperimentError> {
        if seed <= MAX_SEED {
            return Ok(());
        }
        let range = format!("must be in 0..={MAX_SEED}");
        Err(match flag {
            Some(flag) => ExperimentError {
                at: Location {
                    path: flag,
                    line_column: None,
                },
                kind: ErrorKind::Invalid(range),
            },
            None => self.error(None, ErrorKind::Invalid(format!("seed = {seed}: {range}"))),
        })
    }

    /// Checks the size of the run: games per cell in `1..=`[`MAX_GAMES_PER_CELL`], at most
    /// [`MAX_CELLS`] cells and [`MAX_TOTAL_GAMES`] games in all (computed without overflow), and
    /// the seed in `0..=`[`MAX_SEED`]. Returns the total games. [`Plan::new`](super::Plan::new)
    /// checks this again, since the fields are public.
    ///
    /// # Errors
    /// At the file's `games` value (or `--games N` when [`Experiment::set_games`] set it), or
    /// at `max_games` when a precision run's most games make it too large.
    pub fn check_size(&self) -> Result<u64, ExperimentError> {
        self.check_seed(self.seed, None)?;
        let games = self.games;
        let error = |message: String| match &self.games_flag {
            Some(flag) => ExperimentError {
                at: Location {
                    path: flag.clone(),
                    line_column: None,
                },
                kind: ErrorKind::Invalid(message),
            },
            None => self.error(
                self.spans.games.clone(),
                ErrorKind::Invalid(format!("games = {games}: {message}")),
            ),
        };
        if games < 1 {
            return Err(error("play at least 1 game per cell".into()));
        }
        if games > MAX_GAMES_PER_CELL {
            return Err(error(format!(
                "at most {MAX_GAMES_PER_CELL} games per cell"
            )));
        }
        if let Some(most) = self.max_games {
            let at = self.spans.max_games.clone();
            if most < games {
                return Err(self.error(
                    at,
                    ErrorKind::Invalid(format!(
                        "max_games = {most} is below games = {games} (the batch size)"
                    )),
                ));
            }
            if most > MAX_GAMES_PER_CELL {
                return Err(self.error(
                    at,
                    ErrorKind::Invalid(format!(
                        "max_games = {most}: at most {MAX_GAMES_PER_CELL} games per cell"
                    )),
                ));
            }
        }
        let games = self.games_cap();
        let cells = self.checked_cell_count().filter(|&c| c <= MAX_CELLS);
        let Some(cells) = cells else {
            return Err(self.error(
                self.spans.sweep.first().map(|s| s.0.clone()),
                ErrorKind::Invalid(format!(
                    "{} strategies × the sweep's values make more than {MAX_CELLS} cells",
                    self.strategies.len()
                )),
            ));
        };
        match cells.checked_mul(games) {
            Some(total) if total <= MAX_TOTAL_GAMES => Ok(total),
            _ => {
                let message = format!(
                    "{cells} cells × {games} games per cell is more than the \
                     {MAX_TOTAL_GAMES} games a run may play"
                );
                match self.max_games {
                    // A precision run's size is its max_games: the error is there.
                    Some(most) => Err(self.error(
                        self.spans.max_games.clone(),
                        ErrorKind::Invalid(format!("max_games = {most}: {message}")),
                    )),
                    _ => Err(error(message)),
                }
            }
        }
    }

    /// Strategies times the product of the sweep axes' value counts, `None` on overflow.
    fn checked_cell_count(&self) -> Option<u64> {
        self.sweep
            .iter()
            .try_fold(self.strategies.len() as u64, |n, (_, v)| {
                n.checked_mul(v.len() as u64)
            })
    }

    fn axis_value(
        &self,
        axis: &str,
        value: &Spanned<toml::Value>,
    ) -> Result<AxisValue, ExperimentError> {
        match value.get_ref() {
            toml::Value::Integer(i) => Ok(AxisValue::Int(*i)),
            toml::Value::Boolean(b) => Ok(AxisValue::Bool(*b)),
            toml::Value::String(s) => Ok(AxisValue::Name(s.clone())),
            toml::Value::Float(x) => match crate::setup::Real::new(*x) {
                Some(r) => Ok(AxisValue::Real(r)),
                None => Err(self.error(
                    Some(value.span()),
                    ErrorKind::AxisValue {
                        axis: axis.to_string(),
                        message: format!("{x} is not a finite number"),
                    },
                )),
            },
            other => Err(self.error(
                Some(value.span()),
                ErrorKind::AxisValue {
                    axis: axis.to_string(),
                    message: format!(
                        "{other} is {}, not a number, true/false or a name",
                        article(other.type_str())
                    ),
                },
            )),
        }
    }

    /// The file this experiment was read from, as the user named it.
    pub fn path(&self) -> &str {
        &self.path
    }

    /// Looks the game up in the registry.
    ///
    /// # Errors
    /// [`ErrorKind::UnknownGame`] at the `game` value, listing the valid games.
    pub fn game_kind(&self) -> Result<GameKind, ExperimentError> {
        GameKind::ALL
            .iter()
            .copied()
            .find(|g| g.name() == self.game)
            .ok_or_else(|| {
                self.error(
                    self.spans.game.clone(),
                    ErrorKind::UnknownGame {
                        name: self.game.clone(),
                        valid: GameKind::ALL.iter().map(|g| g.name().to_string()).collect(),
                    },
                )
            })
    }

    /// The number of cells: strategies times the product of the sweep axes' value counts
    /// (`usize::MAX` if that overflows; a checked experiment has at most [`MAX_CELLS`]).
    pub fn cell_count(&self) -> usize {
        self.checked_cell_count()
            .and_then(|n| usize::try_from(n).ok())
            .unwrap_or(usize::MAX)
    }

    /// A whole number too large for 64 bits given to a setting (`[setup]`, `[sweep]`, the
    /// `[compare]` baseline) of the game the file names, as that setting's error with the
    /// range the game accepts ([`too_large_integer`](super::too_large_integer), on top of the
    /// file's other `[setup]` names, switches and integers, its file names relative to the
    /// file's folder). `None` elsewhere, for an unknown game or a setting that takes no whole
    /// number: the TOML range is the message then.
    fn too_large_setting(&self, big: &crate::input::BigInteger) -> Option<ErrorKind> {
        use toml::de::{DeTable, DeValue};
        let axis = match big.keys.as_slice() {
            [table, axis] if table == "setup" || table == "sweep" => axis,
            [compare, baseline, axis] if compare == "compare" && baseline == "baseline" => axis,
            _ => return None,
        };
        let file = DeTable::parse(&self.text).ok()?;
        let file = file.get_ref();
        let DeValue::String(game) = file.get("game")?.get_ref() else {
            return None;
        };
        let kind = GameKind::from_name(game).ok()?;
        let folder = Path::new(&self.path).parent().unwrap_or(Path::new(""));
        let mut base = crate::game::SetupValues::new();
        if let Some(DeValue::Table(setup)) = file.get("setup").map(|v| v.get_ref()) {
            for (key, value) in setup {
                let value = match value.get_ref() {
                    DeValue::String(s) if s.to_ascii_lowercase().ends_with(".toml") => {
                        AxisValue::Name(folder.join(s.as_ref()).to_string_lossy().into_owned())
                    }
                    DeValue::String(s) => AxisValue::Name(s.to_string()),
                    DeValue::Boolean(b) => AxisValue::Bool(*b),
                    DeValue::Integer(i) => match i64::from_str_radix(i.as_str(), i.radix()) {
                        Ok(n) => AxisValue::Int(n),
                        Err(_) => continue,
                    },
                    _ => continue,
                };
                base.insert(key.get_ref().to_string(), value);
            }
        }
        let message = crate::with_game!(kind, G => super::too_large_integer::<G>(
            &base,
            axis,
            &big.written
        ))?;
        Some(ErrorKind::AxisValue {
            axis: axis.clone(),
            message,
        })
    }

    /// An error located at a byte range of the file (or at the file when `None`).
    pub(crate) fn error(&self, span: Option<Range<usize>>, kind: ErrorKind) -> ExperimentError {
        ExperimentError {
            at: Location {
                path: self.path.clone(),
                line_column: span.map(|s| self.line_column(s.start)),
            },
            kind,
        }
    }

    /// An error at the `game` value.
    pub(crate) fn game_error(&self, kind: ErrorKind) -> ExperimentError {
        self.error(self.spans.game.clone(), kind)
    }

    /// An error at strategy `i`.
    pub(crate) fn strategy_error(&self, i: usize, kind: ErrorKind) -> ExperimentError {
        self.error(self.spans.strategies.get(i).cloned(), kind)
    }

    /// An error at the key of `[setup]` entry `i`.
    pub(crate) fn setup_key_error(&self, i: usize, kind: ErrorKind) -> ExperimentError {
        self.error(self.spans.setup.get(i).map(|s| s.0.clone()), kind)
    }

    /// An error at the value of `[setup]` entry `i`.
    pub(crate) fn setup_value_error(&self, i: usize, kind: ErrorKind) -> ExperimentError {
        self.error(self.spans.setup.get(i).map(|s| s.1.clone()), kind)
    }

    /// An error at the key of sweep axis `a`.
    pub(crate) fn sweep_key_error(&self, a: usize, kind: ErrorKind) -> ExperimentError {
        self.error(self.spans.sweep.get(a).map(|s| s.0.clone()), kind)
    }

    /// Value `v` of sweep axis `a` as the file writes it (`"./cards.toml"`, `24.0`), for
    /// messages: two values may resolve to one file name, which [`Experiment::as_written`]
    /// cannot tell apart.
    pub(crate) fn sweep_value_text(&self, a: usize, v: usize) -> String {
        self.spans
            .sweep
            .get(a)
            .and_then(|s| s.1.get(v))
            .and_then(|r| self.text.get(r.clone()))
            .map_or_else(
                || value(&self.as_written(&self.sweep[a].1[v])),
                |t| t.trim().to_string(),
            )
    }

    /// An error at value `v` of sweep axis `a`.
    pub(crate) fn sweep_value_error(&self, a: usize, v: usize, kind: ErrorKind) -> ExperimentError {
        self.error(
            self.spans.sweep.get(a).and_then(|s| s.1.get(v)).cloned(),
            kind,
        )
    }

    /// The `[setup]` keys and the `[sweep]` axes, in the order of the file (`[setup]` first
    /// when the positions are not known).
    pub(crate) fn keys_in_order(&self) -> Vec<(&str, KeyPlace)> {
        let start = |p: KeyPlace| match p {
            KeyPlace::Setup(i) => self.spans.setup.get(i).map(|s| s.0.start),
            KeyPlace::Sweep(a) => self.spans.sweep.get(a).map(|s| s.0.start),
        };
        let mut keys: Vec<(&str, KeyPlace)> = self
            .setup
            .iter()
            .enumerate()
            .map(|(i, (k, _))| (k.as_str(), KeyPlace::Setup(i)))
            .chain(
                self.sweep
                    .iter()
                    .enumerate()
                    .map(|(a, (k, _))| (k.as_str(), KeyPlace::Sweep(a))),
            )
            .collect();
        keys.sort_by_key(|&(_, p)| start(p).unwrap_or(usize::MAX));
        keys
    }

    /// An error at a `[setup]` or `[sweep]` key.
    pub(crate) fn key_error(&self, place: KeyPlace, kind: ErrorKind) -> ExperimentError {
        match place {
            KeyPlace::Setup(i) => self.setup_key_error(i, kind),
            KeyPlace::Sweep(a) => self.sweep_key_error(a, kind),
        }
    }

    /// `[setup]` or `[sweep]` and the line of a key (`[setup], line 7`), for messages.
    pub(crate) fn key_where(&self, place: KeyPlace) -> String {
        let (table, span) = match place {
            KeyPlace::Setup(i) => ("[setup]", self.spans.setup.get(i).map(|s| s.0.start)),
            KeyPlace::Sweep(a) => ("[sweep]", self.spans.sweep.get(a).map(|s| s.0.start)),
        };
        match span {
            Some(at) => format!("{table}, line {}", self.line_column(at).0),
            None => table.to_string(),
        }
    }

    fn line_column(&self, offset: usize) -> (usize, usize) {
        crate::input::line_column(&self.text, offset)
    }

    /// The experiment as TOML in the file's own format: loads back with [`Experiment::parse`]
    /// to the same values.
    pub fn to_toml(&self) -> String {
        self.to_toml_table(None)
    }

    /// The strategies of `[ladder]`: at least two, none twice, each one of the experiment's.
    fn check_ladder(&self, ladder: &RawLadder) -> Result<Vec<String>, ExperimentError> {
        let names = ladder.strategies.get_ref();
        if names.len() < 2 {
            return Err(self.error(
                Some(ladder.strategies.span()),
                ErrorKind::Invalid("ladder: name at least two strategies, weakest first".into()),
            ));
        }
        let mut out: Vec<String> = Vec::new();
        for s in names {
            if out.contains(s.get_ref()) {
                return Err(self.error(
                    Some(s.span()),
                    ErrorKind::Duplicate(format!(
                        "ladder: strategy '{}' is listed twice",
                        s.get_ref()
                    )),
                ));
            }
            if !self.strategies.contains(s.get_ref()) {
                return Err(self.error(
                    Some(s.span()),
                    ErrorKind::Invalid(format!(
                        "ladder: strategy '{}' is not in strategies (valid: {})",
                        s.get_ref(),
                        self.strategies.join(", ")
                    )),
                ));
            }
            out.push(s.get_ref().clone());
        }
        Ok(out)
    }

    /// The experiment as TOML, under the table `table` when given (`run.toml` keeps it under
    /// `[experiment]`).
    pub fn to_toml_table(&self, table: Option<&str>) -> String {
        let mut s = String::new();
        let sub = |name: &str| match table {
            Some(t) => format!("[{t}.{name}]"),
            None => format!("[{name}]"),
        };
        if let Some(t) = table {
            s.push_str(&format!("[{t}]\n"));
        }
        s.push_str(&format!("name = {}\n", quote(&self.name)));
        s.push_str(&format!("game = {}\n", quote(&self.game)));
        let strategies: Vec<String> = self.strategies.iter().map(|n| quote(n)).collect();
        s.push_str(&format!("strategies = [{}]\n", strategies.join(", ")));
        s.push_str(&format!("games = {}\n", self.games));
        s.push_str(&format!("seed = {}\n", self.seed));
        if let (Some(p), Some(m)) = (self.precision, self.max_games) {
            s.push_str(&format!("precision = {}\n", toml::Value::Float(p)));
            s.push_str(&format!("max_games = {m}\n"));
        }
        s.push_str(&format!("\n{}\n", sub("setup")));
        let value = |v: &AxisValue| value(&self.as_written(v));
        for (k, v) in &self.setup {
            s.push_str(&format!("{} = {}\n", key(k), value(v)));
        }
        s.push_str(&format!("\n{}\n", sub("sweep")));
        for (k, vs) in &self.sweep {
            let vs: Vec<String> = vs.iter().map(value).collect();
            s.push_str(&format!("{} = [{}]\n", key(k), vs.join(", ")));
        }
        if let Some(baseline) = &self.baseline {
            let pairs: Vec<String> = baseline
                .iter()
                .map(|(k, v)| format!("{} = {}", key(k), value(v)))
                .collect();
            s.push_str(&format!("\n{}\n", sub("compare")));
            s.push_str(&format!("baseline = {{ {} }}\n", pairs.join(", ")));
        }
        if !self.ladder.is_empty() {
            let names: Vec<String> = self.ladder.iter().map(|n| quote(n)).collect();
            s.push_str(&format!(
                "\n{}\nstrategies = [{}]\n",
                sub("ladder"),
                names.join(", ")
            ));
        }
        s
    }
}

/// A TOML basic string.
pub(crate) fn quote(s: &str) -> String {
    toml::Value::String(s.to_string()).to_string()
}

/// A TOML key: bare when it can be.
pub(crate) fn key(k: &str) -> String {
    if !k.is_empty()
        && k.chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
    {
        k.to_string()
    } else {
        quote(k)
    }
}

/// A TOML value for an axis value.
pub(crate) fn value(v: &AxisValue) -> String {
    match v {
        AxisValue::Int(i) => i.to_string(),
        AxisValue::Bool(b) => b.to_string(),
        AxisValue::Name(n) => quote(n),
        AxisValue::Real(x) => x.to_string(),
    }
}

/// The experiments in `dir`: the stems of its `*.toml` files, sorted. Empty when `dir` cannot
/// be read.
pub fn experiment_names(dir: &Path) -> Vec<String> {
    toml_stems(dir)
}

/// The stems of the `*.toml` files in `dir`, sorted (empty when `dir` cannot be read).
pub(crate) fn toml_stems(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .into_iter()
        .flatten()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "toml") && p.is_file())
        .filter_map(|p| p.file_stem().and_then(|s| s.to_str()).map(str::to_string))
        .collect();
    names.sort();
    names
}

/// Finds an experiment file: `arg` itself when it is a file or names one (contains a path
/// separator or ends in `.toml`), else `dir/<arg>.toml`. `arg` may be any path, UTF-8 or not
/// (messages show it lossily).
///
/// # Errors
/// [`ErrorKind::NoSuchExperiment`] listing the experiments in `dir`, [`ErrorKind::Io`]
/// when `arg` looks like a path that does not exist, or [`ErrorKind::Invalid`] when it is a
/// directory.
pub fn find_experiment(arg: impl AsRef<Path>, dir: &Path) -> Result<PathBuf, ExperimentError> {
    let as_path = arg.as_ref().to_path_buf();
    if as_path.is_file() {
        return Ok(as_path);
    }
    let shown = as_path.to_string_lossy().into_owned();
    let arg = shown.as_str();
    let at_arg = |kind| ExperimentError {
        at: Location {
            path: arg.to_string(),
            line_column: None,
        },
        kind,
    };
    let directory = || {
        at_arg(ErrorKind::Invalid(
            "is a directory, not an experiment file".into(),
        ))
    };
    if arg.ends_with(".toml") || arg.contains(std::path::MAIN_SEPARATOR) || arg.contains('/') {
        if as_path.is_dir() {
            return Err(directory());
        }
        return Err(at_arg(ErrorKind::Io("no such file".into())));
    }
    let mut file_name = as_path.clone().into_os_string();
    file_name.push(".toml");
    let in_dir = dir.join(file_name);
    if in_dir.is_file() {
        return Ok(in_dir);
    }
    if as_path.is_dir() {
        return Err(directory());
    }
    Err(ExperimentError {
        at: Location {
            path: dir.display().to_string(),
            line_column: None,
        },
        kind: ErrorKind::NoSuchExperiment {
            name: arg.to_string(),
            valid: experiment_names(dir),
        },
    })
}

/// `what` with its indefinite article ("an array", "a table"), for messages.
fn article(what: &str) -> String {
    let vowel = what.starts_with(['a', 'e', 'i', 'o', 'u']);
    format!("{} {what}", if vowel { "an" } else { "a" })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_precision_run_too_large_for_its_max_games_is_located_at_max_games() {
        let text = "name = \"t\"\ngame = \"rift\"\nstrategies = [\"random\", \"greedy\"]\n\
            games = 1\nseed = 3\nprecision = 0.01\nmax_games = 1000000000000\n\
            [sweep]\nruins = [1, 2, 3]\nextra_turn = [false, true]\n";
        let e = Experiment::parse(text, "t.toml").unwrap_err().to_string();
        assert!(
            e.starts_with("t.toml:7:13: max_games = 1000000000000: 12 cells × "),
            "{e}"
        );
    }

    #[test]
    fn a_setup_value_of_the_wrong_type_is_named_with_its_article() {
        let text = "name = \"t\"\ngame = \"rift\"\nstrategies = [\"random\"]\n\
            games = 10\nseed = 3\n[setup]\nruins = [1]\n";
        let e = Experiment::parse(text, "t.toml").unwrap_err().to_string();
        assert!(e.contains("[1] is an array, not a number"), "{e}");
    }

    const GOOD: &str = "name = \"t\"\ngame = \"rift\"\nstrategies = [\"random\", \"greedy\"]\n\
        games = 10\nseed = 3\n[setup]\nruins = 3\n[sweep]\nzeta = [1, 2]\nextra_turn = [false, true]\n";

    #[test]
    fn parse_keeps_file_order_and_values() {
        let e = Experiment::parse(GOOD, "t.toml").unwrap();
        assert_eq!(e.name, "t");
        assert_eq!(e.strategies, ["random", "greedy"]);
        assert_eq!((e.games, e.seed), (10, 3));
        assert_eq!(e.setup, [("ruins".to_string(), AxisValue::Int(3))]);
        assert_eq!(e.sweep[0].0, "zeta");
        assert_eq!(
            e.sweep[1],
            (
                "extra_turn".into(),
                vec![AxisValue::Bool(false), AxisValue::Bool(true)]
            )
        );
        assert_eq!(e.cell_count(), 8);
    }

    #[test]
    fn to_toml_round_trips() {
        let e = Experiment::parse(GOOD, "t.toml").unwrap();
        let again = Experiment::parse(&e.to_toml(), "again.toml").unwrap();
        assert_eq!(again.to_toml(), e.to_toml());
        assert_eq!(again.sweep, e.sweep);
    }

    #[test]
    fn errors_say_where() {
        let err = Experiment::parse(&GOOD.replace("seed = 3", "seed = 3\ncolour = 1"), "t.toml")
            .unwrap_err();
        assert_eq!(err.at.line_column, Some((6, 1)));
        assert!(err.to_string().contains("unknown field `colour`"), "{err}");

        let err = Experiment::parse("name = \"t\"\ngame = [", "t.toml").unwrap_err();
        assert_eq!(err.at.path, "t.toml");
        assert_eq!(err.at.line_column.unwrap().0, 2);
        assert!(!err.to_string().contains('\n'));

        let err = Experiment::parse(&GOOD.replace("zeta = [1, 2]", "zeta = [1, 1]"), "t.toml")
            .unwrap_err();
        assert_eq!(err.at.line_column, Some((9, 12)));

        let err =
            Experiment::parse(&GOOD.replace("games = 10", "games = 0"), "t.toml").unwrap_err();
        assert_eq!(err.at.line_column, Some((4, 9)));

        let err = Experiment::parse(&GOOD.replace("zeta", "ruins"), "t.toml").unwrap_err();
        assert!(
            err.to_string()
                .contains("both [setup] (line 7) and [sweep]"),
            "{err}"
        );
    }

    #[test]
    fn unknown_game_lists_the_registry() {
        let e = Experiment::parse(&GOOD.replace("\"rift\"", "\"chess\""), "t.toml").unwrap();
        let err = e.game_kind().unwrap_err();
        let names: Vec<&str> = crate::GameKind::ALL.iter().map(|g| g.name()).collect();
        assert_eq!(
            err.to_string(),
            format!(
                "t.toml:2:8: unknown game 'chess' (valid: {})",
                names.join(", ")
            )
        );
        assert!(names.len() >= 4 && names[0] == "rift", "{names:?}");
    }
}
