//! Buried Beneath's cards as data: the compiled tables the rules read ([`Content`]) and the one
//! loader that builds them from TOML ([`parse`], [`builtin`]; a file by its path through [`crate::content::load_cached`]).
//!
//! The file format is documented at the top of `content/buried.toml` (the embedded default);
//! `CONTENT.md` beside this file gives every value's provenance. The TOML is read by serde
//! (`deny_unknown_fields`), then checked by [`parse`]'s own validation, whose errors are one
//! line naming the file, the entry and the field, e.g. `buried.toml: village 'Mill': field
//! 'front.paths[1]': unknown place 'Mil Pond' (valid: Mill Pond, Waterwheel)` (indices
//! 1-based). Syntax and type errors give `file:line:column: message`.

use std::sync::OnceLock;

use serde::Deserialize;

use crate::content::{ContentText, FieldPath};
use crate::game::SetupError;

/// Village map cards besides the Village Center (Components: 9 Village Map cards).
pub const VILLAGES: usize = 8;
/// Monster camp cards (Components: 6 Monster Camp cards).
pub const CAMPS: usize = 6;
/// Hero cards (Components: 3 Hero cards).
pub const HEROES: usize = 3;
/// Boss cards (Components: 2 Boss cards).
pub const BOSSES: usize = 2;
/// Dice of one colour (Components: 12 Monster Unit dice, 6 of each of two types).
pub const DICE_PER_COLOUR: usize = 6;
/// The highest value a stat may start at or reach (a stat track; CONTENT.md, "Stat caps").
pub const STAT_MAX: u8 = 9;

/// A hero stat, in the order stats are stored (`[health, mana, damage, speed]`).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum Stat {
    /// Green Health (its action: Rally).
    Health = 0,
    /// Blue Mana (its action: use a Skill).
    Mana = 1,
    /// Red Damage (its action: Attack).
    Damage = 2,
    /// Clear Speed (its action: Move).
    Speed = 3,
}

impl Stat {
    /// All four, in storage order.
    pub const ALL: [Stat; 4] = [Stat::Health, Stat::Mana, Stat::Damage, Stat::Speed];
    /// The name used in files and traces.
    pub const fn name(self) -> &'static str {
        match self {
            Stat::Health => "health",
            Stat::Mana => "mana",
            Stat::Damage => "damage",
            Stat::Speed => "speed",
        }
    }
    /// One letter for the village text (`H`, `M`, `D`, `S`).
    pub const fn letter(self) -> char {
        match self {
            Stat::Health => 'H',
            Stat::Mana => 'M',
            Stat::Damage => 'D',
            Stat::Speed => 'S',
        }
    }
    /// Reads a stat name.
    pub fn parse(s: &str) -> Option<Stat> {
        Stat::ALL.into_iter().find(|x| x.name() == s)
    }
}

/// A location printed on a village map card (Gameplay Overview; Placing Villagers).
#[derive(Clone, Debug, PartialEq)]
pub struct Place {
    /// Printed name.
    pub name: String,
    /// Where on its card, column and row in `0..3` (for "left or right before up or down").
    pub at: (u8, u8),
    /// Stat symbols (each: +1 to that stat or its action), in printed order.
    pub plus: Vec<Stat>,
    /// Crossed-out symbols per stat (`[health, mana, damage, speed]`): each lowers the stat by 1.
    pub minus: [u8; 4],
    /// A skull icon: Rally cannot collect a villager here; The Monstrosity covers it.
    pub skull: bool,
    /// A Hidden Tunnels location.
    pub tunnel: bool,
}

/// One side of the Village Center card: its four corner locations (north-west, north-east,
/// south-west, south-east), each joined to the middle and across the card edges.
#[derive(Clone, Debug, PartialEq)]
pub struct CenterSide {
    /// The corners in the order NW, NE, SW, SE.
    pub corners: [Place; 4],
}

/// The Village Center card (Setup; Movement: "5 locations").
#[derive(Clone, Debug, PartialEq)]
pub struct CenterCard {
    /// Card name.
    pub name: String,
    /// The middle (red-bordered) location's name.
    pub center: String,
    /// Front and back.
    pub sides: [CenterSide; 2],
}

/// One side of a village map card: two locations, whether a path joins them on the card, and
/// which of them owns each half of each edge (`edges[e][h]`, `e` in N, E, S, W order; `h` 0 is
/// the west half of a north/south edge and the north half of an east/west edge).
#[derive(Clone, Debug, PartialEq)]
pub struct VillageSide {
    /// The two locations.
    pub places: [Place; 2],
    /// A path joins the two on the card.
    pub inner: bool,
    /// Owner (0 or 1) of each edge half.
    pub edges: [[u8; 2]; 4],
}

/// A two-sided village map card.
#[derive(Clone, Debug, PartialEq)]
pub struct VillageCard {
    /// Card name.
    pub name: String,
    /// Front and back.
    pub sides: [VillageSide; 2],
    /// Carries Hidden Tunnels (one location on each side).
    pub tunnels: bool,
}

/// A monster type's movement skill (Monster Camp Card Breakdown: Movement Skill).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum MoveSkill {
    /// No movement skill.
    None,
    /// On entering a location showing the symbol (a stat, or skull when `None`), the monster
    /// gains 1 health (the Banshee's printed skill, its icon assumed skull).
    HealOn(Option<Stat>),
    /// On entering a location with a villager, the villager is moved to an adjacent location
    /// (chosen by the player); only the new location's negative effects apply (Moving Villagers).
    PushVillager,
    /// Stops moving on entering a location with a villager.
    StopAtVillager,
}

/// A monster type's attack skill (Monster Camp Card Breakdown: Attack Skill).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum AttackSkill {
    /// No attack skill.
    None,
    /// When defeated by the hero with at least `at_least` of `stat`, the hero loses 1 of it
    /// (the Banshee's printed skill, icon assumed Mana).
    DrainOnDefeat {
        /// The stat.
        stat: Stat,
        /// The threshold.
        at_least: u8,
    },
    /// Targets a villager in range before the hero ("unless their card says differently").
    VillagersFirst,
    /// A hit on the hero also lowers this stat by 1.
    Wound(Stat),
}

/// One side of a monster camp card.
#[derive(Clone, Debug, PartialEq)]
pub struct CampSide {
    /// Monster type.
    pub name: String,
    /// Starting health (a die face, 1-6).
    pub health: u8,
    /// Base speed.
    pub speed: u8,
    /// Base damage.
    pub damage: u8,
    /// Bow (adjacent location) or sword (own location).
    pub ranged: bool,
    /// The wave number printed on each starting square.
    pub squares: Vec<u8>,
    /// The icon bottom right: 0 sun, 1 moon (Wave Setup's icon matching).
    pub mark: u8,
    /// Where the deployment path meets the village card: 0 left, 1 right, seen from the camp.
    pub path: u8,
    /// Movement skill.
    pub movement: MoveSkill,
    /// Attack skill.
    pub skill: AttackSkill,
}

/// A two-sided monster camp card.
#[derive(Clone, Debug, PartialEq)]
pub struct CampCard {
    /// Front and back.
    pub sides: [CampSide; 2],
}

/// What a hero skill does (Hero Card Breakdown; CONTENT.md, "Skills").
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum SkillKind {
    /// Gale Winds: move an enemy or villager from any location to an adjacent one; a monster
    /// loses `amount` health.
    Gale(u8),
    /// Force Wall: place or move the wall on a path between two cards; enemies cannot use it.
    Wall,
    /// Chain Lightning: `amount` damage to an enemy in an adjacent location, bouncing to a
    /// monster adjacent to it.
    Chain(u8),
    /// Trap: put the Trap on the hero's or an adjacent location; the first monster to enter
    /// it stops there and loses `amount` health.
    Trap(u8),
    /// Grants an Attack action (no stat spent).
    GrantAttack,
    /// Grants a Move action (no stat spent).
    GrantMove,
    /// Grants a Rally action (no stat spent).
    GrantRally,
    /// One fled villager returns, ready to place.
    Recall,
    /// The hero gains `amount` Health.
    Heal(u8),
    /// `amount` damage to every enemy in the hero's location.
    Cleave(u8),
}

/// A hero skill.
#[derive(Clone, Debug, PartialEq)]
pub struct Skill {
    /// Printed name.
    pub name: String,
    /// Cool-down in turns (the number in brackets).
    pub cooldown: u8,
    /// Effect.
    pub kind: SkillKind,
}

/// One side of a hero card.
#[derive(Clone, Debug, PartialEq)]
pub struct HeroSide {
    /// Hero name.
    pub name: String,
    /// Starting stats `[health, mana, damage, speed]`.
    pub stats: [u8; 4],
    /// Bow (adjacent location) or sword (own location).
    pub ranged: bool,
    /// The three skills.
    pub skills: [Skill; 3],
}

/// A two-sided hero card.
#[derive(Clone, Debug, PartialEq)]
pub struct HeroCard {
    /// Front and back.
    pub sides: [HeroSide; 2],
}

/// A boss card (Boss Card Breakdown).
#[derive(Clone, Debug, PartialEq)]
pub struct BossCard {
    /// Boss name.
    pub name: String,
    /// Starting `[health, speed, damage, armor]`.
    pub stats: [u8; 4],
    /// Bow or sword.
    pub ranged: bool,
    /// Targets villagers before the hero (moves toward the nearest villager).
    pub hunts_villagers: bool,
    /// The Monstrosity's skull track (CONTENT.md, "The Monstrosity").
    pub skull_track: bool,
    /// Health gained after defeating a villager.
    pub villager_gain: u8,
}

/// Everything printed on the cards, checked.
#[derive(Clone, Debug, PartialEq)]
pub struct Content {
    /// Where it came from (`builtin` or a path).
    pub source: String,
    /// The Village Center card.
    pub center: CenterCard,
    /// The 8 village map cards.
    pub villages: Vec<VillageCard>,
    /// The 6 monster camp cards.
    pub camps: Vec<CampCard>,
    /// The 3 hero cards.
    pub heroes: Vec<HeroCard>,
    /// The 2 boss cards.
    pub bosses: Vec<BossCard>,
}

impl Content {
    /// The hero side with index `i` (`card * 2 + side`).
    #[inline]
    pub fn hero(&self, i: u8) -> &HeroSide {
        &self.heroes[i as usize / 2].sides[i as usize % 2]
    }
    /// Names of all hero sides, by index.
    pub fn hero_names(&self) -> Vec<String> {
        (0..self.heroes.len() * 2)
            .map(|i| self.hero(i as u8).name.clone())
            .collect()
    }
    /// Names of the camp cards (`Front/Back`), by index.
    pub fn camp_names(&self) -> Vec<String> {
        self.camps
            .iter()
            .map(|c| format!("{}/{}", c.sides[0].name, c.sides[1].name))
            .collect()
    }
    /// The camp card with a side named `name` (or `Front/Back`), case-insensitive.
    pub fn camp_index(&self, name: &str) -> Option<u8> {
        let names = self.camp_names();
        self.camps
            .iter()
            .position(|c| c.sides.iter().any(|s| s.name.eq_ignore_ascii_case(name)))
            .or_else(|| names.iter().position(|n| n.eq_ignore_ascii_case(name)))
            .map(|i| i as u8)
    }
}

/// The embedded default content file.
pub const BUILTIN_TOML: &str = include_str!("content/buried.toml");

static BUILTIN: OnceLock<Content> = OnceLock::new();

/// The embedded default content (`content/buried.toml`).
///
/// # Panics
/// Never in a released build: a test checks the embedded file parses.
pub fn builtin() -> &'static Content {
    BUILTIN.get_or_init(|| parse(BUILTIN_TOML, "builtin").expect("builtin content parses"))
}

// ---------------------------------------------------------------------------------------------
// The file as written

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawFile {
    center: RawCenter,
    #[serde(default)]
    village: Vec<RawVillage>,
    #[serde(default)]
    camp: Vec<RawCamp>,
    #[serde(default)]
    hero: Vec<RawHero>,
    #[serde(default)]
    boss: Vec<RawBoss>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawPlace {
    name: String,
    at: String,
    #[serde(default)]
    symbols: Vec<String>,
    #[serde(default)]
    tunnel: bool,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawCenter {
    name: String,
    center: String,
    front: Option<RawCenterSide>,
    back: Option<RawCenterSide>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawCenterSide {
    corners: Vec<RawPlace>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawVillage {
    name: String,
    front: Option<RawVillageSide>,
    back: Option<RawVillageSide>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawVillageSide {
    places: Vec<RawPlace>,
    #[serde(default)]
    paths: Vec<Vec<String>>,
    north: Vec<String>,
    east: Vec<String>,
    south: Vec<String>,
    west: Vec<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawCampSkill {
    kind: String,
    symbol: Option<String>,
    stat: Option<String>,
    at_least: Option<i64>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawCampSide {
    name: String,
    health: i64,
    speed: i64,
    damage: i64,
    attack: String,
    squares: Vec<i64>,
    mark: String,
    path: String,
    movement: RawCampSkill,
    skill: RawCampSkill,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawCamp {
    front: Option<RawCampSide>,
    back: Option<RawCampSide>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawSkill {
    name: String,
    cooldown: i64,
    kind: String,
    amount: Option<i64>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawHeroSide {
    name: String,
    health: i64,
    mana: i64,
    damage: i64,
    speed: i64,
    attack: String,
    skills: Vec<RawSkill>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawHero {
    front: Option<RawHeroSide>,
    back: Option<RawHeroSide>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawBoss {
    name: String,
    health: i64,
    speed: i64,
    damage: i64,
    armor: i64,
    attack: String,
    hunts: String,
    #[serde(default)]
    skull_track: bool,
    #[serde(default)]
    villager_gain: i64,
}

// ---------------------------------------------------------------------------------------------
// Checking and compiling

/// Parses content text (the format documented in `content/buried.toml`) into [`Content`].
///
/// # Errors
/// One line: `source:line:column: message` for TOML syntax, type and unknown-key errors;
/// `source: ENTRY: field 'PATH': message` for a broken rule of the format: a card without both
/// sides, a wrong number of cards (8 village, 6 camp, 3 hero, 2 boss cards; 4 corners; 2
/// places a side; 3 skills), a path or edge naming a place that does not exist, an unknown
/// symbol, position, attack type, mark, skill kind or stat, two Hidden Tunnels on one card
/// side (or a tunnel card without one on each side, or other than 2 tunnel cards), a card
/// whose two sides show the same mark, a number out of range, or a duplicate name.
pub fn parse(text: &str, source: &str) -> Result<Content, SetupError> {
    let doc = ContentText::new(source, text);
    let raw: RawFile = doc.deserialize()?;
    compile(raw, &doc)
}

/// Where validation is: the content text and the path of the entry being checked.
struct Ctx<'a, 't> {
    doc: &'a ContentText<'t>,
    entry: String,
}

impl Ctx<'_, '_> {
    fn err(&self, field: &str, msg: impl std::fmt::Display) -> SetupError {
        let path = if self.entry.is_empty() {
            field.to_string()
        } else {
            format!("{}.{field}", self.entry)
        };
        self.doc.error(&FieldPath::parse(&path), msg)
    }
    fn range(&self, field: &str, v: i64, lo: i64, hi: i64) -> Result<u8, SetupError> {
        if (lo..=hi).contains(&v) {
            Ok(v as u8)
        } else {
            Err(self.err(field, format!("{v} is out of range {lo}..={hi}")))
        }
    }
}

fn compile(raw: RawFile, doc: &ContentText) -> Result<Content, SetupError> {
    let source = doc.source();
    let top = Ctx {
        doc,
        entry: String::new(),
    };
    // Village Center.
    let c = &raw.center;
    let cx = Ctx {
        doc,
        entry: "center".into(),
    };
    let mut center_sides = Vec::new();
    for (sname, side) in [("front", &c.front), ("back", &c.back)] {
        let Some(side) = side else {
            return Err(cx.err(sname, "missing: a card has a front and a back"));
        };
        if side.corners.len() != 4 {
            return Err(cx.err(
                &format!("{sname}.corners"),
                format!(
                    "{} corners (the Village Center card has 4 corners around its middle)",
                    side.corners.len()
                ),
            ));
        }
        let mut corners = Vec::new();
        for (i, p) in side.corners.iter().enumerate() {
            let place = compile_place(&cx, &format!("{sname}.corners[{}]", i + 1), p)?;
            if place.tunnel {
                return Err(cx.err(
                    &format!("{sname}.corners[{}].tunnel", i + 1),
                    "the Village Center card has no Hidden Tunnels",
                ));
            }
            corners.push(place);
        }
        let corners: [Place; 4] = corners.try_into().expect("4 corners");
        center_sides.push(CenterSide { corners });
    }
    let center = CenterCard {
        name: c.name.clone(),
        center: c.center.clone(),
        sides: center_sides.try_into().expect("2 sides"),
    };
    // Village cards.
    if raw.village.len() != VILLAGES {
        return Err(top.err(
            "village",
            format!(
                "{} village cards (Components: 9 Village Map cards, the Village Center and {VILLAGES} more)",
                raw.village.len()
            ),
        ));
    }
    let mut villages = Vec::new();
    for (vi, v) in raw.village.iter().enumerate() {
        let cx = Ctx {
            doc,
            entry: format!("village[{}]", vi + 1),
        };
        if villages.iter().any(|x: &VillageCard| x.name == v.name) {
            return Err(cx.err("name", "a second village card with this name"));
        }
        let mut sides = Vec::new();
        let mut tunnel_sides = 0;
        for (sname, side) in [("front", &v.front), ("back", &v.back)] {
            let Some(side) = side else {
                return Err(cx.err(sname, "missing: a card has a front and a back"));
            };
            let s = compile_village_side(&cx, sname, side)?;
            let tunnels = s.places.iter().filter(|p| p.tunnel).count();
            if tunnels > 1 {
                return Err(cx.err(
                    &format!("{sname}.places[2].tunnel"),
                    "two Hidden Tunnels on one card side (a tunnel card has one on each side)",
                ));
            }
            tunnel_sides += tunnels;
            sides.push(s);
        }
        if tunnel_sides == 1 {
            return Err(cx.err(
                "back.places",
                "Hidden Tunnels on one side only (a tunnel card has one on each side)",
            ));
        }
        villages.push(VillageCard {
            name: v.name.clone(),
            sides: sides.try_into().expect("2 sides"),
            tunnels: tunnel_sides == 2,
        });
    }
    let tunnel_cards = villages.iter().filter(|v| v.tunnels).count();
    if tunnel_cards != 2 {
        return Err(top.err(
            "village",
            format!("{tunnel_cards} cards with Hidden Tunnels (Setup: exactly 2, placed opposite)"),
        ));
    }
    // Camps.
    if raw.camp.len() != CAMPS {
        return Err(top.err(
            "camp",
            format!(
                "{} camp cards (Components: {CAMPS} Monster Camp cards)",
                raw.camp.len()
            ),
        ));
    }
    let mut camps: Vec<CampCard> = Vec::new();
    for (i, k) in raw.camp.iter().enumerate() {
        let cx = Ctx {
            doc,
            entry: format!("camp[{}]", i + 1),
        };
        let mut sides = Vec::new();
        for (sname, side) in [("front", &k.front), ("back", &k.back)] {
            let Some(side) = side else {
                return Err(cx.err(sname, "missing: a card has a front and a back"));
            };
            let s = compile_camp_side(&cx, sname, side)?;
            if camps
                .iter()
                .flat_map(|c| c.sides.iter())
                .chain(sides.iter())
                .any(|x: &CampSide| x.name.eq_ignore_ascii_case(&s.name))
            {
                return Err(cx.err(
                    &format!("{sname}.name"),
                    "a second camp side with this name",
                ));
            }
            sides.push(s);
        }
        if sides[0].mark == sides[1].mark {
            return Err(cx.err(
                "back.mark",
                "both sides show the same mark (one sun and one moon side, for Wave Setup's icon matching)",
            ));
        }
        camps.push(CampCard {
            sides: sides.try_into().expect("2 sides"),
        });
    }
    // Heroes.
    if raw.hero.len() != HEROES {
        return Err(top.err(
            "hero",
            format!(
                "{} hero cards (Components: {HEROES} Hero cards)",
                raw.hero.len()
            ),
        ));
    }
    let mut heroes: Vec<HeroCard> = Vec::new();
    for (i, h) in raw.hero.iter().enumerate() {
        let cx = Ctx {
            doc,
            entry: format!("hero[{}]", i + 1),
        };
        let mut sides = Vec::new();
        for (sname, side) in [("front", &h.front), ("back", &h.back)] {
            let Some(side) = side else {
                return Err(cx.err(sname, "missing: a card has a front and a back"));
            };
            let s = compile_hero_side(&cx, sname, side)?;
            if heroes
                .iter()
                .flat_map(|c| c.sides.iter())
                .chain(sides.iter())
                .any(|x: &HeroSide| x.name.eq_ignore_ascii_case(&s.name))
            {
                return Err(cx.err(
                    &format!("{sname}.name"),
                    "a second hero side with this name",
                ));
            }
            sides.push(s);
        }
        heroes.push(HeroCard {
            sides: sides.try_into().expect("2 sides"),
        });
    }
    // Bosses.
    if raw.boss.len() != BOSSES {
        return Err(top.err(
            "boss",
            format!(
                "{} boss cards (Components: {BOSSES} Boss cards)",
                raw.boss.len()
            ),
        ));
    }
    let mut bosses: Vec<BossCard> = Vec::new();
    for (bi, b) in raw.boss.iter().enumerate() {
        let cx = Ctx {
            doc,
            entry: format!("boss[{}]", bi + 1),
        };
        if bosses.iter().any(|x| x.name.eq_ignore_ascii_case(&b.name)) {
            return Err(cx.err("name", "a second boss with this name"));
        }
        bosses.push(BossCard {
            name: b.name.clone(),
            stats: [
                cx.range("health", b.health, 1, STAT_MAX as i64)?,
                cx.range("speed", b.speed, 1, STAT_MAX as i64)?,
                cx.range("damage", b.damage, 1, STAT_MAX as i64)?,
                cx.range("armor", b.armor, 1, STAT_MAX as i64)?,
            ],
            ranged: attack_type(&cx, "attack", &b.attack)?,
            hunts_villagers: match b.hunts.as_str() {
                "hero" => false,
                "villagers" => true,
                other => {
                    return Err(cx.err(
                        "hunts",
                        format!("unknown target '{other}' (valid: hero, villagers)"),
                    ));
                }
            },
            skull_track: b.skull_track,
            villager_gain: cx.range("villager_gain", b.villager_gain, 0, STAT_MAX as i64)?,
        });
    }
    Ok(Content {
        source: source.to_string(),
        center,
        villages,
        camps,
        heroes,
        bosses,
    })
}

fn attack_type(cx: &Ctx, field: &str, s: &str) -> Result<bool, SetupError> {
    match s {
        "melee" | "sword" => Ok(false),
        "ranged" | "bow" => Ok(true),
        other => Err(cx.err(
            field,
            format!("unknown attack type '{other}' (valid: melee, ranged)"),
        )),
    }
}

const AT_NAMES: [&str; 9] = ["nw", "n", "ne", "w", "c", "e", "sw", "s", "se"];

fn compile_place(cx: &Ctx, field: &str, p: &RawPlace) -> Result<Place, SetupError> {
    let Some(at) = AT_NAMES.iter().position(|a| *a == p.at) else {
        return Err(cx.err(
            &format!("{field}.at"),
            format!(
                "unknown position '{}' (valid: {})",
                p.at,
                AT_NAMES.join(", ")
            ),
        ));
    };
    let mut place = Place {
        name: p.name.clone(),
        at: ((at % 3) as u8, (at / 3) as u8),
        plus: Vec::new(),
        minus: [0; 4],
        skull: false,
        tunnel: p.tunnel,
    };
    for (i, s) in p.symbols.iter().enumerate() {
        if s == "skull" {
            if place.skull {
                return Err(cx.err(&format!("{field}.symbols[{}]", i + 1), "a second skull"));
            }
            place.skull = true;
        } else if let Some(stat) = s.strip_prefix('-').and_then(Stat::parse) {
            place.minus[stat as usize] += 1;
        } else if let Some(stat) = Stat::parse(s) {
            place.plus.push(stat);
        } else {
            return Err(cx.err(
                &format!("{field}.symbols[{}]", i + 1),
                format!(
                    "unknown symbol '{s}' (valid: health, mana, damage, speed, -health, -mana, -damage, -speed, skull)"
                ),
            ));
        }
    }
    if place.plus.len() > 3 {
        return Err(cx.err(
            &format!("{field}.symbols"),
            "more than 3 stat symbols on one location",
        ));
    }
    Ok(place)
}

fn compile_village_side(
    cx: &Ctx,
    sname: &str,
    side: &RawVillageSide,
) -> Result<VillageSide, SetupError> {
    if side.places.len() != 2 {
        return Err(cx.err(
            &format!("{sname}.places"),
            format!(
                "{} places (each village card side has 2 locations)",
                side.places.len()
            ),
        ));
    }
    let a = compile_place(cx, &format!("{sname}.places[1]"), &side.places[0])?;
    let b = compile_place(cx, &format!("{sname}.places[2]"), &side.places[1])?;
    if a.name == b.name {
        return Err(cx.err(
            &format!("{sname}.places[2].name"),
            "two places with one name",
        ));
    }
    let valid = format!("{}, {}", a.name, b.name);
    let find = |field: &str, n: &str| -> Result<u8, SetupError> {
        if n == a.name {
            Ok(0)
        } else if n == b.name {
            Ok(1)
        } else {
            Err(cx.err(field, format!("unknown place '{n}' (valid: {valid})")))
        }
    };
    let mut inner = false;
    for (i, p) in side.paths.iter().enumerate() {
        let field = format!("{sname}.paths[{}]", i + 1);
        if p.len() != 2 {
            return Err(cx.err(&field, "a path joins exactly 2 places"));
        }
        let x = find(&field, &p[0])?;
        let y = find(&field, &p[1])?;
        if x == y {
            return Err(cx.err(&field, "a path joins two different places"));
        }
        inner = true;
    }
    if !inner {
        return Err(cx.err(
            &format!("{sname}.paths"),
            "no path joins the two places (in a corner of the map a place would be cut off; CONTENT.md, \"Card paths\")",
        ));
    }
    let mut edges = [[0u8; 2]; 4];
    for (e, (ename, owners)) in [
        ("north", &side.north),
        ("east", &side.east),
        ("south", &side.south),
        ("west", &side.west),
    ]
    .into_iter()
    .enumerate()
    {
        let field = format!("{sname}.{ename}");
        if owners.len() != 2 {
            return Err(cx.err(
                &field,
                "name the place owning each half of the edge (2 names)",
            ));
        }
        for h in 0..2 {
            edges[e][h] = find(&format!("{field}[{}]", h + 1), &owners[h])?;
        }
    }
    Ok(VillageSide {
        places: [a, b],
        inner,
        edges,
    })
}

fn camp_skill_stat(cx: &Ctx, field: &str, s: &Option<String>) -> Result<Stat, SetupError> {
    let Some(s) = s else {
        return Err(cx.err(field, "missing stat"));
    };
    Stat::parse(s).ok_or_else(|| {
        cx.err(
            field,
            format!("unknown stat '{s}' (valid: health, mana, damage, speed)"),
        )
    })
}

fn compile_camp_side(cx: &Ctx, sname: &str, s: &RawCampSide) -> Result<CampSide, SetupError> {
    let f = |x: &str| format!("{sname}.{x}");
    if s.squares.is_empty() || s.squares.len() > DICE_PER_COLOUR {
        return Err(cx.err(
            &f("squares"),
            format!(
                "{} squares (1 to {DICE_PER_COLOUR}: the dice of one colour)",
                s.squares.len()
            ),
        ));
    }
    let mut squares = Vec::new();
    for (i, &q) in s.squares.iter().enumerate() {
        squares.push(cx.range(&format!("{sname}.squares[{}]", i + 1), q, 1, 4)?);
    }
    let movement = match s.movement.kind.as_str() {
        "none" => MoveSkill::None,
        "heal_on" => match s.movement.symbol.as_deref() {
            Some("skull") | None => MoveSkill::HealOn(None),
            Some(x) => MoveSkill::HealOn(Some(Stat::parse(x).ok_or_else(|| {
                cx.err(
                    &f("movement.symbol"),
                    format!("unknown symbol '{x}' (valid: skull, health, mana, damage, speed)"),
                )
            })?)),
        },
        "push_villager" => MoveSkill::PushVillager,
        "stop_at_villager" => MoveSkill::StopAtVillager,
        other => {
            return Err(cx.err(
                &f("movement.kind"),
                format!(
                    "unknown movement skill '{other}' (valid: none, heal_on, push_villager, stop_at_villager)"
                ),
            ));
        }
    };
    let skill = match s.skill.kind.as_str() {
        "none" => AttackSkill::None,
        "drain_on_defeat" => AttackSkill::DrainOnDefeat {
            stat: camp_skill_stat(cx, &f("skill.stat"), &s.skill.stat)?,
            at_least: cx.range(&f("skill.at_least"), s.skill.at_least.unwrap_or(1), 1, 9)?,
        },
        "villagers_first" => AttackSkill::VillagersFirst,
        "wound" => AttackSkill::Wound(camp_skill_stat(cx, &f("skill.stat"), &s.skill.stat)?),
        other => {
            return Err(cx.err(
                &f("skill.kind"),
                format!(
                    "unknown attack skill '{other}' (valid: none, drain_on_defeat, villagers_first, wound)"
                ),
            ));
        }
    };
    Ok(CampSide {
        name: s.name.clone(),
        health: cx.range(&f("health"), s.health, 1, 6)?,
        speed: cx.range(&f("speed"), s.speed, 1, 4)?,
        damage: cx.range(&f("damage"), s.damage, 1, 3)?,
        ranged: attack_type(cx, &f("attack"), &s.attack)?,
        squares,
        mark: match s.mark.as_str() {
            "sun" => 0,
            "moon" => 1,
            other => {
                return Err(cx.err(
                    &f("mark"),
                    format!("unknown mark '{other}' (valid: sun, moon)"),
                ));
            }
        },
        path: match s.path.as_str() {
            "left" => 0,
            "right" => 1,
            other => {
                return Err(cx.err(
                    &f("path"),
                    format!("unknown path side '{other}' (valid: left, right)"),
                ));
            }
        },
        movement,
        skill,
    })
}

fn compile_hero_side(cx: &Ctx, sname: &str, s: &RawHeroSide) -> Result<HeroSide, SetupError> {
    let f = |x: &str| format!("{sname}.{x}");
    let m = STAT_MAX as i64;
    if s.skills.len() != 3 {
        return Err(cx.err(
            &f("skills"),
            format!("{} skills (a hero has 3)", s.skills.len()),
        ));
    }
    let mut skills = Vec::new();
    for (i, k) in s.skills.iter().enumerate() {
        let field = format!("{sname}.skills[{}]", i + 1);
        let amount = |lo: i64| -> Result<u8, SetupError> {
            cx.range(&format!("{field}.amount"), k.amount.unwrap_or(lo), lo, 6)
        };
        let kind = match k.kind.as_str() {
            "gale" => SkillKind::Gale(amount(0)?),
            "wall" => SkillKind::Wall,
            "chain" => SkillKind::Chain(amount(1)?),
            "trap" => SkillKind::Trap(amount(1)?),
            "grant_attack" => SkillKind::GrantAttack,
            "grant_move" => SkillKind::GrantMove,
            "grant_rally" => SkillKind::GrantRally,
            "recall" => SkillKind::Recall,
            "heal" => SkillKind::Heal(amount(1)?),
            "cleave" => SkillKind::Cleave(amount(1)?),
            other => {
                return Err(cx.err(
                    &format!("{field}.kind"),
                    format!(
                        "unknown skill kind '{other}' (valid: gale, wall, chain, trap, grant_attack, grant_move, grant_rally, recall, heal, cleave)"
                    ),
                ));
            }
        };
        skills.push(Skill {
            name: k.name.clone(),
            cooldown: cx.range(&format!("{field}.cooldown"), k.cooldown, 1, 6)?,
            kind,
        });
    }
    Ok(HeroSide {
        name: s.name.clone(),
        stats: [
            cx.range(&f("health"), s.health, 1, m)?,
            cx.range(&f("mana"), s.mana, 0, m)?,
            cx.range(&f("damage"), s.damage, 1, m)?,
            cx.range(&f("speed"), s.speed, 1, m)?,
        ],
        ranged: attack_type(cx, &f("attack"), &s.attack)?,
        skills: skills.try_into().expect("3 skills"),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const BUILTIN_TEXT: &str = include_str!("content/buried.toml");

    fn broken(from: &str, to: &str) -> String {
        assert!(BUILTIN_TEXT.contains(from), "test edit '{from}' not found");
        let text = BUILTIN_TEXT.replacen(from, to, 1);
        parse(&text, "bad.toml").expect_err("refused").0
    }

    #[test]
    fn builtin_parses_with_every_card() {
        let c = builtin();
        assert_eq!(c.villages.len(), 8);
        assert_eq!(c.camps.len(), 6);
        assert_eq!(c.heroes.len(), 3);
        assert_eq!(c.bosses.len(), 2);
        let mage = c.hero(0);
        assert_eq!(mage.name, "Mage");
        assert_eq!(mage.skills[0].name, "Gale Winds");
        assert_eq!(mage.skills[0].cooldown, 2);
        assert_eq!(mage.skills[1].cooldown, 3);
        assert_eq!(mage.skills[2].kind, SkillKind::Chain(2));
        let banshee = &c.camps[0].sides[0];
        assert_eq!(
            (
                banshee.name.as_str(),
                banshee.health,
                banshee.speed,
                banshee.damage
            ),
            ("Banshee", 2, 2, 1)
        );
        assert_eq!(c.villages.iter().filter(|v| v.tunnels).count(), 2);
    }

    #[test]
    fn a_path_to_a_missing_place_names_file_entry_and_field() {
        let e = broken(
            "paths = [[\"Mill Pond\", \"Waterwheel\"]]",
            "paths = [[\"Mill Pond\", \"Watermill\"]]",
        );
        assert_eq!(
            e,
            "bad.toml:66:10: village 'Mill': field 'front.paths[1]': unknown place 'Watermill' (valid: Mill Pond, Waterwheel)"
        );
    }

    #[test]
    fn an_edge_owned_by_a_missing_place_is_refused() {
        let e = broken(
            "north = [\"Mill Pond\", \"Waterwheel\"]",
            "north = [\"Mill Pond\", \"Nowhere\"]",
        );
        assert!(
            e.starts_with(
                "bad.toml:67:23: village 'Mill': field 'front.north[2]': unknown place 'Nowhere'"
            ),
            "{e}"
        );
    }

    #[test]
    fn an_unknown_symbol_is_refused() {
        let e = broken(
            "symbols = [\"health\", \"-mana\"]",
            "symbols = [\"health\", \"-luck\"]",
        );
        assert!(
            e.starts_with("bad.toml:")
                && e.contains(
                    ": village 'Mill': field 'front.places[1].symbols[2]': unknown symbol '-luck'"
                ),
            "{e}"
        );
    }

    #[test]
    fn a_card_without_both_sides_is_refused() {
        let e = broken(
            "[camp.back]\nname = \"Wraith\"",
            "[camp.backside]\nname = \"Wraith\"",
        );
        assert!(e.starts_with("bad.toml:"), "{e}");
        // Unknown key: the TOML reader locates it by line.
        assert!(e.contains("unknown field `backside`"), "{e}");
        // A card with no back table at all.
        let start = BUILTIN_TEXT.find("\n[village.back]").expect("a back side");
        let end = start
            + BUILTIN_TEXT[start..]
                .find("\n[[village]]")
                .expect("next card");
        let text = format!("{}{}", &BUILTIN_TEXT[..start], &BUILTIN_TEXT[end..]);
        let e = parse(&text, "bad.toml").expect_err("refused").0;
        assert_eq!(
            e,
            "bad.toml:59:1: village 'Mill': field 'back': missing: a card has a front and a back"
        );
    }

    #[test]
    fn two_hidden_tunnels_on_one_card_are_refused() {
        let e = broken(
            "{ name = \"Wash House\", at = \"e\", symbols = [\"health\", \"-speed\"] }",
            "{ name = \"Wash House\", at = \"e\", symbols = [\"health\", \"-speed\"], tunnel = true }",
        );
        assert_eq!(
            e,
            "bad.toml:202:77: village 'Well House': field 'front.places[2].tunnel': two Hidden Tunnels on one card side (a tunnel card has one on each side)"
        );
    }

    #[test]
    fn numbers_out_of_range_and_syntax_errors_are_one_line() {
        let e = broken(
            "health = 2\nspeed = 2\ndamage = 1\nattack = \"ranged\"",
            "health = 0\nspeed = 2\ndamage = 1\nattack = \"ranged\"",
        );
        assert_eq!(
            e,
            "bad.toml:246:10: camp 1: field 'front.health': 0 is out of range 1..=6"
        );
        let e = parse("center = [", "x.toml").expect_err("refused").0;
        assert!(e.starts_with("x.toml:1:"), "{e}");
        assert_eq!(e.lines().count(), 1);
    }
}
