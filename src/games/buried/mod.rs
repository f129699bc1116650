//! Buried Beneath (rulebook: `../shared/rules/buried-beneath.txt`): a hero and the villagers
//! defend a village map of 3×3 cards against four waves of monsters from two camps, then the
//! boss buried beneath the Village Center.
//!
//! - [`state`]: the `Copy` game state ([`Buried`], 336 bytes, the `state_copy` bench answer:
//!   two 21-entry path bitsets and the 21 distances to the Village Center dominate; no heap)
//!   and location numbering;
//! - [`rules`]: the map's paths, waves, the enemies' turn, placing villagers and the actions;
//! - [`actions`]: the player's decisions and the documented action space;
//! - [`position`]: the text position format and the village as text;
//! - [`content`]: the cards as data (`content/buried.toml`, provenance in `CONTENT.md`).

pub mod actions;
pub mod content;
pub mod position;
pub mod rules;
pub mod state;

pub use actions::BuriedAction;
pub use state::Buried;

use content::Content;
use state::{GONE, NLOC, bit};

use crate::game::{
    Axis, AxisKind, Game, GameRng, NoTrace, PlanStep, SetupError, SetupValues, below,
};

/// Loss causes, indexed by [`state::cause`] (`turn_limit` is the lab's guard, not a rule).
pub const LOSS_CAUSES: [&str; 4] = [
    "villagers_fled",
    "hero_defeated",
    "village_overrun",
    "turn_limit",
];

/// A resolved setup.
#[derive(Clone, Debug)]
pub struct BuriedSetup {
    /// The cards.
    pub content: &'static Content,
    /// Hero side index, or random.
    pub hero: Option<u8>,
    /// Boss card, or random.
    pub boss: Option<u8>,
    /// The 4 camp cards of the game, or drawn at random from the 6.
    pub camps: Option<[u8; 4]>,
    /// Wave restarts allowed.
    pub wave_retries: u8,
    /// Villager placements allowed in one player turn (`rule_placement_cap`).
    pub placement_cap: u8,
}

crate::game::setup_eq!(BuriedSetup {
    hero,
    boss,
    camps,
    wave_retries,
    placement_cap
});

static AXES: [Axis; 6] = [
    crate::game::CONTENT_AXIS,
    Axis {
        name: "hero",
        kind: AxisKind::Name,
        default: "random",
        doc: "hero side: random or a name, e.g. Mage (Setup: choose one side of a Hero card)",
    },
    Axis {
        name: "boss",
        kind: AxisKind::Name,
        default: "random",
        doc: "boss card: random or a name (Setup: draw a random Boss card)",
    },
    Axis {
        name: "camps",
        kind: AxisKind::Name,
        default: "random",
        doc: "the 4 camp cards in play: random (4 of the 6) or 4 names (Wave Setup; CONTENT.md, 6 camp cards vs all 4)",
    },
    Axis {
        name: "wave_retries",
        kind: AxisKind::Int { min: 0, max: 10 },
        default: "0",
        doc: "restarts of the current wave after a loss (Combat Loop Overview: restart the current Wave)",
    },
    Axis {
        name: "rule_placement_cap",
        kind: AxisKind::Int {
            min: state::MIN_PLACEMENT_CAP as i64,
            max: state::MAX_PLACEMENT_CAP as i64,
        },
        default: "12",
        doc: "villager placements allowed in one player turn: the rules do not bound the Rally loop that a free Rally at Health 1 allows (CONTENT.md, Placement cap)",
    },
];

impl BuriedSetup {
    /// Resolves setup values against the content they name.
    ///
    /// # Errors
    /// A one-line [`SetupError`] naming the axis, the bad value and the valid ones.
    pub fn resolve(values: &SetupValues) -> Result<BuriedSetup, SetupError> {
        // Unknown axes, kinds and ranges: the shared checks and their messages.
        let r = crate::setup::AxisReader::new("buried", &AXES, values)?;
        let content: &'static Content =
            r.content(content::builtin, content::BUILTIN_TOML, content::parse)?;
        let hero_names = content.hero_names();
        let hero = match r.name("hero")? {
            s if s.eq_ignore_ascii_case("random") => None,
            s => Some(
                hero_names
                    .iter()
                    .position(|h| h.eq_ignore_ascii_case(s))
                    .ok_or_else(|| {
                        r.error(
                            "hero",
                            format!(
                                "unknown hero '{s}' (valid: random, {})",
                                hero_names.join(", ")
                            ),
                        )
                    })? as u8,
            ),
        };
        let boss_names: Vec<String> = content.bosses.iter().map(|b| b.name.clone()).collect();
        let boss = match r.name("boss")? {
            s if s.eq_ignore_ascii_case("random") => None,
            s => Some(
                boss_names
                    .iter()
                    .position(|h| h.eq_ignore_ascii_case(s))
                    .ok_or_else(|| {
                        r.error(
                            "boss",
                            format!(
                                "unknown boss '{s}' (valid: random, {})",
                                boss_names.join(", ")
                            ),
                        )
                    })? as u8,
            ),
        };
        let camps = match r.name("camps")? {
            s if s.eq_ignore_ascii_case("random") => None,
            s => {
                let names = content.camp_names();
                let parts: Vec<&str> = s.split(',').map(str::trim).collect();
                if parts.len() != 4 {
                    return Err(r.error(
                        "camps",
                        format!(
                            "'{s}' must be random or 4 camp names separated by commas (valid: {})",
                            names.join(", ")
                        ),
                    ));
                }
                let mut v = [0u8; 4];
                for (i, p) in parts.iter().enumerate() {
                    v[i] = content.camp_index(p).ok_or_else(|| {
                        r.error(
                            "camps",
                            format!("unknown camp '{p}' (valid: random, {})", names.join(", ")),
                        )
                    })?;
                    if v[..i].contains(&v[i]) {
                        return Err(r.error("camps", format!("'{p}' is named twice")));
                    }
                }
                Some(v)
            }
        };
        let wave_retries = r.int("wave_retries")?.unwrap_or(0) as u8;
        let placement_cap = r
            .int("rule_placement_cap")?
            .map_or(state::PLACEMENT_CAP, |v| v as u8);
        Ok(BuriedSetup {
            content,
            hero,
            boss,
            camps,
            wave_retries,
            placement_cap,
        })
    }
}

impl Buried {
    /// The state after ending the player's turn now and the enemies' turn that follows, with
    /// every enemy-turn decision taken by its first option (the heuristic's look-ahead, so a
    /// state shows what the monsters will do to villagers, the hero and the Village Center).
    /// States outside the Place phase are returned as they are.
    pub fn preview(&self) -> Buried {
        let mut p = *self;
        if p.phase != state::Phase::Place || p.result != 0 {
            return p;
        }
        p.retries = p.retries_used;
        let mut rng = <GameRng as rand::SeedableRng>::seed_from_u64(0x5eed);
        p.end_turn(&mut rng, &mut NoTrace);
        for _ in 0..64 {
            if p.result != 0 {
                break;
            }
            let first = |b: u32| b.trailing_zeros() as u8;
            let a = match p.phase {
                state::Phase::Tie => BuriedAction::Pick(first(p.mover_choices())),
                state::Phase::Flee => BuriedAction::Pick(if p.ready > 0 {
                    actions::READY
                } else {
                    first(p.placed)
                }),
                state::Phase::Corner => BuriedAction::Pick(first(state::CORNERS & !p.markers)),
                state::Phase::Victim => BuriedAction::Pick(first(p.victims())),
                state::Phase::Push => BuriedAction::Pick(first(p.push_dests(p.arg[0]))),
                _ => break,
            };
            p.play(a, &mut rng, &mut NoTrace);
        }
        p
    }

    /// Enemies the hero can still strike this turn (feature `engage`): those within its attack
    /// type's reach (bow: adjacent; sword: its own location) of a location its unused speed
    /// takes it to, a Hidden Tunnels jump costing one step (Movement; Attack Types). Meant to
    /// let a one-ply player see the worth of a Move that brings a sword within reach before the
    /// Attack that needs it (results/README.md: it did not help greedy, so no shipped strategy
    /// weighs it). 0 once the game is over.
    pub fn engage(&self) -> u32 {
        if self.result != 0 {
            return 0;
        }
        let mut stand = bit(self.hero_at);
        let mut frontier = stand;
        let [a, b] = self.tunnels;
        for _ in 0..self.move_left {
            let mut next = 0;
            for l in state::locs(frontier) {
                next |= self.adj[l as usize];
                if a != state::NONE && b != state::NONE {
                    if l == a {
                        next |= bit(b);
                    } else if l == b {
                        next |= bit(a);
                    }
                }
            }
            frontier = next & !stand;
            if frontier == 0 {
                break;
            }
            stand |= frontier;
        }
        let ranged = self.hero_card().ranged;
        let reach = state::locs(stand).fold(0, |m, l| m | self.reach(l, ranged));
        (reach & self.enemy_locs()).count_ones()
    }

    fn raw_features(&self, out: &mut [f64]) {
        let dist = &self.center_dist;
        out[0] = self.stats[0] as f64;
        out[1] = self.stats[1] as f64;
        out[2] = self.stats[2] as f64;
        out[3] = self.stats[3] as f64;
        out[4] = self.villagers_left() as f64;
        out[5] = (4 - self.markers.count_ones().min(4)) as f64;
        let mut left = 0.0;
        let mut hp = 0.0;
        let mut threat = 0.0;
        for d in 0..state::DICE {
            let a = self.die_at[d];
            if a != GONE {
                left += 1.0;
                hp += self.die_hp[d] as f64;
                if (a as usize) < NLOC {
                    threat += (8.0 - dist[a as usize].min(8) as f64) / 8.0;
                }
            }
        }
        out[6] = left;
        out[7] = hp;
        out[8] = threat;
        out[9] = self.tally.waves as f64;
        out[10] = if self.boss_up {
            self.boss_stats[0] as f64
        } else {
            0.0
        };
        out[11] = if self.boss_up {
            (self.skulls & !self.markers).count_ones() as f64
        } else {
            0.0
        };
        out[12] = f64::from(self.result >= 2);
        out[13] = f64::from(self.result == 1);
        let (to_go, falls) = self.boss_to_go();
        out[15] = to_go as f64;
        out[16] = falls as f64;
    }

    /// `(to_go, falls)`: the boss's health still to take away before it is defeated, and The
    /// Monstrosity's falls still to come (rulebook §13, CONTENT.md "The Monstrosity's skill"):
    /// `falls` is the number of skulls it can still cover (open skull locations, at most the
    /// Boss markers left in the supply), `to_go` its health now plus `falls` times its card's
    /// starting Health. Before the boss is up, both at its entrance (its card's Health, every
    /// skull open, no marker placed), so neither jumps when wave 4 ends. Health gained from
    /// skull symbols and from defeated villagers is not foreseen: a fall onto a `+H` skull
    /// leaves `to_go` as it was and lowers `falls`. The Devourer: its health, no falls.
    pub fn boss_to_go(&self) -> (u32, u32) {
        let card = &self.content.0.bosses[self.boss as usize];
        let start = u32::from(card.stats[0]);
        let (health, open, placed) = if self.boss_up {
            (
                u32::from(self.boss_stats[0]),
                (self.skulls & !self.markers).count_ones(),
                self.markers.count_ones(),
            )
        } else {
            (start, self.skulls.count_ones(), 0)
        };
        let falls = if card.skull_track {
            open.min(state::MARKERS.saturating_sub(placed))
        } else {
            0
        };
        (health + falls * start, falls)
    }
}

/// Feature names: the hero's four stats, `villagers` not fled, `markers_free` (Boss markers
/// still in the supply), `monsters` left in the wave (card and map), their `monster_health`,
/// `monster_threat` (monsters on the map weighted by nearness to the Village Center, 0-1
/// each), `waves_cleared`, `boss_health` (0 until it is up), `boss_skulls` (skull locations
/// The Monstrosity can still cover), `lost`, `won`, `engage` (enemies the hero can still
/// strike this turn, [`Buried::engage`]; read before the preview), `boss_to_go` (the boss's
/// health still to take away, its falls to come included) and `boss_falls` (The Monstrosity's
/// falls still to come), both from [`Buried::boss_to_go`] and steady at the boss's entrance.
pub const FEATURES: [&str; 17] = [
    "health",
    "mana",
    "damage",
    "speed",
    "villagers",
    "markers_free",
    "monsters",
    "monster_health",
    "monster_threat",
    "waves_cleared",
    "boss_health",
    "boss_skulls",
    "lost",
    "won",
    "engage",
    "boss_to_go",
    "boss_falls",
];

/// Metric names (issue 12): waves cleared, villagers fled (all flights), Boss markers placed,
/// the hero's health left, monsters killed, the boss's health left (its card value if it never
/// came out), wave restarts used.
pub const METRICS: [&str; 7] = [
    "waves_cleared",
    "villagers_fled",
    "boss_markers_placed",
    "hero_health_left",
    "monsters_killed",
    "boss_health_left",
    "wave_restarts",
];

crate::game::display_position!(Buried, position::render);

impl Game for Buried {
    type Action = BuriedAction;
    type Setup = BuriedSetup;
    const NAME: &'static str = "buried";
    /// [`state::MAX_TURNS`] turns of at most [`state::MAX_PLACEMENT_CAP`] placements, each with
    /// up to 3 symbols whose options take up to 7 decisions and a Move of up to 9 steps, plus
    /// the enemies' decisions (ties, flights, corners, victims, pushes) for 12 dice and the boss.
    const MAX_DECISIONS: u32 =
        state::MAX_TURNS as u32 * (state::MAX_PLACEMENT_CAP as u32 * 3 * 16 + 12 * 10 + 20);
    // A searched game takes seconds: the gate measures the search's first 80 decisions.
    const GATE_WORKLOADS: &'static [(&'static str, crate::GateSize)] = &[
        ("random", crate::GateSize::Games(20_000)),
        ("greedy", crate::GateSize::Games(100)),
        ("mcts-200", crate::GateSize::Decisions(80)),
    ];

    crate::game::forward_setup!(BuriedSetup);

    fn axis_names(setup: &BuriedSetup, axis: &str) -> Vec<String> {
        let c = setup.content;
        let mut v = match axis {
            "hero" => c.hero_names(),
            "boss" => c.bosses.iter().map(|b| b.name.clone()).collect(),
            "camps" => c.camp_names(),
            _ => return Vec::new(),
        };
        v.insert(0, "random".into());
        v
    }
    /// Sets up a new game (Setup; Wave Setup for wave 1) and runs the first enemies' turn;
    /// every draw comes from `rng`.
    fn new_game(s: &BuriedSetup, rng: &mut GameRng) -> Self {
        let c = s.content;
        let mut b = position::blank_unbuilt(c);
        // The village map: the 8 cards shuffled around the Village Center, random sides, then
        // the two Hidden Tunnels cards moved opposite each other.
        let mut cards: [u8; 8] = [0, 1, 2, 3, 4, 5, 6, 7];
        for i in (1..8).rev() {
            let j = below(rng, i as u32 + 1) as usize;
            cards.swap(i, j);
        }
        let mut k = 0;
        for p in 0..9 {
            if p != 4 {
                b.grid[p] = cards[k];
                k += 1;
            }
        }
        b.flipped = (below(rng, 1 << 9)) as u16;
        let mut tun = [usize::MAX; 2];
        for p in (0..9).filter(|&p| p != 4 && c.villages[b.grid[p] as usize].tunnels) {
            let k = usize::from(tun[0] != usize::MAX);
            tun[k.min(1)] = p;
        }
        if tun[1] != usize::MAX && tun[1] != 8 - tun[0] {
            let (p2, target) = (tun[1], 8 - tun[0]);
            b.grid.swap(p2, target);
            let (f2, ft) = (b.flipped >> p2 & 1, b.flipped >> target & 1);
            b.flipped = b.flipped & !(1 << p2) & !(1 << target) | ft << p2 | f2 << target;
        }
        b.build_map();
        b.hero = s
            .hero
            .unwrap_or_else(|| below(rng, (c.heroes.len() * 2) as u32) as u8);
        b.stats = b.hero_card().stats;
        b.boss = s
            .boss
            .unwrap_or_else(|| below(rng, c.bosses.len() as u32) as u8);
        b.boss_stats = c.bosses[b.boss as usize].stats;
        // The camp cards: 4 of the 6 (CONTENT.md), shuffled into draw order.
        let mut four = match s.camps {
            Some(v) => v,
            None => {
                let mut all: [u8; 6] = [0, 1, 2, 3, 4, 5];
                for i in (1..6).rev() {
                    let j = below(rng, i as u32 + 1) as usize;
                    all.swap(i, j);
                }
                [all[0], all[1], all[2], all[3]]
            }
        };
        for i in (1..4).rev() {
            let j = below(rng, i as u32 + 1) as usize;
            four.swap(i, j);
        }
        b.draw = four;
        b.first_side = [below(rng, 2) as u8, below(rng, 2) as u8];
        b.retries = s.wave_retries;
        b.placement_cap = s.placement_cap;
        b.turn = 0;
        b.setup_wave(rng, false);
        b.start_enemy_turn(rng, &mut NoTrace);
        b
    }
    crate::game::forward_rules!(BuriedAction);
    const LOSS_CAUSES: &'static [&'static str] = &LOSS_CAUSES;
    const FEATURE_NAMES: &'static [&'static str] = &FEATURES;
    /// Heuristic features (names in [`FEATURES`]): `engage` of this state, every other one of
    /// the [`Buried::preview`] state.
    fn features(&self, out: &mut [f64]) {
        self.features_needed(u64::MAX, out);
    }
    /// `engage` (feature 14), a search of the hero's reach that no shipped strategy weighs,
    /// is computed only when needed (about a tenth of an MCTS game's time otherwise).
    fn features_needed(&self, needed: u64, out: &mut [f64]) {
        let p = self.preview();
        p.raw_features(out);
        out[14] = if needed & 1 << 14 != 0 {
            self.engage() as f64
        } else {
            0.0
        };
    }
    const METRIC_NAMES: &'static [&'static str] = &METRICS;
    fn metrics(&self, out: &mut [i64]) {
        out[0] = self.tally.waves as i64;
        out[1] = self.tally.fled as i64;
        out[2] = self.tally.markers as i64;
        out[3] = self.stats[0] as i64;
        out[4] = self.tally.killed as i64;
        out[5] = if self.boss_up {
            self.boss_stats[0] as i64
        } else {
            self.content.0.bosses[self.boss as usize].stats[0] as i64
        };
        out[6] = self.retries_used as i64;
    }
    fn turns(&self) -> u32 {
        self.turn as u32
    }
    // `determinize` keeps the default: the only hidden draw (the order and side of the wave-3
    // camp pair) happens in `apply` from the chance generator, so a search samples it itself.
    fn plan_step(&self, a: BuriedAction) -> PlanStep {
        match a {
            BuriedAction::Place(_) => PlanStep::Prefix(0),
            BuriedAction::Gain
            | BuriedAction::Attack(_)
            | BuriedAction::Move
            | BuriedAction::Skill(_)
            | BuriedAction::Rally => PlanStep::Finish(0),
            _ => PlanStep::Single,
        }
    }
    fn action_text(&self, a: BuriedAction) -> String {
        self.describe(a)
    }
    crate::game::forward_position!();
}
