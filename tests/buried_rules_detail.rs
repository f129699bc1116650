//! Details of Buried Beneath's rules that the rulebook's cases (`tests/buried_cases.rs`) leave
//! open, each found by mutation testing (`scripts/mutants.sh`, issue 12;
//! `results/mutants/buried.md` lists which mutant each test kills). Positions use the builtin
//! content with the default map of `tests/buried_cases.rs` (Taproom 11 is next to Mill Pond 5
//! and Cellar 12).

use sololab::games::buried::actions::BuriedAction as A;
use sololab::games::buried::state::{Buried, Phase};
use sololab::{Game, Stream, VecTrace, stream_rng};

fn pos(lines: &str) -> Buried {
    let text = format!("buried-position 1\n{lines}\n");
    Buried::from_position(&text).unwrap_or_else(|e| panic!("{e}\n{text}"))
}

fn legal(b: &Buried) -> Vec<A> {
    let mut v = Vec::new();
    b.legal_actions(&mut v);
    v
}

#[test]
fn the_villagers_a_die_can_hit_follow_its_own_camps_reach() {
    // Attacks (section 7): a bow hits the adjacent locations, a sword its own. A die's camp is
    // the first for dice 1-6 and the second for dice 7-12. With two villagers in reach the
    // player picks the one hit (Phase::Victim).
    let attack =
        "villagers ready=0\nflow phase=enemy stage=attack\nhero at=20\nvillagers placed=5,12";
    // Wave 1: die 2 is the first camp's, the Banshee (bow); the second camp, the Goblin, has a
    // sword and would reach neither villager from Taproom.
    let mut b = pos(&format!("{attack}\ndie 2 at=11 hp=2"));
    b.run_enemies(
        &mut stream_rng(1, 0, Stream::Chance),
        &mut VecTrace::default(),
    );
    assert_eq!(b.phase, Phase::Victim);
    assert_eq!(legal(&b), vec![A::Pick(5), A::Pick(12)]);
    // Wave 2: die 7 is the second camp's, the Goblin Archer (bow); the first camp, the Wraith,
    // has a sword.
    let mut b = pos(&format!("{attack}\nwave number=2\ndie 7 at=11 hp=2"));
    b.run_enemies(
        &mut stream_rng(1, 0, Stream::Chance),
        &mut VecTrace::default(),
    );
    assert_eq!(b.phase, Phase::Victim);
    assert_eq!(legal(&b), vec![A::Pick(5), A::Pick(12)]);
}
