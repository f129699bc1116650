//! Probe (issue 9/12): a beam planner over the deterministic continuation of a turn, on Buried.
//! `cargo run --release --example planner_probe -- HERO BOSS GAMES BEAM DEPTH`

use sololab::games::buried::Buried;
use sololab::policy::{Strategy, StrategyKind};
use sololab::{AxisValue, Game, GameRng, Outcome, SetupValues, Stream, stream_rng};

struct Node<G: Game> {
    state: G,
    parent: u32,
    action: G::Action,
}

struct Planner<G: Game> {
    w: Vec<f64>,
    f: Vec<f64>,
    beam: usize,
    depth: usize,
    plan: Vec<(G, G::Action)>,
    legal: Vec<G::Action>,
    searches: u64,
    evals: u64,
}

impl<G: Game> Planner<G> {
    fn score(&mut self, s: &G) -> f64 {
        self.evals += 1;
        s.features(&mut self.f);
        let v: f64 = self.w.iter().zip(&self.f).map(|(a, b)| a * b).sum();
        match s.outcome() {
            Some(Outcome::Won) => v + 1e9,
            Some(Outcome::Lost(_)) => v - 1e9,
            None => v,
        }
    }

    fn choose(&mut self, state: &G, legal: &[G::Action], rng: &mut GameRng) -> G::Action {
        if legal.len() == 1 {
            return legal[0];
        }
        if let Some(&(s, a)) = self.plan.first()
            && s == *state
            && legal.contains(&a)
        {
            self.plan.remove(0);
            return a;
        }
        self.plan.clear();
        self.searches += 1;
        let probe: GameRng = rand::SeedableRng::seed_from_u64(rand::Rng::next_u64(rng));
        let mut nodes: Vec<Node<G>> = Vec::new();
        let mut frontier: Vec<(u32, f64)> = Vec::new();
        let mut best: (f64, u32) = (f64::NEG_INFINITY, u32::MAX);
        // Root children.
        let root = Node {
            state: *state,
            parent: u32::MAX,
            action: legal[0],
        };
        nodes.push(root);
        let mut current: Vec<u32> = vec![0];
        for d in 0..self.depth {
            frontier.clear();
            for &p in &current {
                let ps = nodes[p as usize].state;
                if d == 0 {
                    self.legal.clear();
                    self.legal.extend_from_slice(legal);
                } else {
                    ps.legal_actions(&mut self.legal);
                }
                let acts = std::mem::take(&mut self.legal);
                for &a in &acts {
                    let mut s = ps;
                    let mut r = probe.clone();
                    s.apply(a, &mut r);
                    let v = self.score(&s);
                    let id = nodes.len() as u32;
                    nodes.push(Node {
                        state: s,
                        parent: p,
                        action: a,
                    });
                    let turn_over = std::env::var("TURNB").is_ok() && s.turns() != state.turns();
                    if r != probe || s.outcome().is_some() || d + 1 == self.depth || turn_over {
                        if v > best.0 {
                            best = (v, id);
                        }
                    } else {
                        frontier.push((id, v));
                    }
                }
                self.legal = acts;
            }
            if frontier.is_empty() {
                break;
            }
            frontier.sort_by(|a, b| b.1.total_cmp(&a.1));
            if std::env::var("DEDUP").is_ok() {
                let mut kept: Vec<(u32, f64)> = Vec::new();
                for &(id, v) in frontier.iter() {
                    let dup = kept
                        .iter()
                        .rev()
                        .take_while(|k| k.1 == v)
                        .any(|k| nodes[k.0 as usize].state == nodes[id as usize].state);
                    if !dup {
                        kept.push((id, v));
                    }
                    if kept.len() == self.beam {
                        break;
                    }
                }
                frontier = kept;
            }
            frontier.truncate(self.beam);
            current.clear();
            current.extend(frontier.iter().map(|x| x.0));
        }
        // Unfinished beam states count with their score.
        for &(id, v) in &frontier {
            if v > best.0 {
                best = (v, id);
            }
        }
        // The line to best.
        let mut line = Vec::new();
        let mut n = best.1;
        while n != 0 && n != u32::MAX {
            let node = &nodes[n as usize];
            line.push((nodes[node.parent as usize].state, node.action));
            n = node.parent;
        }
        line.reverse();
        let first = line[0].1;
        self.plan = line.into_iter().skip(1).collect();
        first
    }
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let hero = args.get(1).cloned().unwrap_or("Knight".into());
    let boss = args.get(2).cloned().unwrap_or("The Devourer".into());
    let games: u64 = args.get(3).map_or(16, |s| s.parse().unwrap());
    let beam: usize = args.get(4).map_or(48, |s| s.parse().unwrap());
    let depth: usize = args.get(5).map_or(40, |s| s.parse().unwrap());
    let weights = match Strategy::named("greedy", std::path::Path::new("strategies"))
        .expect("greedy")
        .kind
    {
        StrategyKind::Greedy { weights, .. } => weights,
        _ => unreachable!(),
    };
    let w: Vec<f64> = Buried::FEATURE_NAMES
        .iter()
        .map(|n| weights["buried"].get(*n).copied().unwrap_or(0.0))
        .collect();
    let mut w = w;
    if let Ok(e) = std::env::var("ENGAGE") {
        w[14] = e.parse().unwrap();
    }
    let mut values = SetupValues::new();
    values.insert("hero".into(), AxisValue::Name(hero.clone()));
    values.insert("boss".into(), AxisValue::Name(boss.clone()));
    let setup = Buried::resolve_setup(&values).unwrap();
    let mut p = Planner::<Buried> {
        w,
        f: vec![0.0; Buried::FEATURE_NAMES.len()],
        beam,
        depth,
        plan: Vec::new(),
        legal: Vec::new(),
        searches: 0,
        evals: 0,
    };
    let mut lab =
        sololab::policy::BeamPolicy::<Buried>::new(p.w.clone(), beam as u32, depth as u32, 1);
    let use_lab = std::env::var("LABPOLICY").is_ok();
    let mut won = 0;
    let t = std::time::Instant::now();
    let mut legal = Vec::new();
    for i in 0..games {
        let mut s = Buried::new_game(&setup, &mut stream_rng(1, i, Stream::Setup));
        let mut chance = stream_rng(1, i, Stream::Chance);
        let mut own = stream_rng(1, i, Stream::Policy);
        p.plan.clear();
        while s.outcome().is_none() {
            s.legal_actions(&mut legal);
            let a = if use_lab {
                sololab::policy::Policy::choose(&mut lab, &s, &legal, &mut own)
            } else {
                p.choose(&s, &legal, &mut own)
            };
            if std::env::var("TRACE").is_ok() && i == 0 {
                println!("> {}", s.action_text(a));
                let mut t = sololab::VecTrace::default();
                s.apply_traced(a, &mut chance, &mut t);
                for l in t.0 {
                    println!("  {l}");
                }
                continue;
            }
            s.apply(a, &mut chance);
        }
        if s.outcome() == Some(Outcome::Won) {
            won += 1;
        }
        println!(
            "game {i}: {:?} after {} turns, waves {}",
            s.outcome(),
            s.turns(),
            s.tally.waves
        );
    }
    println!(
        "{hero} vs {boss}: won {won}/{games}; {:.2} s/game; {} searches, {} evals",
        t.elapsed().as_secs_f64() / games as f64,
        p.searches,
        p.evals
    );
}
