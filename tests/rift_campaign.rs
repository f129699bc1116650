//! The Rift's campaign (rulebook: Campaign, Adjusting Difficulty): each difficulty option changes
//! exactly the rule it names, and the between-games steps (ruins lost, pilots losing upgrades,
//! rewards, redraws) do what the rulebook says.

use sololab::games::rift::content::Finale;
use sololab::games::rift::state::Phase;
use sololab::games::rift::{Rift, RiftAction, RiftSetup};
use sololab::{AxisValue, Game, GameRng, NoTrace, Outcome, SetupValues, Stream, stream_rng};

fn setup(pairs: &[(&str, AxisValue)]) -> RiftSetup {
    let mut v = SetupValues::new();
    for (k, val) in pairs {
        v.insert(k.to_string(), val.clone());
    }
    RiftSetup::resolve(&v).unwrap_or_else(|e| panic!("{e}"))
}

fn new_game(s: &RiftSetup, seed: u64) -> Rift {
    Rift::new_game(s, &mut stream_rng(seed, 0, Stream::Setup))
}

/// Deploys both mechs on the first offered tiles and returns the state at turn 1's decisions.
fn deployed(mut r: Rift, seed: u64) -> Rift {
    let mut rng = stream_rng(seed, 0, Stream::Chance);
    let mut acts = Vec::new();
    while r.phase == Phase::Deploy {
        r.legal_actions(&mut acts);
        r.apply(acts[0], &mut rng);
    }
    r
}

#[test]
fn ruins_option_changes_only_the_ruin_supply() {
    for seed in 0..50 {
        let a = new_game(&setup(&[("ruins", AxisValue::Int(3))]), seed);
        let mut b = new_game(&setup(&[("ruins", AxisValue::Int(1))]), seed);
        assert_eq!((a.ruins, b.ruins), (3, 1));
        assert_eq!((a.campaign.ruins_cap, b.campaign.ruins_cap), (3, 1));
        b.ruins = 3;
        b.campaign.ruins_cap = 3;
        assert_eq!(a, b, "seed {seed}: nothing else differs");
    }
}

#[test]
fn extra_turn_skips_only_the_first_time_passes() {
    for seed in 0..50 {
        let a = deployed(new_game(&setup(&[]), seed), seed);
        let mut b = deployed(
            new_game(&setup(&[("extra_turn", AxisValue::Bool(true))]), seed),
            seed,
        );
        assert_eq!(a.campaign_die, 5, "time passes on turn 1 by default");
        assert_eq!(b.campaign_die, 6, "skipped with extra_turn");
        // Everything else (spawn, die roll, monsters' moves and aims, detection) is the same.
        b.campaign_die = 5;
        b.extra_turn = false;
        assert_eq!(a, b, "seed {seed}");
    }
}

#[test]
fn both_moons_adds_the_right_cards_moon_in_the_finale_only() {
    let finale = setup(&[("finale", AxisValue::Bool(true))]);
    let both = setup(&[
        ("finale", AxisValue::Bool(true)),
        ("both_moons", AxisValue::Bool(true)),
    ]);
    let mut differed = 0;
    for seed in 0..50 {
        let a = new_game(&finale, seed);
        let b = new_game(&both, seed);
        let left = a.content.maps[a.maps[0] as usize].moon;
        let right = a.content.maps[a.maps[1] as usize].moon;
        assert!(a.has(left));
        assert_eq!(a.finale, 1 << left as u8, "one moon by default");
        assert!(b.has(left) && b.has(right), "both moons");
        assert_eq!(a.maps, b.maps);
        assert_eq!(a.monster_cards, b.monster_cards);
        differed += usize::from(a.finale != b.finale);
    }
    assert!(differed > 0);
    // Outside the finale the option changes nothing.
    for seed in 0..20 {
        let a = new_game(&setup(&[]), seed);
        let mut b = new_game(&setup(&[("both_moons", AxisValue::Bool(true))]), seed);
        assert_eq!(a.finale, 0);
        b.campaign.both_moons = false;
        assert_eq!(a, b);
    }
    let _ = Finale::ALL;
}

/// Plays a campaign position to its next decision with the given choices.
fn position(text: &str) -> Rift {
    Rift::from_position(text).unwrap_or_else(|e| panic!("{e}"))
}

/// A campaign at game 1, one turn from winning it, with the objective's goal set up to be met.
fn last_turn_of_game_one(extra: &str, ruins: u8) -> Rift {
    let base = new_game(&setup(&[("mode", AxisValue::Name("campaign".into()))]), 5);
    let mut text = base.to_position();
    // One Time passes from the end; no monsters; the mechs stand in the top row.
    text = text
        .lines()
        .filter(|l| {
            !l.starts_with("monster ") && !l.starts_with("clock") && !l.starts_with("mech ")
        })
        .collect::<Vec<_>>()
        .join("\n");
    let mut free = sololab::games::rift::board::tiles(base.deploy_tiles());
    let a = sololab::games::rift::board::coord(free.next().unwrap());
    let b = sololab::games::rift::board::coord(free.next().unwrap());
    let extra = extra.replace("(1,1)", &a).replace("(2,1)", &b);
    text.push_str(&format!(
        "\nclock campaign_die=1 die=1 die_card=1 turn=5 phase=actions ruins={ruins}\n{extra}\n"
    ));
    position(&text)
}

#[test]
fn a_won_game_leads_to_the_next_with_ruins_lost_and_upgrades_lost_by_a_dead_mechs_pilot() {
    let mut r = last_turn_of_game_one(
        "mech A tile=(1,1) hp=2 max_hp=6 levels=2,1\nmech B tile=- hp=0 levels=1,1",
        2,
    );
    r.objectives = [u8::MAX; 2]; // no goals: no rewards
    let mut rng = GameRng::from_seed_u64(9);
    r.apply(RiftAction::EndActions, &mut rng);
    assert_eq!(r.outcome(), None, "the campaign goes on");
    assert_eq!(r.campaign.game, 1, "game 2 of the campaign card");
    assert_eq!(r.campaign.games_won, 1);
    assert_eq!(r.phase, Phase::Deploy);
    assert_eq!(r.campaign_die, 6, "the campaign die resets to 6");
    assert_eq!(r.ruins, 2, "ruins on the map stay lost");
    assert_eq!(
        (r.mechs[1].mech_level, r.mechs[1].pilot_level),
        (1, 0),
        "B died: its pilot loses all its upgrades; the mech card keeps its row"
    );
    assert_eq!(
        (r.mechs[0].mech_level, r.mechs[0].pilot_level),
        (2, 1),
        "A keeps its upgrades"
    );
    assert_eq!(
        r.mechs[1].hp, r.mechs[1].max_hp,
        "both mechs start the game at full HP"
    );
    assert!(
        r.monsters.iter().filter(|m| m.on_map()).count() >= 1,
        "new starting monsters"
    );
}

/// The leaf evaluation's `games_won` feature is the campaign's stage: 0 in game 1, 1 once it is
/// won, while the other features still read the board (Campaign; `sololab fit` over campaigns).
#[test]
fn the_games_won_feature_counts_the_campaign_games_won_so_far() {
    let names = <Rift as Game>::FEATURE_NAMES;
    let at = |name: &str| names.iter().position(|n| *n == name).expect(name);
    let read = |r: &Rift| {
        let mut f = vec![f64::NAN; names.len()];
        r.features(&mut f);
        f
    };
    let mut r = last_turn_of_game_one(
        "mech A tile=(1,1) hp=3 max_hp=3 levels=1,0\nmech B tile=(2,1) hp=3 max_hp=3 levels=1,0",
        2,
    );
    r.objectives = [u8::MAX; 2];
    let before = read(&r);
    assert_eq!(before[at("games_won")], 0.0);
    assert_eq!(before[at("ruins_left")], 2.0);
    let mut rng = GameRng::from_seed_u64(9);
    r.apply(RiftAction::EndActions, &mut rng);
    assert_eq!(r.campaign.games_won, 1);
    let after = read(&r);
    assert_eq!(after[at("games_won")], 1.0);
    assert_eq!(after[at("ruins_left")], 2.0, "the supply carries over");
    let single = new_game(&setup(&[]), 5);
    assert_eq!(read(&single)[at("games_won")], 0.0);
}

trait FromSeed {
    fn from_seed_u64(s: u64) -> Self;
}
impl FromSeed for GameRng {
    fn from_seed_u64(s: u64) -> Self {
        <GameRng as rand::SeedableRng>::seed_from_u64(s)
    }
}

#[test]
fn completed_goals_give_their_rewards_with_the_upgrade_as_a_decision() {
    // Find an objective card whose yellow goal is met by a won game with both mechs alive
    // and nothing ruined, then put it on the left map card (reward A in game 1).
    let mut r = last_turn_of_game_one(
        "mech A tile=(1,1) hp=3 max_hp=3\nmech B tile=(2,1) hp=3 max_hp=3",
        1,
    );
    let c = r.content;
    let g1 = c.campaign[0];
    let left_reward = g1.left_reward;
    use sololab::games::rift::content::Goal;
    let easy = c
        .objectives
        .iter()
        .position(|o| {
            matches!(
                o.red,
                Goal::BothMechsSurvive | Goal::ProtectHalf | Goal::FewRuins(_)
            )
        })
        .expect("an objective whose red goal a quiet won game meets");
    r.objectives = [easy as u8, u8::MAX];
    r.yellow = [false, false];
    // The case needs game 1's left goal to reward an upgrade (CONTENT.md, Campaign card).
    assert!(
        left_reward.a != left_reward.b,
        "game 1's left reward is an upgrade for one mech: {left_reward:?}"
    );
    let mut rng = GameRng::from_seed_u64(4);
    r.apply(RiftAction::EndActions, &mut rng);
    assert_eq!(r.campaign.objectives_met, 1);
    assert_eq!(
        r.phase,
        Phase::Reward,
        "the player chooses which card slides"
    );
    let mut acts = Vec::new();
    r.legal_actions(&mut acts);
    let mech = if left_reward.a { 0 } else { 1 };
    assert_eq!(
        acts,
        vec![
            RiftAction::Upgrade { mech, pilot: false },
            RiftAction::Upgrade { mech, pilot: true }
        ]
    );
    r.apply(RiftAction::Upgrade { mech, pilot: true }, &mut rng);
    assert_eq!(r.mechs[mech as usize].pilot_level, 1);
    assert_eq!(r.campaign.upgrades, 1);
    // (The ruin cap of an R reward: tests/rift_cases.rs, an_r_reward_returns_...)
    assert_eq!(r.ruins, 1, "no R reward here: the ruins stay as they were");
    while r.phase == Phase::Reward {
        let mut acts = Vec::new();
        r.legal_actions(&mut acts);
        r.apply(acts[0], &mut rng);
    }
    assert_eq!(r.phase, Phase::Deploy, "then the next game begins");
    assert_eq!(r.campaign.game, 1);
}

#[test]
fn a_ruin_reward_returns_a_lost_ruin_up_to_the_setting() {
    let mut r = last_turn_of_game_one(
        "mech A tile=(1,1) hp=3 max_hp=3\nmech B tile=(2,1) hp=3 max_hp=3",
        1,
    );
    r.campaign.ruins_cap = 3;
    let c = r.content;
    // Find a campaign game with a ruin reward and play its last turn.
    let gi = c
        .campaign
        .iter()
        .position(|g| g.left_reward.ruin || g.right_reward.ruin)
        .expect("the campaign card has an R reward");
    assert!(
        gi + 1 < c.campaign.len(),
        "the first R reward is on the last game ({}), where nothing follows",
        gi + 1
    );
    r.campaign.game = gi as u8;
    let side = if c.campaign[gi].left_reward.ruin {
        0
    } else {
        1
    };
    use sololab::games::rift::content::Goal;
    let easy = c
        .objectives
        .iter()
        .position(|o| {
            matches!(
                o.red,
                Goal::BothMechsSurvive | Goal::ProtectHalf | Goal::FewRuins(_)
            )
        })
        .unwrap();
    r.objectives = [u8::MAX; 2];
    r.objectives[side] = easy as u8;
    r.yellow = [false; 2];
    let mut rng = GameRng::from_seed_u64(4);
    r.apply(RiftAction::EndActions, &mut rng);
    assert_eq!(r.ruins, 2, "one lost ruin returns");
}

#[test]
fn the_last_game_won_wins_the_campaign_and_a_loss_reports_its_game() {
    let mut r = last_turn_of_game_one(
        "mech A tile=(1,1) hp=3 max_hp=3\nmech B tile=(2,1) hp=3 max_hp=3",
        3,
    );
    let games = r.content.campaign.len() as u8;
    r.campaign.game = games - 1;
    r.finale = 0;
    let mut rng = GameRng::from_seed_u64(1);
    r.apply(RiftAction::EndActions, &mut rng);
    assert_eq!(r.outcome(), Some(Outcome::Won));
    let mut m = [0i64; 11];
    r.metrics(&mut m);
    assert_eq!(m[1], games as i64, "furthest game reached");
    // A loss in game 2 reports furthest game 2 and its cause.
    let mut l = last_turn_of_game_one(
        "mech A tile=(1,1) hp=3 max_hp=3\nmech B tile=(2,1) hp=3 max_hp=3",
        0,
    );
    l.campaign.game = 1;
    l.buildings |= 1 << 20;
    l.damage(
        20,
        1,
        sololab::games::rift::rules::Hit::Attack,
        &mut NoTrace,
    );
    assert_eq!(l.outcome(), Some(Outcome::Lost(1)));
    l.metrics(&mut m);
    assert_eq!(m[1], 2);
}

#[test]
fn campaign_mode_redraws_maps_and_monsters_between_games() {
    let s = setup(&[("mode", AxisValue::Name("campaign".into()))]);
    let mut changed = 0;
    for seed in 0..30 {
        let mut r = last_turn_of_game_one(
            "mech A tile=(1,1) hp=3 max_hp=3\nmech B tile=(2,1) hp=3 max_hp=3",
            3,
        );
        r.objectives = [u8::MAX; 2];
        let before = (r.maps, r.monster_cards);
        let mut rng = GameRng::from_seed_u64(seed);
        r.apply(RiftAction::EndActions, &mut rng);
        changed += usize::from((r.maps, r.monster_cards) != before);
    }
    assert!(changed >= 25, "cards are drawn again ({changed}/30 differ)");
    let _ = s;
}

#[test]
fn bad_setup_values_are_refused_with_the_valid_ones() {
    let err = |pairs: &[(&str, AxisValue)]| {
        let mut v = SetupValues::new();
        for (k, val) in pairs {
            v.insert(k.to_string(), val.clone());
        }
        RiftSetup::resolve(&v).unwrap_err().to_string()
    };
    let e = err(&[("ruins", AxisValue::Int(0))]);
    assert!(e.contains("ruins") && e.contains("1..=3"), "{e}");
    let e = err(&[("ruins", AxisValue::Int(4))]);
    assert!(e.contains("1..=3"), "{e}");
    let e = err(&[("mech_a", AxisValue::Name("Gundam".into()))]);
    assert!(e.contains("Gundam") && e.contains("Wukong"), "{e}");
    let e = err(&[("pilot_b", AxisValue::Name("Nobody".into()))]);
    assert!(e.contains("Nobody") && e.contains("own"), "{e}");
    let e = err(&[("monsters", AxisValue::Name("Demon,Wraith,Kraken".into()))]);
    assert!(e.contains("Kraken") && e.contains("Nightmare"), "{e}");
    let e = err(&[("maps", AxisValue::Name("Nowhere,Elsewhere".into()))]);
    assert!(e.contains("Nowhere") && e.contains("valid"), "{e}");
    let e = err(&[("mode", AxisValue::Name("league".into()))]);
    assert!(e.contains("game, campaign"), "{e}");
}
