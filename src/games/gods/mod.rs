//! I Bury the Gods (rulebook: `../shared/rules/i-bury-the-gods.txt`): the Scoundrel against
//! fatelings on a table measured in inches. Fatelings act by reactions (first match wins) on
//! what they see, hear and smell; every test is 2d10 against a target number.
//!
//! - [`geometry`]: inches, bases, obstacles, line of sight, cover, movement graphs;
//! - [`state`]: the `Copy` game state; [`rules`]: tests, the Scoundrel's actions, assets,
//!   wounds, the round; [`ai`]: fateling reactions and actions, patrols, events;
//! - [`position`]: the text position format;
//! - [`content`] and [`content_file`]: the cards and encounters as data (`content/gods.toml`,
//!   `CONTENT.md`).

pub mod ai;
pub mod content;
pub mod content_file;
pub mod geometry;
pub mod position;
pub mod rules;
pub mod state;

pub use rules::{Goal, GodsAction, Hit};
pub use state::Gods;

use content::{ABILITIES, Content, Win};
use state::{FState, Fateling, Pending, Phase, Tally};

use crate::game::{
    Axis, AxisKind, Game, GameRng, NoTrace, PlanStep, SetupError, SetupValues, below,
};
use crate::setup::axis_error;

/// Loss causes, indexed by `result - 2`: the Scoundrel drew her tenth wound card, or an
/// encounter's round limit passed (`time_ran_out`, or `ritual_completed` for the witch).
pub const LOSS_CAUSES: [&str; 3] = ["scoundrel_slain", "time_ran_out", "ritual_completed"];

/// A resolved setup.
#[derive(Clone, Debug)]
pub struct GodsSetup {
    /// The content.
    pub content: &'static Content,
    /// The encounter (index).
    pub encounter: u8,
    /// Strength, aim, wits, dodge.
    pub abilities: [i8; 4],
    /// The asset deck (index into the content's decks).
    pub deck: u8,
    /// `rule_natural_ten_one`.
    pub natural: bool,
    /// `rule_shoot_in_combat`.
    pub shoot_in_combat: bool,
}

crate::game::setup_eq!(GodsSetup {
    encounter,
    abilities,
    deck,
    natural,
    shoot_in_combat
});

static AXES: [Axis; 6] = [
    crate::game::CONTENT_AXIS,
    Axis {
        name: "encounter",
        kind: AxisKind::Name,
        default: "lone_brute",
        doc: "the encounter: table, obstacles, fatelings, patrols, objectives, win and loss (CONTENT.md, Encounters)",
    },
    Axis {
        name: "abilities",
        kind: AxisKind::Name,
        default: "strength=3,aim=2,wits=1,dodge=0",
        doc: "the scores allocated to strength, aim, wits, dodge: a permutation of the content's scores (The Scoundrel, Abilities)",
    },
    Axis {
        name: "assets",
        kind: AxisKind::Name,
        default: "balanced",
        doc: "the named asset deck of twenty cards (The Scoundrel, Assets)",
    },
    Axis {
        name: "rule_natural_ten_one",
        kind: AxisKind::Bool,
        default: "false",
        doc: "a die of 10 always meets the target and a 1 never does (CONTENT.md, Tests)",
    },
    Axis {
        name: "rule_shoot_in_combat",
        kind: AxisKind::Bool,
        default: "false",
        doc: "the Scoundrel may shoot while in combat (CONTENT.md, In combat)",
    },
];

/// Reads an allocation such as `strength=3,aim=2,wits=1,dodge=0` (any order, every ability
/// once) and checks it is a permutation of `allowed`.
///
/// # Errors
/// One line naming the `abilities` axis: an unknown or repeated ability, a missing one, a value
/// that is not a whole number, or scores that are not a permutation of `allowed`.
pub fn parse_abilities(s: &str, allowed: [i8; 4]) -> Result<[i8; 4], SetupError> {
    let got = read_allocation(s)?;
    let (mut a, mut b) = (got, allowed);
    a.sort_unstable();
    b.sort_unstable();
    if a != b {
        let list = |x: [i8; 4]| x.iter().map(i8::to_string).collect::<Vec<_>>().join(",");
        return Err(axis_error(
            "abilities",
            format!(
                "scores {} are not a permutation of the allowed scores {}",
                list(got),
                list(allowed)
            ),
        ));
    }
    Ok(got)
}

/// Reads an allocation's scores in ability order ([`ABILITIES`]) from `ABILITY=SCORE` parts in
/// any order, without checking them against the content's scores.
///
/// # Errors
/// As [`parse_abilities`], but for the permutation.
fn read_allocation(s: &str) -> Result<[i8; 4], SetupError> {
    let mut out = [None; 4];
    for part in s.split(',') {
        let Some((k, v)) = part.split_once('=') else {
            return Err(axis_error(
                "abilities",
                format!("'{part}' is not ABILITY=SCORE (e.g. strength=3,aim=2,wits=1,dodge=0)"),
            ));
        };
        let k = k.trim();
        let Some(i) = ABILITIES.iter().position(|a| a.eq_ignore_ascii_case(k)) else {
            return Err(axis_error(
                "abilities",
                format!("unknown ability '{k}' (valid: {})", ABILITIES.join(", ")),
            ));
        };
        let Ok(n) = v.trim().parse::<i8>() else {
            return Err(axis_error(
                "abilities",
                format!("{k}: '{}' is not a whole number", v.trim()),
            ));
        };
        if out[i].replace(n).is_some() {
            return Err(axis_error(
                "abilities",
                format!("ability '{k}' is given twice"),
            ));
        }
    }
    let mut got = [0i8; 4];
    for (i, o) in out.iter().enumerate() {
        got[i] = o.ok_or_else(|| {
            axis_error(
                "abilities",
                format!("ability '{}' is missing", ABILITIES[i]),
            )
        })?;
    }
    Ok(got)
}

impl GodsSetup {
    /// Resolves setup values against the content they name.
    ///
    /// # Errors
    /// A one-line [`SetupError`] naming the axis, the bad value and the valid ones.
    pub fn resolve(values: &SetupValues) -> Result<GodsSetup, SetupError> {
        // Unknown axes and kinds: the shared checks and their messages.
        let r = crate::setup::AxisReader::new("gods", &AXES, values)?;
        let content: &'static Content =
            r.content(content::builtin, content::BUILTIN_TOML, content_file::parse)?;
        let enc = r.name_or("encounter", &content.encounters[0].name)?;
        let encounter = content.encounter_index(enc).ok_or_else(|| {
            let v: Vec<&str> = content.encounters.iter().map(|e| e.name.as_str()).collect();
            axis_error(
                "encounter",
                format!("unknown encounter '{enc}' (valid: {})", v.join(", ")),
            )
        })?;
        let deck_name = r.name_or("assets", &content.decks[0].name)?;
        let deck = content.deck_index(deck_name).ok_or_else(|| {
            let v: Vec<&str> = content.decks.iter().map(|e| e.name.as_str()).collect();
            axis_error(
                "assets",
                format!("unknown asset deck '{deck_name}' (valid: {})", v.join(", ")),
            )
        })?;
        let default_alloc = default_allocation(content.scoundrel.scores);
        let abilities = parse_abilities(
            r.name_or("abilities", &default_alloc)?,
            content.scoundrel.scores,
        )?;
        Ok(GodsSetup {
            content,
            encounter,
            abilities,
            deck,
            natural: r.bool("rule_natural_ten_one")?.unwrap_or(false),
            shoot_in_combat: r.bool("rule_shoot_in_combat")?.unwrap_or(false),
        })
    }
}

/// The content's scores in ability order, as an allocation text.
pub fn default_allocation(scores: [i8; 4]) -> String {
    (0..4)
        .map(|i| format!("{}={}", ABILITIES[i], scores[i]))
        .collect::<Vec<_>>()
        .join(",")
}

impl Gods {
    /// A state at the start of encounter `encounter` before any draw: models at their starting
    /// points, reserves off the table, the decks in content order, round 0.
    pub fn blank(c: &'static Content, encounter: u8) -> Gods {
        let e = &c.encounters[encounter as usize];
        let mut fatelings = [Fateling {
            at: Default::default(),
            state: FState::Slain,
            wounds: 0,
            activated: false,
            patrol: 0,
        }; content::MAX_FATELINGS];
        for (i, p) in e.fatelings.iter().enumerate() {
            fatelings[i] = Fateling {
                at: p.start,
                state: if p.reserve {
                    FState::Reserve
                } else {
                    FState::Active
                },
                wounds: 0,
                activated: false,
                patrol: 0,
            };
        }
        let wound_deck = c.wound_deck;
        Gods {
            content: c,
            encounter,
            abilities: c.scoundrel.scores,
            natural: false,
            shoot_in_combat: false,
            at: e.start,
            fatelings,
            deck: [0; content::ASSET_DECK],
            deck_len: 0,
            hand: [0; content::MAX_ASSETS],
            wound_deck,
            wounds_drawn: 0,
            face_up: 0,
            round: 0,
            phase: Phase::Scoundrel,
            actions_left: c.scoundrel.actions,
            assets_used: 0,
            noise: false,
            pending: Pending::default(),
            result: 0,
            decisions: 0,
            tally: Tally::default(),
        }
    }
}

/// Feature names (see [`Game::features`]): `wounds_left` (wound cards she can still draw
/// and live), `face_up` wounds, `fatelings` on the table, `foe_wounds_left` (their wounds to
/// go, summed), `target_wounds_left` (those of the encounter's target: the named fateling, or
/// all for slay_all), `objective_distance` (inches to the objective to reach), `threats`
/// (fatelings whose reaction now is an attack or shoot), `seen_by` (fatelings that count her as
/// in sight), `hand` (asset cards), `rounds_left`, `won`, `lost`.
pub const FEATURES: [&str; 12] = [
    "wounds_left",
    "face_up",
    "fatelings",
    "foe_wounds_left",
    "target_wounds_left",
    "objective_distance",
    "threats",
    "seen_by",
    "hand",
    "rounds_left",
    "won",
    "lost",
];

/// Metric names reported as means per game: `won`, `wounds_drawn`, `wounds_face_up` (at the
/// end), `fatelings_slain`, `damage_dealt`, `attacks`, `shots`, `prepares`, `assets_played`.
pub const METRICS: [&str; 9] = [
    "won",
    "wounds_drawn",
    "wounds_face_up",
    "fatelings_slain",
    "damage_dealt",
    "attacks",
    "shots",
    "prepares",
    "assets_played",
];

crate::game::display_position!(Gods, position::write);

impl Game for Gods {
    type Action = GodsAction;
    type Setup = GodsSetup;
    const NAME: &'static str = "gods";
    /// An upper bound over every content file and position: a decision is a Scoundrel action
    /// (at most [`position::MAX_ACTIONS_LEFT`] in the round a game starts in, a position's
    /// limit; [`content::MAX_ACTIONS`] in each later round up to [`content::MAX_ROUNDS`]; one
    /// more per Quick Step played), that action's pending choice (at most one: the re-roll, the
    /// card to keep, the card to return), or an asset card played (each card once: at most the
    /// 2 × [`content::ASSET_DECK`] cards a position's deck and hand may hold). The ending phase
    /// is not a decision. Games reach far less (133 in the longest constructed built-in game,
    /// `tests/gods_rules_detail.rs`).
    const MAX_DECISIONS: u32 = {
        let cards = 2 * content::ASSET_DECK as u32;
        let rounds = content::MAX_ROUNDS as u32 - 1;
        let actions =
            position::MAX_ACTIONS_LEFT as u32 + rounds * content::MAX_ACTIONS as u32 + cards;
        2 * actions + cards
    };

    crate::game::forward_setup!(GodsSetup);

    fn axis_names(setup: &GodsSetup, axis: &str) -> Vec<String> {
        let c = setup.content;
        match axis {
            "encounter" => c.encounters.iter().map(|e| e.name.clone()).collect(),
            "assets" => c.decks.iter().map(|d| d.name.clone()).collect(),
            _ => Vec::new(),
        }
    }
    /// Sets up a new game: places the fatelings, shuffles the asset deck and the wound deck,
    /// draws the starting hand, and plays round 1's fate rush phase; every draw and die comes
    /// from `rng` (the setup stream).
    fn new_game(s: &GodsSetup, rng: &mut GameRng) -> Self {
        let c = s.content;
        let mut g = Gods::blank(c, s.encounter);
        g.abilities = s.abilities;
        g.natural = s.natural;
        g.shoot_in_combat = s.shoot_in_combat;
        g.deck = c.decks[s.deck as usize].cards;
        g.deck_len = content::ASSET_DECK as u8;
        g.shuffle_deck(rng);
        let n = c.wounds.len();
        for i in (1..n).rev() {
            let j = below(rng, i as u32 + 1) as usize;
            g.wound_deck.swap(i, j);
        }
        for _ in 0..c.scoundrel.starting_hand {
            g.draw_asset(rng);
        }
        g.begin_round(rng, &mut NoTrace);
        g
    }
    crate::game::forward_rules!(GodsAction);
    const LOSS_CAUSES: &'static [&'static str] = &LOSS_CAUSES;
    const FEATURE_NAMES: &'static [&'static str] = &FEATURES;
    /// Features (names in [`FEATURES`]).
    fn features(&self, out: &mut [f64]) {
        let fate = &self.content.fate;
        out[0] = fate.wounds_to_perish.saturating_sub(self.wounds_drawn) as f64;
        out[1] = self.face_up_count() as f64;
        out[2] = self.actives().count() as f64;
        let left = |f: usize| (self.kind(f).wounds.saturating_sub(self.fatelings[f].wounds)) as f64;
        out[3] = self.actives().map(left).sum();
        out[4] = match self.enc().win {
            Win::Slay(f) if self.active(f as usize) => left(f as usize),
            Win::SlayAll => out[3],
            _ => 0.0,
        };
        out[5] = match self.enc().win {
            Win::Reach(k) => {
                let o = &self.enc().objectives[k as usize];
                (self.scoundrel().dist(o.at) - o.radius - self.content.scoundrel.radius).max(0.0)
                    as f64
            }
            _ => 0.0,
        };
        let mut threats = 0;
        let mut seen = 0;
        for f in self.actives() {
            match self.reaction(f) {
                ai::Reaction::Attack | ai::Reaction::Shoot => {
                    threats += 1;
                    seen += 1;
                }
                ai::Reaction::Sight => seen += 1,
                _ => {}
            }
        }
        out[6] = threats as f64;
        out[7] = seen as f64;
        out[8] = self.hand_size() as f64;
        out[9] = self.enc().round_limit.saturating_sub(self.round) as f64;
        out[10] = (self.result == 1) as u8 as f64;
        out[11] = (self.result >= 2) as u8 as f64;
    }
    const METRIC_NAMES: &'static [&'static str] = &METRICS;
    fn metrics(&self, out: &mut [i64]) {
        let t = &self.tally;
        out[0] = (self.result == 1) as i64;
        out[1] = self.wounds_drawn as i64;
        out[2] = self.face_up_count() as i64;
        out[3] = t.slain as i64;
        out[4] = t.damage as i64;
        out[5] = t.attacks as i64;
        out[6] = t.shots as i64;
        out[7] = t.prepares as i64;
        out[8] = t.assets as i64;
    }
    fn turns(&self) -> u32 {
        self.round as u32
    }
    const HIDDEN_INFORMATION: bool = true;
    /// Re-samples the hidden order of the asset deck and of the undrawn wound cards.
    fn determinize(&mut self, rng: &mut GameRng) {
        self.shuffle_deck(rng);
        let lo = self.wounds_drawn as usize;
        let n = self.content.wounds.len();
        for i in (lo + 1..n).rev() {
            let j = lo + below(rng, (i - lo) as u32 + 1) as usize;
            self.wound_deck.swap(i, j);
        }
    }
    /// Sorts the asset deck and the undrawn wound cards (their order is what determinize
    /// re-samples).
    fn conceal(&mut self) {
        self.deck[..self.deck_len as usize].sort_unstable();
        let lo = self.wounds_drawn as usize;
        let n = self.content.wounds.len();
        if let Some(undrawn) = self.wound_deck.get_mut(lo..n) {
            undrawn.sort_unstable();
        }
    }
    fn plan_step(&self, _a: GodsAction) -> PlanStep {
        PlanStep::Single
    }
    fn action_text(&self, a: GodsAction) -> String {
        self.describe(a)
    }
    crate::game::forward_position!();
}
