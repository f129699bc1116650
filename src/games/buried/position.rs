//! Buried Beneath's text position format: a whole game state in `keyword key=value ...` lines,
//! for tests, bug reports and `sololab play buried --position FILE`.
//!
//! ```text
//! buried-position 1
//! content builtin
//! map grid=Mill,Forge,Chapel,Tavern,*,Market,Farm,Well_House,Old_Mine flipped=0,0,0,0,0,0,0,0,0
//! hero name=Mage at=0 stats=4,3,2,2 cooldown=0,0,0 move=0
//! pieces wall=- trap=-
//! villagers placed=- ready=2 fled=0 supply=3
//! markers at=-
//! wave number=1 draw=1,2,3,4 first_side=0,0 slots=9,3 on_card=1,1
//! die 1 at=5 hp=2
//! die 7 at=card hp=1
//! boss name=The_Monstrosity up=0 at=- stats=4,2,2,3
//! flow phase=place sym=0,0 arg=0,0,- stage=done done=0 mover=- steps=0 first=0 turn=1 placements=0 result=0 retries=0,0
//! start markers=- wall=- trap=- killed=0
//! tally waves=0 fled=0 markers=0 killed=0
//! ```
//!
//! Locations are numbers 0-20 (see [`super::state`]: 0 the Village Center's middle, 1-4 its
//! corners NW, NE, SW, SE, then two per card row by row); `-` means none; lists are
//! comma-separated; names use `_` for spaces. `map grid` names the village card at each of the
//! 9 grid positions, row by row from the top-left (`*` the Village Center); `flipped` is 1
//! where the card shows its back (position 5, the fifth entry, is the Village Center card).
//! `wave draw` lists the game's 4 camp cards by number (1-6, content order) in draw order;
//! `first_side` the side (0 front, 1 back) the first card of each pair showed when drawn.
//! `die N` (1-12; 1-6 black, 7-12 white) gives a die's place (`card` on its camp card, or a
//! location) and health; dice not listed are gone. `flow` holds what the game waits for:
//! `phase` (place, symbol, rally, granted, target, tie, flee, corner, victim, push, over,
//! enemy), the symbol being resolved (`sym=LOC,INDEX`), the phase arguments, the enemies'
//! stage (move, deploy, attack, boss_move, boss_attack, done) with its progress, the turn
//! count, the result (0 playing, 1 won, 2+ lost: 2 villagers fled, 3 hero defeated, 4 village
//! overrun, 5 turn limit) and the wave restarts (`allowed,used`). Lines may come in any order;
//! `#` starts a comment; a line left out keeps the default (the content's cards in order,
//! fronts up, the first hero and boss at their card values, wave 1 with no dice, the player
//! about to place).
//!
//! [`parse`] refuses unknown keywords and keys, bad numbers, locations out of range, unknown
//! names and a die on a location another die holds, each with its line; and a state the game
//! could not go on from: dice on the camp cards that disagree with `on_card`, or a `flow` whose
//! phase waits on something the state does not hold (a stat symbol past the location's, a
//! skill without targets, a mover or attacker not on the map, a villager to push that is not
//! there, the boss acting before it is up).

use std::collections::BTreeMap;

use super::content::{self, Content, Place, Stat};
use super::state::{
    BOSS, Buried, CENTER, DICE, GONE, NLOC, NONE, ON_CARD, Phase, Stage, Tally, VILLAGERS,
    WaveStart, bit, locs,
};
use crate::game::PositionError;
use crate::position_text;

fn enc(s: &str) -> String {
    s.replace(' ', "_")
}

fn loc_or_none(l: u8) -> String {
    if l == NONE { "-".into() } else { l.to_string() }
}

fn set_text(b: u32) -> String {
    if b == 0 {
        "-".into()
    } else {
        locs(b).map(|l| l.to_string()).collect::<Vec<_>>().join(",")
    }
}

fn list<T: ToString>(v: &[T]) -> String {
    v.iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join(",")
}

/// The symbols of a place as short text (`+H +D -M skull tunnel`).
pub fn symbols_text(p: &Place) -> String {
    let mut v: Vec<String> = p.plus.iter().map(|s| format!("+{}", s.letter())).collect();
    for s in Stat::ALL {
        for _ in 0..p.minus[s as usize] {
            v.push(format!("-{}", s.letter()));
        }
    }
    if p.skull {
        v.push("skull".into());
    }
    if p.tunnel {
        v.push("tunnel".into());
    }
    v.join(" ")
}

/// Writes the position text of `b` (loads back with [`parse`] to an equal state).
pub fn write(b: &Buried) -> String {
    let c = b.content.0;
    let mut o = String::from("buried-position 1\n");
    o += &format!("content {}\n", c.source);
    let grid: Vec<String> = (0..9)
        .map(|p| {
            if p == 4 {
                "*".into()
            } else {
                enc(&c.villages[b.grid[p] as usize].name)
            }
        })
        .collect();
    let flipped: Vec<u8> = (0..9).map(|p| (b.flipped >> p & 1) as u8).collect();
    o += &format!("map grid={} flipped={}\n", grid.join(","), list(&flipped));
    o += &format!(
        "hero name={} at={} stats={} cooldown={} move={}\n",
        enc(&b.hero_card().name),
        b.hero_at,
        list(&b.stats),
        list(&b.cooldown),
        b.move_left
    );
    let wall = if b.wall[0] == NONE {
        "-".into()
    } else {
        format!("{}-{}", b.wall[0], b.wall[1])
    };
    o += &format!("pieces wall={wall} trap={}\n", loc_or_none(b.trap));
    o += &format!(
        "villagers placed={} ready={} fled={} supply={}\n",
        set_text(b.placed),
        b.ready,
        b.fled,
        b.supply
    );
    o += &format!("markers at={}\n", set_text(b.markers));
    let draw: Vec<u8> = b.draw.iter().map(|d| d + 1).collect();
    o += &format!(
        "wave number={} draw={} first_side={} slots={} on_card={}\n",
        b.wave,
        list(&draw),
        list(&b.first_side),
        list(&b.camp_slot),
        list(&b.on_card)
    );
    for d in 0..DICE {
        let at = match b.die_at[d] {
            GONE => continue,
            ON_CARD => "card".to_string(),
            l => l.to_string(),
        };
        o += &format!("die {} at={at} hp={}\n", d + 1, b.die_hp[d]);
    }
    o += &format!(
        "boss name={} up={} at={} stats={}\n",
        enc(&c.bosses[b.boss as usize].name),
        u8::from(b.boss_up),
        loc_or_none(b.boss_at),
        list(&b.boss_stats)
    );
    let phase = b.phase.name();
    let stage = b.stage.name();
    o += &format!(
        "flow phase={phase} sym={},{} arg={},{},{} stage={stage} done={} mover={} steps={} first={} turn={} placements={} result={} retries={},{}\n",
        b.sym_loc,
        b.sym_idx,
        b.arg[0],
        b.arg[1],
        loc_or_none(b.arg[2]),
        b.done_mask,
        loc_or_none(b.mover),
        b.steps,
        b.first_colour,
        b.turn,
        b.placements,
        b.result,
        b.retries,
        b.retries_used
    );
    if b.placement_cap != super::state::PLACEMENT_CAP {
        // Written only when a setup chose another cap, so positions of the default read as before.
        o.pop();
        o += &format!(" cap={}\n", b.placement_cap);
    }
    let sw = &b.start;
    let swall = if sw.wall[0] == NONE {
        "-".into()
    } else {
        format!("{}-{}", sw.wall[0], sw.wall[1])
    };
    o += &format!(
        "start markers={} wall={swall} trap={} killed={}\n",
        set_text(sw.markers),
        loc_or_none(sw.trap),
        sw.killed
    );
    let t = &b.tally;
    o += &format!(
        "tally waves={} fled={} markers={} killed={}\n",
        t.waves, t.fled, t.markers, t.killed
    );
    o
}

/// The default state a position starts from (see the module docs).
pub fn blank(c: &'static Content) -> Buried {
    let mut b = blank_unbuilt(c);
    b.build_map();
    b
}

/// [`blank`] before its map is built (`adj`, `enemy_adj`, `xy`, `skulls`, `tunnels` and
/// `center_dist` empty): for a caller that lays out `grid` and `flipped` and then calls
/// [`Buried::build_map`] itself.
pub fn blank_unbuilt(c: &'static Content) -> Buried {
    let hero = c.hero(0);
    Buried {
        content: super::state::ContentRef(c),
        grid: [0, 1, 2, 3, 255, 4, 5, 6, 7],
        flipped: 0,
        adj: [0; NLOC],
        enemy_adj: [0; NLOC],
        center_dist: [u8::MAX; NLOC],
        xy: [0; NLOC],
        skulls: 0,
        tunnels: [NONE; 2],
        hero: 0,
        hero_at: CENTER,
        stats: hero.stats,
        cooldown: [0; 3],
        move_left: 0,
        wall: [NONE; 2],
        trap: NONE,
        placed: 0,
        ready: 2,
        fled: 0,
        supply: 3,
        markers: 0,
        draw: [0, 1, 2, 3],
        first_side: [0; 2],
        camp_slot: [super::state::FIRST_SLOT, super::state::SECOND_SLOT],
        on_card: [0; 2],
        die_at: [GONE; DICE],
        die_hp: [0; DICE],
        wave: 1,
        boss: 0,
        boss_up: false,
        boss_at: NONE,
        boss_stats: c.bosses[0].stats,
        phase: Phase::Place,
        sym_loc: 0,
        sym_idx: 0,
        arg: [0, 0, NONE],
        stage: Stage::Done,
        done_mask: 0,
        mover: NONE,
        steps: 0,
        first_colour: 0,
        turn: 1,
        placements: 0,
        placement_cap: super::state::PLACEMENT_CAP,
        result: 0,
        retries: 0,
        retries_used: 0,
        start: WaveStart {
            markers: 0,
            wall: [NONE; 2],
            trap: NONE,
            killed: 0,
        },
        tally: Tally::default(),
    }
}

struct Line<'a> {
    n: usize,
    keys: BTreeMap<&'a str, &'a str>,
}

impl<'a> Line<'a> {
    fn err(&self, m: impl Into<String>) -> PositionError {
        PositionError {
            line: self.n,
            message: m.into(),
        }
    }
    fn get(&self, k: &str) -> Option<&'a str> {
        self.keys.get(k).copied()
    }
    fn num(&self, k: &str, max: u32) -> Result<Option<u32>, PositionError> {
        match self.get(k) {
            None => Ok(None),
            Some(v) => match v.parse::<u32>() {
                Ok(n) if n <= max => Ok(Some(n)),
                _ => Err(self.err(format!("{k}={v}: expected a whole number 0..={max}"))),
            },
        }
    }
    fn nums(&self, k: &str, len: usize, max: u32) -> Result<Option<Vec<u32>>, PositionError> {
        let Some(v) = self.get(k) else {
            return Ok(None);
        };
        let parts: Vec<&str> = v.split(',').collect();
        let bad = || {
            self.err(format!(
                "{k}={v}: expected {len} whole numbers 0..={max}, comma-separated"
            ))
        };
        if parts.len() != len {
            return Err(bad());
        }
        parts
            .iter()
            .map(|p| p.parse::<u32>().ok().filter(|n| *n <= max).ok_or_else(bad))
            .collect::<Result<Vec<_>, _>>()
            .map(Some)
    }
    fn loc(&self, k: &str) -> Result<Option<u8>, PositionError> {
        match self.get(k) {
            None => Ok(None),
            Some("-") => Ok(Some(NONE)),
            Some(v) => match v.parse::<u8>() {
                Ok(n) if (n as usize) < NLOC => Ok(Some(n)),
                _ => Err(self.err(format!("{k}={v}: expected a location 0-20 or -"))),
            },
        }
    }
    fn set(&self, k: &str) -> Result<Option<u32>, PositionError> {
        match self.get(k) {
            None => Ok(None),
            Some("-") => Ok(Some(0)),
            Some(v) => {
                let mut b = 0;
                for p in v.split(',') {
                    match p.parse::<u8>() {
                        Ok(n) if (n as usize) < NLOC => b |= bit(n),
                        _ => {
                            return Err(self.err(format!(
                                "{k}={v}: expected locations 0-20, comma-separated, or -"
                            )));
                        }
                    }
                }
                Ok(Some(b))
            }
        }
    }
    fn pair(&self, k: &str) -> Result<Option<[u8; 2]>, PositionError> {
        match self.get(k) {
            None => Ok(None),
            Some("-") => Ok(Some([NONE; 2])),
            Some(v) => {
                let bad = || self.err(format!("{k}={v}: expected A-B (two locations) or -"));
                let (a, b) = v.split_once('-').ok_or_else(bad)?;
                let a: u8 = a
                    .parse()
                    .ok()
                    .filter(|n| (*n as usize) < NLOC)
                    .ok_or_else(bad)?;
                let b: u8 = b
                    .parse()
                    .ok()
                    .filter(|n| (*n as usize) < NLOC)
                    .ok_or_else(bad)?;
                Ok(Some([a, b]))
            }
        }
    }
    fn only(&self, allowed: &[&str]) -> Result<(), PositionError> {
        for k in self.keys.keys() {
            if !allowed.contains(k) {
                return Err(self.err(format!("unknown key '{k}' (valid: {})", allowed.join(", "))));
            }
        }
        Ok(())
    }
}

/// Reads a position (see the module docs).
///
/// # Errors
/// A [`PositionError`] with the 1-based line and what was wrong.
pub fn parse(text: &str) -> Result<Buried, PositionError> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut lines = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let l = raw.split('#').next().unwrap_or("").trim();
        if !l.is_empty() {
            lines.push((i + 1, l));
        }
    }
    position_text::header(text, "buried")?;
    let mut content: &'static Content = content::builtin();
    for &(n, l) in &lines[1..] {
        if let Some(src) = l.strip_prefix("content ") {
            let src = src.trim();
            if src != "builtin" {
                content = crate::content::load_cached(std::path::Path::new(src), content::parse)
                    .map_err(|e| PositionError {
                        line: n,
                        message: e.0,
                    })?;
            }
        }
    }
    let mut b = blank(content);
    let c = content;
    let mut dice_seen = false;
    // The lines the state's cross-checks report at (0 when the line is left out).
    let (mut wave_line, mut flow_line) = (0, 0);
    for &(n, l) in &lines[1..] {
        let (kw, rest) = l.split_once(' ').unwrap_or((l, ""));
        if kw == "content" {
            continue;
        }
        let mut toks = rest.split_whitespace();
        let die_no = if kw == "die" {
            let t = toks.next().unwrap_or("");
            match t.parse::<usize>() {
                Ok(k) if (1..=DICE).contains(&k) => Some(k - 1),
                _ => {
                    return Err(PositionError {
                        line: n,
                        message: format!("die '{t}': expected a die number 1-12"),
                    });
                }
            }
        } else {
            None
        };
        let mut keys = BTreeMap::new();
        for t in toks {
            let Some((k, v)) = t.split_once('=') else {
                return Err(PositionError {
                    line: n,
                    message: format!("'{t}': expected key=value"),
                });
            };
            if keys.insert(k, v).is_some() {
                return Err(PositionError {
                    line: n,
                    message: format!("key '{k}' given twice"),
                });
            }
        }
        let line = Line { n, keys };
        match kw {
            "map" => {
                line.only(&["grid", "flipped"])?;
                if let Some(g) = line.get("grid") {
                    let parts: Vec<&str> = g.split(',').collect();
                    if parts.len() != 9 || parts[4] != "*" {
                        return Err(line
                            .err("grid: expected 9 card names with * (the Village Center) fifth"));
                    }
                    let mut used = 0u16;
                    for (p, name) in parts.iter().enumerate() {
                        if p == 4 {
                            continue;
                        }
                        let Some(i) = c.villages.iter().position(|v| enc(&v.name) == *name) else {
                            let valid: Vec<String> =
                                c.villages.iter().map(|v| enc(&v.name)).collect();
                            return Err(line.err(format!(
                                "grid: unknown village card '{name}' (valid: {})",
                                valid.join(", ")
                            )));
                        };
                        if used & (1 << i) != 0 {
                            return Err(line.err(format!("grid: '{name}' twice")));
                        }
                        used |= 1 << i;
                        b.grid[p] = i as u8;
                    }
                }
                if let Some(f) = line.nums("flipped", 9, 1)? {
                    b.flipped = f
                        .iter()
                        .enumerate()
                        .fold(0, |m, (p, &x)| m | (x as u16) << p);
                }
            }
            "hero" => {
                line.only(&["name", "at", "stats", "cooldown", "move"])?;
                if let Some(name) = line.get("name") {
                    let names = c.hero_names();
                    let Some(i) = names.iter().position(|h| enc(h) == name) else {
                        return Err(line.err(format!(
                            "unknown hero '{name}' (valid: {})",
                            names.iter().map(|h| enc(h)).collect::<Vec<_>>().join(", ")
                        )));
                    };
                    b.hero = i as u8;
                    b.stats = c.hero(b.hero).stats;
                }
                if let Some(l) = line.loc("at")? {
                    if l == NONE {
                        return Err(line.err("at: the hero is always on a location"));
                    }
                    b.hero_at = l;
                }
                if let Some(s) = line.nums("stats", 4, content::STAT_MAX as u32)? {
                    b.stats = [s[0] as u8, s[1] as u8, s[2] as u8, s[3] as u8];
                }
                if let Some(s) = line.nums("cooldown", 3, 6)? {
                    b.cooldown = [s[0] as u8, s[1] as u8, s[2] as u8];
                }
                if let Some(m) = line.num("move", 9)? {
                    b.move_left = m as u8;
                }
            }
            "pieces" => {
                line.only(&["wall", "trap"])?;
                if let Some(w) = line.pair("wall")? {
                    b.wall = w;
                }
                if let Some(t) = line.loc("trap")? {
                    b.trap = t;
                }
            }
            "villagers" => {
                line.only(&["placed", "ready", "fled", "supply"])?;
                if let Some(p) = line.set("placed")? {
                    b.placed = p;
                }
                if let Some(v) = line.num("ready", 5)? {
                    b.ready = v as u8;
                }
                if let Some(v) = line.num("fled", 5)? {
                    b.fled = v as u8;
                }
                if let Some(v) = line.num("supply", 3)? {
                    b.supply = v as u8;
                }
                if b.placed & bit(CENTER) != 0 {
                    return Err(line.err("placed: a villager is never on the Village Center (0)"));
                }
            }
            "markers" => {
                line.only(&["at"])?;
                if let Some(m) = line.set("at")? {
                    if m.count_ones() > 4 {
                        return Err(line.err("at: there are only 4 Boss markers"));
                    }
                    b.markers = m;
                }
            }
            "wave" => {
                wave_line = n;
                line.only(&["number", "draw", "first_side", "slots", "on_card"])?;
                if let Some(w) = line.num("number", 4)? {
                    if w == 0 {
                        return Err(line.err("number: waves are 1-4"));
                    }
                    b.wave = w as u8;
                }
                if let Some(d) = line.nums("draw", 4, content::CAMPS as u32)? {
                    if d.contains(&0) {
                        return Err(line.err("draw: camp cards are numbered 1-6"));
                    }
                    let mut v = [0u8; 4];
                    for i in 0..4 {
                        v[i] = d[i] as u8 - 1;
                        if v[..i].contains(&v[i]) {
                            return Err(line.err("draw: a camp card twice"));
                        }
                    }
                    b.draw = v;
                }
                if let Some(s) = line.nums("first_side", 2, 1)? {
                    b.first_side = [s[0] as u8, s[1] as u8];
                }
                if let Some(s) = line.nums("slots", 2, 11)? {
                    b.camp_slot = [s[0] as u8, s[1] as u8];
                }
                if let Some(s) = line.nums("on_card", 2, 6)? {
                    b.on_card = [s[0] as u8, s[1] as u8];
                }
            }
            "die" => {
                line.only(&["at", "hp"])?;
                if !dice_seen {
                    dice_seen = true;
                }
                let d = die_no.unwrap_or(0);
                let at = match line.get("at") {
                    Some("card") => ON_CARD,
                    Some(_) => match line.loc("at")? {
                        Some(NONE) | None => GONE,
                        Some(l) => l,
                    },
                    None => return Err(line.err("at: missing (card or a location)")),
                };
                if at != ON_CARD && at != GONE && b.die_at.contains(&at) {
                    return Err(line.err(format!(
                        "at={at}: another die is there (monsters block monsters)"
                    )));
                }
                b.die_at[d] = at;
                b.die_hp[d] = line.num("hp", 6)?.unwrap_or(1) as u8;
                if b.die_hp[d] == 0 {
                    return Err(line.err("hp: a die on the card or the map has health 1-6"));
                }
            }
            "boss" => {
                line.only(&["name", "up", "at", "stats"])?;
                if let Some(name) = line.get("name") {
                    let Some(i) = c.bosses.iter().position(|x| enc(&x.name) == name) else {
                        let valid: Vec<String> = c.bosses.iter().map(|x| enc(&x.name)).collect();
                        return Err(line.err(format!(
                            "unknown boss '{name}' (valid: {})",
                            valid.join(", ")
                        )));
                    };
                    b.boss = i as u8;
                    b.boss_stats = c.bosses[i].stats;
                }
                if let Some(u) = line.num("up", 1)? {
                    b.boss_up = u == 1;
                }
                if let Some(l) = line.loc("at")? {
                    b.boss_at = l;
                }
                if let Some(s) = line.nums("stats", 4, content::STAT_MAX as u32)? {
                    b.boss_stats = [s[0] as u8, s[1] as u8, s[2] as u8, s[3] as u8];
                }
                if b.boss_up && b.boss_at == NONE {
                    return Err(line.err("at: a boss that is up stands on a location"));
                }
            }
            "flow" => {
                flow_line = n;
                line.only(&[
                    "phase",
                    "sym",
                    "arg",
                    "stage",
                    "done",
                    "mover",
                    "steps",
                    "first",
                    "turn",
                    "placements",
                    "result",
                    "retries",
                    "cap",
                ])?;
                if let Some(p) = line.get("phase") {
                    b.phase = Phase::from_name(p).ok_or_else(|| {
                        line.err(format!("unknown phase '{p}' (valid: {})", Phase::names()))
                    })?;
                }
                if let Some(s) = line.nums("sym", 2, 20)? {
                    b.sym_loc = s[0] as u8;
                    b.sym_idx = s[1] as u8;
                }
                if let Some(v) = line.get("arg") {
                    let parts: Vec<&str> = v.split(',').collect();
                    let bad = || {
                        line.err(format!(
                            "arg={v}: expected 3 numbers 0-254 (or -), comma-separated"
                        ))
                    };
                    if parts.len() != 3 {
                        return Err(bad());
                    }
                    for (slot, part) in b.arg.iter_mut().zip(&parts) {
                        *slot = if *part == "-" {
                            NONE
                        } else {
                            part.parse::<u8>()
                                .ok()
                                .filter(|x| *x < 255)
                                .ok_or_else(bad)?
                        };
                    }
                }
                if let Some(s) = line.get("stage") {
                    b.stage = Stage::from_name(s).ok_or_else(|| {
                        line.err(format!("unknown stage '{s}' (valid: {})", Stage::names()))
                    })?;
                }
                if let Some(v) = line.num("done", 0x7fff)? {
                    b.done_mask = v as u16;
                }
                match line.get("mover") {
                    None => {}
                    Some("-") => b.mover = NONE,
                    Some(m) => {
                        b.mover = m
                            .parse::<u8>()
                            .ok()
                            .filter(|x| *x <= super::state::BOSS)
                            .ok_or_else(|| {
                                line.err(format!(
                                    "mover={m}: expected a die index 0-11, 12 (the boss) or -"
                                ))
                            })?;
                    }
                }
                if let Some(v) = line.num("steps", 9)? {
                    b.steps = v as u8;
                }
                if let Some(v) = line.num("first", 1)? {
                    b.first_colour = v as u8;
                }
                if let Some(v) = line.num("turn", super::state::MAX_TURNS as u32 + 1)? {
                    b.turn = v as u16;
                }
                if let Some(v) = line.num("placements", super::state::MAX_PLACEMENT_CAP as u32)? {
                    b.placements = v as u8;
                }
                if let Some(v) = line.num("cap", super::state::MAX_PLACEMENT_CAP as u32)? {
                    if v < super::state::MIN_PLACEMENT_CAP as u32 {
                        return Err(line.err(format!(
                            "cap={v} is below {}",
                            super::state::MIN_PLACEMENT_CAP
                        )));
                    }
                    b.placement_cap = v as u8;
                }
                if b.placements > b.placement_cap {
                    return Err(line.err(format!(
                        "placements={} is past the cap {}",
                        b.placements, b.placement_cap
                    )));
                }
                if let Some(v) = line.num("result", 5)? {
                    b.result = v as u8;
                }
                if let Some(r) = line.nums("retries", 2, 10)? {
                    b.retries = r[0] as u8;
                    b.retries_used = r[1] as u8;
                }
            }
            "start" => {
                line.only(&["markers", "wall", "trap", "killed"])?;
                if let Some(m) = line.set("markers")? {
                    b.start.markers = m;
                }
                if let Some(w) = line.pair("wall")? {
                    b.start.wall = w;
                }
                if let Some(t) = line.loc("trap")? {
                    b.start.trap = t;
                }
                if let Some(k) = line.num("killed", 255)? {
                    b.start.killed = k as u8;
                }
            }
            "tally" => {
                line.only(&["waves", "fled", "markers", "killed"])?;
                let t = &mut b.tally;
                t.waves = line.num("waves", 4)?.map_or(t.waves, |v| v as u8);
                t.fled = line.num("fled", 255)?.map_or(t.fled, |v| v as u8);
                t.markers = line.num("markers", 255)?.map_or(t.markers, |v| v as u8);
                t.killed = line.num("killed", 255)?.map_or(t.killed, |v| v as u8);
            }
            other => {
                return Err(PositionError {
                    line: n,
                    message: format!(
                        "unknown line '{other}' (valid: content, map, hero, pieces, villagers, markers, wave, die, boss, flow, start, tally)"
                    ),
                });
            }
        }
    }
    if b.ready + b.fled + b.placed.count_ones() as u8 + b.supply > VILLAGERS {
        return Err(PositionError {
            line: 0,
            message: "more than 5 villagers (ready + placed + fled + supply)".into(),
        });
    }
    position_text::over_with_result(flow_line, b.phase == Phase::Over, b.result)?;
    b.build_map();
    check_dice(&b).map_err(|m| position_text::error(wave_line, m))?;
    check_flow(&b).map_err(|m| position_text::error(flow_line, m))?;
    Ok(b)
}

/// The dice on each camp card agree with `wave on_card` (a wave puts its dice on the cards and
/// each deployment takes one off, so the two never differ).
fn check_dice(b: &Buried) -> Result<(), String> {
    for (col, name) in ["black", "white"].into_iter().enumerate() {
        let on = (col * 6..col * 6 + 6)
            .filter(|&d| b.die_at[d] == ON_CARD)
            .count();
        if on != b.on_card[col] as usize {
            return Err(format!(
                "on_card={},{}: the {name} camp card holds {on} dice (die lines with at=card)",
                b.on_card[0], b.on_card[1]
            ));
        }
    }
    Ok(())
}

/// The `flow` line against the rest of the state: what the phase waits for must exist, so that
/// the rules never look past what the state holds (a symbol the location has, a skill with
/// targets, a mover on the map, a villager to push) and the enemies' turn can go on from it.
/// Whether the phase leaves a legal action at all is the shared check of
/// [`position_text::playable`].
fn check_flow(b: &Buried) -> Result<(), String> {
    let on_map = |m: u8| (m as usize) < DICE && (b.die_at[m as usize] as usize) < NLOC;
    let mover = if b.mover == NONE {
        "-".to_string()
    } else {
        b.mover.to_string()
    };
    let phase = b.phase.name();
    match b.phase {
        Phase::Symbol => {
            let n = b.place(b.sym_loc).map_or(0, |p| p.plus.len());
            if b.sym_idx as usize >= n {
                return Err(format!(
                    "phase=symbol sym={},{}: location {} shows {n} stat symbol{} (sym=LOC,INDEX counts them from 0)",
                    b.sym_loc,
                    b.sym_idx,
                    b.sym_loc,
                    if n == 1 { "" } else { "s" }
                ));
            }
        }
        Phase::Rally if b.arg[0] == 0 => {
            return Err(
                "phase=rally: arg's first number counts the villagers still to collect, at least 1"
                    .into(),
            );
        }
        Phase::Target => check_target(b)?,
        Phase::Push if b.arg[0] as usize >= NLOC || b.placed & bit(b.arg[0]) == 0 => {
            return Err(format!(
                "phase=push: arg's first number is the location of the villager being driven, and {} holds none",
                loc_or_none(b.arg[0])
            ));
        }
        _ => {}
    }
    // The enemies' turn goes on from these phases: the mover and the stage must be real.
    if !matches!(
        b.phase,
        Phase::Tie | Phase::Flee | Phase::Corner | Phase::Victim | Phase::Push | Phase::Enemy
    ) {
        return Ok(());
    }
    let stage = b.stage.name();
    if b.mover == BOSS && !b.boss_up {
        return Err(format!(
            "phase={phase} mover=12: the boss moves or attacks only once it is up"
        ));
    }
    if b.mover < BOSS && b.steps > 0 && !on_map(b.mover) {
        return Err(format!(
            "phase={phase} mover={mover} steps={}: die {} is not on the map",
            b.steps,
            b.mover + 1
        ));
    }
    if b.stage == Stage::BossAttack && !b.boss_up {
        return Err(format!(
            "phase={phase} stage={stage}: the boss attacks only once it is up"
        ));
    }
    match b.phase {
        // A tie between equally short steps: the monster moving (stage move) or the boss.
        Phase::Tie
            if b.steps == 0
                || !(b.stage == Stage::Move && on_map(b.mover)
                    || b.stage == Stage::BossMove && b.mover == BOSS) =>
        {
            Err(format!(
                "phase=tie waits on a mover with steps left: a die on the map (mover 0-11) with stage=move, or the boss (mover=12) with stage=boss_move (got stage={stage} mover={mover} steps={})",
                b.steps
            ))
        }
        // A choice of villagers in reach: the monster attacking (stage attack) or the boss.
        Phase::Victim
            if !(b.stage == Stage::Attack && on_map(b.mover)
                || b.stage == Stage::BossAttack && b.mover == BOSS) =>
        {
            Err(format!(
                "phase=victim waits on an attacker: a die on the map (mover 0-11) with stage=attack, or the boss (mover=12) with stage=boss_attack (got stage={stage} mover={mover})"
            ))
        }
        _ => Ok(()),
    }
}

/// [`check_flow`] for [`Phase::Target`]: `arg` is the skill (an index into the hero's three),
/// the step (0, or 1 for the second choice of Gale Winds and Chain Lightning) and the first
/// choice, which must be a location (Gale Winds: plus [`VILLAGER`](super::actions::VILLAGER)
/// for the villager there).
fn check_target(b: &Buried) -> Result<(), String> {
    use super::content::SkillKind;
    let skills = &b.hero_card().skills;
    let k = b.arg[0] as usize;
    let Some(skill) = skills.get(k) else {
        return Err(format!(
            "phase=target: arg's first number is the skill being used, 0-{} (got {k})",
            skills.len() - 1
        ));
    };
    let second = match skill.kind {
        SkillKind::Gale(_) | SkillKind::Chain(_) => true,
        SkillKind::Wall | SkillKind::Trap(_) => false,
        _ => {
            return Err(format!(
                "phase=target: skill {k}, {}, takes no target",
                skill.name
            ));
        }
    };
    match b.arg[1] {
        0 => Ok(()),
        1 if second => {
            let first = b.arg[2];
            let villager = super::actions::VILLAGER;
            let gale = matches!(skill.kind, SkillKind::Gale(_));
            let loc = if gale { first & !villager } else { first };
            if (loc as usize) < NLOC {
                Ok(())
            } else {
                Err(format!(
                    "phase=target: arg's third number is the first choice of {}, a location 0-20{} (got {})",
                    skill.name,
                    if gale {
                        " (plus 32 for the villager there)"
                    } else {
                        ""
                    },
                    loc_or_none(first)
                ))
            }
        }
        s => Err(format!(
            "phase=target: arg's second number is the step of {}, {} (got {s})",
            skill.name,
            if second { "0 or 1" } else { "0" }
        )),
    }
}

/// The village as text (for `sololab play` and `Display`): the hero, villagers, camps and the
/// boss, then every location card by card with its symbols, paths and what stands on it.
pub fn render(b: &Buried) -> String {
    let c = b.content.0;
    let h = b.hero_card();
    let mut o = format!(
        "wave {} turn {} | {} at {} ({}): health {} mana {} damage {} speed {} | cool-downs {} | move left {}\n",
        b.wave,
        b.turn,
        h.name,
        b.loc_name(b.hero_at),
        b.hero_at,
        b.stats[0],
        b.stats[1],
        b.stats[2],
        b.stats[3],
        h.skills
            .iter()
            .zip(b.cooldown)
            .map(|(s, cd)| format!("{} {cd}", s.name))
            .collect::<Vec<_>>()
            .join(", "),
        b.move_left
    );
    o += &format!(
        "villagers: {} ready, {} placed, {} fled, {} in the supply | Boss markers {}/4 | Force Wall {} | Trap {}\n",
        b.ready,
        b.placed.count_ones(),
        b.fled,
        b.supply,
        b.markers.count_ones(),
        if b.wall[0] == NONE {
            "-".into()
        } else {
            format!("{}-{}", b.wall[0], b.wall[1])
        },
        loc_or_none(b.trap)
    );
    if b.boss_up {
        let bc = &c.bosses[b.boss as usize];
        o += &format!(
            "boss {} at {} ({}): health {} speed {} damage {} armor {}\n",
            bc.name,
            b.loc_name(b.boss_at),
            b.boss_at,
            b.boss_stats[0],
            b.boss_stats[1],
            b.boss_stats[2],
            b.boss_stats[3]
        );
    } else {
        for col in 0..2 {
            let camp = b.camp(col);
            o += &format!(
                "camp {} {} (health {} speed {} damage {} {}) at spot {}, deploying to {}: {} dice on the card\n",
                ["black", "white"][col],
                camp.name,
                camp.health,
                camp.speed,
                camp.damage,
                if camp.ranged { "bow" } else { "sword" },
                b.camp_slot[col],
                b.loc_name(b.entry(col)),
                b.on_card[col]
            );
        }
    }
    for p in 0..9u8 {
        let (name, ls): (String, Vec<u8>) = if p == 4 {
            (c.center.name.clone(), vec![0, 1, 2, 3, 4])
        } else {
            let l0 = super::rules::first_loc(p);
            (
                c.villages[b.grid[p as usize] as usize].name.clone(),
                vec![l0, l0 + 1],
            )
        };
        let side = if b.flipped >> p & 1 == 1 {
            "back"
        } else {
            "front"
        };
        o += &format!("[{name} ({side}), row {} col {}]\n", p / 3 + 1, p % 3 + 1);
        for l in ls {
            let syms = b.place(l).map_or(String::new(), symbols_text);
            let mut here = Vec::new();
            if b.hero_at == l {
                here.push("HERO".to_string());
            }
            if b.placed & bit(l) != 0 {
                here.push("villager".into());
            }
            if let Some(d) = b.die_at_loc(l) {
                here.push(format!(
                    "{} {} (health {})",
                    ["black", "white"][d / 6],
                    b.camp(d / 6).name,
                    b.die_hp[d]
                ));
            }
            if b.boss_up && b.boss_at == l {
                here.push("BOSS".into());
            }
            if b.markers & bit(l) != 0 {
                here.push("Boss marker".into());
            }
            if b.trap == l {
                here.push("Trap".into());
            }
            o += &format!(
                "  {l:>2} {:<18} [{syms:<14}] paths {:<12} {}\n",
                b.loc_name(l),
                set_text(b.adj[l as usize]),
                here.join(", ")
            );
        }
    }
    o
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{Game, Stream, stream_rng};
    use crate::games::buried::BuriedSetup;

    #[test]
    fn positions_round_trip_on_random_playouts() {
        let setup = BuriedSetup::resolve(&Default::default()).expect("default setup");
        let mut acts = Vec::new();
        let mut checked = 0;
        for seed in 0..300u64 {
            let mut srng = stream_rng(3, seed, Stream::Setup);
            let mut crng = stream_rng(3, seed, Stream::Chance);
            let mut prng = stream_rng(3, seed, Stream::Policy);
            let mut g = Buried::new_game(&setup, &mut srng);
            let mut n = 0;
            loop {
                if n % 7 == 0 {
                    let text = write(&g);
                    let back = parse(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
                    assert_eq!(back, g, "{text}");
                    checked += 1;
                }
                g.legal_actions(&mut acts);
                if acts.is_empty() {
                    break;
                }
                let a = acts[crate::game::below(&mut prng, acts.len() as u32) as usize];
                g.apply(a, &mut crng);
                n += 1;
                assert!(n < Buried::MAX_DECISIONS);
            }
            assert!(g.outcome().is_some());
        }
        assert!(checked > 300);
    }
}
