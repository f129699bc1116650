//! Strategy files (`strategies/<name>.toml`): a policy kind, its parameters and heuristic
//! weights per game, read and validated once into a [`Strategy`], then built into a
//! [`Policy`] for one game.
//!
//! This is the one registry of the names users type for policies: the kinds (`random`,
//! `greedy`, `mcts`) and the shipped strategies, embedded in the binary so that
//! `--policy random` works from any directory.
//!
//! # Format
//!
//! ```toml
//! kind = "mcts"            # "random" | "greedy" | "mcts" | "beam"
//! iterations = 200         # mcts: iterations per decision, 1..=10000000
//! exploration = 1.0        # mcts: UCB1 constant, a finite number >= 0
//! rollout = "greedy"       # mcts: "random" | "greedy" | "beam"
//! rollout_depth = 6        # mcts: player decisions per rollout before the cut-off, >= 1
//! rollout_samples = 4      # mcts, optional (default 1): greedy rollouts' chance samples
//!                          # (beam rollouts: samples where a line meets chance)
//! # rollout_width = 200    # mcts with rollout = "beam", optional (default 200): the beam's
//!                          # states kept per depth, 1..=100000 (issue 9)
//! widening = 1.0           # mcts, optional (default 0 = off): progressive widening
//! stop_at_chance = true    # mcts, optional (default false): the tree ends where chance begins
//! # see_hidden = true      # mcts, optional (default false): skip determinization and search
//! #                        # the true hidden state — a cheating upper bound, never a player
//! # clairvoyant = true     # mcts, optional (default false): also see the game's future dice
//! #                        # and draws (issue 15) — the upper bound, never a player
//! # prior_visits = 5       # mcts, optional (default 0 = off): greedy prior, virtual visits
//! #                        # per child, 0..=100000; excludes `widening` (issue 9)
//! # chance_outcomes = 8    # mcts, optional (default 0 = open loop): closed-loop chance, at
//! #                        # most this many outcomes below an action, 0..=1000; excludes
//! #                        # `stop_at_chance` (issue 9)
//! # tree_depth = 2         # mcts, optional (default unlimited): the most decisions a tree
//! #                        # line holds, 1..=4294967295 (issue 9)
//! # rollout_turns = 1      # mcts, optional (default 0 = off): rollouts also stop at the start
//! #                        # of the searched decision's turn plus this many, 0..=1000 (issue 9)
//! # samples = 16           # greedy: chance samples per candidate, 1..=10000; beam: chance
//! #                        # samples where a line meets chance, 1..=10000
//! # width = 1000           # beam: states kept per depth, 1..=100000
//! # depth = 40             # beam: decisions a line holds at most, 1..=10000
//!
//! [weights.race]           # greedy, mcts: feature name -> weight, per game (Game::NAME)
//! position = 1.0           # features not named weigh 0
//! ```
//!
//! `random` takes only `kind`; `greedy` takes `kind`, `samples`, `weights`; `beam` takes
//! `kind`, `width`, `depth`, `samples`, `weights` ([`BeamPolicy`]); `mcts` takes
//! `kind`, `iterations`, `exploration`, `rollout`, `rollout_depth`, `weights` and optionally
//! `rollout_samples`, `rollout_width`, `widening`, `stop_at_chance`, `see_hidden`,
//! `clairvoyant`, `prior_visits`, `chance_outcomes`, `tree_depth` and `rollout_turns`
//! ([`MctsConfig`]). Every other key of the kind is required
//! and no other key is accepted. A weight table must name a game of the registry
//! ([`GameKind`]) or the test fixture `race`; its features are checked against the game's
//! when the strategy is built for that game, and that game's table must exist (it may be
//! empty).

use std::collections::BTreeMap;
use std::fmt;
use std::path::Path;

use toml::{Table, Value};

use crate::game::Game;
use crate::games::GameKind;
use crate::games::race::Race;
use crate::input;

use super::Policy;
use super::beam::{BeamPolicy, MAX_WIDTH};
use super::greedy::GreedyPolicy;
use super::mcts::{MctsConfig, MctsPolicy};
use super::random::RandomPolicy;

/// The most MCTS iterations per decision a strategy may ask for (the tree holds one node per
/// iteration).
pub const MAX_ITERATIONS: u32 = 10_000_000;

/// The most chance samples per candidate a greedy strategy may ask for.
const MAX_SAMPLES: u32 = 10_000;

/// The beam rollout's width when a strategy leaves `rollout_width` out (the shipped beam-200's).
pub const DEFAULT_ROLLOUT_WIDTH: u32 = 200;

/// The most decisions a beam strategy's lines may hold.
const MAX_DEPTH: u32 = 10_000;

/// Heuristic weights: game name ([`Game::NAME`]) to feature name to weight. Feature names are
/// checked against the game when the strategy is built.
pub type Weights = BTreeMap<String, BTreeMap<String, f64>>;

/// The policy MCTS plays its rollouts with.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Rollout {
    /// Uniform over legal actions (`rollout = "random"`).
    Random,
    /// [`GreedyPolicy`] on the strategy's weights with one chance sample per candidate
    /// (`rollout = "greedy"`).
    Greedy,
    /// [`BeamPolicy`] on the strategy's weights (`rollout = "beam"`, issue 9): each rollout
    /// decision plans to the next chance event or the turn's end, keeping
    /// [`rollout_width`](MctsConfig::rollout_width) states a depth, lines of at most
    /// [`ROLLOUT_BEAM_DEPTH`] decisions, a line that meets chance valued over
    /// [`rollout_samples`](MctsConfig::rollout_samples) samples, and follows its plan while the
    /// rollout stays on it. A stronger rollout player than greedy at a few times its cost: on
    /// the Gods the search was capped by what its greedy rollouts could see (results/README.md,
    /// "gods-search-probes").
    Beam,
}

/// The decisions a beam rollout's line may hold ([`Rollout::Beam`]): the shipped beam
/// strategies' `depth`, far more than a turn of any game takes.
pub const ROLLOUT_BEAM_DEPTH: u32 = 60;

/// The kinds of policy, with their validated parameters.
#[derive(Clone, Debug, PartialEq)]
pub enum StrategyKind {
    /// Uniform over legal actions ([`RandomPolicy`]).
    Random,
    /// One-ply look-ahead on weighted features ([`GreedyPolicy`]).
    Greedy {
        /// Chance samples per candidate, `1..=10000`.
        samples: u32,
        /// Weights per game.
        weights: Weights,
    },
    /// Beam search to the next chance event ([`BeamPolicy`]).
    Beam {
        /// States kept per depth, `1..=100000`.
        width: u32,
        /// Decisions a line holds at most, `1..=10000`.
        depth: u32,
        /// Chance samples where a line meets chance, `1..=10000`.
        samples: u32,
        /// Weights per game.
        weights: Weights,
    },
    /// Open-loop UCT with determinization ([`MctsPolicy`]).
    Mcts {
        /// The search parameters.
        config: MctsConfig,
        /// Weights per game, for the cut-off value and greedy rollouts.
        weights: Weights,
    },
}

impl StrategyKind {
    /// A rough count of the moves one decision of this policy plays or scores, relative to a
    /// random move (1): greedy scores about [`CANDIDATES`](Self::CANDIDATES) candidates a
    /// sample, a beam about that many a kept state, and MCTS plays `iterations` rollouts of up
    /// to `rollout_depth` decisions, each a greedy decision with greedy rollouts. Saturates at
    /// `u64::MAX`; at least 1.
    ///
    /// Used only to size the chunks a run saves for `--resume` (a dearer policy saves more
    /// often); it changes no number of a report.
    pub fn decision_cost(&self) -> u64 {
        let c = Self::CANDIDATES;
        match self {
            StrategyKind::Random => 1,
            StrategyKind::Greedy { samples, .. } => c.saturating_mul(u64::from(*samples)),
            StrategyKind::Beam { width, .. } => c.saturating_mul(u64::from(*width)),
            StrategyKind::Mcts { config, .. } => {
                let rollout_move = match config.rollout {
                    Rollout::Random => 1,
                    Rollout::Greedy => c.saturating_mul(u64::from(config.rollout_samples)),
                    Rollout::Beam => c
                        .saturating_mul(u64::from(config.rollout_width))
                        .saturating_mul(u64::from(config.rollout_samples)),
                };
                u64::from(config.iterations)
                    .saturating_mul(u64::from(config.rollout_depth).max(1))
                    .saturating_mul(rollout_move)
                    .max(1)
            }
        }
    }

    /// The candidates a one-ply policy is taken to score a decision in
    /// [`decision_cost`](Self::decision_cost): a typical count of legal actions.
    pub const CANDIDATES: u64 = 32;

    /// The weights of a kind that scores states (greedy, beam, MCTS); `None` for random.
    pub fn weights_mut(&mut self) -> Option<&mut Weights> {
        match self {
            StrategyKind::Random => None,
            StrategyKind::Greedy { weights, .. }
            | StrategyKind::Beam { weights, .. }
            | StrategyKind::Mcts { weights, .. } => Some(weights),
        }
    }

    /// The name used for `kind` in strategy files.
    pub const fn name(&self) -> &'static str {
        match self {
            StrategyKind::Random => "random",
            StrategyKind::Greedy { .. } => "greedy",
            StrategyKind::Beam { .. } => "beam",
            StrategyKind::Mcts { .. } => "mcts",
        }
    }
}

/// A named strategy, read and validated from `strategies/<name>.toml` or a shipped one.
#[derive(Clone, Debug, PartialEq)]
pub struct Strategy {
    /// The file stem experiments refer to (`mcts-200`).
    pub name: String,
    /// The kind and its parameters.
    pub kind: StrategyKind,
    /// Where it was read from, for messages: the file's path, or
    /// `strategies/<name>.toml (built in)` for a shipped strategy.
    pub origin: String,
    /// The 1-based line and column of each weight (`weights.<game>.<feature>`), for errors
    /// found when the strategy is built for a game.
    positions: BTreeMap<String, (usize, usize)>,
}

/// The shipped strategies, embedded: name and file text (sorted by name).
const SHIPPED: &[(&str, &str)] = &[
    ("beam-1000", include_str!("../../strategies/beam-1000.toml")),
    ("beam-200", include_str!("../../strategies/beam-200.toml")),
    ("greedy", include_str!("../../strategies/greedy.toml")),
    ("mcts-1000", include_str!("../../strategies/mcts-1000.toml")),
    (
        "mcts-1000-beyond",
        include_str!("../../strategies/mcts-1000-beyond.toml"),
    ),
    (
        "mcts-1000-beyond-two-rounds",
        include_str!("../../strategies/mcts-1000-beyond-two-rounds.toml"),
    ),
    (
        "mcts-1000-buried",
        include_str!("../../strategies/mcts-1000-buried.toml"),
    ),
    (
        "mcts-1000-gods",
        include_str!("../../strategies/mcts-1000-gods.toml"),
    ),
    (
        "mcts-1000-gods-closed",
        include_str!("../../strategies/mcts-1000-gods-closed.toml"),
    ),
    (
        "mcts-1000-gods-flat",
        include_str!("../../strategies/mcts-1000-gods-flat.toml"),
    ),
    (
        "mcts-1000-gods-flat-tuned",
        include_str!("../../strategies/mcts-1000-gods-flat-tuned.toml"),
    ),
    (
        "mcts-1000-gods-prior",
        include_str!("../../strategies/mcts-1000-gods-prior.toml"),
    ),
    (
        "mcts-1000-prior",
        include_str!("../../strategies/mcts-1000-prior.toml"),
    ),
    ("mcts-200", include_str!("../../strategies/mcts-200.toml")),
    (
        "mcts-200-beam",
        include_str!("../../strategies/mcts-200-beam.toml"),
    ),
    (
        "mcts-200-beyond",
        include_str!("../../strategies/mcts-200-beyond.toml"),
    ),
    (
        "mcts-200-buried",
        include_str!("../../strategies/mcts-200-buried.toml"),
    ),
    (
        "mcts-200-clairvoyant",
        include_str!("../../strategies/mcts-200-clairvoyant.toml"),
    ),
    (
        "mcts-200-gods",
        include_str!("../../strategies/mcts-200-gods.toml"),
    ),
    (
        "mcts-200-gods-closed",
        include_str!("../../strategies/mcts-200-gods-closed.toml"),
    ),
    (
        "mcts-200-gods-flat",
        include_str!("../../strategies/mcts-200-gods-flat.toml"),
    ),
    (
        "mcts-200-gods-prior",
        include_str!("../../strategies/mcts-200-gods-prior.toml"),
    ),
    (
        "mcts-200-prior",
        include_str!("../../strategies/mcts-200-prior.toml"),
    ),
    ("mcts-3000", include_str!("../../strategies/mcts-3000.toml")),
    (
        "mcts-3000-gods-prior",
        include_str!("../../strategies/mcts-3000-gods-prior.toml"),
    ),
    (
        "mcts-beyond",
        include_str!("../../strategies/mcts-beyond.toml"),
    ),
    (
        "mcts-beyond-cheat",
        include_str!("../../strategies/mcts-beyond-cheat.toml"),
    ),
    (
        "mcts-beyond-deep",
        include_str!("../../strategies/mcts-beyond-deep.toml"),
    ),
    (
        "mcts-beyond-deep-cheat",
        include_str!("../../strategies/mcts-beyond-deep-cheat.toml"),
    ),
    (
        "mcts-beyond-round",
        include_str!("../../strategies/mcts-beyond-round.toml"),
    ),
    (
        "mcts-beyond-round-cheat",
        include_str!("../../strategies/mcts-beyond-round-cheat.toml"),
    ),
    ("random", include_str!("../../strategies/random.toml")),
];

const KINDS: &[&str] = &["random", "greedy", "mcts", "beam"];
const RANDOM_KEYS: &[&str] = &["kind"];
const GREEDY_KEYS: &[&str] = &["kind", "samples", "weights"];
const BEAM_KEYS: &[&str] = &["kind", "width", "depth", "samples", "weights"];
const MCTS_KEYS: &[&str] = &[
    "kind",
    "iterations",
    "exploration",
    "rollout",
    "rollout_depth",
    "rollout_samples",
    "rollout_width",
    "weights",
    "widening",
    "stop_at_chance",
    "see_hidden",
    "clairvoyant",
    "prior_visits",
    "chance_outcomes",
    "tree_depth",
    "rollout_turns",
];
/// Keys a kind takes that may be left out (they default to the search of earlier versions).
const OPTIONAL_KEYS: &[&str] = &[
    "rollout_samples",
    "rollout_width",
    "widening",
    "stop_at_chance",
    "see_hidden",
    "clairvoyant",
    "prior_visits",
    "chance_outcomes",
    "tree_depth",
    "rollout_turns",
];

/// The games a `[weights.<game>]` table may name: the registry's ([`GameKind::ALL`], in its
/// order) and the test fixture [`Race`], which is not in the registry but which every shipped
/// strategy weighs (the lab's and the policies' tests play it).
const WEIGHT_GAMES: [&str; GameKind::ALL.len() + 1] = {
    let mut games = [Race::NAME; GameKind::ALL.len() + 1];
    let mut i = 0;
    while i < GameKind::ALL.len() {
        games[i] = GameKind::ALL[i].name();
        i += 1;
    }
    games
};

/// Why `name` cannot name a strategy, or `None` when it can: a strategy's name is the stem of
/// its file in `strategies/`, a plain name ([`input::is_plain_name`]: letters, digits, `-`,
/// `_`, `.`), never a path. One line, for experiment files and the command line alike.
pub fn strategy_name_problem(name: &str) -> Option<String> {
    (!input::is_plain_name(name)).then(|| {
        format!(
            "strategy '{name}' must be a plain name, a file stem in strategies/ ({})",
            input::PLAIN_NAME_CHARS
        )
    })
}

impl Strategy {
    /// Reads and validates the strategy in `text`, named `name`; `origin` says where the text
    /// came from in error messages (a path).
    ///
    /// # Errors
    /// A one-line [`StrategyError`]: [`Syntax`](StrategyErrorKind::Syntax) with the 1-based
    /// line and column for invalid TOML; otherwise naming the key: an unknown kind, a key the
    /// kind does not take, a missing key, a value of the wrong type or out of range, a weight
    /// table for a game that does not exist ([`UnknownGame`](StrategyErrorKind::UnknownGame)).
    pub fn parse(name: &str, origin: &str, text: &str) -> Result<Strategy, StrategyError> {
        let text = input::strip_bom(text);
        if let Some((span, message)) = input::integer_out_of_range(text) {
            let (line, column) = input::line_column(text, span.start);
            return Err(StrategyError {
                origin: origin.to_string(),
                at: None,
                kind: StrategyErrorKind::Syntax {
                    line,
                    column,
                    message,
                },
            });
        }
        let table: Table = toml::from_str(text).map_err(|e| syntax_error(origin, text, &e))?;
        let r = Reader {
            origin,
            table: &table,
            text,
        };
        let kind_name = match table.get("kind") {
            None => {
                return Err(r.error(StrategyErrorKind::MissingKey {
                    key: "kind".into(),
                    needed_by: "every strategy".into(),
                }));
            }
            Some(Value::String(s)) => s.as_str(),
            Some(v) => return Err(r.wrong_type("kind", "a string", v)),
        };
        let keys = match kind_name {
            "random" => RANDOM_KEYS,
            "greedy" => GREEDY_KEYS,
            "mcts" => MCTS_KEYS,
            "beam" => BEAM_KEYS,
            other => {
                return Err(r.error(StrategyErrorKind::UnknownKind {
                    found: other.to_string(),
                }));
            }
        };
        let kind_name = KINDS
            .iter()
            .copied()
            .find(|k| *k == kind_name)
            .expect("matched above");
        if let Some(key) = table.keys().find(|k| !keys.contains(&k.as_str())) {
            return Err(r.error(StrategyErrorKind::UnknownKey {
                key: key.clone(),
                kind: kind_name,
                valid: keys,
            }));
        }
        for key in keys {
            if !table.contains_key(*key) && !OPTIONAL_KEYS.contains(key) {
                return Err(r.error(StrategyErrorKind::MissingKey {
                    key: key.to_string(),
                    needed_by: format!("kind \"{kind_name}\""),
                }));
            }
        }
        let kind = match kind_name {
            "random" => StrategyKind::Random,
            "greedy" => StrategyKind::Greedy {
                samples: r.integer("samples", 1, MAX_SAMPLES, "an integer in 1..=10000")?,
                weights: r.weights()?,
            },
            "beam" => StrategyKind::Beam {
                width: r.integer("width", 1, MAX_WIDTH, "an integer in 1..=100000")?,
                depth: r.integer("depth", 1, MAX_DEPTH, "an integer in 1..=10000")?,
                samples: r.integer("samples", 1, MAX_SAMPLES, "an integer in 1..=10000")?,
                weights: r.weights()?,
            },
            _ => StrategyKind::Mcts {
                config: MctsConfig {
                    iterations: r.integer(
                        "iterations",
                        1,
                        MAX_ITERATIONS,
                        "an integer in 1..=10000000",
                    )?,
                    exploration: r.exploration()?,
                    rollout: r.rollout()?,
                    rollout_depth: r.integer(
                        "rollout_depth",
                        1,
                        u32::MAX,
                        "an integer in 1..=4294967295",
                    )?,
                    rollout_samples: r.rollout_samples()?,
                    rollout_width: r.rollout_width()?,
                    widening: r.widening()?,
                    stop_at_chance: r.flag("stop_at_chance")?,
                    see_hidden: r.flag("see_hidden")?,
                    clairvoyant: r.flag("clairvoyant")?,
                    prior_visits: r.prior_visits()?,
                    chance_outcomes: r.chance_outcomes()?,
                    tree_depth: r.optional_integer(
                        "tree_depth",
                        u32::MAX,
                        1,
                        u32::MAX,
                        "an integer in 1..=4294967295",
                    )?,
                    rollout_turns: r.optional_integer(
                        "rollout_turns",
                        0,
                        0,
                        1000,
                        "an integer in 0..=1000",
                    )?,
                },
                weights: r.weights()?,
            },
        };
        let mut positions = BTreeMap::new();
        if let StrategyKind::Greedy { weights, .. }
        | StrategyKind::Beam { weights, .. }
        | StrategyKind::Mcts { weights, .. } = &kind
        {
            for (game, features) in weights {
                for feature in features.keys() {
                    if let Some(at) = r.position(&["weights", game, feature]) {
                        positions.insert(format!("weights.{game}.{feature}"), at);
                    }
                }
            }
        }
        Ok(Strategy {
            name: name.to_string(),
            kind,
            origin: origin.to_string(),
            positions,
        })
    }

    /// Reads the strategy file at `path`; its name is the file stem.
    ///
    /// # Errors
    /// [`Read`](StrategyErrorKind::Read) when `path` is not a file (a directory, say) or cannot
    /// be read, else as [`Strategy::parse`].
    pub fn load(path: &Path) -> Result<Strategy, StrategyError> {
        let origin = path.display().to_string();
        let read_error = |message: String| StrategyError {
            origin: origin.clone(),
            at: None,
            kind: StrategyErrorKind::Read { message },
        };
        // Not opened unless it is a file: a directory reads as an OS error, a FIFO would block.
        match std::fs::metadata(path) {
            Ok(m) if m.is_file() => {}
            Ok(m) if m.is_dir() => {
                return Err(read_error("is a directory, not a strategy file".into()));
            }
            Ok(_) => return Err(read_error("not a regular file".into())),
            Err(e) => return Err(read_error(e.to_string())),
        }
        let text = crate::input::read_text(path).map_err(|e| match e.line_column() {
            Some((line, column)) => StrategyError {
                origin: origin.clone(),
                at: None,
                kind: StrategyErrorKind::Syntax {
                    line,
                    column,
                    message: e.to_string(),
                },
            },
            None => read_error(e.to_string()),
        })?;
        let name = path
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default();
        Strategy::parse(&name, &origin, &text)
    }

    /// The strategy `name`: the file `dir/<name>.toml` if it exists, else the shipped strategy
    /// of that name (see [`strategy_names`]). Whatever is at `dir/<name>.toml` overrides the
    /// shipped strategy: a directory or a dangling link there is an error, not the shipped one.
    ///
    /// # Errors
    /// [`BadName`](StrategyErrorKind::BadName) when `name` is not a plain name
    /// ([`strategy_name_problem`]); [`NotFound`](StrategyErrorKind::NotFound), listing the
    /// available names, when neither exists; else as [`Strategy::load`].
    pub fn named(name: &str, dir: &Path) -> Result<Strategy, StrategyError> {
        if let Some(message) = strategy_name_problem(name) {
            return Err(StrategyError {
                origin: dir.display().to_string(),
                at: None,
                kind: StrategyErrorKind::BadName { message },
            });
        }
        let path = dir.join(format!("{name}.toml"));
        // Anything there (followed or not) is the override; only "nothing there" (or `dir` not
        // a folder) falls back to the shipped strategy.
        let present = match std::fs::symlink_metadata(&path) {
            Ok(_) => true,
            Err(e) => !matches!(
                e.kind(),
                std::io::ErrorKind::NotFound | std::io::ErrorKind::NotADirectory
            ),
        };
        if present {
            return Strategy::load(&path);
        }
        if let Some((_, text)) = SHIPPED.iter().find(|(n, _)| *n == name) {
            return Strategy::parse(name, &format!("strategies/{name}.toml (built in)"), text);
        }
        Err(StrategyError {
            origin: path.display().to_string(),
            at: None,
            kind: StrategyErrorKind::NotFound {
                name: name.to_string(),
                available: strategy_names(dir),
            },
        })
    }

    /// Builds a fresh policy for game `G` (one per thread or game: policies keep buffers).
    ///
    /// # Errors
    /// For greedy, beam and mcts: [`MissingKey`](StrategyErrorKind::MissingKey) `weights.<game>`
    /// when the file has no weight table for `G`, and
    /// [`UnknownFeature`](StrategyErrorKind::UnknownFeature) `weights.<game>.<feature>` for a
    /// name not in [`Game::FEATURE_NAMES`].
    pub fn build<G: Game>(&self) -> Result<Box<dyn Policy<G>>, StrategyError> {
        Ok(match &self.kind {
            StrategyKind::Random => Box::new(RandomPolicy),
            StrategyKind::Greedy { samples, weights } => Box::new(GreedyPolicy::<G>::new(
                self.weights_for::<G>(weights)?,
                *samples,
            )),
            StrategyKind::Beam {
                width,
                depth,
                samples,
                weights,
            } => Box::new(BeamPolicy::<G>::new(
                self.weights_for::<G>(weights)?,
                *width,
                *depth,
                *samples,
            )),
            StrategyKind::Mcts { config, weights } => Box::new(MctsPolicy::<G>::new(
                *config,
                self.weights_for::<G>(weights)?,
            )),
        })
    }

    /// `G`'s weights from `weights`, indexed like [`Game::FEATURE_NAMES`] (absent ones 0).
    fn weights_for<G: Game>(&self, weights: &Weights) -> Result<Vec<f64>, StrategyError> {
        let error = |kind: StrategyErrorKind| StrategyError {
            origin: self.origin.clone(),
            at: kind_key(&kind).and_then(|k| self.positions.get(k).copied()),
            kind,
        };
        let table = weights.get(G::NAME).ok_or_else(|| {
            error(StrategyErrorKind::MissingKey {
                key: format!("weights.{}", G::NAME),
                needed_by: format!("game {}", G::NAME),
            })
        })?;
        let names = G::FEATURE_NAMES;
        let mut out = vec![0.0; names.len()];
        for (feature, &w) in table {
            let i = names.iter().position(|n| n == feature).ok_or_else(|| {
                error(StrategyErrorKind::UnknownFeature {
                    key: format!("weights.{}.{feature}", G::NAME),
                    game: G::NAME,
                    valid: names,
                })
            })?;
            out[i] = w;
        }
        Ok(out)
    }
}

/// The strategy names available with `dir`: the stems of the `*.toml` entries in `dir` plus
/// the shipped ones, sorted and without duplicates. An entry that is not a readable file (a
/// directory, say) or whose stem is not a plain name is listed too, so that `list strategies`
/// shows it as invalid ([`Strategy::named`] refuses it). An unreadable or missing `dir` lists
/// the shipped ones.
pub fn strategy_names(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = SHIPPED.iter().map(|(n, _)| n.to_string()).collect();
    if let Ok(entries) = std::fs::read_dir(dir) {
        for entry in entries.flatten() {
            let path = entry.path();
            if path.extension().is_some_and(|e| e == "toml")
                && let Some(stem) = path.file_stem()
            {
                names.push(stem.to_string_lossy().into_owned());
            }
        }
    }
    names.sort();
    names.dedup();
    names
}

/// An error reading a strategy: where ([`origin`](StrategyError::origin) and the line and
/// column) and what. Its `Display` is one line: `origin:line:column: key 'k': message` (the
/// value's place; the file alone when the key is absent), `origin:line:column: message` for
/// TOML syntax, or the message alone for a [`BadName`](StrategyErrorKind::BadName).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StrategyError {
    /// The file (path, or `strategies/<name>.toml (built in)`); for
    /// [`NotFound`](StrategyErrorKind::NotFound), the path that was tried; for
    /// [`BadName`](StrategyErrorKind::BadName), the folder.
    pub origin: String,
    /// The 1-based line and column of the value the error is about, when it is in the file
    /// (not for [`Syntax`](StrategyErrorKind::Syntax), which carries its own).
    pub at: Option<(usize, usize)>,
    /// What was wrong.
    pub kind: StrategyErrorKind,
}

/// What was wrong with a strategy. Keys are dotted paths (`weights.rift.foo`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StrategyErrorKind {
    /// The file could not be read.
    Read {
        /// The IO error.
        message: String,
    },
    /// A name that is not a plain name ([`strategy_name_problem`]); no file was tried.
    BadName {
        /// What is wrong with it (one line, naming it).
        message: String,
    },
    /// No such file and no shipped strategy of that name.
    NotFound {
        /// The name asked for.
        name: String,
        /// The names that exist ([`strategy_names`]).
        available: Vec<String>,
    },
    /// Invalid TOML.
    Syntax {
        /// 1-based line.
        line: usize,
        /// 1-based column, in characters.
        column: usize,
        /// The parser's message.
        message: String,
    },
    /// `kind` names no policy kind.
    UnknownKind {
        /// The value found.
        found: String,
    },
    /// A key the kind does not take.
    UnknownKey {
        /// The key.
        key: String,
        /// The strategy's kind.
        kind: &'static str,
        /// The keys that kind takes.
        valid: &'static [&'static str],
    },
    /// A required key is absent.
    MissingKey {
        /// The key.
        key: String,
        /// What needs it (`kind "mcts"`, `game rift`).
        needed_by: String,
    },
    /// A value of the wrong TOML type.
    WrongType {
        /// The key.
        key: String,
        /// What was expected (`an integer`).
        expected: &'static str,
        /// The TOML type found (`string`; shown with its article).
        found: &'static str,
    },
    /// A value of the right type but not allowed.
    BadValue {
        /// The key.
        key: String,
        /// The value, as written.
        value: String,
        /// What is allowed.
        expected: &'static str,
    },
    /// A weight table names no game: not one of the registry ([`GameKind`]) nor the test
    /// fixture `race`.
    UnknownGame {
        /// The key (`weights.chess`).
        key: String,
        /// The games a weight table may name.
        valid: &'static [&'static str],
    },
    /// A weight names no feature of the game.
    UnknownFeature {
        /// The key (`weights.rift.foo`).
        key: String,
        /// The game.
        game: &'static str,
        /// The game's features.
        valid: &'static [&'static str],
    },
}

impl StrategyError {
    /// The dotted key the error is about, if any.
    pub fn key(&self) -> Option<&str> {
        kind_key(&self.kind)
    }
}

fn kind_key(kind: &StrategyErrorKind) -> Option<&str> {
    {
        match kind {
            StrategyErrorKind::UnknownKind { .. } => Some("kind"),
            StrategyErrorKind::UnknownKey { key, .. }
            | StrategyErrorKind::MissingKey { key, .. }
            | StrategyErrorKind::WrongType { key, .. }
            | StrategyErrorKind::BadValue { key, .. }
            | StrategyErrorKind::UnknownGame { key, .. }
            | StrategyErrorKind::UnknownFeature { key, .. } => Some(key),
            StrategyErrorKind::Read { .. }
            | StrategyErrorKind::BadName { .. }
            | StrategyErrorKind::NotFound { .. }
            | StrategyErrorKind::Syntax { .. } => None,
        }
    }
}

impl fmt::Display for StrategyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use StrategyErrorKind as K;
        let origin = match self.at {
            Some((line, column)) => format!("{}:{line}:{column}", self.origin),
            None => self.origin.clone(),
        };
        match &self.kind {
            K::Read { message } => write!(f, "{origin}: cannot read: {message}"),
            // The name is the whole story: no file was tried.
            K::BadName { message } => f.write_str(message),
            K::NotFound { name, available } => write!(
                f,
                "{origin}: no such file and no shipped strategy '{name}' (available: {})",
                available.join(", ")
            ),
            K::Syntax {
                line,
                column,
                message,
            } => {
                write!(f, "{origin}:{line}:{column}: {message}")
            }
            K::UnknownKind { found } => write!(
                f,
                "{origin}: key 'kind': unknown kind \"{found}\" (valid: {})",
                KINDS.join(", ")
            ),
            K::UnknownKey { key, kind, valid } => write!(
                f,
                "{origin}: key '{key}': unknown key for kind \"{kind}\" (valid: {})",
                valid.join(", ")
            ),
            K::MissingKey { key, needed_by } => {
                write!(
                    f,
                    "{origin}: key '{key}': missing (required by {needed_by})"
                )
            }
            K::WrongType {
                key,
                expected,
                found,
            } => {
                write!(
                    f,
                    "{origin}: key '{key}': expected {expected}, found {}",
                    input::with_article(found)
                )
            }
            K::BadValue {
                key,
                value,
                expected,
            } => {
                write!(
                    f,
                    "{origin}: key '{key}': {value} is not allowed (expected {expected})"
                )
            }
            K::UnknownGame { key, valid } => write!(
                f,
                "{origin}: key '{key}': unknown game (valid: {})",
                valid.join(", ")
            ),
            K::UnknownFeature { key, game, valid } => write!(
                f,
                "{origin}: key '{key}': unknown feature of game {game} (valid: {})",
                valid.join(", ")
            ),
        }
    }
}

impl std::error::Error for StrategyError {}

/// Turns a TOML error into `origin:line:column: message` (1-based, one line).
fn syntax_error(origin: &str, text: &str, e: &toml::de::Error) -> StrategyError {
    let (line, column) = input::line_column(text, e.span().map_or(0, |s| s.start));
    let message = e.message().split_whitespace().collect::<Vec<_>>().join(" ");
    StrategyError {
        origin: origin.to_string(),
        at: None,
        kind: StrategyErrorKind::Syntax {
            line,
            column,
            message,
        },
    }
}

/// Typed access to the top-level table of one file, with errors naming the key.
struct Reader<'a> {
    origin: &'a str,
    table: &'a Table,
    /// The file's text (without a byte-order mark), for the place of a value.
    text: &'a str,
}

impl Reader<'_> {
    /// An error about `kind`'s key, at that key's value in the file.
    fn error(&self, kind: StrategyErrorKind) -> StrategyError {
        let at = match &kind {
            // A missing key has no place; the file is named.
            StrategyErrorKind::MissingKey { .. } => None,
            _ => kind_key(&kind).and_then(|k| {
                let path: Vec<&str> = k.split('.').collect();
                self.position(&path)
            }),
        };
        StrategyError {
            origin: self.origin.to_string(),
            at,
            kind,
        }
    }

    /// The line and column of the value at `path` (keys; the key itself for a table).
    fn position(&self, path: &[&str]) -> Option<(usize, usize)> {
        input::value_span(self.text, path).map(|s| input::line_column(self.text, s.start))
    }

    fn wrong_type(&self, key: &str, expected: &'static str, found: &Value) -> StrategyError {
        self.error(StrategyErrorKind::WrongType {
            key: key.to_string(),
            expected,
            found: found.type_str(),
        })
    }

    fn bad_value(
        &self,
        key: &str,
        value: impl fmt::Display,
        expected: &'static str,
    ) -> StrategyError {
        self.error(StrategyErrorKind::BadValue {
            key: key.to_string(),
            value: value.to_string(),
            expected,
        })
    }

    /// An integer in `min..=max`; the key is known to be present.
    fn integer(
        &self,
        key: &str,
        min: u32,
        max: u32,
        expected: &'static str,
    ) -> Result<u32, StrategyError> {
        match &self.table[key] {
            Value::Integer(v) if (min as i64..=max as i64).contains(v) => Ok(*v as u32),
            Value::Integer(v) => Err(self.bad_value(key, v, expected)),
            v => Err(self.wrong_type(key, "an integer", v)),
        }
    }

    /// An integer in `min..=max`, or `default` when the key is absent.
    fn optional_integer(
        &self,
        key: &str,
        default: u32,
        min: u32,
        max: u32,
        expected: &'static str,
    ) -> Result<u32, StrategyError> {
        if self.table.contains_key(key) {
            self.integer(key, min, max, expected)
        } else {
            Ok(default)
        }
    }

    fn exploration(&self) -> Result<f64, StrategyError> {
        const EXPECTED: &str = "a finite number >= 0";
        let v = match &self.table["exploration"] {
            Value::Float(v) => *v,
            Value::Integer(v) => *v as f64,
            v => return Err(self.wrong_type("exploration", "a number", v)),
        };
        if v.is_finite() && v >= 0.0 {
            Ok(v)
        } else {
            Err(self.bad_value("exploration", v, EXPECTED))
        }
    }

    /// `rollout_samples`, 1 when absent.
    fn rollout_samples(&self) -> Result<u32, StrategyError> {
        self.optional_integer(
            "rollout_samples",
            1,
            1,
            MAX_SAMPLES,
            "an integer in 1..=10000",
        )
    }

    /// `rollout_width`: an integer in `1..=100000`, 200 when absent; refused unless
    /// `rollout = "beam"` (no other rollout has a width), and with `clairvoyant = true` (the
    /// clairvoyant search's rollouts look ahead on the true dice, which the beam does not).
    fn rollout_width(&self) -> Result<u32, StrategyError> {
        let w = self.optional_integer(
            "rollout_width",
            DEFAULT_ROLLOUT_WIDTH,
            1,
            MAX_WIDTH,
            "an integer in 1..=100000",
        )?;
        let beam = self.rollout()? == Rollout::Beam;
        if !beam && self.table.contains_key("rollout_width") {
            return Err(self.bad_value(
                "rollout_width",
                w,
                "no value unless rollout = \"beam\" (only a beam rollout has a width)",
            ));
        }
        if beam && self.flag("clairvoyant")? {
            return Err(self.bad_value(
                "rollout",
                "\"beam\"",
                "\"random\" or \"greedy\" when clairvoyant is true (a beam rollout does not see the true dice)",
            ));
        }
        Ok(w)
    }

    /// `widening`: a finite number >= 0, 0 when absent.
    fn widening(&self) -> Result<f64, StrategyError> {
        let v = match self.table.get("widening") {
            None => return Ok(0.0),
            Some(Value::Float(v)) => *v,
            Some(Value::Integer(v)) => *v as f64,
            Some(v) => return Err(self.wrong_type("widening", "a number", v)),
        };
        if v.is_finite() && v >= 0.0 {
            Ok(v)
        } else {
            Err(self.bad_value("widening", v, "a finite number >= 0"))
        }
    }

    /// `prior_visits`: an integer in `0..=100000`, 0 (off) when absent; refused with a
    /// non-zero `widening` (the two open a node's children by different rules).
    fn prior_visits(&self) -> Result<u32, StrategyError> {
        let k = self.optional_integer("prior_visits", 0, 0, 100_000, "an integer in 0..=100000")?;
        if k > 0 && self.widening()? > 0.0 {
            return Err(self.bad_value(
                "prior_visits",
                k,
                "0 when widening is on (prior_visits and widening exclude each other)",
            ));
        }
        Ok(k)
    }

    /// `chance_outcomes`: an integer in `0..=1000`, 0 (open loop) when absent; refused with
    /// `stop_at_chance = true` (a tree that ends at chance has no outcomes to tell apart).
    fn chance_outcomes(&self) -> Result<u32, StrategyError> {
        let k = self.optional_integer("chance_outcomes", 0, 0, 1000, "an integer in 0..=1000")?;
        if k > 0 && self.flag("stop_at_chance")? {
            return Err(self.bad_value(
                "chance_outcomes",
                k,
                "0 when stop_at_chance is true (chance_outcomes and stop_at_chance exclude each other)",
            ));
        }
        Ok(k)
    }

    /// A boolean key, `false` when absent.
    fn flag(&self, key: &str) -> Result<bool, StrategyError> {
        match self.table.get(key) {
            None => Ok(false),
            Some(Value::Boolean(b)) => Ok(*b),
            Some(v) => Err(self.wrong_type(key, "a boolean", v)),
        }
    }

    fn rollout(&self) -> Result<Rollout, StrategyError> {
        match &self.table["rollout"] {
            Value::String(s) if s == "random" => Ok(Rollout::Random),
            Value::String(s) if s == "greedy" => Ok(Rollout::Greedy),
            Value::String(s) if s == "beam" => Ok(Rollout::Beam),
            Value::String(s) => Err(self.bad_value(
                "rollout",
                format!("\"{s}\""),
                "\"random\", \"greedy\" or \"beam\"",
            )),
            v => Err(self.wrong_type("rollout", "a string", v)),
        }
    }

    fn weights(&self) -> Result<Weights, StrategyError> {
        let games = match &self.table["weights"] {
            Value::Table(t) => t,
            v => return Err(self.wrong_type("weights", "a table of games", v)),
        };
        let mut weights = Weights::new();
        for (game, features) in games {
            let key = format!("weights.{game}");
            if !WEIGHT_GAMES.contains(&game.as_str()) {
                // Placed by the path itself: a quoted game name may hold a dot.
                return Err(StrategyError {
                    origin: self.origin.to_string(),
                    at: self.position(&["weights", game]),
                    kind: StrategyErrorKind::UnknownGame {
                        key,
                        valid: &WEIGHT_GAMES,
                    },
                });
            }
            let features = match features {
                Value::Table(t) => t,
                v => return Err(self.wrong_type(&key, "a table of feature weights", v)),
            };
            let mut table = BTreeMap::new();
            for (feature, w) in features {
                let key = format!("weights.{game}.{feature}");
                let w = match w {
                    Value::Float(v) => *v,
                    Value::Integer(v) => *v as f64,
                    v => return Err(self.wrong_type(&key, "a number", v)),
                };
                if !w.is_finite() {
                    return Err(self.bad_value(&key, w, "a finite number"));
                }
                table.insert(feature.clone(), w);
            }
            weights.insert(game.clone(), table);
        }
        Ok(weights)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::race::Race;

    #[test]
    fn every_shipped_strategy_parses_and_names_its_kind() {
        let kinds: Vec<(&str, &str)> = SHIPPED
            .iter()
            .map(|(name, text)| {
                let s = Strategy::parse(name, name, text).unwrap_or_else(|e| panic!("{e}"));
                (*name, s.kind.name())
            })
            .collect();
        assert_eq!(
            kinds,
            [
                ("beam-1000", "beam"),
                ("beam-200", "beam"),
                ("greedy", "greedy"),
                ("mcts-1000", "mcts"),
                ("mcts-1000-beyond", "mcts"),
                ("mcts-1000-beyond-two-rounds", "mcts"),
                ("mcts-1000-buried", "mcts"),
                ("mcts-1000-gods", "mcts"),
                ("mcts-1000-gods-closed", "mcts"),
                ("mcts-1000-gods-flat", "mcts"),
                ("mcts-1000-gods-flat-tuned", "mcts"),
                ("mcts-1000-gods-prior", "mcts"),
                ("mcts-1000-prior", "mcts"),
                ("mcts-200", "mcts"),
                ("mcts-200-beam", "mcts"),
                ("mcts-200-beyond", "mcts"),
                ("mcts-200-buried", "mcts"),
                ("mcts-200-clairvoyant", "mcts"),
                ("mcts-200-gods", "mcts"),
                ("mcts-200-gods-closed", "mcts"),
                ("mcts-200-gods-flat", "mcts"),
                ("mcts-200-gods-prior", "mcts"),
                ("mcts-200-prior", "mcts"),
                ("mcts-3000", "mcts"),
                ("mcts-3000-gods-prior", "mcts"),
                ("mcts-beyond", "mcts"),
                ("mcts-beyond-cheat", "mcts"),
                ("mcts-beyond-deep", "mcts"),
                ("mcts-beyond-deep-cheat", "mcts"),
                ("mcts-beyond-round", "mcts"),
                ("mcts-beyond-round-cheat", "mcts"),
                ("random", "random")
            ]
        );
    }

    #[test]
    fn decision_cost_counts_the_moves_a_decision_plays_or_scores() {
        let kind = |text: &str| {
            Strategy::parse(
                "x",
                "x.toml",
                &format!("{text}[weights.race]\nposition = 1.0\n"),
            )
            .unwrap_or_else(|e| panic!("{e}"))
            .kind
        };
        let mcts = |rollout: &str, depth: u32, samples: u32| {
            kind(&format!(
                "kind = \"mcts\"\niterations = 10\nexploration = 1.0\nrollout = \"{rollout}\"\n\
                 rollout_depth = {depth}\nrollout_samples = {samples}\n"
            ))
            .decision_cost()
        };
        assert_eq!(StrategyKind::Random.decision_cost(), 1);
        assert_eq!(
            kind("kind = \"greedy\"\nsamples = 3\n").decision_cost(),
            3 * 32
        );
        let beam = "kind = \"beam\"\nwidth = 10\ndepth = 5\nsamples = 2\n";
        assert_eq!(kind(beam).decision_cost(), 10 * 32);
        // Random rollouts: a move a rollout decision; greedy ones score 32 candidates a sample.
        assert_eq!(mcts("random", 7, 1), 10 * 7);
        assert_eq!(mcts("greedy", 7, 2), 10 * 7 * 2 * 32);
        // Beam rollouts: a beam decision a rollout decision, `rollout_width` states a depth
        // scored over the samples (the default width is 200).
        assert_eq!(mcts("beam", 7, 2), 10 * 7 * 200 * 2 * 32);
        // A search cut off at once (not a valid file, but a valid value) still costs its
        // iterations.
        let cut = StrategyKind::Mcts {
            config: MctsConfig {
                iterations: 10,
                rollout: Rollout::Random,
                rollout_depth: 0,
                ..MctsConfig::default()
            },
            weights: Weights::new(),
        };
        assert_eq!(cut.decision_cost(), 10);
        // The dearest shipped search stays finite and above the chunk's 4,096.
        let deep = Strategy::named("mcts-3000-gods-prior", Path::new("/nonexistent")).unwrap();
        assert_eq!(deep.kind.decision_cost(), 3000 * 40 * 4 * 32);
    }

    #[test]
    fn shipped_mcts_budgets_are_as_named() {
        for (name, iterations) in [
            ("mcts-200", 200),
            ("mcts-1000", 1000),
            ("mcts-3000", 3000),
            ("mcts-200-gods", 200),
            ("mcts-1000-gods", 1000),
            ("mcts-200-gods-prior", 200),
            ("mcts-1000-gods-prior", 1000),
            ("mcts-200-prior", 200),
            ("mcts-200-beam", 200),
            ("mcts-1000-prior", 1000),
            ("mcts-3000-gods-prior", 3000),
            ("mcts-200-beyond", 200),
            ("mcts-1000-beyond", 1000),
            ("mcts-1000-beyond-two-rounds", 1000),
            ("mcts-1000-gods-flat-tuned", 1000),
        ] {
            let s = Strategy::named(name, Path::new("/nonexistent")).unwrap();
            match s.kind {
                StrategyKind::Mcts { config, .. } => assert_eq!(config.iterations, iterations),
                other => panic!("{other:?}"),
            }
        }
    }

    /// The search settings and weights of the shipped MCTS strategy `name`.
    fn search(name: &str) -> (MctsConfig, Weights) {
        match Strategy::named(name, Path::new("/nonexistent"))
            .unwrap()
            .kind
        {
            StrategyKind::Mcts { config, weights } => (config, weights),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn the_two_round_search_is_mcts_1000_beyond_with_a_second_round() {
        let (one, one_weights) = search("mcts-1000-beyond");
        let (two, two_weights) = search("mcts-1000-beyond-two-rounds");
        assert_eq!((one.rollout_turns, two.rollout_turns), (1, 2));
        assert_eq!(
            MctsConfig {
                rollout_turns: 1,
                ..two
            },
            one
        );
        assert_eq!(one_weights, two_weights);
    }

    #[test]
    fn the_tuned_flat_search_is_mcts_1000_gods_flat_with_tuned_gods_weights() {
        let (flat, flat_weights) = search("mcts-1000-gods-flat");
        let (tuned, tuned_weights) = search("mcts-1000-gods-flat-tuned");
        assert_eq!(tuned, flat);
        assert_eq!((tuned.tree_depth, tuned.iterations), (1, 1000));
        for game in ["race", "rift", "buried", "beyond"] {
            assert_eq!(tuned_weights.get(game), flat_weights.get(game), "{game}");
        }
        // The three weights `sololab tune` changed on brute_hunt (the strategy file's header).
        let gods = |w: &Weights, feature: &str| w["gods"][feature];
        for (feature, before, after) in [
            ("wounds_left", 3.0, 1.5),
            ("face_up", -1.0, 1.0),
            ("hand", 0.3, -0.3),
        ] {
            assert_eq!(gods(&flat_weights, feature), before, "{feature}");
            assert_eq!(gods(&tuned_weights, feature), after, "{feature}");
        }
    }

    #[test]
    fn syntax_errors_give_line_and_column() {
        let e = Strategy::parse("x", "x.toml", "kind = \"random\"\nfoo = = 1\n").unwrap_err();
        match &e.kind {
            StrategyErrorKind::Syntax { line, column, .. } => assert_eq!((*line, *column), (2, 7)),
            other => panic!("{other:?}"),
        }
        assert!(e.to_string().starts_with("x.toml:2:7: "), "{e}");
        assert!(!e.to_string().contains('\n'), "{e}");
    }

    #[test]
    fn weights_resolve_by_feature_name_and_default_to_zero() {
        let text = "kind = \"greedy\"\nsamples = 1\n[weights.race]\nturns_left = 2\n";
        let s = Strategy::parse("g", "g.toml", text).unwrap();
        let StrategyKind::Greedy { weights, .. } = &s.kind else {
            panic!()
        };
        assert_eq!(s.weights_for::<Race>(weights).unwrap(), vec![0.0, 2.0]);
    }

    #[test]
    fn weight_tables_name_the_registry_s_games_or_the_race_fixture() {
        assert_eq!(WEIGHT_GAMES, ["rift", "buried", "beyond", "gods", "race"]);
        let text = "kind = \"greedy\"\nsamples = 1\n[weights.race]\n[weights.chess]\nx = 1\n";
        let e = Strategy::parse("g", "g.toml", text).unwrap_err();
        assert_eq!(
            e.kind,
            StrategyErrorKind::UnknownGame {
                key: "weights.chess".into(),
                valid: &WEIGHT_GAMES,
            }
        );
        assert_eq!(
            e.to_string(),
            "g.toml:4:1: key 'weights.chess': unknown game (valid: rift, buried, beyond, gods, race)"
        );
    }

    #[test]
    fn strategy_names_are_plain_names() {
        for (name, _) in SHIPPED {
            assert_eq!(strategy_name_problem(name), None, "{name}");
        }
        assert_eq!(
            strategy_name_problem("../strategies/greedy").as_deref(),
            Some(
                "strategy '../strategies/greedy' must be a plain name, a file stem in \
                 strategies/ (letters, digits, '-', '_', '.')"
            )
        );
        let e = Strategy::named("a/b", Path::new("/nonexistent")).unwrap_err();
        assert!(matches!(e.kind, StrategyErrorKind::BadName { .. }), "{e:?}");
        assert_eq!(e.key(), None);
    }
}
