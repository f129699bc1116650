//! Reads a Rift content file (TOML) into [`Content`], checking every rule of the format, so the
//! rules code can trust its tables.
//!
//! The format is documented at the top of `content/rift.toml` (the embedded default): `[[mech]]`,
//! `[[pilot]]`, `[[map]]` (with `[map.left]` / `[map.right]`), `[[monster]]` (with
//! `[monster.normal]` / `[monster.alpha]`), `[[objective]]`, `[[campaign]]` and `[turret]`;
//! attacks are inline tables, terrain and spawn numbers are rows of text. Values come from the
//! rulebook or are assumed; `CONTENT.md` beside this file gives each one's provenance.
//!
//! Reading the TOML, locating errors and the one-line error format are the shared
//! [`crate::content`] module's; this file holds only the Rift's rules of the format. Every error
//! is one line naming the file, the line and column, the entry and the field, e.g.
//! `rift.toml:212:33: monster 'Demon': field 'normal.attack.shape': unknown attack shape 'cone'
//! (valid: adjacent, exact2, range2plus, line, self)`; indices in field paths are 1-based.

use std::collections::HashMap;
use std::fmt::Display;

use serde::Deserialize;

use super::board::ROWS;
use super::content::{
    Attack, CampaignGame, Content, Dir, Finale, Goal, Locomotion, MapCard, MapSide, MechCard,
    MonsterCard, MonsterStats, Move, ObjectiveCard, PilotCard, Reward, Shape, SideHit, Slot,
    Status, Terrain, Upgrade,
};
use crate::content::{ContentText, FieldPath};
use crate::game::SetupError;

/// Mech cards in a content file (Components: 8 Mech cards).
pub const MECHS: usize = 8;
/// Pilot cards in a content file (Components: 8 Pilot cards).
pub const PILOTS: usize = 8;
/// Map cards in a content file (Components: 6 Map cards).
pub const MAPS: usize = 6;
/// Monster cards in a content file (Components: 6 Monster cards).
pub const MONSTERS: usize = 6;
/// Objective cards in a content file (Components: 6 Objective cards).
pub const OBJECTIVES: usize = 6;
/// Columns on one side of a map card (two cards make the 6 columns of the monster die).
pub const SIDE_COLS: usize = 3;

/// Parses content text (the TOML format documented in `content/rift.toml`) into [`Content`].
///
/// `source` names the text in errors and becomes [`Content::source`] (`builtin` for the
/// embedded file, else the path).
///
/// # Errors
/// A [`SetupError`] of one line (`source:line:column: entry: field 'path': ...`, see
/// [`crate::content`]) when the text is not valid TOML, has an unknown key or a value of the
/// wrong type, or breaks a rule of the format: an unknown shape, movement, sides, status, locomotion, terrain
/// letter, finale, goal, slot, reward or direction; a wrong number of cards (exactly 8 mechs, 8
/// pilots, 6 maps, 6 monsters, 6 objectives); a missing map side; a wrong row count or width; a
/// spawn number repeated, missing, out of its side's range or on a blocked tile; a compass that
/// is not a permutation of N, E, S, W; a seek other than ±1; a number out of range (hp 0, ...);
/// an unknown mech or map name; a duplicate name; a special tile on the wrong terrain; fewer
/// than 2 deployable tiles in a side's top 2 rows; a weapon row on a mech card (second weapons
/// come from pilot upgrades); a campaign whose last game is not its only finale; a spawn tile
/// that walls a walking monster in ([`super::spawn_check`]).
pub fn parse(text: &str, source: &str) -> Result<Content, SetupError> {
    let doc = ContentText::new(source, text).with_labels(LABELS);
    let raw: RawFile = doc.deserialize()?;
    Compiler {
        doc: &doc,
        names: Names::default(),
    }
    .compile(raw)
    .and_then(|c| {
        super::spawn_check::check_spawn_exits(&c, source)
            .map_err(SetupError)
            .map(|()| c)
    })
}

/// How entries are named in errors where the table's key is not the word (`campaign game 2`).
const LABELS: &[(&str, &str)] = &[("campaign", "campaign game")];

// ---------------------------------------------------------------------------------------------
// The file as written

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawFile {
    #[serde(default)]
    mech: Vec<RawMech>,
    #[serde(default)]
    pilot: Vec<RawPilot>,
    #[serde(default)]
    map: Vec<RawMap>,
    #[serde(default)]
    monster: Vec<RawMonster>,
    #[serde(default)]
    objective: Vec<RawObjective>,
    #[serde(default)]
    campaign: Vec<RawGame>,
    turret: Option<RawTurret>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawAttack {
    name: String,
    shape: String,
    damage: i64,
    movement: Option<String>,
    status: Option<String>,
    #[serde(default)]
    immobilize: bool,
    sides: Option<String>,
    #[serde(default)]
    splash: bool,
    #[serde(default)]
    aims_at_terrain: bool,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawUpgrade {
    hp: Option<i64>,
    movement: Option<i64>,
    damage: Option<i64>,
    flying: Option<bool>,
    weapon: Option<RawAttack>,
    status: Option<String>,
    start_shield: Option<bool>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawMech {
    name: String,
    hp: i64,
    movement: i64,
    locomotion: Option<String>,
    attack: RawAttack,
    upgrades: Vec<RawUpgrade>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawPilot {
    name: String,
    mech: String,
    upgrades: Vec<RawUpgrade>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawAt {
    col: i64,
    row: i64,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawTimed {
    col: i64,
    row: i64,
    turn: i64,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawSide {
    terrain: Vec<String>,
    spawn: Vec<String>,
    #[serde(default)]
    storm: Vec<RawTimed>,
    #[serde(default)]
    flood: Vec<RawTimed>,
    #[serde(default)]
    acid: Vec<RawAt>,
    turret: Option<RawAt>,
    frozen_mountain: Option<RawAt>,
    rocket: Option<RawAt>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawMap {
    name: String,
    moon: String,
    left: Option<RawSide>,
    right: Option<RawSide>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawStats {
    hp: i64,
    movement: i64,
    locomotion: Option<String>,
    attack: RawAttack,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawMonster {
    name: String,
    compass: Vec<String>,
    seek: i64,
    normal: RawStats,
    alpha: RawStats,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawGoal {
    goal: String,
    n: Option<i64>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawObjective {
    name: String,
    map: String,
    yellow: RawGoal,
    red: RawGoal,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawGame {
    left: String,
    right: String,
    #[serde(default)]
    left_reward: Vec<String>,
    #[serde(default)]
    right_reward: Vec<String>,
    starting_monsters: i64,
    alphas: i64,
    #[serde(default)]
    finale: bool,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawTurret {
    attack: RawAttack,
}

// ---------------------------------------------------------------------------------------------
// Errors

/// Where an error is: the document and the entry's path (`monster[2]`, `campaign[3]`).
struct Ctx<'a, 't> {
    doc: &'a ContentText<'t>,
    entry: FieldPath,
}

impl Ctx<'_, '_> {
    /// An error at `field` (displayed form, 1-based indices) below the entry.
    fn err(&self, field: &str, msg: impl Display) -> SetupError {
        self.doc.error(&self.entry.join(field), msg)
    }
}

/// `prefix.key`, or `key` alone.
fn join(prefix: &str, key: &str) -> String {
    if prefix.is_empty() {
        key.to_string()
    } else {
        format!("{prefix}.{key}")
    }
}

// ---------------------------------------------------------------------------------------------
// Small parsers

const SHAPES: &str = "adjacent, exact2, range2plus, line, self";
const MOVES: &str = "none, push, pull, throw";
const SIDES: &str = "none, damage, push_out, push_forward";
const STATUSES: &str = "rock, smoke, fire, frozen, shield, acid";
const LOCOMOTIONS: &str = "walk, fly, leap";
const FINALES: &str = "exploding_monsters, water_as_ground, deadly_columns, \
                       detect_before_spawn, mountain_buildings, unlimited_movement";
const GOALS: &str = "protect_half, kill_monsters, kill_alpha, both_mechs_survive, \
                     protect_special, block_spawns, few_ruins";

fn locomotion(s: &str) -> Option<Locomotion> {
    match s {
        "walk" => Some(Locomotion::Walk),
        "fly" => Some(Locomotion::Fly),
        "leap" => Some(Locomotion::Leap),
        _ => None,
    }
}

fn terrain(c: char) -> Option<Terrain> {
    match c {
        '.' => Some(Terrain::Ground),
        'B' => Some(Terrain::Building),
        'M' => Some(Terrain::Mountain),
        'W' => Some(Terrain::Water),
        'F' => Some(Terrain::Forest),
        'D' => Some(Terrain::Desert),
        _ => None,
    }
}

fn terrain_name(t: Terrain) -> &'static str {
    match t {
        Terrain::Ground => "ground",
        Terrain::Building => "a building",
        Terrain::Mountain => "a mountain",
        Terrain::Water => "water",
        Terrain::Forest => "forest",
        Terrain::Desert => "desert",
    }
}

/// Checks `lo <= v <= hi`; the message says what the number is.
fn range(ctx: &Ctx, field: &str, v: i64, lo: i64, hi: i64, what: &str) -> Result<u8, SetupError> {
    if (lo..=hi).contains(&v) {
        Ok(v as u8)
    } else {
        Err(ctx.err(field, format!("{what} must be {lo}-{hi}, got {v}")))
    }
}

/// Attack names, interned: equal names share an index.
#[derive(Default)]
struct Names {
    list: Vec<String>,
    index: HashMap<String, u16>,
}

impl Names {
    fn intern(&mut self, name: &str) -> u16 {
        if let Some(&i) = self.index.get(name) {
            return i;
        }
        let i = self.list.len() as u16;
        self.list.push(name.to_string());
        self.index.insert(name.to_string(), i);
        i
    }
}

/// The kind of special tiles a map side carries (the map's yellow effect).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Special {
    None,
    Storm,
    Flood,
    Acid,
    Turret,
    FrozenMountain,
    Rocket,
}

impl Special {
    fn name(self) -> &'static str {
        match self {
            Special::None => "none",
            Special::Storm => "storm tiles",
            Special::Flood => "flooding tiles",
            Special::Acid => "acid tiles",
            Special::Turret => "a turret",
            Special::FrozenMountain => "a frozen mountain",
            Special::Rocket => "a rocket",
        }
    }
}

/// Checks that each name is non-empty and unique (case-insensitive) within its kind, and
/// returns the entries' paths (`mech[1]`, named `mech 'Wukong'` in errors).
fn entries<'a>(
    doc: &ContentText,
    kind: &str,
    names: impl Iterator<Item = &'a str>,
) -> Result<Vec<FieldPath>, SetupError> {
    let mut seen: HashMap<String, usize> = HashMap::new();
    let mut paths = Vec::new();
    for (i, name) in names.enumerate() {
        let path = FieldPath::root().key(kind).index(i);
        if name.trim().is_empty() {
            return Err(doc.error(&path.key("name"), "must not be empty"));
        }
        if let Some(first) = seen.insert(name.to_ascii_lowercase(), i) {
            return Err(doc.error(
                &path.key("name"),
                format!("duplicate name (also {kind} {})", first + 1),
            ));
        }
        paths.push(path);
    }
    Ok(paths)
}

fn count(
    doc: &ContentText,
    found: usize,
    expected: usize,
    what: &str,
    table: &str,
) -> Result<(), SetupError> {
    if found == expected {
        Ok(())
    } else {
        Err(doc.error(
            &FieldPath::root(),
            format!("expected exactly {expected} {what} ([[{table}]] tables), found {found}"),
        ))
    }
}

// ---------------------------------------------------------------------------------------------
// Compiling

struct Compiler<'a, 't> {
    doc: &'a ContentText<'t>,
    names: Names,
}

impl<'a, 't> Compiler<'a, 't> {
    fn ctx(&self, entry: &FieldPath) -> Ctx<'a, 't> {
        Ctx {
            doc: self.doc,
            entry: entry.clone(),
        }
    }

    fn compile(mut self, raw: RawFile) -> Result<Content, SetupError> {
        let src = self.doc;
        count(src, raw.mech.len(), MECHS, "mech cards", "mech")?;
        count(src, raw.pilot.len(), PILOTS, "pilot cards", "pilot")?;
        count(src, raw.map.len(), MAPS, "map cards", "map")?;
        count(src, raw.monster.len(), MONSTERS, "monster cards", "monster")?;
        count(
            src,
            raw.objective.len(),
            OBJECTIVES,
            "objective cards",
            "objective",
        )?;

        let labels = entries(self.doc, "mech", raw.mech.iter().map(|m| m.name.as_str()))?;
        let mut mechs = Vec::with_capacity(MECHS);
        for (m, label) in raw.mech.iter().zip(&labels) {
            mechs.push(self.mech(m, label)?);
        }

        let labels = entries(self.doc, "pilot", raw.pilot.iter().map(|p| p.name.as_str()))?;
        let mut pilots = Vec::with_capacity(PILOTS);
        for (p, label) in raw.pilot.iter().zip(&labels) {
            let mech = mechs
                .iter()
                .position(|m| m.name.eq_ignore_ascii_case(&p.mech));
            let Some(mech) = mech else {
                return Err(self
                    .ctx(label)
                    .err("mech", format!("unknown mech '{}'", p.mech)));
            };
            let upgrades = self.upgrades(&p.upgrades, label, None)?;
            pilots.push(PilotCard {
                name: p.name.clone(),
                mech: mech as u8,
                upgrades,
            });
        }

        let labels = entries(self.doc, "map", raw.map.iter().map(|m| m.name.as_str()))?;
        let mut maps: Vec<MapCard> = Vec::with_capacity(MAPS);
        let mut specials = Vec::with_capacity(MAPS);
        for (m, label) in raw.map.iter().zip(&labels) {
            let (card, special) = self.map(m, label)?;
            if let Some(other) = maps.iter().find(|o| o.moon == card.moon) {
                return Err(self.ctx(label).err(
                    "moon",
                    format!(
                        "finale '{}' is already on map '{}' (the six finale effects map \
                         one-to-one to the six cards)",
                        card.moon.name(),
                        other.name
                    ),
                ));
            }
            maps.push(card);
            specials.push(special);
        }

        let labels = entries(
            self.doc,
            "monster",
            raw.monster.iter().map(|m| m.name.as_str()),
        )?;
        let mut monsters = Vec::with_capacity(MONSTERS);
        for (m, label) in raw.monster.iter().zip(&labels) {
            monsters.push(self.monster(m, label)?);
        }

        let labels = entries(
            self.doc,
            "objective",
            raw.objective.iter().map(|o| o.name.as_str()),
        )?;
        let mut objectives: Vec<ObjectiveCard> = Vec::with_capacity(OBJECTIVES);
        for (o, label) in raw.objective.iter().zip(&labels) {
            let ctx = self.ctx(label);
            let Some(map) = maps
                .iter()
                .position(|m| m.name.eq_ignore_ascii_case(&o.map))
            else {
                return Err(ctx.err("map", format!("unknown map '{}'", o.map)));
            };
            if let Some(other) = objectives.iter().find(|x| x.map as usize == map) {
                return Err(ctx.err(
                    "map",
                    format!(
                        "map '{}' already has objective '{}'",
                        maps[map].name, other.name
                    ),
                ));
            }
            let yellow = goal(&ctx, "yellow", &o.yellow)?;
            let red = goal(&ctx, "red", &o.red)?;
            if yellow == Goal::ProtectSpecial
                && !matches!(
                    specials[map],
                    Special::Turret | Special::FrozenMountain | Special::Rocket
                )
            {
                return Err(ctx.err(
                    "yellow.goal",
                    format!(
                        "protect_special needs a turret, frozen mountain or rocket on map '{}', \
                         which has {}",
                        maps[map].name,
                        specials[map].name()
                    ),
                ));
            }
            if red == Goal::ProtectSpecial {
                return Err(ctx.err(
                    "red.goal",
                    "protect_special is a yellow goal (it needs the map's special building)",
                ));
            }
            objectives.push(ObjectiveCard {
                name: o.name.clone(),
                map: map as u8,
                yellow,
                red,
            });
        }

        if raw.campaign.is_empty() {
            return Err(self.doc.error(
                &FieldPath::parse("campaign"),
                "the campaign card lists no games ([[campaign]] tables)",
            ));
        }
        let mut campaign = Vec::with_capacity(raw.campaign.len());
        let last = raw.campaign.len() - 1;
        for (i, g) in raw.campaign.iter().enumerate() {
            campaign.push(self.game(g, i, i == last)?);
        }

        let Some(turret) = &raw.turret else {
            return Err(self.doc.error(
                &FieldPath::parse("turret"),
                "missing the [turret] table with the turret's attack",
            ));
        };
        let turret_attack = self.attack(
            &turret.attack,
            &self.ctx(&FieldPath::parse("turret")),
            "attack",
        )?;

        Ok(Content {
            source: self.doc.source().to_string(),
            attack_names: self.names.list,
            mechs,
            pilots,
            maps,
            monsters,
            objectives,
            campaign,
            turret_attack,
        })
    }

    fn attack(&mut self, a: &RawAttack, ctx: &Ctx, field: &str) -> Result<Attack, SetupError> {
        if a.name.trim().is_empty() {
            return Err(ctx.err(&join(field, "name"), "an attack needs a name"));
        }
        let shape = Shape::parse(&a.shape).ok_or_else(|| {
            ctx.err(
                &join(field, "shape"),
                format!("unknown attack shape '{}' (valid: {SHAPES})", a.shape),
            )
        })?;
        let damage = range(ctx, &join(field, "damage"), a.damage, 0, 5, "damage")?;
        let movement = match &a.movement {
            None => Move::None,
            Some(s) => Move::parse(s).ok_or_else(|| {
                ctx.err(
                    &join(field, "movement"),
                    format!("unknown movement '{s}' (valid: {MOVES})"),
                )
            })?,
        };
        let status = match &a.status {
            None => None,
            Some(s) => Some(Status::from_name(s).ok_or_else(|| {
                ctx.err(
                    &join(field, "status"),
                    format!("unknown status '{s}' (valid: {STATUSES})"),
                )
            })?),
        };
        let sides = match &a.sides {
            None => SideHit::None,
            Some(s) => SideHit::parse(s).ok_or_else(|| {
                ctx.err(
                    &join(field, "sides"),
                    format!("unknown sides '{s}' (valid: {SIDES})"),
                )
            })?,
        };
        if shape == Shape::SelfTile && matches!(movement, Move::Push | Move::Pull) {
            return Err(ctx.err(
                &join(field, "movement"),
                "a self attack has no aim to push or pull along (use throw)",
            ));
        }
        if sides == SideHit::Damage && damage == 0 {
            return Err(ctx.err(
                &join(field, "sides"),
                "sides = \"damage\" needs damage >= 1",
            ));
        }
        if a.splash && damage == 0 {
            return Err(ctx.err(&join(field, "splash"), "splash needs damage >= 1"));
        }
        if a.aims_at_terrain && !a.splash {
            return Err(ctx.err(
                &join(field, "aims_at_terrain"),
                "aims_at_terrain is for splash attacks (splash = true)",
            ));
        }
        if damage == 0
            && movement == Move::None
            && status.is_none()
            && !a.immobilize
            && sides == SideHit::None
        {
            return Err(ctx.err(
                &join(field, "damage"),
                "the attack does nothing (no damage, movement, status, immobilize or sides)",
            ));
        }
        Ok(Attack {
            name: self.names.intern(a.name.trim()),
            shape,
            damage,
            movement,
            status,
            immobilize: a.immobilize,
            sides,
            splash: a.splash,
            aims_at_terrain: a.aims_at_terrain,
        })
    }

    fn locomotion(ctx: &Ctx, field: &str, s: &Option<String>) -> Result<Locomotion, SetupError> {
        match s {
            None => Ok(Locomotion::Walk),
            Some(s) => locomotion(s).ok_or_else(|| {
                ctx.err(
                    field,
                    format!("unknown locomotion '{s}' (valid: {LOCOMOTIONS})"),
                )
            }),
        }
    }

    /// Three upgrade rows; `mech` is the mech's own card (hp, basic attack, locomotion) when
    /// the rows are a mech's, to reject rows that cannot apply.
    fn upgrades(
        &mut self,
        rows: &[RawUpgrade],
        label: &FieldPath,
        mech: Option<(u8, &Attack, Locomotion)>,
    ) -> Result<[Upgrade; 3], SetupError> {
        let ctx = self.ctx(label);
        if rows.len() != 3 {
            return Err(ctx.err(
                "upgrades",
                format!("expected 3 upgrade rows, found {}", rows.len()),
            ));
        }
        let mut out = [Upgrade::Flying; 3];
        let mut hp = mech.map_or(0, |m| m.0);
        for (i, r) in rows.iter().enumerate() {
            let field = format!("upgrades[{}]", i + 1);
            let set = [
                r.hp.is_some(),
                r.movement.is_some(),
                r.damage.is_some(),
                r.flying.is_some(),
                r.weapon.is_some(),
                r.status.is_some(),
                r.start_shield.is_some(),
            ];
            if set.iter().filter(|&&b| b).count() != 1 {
                return Err(ctx.err(
                    &field,
                    "an upgrade row has exactly one of hp, movement, damage, flying, weapon, \
                     status, start_shield",
                ));
            }
            out[i] = if let Some(v) = r.hp {
                let v = range(&ctx, &join(&field, "hp"), v, 1, 5, "an hp upgrade")?;
                if mech.is_some() {
                    hp += v;
                    if hp > 6 {
                        return Err(ctx.err(
                            &join(&field, "hp"),
                            format!("raises hp to {hp}; mech HP is a die face (1-6)"),
                        ));
                    }
                }
                Upgrade::Hp(v)
            } else if let Some(v) = r.movement {
                Upgrade::Movement(range(
                    &ctx,
                    &join(&field, "movement"),
                    v,
                    1,
                    3,
                    "a movement upgrade",
                )?)
            } else if let Some(v) = r.damage {
                let v = range(&ctx, &join(&field, "damage"), v, 1, 3, "a damage upgrade")?;
                if let Some((_, basic, _)) = mech
                    && basic.damage == 0
                {
                    return Err(ctx.err(
                        &join(&field, "damage"),
                        "a damage upgrade needs a basic attack that deals damage",
                    ));
                }
                Upgrade::Damage(v)
            } else if let Some(f) = r.flying {
                if !f {
                    return Err(ctx.err(
                        &join(&field, "flying"),
                        "must be true (an upgrade row has exactly one effect)",
                    ));
                }
                if let Some((_, _, Locomotion::Fly)) = mech {
                    return Err(ctx.err(&join(&field, "flying"), "the mech already flies"));
                }
                Upgrade::Flying
            } else if let Some(w) = &r.weapon {
                if mech.is_some() {
                    return Err(ctx.err(
                        &join(&field, "weapon"),
                        "a second weapon comes from pilot upgrades, not mech cards (Units: \
                         \"mechs may gain a second attack via pilot upgrades\")",
                    ));
                }
                Upgrade::Weapon(self.attack(w, &ctx, &join(&field, "weapon"))?)
            } else if let Some(s) = &r.status {
                Upgrade::AddStatus(Status::from_name(s).ok_or_else(|| {
                    ctx.err(
                        &join(&field, "status"),
                        format!("unknown status '{s}' (valid: {STATUSES})"),
                    )
                })?)
            } else {
                if r.start_shield != Some(true) {
                    return Err(ctx.err(
                        &join(&field, "start_shield"),
                        "must be true (an upgrade row has exactly one effect)",
                    ));
                }
                Upgrade::StartShield
            };
        }
        Ok(out)
    }

    fn mech(&mut self, m: &RawMech, label: &FieldPath) -> Result<MechCard, SetupError> {
        let ctx = self.ctx(label);
        let hp = range(&ctx, "hp", m.hp, 1, 6, "hp (a die face)")?;
        let movement = range(&ctx, "movement", m.movement, 1, 6, "movement")?;
        let loco = Self::locomotion(&ctx, "locomotion", &m.locomotion)?;
        let attack = self.attack(&m.attack, &ctx, "attack")?;
        let upgrades = self.upgrades(&m.upgrades, label, Some((hp, &attack, loco)))?;
        Ok(MechCard {
            name: m.name.clone(),
            hp,
            movement,
            locomotion: loco,
            attack,
            upgrades,
        })
    }

    fn stats(&mut self, s: &RawStats, ctx: &Ctx, field: &str) -> Result<MonsterStats, SetupError> {
        Ok(MonsterStats {
            hp: range(ctx, &join(field, "hp"), s.hp, 1, 9, "hp")?,
            movement: range(ctx, &join(field, "movement"), s.movement, 0, 6, "movement")?,
            locomotion: Self::locomotion(ctx, &join(field, "locomotion"), &s.locomotion)?,
            attack: self.attack(&s.attack, ctx, &join(field, "attack"))?,
        })
    }

    fn monster(&mut self, m: &RawMonster, label: &FieldPath) -> Result<MonsterCard, SetupError> {
        let ctx = self.ctx(label);
        let normal = self.stats(&m.normal, &ctx, "normal")?;
        let alpha = self.stats(&m.alpha, &ctx, "alpha")?;
        if m.compass.len() != 4 {
            return Err(ctx.err(
                "compass",
                format!(
                    "the compass lists the 4 directions N, E, S, W in priority order, found {}",
                    m.compass.len()
                ),
            ));
        }
        let mut compass = [Dir::North; 4];
        for (i, s) in m.compass.iter().enumerate() {
            let field = format!("compass[{}]", i + 1);
            let d = Dir::parse(s).ok_or_else(|| {
                ctx.err(
                    &field,
                    format!("unknown direction '{s}' (valid: N, E, S, W)"),
                )
            })?;
            if compass[..i].contains(&d) {
                return Err(ctx.err(
                    &field,
                    format!(
                        "direction {} appears twice; the compass is a permutation of N, E, S, W",
                        d.letter()
                    ),
                ));
            }
            compass[i] = d;
        }
        if m.seek != 1 && m.seek != -1 {
            return Err(ctx.err(
                "seek",
                format!("seek must be 1 (east) or -1 (west), got {}", m.seek),
            ));
        }
        Ok(MonsterCard {
            name: m.name.clone(),
            normal,
            alpha,
            compass,
            seek: m.seek as i8,
        })
    }

    fn map(&mut self, m: &RawMap, label: &FieldPath) -> Result<(MapCard, Special), SetupError> {
        let ctx = self.ctx(label);
        let moon = Finale::parse(&m.moon).ok_or_else(|| {
            ctx.err(
                "moon",
                format!("unknown finale '{}' (valid: {FINALES})", m.moon),
            )
        })?;
        let (left, lk) = side(&ctx, "left", m.left.as_ref(), 1)?;
        let (right, rk) = side(&ctx, "right", m.right.as_ref(), 5)?;
        if lk != rk {
            return Err(ctx.err(
                "right",
                format!(
                    "the R side has {} and the L side {}; both sides carry the card's one \
                     yellow effect",
                    rk.name(),
                    lk.name()
                ),
            ));
        }
        Ok((
            MapCard {
                name: m.name.clone(),
                left,
                right,
                moon,
            },
            lk,
        ))
    }

    fn game(&self, g: &RawGame, i: usize, last: bool) -> Result<CampaignGame, SetupError> {
        let ctx = self.ctx(&FieldPath::root().key("campaign").index(i));
        let slot = |field: &str, s: &str| match s {
            "none" => Ok(Slot::None),
            "yellow" => Ok(Slot::Yellow),
            "red" => Ok(Slot::Red),
            _ => Err(ctx.err(
                field,
                format!("unknown slot '{s}' (valid: none, yellow, red)"),
            )),
        };
        let reward = |field: &str, slot: Slot, list: &[String]| {
            let mut r = Reward::default();
            for (j, s) in list.iter().enumerate() {
                let f = format!("{field}[{}]", j + 1);
                let flag = match s.as_str() {
                    "a" => &mut r.a,
                    "b" => &mut r.b,
                    "ruin" => &mut r.ruin,
                    _ => {
                        return Err(
                            ctx.err(&f, format!("unknown reward '{s}' (valid: a, b, ruin)"))
                        );
                    }
                };
                if *flag {
                    return Err(ctx.err(&f, format!("reward '{s}' listed twice")));
                }
                *flag = true;
            }
            if slot == Slot::None && !list.is_empty() {
                return Err(ctx.err(field, "a slot with no objective has no reward"));
            }
            Ok(r)
        };
        let left = slot("left", &g.left)?;
        let right = slot("right", &g.right)?;
        let left_reward = reward("left_reward", left, &g.left_reward)?;
        let right_reward = reward("right_reward", right, &g.right_reward)?;
        let starting_monsters = range(
            &ctx,
            "starting_monsters",
            g.starting_monsters,
            1,
            4,
            "starting_monsters (at most 4 monsters on the map)",
        )?;
        let alphas = range(&ctx, "alphas", g.alphas, 0, 4, "alphas")?;
        if g.finale != last {
            return Err(ctx.err(
                "finale",
                if last {
                    "the last game is the finale (finale = true)"
                } else {
                    "only the last game is the finale"
                },
            ));
        }
        Ok(CampaignGame {
            left,
            right,
            left_reward,
            right_reward,
            starting_monsters,
            alphas,
            finale: g.finale,
        })
    }
}

/// A goal `{ goal = "...", n = N }`; `n` is required by kill_monsters, block_spawns and
/// few_ruins, and refused by the others.
fn goal(ctx: &Ctx, field: &str, g: &RawGoal) -> Result<Goal, SetupError> {
    let nf = join(field, "n");
    let need = |lo: i64, hi: i64, what: &str| match g.n {
        Some(n) => range(ctx, &nf, n, lo, hi, what),
        None => Err(ctx.err(&nf, format!("goal '{}' needs a number n", g.goal))),
    };
    let goal = match g.goal.as_str() {
        "protect_half" => Goal::ProtectHalf,
        "kill_monsters" => Goal::KillMonsters(need(1, 20, "the monsters to kill")?),
        "kill_alpha" => Goal::KillAlpha,
        "both_mechs_survive" => Goal::BothMechsSurvive,
        "protect_special" => Goal::ProtectSpecial,
        "block_spawns" => Goal::BlockSpawns(need(1, 20, "the spawns to block")?),
        "few_ruins" => Goal::FewRuins(need(0, 3, "the damaged buildings allowed")?),
        other => {
            return Err(ctx.err(
                &join(field, "goal"),
                format!("unknown goal '{other}' (valid: {GOALS})"),
            ));
        }
    };
    if g.n.is_some()
        && !matches!(
            goal,
            Goal::KillMonsters(_) | Goal::BlockSpawns(_) | Goal::FewRuins(_)
        )
    {
        return Err(ctx.err(&nf, format!("goal '{}' takes no number", g.goal)));
    }
    Ok(goal)
}

/// A tile `{ col, row }` within a card (1-based) as `row * 3 + col` (0-based).
fn at(ctx: &Ctx, field: &str, col: i64, row: i64) -> Result<u8, SetupError> {
    let c = range(
        ctx,
        &join(field, "col"),
        col,
        1,
        SIDE_COLS as i64,
        "col (within the card)",
    )?;
    let r = range(ctx, &join(field, "row"), row, 1, ROWS as i64, "row")?;
    Ok((r as usize - 1) as u8 * SIDE_COLS as u8 + (c - 1))
}

/// `(col,row)`, 1-based within the card.
fn coord(t: u8) -> String {
    format!(
        "({},{})",
        t as usize % SIDE_COLS + 1,
        t as usize / SIDE_COLS + 1
    )
}

/// The rows of a map side's grid `field` (its terrain or spawn marks), each with its field
/// name (`map.left.terrain[2]`) and its tiles, checked one at a time as they are read (so a
/// row's own errors come before the next row's).
///
/// # Errors
/// One line naming `field` when there are not [`ROWS`] rows; each item, one naming the row
/// when it does not hold [`SIDE_COLS`] tiles.
fn grid_rows<'a>(
    ctx: &'a Ctx,
    field: &'a str,
    rows: &'a [String],
) -> Result<impl Iterator<Item = Result<(String, Vec<char>), SetupError>> + 'a, SetupError> {
    if rows.len() != ROWS {
        return Err(ctx.err(field, format!("expected {ROWS} rows, found {}", rows.len())));
    }
    Ok(rows.iter().enumerate().map(move |(r, row)| {
        let f = format!("{field}[{}]", r + 1);
        let cells: Vec<char> = row.chars().collect();
        if cells.len() != SIDE_COLS {
            return Err(ctx.err(
                &f,
                format!(
                    "row '{row}' has {} tiles, expected {SIDE_COLS}",
                    cells.len()
                ),
            ));
        }
        Ok((f, cells))
    }))
}

/// One map side; `first_spawn` is 1 for L sides (spawns 1-4) and 5 for R sides (5-8).
fn side(
    ctx: &Ctx,
    key: &str,
    raw: Option<&RawSide>,
    first_spawn: u8,
) -> Result<(MapSide, Special), SetupError> {
    let letter = if key == "left" { 'L' } else { 'R' };
    let Some(s) = raw else {
        return Err(ctx.err(
            key,
            format!("missing the {letter} side ([map.{key}] table)"),
        ));
    };
    let tf = join(key, "terrain");
    let mut terrain_grid = [Terrain::Ground; 3 * ROWS];
    for (r, row) in grid_rows(ctx, &tf, &s.terrain)?.enumerate() {
        let (f, cells) = row?;
        for (c, &ch) in cells.iter().enumerate() {
            terrain_grid[r * SIDE_COLS + c] = terrain(ch).ok_or_else(|| {
                ctx.err(
                    &f,
                    format!(
                        "unknown terrain letter '{ch}' (valid: . ground, B building, M mountain, \
                         W water, F forest, D desert)"
                    ),
                )
            })?;
        }
    }

    let sf = join(key, "spawn");
    let last_spawn = first_spawn + 3;
    let mut spawn = [0u8; 3 * ROWS];
    let mut placed: [Option<u8>; 9] = [None; 9];
    for (r, row) in grid_rows(ctx, &sf, &s.spawn)?.enumerate() {
        let (f, cells) = row?;
        for (c, &ch) in cells.iter().enumerate() {
            if ch == '.' {
                continue;
            }
            let t = (r * SIDE_COLS + c) as u8;
            let n = match ch.to_digit(10) {
                Some(n) if (first_spawn as u32..=last_spawn as u32).contains(&n) => n as u8,
                Some(n) if (1..=8).contains(&n) => {
                    return Err(ctx.err(
                        &f,
                        format!(
                            "spawn number {n} belongs on the other side ({letter} sides carry \
                             {first_spawn}-{last_spawn})"
                        ),
                    ));
                }
                _ => {
                    return Err(ctx.err(
                        &f,
                        format!(
                            "unknown spawn mark '{ch}' (valid: . for none, or \
                             {first_spawn}-{last_spawn})"
                        ),
                    ));
                }
            };
            if let Some(prev) = placed[n as usize] {
                return Err(ctx.err(
                    &f,
                    format!(
                        "spawn number {n} is used twice, at {} and {}",
                        coord(prev),
                        coord(t)
                    ),
                ));
            }
            let ter = terrain_grid[t as usize];
            if matches!(ter, Terrain::Building | Terrain::Mountain | Terrain::Water) {
                return Err(ctx.err(
                    &f,
                    format!(
                        "spawn number {n} at {} is on {} (spawns go on ground, forest or desert)",
                        coord(t),
                        terrain_name(ter)
                    ),
                ));
            }
            placed[n as usize] = Some(t);
            spawn[t as usize] = n;
        }
    }
    for n in first_spawn..=last_spawn {
        if placed[n as usize].is_none() {
            return Err(ctx.err(
                &sf,
                format!(
                    "spawn number {n} is missing ({letter} sides carry each of \
                     {first_spawn}-{last_spawn} once)"
                ),
            ));
        }
    }

    let deployable = terrain_grid[..2 * SIDE_COLS]
        .iter()
        .filter(|t| !matches!(t, Terrain::Building | Terrain::Mountain))
        .count();
    if deployable < 2 {
        return Err(ctx.err(
            &tf,
            format!(
                "the top 2 rows have {deployable} deployable tile(s) (not building, not \
                 mountain), need at least 2"
            ),
        ));
    }

    // Special tiles.
    let mut kinds = Vec::new();
    let place = |field: &str, col: i64, row: i64, bad: &[Terrain], need: Option<Terrain>| {
        let t = at(ctx, field, col, row)?;
        let ter = terrain_grid[t as usize];
        if let Some(need) = need
            && ter != need
        {
            return Err(ctx.err(
                field,
                format!(
                    "tile {} is {}, must be {}",
                    coord(t),
                    terrain_name(ter),
                    terrain_name(need)
                ),
            ));
        }
        if bad.contains(&ter) {
            return Err(ctx.err(field, format!("tile {} is {}", coord(t), terrain_name(ter))));
        }
        Ok(t)
    };
    let timed = |name: &str, list: &[RawTimed], bad: &[Terrain]| {
        let mut out: Vec<(u8, u8)> = Vec::new();
        for (i, x) in list.iter().enumerate() {
            let f = format!("{}[{}]", join(key, name), i + 1);
            let t = place(&f, x.col, x.row, bad, None)?;
            let turn = range(
                ctx,
                &join(&f, "turn"),
                x.turn,
                1,
                6,
                "turn (a campaign die value)",
            )?;
            if out.iter().any(|&(o, _)| o == t) {
                return Err(ctx.err(&f, format!("tile {} is listed twice", coord(t))));
            }
            out.push((t, turn));
        }
        Ok::<_, SetupError>(out)
    };
    let storm = timed("storm", &s.storm, &[Terrain::Building, Terrain::Mountain])?;
    let flood = timed(
        "flood",
        &s.flood,
        &[Terrain::Building, Terrain::Mountain, Terrain::Water],
    )?;
    let mut acid: Vec<u8> = Vec::new();
    for (i, x) in s.acid.iter().enumerate() {
        let f = format!("{}[{}]", join(key, "acid"), i + 1);
        let t = place(
            &f,
            x.col,
            x.row,
            &[Terrain::Building, Terrain::Mountain],
            None,
        )?;
        if acid.contains(&t) {
            return Err(ctx.err(&f, format!("tile {} is listed twice", coord(t))));
        }
        acid.push(t);
    }
    let single = |name: &str, x: &Option<RawAt>, need: Terrain| {
        x.as_ref()
            .map(|x| place(&join(key, name), x.col, x.row, &[], Some(need)))
            .transpose()
    };
    let turret = single("turret", &s.turret, Terrain::Building)?;
    let frozen_mountain = single("frozen_mountain", &s.frozen_mountain, Terrain::Mountain)?;
    let rocket = single("rocket", &s.rocket, Terrain::Building)?;
    if !storm.is_empty() {
        kinds.push(Special::Storm);
    }
    if !flood.is_empty() {
        kinds.push(Special::Flood);
    }
    if !acid.is_empty() {
        kinds.push(Special::Acid);
    }
    if turret.is_some() {
        kinds.push(Special::Turret);
    }
    if frozen_mountain.is_some() {
        kinds.push(Special::FrozenMountain);
    }
    if rocket.is_some() {
        kinds.push(Special::Rocket);
    }
    if kinds.len() > 1 {
        return Err(ctx.err(
            key,
            format!(
                "a side carries one kind of special tile (the map's yellow effect), found {} \
                 and {}",
                kinds[0].name(),
                kinds[1].name()
            ),
        ));
    }
    let kind = kinds.first().copied().unwrap_or(Special::None);
    Ok((
        MapSide {
            terrain: terrain_grid,
            spawn,
            storm,
            flood,
            acid,
            turret,
            frozen_mountain,
            rocket,
        },
        kind,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::rift::content::{BUILTIN_TOML, builtin};

    fn content() -> Content {
        parse(BUILTIN_TOML, "builtin").expect("builtin content parses")
    }

    fn monster<'a>(c: &'a Content, name: &str) -> &'a MonsterCard {
        &c.monsters[c
            .monster_index(name)
            .unwrap_or_else(|| panic!("no monster {name}")) as usize]
    }

    fn mech<'a>(c: &'a Content, name: &str) -> &'a MechCard {
        &c.mechs[c
            .mech_index(name)
            .unwrap_or_else(|| panic!("no mech {name}")) as usize]
    }

    /// Every attack in the content: basic, upgrade weapons, monsters, turret.
    fn all_attacks(c: &Content) -> Vec<Attack> {
        let mut out = vec![c.turret_attack];
        let weapons = |u: &[Upgrade; 3]| {
            u.iter()
                .filter_map(|u| {
                    if let Upgrade::Weapon(a) = u {
                        Some(*a)
                    } else {
                        None
                    }
                })
                .collect::<Vec<_>>()
        };
        for m in &c.mechs {
            out.push(m.attack);
            out.extend(weapons(&m.upgrades));
        }
        for p in &c.pilots {
            out.extend(weapons(&p.upgrades));
        }
        for m in &c.monsters {
            out.push(m.normal.attack);
            out.push(m.alpha.attack);
        }
        out
    }

    /// Parses the builtin text with `from` replaced (once) by `to`, as file `rift.toml`, and
    /// returns the error message.
    fn bad(from: &str, to: &str) -> String {
        assert!(BUILTIN_TOML.contains(from), "builtin text lacks {from:?}");
        match parse(&BUILTIN_TOML.replacen(from, to, 1), "rift.toml") {
            Ok(_) => panic!("replacing {from:?} by {to:?} still parses"),
            Err(e) => e.0,
        }
    }

    /// The builtin text with the part from `start` up to (not including) `end` removed.
    fn without(start: &str, end: &str) -> String {
        let a = BUILTIN_TOML.find(start).expect("start marker");
        let b = a + BUILTIN_TOML[a..].find(end).expect("end marker");
        format!("{}{}", &BUILTIN_TOML[..a], &BUILTIN_TOML[b..])
    }

    /// The 1-based line and column of `inner` within the first `marker` of the builtin text.
    fn at_text(marker: &str, inner: &str) -> (usize, usize) {
        let at = BUILTIN_TOML.find(marker).expect("marker") + marker.find(inner).expect("inner");
        let before = &BUILTIN_TOML[..at];
        let line_start = before.rfind('\n').map_or(0, |i| i + 1);
        (
            before.matches('\n').count() + 1,
            before[line_start..].chars().count() + 1,
        )
    }

    fn has(msg: &str, parts: &[&str]) {
        assert!(!msg.contains('\n'), "error is not one line: {msg:?}");
        for p in parts {
            assert!(msg.contains(p), "{msg:?} lacks {p:?}");
        }
    }

    // ------------------------------------------------------------------ the builtin content

    #[test]
    fn builtin_parses_with_every_card() {
        let c = content();
        assert_eq!(c.source, "builtin");
        assert_eq!(
            (
                c.mechs.len(),
                c.pilots.len(),
                c.maps.len(),
                c.monsters.len(),
                c.objectives.len()
            ),
            (8, 8, 6, 6, 6)
        );
        assert_eq!(builtin(), &c);
        let names: Vec<&str> = c.monsters.iter().map(|m| m.name.as_str()).collect();
        for n in ["Demon", "Wraith", "Nightmare", "Herald", "Intruder"] {
            assert!(names.contains(&n), "{n} missing");
        }
    }

    #[test]
    fn demon_and_wraith_match_the_rulebook_examples() {
        let c = content();
        let demon = monster(&c, "Demon");
        assert_eq!(demon.normal.movement, 2);
        assert_eq!(demon.normal.locomotion, Locomotion::Walk);
        assert_eq!(demon.normal.attack.shape, Shape::Adjacent);
        assert_eq!(demon.normal.attack.damage, 1);
        assert!(demon.normal.attack.immobilize);
        assert!(demon.alpha.attack.immobilize);
        assert!(demon.alpha.hp >= 4, "case R4 has an Alpha Demon at 4 HP");
        assert_eq!(
            demon.compass,
            [Dir::East, Dir::South, Dir::West, Dir::North]
        );

        let wraith = monster(&c, "Wraith");
        assert_eq!(wraith.normal.locomotion, Locomotion::Fly);
        assert_eq!(wraith.normal.movement, 3);
        assert_eq!(wraith.normal.attack.shape, Shape::Adjacent);
        assert_eq!(wraith.alpha.locomotion, Locomotion::Fly);

        assert!(monster(&c, "Intruder").normal.attack.immobilize);
        assert!(monster(&c, "Intruder").alpha.attack.immobilize);
    }

    #[test]
    fn alpha_herald_splashes_and_aims_at_terrain() {
        let c = content();
        let herald = monster(&c, "Herald");
        assert!(herald.alpha.attack.splash);
        assert!(herald.alpha.attack.aims_at_terrain);
        assert!(!herald.normal.attack.splash);
    }

    #[test]
    fn alphas_are_stronger_in_hp_and_damage() {
        let c = content();
        for m in &c.monsters {
            assert!(m.alpha.hp > m.normal.hp, "{}", m.name);
            assert!(m.alpha.attack.damage > m.normal.attack.damage, "{}", m.name);
            assert!(m.alpha.movement >= m.normal.movement, "{}", m.name);
        }
        // Attack styles: ranged, melee and charge (a line with push), and a leaper.
        let shapes: Vec<Shape> = c.monsters.iter().map(|m| m.normal.attack.shape).collect();
        assert!(shapes.contains(&Shape::Adjacent));
        assert!(shapes.contains(&Shape::Range2Plus));
        assert!(c.monsters.iter().any(
            |m| m.normal.attack.shape == Shape::Line && m.normal.attack.movement == Move::Push
        ));
        assert!(
            c.monsters
                .iter()
                .any(|m| m.normal.locomotion == Locomotion::Leap)
        );
    }

    #[test]
    fn named_mech_attacks_do_what_the_faq_says() {
        let c = content();
        let atlas = mech(&c, "Atlas");
        assert_eq!(c.attack_name(&atlas.attack), "Grav Beam");
        assert_eq!(atlas.attack.sides, SideHit::PushOut);
        assert_eq!(atlas.attack.shape, Shape::Line);

        let wukong = mech(&c, "Wukong");
        assert_eq!(c.attack_name(&wukong.attack), "Throw");
        assert_eq!(wukong.attack.movement, Move::Throw);

        let meteor = c
            .mechs
            .iter()
            .find(|m| c.attack_name(&m.attack) == "Meteor")
            .unwrap();
        assert_eq!(meteor.attack.movement, Move::Pull);
    }

    #[test]
    fn mechs_cover_the_attack_kinds_and_pair_with_pilots() {
        let c = content();
        for (i, p) in c.pilots.iter().enumerate() {
            assert_eq!(p.mech as usize, i, "pilot {} starts in mech {i}", p.name);
        }
        for m in &c.mechs {
            assert!((1..=6).contains(&m.hp), "{}", m.name);
        }
        let basic: Vec<Attack> = c.mechs.iter().map(|m| m.attack).collect();
        assert!(
            basic
                .iter()
                .any(|a| a.damage == 0 && a.movement == Move::Push),
            "push-only"
        );
        for s in [
            Shape::Adjacent,
            Shape::Exact2,
            Shape::Range2Plus,
            Shape::Line,
        ] {
            assert!(basic.iter().any(|a| a.shape == s), "{s:?}");
        }
        let all = all_attacks(&c);
        for st in Status::ALL {
            assert!(all.iter().any(|a| a.status == Some(st)), "{st:?}");
        }
        let weapon = |u: &Upgrade| matches!(u, Upgrade::Weapon(_));
        assert!(c.pilots.iter().all(|p| p.upgrades.iter().any(weapon)));
        assert!(c.mechs.iter().all(|m| !m.upgrades.iter().any(weapon)));
        assert!(
            c.mechs
                .iter()
                .all(|m| m.upgrades.iter().all(|u| *u != Upgrade::Flying)
                    || m.locomotion == Locomotion::Walk)
        );
        assert!(
            c.mechs
                .iter()
                .any(|m| m.upgrades.contains(&Upgrade::Flying))
        );
        assert!(
            c.mechs
                .iter()
                .any(|m| m.upgrades.contains(&Upgrade::StartShield))
        );
        // Attack names are interned once each and every index is in range.
        for a in all {
            assert!((a.name as usize) < c.attack_names.len());
        }
        let mut names = c.attack_names.clone();
        names.sort();
        names.dedup();
        assert_eq!(names.len(), c.attack_names.len());
    }

    #[test]
    fn maps_have_their_terrain_spawns_and_one_effect_each() {
        let c = content();
        let mut moons: Vec<Finale> = c.maps.iter().map(|m| m.moon).collect();
        moons.sort_by_key(|f| *f as u8);
        assert_eq!(moons, Finale::ALL);
        for m in &c.maps {
            for (s, first) in [(&m.left, 1u8), (&m.right, 5u8)] {
                let n = |t: Terrain| s.terrain.iter().filter(|&&x| x == t).count();
                // One building a side: the calibration (CONTENT.md).
                assert_eq!(n(Terrain::Building), 1, "{}", m.name);
                for t in [
                    Terrain::Mountain,
                    Terrain::Water,
                    Terrain::Forest,
                    Terrain::Desert,
                ] {
                    assert!(n(t) >= 1, "{} lacks {t:?}", m.name);
                }
                let mut spawns: Vec<u8> = s.spawn.iter().copied().filter(|&x| x > 0).collect();
                spawns.sort();
                assert_eq!(spawns, (first..first + 4).collect::<Vec<_>>());
            }
        }
        let by_name = |n: &str| &c.maps[c.map_index(n).unwrap() as usize];
        assert_eq!(
            by_name("Stormbreak Ridge").left.storm,
            vec![(4, 4), (10, 2)]
        );
        let flood: Vec<u8> = by_name("Sunken Causeway")
            .left
            .flood
            .iter()
            .map(|f| f.1)
            .collect();
        assert_eq!(flood, vec![3, 2]);
        let glacier = by_name("Glacier Shelf");
        assert_eq!(
            glacier.left.terrain[glacier.left.frozen_mountain.unwrap() as usize],
            Terrain::Mountain
        );
        let guns = by_name("Gunline Heights");
        assert_eq!(
            guns.right.terrain[guns.right.turret.unwrap() as usize],
            Terrain::Building
        );
        assert_eq!(by_name("Acid Flats").right.acid.len(), 2);
        assert_eq!(by_name("Launch Site").left.rocket, Some(11));
        // Each objective sits on its own map.
        let mut maps: Vec<u8> = c.objectives.iter().map(|o| o.map).collect();
        maps.sort();
        assert_eq!(maps, vec![0, 1, 2, 3, 4, 5]);
    }

    #[test]
    fn campaign_card_grows_to_the_finale() {
        let c = content();
        let g = &c.campaign;
        assert_eq!(g.len(), 5);
        assert!(g.last().unwrap().finale);
        assert!(g[..4].iter().all(|x| !x.finale));
        assert_eq!(g[0].starting_monsters, 3);
        assert_eq!(g[4].starting_monsters, 4);
        assert_eq!(g[0].alphas, 0);
        assert_eq!(g[4].alphas, 2);
        assert_eq!((g[0].left, g[0].right), (Slot::Yellow, Slot::None));
        assert_eq!(
            g[2].right_reward,
            Reward {
                a: true,
                b: false,
                ruin: true
            }
        );
        assert_eq!(c.turret_attack.shape, Shape::Line);
        assert_eq!(c.attack_name(&c.turret_attack), "Turret Cannon");
    }

    /// A content file by its path, as a position file's `content` line loads it.
    fn load(path: &std::path::Path) -> Result<&'static Content, SetupError> {
        crate::content::load_cached(path, parse)
    }

    #[test]
    fn load_reads_a_file_and_names_it_in_errors() {
        let dir = std::env::temp_dir().join(format!("sololab-rift-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let good = dir.join("good.toml");
        std::fs::write(&good, BUILTIN_TOML).unwrap();
        let c = load(&good).unwrap();
        assert_eq!(c.source, good.display().to_string());
        // Read and compiled once per process: the same file gives the same content.
        assert!(std::ptr::eq(c, load(&good).unwrap()));
        assert_eq!(c.mechs, content().mechs);
        let broken = dir.join("broken.toml");
        std::fs::write(&broken, BUILTIN_TOML.replacen("seek = 1", "seek = 0", 1)).unwrap();
        let e = load(&broken).unwrap_err().0;
        has(
            &e,
            &[
                &broken.display().to_string(),
                "monster 'Demon'",
                "field 'seek'",
            ],
        );
        let e = load(&dir.join("missing.toml")).unwrap_err().0;
        has(&e, &["missing.toml", "cannot read"]);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    // ------------------------------------------------------------------ one test per error

    #[test]
    fn error_unknown_shape() {
        let e = bad(
            r#"name = "Binding Claw", shape = "adjacent""#,
            r#"name = "Binding Claw", shape = "cone""#,
        );
        // Located at the value: the line of the replaced text, the column of `"cone"`.
        let (line, col) = at_text(r#"name = "Binding Claw", shape = "adjacent""#, "\"adjacent");
        assert_eq!(
            e,
            format!(
                "rift.toml:{line}:{col}: monster 'Demon': field 'normal.attack.shape': unknown \
                 attack shape 'cone' (valid: adjacent, exact2, range2plus, line, self)"
            )
        );
    }

    #[test]
    fn validation_errors_give_the_line_and_column_of_the_value() {
        let (line, col) = at_text("[monster.normal]\nhp = 2", "2");
        let e = bad("[monster.normal]\nhp = 2", "[monster.normal]\nhp = 0");
        assert!(
            e.starts_with(&format!(
                "rift.toml:{line}:{col}: monster 'Demon': field 'normal.hp': hp must be 1-9"
            )),
            "{e}"
        );
        let (line, col) = at_text("seek = 1", "1");
        let e = bad("seek = 1", "seek = 2");
        assert!(
            e.starts_with(&format!(
                "rift.toml:{line}:{col}: monster 'Demon': field 'seek'"
            )),
            "{e}"
        );
        // A table that is not there: located at the entry that lacks it.
        let (line, col) = at_text("[[map]]\nname = \"Stormbreak Ridge\"", "[[map]]");
        let text = without(
            "[map.right]\nterrain = [\"M.B\"",
            "[[map]]\nname = \"Sunken Causeway\"",
        );
        let e = parse(&text, "rift.toml").unwrap_err().0;
        assert!(
            e.starts_with(&format!(
                "rift.toml:{line}:{col}: map 'Stormbreak Ridge': field 'right': missing the R side"
            )),
            "{e}"
        );
    }

    #[test]
    fn error_unknown_movement() {
        let e = bad(r#"movement = "throw""#, r#"movement = "fling""#);
        has(
            &e,
            &[
                "rift.toml:",
                "mech 'Wukong'",
                "field 'attack.movement'",
                "'fling'",
                "valid:",
            ],
        );
    }

    #[test]
    fn error_unknown_sides() {
        let e = bad(
            "sides = \"push_out\" }\nupgrades",
            "sides = \"sideways\" }\nupgrades",
        );
        has(
            &e,
            &[
                "rift.toml:",
                "mech 'Atlas'",
                "field 'attack.sides'",
                "'sideways'",
            ],
        );
    }

    #[test]
    fn error_unknown_status() {
        let e = bad(
            r#"damage = 1, status = "fire" }"#,
            r#"damage = 1, status = "lava" }"#,
        );
        has(
            &e,
            &[
                "rift.toml:",
                "mech 'Cinder'",
                "field 'attack.status'",
                "'lava'",
            ],
        );
        let e = bad(r#"{ status = "fire" }]"#, r#"{ status = "lava" }]"#);
        has(
            &e,
            &["mech 'Starfall'", "field 'upgrades[3].status'", "'lava'"],
        );
    }

    #[test]
    fn error_unknown_locomotion() {
        let e = bad(
            "locomotion = \"fly\"\nattack = { name = \"Rake\"",
            "locomotion = \"hover\"\nattack = { name = \"Rake\"",
        );
        has(
            &e,
            &[
                "rift.toml:",
                "monster 'Wraith'",
                "field 'normal.locomotion'",
                "'hover'",
            ],
        );
    }

    #[test]
    fn error_unknown_terrain_letter() {
        let e = bad(r#"["B.M", ".F.""#, r#"["B.X", ".F.""#);
        has(
            &e,
            &[
                "rift.toml:",
                "map 'Stormbreak Ridge'",
                "field 'left.terrain[1]'",
                "'X'",
            ],
        );
    }

    #[test]
    fn error_unknown_or_repeated_finale() {
        let e = bad(r#""exploding_monsters""#, r#""meteor_shower""#);
        has(
            &e,
            &[
                "rift.toml:",
                "map 'Stormbreak Ridge'",
                "field 'moon'",
                "'meteor_shower'",
            ],
        );
        let e = bad(
            r#"moon = "water_as_ground""#,
            r#"moon = "exploding_monsters""#,
        );
        has(
            &e,
            &[
                "map 'Sunken Causeway'",
                "field 'moon'",
                "already on map 'Stormbreak Ridge'",
            ],
        );
    }

    #[test]
    fn error_unknown_goal_or_bad_number() {
        let e = bad(
            r#"yellow = { goal = "both_mechs_survive" }"#,
            r#"yellow = { goal = "survive" }"#,
        );
        has(
            &e,
            &[
                "rift.toml:",
                "objective 'Ride Out the Storm'",
                "field 'yellow.goal'",
                "'survive'",
            ],
        );
        let e = bad(
            r#"red = { goal = "kill_monsters", n = 3 }"#,
            r#"red = { goal = "kill_monsters" }"#,
        );
        has(
            &e,
            &[
                "objective 'Ride Out the Storm'",
                "field 'red.n'",
                "needs a number",
            ],
        );
        let e = bad(
            r#"red = { goal = "kill_alpha" }"#,
            r#"red = { goal = "kill_alpha", n = 1 }"#,
        );
        has(
            &e,
            &["objective 'High Water'", "field 'red.n'", "takes no number"],
        );
    }

    #[test]
    fn error_protect_special_without_a_special_building() {
        let e = bad(
            r#"yellow = { goal = "protect_half" }"#,
            r#"yellow = { goal = "protect_special" }"#,
        );
        has(
            &e,
            &["objective 'Corrosion'", "field 'yellow.goal'", "acid tiles"],
        );
        let e = bad(
            r#"red = { goal = "protect_half" }"#,
            r#"red = { goal = "protect_special" }"#,
        );
        has(&e, &["objective 'Hold the Guns'", "field 'red.goal'"]);
    }

    #[test]
    fn error_unknown_direction() {
        let e = bad(
            r#"compass = ["E", "S", "W", "N"]"#,
            r#"compass = ["E", "S", "W", "Q"]"#,
        );
        has(
            &e,
            &["rift.toml:", "monster 'Demon'", "field 'compass[4]'", "'Q'"],
        );
    }

    #[test]
    fn error_compass_not_a_permutation() {
        let e = bad(
            r#"compass = ["E", "S", "W", "N"]"#,
            r#"compass = ["E", "S", "E", "N"]"#,
        );
        has(
            &e,
            &["monster 'Demon'", "field 'compass[3]'", "permutation"],
        );
        let e = bad(
            r#"compass = ["E", "S", "W", "N"]"#,
            r#"compass = ["E", "S", "W"]"#,
        );
        has(&e, &["monster 'Demon'", "field 'compass'", "found 3"]);
    }

    #[test]
    fn error_seek_not_plus_or_minus_one() {
        let e = bad("seek = 1", "seek = 2");
        has(
            &e,
            &["rift.toml:", "monster 'Demon'", "field 'seek'", "got 2"],
        );
    }

    #[test]
    fn error_wrong_card_counts() {
        let text = without("[[mech]]\nname = \"Wukong\"", "[[mech]]\nname = \"Atlas\"");
        let e = parse(&text, "rift.toml").unwrap_err().0;
        assert_eq!(
            e,
            "rift.toml: expected exactly 8 mech cards ([[mech]] tables), found 7"
        );
        let text = without("[[monster]]\nname = \"Behemoth\"", "# ----");
        let e = parse(&text, "rift.toml").unwrap_err().0;
        has(
            &e,
            &[
                "rift.toml:",
                "exactly 6 monster cards",
                "[[monster]]",
                "found 5",
            ],
        );
        let text = format!(
            "{BUILTIN_TOML}\n[[objective]]\nname = \"Extra\"\nmap = \"Launch Site\"\nyellow = {{ goal = \"kill_alpha\" }}\nred = {{ goal = \"kill_alpha\" }}\n"
        );
        let e = parse(&text, "rift.toml").unwrap_err().0;
        has(&e, &["exactly 6 objective cards", "found 7"]);
    }

    #[test]
    fn error_missing_map_side() {
        let text = without(
            "[map.right]\nterrain = [\"M.B\"",
            "[[map]]\nname = \"Sunken Causeway\"",
        );
        let e = parse(&text, "rift.toml").unwrap_err().0;
        has(
            &e,
            &[
                "rift.toml:",
                "map 'Stormbreak Ridge'",
                "field 'right'",
                "missing the R side",
            ],
        );
    }

    #[test]
    fn error_wrong_row_count_or_width() {
        let e = bad(r#""F.M", "W.D"]"#, r#""F.M"]"#);
        has(
            &e,
            &[
                "map 'Stormbreak Ridge'",
                "field 'left.terrain'",
                "expected 6 rows, found 5",
            ],
        );
        let e = bad(r#"["B.M", ".F.""#, r#"["B.MM", ".F.""#);
        has(
            &e,
            &[
                "map 'Stormbreak Ridge'",
                "field 'left.terrain[1]'",
                "has 4 tiles, expected 3",
            ],
        );
        let e = bad(r#"".3.", "..4"]"#, r#"".3.", "..4", "..."]"#);
        has(
            &e,
            &[
                "map 'Stormbreak Ridge'",
                "field 'left.spawn'",
                "expected 6 rows, found 7",
            ],
        );
    }

    #[test]
    fn error_spawn_number_twice_missing_or_misplaced() {
        let e = bad(r#"".3.", "..4"]"#, r#"".3.", "..3"]"#);
        has(
            &e,
            &[
                "map 'Stormbreak Ridge'",
                "field 'left.spawn[6]'",
                "spawn number 3 is used twice",
            ],
        );
        let e = bad(r#"".3.", "..4"]"#, r#"".3.", "..."]"#);
        has(
            &e,
            &[
                "map 'Stormbreak Ridge'",
                "field 'left.spawn'",
                "spawn number 4 is missing",
            ],
        );
        let e = bad(r#"".3.", "..4"]"#, r#"".3.", "..5"]"#);
        has(
            &e,
            &[
                "map 'Stormbreak Ridge'",
                "field 'left.spawn[6]'",
                "L sides carry 1-4",
            ],
        );
        let e = bad(
            r#"spawn = ["...", "...", "..1""#,
            r#"spawn = ["1..", "...", "...""#,
        );
        has(
            &e,
            &[
                "map 'Stormbreak Ridge'",
                "field 'left.spawn[1]'",
                "on a building",
            ],
        );
        let e = bad(
            r#"spawn = ["...", "...", "..1""#,
            r#"spawn = ["...", "...", ".1.""#,
        );
        has(&e, &["field 'left.spawn[3]'", "on water"]);
    }

    #[test]
    fn error_hp_zero() {
        let e = bad("hp = 3", "hp = 0");
        has(&e, &["rift.toml:", "mech 'Wukong'", "field 'hp'", "got 0"]);
        let e = bad("[monster.normal]\nhp = 2", "[monster.normal]\nhp = 0");
        has(&e, &["monster 'Demon'", "field 'normal.hp'", "got 0"]);
    }

    #[test]
    fn error_mech_hp_above_a_die_face() {
        let e = bad("hp = 5", "hp = 6");
        has(
            &e,
            &["mech 'Bulwark'", "field 'upgrades[1].hp'", "raises hp to 7"],
        );
    }

    #[test]
    fn error_unknown_pilot_mech() {
        let e = bad(r#"mech = "Wukong""#, r#"mech = "Sun Wukong""#);
        has(
            &e,
            &[
                "rift.toml:",
                "pilot 'Sun Li'",
                "field 'mech'",
                "unknown mech 'Sun Wukong'",
            ],
        );
    }

    #[test]
    fn error_unknown_or_shared_objective_map() {
        let e = bad(r#"map = "Stormbreak Ridge""#, r#"map = "Storm Ridge""#);
        has(
            &e,
            &[
                "rift.toml:",
                "objective 'Ride Out the Storm'",
                "field 'map'",
                "unknown map 'Storm Ridge'",
            ],
        );
        let e = bad(r#"map = "Sunken Causeway""#, r#"map = "Stormbreak Ridge""#);
        has(
            &e,
            &[
                "objective 'High Water'",
                "field 'map'",
                "already has objective 'Ride Out the Storm'",
            ],
        );
    }

    #[test]
    fn error_duplicate_names() {
        let e = bad(r#"name = "Atlas""#, r#"name = "wukong""#);
        has(
            &e,
            &[
                "rift.toml:",
                "mech 'wukong'",
                "field 'name'",
                "duplicate name (also mech 1)",
            ],
        );
        let e = bad(r#"name = "Wraith""#, r#"name = "Demon""#);
        has(&e, &["monster 'Demon'", "field 'name'", "duplicate"]);
    }

    #[test]
    fn error_special_tile_on_wrong_terrain() {
        let e = bad(
            "turret = { col = 1, row = 3 }",
            "turret = { col = 2, row = 3 }",
        );
        has(
            &e,
            &[
                "map 'Gunline Heights'",
                "field 'left.turret'",
                "must be a building",
            ],
        );
        let e = bad(
            "frozen_mountain = { col = 3, row = 3 }",
            "frozen_mountain = { col = 2, row = 3 }",
        );
        has(
            &e,
            &[
                "map 'Glacier Shelf'",
                "field 'left.frozen_mountain'",
                "must be a mountain",
            ],
        );
        let e = bad(
            "rocket = { col = 3, row = 4 }",
            "rocket = { col = 2, row = 4 }",
        );
        has(
            &e,
            &[
                "map 'Launch Site'",
                "field 'left.rocket'",
                "must be a building",
            ],
        );
        let e = bad(
            "{ col = 2, row = 2, turn = 4 }",
            "{ col = 1, row = 1, turn = 4 }",
        );
        has(
            &e,
            &[
                "map 'Stormbreak Ridge'",
                "field 'left.storm[1]'",
                "is a building",
            ],
        );
        let e = bad(
            "{ col = 2, row = 4, turn = 3 }",
            "{ col = 2, row = 3, turn = 3 }",
        );
        has(
            &e,
            &["map 'Sunken Causeway'", "field 'left.flood[1]'", "is water"],
        );
        let e = bad(
            "acid = [{ col = 3, row = 2 }",
            "acid = [{ col = 1, row = 2 }",
        );
        has(
            &e,
            &["map 'Acid Flats'", "field 'left.acid[1]'", "is a mountain"],
        );
        let e = bad(
            "{ col = 2, row = 4, turn = 3 }",
            "{ col = 4, row = 4, turn = 3 }",
        );
        has(&e, &["field 'left.flood[1].col'", "got 4"]);
        let e = bad(
            "{ col = 2, row = 4, turn = 3 }",
            "{ col = 2, row = 4, turn = 7 }",
        );
        has(&e, &["field 'left.flood[1].turn'", "got 7"]);
    }

    #[test]
    fn error_special_tiles_mixed_or_differing_between_sides() {
        let e = bad(
            "storm = [{ col = 1, row = 2, turn = 5 }, { col = 3, row = 4, turn = 3 }]",
            "acid = [{ col = 1, row = 2 }]",
        );
        has(
            &e,
            &[
                "map 'Stormbreak Ridge'",
                "field 'right'",
                "acid tiles",
                "storm tiles",
            ],
        );
        let e = bad(
            "storm = [{ col = 2, row = 2, turn = 4 }",
            "acid = [{ col = 1, row = 2 }]\nstorm = [{ col = 2, row = 2, turn = 4 }",
        );
        has(
            &e,
            &[
                "map 'Stormbreak Ridge'",
                "field 'left'",
                "one kind of special tile",
            ],
        );
    }

    #[test]
    fn error_too_few_deployable_tiles() {
        let e = bad(r#"["B.M", ".F.""#, r#"["BBM", "MFB""#);
        has(
            &e,
            &[
                "rift.toml:",
                "map 'Stormbreak Ridge'",
                "field 'left.terrain'",
                "1 deployable",
            ],
        );
    }

    #[test]
    fn error_upgrade_rows() {
        let e = bad(
            "upgrades = [{ hp = 1 }, { movement = 1 }, { damage = 1 }]",
            "upgrades = [{ hp = 1, movement = 1 }, { movement = 1 }, { damage = 1 }]",
        );
        has(
            &e,
            &["mech 'Wukong'", "field 'upgrades[1]'", "exactly one of"],
        );
        let e = bad(
            "upgrades = [{ hp = 1 }, { movement = 1 }, { damage = 1 }]",
            "upgrades = [{ hp = 1 }, { movement = 1 }]",
        );
        has(
            &e,
            &[
                "mech 'Wukong'",
                "field 'upgrades'",
                "expected 3 upgrade rows, found 2",
            ],
        );
        let e = bad(
            "upgrades = [{ hp = 1 }, { start_shield = true }, { movement = 1 }]",
            "upgrades = [{ damage = 1 }, { start_shield = true }, { movement = 1 }]",
        );
        has(
            &e,
            &[
                "mech 'Bulwark'",
                "field 'upgrades[1].damage'",
                "deals damage",
            ],
        );
        let e = bad(
            "upgrades = [{ flying = true }",
            "upgrades = [{ flying = false }",
        );
        has(
            &e,
            &[
                "mech 'Mirage'",
                "field 'upgrades[1].flying'",
                "must be true",
            ],
        );
        let e = bad(
            r#"name = "Gravity Well", shape = "exact2""#,
            r#"name = "Gravity Well", shape = "cone""#,
        );
        has(
            &e,
            &[
                "pilot 'Marta Kell'",
                "field 'upgrades[2].weapon.shape'",
                "'cone'",
            ],
        );
        let e = bad(
            "upgrades = [{ hp = 1 }, { movement = 1 }, { damage = 1 }]",
            "upgrades = [{ hp = 1 }, { movement = 1 }, { weapon = { name = \"Kick\", \
             shape = \"adjacent\", damage = 1 } }]",
        );
        has(
            &e,
            &[
                "mech 'Wukong'",
                "field 'upgrades[3].weapon'",
                "pilot upgrades",
            ],
        );
    }

    #[test]
    fn error_attack_rules() {
        let e = bad(
            "splash = true, aims_at_terrain = true",
            "aims_at_terrain = true",
        );
        has(
            &e,
            &[
                "monster 'Herald'",
                "field 'alpha.attack.aims_at_terrain'",
                "splash",
            ],
        );
        let e = bad(r#"damage = 0, movement = "push""#, "damage = 0");
        has(
            &e,
            &["mech 'Bulwark'", "field 'attack.damage'", "does nothing"],
        );
        let e = bad(
            r#"damage = 1, sides = "damage""#,
            r#"damage = 0, sides = "damage""#,
        );
        has(&e, &["pilot 'Sun Li'", "field 'upgrades[2].weapon.sides'"]);
        let e = bad(
            r#"name = "Throw", shape = "adjacent", damage = 1"#,
            r#"name = "Throw", shape = "adjacent", damage = 9"#,
        );
        has(&e, &["mech 'Wukong'", "field 'attack.damage'", "got 9"]);
    }

    #[test]
    fn error_campaign_card() {
        let e = bad(
            "left = \"yellow\"\nright = \"none\"",
            "left = \"blue\"\nright = \"none\"",
        );
        has(
            &e,
            &[
                "rift.toml:",
                "campaign game 1",
                "field 'left'",
                "unknown slot 'blue'",
            ],
        );
        let e = bad(r#"left_reward = ["a"]"#, r#"left_reward = ["c"]"#);
        has(
            &e,
            &[
                "campaign game 1",
                "field 'left_reward[1]'",
                "unknown reward 'c'",
            ],
        );
        let e = bad(r#"right_reward = []"#, r#"right_reward = ["b"]"#);
        has(
            &e,
            &["campaign game 1", "field 'right_reward'", "no objective"],
        );
        let e = bad(
            "starting_monsters = 3\nalphas = 0",
            "starting_monsters = 5\nalphas = 0",
        );
        has(
            &e,
            &["campaign game 1", "field 'starting_monsters'", "got 5"],
        );
        let e = bad("alphas = 2\nfinale = true", "alphas = 2");
        has(
            &e,
            &[
                "campaign game 5",
                "field 'finale'",
                "last game is the finale",
            ],
        );
        let e = bad("alphas = 0\n", "alphas = 0\nfinale = true\n");
        has(
            &e,
            &["campaign game 1", "field 'finale'", "only the last game"],
        );
    }

    #[test]
    fn error_missing_turret() {
        let text = &BUILTIN_TOML[..BUILTIN_TOML.rfind("[turret]").unwrap()];
        let e = parse(text, "rift.toml").unwrap_err().0;
        has(&e, &["rift.toml:", "turret", "missing the [turret] table"]);
    }

    #[test]
    fn error_missing_field() {
        let e = bad("hp = 3\n", "");
        has(&e, &["rift.toml:", "mech 'Wukong'", "missing field `hp`"]);
        let e = bad("[monster.alpha]\nhp = 4", "[monster.beta]\nhp = 4");
        has(&e, &["rift.toml:", "monster 'Demon'", "beta"]);
    }

    #[test]
    fn error_toml_syntax_and_types_give_line_and_column() {
        let at = BUILTIN_TOML.find("hp = 3").unwrap();
        let line = BUILTIN_TOML[..at].matches('\n').count() + 1;
        let e = bad("hp = 3", "hp = = 3");
        assert!(e.starts_with(&format!("rift.toml:{line}:")), "{e}");
        has(&e, &["mech 'Wukong'"]);
        let e = bad("hp = 3", "hpp = 3");
        assert_eq!(e.split(':').nth(1), Some(line.to_string().as_str()), "{e}");
        has(
            &e,
            &["rift.toml:", ":1: mech 'Wukong': ", "unknown field", "hpp"],
        );
        let at = BUILTIN_TOML.find("seek = 1").unwrap();
        let line = BUILTIN_TOML[..at].matches('\n').count() + 1;
        let e = bad("seek = 1", "seek = \"east\"");
        has(
            &e,
            &[&format!(
                "rift.toml:{line}:8: monster 'Demon': field 'seek': invalid type"
            )],
        );
        let e = bad("[monster.normal]\nhp = 2", "[monster.normal]\nhp = \"two\"");
        has(&e, &["monster 'Demon': field 'normal.hp': invalid type"]);
        let e = bad(
            r#"name = "Gravity Well", shape = "exact2", damage = 0"#,
            r#"name = "Gravity Well", shape = "exact2", damage = "x""#,
        );
        has(
            &e,
            &["pilot 'Marta Kell': field 'upgrades[2].weapon.damage': invalid type"],
        );
        let e = bad(
            r#"compass = ["E", "S", "W", "N"]"#,
            r#"compass = ["E", "S", 3, "N"]"#,
        );
        has(&e, &["monster 'Demon': field 'compass[3]': invalid type"]);
        let e = bad("left_reward = [\"b\"]", "left_rewards = [\"b\"]");
        has(&e, &["campaign game 2", "unknown field", "left_rewards"]);
    }
}
