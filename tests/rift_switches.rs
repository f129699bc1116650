//! The contested-rule switches (`rule_*` setup axes, `src/games/rift/switches.rs`): each one
//! changes its own rule and nothing else. Games are played twice on the same seeds, once per
//! reading, and the first event where they part must be the switched rule's.

use sololab::games::rift::switches::rule;
use sololab::games::rift::{Rift, RiftSetup};
use sololab::{AxisValue, Game, GameRng, SetupValues, VecTrace};

fn setup(pairs: &[(&str, AxisValue)]) -> RiftSetup {
    let mut v = SetupValues::new();
    for (k, x) in pairs {
        v.insert(k.to_string(), x.clone());
    }
    RiftSetup::resolve(&v).expect("setup resolves")
}

fn rng(seed: u64) -> GameRng {
    <GameRng as rand::SeedableRng>::seed_from_u64(seed)
}

/// One game with uniform random actions on `seed` (actions drawn from a stream of their own),
/// its trace lines.
fn trace(s: &RiftSetup, seed: u64) -> Vec<String> {
    let mut r = Rift::new_game(s, &mut rng(seed));
    let mut chance = rng(seed ^ 0xC4A);
    let mut pick = rng(seed ^ 0x9E1);
    let mut t = VecTrace(Vec::new());
    let mut legal = Vec::new();
    while r.outcome().is_none() {
        r.legal_actions(&mut legal);
        let a = legal[sololab::below(&mut pick, legal.len() as u32) as usize];
        t.0.push(r.describe(a));
        r.apply_traced(a, &mut chance, &mut t);
    }
    t.0
}

/// Plays `games` seeds with the default reading and with `axis` flipped; every first difference
/// must satisfy `ours` (an event of the switched rule, seen on the default side); returns how
/// many games differed.
fn first_differences(axis: &str, games: u64, ours: impl Fn(&str) -> bool) -> usize {
    let default = setup(&[]);
    let flipped = setup(&[(axis, AxisValue::Bool(false))]);
    let mut differed = 0;
    for seed in 0..games {
        let (a, b) = (trace(&default, seed), trace(&flipped, seed));
        if let Some(k) = (0..a.len().min(b.len())).find(|&k| a[k] != b[k]) {
            differed += 1;
            assert!(
                ours(&a[k]),
                "{axis}, seed {seed}: the games part at '{}' / '{}'",
                a[k],
                b[k]
            );
        } else {
            assert_eq!(a.len(), b.len(), "{axis}, seed {seed}");
        }
    }
    differed
}

#[test]
fn rule_frozen_skip_attack_changes_only_frozen_and_smoked_attacks() {
    let n = first_differences("rule_frozen_skip_attack", 300, |l| {
        l.contains("cannot attack (frozen or in smoke)")
    });
    assert!(n > 0, "the switch changed no game");
}

#[test]
fn rule_sand_smoke_changes_only_the_token_damage_on_sand_makes() {
    let n = first_differences("rule_sand_smoke", 300, |l| {
        l.contains("a smoke token lies on") || l.contains("gets smoke")
    });
    assert!(n > 0, "the switch changed no game");
}

#[test]
fn rule_detect_right_changes_only_where_detections_go() {
    // The starting monsters are placed by the Detect rules: only the monsters differ at setup.
    let default = setup(&[]);
    let left = setup(&[("rule_detect_right", AxisValue::Bool(false))]);
    let mut moved = 0;
    for seed in 0..50 {
        let a = Rift::new_game(&default, &mut rng(seed));
        let mut b = Rift::new_game(&left, &mut rng(seed));
        assert_eq!(a.campaign.rules & !rule::DETECT_RIGHT, b.campaign.rules);
        if a.monsters != b.monsters {
            moved += 1;
        }
        b.monsters = a.monsters;
        b.campaign.rules = a.campaign.rules;
        assert_eq!(a, b, "seed {seed}: only the monsters differ");
    }
    assert!(moved > 0, "no setup changed");
}

#[test]
fn rule_finale_moon_changes_only_the_finale_effects() {
    let at = |moon: &str| {
        setup(&[
            ("game", AxisValue::Int(5)),
            ("rule_finale_moon", AxisValue::Name(moon.to_string())),
        ])
    };
    let (left, right, random) = (at("left"), at("right"), at("random"));
    let (mut differ, mut random_right) = (0, 0);
    for seed in 0..50 {
        let a = Rift::new_game(&left, &mut rng(seed));
        let mut b = Rift::new_game(&right, &mut rng(seed));
        let c = &a.content;
        assert_eq!(a.finale, 1 << c.maps[a.maps[0] as usize].moon as u8);
        assert_eq!(b.finale, 1 << c.maps[b.maps[1] as usize].moon as u8);
        let right_finale = b.finale;
        if a.finale != b.finale {
            differ += 1;
        }
        // Mountain buildings turn mountains into buildings: the board follows the moon.
        let (bb, bm) = (b.buildings, b.mountains);
        b.finale = a.finale;
        b.campaign.moon = a.campaign.moon;
        b.buildings = a.buildings;
        b.mountains = a.mountains;
        assert_eq!(bb | bm, a.buildings | a.mountains);
        assert_eq!(a, b, "seed {seed}: only the finale differs");
        let r = Rift::new_game(&random, &mut rng(seed));
        assert!(r.finale == a.finale || r.finale == right_finale);
        if r.finale != a.finale {
            random_right += 1;
        }
    }
    assert!(
        differ > 40,
        "the two moons differ on most map pairs ({differ})"
    );
    assert!(
        random_right > 5 && random_right < 45,
        "random picks both ({random_right})"
    );
}

/// A won campaign game ends with mech A destroyed: `rule_pilot_only_reset` decides whether its
/// mech card's rows reset too; everything else is the same.
#[test]
fn rule_pilot_only_reset_changes_only_the_mech_cards_rows() {
    let run = |reset_pilot_only: bool| {
        let s = setup(&[
            ("mode", AxisValue::Name("campaign".into())),
            ("objectives", AxisValue::Bool(false)),
            ("rule_pilot_only_reset", AxisValue::Bool(reset_pilot_only)),
        ]);
        let mut r = Rift::new_game(&s, &mut rng(3));
        r.mechs[0].mech_level = 2;
        r.mechs[0].pilot_level = 2;
        r.mechs[0].hp = 0;
        r.result = 1;
        r.between_games(&mut rng(4), &mut sololab::NoTrace);
        r
    };
    let (a, mut b) = (run(true), run(false));
    assert_eq!((a.mechs[0].mech_level, a.mechs[0].pilot_level), (2, 0));
    assert_eq!((b.mechs[0].mech_level, b.mechs[0].pilot_level), (0, 0));
    b.mechs[0].mech_level = 2;
    b.mechs[0].max_hp = a.mechs[0].max_hp;
    b.mechs[0].hp = a.mechs[0].hp;
    b.mechs[0].status = a.mechs[0].status;
    b.campaign.rules = a.campaign.rules;
    assert_eq!(a, b);
}

/// A won game 3 whose right card (Acid Flats, yellow "protect half") earns an R reward while the
/// supply holds its setting of 2 ruins: capped it stays 2, uncapped it goes to 3.
#[test]
fn rule_ruin_reward_capped_changes_only_the_returned_ruin() {
    let run = |capped: bool| {
        let s = setup(&[
            ("mode", AxisValue::Name("campaign".into())),
            ("game", AxisValue::Int(3)),
            ("ruins", AxisValue::Int(2)),
            (
                "maps",
                AxisValue::Name("Stormbreak Ridge,Acid Flats".into()),
            ),
            ("rule_ruin_reward_capped", AxisValue::Bool(capped)),
        ]);
        let mut r = Rift::new_game(&s, &mut rng(5));
        r.result = 1;
        r.between_games(&mut rng(6), &mut sololab::NoTrace);
        r
    };
    let (a, mut b) = (run(true), run(false));
    assert_eq!(a.ruins, 2, "capped at the setting");
    assert_eq!(b.ruins, 3, "up to 3");
    b.ruins = a.ruins;
    b.campaign.rules = a.campaign.rules;
    assert_eq!(a, b);
}

/// Plays `games` seeds of `base` with the default readings and with `flip` (a `flip_rule`
/// value), returns how many games differ.
fn games_changed_by_flip(base: &[(&str, AxisValue)], flip: &str, games: u64) -> usize {
    let default = setup(base);
    let mut with_flip: Vec<(&str, AxisValue)> = base.to_vec();
    with_flip.push(("flip_rule", AxisValue::Name(flip.to_string())));
    let flipped = setup(&with_flip);
    (0..games)
        .filter(|&seed| trace(&default, seed) != trace(&flipped, seed))
        .count()
}

/// Every reading measured by `flip_rule` alone (CONTENT.md, "Measured effect of each contested
/// reading") changes some games where its rule can act, and `none` changes none: a flip that
/// did nothing would have measured nothing.
#[test]
fn every_measured_flip_changes_some_games_and_none_changes_none() {
    let map = |m: &str| ("maps", AxisValue::Name(m.to_string()));
    let finale = ("game", AxisValue::Int(5));
    let cases: [(&str, Vec<(&str, AxisValue)>); 18] = [
        ("frozen_monsters_targets", vec![]),
        // Rocks come from Ivo Rask's Rockfall (his second row).
        (
            "rocks_last",
            vec![
                ("mech_a", AxisValue::Name("Starfall".into())),
                ("upgrades", AxisValue::Name("0,2,0,0".into())),
            ],
        ),
        ("walk_through_monsters", vec![]),
        ("frozen_no_aim", vec![]),
        ("tokens_on_push", vec![]),
        (
            "flood_one_turn",
            vec![map("Sunken Causeway,Stormbreak Ridge")],
        ),
        (
            "storm_ignores_shield",
            vec![
                map("Stormbreak Ridge,Sunken Causeway"),
                ("mech_a", AxisValue::Name("Atlas".into())),
                ("upgrades", AxisValue::Name("2,0,0,0".into())),
            ],
        ),
        (
            "explode_chain",
            vec![finale.clone(), map("Stormbreak Ridge,Glacier Shelf")],
        ),
        (
            "throw_any_direction",
            vec![("mech_a", AxisValue::Name("Wukong".into()))],
        ),
        (
            "detect_before_spawn",
            vec![finale.clone(), map("Gunline Heights,Acid Flats")],
        ),
        // An attack with both a status and a movement: Starfall's Meteor with its third row.
        (
            "status_before_push",
            vec![
                ("mech_a", AxisValue::Name("Starfall".into())),
                ("upgrades", AxisValue::Name("3,0,0,0".into())),
            ],
        ),
        ("compass_direction_first", vec![]),
        ("fallback_path_distance", vec![]),
        ("aim_moves_with_monster", vec![]),
        // Both immobilizing monsters (Demon, Intruder) on the row.
        (
            "immobilize_tile",
            vec![("monsters", AxisValue::Name("Demon,Intruder,Wraith".into()))],
        ),
        (
            "rocks_take_bump",
            vec![
                ("mech_a", AxisValue::Name("Starfall".into())),
                ("upgrades", AxisValue::Name("0,2,0,0".into())),
            ],
        ),
        ("skip_chooses_statuses", vec![]),
        // Alphas are given in spawn order: game 2 spawns one.
        ("spawn_detection_order", vec![("game", AxisValue::Int(2))]),
    ];
    for (flip, base) in &cases {
        let n = games_changed_by_flip(base, flip, 1000);
        assert!(n > 0, "flip_rule = {flip} changed none of 1000 games");
        assert!(n < 1000, "flip_rule = {flip} changed every game ({n})");
    }
    assert_eq!(games_changed_by_flip(&[], "none", 50), 0);
    // The names are the bits of rule::MEASURED, each flipped alone (hp_cap_six: its own test).
    for (name, bit) in rule::MEASURED {
        assert!(
            name == "hp_cap_six" || cases.iter().any(|(f, _)| *f == name),
            "{name} untested"
        );
        let s = setup(&[("flip_rule", AxisValue::Name(name.to_string()))]);
        let r = Rift::new_game(&s, &mut rng(1));
        assert_eq!(r.campaign.rules, rule::DEFAULT & !bit, "{name}");
    }
}

/// I35: the cap at 6 HP acts exactly where a mech's rows pass 6. Bulwark (5 HP) with its card's
/// first row (+1) and Dana Okafor's third row (+1) reaches 7: capped at 6, or 7 with the flip,
/// and games differ (the HP shows in every damage line); with the pilot's second row only (6 HP) the flip changes no game.
#[test]
fn hp_cap_six_acts_only_where_rows_pass_six_hp() {
    let at = |upgrades: &str| {
        vec![
            ("mech_a", AxisValue::Name("Bulwark".into())),
            ("pilot_a", AxisValue::Name("own".into())),
            ("upgrades", AxisValue::Name(upgrades.into())),
        ]
    };
    let max_hp = |base: &[(&str, AxisValue)], flip: &str| {
        let mut v = base.to_vec();
        v.push(("flip_rule", AxisValue::Name(flip.into())));
        Rift::new_game(&setup(&v), &mut rng(1)).mechs[0].max_hp
    };
    assert_eq!(max_hp(&at("1,3,0,0"), "none"), 6);
    assert_eq!(max_hp(&at("1,3,0,0"), "hp_cap_six"), 7);
    assert_eq!(max_hp(&at("1,2,0,0"), "hp_cap_six"), 6);
    assert!(games_changed_by_flip(&at("1,3,0,0"), "hp_cap_six", 100) > 0);
    assert_eq!(games_changed_by_flip(&at("1,2,0,0"), "hp_cap_six", 200), 0);
}

/// The flipped readings of I10 and I13 keep what the aim holds in the state (`from=`, `holds=`
/// on a monster's line): positions written mid-game under them load back to the same state.
#[test]
fn the_aim_kept_by_i10_and_i13_flipped_round_trips_through_positions() {
    let mut kept = [0usize; 2];
    for (k, flip) in ["aim_moves_with_monster", "immobilize_tile"]
        .into_iter()
        .enumerate()
    {
        let s = setup(&[
            (
                "monsters",
                AxisValue::Name("Demon,Intruder,Behemoth".into()),
            ),
            ("flip_rule", AxisValue::Name(flip.into())),
        ]);
        for seed in 0..60 {
            let mut r = Rift::new_game(&s, &mut rng(seed));
            let mut chance = rng(seed ^ 0xC4A);
            let mut pick = rng(seed ^ 0x9E1);
            let mut legal = Vec::new();
            while r.outcome().is_none() {
                if r.monsters.iter().any(|m| m.aim_from != 255 || m.holds != 0) {
                    kept[k] += 1;
                    let text = r.to_position();
                    let back = Rift::from_position(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
                    assert_eq!(back, r, "{flip}, seed {seed}\n{text}");
                }
                r.legal_actions(&mut legal);
                let a = legal[sololab::below(&mut pick, legal.len() as u32) as usize];
                r.apply(a, &mut chance);
            }
        }
    }
    assert!(kept[0] > 0 && kept[1] > 0, "no state kept an aim: {kept:?}");
}

/// `rule_aim_moves_with_monster` (I10) set to false keeps aims where they were made: the setup
/// axis clears the rule bit alone, some random games change and others do not.
#[test]
fn rule_aim_moves_with_monster_changes_some_games_only() {
    let off = setup(&[("rule_aim_moves_with_monster", AxisValue::Bool(false))]);
    let r = Rift::new_game(&off, &mut rng(1));
    assert_eq!(
        r.campaign.rules,
        rule::DEFAULT & !rule::AIM_MOVES_WITH_MONSTER
    );
    let default = setup(&[]);
    let n = (0..300)
        .filter(|&seed| trace(&default, seed) != trace(&off, seed))
        .count();
    assert!(n > 0 && n < 300, "{n} of 300 games changed");
}

/// Every `rule_*` switch clears its own rule bit alone, and `flip_rule` flips the same bit (the
/// measured effect in CONTENT.md is the switch's).
#[test]
fn every_switch_sets_its_own_bit_and_flip_rule_agrees() {
    for (axis, bit) in rule::AXES {
        let off = setup(&[(axis, AxisValue::Bool(false))]);
        let r = Rift::new_game(&off, &mut rng(1));
        assert_eq!(r.campaign.rules, rule::DEFAULT & !bit, "{axis}");
        let name = axis.trim_start_matches("rule_");
        let flipped = setup(&[("flip_rule", AxisValue::Name(name.into()))]);
        let f = Rift::new_game(&flipped, &mut rng(1));
        assert_eq!(f.campaign.rules, r.campaign.rules, "flip_rule = {name}");
    }
}

/// I7 has no flip because its other reading (a monster also won't leave a tile where leaving
/// changes another's target) forbids nothing: during Move + Aim a monster that stands on another
/// monster's aimed tile is always a frozen one, no frozen token comes or goes, and frozen
/// monsters do not move. Checked by running the step on boards from random games where Glacier's
/// Cryo Lance and Yuki Sato's Frost Bomb freeze monsters (frozen monsters are targets, I5).
#[test]
fn i7_a_monster_on_another_monsters_aimed_tile_is_frozen() {
    use sololab::games::rift::content::Dir;
    use sololab::games::rift::state::{NO_AIM, Phase, st};
    let s = setup(&[
        ("mech_a", AxisValue::Name("Glacier".into())),
        ("upgrades", AxisValue::Name("0,2,0,0".into())),
        ("game", AxisValue::Int(5)),
    ]);
    let (mut checked, mut on_aim) = (0usize, 0usize);
    for seed in 0..300 {
        let mut r = Rift::new_game(&s, &mut rng(seed));
        let mut chance = rng(seed ^ 0xC4A);
        let mut pick = rng(seed ^ 0x9E1);
        let mut legal = Vec::new();
        while r.outcome().is_none() {
            if r.phase == Phase::Actions {
                checked += 1;
                let mut c = r;
                c.monsters_move_and_aim(&mut sololab::NoTrace);
                for (before, after) in r.monsters.iter().zip(&c.monsters) {
                    if before.on_map() && after.on_map() {
                        let frozen = before.status & st::FROZEN != 0;
                        assert_eq!(frozen, after.status & st::FROZEN != 0, "seed {seed}");
                        assert!(!frozen || before.tile == after.tile, "seed {seed}");
                    }
                }
                for j in 0..4 {
                    let m = c.monsters[j];
                    if !m.on_map() || m.aim_dir == NO_AIM {
                        continue;
                    }
                    let d = Dir::from_index(m.aim_dir);
                    let Some(t) = c.aim_tile(&c.stats(j).attack, m.aim_origin(), d, m.aim_dist)
                    else {
                        continue;
                    };
                    if let Some(i) = c.monster_at(t) {
                        on_aim += 1;
                        assert!(
                            c.monsters[i].status & st::FROZEN != 0,
                            "seed {seed}: monster {i} stands unfrozen on monster {j}'s aim"
                        );
                    }
                }
            }
            r.legal_actions(&mut legal);
            let a = legal[sololab::below(&mut pick, legal.len() as u32) as usize];
            r.apply(a, &mut chance);
        }
    }
    assert!(
        checked > 1000 && on_aim > 0,
        "{checked} states, {on_aim} aims at monsters"
    );
}
