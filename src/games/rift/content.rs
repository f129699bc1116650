//! Bury Me in the Rift's content: mechs, pilots, map cards, monsters, objectives and the
//! campaign card, compiled once from a TOML data file into compact tables.
//!
//! The printed cards are pictures we do not have; `content/rift.toml` (embedded as the default)
//! holds every value, and `CONTENT.md` beside this file gives each value's provenance
//! (`rulebook` with its section, or `assumed` with why). A designer with the real cards
//! replaces the file (`content = "path/to/file.toml"` in an experiment's `[setup]`).

use std::sync::OnceLock;

use super::board::{COLS, ROWS, TILES};

/// Compass directions, in the order used by bit masks and `Dir as usize`.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum Dir {
    /// Up the map (row 1 is the northern edge).
    North = 0,
    /// Toward column 6.
    East = 1,
    /// Down the map.
    South = 2,
    /// Toward column 1.
    West = 3,
}

impl Dir {
    /// All four, in N, E, S, W order.
    pub const ALL: [Dir; 4] = [Dir::North, Dir::East, Dir::South, Dir::West];
    /// The opposite direction.
    pub const fn opposite(self) -> Dir {
        match self {
            Dir::North => Dir::South,
            Dir::East => Dir::West,
            Dir::South => Dir::North,
            Dir::West => Dir::East,
        }
    }
    /// The direction to the left when facing `self` (Attack directions, FAQ: "fire the Grav Beam
    /// toward the East, the tiles left/right of its target will be North and South").
    pub const fn left(self) -> Dir {
        match self {
            Dir::North => Dir::West,
            Dir::East => Dir::North,
            Dir::South => Dir::East,
            Dir::West => Dir::South,
        }
    }
    /// The direction to the right when facing `self`.
    pub const fn right(self) -> Dir {
        self.left().opposite()
    }
    /// Column and row steps (`dc`, `dr`); rows grow southward.
    pub const fn delta(self) -> (i8, i8) {
        match self {
            Dir::North => (0, -1),
            Dir::East => (1, 0),
            Dir::South => (0, 1),
            Dir::West => (-1, 0),
        }
    }
    /// One letter: N, E, S, W.
    pub const fn letter(self) -> char {
        match self {
            Dir::North => 'N',
            Dir::East => 'E',
            Dir::South => 'S',
            Dir::West => 'W',
        }
    }
    /// Parses N, E, S, W (any case) or the full word.
    pub fn parse(s: &str) -> Option<Dir> {
        match s.to_ascii_lowercase().as_str() {
            "n" | "north" => Some(Dir::North),
            "e" | "east" => Some(Dir::East),
            "s" | "south" => Some(Dir::South),
            "w" | "west" => Some(Dir::West),
            _ => None,
        }
    }
    /// From `0..4` (N, E, S, W).
    pub const fn from_index(i: u8) -> Dir {
        Dir::ALL[(i & 3) as usize]
    }
}

/// Printed terrain of one tile (Units; FAQ "Map").
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Default)]
#[repr(u8)]
pub enum Terrain {
    /// Plain ground.
    #[default]
    Ground = 0,
    /// A building (`+`): a target; never moved on or through, never pushed.
    Building = 1,
    /// A mountain: impassable, not a target (unless the finale's mountain buildings apply).
    Mountain = 2,
    /// Water: kills non-flying monsters, stops non-flying mechs from attacking.
    Water = 3,
    /// Forest: a damaged unit here catches fire.
    Forest = 4,
    /// Desert (the rulebook's "sand"): a damaged unit here makes smoke.
    Desert = 5,
}

/// How a monster or mech travels (Units).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Default)]
#[repr(u8)]
pub enum Locomotion {
    /// Orthogonal steps, never through obstacles or enemy units.
    #[default]
    Walk = 0,
    /// Over anything, ignores water; ends on an empty tile.
    Fly = 1,
    /// Over anything, but affected by water where it stops.
    Leap = 2,
}

crate::position_text::named_enum! {
    /// The six status kinds (Status Tokens). The two sides of one token are the pairs
    /// rock/smoke, fire/frozen, shield/acid (CONTENT.md, "Status token pairings").
    pub enum Status {
        /// A 1-HP unit of a token: blocks movement; monsters attack rocks as a last resort.
        Rock = 0 => "rock",
        /// Sits on a tile: units there cannot attack; monsters never aim from it.
        Smoke = 1 => "smoke",
        /// Attaches to a unit that stops on it: 1 effect damage at each Upkeep.
        Fire = 2 => "fire",
        /// Attaches to a unit or building: it cannot move or attack; absorbs the next damage.
        Frozen = 3 => "frozen",
        /// Attaches to a unit or building: absorbs the next damage.
        Shield = 4 => "shield",
        /// Attaches to a unit that stops on it: +1 damage from attacks.
        Acid = 5 => "acid",
    }
}

impl Status {
    /// The other side of the same token.
    pub const fn other_side(self) -> Status {
        match self {
            Status::Rock => Status::Smoke,
            Status::Smoke => Status::Rock,
            Status::Fire => Status::Frozen,
            Status::Frozen => Status::Fire,
            Status::Shield => Status::Acid,
            Status::Acid => Status::Shield,
        }
    }
    /// Which of the three token kinds (0 rock/smoke, 1 fire/frozen, 2 shield/acid).
    pub const fn token_kind(self) -> usize {
        (self as usize) / 2
    }
}

/// Which tiles an attack can be aimed at, measured from the attacker in one of four directions
/// (Attack Examples).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum Shape {
    /// Range 1: the adjacent tile.
    Adjacent = 0,
    /// Range 2: exactly 2 tiles away, skipping the tile between.
    Exact2 = 1,
    /// Range 2+: 2 or more tiles away in a line, skipping everything between; on the map.
    Range2Plus = 2,
    /// Range 6 line: travels up to 6 tiles, stopping at the first non-empty tile, or on the
    /// last tile before the edge.
    Line = 3,
    /// No aim: hits the attacker's own tile area (used for self-centred blasts). Aimed tile is
    /// the attacker's tile.
    SelfTile = 4,
}

impl Shape {
    /// Name as in content files.
    pub const fn name(self) -> &'static str {
        match self {
            Shape::Adjacent => "adjacent",
            Shape::Exact2 => "exact2",
            Shape::Range2Plus => "range2plus",
            Shape::Line => "line",
            Shape::SelfTile => "self",
        }
    }
    /// Parses a content-file name.
    pub fn parse(s: &str) -> Option<Shape> {
        [
            Shape::Adjacent,
            Shape::Exact2,
            Shape::Range2Plus,
            Shape::Line,
            Shape::SelfTile,
        ]
        .into_iter()
        .find(|x| x.name() == s)
    }
}

/// What an attack does to the unit on its target tile besides damage.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Default)]
#[repr(u8)]
pub enum Move {
    /// Nothing moves.
    #[default]
    None = 0,
    /// Push 1 tile in the aimed direction (away from the attacker).
    Push = 1,
    /// Pull 1 tile toward the attacker: a push in the opposite direction (FAQ, Meteor).
    Pull = 2,
    /// Throw: push 1 tile in a direction the attacker chooses among the four (FAQ, Wukong).
    Throw = 3,
}

impl Move {
    /// Name as in content files.
    pub const fn name(self) -> &'static str {
        match self {
            Move::None => "none",
            Move::Push => "push",
            Move::Pull => "pull",
            Move::Throw => "throw",
        }
    }
    /// Parses a content-file name.
    pub fn parse(s: &str) -> Option<Move> {
        [Move::None, Move::Push, Move::Pull, Move::Throw]
            .into_iter()
            .find(|x| x.name() == s)
    }
}

/// What an attack does to the tiles left and right of its target (relative to the aim), e.g.
/// Grav Beam (FAQ, Attack directions).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Default)]
#[repr(u8)]
pub enum SideHit {
    /// Side tiles are untouched.
    #[default]
    None = 0,
    /// Side tiles take the attack's damage.
    Damage = 1,
    /// Side units are pushed outward (left tile to the left, right tile to the right), no damage.
    PushOut = 2,
    /// Side units are pushed in the aimed direction, no damage.
    PushForward = 3,
}

impl SideHit {
    /// Name as in content files.
    pub const fn name(self) -> &'static str {
        match self {
            SideHit::None => "none",
            SideHit::Damage => "damage",
            SideHit::PushOut => "push_out",
            SideHit::PushForward => "push_forward",
        }
    }
    /// Parses a content-file name.
    pub fn parse(s: &str) -> Option<SideHit> {
        [
            SideHit::None,
            SideHit::Damage,
            SideHit::PushOut,
            SideHit::PushForward,
        ]
        .into_iter()
        .find(|x| x.name() == s)
    }
}

/// One attack, compiled. Small and `Copy` so the rules read it without indirection.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Attack {
    /// Index into [`Content::attack_names`].
    pub name: u16,
    /// Where it can be aimed.
    pub shape: Shape,
    /// Damage dealt to the target tile (0 for push-only attacks).
    pub damage: u8,
    /// Push, pull or throw of the unit on the target tile.
    pub movement: Move,
    /// A status added to the target (after damage), if any.
    pub status: Option<Status>,
    /// The unit on the target tile cannot use its regular movement while this attack is aimed
    /// (FAQ, Monster attacks: the Demon and the Intruder).
    pub immobilize: bool,
    /// What happens to the tiles left and right of the target.
    pub sides: SideHit,
    /// The 4 tiles adjacent to the target also take the attack's damage (splash).
    pub splash: bool,
    /// For splash attackers: may aim at mountains or map edges when the splash hits a target
    /// (FAQ, Monster attacks: the Alpha Herald).
    pub aims_at_terrain: bool,
}

/// A stat or attack change revealed by sliding a mech or pilot card (Campaign).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Upgrade {
    /// +N maximum HP (and current HP when revealed between games).
    Hp(u8),
    /// +N movement.
    Movement(u8),
    /// +N damage to the mech's basic attack (only if it deals damage).
    Damage(u8),
    /// The mech flies from now on.
    Flying,
    /// A second weapon; still one attack a turn (FAQ, Player actions).
    Weapon(Attack),
    /// The basic attack adds this status to its target.
    AddStatus(Status),
    /// The mech starts each game with a shield attached.
    StartShield,
}

/// A mech card.
#[derive(Clone, Debug, PartialEq)]
pub struct MechCard {
    /// Printed name.
    pub name: String,
    /// Maximum HP (a die face, 1-6).
    pub hp: u8,
    /// Movement in orthogonal steps.
    pub movement: u8,
    /// How it travels (most walk).
    pub locomotion: Locomotion,
    /// The basic attack.
    pub attack: Attack,
    /// The three upgrade rows, revealed top to bottom.
    pub upgrades: [Upgrade; 3],
}

/// A pilot card.
#[derive(Clone, Debug, PartialEq)]
pub struct PilotCard {
    /// Printed name.
    pub name: String,
    /// Index of the pilot's starting mech in [`Content::mechs`].
    pub mech: u8,
    /// The three upgrade rows, revealed top to bottom.
    pub upgrades: [Upgrade; 3],
}

/// One side (L or R) of a map card: 3 columns × [`ROWS`] rows.
#[derive(Clone, Debug, PartialEq)]
pub struct MapSide {
    /// Terrain, row-major: `terrain[row * 3 + col]`, `col` in `0..3` within the card.
    pub terrain: [Terrain; 3 * ROWS],
    /// Spawn numbers printed on tiles (`0` = none), same layout. L sides carry 1-4 and R sides
    /// 5-8 (CONTENT.md, "Spawn tiles").
    pub spawn: [u8; 3 * ROWS],
    /// Storm tiles: `(tile within the card, turn)` — kills units there at Upkeep when the
    /// campaign die shows `turn` (FAQ, Map effects on yellow objective cards).
    pub storm: Vec<(u8, u8)>,
    /// Flooding tiles: `(tile within the card, turn)` — water during that whole turn.
    pub flood: Vec<(u8, u8)>,
    /// Acid tiles: units that stop there get acid.
    pub acid: Vec<u8>,
    /// The turret (a building) that may attack once during Player actions.
    pub turret: Option<u8>,
    /// The frozen mountain: a building for this game, starting frozen.
    pub frozen_mountain: Option<u8>,
    /// The rocket: a plain building tile the yellow objective asks to protect
    /// ([`Goal::ProtectSpecial`]; Buildings, FAQ: "the turret and rocket are buildings").
    pub rocket: Option<u8>,
}

/// The six finale ("moon icon") effects (FAQ, Finale effects).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum Finale {
    /// Whenever a monster dies, it damages the 4 adjacent tiles.
    ExplodingMonsters = 0,
    /// Monsters treat water as empty ground.
    WaterAsGround = 1,
    /// At Upkeep, mechs in the monster die's column are killed.
    DeadlyColumns = 2,
    /// Detect happens just before Spawn.
    DetectBeforeSpawn = 3,
    /// Mountains count as buildings.
    MountainBuildings = 4,
    /// Monsters have unlimited movement.
    UnlimitedMovement = 5,
}

impl Finale {
    /// All six in order.
    pub const ALL: [Finale; 6] = [
        Finale::ExplodingMonsters,
        Finale::WaterAsGround,
        Finale::DeadlyColumns,
        Finale::DetectBeforeSpawn,
        Finale::MountainBuildings,
        Finale::UnlimitedMovement,
    ];
    /// Name as in content files.
    pub const fn name(self) -> &'static str {
        match self {
            Finale::ExplodingMonsters => "exploding_monsters",
            Finale::WaterAsGround => "water_as_ground",
            Finale::DeadlyColumns => "deadly_columns",
            Finale::DetectBeforeSpawn => "detect_before_spawn",
            Finale::MountainBuildings => "mountain_buildings",
            Finale::UnlimitedMovement => "unlimited_movement",
        }
    }
    /// Parses a content-file name.
    pub fn parse(s: &str) -> Option<Finale> {
        Finale::ALL.into_iter().find(|f| f.name() == s)
    }
}

/// A map card: both sides and its moon (finale) effect.
#[derive(Clone, Debug, PartialEq)]
pub struct MapCard {
    /// Printed name.
    pub name: String,
    /// The L side (shown when the card is on the left).
    pub left: MapSide,
    /// The R side (shown when the card is on the right).
    pub right: MapSide,
    /// The moon icon's finale effect.
    pub moon: Finale,
}

/// A monster's stats for one version (normal or Alpha).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct MonsterStats {
    /// Full HP (monsters spawn with full HP).
    pub hp: u8,
    /// Movement in steps.
    pub movement: u8,
    /// Walk, fly or leap.
    pub locomotion: Locomotion,
    /// Its attack.
    pub attack: Attack,
}

/// A monster card.
#[derive(Clone, Debug, PartialEq)]
pub struct MonsterCard {
    /// Printed name.
    pub name: String,
    /// Normal version (left HP track).
    pub normal: MonsterStats,
    /// Alpha version (right HP track, blue).
    pub alpha: MonsterStats,
    /// The targeting priority compass printed beside the die's white square, first to last.
    pub compass: [Dir; 4],
    /// The seek direction beside the die: `+1` = east (right), `-1` = west (left), wrapping.
    pub seek: i8,
}

/// The goal an objective card sets (assumed list; CONTENT.md, "Objectives").
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Goal {
    /// No building on this card's map half is damaged during the game.
    ProtectHalf,
    /// Kill at least N monsters during the game.
    KillMonsters(u8),
    /// Kill at least one Alpha monster.
    KillAlpha,
    /// Both mechs survive the game.
    BothMechsSurvive,
    /// The special building (turret, rocket, frozen mountain) on this map survives; for the
    /// frozen mountain it must also end the game unfrozen.
    ProtectSpecial,
    /// At least N detections blocked at the Spawn step during the game.
    BlockSpawns(u8),
    /// At most N buildings damaged in the whole game.
    FewRuins(u8),
}

/// An objective card: a yellow side tied to one map card (map effect + goal) and a red side
/// (a general goal). Rewards come from the campaign card.
#[derive(Clone, Debug, PartialEq)]
pub struct ObjectiveCard {
    /// Printed name.
    pub name: String,
    /// Index of the map card whose yellow effect this card carries.
    pub map: u8,
    /// The yellow side's goal.
    pub yellow: Goal,
    /// The red side's goal.
    pub red: Goal,
}

/// The colour of an objective slot on the campaign card.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Slot {
    /// No objective on that map card this game.
    None,
    /// The map's own yellow objective (map effect + goal).
    Yellow,
    /// A random red objective.
    Red,
}

/// Rewards printed for a goal on the campaign card.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Default)]
pub struct Reward {
    /// An upgrade for mech A or its pilot.
    pub a: bool,
    /// An upgrade for mech B or its pilot.
    pub b: bool,
    /// Return one lost ruin (max 3).
    pub ruin: bool,
}

/// One game on the campaign card.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct CampaignGame {
    /// Objective slot on the left map card.
    pub left: Slot,
    /// Objective slot on the right map card.
    pub right: Slot,
    /// Reward for the left goal.
    pub left_reward: Reward,
    /// Reward for the right goal.
    pub right_reward: Reward,
    /// Monsters placed at setup.
    pub starting_monsters: u8,
    /// How many Alphas may be on the map (detections become Alphas until this many are).
    pub alphas: u8,
    /// The finale: the moon icon effects apply.
    pub finale: bool,
}

/// Everything printed on the cards, compiled.
#[derive(Clone, Debug, PartialEq)]
pub struct Content {
    /// Where it was loaded from (`builtin` or a path), for positions and reports.
    pub source: String,
    /// Attack names, indexed by [`Attack::name`].
    pub attack_names: Vec<String>,
    /// The 8 mech cards.
    pub mechs: Vec<MechCard>,
    /// The 8 pilot cards.
    pub pilots: Vec<PilotCard>,
    /// The 6 map cards.
    pub maps: Vec<MapCard>,
    /// The 6 monster cards.
    pub monsters: Vec<MonsterCard>,
    /// The 6 objective cards.
    pub objectives: Vec<ObjectiveCard>,
    /// The games on the campaign card, in order.
    pub campaign: Vec<CampaignGame>,
    /// Turret attack (used when a yellow turret objective is in play).
    pub turret_attack: Attack,
}

/// The embedded default content file.
pub const BUILTIN_TOML: &str = include_str!("content/rift.toml");

static BUILTIN: OnceLock<Content> = OnceLock::new();

/// The built-in content, parsed once.
///
/// # Panics
/// If the embedded file is invalid (a test guards this).
pub fn builtin() -> &'static Content {
    BUILTIN.get_or_init(|| {
        super::content_file::parse(BUILTIN_TOML, "builtin")
            .unwrap_or_else(|e| panic!("embedded rift content is invalid: {e}"))
    })
}

impl Content {
    /// The index of a mech by name (case-insensitive).
    pub fn mech_index(&self, name: &str) -> Option<u8> {
        self.mechs
            .iter()
            .position(|m| m.name.eq_ignore_ascii_case(name))
            .map(|i| i as u8)
    }
    /// The index of a pilot by name (case-insensitive).
    pub fn pilot_index(&self, name: &str) -> Option<u8> {
        self.pilots
            .iter()
            .position(|m| m.name.eq_ignore_ascii_case(name))
            .map(|i| i as u8)
    }
    /// The index of a map card by name (case-insensitive).
    pub fn map_index(&self, name: &str) -> Option<u8> {
        self.maps
            .iter()
            .position(|m| m.name.eq_ignore_ascii_case(name))
            .map(|i| i as u8)
    }
    /// The index of a monster card by name (case-insensitive).
    pub fn monster_index(&self, name: &str) -> Option<u8> {
        self.monsters
            .iter()
            .position(|m| m.name.eq_ignore_ascii_case(name))
            .map(|i| i as u8)
    }
    /// The name of an attack.
    pub fn attack_name(&self, a: &Attack) -> &str {
        &self.attack_names[a.name as usize]
    }
}

const _: () = assert!(COLS == 6 && TILES <= 64);
