//! MCTS: open-loop UCT for single-agent stochastic games, with determinization.
//!
//! The tree's nodes are keyed by the sequence of player actions from the root, not by states
//! (open loop): the dice the game rolls inside `apply` make the same sequence lead to
//! different states, and each node's mean is taken over them. Every iteration copies the root,
//! re-samples what the player cannot know ([`Game::determinize`]), and descends: at each node
//! only the children whose action is legal in the sampled state are eligible, and a node with
//! an untried legal action expands one. The search draws every die from its own generator,
//! seeded from the policy stream; it never sees the game's chance stream.
//!
//! Except when clairvoyant ([`MctsConfig::clairvoyant`], issue 15): then every iteration
//! starts from the true state (no determinization) and draws its dice from a copy of the
//! game's own chance generator, handed over by [`Policy::choose_foreseeing`]. The game is then
//! deterministic for the search (the same actions meet the same dice and draws as in the real
//! game), so the tree plans against the future itself: the upper bound of what any player of
//! this game could reach, for reports only.

use rand::{Rng, SeedableRng};

use crate::game::{Game, GameRng, Outcome, below};

use super::beam::{BeamPolicy, MAX_WIDTH};
use super::greedy::{GreedyPolicy, Heuristic};
use super::strategy::{DEFAULT_ROLLOUT_WIDTH, MAX_ITERATIONS, ROLLOUT_BEAM_DEPTH, Rollout};
use super::{LIST_ROOM, Policy};

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
    /// Chance samples per candidate of the greedy rollout policy's look-ahead, `1..=10000`
    /// (strategy key `rollout_samples`, default 1). One sample is cheapest but makes greedy
    /// choose on a single imagined roll: in a dice-heavy game (the Gods: greedy with one
    /// sample wins 16% of brute_hunt, with four 57%) the rollouts then play far worse than
    /// greedy itself, and the search below greedy. Ignored with random rollouts.
    pub rollout_samples: u32,
    /// The beam rollout's states kept per depth, `1..=`[`MAX_WIDTH`] (strategy key
    /// `rollout_width`, default [`DEFAULT_ROLLOUT_WIDTH`]); read only with
    /// [`Rollout::Beam`], whose lines meet chance with `rollout_samples` samples.
    pub rollout_width: u32,
    /// Progressive widening, finite and `>= 0`; `0` turns it off. When on, a node's children
    /// are tried in the order of their greedy value (the one-ply look-ahead of
    /// [`GreedyPolicy`], a move scored with its best attack), best first, and a node visited
    /// `n` times has at most `1 + floor(widening * sqrt(n))` children; when off, every legal
    /// action is expanded, in uniformly random order, before any is revisited.
    pub widening: f64,
    /// Whether the tree stops where chance begins: an action whose `apply` draws from the
    /// generator (a die, a draw) ends the descent, and the rest of the iteration is the
    /// rollout. The tree then holds only lines of play whose outcome the player controls, and
    /// what follows a roll is played by the rollout policy, which sees the roll, instead of by
    /// an open-loop line that has to serve every roll at once.
    pub stop_at_chance: bool,
    /// Search the true state without [`Game::determinize`] (strategy key `see_hidden = true`):
    /// a cheating search that sees hidden deck orders, for reports of the upper bound only.
    pub see_hidden: bool,
    /// The clairvoyant upper bound (strategy key `clairvoyant = true`, issue 15): the search
    /// sees the true hidden state (as `see_hidden`) and the game's future chance. Every
    /// iteration replays the dice and draws from a copy of the game's chance generator at this
    /// decision ([`Policy::choose_foreseeing`]), and greedy rollouts look ahead on those same
    /// dice, so every searched line of play meets the dice it would really meet. Never a
    /// player: a bound telling "too hard for these players" from "too hard for anyone". Through
    /// plain [`Policy::choose`] (no generator handed over) it searches its own sampled dice,
    /// still seeing the hidden state.
    pub clairvoyant: bool,
    /// Greedy prior (strategy key `prior_visits`, default 0 = off; issue 9): a node's children
    /// start with `prior_visits` virtual visits worth greedy's opinion of their action, and are
    /// opened best first. On a node's first selection its legal actions are valued by greedy's
    /// one-ply look-ahead with [`rollout_samples`](MctsConfig::rollout_samples) chance
    /// samples, each value `v` turned into `q = `[`cutoff_value`]`(v, root score)` (the value a
    /// rollout cut off right after the action would get, so a won state is 1 and a lost one 0).
    /// A child is created with `visits = prior_visits` and `total = prior_visits * q`, so its
    /// mean starts at `q` and moves to its rollouts' mean as they come in. Untried actions are
    /// not all opened first (in uniformly random order, as plain UCT does): the best-valued
    /// untried legal action is opened only when its UCB1
    /// `q + c * sqrt(ln(node visits) / prior_visits)` beats the best child's. At a node of 25
    /// legal actions and a few visits, plain UCT measures each of its parent's actions followed
    /// by a random one; with the prior, followed by greedy's choice until the search learns
    /// better. Excludes [`widening`](MctsConfig::widening) (the strategy file refuses both).
    pub prior_visits: u32,
    /// Closed-loop chance (strategy key `chance_outcomes`, default 0 = open loop; issue 9): at
    /// most this many outcomes, `0..=1000`, below each action of the tree. With it on, the
    /// state an action led to is looked up among its action node's outcome nodes (each holds
    /// one resulting state with its hidden part in canonical order, [`Game::conceal`], compared
    /// with `==`): an equal one is descended into, a new one is added while the node has fewer
    /// than `chance_outcomes`, and once it is full an iteration whose roll led elsewhere
    /// continues from an existing outcome drawn in proportion to how often each was rolled (its
    /// state restored and determinized). So a tree line is a plan *per roll*: after
    /// a hit and after a miss the search can choose differently, where the open-loop tree has
    /// one line for every roll (the Gods' ladder stopped climbing above 200 iterations there,
    /// results/README.md "Search strength"). An action that draws nothing has one outcome. Cost:
    /// one state stored per outcome node (at most `iterations` of them) and a state comparison
    /// per outcome looked at. Excludes [`stop_at_chance`](MctsConfig::stop_at_chance).
    pub chance_outcomes: u32,
    /// The most player decisions a tree line holds (strategy key `tree_depth`, default
    /// `u32::MAX` = unlimited; `1..`): an iteration that reaches a node this deep rolls out from
    /// there instead of selecting, so the budget goes to more rollouts below the shallow nodes
    /// rather than to a deeper tree (issue 9: on the Gods, deeper open-loop trees played worse).
    pub tree_depth: u32,
    /// A rollout horizon in game turns (strategy key `rollout_turns`, default 0 = off; issue
    /// 9): when on, a rollout also stops, and is scored, at the first state whose
    /// [`Game::turns`] is at least the searched decision's plus `rollout_turns`, `0..=1000`
    /// ([`rollout_depth`](MctsConfig::rollout_depth) decisions stay the hard cap). The tree's
    /// descent does not look at the horizon: a line whose tree part already reached that turn
    /// is scored where the tree left it (a leaf past the horizon, possible with a deep tree).
    /// So every rollout of one decision is cut at the same point of the game (the start of a
    /// turn), whatever the number of decisions a turn takes: on Beyond the Rift a round is 10
    /// decisions with one hero and 40 or more with four, and a cut-off in decisions scored
    /// lines with four heroes before the round's Enemy and Draw Phases (results/README.md,
    /// "Rollout depth on Beyond").
    pub rollout_turns: u32,
}

/// The shipped `mcts-200` strategy's search (`strategies/mcts-200.toml`): 200 iterations,
/// exploration 1.0, greedy rollouts of at most 6 decisions with one chance sample, and every
/// optional key at its default (no widening, prior, closed-loop chance or depth limit; an
/// honest search). Code that builds a configuration by hand names what differs and takes the
/// rest from here (`MctsConfig { iterations: 60, ..MctsConfig::default() }`).
impl Default for MctsConfig {
    fn default() -> Self {
        MctsConfig {
            iterations: 200,
            exploration: 1.0,
            rollout: Rollout::Greedy,
            rollout_depth: 6,
            rollout_samples: 1,
            rollout_width: DEFAULT_ROLLOUT_WIDTH,
            widening: 0.0,
            stop_at_chance: false,
            see_hidden: false,
            clairvoyant: false,
            prior_visits: 0,
            chance_outcomes: 0,
            tree_depth: u32::MAX,
            rollout_turns: 0,
        }
    }
}

impl MctsConfig {
    /// The strategy-file lines (`key = value\n`) of the optional search keys that are not at
    /// their defaults, in file order: `rollout_width` (with a beam rollout, always),
    /// `prior_visits`, `chance_outcomes`, `tree_depth`, `rollout_turns`. Empty for a search of the defaults, so
    /// a report of such a strategy reads as before these keys.
    pub fn optional_keys_toml(&self) -> String {
        let mut s = String::new();
        if self.rollout == Rollout::Beam {
            s.push_str(&format!("rollout_width = {}\n", self.rollout_width));
        }
        if self.prior_visits > 0 {
            s.push_str(&format!("prior_visits = {}\n", self.prior_visits));
        }
        if self.chance_outcomes > 0 {
            s.push_str(&format!("chance_outcomes = {}\n", self.chance_outcomes));
        }
        if self.tree_depth != u32::MAX {
            s.push_str(&format!("tree_depth = {}\n", self.tree_depth));
        }
        if self.rollout_turns > 0 {
            s.push_str(&format!("rollout_turns = {}\n", self.rollout_turns));
        }
        s
    }
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

/// The capacity of a clairvoyant search's line buffers: the longest line (tree depth plus a
/// rollout), capped at 2^16 actions (longer lines grow the buffers once).
fn line_cap(config: &MctsConfig) -> usize {
    (config.iterations as usize + 1 + config.rollout_depth as usize).min(1 << 16)
}

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
    /// Progressive widening: where this node's ranked candidate actions start in the ranking
    /// arena, and how many there are (`UNRANKED` until ranked).
    rank_off: u32,
    rank_len: u16,
    /// Progressive widening: how many of the ranked candidates have become children.
    children: u16,
    /// Closed-loop chance ([`MctsConfig::chance_outcomes`]): for an outcome node, the index of
    /// its state in the policy's state arena (and `avail` counts the rolls that led to it);
    /// `NONE` for action nodes and the root.
    state: u32,
}

const UNRANKED: u16 = u16::MAX;

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
///    [`MctsConfig::rollout_depth`] player decisions, and with
///    [`MctsConfig::rollout_turns`] only until the horizon turn begins;
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
    /// The rollout policy with [`Rollout::Beam`].
    beam: Option<BeamPolicy<G>>,
    nodes: Vec<Node<G::Action>>,
    legal: Vec<G::Action>,
    tried: Vec<bool>,
    eligible: Vec<u32>,
    /// `ln(n)` for `n < ln_table.len()` (the availability counts of UCB1).
    ln_table: Vec<f64>,
    /// The weighted feature score of the undeterminized root, once computed this decision.
    root_score: Option<f64>,
    /// Progressive widening: the greedy look-ahead that ranks a node's candidates.
    ranker: Option<GreedyPolicy<G>>,
    /// Greedy prior ([`MctsConfig::prior_visits`]): the look-ahead (with the rollouts' chance
    /// samples) that values a node's candidates.
    prior: Option<GreedyPolicy<G>>,
    /// Progressive widening: every ranked node's candidates, best first, one slice per node.
    ranked: Vec<G::Action>,
    /// Greedy prior: the prior value `q` of each entry of `ranked` (empty when the prior is
    /// off).
    ranked_q: Vec<f64>,
    /// Progressive widening: greedy values and the sort order of one node's candidates.
    values: Vec<f64>,
    order: Vec<u32>,
    /// Clairvoyant search: the game's chance generator at this decision, while a decision
    /// handed over by [`Policy::choose_foreseeing`] is being searched.
    truth: Option<GameRng>,
    /// Clairvoyant search: the actions of this iteration's line (tree, then rollout), the best
    /// line of this decision and its value, and the plan kept from the last decision (the
    /// rest of its best line) with the next plan action's index.
    line: Vec<G::Action>,
    best_line: Vec<G::Action>,
    best_value: f64,
    plan: Vec<G::Action>,
    plan_at: usize,
    /// Clairvoyant search: the state and chance generator the plan expects at the next
    /// decision; the plan is dropped when the next decision is anywhere else (another game),
    /// so no game's play depends on the games this policy played before.
    expect: Option<(G, GameRng)>,
    /// Closed-loop chance: the states of the outcome nodes.
    states: Vec<G>,
    /// [`MctsConfig::rollout_turns`]: the turn at which this decision's rollouts stop
    /// (`u32::MAX` when the key is off).
    horizon: u32,
}

/// The most entries of [`MctsPolicy`]'s `ln` table (512 KiB).
const LN_TABLE_MAX: u32 = 1 << 16;

impl<G: Game> MctsPolicy<G> {
    /// An MCTS policy with `weights` indexed like [`Game::FEATURE_NAMES`] (for the cut-off
    /// value and greedy rollouts).
    ///
    /// # Panics
    /// Panics when `config` is out of range (`iterations` not in `1..=MAX_ITERATIONS`,
    /// `exploration` negative or not finite, `rollout_depth == 0`) or when
    /// `weights.len() != G::FEATURE_NAMES.len()`.
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
        assert!(
            config.widening.is_finite() && config.widening >= 0.0,
            "MCTS widening {} is not a finite number >= 0",
            config.widening
        );
        assert!(
            config.prior_visits == 0 || config.widening == 0.0,
            "MCTS prior_visits and widening exclude each other"
        );
        assert!(
            config.chance_outcomes == 0 || !config.stop_at_chance,
            "MCTS chance_outcomes and stop_at_chance exclude each other"
        );
        assert!(
            config.rollout != Rollout::Beam
                || (!config.clairvoyant && (1..=MAX_WIDTH).contains(&config.rollout_width)),
            "MCTS beam rollouts need a width in 1..={MAX_WIDTH} and exclude clairvoyant"
        );
        let ranker =
            (config.widening > 0.0).then(|| GreedyPolicy::new(weights.clone(), 1).in_search());
        let prior = (config.prior_visits > 0)
            .then(|| GreedyPolicy::new(weights.clone(), config.rollout_samples).in_search());
        let widened = config.widening > 0.0 || config.prior_visits > 0;
        // A node is ranked on its second visit (widening) or its first selection, which comes
        // after the iteration that created it (prior): at most `iterations / 2 + 1` nodes are
        // ranked, each with its legal actions (128 covers the Rift's widest turns).
        let rank_cap = if widened {
            (config.iterations as usize / 2 + 1).min(1 << 16) * 128
        } else {
            0
        };
        let greedy = match config.rollout {
            Rollout::Random | Rollout::Beam => None,
            Rollout::Greedy => {
                Some(GreedyPolicy::new(weights.clone(), config.rollout_samples).in_search())
            }
        };
        let beam = (config.rollout == Rollout::Beam).then(|| {
            BeamPolicy::new(
                weights.clone(),
                config.rollout_width,
                ROLLOUT_BEAM_DEPTH,
                config.rollout_samples,
            )
            .in_search()
        });
        MctsPolicy {
            config,
            heuristic: Heuristic::new::<G>(weights),
            greedy,
            beam,
            // An iteration adds at most an action node and, closed loop, an outcome node.
            nodes: Vec::with_capacity(
                (config.iterations as usize + 1) * if config.chance_outcomes > 0 { 2 } else { 1 },
            ),
            legal: Vec::with_capacity(LIST_ROOM),
            tried: Vec::with_capacity(LIST_ROOM),
            eligible: Vec::with_capacity(LIST_ROOM),
            ln_table: (0..(config.iterations + 2).min(LN_TABLE_MAX))
                .map(|n| f64::from(n).ln())
                .collect(),
            root_score: None,
            ranker,
            prior,
            ranked: Vec::with_capacity(rank_cap),
            ranked_q: Vec::with_capacity(if config.prior_visits > 0 { rank_cap } else { 0 }),
            values: Vec::with_capacity(LIST_ROOM),
            order: Vec::with_capacity(LIST_ROOM),
            truth: None,
            // A line is at most the tree's depth (< iterations + 1) plus a rollout.
            line: Vec::with_capacity(if config.clairvoyant {
                line_cap(&config)
            } else {
                0
            }),
            best_line: Vec::with_capacity(if config.clairvoyant {
                line_cap(&config)
            } else {
                0
            }),
            best_value: -1.0,
            plan: Vec::with_capacity(if config.clairvoyant {
                line_cap(&config)
            } else {
                0
            }),
            plan_at: 0,
            expect: None,
            states: Vec::with_capacity(if config.chance_outcomes > 0 {
                config.iterations as usize + 1
            } else {
                0
            }),
            horizon: u32::MAX,
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

    /// The number of nodes of the last search's tree (`1..=iterations + 1`, closed loop
    /// `1..=2 * iterations + 1` counting outcome nodes; 0 before the first search).
    pub fn tree_size(&self) -> usize {
        self.nodes.len()
    }

    /// The greatest depth of the last search's tree (root children are at depth 1; 0 before
    /// the first search or when only the root exists): how many player decisions ahead the
    /// tree, not the rollouts, reached.
    pub fn tree_depth(&self) -> u32 {
        let mut depth = vec![0u32; self.nodes.len()];
        let mut deepest = 0;
        // Children always come after their parent in the arena; outcome nodes are no decision.
        for i in 1..self.nodes.len() {
            let step = u32::from(self.nodes[i].state == NONE);
            depth[i] = depth[self.nodes[i].parent as usize] + step;
            deepest = deepest.max(depth[i]);
        }
        deepest
    }

    /// The number of children of the last search's root.
    pub fn root_children(&self) -> usize {
        let mut n = 0;
        let mut c = self.nodes.first().map_or(NONE, |r| r.first_child);
        while c != NONE {
            n += 1;
            c = self.nodes[c as usize].next_sibling;
        }
        n
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
            rank_off: 0,
            rank_len: UNRANKED,
            children: 0,
            state: NONE,
        });
        self.nodes[parent as usize].first_child = index;
        index
    }

    /// Closed-loop chance: the outcome node below `action_node` for the state `s` its action
    /// just led to. Outcomes are keyed by the concealed state ([`Game::conceal`]: what the
    /// player cannot see in a canonical order), so states the player cannot tell apart share
    /// one. An outcome holding the concealed `s` is taken (`(outcome, false)`); else a new
    /// outcome holding it is added while there are fewer than [`MctsConfig::chance_outcomes`]
    /// (`(outcome, true)`); in both cases the iteration goes on with `s` itself. Else an
    /// existing outcome is drawn from `search` in proportion to the rolls that led to each, and
    /// `s` becomes its state, determinized ([`Game::determinize`]) for the hidden part
    /// (`(outcome, false)`). A search that sees the hidden state keys by the state itself.
    fn outcome(&mut self, action_node: u32, s: &mut G, search: &mut GameRng) -> (u32, bool) {
        // A search that sees the hidden state (see_hidden, clairvoyant) keys by the state itself.
        let honest = !self.config.see_hidden && !self.config.clairvoyant;
        let mut key = *s;
        if honest {
            key.conceal();
        }
        let mut count = 0u32;
        let mut rolls = 0u32;
        let mut c = self.nodes[action_node as usize].first_child;
        while c != NONE {
            let nd = &mut self.nodes[c as usize];
            if self.states[nd.state as usize] == key {
                nd.avail += 1;
                return (c, false);
            }
            count += 1;
            rolls += nd.avail;
            c = nd.next_sibling;
        }
        if count < self.config.chance_outcomes {
            let child = self.add_child(action_node, self.nodes[action_node as usize].action);
            self.nodes[child as usize].state = self.states.len() as u32;
            self.states.push(key);
            return (child, true);
        }
        let mut r = below(search, rolls);
        let mut c = self.nodes[action_node as usize].first_child;
        loop {
            let nd = &self.nodes[c as usize];
            if r < nd.avail || nd.next_sibling == NONE {
                *s = self.states[nd.state as usize];
                if honest {
                    s.determinize(search);
                }
                return (c, false);
            }
            r -= nd.avail;
            c = nd.next_sibling;
        }
    }

    /// Ranks `node`'s candidates (the legal actions of `s`, in `self.legal`) by their greedy
    /// value, best first (ties in legal order), into the ranking arena.
    ///
    /// With the greedy prior on, the prior's look-ahead values them and each candidate's prior
    /// value `cutoff_value(value, root_score)` goes to `ranked_q`.
    fn rank(&mut self, node: u32, s: &G, search: &mut GameRng, root_score: f64) {
        let seed = search.next_u64();
        let ranker = match self.prior.as_mut() {
            Some(prior) => prior,
            None => self.ranker.as_mut().expect("widening builds a ranker"),
        };
        ranker.values(s, &self.legal, seed, &mut self.values);
        self.order.clear();
        self.order.extend(0..self.legal.len() as u32);
        let values = &self.values;
        self.order.sort_by(|&a, &b| {
            values[b as usize]
                .partial_cmp(&values[a as usize])
                .unwrap_or(std::cmp::Ordering::Equal)
                .then(a.cmp(&b))
        });
        let off = self.ranked.len() as u32;
        let len = self.legal.len().min(UNRANKED as usize - 1);
        for &j in &self.order[..len] {
            self.ranked.push(self.legal[j as usize]);
        }
        if self.prior.is_some() {
            for &j in &self.order[..len] {
                self.ranked_q
                    .push(cutoff_value(self.values[j as usize], root_score));
            }
        }
        let nd = &mut self.nodes[node as usize];
        nd.rank_off = off;
        nd.rank_len = len as u16;
    }

    /// Finds `node`'s eligible children (those whose action is in `self.legal`), marking
    /// their legal slots in `self.tried` and listing them in `self.eligible`.
    fn find_eligible(&mut self, node: u32) {
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
    }

    /// The eligible child with the highest UCB1 (first in `self.eligible` on ties), counting
    /// one more availability for each eligible child.
    fn best_ucb(&mut self) -> (u32, f64) {
        let mut best = NONE;
        let mut best_ucb = f64::NEG_INFINITY;
        for &c in &self.eligible {
            let child = &mut self.nodes[c as usize];
            child.avail += 1;
            let (avail, visits, total) = (child.avail, child.visits as f64, child.total);
            let ucb = total / visits + self.config.exploration * (self.ln(avail) / visits).sqrt();
            if ucb > best_ucb || best == NONE {
                best_ucb = ucb;
                best = c;
            }
        }
        (best, best_ucb)
    }

    /// Plain UCT selection at `node` for the legal actions in `self.legal`: expands an
    /// untried legal action chosen uniformly (`(child, true)`), else the best UCB1 child.
    fn select_uct(&mut self, node: u32, search: &mut GameRng) -> (u32, bool) {
        self.find_eligible(node);
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
            let child = self.add_child(node, action);
            self.nodes[child as usize].slot = u16::try_from(j).unwrap_or(u16::MAX);
            return (child, true);
        }
        (self.best_ucb().0, false)
    }

    /// Selection with progressive widening at `node` in state `s` (legal actions in
    /// `self.legal`): ranks the node on its first selection, opens ranked candidates as
    /// children up to the widening limit, and returns an eligible child never visited
    /// (`(child, true)`) or the best UCB1 child. `None` when no ranked candidate is legal
    /// in `s` (possible only where determinization or chance changed the legal actions).
    fn select_widened(
        &mut self,
        node: u32,
        s: &G,
        search: &mut GameRng,
        root_score: f64,
    ) -> Option<(u32, bool)> {
        if self.nodes[node as usize].rank_len == UNRANKED {
            self.rank(node, s, search, root_score);
        }
        let nd = self.nodes[node as usize];
        let limit = 1 + (self.config.widening * f64::from(nd.visits).sqrt()) as usize;
        let limit = limit.min(nd.rank_len as usize);
        for k in nd.children as usize..limit {
            let action = self.ranked[nd.rank_off as usize + k];
            let child = self.add_child(node, action);
            self.nodes[child as usize].avail = 0;
        }
        if (nd.children as usize) < limit {
            self.nodes[node as usize].children = limit as u16;
        }
        self.find_eligible(node);
        if self.eligible.is_empty() {
            // Open ranked candidates beyond the limit until one is legal here.
            let nd = self.nodes[node as usize];
            for k in nd.children as usize..nd.rank_len as usize {
                let action = self.ranked[nd.rank_off as usize + k];
                let child = self.add_child(node, action);
                self.nodes[node as usize].children = k as u16 + 1;
                if self.legal.contains(&action) {
                    return Some((child, true));
                }
                self.nodes[child as usize].avail = 0;
            }
            return None;
        }
        // Children are linked newest first, so the last unvisited one in the list is the best
        // ranked of them.
        let mut fresh = NONE;
        for &c in &self.eligible {
            let child = &mut self.nodes[c as usize];
            child.avail += 1;
            if child.visits == 0 {
                fresh = c;
            }
        }
        if fresh != NONE {
            return Some((fresh, true));
        }
        for &c in &self.eligible {
            self.nodes[c as usize].avail -= 1;
        }
        Some((self.best_ucb().0, false))
    }

    /// Selection with the greedy prior ([`MctsConfig::prior_visits`]) at `node` in state `s`
    /// (legal actions in `self.legal`): values the node's candidates on its first selection,
    /// then either opens the best-valued untried legal action (`(child, true)`, with
    /// `prior_visits` virtual visits worth its prior value) when the node has no eligible child
    /// or that action's UCB1 beats the best child's, or returns the best UCB1 child. An untried
    /// legal action missing from the valued list (chance or determinization changed the legal
    /// actions) is opened first, without virtual visits, as plain UCT would.
    fn select_prior(
        &mut self,
        node: u32,
        s: &G,
        search: &mut GameRng,
        root_score: f64,
    ) -> (u32, bool) {
        if self.nodes[node as usize].rank_len == UNRANKED {
            self.rank(node, s, search, root_score);
        }
        self.find_eligible(node);
        let nd = self.nodes[node as usize];
        let (off, len) = (nd.rank_off as usize, nd.rank_len as usize);
        let mut next = None;
        for k in off..off + len {
            let action = self.ranked[k];
            if let Some(j) = self.legal.iter().position(|&a| a == action)
                && !self.tried[j]
            {
                next = Some((j, self.ranked_q[k]));
                break;
            }
        }
        let k = self.config.prior_visits;
        let (j, q) = match next {
            Some(pick) => pick,
            None => {
                if let Some(j) = self.tried.iter().position(|t| !t) {
                    let child = self.add_child(node, self.legal[j]);
                    self.nodes[child as usize].slot = u16::try_from(j).unwrap_or(u16::MAX);
                    return (child, true);
                }
                return (self.best_ucb().0, false);
            }
        };
        if !self.eligible.is_empty() {
            let (best, best_ucb) = self.best_ucb();
            let fresh_ucb =
                q + self.config.exploration * (self.ln(nd.visits.max(1)) / f64::from(k)).sqrt();
            if fresh_ucb <= best_ucb {
                return (best, false);
            }
        }
        let child = self.add_child(node, self.legal[j]);
        let c = &mut self.nodes[child as usize];
        c.slot = u16::try_from(j).unwrap_or(u16::MAX);
        c.visits = k;
        c.total = f64::from(k) * q;
        (child, true)
    }

    /// One iteration from `root`: determinize, descend, expand, roll out, back up.
    fn iterate(&mut self, root: &G, search: &mut GameRng) {
        let mut s = *root;
        if !self.config.see_hidden && !self.config.clairvoyant {
            s.determinize(search);
        }
        // The dice of this iteration: the game's own, replayed from this decision, when
        // clairvoyant; else the search generator's samples.
        let mut truth = self.truth.clone();
        self.line.clear();
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
        let mut depth = 0u32;
        let value = loop {
            if let Some(outcome) = s.outcome() {
                break terminal_value(outcome);
            }
            if depth == self.config.tree_depth {
                break self.rollout(
                    &mut s,
                    search,
                    &mut truth,
                    root_score,
                    self.config.rollout_depth,
                );
            }
            depth += 1;
            s.legal_actions(&mut self.legal);
            let (next, fresh) = if self.config.widening > 0.0 {
                match self.select_widened(node, &s, search, root_score) {
                    Some(pick) => pick,
                    None => {
                        break self.rollout(
                            &mut s,
                            search,
                            &mut truth,
                            root_score,
                            self.config.rollout_depth,
                        );
                    }
                }
            } else if self.config.prior_visits > 0 {
                self.select_prior(node, &s, search, root_score)
            } else {
                self.select_uct(node, search)
            };
            node = next;
            let dice = truth.as_mut().unwrap_or(&mut *search);
            let before = self.config.stop_at_chance.then(|| dice.clone());
            s.apply(self.nodes[node as usize].action, dice);
            if self.config.chance_outcomes > 0 {
                let (outcome, new) = self.outcome(node, &mut s, search);
                node = outcome;
                if fresh || new {
                    break self.rollout(
                        &mut s,
                        search,
                        &mut truth,
                        root_score,
                        self.config.rollout_depth,
                    );
                }
                continue;
            }
            if fresh || before.is_some_and(|b| b != *dice) {
                break self.rollout(
                    &mut s,
                    search,
                    &mut truth,
                    root_score,
                    self.config.rollout_depth,
                );
            }
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
        if truth.is_some() && value > self.best_value {
            // A better line under the true dice: the tree's actions (root first), then the
            // rollout's.
            self.best_value = value;
            self.best_line.clear();
            let mut n = node;
            while n != 0 {
                if self.nodes[n as usize].state == NONE {
                    self.best_line.push(self.nodes[n as usize].action);
                }
                n = self.nodes[n as usize].parent;
            }
            self.best_line.reverse();
            self.best_line.extend_from_slice(&self.line);
        }
    }

    /// Clairvoyant: plays the plan kept from the last decision from `root` under the true
    /// dice, while its actions stay legal, then rolls out; the line (plan part and rollout)
    /// becomes this decision's best so far. The real game followed the plan's line so far, so
    /// the kept line is still worth what it was found to be worth, and the search can only
    /// replace it with a line it values higher.
    fn replay_plan(&mut self, root: &G, search: &mut GameRng) {
        let mut s = *root;
        let mut truth = self.truth.clone();
        let root_score = match self.root_score {
            Some(v) => v,
            None => *self.root_score.insert(self.heuristic.weighted(root)),
        };
        self.best_line.clear();
        for k in self.plan_at..self.plan.len() {
            if s.outcome().is_some() {
                break;
            }
            let action = self.plan[k];
            s.legal_actions(&mut self.legal);
            if !self.legal.contains(&action) {
                break;
            }
            self.best_line.push(action);
            s.apply(action, truth.as_mut().unwrap_or(&mut *search));
        }
        if self.best_line.is_empty() {
            return;
        }
        self.line.clear();
        // The line reaches as far as a tree line's rollout would (and the buffers' capacity
        // holds it): the plan's actions count against the rollout's depth.
        let depth = (self.config.rollout_depth as usize).saturating_sub(self.best_line.len());
        let value = match s.outcome() {
            Some(outcome) => terminal_value(outcome),
            None => self.rollout(&mut s, search, &mut truth, root_score, depth as u32),
        };
        let rollout = std::mem::take(&mut self.line);
        self.best_line.extend_from_slice(&rollout);
        self.line = rollout;
        self.best_value = value;
    }

    /// Plays `s` out for at most `max_depth` decisions, and only until [`Game::turns`] reaches
    /// this decision's horizon ([`MctsConfig::rollout_turns`]), and values the result. With the
    /// true dice (`truth`, clairvoyant), the game draws from them and greedy looks ahead on
    /// them; else both sample from `search`.
    fn rollout(
        &mut self,
        s: &mut G,
        search: &mut GameRng,
        truth: &mut Option<GameRng>,
        root_score: f64,
        max_depth: u32,
    ) -> f64 {
        let mut depth = 0;
        if let Some(beam) = &mut self.beam {
            beam.forget_plan();
        }
        while s.outcome().is_none()
            && depth < max_depth
            && (self.horizon == u32::MAX || s.turns() < self.horizon)
        {
            s.legal_actions(&mut self.legal);
            let action = match (&mut self.greedy, &mut self.beam, &*truth) {
                (Some(greedy), _, Some(dice)) => {
                    greedy.choose_with_dice(s, &self.legal, search, dice)
                }
                (Some(greedy), _, None) => greedy.choose(s, &self.legal, search),
                (None, Some(beam), _) => beam.choose(s, &self.legal, search),
                (None, None, _) => self.legal[below(search, self.legal.len() as u32) as usize],
            };
            if truth.is_some() {
                self.line.push(action);
            }
            s.apply(action, truth.as_mut().unwrap_or(&mut *search));
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
        self.horizon = match self.config.rollout_turns {
            0 => u32::MAX,
            n => state.turns().saturating_add(n),
        };
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
            rank_off: 0,
            rank_len: UNRANKED,
            children: 0,
            state: NONE,
        });
        self.ranked.clear();
        self.ranked_q.clear();
        self.states.clear();
        let mut budget = self.config.iterations;
        if self.truth.is_some() {
            self.best_value = -1.0;
            self.best_line.clear();
            if self.plan_at < self.plan.len() {
                // The kept plan costs one iteration of the budget.
                self.replay_plan(state, &mut search);
                budget -= 1;
            }
        }
        for _ in 0..budget {
            self.iterate(state, &mut search);
        }
        if self.truth.is_some()
            && let Some(&first) = self.best_line.first()
            && legal.contains(&first)
        {
            // Under the true dice a line's value is what following it yields: play the best
            // line found, and keep its rest as the plan.
            std::mem::swap(&mut self.plan, &mut self.best_line);
            self.plan_at = 1;
            return first;
        }
        self.plan.clear();
        self.plan_at = 0;
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

    /// Clairvoyant: searches with `chance` (see [`MctsConfig::clairvoyant`]); otherwise
    /// exactly [`choose`](Policy::choose).
    fn choose_foreseeing(
        &mut self,
        state: &G,
        legal: &[G::Action],
        rng: &mut GameRng,
        chance: &GameRng,
    ) -> G::Action {
        if !self.config.clairvoyant {
            return self.choose(state, legal, rng);
        }
        let expected = self
            .expect
            .take()
            .is_some_and(|(s, r)| s == *state && r == *chance);
        if !expected {
            self.plan.clear();
            self.plan_at = 0;
        }
        let action = if legal.len() == 1 {
            // A forced action: the plan goes on if it foresaw it.
            if self.plan.get(self.plan_at) == Some(&legal[0]) {
                self.plan_at += 1;
            } else {
                self.plan.clear();
                self.plan_at = 0;
            }
            legal[0]
        } else {
            self.truth = Some(chance.clone());
            let action = self.choose(state, legal, rng);
            self.truth = None;
            action
        };
        if self.plan_at < self.plan.len() {
            let mut next = *state;
            let mut dice = chance.clone();
            next.apply(action, &mut dice);
            self.expect = Some((next, dice));
        }
        action
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{Stream, stream_rng};
    use crate::games::race::{GOAL, Race, RaceAction};
    use crate::policy::greedy::tests::{Duel, DuelAction};

    fn mcts<G: Game>(iterations: u32, rollout: Rollout, weights: Vec<f64>) -> MctsPolicy<G> {
        let config = MctsConfig {
            iterations,
            rollout,
            rollout_depth: 10,
            ..MctsConfig::default()
        };
        MctsPolicy::new(config, weights)
    }

    #[test]
    fn mcts_takes_the_sure_win_and_the_only_chance() {
        let legal = [RaceAction::Walk, RaceAction::Run];
        for rollout in [Rollout::Random, Rollout::Greedy, Rollout::Beam] {
            let mut policy = mcts::<Race>(200, rollout, vec![1.0, 0.0]);
            assert_eq!(policy.beam.is_some(), rollout == Rollout::Beam);
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

    fn configured<G: Game>(
        iterations: u32,
        widening: f64,
        stop_at_chance: bool,
        weights: Vec<f64>,
    ) -> MctsPolicy<G> {
        let config = MctsConfig {
            iterations,
            rollout_depth: 10,
            widening,
            stop_at_chance,
            ..MctsConfig::default()
        };
        MctsPolicy::new(config, weights)
    }

    /// The depth of node `n` (the root is 0).
    fn depth<A>(nodes: &[Node<A>], mut n: u32) -> u32 {
        let mut d = 0;
        while n != 0 {
            n = nodes[n as usize].parent;
            d += 1;
        }
        d
    }

    #[test]
    fn stop_at_chance_keeps_rolls_out_of_the_tree() {
        // In Race only running flips a coin: with the tree stopping at chance, no node lies
        // below a Run, so the tree is the walking line plus one Run leaf per depth.
        let legal = [RaceAction::Walk, RaceAction::Run];
        let start = Race {
            position: 0,
            turn: 0,
        };
        let mut rng = stream_rng(8, 0, Stream::Policy);
        let mut policy = configured::<Race>(300, 0.0, true, vec![1.0, 0.0]);
        policy.choose(&start, &legal, &mut rng);
        for (i, n) in policy.nodes.iter().enumerate().skip(1) {
            let parent = &policy.nodes[n.parent as usize];
            assert!(
                n.parent == 0 || parent.action == RaceAction::Walk,
                "node {i} lies below a Run"
            );
        }
        // 6 turns: at most 6 Walk nodes and 6 Run leaves.
        assert!(policy.tree_size() <= 13, "{}", policy.tree_size());
        // Without it the tree grows below the runs too.
        let mut open = configured::<Race>(300, 0.0, false, vec![1.0, 0.0]);
        open.choose(&start, &legal, &mut rng);
        assert!(open.tree_size() > 13, "{}", open.tree_size());
    }

    #[test]
    fn widening_opens_children_best_first_and_by_visits() {
        // Duel: the greedy ranking is move 2 (5), move 0 and move 1 (2), wait (0).
        let state = Duel::new_game(&(), &mut stream_rng(0, 0, Stream::Setup));
        let mut legal = Vec::new();
        state.legal_actions(&mut legal);
        let mut rng = stream_rng(9, 0, Stream::Policy);
        let mut policy = configured::<Duel>(3, 0.5, false, vec![1.0]);
        assert_eq!(policy.choose(&state, &legal, &mut rng), DuelAction::Move(2));
        // 3 root visits: 1 + floor(0.5 * sqrt(2)) = 1 child at the last selection, so the
        // only root child is the best ranked one, visited 3 times.
        let kids: Vec<(DuelAction, u32)> = {
            let mut v = Vec::new();
            let mut c = policy.nodes[0].first_child;
            while c != NONE {
                v.push((
                    policy.nodes[c as usize].action,
                    policy.nodes[c as usize].visits,
                ));
                c = policy.nodes[c as usize].next_sibling;
            }
            v
        };
        assert_eq!(kids, [(DuelAction::Move(2), 3)]);
        // With 100 iterations every root action is opened (1 + floor(0.5 * sqrt(99)) = 5 > 4);
        // every line of Duel wins, so any of them may be chosen.
        let mut policy = configured::<Duel>(100, 0.5, false, vec![1.0]);
        assert!(legal.contains(&policy.choose(&state, &legal, &mut rng)));
        let mut c = policy.nodes[0].first_child;
        let mut n = 0;
        while c != NONE {
            n += 1;
            c = policy.nodes[c as usize].next_sibling;
        }
        assert_eq!(n, 4);
        assert_eq!(policy.root_children(), 4);
        assert_eq!(policy.tree_depth(), 2);
        assert_eq!(policy.nodes[0].visits, 100);
        assert!((1..policy.tree_size() as u32).all(|n| depth(&policy.nodes, n) <= 2));
    }

    #[test]
    fn widened_search_still_takes_the_sure_win_and_the_only_chance() {
        let legal = [RaceAction::Walk, RaceAction::Run];
        for stop in [false, true] {
            let mut policy = configured::<Race>(200, 1.0, stop, vec![1.0, 0.0]);
            let mut rng = stream_rng(10, 0, Stream::Policy);
            let at_nine = Race {
                position: 9,
                turn: 3,
            };
            assert_eq!(policy.choose(&at_nine, &legal, &mut rng), RaceAction::Walk);
            let behind = Race {
                position: 4,
                turn: 4,
            };
            assert_eq!(policy.choose(&behind, &legal, &mut rng), RaceAction::Run);
        }
    }

    fn with_prior<G: Game>(
        iterations: u32,
        exploration: f64,
        prior_visits: u32,
        weights: Vec<f64>,
    ) -> MctsPolicy<G> {
        let config = MctsConfig {
            iterations,
            exploration,
            rollout_depth: 10,
            rollout_samples: 4,
            prior_visits,
            ..MctsConfig::default()
        };
        MctsPolicy::new(config, weights)
    }

    /// The root's children, newest first: action, visits, total.
    fn root_kids<G: Game>(policy: &MctsPolicy<G>) -> Vec<(G::Action, u32, f64)> {
        let mut v = Vec::new();
        let mut c = policy.nodes[0].first_child;
        while c != NONE {
            let n = &policy.nodes[c as usize];
            v.push((n.action, n.visits, n.total));
            c = n.next_sibling;
        }
        v
    }

    #[test]
    fn prior_opens_greedys_best_first_with_its_virtual_visits() {
        // Duel: greedy's best is move 2 (a won line, so its prior value is 1). One iteration
        // opens exactly that child, with 4 virtual visits worth 1 each plus its won rollout.
        let state = Duel::new_game(&(), &mut stream_rng(0, 0, Stream::Setup));
        let mut legal = Vec::new();
        state.legal_actions(&mut legal);
        for seed in 0..8 {
            let mut rng = stream_rng(seed, 0, Stream::Policy);
            let mut policy = with_prior::<Duel>(1, 1.0, 4, vec![1.0]);
            assert_eq!(policy.choose(&state, &legal, &mut rng), DuelAction::Move(2));
            assert_eq!(root_kids(&policy), [(DuelAction::Move(2), 5, 5.0)]);
        }
    }

    #[test]
    fn prior_keeps_a_child_closed_until_its_ucb_beats_the_best() {
        // Every Duel line wins: with no exploration bonus an unopened action's UCB (its prior
        // value, 1) never beats the first child's mean (1), so 50 iterations keep one root
        // child; with exploration, the unopened ones are opened as the root's visits grow;
        // plain UCT opens all four at once.
        let state = Duel::new_game(&(), &mut stream_rng(0, 0, Stream::Setup));
        let mut legal = Vec::new();
        state.legal_actions(&mut legal);
        let mut rng = stream_rng(11, 0, Stream::Policy);
        let mut greedy_only = with_prior::<Duel>(50, 0.0, 10, vec![1.0]);
        assert_eq!(
            greedy_only.choose(&state, &legal, &mut rng),
            DuelAction::Move(2)
        );
        assert_eq!(root_kids(&greedy_only), [(DuelAction::Move(2), 60, 60.0)]);
        let mut exploring = with_prior::<Duel>(50, 1.0, 10, vec![1.0]);
        exploring.choose(&state, &legal, &mut rng);
        assert_eq!(exploring.root_children(), 4);
        let kids = root_kids(&exploring);
        // Opened best first: move 2, then moves 0 and 1 (tied at 2), then wait.
        assert_eq!(kids.last().map(|k| k.0), Some(DuelAction::Move(2)));
        assert_eq!(kids.first().map(|k| k.0), Some(DuelAction::Wait));
        assert!(kids.iter().all(|k| k.1 > 10), "{kids:?}");
        assert_eq!(exploring.nodes[0].visits, 50);
    }

    #[test]
    fn prior_search_still_takes_the_sure_win_and_the_only_chance() {
        let legal = [RaceAction::Walk, RaceAction::Run];
        for k in [1, 5, 50] {
            let mut policy = with_prior::<Race>(200, 1.0, k, vec![1.0, 0.0]);
            let mut rng = stream_rng(12, 0, Stream::Policy);
            let at_nine = Race {
                position: 9,
                turn: 3,
            };
            assert_eq!(policy.choose(&at_nine, &legal, &mut rng), RaceAction::Walk);
            // Square 4 with two turns left: walking loses for sure, running wins 1 in 4.
            let behind = Race {
                position: 4,
                turn: 4,
            };
            assert_eq!(
                policy.choose(&behind, &legal, &mut rng),
                RaceAction::Run,
                "{k}"
            );
        }
    }

    #[test]
    #[should_panic(expected = "exclude each other")]
    fn prior_and_widening_are_refused_together() {
        let mut config = *with_prior::<Race>(10, 1.0, 3, vec![1.0, 0.0]).config();
        config.widening = 1.0;
        let _ = MctsPolicy::<Race>::new(config, vec![1.0, 0.0]);
    }

    fn closed<G: Game>(
        iterations: u32,
        chance_outcomes: u32,
        rollout: Rollout,
        weights: Vec<f64>,
    ) -> MctsPolicy<G> {
        let config = MctsConfig {
            iterations,
            exploration: 0.7,
            rollout,
            rollout_depth: 10,
            chance_outcomes,
            ..MctsConfig::default()
        };
        MctsPolicy::new(config, weights)
    }

    /// The state a decision node of a closed-loop tree stands for: the root's or its
    /// outcome's.
    fn decision_state(policy: &MctsPolicy<Race>, root: Race, n: u32) -> Race {
        let state = policy.nodes[n as usize].state;
        if state == NONE {
            root
        } else {
            policy.states[state as usize]
        }
    }

    #[test]
    fn closed_loop_keeps_one_outcome_per_roll_below_each_action() {
        // Race: a walk has one outcome (+1), a run two (+3 or +0), whatever the cap above 2.
        let root = Race {
            position: 0,
            turn: 0,
        };
        let legal = [RaceAction::Walk, RaceAction::Run];
        let mut policy = closed::<Race>(2_000, 8, Rollout::Random, vec![1.0, 0.0]);
        policy.choose(&root, &legal, &mut stream_rng(3, 0, Stream::Policy));
        let mut two_rolls = 0;
        for (i, n) in policy.nodes.iter().enumerate().skip(1) {
            if n.state == NONE {
                // An action node: its parent is a decision node, its children outcomes.
                let before = decision_state(&policy, root, n.parent);
                let mut outcomes = Vec::new();
                let mut c = n.first_child;
                while c != NONE {
                    let o = &policy.nodes[c as usize];
                    assert_ne!(o.state, NONE, "node {i} has an action child");
                    assert_eq!(o.action, n.action);
                    outcomes.push(policy.states[o.state as usize]);
                    c = o.next_sibling;
                }
                assert!(!outcomes.is_empty(), "action node {i} has no outcome");
                let gains: Vec<u8> = outcomes
                    .iter()
                    .map(|after| {
                        assert_eq!(after.turn, before.turn + 1);
                        after.position - before.position
                    })
                    .collect();
                match n.action {
                    RaceAction::Walk => assert_eq!(gains, [1], "node {i}"),
                    RaceAction::Run => {
                        assert!(gains.len() <= 2);
                        for (g, after) in gains.iter().zip(&outcomes) {
                            assert!(*g == 0 || *g == 3 || after.position == GOAL, "node {i}");
                        }
                        assert!(
                            gains.len() == 1 || gains[0] != gains[1],
                            "node {i}: {gains:?}"
                        );
                        two_rolls += usize::from(gains.len() == 2);
                    }
                }
            } else {
                assert_eq!(policy.nodes[n.parent as usize].state, NONE, "outcome {i}");
            }
        }
        assert!(two_rolls > 5, "{two_rolls} runs with both rolls");
        // Depth counts decisions, not outcome nodes: at most the 6 turns.
        assert!(
            (2..=6).contains(&policy.tree_depth()),
            "{}",
            policy.tree_depth()
        );
    }

    #[test]
    fn closed_loop_cap_of_one_outcome_follows_the_first_roll() {
        let root = Race {
            position: 0,
            turn: 0,
        };
        let legal = [RaceAction::Walk, RaceAction::Run];
        let mut policy = closed::<Race>(1_000, 1, Rollout::Random, vec![1.0, 0.0]);
        policy.choose(&root, &legal, &mut stream_rng(4, 0, Stream::Policy));
        for n in policy.nodes.iter().skip(1).filter(|n| n.state == NONE) {
            let first = n.first_child;
            assert_ne!(first, NONE);
            assert_eq!(policy.nodes[first as usize].next_sibling, NONE);
            // Every pass through the action counted as a roll of its one outcome or not, but
            // the outcome was visited as often as the action.
            assert_eq!(policy.nodes[first as usize].visits, n.visits);
        }
    }

    #[test]
    fn closed_loop_values_a_plan_per_roll() {
        // Square 5 with three turns left (needs 5). Running first wins 5/8: on heads walk
        // twice (sure), on tails run twice (1/4). No fixed three-action line wins more than
        // 1/2, so the open-loop tree, which keeps one line for both rolls, values running at
        // most 1/2 (as much as walking first), while the closed-loop tree sees 5/8.
        let at = Race {
            position: 5,
            turn: 3,
        };
        let legal = [RaceAction::Walk, RaceAction::Run];
        let run_mean = |policy: &MctsPolicy<Race>| {
            root_kids(policy)
                .into_iter()
                .find(|(a, _, _)| *a == RaceAction::Run)
                .map(|(_, visits, total)| total / f64::from(visits))
                .unwrap()
        };
        let mut rng = stream_rng(6, 0, Stream::Policy);
        for _ in 0..5 {
            let mut closed_loop = closed::<Race>(4_000, 8, Rollout::Random, vec![1.0, 0.0]);
            let pick = closed_loop.choose(&at, &legal, &mut rng);
            assert_eq!(pick, RaceAction::Run);
            let mut open_loop = closed::<Race>(4_000, 0, Rollout::Random, vec![1.0, 0.0]);
            open_loop.choose(&at, &legal, &mut rng);
            let (c, o) = (run_mean(&closed_loop), run_mean(&open_loop));
            // 4,000 iterations: the closed-loop estimate is within a few points of 5/8, the
            // open-loop one within a few of 1/2 or below.
            assert!(c > 0.58 && c < 0.66, "closed loop values running at {c}");
            assert!(o < 0.55, "open loop values running at {o}");
        }
    }

    #[test]
    fn closed_loop_search_still_takes_the_sure_win_and_the_only_chance() {
        let legal = [RaceAction::Walk, RaceAction::Run];
        for rollout in [Rollout::Random, Rollout::Greedy] {
            let mut policy = closed::<Race>(300, 4, rollout, vec![1.0, 0.0]);
            let mut rng = stream_rng(7, 0, Stream::Policy);
            for (position, turn, best) in [
                (9, 3, RaceAction::Walk),
                (7, 5, RaceAction::Run),
                (4, 4, RaceAction::Run),
            ] {
                let s = Race { position, turn };
                assert_eq!(policy.choose(&s, &legal, &mut rng), best, "{s:?}");
                assert!(policy.tree_size() <= 601);
            }
        }
    }

    #[test]
    fn tree_depth_keeps_lines_short_and_spends_the_rest_on_rollouts() {
        let root = Race {
            position: 0,
            turn: 0,
        };
        let legal = [RaceAction::Walk, RaceAction::Run];
        // The whole tree to the limit: 2 actions a decision; closed loop, 1 outcome of a walk
        // and 2 of a run (so 1 + 2 + 3 outcomes, then 3 * 2 actions with 3 + 6 outcomes).
        for (limit, closed_loop, size) in [(1, 0, 3), (2, 0, 7), (2, 4, 21)] {
            let mut config =
                *closed::<Race>(500, closed_loop, Rollout::Random, vec![1.0, 0.0]).config();
            config.tree_depth = limit;
            let mut policy = MctsPolicy::<Race>::new(config, vec![1.0, 0.0]);
            policy.choose(&root, &legal, &mut stream_rng(9, 0, Stream::Policy));
            assert_eq!(policy.tree_depth(), limit, "limit {limit}");
            // Every iteration still passed through the root.
            assert_eq!(policy.nodes[0].visits, 500);
            assert_eq!(policy.tree_size(), size, "limit {limit}");
        }
    }

    /// The mean value of the root child for `action` after a search.
    fn child_mean(policy: &MctsPolicy<Race>, action: RaceAction) -> f64 {
        let mut c = policy.nodes[0].first_child;
        while c != NONE {
            let n = policy.nodes[c as usize];
            if n.action == action {
                return n.total / f64::from(n.visits);
            }
            c = n.next_sibling;
        }
        panic!("no child for {action:?}");
    }

    #[test]
    fn rollout_turns_stops_every_rollout_at_the_same_turn() {
        // One decision a turn: with a one-decision tree and a horizon of one turn after the
        // root's, no rollout plays a decision, so each root action is valued by the cut-off of
        // the state it leads to. A walk from square 0 is always square 1: exactly
        // cutoff_value(1, 0). A run is square 3 or 0: a mean strictly between the two values.
        let root = Race {
            position: 0,
            turn: 3,
        };
        let legal = [RaceAction::Walk, RaceAction::Run];
        let search = |turns: u32| {
            let config = MctsConfig {
                iterations: 300,
                rollout_depth: 10,
                tree_depth: 1,
                rollout_turns: turns,
                ..MctsConfig::default()
            };
            let mut policy = MctsPolicy::<Race>::new(config, vec![1.0, 0.0]);
            policy.choose(&root, &legal, &mut stream_rng(4, 0, Stream::Policy));
            (
                child_mean(&policy, RaceAction::Walk),
                child_mean(&policy, RaceAction::Run),
            )
        };
        let (walk, run) = search(1);
        // (The mean of equal values, up to the rounding of their sum.)
        assert!((walk - cutoff_value(1.0, 0.0)).abs() < 1e-12, "{walk}");
        assert!(
            run > cutoff_value(0.0, 0.0) && run < cutoff_value(3.0, 0.0),
            "{run}"
        );
        // Without the horizon the rollouts play the two turns left after the root's to the end,
        // where every line is lost (square 1 or 3 plus at most 6 is short of 10): both 0.
        assert_eq!(search(0), (0.0, 0.0));
        // A horizon two turns on lets the rollout play one decision: a walk's value is then
        // the cut-off at square 2 (walk again) or at square 1 or 4 (run), never square 1 alone.
        let (walk, _) = search(2);
        assert!(walk > cutoff_value(1.0, 0.0), "{walk}");
    }

    #[test]
    #[should_panic(expected = "exclude each other")]
    fn chance_outcomes_and_stop_at_chance_are_refused_together() {
        let mut config = *closed::<Race>(10, 4, Rollout::Random, vec![1.0, 0.0]).config();
        config.stop_at_chance = true;
        let _ = MctsPolicy::<Race>::new(config, vec![1.0, 0.0]);
    }

    #[test]
    fn cutoff_value_is_centered_on_the_root_and_bounded() {
        assert_eq!(cutoff_value(3.0, 3.0), 0.5);
        assert!((cutoff_value(4.0, 3.0) - 0.731_058_578_6).abs() < 1e-9);
        assert!(cutoff_value(-1e9, 0.0) >= 0.0 && cutoff_value(1e9, 0.0) <= 1.0);
        assert_eq!(cutoff_value(f64::NAN, 0.0), 0.0);
    }
}
