//! The one seam every game plugs into: the [`Game`] trait, its outcome and setup types, the
//! seed streams, and the trace hook used by `sololab play`.
//!
//! A game, seen from the player, is a single-agent stochastic decision process: the rules' own
//! opponent and every die roll and card draw run inside [`Game::apply`], up to the next decision
//! of the player. Chance always comes from the generator passed in, never from one stored in the
//! state, so a search can simulate futures with its own generator (DESIGN.md, "The Game trait").

use std::collections::BTreeMap;
use std::fmt;

use rand::SeedableRng;

/// The generator every game, policy and search draws from: PCG 128-bit MCG with 64-bit output
/// (16 bytes of state, fast to copy).
pub type GameRng = rand_pcg::Pcg64Mcg;

/// How a finished game ended.
///
/// `Lost` carries the index of its cause in [`Game::LOSS_CAUSES`] (`0..LOSS_CAUSES.len()`).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Outcome {
    /// The player won.
    Won,
    /// The player lost; the value indexes [`Game::LOSS_CAUSES`].
    Lost(u8),
}

impl Outcome {
    /// `true` for [`Outcome::Won`].
    pub const fn is_win(self) -> bool {
        matches!(self, Outcome::Won)
    }

    /// Decodes the one-byte result every game keeps in its state: `0` still running, `1` won,
    /// `2 + k` lost by cause `k` (the index in [`Game::LOSS_CAUSES`]); the inverse of
    /// [`Outcome::code`].
    #[inline]
    pub const fn from_code(code: u8) -> Option<Outcome> {
        match code {
            0 => None,
            1 => Some(Outcome::Won),
            r => Some(Outcome::Lost(r - 2)),
        }
    }

    /// The one-byte code of this outcome (`1` won, `2 + k` lost by cause `k`; `k` below 254).
    ///
    /// # Panics
    /// In debug builds, on a cause index above 253 (no game declares that many causes).
    #[inline]
    pub const fn code(self) -> u8 {
        match self {
            Outcome::Won => 1,
            Outcome::Lost(k) => k + 2,
        }
    }
}

/// A value of one setup axis, as read from an experiment file or `--set KEY=VALUE`.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum AxisValue {
    /// A whole number (`ruins = 2`).
    Int(i64),
    /// A switch (`extra_turn = true`).
    Bool(bool),
    /// A name (`mech_a = "Wukong"`, `maps = "random"`).
    Name(String),
    /// A finite real number, for content values written with a decimal point
    /// (`"scoundrel.move" = 4.5`); see [`Real`](crate::setup::Real).
    Real(crate::setup::Real),
}

impl fmt::Display for AxisValue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AxisValue::Int(v) => write!(f, "{v}"),
            AxisValue::Bool(v) => write!(f, "{v}"),
            AxisValue::Name(v) => write!(f, "{v}"),
            AxisValue::Real(v) => write!(f, "{v}"),
        }
    }
}

/// What values an axis accepts; used to validate experiment files and to list axes.
#[derive(Clone, Debug)]
pub enum AxisKind {
    /// Whole numbers in `min..=max`.
    Int {
        /// The smallest value.
        min: i64,
        /// The largest value.
        max: i64,
    },
    /// `true` or `false`.
    Bool,
    /// One of a set of names, listed by the game (content-dependent, so given as prose).
    Name,
}

/// One setup option a game offers to experiments (a sweep axis or a fixed `[setup]` value).
#[derive(Clone, Debug)]
pub struct Axis {
    /// The key used in `[setup]`, `[sweep]` and `--set` (e.g. `ruins`).
    pub name: &'static str,
    /// What values it takes.
    pub kind: AxisKind,
    /// The value used when an experiment does not name the axis.
    pub default: &'static str,
    /// One line for `sololab list axes GAME`, with the rulebook section it comes from.
    pub doc: &'static str,
}

/// The `content` axis every game with a content file offers: `builtin` (the file compiled in)
/// or the path of a content file in the game's format (each game's CONTENT.md).
pub const CONTENT_AXIS: Axis = Axis {
    name: "content",
    kind: AxisKind::Name,
    default: "builtin",
    doc: "content file: builtin or a path (CONTENT.md)",
};

/// The setup values of one experiment cell: axis name to value. Axes that are absent take
/// their default.
pub type SetupValues = BTreeMap<String, AxisValue>;

/// An error from resolving setup values or loading content: says what and where, in one line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SetupError(pub String);

impl fmt::Display for SetupError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for SetupError {}

/// An error from reading a position: the 1-based line and what was wrong with it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PositionError {
    /// 1-based line number in the position text (0 when the error is not tied to a line).
    pub line: usize,
    /// What was wrong.
    pub message: String,
}

impl fmt::Display for PositionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}: {}", self.line, self.message)
    }
}

impl std::error::Error for PositionError {}

/// How an action relates to the ones around it, for policies that plan several atomic actions
/// as one choice (greedy plans a mech's move and attack together; issue 3).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum PlanStep {
    /// A choice that stands alone (deploy, end the player actions, ...).
    Single,
    /// An action that opens a plan for actor `u8` and leaves it able to act again (a move).
    Prefix(u8),
    /// An action that completes a plan for actor `u8` (an attack).
    Finish(u8),
}

/// Receives the readable event trace from [`Game::apply_traced`]. The hot path uses
/// [`NoTrace`], whose `ON = false` lets the compiler remove every trace call.
pub trait Tracer {
    /// Whether events are recorded at all.
    const ON: bool;
    /// Records one event line; `f` is only called when `ON`.
    fn event(&mut self, f: impl FnOnce() -> String);
}

/// A tracer that records nothing (the default for simulation).
pub struct NoTrace;

impl Tracer for NoTrace {
    const ON: bool = false;
    #[inline(always)]
    fn event(&mut self, _f: impl FnOnce() -> String) {}
}

/// A tracer that collects event lines, for `sololab play` and tests.
#[derive(Default, Debug)]
pub struct VecTrace(pub Vec<String>);

impl Tracer for VecTrace {
    const ON: bool = true;
    fn event(&mut self, f: impl FnOnce() -> String) {
        self.0.push(f());
    }
}

/// How much of a strategy one gate workload plays ([`Game::GATE_WORKLOADS`]).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum GateSize {
    /// Whole games, `0..n` of the bench seed (`n >= 1`). Written `n` (`rift/random/20000`).
    Games(u64),
    /// The first `n` player decisions of games `0, 1, ...` (`n >= 1`), the last game cut off
    /// where the count is reached. Written `nd` (`buried/mcts-200/60d`).
    Decisions(u64),
}

impl fmt::Display for GateSize {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GateSize::Games(n) => write!(f, "{n}"),
            GateSize::Decisions(n) => write!(f, "{n}d"),
        }
    }
}

/// A game the lab can play: a small `Copy` state driven by player actions, with the rules' own
/// opponent and all chance inside [`Game::apply`].
///
/// Invariants every implementation keeps (checked by the conformance suite in
/// `tests/conformance.rs`):
/// - [`legal_actions`](Game::legal_actions) is non-empty exactly when
///   [`outcome`](Game::outcome) is `None`, and lists actions in a fixed, documented order;
/// - a game reaches an outcome within [`MAX_DECISIONS`](Game::MAX_DECISIONS) player decisions;
/// - `from_position(to_position(s)) == s`.
pub trait Game: Copy + Send + Sync + PartialEq + fmt::Debug + fmt::Display + 'static {
    /// One player decision (small, `Copy`).
    type Action: Copy + Eq + fmt::Debug + Send + Sync;
    /// A resolved setup (from one experiment cell), validated once before any game is played.
    /// Two setups are equal when every game starts alike from them: the same choices and the
    /// same content, compared by reference ([`crate::content::same_content`]). The lab refuses
    /// two values of a sweep axis that resolve to equal setups in every cell (one setting spelt
    /// twice, [`crate::lab::Plan::new`]), and matches a `[compare]` baseline the same way.
    type Setup: Clone + fmt::Debug + Send + Sync + PartialEq;

    /// The name users type (`rift`).
    const NAME: &'static str;
    /// The most player decisions one game can take; a playout that exceeds it is a bug.
    const MAX_DECISIONS: u32;
    /// The instruction-count gate's workloads for this game (`scripts/bench-gate.sh`): each a
    /// shipped strategy's name and how much of it to play, games `0..` of the bench seed on the
    /// default setup. The default suits a game whose games take milliseconds; a game whose
    /// searched games take seconds declares [`GateSize::Decisions`] for its search workload,
    /// so that every workload runs in about a minute or less under callgrind.
    const GATE_WORKLOADS: &'static [(&'static str, GateSize)] = &[
        ("random", GateSize::Games(20_000)),
        ("greedy", GateSize::Games(100)),
        ("mcts-200", GateSize::Games(3)),
    ];

    /// The setup axes this game offers to experiments.
    fn axes() -> &'static [Axis];
    /// Resolves the values of one cell (absent axes take defaults).
    ///
    /// # Errors
    /// A one-line [`SetupError`] naming the axis and the valid values.
    fn resolve_setup(values: &SetupValues) -> Result<Self::Setup, SetupError>;
    /// The valid values of a name axis, or of an integer axis whose range depends on the
    /// setup (rift's `game`: the content's campaign games), in order (for error messages and
    /// `list axes`); empty otherwise.
    fn axis_names(setup: &Self::Setup, axis: &str) -> Vec<String>;
    /// The text of the game's built-in content file (TOML), whose values are setup axes by
    /// path (`monster.Demon.normal.hp`; [`crate::content::values`]); `None` (the default) for
    /// a game without a content file. A game with one resolves its content through
    /// [`crate::content::resolve_content`], which applies the value paths of the setup.
    const CONTENT_TOML: Option<&'static str> = None;
    /// [`CONTENT_TOML`](Game::CONTENT_TOML).
    #[inline]
    fn content_toml() -> Option<&'static str> {
        Self::CONTENT_TOML
    }

    /// Deals, shuffles and places a new game; every draw comes from `rng` (the setup stream).
    fn new_game(setup: &Self::Setup, rng: &mut GameRng) -> Self;
    /// Writes the legal actions into `out` (cleared first), in a fixed order. Does not allocate
    /// when `out` has capacity.
    fn legal_actions(&self, out: &mut Vec<Self::Action>);
    /// Plays `action` and runs the game (rules' AI, dice, draws from `rng`) up to the next
    /// player decision or the end, reporting events to `trace`.
    ///
    /// # Panics
    /// May panic if `action` is not legal.
    fn apply_traced<T: Tracer>(&mut self, action: Self::Action, rng: &mut GameRng, trace: &mut T);
    /// [`apply_traced`](Game::apply_traced) without a trace.
    #[inline]
    fn apply(&mut self, action: Self::Action, rng: &mut GameRng) {
        self.apply_traced(action, rng, &mut NoTrace);
    }
    /// The one-byte result the game keeps in its state: `0` while it goes on, `1` won, `2 + k`
    /// lost by cause `k` (the index in [`LOSS_CAUSES`](Game::LOSS_CAUSES); [`Outcome::code`]).
    fn result_code(&self) -> u8;
    /// `None` while the game goes on; the decoded [`result_code`](Game::result_code).
    #[inline]
    fn outcome(&self) -> Option<Outcome> {
        Outcome::from_code(self.result_code())
    }
    /// The names of the loss causes, indexed by [`Outcome::Lost`] (`snake_case`, used in
    /// report columns `lost_<cause>`).
    const LOSS_CAUSES: &'static [&'static str];

    /// Names of the heuristic features (for greedy weights and the MCTS cut-off score).
    const FEATURE_NAMES: &'static [&'static str];
    /// Writes the features into `out` (`out.len() == FEATURE_NAMES.len()`).
    fn features(&self, out: &mut [f64]);
    /// [`Game::features`] where only the features a weighted score needs must be right: bit
    /// `i` of `needed` set means feature `i` is needed (features from index 64 on are always
    /// needed); a feature not needed may be written as `0.0` instead. What the greedy and MCTS
    /// score calls with the bits of its nonzero weights, so a game can skip a costly feature
    /// its strategy does not weigh (Buried's `engage`). The default computes every feature.
    #[inline]
    fn features_needed(&self, needed: u64, out: &mut [f64]) {
        let _ = needed;
        self.features(out);
    }
    /// Names of the end-of-game metrics reported as means (with units in the name).
    const METRIC_NAMES: &'static [&'static str];
    /// Writes the metrics of a finished game into `out` (integers, so sums never depend on order).
    fn metrics(&self, out: &mut [i64]);
    /// Turns played so far (for `mean_turns`).
    fn turns(&self) -> u32;

    /// Whether the state holds what the player cannot see (the order of a deck). Then
    /// [`determinize`](Game::determinize) re-samples it, and a policy that looks ahead on a
    /// copy of the state determinizes the copy first, or it would read the hidden order (greedy
    /// does: [`GreedyPolicy`](crate::policy::GreedyPolicy)). Default `false`.
    const HIDDEN_INFORMATION: bool = false;
    /// Re-samples what the player cannot know (deck orders). Games without hidden information
    /// leave the state as it is.
    fn determinize(&mut self, _rng: &mut GameRng) {}
    /// Puts what the player cannot see in a canonical order (the undrawn cards of a deck
    /// sorted), so that two states the player cannot tell apart become equal, and
    /// [`determinize`](Game::determinize) after it samples what the player may be facing.
    /// Closed-loop MCTS keys an action's outcomes by the concealed state
    /// ([`MctsConfig::chance_outcomes`](crate::policy::MctsConfig::chance_outcomes)).
    /// Games without hidden information leave the state as it is.
    fn conceal(&mut self) {}
    /// How `action` relates to its neighbours for planning policies.
    fn plan_step(&self, _action: Self::Action) -> PlanStep {
        PlanStep::Single
    }
    /// A readable text of `action` in this state (e.g. `mech A moves to (3,2)`).
    fn action_text(&self, action: Self::Action) -> String;
    /// The position text of this state (loads back with [`from_position`](Game::from_position)).
    fn to_position(&self) -> String;
    /// Reads a position.
    ///
    /// # Errors
    /// A [`PositionError`] with the 1-based line and what was wrong.
    fn from_position(text: &str) -> Result<Self, PositionError>;
}

/// The setup glue every game with content writes alike, inside `impl Game`: its
/// [`axes`](Game::axes) are the module's `AXES`, [`resolve_setup`](Game::resolve_setup) is
/// `Setup::resolve(values)`, and [`CONTENT_TOML`](Game::CONTENT_TOML) is the module's
/// `content::BUILTIN_TOML`. `forward_setup!(RiftSetup)`.
macro_rules! forward_setup {
    ($setup:ty) => {
        fn axes() -> &'static [$crate::game::Axis] {
            &AXES
        }
        fn resolve_setup(
            values: &$crate::game::SetupValues,
        ) -> Result<$setup, $crate::game::SetupError> {
            <$setup>::resolve(values)
        }
        const CONTENT_TOML: Option<&'static str> = Some(content::BUILTIN_TOML);
    };
}
pub(crate) use forward_setup;

/// The `PartialEq` of a game's setup: equal when every game starts alike, the same content
/// ([`crate::content::same_content`], one reference per compiled text) and every other field
/// equal. The fields are destructured exhaustively, so a field added to the setup and not
/// named here does not compile. `setup_eq!(GodsSetup { encounter, abilities, deck, natural,
/// shoot_in_combat })`; the setup's content field is `content`.
macro_rules! setup_eq {
    ($setup:ident { $($field:ident),+ $(,)? }) => {
        /// Equal when every game starts alike: the same content
        /// ([`crate::content::same_content`]) and the same choices (every field).
        impl PartialEq for $setup {
            fn eq(&self, other: &$setup) -> bool {
                let $setup { content, $($field),+ } = self;
                crate::content::same_content(*content, other.content)
                    $(&& *$field == other.$field)+
            }
        }
    };
}
pub(crate) use setup_eq;

/// The `impl Game` lines every game writes alike, inside its `impl Game` block:
/// [`legal_actions`](Game::legal_actions) forwards to the game's own `legal(out)`,
/// [`apply_traced`](Game::apply_traced) to its `play(action, rng, trace)` (or the inherent
/// method named as a second argument), and [`result_code`](Game::result_code) reads its
/// `result` field. `forward_rules!(RiftAction)`, `forward_rules!(BeyondAction, apply_action)`.
macro_rules! forward_rules {
    ($action:ty) => {
        $crate::game::forward_rules!($action, play);
    };
    ($action:ty, $play:ident) => {
        #[inline]
        fn legal_actions(&self, out: &mut Vec<$action>) {
            self.legal(out);
        }
        #[inline]
        fn apply_traced<T: $crate::game::Tracer>(
            &mut self,
            action: $action,
            rng: &mut $crate::game::GameRng,
            trace: &mut T,
        ) {
            self.$play(action, rng, trace);
        }
        #[inline]
        fn result_code(&self) -> u8 {
            self.result
        }
    };
}
pub(crate) use forward_rules;

/// The position-text methods of [`Game`] for a game whose `position` module (in scope where
/// the macro is used) has `write(&G) -> String` and `parse(&str) -> Result<G, PositionError>`:
/// `forward_position!();` inside `impl Game for G` writes `to_position` and `from_position`.
macro_rules! forward_position {
    () => {
        fn to_position(&self) -> String {
            position::write(self)
        }
        fn from_position(text: &str) -> Result<Self, $crate::game::PositionError> {
            position::parse(text)
        }
    };
}
pub(crate) use forward_position;

/// `Display` for a game state as its position text: `display_position!(Rift, position::render)`
/// implements `fmt::Display for Rift` by writing `position::render(self)`.
macro_rules! display_position {
    ($game:ty, $render:path) => {
        impl std::fmt::Display for $game {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str(&$render(self))
            }
        }
    };
}
pub(crate) use display_position;

/// The three independent random streams of one game (DESIGN.md, "Seeds and reproducibility").
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
#[repr(u64)]
pub enum Stream {
    /// Deals, map and monster draws at setup.
    Setup = 1,
    /// Dice and draws during play.
    Chance = 2,
    /// The policy's own randomness (tie-breaks, search).
    Policy = 3,
}

/// SplitMix64's finalizer: a bijective 64-bit mix.
#[inline]
pub const fn mix64(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// The seed of game `index` of an experiment with seed `experiment_seed`, for `stream`: a
/// counter-based mix, so game i of every cell gets the same seeds (common random numbers) and
/// no seed depends on any other game.
#[inline]
pub const fn game_seed(experiment_seed: u64, index: u64, stream: Stream) -> u64 {
    mix64(
        mix64(experiment_seed ^ 0x5eed_1ab0_0000_0000)
            .wrapping_add(mix64(index.wrapping_add(0x9e37_79b9_7f4a_7c15)))
            .wrapping_add((stream as u64).wrapping_mul(0xd6e8_feb8_6659_fd93)),
    )
}

/// A generator for game `index`'s `stream`.
pub fn stream_rng(experiment_seed: u64, index: u64, stream: Stream) -> GameRng {
    GameRng::seed_from_u64(game_seed(experiment_seed, index, stream))
}

/// Draws a uniform integer in `0..n` (`n >= 1`) with Lemire's multiply-shift (a tiny bias of at
/// most `n / 2^64`, irrelevant here); fast and stable across crate versions.
///
/// # Panics
/// Debug builds panic when `n == 0`.
#[inline]
pub fn below(rng: &mut GameRng, n: u32) -> u32 {
    use rand::Rng;
    debug_assert!(n > 0);
    ((rng.next_u64() >> 32).wrapping_mul(n as u64) >> 32) as u32
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seeds_differ_by_stream_and_index_but_not_by_call() {
        let a = game_seed(1, 0, Stream::Chance);
        assert_eq!(a, game_seed(1, 0, Stream::Chance));
        assert_ne!(a, game_seed(1, 0, Stream::Setup));
        assert_ne!(a, game_seed(1, 1, Stream::Chance));
        assert_ne!(a, game_seed(2, 0, Stream::Chance));
    }

    #[test]
    fn below_stays_in_range_and_covers_it() {
        let mut rng = stream_rng(7, 0, Stream::Chance);
        let mut seen = [0u32; 6];
        for _ in 0..6000 {
            seen[below(&mut rng, 6) as usize] += 1;
        }
        assert!(seen.iter().all(|&c| c > 800 && c < 1200), "{seen:?}");
    }
}
