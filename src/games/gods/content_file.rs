//! Reads a Gods content file (TOML, the format documented at the top of `content/gods.toml`)
//! into [`Content`], checking every rule of the format so the rules code can trust its tables.
//!
//! Deserializing is serde's (`deny_unknown_fields`) behind the one function [`parse`]; the
//! checks that follow are separate (`Compiler`), so moving to the shared content loader is a
//! few lines. Every error is one line naming the file, the entry and the field, e.g.
//! `gods.toml: encounter 'sentries': field 'fateling[1].patrol[2]': patrol point (10.50,6.00) is
//! inside obstacle 1`; indices in field paths are 1-based. Syntax and type errors give
//! `file:line:column:` and the message instead.

use std::collections::BTreeMap;

use serde::Deserialize;

use super::content::{
    ASSET_DECK, AssetCard, AssetDeck, AssetEffect, Content, Encounter, Event, EventKind, FateRules,
    FatelingKind, MAX_ACTIONS, MAX_ASSETS, MAX_FATELINGS, MAX_OBJECTIVES, MAX_OBSTACLES,
    MAX_ROUNDS, MAX_WOUND_CARDS, Objective, Placement, Ranged, ScoundrelRules, Win, WoundCard,
    WoundEffect, aspect,
};
use super::geometry::{
    EPS, MAX_VERTICES, Nav, Pos, Pt, QUANTUM, Shape, bases_overlap, obstacle_under,
};
use crate::content::{ContentText, FieldPath};
use crate::game::SetupError;

/// The loss causes an encounter's round limit may name (indices into the game's loss causes).
pub const LIMIT_CAUSES: [(&str, u8); 2] = [("time_ran_out", 1), ("ritual_completed", 2)];

/// Parses content text into [`Content`]. `source` names the text in errors and becomes
/// [`Content::source`] (`builtin` for the embedded file, else the path).
///
/// # Errors
/// A one-line [`SetupError`]: TOML syntax, an unknown key or a wrong type
/// (`source:line:column: message`), or a broken rule of the format (`source: entry 'NAME':
/// field 'PATH': message`): scores that are not four values; an unknown asset effect, asset,
/// wound effect, aspect, fateling kind, limit cause, win condition, event effect or fateling
/// name; a deck that does not hold exactly 20 cards; too many assets, wound cards, fatelings,
/// obstacles or objectives; fewer wound cards than `wounds_to_perish`; a size, radius, move or
/// range under 0.01 inch (the table's resolution, [`QUANTUM`]) or over 600; `ranged` without the aspect or the other way round; an obstacle,
/// start, patrol point or objective off the table; a start or patrol point inside an obstacle;
/// two starting bases that overlap; a round limit outside 1..=30; a duplicate name.
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
    scoundrel: RawScoundrel,
    fate: RawFate,
    #[serde(default)]
    asset: Vec<RawAsset>,
    #[serde(default)]
    deck: Vec<RawDeck>,
    #[serde(default)]
    wound: Vec<RawWound>,
    #[serde(default)]
    fateling: Vec<RawFateling>,
    #[serde(default)]
    encounter: Vec<RawEncounter>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawScoundrel {
    scores: Vec<i64>,
    base_radius: f64,
    #[serde(rename = "move")]
    move_in: f64,
    sneak: f64,
    actions: i64,
    starting_hand: i64,
    reach: f64,
    combat: f64,
    optimal_range: f64,
    max_range: f64,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawFate {
    reach: f64,
    hearing: f64,
    smell: f64,
    blind_sight: f64,
    keen: f64,
    wounds_to_perish: i64,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawAsset {
    name: String,
    effect: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawDeck {
    name: String,
    cards: BTreeMap<String, i64>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawWound {
    name: String,
    effect: String,
    #[serde(default = "one")]
    count: i64,
}

fn one() -> i64 {
    1
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawRanged {
    range: f64,
    shoot: i64,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawFateling {
    name: String,
    #[serde(rename = "move")]
    move_in: f64,
    attack: i64,
    defense: i64,
    wounds: i64,
    base_radius: f64,
    #[serde(default)]
    aspects: Vec<String>,
    ranged: Option<RawRanged>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawObstacle {
    rect: Option<[f64; 4]>,
    circle: Option<[f64; 3]>,
    polygon: Option<Vec<[f64; 2]>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawObjective {
    name: String,
    at: [f64; 2],
    radius: f64,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawPlacement {
    kind: String,
    name: Option<String>,
    at: [f64; 2],
    #[serde(default)]
    patrol: Vec<[f64; 2]>,
    #[serde(default)]
    reserve: bool,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawEvent {
    caster: String,
    every: i64,
    effect: String,
    target: Option<i64>,
    amount: Option<i64>,
    summon: Option<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawEncounter {
    name: String,
    #[serde(default)]
    title: String,
    table: [f64; 2],
    scoundrel: [f64; 2],
    round_limit: i64,
    limit_cause: String,
    win: String,
    #[serde(default)]
    obstacles: Vec<RawObstacle>,
    #[serde(default)]
    objectives: Vec<RawObjective>,
    #[serde(default)]
    fateling: Vec<RawPlacement>,
    #[serde(default)]
    event: Vec<RawEvent>,
}

// ---------------------------------------------------------------------------------------------
// Checks

/// Validates the deserialized file and compiles it into tables.
struct Compiler<'a, 't> {
    doc: &'a ContentText<'t>,
}

type R<T> = Result<T, SetupError>;

impl Compiler<'_, '_> {
    fn err(&self, entry: &FieldPath, field: &str, msg: impl std::fmt::Display) -> SetupError {
        self.doc.error(&entry.join(field), msg)
    }

    /// A length in inches, `1/QUANTUM..=600`: positions are kept in hundredths of an inch, so a
    /// shorter move, reach or radius would round to nothing (0.001 played as 0).
    fn positive(&self, entry: &FieldPath, field: &str, v: f64) -> R<f32> {
        let least = 1.0 / f64::from(QUANTUM);
        if v.is_finite() && v >= least && v <= 600.0 {
            Ok(v as f32)
        } else {
            Err(self.err(
                entry,
                field,
                format!(
                    "{v} must be a number of inches from {least} (the table's resolution) up to 600"
                ),
            ))
        }
    }

    fn small(&self, entry: &FieldPath, field: &str, v: i64, min: i64, max: i64) -> R<i64> {
        if (min..=max).contains(&v) {
            Ok(v)
        } else {
            Err(self.err(entry, field, format!("{v} is not in {min}..={max}")))
        }
    }

    fn compile(&self, raw: RawFile) -> R<Content> {
        let s = &raw.scoundrel;
        let e = &FieldPath::root().key("scoundrel");
        if s.scores.len() != 4 {
            return Err(self.err(e, "scores", "must list four scores, one per ability"));
        }
        let mut scores = [0i8; 4];
        for (i, &v) in s.scores.iter().enumerate() {
            scores[i] = self.small(e, &format!("scores[{}]", i + 1), v, -5, 9)? as i8;
        }
        let scoundrel = ScoundrelRules {
            scores,
            radius: self.positive(e, "base_radius", s.base_radius)?,
            move_in: self.positive(e, "move", s.move_in)?,
            sneak_in: self.positive(e, "sneak", s.sneak)?,
            actions: self.small(e, "actions", s.actions, 1, MAX_ACTIONS as i64)? as u8,
            starting_hand: self.small(e, "starting_hand", s.starting_hand, 0, 10)? as u8,
            reach: self.positive(e, "reach", s.reach)?,
            combat: self.positive(e, "combat", s.combat)?,
            optimal_range: self.positive(e, "optimal_range", s.optimal_range)?,
            max_range: self.positive(e, "max_range", s.max_range)?,
        };
        let f = &raw.fate;
        let e = &FieldPath::root().key("fate");
        let fate = FateRules {
            reach: self.positive(e, "reach", f.reach)?,
            hearing: self.positive(e, "hearing", f.hearing)?,
            smell: self.positive(e, "smell", f.smell)?,
            blind_sight: self.positive(e, "blind_sight", f.blind_sight)?,
            keen: self.positive(e, "keen", f.keen)?,
            wounds_to_perish: self.small(e, "wounds_to_perish", f.wounds_to_perish, 1, 16)? as u8,
        };

        // Assets and decks.
        if raw.asset.is_empty() || raw.asset.len() > MAX_ASSETS {
            return Err(self.err(
                &FieldPath::root().key("asset"),
                "",
                format!("need 1 to {MAX_ASSETS} asset cards"),
            ));
        }
        let mut assets: Vec<AssetCard> = Vec::new();
        for (i, a) in raw.asset.iter().enumerate() {
            let entry = FieldPath::root().key("asset").index(i);
            if assets.iter().any(|x| x.name.eq_ignore_ascii_case(&a.name)) {
                return Err(self.err(&entry, "name", "duplicate asset name"));
            }
            let Some(&(_, effect)) = AssetEffect::NAMES.iter().find(|(n, _)| *n == a.effect) else {
                let valid: Vec<&str> = AssetEffect::NAMES.iter().map(|(n, _)| *n).collect();
                return Err(self.err(
                    &entry,
                    "effect",
                    format!(
                        "unknown asset effect '{}' (valid: {})",
                        a.effect,
                        valid.join(", ")
                    ),
                ));
            };
            assets.push(AssetCard {
                name: a.name.clone(),
                effect,
            });
        }
        let mut decks = Vec::new();
        for (di, d) in raw.deck.iter().enumerate() {
            let entry = FieldPath::root().key("deck").index(di);
            if decks
                .iter()
                .any(|x: &AssetDeck| x.name.eq_ignore_ascii_case(&d.name))
            {
                return Err(self.err(&entry, "name", "duplicate deck name"));
            }
            let mut cards = Vec::new();
            // Cards in content order of the assets, whatever order the table lists them in.
            let mut counts = vec![0i64; assets.len()];
            for (name, &n) in &d.cards {
                let Some(i) = assets
                    .iter()
                    .position(|a| a.name.eq_ignore_ascii_case(name))
                else {
                    let valid: Vec<&str> = assets.iter().map(|a| a.name.as_str()).collect();
                    return Err(self.err(
                        &entry,
                        &format!("cards.{name}"),
                        format!("unknown asset '{name}' (valid: {})", valid.join(", ")),
                    ));
                };
                counts[i] = self.small(&entry, &format!("cards.{name}"), n, 0, 20)?;
            }
            for (i, &n) in counts.iter().enumerate() {
                cards.extend(std::iter::repeat_n(i as u8, n as usize));
            }
            let Ok(cards) = <[u8; ASSET_DECK]>::try_from(cards.as_slice()) else {
                return Err(self.err(
                    &entry,
                    "cards",
                    format!(
                        "holds {} cards; a deck holds exactly {ASSET_DECK}",
                        cards.len()
                    ),
                ));
            };
            decks.push(AssetDeck {
                name: d.name.clone(),
                cards,
            });
        }
        if decks.is_empty() {
            return Err(self.err(
                &FieldPath::root().key("deck"),
                "",
                "need at least one asset deck",
            ));
        }

        // Wounds.
        let mut wounds = Vec::new();
        for (wi, w) in raw.wound.iter().enumerate() {
            let entry = FieldPath::root().key("wound").index(wi);
            let effect = match w.effect.as_str() {
                "none" => WoundEffect::None,
                "strength" => WoundEffect::Ability(0),
                "aim" => WoundEffect::Ability(1),
                "wits" => WoundEffect::Ability(2),
                "dodge" => WoundEffect::Ability(3),
                "move" => WoundEffect::Move,
                other => {
                    return Err(self.err(
                        &entry,
                        "effect",
                        format!(
                            "unknown wound effect '{other}' (valid: none, strength, aim, wits, dodge, move)"
                        ),
                    ));
                }
            };
            let n = self.small(&entry, "count", w.count, 1, MAX_WOUND_CARDS as i64)?;
            for _ in 0..n {
                wounds.push(WoundCard {
                    name: w.name.clone(),
                    effect,
                });
            }
        }
        if wounds.len() > MAX_WOUND_CARDS || wounds.len() < fate.wounds_to_perish as usize {
            return Err(self.err(
                &FieldPath::root().key("wound"),
                "",
                format!(
                    "the wound deck holds {} cards; it must hold {}..={MAX_WOUND_CARDS} (at least fate.wounds_to_perish)",
                    wounds.len(),
                    fate.wounds_to_perish
                ),
            ));
        }

        // Fatelings.
        let mut fatelings: Vec<FatelingKind> = Vec::new();
        for (fi, r) in raw.fateling.iter().enumerate() {
            let entry = FieldPath::root().key("fateling").index(fi);
            if fatelings
                .iter()
                .any(|x| x.name.eq_ignore_ascii_case(&r.name))
            {
                return Err(self.err(&entry, "name", "duplicate fateling name"));
            }
            let mut bits = 0u16;
            for (i, a) in r.aspects.iter().enumerate() {
                let Some(&(_, b)) = aspect::NAMES.iter().find(|(n, _)| *n == a) else {
                    let valid: Vec<&str> = aspect::NAMES.iter().map(|(n, _)| *n).collect();
                    return Err(self.err(
                        &entry,
                        &format!("aspects[{}]", i + 1),
                        format!("unknown aspect '{a}' (valid: {})", valid.join(", ")),
                    ));
                };
                bits |= b;
            }
            let ranged = match (&r.ranged, bits & aspect::RANGED != 0) {
                (Some(x), true) => Some(Ranged {
                    range: self.positive(&entry, "ranged.range", x.range)?,
                    shoot: self.small(&entry, "ranged.shoot", x.shoot, -5, 15)? as i8,
                }),
                (None, false) => None,
                (Some(_), false) => {
                    return Err(self.err(&entry, "ranged", "given without the 'ranged' aspect"));
                }
                (None, true) => {
                    return Err(self.err(
                        &entry,
                        "ranged",
                        "the 'ranged' aspect needs ranged = { range = X, shoot = S }",
                    ));
                }
            };
            fatelings.push(FatelingKind {
                name: r.name.clone(),
                move_in: self.positive(&entry, "move", r.move_in)?,
                attack: self.small(&entry, "attack", r.attack, -5, 15)? as i8,
                defense: self.small(&entry, "defense", r.defense, -5, 15)? as i8,
                wounds: self.small(&entry, "wounds", r.wounds, 1, 20)? as u8,
                radius: self.positive(&entry, "base_radius", r.base_radius)?,
                aspects: bits,
                ranged,
            });
        }

        let mut encounters: Vec<Encounter> = Vec::new();
        for (i, r) in raw.encounter.iter().enumerate() {
            let enc = self.encounter(i, r, &scoundrel, &fatelings)?;
            if encounters
                .iter()
                .any(|x| x.name.eq_ignore_ascii_case(&enc.name))
            {
                return Err(self.err(
                    &FieldPath::root().key("encounter").index(i),
                    "name",
                    "duplicate encounter name",
                ));
            }
            encounters.push(enc);
        }
        if encounters.is_empty() {
            return Err(self.err(
                &FieldPath::root().key("encounter"),
                "",
                "need at least one encounter",
            ));
        }
        let mut wound_deck = [0u8; MAX_WOUND_CARDS];
        for (i, w) in wound_deck.iter_mut().enumerate().take(wounds.len()) {
            let first = (wounds.iter()).position(|x| x.name.eq_ignore_ascii_case(&wounds[i].name));
            *w = first.unwrap_or(i) as u8;
        }
        Ok(Content {
            source: self.doc.source().to_string(),
            scoundrel,
            fate,
            assets,
            decks,
            wounds,
            wound_deck,
            fatelings,
            encounters,
        })
    }

    fn encounter(
        &self,
        index: usize,
        r: &RawEncounter,
        sc: &ScoundrelRules,
        kinds: &[FatelingKind],
    ) -> R<Encounter> {
        let entry = FieldPath::root().key("encounter").index(index);
        let e = &entry;
        let table = (
            self.positive(e, "table[1]", r.table[0])?,
            self.positive(e, "table[2]", r.table[1])?,
        );
        let round_limit = self.small(e, "round_limit", r.round_limit, 1, MAX_ROUNDS as i64)? as u8;
        let Some(&(_, limit_cause)) = LIMIT_CAUSES.iter().find(|(n, _)| *n == r.limit_cause) else {
            return Err(self.err(
                e,
                "limit_cause",
                format!(
                    "unknown cause '{}' (valid: time_ran_out, ritual_completed)",
                    r.limit_cause
                ),
            ));
        };
        if r.obstacles.len() > MAX_OBSTACLES {
            return Err(self.err(e, "obstacles", format!("at most {MAX_OBSTACLES} obstacles")));
        }
        let mut obstacles = Vec::new();
        for (i, o) in r.obstacles.iter().enumerate() {
            let field = format!("obstacles[{}]", i + 1);
            let shape = match (o.rect, o.circle, &o.polygon) {
                (Some([x0, y0, x1, y1]), None, None) => {
                    if !(x0 < x1 && y0 < y1) {
                        return Err(self.err(
                            e,
                            &format!("{field}.rect"),
                            "needs x0 < x1 and y0 < y1",
                        ));
                    }
                    if x0 < 0.0 || y0 < 0.0 || x1 > table.0 as f64 || y1 > table.1 as f64 {
                        return Err(self.err(
                            e,
                            &format!("{field}.rect"),
                            format!(
                                "[{x0}, {y0}, {x1}, {y1}] is outside the {}x{} inch table",
                                table.0, table.1
                            ),
                        ));
                    }
                    Shape::Rect {
                        x0: x0 as f32,
                        y0: y0 as f32,
                        x1: x1 as f32,
                        y1: y1 as f32,
                    }
                }
                (None, Some([x, y, rad]), None) => {
                    let rad = self.positive(e, &format!("{field}.circle[3]"), rad)?;
                    if x - (rad as f64) < 0.0
                        || y - (rad as f64) < 0.0
                        || x + rad as f64 > table.0 as f64
                        || y + rad as f64 > table.1 as f64
                    {
                        return Err(self.err(
                            e,
                            &format!("{field}.circle"),
                            format!(
                                "[{x}, {y}, {rad}] is outside the {}x{} inch table",
                                table.0, table.1
                            ),
                        ));
                    }
                    Shape::Circle {
                        c: Pt::new(x as f32, y as f32),
                        r: rad,
                    }
                }
                (None, None, Some(corners)) => {
                    let field = format!("{field}.polygon");
                    for (k, &[x, y]) in corners.iter().enumerate() {
                        if !(x.is_finite() && y.is_finite())
                            || x < 0.0
                            || y < 0.0
                            || x > table.0 as f64
                            || y > table.1 as f64
                        {
                            return Err(self.err(
                                e,
                                &field,
                                format!(
                                    "corner {} [{x}, {y}] is outside the {}x{} inch table",
                                    k + 1,
                                    table.0,
                                    table.1
                                ),
                            ));
                        }
                    }
                    let pts: Vec<Pt> = corners
                        .iter()
                        .map(|&[x, y]| Pt::new(x as f32, y as f32))
                        .collect();
                    Shape::convex(&pts).ok_or_else(|| {
                        self.err(
                            e,
                            &field,
                            format!(
                                "needs 3 to {MAX_VERTICES} corners [x, y] in order around a \
                                 strictly convex polygon (got {})",
                                corners.len()
                            ),
                        )
                    })?
                }
                _ => {
                    return Err(self.err(
                        e,
                        &field,
                        "give exactly one of rect = [x0, y0, x1, y1], circle = [x, y, r] or \
                         polygon = [[x, y], ...] (a convex polygon's corners)",
                    ));
                }
            };
            obstacles.push(shape);
        }
        // Movement graphs per radius.
        let mut navs: Vec<Nav> = Vec::new();
        let mut nav_for = |radius: f32| -> u8 {
            if let Some(i) = navs.iter().position(|n| n.radius == radius) {
                return i as u8;
            }
            navs.push(Nav::build(table, &obstacles, radius));
            (navs.len() - 1) as u8
        };
        let scoundrel_nav = nav_for(sc.radius);
        let point = |field: &str, p: [f64; 2], radius: f32| -> R<Pt> {
            let q = Pos::from_pt(Pt::new(p[0] as f32, p[1] as f32));
            let pt = q.pt();
            // The point as written, not only as rounded to the table's hundredths (which clamps
            // a negative coordinate to 0: [-50, 12] read as [0, 12]).
            let half = 0.5 / f64::from(QUANTUM);
            let within = |v: f64, size: f32| {
                v >= f64::from(radius) - half && v < f64::from(size - radius) + half
            };
            let ok = p[0].is_finite()
                && p[1].is_finite()
                && within(p[0], table.0)
                && within(p[1], table.1)
                && pt.x >= radius
                && pt.y >= radius
                && pt.x <= table.0 - radius
                && pt.y <= table.1 - radius;
            if !ok {
                return Err(self.err(
                    e,
                    field,
                    format!(
                        "point [{}, {}] puts a base of radius {radius} off the {}x{} inch table",
                        p[0], p[1], table.0, table.1
                    ),
                ));
            }
            if let Some(k) = obstacle_under(pt, radius, &obstacles, EPS) {
                return Err(self.err(
                    e,
                    field,
                    format!(
                        "point {q} is inside obstacle {} (for a base of radius {radius})",
                        k + 1
                    ),
                ));
            }
            Ok(pt)
        };
        let start = point("scoundrel", r.scoundrel, sc.radius)?;
        if r.objectives.len() > MAX_OBJECTIVES {
            return Err(self.err(
                e,
                "objectives",
                format!("at most {MAX_OBJECTIVES} objectives"),
            ));
        }
        let mut objectives: Vec<Objective> = Vec::new();
        for (i, o) in r.objectives.iter().enumerate() {
            let field = format!("objectives[{}]", i + 1);
            let radius = self.positive(e, &format!("{field}.radius"), o.radius)?;
            let at = point(&format!("{field}.at"), o.at, 0.0)?;
            if objectives
                .iter()
                .any(|x| x.name.eq_ignore_ascii_case(&o.name))
            {
                return Err(self.err(e, &format!("{field}.name"), "duplicate objective name"));
            }
            objectives.push(Objective {
                name: o.name.clone(),
                at,
                radius,
            });
        }
        if r.fateling.is_empty() || r.fateling.len() > MAX_FATELINGS {
            return Err(self.err(
                e,
                "fateling",
                format!("need 1 to {MAX_FATELINGS} fatelings"),
            ));
        }
        let mut fatelings: Vec<Placement> = Vec::new();
        let mut bases: Vec<(Pt, f32, bool)> = vec![(start, sc.radius, false)];
        for (i, p) in r.fateling.iter().enumerate() {
            let field = format!("fateling[{}]", i + 1);
            let Some(kind) = kinds
                .iter()
                .position(|k| k.name.eq_ignore_ascii_case(&p.kind))
            else {
                let valid: Vec<&str> = kinds.iter().map(|k| k.name.as_str()).collect();
                return Err(self.err(
                    e,
                    &format!("{field}.kind"),
                    format!(
                        "unknown fateling '{}' (valid: {})",
                        p.kind,
                        valid.join(", ")
                    ),
                ));
            };
            let k = &kinds[kind];
            let name = p.name.clone().unwrap_or_else(|| k.name.clone());
            if fatelings.iter().any(|x| x.name.eq_ignore_ascii_case(&name)) {
                return Err(self.err(
                    e,
                    &format!("{field}.name"),
                    format!("duplicate fateling name '{name}'"),
                ));
            }
            let at = point(&format!("{field}.at"), p.at, k.radius)?;
            for &(q, qr, reserve) in &bases {
                if !(reserve || p.reserve) && bases_overlap(q, qr, at, k.radius, EPS) {
                    return Err(self.err(
                        e,
                        &format!("{field}.at"),
                        "its base overlaps another model's",
                    ));
                }
            }
            bases.push((at, k.radius, p.reserve));
            let mut patrol = Vec::new();
            for (j, &q) in p.patrol.iter().enumerate() {
                patrol.push(point(&format!("{field}.patrol[{}]", j + 1), q, k.radius)?);
            }
            if patrol.len() > 8 {
                return Err(self.err(e, &format!("{field}.patrol"), "at most 8 patrol points"));
            }
            let nav = nav_for(k.radius);
            fatelings.push(Placement {
                name,
                kind: kind as u8,
                start: Pos::from_pt(at),
                patrol,
                reserve: p.reserve,
                nav,
            });
        }
        let by_name = |field: &str, name: &str| -> R<u8> {
            fatelings
                .iter()
                .position(|f| f.name.eq_ignore_ascii_case(name))
                .map(|i| i as u8)
                .ok_or_else(|| {
                    let valid: Vec<&str> = fatelings.iter().map(|f| f.name.as_str()).collect();
                    self.err(
                        e,
                        field,
                        format!("unknown fateling '{name}' (valid: {})", valid.join(", ")),
                    )
                })
        };
        let win = match r.win.split_once(':') {
            None if r.win == "slay_all" => Win::SlayAll,
            None if r.win == "survive" => Win::Survive,
            Some(("slay", n)) => Win::Slay(by_name("win", n.trim())?),
            Some(("reach", n)) => match objectives
                .iter()
                .position(|o| o.name.eq_ignore_ascii_case(n.trim()))
            {
                Some(i) => Win::Reach(i as u8),
                None => {
                    return Err(self.err(e, "win", format!("unknown objective '{}'", n.trim())));
                }
            },
            _ => {
                return Err(self.err(
                    e,
                    "win",
                    format!(
                        "unknown win condition '{}' (valid: slay_all, survive, slay:NAME, reach:OBJECTIVE)",
                        r.win
                    ),
                ));
            }
        };
        let mut events = Vec::new();
        for (i, ev) in r.event.iter().enumerate() {
            let field = format!("event[{}]", i + 1);
            let caster = by_name(&format!("{field}.caster"), &ev.caster)?;
            let every =
                self.small(e, &format!("{field}.every"), ev.every, 1, MAX_ROUNDS as i64)? as u8;
            let need = |v: Option<i64>, key: &str| -> R<i64> {
                v.ok_or_else(|| {
                    self.err(
                        e,
                        &format!("{field}.{key}"),
                        format!("effect '{}' needs {key}", ev.effect),
                    )
                })
            };
            let kind = match ev.effect.as_str() {
                "curse" => EventKind::Curse(self.small(
                    e,
                    &format!("{field}.target"),
                    need(ev.target, "target")?,
                    -5,
                    15,
                )? as i8),
                "heal" => EventKind::Heal(self.small(
                    e,
                    &format!("{field}.amount"),
                    need(ev.amount, "amount")?,
                    1,
                    20,
                )? as u8),
                "summon" => {
                    let Some(n) = &ev.summon else {
                        return Err(self.err(
                            e,
                            &format!("{field}.summon"),
                            "effect 'summon' needs summon",
                        ));
                    };
                    let who = by_name(&format!("{field}.summon"), n)?;
                    if !fatelings[who as usize].reserve {
                        return Err(self.err(
                            e,
                            &format!("{field}.summon"),
                            format!("'{n}' is not a reserve fateling"),
                        ));
                    }
                    EventKind::Summon(who)
                }
                other => {
                    return Err(self.err(
                        e,
                        &format!("{field}.effect"),
                        format!("unknown event effect '{other}' (valid: curse, heal, summon)"),
                    ));
                }
            };
            events.push(Event {
                caster,
                every,
                kind,
            });
        }
        Ok(Encounter {
            name: r.name.clone(),
            title: r.title.clone(),
            table,
            obstacle_boxes: obstacles.iter().map(|o| o.bbox()).collect(),
            obstacles,
            start: Pos::from_pt(start),
            fatelings,
            objectives,
            win,
            round_limit,
            limit_cause,
            events,
            navs,
            scoundrel_nav,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::super::content::{BUILTIN_TOML, builtin};
    use super::*;

    #[test]
    fn the_builtin_content_parses() {
        let c = builtin();
        assert_eq!(c.encounters.len(), 6);
        assert_eq!(c.decks[0].cards.len(), ASSET_DECK);
        assert_eq!(c.wounds.len(), 15);
        assert_eq!(c.scoundrel.scores, [3, 2, 1, 0]);
    }

    fn err(find: &str, replace: &str) -> String {
        assert!(BUILTIN_TOML.contains(find), "{find}");
        parse(&BUILTIN_TOML.replacen(find, replace, 1), "gods.toml")
            .unwrap_err()
            .0
    }

    #[test]
    fn an_obstacle_outside_the_table_is_refused_naming_the_entry_and_field() {
        let e = err(
            "{ circle = [7.0, 11.0, 1.5] }",
            "{ circle = [23.5, 11.0, 1.5] }",
        );
        assert_eq!(
            e,
            "gods.toml:218:25: encounter 'lone_brute': field 'obstacles[1].circle': [23.5, 11, 1.5] is outside the 24x24 inch table"
        );
        let e = err(
            "{ rect = [14.0, 10.0, 18.0, 11.0] }",
            "{ rect = [14.0, 10.0, 25.0, 11.0] }",
        );
        assert!(
            e.contains(": encounter 'lone_brute': field 'obstacles[2].rect': "),
            "{e}"
        );
    }

    #[test]
    fn a_convex_polygon_obstacle_reads_and_a_bad_one_is_refused() {
        let text = BUILTIN_TOML.replacen(
            "{ rect = [14.0, 10.0, 18.0, 11.0] }",
            "{ polygon = [[14.0, 10.0], [18.0, 10.0], [16.0, 12.0]] }",
            1,
        );
        let c = parse(&text, "gods.toml").expect("a triangle obstacle");
        let lone = &c.encounters[0];
        assert!(
            matches!(lone.obstacles[1], Shape::Poly { n: 3, .. }),
            "{:?}",
            lone.obstacles[1]
        );
        // The triangle's corners are movement nodes of the grown triangle.
        let nav = &lone.navs[lone.scoundrel_nav as usize];
        assert!(
            nav.nodes
                .iter()
                .any(|p| p.x > 15.9 && p.x < 16.1 && p.y > 12.0)
        );
        let e = err(
            "{ rect = [14.0, 10.0, 18.0, 11.0] }",
            "{ polygon = [[14.0, 10.0], [18.0, 10.0], [16.0, 10.5], [16.0, 12.0]] }",
        );
        assert!(
            e.ends_with(
                ": encounter 'lone_brute': field 'obstacles[2].polygon': needs 3 to 8 corners [x, y] in order around a strictly convex polygon (got 4)"
            ),
            "{e}"
        );
        let e = err(
            "{ rect = [14.0, 10.0, 18.0, 11.0] }",
            "{ polygon = [[14.0, 10.0], [24.5, 10.0], [16.0, 12.0]] }",
        );
        assert!(
            e.ends_with(
                ": encounter 'lone_brute': field 'obstacles[2].polygon': corner 2 [24.5, 10] is outside the 24x24 inch table"
            ),
            "{e}"
        );
    }

    #[test]
    fn a_patrol_point_inside_an_obstacle_is_refused() {
        let e = err(
            "patrol = [[5.0, 20.0], [19.0, 20.0]]",
            "patrol = [[5.0, 20.0], [16.0, 10.5]]",
        );
        assert_eq!(
            e,
            "gods.toml:223:24: encounter 'lone_brute': field 'fateling[1].patrol[2]': point (16.00,10.50) is inside obstacle 2 (for a base of radius 1)"
        );
    }

    #[test]
    fn an_unknown_asset_in_a_deck_is_refused() {
        let e = err("\"Rain Fire\" = 8", "\"Rain of Fire\" = 8");
        assert!(
            e.starts_with("gods.toml:77:28: deck 'marksman': field 'cards.Rain of Fire': unknown asset 'Rain of Fire'"),
            "{e}"
        );
    }

    #[test]
    fn a_deck_that_is_not_twenty_cards_is_refused() {
        let e = err("\"Rain Fire\" = 8", "\"Rain Fire\" = 7");
        assert_eq!(
            e,
            "gods.toml:77:9: deck 'marksman': field 'cards': holds 19 cards; a deck holds exactly 20"
        );
    }

    #[test]
    fn syntax_and_unknown_keys_give_line_and_column() {
        let e = err("reach = 1.0\ncombat", "reech = 1.0\ncombat");
        assert!(e.starts_with("gods.toml:"), "{e}");
        assert!(e.contains("reech"), "{e}");
        assert_eq!(e.lines().count(), 1);
    }

    #[test]
    fn unknown_aspects_kinds_and_win_conditions_are_refused() {
        let e = err(
            "aspects = [\"large_target\", \"relentless\"]",
            "aspects = [\"huge\"]",
        );
        assert!(
            e.starts_with(
                "gods.toml:124:12: fateling 'Brute': field 'aspects[1]': unknown aspect 'huge'"
            ),
            "{e}"
        );
        let e = err("kind = \"Brute\"", "kind = \"Troll\"");
        assert!(
            e.contains(
                ": encounter 'lone_brute': field 'fateling[1].kind': unknown fateling 'Troll'"
            ),
            "{e}"
        );
        let e = err("win = \"slay:Witch\"", "win = \"slay:Warlock\"");
        assert!(
            e.contains(": encounter 'witch_coven': field 'win': unknown fateling 'Warlock'"),
            "{e}"
        );
    }
}
