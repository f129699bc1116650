//! How deep and wide MCTS's tree gets on the Rift (issue 9's diagnosis): for 40 positions
//! from seeded greedy games, the mean number of legal actions, root children and tree depth
//! (player decisions ahead inside the tree) of the old search (uniform expansion, exploration
//! 1.0) and the widened one, at 200 and 1000 iterations.
//!
//! `cargo run --release --example search_depth`

use sololab::games::rift::Rift;
use sololab::policy::{GreedyPolicy, MctsConfig, MctsPolicy, Policy, Strategy, StrategyKind};
use sololab::{Game, SetupValues, Stream, stream_rng};

fn main() {
    let weights = match Strategy::named("greedy", std::path::Path::new("strategies"))
        .expect("greedy")
        .kind
    {
        StrategyKind::Greedy { weights, .. } => weights,
        _ => unreachable!(),
    };
    let names = Rift::FEATURE_NAMES;
    let w: Vec<f64> = names
        .iter()
        .map(|n| weights["rift"].get(*n).copied().unwrap_or(0.0))
        .collect();
    let setup = Rift::resolve_setup(&SetupValues::new()).unwrap();
    let mut greedy = GreedyPolicy::<Rift>::new(w.clone(), 16);
    let mut states = Vec::new();
    let mut legal = Vec::new();
    for i in 0..40u64 {
        let mut s = Rift::new_game(&setup, &mut stream_rng(5, i, Stream::Setup));
        let mut chance = stream_rng(5, i, Stream::Chance);
        let mut own = stream_rng(5, i, Stream::Policy);
        let mut k = 0;
        while s.outcome().is_none() {
            s.legal_actions(&mut legal);
            // The first decision of the second turn: the widest choice of a turn.
            if k == 3 + (i % 3) as usize && legal.len() > 1 {
                states.push(s);
                break;
            }
            let a = greedy.choose(&s, &legal, &mut own);
            s.apply(a, &mut chance);
            k += 1;
        }
    }
    println!("positions: {}", states.len());
    for (label, iterations, exploration, widening) in [
        ("old 200", 200, 1.0, 0.0),
        ("old 1000", 1000, 1.0, 0.0),
        ("widened 200", 200, 0.3, 1.0),
        ("widened 1000", 1000, 0.3, 1.0),
        ("widened 3000", 3000, 0.3, 1.0),
    ] {
        let config = MctsConfig {
            iterations,
            exploration,
            widening,
            ..MctsConfig::default()
        };
        let mut mcts = MctsPolicy::<Rift>::new(config, w.clone());
        let (mut legal_n, mut kids, mut depth) = (0, 0, 0);
        for (j, s) in states.iter().enumerate() {
            s.legal_actions(&mut legal);
            legal_n += legal.len();
            mcts.choose(s, &legal, &mut stream_rng(9, j as u64, Stream::Policy));
            kids += mcts.root_children();
            depth += mcts.tree_depth() as usize;
        }
        let n = states.len() as f64;
        println!(
            "{label:<13} legal {:5.1}  root children {:5.1}  tree depth {:4.1}",
            legal_n as f64 / n,
            kids as f64 / n,
            depth as f64 / n
        );
    }
}
