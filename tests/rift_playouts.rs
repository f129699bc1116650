//! Random playouts of Bury Me in the Rift from 10,000 seeds: every game ends within the declared
//! number of decisions without a panic, the invariants hold after every step, the offered actions
//! are exactly the legal ones (checked against an independent, scalar legality predicate over the
//! whole action space), and positions round-trip.

use sololab::games::rift::board::{COLS, NO_TILE, ROWS, TILES, Tile, bit, col, row, step};
use sololab::games::rift::content::{Dir, Move, Shape, Status};
use sololab::games::rift::state::{Phase, Where, st};
use sololab::games::rift::{Rift, RiftAction, RiftSetup};
use sololab::{Game, Stream, below, stream_rng};

fn walk_distance(r: &Rift, from: Tile, to: Tile, blocked: &dyn Fn(Tile) -> bool) -> Option<usize> {
    let mut dist = [usize::MAX; TILES];
    dist[from as usize] = 0;
    let mut queue = vec![from];
    let mut qi = 0;
    while qi < queue.len() {
        let t = queue[qi];
        qi += 1;
        for d in Dir::ALL {
            if let Some(n) = step(t, d)
                && dist[n as usize] == usize::MAX
                && !blocked(n)
            {
                dist[n as usize] = dist[t as usize] + 1;
                queue.push(n);
            }
        }
    }
    let _ = r;
    (dist[to as usize] != usize::MAX).then_some(dist[to as usize])
}

fn has_unit(r: &Rift, t: Tile) -> bool {
    r.mechs.iter().any(|m| m.hp > 0 && m.tile == t)
        || r.monsters.iter().any(|m| m.at == Where::Map && m.tile == t)
        || r.rock & bit(t) != 0
}

fn empty(r: &Rift, t: Tile) -> bool {
    !has_unit(r, t) && (r.buildings | r.mountains) & bit(t) == 0
}

/// Whether `a` is legal in `r`, written from the rulebook without the engine's bitboard code.
fn is_legal(r: &Rift, a: RiftAction) -> bool {
    match (r.phase, a) {
        (Phase::Deploy, RiftAction::Deploy { mech, tile }) => {
            let first = if r.mechs[0].tile == NO_TILE { 0 } else { 1 };
            mech == first && (tile as usize) < TILES && row(tile) < 2 && empty(r, tile)
        }
        (Phase::Actions, RiftAction::EndActions) => true,
        (Phase::Actions, RiftAction::Move { mech, tile }) => {
            let i = mech as usize;
            let m = r.mechs[i];
            if i > 1 || m.hp == 0 || m.done || m.moved || m.status & st::FROZEN != 0 {
                return false;
            }
            // Immobilized by an aimed attack on its tile?
            for (j, mo) in r.monsters.iter().enumerate() {
                if mo.at == Where::Map && mo.hp > 0 && mo.aim_dir < 4 {
                    let at = r.stats(j).attack;
                    if at.immobilize
                        && r.aim_tile(&at, mo.tile, Dir::from_index(mo.aim_dir), mo.aim_dist)
                            == Some(m.tile)
                    {
                        return false;
                    }
                }
            }
            if tile == m.tile || (tile as usize) >= TILES || !empty(r, tile) {
                return false;
            }
            let mv = r.mech_movement(i) as usize;
            if r.mech_moves_over(i) {
                let d = col(tile).abs_diff(col(m.tile)) + row(tile).abs_diff(row(m.tile));
                return d <= mv;
            }
            let blocked = |t: Tile| {
                (r.buildings | r.mountains | r.rock) & bit(t) != 0
                    || r.monsters
                        .iter()
                        .any(|mo| mo.at == Where::Map && mo.tile == t)
            };
            walk_distance(r, m.tile, tile, &blocked).is_some_and(|d| d <= mv)
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
            let m = r.mechs[i];
            if i > 1
                || m.hp == 0
                || m.done
                || m.status & st::FROZEN != 0
                || r.smoke & bit(m.tile) != 0
            {
                return false;
            }
            if r.water_now() & bit(m.tile) != 0 && !r.mech_flies(i) {
                return false;
            }
            let mut ws = [r.content.mechs[m.card as usize].attack; 4];
            let n = r.weapons(i, &mut ws);
            if weapon as usize >= n || dir > 3 {
                return false;
            }
            aim_ok(r, &ws[weapon as usize], m.tile, dir, dist, throw)
        }
        (Phase::Actions, RiftAction::ClearStatus { mech, mask }) => {
            let m = r.mechs[mech as usize & 1];
            mech < 2 && m.hp > 0 && !m.done && mask != 0 && mask & !m.status == 0
        }
        (Phase::Actions, RiftAction::Turret { dir, dist }) => match r.turret() {
            Some(t) => {
                !r.turret_used
                    && r.frozen_b & bit(t) == 0
                    && dir < 4
                    && aim_ok(r, &r.content.turret_attack, t, dir, dist, 255)
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

fn aim_ok(
    r: &Rift,
    a: &sololab::games::rift::content::Attack,
    from: Tile,
    dir: u8,
    dist: u8,
    throw: u8,
) -> bool {
    let throw_ok = if a.movement == Move::Throw {
        throw < 4
    } else {
        throw == 255
    };
    if !throw_ok {
        return false;
    }
    let d = Dir::from_index(dir);
    let (dc, dr) = d.delta();
    let at = |k: i32| {
        let c = col(from) as i32 + dc as i32 * k;
        let rr = row(from) as i32 + dr as i32 * k;
        (c >= 0 && rr >= 0 && c < COLS as i32 && rr < ROWS as i32)
            .then(|| (rr as usize * COLS + c as usize) as Tile)
    };
    match a.shape {
        Shape::Adjacent => dist == 1 && at(1).is_some(),
        Shape::Exact2 => dist == 2 && at(2).is_some(),
        Shape::Range2Plus => dist >= 2 && at(dist as i32).is_some(),
        Shape::SelfTile => dir == 0 && dist == 0,
        Shape::Line => {
            let mut k = 1;
            let mut end = None;
            while k <= 6 {
                match at(k) {
                    None => break,
                    Some(t) => {
                        end = Some(k);
                        if !empty(r, t) {
                            break;
                        }
                    }
                }
                k += 1;
            }
            end == Some(dist as i32)
        }
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

fn playout(seed: u64, setup: &RiftSetup, check_space: bool, roundtrip: bool) -> Rift {
    let mut srng = stream_rng(seed, 0, Stream::Setup);
    let mut crng = stream_rng(seed, 0, Stream::Chance);
    let mut prng = stream_rng(seed, 0, Stream::Policy);
    let mut r = Rift::new_game(setup, &mut srng);
    let mut acts = Vec::with_capacity(256);
    let mut space = Vec::new();
    let mut decisions = 0;
    loop {
        check_invariants(&r);
        let copy = r;
        assert_eq!(copy, r, "a copy compares equal");
        if roundtrip {
            let text = r.to_position();
            let back =
                Rift::from_position(&text).unwrap_or_else(|e| panic!("seed {seed}: {e}\n{text}"));
            assert_eq!(back, r, "seed {seed}: position round-trip\n{text}");
        }
        r.legal_actions(&mut acts);
        assert_eq!(
            acts.is_empty(),
            r.outcome().is_some(),
            "seed {seed}: actions iff not over"
        );
        if acts.is_empty() {
            break;
        }
        if check_space {
            action_space(&r, &mut space);
            for &a in &space {
                assert_eq!(
                    acts.contains(&a),
                    is_legal(&r, a),
                    "seed {seed}: {a:?} offered != legal\n{r:?}"
                );
            }
        }
        let a = acts[below(&mut prng, acts.len() as u32) as usize];
        r.apply(a, &mut crng);
        decisions += 1;
        assert!(
            decisions <= Rift::MAX_DECISIONS,
            "seed {seed}: more than MAX_DECISIONS"
        );
    }
    r
}

#[test]
fn random_playouts_from_10000_seeds_keep_the_invariants() {
    let setup = RiftSetup::default_setup();
    let mut wins = 0;
    for seed in 0..10_000u64 {
        let r = playout(seed, &setup, seed < 300, seed < 1000);
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
        playout(seed, &setup, seed < 200, seed < 300);
    }
}

#[test]
fn campaign_playouts_keep_the_invariants_and_reach_every_game() {
    let mut values = sololab::SetupValues::new();
    values.insert("mode".into(), sololab::AxisValue::Name("campaign".into()));
    let setup = RiftSetup::resolve(&values).unwrap();
    let games = setup.content.campaign.len() as i64;
    let mut furthest = 0;
    for seed in 0..3000u64 {
        let r = playout(seed, &setup, seed < 100, seed < 200);
        let mut m = [0i64; 11];
        r.metrics(&mut m);
        assert!(m[1] >= 1 && m[1] <= games, "furthest game {}", m[1]);
        assert_eq!(
            m[0],
            m[1] - i64::from(r.result != 1),
            "games won = furthest game, less the lost one"
        );
        furthest = furthest.max(m[1]);
    }
    assert!(
        furthest >= 2,
        "random play gets past the first game sometimes ({furthest})"
    );
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
