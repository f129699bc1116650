//! MCTS: open-loop UCT for single-agent stochastic games, with determinization.
//!
//! The tree's nodes are keyed by the sequence of player actions from the root, not by states
//! (open loop): the dice the game rolls inside `apply` make the same sequence lead to
//! different states, and each node's mean is taken over them. Every iteration copies the root,
//! re-samples what the player cannot know ([`Game::determinize`]), and descends: at each node
//! only the children whose action is legal in the sampled state are eligible, and a node with
//! an untried legal action expands one. The search draws every die from its own generator,
//! seeded from the policy stream; it never sees the game's chance stream.

use rand::{Rng, SeedableRng};

use crate::game::{Game, GameRng, Outcome, below};

use super::Policy;
use super::greedy::{GreedyPolicy, Heuristic};
use super::strategy::{MAX_ITERATIONS, Rollout};

/// The search parameters of [`MctsPolicy`], as validated from a strategy file.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct MctsConfig {
    /// Iterations per decision, `1..=`[`MAX_ITERATIONS`] (a fixed budget, so results are
    /// reproducible).
    pub iterations: u32,
    /// The UCB1 exploration constant `c`, finite and `>= 0` (values are in `[0, 1]`, so
    /// about `0.5..=1.5` is the useful range; `sqrt(2)` is the textbook value).
    pub exploration: f64,
    /// The policy that plays out each iteration after the tree.
    pub rollout: Rollout,
    /// The most player decisions one rollout plays before it is cut off and scored, `>= 1`.
    pub rollout_depth: u32,
    /// Search the true state without [`Game::determinize`] (strategy key `see_hidden = true`):
    /// a cheating search that sees hidden deck orders, for reports of the upper bound only.
    pub see_hidden: bool,
}

/// The value in `[0, 1]` of a rollout cut off before the end: the logistic
/// `1 / (1 + exp(-(score - root_score)))` of the weighted feature score of the cut-off state
/// minus that of the (determinized) root. So `0.5` means "as good as now", and the weights set
/// the slope: a change of 1 weighted point moves the value from 0.5 to 0.73; a finished game is
/// worth exactly 1 (won) or 0 (lost) instead.
#[inline]
pub fn cutoff_value(score: f64, root_score: f64) -> f64 {
    let v = 1.0 / (1.0 + (root_score - score).exp());
    if v.is_nan() { 0.0 } else { v }
}

const NONE: u32 = u32::MAX;

/// One node of the search tree: the action that leads to it from its parent, links into the
/// arena, and the statistics of the iterations that went through it.
#[derive(Copy, Clone, Debug)]
struct Node<A> {
    /// The action from the parent (the root holds an unused copy of a legal action).
    action: A,
    parent: u32,
    first_child: u32,
    next_sibling: u32,
    /// Iterations through this node.
    visits: u32,
    /// Iterations at the parent in which this action was legal (ISMCTS availability count;
    /// equals the parent's visits since creation when the action is always legal).
    avail: u32,
    /// Sum of the iteration values.
    total: f64,
    /// Where this node's action stood in the parent's legal list the last time it was looked
    /// up: checked first, so that finding a node's eligible children costs one comparison per
    /// child while the legal list stays the same (it usually does).
    slot: u16,
}

/// Open-loop UCT with determinization (single-observer ISMCTS for a single agent).
///
/// Each decision seeds a search generator from the policy stream, clears the arena (keeping
/// its capacity) and runs [`MctsConfig::iterations`] iterations:
/// 1. copy the root state and call [`Game::determinize`] with the search generator;
/// 2. descend: at a node, the children whose action is legal in the sampled state are
///    eligible; if some legal action has no child, expand one chosen uniformly among them and
///    stop descending; otherwise pick the eligible child with the highest UCB1
///    `mean + c * sqrt(ln(avail) / visits)` (first in expansion order on ties), where `avail`
///    counts the iterations in which the child was eligible;
/// 3. roll out with the rollout policy (random, or greedy with one chance sample) for at most
///    [`MctsConfig::rollout_depth`] player decisions;
/// 4. value 1 for a win, 0 for a loss, else [`cutoff_value`] of the weighted features;
///    add it to every node on the path.
///
/// The answer is the most visited root child whose action is in `legal` (ties: highest mean,
/// then first in `legal`). A decision with one legal action returns it without searching or
/// drawing from the policy stream.
///
/// Cost per decision: `iterations` root copies and playouts. Finding a node's eligible children
/// costs one action comparison per child when the legal list is the same as at the child's last
/// lookup (a remembered slot), and a scan of the legal list otherwise; legal actions are
/// distinct, so either finds the same index. The root's feature score is computed once per
/// decision when [`Game::determinize`] leaves the root unchanged (no hidden information), and
/// `ln` of the small visit counts comes from a table. Memory: at most `iterations + 1` nodes,
/// allocated once; no allocation per decision after the first.
#[derive(Clone, Debug)]
pub struct MctsPolicy<G: Game> {
    config: MctsConfig,
    heuristic: Heuristic,
    greedy: Option<GreedyPolicy<G>>,
    nodes: Vec<Node<G::Action>>,
    legal: Vec<G::Action>,
    tried: Vec<bool>,
    eligible: Vec<u32>,
    /// `ln(n)` for `n < ln_table.len()` (the availability counts of UCB1).
    ln_table: Vec<f64>,
    /// The weighted feature score of the undeterminized root, once computed this decision.
    root_score: Option<f64>,
}

/// The most entries of [`MctsPolicy`]'s `ln` table (512 KiB).
const LN_TABLE_MAX: u32 = 1 << 16;

impl<G: Game> MctsPolicy<G> {
    /// An MCTS policy with `weights` indexed like [`Game::feature_names`] (for the cut-off
    /// value and greedy rollouts).
    ///
    /// # Panics
    /// Panics when `config` is out of range (`iterations` not in `1..=MAX_ITERATIONS`,
    /// `exploration` negative or not finite, `rollout_depth == 0`) or when
    /// `weights.len() != G::feature_names().len()`.
    pub fn new(config: MctsConfig, weights: Vec<f64>) -> Self {
        assert!(
            (1..=MAX_ITERATIONS).contains(&config.iterations),
            "MCTS iterations {} not in 1..={MAX_ITERATIONS}",
            config.iterations
        );
        assert!(
            config.exploration.is_finite() && config.exploration >= 0.0,
            "MCTS exploration {} is not a finite number >= 0",
            config.exploration
        );
        assert!(config.rollout_depth >= 1, "MCTS rollout_depth must be >= 1");
        let greedy = match config.rollout {
            Rollout::Random => None,
            Rollout::Greedy => Some(GreedyPolicy::new(weights.clone(), 1)),
        };
        MctsPolicy {
            config,
            heuristic: Heuristic::new::<G>(weights),
            greedy,
            nodes: Vec::with_capacity(config.iterations as usize + 1),
            legal: Vec::with_capacity(64),
            tried: Vec::with_capacity(64),
            eligible: Vec::with_capacity(64),
            ln_table: (0..(config.iterations + 2).min(LN_TABLE_MAX))
                .map(|n| f64::from(n).ln())
                .collect(),
            root_score: None,
        }
    }

    /// `ln(n)`, from the table when `n` is small.
    #[inline]
    fn ln(&self, n: u32) -> f64 {
        match self.ln_table.get(n as usize) {
            Some(&v) => v,
            None => f64::from(n).ln(),
        }
    }

    /// The search parameters.
    pub fn config(&self) -> &MctsConfig {
        &self.config
    }

    /// The number of nodes of the last search's tree (`1..=iterations + 1`; 0 before the first
    /// search).
    pub fn tree_size(&self) -> usize {
        self.nodes.len()
    }

    fn add_child(&mut self, parent: u32, action: G::Action) -> u32 {
        let index = self.nodes.len() as u32;
        let next_sibling = self.nodes[parent as usize].first_child;
        self.nodes.push(Node {
            action,
            parent,
            first_child: NONE,
            next_sibling,
            visits: 0,
            avail: 1,
            total: 0.0,
            slot: u16::MAX,
        });
        self.nodes[parent as usize].first_child = index;
        index
    }

    /// One iteration from `root`: determinize, descend, expand, roll out, back up.
    fn iterate(&mut self, root: &G, search: &mut GameRng) {
        let mut s = *root;
        if !self.config.see_hidden {
            s.determinize(search);
        }
        // Equal states have equal scores, so the root's is computed once while determinization
        // changes nothing.
        let root_score = if s == *root {
            match self.root_score {
                Some(v) => v,
                None => *self.root_score.insert(self.heuristic.weighted(root)),
            }
        } else {
            self.heuristic.weighted(&s)
        };
        let mut node = 0u32;
        let value = loop {
            if let Some(outcome) = s.outcome() {
                break terminal_value(outcome);
            }
            s.legal_actions(&mut self.legal);
            self.tried.clear();
            self.tried.resize(self.legal.len(), false);
            self.eligible.clear();
            let mut c = self.nodes[node as usize].first_child;
            while c != NONE {
                let child = &mut self.nodes[c as usize];
                let slot = child.slot as usize;
                let found = if self.legal.get(slot) == Some(&child.action) {
                    Some(slot)
                } else {
                    self.legal.iter().position(|&a| a == child.action)
                };
                if let Some(j) = found {
                    child.slot = u16::try_from(j).unwrap_or(u16::MAX);
                    self.tried[j] = true;
                    self.eligible.push(c);
                }
                c = child.next_sibling;
            }
            let untried = self.legal.len() - self.eligible.len();
            if untried > 0 {
                let k = below(search, untried as u32) as usize;
                let j = self
                    .tried
                    .iter()
                    .enumerate()
                    .filter(|(_, t)| !**t)
                    .nth(k)
                    .map(|(j, _)| j)
                    .expect("k < untried");
                let action = self.legal[j];
                node = self.add_child(node, action);
                self.nodes[node as usize].slot = u16::try_from(j).unwrap_or(u16::MAX);
                s.apply(action, search);
                break self.rollout(&mut s, search, root_score);
            }
            let mut best = NONE;
            let mut best_ucb = f64::NEG_INFINITY;
            for &c in &self.eligible {
                let child = &mut self.nodes[c as usize];
                child.avail += 1;
                let (avail, visits, total) = (child.avail, child.visits as f64, child.total);
                let ucb =
                    total / visits + self.config.exploration * (self.ln(avail) / visits).sqrt();
                if ucb > best_ucb || best == NONE {
                    best_ucb = ucb;
                    best = c;
                }
            }
            node = best;
            s.apply(self.nodes[node as usize].action, search);
        };
        let mut n = node;
        loop {
            let nd = &mut self.nodes[n as usize];
            nd.visits += 1;
            nd.total += value;
            if n == 0 {
                break;
            }
            n = nd.parent;
        }
    }

    /// Plays `s` out for at most `rollout_depth` decisions and values the result.
    fn rollout(&mut self, s: &mut G, search: &mut GameRng, root_score: f64) -> f64 {
        let mut depth = 0;
        while s.outcome().is_none() && depth < self.config.rollout_depth {
            s.legal_actions(&mut self.legal);
            let action = match &mut self.greedy {
                Some(greedy) => greedy.choose(s, &self.legal, search),
                None => self.legal[below(search, self.legal.len() as u32) as usize],
            };
            s.apply(action, search);
            depth += 1;
        }
        match s.outcome() {
            Some(outcome) => terminal_value(outcome),
            None => cutoff_value(self.heuristic.weighted(s), root_score),
        }
    }
}

#[inline]
fn terminal_value(outcome: Outcome) -> f64 {
    if outcome.is_win() { 1.0 } else { 0.0 }
}

impl<G: Game> Policy<G> for MctsPolicy<G> {
    /// # Panics
    /// Panics when `legal` is empty.
    fn choose(&mut self, state: &G, legal: &[G::Action], rng: &mut GameRng) -> G::Action {
        assert!(!legal.is_empty(), "MctsPolicy::choose: no legal action");
        if legal.len() == 1 {
            return legal[0];
        }
        let mut search = GameRng::seed_from_u64(rng.next_u64());
        self.root_score = None;
        self.nodes.clear();
        self.nodes.push(Node {
            action: legal[0],
            parent: NONE,
            first_child: NONE,
            next_sibling: NONE,
            visits: 0,
            avail: 0,
            total: 0.0,
            slot: u16::MAX,
        });
        for _ in 0..self.config.iterations {
            self.iterate(state, &mut search);
        }
        // The most visited root child legal in the real state; ties: highest mean, then first
        // in `legal` order.
        let mut best: Option<(u32, f64, usize)> = None;
        let mut c = self.nodes[0].first_child;
        while c != NONE {
            let child = &self.nodes[c as usize];
            if let Some(j) = legal.iter().position(|&a| a == child.action) {
                let mean = child.total / child.visits.max(1) as f64;
                let better = match best {
                    None => true,
                    Some((visits, best_mean, best_j)) => {
                        (child.visits, mean) > (visits, best_mean)
                            || ((child.visits, mean) == (visits, best_mean) && j < best_j)
                    }
                };
                if better {
                    best = Some((child.visits, mean, j));
                }
            }
            c = child.next_sibling;
        }
        // Only reachable if determinization changed the root's legal actions entirely.
        best.map_or(legal[0], |(_, _, j)| legal[j])
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{Stream, stream_rng};
    use crate::games::race::{Race, RaceAction};
    use crate::policy::greedy::tests::{Duel, DuelAction};

    fn mcts<G: Game>(iterations: u32, rollout: Rollout, weights: Vec<f64>) -> MctsPolicy<G> {
        let config = MctsConfig {
            iterations,
            exploration: 1.0,
            rollout,
            rollout_depth: 10,
            see_hidden: false,
        };
        MctsPolicy::new(config, weights)
    }

    #[test]
    fn mcts_takes_the_sure_win_and_the_only_chance() {
        let legal = [RaceAction::Walk, RaceAction::Run];
        for rollout in [Rollout::Random, Rollout::Greedy] {
            let mut policy = mcts::<Race>(200, rollout, vec![1.0, 0.0]);
            let mut rng = stream_rng(5, 0, Stream::Policy);
            for _ in 0..10 {
                let at_nine = Race {
                    position: 9,
                    turn: 3,
                };
                assert_eq!(policy.choose(&at_nine, &legal, &mut rng), RaceAction::Walk);
                let last = Race {
                    position: 7,
                    turn: 5,
                };
                assert_eq!(policy.choose(&last, &legal, &mut rng), RaceAction::Run);
                // Square 4 with two turns left: walking loses for sure, running wins 1 in 4.
                let behind = Race {
                    position: 4,
                    turn: 4,
                };
                assert_eq!(policy.choose(&behind, &legal, &mut rng), RaceAction::Run);
            }
        }
    }

    #[test]
    fn mcts_tree_grows_one_node_per_iteration_until_it_reaches_terminal_lines() {
        let legal = [RaceAction::Walk, RaceAction::Run];
        let mut rng = stream_rng(6, 0, Stream::Policy);
        // From square 0 no line of fewer than 4 actions ends the game, and UCT needs at least
        // 8 iterations to reach a node 4 deep: so 8 iterations add exactly 8 nodes.
        let mut policy = mcts::<Race>(8, Rollout::Random, vec![1.0, 0.0]);
        policy.choose(
            &Race {
                position: 0,
                turn: 0,
            },
            &legal,
            &mut rng,
        );
        assert_eq!(policy.tree_size(), 9);
        let mut policy = mcts::<Race>(50, Rollout::Random, vec![1.0, 0.0]);
        policy.choose(
            &Race {
                position: 0,
                turn: 0,
            },
            &legal,
            &mut rng,
        );
        assert!(
            (30..=51).contains(&policy.tree_size()),
            "{}",
            policy.tree_size()
        );
        assert_eq!(policy.nodes[0].visits, 50);
        // On the last turn there are only two lines; visits to finished games add nothing.
        policy.choose(
            &Race {
                position: 5,
                turn: 5,
            },
            &legal,
            &mut rng,
        );
        assert_eq!(policy.tree_size(), 3);
        assert_eq!(policy.nodes[0].visits, 50);
    }

    #[test]
    fn mcts_tree_holds_every_line_of_a_two_step_game() {
        // Duel is won on every line, so this checks the open-loop mechanics on a game with
        // prefix actions: the tree holds every line of play (each node keyed by its actions).
        let mut policy = mcts::<Duel>(100, Rollout::Random, vec![1.0]);
        let state = Duel::new_game(&(), &mut stream_rng(0, 0, Stream::Setup));
        let mut legal = Vec::new();
        state.legal_actions(&mut legal);
        let mut rng = stream_rng(7, 0, Stream::Policy);
        let action = policy.choose(&state, &legal, &mut rng);
        assert!(legal.contains(&action));
        // root + 4 first actions + 3 attacks after the moves.
        assert_eq!(policy.tree_size(), 8);
        assert!(matches!(action, DuelAction::Move(_) | DuelAction::Wait));
    }

    #[test]
    fn cutoff_value_is_centered_on_the_root_and_bounded() {
        assert_eq!(cutoff_value(3.0, 3.0), 0.5);
        assert!((cutoff_value(4.0, 3.0) - 0.731_058_578_6).abs() < 1e-9);
        assert!(cutoff_value(-1e9, 0.0) >= 0.0 && cutoff_value(1e9, 0.0) <= 1.0);
        assert_eq!(cutoff_value(f64::NAN, 0.0), 0.0);
    }
}
