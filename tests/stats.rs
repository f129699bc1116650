//! The paired statistics (Newcombe's intervals) against published and hand-computed values,
//! and the turn histogram of the totals.

use std::sync::Arc;

use sololab::games::race::{Race, RaceAction};
use sololab::lab::{
    self, ErrorKind, Experiment, PairedCounts, Plan, PolicyFactory, RunOptions, Z95,
    paired_difference, unpaired_difference,
};
use sololab::{GameRng, Policy, below};

fn shown(d: sololab::lab::PairedDiff) -> String {
    format!("{:.4} {:.4} {:.4}", d.diff, d.lo, d.hi)
}

#[test]
fn newcombe_paired_interval_matches_the_published_cavo_example() {
    // Fagerland, Lydersen & Laake (2014), Stat Med 33:2850, the Cavo et al. (2012) table:
    // 59 both, 6 first only, 16 second only, 80 neither; p1+ - p+1 = -0.0621, Newcombe
    // square-and-add (method 10) -0.1186 to -0.0046. Ours is p_b - p_a with b the first.
    assert_eq!(
        shown(paired_difference(59, 16, 6, 80, Z95)),
        "-0.0621 -0.1186 -0.0046"
    );
    // Swapping the two proportions mirrors the interval.
    assert_eq!(
        shown(paired_difference(59, 6, 16, 80, Z95)),
        "0.0621 0.0046 0.1186"
    );
}

#[test]
fn newcombe_paired_interval_hand_computed() {
    // 5 both, 5 only b, n = 10: p_b = 1, p_a = 0.5, a margin is 0 so phi = 0.
    // Wilson(10/10) = (0.72246, 1), Wilson(5/10) = (0.23659, 0.76341) at z = 1.959964;
    // lo = 0.5 - sqrt(0.27754^2 + 0.26341^2) = 0.1174, hi = 0.5 + sqrt(0 + 0.26341^2) = 0.7634.
    assert_eq!(
        shown(paired_difference(5, 0, 5, 0, Z95)),
        "0.5000 0.1174 0.7634"
    );
    // No pairs: nothing is known.
    assert_eq!(
        shown(paired_difference(0, 0, 0, 0, Z95)),
        "0.0000 -1.0000 1.0000"
    );
    // Identical outcomes in every pair: the difference is exactly 0 and the positive
    // correlation narrows the interval below the unpaired one of the same games.
    let paired = paired_difference(40, 0, 0, 60, Z95);
    let unpaired = unpaired_difference(40, 100, 40, 100, Z95);
    assert_eq!(paired.diff, 0.0);
    assert!(paired.hi - paired.lo < 0.5 * (unpaired.hi - unpaired.lo));
}

#[test]
fn paired_counts_give_both_intervals() {
    let mut p = PairedCounts::default();
    for (a, b, n) in [
        (true, true, 59),
        (false, true, 6),
        (true, false, 16),
        (false, false, 80),
    ] {
        for _ in 0..n {
            p.record(a, b);
        }
    }
    assert_eq!(p.pairs(), 161);
    assert_eq!(shown(p.difference(Z95)), "-0.0621 -0.1186 -0.0046");
    // Unpaired: 65/161 vs 75/161, Newcombe's hybrid score interval.
    let u = p.unpaired(Z95);
    assert_eq!(shown(u), shown(unpaired_difference(75, 161, 65, 161, Z95)));
    assert!(u.hi - u.lo > p.difference(Z95).hi - p.difference(Z95).lo);
}

/// Uniform over the legal actions, from the policy stream.
struct Coin;
impl Policy<Race> for Coin {
    fn choose(&mut self, _s: &Race, legal: &[RaceAction], rng: &mut GameRng) -> RaceAction {
        legal[below(rng, legal.len() as u32) as usize]
    }
}

fn coin(name: &str) -> Result<PolicyFactory<Race>, ErrorKind> {
    match name {
        "coin" => Ok(Arc::new(|| Box::new(Coin))),
        _ => Err(ErrorKind::UnknownStrategy {
            name: name.to_string(),
            valid: vec!["coin".into()],
        }),
    }
}

#[test]
fn the_turn_histogram_counts_every_game_once_whatever_the_threads() {
    let text = "name = \"h\"\ngame = \"race\"\nstrategies = [\"coin\"]\ngames = 2000\nseed = 3\n\
                [sweep]\nstart = [0, 4]\n";
    let plan = || Plan::<Race>::new(Experiment::parse(text, "h.toml").unwrap(), coin).unwrap();
    let one = lab::run_experiment(
        &plan(),
        &RunOptions {
            threads: 1,
            raw: true,
        },
    );
    let two = lab::run_experiment(
        &plan(),
        &RunOptions {
            threads: 2,
            raw: false,
        },
    );
    for (c, (a, b)) in one.cells.iter().zip(&two.cells).enumerate() {
        let h = &a.totals.turn_histogram;
        assert_eq!(h, &b.totals.turn_histogram);
        assert_eq!(h.iter().sum::<u64>(), 2000);
        // The histogram agrees with the per-game rows and with the turn sum.
        let rows = one.rows.as_ref().unwrap().iter().filter(|r| r.cell == c);
        let mut counted = vec![0u64; h.len()];
        for r in rows {
            counted[r.turns as usize] += 1;
        }
        assert_eq!(&counted, h);
        let sum: u64 = h.iter().enumerate().map(|(t, n)| t as u64 * n).sum();
        assert_eq!(sum, a.totals.turns);
        assert_ne!(*h.last().unwrap(), 0, "no trailing zero");
    }
}
