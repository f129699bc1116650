//! The Gods' text position format: a whole game state in `key value` lines, for tests, bug
//! reports and `sololab play --position`.
//!
//! ```text
//! gods-position 1
//! content builtin
//! encounter lone_brute
//! abilities strength=3,aim=2,wits=1,dodge=0
//! rules natural_ten_one=0 shoot_in_combat=0
//! clock round=1 phase=scoundrel actions_left=2 assets_used=0 noise=0 result=0 decisions=0
//! pending shoot=0 target=1 number=0 dice=0,0
//! scoundrel at=(12.00,2.00)
//! fateling 1 state=active at=(12.00,20.00) wounds=0 activated=0 patrol=1
//! asset_deck Rain_Fire,Scavenge,Quick_Step
//! hand Rain_Fire=1,Second_Wind=2
//! wound_deck Bruise,Torn_Muscle,Concussion,...
//! wounds drawn=2 face_up=2
//! tally slain=0 damage=0 attacks=0 shots=0 prepares=0 assets=0
//! ```
//! Coordinates are inches with two decimals (stored as hundredths, so the text reads back to the
//! same state). Names use `_` for spaces; `-` means none. `fateling N` is the encounter's N-th
//! fateling (1-based; `state` reserve, active or slain; `patrol` the 1-based index of its next
//! patrol point). `asset_deck` lists the deck bottom first (the last is drawn next);
//! `wound_deck` lists every wound card in draw order, the first `drawn` already drawn;
//! `face_up` lists the 1-based draw slots lying face up. `pending` is the test awaiting a
//! re-roll choice (`target` 1-based) or, in phase `keep`, the two drawn cards as asset indices
//! (0-based, in content order). Lines may come in any order; `#` starts a comment; missing lines keep the
//! encounter's start (models at their starting points, empty decks and hand).

use std::collections::BTreeMap;

use super::content::{self, ABILITIES, Content, MAX_FATELINGS};
use super::geometry::{Pos, bases_overlap, obstacle_under};
use super::state::{FState, Gods, Phase};
use crate::game::PositionError;
use crate::position_text;

/// How far (inches) a base in a position may reach into an obstacle or another base: the lab's
/// own moves end up to about a hundredth inside one (a route's corner nodes, a stop at base
/// contact, the rounding to hundredths; 0.011 inch at most over 2,800 random games of every
/// encounter), so five hundredths keeps every state the game reaches and refuses a base
/// standing on another or in an obstacle.
pub const BASE_SLACK: f32 = 0.05;

/// The most actions left (and assets used) a position's `clock` line may give the Scoundrel
/// phase it is in.
pub const MAX_ACTIONS_LEFT: u8 = 25;

fn enc(name: &str) -> String {
    name.replace(' ', "_")
}

fn phase_name(p: Phase) -> &'static str {
    match p {
        Phase::Scoundrel => "scoundrel",
        Phase::Reroll => "reroll",
        Phase::Keep => "keep",
        Phase::Return => "return",
        Phase::Over => "over",
    }
}

/// Writes the position text of `g` (reads back with [`parse`] to an equal state).
pub fn write(g: &Gods) -> String {
    let c = g.content;
    let e = g.enc();
    let mut s = String::from("gods-position 1\n");
    s.push_str(&format!("content {}\n", c.source));
    s.push_str(&format!("encounter {}\n", e.name));
    let ab: Vec<String> = (0..4)
        .map(|i| format!("{}={}", ABILITIES[i], g.abilities[i]))
        .collect();
    s.push_str(&format!("abilities {}\n", ab.join(",")));
    s.push_str(&format!(
        "rules natural_ten_one={} shoot_in_combat={}\n",
        g.natural as u8, g.shoot_in_combat as u8
    ));
    s.push_str(&format!(
        "clock round={} phase={} actions_left={} assets_used={} noise={} result={} decisions={}\n",
        g.round,
        phase_name(g.phase),
        g.actions_left,
        g.assets_used,
        g.noise as u8,
        g.result,
        g.decisions
    ));
    let p = g.pending;
    s.push_str(&format!(
        "pending shoot={} target={} number={} dice={},{}\n",
        p.shoot as u8,
        p.target as u32 + 1,
        p.number,
        p.dice[0],
        p.dice[1]
    ));
    s.push_str(&format!("scoundrel at={}\n", g.at));
    for (i, f) in g.fatelings.iter().enumerate().take(g.n_fatelings()) {
        s.push_str(&format!(
            "fateling {} state={} at={} wounds={} activated={} patrol={}\n",
            i + 1,
            match f.state {
                FState::Reserve => "reserve",
                FState::Active => "active",
                FState::Slain => "slain",
            },
            f.at,
            f.wounds,
            f.activated as u8,
            f.patrol as u32 + 1
        ));
    }
    let list = |v: Vec<String>| {
        if v.is_empty() {
            "-".to_string()
        } else {
            v.join(",")
        }
    };
    s.push_str(&format!(
        "asset_deck {}\n",
        list(
            g.deck[..g.deck_len as usize]
                .iter()
                .map(|&a| enc(&c.assets[a as usize].name))
                .collect()
        )
    ));
    s.push_str(&format!(
        "hand {}\n",
        list(
            g.hand
                .iter()
                .enumerate()
                .filter(|(_, n)| **n > 0)
                .map(|(i, n)| format!("{}={n}", enc(&c.assets[i].name)))
                .collect()
        )
    ));
    s.push_str(&format!(
        "wound_deck {}\n",
        list(
            g.wound_deck[..c.wounds.len()]
                .iter()
                .map(|&w| enc(&c.wounds[w as usize].name))
                .collect()
        )
    ));
    s.push_str(&format!(
        "wounds drawn={} face_up={}\n",
        g.wounds_drawn,
        list(
            (0..16)
                .filter(|i| g.face_up & (1 << i) != 0)
                .map(|i| (i + 1).to_string())
                .collect()
        )
    ));
    let t = g.tally;
    s.push_str(&format!(
        "tally slain={} damage={} attacks={} shots={} prepares={} assets={}\n",
        t.slain, t.damage, t.attacks, t.shots, t.prepares, t.assets
    ));
    s
}

fn err(line: usize, message: impl Into<String>) -> PositionError {
    PositionError {
        line,
        message: message.into(),
    }
}

/// `key=value` pairs of a line, each key at most once.
fn pairs(line: usize, rest: &str) -> Result<BTreeMap<&str, &str>, PositionError> {
    let mut m = BTreeMap::new();
    for part in rest.split_whitespace() {
        let (k, v) = part
            .split_once('=')
            .ok_or_else(|| err(line, format!("'{part}' is not key=value")))?;
        if m.insert(k, v).is_some() {
            return Err(err(line, format!("'{k}' is given twice")));
        }
    }
    Ok(m)
}

struct Fields<'a> {
    line: usize,
    what: &'static str,
    m: BTreeMap<&'a str, &'a str>,
}

impl<'a> Fields<'a> {
    fn take(&mut self, k: &str) -> Result<&'a str, PositionError> {
        self.m
            .remove(k)
            .ok_or_else(|| err(self.line, format!("{} needs {k}=", self.what)))
    }
    fn num<T: std::str::FromStr>(&mut self, k: &str) -> Result<T, PositionError> {
        let v = self.take(k)?;
        v.parse()
            .map_err(|_| err(self.line, format!("{k}={v} is not a valid number")))
    }
    fn flag(&mut self, k: &str) -> Result<bool, PositionError> {
        match self.take(k)? {
            "0" => Ok(false),
            "1" => Ok(true),
            v => Err(err(self.line, format!("{k}={v} must be 0 or 1"))),
        }
    }
    fn done(self) -> Result<(), PositionError> {
        match self.m.keys().next() {
            Some(k) => Err(err(
                self.line,
                format!("unknown key '{k}' in {}", self.what),
            )),
            None => Ok(()),
        }
    }
}

/// Reads a position written by [`write()`] (or by hand).
///
/// # Errors
/// A [`PositionError`] at the line that is wrong: a missing or wrong header, an unknown key or
/// line, an unknown content file, encounter, asset or wound name, a number out of range, a
/// coordinate with more than two decimals or off the table, a fateling index past the
/// encounter's, a wound deck that is not the content's cards, face-up slots not yet drawn, a
/// pending target or card out of range, a phase that disagrees with the result, or a base on
/// the table (the Scoundrel's, an active fateling's) that overlaps an obstacle or another base.
pub fn parse(text: &str) -> Result<Gods, PositionError> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let lines: Vec<(usize, &str)> = text
        .lines()
        .enumerate()
        .map(|(i, l)| (i + 1, l.split('#').next().unwrap_or("").trim()))
        .filter(|(_, l)| !l.is_empty())
        .collect();
    position_text::header(text, "gods")?;
    let mut content: &'static Content = content::builtin();
    let mut encounter = None;
    for &(n, l) in &lines[1..] {
        if let Some(src) = l.strip_prefix("content ") {
            let src = src.trim();
            if src != "builtin" {
                content = crate::content::load_cached(
                    std::path::Path::new(src),
                    super::content_file::parse,
                )
                .map_err(|e| err(n, e.0))?;
            }
        }
    }
    for &(n, l) in &lines[1..] {
        if let Some(name) = l.strip_prefix("encounter ") {
            let name = name.trim();
            encounter = Some(
                content
                    .encounter_index(name)
                    .ok_or_else(|| err(n, format!("unknown encounter '{name}'")))?,
            );
        }
    }
    let Some(encounter) = encounter else {
        return Err(err(0, "missing line 'encounter NAME'"));
    };
    let mut g = Gods::blank(content, encounter);
    let nf = g.n_fatelings();
    let table = g.enc().table;
    let on_table = |n: usize, p: Pos, r: f32| -> Result<Pos, PositionError> {
        let q = p.pt();
        if q.x < r - 0.01 || q.y < r - 0.01 || q.x > table.0 - r + 0.01 || q.y > table.1 - r + 0.01
        {
            return Err(err(n, format!("{p} puts the base off the table")));
        }
        Ok(p)
    };
    let pos = |n: usize, v: &str| {
        Pos::parse(v).ok_or_else(|| {
            err(
                n,
                format!("'{v}' is not (x,y) in inches with at most two decimals"),
            )
        })
    };
    let asset = |n: usize, name: &str| {
        content
            .asset_index(&name.replace('_', " "))
            .ok_or_else(|| err(n, format!("unknown asset '{name}'")))
    };
    let mut seen = std::collections::BTreeSet::new();
    let mut base_lines = [0usize; MAX_FATELINGS + 1];
    for &(n, l) in &lines[1..] {
        let (key, rest) = l.split_once(' ').unwrap_or((l, ""));
        let rest = rest.trim();
        let unique = if key == "fateling" {
            format!("fateling {}", rest.split_whitespace().next().unwrap_or(""))
        } else {
            key.to_string()
        };
        if !seen.insert(unique.clone()) {
            return Err(err(n, format!("line '{unique}' is given twice")));
        }
        match key {
            "content" | "encounter" => {}
            "abilities" => {
                let mut a = [0i8; 4];
                let mut got = [false; 4];
                for part in rest.split(',') {
                    let (k, v) = part
                        .split_once('=')
                        .ok_or_else(|| err(n, format!("'{part}' is not ability=score")))?;
                    let i = ABILITIES
                        .iter()
                        .position(|x| *x == k.trim())
                        .ok_or_else(|| err(n, format!("unknown ability '{k}'")))?;
                    a[i] = v
                        .trim()
                        .parse::<i8>()
                        .ok()
                        .filter(|s| (-9..=9).contains(s))
                        .ok_or_else(|| err(n, format!("{k}={v}: not a score in -9..=9")))?;
                    got[i] = true;
                }
                if got != [true; 4] {
                    return Err(err(n, "abilities must give strength, aim, wits and dodge"));
                }
                g.abilities = a;
            }
            "rules" => {
                let mut f = Fields {
                    line: n,
                    what: "rules",
                    m: pairs(n, rest)?,
                };
                g.natural = f.flag("natural_ten_one")?;
                g.shoot_in_combat = f.flag("shoot_in_combat")?;
                f.done()?;
            }
            "clock" => {
                let mut f = Fields {
                    line: n,
                    what: "clock",
                    m: pairs(n, rest)?,
                };
                g.round = f.num("round")?;
                if g.round > content::MAX_ROUNDS {
                    return Err(err(
                        n,
                        format!("round={} is past {}", g.round, content::MAX_ROUNDS),
                    ));
                }
                g.phase = match f.take("phase")? {
                    "scoundrel" => Phase::Scoundrel,
                    "reroll" => Phase::Reroll,
                    "keep" => Phase::Keep,
                    "return" => Phase::Return,
                    "over" => Phase::Over,
                    v => return Err(err(n, format!("unknown phase '{v}'"))),
                };
                g.actions_left = f.num("actions_left")?;
                g.assets_used = f.num("assets_used")?;
                g.noise = f.flag("noise")?;
                g.result = f.num("result")?;
                g.decisions = f.num("decisions")?;
                f.done()?;
                if g.actions_left > MAX_ACTIONS_LEFT || g.assets_used > MAX_ACTIONS_LEFT {
                    return Err(err(
                        n,
                        format!("actions_left and assets_used must be at most {MAX_ACTIONS_LEFT}"),
                    ));
                }
                if g.result as usize > 1 + super::LOSS_CAUSES.len() {
                    return Err(err(n, format!("result={} is not 0, 1 or 2..=4", g.result)));
                }
                position_text::over_with_result(n, g.phase == Phase::Over, g.result)?;
            }
            "pending" => {
                let mut f = Fields {
                    line: n,
                    what: "pending",
                    m: pairs(n, rest)?,
                };
                g.pending.shoot = f.flag("shoot")?;
                let t: u8 = f.num("target")?;
                if t == 0 || t as usize > MAX_FATELINGS {
                    return Err(err(n, format!("target={t} is not 1..={MAX_FATELINGS}")));
                }
                g.pending.target = t - 1;
                g.pending.number = f.num("number")?;
                let d = f.take("dice")?;
                let (a, b) = d
                    .split_once(',')
                    .ok_or_else(|| err(n, format!("dice={d} is not two numbers")))?;
                let die = |v: &str| {
                    v.parse::<u8>()
                        .ok()
                        .filter(|x| *x <= 10)
                        .ok_or_else(|| err(n, format!("dice value '{v}' is not 0..=10")))
                };
                g.pending.dice = [die(a)?, die(b)?];
                f.done()?;
            }
            "scoundrel" => {
                let mut f = Fields {
                    line: n,
                    what: "scoundrel",
                    m: pairs(n, rest)?,
                };
                let p = pos(n, f.take("at")?)?;
                g.at = on_table(n, p, content.scoundrel.radius)?;
                base_lines[0] = n;
                f.done()?;
            }
            "fateling" => {
                let (idx, rest) = rest.split_once(' ').unwrap_or((rest, ""));
                let i = idx
                    .parse::<usize>()
                    .ok()
                    .filter(|i| (1..=nf).contains(i))
                    .ok_or_else(|| err(n, format!("fateling '{idx}' is not 1..={nf}")))?
                    - 1;
                let mut f = Fields {
                    line: n,
                    what: "fateling",
                    m: pairs(n, rest)?,
                };
                base_lines[1 + i] = n;
                let fl = &mut g.fatelings[i];
                fl.state = match f.take("state")? {
                    "reserve" => FState::Reserve,
                    "active" => FState::Active,
                    "slain" => FState::Slain,
                    v => return Err(err(n, format!("unknown state '{v}'"))),
                };
                let p = pos(n, f.take("at")?)?;
                let kind = &content.fatelings
                    [content.encounters[encounter as usize].fatelings[i].kind as usize];
                fl.at = on_table(n, p, kind.radius)?;
                fl.wounds = f.num("wounds")?;
                if fl.wounds > 40 {
                    return Err(err(n, "wounds must be at most 40"));
                }
                fl.activated = f.flag("activated")?;
                let route = content.encounters[encounter as usize].fatelings[i]
                    .patrol
                    .len();
                let pi: usize = f.num("patrol")?;
                if pi == 0 || pi > route.max(1) {
                    return Err(err(n, format!("patrol={pi} is not 1..={}", route.max(1))));
                }
                fl.patrol = (pi - 1) as u8;
                f.done()?;
            }
            "asset_deck" => {
                g.deck_len = 0;
                if rest != "-" {
                    for name in rest.split(',') {
                        if g.deck_len as usize >= content::ASSET_DECK {
                            return Err(err(n, "more than 20 cards"));
                        }
                        g.deck[g.deck_len as usize] = asset(n, name.trim())?;
                        g.deck_len += 1;
                    }
                }
            }
            "hand" => {
                g.hand = [0; content::MAX_ASSETS];
                if rest != "-" {
                    for part in rest.split(',') {
                        let (k, v) = part
                            .split_once('=')
                            .ok_or_else(|| err(n, format!("'{part}' is not CARD=COUNT")))?;
                        let i = asset(n, k.trim())? as usize;
                        g.hand[i] = v
                            .trim()
                            .parse::<u8>()
                            .ok()
                            .filter(|c| *c as usize <= content::ASSET_DECK * 2)
                            .ok_or_else(|| err(n, format!("'{v}' is not a card count")))?;
                    }
                }
            }
            "wound_deck" => {
                let names: Vec<&str> = if rest == "-" {
                    Vec::new()
                } else {
                    rest.split(',').collect()
                };
                if names.len() != content.wounds.len() {
                    return Err(err(
                        n,
                        format!(
                            "the wound deck holds {} cards, not {}",
                            content.wounds.len(),
                            names.len()
                        ),
                    ));
                }
                let mut counts = vec![0i32; content.wounds.len()];
                for w in &content.wounds {
                    counts[content.wound_index(&w.name).unwrap_or(0) as usize] += 1;
                }
                for (k, name) in names.iter().enumerate() {
                    let i = content
                        .wound_index(&name.trim().replace('_', " "))
                        .ok_or_else(|| err(n, format!("unknown wound card '{name}'")))?;
                    counts[i as usize] -= 1;
                    g.wound_deck[k] = i;
                }
                if counts.iter().any(|&c| c != 0) {
                    return Err(err(
                        n,
                        "the wound deck must hold exactly the content's wound cards",
                    ));
                }
            }
            "wounds" => {
                let mut f = Fields {
                    line: n,
                    what: "wounds",
                    m: pairs(n, rest)?,
                };
                g.wounds_drawn = f.num("drawn")?;
                if g.wounds_drawn as usize > content.wounds.len() {
                    return Err(err(
                        n,
                        format!(
                            "drawn={} is more than the deck's {} cards",
                            g.wounds_drawn,
                            content.wounds.len()
                        ),
                    ));
                }
                let up = f.take("face_up")?;
                g.face_up = 0;
                if up != "-" {
                    for v in up.split(',') {
                        let i = v
                            .parse::<u8>()
                            .ok()
                            .filter(|i| *i >= 1 && *i <= g.wounds_drawn)
                            .ok_or_else(|| {
                                err(
                                    n,
                                    format!(
                                        "face_up slot '{v}' is not a drawn card (1..={})",
                                        g.wounds_drawn
                                    ),
                                )
                            })?;
                        g.face_up |= 1 << (i - 1);
                    }
                }
                f.done()?;
            }
            "tally" => {
                let mut f = Fields {
                    line: n,
                    what: "tally",
                    m: pairs(n, rest)?,
                };
                g.tally.slain = f.num("slain")?;
                g.tally.damage = f.num("damage")?;
                g.tally.attacks = f.num("attacks")?;
                g.tally.shots = f.num("shots")?;
                g.tally.prepares = f.num("prepares")?;
                g.tally.assets = f.num("assets")?;
                f.done()?;
            }
            other => return Err(err(n, format!("unknown line '{other}'"))),
        }
    }
    // Cross-line checks.
    if g.pending.target as usize >= nf.max(1) && g.phase == Phase::Reroll {
        return Err(err(0, "pending target is past the encounter's fatelings"));
    }
    if g.phase == Phase::Keep
        && g.pending
            .dice
            .iter()
            .any(|&d| d as usize >= content.assets.len())
    {
        return Err(err(
            0,
            "in phase keep, pending dice name two asset cards (0-based indices)",
        ));
    }
    if g.phase == Phase::Return && g.hand_size() == 0 {
        return Err(err(0, "phase return needs a card in hand"));
    }
    if g.phase == Phase::Reroll {
        let p = g.pending;
        let effect = if p.shoot {
            content::AssetEffect::RainFire
        } else {
            content::AssetEffect::PreciseStrike
        };
        if g.holds(effect).is_none() || p.dice.contains(&0) {
            return Err(err(
                0,
                "phase reroll needs the re-roll card in hand and two dice 1..=10",
            ));
        }
    }
    if g.deck_len as usize + (g.hand_size() as usize) > content::ASSET_DECK * 2 {
        return Err(err(0, "too many asset cards"));
    }
    check_bases(&g, &base_lines)?;
    Ok(g)
}

/// The models on the table stand where the game could have put them: no base overlaps an
/// obstacle (rulebook, Aspects: a model "must finish her move clear of any obstacles") nor
/// another model's base (a move stops at base contact, CONTENT.md "Geometry") by more than
/// [`BASE_SLACK`]. `lines[0]` is the `scoundrel` line's number, `lines[1 + i]` fateling `i`'s
/// (0 when left out: the encounter's start). Reserve and slain fatelings are off the table.
fn check_bases(g: &Gods, lines: &[usize; MAX_FATELINGS + 1]) -> Result<(), PositionError> {
    // (line, what, centre, radius) of each base on the table.
    let mut bases = vec![(
        lines[0],
        "the Scoundrel".to_string(),
        g.at,
        g.content.scoundrel.radius,
    )];
    for f in 0..g.n_fatelings() {
        if g.active(f) {
            bases.push((
                lines[1 + f],
                format!("fateling {}", f + 1),
                g.fatelings[f].at,
                g.kind(f).radius,
            ));
        }
    }
    for (k, (line, what, at, r)) in bases.iter().enumerate() {
        let p = at.pt();
        if let Some(o) = obstacle_under(p, *r, &g.enc().obstacles, BASE_SLACK) {
            return Err(err(
                *line,
                format!(
                    "{what} at={at}: the base overlaps obstacle {} of the encounter (a model ends every move clear of obstacles)",
                    o + 1
                ),
            ));
        }
        for (line2, other, at2, r2) in &bases[..k] {
            if bases_overlap(at2.pt(), *r2, p, *r, BASE_SLACK) {
                // Reported at the line that places the base (this one's, unless it stands at
                // the encounter's start and the other's line is written).
                let (line, what, at, other, at2) = if *line == 0 && *line2 != 0 {
                    (*line2, other, at2, what, at)
                } else {
                    (*line, what, at, other, at2)
                };
                return Err(err(
                    line,
                    format!(
                        "{what} at={at}: the base overlaps {other}'s at {at2} (models stop at base contact)"
                    ),
                ));
            }
        }
    }
    Ok(())
}
