//! Beam: a beam search over the player's decisions up to the next chance event, scored by the
//! weighted features, which plans a whole turn where a turn is a puzzle (issue 9's "a whole
//! turn as one plan"; issue 12's sword heroes).
//!
//! Greedy and MCTS choose one atomic action at a time, and a turn of Buried Beneath is many of
//! them: a sword hero must place a villager on a Speed symbol, take the Move action, step to a
//! monster, place another villager on a Damage symbol and take the Attack, and none of the
//! first four steps scores anything by itself. A one-ply look-ahead never finds that; 200 MCTS
//! iterations spread over a dozen placements rarely do. Such a turn holds no chance (the
//! player's placements, stats, moves and attacks are exact), so it can be searched as a
//! deterministic puzzle: breadth first, keeping the `width` best states of each depth by their
//! score, until every line has met chance, the end of the turn, the game's end or the depth
//! limit; the best line's first action is played, and the rest of the line is followed as long
//! as the game stays on it (the same state at each step), so a turn costs one search.
//!
//! Lines end at the turn's end ([`Game::turns`] moves on) because the score already looks past
//! it (Buried's features preview the enemies' turn): on Buried's Knight against The Devourer,
//! 8 seeded games, width 1,000 won 8 of 8 with lines cut at the turn's end and 1 to 6 of 8 with
//! lines of 30-40 decisions running on into the next turns, whose far states decided the
//! first turn's choice (`examples/planner_probe.rs`, session notes in results/README.md).

use rand::{Rng, SeedableRng};

use crate::game::{Game, GameRng};

use super::greedy::Heuristic;
use super::{LIST_ROOM, Policy};

/// The most states a beam strategy may keep per depth.
pub const MAX_WIDTH: u32 = 100_000;

/// One searched state's place in its line: the index of its parent's record (`u32::MAX` for a
/// root action) and the action that led to it.
#[derive(Copy, Clone, Debug)]
struct Record<A> {
    parent: u32,
    action: A,
}

/// Beam search to the next chance event on a weighted feature score.
///
/// Each search draws one seed from the policy stream: the probe generator (seeded from it) is
/// handed to every simulated action, and an action that advances it drew on chance (a die, a
/// draw, a shuffle): its state ends the line, valued as the mean score over `samples`
/// generators (`seed + 1 + s`; one sample is the probe's own outcome). So does a state where
/// the turn is over ([`Game::turns`] differs from the root's), the game is over, or one
/// `depth` decisions from the root. The other states of a depth are
/// ranked by score (the weighted features plus or minus [`WIN_BONUS`](super::WIN_BONUS)), the
/// same state reached in two orders kept once, and the best `width` are expanded at the next
/// depth. The chosen action starts the line of the best value (the first found among equal
/// ones: the legal order, then the order of expansion). Then the line's remaining actions are
/// followed, each while the state equals the one the search saw before it, until a forced step
/// (a single legal action, played without a search): the decision after it searches again,
/// at full width, from the state it led to. Any other state also starts a new search. On
/// Buried's Knight against The Devourer (8 seeded games, width 1,000, `examples/planner_probe.rs`)
/// this won 8 of 8 at 4.4 s a game, against 1 of 8 following the first plan to the turn's end
/// (1.3 s a game) and 8 of 8 searching at every decision (28.8 s a game): the later part of
/// a turn is worth a second look once the first placements are made.
///
/// In a game with hidden information ([`Game::HIDDEN_INFORMATION`]) the search runs on a copy
/// of the state determinized with a generator of its own (one sampled world, never the true
/// deck order; a draw from it is not chance to the search), and the plan is followed while the
/// real state equals the expected one once hidden orders are put in canonical order
/// ([`Game::conceal`]): a draw that shows another card than the sampled world held ends it.
///
/// Memory per search: one record per state generated and `width × branching` candidate states;
/// the buffers are kept between searches (no allocation once they have grown).
#[derive(Clone, Debug)]
pub struct BeamPolicy<G: Game> {
    heuristic: Heuristic,
    width: usize,
    depth: u32,
    samples: u32,
    records: Vec<Record<G::Action>>,
    frontier: Vec<(G, u32)>,
    candidates: Vec<(G, u32, f64)>,
    legal: Vec<G::Action>,
    line: Vec<G::Action>,
    /// The rest of the chosen line: the state expected before each action, and the action.
    plan: Vec<(G, G::Action)>,
    /// How far into `plan` the game has come.
    next: usize,
    /// Whether `choose` determinizes the state it is handed (a player in a game with hidden
    /// information); `false` inside a search, whose states are already determinized.
    honest: bool,
}

impl<G: Game> BeamPolicy<G> {
    /// A beam search keeping `width` states per depth, at most `depth` decisions deep, with
    /// `samples` chance samples at a line's chance end, on `weights` indexed like
    /// [`Game::FEATURE_NAMES`].
    ///
    /// # Panics
    /// When `weights.len() != G::FEATURE_NAMES.len()`, or `width`, `depth` or `samples` is 0.
    pub fn new(weights: Vec<f64>, width: u32, depth: u32, samples: u32) -> Self {
        assert!(
            width >= 1 && depth >= 1 && samples >= 1,
            "BeamPolicy needs width, depth and samples of at least 1"
        );
        BeamPolicy {
            heuristic: Heuristic::new::<G>(weights),
            width: width as usize,
            depth,
            samples,
            records: Vec::new(),
            frontier: Vec::new(),
            candidates: Vec::new(),
            legal: Vec::with_capacity(LIST_ROOM),
            line: Vec::with_capacity(depth as usize),
            plan: Vec::with_capacity(depth as usize),
            next: 0,
            honest: true,
        }
    }

    /// The same policy as MCTS's rollout policy ([`Rollout::Beam`](super::strategy::Rollout)):
    /// the state it is handed is already a determinization (honest search) or the truth on
    /// purpose (`see_hidden`), so it plans on that state as it is.
    pub(crate) fn in_search(mut self) -> Self {
        self.honest = false;
        self
    }

    /// Drops the plan kept from the last search, so the next decision searches afresh: each
    /// MCTS rollout starts with this, and no rollout's play depends on the rollouts before it.
    pub(crate) fn forget_plan(&mut self) {
        self.plan.clear();
        self.next = 0;
    }

    /// The value of a state whose action drew on chance: the mean score over the samples, the
    /// first being `after` itself (the probe's outcome), the others replaying `action` from
    /// `parent` with generators seeded `seed + 1 + s`.
    fn chance_value(&mut self, parent: &G, action: G::Action, after: &G, seed: u64) -> f64 {
        let mut total = self.heuristic.score(after);
        for s in 1..self.samples {
            let mut rng = GameRng::seed_from_u64(seed.wrapping_add(s as u64));
            let mut again = *parent;
            again.apply(action, &mut rng);
            total += self.heuristic.score(&again);
        }
        total / self.samples as f64
    }

    /// Searches from `root` (whose legal actions are `legal`) and leaves the best line in
    /// `self.line`.
    fn search(&mut self, root: &G, legal: &[G::Action], seed: u64) {
        let probe = GameRng::seed_from_u64(seed);
        self.records.clear();
        self.frontier.clear();
        self.frontier.push((*root, u32::MAX));
        let mut best = (f64::NEG_INFINITY, u32::MAX);
        let turn = root.turns();
        for d in 0..self.depth {
            self.candidates.clear();
            let last = d + 1 == self.depth;
            for f in 0..self.frontier.len() {
                let (state, rec) = self.frontier[f];
                let mut legal_here = std::mem::take(&mut self.legal);
                if rec == u32::MAX {
                    legal_here.clear();
                    legal_here.extend_from_slice(legal);
                } else {
                    state.legal_actions(&mut legal_here);
                }
                for &action in &legal_here {
                    let mut after = state;
                    let mut rng = probe.clone();
                    after.apply(action, &mut rng);
                    let id = self.records.len() as u32;
                    self.records.push(Record {
                        parent: rec,
                        action,
                    });
                    let chance = rng != probe;
                    let turn_over = after.turns() != turn;
                    if chance || turn_over || after.outcome().is_some() || last {
                        let v = if chance {
                            self.chance_value(&state, action, &after, seed)
                        } else {
                            self.heuristic.score(&after)
                        };
                        if v > best.0 {
                            best = (v, id);
                        }
                    } else {
                        let v = self.heuristic.score(&after);
                        self.candidates.push((after, id, v));
                    }
                }
                self.legal = legal_here;
            }
            if self.candidates.is_empty() {
                break;
            }
            // Equal scores keep the order of generation (the record ids grow with it); an
            // unstable sort on (score, id) orders as a stable sort on the score would, without
            // the stable sort's scratch buffer (an allocation per search).
            self.candidates
                .sort_unstable_by(|a, b| b.2.total_cmp(&a.2).then(a.1.cmp(&b.1)));
            self.frontier.clear();
            for i in 0..self.candidates.len() {
                if self.frontier.len() == self.width {
                    break;
                }
                let (s, id, v) = self.candidates[i];
                // The same state reached in another order scores the same: keep it once.
                let dup = self.candidates[..i]
                    .iter()
                    .rev()
                    .take_while(|c| c.2 == v)
                    .any(|c| c.0 == s);
                if !dup {
                    self.frontier.push((s, id));
                }
            }
        }
        // Lines cut by the width are not leaves; every line ends at chance, the end, or depth.
        self.line.clear();
        let mut r = best.1;
        while r != u32::MAX {
            let rec = self.records[r as usize];
            self.line.push(rec.action);
            r = rec.parent;
        }
        self.line.reverse();
    }
}

impl<G: Game> Policy<G> for BeamPolicy<G> {
    /// # Panics
    /// Panics when `legal` is empty.
    fn choose(&mut self, state: &G, legal: &[G::Action], rng: &mut GameRng) -> G::Action {
        assert!(!legal.is_empty(), "BeamPolicy::choose: no legal action");
        if legal.len() == 1 {
            // A forced step ends the plan: the next decision searches again.
            self.plan.clear();
            self.next = 0;
            return legal[0];
        }
        if let Some(&(expected, action)) = self.plan.get(self.next)
            && same_to_the_player(&expected, state)
            && legal.contains(&action)
        {
            self.next += 1;
            return action;
        }
        self.plan.clear();
        self.next = 0;
        let seed = rng.next_u64();
        let mut root = *state;
        if G::HIDDEN_INFORMATION && self.honest {
            root.determinize(&mut GameRng::seed_from_u64(seed ^ 0xb3a9_d1e7_0f0f_5eed));
        }
        self.search(&root, legal, seed);
        let Some(&first) = self.line.first() else {
            return legal[0];
        };
        // The states along the line: every action but the last drew no chance, so the probe
        // replays them exactly (from the determinized root in a game with hidden information).
        let probe = GameRng::seed_from_u64(seed);
        let mut s = root;
        s.apply(first, &mut probe.clone());
        for &a in &self.line[1..] {
            self.plan.push((s, a));
            s.apply(a, &mut probe.clone());
        }
        first
    }
}

/// Whether the player cannot tell `a` from `b`: equal states, or in a game with hidden
/// information equal once what the player cannot see is put in canonical order
/// ([`Game::conceal`]), so a plan made on a determinized copy is followed on the real state
/// until a draw shows a card the sampled world did not hold.
fn same_to_the_player<G: Game>(a: &G, b: &G) -> bool {
    if !G::HIDDEN_INFORMATION {
        return a == b;
    }
    let (mut a, mut b) = (*a, *b);
    a.conceal();
    b.conceal();
    a == b
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{SetupValues, Stream, stream_rng};
    use crate::games::buried::Buried;

    /// A Buried Beneath turn holds no chance until its attacks (villager placements, moves), so
    /// the beam's best line runs several decisions: the next decision on the line follows the
    /// plan without searching (it draws nothing from the policy stream), and after
    /// `forget_plan` (each MCTS rollout's start) the same decision searches again.
    #[test]
    fn a_plan_is_followed_without_a_search_until_it_is_forgotten() {
        let setup = Buried::resolve_setup(&SetupValues::new()).unwrap();
        let weights = vec![1.0; Buried::FEATURE_NAMES.len()];
        let mut beam = BeamPolicy::<Buried>::new(weights, 20, 60, 1).in_search();
        let mut legal = Vec::new();
        let mut followed = 0;
        for index in 0..20 {
            let mut state = Buried::new_game(&setup, &mut stream_rng(3, index, Stream::Setup));
            let mut chance = stream_rng(3, index, Stream::Chance);
            let mut rng = stream_rng(3, index, Stream::Policy);
            state.legal_actions(&mut legal);
            if legal.len() < 2 {
                continue;
            }
            let first = beam.choose(&state, &legal, &mut rng);
            if beam.plan.is_empty() {
                continue;
            }
            let (expected, next) = beam.plan[0];
            state.apply(first, &mut chance);
            assert!(
                state == expected,
                "game {index}: the plan expected another state"
            );
            state.legal_actions(&mut legal);
            if legal.len() < 2 {
                continue; // a forced step: played without a search either way
            }
            let before = rng.clone();
            assert_eq!(beam.choose(&state, &legal, &mut rng), next);
            assert!(
                rng == before,
                "game {index}: a followed plan drew from the stream"
            );
            beam.forget_plan();
            assert!(beam.plan.is_empty() && beam.next == 0);
            beam.choose(&state, &legal, &mut rng);
            assert!(
                rng != before,
                "game {index}: a forgotten plan did not search again"
            );
            followed += 1;
        }
        assert!(followed >= 5, "{followed} of 20 games had a plan to follow");
    }
}
