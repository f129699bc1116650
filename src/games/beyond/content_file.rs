//! Reads a Beyond the Rift content file (TOML) into [`Content`], checking every rule of the
//! format so the rules code can trust its tables.
//!
//! The format is documented at the top of `content/beyond.toml` (the embedded default).
//! Deserializing is serde's (`deny_unknown_fields`) behind the one function [`parse`];
//! validation is separate (`Compiler`). Every error is one line: TOML syntax, type and
//! unknown-key errors as `SOURCE:LINE:COL: message`; the format's own rules as
//! `SOURCE: entry 'NAME': field 'a.b': message` (indices in field paths are 1-based).

use serde::Deserialize;

use super::content::{
    ActSpec, ActType, ActivationRow, BODY_NAMES, Board, Body, Campaign, Card, CardKind, CardOpt,
    Content, Damage, ENEMY_TYPE_NAMES, Effect, Enemy, EnemyAct, EnemyType, Hero, Item, Lose,
    MAX_CELL, MAX_COLUMNS, Modifiers, PerCount, Response, Scenario, ScenarioAction, SimpleAct,
    Stat, Terrain, TerrainKind, Timing, Win,
};
use crate::content::{ContentText, FieldPath};
use crate::game::SetupError;

/// Cards in every Hero Deck (Components: 156 Hero cards, 26 for each hero).
pub const HERO_CARDS: usize = 26;
/// The most heroes a content file may hold.
pub const MAX_HERO_BOARDS: usize = 12;
/// The most distinct cards (ids are `u8`, one value reserved).
pub const MAX_CARDS: usize = 250;
/// The most Wound cards (the Wound Deck's capacity in the state).
pub const MAX_WOUNDS: usize = 24;
/// The most Fatigue cards.
pub const MAX_FATIGUE: usize = 16;
/// The most Response cards.
pub const MAX_RESPONSE: usize = 48;
/// The most cards in a scenario's Enemy Deck.
pub const MAX_ENEMY_DECK: usize = 40;
/// The most cards in a scenario's Terrain Deck.
pub const MAX_TERRAIN_DECK: usize = 24;
/// The most items in a campaign's item deck.
pub const MAX_ITEMS: usize = 16;
/// The highest round limit of a scenario.
pub const MAX_ROUNDS: u8 = 30;

/// Parses content text into [`Content`]. `source` names the text in errors and becomes
/// [`Content::source`] (`builtin` for the embedded file, else the path).
///
/// # Errors
/// A one-line [`SetupError`]: invalid TOML, an unknown key or a wrong type
/// (`source:line:column: ...`), or a broken rule of the format (`source: entry 'NAME': field
/// 'path': ...`): an unknown effect, action type, stat, timing, body part, enemy type, terrain
/// kind, enemy action, win or lose kind, or name; an attack option without a Primary or a
/// Secondary cost, or another option without a cost; a hero deck that is not 26 cards; an
/// activation table naming an enemy that is not in the scenario; a number out of range.
pub fn parse(text: &str, source: &str) -> Result<Content, SetupError> {
    crate::content::parse_with(text, source, |doc, raw: RawFile| {
        Compiler { doc }.compile(raw)
    })
}

// ---------------------------------------------------------------------------------------------
// The file as written

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawFile {
    rules: RawRules,
    #[serde(default)]
    response: Vec<RawResponse>,
    #[serde(default)]
    wound: Vec<RawWound>,
    #[serde(default)]
    fatigue: Vec<RawWound>,
    #[serde(default)]
    hero: Vec<RawHero>,
    #[serde(default)]
    enemy: Vec<RawEnemy>,
    #[serde(default)]
    terrain: Vec<RawTerrain>,
    #[serde(default)]
    item: Vec<RawItem>,
    #[serde(default)]
    scenario: Vec<RawScenario>,
    #[serde(default)]
    campaign: Vec<RawCampaign>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawRules {
    hand_size: [i64; 4],
    max_points: i64,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawResponse {
    number: i64,
    value: i64,
    count: i64,
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct RawHeroMods {
    #[serde(default)]
    attack: i64,
    #[serde(default)]
    defense: i64,
    #[serde(default)]
    points: i64,
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct RawEnemyMods {
    #[serde(default)]
    range: i64,
    #[serde(default)]
    attack: i64,
    #[serde(default)]
    defense: i64,
    #[serde(default)]
    health: i64,
    #[serde(default)]
    engage: i64,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawWound {
    name: String,
    count: i64,
    #[serde(default)]
    hero: RawHeroMods,
    #[serde(default)]
    enemy: RawEnemyMods,
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct RawDamage {
    #[serde(default)]
    wounds: i64,
    #[serde(default)]
    fatigue: i64,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawBoard {
    points: i64,
    draw_cost: i64,
    cycle_cost: i64,
    discard_points: i64,
    defense_rate: i64,
    damage: RawDamage,
    action: Option<RawOpt>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawEffect {
    effect: String,
    value: Option<i64>,
    stat: Option<String>,
    uses: Option<i64>,
    defense: Option<i64>,
    health: Option<i64>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawOpt {
    #[serde(rename = "type")]
    act: String,
    range: i64,
    primary: Option<i64>,
    secondary: Option<i64>,
    cost: Option<i64>,
    #[serde(default)]
    attack: i64,
    #[serde(default)]
    response: i64,
    #[serde(default)]
    points: i64,
    #[serde(default)]
    defense: i64,
    timing: Option<String>,
    #[serde(default)]
    effects: Vec<RawEffect>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawCard {
    name: String,
    count: i64,
    body: Option<String>,
    options: Vec<RawOpt>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawHero {
    name: String,
    class: String,
    alignment: String,
    board: RawBoard,
    alt_board: RawBoard,
    card: Vec<RawCard>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawEnemy {
    name: String,
    #[serde(rename = "type")]
    etype: String,
    damage: RawDamage,
    engage: i64,
    range: i64,
    attack: i64,
    defense: i64,
    health: i64,
}

/// A value written once for every hero count, or as `[A, B, C, D]`.
#[derive(Deserialize, Clone, Copy)]
#[serde(untagged)]
enum RawCount {
    One(i64),
    Four([i64; 4]),
}

impl RawCount {
    fn four(self) -> [i64; 4] {
        match self {
            RawCount::One(v) => [v; 4],
            RawCount::Four(v) => v,
        }
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawTerrain {
    name: String,
    kind: String,
    points: RawCount,
    #[serde(default = "zero")]
    defense: RawCount,
}

fn zero() -> RawCount {
    RawCount::One(0)
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawItem {
    name: String,
    body: String,
    class: Option<String>,
    alignment: Option<String>,
    card: Vec<RawCard>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawNamed {
    name: String,
    count: i64,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawSpawn {
    threat: i64,
    enemies: RawCount,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawLose {
    cause: String,
    value: i64,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawScenarioAction {
    name: String,
    cost: i64,
    threat: i64,
    #[serde(default)]
    unengaged: bool,
    #[serde(default)]
    once_per_round: bool,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawActivation {
    enemy: String,
    columns: Vec<Vec<String>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawScenario {
    name: String,
    campaign: Option<String>,
    threat: i64,
    threat_per_round: i64,
    rounds: i64,
    enemies: Vec<RawNamed>,
    start_enemies: RawCount,
    #[serde(default)]
    terrain: Vec<RawNamed>,
    #[serde(default)]
    terrain_in_play: i64,
    spawn: Vec<RawSpawn>,
    win: String,
    survive_rounds: Option<i64>,
    win_enemy: Option<String>,
    #[serde(default)]
    lose: Vec<RawLose>,
    #[serde(default)]
    reward_items: i64,
    #[serde(default)]
    unlock_alt: bool,
    action: Option<RawScenarioAction>,
    activation: Vec<RawActivation>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawCampaign {
    name: String,
    scenarios: Vec<String>,
    items: Vec<String>,
}

// ---------------------------------------------------------------------------------------------
// Validation

struct Compiler<'a, 't> {
    doc: &'a ContentText<'t>,
}

impl Compiler<'_, '_> {
    /// An error at `field` (displayed path, 1-based indices) below `entry` (`hero[2]`).
    fn err(&self, entry: &str, field: &str, msg: impl std::fmt::Display) -> SetupError {
        self.doc.error(&FieldPath::parse(entry).join(field), msg)
    }

    fn num(&self, entry: &str, field: &str, v: i64, lo: i64, hi: i64) -> Result<u8, SetupError> {
        if (lo..=hi).contains(&v) {
            Ok(v as u8)
        } else {
            Err(self.err(entry, field, format!("{v} is not in {lo}..={hi}")))
        }
    }

    fn signed(&self, entry: &str, field: &str, v: i64) -> Result<i8, SetupError> {
        if (-9..=9).contains(&v) {
            Ok(v as i8)
        } else {
            Err(self.err(entry, field, format!("{v} is not in -9..=9")))
        }
    }

    fn count4(
        &self,
        entry: &str,
        field: &str,
        v: RawCount,
        lo: i64,
        hi: i64,
    ) -> Result<PerCount, SetupError> {
        let f = v.four();
        let mut out = [0u8; 4];
        for (slot, &v) in out.iter_mut().zip(f.iter()) {
            *slot = self.num(entry, field, v, lo, hi)?;
        }
        Ok(out)
    }

    fn pick<T>(
        &self,
        entry: &str,
        field: &str,
        what: &str,
        s: &str,
        names: &[&str],
        values: &[T],
    ) -> Result<T, SetupError>
    where
        T: Copy,
    {
        names
            .iter()
            .position(|n| n.eq_ignore_ascii_case(s))
            .map(|i| values[i])
            .ok_or_else(|| {
                self.err(
                    entry,
                    field,
                    format!("unknown {what} '{s}' (valid: {})", names.join(", ")),
                )
            })
    }

    fn named(
        &self,
        entry: &str,
        field: &str,
        what: &str,
        s: &str,
        names: &[String],
    ) -> Result<u8, SetupError> {
        names
            .iter()
            .position(|n| n.eq_ignore_ascii_case(s))
            .map(|i| i as u8)
            .ok_or_else(|| {
                self.err(
                    entry,
                    field,
                    format!("unknown {what} '{s}' (valid: {})", names.join(", ")),
                )
            })
    }

    fn compile(&self, raw: RawFile) -> Result<Content, SetupError> {
        let mut hand_size = [0u8; 4];
        for (slot, &v) in hand_size.iter_mut().zip(raw.rules.hand_size.iter()) {
            *slot = self.num("rules", "hand_size", v, 1, 12)?;
        }
        let max_points = self.num("rules", "max_points", raw.rules.max_points, 1, 60)?;
        let mut cards: Vec<Card> = Vec::new();
        // Response deck.
        let mut response = Vec::new();
        for (i, r) in raw.response.iter().enumerate() {
            let e = format!("response[{}]", i + 1);
            let number = self.num(&e, "number", r.number, 1, MAX_COLUMNS as i64)?;
            let value = self.num(&e, "value", r.value, 0, 9)?;
            let n = self.num(&e, "count", r.count, 1, MAX_RESPONSE as i64)?;
            for _ in 0..n {
                response.push(Response { number, value });
            }
        }
        if response.is_empty() || response.len() > MAX_RESPONSE {
            return Err(self.err(
                "response",
                "count",
                format!(
                    "{} Response cards (need 1..={MAX_RESPONSE})",
                    response.len()
                ),
            ));
        }
        let columns = response.iter().map(|r| r.number).max().unwrap_or(1);
        // Wounds and fatigue.
        let mut wound_deck = Vec::new();
        let mut fatigue_deck = Vec::new();
        for (kind, list, deck, cap) in [
            (CardKind::Wound, &raw.wound, &mut wound_deck, MAX_WOUNDS),
            (
                CardKind::Fatigue,
                &raw.fatigue,
                &mut fatigue_deck,
                MAX_FATIGUE,
            ),
        ] {
            let key = if kind == CardKind::Wound {
                "wound"
            } else {
                "fatigue"
            };
            for (wi, w) in list.iter().enumerate() {
                let e = &format!("{key}[{}]", wi + 1);
                let n = self.num(e, "count", w.count, 1, cap as i64)?;
                let mods = Modifiers {
                    attack: self.signed(e, "hero.attack", w.hero.attack)?,
                    defense: self.signed(e, "hero.defense", w.hero.defense)?,
                    points: self.signed(e, "hero.points", w.hero.points)?,
                    e_range: self.signed(e, "enemy.range", w.enemy.range)?,
                    e_attack: self.signed(e, "enemy.attack", w.enemy.attack)?,
                    e_defense: self.signed(e, "enemy.defense", w.enemy.defense)?,
                    e_health: self.signed(e, "enemy.health", w.enemy.health)?,
                    e_engage: self.signed(e, "enemy.engage", w.enemy.engage)?,
                };
                let used = [mods.attack, mods.defense, mods.points]
                    .iter()
                    .filter(|v| **v != 0)
                    .count();
                if used != 1 {
                    return Err(self.err(
                        e,
                        "hero",
                        "exactly one of attack, defense, points must be set (the card's use for a hero)",
                    ));
                }
                let id = self.add_card(
                    &mut cards,
                    e,
                    Card {
                        name: w.name.clone(),
                        kind,
                        body: None,
                        opts: Vec::new(),
                        mods,
                    },
                )?;
                for _ in 0..n {
                    deck.push(id);
                }
            }
            if deck.len() > cap || deck.is_empty() {
                let what = if kind == CardKind::Wound {
                    "wound"
                } else {
                    "fatigue"
                };
                return Err(self.err(
                    what,
                    "count",
                    format!("{} cards (need 1..={cap})", deck.len()),
                ));
            }
        }
        // Heroes.
        if raw.hero.is_empty() || raw.hero.len() > MAX_HERO_BOARDS {
            return Err(self.err(
                "hero",
                "count",
                format!("{} heroes (need 1..={MAX_HERO_BOARDS})", raw.hero.len()),
            ));
        }
        let mut heroes = Vec::new();
        for (hi, h) in raw.hero.iter().enumerate() {
            let e = &format!("hero[{}]", hi + 1);
            if heroes
                .iter()
                .any(|x: &Hero| x.name.eq_ignore_ascii_case(&h.name))
            {
                return Err(self.err(e, "name", "a second hero of this name"));
            }
            let boards = [
                self.board(e, "board", &h.board)?,
                self.board(e, "alt_board", &h.alt_board)?,
            ];
            let mut deck = Vec::new();
            for (i, c) in h.card.iter().enumerate() {
                let f = format!("card[{}]", i + 1);
                let id = self.hero_card(&mut cards, e, &f, c)?;
                let n = self.num(e, &format!("{f}.count"), c.count, 1, HERO_CARDS as i64)?;
                for _ in 0..n {
                    deck.push(id);
                }
            }
            if deck.len() != HERO_CARDS {
                return Err(self.err(
                    e,
                    "card",
                    format!("{} cards in the Hero Deck (need {HERO_CARDS})", deck.len()),
                ));
            }
            heroes.push(Hero {
                name: h.name.clone(),
                class: h.class.clone(),
                alignment: h.alignment.clone(),
                boards,
                deck,
            });
        }
        // Items.
        let mut items = Vec::new();
        for (ii, it) in raw.item.iter().enumerate() {
            let e = &format!("item[{}]", ii + 1);
            let body = self.pick(e, "body", "body part", &it.body, &BODY_NAMES, &BODIES)?;
            let mut ids = Vec::new();
            for (i, c) in it.card.iter().enumerate() {
                let f = format!("card[{}]", i + 1);
                let id = self.hero_card(&mut cards, e, &f, c)?;
                let n = self.num(e, &format!("{f}.count"), c.count, 1, 8)?;
                for _ in 0..n {
                    ids.push(id);
                }
            }
            if ids.is_empty() {
                return Err(self.err(e, "card", "an item needs at least one card"));
            }
            items.push(Item {
                name: it.name.clone(),
                body,
                class: it.class.clone(),
                alignment: it.alignment.clone(),
                cards: ids,
            });
        }
        // Enemies.
        let mut enemies = Vec::new();
        for (ei, en) in raw.enemy.iter().enumerate() {
            let e = &format!("enemy[{}]", ei + 1);
            if enemies
                .iter()
                .any(|x: &Enemy| x.name.eq_ignore_ascii_case(&en.name))
            {
                return Err(self.err(e, "name", "a second enemy of this name"));
            }
            let damage = Damage {
                wounds: self.num(e, "damage.wounds", en.damage.wounds, 0, 3)?,
                fatigue: self.num(e, "damage.fatigue", en.damage.fatigue, 0, 3)?,
            };
            if damage.wounds + damage.fatigue == 0 {
                return Err(self.err(e, "damage", "an enemy must deal at least one card"));
            }
            enemies.push(Enemy {
                name: en.name.clone(),
                etype: self.pick(
                    e,
                    "type",
                    "enemy type",
                    &en.etype,
                    &ENEMY_TYPE_NAMES,
                    &ENEMY_TYPES,
                )?,
                damage,
                engage: self.num(e, "engage", en.engage, 0, 9)?,
                range: self.num(e, "range", en.range, 1, 2)?,
                attack: self.num(e, "attack", en.attack, 0, 12)?,
                defense: self.num(e, "defense", en.defense, 0, 12)?,
                health: self.num(e, "health", en.health, 1, 9)?,
            });
        }
        if enemies.is_empty() || enemies.len() > 64 {
            return Err(self.err("enemy", "count", "need 1..=64 enemies"));
        }
        // Terrain.
        let mut terrain = Vec::new();
        for (ti, t) in raw.terrain.iter().enumerate() {
            let e = &format!("terrain[{}]", ti + 1);
            terrain.push(Terrain {
                name: t.name.clone(),
                kind: self.pick(
                    e,
                    "kind",
                    "terrain kind",
                    &t.kind,
                    &["door", "portcullis", "obstacle"],
                    &[
                        TerrainKind::Door,
                        TerrainKind::Portcullis,
                        TerrainKind::Obstacle,
                    ],
                )?,
                points: self.count4(e, "points", t.points, 0, 20)?,
                defense: self.count4(e, "defense", t.defense, 0, 20)?,
            });
        }
        let enemy_names: Vec<String> = enemies.iter().map(|x| x.name.clone()).collect();
        let terrain_names: Vec<String> = terrain.iter().map(|x| x.name.clone()).collect();
        let item_names: Vec<String> = items.iter().map(|x| x.name.clone()).collect();
        let campaign_names: Vec<String> = raw.campaign.iter().map(|x| x.name.clone()).collect();
        // Scenarios.
        let mut scenarios = Vec::new();
        for (si, s) in raw.scenario.iter().enumerate() {
            scenarios.push(self.scenario(
                &format!("scenario[{}]", si + 1),
                s,
                &enemies,
                &enemy_names,
                &terrain_names,
                &campaign_names,
                columns,
            )?);
        }
        if scenarios.is_empty() {
            return Err(self.err("scenario", "count", "need at least one scenario"));
        }
        let scenario_names: Vec<String> = scenarios.iter().map(|x| x.name.clone()).collect();
        let mut campaigns = Vec::new();
        for (ci, c) in raw.campaign.iter().enumerate() {
            let e = &format!("campaign[{}]", ci + 1);
            let mut sc = Vec::new();
            for (i, n) in c.scenarios.iter().enumerate() {
                let s = self.named(
                    e,
                    &format!("scenarios[{}]", i + 1),
                    "scenario",
                    n,
                    &scenario_names,
                )?;
                if scenarios[s as usize].campaign != Some(ci as u8) {
                    return Err(self.err(
                        e,
                        &format!("scenarios[{}]", i + 1),
                        format!("scenario '{n}' does not name this campaign"),
                    ));
                }
                sc.push(s);
            }
            if sc.is_empty() || sc.len() > 8 {
                return Err(self.err(e, "scenarios", "need 1..=8 scenarios"));
            }
            let mut it = Vec::new();
            for (i, n) in c.items.iter().enumerate() {
                it.push(self.named(e, &format!("items[{}]", i + 1), "item", n, &item_names)?);
            }
            if it.len() > MAX_ITEMS {
                return Err(self.err(e, "items", format!("more than {MAX_ITEMS} items")));
            }
            campaigns.push(Campaign {
                name: c.name.clone(),
                scenarios: sc,
                items: it,
            });
        }
        let index = super::content::CardIndex::new(&cards, &response);
        Ok(Content {
            index,
            source: self.doc.source().to_string(),
            hand_size,
            max_points,
            cards,
            heroes,
            response,
            columns,
            wound_deck,
            fatigue_deck,
            enemies,
            terrain,
            items,
            scenarios,
            campaigns,
        })
    }

    fn add_card(&self, cards: &mut Vec<Card>, at: &str, card: Card) -> Result<u8, SetupError> {
        if cards
            .iter()
            .any(|c| c.name.eq_ignore_ascii_case(&card.name))
        {
            return Err(self.err(at, "name", "a second card of this name"));
        }
        if card.name.contains(['_', ',', '=', '@', '#']) || card.name.trim() != card.name {
            return Err(self.err(
                at,
                "name",
                "names may not hold _ , = @ # or edge spaces (the position format uses them)",
            ));
        }
        if cards.len() >= MAX_CARDS {
            return Err(self.err(at, "name", format!("more than {MAX_CARDS} cards")));
        }
        cards.push(card);
        Ok((cards.len() - 1) as u8)
    }

    fn board(&self, e: &str, f: &str, b: &RawBoard) -> Result<Board, SetupError> {
        let damage = Damage {
            wounds: self.num(e, &format!("{f}.damage.wounds"), b.damage.wounds, 0, 3)?,
            fatigue: self.num(e, &format!("{f}.damage.fatigue"), b.damage.fatigue, 0, 3)?,
        };
        if damage.wounds + damage.fatigue == 0 {
            return Err(self.err(
                e,
                &format!("{f}.damage"),
                "a hero must deal at least one card",
            ));
        }
        let action = match &b.action {
            Some(o) => {
                let opt = self.opt(e, &format!("{f}.action"), o)?;
                if opt.act != ActType::Special {
                    return Err(self.err(
                        e,
                        &format!("{f}.action.type"),
                        "a hero action must be of type special",
                    ));
                }
                Some(opt)
            }
            None => None,
        };
        Ok(Board {
            points: self.num(e, &format!("{f}.points"), b.points, 0, 20)?,
            draw_cost: self.num(e, &format!("{f}.draw_cost"), b.draw_cost, 0, 9)?,
            cycle_cost: self.num(e, &format!("{f}.cycle_cost"), b.cycle_cost, 0, 9)?,
            discard_points: self.num(e, &format!("{f}.discard_points"), b.discard_points, 0, 9)?,
            defense_rate: self.num(e, &format!("{f}.defense_rate"), b.defense_rate, 1, 9)?,
            damage,
            action,
        })
    }

    fn hero_card(
        &self,
        cards: &mut Vec<Card>,
        e: &str,
        f: &str,
        c: &RawCard,
    ) -> Result<u8, SetupError> {
        let body = match &c.body {
            Some(b) => Some(self.pick(
                e,
                &format!("{f}.body"),
                "body part",
                b,
                &BODY_NAMES,
                &BODIES,
            )?),
            None => None,
        };
        if c.options.is_empty() || c.options.len() > 2 {
            return Err(self.err(e, &format!("{f}.options"), "a card has 1 or 2 options"));
        }
        let mut opts = Vec::new();
        for (k, o) in c.options.iter().enumerate() {
            opts.push(self.opt(e, &format!("{f}.options[{}]", k + 1), o)?);
        }
        self.add_card(
            cards,
            &format!("{e}.{f}"),
            Card {
                name: c.name.clone(),
                kind: CardKind::Hero,
                body,
                opts,
                mods: Modifiers::default(),
            },
        )
    }

    fn opt(&self, e: &str, f: &str, o: &RawOpt) -> Result<CardOpt, SetupError> {
        let act = self.pick(
            e,
            &format!("{f}.type"),
            "action type",
            &o.act,
            &["attack", "points", "defense", "special", "reaction"],
            &[
                ActType::Attack,
                ActType::Points,
                ActType::Defense,
                ActType::Special,
                ActType::Reaction,
            ],
        )?;
        let range = self.num(e, &format!("{f}.range"), o.range, 1, 2)?;
        let cost = |v: Option<i64>, name: &str| -> Result<Option<u8>, SetupError> {
            v.map(|v| self.num(e, &format!("{f}.{name}"), v, 0, 20))
                .transpose()
        };
        let primary = cost(o.primary, "primary")?;
        let secondary = cost(o.secondary, "secondary")?;
        let plain = cost(o.cost, "cost")?;
        match act {
            ActType::Attack => {
                if primary.is_none() && secondary.is_none() {
                    return Err(self.err(
                        e,
                        &format!("{f}.primary"),
                        "an attack option needs a primary or a secondary cost",
                    ));
                }
                if plain.is_some() {
                    return Err(self.err(
                        e,
                        &format!("{f}.cost"),
                        "an attack option has primary/secondary costs, not cost",
                    ));
                }
            }
            _ => {
                if plain.is_none() {
                    return Err(self.err(
                        e,
                        &format!("{f}.cost"),
                        "a non-attack option needs a cost",
                    ));
                }
                if primary.is_some() || secondary.is_some() {
                    return Err(self.err(
                        e,
                        &format!("{f}.primary"),
                        "only attack options have primary/secondary costs",
                    ));
                }
            }
        }
        let timing = match (&o.timing, act) {
            (None, ActType::Reaction) => {
                return Err(self.err(e, &format!("{f}.timing"), "a reaction needs a timing"));
            }
            (None, _) => Timing::None,
            (Some(t), ActType::Reaction) => self.pick(
                e,
                &format!("{f}.timing"),
                "timing",
                t,
                &["enemy_attack"],
                &[Timing::EnemyAttack],
            )?,
            (Some(_), _) => {
                return Err(self.err(e, &format!("{f}.timing"), "only reactions have a timing"));
            }
        };
        if o.effects.len() > 3 {
            return Err(self.err(e, &format!("{f}.effects"), "at most 3 effects"));
        }
        let mut effects = [None; 3];
        for (k, x) in o.effects.iter().enumerate() {
            effects[k] = Some(self.effect(e, &format!("{f}.effects[{}]", k + 1), x, act)?);
        }
        Ok(CardOpt {
            act,
            range,
            primary,
            secondary,
            cost: plain.unwrap_or(0),
            attack: self.num(e, &format!("{f}.attack"), o.attack, 0, 12)?,
            response: self.num(e, &format!("{f}.response"), o.response, 0, 3)?,
            points: self.num(e, &format!("{f}.points"), o.points, 0, 12)?,
            defense: self.num(e, &format!("{f}.defense"), o.defense, 0, 12)?,
            timing,
            effects,
        })
    }

    fn effect(&self, e: &str, f: &str, x: &RawEffect, act: ActType) -> Result<Effect, SetupError> {
        let val = |lo: i64, hi: i64| -> Result<u8, SetupError> {
            match x.value {
                Some(v) => self.num(e, &format!("{f}.value"), v, lo, hi),
                None => Err(self.err(e, &format!("{f}.value"), "this effect needs a value")),
            }
        };
        let names = [
            "draw",
            "heal",
            "reveal",
            "engage",
            "disengage",
            "wound",
            "fatigue",
            "points",
            "persistent",
            "ally",
        ];
        let eff = match x.effect.to_ascii_lowercase().as_str() {
            "draw" => Effect::Draw(val(1, 5)?),
            "heal" => Effect::Heal(val(1, 5)?),
            "reveal" => Effect::Reveal(val(1, 5)?),
            "engage" => Effect::Engage,
            "disengage" => Effect::Disengage,
            "wound" => Effect::Wound(val(1, 3)?),
            "fatigue" => Effect::Fatigue(val(1, 3)?),
            "points" => Effect::Points(val(1, 9)?),
            "persistent" => {
                let stat = match &x.stat {
                    Some(s) => self.pick(
                        e,
                        &format!("{f}.stat"),
                        "stat",
                        s,
                        &["attack", "defense", "points", "heal", "draw"],
                        &[
                            Stat::Attack,
                            Stat::Defense,
                            Stat::Points,
                            Stat::Heal,
                            Stat::Draw,
                        ],
                    )?,
                    None => {
                        return Err(self.err(e, &format!("{f}.stat"), "persistent needs a stat"));
                    }
                };
                Effect::Persistent {
                    stat,
                    value: val(1, 5)?,
                    uses: self.num(e, &format!("{f}.uses"), x.uses.unwrap_or(0), 0, 9)?,
                }
            }
            "ally" => Effect::Ally {
                defense: self.num(e, &format!("{f}.defense"), x.defense.unwrap_or(0), 0, 9)?,
                health: self.num(e, &format!("{f}.health"), x.health.unwrap_or(1), 1, 9)?,
            },
            other => {
                return Err(self.err(
                    e,
                    &format!("{f}.effect"),
                    format!("unknown effect '{other}' (valid: {})", names.join(", ")),
                ));
            }
        };
        // Where each effect can appear.
        let ok = match eff {
            Effect::Engage | Effect::Disengage | Effect::Wound(_) | Effect::Fatigue(_) => {
                act == ActType::Attack
            }
            Effect::Reveal(_) => matches!(act, ActType::Attack | ActType::Defense),
            Effect::Persistent { .. } | Effect::Ally { .. } => act == ActType::Special,
            _ => true,
        };
        if !ok {
            return Err(self.err(
                e,
                &format!("{f}.effect"),
                format!("effect '{}' cannot be on a {act:?} option", x.effect),
            ));
        }
        Ok(eff)
    }

    // The name lists are the ones compiled just before; bundling them would only rename them.
    #[allow(clippy::too_many_arguments)]
    fn scenario(
        &self,
        e: &str,
        s: &RawScenario,
        enemies: &[Enemy],
        enemy_names: &[String],
        terrain_names: &[String],
        campaign_names: &[String],
        columns: u8,
    ) -> Result<Scenario, SetupError> {
        let campaign = match &s.campaign {
            Some(c) => Some(self.named(e, "campaign", "campaign", c, campaign_names)?),
            None => None,
        };
        let mut enemy_deck = Vec::new();
        for (i, n) in s.enemies.iter().enumerate() {
            let f = format!("enemies[{}]", i + 1);
            let id = self.named(e, &format!("{f}.name"), "enemy", &n.name, enemy_names)?;
            let c = self.num(e, &format!("{f}.count"), n.count, 1, MAX_ENEMY_DECK as i64)?;
            for _ in 0..c {
                enemy_deck.push(id);
            }
        }
        if enemy_deck.is_empty() || enemy_deck.len() > MAX_ENEMY_DECK {
            return Err(self.err(
                e,
                "enemies",
                format!(
                    "{} enemy cards (need 1..={MAX_ENEMY_DECK})",
                    enemy_deck.len()
                ),
            ));
        }
        let mut terrain_deck = Vec::new();
        for (i, n) in s.terrain.iter().enumerate() {
            let f = format!("terrain[{}]", i + 1);
            let id = self.named(e, &format!("{f}.name"), "terrain", &n.name, terrain_names)?;
            let c = self.num(
                e,
                &format!("{f}.count"),
                n.count,
                1,
                MAX_TERRAIN_DECK as i64,
            )?;
            for _ in 0..c {
                terrain_deck.push(id);
            }
        }
        if terrain_deck.len() > MAX_TERRAIN_DECK {
            return Err(self.err(e, "terrain", format!("more than {MAX_TERRAIN_DECK} cards")));
        }
        let mut spawns = Vec::new();
        for (i, sp) in s.spawn.iter().enumerate() {
            let f = format!("spawn[{}]", i + 1);
            let t = self.num(e, &format!("{f}.threat"), sp.threat, 0, 40)?;
            if spawns.last().is_some_and(|(p, _): &(u8, PerCount)| *p >= t) {
                return Err(self.err(e, &format!("{f}.threat"), "threats must rise row by row"));
            }
            spawns.push((
                t,
                self.count4(e, &format!("{f}.enemies"), sp.enemies, 0, 6)?,
            ));
        }
        let rounds = self.num(e, "rounds", s.rounds, 1, MAX_ROUNDS as i64)?;
        let win = match s.win.as_str() {
            "terrain_cleared" => {
                if terrain_deck.is_empty() {
                    return Err(self.err(e, "win", "terrain_cleared needs a terrain deck"));
                }
                Win::TerrainCleared
            }
            "enemies_defeated" => Win::EnemiesDefeated,
            "enemy_defeated" => match &s.win_enemy {
                Some(n) => {
                    let id = self.named(e, "win_enemy", "enemy", n, enemy_names)?;
                    if !enemy_deck.contains(&id) {
                        return Err(self.err(
                            e,
                            "win_enemy",
                            format!("'{n}' is not in the scenario's enemy deck"),
                        ));
                    }
                    Win::EnemyDefeated(id)
                }
                None => return Err(self.err(e, "win_enemy", "win 'enemy_defeated' needs it")),
            },
            "survive" => match s.survive_rounds {
                Some(n) => Win::Survive(self.num(e, "survive_rounds", n, 1, rounds as i64)?),
                None => return Err(self.err(e, "survive_rounds", "win 'survive' needs it")),
            },
            other => {
                return Err(self.err(
                    e,
                    "win",
                    format!(
                        "unknown win '{other}' (valid: terrain_cleared, enemies_defeated, enemy_defeated, survive)"
                    ),
                ));
            }
        };
        let mut lose = Vec::new();
        for (i, l) in s.lose.iter().enumerate() {
            let f = format!("lose[{}]", i + 1);
            lose.push(match l.cause.as_str() {
                "threat_maxed" => {
                    Lose::Threat(self.num(e, &format!("{f}.value"), l.value, 1, 40)?)
                }
                "overrun" => Lose::Overrun(self.num(e, &format!("{f}.value"), l.value, 1, 11)?),
                other => {
                    return Err(self.err(
                        e,
                        &format!("{f}.cause"),
                        format!("unknown cause '{other}' (valid: threat_maxed, overrun)"),
                    ));
                }
            });
        }
        let action = match &s.action {
            Some(a) => Some(ScenarioAction {
                name: a.name.clone(),
                cost: self.num(e, "action.cost", a.cost, 0, 20)?,
                threat: self.signed(e, "action.threat", a.threat)?,
                unengaged: a.unengaged,
                once_per_round: a.once_per_round,
            }),
            None => None,
        };
        // The activation section: rows name enemies in the scenario (its deck, or summoned).
        let mut in_scenario: Vec<u8> = enemy_deck.clone();
        let mut activation = Vec::new();
        let mut parsed: Vec<(u8, Vec<Vec<ActSpec>>)> = Vec::new();
        for (i, row) in s.activation.iter().enumerate() {
            let f = format!("activation[{}]", i + 1);
            let id = self.named(e, &format!("{f}.enemy"), "enemy", &row.enemy, enemy_names)?;
            if row.columns.len() != columns as usize {
                return Err(self.err(
                    e,
                    &format!("{f}.columns"),
                    format!(
                        "{} columns (the Response cards are numbered 1..={columns})",
                        row.columns.len()
                    ),
                ));
            }
            let mut cols = Vec::new();
            for (k, cell) in row.columns.iter().enumerate() {
                if cell.len() > MAX_CELL {
                    return Err(self.err(
                        e,
                        &format!("{f}.columns[{}]", k + 1),
                        format!("at most {MAX_CELL} actions"),
                    ));
                }
                let mut specs = Vec::new();
                for (j, text) in cell.iter().enumerate() {
                    let ff = format!("{f}.columns[{}][{}]", k + 1, j + 1);
                    let spec = self.spec(e, &ff, text, enemy_names)?;
                    for a in [Some(spec.act), spec.alt].into_iter().flatten() {
                        if let EnemyAct::Summon(x) = a {
                            in_scenario.push(x);
                        }
                    }
                    specs.push(spec);
                }
                cols.push(specs);
            }
            parsed.push((id, cols));
        }
        for (i, (id, cols)) in parsed.into_iter().enumerate() {
            if !in_scenario.contains(&id) {
                return Err(self.err(
                    e,
                    &format!("activation[{}].enemy", i + 1),
                    format!(
                        "enemy '{}' is not in this scenario (its enemies: {})",
                        enemies[id as usize].name,
                        names_of(&in_scenario, enemies)
                    ),
                ));
            }
            activation.push(ActivationRow {
                enemy: id,
                columns: cols,
            });
        }
        for &x in &in_scenario {
            if !activation.iter().any(|r| r.enemy == x) {
                return Err(self.err(
                    e,
                    "activation",
                    format!("no row for enemy '{}'", enemies[x as usize].name),
                ));
            }
        }
        for (i, row) in activation.iter().enumerate() {
            for cell in &row.columns {
                for spec in cell {
                    for a in [Some(spec.act), spec.alt].into_iter().flatten() {
                        if let EnemyAct::Support(x) | EnemyAct::Heal(x, _) = a
                            && !in_scenario.contains(&x)
                        {
                            return Err(self.err(
                                e,
                                &format!("activation[{}].columns", i + 1),
                                format!(
                                    "enemy '{}' is not in this scenario (its enemies: {})",
                                    enemies[x as usize].name,
                                    names_of(&in_scenario, enemies)
                                ),
                            ));
                        }
                    }
                }
            }
        }
        Ok(Scenario {
            name: s.name.clone(),
            campaign,
            threat: self.num(e, "threat", s.threat, 0, 40)?,
            threat_per_round: self.num(e, "threat_per_round", s.threat_per_round, 0, 5)?,
            enemy_deck,
            start_enemies: self.count4(e, "start_enemies", s.start_enemies, 0, 6)?,
            terrain_deck,
            terrain_in_play: self.num(e, "terrain_in_play", s.terrain_in_play, 0, 4)?,
            spawns,
            activation,
            win,
            lose,
            rounds,
            action,
            reward_items: self.num(e, "reward_items", s.reward_items, 0, 4)?,
            unlock_alt: s.unlock_alt,
        })
    }

    /// One entry of an activation cell: `ACTION` or `ACTION / ALTERNATE`, where ACTION is
    /// `attack`, `engage`, `disengage`, `reengage`, `poison`, `summon NAME`, `support NAME`,
    /// `intimidate N`, `obstruct N`, `heal NAME N`, or `TYPE ACTION` (a type order).
    fn spec(&self, e: &str, f: &str, text: &str, names: &[String]) -> Result<ActSpec, SetupError> {
        let mut parts = text.split('/');
        let first = parts.next().unwrap_or("");
        let act = self.enemy_act(e, f, first.trim(), names)?;
        let alt = match parts.next() {
            Some(a) => Some(self.enemy_act(e, f, a.trim(), names)?),
            None => None,
        };
        if parts.next().is_some() {
            return Err(self.err(e, f, format!("'{text}' has more than one '/'")));
        }
        Ok(ActSpec { act, alt })
    }

    fn enemy_act(
        &self,
        e: &str,
        f: &str,
        text: &str,
        names: &[String],
    ) -> Result<EnemyAct, SetupError> {
        let words: Vec<&str> = text.split_whitespace().collect();
        let bad = || {
            self.err(
                e,
                f,
                format!(
                    "unknown enemy action '{text}' (valid: attack, engage, disengage, reengage, poison, summon NAME, support NAME, intimidate N, obstruct N, heal NAME N, TYPE ACTION with TYPE one of {})",
                    ENEMY_TYPE_NAMES.join(", ")
                ),
            )
        };
        let simple = |w: &str| match w.to_ascii_lowercase().as_str() {
            "attack" => Some(SimpleAct::Attack),
            "engage" => Some(SimpleAct::Engage),
            "disengage" => Some(SimpleAct::Disengage),
            "reengage" | "re-engage" => Some(SimpleAct::Reengage),
            _ => None,
        };
        let n = |w: &str| w.parse::<u8>().ok().filter(|v| (1..=5).contains(v));
        let Some(&head) = words.first() else {
            return Err(bad());
        };
        let rest = words[1..].join(" ");
        Ok(match (head.to_ascii_lowercase().as_str(), words.len()) {
            (_, 1) if simple(head).is_some() => match simple(head) {
                Some(SimpleAct::Attack) => EnemyAct::Attack,
                Some(SimpleAct::Engage) => EnemyAct::Engage,
                Some(SimpleAct::Disengage) => EnemyAct::Disengage,
                _ => EnemyAct::Reengage,
            },
            ("poison", 1) => EnemyAct::Poison,
            ("summon", _) if words.len() >= 2 => {
                EnemyAct::Summon(self.named(e, f, "enemy", &rest, names)?)
            }
            ("support", _) if words.len() >= 2 => {
                EnemyAct::Support(self.named(e, f, "enemy", &rest, names)?)
            }
            ("intimidate", 2) => EnemyAct::Intimidate(n(words[1]).ok_or_else(bad)?),
            ("obstruct", 2) => EnemyAct::Obstruct(n(words[1]).ok_or_else(bad)?),
            ("heal", _) if words.len() >= 3 => {
                let count = n(words[words.len() - 1]).ok_or_else(bad)?;
                let name = words[1..words.len() - 1].join(" ");
                EnemyAct::Heal(self.named(e, f, "enemy", &name, names)?, count)
            }
            (t, 2) => {
                let ty = ENEMY_TYPE_NAMES
                    .iter()
                    .position(|x| *x == t)
                    .ok_or_else(bad)?;
                let s = simple(words[1]).ok_or_else(bad)?;
                EnemyAct::Order(ENEMY_TYPES[ty], s)
            }
            _ => return Err(bad()),
        })
    }
}

fn names_of(ids: &[u8], enemies: &[Enemy]) -> String {
    let mut v: Vec<&str> = Vec::new();
    for &i in ids {
        let n = enemies[i as usize].name.as_str();
        if !v.contains(&n) {
            v.push(n);
        }
    }
    v.join(", ")
}

const BODIES: [Body; 5] = [
    Body::Head,
    Body::Torso,
    Body::LeftArm,
    Body::RightArm,
    Body::Legs,
];

const ENEMY_TYPES: [EnemyType; 5] = [
    EnemyType::Cultist,
    EnemyType::Insectoid,
    EnemyType::Orc,
    EnemyType::Dwarf,
    EnemyType::Human,
];
