//! Bury Me in the Rift (rulebook: `../shared/rules/bury-me-in-the-rift.txt`): two mechs defend
//! buildings against monsters that move and aim by the monster die, the compass and the seek
//! arrow.
//!
//! - [`state`]: the `Copy` game state; [`board`]: the 6-column grid and bitboards;
//! - [`rules`]: damage, pushes, statuses, the turn's steps; [`ai`]: monster move + aim, detect;
//! - [`actions`]: the player's decisions; [`position`]: the text position format;
//! - [`content`] and [`content_file`]: the cards as data (`content/rift.toml`, `CONTENT.md`).

pub mod actions;
pub mod ai;
pub mod board;
pub mod content;
pub mod content_file;
pub mod position;
pub mod rules;
pub mod spawn_check;
pub mod state;
pub mod switches;

pub use actions::RiftAction;
pub use state::Rift;

use board::{NO_TILE, bit, tiles};
use content::{Content, Finale, Goal, Slot};
use state::{Campaign, Mech, Monster, Phase, Tally, side_tile, st};

use crate::setup::{AxisReader, pick_name};

use crate::game::{
    Axis, AxisKind, Game, GameRng, PlanStep, SetupError, SetupValues, Tracer, below,
};

/// Loss causes, indexed by [`state::cause`].
pub const LOSS_CAUSES: [&str; 2] = ["mechs_destroyed", "ruins_exhausted"];

/// Status tokens of each kind (rock/smoke, fire/frozen, shield/acid): 9 tokens in all, assumed 3
/// of each kind (CONTENT.md, "Status token pairings").
pub const TOKENS_PER_KIND: u32 = 3;

/// Ruin tokens in the box (Components: 3).
pub const MAX_RUINS: u8 = 3;

/// A name choice in a setup: a fixed content index or random.
pub type Pick = Option<u8>;

/// A resolved single-game setup (from an experiment cell or `--set` values).
#[derive(Clone, Debug)]
pub struct RiftSetup {
    /// The content.
    pub content: &'static Content,
    /// Which game of the campaign card (0-based): sets objectives, starting and Alpha monsters,
    /// finale.
    pub game: u8,
    /// Ruin tokens in the supply (1-3; Adjusting Difficulty).
    pub ruins: u8,
    /// Skip Time passes on the first turn (Adjusting Difficulty).
    pub extra_turn: bool,
    /// In the finale, activate the moon icons on both map cards (Adjusting Difficulty).
    pub both_moons: bool,
    /// Left and right map cards.
    pub maps: [Pick; 2],
    /// The three monster cards.
    pub monsters: [Pick; 3],
    /// Mech cards A and B.
    pub mechs: [Pick; 2],
    /// Pilots A and B; `None` random; `Some(u8::MAX)` the mech's own pilot.
    pub pilots: [Pick; 2],
    /// Upgrade rows revealed: mech A, pilot A, mech B, pilot B (0-3 each).
    pub upgrades: [u8; 4],
    /// Starting monsters (default: the campaign card).
    pub starting_monsters: Option<u8>,
    /// Alpha limit (default: the campaign card).
    pub alphas: Option<u8>,
    /// Objectives as the campaign card says (`true`) or none (`false`).
    pub objectives: bool,
    /// The finale's moon effects (default: the campaign card).
    pub finale: Option<bool>,
    /// Campaign mode (`mode = "campaign"`): a won game leads to the next on the campaign card.
    pub campaign: bool,
    /// The contested rules' readings (`rule_*` axes; CONTENT.md).
    pub switches: switches::Switches,
}

crate::game::setup_eq!(RiftSetup {
    game,
    ruins,
    extra_turn,
    both_moons,
    maps,
    monsters,
    mechs,
    pilots,
    upgrades,
    starting_monsters,
    alphas,
    objectives,
    finale,
    campaign,
    switches
});

/// The pilot pick meaning "the mech's own pilot".
pub const OWN_PILOT: u8 = u8::MAX;

static AXES: [Axis; 29] = [
    Axis {
        name: "mode",
        kind: AxisKind::Name,
        default: "game",
        doc: "game (one game) or campaign (the campaign card's games in order; Campaign)",
    },
    crate::game::CONTENT_AXIS,
    Axis {
        name: "game",
        kind: AxisKind::Int { min: 1, max: 9 },
        default: "1",
        doc: "which game of the campaign card (Campaign): objectives, starting and Alpha monsters, finale; in campaign mode the first game played",
    },
    Axis {
        name: "ruins",
        kind: AxisKind::Int { min: 1, max: 3 },
        default: "3",
        doc: "ruin tokens in the supply (Adjusting Difficulty)",
    },
    Axis {
        name: "extra_turn",
        kind: AxisKind::Bool,
        default: "false",
        doc: "skip Time passes on the first turn (Adjusting Difficulty)",
    },
    Axis {
        name: "both_moons",
        kind: AxisKind::Bool,
        default: "false",
        doc: "finale: activate the moon icons on both map cards (Adjusting Difficulty)",
    },
    Axis {
        name: "maps",
        kind: AxisKind::Name,
        default: "random",
        doc: "map cards: random, or LEFT,RIGHT by name (Setup 1)",
    },
    Axis {
        name: "monsters",
        kind: AxisKind::Name,
        default: "random",
        doc: "monster cards: random, or three names (Setup 4)",
    },
    Axis {
        name: "mech_a",
        kind: AxisKind::Name,
        default: "random",
        doc: "mech A: random or a name (Setup 2)",
    },
    Axis {
        name: "pilot_a",
        kind: AxisKind::Name,
        default: "own",
        doc: "pilot A: own (the mech's starting pilot), random or a name (Setup 2)",
    },
    Axis {
        name: "mech_b",
        kind: AxisKind::Name,
        default: "random",
        doc: "mech B: random or a name (Setup 3)",
    },
    Axis {
        name: "pilot_b",
        kind: AxisKind::Name,
        default: "own",
        doc: "pilot B: own, random or a name (Setup 3)",
    },
    Axis {
        name: "build_a",
        kind: AxisKind::Name,
        default: "random",
        doc: "mech A and its pilot together: MECH/PILOT (PILOT may be own or random), instead of mech_a and pilot_a (Setup 2)",
    },
    Axis {
        name: "build_b",
        kind: AxisKind::Name,
        default: "random",
        doc: "mech B and its pilot together: MECH/PILOT, instead of mech_b and pilot_b (Setup 3)",
    },
    Axis {
        name: "upgrades",
        kind: AxisKind::Name,
        default: "0,0,0,0",
        doc: "upgrade rows revealed: mechA,pilotA,mechB,pilotB (0-3 each; Campaign)",
    },
    Axis {
        name: "starting_monsters",
        kind: AxisKind::Int { min: 1, max: 4 },
        default: "campaign card",
        doc: "monsters placed at setup (Setup; Campaign)",
    },
    Axis {
        name: "alphas",
        kind: AxisKind::Int { min: 0, max: 4 },
        default: "campaign card",
        doc: "Alpha limit (Campaign; FAQ Detect and Spawn)",
    },
    Axis {
        name: "objectives",
        kind: AxisKind::Bool,
        default: "true",
        doc: "objective cards as the campaign card says (false: none) (Campaign)",
    },
    Axis {
        name: "finale",
        kind: AxisKind::Bool,
        default: "campaign card",
        doc: "the finale's moon effects (FAQ, Finale effects)",
    },
    Axis {
        name: "rule_frozen_skip_attack",
        kind: AxisKind::Bool,
        default: "true",
        doc: "CONTENT.md I11: true = a frozen or smoked monster skips its aimed attack (Status Tokens); false = it performs it no matter what (FAQ, Monster attacks)",
    },
    Axis {
        name: "rule_finale_moon",
        kind: AxisKind::Name,
        default: "left",
        doc: "CONTENT.md I26: whose moon is active in the finale: left (default), right or random map card (Adjusting Difficulty implies one; the rulebook does not say which)",
    },
    Axis {
        name: "rule_detect_right",
        kind: AxisKind::Bool,
        default: "true",
        doc: "CONTENT.md I1: true = detections go to the card right of the die's (FAQ Detect and Spawn, examples); false = to the left (Detect step text)",
    },
    Axis {
        name: "rule_sand_smoke",
        kind: AxisKind::Bool,
        default: "true",
        doc: "CONTENT.md I15: true = damage on sand makes a smoke token; false = sand makes no token (FAQ Map names no token for sand)",
    },
    Axis {
        name: "rule_ruin_reward_capped",
        kind: AxisKind::Bool,
        default: "true",
        doc: "CONTENT.md I36: true = an R reward returns a ruin up to the ruins setting (Adjusting Difficulty); false = up to 3 (Campaign, \"max 3\")",
    },
    Axis {
        name: "rule_pilot_only_reset",
        kind: AxisKind::Bool,
        default: "true",
        doc: "CONTENT.md I37: true = a destroyed mech's pilot card loses its upgrade rows (Campaign step 3); false = the mech card's rows too",
    },
    Axis {
        name: "rule_walk_through_monsters",
        kind: AxisKind::Bool,
        default: "true",
        doc: "CONTENT.md I9: true = walking monsters pass through other monsters (Units: only fliers and leapers are said to go over anything, walkers are stopped by obstacles, and a monster is no obstacle to its own side); false = other monsters block a walker's path",
    },
    Axis {
        name: "rule_rocks_last",
        kind: AxisKind::Bool,
        default: "true",
        doc: "CONTENT.md I6: true = monsters aim at rocks only when no mech or building can be attacked from any column (Status Tokens, Rock: \"Monsters will attack rocks if they can't find anything else\"); false = rocks are targets like mechs and buildings (a rock is \"treated as a unit\")",
    },
    Axis {
        name: "rule_aim_moves_with_monster",
        kind: AxisKind::Bool,
        default: "true",
        doc: "CONTENT.md I10: true = an aim is a direction and distance from the monster, so a pushed monster attacks from where it stands (Monsters Attack: attacks resolve \"even if they have been moved\"); false = the aim stays on the tile it was made from (the meeple \"is pointed in the direction it is attacking\")",
    },
    Axis {
        name: "flip_rule",
        kind: AxisKind::Name,
        default: "none",
        doc: "measuring aid: flip one contested rule from the reading set by the rule_* axes: none, a switch (frozen_skip_attack, detect_right, sand_smoke, ruin_reward_capped, pilot_only_reset, finale_moon_right, finale_moon_random, walk_through_monsters, aim_moves_with_monster, rocks_last) or a reading measured by this axis alone (frozen_monsters_targets I5, frozen_no_aim I12, tokens_on_push I19, flood_one_turn I23, storm_ignores_shield I24, explode_chain I27, throw_any_direction I32, detect_before_spawn I25, status_before_push I14, compass_direction_first I4, fallback_path_distance I8, immobilize_tile I13, rocks_take_bump I18, skip_chooses_statuses I21, spawn_detection_order I28, hp_cap_six I35; CONTENT.md) (experiments/rift-rules.toml, rift-rules-hp-cap.toml, rift-rules-campaign.toml)",
    },
];

/// A card named on `axis`: `random` (None) or a name `find` knows, else an error listing
/// `random` and `all` (or `own, random` and `all` when `own` is accepted too).
fn pick(
    axis: &str,
    name: &str,
    find: impl Fn(&str) -> Option<u8>,
    all: &[String],
    own: bool,
) -> Result<Pick, SetupError> {
    if name.eq_ignore_ascii_case("random") {
        return Ok(None);
    }
    let first: &[&str] = if own { &["own", "random"] } else { &["random"] };
    let valid: Vec<&str> = first
        .iter()
        .copied()
        .chain(all.iter().map(String::as_str))
        .collect();
    pick_name(axis, name, |n| find(n).map(Some), &valid)
}

impl RiftSetup {
    /// Resolves setup values against the content they name.
    ///
    /// # Errors
    /// A one-line [`SetupError`] naming the axis, the bad value and the valid ones.
    pub fn resolve(values: &SetupValues) -> Result<RiftSetup, SetupError> {
        let r = AxisReader::new(Rift::NAME, &AXES, values)?;
        let content: &'static Content =
            r.content(content::builtin, content::BUILTIN_TOML, content_file::parse)?;
        let games = content.campaign.len() as i64;
        let game = r.int_within("game", 1, games)?.unwrap_or(1) as u8 - 1;
        let ruins = r.int("ruins")?.unwrap_or(3) as u8;
        let names = |f: fn(&Content) -> Vec<String>| f(content);
        let map_names = names(|c| c.maps.iter().map(|m| m.name.clone()).collect());
        let mon_names = names(|c| c.monsters.iter().map(|m| m.name.clone()).collect());
        let mech_names = names(|c| c.mechs.iter().map(|m| m.name.clone()).collect());
        let pilot_names = names(|c| c.pilots.iter().map(|m| m.name.clone()).collect());
        let list = |axis: &str,
                    n: usize,
                    names: &[String],
                    find: &dyn Fn(&str) -> Option<u8>|
         -> Result<Vec<Pick>, SetupError> {
            let s = r.name(axis)?;
            if s.eq_ignore_ascii_case("random") {
                return Ok(vec![None; n]);
            }
            let parts: Vec<&str> = s.split(',').map(str::trim).collect();
            if parts.len() != n {
                return Err(r.error(
                    axis,
                    format!(
                        "'{s}' must be random or {n} names separated by commas (valid: {})",
                        names.join(", ")
                    ),
                ));
            }
            let mut out = Vec::new();
            for p in parts {
                let got = pick(axis, p, find, names, false)?;
                if got.is_some() && out.contains(&got) {
                    return Err(r.error(axis, format!("'{p}' is named twice")));
                }
                out.push(got);
            }
            Ok(out)
        };
        let maps = list("maps", 2, &map_names, &|n| content.map_index(n))?;
        let monsters = list("monsters", 3, &mon_names, &|n| content.monster_index(n))?;
        let pilot = |axis: &str, s: &str| -> Result<Pick, SetupError> {
            if s.eq_ignore_ascii_case("own") {
                return Ok(Some(OWN_PILOT));
            }
            pick(axis, s, |n| content.pilot_index(n), &pilot_names, true)
        };
        // A build (`build_a = "Wukong/Sun Li"`) names a mech and its pilot together.
        let mut mechs: [Pick; 2] = [None; 2];
        let mut pilots: [Pick; 2] = [Some(OWN_PILOT); 2];
        for (k, side) in ["a", "b"].iter().enumerate() {
            let (mech_axis, pilot_axis, build_axis) = (
                format!("mech_{side}"),
                format!("pilot_{side}"),
                format!("build_{side}"),
            );
            let build = r.name(&build_axis)?;
            if !build.eq_ignore_ascii_case("random") {
                if r.is_set(&mech_axis) || r.is_set(&pilot_axis) {
                    return Err(r.error(
                        &build_axis,
                        format!("give either {build_axis} or {mech_axis}/{pilot_axis}, not both"),
                    ));
                }
                let Some((m, p)) = build.split_once('/') else {
                    return Err(r.error(
                        &build_axis,
                        format!("'{build}' must be random or MECH/PILOT (e.g. Wukong/own)"),
                    ));
                };
                mechs[k] = pick(
                    &build_axis,
                    m.trim(),
                    |n| content.mech_index(n),
                    &mech_names,
                    false,
                )?;
                pilots[k] = pilot(&build_axis, p.trim())?;
            } else {
                mechs[k] = pick(
                    &mech_axis,
                    r.name(&mech_axis)?,
                    |n| content.mech_index(n),
                    &mech_names,
                    false,
                )?;
                pilots[k] = pilot(&pilot_axis, r.name(&pilot_axis)?)?;
            }
        }
        let (mech_a, mech_b) = (mechs[0], mechs[1]);
        if mech_a.is_some() && mech_a == mech_b {
            return Err(r.error("mech_b", "mech A and mech B must differ"));
        }
        if pilots[0].is_some() && pilots[0] != Some(OWN_PILOT) && pilots[0] == pilots[1] {
            return Err(r.error("pilot_b", "pilot A and pilot B must differ"));
        }
        let up = r.name("upgrades")?;
        let parts: Vec<Option<u8>> = up
            .split(',')
            .map(|p| p.trim().parse::<u8>().ok().filter(|n| *n <= 3))
            .collect();
        if parts.len() != 4 || parts.iter().any(Option::is_none) {
            return Err(r.error(
                "upgrades",
                format!("'{up}' must be four numbers 0-3: mechA,pilotA,mechB,pilotB"),
            ));
        }
        let upgrades = [
            parts[0].unwrap_or(0),
            parts[1].unwrap_or(0),
            parts[2].unwrap_or(0),
            parts[3].unwrap_or(0),
        ];
        let switches = switches::resolve(values)?;
        Ok(RiftSetup {
            switches,
            content,
            game,
            ruins,
            extra_turn: r.bool("extra_turn")?.unwrap_or(false),
            both_moons: r.bool("both_moons")?.unwrap_or(false),
            maps: [maps[0], maps[1]],
            monsters: [monsters[0], monsters[1], monsters[2]],
            mechs: [mech_a, mech_b],
            pilots,
            upgrades,
            starting_monsters: r.int("starting_monsters")?.map(|n| n as u8),
            alphas: r.int("alphas")?.map(|n| n as u8),
            objectives: r.bool("objectives")?.unwrap_or(true),
            finale: r.bool("finale")?,
            campaign: r.pick(
                "mode",
                |m| match m {
                    "game" => Some(false),
                    "campaign" => Some(true),
                    _ => None,
                },
                &["game", "campaign"],
            )?,
        })
    }

    /// The default setup: builtin content, game 1, 3 ruins, everything random.
    pub fn default_setup() -> RiftSetup {
        RiftSetup::resolve(&SetupValues::new()).expect("the default setup resolves")
    }
}

/// Draws `n` distinct indices from `0..len` into the unset slots of `picks`, keeping fixed ones.
fn fill_picks(picks: &mut [Pick], len: u8, rng: &mut GameRng) {
    for i in 0..picks.len() {
        if picks[i].is_none() {
            loop {
                let c = below(rng, len as u32) as u8;
                if !picks.contains(&Some(c)) {
                    picks[i] = Some(c);
                    break;
                }
            }
        }
    }
}

impl Rift {
    /// Empties the board: no terrain, tokens, spawn tiles, monsters, objectives or finale (the
    /// start of a new game, and of a hand-written position).
    pub fn clear_board(&mut self) {
        self.buildings = 0;
        self.mountains = 0;
        self.water = 0;
        self.forest = 0;
        self.desert = 0;
        self.acid_tiles = 0;
        self.rock = 0;
        self.smoke = 0;
        self.fire = 0;
        self.acid = 0;
        self.frozen_b = 0;
        self.shield_b = 0;
        self.spawn = [NO_TILE; 8];
        self.monsters = [Monster::SUPPLY; 4];
        self.objectives = [u8::MAX; 2];
        self.yellow = [false; 2];
        self.finale = 0;
        self.reset_cont();
    }

    /// No choice pending, nothing to resume: the engine's continuation at rest.
    pub fn reset_cont(&mut self) {
        self.cont = state::Step::Actions;
        self.cont_done = 0;
        self.choice = false;
        self.keep = 0;
    }

    /// Sets up the current game of the campaign card (Setup 1, 4, 5; Campaign): draws the map
    /// and monster cards (unless fixed), places objectives (yellow first, then red at random
    /// with distinct goals) and their map effects, the finale's moons, restores the mechs to
    /// full HP off the map, rolls the monster die onto card 1 and places the starting monsters
    /// by the Detect rules. The player deploys next.
    pub fn begin_game(&mut self, rng: &mut GameRng) {
        let c = self.content;
        let cp = self.campaign;
        let g = c.campaign[cp.game as usize];
        let unfix = |x: u8| if x == u8::MAX { None } else { Some(x) };
        let mut maps = [unfix(cp.fixed_maps[0]), unfix(cp.fixed_maps[1])];
        fill_picks(&mut maps, c.maps.len() as u8, rng);
        let mut mons = [
            unfix(cp.fixed_monsters[0]),
            unfix(cp.fixed_monsters[1]),
            unfix(cp.fixed_monsters[2]),
        ];
        fill_picks(&mut mons, c.monsters.len() as u8, rng);
        self.maps = [maps[0].unwrap_or(0), maps[1].unwrap_or(1)];
        self.monster_cards = [
            mons[0].unwrap_or(0),
            mons[1].unwrap_or(1),
            mons[2].unwrap_or(2),
        ];
        self.clear_board();
        self.campaign_die = 6;
        self.turn = 0;
        self.phase = Phase::Deploy;
        self.turret_used = false;
        self.result = 0;
        self.tally = Tally::default();
        self.alpha_limit = if cp.overrides[1] == u8::MAX {
            g.alphas
        } else {
            cp.overrides[1]
        };
        for i in 0..2 {
            self.mechs[i].max_hp = self.mech_max_hp(i);
            let m = &mut self.mechs[i];
            m.hp = m.max_hp;
            m.tile = NO_TILE;
            m.status = 0;
            m.moved = false;
            m.done = false;
            if self
                .upgrades(i)
                .any(|u| matches!(u, content::Upgrade::StartShield))
            {
                self.mechs[i].status |= st::SHIELD;
            }
        }
        // Objectives: yellow first (the map's own card), then red at random with distinct goals.
        if cp.objectives {
            for (side, slot) in [(0usize, g.left), (1, g.right)] {
                if slot == Slot::Yellow
                    && let Some(o) = c.objectives.iter().position(|o| o.map == self.maps[side])
                {
                    self.objectives[side] = o as u8;
                    self.yellow[side] = true;
                }
            }
            for (side, slot) in [(0usize, g.left), (1, g.right)] {
                if slot == Slot::Red {
                    loop {
                        let o = below(rng, c.objectives.len() as u32) as u8;
                        let other = self.objectives[1 - side];
                        let clash = other != u8::MAX
                            && self.goal(1 - side) == Some(c.objectives[o as usize].red);
                        if !clash && other != o {
                            self.objectives[side] = o;
                            self.yellow[side] = false;
                            break;
                        }
                    }
                }
            }
        }
        self.lay_board();
        let finale = if cp.overrides[2] == u8::MAX {
            g.finale
        } else {
            cp.overrides[2] == 1
        };
        if finale {
            // Which card's moon (CONTENT.md, I26; `rule_finale_moon`).
            let side = match cp.moon {
                switches::moon::LEFT => 0,
                switches::moon::RIGHT => 1,
                _ => below(rng, 2) as usize,
            };
            self.finale |= 1 << c.maps[self.maps[side] as usize].moon as u8;
            if cp.both_moons {
                self.finale |= 1 << c.maps[self.maps[1 - side] as usize].moon as u8;
            }
        }
        if self.has(Finale::MountainBuildings) {
            self.buildings |= self.mountains;
            self.mountains = 0;
        }
        // Starting monsters: roll the die onto the first card and place them by the Detect rules.
        self.die = below(rng, 6) as u8 + 1;
        self.die_card = 0;
        self.take_compass_from_card();
        let n = if cp.overrides[0] == u8::MAX {
            g.starting_monsters
        } else {
            cp.overrides[0]
        };
        self.detect_up_to(n.min(4) as usize, &mut crate::game::NoTrace);
        let mut order = [(u8::MAX, 0usize); 4];
        let mut k = 0;
        for (i, m) in self.monsters.iter().enumerate() {
            if m.at == state::Where::Detected {
                order[k] = (self.spawn_rank(i), i);
                k += 1;
            }
        }
        order[..k].sort_unstable();
        for &(_, i) in &order[..k] {
            let t = self.monsters[i].tile;
            self.place_monster(i, t);
        }
    }

    /// Adds the finished game's counters to the campaign totals (called once per game, when it
    /// is won or lost).
    pub fn finish_game(&mut self) {
        self.reset_cont();
        let t = self.tally;
        let objectives = (0..2).filter(|&s| self.goal_met(s)).count() as u8;
        let cp = &mut self.campaign;
        cp.kills += t.kills as u16;
        cp.alpha_kills = cp.alpha_kills.saturating_add(t.alpha_kills);
        cp.ruined = cp.ruined.saturating_add(t.ruined[0] + t.ruined[1]);
        cp.mech_deaths = cp.mech_deaths.saturating_add(t.mech_deaths);
        cp.blocked = cp.blocked.saturating_add(t.blocked);
        cp.turns = cp.turns.saturating_add(if self.result == 1 {
            self.turn.saturating_sub(1)
        } else {
            self.turn
        });
        cp.objectives_met += objectives;
        if self.result == 1 {
            cp.games_won += 1;
        }
    }

    /// After a won game of a campaign that goes on (Campaign, steps 1-5): a destroyed mech's pilot
    /// loses all its upgrades (the pilot card's rows; CONTENT.md, I37); completed goals give their rewards (R returns a ruin up to the cap;
    /// A and B wait for the player's choice); then the next game begins.
    pub fn between_games<T: Tracer>(&mut self, rng: &mut GameRng, trace: &mut T) {
        let c = self.content;
        let g = c.campaign[self.campaign.game as usize];
        for i in 0..2 {
            let both = self.campaign.rules & switches::rule::PILOT_ONLY_RESET == 0;
            if both && self.mechs[i].hp == 0 {
                self.mechs[i].mech_level = 0; // the other reading of I37
            }
            if self.mechs[i].hp == 0 && self.mechs[i].pilot_level > 0 {
                self.mechs[i].pilot_level = 0;
                trace.event(|| {
                    format!(
                        "mech {} was destroyed: its pilot loses all upgrades (the pilot card's rows)",
                        ['A', 'B'][i]
                    )
                });
            }
        }
        for (side, reward) in [(0usize, g.left_reward), (1, g.right_reward)] {
            if !self.goal_met(side) {
                continue;
            }
            trace.event(|| format!("goal completed on the {} map card", ["left", "right"][side]));
            let cap = if self.campaign.rules & switches::rule::RUIN_REWARD_CAPPED != 0 {
                self.campaign.ruins_cap
            } else {
                MAX_RUINS
            };
            if reward.ruin && self.ruins < cap {
                self.ruins += 1;
                trace.event(|| {
                    format!("reward: a lost ruin returns ({} in the supply)", self.ruins)
                });
            }
            if reward.a {
                self.campaign.pending[0] += 1;
            }
            if reward.b {
                self.campaign.pending[1] += 1;
            }
        }
        self.campaign.game += 1;
        self.result = 0;
        self.turn = 0; // the finished game's turns are in the campaign totals
        self.settle_rewards(rng, trace);
    }

    /// Drops rewards that no card can take (both rows full) and begins the next game when none
    /// wait for a choice; otherwise opens the Reward phase.
    pub fn settle_rewards<T: Tracer>(&mut self, rng: &mut GameRng, trace: &mut T) {
        for i in 0..2 {
            let m = self.mechs[i];
            if self.campaign.pending[i] > 0 && m.mech_level >= 3 && m.pilot_level >= 3 {
                self.campaign.pending[i] = 0;
            }
        }
        if self.campaign.pending != [0, 0] {
            self.phase = Phase::Reward;
            return;
        }
        let n = self.campaign.game + 1;
        trace.event(|| format!("==== campaign game {n} ===="));
        self.begin_game(rng);
    }

    /// Lays terrain, spawn numbers and active yellow map effects from the two map cards.
    pub fn lay_board(&mut self) {
        let c = self.content;
        for side in 0..2 {
            let card = &c.maps[self.maps[side] as usize];
            let s = if side == 0 { &card.left } else { &card.right };
            for (k, terr) in s.terrain.iter().enumerate() {
                let b = bit(side_tile(side, k as u8));
                match terr {
                    content::Terrain::Building => self.buildings |= b,
                    content::Terrain::Mountain => self.mountains |= b,
                    content::Terrain::Water => self.water |= b,
                    content::Terrain::Forest => self.forest |= b,
                    content::Terrain::Desert => self.desert |= b,
                    content::Terrain::Ground => {}
                }
                let n = s.spawn[k];
                if n > 0 {
                    self.spawn[n as usize - 1] = side_tile(side, k as u8);
                }
            }
            if let Some(e) = self.effect_side(side) {
                for &t in &e.acid {
                    self.acid_tiles |= bit(side_tile(side, t));
                }
                if let Some(t) = e.frozen_mountain {
                    let b = bit(side_tile(side, t));
                    self.mountains &= !b;
                    self.buildings |= b;
                    self.frozen_b |= b;
                }
            }
        }
    }

    /// The goal of the objective on map card `side`, if any.
    pub fn goal(&self, side: usize) -> Option<Goal> {
        let o = self.objectives[side];
        if o == u8::MAX {
            return None;
        }
        let card = &self.content.objectives[o as usize];
        Some(if self.yellow[side] {
            card.yellow
        } else {
            card.red
        })
    }

    /// Whether the goal on map card `side` is met in this (finished) game (CONTENT.md,
    /// "Objectives"). Goals need the game to be won.
    pub fn goal_met(&self, side: usize) -> bool {
        let Some(g) = self.goal(side) else {
            return false;
        };
        if self.result != 1 {
            return false;
        }
        match g {
            Goal::ProtectHalf => self.tally.ruined[side] == 0,
            Goal::KillMonsters(n) => self.tally.kills >= n,
            Goal::KillAlpha => self.tally.alpha_kills >= 1,
            Goal::BothMechsSurvive => self.mechs.iter().all(|m| m.alive()),
            Goal::ProtectSpecial => {
                let Some(e) = self.effect_side(side) else {
                    return false;
                };
                let special = e.turret.or(e.frozen_mountain).or(e.rocket);
                match special {
                    Some(t) => {
                        let b = bit(side_tile(side, t));
                        self.buildings & b != 0
                            && (e.frozen_mountain.is_none() || self.frozen_b & b == 0)
                    }
                    None => self.tally.ruined[side] == 0,
                }
            }
            Goal::BlockSpawns(n) => self.tally.blocked >= n,
            Goal::FewRuins(n) => self.ruined() <= n,
        }
    }
}

/// Feature names (see [`Game::features`]): `buildings` intact, `ruins_left` in the supply,
/// `mech_hp` summed, `mechs_alive`, `monsters` on the map, `monster_hp` summed, `detections`
/// pending whose spawn tile is free (a unit on the tile will block the spawn), `turns_left`
/// (the campaign die), `doomed` (1 if the preview loses the game),
/// `monster_threat` (monsters on the map, Alphas counting double), `games_won` (campaign games
/// won so far, 0 in single games: the campaign's stage, constant within a game, so a fit over
/// whole campaigns (`sololab fit`) does not read the stage into the other weights; Campaign).
pub const FEATURES: [&str; 11] = [
    "buildings",
    "ruins_left",
    "mech_hp",
    "mechs_alive",
    "monsters",
    "monster_hp",
    "detections",
    "turns_left",
    "doomed",
    "monster_threat",
    "games_won",
];

/// Metric names reported as means per game or campaign (Campaign; issue 4): games won (0/1 in
/// single-game mode), the furthest game reached (1-based), upgrade rows earned as rewards,
/// goals completed, ruins left in the supply, mechs destroyed, buildings lost, mech HP left at the
/// end, monsters and Alphas killed and spawns blocked (all summed over the campaign's games;
/// turns are the report's `mean_turns`).
pub const METRICS: [&str; 11] = [
    "games_won",
    "furthest_game",
    "upgrades_earned",
    "objectives_completed",
    "ruins_left",
    "mech_deaths",
    "buildings_lost",
    "mech_hp_left",
    "monsters_killed",
    "alphas_killed",
    "spawns_blocked",
];

/// The most games a campaign card may list (the `game` axis range).
pub const MAX_GAMES: u32 = 9;

/// The actor of the deploy plan in [`Game::plan_step`] (mechs are actors 0 and 1).
pub const DEPLOY_ACTOR: u8 = 2;

crate::game::display_position!(Rift, position::render);

impl Game for Rift {
    type Action = RiftAction;
    type Setup = RiftSetup;
    const NAME: &'static str = "rift";
    /// Per game: deploy (2) + per turn at most 2 moves, 2 attacks, turret, end (6) and token
    /// choices (at most 12: each removes a token or settles a conflict, and a turn's effects
    /// add few) × 7 turns; per campaign [`MAX_GAMES`] games and two reward choices after each.
    const MAX_DECISIONS: u32 = MAX_GAMES * (2 + 18 * 7 + 2);

    crate::game::forward_setup!(RiftSetup);

    fn axis_names(setup: &RiftSetup, axis: &str) -> Vec<String> {
        let c = setup.content;
        if axis == "mode" {
            return vec!["game".to_string(), "campaign".to_string()];
        }
        if axis == "game" {
            // The games of this content's campaign card.
            return (1..=c.campaign.len()).map(|g| g.to_string()).collect();
        }
        if axis == "flip_rule" {
            return switches::FLIPS.iter().map(|s| s.to_string()).collect();
        }
        if axis == "rule_finale_moon" {
            return switches::moon::NAMES
                .iter()
                .map(|s| s.to_string())
                .collect();
        }
        let mut v: Vec<String> = match axis {
            "maps" => c.maps.iter().map(|m| m.name.clone()).collect(),
            "monsters" => c.monsters.iter().map(|m| m.name.clone()).collect(),
            "mech_a" | "mech_b" => c.mechs.iter().map(|m| m.name.clone()).collect(),
            "build_a" | "build_b" => c.mechs.iter().map(|m| format!("{}/own", m.name)).collect(),
            "pilot_a" | "pilot_b" => c.pilots.iter().map(|m| m.name.clone()).collect(),
            _ => return Vec::new(),
        };
        v.insert(0, "random".to_string());
        if axis.starts_with("pilot") {
            v.insert(0, "own".to_string());
        }
        v
    }
    /// Sets up a new game or campaign (Setup; Campaign): mechs and pilots, then the first game
    /// ([`Rift::begin_game`]); every draw comes from `rng` (the setup stream).
    fn new_game(s: &RiftSetup, rng: &mut GameRng) -> Self {
        let c = s.content;
        let mut mechs = s.mechs;
        fill_picks(&mut mechs, c.mechs.len() as u8, rng);
        let mut pilots: [Pick; 2] = [None; 2];
        for i in 0..2 {
            pilots[i] = match s.pilots[i] {
                Some(OWN_PILOT) => c
                    .pilots
                    .iter()
                    .position(|p| Some(p.mech) == mechs[i])
                    .map(|p| p as u8),
                other => other,
            };
        }
        if pilots[1].is_some() && pilots[1] == pilots[0] {
            pilots[1] = None; // B's own pilot already flies mech A: draw another
        }
        fill_picks(&mut pilots, c.pilots.len() as u8, rng);
        let fixed = |p: Pick| p.unwrap_or(u8::MAX);
        let opt = |p: Option<u8>| p.unwrap_or(u8::MAX);
        let mut r = Rift {
            content: c,
            buildings: 0,
            mountains: 0,
            water: 0,
            forest: 0,
            desert: 0,
            acid_tiles: 0,
            rock: 0,
            smoke: 0,
            fire: 0,
            acid: 0,
            frozen_b: 0,
            shield_b: 0,
            spawn: [NO_TILE; 8],
            mechs: [Mech {
                tile: NO_TILE,
                hp: 0,
                max_hp: 0,
                status: 0,
                card: 0,
                pilot: 0,
                mech_level: 0,
                pilot_level: 0,
                moved: false,
                done: false,
            }; 2],
            monsters: [Monster::SUPPLY; 4],
            monster_cards: [0, 1, 2],
            maps: [0, 1],
            objectives: [u8::MAX; 2],
            yellow: [false; 2],
            finale: 0,
            campaign_die: 6,
            die: 1,
            die_card: 0,
            compass: 0,
            seek: 1,
            ruins: s.ruins,
            alpha_limit: 0,
            extra_turn: s.extra_turn,
            turn: 0,
            phase: Phase::Deploy,
            turret_used: false,
            result: 0,
            decisions: 0,
            cont: state::Step::Actions,
            cont_done: 0,
            choice: false,
            keep: 0,
            tally: Tally::default(),
            campaign: Campaign {
                on: s.campaign,
                game: s.game,
                ruins_cap: s.ruins,
                both_moons: s.both_moons,
                rules: s.switches.rules,
                moon: s.switches.moon,
                objectives: s.objectives,
                fixed_maps: [fixed(s.maps[0]), fixed(s.maps[1])],
                fixed_monsters: [
                    fixed(s.monsters[0]),
                    fixed(s.monsters[1]),
                    fixed(s.monsters[2]),
                ],
                overrides: [
                    opt(s.starting_monsters),
                    opt(s.alphas),
                    opt(s.finale.map(u8::from)),
                ],
                pending: [0; 2],
                games_won: 0,
                objectives_met: 0,
                upgrades: 0,
                kills: 0,
                alpha_kills: 0,
                ruined: 0,
                mech_deaths: 0,
                blocked: 0,
                turns: 0,
            },
        };
        for i in 0..2 {
            let m = &mut r.mechs[i];
            m.card = mechs[i].unwrap_or(i as u8);
            m.pilot = pilots[i].unwrap_or(i as u8);
            m.mech_level = s.upgrades[2 * i];
            m.pilot_level = s.upgrades[2 * i + 1];
        }
        r.begin_game(rng);
        r
    }
    crate::game::forward_rules!(RiftAction);
    const LOSS_CAUSES: &'static [&'static str] = &LOSS_CAUSES;
    const FEATURE_NAMES: &'static [&'static str] = &FEATURES;
    /// Features after previewing the pending Upkeep and Monsters attack (so a state during Player
    /// actions shows what the aimed attacks will do). Names in [`FEATURES`].
    fn features(&self, out: &mut [f64]) {
        let mut p = *self;
        if p.phase == Phase::Actions && !p.over() {
            p.upkeep(&mut crate::game::NoTrace);
            if !p.over() {
                p.monsters_attack(&mut crate::game::NoTrace);
            }
        }
        let alive = p.mechs.iter().filter(|m| m.alive()).count();
        out[0] = p.buildings.count_ones() as f64;
        out[1] = p.ruins as f64;
        out[2] = p
            .mechs
            .iter()
            .filter(|m| m.alive())
            .map(|m| m.hp as f64)
            .sum();
        out[3] = alive as f64;
        out[4] = p.monsters.iter().filter(|m| m.on_map()).count() as f64;
        out[5] = p
            .monsters
            .iter()
            .filter(|m| m.on_map())
            .map(|m| m.hp as f64)
            .sum();
        let units = p.units();
        out[6] = p
            .monsters
            .iter()
            .filter(|m| m.at == state::Where::Detected && units & bit(m.tile) == 0)
            .count() as f64;
        out[7] = p.campaign_die as f64;
        out[8] = if p.result >= 2 { 1.0 } else { 0.0 };
        let mut threat = 0u32;
        for m in &p.monsters {
            if m.on_map() {
                threat += 1 + u32::from(m.alpha);
            }
        }
        out[9] = threat as f64;
        out[10] = f64::from(p.campaign.games_won);
        let _ = tiles(0);
    }
    const METRIC_NAMES: &'static [&'static str] = &METRICS;
    fn metrics(&self, out: &mut [i64]) {
        let cp = &self.campaign;
        out[0] = cp.games_won as i64;
        out[1] = cp.game as i64 + 1;
        out[2] = cp.upgrades as i64;
        out[3] = cp.objectives_met as i64;
        out[4] = self.ruins as i64;
        out[5] = cp.mech_deaths as i64;
        out[6] = cp.ruined as i64;
        out[7] = self
            .mechs
            .iter()
            .filter(|m| m.alive())
            .map(|m| m.hp as i64)
            .sum();
        out[8] = cp.kills as i64;
        out[9] = cp.alpha_kills as i64;
        out[10] = cp.blocked as i64;
    }
    fn turns(&self) -> u32 {
        // Finished games are in the campaign totals (a won game's last Time passes starts no turn).
        self.campaign.turns as u32 + if self.over() { 0 } else { self.turn as u32 }
    }
    // `determinize` keeps the default (no change): during a game of the Rift nothing is hidden
    // from the player (DESIGN.md, the games table); draws between campaign games happen in
    // `apply` from the chance generator, so a search samples them with its own.

    /// A move opens its mech's plan and an attack or status clear finishes it. Deploying mech
    /// A opens the squad's deploy plan (actor 2) and deploying mech B finishes it: mech B's
    /// deploy starts the first turn (the monsters move and aim), so a planner scores mech A's
    /// tile by the best tile for mech B after a preview of the first monster turn (issue 10),
    /// instead of by a state in which nothing has happened yet.
    fn plan_step(&self, a: RiftAction) -> PlanStep {
        match a {
            RiftAction::Deploy { mech: 0, .. } => PlanStep::Prefix(DEPLOY_ACTOR),
            RiftAction::Deploy { .. } => PlanStep::Finish(DEPLOY_ACTOR),
            RiftAction::Move { mech, .. } => PlanStep::Prefix(mech),
            RiftAction::Attack { mech, .. } | RiftAction::ClearStatus { mech, .. } => {
                PlanStep::Finish(mech)
            }
            _ => PlanStep::Single,
        }
    }
    fn action_text(&self, a: RiftAction) -> String {
        self.describe(a)
    }
    crate::game::forward_position!();
}
