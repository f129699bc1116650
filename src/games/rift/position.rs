//! The Rift's text position format (like FEN for chess): a whole game state in lines of
//! `key value` pairs and two 6×6 grids, for tests, bug reports and `sololab play --position`.
//!
//! ```text
//! rift-position 1
//! content builtin
//! maps Stormbreak_Ridge,Sunken_Causeway
//! monster_cards Nightmare,Demon,Wraith
//! clock campaign_die=6 die=4 die_card=2 compass=ESWN seek=east turn=1 phase=actions ruins=3 alpha_limit=0 extra_turn=0 turret_used=0 result=0 decisions=0
//! objectives left=- right=-
//! finale -
//! mech A card=Wukong pilot=Sun_Li levels=0,0 tile=(5,5) hp=3 max_hp=3 status=- moved=0 done=0
//! mech B card=Atlas pilot=Marta_Kell levels=0,0 tile=(2,1) hp=4 max_hp=4 status=shield moved=0 done=0
//! monster 1 at=map card=2 place=0 alpha=0 tile=(3,4) hp=2 status=- aim=E1
//! monster 2 at=detected card=3 tile=(4,6) order=0
//! monster 3 at=supply
//! tokens rock=- smoke=(2,2) fire=- acid=- frozen_buildings=- shield_buildings=- acid_tiles=-
//! campaign on=0 game=1 ruins_cap=3 both_moons=0 objectives=1 fixed_maps=-,- fixed_monsters=-,-,- overrides=-,-,- pending=0,0 games_won=0 objectives_met=0 upgrades=0 kills=0 alpha_kills=0 ruined=0 mech_deaths=0 blocked=0 turns=0
//! tally kills=0 alpha_kills=0 ruined=0,0 spawned=0 blocked=0 mech_deaths=0 monster_damage=0
//! choice resume=attacks done=1,3 keep=(2,2)
//! rules on=frozen_skip_attack,detect_right,sand_smoke,ruin_reward_capped,pilot_only_reset moon=left
//! terrain
//! ......      one row per line, north first: . ground, B building, M mountain, W water,
//! ....B.      F forest, D desert (sand)
//! ...
//! spawns
//! ...1..      spawn numbers 1-8, . none
//! ```
//! Names use `_` for spaces. `-` means none. Coordinates are `(col,row)`, 1-based. Lines may come
//! in any order; `#` starts a comment; missing lines take the defaults of an empty board (no
//! monsters, mechs off the map, the monster die's card's compass). A mech's `card=` and `pilot=`,
//! when not given, are those the default setup deals on seed 0, except one the other mech names:
//! then the content's first mech card (or pilot) that the other mech does not name, so a position
//! may name one mech's card or pilot alone (naming one card or pilot for both mechs is refused).
//! `monster N` is meeple colour N (1-4): `card` is its place in the row (1-3), `place` its HP
//! cube's place on the card (0-1 normal tracks, 2-3 Alpha tracks, left to right), `aim` a
//! direction and distance (`from`, the tile it aimed from, and `holds`, the mechs its immobilize
//! holds, are written only by the flipped readings of CONTENT.md I10 and I13). `campaign` holds
//! the campaign around the game (`on=1` in campaign mode; `game` is 1-based; `fixed_*` are
//! content indices or `-` for drawn each game; `overrides` are starting monsters, Alpha limit and
//! finale, `-` for the campaign card's) and its totals over finished games. `choice` (only with
//! `phase=choice`: a token to free from play, CONTENT.md I16, or conflicting tokens to settle,
//! I17) says where the turn resumes once the player has chosen (`resume`, a [`Step`] name),
//! which monster colours have already acted in that step (`done`) and the tiles of the tokens
//! just added, which are not offered for removal (`keep`). `rules` (written only when some
//! reading differs from the default) lists the contested rules' readings that are on and the
//! finale's moon (the `rule_*` setup axes; [`switches`]), and `off=` the readings measured by
//! `flip_rule` alone that are off (written only when one is).
//!
//! A position must be a state the game can reach: [`parse`] refuses two units on a tile, units
//! on buildings or mountains, HP out of range, more than 2 monsters on a card, a walker on water,
//! tokens beyond the supply (outside a choice), a phase that disagrees with the result or pending
//! rewards, or a map card, monster card, mech card or pilot named twice (Setup draws different
//! ones), or a campaign's fixed card (`fixed_maps`, `fixed_monsters`: card numbers, `-` for
//! drawn) out of range or named twice, each at the line that breaks the rule.

use super::board::{Bits, COLS, NO_TILE, ROWS, Tile, bit, coord, parse_coord, tile, tiles};
use super::content::{self, Content, Dir, Finale, Status};
use super::state::{Mech, Monster, NO_AIM, Phase, Rift, Step, Tally, Where, st};
use super::switches;
use crate::game::PositionError;
use crate::position_text;
use crate::position_text::{PositionLines, error, flag, name_word, number, pairs, word_name};

fn coords(b: Bits) -> String {
    if b == 0 {
        return "-".to_string();
    }
    tiles(b).map(coord).collect::<Vec<_>>().join("")
}

/// Comma-separated names of the attached-status bits in `s` (`-` for none).
pub fn status_list(s: u8) -> String {
    let mut v = Vec::new();
    for (b, n) in [
        (st::FIRE, "fire"),
        (st::FROZEN, "frozen"),
        (st::SHIELD, "shield"),
        (st::ACID, "acid"),
    ] {
        if s & b != 0 {
            v.push(n);
        }
    }
    if v.is_empty() {
        "-".to_string()
    } else {
        v.join(",")
    }
}

/// Writes the position text of `r` (loads back with [`parse`] to an equal state).
pub fn write(r: &Rift) -> String {
    let c = r.content;
    let mut s = String::new();
    s.push_str("rift-position 1\n");
    s.push_str(&format!("content {}\n", c.source));
    s.push_str(&format!(
        "maps {},{}\n",
        name_word(&c.maps[r.maps[0] as usize].name),
        name_word(&c.maps[r.maps[1] as usize].name)
    ));
    let mc: Vec<String> = r
        .monster_cards
        .iter()
        .map(|&i| name_word(&c.monsters[i as usize].name))
        .collect();
    s.push_str(&format!("monster_cards {}\n", mc.join(",")));
    s.push_str(&format!(
        "clock campaign_die={} die={} die_card={} compass={} seek={} turn={} phase={} ruins={} alpha_limit={} extra_turn={} turret_used={} result={} decisions={}\n",
        r.campaign_die,
        r.die,
        r.die_card + 1,
        super::state::unpack_compass(r.compass).iter().map(|d| d.letter()).collect::<String>(),
        if r.seek > 0 { "east" } else { "west" },
        r.turn,
        r.phase.name(),
        r.ruins,
        r.alpha_limit,
        u8::from(r.extra_turn),
        u8::from(r.turret_used),
        r.result,
        r.decisions
    ));
    let obj = |side: usize| {
        let o = r.objectives[side];
        if o == u8::MAX {
            "-".to_string()
        } else {
            format!(
                "{}:{}",
                name_word(&c.objectives[o as usize].name),
                if r.yellow[side] { "yellow" } else { "red" }
            )
        }
    };
    s.push_str(&format!("objectives left={} right={}\n", obj(0), obj(1)));
    let fin: Vec<&str> = Finale::ALL
        .iter()
        .filter(|f| r.has(**f))
        .map(|f| f.name())
        .collect();
    s.push_str(&format!(
        "finale {}\n",
        if fin.is_empty() {
            "-".to_string()
        } else {
            fin.join(",")
        }
    ));
    for (i, m) in r.mechs.iter().enumerate() {
        s.push_str(&format!(
            "mech {} card={} pilot={} levels={},{} tile={} hp={} max_hp={} status={} moved={} done={}\n",
            ['A', 'B'][i],
            name_word(&c.mechs[m.card as usize].name),
            name_word(&c.pilots[m.pilot as usize].name),
            m.mech_level,
            m.pilot_level,
            coord(m.tile),
            m.hp,
            m.max_hp,
            status_list(m.status),
            u8::from(m.moved),
            u8::from(m.done)
        ));
    }
    for (i, m) in r.monsters.iter().enumerate() {
        match m.at {
            Where::Supply => s.push_str(&format!("monster {} at=supply\n", i + 1)),
            Where::Detected => s.push_str(&format!(
                "monster {} at=detected card={} tile={} order={}\n",
                i + 1,
                m.card + 1,
                coord(m.tile),
                m.order
            )),
            Where::Map => {
                let mut aim = if m.aim_dir == NO_AIM {
                    "-".to_string()
                } else {
                    format!("{}{}", Dir::from_index(m.aim_dir).letter(), m.aim_dist)
                };
                // Kept only by the flipped readings of I10 and I13.
                if m.aim_from != NO_TILE {
                    aim.push_str(&format!(" from={}", coord(m.aim_from)));
                }
                if m.holds != 0 {
                    aim.push_str(&format!(" holds={}", mech_letters(m.holds)));
                }
                s.push_str(&format!(
                    "monster {} at=map card={} place={} alpha={} tile={} hp={} status={} aim={}\n",
                    i + 1,
                    m.card + 1,
                    m.place,
                    u8::from(m.alpha),
                    coord(m.tile),
                    m.hp,
                    status_list(m.status),
                    aim
                ))
            }
        }
    }
    s.push_str(&format!(
        "tokens rock={} smoke={} fire={} acid={} frozen_buildings={} shield_buildings={} acid_tiles={}\n",
        coords(r.rock),
        coords(r.smoke),
        coords(r.fire),
        coords(r.acid),
        coords(r.frozen_b),
        coords(r.shield_b),
        coords(r.acid_tiles)
    ));
    let cp = &r.campaign;
    let fixed = |v: &[u8]| {
        v.iter()
            .map(|x| {
                if *x == u8::MAX {
                    "-".to_string()
                } else {
                    x.to_string()
                }
            })
            .collect::<Vec<_>>()
            .join(",")
    };
    s.push_str(&format!(
        "campaign on={} game={} ruins_cap={} both_moons={} objectives={} fixed_maps={} fixed_monsters={} overrides={} pending={},{} games_won={} objectives_met={} upgrades={} kills={} alpha_kills={} ruined={} mech_deaths={} blocked={} turns={}\n",
        u8::from(cp.on),
        cp.game + 1,
        cp.ruins_cap,
        u8::from(cp.both_moons),
        u8::from(cp.objectives),
        fixed(&cp.fixed_maps),
        fixed(&cp.fixed_monsters),
        fixed(&cp.overrides),
        cp.pending[0],
        cp.pending[1],
        cp.games_won,
        cp.objectives_met,
        cp.upgrades,
        cp.kills,
        cp.alpha_kills,
        cp.ruined,
        cp.mech_deaths,
        cp.blocked,
        cp.turns
    ));
    if cp.rules != switches::rule::DEFAULT || cp.moon != switches::moon::LEFT {
        let on: Vec<&str> = switches::rule::AXES
            .iter()
            .filter(|(_, b)| cp.rules & b != 0)
            .map(|(_, b)| switches::rule::name(*b))
            .collect();
        let off: Vec<&str> = switches::rule::MEASURED
            .iter()
            .filter(|(_, b)| cp.rules & b == 0)
            .map(|(n, _)| *n)
            .collect();
        s.push_str(&format!(
            "rules on={} moon={}{}\n",
            if on.is_empty() {
                "-".to_string()
            } else {
                on.join(",")
            },
            switches::moon::NAMES[cp.moon as usize % 3],
            if off.is_empty() {
                String::new()
            } else {
                format!(" off={}", off.join(","))
            }
        ));
    }
    let t = &r.tally;
    s.push_str(&format!(
        "tally kills={} alpha_kills={} ruined={},{} spawned={} blocked={} mech_deaths={} monster_damage={}\n",
        t.kills, t.alpha_kills, t.ruined[0], t.ruined[1], t.spawned, t.blocked, t.mech_deaths, t.monster_damage
    ));
    if r.phase == Phase::Choice {
        let done: Vec<String> = (0..4)
            .filter(|i| r.cont_done & (1 << i) != 0)
            .map(|i| (i + 1).to_string())
            .collect();
        s.push_str(&format!(
            "choice resume={} done={} keep={}\n",
            r.cont.name(),
            if done.is_empty() {
                "-".to_string()
            } else {
                done.join(",")
            },
            coords(r.keep)
        ));
    }
    s.push_str("terrain\n");
    for row in 0..ROWS {
        for col in 0..COLS {
            s.push(terrain_char(r, tile(col, row)));
        }
        s.push('\n');
    }
    s.push_str("spawns\n");
    for row in 0..ROWS {
        for col in 0..COLS {
            let t = tile(col, row);
            match r.spawn.iter().position(|&x| x == t) {
                Some(n) => s.push(char::from(b'1' + n as u8)),
                None => s.push('.'),
            }
        }
        s.push('\n');
    }
    s
}

fn terrain_char(r: &Rift, t: Tile) -> char {
    let b = bit(t);
    if r.buildings & b != 0 {
        'B'
    } else if r.mountains & b != 0 {
        'M'
    } else if r.water & b != 0 {
        'W'
    } else if r.forest & b != 0 {
        'F'
    } else if r.desert & b != 0 {
        'D'
    } else {
        '.'
    }
}

struct Ctx {
    line: usize,
}

impl Ctx {
    fn err(&self, m: impl Into<String>) -> PositionError {
        error(self.line, m)
    }
}

fn one_coord(ctx: &Ctx, key: &str, v: &str) -> Result<Tile, PositionError> {
    if v == "-" {
        return Ok(NO_TILE);
    }
    parse_coord(v).ok_or_else(|| {
        ctx.err(format!(
            "{key}={v}: expected (col,row) with col 1-{COLS} and row 1-{ROWS}"
        ))
    })
}

fn coord_list(ctx: &Ctx, key: &str, v: &str) -> Result<Bits, PositionError> {
    if v == "-" || v.is_empty() {
        return Ok(0);
    }
    let mut b = 0;
    for part in v.split(')').filter(|p| !p.trim().is_empty()) {
        let p = part.trim_start_matches(',');
        let t = parse_coord(&format!("{p})"))
            .ok_or_else(|| ctx.err(format!("{key}: bad coordinate '{p})'")))?;
        b |= bit(t);
    }
    Ok(b)
}

fn statuses(ctx: &Ctx, key: &str, v: &str) -> Result<u8, PositionError> {
    if v == "-" {
        return Ok(0);
    }
    let mut s = 0;
    for p in v.split(',') {
        let st =
            Status::from_name(p).ok_or_else(|| ctx.err(format!("{key}: unknown status '{p}'")))?;
        let b = super::state::status_bit(st);
        if b == 0 {
            return Err(ctx.err(format!("{key}: {p} does not attach to units")));
        }
        s |= b;
    }
    Ok(s)
}

fn find(
    ctx: &Ctx,
    what: &str,
    name: &str,
    idx: Option<u8>,
    all: Vec<&str>,
) -> Result<u8, PositionError> {
    idx.ok_or_else(|| {
        ctx.err(format!(
            "unknown {what} '{name}' (valid: {})",
            all.join(", ")
        ))
    })
}

/// Reads a position written by [`write()`] (or by hand).
///
/// # Errors
/// A [`PositionError`] with the 1-based line and what was wrong: an unknown key or name, a bad
/// number or coordinate, a grid row of the wrong width, two units on one tile, a card or pilot
/// named twice, a fixed campaign card that is not a card of the content.
pub fn parse(text: &str) -> Result<Rift, PositionError> {
    let mut ctx = Ctx { line: 0 };
    // Content first (other lines name cards in it).
    let mut content: &'static Content = content::builtin();
    for line in PositionLines::new(text) {
        if line.key() == "content" && !line.rest().is_empty() {
            ctx.line = line.number;
            let src = line.rest();
            if src != "builtin" {
                content = crate::content::load_cached(
                    std::path::Path::new(src),
                    super::content_file::parse,
                )
                .map_err(|e| ctx.err(e.0))?;
            }
        }
    }
    let c = content;
    let mut r = <Rift as crate::Game>::new_game(
        &super::RiftSetup {
            content: c,
            ..super::RiftSetup::default_setup()
        },
        &mut <crate::game::GameRng as rand::SeedableRng>::seed_from_u64(0),
    );
    // Start from an empty board.
    r.clear_board();
    r.tally = Tally::default();
    r.campaign_die = 6;
    r.turn = 1;
    r.phase = Phase::Actions;
    r.result = 0;
    r.decisions = 0;
    for m in &mut r.mechs {
        *m = Mech {
            tile: NO_TILE,
            hp: 0,
            ..*m
        };
    }
    free_defaults(&mut r, &named_crews(text, c));
    let header_line = position_text::header(text, "rift")?;
    let mut compass_given = false;
    // 1-based line of each kind of line (0 = absent), for consistency errors.
    let (mut clock_line, mut campaign_line, mut tokens_line) = (0usize, 0usize, 0usize);
    let mut choice_line = 0usize;
    let mut mech_line = [0usize; 2];
    // Line giving each mech's `card=` and `pilot=` (0 = not given: the empty board's default).
    let (mut card_line, mut pilot_line) = ([0usize; 2], [0usize; 2]);
    let mut monster_line = [0usize; 4];
    let mut lines = PositionLines::new(text);
    while let Some(line) = lines.next() {
        ctx.line = line.number;
        let words = line.words();
        match words[0] {
            "rift-position" if line.number == header_line => {}
            "content" => {}
            "maps" => {
                let v = words
                    .get(1)
                    .ok_or_else(|| ctx.err("maps: expected LEFT,RIGHT"))?;
                let parts: Vec<&str> = v.split(',').collect();
                if parts.len() != 2 {
                    return Err(ctx.err("maps: expected LEFT,RIGHT"));
                }
                for (k, p) in parts.iter().enumerate() {
                    let n = word_name(p);
                    r.maps[k] = find(
                        &ctx,
                        "map card",
                        &n,
                        c.map_index(&n),
                        c.maps.iter().map(|m| m.name.as_str()).collect(),
                    )?;
                    // Setup, step 1: two random map cards, so two different ones.
                    if r.maps[..k].contains(&r.maps[k]) {
                        return Err(ctx.err(format!(
                            "maps: {} named twice (a game draws two different map cards)",
                            name_word(&c.maps[r.maps[k] as usize].name)
                        )));
                    }
                }
            }
            "monster_cards" => {
                let v = words
                    .get(1)
                    .ok_or_else(|| ctx.err("monster_cards: expected three names"))?;
                let parts: Vec<&str> = v.split(',').collect();
                if parts.len() != 3 {
                    return Err(ctx.err("monster_cards: expected three names separated by commas"));
                }
                for (k, p) in parts.iter().enumerate() {
                    let n = word_name(p);
                    r.monster_cards[k] = find(
                        &ctx,
                        "monster card",
                        &n,
                        c.monster_index(&n),
                        c.monsters.iter().map(|m| m.name.as_str()).collect(),
                    )?;
                    // Setup, step 4: three random monster cards, so three different ones.
                    if r.monster_cards[..k].contains(&r.monster_cards[k]) {
                        return Err(ctx.err(format!(
                            "monster_cards: {} named twice (a game draws three different monster cards)",
                            name_word(&c.monsters[r.monster_cards[k] as usize].name)
                        )));
                    }
                }
            }
            "clock" => {
                clock_line = ctx.line;
                let m = pairs(
                    ctx.line,
                    &words[1..],
                    &[
                        "campaign_die",
                        "die",
                        "die_card",
                        "compass",
                        "seek",
                        "turn",
                        "phase",
                        "ruins",
                        "alpha_limit",
                        "extra_turn",
                        "turret_used",
                        "result",
                        "decisions",
                    ],
                )?;
                for (k, v) in m {
                    match k {
                        "campaign_die" => r.campaign_die = number(ctx.line, k, v)?,
                        "die" => {
                            r.die = number(ctx.line, k, v)?;
                            if !(1..=6).contains(&r.die) {
                                return Err(ctx.err("die: must be 1-6"));
                            }
                        }
                        "die_card" => {
                            let d: u8 = number(ctx.line, k, v)?;
                            if !(1..=3).contains(&d) {
                                return Err(ctx.err("die_card: must be 1-3"));
                            }
                            r.die_card = d - 1;
                        }
                        "turn" => r.turn = number(ctx.line, k, v)?,
                        "compass" => {
                            let ds: Vec<Dir> = v
                                .chars()
                                .filter_map(|ch| Dir::parse(&ch.to_string()))
                                .collect();
                            let perm = ds.len() == 4 && Dir::ALL.iter().all(|d| ds.contains(d));
                            if !perm || v.len() != 4 {
                                return Err(ctx.err(format!("compass={v}: expected the four letters N E S W in priority order, e.g. ESWN")));
                            }
                            r.compass = super::state::pack_compass(&[ds[0], ds[1], ds[2], ds[3]]);
                            compass_given = true;
                        }
                        "seek" => {
                            compass_given = true;
                            r.seek = match v {
                                "east" | "+1" | "1" => 1,
                                "west" | "-1" => -1,
                                _ => {
                                    return Err(ctx.err(format!("seek={v}: expected east or west")));
                                }
                            }
                        }
                        "phase" => {
                            r.phase = Phase::from_name(v).ok_or_else(|| {
                                ctx.err(format!(
                                    "phase={v}: expected deploy, actions, reward, choice or over"
                                ))
                            })?;
                        }
                        "ruins" => {
                            r.ruins = number(ctx.line, k, v)?;
                            if r.ruins > 3 {
                                return Err(ctx.err("ruins: must be 0-3"));
                            }
                        }
                        "alpha_limit" => r.alpha_limit = number(ctx.line, k, v)?,
                        "extra_turn" => r.extra_turn = flag(ctx.line, k, v)?,
                        "turret_used" => r.turret_used = flag(ctx.line, k, v)?,
                        "result" => {
                            r.result = number(ctx.line, k, v)?;
                            if r.result > 3 {
                                return Err(
                                    ctx.err("result: must be 0 (going on), 1 (won), 2 or 3 (lost)")
                                );
                            }
                        }
                        _ => r.decisions = number(ctx.line, k, v)?,
                    }
                }
            }
            "objectives" => {
                let m = pairs(ctx.line, &words[1..], &["left", "right"])?;
                for (k, v) in m {
                    let side = usize::from(k == "right");
                    if v == "-" {
                        continue;
                    }
                    let (name, colour) = v
                        .split_once(':')
                        .ok_or_else(|| ctx.err(format!("{k}: expected NAME:yellow or NAME:red")))?;
                    let n = word_name(name);
                    let idx = c
                        .objectives
                        .iter()
                        .position(|o| o.name.eq_ignore_ascii_case(&n))
                        .map(|x| x as u8);
                    r.objectives[side] = find(
                        &ctx,
                        "objective",
                        &n,
                        idx,
                        c.objectives.iter().map(|o| o.name.as_str()).collect(),
                    )?;
                    r.yellow[side] = match colour {
                        "yellow" => true,
                        "red" => false,
                        _ => return Err(ctx.err(format!("{k}: colour must be yellow or red"))),
                    };
                }
            }
            "finale" => {
                if let Some(v) = words.get(1)
                    && *v != "-"
                {
                    for p in v.split(',') {
                        let f = Finale::parse(p)
                            .ok_or_else(|| ctx.err(format!("finale: unknown effect '{p}'")))?;
                        r.finale |= 1 << f as u8;
                    }
                }
            }
            "mech" => {
                let idx = match words.get(1) {
                    Some(&"A") => 0,
                    Some(&"B") => 1,
                    _ => return Err(ctx.err("mech: expected A or B")),
                };
                if mech_line[idx] != 0 {
                    return Err(ctx.err(format!(
                        "mech {} is given twice (first on line {})",
                        words[1], mech_line[idx]
                    )));
                }
                mech_line[idx] = ctx.line;
                let m = pairs(
                    ctx.line,
                    &words[2..],
                    &[
                        "card", "pilot", "levels", "tile", "hp", "max_hp", "status", "moved",
                        "done",
                    ],
                )?;
                let mut mech = r.mechs[idx];
                let mut max_given = false;
                for (k, v) in m {
                    match k {
                        "card" => {
                            let n = v.replace('_', " ");
                            mech.card = find(
                                &ctx,
                                "mech",
                                &n,
                                c.mech_index(&n),
                                c.mechs.iter().map(|m| m.name.as_str()).collect(),
                            )?;
                            card_line[idx] = ctx.line;
                        }
                        "pilot" => {
                            let n = v.replace('_', " ");
                            mech.pilot = find(
                                &ctx,
                                "pilot",
                                &n,
                                c.pilot_index(&n),
                                c.pilots.iter().map(|m| m.name.as_str()).collect(),
                            )?;
                            pilot_line[idx] = ctx.line;
                        }
                        "levels" => {
                            let (a, b) = v
                                .split_once(',')
                                .ok_or_else(|| ctx.err("levels: expected MECH,PILOT"))?;
                            mech.mech_level = number(ctx.line, k, a)?;
                            mech.pilot_level = number(ctx.line, k, b)?;
                            if mech.mech_level > 3 || mech.pilot_level > 3 {
                                return Err(ctx.err("levels: each 0-3"));
                            }
                        }
                        "tile" => mech.tile = one_coord(&ctx, k, v)?,
                        "hp" => mech.hp = number(ctx.line, k, v)?,
                        "max_hp" => {
                            mech.max_hp = number(ctx.line, k, v)?;
                            max_given = true;
                        }
                        "status" => mech.status = statuses(&ctx, k, v)?,
                        "moved" => mech.moved = flag(ctx.line, k, v)?,
                        _ => mech.done = flag(ctx.line, k, v)?,
                    }
                }
                r.mechs[idx] = mech;
                if !max_given {
                    r.mechs[idx].max_hp = r.mech_max_hp(idx);
                }
                if r.mechs[idx].hp > r.mechs[idx].max_hp {
                    return Err(ctx.err(format!(
                        "hp {} is above max_hp {}",
                        r.mechs[idx].hp, r.mechs[idx].max_hp
                    )));
                }
                if r.mechs[idx].hp == 0 {
                    r.mechs[idx].tile = NO_TILE;
                }
            }
            "monster" => {
                let n: usize = words
                    .get(1)
                    .and_then(|w| w.parse().ok())
                    .filter(|n| (1..=4).contains(n))
                    .ok_or_else(|| ctx.err("monster: expected a colour 1-4"))?;
                if monster_line[n - 1] != 0 {
                    return Err(ctx.err(format!(
                        "monster {n} is given twice (first on line {})",
                        monster_line[n - 1]
                    )));
                }
                monster_line[n - 1] = ctx.line;
                let m = pairs(
                    ctx.line,
                    &words[2..],
                    &[
                        "at", "card", "place", "alpha", "tile", "hp", "status", "aim", "order",
                        "from", "holds",
                    ],
                )?;
                let mut mon = Monster::SUPPLY;
                let mut hp_given = false;
                for (k, v) in m {
                    match k {
                        "at" => {
                            mon.at = match v {
                                "supply" => Where::Supply,
                                "detected" => Where::Detected,
                                "map" => Where::Map,
                                _ => {
                                    return Err(ctx
                                        .err(format!("at={v}: expected supply, detected or map")));
                                }
                            }
                        }
                        "card" => {
                            let d: u8 = number(ctx.line, k, v)?;
                            if !(1..=3).contains(&d) {
                                return Err(ctx.err("card: must be 1-3 (position in the row)"));
                            }
                            mon.card = d - 1;
                        }
                        "place" => {
                            mon.place = number(ctx.line, k, v)?;
                            if mon.place > 3 {
                                return Err(ctx.err("place: must be 0-3"));
                            }
                        }
                        "alpha" => mon.alpha = flag(ctx.line, k, v)?,
                        "tile" => mon.tile = one_coord(&ctx, k, v)?,
                        "hp" => {
                            mon.hp = number(ctx.line, k, v)?;
                            hp_given = true;
                        }
                        "status" => mon.status = statuses(&ctx, k, v)?,
                        "order" => mon.order = number(ctx.line, k, v)?,
                        "from" => mon.aim_from = one_coord(&ctx, k, v)?,
                        "holds" => {
                            mon.holds = match v {
                                "A" => 1,
                                "B" => 2,
                                "AB" => 3,
                                _ => {
                                    return Err(ctx.err(format!("holds={v}: expected A, B or AB")));
                                }
                            }
                        }
                        _ => {
                            if v == "-" {
                                mon.aim_dir = NO_AIM;
                            } else {
                                let mut ch = v.chars();
                                let d = ch.next().and_then(|x| Dir::parse(&x.to_string())).ok_or_else(|| ctx.err(format!("aim={v}: expected a direction letter and a distance, e.g. E1")))?;
                                mon.aim_dir = d as u8;
                                mon.aim_dist = number(ctx.line, k, ch.as_str())?;
                            }
                        }
                    }
                }
                if mon.at == Where::Map && !hp_given {
                    let card = &c.monsters[r.monster_cards[mon.card as usize] as usize];
                    mon.hp = if mon.alpha {
                        card.alpha.hp
                    } else {
                        card.normal.hp
                    };
                }
                if mon.at == Where::Map && mon.alpha && mon.place < 2 && mon.place != 0 {
                    return Err(ctx.err("an Alpha monster sits on place 2 or 3 (the Alpha tracks)"));
                }
                if mon.at != Where::Supply && mon.tile == NO_TILE {
                    return Err(ctx.err("a detected or mapped monster needs a tile"));
                }
                if mon.at == Where::Map && mon.alpha && mon.place < 2 {
                    mon.place = 3;
                }
                r.monsters[n - 1] = mon;
            }
            "tokens" => {
                tokens_line = ctx.line;
                let m = pairs(
                    ctx.line,
                    &words[1..],
                    &[
                        "rock",
                        "smoke",
                        "fire",
                        "acid",
                        "frozen_buildings",
                        "shield_buildings",
                        "acid_tiles",
                    ],
                )?;
                for (k, v) in m {
                    let b = coord_list(&ctx, k, v)?;
                    match k {
                        "rock" => r.rock = b,
                        "smoke" => r.smoke = b,
                        "fire" => r.fire = b,
                        "acid" => r.acid = b,
                        "frozen_buildings" => r.frozen_b = b,
                        "shield_buildings" => r.shield_b = b,
                        _ => r.acid_tiles = b,
                    }
                }
            }
            "campaign" => {
                campaign_line = ctx.line;
                let m = pairs(
                    ctx.line,
                    &words[1..],
                    &[
                        "on",
                        "game",
                        "ruins_cap",
                        "both_moons",
                        "objectives",
                        "fixed_maps",
                        "fixed_monsters",
                        "overrides",
                        "pending",
                        "games_won",
                        "objectives_met",
                        "upgrades",
                        "kills",
                        "alpha_kills",
                        "ruined",
                        "mech_deaths",
                        "blocked",
                        "turns",
                    ],
                )?;
                let list =
                    |ctx: &Ctx, k: &str, v: &str, n: usize| -> Result<Vec<u8>, PositionError> {
                        let parts: Vec<&str> = v.split(',').collect();
                        if parts.len() != n {
                            return Err(
                                ctx.err(format!("{k}: expected {n} values separated by commas"))
                            );
                        }
                        parts
                            .iter()
                            .map(|p| {
                                if *p == "-" {
                                    Ok(u8::MAX)
                                } else {
                                    number(ctx.line, k, p)
                                }
                            })
                            .collect()
                    };
                // Fixed cards of the games to come: card numbers of the content (0-based) or
                // `-` (drawn), each card at most once (Setup 1 and 4: different cards).
                let cards = |ctx: &Ctx,
                             k: &str,
                             v: &str,
                             n: usize,
                             count: usize,
                             what: &str|
                 -> Result<Vec<u8>, PositionError> {
                    let l = list(ctx, k, v, n)?;
                    for (i, &x) in l.iter().enumerate() {
                        if x != u8::MAX && x as usize >= count {
                            return Err(ctx.err(format!(
                                "{k}: {x} is not a {what} card (0..{count}, or - for drawn)"
                            )));
                        }
                        if x != u8::MAX && l[..i].contains(&x) {
                            return Err(ctx.err(format!(
                                "{k}: {what} card {x} named twice (a game draws different cards)"
                            )));
                        }
                    }
                    Ok(l)
                };
                let cp = &mut r.campaign;
                for (k, v) in m {
                    match k {
                        "on" => cp.on = flag(ctx.line, k, v)?,
                        "game" => {
                            let g: u8 = number(ctx.line, k, v)?;
                            if g == 0 || g as usize > c.campaign.len() {
                                return Err(
                                    ctx.err(format!("game: must be 1-{}", c.campaign.len()))
                                );
                            }
                            cp.game = g - 1;
                        }
                        "ruins_cap" => cp.ruins_cap = number(ctx.line, k, v)?,
                        "both_moons" => cp.both_moons = flag(ctx.line, k, v)?,
                        "objectives" => cp.objectives = flag(ctx.line, k, v)?,
                        "fixed_maps" => {
                            let l = cards(&ctx, k, v, 2, c.maps.len(), "map")?;
                            cp.fixed_maps = [l[0], l[1]];
                        }
                        "fixed_monsters" => {
                            let l = cards(&ctx, k, v, 3, c.monsters.len(), "monster")?;
                            cp.fixed_monsters = [l[0], l[1], l[2]];
                        }
                        "overrides" => {
                            let l = list(&ctx, k, v, 3)?;
                            cp.overrides = [l[0], l[1], l[2]];
                        }
                        "pending" => {
                            let l = list(&ctx, k, v, 2)?;
                            cp.pending = [l[0], l[1]];
                        }
                        "games_won" => cp.games_won = number(ctx.line, k, v)?,
                        "objectives_met" => cp.objectives_met = number(ctx.line, k, v)?,
                        "upgrades" => cp.upgrades = number(ctx.line, k, v)?,
                        "kills" => cp.kills = number(ctx.line, k, v)?,
                        "alpha_kills" => cp.alpha_kills = number(ctx.line, k, v)?,
                        "ruined" => cp.ruined = number(ctx.line, k, v)?,
                        "mech_deaths" => cp.mech_deaths = number(ctx.line, k, v)?,
                        "blocked" => cp.blocked = number(ctx.line, k, v)?,
                        _ => cp.turns = number(ctx.line, k, v)?,
                    }
                }
            }
            "rules" => {
                let m = pairs(ctx.line, &words[1..], &["on", "moon", "off"])?;
                r.campaign.rules = switches::rule::DEFAULT;
                for (k, v) in m {
                    if k == "moon" {
                        r.campaign.moon = switches::moon::NAMES
                            .iter()
                            .position(|n| *n == v)
                            .ok_or_else(|| {
                                ctx.err(format!("moon={v}: expected left, right or random"))
                            })? as u8;
                        continue;
                    }
                    // `on` lists the switches that are on; `off` the measured-only readings
                    // that are off (CONTENT.md, "Measured effect of each contested reading").
                    let list: &[(&str, u32)] = if k == "on" {
                        for (_, b) in switches::rule::AXES {
                            r.campaign.rules &= !b;
                        }
                        &switches::rule::AXES
                    } else {
                        &switches::rule::MEASURED
                    };
                    for p in v.split(',').filter(|p| *p != "-") {
                        let bit = list
                            .iter()
                            .find(|(_, b)| switches::rule::name(*b) == p)
                            .map(|(_, b)| *b)
                            .ok_or_else(|| {
                                let names: Vec<&str> =
                                    list.iter().map(|(_, b)| switches::rule::name(*b)).collect();
                                ctx.err(format!(
                                    "{k}: unknown rule '{p}' (valid: {})",
                                    names.join(", ")
                                ))
                            })?;
                        if k == "on" {
                            r.campaign.rules |= bit;
                        } else {
                            r.campaign.rules &= !bit;
                        }
                    }
                }
            }
            "choice" => {
                choice_line = ctx.line;
                let m = pairs(ctx.line, &words[1..], &["resume", "done", "keep"])?;
                for (k, v) in m {
                    match k {
                        "resume" => {
                            r.cont = Step::from_name(v).ok_or_else(|| {
                                ctx.err(format!("resume={v}: expected one of {}", Step::names()))
                            })?;
                        }
                        "done" => {
                            r.cont_done = 0;
                            if v != "-" {
                                for p in v.split(',') {
                                    let n: u8 = number(ctx.line, k, p)?;
                                    if !(1..=4).contains(&n) {
                                        return Err(ctx.err("done: monster colours are 1-4"));
                                    }
                                    r.cont_done |= 1 << (n - 1);
                                }
                            }
                        }
                        _ => r.keep = coord_list(&ctx, k, v)?,
                    }
                }
            }
            "tally" => {
                let m = pairs(
                    ctx.line,
                    &words[1..],
                    &[
                        "kills",
                        "alpha_kills",
                        "ruined",
                        "spawned",
                        "blocked",
                        "mech_deaths",
                        "monster_damage",
                    ],
                )?;
                for (k, v) in m {
                    match k {
                        "kills" => r.tally.kills = number(ctx.line, k, v)?,
                        "alpha_kills" => r.tally.alpha_kills = number(ctx.line, k, v)?,
                        "ruined" => {
                            let (a, b) = v
                                .split_once(',')
                                .ok_or_else(|| ctx.err("ruined: expected LEFT,RIGHT"))?;
                            r.tally.ruined = [number(ctx.line, k, a)?, number(ctx.line, k, b)?];
                        }
                        "spawned" => r.tally.spawned = number(ctx.line, k, v)?,
                        "blocked" => r.tally.blocked = number(ctx.line, k, v)?,
                        "mech_deaths" => r.tally.mech_deaths = number(ctx.line, k, v)?,
                        _ => r.tally.monster_damage = number(ctx.line, k, v)?,
                    }
                }
            }
            "terrain" | "spawns" => {
                let is_terrain = words[0] == "terrain";
                for row in 0..ROWS {
                    ctx.line += 1;
                    let l = lines.raw_line().map_or("", |r| r.text);
                    let chars: Vec<char> = l.chars().collect();
                    if chars.len() != COLS {
                        return Err(ctx.err(format!(
                            "{} row {}: expected {COLS} characters, got '{l}'",
                            words[0],
                            row + 1
                        )));
                    }
                    for (col, ch) in chars.into_iter().enumerate() {
                        let t = tile(col, row);
                        let b = bit(t);
                        if is_terrain {
                            match ch {
                                '.' => {}
                                'B' => r.buildings |= b,
                                'M' => r.mountains |= b,
                                'W' => r.water |= b,
                                'F' => r.forest |= b,
                                'D' => r.desert |= b,
                                _ => {
                                    return Err(ctx.err(format!(
                                        "terrain: unknown letter '{ch}' (valid: . B M W F D)"
                                    )));
                                }
                            }
                        } else if ch != '.' {
                            let n = ch.to_digit(10).filter(|n| (1..=8).contains(n)).ok_or_else(
                                || ctx.err(format!("spawns: '{ch}' is not a spawn number 1-8")),
                            )?;
                            if r.spawn[n as usize - 1] != NO_TILE {
                                return Err(ctx.err(format!("spawns: spawn number {n} used twice")));
                            }
                            r.spawn[n as usize - 1] = t;
                        }
                    }
                }
            }
            other => return Err(ctx.err(format!("unknown line '{other}'"))),
        }
    }
    if !compass_given {
        r.take_compass_from_card();
    }
    if r.phase == Phase::Choice {
        r.choice = true;
    } else if choice_line != 0 {
        return Err(PositionError {
            line: choice_line,
            message: "a choice line goes with phase=choice".to_string(),
        });
    }
    check(
        &r,
        clock_line,
        campaign_line,
        tokens_line,
        &mech_line,
        &monster_line,
    )?;
    distinct_crews(&r, &card_line, &pilot_line)?;
    Ok(r)
}

/// A readable board for the trace and `Display`: a header line, the grid, and a line per unit.
///
/// Grid cells are 3 characters: the unit (`A`/`B` mechs, `1`-`4` monsters, `R` rock) or the
/// terrain (`.` ground, `B` building, `M` mountain, `~` water, `F` forest, `D` desert), then a
/// cube mark (`c` detection) or the spawn number, then a token (`s` smoke, `f` fire, `a` acid,
/// `*` frozen, `+` shield).
pub fn render(r: &Rift) -> String {
    let c = r.content;
    let mut s = String::new();
    let cards: Vec<String> = (0..3u8)
        .map(|k| {
            format!(
                "{}{} {}",
                if k == r.die_card { "*" } else { "" },
                k + 1,
                r.card_name(k)
            )
        })
        .collect();
    let (compass, seek) = r.compass();
    s.push_str(&format!(
        "turn {} | campaign die {} | monster die {} on card {} | compass {} | seek {} | ruins {} | phase {:?}\n",
        r.turn,
        r.campaign_die,
        r.die,
        r.die_card + 1,
        compass.iter().map(|d| d.letter()).collect::<String>(),
        if seek > 0 { "east" } else { "west" },
        r.ruins,
        r.phase
    ));
    s.push_str(&format!("cards: {}\n", cards.join("  ")));
    s.push_str("     1  2  3  4  5  6\n");
    let water = r.water_now();
    for row in 0..ROWS {
        s.push_str(&format!("{row:>2}  ", row = row + 1));
        for col in 0..COLS {
            let t = tile(col, row);
            let b = bit(t);
            let unit = if let Some(i) = r.mech_at(t) {
                Some(['A', 'B'][i])
            } else if let Some(i) = r.monster_at(t) {
                Some(char::from(b'1' + i as u8))
            } else if r.rock & b != 0 {
                Some('R')
            } else {
                None
            };
            let terr = if water & b != 0 && r.buildings & b == 0 && r.mountains & b == 0 {
                '~'
            } else {
                terrain_char(r, t)
            };
            let first = unit.unwrap_or(terr);
            let cube = r
                .monsters
                .iter()
                .any(|m| m.at == Where::Detected && m.tile == t);
            let second = if cube {
                'c'
            } else if let Some(n) = r.spawn.iter().position(|&x| x == t) {
                char::from(b'1' + n as u8)
            } else if unit.is_some() {
                terr
            } else {
                ' '
            };
            let third = if r.smoke & b != 0 {
                's'
            } else if r.fire & b != 0 {
                'f'
            } else if r.acid & b != 0 {
                'a'
            } else if r.frozen_b & b != 0 {
                '*'
            } else if r.shield_b & b != 0 {
                '+'
            } else {
                ' '
            };
            s.push(first);
            s.push(second);
            s.push(third);
        }
        s.push('\n');
    }
    for (i, m) in r.mechs.iter().enumerate() {
        s.push_str(&format!(
            "  mech {} {} ({}) at {} hp {}/{} status {}{}{}\n",
            ['A', 'B'][i],
            c.mechs[m.card as usize].name,
            c.pilots[m.pilot as usize].name,
            coord(m.tile),
            m.hp,
            m.max_hp,
            status_list(m.status),
            if m.moved { " moved" } else { "" },
            if m.done { " done" } else { "" }
        ));
    }
    for (i, m) in r.monsters.iter().enumerate() {
        match m.at {
            Where::Map => {
                let aim = if m.aim_dir == NO_AIM {
                    "aims nothing".to_string()
                } else {
                    let d = Dir::from_index(m.aim_dir);
                    let t = r
                        .aim_tile(&r.stats(i).attack, m.aim_origin(), d, m.aim_dist)
                        .unwrap_or(NO_TILE);
                    format!("aims {} at {}", d.letter(), coord(t))
                };
                s.push_str(&format!(
                    "  {} (card {}, place {}) at {} hp {} status {} {}\n",
                    r.monster_name(i),
                    m.card + 1,
                    m.place,
                    coord(m.tile),
                    m.hp,
                    status_list(m.status),
                    aim
                ));
            }
            Where::Detected => s.push_str(&format!(
                "  #{} detected: {} at {}\n",
                i + 1,
                r.card_name(m.card),
                coord(m.tile)
            )),
            Where::Supply => {}
        }
    }
    s
}

/// `A`, `B` or `AB` for mech bits (bit 0 mech A, bit 1 mech B).
fn mech_letters(b: u8) -> &'static str {
    ["-", "A", "B", "AB"][(b & 3) as usize]
}

/// Each mech's `card=` and `pilot=` as the position names them, `[mech][0 card, 1 pilot]`
/// (`None`: not given, or not a name of the content, which the reading proper refuses at its
/// line), read ahead of the other lines so that a default can make way for them.
fn named_crews(text: &str, c: &Content) -> [[Option<u8>; 2]; 2] {
    let mut named = [[None; 2]; 2];
    for line in PositionLines::new(text) {
        let words = line.words();
        let idx = match (words.first(), words.get(1)) {
            (Some(&"mech"), Some(&"A")) => 0,
            (Some(&"mech"), Some(&"B")) => 1,
            _ => continue,
        };
        for w in &words[2..] {
            match w.split_once('=') {
                Some(("card", v)) => named[idx][0] = c.mech_index(&v.replace('_', " ")),
                Some(("pilot", v)) => named[idx][1] = c.pilot_index(&v.replace('_', " ")),
                _ => {}
            }
        }
    }
    named
}

/// Moves a default out of the way of a name: a mech whose `card=` (or `pilot=`) is not given
/// keeps the default of the seed-0 draw unless the other mech names that very card (pilot); then
/// it takes the content's first mech card (pilot) the other mech does not name. Defaults that
/// clash with nothing are kept, so every position that loaded before means what it meant.
fn free_defaults(r: &mut Rift, named: &[[Option<u8>; 2]; 2]) {
    let c = r.content;
    for (k, count) in [(0, c.mechs.len()), (1, c.pilots.len())] {
        for i in 0..2 {
            let other = named[1 - i][k];
            let m = &mut r.mechs[i];
            let current = if k == 0 { &mut m.card } else { &mut m.pilot };
            if named[i][k].is_none()
                && other == Some(*current)
                && let Some(free) = (0..count).map(|x| x as u8).find(|&x| Some(x) != other)
            {
                *current = free;
            }
        }
    }
}

/// Refuses two mechs with one mech card or one pilot: Setup, steps 2-3, tucks a pilot beneath a
/// mech, then a second pilot beneath a second mech (one card of each in the box). Reported at the
/// later line naming the shared card; `card_line` and `pilot_line` give the line of each mech's
/// `card=` and `pilot=` (0 = not given, so a default, which [`free_defaults`] has already moved
/// off any card or pilot the other mech names: the message for it is a safeguard).
fn distinct_crews(
    r: &Rift,
    card_line: &[usize; 2],
    pilot_line: &[usize; 2],
) -> Result<(), PositionError> {
    let c = r.content;
    let [a, b] = r.mechs;
    for (same, lines, key, name, what) in [
        (
            a.card == b.card,
            card_line,
            "card",
            &c.mechs[a.card as usize].name,
            "mechs",
        ),
        (
            a.pilot == b.pilot,
            pilot_line,
            "pilot",
            &c.pilots[a.pilot as usize].name,
            "pilots",
        ),
    ] {
        if !same {
            continue;
        }
        let i = usize::from(lines[1] > lines[0]);
        let other = ['A', 'B'][1 - i];
        let source = if lines[1 - i] == 0 {
            format!("by default, as no {key}= is given for it")
        } else {
            format!("on line {}", lines[1 - i])
        };
        return Err(PositionError {
            line: lines[i],
            message: format!(
                "mech {}: {key}={} is mech {other}'s too, {source} (a game uses two different {what})",
                ['A', 'B'][i],
                name_word(name)
            ),
        });
    }
    Ok(())
}

/// The rules a position must keep to be a state the game can reach, each reported at the line
/// that breaks it: one unit a tile, units off buildings and mountains, HP in range, at most 2
/// monsters a card on distinct places, no walker on water, tokens within the supply and on
/// fitting tiles, and a phase that agrees with the result and the pending rewards.
fn check(
    r: &Rift,
    clock: usize,
    campaign: usize,
    tokens: usize,
    mech_line: &[usize; 2],
    monster_line: &[usize; 4],
) -> Result<(), PositionError> {
    let err = |line: usize, message: String| PositionError { line, message };
    let mut seen: Bits = 0;
    let mut seen_line = [0usize; super::board::TILES];
    let mut put = |t: Tile, line: usize, what: String| -> Result<(), PositionError> {
        if t == NO_TILE {
            return Ok(());
        }
        if seen & bit(t) != 0 {
            return Err(err(
                line,
                format!(
                    "{what} is on {}, which line {} already holds",
                    coord(t),
                    seen_line[t as usize]
                ),
            ));
        }
        if (r.buildings | r.mountains) & bit(t) != 0 {
            return Err(err(
                line,
                format!("{what} stands on a building or mountain at {}", coord(t)),
            ));
        }
        seen |= bit(t);
        seen_line[t as usize] = line;
        Ok(())
    };
    for (i, m) in r.mechs.iter().enumerate() {
        if m.alive() {
            put(m.tile, mech_line[i], format!("mech {}", ['A', 'B'][i]))?;
        }
    }
    let water = if r.has(Finale::WaterAsGround) {
        0
    } else {
        r.water_now()
    };
    let mut per_card = [0u8; 3];
    let mut places = [[false; 4]; 3];
    for (i, m) in r.monsters.iter().enumerate() {
        let line = monster_line[i];
        if m.at != Where::Supply {
            per_card[m.card as usize] += 1;
            if per_card[m.card as usize] > 2 {
                return Err(err(
                    line,
                    format!(
                        "card {} already has 2 monsters (map and detected)",
                        m.card + 1
                    ),
                ));
            }
        }
        if m.at == Where::Detected && !r.spawn.contains(&m.tile) {
            return Err(err(
                line,
                format!(
                    "a detection sits on a spawn tile; {} is none",
                    coord(m.tile)
                ),
            ));
        }
        if m.on_map() {
            put(m.tile, line, format!("monster {}", i + 1))?;
            let full = r.stats(i).hp;
            if m.hp == 0 || m.hp > full {
                return Err(err(line, format!("hp {} is outside 1..={full}", m.hp)));
            }
            if m.alpha != (m.place >= 2) {
                return Err(err(
                    line,
                    "normal monsters sit on places 0-1, Alphas on 2-3".to_string(),
                ));
            }
            if places[m.card as usize][m.place as usize] {
                return Err(err(
                    line,
                    format!("place {} of card {} is taken", m.place, m.card + 1),
                ));
            }
            places[m.card as usize][m.place as usize] = true;
            if water & bit(m.tile) != 0 && r.stats(i).locomotion != super::content::Locomotion::Fly
            {
                return Err(err(
                    line,
                    format!(
                        "a monster that does not fly cannot stand on water at {}",
                        coord(m.tile)
                    ),
                ));
            }
        }
    }
    for t in tiles(r.rock) {
        put(t, tokens, "a rock".to_string())?;
    }
    if r.rock & r.smoke != 0 {
        return Err(err(
            tokens,
            "rock and smoke are two sides of one token: not on one tile".to_string(),
        ));
    }
    if (r.frozen_b | r.shield_b) & !r.buildings != 0 {
        return Err(err(
            tokens,
            "frozen_buildings and shield_buildings must be on buildings".to_string(),
        ));
    }
    if (r.fire | r.acid) & (r.buildings | r.mountains) != 0 {
        return Err(err(
            tokens,
            "fire and acid tokens lie on tiles a unit can stand on".to_string(),
        ));
    }
    let choosing = r.phase == Phase::Choice;
    if choosing && !r.choice_pending() {
        return Err(err(
            clock,
            "phase=choice needs a pending choice: a unit on a fire or acid token holding its other side, or more tokens of a kind in play than the supply holds".to_string(),
        ));
    }
    if !choosing && let Some((t, tok)) = r.conflict_at() {
        return Err(err(
            tokens,
            format!(
                "the unit on {} holds {} on a {} token: that choice needs phase=choice",
                coord(t),
                tok.other_side().name(),
                tok.name()
            ),
        ));
    }
    // A game that ended inside an effect may keep a token the player had no time to free (I16).
    for s in [Status::Rock, Status::Fire, Status::Shield] {
        let allowed = super::TOKENS_PER_KIND
            + if choosing { r.keep.count_ones() } else { 0 }
            + if r.phase == Phase::Over { 9 } else { 0 };
        if r.tokens_in_play(s) > allowed {
            return Err(err(
                tokens,
                format!(
                    "{} {}/{} tokens in play; the supply has {}",
                    r.tokens_in_play(s),
                    s.name(),
                    s.other_side().name(),
                    super::TOKENS_PER_KIND
                ),
            ));
        }
    }
    let over = r.phase == Phase::Over;
    position_text::over_with_result(clock, over, r.result)?;
    // Between campaign games (Reward) the finished game's die still shows 0.
    if !over && r.phase != Phase::Reward && !(1..=6).contains(&r.campaign_die) {
        return Err(err(
            clock,
            format!(
                "campaign_die={} must be 1-6 while the game goes on",
                r.campaign_die
            ),
        ));
    }
    if r.campaign_die > 6 {
        return Err(err(
            clock,
            format!("campaign_die={} must be 0-6", r.campaign_die),
        ));
    }
    let pending = r.campaign.pending != [0, 0];
    if (r.phase == Phase::Reward) != pending {
        return Err(err(
            campaign.max(clock),
            "phase=reward goes with pending rewards (campaign pending=A,B), and pending rewards with phase=reward".to_string(),
        ));
    }
    if !(1..=3).contains(&r.campaign.ruins_cap) {
        return Err(err(campaign, "ruins_cap must be 1-3".to_string()));
    }
    match r.phase {
        Phase::Deploy => {
            for (i, m) in r.mechs.iter().enumerate() {
                if m.hp == 0 {
                    return Err(err(
                        mech_line[i].max(clock),
                        format!("mech {} to deploy needs hp", ['A', 'B'][i]),
                    ));
                }
            }
        }
        Phase::Actions | Phase::Reward | Phase::Choice => {
            if !r.mechs.iter().any(|m| m.alive()) {
                return Err(err(
                    clock,
                    "a game that goes on has a mech on the map (mech A/B tile=... hp=...)"
                        .to_string(),
                ));
            }
        }
        Phase::Over => {}
    }
    Ok(())
}
