//! Random playouts of Bury Me in the Rift from 10,000 seeds: the Rift's invariants hold after
//! every step, and the offered actions are exactly the legal ones (checked against an
//! independent, scalar legality predicate over the whole action space). What every game must
//! do (end within `MAX_DECISIONS`, actions exactly while the game goes on, copy equality,
//! position round-trip, ...) is checked by `tests/conformance.rs`.

use sololab::games::rift::board::{COLS, NO_TILE, ROWS, TILES, Tile, bit};
use sololab::games::rift::content::Status;
use sololab::games::rift::state::{Phase, Where, st};
use sololab::games::rift::{Rift, RiftAction, RiftSetup};
use sololab::{Game, Policy, Stream, below, stream_rng};

// ---------------------------------------------------------------------------------------------
// The legality oracle. It reads the game state's fields (where units stand, their statuses,
// levels and aims, the terrain bitboards) but none of the engine's rules helpers: its tables
// come from the content data file itself (parsed here with `toml`), its geometry is its own
// (tile = row * 6 + col, 0-based, CONTENT.md "Map size"), and its rules are written from the
// rulebook (Setup; Turn Order step 6; Units; Status Tokens; FAQ Water, Map, Player actions,
// Monster attacks; CONTENT.md I9, I13, I20, I21, I30, I32).

/// An attack as the oracle needs it: where it can aim, and whether it throws.
#[derive(Clone, Debug)]
struct OAttack {
    shape: String,
    throw: bool,
    immobilize: bool,
}

/// A mech or pilot upgrade row, as far as legality goes.
#[derive(Clone, Debug)]
enum OUpgrade {
    Movement(u8),
    Flying,
    Weapon(OAttack),
    Other,
}

#[derive(Clone, Debug)]
struct OMech {
    name: String,
    movement: u8,
    locomotion: String,
    attack: OAttack,
    upgrades: Vec<OUpgrade>,
}

/// A map side's special tiles (1-based col, row within the card).
#[derive(Clone, Debug, Default)]
struct OSide {
    flood: Vec<(u8, u8, u8)>,
    turret: Option<(u8, u8)>,
}

#[derive(Clone, Debug)]
struct Tables {
    mechs: Vec<OMech>,
    pilots: Vec<(String, Vec<OUpgrade>)>,
    /// (name, normal attack, Alpha attack)
    monsters: Vec<(String, OAttack, OAttack)>,
    /// (name, left side, right side)
    maps: Vec<(String, OSide, OSide)>,
    turret: OAttack,
}

fn o_attack(v: &toml::Value) -> OAttack {
    OAttack {
        shape: v["shape"].as_str().unwrap().to_string(),
        throw: v.get("movement").and_then(|m| m.as_str()) == Some("throw"),
        immobilize: v.get("immobilize").and_then(|m| m.as_bool()) == Some(true),
    }
}

fn o_upgrades(v: &toml::Value) -> Vec<OUpgrade> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|u| {
            if let Some(n) = u.get("movement") {
                OUpgrade::Movement(n.as_integer().unwrap() as u8)
            } else if u.get("flying").is_some() {
                OUpgrade::Flying
            } else if let Some(w) = u.get("weapon") {
                OUpgrade::Weapon(o_attack(w))
            } else {
                OUpgrade::Other
            }
        })
        .collect()
}

fn o_side(v: &toml::Value) -> OSide {
    let cr = |t: &toml::Value| {
        (
            t["col"].as_integer().unwrap() as u8,
            t["row"].as_integer().unwrap() as u8,
        )
    };
    OSide {
        flood: v
            .get("flood")
            .and_then(|f| f.as_array())
            .map(|a| {
                a.iter()
                    .map(|t| {
                        let (c, r) = cr(t);
                        (c, r, t["turn"].as_integer().unwrap() as u8)
                    })
                    .collect()
            })
            .unwrap_or_default(),
        turret: v.get("turret").map(cr),
    }
}

/// The oracle's tables, read from the builtin content file's text.
fn tables() -> &'static Tables {
    static TABLES: std::sync::OnceLock<Tables> = std::sync::OnceLock::new();
    TABLES.get_or_init(|| {
        let path = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/src/games/rift/content/rift.toml"
        );
        let text = std::fs::read_to_string(path).unwrap();
        let v: toml::Value = toml::from_str(&text).unwrap();
        let arr = |k: &str| v[k].as_array().unwrap().clone();
        Tables {
            mechs: arr("mech")
                .iter()
                .map(|m| OMech {
                    name: m["name"].as_str().unwrap().to_string(),
                    movement: m["movement"].as_integer().unwrap() as u8,
                    locomotion: m
                        .get("locomotion")
                        .and_then(|l| l.as_str())
                        .unwrap_or("walk")
                        .to_string(),
                    attack: o_attack(&m["attack"]),
                    upgrades: o_upgrades(&m["upgrades"]),
                })
                .collect(),
            pilots: arr("pilot")
                .iter()
                .map(|p| {
                    (
                        p["name"].as_str().unwrap().to_string(),
                        o_upgrades(&p["upgrades"]),
                    )
                })
                .collect(),
            monsters: arr("monster")
                .iter()
                .map(|m| {
                    (
                        m["name"].as_str().unwrap().to_string(),
                        o_attack(&m["normal"]["attack"]),
                        o_attack(&m["alpha"]["attack"]),
                    )
                })
                .collect(),
            maps: arr("map")
                .iter()
                .map(|m| {
                    (
                        m["name"].as_str().unwrap().to_string(),
                        o_side(&m["left"]),
                        o_side(&m["right"]),
                    )
                })
                .collect(),
            turret: o_attack(&v["turret"]["attack"]),
        }
    })
}

/// The oracle reads the builtin content; its tables line up with the state's card indices.
fn check_tables_match(r: &Rift) {
    let t = tables();
    let c = r.content;
    assert_eq!(
        c.source, "builtin",
        "the oracle reads the builtin content file"
    );
    let names = |v: Vec<&str>, w: Vec<&str>| assert_eq!(v, w);
    names(
        t.mechs.iter().map(|m| m.name.as_str()).collect(),
        c.mechs.iter().map(|m| m.name.as_str()).collect(),
    );
    names(
        t.pilots.iter().map(|p| p.0.as_str()).collect(),
        c.pilots.iter().map(|p| p.name.as_str()).collect(),
    );
    names(
        t.monsters.iter().map(|m| m.0.as_str()).collect(),
        c.monsters.iter().map(|m| m.name.as_str()).collect(),
    );
    names(
        t.maps.iter().map(|m| m.0.as_str()).collect(),
        c.maps.iter().map(|m| m.name.as_str()).collect(),
    );
}

/// The tile `k` steps from `from` in direction `dir` (0-3: N E S W), if on the board.
fn o_step(from: Tile, dir: u8, k: i32) -> Option<Tile> {
    let (dc, dr) = [(0, -1), (1, 0), (0, 1), (-1, 0)][dir as usize];
    let c = (from as usize % COLS) as i32 + dc * k;
    let rr = (from as usize / COLS) as i32 + dr * k;
    (c >= 0 && rr >= 0 && c < COLS as i32 && rr < ROWS as i32)
        .then(|| (rr as usize * COLS + c as usize) as Tile)
}

/// Revealed upgrade rows of mech `i`: its mech card's, then its pilot card's.
fn o_upgrades_of(r: &Rift, i: usize) -> Vec<OUpgrade> {
    let t = tables();
    let m = r.mechs[i];
    let mut v = t.mechs[m.card as usize].upgrades[..m.mech_level as usize].to_vec();
    v.extend_from_slice(&t.pilots[m.pilot as usize].1[..m.pilot_level as usize]);
    v
}

fn o_flies(r: &Rift, i: usize) -> bool {
    tables().mechs[r.mechs[i].card as usize].locomotion == "fly"
        || o_upgrades_of(r, i)
            .iter()
            .any(|u| matches!(u, OUpgrade::Flying))
}

/// Weapons in the engine's numbering: the basic attack, then second weapons in row order.
fn o_weapons(r: &Rift, i: usize) -> Vec<OAttack> {
    let mut w = vec![tables().mechs[r.mechs[i].card as usize].attack.clone()];
    for u in o_upgrades_of(r, i) {
        if let OUpgrade::Weapon(a) = u {
            w.push(a);
        }
    }
    w.truncate(4);
    w
}

/// Board tile of (col, row), 1-based within map card `side`.
fn side_tile(side: usize, (c, rr): (u8, u8)) -> Tile {
    ((rr as usize - 1) * COLS + side * 3 + c as usize - 1) as Tile
}

/// The map side of card `side` whose yellow effects are active (a yellow objective there).
fn o_active_side(r: &Rift, side: usize) -> Option<&'static OSide> {
    if r.objectives[side] == u8::MAX || !r.yellow[side] {
        return None;
    }
    let m = &tables().maps[r.maps[side] as usize];
    Some(if side == 0 { &m.1 } else { &m.2 })
}

/// Water this turn: printed water and the flood tiles of the turn the campaign die shows.
fn o_water(r: &Rift, t: Tile) -> bool {
    r.water & bit(t) != 0
        || (0..2).any(|side| {
            o_active_side(r, side).is_some_and(|s| {
                s.flood
                    .iter()
                    .any(|&(c, rr, turn)| turn == r.campaign_die && side_tile(side, (c, rr)) == t)
            })
        })
}

fn o_turret(r: &Rift) -> Option<Tile> {
    (0..2).find_map(|side| {
        let t = side_tile(side, o_active_side(r, side)?.turret?);
        (r.buildings & bit(t) != 0).then_some(t)
    })
}

fn has_unit(r: &Rift, t: Tile) -> bool {
    r.mechs.iter().any(|m| m.hp > 0 && m.tile == t)
        || r.monsters.iter().any(|m| m.at == Where::Map && m.tile == t)
        || r.rock & bit(t) != 0
}

fn empty(r: &Rift, t: Tile) -> bool {
    !has_unit(r, t) && (r.buildings | r.mountains) & bit(t) == 0
}

/// The tile an attack aimed `dir`, `dist` from `from` hits: a line stops on the first
/// non-empty tile within 6 or the last tile before the edge (FAQ, Map).
fn o_target(r: &Rift, a: &OAttack, from: Tile, dir: u8, dist: u8) -> Option<Tile> {
    match a.shape.as_str() {
        "self" => Some(from),
        "line" => {
            let mut end = None;
            for k in 1..=6 {
                let Some(t) = o_step(from, dir, k) else { break };
                end = Some(t);
                if !empty(r, t) {
                    break;
                }
            }
            end
        }
        _ => o_step(from, dir, dist as i32),
    }
}

/// Whether some living monster's aimed attack that immobilizes lands on `t` (FAQ, Monster
/// attacks; CONTENT.md I13).
fn immobilized(r: &Rift, t: Tile) -> bool {
    r.monsters.iter().any(|mo| {
        if mo.at != Where::Map || mo.hp == 0 || mo.aim_dir > 3 {
            return false;
        }
        let card = &tables().monsters[r.monster_cards[mo.card as usize] as usize];
        let a = if mo.alpha { &card.2 } else { &card.1 };
        a.immobilize && o_target(r, a, mo.tile, mo.aim_dir, mo.aim_dist) == Some(t)
    })
}

/// Breadth-first walking distance from `from` to `to` through tiles `blocked` does not stop.
fn walk_distance(from: Tile, to: Tile, blocked: &dyn Fn(Tile) -> bool) -> Option<usize> {
    let mut dist = [usize::MAX; TILES];
    dist[from as usize] = 0;
    let mut queue = vec![from];
    let mut qi = 0;
    while qi < queue.len() {
        let t = queue[qi];
        qi += 1;
        for d in 0..4 {
            if let Some(n) = o_step(t, d, 1)
                && dist[n as usize] == usize::MAX
                && !blocked(n)
            {
                dist[n as usize] = dist[t as usize] + 1;
                queue.push(n);
            }
        }
    }
    (dist[to as usize] != usize::MAX).then_some(dist[to as usize])
}

/// Whether `a` is legal in `r`, written from the rulebook without the engine's code.
fn is_legal(r: &Rift, a: RiftAction) -> bool {
    let row = |t: Tile| t as usize / COLS;
    let col = |t: Tile| t as usize % COLS;
    match (r.phase, a) {
        (Phase::Deploy, RiftAction::Deploy { mech, tile }) => {
            let first = if r.mechs[0].tile == NO_TILE { 0 } else { 1 };
            mech == first && (tile as usize) < TILES && row(tile) < 2 && empty(r, tile)
        }
        (Phase::Actions, RiftAction::EndActions) => true,
        (Phase::Actions, RiftAction::Move { mech, tile }) => {
            let i = mech as usize;
            if i > 1 {
                return false;
            }
            let m = r.mechs[i];
            if m.hp == 0 || m.done || m.moved || m.status & st::FROZEN != 0 {
                return false;
            }
            if immobilized(r, m.tile) {
                return false;
            }
            if tile == m.tile || (tile as usize) >= TILES || !empty(r, tile) {
                return false;
            }
            let mv = tables().mechs[m.card as usize].movement as usize
                + o_upgrades_of(r, i)
                    .iter()
                    .map(|u| {
                        if let OUpgrade::Movement(n) = u {
                            *n as usize
                        } else {
                            0
                        }
                    })
                    .sum::<usize>();
            let over = o_flies(r, i) || tables().mechs[m.card as usize].locomotion == "leap";
            if over {
                let d = col(tile).abs_diff(col(m.tile)) + row(tile).abs_diff(row(m.tile));
                return d <= mv;
            }
            let blocked = |t: Tile| {
                (r.buildings | r.mountains | r.rock) & bit(t) != 0
                    || r.monsters
                        .iter()
                        .any(|mo| mo.at == Where::Map && mo.tile == t)
            };
            walk_distance(m.tile, tile, &blocked).is_some_and(|d| d <= mv)
        }
        (
            Phase::Actions,
            RiftAction::Attack {
                mech,
                weapon,
                dir,
                dist,
                throw,
            },
        ) => {
            let i = mech as usize;
            if i > 1 {
                return false;
            }
            let m = r.mechs[i];
            if m.hp == 0 || m.done || m.status & st::FROZEN != 0 || r.smoke & bit(m.tile) != 0 {
                return false;
            }
            if o_water(r, m.tile) && !o_flies(r, i) {
                return false;
            }
            let ws = o_weapons(r, i);
            if weapon as usize >= ws.len() || dir > 3 {
                return false;
            }
            aim_ok(r, &ws[weapon as usize], m.tile, dir, dist, throw)
        }
        (Phase::Actions, RiftAction::ClearStatus { mech, mask }) => {
            let m = r.mechs[mech as usize & 1];
            mech < 2 && m.hp > 0 && !m.done && mask != 0 && mask & !m.status == 0
        }
        (Phase::Actions, RiftAction::Turret { dir, dist }) => match o_turret(r) {
            Some(t) => {
                !r.turret_used
                    && r.frozen_b & bit(t) == 0
                    && dir < 4
                    && aim_ok(r, &tables().turret, t, dir, dist, 255)
            }
            None => false,
        },
        (Phase::Reward, RiftAction::Upgrade { mech, pilot }) => {
            let first = if r.campaign.pending[0] > 0 { 0 } else { 1 };
            let m = r.mechs[first];
            mech as usize == first
                && r.campaign.pending[first] > 0
                && if pilot {
                    m.pilot_level < 3
                } else {
                    m.mech_level < 3
                }
        }
        _ => false,
    }
}

/// Whether `a` may be aimed `dir`, `dist` from `from` (Attack Examples; FAQ Map: aims stay on
/// the map; a line's distance is where it stops), throwing `throw` (a direction for a throw
/// attack, FAQ Attack directions; 255 otherwise).
fn aim_ok(r: &Rift, a: &OAttack, from: Tile, dir: u8, dist: u8, throw: u8) -> bool {
    if (a.throw && throw >= 4) || (!a.throw && throw != 255) {
        return false;
    }
    let on = |k: u8| o_step(from, dir, i32::from(k)).is_some();
    match a.shape.as_str() {
        "adjacent" => dist == 1 && on(1),
        "exact2" => dist == 2 && on(2),
        "range2plus" => dist >= 2 && on(dist),
        "self" => dir == 0 && dist == 0,
        "line" => {
            dist >= 1
                && o_target(r, a, from, dir, dist) == o_step(from, dir, i32::from(dist))
                && on(dist)
        }
        other => panic!("unknown shape {other} in the content file"),
    }
}

/// Every action of the action space that could ever be legal here.
fn action_space(r: &Rift, out: &mut Vec<RiftAction>) {
    out.clear();
    for mech in 0..2u8 {
        for tile in 0..TILES as u8 {
            out.push(RiftAction::Deploy { mech, tile });
            out.push(RiftAction::Move { mech, tile });
        }
        for weapon in 0..4u8 {
            for dir in 0..4u8 {
                for dist in 0..7u8 {
                    for throw in [0, 1, 2, 3, 255] {
                        out.push(RiftAction::Attack {
                            mech,
                            weapon,
                            dir,
                            dist,
                            throw,
                        });
                    }
                }
            }
        }
        for mask in 0..16u8 {
            out.push(RiftAction::ClearStatus { mech, mask });
        }
        out.push(RiftAction::Upgrade { mech, pilot: false });
        out.push(RiftAction::Upgrade { mech, pilot: true });
    }
    for dir in 0..4u8 {
        for dist in 0..7u8 {
            out.push(RiftAction::Turret { dir, dist });
        }
    }
    out.push(RiftAction::EndActions);
    let _ = r;
}

fn check_invariants(r: &Rift) {
    let mut seen = 0u64;
    for m in &r.mechs {
        assert!(m.hp <= m.max_hp, "mech hp {} above max {}", m.hp, m.max_hp);
        if m.hp > 0 && m.tile != NO_TILE {
            assert_eq!(seen & bit(m.tile), 0, "two units on a tile\n{r:?}");
            assert_eq!(
                (r.buildings | r.mountains) & bit(m.tile),
                0,
                "mech on an obstacle\n{r:?}"
            );
            seen |= bit(m.tile);
        }
    }
    let mut per_card = [0u8; 3];
    for (i, m) in r.monsters.iter().enumerate() {
        if m.at != Where::Supply {
            per_card[m.card as usize] += 1;
        }
        if m.at == Where::Map {
            assert!(
                m.hp >= 1 && m.hp <= r.stats(i).hp,
                "monster hp {} out of 1..={}\n{r:?}",
                m.hp,
                r.stats(i).hp
            );
            assert_eq!(seen & bit(m.tile), 0, "two units on a tile\n{r:?}");
            assert_eq!(
                (r.buildings | r.mountains) & bit(m.tile),
                0,
                "monster on an obstacle\n{r:?}"
            );
            seen |= bit(m.tile);
        }
    }
    assert!(
        per_card.iter().all(|&n| n <= 2),
        "more than 2 monsters on a card\n{r:?}"
    );
    assert_eq!(seen & r.rock, 0, "a rock shares a tile with a unit\n{r:?}");
    let tokens: u32 = [Status::Rock, Status::Fire, Status::Shield]
        .iter()
        .map(|&s| r.tokens_in_play(s))
        .sum();
    // While the player chooses a token to free (I16), the tokens just added are in play too.
    // A game that ends inside an effect keeps the tokens it added without a choice.
    let extra = match r.phase {
        sololab::games::rift::state::Phase::Choice => r.keep.count_ones(),
        sololab::games::rift::state::Phase::Over => 9,
        _ => 0,
    };
    assert!(tokens <= 9 + extra, "{tokens} status tokens in play");
    for s in [Status::Rock, Status::Fire, Status::Shield] {
        assert!(
            r.tokens_in_play(s) <= 3 + extra,
            "more than 3 {s:?}-kind tokens\n{r:?}"
        );
    }
    assert!(r.ruins <= 3, "ruins {}", r.ruins);
    assert_eq!(r.buildings & r.mountains, 0);
}

fn playout(seed: u64, setup: &RiftSetup, check_space: bool) -> Rift {
    playout_with(seed, setup, None, check_space, &mut |_, _| {})
}

/// Plays game `seed` from `setup` with `policy` (uniform random when `None`), checking the
/// invariants, the offered actions (`check_space`) at every decision
/// (the position round-trip is checked by `tests/conformance.rs`); `step(before, after)` sees every transition. Returns the final state.
fn playout_with(
    seed: u64,
    setup: &RiftSetup,
    mut policy: Option<&mut dyn Policy<Rift>>,
    check_space: bool,
    step: &mut dyn FnMut(&Rift, &Rift),
) -> Rift {
    let mut srng = stream_rng(seed, 0, Stream::Setup);
    let mut crng = stream_rng(seed, 0, Stream::Chance);
    let mut prng = stream_rng(seed, 0, Stream::Policy);
    let mut r = Rift::new_game(setup, &mut srng);
    let mut acts = Vec::with_capacity(256);
    let mut space = Vec::new();
    loop {
        check_invariants(&r);
        r.legal_actions(&mut acts);
        if acts.is_empty() {
            break;
        }
        if check_space {
            check_tables_match(&r);
            action_space(&r, &mut space);
            for &a in &space {
                assert_eq!(
                    acts.contains(&a),
                    is_legal(&r, a),
                    "seed {seed}: {a:?} offered != legal\n{r:?}"
                );
            }
        }
        let a = match policy.as_mut() {
            Some(p) => p.choose(&r, &acts, &mut prng),
            None => acts[below(&mut prng, acts.len() as u32) as usize],
        };
        assert!(acts.contains(&a), "seed {seed}: {a:?} is not offered");
        let before = r;
        r.apply(a, &mut crng);
        step(&before, &r);
    }
    r
}

#[test]
fn random_playouts_from_10000_seeds_keep_the_invariants() {
    let setup = RiftSetup::default_setup();
    let mut wins = 0;
    for seed in 0..10_000u64 {
        let r = playout(seed, &setup, seed < 300);
        wins += u32::from(r.result == 1);
    }
    // Random play wins some and loses some: neither rate is degenerate.
    assert!(wins > 0 && wins < 10_000, "wins {wins}");
}

#[test]
fn playouts_under_every_finale_and_difficulty_keep_the_invariants() {
    let mut values = sololab::SetupValues::new();
    values.insert("finale".into(), sololab::AxisValue::Bool(true));
    values.insert("both_moons".into(), sololab::AxisValue::Bool(true));
    values.insert("alphas".into(), sololab::AxisValue::Int(2));
    values.insert("starting_monsters".into(), sololab::AxisValue::Int(4));
    values.insert("ruins".into(), sololab::AxisValue::Int(1));
    values.insert("extra_turn".into(), sololab::AxisValue::Bool(true));
    values.insert(
        "upgrades".into(),
        sololab::AxisValue::Name("3,3,3,3".into()),
    );
    let setup = RiftSetup::resolve(&values).unwrap();
    for seed in 0..2000u64 {
        playout(seed, &setup, seed < 200);
    }
}

/// Campaign playouts started at game `start` (1-based) by greedy play (which wins about a
/// third of single games, random play almost none), checking at every step the invariants and,
/// at every change of game, the between-games steps (Campaign): the next game on the card, the
/// campaign die at 6, ruins within the setting, mechs at full HP when they deploy, rewards paid
/// or waiting as a choice; in the finale its moon effects are on. Returns (campaigns that won
/// game `start`, reward decisions met, campaigns won).
fn campaign_from(start: u8, seeds: std::ops::Range<u64>) -> (u32, u32, u32) {
    let mut values = sololab::SetupValues::new();
    values.insert("mode".into(), sololab::AxisValue::Name("campaign".into()));
    values.insert("game".into(), sololab::AxisValue::Int(i64::from(start)));
    let setup = RiftSetup::resolve(&values).unwrap();
    let games = setup.content.campaign.len() as u8;
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("strategies");
    let mut greedy = sololab::Strategy::named("greedy", &dir)
        .unwrap()
        .build::<Rift>()
        .unwrap();
    let (mut passed, mut rewards, mut won) = (0, 0, 0);
    for seed in seeds {
        let first = Rift::new_game(&setup, &mut stream_rng(seed, 0, Stream::Setup));
        assert_eq!(
            first.campaign.game + 1,
            start,
            "seed {seed}: starts at game {start}"
        );
        assert!(first.campaign.on);
        let mut check = |b: &Rift, a: &Rift| {
            let card = &a.content.campaign[a.campaign.game as usize];
            if a.phase == Phase::Actions {
                assert_eq!(
                    a.finale != 0,
                    card.finale,
                    "seed {seed}: the finale's moons"
                );
            }
            if a.phase == Phase::Reward {
                rewards += 1;
                assert!(a.campaign.pending.iter().any(|&p| p > 0));
            }
            if a.campaign.game == b.campaign.game {
                return;
            }
            // A won game led to the next one (Campaign steps 1-5).
            assert_eq!(
                a.campaign.game,
                b.campaign.game + 1,
                "seed {seed}: next game"
            );
            assert_eq!(
                a.campaign.games_won,
                b.campaign.games_won + 1,
                "seed {seed}"
            );
            assert!(a.campaign.game < games, "seed {seed}: past the last game");
            assert!(
                a.ruins <= a.campaign.ruins_cap,
                "seed {seed}: ruins above the setting"
            );
            assert!(
                a.ruins <= b.ruins + 2,
                "seed {seed}: at most one R per map card"
            );
            assert!(
                matches!(a.phase, Phase::Deploy | Phase::Reward),
                "seed {seed}: {:?} after a won game",
                a.phase
            );
            if a.phase == Phase::Deploy {
                assert_eq!(
                    a.campaign_die, 6,
                    "seed {seed}: the campaign die resets to 6"
                );
                for m in &a.mechs {
                    assert_eq!(m.hp, m.max_hp, "seed {seed}: mechs start at full HP");
                }
            }
        };
        let r = playout_with(
            seed,
            &setup,
            Some(greedy.as_mut()),
            seed % 8 == 0,
            &mut check,
        );
        let mut m = [0i64; 11];
        r.metrics(&mut m);
        let furthest = m[1];
        assert!(
            (i64::from(start)..=i64::from(games)).contains(&furthest),
            "seed {seed}: furthest game {furthest} from game {start}"
        );
        assert_eq!(
            m[0],
            furthest - i64::from(start) + 1 - i64::from(r.result != 1),
            "seed {seed}: games won = games played, less the lost one"
        );
        assert_eq!(
            r.outcome().is_some_and(|o| o.is_win()),
            furthest == i64::from(games) && r.result == 1
        );
        passed += u32::from(furthest > i64::from(start) || r.result == 1);
        won += u32::from(r.result == 1);
    }
    (passed, rewards, won)
}

#[test]
fn campaign_playouts_from_each_game_reach_and_finish_it() {
    let games = RiftSetup::default_setup().content.campaign.len() as u8;
    assert_eq!(games, 5, "the campaign card's games");
    for start in 1..=games {
        let (passed, rewards, won) = campaign_from(start, 0..40);
        eprintln!(
            "from game {start}: {passed}/40 won it, {rewards} reward choices, {won} campaigns won"
        );
        assert!(
            passed >= 2,
            "from game {start}: {passed} of 40 campaigns won it: the next steps went unchecked"
        );
        if start < games {
            assert!(rewards >= 1, "from game {start}: no reward choice was met");
        } else {
            assert!(won >= 1, "no finale was won");
        }
    }
}

#[test]
fn state_is_small_and_copy() {
    assert!(
        std::mem::size_of::<Rift>() <= 256,
        "Rift is {} bytes",
        std::mem::size_of::<Rift>()
    );
    fn is_copy<T: Copy>() {}
    is_copy::<Rift>();
}
