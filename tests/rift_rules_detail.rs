//! Details of the Rift's rules that the rulebook's cases (`tests/rift_cases.rs`) and the golden
//! games leave open, each found by mutation testing (`scripts/mutants.sh`, issue 11;
//! `results/mutants/rift.md` lists which mutant each test kills). Each test sets up a position
//! through the position format (or a content value through the public API) and checks the
//! value the rule gives.

use sololab::games::rift::actions::aims;
use sololab::games::rift::board::NO_TILE;
use sololab::games::rift::board::{coord, parse_coord};
use sololab::games::rift::content::{Attack, Dir, Move, Shape, SideHit, Status};
use sololab::games::rift::rules::Hit;
use sololab::games::rift::state::{Phase, Where, st};
use sololab::games::rift::{Rift, RiftAction};
use sololab::{Game, GameRng, NoTrace, VecTrace};

/// Builds a position: the header and defaults, then the case's own lines.
fn position(lines: &str) -> Rift {
    let text = format!(
        "rift-position 1\ncontent builtin\nmonster_cards Nightmare,Demon,Wraith\n{}",
        lines.trim_start()
    );
    Rift::from_position(&text).unwrap_or_else(|e| panic!("case position: {e}\n{text}"))
}

fn t(s: &str) -> u8 {
    parse_coord(s).unwrap()
}

const EMPTY_BOARD: &str = "terrain\n......\n......\n......\n......\n......\n......\n";

/// An attack of `shape` with nothing else to it.
fn plain(shape: Shape) -> Attack {
    Attack {
        name: 0,
        shape,
        damage: 1,
        movement: Move::None,
        status: None,
        immobilize: false,
        sides: SideHit::None,
        splash: false,
        aims_at_terrain: false,
    }
}

/// Every aim `aims` offers for `attack` from `from`, as (direction, distance).
fn aims_of(r: &Rift, attack: &Attack, from: &str) -> Vec<(u8, u8)> {
    let mut out = Vec::new();
    aims(r, attack, t(from), r.occupied(), |d, n| out.push((d, n)));
    out
}

#[test]
fn a_self_attack_has_one_aim_and_each_shape_its_own_distances() {
    // Content: `shape = "self"` hits the attacker's own tile: one aim, not one per direction
    // (four copies of one action would weigh it four times in random and search play).
    let r = position(&format!(
        "clock phase=actions\nmech A tile=(6,6) hp=3 max_hp=3\n{EMPTY_BOARD}"
    ));
    assert_eq!(aims_of(&r, &plain(Shape::SelfTile), "(3,3)"), [(0, 0)]);
    // From (2,3): adjacent 1 tile each way; exact2 2 tiles where the map allows (not west);
    // range2plus from 2 to the edge; a line to the edge on an empty board.
    assert_eq!(
        aims_of(&r, &plain(Shape::Adjacent), "(2,3)"),
        [(0, 1), (1, 1), (2, 1), (3, 1)]
    );
    assert_eq!(
        aims_of(&r, &plain(Shape::Exact2), "(2,3)"),
        [(0, 2), (1, 2), (2, 2)]
    );
    assert_eq!(
        aims_of(&r, &plain(Shape::Range2Plus), "(2,3)"),
        [(0, 2), (1, 2), (1, 3), (1, 4), (2, 2), (2, 3)]
    );
    assert_eq!(
        aims_of(&r, &plain(Shape::Line), "(2,3)"),
        [(0, 2), (1, 4), (2, 3), (3, 1)]
    );
}

#[test]
fn a_shield_or_frozen_token_takes_the_damage_and_only_it_is_spent() {
    // Status Tokens, Shield and Frozen: the token prevents the damage and is removed; the
    // unit's other tokens stay. A shielded mech with fire, a shielded monster, a frozen monster
    // with acid: each takes 2 attack damage.
    let mut r = position(&format!(
        "clock phase=actions\n\
         mech A tile=(1,1) hp=3 max_hp=3 status=fire,shield\n\
         monster 1 at=map card=1 place=0 alpha=0 tile=(3,4) hp=2 status=shield\n\
         monster 2 at=map card=2 place=0 alpha=0 tile=(5,4) hp=2 status=frozen,acid\n\
         {EMPTY_BOARD}"
    ));
    for tile in ["(1,1)", "(3,4)", "(5,4)"] {
        r.damage(t(tile), 2, Hit::Attack, &mut NoTrace);
    }
    assert_eq!((r.mechs[0].hp, r.mechs[0].status), (3, st::FIRE));
    assert_eq!((r.monsters[0].hp, r.monsters[0].status), (2, 0));
    assert_eq!((r.monsters[1].hp, r.monsters[1].status), (2, st::ACID));
    // The next hits land (acid adds 1 to attack damage).
    r.damage(t("(3,4)"), 1, Hit::Attack, &mut NoTrace);
    r.damage(t("(5,4)"), 1, Hit::Attack, &mut NoTrace);
    assert_eq!((r.monsters[0].hp, r.monsters[1].hp), (1, 0));
    // The game's tally counts the HP the monsters lost: 1 + 2, nothing for the spent tokens.
    assert_eq!(r.tally.monster_damage, 3);
}

#[test]
fn a_shielded_or_frozen_building_spends_its_token_and_the_next_hit_ruins_it() {
    // Status Tokens (FAQ Buildings: shield and frozen go on buildings): the token prevents the
    // damage and is removed, the building's alone; a building without one is ruined and takes a
    // ruin from the supply. The tally counts ruined buildings by map card (columns 1-3, 4-6).
    let mut r = position(
        "clock phase=actions ruins=3\n\
         mech A tile=(1,1) hp=3 max_hp=3\n\
         tokens shield_buildings=(2,2)(5,2) frozen_buildings=(3,5)\n\
         terrain\n......\n.B..B.\n......\n......\n..B...\n......\n",
    );
    let all = r.buildings;
    let bit = |s: &str| 1u64 << t(s);
    r.damage(t("(2,2)"), 1, Hit::Attack, &mut NoTrace);
    assert_eq!(r.shield_b, bit("(5,2)"), "only (2,2)'s shield is spent");
    r.damage(t("(3,5)"), 1, Hit::Attack, &mut NoTrace);
    assert_eq!(r.frozen_b, 0, "the frozen token is spent");
    assert_eq!(
        (r.buildings, r.ruins),
        (all, 3),
        "no building is ruined yet"
    );
    r.damage(t("(2,2)"), 1, Hit::Attack, &mut NoTrace);
    assert_eq!(r.buildings, all & !bit("(2,2)"));
    assert_eq!((r.ruins, r.tally.ruined), (2, [1, 0]));
    r.damage(t("(5,2)"), 1, Hit::Attack, &mut NoTrace);
    assert_eq!((r.shield_b, r.buildings.count_ones(), r.ruins), (0, 2, 2));
    r.damage(t("(5,2)"), 1, Hit::Bump, &mut NoTrace);
    assert_eq!((r.ruins, r.tally.ruined), (1, [1, 1]));
    assert_eq!(r.buildings, bit("(3,5)"));
}

#[test]
fn only_the_token_that_overfills_the_supply_is_kept_out_of_the_choice() {
    // Status Tokens: "free up a status token by removing one from play" (CONTENT.md I16): the
    // choice opens only when a token is wanted and none is left, and the player chooses among
    // the tokens in play before it. Two fires lie on tiles; one fire more (the supply's last)
    // asks nothing; the next asks, and the earlier fire is among the candidates.
    let mut r = position(
        "clock phase=actions\n\
         mech A tile=(1,1) hp=3 max_hp=3\n\
         monster 1 at=map card=1 place=0 alpha=0 tile=(1,3)\n\
         monster 2 at=map card=2 place=0 alpha=0 tile=(2,3)\n\
         tokens fire=(5,5)(6,6)\n",
    );
    let mut rng = <GameRng as rand::SeedableRng>::seed_from_u64(1);
    r.add_status(t("(1,3)"), Status::Fire, &mut NoTrace);
    assert_eq!(r.tokens_in_play(Status::Fire), 3);
    let mut after_third = r;
    after_third.run_steps(&mut rng, &mut NoTrace);
    assert_eq!(
        after_third.phase,
        Phase::Actions,
        "the supply had a third token"
    );
    assert_eq!(after_third.keep, 0);
    r.add_status(t("(2,3)"), Status::Fire, &mut NoTrace);
    r.run_steps(&mut rng, &mut NoTrace);
    assert_eq!(r.phase, Phase::Choice);
    let mut legal = Vec::new();
    r.legal_actions(&mut legal);
    let offered: Vec<(u8, Status)> = legal
        .iter()
        .map(|a| match *a {
            RiftAction::FreeToken { tile, token } => (tile, token),
            other => panic!("not a token choice: {other:?}"),
        })
        .collect();
    assert_eq!(
        offered,
        [
            (t("(1,3)"), Status::Fire),
            (t("(5,5)"), Status::Fire),
            (t("(6,6)"), Status::Fire)
        ],
        "every fire in play but the one that overfilled the supply"
    );
}

#[test]
fn a_frozen_unit_pushed_onto_fire_conflicts_and_only_there() {
    // Status Tokens (CONTENT.md I17): fire and frozen are two sides of one token; a frozen
    // unit brought onto a fire token waits for the player's choice. A frozen monster beside a
    // fire, a shielded monster beside an acid, and units standing on a fire or an acid they do
    // not hold (pushed there with I19 flipped) conflict with nothing; pushed onto the fire, the frozen monster does.
    let mut r = position(&format!(
        "clock phase=actions\n\
         mech A tile=(1,1) hp=3 max_hp=3\n\
         mech B tile=(4,5) hp=3 max_hp=3\n\
         monster 1 at=map card=1 place=0 alpha=0 tile=(3,3) status=frozen\n\
         monster 2 at=map card=2 place=0 alpha=0 tile=(3,5) status=shield\n\
         monster 3 at=map card=3 place=0 alpha=0 tile=(6,6)\n\
         tokens fire=(4,3)(6,6) acid=(4,5)\n{EMPTY_BOARD}"
    ));
    assert_eq!(r.conflict_at(), None);
    r.push(t("(3,3)"), Dir::East, &mut NoTrace);
    assert_eq!(r.monsters[0].tile, t("(4,3)"));
    assert_eq!(r.conflict_at(), Some((t("(4,3)"), Status::Fire)));
    let mut rng = <GameRng as rand::SeedableRng>::seed_from_u64(1);
    r.run_steps(&mut rng, &mut NoTrace);
    assert_eq!(r.phase, Phase::Choice);
    // Removing the frozen token lets the fire attach (and leave the tile).
    let mut take_fire = r;
    take_fire.apply(
        RiftAction::RemoveConflicting {
            tile: t("(4,3)"),
            attached: true,
        },
        &mut rng,
    );
    assert_eq!(
        (take_fire.monsters[0].status, take_fire.fire),
        (st::FIRE, 1u64 << t("(6,6)"))
    );
    assert_eq!(take_fire.conflict_at(), None);
    // Keeping the frozen token discards the fire: nothing conflicts any more.
    r.apply(
        RiftAction::RemoveConflicting {
            tile: t("(4,3)"),
            attached: false,
        },
        &mut rng,
    );
    assert_eq!(
        (r.monsters[0].status, r.fire),
        (st::FROZEN, 1u64 << t("(6,6)"))
    );
    assert_eq!((r.conflict_at(), r.phase), (None, Phase::Actions));
}

#[test]
fn freeing_a_token_removes_exactly_the_chosen_one() {
    // CONTENT.md I16: the player frees one token from play: the one attached to the unit on
    // the tile if it holds that token, else the one lying on the tile or on its building. Each
    // kind once, with other tokens around that must stay.
    let mut r = position(&format!(
        "clock phase=actions\n\
         mech A tile=(1,1) hp=3 max_hp=3 status=fire\n\
         monster 1 at=map card=1 place=0 alpha=0 tile=(3,4) status=fire,shield\n\
         tokens smoke=(1,1)(3,4) rock=(2,6) fire=(5,5) acid=(6,3)(6,4)\n{EMPTY_BOARD}"
    ));
    let bit = |s: &str| 1u64 << t(s);
    // Smoke lies under a unit holding other tokens: the tile's smoke goes, the unit's stay.
    r.free_token(t("(1,1)"), Status::Smoke, &mut NoTrace);
    assert_eq!((r.smoke, r.mechs[0].status), (bit("(3,4)"), st::FIRE));
    r.free_token(t("(3,4)"), Status::Smoke, &mut NoTrace);
    assert_eq!((r.smoke, r.monsters[0].status), (0, st::FIRE | st::SHIELD));
    // Fire attached to the monster: only the fire goes, the lying fire stays.
    r.free_token(t("(3,4)"), Status::Fire, &mut NoTrace);
    assert_eq!((r.monsters[0].status, r.fire), (st::SHIELD, bit("(5,5)")));
    r.free_token(t("(5,5)"), Status::Fire, &mut NoTrace);
    assert_eq!((r.fire, r.mechs[0].status), (0, st::FIRE));
    r.free_token(t("(6,3)"), Status::Acid, &mut NoTrace);
    assert_eq!(r.acid, bit("(6,4)"));
    r.free_token(t("(2,6)"), Status::Rock, &mut NoTrace);
    assert_eq!((r.rock, r.acid, r.smoke), (0, bit("(6,4)"), 0));
    // Frozen and shield tokens on buildings.
    let mut r = position(
        "clock phase=actions\n\
         mech A tile=(1,1) hp=3 max_hp=3\n\
         tokens frozen_buildings=(2,2)(5,2) shield_buildings=(4,2)(3,5)\n\
         terrain\n......\n.B.BB.\n......\n......\n..B...\n......\n",
    );
    r.free_token(t("(2,2)"), Status::Frozen, &mut NoTrace);
    assert_eq!((r.frozen_b, r.shield_b.count_ones()), (bit("(5,2)"), 2));
    r.free_token(t("(4,2)"), Status::Shield, &mut NoTrace);
    assert_eq!((r.shield_b, r.frozen_b), (bit("(3,5)"), bit("(5,2)")));
}

#[test]
fn settling_a_conflict_touches_only_the_tokens_of_that_conflict() {
    // CONTENT.md I17. A monster holding frozen and a shield is pushed onto acid: the conflict is
    // the acid's (its frozen token has no fire to meet). Keeping the shield discards the acid;
    // removing it lets the acid attach; the frozen token stays either way.
    let mut r = position(&format!(
        "clock phase=actions\n\
         mech A tile=(1,1) hp=3 max_hp=3\n\
         monster 1 at=map card=1 place=0 alpha=0 tile=(3,3) status=frozen,shield\n\
         tokens acid=(4,3)\n{EMPTY_BOARD}"
    ));
    r.push(t("(3,3)"), Dir::East, &mut NoTrace);
    assert_eq!(r.conflict_at(), Some((t("(4,3)"), Status::Acid)));
    let mut rng = <GameRng as rand::SeedableRng>::seed_from_u64(1);
    r.run_steps(&mut rng, &mut NoTrace);
    assert_eq!(r.phase, Phase::Choice);
    let mut take_acid = r;
    take_acid.apply(
        RiftAction::RemoveConflicting {
            tile: t("(4,3)"),
            attached: true,
        },
        &mut rng,
    );
    assert_eq!(take_acid.monsters[0].status, st::FROZEN | st::ACID);
    assert_eq!(take_acid.acid, 0);
    r.apply(
        RiftAction::RemoveConflicting {
            tile: t("(4,3)"),
            attached: false,
        },
        &mut rng,
    );
    assert_eq!(r.monsters[0].status, st::FROZEN | st::SHIELD);
    assert_eq!((r.acid, r.phase), (0, Phase::Actions));

    // A shielded monster stands on a fire and an acid it does not hold (pushed there with I19
    // flipped): its conflict is the acid's, and the fire stays on the tile.
    let mut r = position(&format!(
        "clock phase=choice\nchoice resume=actions done=- keep=-\n\
         mech A tile=(1,1) hp=3 max_hp=3 status=shield\n\
         monster 1 at=map card=1 place=0 alpha=0 tile=(5,5) status=shield\n\
         tokens fire=(5,5) acid=(5,5)\n{EMPTY_BOARD}"
    ));
    assert_eq!(r.conflict_at(), Some((t("(5,5)"), Status::Acid)));
    let start = r;
    r.settle_conflict(t("(5,5)"), true, &mut NoTrace);
    assert_eq!((r.acid, r.fire), (0, 1u64 << t("(5,5)")));
    assert_eq!(r.monsters[0].status, st::SHIELD);
    // On a tile without a conflict (mech A's shield meets no acid) nothing changes.
    for keep in [true, false] {
        let mut r = start;
        r.settle_conflict(t("(1,1)"), keep, &mut NoTrace);
        assert_eq!(r, start, "keep_attached = {keep}");
    }
    // Nor on a frozen mech standing on an acid it does not hold (frozen meets only fire).
    let start = position(&format!(
        "clock phase=actions\n\
         mech A tile=(1,1) hp=3 max_hp=3 status=frozen\n\
         tokens acid=(1,1)\n{EMPTY_BOARD}"
    ));
    assert_eq!(start.conflict_at(), None);
    for keep in [true, false] {
        let mut r = start;
        r.settle_conflict(t("(1,1)"), keep, &mut NoTrace);
        assert_eq!(r, start, "keep_attached = {keep}");
    }
}

#[test]
fn no_token_goes_on_a_mountain() {
    // A mountain is no unit and no building: an attack's status aimed at it, or a forest's fire,
    // leaves no token there (Status Tokens go on units, buildings or empty ground).
    let mut r = position(
        "clock phase=actions\n\
         mech A tile=(1,1) hp=3 max_hp=3\n\
         terrain\n......\n......\n..M...\n......\n......\n......\n",
    );
    let start = r;
    for s in [
        Status::Rock,
        Status::Smoke,
        Status::Fire,
        Status::Acid,
        Status::Frozen,
        Status::Shield,
    ] {
        r.add_status(t("(3,3)"), s, &mut NoTrace);
        assert_eq!(r, start, "{s:?} on the mountain");
    }
    // The same token beside it lies on the ground.
    r.add_status(t("(3,4)"), Status::Smoke, &mut NoTrace);
    assert_eq!(r.smoke, 1u64 << t("(3,4)"));
}

#[test]
fn adding_a_token_replaces_its_other_side_and_respects_rocks() {
    // Status Tokens: fire/frozen, shield/acid and rock/smoke are the two sides of one token, so
    // adding one side removes the other there, and only there; a rock is a unit (CONTENT.md,
    // I18): no rock goes under another unit, and no fire, acid, frozen or shield token goes on a
    // rock (smoke, its other side, replaces it).
    let mut r = position(&format!(
        "clock phase=actions\n\
         mech A tile=(1,1) hp=3 max_hp=3 status=frozen,shield\n\
         mech B tile=(6,1) hp=3 max_hp=3 status=fire\n\
         tokens rock=(3,3)(5,5)\n{EMPTY_BOARD}"
    ));
    r.add_status(t("(1,1)"), Status::Fire, &mut NoTrace);
    assert_eq!(
        r.mechs[0].status,
        st::FIRE | st::SHIELD,
        "fire replaces frozen"
    );
    r.add_status(t("(6,1)"), Status::Frozen, &mut NoTrace);
    assert_eq!(r.mechs[1].status, st::FROZEN, "frozen replaces fire");
    let rocks = r.rock;
    r.add_status(t("(1,1)"), Status::Rock, &mut NoTrace);
    assert_eq!(r.rock, rocks, "no rock under mech A");
    for s in [Status::Fire, Status::Acid] {
        r.add_status(t("(3,3)"), s, &mut NoTrace);
    }
    assert_eq!((r.fire, r.acid, r.rock), (0, 0, rocks), "nothing on a rock");
    let mut trace = VecTrace::default();
    r.add_status(t("(3,3)"), Status::Smoke, &mut trace);
    assert_eq!(r.rock, 1u64 << t("(5,5)"), "smoke replaces this rock only");
    assert_eq!(r.smoke, 1u64 << t("(3,3)"));
    // The trace says where the token went: lying on the tile, or attached to the unit.
    r.add_status(t("(6,1)"), Status::Smoke, &mut trace);
    r.add_status(t("(6,1)"), Status::Acid, &mut trace);
    assert_eq!(
        trace.0,
        [
            "a smoke token lies on (3,3)",
            "a smoke token lies on (6,1)",
            "mech B gets acid"
        ]
    );
}

#[test]
fn each_token_lies_where_it_can() {
    // FAQ Buildings: only shield and frozen go on a building; rock, smoke, fire and acid lie on
    // empty ground, and shield and frozen need a unit or a building to go on.
    let mut r = position(
        "clock phase=actions\n\
         mech A tile=(1,1) hp=3 max_hp=3\n\
         terrain\n......\n.BB...\n......\n......\n......\n......\n",
    );
    let bit = |s: &str| 1u64 << t(s);
    r.add_status(t("(2,2)"), Status::Shield, &mut NoTrace);
    r.add_status(t("(3,2)"), Status::Frozen, &mut NoTrace);
    assert_eq!((r.shield_b, r.frozen_b), (bit("(2,2)"), bit("(3,2)")));
    for s in [Status::Rock, Status::Smoke, Status::Fire, Status::Acid] {
        r.add_status(t("(2,2)"), s, &mut NoTrace);
    }
    let ground = [
        (Status::Rock, "(1,4)"),
        (Status::Smoke, "(2,4)"),
        (Status::Fire, "(3,4)"),
        (Status::Acid, "(4,4)"),
        (Status::Shield, "(5,4)"),
        (Status::Frozen, "(6,4)"),
    ];
    for (s, tile) in ground {
        r.add_status(t(tile), s, &mut NoTrace);
    }
    assert_eq!(
        (r.rock, r.smoke, r.fire, r.acid),
        (bit("(1,4)"), bit("(2,4)"), bit("(3,4)"), bit("(4,4)"))
    );
    assert_eq!(
        (r.shield_b, r.frozen_b),
        (bit("(2,2)"), bit("(3,2)")),
        "nothing else on the building, no shield or frozen on the ground"
    );
}

#[test]
fn a_pushed_unit_picks_up_tile_tokens_only_while_i19_is_read_so() {
    // CONTENT.md I19 (rule_tokens_on_push, on by default): a unit pushed onto a fire or acid
    // token picks it up as if it had moved there; flipped, only regular movement does.
    use sololab::games::rift::switches::rule;
    let start = position(&format!(
        "clock phase=actions\n\
         mech A tile=(1,1) hp=3 max_hp=3\n\
         mech B tile=(6,1) hp=3 max_hp=3\n\
         monster 1 at=map card=1 place=0 alpha=0 tile=(3,3)\n\
         tokens fire=(4,3) acid=(1,2)\n{EMPTY_BOARD}"
    ));
    assert_ne!(
        start.campaign.rules & rule::TOKENS_ON_PUSH,
        0,
        "the default"
    );
    let mut r = start;
    r.push(t("(3,3)"), Dir::East, &mut NoTrace);
    assert_eq!((r.monsters[0].status, r.fire), (st::FIRE, 0));
    let mut flipped = start;
    flipped.campaign.rules &= !rule::TOKENS_ON_PUSH;
    flipped.push(t("(3,3)"), Dir::East, &mut NoTrace);
    assert_eq!(flipped.monsters[0].tile, t("(4,3)"));
    assert_eq!(
        (flipped.monsters[0].status, flipped.fire),
        (0, 1u64 << t("(4,3)"))
    );
    // Regular movement picks the acid up either way.
    let mut rng = <GameRng as rand::SeedableRng>::seed_from_u64(1);
    let step = RiftAction::Move {
        mech: 0,
        tile: t("(1,2)"),
    };
    flipped.apply(step, &mut rng);
    assert_eq!((flipped.mechs[0].status, flipped.acid), (st::ACID, 0));
}

#[test]
fn exploding_monsters_chain_only_while_i27_is_read_so() {
    // Finale exploding_monsters: a dead monster deals 1 effect damage to its 4 neighbours;
    // a monster killed by an explosion explodes in turn (CONTENT.md I27, rule_explode_chain, on
    // by default). Three monsters in a row: the first dies, its blast kills the second, whose
    // blast reaches the third only with the chain.
    use sololab::games::rift::switches::rule;
    let start = position(&format!(
        "clock phase=actions\nfinale exploding_monsters\n\
         mech A tile=(6,6) hp=3 max_hp=3\n\
         monster 1 at=map card=1 place=0 alpha=0 tile=(2,3) hp=1\n\
         monster 2 at=map card=2 place=0 alpha=0 tile=(3,3) hp=1\n\
         monster 3 at=map card=3 place=0 alpha=0 tile=(4,3) hp=2\n{EMPTY_BOARD}"
    ));
    assert_ne!(start.campaign.rules & rule::EXPLODE_CHAIN, 0, "the default");
    let blast = |mut r: Rift| {
        r.damage(t("(2,3)"), 1, Hit::Attack, &mut NoTrace);
        r.remove_dead(&mut NoTrace);
        (r.tally.kills, r.monsters[2].hp)
    };
    assert_eq!(blast(start), (2, 1), "the chain reaches monster 3");
    let mut flipped = start;
    flipped.campaign.rules &= !rule::EXPLODE_CHAIN;
    assert_eq!(blast(flipped), (2, 2), "only the first monster explodes");
}

#[test]
fn the_dead_leave_the_map_and_the_tally_counts_them() {
    // Units at 0 HP are removed once the effect has resolved: a dead mech leaves the map with
    // its tokens; a dead monster returns to the supply. The game's tally counts mech deaths,
    // kills and Alpha kills (the lab's features).
    let mut r = position(&format!(
        "clock phase=actions\n\
         mech A tile=(1,1) hp=1 max_hp=3 status=fire\n\
         mech B tile=(6,1) hp=3 max_hp=3\n\
         monster 1 at=map card=2 place=3 alpha=1 tile=(3,3) hp=1\n\
         monster 2 at=map card=1 place=0 alpha=0 tile=(4,4) hp=1\n{EMPTY_BOARD}"
    ));
    for tile in ["(1,1)", "(3,3)", "(4,4)"] {
        r.damage(t(tile), 1, Hit::Attack, &mut NoTrace);
    }
    r.remove_dead(&mut NoTrace);
    assert_eq!((r.mechs[0].tile, r.mechs[0].status), (NO_TILE, 0));
    assert_eq!(
        (r.monsters[0].at, r.monsters[1].at),
        (Where::Supply, Where::Supply)
    );
    assert_eq!(
        (r.tally.mech_deaths, r.tally.kills, r.tally.alpha_kills),
        (1, 2, 1)
    );
    assert!(!r.over(), "mech B lives");
}

#[test]
fn a_flood_drowns_the_walking_monsters_on_its_tiles_only() {
    // FAQ, Map effects (Flood): a flooding tile is water from its turn; at Time passes a
    // walking monster on a tile that has just become water dies (Units: monsters on water die);
    // fliers do not, and with the water_as_ground finale nobody does. Sunken Causeway on the
    // left with its yellow effects: (2,4) floods when the campaign die reaches 3.
    let objective = position("clock phase=actions\nmech A tile=(1,1) hp=3 max_hp=3\n")
        .content
        .objectives[0]
        .name
        .replace(' ', "_");
    let game = |monster: &str, finale: &str| {
        let mut r = position(&format!(
            "maps Sunken_Causeway,Stormbreak_Ridge\n\
             objectives left={objective}:yellow right=-\nfinale {finale}\n\
             clock campaign_die=4 phase=actions\n\
             mech A tile=(4,6) hp=3 max_hp=3\n\
             monster 1 at=map card={monster} place=0 alpha=0 tile=(2,4)\n\
             monster 2 at=map card=1 place=0 alpha=0 tile=(1,1)\n"
        ));
        assert_eq!(r.water & (1u64 << t("(2,4)")), 0, "no printed water");
        r.time_passes(&mut NoTrace);
        assert_eq!(r.campaign_die, 3);
        assert_ne!(r.water_now() & (1u64 << t("(2,4)")), 0, "(2,4) floods");
        assert_eq!(
            r.monsters[1].at,
            Where::Map,
            "the monster off the flood lives"
        );
        r.monsters[0].at
    };
    // Card 2 is the Demon (walks), card 3 the Wraith (flies).
    assert_eq!(game("2", "-"), Where::Supply, "the Demon drowns");
    assert_eq!(game("3", "-"), Where::Map, "the Wraith flies");
    assert_eq!(game("2", "water_as_ground"), Where::Map, "water is ground");
}

#[test]
fn the_deadly_columns_finale_kills_the_mechs_in_the_die_column_only() {
    // Finale deadly_columns: at Upkeep, mechs in the monster die's column are killed (not
    // damaged: a shield does not help). Die 3: mech A in column 3 dies, mech B in column 4 and
    // the monster in column 3 are untouched; without the finale nobody is.
    let game = |finale: &str| {
        let mut r = position(&format!(
            "clock die=3 phase=actions\nfinale {finale}\n\
             mech A tile=(3,2) hp=3 max_hp=3 status=shield\n\
             mech B tile=(4,5) hp=3 max_hp=3\n\
             monster 1 at=map card=1 place=0 alpha=0 tile=(3,5) hp=2\n{EMPTY_BOARD}"
        ));
        r.upkeep(&mut NoTrace);
        (
            r.mechs[0].alive(),
            r.mechs[1].hp,
            r.monsters[0].hp,
            r.tally.mech_deaths,
        )
    };
    assert_eq!(game("deadly_columns"), (false, 3, 2, 1));
    assert_eq!(game("-"), (true, 3, 2, 0));
}

#[test]
fn the_storm_kills_through_a_shield_unless_i24_is_flipped() {
    // Stormbreak Ridge, left side with its yellow effects: a storm on (2,2) at turn 4 and on
    // (2,4) at turn 2. At Upkeep of turn 4 the storm removes the unit on (2,2) whatever its
    // shield or frozen token ("does not count as damage"; CONTENT.md I24,
    // rule_storm_ignores_shield, on by default); flipped, a shield protects it and is spent,
    // else a frozen token does. The storm of turn 2 does nothing. `on_storm` is the line of the
    // unit on (2,2); returns whether mech A lives, its status, monster 1's place and status, and
    // the rocks.
    use sololab::games::rift::switches::rule;
    let game = |ignores_shield: bool, on_storm: &str| {
        let mut r = position(&format!(
            "maps Stormbreak_Ridge,Sunken_Causeway\n\
             objectives left=Ride_Out_the_Storm:yellow right=-\n\
             clock campaign_die=4 phase=actions\n\
             mech B tile=(5,5) hp=3 max_hp=3\n\
             monster 2 at=map card=2 place=0 alpha=0 tile=(2,4) hp=2\n{on_storm}\n"
        ));
        assert_ne!(
            r.campaign.rules & rule::STORM_IGNORES_SHIELD,
            0,
            "the default"
        );
        if !ignores_shield {
            r.campaign.rules &= !rule::STORM_IGNORES_SHIELD;
        }
        r.upkeep(&mut NoTrace);
        assert_eq!(r.monsters[1].at, Where::Map, "no storm on (2,4) this turn");
        assert_eq!(r.mechs[1].hp, 3);
        (
            r.mechs[0].alive(),
            r.mechs[0].status,
            r.monsters[0].at,
            r.monsters[0].status,
            r.rock,
        )
    };
    let mech = |status: &str| format!("mech A tile=(2,2) hp=3 max_hp=3 status={status}");
    let f = st::FROZEN;
    let supply = Where::Supply;
    assert_eq!(game(true, &mech("shield")), (false, 0, supply, 0, 0));
    assert_eq!(game(false, &mech("shield")), (true, 0, supply, 0, 0));
    assert_eq!(game(false, &mech("frozen")), (true, 0, supply, 0, 0));
    assert_eq!(
        game(false, &mech("frozen,shield")),
        (true, f, supply, 0, 0),
        "the shield goes first"
    );
    assert_eq!(game(false, &mech("-")), (false, 0, supply, 0, 0));
    // A monster and a rock on the storm, mech A safe on (2,1).
    let safe = "mech A tile=(2,1) hp=3 max_hp=3\n";
    let monster = |status: &str| {
        format!("{safe}monster 1 at=map card=1 place=0 alpha=0 tile=(2,2) hp=2 status={status}")
    };
    assert_eq!(game(true, &monster("shield")), (true, 0, supply, 0, 0));
    assert_eq!(
        game(false, &monster("shield,frozen")),
        (true, 0, Where::Map, f, 0)
    );
    assert_eq!(game(false, &monster("frozen")), (true, 0, Where::Map, 0, 0));
    assert_eq!(
        game(true, &format!("{safe}tokens rock=(2,2)")),
        (true, 0, supply, 0, 0),
        "the storm removes the rock"
    );
}

#[test]
fn acid_tiles_give_acid_at_upkeep_to_the_units_on_them_only() {
    // Map effects (acid tiles): at Upkeep a unit standing on an acid tile gets acid, unless it
    // holds acid already. Mech A and monster 1 stand on acid tiles; mech B and monster 2 do not;
    // a rock and an empty acid tile get nothing, and no acid token goes on the ground.
    let mut r = position(&format!(
        "clock phase=actions\n\
         mech A tile=(2,2) hp=3 max_hp=3\n\
         mech B tile=(5,2) hp=3 max_hp=3\n\
         monster 1 at=map card=1 place=0 alpha=0 tile=(3,3) hp=2\n\
         monster 2 at=map card=2 place=0 alpha=0 tile=(5,3) hp=2\n\
         monster 3 at=map card=3 place=0 alpha=0 tile=(2,5) hp=2 status=acid\n\
         tokens rock=(4,4) acid_tiles=(2,2)(3,3)(4,4)(5,5)(2,5)\n{EMPTY_BOARD}"
    ));
    let acid_before = r.tokens_in_play(Status::Acid);
    r.upkeep(&mut NoTrace);
    assert_eq!(
        (r.mechs[0].status, r.mechs[1].status),
        (st::ACID, 0),
        "mech A on an acid tile"
    );
    assert_eq!(
        (
            r.monsters[0].status,
            r.monsters[1].status,
            r.monsters[2].status
        ),
        (st::ACID, 0, st::ACID)
    );
    assert_eq!((r.acid, r.rock), (0, 1u64 << t("(4,4)")));
    assert_eq!(r.tokens_in_play(Status::Acid), acid_before + 2);
}

#[test]
fn a_frozen_or_smoked_monster_skips_its_attack_only_while_i11_is_read_so() {
    // Status Tokens: a frozen monster or one on smoke does not attack (CONTENT.md I11,
    // rule_frozen_skip_attack, on by default); flipped, it attacks "no matter what" (FAQ,
    // Monster attacks). The Demon at (3,3) aims east at mech A on (4,3) (1 damage).
    use sololab::games::rift::switches::rule;
    let attack = |status: &str, smoke: &str, skip: bool| {
        let mut r = position(&format!(
            "clock phase=actions\n\
             mech A tile=(4,3) hp=3 max_hp=3\n\
             monster 1 at=map card=2 place=0 alpha=0 tile=(3,3) hp=2 status={status} aim=E1\n\
             tokens smoke={smoke}\n{EMPTY_BOARD}"
        ));
        assert_ne!(
            r.campaign.rules & rule::FROZEN_SKIP_ATTACK,
            0,
            "the default"
        );
        if !skip {
            r.campaign.rules &= !rule::FROZEN_SKIP_ATTACK;
        }
        r.monster_attack(0, &mut NoTrace);
        r.mechs[0].hp
    };
    assert_eq!(attack("-", "-", true), 2, "it attacks");
    assert_eq!(attack("frozen", "-", true), 3, "frozen: no attack");
    assert_eq!(attack("-", "(3,3)", true), 3, "on smoke: no attack");
    assert_eq!(
        attack("-", "(4,3)", true),
        2,
        "smoke on the target does not stop it"
    );
    assert_eq!(attack("frozen", "-", false), 2, "flipped: it attacks");
    assert_eq!(
        attack("-", "(3,3)", false),
        2,
        "flipped: it attacks from smoke"
    );
}

#[test]
fn the_detect_before_spawn_finale_detects_before_or_after_spawn_by_i25() {
    // Finale detect_before_spawn: Detect runs right before Spawn (step 2), so this turn's
    // detections spawn at once (CONTENT.md I25, rule_detect_before_spawn, on by default);
    // flipped, right after it, so they spawn next turn. Either way no Detect at step 5. Without
    // the finale Detect is step 5, after the monster die's roll. Case R3's spawn tiles; monster
    // 1 on the map, 2-4 in the supply. Returns the monsters on the map and detected, the die
    // before and after the turn's roll, and the spawn number under the first detection.
    use sololab::games::rift::switches::rule;
    let turn = |finale: &str, before: bool| {
        let mut r = position(&format!(
            "clock die=4 die_card=2 phase=actions\nfinale {finale}\n\
             mech A tile=(6,1) hp=3 max_hp=3\n\
             monster 1 at=map card=1 place=0 alpha=0 tile=(1,1)\n\
             {EMPTY_BOARD}spawns\n......\n......\n......\n......\n5678..\n1234..\n"
        ));
        assert_ne!(
            r.campaign.rules & rule::DETECT_BEFORE_SPAWN,
            0,
            "the default"
        );
        if !before {
            r.campaign.rules &= !rule::DETECT_BEFORE_SPAWN;
        }
        let die_before = r.die;
        let mut rng = <GameRng as rand::SeedableRng>::seed_from_u64(3);
        r.start_turn(&mut rng, &mut NoTrace);
        let count = |w: Where| r.monsters.iter().filter(|m| m.at == w).count();
        let first = r
            .monsters
            .iter()
            .find(|m| m.at == Where::Detected && m.order == 0)
            .map(|m| r.spawn.iter().position(|&s| s == m.tile).unwrap() + 1);
        (
            count(Where::Map),
            count(Where::Detected),
            die_before,
            r.die,
            first,
        )
    };
    let (on_map, detected, _, _, _) = turn("detect_before_spawn", true);
    assert_eq!((on_map, detected), (4, 0), "detected and spawned at once");
    let (on_map, detected, _, die, first) = turn("detect_before_spawn", false);
    assert_eq!((on_map, detected), (1, 3), "detected after the spawn");
    assert_eq!(first, Some(4), "with the die before its roll ({die} after)");
    // Without the finale (either reading): Detect after the roll, from the new die's spawn tile.
    for before in [true, false] {
        let (on_map, detected, die_before, die, first) = turn("-", before);
        assert_ne!(die_before, die, "this seed's roll changes the die");
        assert_eq!((on_map, detected), (1, 3));
        assert_eq!(first, Some(die as usize));
    }
}

#[test]
fn a_rock_takes_bump_damage_only_while_i18_is_read_so() {
    // Status Tokens, Rock: a rock is "a unit with 1 HP" and takes bump damage (CONTENT.md I18,
    // rule_rocks_take_bump, on by default); flipped, only attack and effect damage destroy it.
    use sololab::games::rift::switches::rule;
    let hit_rock = |hit: Hit, takes_bump: bool| {
        let mut r = position(&format!(
            "clock phase=actions\nmech A tile=(1,1) hp=3 max_hp=3\n\
             tokens rock=(3,3)\n{EMPTY_BOARD}"
        ));
        assert_ne!(r.campaign.rules & rule::ROCKS_TAKE_BUMP, 0, "the default");
        if !takes_bump {
            r.campaign.rules &= !rule::ROCKS_TAKE_BUMP;
        }
        r.damage(t("(3,3)"), 1, hit, &mut NoTrace);
        r.rock != 0
    };
    assert!(!hit_rock(Hit::Bump, true), "a bump destroys the rock");
    assert!(hit_rock(Hit::Bump, false), "flipped: the rock stays");
    assert!(!hit_rock(Hit::Attack, true));
    assert!(
        !hit_rock(Hit::Attack, false),
        "an attack destroys it either way"
    );
    assert!(!hit_rock(Hit::Effect, false));
}

#[test]
fn detections_spawn_in_detection_order_or_by_card_with_i28_flipped() {
    // Spawn: detections spawn in the order they were detected (CONTENT.md I28,
    // rule_spawn_detection_order, on by default); flipped, by their card's place in the row
    // (leftmost first), then their detection order. With an Alpha limit of 1 the first to spawn
    // is the Alpha. Monster 2 on card `x_card` detected `x_order`-th, monster 3 on card 3
    // detected `y_order`-th; returns which of the two spawns as the Alpha.
    use sololab::games::rift::switches::rule;
    let alpha = |x_card: u8, x_order: u8, y_order: u8, by_detection: bool| {
        let mut r = position(&format!(
            "clock die=1 die_card=1 phase=actions alpha_limit=1\n\
             mech A tile=(1,1) hp=3 max_hp=3\n\
             monster 2 at=detected card={x_card} tile=(3,6) order={x_order}\n\
             monster 3 at=detected card=3 tile=(4,6) order={y_order}\n\
             {EMPTY_BOARD}spawns\n......\n......\n......\n......\n......\n..12..\n"
        ));
        assert_ne!(
            r.campaign.rules & rule::SPAWN_DETECTION_ORDER,
            0,
            "the default"
        );
        if !by_detection {
            r.campaign.rules &= !rule::SPAWN_DETECTION_ORDER;
        }
        r.spawn(&mut NoTrace);
        assert_eq!(r.tally.spawned, 2);
        match (r.monsters[1].alpha, r.monsters[2].alpha) {
            (true, false) => 2,
            (false, true) => 3,
            other => panic!("one Alpha expected: {other:?}"),
        }
    };
    // Monster 2 on card 2 detected 4th (order 3), monster 3 on card 3 detected 2nd (order 1):
    // by detection monster 3 comes first; by card monster 2 (card 2 before card 3).
    assert_eq!(alpha(2, 3, 1, true), 3);
    assert_eq!(alpha(2, 3, 1, false), 2);
    // Monster 2 on card 1 detected 2nd: by card it still comes first.
    assert_eq!(alpha(1, 1, 0, true), 3);
    assert_eq!(alpha(1, 1, 0, false), 2);
}

#[test]
fn an_attacks_status_lands_before_its_push_only_while_i14_is_read_so() {
    // CONTENT.md I14 (rule_status_before_push, on by default): within an attack the status
    // lands on the target tile before the push, so a pushed monster carries the fire away;
    // flipped, the push comes first and the fire lands on the tile the monster left.
    use sololab::games::rift::switches::rule;
    let start = position(&format!(
        "clock phase=actions\n\
         mech A tile=(1,1) hp=3 max_hp=3\n\
         monster 1 at=map card=1 place=0 alpha=0 tile=(3,3) hp=2\n{EMPTY_BOARD}"
    ));
    assert_ne!(
        start.campaign.rules & rule::STATUS_BEFORE_PUSH,
        0,
        "the default"
    );
    let fire_push = Attack {
        movement: Move::Push,
        status: Some(Status::Fire),
        ..plain(Shape::Adjacent)
    };
    let hit = |mut r: Rift| {
        r.resolve_attack(&fire_push, t("(3,3)"), Dir::East, None, &mut NoTrace);
        let m = r.monsters[0];
        (coord(m.tile), m.hp, m.status, r.fire)
    };
    assert_eq!(hit(start), ("(4,3)".into(), 1, st::FIRE, 0));
    let mut flipped = start;
    flipped.campaign.rules &= !rule::STATUS_BEFORE_PUSH;
    assert_eq!(hit(flipped), ("(4,3)".into(), 1, 0, 1u64 << t("(3,3)")));
}

#[test]
fn a_reward_offers_only_the_cards_of_the_mech_it_is_for_that_can_still_slide() {
    // Campaign rewards A and B: the mech the reward is for slides its mech card or its pilot
    // card to the next row; a card at its last row (level 3) cannot slide, so it is not offered.
    let setup = |pending: &str, levels_a: &str, levels_b: &str| {
        position(&format!(
            "clock phase=reward\n\
             campaign on=1 game=2 pending={pending}\n\
             mech A tile=(1,1) hp=3 max_hp=3 levels={levels_a}\n\
             mech B tile=(6,1) hp=3 max_hp=3 levels={levels_b}\n{EMPTY_BOARD}"
        ))
    };
    let offered = |r: &Rift| {
        let mut acts = Vec::new();
        r.legal_actions(&mut acts);
        acts
    };
    let reward = |pending: &str, levels_a: &str, levels_b: &str| {
        offered(&setup(pending, levels_a, levels_b))
    };
    let up = |mech: u8, pilot: bool| RiftAction::Upgrade { mech, pilot };
    // Mech B's reward (A has none pending): B's pilot only, its mech card is at row 3.
    assert_eq!(reward("0,1", "0,0", "3,1"), [up(1, true)]);
    // Mech A's: its mech card only, its pilot is at row 3.
    assert_eq!(reward("1,0", "1,3", "0,0"), [up(0, false)]);
    // Both cards can slide: both offered, the mech card first.
    assert_eq!(reward("0,2", "3,3", "2,2"), [up(1, false), up(1, true)]);
    // Sliding B's mech card: its row goes up by one, one reward of two is left, and then only
    // the pilot can slide.
    let mut r = setup("0,2", "3,3", "2,2");
    let mut rng = <GameRng as rand::SeedableRng>::seed_from_u64(1);
    r.apply(up(1, false), &mut rng);
    assert_eq!((r.mechs[1].mech_level, r.mechs[1].pilot_level), (3, 2));
    assert_eq!((r.campaign.pending, r.campaign.upgrades), ([0, 1], 1));
    assert_eq!(offered(&r), [up(1, true)]);
}

#[test]
fn skipping_the_attack_offers_every_subset_of_the_statuses_unless_i21_is_flipped() {
    // FAQ Player actions: a mech may skip its attack to remove "any number" of its attached
    // statuses (CONTENT.md I21, rule_skip_chooses_statuses, on by default): one action for
    // every non-empty subset, ascending; flipped, one action that removes them all.
    use sololab::games::rift::switches::rule;
    let start = position(&format!(
        "clock phase=actions\n\
         mech A tile=(1,1) hp=3 max_hp=3 status=fire,shield,acid\n\
         mech B tile=(6,1) hp=3 max_hp=3\n{EMPTY_BOARD}"
    ));
    assert_ne!(
        start.campaign.rules & rule::SKIP_CHOOSES_STATUSES,
        0,
        "the default"
    );
    let masks = |r: &Rift| {
        let mut acts = Vec::new();
        r.legal_actions(&mut acts);
        acts.iter()
            .filter_map(|a| match *a {
                RiftAction::ClearStatus { mech: 0, mask } => Some(mask),
                _ => None,
            })
            .collect::<Vec<u8>>()
    };
    let (f, s, a) = (st::FIRE, st::SHIELD, st::ACID);
    assert_eq!(masks(&start), [f, s, f | s, a, f | a, s | a, f | s | a]);
    let mut flipped = start;
    flipped.campaign.rules &= !rule::SKIP_CHOOSES_STATUSES;
    assert_eq!(masks(&flipped), [f | s | a]);
    // Dropping the fire keeps the shield and the acid, and ends the mech's turn (mech B's
    // actions are still to come).
    let mut rng = <GameRng as rand::SeedableRng>::seed_from_u64(1);
    let mut r = start;
    r.apply(RiftAction::ClearStatus { mech: 0, mask: f }, &mut rng);
    assert_eq!((r.mechs[0].status, r.mechs[0].done), (s | a, true));
    assert_eq!(
        r.decisions,
        start.decisions + 1,
        "the game counts the decision"
    );
}

#[test]
fn the_token_choice_offers_the_over_full_kinds_two_sides_for_each_kind() {
    // Status Tokens: rock/smoke, fire/frozen and shield/acid are the two sides of one kind of
    // token, 3 of each (CONTENT.md I16): a fourth rock-or-smoke (shield-or-acid) opens the choice
    // among that kind's tokens in play, either side, by tile, never another kind's.
    let choice = |tokens: &str, status: &str, add: Status, at: &str| {
        let mut r = position(&format!(
            "clock phase=actions\n\
             mech A tile=(1,1) hp=3 max_hp=3 status={status}\n\
             tokens {tokens}\n{EMPTY_BOARD}"
        ));
        let mut rng = <GameRng as rand::SeedableRng>::seed_from_u64(1);
        r.add_status(t(at), add, &mut NoTrace);
        r.run_steps(&mut rng, &mut NoTrace);
        assert_eq!(r.phase, Phase::Choice);
        let mut legal = Vec::new();
        r.legal_actions(&mut legal);
        legal
            .iter()
            .map(|a| match *a {
                RiftAction::FreeToken { tile, token } => (coord(tile), token),
                other => panic!("not a token choice: {other:?}"),
            })
            .collect::<Vec<_>>()
    };
    assert_eq!(
        choice(
            "rock=(1,5)(3,5) smoke=(2,5) fire=(1,6)",
            "-",
            Status::Smoke,
            "(4,5)"
        ),
        [
            ("(1,5)".into(), Status::Rock),
            ("(2,5)".into(), Status::Smoke),
            ("(3,5)".into(), Status::Rock)
        ]
    );
    assert_eq!(
        choice(
            "acid=(1,6)(2,6) smoke=(3,6)",
            "shield",
            Status::Acid,
            "(4,6)"
        ),
        [
            ("(1,1)".into(), Status::Shield),
            ("(1,6)".into(), Status::Acid),
            ("(2,6)".into(), Status::Acid)
        ]
    );
    // Once the player has freed a token the supply is no longer over-full: the choice closes and
    // Player actions go on (nothing is kept out of a later choice).
    let mut r = position(&format!(
        "clock phase=actions
         mech A tile=(1,1) hp=3 max_hp=3
         tokens rock=(1,5)(3,5) smoke=(2,5)
{EMPTY_BOARD}"
    ));
    let mut rng = <GameRng as rand::SeedableRng>::seed_from_u64(1);
    r.add_status(t("(4,5)"), Status::Smoke, &mut NoTrace);
    r.run_steps(&mut rng, &mut NoTrace);
    assert_eq!((r.phase, r.keep), (Phase::Choice, 1u64 << t("(4,5)")));
    let free = RiftAction::FreeToken {
        tile: t("(1,5)"),
        token: Status::Rock,
    };
    r.apply(free, &mut rng);
    assert_eq!((r.phase, r.keep, r.choice), (Phase::Actions, 0, false));
    assert_eq!(r.rock, 1u64 << t("(3,5)"));
    // Two kinds over-full by one effect (a fourth smoke and a fourth fire): the first choice made,
    // the second stays open, with the fires.
    let mut r = position(&format!(
        "clock phase=actions
         mech A tile=(1,1) hp=3 max_hp=3
         tokens rock=(1,5)(3,5) smoke=(2,5) fire=(1,6)(2,6)(3,6)
{EMPTY_BOARD}"
    ));
    r.add_status(t("(4,5)"), Status::Smoke, &mut NoTrace);
    r.add_status(t("(4,6)"), Status::Fire, &mut NoTrace);
    r.run_steps(&mut rng, &mut NoTrace);
    r.apply(free, &mut rng);
    assert_eq!((r.phase, r.choice), (Phase::Choice, true));
    let mut legal = Vec::new();
    r.legal_actions(&mut legal);
    assert_eq!(
        legal.first(),
        Some(&RiftAction::FreeToken {
            tile: t("(1,6)"),
            token: Status::Fire
        })
    );
}

#[test]
fn a_throw_goes_any_way_but_back_at_the_thrower_with_i32_flipped() {
    // FAQ, Attack directions: Wukong's Throw "must push in 1 of the 4 orthogonal directions"
    // (CONTENT.md I32, rule_throw_any_direction, on by default: toward the thrower too);
    // flipped, the three directions other than back toward the attacker. Wukong at (3,3) aims
    // east at the monster on (4,3).
    use sololab::games::rift::switches::rule;
    let start = position(&format!(
        "clock phase=actions
         mech A card=Wukong pilot=Sun_Li tile=(3,3) hp=3 max_hp=3
         monster 1 at=map card=2 place=3 alpha=1 tile=(4,3) hp=4
{EMPTY_BOARD}"
    ));
    assert_eq!(start.weapon(0, 0).movement, Move::Throw, "Wukong throws");
    assert_ne!(
        start.campaign.rules & rule::THROW_ANY_DIRECTION,
        0,
        "the default"
    );
    let throws = |r: &Rift| {
        let mut acts = Vec::new();
        r.legal_actions(&mut acts);
        acts.iter()
            .filter_map(|a| match *a {
                RiftAction::Attack {
                    mech: 0,
                    weapon: 0,
                    dir: 1,
                    throw,
                    ..
                } => Some(throw),
                _ => None,
            })
            .collect::<Vec<u8>>()
    };
    assert_eq!(throws(&start), [0, 1, 2, 3]);
    let mut flipped = start;
    flipped.campaign.rules &= !rule::THROW_ANY_DIRECTION;
    assert_eq!(throws(&flipped), [0, 1, 2], "not west, back at Wukong");
}
